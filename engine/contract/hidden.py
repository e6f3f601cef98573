"""What a move shows: whether it changed nothing hidden, whom it tells what, and a seat's only move
(the forced-move, undo and no-leak rules read these)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from engine.contract.basics import PUBLIC, PlayerId
from engine.contract.codec import Action
from engine.contract.errors import IllegalAction
from engine.contract.values import Event, Result


class HasActors(Protocol):
    def actors(self, state: Any) -> frozenset[PlayerId]: ...


def plain_move(game: HasActors, before: Any, action: Action, result: Result) -> bool:
    """The generic undo rule: ``action`` left its player the only one to act, before and after, moved
    no die or shuffle (the state's ``rng_counter``, see :mod:`engine.rng`) and told nobody anything in
    private. A game adds its draws (:meth:`BaseGame.hidden_draws`) and the hidden-swap rule
    (:func:`shows_hidden`) on top."""
    alone = frozenset({action.player})
    if game.actors(before) != alone or game.actors(result.state) != alone:
        return False
    # every game keeps its randomness in the state (engine.rng); a state without a counter uses none
    if getattr(before, "rng_counter", None) != getattr(result.state, "rng_counter", None):
        return False
    return all(event.audience == PUBLIC for event in result.events)


class Swappable(HasActors, Protocol):
    """What :func:`shows_hidden` needs of a game: its rules, its views and its private variants."""

    def apply(self, state: Any, action: Action) -> Result: ...

    # ``object``: any game's own view type will do, since views are only compared for equality here
    def view(self, state: Any, viewer: PlayerId | None) -> object: ...

    def scores(self, state: Any) -> list[int]: ...

    def private_variants(self, state: Any, seat: PlayerId) -> Sequence[Any]: ...


def watchers(game: Swappable, state: Any, seat: PlayerId) -> list[PlayerId | None]:
    """Who may not see what ``seat`` alone knows: every other seat, then a spectator (None)."""
    others: list[PlayerId | None] = [p for p in range(len(game.scores(state))) if p != seat]
    return [*others, None]


def seen_by(game: Swappable, result: Result,
            viewer: PlayerId | None) -> tuple[list[Event], object]:
    """What ``viewer`` learns from a move: the events it may see, and its view after."""
    return [e for e in result.events if e.visible_to(viewer)], game.view(result.state, viewer)


def tied_places(ranking: Sequence[PlayerId], key: Callable[[PlayerId], Any]) -> list[list[PlayerId]]:
    """``ranking`` cut into places: consecutive seats whose ``key`` (what the game compares, its
    tie-breaks included, the seat not) is equal share a place."""
    out: list[list[PlayerId]] = []
    last: Any = object()
    for seat in ranking:
        mark = key(seat)
        if out and mark == last:
            out[-1].append(seat)
        else:
            out.append([seat])
        last = mark
    return out


class Choosing(Protocol):
    """What :func:`only_move` needs of a game: its legal moves and its private variants."""

    def legal_actions(self, state: Any, player: PlayerId) -> Sequence[Action]: ...

    def private_variants(self, state: Any, seat: PlayerId) -> Sequence[Any]: ...


def only_move(game: Choosing, state: Any, player: PlayerId) -> Action | None:
    """``player``'s one legal move, when playing it at once tells the others nothing their clicking it
    would not. What playing at once shows is only that there was one choice (the move itself tells
    what its events tell, as when clicked); so the seat must have a single move whatever it holds in
    private (one move in each of :meth:`Game.private_variants`, maybe another: its one card, whichever
    it is). Otherwise (a real choice, or a lone move only because of what they hold, as no card they
    could play) None: they are asked."""
    legal = list(game.legal_actions(state, player))
    if len(legal) != 1:
        return None
    if any(len(game.legal_actions(variant, player)) != 1 for variant in game.private_variants(state, player)):
        return None
    return legal[0]


def shows_hidden(game: Swappable, before: Any, action: Action, result: Result) -> bool:
    """Whether ``action`` showed another seat or a spectator something only its player knew.

    The hidden-swap rule: the same move is applied to each of :meth:`Game.private_variants` of
    ``before`` for the mover (states the others cannot tell from ``before``). When it is refused in
    one (the move depended on what the mover alone held: a card played from the hand), or some other
    seat's events or view after it differ from those after the real move (a marker turned up, a bid
    shown), the move told the table something hidden: a reveal.
    """
    variants = game.private_variants(before, action.player)
    if not variants:
        return False
    audience = watchers(game, before, action.player)
    seen = {viewer: seen_by(game, result, viewer) for viewer in audience}
    for variant in variants:
        try:
            twin = game.apply(variant, action)
        except IllegalAction:
            return True
        if any(seen_by(game, twin, viewer) != seen[viewer] for viewer in audience):
            return True
    return False
