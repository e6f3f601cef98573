"""The Discord client: the command tree, the dynamic items and the notice transport."""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable
from typing import Any, TypeVar

import discord
from discord import app_commands

from bot.discord import eight_minute, epochs5, league, rise
from bot.discord.commands import APOLOGY, AnnalsGroup, PlaySelect
from bot.discord.moves import DrawButton, EndTurnButton, GiveSelect, TargetSelect
from bot.discord.transport import Transport
from bot.service import GameService
from engine.registry import get_game

log = logging.getLogger(__name__)
T = TypeVar("T")


def default_intents() -> discord.Intents:
    """Only the guilds intent: slash commands and components need no privileged (or message) intents."""
    intents = discord.Intents.none()
    intents.guilds = True
    return intents


class AnnalsTree(app_commands.CommandTree[discord.Client]):
    """The command tree; unexpected errors are logged and answered with a short apology."""

    async def on_error(self, interaction: discord.Interaction[discord.Client],
                       error: app_commands.AppCommandError) -> None:
        command = interaction.command.qualified_name if interaction.command else "?"
        log.error("/%s failed (user %s, guild %s)", command, interaction.user.id, interaction.guild_id,
                  exc_info=error)
        try:
            if interaction.response.is_done():
                await interaction.followup.send(APOLOGY, ephemeral=True)
            else:
                await interaction.response.send_message(APOLOGY, ephemeral=True)
        except discord.HTTPException:
            log.warning("could not send the apology for /%s", command)


# Each module adds its own command group and the components that must survive restarts.
GAME_GROUPS: tuple[Callable[[AnnalsBot], None], ...] = (
    epochs5.install, eight_minute.install, rise.install, league.install,
)


class AnnalsBot(discord.Client):
    """Annals on Discord.

    Args:
        service: the game service (shared with the scheduler).
        render_limit: how many pictures may be drawn at once (in the default executor).
        board_size: the width of board pictures in pixels.
        **options: passed to :class:`discord.Client`.
    """

    def __init__(self, service: GameService, *, render_limit: int = 2, board_size: int = 1600,
                 **options: Any) -> None:
        options.setdefault("intents", default_intents())
        options.setdefault("allowed_mentions", discord.AllowedMentions.none())
        super().__init__(**options)
        self.service = service
        self.board_size = board_size
        self.tree = AnnalsTree(self)
        self.tree.add_command(AnnalsGroup(self))
        for install in GAME_GROUPS:  # /history, /eight-minute, /rise, /league
            install(self)
        self.transport = Transport(self)
        self._render_slots = asyncio.Semaphore(render_limit)
        service.subscribe(self.transport.on_outcome)

    async def setup_hook(self) -> None:
        # Dynamic items first: selects sent before a restart must work as soon as we connect.
        self.add_dynamic_items(PlaySelect, GiveSelect, TargetSelect, EndTurnButton, DrawButton)
        self.transport.start()

    async def close(self) -> None:
        await self.transport.stop()
        await super().close()

    async def render(self, func: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
        """Run a picture function in the default executor, at most ``render_limit`` at a time."""
        async with self._render_slots:
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(None, functools.partial(func, *args, **kwargs))

    async def labels(self, game_id: str, legal: list[dict[str, Any]]) -> list[str]:
        """Readable labels for legal actions (JSON) of a game."""
        status = await self.service.status(game_id)
        game = get_game(status.ruleset)
        actions = [game.codec.decode(a) for a in legal]
        _, state = await self.service.engine_state(game_id)  # for labels only (battle odds are public)
        return [game.action_label(state, a) for a in actions]
