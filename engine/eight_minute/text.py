"""Words for Eight-Minute Empire: a sentence per event, a short label per legal action.

Pure functions, no I/O beyond the game's cached data (region names, cards,
prices). Players are named by colour and seat, as in the other games
("Red (P1)"); the two-player neutral armies are "neutral".

* :func:`describe_event` -- one sentence for each event the engine emits, or
  None for an event nobody needs to read.
* :func:`action_label` -- a short label for a button or select option, built
  from a view (``GAME.view``) or a state; every legal action of one moment gets
  a different label.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.core import Action, Event
from engine.eight_minute.actions import (
    Bid,
    BuildCity,
    ChooseAction,
    ChooseFirst,
    Destroy,
    Done,
    Move,
    Place,
    PlaceNeutral,
    TakeCard,
)
from engine.eight_minute.data import EMData, load_data
from engine.eight_minute.state import NEUTRAL, EMState
from engine.spec import SEAT_COLOURS as COLOURS

GOOD_NAMES: dict[str, str] = {
    "crystal": "Crystal",
    "food": "Food",
    "wood": "Wood",
    "iron": "Iron",
    "tools": "Tools",
    "wild": "Wild",
}

#: Short verb phrases with the count, for labels and headings.
_VERB_SHORT: dict[str, str] = {
    "place": "Place {n} {armies}",
    "move": "Move {n} over land",
    "sail": "Move {n} over land/water",
    "city": "Build a city",
    "destroy": "Destroy an army",
}

#: What one unit of each action is called ("3 moves left").
_UNIT: dict[str, tuple[str, str]] = {
    "place": ("army to place", "armies to place"),
    "move": ("move", "moves"),
    "sail": ("move", "moves"),
    "city": ("city", "cities"),
    "destroy": ("army to destroy", "armies to destroy"),
}


#: Every event type the engine emits (engine/eight_minute/flow.py); each has a sentence.
EVENT_TYPES: frozenset[str] = frozenset({
    "game_started", "neutral_placed", "bid_made", "your_bid", "bids_revealed", "bid_won", "bid_roll",
    "first_player", "card_taken", "action_chosen", "action_ignored", "action_stopped", "army_placed",
    "army_moved", "city_built", "army_destroyed", "turn", "game_scored", "game_over",
})


def player_name(p: int | None) -> str:
    """``Red (P1)`` for seat 0; ``neutral`` for the two-player neutral armies."""
    if p is None:
        return "nobody"
    if p == NEUTRAL:
        return "neutral"
    return f"{COLOURS[p % len(COLOURS)]} (P{p + 1})"


def colour_name(p: int | None) -> str:
    """``Red`` for seat 0 (the short form for tight spaces)."""
    if p is None:
        return "nobody"
    if p == NEUTRAL:
        return "Neutral"
    return COLOURS[p % len(COLOURS)]


def good_name(good: str) -> str:
    return GOOD_NAMES.get(good, good.capitalize())


def region_name(region: str, data: EMData | None = None) -> str:
    data = data or load_data()
    found = data.regions.get(region)
    return found.name if found is not None else region


def step_text(verb: str, n: int) -> str:
    """``Place 3 armies``, ``Move 4 over land``, ``Build a city``..."""
    template = _VERB_SHORT.get(verb, verb + " {n}")
    return template.format(n=n, armies="army" if n == 1 else "armies")


def units_left(verb: str, n: int) -> str:
    """``2 moves left``, ``1 army to place left``."""
    one, many = _UNIT.get(verb, ("step", "steps"))
    return f"{n} {one if n == 1 else many} left"


def card_text(card: Mapping[str, Any]) -> str:
    """A card's action(s) in a few words, from its JSON (``Card.to_json`` or a view's row entry)."""
    steps = [step_text(str(a["do"]), int(a["n"])) for a in card.get("actions", ())]
    joiner = f" {card['combine']} " if card.get("combine") else " and "
    return joiner.join(steps) if steps else "no action"


def card_summary(card: Mapping[str, Any]) -> str:
    """``Move 3 over land — Iron`` (``— 2 Food`` for a double good)."""
    goods = int(card.get("goods", 1))
    good = good_name(str(card.get("good", "")))
    return f"{card_text(card)} — {f'{goods} ' if goods > 1 else ''}{good}"


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _card_json(card_id: int, data: EMData) -> dict[str, Any]:
    return data.cards[card_id].to_json()


def _names(regions: Sequence[str], data: EMData) -> str:
    return ", ".join(region_name(r, data) for r in regions) or "nowhere"


def describe_event(event: Event) -> str | None:
    """One sentence for an Eight-Minute Empire event, or None for bookkeeping nobody needs to read."""
    data = load_data()
    d = event.data
    who = player_name

    def region(key: str = "region") -> str:
        return region_name(str(d[key]), data)

    def card(key: str = "card") -> str:
        return card_summary(_card_json(int(d[key]), data))

    def game_started() -> str:
        tokens = d.get("tokens") or {}
        head = f"Game {d['game_no']} begins" if int(d.get("game_no", 1)) > 1 else "The game begins"
        extra = ""
        if tokens:
            extra = " Goods tokens: " + ", ".join(
                f"{good_name(str(g))} in {region_name(str(r), data)}" for r, g in sorted(tokens.items())
            ) + "."
        return f"{head}: six cards are face up and everyone has {max(d['coins'])} coins.{extra}"

    def bids_revealed() -> str:
        bids: Sequence[int] = d["bids"]
        return "Bids revealed: " + ", ".join(f"{who(p)} {b}" for p, b in enumerate(bids)) + "."

    def bid_won() -> str:
        tied: Sequence[int] = d.get("tied") or []
        why = ""
        if tied:
            why = f" (a tie between {', '.join(who(p) for p in tied)})"
        paid = int(d["paid"])
        pays = f"pays {paid} coin{'s' if paid != 1 else ''}" if paid else "pays nothing"
        return f"{who(d['player'])} wins the bid{why}, {pays} and chooses who starts."

    def bid_roll() -> str:
        rolls: Sequence[Sequence[int]] = d["rolls"]
        return "Tied bids roll a die: " + ", ".join(f"{who(p)} rolls {r}" for p, r in rolls) + "."

    def card_taken() -> str:
        price = int(d["price"])
        cost = "for free" if price == 0 else f"for {price} coin{'s' if price != 1 else ''}"
        return f"{who(d['player'])} takes card {int(d['position']) + 1} {cost}: {card()}."

    def action_stopped() -> str:
        unused = int(d.get("unused", 0))
        verb = str(d.get("action") or "")
        if unused and verb:
            return f"{who(d['player'])} stops with {units_left(verb, unused).removesuffix(' left')} unused."
        return f"{who(d['player'])} is done with the card."

    def army_moved() -> str:
        how = " over the water" if d.get("water") else ""
        return f"{who(d['player'])} moves an army from {region('source')} to {region('to')}{how}."

    def army_destroyed() -> str:
        owner = int(d["owner"])
        whose = "a neutral army" if owner == NEUTRAL else (
            "one of their own armies" if owner == int(d["player"]) else f"an army of {who(owner)}"
        )
        return f"{who(d['player'])} destroys {whose} in {region()}."

    def game_scored() -> str:
        parts: Sequence[Mapping[str, int]] = d["breakdown"]
        lines = "; ".join(
            f"{who(p)} {b['total']} ({_count(b['regions'], 'region')} + "
            f"{_count(b['continents'], 'continent')} + {b['goods']} for goods)"
            for p, b in enumerate(parts)
        )
        return f"Game {d['game_no']} is scored: {lines}."

    def game_over() -> str:
        scores: Sequence[int] = d["scores"]
        best = max(scores)
        leaders = [p for p, s in enumerate(scores) if s == best]
        lead = (
            f"{who(leaders[0])} wins with {best}" if len(leaders) == 1
            else f"{' and '.join(who(p) for p in leaders)} tie on {best} (the tie-breakers decide)"
        )
        return "The game is over: " + lead + ". Scores: " + ", ".join(
            f"{who(p)} {s}" for p, s in enumerate(scores)
        ) + "."

    texts: dict[str, Any] = {
        "game_started": game_started,
        "neutral_placed": lambda: f"{who(d['player'])} puts a neutral army in {region()} "
        f"({d['left']} left to place).",
        "bid_made": lambda: f"{who(d['player'])} has made a secret bid.",
        "your_bid": lambda: f"Your secret bid: {d['amount']} coin{'s' if int(d['amount']) != 1 else ''}.",
        "bids_revealed": bids_revealed,
        "bid_won": bid_won,
        "bid_roll": bid_roll,
        "first_player": lambda: f"{who(d['chosen_by'])} chooses {who(d['player'])} to start."
        if d.get("chosen_by") is not None and d["chosen_by"] != d["player"]
        else f"{who(d['player'])} starts.",
        "card_taken": card_taken,
        "action_chosen": lambda: f"{who(d['player'])} chooses to "
        f"{step_text(str(d['action']), int(d['n'])).lower()}.",
        "action_ignored": lambda: f"{who(d['player'])} ignores the card's action.",
        "action_stopped": action_stopped,
        "army_placed": lambda: f"{who(d['player'])} places an army in {region()}.",
        "army_moved": army_moved,
        "city_built": lambda: f"{who(d['player'])} builds a city in {region()}.",
        "army_destroyed": army_destroyed,
        "turn": lambda: f"{who(d['player'])}'s turn.",
        "game_scored": game_scored,
        "game_over": game_over,
    }
    if event.type not in EVENT_TYPES:
        return None
    text: str = texts[event.type]()
    return text


def describe_events(events: Sequence[Event], viewer: int | None) -> list[str]:
    """The sentences of the events ``viewer`` may see (None: a spectator), in order."""
    out: list[str] = []
    for event in events:
        if event.visible_to(viewer):
            line = describe_event(event)
            if line:
                out.append(line)
    return out


# -- labels for legal actions ------------------------------------------------------------------------


def _row_and_task(source: Mapping[str, Any] | EMState, data: EMData) -> tuple[list[dict[str, Any]], Any]:
    """The face-up row (as the view shows it) and the task under way, from a view or a state."""
    if isinstance(source, EMState):
        row = [{"position": i, "price": data.prices[i], **_card_json(c, data)}
               for i, c in enumerate(source.row)]
        task = source.task
        if task is not None:
            task = {
                "choose": task["choose"],
                "options": [{"index": i, "do": v, "n": n} for i, (v, n) in enumerate(task["steps"])]
                if task["choose"] else [],
                "do": task["do"],
                "left": task["left"],
            }
        return row, task
    return list(source.get("row") or []), source.get("task")


def action_label(view_or_state: Mapping[str, Any] | EMState, action: Action) -> str:
    """A short label for a button or select option.

    ``Take card 3 (1 coin): Move 3 over land — Iron``, ``Move Crossroads → Westford``,
    ``Destroy a Blue army in Greyfen``, ``Bid 2 coins``...
    """
    data = load_data()
    if isinstance(action, Bid):
        return f"Bid {action.amount} coin{'s' if action.amount != 1 else ''}"
    if isinstance(action, PlaceNeutral):
        return f"Neutral army in {region_name(action.region, data)}"
    if isinstance(action, ChooseFirst):
        return f"{player_name(action.seat)} starts"
    if isinstance(action, Place):
        return f"Place an army in {region_name(action.region, data)}"
    if isinstance(action, BuildCity):
        return f"Build a city in {region_name(action.region, data)}"
    if isinstance(action, Move):
        water = action.to in data.water.get(action.source, frozenset())
        return (f"Move {region_name(action.source, data)} → {region_name(action.to, data)}"
                + (" (by water)" if water else ""))
    if isinstance(action, Destroy):
        whose = "neutral" if action.owner == NEUTRAL else colour_name(action.owner)
        return f"Destroy a {whose} army in {region_name(action.region, data)}"
    row, task = _row_and_task(view_or_state, data)
    if isinstance(action, TakeCard):
        price = data.prices[action.position] if action.position < len(data.prices) else 0
        cost = "free" if price == 0 else f"{price} coin{'s' if price != 1 else ''}"
        card = row[action.position] if action.position < len(row) else None
        what = f": {card_summary(card)}" if card is not None else ""
        return f"Take card {action.position + 1} ({cost}){what}"
    if isinstance(action, ChooseAction):
        options = (task or {}).get("options") or []
        for option in options:
            if int(option["index"]) == action.index:
                return step_text(str(option["do"]), int(option["n"]))
        return f"Do action {action.index + 1}"
    if isinstance(action, Done):
        if task and task.get("choose"):
            return "Ignore the card's action"
        if task and task.get("do") and int(task.get("left") or 0) > 0:
            unused = units_left(str(task["do"]), int(task["left"])).removesuffix(" left")
            return f"Stop here ({unused} unused)"
        return "Done"
    return action.kind

