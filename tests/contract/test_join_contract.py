"""Joining a game under way, for every registered game: one that takes no newcomer refuses in words
and changes nothing; one that does (its spec's ``joins_in_progress``) seats them in a logged entry that
replays exactly, and no view shows the newcomer's hand to others or theirs to the newcomer.
"""

from __future__ import annotations

import pytest

import tests.toy.spec  # noqa: F401  (the toy game keeps the contract too)
from engine import registry
from engine.core import IllegalAction, LogReplay, join_entry
from engine.spec import GameSpec
from tests.contract.checks import canonical, random_playout, text_problem

SPECS = registry.specs()
JOINING = [s for s in SPECS if s.joins_in_progress]
CLOSED = [s for s in SPECS if not s.joins_in_progress]


def spec_id(value: object) -> str:
    return value.id if isinstance(value, GameSpec) else str(value)


def mid_game(spec: GameSpec, moves: int, seed: int = 4) -> object:
    """A state ``moves`` random moves into a game of the fewest players (or the last before its end)."""
    game = spec.load()
    state = game.setup(spec.min_players, spec.default_options(), seed)
    ais = [spec.make_policy("random", seed + p) for p in range(spec.min_players)]
    for _ in range(moves):
        actors = sorted(game.actors(state))
        if not actors or game.is_over(state):
            break
        nxt = game.apply(state, ais[actors[0]].choose(state, actors[0])).state
        if game.is_over(nxt):
            break
        state = nxt
    return state


def test_at_least_one_game_takes_newcomers_and_one_does_not() -> None:
    # without both sides the two tests below would pass by having nothing to check
    assert JOINING and CLOSED


@pytest.mark.parametrize("spec", CLOSED, ids=spec_id)
def test_a_game_without_newcomers_refuses_one_in_words_and_changes_nothing(spec: GameSpec) -> None:
    game = spec.load()
    for moves in (0, 40):
        state = mid_game(spec, moves)
        before = canonical(game.to_json(state))
        with pytest.raises(IllegalAction) as refused:
            game.join(state)
        assert refused.value.code == "no_joining"
        assert text_problem(refused.value.message, "the refusal") is None
        assert canonical(game.to_json(state)) == before
        run = LogReplay(game, state)
        with pytest.raises(IllegalAction):
            run.apply(join_entry(len(game.scores(state))))
        assert canonical(game.to_json(run.state)) == before


@pytest.mark.parametrize("spec", JOINING, ids=spec_id)
@pytest.mark.parametrize("join_at", [1, 60])
def test_a_newcomer_joins_replays_and_sees_only_their_own_hand(spec: GameSpec, join_at: int) -> None:
    run = random_playout(spec, spec.min_players, seed=join_at, join_at=join_at)
    assert run.problems == [], "\n".join(run.problems)
    assert run.joined_at >= join_at, "the game never took the newcomer"
    assert run.players == spec.min_players + 1


@pytest.mark.parametrize("spec", JOINING, ids=spec_id)
def test_a_join_entry_for_another_seat_than_the_next_is_refused(spec: GameSpec) -> None:
    game = spec.load()
    state = mid_game(spec, 60)
    seats = len(game.scores(state))
    game.join(state)  # the game takes a newcomer here: only the seat number is wrong below
    run = LogReplay(game, state)
    with pytest.raises(IllegalAction):
        run.apply(join_entry(seats + 1))
    assert canonical(game.to_json(run.state)) == canonical(game.to_json(state))


@pytest.mark.parametrize("spec", JOINING, ids=spec_id)
def test_a_full_table_refuses_a_newcomer_in_words(spec: GameSpec) -> None:
    game = spec.load()
    state = game.setup(spec.max_players, spec.default_options(), 5)
    ais = [spec.make_policy("random", p) for p in range(spec.max_players)]
    for _ in range(80):  # through the preparation and into play: refused all along
        with pytest.raises(IllegalAction) as refused:
            game.join(state)
        assert text_problem(refused.value.message, "the refusal") is None
        actors = sorted(game.actors(state))
        if not actors:
            break
        state = game.apply(state, ais[actors[0]].choose(state, actors[0])).state


@pytest.mark.slow
@pytest.mark.parametrize("spec", JOINING, ids=spec_id)
@pytest.mark.parametrize("seed", range(30, 36))
def test_newcomers_join_random_playouts_at_many_points(spec: GameSpec, seed: int) -> None:
    players = spec.min_players + seed % (spec.max_players - spec.min_players)
    run = random_playout(spec, players, seed=seed, join_at=1 + 37 * (seed - 30))
    assert run.problems == [], "\n".join(run.problems)
    assert run.joined_at
