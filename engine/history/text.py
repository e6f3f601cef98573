"""The classic game in words: one sentence per event, the status, a hand, the board, the summary.

Everything here reads a view (:mod:`engine.history.view`) or an event, plus the
static rules data (card and empire names, the map); players are named only
through ``names``, the platform's name for each seat ("alice (Blue)").
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from engine.core import Event, Names
from engine.history.data import RulesData
from engine.history.state import Phase, TurnStep
from engine.history.view import ClassicView, TurnView
from engine.words import dice, first_place, join_words, plural, pronoun, roman, the, verb, winners

#: Events nobody needs to read: an army lost is told by the line of its battle; the end of the game
#: is told once by the platform, with the summary (:func:`summary_text`).
BOOKKEEPING = frozenset({"army_lost", "game_over"})


def seat(names: Names, p: int | None) -> str:
    """A seat by its platform name; "nobody" for no seat."""
    return "nobody" if p is None else names[int(p)]


def _lands(lands: Sequence[str]) -> str:
    return join_words(list(lands)) if lands else "no land"


def _seas(waters: Sequence[str]) -> str:
    return join_words([f"the {w}" for w in waters]) if waters else "no sea"


#: How a fort was paid for, as the fort_built event says it.
_PAID = {"army": "paid with an army", "coin": "paid with a coin", "free": "free this turn"}


def _empire(rules: RulesData, key: str | None) -> str:
    found = rules.empires.get(key) if key is not None else None
    return found.name if found is not None else "no empire"


def describe_event(event: Event, names: Names, rules: RulesData) -> str | None:
    """One sentence for an engine event, or None for bookkeeping nobody needs to read."""
    d = event.data

    def who(p: Any) -> str:
        return seat(names, p)

    def battle() -> str:
        if d["treachery"]:
            return f"Treachery: {who(d['attacker'])} takes {d['land']} without a fight."
        extra = int(d["attacker_bonus"] or 0)
        bonus = f" (+{extra} from event cards)" if extra else ""
        fort = " (+1 for the fort)" if d["fort"] else ""
        att = max(d["attacker_dice"]) + extra
        dfd = max(d["defender_dice"]) + (1 if d["fort"] else 0)
        result = {"win": f"{who(d['attacker'])} wins", "loss": f"{who(d['defender'])} holds the land",
                  "tie": "a tie, both armies fall"}[d["outcome"]]
        if d["outcome"] == "win" and att == dfd:
            result += " (the tie goes to the attacker this turn)"
        return (
            f"Battle for {d['land']}: {who(d['attacker'])} rolls {dice(d['attacker_dice'])}{bonus}; "
            f"{who(d['defender'])} defends with {dice(d['defender_dice'])}{fort}: {att} to {dfd}, {result}."
        )

    def fleet_battle() -> str:
        bonus = f" +{d['attacker_bonus']}" if d.get("attacker_bonus") else ""
        result = {"win": "the attacker takes the sea", "loss": "the defending fleet holds",
                  "tie": "a tie, both fleets sink"}
        return (f"Fleet battle in the {d['sea']}: {who(d.get('attacker'))} rolls "
                f"{dice(d['attacker_dice'])}{bonus} against {who(d.get('defender'))}'s "
                f"{dice(d['defender_dice'])}: {result[d['outcome']]}.")

    def supply_out() -> str:
        if d["piece"] == "fleet":
            return f"No fleet marker is left for the {d['water']}."
        if "wanted" in d:
            return (f"Only {d['got']} of {d['wanted']} {d['piece']} pieces of {who(d['player'])} are free: "
                    f"the others are still on the board.")
        if "player" in d:
            return f"No {d['piece']} piece of {who(d['player'])} is free."
        return f"No {d['piece']} piece is left in the box."

    texts: dict[str, Callable[[], str]] = {
        "epoch": lambda: f"{d['name']} begins. Empire cards are drawn in this order: "
        + join_words([who(p) for p in d["draw_order"]]) + ".",
        "rolloff": lambda: "Roll-off for the first draw: "
        + join_words([f"{who(int(p))} {r}" for p, r in d["rolls"].items()]) + ".",
        "drew_empire": lambda: f"{who(d['player'])} draws an empire card.",
        "your_draw": lambda: f"You drew {_empire(rules, d['empire'])}.",
        "empire_kept": lambda: f"{who(d['player'])} keeps the card.",
        "empire_given": lambda: f"{who(d['player'])} "
        + ("has no other choice and gives" if d["forced"] else "gives") + f" the card to {who(d['to'])}.",
        "unused_empires": lambda: f"{plural(int(d['count']), 'empire card')} go back to the box unseen.",
        "your_empire": lambda: f"This epoch you play {_empire(rules, d['empire'])}.",
        "empire_skipped": lambda: f"Nobody holds {the(d['name'])}; {pronoun(d['name'])} "
        f"{verb(d['name'], 'is', 'are')} skipped.",
        "turn": lambda: f"{who(d['player'])} plays {the(d['name'])} (strength {d['strength']}, "
        f"starting in {_lands(d['starts'])}).",
        "card_played": lambda: f"{who(d['player'])} plays the event {rules.cards[d['card']].name}.",
        "card_withdrawn": lambda: f"{who(d['player'])} takes {rules.cards[d['card']].name} back.",
        "established": lambda: f"{the(d['name'], start=True)} {verb(d['name'], 'is', 'are')} established in "
        f"{_lands(d['starts'])} with "
        f"{plural(int(d['pool']), 'more army', 'more armies')} in the pool.",
        "fleets": lambda: f"{the(d['name'], start=True)} {verb(d['name'], 'sails', 'sail')} with fleets in "
        f"{_seas(d['fleets'])}.",
        "expanded": lambda: f"{who(d['player'])} expands into {d['land']}"
        + (" from the sea." if d["by_sea"] else "."),
        "replaced": lambda: f"An older army in {d['land']} makes way for the new empire.",
        "attack": lambda: f"{who(d['player'])} attacks {d['land']}"
        + (" from the sea" if d["by_sea"] else "")
        + f" ({plural(int(d['defender_dice']), 'defending die', 'defending dice')}).",
        "battle": battle,
        "leader_killed": lambda: f"Triples ({dice(d['roll'])}): the leader falls; back to two dice.",
        "fort_lost": lambda: f"The fort in {d['land']} is destroyed.",
        "sacked": lambda: f"{d['land']}: the {d['was']} is "
        + ("turned into a city." if d["now"] else "sacked and removed."),
        "cleared": lambda: f"{d['land']} is cleared ({d['why']}).",
        "fort_built": lambda: f"A fort is built in {d['land']} ({_PAID.get(str(d['paid']), 'paid for')}).",
        "free_forts": lambda: f"Engineering: {plural(int(d['count']), 'free fort')} this turn.",
        "bought_back": lambda: f"{who(d['player'])} spends a coin to bring a lost army back.",
        "reallocated": lambda: f"The fleet in the {d['water']} becomes a coin.",
        "monuments": lambda: (f"Monuments of {who(d.get('player'))} rise in {_lands(d['lands'])}."
                              if len(d["lands"]) > 1 else
                              f"A monument of {who(d.get('player'))} rises in {_lands(d['lands'])}."),
        "scored": lambda: f"{who(d['player'])} scores {d['points']} (total {d['score']}).",
        "preeminence": lambda: (
            f"{who(d['player'])} leads and takes a pre-eminence marker." if d["player"] is not None
            else "Nobody leads alone: no pre-eminence marker this epoch."
        ),
        "markers_revealed": lambda: (
            f"{who(d['player'])} reveals {_markers(d['markers'])}"
            if d["markers"] else f"{who(d['player'])} has no pre-eminence marker"
        ) + f": {d['score']} points in all.",
        "kingdom": lambda: _kingdom(str(d["name"]), who(d["player"]), str(d["land"])),
        "migrants": lambda: f"Migrants of {who(d['player'])} settle in {_lands(d['lands'])}.",
        "crusade": lambda: f"{plural(int(d['armies']), 'crusader')} gather in the {d['sea']}.",
        "crusade_prize": lambda: f"The crusaders hold {d['land']} and fortify it.",
        "force_done": lambda: f"{the(d['name'], start=True)} {verb(d['name'], 'is', 'are')} done "
        f"({plural(int(d['left']), 'army', 'armies')} unused).",
        "epidemic": lambda: f"{d['why']}: the army of {who(d['owner'])} in {d['land']} rolls "
        f"{dice(d['dice'])} and " + ("dies." if d["died"] else "survives."),
        "disaster": lambda: f"Disaster strikes {d['land']}: its monument falls.",
        "treachery": lambda: f"Treachery is planned against {d['land']}.",
        "astronomy": lambda: f"Astronomy: an extra fleet will sail in the {d['sea']}.",
        "fleet_battle": fleet_battle,
        "fleet_manned": lambda: f"{who(d['player'])} holds the {d['sea']} with an army on a fleet.",
        "fleet_removed": lambda: f"The fleet of {who(d['owner'])} in the {d['sea']} leaves the board.",
        "supply_out": supply_out,
        "markers_short": lambda: f"Only {d['got']} of {d['wanted']} coins: the fleet/coin markers ran out.",
        "revolt_idle": lambda: f"{who(d['player'])} already holds {d['land']}: "
        "the revolt finds nobody to attack.",
    }
    make = texts.get(event.type)
    return None if make is None else make()  # bookkeeping, or a type these rules no longer emit


def _markers(values: Sequence[int]) -> str:
    """"a pre-eminence marker worth 4", "pre-eminence markers worth 2 and 4": each marker is a number of
    points, so the numbers are read as what they are worth."""
    if len(values) == 1:
        return f"a pre-eminence marker worth {values[0]}"
    return f"pre-eminence markers worth {join_words([str(m) for m in values])}"


def _kingdom(card: str, owner: str, land: str) -> str:
    """"The Etruscans, a kingdom of alice (Blue), rise in Northern Apennines." (the card is
    "Kingdom: Etruscans")."""
    name = card.removeprefix("Kingdom: ")
    return f"{the(name, start=True)}, a kingdom of {owner}, {verb(name, 'rises', 'rise')} in {land}."


# -- the state of play, from a view ----------------------------------------------------


def stage(view: ClassicView) -> str:
    # the phase converted at the door: a view that went through JSON holds its string
    phase = Phase(view["phase"])
    if phase is Phase.OVER:
        return "Game over"
    if phase is Phase.DRAW:
        return f"{view['epoch_name']}, empire draw"
    return view["epoch_name"]


def _scores(view: ClassicView, names: Names) -> str:
    parts = []
    for p, score in enumerate(view["scores"]):
        markers = view["markers"][p]
        extra = f" and {plural(markers, 'pre-eminence marker')}" if markers else ""
        parts.append(f"{names[p]} {score}{extra}")
    return join_words(parts)


def _result(view: ClassicView, names: Names) -> str:
    final = view["final"] or view["scores"]
    ranking = view["ranking"] or sorted(range(len(final)), key=lambda p: -final[p])
    return (f"Final scores: {join_words([f'{names[p]} {final[p]}' for p in ranking])}. "
            f"{winners(first_place(view['places'], ranking), names)}.")


def status_text(view: ClassicView, names: Names, rules: RulesData) -> str:
    if Phase(view["phase"]) is Phase.OVER:
        return f"{stage(view)}. {_result(view, names)}"
    lines = [f"{stage(view)}. Scores: {_scores(view, names)}."]
    draw = view["draw"]
    if draw and draw["drawer"] is not None:
        lines.append(f"{names[draw['drawer']]} is deciding on a drawn empire card.")
    turn = view["turn"]
    if turn:
        coins = turn["coins"] + turn["allies_coins"]
        lines.append(
            f"{names[turn['player']]} plays {the(turn['name'])}"
            + (f" (now {turn['force']})" if turn["force"] != turn["name"] else "")
            + f": {_step_words(turn)}, {plural(turn['pool'], 'army', 'armies')} in the pool"
            + (f" and {turn['restricted']} Allies armies" if turn["restricted"] else "")
            + (f", {plural(coins, 'coin')}" if coins else "")
            + (f", {plural(turn['free_forts'], 'free fort')}" if turn["free_forts"] else "") + "."
        )
        if turn["played"]:
            played = join_words([rules.cards[c].name for c in turn["played"]])
            lines.append(f"Events played this turn: {played}.")
        if turn["fleets"]:
            lines.append("Fleets in " + _seas(list(turn["fleets"])) + ".")
    return "\n".join(lines)


_PICKS = {"monument": "monument sites", "unman": "fleets to take off the board", "fleets": "fleets to keep"}


def _step_words(turn: TurnView) -> str:
    pick = turn["pick"]
    return {
        TurnStep.EVENTS: "playing event cards",
        TurnStep.CARD: "resolving an event card",
        TurnStep.MINOR: "expanding with a Minor Empire",
        TurnStep.CRUSADE: "expanding with the Crusaders",
        TurnStep.REALLOCATE: "turning fleets into coins",
        TurnStep.NAVAL: "fighting fleet battles",
        TurnStep.EXPAND: "expanding",
        TurnStep.PICK: "choosing " + _PICKS.get(pick["what"] if pick else "", "a place"),
    }[TurnStep(turn["step"])]


def hand_text(view: ClassicView, player: int, names: Names, rules: RulesData) -> str:
    you = view["you"]
    if not you or you["player"] != player:
        return "You hold nothing you can see here."
    cards = [f"{rules.cards[c].name} ({rules.cards[c].deck}): {rules.cards[c].text}" for c in you["hand"]]
    lines = [f"You hold {plural(len(cards), 'event card')}" + (":" if cards else ".")]
    lines.extend(f"- {c}" for c in cards)
    if you.get("drawn"):
        lines.append(f"You drew the empire card {_empire(rules, you['drawn'])}: keep it or give it away.")
    empire = you.get("empire")
    if empire:
        e = rules.empires[empire]
        lines.append(f"Your empire this epoch: {e.name} (strength {e.strength}, "
                     f"starting in {_lands(e.starts)}).")
    elif "empire_given_by" in you:
        lines.append(f"{names[you['empire_given_by']]} gave you an empire card; "
                     "you will see it when it is called.")
    for p, key in (you.get("gave") or {}).items():
        lines.append(f"You gave {_empire(rules, key)} to {names[int(p)]}.")
    lines.append(f"If you scored now: {you['score_now']['total']} points.")
    return "\n".join(lines)


def _land_words(view: ClassicView, land: str, names: Names) -> str:
    board = view["board"]
    bits = []
    stack = board["armies"].get(land, [])
    if stack:
        owner = names[stack[0][0]]
        epochs = join_words([roman(int(a[1])) for a in stack])
        bits.append(f"{owner} ({plural(len(stack), 'army', 'armies')} of epoch {epochs})")
    if land in board["forts"]:
        bits.append("a fort")
    if land in board["structures"]:
        bits.append(f"a {board['structures'][land]}")
    if land in board["monuments"]:
        bits.append("a monument")
    return f"{land}: {join_words(bits)}" if bits else land


def board_text(view: ClassicView, names: Names, rules: RulesData, *, empty: bool = False) -> str:
    """The board by area; with ``empty=False`` only lands holding something are listed."""
    lines = []
    epoch = view["epoch"]
    for area in [*rules.map.areas, None]:
        lands = [n for n, info in rules.map.lands.items() if info.area == area]
        shown = [_land_words(view, n, names) for n in sorted(lands)]
        shown = [line for line, n in zip(shown, sorted(lands), strict=True) if empty or line != n]
        if not shown:
            continue
        title = area or "Barren lands"
        value = f" (worth {rules.area_value(area, epoch)} this epoch)" if area else ""
        lines.append(f"{title}{value}: " + "; ".join(shown) + ".")
    manned = view["board"]["manned"]
    if manned:
        lines.append("Seas held by armies on fleets: "
                     + "; ".join(f"the {s} by {names[a[0]]}" for s, a in sorted(manned.items())) + ".")
    return "\n".join(lines) if lines else "The board is empty."


def summary_text(view: ClassicView, names: Names) -> str:
    final = view["final"] or view["scores"]
    ranking = view["ranking"] or sorted(range(len(final)), key=lambda p: -final[p])
    over = Phase(view["phase"]) is Phase.OVER
    lines = ["Final scores:" if over else "Scores as they stand:"]
    values = view["marker_values"]
    for place, p in enumerate(ranking, 1):
        markers = values[p] if values else []
        extra = (f" ({view['scores'][p]} on the board and {sum(markers)} from {_markers(markers)})"
                 if markers else "")
        lines.append(f"{place}. {names[p]}: {final[p]} points{extra}.")
    lines.append(f"{winners(first_place(view['places'], ranking), names)}." if over
                 else "The game is not over yet.")
    return "\n".join(lines)


def force_name(rules: RulesData, key: str) -> str:
    """Whose army an army key names: an empire, a Minor Empire, a kingdom..."""
    if key in rules.empires:
        return str(rules.empires[key].name)
    kind, _, rest = key.partition(":")
    card = rules.cards.get(rest)
    if card is not None and card.minor is not None:
        return str(card.minor.name)
    return (rest or kind).replace("-", " ").title()


def place_text(view: ClassicView, place: str, names: Names, rules: RulesData) -> str | None:
    """One land from the public board: its area and what the area is worth this epoch, terrain and
    resource, the armies standing there and whose they are, what is built, its waters (and who
    holds them with a fleet) and its neighbours. None when no land is called ``place``."""
    wmap = rules.map
    name = wmap.land_named(place)
    if name is None:
        return None
    info = wmap.lands[name]
    board = view["board"]
    epoch = int(view["epoch"] or 1)
    if info.area is None:
        head = f"{name}: a barren land (no area; armies cannot stay)."
    else:
        head = (f"{name}: a land of {info.area} (the area is worth {rules.area_value(info.area, epoch)} "
                f"in epoch {roman(epoch)}).")
    lines = [head, f"Terrain: {info.terrain}; resource: {'yes' if info.resource else 'no'}."]
    stack = board["armies"].get(name, [])
    if stack:
        owner = int(stack[0][0])
        pieces = join_words([f"{force_name(rules, str(a[2]))} (epoch {roman(int(a[1]))})" for a in stack])
        lines.append(f"Held by {names[owner]}: {plural(len(stack), 'army', 'armies')} of {pieces}.")
    else:
        lines.append("Held by nobody: no army stands here.")
    built = [f"a {board['structures'][name]}"] if name in board["structures"] else []
    for what, where in (("fort", board["forts"]), ("monument", board["monuments"])):
        count = where.count(name)
        if count:
            built.append(f"a {what}" if count == 1 else plural(count, what))
    lines.append("Built here: " + (join_words(built) if built else "nothing") + ".")
    if info.waters:
        manned = board["manned"]
        waters = [w + (f" (held by {names[int(manned[w][0])]})" if w in manned else "")
                  for w in sorted(info.waters)]
        lines.append("Waters: " + join_words(waters) + ".")
    else:
        lines.append("Waters: none (inland).")
    near = []
    for other in sorted(wmap.neighbours(name)):
        kind = wmap.border(name, other)
        near.append(other + (f" ({kind.replace('_', ' ')})" if kind else ""))
    lines.append("Neighbours: " + (join_words(near) if near else "none") + ".")
    return "\n".join(lines)
