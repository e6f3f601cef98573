"""The step template: a game declared as its steps, each with the moves it takes and who makes them.

Learnt from 7 Ages' ``Step`` (and boardgame.io's phases): a game names its phases with a ``StrEnum``
(or ``Literal`` strings) and declares one :class:`Step` per phase. A step says

- who acts (:attr:`Step.actors`, a tuple of seats: several at once in a simultaneous step such as a
  secret bid);
- which moves it takes, as a table ``{action class: handler}`` (:attr:`Step.handlers`): the template
  finds the handler by the action's class, so a game writes no ``isinstance`` chain, and refuses a
  move of any other class with one sentence saying what the game waits for (:attr:`Step.expects`);
- the moves each actor may make (:attr:`Step.legal`) and the most passive one (:attr:`Step.timeout`);
- why a seat that is not an actor may not move (:attr:`Step.not_yours`: "It is not your turn.").

:class:`StepGame` is :class:`engine.contract.template.BaseGame` run by those steps: ``actors``,
``legal_actions``, ``timeout_action``, ``is_over`` and ``apply`` come from the step the state is at
(:meth:`StepGame.step`); the game writes the rules (the handlers), :meth:`~StepGame.begin` and
:meth:`~StepGame.finish`. A stored phase is the enum's string value, so a StrEnum changes nothing in
saved games.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from typing_extensions import TypeVar as DefaultTypeVar

from engine.contract.basics import PlayerId
from engine.contract.codec import Action
from engine.contract.context import Context
from engine.contract.errors import IllegalAction
from engine.contract.template import BaseGame
from engine.contract.values import Result

S = TypeVar("S")
C = TypeVar("C", bound=Context[Any])
P = TypeVar("P", bound=str)
V = DefaultTypeVar("V", default=Mapping[str, Any])
"""The game's view type (see :class:`engine.contract.template.BaseGame`)."""

Handler = Callable[[C, Any], None]
"""Applies one move of the class it is filed under to the context (``Any``: each handler takes its
own action class, which the table's key guarantees)."""


Handlers = Mapping[type[Action], Handler[C]]
"""A step's table: each action class it takes, and the handler that applies it."""


def first_move(moves: Sequence[Action], refusal: IllegalAction) -> Action:
    """The first legal move, the default of a choice with no passive answer; ``refusal`` when there is
    none (the seat asked is not an actor now)."""
    if not moves:
        raise refusal
    return moves[0]


def nobody(state: object) -> tuple[PlayerId, ...]:
    """The actors of a step nobody acts in (the end of the game)."""
    return ()


def _no_moves(state: object, seat: PlayerId) -> list[Action]:
    return []


@dataclass(frozen=True)
class Step(Generic[S, C]):
    """One step of play: who acts, what they may do, and what each move does.

    Attributes:
        expects: what the game waits for in this step, in words that finish the sentence "the game is
            waiting for ..." ("every player's secret bid"); the refusal of a move of another class.
        actors: the seats that may move now, in seat order (several at once in a simultaneous step).
        handlers: the rules of each move the step takes, by action class.
        legal: every legal move of an actor.
        timeout: an actor's most passive legal move (required when the step takes any move).
        not_yours: the sentence refusing a seat that is not an actor now, and its code.
    """

    expects: str
    actors: Callable[[S], tuple[PlayerId, ...]] = nobody
    handlers: Mapping[type[Action], Handler[C]] = field(default_factory=dict)
    legal: Callable[[S, PlayerId], list[Action]] = _no_moves
    timeout: Callable[[S, PlayerId], Action] | None = None
    not_yours: tuple[str, str] = ("not_your_turn", "It is not your turn.")

    def __post_init__(self) -> None:
        if self.handlers and self.timeout is None:
            raise ValueError(f"the step waiting for {self.expects} takes moves but has no timeout move")

    def handler(self, action: Action) -> Handler[C]:
        """The handler of ``action``'s class (or of a class it derives from); IllegalAction
        ``wrong_step`` naming what the step waits for when the step takes no such move."""
        found = self.handlers.get(type(action))
        if found is None:
            found = next((self.handlers[cls] for cls in type(action).__mro__ if cls in self.handlers), None)
        if found is None:
            raise IllegalAction("wrong_step", f"That move is not possible now: the game is waiting for "
                                f"{self.expects}.", kind=action.kind)
        return found

    def refusal(self) -> IllegalAction:
        """Why a seat that is not an actor may not move (:attr:`not_yours`)."""
        code, sentence = self.not_yours
        return IllegalAction(code, sentence)


class StepGame(BaseGame[S, C, V], Generic[S, C, P, V]):
    """:class:`BaseGame` run by declared steps: a game gives its steps by phase, the phase of play
    that ends the game, and :meth:`step` (the phase a state is at); the template answers whose move
    it is, which moves are legal, the timeout move and whether the game is over, and applies a move
    through the handler its step files it under. The steps are the one place that says who acts: a
    variant changes a step's ``actors`` (``dataclasses.replace``), never the game's :meth:`actors`,
    which :meth:`apply` does not consult."""

    def __init__(self, steps: Mapping[P, Step[S, C]], over: P,
                 anytime: Mapping[type[Action], Handler[C]] | None = None) -> None:
        """Args:
            steps: one step for every phase of the game, the end of the game included.
            over: the phase of a finished game.
            anytime: the moves a player may send whatever the step and whoever acts (a standing
                preference, say), by action class; never legal moves of a step. Their handlers check
                the seat themselves.
        """
        if over not in steps:
            raise ValueError(f"the end of the game ({over!r}) needs a step (one nobody acts in)")
        self.steps: Mapping[P, Step[S, C]] = steps
        self.over: P = over
        self.anytime: Mapping[type[Action], Handler[C]] = anytime or {}

    def step(self, state: S) -> P:
        """The phase ``state`` is at (a key of :attr:`steps`)."""
        raise NotImplementedError

    def current(self, state: S) -> Step[S, C]:
        """The step ``state`` is at."""
        return self.steps[self.step(state)]

    def actors(self, state: S) -> frozenset[PlayerId]:
        return frozenset(self.current(state).actors(state))

    def legal_actions(self, state: S, player: PlayerId) -> list[Action]:
        step = self.current(state)
        return step.legal(state, player) if player in step.actors(state) else []

    def timeout_action(self, state: S, player: PlayerId) -> Action:
        """The current step's most passive move of ``player``; its refusal when they are no actor."""
        step = self.current(state)
        if step.timeout is None or player not in step.actors(state):
            raise step.refusal()
        return step.timeout(state, player)

    def is_over(self, state: S) -> bool:
        return self.step(state) == self.over

    def refusal(self, state: S, player: PlayerId) -> IllegalAction:
        """Why ``player``, who is no actor now, may not move: the current step's :attr:`Step.not_yours`
        (a game may override it for what no step knows, a seat that is not in the game)."""
        return self.current(state).refusal()

    def apply(self, state: S, action: Action) -> Result:
        """Check the actor, find the move's handler in the current step (or among the moves made at
        any time), apply it to a copy (:meth:`begin`), then :meth:`finish`. The state passed in is
        never changed."""
        handler = self.anytime.get(type(action))
        if handler is None:
            step = self.current(state)
            if action.player not in step.actors(state):
                raise self.refusal(state, action.player)
            handler = step.handler(action)
        ctx = self.begin(state)
        handler(ctx, action)
        return Result(self.finish(ctx), tuple(ctx.events))
