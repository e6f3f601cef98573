"""``/annals log``: the game's public events, page by page, in every game's own sentences.

Everything here is built from what every player may see: the public events of
the log, worded by the game's own ``describe_event`` with the seats' names.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands

from bot.discord.base import CommandBase
from bot.discord.kit import APOLOGY, BotBase, GameId, Interaction, Reply, bot_of, clip, report
from bot.discord.words import describe_for
from bot.models import GameStatus, LogEntry
from bot.service import ServiceError

log = logging.getLogger(__name__)

LOG_ID = re.compile(r"annals:log:(?P<game>[a-z0-9]{1,32}):(?P<page>[0-9]{1,6}):(?P<dir>[pn])")
LOG_PAGE = 12  # lines per page
LOG_LINE = 150  # characters per line, so a page stays well under Discord's 2000


# == the log ================================================================================
def log_lines(status: GameStatus, entries: Sequence[LogEntry]) -> list[str]:
    """One line per public event that says something, numbered by its move."""
    lines = []
    for entry in entries:
        text = describe_for(entry.as_notice(status.game_id), status)
        if text:
            lines.append(clip(f"`{entry.seq}` {text}", LOG_LINE))
    return lines


async def log_page(bot: BotBase, game_id: str, page: int | None) -> tuple[str, discord.ui.View]:
    """The text of one page of the game's log (None: the newest) and its prev/next buttons."""
    st = await bot.service.status(game_id)
    _, entries = await bot.service.public_log(game_id)
    lines = log_lines(st, entries)
    pages = max(1, -(-len(lines) // LOG_PAGE))
    page = pages - 1 if page is None else min(max(page, 0), pages - 1)
    shown = lines[page * LOG_PAGE:(page + 1) * LOG_PAGE]
    head = f"**Log of game `{game_id}`**, page {page + 1} of {pages} (move {st.seq}):"
    text = "\n".join([head, *(shown or ["Nothing has happened yet."])])
    view = discord.ui.View(timeout=None)
    view.add_item(LogButton(game_id, max(page - 1, 0), "p", disabled=page == 0))
    view.add_item(LogButton(game_id, min(page + 1, pages - 1), "n", disabled=page >= pages - 1))
    return text, view


class LogButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=LOG_ID.pattern):
    """Previous or next page of the log; the custom_id carries the game and the page it opens.

    Pages count from the first event, so a page keeps its content as the game goes
    on and a button from before a restart opens the same page.
    """

    def __init__(self, game_id: str, page: int, direction: str, *, disabled: bool = False) -> None:
        self.game_id = game_id
        self.page = page
        self.direction = direction
        button: discord.ui.Button[Any] = discord.ui.Button(
            custom_id=f"annals:log:{game_id}:{page}:{direction}", disabled=disabled,
            label="Previous" if direction == "p" else "Next", style=discord.ButtonStyle.secondary)
        super().__init__(button)

    @classmethod
    async def from_custom_id(cls, interaction: Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> LogButton:
        return cls(match["game"], int(match["page"]), match["dir"])

    async def callback(self, interaction: Interaction) -> None:
        bot = bot_of(interaction)
        await interaction.response.defer()  # the replay may take a moment; the message is then edited
        try:
            text, view = await log_page(bot, self.game_id, self.page)
        except ServiceError as exc:
            await interaction.followup.send(exc.message, ephemeral=True)
            return
        except Exception:
            report(log, "log page failed (user %s, game %s, page %s)", interaction.user.id, self.game_id,
                   self.page)
            await interaction.followup.send(APOLOGY, ephemeral=True)
            return
        await interaction.edit_original_response(content=text, view=view)


# == the command ===============================================================================
class InfoCommands(CommandBase):
    """``/annals log`` (bound to the ``/annals`` group)."""

    @app_commands.command(name="log", description="The game's log of public events, page by page")
    @app_commands.describe(game="The game (default: your game in this channel)",
                           page="Which page (default: the newest)")
    async def log(self, interaction: Interaction, game: GameId | None = None,
                  page: app_commands.Range[int, 1, 100000] | None = None) -> None:
        async def work() -> Reply:
            gid = await self._game(interaction, game, finished_ok=True)
            text, view = await log_page(self.bot, gid, None if page is None else page - 1)
            return Reply(text, view=view)
        await self._answer(interaction, work, ephemeral=True)

    log.autocomplete("game")(CommandBase.game_autocomplete)
