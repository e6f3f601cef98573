"""Control of regions and where cubes may go.

Control (rulebook, "Control of Regions"): the most cubes controls and earns
the standard's left number and what the region yields; the second most earns
the right number. A tie for control shares the region's yields by halves
(each tied player gets its share rounded down) and adds both numbers of the
standard together, divided among the tied players, fractions dropped, with
nothing for second place. A tie for second shares the right number likewise.
"""

from __future__ import annotations

from engine.rise.data import YIELDS, EmpireSide, RiseData
from engine.rise.state import RiseState

Share = dict[str, int]  # food, gold, resources, cubes, vp


def ranks(state: RiseState, region: str) -> tuple[list[int], list[int]]:
    """The seats in first place and in second place in ``region`` (by cube count)."""
    counts = state.cubes.get(region)
    if not counts:
        return [], []
    levels = sorted({c for c in counts if c > 0}, reverse=True)
    first = [p for p, c in enumerate(counts) if c == levels[0]]
    second = [p for p, c in enumerate(counts) if len(levels) > 1 and c == levels[1]]
    return first, second


def shares(state: RiseState, data: RiseData, region: str) -> dict[int, Share]:
    """What each seat earns from ``region``: its yields and victory points."""
    reg = data.regions[region]
    first, second = ranks(state, region)
    out: dict[int, Share] = {}
    if not first:
        return out
    top, low = reg.standard
    if len(first) > 1:
        for p in first:
            share = {k: reg.yields.get(k, 0) // len(first) for k in YIELDS}
            share["vp"] = (top + low) // len(first)
            out[p] = share
        return out
    share = {k: reg.yields.get(k, 0) for k in YIELDS}
    share["vp"] = top
    out[first[0]] = share
    for p in second:
        out[p] = {**dict.fromkeys(YIELDS, 0), "vp": low // len(second)}
    return out


def region_income(state: RiseState, data: RiseData, seat: int) -> Share:
    """The sum of ``seat``'s shares over every region."""
    total = dict.fromkeys((*YIELDS, "vp"), 0)
    for region in state.cubes:
        share = shares(state, data, region).get(seat)
        if share:
            for k, v in share.items():
                total[k] += v
    return total


def all_region_income(state: RiseState, data: RiseData) -> list[Share]:
    """``region_income`` for every seat at once (each region's shares worked out once)."""
    totals = [dict.fromkeys((*YIELDS, "vp"), 0) for _ in range(state.players)]
    for region in state.cubes:
        for seat, share in shares(state, data, region).items():
            total = totals[seat]
            for k, v in share.items():
                total[k] += v
    return totals


def controller(state: RiseState, region: str) -> int | None:
    """The seat controlling ``region`` alone, or None (empty or tied)."""
    first, _ = ranks(state, region)
    return first[0] if len(first) == 1 else None


def region_open(state: RiseState, data: RiseData, side: EmpireSide, region: str) -> bool:
    """Whether the era, the tile's water and Navigation let cubes into ``region`` at all."""
    reg = data.regions[region]
    if reg.era > state.era:
        return False
    if reg.sea and not side.water:
        return False
    if reg.overseas:
        # The New World and the Far East: water tiles from era II; in era II A only
        # once someone has selected Navigation (the B turn lifts that restriction).
        if not side.water or state.era < 2:
            return False
        if state.era == 2 and not state.b_turn and not state.navigation:
            return False
    return True


def placement_reason(state: RiseState, data: RiseData, seat: int, side: EmpireSide,
                     before: list[str], placed: list[str], region: str) -> str | None:
    """Why one more cube may not go into ``region`` (None when it may).

    ``before``: the regions holding the seat's cubes when this placement began;
    ``placed``: the regions cubes went into during this placement, in order.
    """
    if region not in data.regions:
        return "unknown_region"
    if not region_open(state, data, side, region):
        return "region_closed"
    if region not in placed and len(placed) >= side.regions:
        return "too_many_regions"
    reg = data.regions[region]
    if reg.overseas:
        # Reading chosen: the New World and the Far East are reached over water, so a
        # water tile places there whatever the seat holds elsewhere.
        return None
    old_before = [r for r in before if not data.regions[r].overseas]
    if old_before:
        # Only regions held, or next to regions held, before the placement began count.
        if region in old_before or data.adjacent[region] & set(old_before):
            return None
        return "not_adjacent"
    placed_old = [r for r in placed if not data.regions[r].overseas]
    if before:
        # Cubes only in the New World / Far East: a water tile reaches any one
        # region of the Old World.
        if not side.water:
            return "needs_water"
        if placed_old and region not in placed_old:
            return "one_old_region"
        return None
    # No cubes on the map: start anywhere; further regions must touch the new ones.
    if not placed_old or region in placed_old or data.adjacent[region] & set(placed_old):
        return None
    return "not_adjacent"
