"""Subprocess for tests/bot/test_service_crash.py: streams submits into one game until killed.

Usage: ``python tests/support/crash_driver.py DB GAME_ID`` (DB: a SQLite file or a postgresql:// URL)

Two more modes for several processes on one PostgreSQL database (tests/store/test_postgres_processes.py):
``python tests/support/crash_driver.py --many DB NAME SEED GAME_ID...`` plays the people of many games at
random and fires due deadlines (each process's fake clock runs ahead by itself), printing
``ack GAME SEQ USER`` after each committed submit and ``fired DEADLINE`` after each committed firing,
and delivers the notice outbox as a front would (``sent ROW NONCE`` stands for Discord's post,
``marked ROW...`` after the rows are marked delivered);
``python tests/support/crash_driver.py --serve DB`` answers ``look GAME`` and ``join GAME USER`` lines on
stdin (the lobby-join race).

One more for the delivery crash test (tests/bot/test_delivery_kills.py): ``python
tests/support/crash_driver.py --deliver DB BASE_URL GATEWAY_URL SEED [drain]`` serves the real bot against
the test's fake Discord while playing toy games of the same few people (several games each, so a person's
DMs mix games), printing ``dm USER NONCE ROW,ROW...`` just before each DM of a batch is made (the rows it
tells of, the nonce it goes under); with ``drain`` it plays nothing and prints ``drained`` once the outbox
is empty.

Creates the game on first run (three people, seed 7), then plays it with a
seeded random policy on behalf of whoever must act. After each submit has
returned (so after its transaction committed) it prints ``ack <seq>`` and
flushes, so the parent knows which submits were acknowledged. Prints
``ready <seq>`` after start-up and ``over <seq>`` at the end of the game.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import sys
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bot.clock import FakeClock
from bot.models import TimerSettings
from bot.postgres_dialect import PgDialect
from bot.service import GameService, ServiceError
from bot.storage import open_store
from bot.store import Store
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


#: Seconds a --many process holds a destination of the outbox it claimed (the bot's is minutes).
OUTBOX_LEASE = 2

#: The clocks of the --many games: an hour per move, a reminder half-way, the AI never takes a seat.
MANY_TIMERS = TimerSettings(move_seconds=3600, reminder_offsets=(1800,), misses_before_ai=0)


async def many(db: str, name: str, seed: int, games: list[str]) -> None:
    """Play the people of ``games`` (created by the parent) until killed; see the module docstring."""
    store = await open_store(db)
    rng = random.Random(seed)
    clock = FakeClock()
    svc = GameService(store, clock, checkpoint_every=10, id_factory=lambda: f"{name}-unused")
    if isinstance(store, Store) and isinstance(store.dialect, PgDialect):
        store.dialect.outbox_lease = OUTBOX_LEASE  # a killed process's destinations pass on within the test
    print(f"ready {name}", flush=True)
    while True:
        if rng.random() < 0.2:  # deliver the outbox as a front would: "sent" stands for Discord's post
            for dest in await store.outbox_destinations():
                rows = await store.claim_due(dest)
                for sent in rows:
                    print(f"sent {sent.id} {sent.nonce}", flush=True)
                if rows:
                    await store.mark_delivered([r.id for r in rows], int(clock.now()))
                    print("marked " + " ".join(str(r.id) for r in rows), flush=True)
            continue
        if rng.random() < 0.05:  # time passes here: what is due is claimed and fired
            clock.advance(rng.choice((1800, 3600)))
            for row in await store.claim_deadlines(due_before=clock.now()):
                try:
                    fired = await svc.fire_deadline(row.deadline_id)
                except ServiceError:  # another process changed the game first: it is its move
                    continue
                if fired is not None:
                    print(f"fired {row.deadline_id}", flush=True)
            continue
        gid = rng.choice(games)
        status = await svc.status(gid)
        if status.status != "active" or not status.waiting_for:
            await asyncio.sleep(0.01)
            continue
        seq, state = await svc.engine_state(gid)
        user = rng.choice(status.waiting_for)
        seat = next(s.seat for s in status.seats if s.user_id == user)
        assert seat is not None
        action = make_policy("history-classic", "random", seq + seed).choose(state, seat)
        try:
            outcome = await svc.submit(gid, user, action.to_json(), seq)
        except ServiceError as exc:
            if exc.code in ("conflict", "stale", "not_your_turn", "busy"):
                svc.forget(gid)  # another process moved first: read the game again
                continue
            print(f"error {exc.code} {exc.message}", flush=True)
            raise
        print(f"ack {gid} {seq + 1} {user}", flush=True)
        del outcome


async def serve(db: str) -> None:
    """Answer ``look GAME`` (load it, as a live process holds its games) and ``join GAME USER``."""
    store = await open_store(db)
    svc = GameService(store, FakeClock())
    print("ready", flush=True)
    loop = asyncio.get_running_loop()
    while line := (await loop.run_in_executor(None, sys.stdin.readline)).split():
        if line[0] == "look":
            await svc.status(line[1])
            print("ok", flush=True)
        elif line[0] == "join":
            try:
                await svc.join(line[1], int(line[2]), f"P{line[2]}")
            except ServiceError as exc:
                print(f"refused {exc.code}", flush=True)
            else:
                print("joined", flush=True)
    await store.close()


#: The people of the --deliver games: every pair plays, so each person's DMs mix several games.
DELIVER_PEOPLE = (201, 202, 203)
DELIVER_PAIRS = ((201, 202), (202, 203), (201, 203), (202, 201))
TOY = "toy-goofspiel"  # the test-only game (tests/toy): light to draw, two bids a round
MARK_DELAY = 0.05  # seconds the process spends between Discord's answer and the mark: a crash lands there


async def new_toy_game(svc: GameService, pair: tuple[int, int]) -> str:
    """A started toy game of ``pair`` without a channel (only DMs go out)."""
    gid = (await svc.create_lobby(pair[0], f"P{pair[0]}", TOY)).game_id
    await svc.join(gid, pair[1], f"P{pair[1]}")
    await svc.start(gid, pair[0])
    return gid


async def deliver(db: str, base_url: str, gateway_url: str, seed: int, drain: bool) -> None:
    """Serve the bot against the fake Discord and play toy games until killed (see the docstring)."""
    import discord.http
    import yarl
    from discord.gateway import DiscordWebSocket

    import tests.toy.spec  # noqa: F401  (registers the test-only game)
    from bot.discord import transport
    from bot.discord.client import make_bot
    from bot.models import OutboxRow
    from tests.support.fake_discord import TOKEN

    discord.http.Route.BASE = base_url
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url + "/")
    transport.RESCAN_SECONDS = 0.5  # a killed process's PostgreSQL lease runs out: look again soon
    real_send = transport.Transport._send_news

    async def send_news(self: transport.Transport, user_id: int, game_id: str, rows: list[OutboxRow]) -> None:
        print(f"dm {user_id} {rows[0].nonce} {','.join(str(r.id) for r in rows)}", flush=True)
        await real_send(self, user_id, game_id, rows)

    transport.Transport._send_news = send_news  # type: ignore[method-assign]  # watched, not changed
    store = await open_store(db, exclusive=not db.startswith("postgres"))
    if isinstance(store, Store) and isinstance(store.dialect, PgDialect):
        store.dialect.outbox_lease = OUTBOX_LEASE
    real_mark = store.mark_delivered

    async def slow_mark(ids: Sequence[int], now: int) -> None:
        await asyncio.sleep(MARK_DELAY)
        await real_mark(ids, now)

    store.mark_delivered = slow_mark  # type: ignore[method-assign]
    rng = random.Random(seed)
    svc = GameService(store, FakeClock(), checkpoint_every=10)
    bot = make_bot(svc)
    runner = asyncio.ensure_future(bot.start(TOKEN))
    while not bot.is_ready():
        if runner.done():
            runner.result()  # the connection failed: say why
        await asyncio.sleep(0.02)
    print("ready", flush=True)
    if drain:
        while await store.outbox_destinations():
            await asyncio.sleep(0.1)
        print("drained", flush=True)
        await asyncio.sleep(3600)  # the test kills it
    games = {pair: "" for pair in DELIVER_PAIRS}
    while True:
        pair = rng.choice(DELIVER_PAIRS)
        gid = games[pair]
        status = await svc.status(gid) if gid else None
        if status is None or status.status != "active":
            games[pair] = await new_toy_game(svc, pair)
            continue
        user = rng.choice(status.waiting_for)
        seq, decision = await svc.decision(gid, user)
        if decision is not None:
            choice = rng.choice(decision.choices)
            with contextlib.suppress(ServiceError):  # the other bid first: the round moved on
                await svc.submit(gid, user, choice.action.to_json(), seq)
        await asyncio.sleep(rng.uniform(0.0, 0.03))


if __name__ == "__main__":
    if sys.argv[1] == "--many":
        asyncio.run(many(sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5:]))
    elif sys.argv[1] == "--deliver":
        drain = sys.argv[6:] == ["drain"]
        asyncio.run(deliver(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]), drain))
    elif sys.argv[1] == "--serve":
        asyncio.run(serve(sys.argv[2]))
    else:
        asyncio.run(main(sys.argv[1], sys.argv[2]))
