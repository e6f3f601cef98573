"""Several bot processes on one PostgreSQL database (issue 19), killed at random.

Three processes (tests/support/crash_driver.py ``--many``) play the people of several games at once and fire
due deadlines; the test SIGKILLs a random one at a random moment, starts a new one in its place, 30
times, then checks from here: every acknowledged move is in the log where it was acknowledged, each
log is contiguous and ends at its game's seq, every stored state equals the replay of its log, no
deadline was fired twice, and every notice went out, none twice from one process. The lobby-join
race runs across two live processes (``--serve``).
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bot.clock import FakeClock
from bot.service import GameService
from bot.storage import GameStore, open_store
from engine.core import replay
from engine.registry import get_game
from tests.support import pg
from tests.support.crash_driver import MANY_TIMERS, OUTBOX_LEASE

DRIVER = Path(__file__).resolve().parents[1] / "support" / "crash_driver.py"
GAME = "history-classic"
GAMES = 6
READ_LIMIT = 120.0  # seconds to wait for a line before declaring a driver hung (never a timing assertion)


@pytest.fixture
def postgres_url() -> str:
    srv = pg.server()
    if srv is None:
        pytest.skip(pg.WHY_NOT[0])
    return pg.fresh_database(srv)


@dataclass
class Driver:
    proc: asyncio.subprocess.Process
    lines: list[str] = field(default_factory=list)
    reader: asyncio.Task[None] | None = None

    async def read_all(self) -> None:
        assert self.proc.stdout is not None
        while raw := await self.proc.stdout.readline():
            self.lines.append(raw.decode().strip())

    async def wait_for(self, prefix: str) -> None:
        async def seen() -> None:
            while not any(line.startswith(prefix) for line in self.lines):
                if self.reader is not None and self.reader.done():
                    raise AssertionError(f"driver ended before {prefix!r}: {self.lines[-5:]}")
                await asyncio.sleep(0.01)
        await asyncio.wait_for(seen(), READ_LIMIT)

    async def kill(self) -> None:
        if self.proc.returncode is None:
            self.proc.send_signal(signal.SIGKILL)
        await self.proc.wait()
        if self.reader is not None:
            await self.reader  # every line printed before the kill landed is read


async def spawn(*args: str) -> Driver:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, str(DRIVER), *args, stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL,
        env={**os.environ, "PYTHONPATH": str(DRIVER.parents[2])})
    driver = Driver(proc)
    driver.reader = asyncio.create_task(driver.read_all())
    return driver


async def create_games(url: str) -> list[str]:
    store = await open_store(url)
    ids = iter(f"pg{i}" for i in range(GAMES))
    svc = GameService(store, FakeClock(), id_factory=lambda: next(ids), checkpoint_every=10)
    games = []
    for g in range(GAMES):
        people = [1000 + 10 * g + k for k in range(3)]  # many players: three of their own per game
        out = await svc.create_lobby(people[0], f"P{people[0]}", GAME, timers=MANY_TIMERS, seed=g + 1)
        for user in people[1:]:
            await svc.join(out.game_id, user, f"P{user}")
        await svc.start(out.game_id, people[0])
        games.append(out.game_id)
    await store.close()
    return games


@pytest.mark.slow
@pytest.mark.asyncio
async def test_postgres_three_processes_killed_at_random_lose_nothing(postgres_url: str) -> None:
    games = await create_games(postgres_url)
    rng = random.Random(19)
    seeds = iter(range(1, 10_000))
    drivers = [await spawn("--many", postgres_url, f"p{i}", str(next(seeds)), *games) for i in range(3)]
    finished: list[Driver] = []
    try:
        for d in drivers:
            await d.wait_for("ready")
        for _ in range(30):
            await asyncio.sleep(rng.uniform(0.05, 0.8))  # a random moment of a submit or a firing
            victim = rng.randrange(len(drivers))
            await drivers[victim].kill()
            finished.append(drivers[victim])
            drivers[victim] = await spawn("--many", postgres_url, f"p{victim}", str(next(seeds)), *games)
            await drivers[victim].wait_for("ready")
    finally:
        for d in drivers:
            await d.kill()
        finished += drivers
    lines = [line for d in finished for line in d.lines]
    assert not [line for line in lines if line.startswith("error")], "a driver hit an unexpected refusal"
    acks = [line.split()[1:] for line in lines if line.startswith("ack ")]
    fired = [line.split()[1] for line in lines if line.startswith("fired ")]
    assert len(acks) > 100 and fired, f"too little happened: {len(acks)} acks, {len(fired)} firings"
    print(f"{len(finished) - 3} kills, {len(acks)} acknowledged moves, {len(fired)} deadlines fired")
    twice = [d for d, n in Counter(fired).items() if n > 1]
    assert not twice, f"deadlines fired twice: {twice}"

    store = await open_store(postgres_url)
    try:
        await notices_each_sent_once(store, finished)
        svc = GameService(store, FakeClock(), cache_size=0)
        game = get_game(GAME)
        for gid in games:
            row = await store.get_game(gid)
            assert row is not None
            count, low, high = await store.log_bounds(gid)
            assert (low, high) == (1, count) and row.seq == high, f"{gid}: the log has gaps"
            log = {a.seq: a for a in await store.actions(gid)}
            for ack_gid, acked, user in acks:
                if ack_gid == gid:
                    entry = log.get(int(acked))
                    assert entry is not None and entry.user_id == int(user) and entry.source == "human", \
                        f"{gid}: acknowledged move {acked} of {user} lost"
            seq, loaded = await svc.engine_state(gid)
            replayed = replay(game, 3, row.options, row.seed,
                              [game.codec.decode(log[s].action) for s in sorted(log)])
            assert seq == high and game.to_json(loaded) == game.to_json(replayed)
            assert await svc.verify_game(gid) == []
            timeouts = sum(1 for a in log.values() if a.source == "timeout")
            turn_fired = sum(1 for d in fired if d.startswith(f"{gid}:") and d.endswith(":turn"))
            assert timeouts >= turn_fired  # a fired turn deadline is a timeout move in the log
    finally:
        await store.close()


async def notices_each_sent_once(store: GameStore, drivers: list[Driver]) -> None:
    """Every notice went out with its one nonce, and no process sent one twice: a notice goes out
    again only from another process, after one was killed before it could mark it delivered (the
    nonce then makes Discord return the first post)."""
    await asyncio.sleep(OUTBOX_LEASE + 1)  # the killed processes' leases run out
    sent: dict[int, list[tuple[int, str]]] = {}  # row -> (driver, nonce) of each send
    marked: dict[int, list[int]] = {}  # row -> the drivers that marked it delivered
    for i, d in enumerate(drivers):
        for line in d.lines:
            word, *rest = line.split()
            if word == "sent":
                sent.setdefault(int(rest[0]), []).append((i, rest[1]))
            elif word == "marked":
                for number in rest:
                    marked.setdefault(int(number), []).append(i)
    rows = await store.outbox_rows()
    assert len(rows) > 100 and marked, f"too few notices delivered: {len(marked)} of {len(rows)}"
    for dest in await store.outbox_destinations():  # what the last processes were killed holding
        left = await store.claim_due(dest)
        await store.mark_delivered([r.id for r in left], 1)
        for claimed in left:
            sent.setdefault(claimed.id, []).append((len(drivers), claimed.nonce))
    for notice in await store.outbox_rows():
        sends = sent.get(notice.id, [])
        assert notice.delivered_at is not None and sends, f"notice {notice.id} never went out"
        assert {nonce for _, nonce in sends} == {notice.nonce}
        senders = [i for i, _ in sends]
        assert len(senders) == len(set(senders)), f"a process sent notice {notice.id} twice"
        # two live processes never both deliver one: a second send follows a kill before the mark
        assert len(marked.get(notice.id, [])) <= 1, f"notice {notice.id} delivered by {marked[notice.id]}"
    again = sum(len(s) - 1 for s in sent.values())
    print(f"{len(rows)} notices delivered, {again} sent again after a kill (same nonce)")


@pytest.mark.asyncio
async def test_postgres_the_lobby_join_race_across_two_processes_30_times(postgres_url: str) -> None:
    """Issue 14 point 8 across real processes: both hold the lobby, both join someone at once."""
    store = await open_store(postgres_url)
    counter = iter(range(100))
    svc = GameService(store, FakeClock(), id_factory=lambda: f"lobby{next(counter)}")
    procs = [await spawn("--serve", postgres_url) for _ in range(2)]
    try:
        for p in procs:
            await p.wait_for("ready")

        async def ask(p: Driver, line: str) -> str:
            assert p.proc.stdin is not None
            before = len(p.lines)
            p.proc.stdin.write(f"{line}\n".encode())
            await p.proc.stdin.drain()

            async def answered() -> str:
                while len(p.lines) == before:
                    await asyncio.sleep(0.005)
                return p.lines[before]
            return await asyncio.wait_for(answered(), READ_LIMIT)

        correct = 0
        for round_ in range(30):
            gid = (await svc.create_lobby(1, "Ann", GAME)).game_id
            for p in procs:
                assert await ask(p, f"look {gid}") == "ok"
            users = (10 + 2 * round_, 11 + 2 * round_)
            answers = await asyncio.gather(*(ask(p, f"join {gid} {u}")
                                             for p, u in zip(procs, users, strict=True)))
            assert all(a in ("joined", "refused conflict") for a in answers), answers
            joined = {u for u, a in zip(users, answers, strict=True) if a == "joined"}
            seated = {s.user_id for s in await store.get_seats(gid)}
            correct += seated == {1} | joined and bool(joined)
        assert correct == 30
    finally:
        for p in procs:
            assert p.proc.stdin is not None
            p.proc.stdin.close()
            await p.kill()
        await store.close()
