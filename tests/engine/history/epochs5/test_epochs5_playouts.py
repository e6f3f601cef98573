"""5-epoch games played to the end for what only 5-epoch has: standing preferences sent by players who
are not acting, and every empire and event card reached.

The invariants these playouts once checked after every move (component limits, barren lands, forts,
score markers, scores never going down, views unchanged when what is hidden changes) are the game's
``invariants`` hook (:mod:`engine.history.epochs5.invariants`), which the contract suite's playouts check
for every game alike (tests/contract/test_game_contract.py, the same seeds as every game), with the
JSON round trip, the replay from the log and the codec.
"""

from __future__ import annotations

import pytest

from engine import rng
from engine.core import Action, replay
from engine.history.epochs5.actions import Prefer
from engine.history.epochs5.game import GAME
from engine.history.epochs5.invariants import problems
from engine.history.epochs5.spec import SPEC
from tests.contract.budget import FAST_SEEDS, seating


class Chooser:
    """The playouts' own seeded choice of a legal action."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.rng_counter = 0

    def pick(self, actions: list[Action]) -> Action:
        # Stop less eagerly than a uniform pick would, so boards fill up.
        weights = [1 if a.kind in ("stop", "done", "retreat") else 4 for a in actions]
        ticket = rng.below(self, sum(weights))
        for action, weight in zip(actions, weights, strict=True):
            if ticket < weight:
                return action
            ticket -= weight
        raise AssertionError("unreachable")


@pytest.mark.parametrize("seed", FAST_SEEDS[:2])
def test_standing_preferences_sent_by_any_player_keep_the_invariants_and_replay(seed: int) -> None:
    """Now and then a player who is not acting sends a standing preference (a reroll or track choice);
    the game's invariants hold after every move and the log, preferences included, replays."""
    plan = seating(SPEC, seed)
    players, options = plan.players, plan.options
    state = GAME.setup(players, options, seed)
    chooser = Chooser(seed ^ 0x5EED)
    log: list[Action] = []
    preferences = 0
    while not GAME.is_over(state):
        actor = sorted(GAME.actors(state))[rng.below(chooser, len(GAME.actors(state)))]
        if rng.below(chooser, 40) == 0:
            key, values = (("reroll", ("if_losing", "if_not_winning", "never")) if len(log) % 2
                           else ("track", ("ask", "up", "down")))
            action: Action = Prefer(rng.below(chooser, players), key, values[rng.below(chooser, 3)])
            preferences += 1
        else:
            action = chooser.pick(list(GAME.legal_actions(state, actor)))
        result = GAME.apply(state, action)
        assert problems(state, action, result) == [], f"move {len(log) + 1}: {action.to_json()}"
        state = result.state
        log.append(action)
        assert len(log) < 3000, "game does not end"
    assert preferences > 0
    assert replay(GAME, players, options, seed, log) == state


def test_every_empire_and_event_card_is_played_somewhere() -> None:
    """Across seeds, every empire is called and every kind of event resolves without error."""
    called: set[str] = set()
    played: set[str] = set()
    for seed in range(40):
        state = GAME.setup(6, {}, 1000 + seed)
        chooser = Chooser(seed)
        while not GAME.is_over(state):
            actor = min(GAME.actors(state))
            actions = GAME.legal_actions(state, actor)
            plays = [a for a in actions if a.kind == "play"]
            state = GAME.apply(state, plays[0] if plays else chooser.pick(actions)).state
            if state.turn is not None:
                called.add(state.turn.empire)
                played.update(state.turn.played)
    assert called == {e.key for listed in GAME.rules.epochs.values() for e in listed}
    effects = {GAME.rules.events[c].effect for c in played}
    assert effects == {c.effect for c in GAME.rules.events.values()}
