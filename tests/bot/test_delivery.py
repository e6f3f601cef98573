"""Notices through the outbox to the local fake Discord (issue 14, points 2, 3, 4 and 7).

The unmodified bot is served in this process as production serves it (``bot.discord.serve``,
see :mod:`tests.bot.test_discord_e2e`); moves are made through the game service the bot listens
to. Faults are injected by the fake as Discord shows them: a thread whose rate limit is spent
(429 with ``retry_after``), a person's DMs answering 500, a parent channel refusing posts
(403). Every assertion is about what arrived, where and in which order, never about how long
it took (``bench/bench_delivery.py`` measures that).
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

import tests.toy.spec  # noqa: F401  (registers the test-only game)
from bot import __main__ as entry
from bot.config import Config
from bot.discord import transport
from bot.models import Destination, GameChange, OutboxItem
from bot.outbox import MAX_ATTEMPTS
from bot.service import GameService
from bot.service.base import HOLD_MS
from bot.storage import GameStore
from bot.store import Store
from engine.registry import game_ids
from engine.spec import GameSpec
from tests.bot.test_discord_e2e import Running, loopback_only, no_errors_logged
from tests.support.fake_discord import CHANNEL_ID, GUILD_ID, FakeDiscord, Request

__all__ = ["loopback_only", "no_errors_logged"]  # the e2e module's autouse guards apply here too

ALICE, BOB, CAROL, DAVE = (710_000_000_000_000_001 + i for i in range(4))
NAMES = {ALICE: "alice", BOB: "bob", CAROL: "carol", DAVE: "dave"}
TOY = "toy-goofspiel"  # the test-only game (tests/toy): two players bid at once, a public line a round
SETTLE = 30.0  # seconds the outbox may take to empty (generous; a bound, not a measurement)


@pytest_asyncio.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord(dict(NAMES), heartbeat_interval=250) as f:
        with f.configure():
            yield f


async def open_game(svc: GameService, first: int, second: int) -> str:
    """A started two-player toy game in the fake's channel."""
    gid = (await svc.create_lobby(first, NAMES[first], TOY, guild_id=GUILD_ID, channel_id=CHANNEL_ID)).game_id
    await svc.join(gid, second, NAMES[second])
    await svc.start(gid, first)
    return gid


async def move(svc: GameService, gid: str, user: int) -> None:
    """``user`` takes the first choice the game offers them."""
    seq, decision = await svc.decision(gid, user)
    assert decision is not None, f"{NAMES[user]} has nothing to decide in {gid}"
    await svc.submit(gid, user, decision.choices[0].action.to_json(), seq)


async def delivered(store: GameStore) -> None:
    """Wait until the outbox has nothing left to deliver."""
    async def empty() -> None:
        while await store.outbox_destinations():
            await asyncio.sleep(0.02)
    await asyncio.wait_for(empty(), SETTLE)


def dm_created(fake: FakeDiscord, user: int) -> list[Request]:
    """The messages really created in a person's DMs (a nonce repeat is not one)."""
    return [r for c, u in fake.dm_channels.items() if u == user for r in fake.created_in(c)]


def refused(fake: FakeDiscord, channel: int, status: int) -> list[Request]:
    path = f"/channels/{channel}/messages"
    return [r for r in fake.requests if r.method == "POST" and r.path == path and r.status == status]


# == point 2: a stuck destination holds up nobody else ==========================================
@pytest.mark.asyncio
async def test_a_rate_limited_thread_and_a_failing_dm_hold_up_no_other_game(fake: FakeDiscord,
                                                                             tmp_path: Path) -> None:
    """Issue 14 (2): "an unrelated game's notice arrived 32-35 s late [...] 5.8 s late behind one 6 s
    429 on another game's thread; about 25 s late for everyone while one user's DM endpoint returned
    5xx". Here game A's thread has spent its rate limit (429 for the next minute) and Bob's DMs answer
    500; game B's round must reach B's thread and both B players while A's line and Bob's DM wait."""
    bot = await Running(fake, tmp_path).start()
    try:
        svc = bot.service
        a = await open_game(svc, ALICE, BOB)
        b = await open_game(svc, CAROL, DAVE)
        await delivered(svc.store)
        thread_a, thread_b = (await svc.status(a)).thread_id, (await svc.status(b)).thread_id
        assert thread_a is not None and thread_b is not None
        fake.rate_limit(thread_a, 5, 60.0, spent=True)
        fake.failing_dms.add(BOB)
        in_a, in_b = len(fake.created_in(thread_a)), len(fake.created_in(thread_b))
        dms = {u: len(dm_created(fake, u)) for u in NAMES}
        await move(svc, a, ALICE)
        await move(svc, a, BOB)  # the round ends: a public line in A's thread, "your move" for both
        await fake.wait_for(lambda: refused(fake, thread_a, 429), what="A's line refused with 429")
        bob_dm = next(c for c, u in fake.dm_channels.items() if u == BOB)
        await fake.wait_for(lambda: refused(fake, bob_dm, 500), what="Bob's DM failing with 500")
        await move(svc, b, CAROL)
        await move(svc, b, DAVE)
        await fake.wait_for(lambda: len(fake.created_in(thread_b)) > in_b, what="B's round in B's thread")
        await fake.wait_for(lambda: all(len(dm_created(fake, u)) > dms[u] for u in (CAROL, DAVE)),
                            what="B's players told by DM")
        # game B got through while A's line and Bob's DM are still held, and still in the outbox
        assert len(fake.created_in(thread_a)) == in_a
        assert len(dm_created(fake, BOB)) == dms[BOB]
        waiting = await svc.store.outbox_destinations()
        assert Destination("public", 0, a) in waiting and Destination("dm", BOB) in waiting
        assert len(dm_created(fake, ALICE)) > dms[ALICE]  # Alice's DM went out beside Bob's failing one
    finally:
        await bot.shutdown()


@pytest.mark.asyncio
async def test_a_your_move_dm_that_cannot_go_becomes_a_ping_in_the_thread(
        fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    """Issue 14: "no game waits on a player whose 'your move' notice has not gone out without
    retrying it". Bob's DMs answer 503 every time: the DM is tried :data:`MAX_ATTEMPTS` times (the
    waits between tries shortened here), given up with a log line, and Bob is pinged in the thread."""
    monkeypatch.setattr(transport, "retry_delay", lambda attempts, retry_after=None: 0.01)
    fake.failing_dms.add(BOB)
    fake.dm_failure = 503  # discord.py does not retry a 503 itself: each try is one request
    bot = await Running(fake, tmp_path).start()
    try:
        gid = await open_game(bot.service, ALICE, BOB)
        await delivered(bot.service.store)
        bob_dm = next(c for c, u in fake.dm_channels.items() if u == BOB)
        assert len(refused(fake, bob_dm, 503)) == MAX_ATTEMPTS
        thread = (await bot.service.status(gid)).thread_id
        assert thread is not None
        pings = await fake.wait_for(lambda: [r for r in fake.created_in(thread)
                                             if f"<@{BOB}>, there is news for you" in r.content])
        assert len(pings) == 1 and "your move" in pings[0].content.lower()
        assert not any(f"<@{ALICE}>, there is news" in r.content for r in fake.created_in(thread))
        gave_up = [r for r in await bot.service.store.outbox_rows() if r.gave_up_at is not None]
        assert [(r.kind, r.target) for r in gave_up] == [("dm", BOB)]
        assert any("gave up" in r.getMessage() for r in caplog.records)
    finally:
        await bot.shutdown()


# == point 3: a refused announcement keeps nothing else back ====================================
@pytest.mark.asyncio
async def test_a_refused_announcement_in_the_parent_channel_keeps_nothing_else_back(
        fake: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Issue 14 (3): "If the 'Game ... is played in #thread' post in the parent channel fails (403 or
    5xx after retries), nothing is posted in the thread, no status is pinned, and the first drawer
    never gets the DM". The announcement is a row of its own: refused, it is given up alone."""
    bot = await Running(fake, tmp_path).start()
    try:
        svc = bot.service
        gid = (await svc.create_lobby(ALICE, "alice", TOY, guild_id=GUILD_ID, channel_id=CHANNEL_ID)).game_id
        await svc.join(gid, BOB, "bob")
        await delivered(svc.store)
        fake.refuse(CHANNEL_ID)  # 403 Missing Permissions in the parent channel from now on
        await svc.start(gid, ALICE)
        await delivered(svc.store)
        thread = (await svc.status(gid)).thread_id
        assert thread is not None
        assert refused(fake, CHANNEL_ID, 403), "the announcement was not even tried"
        assert any(f"Game {gid} begins" in r.content for r in fake.created_in(thread))
        assert fake.pins.get(thread), "no status was pinned in the thread"
        for user in (ALICE, BOB):
            assert any(f"Your move in game `{gid}`" in r.content for r in dm_created(fake, user)), NAMES[user]
        assert any("gave up" in r.getMessage() and "channel" in r.getMessage() for r in caplog.records)
    finally:
        await bot.shutdown()


# == point 4: notices survive a crash between the commit and the post ===========================
@pytest.mark.asyncio
async def test_notices_committed_before_a_crash_go_out_once_after_the_restart(fake: FakeDiscord,
                                                                              tmp_path: Path) -> None:
    """Issue 14 (4): "a crash between the commit and the post loses them (a move is safe, but nobody
    is told it is their turn)". A process commits a game's start and a round and dies before any
    delivery; the next one delivers everything, each message once."""
    db = tmp_path / "annals.sqlite3"
    store = await Store.open(db)
    gid = await open_game(GameService(store, seed_factory=lambda: 42), ALICE, BOB)
    svc = GameService(store, seed_factory=lambda: 42)
    await move(svc, gid, ALICE)
    await move(svc, gid, BOB)
    committed = await store.outbox_rows()
    assert committed and all(r.delivered_at is None for r in committed)
    await store.close()  # the process is gone: no transport ever ran
    bot = await Running(fake, tmp_path).start()
    try:
        await delivered(bot.service.store)
        rows = await bot.service.store.outbox_rows()
        assert all(r.delivered_at is not None for r in rows if r.id <= committed[-1].id)
        thread = (await bot.service.status(gid)).thread_id
        assert thread is not None
        lines = [ln for r in fake.created_in(thread) for ln in r.content.splitlines()]
        assert sum(f"Game {gid} begins" in ln for ln in lines) == 1
        for user in (ALICE, BOB):
            turns = [r for r in dm_created(fake, user) if f"Your move in game `{gid}`" in r.content]
            assert len(turns) == 1, (NAMES[user], [r.content for r in dm_created(fake, user)])
    finally:
        await bot.shutdown()


async def started_and_dying_before_marking(bot: Running, fake: FakeDiscord,
                                           monkeypatch: pytest.MonkeyPatch) -> str:
    """A toy game of alice and bob started once the lobby's notices are out, in a process that
    dies (hangs for ever) before marking what Discord accepted: the first DMs are out, their rows
    stay undelivered. Its id."""
    gid = (await bot.service.create_lobby(ALICE, "alice", TOY, guild_id=GUILD_ID,
                                          channel_id=CHANNEL_ID)).game_id
    await bot.service.join(gid, BOB, "bob")
    await delivered(bot.service.store)
    never = asyncio.Event()

    async def dies_before_marking(ids: object, now: int) -> None:
        await never.wait()  # the process is killed here: the rows stay undelivered

    monkeypatch.setattr(bot.service.store, "mark_delivered", dies_before_marking)
    await bot.service.start(gid, ALICE)
    await fake.wait_for(lambda: all(dm_created(fake, u) for u in (ALICE, BOB)), what="the first DMs")
    return gid


@pytest.mark.asyncio
async def test_a_crash_after_discord_accepted_but_before_the_mark_posts_nothing_twice(
        fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The hard case of a crash: Discord accepted the messages, the process died before marking the
    rows delivered. The next process sends them again with the same nonces, and Discord (the fake,
    as Discord does with ``enforce_nonce``) returns the messages it already has: nobody sees a copy."""
    bot = await Running(fake, tmp_path).start()
    try:
        gid = await started_and_dying_before_marking(bot, fake, monkeypatch)
    finally:
        await bot.shutdown()
    first = len(fake.created)
    monkeypatch.undo()
    again = await Running(fake, tmp_path).start()
    try:
        await delivered(again.service.store)
        assert all(r.delivered_at is not None for r in await again.service.store.outbox_rows())
    finally:
        await again.shutdown()
    sent = [r for r in fake.requests if r.method == "POST" and isinstance(r.payload, dict)
            and r.payload.get("nonce") and r.status == 200]
    repeated = {str(r.payload["nonce"]) for r in sent} & {str(r.payload["nonce"]) for r in sent[:first]}
    assert len(sent) > len({str(r.payload["nonce"]) for r in sent}), "nothing was sent twice: no crash case"
    assert repeated
    created = [str(r.payload["nonce"]) for r in fake.created if isinstance(r.payload, dict)]
    assert len(created) == len(set(created)), "a message was posted twice"
    for user in (ALICE, BOB):
        turns = [r for r in dm_created(fake, user) if f"Your move in game `{gid}`" in r.content]
        assert len(turns) == 1, NAMES[user]


# == point 7 =====================================================================================
@pytest.mark.asyncio
async def test_a_game_the_ai_ends_in_one_command_posts_a_summary_not_its_log(fake: FakeDiscord,
                                                                             tmp_path: Path) -> None:
    """Issue 14 (7): "A game finished by the AI inside one command posts its whole log into the
    thread (34-35 messages of ~2,000 characters)". Three AI seats play a whole classic game inside
    ``start``: the thread gets one summary with the final board, the scores and the log as a file."""
    bot = await Running(fake, tmp_path).start()
    try:
        svc = bot.service
        # many small AI batches, each its own transaction, with the loop free while each is played (issue
        # 25): the thread's worker would post between them, were the command's rows not held to its end
        svc.ai_batch = 4
        gid = (await svc.create_lobby(ALICE, "alice", "history-classic", guild_id=GUILD_ID,
                                      channel_id=CHANNEL_ID, creator_joins=False)).game_id
        for _ in range(3):
            await svc.add_ai(gid, ALICE)
        await svc.start(gid, ALICE)
        await delivered(svc.store)
        status = await svc.status(gid)
        assert status.status == "over" and status.thread_id is not None
        pinned = {str(m) for m in fake.pins.get(status.thread_id, [])}
        posts = [r for r in fake.created_in(status.thread_id)
                 if str((r.response or {}).get("id")) not in pinned]
        assert len(posts) == 1, [p.content[:60] for p in posts]
        summary = posts[0]
        assert "The game ends: " in summary.content and "Final scores:" in summary.content
        assert "Winner:" in summary.content
        names = dict(summary.files)
        logs = [n for n in names if n.endswith(".txt")]
        assert len(logs) == 1 and names[logs[0]] > 20_000, names  # the whole account, in the file
        assert any(n.endswith(".png") for n in names), names  # the final board
        assert any(n.endswith("-timelapse.webp") for n in names), names  # the whole game, stage by stage
    finally:
        await bot.shutdown()


@pytest.mark.asyncio
async def test_a_commands_public_rows_wait_for_its_end_while_ai_seats_play_on(tmp_path: Path) -> None:
    """Issue 25: AI batches run off the loop, so the thread's worker may run between them; what one
    command writes for the thread is held until its last batch (then all of it goes as one burst: one
    summary for a game the AI ends), and held at most HOLD_MS of real time should the process die."""
    store = await Store.open(tmp_path / "annals.sqlite3")
    try:
        svc = GameService(store, seed_factory=lambda: 42, ai_batch=4)
        changes: list[tuple[int | None, bool, int]] = []
        real = store.apply_change

        async def spy(change: GameChange) -> list[int]:
            ids = await real(change)
            held = [r.next_try_ms for r in await store.outbox_rows(ids) if r.kind == "public"]
            changes.append((change.hold_public_ms, change.release_held, max(held, default=0)))
            return ids

        store.apply_change = spy  # type: ignore[method-assign]
        gid = (await svc.create_lobby(ALICE, "alice", "history-classic", creator_joins=False)).game_id
        for _ in range(3):
            await svc.add_ai(gid, ALICE)
        changes.clear()
        before = time.time() * 1000
        await svc.start(gid, ALICE)  # the AI plays the whole game inside this one command
        assert (await svc.status(gid)).status == "over" and len(changes) > 10
        *middle, last = changes
        assert all(hold is not None and before < hold <= time.time() * 1000 + HOLD_MS and written == hold
                   for hold, release, written in middle)  # held, for a minute at most
        assert last[0] is None and last[1]  # the last change releases them
        assert all(r.next_try_ms == 0 for r in await store.outbox_rows() if r.game_id == gid)
    finally:
        await store.close()


@pytest.mark.asyncio
async def test_pause_and_resume_do_not_send_the_same_your_move_again(fake: FakeDiscord,
                                                                     tmp_path: Path) -> None:
    """Issue 14 (7): "pause and resume re-send an identical 'Your move' DM". After a resume the
    players hear that the game goes on and when their move is due, without the board again."""
    bot = await Running(fake, tmp_path).start()
    try:
        svc = bot.service
        gid = await open_game(svc, ALICE, BOB)
        await delivered(svc.store)
        before = {u: len(dm_created(fake, u)) for u in (ALICE, BOB)}
        await svc.pause(gid, ALICE)
        await svc.resume(gid, ALICE)
        await delivered(svc.store)
        for user in (ALICE, BOB):
            news = dm_created(fake, user)[before[user]:]
            assert news, NAMES[user]
            assert any(f"Game `{gid}` goes on" in r.content for r in news)
            assert not any(f"Your move in game `{gid}`" in r.content or r.files for r in news)
    finally:
        await bot.shutdown()


@pytest.mark.asyncio
async def test_shutdown_does_not_wait_out_a_429_and_the_line_goes_out_after_restart(
        fake: FakeDiscord, tmp_path: Path) -> None:
    """Issue 14 (7): "SIGTERM takes over 10 s when a 429 is pending". The stop leaves the held line
    in the outbox (it does not wait the minute the 429 asks for); the next start posts it once."""
    bot = await Running(fake, tmp_path).start()
    try:
        gid = await open_game(bot.service, ALICE, BOB)
        await delivered(bot.service.store)
        thread = (await bot.service.status(gid)).thread_id
        assert thread is not None
        fake.rate_limit(thread, 5, 60.0, spent=True)
        before = len(fake.created_in(thread))
        await move(bot.service, gid, ALICE)
        await move(bot.service, gid, BOB)
        await fake.wait_for(lambda: refused(fake, thread, 429), what="the line refused with 429")
    finally:
        await bot.shutdown()
    assert len(fake.created_in(thread)) == before  # the stop did not wait for the 429 to pass
    fake.limits.clear()
    again = await Running(fake, tmp_path).start()
    try:
        await delivered(again.service.store)
    finally:
        await again.shutdown()
    # one message for both moves, or two when the second was written while the first was being sent
    # (a batch once begun goes again as it was); never a copy
    posted = fake.created_in(thread)[before:]
    assert 1 <= len(posted) <= 2
    nonces = [str(r.payload["nonce"]) for r in posted if isinstance(r.payload, dict)]
    assert len(nonces) == len(set(nonces)) == len(posted)


def test_start_up_loads_every_ruleset_off_the_event_loop(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 14 (7): "the first use of each ruleset parses its YAML on the event loop (150-214 ms)".
    Every registered game is loaded, data, AI and all, in a worker thread; since issue 25 the front
    answers meanwhile (a game asked for first loads itself, off the loop too)."""
    loads: list[tuple[str, bool]] = []
    real = GameSpec.load

    def load(self: GameSpec) -> object:
        loads.append((self.id, threading.current_thread() is threading.main_thread()))
        return real(self)

    monkeypatch.setattr(GameSpec, "load", load)
    config = Config(discord_token=None, db_path=str(tmp_path / "annals.sqlite3"),
                    backup_dir=tmp_path / "backups", backup_interval=0)
    async def front(service: GameService, scheduler: object, stop: asyncio.Event) -> None:
        return None

    assert asyncio.run(entry._run(config, front)) == 0  # the run ends once the warming thread has
    assert {gid for gid, on_loop in loads if not on_loop} >= set(game_ids())
    assert not any(on_loop for _, on_loop in loads)


@pytest.mark.asyncio
async def test_a_batch_cut_short_by_a_crash_goes_again_as_the_same_batch(
        fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A crash after Discord accepted a batch and before it was marked, with more notices for the
    same places written meanwhile: after the restart the cut batch goes again as it was (the same
    messages, so Discord returns the copies it has), and the new notices follow as messages of their
    own. Before, the new rows joined the old batch, which then made new messages with new nonces."""
    bot = await Running(fake, tmp_path).start()
    try:
        gid = await started_and_dying_before_marking(bot, fake, monkeypatch)
        await bot.service.pause(gid, ALICE)  # written while the workers hang on the first batch
    finally:
        await bot.shutdown()
    monkeypatch.undo()
    again = await Running(fake, tmp_path).start()
    try:
        await delivered(again.service.store)
        thread = (await again.service.status(gid)).thread_id
    finally:
        await again.shutdown()
    created = [str(r.payload["nonce"]) for r in fake.created if isinstance(r.payload, dict)]
    assert len(created) == len(set(created)), "a message was posted twice"
    for user in (ALICE, BOB):
        turns = [r for r in dm_created(fake, user) if f"Your move in game `{gid}`" in r.content]
        assert len(turns) == 1, NAMES[user]
    assert thread is not None
    lines = [line for r in fake.created_in(thread) for line in r.content.splitlines() if line]
    assert any("paus" in line.lower() for line in lines), "the pause was never told"
    assert len(lines) == len(set(lines)), "a line was posted twice"


@pytest.mark.asyncio
async def test_rows_no_commit_woke_for_are_found_by_the_next_look(fake: FakeDiscord, tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Rows written where this process's commits do not wake it (another process on a shared
    PostgreSQL database, or whose lease ran out) go out at the next periodic look."""
    monkeypatch.setattr(transport, "RESCAN_SECONDS", 0.05)
    bot = await Running(fake, tmp_path).start()
    try:
        gid = await open_game(bot.service, ALICE, BOB)
        await delivered(bot.service.store)
        store = bot.service.store
        told = next(r for r in await store.outbox_rows() if r.kind == "public" and r.game_id == gid)
        before = len(fake.created)
        await store.enqueue([OutboxItem(gid, "public", 0, told.payload, "another-process")], 1)  # no wake
        await fake.wait_for(lambda: len(fake.created) > before, what="the row found without a wake")
    finally:
        await bot.shutdown()
