"""A small local fake of Discord: REST API plus gateway websocket, on 127.0.0.1.

An unmodified discord.py client talks to it once the library is configured to
look here (:meth:`FakeDiscord.configure`): ``discord.http.Route.BASE`` (every
REST call, interaction callbacks and webhook follow-ups included) and
``DiscordWebSocket.DEFAULT_GATEWAY``. The plain :class:`discord.Client`
connects to that default gateway directly; only the auto-sharded client asks
``GET /gateway/bot``, which the fake also answers with its own websocket URL.
READY's ``resume_gateway_url`` points back here too, so a resume stays local.

REST: every request is recorded (:class:`Request`: method, path, query, JSON
or multipart ``payload_json``, file names and sizes, peer address) and
answered with plausible payloads; a route the fake does not know answers 404
(Discord's ``Unknown`` error shape) and is recorded in :attr:`FakeDiscord.unknown`.

Gateway: HELLO (op 10, a short heartbeat interval), IDENTIFY (op 2) checked
for the token, READY then GUILD_CREATE (one guild, one text channel, members),
heartbeats (op 1) answered with ACK (op 11). Tests inject dispatches with
sequence numbers: :meth:`FakeDiscord.command` (an application command) and
:meth:`FakeDiscord.click` (a select or button on a message the bot sent).

Faults, as Discord shows them: :meth:`FakeDiscord.rate_limit` gives one channel a
rate limit (N messages per T seconds, then 429 with ``retry_after`` and the ``Via``
header discord.py looks for); ``failing_dms`` answers one person's DMs with 500 (or ``dm_failure``);
``closed_dms`` with 403 / 50007;
``failing_dm_opens`` answers one person's ``POST /users/@me/channels`` (opening their DM channel) with
``dm_open_failure`` (500, which discord.py retries inside its rate-limit bucket), with no rate-limit
headers, as Discord's side failing does. Message creation honours ``nonce`` with
``enforce_nonce`` as Discord does: a second create with a nonce already used in that
channel (within a few minutes, on real Discord) returns the message made the first
time instead of posting again. :attr:`FakeDiscord.created` lists every message
really created, so a test can count duplicates.

Sharding: ``FakeDiscord(guilds=N, shard_count=S)`` has N servers (each with its own text channel,
ids spread so that they fall on different shards by Discord's rule ``(guild_id >> 22) % S``) and
answers ``GET /gateway/bot`` with S shards. Each gateway connection that IDENTIFYs with
``"shard": [id, S]`` gets the READY and GUILD_CREATEs of that shard's servers only, and a dispatch
about a server goes down the connection of the shard that owns it (:attr:`FakeDiscord.routed`
remembers which); a connection without a shard is shard 0 of 1, as before.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, cast

import aiohttp
import discord
import discord.http
import yarl
from aiohttp import web
from discord.gateway import DiscordWebSocket

TOKEN = "fake-token"
APP_ID = 910_000_000_000_000_001
BOT_ID = 910_000_000_000_000_002
GUILD_ID = 820_000_000_000_000_001
CHANNEL_ID = 820_000_000_000_000_002
OWNER_ID = 710_000_000_000_000_001
EPHEMERAL = 64
API = "/api/v10"

# Gateway opcodes (Discord's documented numbers)
OP_DISPATCH, OP_HEARTBEAT, OP_IDENTIFY, OP_RESUME = 0, 1, 2, 6
OP_RECONNECT, OP_INVALID_SESSION, OP_HELLO, OP_HEARTBEAT_ACK = 7, 9, 10, 11

NOW = "2027-01-15T08:00:00+00:00"


def user_payload(user_id: int, name: str, *, bot: bool = False) -> dict[str, Any]:
    """A Discord user object."""
    return {"id": str(user_id), "username": name, "global_name": name.title(), "discriminator": "0",
            "avatar": None, "bot": bot, "public_flags": 0}


@dataclass
class Request:
    """One REST request the client made."""

    method: str
    path: str  # below /api/v10
    query: dict[str, str]
    payload: Any  # JSON body, or multipart payload_json, or None
    files: list[tuple[str, int]] = field(default_factory=list)  # (filename, size)
    at: float = 0.0  # when it arrived (the event loop's clock)
    peer: str = ""
    host: str = ""
    status: int = 200
    response: Any = None

    @property
    def body(self) -> dict[str, Any]:
        """The message part: interaction callbacks wrap it in ``data``."""
        if not isinstance(self.payload, dict):
            return {}
        inner = self.payload.get("data")
        return inner if isinstance(inner, dict) else self.payload

    @property
    def content(self) -> str:
        return str(self.body.get("content") or "")

    @property
    def flags(self) -> int:
        return int(self.body.get("flags") or 0)

    @property
    def components(self) -> list[dict[str, Any]]:
        return list(self.body.get("components") or [])

    @property
    def filenames(self) -> list[str]:
        return [name for name, _ in self.files]


def invalid_form(r: Request) -> str | None:
    """What Discord would refuse in a message body (a few of its limits), or None."""
    if r.method not in ("POST", "PATCH") or not isinstance(r.payload, dict):
        return None
    body = r.body
    if len(str(body.get("content") or "")) > 2000:
        return "content is longer than 2000 characters"
    rows = body.get("components") or []
    if len(rows) > 5:
        return "more than 5 action rows"
    for row in rows:
        for item in row.get("components") or []:
            if len(str(item.get("custom_id") or "")) > 100:
                return "custom_id longer than 100 characters"
            options = item.get("options") or []
            if item.get("type") == 3 and not 1 <= len(options) <= 25:
                return "a select needs 1 to 25 options"
            if any(len(str(o.get("label", ""))) > 100 or len(str(o.get("value", ""))) > 100 for o in options):
                return "an option label or value is longer than 100 characters"
    return None


class FakeDiscord:
    """The fake server. ``async with FakeDiscord() as fake:`` starts and stops it.

    Args:
        members: user id -> name of the guild's (human) members.
        heartbeat_interval: milliseconds sent in HELLO.
        closed_dms: users whose DMs answer 403 / 50007.
        failing_dms: users whose DMs answer 500 (Discord's side failing).
        failing_dm_opens: users whose DM channel cannot be opened (``dm_open_failure``, 500).
    """

    def __init__(self, members: dict[int, str] | None = None, *, heartbeat_interval: int = 500,
                 closed_dms: set[int] | None = None, failing_dms: set[int] | None = None,
                 failing_dm_opens: set[int] | None = None, guilds: int = 1, shard_count: int = 1) -> None:
        self.members = dict(members or {OWNER_ID: "owner"})
        self.shard_count = shard_count
        # server k is one shard further along than server k-1: guild id k << 22 apart
        self.guild_channels = {GUILD_ID + (k << 22): CHANNEL_ID + k for k in range(guilds)}
        self.shard_sockets: dict[int, web.WebSocketResponse] = {}  # shard id -> its live connection
        self.routed: dict[int, int] = {}  # interaction id -> the shard whose connection carried it
        self.heartbeat_interval = heartbeat_interval
        self.closed_dms = set(closed_dms or ())
        self.failing_dms = set(failing_dms or ())
        self.dm_failure = 500  # what failing DMs answer: 500 (discord.py retries it), 503 (it does not)
        self.failing_dm_opens = set(failing_dm_opens or ())
        self.dm_open_failure = 500
        self.limits: dict[int, tuple[int, float]] = {}  # channel -> (messages, per seconds)
        self.refusing: dict[int, tuple[int, int]] = {}  # channel -> (HTTP status, Discord code) for posts
        self._sent: dict[int, list[float]] = {}  # channel -> when its recent messages were created
        self.nonces: dict[tuple[int, str], int] = {}  # (channel, nonce) -> the message it created
        self.created: list[Request] = []  # the requests that really created a message (not a nonce repeat)
        self.requests: list[Request] = []
        self.unknown: list[Request] = []
        self.invalid: list[Request] = []  # answered 400 as Discord would (too long, too many options)
        self.gateway_log: list[dict[str, Any]] = []  # every frame received on the gateway
        self.gateway_queries: list[dict[str, str]] = []  # the query of every gateway connection
        self.messages: dict[int, dict[str, Any]] = {}
        self.channels: dict[int, dict[str, Any]] = {
            c: self._text_channel(c, "games", guild_id=g) for g, c in self.guild_channels.items()}
        self.dm_channels: dict[int, int] = {}  # DM channel id -> user id
        self.pins: dict[int, list[int]] = {}
        self.commands: dict[str, list[dict[str, Any]]] = {}  # "global" or guild id -> commands
        self.token_channels: dict[str, int] = {}  # interaction token -> its channel
        self.heartbeats = 0
        self.identified = asyncio.Event()
        self.ready_sent = asyncio.Event()
        self.disconnected = asyncio.Event()
        self.identify: dict[str, Any] | None = None
        self.close_codes: list[int | None] = []
        self._seq = 0
        self._ids = itertools.count(600_000_000_000_000_001)
        self._ws: web.WebSocketResponse | None = None
        self._changed = asyncio.Condition()
        self._runner: web.AppRunner | None = None
        self.port = 0

    # == lifecycle =========================================================================
    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    async def start(self) -> None:
        """Listen on 127.0.0.1, on a free port chosen by the system."""
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_get("/gateway/", self._gateway)
        app.router.add_route("*", API + "/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        server = cast(asyncio.Server | None, site._server)  # a TCP site's server is an asyncio.Server
        assert server is not None and server.sockets
        self.port = server.sockets[0].getsockname()[1]

    async def stop(self) -> None:
        if self._ws is not None and not self._ws.closed:
            await self._ws.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}{API}"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    @contextlib.contextmanager
    def configure(self) -> Iterator[None]:
        """Point discord.py (REST and gateway) here for the duration of the block."""
        old_base = discord.http.Route.BASE
        old_gateway = DiscordWebSocket.DEFAULT_GATEWAY
        discord.http.Route.BASE = self.base_url
        DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.gateway_url + "/")
        try:
            yield
        finally:
            discord.http.Route.BASE = old_base
            DiscordWebSocket.DEFAULT_GATEWAY = old_gateway

    def new_id(self) -> int:
        return next(self._ids)

    def rate_limit(self, channel_id: int, messages: int = 5, per: float = 5.0, *,
                   spent: bool = False) -> None:
        """Let ``channel_id`` take ``messages`` new messages per ``per`` seconds, then answer 429 (with
        ``spent``, this window's messages are used up already)."""
        self.limits[channel_id] = (messages, per)
        if spent:
            self._sent[channel_id] = [asyncio.get_running_loop().time()] * messages

    def refuse(self, channel_id: int, status: int = 403, code: int = 50013) -> None:
        """Answer every new message in ``channel_id`` with an error (403 / 50013 Missing Permissions)."""
        self.refusing[channel_id] = (status, code)

    # == waiting ===========================================================================
    async def _notify(self) -> None:
        async with self._changed:
            self._changed.notify_all()

    async def wait_for(self, predicate: Callable[[], Any], timeout: float = 10.0, what: str = "") -> Any:
        """Wait until ``predicate()`` is truthy (re-checked after every request); return its value."""
        async def waiter() -> Any:
            async with self._changed:
                while True:
                    value = predicate()
                    if value:
                        return value
                    with contextlib.suppress(asyncio.TimeoutError):
                        await asyncio.wait_for(self._changed.wait(), 0.25)  # also time-based predicates
        try:
            return await asyncio.wait_for(waiter(), timeout)
        except TimeoutError:
            tail = [f"{r.method} {r.path} {r.content[:80]!r}" for r in self.requests[-8:]]
            raise AssertionError(f"timed out after {timeout}s waiting for {what or predicate}; "
                                 f"last requests: {tail}") from None

    # == queries ===========================================================================
    def since(self, mark: int) -> list[Request]:
        return self.requests[mark:]

    def channel_posts(self, channel_id: int = CHANNEL_ID, mark: int = 0) -> list[Request]:
        path = f"/channels/{channel_id}/messages"
        return [r for r in self.requests[mark:] if r.method == "POST" and r.path == path]

    def public_posts(self, mark: int = 0) -> list[Request]:
        """Messages posted in the guild: its channel and every thread created in it."""
        paths = {f"/channels/{c}/messages" for c in self.channels}
        return [r for r in self.requests[mark:] if r.method == "POST" and r.path in paths]

    def threads(self) -> list[dict[str, Any]]:
        return [c for c in self.channels.values() if c["type"] in (10, 11, 12)]

    def dm_opens(self, user_id: int, mark: int = 0) -> list[Request]:
        """The requests to open ``user_id``'s DM channel (``POST /users/@me/channels``), answered or not."""
        return [r for r in self.requests[mark:] if r.method == "POST" and r.path == "/users/@me/channels"
                and isinstance(r.payload, dict) and int(r.payload.get("recipient_id", 0)) == user_id]

    def dm_posts(self, user_id: int, mark: int = 0) -> list[Request]:
        paths = {f"/channels/{c}/messages" for c, u in self.dm_channels.items() if u == user_id}
        return [r for r in self.requests[mark:] if r.method == "POST" and r.path in paths]

    def callbacks(self, interaction_id: int) -> list[Request]:
        prefix = f"/interactions/{interaction_id}/"
        return [r for r in self.requests if r.path.startswith(prefix) and r.path.endswith("/callback")]

    def followups(self, token: str) -> list[Request]:
        path = f"/webhooks/{APP_ID}/{token}"
        return [r for r in self.requests if r.method == "POST" and r.path == path]

    # == REST ==============================================================================
    async def _rest(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"]
        payload: Any = None
        files: list[tuple[str, int]] = []
        if request.content_type.startswith("multipart/"):
            reader = await request.multipart()
            while (part := await reader.next()) is not None:
                assert isinstance(part, aiohttp.BodyPartReader)
                data = await part.read()
                if part.name == "payload_json":
                    payload = json.loads(data)
                else:
                    files.append((part.filename or part.name or "", len(data)))
        elif request.can_read_body:
            raw = await request.read()
            payload = json.loads(raw) if raw else None
        rec = Request(request.method, path, dict(request.query), payload, files,
                      at=asyncio.get_running_loop().time(), peer=request.remote or "", host=request.host)
        self.requests.append(rec)
        auth = request.headers.get("Authorization", "")
        if not path.startswith(("/webhooks/", "/interactions/")) and auth != f"Bot {TOKEN}":
            rec.status, rec.response = 401, {"code": 0, "message": "401: Unauthorized"}
        elif (problem := invalid_form(rec)) is not None:
            rec.status, rec.response = 400, {"code": 50035, "message": f"Invalid Form Body: {problem}"}
            self.invalid.append(rec)
        else:
            try:
                rec.status, rec.response = self._route(rec)
            except Exception as exc:  # a bug in the fake: make it loud in the client and in the record
                rec.status, rec.response = 500, {"code": 0, "message": f"fake error: {exc!r}"}
        if rec.status == 404:
            self.unknown.append(rec)
        await self._notify()
        if rec.status == 204:
            return web.Response(status=204)
        # exactly "application/json", as Discord sends it (discord.py compares the header verbatim);
        # a 429 without "Via" is taken for a Cloudflare ban, so Discord's own 429s carry it
        headers = {"Content-Type": "application/json"}
        if rec.status == 429:
            headers["Via"] = "1.1 google"
        return web.Response(body=json.dumps(rec.response).encode(), status=rec.status, headers=headers)

    def _route(self, r: Request) -> tuple[int, Any]:
        m, p = r.method, r.path
        app = str(APP_ID)
        if m == "GET" and p == "/gateway/bot":
            return 200, {"url": self.gateway_url, "shards": self.shard_count,
                         "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 0,
                                                 "max_concurrency": 1}}
        if m == "GET" and p == "/gateway":
            return 200, {"url": self.gateway_url}
        if m == "GET" and p == "/users/@me":
            return 200, user_payload(BOT_ID, "annals", bot=True)
        if m == "GET" and p == "/oauth2/applications/@me":
            return 200, {"id": app, "name": "Annals", "description": "", "icon": None, "bot_public": True,
                         "bot_require_code_grant": False, "verify_key": "00", "flags": 0,
                         "owner": user_payload(OWNER_ID, self.members.get(OWNER_ID, "owner"))}
        if m == "POST" and p == "/users/@me/channels":
            user = int(r.payload["recipient_id"])
            if user in self.failing_dm_opens:
                return self.dm_open_failure, {"code": 0, "message": f"{self.dm_open_failure}: Server Error"}
            dm = next((c for c, u in self.dm_channels.items() if u == user), None) or self.new_id()
            self.dm_channels[dm] = user
            return 200, {"id": str(dm), "type": 1, "last_message_id": None,
                         "recipients": [user_payload(user, self.members.get(user, "someone"))]}
        if match := re.fullmatch(rf"/applications/{app}(?:/guilds/(\d+))?/commands", p):
            scope = match.group(1) or "global"
            if m == "PUT":
                self.commands[scope] = [
                    {**c, "id": str(self.new_id()), "application_id": app, "version": "1",
                     "default_member_permissions": None, "dm_permission": True, "nsfw": False,
                     **({"guild_id": scope} if scope != "global" else {})} for c in r.payload]
                return 200, self.commands[scope]
            if m == "GET":
                return 200, self.commands.get(scope, [])
        if match := re.fullmatch(r"/channels/(\d+)/messages", p):
            channel = int(match.group(1))
            if m == "POST":
                if self.dm_channels.get(channel) in self.closed_dms:
                    return 403, {"code": 50007, "message": "Cannot send messages to this user"}
                if self.dm_channels.get(channel) in self.failing_dms:
                    return self.dm_failure, {"code": 0, "message": f"{self.dm_failure}: Server Error"}
                if channel not in self.channels and channel not in self.dm_channels:
                    return 404, {"code": 10003, "message": "Unknown Channel"}
                if channel in self.refusing:
                    status, code = self.refusing[channel]
                    return status, {"code": code, "message": f"{status}: refused by the test"}
                return self._create(channel, r)
        if match := re.fullmatch(r"/channels/(\d+)/messages/(\d+)", p):
            message = self.messages.get(int(match.group(2)))
            if message is None:
                return 404, {"code": 10008, "message": "Unknown Message"}
            if m == "GET":
                return 200, message
            if m == "PATCH":
                return 200, self._edit(message, r.payload or {}, r.files)
            if m == "DELETE":
                del self.messages[int(message["id"])]
                return 204, None
        if match := re.fullmatch(r"/channels/(\d+)/(?:messages/)?pins/(\d+)", p):
            channel, message_id = int(match.group(1)), int(match.group(2))
            if message_id not in self.messages:
                return 404, {"code": 10008, "message": "Unknown Message"}
            pinned = self.pins.setdefault(channel, [])
            if m == "PUT" and message_id not in pinned:
                pinned.append(message_id)
                self.messages[message_id]["pinned"] = True
            if m == "DELETE" and message_id in pinned:
                pinned.remove(message_id)
                self.messages[message_id]["pinned"] = False
            return 204, None
        if (match := re.fullmatch(r"/channels/(\d+)(?:/messages/(\d+))?/threads", p)) and m == "POST":
            parent = int(match.group(1))
            thread_id = int(match.group(2)) if match.group(2) else self.new_id()
            thread = {**self._text_channel(thread_id, str((r.payload or {}).get("name", "thread"))),
                      "type": int((r.payload or {}).get("type") or 11), "parent_id": str(parent),
                      "owner_id": str(BOT_ID), "message_count": 0, "member_count": 1,
                      "thread_metadata": {"archived": False, "auto_archive_duration": int(
                          (r.payload or {}).get("auto_archive_duration") or 10080),
                          "archive_timestamp": NOW, "locked": False}}
            self.channels[thread_id] = thread
            return 201, thread
        if match := re.fullmatch(r"/channels/(\d+)/thread-members/(@me|\d+)", p):
            return 204, None
        if match := re.fullmatch(r"/channels/(\d+)", p):
            channel_data = self.channels.get(int(match.group(1)))
            if channel_data is None:
                return 404, {"code": 10003, "message": "Unknown Channel"}
            if m == "GET":
                return 200, channel_data
            if m == "PATCH":
                channel_data.update({k: v for k, v in (r.payload or {}).items() if k in ("name", "topic")})
                return 200, channel_data
        if (match := re.fullmatch(r"/interactions/(\d+)/([^/]+)/callback", p)) and m == "POST":
            return self._callback(int(match.group(1)), match.group(2), r)
        if match := re.fullmatch(rf"/webhooks/{app}/([^/]+)(?:/messages/(@original|\d+))?", p):
            return self._webhook(match.group(1), match.group(2), r)
        return 404, {"code": 0, "message": f"404: Not Found ({m} {p})"}

    def _create(self, channel: int, r: Request) -> tuple[int, Any]:
        """A new message, unless its nonce was used in the channel (enforce_nonce) or the channel's
        rate limit is spent."""
        body = r.payload or {}
        nonce = body.get("nonce")
        if nonce is not None and body.get("enforce_nonce"):
            first = self.nonces.get((channel, str(nonce)))
            if first is not None and first in self.messages:
                return 200, self.message(first)
        if channel in self.limits:
            count, per = self.limits[channel]
            now = r.at
            recent = [t for t in self._sent.get(channel, []) if now - t < per]
            self._sent[channel] = recent
            if len(recent) >= count:
                wait = round(per - (now - recent[0]), 3)
                return 429, {"message": "You are being rate limited.", "retry_after": wait, "global": False}
            recent.append(now)
        message = self._message(channel, body, r.files)
        if nonce is not None and body.get("enforce_nonce"):
            self.nonces[(channel, str(nonce))] = int(message["id"])
        self.created.append(r)
        return 200, message

    def created_in(self, channel_id: int) -> list[Request]:
        """The messages really created in a channel (a nonce repeat is not one)."""
        path = f"/channels/{channel_id}/messages"
        return [r for r in self.created if r.path == path]

    # -- interactions and webhooks -----------------------------------------------------------
    def _callback(self, interaction_id: int, token: str, r: Request) -> tuple[int, Any]:
        body = r.payload or {}
        kind = int(body.get("type", 0))
        data = body.get("data") or {}
        ephemeral = bool(int(data.get("flags") or 0) & EPHEMERAL)
        interaction: dict[str, Any] = {"id": str(interaction_id), "type": 2,
                                       "response_message_loading": kind == 5,
                                       "response_message_ephemeral": ephemeral}
        resource: dict[str, Any] = {"type": kind}
        if kind in (4, 5, 7):  # a message: the original response (or the edited one)
            message = self._message(self.token_channels.get(token, CHANNEL_ID), data, r.files, token=token)
            interaction["response_message_id"] = message["id"]
            resource["message"] = message
        if r.query.get("with_response") in ("1", "true", "True"):
            return 200, {"interaction": interaction, "resource": resource}
        return 204, None

    def _webhook(self, token: str, which: str | None, r: Request) -> tuple[int, Any]:
        if which is None:
            if r.method == "POST":
                channel = self.token_channels.get(token, CHANNEL_ID)
                return 200, self._message(channel, r.payload or {}, r.files, token=token)
            return 404, {"code": 10015, "message": "Unknown Webhook"}
        if which == "@original":
            found = [m for m in self.messages.values() if m.get("_token") == token and m.get("_original")]
            message = found[0] if found else None
        else:
            message = self.messages.get(int(which))
        if message is None:
            return 404, {"code": 10008, "message": "Unknown Message"}
        if r.method == "GET":
            return 200, message
        if r.method == "PATCH":
            return 200, self._edit(message, r.payload or {}, r.files)
        if r.method == "DELETE":
            self.messages.pop(int(message["id"]), None)
            return 204, None
        return 404, {"code": 0, "message": "404: Not Found"}

    # -- payloads ----------------------------------------------------------------------------
    def _text_channel(self, channel_id: int, name: str, *, guild_id: int = GUILD_ID) -> dict[str, Any]:
        return {"id": str(channel_id), "type": 0, "name": name, "position": 0, "guild_id": str(guild_id),
                "permission_overwrites": [], "nsfw": False, "parent_id": None, "topic": None,
                "last_message_id": None, "rate_limit_per_user": 0}

    def _message(self, channel_id: int, payload: dict[str, Any], files: list[tuple[str, int]], *,
                 token: str | None = None) -> dict[str, Any]:
        message_id = self.new_id()
        message = {
            "id": str(message_id), "channel_id": str(channel_id),
            "author": user_payload(BOT_ID, "annals", bot=True), "content": payload.get("content") or "",
            "timestamp": NOW, "edited_timestamp": None, "tts": False, "mention_everyone": False,
            "mentions": [], "mention_roles": [], "embeds": payload.get("embeds") or [], "pinned": False,
            "type": 0 if token is None else 20, "attachments": self._attachments(files),
            "components": payload.get("components") or [], "flags": int(payload.get("flags") or 0),
        }
        if token is not None:
            message["application_id"] = str(APP_ID)
            message["webhook_id"] = str(APP_ID)
        self.messages[message_id] = message
        if token is not None:  # private bookkeeping, dropped from what the client sees
            original = not any(m.get("_token") == token for m in self.messages.values())
            self.messages[message_id] = {**message, "_token": token, "_original": original}
            return message
        return message

    def _attachments(self, files: list[tuple[str, int]]) -> list[dict[str, Any]]:
        out = []
        for name, size in files:
            url = f"http://127.0.0.1:{self.port}/attachments/{name}"
            out.append({"id": str(self.new_id()), "filename": name, "size": size, "url": url,
                        "proxy_url": url})
        return out

    def _edit(self, message: dict[str, Any], payload: dict[str, Any], files: list[tuple[str, int]]) -> Any:
        for key in ("content", "components", "embeds", "flags"):
            if key in payload:
                message[key] = payload[key]
        if files or "attachments" in payload:
            message["attachments"] = self._attachments(files)
        message["edited_timestamp"] = NOW
        return {k: v for k, v in message.items() if not k.startswith("_")}

    def message(self, message_id: int | str) -> dict[str, Any]:
        """A stored message as the client would see it."""
        return {k: v for k, v in self.messages[int(message_id)].items() if not k.startswith("_")}

    # == gateway ===========================================================================
    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        self.gateway_queries.append(dict(request.query))
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        self._ws = ws
        self.disconnected.clear()
        await ws.send_json({"op": OP_HELLO, "d": {"heartbeat_interval": self.heartbeat_interval},
                            "s": None, "t": None})
        try:
            async for msg in ws:
                if msg.type is not aiohttp.WSMsgType.TEXT:
                    continue
                frame = json.loads(msg.data)
                self.gateway_log.append(frame)
                op = frame.get("op")
                if op == OP_HEARTBEAT:
                    self.heartbeats += 1
                    await ws.send_json({"op": OP_HEARTBEAT_ACK, "d": None, "s": None, "t": None})
                elif op == OP_IDENTIFY:
                    if frame["d"].get("token") != TOKEN:
                        await ws.close(code=4004, message=b"Authentication failed.")
                        break
                    self.identify = frame["d"]
                    self.identified.set()
                    shard = tuple(frame["d"].get("shard") or (0, 1))
                    self.shard_sockets[int(shard[0])] = ws
                    await self._ready(ws, (int(shard[0]), int(shard[1])))
                elif op == OP_RESUME:  # a fresh session instead (not resumable)
                    await ws.send_json({"op": OP_INVALID_SESSION, "d": False, "s": None, "t": None})
                await self._notify()
        finally:
            self.close_codes.append(ws.close_code)
            if self._ws is ws:
                self._ws = None
            for shard_id, live in list(self.shard_sockets.items()):
                if live is ws:
                    del self.shard_sockets[shard_id]
            self.disconnected.set()
            await self._notify()
        return ws

    def shard_of(self, guild_id: int) -> int:
        """The shard that carries a server's events (Discord's rule)."""
        return (guild_id >> 22) % self.shard_count

    async def _ready(self, ws: web.WebSocketResponse, shard: tuple[int, int] = (0, 1)) -> None:
        mine = [g for g in self.guild_channels if (g >> 22) % shard[1] == shard[0]]
        await self._send_dispatch(ws, "READY", {
            "v": 10, "user": user_payload(BOT_ID, "annals", bot=True),
            "session_id": "fake-session" if shard[0] == 0 else f"fake-session-{shard[0]}",
            "resume_gateway_url": self.gateway_url, "shard": list(shard),
            "guilds": [{"id": str(g), "unavailable": True} for g in mine],
            "application": {"id": str(APP_ID), "flags": 0}, "private_channels": [], "relationships": [],
        })
        for guild_id in mine:
            await self._send_dispatch(ws, "GUILD_CREATE", self.guild_payload(guild_id))
        self.ready_sent.set()

    def guild_payload(self, guild_id: int = GUILD_ID) -> dict[str, Any]:
        everyone = {"id": str(guild_id), "name": "@everyone",
                    "permissions": str(discord.Permissions.general().value), "position": 0, "color": 0,
                    "hoist": False, "managed": False, "mentionable": False, "flags": 0}
        members = [self.member(u) for u in self.members]
        members.append({**self.member(BOT_ID), "user": user_payload(BOT_ID, "annals", bot=True)})
        return {
            "id": str(guild_id), "name": "History Club", "icon": None, "owner_id": str(OWNER_ID),
            "roles": [everyone], "emojis": [], "stickers": [], "features": [],
            "member_count": len(members), "large": False, "unavailable": False,
            "channels": [c for c in self.channels.values()
                         if c["type"] == 0 and c.get("guild_id") == str(guild_id)],
            "threads": [], "members": members, "voice_states": [], "presences": [], "mfa_level": 0,
            "verification_level": 0, "explicit_content_filter": 0, "default_message_notifications": 0,
            "premium_tier": 0, "preferred_locale": "en-US", "system_channel_flags": 0, "nsfw_level": 0,
            "joined_at": NOW,
        }

    def member(self, user_id: int) -> dict[str, Any]:
        return {"user": user_payload(user_id, self.members.get(user_id, "someone")), "roles": [],
                "joined_at": NOW, "deaf": False, "mute": False, "flags": 0, "nick": None}

    async def _send_dispatch(self, ws: web.WebSocketResponse, event: str, data: dict[str, Any]) -> int:
        self._seq += 1
        await ws.send_json({"op": OP_DISPATCH, "t": event, "s": self._seq, "d": data})
        return self._seq

    async def dispatch(self, event: str, data: dict[str, Any]) -> int:
        """Send a dispatch to the connected client (about a server: to the connection of its shard);
        returns its sequence number."""
        ws = self._ws
        if data.get("guild_id") is not None and self.shard_sockets:
            shard = self.shard_of(int(data["guild_id"]))
            ws = self.shard_sockets.get(shard)
            if event == "INTERACTION_CREATE":
                self.routed[int(data["id"])] = shard
        if ws is None or ws.closed:
            raise AssertionError("no client is connected to the fake gateway (for this shard)")
        return await self._send_dispatch(ws, event, data)

    @property
    def sequence(self) -> int:
        return self._seq

    # -- interactions ------------------------------------------------------------------------
    def _interaction(self, user_id: int, kind: int, data: dict[str, Any], *, channel_id: int = CHANNEL_ID,
                     manage_guild: bool = False, guild_id: int = GUILD_ID) -> dict[str, Any]:
        perms = discord.Permissions.general()
        perms.manage_guild = manage_guild
        perms.administrator = False
        channel = self.channels.get(channel_id) or self._text_channel(channel_id, "games", guild_id=guild_id)
        token = f"tok{self.new_id()}"
        self.token_channels[token] = channel_id
        return {
            "id": str(self.new_id()), "application_id": str(APP_ID), "type": kind,
            "token": token, "version": 1, "guild_id": str(guild_id),
            "channel_id": str(channel_id), "channel": channel,
            "member": {**self.member(user_id), "permissions": str(perms.value)},
            "app_permissions": str(discord.Permissions.text().value), "locale": "en-US",
            "guild_locale": "en-US", "entitlements": [],
            "authorizing_integration_owners": {"0": str(guild_id)},
            "context": 0, "attachment_size_limit": 10_485_760, "data": data,
        }

    async def command(self, user_id: int, name: str, sub: str | None = None, *,
                      channel_id: int | None = None, manage_guild: bool = False, guild_id: int = GUILD_ID,
                      **options: Any) -> dict[str, Any]:
        """Dispatch ``/name [sub] option:value ...`` by ``user_id`` (in the server's own channel unless
        ``channel_id`` names another); returns the interaction payload."""
        kinds = {bool: 5, int: 4, float: 10, str: 3}
        opts = [{"name": k, "type": kinds[type(v)], "value": v} for k, v in options.items()]
        scope = self.commands.get(str(guild_id)) or self.commands.get("global") or []
        command_id = next((c["id"] for c in scope if c["name"] == name), str(APP_ID + 7))
        data: dict[str, Any] = {"id": command_id, "name": name, "type": 1, "guild_id": str(guild_id)}
        data["options"] = [{"name": sub, "type": 1, "options": opts}] if sub else opts
        channel = channel_id if channel_id is not None else self.guild_channels.get(guild_id, CHANNEL_ID)
        payload = self._interaction(user_id, 2, data, channel_id=channel, manage_guild=manage_guild,
                                    guild_id=guild_id)
        await self.dispatch("INTERACTION_CREATE", payload)
        return payload

    async def click(self, user_id: int, message: dict[str, Any], custom_id: str,
                    values: list[str] | None = None, *, component_type: int = 3) -> dict[str, Any]:
        """Dispatch a click on a component (a select with ``values``, or a button) of ``message``."""
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": component_type}
        if values is not None:
            data["values"] = values
        payload = self._interaction(user_id, 3, data, channel_id=int(message["channel_id"]))
        payload["message"] = message
        await self.dispatch("INTERACTION_CREATE", payload)
        return payload

    async def answered(self, interaction: dict[str, Any], timeout: float = 10.0) -> Request:
        """The first follow-up of an interaction (waits for it)."""
        token = interaction["token"]
        found: list[Request] = await self.wait_for(lambda: self.followups(token), timeout,
                                                   f"a follow-up to {token}")
        return found[0]
