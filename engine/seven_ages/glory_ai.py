"""What the greedy 7 Ages player reckons a place, a unit or a card is worth in glory (the players' notes,
L2309, L2331: "choose the ones with the greatest chance of procuring the most glory each turn").

Everything here reads public state (the map, the empires in play and their cards) and the empire's own
card, never a hand or a face-down marker:

- :func:`area_glory`: the glory categories of an empire's card an area would add to if the empire held it
  (a region, Not-Europe, a sea, a resource, a religion's areas and its sites), each by its value;
- :func:`sea_targets`: a ship of the empire that may move into a vacant sea next to it, for an empire whose
  card pays for seas (L1104: a sea counts by the units in it);
- :func:`wants_ships` and :func:`ship_builds`: an empire whose card pays for seas or ships builds a ship
  first while it has fewer than :data:`FLEET`;
- :func:`crowding`: how many other players' units stand in and next to a card's start areas (L2309:
  "Sometimes it is better to choose an empire with a lower maximum but in an area with little
  competition");
- :func:`religion_worth`: what adopting a religion pays the empire's card.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.seven_ages.actions import Build
from engine.seven_ages.cards import Empire as CardEmpire
from engine.seven_ages.cards import load_deck
from engine.seven_ages.data import load_tables
from engine.seven_ages.groups import joinable, new_group, next_areas
from engine.seven_ages.manoeuvre_moves import SHIPS
from engine.seven_ages.map import load_map
from engine.seven_ages.movement import mode_of
from engine.seven_ages.production import empire_age
from engine.seven_ages.start import start_areas
from engine.seven_ages.state import Empire, Go, SevenState

FLEET = 2
"""Ships an empire whose card pays for seas or ships builds before anything else (one to hold a sea, one
to take the next)."""
SHIP_CATEGORIES = ("seas", "ships")
"""Glory categories a ship earns."""


def area_glory(state: SevenState, e: Empire, area: str) -> int:
    """The values of ``e``'s glory categories that holding ``area`` adds to (1 for an unnumbered one).

    A ranked category pays by place (L1036), so one more area does not always earn its value; the value
    still says which categories the card cares for most, which is what the notes ask (L2331).
    """
    wmap = load_map()
    place = wmap.areas[area]
    card = load_deck().cards[e.card].empire
    age = empire_age(e)
    counts = not place.land or place.terrain is None or \
        load_tables().terrains[place.terrain].counts_for_glory or "count_desert_tundra" in card.codes()
    in_region = {str(g.get("region")): area in (set(wmap.areas) if g.get("region") == "World"
                                                else wmap.members(str(g.get("region"))))
                 for g in card.glory if g["category"] == "region"}
    pays = {
        "seas": not place.land,
        "not_europe": counts and place.land and "Europe" not in wmap.regions_of(area),
        "elephant": place.elephant and age < 7,
        "oil": place.oil and age == 7,
        "wheat": place.wheat and (place.terrain == "fertile" or age >= 5),
    }
    total = 0
    for g in card.glory:
        category = str(g["category"])
        if category == "region":
            paid = counts and in_region[str(g.get("region"))]
        elif category == "religion":
            paid = counts and g.get("religion") in e.religions
        else:
            paid = pays.get(category, False)
        total += int(g.get("value", 1)) if paid else 0
    if e.religions and place.religion == e.religions[0]:
        total += 1  # a site of its dominant religion earns 1 a harvest (L1118)
    return total


def wants_ships(e: Empire) -> bool:
    """Whether ``e``'s card pays for seas or ships."""
    card = load_deck().cards[e.card].empire
    return any(g["category"] in SHIP_CATEGORIES for g in card.glory)


def ship_builds(e: Empire, builds: Sequence[Build]) -> list[Build]:
    """The ship builds among ``builds`` while ``e`` wants ships and holds fewer than :data:`FLEET`."""
    if not wants_ships(e):
        return []
    held = sum(s.count for s in e.units if mode_of(s.unit) == SHIPS)
    return [b for b in builds if mode_of(b.unit) == SHIPS and held + b.count <= FLEET]


def sea_targets(state: SevenState, go: Go) -> list[tuple[str, str, str]]:
    """``(from, ship, to)``: a ship of the go's empire that may still move and a vacant sea next to it
    that it may enter, for an empire whose card pays for seas; empty otherwise."""
    e = state.empire(go.empire)
    card = load_deck().cards[e.card].empire
    if card.category("seas") is None:
        return []
    wmap = load_map()
    out: list[tuple[str, str, str]] = []
    for area in e.areas():
        group = new_group(state, e, area)
        ships = sorted(u for u in joinable(state, e, go, group) if mode_of(u) == SHIPS)
        if not ships:
            continue
        trial = {**group, "units": {ships[0]: 1}}
        out += [(area, ships[0], to) for to in next_areas(state, e, go, trial)
                if not wmap.areas[to].land and not state.occupants(to)]
    return out


def crowding(state: SevenState, card: CardEmpire) -> int:
    """Other empires' units in ``card``'s start areas and the land next to them (public: units on the map)."""
    wmap = load_map()
    starts = set(start_areas(state, card))
    near = starts | {n for a in starts for n in wmap.adjacency[a] if wmap.areas[n].land}
    return sum(s.count for o in state.empires for s in o.units if s.area in near)


def religion_worth(e: Empire, name: str) -> int:
    """What adopting the religion ``name`` pays ``e``'s card: its religion category's value (L1116), +1
    as any religion's sites may pay (L1118); 0 for a name that is no religion."""
    if name not in load_tables().religions:
        return 0
    return 1 + (load_deck().cards[e.card].empire.category("religion", name) or 0)


def sea_room(state: SevenState, e: Empire) -> bool:
    """Whether ``e``'s card pays for seas and one of its ships lies next to a vacant sea."""
    if load_deck().cards[e.card].empire.category("seas") is None:
        return False
    wmap = load_map()
    return any(mode_of(s.unit) == SHIPS and any(
        not wmap.areas[n].land and not state.occupants(n) for n in wmap.adjacency[s.area]) for s in e.units)
