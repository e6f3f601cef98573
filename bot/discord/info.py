"""``/annals log``: the game's public events, page by page, in every game's own sentences; ``/annals
card``: one card whole, in the game's own words; ``/annals empire``, ``area`` and ``tracks``: the
look-ups of :mod:`bot.lookups` (an empire with its card panel, a place, the tracks with their picture).

The log is built from what every player may see: the public events of the log, worded by the game's
own ``describe_event`` with the seats' names. A card is worded by the game's ``card_text`` from the
asker's own view, so it answers only with what that person may see, and only to them.
"""

from __future__ import annotations

import io
import logging
import re
from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands

from bot.discord.base import CommandBase
from bot.discord.kit import (
    APOLOGY,
    MAX_MESSAGE,
    BotBase,
    GameId,
    Interaction,
    Reply,
    ShortText,
    bot_of,
    clip,
    report,
)
from bot.discord.words import describe_for
from bot.lookups import Answer, area_answer, empire_answer, tracks_answer
from bot.models import GameStatus, LogEntry
from bot.service import ServiceError
from engine.registry import get_game

log = logging.getLogger(__name__)

LOG_ID = re.compile(r"annals:log:(?P<game>[a-z0-9]{1,32}):(?P<page>[0-9]{1,6}):(?P<dir>[pn])")
LOG_PAGE = 12  # public events per page (one without a line, a bookkeeping one, makes a page shorter)
ATTACHED = "\n… (the whole answer is in the attached text file)"
"""The line that ends a look-up too long for one message."""
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
    _, total, _ = await bot.service.public_log_slice(game_id, 0, 0)  # how many entries: the index alone
    pages = max(1, -(-total // LOG_PAGE))
    page = pages - 1 if page is None else min(max(page, 0), pages - 1)
    _, _, entries = await bot.service.public_log_slice(game_id, page * LOG_PAGE, LOG_PAGE)
    shown = log_lines(st, entries)  # only this page's events are read and worded
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
async def card_reply(bot: BotBase, game_id: str, user_id: int, wanted: str) -> Reply:
    """``/annals card``: the card ``wanted`` as the game words it from ``user_id``'s own view (a
    spectator's when they have no seat), or one sentence when the game knows no such card."""
    st = await bot.service.status(game_id)
    if st.status == "lobby":
        raise ServiceError("not_started", f"Game `{game_id}` has not started: nobody holds a card yet.")
    view = await bot.service.view(game_id, user_id)  # the asker's own view: never another seat's hand
    text = get_game(st.ruleset).card_text(view, wanted, st.seat_names)
    if text is None:
        shown = wanted if len(wanted) <= 40 else wanted[:40] + "…"
        raise ServiceError("unknown_card", f"{st.title} has no card called {shown!r}.")
    return Reply(clip(text, MAX_MESSAGE))


async def with_picture(bot: BotBase, game_id: str, answer: Answer) -> Reply:
    """A look-up's words, with its picture drawn in the picture executor when the game draws one; words
    too long for one message go as a text file, as ``/annals board``'s and ``card``'s do."""
    files = []
    text = answer.text
    if len(text) > MAX_MESSAGE:
        files.append(discord.File(io.BytesIO(text.encode()), filename=f"annals-{game_id}-{answer.tag}.txt"))
        shown: list[str] = []
        for line in text.splitlines():  # whole lines, as many as fit beside the note
            if sum(len(s) + 1 for s in shown) + len(line) + len(ATTACHED) > MAX_MESSAGE:
                break
            shown.append(line)
        text = clip("\n".join(shown), MAX_MESSAGE - len(ATTACHED)) + ATTACHED
    if answer.draw is not None:
        png = await bot.render(answer.draw)
        if png is not None:
            files.append(discord.File(io.BytesIO(png), filename=f"annals-{game_id}-{answer.tag}.png"))
    return Reply(text, files=files)


class InfoCommands(CommandBase):
    """``/annals log``, ``card``, ``empire``, ``area`` and ``tracks`` (bound to the ``/annals`` group)."""

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

    @app_commands.command(name="card", description="One card whole, by its number or a name on it (only you "
                                                   "see this)")
    @app_commands.describe(card="A card's number or a name printed on it (your own cards and those in play)",
                           game="The game (default: your game in this channel)")
    async def card(self, interaction: Interaction, card: ShortText, game: GameId | None = None) -> None:
        async def work() -> Reply:
            gid = await self._game(interaction, game, finished_ok=True)
            return await card_reply(self.bot, gid, interaction.user.id, card)
        await self._answer(interaction, work, ephemeral=True)

    @app_commands.command(name="empire", description="One empire: its player, where it stands, its card "
                                                     "panel (only you see this)")
    @app_commands.describe(empire="An empire's name or its card's number (on the map, or your own cards)",
                           game="The game (default: your game in this channel)")
    async def empire(self, interaction: Interaction, empire: ShortText, game: GameId | None = None) -> None:
        async def work() -> Reply:
            gid = await self._game(interaction, game, finished_ok=True)
            answer = await empire_answer(self.bot.service, gid, interaction.user.id, empire)
            return await with_picture(self.bot, gid, answer)
        await self._answer(interaction, work, ephemeral=True)

    @app_commands.command(name="area", description="One place of the board: holder, units, what is built, "
                                                   "neighbours")
    @app_commands.describe(area="The place's name", game="The game (default: your game in this channel)")
    async def area(self, interaction: Interaction, area: ShortText, game: GameId | None = None) -> None:
        async def work() -> Reply:
            gid = await self._game(interaction, game, finished_ok=True)
            text = await area_answer(self.bot.service, gid, interaction.user.id, area)
            return await with_picture(self.bot, gid, Answer(text, tag="area"))
        await self._answer(interaction, work, ephemeral=True)

    @app_commands.command(name="tracks", description="The game's tracks (progress, glory, money) in words "
                                                     "and as a picture")
    @app_commands.describe(game="The game (default: your game in this channel)")
    async def tracks(self, interaction: Interaction, game: GameId | None = None) -> None:
        async def work() -> Reply:
            gid = await self._game(interaction, game, finished_ok=True)
            return await with_picture(self.bot, gid, await tracks_answer(self.bot.service, gid,
                                                                         interaction.user.id))
        await self._answer(interaction, work, ephemeral=True)

    for _command in (log, card, empire, area, tracks):
        _command.autocomplete("game")(CommandBase.game_autocomplete)
    del _command
