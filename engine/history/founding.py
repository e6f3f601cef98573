"""Founding a force (Chapter V steps 1-4): its army pool, capital, fleets and start lands.

The active empire, a Minor Empire and (for its fleets) Astronomy all come in
here. Where the fleet/coin markers run short the active player chooses: which
of its own fleets to place (Population Explosion and other coins hold
markers), and with the Naval Control option which manned fleets of the
oldest epoch leave the board ("The Active Empire ... decides which fleets to
take within this Epoch and in what order"). Such a choice is a *pick*
(``turn.pick``), made one water at a time through ``Choose`` in the ``pick``
step; the turn then goes on to the step stored in the pick.
"""

from __future__ import annotations

from engine.core import IllegalAction
from engine.history.board import (
    Ctx,
    army_supply,
    clear_land,
    markers_free,
    place_army,
    put_structure,
)
from engine.history.data import Empire
from engine.history.state import Force, Turn, TurnStep
from engine.words import roman


def _turn(ctx: Ctx) -> Turn:
    turn = ctx.state.turn
    assert turn is not None
    return turn


def empire_force(empire: Empire) -> Force:
    """The active empire as the force placing armies."""
    return Force(key=empire.key, kind="empire", name=empire.name, piece_epoch=empire.epoch)


def fleet_waters(ctx: Ctx, listed: tuple[str, ...] | list[str]) -> list[str]:
    """Each listed water, then the seas its ocean reaches, without repeats."""
    out: list[str] = []
    for water in listed:
        for w in [water, *sorted(ctx.rules.map.fleet_reach(water) - {water})]:
            if w not in out:
                out.append(w)
    return out


def go_to(ctx: Ctx, step: TurnStep) -> None:
    """Go on to ``step``, or after the pick in progress when there is one."""
    turn = _turn(ctx)
    if turn.pick is not None:
        turn.pick["then"] = step
    else:
        turn.step = step


def establish(ctx: Ctx, force: Force, empire: Empire, extra_fleets: list[str] | None = None) -> None:
    """Take the army pool, put the capital and first armies down, and place the fleets."""
    state = ctx.state
    turn = _turn(ctx)
    player = turn.player
    force.pool = max(0, min(empire.strength, army_supply(ctx, player, force.piece_epoch)))
    if force.pool < empire.strength:
        ctx.emit("supply_out", piece=f"epoch {roman(force.piece_epoch)} army", player=player,
                 wanted=empire.strength, got=force.pool)
    for start in empire.starts:
        clear_land(ctx, start, f"start of {empire.name}")
        if empire.capital:
            put_structure(ctx, start, "capital")
        if force.pool > 0:
            place_army(state, start, player, force.piece_epoch, force.key)
            force.pool -= 1
    ctx.emit("established", name=empire.name, kind=force.kind, starts=list(empire.starts), pool=force.pool)
    waters = fleet_waters(ctx, [*empire.fleets, *(extra_fleets or [])])
    if not waters:
        return
    turn.pick = {"what": "fleets", "waters": waters, "options": [], "left": 0, "chosen": [],
                 "then": turn.step}
    turn.step = TurnStep.PICK
    if bool(state.options.get("naval_control")) and force.kind == "empire":
        _take_manned(ctx)
    else:
        _place_fleets(ctx)


def _naval(ctx: Ctx) -> bool:
    return bool(ctx.state.options.get("naval_control")) and _turn(ctx).force.kind == "empire"


def _take_manned(ctx: Ctx) -> None:
    """Naval Control: free markers by taking manned fleets off, oldest epoch first.

    Within the epoch where only some must go, the active player picks them.
    """
    state, turn = ctx.state, _turn(ctx)
    pick = turn.pick
    assert pick is not None
    by_epoch: dict[int, list[str]] = {}
    for sea, army in state.manned.items():
        by_epoch.setdefault(int(army[1]), []).append(sea)
    for epoch in sorted(by_epoch):
        # A fleet needs a marker of its own in every water but one its player's army already
        # holds; a sea held by another must be fought for with the empire's own fleet marker.
        needed = sum(1 for w in pick["waters"] if state.manned.get(w, [None])[0] != turn.player)
        short = needed - markers_free(ctx)
        if short <= 0:
            break
        seas = sorted(by_epoch[epoch])
        if len(seas) <= short:
            for sea in seas:
                _unman(ctx, sea)
            continue
        pick.update(what="unman", options=seas, left=short, epoch=epoch)
        return
    _place_fleets(ctx)


def _unman(ctx: Ctx, sea: str) -> None:
    army = ctx.state.manned.pop(sea)
    ctx.emit("fleet_removed", sea=sea, owner=army[0])


def _place_fleets(ctx: Ctx) -> None:
    """Place every fleet there is a marker for; the player picks which when they run short."""
    state, turn = ctx.state, _turn(ctx)
    pick = turn.pick
    assert pick is not None
    naval = _naval(ctx)
    placeable: list[str] = []
    for water in pick["waters"]:
        holder = state.manned.get(water)
        if naval and holder is not None and holder[0] != turn.player:
            turn.contested.append(water)  # fought for in the naval step
        elif holder is not None:
            turn.force.fleets.append(water)  # already manned by this player: no new marker
        else:
            placeable.append(water)
    room = markers_free(ctx)
    if len(placeable) <= room:
        _finish(ctx, placeable, [])
    elif room <= 0:
        _finish(ctx, [], placeable)
    else:
        pick.update(what="fleets", options=placeable, left=room)


def _finish(ctx: Ctx, placed: list[str], dropped: list[str]) -> None:
    turn = _turn(ctx)
    pick = turn.pick
    assert pick is not None
    turn.force.fleets.extend(placed)
    for water in dropped:
        ctx.emit("supply_out", piece="fleet", water=water)
    if turn.force.fleets:
        ctx.emit("fleets", name=turn.force.name, fleets=list(turn.force.fleets))
    turn.step = TurnStep(pick["then"])  # a stored pick holds the plain string
    turn.pick = None


def pick_fleet(ctx: Ctx, water: str) -> None:
    """One answer to a fleet pick: a fleet to keep, or a manned fleet to take off."""
    turn = _turn(ctx)
    pick = turn.pick
    assert pick is not None and pick["what"] in ("fleets", "unman")
    if water not in pick["options"]:
        raise IllegalAction("bad_target", f"The {water} is not one of the waters to choose from here: "
                            f"{', '.join(pick['options'])}.", target=water)
    pick["options"].remove(water)
    pick["chosen"].append(water)
    pick["left"] -= 1
    if pick["what"] == "unman":
        _unman(ctx, water)
        if pick["left"] <= 0:
            pick.update(options=[], chosen=[], left=0)
            _take_manned(ctx)
        return
    if pick["left"] <= 0:
        _finish(ctx, list(pick["chosen"]), list(pick["options"]))
