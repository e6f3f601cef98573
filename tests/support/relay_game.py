"""Goofspiel bid in turn, for the "you're next" tests: the test game (:mod:`tests.toy.game`), but the
first seat bids, then the second, so one seat acts at a time and the game knows who is next.

Registered only while a test asks for it (:func:`registered`), so the contract suites, which read the
registry when they are collected, never see it.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace

from engine import registry
from engine.core import PlayerId
from engine.spec import GameSpec
from tests.toy.game import STEPS, Phase, ToyGame, ToyState

RELAY_ID = "toy-relay"


def _in_turn(state: ToyState) -> tuple[PlayerId, ...]:
    """Seat 0 until it has bid, then seat 1."""
    return (0,) if state.bids[0] is None else (1,)


RELAY_STEPS = {**STEPS, Phase.BID: replace(STEPS[Phase.BID], actors=_in_turn)}
"""The test game's steps, its bid taken in turn."""


class RelayGame(ToyGame):
    """Seat 0 bids, then seat 1; the round is then revealed and the next begins with seat 0 again."""

    id = RELAY_ID
    title = "Relay Goofspiel (test game)"

    def __init__(self) -> None:
        super().__init__(RELAY_STEPS)

    def up_next(self, state: ToyState) -> PlayerId | None:
        """Seat 1 after seat 0; seat 0 after seat 1 unless this is the last prize."""
        if not state.prizes:
            return None
        if state.bids[0] is None:
            return 1
        return 0 if len(state.prizes) > 1 else None


GAME = RelayGame()

SPEC = GameSpec(
    id=RELAY_ID,
    title=GAME.title,
    min_players=2,
    max_players=2,
    summary="Two players bid cards 1 to 5 in turn for prizes 1 to 5.",
    game="tests.support.relay_game:GAME",
    policies="tests.toy.ai:make_policy",
    renderer="tests.toy.render:render_board",
    policy_names=("greedy", "random"),
)


@contextmanager
def registered() -> Iterator[GameSpec]:
    """The relay game in the registry for the time of a test."""
    spec = registry.register(SPEC)
    try:
        yield spec
    finally:
        registry.unregister(spec.id)
