"""Checks that several games' invariants hooks (:class:`engine.spec.Invariants`) share, each giving one
sentence for what it finds broken, or None."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from engine.contract.basics import PlayerId
from engine.contract.protocol import Game


def score_went_down(before: Sequence[int], after: Sequence[int]) -> str | None:
    """A game whose scores only grow: the sentence when some seat's score went down between two states."""
    if any(now < then for now, then in zip(after, before, strict=True)):
        return f"a score went down: {list(before)} became {list(after)}"
    return None


def view_shows_hidden(game: Game[Any, Any], state: Any, hide: Callable[[Any, PlayerId], Any],
                      viewer: PlayerId) -> str | None:
    """The sentence when ``viewer``'s view of ``state`` differs from its view of ``hide(state, viewer)``,
    a copy with everything hidden from ``viewer`` changed (so the view shows something it may not)."""
    if game.view(state, viewer) != game.view(hide(state, viewer), viewer):
        return f"seat {viewer}'s view changes when only what is hidden from it changes"
    return None
