"""Pieces on the 5-epoch board: the apply context, supplies, structures, forts, scoring."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TypedDict

from engine.core import Context
from engine.history.epochs5.data import Rules
from engine.history.epochs5.state import State, Turn
from engine.history.scoring import level
from engine.history.worldmap import land_or_refuse

TERRAIN = ("forest", "mountain")  # "Mountains and forests have the exact same game effect"
#: The classic level names, as this edition calls them.
LEVEL_NAMES = {"presence": "presence", "dominance": "dominance", "control": "supremacy"}


@dataclass
class Ctx(Context[State]):
    """One ``apply`` call's working set: the generic context (the already copied state, the events)
    with the rules beside it, and the helpers the rules share."""

    rules: Rules

    @property
    def turn(self) -> Turn:
        turn = self.state.turn
        assert turn is not None
        return turn

    def supply(self, player: int) -> int:
        return self.state.supply(player, self.rules.armies_per_player)


def resolve_land(ctx: Ctx, name: str) -> str:
    return land_or_refuse(ctx.rules.map, name, "territory")


# -- pieces -------------------------------------------------------------------------------
def remove_army(ctx: Ctx, land: str, why: str) -> None:
    """Return the army in ``land`` to its owner's supply."""
    army = ctx.state.armies.pop(land, None)
    if army is not None:
        ctx.emit("army_removed", land=land, owner=army[0], why=why)


def place_structure(ctx: Ctx, land: str, kind: str) -> None:
    """Put a capitol or a city in ``land``; with the supply empty it is not placed."""
    state = ctx.state
    present = state.structures.get(land)
    if present == "capitol" or present == kind:
        return
    if present is None and len(state.structures) >= ctx.rules.structures:
        ctx.emit("supply_out", piece=kind, land=land)
        return
    state.structures[land] = kind
    ctx.emit("structure_placed", land=land, structure=kind)


def place_monument(ctx: Ctx, land: str) -> bool:
    state = ctx.state
    if land in state.monuments:
        return False
    if len(state.monuments) >= ctx.rules.monuments:
        ctx.emit("supply_out", piece="monument", land=land)
        return False
    state.monuments.append(land)
    state.monuments.sort()
    ctx.emit("monument_built", land=land)
    return True


def forts_free(ctx: Ctx) -> int:
    return ctx.rules.forts - len(ctx.state.forts)


def place_fort(ctx: Ctx, land: str) -> bool:
    state = ctx.state
    if land in state.forts:
        return False
    if forts_free(ctx) <= 0:
        ctx.emit("supply_out", piece="fort", land=land)
        return False
    state.forts.append(land)
    state.forts.sort()
    ctx.emit("fort_built", land=land)
    return True


def clear_territory(ctx: Ctx, land: str, why: str) -> None:
    """A starting territory is cleared of armies, structures and forts."""
    state = ctx.state
    remove_army(ctx, land, why)
    if land in state.forts:
        state.forts.remove(land)
        ctx.emit("fort_removed", land=land, why=why)
    if land in state.structures:
        ctx.emit("structure_removed", land=land, structure=state.structures.pop(land), why=why)
    if land in state.monuments:
        state.monuments.remove(land)
        ctx.emit("structure_removed", land=land, structure="monument", why=why)


def reduce_structure(ctx: Ctx, land: str) -> str | None:
    """Reduce one structure of ``land`` (capitol to city, else remove the city, else the monument).

    Returns what was reduced, or None when the territory had no structure.
    """
    state = ctx.state
    present = state.structures.get(land)
    if present == "capitol":
        state.structures[land] = "city"
    elif present == "city":
        del state.structures[land]
    elif land in state.monuments:
        state.monuments.remove(land)
        present = "monument"
    else:
        return None
    ctx.emit("reduced", land=land, structure=present)
    return present


def remove_fort(ctx: Ctx, land: str) -> None:
    if land in ctx.state.forts:
        ctx.state.forts.remove(land)
        ctx.emit("fort_removed", land=land, why="battle")


# -- scoring ("7. Gain Points") -------------------------------------------------------------
def region_counts(state: State, rules: Rules) -> dict[str, Counter[int]]:
    counts: dict[str, Counter[int]] = {region: Counter() for region in rules.map.areas}
    for land, army in state.armies.items():
        region = rules.map.lands[land].area
        if region is not None:
            counts[region][army[0]] += 1
    return counts


class RegionScore(TypedDict):
    """What a player scores in one region: their level there, how many armies they have, the points."""

    level: str  # presence | dominance | control
    armies: int
    points: int


class Breakdown(TypedDict):
    """What a player scores now: a view's ``you.score_now`` and the ``scored`` event's data."""

    player: int
    regions: dict[str, RegionScore]
    capitols: list[str]
    cities: list[str]
    monuments: list[str]
    total: int


def score_breakdown(state: State, rules: Rules, player: int) -> Breakdown:
    """What ``player`` scores now: regions holding a token this epoch, then structures held."""
    regions: dict[str, RegionScore] = {}
    for region, counter in region_counts(state, rules).items():
        mine = counter.get(player, 0)
        found = level(mine, [n for p, n in counter.items() if p != player])
        value = rules.region_value(region, state.epoch)
        if found is not None and value:
            name = LEVEL_NAMES[found]
            regions[region] = RegionScore(level=name, armies=mine, points=value * rules.level_factor[name])
    held = {land for land, army in state.armies.items() if army[0] == player}
    capitols = sorted(t for t, k in state.structures.items() if k == "capitol" and t in held)
    cities = sorted(t for t, k in state.structures.items() if k == "city" and t in held)
    monuments = sorted(t for t in state.monuments if t in held)
    pts = rules.structure_points
    total = (
        sum(r["points"] for r in regions.values())
        + pts["capitol"] * len(capitols)
        + pts["city"] * len(cities)
        + pts["monument"] * len(monuments)
    )
    return Breakdown(player=player, regions=regions, capitols=capitols, cities=cities, monuments=monuments,
                     total=total)
