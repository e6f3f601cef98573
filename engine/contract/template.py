"""What a game may inherit: its words in one place (:class:`Words`, :class:`SpokenBy`) and the
rules template :class:`BaseGame`."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from typing_extensions import TypeVar as DefaultTypeVar

from engine.contract.basics import PlayerId
from engine.contract.codec import Action
from engine.contract.context import Context
from engine.contract.errors import IllegalAction
from engine.contract.hidden import only_move, plain_move, shows_hidden, tied_places
from engine.contract.replay import no_joining
from engine.contract.values import Decision, Ending, Event, Names, Outcome, Result

S = TypeVar("S")
V = DefaultTypeVar("V", default=Mapping[str, Any])
"""A game's view type: its own ``TypedDict``; ``Mapping[str, Any]`` for a game whose words still
read an untyped mapping (a bare ``Words`` or ``SpokenBy``)."""


@dataclass(frozen=True)
class Words(Generic[V]):
    """A game's words, from a view: the functions behind :class:`Game`'s text hooks (usually its
    ``text`` module's), for a game whose hooks need nothing but their arguments.

    ``Words[V]`` takes them on the game's view type ``V``: built from functions that read an
    ``EMView``, it is a ``Words[EMView]``, and mypy checks that they all read the same view."""

    decision: Callable[[V, PlayerId, Sequence[Action], Names], Decision]
    describe_event: Callable[[Event, Names], str | None]
    stage: Callable[[V], str]
    status_text: Callable[[V, Names], str]
    hand_text: Callable[[V, PlayerId, Names], str]
    board_text: Callable[[V, Names], str]
    summary_text: Callable[[V, Names], str]


class SpokenBy(Generic[V]):
    """:class:`Game`'s text hooks, each calling its function in the class's :attr:`WORDS`.

    ``SpokenBy[EMView]`` for a game whose words read its own view type; a bare ``SpokenBy`` reads
    ``Mapping[str, Any]``."""

    # Set once in the class body of each game; not a ClassVar, because a ClassVar may not hold the
    # type variable that ties these words to the game's view type.
    WORDS: Words[V]

    def decision(self, view: V, player: PlayerId, legal: Sequence[Action], names: Names) -> Decision:
        return self.WORDS.decision(view, player, legal, names)

    def describe_event(self, event: Event, names: Names) -> str | None:
        return self.WORDS.describe_event(event, names)

    def stage(self, view: V) -> str:
        return self.WORDS.stage(view)

    def status_text(self, view: V, names: Names) -> str:
        return self.WORDS.status_text(view, names)

    def hand_text(self, view: V, player: PlayerId, names: Names) -> str:
        return self.WORDS.hand_text(view, player, names)

    def board_text(self, view: V, names: Names) -> str:
        return self.WORDS.board_text(view, names)

    def summary_text(self, view: V, names: Names) -> str:
        return self.WORDS.summary_text(view, names)


C = TypeVar("C", bound=Context[Any])
"""The context a game's rules work on while one action is applied: :class:`Context` or a game's
subclass of it."""


class BaseGame(Generic[S, C, V]):
    """What every game shares beneath its rules: the undo rule, forced moves, the ranking and places,
    and the defaults of the optional hooks.

    Generic in the state ``S``, the rules' context ``C`` and the view ``V`` (the game's own
    ``TypedDict``; ``Mapping[str, Any]`` when left out), so the hooks that read a view
    (:meth:`card_text`, :meth:`orders`) take the game's own view type. Who acts and how a move is
    applied come from the game's steps (:class:`engine.contract.steps.StepGame`, under which every
    game runs); a game writes :meth:`begin` and :meth:`finish` around its rules.
    """

    def actors(self, state: S) -> frozenset[PlayerId]:
        raise NotImplementedError

    def refusal(self, state: S, player: PlayerId) -> IllegalAction:
        """Why ``player``, who is not an actor now, may not move (game over, already bid, not your turn)."""
        raise NotImplementedError

    def begin(self, state: S) -> C:
        """A copy of ``state`` wrapped in the context the rules write to."""
        raise NotImplementedError

    def finish(self, ctx: C) -> S:
        """The new state once the rules are done (advance ``seq`` here)."""
        raise NotImplementedError

    def hidden_draws(self, state: S) -> tuple[int, ...]:
        """The sizes of the piles a move may draw from unseen (a deck dealt in order needs no die):
        a move that changes one revealed something and cannot be taken back. None by default."""
        return ()

    def private_variants(self, state: S, seat: PlayerId) -> Sequence[S]:
        """See :meth:`Game.private_variants`; none by default (a seat that knows nothing private)."""
        return ()

    def legal_actions(self, state: S, player: PlayerId) -> Sequence[Action]:
        raise NotImplementedError

    def compared(self, state: S, seat: PlayerId) -> tuple[Any, ...]:
        raise NotImplementedError

    def ranking(self, state: S) -> list[PlayerId]:
        """Seats best first by :meth:`compared`; seats tied on it (they share a place) in seat order."""
        return sorted(range(len(self.scores(state))), key=lambda seat: (self.compared(state, seat), seat))

    def places(self, state: S) -> list[list[PlayerId]]:
        """:meth:`ranking` cut into places by :meth:`compared` (see :meth:`Game.places`)."""
        return tied_places(self.ranking(state), lambda seat: self.compared(state, seat))

    def is_over(self, state: S) -> bool:
        raise NotImplementedError

    def ending(self, state: S) -> tuple[Ending, str]:
        """Why the game in ``state``, which is over, ended: the way (an :class:`Ending`) and one
        sentence in the game's words naming no seat ("The game ends: the turn limit of 12 was
        reached."). Every game declares it; :meth:`outcome` calls it only once the game is over."""
        raise NotImplementedError

    def outcome(self, state: S) -> Outcome | None:
        """See :meth:`Game.outcome`: :meth:`scores`, :meth:`places` and :meth:`ending` once the game is
        over, None before."""
        if not self.is_over(state):
            return None
        reason, why = self.ending(state)
        return Outcome(scores=tuple(self.scores(state)),
                       places=tuple(tuple(place) for place in self.places(state)), reason=reason, why=why)

    def forced(self, state: S, player: PlayerId) -> Action | None:
        """See :meth:`Game.forced`: :func:`only_move` by default."""
        return only_move(self, state, player)

    def up_next(self, state: S) -> PlayerId | None:
        """See :meth:`Game.up_next`: None (not known) by default."""
        return None

    def view(self, state: S, viewer: PlayerId | None) -> V:
        raise NotImplementedError

    def scores(self, state: S) -> list[int]:
        raise NotImplementedError

    def undoable(self, before: S, action: Action, result: Result) -> bool:
        """The generic undo rule: a :func:`plain_move` that drew nothing (:meth:`hidden_draws`) and
        showed nobody what its player alone knew (:func:`shows_hidden`). The swap runs last: it
        applies the move again per variant, so only moves that pass the cheap checks pay for it."""
        return plain_move(self, before, action, result) and \
            self.hidden_draws(before) == self.hidden_draws(result.state) and \
            not shows_hidden(self, before, action, result)

    def quiet(self, state: S, action: Action) -> bool:
        """See :meth:`Game.quiet`: no move is quiet by default."""
        return False

    def quiet_examples(self, state: S, seat: PlayerId) -> Sequence[Action]:
        """See :meth:`Game.quiet_examples`: none by default."""
        return ()

    def join(self, state: S) -> Result:
        raise no_joining()

    def seat_colours(self, view: V) -> tuple[str | None, ...]:
        """See :meth:`Game.seat_colours`: none by default (every seat keeps the spec's colour)."""
        return ()

    def card_text(self, view: V, wanted: str, names: Names) -> str | None:
        """See :meth:`Game.card_text`: None by default (a game without cards to look up)."""
        return None

    def empire_text(self, view: V, wanted: str, names: Names) -> str | None:
        """See :meth:`Game.empire_text`: None by default (a game without empires to look up)."""
        return None

    def tracks_text(self, view: V, names: Names) -> str | None:
        """See :meth:`Game.tracks_text`: None by default (a game without tracks of its own)."""
        return None

    def orders(self, view: V, player: PlayerId, names: Names) -> Decision | None:
        """See :meth:`Game.orders`: None by default (a game without standing orders)."""
        return None

    def apply(self, state: S, action: Action) -> Result:
        """See :meth:`Game.apply`: the steps' (:meth:`engine.contract.steps.StepGame.apply`)."""
        raise NotImplementedError
