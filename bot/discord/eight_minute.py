"""``/eight-minute``: Eight-Minute Empire on Discord. Interactions -> service calls; no rules here.

The group is called ``/eight-minute``, the game's id (the one ``/annals create
ruleset:eight-minute`` takes), rather than the shorter ``/empire``: "empire" is
a word of History of the World too (empire cards, ``/annals hand``), and a
player scrolling Discord's command list should not wonder which game it is for.

Commands (every answer but ``board`` is ephemeral):

* ``play``: what you must decide now, with components: a region select for a
  neutral army (2 players), a select of amounts for the secret bid, a seat
  select for the bid's winner, a button per face-up card (price and action;
  disabled when you cannot pay), the and/or choice, then the card's action as
  selects of legal regions (a move in two steps: the army's region, then
  where it goes, since a list may exceed Discord's 25 options) and a
  stop/done button.
* ``bid coins:``: the secret bid; refused above your coins. The answer names
  who has bid, never an amount, until everyone has: then the bids are shown.
* ``scores [image:]``: the score breakdown as it stands (regions, continents,
  goods), optionally with the board picture.
* ``board``: the board picture for everyone in the channel.

Every component is a :class:`discord.ui.DynamicItem` whose custom_id carries the
game id and the seq it was built at (``em:s:WHAT:GAME:SEQ[:ARG]`` for selects,
``em:b:WHAT:GAME:SEQ[:ARG]`` for buttons), so it works after a restart and a
stale one is refused politely. The one exception is the bid: a bid does not
depend on anyone else's move (nothing of the others' bids is known), so a bid
select built before another player bid still counts, as long as the bidding is
still open and you have not bid yet.
"""

from __future__ import annotations

import io
import logging
import re
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.discord.base import LIVE, CommandBase, Interaction, Reply, clip
from bot.discord.moves import OUT_OF_DATE, refusal
from bot.models import GameStatus, Outcome
from bot.service import ServiceError
from engine.core import Event
from engine.eight_minute.data import load_data
from engine.eight_minute.text import card_text, good_name, region_name, step_text, units_left
from engine.registry import get_game

if TYPE_CHECKING:
    from bot.discord.client import AnnalsBot

log = logging.getLogger(__name__)

RULESET = "eight-minute"
GROUP = "eight-minute"
PLAY = f"/{GROUP} play"
APOLOGY = "Sorry, something went wrong on my side; nothing more was done. The error has been logged."
STALE = f"This message is out of date: the game has moved on. Use `{PLAY}` for your current choices."
MAX_OPTIONS = 25  # options per select
MAX_BUTTON = 80  # characters of a button label
MAX_MESSAGE = 2000
_GAME = r"[a-z0-9]{1,32}"
_SEQ = r"[0-9]{1,9}"
SELECT_ID = re.compile(
    rf"em:s:(?P<what>neutral|bid|first|place|city|from|to|destroy|destroyin):(?P<game>{_GAME}):(?P<seq>{_SEQ})"
    r"(?::(?P<arg>[a-z0-9_]{1,40}))?")
BUTTON_ID = re.compile(
    rf"em:b:(?P<what>take|choose|done):(?P<game>{_GAME}):(?P<seq>{_SEQ})(?::(?P<arg>[0-9]{{1,2}}))?")
#: The events of the bid's outcome (the mover hears them even when they are about themselves).
REVEAL_EVENTS = ("bid_roll", "bid_won")

Answer = tuple[str, discord.ui.View | None]


def _bot(interaction: Interaction) -> AnnalsBot:
    from bot.discord.client import AnnalsBot

    bot = interaction.client
    assert isinstance(bot, AnnalsBot)
    return bot


# == names ================================================================================
def seat_names(status: GameStatus) -> dict[int, str]:
    """Seat -> ``Alice (Red)``: the person's name and their colour on the board."""
    out: dict[int, str] = {}
    for seat in status.seats:
        if seat.seat is not None:
            colour = f" ({seat.colour})" if seat.colour else ""
            out[seat.seat] = f"{seat.name}{colour}"
    return out


def _coins(n: int) -> str:
    return f"{n} coin{'' if n == 1 else 's'}"


def _price(n: int) -> str:
    return "free" if n == 0 else _coins(n)


def _label(view: Mapping[str, Any], action: Mapping[str, Any]) -> str:
    game = get_game(RULESET)
    return game.action_label(view, game.codec.decode(action))


# == what you must decide now ==============================================================
async def _snapshot(bot: AnnalsBot, game_id: str,
                    user_id: int) -> tuple[GameStatus, int, list[dict[str, Any]], dict[str, Any]]:
    """(status, seq, the caller's legal actions, the caller's view), all at one seq."""
    for _ in range(3):
        status = await bot.service.status(game_id)
        if status.ruleset != RULESET:
            raise ServiceError("wrong_game", f"Game `{game_id}` is {status.title}, not Eight-Minute Empire.")
        seq, legal = await bot.service.legal_actions(game_id, user_id)
        view = await bot.service.view(game_id, user_id)
        if view.get("seq") == seq == status.seq:
            return status, seq, legal, view
    raise ServiceError("conflict", "The game is moving fast; please try again.")


def bid_line(view: Mapping[str, Any], names: Mapping[int, str]) -> str:
    """Who has bid and who has not (never an amount); once all are in, the bids and the winner."""
    bid = view.get("bid") or {}
    bids = bid.get("bids")
    if bids is not None:
        shown = ", ".join(f"{names.get(p, f'seat {p + 1}')} {_coins(int(b))}" for p, b in enumerate(bids))
        return f"All bids are in: {shown}."
    has = [bool(x) for x in bid.get("has_bid") or []]
    done = [names.get(p, f"seat {p + 1}") for p, x in enumerate(has) if x]
    waiting = [names.get(p, f"seat {p + 1}") for p, x in enumerate(has) if not x]
    return (f"Bids are in from: {', '.join(done) or 'nobody yet'}; "
            f"still waiting for: {', '.join(waiting) or 'nobody'}.")


def _waiting_text(status: GameStatus, view: Mapping[str, Any], names: Mapping[int, str]) -> str:
    gid = status.game_id
    if status.status != "active":
        return f"Game `{gid}` is {status.status}: there is nothing to decide."
    phase = view.get("phase")
    if phase == "bid":
        mine = (view.get("you") or {}).get("bid")
        own = f"Your secret bid: {_coins(int(mine))}. " if mine is not None else ""
        return f"{own}{bid_line(view, names)}"
    who = ", ".join(names.get(int(p), f"seat {int(p) + 1}") for p in view.get("actors") or [])
    return f"It is not your move in game `{gid}` now; waiting for {who or 'nobody'}."


async def panel(bot: AnnalsBot, game_id: str, user_id: int) -> Answer:
    """The caller's decision now: a sentence or two and the components to make it (None: nothing to do)."""
    status, seq, legal, view = await _snapshot(bot, game_id, user_id)
    names = seat_names(status)
    if not legal:
        return _waiting_text(status, view, names), None
    kinds = {str(a["kind"]) for a in legal}
    items: discord.ui.View = discord.ui.View(timeout=None)
    me = int((view.get("you") or {}).get("player", 0))
    coins = int(view["coins"][me])
    head = f"Game `{game_id}`, move {seq}. "
    if "neutral" in kinds:
        text = (f"{head}Place a neutral army ({view.get('neutral_left')} left; the two of you take turns). "
                "Neutral armies hold regions against both players.")
        options = [_region_option(str(a["region"])) for a in legal if a["kind"] == "neutral"]
        items.add_item(EMSelect("neutral", game_id, seq, None, options, "Region for a neutral army"))
        return text, items
    if "bid" in kinds:
        amounts = sorted(int(a["amount"]) for a in legal if a["kind"] == "bid")
        text = (f"{head}Bid secretly for the right to choose who starts: you have {_coins(coins)}; only the "
                f"winner pays. Only you see this. {bid_line(view, names)} (Or use `/{GROUP} bid coins:N`.)")
        options = [discord.SelectOption(label=f"Bid {_coins(n)}", value=str(n))
                   for n in amounts[:MAX_OPTIONS]]
        items.add_item(EMSelect("bid", game_id, seq, None, options, "Your secret bid"))
        return text, items
    if "first" in kinds:
        text = f"{head}{bid_line(view, names)} Choose who takes the first turn."
        options = [discord.SelectOption(label=clip(f"{names.get(int(a['seat']), 'seat')} starts", 100),
                                        value=str(a["seat"])) for a in legal if a["kind"] == "first"]
        items.add_item(EMSelect("first", game_id, seq, None, options, "Who starts"))
        return text, items
    if "take" in kinds:
        return _row_panel(view, legal, coins, head), _row_buttons(game_id, seq, view, legal)
    task = view.get("task") or {}
    card = _card_of(view, task)
    if "choose" in kinds or task.get("choose"):
        text = f"{head}Your card: {card}. Choose which of its actions to do (first):"
        allowed = {int(a["index"]) for a in legal if a["kind"] == "choose"}
        for option in task.get("options") or []:
            index = int(option["index"])
            label = step_text(str(option["do"]), int(option["n"]))
            items.add_item(EMButton("choose", game_id, seq, index, clip(label, MAX_BUTTON),
                                    discord.ButtonStyle.primary, disabled=index not in allowed, row=0))
        done = next((a for a in legal if a["kind"] == "done"), None)
        if done is not None:
            items.add_item(EMButton("done", game_id, seq, None, clip(_label(view, done), MAX_BUTTON),
                                    discord.ButtonStyle.secondary, row=1))
        return text, items
    verb = str(task.get("do") or "")
    left = int(task.get("left") or 0)
    then = ", then ".join(step_text(str(s["do"]), int(s["n"])) for s in task.get("then") or [])
    text = f"{head}Your card: {card}. {units_left(verb, left).capitalize()}"
    text += f"; then {then}" if then else ""
    targets = [a for a in legal if a["kind"] != "done"]
    if "place" in kinds:
        text += ". Place an army (on the start region or a region with your city):"
        options = [_region_option(str(a["region"])) for a in targets]
        items.add_item(EMSelect("place", game_id, seq, None, options, "Where to place an army"))
    elif "city" in kinds:
        text += ". Build a city where you have an army:"
        options = [_region_option(str(a["region"])) for a in targets]
        items.add_item(EMSelect("city", game_id, seq, None, options, "Where to build a city"))
    elif "move" in kinds:
        text += ". Move one army one step: first choose the region it leaves."
        items.add_item(EMSelect("from", game_id, seq, None, _source_options(view, targets, me),
                                "The region an army leaves"))
    elif "destroy" in kinds:
        text += ". Destroy one army:"
        options = [_destroy_option(a, names) for a in targets]
        if len(options) <= MAX_OPTIONS:
            items.add_item(EMSelect("destroy", game_id, seq, None, options, "The army to destroy"))
        else:  # too many for one list: the region first, then whose army
            regions = sorted({str(a["region"]) for a in targets}, key=region_name)
            items.add_item(EMSelect("destroyin", game_id, seq, None, [_region_option(r) for r in regions],
                                    "The region of the army to destroy"))
    else:
        text += ". Nothing can be done with it now."
    done = next((a for a in legal if a["kind"] == "done"), None)
    if done is not None:
        items.add_item(EMButton("done", game_id, seq, None, clip(_label(view, done), MAX_BUTTON),
                                discord.ButtonStyle.secondary, row=4))
    return text, items


def _card_of(view: Mapping[str, Any], task: Mapping[str, Any]) -> str:
    cards = [c for hand in view.get("cards") or [] for c in hand]
    if task.get("card") is None or task["card"] not in cards:
        return "the card"
    return f"**{card_text(load_data().cards[int(task['card'])].to_json())}**"


def _row_panel(view: Mapping[str, Any], legal: Sequence[Mapping[str, Any]], coins: int, head: str) -> str:
    me = int((view.get("you") or {}).get("player", 0))
    held = len((view.get("cards") or [[]])[me]) if view.get("cards") else 0
    lines = [f"{head}Your turn: take a face-up card, paying its price. You have {_coins(coins)} and hold "
             f"{held} of the {view.get('cards_to_end')} cards that end the game."]
    affordable = {int(a["position"]) for a in legal if a["kind"] == "take"}
    for card in view.get("row") or []:
        pos = int(card["position"])
        goods = int(card.get("goods", 1))
        good = f"{goods} {good_name(str(card['good']))}" if goods > 1 else good_name(str(card["good"]))
        mark = "" if pos in affordable else " (you cannot pay for it)"
        lines.append(f"{pos + 1}. {_price(int(card['price']))}: {card_text(card)} - {good}{mark}")
    return "\n".join(lines)


def _row_buttons(game_id: str, seq: int, view: Mapping[str, Any],
                 legal: Sequence[Mapping[str, Any]]) -> discord.ui.View:
    affordable = {int(a["position"]) for a in legal if a["kind"] == "take"}
    items = discord.ui.View(timeout=None)
    for card in view.get("row") or []:
        pos = int(card["position"])
        label = clip(f"{pos + 1} · {_price(int(card['price']))} · {card_text(card)}", MAX_BUTTON)
        style = discord.ButtonStyle.primary if pos in affordable else discord.ButtonStyle.secondary
        items.add_item(EMButton("take", game_id, seq, pos, label, style, disabled=pos not in affordable,
                                row=pos // 3))
    return items


def _region_option(region: str, extra: str = "") -> discord.SelectOption:
    return discord.SelectOption(label=clip(region_name(region) + extra, 100), value=region)


def _source_options(view: Mapping[str, Any], moves: Sequence[Mapping[str, Any]],
                    me: int) -> list[discord.SelectOption]:
    armies = (view.get("board") or {}).get("armies") or {}
    by_source: dict[str, int] = {}
    for move in moves:
        by_source[str(move["source"])] = by_source.get(str(move["source"]), 0) + 1
    out = []
    for source in sorted(by_source, key=region_name):
        counts = armies.get(source) or []
        mine = int(counts[me]) if me < len(counts) else 0
        extra = f" ({mine} {'army' if mine == 1 else 'armies'}, {by_source[source]} "
        extra += f"destination{'' if by_source[source] == 1 else 's'})"
        out.append(_region_option(source, extra))
    return out[:MAX_OPTIONS]


def _destroy_option(action: Mapping[str, Any], names: Mapping[int, str]) -> discord.SelectOption:
    owner = int(action["owner"])
    whose = "a neutral army" if owner < 0 else f"an army of {names.get(owner, f'seat {owner + 1}')}"
    return discord.SelectOption(label=clip(f"{whose} in {region_name(str(action['region']))}", 100),
                                value=f"{action['region']}:{owner}")


# == after a move ===========================================================================
async def after_move(bot: AnnalsBot, game_id: str, user_id: int, said: str, out: Outcome,
                     done: str = "Your turn is over.") -> Answer:
    """What the mover is told: what they did, what others did meanwhile, and their next decision.

    ``done`` is said when the mover has nothing more to decide now.
    """
    me = next((s.seat for s in out.status.seats if s.user_id == user_id), None)
    game = get_game(RULESET)
    news: list[str] = []
    for notice in out.notices:
        if not notice.is_public or notice.type in ("your_turn", "game_started", "turn", "bid_made",
                                                   "bids_revealed"):
            continue
        mine = me is not None and me in (notice.data.get("player"), notice.data.get("chosen_by"))
        if mine and notice.type not in REVEAL_EVENTS:
            continue  # their own moves are in ``said``
        line = game.describe_event(Event(notice.type, dict(notice.data)))
        if line:
            news.append(line)
    text = said
    if news:
        shown = news[-12:]
        text += "\n" + ("…\n" if len(news) > len(shown) else "") + "\n".join(shown)
    if out.status.status == "over":
        return clip(text + "\nThe game is over: the final scores are in the game's thread "
                    f"(`/{GROUP} scores` for the breakdown).", MAX_MESSAGE), None
    if user_id in out.status.waiting_for:
        more, items = await panel(bot, game_id, user_id)
        return _fit(text, more), items
    return clip(text + (f"\n{done}" if done else ""), MAX_MESSAGE), None


def _fit(text: str, more: str) -> str:
    """``text`` then ``more``, dropping the oldest lines of ``text`` to stay within one message."""
    lines = text.split("\n")
    while len(lines) > 1 and len("\n".join(lines)) + len(more) + 2 > MAX_MESSAGE:
        lines.pop(1)
    return clip("\n".join(lines) + "\n\n" + more, MAX_MESSAGE)


# == components ============================================================================
async def _check(interaction: Interaction, game_id: str, seq: int | None, what: str) -> bool:
    """Defer, then allow the click or say why not (only to the clicker). ``seq`` None: any seq."""
    try:
        await interaction.response.defer(ephemeral=True, thinking=True)
        bot = _bot(interaction)
        if seq is None:
            seq = (await bot.service.status(game_id)).seq
        reason = await refusal(bot, interaction.user.id, game_id, seq)
    except Exception:
        log.exception("checking a click on %s failed (user %s, game %s)", what, interaction.user.id, game_id)
        reason = APOLOGY
    if reason is None:
        return True
    if reason == OUT_OF_DATE:
        reason = STALE
    try:
        await interaction.followup.send(reason, ephemeral=True)
    except discord.HTTPException as exc:
        log.warning("could not send the refusal for %s to user %s: %s", what, interaction.user.id, exc)
    return False


async def _run(interaction: Interaction, what: str, game_id: str,
               work: Callable[[AnnalsBot], Awaitable[Answer]]) -> None:
    """Run a component's work and answer ephemerally; refusals become their sentence."""
    if not interaction.response.is_done():
        await interaction.response.defer(ephemeral=True, thinking=True)
    items: discord.ui.View | None = None
    try:
        text, items = await work(_bot(interaction))
    except ServiceError as exc:
        text = STALE if exc.code == "stale" else exc.message
    except Exception:
        log.exception("%s failed (user %s, game %s)", what, interaction.user.id, game_id)
        text = APOLOGY
    if items is not None:
        await interaction.followup.send(text, view=items, ephemeral=True)
    else:
        await interaction.followup.send(text, ephemeral=True)


async def _current(bot: AnnalsBot, game_id: str, user_id: int,
                   seq: int | None) -> tuple[int, list[dict[str, Any]]]:
    """(seq, legal actions) now; ``stale`` if the game moved since ``seq`` (None: any seq will do)."""
    now, legal = await bot.service.legal_actions(game_id, user_id)
    if seq is not None and now != seq:
        raise ServiceError("stale", STALE)
    if not legal:
        raise ServiceError("not_your_turn", f"It is not your move in game `{game_id}` now.")
    return now, legal


async def submit_one(bot: AnnalsBot, game_id: str, user_id: int, seq: int | None,
                     pick: Callable[[Mapping[str, Any]], bool], missing: str) -> Answer:
    """Submit the caller's one legal action that ``pick`` accepts; answer with the next decision."""
    now, legal = await _current(bot, game_id, user_id, seq)
    action = next((a for a in legal if pick(a)), None)
    if action is None:
        return missing, None
    view = await bot.service.view(game_id, user_id)
    label = _label(view, action)
    if action["kind"] == "first":
        names = seat_names(await bot.service.status(game_id))
        label = f"{names.get(int(action['seat']), 'that seat')} starts"
    out = await bot.service.submit(game_id, user_id, action, now)
    if action["kind"] == "bid":
        after = await bot.service.view(game_id, user_id)
        # still secret: who has bid, not how much; else every bid, by name (so no "bids_revealed" news)
        line = bid_line(after, seat_names(out.status))
        said = f"Your secret bid of {_coins(int(action['amount']))} is in. {line}"
        return await after_move(bot, game_id, user_id, said, out, done="")
    return await after_move(bot, game_id, user_id, f"Done: {label}.", out)


class EMSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=SELECT_ID.pattern):
    """A select of one Eight-Minute Empire decision (``what``): regions, a bid, a seat, an army."""

    def __init__(self, what: str, game_id: str, seq: int, arg: str | None = None,
                 options: list[discord.SelectOption] | None = None, placeholder: str = "Choose") -> None:
        self.what = what
        self.game_id = game_id
        self.seq = seq
        self.arg = arg
        custom_id = f"em:s:{what}:{game_id}:{seq}" + (f":{arg}" if arg else "")
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=custom_id, placeholder=placeholder,
            options=(options or [discord.SelectOption(label="(nothing to choose)", value="-")])[:MAX_OPTIONS])
        super().__init__(select)

    @classmethod
    async def from_custom_id(cls, interaction: Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> EMSelect:
        return cls(match["what"], match["game"], int(match["seq"]), match["arg"])

    async def interaction_check(self, interaction: Interaction, /) -> bool:
        seq = None if self.what == "bid" else self.seq  # a bid stands whatever the others did meanwhile
        return await _check(interaction, self.game_id, seq, f"the {self.what} select")

    async def callback(self, interaction: Interaction) -> None:
        user_id = interaction.user.id
        await _run(interaction, f"the {self.what} select", self.game_id, lambda bot: self._work(bot, user_id))

    async def _work(self, bot: AnnalsBot, user_id: int) -> Answer:
        values = self.item.values
        value = values[0] if values else ""
        gid, seq, what = self.game_id, self.seq, self.what
        missing = f"That is not one of your choices now; use `{PLAY}` again."
        if what in ("neutral", "place", "city"):
            return await submit_one(bot, gid, user_id, seq,
                                    lambda a: a["kind"] == what and a.get("region") == value, missing)
        if what == "bid":
            return await submit_one(bot, gid, user_id, None,
                                    lambda a: a["kind"] == "bid" and str(a.get("amount")) == value, missing)
        if what == "first":
            return await submit_one(bot, gid, user_id, seq,
                                    lambda a: a["kind"] == "first" and str(a.get("seat")) == value, missing)
        if what == "to":
            return await submit_one(bot, gid, user_id, seq, lambda a: a["kind"] == "move"
                                    and a.get("source") == self.arg and a.get("to") == value, missing)
        if what == "destroy":
            region, _, owner = value.partition(":")
            return await submit_one(bot, gid, user_id, seq, lambda a: a["kind"] == "destroy"
                                    and a.get("region") == region and str(a.get("owner")) == owner, missing)
        _, legal = await _current(bot, gid, user_id, seq)
        if what == "from":
            moves = [a for a in legal if a["kind"] == "move" and a.get("source") == value]
            if not moves:
                return missing, None
            view = await bot.service.view(gid, user_id)
            options = [discord.SelectOption(label=clip(_label(view, a), 100), value=str(a["to"]))
                       for a in sorted(moves, key=lambda a: region_name(str(a["to"])))]
            items = discord.ui.View(timeout=None)
            items.add_item(EMSelect("to", gid, seq, value, options,
                                    f"Where the army from {region_name(value)} goes"))
            return f"Move an army from {region_name(value)} to:", items
        # destroyin: the region is chosen, now whose army
        names = seat_names(await bot.service.status(gid))
        targets = [a for a in legal if a["kind"] == "destroy" and a.get("region") == value]
        if not targets:
            return missing, None
        items = discord.ui.View(timeout=None)
        items.add_item(EMSelect("destroy", gid, seq, None, [_destroy_option(a, names) for a in targets],
                                "The army to destroy"))
        return f"Destroy which army in {region_name(value)}?", items


class EMButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=BUTTON_ID.pattern):
    """A button of one Eight-Minute Empire decision: take the card at a position, choose an action, done."""

    def __init__(self, what: str, game_id: str, seq: int, arg: int | None = None, label: str = "Choose",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary, *, disabled: bool = False,
                 row: int | None = None) -> None:
        self.what = what
        self.game_id = game_id
        self.seq = seq
        self.arg = arg
        custom_id = f"em:b:{what}:{game_id}:{seq}" + (f":{arg}" if arg is not None else "")
        button: discord.ui.Button[Any] = discord.ui.Button(custom_id=custom_id, label=label, style=style,
                                                           disabled=disabled, row=row)
        super().__init__(button)

    @classmethod
    async def from_custom_id(cls, interaction: Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> EMButton:
        arg = match["arg"]
        return cls(match["what"], match["game"], int(match["seq"]), int(arg) if arg is not None else None)

    async def interaction_check(self, interaction: Interaction, /) -> bool:
        return await _check(interaction, self.game_id, self.seq, f"the {self.what} button")

    async def callback(self, interaction: Interaction) -> None:
        user_id = interaction.user.id
        await _run(interaction, f"the {self.what} button", self.game_id, lambda bot: self._work(bot, user_id))

    async def _work(self, bot: AnnalsBot, user_id: int) -> Answer:
        arg = self.arg
        if self.what == "take":
            coins = await self._coins(bot, user_id)
            return await submit_one(
                bot, self.game_id, user_id, self.seq,
                lambda a: a["kind"] == "take" and a.get("position") == arg,
                f"You cannot take card {(arg or 0) + 1}: you have {_coins(coins)}.")
        if self.what == "choose":
            return await submit_one(bot, self.game_id, user_id, self.seq,
                                    lambda a: a["kind"] == "choose" and a.get("index") == arg,
                                    "You cannot do that action now.")
        return await submit_one(bot, self.game_id, user_id, self.seq, lambda a: a["kind"] == "done",
                                "There is nothing to finish now.")

    async def _coins(self, bot: AnnalsBot, user_id: int) -> int:
        view = await bot.service.view(self.game_id, user_id)
        me = (view.get("you") or {}).get("player")
        return int(view["coins"][me]) if me is not None else 0


# == the commands ===========================================================================
def score_text(view: Mapping[str, Any], names: Mapping[int, str], game_id: str) -> str:
    """The breakdown of every seat's score as it stands (or the final one)."""
    over = view.get("phase") == "over"
    games = int(view.get("games") or 1)
    head = f"Scores in game `{game_id}`" + (f" (game {view.get('game_no')} of {games})" if games > 1 else "")
    lines = [head + (", final:" if over else ", as they would be counted now:")]
    totals = view.get("totals") or []
    for p, part in enumerate(view.get("scores") or []):
        regions = [region_name(str(r)) for r in part.get("controlled_regions") or []]
        continents = [load_data().continents[str(c)].name for c in part.get("controlled_continents") or []]
        counted: Mapping[str, int] = part.get("goods_counted") or {}
        points: Mapping[str, int] = part.get("goods_points") or {}
        goods = ", ".join(f"{good_name(g)} {n} → {points.get(g, 0)}" for g, n in sorted(counted.items()) if n)
        line = (f"**{names.get(p, f'seat {p + 1}')}**: {part['total']} = {part['regions']} for regions"
                f" ({', '.join(regions) or 'none'}) + {part['continents']} for continents"
                f" ({', '.join(continents) or 'none'}) + {part['goods']} for goods ({goods or 'none'})")
        if games > 1 and p < len(totals):
            line += f"; {totals[p]} over the games so far"
        coins = view.get("coins") or []
        cards = view.get("cards") or []
        if p < len(coins) and p < len(cards):
            line += f". {_coins(int(coins[p]))}, {len(cards[p])} cards"
        lines.append(line + ".")
    if over and view.get("final") is not None:
        ranking = view.get("ranking") or []
        lines.append("Final: " + ", ".join(
            f"{names.get(int(p), f'seat {int(p) + 1}')} {view['final'][int(p)]}" for p in ranking) + ".")
    return clip("\n".join(lines), MAX_MESSAGE)


class EightMinuteGroup(CommandBase, app_commands.Group):
    """``/eight-minute ...``: play Eight-Minute Empire (lobbies are opened with ``/annals create``)."""

    def __init__(self, bot: AnnalsBot) -> None:
        super().__init__(name=GROUP, description="Play Eight-Minute Empire: bid, take cards, move armies")
        self.bot = bot

    async def _em_game(self, interaction: Interaction, game: str | None, *, finished_ok: bool = False) -> str:
        """The Eight-Minute Empire game meant: the one named, else the caller's one here or anywhere."""
        if game:
            status = await self.bot.service.status(game.strip())
            if status.ruleset != RULESET:
                raise ServiceError("wrong_game", f"Game `{status.game_id}` is {status.title}; "
                                   "these commands are for Eight-Minute Empire.")
            return status.game_id
        mine = [r for r in await self._games_of(interaction.user.id) if r.ruleset == RULESET]
        live = [r for r in mine if r.status in LIVE]
        here = [r for r in live if interaction.channel_id in (r.channel_id, r.thread_id)]
        pick = here or live
        if not pick and finished_ok:
            done = sorted((r for r in mine if r.status == "over"), key=lambda r: r.updated_at, reverse=True)
            pick = done[:1]
        if len(pick) == 1:
            return pick[0].game_id
        if not pick:
            raise ServiceError("no_such_game", "You are in no Eight-Minute Empire game; open one with "
                               "`/annals create ruleset:eight-minute`.")
        raise ServiceError("ambiguous", "You play several Eight-Minute Empire games; "
                           "say which one with `game`.")

    async def em_game_autocomplete(self, interaction: Interaction,
                                   current: str) -> list[app_commands.Choice[str]]:
        """The caller's Eight-Minute Empire games."""
        typed = current.lower().strip()
        out = []
        for row in await self._games_of(interaction.user.id):
            if row.ruleset == RULESET and typed in row.game_id:
                out.append(app_commands.Choice(name=f"{row.game_id} ({row.status})", value=row.game_id))
        return out[:MAX_OPTIONS]

    @app_commands.command(name="play", description="Your decision now, with buttons and lists (only for you)")
    @app_commands.describe(game="The game (default: your Eight-Minute Empire game here)")
    async def play(self, interaction: Interaction, game: str | None = None) -> None:
        async def work() -> Reply:
            gid = await self._em_game(interaction, game)
            text, items = await panel(self.bot, gid, interaction.user.id)
            return Reply(text, view=items)
        await self._answer(interaction, work, ephemeral=True)

    @app_commands.command(name="bid", description="Bid coins secretly for choosing the first player")
    @app_commands.describe(coins="How many coins you bid (only the winner pays)",
                           game="The game (default: your Eight-Minute Empire game here)")
    async def bid(self, interaction: Interaction, coins: app_commands.Range[int, 0, 99],
                  game: str | None = None) -> None:
        async def work() -> Reply:
            gid = await self._em_game(interaction, game)
            user = interaction.user.id
            _, legal = await self.bot.service.legal_actions(gid, user)
            amounts = [int(a["amount"]) for a in legal if a["kind"] == "bid"]
            if not amounts:
                status, _, _, view = await _snapshot(self.bot, gid, user)
                if view.get("phase") == "bid":
                    return Reply(_waiting_text(status, view, seat_names(status)))
                return Reply(f"There is no bidding in game `{gid}` now.")
            if coins > max(amounts):
                return Reply(f"You have only {_coins(max(amounts))}: bid between 0 and {max(amounts)}.")
            text, items = await submit_one(self.bot, gid, user, None,
                                           lambda a: a["kind"] == "bid" and a.get("amount") == coins,
                                           "That bid is not possible now.")
            return Reply(text, view=items)
        await self._answer(interaction, work, ephemeral=True)

    @app_commands.command(name="scores", description="The score breakdown as it stands now (only for you)")
    @app_commands.describe(image="Also show the board picture", game="The game (default: your game here)")
    async def scores(self, interaction: Interaction, image: bool = False, game: str | None = None) -> None:
        async def work() -> Reply:
            gid = await self._em_game(interaction, game, finished_ok=True)
            status = await self.bot.service.status(gid)
            view = await self.bot.service.view(gid, None)  # public figures only: no one's bid
            files = [await self._board_file(gid, view)] if image else []
            return Reply(score_text(view, seat_names(status), gid), files=files)
        await self._answer(interaction, work, ephemeral=True)

    @app_commands.command(name="board", description="Show the board as a picture to everyone here")
    @app_commands.describe(game="The game (default: your game here)")
    async def board(self, interaction: Interaction, game: str | None = None) -> None:
        async def work() -> Reply:
            gid = await self._em_game(interaction, game, finished_ok=True)
            view = await self.bot.service.view(gid, None)
            return Reply(f"The board of game `{gid}` after move {view.get('seq', 0)}.",
                         files=[await self._board_file(gid, view)])
        await self._answer(interaction, work, ephemeral=False)

    async def _board_file(self, gid: str, view: Mapping[str, Any]) -> discord.File:
        from render.boards import render_board

        png = await self.bot.render(render_board, view, names=True, size=self.bot.board_size)
        return discord.File(io.BytesIO(png), filename=f"eight-minute-{gid}-{view.get('seq', 0)}.png")

    play.autocomplete("game")(em_game_autocomplete)
    bid.autocomplete("game")(em_game_autocomplete)
    scores.autocomplete("game")(em_game_autocomplete)
    board.autocomplete("game")(em_game_autocomplete)


def install(bot: AnnalsBot) -> None:
    """Add ``/eight-minute`` to the bot's command tree and register its buttons and selects."""
    bot.tree.add_command(EightMinuteGroup(bot))
    bot.add_dynamic_items(EMSelect, EMButton)
