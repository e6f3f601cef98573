"""A real SIGKILL between commits and posts: every acknowledged move's notices are in the outbox,
and the next process delivers them (issue 14, point 4).

The service streams moves in a subprocess (``tests/support/crash_driver.py``, three people playing a
classic game, each move acknowledged after its transaction committed) and is killed with
SIGKILL mid-stream, with no transport at all: nothing was ever delivered. Then this process
checks that every acknowledged move that made the engine say something left its notices in the
outbox, and serves the bot against the local fake Discord on that database: the outbox empties
and each person is told it is their move.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.outbox import notices_of
from bot.store import Store
from engine.core import LogReplay
from engine.registry import get_game
from tests.bot.test_delivery import delivered, dm_created
from tests.bot.test_discord_e2e import Running, loopback_only, no_errors_logged
from tests.bot.test_service_crash import GAME_ID, run_until_killed
from tests.support.crash_driver import PEOPLE
from tests.support.fake_discord import FakeDiscord

__all__ = ["loopback_only", "no_errors_logged"]  # the e2e module's autouse guards apply here too


async def noticed_seqs(db: Path, upto: int) -> tuple[set[int], set[int]]:
    """(the seqs up to ``upto`` whose action made the engine say something, the seqs of the notices
    in the outbox), read from the database the killed process left."""
    store = await Store.open(db)
    try:
        row = await store.get_game(GAME_ID)
        assert row is not None
        game = get_game(row.ruleset)
        run = LogReplay(game, game.setup(len(PEOPLE), row.options, row.seed))
        spoke = set()
        for entry in await store.actions(GAME_ID):
            result = run.apply(entry.action)
            if entry.seq <= upto and result.events:
                spoke.add(entry.seq)
        stored = {n.seq for r in await store.outbox_rows() for n in notices_of(r.game_id, r.payload)}
        return spoke, stored
    finally:
        await store.close()


@pytest.mark.asyncio
async def test_a_sigkill_after_the_commits_loses_no_notice(tmp_path: Path) -> None:
    db = tmp_path / "annals.sqlite3"
    _, acknowledged, _ = await run_until_killed(str(db), 12, 0.01)
    spoke, stored = await noticed_seqs(db, acknowledged)
    assert spoke, "the engine said nothing in the acknowledged moves: nothing was tested"
    assert spoke <= stored, f"notices of moves {sorted(spoke - stored)} were lost with the process"
    async with FakeDiscord({p: f"p{p}" for p in PEOPLE}, heartbeat_interval=250) as fake:
        with fake.configure():
            bot = await Running(fake, tmp_path).start()
            try:
                await delivered(bot.service.store)
                rows = await bot.service.store.outbox_rows()
                assert all(r.delivered_at is not None for r in rows)
                waiting = (await bot.service.status(GAME_ID)).waiting_for
                for user in waiting:
                    assert any(f"Your move in game `{GAME_ID}`" in r.content for r in dm_created(fake, user))
            finally:
                await asyncio.wait_for(bot.shutdown(), 60)
