"""The Discord adapter: slash commands and selects in, service notices out. No rules here.

``python -m bot`` calls :func:`serve` when ``DISCORD_TOKEN`` is set;
``python -m bot sync [--guild ID]`` calls :func:`sync_commands` (commands are
never synced on start or in ``on_ready``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable

import discord

from bot.config import Config
from bot.discord.client import AnnalsBot, make_bot
from bot.scheduler import Scheduler
from bot.service import GameService

__all__ = ["AnnalsBot", "make_bot", "serve", "sync_commands"]

log = logging.getLogger(__name__)
DRAIN_SECONDS = 2.0  # then the delivery workers stop: what is left stays in the outbox for the next start


def serve(config: Config, service: GameService, scheduler: Scheduler, stop: asyncio.Event) -> Awaitable[None]:
    """Run the bot until ``stop`` is set (``bot.__main__`` owns the store, scheduler and signals).

    The bot is built, and listens to the service, as soon as this is called, before the
    scheduler starts: notices of deadlines that fire at start-up are queued and go out once
    the client is ready. On stop, notices in the outbox get :data:`DRAIN_SECONDS` to go out (a
    429 or a failing endpoint does not hold the shutdown up: what is left goes out at the next
    start), then the connection closes.
    """
    if not config.discord_token:
        raise ValueError("serve needs config.discord_token")
    bot = make_bot(service, shard_ids=config.shard_ids, shard_count=config.shard_count)
    return _serve(bot, config.discord_token, stop)


async def _serve(bot: AnnalsBot, token: str, stop: asyncio.Event) -> None:
    runner = asyncio.ensure_future(bot.start(token))
    stopper = asyncio.ensure_future(stop.wait())
    try:
        await asyncio.wait({runner, stopper}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        stopper.cancel()
        if not bot.is_closed():
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(bot.transport.drain(), DRAIN_SECONDS)
            await bot.close()
        if not runner.done():
            runner.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await runner  # raises LoginFailure and the like


async def sync_commands(token: str, service: GameService, guild_id: int | None = None) -> list[str]:
    """Upload the slash commands: to one server (at once) or globally (may take up to an hour).

    Returns the names of the synced top-level commands.
    """
    bot = AnnalsBot(service)
    try:
        await bot.login(token)
        if guild_id is not None:
            guild = discord.Object(id=guild_id)
            bot.tree.copy_global_to(guild=guild)
            synced = await bot.tree.sync(guild=guild)
        else:
            synced = await bot.tree.sync()
        return [c.name for c in synced]
    finally:
        await bot.close()
