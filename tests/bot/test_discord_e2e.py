"""End to end: the unmodified bot, started as production starts it, against a local fake Discord.

``bot.discord.serve`` runs in this process with a temporary database; discord.py
is only configured (``Route.BASE`` and the default gateway URL, see
:mod:`tests.support.fake_discord`) to talk to the fake on 127.0.0.1, which records every
REST call and drives the gateway (HELLO, IDENTIFY, READY, GUILD_CREATE,
heartbeats, INTERACTION_CREATE). Any attempt to reach another host fails the test.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import socket
from collections.abc import AsyncIterator, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from bot.clock import FakeClock
from bot.config import Config
from bot.discord import serve, sync_commands
from bot.scheduler import Scheduler
from bot.service import GameService
from bot.store import Store
from tests.support.fake_discord import APP_ID, CHANNEL_ID, EPHEMERAL, GUILD_ID, TOKEN, FakeDiscord, Request

ALICE = 710_000_000_000_000_001
pytestmark = pytest.mark.asyncio
LOOPBACK = {"127.0.0.1", "::1", "localhost"}
STEP = 20.0  # seconds one interaction may take at most (generous; usually a few milliseconds)


@pytest.fixture(autouse=True)
def loopback_only(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Any]]:
    """Refuse (and remember) every name lookup or connection that is not to this machine."""
    refused: list[Any] = []
    real_getaddrinfo = socket.getaddrinfo
    real_connect = socket.socket.connect

    def getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> Any:
        name = host.decode() if isinstance(host, bytes) else host
        if name is not None and name not in LOOPBACK:
            refused.append(name)
            raise OSError(f"test: no network beyond 127.0.0.1 ({name})")
        return real_getaddrinfo(host, *args, **kwargs)

    def connect(self: socket.socket, address: Any) -> Any:
        if isinstance(address, tuple) and address[0] not in LOOPBACK:
            refused.append(address)
            raise OSError(f"test: no network beyond 127.0.0.1 ({address})")
        return real_connect(self, address)

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    monkeypatch.setattr(socket.socket, "connect", connect)
    yield refused
    assert not refused, f"something tried to leave 127.0.0.1: {refused}"


@pytest.fixture(autouse=True)
def no_errors_logged(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    """A swallowed exception (logged as an error) fails the test."""
    caplog.set_level(logging.WARNING)
    yield
    errors = [r for r in caplog.get_records("call") if r.levelno >= logging.ERROR]
    assert not errors, [r.getMessage() for r in errors]


class Running:
    """The bot served in this process: its service, its stop event and its task."""

    def __init__(self, fake: FakeDiscord, tmp_path: Path, clock: FakeClock | None = None) -> None:
        self.fake = fake
        self.clock = clock
        self.db = tmp_path / "annals.sqlite3"
        self.config = Config(discord_token=TOKEN, db_path=str(self.db), backup_dir=tmp_path / "backups",
                             backup_interval=0)
        self.stop = asyncio.Event()

    async def start(self) -> Running:
        self.store = await Store.open(self.db)
        self.service = GameService(self.store, self.clock, seed_factory=lambda: 42)
        self.scheduler = Scheduler(self.service)
        # as bot.__main__ does: the bot listens before the scheduler fires what fell due while down
        work = serve(self.config, self.service, self.scheduler, self.stop)
        await self.scheduler.start(paused=self.clock is not None)
        self.task = asyncio.ensure_future(work)
        ready = asyncio.ensure_future(self.fake.ready_sent.wait())
        try:
            done, _ = await asyncio.wait({ready, self.task}, timeout=STEP,
                                         return_when=asyncio.FIRST_COMPLETED)
            if ready not in done:
                why = repr(self.task.exception()) if self.task.done() else "no READY sent in time"
                raise AssertionError(f"the bot did not connect to the fake: {why}")
        except BaseException:
            ready.cancel()
            with contextlib.suppress(Exception):
                await self.shutdown()  # never leave the database thread running: pytest would hang
            raise
        return self

    async def shutdown(self) -> None:
        """Set the stop event and wait for serve to return; always closes the scheduler and database."""
        self.stop.set()
        try:
            await asyncio.wait_for(asyncio.shield(self.task), 30)
        finally:
            if not self.task.done():
                self.task.cancel()
                with contextlib.suppress(BaseException):
                    await self.task
            await self.scheduler.shutdown()
            await self.store.close()

    async def command(self, user: int, sub: str, **options: Any) -> tuple[Request, Request]:
        """``/annals SUB ...``: returns (the interaction callback, the follow-up)."""
        interaction = await self.fake.command(user, "annals", sub, **options)
        reply = await self.fake.answered(interaction, STEP)
        callbacks = self.fake.callbacks(int(interaction["id"]))
        assert len(callbacks) == 1, callbacks
        assert self.fake.requests.index(callbacks[0]) < self.fake.requests.index(reply)
        return callbacks[0], reply

    async def choose(self, user: int, reply: Request) -> tuple[Request, Request]:
        """Pick the first entry of the decision panel in the message ``reply`` created; a group opens
        its choices and a question asks first: the first entry of those is picked in turn."""
        for _ in range(3):
            callback, answer = await self._pick_first(user, reply)
            if answer.content.startswith("You chose:") or not answer.components:
                break
            reply = answer
        return callback, answer

    async def _pick_first(self, user: int, reply: Request) -> tuple[Request, Request]:
        item = reply.components[0]["components"][0]
        assert str(item["custom_id"]).startswith("dp:"), item
        if item["type"] == 3:
            interaction = await self.fake.click(user, reply.response, item["custom_id"],
                                                [item["options"][0]["value"]])
        else:
            interaction = await self.fake.click(user, reply.response, item["custom_id"], component_type=2)
        answer = await self.fake.answered(interaction, STEP)
        return self.fake.callbacks(int(interaction["id"]))[0], answer


@pytest_asyncio.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord({ALICE: "alice"}, heartbeat_interval=250) as f:
        with f.configure():
            yield f
    # every request reached the fake on the loopback interface, and no route was unknown to it
    assert f.requests and all(r.peer == "127.0.0.1" and r.host.startswith("127.0.0.1:") for r in f.requests)
    assert not f.unknown, [(r.method, r.path) for r in f.unknown]
    assert not f.invalid, [(r.method, r.path, r.response) for r in f.invalid]


def deferred(callback: Request, *, ephemeral: bool) -> None:
    assert callback.payload["type"] == 5, callback.payload  # DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE
    assert callback.flags == (EPHEMERAL if ephemeral else 0), callback.payload


# == tests ==================================================================================
async def test_a_short_game_over_the_gateway(fake: FakeDiscord, tmp_path: Path) -> None:
    bot = await Running(fake, tmp_path).start()
    try:
        # the handshake: IDENTIFY with our token and only the guilds intent, heartbeats answered
        assert fake.identify is not None and fake.identify["token"] == TOKEN
        assert fake.identify["intents"] == 1
        await fake.wait_for(lambda: fake.heartbeats >= 2, STEP, "two heartbeats")
        assert [r.path for r in fake.requests[:2]] == ["/users/@me", "/oauth2/applications/@me"]

        callback, reply = await bot.command(ALICE, "create", ruleset="history-classic", seats=3)
        deferred(callback, ephemeral=True)
        assert reply.flags == EPHEMERAL and reply.query.get("wait") in ("true", "1", "True")
        game = re.search(r"Game `([a-z0-9]+)` is open", reply.content)
        assert game, reply.content
        gid = game.group(1)
        await fake.wait_for(lambda: any("Alice opened a lobby" in r.content
                                        for r in fake.public_posts()), STEP, "the lobby notice")
        for _ in range(2):
            callback, reply = await bot.command(ALICE, "add-ai")
            deferred(callback, ephemeral=True)
            assert "AI seat was added" in reply.content and reply.flags == EPHEMERAL
        callback, reply = await bot.command(ALICE, "start")
        deferred(callback, ephemeral=True)
        assert "has started" in reply.content
        await fake.wait_for(lambda: any(f"Game {gid} begins" in r.content for r in fake.public_posts()),
                            STEP, "the start notice")
        ai_seats = [r for r in fake.public_posts() if re.search(r"\bAI \d+ takes a seat", r.content)]
        assert len(ai_seats) == 2

        status = await bot.service.status(gid)
        assert status.status == "active" and status.waiting_for == (ALICE,)
        await fake.wait_for(lambda: any("Your move" in r.content for r in fake.dm_posts(ALICE)),
                            STEP, "the your-move DM")

        callback, reply = await bot.command(ALICE, "play")
        deferred(callback, ephemeral=True)
        assert reply.flags == EPHEMERAL
        assert reply.components[0]["components"][0]["custom_id"].startswith("dp:")
        assert f":{gid}:{status.seq}:{ALICE}:" in reply.components[0]["components"][0]["custom_id"]
        mark = len(fake.requests)
        callback, answer = await bot.choose(ALICE, reply)
        assert callback.payload["type"] == 5 and callback.flags == EPHEMERAL  # deferred, thinking
        assert answer.content.startswith("You chose:") and answer.flags == EPHEMERAL
        assert (await bot.service.status(gid)).seq > status.seq

        callback, reply = await bot.command(ALICE, "status")
        deferred(callback, ephemeral=False)
        assert reply.flags == 0 and f"game `{gid}`" in reply.content

        # public pictures: a multipart follow-up with payload_json and the PNGs (the close-up of the
        # latest turn, then the whole map)
        callback, reply = await bot.command(ALICE, "board")
        deferred(callback, ephemeral=False)
        assert reply.flags == 0 and [name.rsplit("-", 1)[1] for name, _ in reply.files] == \
            ["closeup.png", "map.png"], reply
        for name, size in reply.files:
            assert name.startswith(f"annals-{gid}-") and size > 1000

        # the hidden empire card went by DM only; no public post ever repeats a private line
        await fake.wait_for(lambda: any("You drew" in r.content for r in fake.dm_posts(ALICE)),
                            STEP, "the drawn card by DM")
        await fake.wait_for(lambda: fake.public_posts(mark), STEP, "the public notice of the move")
        private = {line for r in fake.dm_posts(ALICE) for line in r.content.splitlines()
                   if line.startswith(("You drew", "This epoch you play"))}
        assert private
        assert not any(line in r.content for r in fake.public_posts() for line in private)
        assert all(r.path.startswith(("/users/", "/oauth2/", "/channels/", "/interactions/",
                                      f"/webhooks/{APP_ID}/")) for r in fake.requests)
    finally:
        await bot.shutdown()
    # the client closed cleanly: serve returned, the gateway saw a normal close
    assert bot.task.done() and bot.task.exception() is None
    await asyncio.wait_for(fake.disconnected.wait(), STEP)
    # one connection, closed by the client. discord.py asks for 1000, but with a reader waiting aiohttp
    # lets poll_event's own close(4000) go out first, so the frame on the wire may say 4000
    assert len(fake.close_codes) == 1 and fake.close_codes[0] in (1000, 4000), fake.close_codes
    assert len(fake.gateway_queries) == 1 and fake.gateway_queries[0]["v"] == "10"


async def test_a_deadline_missed_while_the_bot_was_down_is_told_once_it_connects(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    clock = FakeClock()
    store = await Store.open(tmp_path / "annals.sqlite3")
    try:  # a game whose human move falls due while the bot is down
        service = GameService(store, clock, seed_factory=lambda: 42)
        gid = (await service.create_lobby(ALICE, "alice", "history-classic", max_seats=3,
                                          guild_id=GUILD_ID, channel_id=CHANNEL_ID)).game_id
        for _ in range(2):
            await service.add_ai(gid, ALICE)
        await service.start(gid, ALICE)
        assert (await service.status(gid)).waiting_for == (ALICE,)
    finally:
        await store.close()
    clock.advance(2 * 24 * 3600)
    bot = await Running(fake, tmp_path, clock).start()
    try:
        await fake.wait_for(lambda: any("missed the deadline" in r.content for r in fake.public_posts()),
                            STEP, "the missed deadline told in the game's channel")
        await fake.wait_for(lambda: any("missed the deadline" in r.content or "deadline" in r.content
                                        for r in fake.dm_posts(ALICE)), STEP, "the late player told by DM")
    finally:
        await bot.shutdown()


async def test_a_wrong_token_stops_serve_with_login_failure(fake: FakeDiscord, tmp_path: Path) -> None:
    bot = Running(fake, tmp_path)
    bot.config = replace(bot.config, discord_token="not-the-token")
    with pytest.raises(AssertionError, match="LoginFailure"):
        await bot.start()
    assert [(r.path, r.status) for r in fake.requests] == [("/users/@me", 401)]
    assert not fake.gateway_queries


async def test_sync_uploads_the_commands_over_http(fake: FakeDiscord, tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "annals.sqlite3")
    try:
        names = await sync_commands(TOKEN, GameService(store), GUILD_ID)
    finally:
        await store.close()
    assert "annals" in names
    puts = [r for r in fake.requests if r.method == "PUT"]
    assert [r.path for r in puts] == [f"/applications/{APP_ID}/guilds/{GUILD_ID}/commands"]
    assert [c["name"] for c in fake.commands[str(GUILD_ID)]] == names
    assert not fake.gateway_queries  # syncing never opens the gateway


async def test_a_whole_classic_game_with_two_ai_seats(fake: FakeDiscord, tmp_path: Path) -> None:
    """Alice always takes the first move of ``/annals play`` until the game is over."""
    bot = await Running(fake, tmp_path).start()
    try:
        _, reply = await bot.command(ALICE, "create", ruleset="history-classic", seats=3)
        gid = re.search(r"Game `([a-z0-9]+)` is open", reply.content)
        assert gid, reply.content
        game = gid.group(1)
        for sub in ("add-ai", "add-ai", "start"):
            await bot.command(ALICE, sub)
        moves = 0
        labels: list[str] = []
        while True:
            assert moves < 1000, "the game is still running after 1000 of Alice's moves"
            callback, reply = await bot.command(ALICE, "play", game=game)
            deferred(callback, ephemeral=True)
            assert reply.flags == EPHEMERAL
            if not reply.components:
                assert "nothing to decide" in reply.content, reply.content
                assert "over" in reply.content or "finished" in reply.content, reply.content
                break
            callback, answer = await bot.choose(ALICE, reply)
            assert answer.flags == EPHEMERAL and answer.content.startswith("You chose:"), answer.content
            moves += 1
            labels.append(answer.content)
        status = await bot.service.status(game)
        assert status.status in ("over", "finished") and status.scores is not None, (status, labels)
        over = await fake.wait_for(
            lambda: [r for r in fake.public_posts() if "Final scores" in r.content],
            STEP, "the game-over notice")
        assert len(over) == 1 and "alice" in over[0].content.lower()
        callback, reply = await bot.command(ALICE, "status")  # no game named: the one just finished
        assert f"`{game}`" in reply.content and "Final scores:" in reply.content, reply.content
        assert "Winner:" in reply.content, reply.content
        assert moves > 20  # a whole game, not a shortcut
        # the human seat heard about its hidden cards by DM only
        private = {line for r in fake.dm_posts(ALICE) for line in r.content.splitlines()
                   if line.startswith(("You drew", "This epoch you play"))}
        assert private
        assert not any(line in r.content for r in fake.public_posts() for line in private)
        # the last epoch was played (its lines may be in the account a long last burst attaches)
        assert (await bot.service.engine_state(game))[1].epoch == 7, "the game never reached the last epoch"
        print(f"\n{moves} moves by the human seat, {len(fake.requests)} REST calls, "
              f"{fake.sequence} gateway dispatches")
    finally:
        await bot.shutdown()
    assert bot.task.done() and bot.task.exception() is None
