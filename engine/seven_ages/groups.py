"""The moving group of a Manoeuvre go: its bookkeeping in ``Go.data``, who may join it, where it may go
next, where it may stop or set its cargo down, and which disorder the empire's units may then remove.

Everything here reads the state and the go and changes nothing; :mod:`engine.seven_ages.manoeuvre`
applies the moves. A group is a JSON dict in ``Go.data["group"]`` (see :func:`new_group`): the area it
left (``from``) and where it is (``at``), its ``units`` (all land units, all ships or all aircraft) and
the ``cargo`` its ships carry, the riding ``leaders`` (names; unnamed leaders of a kind share one), its
``path`` and the points ``spent``, the ``coast`` its ships lie on, the areas it entered ``vacant``,
whether galleys went ``adrift``, the blockades it ``promised``, how its last step came in (``invaded``,
``river``, ``arrow``), a canal request under way (``asking``, ``toll``), the movement its go
gained from events (``bonus``, :mod:`engine.seven_ages.move_events`), and the units it has set down on
its way (``dropped``: ``[area, unit, count]``; absent in groups saved before rules version 5).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from engine.seven_ages.canals import canal_between, canals_from
from engine.seven_ages.canals import owner as canal_owner
from engine.seven_ages.canals import standing as canal_standing
from engine.seven_ages.data import load_tables
from engine.seven_ages.manoeuvre_moves import AIR, LAND, SHIPS
from engine.seven_ages.map import load_map
from engine.seven_ages.move_events import BONUS, go_bonus
from engine.seven_ages.movement import (
    EXPLORER,
    GALLEY,
    POPULIST,
    STRATEGIST,
    air_base,
    allowance,
    arrow_between,
    crossing_blocked,
    disorder_force,
    disorder_needed,
    galleys_in_oceans,
    may_vacate,
    mode_of,
    others_in,
    outnumbers,
    step_cost,
    strength,
)
from engine.seven_ages.state import Empire, Go, SevenState
from engine.seven_ages.text import empire_name, the_empire, unit_words
from engine.seven_ages.war_modifiers import ocean_barred
from engine.words import join_words, plural

MODES = (LAND, SHIPS, AIR)
Refusal = tuple[str, str]
"""An illegal move's code and its one sentence."""


# -- the go's bookkeeping ---------------------------------------------------------------------------

def moved_counts(go: Go) -> dict[tuple[str, str], int]:
    out: dict[tuple[str, str], int] = {}
    for area, unit, n in go.data.get("moved", []):
        out[(area, unit)] = out.get((area, unit), 0) + int(n)
    return out


def group_of(go: Go) -> dict[str, Any] | None:
    group = go.data.get("group")
    return dict(group) if group else None


def new_group(state: SevenState, e: Empire, area: str) -> dict[str, Any]:
    """A group about to leave ``area``: no units yet, no steps, the coast its empire's ships lie on, and
    the movement its go gained from events (played before any unit moves, so before any group forms)."""
    return {"from": area, "at": area, "units": {}, "cargo": {}, "leaders": [], "path": [], "spent": 0,
            "coast": dict(e.coasts).get(area), "vacant": [], "adrift": False, "promised": [],
            "invaded": False, "river": False, "arrow": False, BONUS: go_bonus(state, e.card)}


def group_mode(group: Mapping[str, Any]) -> str | None:
    units = group["units"]
    return mode_of(next(iter(units))) if units else None


def riders(e: Empire, group: Mapping[str, Any]) -> list[str]:
    """The abilities of the leaders riding with the group."""
    return [a for ld in e.leaders if ld.name in group["leaders"] for a in ld.abilities]


def free_leaders(e: Empire, group: Mapping[str, Any]) -> list[str]:
    """The names of the leaders in the group's area not riding with it yet (one each, sorted)."""
    here = Counter(ld.name for ld in e.leaders_in(group["from"]))
    here.subtract(Counter(group["leaders"]))
    return sorted(name for name, n in here.items() if n > 0)


def seats_left(group: Mapping[str, Any]) -> bool:
    """Whether one more leader may ride: one a land unit or aircraft (L628), any number on ships (L630)."""
    if group_mode(group) == SHIPS:
        return True
    return len(group["leaders"]) < sum(int(n) for n in group["units"].values())


def points_left(e: Empire, group: Mapping[str, Any]) -> int:
    """Points the group has left: the least allowance among its units, +1 with an Explorer riding
    along for the whole move (L610), + its go's event bonus (``move_bonus_once``), less what its steps
    cost."""
    if not group["units"]:
        return 0
    bonus = (1 if EXPLORER in riders(e, group) else 0) + int(group.get(BONUS, 0))
    return min(allowance(e, u) for u in group["units"]) + bonus - int(group["spent"])


def aboard(group: Mapping[str, Any]) -> dict[str, int]:
    """The land and aircraft units the group's ships carry (one a ship, L630)."""
    return {u: int(n) for u, n in group.get("cargo", {}).items()}


def everyone(group: Mapping[str, Any]) -> dict[str, int]:
    """The group's units and its cargo."""
    out = {u: int(n) for u, n in group["units"].items()}
    for u, n in aboard(group).items():
        out[u] = out.get(u, 0) + n
    return out


def unmoved_count(e: Empire, go: Go, group: Mapping[str, Any] | None, area: str, unit: str) -> int:
    in_group = everyone(group).get(unit, 0) if group and group["at"] == area else 0
    return e.count(area, unit) - moved_counts(go).get((area, unit), 0) - in_group


def spare_room(state: SevenState, e: Empire, go: Go, group: Mapping[str, Any]) -> int | None:
    """How many more non-aircraft units may leave the group's area (None: any number). An empire
    leaves one in each land area it controls (L668) unless its card says otherwise or an Explorer
    passed through the area (L2031)."""
    area = group["from"]
    if not load_map().areas[area].land or may_vacate(e) or area in go.data.get("explored", []):
        return None
    staying = sum(s.count for s in e.units if s.area == area and mode_of(s.unit) != AIR)
    going = sum(n for u, n in everyone(group).items() if mode_of(u) != AIR)
    return max(0, staying - going - 1)


def joinable(state: SevenState, e: Empire, go: Go, group: Mapping[str, Any]) -> dict[str, int]:
    """Each unit type that may still join the group, and how many (before its first step): units that
    move as the group does, and, to a group of ships, one land or aircraft unit a ship (L630)."""
    mode = group_mode(group)
    spare = spare_room(state, e, go, group)
    room = sum(int(n) for n in group["units"].values()) - sum(aboard(group).values())
    out: dict[str, int] = {}
    at_sea = not load_map().areas[group["from"]].land
    for s in e.units:
        cargo = mode == SHIPS and mode_of(s.unit) != SHIPS
        if s.area != group["from"] or (mode is not None and mode_of(s.unit) != mode and not cargo):
            continue
        if at_sea and mode_of(s.unit) == LAND and not cargo:
            continue  # land units at sea (option 14) move only as their ships' cargo (L632)
        n = unmoved_count(e, go, group, s.area, s.unit)
        if mode_of(s.unit) != AIR and spare is not None:
            n = min(n, spare)
        if cargo:
            n = min(n, room)
        if n > 0:
            out[s.unit] = n
    return out


def all_that_can(state: SevenState, e: Empire, go: Go, group: Mapping[str, Any],
                  mode: str) -> dict[str, int]:
    """Every unit of ``mode`` that may join; the one left behind (L668) is the cheapest."""
    tables = load_tables()
    spare = spare_room(state, e, go, group)
    if mode == LAND and not load_map().areas[group["from"]].land:
        return {}  # land units at sea move only as cargo (L632)
    free = {s.unit: unmoved_count(e, go, group, s.area, s.unit) for s in e.units
            if s.area == group["from"] and mode_of(s.unit) == mode}
    out: dict[str, int] = {}
    for unit in sorted(free, key=lambda u: (-tables.unit_types[u].cost, -tables.unit_types[u].available, u)):
        n = free[unit] if mode == AIR or spare is None else min(free[unit], spare)
        if n > 0:
            out[unit] = n
            if spare is not None and mode != AIR:
                spare -= n
    return out


# -- what the group may do ----------------------------------------------------------------------------

def entry_problem(state: SevenState, e: Empire, go: Go, group: Mapping[str, Any], to: str) -> Refusal | None:
    """Why the group may not enter ``to`` next (None: it may), from its place and points only."""
    wmap = load_map()
    at, mode = group["at"], group_mode(group)
    if mode is None:
        return "no_units", "Choose the units that move first."
    if go.data.get("second") and STRATEGIST not in riders(e, group):
        return "strategist", "In the Strategist's second move, units move only with the Strategist (L787)."
    canal = canal_between(at, to) if mode == SHIPS and to not in wmap.adjacency[at] else None
    if to not in wmap.adjacency[at] and canal is None:
        return "not_adjacent", f"{to} is not next to {at}."
    if canal is not None:
        keeper = canal_owner(state, canal)
        if keeper is None:
            return "canal_closed", f"Nobody controls {canal.area}: the {canal.name} canal is closed (L652)."
        if keeper.owner != e.owner and canal_standing(state, keeper.owner) == "no":
            return "canal_refused", (f"{the_empire(keeper.card)} let no ships through the {canal.name} "
                                     "canal (L652).")
    here, there = wmap.areas[at], wmap.areas[to]
    arrow = arrow_between(at, to)
    if mode == LAND:
        if not there.land:
            return "land_only", "Land units may only enter land areas (L640)."
        if arrow is not None:
            blocked = crossing_blocked(state, e, arrow)
            if blocked:
                return "arrow_blocked", (f"Another empire's units in {join_words(blocked)} stop your units "
                                         f"crossing the arrow to {to} (L670).")
    elif mode == SHIPS:
        if there.land and not here.land:
            if not wmap.coastal(to):
                return "ships_coastal", f"Ships may not enter {to}: it is not coastal (L642)."
        elif there.land:
            return "ships_over_land", f"Ships cannot cross land from {at} to {to} (L648)."
        elif here.land and here.coasts and group["coast"] is not None:
            seas = here.coasts[group["coast"]]
            if to not in seas:
                return "wrong_coast", (f"Your ships lie on the {group['coast']} coast of {at}: from there "
                                       f"they reach only {join_words(list(seas))} (L648-650).")
        if there.kind == "ocean" and GALLEY in group["units"] and not galleys_in_oceans(e):
            return "galleys_oceans", f"Galleys may not enter the ocean {to} (L654)."
        if there.kind == "ocean" and ocean_barred(state, e, group["units"]):
            return "rutters", f"Without Rutters your ships may not sail into the ocean {to} (L1905)."
    cost = step_cost(state, e, mode, to, EXPLORER in riders(e, group))
    if cost > points_left(e, group):
        return "no_points", f"Entering {to} costs {plural(cost, 'movement point')}: the units have " \
                            f"{points_left(e, group)} left."
    if group["path"]:  # moving on from an area it entered: the group passes through it
        return through_problem(state, e, group)
    return None


def through_problem(state: SevenState, e: Empire, group: Mapping[str, Any]) -> Refusal | None:
    """Why the group may not move on through the area it has entered (None: it may): another empire's
    units there and too few of the empire's own *already* there, the group not counted (L638, L644,
    L660). Ending there is allowed: a conflict follows the movement (L702); ships passing through a sea
    are bound by a promise instead (:mod:`engine.seven_ages.manoeuvre`, L644)."""
    at, mode = group["at"], group_mode(group)
    before = e
    for unit, n in everyone(group).items():
        before = before.add_units(at, unit, -n)
    for unit, n in dropped_at(group, at).items():  # units it set down here came with it: not "already"
        before = before.add_units(at, unit, -n)
    for other in others_in(state, e, at):
        if mode == AIR:
            if _has_air(other, at) and not outnumbers(before, other, at, (AIR,)):
                return "air_blocked", (f"Your aircraft may only fly on through {at} with twice as many "
                                       f"aircraft there as {empire_name(other.card)} (L660).")
        elif (mode == LAND or load_map().areas[at].land) and not outnumbers(before, other, at, MODES):
            return "outnumber", (f"Your units may only move on through {at} with twice as many units "
                                 f"already there as {empire_name(other.card)} (L638, L644).")
    return None


def _has_air(e: Empire, area: str) -> bool:
    return any(s.area == area and mode_of(s.unit) == AIR for s in e.units)


def dropped_at(group: Mapping[str, Any], area: str) -> dict[str, int]:
    """The units the group has set down in ``area`` on its way (cargo, or a Strategist's units)."""
    out: dict[str, int] = {}
    for where, unit, n in group.get("dropped", []):
        if where == area:
            out[unit] = out.get(unit, 0) + int(n)
    return out


def _promise_problem(state: SevenState, e: Empire, go: Go, group: Mapping[str, Any]) -> Refusal | None:
    """Units may not end where the group is if its area holds an empire whose ships the empire's ships
    passed at sea without outnumbering them (L644)."""
    promised = {*go.data.get("promised", []), *group["promised"]}
    for other in others_in(state, e, group["at"]):
        if other.card in promised:
            return "passed_blockade", (f"Your ships passed {empire_name(other.card)}'s ships at sea without "
                                       "outnumbering them two to one, so none of your units may end in an "
                                       f"area {empire_name(other.card)} control this action (L644).")
    return None


def stop_problem(state: SevenState, e: Empire, go: Go, group: Mapping[str, Any]) -> Refusal | None:
    """Why the group may not end its move where it is (None: it may)."""
    at = group["at"]
    promise = _promise_problem(state, e, go, group)
    if promise is not None:
        return promise
    mode = group_mode(group)
    if mode == AIR and not air_base(e, at):
        return "air_base", (f"Aircraft may only end in {at} if it, or an area next to it, holds one of your "
                            "other units (L662).")
    if mode == SHIPS:
        lie = dict(e.coasts).get(at)
        lying = strength(e, at, (SHIPS,)) > sum(int(n) for n in group["units"].values())
        if lie is not None and group["coast"] is not None and lie != group["coast"] and lying:
            return "other_coast", (f"Your ships in {at} lie on its {lie} coast: ships arriving on the "
                                   f"{group['coast']} coast cannot stop there too (L648-650).")
    return None


def drop_problem(state: SevenState, e: Empire, go: Go, group: Mapping[str, Any], unit: str) -> Refusal | None:
    """Why the ships may not set ``unit`` down where they are (None: they may, L632)."""
    at = group["at"]
    promise = _promise_problem(state, e, go, group)
    if promise is not None:
        return promise
    if mode_of(unit) == LAND and not load_map().areas[at].land:
        return "drop_at_sea", ("Land units leave their ships only in a land area (L632); with option 14 "
                               "infantry and missiles may stay aboard when the ships stop at sea.")
    if mode_of(unit) == AIR and not air_base(e, at):
        return "air_base", f"Aircraft may only end in {at} if it, or an area next to it, holds your units " \
                           "(L662)."
    return None


def shed_problem(state: SevenState, e: Empire, go: Go, group: Mapping[str, Any], unit: str,
                 count: int) -> Refusal | None:
    """Why the group may not leave ``count`` of its own ``unit`` where it is (None: it may). In the
    Strategist's second move, units stacked with it "may be dropped off in areas the Strategist moves
    through" (L787): they end their move there, as cargo set down does (L632). The Strategist rides on
    with at least one unit (L628: a leader moves only with one unit for its whole move); leaving every
    unit is stopping here."""
    if not go.data.get("second"):
        return "not_aboard", "Only cargo is set down on the way (L632); a group's own units stop together."
    if not group["path"]:
        return "not_moved", ("These units have not moved yet: units that stay here do not join the "
                             "Strategist's group (L787).")
    units = {u: int(n) for u, n in group["units"].items()}
    if count < 1 or units.get(unit, 0) < count:
        return "not_in_group", (f"You cannot leave {unit_words(count, unit)} in {group['at']}: the moving "
                                f"group has {units.get(unit, 0)} of them.")
    left = sum(units.values()) - count
    if left < 1 or (group_mode(group) != SHIPS and left < len(group["leaders"])):
        return "leader_needs_unit", ("Each leader rides on with one unit of its own (L628): keep a unit "
                                     "with each, or stop here.")
    if group_mode(group) == SHIPS and left < sum(aboard(group).values()):
        return "cargo_needs_ships", ("Each ship carries one unit (L630): set the cargo down first, or keep "
                                     "a ship for each.")
    return stop_problem(state, e, go, {**group, "units": {unit: count}, "cargo": {}})


DROP_CHOICES = 12
"""At most this many drop-off choices in one decision (one or all of a type; issue 26: small decisions)."""


def drop_choices(state: SevenState, e: Empire, go: Go, group: Mapping[str, Any]) -> list[tuple[str, int]]:
    """``(unit, count)`` the group may set down where it is, one or all of a type: its cargo (L632) and,
    in a Strategist's second move, its own units (L787); the first :data:`DROP_CHOICES` of them."""
    if not group["path"]:
        return []
    out: list[tuple[str, int]] = []
    for unit, n in sorted(aboard(group).items()):
        if drop_problem(state, e, go, group, unit) is None:
            out += [(unit, 1), *([(unit, n)] if n > 1 else [])]
    if go.data.get("second"):
        for unit, n in sorted(group["units"].items()):
            counts = (1, int(n)) if int(n) > 1 else (1,)
            out += [(unit, c) for c in counts if shed_problem(state, e, go, group, unit, c) is None]
    return out[:DROP_CHOICES]


def next_areas(state: SevenState, e: Empire, go: Go, group: Mapping[str, Any]) -> list[str]:
    """The areas the group may enter next, from where it is and its points left."""
    near = set(load_map().adjacency[group["at"]])
    if group_mode(group) == SHIPS:
        near |= {sea for _, sea in canals_from(group["at"])}
    return [to for to in sorted(near) if entry_problem(state, e, go, group, to) is None]


def pacifiable(state: SevenState, e: Empire, go: Go) -> list[str]:
    """Areas whose disorder the empire may now remove by units (L676-698): held since the go began,
    still held, and enough units there, or a Populist (L698)."""
    out = []
    for area in go.data.get("held", []):
        if not state.area(area).disorder or not e.count(area):
            continue
        enough = disorder_force(state, e, area) >= disorder_count(state, e, go, area)
        if enough or e.has_leader(POPULIST, area):
            out.append(area)
    return out


def disorder_count(state: SevenState, e: Empire, go: Go, area: str) -> int:
    came = [a for a in go.data.get("arrivals", []) if a[0] == area]
    return disorder_needed(state, e, area, invaded=any(a[3] for a in came), river=any(a[4] for a in came),
                           arrow=any(a[5] for a in came))




def expansions(state: SevenState, go: Go) -> list[tuple[str, str, str]]:
    """``(from, unit, to)``: a land unit of the go's empire that may still move, and a vacant land area
    next to it that it may enter and stop in at once (what the greedy player moves into)."""
    e = state.empire(go.empire)
    tables, wmap = load_tables(), load_map()
    out = []
    for area in e.areas():
        group = new_group(state, e, area)
        land = {u: n for u, n in joinable(state, e, go, group).items() if mode_of(u) == LAND}
        if not land:
            continue
        unit = min(land, key=lambda u: (tables.unit_types[u].cost, u))
        trial = {**group, "units": {unit: 1}}
        out += [(area, unit, to) for to in next_areas(state, e, go, trial)
                if wmap.areas[to].land and not state.occupants(to)]
    return out
