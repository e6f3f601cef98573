"""``/history ...``: the decisions of History of the World's 5-epoch rules (game id ``history``) on Discord.

Every command here translates an interaction into the caller's legal actions
(from the service) and one ``service.submit`` with the seq those actions were
read at; no rules live here. What the engine refuses comes back as its own
sentence (an unknown or unreachable land, a card not in front of you), always
ephemerally. Autocomplete offers only what is legal now: the lands you may
invade (each with its route: border, caravan or fleet), the cards in front of
you, the targets of the event you are playing.

The draft is hidden information: the set you hold is shown only to you (an
ephemeral answer with every card's text and a select), and what you keep is
never posted. Decisions that come up in the middle of a move (reroll or
accept, siege or retreat, the score-track choice, the targets of an event,
the kingdom) are answered with buttons or a select whose custom_id carries
the game id, the seq they were built at and the person they are for
(:class:`DecisionButton`, :class:`DecisionSelect`); they survive restarts,
anyone else is refused, and an old one is refused as out of date. The draft's
select (:class:`DraftSelect`) carries the card itself instead of a seq,
because both sets are chosen from at once: the other holder's choice moves
the seq without changing what is in front of you.

Without ``game:`` a command is about the caller's one live 5-epoch game (the
one played in this channel first), whatever other games they play.

Standing preferences (``/history prefs``) are sent as the engine's ``prefer``
action, which the engine (``anytime_kinds``) and the service accept from any
seated player at any time.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.discord.base import LIVE, MAX_OPTIONS, CommandBase, Interaction, Reply, clip
from bot.discord.game_group import MAX_BUTTON, MAX_MESSAGE, board_file
from bot.discord.moves import GAME, check_clicker, current, run_component
from bot.models import Outcome
from bot.service import ServiceError
from engine.core import Event
from engine.registry import get_game

if TYPE_CHECKING:
    from bot.discord.client import AnnalsBot

log = logging.getLogger(__name__)

RULESET = "history"
DO_ID = re.compile(
    rf"hist:do:(?P<game>{GAME}):(?P<seq>[0-9]{{1,9}}):(?P<index>[0-9]{{1,3}}):(?P<user>[0-9]{{1,20}})"
)
PICK_ID = re.compile(
    rf"hist:pick:(?P<game>{GAME}):(?P<seq>[0-9]{{1,9}}):(?P<page>[0-9]):(?P<user>[0-9]{{1,20}})"
)
DRAFT_ID = re.compile(rf"hist:draft:(?P<game>{GAME}):(?P<user>[0-9]{{1,20}}):(?P<page>[0-9])")
DRAFT_KINDS = ("draft", "keep", "give")
DRAFT_GONE = (
    "That card is no longer in front of you: the sets have moved on. "
    "Use `/history draft` for the cards you hold now."
)
MAX_BUTTONS = 20  # 4 rows of 5; one row is left for a select
ROUTE_WORDS = {"auto": "auto", "land": "land", "fleet": "sea"}
SKIP = "__skip__"

PREF_WORDS: dict[str, dict[str, str]] = {
    "reroll": {
        "if_losing": "reroll when my die is losing",
        "if_not_winning": "reroll when my die is losing or tied",
        "never": "never reroll",
    },
    "track": {
        "ask": "ask me",
        "up": "gain a point",
        "down": "lose a point",
    },
}


# == the rules' words ============================================================================
def _game() -> Any:
    return get_game(RULESET)


def _rules() -> Any:
    return _game().rules


@lru_cache(maxsize=1)
def _empire_effects() -> Mapping[str, tuple[str, str]]:
    """Empire key -> (effect name, effect text), from the empire data (empty if it cannot be read)."""
    try:
        from engine.history.epochs5_data import load_empires

        return {
            card.key: (card.effect.name, card.effect.text)
            for cards in load_empires().values()
            for card in cards
            if card.effect is not None
        }
    except Exception:  # the cards still show their numbers without the effect's words
        log.warning("could not read the 5-epoch empire texts", exc_info=True)
        return {}


def card_name(key: str) -> str:
    """The name of an event or empire card (the key itself if neither)."""
    rules = _rules()
    if key in rules.events:
        return str(rules.events[key].name)
    if key in rules.empires:
        return str(rules.empires[key].name)
    return key


def card_text(key: str) -> str:
    """What a card does, in a line: an event's text, or an empire's armies, start, aids and effect."""
    rules = _rules()
    if key in rules.events:
        card = rules.events[key]
        saved = " Can be saved for a later epoch." if card.savable else ""
        kind = "kingdom" if card.is_kingdom else "event"
        return f"{kind}, epoch {card.epoch}: {card.text}{saved}"
    if key in rules.empires:
        emp = rules.empires[key]
        parts = [
            f"{emp.armies} armies",
            "start " + " and ".join(emp.starts),
            "marauder (no capitol)" if emp.marauder else str(emp.structure),
        ]
        if emp.fleets:
            parts.append("fleets: " + ", ".join(emp.fleets))
        if emp.caravans:
            parts.append("caravans: " + ", ".join(emp.caravans))
        effect = _empire_effects().get(key)
        text = f"empire, call {emp.order}: " + "; ".join(parts) + "."
        return text + (f" {effect[0]}: {effect[1]}" if effect else "")
    return ""


def describe(notice_type: str, data: Mapping[str, Any]) -> str | None:
    """The engine's own sentence for one of its events (None for bookkeeping)."""
    try:
        text: str | None = _game().describe_event(Event(notice_type, dict(data)))
    except Exception:
        log.warning("no sentence for a %s event", notice_type, exc_info=True)
        return None
    return text


def own_lines(out: Outcome, user_id: int, seq: int) -> list[str]:
    """The sentences of what the caller's action at ``seq`` did (public, or addressed to them)."""
    lines = []
    for notice in out.notices:
        if notice.seq != seq + 1:
            continue  # AI moves that followed are told in the game's thread
        if not notice.is_public and user_id not in notice.audience:
            continue
        text = describe(notice.type, notice.data)
        if text and text not in lines:
            lines.append(text)
    return lines


def battle_open(out: Outcome, land: str, seq: int) -> bool:
    """Whether the battle for ``land`` started by the action at ``seq`` ended in anything but a win."""
    results = [
        n.data.get("outcome")
        for n in out.notices
        if n.seq == seq + 1 and n.type == "battle_result" and n.data.get("land") == land
    ]
    fought = any(n.seq == seq + 1 and n.type == "battle" and n.data.get("land") == land for n in out.notices)
    return fought and (not results or results[-1] != "win")


# == the components ===============================================================================
class DecisionButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=DO_ID.pattern):
    """One of a player's legal actions at ``seq`` (by its index in their list), as a button.

    The custom_id names the game, the seq, the index and the person it was made
    for: anyone else is refused, and so is a press after the game moved on.
    """

    def __init__(
        self,
        game_id: str,
        seq: int,
        index: int,
        user_id: int,
        label: str = "Go",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    ) -> None:
        self.game_id = game_id
        self.seq = seq
        self.index = index
        self.user_id = user_id
        button: discord.ui.Button[Any] = discord.ui.Button(
            custom_id=f"hist:do:{game_id}:{seq}:{index}:{user_id}", label=clip(label, MAX_BUTTON), style=style
        )
        super().__init__(button)

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> DecisionButton:
        return cls(match["game"], int(match["seq"]), int(match["index"]), int(match["user"]))

    async def interaction_check(self, interaction: Interaction, /) -> bool:
        return await check_clicker(interaction, self.game_id, self.seq, "a 5-epoch button", self.user_id)

    async def callback(self, interaction: Interaction) -> None:
        user_id = interaction.user.id
        await run_component(
            interaction,
            "a 5-epoch button",
            self.game_id,
            self.seq,
            lambda bot: play_index(bot, self.game_id, user_id, self.seq, self.index),
        )


class DecisionSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=PICK_ID.pattern):
    """A player's legal actions at ``seq`` in a select (values are their indexes); like the button."""

    def __init__(
        self,
        game_id: str,
        seq: int,
        page: int,
        user_id: int,
        options: list[discord.SelectOption] | None = None,
        placeholder: str = "Choose",
    ) -> None:
        self.game_id = game_id
        self.seq = seq
        self.page = page
        self.user_id = user_id
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=f"hist:pick:{game_id}:{seq}:{page}:{user_id}",
            placeholder=clip(placeholder, 150),
            options=options or [discord.SelectOption(label="(nothing to choose)", value="-1")],
        )
        super().__init__(select)

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> DecisionSelect:
        return cls(match["game"], int(match["seq"]), int(match["page"]), int(match["user"]))

    async def interaction_check(self, interaction: Interaction, /) -> bool:
        return await check_clicker(interaction, self.game_id, self.seq, "a 5-epoch select", self.user_id)

    async def callback(self, interaction: Interaction) -> None:
        user_id = interaction.user.id
        values = self.item.values
        index = int(values[0]) if values and values[0].isdigit() else -1
        await run_component(
            interaction,
            "a 5-epoch select",
            self.game_id,
            self.seq,
            lambda bot: play_index(bot, self.game_id, user_id, self.seq, index),
        )


def draft_value(action: Mapping[str, Any]) -> str:
    """A draft choice as a select value: ``draft:CARD``, ``keep:PILE`` or ``give:PILE:SEAT``."""
    kind = str(action["kind"])
    if kind == "draft":
        return f"draft:{action['card']}"
    if kind == "keep":
        return f"keep:{action['pile']}"
    return f"give:{action['pile']}:{action['to']}"


class DraftSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=DRAFT_ID.pattern):
    """The cards in front of one player during the draft (or the keep/give choice of classic drafting).

    Both sets are chosen from at the same time, so the game's seq moves when the
    other holder chooses: a seq in the custom_id would make this select stale
    for no reason. Its values name the choice itself (the card), which is
    checked against the player's legal actions when it is used: a card no
    longer in front of them (the sets were passed on) is refused as out of date.
    """

    def __init__(
        self,
        game_id: str,
        user_id: int,
        page: int = 0,
        options: list[discord.SelectOption] | None = None,
        placeholder: str = "Choose",
    ) -> None:
        self.game_id = game_id
        self.user_id = user_id
        self.page = page
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=f"hist:draft:{game_id}:{user_id}:{page}",
            placeholder=clip(placeholder, 150),
            options=options or [discord.SelectOption(label="(nothing to choose)", value="-")],
        )
        super().__init__(select)

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> DraftSelect:
        return cls(match["game"], int(match["user"]), int(match["page"]))

    async def interaction_check(self, interaction: Interaction, /) -> bool:
        if interaction.user.id == self.user_id:
            return True
        await interaction.response.defer(ephemeral=True, thinking=True)
        await interaction.followup.send(
            f"These cards are for <@{self.user_id}>, not for you.", ephemeral=True
        )
        return False

    async def callback(self, interaction: Interaction) -> None:
        user_id = interaction.user.id
        values = self.item.values
        choice = values[0] if values else ""
        await run_component(
            interaction, "the draft select", self.game_id, 0, lambda bot: self._work(bot, user_id, choice)
        )

    async def _work(self, bot: AnnalsBot, user_id: int, choice: str) -> tuple[str, discord.ui.View | None]:
        seq, legal = await bot.service.legal_actions(self.game_id, user_id)
        action = next((a for a in legal if a.get("kind") in DRAFT_KINDS and draft_value(a) == choice), None)
        if action is None:
            return DRAFT_GONE, None
        out = await bot.service.submit(self.game_id, user_id, action, seq)
        head = [f"You keep **{card_name(str(action['card']))}**."] if action["kind"] == "draft" else []
        return await after(bot, self.game_id, user_id, seq, out, head)


async def play_index(
    bot: AnnalsBot, game_id: str, user_id: int, seq: int, index: int
) -> tuple[str, discord.ui.View | None]:
    """Submit the caller's legal action number ``index`` at ``seq``; answer with what it did and what next."""
    legal = await current(bot, game_id, user_id, seq)
    if not 0 <= index < len(legal):
        return "That is not one of your choices now; use `/history moves` for your current ones.", None
    out = await bot.service.submit(game_id, user_id, legal[index], seq)
    return await after(bot, game_id, user_id, seq, out)


async def after(
    bot: AnnalsBot, game_id: str, user_id: int, seq: int, out: Outcome, head: list[str] | None = None
) -> tuple[str, discord.ui.View | None]:
    """What the action at ``seq`` did, then the caller's next decision (with its components) if any."""
    lines = (head or []) + own_lines(out, user_id, seq)
    if user_id not in out.status.waiting_for:
        lines.append(
            "Your move is over." if out.status.status == "active" else f"The game is {out.status.status}."
        )
        return clip("\n".join(lines) or "Done.", MAX_MESSAGE), None
    text, view = await prompt(bot, game_id, user_id)
    lines.append(text)
    return clip("\n".join(lines), MAX_MESSAGE), view


def _labels(legal: list[dict[str, Any]]) -> list[str]:
    game = _game()
    return [str(game.action_label(None, game.codec.decode(a))) for a in legal]


def _buttons(
    game_id: str,
    seq: int,
    user_id: int,
    legal: list[dict[str, Any]],
    styles: Mapping[str, discord.ButtonStyle] | None = None,
) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for i, label in enumerate(_labels(legal)[:MAX_BUTTONS]):
        style = (styles or {}).get(str(legal[i]["kind"]), discord.ButtonStyle.secondary)
        view.add_item(DecisionButton(game_id, seq, i, user_id, label[:1].upper() + label[1:], style))
    return view


def _select(
    game_id: str, seq: int, user_id: int, options: list[discord.SelectOption], placeholder: str
) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for page in range(min(5, (len(options) + MAX_OPTIONS - 1) // MAX_OPTIONS)):
        chunk = options[page * MAX_OPTIONS : (page + 1) * MAX_OPTIONS]
        view.add_item(DecisionSelect(game_id, seq, page, user_id, chunk, placeholder))
    return view


def _draft_select(
    game_id: str, user_id: int, options: list[discord.SelectOption], placeholder: str
) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(DraftSelect(game_id, user_id, 0, options[:MAX_OPTIONS], placeholder))
    return view


def _dice(values: Any) -> str:
    return ", ".join(str(v) for v in values) if isinstance(values, list) else "?"


async def prompt(bot: AnnalsBot, game_id: str, user_id: int) -> tuple[str, discord.ui.View | None]:
    """The caller's current decision: a sentence and the buttons or select that make it."""
    seq, legal = await bot.service.legal_actions(game_id, user_id)
    if not legal:
        st = await bot.service.status(game_id)
        why = "it is not your move" if st.status == "active" else f"the game is {st.status}"
        return f"You have nothing to decide in game `{game_id}` now ({why}).", None
    view = await bot.service.view(game_id, user_id)
    you = view.get("you") or {}
    turn = view.get("turn") or {}
    kinds = {str(a["kind"]) for a in legal}
    if "draft" in kinds:
        choosing = you.get("choosing") or {}
        pile = choosing.get("pile", "")
        lines = [f"Choose the {pile} card you keep; the others are passed on. In front of you:"]
        options = []
        for action in legal:
            key = str(action["card"])
            lines.append(f"- **{card_name(key)}** ({card_text(key)})")
            options.append(
                discord.SelectOption(
                    label=clip(card_name(key), 100),
                    value=draft_value(action),
                    description=clip(card_text(key), 100),
                )
            )
        return clip("\n".join(lines), 1800), _draft_select(game_id, user_id, options, f"Keep one {pile} card")
    if kinds & {"keep", "give"}:
        choosing = you.get("choosing") or {}
        pile = str(choosing.get("pile", "the"))
        drawn = [str(c) for c in choosing.get("cards", [])]
        names = await _seat_names(bot, game_id)
        what = f"**{card_name(drawn[0])}** ({card_text(drawn[0])})" if drawn else "a card"
        options = []
        for action in legal:
            if action["kind"] == "keep":
                options.append(discord.SelectOption(label="Keep it", value=draft_value(action)))
            else:
                to = int(action["to"])
                options.append(
                    discord.SelectOption(
                        label=clip(f"Give it to {names.get(to, f'seat {to + 1}')}", 100),
                        value=draft_value(action),
                    )
                )
        return (
            clip(f"You drew the {pile} card {what}: keep it or give it to a player without one.", 1800),
            _draft_select(game_id, user_id, options, "Keep or give"),
        )
    step = str(turn.get("step", ""))
    if step == "reroll":
        battle = turn.get("battle") or {}
        text = (
            f"Battle for {battle.get('land')}: your dice {_dice(battle.get('att'))} against "
            f"{_dice(battle.get('dfd'))}. Reroll one of your dice, or keep them?"
        )
        return text, _buttons(game_id, seq, user_id, legal, {"accept": discord.ButtonStyle.primary})
    if step == "siege":
        battle = turn.get("battle") or {}
        text = (
            f"You lost the battle for {battle.get('land')} (catapult at +{turn.get('catapult', 0)}, "
            f"{turn.get('armies', 0)} armies and {turn.get('siege_tokens', 0)} siege tokens left). "
            "Siege (a piece on the catapult, fight again) or retreat?"
        )
        return text, _buttons(game_id, seq, user_id, legal, {"siege": discord.ButtonStyle.danger})
    if step == "track":
        track = turn.get("track") or {}
        text = (
            f"Your score marker would land on {track.get('at')}, where another marker stands: "
            "gain or lose points until it stands alone?"
        )
        return text, _buttons(game_id, seq, user_id, legal)
    if step == "kingdom":
        text = "You may play your kingdom before your empire, or skip it."
        return text, _buttons(game_id, seq, user_id, legal, {"play": discord.ButtonStyle.primary})
    if step == "target":
        pending = turn.get("pending") or {}
        source = pending.get("card") or pending.get("effect") or "the card"
        labels = _labels(legal)
        options = [
            discord.SelectOption(label=clip(label[:1].upper() + label[1:], 100), value=str(i))
            for i, label in enumerate(labels)
        ]
        name = card_name(str(source))
        return f"Choose a target for {name}.", _select(game_id, seq, user_id, options, "Choose a target")
    armies = turn.get("armies", 0)
    if turn.get("force_kind") == "kingdom":  # enhancements are the empire's, never a kingdom's
        who = "Your kingdom"
        how = "Use `/history invade`, `/history fortify` or `/history stop` (then your empire begins)."
    else:
        who = f"The {turn.get('name', 'empire')}"
        how = "Use `/history invade`, `/history fortify`, `/history event` or `/history stop`."
    return f"{who}: {armies} armies left on the card. {how}", None


async def _seat_names(bot: AnnalsBot, game_id: str) -> dict[int, str]:
    st = await bot.service.status(game_id)
    return {s.seat: s.name for s in st.seats if s.seat is not None}


# == the commands =================================================================================
def _match(text: str, *names: str) -> bool:
    typed = text.strip().lower()
    return any(typed in n.lower() for n in names)


class HistoryGroup(CommandBase, app_commands.Group):
    """``/history ...``: drafting, invading, battles, events and preferences of the 5-epoch rules."""

    def __init__(self, bot: AnnalsBot) -> None:
        super().__init__(name="history", description="Play History of the World, 5-epoch edition")
        self.bot = bot

    # -- shared --------------------------------------------------------------------------------
    async def _history(self, interaction: Interaction, game: str | None) -> str:
        """The 5-epoch game a command is about: the one named, else the caller's live one (here first)."""
        if not (game and game.strip()):
            mine = [
                r
                for r in await self._games_of(interaction.user.id)
                if r.status in LIVE and r.ruleset == RULESET
            ]
            here = [r for r in mine if interaction.channel_id in (r.channel_id, r.thread_id)]
            pick = here or mine
            if len(pick) == 1:  # one 5-epoch game, whatever other games the caller plays
                return pick[0].game_id
        gid = await self._game(interaction, game)
        ruleset = (await self.bot.service.status(gid)).ruleset
        if ruleset != RULESET:
            raise ServiceError(
                "wrong_game",
                f"Game `{gid}` is not played with the 5-epoch rules: use the `/annals` commands there.",
            )
        return gid

    async def _moves(
        self, interaction: Interaction, game: str | None, kinds: tuple[str, ...]
    ) -> tuple[str, int, list[dict[str, Any]]]:
        """(game, seq, the caller's legal actions of ``kinds``); refuses when they have none at all."""
        gid = await self._history(interaction, game)
        return await self._legal(interaction, gid, kinds)

    async def _auto_game(self, interaction: Interaction) -> str | None:
        """For autocomplete: the 5-epoch game the command is about so far, or None."""
        game = getattr(interaction.namespace, "game", None)
        try:
            return await self._history(interaction, game if isinstance(game, str) else None)
        except ServiceError:
            return None

    async def _auto_moves(self, interaction: Interaction, kinds: tuple[str, ...]) -> list[dict[str, Any]]:
        gid = await self._auto_game(interaction)
        if gid is None:
            return []
        try:
            _, legal = await self.bot.service.legal_actions(gid, interaction.user.id)
        except ServiceError:
            return []
        return [a for a in legal if a.get("kind") in kinds]

    async def _submit(
        self, gid: str, user: int, action: dict[str, Any], seq: int, head: list[str] | None = None
    ) -> Reply:
        out = await self.bot.service.submit(gid, user, action, seq)
        text, view = await after(self.bot, gid, user, seq, out, head)
        return Reply(text, view=view)

    async def _one(self, interaction: Interaction, game: str | None, kind: str, refused: str) -> None:
        async def work() -> Reply:
            gid, seq, legal = await self._moves(interaction, game, (kind,))
            if not legal:
                text, view = await prompt(self.bot, gid, interaction.user.id)
                return Reply(f"{refused}\n{text}", view=view)
            return await self._submit(gid, interaction.user.id, legal[0], seq)

        await self._answer(interaction, work, ephemeral=True)

    # -- what now ------------------------------------------------------------------------------
    @app_commands.command(
        name="moves", description="Your current decision, with its buttons (only you see it)"
    )
    @app_commands.describe(game="The game (default: your game in this channel)")
    async def moves(self, interaction: Interaction, game: str | None = None) -> None:
        async def work() -> Reply:
            gid = await self._history(interaction, game)
            user = interaction.user.id
            text, view = await prompt(self.bot, gid, user)
            _, legal = await self.bot.service.legal_actions(gid, user)
            lands = sorted({str(a["land"]) for a in legal if a.get("kind") == "invade"})
            if not lands:
                return Reply(text, view=view)
            # where the empire may invade, outlined on the board (the caller's own view: nothing of others')
            seen = await self.bot.service.view(gid, user)
            picture = await board_file(self.bot, RULESET, gid, seen, highlight=lands, tag="-targets")
            text += "\nYou may invade: " + ", ".join(lands) + " (outlined on the map)."
            return Reply(clip(text, MAX_MESSAGE), files=[picture], view=view)

        await self._answer(interaction, work, ephemeral=True)

    # -- drafting ------------------------------------------------------------------------------
    async def draft_autocomplete(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The cards in front of the caller (the set they hold now), by name."""
        keys = [str(a["card"]) for a in await self._auto_moves(interaction, ("draft",))]
        return [
            app_commands.Choice(name=clip(f"{card_name(k)}: {card_text(k)}", 100), value=k)
            for k in keys
            if _match(current, card_name(k), k)
        ][:MAX_OPTIONS]

    @app_commands.command(
        name="draft", description="See the cards in front of you and keep one (only you see them)"
    )
    @app_commands.describe(
        card="The card you keep (without it: the whole set, with a select)",
        game="The game (default: your game in this channel)",
    )
    async def draft(self, interaction: Interaction, card: str | None = None, game: str | None = None) -> None:
        async def work() -> Reply:
            gid, seq, legal = await self._moves(interaction, game, ("draft",))
            user = interaction.user.id
            if not legal:
                text, view = await prompt(self.bot, gid, user)
                return Reply("You are not choosing from a set of cards now.\n" + text, view=view)
            if not card:
                text, view = await prompt(self.bot, gid, user)
                return Reply(text, view=view)
            wanted = card.strip().lower()
            action = next(
                (
                    a
                    for a in legal
                    if str(a["card"]).lower() == wanted or card_name(str(a["card"])).lower() == wanted
                ),
                None,
            )
            if action is None:  # the engine says why (another set, or not in front of you)
                action = {"kind": "draft", "card": card.strip()}
            return await self._submit(
                gid, user, action, seq, [f"You keep **{card_name(str(action['card']))}**."]
            )

        await self._answer(interaction, work, ephemeral=True)

    @app_commands.command(name="keep", description="Classic drafting: keep the card you drew")
    @app_commands.describe(game="The game (default: your game in this channel)")
    async def keep(self, interaction: Interaction, game: str | None = None) -> None:
        await self._one(interaction, game, "keep", "You have no drawn card you may keep now.")

    async def give_autocomplete(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The players the drawn card may be given to."""
        gives = await self._auto_moves(interaction, ("give",))
        gid = await self._auto_game(interaction)
        if not gives or gid is None:
            return []
        names = await _seat_names(self.bot, gid)
        out = []
        for a in gives:
            to = int(a["to"])
            name = f"{names.get(to, 'seat')} (seat {to + 1})"
            if _match(current, name):
                out.append(app_commands.Choice(name=clip(name, 100), value=str(to + 1)))
        return out[:MAX_OPTIONS]

    @app_commands.command(
        name="give", description="Classic drafting: give the card you drew to another player"
    )
    @app_commands.describe(
        to="The seat to give it to (only players without a card of that set)",
        game="The game (default: your game in this channel)",
    )
    async def give(self, interaction: Interaction, to: str, game: str | None = None) -> None:
        async def work() -> Reply:
            gid, seq, legal = await self._moves(interaction, game, ("give",))
            wanted = to.strip().split()[0] if to.strip() else ""
            action = next((a for a in legal if str(int(a["to"]) + 1) == wanted), None)
            if action is None:
                names = await _seat_names(self.bot, gid)
                allowed = ", ".join(
                    f"{names.get(int(a['to']), '?')} (seat {int(a['to']) + 1})" for a in legal
                )
                return Reply(
                    f"You cannot give the card to seat {to} now."
                    + (f" You may give it to: {allowed}." if allowed else "")
                )
            return await self._submit(gid, interaction.user.id, action, seq)

        await self._answer(interaction, work, ephemeral=True)

    # -- the kingdom ---------------------------------------------------------------------------
    async def kingdom_autocomplete(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The kingdoms of this epoch in the caller's hand, and skipping them."""
        acts = await self._auto_moves(interaction, ("play", "done"))
        if not any(a["kind"] == "done" for a in acts):
            return []
        out = [
            app_commands.Choice(
                name=clip(f"{card_name(str(a['card']))}: {card_text(str(a['card']))}", 100),
                value=str(a["card"]),
            )
            for a in acts
            if a["kind"] == "play" and _match(current, card_name(str(a["card"])))
        ]
        if _match(current, "skip"):
            out.append(app_commands.Choice(name="Skip the kingdom", value=SKIP))
        return out[:MAX_OPTIONS]

    @app_commands.command(name="kingdom", description="Play your kingdom before your empire, or skip it")
    @app_commands.describe(card="The kingdom (or skip)", game="The game (default: your game in this channel)")
    async def kingdom(self, interaction: Interaction, card: str, game: str | None = None) -> None:
        async def work() -> Reply:
            gid, seq, legal = await self._moves(interaction, game, ("play", "done"))
            view = await self.bot.service.view(gid, interaction.user.id)
            if (view.get("turn") or {}).get("step") != "kingdom":
                return Reply("There is no kingdom to play now: kingdoms come before your empire.")
            if card == SKIP or card.strip().lower() == "skip":
                action = next(a for a in legal if a["kind"] == "done")
            else:
                wanted = card.strip().lower()
                found = next(
                    (
                        a
                        for a in legal
                        if a["kind"] == "play"
                        and wanted in (str(a["card"]).lower(), card_name(str(a["card"])).lower())
                    ),
                    None,
                )
                action = found or {"kind": "play", "card": card.strip()}
            return await self._submit(gid, interaction.user.id, action, seq)

        await self._answer(interaction, work, ephemeral=True)

    # -- invading ------------------------------------------------------------------------------
    async def _routes(self, gid: str, user: int, lands: list[str]) -> dict[str, str]:
        """How each land is reached now: border, caravan, fleet (or several)."""
        from engine.history.epochs5.reach import reach

        view = await self.bot.service.view(gid, user)
        turn = view.get("turn") or {}
        force = turn.get("force")
        wmap = _rules().map
        sources = [
            land for land, army in view["board"]["armies"].items() if len(army) > 1 and army[1] == force
        ]
        found = reach(wmap, sources, list(turn.get("fleets", [])), list(turn.get("caravans", [])))
        near = {n for s in sources for n in wmap.neighbours(s)}
        out = {}
        for land in lands:
            ways = []
            if land in near:
                ways.append("border")
            elif land in found.by_land:
                ways.append("caravan")
            if land in found.by_sea:
                ways.append("fleet")
            out[land] = " or ".join(ways) or "after a battle won"
        return out

    async def land_autocomplete(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Only the lands the caller may invade now, with the route; in ``lands`` completes the last name."""
        acts = await self._auto_moves(interaction, ("invade",))
        lands = sorted({str(a["land"]) for a in acts})
        gid = await self._auto_game(interaction)
        if not lands or gid is None:
            return []
        routes = await self._routes(gid, interaction.user.id, lands)
        view = await self.bot.service.view(gid, None)
        armies = view["board"]["armies"]
        head, comma, last = current.rpartition(",")
        prefix = f"{head.strip()}, " if comma else ""
        out = []
        for land in lands:
            if not _match(last, land):
                continue
            value = f"{prefix}{land}"
            held = " (held: battle)" if land in armies else ""
            if len(value) <= 100:
                out.append(
                    app_commands.Choice(name=clip(f"{value} - by {routes[land]}{held}", 100), value=value)
                )
        return out[:MAX_OPTIONS]

    @app_commands.command(name="invade", description="Invade a territory, or several in order")
    @app_commands.describe(
        land="The territory (only legal ones are offered, with their route)",
        lands="Several, comma separated, tried in order; stops at the first battle not won",
        route="By land (border, strait, caravan) or with your fleet (default: as possible)",
        game="The game (default: your game in this channel)",
    )
    @app_commands.choices(
        route=[
            app_commands.Choice(name="as possible", value="auto"),
            app_commands.Choice(name="by land (border, strait or caravan)", value="land"),
            app_commands.Choice(name="with a fleet", value="fleet"),
        ]
    )
    async def invade(
        self,
        interaction: Interaction,
        land: str | None = None,
        lands: str | None = None,
        route: str = "auto",
        game: str | None = None,
    ) -> None:
        async def work() -> Reply:
            names = [land.strip()] if land else [x.strip() for x in (lands or "").split(",") if x.strip()]
            if not names:
                return Reply('Name a territory with `land:` or several with `lands:"A, B"`.')
            gid, seq, legal = await self._moves(interaction, game, ("invade",))
            user = interaction.user.id
            way = ROUTE_WORDS.get(route, "auto")
            lines: list[str] = []
            out: Outcome | None = None
            for i, name in enumerate(names):
                if i:
                    seq, all_legal = await self.bot.service.legal_actions(gid, user)
                    legal = [a for a in all_legal if a.get("kind") == "invade"]
                    if not legal:
                        lines.append(f"You cannot invade any more now ({', '.join(names[i:])} not tried).")
                        break
                action = next(
                    (
                        a
                        for a in legal
                        if str(a["land"]).lower() == name.lower() and str(a.get("route", "auto")) == way
                    ),
                    None,
                )
                if action is None:  # not offered: the engine gives the reason
                    action = {"kind": "invade", "land": name, "route": way}
                try:
                    out = await self.bot.service.submit(gid, user, action, seq)
                except ServiceError as exc:
                    if not lines:
                        raise
                    lines.append(f"{name}: {exc.message} Stopped there.")
                    out = None
                    break
                lines += own_lines(out, user, seq)
                target = next(
                    (
                        str(n.data["land"])
                        for n in out.notices
                        if n.seq == seq + 1 and n.type == "invaded" and "land" in n.data
                    ),
                    name,
                )
                rest = names[i + 1 :]
                if battle_open(out, target, seq):
                    if rest:
                        lines.append(
                            f"The battle for {target} is not won: stopped ({', '.join(rest)} not tried)."
                        )
                    break
                if user not in out.status.waiting_for:
                    if rest:
                        lines.append("Your move is over; the other territories were not tried.")
                    break
            if out is None or user not in out.status.waiting_for:
                if out is not None:
                    lines.append("Your move is over.")
                return Reply(clip("\n".join(lines), MAX_MESSAGE))
            text, view = await prompt(self.bot, gid, user)
            return Reply(clip("\n".join([*lines, text]), MAX_MESSAGE), view=view)

        await self._answer(interaction, work, ephemeral=True)

    # -- battles -------------------------------------------------------------------------------
    @app_commands.command(
        name="siege", description="After a lost battle: put a piece on the catapult and fight again"
    )
    @app_commands.describe(game="The game (default: your game in this channel)")
    async def siege(self, interaction: Interaction, game: str | None = None) -> None:
        await self._one(interaction, game, "siege", "There is no lost battle to siege now.")

    @app_commands.command(name="retreat", description="After a lost battle: give up that territory")
    @app_commands.describe(game="The game (default: your game in this channel)")
    async def retreat(self, interaction: Interaction, game: str | None = None) -> None:
        await self._one(interaction, game, "retreat", "There is no lost battle to retreat from now.")

    @app_commands.command(name="reroll", description="During a battle: reroll one of your dice")
    @app_commands.describe(
        die="Which of your dice (1 or 2)", game="The game (default: your game in this channel)"
    )
    @app_commands.choices(
        die=[app_commands.Choice(name="die 1", value=1), app_commands.Choice(name="die 2", value=2)]
    )
    async def reroll(self, interaction: Interaction, die: int, game: str | None = None) -> None:
        async def work() -> Reply:
            gid, seq, legal = await self._moves(interaction, game, ("reroll",))
            action = next((a for a in legal if int(a["die"]) == die - 1), None)
            if action is None:
                text, view = await prompt(self.bot, gid, interaction.user.id)
                return Reply("You have no reroll to make now.\n" + text, view=view)
            return await self._submit(gid, interaction.user.id, action, seq)

        await self._answer(interaction, work, ephemeral=True)

    @app_commands.command(name="accept", description="During a battle: keep your dice (pass on your reroll)")
    @app_commands.describe(game="The game (default: your game in this channel)")
    async def accept(self, interaction: Interaction, game: str | None = None) -> None:
        await self._one(interaction, game, "accept", "You have no reroll to pass on now.")

    # -- events and targets --------------------------------------------------------------------
    async def event_autocomplete(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The event cards the caller may play now (enhancements, or the kingdom at its step)."""
        keys = sorted({str(a["card"]) for a in await self._auto_moves(interaction, ("play",))})
        return [
            app_commands.Choice(name=clip(f"{card_name(k)}: {card_text(k)}", 100), value=k)
            for k in keys
            if _match(current, card_name(k), k)
        ][:MAX_OPTIONS]

    @app_commands.command(name="event", description="Play an event card (an enhancement, or your kingdom)")
    @app_commands.describe(
        card="The card (only cards you may play now are offered)",
        game="The game (default: your game in this channel)",
    )
    async def event(self, interaction: Interaction, card: str, game: str | None = None) -> None:
        async def work() -> Reply:
            gid, seq, legal = await self._moves(interaction, game, ("play",))
            wanted = card.strip().lower()
            action = next(
                (a for a in legal if wanted in (str(a["card"]).lower(), card_name(str(a["card"])).lower())),
                None,
            )
            if action is None:  # the engine says why (not in hand, not now, not savable...)
                rules = _rules()
                key = next((k for k, c in rules.events.items() if c.name.lower() == wanted), card.strip())
                action = {"kind": "play", "card": key}
            return await self._submit(gid, interaction.user.id, action, seq)

        await self._answer(interaction, work, ephemeral=True)

    async def target_autocomplete(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The targets the pending event may take now."""
        targets = [str(a["target"]) for a in await self._auto_moves(interaction, ("choose",))]
        return [app_commands.Choice(name=clip(t, 100), value=t[:100]) for t in targets if _match(current, t)][
            :MAX_OPTIONS
        ]

    @app_commands.command(name="target", description="Choose a target for the event you are playing")
    @app_commands.describe(
        target="A territory, sea or barren land (only legal targets are offered)",
        game="The game (default: your game in this channel)",
    )
    async def target(self, interaction: Interaction, target: str, game: str | None = None) -> None:
        async def work() -> Reply:
            gid, seq, legal = await self._moves(interaction, game, ("choose",))
            if not legal:
                text, view = await prompt(self.bot, gid, interaction.user.id)
                return Reply("No event waits for a target now.\n" + text, view=view)
            action = next(
                (a for a in legal if str(a["target"]).lower() == target.strip().lower()),
                {"kind": "choose", "target": target.strip()},
            )
            return await self._submit(gid, interaction.user.id, action, seq)

        await self._answer(interaction, work, ephemeral=True)

    @app_commands.command(name="done", description="Stop choosing targets, or skip your kingdom")
    @app_commands.describe(game="The game (default: your game in this channel)")
    async def done(self, interaction: Interaction, game: str | None = None) -> None:
        await self._one(interaction, game, "done", "There is nothing to finish now.")

    # -- forts, stopping -----------------------------------------------------------------------
    async def fort_autocomplete(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The territories of the active empire where a fort may go now."""
        lands = sorted({str(a["land"]) for a in await self._auto_moves(interaction, ("fortify",))})
        return [app_commands.Choice(name=x, value=x) for x in lands if _match(current, x)][:MAX_OPTIONS]

    @app_commands.command(
        name="fortify", description="Spend an army from the card on a fort where your empire stands"
    )
    @app_commands.describe(
        land="The territory (only legal ones are offered)",
        game="The game (default: your game in this channel)",
    )
    async def fortify(self, interaction: Interaction, land: str, game: str | None = None) -> None:
        async def work() -> Reply:
            gid, seq, legal = await self._moves(interaction, game, ("fortify",))
            action = next(
                (a for a in legal if str(a["land"]).lower() == land.strip().lower()),
                {"kind": "fortify", "land": land.strip()},
            )
            return await self._submit(gid, interaction.user.id, action, seq)

        await self._answer(interaction, work, ephemeral=True)

    @app_commands.command(
        name="stop", description="Stop invading: monuments, resign and score (asks to confirm)"
    )
    @app_commands.describe(game="The game (default: your game in this channel)")
    async def stop(self, interaction: Interaction, game: str | None = None) -> None:
        async def work() -> Reply:
            gid, seq, legal = await self._moves(interaction, game, ("stop",))
            if not legal:
                text, view = await prompt(self.bot, gid, interaction.user.id)
                return Reply("You cannot stop invading now.\n" + text, view=view)
            _, everything = await self.bot.service.legal_actions(gid, interaction.user.id)
            index = everything.index(legal[0])
            view = discord.ui.View(timeout=None)
            view.add_item(
                DecisionButton(
                    gid, seq, index, interaction.user.id, "Yes, stop invading", discord.ButtonStyle.danger
                )
            )
            armies = ((await self.bot.service.view(gid, interaction.user.id)).get("turn") or {}).get(
                "armies", 0
            )
            return Reply(
                f"Stop invading in game `{gid}`? The {armies} armies left on the card go back.", view=view
            )

        await self._answer(interaction, work, ephemeral=True)

    # -- the score track and preferences --------------------------------------------------------
    @app_commands.command(
        name="track", description="Your score marker landed on another: gain or lose points"
    )
    @app_commands.describe(
        direction="Move it up (gain) or down (lose) until it stands alone",
        game="The game (default: your game in this channel)",
    )
    @app_commands.choices(
        direction=[
            app_commands.Choice(name="up: gain points", value="up"),
            app_commands.Choice(name="down: lose points", value="down"),
        ]
    )
    async def track(self, interaction: Interaction, direction: str, game: str | None = None) -> None:
        async def work() -> Reply:
            gid, seq, legal = await self._moves(interaction, game, ("track",))
            action = next((a for a in legal if a["direction"] == direction), None)
            if action is None:
                text, view = await prompt(self.bot, gid, interaction.user.id)
                return Reply("Your score marker does not share a space now.\n" + text, view=view)
            return await self._submit(gid, interaction.user.id, action, seq)

        await self._answer(interaction, work, ephemeral=True)

    @app_commands.command(
        name="prefs", description="Your standing choices when you are not asked (show or set)"
    )
    @app_commands.describe(
        reroll="As a defender against a fleet: when to reroll your die",
        track="When your score marker lands on another's space",
        game="The game (default: your game in this channel)",
    )
    @app_commands.choices(
        reroll=[app_commands.Choice(name=w, value=k) for k, w in PREF_WORDS["reroll"].items()],
        track=[app_commands.Choice(name=w, value=k) for k, w in PREF_WORDS["track"].items()],
    )
    async def prefs(
        self,
        interaction: Interaction,
        reroll: str | None = None,
        track: str | None = None,
        game: str | None = None,
    ) -> None:
        async def work() -> Reply:
            gid = await self._history(interaction, game)
            user = interaction.user.id
            lines = []
            for key, value in (("reroll", reroll), ("track", track)):
                if value is None:
                    continue
                seq = (await self.bot.service.status(gid)).seq
                try:
                    await self.bot.service.submit(
                        gid, user, {"kind": "prefer", "key": key, "value": value}, seq
                    )
                except ServiceError as exc:
                    lines.append(exc.message)
                    break
                lines.append(f"From now on, {key}: {PREF_WORDS[key][value]}.")
            you = (await self.bot.service.view(gid, user)).get("you")
            if not you:
                return Reply(f"You have no seat in game `{gid}`.")
            now = you.get("prefs") or {}
            lines.append(
                "Your preferences: "
                + "; ".join(
                    f"{k}: {PREF_WORDS.get(k, {}).get(str(v), str(v))}" for k, v in sorted(now.items())
                )
                + "."
            )
            return Reply("\n".join(lines))

        await self._answer(interaction, work, ephemeral=True)

    draft.autocomplete("card")(draft_autocomplete)
    give.autocomplete("to")(give_autocomplete)
    kingdom.autocomplete("card")(kingdom_autocomplete)
    invade.autocomplete("land")(land_autocomplete)
    invade.autocomplete("lands")(land_autocomplete)
    event.autocomplete("card")(event_autocomplete)
    target.autocomplete("target")(target_autocomplete)
    fortify.autocomplete("land")(fort_autocomplete)
    for _command in (
        moves,
        draft,
        keep,
        give,
        kingdom,
        invade,
        siege,
        retreat,
        reroll,
        accept,
        event,
        target,
        done,
        fortify,
        stop,
        track,
        prefs,
    ):
        _command.autocomplete("game")(CommandBase.game_autocomplete)
    del _command


def install(bot: AnnalsBot) -> None:
    """Add ``/history`` to the bot's command tree and register its buttons and selects."""
    bot.tree.add_command(HistoryGroup(bot))
    bot.add_dynamic_items(DecisionButton, DecisionSelect, DraftSelect)
