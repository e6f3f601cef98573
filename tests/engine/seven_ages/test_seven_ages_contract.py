"""7 Ages through the shared contract suite's playout checker with its lobby options set: the options
the contract's own playouts leave at their defaults (its numbers: the turn limit, the ages played, the
sub-deck), in combinations the rulebook offers together. The random and greedy playouts at every player
count are the contract suite's, the same seeds as every game (tests/contract/test_game_contract.py)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine import registry
from tests.contract.checks import random_playout

SPEC = registry.spec("seven-ages")


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
