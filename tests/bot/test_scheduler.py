"""The scheduler: reminders, timeouts, autopilot, vacation, restarts and the APScheduler jobs.

Time never passes really: a FakeClock moves and :meth:`Scheduler.run_due` is
called as the APScheduler jobs would call it; APScheduler itself runs paused, so
its jobs can be inspected (ids, run times) but never fire on their own.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import cast

import pytest
import pytest_asyncio

from bot.clock import FakeClock, to_datetime
from bot.models import Deadline, Notice, Outcome, TimerSettings
from bot.scheduler import SWEEP_JOB, Scheduler
from bot.service import DAY, GameService, ServiceError
from bot.storage import open_store
from bot.store import Store
from engine.registry import make_policy

pytestmark = pytest.mark.asyncio
GAME = "history-classic"
HOUR = 3600


def ids() -> Callable[[], str]:
    counter = itertools.count(1)
    return lambda: f"g{next(counter)}"


@dataclass
class Stack:
    """One "process": store, service and scheduler on a database file, plus what a transport heard."""

    store: Store
    service: GameService
    scheduler: Scheduler
    heard: list[Outcome] = field(default_factory=list)

    def notices(self, type_: str) -> list[Notice]:
        return [n for o in self.heard for n in o.notices if n.kind == type_]

    async def close(self) -> None:
        await self.scheduler.shutdown()
        await self.store.close()


class World:
    """Opens stacks on one database file and one fake clock; closes whatever is left open."""

    def __init__(self, path: str, clock: FakeClock) -> None:
        self.path = path
        self.clock = clock
        self.ids = ids()
        self.open: list[Stack] = []
        self.vacation_days = 14

    async def stack(self, *, start: bool = True) -> Stack:
        store = cast(Store, await open_store(self.path))
        service = GameService(store, self.clock, seed_factory=lambda: 42, id_factory=self.ids,
                              vacation_days=self.vacation_days)
        st = Stack(store, service, Scheduler(service))
        service.subscribe(st.heard.append)  # the transport
        if start:
            await st.scheduler.start(paused=True)
        self.open.append(st)
        return st

    async def restart(self, st: Stack) -> Stack:
        await st.close()
        self.open.remove(st)
        return await self.stack()


@pytest_asyncio.fixture
async def world(db_target: str) -> AsyncIterator[World]:  # SQLite and PostgreSQL (conftest)
    w = World(db_target, FakeClock())
    yield w
    for st in w.open:
        await st.close()


async def started(svc: GameService, humans: tuple[int, ...], ais: int, timers: TimerSettings) -> str:
    out = await svc.create_lobby(humans[0], f"P{humans[0]}", GAME, timers=timers, seed=42)
    gid = out.game_id
    for user in humans[1:]:
        await svc.join(gid, user, f"P{user}")
    for _ in range(ais):
        await svc.add_ai(gid, humans[0])
    await svc.start(gid, humans[0])
    return gid


async def turn_row(svc: GameService, gid: str) -> Deadline:
    status = await svc.status(gid)
    return next(d for d in status.deadlines if d.kind == "turn")


async def move(svc: GameService, gid: str, user: int) -> None:
    status = await svc.status(gid)
    seq, state = await svc.engine_state(gid)
    seat = next(s.seat for s in status.seats if s.user_id == user)
    assert seat is not None
    action = make_policy(GAME, "random", seq).choose(state, seat)
    await svc.submit(gid, user, action.to_json(), seq)


def job_times(sched: Scheduler) -> dict[str, object]:
    return {j.id: j.next_run_time for j in sched.jobs.get_jobs() if j.id != SWEEP_JOB}


# -- reminders and timeouts -------------------------------------------------------------


async def test_reminders_fire_at_the_right_times(world: World) -> None:
    st = await world.stack()
    timers = TimerSettings(move_seconds=2 * HOUR, reminder_offsets=(HOUR, 600))  # half time, 10 min before
    gid = await started(st.service, (1, 2, 3), 0, timers)
    turn = await turn_row(st.service, gid)
    waiting = (await st.service.status(gid)).waiting_for
    start = world.clock.now()
    assert turn.due_at == start + 2 * HOUR

    world.clock.set(start + HOUR - 1)
    assert await st.scheduler.run_due() == []
    world.clock.advance(1)  # half time
    fired = await st.scheduler.run_due()
    assert [n.kind for o in fired for n in o.notices] == ["reminder"]
    reminder = st.notices("reminder")[0]
    assert reminder.audience == waiting and not reminder.is_public
    assert reminder.data["due_at"] == turn.due_at
    assert await st.scheduler.run_due() == []  # once only

    world.clock.set(turn.due_at - 600 - 1)
    assert await st.scheduler.run_due() == []
    world.clock.advance(1)  # ten minutes before
    assert [n.kind for o in await st.scheduler.run_due() for n in o.notices] == ["reminder"]
    assert len(st.notices("reminder")) == 2 and st.notices("timeout") == []
    assert await st.service.fire_deadline(turn.deadline_id) is None  # not due yet


async def test_an_expired_deadline_makes_the_ai_move(world: World) -> None:
    st = await world.stack()
    gid = await started(st.service, (1, 2, 3), 0, TimerSettings(move_seconds=HOUR, reminder_offsets=()))
    turn = await turn_row(st.service, gid)
    seq = (await st.service.status(gid)).seq
    world.clock.set(turn.due_at)
    fired = await st.scheduler.run_due()
    assert len(fired) == 1
    timeout = st.notices("timeout")
    assert len(timeout) == 1 and timeout[0].is_public and timeout[0].data["policy"] == "ai"
    assert timeout[0].data["user_id"] == turn.user_id and timeout[0].data["missed"] == 1
    logged = await st.store.actions(gid, after_seq=seq)
    assert logged and logged[0].source == "timeout" and logged[0].player == turn.player
    seat = next(s for s in (await st.service.status(gid)).seats if s.seat == turn.player)
    assert not seat.is_ai and seat.missed_deadlines == 1  # one miss is not yet autopilot
    assert await st.store.get_deadline(turn.deadline_id) is None
    assert await st.scheduler.run_due() == []
    # the next clock is armed as a job
    nxt = await turn_row(st.service, gid)
    assert job_times(st.scheduler)[nxt.deadline_id] == to_datetime(nxt.due_at)
    assert turn.deadline_id not in job_times(st.scheduler)
    assert await st.service.verify_game(gid) == []


async def test_the_skip_policy_passes_the_turn(world: World) -> None:
    st = await world.stack()
    timers = TimerSettings(move_seconds=HOUR, reminder_offsets=(), timeout_policy="skip", misses_before_ai=0)
    gid = await started(st.service, (1, 2, 3), 0, timers)
    for _ in range(5):
        world.clock.set((await turn_row(st.service, gid)).due_at)
        assert len(await st.scheduler.run_due()) == 1
    assert {n.data["policy"] for n in st.notices("timeout")} == {"skip"}
    kinds = [a.action["kind"] for a in await st.store.actions(gid) if a.source == "timeout"]
    assert kinds and kinds[0] == "keep"  # an empire draw is passed by keeping the card
    assert set(kinds) <= {"keep", "done", "end_turn", "give", "play", "choose", "expand"}
    assert all(not s.is_ai for s in (await st.service.status(gid)).seats)
    assert st.notices("autopilot") == []


async def test_n_missed_deadlines_in_a_row_hand_the_seat_to_the_ai(world: World) -> None:
    st = await world.stack()
    timers = TimerSettings(move_seconds=HOUR, reminder_offsets=(), misses_before_ai=2)
    gid = await started(st.service, (1,), 2, timers)
    # miss, move, miss: not in a row, so no autopilot
    world.clock.set((await turn_row(st.service, gid)).due_at)
    await st.scheduler.run_due()
    await move(st.service, gid, 1)
    world.clock.set((await turn_row(st.service, gid)).due_at)
    await st.scheduler.run_due()
    assert [n.data["missed"] for n in st.notices("timeout")] == [1, 1]
    assert st.notices("autopilot") == []
    # the second miss in a row
    world.clock.set((await turn_row(st.service, gid)).due_at)
    await st.scheduler.run_due()
    autopilot = st.notices("autopilot")
    assert len(autopilot) == 1 and autopilot[0].is_public and autopilot[0].data["user_id"] == 1
    status = await st.service.status(gid)
    seat = next(s for s in status.seats if s.user_id == 1)
    assert seat.is_ai and seat.missed_deadlines == 2
    # for good: no clock runs for the seat any more, and nothing fires
    assert status.deadlines == () and job_times(st.scheduler) == {}
    world.clock.advance(30 * DAY)
    assert await st.scheduler.run_due() == []
    st = await world.restart(st)
    seat = next(s for s in (await st.service.status(gid)).seats if s.user_id == 1)
    assert seat.is_ai and st.notices("timeout") == []


# -- vacation -------------------------------------------------------------------------


async def test_vacation_extends_the_deadline_without_penalty_and_is_capped(world: World) -> None:
    world.vacation_days = 5
    st = await world.stack()
    timers = TimerSettings(move_seconds=DAY, reminder_offsets=(HOUR,))
    gid = await started(st.service, (1, 2, 3), 0, timers)
    before = {d.deadline_id: d.due_at for d in (await st.service.status(gid)).deadlines}
    turn = await turn_row(st.service, gid)
    user = turn.user_id
    assert user is not None
    assert await _code(st.service.vacation(gid, user, 0)) == "bad_days"
    assert await _code(st.service.vacation(gid, 77, 1)) == "not_seated"

    await st.service.vacation(gid, user, 3)
    notice = st.notices("vacation")[-1]
    assert notice.is_public and notice.data["days"] == 3 and notice.data["used"] == 3
    after = {d.deadline_id: d.due_at for d in (await st.service.status(gid)).deadlines}
    assert after == {i: due + 3 * DAY for i, due in before.items()}  # same ids, moved
    assert {i: due for i, due in after.items()} == {
        d.deadline_id: d.due_at for d in await st.store.game_deadlines(gid)}
    assert job_times(st.scheduler) == {i: to_datetime(due) for i, due in after.items()}

    world.clock.set(turn.due_at)  # the old deadline passes quietly
    assert await st.scheduler.run_due() == []
    st = await world.restart(st)  # the vacation survives a restart
    assert await _code(st.service.vacation(gid, user, 3)) == "vacation_cap"  # 3 + 3 > 5
    assert (await turn_row(st.service, gid)).due_at == turn.due_at + 3 * DAY
    await st.service.vacation(gid, user, 2)  # exactly the cap
    assert await _code(st.service.vacation(gid, user, 1)) == "vacation_cap"
    with pytest.raises(ServiceError, match="at most 5 vacation days"):
        await st.service.vacation(gid, user, 1)
    due = turn.due_at + 5 * DAY
    world.clock.set(due - HOUR)
    assert [n.kind for o in await st.scheduler.run_due() for n in o.notices] == ["reminder"]
    world.clock.set(due)
    await st.scheduler.run_due()
    timeout = st.notices("timeout")
    assert len(timeout) == 1 and timeout[0].data["missed"] == 1  # the vacation itself cost nothing
    seat = next(s for s in await st.store.get_seats(gid) if s.user_id == user)
    assert seat.vacation_days_used == 5
    assert await st.service.verify_game(gid) == []


# -- restarts --------------------------------------------------------------------------


async def test_a_restart_in_between_changes_nothing(world: World) -> None:
    st = await world.stack()
    timers = TimerSettings(move_seconds=2 * HOUR, reminder_offsets=(HOUR,), misses_before_ai=2)
    gid = await started(st.service, (1,), 2, timers)
    turn = await turn_row(st.service, gid)
    world.clock.set(turn.due_at - HOUR)
    await st.scheduler.run_due()
    assert len(st.notices("reminder")) == 1
    st = await world.restart(st)
    assert await st.scheduler.run_due() == [] and st.notices("reminder") == []  # not again
    assert set(job_times(st.scheduler)) == {turn.deadline_id}  # re-armed from the table
    world.clock.set(turn.due_at)
    await st.scheduler.run_due()
    assert len(st.notices("timeout")) == 1
    st = await world.restart(st)
    nxt = await turn_row(st.service, gid)
    world.clock.set(nxt.due_at)
    await st.scheduler.run_due()
    assert [n.data["missed"] for n in st.notices("timeout")] == [2]  # the count survived
    assert len(st.notices("autopilot")) == 1
    assert await st.service.verify_game(gid) == []


async def test_a_deadline_due_while_down_fires_once_at_start_up(world: World) -> None:
    st = await world.stack()
    gid = await started(st.service, (1, 2, 3), 0, TimerSettings(move_seconds=HOUR, reminder_offsets=(600,)))
    turn = await turn_row(st.service, gid)
    await st.close()
    world.open.remove(st)
    world.clock.set(turn.due_at + 5 * HOUR)  # the process was down meanwhile

    st = await world.stack(start=False)
    outcomes = await st.scheduler.start(paused=True)
    assert [n.data["user_id"] for o in outcomes for n in o.notices if n.kind == "timeout"] == [turn.user_id]
    assert st.notices("reminder") == []  # the player is told they are late, not that they will be
    assert len(st.notices("timeout")) == 1
    timeouts = [a for a in await st.store.actions(gid) if a.source == "timeout"]
    assert timeouts
    nxt = await turn_row(st.service, gid)
    assert nxt.due_at == world.clock.now() + HOUR  # the next player gets a whole hour

    st = await world.restart(st)  # a second start-up fires nothing
    assert st.notices("timeout") == [] and st.heard == []
    assert [a for a in await st.store.actions(gid) if a.source == "timeout"] == timeouts
    assert await st.service.verify_game(gid) == []


# -- the APScheduler side ------------------------------------------------------------------


async def test_jobs_are_armed_replaced_and_removed_for_the_right_ids_and_times(world: World) -> None:
    st = await world.stack()
    sched = st.scheduler
    assert sched.jobs.running and sched.jobs.get_job(SWEEP_JOB) is not None
    gid = await started(st.service, (1, 2, 3), 0, TimerSettings(move_seconds=HOUR, reminder_offsets=(600,)))
    rows = [d for d in (await st.service.status(gid)).deadlines if not d.fired]
    assert len(rows) == 2
    assert job_times(sched) == {d.deadline_id: to_datetime(d.due_at) for d in rows}
    for job in sched.jobs.get_jobs():
        assert job.coalesce is True and job.misfire_grace_time is None
    # a move: the old clock's jobs go, the next player's come
    waiting = (await st.service.status(gid)).waiting_for[0]
    world.clock.advance(60)
    await move(st.service, gid, waiting)
    rows2 = [d for d in (await st.service.status(gid)).deadlines if not d.fired]
    assert job_times(sched) == {d.deadline_id: to_datetime(d.due_at) for d in rows2}
    assert not {d.deadline_id for d in rows} & set(job_times(sched))
    # a fired reminder's job goes; the turn's stays
    turn = await turn_row(st.service, gid)
    world.clock.set(turn.due_at - 600)
    await sched.run_due()
    assert set(job_times(sched)) == {turn.deadline_id}
    # the sweeper re-arms a job that went missing, and drops one whose row is gone
    sched.jobs.remove_job(turn.deadline_id)
    sched.jobs.add_job(print, "date", run_date=to_datetime(world.clock.now() + 99), id="g1:0:0:turn")
    sched._armed.setdefault(gid, {})["g1:0:0:turn"] = int(world.clock.now() + 99)
    await sched.sweep()
    assert job_times(sched) == {turn.deadline_id: to_datetime(turn.due_at)}
    # pausing the game removes every job
    await st.service.pause(gid, 1)
    assert job_times(sched) == {}


async def test_a_job_runs_the_due_deadlines_through_an_owned_task(world: World) -> None:
    st = await world.stack()
    gid = await started(st.service, (1, 2, 3), 0, TimerSettings(move_seconds=HOUR, reminder_offsets=()))
    turn = await turn_row(st.service, gid)
    job = st.scheduler.jobs.get_job(turn.deadline_id)
    world.clock.set(turn.due_at)
    await job.func()  # what APScheduler does at the run time
    await st.scheduler.idle()  # the job handed the work to a task the scheduler owns
    assert len(st.notices("timeout")) == 1
    assert await st.store.get_deadline(turn.deadline_id) is None
    # at shutdown, work handed over but not begun is dropped (the next start-up fires it)
    nxt = await turn_row(st.service, gid)
    world.clock.set(nxt.due_at)
    job = st.scheduler.jobs.get_job(nxt.deadline_id)
    await job.func()
    await st.scheduler.shutdown()
    assert len(st.notices("timeout")) == 1
    st = await world.restart(st)
    assert len(st.notices("timeout")) == 1 and await st.store.get_deadline(nxt.deadline_id) is None


async def test_firing_is_idempotent_when_jobs_and_sweeps_meet(world: World) -> None:
    st = await world.stack()
    gid = await started(st.service, (1, 2, 3), 0, TimerSettings(move_seconds=HOUR, reminder_offsets=(600,)))
    turn = await turn_row(st.service, gid)
    world.clock.set(turn.due_at - 600)
    results = await asyncio.gather(st.scheduler.run_due(), st.scheduler.sweep(), st.scheduler.run_due())
    assert sum(len(r) for r in results) == 1 and len(st.notices("reminder")) == 1
    world.clock.set(turn.due_at)
    sched = st.scheduler
    await asyncio.gather(sched.run_due(), sched.sweep(), st.service.fire_deadline(turn.deadline_id))
    assert len(st.notices("timeout")) == 1


async def _code(coro: object) -> str:
    with pytest.raises(ServiceError) as info:
        await coro  # type: ignore[misc]
    return info.value.code


async def test_vacation_booked_ahead_delays_the_next_clock(world: World) -> None:
    """Days away declared while it is not your move: the next clock of yours starts
    when they end, with its reminders, and nothing counts as missed."""
    st = await world.stack()
    timers = TimerSettings(move_seconds=DAY, reminder_offsets=(HOUR,))
    gid = await started(st.service, (1, 2, 3), 0, timers)
    turn = await turn_row(st.service, gid)
    others = [u for u in (1, 2, 3) if u != turn.user_id]
    booked_at = world.clock.now()
    for user in others:
        await st.service.vacation(gid, user, 2)
    notice = st.notices("vacation")[-1]
    assert notice.data["due_at"] is None and notice.data["away_until"] == booked_at + 2 * DAY
    st = await world.restart(st)  # the booking survives a restart
    assert turn.user_id is not None
    seq, actions = await st.service.legal_actions(gid, turn.user_id)
    await st.service.submit(gid, turn.user_id, actions[0], seq)
    rows = [d for d in (await st.service.status(gid)).deadlines if d.user_id in others]
    assert rows, "the next player is one of the travellers"
    turn_rows = [d for d in rows if d.kind == "turn"]
    assert [d.due_at for d in turn_rows] == [booked_at + 2 * DAY + DAY]
    assert sorted(d.due_at for d in rows if d.kind == "reminder") == [booked_at + 3 * DAY - HOUR]


# == start-up with many games (issue 25) ======================================================
async def test_only_deadlines_due_within_the_horizon_are_armed_and_later_ones_as_they_near(
        world: World) -> None:
    """With ``arm_within`` a scheduler holds jobs only for deadlines coming soon (a job per deadline of
    thousands of games costs the loop seconds to arm); the sweeper arms the others as they near."""
    st = await world.stack(start=False)
    gid = await started(st.service, (1, 2, 3), 0, TimerSettings(move_seconds=HOUR, reminder_offsets=(600,)))
    turn = await turn_row(st.service, gid)
    reminder = next(d for d in (await st.service.status(gid)).deadlines if d.kind == "reminder")
    near = Scheduler(st.service, arm_within=600)
    await near.start(paused=True)
    try:
        assert set(job_times(near)) == set()  # both are more than ten minutes away
        world.clock.set(reminder.due_at - 300)
        await near.sweep()
        assert set(job_times(near)) == {reminder.deadline_id}
        world.clock.set(turn.due_at - 300)
        await near.sweep()
        assert turn.deadline_id in job_times(near)
    finally:
        await near.shutdown()
    with pytest.raises(ValueError):
        Scheduler(st.service, sweep_seconds=60, arm_within=60)


async def test_a_background_start_answers_before_the_games_are_brought_back(world: World) -> None:
    """``start(background=True)`` returns before start-up has brought a single game back: the front
    answers at once (a game asked for loads itself), and a shutdown waits for the work in flight."""
    st = await world.stack()
    gid = await started(st.service, (1, 2, 3), 0, TimerSettings(move_seconds=HOUR, reminder_offsets=(600,)))
    await st.close()
    world.open.remove(st)
    again = await world.stack(start=False)
    release = asyncio.Event()
    entered = asyncio.Event()
    real = again.service.startup

    async def slow_startup(**kwargs: object) -> list[Outcome]:
        entered.set()
        await release.wait()
        return await real(**kwargs)  # type: ignore[arg-type]

    again.service.startup = slow_startup  # type: ignore[method-assign]
    assert await again.scheduler.start(paused=True, background=True) == []
    await entered.wait()
    assert (await again.service.status(gid)).status == "active"  # answered while start-up waits
    release.set()
    await again.scheduler.idle()
    assert again.scheduler.armed()  # its clocks armed once start-up is done
