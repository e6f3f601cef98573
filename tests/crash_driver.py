"""Subprocess for tests/test_service_crash.py: streams submits into one game until killed.

Usage: ``python tests/crash_driver.py DB GAME_ID`` (DB: a SQLite file or a postgresql:// URL)

Creates the game on first run (three people, seed 7), then plays it with a
seeded random policy on behalf of whoever must act. After each submit has
returned (so after its transaction committed) it prints ``ack <seq>`` and
flushes, so the parent knows which submits were acknowledged. Prints
``ready <seq>`` after start-up and ``over <seq>`` at the end of the game.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.clock import FakeClock
from bot.service import GameService, ServiceError
from bot.storage import open_store
from engine.registry import make_policy

PEOPLE = (101, 102, 103)


async def main(db: str, game_id: str) -> None:
    store = await open_store(db, exclusive=True)  # as the bot does: a SIGKILL must leave no stale lock
    clock = FakeClock()
    svc = GameService(store, clock, id_factory=lambda: game_id, checkpoint_every=10)
    if await store.get_game(game_id) is None:
        await svc.create_lobby(PEOPLE[0], "Ann", "history-classic", seed=7)
        for user in PEOPLE[1:]:
            await svc.join(game_id, user, f"P{user}")
        await svc.start(game_id, PEOPLE[0])
    await svc.startup(verify=True)
    status = await svc.status(game_id)
    print(f"ready {status.seq}", flush=True)
    while status.status == "active":
        seq, state = await svc.engine_state(game_id)
        user = status.waiting_for[0]
        seat = next(s.seat for s in status.seats if s.user_id == user)
        assert seat is not None
        action = make_policy("history-classic", "random", seq).choose(state, seat)
        try:
            outcome = await svc.submit(game_id, user, action.to_json(), seq)
        except ServiceError as exc:  # pragma: no cover - would be a bug
            print(f"error {exc.code} {exc.message}", flush=True)
            raise
        status = outcome.status
        clock.advance(1)
        print(f"ack {status.seq}", flush=True)
    print(f"over {status.seq}", flush=True)
    await store.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))
