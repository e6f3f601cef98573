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

import re
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.discord.base import MAX_OPTIONS, Interaction, Reply, clip
from bot.discord.game_group import (
    MAX_BUTTON,
    MAX_MESSAGE,
    Answer,
    GameGroup,
    GameItem,
    GameKit,
    answer_after,
    plural,
    price,
    seat_names,
    waiting_text,
    who,
    with_news,
)
from bot.models import GameStatus, Outcome
from engine.core import Event
from engine.eight_minute.data import load_data
from engine.eight_minute.text import card_text, good_name, region_name, step_text, units_left
from engine.registry import get_game

if TYPE_CHECKING:
    from bot.discord.client import AnnalsBot

KIT = GameKit(ruleset="eight-minute", group="eight-minute", title="Eight-Minute Empire", prefix="em")
RULESET = KIT.ruleset
GROUP = KIT.group
STALE = KIT.stale
SELECT_ID = KIT.component_id("s", ("neutral", "bid", "first", "place", "city", "from", "to", "destroy",
                                   "destroyin"))
BUTTON_ID = KIT.component_id("b", ("take", "choose", "done"), arg=r"[0-9]{1,2}")
#: The events of the bid's outcome (the mover hears them even when they are about themselves).
REVEAL_EVENTS = ("bid_roll", "bid_won")


# == names ================================================================================
def _coins(n: int) -> str:
    return plural(n, "coin")


def _price(n: int) -> str:
    return price(n, "coin")


def _label(view: Mapping[str, Any], action: Mapping[str, Any]) -> str:
    game = get_game(RULESET)
    return game.action_label(view, game.codec.decode(action))


# == what you must decide now ==============================================================
def bid_line(view: Mapping[str, Any], names: Mapping[int, str]) -> str:
    """Who has bid and who has not (never an amount); once all are in, the bids and the winner."""
    bid = view.get("bid") or {}
    bids = bid.get("bids")
    if bids is not None:
        shown = ", ".join(f"{who(names, p)} {_coins(int(b))}" for p, b in enumerate(bids))
        return f"All bids are in: {shown}."
    has = [bool(x) for x in bid.get("has_bid") or []]
    done = [who(names, p) for p, x in enumerate(has) if x]
    waiting = [who(names, p) for p, x in enumerate(has) if not x]
    return (f"Bids are in from: {', '.join(done) or 'nobody yet'}; "
            f"still waiting for: {', '.join(waiting) or 'nobody'}.")


def _waiting_text(status: GameStatus, view: Mapping[str, Any], names: Mapping[int, str]) -> str:
    if status.status == "active" and view.get("phase") == "bid":
        mine = (view.get("you") or {}).get("bid")
        own = f"Your secret bid: {_coins(int(mine))}. " if mine is not None else ""
        return f"{own}{bid_line(view, names)}"
    return waiting_text(status, view, names)


async def panel(bot: AnnalsBot, game_id: str, user_id: int) -> Answer:
    """The caller's decision now: a sentence or two and the components to make it (None: nothing to do)."""
    status, seq, legal, view = await KIT.snapshot(bot, game_id, user_id)
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
    whose = "a neutral army" if owner < 0 else f"an army of {who(names, owner)}"
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
    return await answer_after(bot, game_id, user_id, with_news(said, news), out, panel,
                              over="\nThe game is over: the final scores are in the game's thread "
                              f"(`/{GROUP} scores` for the breakdown).", idle=f"\n{done}" if done else "")


# == components ============================================================================
async def submit_one(bot: AnnalsBot, game_id: str, user_id: int, seq: int | None,
                     pick: Callable[[Mapping[str, Any]], bool], missing: str) -> Answer:
    """Submit the caller's one legal action that ``pick`` accepts; answer with the next decision."""
    now, action = await KIT.pick(bot, game_id, user_id, seq, pick)
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


class EMSelect(GameItem, discord.ui.DynamicItem[discord.ui.Select[Any]], template=SELECT_ID.pattern):
    """A select of one Eight-Minute Empire decision (``what``): regions, a bid, a seat, an army."""

    kit = KIT
    noun = "select"

    def __init__(self, what: str, game_id: str, seq: int, arg: str | None = None,
                 options: list[discord.SelectOption] | None = None, placeholder: str = "Choose") -> None:
        self.what = what
        self.game_id = game_id
        self.seq = seq
        self.arg = arg
        super().__init__(KIT.select(what, game_id, seq, arg, options, placeholder))

    @classmethod
    async def from_custom_id(cls, interaction: Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> EMSelect:
        return cls(match["what"], match["game"], int(match["seq"]), match["arg"])

    def checked_seq(self) -> int | None:
        return None if self.what == "bid" else self.seq  # a bid stands whatever the others did meanwhile

    async def work(self, bot: AnnalsBot, user_id: int) -> Answer:
        values = self.item.values
        value = values[0] if values else ""
        gid, seq, what = self.game_id, self.seq, self.what
        missing = KIT.missing
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
        _, legal = await KIT.current(bot, gid, user_id, seq)
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


class EMButton(GameItem, discord.ui.DynamicItem[discord.ui.Button[Any]], template=BUTTON_ID.pattern):
    """A button of one Eight-Minute Empire decision: take the card at a position, choose an action, done."""

    kit = KIT
    noun = "button"

    def __init__(self, what: str, game_id: str, seq: int, arg: int | None = None, label: str = "Choose",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary, *, disabled: bool = False,
                 row: int | None = None) -> None:
        self.what = what
        self.game_id = game_id
        self.seq = seq
        self.arg = arg
        super().__init__(KIT.button(what, game_id, seq, arg, label, style, disabled=disabled, row=row))

    @classmethod
    async def from_custom_id(cls, interaction: Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> EMButton:
        arg = match["arg"]
        return cls(match["what"], match["game"], int(match["seq"]), int(arg) if arg is not None else None)

    async def work(self, bot: AnnalsBot, user_id: int) -> Answer:
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
        line = (f"**{who(names, p)}**: {part['total']} = {part['regions']} for regions"
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
            f"{who(names, int(p))} {view['final'][int(p)]}" for p in ranking) + ".")
    return clip("\n".join(lines), MAX_MESSAGE)


class EightMinuteGroup(GameGroup):
    """``/eight-minute ...``: play Eight-Minute Empire (lobbies are opened with ``/annals create``)."""

    kit = KIT

    def __init__(self, bot: AnnalsBot) -> None:
        super().__init__(bot, "Play Eight-Minute Empire: bid, take cards, move armies")

    @app_commands.command(name="play", description="Your decision now, with buttons and lists (only for you)")
    @app_commands.describe(game="The game (default: your Eight-Minute Empire game here)")
    async def play(self, interaction: Interaction, game: str | None = None) -> None:
        async def work() -> Reply:
            gid = await self._own_game(interaction, game)
            text, items = await panel(self.bot, gid, interaction.user.id)
            return Reply(text, view=items)
        await self._answer(interaction, work, ephemeral=True)

    @app_commands.command(name="bid", description="Bid coins secretly for choosing the first player")
    @app_commands.describe(coins="How many coins you bid (only the winner pays)",
                           game="The game (default: your Eight-Minute Empire game here)")
    async def bid(self, interaction: Interaction, coins: app_commands.Range[int, 0, 99],
                  game: str | None = None) -> None:
        async def work() -> Reply:
            gid = await self._own_game(interaction, game)
            user = interaction.user.id
            _, legal = await self.bot.service.legal_actions(gid, user)
            amounts = [int(a["amount"]) for a in legal if a["kind"] == "bid"]
            if not amounts:
                status, _, _, view = await KIT.snapshot(self.bot, gid, user)
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
            gid = await self._own_game(interaction, game, finished_ok=True)
            status = await self.bot.service.status(gid)
            view = await self.bot.service.view(gid, None)  # public figures only: no one's bid
            picture = await self._board_file(gid, view) if image else None
            files = [picture] if picture is not None else []
            return Reply(score_text(view, seat_names(status), gid), files=files)
        await self._answer(interaction, work, ephemeral=True)

    @app_commands.command(name="board", description="Show the board as a picture to everyone here")
    @app_commands.describe(game="The game (default: your game here)")
    async def board(self, interaction: Interaction, game: str | None = None) -> None:
        async def work() -> Reply:
            gid = await self._own_game(interaction, game, finished_ok=True)
            view = await self.bot.service.view(gid, None)
            picture = await self._board_file(gid, view)
            return Reply(f"The board of game `{gid}` after move {view.get('seq', 0)}.",
                         files=[picture] if picture is not None else [])
        await self._answer(interaction, work, ephemeral=False)

    play.autocomplete("game")(GameGroup.own_game_autocomplete)
    bid.autocomplete("game")(GameGroup.own_game_autocomplete)
    scores.autocomplete("game")(GameGroup.own_game_autocomplete)
    board.autocomplete("game")(GameGroup.own_game_autocomplete)


def install(bot: AnnalsBot) -> None:
    """Add ``/eight-minute`` to the bot's command tree and register its buttons and selects."""
    bot.tree.add_command(EightMinuteGroup(bot))
    bot.add_dynamic_items(EMSelect, EMButton)
