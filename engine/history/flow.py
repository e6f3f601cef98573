"""The course of a game: empire draws, turns, expansion, monuments, epochs, the end."""

from __future__ import annotations

from engine import rng
from engine.core import IllegalAction
from engine.history import event_cards
from engine.history.board import (
    Ctx,
    clear_land,
    forts_free,
    markers_free,
    place_army,
    place_fort,
    put_structure,
    reachable,
    resolve_land,
    resolve_water,
    room_for_army,
    room_for_fort,
    sack,
)
from engine.history.combat import active_attacker, attacker_lost, battle, defender_dice, fight_round
from engine.history.data import Empire
from engine.history.founding import empire_force, establish, go_to, pick_fleet
from engine.history.scoring import ranking, score_breakdown
from engine.history.state import Force, Phase, Turn, TurnStep

# -- the empire draw (Chapter III, Chapter VII "Drawing for New Empires") ------


def draw_order(ctx: Ctx) -> list[int]:
    """Who draws empire cards first this epoch, and in what order.

    Epoch I: everyone rolls two dice, highest first (ties roll again), then
    clockwise in seat order. Later: lowest score first; ties by the lower
    strength of the previous epoch's empire, then by who went earlier in it.
    """
    state = ctx.state
    n = state.players
    if state.epoch == 1:
        tied = list(range(n))
        while True:
            rolls = {p: sum(rng.roll(state, 2)) for p in tied}
            ctx.emit("rolloff", rolls={str(p): r for p, r in rolls.items()})
            best = max(rolls.values())
            tied = [p for p, r in rolls.items() if r == best]
            if len(tied) == 1:
                break
        first = tied[0]
        return [(first + i) % n for i in range(n)]
    rules = ctx.rules

    def key(p: int) -> tuple[int, int, int]:
        prev = rules.empires[state.played_empires[p][-1]]
        return (state.scores[p], prev.strength, prev.order)

    return sorted(range(n), key=key)


def start_epoch(ctx: Ctx) -> None:
    state = ctx.state
    state.phase = Phase.DRAW
    state.holding = [None] * state.players
    state.given_by = [None] * state.players
    state.call_pos = 0
    state.deck = [e.key for e in ctx.rules.epochs[state.epoch]]
    rng.shuffle(state, state.deck)
    state.draw_order = draw_order(ctx)
    state.draw_pos = 0
    ctx.emit("epoch", epoch=state.epoch, name=ctx.rules.epoch_names[state.epoch], draw_order=state.draw_order)
    _draw_next(ctx)


def draw_choices(ctx: Ctx) -> tuple[bool, list[int]]:
    """(may keep, players the card may be given to) for the current drawer."""
    state = ctx.state
    me = state.draw_order[state.draw_pos]
    empty = [p for p in range(state.players) if state.holding[p] is None and p != me]
    return state.holding[me] is None, empty


def _draw_next(ctx: Ctx) -> None:
    """The next drawer takes a card; a choice with only one answer is made at once."""
    state = ctx.state
    if state.draw_pos >= state.players:
        _finish_draw(ctx)
        return
    me = state.draw_order[state.draw_pos]
    state.drawn = state.deck.pop()
    ctx.emit("drew_empire", player=me)
    ctx.emit("your_draw", (me,), player=me, empire=state.drawn)
    may_keep, give_to = draw_choices(ctx)
    if may_keep and not give_to:
        decide_draw(ctx, me, None, auto=True)
    elif not may_keep and len(give_to) == 1:
        decide_draw(ctx, me, give_to[0], auto=True)


def decide_draw(ctx: Ctx, player: int, to: int | None, auto: bool = False) -> None:
    """Keep (``to`` is None) or give the drawn card."""
    state = ctx.state
    if state.phase is not Phase.DRAW or state.drawn is None or state.draw_order[state.draw_pos] != player:
        raise IllegalAction("not_your_draw", "It is not your turn to decide on an empire card.")
    may_keep, give_to = draw_choices(ctx)
    if to is None and not may_keep:
        raise IllegalAction(
            "must_give", "You already hold an empire card, so you must give this one away."
        )
    if to is not None and to not in give_to:
        raise IllegalAction(
            "bad_receiver", "You can only give the card to another player who has no empire card yet.", to=to
        )
    receiver = player if to is None else to
    state.holding[receiver] = state.drawn
    state.given_by[receiver] = None if to is None else player
    ctx.emit("empire_kept" if to is None else "empire_given", player=player, to=receiver, forced=auto)
    state.drawn = None
    state.draw_pos += 1
    _draw_next(ctx)


def _finish_draw(ctx: Ctx) -> None:
    state = ctx.state
    ctx.emit("unused_empires", count=len(state.deck))
    state.deck = []
    state.drawn = None
    state.phase = Phase.TURN
    for p in range(state.players):
        ctx.emit("your_empire", (p,), player=p, empire=state.holding[p])
    call_next(ctx)


# -- calling the empires ---------------------------------------------------------


def call_next(ctx: Ctx) -> None:
    """Call empires in card order, skipping those nobody holds, until one is played."""
    state = ctx.state
    listed = ctx.rules.epochs[state.epoch]
    while state.call_pos < len(listed):
        empire = listed[state.call_pos]
        if empire.key in state.holding:
            start_turn(ctx, state.holding.index(empire.key), empire)
            return
        ctx.emit("empire_skipped", empire=empire.key, name=empire.name)
        state.call_pos += 1
    end_epoch(ctx)


def start_turn(ctx: Ctx, player: int, empire: Empire) -> None:
    state = ctx.state
    state.played_empires[player].append(empire.key)
    state.turn = Turn(player=player, empire=empire.key, step=TurnStep.EVENTS, force=empire_force(empire))
    ctx.emit(
        "turn",
        player=player,
        empire=empire.key,
        name=empire.name,
        strength=empire.strength,
        starts=list(empire.starts),
        capital=empire.capital,
        fleets=list(empire.fleets),
    )
    advance(ctx)


def playable_cards(ctx: Ctx) -> list[str]:
    state, turn = ctx.state, ctx.state.turn
    assert turn is not None
    out = []
    for cid in sorted(set(state.hands[turn.player])):
        if event_cards.why_unplayable(ctx, ctx.rules.cards[cid]) is None:
            out.append(cid)
    return out


def advance(ctx: Ctx) -> None:
    """Move past steps that need no decision (no playable card, nothing to reallocate...)."""
    turn = ctx.state.turn
    if turn is None:
        return
    if turn.step is TurnStep.EVENTS and not playable_cards(ctx):
        begin_empire(ctx)
    if turn.step is TurnStep.REALLOCATE and not reallocatable(ctx):
        turn.step = TurnStep.EXPAND
    if turn.step is TurnStep.NAVAL and not naval_options(ctx):
        turn.step = TurnStep.EXPAND


def finish_step(ctx: Ctx) -> None:
    """The ``Done`` action."""
    turn = ctx.state.turn
    assert turn is not None
    step = turn.step
    if step is TurnStep.EVENTS:
        begin_empire(ctx)
    elif step is TurnStep.CARD:
        event_cards.done(ctx)
    elif step in (TurnStep.MINOR, TurnStep.CRUSADE):
        ctx.emit("force_done", name=turn.force.name, left=turn.force.pool)
        turn.force = empire_force(ctx.rules.empires[turn.empire])
        turn.step = TurnStep.EVENTS
    elif step is TurnStep.REALLOCATE:
        turn.step = TurnStep.NAVAL if ctx.state.options.get("naval_control") else TurnStep.EXPAND
    elif step is TurnStep.NAVAL:
        turn.step = TurnStep.EXPAND
    else:
        raise IllegalAction("cannot_finish", "Use end_turn to finish your turn.")
    advance(ctx)


def begin_empire(ctx: Ctx) -> None:
    """Chapter V steps 1-4: army pool, capital, fleets, first army in the start land."""
    turn = ctx.state.turn
    assert turn is not None
    empire = ctx.rules.empires[turn.empire]
    turn.force = empire_force(empire)
    establish(ctx, turn.force, empire, extra_fleets=turn.astronomy)
    played = {ctx.rules.cards[c].effect for c in turn.played}
    if "reallocation" in played:
        go_to(ctx, TurnStep.REALLOCATE)
    elif ctx.state.options.get("naval_control"):
        go_to(ctx, TurnStep.NAVAL)
    else:
        go_to(ctx, TurnStep.EXPAND)
    advance(ctx)


# -- expansion (Chapter V) ---------------------------------------------------------


def expansion_targets(ctx: Ctx) -> dict[str, int]:
    """Every land the current force may expand into now, with the defender's dice (0 if none)."""
    state = ctx.state
    turn = state.turn
    assert turn is not None
    force = turn.force
    if force.pool + force.restricted <= 0:
        return {}
    out: dict[str, int] = {}
    for land, routes in reachable(ctx, force).items():
        stack = state.armies.get(land, [])
        occupant = stack[0][0] if stack else None
        if occupant is None or occupant == turn.player:
            if any(a[2] == force.key for a in stack) and not room_for_army(state, land):
                continue
            if stack and all(a[2] == force.key for a in stack) and not state.options.get("multiple_armies"):
                continue
            out[land] = 0
        elif force.pool > 0:
            out[land] = defender_dice(ctx, land, routes)
    return out


def expand(ctx: Ctx, name: str) -> None:
    state = ctx.state
    turn = state.turn
    assert turn is not None
    force = turn.force
    land = resolve_land(ctx, name)
    info = ctx.rules.map.lands[land]
    if info.barren:
        raise IllegalAction("barren", f"{land} is a barren land; armies may not enter it.", land=land)
    if force.pool + force.restricted <= 0:
        raise IllegalAction("no_armies", "Your army pool is empty.")
    routes = reachable(ctx, force).get(land)
    if not routes:
        raise IllegalAction(
            "not_adjacent",
            f"{land} is not adjacent to any of your lands, nor reachable by your fleets.",
            land=land,
        )
    stack = state.armies.get(land, [])
    occupant = stack[0][0] if stack else None
    if occupant is None or occupant == turn.player:
        mine = [a for a in stack if a[2] == force.key]
        if mine and not (state.options.get("multiple_armies") and room_for_army(state, land)):
            raise IllegalAction("already_there", f"Your empire already holds {land}.", land=land)
        if occupant == turn.player and len(mine) < len(stack):
            # Replace one older army of your colour without a fight.
            stack.remove(next(a for a in stack if a[2] != force.key))
            ctx.emit("replaced", land=land)
        elif occupant is None:
            clear_land(ctx, land, "orphan fort")
            sack(ctx, land)
        _take_from_pool(force, prefer_restricted=True)
        place_army(state, land, turn.player, force.piece_epoch, force.key)
        ctx.emit("expanded", land=land, player=turn.player, by_sea=all(r.by_sea for r in routes))
        _crusade_prize(ctx, land)
        return
    if force.pool <= 0:
        raise IllegalAction(
            "allies_cannot_attack",
            "Armies bought with Allies coins may only expand into unoccupied lands.",
            land=land,
        )
    dice = defender_dice(ctx, land, routes)
    _take_from_pool(force, prefer_restricted=False)
    ctx.emit("attack", land=land, player=turn.player, defender=occupant, defender_dice=dice,
             by_sea=all(r.by_sea for r in routes))
    if battle(ctx, land, active_attacker(ctx), dice):
        _crusade_prize(ctx, land)


def _take_from_pool(force: Force, prefer_restricted: bool) -> None:
    if prefer_restricted and force.restricted > 0:
        force.restricted -= 1
    else:
        force.pool -= 1


def _crusade_prize(ctx: Ctx, land: str) -> None:
    """Crusaders who take Palestine place a fort and a city there."""
    turn = ctx.state.turn
    assert turn is not None
    if turn.force.kind != "crusade":
        return
    card = ctx.rules.cards[turn.force.key.split(":", 1)[1]]
    if card.params["crusade"].get("target") == land:
        put_structure(ctx, land, "city")
        if forts_free(ctx) > 0 and room_for_fort(ctx.state, land):
            place_fort(ctx.state, land)
        ctx.emit("crusade_prize", land=land)


def fort_lands(ctx: Ctx) -> list[str]:
    state = ctx.state
    turn = state.turn
    assert turn is not None
    return sorted(land for land in state.force_lands(turn.force.key) if room_for_fort(state, land))


def build_fort(ctx: Ctx, name: str, pay: str) -> None:
    state = ctx.state
    turn = state.turn
    assert turn is not None
    land = resolve_land(ctx, name)
    if turn.force.kind != "empire" or turn.step is not TurnStep.EXPAND:
        raise IllegalAction("not_now", "Forts are built by the active empire during expansion.")
    if land not in fort_lands(ctx):
        if land in state.forts:
            raise IllegalAction("has_fort", f"{land} already has a fort.", land=land)
        raise IllegalAction("not_yours", f"{land} holds no army of your active empire.", land=land)
    if forts_free(ctx) <= 0 and turn.free_forts <= 0:
        raise IllegalAction("no_forts", "All 32 forts are on the board.")
    if pay not in ("auto", "army", "coin", "free"):
        raise IllegalAction("bad_payment", "Pay for a fort with 'army', 'coin' or 'auto'.", pay=pay)
    if pay in ("auto", "free") and turn.free_forts > 0:
        turn.free_forts -= 1
        how = "free"
    elif pay in ("auto", "coin") and turn.allies_coins + turn.coins > 0:
        if turn.allies_coins:
            turn.allies_coins -= 1
        else:
            turn.coins -= 1
        how = "coin"
    elif pay in ("auto", "army") and turn.force.pool + turn.force.restricted > 0:
        _take_from_pool(turn.force, prefer_restricted=True)
        how = "army"
    else:
        raise IllegalAction("cannot_pay", "You have nothing left to pay for a fort that way.", pay=pay)
    place_fort(state, land)
    ctx.emit("fort_built", land=land, paid=how)


def buy_back(ctx: Ctx) -> None:
    turn = ctx.state.turn
    assert turn is not None
    if turn.force.kind != "empire" or turn.lost <= 0:
        raise IllegalAction("nothing_lost", "No army of your active empire has been lost this turn.")
    if turn.coins > 0:
        turn.coins -= 1
        turn.force.pool += 1
    elif turn.allies_coins > 0:
        turn.allies_coins -= 1
        turn.force.restricted += 1
    else:
        raise IllegalAction("no_coins", "You have no coins.")
    turn.lost -= 1
    ctx.emit("bought_back", player=turn.player)


def reallocatable(ctx: Ctx) -> list[str]:
    """Fleets Reallocation may turn into coins: those with a marker of their own (a sea already
    held by an army on a fleet keeps that fleet's marker; Naval Control)."""
    turn = ctx.state.turn
    assert turn is not None
    return [w for w in turn.force.fleets if w not in ctx.state.manned]


def reallocate(ctx: Ctx, name: str) -> None:
    turn = ctx.state.turn
    assert turn is not None
    water = resolve_water(ctx, name)
    if water not in reallocatable(ctx):
        raise IllegalAction("no_fleet", f"You have no fleet of your own in the {water} to turn into a coin.",
                            water=water)
    turn.force.fleets.remove(water)
    turn.coins += 1
    ctx.emit("reallocated", water=water)


# -- Naval Control (optional rule) -------------------------------------------------


def naval_options(ctx: Ctx) -> list[tuple[str, str]]:
    """Fleet battles (only in the naval step, before any expansion) and fleets to man (any time)."""
    state = ctx.state
    turn = state.turn
    assert turn is not None
    if turn.force.pool <= 0 or turn.force.kind != "empire" or not state.options.get("naval_control"):
        return []
    out = [("attack_fleet", sea) for sea in turn.contested] if turn.step is TurnStep.NAVAL else []
    for sea in turn.force.fleets:
        if ctx.rules.map.waters[sea].kind == "sea":
            holder = state.manned.get(sea)
            if holder is None or holder[2] != turn.force.key:
                out.append(("man_fleet", sea))
    return out


def attack_fleet(ctx: Ctx, name: str) -> None:
    """Fight the fleet of a past empire for a sea: "Combat is handled normally with the attacker
    rolling two dice and the defending fleet rolling one" (the active empire's combat cards apply;
    see data/history/classic/README.md). The winning army mans the sea, as a winning army
    occupies a land; a tie sinks both and the empire's fleet enters the emptied sea."""
    state = ctx.state
    turn = state.turn
    assert turn is not None
    sea = resolve_water(ctx, name)
    if turn.step is not TurnStep.NAVAL or ("attack_fleet", sea) not in naval_options(ctx):
        raise IllegalAction("no_fleet_battle", f"You cannot attack a fleet in the {sea} now.", water=sea)
    turn.force.pool -= 1
    attacker = active_attacker(ctx)
    fought = fight_round(ctx, attacker, sea, 1, fort=False)
    defender = state.manned[sea]
    ctx.emit("fleet_battle", sea=sea, attacker=turn.player, defender=defender[0],
             attacker_dice=fought.attacker_dice, attacker_bonus=fought.bonus,
             defender_dice=fought.defender_dice, outcome=fought.outcome)
    if fought.outcome == "loss":
        attacker_lost(ctx, attacker)
        return
    del state.manned[sea]
    turn.contested.remove(sea)
    if fought.outcome == "win":
        # The defeated fleet's marker carries the winner's fleet and army.
        turn.force.fleets.append(sea)
        state.manned[sea] = [turn.player, turn.force.piece_epoch, turn.force.key]
        ctx.emit("fleet_manned", sea=sea, player=turn.player)
        return
    attacker_lost(ctx, attacker)
    if markers_free(ctx) > 0:
        turn.force.fleets.append(sea)


def man_fleet(ctx: Ctx, name: str) -> None:
    state = ctx.state
    turn = state.turn
    assert turn is not None
    sea = resolve_water(ctx, name)
    if turn.step not in (TurnStep.NAVAL, TurnStep.EXPAND) or ("man_fleet", sea) not in naval_options(ctx):
        raise IllegalAction("cannot_man", f"You cannot put an army on a fleet in the {sea} now.", water=sea)
    turn.force.pool -= 1
    state.manned[sea] = [turn.player, turn.force.piece_epoch, turn.force.key]
    ctx.emit("fleet_manned", sea=sea, player=turn.player)


# -- the end of a turn -------------------------------------------------------------


def monument_sites(ctx: Ctx) -> list[str]:
    """Where the next monument may rise (Chapter V "Resource Symbols and Monuments").

    "If the Empire has a capital, place a monument there first. Otherwise, place
    it in any city the Active Empire controls. Otherwise, place it in a Land
    containing one of the resource symbols controlled by that empire." A land
    already holding a monument is no site ("At no point can a Land have more
    than one monument"). Any capital or city piece the empire holds counts as a city.
    """
    state = ctx.state
    turn = state.turn
    assert turn is not None
    held = [land for land in state.force_lands(turn.force.key) if land not in state.monuments]
    empire = ctx.rules.empires[turn.empire]
    capitals = [s for s in empire.starts if state.structures.get(s) == "capital" and s in held]
    if capitals:
        return capitals
    # An older capital the empire holds (its colour's, kept by replacing the figure) is a city too.
    cities = sorted(land for land in held if land in state.structures)
    if cities:
        return cities
    return sorted(land for land in held if ctx.rules.map.lands[land].resource)


def monuments_due(ctx: Ctx) -> int:
    """One monument per two resource lands of the active empire, as far as the box lasts."""
    state = ctx.state
    turn = state.turn
    assert turn is not None
    resources = [land for land in state.force_lands(turn.force.key) if ctx.rules.map.lands[land].resource]
    return max(0, min(len(resources) // 2, ctx.rules.monuments - len(state.monuments)))


def _next_monument(ctx: Ctx) -> None:
    """Build the monuments due, asking the player wherever the rules leave a choice; then score."""
    turn = ctx.state.turn
    assert turn is not None and turn.pick is not None
    pick = turn.pick
    while pick["left"] > 0:
        sites = monument_sites(ctx)
        if not sites:
            break
        if len(sites) > 1:
            pick["options"] = sites
            turn.step = TurnStep.PICK
            return
        _build_monument(ctx, sites[0])
    if pick["chosen"]:
        ctx.emit("monuments", lands=list(pick["chosen"]), player=turn.player)
    turn.pick = None
    _score_turn(ctx)


def _build_monument(ctx: Ctx, land: str) -> None:
    state = ctx.state
    turn = state.turn
    assert turn is not None and turn.pick is not None
    state.monuments.append(land)
    state.monuments.sort()
    turn.pick["chosen"].append(land)
    turn.pick["left"] -= 1


def choose_pick(ctx: Ctx, target: str) -> None:
    """``Choose`` in the pick step: a monument site, a fleet to keep or a manned fleet to take."""
    turn = ctx.state.turn
    assert turn is not None and turn.pick is not None
    pick = turn.pick
    if pick["what"] != "monument":
        pick_fleet(ctx, resolve_water(ctx, target))
        return
    land = resolve_land(ctx, target)
    if land not in pick["options"]:
        raise IllegalAction("bad_site", f"A monument cannot rise in {land} now; the sites are: "
                            f"{', '.join(pick['options'])}.", land=land)
    _build_monument(ctx, land)
    pick["options"] = []
    _next_monument(ctx)


def end_turn(ctx: Ctx) -> None:
    state = ctx.state
    turn = state.turn
    assert turn is not None
    if turn.step is not TurnStep.EXPAND:
        raise IllegalAction("not_now", "Finish the current step first (done), then end your turn.")
    turn.pick = {"what": "monument", "options": [], "left": monuments_due(ctx), "chosen": [],
                 "then": "expand"}
    _next_monument(ctx)


def _score_turn(ctx: Ctx) -> None:
    state = ctx.state
    turn = state.turn
    assert turn is not None
    player = turn.player
    breakdown = score_breakdown(state, ctx.rules, player)
    state.scores[player] += breakdown["total"]
    ctx.emit("scored", player=player, points=breakdown["total"], score=state.scores[player],
             breakdown=breakdown)
    state.turn = None
    state.call_pos += 1
    call_next(ctx)


def end_epoch(ctx: Ctx) -> None:
    state = ctx.state
    if not state.options.get("no_preeminence"):
        top = max(state.scores)
        leaders = [p for p in range(state.players) if state.scores[p] == top]
        if len(leaders) == 1 and state.marker_pile:
            state.markers[leaders[0]].append(state.marker_pile.pop())
            ctx.emit("preeminence", player=leaders[0], epoch=state.epoch)
        else:
            ctx.emit("preeminence", player=None, epoch=state.epoch)
    if state.epoch == 7:
        finish_game(ctx)
        return
    state.epoch += 1
    start_epoch(ctx)


def finish_game(ctx: Ctx) -> None:
    state = ctx.state
    final = list(state.scores)
    for p in sorted(range(state.players), key=lambda q: state.scores[q]):
        final[p] += sum(state.markers[p])
        ctx.emit("markers_revealed", player=p, markers=list(state.markers[p]), score=final[p])
    state.final = final
    state.phase = Phase.OVER
    state.turn = None
    ctx.emit("game_over", final=final, ranking=ranking(state, ctx.rules))

