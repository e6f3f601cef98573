"""The Discord client: the command tree, the dynamic items and the notice transport.

Every registered game is played through ``/annals`` and the decision panel; a
game whose spec names a ``ui`` module gets that module's extras too (its
``setup(bot, spec)`` adds a command group), read from the registry, so the
client keeps no list of games.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands

from bot.discord import league
from bot.discord.base import NOT_IN_DMS
from bot.discord.commands import AnnalsGroup
from bot.discord.kit import APOLOGY, CHANGED, BotBase, gone, quiet_gone_interactions, report, typed_problem
from bot.discord.panel import DYNAMIC_ITEMS
from bot.discord.transport import Transport
from bot.service import GameService
from engine.registry import specs

log = logging.getLogger(__name__)


def default_intents() -> discord.Intents:
    """Only the guilds intent: slash commands and components need no privileged (or message) intents."""
    intents = discord.Intents.none()
    intents.guilds = True
    return intents


class AnnalsTree(app_commands.CommandTree[discord.Client]):
    """The command tree; unexpected errors are logged and answered with a short apology.

    Every command's and autocomplete's text is checked here first, once for all of them
    (:func:`bot.discord.kit.typed_problem`): text that is not printable, valid Unicode, or too long is
    refused privately and reaches no command. A command Discord still shows but this code no longer
    has (removed or changed since the last ``python -m bot sync``) is answered privately that the
    commands need a sync.
    """

    async def interaction_check(self, interaction: discord.Interaction[discord.Client], /) -> bool:
        problem = typed_problem(interaction.data)
        if problem is None:
            return True
        try:
            if interaction.type is discord.InteractionType.autocomplete:
                await interaction.response.autocomplete([])  # nothing matches what cannot be read
            else:
                await interaction.response.send_message(problem, ephemeral=True)
        except discord.HTTPException as exc:
            report(log, "could not refuse the text of a command (user %s)", interaction.user.id, error=exc)
        return False

    async def on_error(self, interaction: discord.Interaction[discord.Client],
                       error: app_commands.AppCommandError) -> None:
        command = interaction.command.qualified_name if interaction.command else "?"
        if isinstance(error, app_commands.NoPrivateMessage):  # a server command used in a DM
            try:
                await interaction.response.send_message(NOT_IN_DMS, ephemeral=True)
            except discord.HTTPException as exc:  # e.g. 10062: one warning line, never a stray traceback
                report(log, "could not tell user %s that /%s is for servers", interaction.user.id, command,
                       error=exc)
            return
        if isinstance(error, (app_commands.CommandNotFound, app_commands.CommandSignatureMismatch)):
            await self._out_of_sync(interaction, error)
            return
        report(log, "/%s failed (user %s, guild %s)", command, interaction.user.id, interaction.guild_id,
               error=error)
        if gone(error) is not None:
            return  # nobody can be answered any more
        try:
            if interaction.response.is_done():
                await interaction.followup.send(APOLOGY, ephemeral=True)
            else:
                await interaction.response.send_message(APOLOGY, ephemeral=True)
        except discord.HTTPException:
            log.warning("could not send the apology for /%s", command)

    @staticmethod
    async def _out_of_sync(
        interaction: discord.Interaction[discord.Client],
        error: app_commands.CommandNotFound | app_commands.CommandSignatureMismatch,
    ) -> None:
        """Discord's copy of the commands is older than this code: say so privately, warn the log once
        per use (no traceback: nothing here is broken, the upload is due)."""
        if isinstance(error, app_commands.CommandNotFound):
            name = " ".join([*error.parents, error.name])
        else:
            name = error.command.qualified_name
        log.warning("/%s is not a command of this bot as Discord showed it (user %s, guild %s): run "
                    "`python -m bot sync`", name, interaction.user.id, interaction.guild_id)
        try:
            if interaction.type is discord.InteractionType.autocomplete:
                await interaction.response.autocomplete([])
            elif interaction.response.is_done():
                await interaction.followup.send(CHANGED, ephemeral=True)
            else:
                await interaction.response.send_message(CHANGED, ephemeral=True)
        except discord.HTTPException as exc:
            report(log, "could not tell user %s that /%s changed", interaction.user.id, name, error=exc)


class AnnalsBot(BotBase):
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
        super().__init__(service, render_limit=render_limit, board_size=board_size, **options)
        quiet_gone_interactions()  # an expired interaction is one warning line wherever it shows
        self.tree = AnnalsTree(self)
        self.tree.add_command(AnnalsGroup(self))
        for game_spec in specs(offered=True):  # each game's own extras, by its spec
            if game_spec.ui is not None:
                importlib.import_module(game_spec.ui).setup(self, game_spec)
        league.install(self)
        self.transport = Transport(self)
        service.subscribe(self.transport.on_outcome)
        service.on_changed_elsewhere(self.transport.on_changed_elsewhere)

    async def setup_hook(self) -> None:
        # Dynamic items first: panels sent before a restart must work as soon as we connect.
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        self.transport.start()

    async def close(self) -> None:
        await self.transport.stop()
        await super().close()


class ShardedAnnalsBot(AnnalsBot, discord.AutoShardedClient):
    """Annals running some of the bot's gateway shards (``shard_ids`` of ``shard_count``).

    Discord sends each server's events, interactions included, down the shard that owns the server,
    so the process holding that shard answers them; the processes share one PostgreSQL database.
    """


def make_bot(service: GameService, *, shard_ids: Sequence[int] | None = None,
             shard_count: int | None = None) -> AnnalsBot:
    """The client for this process: plain, or sharded when a shard count is given."""
    if shard_count is None:
        return AnnalsBot(service)
    return ShardedAnnalsBot(service, shard_count=shard_count,
                            shard_ids=list(shard_ids) if shard_ids is not None else None)
