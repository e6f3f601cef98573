"""Setup and the phases of a game turn around the players' actions.

I New Tiles, III Food, IV Income, V Victory Points and the order in which
players choose their place in VI Turn Order Determination. II Player Actions
is ``engine.rise.turn``, the end of an era and of the game ``engine.rise.end``,
and ``engine.rise.flow`` runs them in order.
"""

from __future__ import annotations

from engine import rng
from engine.core import PUBLIC
from engine.rise.context import Ctx
from engine.rise.control import all_region_income, region_income
from engine.rise.data import ROWS, YIELDS, RiseData
from engine.rise.state import EMPTY, Phase, RiseState, Stage

Yields = dict[str, int]


def new_task(player: int) -> dict[str, object]:
    """A fresh action for ``player``: nothing chosen yet."""
    return {"player": player, "stage": Stage.CHOOSE, "row": None, "b": False, "circle": EMPTY,
            "empire": None, "before": [], "placed": [], "cleared": False, "battles": []}


# -- setup -------------------------------------------------------------------------------
def new_game(ctx: Ctx) -> None:
    """Rulebook "Setup", then the first turn's new tiles."""
    s, d = ctx.state, ctx.data
    n = s.players
    s.gold = [d.start_gold] * n
    s.resources = [d.start_resources] * n
    s.food = [d.start_food] * n
    s.vp = [d.start_vp] * n
    s.pool = [d.pool] * n
    s.stock = [d.stock] * n
    s.progress = [[] for _ in range(n)]
    s.territory = [[] for _ in range(n)]
    s.cities = [[] for _ in range(n)]
    s.empires = [[] for _ in range(n)]
    # Progress: two era III tiles into each box, then era II on top, then era I on top.
    s.progress_boxes = [[] for _ in range(d.progress_boxes)]
    for era in (3, 2, 1):
        tiles = sorted(t for t, p in d.progress.items() if p.era == era)
        rng.shuffle(s, tiles)
        per = len(tiles) // d.progress_boxes
        for b, box in enumerate(s.progress_boxes):
            box[:0] = tiles[b * per:(b + 1) * per]
    territory = sorted(d.territory)
    rng.shuffle(s, territory)
    per = len(territory) // d.territory_boxes
    s.territory_boxes = [territory[b * per:(b + 1) * per] for b in range(d.territory_boxes)]
    # Cities: era III B, then III A on top, then II B, II A, I B, I A (eras I and II in the top five boxes).
    s.city_boxes = [[] for _ in range(d.city_boxes)]
    for era, row in ((3, "B"), (3, "A"), (2, "B"), (2, "A"), (1, "B"), (1, "A")):
        tiles = sorted(t for t, c in d.cities.items() if c.era == era and c.row == row)
        rng.shuffle(s, tiles)
        for b, tile in enumerate(tiles):
            s.city_boxes[b].insert(0, tile)
    first = rng.below(s, n)
    s.order = [(first + i) % n for i in range(n)]
    new_tiles(ctx)


# -- I. New tiles ----------------------------------------------------------------------------
def new_tiles(ctx: Ctx) -> None:
    s, d = ctx.state, ctx.data
    retired: list[str] = []
    if s.turn > 1:
        for name in ("open_progress", "open_territory", "open_city"):
            kept: list[str] = []
            for tile in getattr(s, name):
                wonder = name == "open_city" and d.cities[tile].wonder is not None
                if wonder or (s.players <= 3 and not stays(d, tile)):
                    retired.append(tile)
                else:
                    kept.append(tile)
            setattr(s, name, kept)
        s.retired.extend(retired)
    flipped: list[str] = []
    for boxes, name in ((s.progress_boxes, "open_progress"), (s.territory_boxes, "open_territory"),
                        (s.city_boxes[: d.city_boxes if s.turn >= 5 else d.city_early_boxes], "open_city")):
        for box in boxes:
            if box:
                tile = box.pop(0)
                getattr(s, name).append(tile)
                flipped.append(tile)
    s.open_empires = sorted(d.empires)
    s.empires = [[] for _ in range(s.players)]
    s.trade_used = {}
    s.used = []
    if not s.b_turn:
        s.display = {row: [EMPTY] * d.row_circles(row, s.players) for row in ROWS}
    s.act_no = 0
    s.phase = Phase.ACTIONS
    ctx.emit("new_tiles", turn=s.turn, era=s.era, flipped=flipped, retired=retired)


def stays(d: RiseData, tile: str) -> bool:
    """A tile with a red lower part (kept on the display in 2-3 player games)."""
    if tile in d.progress:
        return d.progress[tile].stays
    if tile in d.territory:
        return d.territory[tile].stays
    return d.cities[tile].stays


def current_player(s: RiseState) -> int:
    return s.order[s.act_no % s.players]


# -- III, IV, V ------------------------------------------------------------------------------------
def tile_yields(s: RiseState, d: RiseData, seat: int) -> Yields:
    """What ``seat``'s progress, territory and city tiles earn in one game turn."""
    out = dict.fromkeys((*YIELDS, "vp"), 0)
    iron_axe = any(d.progress[t].special == "iron_axe" for t in s.progress[seat])
    for t in s.territory[seat]:
        tile = d.territory[t]
        for k in YIELDS:
            out[k] += getattr(tile, k)
        if tile.forest and iron_axe and tile.food < 0:
            out["food"] -= tile.food
        out["vp"] += tile.vp
    for c in s.cities[seat]:
        city = d.cities[c]
        for k in (*YIELDS, "vp"):
            out[k] += getattr(city, k)
    for p in s.progress[seat]:
        prog = d.progress[p]
        for k in (*YIELDS, "vp"):
            out[k] += getattr(prog, k)
    return out


def all_yields(s: RiseState, d: RiseData, seat: int) -> Yields:
    """Tiles plus regions: everything ``seat`` earns this turn (before the last turn's doubling)."""
    tiles = tile_yields(s, d, seat)
    regions = region_income(s, d, seat)
    return {k: tiles[k] + regions[k] for k in tiles}


def every_yields(s: RiseState, d: RiseData) -> list[Yields]:
    """``all_yields`` for every seat."""
    regions = all_region_income(s, d)
    out: list[Yields] = []
    for seat in range(s.players):
        tiles = tile_yields(s, d, seat)
        out.append({k: tiles[k] + regions[seat][k] for k in tiles})
    return out


def move_food(s: RiseState, d: RiseData, seat: int, change: int) -> dict[str, int]:
    """Move ``seat`` on the food track; below zero costs VP, above the top pays a gold per two."""
    target = s.food[seat] + change
    lost_vp = gained_gold = 0
    if target < 0:
        lost_vp = min(-target, s.vp[seat])
        s.vp[seat] -= lost_vp
        target = 0
    elif target > d.food_max:
        gained_gold = (target - d.food_max) // 2
        s.gold[seat] += gained_gold
        target = d.food_max
    s.food[seat] = target
    return {"change": change, "food": target, "lost_vp": lost_vp, "gold": gained_gold}


def food_phase(ctx: Ctx) -> None:
    s, d = ctx.state, ctx.data
    for seat in s.order:
        change = all_yields(s, d, seat)["food"]
        if s.turn == d.turns:
            change *= 2  # the last game turn doubles food gained and lost
        ctx.emit("food", PUBLIC, player=seat, **move_food(s, d, seat, change))


def income_phase(ctx: Ctx) -> None:
    s, d = ctx.state, ctx.data
    for seat in s.order:
        y = all_yields(s, d, seat)
        cubes = min(y["cubes"], s.stock[seat])
        s.gold[seat] += y["gold"]
        s.resources[seat] += y["resources"]
        s.stock[seat] -= cubes
        s.pool[seat] += cubes
        ctx.emit("income", player=seat, gold=y["gold"], resources=y["resources"], cubes=cubes)
        # City upkeep is owed after the income (which may pay for it).
        for c in s.cities[seat]:
            if d.cities[c].upkeep:
                s.pending.append({"player": seat, "kind": "upkeep", "tile": c})


def vp_phase(ctx: Ctx) -> None:
    s, d = ctx.state, ctx.data
    for seat in s.order:
        gained = all_yields(s, d, seat)["vp"]
        s.vp[seat] += gained
        ctx.emit("victory_points", player=seat, gained=gained, total=s.vp[seat])


# -- VI. Turn order ---------------------------------------------------------------------------------
def tokens(s: RiseState, seat: int) -> int:
    """Game tokens for the turn-order tie-break: gold, pool cubes and resource discs.

    Reading chosen: "cubes" are the ones in the pool (every player owns 30 in all).
    """
    return s.gold[seat] + s.pool[seat] + s.resources[seat]


def order_choosers(s: RiseState) -> list[int]:
    """Who chooses a turn-order position first: least VP, then fewest tokens, then furthest back."""
    previous = s.order[:]
    return sorted(range(s.players), key=lambda p: (s.vp[p], tokens(s, p), -previous.index(p)))
