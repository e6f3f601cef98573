"""Dedicated moves of the classic rules: keep/give selects, card targets, the end-turn confirmation.

Every component is a :class:`discord.ui.DynamicItem` whose custom_id carries
the game id and the seq it was built at, so it still works after a restart
(registered in ``setup_hook``) and a stale one answers that the board is out
of date. No rules here: the legal actions come from the service and every
choice goes through ``service.submit`` with the seq the player saw.

Who may click is checked in each item's ``interaction_check`` (see
:func:`check_clicker`). discord.py drops a dynamic item's interaction without
a word when that check fails (and treats an exception there as a failure),
so the check itself defers and answers the refusal ephemerally before
returning False: the person always learns why nothing happened.
"""

from __future__ import annotations

import io
import logging
import re
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord

from bot.models import Outcome
from bot.service import ServiceError

if TYPE_CHECKING:
    from bot.discord.client import AnnalsBot

log = logging.getLogger(__name__)

APOLOGY = "Sorry, something went wrong on my side; nothing more was done. The error has been logged."
OUT_OF_DATE = ("This board is out of date: the game has moved on. "
               "Use `/annals play` again for your current moves.")
GAME = r"[a-z0-9]{1,32}"
GIVE_ID = re.compile(rf"annals:give:(?P<game>{GAME}):(?P<seq>[0-9]{{1,9}})")
TARGET_ID = re.compile(rf"annals:target:(?P<game>{GAME}):(?P<seq>[0-9]{{1,9}})")
END_TURN_ID = re.compile(rf"annals:endturn:(?P<game>{GAME}):(?P<seq>[0-9]{{1,9}})")
DRAW_ID = re.compile(rf"annals:draw:(?P<game>{GAME}):(?P<seq>[0-9]{{1,9}}):(?P<user>[0-9]{{1,20}})")
DONE = "__done__"
MAX_OPTIONS = 25

Interaction = discord.Interaction[Any]
Answer = tuple[str, discord.ui.View | None] | tuple[str, discord.ui.View | None, list[discord.File]]


def bot_of(interaction: Interaction) -> AnnalsBot:
    """The bot an interaction reached."""
    from bot.discord.client import AnnalsBot

    bot = interaction.client
    assert isinstance(bot, AnnalsBot)
    return bot


async def run_component(interaction: Interaction, what: str, game_id: str, seq: int | None,
                        work: Callable[[AnnalsBot], Awaitable[Answer]], *, stale: str = OUT_OF_DATE) -> None:
    """Defer (unless the check did), run ``work``, answer ephemerally; refusals become polite sentences
    (``stale`` when the game moved on: each game's group names its own command there)."""
    if not interaction.response.is_done():
        await interaction.response.defer(ephemeral=True, thinking=True)
    view: discord.ui.View | None = None
    files: list[discord.File] = []
    try:
        answer = await work(bot_of(interaction))
        text, view = answer[0], answer[1]
        if len(answer) == 3:
            files = answer[2]
    except ServiceError as exc:
        text = stale if exc.code == "stale" else exc.message
    except Exception:
        log.exception("%s failed (user %s, game %s, seq %s)", what, interaction.user.id, game_id, seq)
        text = APOLOGY
    if view is not None:
        await interaction.followup.send(text, files=files, view=view, ephemeral=True)
    else:
        await interaction.followup.send(text, files=files, ephemeral=True)


async def refusal(bot: AnnalsBot, user_id: int, game_id: str, seq: int,
                  for_user: int | None = None) -> str | None:
    """Why ``user_id`` may not use a component of ``game_id`` built at ``seq`` (None: they may).

    Only the person a component was made for (``for_user``), seated in the game
    and holding their seat themselves, whose move it is, on the board as it was
    when the component was made.
    """
    if for_user is not None and user_id != for_user:
        return f"This button is for {'<@' + str(for_user) + '>'}, not for you."
    try:
        st = await bot.service.status(game_id)
    except ServiceError as exc:
        return exc.message
    seat = next((s for s in st.seats if s.user_id == user_id), None)
    if seat is None or seat.seat is None:
        return f"You have no seat in game `{game_id}`."
    if seat.is_ai:
        return f"The AI holds your seat in game `{game_id}`; take it back first."
    if st.status != "active":
        return f"Game `{game_id}` is {st.status}."
    if st.seq != seq:
        return OUT_OF_DATE
    if user_id not in st.waiting_for:
        return f"It is not your move in game `{game_id}` now."
    return None


async def check_clicker(interaction: Interaction, game_id: str, seq: int | None, what: str,
                        for_user: int | None = None, *, stale: str = OUT_OF_DATE) -> bool:
    """``interaction_check`` of every component: defer, then allow or refuse out loud (only to the
    clicker). ``seq`` None: a component valid at any seq; ``stale``: what to say when it is out of date."""
    try:
        await interaction.response.defer(ephemeral=True, thinking=True)
        bot = bot_of(interaction)
        if seq is None:
            seq = (await bot.service.status(game_id)).seq
        reason = await refusal(bot, interaction.user.id, game_id, seq, for_user)
    except Exception:
        log.exception("checking a click on %s failed (user %s, game %s, seq %s)", what, interaction.user.id,
                      game_id, seq)
        reason = APOLOGY
    if reason is None:
        return True
    if reason == OUT_OF_DATE:
        reason = stale
    try:
        await interaction.followup.send(reason, ephemeral=True)
    except discord.HTTPException as exc:
        log.warning("could not send the refusal for %s to user %s: %s", what, interaction.user.id, exc)
    return False


async def current(bot: AnnalsBot, game_id: str, user_id: int, seq: int) -> list[dict[str, Any]]:
    """The caller's legal actions, refusing politely when the game moved on since ``seq``."""
    now, legal = await bot.service.legal_actions(game_id, user_id)
    if now != seq:
        raise ServiceError("stale", OUT_OF_DATE)
    if not legal:
        raise ServiceError("not_your_turn", f"It is not your move in game `{game_id}` now.")
    return legal


def _rules(ruleset: str) -> Any:
    from engine.registry import get_game

    return getattr(get_game(ruleset), "rules", None)


# == drawing: keep or give ================================================================
async def draw_components(bot: AnnalsBot, game_id: str,
                          user_id: int) -> tuple[str, list[discord.File], discord.ui.View] | None:
    """A line naming the drawn empire card, its picture and the keep/give select (None: nothing to decide)."""
    seq, legal = await bot.service.legal_actions(game_id, user_id)
    if not any(a.get("kind") in ("keep", "give") for a in legal):
        return None
    st = await bot.service.status(game_id)
    rules = _rules(st.ruleset)
    view_data = await bot.service.view(game_id, user_id)
    drawn = (view_data.get("you") or {}).get("drawn")
    files: list[discord.File] = []
    name = rules.empires[drawn].name if rules is not None and drawn in rules.empires else "an empire card"
    line = f"You drew **{name}**: keep it or give it to a player who has none."
    if rules is not None and drawn:
        from render.cards import empire_card

        png = await bot.render(empire_card, drawn, width=400, rules=rules)
        files.append(discord.File(io.BytesIO(png), filename="empire-card.png"))
    names = {s.seat: s.name for s in st.seats if s.seat is not None}
    options = []
    for action in legal:
        if action.get("kind") == "keep":
            options.append(discord.SelectOption(label="Keep the card", value="keep"))
        elif action.get("kind") == "give":
            to = int(action["to"])
            options.append(discord.SelectOption(label=f"Give it to {names.get(to, f'seat {to + 1}')}"[:100],
                                                value=f"give:{to}"))
    view = discord.ui.View(timeout=None)
    view.add_item(GiveSelect(game_id, seq, options[:MAX_OPTIONS]))
    return line, files, view


class GiveSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=GIVE_ID.pattern):
    """Keep the drawn empire card or give it to one of the players who may receive it."""

    def __init__(self, game_id: str, seq: int, options: list[discord.SelectOption] | None = None) -> None:
        self.game_id = game_id
        self.seq = seq
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=f"annals:give:{game_id}:{seq}", placeholder="Keep the card or give it away",
            options=options or [discord.SelectOption(label="Keep the card", value="keep")])
        super().__init__(select)

    @classmethod
    async def from_custom_id(cls, interaction: Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> GiveSelect:
        return cls(match["game"], int(match["seq"]))

    async def interaction_check(self, interaction: Interaction, /) -> bool:
        return await check_clicker(interaction, self.game_id, self.seq, "the give select")

    async def callback(self, interaction: Interaction) -> None:
        user_id = interaction.user.id
        await run_component(interaction, "the give select", self.game_id, self.seq,
                            lambda bot: self._work(bot, user_id))

    async def _work(self, bot: AnnalsBot, user_id: int) -> Answer:
        values = self.item.values
        choice = values[0] if values else ""
        legal = await current(bot, self.game_id, user_id, self.seq)
        if choice == "keep":
            wanted = [a for a in legal if a.get("kind") == "keep"]
        else:
            to = choice.partition(":")[2]
            wanted = [a for a in legal if a.get("kind") == "give" and str(a.get("to")) == to]
        if not wanted:
            return "That is not one of your choices now; use `/annals play` again.", None
        out = await bot.service.submit(self.game_id, user_id, wanted[0], self.seq)
        label = (await bot.labels(self.game_id, [wanted[0]]))[0]
        return f"Done: {label}." + still_yours(out, user_id), None


def still_yours(out: Outcome, user_id: int) -> str:
    return " It is still your move." if user_id in out.status.waiting_for else ""


class DrawButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=DRAW_ID.pattern):
    """In the game's thread, for a drawer whose DMs are closed: shows them, and only them, the card.

    The custom_id names the person it is for; anyone else pressing it is refused
    without a word about the card. The answer is ephemeral: the card's picture
    and the same keep/give select a DM would carry.
    """

    def __init__(self, game_id: str, seq: int, user_id: int) -> None:
        self.game_id = game_id
        self.seq = seq
        self.user_id = user_id
        button: discord.ui.Button[Any] = discord.ui.Button(
            custom_id=f"annals:draw:{game_id}:{seq}:{user_id}", label="Show my empire card",
            style=discord.ButtonStyle.primary)
        super().__init__(button)

    @classmethod
    async def from_custom_id(cls, interaction: Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> DrawButton:
        return cls(match["game"], int(match["seq"]), int(match["user"]))

    async def interaction_check(self, interaction: Interaction, /) -> bool:
        return await check_clicker(interaction, self.game_id, self.seq, "the draw button", self.user_id)

    async def callback(self, interaction: Interaction) -> None:
        user_id = interaction.user.id
        await run_component(interaction, "the draw button", self.game_id, self.seq,
                            lambda bot: self._work(bot, user_id))

    async def _work(self, bot: AnnalsBot, user_id: int) -> Answer:
        offer = await draw_components(bot, self.game_id, user_id)
        if offer is None:
            return "You have no empire card to place now.", None
        line, files, view = offer
        return line, view, files


# == event cards: targets =================================================================
def target_view(game_id: str, seq: int, legal: list[dict[str, Any]]) -> discord.ui.View | None:
    """A select of the pending card's candidate targets (and "done" when allowed), or None."""
    targets = [str(a["target"]) for a in legal if a.get("kind") == "choose"]
    if not targets:
        return None
    options = [discord.SelectOption(label=t[:100], value=t[:100]) for t in targets]
    if any(a.get("kind") == "done" for a in legal):
        options = [*options[: MAX_OPTIONS - 1], discord.SelectOption(label="No more targets", value=DONE)]
    view = discord.ui.View(timeout=None)
    view.add_item(TargetSelect(game_id, seq, options[:MAX_OPTIONS]))
    return view


class TargetSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=TARGET_ID.pattern):
    """Choose a target for the event card being resolved (one at a time, until the card is done)."""

    def __init__(self, game_id: str, seq: int, options: list[discord.SelectOption] | None = None) -> None:
        self.game_id = game_id
        self.seq = seq
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=f"annals:target:{game_id}:{seq}", placeholder="Choose a target",
            options=options or [discord.SelectOption(label="No more targets", value=DONE)])
        super().__init__(select)

    @classmethod
    async def from_custom_id(cls, interaction: Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> TargetSelect:
        return cls(match["game"], int(match["seq"]))

    async def interaction_check(self, interaction: Interaction, /) -> bool:
        return await check_clicker(interaction, self.game_id, self.seq, "the target select")

    async def callback(self, interaction: Interaction) -> None:
        user_id = interaction.user.id
        await run_component(interaction, "the target select", self.game_id, self.seq,
                            lambda bot: self._work(bot, user_id))

    async def _work(self, bot: AnnalsBot, user_id: int) -> Answer:
        values = self.item.values
        choice = values[0] if values else ""
        legal = await current(bot, self.game_id, user_id, self.seq)
        if choice == DONE:
            wanted = [a for a in legal if a.get("kind") == "done"]
        else:
            wanted = [a for a in legal if a.get("kind") == "choose" and str(a.get("target"))[:100] == choice]
        if not wanted:
            return "That is not one of your choices now; use `/annals play` again.", None
        out = await bot.service.submit(self.game_id, user_id, wanted[0], self.seq)
        said = "No more targets." if choice == DONE else f"Target: {wanted[0]['target']}."
        said += "".join(f"\n{line}" for line in battle_lines(out))
        seq, legal = await bot.service.legal_actions(self.game_id, user_id)
        view = target_view(self.game_id, seq, legal)
        if view is not None:
            return said + "\nChoose the next target:", view
        return said + still_yours(out, user_id), None


# == ending the turn =====================================================================
class EndTurnButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=END_TURN_ID.pattern):
    """The confirmation of ``/annals end-turn``: only a press ends the turn."""

    def __init__(self, game_id: str, seq: int) -> None:
        self.game_id = game_id
        self.seq = seq
        button: discord.ui.Button[Any] = discord.ui.Button(
            custom_id=f"annals:endturn:{game_id}:{seq}", label="Yes, end my turn",
            style=discord.ButtonStyle.danger)
        super().__init__(button)

    @classmethod
    async def from_custom_id(cls, interaction: Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> EndTurnButton:
        return cls(match["game"], int(match["seq"]))

    async def interaction_check(self, interaction: Interaction, /) -> bool:
        return await check_clicker(interaction, self.game_id, self.seq, "the end-turn button")

    async def callback(self, interaction: Interaction) -> None:
        user_id = interaction.user.id
        await run_component(interaction, "the end-turn button", self.game_id, self.seq,
                            lambda bot: self._work(bot, user_id))

    async def _work(self, bot: AnnalsBot, user_id: int) -> Answer:
        legal = await current(bot, self.game_id, user_id, self.seq)
        wanted = [a for a in legal if a.get("kind") == "end_turn"]
        if not wanted:
            return "You cannot end your turn now.", None
        out = await bot.service.submit(self.game_id, user_id, wanted[0], self.seq)
        return "Your turn is over: monuments are built and the scores are in the game's thread." + \
            still_yours(out, user_id), None


# == battles ===============================================================================
def battle_lines(out: Outcome) -> list[str]:
    """The public sentences of an outcome's battles (with their dice)."""
    from bot.discord.transport import describe

    lines = []
    for notice in out.notices:
        if notice.is_public and notice.type in ("battle", "fleet_battle", "leader_killed"):
            text = describe(notice, out.status.ruleset)
            if text:
                lines.append(text)
    return lines


def lost_battle(out: Outcome, player: int | None, land: str) -> bool:
    """Whether the last battle ``player`` fought for ``land`` in this outcome was lost (or tied)."""
    last = None
    for notice in out.notices:
        data = notice.data
        if notice.type == "battle" and data.get("land") == land and data.get("attacker") == player:
            last = notice.data
    return last is not None and not last.get("treachery") and last.get("outcome") != "win"
