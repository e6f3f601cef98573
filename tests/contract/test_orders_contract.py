"""Every registered game's standing orders (:meth:`engine.core.Game.orders`), selected by the spec's
``standing_orders`` facet, never by a game's id.

A game with the facet offers each seat, at sampled states of random play, a decision of moves it may
send at any time: each choice one of that seat's moves, of a kind the spec lists in ``anytime_kinds``
(so the service takes it whoever acts), accepted by the rules as offered, labelled like every choice
(unique, at most 100 characters), and the same whatever another seat holds (it is built from the seat's
own view). Some seat must be offered an order somewhere, or the facet claims what the game never shows.
A game without the facet offers none, to any seat, at any state.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

import tests.toy.spec  # noqa: F401  (the toy game has no standing orders: the second test reads it)
from engine import registry
from engine.core import Decision, IllegalAction
from engine.spec import GameSpec

SPECS = registry.specs()
ORDERING = [s for s in SPECS if s.standing_orders]
OTHERS = [s for s in SPECS if not s.standing_orders]
SEEDS = (1, 2)
LIMIT = 600  # moves per playout: the games deal hands and put pieces on the board well before
SAMPLE_EVERY = 25
TRIED = 12  # choices of one decision applied to the state (a decision may hold hundreds of area pairs)


def spec_id(value: object) -> str:
    return value.id if isinstance(value, GameSpec) else str(value)


def sampled(spec: GameSpec) -> Iterator[Any]:
    """Every :data:`SAMPLE_EVERY`-th state of random play at the most seats, from each seed."""
    game = spec.load()
    for seed in SEEDS:
        state = game.setup(spec.max_players, spec.default_options(), seed)
        ais = [spec.make_policy("random", seed * 11 + p) for p in range(spec.max_players)]
        pick = random.Random(seed)
        for step in range(LIMIT):
            if game.is_over(state):
                break
            if step % SAMPLE_EVERY == 0:
                yield state
            player = pick.choice(sorted(game.actors(state)))
            state = game.apply(state, ais[player].choose(state, player)).state


def names_of(spec: GameSpec) -> list[str]:
    return spec.seat_names([f"p{seat}" for seat in range(spec.max_players)])


@pytest.mark.parametrize("spec", ORDERING, ids=spec_id)
def test_orders_are_the_seats_own_anytime_moves_taken_as_offered_and_worded_from_its_view(
        spec: GameSpec) -> None:
    game, names = spec.load(), names_of(spec)
    offered = 0
    for state in sampled(spec):
        for seat in range(spec.max_players):
            decision = game.orders(game.view(state, seat), seat, names)
            assert isinstance(decision, Decision) and decision.player == seat and decision.heading
            labels = [c.label for c in decision.choices]
            assert len(set(labels)) == len(labels), labels
            groups = [c.group for c in decision.choices if c.group]
            assert all(0 < len(label) <= 100 for label in labels + groups), labels
            for choice in decision.choices:
                assert choice.action.player == seat and choice.action.kind in spec.anytime_kinds, choice
            for choice in decision.choices[:TRIED]:
                try:
                    game.apply(state, choice.action)
                except IllegalAction as exc:  # pragma: no cover - the failure names the choice
                    raise AssertionError(f"{choice.label!r} was offered but refused: {exc.message}") from exc
            offered += len(decision.choices)
            for other in range(spec.max_players):
                for variant in game.private_variants(state, other)[:1] if other != seat else ():
                    assert game.orders(game.view(variant, seat), seat, names) == decision, \
                        f"seat {seat}'s orders show what seat {other} holds"
    assert offered, f"{spec.title} declares standing orders, but random play never offered a seat one"


@pytest.mark.parametrize("spec", OTHERS, ids=spec_id)
def test_a_game_without_the_facet_offers_no_orders(spec: GameSpec) -> None:
    game, names = spec.load(), names_of(spec)
    for state in sampled(spec):
        assert [game.orders(game.view(state, seat), seat, names) for seat in range(spec.max_players)] == \
            [None] * spec.max_players
