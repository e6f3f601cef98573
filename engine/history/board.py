"""Pieces on the board: supplies, placing and removing, and where a force can reach."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.core import Context
from engine.history.data import RulesData
from engine.history.state import Force, HistoryState
from engine.history.worldmap import land_or_refuse, water_or_refuse


@dataclass
class Ctx(Context[HistoryState]):
    """One ``apply`` call's working set: the generic context (the already copied state, the events)
    with the rules data beside it."""

    rules: RulesData


# -- figures per land -------------------------------------------------------
def room_for_army(state: HistoryState, land: str) -> bool:
    stack = state.armies.get(land, [])
    if not state.options.get("multiple_armies"):
        return not stack
    return len(stack) + (1 if land in state.forts else 0) < 3


def room_for_fort(state: HistoryState, land: str) -> bool:
    """A land takes one fort, and with the option only while it has at most two armies."""
    if land in state.forts:
        return False
    return not state.options.get("multiple_armies") or len(state.armies.get(land, [])) <= 2


# -- supplies ---------------------------------------------------------------
def army_supply(ctx: Ctx, player: int, epoch: int) -> int:
    """Pieces of ``player``'s colour for ``epoch`` that are neither on the board nor in a pool."""
    state = ctx.state
    used = state.pieces_on_board(player, epoch)
    turn = state.turn
    if turn is not None and turn.player == player and turn.force.piece_epoch == epoch:
        used += turn.force.pool + turn.force.restricted
    return ctx.rules.armies_per_epoch[epoch - 1] - used


def structures_free(ctx: Ctx) -> int:
    return ctx.rules.capitals_cities - len(ctx.state.structures)


def forts_free(ctx: Ctx) -> int:
    state = ctx.state
    pooled = state.turn.free_forts if state.turn else 0
    return ctx.rules.forts - len(state.forts) - pooled


def markers_free(ctx: Ctx) -> int:
    """Fleet/coin markers not in use (fleets of the turn, coins in hand, manned seas)."""
    state = ctx.state
    used = len(state.manned)
    turn = state.turn
    if turn is not None:
        used += turn.coins + turn.allies_coins
        used += sum(1 for w in turn.force.fleets if w not in state.manned)
    return ctx.rules.fleets_coins - used


def take_coins(ctx: Ctx, wanted: int, allies: bool = False) -> int:
    """Give the active player up to ``wanted`` coins, as far as markers last."""
    turn = ctx.state.turn
    assert turn is not None
    got = max(0, min(wanted, markers_free(ctx)))
    if allies:
        turn.allies_coins += got
    else:
        turn.coins += got
    if got < wanted:
        ctx.emit("markers_short", wanted=wanted, got=got)
    return got


# -- placing and removing ---------------------------------------------------
def clear_land(ctx: Ctx, land: str, why: str) -> None:
    """Remove every army and the fort from ``land`` (monuments and structures stay)."""
    state = ctx.state
    removed = state.armies.pop(land, [])
    had_fort = land in state.forts
    if had_fort:
        state.forts.remove(land)
    if removed or had_fort:
        ctx.emit("cleared", land=land, armies=len(removed), fort=had_fort, why=why)


def place_army(state: HistoryState, land: str, owner: int, epoch: int, force: str) -> None:
    state.armies.setdefault(land, []).append([owner, epoch, force])


def remove_one_army(state: HistoryState, land: str) -> list[Any]:
    """Remove the newest-placed army of ``land`` and return it."""
    stack = state.armies[land]
    army = stack.pop()
    if not stack:
        del state.armies[land]
    return army


def place_fort(state: HistoryState, land: str) -> None:
    if land not in state.forts:
        state.forts.append(land)
        state.forts.sort()


def destroy_fort(state: HistoryState, land: str) -> None:
    if land in state.forts:
        state.forts.remove(land)


def put_structure(ctx: Ctx, land: str, kind: str) -> bool:
    """Put a capital or city into ``land`` unless a piece there already ranks as high.

    A capital outranks a city: a city becomes a capital by turning the piece
    over; a capital stays a capital when a city is asked for. Returns whether
    the land now holds the asked-for structure or better.
    """
    state = ctx.state
    present = state.structures.get(land)
    if present == "capital" or present == kind:
        return True
    if present is None and structures_free(ctx) <= 0:
        ctx.emit("supply_out", piece="capital/city", land=land)
        return False
    state.structures[land] = kind
    return True


def sack(ctx: Ctx, land: str) -> None:
    """A conquering army turns a capital into a city and removes a city."""
    state = ctx.state
    present = state.structures.get(land)
    if present == "capital":
        state.structures[land] = "city"
        ctx.emit("sacked", land=land, was="capital", now="city")
    elif present == "city":
        del state.structures[land]
        ctx.emit("sacked", land=land, was="city", now=None)


# -- reach ------------------------------------------------------------------
@dataclass(frozen=True)
class Route:
    """How a force reaches a land: from a land (``source``) or from the sea."""

    source: str | None  # the land it attacks from; None when landing from a fleet
    by_sea: bool


def reachable(ctx: Ctx, force: Force) -> dict[str, list[Route]]:
    """Every non-barren land the force may expand into, with the ways to get there.

    Land routes start from lands holding the force's armies; sea routes use the
    force's fleets as stepping stones: a fleet in a water touching one of its
    lands (or a water it starts in) and then any chain of touching waters that
    all hold its fleets, landing on any land that touches the last of them.
    """
    wmap = ctx.rules.map
    own = ctx.state.force_lands(force.key)
    routes: dict[str, list[Route]] = {}
    for land in own:
        # A land the force already holds is within reach too: with the Multiple
        # Armies option it takes more figures (even a lone start land), and
        # without it the move is refused as "already there", never "not adjacent".
        routes.setdefault(land, []).append(Route(land, False))
        for nb in wmap.neighbours(land):
            if not wmap.lands[nb].barren:
                routes.setdefault(nb, []).append(Route(land, False))
    fleets = set(force.fleets)
    if fleets:
        start = {w for w in fleets for land in own if w in wmap.lands[land].waters}
        start.update(w for w in force.at_sea if w in fleets)
        seen = set(start)
        frontier = list(start)
        while frontier:
            water = frontier.pop()
            for nxt in wmap.waters[water].links:
                if nxt in fleets and nxt not in seen:
                    seen.add(nxt)
                    frontier.append(nxt)
        for water in seen:
            for land in wmap.coast(water):
                if not wmap.lands[land].barren:
                    lst = routes.setdefault(land, [])
                    if not any(r.by_sea for r in lst):
                        lst.append(Route(None, True))
    return routes


def resolve_land(ctx: Ctx, name: str) -> str:
    return land_or_refuse(ctx.rules.map, name)


def resolve_water(ctx: Ctx, name: str) -> str:
    return water_or_refuse(ctx.rules.map, name)
