"""Goofspiel's own invariants, the reference for a game's ``invariants`` hook
(:class:`engine.spec.Invariants`): what its rules must never break beyond the contract, checked by the
contract suite after every move."""

from __future__ import annotations

from engine.core import Action, Result
from tests.toy.game import ToyState


def problems(before: ToyState, action: Action, result: Result) -> list[str]:
    """Each seat's points are the prizes it won, and it holds one card (in hand or bid face down) for each
    prize left; one sentence per broken invariant."""
    state: ToyState = result.state
    found: list[str] = []
    for seat, (points, won) in enumerate(zip(state.points, state.won, strict=True)):
        if points != sum(won):
            found.append(f"seat {seat} has {points} points for the prizes {won}")
        held = len(state.hands[seat]) + (state.bids[seat] is not None)
        if held != len(state.prizes):
            found.append(f"seat {seat} holds {held} cards for {len(state.prizes)} prizes left")
    return found
