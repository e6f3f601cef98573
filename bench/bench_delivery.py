"""How late do a game's notices arrive while other destinations are stuck? Prints the figures.

Run by hand (never from the tests):
    .venv/bin/python bench/bench_delivery.py [--rounds 20] [--pause 0.3]

The unmodified bot is served in this process against the local fake Discord
(``tests/support/fake_discord.py``, 127.0.0.1 only), as ``python -m bot`` serves it. Three games:

* game A's thread is rate-limited to 5 messages per 5 s (then 429 with ``retry_after``),
  and a round of A is played before every round of B, so A's thread stays saturated;
* Bob (a player of A) has a DM endpoint that answers 500 (discord.py retries it five
  times, about 25 s, before the outbox backs off);
* a classic game played to the end by three AI seats inside one command, started in the
  middle of the run (its burst of ~36,000 characters of log).

Game B (Carol and Dave) plays ``--rounds`` rounds. For each, the delay is measured from
the moment the round's move was committed (``submit`` returned) to the moment the fake
received B's public line in B's thread, and Carol's and Dave's "your move" DMs. The issue
wants every one under 1 s; the figures for A's thread are printed alongside.

Then (issue 24, point 8): with Bob's DM channel failing to open (500, no rate-limit headers),
how late Carol's first DM of the process arrives.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import tests.toy.spec  # noqa: F401  (registers the test-only game)
from bot.config import Config
from bot.discord import serve
from bot.models import Destination
from bot.scheduler import Scheduler
from bot.service import GameService
from bot.store import Store
from tests.support.fake_discord import CHANNEL_ID, GUILD_ID, TOKEN, FakeDiscord, Request

ALICE, BOB, CAROL, DAVE = (710_000_000_000_000_001 + i for i in range(4))
NAMES = {ALICE: "alice", BOB: "bob", CAROL: "carol", DAVE: "dave"}
TOY = "toy-goofspiel"
CLASSIC = "history-classic"


async def open_game(svc: GameService, first: int, second: int) -> str:
    gid = (await svc.create_lobby(first, NAMES[first], TOY, guild_id=GUILD_ID, channel_id=CHANNEL_ID)).game_id
    await svc.join(gid, second, NAMES[second])
    await svc.start(gid, first)
    return gid


async def move(svc: GameService, gid: str, user: int) -> None:
    seq, decision = await svc.decision(gid, user)
    if decision is None:
        return
    await svc.submit(gid, user, decision.choices[0].action.to_json(), seq)


async def settled(store: Store, dest: Destination | None = None) -> None:
    """Wait until the outbox has nothing left (for ``dest``, or anywhere)."""
    while (pending := await store.outbox_destinations()) and (dest is None or dest in pending):
        await asyncio.sleep(0.02)


def posts_in(fake: FakeDiscord, channel: int) -> list[Request]:
    return fake.created_in(channel)


def dms_of(fake: FakeDiscord, user: int) -> list[Request]:
    return [r for c, u in fake.dm_channels.items() if u == user for r in fake.created_in(c)]


async def arrival(fake: FakeDiscord, count: object, before: int, timeout: float = 60.0) -> float:
    """When the ``before + 1``-th message of ``count()`` arrived at the fake (loop clock)."""
    found: list[Request] = await fake.wait_for(lambda: count()[before:] or None, timeout)  # type: ignore[operator]
    return found[0].at


def figures(name: str, delays: list[float]) -> str:
    if not delays:
        return f"{name:<34} nothing arrived"
    ms = sorted(d * 1000 for d in delays)
    p95 = ms[min(len(ms) - 1, round(0.95 * (len(ms) - 1)))]
    return (f"{name:<34} n={len(ms):3d}  median {statistics.median(ms):7.1f} ms  p95 {p95:7.1f} ms  "
            f"max {ms[-1]:7.1f} ms")


async def run(rounds: int, pause: float) -> None:
    loop = asyncio.get_running_loop()
    with tempfile.TemporaryDirectory() as tmp:
        async with FakeDiscord(dict(NAMES), heartbeat_interval=250) as fake:
            with fake.configure():
                db = Path(tmp) / "annals.sqlite3"
                config = Config(discord_token=TOKEN, db_path=str(db), backup_dir=Path(tmp) / "backups",
                                backup_interval=0)
                store = await Store.open(db)
                svc = GameService(store)
                scheduler = Scheduler(svc)
                stop = asyncio.Event()
                work = serve(config, svc, scheduler, stop)
                await scheduler.start()
                task = asyncio.ensure_future(work)
                await fake.ready_sent.wait()
                try:
                    a = await open_game(svc, ALICE, BOB)
                    b = await open_game(svc, CAROL, DAVE)
                    await settled(store)  # the starts' threads, pins and first DMs
                    thread_a, thread_b = (await svc.status(a)).thread_id, (await svc.status(b)).thread_id
                    assert thread_a is not None and thread_b is not None
                    fake.rate_limit(thread_a, 5, 5.0)
                    fake.failing_dms.add(BOB)
                    public: list[float] = []
                    private: list[float] = []
                    stuck: list[float] = []
                    held: list[tuple[int, int, float, bool]] = []  # A's rounds: thread, posts, when, held
                    still = 0
                    for n in range(rounds):
                        if n == rounds // 2:  # the AI plays a whole classic game inside one command
                            c = (await svc.create_lobby(ALICE, "alice", CLASSIC, guild_id=GUILD_ID,
                                                        channel_id=CHANNEL_ID, creator_joins=False)).game_id
                            for _ in range(3):
                                await svc.add_ai(c, ALICE)
                            await svc.start(c, ALICE)
                        if (await svc.status(a)).status == "over":
                            a = await open_game(svc, ALICE, BOB)  # a new stuck game, same thread limit
                            await settled(store, Destination("public", 0, a))
                            new_thread = (await svc.status(a)).thread_id
                            assert new_thread is not None
                            thread_a = new_thread
                            fake.rate_limit(thread_a, 5, 5.0)
                        if (await svc.status(b)).status == "over":
                            b = await open_game(svc, CAROL, DAVE)
                            await settled(store, Destination("public", 0, b))
                            new_b = (await svc.status(b)).thread_id
                            assert new_b is not None
                            thread_b = new_b
                        await move(svc, a, ALICE)
                        a_before = len(posts_in(fake, thread_a))
                        await move(svc, a, BOB)
                        a_done = loop.time()
                        seen = {u: len(dms_of(fake, u)) for u in (CAROL, DAVE)}
                        b_before = len(posts_in(fake, thread_b))
                        await move(svc, b, CAROL)
                        await move(svc, b, DAVE)
                        done = loop.time()
                        line = await arrival(fake, lambda t=thread_b: posts_in(fake, t), b_before)
                        public.append(line - done)
                        for user in (CAROL, DAVE):
                            got = await arrival(fake, lambda u=user: dms_of(fake, u), seen[user])
                            private.append(got - done)
                        held.append((thread_a, a_before, a_done, len(posts_in(fake, thread_a)) == a_before))
                        await asyncio.sleep(pause)
                    with contextlib.suppress(TimeoutError):  # let A's thread catch up, for its figures
                        await asyncio.wait_for(settled(store, Destination("public", 0, a)), 30)
                    for thread, before, at, waiting in held:
                        later = posts_in(fake, thread)[before:]
                        if later:
                            stuck.append(later[0].at - at)
                        still += waiting
                    limited = sum(1 for r in fake.requests if r.status == 429)
                    failed = sum(1 for r in fake.requests if r.status == 500)
                    print(f"{rounds} rounds of game B beside a rate-limited thread ({limited} answers 429), "
                          f"a failing DM endpoint ({failed} answers 500) and an AI-finished classic game")
                    print(figures("B's line in B's thread", public))
                    print(figures("B's 'your move' DMs", private))
                    print(figures("A's line in A's (limited) thread", stuck))
                    print(f"A's line was still held back when B's round went out in {still} of {rounds} "
                          "rounds")
                    # the stop with a 429 pending (a minute long) on a fresh game's thread
                    e = await open_game(svc, ALICE, CAROL)
                    await settled(store, Destination("public", 0, e))
                    thread_e = (await svc.status(e)).thread_id
                    assert thread_e is not None
                    fake.rate_limit(thread_e, 5, 60.0, spent=True)
                    mark = len(fake.requests)
                    await move(svc, e, ALICE)
                    await move(svc, e, CAROL)
                    await fake.wait_for(lambda: any(r.status == 429 for r in fake.requests[mark:]), 30)
                finally:
                    began = loop.time()
                    stop.set()
                    await task
                    print(f"stop with a 429 pending took {loop.time() - began:.2f} s; "
                          f"{len(await store.outbox_destinations())} destination(s) left in the outbox")
                    await scheduler.shutdown()
                    await store.close()


async def first_dm_beside_a_failing_open() -> None:
    """Issue 24 (8): after Bob's ``POST /users/@me/channels`` failed (500, no rate-limit headers), how
    late is Carol's first DM of the process? Before, it waited behind all of Bob's tries (~16 s)."""
    loop = asyncio.get_running_loop()
    with tempfile.TemporaryDirectory() as tmp:
        async with FakeDiscord(dict(NAMES), heartbeat_interval=250, failing_dm_opens={BOB}) as fake:
            with fake.configure():
                db = Path(tmp) / "annals.sqlite3"
                config = Config(discord_token=TOKEN, db_path=str(db), backup_dir=Path(tmp) / "backups",
                                backup_interval=0)
                store = await Store.open(db)
                svc = GameService(store)
                scheduler = Scheduler(svc)
                stop = asyncio.Event()
                task = asyncio.ensure_future(serve(config, svc, scheduler, stop))
                await scheduler.start()
                await fake.ready_sent.wait()
                try:
                    for user in (BOB, CAROL):
                        gid = (await svc.create_lobby(user, NAMES[user], TOY)).game_id
                        await svc.add_ai(gid, user)
                        if user == CAROL:  # once Bob's open has failed
                            await fake.wait_for(lambda: any(r.status == 500 for r in fake.dm_opens(BOB)), 30)
                        began = loop.time()
                        await svc.start(gid, user)
                    got = await arrival(fake, lambda: dms_of(fake, CAROL), 0)
                    tries = [r for r in fake.dm_opens(BOB) if r.at <= got]
                    late = (got - began) * 1000
                    print(f"Carol's first DM beside Bob's failing DM open: {late:.1f} ms after her game "
                          f"started; Bob's open had been tried {len(tries)} time(s) by then")
                finally:
                    stop.set()
                    await task
                    await scheduler.shutdown()
                    await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--pause", type=float, default=0.3, help="seconds between rounds")
    args = parser.parse_args()
    asyncio.run(run(args.rounds, args.pause))
    asyncio.run(first_dm_beside_a_failing_open())


if __name__ == "__main__":
    main()
