"""7 Ages' steps as the engine's step template declares them (:class:`engine.core.StepGame`).

Each phase's :class:`engine.seven_ages.steps.Step` gives its actors, legal moves, timeout move and the
rules of each move by action class; here each becomes an :class:`engine.core.Step` whose handlers run
those rules and then move the game on (:func:`engine.seven_ages.steps.then_settle`). A seat that joined
and still chooses its colours is an actor in every step, whose only moves are its colours (L337).
"""

from __future__ import annotations

from dataclasses import replace

from engine.core import Action, PlayerId, Step
from engine.seven_ages import join, modifiers, steps
from engine.seven_ages.state import (
    ACTIONS,
    BID,
    COLOURS,
    DRAFT,
    END_TURN,
    MARKERS,
    OVER,
    PHASES,
    REDEEM,
    SIFT,
    SIFT_VOTE,
    TRIM,
    SevenState,
)
from engine.seven_ages.steps import Ctx

EXPECTS: dict[str, str] = {
    SIFT: "every player's card put out of the game", SIFT_VOTE: "every player's vote on the deck",
    REDEEM: "the redemption of cards", BID: "every player's first-player bid",
    COLOURS: "the choice of dedicated colours", TRIM: "the discard down to six cards",
    DRAFT: "the draft of spare action markers", MARKERS: "every player's action markers",
    **{action: f"the {action} action" for action in ACTIONS}, END_TURN: "the end of the turn",
    OVER: "nothing: the game is over",
}
"""What the game waits for in each phase, finishing "the game is waiting for ..." (the sentence refusing a
move of a class the step does not take)."""

NOT_YOURS = ("not_your_turn", "It is not your move now: others are deciding.")
GAME_OVER = ("game_over", "The game is over.")


def newcomers(state: SevenState) -> tuple[PlayerId, ...]:
    """The seats that joined and still choose their colours: they act whatever the step (L337)."""
    return tuple(sorted(state.choosing_colours()))


def contract_step(phase: str, ruled: steps.Step | None) -> Step[SevenState, Ctx]:
    """The engine's step of ``phase`` run by ``ruled``: its actors and any newcomer, who may only choose
    colours; its moves' rules, each followed by what every move is followed by. A phase no module rules
    (the end of the game) takes no move."""
    if ruled is None:
        return Step(EXPECTS[phase], actors=newcomers, not_yours=GAME_OVER if phase == OVER else NOT_YOURS)
    rules = ruled

    def actors(state: SevenState) -> tuple[PlayerId, ...]:
        return tuple(sorted(rules.actors(state) | frozenset(state.choosing_colours())))

    def legal(state: SevenState, seat: PlayerId) -> list[Action]:
        if seat in state.choosing_colours():
            return join.colour_choices(state, seat)
        return rules.legal(state, seat) if seat in rules.actors(state) else []

    def timeout(state: SevenState, seat: PlayerId) -> Action:
        if seat in state.choosing_colours():
            return join.colour_choices(state, seat)[0]
        return rules.timeout(state, seat)

    return Step(EXPECTS[phase], actors=actors,
                handlers={cls: steps.then_settle(handler) for cls, handler in rules.handlers.items()},
                legal=legal, timeout=timeout, not_yours=NOT_YOURS)


def contract_steps() -> dict[str, Step[SevenState, Ctx]]:
    """Every phase's engine step, once every module has registered its rules (:func:`steps.load`)."""
    ruled = steps.load()
    return {phase: contract_step(phase, ruled.get(phase)) for phase in PHASES}


STEPS = contract_steps()
"""Every phase's step, by phase."""


def run(state: SevenState, action: Action) -> Ctx:
    """Apply ``action`` through the handler the current step files its class under (IllegalAction
    ``wrong_step`` for a move it does not take) on a copy of ``state``, counting the move (``seq``); the
    actor is not checked (a test's shortcut: the game checks it)."""
    ctx = Ctx(state)
    STEPS[state.phase].handler(action)(ctx, action)
    ctx.state = replace(modifiers.note_losses(ctx.start, ctx.state), seq=ctx.state.seq + 1)
    return ctx
