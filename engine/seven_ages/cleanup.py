"""The clean-ups at the end of every player's action: units lost at sea, leaders left alone, vacant areas.

Two rules hold "at the end of any player's action", which in the engine is the end of every go
(:func:`engine.seven_ages.markers.end_go`, and a go that ends because its empire was discarded):

- a leader in an area without a unit of its empire is lost: a named leader leaves the game, an
  unnamed one goes back to the leader cup (L938, L2187);
- an area vacant of units loses its leaders, artefacts, fort and disorder, and a capital there
  becomes a plain city of the same value (L622).

Units lost at sea are checked then too (L634, L654, L664, option 14's L1352): :func:`marooned` land
units, :func:`adrift` galleys and aircraft.

All run over the whole map, not only the areas of the go's empire: the rule names any area, and
while Production runs for every player at once another player's go may have emptied one.
A discarded empire's own markers go at once with it (L1016): see :func:`markers_of_discarded`.
"""

from __future__ import annotations

from dataclasses import replace

from engine.seven_ages.cards import load_deck
from engine.seven_ages.data import load_tables
from engine.seven_ages.map import load_map
from engine.seven_ages.state import AreaState, Empire, Leader, SevenState
from engine.seven_ages.steps import Ctx

LAND_CLASSES = ("infantry", "missile", "cavalry")
"""Land units: lost at sea off their ships (L634)."""
MARINES = ("infantry", "missile")
"""Unit classes option 14 lets stay aboard their ships at sea (L1352)."""


def retire_leader(state: SevenState, leader: Leader) -> SevenState:
    """``state`` with a leader off the map gone where it goes: a named one out of the game (it may never
    come back, L946), an unnamed one back into the leader cup (L936, L2187)."""
    if leader.named:
        return replace(state, appeared=tuple(sorted({*state.appeared, leader.name})))
    return replace(state, cup=(*state.cup, leader.abilities[0]))


def vacant(state: SevenState, area: str) -> bool:
    """Whether no empire has a unit in ``area``."""
    return not state.occupants(area)


def end_of_action(ctx: Ctx) -> None:
    """The clean-ups of L622, L938 and L2187, as a player's action (a go) ends; then units lost at sea:
    land units off their ships (with option 14, infantry and missiles with no land of their empire next
    to them or no ship under them, L634, L1352), galleys far from their empire's land (L654), aircraft with
    no unit of theirs in or next to their sea (L664). Those rules say "immediately": the end of the go is
    the latest moment they are checked (a manoeuvre applies them as its groups stop)."""
    _lose_marooned(ctx)
    _lose_lone_leaders(ctx)
    _clear_vacant_areas(ctx)


def _lose_marooned(ctx: Ctx) -> None:
    for e in ctx.state.empires:
        for area in e.areas():
            for unit, n in {**marooned(ctx.state, e, area), **adrift(ctx.state, e, area)}.items():
                e = e.add_units(area, unit, -n)
                ctx.emit("units_lost_at_sea", seat=e.owner, empire=e.card, area=area, unit=unit, count=n)
        ctx.state = ctx.state.with_empire(e)


def _lose_lone_leaders(ctx: Ctx) -> None:
    # A leader in a vacant area has no unit of its empire there either: this covers L622's leaders too.
    for e in ctx.state.empires:
        lost = [ld for ld in e.leaders if not e.count(ld.area)]
        if not lost:
            continue
        s = ctx.state.with_empire(replace(e, leaders=tuple(ld for ld in e.leaders if e.count(ld.area))))
        for ld in lost:
            s = retire_leader(s, ld)
        ctx.state = s
        for ld in lost:
            ctx.emit("leader_lost", seat=e.owner, empire=e.card, leader=ld.name, area=ld.area, named=ld.named)


def _clear_vacant_areas(ctx: Ctx) -> None:
    for held in ctx.state.areas:
        if not (held.fort or held.disorder or held.artefacts) or not vacant(ctx.state, held.name):
            continue
        ctx.state = ctx.state.with_area(_without_markers(held))
        ctx.emit("area_cleared", area=held.name, fort=held.fort, disorder=held.disorder,
                 artefacts=list(held.artefacts))
    for e in ctx.state.empires:
        if e.capital is not None and vacant(ctx.state, e.capital):
            ctx.state = ctx.state.with_empire(replace(e, capital=None))
            ctx.emit("capital_to_city", seat=e.owner, empire=e.card, area=e.capital,
                     value=ctx.state.area(e.capital).city)


def _without_markers(held: AreaState) -> AreaState:
    """``held`` with its city only: no fort, disorder or artefact marker."""
    return replace(held, fort=False, disorder=False, artefacts=())


def markers_of_discarded(state: SevenState, empire: Empire) -> SevenState:
    """``state`` without the forts, disorder and artefact markers of the areas ``empire`` alone holds: a
    discarded empire's "non-city markers" leave the map with its units (L1016). An area it shares
    with another empire (a start area set up beside it) keeps them: they are not its alone."""
    s = state
    for area in empire.areas():
        if all(o.card == empire.card for o in s.occupants(area)):
            s = s.with_area(_without_markers(s.area(area)))
    return s


def marooned(state: SevenState, e: Empire, area: str) -> dict[str, int]:
    """The empire's land units lost in the sea or ocean ``area``: transported land units are lost unless
    they end in a coastal area (L634); with option 14, infantry and missiles may stay aboard their ships
    in a sea next to a land area their empire controls, one a ship (L1352)."""
    wmap = load_map()
    if wmap.areas[area].land:
        return {}
    tables = load_tables()
    classes = {s.unit: tables.unit_types[s.unit].unit_class for s in e.units if s.area == area}
    aboard = {s.unit: s.count for s in e.units if s.area == area and classes[s.unit] in LAND_CLASSES}
    if not aboard:
        return {}
    room = 0
    if state.options.get("marines") and wmap.areas[area].kind == "sea" and any(
            e.count(n) for n in wmap.adjacency[area] if wmap.areas[n].land):
        room = sum(s.count for s in e.units if s.area == area and classes[s.unit] == "ships")
    lost: dict[str, int] = {}
    for unit in sorted(aboard, key=lambda u: (-tables.unit_types[u].cost, u)):  # the dearest stay aboard
        keep = min(aboard[unit], room) if classes[unit] in MARINES else 0
        room -= keep
        if aboard[unit] > keep:
            lost[unit] = aboard[unit] - keep
    return lost


GALLEY, EXPLORER = "Galley", "Explorer"


def adrift(state: SevenState, e: Empire, area: str) -> dict[str, int]:
    """The empire's galleys and aircraft lost in the sea or ocean ``area``: galleys not next to a land area
    the empire controls, unless an Explorer is with them or the card lets its galleys into oceans (L654);
    aircraft with none of the empire's other units in the area or next to it (L662-664)."""
    wmap = load_map()
    if wmap.areas[area].land:
        return {}
    tables = load_tables()
    lost: dict[str, int] = {}
    galleys = e.count(area, GALLEY)
    special = {c["code"] for c in load_deck().cards[e.card].empire.special}
    if galleys and "galleys_in_oceans" not in special and not e.has_leader(EXPLORER, area) and not any(
            e.count(n) for n in wmap.adjacency[area] if wmap.areas[n].land):
        lost[GALLEY] = galleys
    near = (area, *wmap.adjacency[area])
    grounded = any(s.area in near and tables.unit_types[s.unit].unit_class != "aircraft" for s in e.units)
    if not grounded:
        for s in e.units:
            if s.area == area and tables.unit_types[s.unit].unit_class == "aircraft":
                lost[s.unit] = s.count
    return lost
