"""Every registered game names its seats apart, through the contract only (issue 29): no game is named here.

The platform names a seat "person (Colour)", the colour being the one the game says the seat goes by now
(:meth:`engine.core.Game.seat_colours`, read from a spectator's view) or else the spec's. Over a playout
with the same person at every seat (as a table of AI seats has), no two seats ever share a name, every
reader's view gives the same colours (a seat's colour is public), and no colour a seat goes by at any
point is another seat's at any other point: a line read later with today's names never names a seat by
a colour another seat held. The ``chosen_colours`` facet is checked both ways: declared, some seat goes
by a colour it took; not declared, every seat keeps the spec's word.
"""

from __future__ import annotations

import pytest

import tests.toy.spec  # noqa: F401  (the test-only game registers itself and keeps the contract too)
from engine import registry
from engine.spec import GameSpec

SPECS = registry.specs()
STEPS = 400  # colours are chosen while the game is prepared: a few hundred moves pass well beyond
EVERY_VIEW = 16  # how often each seat's own view is compared with the spectator's


@pytest.mark.parametrize("spec", SPECS, ids=[s.id for s in SPECS])
def test_no_two_seats_ever_share_a_name_or_a_colour(spec: GameSpec) -> None:
    game = spec.load()
    players = spec.max_players
    state = game.setup(players, spec.default_options(), 1)
    ais = [spec.make_policy("random", 11 + p) for p in range(players)]
    held: list[set[str]] = [set() for _ in range(players)]
    for step in range(STEPS):
        colours = game.seat_colours(game.view(state, None))
        names = spec.seat_names(["random AI"] * players, colours)
        assert len(set(names)) == players, f"step {step}: two seats share a name: {names}"
        if step % EVERY_VIEW == 0:
            for seat in range(players):
                assert game.seat_colours(game.view(state, seat)) == colours, (step, seat)
        for seat in range(players):
            held[seat].add(spec.colour(seat, colours))
        if game.is_over(state):
            break
        actors = sorted(game.actors(state))
        player = actors[step % len(actors)]
        state = game.apply(state, ais[player].choose(state, player)).state
    chose = any(len(words) > 1 for words in held)  # a seat went by two words: it took a colour in play
    assert chose == spec.chosen_colours, f"chosen_colours is {spec.chosen_colours}; play shows {chose}"
    for seat in range(players):
        for other in range(seat + 1, players):
            shared = held[seat] & held[other]
            assert not shared, f"seats {seat} and {other} both went by {sorted(shared)}"
