"""What the per-game groups (``/eight-minute``, ``/rise``) share: one game's commands and components.

Each such group plays one ruleset. Its :class:`GameKit` names the ruleset, the
group and the game's title, and from them gives the texts (out of date, not a
choice), the custom_id patterns of its selects and buttons, the click check
and the answer of a component, and the consistent snapshot of a game.
:class:`GameItem` is the click handling of those selects and buttons, and
:class:`GameGroup` the group's base: which game a command is about, its
autocomplete and the board picture. No rules here.
"""

from __future__ import annotations

import io
import logging
import re
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

import discord
from discord import app_commands

from bot.discord.base import LIVE, MAX_OPTIONS, CommandBase, Interaction, clip
from bot.discord.moves import GAME, check_clicker, run_component
from bot.models import GameStatus, Outcome
from bot.service import ServiceError

if TYPE_CHECKING:
    from bot.discord.client import AnnalsBot

log = logging.getLogger(__name__)

MAX_BUTTON = 80  # characters of a button label
MAX_MESSAGE = 2000
MAX_NEWS = 12  # lines of others' moves told to a mover
SEQ = r"[0-9]{1,9}"
ARG = r"[a-z0-9_]{1,40}"

Answer = tuple[str, discord.ui.View | None]
Legal = list[dict[str, Any]]


# == words ================================================================================
def plural(n: int, one: str, many: str | None = None) -> str:
    """``1 coin``, ``2 coins``; ``many`` for irregular plurals (``2 gold``)."""
    return f"{n} {one if n == 1 else (many or one + 's')}"


def price(n: int, one: str, many: str | None = None) -> str:
    """A price: ``free`` or ``2 coins``."""
    return "free" if n == 0 else plural(n, one, many)


def seat_names(status: GameStatus) -> dict[int, str]:
    """Seat -> ``Alice (Red)``: the person's name and their colour on the board."""
    out: dict[int, str] = {}
    for seat in status.seats:
        if seat.seat is not None:
            out[seat.seat] = f"{seat.name} ({seat.colour})" if seat.colour else seat.name
    return out


def who(names: Mapping[int, str], seat: int) -> str:
    """A seat's name, or ``seat N`` for a seat without one."""
    return names.get(seat, f"seat {seat + 1}")


def waiting_text(status: GameStatus, view: Mapping[str, Any], names: Mapping[int, str],
                 when: str = "") -> str:
    """What a player with nothing to decide is told: the game is not running, or whom it waits for."""
    gid = status.game_id
    if status.status != "active":
        return f"Game `{gid}` is {status.status}: there is nothing to decide."
    waited = ", ".join(who(names, int(p)) for p in view.get("actors") or [])
    now = f"now ({when})" if when else "now"
    return f"It is not your move in game `{gid}` {now}; waiting for {waited or 'nobody'}."


def with_news(said: str, news: Sequence[str]) -> str:
    """What the mover did, then the last of what happened meanwhile."""
    if not news:
        return said
    shown = news[-MAX_NEWS:]
    return said + "\n" + ("…\n" if len(news) > len(shown) else "") + "\n".join(shown)


def fit(text: str, more: str) -> str:
    """``text`` then ``more``, dropping the oldest lines of ``text`` to stay within one message."""
    lines = text.split("\n")
    while len(lines) > 1 and len("\n".join(lines)) + len(more) + 2 > MAX_MESSAGE:
        lines.pop(1)
    return clip("\n".join(lines) + "\n\n" + more, MAX_MESSAGE)


async def answer_after(bot: AnnalsBot, game_id: str, user_id: int, text: str, out: Outcome,
                     panel: Callable[[AnnalsBot, str, int], Awaitable[Answer]], *, over: str,
                     idle: str) -> Answer:
    """The mover's answer after ``out``: ``text``, then ``over`` when the game ended, their next
    decision (from ``panel``) when they still have one, else ``idle``."""
    if out.status.status == "over":
        return clip(text + over, MAX_MESSAGE), None
    if user_id in out.status.waiting_for:
        more, items = await panel(bot, game_id, user_id)
        return fit(text, more), items
    return clip(text + idle, MAX_MESSAGE), None


async def board_file(bot: AnnalsBot, ruleset: str, game_id: str, view: Mapping[str, Any], *,
                     highlight: Sequence[str] = (), tag: str = "") -> discord.File:
    """The board picture of ``view`` (``highlight``: lands outlined), named after the game and its seq."""
    from render.boards import render_board

    png = await bot.render(render_board, view, names=True, highlight=highlight, size=bot.board_size)
    return discord.File(io.BytesIO(png), filename=f"{ruleset}-{game_id}-{view.get('seq', 0)}{tag}.png")


# == one game's texts, ids and clicks =======================================================
@dataclass(frozen=True)
class GameKit:
    """One per-game group: its ruleset, its name (``/GROUP``), the game's title and custom_id prefix."""

    ruleset: str
    group: str
    title: str
    prefix: str

    @property
    def play(self) -> str:
        return f"/{self.group} play"

    @property
    def stale(self) -> str:
        return (f"This message is out of date: the game has moved on. "
                f"Use `{self.play}` for your current choices.")

    @property
    def missing(self) -> str:
        return f"That is not one of your choices now; use `{self.play}` again."

    def component_id(self, kind: str, whats: Sequence[str], arg: str = ARG) -> re.Pattern[str]:
        """``PREFIX:KIND:WHAT:GAME:SEQ[:ARG]``, the custom_id of a select (``s``) or button (``b``)."""
        return re.compile(rf"{self.prefix}:{kind}:(?P<what>{'|'.join(whats)}):(?P<game>{GAME}):(?P<seq>{SEQ})"
                          rf"(?::(?P<arg>{arg}))?")

    def select(self, what: str, game_id: str, seq: int, arg: str | None,
               options: list[discord.SelectOption] | None, placeholder: str,
               row: int | None = None) -> discord.ui.Select[Any]:
        """The select of a decision; an empty list becomes one harmless option."""
        return discord.ui.Select(
            custom_id=f"{self.prefix}:s:{what}:{game_id}:{seq}" + (f":{arg}" if arg else ""),
            placeholder=placeholder, row=row,
            options=(options or [discord.SelectOption(label="(nothing to choose)", value="-")])[:MAX_OPTIONS])

    def button(self, what: str, game_id: str, seq: int, arg: object, label: str,
               style: discord.ButtonStyle, *, disabled: bool, row: int | None) -> discord.ui.Button[Any]:
        """The button of a decision (``arg`` None: none in the custom_id)."""
        return discord.ui.Button(custom_id=f"{self.prefix}:b:{what}:{game_id}:{seq}"
                                 + (f":{arg}" if arg is not None else ""),
                                 label=label, style=style, disabled=disabled, row=row)

    async def snapshot(self, bot: AnnalsBot, game_id: str, user_id: int, *,
                       started: bool = False) -> tuple[GameStatus, int, Legal, dict[str, Any]]:
        """(status, seq, the caller's legal actions, the caller's view), all at one seq.

        ``started``: a lobby is refused rather than answered with nothing to decide.
        """
        for _ in range(3):
            status = await bot.service.status(game_id)
            if status.ruleset != self.ruleset:
                raise ServiceError("wrong_game", f"Game `{game_id}` is {status.title}, not {self.title}.")
            if started and status.status == "lobby":
                raise ServiceError("not_started", f"Game `{game_id}` has not started yet.")
            seq, legal = await bot.service.legal_actions(game_id, user_id)
            view = await bot.service.view(game_id, user_id)
            if view.get("seq") == seq == status.seq:
                return status, seq, legal, view
        raise ServiceError("conflict", "The game is moving fast; please try again.")

    async def current(self, bot: AnnalsBot, game_id: str, user_id: int, seq: int | None) -> tuple[int, Legal]:
        """(seq, legal actions) now; ``stale`` if the game moved since ``seq`` (None: any seq will do)."""
        now, legal = await bot.service.legal_actions(game_id, user_id)
        if seq is not None and now != seq:
            raise ServiceError("stale", self.stale)
        if not legal:
            raise ServiceError("not_your_turn", f"It is not your move in game `{game_id}` now.")
        return now, legal

    async def check(self, interaction: Interaction, game_id: str, seq: int | None, what: str) -> bool:
        """Defer, then allow the click or say why not (only to the clicker). ``seq`` None: any seq."""
        return await check_clicker(interaction, game_id, seq, what, stale=self.stale)

    async def run(self, interaction: Interaction, what: str, game_id: str,
                  work: Callable[[AnnalsBot], Awaitable[Answer]]) -> None:
        """Run a component's work and answer ephemerally; refusals become their sentence."""
        await run_component(interaction, what, game_id, None, work, stale=self.stale)

    async def pick(self, bot: AnnalsBot, game_id: str, user_id: int, seq: int | None,
                   accept: Callable[[Mapping[str, Any]], bool]) -> tuple[int, dict[str, Any] | None]:
        """(seq now, the caller's first legal action ``accept`` takes, or None)."""
        now, legal = await self.current(bot, game_id, user_id, seq)
        return now, next((a for a in legal if accept(a)), None)


class GameItem:
    """The click handling of a per-game select or button; put before ``discord.ui.DynamicItem``.

    The item sets ``what``, ``game_id`` and ``seq``; ``work`` does what the click asks.
    """

    kit: ClassVar[GameKit]
    noun: ClassVar[str]  # "select" or "button", for the logs
    what: str
    game_id: str
    seq: int

    def checked_seq(self) -> int | None:
        """The seq a click must still be at (None: any)."""
        return self.seq

    async def interaction_check(self, interaction: Interaction, /) -> bool:
        return await self.kit.check(interaction, self.game_id, self.checked_seq(),
                                    f"the {self.what} {self.noun}")

    async def callback(self, interaction: Interaction) -> None:
        user_id = interaction.user.id
        await self.kit.run(interaction, f"the {self.what} {self.noun}", self.game_id,
                           lambda bot: self.work(bot, user_id))

    async def work(self, bot: AnnalsBot, user_id: int) -> Answer:
        raise NotImplementedError


# == the group ==============================================================================
class GameGroup(CommandBase, app_commands.Group):
    """The base of ``/GROUP ...``, the commands of one game (lobbies are opened with ``/annals create``)."""

    kit: ClassVar[GameKit]

    def __init__(self, bot: AnnalsBot, description: str) -> None:
        super().__init__(name=self.kit.group, description=description)
        self.bot = bot

    async def _own_game(self, interaction: Interaction, game: str | None, *,
                        finished_ok: bool = False) -> str:
        """The game of this ruleset meant: the one named, else the caller's one here or anywhere."""
        kit = self.kit
        if game:
            status = await self.bot.service.status(game.strip())
            if status.ruleset != kit.ruleset:
                raise ServiceError("wrong_game", f"Game `{status.game_id}` is {status.title}; "
                                   f"these commands are for {kit.title}.")
            return status.game_id
        mine = [r for r in await self._games_of(interaction.user.id) if r.ruleset == kit.ruleset]
        live = [r for r in mine if r.status in LIVE]
        here = [r for r in live if interaction.channel_id in (r.channel_id, r.thread_id)]
        pick = here or live
        if not pick and finished_ok:
            done = sorted((r for r in mine if r.status == "over"), key=lambda r: r.updated_at, reverse=True)
            pick = done[:1]
        if len(pick) == 1:
            return pick[0].game_id
        if not pick:
            raise ServiceError("no_such_game", f"You are in no {kit.title} game; open one with "
                               f"`/annals create ruleset:{kit.ruleset}`.")
        raise ServiceError("ambiguous", f"You play several {kit.title} games; say which one with `game`.")

    async def own_game_autocomplete(self, interaction: Interaction,
                                    current: str) -> list[app_commands.Choice[str]]:
        """The caller's games of this ruleset."""
        typed = current.lower().strip()
        out = []
        for row in await self._games_of(interaction.user.id):
            if row.ruleset == self.kit.ruleset and typed in row.game_id:
                out.append(app_commands.Choice(name=f"{row.game_id} ({row.status})", value=row.game_id))
        return out[:MAX_OPTIONS]

    async def _board_file(self, gid: str, view: Mapping[str, Any]) -> discord.File | None:
        """The board picture of ``view`` (None: Annals cannot draw this game)."""
        from render.boards import has_board

        if not has_board(self.kit.ruleset):
            return None
        return await board_file(self.bot, self.kit.ruleset, gid, view)
