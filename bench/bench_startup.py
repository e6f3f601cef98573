"""How soon a restarted bot answers with many games in play: time to the first answered command, and RSS.

Run by hand (never from the tests):
    .venv/bin/python bench/bench_startup.py [--games 10000] [--dir DIR] [--runs 3]

It builds (once per ``--dir``; rebuilt when the schema changed) a SQLite database holding ``--games``
running History (classic) games: one game played a few moves through the service, then copied row by
row under new ids (its seats, log, snapshot and running deadlines), so every copy is a game in play
with a person on the clock. Then it starts the real bot as a person would (``python -m bot``, the
console on that database, no Discord token) and types ``/as p1 status <a game>`` at once; it prints
the seconds from starting the process to the answer's first line, and the process's resident memory
then and at its peak (``/proc``: VmRSS, VmHWM). Issue 25's goal: the first answer within 2 s.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.clock import FakeClock
from bot.service import GameService
from bot.store import Store
from engine.registry import make_policy

ROOT = Path(__file__).resolve().parents[1]
GAME = "history-classic"
COPIED = ("games", "seats", "actions", "snapshots", "checkpoints", "deadlines", "undo_points")


async def one_game(db: str) -> str:
    store = await Store.open(db)
    try:
        svc = GameService(store, FakeClock(int(time.time())), seed_factory=lambda: 9,
                          id_factory=lambda: "g0")
        gid = (await svc.create_lobby(1, "p1", GAME)).game_id
        for user in (2, 3):
            await svc.join(gid, user, f"p{user}")
        await svc.start(gid, 1)
        for turn in range(12):
            status = await svc.status(gid)
            user = status.waiting_for[0]
            seat = next(s.seat for s in status.seats if s.user_id == user)
            assert seat is not None  # every player has a seat once the game has started
            seq, state = await svc.engine_state(gid)
            await svc.submit(gid, user, make_policy(GAME, "random", turn).choose(state, seat).to_json(), seq)
        return gid
    finally:
        await store.close()


def copies(db: str, source: str, count: int) -> None:
    """``count - 1`` copies of game ``source`` under ids g1, g2, ... (people 1-3 sit in all of them)."""
    conn = sqlite3.connect(db)
    try:
        for table in COPIED:
            columns = [r[1] for r in conn.execute(f"PRAGMA table_info({table})")]
            rows = conn.execute(f"SELECT * FROM {table} WHERE game_id = ?", (source,)).fetchall()
            at = columns.index("game_id")
            deadline = columns.index("deadline_id") if "deadline_id" in columns else None
            batch = []
            for n in range(1, count):
                gid = f"g{n}"
                for row in rows:
                    values = list(row)
                    values[at] = gid
                    if deadline is not None:
                        values[deadline] = f"{gid}{values[deadline][len(source):]}"
                    batch.append(values)
            marks = ", ".join("?" * len(columns))
            conn.executemany(f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})", batch)
        conn.commit()
    finally:
        conn.close()


def build(folder: Path, count: int) -> Path:
    db = folder / f"startup-{count}.sqlite3"
    if db.exists():
        return db
    fresh = str(db) + ".building"
    for leftover in Path(folder).glob(f"{db.name}.building*"):
        leftover.unlink()
    source = asyncio.run(one_game(fresh))
    copies(fresh, source, count)
    os.replace(fresh, db)
    return db


def memory(pid: int) -> tuple[int, int]:
    fields = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines()
                  if ":" in line)
    return int(fields["VmRSS"].split()[0]) // 1024, int(fields["VmHWM"].split()[0]) // 1024


def first_answer(db: Path) -> tuple[float, int, int]:
    env = {**os.environ, "ANNALS_DB": str(db), "PYTHONPATH": str(ROOT)}
    env.pop("DISCORD_TOKEN", None)
    start = time.perf_counter()
    bot = subprocess.Popen([sys.executable, "-m", "bot", "--env-file", os.devnull], cwd=db.parent,
                           env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                           text=True)
    assert bot.stdin is not None and bot.stdout is not None
    bot.stdin.write("/as p1 status g4242\n")
    bot.stdin.flush()
    try:
        for line in bot.stdout:
            if line.startswith("[p1] g4242"):
                took = time.perf_counter() - start
                rss, peak = memory(bot.pid)
                return took, rss, peak
        raise SystemExit("the bot ended without answering")
    finally:
        bot.stdin.close()
        bot.wait(timeout=120)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--dir", type=Path, default=None)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    folder = args.dir or Path(tempfile.mkdtemp(prefix="annals-startup-"))
    db = build(folder, args.games)
    results = [first_answer(db) for _ in range(args.runs)]
    took = statistics.median(r[0] for r in results)
    print(f"{args.games} games in play ({db.stat().st_size // 2**20} MiB): first answer after {took:.2f} s "
          f"(median of {args.runs}: {', '.join(f'{r[0]:.2f}' for r in results)}); "
          f"RSS then {results[-1][1]} MiB, peak {results[-1][2]} MiB; goal: within 2 s")


if __name__ == "__main__":
    main()
