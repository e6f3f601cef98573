"""Crash safety: SIGKILL the service mid-stream, restart it, and nothing acknowledged is lost.

The service runs in a subprocess (tests/support/crash_driver.py) against a temporary
database, printing each acknowledged seq after its transaction committed. The
test kills it with SIGKILL while it keeps submitting, then checks the database
from this process: every acknowledged action is in the log, the log is
contiguous, the snapshot is not ahead of the log and equals the state replayed
from the seed (plus the log's tail), and the current actors still have their
deadlines. It restarts the driver and does it again, several times.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

import pytest

from bot.clock import FakeClock
from bot.service import GameService
from bot.storage import open_store
from engine.core import replay
from engine.registry import get_game

pytestmark = pytest.mark.asyncio
DRIVER = Path(__file__).resolve().parents[1] / "support" / "crash_driver.py"
GAME_ID = "crash1"
READ_LIMIT = 120.0  # seconds to wait for a line before declaring the driver hung (never a timing assertion)


async def read_line(proc: asyncio.subprocess.Process) -> str:
    assert proc.stdout is not None
    line = await asyncio.wait_for(proc.stdout.readline(), READ_LIMIT)
    return line.decode().strip()


async def run_until_killed(db: str, acks_before_kill: int, jitter: float) -> tuple[int, int, bool]:
    """Start the driver, wait for some acks, SIGKILL it. Returns (ready seq, last ack, game over).

    ``jitter`` delays the kill a little so it lands at different points of a submit
    (engine work, inside the transaction, after the commit but before the ack).
    """
    proc = await asyncio.create_subprocess_exec(
        sys.executable, str(DRIVER), db, GAME_ID,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(DRIVER.parents[2])},
    )
    try:
        first = await read_line(proc)
        assert first.startswith("ready "), first
        ready = int(first.split()[1])
        last_ack, over = ready, False
        for _ in range(acks_before_kill):
            line = await read_line(proc)
            if line.startswith("over"):
                over = True
                break
            assert line.startswith("ack "), line
            seq = int(line.split()[1])
            assert seq > last_ack
            last_ack = seq
        await asyncio.sleep(jitter)
    finally:
        if proc.returncode is None:
            proc.send_signal(signal.SIGKILL)  # mid-stream: it keeps submitting until this lands
        await proc.wait()
    # acks that were printed before the kill landed count as acknowledged too
    assert proc.stdout is not None
    for raw in (await proc.stdout.read()).decode().split("\n"):
        if raw.startswith("ack "):
            last_ack = max(last_ack, int(raw.split()[1]))
        elif raw.startswith("over"):
            over = True
    return ready, last_ack, over


async def check_database(db: str, acknowledged: int) -> int:
    """Everything acknowledged is there, nothing is half-written; returns the stored seq."""
    store = await open_store(db)
    try:
        assert await store.integrity_problems() == []
        game_row = await store.get_game(GAME_ID)
        assert game_row is not None
        count, low, high = await store.log_bounds(GAME_ID)
        assert high >= acknowledged, f"acknowledged seq {acknowledged} lost (log ends at {high})"
        assert (low, high) == (1, count), "the log has gaps"
        assert game_row.seq == high
        snapshot = await store.snapshot(GAME_ID)
        assert snapshot is not None and snapshot.seq <= high
        for checkpoint in await store.checkpoints(GAME_ID):
            assert checkpoint.seq <= high and checkpoint.seq % 10 == 0
        # the stored state (snapshot + tail) equals the full replay from the seed
        svc = GameService(store, FakeClock(), cache_size=0)
        seq, loaded = await svc.engine_state(GAME_ID)
        game = get_game(game_row.ruleset)
        log = [game.codec.decode(a.action) for a in await store.actions(GAME_ID)]
        replayed = replay(game, 3, game_row.options, game_row.seed, log)
        assert seq == high
        assert game.to_json(loaded) == game.to_json(replayed)
        assert await svc.verify_game(GAME_ID) == []
        # deadlines are there for the current actors, and only for them
        deadlines = await store.game_deadlines(GAME_ID)
        if game_row.status == "active":
            actors = game.actors(replayed)
            assert {d.player for d in deadlines if d.kind == "turn"} == set(actors)
            assert {d.player for d in deadlines} == set(actors)
            assert all(d.seq <= high for d in deadlines)
        else:
            assert deadlines == []
        return high
    finally:
        await store.close()


async def test_killed_service_loses_no_acknowledged_submit(db_target: str) -> None:
    db = db_target  # a SQLite file, or a PostgreSQL database (conftest)
    acknowledged = 0
    rounds = 0
    for acks, jitter in ((15, 0.0), (25, 0.002), (8, 0.0), (30, 0.005), (12, 0.001), (20, 0.0)):
        ready, last_ack, over = await run_until_killed(db, acks, jitter)
        rounds += 1
        assert ready >= acknowledged, "the restarted service lost acknowledged work"
        acknowledged = max(acknowledged, last_ack)
        stored = await check_database(db, acknowledged)
        assert stored >= acknowledged
        if over:
            break
    assert rounds >= 3 and acknowledged > 50
