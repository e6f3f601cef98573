"""Rise of Empires' steps (:class:`engine.core.Step`): who acts, the moves each step takes and what they
do (the rules are in :mod:`engine.rise.turn`, :mod:`engine.rise.flow` and :mod:`engine.rise.end`), the
legal moves and the passive one a silent player makes.

A player's action runs through the stages of :class:`Stage`; between the Player Actions phases come the
phases of :class:`Phase` that ask players (a tile kept or given up, a place on the turn order track):

    choose -> act -> (place -> battle ->) (after ->) the next action ... -> food_upkeep -> upkeep
    -> (era_end ->) order -> the next game turn's choose ... -> over

So the steps are keyed by the stage during the Player Actions phase and by the phase otherwise
(:meth:`engine.rise.game.RiseGame.step`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engine.core import Action, IllegalAction, PlayerId, Step
from engine.rise import end, flow, turn
from engine.rise.actions import (
    Battle,
    ChooseOrder,
    ClearCubes,
    Discard,
    Keep,
    Pass,
    PlaceCube,
    Select,
    Skip,
    Stop,
    TakeBack,
    TakeCity,
    TakeEmpire,
    TakeProgress,
    TakeTerritory,
    Trade,
    UseTile,
)
from engine.rise.context import Ctx
from engine.rise.data import load_data
from engine.rise.state import EMPTY, Phase, RiseState, Stage

# -- a player's action -------------------------------------------------------------------------------


def _acting(state: RiseState) -> tuple[PlayerId, ...]:
    """The player whose action is under way."""
    return () if state.task is None else (int(state.task["player"]),)


def _choose_moves(state: RiseState, player: PlayerId) -> list[Action]:
    """A turn: a row for the disc; B turn: a disc to take back, once per way of paying; a ready free
    tile first; ``pass`` only when no action can be selected at all."""
    data = load_data()
    selectable = turn.select_options(state, data, player)
    out: list[Action] = []
    for row, circle in selectable:
        if state.b_turn:
            cost = turn.removal_cost(state, data, player, row, circle)
            out.extend(TakeBack(player, row, circle, *mix) for mix in turn.payment_mixes(state, player, cost))
        else:
            out.append(Select(player, row, circle))
    out.extend(UseTile(player, *use) for use in turn.free_uses(state, data, player))
    if not selectable:
        out.append(Pass(player))
    return out


def _choose_timeout(state: RiseState, player: PlayerId) -> Action:
    """A player must select an action when one can be: in an A turn the Territory row when it can be
    done (a territory tile costs nothing), else the first row that can; in a B turn the cheapest disc,
    paid in the rulebook's order (gold, cubes, resource discs, food, victory points). ``pass`` when
    nothing can be selected. A free tile is never used for a silent player."""
    data = load_data()
    selectable = turn.select_options(state, data, player)
    if not selectable:
        return Pass(player)
    if state.b_turn:
        backs = [TakeBack(player, row, circle, *mix) for row, circle in selectable
                 for mix in turn.payment_mixes(state, player,
                                               turn.removal_cost(state, data, player, row, circle))]
        return min(backs, key=lambda a: sum(a.payment))
    rows = [Select(player, row, circle) for row, circle in selectable]
    return next((a for a in rows if a.row == "territory"), rows[0])


def _select(ctx: Ctx, action: Select) -> None:
    turn.select(ctx, action.player, action.row, action.circle)


def _take_back(ctx: Ctx, action: TakeBack) -> None:
    turn.take_back(ctx, action.player, action)


def _use_first(ctx: Ctx, action: UseTile) -> None:
    """A free tile used before the action: the action is still to be chosen."""
    turn.use_tile(ctx, action.player, action.tile, action.region, action.target)


def _pass(ctx: Ctx, action: Pass) -> None:
    turn.pass_action(ctx, action.player)


_ROW_MOVES: Mapping[str, Callable[[PlayerId, str], Action]] = {
    "progress": TakeProgress, "territory": TakeTerritory, "city": TakeCity, "empire": TakeEmpire,
    "trade": Trade,
}
"""The row of the action display -> the move that takes its tile or box."""


def _act_moves(state: RiseState, player: PlayerId) -> list[Action]:
    """The row's tiles or trade boxes; in a B turn also ``skip``."""
    task = turn.task_of(state)
    row = str(task["row"])
    out = [_ROW_MOVES[row](player, choice) for choice in turn.row_choices(state, load_data(), player, row)]
    if task["b"]:
        out.append(Skip(player))
    return out


def _act_timeout(state: RiseState, player: PlayerId) -> Action:
    """B turn: skip (the disc is paid for already); A turn: the action must be done, with the first
    tile or box offered."""
    return Skip(player) if turn.task_of(state)["b"] else _act_moves(state, player)[0]


def _take_progress(ctx: Ctx, action: TakeProgress) -> None:
    turn.take_progress(ctx, action.player, action.tile)


def _take_territory(ctx: Ctx, action: TakeTerritory) -> None:
    turn.take_territory(ctx, action.player, action.tile)


def _take_city(ctx: Ctx, action: TakeCity) -> None:
    turn.take_city(ctx, action.player, action.tile)


def _take_empire(ctx: Ctx, action: TakeEmpire) -> None:
    turn.take_empire(ctx, action.player, action.tile)


def _trade(ctx: Ctx, action: Trade) -> None:
    turn.trade(ctx, action.player, action.box)


def _skip(ctx: Ctx, action: Skip) -> None:
    turn.skip(ctx, action.player)


def _stop_timeout(state: RiseState, player: PlayerId) -> Action:
    """``stop``: the passive move of every step of an empire tile and of the free tiles after an action."""
    return Stop(player)


def _place_moves(state: RiseState, player: PlayerId) -> list[Action]:
    """Clear your cubes first (a new empire), a cube in each region the empire tile allows, or stop."""
    data = load_data()
    out: list[Action] = [ClearCubes(player)] if turn.can_clear(state, player) else []
    out.extend(PlaceCube(player, r) for r in turn.place_options(state, data, player))
    out.append(Stop(player))
    return out


def _clear(ctx: Ctx, action: ClearCubes) -> None:
    turn.clear_cubes(ctx, action.player)


def _place(ctx: Ctx, action: PlaceCube) -> None:
    turn.place_cube(ctx, action.player, action.region)


def _stop_placing(ctx: Ctx, action: Stop) -> None:
    turn.stop_placing(ctx, action.player)


def _battle_moves(state: RiseState, player: PlayerId) -> list[Action]:
    """A battle the empire tile still allows, or stop."""
    return [*(Battle(player, *b) for b in turn.battle_options(state, load_data(), player)), Stop(player)]


def _battle(ctx: Ctx, action: Battle) -> None:
    turn.battle(ctx, action.player, action.region, action.target, action.row)


def _stop_fighting(ctx: Ctx, action: Stop) -> None:
    turn.finish_row(ctx, action.player)


def _after_moves(state: RiseState, player: PlayerId) -> list[Action]:
    """A ready free tile, or stop: the action ends."""
    return [*(UseTile(player, *use) for use in turn.free_uses(state, load_data(), player)), Stop(player)]


def _use_after(ctx: Ctx, action: UseTile) -> None:
    """A free tile used after the action: the action ends once no other free tile can be used."""
    turn.use_tile(ctx, action.player, action.tile, action.region, action.target)
    if not turn.free_uses(ctx.state, ctx.data, action.player):
        turn.complete(ctx)


def _end_action(ctx: Ctx, action: Stop) -> None:
    turn.complete(ctx)


# -- a tile kept or given up (city upkeep, the end of an era) -----------------------------------------


def _asked(state: RiseState) -> tuple[PlayerId, ...]:
    """The owner of the tile asked about first."""
    return (int(state.pending[0]["player"]),) if state.pending else ()


def _keep_moves(state: RiseState, player: PlayerId) -> list[Action]:
    tile = str(state.pending[0]["tile"])
    return [Keep(player, tile), Discard(player, tile)]


def _keep_timeout(state: RiseState, player: PlayerId) -> Action:
    """Keep what you hold: a tile that cannot be paid for is given up without asking."""
    return Keep(player, str(state.pending[0]["tile"]))


def _item_asked(ctx: Ctx, tile: str) -> dict[str, Any]:
    """The decision under way, when ``tile`` is its tile."""
    item = ctx.state.pending[0]
    if tile != item["tile"]:
        raise IllegalAction("wrong_tile", f"Decide first whether to keep tile {item['tile']}.",
                            tile=item["tile"])
    return item


def _keep(ctx: Ctx, action: Keep) -> None:
    item = _item_asked(ctx, action.tile)
    if not end.can_keep(ctx.state, ctx.data, item):
        raise IllegalAction("cannot_pay", "You cannot pay to keep that tile.", tile=action.tile)
    end.keep(ctx, item)
    ctx.state.pending.pop(0)
    flow.settle(ctx)


def _discard(ctx: Ctx, action: Discard) -> None:
    _item_asked(ctx, action.tile)
    end.discard(ctx, ctx.state.pending.pop(0), forced=False)
    flow.settle(ctx)


def _keeping(expects: str) -> Step[RiseState, Ctx]:
    """The step of a phase that asks, tile by tile in turn order, whether a tile is kept."""
    return Step(expects=expects, actors=_asked, handlers={Keep: _keep, Discard: _discard}, legal=_keep_moves,
                timeout=_keep_timeout)

# -- turn order determination ---------------------------------------------------------------------------


def _chooser(state: RiseState) -> tuple[PlayerId, ...]:
    """The next seat to choose: fewest victory points first."""
    return (state.choosers[0],) if state.choosers else ()


def _positions(state: RiseState, player: PlayerId) -> list[Action]:
    return [ChooseOrder(player, i) for i, seat in enumerate(state.new_order) if seat == EMPTY]


def _first_free(state: RiseState, player: PlayerId) -> Action:
    """The first free position, as the computer players take."""
    return _positions(state, player)[0]


def _order(ctx: Ctx, action: ChooseOrder) -> None:
    s = ctx.state
    if not 0 <= action.position < s.players or s.new_order[action.position] != EMPTY:
        raise IllegalAction("position_taken", "That position is not free.", position=action.position)
    flow.choose_position(ctx, action.position)


STEPS: Mapping[Phase | Stage, Step[RiseState, Ctx]] = {
    Stage.CHOOSE: Step(
        expects="an action to be chosen: a row of the action display, or in a B turn a disc taken back",
        actors=_acting, handlers={Select: _select, TakeBack: _take_back, UseTile: _use_first, Pass: _pass},
        legal=_choose_moves, timeout=_choose_timeout),
    Stage.ACT: Step(
        expects="the tile or trade box of the row chosen", actors=_acting,
        handlers={TakeProgress: _take_progress, TakeTerritory: _take_territory, TakeCity: _take_city,
                  TakeEmpire: _take_empire, Trade: _trade, Skip: _skip},
        legal=_act_moves, timeout=_act_timeout),
    Stage.PLACE: Step(
        expects="the empire tile's cubes to be placed", actors=_acting,
        handlers={ClearCubes: _clear, PlaceCube: _place, Stop: _stop_placing},
        legal=_place_moves, timeout=_stop_timeout),
    Stage.BATTLE: Step(
        expects="the empire tile's battles to be fought or stopped", actors=_acting,
        handlers={Battle: _battle, Stop: _stop_fighting}, legal=_battle_moves, timeout=_stop_timeout),
    Stage.AFTER: Step(
        expects="a free progress tile to be used, or the action to end", actors=_acting,
        handlers={UseTile: _use_after, Stop: _end_action}, legal=_after_moves, timeout=_stop_timeout),
    Phase.FOOD_UPKEEP: _keeping("a city that eats food to be kept or given up"),
    Phase.UPKEEP: _keeping("a city's upkeep to be paid or the city given up"),
    Phase.ERA_END: _keeping("the end of the era's tiles to be kept or given up"),
    Phase.ORDER: Step(
        expects="a place on the turn order track to be chosen", actors=_chooser,
        handlers={ChooseOrder: _order}, legal=_positions, timeout=_first_free),
    Phase.OVER: Step(expects="nothing: the game is over", not_yours=("game_over", "The game is over.")),
}
"""The step of each stage of an action and of each phase that asks players."""
