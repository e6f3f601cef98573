"""Keeping the connection that hears other processes open (bot.service.following), over a store
whose listening connection the test drops and refuses at will; no server, no real pauses."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.clock import FakeClock
from bot.service import GameService
from bot.service.following import Following
from bot.storage import GameStore, open_store
from bot.store import StoreBusy

WAIT = 30.0  # seconds an awaited step may take before the test fails (never a timing assertion)


class FakeListening:
    def __init__(self) -> None:
        self.gone = asyncio.Event()
        self.dropped = False
        self.closed = False

    async def lost(self) -> bool:
        await self.gone.wait()
        return self.dropped

    async def close(self) -> None:
        self.closed = True
        self.gone.set()

    def drop(self, *, on_purpose: bool = False) -> None:
        self.dropped = not on_purpose
        self.gone.set()


class FakeStore:
    """What Following uses of a shared store: ``listen``, refused while ``down`` is above zero."""

    def __init__(self, *, down: int = 0) -> None:
        self.down = down
        self.opened: list[FakeListening] = []
        self.changed: Callable[[str], object] | None = None

    async def listen(self, changed: Callable[[str], object]) -> FakeListening:
        if self.down > 0:
            self.down -= 1
            raise StoreBusy("the database server cannot be reached (connection refused)")
        self.changed = changed
        self.opened.append(FakeListening())
        return self.opened[-1]


class Pauses:
    """A sleep that records each pause and returns at once."""

    def __init__(self) -> None:
        self.taken: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.taken.append(seconds)
        await asyncio.sleep(0)


async def until(check: Callable[[], bool]) -> None:
    async def polling() -> None:
        while not check():
            await asyncio.sleep(0)

    await asyncio.wait_for(polling(), WAIT)


def following(store: FakeStore, heard: list[str | None], pauses: Pauses) -> Following:
    return Following(store, heard.append, first_pause=0.5, longest_pause=4.0,  # type: ignore[arg-type]
                     sleep=pauses)


@pytest.mark.asyncio
async def test_a_dropped_connection_is_reopened_with_a_growing_pause_and_one_line_each_way(
        caplog: pytest.LogCaptureFixture) -> None:
    store, heard, pauses = FakeStore(), list[str | None](), Pauses()
    keeper = following(store, heard, pauses)
    assert await keeper.start()
    assert store.changed is not None
    store.changed("g1")
    assert heard == ["g1"]
    caplog.set_level(logging.DEBUG, logger="bot.service")
    store.down = 6  # the server refuses six tries, then lets us in
    store.opened[0].drop()
    await until(lambda: len(store.opened) == 2)
    assert pauses.taken == [0.5, 1.0, 2.0, 4.0, 4.0, 4.0, 4.0]  # doubling, capped; the 7th try got in
    await until(lambda: heard == ["g1", None])  # what changed meanwhile was missed: any game may have
    loud = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert [r.getMessage().split(";")[0] for r in loud] == [
        "lost the connection that hears other processes' changes",
        "hearing other processes' changes again (reconnected at try 7)"]
    assert all(r.exc_info is None for r in caplog.records)  # never a traceback per try
    await keeper.stop()
    assert store.opened[1].closed and not keeper.hearing
    assert not [t for t in asyncio.all_tasks() if t.get_name() == "annals-following"]


@pytest.mark.asyncio
async def test_a_server_out_of_reach_at_start_up_is_tried_again_in_the_background(
        caplog: pytest.LogCaptureFixture) -> None:
    store, heard, pauses = FakeStore(down=2), list[str | None](), Pauses()
    keeper = following(store, heard, pauses)
    assert await keeper.start()  # the bot starts all the same
    await until(lambda: heard == [None])
    assert len(store.opened) == 1 and pauses.taken == [0.5, 1.0]
    assert [r.getMessage().split(" (")[0] for r in caplog.records if r.levelno >= logging.WARNING] == [
        "cannot hear the changes of other processes yet", "hearing other processes' changes again"]
    await keeper.stop()


@pytest.mark.asyncio
async def test_a_connection_closed_with_the_store_ends_the_task_without_reconnecting() -> None:
    store, heard, pauses = FakeStore(), list[str | None](), Pauses()
    keeper = following(store, heard, pauses)
    assert await keeper.start()
    store.opened[0].drop(on_purpose=True)  # the store closed before the service stopped following
    await until(lambda: not [t for t in asyncio.all_tasks() if t.get_name() == "annals-following"])
    assert len(store.opened) == 1 and pauses.taken == [] and heard == []
    await keeper.stop()  # still fine to call


@pytest.mark.asyncio
async def test_a_store_one_process_writes_has_nothing_to_follow(tmp_path: Path) -> None:
    store: GameStore = await open_store(tmp_path / "one.db")
    try:
        service = GameService(store, FakeClock())
        assert not await service.follow_others()  # SQLite: no connection, no task
        assert not [t for t in asyncio.all_tasks() if t.get_name() == "annals-following"]
        await service.stop_following()
    finally:
        await store.close()


@pytest.mark.asyncio
async def test_a_change_heard_drops_the_copy_and_tells_every_listener_even_after_one_fails(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    store: GameStore = await open_store(tmp_path / "one.db")
    try:
        service = GameService(store, FakeClock())
        gid = (await service.create_lobby(1, "Ann", "history-classic")).game_id
        await service.status(gid)
        assert gid in service._cache

        def broken(_game_id: str | None) -> None:
            raise RuntimeError("boom")

        told: list[str | None] = []
        service.on_changed_elsewhere(broken)
        service.on_changed_elsewhere(told.append)
        service.changed_elsewhere(gid)
        assert gid not in service._cache and told == [gid]
        assert "listener failed for a change of game" in caplog.text
    finally:
        await store.close()
