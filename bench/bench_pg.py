"""Times GameService.submit on PostgreSQL, against the same writes as plain asyncpg transactions, and the
throughput of one and of two processes on one database. Prints the figures (not a test).

Run by hand from the repository root::

    PYTHONPATH=. /work/venv/bin/python bench/bench_pg.py [--submits 1000] [--games 200] [--seconds 10]

The server: ``ANNALS_BENCH_PG=postgresql://...`` if set, else a throwaway cluster started from the
installed binaries (as the tests do, tests/support/pg.py) but with ``fsync`` on, so each commit waits for
the disk as in production. Measurements, as bench/bench_service.py makes them for SQLite:

1. one game, then 200 games round-robin: service submits, each followed by the very same writes
   (recorded from the service's store) as one plain asyncpg transaction on another database (the
   baseline; it skips the service's row lock and revision check, which is the overhead to see);
2. throughput of 1 and of 2 processes, each submitting round-robin over its own games as fast as it
   can for ``--seconds``, all on one database.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import asyncpg  # type: ignore[import-untyped]  # ships no type information

from bench.bench_service import CPU, Recording, figures, jitter, new_game, timed_submit
from bot.clock import FakeClock
from bot.models import GameChange, GameStatus
from bot.service import GameService
from bot.store import Store
from tests.support import pg


async def open_recording(url: str) -> Recording:
    """The store on PostgreSQL, recording (see :class:`bench.bench_service.Recording`)."""
    store = await Recording.open(url)
    assert isinstance(store, Recording)
    store.recorded = []
    return store


class Baseline:
    """The service's writes, hand-written, as plain asyncpg transactions on another database."""

    def __init__(self, conn: asyncpg.Connection) -> None:
        self.conn = conn
        self.games: set[str] = set()
        self.times: list[float] = []

    async def write(self, c: GameChange) -> None:
        conn = self.conn
        if c.game_id not in self.games:  # the row it guards, untimed
            self.games.add(c.game_id)
            await conn.execute(
                "INSERT INTO games (game_id, ruleset, options_json, seed, status, creator_id, max_seats, "
                "created_at, updated_at, seq, move_seconds, reminder_offsets_json, timeout_policy, "
                "misses_before_ai) VALUES ($1, 'history-classic', '{}', 1, 'active', 1, 6, 0, 0, $2, 86400, "
                "'[14400]', 'ai', 3)", c.game_id, c.expected_seq)
        start, cpu = time.perf_counter(), time.process_time()
        async with conn.transaction():
            await conn.execute("UPDATE games SET seq = $1, updated_at = $2 WHERE game_id = $3 AND seq = $4",
                               c.new_seq, c.updated_at, c.game_id, c.expected_seq)
            await conn.executemany(
                "INSERT INTO actions (game_id, seq, player, action_json, source, user_id, created_at) "
                "VALUES ($1, $2, $3, $4, $5, $6, $7)",
                [(a.game_id, a.seq, a.player, json.dumps(dict(a.action)), a.source, a.user_id, a.created_at)
                 for a in c.actions])
            assert c.snapshot is not None
            await conn.execute(
                "INSERT INTO snapshots (game_id, seq, state_json, updated_at) VALUES ($1, $2, $3, $4) "
                "ON CONFLICT (game_id) DO UPDATE SET seq = excluded.seq, state_json = excluded.state_json, "
                "updated_at = excluded.updated_at", c.game_id, c.snapshot.seq, c.snapshot.state_json,
                c.updated_at)
            if c.checkpoints:
                await conn.executemany(
                    "INSERT INTO checkpoints (game_id, seq, state_json, created_at) VALUES ($1, $2, $3, $4)",
                    [(c.game_id, s.seq, s.state_json, c.updated_at) for s in c.checkpoints])
            if c.clear_deadlines_for:
                await conn.executemany("DELETE FROM deadlines WHERE game_id = $1 AND player = $2",
                                       [(c.game_id, p) for p in c.clear_deadlines_for])
            if c.new_deadlines:
                await conn.executemany(
                    "INSERT INTO deadlines (deadline_id, game_id, seq, player, user_id, kind, due_at, fired, "
                    "created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, 0, $8)",
                    [(d.deadline_id, d.game_id, d.seq, d.player, d.user_id, d.kind, d.due_at, c.updated_at)
                     for d in c.new_deadlines])
            if c.outbox:  # the notices, numbered by the identity column
                await conn.executemany(
                    "INSERT INTO outbox (game_id, dest_kind, dest_id, payload_json, nonce, created_at) "
                    "VALUES ($1, $2, $3, $4, $5, $6)",
                    [(o.game_id, o.kind, o.target, json.dumps(dict(o.payload)), o.nonce, c.updated_at)
                     for o in c.outbox])
        self.times.append(time.perf_counter() - start)
        CPU["baseline"] += time.process_time() - cpu


async def paired(svc: GameService, store: Recording, base: Baseline, status: GameStatus,
                 rng: random.Random) -> tuple[float, GameStatus]:
    store.recorded.clear()
    jitter(rng)
    spent, status = await timed_submit(svc, status)
    for change in store.recorded:
        jitter(rng)
        await base.write(change)
    return spent, status


async def latency(url: str, base_url: str, submits: int, games: int) -> dict[str, Any]:
    store = await open_recording(url)
    base = Baseline(await asyncpg.connect(base_url))
    clock = FakeClock()
    rng = random.Random(1)
    svc = GameService(store, clock)
    status = await new_game(svc, 1, seed=1)
    one: list[float] = []
    while len(one) < submits:
        if status.status != "active":
            status = await new_game(svc, 10 * (len(one) + 2), seed=len(one))
        spent, status = await paired(svc, store, base, status, rng)
        one.append(spent)
    one_base = list(base.times)
    statuses = [await new_game(svc, 100_000 + 10 * i, seed=i) for i in range(games)]
    rr: list[float] = []
    base.times.clear()
    for i in range(submits):
        if statuses[i % games].status != "active":
            statuses[i % games] = await new_game(svc, 200_000 + 10 * i, seed=i)
        spent, statuses[i % games] = await paired(svc, store, base, statuses[i % games], rng)
        rr.append(spent)
    await base.conn.close()
    await store.close()
    print("service.submit on PostgreSQL (row lock, revision, log, snapshot, deadlines; one commit each):")
    f_one, f_rr = figures("one game", one), figures(f"{games} games round-robin", rr)
    print("baseline: the same writes as plain asyncpg transactions, interleaved with the above:")
    b_one, b_rr = figures("one game's writes", one_base), figures("round-robin writes", base.times)
    ratio_one, ratio_rr = f_one["per_second"] / b_one["per_second"], f_rr["per_second"] / b_rr["per_second"]
    print(f"throughput ratio service/baseline: one game {ratio_one:.0%}, round-robin {ratio_rr:.0%}")
    return {"one_game": f_one, "round_robin": f_rr, "baseline_one_game": b_one, "baseline_round_robin": b_rr,
            "ratio_one_game": round(ratio_one, 3), "ratio_round_robin": round(ratio_rr, 3)}


async def worker(url: str, index: int, games: int, seconds: float) -> None:
    """One process of the throughput run: set up its games, say ready, submit until time is up."""
    store = await Store.open(url)
    svc = GameService(store, FakeClock())
    statuses = [await new_game(svc, 1_000_000 * (index + 1) + 10 * i, seed=i) for i in range(games)]
    print("ready", flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)  # "go"
    done, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        i = done % games
        if statuses[i].status != "active":
            statuses[i] = await new_game(svc, 1_000_000 * (index + 1) + 10 * (games + done), seed=done)
        _, statuses[i] = await timed_submit(svc, statuses[i])
        done += 1
    print(f"done {done} {time.perf_counter() - start:.3f}", flush=True)
    await store.close()


async def throughput(url: str, processes: int, games: int, seconds: float) -> float:
    procs = [await asyncio.create_subprocess_exec(
        sys.executable, __file__, "--worker", url, str(k), str(games), str(seconds),
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}) for k in range(processes)]
    for p in procs:
        assert p.stdout is not None
        line = (await p.stdout.readline()).decode().strip()
        assert line == "ready", line
    for p in procs:
        assert p.stdin is not None
        p.stdin.write(b"go\n")
        await p.stdin.drain()
    total, longest = 0, 0.0
    for p in procs:
        assert p.stdout is not None
        words = (await p.stdout.readline()).decode().split()
        total, longest = total + int(words[1]), max(longest, float(words[2]))
        await p.wait()
    rate = total / longest
    print(f"  {processes} process(es), {games} games each: {total} submits in {longest:.1f} s = {rate:.0f}/s")
    return rate


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--submits", type=int, default=1000)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=10.0)
    args = parser.parse_args()
    url = os.environ.get("ANNALS_BENCH_PG")
    server = pg.Server(url) if url else pg.start_cluster(durable=True)
    try:
        await pg._prepare_template(server)
        names = ["bench_service", "bench_baseline", "bench_one", "bench_two"]
        conn = await asyncpg.connect(server.url)
        for name in names:
            await conn.execute(f"DROP DATABASE IF EXISTS {name}")
            await conn.execute(f"CREATE DATABASE {name} TEMPLATE {pg.TEMPLATE}")
        version = await conn.fetchval("SHOW server_version")
        fsync = await conn.fetchval("SHOW fsync")
        await conn.close()
        print(f"PostgreSQL {version}, fsync={fsync}, {os.cpu_count()} CPUs")
        result = await latency(server.database_url(names[0]), server.database_url(names[1]), args.submits,
                               args.games)
        print(f"throughput of whole processes ({args.games // 4} games each, {args.seconds:.0f} s):")
        result["one_process_per_s"] = round(await throughput(server.database_url(names[2]), 1,
                                                             args.games // 4, args.seconds))
        result["two_processes_per_s"] = round(await throughput(server.database_url(names[3]), 2,
                                                               args.games // 4, args.seconds))
        print(json.dumps(result))
    finally:
        if not url:
            server.stop()


if __name__ == "__main__":
    if sys.argv[1:2] == ["--worker"]:
        asyncio.run(worker(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5])))
    else:
        asyncio.run(main())
