"""The arithmetic of movement (L598-698), as pure functions of the state: what a unit may enter, what it
costs, who blocks it, and how many units remove a disorder marker.

The Manoeuvre go (:mod:`engine.seven_ages.manoeuvre`) asks these one area at a time for the group
that is moving; nothing here enumerates paths. Readings are written in ``data/seven_ages/README.md``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from engine.seven_ages.cards import load_deck
from engine.seven_ages.data import load_counters, load_tables
from engine.seven_ages.manoeuvre_moves import AIR, LAND, SHIPS
from engine.seven_ages.map import Arrow, load_map
from engine.seven_ages.move_events import extra_cost
from engine.seven_ages.production import empire_age, unit_class
from engine.seven_ages.state import Empire, SevenState
from engine.seven_ages.war_modifiers import entry_cost, fortified

SIEGE_UNITS = frozenset({"Artillery", "Battleship", "Bomber", "Cannon", "Catapult"})
"""Units that make a city worth 0 when removing disorder (L684) and in conflict (L723)."""
GALLEY = "Galley"
EXPLORER, BUILDER, POPULIST, STRATEGIST = "Explorer", "Builder", "Populist", "Strategist"
DISORDER_BASE = 2  # "The number of units required is 2 plus" (L680)
SURPLUS = 2  # "at least twice as many units there" (L638, L644, L660, L670)


def mode_of(unit: str) -> str:
    """How ``unit`` moves: :data:`LAND` (infantry, missile, cavalry), :data:`SHIPS` or :data:`AIR`."""
    cls = unit_class(unit)
    return cls if cls in (SHIPS, AIR) else LAND


def _codes(e: Empire) -> list[Mapping[str, object]]:
    return list(load_deck().cards[e.card].empire.special)


def allowance(e: Empire, unit: str) -> int:
    """The movement printed on ``unit`` for the empire's shade of counters (L604), with its card's
    ``move_bonus`` for the unit's class (the Mongols' cavalry)."""
    counters = load_counters()
    base = counters.values[(counters.mixes[e.colour].shade, unit)]["move"]
    cls = unit_class(unit)
    bonus = sum(int(str(c["amount"])) for c in _codes(e)
                if c["code"] == "move_bonus" and c["unit_class"] == cls)
    return base + bonus


def may_vacate(e: Empire) -> bool:
    """Whether the card lets the empire leave its land areas empty in its current age (L668: "Unless
    otherwise stated on its card")."""
    age = empire_age(e)
    return any(c["code"] == "may_vacate" and int(str(c["first_age"])) <= age <= int(str(c["last_age"]))
               for c in _codes(e))


def galleys_in_oceans(e: Empire) -> bool:
    """The card's special lets its galleys enter oceans and keeps them at sea (L654)."""
    return any(c["code"] == "galleys_in_oceans" for c in _codes(e))


def terrain_of(area: str, age: int) -> str:
    """The area's terrain as it counts in ``age``: a forest counts as fertile from age 6 (L489)."""
    terrain = load_map().areas[area].terrain
    assert terrain is not None, f"{area} is not a land area"
    rule = load_tables().terrains[terrain].becomes_fertile_from_age
    return "fertile" if rule is not None and age >= rule else terrain


def land_cost(area: str, age: int) -> int:
    """Movement points a land unit pays to enter the land ``area`` (Terrain Effects Chart, L608)."""
    return load_tables().terrains[terrain_of(area, age)].move


def terrain_defence(area: str, age: int) -> int:
    """The area's terrain defence modifier in ``age`` (0 for a sea)."""
    if not load_map().areas[area].land:
        return 0
    return load_tables().terrains[terrain_of(area, age)].defence


def step_cost(state: SevenState, e: Empire, mode: str, to: str, explorer: bool) -> int:
    """Points to enter ``to``: ships and aircraft 1 (L612); land units by terrain, by the mover's age;
    a neutral area entered with an Explorer 1 (L2029); then option 16's roads and railways
    (:func:`~engine.seven_ages.war_modifiers.entry_cost`); then what an event added to the area this turn
    (Cataract's ``move_cost``), for every unit."""
    flat = mode != LAND or (explorer and not state.occupants(to))
    base = 1 if flat else land_cost(to, empire_age(e))
    return entry_cost(state, e, to, base) + extra_cost(state, to)


def others_in(state: SevenState, e: Empire, area: str) -> list[Empire]:
    """The other empires with units in ``area``."""
    return [o for o in state.occupants(area) if o.card != e.card]


def strength(e: Empire, area: str, modes: Iterable[str]) -> int:
    """The empire's units of the given ways of moving in ``area``."""
    wanted = set(modes)
    return sum(s.count for s in e.units if s.area == area and mode_of(s.unit) in wanted)


def outnumbers(e: Empire, other: Empire, area: str, modes: Iterable[str]) -> bool:
    """Whether ``e`` already has at least twice as many of those units in ``area`` as ``other`` has."""
    modes = tuple(modes)
    return strength(e, area, modes) >= SURPLUS * strength(other, area, modes)


def sea_blocked(state: SevenState, e: Empire, sea: str) -> bool:
    """A crossing arrow's sea holds another empire's unit and ``e`` lacks twice as many ships and
    aircraft there (L670)."""
    return any(not outnumbers(e, o, sea, (SHIPS, AIR)) for o in others_in(state, e, sea))


def arrow_between(a: str, b: str) -> Arrow | None:
    """The crossing or blue arrow joining ``a`` and ``b`` (None if they share a border or nothing)."""
    wmap = load_map()
    if frozenset((a, b)) in wmap.borders:
        return None
    return next((x for x in wmap.arrows if {x.a, x.b} == {a, b}), None)


def crossing_blocked(state: SevenState, e: Empire, arrow: Arrow) -> list[str]:
    """The seas that stop a land unit crossing ``arrow`` (empty: it may cross). One sea: blocked while
    it holds another empire's uncontested unit; an arrow on the border of two seas: only when both do
    (L670-672)."""
    blocked = [sea for sea in arrow.over if sea_blocked(state, e, sea)]
    return blocked if len(blocked) == len(arrow.over) else []


def supported_sea(state: SevenState, e: Empire, sea: str) -> bool:
    """A galley in ``sea`` is safe: the sea borders a land area the empire controls (L654)."""
    return any(e.count(n) for n in load_map().adjacency[sea] if load_map().areas[n].land)


def air_base(e: Empire, area: str) -> bool:
    """An aircraft may end in a sea or ocean ``area`` that holds one of its empire's non-aircraft units
    or is next to an area that does (L662; any land area will do)."""
    wmap = load_map()
    if wmap.areas[area].land:
        return True
    near = (area, *wmap.adjacency[area])
    return any(strength(e, a, (LAND, SHIPS)) for a in near)


def disorder_needed(state: SevenState, e: Empire, area: str, *, invaded: bool, river: bool,
                    arrow: bool) -> int:
    """Units needed to remove ``area``'s disorder (L680-684): 2, the terrain defence by the empire's age,
    +1 across a river and +1 across a crossing arrow for units entering this action, +2 if one invaded,
    and the city's value unless a siege unit of the empire is there."""
    mods = {m: int(v.get("defence", 0)) for m, v in load_tables().modifiers.items()}
    need = DISORDER_BASE + terrain_defence(area, empire_age(e))
    need += mods["river"] * river + mods["crossing_arrow"] * arrow + mods["invaded"] * invaded
    siege = any(s.area == area and s.unit in SIEGE_UNITS for s in e.units)
    return need + (0 if siege else state.area(area).city)


def disorder_force(state: SevenState, e: Empire, area: str) -> int:
    """The empire's units in ``area`` for removing disorder; a fort counts as one (L686), and so does a
    Great Wall's (option 16, L1634)."""
    return e.count(area) + (1 if fortified(state, e, area) else 0)

