"""The steps of a turn: kingdom, establish, invade, fortify, monuments, resign, gain points.

A turn runs through these ``Turn.step`` values: ``kingdom`` (play the kingdom
chosen this epoch, or skip it), ``invade`` (invade, fortify, play
enhancements, stop), ``target`` (an event or the empire's effect waiting for
its targets), ``reroll`` and ``siege`` (a battle waiting for the invader),
``track`` (the score marker landed on another). A kingdom runs establish,
invade, monuments and resign before the empire; its armies are scored with
the empire's at the end of the turn.
"""

from __future__ import annotations

from engine.core import IllegalAction
from engine.history.epochs5 import battle, track
from engine.history.epochs5.board import (
    Ctx,
    clear_territory,
    forts_free,
    place_fort,
    place_monument,
    place_structure,
    resolve_land,
    score_breakdown,
)
from engine.history.epochs5.empires import Empire
from engine.history.epochs5.reach import LAND, SEA, Reach, reach
from engine.history.epochs5.state import Turn, TurnStep


def start_turn(ctx: Ctx, player: int, empire: Empire) -> None:
    """Take the catapult: the called empire's player begins; a kingdom of this epoch comes first."""
    state = ctx.state
    state.revealed[player] = True
    state.played_empires[player].append(empire.key)
    state.turn = Turn(player=player, empire=empire.key, step=TurnStep.KINGDOM)
    ctx.emit("turn", player=player, empire=empire.key, name=empire.name)
    if not kingdoms_in_hand(ctx):
        begin_empire(ctx)


def kingdoms_in_hand(ctx: Ctx) -> list[str]:
    """Kingdom cards of this epoch the active player holds (kingdoms cannot be saved)."""
    state = ctx.state
    turn = ctx.turn
    out = []
    for cid in state.hands[turn.player]:
        card = ctx.rules.events[cid]
        if card.is_kingdom and card.epoch == state.epoch:
            out.append(cid)
    return sorted(out)


def play_kingdom(ctx: Ctx, cid: str) -> None:
    turn = ctx.turn
    card = ctx.rules.events[cid]
    assert card.kingdom is not None
    ctx.state.hands[turn.player].remove(cid)
    turn.played.append(cid)
    ctx.emit("kingdom", player=turn.player, card=cid, name=card.name)
    establish(ctx, card.kingdom, "kingdom")


def skip_kingdom(ctx: Ctx) -> None:
    ctx.emit("kingdom_skipped", player=ctx.turn.player)
    begin_empire(ctx)


def begin_empire(ctx: Ctx) -> None:
    turn = ctx.turn
    establish(ctx, ctx.rules.empires[turn.empire], "empire")


def establish(ctx: Ctx, emp: Empire, kind: str) -> None:
    """Gather armies (siege tokens for the shortfall), clear the start, place capitol, army, aids."""
    state = ctx.state
    turn = ctx.turn
    player = turn.player
    turn.force = emp.key
    turn.force_kind = kind
    turn.fleets = []
    turn.caravans = []
    turn.free_invasions = []
    supply = ctx.supply(player)
    wanted = emp.armies
    if kind == "empire" and emp.effect == "extra_armies_per_capitol":
        wanted += sum(
            1 for t, k in state.structures.items() if k == "capitol" and state.occupant(t) == player
        )
    turn.pool = max(0, min(wanted, supply))
    turn.siege_tokens = wanted - turn.pool
    if turn.siege_tokens:
        ctx.emit("siege_tokens", player=player, count=turn.siege_tokens)
    for start in emp.starts:
        clear_territory(ctx, start, f"start of {emp.name}")
        if emp.structure is not None:
            place_structure(ctx, start, emp.structure)
        if turn.pool > 0:
            state.armies[start] = [player, emp.key]
            turn.pool -= 1
    turn.fleets = list(emp.fleets)
    turn.caravans = list(emp.caravans)
    turn.step = TurnStep.INVADE
    ctx.emit(
        "established",
        player=player,
        name=emp.name,
        kind=kind,
        starts=list(emp.starts),
        armies=turn.pool,
        siege_tokens=turn.siege_tokens,
        fleets=list(turn.fleets),
        caravans=list(turn.caravans),
        marauder=emp.marauder,
    )


# -- invading ----------------------------------------------------------------------------------
def current_reach(ctx: Ctx) -> Reach:
    turn = ctx.turn
    sources = ctx.state.force_lands(turn.force) + list(turn.free_invasions)
    return reach(ctx.rules.map, sources, turn.fleets, turn.caravans)


def invasion_targets(ctx: Ctx) -> dict[str, list[str]]:
    """Territories the force may invade now, each with its possible routes."""
    turn = ctx.turn
    if turn.pool <= 0:
        return {}
    found = current_reach(ctx)
    out: dict[str, list[str]] = {}
    for land in sorted(found.by_land | found.by_sea):
        army = ctx.state.armies.get(land)
        if army is not None and army[1] == turn.force:
            continue
        out[land] = found.routes(land)
    return out


def invade(ctx: Ctx, name: str, route: str) -> None:
    state = ctx.state
    turn = ctx.turn
    land = resolve_land(ctx, name)
    if route not in ("auto", LAND, SEA):
        raise IllegalAction("bad_route", "The route is 'auto', 'land' or 'sea'.", route=route)
    if ctx.rules.map.lands[land].barren:
        raise IllegalAction("barren", f"{land} is a barren land; no army can enter it.", land=land)
    if turn.pool <= 0:
        raise IllegalAction("no_armies", "Your card has no armies left to invade with.")
    army = state.armies.get(land)
    if army is not None and army[1] == turn.force:
        raise IllegalAction("already_there", f"Your active empire already occupies {land}.", land=land)
    routes = current_reach(ctx).routes(land)
    if not routes:
        raise IllegalAction(
            "not_adjacent",
            f"{land} is not adjacent to your active armies, nor reachable by your fleets or caravans.",
            land=land,
        )
    if route == "auto":
        route = routes[0]
    elif route not in routes:
        raise IllegalAction(
            "no_route", f"You cannot reach {land} that way ({route}).", land=land, route=route
        )
    turn.pool -= 1
    if army is None or army[0] == turn.player:
        if army is not None:
            ctx.emit("army_removed", land=land, owner=turn.player, why="replaced by your active army")
        state.armies[land] = [turn.player, turn.force]
        ctx.emit("invaded", land=land, player=turn.player, route=route, battle=False)
        return
    ctx.emit("invaded", land=land, player=turn.player, route=route, battle=True, defender=army[0])
    battle.start(ctx, land, route)


def fortify(ctx: Ctx, name: str) -> None:
    """Spend an army from the card to put a fort where an active army stands."""
    turn = ctx.turn
    land = resolve_land(ctx, name)
    if turn.pool <= 0:
        raise IllegalAction("no_armies", "Fortifying costs an army from your card, and it has none.")
    check_fort_site(ctx, land)
    turn.pool -= 1
    place_fort(ctx, land)


def check_fort_site(ctx: Ctx, land: str) -> None:
    state = ctx.state
    army = state.armies.get(land)
    if army is None or army[1] != ctx.turn.force:
        raise IllegalAction("not_active", f"{land} holds none of your active armies.", land=land)
    if land in state.forts:
        raise IllegalAction("has_fort", f"{land} already has a fort.", land=land)
    if forts_free(ctx) <= 0:
        raise IllegalAction("no_forts", "All the forts are on the board.")


def fort_sites(ctx: Ctx) -> list[str]:
    if forts_free(ctx) <= 0:
        return []
    state = ctx.state
    return [land for land in state.force_lands(ctx.turn.force) if land not in state.forts]


# -- the end of a force: monuments, the Assyrians' forts, resign; the end of the turn ---------
# These steps may wait on the player (which territory gets a monument; where the Assyrians'
# forts go): ``turn.pending`` then holds {"source": "monument" | "empire", "left": n, "chosen": [...]}
# and the turn is at the ``target`` step until :func:`choose_end_target` or
# :func:`finish_end_targets` moves it on.
def stop(ctx: Ctx) -> None:
    """Stop invading: armies left on the card go back; build monuments; the empire's effect; resign."""
    turn = ctx.turn
    if turn.pool or turn.siege_tokens:
        ctx.emit("armies_returned", player=turn.player, armies=turn.pool, siege_tokens=turn.siege_tokens)
    turn.pool = 0
    turn.siege_tokens = 0
    per = 1 if turn.force_kind == "empire" and battle.empire_effect(ctx) == "monument_per_resource" else 2
    _build_monuments(ctx, resource_count(ctx) // per)


def resource_count(ctx: Ctx) -> int:
    lands = ctx.rules.map.lands
    return sum(1 for land in ctx.state.force_lands(ctx.turn.force) if lands[land].resource)


def monument_sites(ctx: Ctx) -> list[str]:
    """Where the next monument may go: the territories of active armies without a monument that
    have the best of "1. Capitol 2. City 3. Resource Icon" found among them."""
    state = ctx.state
    lands = ctx.rules.map.lands

    def rank(t: str) -> int:
        kind = state.structures.get(t)
        return 0 if kind == "capitol" else 1 if kind == "city" else 2 if lands[t].resource else 3

    ranked = [(rank(t), t) for t in state.force_lands(ctx.turn.force) if t not in state.monuments]
    best = min((r for r, _ in ranked), default=3)
    return sorted(t for r, t in ranked if r == best < 3)


def _build_monuments(ctx: Ctx, left: int) -> None:
    """Build ``left`` monuments: a single possible site is taken at once; where the rulebook leaves
    a choice ("in any ... territory" of the best kind) the player chooses."""
    turn = ctx.turn
    while left > 0:
        sites = monument_sites(ctx)
        if not sites:
            ctx.emit("monument_unbuilt", player=turn.player)
            break
        if len(sites) > 1 and len(ctx.state.monuments) < ctx.rules.monuments:
            turn.pending = {"source": "monument", "effect": "monument", "left": left, "chosen": []}
            turn.step = TurnStep.TARGET
            return
        if not place_monument(ctx, sites[0]):
            break
        left -= 1
    _empire_forts(ctx)


def _empire_forts(ctx: Ctx) -> None:
    """The Assyrians: a fort for each resource territory held, where the player chooses; then resign."""
    turn = ctx.turn
    turn.pending = None
    if turn.force_kind == "empire" and battle.empire_effect(ctx) == "fortify_per_resource":
        left = min(resource_count(ctx), forts_free(ctx))
        if left > 0 and fort_sites(ctx):
            turn.pending = {"source": "empire", "effect": "fortify_per_resource", "left": left, "chosen": []}
            turn.step = TurnStep.TARGET
            return
    resign(ctx)


def end_candidates(ctx: Ctx) -> list[str]:
    """The territories the monument or the Assyrians' fort waiting now may go to."""
    pending = ctx.turn.pending
    assert pending is not None
    if pending["source"] == "monument":
        return monument_sites(ctx)
    return [t for t in fort_sites(ctx) if t not in pending["chosen"]]


def choose_end_target(ctx: Ctx, name: str) -> None:
    """The ``Choose`` action for a monument site or an Assyrian fort."""
    turn = ctx.turn
    pending = turn.pending
    assert pending is not None
    land = resolve_land(ctx, name)
    if land not in end_candidates(ctx):
        what = "monument" if pending["source"] == "monument" else "fort"
        raise IllegalAction(
            "bad_target",
            f"The {what} cannot go to {land} now; choose one of: {', '.join(end_candidates(ctx))}.",
            target=land,
        )
    pending["chosen"].append(land)
    pending["left"] -= 1
    if pending["source"] == "monument":
        place_monument(ctx, land)
        _build_monuments(ctx, int(pending["left"]))
        return
    place_fort(ctx, land)
    if pending["left"] <= 0 or not end_candidates(ctx):
        _empire_forts_done(ctx)


def may_finish_end_targets(ctx: Ctx) -> bool:
    """A monument must be built ("you must build one monument"); the Assyrians' forts are optional."""
    pending = ctx.turn.pending
    return pending is not None and pending["source"] == "empire"


def finish_end_targets(ctx: Ctx) -> None:
    """The ``Done`` action: place no more of the Assyrians' forts."""
    if not may_finish_end_targets(ctx):
        raise IllegalAction(
            "must_build", "Every monument your resources pay for must be built: choose where it goes."
        )
    _empire_forts_done(ctx)


def _empire_forts_done(ctx: Ctx) -> None:
    ctx.turn.pending = None
    resign(ctx)


def resign(ctx: Ctx) -> None:
    """Resign the force's armies and remove its fleets, caravans and siege tokens."""
    state = ctx.state
    turn = ctx.turn
    for army in state.armies.values():
        if army[1] == turn.force:
            army[1] = ""
    turn.fleets = []
    turn.caravans = []
    turn.free_invasions = []
    turn.pending = None
    # Not "resigned": that word is the platform's for a person leaving a game.
    ctx.emit(
        "empire_stood_down",
        player=turn.player,
        force=turn.force,
        name=ctx.rules.empires[turn.force].name,
        kind=turn.force_kind,
    )
    if turn.force_kind == "kingdom":
        begin_empire(ctx)
        return
    turn.step = TurnStep.SCORING
    for cid in turn.played:
        ctx.emit("card_returned", card=cid)
    points = score_breakdown(state, ctx.rules, turn.player)
    ctx.emit("scored", **points)
    if not track.gain(ctx, turn.player, int(points["total"]), "turn", resume="end"):
        end_turn(ctx)


def end_turn(ctx: Ctx) -> None:
    """The turn is over; the game calls the next empire (:func:`engine.history.epochs5.draft.call_next`)."""
    state = ctx.state
    turn = ctx.turn
    ctx.emit("turn_over", player=turn.player, score=state.scores[turn.player])
    state.turn = None
    state.call_pos += 1
