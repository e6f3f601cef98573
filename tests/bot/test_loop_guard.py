"""CPU-heavy service paths never run on the event loop's thread (issue 25): the guard that proves it.

The test suite runs with ``ANNALS_LOOP_GUARD=1`` (tests/conftest.py), so every test that drives the
service, the console or the Discord front fails with :class:`LoopHeld` if a move, an AI batch, a
decision, a view, a picture or a replay slips back onto the loop. These tests show the guard bites.
"""

from __future__ import annotations

import asyncio
import os

import pytest

from bot.clock import FakeClock
from bot.digest import pictures_of
from bot.service import GameService
from bot.service.offload import LoopHeld, cpu, off_loop
from bot.service.records import recover_records
from bot.store import Store
from engine.registry import get_game, specs


@off_loop
def heavy(n: int) -> int:
    return sum(range(n))


@pytest.mark.asyncio
async def test_the_suite_runs_with_the_guard_on() -> None:
    assert os.environ.get("ANNALS_LOOP_GUARD") == "1"


@pytest.mark.asyncio
async def test_heavy_work_on_the_loop_raises_and_in_a_worker_thread_does_not() -> None:
    with pytest.raises(LoopHeld, match="heavy ran on the event loop"):
        heavy(10)
    assert await cpu(heavy, 10) == 45
    assert heavy.__name__ == "heavy"


def test_outside_any_loop_the_guard_lets_work_run() -> None:
    assert heavy(4) == 6


@pytest.mark.parametrize("spec_id", [s.id for s in specs()])
@pytest.mark.asyncio
async def test_every_games_pictures_are_work_for_a_thread(spec_id: str) -> None:
    game = get_game(spec_id)
    view = game.view(game.setup(game.min_players, {}, 1), None)
    draw = pictures_of(spec_id)
    with pytest.raises(LoopHeld):
        draw(view, size=400)
    assert await asyncio.to_thread(draw, view, size=400)


@pytest.mark.asyncio
async def test_a_replay_on_the_loop_raises() -> None:
    with pytest.raises(LoopHeld):
        recover_records(get_game(specs()[0].id), 3, {}, 1, [], {})


@pytest.mark.asyncio
async def test_a_game_played_by_ai_seats_runs_its_engine_off_the_loop(store: Store) -> None:
    """A lobby of one person and AI seats: every AI batch, move, decision and view of a game runs in a
    worker thread (the guard would raise on the loop), from the start to the person's decision."""
    svc = GameService(store, FakeClock(), seed_factory=lambda: 3)
    for spec in specs():
        gid = (await svc.create_lobby(1, "ann", spec.id)).game_id
        for _ in range(spec.max_players - 1):
            await svc.add_ai(gid, 1)
        await svc.start(gid, 1)
        await svc.decision(gid, 1)
        await svc.view(gid, 1)
        await svc.legal_actions(gid, 1)
        svc.forget(gid)
        await svc.status(gid)  # loading the snapshot again: off the loop too


@pytest.mark.asyncio
async def test_ai_batches_let_a_reader_of_the_same_game_in(store: Store) -> None:
    """Issue 25: AI moves run in batches that never hold a lock someone else's next click needs: a
    status asked while the AI plays a whole game inside ``start`` is answered between two batches,
    long before the game ends."""
    svc = GameService(store, FakeClock(), seed_factory=lambda: 3, ai_batch=4)
    gid = (await svc.create_lobby(1, "ann", "history-classic", creator_joins=False)).game_id
    for _ in range(3):
        await svc.add_ai(gid, 1)
    starting = asyncio.ensure_future(svc.start(gid, 1))
    await asyncio.sleep(0)  # the start takes the game's lock
    status = await svc.status(gid)
    assert not starting.done() and status.status == "active"
    await starting
    assert (await svc.status(gid)).status == "over"
