"""7 Ages through the shared contract suite's playout checker: 200 seeded random games of 2 to 5
players (JSON round trip, replay from the log, decisions offering every legal move once, the words,
no view holding what is hidden from it), the first few in the fast suite, the rest with ``-m slow``.
Manoeuvre moves units (issue 26 part 2); conflict is not in the game yet."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine import registry
from tests.contract.checks import random_playout

SPEC = registry.spec("seven-ages")
CASES = [(seed, 2 + seed % 4) for seed in range(200)]
FAST = 8


@pytest.mark.parametrize(("seed", "players"), CASES[:FAST])
def test_random_playouts_keep_the_contract(seed: int, players: int) -> None:
    run = random_playout(SPEC, players, seed)
    assert run.problems == [], "\n".join(run.problems)


@pytest.mark.slow
@pytest.mark.parametrize(("seed", "players"), CASES[FAST:])
def test_many_random_playouts_keep_the_contract(seed: int, players: int) -> None:
    run = random_playout(SPEC, players, seed)
    assert run.problems == [], "\n".join(run.problems)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_greedy_playouts_keep_the_contract(players: int) -> None:
    run = random_playout(SPEC, players, seed=40 + players, policy="greedy")
    assert run.problems == [], "\n".join(run.problems)


@pytest.mark.parametrize("options", [{"total_history": True, "redemption": True, "sub_deck": 20,
                                      "marines": True},
                                     {"enhanced_start": True, "enhanced_play": True, "turn_limit": 6,
                                      "quick_conflict": True, "pursuit": True},
                                     {"start_age": 4, "end_age": 5, "turn_limit": 8, "pursuit": True}])
@pytest.mark.parametrize("players", [2, 4])
def test_playouts_with_options_keep_the_contract(options: dict[str, object], players: int) -> None:
    """The same checks with lobby options set (the checker plays a spec's defaults: these become them)."""
    spec = replace(SPEC, options=tuple(replace(o, default=options.get(o.name, o.default))  # type: ignore[arg-type]
                                       for o in SPEC.options))
    run = random_playout(spec, players, seed=players)
    assert run.problems == [], "\n".join(run.problems)
