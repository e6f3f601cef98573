"""The 5-epoch game's steps (:class:`engine.core.Step`): the draft, each step of a turn
(:class:`TurnStep`) and the end; who acts in each, the moves it takes and the rules of each move (in
:mod:`engine.history.epochs5.draft`, ``turn``, ``cards``, ``battle`` and ``track``), the legal moves
and the passive one a silent player makes.

    draft -> turn: kingdom -> invade (-> target | reroll | siege | track)* -> (target) -> scoring
          -> the next empire called, the next epoch's draft, or over after epoch V

A preference (:class:`~engine.history.epochs5.actions.Prefer`) is no step's move: any seated player
sets one at any time (:data:`ANYTIME`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from engine.core import Action, Handlers, IllegalAction, PlayerId, Step, first_move
from engine.history.epochs5 import battle, cards, draft, track, turn
from engine.history.epochs5.actions import (
    Accept,
    Choose,
    Done,
    Draft,
    Fortify,
    Give,
    Invade,
    Keep,
    PlayEvent,
    Prefer,
    Reroll,
    Retreat,
    Siege,
    Stop,
    Track,
)
from engine.history.epochs5.board import Ctx
from engine.history.epochs5.data import Rules
from engine.history.epochs5.reach import SEA
from engine.history.epochs5.state import Phase, State, Turn, TurnStep

Key = Phase | TurnStep
"""What a step is filed under: the draft and the end by their phase, a turn by its step."""

Moves = Callable[[Ctx, PlayerId], list[Action]]
Passive = Callable[[Ctx, PlayerId], Action]

PREFS: dict[str, tuple[str, ...]] = {"reroll": battle.REROLL_PREFS, "track": ("ask", "up", "down")}
"""Each preference and the values it takes."""

NOT_YOURS = ("not_your_turn", "It is not your move.")


def _first(moves: list[Action]) -> Action:
    """The first legal move, the default of a choice with no passive answer."""
    return first_move(moves, IllegalAction(*NOT_YOURS))


def _pending_event(tn: Turn) -> bool:
    """Whether the targets chosen are an event card's (else the end of the turn's)."""
    return tn.pending is None or tn.pending["source"] == "event"


# -- the draft -------------------------------------------------------------------------------------------


def _drafters(ctx: Ctx) -> tuple[PlayerId, ...]:
    """The holders of the event and the empire set still to choose: two seats at once."""
    return tuple(sorted(draft.actors(ctx)))


def _draft_moves(ctx: Ctx, player: PlayerId) -> list[Action]:
    seen = draft.looking_at(ctx, player)
    assert seen is not None
    pile, offered = seen
    if not draft.classic(ctx):
        return [Draft(player, c) for c in sorted(offered)]
    may_keep, give_to = draft.give_choices(ctx, pile, player)
    out: list[Action] = [Keep(player, pile)] if may_keep else []
    return out + [Give(player, pile, p) for p in give_to]


def _draft(ctx: Ctx, action: Draft) -> None:
    draft.draft(ctx, action.player, action.card)


def _keep(ctx: Ctx, action: Keep) -> None:
    draft.decide(ctx, action.player, action.pile, None)


def _give(ctx: Ctx, action: Give) -> None:
    draft.decide(ctx, action.player, action.pile, int(action.to))


# -- a turn's steps ------------------------------------------------------------------------------------


def _active(ctx: Ctx) -> tuple[PlayerId, ...]:
    return (ctx.state.turn.player,) if ctx.state.turn is not None else ()


def _kingdom_moves(ctx: Ctx, player: PlayerId) -> list[Action]:
    return [*(PlayEvent(player, c) for c in turn.kingdoms_in_hand(ctx)), Done(player)]


def _play_kingdom(ctx: Ctx, action: PlayEvent) -> None:
    if action.card not in turn.kingdoms_in_hand(ctx):
        raise IllegalAction("not_a_kingdom", "Play a kingdom of this epoch from your hand, or skip.",
                            card=action.card)
    turn.play_kingdom(ctx, action.card)


def _skip_kingdom(ctx: Ctx, action: Done) -> None:
    turn.skip_kingdom(ctx)


def _invade_moves(ctx: Ctx, player: PlayerId) -> list[Action]:
    """Each territory open (by sea as well when it is also reached another way), a fort, an event
    card the empire may play, or stop."""
    tn = ctx.turn
    acts: list[Action] = []
    for land, routes in turn.invasion_targets(ctx).items():
        acts.append(Invade(player, land))
        if SEA in routes and len(routes) > 1:
            acts.append(Invade(player, land, SEA))
    if tn.pool > 0:
        acts.extend(Fortify(player, land) for land in turn.fort_sites(ctx))
    if tn.force_kind == "empire":
        acts.extend(PlayEvent(player, c) for c in cards.playable(ctx))
    acts.append(Stop(player))
    return acts


def _invade(ctx: Ctx, action: Invade) -> None:
    turn.invade(ctx, action.land, action.route)


def _fortify(ctx: Ctx, action: Fortify) -> None:
    turn.fortify(ctx, action.land)


def _play_event(ctx: Ctx, action: PlayEvent) -> None:
    cards.play(ctx, action.card)


def _stop(ctx: Ctx, action: Stop) -> None:
    turn.stop(ctx)


def _targets(ctx: Ctx, player: PlayerId) -> tuple[list[Action], bool]:
    """The targets open now, and whether the player may stop choosing."""
    if _pending_event(ctx.turn):
        return [Choose(player, t) for t in cards.pending_candidates(ctx)], cards.may_finish(ctx)
    return [Choose(player, t) for t in turn.end_candidates(ctx)], turn.may_finish_end_targets(ctx)


def _target_moves(ctx: Ctx, player: PlayerId) -> list[Action]:
    acts, done = _targets(ctx, player)
    return acts + ([Done(player)] if done else [])


def _target_timeout(ctx: Ctx, player: PlayerId) -> Action:
    """Stop choosing when the targets allow it, else the first target."""
    acts, done = _targets(ctx, player)
    return Done(player) if done else _first(acts)


def _choose(ctx: Ctx, action: Choose) -> None:
    if _pending_event(ctx.turn):
        cards.choose(ctx, action.target)
    else:
        turn.choose_end_target(ctx, action.target)


def _done_choosing(ctx: Ctx, action: Done) -> None:
    if _pending_event(ctx.turn):
        cards.finish(ctx)
    else:
        turn.finish_end_targets(ctx)


def _not_in_battle(ctx: Ctx, action: PlayEvent) -> None:
    """An event card during a battle: refused with the reason (cards are played between invasions)."""
    raise IllegalAction("during_invasion", cards.during_invasion_refusal(ctx), card=action.card)


def _reroll(ctx: Ctx, action: Reroll) -> None:
    battle.reroll(ctx, int(action.die))


def _accept(ctx: Ctx, action: Accept) -> None:
    battle.accept(ctx)


def _siege(ctx: Ctx, action: Siege) -> None:
    battle.siege(ctx)


def _retreat(ctx: Ctx, action: Retreat) -> None:
    battle.retreat(ctx)


def _track(ctx: Ctx, action: Track) -> None:
    if track.move(ctx, action.direction) == "end":
        turn.end_turn(ctx)


def _prefer(ctx: Ctx, action: Prefer) -> None:
    """A standing preference of a seated player (how to reroll, where a tied marker goes)."""
    if not 0 <= action.player < ctx.state.players:
        raise IllegalAction("not_seated", "Only seated players have preferences.")
    allowed = PREFS.get(action.key)
    if allowed is None or action.value not in allowed:
        raise IllegalAction("bad_preference", f"Unknown preference {action.key}={action.value}.",
                            key=action.key, value=action.value)
    ctx.state.prefs[action.player][action.key] = action.value
    ctx.emit("preference", (action.player,), player=action.player, key=action.key, value=action.value)


def steps(rules: Callable[[], Rules]) -> Mapping[Key, Step[State, Ctx]]:
    """The step of the draft, of each step of a turn and of the end, asking ``rules`` for the data
    (a game may be made with data of its own)."""

    def read(state: State) -> Ctx:
        # a context to ask the rules about a state: it is read, never changed
        return Ctx(state, rules())

    def actors(who: Callable[[Ctx], tuple[PlayerId, ...]]) -> Callable[[State], tuple[PlayerId, ...]]:
        return lambda state: who(read(state))

    def moves(legal: Moves) -> Callable[[State, PlayerId], list[Action]]:
        return lambda state, player: legal(read(state), player)

    def passive(timeout: Passive) -> Callable[[State, PlayerId], Action]:
        return lambda state, player: timeout(read(state), player)

    def in_turn(expects: str, handlers: Handlers[Ctx], legal: Moves, timeout: Passive) -> Step[State, Ctx]:
        return Step(expects=expects, actors=actors(_active), handlers=handlers, legal=moves(legal),
                    timeout=passive(timeout), not_yours=NOT_YOURS)

    return {
        Phase.DRAFT: Step(
            expects="the cards of the sets passed to be chosen", actors=actors(_drafters),
            handlers={Draft: _draft, Keep: _keep, Give: _give}, legal=moves(_draft_moves),
            # Keep is listed first whenever it is allowed: the passive answer, else the first card offered
            timeout=passive(lambda ctx, player: _first(_draft_moves(ctx, player))), not_yours=NOT_YOURS),
        TurnStep.KINGDOM: in_turn(
            "a kingdom of this epoch to be played, or done", {PlayEvent: _play_kingdom, Done: _skip_kingdom},
            _kingdom_moves, lambda ctx, player: Done(player)),
        TurnStep.INVADE: in_turn(
            "an invasion, a fort, an event card, or stop",
            {Invade: _invade, Fortify: _fortify, PlayEvent: _play_event, Stop: _stop},
            _invade_moves, lambda ctx, player: Stop(player)),
        TurnStep.TARGET: in_turn(
            "the targets to be chosen", {Choose: _choose, Done: _done_choosing}, _target_moves,
            _target_timeout),
        TurnStep.REROLL: in_turn(
            "the invader to reroll a die or accept the dice",
            {Reroll: _reroll, Accept: _accept, PlayEvent: _not_in_battle},
            lambda ctx, player: [Reroll(player, 0), Reroll(player, 1), Accept(player)],
            lambda ctx, player: Accept(player)),
        TurnStep.SIEGE: in_turn(
            "the invader to lay siege or retreat",
            {Siege: _siege, Retreat: _retreat, PlayEvent: _not_in_battle},
            lambda ctx, player: [Siege(player), Retreat(player)], lambda ctx, player: Retreat(player)),
        TurnStep.TRACK: in_turn(
            "the score marker to be moved up or down", {Track: _track},
            lambda ctx, player: [Track(player, "up"), Track(player, "down")],
            lambda ctx, player: Track(player, "up")),
        # never at rest: the turn is scored within the move that ends it
        TurnStep.SCORING: Step(expects="the turn to be scored", not_yours=NOT_YOURS),
        Phase.OVER: Step(expects="nothing: the game is over", not_yours=("game_over", "The game is over.")),
    }


ANYTIME: Handlers[Ctx] = {Prefer: _prefer}
"""The moves any seated player may make at any time."""
