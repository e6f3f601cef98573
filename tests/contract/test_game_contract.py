"""The contract every registered game keeps, one suite for all: no test here names a game.

The test-only toy game (``tests/toy``) registers itself like a real game and must pass the same
checks. Every game plays the same seeded playouts (:mod:`tests.contract.budget`), its own invariants
checked after every move through its spec's ``invariants`` hook; ``pytest -m slow`` plays more.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import pytest

import tests.toy.spec
from engine import registry
from engine.core import Action, Choice, Decision, Event, Result
from engine.spec import GameSpec
from tests.contract.budget import FAST_SEEDS, SWEEP_SEEDS, seating
from tests.contract.checks import assert_complete, missing_hooks, places_problem, random_playout, seat_names
from tests.toy.game import ToyGame

SPECS = registry.specs()
PNG = b"\x89PNG\r\n\x1a\n"


def seating_id(value: object) -> str:
    return value.id if isinstance(value, GameSpec) else str(value)


@pytest.mark.parametrize("spec", SPECS, ids=seating_id)
def test_the_game_implements_every_hook(spec: GameSpec) -> None:
    assert_complete(spec.load())


@pytest.mark.parametrize("spec", SPECS, ids=seating_id)
def test_the_spec_is_consistent_with_its_game(spec: GameSpec) -> None:
    game = spec.load()
    assert (game.id, game.min_players, game.max_players) == (spec.id, spec.min_players, spec.max_players)
    assert len(spec.colours) >= spec.max_players and len(set(spec.colours)) == len(spec.colours)
    assert spec.policy_names and set(spec.policy_names) >= {"random"}
    for option in spec.options:
        assert option.check(option.default) == option.default
        assert option.description.strip() and "{" not in option.description
    assert game.check_data() == []


FAST = [(s, seed) for s in SPECS for seed in FAST_SEEDS]
SWEEP = [(s, seed) for s in SPECS for seed in SWEEP_SEEDS]


def check_playout(spec: GameSpec, seed: int, *, draw_boards: bool = False) -> None:
    """The playout of ``seed`` as the budget seats it keeps the contract and the game's invariants; with
    ``draw_boards``, at the most seats the board is drawn mid-game and at the end (a picture of a full
    table, without a playout of its own)."""
    plan = seating(spec, seed)
    run = random_playout(spec, plan.players, seed, policy=plan.policy, options=plan.options)
    assert run.problems == [], "\n".join(run.problems)
    assert run.worded, "no event of the whole game was worded for the players"
    if draw_boards and plan.players == spec.max_players:
        assert run.mid_view is not None and run.final_view is not None
        draw = spec.render()
        for view in (run.mid_view, run.final_view):
            assert draw(view, size=400)[:8] == PNG


@pytest.mark.parametrize(("spec", "seed"), FAST, ids=seating_id)
def test_a_random_playout_keeps_the_contract(spec: GameSpec, seed: int) -> None:
    check_playout(spec, seed, draw_boards=True)


@pytest.mark.slow
@pytest.mark.parametrize(("spec", "seed"), SWEEP, ids=seating_id)
def test_many_random_playouts_keep_the_contract(spec: GameSpec, seed: int) -> None:
    check_playout(spec, seed)


@pytest.mark.parametrize("spec", SPECS, ids=seating_id)
def test_the_fast_budget_plays_every_seat_count_with_the_random_and_another_ai(spec: GameSpec) -> None:
    """The same playouts for every game (issue 31), yet none of a game's seat counts left unplayed."""
    plans = [seating(spec, seed) for seed in FAST_SEEDS]
    assert {p.players for p in plans} == set(range(spec.min_players, spec.max_players + 1))
    assert {p.policy for p in plans} == {"random", next(n for n in spec.policy_names if n != "random")}


@pytest.mark.parametrize("spec", SPECS, ids=seating_id)
@pytest.mark.parametrize("data", [{}, {"player": 0, "seat": 0, "land": "Nowhere", "units": [["Spear", 1]]}])
def test_an_event_of_a_type_the_game_does_not_know_is_told_as_nothing(spec: GameSpec,
                                                                      data: Mapping[str, Any]) -> None:
    """Every game alike (issue 31): None, never an exception, whatever the data (a log stored under
    older rules may hold a type the game no longer emits)."""
    names = [f"p{i} (Red)" for i in range(spec.max_players)]
    assert registry.get_game(spec.id).describe_event(Event("no_such_event_type", data), names) is None


@pytest.mark.parametrize("spec", SPECS, ids=seating_id)
def test_seat_names_are_person_and_colour(spec: GameSpec) -> None:
    names = seat_names(spec, spec.max_players)
    assert names[0] == f"alice ({spec.colours[0]})"
    assert len(set(names)) == len(names)


# -- the checker itself ------------------------------------------------------------------------------

# The toy game without two of its hooks: a game someone forgot to finish.
INCOMPLETE = type("IncompleteToy", (ToyGame,), {"decision": None, "stage": None,
                                                "id": "toy-incomplete", "title": "toy-incomplete"})()


@pytest.fixture
def incomplete() -> Iterator[GameSpec]:
    spec = registry.register(GameSpec(
        id="toy-incomplete", title="toy-incomplete", min_players=2, max_players=2,
        summary="The test game with hooks missing.", game=f"{__name__}:INCOMPLETE",
        policies="tests.toy.ai:make_policy", renderer="tests.toy.render:render_board"))
    yield spec
    registry.unregister(spec.id)


def test_a_registered_game_missing_a_hook_fails_naming_the_hook(incomplete: GameSpec) -> None:
    assert incomplete in registry.specs()
    assert missing_hooks(incomplete.load()) == ["method decision()", "method stage()"]
    with pytest.raises(AssertionError, match=r"toy-incomplete .*lacks method decision\(\), method stage\(\)"):
        assert_complete(incomplete.load())


def test_a_complete_game_lacks_nothing() -> None:
    assert missing_hooks(tests.toy.spec.SPEC.load()) == []


class LeakyToy(ToyGame):
    """The toy game with two faults the suite must catch: the view shows the secret bids, and every
    choice has the same label."""

    id = "toy-leaky"

    def view(self, state: Any, viewer: int | None) -> Any:
        return {**super().view(state, viewer), "bids": list(state.bids)}

    def decision(self, view: Mapping[str, Any], player: int, legal: Sequence[Action],
                 names: Sequence[str]) -> Decision:
        return Decision(player, "Bid", tuple(Choice(a, "Bid a card") for a in legal))


LEAKY = LeakyToy()


def test_the_playout_catches_a_view_that_leaks_and_labels_that_repeat() -> None:
    spec = registry.register(GameSpec(
        id="toy-leaky", title="toy-leaky", min_players=2, max_players=2, summary="A faulty test game.",
        game=f"{__name__}:LEAKY", policies="tests.toy.ai:make_policy",
        renderer="tests.toy.render:render_board"))
    try:
        problems = "\n".join(random_playout(spec, 2, seed=1).problems)
    finally:
        registry.unregister(spec.id)
    assert "differ only in what is hidden from it, yet its view differs at /bids" in problems
    assert "decision labels repeat: ['Bid a card']" in problems


@pytest.mark.parametrize("spec", SPECS, ids=seating_id)
def test_seats_equal_on_everything_the_game_compares_share_a_place(spec: GameSpec) -> None:
    """Issue 30: "a full tie becomes 1st and 2nd by seat order". At every seat count, at the set-up
    and after each of a random game's first moves, seats the game compares as equal share one place
    (a tie the game's tie-breaks leave is a tie), and the places are the ranking cut into groups."""
    game = spec.load()
    for players in range(spec.min_players, spec.max_players + 1):
        state = game.setup(players, spec.checked_options(players, {}), 7)
        policy = spec.make_policy("random", 7)
        for _ in range(40):
            # equal within a place, each place strictly behind the one before: so equal seats share one
            problem = places_problem(game, state, game.ranking(state))
            assert problem is None, f"{players} players: {problem}"
            if game.is_over(state):
                break
            actor = min(game.actors(state))
            state = game.apply(state, policy.choose(state, actor)).state


def no_round_is_won(before: Any, action: Action, result: Result) -> list[str]:
    """A false invariant of the toy game: some random game soon breaks it."""
    return [f"seat {e.data['winner']} won the prize {e.data['prize']}"
            for e in result.events if e.type == "round_won" and e.data["winner"] is not None]


def test_the_playout_reports_what_breaks_a_game_s_own_invariants() -> None:
    spec = registry.register(dataclasses.replace(tests.toy.spec.SPEC, id="toy-strict",
                                                 invariants=f"{__name__}:no_round_is_won"))
    try:
        problems = random_playout(spec, 2, seed=1).problems
    finally:
        registry.unregister(spec.id)
    assert problems, "the toy game's rounds are won, and the hook says it must not be"
    said = r"step \d+: after \{.*\}: seat [01] won the prize [1-5]$"
    assert all(re.search(said, p) for p in problems), problems
