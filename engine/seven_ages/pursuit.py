"""Option 6, Pursuit (L1206-1212): units that retreat from a conflict lose more units to the pursuers.

"You lose 2 units (your choice) to pursuit for each aircraft, 1 unit for each tank, and 1 unit for every
other full 2 cavalry units your opponent has remaining in the area. The total is halved if the conflict
occurred in a mountain, -1 if in a forest (min. 0). Each cavalry or aircraft unit you lose in the pursuit
satisfies 2 required losses. Each unit you lose from a higher Progress level than your opponent's highest
surviving unit in the area also counts as 2 pursuit losses (3 if also cavalry or aircraft)."

The retreating player chooses the units (:mod:`engine.seven_ages.losses`); here are what is due and what
each unit satisfies.
"""

from __future__ import annotations

from collections.abc import Mapping
from math import ceil

from engine.seven_ages.data import load_tables
from engine.seven_ages.map import load_map
from engine.seven_ages.movement import terrain_of
from engine.seven_ages.production import unit_class

TANK = "Tank"
FAST = ("cavalry", "aircraft")


def losses_due(pursuers: Mapping[str, int], area: str, terrain_age: int) -> int:
    """Pursuit losses the pursuers' units remaining in ``area`` inflict (L1208): halved (rounding up, E52's
    5 -> 3) in a mountain, one fewer in a forest; the terrain by the defender's age, as in the conflict."""
    aircraft = sum(n for u, n in pursuers.items() if unit_class(u) == "aircraft")
    tanks = pursuers.get(TANK, 0)
    cavalry = sum(n for u, n in pursuers.items() if unit_class(u) == "cavalry" and u != TANK)
    total = 2 * aircraft + tanks + cavalry // 2
    if load_map().areas[area].land:
        terrain = terrain_of(area, terrain_age)
        if terrain == "mountain":
            total = ceil(total / 2)
        elif terrain == "forest":
            total = max(0, total - 1)
    return total


def weight(unit: str, highest: int) -> int:
    """How many required losses losing one ``unit`` satisfies (L1210-1212): 2 for cavalry or aircraft;
    2 for a unit of a higher level than the pursuers' highest surviving unit, 3 if it is also fast."""
    fast = unit_class(unit) in FAST
    higher = load_tables().unit_types[unit].available > highest
    return 3 if fast and higher else 2 if fast or higher else 1
