"""The test game's one registration, exactly as a real game registers."""

from __future__ import annotations

from engine.registry import register
from engine.spec import GameSpec

SPEC = register(GameSpec(
    id="toy-goofspiel",
    title="Goofspiel (test game)",
    min_players=2,
    max_players=2,
    summary="Two players bid cards 1 to 5 in secret for prizes 1 to 5.",
    game="tests.toy.game:GAME",
    policies="tests.toy.ai:make_policy",
    renderer="tests.toy.render:render_board",
    invariants="tests.toy.invariants:problems",
    policy_names=("greedy", "random"),
    simultaneous_steps=True,  # both players bid at once
    hidden_information=True,  # a bid is secret until both are in
    undo_against_ai=False,  # the AI answers every bid at once and the bids show: none can be taken back
))
