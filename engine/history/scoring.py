"""Scoring after a turn (Chapter VI) and the final ranking (Chapter VII).

After your turn you score for every piece of your colour: in each area
presence (at least one land), dominance (at least two lands and more than any
other player) or control (at least three lands and nobody else there) earns
the area's value for the epoch times 1, 2 or 3; then 2 per capital, 1 per
city and 1 per monument in lands your armies hold. Forts score nothing.
"""

from __future__ import annotations

from collections import Counter
from typing import TypedDict

from engine.core import tied_places
from engine.history.data import RulesData
from engine.history.state import HistoryState


def area_counts(state: HistoryState, rules: RulesData) -> dict[str, Counter[int]]:
    """For every area, how many of its lands each player holds."""
    counts: dict[str, Counter[int]] = {area: Counter() for area in rules.map.areas}
    for land, stack in state.armies.items():
        if stack:
            area = rules.map.lands[land].area
            if area is not None:
                counts[area][stack[0][0]] += 1
    return counts


def level(mine: int, others: list[int]) -> str | None:
    """The level of control a player with ``mine`` lands has against the others' counts."""
    if mine >= 3 and not any(others):
        return "control"
    if mine >= 2 and all(mine > other for other in others):
        return "dominance"
    if mine >= 1:
        return "presence"
    return None


class AreaScore(TypedDict):
    """What a player scores in one area: their level there, how many lands they hold, the points."""

    level: str  # presence | dominance | control
    lands: int
    points: int


class Breakdown(TypedDict):
    """What a player scores now: a view's ``you.score_now`` and the ``scored`` event's ``breakdown``."""

    player: int
    areas: dict[str, AreaScore]
    capitals: list[str]
    cities: list[str]
    monuments: list[str]
    seas: list[str]
    total: int


def score_breakdown(state: HistoryState, rules: RulesData, player: int) -> Breakdown:
    """What ``player`` scores right now: per area and for capitals, cities, monuments, seas."""
    areas: dict[str, AreaScore] = {}
    for area, counter in area_counts(state, rules).items():
        mine = counter.get(player, 0)
        others = [n for p, n in counter.items() if p != player]
        lvl = level(mine, others)
        value = rules.area_value(area, state.epoch)
        if lvl is not None and value:
            areas[area] = AreaScore(level=lvl, lands=mine, points=value * rules.level_factor[lvl])
    held = set(state.lands_of(player))
    capitals = sorted(land for land, kind in state.structures.items() if kind == "capital" and land in held)
    cities = sorted(land for land, kind in state.structures.items() if kind == "city" and land in held)
    monuments = sorted(land for land in state.monuments if land in held)
    seas = sorted(sea for sea, army in state.manned.items() if army[0] == player)
    points = rules.structure_points
    total = (
        sum(a["points"] for a in areas.values())
        + points["capital"] * len(capitals)
        + points["city"] * len(cities)
        + points["monument"] * len(monuments)
        + points.get("manned_sea", 1) * len(seas)
    )
    return Breakdown(player=player, areas=areas, capitals=capitals, cities=cities, monuments=monuments,
                     seas=seas, total=total)


def empire_strengths(state: HistoryState, rules: RulesData, player: int) -> list[int]:
    return [rules.empires[key].strength for key in state.played_empires[player]]


def ranking(state: HistoryState, rules: RulesData) -> list[int]:
    """Players from first to last with the three tie-breaks of "Ties".

    Higher score first; then lower combined strength of the empires played;
    then more pre-eminence marker points; then lower strength in epoch VII.
    """
    return sorted(range(state.players), key=lambda p: compared(state, rules, p))


def places(state: HistoryState, rules: RulesData) -> list[list[int]]:
    """:func:`ranking` by places: players still tied after the three tie-breaks share theirs."""
    return tied_places(ranking(state, rules), lambda p: compared(state, rules, p))


def compared(state: HistoryState, rules: RulesData, p: int) -> tuple[int, int, int, int]:
    """What the ranking compares of player ``p``, best lowest."""
    scores = state.final if state.final is not None else state.scores
    strengths = empire_strengths(state, rules, p)
    last = strengths[6] if len(strengths) >= 7 else 0
    return (-scores[p], sum(strengths), -sum(state.markers[p]), last)
