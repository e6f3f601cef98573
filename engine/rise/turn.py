"""II. Player Actions: the action display, the five actions and the free progress tiles.

An action runs through stages kept in ``state.task`` (:class:`engine.rise.state.Stage`, each a step
of :mod:`engine.rise.steps`):

* ``choose`` -- A turn: select a row whose action can be done; B turn: take
  back one of your discs with the whole payment for the discs to its left
  (none with Printing), as one move; or use a free progress tile first;
* ``act`` -- the row's choice (a tile, a trade box; in B turns also ``skip``);
* ``place`` then ``battle`` -- after an empire tile;
* ``after`` -- free progress tiles after the regular action, or ``stop``.
"""

from __future__ import annotations

from typing import Any

from engine.core import IllegalAction
from engine.rise import control, flow
from engine.rise.actions import PAYMENT_WORDS, PAYMENTS, TakeBack
from engine.rise.context import Ctx
from engine.rise.data import ROWS, EmpireSide, RiseData
from engine.rise.state import EMPTY, RiseState, Stage


def task_of(s: RiseState) -> dict[str, Any]:
    if s.task is None:  # pragma: no cover - callers check the phase first
        raise IllegalAction("no_action", "No action is under way.")
    return s.task


# -- prices and what can be done ------------------------------------------------------------------
def progress_price(s: RiseState, d: RiseData, tile: str) -> int:
    """1 gold for a tile of the previous era, 2 for an era I tile in era III."""
    return max(0, s.era - d.progress[tile].era)


def has_printing(s: RiseState, d: RiseData, seat: int) -> bool:
    return any(d.progress[t].special == "printing" for t in s.progress[seat])


def removal_cost(s: RiseState, d: RiseData, seat: int, row: str, circle: int) -> int:
    """B turn: one unit per disc (of any colour) to the left of ``circle``; nothing with Printing."""
    if has_printing(s, d, seat):
        return 0
    return sum(1 for c in s.display[row][:circle] if c != EMPTY)


Mix = tuple[int, int, int, int, int]
"""A payment: how many gold, pool cubes, resource discs, food and victory points (:data:`PAYMENTS`)."""


def holdings(s: RiseState, seat: int) -> Mix:
    """What ``seat`` could pay with, in :data:`PAYMENTS` order."""
    return (s.gold[seat], s.pool[seat], s.resources[seat], s.food[seat], s.vp[seat])


def payable(s: RiseState, seat: int) -> int:
    return sum(holdings(s, seat))


def payment_mixes(s: RiseState, seat: int, owed: int) -> list[Mix]:
    """Every way ``seat`` can pay ``owed`` units, paying as much gold as possible first, then cubes...

    The rulebook lets the player pay each disc in any of the five units, so
    each way is a move of its own; the first is the rulebook's order.
    """
    have = holdings(s, seat)
    out: list[Mix] = []

    def walk(i: int, left: int, paid: tuple[int, ...]) -> None:
        if i == len(have) - 1:
            if left <= have[i]:
                out.append((paid[0], paid[1], paid[2], paid[3], left))
            return
        if left > sum(have[i:]):
            return
        for n in range(min(left, have[i]), -1, -1):
            walk(i + 1, left - n, (*paid, n))

    walk(0, owed, ())
    return out


def progress_reason(s: RiseState, d: RiseData, seat: int, tile: str) -> str | None:
    if tile not in s.open_progress:
        return "tile_not_available"
    name = d.progress[tile].name
    if any(d.progress[t].name == name for t in s.progress[seat]):
        return "duplicate"
    if s.gold[seat] < progress_price(s, d, tile):
        return "no_gold"
    return None


def city_reason(s: RiseState, d: RiseData, seat: int, tile: str) -> str | None:
    if tile not in s.open_city:
        return "tile_not_available"
    city = d.cities[tile]
    if city.wonder is not None:
        w = city.wonder
        if not s.b_turn:
            return "wonder_a_turn"
        if s.gold[seat] < w.gold or s.resources[seat] < w.resources or s.pool[seat] < w.cubes:
            return "cannot_pay"
        return None
    if s.gold[seat] < city.cost:
        return "no_gold"
    return None


def trade_reason(s: RiseState, d: RiseData, seat: int, box: str) -> str | None:
    if box not in d.trade:
        return "unknown_box"
    spec = d.trade[box]
    if s.era not in spec.eras:
        return "wrong_era"
    if box in s.trade_used:
        return "box_used"
    if s.resources[seat] < spec.resources:
        return "no_resources"
    return None


def _first_per_name(tiles: list[str], name_of: Any) -> list[str]:
    seen: set[str] = set()
    out: list[str] = []
    for t in tiles:
        if name_of(t) not in seen:
            seen.add(name_of(t))
            out.append(t)
    return out


def row_choices(s: RiseState, d: RiseData, seat: int, row: str) -> list[str]:
    """The tiles or boxes ``seat`` could choose in ``row`` now (one tile per name)."""
    if row == "progress":
        ok = [t for t in s.open_progress if progress_reason(s, d, seat, t) is None]
        return _first_per_name(ok, lambda t: d.progress[t].name)
    if row == "territory":
        return _first_per_name(s.open_territory, lambda t: d.territory[t].name)
    if row == "city":
        return [t for t in s.open_city if city_reason(s, d, seat, t) is None]
    if row == "empire":
        return s.open_empires[:]
    return [b for b in d.trade if trade_reason(s, d, seat, b) is None]


def free_circle(s: RiseState, row: str) -> int:
    """The rightmost free circle of ``row`` (EMPTY when full)."""
    circles = s.display[row]
    for i in range(len(circles) - 1, -1, -1):
        if circles[i] == EMPTY:
            return i
    return EMPTY


def select_options(s: RiseState, d: RiseData, seat: int) -> list[tuple[str, int]]:
    """(row, circle) pairs ``seat`` may select now."""
    out: list[tuple[str, int]] = []
    for row in ROWS:
        if s.b_turn:
            for circle, owner in enumerate(s.display[row]):
                if owner == seat and payable(s, seat) >= removal_cost(s, d, seat, row, circle):
                    out.append((row, circle))
        else:
            circle = free_circle(s, row)
            if circle != EMPTY and row_choices(s, d, seat, row):
                out.append((row, circle))
    return out


# -- free progress tiles ----------------------------------------------------------------------------
def tile_ready(s: RiseState, d: RiseData, seat: int, tile: str) -> bool:
    """A free tile, not used this turn, and every other player has taken an action since it was taken.

    Rulebook: "You cannot take a progress tile and immediately use it - you must
    wait until the other players have taken at least one action each." The
    wait carries over into the next game turn.
    """
    if tile not in s.progress[seat] or d.progress[tile].free is None or tile in s.used:
        return False
    return tile not in s.waiting


def acted(s: RiseState, seat: int) -> None:
    """``seat`` has finished an action: the tiles waiting for it to act wait no longer for it."""
    for tile in list(s.waiting):
        left = [q for q in s.waiting[tile] if q != seat]
        if left:
            s.waiting[tile] = left
        else:
            del s.waiting[tile]


def free_uses(s: RiseState, d: RiseData, seat: int) -> list[tuple[str, str, int]]:
    """(tile, region, target) uses of ready free tiles; target -1 is your own cube."""
    out: list[tuple[str, str, int]] = []
    done: set[str] = set()
    for tile in s.progress[seat]:
        if not tile_ready(s, d, seat, tile):
            continue
        kind = d.progress[tile].free
        if kind in done:  # two tiles doing the same: offer the first
            continue
        done.add(str(kind))
        for region in s.regions_of(seat):
            if kind == "remove_cube":
                out.extend((tile, region, p) for p in range(s.players) if p != seat and s.count(region, p))
            elif s.pool[seat]:
                out.append((tile, region, EMPTY))
    return out


def use_tile(ctx: Ctx, seat: int, tile: str, region: str, target: int) -> None:
    s, d = ctx.state, ctx.data
    if not tile_ready(s, d, seat, tile):
        if tile in s.progress[seat] and d.progress[tile].free and tile not in s.used:
            raise IllegalAction("tile_not_ready", "A new tile waits until every other player has acted.",
                                tile=tile)
        raise IllegalAction("tile_unusable", "You have no unused free-action tile of that name.", tile=tile)
    kind = d.progress[tile].free
    if s.count(region, seat) == 0:
        raise IllegalAction("no_cubes_there", "You have no cubes in that region.", region=region)
    if kind == "remove_cube":
        if target == seat or not 0 <= target < s.players or s.count(region, target) == 0:
            raise IllegalAction("no_target", "That player has no cube there to remove.", region=region)
        s.add_cubes(region, target, -1)
        s.stock[target] += 1
    else:
        if target != EMPTY or s.pool[seat] == 0:
            raise IllegalAction("no_cube", "You need a cube in your pool, placed for yourself.")
        s.add_cubes(region, seat, 1)
        s.pool[seat] -= 1
    s.used.append(tile)
    ctx.emit("tile_used", player=seat, tile=tile, region=region, target=target)


# -- the stages --------------------------------------------------------------------------------------
def select(ctx: Ctx, seat: int, row: str, circle: int) -> None:
    """A turn: put a disc into the rightmost free circle of ``row``."""
    s, d = ctx.state, ctx.data
    task = task_of(s)
    if row not in ROWS:
        raise IllegalAction("unknown_row", f"There is no {row!r} row.", row=row)
    if s.b_turn:
        raise IllegalAction("b_turn", "In a B turn you take back one of your discs (paying for the discs "
                            "to its left) instead of placing one.")
    if (row, circle) not in select_options(s, d, seat):
        if free_circle(s, row) == EMPTY:
            raise IllegalAction("row_full", f"The {row} row is full.", row=row)
        if circle != free_circle(s, row):
            raise IllegalAction("wrong_circle", "Discs go into the rightmost free circle.", row=row)
        raise IllegalAction("cannot_perform", f"You cannot perform the {row} action now.", row=row)
    task["row"] = row
    task["circle"] = circle
    task["b"] = False
    s.display[row][circle] = seat
    ctx.emit("disc_placed", player=seat, row=row, circle=circle)
    task["stage"] = Stage.ACT


def take_back(ctx: Ctx, seat: int, action: TakeBack) -> None:
    """B turn: take back a disc and pay its whole price at once (rulebook, Player Actions)."""
    s, d = ctx.state, ctx.data
    task = task_of(s)
    row, circle = action.row, action.circle
    if row not in ROWS:
        raise IllegalAction("unknown_row", f"There is no {row!r} row.", row=row)
    if not s.b_turn:
        raise IllegalAction("a_turn", "In an A turn you place a disc; discs are taken back in B turns.")
    if not 0 <= circle < len(s.display[row]) or s.display[row][circle] != seat:
        raise IllegalAction("not_your_disc", "You have no disc in that circle.", row=row, circle=circle)
    cost = removal_cost(s, d, seat, row, circle)
    paid = action.payment
    if min(paid) < 0 or sum(paid) != cost:
        raise IllegalAction("wrong_payment", f"That disc costs {cost} to take back: pay exactly {cost} in "
                            "gold, pool cubes, resource discs, food or victory points.", cost=cost)
    short = [what for what, n, have in zip(PAYMENTS, paid, holdings(s, seat), strict=True) if n > have]
    if short:
        raise IllegalAction("cannot_pay", f"You do not have enough {PAYMENT_WORDS[short[0]][1]} to pay "
                            "that way.", what=short[0])
    gold, cubes, resources, food, vp = paid
    s.gold[seat] -= gold
    s.pool[seat] -= cubes
    s.stock[seat] += cubes
    s.resources[seat] -= resources
    s.food[seat] -= food
    s.vp[seat] -= vp
    s.display[row][circle] = EMPTY
    task["row"] = row
    task["circle"] = circle
    task["b"] = True
    task["stage"] = Stage.ACT
    ctx.emit("disc_removed", player=seat, row=row, circle=circle, cost=cost,
             paid={what: n for what, n in zip(PAYMENTS, paid, strict=True) if n})


def _check_row(task: dict[str, Any], row: str) -> None:
    if task["row"] != row:
        raise IllegalAction("wrong_row", f"Your disc is in the {task['row']} row, not {row}.", row=row)


def take_progress(ctx: Ctx, seat: int, tile: str) -> None:
    s, d = ctx.state, ctx.data
    _check_row(task_of(s), "progress")
    reason = progress_reason(s, d, seat, tile)
    if reason == "duplicate":
        raise IllegalAction(reason, "You already have that progress tile.", tile=tile)
    if reason == "no_gold":
        raise IllegalAction(reason, "You cannot pay for a tile of an earlier era.", tile=tile)
    if reason:
        raise IllegalAction(reason, "That progress tile is not on the display.", tile=tile)
    price = progress_price(s, d, tile)
    s.gold[seat] -= price
    s.open_progress.remove(tile)
    s.progress[seat].append(tile)
    if d.progress[tile].free is not None:
        s.waiting[tile] = [q for q in range(s.players) if q != seat]
    if d.progress[tile].special == "navigation":
        s.navigation = True
    ctx.emit("took_progress", player=seat, tile=tile, price=price)
    finish_row(ctx, seat)


def take_territory(ctx: Ctx, seat: int, tile: str) -> None:
    s = ctx.state
    _check_row(task_of(s), "territory")
    if tile not in s.open_territory:
        raise IllegalAction("tile_not_available", "That territory tile is not on the display.", tile=tile)
    s.open_territory.remove(tile)
    s.territory[seat].append(tile)
    ctx.emit("took_territory", player=seat, tile=tile)
    finish_row(ctx, seat)


def take_city(ctx: Ctx, seat: int, tile: str) -> None:
    s, d = ctx.state, ctx.data
    _check_row(task_of(s), "city")
    reason = city_reason(s, d, seat, tile)
    if reason == "wonder_a_turn":
        raise IllegalAction(reason, "Wonders can only be taken in a B turn.", tile=tile)
    if reason in ("no_gold", "cannot_pay"):
        raise IllegalAction("cannot_pay", "You cannot pay for that tile.", tile=tile)
    if reason:
        raise IllegalAction(reason, "That city tile is not on the display.", tile=tile)
    city = d.cities[tile]
    s.open_city.remove(tile)
    if city.wonder is not None:
        w = city.wonder
        s.gold[seat] -= w.gold
        s.resources[seat] -= w.resources
        s.pool[seat] -= w.cubes
        s.stock[seat] += w.cubes
        s.vp[seat] += w.vp
        s.retired.append(tile)  # scored at once and returned to the box
        ctx.emit("built_wonder", player=seat, tile=tile, vp=w.vp)
    else:
        s.gold[seat] -= city.cost
        s.cities[seat].append(tile)
        ctx.emit("took_city", player=seat, tile=tile, price=city.cost)
    finish_row(ctx, seat)


def trade(ctx: Ctx, seat: int, box: str) -> None:
    s, d = ctx.state, ctx.data
    _check_row(task_of(s), "trade")
    reason = trade_reason(s, d, seat, box)
    messages = {"unknown_box": "There is no such trade box.",
                "wrong_era": "That trade box is not open in this era.",
                "box_used": "That trade box was already used this turn.",
                "no_resources": "You do not have enough resource discs for that box."}
    if reason:
        raise IllegalAction(reason, messages[reason], box=box)
    spec = d.trade[box]
    s.resources[seat] -= spec.resources
    s.gold[seat] += spec.gold
    s.vp[seat] += spec.vp
    s.trade_used[box] = seat
    ctx.emit("traded", player=seat, box=box, resources=spec.resources, gold=spec.gold, vp=spec.vp)
    finish_row(ctx, seat)


def skip(ctx: Ctx, seat: int) -> None:
    task = task_of(ctx.state)
    if not task["b"]:
        raise IllegalAction("must_act", "In an A turn the action you chose must be done.")
    ctx.emit("skipped", player=seat, row=task["row"])
    finish_row(ctx, seat)


# -- empire tiles ---------------------------------------------------------------------------------------
def side_of(s: RiseState, d: RiseData, task: dict[str, Any]) -> EmpireSide:
    return d.empires[str(task["empire"])].side(s.era)


def take_empire(ctx: Ctx, seat: int, tile: str) -> None:
    s = ctx.state
    task = task_of(s)
    _check_row(task, "empire")
    if tile not in s.open_empires:
        raise IllegalAction("tile_not_available", "That empire tile has been taken.", tile=tile)
    s.open_empires.remove(tile)
    s.empires[seat].append(tile)
    task["empire"] = tile
    task["before"] = s.regions_of(seat)
    task["placed"] = []
    task["stage"] = Stage.PLACE
    ctx.emit("took_empire", player=seat, tile=tile)


def place_options(s: RiseState, d: RiseData, seat: int) -> list[str]:
    task = task_of(s)
    if s.pool[seat] == 0:
        return []
    side = side_of(s, d, task)
    return [r for r in d.regions
            if control.placement_reason(s, d, seat, side, task["before"], task["placed"], r) is None]


def can_clear(s: RiseState, seat: int) -> bool:
    task = task_of(s)
    return not task["cleared"] and not task["placed"] and s.on_map(seat) > 0


def clear_cubes(ctx: Ctx, seat: int) -> None:
    s = ctx.state
    task = task_of(s)
    if not can_clear(s, seat):
        raise IllegalAction("cannot_clear", "You may clear your cubes only before placing any.")
    for region in s.regions_of(seat):
        n = s.count(region, seat)
        s.add_cubes(region, seat, -n)
        s.pool[seat] += n
    task["cleared"] = True
    task["before"] = []
    ctx.emit("cleared", player=seat)


_PLACE_MESSAGES = {
    "unknown_region": "There is no such region.",
    "region_closed": "Cubes cannot go there in this era or with this empire tile.",
    "too_many_regions": "Your empire tile allows no more regions.",
    "not_adjacent": "That region is not adjacent to a region you held before placing.",
    "needs_water": "From the New World or the Far East you need a water tile to reach the Old World.",
    "one_old_region": "From overseas you may enter only one region of the Old World.",
}


def place_cube(ctx: Ctx, seat: int, region: str) -> None:
    s, d = ctx.state, ctx.data
    task = task_of(s)
    if s.pool[seat] == 0:
        raise IllegalAction("empty_pool", "You have no cubes in your pool.")
    reason = control.placement_reason(s, d, seat, side_of(s, d, task), task["before"], task["placed"], region)
    if reason:
        raise IllegalAction(reason, _PLACE_MESSAGES[reason], region=region)
    s.add_cubes(region, seat, 1)
    s.pool[seat] -= 1
    if region not in task["placed"]:
        task["placed"].append(region)
    ctx.emit("placed", player=seat, region=region)


def battle_options(s: RiseState, d: RiseData, seat: int) -> list[tuple[str, int, int]]:
    task = task_of(s)
    side = side_of(s, d, task)
    rows = list(range(len(side.battles))) if s.era >= 3 else [0]
    if len(task["battles"]) >= len(rows):
        return []
    used_rows = {b[1] for b in task["battles"]}
    used_regions = {b[0] for b in task["battles"]}
    out: list[tuple[str, int, int]] = []
    for region in s.regions_of(seat):
        if region in used_regions:
            continue
        for target in range(s.players):
            if target != seat and s.count(region, target):
                out.extend((region, target, row) for row in rows if row not in used_rows)
    return out


def stop_placing(ctx: Ctx, seat: int) -> None:
    """No more cubes: on to the battles, or past them when there is none to fight."""
    s, d = ctx.state, ctx.data
    task_of(s)["stage"] = Stage.BATTLE
    if not battle_options(s, d, seat):
        finish_row(ctx, seat)


def battle(ctx: Ctx, seat: int, region: str, target: int, row: int) -> None:
    s, d = ctx.state, ctx.data
    task = task_of(s)
    if (region, target, row) not in battle_options(s, d, seat):
        raise IllegalAction("no_battle", "You cannot fight that battle.", region=region, target=target,
                            row=row)
    attacker_loss, defender_loss = side_of(s, d, task).battles[row]
    lost_def = min(defender_loss, s.count(region, target))
    lost_att = min(attacker_loss, s.count(region, seat))
    s.add_cubes(region, target, -lost_def)
    s.stock[target] += lost_def
    s.add_cubes(region, seat, -lost_att)
    s.stock[seat] += lost_att
    task["battles"].append([region, row])
    # The result as players read it: who controls the region now, and whether that is the attacker.
    holder = control.controller(s, region)
    ctx.emit("battle", player=seat, region=region, target=target, defender_lost=lost_def,
             attacker_lost=lost_att, holder=EMPTY if holder is None else holder, won=holder == seat)
    if not battle_options(s, d, seat):
        finish_row(ctx, seat)


# -- ending an action ----------------------------------------------------------------------------------
def finish_row(ctx: Ctx, seat: int) -> None:
    s, d = ctx.state, ctx.data
    if free_uses(s, d, seat):
        task_of(s)["stage"] = Stage.AFTER
    else:
        complete(ctx)


def pass_action(ctx: Ctx, seat: int) -> None:
    s, d = ctx.state, ctx.data
    if select_options(s, d, seat):
        raise IllegalAction("must_select", "You can still select an action.")
    ctx.emit("passed", player=seat)
    complete(ctx)


def complete(ctx: Ctx) -> None:
    s = ctx.state
    acted(s, int(task_of(s)["player"]))
    s.act_no += 1
    flow.start_action(ctx)
