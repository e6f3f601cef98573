"""Delivery that survives a broken game and a failing DM endpoint (issue 24, points 2 and 8).

The unmodified bot is served in this process against the local fake Discord (as in
:mod:`tests.bot.test_delivery`). Every assertion is about what arrived and in which order (the fake
records each request in the order it came), never about how long it took.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import tests.toy.spec  # noqa: F401  (registers the test-only game)
from bot.discord import transport, words
from bot.models import GameStatus, Notice
from bot.service import GameService
from engine.registry import spec
from tests.bot.test_delivery import ALICE, BOB, CAROL, NAMES, TOY, delivered, dm_created, fake
from tests.bot.test_discord_e2e import Running, loopback_only, no_errors_logged
from tests.support.fake_discord import CHANNEL_ID, GUILD_ID, FakeDiscord, Request

__all__ = ["fake", "loopback_only", "no_errors_logged"]  # the fixtures this module shares

WAIT = 10.0  # seconds a test waits for a message that should come at once (a bound, not a measure)


async def solo_game(svc: GameService, user: int) -> str:
    """A started toy game of ``user`` against an AI seat, in the fake's channel: only ``user`` is DMed."""
    gid = (await svc.create_lobby(user, NAMES[user], TOY, guild_id=GUILD_ID, channel_id=CHANNEL_ID)).game_id
    await svc.add_ai(gid, user)
    await svc.start(gid, user)
    return gid


def turn_dms(fake: FakeDiscord, user: int, gid: str) -> list[Request]:
    """The full "your move" DMs of game ``gid`` that reached ``user``."""
    return [r for r in dm_created(fake, user) if f"Your move in game `{gid}`" in r.content]


# == point 2: building a notice never kills a worker ==============================================
@pytest.mark.asyncio
async def test_a_your_move_whose_news_raises_is_given_up_once_with_a_plain_line(
        fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    """Issue 24 (2): "the exception is not in `_dm_gave_up`'s except list, so the row is retried past
    its limit (16 attempts with a limit of 6), never given up, the worker dies, and every later DM to
    the same person -- from healthy games -- waits behind it". Here the "since your last move" news
    of game A raises (as a game whose log no longer replays does): Bob's your-move row of A is tried
    once, given up with one log line and no traceback, Bob gets a plain line naming the game, and
    his DM of healthy game B, written after, arrives in full."""
    bot = await Running(fake, tmp_path).start()
    try:
        svc = bot.service
        real = svc.since_last_move
        broken: set[str] = set()

        async def since_last_move(game_id: str, player: int, **kw: object) -> object:
            if game_id in broken:
                raise KeyError("border Levant-Egypt")  # what a replay under changed rules raises
            return await real(game_id, player, **kw)  # type: ignore[arg-type]

        monkeypatch.setattr(svc, "since_last_move", since_last_move)
        a = (await svc.create_lobby(BOB, "bob", TOY, guild_id=GUILD_ID, channel_id=CHANNEL_ID)).game_id
        broken.add(a)
        await svc.add_ai(a, BOB)
        await svc.start(a, BOB)
        title = spec(TOY).title
        plain = await fake.wait_for(lambda: [r for r in dm_created(fake, BOB) if a in r.content], WAIT,
                                    "Bob's plain your-move of the broken game")
        assert len(plain) == 1
        assert f"Your move in {title} `{a}`" in plain[0].content and "/annals play" in plain[0].content
        assert not plain[0].files and not plain[0].components  # plain: no board, no panel
        b = await solo_game(svc, BOB)  # a healthy game: its DM to the same person comes after
        await fake.wait_for(lambda: turn_dms(fake, BOB, b), WAIT, "Bob's your-move of the healthy game")
        await delivered(svc.store)
        row = next(r for r in await svc.store.outbox_rows() if r.kind == "dm" and r.game_id == a)
        assert row.gave_up_at is not None and row.attempts == 1
        about_a = [r for r in caplog.records if a in r.getMessage() and r.name.startswith("bot.")]
        assert len(about_a) == 1, [r.getMessage() for r in about_a]
        assert about_a[0].exc_info is None and "gave up" in about_a[0].getMessage()
        assert len([r for r in dm_created(fake, BOB) if a in r.content]) == 1  # given up once, not retried
    finally:
        await bot.shutdown()


# == point 8: one person's failing DM endpoint holds up nobody else ===============================
@pytest.mark.asyncio
async def test_a_failing_dm_open_holds_up_no_one_elses_first_dm(fake: FakeDiscord, tmp_path: Path) -> None:
    """Issue 24 (8): "One person's failing DM holds up other people's first DMs for about 24 s:
    opening a DM channel is one rate-limit bucket for every user in discord.py, and its internal
    retries on 5xx hold it". Bob's ``POST /users/@me/channels`` answers 500 with no rate-limit
    headers; after its first failure Carol's first DM of the process is made. It must be created
    before Bob's second try: discord.py sleeps 1 s (its own timer) before retrying a 500, so
    Carol's DM arrived within 1 s of Bob's failure; before, it waited for all five of Bob's tries."""
    fake.failing_dm_opens.add(BOB)
    bot = await Running(fake, tmp_path).start()
    try:
        svc = bot.service
        await solo_game(svc, BOB)
        await fake.wait_for(lambda: [r for r in fake.dm_opens(BOB) if r.status == 500], WAIT,
                            "Bob's DM channel failing to open")
        c = await solo_game(svc, CAROL)
        created = await fake.wait_for(lambda: turn_dms(fake, CAROL, c), WAIT, "Carol's first DM")
        position = fake.requests.index(created[0])
        bob_before = [r for r in fake.dm_opens(BOB) if fake.requests.index(r) < position]
        assert len(bob_before) == 1, f"Carol's DM came after {len(bob_before)} of Bob's tries"
        assert all(r.status == 500 for r in fake.dm_opens(BOB))
        assert not dm_created(fake, BOB)
    finally:
        await bot.shutdown()


# == DM channels are remembered ====================================================================
@pytest.mark.asyncio
async def test_a_restart_sends_dms_without_opening_the_channel_again(fake: FakeDiscord,
                                                                     tmp_path: Path) -> None:
    """Issue 24: DM channels' "ids are remembered in the database, so a restart does not reopen
    them". Alice's DM channel is opened once by the first process; after a restart her next DM goes
    to the same channel with no new ``POST /users/@me/channels``."""
    bot = await Running(fake, tmp_path).start()
    try:
        first = await solo_game(bot.service, ALICE)
        await fake.wait_for(lambda: turn_dms(fake, ALICE, first), WAIT, "Alice's first DM")
        await delivered(bot.service.store)
    finally:
        await bot.shutdown()
    opened = fake.dm_opens(ALICE)
    assert len(opened) == 1
    mark = len(fake.requests)
    again = await Running(fake, tmp_path).start()
    try:
        second = await solo_game(again.service, ALICE)
        news = await fake.wait_for(lambda: turn_dms(fake, ALICE, second), WAIT, "Alice's DM after restart")
        assert news[0].path == f"/channels/{opened[0].response['id']}/messages"
        assert not fake.dm_opens(ALICE, mark), "the restart opened Alice's DM channel again"
    finally:
        await again.shutdown()


@pytest.mark.asyncio
async def test_a_remembered_channel_discord_no_longer_knows_is_opened_anew(fake: FakeDiscord,
                                                                           tmp_path: Path) -> None:
    """A remembered DM channel that Discord answers 404 Unknown Channel for is forgotten, and the
    next try opens a new one: the DM still arrives, once."""
    bot = await Running(fake, tmp_path).start()
    try:
        store = bot.service.store
        await store.remember_dm_channel(ALICE, 123_456_789, 1)  # a channel the fake never made
        gid = await solo_game(bot.service, ALICE)
        await fake.wait_for(lambda: turn_dms(fake, ALICE, gid), 30.0, "Alice's DM in a new channel")
        assert len(turn_dms(fake, ALICE, gid)) == 1
        assert [r.status for r in fake.requests if r.path == "/channels/123456789/messages"] == [404]
        assert len(fake.dm_opens(ALICE)) == 1
        assert await store.dm_channel(ALICE) == int(fake.dm_opens(ALICE)[0].response["id"])
    finally:
        await bot.shutdown()



@pytest.mark.asyncio
async def test_a_thread_line_that_cannot_be_worded_is_given_up_once_and_the_next_goes_out(
        fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    """Building a notice can never kill a worker, whatever the destination: a public row whose
    wording raises is tried once and given up with one log line (no traceback), and the game's
    next line reaches its thread."""
    bot = await Running(fake, tmp_path).start()
    try:
        svc = bot.service
        gid = await solo_game(svc, ALICE)
        await delivered(svc.store)
        thread = (await svc.status(gid)).thread_id
        assert thread is not None
        real = words.describe_for
        broken = True

        def describe_for(notice: Notice, status: GameStatus) -> str | None:
            if broken and notice.game_id == gid:
                raise ValueError("no such border")
            return real(notice, status)

        monkeypatch.setattr(transport, "describe_for", describe_for)
        await svc.pause(gid, ALICE)
        await delivered(svc.store)
        given_up = [r for r in await svc.store.outbox_rows() if r.kind == "public" and r.gave_up_at]
        assert len(given_up) == 1 and given_up[0].attempts == 1
        lines = [r for r in caplog.records if "could not be made" in r.getMessage()]
        assert len(lines) == 1 and lines[0].exc_info is None
        broken = False
        before = len(fake.created_in(thread))
        await svc.resume(gid, ALICE)
        await fake.wait_for(lambda: len(fake.created_in(thread)) > before, WAIT, "the next line")
    finally:
        await bot.shutdown()
