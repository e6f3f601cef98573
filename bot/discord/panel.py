"""The decision panel: any game's current decision as buttons or selects. No rules, no game here.

A game says what a player decides now as an :class:`engine.core.Decision`: a
heading and one :class:`~engine.core.Choice` per legal move, each with its
label, an optional ``group`` (the first step of a two-step pick) and an
optional ``confirm`` question. The panel draws it the same way for every game:

* the first step lists each group once (by its label) and every choice
  without a group; a group opens its choices as a second step;
* a few entries are buttons, more are selects of 25, and past what one
  message holds a "More choices" button opens the next page;
* a choice with ``confirm`` asks its question with a "Yes" button first.

Every component is a :class:`discord.ui.DynamicItem` whose custom_id carries
the game id, the seq it was built at, the person it is for, what it picks (a
choice or a group by its index) and a short key of the heading and the label.
It works after a restart; anyone else is refused. When the game moved on since
the panel was built, a click still counts if the person's decision now has the
same heading and an entry with the same label (the other bidder bid meanwhile:
the choice means the same); otherwise it is refused politely as out of date.
"""

from __future__ import annotations

import hashlib
import logging
import re
from collections.abc import Awaitable, Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.discord.kit import (
    GAME,
    MAX_BUTTON,
    MAX_MESSAGE,
    MAX_OPTIONS,
    SEQ,
    USER,
    BotBase,
    Interaction,
    Reply,
    check_clicker,
    clip,
    run_component,
)
from bot.discord.words import describe_for
from bot.models import GameStatus, NoticeKind, Outcome, Turn
from bot.notices import game_ended
from engine.core import Choice, Decision
from engine.registry import get_game

log = logging.getLogger(__name__)

PICK = r"[cgym][0-9]{1,4}"
KEY = r"[0-9a-f]{8}"
BUTTON_ID = re.compile(
    rf"dp:b:(?P<game>{GAME}):(?P<seq>{SEQ}):(?P<user>{USER}):(?P<pick>{PICK}):(?P<key>{KEY})")
SELECT_ID = re.compile(rf"dp:s:(?P<game>{GAME}):(?P<seq>{SEQ}):(?P<user>{USER}):(?P<part>[0-9]{{1,4}})")
OPEN_ID = re.compile(rf"dp:o:(?P<game>{GAME}):(?P<user>{USER})")
UNDO_ID = re.compile(rf"dp:u:(?P<game>{GAME}):(?P<seq>{SEQ}):(?P<user>{USER})")
VALUE = re.compile(rf"(?P<pick>{PICK}):(?P<key>{KEY})")

MAX_BUTTONS = 10  # up to this many short entries are buttons (two rows); more, or longer, go in selects
SELECTS_PER_PAGE = 4  # the fifth row holds the "More choices" button
STALE = ("This panel is out of date: the game has moved on and your choice no longer means the same. "
         "Use `/annals play` for your current choices.")
GONE = "That is not one of your choices now; use `/annals play` for your current ones."


def key_of(heading: str, label: str) -> str:
    """A short fingerprint of an entry in its decision (8 hex digits)."""
    return hashlib.sha1(f"{heading}\x1f{label}".encode()).hexdigest()[:8]


@dataclass(frozen=True)
class Entry:
    """One thing to click: a choice (``c`` + its index) or a group (``g`` + its index)."""

    pick: str
    label: str
    key: str


def groups_of(decision: Decision) -> list[str]:
    """The groups of a decision, each once, in the order their first choice comes."""
    return list(dict.fromkeys(c.group for c in decision.choices if c.group))


def first_step(decision: Decision) -> list[Entry]:
    """What the panel shows first: each group once, in place of its choices, and every lone choice."""
    groups = groups_of(decision)
    out: list[Entry] = []
    seen: set[str] = set()
    for i, choice in enumerate(decision.choices):
        if not choice.group:
            out.append(Entry(f"c{i}", choice.label, key_of(decision.heading, choice.label)))
        elif choice.group not in seen:
            seen.add(choice.group)
            out.append(Entry(f"g{groups.index(choice.group)}", choice.group,
                             key_of(decision.heading, choice.group)))
    return out


def group_step(decision: Decision, group: str) -> list[Entry]:
    """The choices of one group (the second step of a two-step pick)."""
    return [Entry(f"c{i}", c.label, key_of(decision.heading, c.label))
            for i, c in enumerate(decision.choices) if c.group == group]


@dataclass(frozen=True)
class Kinds:
    """The components of one kind of panel (the decision of ``/annals play``, the standing orders of
    ``/annals orders``): its button and select, and what a click says when the panel is out of date
    (``stale``) or its entry is no longer offered (``gone``)."""

    button: type[PanelButton]
    select: type[PanelSelect]
    stale: str
    gone: str


def components(game_id: str, seq: int, user_id: int, entries: Sequence[Entry], page: int = 0,
               kinds: Kinds | None = None) -> discord.ui.View:
    """Buttons for a few short entries, else selects of 25 (a page at a time, with a "More" button); the
    decision panel's own components unless ``kinds`` says otherwise."""
    kinds = kinds or PANEL
    view = discord.ui.View(timeout=None)
    if len(entries) <= MAX_BUTTONS and all(len(e.label) <= MAX_BUTTON for e in entries):
        for n, entry in enumerate(entries):
            view.add_item(kinds.button(game_id, seq, user_id, entry.pick, entry.key, entry.label, row=n // 5))
        return view
    per_page = MAX_OPTIONS * SELECTS_PER_PAGE
    pages = -(-len(entries) // per_page)
    page = min(max(page, 0), pages - 1)
    shown = entries[page * per_page:(page + 1) * per_page]
    for k in range(0, len(shown), MAX_OPTIONS):
        chunk = shown[k:k + MAX_OPTIONS]
        options = [discord.SelectOption(label=clip(e.label, 100), value=f"{e.pick}:{e.key}") for e in chunk]
        first, last = page * per_page + k + 1, page * per_page + k + len(chunk)
        view.add_item(kinds.select(game_id, seq, user_id, page * SELECTS_PER_PAGE + k // MAX_OPTIONS, options,
                                   f"Choose ({first} to {last} of {len(entries)})"))
    if pages > 1:
        nxt = (page + 1) % pages
        view.add_item(kinds.button(game_id, seq, user_id, f"m{nxt}", key_of("", str(nxt)),
                                   f"More choices (page {nxt + 1} of {pages})", row=4))
    return view


# == reading the decision ===================================================================
def idle_text(status: GameStatus) -> str:
    """What a person with nothing to decide is told: the game is not running, or whom it waits for."""
    game_id = status.game_id
    if status.status != "active":
        return f"Game `{game_id}` is {status.status}: there is nothing to decide."
    names = status.seat_names
    waited = ", ".join(names[p] for p in status.actors if p < len(names))
    return f"You have nothing to decide in game `{game_id}` now; waiting for {waited or 'nobody'}."


def heading_text(game_id: str, title: str, decision: Decision) -> str:
    return f"**{title}**, game `{game_id}`: {decision.heading}"


async def panel(bot: BotBase, game_id: str, user_id: int) -> Reply:
    """The person's decision now, with its buttons or selects (or why there is none)."""
    return turn_panel(await bot.service.turn(game_id, user_id), user_id)


def turn_panel(turn: Turn, user_id: int, *, undo: bool = False) -> Reply:
    """The decision of one snapshot (:meth:`GameService.turn`) with its components, or why there is
    none; with ``undo``, an Undo button too when the snapshot says an undo would take a move back."""
    game_id, decision = turn.status.game_id, turn.decision
    if decision is None:
        return Reply(idle_text(turn.status))
    view = components(game_id, turn.seq, user_id, first_step(decision))
    if undo and turn.can_undo:
        view.add_item(UndoButton(game_id, turn.seq, user_id))
    return Reply(clip(heading_text(game_id, turn.status.title, decision), MAX_MESSAGE), view=view)


# == a click ================================================================================
def _find(decision: Decision, pick: str, key: str, same_seq: bool) -> str | None:
    """The pick in ``decision`` that a click meant, or None. At the same seq the index is trusted
    (after its key is checked); after the game moved, the pick is found by its key."""
    kind, index = pick[0], int(pick[1:])
    if kind in "cy":
        entries = [(f"{kind}{i}", key_of(decision.heading, c.label)) for i, c in enumerate(decision.choices)]
    elif kind == "g":
        entries = [(f"g{i}", key_of(decision.heading, g)) for i, g in enumerate(groups_of(decision))]
    else:
        return pick
    if same_seq:
        return pick if index < len(entries) and entries[index][1] == key else None
    return next((p for p, k in entries if k == key), None)


async def resolve(bot: BotBase, game_id: str, user_id: int, seq: int, pick: str, key: str) -> Reply:
    """Do what a click on ``pick`` (built at ``seq``) asks: submit, confirm, open a group or a page."""
    turn = await bot.service.turn(game_id, user_id)
    if turn.decision is None:
        return Reply(idle_text(turn.status))
    clicked = click(PANEL, game_id, user_id, turn.status.title, turn.decision, seq, turn.seq, pick, key)
    if isinstance(clicked, Reply):
        return clicked
    return await submit_choice(bot, game_id, user_id, turn.seq, clicked)


def click(kinds: Kinds, game_id: str, user_id: int, title: str, decision: Decision, seq: int, now: int,
          pick: str, key: str) -> Reply | Choice:
    """What a click on ``pick`` (built at ``seq``) in a panel of ``kinds`` asks of ``decision`` (read at
    ``now``): the next page, a group's choices, a question first, or why not (a :class:`Reply`); else
    the choice to send."""
    found = _find(decision, pick, key, now == seq)
    if found is None:
        return Reply(kinds.stale if now != seq else kinds.gone)
    kind, index = found[0], int(found[1:])
    if kind == "m":
        view = components(game_id, now, user_id, first_step(decision), page=index, kinds=kinds)
        return Reply(clip(heading_text(game_id, title, decision), MAX_MESSAGE), view=view)
    if kind == "g":
        group = groups_of(decision)[index]
        view = components(game_id, now, user_id, group_step(decision, group), kinds=kinds)
        return Reply(clip(f"{heading_text(game_id, title, decision)}\n{group}:", MAX_MESSAGE), view=view)
    choice = decision.choices[index]
    if kind == "c" and choice.confirm:
        view = discord.ui.View(timeout=None)
        yes = clip(f"Yes: {choice.label}", MAX_BUTTON)
        view.add_item(kinds.button(game_id, now, user_id, f"y{index}", key_of(decision.heading, choice.label),
                                   yes, style=discord.ButtonStyle.danger))
        return Reply(clip(choice.confirm, MAX_MESSAGE), view=view)
    return choice


async def submit_choice(bot: BotBase, game_id: str, user_id: int, seq: int, choice: Choice) -> Reply:
    """Send ``choice`` as the person's move at ``seq``; answer with what it did and what comes next."""
    out = await bot.service.submit(game_id, user_id, choice.action.to_json(), seq)
    # an Undo button beside the next decision while nothing new became known since the move (no roll,
    # draw or reveal; still their turn)
    return await after(bot, game_id, user_id, seq, out, [f"You chose: {sentence(choice.label)}"], undo=True)


async def take_back(bot: BotBase, game_id: str, user_id: int, seq: int) -> Reply:
    """Undo the person's last move (the Undo button, built at ``seq``), then show their decision again."""
    out = await bot.service.undo(game_id, user_id, seq)
    return await after(bot, game_id, user_id, seq, out, [])


def sentence(text: str) -> str:
    """``text`` ending with one full stop (labels may or may not end with one)."""
    return text if text.endswith((".", "!", "?")) else f"{text}."


def own_lines(out: Outcome, user_id: int, seq: int, *, summary_follows: bool = False) -> list[str]:
    """The sentences of what the person's move at ``seq`` did (public, or addressed to them); with
    ``summary_follows`` the end of the game is only why it ended (the summary says the result)."""
    lines: list[str] = []
    for notice in out.notices:
        # a quiet move leaves the counter at ``seq``, a public one moves it to ``seq + 1``
        if notice.seq > seq + 1 or not (notice.is_public or user_id in notice.audience):
            continue  # later moves (the AI's) are told in the game's thread
        if notice.kind == NoticeKind.your_turn:
            continue  # the next decision follows in the same answer
        text = game_ended(notice.data) if summary_follows and notice.kind == NoticeKind.game_over else \
            describe_for(notice, out.status)
        if text and text not in lines:
            lines.append(text)
    return lines


async def after(bot: BotBase, game_id: str, user_id: int, seq: int, out: Outcome, head: list[str], *,
                undo: bool = False) -> Reply:
    """What a move at ``seq`` did, then the person's next decision (with its components, and with
    ``undo`` an Undo button when one would take a move back) if any."""
    lines = head + own_lines(out, user_id, seq, summary_follows=out.status.status == "over")
    if out.status.status == "over":
        view = await bot.service.view(game_id, None)
        game = get_game(out.status.ruleset)
        lines.append(game.summary_text(view, out.status.seat_names))
        return Reply(fit(lines, ""))
    if user_id in out.status.waiting_for:
        nxt = turn_panel(await bot.service.turn(game_id, user_id), user_id, undo=undo)
        return Reply(fit(lines, nxt.content), view=nxt.view)
    lines.append(idle_text(out.status))
    return Reply(fit(lines, ""))


def fit(lines: list[str], more: str) -> str:
    """``lines`` then ``more``, dropping the oldest lines after the first to stay within one message."""
    kept = list(lines)
    while len(kept) > 1 and len("\n".join(kept)) + len(more) + 1 > MAX_MESSAGE:
        kept.pop(1)
    text = "\n".join(kept) + (f"\n{more}" if more else "")
    return clip(text, MAX_MESSAGE)


# == the components ==========================================================================
class PanelButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=BUTTON_ID.pattern):
    """One entry of a decision (a choice, a group, a confirmation or the next page) as a button."""

    KIND = "b"  # the custom_id's second field: which panel the button belongs to
    WHAT = "a panel button"  # how the logs and refusals name it
    ANYTIME = False  # whether a click counts whoever's turn it is (a standing order's)
    STALE_TEXT = STALE

    def __init__(self, game_id: str, seq: int, user_id: int, pick: str, key: str, label: str = "Choose", *,
                 row: int | None = None, style: discord.ButtonStyle = discord.ButtonStyle.secondary) -> None:
        self.game_id = game_id
        self.seq = seq
        self.user_id = user_id
        self.pick = pick
        self.key = key
        if pick[0] == "g":
            style = discord.ButtonStyle.primary
        super().__init__(discord.ui.Button(custom_id=f"dp:{self.KIND}:{game_id}:{seq}:{user_id}:{pick}:{key}",
                                           label=clip(label, MAX_BUTTON), style=style, row=row))

    @classmethod
    async def from_custom_id(cls, interaction: Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> PanelButton:
        return cls(match["game"], int(match["seq"]), int(match["user"]), match["pick"], match["key"])

    def answer(self, bot: BotBase, user_id: int, pick: str, key: str) -> Awaitable[Reply]:
        """What a click on ``pick`` asks of the panel this button belongs to."""
        return resolve(bot, self.game_id, user_id, self.seq, pick, key)

    async def interaction_check(self, interaction: Interaction, /) -> bool:
        return await check_clicker(interaction, self.game_id, None, self.WHAT, self.user_id,
                                   anytime=self.ANYTIME)

    async def callback(self, interaction: Interaction) -> None:
        user_id = interaction.user.id
        await run_component(interaction, self.WHAT, self.game_id,
                            lambda bot: self.answer(bot, user_id, self.pick, self.key), stale=self.STALE_TEXT)


class PanelSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=SELECT_ID.pattern):
    """Up to 25 entries of a decision in a select; each value names its entry and key."""

    KIND = "s"  # the custom_id's second field: which panel the select belongs to
    WHAT = "a panel select"  # how the logs and refusals name it
    ANYTIME = False  # whether a choice counts whoever's turn it is (a standing order's)
    STALE_TEXT = STALE
    GONE_TEXT = GONE

    def __init__(self, game_id: str, seq: int, user_id: int, part: int,
                 options: list[discord.SelectOption] | None = None, placeholder: str = "Choose") -> None:
        self.game_id = game_id
        self.seq = seq
        self.user_id = user_id
        self.part = part
        super().__init__(discord.ui.Select(
            custom_id=f"dp:{self.KIND}:{game_id}:{seq}:{user_id}:{part}", placeholder=clip(placeholder, 150),
            options=options or [discord.SelectOption(label="(nothing to choose)", value="-")]))

    @classmethod
    async def from_custom_id(cls, interaction: Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> PanelSelect:
        return cls(match["game"], int(match["seq"]), int(match["user"]), int(match["part"]))

    def answer(self, bot: BotBase, user_id: int, pick: str, key: str) -> Awaitable[Reply]:
        """What choosing ``pick`` asks of the panel this select belongs to."""
        return resolve(bot, self.game_id, user_id, self.seq, pick, key)

    async def interaction_check(self, interaction: Interaction, /) -> bool:
        return await check_clicker(interaction, self.game_id, None, self.WHAT, self.user_id,
                                   anytime=self.ANYTIME)

    async def callback(self, interaction: Interaction) -> None:
        user_id = interaction.user.id
        values = self.item.values
        chosen = VALUE.fullmatch(values[0]) if values else None

        async def work(bot: BotBase) -> Reply:
            if chosen is None:
                return Reply(self.GONE_TEXT)
            return await self.answer(bot, user_id, chosen["pick"], chosen["key"])

        await run_component(interaction, self.WHAT, self.game_id, work, stale=self.STALE_TEXT)


class OpenPanelButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=OPEN_ID.pattern):
    """In the game's thread, for a person whose DMs are closed: opens their decision, to them alone.

    The custom_id names the person it is for; anyone else is refused without a word
    about the decision (which may show hidden information, a drawn card).
    """

    def __init__(self, game_id: str, user_id: int) -> None:
        self.game_id = game_id
        self.user_id = user_id
        super().__init__(discord.ui.Button(custom_id=f"dp:o:{game_id}:{user_id}", label="Show my choices",
                                           style=discord.ButtonStyle.primary))

    @classmethod
    async def from_custom_id(cls, interaction: Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> OpenPanelButton:
        return cls(match["game"], int(match["user"]))

    async def interaction_check(self, interaction: Interaction, /) -> bool:
        return await check_clicker(interaction, self.game_id, None, "the show-my-choices button",
                                   self.user_id)

    async def callback(self, interaction: Interaction) -> None:
        user_id = interaction.user.id
        await run_component(interaction, "the show-my-choices button", self.game_id,
                            lambda bot: panel(bot, self.game_id, user_id))


class UndoButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=UNDO_ID.pattern):
    """"Undo" beside a move just played: takes it back while nothing new has become known.

    Built at the seq right after the move; once anything else happened in the game the
    click is refused as out of date (the service checks again that the move may be undone).
    """

    def __init__(self, game_id: str, seq: int, user_id: int) -> None:
        self.game_id = game_id
        self.seq = seq
        self.user_id = user_id
        super().__init__(discord.ui.Button(custom_id=f"dp:u:{game_id}:{seq}:{user_id}", label="Undo",
                                           style=discord.ButtonStyle.danger, row=4))

    @classmethod
    async def from_custom_id(cls, interaction: Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> UndoButton:
        return cls(match["game"], int(match["seq"]), int(match["user"]))

    async def interaction_check(self, interaction: Interaction, /) -> bool:
        return await check_clicker(interaction, self.game_id, None, "the undo button", self.user_id)

    async def callback(self, interaction: Interaction) -> None:
        user_id = interaction.user.id
        await run_component(interaction, "the undo button", self.game_id,
                            lambda bot: take_back(bot, self.game_id, user_id, self.seq),
                            stale="Too late to undo: the game has moved on since that move.")


PANEL = Kinds(PanelButton, PanelSelect, STALE, GONE)
DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    PanelButton, PanelSelect, OpenPanelButton, UndoButton)

