"""The Discord adapter, driven through the real discord.py client with no network.

``HTTPClient.request`` (bot REST calls) and ``AsyncWebhookAdapter.request``
(interaction responses and follow-ups) are replaced by :class:`FakeDiscord`,
which records every call and answers with plausible payloads. The client logs
in through the patched HTTP (so ``setup_hook`` runs as in production), its
``ConnectionState`` is fed READY and GUILD_CREATE, and interactions arrive as
INTERACTION_CREATE payloads through ``parse_interaction_create``: the real
command tree and the real dynamic-item dispatch do the rest.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import re
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord
import discord.http
import pytest
import pytest_asyncio
from discord import app_commands
from discord.webhook.async_ import AsyncWebhookAdapter

import tests.toy.spec  # noqa: F401  (registers the toy game)
from bot.clock import FakeClock
from bot.discord import sync_commands
from bot.discord.client import AnnalsBot
from bot.discord.commands import hand_reply
from bot.service import GameService
from bot.store import Store
from engine.registry import get_game

APP_ID = 900_000_000_000_000_001
BOT_ID = 900_000_000_000_000_002
GUILD_ID = 800_000_000_000_000_001
CHANNEL_ID = 800_000_000_000_000_002
ALICE = 700_000_000_000_000_001
BOB = 700_000_000_000_000_002
EPHEMERAL = 64
pytestmark = pytest.mark.asyncio

# The command groups: /annals for every game, the classic and 5-epoch extras, /league.
TOP_LEVEL = {"annals", "history-classic", "history", "league"}
TOY = "toy-goofspiel"  # the test-only game (tests/toy), registered by importing tests.toy.spec
CLASSIC = "history-classic"
NAME_RULE = re.compile(r"^[-_a-z0-9]{1,32}$")  # Discord's ^[-_\p{L}\p{N}]{1,32}$, lowercase, as we use it


def user_payload(user_id: int, name: str, *, bot: bool = False) -> dict[str, Any]:
    return {"id": str(user_id), "username": name, "global_name": name.title(), "discriminator": "0",
            "avatar": None, "bot": bot, "public_flags": 0}


BOT_USER = user_payload(BOT_ID, "annals", bot=True)
NAMES = {ALICE: "alice", BOB: "bob"}


@dataclass
class Call:
    """One REST call the bot made."""

    method: str
    path: str
    payload: dict[str, Any]
    files: list[str] = field(default_factory=list)
    response: Any = None

    @property
    def content(self) -> str:
        data = self.payload.get("data", self.payload)  # interaction callbacks wrap the message in data
        return str(data.get("content") or "")

    @property
    def flags(self) -> int:
        data = self.payload.get("data", self.payload)
        return int(data.get("flags") or 0)

    @property
    def components(self) -> list[dict[str, Any]]:
        data = self.payload.get("data", self.payload)
        return list(data.get("components") or [])


class FakeDiscord:
    """Stands in for Discord's REST API; records calls, answers plausibly, fails DMs on request."""

    def __init__(self) -> None:
        self.calls: list[Call] = []
        self.closed_dms: set[int] = set()
        self.dm_channels: dict[int, int] = {}  # DM channel id -> user id
        self.threads: dict[int, int] = {}  # thread id -> parent channel id
        self._ids = itertools.count(600_000_000_000_000_001)

    def new_id(self) -> int:
        return next(self._ids)

    # -- payloads ----------------------------------------------------------------------
    def message(self, channel_id: int, payload: dict[str, Any], files: list[str]) -> dict[str, Any]:
        return {
            "id": str(self.new_id()), "channel_id": str(channel_id), "author": BOT_USER,
            "content": payload.get("content") or "", "timestamp": "2027-01-15T08:00:00+00:00",
            "edited_timestamp": None, "tts": False, "mention_everyone": False, "mentions": [],
            "mention_roles": [], "embeds": [], "pinned": False, "type": 0,
            "attachments": [{"id": str(self.new_id()), "filename": f, "size": 1, "url": f"https://cdn.test/{f}",
                             "proxy_url": f"https://cdn.test/{f}"} for f in files],
            "components": payload.get("components") or [], "flags": payload.get("flags") or 0,
            "application_id": str(APP_ID),
        }

    @staticmethod
    def _split(payload: dict[str, Any] | None, form: Any) -> dict[str, Any]:
        if payload is not None:
            return dict(payload)
        for part in form or []:
            if part.get("name") == "payload_json":
                return dict(json.loads(part["value"]))
        return {}

    # -- HTTPClient.request ------------------------------------------------------------
    async def http_request(self, route: Any, *, files: Any = None, form: Any = None, **kwargs: Any) -> Any:
        body = kwargs.get("json")
        payload = {"__list__": body} if isinstance(body, list) else self._split(body, form)
        names = [f.filename for f in files or []]
        call = Call(route.method, route.url.split("/api/v10", 1)[-1], payload, names)
        self.calls.append(call)
        call.response = self._answer_http(call)
        return call.response

    def _answer_http(self, call: Call) -> Any:
        path = call.path
        if call.method == "GET" and path == "/users/@me":
            return BOT_USER
        if call.method == "GET" and path == "/oauth2/applications/@me":
            return {"id": str(APP_ID), "name": "Annals", "description": "", "icon": None, "bot_public": True,
                    "bot_require_code_grant": False, "owner": user_payload(ALICE, "alice"),
                    "verify_key": "00", "flags": 0}
        if call.method == "POST" and path == "/users/@me/channels":
            user = int(call.payload["recipient_id"])
            dm_id = next((c for c, u in self.dm_channels.items() if u == user), None) or self.new_id()
            self.dm_channels[dm_id] = user
            return {"id": str(dm_id), "type": 1, "last_message_id": None,
                    "recipients": [user_payload(user, NAMES.get(user, "someone"))]}
        match = re.fullmatch(r"/channels/(\d+)/messages", path)
        if call.method == "POST" and match:
            channel = int(match.group(1))
            if self.dm_channels.get(channel) in self.closed_dms:
                raise discord.Forbidden(FakeResponse(403, "Forbidden"),
                                        {"code": 50007, "message": "Cannot send messages to this user"})
            return self.message(channel, call.payload, call.files)
        match = re.fullmatch(r"/channels/(\d+)/threads", path)
        if call.method == "POST" and match:
            thread_id = self.new_id()
            self.threads[thread_id] = int(match.group(1))
            return {"id": str(thread_id), "type": 11, "guild_id": str(GUILD_ID), "parent_id": match.group(1),
                    "name": call.payload.get("name", "game"), "owner_id": str(BOT_ID), "message_count": 0,
                    "member_count": 1, "rate_limit_per_user": 0, "flags": 0, "last_message_id": None,
                    "thread_metadata": {"archived": False, "auto_archive_duration": 10080, "locked": False,
                                        "archive_timestamp": "2027-01-15T08:00:00+00:00"}}
        if call.method == "PUT" and re.fullmatch(r"/channels/\d+/messages/pins/\d+", path):
            return None
        match = re.fullmatch(r"/channels/(\d+)/messages/(\d+)", path)
        if call.method == "PATCH" and match:
            return {**self.message(int(match.group(1)), call.payload, []), "id": match.group(2)}
        if call.method == "PUT" and re.fullmatch(rf"/applications/{APP_ID}(/guilds/\d+)?/commands", path):
            return [{**c, "id": str(self.new_id()), "application_id": str(APP_ID), "version": "1",
                     "default_member_permissions": None, "dm_permission": True, "nsfw": False}
                    for c in call.payload["__list__"]]
        raise AssertionError(f"unexpected REST call {call.method} {path}")

    # -- AsyncWebhookAdapter.request (interaction callbacks and follow-ups) ------------
    async def webhook_request(self, route: Any, session: Any, *, payload: Any = None, multipart: Any = None,
                              files: Any = None, params: Any = None, **kwargs: Any) -> Any:
        body = self._split(payload, multipart)
        call = Call(route.method, route.url.split("/api/v10", 1)[-1], body, [f.filename for f in files or []])
        self.calls.append(call)
        if "/callback" in call.path:
            interaction_id = call.path.split("/")[2]
            flags = int((body.get("data") or {}).get("flags") or 0)
            call.response = {
                "interaction": {"id": interaction_id, "type": 2, "response_message_loading": True,
                                "response_message_ephemeral": bool(flags & EPHEMERAL)},
                "resource": {"type": body.get("type", 5)},
            }
        else:
            call.response = self.message(CHANNEL_ID, body, call.files)
        return call.response

    # -- queries -----------------------------------------------------------------------
    def since(self, mark: int) -> list[Call]:
        return self.calls[mark:]

    def followups(self, mark: int = 0) -> list[Call]:
        prefix = f"/webhooks/{APP_ID}/"
        return [c for c in self.calls[mark:] if c.method == "POST" and c.path.startswith(prefix)]

    def channel_posts(self, mark: int = 0, channel_id: int = CHANNEL_ID) -> list[Call]:
        path = f"/channels/{channel_id}/messages"
        return [c for c in self.calls[mark:] if c.method == "POST" and c.path == path]

    def public_posts(self, mark: int = 0) -> list[Call]:
        """Messages posted or edited in the guild channel and the game threads (everyone can read them)."""
        public = {f"/channels/{c}/messages" for c in (CHANNEL_ID, *self.threads)}
        return [c for c in self.calls[mark:] if c.method in ("POST", "PATCH")
                and (c.path in public or c.path.rsplit("/", 1)[0] in public)]

    def dm_posts(self, user_id: int, mark: int = 0) -> list[Call]:
        dms = {f"/channels/{c}/messages" for c, u in self.dm_channels.items() if u == user_id}
        return [c for c in self.calls[mark:] if c.method == "POST" and c.path in dms]


class FakeResponse:
    """Enough of an aiohttp response for discord.HTTPException."""

    def __init__(self, status: int, reason: str) -> None:
        self.status = status
        self.reason = reason


def guild_payload() -> dict[str, Any]:
    everyone = {"id": str(GUILD_ID), "name": "@everyone",
                "permissions": str(discord.Permissions.general().value), "position": 0, "color": 0,
                "hoist": False, "managed": False, "mentionable": False, "flags": 0}
    return {
        "id": str(GUILD_ID), "name": "History Club", "icon": None, "owner_id": str(ALICE),
        "roles": [everyone],
        "emojis": [], "stickers": [], "features": [], "member_count": 3, "large": False, "unavailable": False,
        "channels": [{"id": str(CHANNEL_ID), "type": 0, "name": "games", "position": 0,
                      "guild_id": str(GUILD_ID), "permission_overwrites": [], "nsfw": False,
                      "parent_id": None, "topic": None}],
        "threads": [], "members": [], "voice_states": [], "presences": [], "mfa_level": 0,
        "verification_level": 0, "explicit_content_filter": 0, "default_message_notifications": 0,
        "premium_tier": 0, "preferred_locale": "en-US", "system_channel_flags": 0, "nsfw_level": 0,
        "joined_at": "2027-01-01T00:00:00+00:00",
    }



def gateway(bot: AnnalsBot) -> Any:
    """discord.py's connection state, fed raw gateway payloads (untyped, as they arrive)."""
    return bot._connection

class Rig:
    """A logged-in AnnalsBot on a fresh or reopened database, fed gateway payloads by hand."""

    def __init__(self, fake: FakeDiscord, db: Path) -> None:
        self.fake = fake
        self.db = db
        self.clock = FakeClock(1_800_000_000)

    async def open(self) -> Rig:
        self.store = await Store.open(self.db)
        self.service = GameService(self.store, self.clock, seed_factory=lambda: 42)
        self.bot = AnnalsBot(self.service, board_size=400, guild_ready_timeout=0.0)
        await self.bot.login("fake-token")  # GET /users/@me, application info, then setup_hook
        state: Any = self.bot._connection  # discord.py's parser, fed raw gateway payloads
        state.parse_ready({"v": 10, "user": BOT_USER, "guilds": [{"id": str(GUILD_ID), "unavailable": True}],
                           "session_id": "s1", "resume_gateway_url": "wss://gateway.test",
                           "application": {"id": str(APP_ID), "flags": 0}, "private_channels": [],
                           "relationships": []})
        state.parse_guild_create(guild_payload())
        return self

    async def close(self) -> None:
        await self.settle()
        await self.bot.close()
        await self.store.close()

    async def settle(self) -> None:
        """Wait for the command handlers, component callbacks and notice deliveries in flight."""
        me = asyncio.current_task()
        for _ in range(100):
            await asyncio.sleep(0)
            busy = [t for t in asyncio.all_tasks() if t is not me and not t.done()
                    and t.get_name().startswith(("CommandTree", "discord-ui"))]
            if busy:
                await asyncio.wait(busy, timeout=120)
                continue
            await self.bot.transport.drain()
            await asyncio.sleep(0)
            if not any(t.get_name().startswith(("CommandTree", "discord-ui")) and not t.done()
                       for t in asyncio.all_tasks()):
                return
        raise AssertionError("the bot did not settle")

    def _base(self, user_id: int, kind: int, data: dict[str, Any]) -> dict[str, Any]:
        return {
            "id": str(self.fake.new_id()), "application_id": str(APP_ID), "type": kind,
            "token": f"tok-{self.fake.new_id()}", "version": 1, "guild_id": str(GUILD_ID),
            "channel_id": str(CHANNEL_ID),
            "channel": {"id": str(CHANNEL_ID), "type": 0, "name": "games", "guild_id": str(GUILD_ID),
                        "position": 0, "permission_overwrites": [], "nsfw": False, "parent_id": None},
            "member": {"user": user_payload(user_id, NAMES.get(user_id, "someone")), "roles": [],
                       "joined_at": "2027-01-01T00:00:00+00:00", "deaf": False, "mute": False, "flags": 0,
                       "permissions": str(discord.Permissions.general().value & ~discord.Permissions(
                           manage_guild=True, administrator=True).value), "nick": None},
            "app_permissions": str(discord.Permissions.text().value), "locale": "en-US",
            "guild_locale": "en-US", "entitlements": [],
            "authorizing_integration_owners": {"0": str(GUILD_ID)},
            "context": 0, "attachment_size_limit": 10_485_760, "data": data,
        }

    async def command(self, user_id: int, sub: str, *, top: str = "annals", **options: Any) -> list[Call]:
        """``/TOP SUB option:value ...`` by ``user_id``; returns the REST calls it caused."""
        kinds = {bool: 5, int: 4, str: 3}
        opts = [{"name": k, "type": kinds[type(v)], "value": v} for k, v in options.items()]
        data = {"id": str(APP_ID + 7), "name": top, "type": 1,
                "options": [{"name": sub, "type": 1, "options": opts}]}
        mark = len(self.fake.calls)
        gateway(self.bot).parse_interaction_create(self._base(user_id, 2, data))
        await self.settle()
        return self.fake.since(mark)

    async def select(self, user_id: int, message: dict[str, Any], custom_id: str, value: str) -> list[Call]:
        """Choose ``value`` in the select ``custom_id`` of an (ephemeral) bot message."""
        payload = self._base(user_id, 3, {"custom_id": custom_id, "component_type": 3, "values": [value]})
        payload["message"] = message
        mark = len(self.fake.calls)
        gateway(self.bot).parse_interaction_create(payload)
        await self.settle()
        return self.fake.since(mark)


@pytest.fixture(autouse=True)
def no_errors_logged(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    """Every test also checks that nothing was logged as an error (a swallowed exception)."""
    yield
    errors = [r for r in caplog.get_records("call") if r.levelno >= logging.ERROR]
    assert not errors, [r.getMessage() for r in errors]


@pytest_asyncio.fixture
async def fake(monkeypatch: pytest.MonkeyPatch) -> FakeDiscord:
    fake = FakeDiscord()
    monkeypatch.setattr(discord.http.HTTPClient, "request", fake.http_request)
    monkeypatch.setattr(AsyncWebhookAdapter, "request", fake.webhook_request)
    return fake


@pytest_asyncio.fixture
async def rig(fake: FakeDiscord, tmp_path: Path) -> AsyncIterator[Rig]:
    r = await Rig(fake, tmp_path / "annals.sqlite3").open()
    try:
        yield r
    finally:
        await r.close()


def deferred(calls: list[Call]) -> Call:
    callback = next(c for c in calls if "/callback" in c.path)
    assert callback.payload["type"] == 5  # deferred channel message with source: defer came first
    return callback


def followup(calls: list[Call]) -> Call:
    found = [c for c in calls if c.method == "POST" and c.path.startswith(f"/webhooks/{APP_ID}/")]
    assert found, [c.path for c in calls]
    return found[-1]


async def lobby_to_start(rig: Rig, ruleset: str = TOY, seats: int = 2) -> str:
    """Alice opens a lobby of ``ruleset``, Bob joins, AI seats fill the rest, Alice starts; the game id."""
    calls = await rig.command(ALICE, "create", ruleset=ruleset, seats=seats, move_time="2d")
    assert deferred(calls).flags == EPHEMERAL
    reply = followup(calls)
    gid = re.search(r"Game `([a-z0-9]+)` is open", reply.content)
    assert gid, reply.content
    game = gid.group(1)
    assert any("Alice opened a lobby" in c.content for c in rig.fake.channel_posts())
    calls = await rig.command(BOB, "join", game=game)
    assert "You joined" in followup(calls).content
    assert any("Bob joined" in c.content for c in rig.fake.channel_posts())
    for _ in range(seats - 2):
        calls = await rig.command(ALICE, "add-ai")
        assert "AI seat was added" in followup(calls).content
    calls = await rig.command(ALICE, "start")
    assert "has started" in followup(calls).content
    return game


def panel_of(reply: Call) -> list[dict[str, Any]]:
    """The buttons and selects of the decision panel in a message."""
    return [item for row in reply.components for item in row["components"]
            if str(item.get("custom_id", "")).startswith("dp:")]


async def button(rig: Rig, user_id: int, message: dict[str, Any], custom_id: str) -> list[Call]:
    payload = rig._base(user_id, 3, {"custom_id": custom_id, "component_type": 2})
    payload["message"] = message
    mark = len(rig.fake.calls)
    gateway(rig.bot).parse_interaction_create(payload)
    await rig.settle()
    return rig.fake.since(mark)


def entries(call: Call) -> list[tuple[str, str, str | None]]:
    """(label, custom_id, select value) of every entry of a panel message."""
    out: list[tuple[str, str, str | None]] = []
    for item in panel_of(call):
        if item["type"] == 3:
            out += [(o["label"], item["custom_id"], o["value"]) for o in item["options"]]
        else:
            out.append((item["label"], item["custom_id"], None))
    return out


async def press(rig: Rig, user: int, message: Call, entry: tuple[str, str, str | None]) -> list[Call]:
    """Click one entry of a panel message (a button, or an option of a select)."""
    _, custom_id, value = entry
    if value is None:
        return await button(rig, user, message.response, custom_id)
    return await rig.select(user, message.response, custom_id, value)


async def drive(rig: Rig, game: str, until: Any, limit: int = 80) -> tuple[int, int, list[dict[str, Any]]]:
    """Play a fixed policy through the service until ``until(seq, legal)``; returns (user, seq, legal)."""
    for _ in range(limit):
        status = await rig.service.status(game)
        user = status.waiting_for[0]
        seq, legal = await rig.service.legal_actions(game, user)
        if until(seq, legal):
            await rig.settle()
            return user, seq, legal
        await rig.service.submit(game, user, _policy(legal), seq)
    raise AssertionError("the wanted position never came")


def _policy(legal: list[dict[str, Any]]) -> dict[str, Any]:
    """A fixed way of playing (with seed 42 it replays the same game every time)."""
    for kind in ("keep", "play", "choose", "expand", "done", "end_turn"):
        found = [a for a in legal if a["kind"] == kind]
        if found:
            return found[0]
    return legal[0]


def kinds(legal: list[dict[str, Any]]) -> set[str]:
    return {a["kind"] for a in legal}


async def autocomplete(rig: Rig, user_id: int, sub: str, focused: str, typed: str, *,
                       top: str = "annals") -> list[dict[str, Any]]:
    data = {"id": str(APP_ID + 7), "name": top, "type": 1,
            "options": [{"name": sub, "type": 1,
                         "options": [{"name": focused, "type": 3, "value": typed, "focused": True}]}]}
    mark = len(rig.fake.calls)
    gateway(rig.bot).parse_interaction_create(rig._base(user_id, 4, data))
    await rig.settle()
    callback = next(c for c in rig.fake.since(mark) if "/callback" in c.path)
    assert callback.payload["type"] == 8  # autocomplete result
    return list(callback.payload["data"]["choices"])


# == tests ==================================================================================
async def test_lobby_to_start(rig: Rig) -> None:
    game = await lobby_to_start(rig)
    status = await rig.service.status(game)
    assert status.status == "active" and len(status.seats) == 2
    assert status.channel_id == CHANNEL_ID and status.guild_id == GUILD_ID
    assert status.thread_id is not None
    started = [c for c in rig.fake.channel_posts(channel_id=status.thread_id) if "begins" in c.content]
    assert len(started) == 1 and f"<@{ALICE}>" in started[0].content and f"<@{BOB}>" in started[0].content
    # whoever must act now gets a DM saying so, with the decision panel
    assert status.waiting_for
    for user in status.waiting_for:
        assert any("Your move" in c.content and f"`/annals play game:{game}`" in c.content
                   for c in rig.fake.dm_posts(user))
        assert any(panel_of(c) for c in rig.fake.dm_posts(user))


async def test_an_ai_seat_fills_a_lobby(rig: Rig) -> None:
    reply = followup(await rig.command(ALICE, "create", ruleset=TOY, seats=2))
    game = re.search(r"Game `([a-z0-9]+)` is open", reply.content)
    assert game
    assert "AI seat was added" in followup(await rig.command(ALICE, "add-ai")).content
    assert "has started" in followup(await rig.command(ALICE, "start")).content
    status = await rig.service.status(game.group(1))
    assert [s.is_ai for s in status.seats].count(True) == 1 and status.waiting_for == (ALICE,)


async def test_refusals_answer_with_the_reason(rig: Rig) -> None:
    game = await lobby_to_start(rig)
    calls = await rig.command(BOB, "join", game=game)
    assert "already started" in followup(calls).content
    assert followup(calls).flags == EPHEMERAL
    calls = await rig.command(ALICE, "join", game="nosuchgame")
    assert followup(calls).content and "Traceback" not in followup(calls).content


async def test_an_unknown_option_is_refused_with_the_games_options(rig: Rig) -> None:
    reply = followup(await rig.command(ALICE, "create", ruleset=TOY, options="no_such_thing"))
    assert reply.flags == EPHEMERAL and "no option 'no_such_thing'" in reply.content
    assert not await rig.store.list_games(statuses=["lobby"])


async def test_hand_is_ephemeral_and_only_the_callers(rig: Rig) -> None:
    game = await lobby_to_start(rig)
    seq = (await rig.service.status(game)).seq
    await rig.service.submit(game, ALICE, {"kind": "bid", "card": 3}, seq)  # a secret bid
    await rig.settle()
    mark = len(rig.fake.calls)
    calls = await rig.command(ALICE, "hand")
    assert deferred(calls).flags == EPHEMERAL
    reply = followup(calls)
    assert reply.flags == EPHEMERAL
    assert "You hold 1, 2, 4, 5" in reply.content and "You have bid 3" in reply.content
    assert reply.files == []  # a short hand is the message alone
    reply = followup(await rig.command(BOB, "hand"))
    assert "You hold 1, 2, 3, 4, 5" in reply.content and "bid 3" not in reply.content
    # nothing public was posted by asking for a hand
    assert not rig.fake.channel_posts(mark)


async def test_a_hand_longer_than_a_message_comes_whole_as_a_file(
        rig: Rig, monkeypatch: pytest.MonkeyPatch) -> None:
    """A hand of whole cards can outgrow Discord's 2,000 characters: the message starts it and says
    so, and the whole text comes as an attached file, still only to the caller (was: cut at 2,000)."""
    game = await lobby_to_start(rig)
    toy = get_game(TOY)
    long_hand = "\n\n".join(f"Card {n}: " + "a long card text " * 12 for n in range(1, 31))
    assert len(long_hand) > 5000
    monkeypatch.setattr(toy, "hand_text", lambda view, player, names: long_hand)
    reply = followup(await rig.command(ALICE, "hand"))
    assert reply.flags == EPHEMERAL
    assert len(reply.content) <= 2000 and reply.content.endswith("(Your whole hand is in the attached file.)")
    assert reply.files == [f"hand-{game}.txt"]
    attached = hand_reply(game, long_hand).files[0].fp.read()
    assert attached == long_hand.encode()


async def test_a_board_longer_than_a_message_comes_whole_as_a_file_beside_its_pictures(
        rig: Rig, monkeypatch: pytest.MonkeyPatch) -> None:
    """A board in words can outgrow Discord's 2,000 characters (a mid-game 7 Ages board): the message
    starts it and says so, the pictures stay, and the whole text comes as a file (was: cut at 2,000)."""
    game = await lobby_to_start(rig)
    long_board = "\n".join(f"- Area {n}: " + "a Spear and a long line of words " * 6 for n in range(1, 40))
    assert len(long_board) > 5000
    monkeypatch.setattr(get_game(TOY), "board_text", lambda view, names: long_board)
    reply = followup(await rig.command(BOB, "board"))
    assert reply.flags == 0
    assert len(reply.content) <= 2000
    assert reply.content.endswith("(The whole board in words is in the attached file.)")
    assert reply.files[-1] == f"board-{game}.txt" and len(reply.files) >= 2  # the picture(s), then the text


async def test_status_is_public_and_in_the_games_words(rig: Rig) -> None:
    game = await lobby_to_start(rig)
    reply = followup(await rig.command(BOB, "status"))
    assert reply.flags == 0
    assert f"game `{game}`" in reply.content and "Round 1 of 5" in reply.content
    assert re.search(r"Alice \((Red|Blue)\)", reply.content)  # a seat is a name and its colour
    assert "Waiting for:" in reply.content and f"<@{ALICE}>" in reply.content


async def test_board_is_public_with_a_picture(rig: Rig) -> None:
    game = await lobby_to_start(rig)
    calls = await rig.command(BOB, "board")
    assert deferred(calls).flags == 0
    reply = followup(calls)
    assert reply.flags == 0 and reply.files == [f"annals-{game}-{(await rig.service.status(game)).seq}.png"]
    assert "5 prizes left" in reply.content


async def test_board_at_a_move_is_public_and_shows_that_moment(rig: Rig) -> None:
    """Issue 30: ``/annals board move:N`` draws the board as it stood after move N (a spectator's view:
    no hand, nothing of later moves)."""
    game = await lobby_to_start(rig)
    seq = (await rig.service.status(game)).seq
    await rig.service.submit(game, ALICE, {"kind": "bid", "card": 3}, seq)
    await rig.service.submit(game, BOB, {"kind": "bid", "card": 1}, seq + 1)
    await rig.settle()
    calls = await rig.command(BOB, "board", move=seq)
    reply = followup(calls)
    assert reply.flags == 0 and reply.files == [f"annals-{game}-{seq}.png"]
    assert f"after move {seq} of {seq + 2}" in reply.content and "5 prizes left" in reply.content
    late = followup(await rig.command(BOB, "board", move=seq + 3))
    assert late.flags == EPHEMERAL and "choose a move from 0" in late.content


async def test_play_through_the_panel_and_a_stale_panel(rig: Rig) -> None:
    game = await lobby_to_start(rig)
    before = (await rig.service.status(game)).seq
    calls = await rig.command(ALICE, "play")
    reply = followup(calls)
    assert reply.flags == EPHEMERAL and "Round 1: bid a card" in reply.content
    buttons = panel_of(reply)
    assert [b["label"] for b in buttons] == ["Bid 1", "Bid 2", "Bid 3", "Bid 4", "Bid 5"]
    prefix = f"dp:b:{game}:{before}:{ALICE}:"  # game, seq and person in every custom_id
    assert all(b["type"] == 2 and b["custom_id"].startswith(prefix) for b in buttons)
    calls = await button(rig, ALICE, reply.response, buttons[1]["custom_id"])
    assert deferred(calls).flags == EPHEMERAL
    assert followup(calls).content.startswith("You chose: Bid 2.")
    assert (await rig.service.status(game)).seq == before + 1
    # Bob bids: the round is over and Alice's old panel no longer means the same
    await rig.service.submit(game, BOB, {"kind": "bid", "card": 1}, before + 1)
    await rig.settle()
    calls = await button(rig, ALICE, reply.response, buttons[0]["custom_id"])
    answer = followup(calls)
    assert "out of date" in answer.content and answer.flags == EPHEMERAL
    assert (await rig.service.status(game)).seq == before + 2


async def test_a_panel_built_before_another_players_move_still_counts(rig: Rig) -> None:
    game = await lobby_to_start(rig)
    before = (await rig.service.status(game)).seq
    reply = followup(await rig.command(ALICE, "play"))
    await rig.service.submit(game, BOB, {"kind": "bid", "card": 5}, before)  # both bid at once
    await rig.settle()
    calls = await button(rig, ALICE, reply.response, panel_of(reply)[3]["custom_id"])
    assert followup(calls).content.startswith("You chose: Bid 4.")
    assert (await rig.service.status(game)).seq == before + 2


async def test_someone_else_cannot_use_a_players_panel(rig: Rig) -> None:
    game = await lobby_to_start(rig)
    status = await rig.service.status(game)
    reply = followup(await rig.command(ALICE, "play"))
    calls = await button(rig, BOB, reply.response, panel_of(reply)[0]["custom_id"])
    assert followup(calls).flags == EPHEMERAL
    assert f"This is for <@{ALICE}>, not for you." in followup(calls).content
    assert (await rig.service.status(game)).seq == status.seq


async def test_dm_failure_falls_back_to_a_mention_and_is_remembered(rig: Rig) -> None:
    rig.fake.closed_dms.add(BOB)
    game = await lobby_to_start(rig)
    status = await rig.service.status(game)
    assert BOB in status.waiting_for  # Goofspiel: both bid at once
    attempts = [c for c in rig.fake.calls if c.method == "POST" and c.path in
                {f"/channels/{d}/messages" for d, u in rig.fake.dm_channels.items() if u == BOB}]
    assert len(attempts) == 1  # one DM tried, refused with 50007
    thread = status.thread_id
    assert thread is not None
    pings = [c for c in rig.fake.channel_posts(channel_id=thread)
             if f"<@{BOB}>, there is news for you" in c.content]
    assert len(pings) == 1
    assert "Round 1" not in pings[0].content  # the decision itself stays private
    assert not (await rig.service.user_settings(BOB)).dm_allowed
    # the next private notice is not tried by DM at all
    mark = len(rig.fake.calls)
    await rig.bot.transport.send_private(BOB, "secret", CHANNEL_ID, game)
    assert not [c for c in rig.fake.since(mark) if "/users/@me/channels" in c.path or "secret" in c.content]
    assert rig.fake.channel_posts(mark)
    # asking again turns DMs back on
    calls = await rig.command(BOB, "dms", enabled=True)
    assert "on" in followup(calls).content
    assert (await rig.service.user_settings(BOB)).dm_allowed


async def test_a_panel_from_before_a_restart_still_works(fake: FakeDiscord, tmp_path: Path) -> None:
    db = tmp_path / "annals.sqlite3"
    first = await Rig(fake, db).open()
    game = await lobby_to_start(first)
    status = await first.service.status(game)
    reply = followup(await first.command(ALICE, "play"))
    custom_id = panel_of(reply)[0]["custom_id"]
    await first.close()

    second = await Rig(fake, db).open()  # a new process: new client, new service, same database
    try:
        calls = await button(second, ALICE, reply.response, custom_id)
        assert followup(calls).content.startswith("You chose: Bid 1.")
        assert (await second.service.status(game)).seq > status.seq
    finally:
        await second.close()


def walk(command: app_commands.Command[Any, Any, Any] | app_commands.Group) -> list[dict[str, Any]]:
    out = []
    if isinstance(command, app_commands.Group):
        out.append({"name": command.name, "description": command.description})
        for child in command.commands:
            out += walk(child)
    else:
        out.append({"name": command.name, "description": command.description})
        for param in command.parameters:
            out.append({"name": param.display_name, "description": param.description})
    return out


async def test_every_command_and_option_has_a_description_and_a_valid_name(rig: Rig) -> None:
    commands = rig.bot.tree.get_commands()
    assert {c.name for c in commands} == TOP_LEVEL
    entries = [e for c in commands for e in walk(c)]  # type: ignore[arg-type]
    assert len(entries) > 20
    for entry in entries:
        assert NAME_RULE.fullmatch(entry["name"]), entry
        description = entry["description"]
        assert description and description != "…" and 1 <= len(description) <= 100, entry

    # and what would be uploaded says the same; Discord allows 25 options per group
    def check(node: dict[str, Any]) -> None:
        assert NAME_RULE.fullmatch(node["name"]) and node["description"], node
        assert len(node.get("options", [])) <= 25, node["name"]
        for child in node.get("options", []):
            check(child)

    for command in commands:
        check(command.to_dict(rig.bot.tree))


async def test_sync_uploads_the_commands_to_one_guild(fake: FakeDiscord, tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "annals.sqlite3")
    try:
        names = await sync_commands("fake-token", GameService(store), GUILD_ID)
    finally:
        await store.close()
    assert set(names) == TOP_LEVEL
    puts = [c for c in fake.calls if c.method == "PUT"]
    assert [c.path for c in puts] == [f"/applications/{APP_ID}/guilds/{GUILD_ID}/commands"]
    uploaded = puts[0].payload["__list__"]
    assert {c["name"] for c in uploaded} == TOP_LEVEL
    annals = next(c for c in uploaded if c["name"] == "annals")
    subcommands = {o["name"] for o in annals["options"]}
    assert subcommands >= {"create", "join", "add-ai", "start", "play", "hand"}


# == the game's thread ======================================================================
async def test_the_game_gets_a_thread_with_a_pinned_status_that_is_edited(rig: Rig) -> None:
    game = await lobby_to_start(rig)
    status = await rig.service.status(game)
    thread = status.thread_id
    assert thread is not None and rig.fake.threads == {thread: CHANNEL_ID}
    assert any(f"<#{thread}>" in c.content for c in rig.fake.channel_posts())
    # public notices now go to the thread
    assert any("begins" in c.content for c in rig.fake.channel_posts(channel_id=thread))
    ref = (await rig.store.messages(game))["status"]
    assert ref.channel_id == thread
    pins = [c for c in rig.fake.calls if c.method == "PUT" and c.path == f"/channels/{thread}/messages/pins/"
            f"{ref.message_id}"]
    assert len(pins) == 1
    first = next(c for c in rig.fake.channel_posts(channel_id=thread)
                 if c.response["id"] == str(ref.message_id))
    assert "Waiting for" in first.content and f"<@{status.waiting_for[0]}>" in first.content
    assert "Round 1 of 5" in first.content  # the game's own status text
    deadline = next(d for d in status.deadlines if d.kind == "turn")
    assert f"<t:{deadline.due_at}:R>" in first.content
    # after a round, the same message is edited (not posted again), and it is still pinned once
    mark = len(rig.fake.calls)
    await drive(rig, game, lambda seq, legal: seq >= status.seq + 2)
    edits = [c for c in rig.fake.since(mark) if c.method == "PATCH"
             and c.path == f"/channels/{thread}/messages/{ref.message_id}"]
    assert edits and "Round 2 of 5" in edits[-1].content and "Scores:" in edits[-1].content
    assert not [c for c in rig.fake.since(mark) if c.method == "PUT"]


async def test_a_status_another_process_may_have_pinned_is_written_again_after_its_change(rig: Rig) -> None:
    """With several processes on one database, the status text this one showed last may no longer be
    what the pinned message holds once another process changed the game (its own delivery edited
    the pin): the next status is written even when its text equals what this process showed."""
    game = await lobby_to_start(rig)
    thread = (await rig.service.status(game)).thread_id
    assert thread is not None
    await rig.settle()
    ref = (await rig.store.messages(game))["status"]

    def edits(mark: int) -> list[Call]:
        return [c for c in rig.fake.since(mark) if c.method == "PATCH"
                and c.path == f"/channels/{thread}/messages/{ref.message_id}"]

    mark = len(rig.fake.calls)
    await rig.bot.transport.update_status(game, thread)
    assert not edits(mark)  # nothing changed: the pinned text is left alone
    rig.service.changed_elsewhere(game)  # what a notice of another process's change does
    await rig.bot.transport.update_status(game, thread)
    assert len(edits(mark)) == 1 and "Waiting for" in edits(mark)[0].content
    mark = len(rig.fake.calls)
    rig.service.changed_elsewhere(None)  # after a gap in hearing: any game may have changed
    await rig.bot.transport.update_status(game, thread)
    assert len(edits(mark)) == 1
