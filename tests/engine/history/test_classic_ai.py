"""The computer players of classic History of the World (engine/history/ai.py).

Whole seeded games: every action a policy returns is legal, the same seeds
give the same game, a policy never changes the state it is shown nor reads
what its seat may not see, and the greedy player beats random players by a
wide margin. Benchmarks with more games live in bench/bench_ai.py.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import pytest

from engine.core import Action
from engine.history.ai import (
    GreedyPolicy,
    RandomPolicy,
    make_policy,
)
from engine.history.game import GAME
from engine.history.spec import SPEC
from engine.history.state import HistoryState
from engine.policy import Policy


def play(
    names: Sequence[str],
    seed: int,
    options: dict[str, bool] | None = None,
    check_legal: bool = False,
) -> tuple[HistoryState, list[Action]]:
    """Play one whole game; seat ``i`` is ``make_policy(names[i], seed * 10 + i)``."""
    state = GAME.setup(len(names), options or {}, seed)
    policies = [make_policy(name, seed * 10 + i) for i, name in enumerate(names)]
    log: list[Action] = []
    while not GAME.is_over(state):
        (player,) = GAME.actors(state)
        action = policies[player].choose(state, player)
        if check_legal:
            assert action in GAME.legal_actions(state, player), (state.phase, action)
        log.append(action)
        state = GAME.apply(state, action).state
        assert len(log) < 5000, "the game does not end"
    return state, log


def test_make_policy_names() -> None:
    assert isinstance(make_policy("random", 1), RandomPolicy)
    assert isinstance(make_policy("greedy", 1), GreedyPolicy)
    for name in SPEC.policy_names:
        policy: Policy = make_policy(name, 0)
        assert policy.name == name
    with pytest.raises(ValueError, match="random, greedy"):
        make_policy("clever", 0)


@pytest.mark.parametrize(
    ("names", "seed", "options"),
    [
        (["greedy", "random", "greedy", "random"], 11, {}),
        (["random", "greedy", "random"], 12, {"naval_control": True, "multiple_armies": True}),
        (["greedy"] * 5, 13, {"one_minor_each": True, "no_preeminence": True}),
        (["greedy"] * 6, 14, {"naval_control": True}),
    ],
)
def test_policies_only_play_legal_actions(
    names: list[str], seed: int, options: dict[str, bool]
) -> None:
    state, log = play(names, seed, options, check_legal=True)
    assert GAME.is_over(state)
    assert state.epoch == 7 and state.final is not None
    kinds = {a.kind for a in log}
    assert {"expand", "end_turn", "play"} <= kinds


@pytest.mark.parametrize("names", [["greedy"] * 4, ["random"] * 3, ["greedy", "random", "random"]])
def test_same_seed_same_game(names: list[str]) -> None:
    first, log1 = play(names, 7)
    second, log2 = play(names, 7)
    assert log1 == log2
    assert GAME.scores(first) == GAME.scores(second)
    assert first.to_json() == second.to_json()


def test_different_policy_seeds_can_differ() -> None:
    _, log1 = play(["random"] * 3, 7)
    state = GAME.setup(3, {}, 7)
    other = [RandomPolicy(1000 + i) for i in range(3)]
    log2: list[Action] = []
    while not GAME.is_over(state) and len(log2) < len(log1):
        (player,) = GAME.actors(state)
        action = other[player].choose(state, player)
        log2.append(action)
        state = GAME.apply(state, action).state
    assert log1 != log2


def test_choose_leaves_the_state_alone() -> None:
    state = GAME.setup(4, {}, 3)
    policies = [GreedyPolicy(i) for i in range(4)]
    for _ in range(250):
        if GAME.is_over(state):
            break
        (player,) = GAME.actors(state)
        before = state.to_json()
        action = policies[player].choose(state, player)
        assert state.to_json() == before
        state = GAME.apply(state, action).state


def _hide(state: HistoryState, viewer: int) -> HistoryState:
    """A copy with everything hidden from ``viewer`` changed (hands, deck, markers...)."""
    other = state.clone()
    seats = [p for p in range(state.players) if p != viewer]
    hands = [other.hands[p] for p in seats]
    for p, hand in zip(seats, [*hands[1:], hands[0]], strict=True):
        other.hands[p] = list(hand)
    other.deck = list(reversed(other.deck))
    other.seed += 1  # the dice to come
    other.marker_pile = [v + 1 for v in other.marker_pile]
    other.markers = [[v + 1 for v in m] if p != viewer else m for p, m in enumerate(other.markers)]
    if state.phase == "draw":
        keys = [e.key for e in GAME.rules.epochs[state.epoch]]
        for p in seats:
            held = other.holding[p]
            if held is not None and other.given_by[p] != viewer:
                other.holding[p] = next(k for k in keys if k != held and k != other.drawn)
    return other


def test_greedy_reads_only_what_its_seat_sees() -> None:
    state = GAME.setup(5, {}, 21)
    policies = [GreedyPolicy(i) for i in range(5)]
    checked = 0
    while not GAME.is_over(state):
        (player,) = GAME.actors(state)
        if state.seq % 3 == 0:
            hidden_changed = _hide(state, player)
            a = GreedyPolicy(99).choose(state, player)
            b = GreedyPolicy(99).choose(hidden_changed, player)
            assert a == b, (state.phase, state.turn.step if state.turn else None)
            checked += 1
        state = GAME.apply(state, policies[player].choose(state, player)).state
    assert checked > 50



def test_greedy_weights_are_tunable() -> None:
    weights = dataclasses.replace(GreedyPolicy(0).weights, fort_threat=0.0)
    state, _ = play(["greedy"] * 3, 5)
    policy = GreedyPolicy(0, weights)
    assert policy.weights.fort_threat == 0.0
    assert GAME.is_over(state)
