"""Times GameService.submit (load, apply, save, log, deadline update) and prints the figures.

Run by hand (never from the tests):
    .venv/bin/python bench/bench_service.py [--submits 2000] [--games 1000] [--rr-submits 3000] [--dir .]

Measurements, each against a fresh SQLite file in ``--dir`` (WAL, synchronous=FULL):
  1. one game: submits one after another (a new game starts when one ends);
  2. 1,000 started games: submits round-robin, first with the parsed games
     cached, then with ``cache_size=0`` (every submit loads snapshot + seats + deadlines);
  3. the baseline: right after each submit, the very same writes (recorded from
     the service's store) go as a plain ``BEGIN IMMEDIATE ... COMMIT`` through
     aiosqlite to a second file, without the service; both sides start each
     timed write after a random pause, so neither rides the disk's flush cadence.
The moves come from a seeded random policy, outside the timed region.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import aiosqlite

from bot.clock import FakeClock
from bot.models import GameChange, GameStatus
from bot.service import GameService
from bot.store import Store
from engine.registry import game_ids, make_policy

GAME = game_ids()[0]  # the first registered game: the one the service benchmark was tuned on
CPU = {"service": 0.0, "baseline": 0.0}  # process CPU seconds (all threads) inside the timed regions


class Recording(Store):
    """A store (SQLite, or any subclass mixed in after this) that keeps every GameChange it wrote,
    to replay them as the baseline."""

    recorded: list[GameChange]

    async def apply_change(self, change: GameChange) -> list[int]:
        ids = await super().apply_change(change)
        if change.actions:
            self.recorded.append(change)
        return ids


class RecordingStore(Recording):
    """The SQLite store, recording."""


async def open_recording(path: Path) -> RecordingStore:
    store = await RecordingStore.open(path)
    assert isinstance(store, RecordingStore)
    store.recorded = []
    return store


async def new_game(svc: GameService, base_user: int, seed: int) -> GameStatus:
    out = await svc.create_lobby(base_user, "A", GAME, seed=seed)
    for k in (1, 2):
        await svc.join(out.game_id, base_user + k, "B")
    return (await svc.start(out.game_id, base_user)).status


async def timed_submit(svc: GameService, status: GameStatus) -> tuple[float, GameStatus]:
    """One submit by whoever must act; returns (seconds spent in submit, new status)."""
    seq, state = await svc.engine_state(status.game_id)
    user = status.waiting_for[0]
    seat = next(s.seat for s in status.seats if s.user_id == user)
    assert seat is not None
    action = make_policy(GAME, "random", seq).choose(state, seat).to_json()
    start, cpu = time.perf_counter(), time.process_time()
    out = await svc.submit(status.game_id, user, action, seq)
    CPU["service"] += time.process_time() - cpu
    return time.perf_counter() - start, out.status


def figures(label: str, times: list[float]) -> dict[str, Any]:
    ordered = sorted(times)
    out = {
        "label": label, "n": len(times),
        "median_ms": round(statistics.median(times) * 1000, 3),
        "p95_ms": round(ordered[int(len(ordered) * 0.95) - 1] * 1000, 3),
        "max_ms": round(ordered[-1] * 1000, 3),
        "per_second": round(len(times) / sum(times), 1),
    }
    print(f"  {label:<34} n={out['n']:<5} median {out['median_ms']:7.3f} ms  p95 {out['p95_ms']:7.3f} ms  "
          f"max {out['max_ms']:8.3f} ms  {out['per_second']:8.1f}/s")
    return out


async def db_size(store: Store) -> int:
    await store.checkpoint_wal()
    path = Path(store.path)
    return sum(p.stat().st_size for p in path.parent.glob(path.name + "*"))


def jitter(rng: random.Random) -> None:
    """Spin for a random 0-5 ms (untimed) so no timed write starts in step with the disk's flush cadence.

    On virtual disks fsync often returns on a fixed tick; without this, whichever
    side happens to start its writes right after a tick looks slower.
    """
    until = time.perf_counter() + rng.uniform(0, 0.005)
    while time.perf_counter() < until:
        pass


class Baseline:
    """The same writes as the service, hand-written, as plain aiosqlite transactions on another file."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.conn = conn
        self.games: set[str] = set()
        self.times: list[float] = []

    @classmethod
    async def open(cls, path: Path) -> Baseline:
        await (await Store.open(path)).close()  # the same schema
        conn = await aiosqlite.connect(path, isolation_level=None)
        for pragma in ("journal_mode = WAL", "synchronous = FULL", "foreign_keys = ON",
                       "busy_timeout = 10000"):
            await conn.execute(f"PRAGMA {pragma}")
        return cls(conn)

    async def write(self, c: GameChange) -> None:
        """One change as one timed transaction (the game row it guards is inserted first, untimed)."""
        conn = self.conn
        if c.game_id not in self.games:
            self.games.add(c.game_id)
            await conn.execute(
                "INSERT INTO games (game_id, ruleset, options_json, seed, status, creator_id, max_seats, "
                "created_at, updated_at, seq, move_seconds, reminder_offsets_json, timeout_policy, "
                "misses_before_ai) "
                "VALUES (?, ?, '{}', 1, 'active', 1, 6, 0, 0, ?, 86400, '[14400]', 'ai', 3)",
                (c.game_id, GAME, c.expected_seq))
        start, cpu = time.perf_counter(), time.process_time()
        await conn.execute("BEGIN IMMEDIATE")
        await conn.execute("UPDATE games SET seq = ?, updated_at = ? WHERE game_id = ? AND seq = ?",
                           (c.new_seq, c.updated_at, c.game_id, c.expected_seq))
        await conn.executemany(
            "INSERT INTO actions (game_id, seq, player, action_json, source, user_id, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            [(a.game_id, a.seq, a.player, json.dumps(dict(a.action)), a.source, a.user_id, a.created_at)
             for a in c.actions])
        assert c.snapshot is not None
        await conn.execute(
            "INSERT INTO snapshots (game_id, seq, state_json, updated_at) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (game_id) DO UPDATE SET seq = excluded.seq, state_json = excluded.state_json, "
            "updated_at = excluded.updated_at",
            (c.game_id, c.snapshot.seq, c.snapshot.state_json, c.updated_at))
        if c.checkpoints:
            await conn.executemany(
                "INSERT INTO checkpoints (game_id, seq, state_json, created_at) VALUES (?, ?, ?, ?)",
                [(c.game_id, s.seq, s.state_json, c.updated_at) for s in c.checkpoints])
        if c.clear_deadlines_for:
            await conn.executemany("DELETE FROM deadlines WHERE game_id = ? AND player = ?",
                                   [(c.game_id, p) for p in c.clear_deadlines_for])
        if c.new_deadlines:
            await conn.executemany(
                "INSERT INTO deadlines (deadline_id, game_id, seq, player, user_id, kind, due_at, fired, "
                "created_at) VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?)",
                [(d.deadline_id, d.game_id, d.seq, d.player, d.user_id, d.kind, d.due_at, c.updated_at)
                 for d in c.new_deadlines])
        if c.outbox:  # the notices, as the store numbers them
            first = int(next(iter(await conn.execute_fetchall("SELECT COALESCE(MAX(id), 0) FROM outbox")))[0])
            await conn.executemany(
                "INSERT INTO outbox (id, game_id, dest_kind, dest_id, payload_json, nonce, created_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(first + i + 1, o.game_id, o.kind, o.target, json.dumps(dict(o.payload)), o.nonce,
                  c.updated_at) for i, o in enumerate(c.outbox)])
        await conn.execute("COMMIT")
        self.times.append(time.perf_counter() - start)
        CPU["baseline"] += time.process_time() - cpu


async def paired_submit(svc: GameService, store: RecordingStore, base: Baseline, status: GameStatus,
                        rng: random.Random) -> tuple[float, GameStatus]:
    """A timed service submit, then the same writes through the baseline (each after a random pause)."""
    store.recorded.clear()
    jitter(rng)
    spent, status = await timed_submit(svc, status)
    for change in store.recorded:
        jitter(rng)
        await base.write(change)
    store.recorded.clear()
    return spent, status


async def one_game(folder: Path, submits: int, base: Baseline) -> tuple[list[float], float]:
    """Submits on one game (a new one starts when it ends); returns the latencies and bytes/1000 actions."""
    store = await open_recording(folder / "one.sqlite3")
    svc = GameService(store, FakeClock())
    rng = random.Random(1)
    status = await new_game(svc, 1, seed=1)
    times: list[float] = []
    games = 1
    while len(times) < submits:
        if status.status != "active":
            games += 1
            status = await new_game(svc, 10 * games, seed=games)
        spent, status = await paired_submit(svc, store, base, status, rng)
        times.append(spent)
    actions = sum(g.seq for g in await store.list_games())
    size = await db_size(store)
    await store.close()
    return times, size / actions * 1000


async def many_games(folder: Path, games: int, submits: int,
                     base: Baseline) -> tuple[list[float], list[float], float]:
    """Round-robin submits over ``games`` started games, cached then uncached."""
    store = await open_recording(folder / "many.sqlite3")
    clock = FakeClock()
    rng = random.Random(2)
    svc = GameService(store, clock, cache_size=max(games, 1024))
    statuses = [await new_game(svc, 10 * i + 100, seed=i) for i in range(games)]
    cached: list[float] = []
    for i in range(submits):
        spent, statuses[i % games] = await paired_submit(svc, store, base, statuses[i % games], rng)
        cached.append(spent)
    cold_svc = GameService(store, clock, cache_size=0)
    uncached: list[float] = []
    for i in range(submits // 2):
        spent, statuses[i % games] = await paired_submit(cold_svc, store, base, statuses[i % games], rng)
        uncached.append(spent)
    actions = sum(s.seq for s in statuses)
    size = await db_size(store)
    await store.close()
    return cached, uncached, size / actions * 1000


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--submits", type=int, default=2000, help="submits on one game")
    parser.add_argument("--games", type=int, default=1000, help="started games for the round-robin")
    parser.add_argument("--rr-submits", type=int, default=3000, help="round-robin submits")
    parser.add_argument("--dir", default=None, help="where the database files go (default: a temp dir)")
    args = parser.parse_args()
    make_policy(GAME, "random", 0)
    with tempfile.TemporaryDirectory(dir=args.dir, prefix="annals-bench-") as tmp:
        folder = Path(tmp)
        print(f"databases in {folder} (WAL, synchronous=FULL)")
        base_one = await Baseline.open(folder / "baseline-one.sqlite3")
        one, one_size = await one_game(folder, args.submits, base_one)
        base_rr = await Baseline.open(folder / "baseline-many.sqlite3")
        cached, uncached, rr_size = await many_games(folder, args.games, args.rr_submits, base_rr)
        await base_one.conn.close()
        await base_rr.conn.close()
    print("service.submit latency (load, apply, save snapshot, log, deadlines; one commit each):")
    f_one = figures("one game", one)
    f_rr = figures(f"{args.games} games round-robin (cached)", cached)
    f_cold = figures(f"{args.games} games round-robin (no cache)", uncached)
    print("baseline: the same writes as plain aiosqlite transactions, interleaved with the above:")
    b_one = figures("one game's writes", base_one.times)
    b_rr = figures("round-robin writes (both passes)", base_rr.times)
    rr_all = cached + uncached
    ratio_one = f_one["per_second"] / b_one["per_second"]
    ratio_rr = (len(rr_all) / sum(rr_all)) / b_rr["per_second"]
    print(f"throughput ratio service/baseline: one game {ratio_one:.0%}, round-robin {ratio_rr:.0%} "
          "(target >= 70%)")
    n_service, n_base = len(one) + len(rr_all), len(base_one.times) + len(base_rr.times)
    cpu_s, cpu_b = CPU["service"] / n_service * 1000, CPU["baseline"] / n_base * 1000
    print(f"CPU per operation (no fsync waits): service {cpu_s:.3f} ms, baseline {cpu_b:.3f} ms "
          f"-> CPU-bound throughput ratio {cpu_b / cpu_s:.0%}")
    print(f"median target < 5 ms: one game {'met' if f_one['median_ms'] < 5 else 'MISSED'}, "
          f"round-robin {'met' if f_rr['median_ms'] < 5 else 'MISSED'}")
    print(f"database size per 1,000 actions: one-game file {one_size / 1024:.0f} KiB; "
          f"{args.games}-games file {rr_size / 1024:.0f} KiB (mostly one current snapshot per game)")
    print(json.dumps({
        "one_game": f_one, "round_robin_cached": f_rr, "round_robin_uncached": f_cold,
        "baseline_one_game": b_one, "baseline_round_robin": b_rr,
        "ratio_one_game": round(ratio_one, 3), "ratio_round_robin": round(ratio_rr, 3),
        "kib_per_1000_actions_one_game": round(one_size / 1024, 1),
        "kib_per_1000_actions_many_games": round(rr_size / 1024, 1),
        "cpu_ms_service": round(cpu_s, 3), "cpu_ms_baseline": round(cpu_b, 3),
    }))


if __name__ == "__main__":
    asyncio.run(main())
