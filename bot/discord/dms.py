"""People's DM channels: opened once per person, each on their own, and remembered in the database.

Why not ``Client.create_dm``: discord.py opens a DM with ``HTTPClient.start_private_message``, a
``Route('POST', '/users/@me/channels')`` with no major parameter, so every person's request goes
through one rate-limit bucket of the client (its key is the route alone). A fresh bucket lets one
request through at a time, and :meth:`discord.http.HTTPClient.request` retries a 500, 502, 504 or
524 inside that bucket (five tries, sleeping 1, 3, 5 and 7 seconds between them): one person whose
DM endpoint fails holds up everybody's first DM for about twenty seconds, right after a restart when
the outbox resends everything. Here the same route is requested with the person in the route's
``metadata`` (the library's own way to tell sub-limits of one route apart), so each person's first
request has a bucket of their own; once Discord names the route's real bucket (the
``X-RateLimit-Bucket`` header of an answer), discord.py shares it as Discord says, with the limit
Discord gives. The library's retries are bounded (five tries) and so is the whole open
(:data:`OPEN_SECONDS`); past that, the outbox retries the row later, with its backoff, for that
person alone.

The channel's id is remembered in the ``dm_channels`` table, so a restart sends the news without
asking Discord again; a remembered channel Discord no longer knows is forgotten and opened anew
at the next try.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

import discord
from discord.http import Route

from bot.storage import GameStore

OPEN_SECONDS = 30.0  # the longest one try at opening a person's DM channel may take, retries included
UNKNOWN_CHANNEL = 10003  # Discord: the channel does not exist (any more)


def dm_route(user_id: int) -> Route:
    """``POST /users/@me/channels`` with a rate-limit key of its own for ``user_id`` (see above)."""
    return Route("POST", "/users/@me/channels", metadata=f"recipient {user_id}")


class DmChannels:
    """The DM channel of each person, from memory, the database, or Discord (in that order).

    Args:
        client: the Discord client whose HTTP session opens the channels.
        store: how to reach the database (a callable, since the bot's service owns the store).
    """

    def __init__(self, client: discord.Client, store: Callable[[], GameStore]) -> None:
        self._client = client
        self._store = store
        self._known: dict[int, int] = {}  # user id -> DM channel id, this process

    async def channel_id(self, user_id: int) -> int:
        """The id of ``user_id``'s DM channel, opening it (and remembering it) the first time.

        Raises:
            discord.HTTPException: Discord refused or failed (the caller's retry policy applies).
            asyncio.TimeoutError: the open took longer than :data:`OPEN_SECONDS`.
        """
        known = self._known.get(user_id)
        if known is None:
            known = await self._store().dm_channel(user_id)
        if known is None:
            data = await asyncio.wait_for(
                self._client.http.request(dm_route(user_id), json={"recipient_id": str(user_id)}),
                OPEN_SECONDS)
            known = int(data["id"])
            await self._store().remember_dm_channel(user_id, known, int(time.time()))
        self._known[user_id] = known
        return known

    async def messageable(self, user_id: int) -> discord.PartialMessageable:
        """Where to send ``user_id`` a message (their DM channel, opened if needed)."""
        cid = await self.channel_id(user_id)
        return self._client.get_partial_messageable(cid, type=discord.ChannelType.private)

    async def forget(self, user_id: int, channel_id: int) -> None:
        """Forget a channel Discord says it does not know, so the next try opens a new one."""
        if self._known.get(user_id) == channel_id:
            del self._known[user_id]
        await self._store().forget_dm_channel(user_id, channel_id)

    async def on_failure(self, user_id: int, channel: discord.abc.Snowflake, exc: BaseException) -> bool:
        """Forget ``channel`` when sending in it failed because Discord does not know it; whether it
        was forgotten (the next :meth:`messageable` opens a new one)."""
        if isinstance(exc, discord.NotFound) and exc.code == UNKNOWN_CHANNEL:
            await self.forget(user_id, channel.id)
            return True
        return False
