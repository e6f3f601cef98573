"""The fast Rise greedy player decides exactly as the straightforward computation does.

``tests/support/rise_greedy_reference.py`` applies every move and every way of paying and recomputes every
yield from scratch; the greedy player keeps yields up to date, scores simple moves and payments
without applying them and reuses what its last decision tried. At every decision of seeded games
(greedy seats against a random one, so odd positions come up too) both must rank the same moves
first, in the same order, which with the same generator means the same choice. The games must
reach every kind of decision the shortcuts serve (A and B turns, rows, placements, battles,
keeping tiles) and the last action of a game turn, where nothing is told without applying it.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from engine.core import Action
from engine.rise import ai, phases
from engine.rise.game import GAME
from engine.rise.state import RiseState
from engine.rise.yield_cache import YieldCache
from tests.support.rise_greedy_reference import reference_best


def _kind(state: RiseState) -> str:
    """The kind of decision in ``state``: its stage (or phase) and A or B turn."""
    stage = str(state.task["stage"]) if state.task is not None else state.phase
    return f"{stage} {'B' if state.b_turn else 'A'}"


def _compare(players: int, seed: int, random_seat: int | None, moves: int | None) -> tuple[Counter[str], int]:
    """Play one game (``moves`` moves at most), checking every greedy decision against the reference.

    Returns the decisions checked by kind, and how many were the last action of a game turn.
    """
    state = GAME.setup(players, {}, seed)
    policies: list[Any] = [ai.make_policy("greedy", seed * 10 + p) for p in range(players)]
    if random_seat is not None:
        policies[random_seat] = ai.make_policy("random", seed)
    checked: Counter[str] = Counter()
    last_actions = 0
    played = 0
    while not GAME.is_over(state) and (moves is None or played < moves):
        seat = min(GAME.actors(state))
        policy = policies[seat]
        if isinstance(policy, ai.GreedyPolicy):
            expected = reference_best(state, seat)
            assert policy.best(state, seat) == expected, (seed, state.seq, _kind(state))
            checked[_kind(state)] += 1
            if state.phase == "actions" and state.act_no + 1 == GAME.data.actions_per_turn * players:
                last_actions += 1
        action: Action = policy.choose(state, seat)
        state = GAME.apply(state, action).state
        played += 1
    return checked, last_actions


def test_greedy_ranks_moves_as_the_reference_on_seeded_positions() -> None:
    checked: Counter[str] = Counter()
    last_actions = 0
    for players, seed, random_seat, moves in ((2, 11, None, None), (3, 12, 0, None), (4, 13, 2, 260),
                                              (5, 14, None, 220)):
        found, last = _compare(players, seed, random_seat, moves)
        checked += found
        last_actions += last
    assert sum(checked.values()) >= 300
    for kind in ("choose A", "choose B", "act A", "act B", "place A", "place B", "battle A", "battle B"):
        assert checked[kind] >= 5, (kind, checked)
    keeping = sum(n for kind, n in checked.items() if kind.split()[0] in ("era_end", "upkeep", "food_upkeep"))
    assert keeping >= 5, checked
    assert last_actions >= 5


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(20, 32))
def test_greedy_ranks_moves_as_the_reference_in_whole_games(seed: int) -> None:
    players = 2 + seed % 4
    checked, _ = _compare(players, seed, seed % players if seed % 3 else None, None)
    assert checked


def _bot_move(state: RiseState, seed: int) -> Action:
    """The move the bot's AI seat plays: a greedy policy made afresh for this one move."""
    seat = min(GAME.actors(state))
    return ai.make_policy("greedy", seed * 7 + seat + state.seq).choose(state, seat)


def test_greedy_is_deterministic_when_games_interleave() -> None:
    """What a decision leaves for the next (module-wide, so that the bot's policy made per move
    finds it) never changes a choice: two games played move for move in turns repeat each game
    played alone."""
    games = ((3, 5), (4, 6))
    alone: list[list[Action]] = []
    for players, seed in games:
        state, log = GAME.setup(players, {}, seed), []
        while not GAME.is_over(state):
            log.append(_bot_move(state, seed))
            state = GAME.apply(state, log[-1]).state
        alone.append(log)
    states = [GAME.setup(players, {}, seed) for players, seed in games]
    logs: list[list[Action]] = [[], []]
    while not all(GAME.is_over(s) for s in states):
        for g, (_, seed) in enumerate(games):
            if not GAME.is_over(states[g]):
                logs[g].append(_bot_move(states[g], seed))
                states[g] = GAME.apply(states[g], logs[g][-1]).state
    assert logs == alone


def test_yield_cache_gives_every_yields_from_scratch() -> None:
    cache = YieldCache(GAME.data)
    state = GAME.setup(4, {}, 8)
    policies = [ai.make_policy("random", p) for p in range(4)]
    seen = 0
    while not GAME.is_over(state):
        assert cache.every(state) == phases.every_yields(state, GAME.data)
        seen += 1
        seat = min(GAME.actors(state))
        state = GAME.apply(state, policies[seat].choose(state, seat)).state
    assert seen > 300
