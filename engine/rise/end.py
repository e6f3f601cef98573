"""Keep-or-discard decisions, the end of an era and the end of the game.

City upkeep (food before the Food phase, a resource disc after the Income
phase) and the end of an era (a gold per progress tile, a pool cube per city
tile kept) are decisions queued in ``state.pending`` and asked in turn order;
``engine.rise.flow`` discards what cannot be paid for without asking. At the
end of eras I and II half of each player's cubes in each region (rounded up)
go back to the general stock; after era III the game ends instead, with a
victory point per three gold and per three resource discs.
"""

from __future__ import annotations

from engine.core import tied_places
from engine.rise.context import Ctx
from engine.rise.data import RiseData
from engine.rise.state import Phase, RiseState

Item = dict[str, object]


def queue_food_upkeep(s: RiseState, d: RiseData) -> None:
    """Cities that cost food: keep them (the Food phase counts their food) or discard them."""
    for seat in s.order:
        s.pending.extend({"player": seat, "kind": "food_upkeep", "tile": c}
                         for c in s.cities[seat] if d.cities[c].food < 0)


def queue_era_end(s: RiseState) -> None:
    """End of an era: keep progress tiles (a gold each) and city tiles (a pool cube each)."""
    for seat in s.order:
        s.pending.extend({"player": seat, "kind": "keep_progress", "tile": t} for t in s.progress[seat])
        s.pending.extend({"player": seat, "kind": "keep_city", "tile": c} for c in s.cities[seat])


def can_keep(s: RiseState, d: RiseData, item: Item) -> bool:
    seat = int(str(item["player"]))
    tile = str(item["tile"])
    if item["kind"] == "upkeep":
        return s.resources[seat] >= d.cities[tile].upkeep
    if item["kind"] == "food_upkeep":
        return True  # paid on the food track, where a shortfall costs victory points
    if item["kind"] == "keep_progress":
        return s.gold[seat] >= 1
    return s.pool[seat] >= 1


def keep(ctx: Ctx, item: Item) -> None:
    s, d = ctx.state, ctx.data
    seat = int(str(item["player"]))
    tile = str(item["tile"])
    if item["kind"] == "upkeep":
        s.resources[seat] -= d.cities[tile].upkeep
    elif item["kind"] == "keep_progress":
        s.gold[seat] -= 1
    elif item["kind"] == "keep_city":
        s.pool[seat] -= 1
        s.stock[seat] += 1
    # food_upkeep: nothing now; the Food phase that follows counts the city's food.
    ctx.emit("kept", player=seat, tile=tile, why=item["kind"])


def discard(ctx: Ctx, item: Item, forced: bool) -> None:
    s = ctx.state
    seat = int(str(item["player"]))
    tile = str(item["tile"])
    hand = s.progress[seat] if tile.startswith("p") else s.cities[seat]
    hand.remove(tile)
    s.waiting.pop(tile, None)
    if tile in s.used:
        s.used.remove(tile)
    s.retired.append(tile)
    ctx.emit("discarded", player=seat, tile=tile, why=item["kind"], forced=forced)


def halve_cubes(ctx: Ctx) -> None:
    """Half of each player's cubes in each region, rounded up, go back to the general stock."""
    s = ctx.state
    removed: dict[str, list[int]] = {}
    for region in sorted(s.cubes):
        lost = [(c + 1) // 2 for c in s.cubes[region]]
        for seat, n in enumerate(lost):
            if n:
                s.add_cubes(region, seat, -n)
                s.stock[seat] += n
        removed[region] = lost
    ctx.emit("era_end", era=s.era, removed=removed)


def game_end(ctx: Ctx) -> None:
    s = ctx.state
    for seat in range(s.players):
        bonus = s.gold[seat] // 3 + s.resources[seat] // 3
        s.vp[seat] += bonus
        ctx.emit("final_bonus", player=seat, vp=bonus)
    s.final = s.vp[:]
    s.phase = Phase.OVER
    s.task = None
    ctx.emit("game_over", scores=s.final[:], ranking=ranking(s))


def ranking(s: RiseState) -> list[int]:
    """Seats from first to last: most victory points, ties by most gold; still tied, seat order (they
    share the place: :func:`places`)."""
    return sorted(range(s.players), key=lambda p: (compared(s, p), p))


def places(s: RiseState) -> list[list[int]]:
    """:func:`ranking` by places: players tied on victory points and gold share theirs."""
    return tied_places(ranking(s), lambda p: compared(s, p))


def compared(s: RiseState, p: int) -> tuple[int, int]:
    """What the ranking compares of ``p``, best lowest: victory points, then gold (the tie-break)."""
    return (-s.vp[p], -s.gold[p])
