"""7 Ages games played to the end for what only 7 Ages has: units that manoeuvre, an end with no turn
limit, and the greedy player's glory.

The invariants these playouts once checked after every move (money, glory, elite markers, unit pools,
colours, every card in one place, the clean-ups, the fog over markers and commitments, stepwise
Manoeuvre decisions) are the game's ``invariants`` hook (:mod:`engine.seven_ages.invariants`), which the
contract suite's playouts check for every game alike (tests/contract/test_game_contract.py, the same
seeds as every game); the games here go through the same checker, so they keep the contract and the
invariants too.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from engine.core import Action, Result
from engine.seven_ages.ai import make_policy
from engine.seven_ages.game import GAME
from engine.seven_ages.spec import SPEC
from engine.seven_ages.state import PAST_THE_END, SevenState
from tests.contract.budget import FAST_SEEDS, seating
from tests.contract.checks import random_playout


def play(seed: int, players: int, policy: str, **changed: object) -> SevenState:
    """A whole game through the contract's checker (its invariants included), its last state returned."""
    last: dict[str, SevenState] = {}

    def watch(before: Any, action: Action, result: Result) -> None:
        last["state"] = result.state

    run = random_playout(SPEC, players, seed, policy, options=changed, watch=watch)
    assert run.problems == [], "\n".join(run.problems)
    return last["state"]


def test_units_manoeuvre_in_the_games_played() -> None:
    """Random and greedy players take stacks, move them and stop (issue 26), in the budget's first games
    (played plainly: the contract's playouts of the same seeds check them)."""
    made: Counter[str] = Counter()
    for seed in FAST_SEEDS:
        plan = seating(SPEC, seed)
        s = GAME.setup(plan.players, {**SPEC.default_options(), **plan.options}, seed)
        ais = [make_policy(plan.policy, seed * 7 + p) for p in range(plan.players)]
        while not GAME.is_over(s):
            seat = min(GAME.actors(s))
            action = ais[seat].choose(s, seat)
            if s.phase == "manoeuvre":
                made[action.kind] += 1
                if made["move_from"] and made["move_to"] and made["stop_here"]:
                    return
            s = GAME.apply(s, action).state
    raise AssertionError(f"no stack was taken, moved and stopped in the budget's games: {dict(made)}")


@pytest.mark.slow
@pytest.mark.parametrize(("seed", "players"), [(1, 2), (2, 3), (3, 4), (4, 5), (5, 4)])
def test_greedy_games_without_a_turn_limit_end(seed: int, players: int) -> None:
    """With no turn limit the game ends only when an empire goes beyond level 49 (L313): greedy players
    trade through the dark ages (where free progress stops, L1026) and get there, well within the 60
    turns the lobby's longest limit allows."""
    s = play(seed, players, "greedy", turn_limit=0)
    assert any(e.progress >= PAST_THE_END for e in s.empires)
    assert s.turn <= 60


@pytest.mark.slow
def test_greedy_outscores_random_players() -> None:
    """The greedy player against three random ones (its seat rotating), 12 turns: it pursues glory, so it
    should finish first in most games."""
    firsts = 0
    for seed in range(10):
        greedy = seed % 4
        options = SPEC.default_options()
        s = GAME.setup(4, options, seed)
        ais = [make_policy("greedy" if p == greedy else "random", seed * 31 + p) for p in range(4)]
        while not GAME.is_over(s):
            seat = min(GAME.actors(s))
            s = GAME.apply(s, ais[seat].choose(s, seat)).state
        firsts += GAME.ranking(s)[0] == greedy
    assert firsts >= 8
