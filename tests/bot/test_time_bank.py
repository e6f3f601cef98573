"""A time bank as a timer policy beside a fixed time per move (issue 30), with the clock moved by hand.

Each seat starts with the bank; its running deadline is what is left of it; each of its moves adds the
increment, up to the cap. Reminders, vacation, pause, time-outs and the AI's take-over work as they do
for a fixed time per move.
"""

from __future__ import annotations

import io
import itertools
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.clock import FakeClock
from bot.models import NoticeKind, TimerSettings
from bot.read_input import timers_from
from bot.service import GameService, ServiceError
from bot.store import Store
from engine.registry import make_policy

pytestmark = pytest.mark.asyncio
GAME = "history-classic"
HOUR = 3600
PEOPLE = (1, 2, 3)


def ids() -> Callable[[], str]:
    counter = itertools.count(1)
    return lambda: f"g{next(counter)}"


async def started(svc: GameService, timers: TimerSettings) -> str:
    gid = (await svc.create_lobby(PEOPLE[0], "ann", GAME, timers=timers)).game_id
    for user in PEOPLE[1:]:
        await svc.join(gid, user, f"p{user}")
    await svc.start(gid, PEOPLE[0])
    return gid


async def due_of(svc: GameService, gid: str, user: int) -> int:
    status = await svc.status(gid)
    return next(d.due_at for d in status.deadlines if d.kind == "turn" and d.user_id == user)


async def move(svc: GameService, gid: str) -> int:
    """The person to move plays a random legal move that keeps them to move (a move within their turn
    when they have one); returns who moved."""
    status = await svc.status(gid)
    user = status.waiting_for[0]
    seq, state = await svc.engine_state(gid)
    seat = next(s.seat for s in status.seats if s.user_id == user)
    assert seat is not None
    action = make_policy(GAME, "random", seq).choose(state, seat)
    await svc.submit(gid, user, action.to_json(), seq)
    return user


def bank(bank_seconds: int = 0, bank_increment: int = 0, bank_cap: int = 0, misses_before_ai: int = 3
         ) -> TimerSettings:
    return TimerSettings(reminder_offsets=(), bank_seconds=bank_seconds, bank_increment=bank_increment,
                         bank_cap=bank_cap, misses_before_ai=misses_before_ai)


async def test_the_running_deadline_is_the_bank_and_a_move_adds_the_increment_up_to_the_cap(
        store: Store) -> None:
    clock = FakeClock()
    svc = GameService(store, clock, id_factory=ids(), seed_factory=lambda: 4)
    gid = await started(svc, bank(bank_seconds=2 * HOUR, bank_increment=HOUR, bank_cap=3 * HOUR))
    user = (await svc.status(gid)).waiting_for[0]
    assert await due_of(svc, gid, user) == int(clock.now()) + 2 * HOUR  # the whole bank
    clock.advance(HOUR // 2)
    await move(svc, gid)
    left = 2 * HOUR - HOUR // 2 + HOUR  # 1h30m left, +1h for the move: 2h30m, within the 3h cap
    if user in (await svc.status(gid)).waiting_for:  # their turn goes on: the bank runs on at once
        assert await due_of(svc, gid, user) == int(clock.now()) + left
    else:
        assert next(s for s in (await svc.status(gid)).seats if s.user_id == user).bank_left == left


async def test_a_quick_move_never_grows_the_bank_past_its_cap(store: Store) -> None:
    clock = FakeClock()
    svc = GameService(store, clock, id_factory=ids(), seed_factory=lambda: 4)
    gid = await started(svc, bank(bank_seconds=2 * HOUR, bank_increment=3 * HOUR, bank_cap=4 * HOUR))
    first = (await svc.status(gid)).waiting_for[0]
    while first in (await svc.status(gid)).waiting_for:  # their turn, played at once
        await move(svc, gid)
    seat = next(s for s in (await svc.status(gid)).seats if s.user_id == first)
    assert seat.bank_left == 4 * HOUR  # 2h left + 3h would be 5h: capped at 4h


async def test_a_spent_bank_times_out_and_the_increment_is_all_that_is_left(store: Store) -> None:
    clock = FakeClock()
    svc = GameService(store, clock, id_factory=ids(), seed_factory=lambda: 4)
    gid = await started(svc, bank(bank_seconds=HOUR, bank_increment=HOUR // 2, misses_before_ai=0))
    status = await svc.status(gid)
    late = status.waiting_for[0]
    turn = next(d for d in status.deadlines if d.kind == "turn")
    clock.advance(HOUR - 1)
    assert await svc.fire_deadline(turn.deadline_id) is None  # a second of the bank is left
    clock.advance(1)
    outcome = await svc.fire_deadline(turn.deadline_id)
    assert outcome is not None and any(n.kind is NoticeKind.timeout for n in outcome.notices)
    if late in (await svc.status(gid)).waiting_for:  # their move again: a clock of the increment alone
        assert await due_of(svc, gid, late) == int(clock.now()) + HOUR // 2
    else:
        assert next(s for s in (await svc.status(gid)).seats if s.user_id == late).bank_left == HOUR // 2


async def test_a_pause_keeps_what_was_left_and_a_resume_runs_it_on(store: Store) -> None:
    clock = FakeClock()
    svc = GameService(store, clock, id_factory=ids(), seed_factory=lambda: 4)
    gid = await started(svc, bank(bank_seconds=2 * HOUR, bank_increment=HOUR))
    user = (await svc.status(gid)).waiting_for[0]
    clock.advance(HOUR // 2)
    await svc.pause(gid, PEOPLE[0])
    clock.advance(5 * HOUR)  # no bank runs while the game is paused
    await svc.resume(gid, PEOPLE[0])
    assert await due_of(svc, gid, user) == int(clock.now()) + 2 * HOUR - HOUR // 2  # no increment: no move


async def test_a_vacation_moves_the_running_bank_and_a_restart_keeps_it(store: Store) -> None:
    clock = FakeClock()
    svc = GameService(store, clock, id_factory=ids(), seed_factory=lambda: 4)
    gid = await started(svc, bank(bank_seconds=2 * HOUR, bank_increment=HOUR))
    user = (await svc.status(gid)).waiting_for[0]
    start = int(clock.now())
    await svc.vacation(gid, user, 1)
    assert await due_of(svc, gid, user) == start + 2 * HOUR + 24 * HOUR
    restarted = GameService(store, clock)  # a restart mid-bank: the stored deadline is the bank
    assert await due_of(restarted, gid, user) == start + 2 * HOUR + 24 * HOUR
    clock.advance(HOUR)
    while user in (await restarted.status(gid)).waiting_for:
        await move(restarted, gid)
    seat = next(s for s in (await restarted.status(gid)).seats if s.user_id == user)
    assert seat.bank_left is not None and seat.bank_left >= 25 * HOUR  # 25h left (vacation) + 1h a move


async def test_the_ai_takes_over_a_seat_whose_banks_run_out_and_gives_it_back_with_its_increment(
        store: Store) -> None:
    clock = FakeClock()
    svc = GameService(store, clock, id_factory=ids(), seed_factory=lambda: 4)
    gid = await started(svc, bank(bank_seconds=HOUR, bank_increment=HOUR // 4, misses_before_ai=1))
    status = await svc.status(gid)
    late = status.waiting_for[0]
    turn = next(d for d in status.deadlines if d.kind == "turn")
    clock.advance(HOUR)
    outcome = await svc.fire_deadline(turn.deadline_id)
    assert outcome is not None and any(n.kind is NoticeKind.autopilot for n in outcome.notices)
    seat = next(s for s in (await svc.status(gid)).seats if s.user_id == late)
    assert seat.is_ai and seat.bank_left == HOUR // 4
    await svc.reclaim(gid, late)
    if late in (await svc.status(gid)).waiting_for:  # back, and to move: the bank they had runs
        assert await due_of(svc, gid, late) == int(clock.now()) + HOUR // 4
    else:
        assert next(s for s in (await svc.status(gid)).seats if s.user_id == late).bank_left == HOUR // 4


async def test_bank_settings_are_checked() -> None:
    assert bank(bank_seconds=3 * 24 * HOUR, bank_increment=12 * HOUR, bank_cap=5 * 24 * HOUR).problems() == []
    assert bank(bank_seconds=3 * HOUR, bank_cap=HOUR).problems() == [
        "A time bank's cap must be at least the bank and at most 60 days."]
    assert "need a time bank" in " ".join(bank(bank_increment=HOUR).problems())
    assert bank(bank_seconds=2 * HOUR, bank_increment=HOUR, bank_cap=3 * HOUR).banked(5 * HOUR // 2) \
        == 3 * HOUR
    assert timers_from(TimerSettings(), {"bank": "3d", "increment": "12h", "cap": "5d"}) == TimerSettings(
        bank_seconds=3 * 24 * HOUR, bank_increment=12 * HOUR, bank_cap=5 * 24 * HOUR)
    with pytest.raises(ServiceError) as info:
        timers_from(TimerSettings(), {"bank": "2h", "cap": "1h", "remind": "none"})
    assert info.value.code == "bad_timers" and "cap" in info.value.message


async def test_the_console_sets_a_bank_and_shows_it(tmp_path: Path) -> None:
    """``create ... bank=3d increment=12h cap=5d``: the timers read as a bank, and a person whose clock
    is not running is shown what is left of theirs (the one to move is shown their deadline)."""
    from bot.console import Console
    from bot.lines import LinesFrom

    store = await Store.open(tmp_path / "annals.sqlite3")
    out = io.StringIO()
    try:
        svc = GameService(store, FakeClock(), id_factory=ids(), seed_factory=lambda: 4)
        console = Console(svc, out)
        await console.run(LinesFrom([
            "/as ann create history-classic bank=3d increment=12h cap=5d remind=none", "/as bo join",
            "/as cy join", "/as ann start", "/as ann status"]))
    finally:
        await store.close()
    said = out.getvalue()
    assert "Timers: a time bank of 3d, +12h per move up to 5d" in said
    assert said.count("time bank 3d") == 2  # the two not to move; the one to move: "due ..."
