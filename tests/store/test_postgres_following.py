"""Two bot processes on one PostgreSQL database: each hears the games the other changes.

Each "process" here is a store, a :class:`GameService` and a :class:`Scheduler` of its own over the
same database (their own connections, their own caches, as two processes have). Instance B only
reads; a move made through A must reach B's next read, B's timers must follow A's new clocks, and
B must keep hearing after its listening connection is cut. Nothing waits on wall-clock time: each
step waits for an event with a generous timeout.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field

import asyncpg  # type: ignore[import-untyped]  # ships no type information
import pytest
import pytest_asyncio

from bot.clock import FakeClock
from bot.models import TimerSettings
from bot.postgres_dialect import LISTENER_NAME
from bot.scheduler import Scheduler
from bot.service import GameService
from bot.service.following import Following
from bot.storage import open_store
from engine.registry import make_policy
from tests.support import pg

GAME = "history-classic"
HOUR = 3600
WAIT = 30.0  # seconds an awaited event may take before the test fails (never a timing assertion)


@pytest.fixture
def postgres_url() -> str:
    return pg.fresh_database_or_skip()


@dataclass
class Instance:
    """One bot process's objects: store, service, scheduler, and what it heard from the others."""

    service: GameService
    scheduler: Scheduler
    heard: list[str | None] = field(default_factory=list)
    news: asyncio.Event = field(default_factory=asyncio.Event)

    def changed(self, game_id: str | None) -> None:
        self.heard.append(game_id)
        self.news.set()

    async def hears(self, what: Callable[[list[str | None]], bool]) -> None:
        """Wait until what this instance heard satisfies ``what``."""
        async def waiting() -> None:
            while not what(self.heard):
                self.news.clear()
                await self.news.wait()

        await asyncio.wait_for(waiting(), WAIT)

    async def close(self) -> None:
        await self.scheduler.shutdown()
        await self.service.stop_following()
        await self.service.store.close()


@pytest_asyncio.fixture
async def two(postgres_url: str) -> AsyncIterator[tuple[Instance, Instance]]:
    clock = FakeClock()
    counter = itertools.count(1)
    made: list[Instance] = []
    for _ in range(2):
        service = GameService(await open_store(postgres_url), clock, id_factory=lambda: f"g{next(counter)}")
        made.append(Instance(service, Scheduler(service)))
        service.on_changed_elsewhere(made[-1].changed)
        await made[-1].scheduler.start(paused=True)  # jobs armed and inspectable, none fired
    yield made[0], made[1]
    for instance in made:
        await instance.close()


async def started_game(svc: GameService) -> str:
    timers = TimerSettings(move_seconds=HOUR, reminder_offsets=())
    gid = (await svc.create_lobby(1, "Ann", GAME, timers=timers, seed=7)).game_id
    for user in (2, 3):
        await svc.join(gid, user, f"P{user}")
    await svc.start(gid, 1)
    return gid


async def move(svc: GameService, gid: str) -> int:
    """Play one legal move for the first person waited for; returns the seq it made."""
    status = await svc.status(gid)
    seq, state = await svc.engine_state(gid)
    user = status.waiting_for[0]
    seat = next(s.seat for s in status.seats if s.user_id == user)
    assert seat is not None
    await svc.submit(gid, user, make_policy(GAME, "random", seq).choose(state, seat).to_json(), seq)
    return seq + 1


async def listeners(url: str) -> int:
    conn = await asyncpg.connect(url)
    try:
        return int(await conn.fetchval("SELECT count(*) FROM pg_stat_activity WHERE application_name = $1 "
                                       "AND datname = current_database()", LISTENER_NAME))
    finally:
        await conn.close()


async def until(check: Callable[[], Awaitable[bool]]) -> None:
    async def polling() -> None:
        while not await check():
            await asyncio.sleep(0.02)

    await asyncio.wait_for(polling(), WAIT)


@pytest.mark.asyncio
async def test_postgres_a_move_made_through_one_instance_reaches_the_others_reads_and_timers(
        two: tuple[Instance, Instance], postgres_url: str) -> None:
    """The bug: B served its cached board (and kept A's old clocks armed) until its own next write."""
    a, b = two
    assert await b.service.follow_others()  # the store is shared: B hears A
    gid = await started_game(b.service)  # B holds the game in its cache, its clocks armed
    before = await b.service.status(gid)
    assert b.scheduler.armed() == {d.deadline_id: d.due_at for d in before.deadlines if not d.fired}

    seq = await move(a.service, gid)
    await b.hears(lambda heard: gid in heard)

    after = await b.service.status(gid)  # B has written nothing since A's move
    assert after.seq == seq == before.seq + 1
    assert after.waiting_for != before.waiting_for
    assert (await b.service.turn(gid, after.waiting_for[0])).seq == seq
    await b.scheduler.idle()  # the re-arming the change started
    fresh = {d.deadline_id: d.due_at for d in (await a.service.status(gid)).deadlines if not d.fired}
    assert fresh and b.scheduler.armed() == fresh != {d.deadline_id: d.due_at for d in before.deadlines}
    assert b.heard == [gid]  # its own changes (the lobby, the start) are not reported back to it

    await b.service.stop_following()  # stopped: its connection closed, its task ended
    async def no_listener() -> bool:
        return await listeners(postgres_url) == 0

    await until(no_listener)
    assert not [t for t in asyncio.all_tasks() if t.get_name() == "annals-following"]


@pytest.mark.asyncio
async def test_postgres_hearing_survives_a_dropped_connection_and_misses_nothing_while_deaf(
        two: tuple[Instance, Instance], postgres_url: str, caplog: pytest.LogCaptureFixture) -> None:
    """The server cuts B's listening connection; A moves while B cannot hear; B reconnects, drops
    every cached game (it cannot know what it missed), and hears the next change again."""
    a, b = two
    deaf = asyncio.Event()  # B's reconnect waits until A's move is made
    cut = asyncio.Event()

    async def pause(_seconds: float) -> None:
        cut.set()
        await deaf.wait()

    following = Following(b.service.store, b.service.changed_elsewhere, sleep=pause)
    assert await following.start()
    try:
        gid = await started_game(b.service)
        seq = (await b.service.status(gid)).seq
        caplog.set_level(logging.WARNING, logger="bot.service")
        conn = await asyncpg.connect(postgres_url)
        try:
            assert await conn.fetchval("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                                       "WHERE application_name = $1 AND datname = current_database()",
                                       LISTENER_NAME) == 1
        finally:
            await conn.close()
        await asyncio.wait_for(cut.wait(), WAIT)  # B noticed, and waits before reconnecting
        assert not following.hearing

        moved = await move(a.service, gid)  # unheard by B: nobody listens for it
        deaf.set()
        await b.hears(lambda heard: None in heard)
        assert (await b.service.status(gid)).seq == moved == seq + 1  # read afresh all the same
        assert following.hearing

        again = await move(a.service, gid)
        await b.hears(lambda heard: gid in heard)
        assert (await b.service.status(gid)).seq == again
        assert b.heard == [None, gid]
        said = [r for r in caplog.records if r.name == "bot.service"]
        assert [r.getMessage().split(";")[0] for r in said] == [
            "lost the connection that hears other processes' changes",
            "hearing other processes' changes again (reconnected at try 1)"]
        assert all(r.exc_info is None for r in said)  # a line each, no traceback
    finally:
        await following.stop()
