"""The classic state's copy and JSON codec: deep, exact, and sharing nothing."""

from __future__ import annotations

import json
from typing import Any

from engine.history.ai import make_policy
from engine.history.game import GAME
from engine.history.state import HistoryState, Phase, TurnStep


def containers(value: Any, path: str = "state") -> dict[int, str]:
    """Every list, dict and dataclass reachable from ``value``, by identity."""
    found: dict[int, str] = {}
    if isinstance(value, dict):
        found[id(value)] = path
        for key, item in value.items():
            found.update(containers(item, f"{path}[{key!r}]"))
    elif isinstance(value, list):
        found[id(value)] = path
        for i, item in enumerate(value):
            found.update(containers(item, f"{path}[{i}]"))
    elif hasattr(value, "__dataclass_fields__"):
        found[id(value)] = path
        for name in value.__dataclass_fields__:
            found.update(containers(getattr(value, name), f"{path}.{name}"))
    return found


def states_of_a_game(options: dict[str, bool], seed: int) -> list[HistoryState]:
    """States from every kind of step of a whole game (draw, cards, expansion...)."""
    state = GAME.setup(4, options, seed)
    ais = [make_policy("greedy", seed + p) for p in range(4)]
    seen = []
    while not GAME.is_over(state):
        player = min(GAME.actors(state))
        state = GAME.apply(state, ais[player].choose(state, player)).state
        seen.append(state)
    return seen


def test_clone_is_equal_and_shares_no_container() -> None:
    steps = set()
    for options, seed in (({}, 1), ({"naval_control": True, "multiple_armies": True}, 2)):
        states = states_of_a_game(options, seed)
        for state in [*states[::7], states[-1]]:
            copy = state.clone()
            assert copy == state
            shared = set(containers(state)) & set(containers(copy, "clone"))
            assert not shared, [containers(state)[i] for i in shared]
            steps.add(state.turn.step if state.turn else state.phase)
    # the sample covered the turn's shapes, pending cards included
    assert {"draw", "events", "expand", "over"} <= steps


def test_to_json_is_plain_data_that_round_trips() -> None:
    for state in states_of_a_game({}, 3)[::25]:
        data = state.to_json()
        assert json.loads(json.dumps(data)) == data
        assert HistoryState.from_json(data) == state
        assert not set(containers(data)) & set(containers(state))


def test_dumps_equals_the_json_of_to_json() -> None:
    for state in states_of_a_game({"naval_control": True}, 4)[::40]:
        assert json.loads(state.dumps()) == state.to_json()
        assert HistoryState.from_json(json.loads(state.dumps())) == state


def test_a_saved_phase_and_step_read_back_as_their_members() -> None:
    # a saved game holds plain strings; the rules compare members by identity
    states = states_of_a_game({}, 5)
    turn = next(s for s in states if s.turn is not None and s.turn.step == "expand")
    assert turn.turn is not None
    for state in (states[0], turn, states[-1]):
        back = HistoryState.from_json(json.loads(state.dumps()))
        assert type(back.phase) is Phase and back.phase == state.phase
        assert back.turn is None or type(back.turn.step) is TurnStep
    back = HistoryState.from_json(json.loads(turn.dumps()))
    assert back.phase is Phase.TURN and back.turn is not None and back.turn.step is TurnStep.EXPAND
    assert GAME.legal_actions(back, back.turn.player) == GAME.legal_actions(turn, turn.turn.player)
