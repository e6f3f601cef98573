"""Eight-Minute Empire's steps (:class:`engine.core.Step`), one per :class:`Phase`: who acts, the moves
each takes and the rules of each move (in :mod:`engine.eight_minute.flow`), the legal moves and the
passive one a silent player makes.

    neutral (2 players) -> bid -> first -> turn ... -> over (or, in a Full Game, the next game's bid)
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.core import Action, PlayerId, Step
from engine.eight_minute import flow
from engine.eight_minute.actions import (
    Bid,
    BuildCity,
    ChooseAction,
    ChooseFirst,
    Destroy,
    Done,
    Move,
    Place,
    PlaceNeutral,
    TakeCard,
)
from engine.eight_minute.data import load_data
from engine.eight_minute.flow import Ctx
from engine.eight_minute.state import EMState, Phase

# -- the two-player neutral armies ------------------------------------------------------------------


def _neutral_placer(state: EMState) -> tuple[PlayerId, ...]:
    return (state.neutral_next,)


def _neutral_moves(state: EMState, player: PlayerId) -> list[Action]:
    return [PlaceNeutral(player, r) for r in sorted(load_data().regions)]


def _neutral_timeout(state: EMState, player: PlayerId) -> Action:
    """The first region (by id) with the fewest neutral armies: a silent player spreads them rather
    than piling them up."""
    return PlaceNeutral(player, min(sorted(load_data().regions), key=lambda r: state.neutral.get(r, 0)))


def _place_neutral(ctx: Ctx, action: PlaceNeutral) -> None:
    flow.place_neutral(ctx, action.region)


# -- the bid -----------------------------------------------------------------------------------------


def _bidders(state: EMState) -> tuple[PlayerId, ...]:
    """Every seat that has not bid yet: all bid at once."""
    return tuple(p for p in range(state.players) if state.bids[p] is None)


def _bids(state: EMState, player: PlayerId) -> list[Action]:
    return [Bid(player, n) for n in range(state.coins[player] + 1)]


def _bid_nothing(state: EMState, player: PlayerId) -> Action:
    return Bid(player, 0)


def _bid(ctx: Ctx, action: Bid) -> None:
    flow.bid(ctx, action.player, action.amount)


# -- the first player ----------------------------------------------------------------------------------


def _bid_winner(state: EMState) -> tuple[PlayerId, ...]:
    return () if state.bid_winner is None else (state.bid_winner,)


def _seats(state: EMState, player: PlayerId) -> list[Action]:
    return [ChooseFirst(player, p) for p in range(state.players)]


def _start_yourself(state: EMState, player: PlayerId) -> Action:
    return ChooseFirst(player, player)


def _choose_first(ctx: Ctx, action: ChooseFirst) -> None:
    flow.choose_first(ctx, action.seat)


# -- a turn ------------------------------------------------------------------------------------------


def _current(state: EMState) -> tuple[PlayerId, ...]:
    return () if state.current is None else (state.current,)


def _verb_moves(state: EMState, player: PlayerId, verb: str) -> list[Action]:
    """One army (or city) of the action under way, each way the board allows."""
    data = load_data()
    if verb == "place":
        return [Place(player, r) for r in flow.place_regions(state, data, player)]
    if verb in ("move", "sail"):
        return [Move(player, a, b) for a, b in flow.move_steps(state, data, player, verb == "sail")]
    if verb == "city":
        return [BuildCity(player, r) for r in flow.city_regions(state, data, player)]
    if verb == "destroy":
        return [Destroy(player, r, o) for r, o in flow.destroy_targets(state)]
    return []


def _turn_moves(state: EMState, player: PlayerId) -> list[Action]:
    """A card the player can pay for; then its actions, one army at a time, or ``done``."""
    data = load_data()
    task = state.task
    if task is None:
        return [TakeCard(player, i) for i in flow.affordable(state, data, player)]
    out: list[Action] = []
    if task["choose"]:
        out.extend(ChooseAction(player, i) for i, (verb, _) in enumerate(task["steps"])
                   if flow.can_do(state, data, player, verb))
    else:
        out.extend(_verb_moves(state, player, str(task["do"])))
    out.append(Done(player))
    return out


def _turn_timeout(state: EMState, player: PlayerId) -> Action:
    """Take the free card (the leftmost), then stop its action."""
    return TakeCard(player, 0) if state.task is None else Done(player)


def _take_card(ctx: Ctx, action: TakeCard) -> None:
    flow.take_card(ctx, action.player, action.position)


def _choose_action(ctx: Ctx, action: ChooseAction) -> None:
    flow.choose_action(ctx, action.index)


def _place(ctx: Ctx, action: Place) -> None:
    flow.place(ctx, action.region)


def _move(ctx: Ctx, action: Move) -> None:
    flow.move(ctx, action.source, action.to)


def _build_city(ctx: Ctx, action: BuildCity) -> None:
    flow.build_city(ctx, action.region)


def _destroy(ctx: Ctx, action: Destroy) -> None:
    flow.destroy(ctx, action.region, action.owner)


def _done(ctx: Ctx, action: Done) -> None:
    flow.done(ctx)


STEPS: Mapping[Phase, Step[EMState, Ctx]] = {
    Phase.NEUTRAL: Step(
        expects="the next neutral army to be placed", actors=_neutral_placer,
        handlers={PlaceNeutral: _place_neutral}, legal=_neutral_moves, timeout=_neutral_timeout),
    Phase.BID: Step(
        expects="every player's secret bid for first player", actors=_bidders, handlers={Bid: _bid},
        legal=_bids, timeout=_bid_nothing,
        not_yours=("already_bid", "You have made your bid; the others are still bidding.")),
    Phase.FIRST: Step(
        expects="the bid's winner to choose who takes the first turn", actors=_bid_winner,
        handlers={ChooseFirst: _choose_first}, legal=_seats, timeout=_start_yourself),
    Phase.TURN: Step(
        expects="a card to be taken and its action done", actors=_current,
        handlers={TakeCard: _take_card, ChooseAction: _choose_action, Place: _place, Move: _move,
                  BuildCity: _build_city, Destroy: _destroy, Done: _done},
        legal=_turn_moves, timeout=_turn_timeout),
    Phase.OVER: Step(expects="nothing: the game is over", not_yours=("game_over", "The game is over.")),
}
"""The step of each phase."""
