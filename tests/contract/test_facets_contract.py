"""Every registered game's facets (:class:`engine.spec.GameSpec`) say what its play shows, both ways.

The contract suite selects its tests by facet, never by game: a facet declared true must show in play,
and one declared false must not show in the same play, so a spec cannot claim what its game does not
do, nor hide what it does. ``joins_in_progress`` is checked by tests/contract/test_join_contract.py and
``named_places`` by tests/contract/test_place_contract.py.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

import pytest

import tests.toy.spec  # noqa: F401  (the toy game declares its facets too)
from bot.clock import FakeClock
from bot.service import GameService
from bot.store import Store
from engine import registry
from engine.core import PUBLIC
from engine.spec import GameSpec

SPECS = registry.specs()
SEEDS = (1, 2)
LIMIT = 1_500  # moves per playout: every game deals its secrets and holds its sealed steps well before
SAMPLE_EVERY = 5  # private variants are asked at every fifth state (each costs a copy per seat)
HUMAN_MOVES = 300  # moves a person makes against the AI before a take-back must have been offered
PERSON = 1


def spec_id(value: object) -> str:
    return value.id if isinstance(value, GameSpec) else str(value)


@dataclass
class Seen:
    """What random playouts showed of a game's facets."""

    most_actors: int = 0  # the most seats one state asked at once
    told_privately: int = 0  # events with an audience short of everyone
    varied: int = 0  # sampled (state, seat) pairs with a private variant


def survey(spec: GameSpec) -> Seen:
    """Random players at the most seats, from each seed to the end or :data:`LIMIT` moves."""
    game = spec.load()
    seen = Seen()
    players = spec.max_players
    for seed in SEEDS:
        state = game.setup(players, spec.default_options(), seed)
        ais = [spec.make_policy("random", seed * 7 + p) for p in range(players)]
        pick = random.Random(seed)
        for step in range(LIMIT):
            if game.is_over(state):
                break
            actors = game.actors(state)
            seen.most_actors = max(seen.most_actors, len(actors))
            if step % SAMPLE_EVERY == 0:
                seen.varied += sum(bool(game.private_variants(state, seat)) for seat in range(players))
            player = pick.choice(sorted(actors))
            result = game.apply(state, ais[player].choose(state, player))
            seen.told_privately += sum(e.audience != PUBLIC for e in result.events)
            state = result.state
    return seen


@pytest.fixture(scope="module")
def surveys() -> dict[str, Seen]:
    return {}


def surveyed(spec: GameSpec, cache: dict[str, Seen]) -> Seen:
    if spec.id not in cache:  # the key of a cache, not a selection: every game is surveyed alike
        cache[spec.id] = survey(spec)
    return cache[spec.id]


@pytest.mark.parametrize("spec", SPECS, ids=spec_id)
def test_simultaneous_steps_are_declared_exactly_when_seats_act_at_once(
        spec: GameSpec, surveys: dict[str, Seen]) -> None:
    seen = surveyed(spec, surveys)
    if spec.simultaneous_steps:
        assert seen.most_actors >= 2, f"{spec.title} declares simultaneous steps, yet one seat acts at a time"
    else:
        assert seen.most_actors == 1, (f"{spec.title} asks {seen.most_actors} seats at once; its spec must "
                                       "declare simultaneous_steps")


@pytest.mark.parametrize("spec", SPECS, ids=spec_id)
def test_hidden_information_is_declared_exactly_when_a_seat_has_secrets(
        spec: GameSpec, surveys: dict[str, Seen]) -> None:
    seen = surveyed(spec, surveys)
    secrets = seen.told_privately + seen.varied
    if spec.hidden_information:
        assert secrets > 0, f"{spec.title} declares hidden information, yet no seat is ever told a secret"
    else:
        assert secrets == 0, (f"{spec.title} tells {seen.told_privately} events in private and varies "
                              f"{seen.varied} secrets; its spec must declare hidden_information")


async def takebacks_against_the_ai(spec: GameSpec, store: Store) -> int:
    """How many of a person's random moves against AI seats (the rest of the seats) could be taken
    back once the AI seats had answered them, until the first one or the game's end."""
    service = GameService(store, FakeClock(), id_factory=lambda: "g1", seed_factory=lambda: 5)
    await service.create_lobby(PERSON, "alice", spec.id)
    for _ in range(spec.min_players - 1):
        await service.add_ai("g1", PERSON)
    await service.start("g1", PERSON)
    game = spec.load()
    pick = random.Random(5)
    for _ in range(HUMAN_MOVES):
        status = await service.status("g1")
        if status.status != "active":
            return 0
        assert status.waiting_for == (PERSON,), "the AI seats did not answer the person's move"
        seat = next(s.seat for s in status.seats if s.user_id == PERSON)
        assert seat is not None
        seq, state = await service.engine_state("g1")
        move = pick.choice(list(game.legal_actions(state, seat)))
        await service.submit("g1", PERSON, move.to_json(), seq)
        if await service.can_undo("g1", PERSON):
            return 1
    raise AssertionError(f"{spec.title}: no game over and no move to take back after {HUMAN_MOVES} moves")


@pytest.mark.parametrize("spec", SPECS, ids=spec_id)
@pytest.mark.asyncio
async def test_a_move_against_the_ai_can_be_taken_back_exactly_when_declared(spec: GameSpec,
                                                                             tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "annals.sqlite3")  # the facet is the game's: one store will do
    try:
        found = await takebacks_against_the_ai(spec, store)
    finally:
        await store.close()
    if spec.undo_against_ai:
        assert found, f"{spec.title} declares undo against the AI, yet no move of a whole game could be"
    else:
        assert not found, f"{spec.title} let a move be taken back: its spec must declare undo_against_ai"
