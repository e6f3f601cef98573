"""Retreat from a conflict (L761-765): who may, where to, and what goes.

"You may always choose to retreat before picking cards at the start of any round if the other empire has
acquired a conflict disorder marker. If you have a Tactician in the area, you may retreat if either side
has acquired a conflict disorder marker" (L761). "You may only retreat your empire's units and leaders to
an adjacent area it controls and only if that area contains no units from another empire. Units may only
retreat to an area they could enter during movement (not counting naval transport) ... Retreating units
that have nowhere to retreat to are lost" (L763-765). The conflict go (:mod:`engine.seven_ages.battle`)
offers it; everything here reads the state or builds a new empire. With more than one area to go to,
the player may send the units to any of them, an area at a time: a type and a count at a time, and the
leaders one by one (:func:`send`, :func:`send_leader`), while something left may go there (:func:`open_to`).
"""

from __future__ import annotations

from dataclasses import replace

from engine.seven_ages.conflict import TACTICIAN
from engine.seven_ages.manoeuvre_moves import AIR, LAND, SHIPS
from engine.seven_ages.map import load_map
from engine.seven_ages.movement import mode_of, others_in
from engine.seven_ages.state import Empire, SevenState


def eligible(e: Empire, area: str, my_marks: int, their_marks: int) -> bool:
    """Whether the empire may retreat from ``area`` at the start of a round (L761)."""
    return their_marks > 0 or (e.has_leader(TACTICIAN, area) and my_marks + their_marks > 0)


def enters(unit: str, to: str) -> bool:
    """Whether ``unit`` could enter ``to`` by itself during movement (no naval transport, L763)."""
    place = load_map().areas[to]
    mode = mode_of(unit)
    if mode == LAND:
        return place.land
    if mode == SHIPS:
        return not place.land or load_map().coastal(to)
    return mode == AIR


def destinations(state: SevenState, e: Empire, area: str) -> list[str]:
    """Adjacent areas the empire controls that hold no other empire's units and that some of its units in
    ``area`` could enter (L763)."""
    units = {s.unit for s in e.units if s.area == area}
    return [a for a in sorted(load_map().adjacency[area])
            if e.count(a) and not others_in(state, e, a) and any(enters(u, a) for u in units)]


def send(e: Empire, area: str, unit: str, count: int, to: str) -> Empire:
    """The empire with ``count`` of its ``unit`` in ``area`` retreated to ``to`` (checked by the caller)."""
    return e.add_units(area, unit, -count).add_units(to, unit, count)


def send_leader(e: Empire, area: str, name: str, to: str) -> Empire:
    """The empire with its leader ``name`` in ``area`` retreated to ``to``."""
    leaders = list(e.leaders)
    i = next(i for i, ld in enumerate(leaders) if ld.area == area and ld.name == name)
    leaders[i] = replace(leaders[i], area=to)
    return replace(e, leaders=tuple(leaders))


def open_to(e: Empire, area: str, dests: list[str]) -> list[str]:
    """The areas of ``dests`` that something of the empire's left in ``area`` may still go to: any of them
    while a leader is left there (a leader goes where its units may, L763), else those one of its units
    there could enter."""
    if e.leaders_in(area):
        return list(dests)
    units = {s.unit for s in e.units if s.area == area}
    return [a for a in dests if any(enters(u, a) for u in units)]


def stranded(e: Empire, area: str, dests: list[str]) -> dict[str, int]:
    """The empire's units in ``area`` that could enter none of ``dests``: lost if they must retreat (L765)."""
    return {s.unit: s.count for s in e.units if s.area == area and not any(enters(s.unit, d) for d in dests)}


def withdraw(e: Empire, area: str, to: str) -> tuple[Empire, dict[str, int]]:
    """The empire with its units and leaders in ``area`` retreated to ``to``; units that could not enter it
    are lost (L765). Returns the empire and the units lost."""
    lost = stranded(e, area, [to])
    for s in [s for s in e.units if s.area == area]:
        e = e.add_units(area, s.unit, -s.count) if s.unit in lost else send(e, area, s.unit, s.count, to)
    for ld in [ld for ld in e.leaders if ld.area == area]:
        e = send_leader(e, area, ld.name, to)
    return e, lost
