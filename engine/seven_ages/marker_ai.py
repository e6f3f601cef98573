"""How the greedy 7 Ages player places its action markers and digs for a startable card (the players'
notes, L2295-2365).

- The additional marker (L343) is Start empire only while the seat holds a card the rules let it start
  now (:func:`engine.seven_ages.start.startable`, the engine's own check of ages and start areas); else
  it is Destiny, to dig for one (L2303-2305: "If you can't start an empire, consider throwing all your
  cards out in your destiny action"). On an empty map a seat other than the First player places the wild
  card: the First player's empire sets the game's age before its turn comes, and the wild card is turned
  as Start if a card of its still may start, else as Destiny (L2303: "you might prefer to play the wild
  card so that you can choose a destiny instead if the first empire is in an age you don't have").
- Each empire's marker follows where its glory comes from (L2331: "production actions for those empires
  that need to be rich, civilise actions for those that need to have many glittering cities or beautiful
  artefacts, trade and progress for those needing to be the most advanced and manoeuvre for those needing
  the most areas"), tempered by its situation (L2333: a sparse empire produces; a dark age without a
  Scientist only progresses by trading, L1026).
- An empire that earned under 3 glory at each of its last two harvests is discarded (L2353: "one of the
  most common mistakes in 7 Ages is to hang on too long before folding your dud empires") when its seat
  is at its most empires (no additional marker, L343) and holds a card it may start in its place.
- In its Destiny go the seat keeps only cards it may still start; holding none it may start now, it
  throws out all but the one that comes into play soonest (L2305).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from engine.core import Action, PlayerId
from engine.seven_ages.actions import DiscardCard, Done, PlaceMarker
from engine.seven_ages.cards import Card, load_deck
from engine.seven_ages.data import load_tables
from engine.seven_ages.destiny import DISCARD
from engine.seven_ages.markers import extra_allowed
from engine.seven_ages.start import eligible, game_age, startable
from engine.seven_ages.state import EXTRA, WILD, Empire, SevenState

DUD = 3
"""An empire earning less glory than this a harvest is a dud (L2353)."""
DUD_TURNS = 2
"""... when it has done so at this many harvests running (L2353: "fewer than 3 glory per turn")."""
FEW_UNITS = 3
"""An empire with fewer units than this is sparse: it produces (L2333)."""
POOR = 10
"""An empire with less money than this leans to Production."""

ACTION_OF: dict[str, str] = {
    "money": "production",
    "land_units": "production",
    "cavalry": "production",
    "ships": "production",
    "progress": "trade",
    "per_level": "trade",
    "per_trade_tied": "trade",
    "cities": "civilise",
    "artefacts": "civilise",
    "religion": "civilise",
    "region": "manoeuvre",
    "not_europe": "manoeuvre",
    "seas": "manoeuvre",
    "wheat": "manoeuvre",
    "elephant": "manoeuvre",
    "oil": "manoeuvre",
}
"""The action that grows each glory category (L2331). The homeland is held, not grown: no action."""
HABIT = ("production", "manoeuvre", "trade", "civilise")
"""The order among actions a category ties (the greedy player's older habit: units, land, progress)."""
SPARE = (WILD, "civilise", "destiny", "start")
"""Markers for an empire whose wanted ones are gone: the wild card keeps its choice open (L353); never
the Discard marker, which would throw the empire away."""


def glory_weights(card: Card) -> Counter[str]:
    """How much of ``card``'s glory each action grows: the values of its categories (1 when unnumbered)."""
    weights: Counter[str] = Counter()
    for g in card.empire.glory:
        action = ACTION_OF.get(str(g["category"]))
        if action is not None:
            weights[action] += int(g.get("value", 1))
    return weights


def dud(e: Empire) -> bool:
    """Whether ``e`` earned under :data:`DUD` glory at each of its last :data:`DUD_TURNS` harvests."""
    return len(e.harvests) >= DUD_TURNS and all(g < DUD for g in e.harvests[-DUD_TURNS:])


def _replacement(state: SevenState, seat: PlayerId) -> bool:
    """Whether ``seat`` holds a card whose empire the rules let start now (L387-413)."""
    cards = load_deck().cards
    return any(not state.has_empire(c) and eligible(state, cards[c].empire) for c in state.people[seat].hand)


def wanted(state: SevenState, e: Empire, room: bool) -> list[str]:
    """The actions ``e`` wants, best first: a dark age without a Scientist trades (L1026); otherwise its
    glory categories' weights, production raised for a sparse or poor empire and manoeuvre counted only
    with ``room`` to expand into (an empire with nowhere to go gains no area by manoeuvring); with room, a
    tie goes to manoeuvre."""
    if e.progress in load_tables().dark_ages and not e.has_leader("Scientist"):
        return ["trade", *(a for a in HABIT if a != "trade")]
    weights = glory_weights(load_deck().cards[e.card])
    if not room:
        weights["manoeuvre"] = 0
    elif weights["manoeuvre"] == 0:
        weights["manoeuvre"] = 1  # new land is income and room for every other category
    if e.count() < FEW_UNITS:
        weights["production"] += 2
    elif e.money < POOR:
        weights["production"] += 1
    # with room, a tie goes to manoeuvre: the greedy player expands only every other turn
    return sorted(HABIT, key=lambda a: (-weights[a], not (room and a == "manoeuvre"), HABIT.index(a)))


def choose(state: SevenState, player: PlayerId, places: Sequence[PlaceMarker], room: bool) -> Action:
    """The marker to place now (the step asks for each empire in turn, then the additional ones)."""
    names = {a.marker: a for a in places}
    where = places[0].empire
    if where == EXTRA:
        first = "start" if startable(state, player) else "destiny"
        if first == "start" and not state.empires and player != state.first:
            # L2303: on an empty map the First player's empire sets the age first; the wild card starts
            # an empire if a card still may, else takes the Destiny
            first = WILD
        order = [first, *(m for m in ("destiny", WILD, "civilise") if m != first)]
    else:
        e = state.empire(where)
        fold = dud(e) and extra_allowed(state, player) == 0 and _replacement(state, player)
        order = [*(["discard"] if fold else []), *wanted(state, e, room), *SPARE]
    return next((names[m] for m in order if m in names), places[0])


def _keeps(state: SevenState, player: PlayerId) -> set[int]:
    """The cards a Destiny keeps: those it may still start (by their last age); with none it may start now,
    only the one that comes into play soonest (L2305: "At most keep one card")."""
    cards = load_deck().cards
    hand = state.people[player].hand
    age = game_age(state) or 1
    alive = [c for c in hand if not state.has_empire(c) and _still_startable(cards[c], age)]
    if startable(state, player):
        return set(alive)
    later = [c for c in alive if cards[c].empire.ages[0] > age]
    return {min(later, key=lambda c: (cards[c].empire.ages[0], -cards[c].value, c))} if later else set()


def _still_startable(card: Card, age: int) -> bool:
    """Whether ``card``'s empire may start in the game's age or a later one (the age only rises)."""
    cond = card.empire.effect("conditional_age")
    return card.empire.ages[1] >= age or (cond is not None and int(cond["age"]) >= age)


def destiny(state: SevenState, player: PlayerId, actions: Sequence[Action]) -> Action | None:
    """The greedy player's next move while it discards in its Destiny go: a card it would not keep, then
    Done (which draws); None outside that stage."""
    go = state.go_of(player)
    if go is None or go.action != "destiny" or go.stage != DISCARD:
        return None
    keep = _keeps(state, player)
    cards = load_deck().cards
    out = [a for a in actions if isinstance(a, DiscardCard) and a.card not in keep]
    if out:
        return min(out, key=lambda a: (cards[a.card].value, a.card))
    return next((a for a in actions if isinstance(a, Done)), None)
