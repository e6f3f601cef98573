"""The classic game's steps (:class:`engine.core.Step`): the draw, each step of a turn
(:class:`TurnStep`) and the end; who acts in each, the moves it takes and the rules of each move (in
:mod:`engine.history.flow` and :mod:`engine.history.event_cards`), the legal moves and the passive
one a silent player makes.

    draw -> turn: events -> (card | minor | crusade)* -> reallocate -> naval -> expand -> (pick) ...
         -> the next epoch's draw, or over after epoch VII

A pick (fleets to keep or take, a monument's site) may come in the middle of a step; it stores the
step the turn goes back to. After every move the turn moves past the steps that need no decision
(:func:`engine.history.flow.advance`, called by the game's ``finish``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from engine.core import Action, Handlers, IllegalAction, PlayerId, Step, first_move
from engine.history import event_cards, flow
from engine.history.actions import (
    AttackFleet,
    BuildFort,
    BuyBack,
    Choose,
    Done,
    EndTurn,
    Expand,
    Give,
    Keep,
    ManFleet,
    PlayCard,
)
from engine.history.board import Ctx, forts_free
from engine.history.data import load_rules
from engine.history.state import HistoryState, Phase, Turn, TurnStep

Key = Phase | TurnStep
"""What a step is filed under: the draw and the end by their phase, a turn by its step."""

Moves = Callable[[HistoryState, PlayerId], list[Action]]
Passive = Callable[[HistoryState, PlayerId], Action]


def _ctx(state: HistoryState) -> Ctx:
    """A context to ask the rules about ``state`` (it is read, never changed)."""
    return Ctx(state, load_rules())


def _turn(state: HistoryState) -> Turn:
    assert state.turn is not None
    return state.turn


def _first(moves: list[Action]) -> Action:
    """The first legal move, the default of a choice with no passive answer."""
    return first_move(moves, IllegalAction("not_your_turn", "It is not your turn."))


# -- the empire draw -----------------------------------------------------------------------------------


def _drawer(state: HistoryState) -> tuple[PlayerId, ...]:
    return (state.draw_order[state.draw_pos],) if state.drawn is not None else ()


def _draw_moves(state: HistoryState, player: PlayerId) -> list[Action]:
    may_keep, give_to = flow.draw_choices(_ctx(state))
    out: list[Action] = [Keep(player)] if may_keep else []
    return out + [Give(player, p) for p in give_to]


def _keep(ctx: Ctx, action: Keep) -> None:
    flow.decide_draw(ctx, action.player, None)


def _give(ctx: Ctx, action: Give) -> None:
    flow.decide_draw(ctx, action.player, int(action.to))


# -- a turn's steps ------------------------------------------------------------------------------------


def _active(state: HistoryState) -> tuple[PlayerId, ...]:
    return (state.turn.player,) if state.turn is not None else ()


def _event_moves(state: HistoryState, player: PlayerId) -> list[Action]:
    """Each playable card (once per far-away epoch its armies may come from), then ``done``."""
    ctx = _ctx(state)
    plays: list[Action] = []
    for c in flow.playable_cards(ctx):
        choices = event_cards.piece_choices(ctx, ctx.rules.cards[c])
        if len(choices) > 1:
            plays.extend(PlayCard(player, c, e) for e in choices)
        else:
            plays.append(PlayCard(player, c))
    return [*plays, Done(player)]


def _play_card(ctx: Ctx, action: PlayCard) -> None:
    event_cards.play(ctx, action.card, int(action.pieces))


def _done(ctx: Ctx, action: Done) -> None:
    flow.finish_step(ctx)


def _may_finish_card(ctx: Ctx) -> bool:
    """Whether the card played has targets enough to stop choosing (a plague spreads on, barbarians
    once placed fight on)."""
    turn = _turn(ctx.state)
    assert turn.pending is not None
    effect, chosen = turn.pending["effect"], turn.pending["chosen"]
    if effect == "plague_spread" or (effect == "barbarians" and chosen):
        return False
    fewest, _ = event_cards.needed(ctx)
    return not chosen or len(chosen) >= fewest


def _card_moves(state: HistoryState, player: PlayerId) -> list[Action]:
    ctx = _ctx(state)
    acts: list[Action] = [Choose(player, t) for t in event_cards.candidates(ctx)]
    if _may_finish_card(ctx):
        acts.append(Done(player))
    return acts


def _card_timeout(state: HistoryState, player: PlayerId) -> Action:
    """Stop choosing when the card allows it, else its first target."""
    return Done(player) if _may_finish_card(_ctx(state)) else _first(_card_moves(state, player))


def _choose_target(ctx: Ctx, action: Choose) -> None:
    event_cards.choose(ctx, action.target)


def _force_moves(state: HistoryState, player: PlayerId) -> list[Action]:
    """A Minor Empire's or the Crusaders' next land, or ``done``."""
    return [*(Expand(player, land) for land in sorted(flow.expansion_targets(_ctx(state)))), Done(player)]


def _expand(ctx: Ctx, action: Expand) -> None:
    flow.expand(ctx, action.land)


def _reallocate_moves(state: HistoryState, player: PlayerId) -> list[Action]:
    return [*(Choose(player, w) for w in flow.reallocatable(_ctx(state))), Done(player)]


def _reallocate(ctx: Ctx, action: Choose) -> None:
    flow.reallocate(ctx, action.target)


def _naval_moves(state: HistoryState, player: PlayerId) -> list[Action]:
    naval: list[Action] = [
        AttackFleet(player, sea) if kind == "attack_fleet" else ManFleet(player, sea)
        for kind, sea in flow.naval_options(_ctx(state))
    ]
    return [*naval, Done(player)]


def _attack_fleet(ctx: Ctx, action: AttackFleet) -> None:
    flow.attack_fleet(ctx, action.sea)


def _man_fleet(ctx: Ctx, action: ManFleet) -> None:
    flow.man_fleet(ctx, action.sea)


def _expand_moves(state: HistoryState, player: PlayerId) -> list[Action]:
    """The empire's next land, a fort it can pay for, armies bought back, a fleet manned, the end."""
    ctx = _ctx(state)
    turn = _turn(state)
    acts: list[Action] = [Expand(player, land) for land in sorted(flow.expansion_targets(ctx))]
    can_pay = turn.free_forts + turn.coins + turn.allies_coins + turn.force.pool + turn.force.restricted
    if can_pay and (forts_free(ctx) > 0 or turn.free_forts > 0):
        acts.extend(BuildFort(player, land) for land in flow.fort_lands(ctx))
    if turn.lost > 0 and turn.coins + turn.allies_coins > 0:
        acts.append(BuyBack(player))
    acts.extend(ManFleet(player, sea) for kind, sea in flow.naval_options(ctx) if kind == "man_fleet")
    acts.append(EndTurn(player))
    return acts


def _build_fort(ctx: Ctx, action: BuildFort) -> None:
    flow.build_fort(ctx, action.land, action.pay)


def _buy_back(ctx: Ctx, action: BuyBack) -> None:
    flow.buy_back(ctx)


def _end_turn(ctx: Ctx, action: EndTurn) -> None:
    flow.end_turn(ctx)


def _pick_moves(state: HistoryState, player: PlayerId) -> list[Action]:
    pick = _turn(state).pick
    assert pick is not None
    return [Choose(player, target) for target in pick["options"]]


def _choose_pick(ctx: Ctx, action: Choose) -> None:
    flow.choose_pick(ctx, action.target)


def _turn_step(expects: str, handlers: Handlers[Ctx], legal: Moves,
               timeout: Passive) -> Step[HistoryState, Ctx]:
    """A step of the active player's turn."""
    return Step(expects=expects, actors=_active, handlers=handlers, legal=legal, timeout=timeout)


def _done_timeout(state: HistoryState, player: PlayerId) -> Action:
    return Done(player)


STEPS: Mapping[Key, Step[HistoryState, Ctx]] = {
    Phase.DRAW: Step(
        expects="the empire card drawn to be kept or given", actors=_drawer,
        handlers={Keep: _keep, Give: _give}, legal=_draw_moves,
        # Keep is listed first whenever it is allowed: the passive answer, else the first seat to give to
        timeout=lambda state, player: _first(_draw_moves(state, player))),
    TurnStep.EVENTS: _turn_step(
        "event cards to be played before the empire comes, or done", {PlayCard: _play_card, Done: _done},
        _event_moves, _done_timeout),
    TurnStep.CARD: _turn_step(
        "the targets of the event card played", {Choose: _choose_target, Done: _done},
        _card_moves, _card_timeout),
    TurnStep.MINOR: _turn_step(
        "the Minor Empire's lands, or done", {Expand: _expand, Done: _done}, _force_moves, _done_timeout),
    TurnStep.CRUSADE: _turn_step(
        "the Crusaders' lands, or done", {Expand: _expand, Done: _done}, _force_moves, _done_timeout),
    TurnStep.REALLOCATE: _turn_step(
        "armies to be reallocated, or done", {Choose: _reallocate, Done: _done},
        _reallocate_moves, _done_timeout),
    TurnStep.NAVAL: _turn_step(
        "fleet battles and fleets to man, or done",
        {AttackFleet: _attack_fleet, ManFleet: _man_fleet, Done: _done}, _naval_moves, _done_timeout),
    TurnStep.EXPAND: _turn_step(
        "the empire's expansion, or the end of the turn",
        {Expand: _expand, BuildFort: _build_fort, BuyBack: _buy_back, ManFleet: _man_fleet,
         EndTurn: _end_turn},
        _expand_moves, lambda state, player: EndTurn(player)),
    TurnStep.PICK: _turn_step(
        "a choice from the options listed", {Choose: _choose_pick}, _pick_moves,
        lambda state, player: _first(_pick_moves(state, player))),
    Phase.OVER: Step(expects="nothing: the game is over", not_yours=("game_over", "The game is over.")),
}
"""The step of the draw, of each step of a turn and of the end."""
