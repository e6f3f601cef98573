"""The course of a game turn: which phase comes next, and who is asked what.

I New Tiles, II Player Actions (``engine.rise.turn``: six actions each, one
at a time in turn order), then the cities that cost food are kept or given
up, III Food, IV Income (then resource upkeep for cities), V Victory Points;
after a B turn the end of the era (keep tiles, halve cubes), or after the
sixth turn the end of the game; otherwise VI Turn Order Determination and
the next turn.
"""

from __future__ import annotations

from engine.rise import end, phases
from engine.rise.context import Ctx
from engine.rise.state import EMPTY, Phase


def start_game(ctx: Ctx) -> None:
    phases.new_game(ctx)
    start_action(ctx)


def start_action(ctx: Ctx) -> None:
    """Hand the next action to the next player, or end the Player Actions phase."""
    s, d = ctx.state, ctx.data
    if s.act_no >= d.actions_per_turn * s.players:
        s.task = None
        end.queue_food_upkeep(s, d)
        s.phase = Phase.FOOD_UPKEEP
        settle(ctx)
        return
    s.task = phases.new_task(phases.current_player(s))


def settle(ctx: Ctx) -> None:
    """Discard what cannot be paid for; stop at the first real decision, or go on to the next phase."""
    s, d = ctx.state, ctx.data
    while s.pending and not end.can_keep(s, d, s.pending[0]):
        end.discard(ctx, s.pending.pop(0), forced=True)
    if s.pending:
        return
    if s.phase is Phase.FOOD_UPKEEP:
        phases.food_phase(ctx)
        phases.income_phase(ctx)  # queues resource upkeep
        s.phase = Phase.UPKEEP
        settle(ctx)
    elif s.phase is Phase.UPKEEP:
        phases.vp_phase(ctx)
        if s.turn >= d.turns:
            end.game_end(ctx)  # no end-of-era upkeep after era III
        elif s.b_turn:
            end.queue_era_end(s)
            s.phase = Phase.ERA_END
            settle(ctx)
        else:
            start_order(ctx)
    elif s.phase is Phase.ERA_END:
        end.halve_cubes(ctx)
        start_order(ctx)


def start_order(ctx: Ctx) -> None:
    s = ctx.state
    s.choosers = phases.order_choosers(s)
    s.new_order = [EMPTY] * s.players
    s.phase = Phase.ORDER
    ctx.emit("turn_order_choosers", choosers=s.choosers[:])
    _last_chooser(ctx)


def _last_chooser(ctx: Ctx) -> None:
    """The last chooser takes the one position left without being asked."""
    s = ctx.state
    if len(s.choosers) == 1:
        choose_position(ctx, s.new_order.index(EMPTY))


def choose_position(ctx: Ctx, position: int) -> None:
    s = ctx.state
    seat = s.choosers.pop(0)
    s.new_order[position] = seat
    ctx.emit("turn_order_chosen", player=seat, position=position)
    if s.choosers:
        _last_chooser(ctx)
        return
    s.order = s.new_order[:]
    s.new_order = []
    s.turn += 1
    phases.new_tiles(ctx)
    start_action(ctx)
