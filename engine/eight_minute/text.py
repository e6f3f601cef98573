"""Words for Eight-Minute Empire, from a player's view only: decisions, event sentences, status, hand, board.

Pure functions, no I/O beyond the game's cached data (region names, cards,
prices: all printed on the table). Players are named only through the
platform's ``names`` ("alice (Red)"); labels of a decision, which get no
names, name a seat by its colour. The two-player neutral armies are "neutral".
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.core import Action, Choice, Decision, Event, Names
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
from engine.eight_minute.data import CardView, EMData, load_data
from engine.eight_minute.scoring import ScoreView
from engine.eight_minute.spec import SPEC
from engine.eight_minute.state import NEUTRAL, Phase
from engine.eight_minute.view import EMView, TaskView
from engine.words import join_words, plural

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

#: Why a card's action is dropped unplayed (the ``why`` of an ``action_lapsed`` event).
_LAPSED: dict[str, str] = {
    "supply": "none of those pieces are left in their supply",
    "no_armies": "they have no army on the board",
    "board_empty": "no army stands on the board",
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
    "army_moved", "city_built", "army_destroyed", "turn", "game_scored", "game_over", "action_lapsed",
})


# -- small words ---------------------------------------------------------------------------------


def colour_name(p: int | None) -> str:
    """``Red`` for seat 0 (the seat's colour, for labels and tight spaces); ``Neutral`` for -1."""
    if p is None:
        return "nobody"
    if p == NEUTRAL:
        return "Neutral"
    return SPEC.colour(p)


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


def card_text(card: CardView) -> str:
    """A card's action(s) in a few words, from its JSON (``Card.to_json`` or a view's row entry)."""
    steps = [step_text(str(a["do"]), int(a["n"])) for a in card.get("actions", ())]
    joiner = f" {card['combine']} " if card.get("combine") else " and "
    return joiner.join(steps) if steps else "no action"


def card_summary(card: CardView) -> str:
    """``Move 3 over land — Iron`` (``— 2 Food`` for a double good)."""
    goods = int(card.get("goods", 1))
    good = good_name(str(card.get("good", "")))
    return f"{card_text(card)} — {f'{goods} ' if goods > 1 else ''}{good}"


def _card(card_id: int, data: EMData) -> CardView:
    return data.cards[card_id].to_json()


def _coins(n: int) -> str:
    return plural(n, "coin")


def _who(p: int, names: Names) -> str:
    return "the neutral armies" if p == NEUTRAL else names[p]


def _price(price: int) -> str:
    return "free" if price == 0 else _coins(price)


# -- the decision ------------------------------------------------------------------------------------


def _step_n(task: TaskView, data: EMData) -> int:
    """The printed count of the action under way (the card shows it; the task holds what is left)."""
    for step in data.cards[int(task["card"])].actions:
        if step.verb == task["do"]:
            return step.n
    return int(task["left"])


def _neutral_heading(view: EMView, player: int) -> str:
    return (f"Place a neutral army in any region ({plural(int(view['neutral_left']), 'army', 'armies')} "
            "left to place): neutral armies stand in everyone's way")


def _bid_heading(view: EMView, player: int) -> str:
    return (f"Bid for first player: you have {_coins(int(view['coins'][player]))}; the highest bid pays "
            "and chooses who starts")


def _first_heading(view: EMView, player: int) -> str:
    return "You won the bid: choose who takes the first turn"


def _turn_heading(view: EMView, player: int) -> str:
    data = load_data()
    task = view["task"]
    if task is None:
        held = len(view["cards"][player])
        return (f"Take a card: you have {_coins(int(view['coins'][player]))}; this is your card {held + 1} "
                f"of {view['cards_to_end']}")
    summary = card_summary(_card(int(task["card"]), data))
    if task["choose"]:
        return f"Your card ({summary}): choose which action to do"
    do, left = str(task["do"]), int(task["left"])
    line = f"Your card ({summary}): {step_text(do, _step_n(task, data)).lower()}, {left} left"
    then = [step_text(str(s["do"]), int(s["n"])).lower() for s in task["then"]]
    return line + (f"; then {join_words(then)}" if then else "")


_HEADINGS: dict[Phase, Callable[[EMView, int], str]] = {
    Phase.NEUTRAL: _neutral_heading, Phase.BID: _bid_heading, Phase.FIRST: _first_heading,
}
"""The heading of each phase's decision (a turn's, :func:`_turn_heading`, otherwise)."""


def heading(view: EMView, player: int) -> str:
    """What ``player`` decides now, in a line."""
    return _HEADINGS.get(Phase(view["phase"]), _turn_heading)(view, player)


@dataclass(frozen=True)
class _Asked:
    """What a choice's label is worded from: the view, the player deciding, the map, the seats' names."""

    view: EMView
    player: int
    data: EMData
    names: Names


def _bid_choice(at: _Asked, action: Bid) -> Choice:
    return Choice(action, f"Bid {_coins(action.amount)}")


def _neutral_choice(at: _Asked, action: PlaceNeutral) -> Choice:
    spot = at.data.regions[action.region]
    return Choice(action, f"Neutral army in {spot.name}", group=at.data.continents[spot.continent].name)


def _first_choice(at: _Asked, action: ChooseFirst) -> Choice:
    you = " (you)" if action.seat == at.player else ""
    return Choice(action, f"{SPEC.name_in(at.names, action.seat)}{you} starts")


def _take_choice(at: _Asked, action: TakeCard) -> Choice:
    card = at.view["row"][action.position]
    price = _price(int(card["price"]))
    return Choice(action, f"Card {action.position + 1} ({price}): {card_summary(card)}")


def _action_choice(at: _Asked, action: ChooseAction) -> Choice:
    task = at.view["task"]
    for option in task["options"] if task else ():
        if int(option["index"]) == action.index:
            return Choice(action, step_text(str(option["do"]), int(option["n"])))
    return Choice(action, f"Action {action.index + 1}")


def _place_choice(at: _Asked, action: Place) -> Choice:
    return Choice(action, f"Place an army in {region_name(action.region, at.data)}")


def _city_choice(at: _Asked, action: BuildCity) -> Choice:
    return Choice(action, f"Build a city in {region_name(action.region, at.data)}")


def _move_choice(at: _Asked, action: Move) -> Choice:
    source = region_name(action.source, at.data)
    water = action.to in at.data.water.get(action.source, frozenset())
    label = f"Move {source} → {region_name(action.to, at.data)}" + (" (by water)" if water else "")
    return Choice(action, label, group=f"From {source}")


def _destroy_choice(at: _Asked, action: Destroy) -> Choice:
    where = region_name(action.region, at.data)
    owner = SPEC.name_in(at.names, action.owner)
    whose = "a neutral army" if action.owner == NEUTRAL else f"an army of {owner}"
    mine = " (yours)" if action.owner == at.player else ""
    return Choice(action, f"Destroy {whose}{mine} in {where}", group=f"In {where}")


def _done_choice(at: _Asked, action: Done) -> Choice:
    return _done(action, at.view["task"])


_LABELS: dict[type[Action], Callable[[_Asked, Any], Choice]] = {
    Bid: _bid_choice, PlaceNeutral: _neutral_choice, ChooseFirst: _first_choice, TakeCard: _take_choice,
    ChooseAction: _action_choice, Place: _place_choice, BuildCity: _city_choice, Move: _move_choice,
    Destroy: _destroy_choice, Done: _done_choice,
}
"""How each kind of move is labelled, by its class (each function takes its own class)."""


def _choice(at: _Asked, action: Action) -> Choice:
    label = _LABELS.get(type(action))
    return label(at, action) if label is not None else Choice(action, action.kind)


def _done(action: Done, task: TaskView | None) -> Choice:
    """Ignoring a card or stopping an action early gives something up: ask first."""
    if task and task["choose"]:
        return Choice(action, "Ignore the card's action",
                      confirm="Ignore this card's action? You keep the card and its goods.")
    if task and task["do"] and int(task["left"]) > 0:
        unused = units_left(str(task["do"]), int(task["left"])).removesuffix(" left")
        return Choice(action, f"Stop here ({unused} unused)", confirm=f"Stop with {unused} unused?")
    return Choice(action, "Done")


def decision(view: EMView, player: int, legal: Sequence[Action], names: Names) -> Decision:
    """``player``'s decision: a heading and one labelled choice per legal move, from the view alone."""
    asked = _Asked(view, player, load_data(), names)
    choices = tuple(_choice(asked, action) for action in legal)
    return Decision(player, heading(view, player), choices)


# -- events --------------------------------------------------------------------------------------------


def describe_event(event: Event, names: Names) -> str | None:
    """One sentence for an Eight-Minute Empire event, or None for a type it does not know."""
    if event.type not in EVENT_TYPES:
        return None
    data = load_data()
    d = event.data

    def who(key: str = "player") -> str:
        return _who(int(d[key]), names)

    def region(key: str = "region") -> str:
        return region_name(str(d[key]), data)

    kind = event.type
    if kind == "game_started":
        tokens = d.get("tokens") or {}
        head = f"Game {d['game_no']} begins" if int(d.get("game_no", 1)) > 1 else "The game begins"
        extra = ""
        if tokens:
            extra = " Goods tokens: " + ", ".join(
                f"{good_name(str(g))} in {region_name(str(r), data)}" for r, g in sorted(tokens.items())
            ) + "."
        return f"{head}: six cards are face up and everyone has {_coins(max(d['coins']))}.{extra}"
    if kind == "neutral_placed":
        return f"{who()} puts a neutral army in {region()} ({d['left']} left to place)."
    if kind == "bid_made":
        return f"{who()} has made a secret bid."
    if kind == "your_bid":
        return f"Your secret bid: {_coins(int(d['amount']))}."
    if kind == "bids_revealed":
        return "Bids revealed: " + ", ".join(f"{names[p]} {b}" for p, b in enumerate(d["bids"])) + "."
    if kind == "bid_won":
        tied: Sequence[int] = d.get("tied") or []
        why = ""
        if tied:
            how = "the youngest player wins it" if d.get("youngest") else "the die decided"
            why = f" (a tie between {join_words([names[p] for p in tied])}: {how})"
        paid = int(d["paid"])
        pays = f"pays {_coins(paid)}" if paid else "pays nothing"
        return f"{who()} wins the bid{why}, {pays} and chooses who starts."
    if kind == "bid_roll":
        rolls: Sequence[Sequence[int]] = d["rolls"]
        return "Tied bids roll a die: " + ", ".join(f"{names[p]} rolls {r}" for p, r in rolls) + "."
    if kind == "first_player":
        if d.get("chosen_by") is not None and d["chosen_by"] != d["player"]:
            return f"{who('chosen_by')} chooses {who()} to start."
        return f"{who()} starts."
    if kind == "card_taken":
        price = int(d["price"])
        cost = "for free" if price == 0 else f"for {_coins(price)}"
        summary = card_summary(_card(int(d["card"]), data))
        return f"{who()} takes card {int(d['position']) + 1} {cost}: {summary}."
    if kind == "action_chosen":
        return f"{who()} chooses to {step_text(str(d['action']), int(d['n'])).lower()}."
    if kind == "action_ignored":
        return f"{who()} ignores the card's action."
    if kind == "action_stopped":
        unused, verb = int(d.get("unused", 0)), str(d.get("action") or "")
        if unused and verb:
            return f"{who()} stops with {units_left(verb, unused).removesuffix(' left')} unused."
        return f"{who()} is done with the card."
    if kind == "action_lapsed":
        return f"{who()} cannot {step_text(str(d['action']), int(d['n'])).lower()}: {_LAPSED[str(d['why'])]}."
    if kind == "army_placed":
        return f"{who()} places an army in {region()}."
    if kind == "army_moved":
        how = " over the water" if d.get("water") else ""
        return f"{who()} moves an army from {region('source')} to {region('to')}{how}."
    if kind == "city_built":
        return f"{who()} builds a city in {region()}."
    if kind == "army_destroyed":
        owner = int(d["owner"])
        whose = "a neutral army" if owner == NEUTRAL else (
            "one of their own armies" if owner == int(d["player"]) else f"an army of {names[owner]}")
        return f"{who()} destroys {whose} in {region()}."
    if kind == "turn":
        return f"{who()}'s turn."
    if kind == "game_scored":
        lines = "; ".join(f"{names[p]} {_parts(b)}" for p, b in enumerate(d["breakdown"]))
        games = int(d.get("games") or 1)
        which = f"Game {d['game_no']} of {games}" if games > 1 else "The game"
        return f"{which} is scored: {lines}."
    # game_over: the platform tells the end of the game once, with the summary (summary_text)
    return None


def _parts(b: ScoreView) -> str:
    """``12 (5 regions + 1 continent + 6 for goods)``."""
    return (f"{b['total']} ({plural(int(b['regions']), 'region')} + "
            f"{plural(int(b['continents']), 'continent')} + {b['goods']} for goods)")


# -- status, hand, board, summary ----------------------------------------------------------------------------


_WHERE: dict[Phase, str] = {
    Phase.NEUTRAL: "setup: neutral armies",
    Phase.BID: "the bid for first player",
    Phase.FIRST: "choosing the first player",
}
"""Where a game is before its turns begin (once they have, the round)."""


def stage(view: EMView) -> str:
    """``Round 4 of 8``, ``Game 2 of 3, the bid``, ``Game over``."""
    phase = Phase(view["phase"])
    if phase is Phase.OVER:
        return "Game over"
    game = f"Game {view['game_no']} of {view['games']}, " if int(view["games"]) > 1 else ""
    where = _WHERE.get(phase)
    if where is None:
        done = min(len(h) for h in view["cards"])
        where = f"round {min(done + 1, int(view['cards_to_end']))} of {view['cards_to_end']}"
    text = game + where
    return text[0].upper() + text[1:]


def _scores(view: EMView, names: Names) -> str:
    return ", ".join(f"{names[p]} {t}" for p, t in enumerate(view["totals"]))


def _armies_on_board(view: EMView, seat: int) -> int:
    return sum(counts[seat] for counts in view["board"]["armies"].values())


def result_text(view: EMView, names: Names) -> str:
    """The winner, and which tie-breaker settled a tie on points (the rulebook's order)."""
    ranking: Sequence[int] = view["ranking"] or []
    if not ranking:
        return ""
    points: Sequence[int] = view["final"] or view["totals"]
    first = ranking[0]
    if len(ranking) == 1 or points[ranking[1]] < points[first]:
        return f"{names[first]} wins with {points[first]} points."
    second = ranking[1]
    keys = (
        ("coins", list(view["coins"])),
        ("armies on the board", [_armies_on_board(view, p) for p in range(int(view["players"]))]),
        ("controlled regions", [int(s["regions"]) for s in view["scores"]]),
    )
    for what, values in keys:
        if values[first] != values[second]:
            return (f"{names[first]} wins: tied with {names[second]} on {points[first]} points, "
                    f"ahead on {what} ({values[first]} to {values[second]}).")
    tied = [names[p] for p in ranking if points[p] == points[first]]
    return f"{join_words(tied)} share the win: tied on points, coins, armies and regions."


def _named(seat: int | None, what: str) -> int:
    """The seat a view of a phase always names (``neutral_next`` while neutral armies are placed, the
    bid's ``winner`` while the first player is chosen, ``current`` in a turn)."""
    if seat is None:
        raise ValueError(f"a view of this phase names {what}")
    return seat


def _neutral_now(view: EMView, names: Names) -> str:
    seat = _named(view["neutral_next"], "the seat placing")
    return f"{names[seat]} places a neutral army ({view['neutral_left']} left to place)"


def _bid_now(view: EMView, names: Names) -> str:
    waiting = [names[p] for p, done in enumerate(view["bid"]["has_bid"]) if not done]
    return f"Waiting for the secret bids of {join_words(waiting)}"


def _first_now(view: EMView, names: Names) -> str:
    return f"{names[_named(view['bid']['winner'], 'the bid winner')]} won the bid and chooses who starts"


def _turn_now(view: EMView, names: Names) -> str:
    current = _named(view["current"], "the seat playing")
    return f"{names[current]}'s turn" + (" (playing a card)" if view["task"] else " (taking a card)")


_NOW: dict[Phase, Callable[[EMView, Names], str]] = {
    Phase.NEUTRAL: _neutral_now, Phase.BID: _bid_now, Phase.FIRST: _first_now, Phase.TURN: _turn_now,
}
"""Who does what now, in each phase of a game under way."""


def status_text(view: EMView, names: Names) -> str:
    """Stage, whose turn, cards to the end and the scores; at the end the result and the winner."""
    phase = Phase(view["phase"])
    if phase is Phase.OVER:
        return f"Game over. Final scores: {_scores(view, names)}. {result_text(view, names)}"
    now = _NOW[phase](view, names)
    left = sum(int(view["cards_to_end"]) - len(h) for h in view["cards"])
    end = f"{plural(left, 'card')} to take before the end ({view['cards_to_end']} each)"
    label = "Points so far" if int(view["game_no"]) > 1 else "Points as they stand"
    return f"{stage(view)}. {now}. {end}. {label}: {_scores(view, names)}."


def _goods_line(owned: Mapping[str, int]) -> str:
    return join_words([f"{n} {good_name(g)}" for g, n in owned.items()]) if owned else "no goods"


def hand_text(view: EMView, player: int, names: Names) -> str:
    """Your secret bid (while the others bid), your coins, cards, goods and pieces."""
    data = load_data()
    lines: list[str] = []
    you = view["you"]
    if Phase(view["phase"]) is Phase.BID and you is not None and you["player"] == player:
        lines.append(f"Your secret bid: {_coins(int(you['bid']))}." if you["bid"] is not None
                     else "You have not bid yet.")
    cards = view["cards"][player]
    lines.append(f"You have {_coins(int(view['coins'][player]))} and "
                 f"{plural(len(cards), 'card')} of {view['cards_to_end']}.")
    if cards:
        lines.append("Your cards: " + "; ".join(card_summary(_card(c, data)) for c in cards) + ".")
    score = view["scores"][player]
    lines.append(f"Your goods: {_goods_line(score['goods_owned'])}.")
    lines.append(f"Armies: {view['armies_left'][player]} of {data.armies_per_player} still to place; "
                 f"cities: {view['cities_left'][player]} of {data.cities_per_player} still to build.")
    lines.append(f"Your points as they stand: {_parts(score)}.")
    return " ".join(lines)


def _pieces(view: EMView, region: str, names: Names) -> str:
    board = view["board"]
    parts: list[str] = []
    armies = board["armies"].get(region) or [0] * int(view["players"])
    cities = board["cities"].get(region) or [0] * int(view["players"])
    for p in range(int(view["players"])):
        bits = ([plural(armies[p], "army", "armies")] if armies[p] else []) + (
            [plural(cities[p], "city", "cities")] if cities[p] else [])
        if bits:
            parts.append(f"{' and '.join(bits)} of {names[p]}")
    if board["neutral"].get(region):
        parts.append(f"{plural(board['neutral'][region], 'neutral army', 'neutral armies')}")
    return "; ".join(parts)


def board_text(view: EMView, names: Names) -> str:
    """The board continent by continent: who stands where and holds what, then the row of cards."""
    data = load_data()
    board = view["board"]
    out: list[str] = []
    for cid, continent in data.continents.items():
        holder = board["continents"].get(cid)
        held = f", held by {_who(int(holder), names)}" if holder is not None else ""
        regions: list[str] = []
        empty: list[str] = []
        for rid in continent.regions:
            name = region_name(rid, data) + (" (the start)" if rid == view["start"] else "")
            token = board["tokens"].get(rid)
            if token:
                name += f" (a {good_name(token)} token)"
            pieces = _pieces(view, rid, names)
            if not pieces:
                empty.append(name)
                continue
            control = board["control"].get(rid)
            ctrl = (f", controlled by {_who(int(control), names)}" if control is not None
                    else ", nobody controls it")
            regions.append(f"{name}: {pieces}{ctrl}")
        body = ". ".join(regions) if regions else "nobody is there"
        rest = f". Empty: {join_words(empty)}" if empty and regions else ""
        out.append(f"{continent.name}{held}: {body}{rest}.")
    row = "; ".join(f"{c['position'] + 1} ({_price(int(c['price']))}) {card_summary(c)}" for c in view["row"])
    out.append(f"Face-up cards: {row or 'none'}. {plural(int(view['deck_left']), 'card')} left in the deck.")
    return " ".join(out)


def summary_text(view: EMView, names: Names) -> str:
    """Final scores with what they are made of (regions, continents, goods set by set) and the winner."""
    lines: list[str] = []
    full = int(view["games"]) > 1
    for p, score in enumerate(view["scores"]):
        goods = ", ".join(f"{n} {good_name(g)} = {score['goods_points'][g]}"
                          for g, n in score["goods_counted"].items())
        line = f"{names[p]}: {_parts(score)}" + (f"; goods {goods}" if goods else "")
        if full:
            past = [g[p] for g in view["past_games"]]
            line += f"; earlier games {join_words([str(x) for x in past])}; total {view['totals'][p]}"
        lines.append(line + ".")
    over = Phase(view["phase"]) is Phase.OVER
    head = "Final scores" if over else "Scores as they stand"
    if full:
        head += f" (the breakdown is of game {view['game_no']})"
    result = result_text(view, names) if over else ""
    return f"{head}: " + " ".join(lines) + (f" {result}" if result else "")


def _region_named(place: str, data: EMData) -> str | None:
    """The region whose name or id is ``place`` (any case, spaces trimmed), or None."""
    key = " ".join(place.split()).casefold()
    for rid, region in data.regions.items():
        if key in (rid.casefold(), region.name.casefold()):
            return rid
    return None


def _scorer(seat: int | None, names: Names, who_would: str) -> str:
    """Who holds a region or a continent, and who scores its point (the neutral armies never do)."""
    if seat is None:
        return f"nobody; {who_would} scores 1 point for it"
    if int(seat) == NEUTRAL:
        return "the neutral armies, so nobody scores its point"
    return f"{names[int(seat)]}, who scores 1 point for it"


def place_text(view: EMView, place: str, names: Names) -> str | None:
    """One region from the view: its continent, goods token, every seat's armies and cities, who
    controls it and its continent, what it is worth, and its neighbours over land and water.

    None when no region is called ``place``.
    """
    data = load_data()
    rid = _region_named(place, data)
    if rid is None:
        return None
    region = data.regions[rid]
    board = view["board"]
    continent = data.continents[region.continent]
    start = " (every army starts here)" if rid == view["start"] else ""
    lines = [f"{region.name}: a region of {continent.name}{start}."]
    token = board["tokens"].get(rid)
    lines.append(f"Goods token: {good_name(token) if token else 'none'}.")
    pieces = _pieces(view, rid, names)
    lines.append(f"Here: {pieces}." if pieces else "Here: nobody (no army and no city).")
    control = board["control"].get(rid)
    lines.append("Control: " + _scorer(control, names, "whoever has the most pieces here") + ".")
    holder = board["continents"].get(region.continent)
    lines.append(f"{continent.name}: held by "
                 + _scorer(holder, names, "whoever controls the most of its regions") + ".")
    land = sorted(region_name(r, data) for r in data.land[rid])
    water = sorted(region_name(r, data) for r in data.water[rid])
    lines.append(f"Neighbours over land: {join_words(land) if land else 'none'}; "
                 f"over water: {join_words(water) if water else 'none'}.")
    return "\n".join(lines)
