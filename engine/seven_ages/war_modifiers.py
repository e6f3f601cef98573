"""Option 16's powers that change movement and conflict numbers (issue 32, item 3): one hook per quantity.

As in :mod:`engine.seven_ages.modifiers`, each number is computed by the standard rules first and asked of
its hook once, where it is computed: a step's movement cost (:func:`entry_cost`, from
:func:`engine.seven_ages.movement.step_cost`), a unit's front and support values in a conflict
(:func:`unit_strength`, from :func:`engine.seven_ages.conflict.tally`) and whether an area counts as having
a fort (:func:`fortified`, for the conflict's defence and for removing disorder); and one permission,
whether ships may sail into an ocean (:func:`ocean_barred`, asked where a group's next step is checked).
Without option 16 :func:`~engine.seven_ages.modifiers.power` is False for every empire, so each returns its
number unchanged.
Readings are in data/seven_ages/README.md, "Option 16's powers that change movement and conflict".
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.seven_ages.artefact_powers import RUTTERS, powers_on
from engine.seven_ages.map import load_map
from engine.seven_ages.modifiers import marker_areas, power, within
from engine.seven_ages.production import unit_class
from engine.seven_ages.state import Empire, SevenState

PAVED_ROADS, RAILWAYS = "Paved roads", "Railways"
PHAROS, GREAT_WALL = "Pharos lighthouse", "Great Wall"
PAVED_COST = 1  # L1810: "costs any empire only 1 movement point to enter"
RAILWAY_COST = 0  # L1859: "for a cost of 0 movement points"
GALLEY = "Galley"  # the one ship L654 leaves to the empire's card
PHAROS_BONUS = 1  # L1828: "+1 to their front and support values"


def entry_cost(state: SevenState, e: Empire, to: str, cost: int) -> int:
    """Movement points ``e``'s units pay to enter ``to`` (``cost``: what its terrain, or a flat step, asks):
    0 into an area with a city ``e`` controls when ``e`` has Railways (L1859); at most 1 into an area with a
    city controlled by any empire with Paved roads, whoever enters it (L1810)."""
    if not powers_on(state) or not state.area(to).city:
        return cost
    holder = state.controller(to)
    if holder is None:
        return cost
    if holder.card == e.card and power(state, e, RAILWAYS):
        return RAILWAY_COST
    if power(state, holder, PAVED_ROADS):
        return min(cost, PAVED_COST)
    return cost


def unit_strength(state: SevenState, e: Empire, unit: str, area: str,
                  values: tuple[int, int]) -> tuple[int, int]:
    """The front and support of one of ``e``'s ``unit`` fighting in ``area`` (``values``: as the standard
    rules modify them): each of its ships within Range of its Pharos lighthouse +1 to both (L1828)."""
    if unit_class(unit) != "ships" or not power(state, e, PHAROS):
        return values
    if not any(within(state, e, p, area) for p in marker_areas(state, e, PHAROS)):
        return values
    front, support = values
    return front + PHAROS_BONUS, support + PHAROS_BONUS


def fortified(state: SevenState, e: Empire, area: str) -> bool:
    """Whether ``area``, held by ``e``, counts as having a fort: a fort there, or ``e``'s Great Wall in it
    or in a land area next to it (L1634: "treated as having a fort"; an actual fort adds nothing more)."""
    if state.area(area).fort:
        return True
    if not load_map().areas[area].land or not power(state, e, GREAT_WALL):
        return False
    walls = marker_areas(state, e, GREAT_WALL)
    return any(area == w or area in load_map().adjacency[w] for w in walls) and e.count(area) > 0


def ocean_barred(state: SevenState, e: Empire, ships: Iterable[str]) -> bool:
    """Whether ``e``'s ``ships`` may not sail into an ocean for want of Rutters (L1905: "nor its ships Move,
    into or through ocean areas if it doesn't have rutters"). Galleys are left to L654 (their empire's
    special rules), which says "other ships require Rutters"."""
    if not powers_on(state) or power(state, e, RUTTERS):
        return False
    return any(u != GALLEY for u in ships)
