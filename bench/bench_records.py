"""What a click costs as a game grows: ``can_undo`` and the your-move news at 10, 1,000 and 5,000 log entries.

Run by hand (never from the tests):
    .venv/bin/python bench/bench_records.py [--sizes 10,1000,5000] [--runs 50] [--dir .]

For each size, one History (classic) game in a fresh SQLite file is played by its three people through
the service until its log holds that many entries: random moves, and each move that may be taken back is
taken back and played again (what a player trying a move does), so the log grows without the game
ending (all but the last ~40 entries are such pairs). Then, with nothing cached (``cache_size=0``:
each call reads the game as a new process would):
  * ``can_undo`` for the person who moved last (the fronts ask it after every click);
  * ``since_last_move`` for the person whose move it is (the news of every your-move DM);
  * ``public_log_slice`` of the newest page (what ``/annals log`` reads);
  * ``public_log`` (the whole log, as the end-of-game account reads it once: it grows with the game).
Each is timed ``--runs`` times; the median and the 90th percentile are printed, in milliseconds.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.clock import FakeClock
from bot.service import GameService
from bot.store import Store
from engine.registry import make_policy

GAME = "history-classic"
PEOPLE = (1, 2, 3)
TAIL = 40  # entries played as a game goes after the padding (so the news has other people's moves)


async def grown(store: Store, size: int) -> tuple[str, int]:
    """A game whose log has ``size`` entries (or a little more); returns it and the last mover."""
    svc = GameService(store, FakeClock(), seed_factory=lambda: 11)
    gid = (await svc.create_lobby(PEOPLE[0], "ann", GAME)).game_id
    for user in PEOPLE[1:]:
        await svc.join(gid, user, f"p{user}")
    await svc.start(gid, PEOPLE[0])
    last = PEOPLE[0]
    turn = 0
    while (status := await svc.status(gid)).seq < size:
        if status.status != "active":
            raise SystemExit(f"the game ended at {status.seq} entries, before {size}")
        user = status.waiting_for[0]
        seat = next(s.seat for s in status.seats if s.user_id == user)
        assert seat is not None  # every player has a seat once the game has started
        seq, state = await svc.engine_state(gid)
        action = make_policy(GAME, "random", turn).choose(state, seat)
        turn += 1
        await svc.submit(gid, user, action.to_json(), seq)
        last = user
        seq = (await svc.status(gid)).seq
        while seq + 2 <= size - TAIL and await svc.can_undo(gid, user):
            await svc.undo(gid, user, seq)  # taken back, then played again
            await svc.submit(gid, user, action.to_json(), seq + 1)
            seq += 2
    return gid, last


async def timed(runs: int, call: Callable[[], Awaitable[Any]]) -> tuple[float, float]:
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        await call()
        samples.append((time.perf_counter() - start) * 1000)
    samples.sort()
    return statistics.median(samples), samples[int(len(samples) * 0.9) - 1]


async def measure(size: int, runs: int, folder: Path) -> dict[str, tuple[float, float]]:
    store = await Store.open(str(folder / f"records-{size}.sqlite3"))
    try:
        gid, last = await grown(store, size)
        svc = GameService(store, FakeClock(), cache_size=0)
        status = await svc.status(gid)
        waiting = next(s.seat for s in status.seats if s.user_id == status.waiting_for[0])
        assert waiting is not None
        return {
            "entries": (float(status.seq), float(status.seq)),
            "can_undo": await timed(runs, lambda: svc.can_undo(gid, last)),
            "news": await timed(runs, lambda: svc.since_last_move(gid, waiting)),
            "log_page": await timed(runs, lambda: svc.public_log_slice(gid, None, 12)),
            "public_log": await timed(max(runs // 5, 3), lambda: svc.public_log(gid)),
        }
    finally:
        await store.close()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10,1000,5000")
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--dir", type=Path, default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        rows = {int(size): await measure(int(size), args.runs, Path(tmp)) for size in args.sizes.split(",")}
    print(f"{'entries':>8} {'can_undo ms (median / p90)':>28} {'news ms':>18} {'log page ms':>18} "
          f"{'whole log ms':>18}")
    for figures in rows.values():
        print(f"{int(figures['entries'][0]):>8} "
              + " ".join(f"{figures[k][0]:>9.2f} / {figures[k][1]:<7.2f}"
                         for k in ("can_undo", "news", "log_page", "public_log")))
    sizes = sorted(rows)
    for key in ("can_undo", "news", "log_page"):
        ratio = rows[sizes[-1]][key][0] / rows[sizes[0]][key][0]
        print(f"{key}: {sizes[-1]} entries cost {ratio:.2f}x what {sizes[0]} cost (goal: at most 2x)")


if __name__ == "__main__":
    asyncio.run(main())
