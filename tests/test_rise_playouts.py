"""Random playouts of whole Rise of Empires games with invariants checked along the way.

300 games over 2 to 5 players: the first 12 in the fast suite, the rest with
``pytest -m slow``. After every action every component stays
within its limits (30 cubes per player, the food track, no negative stocks,
every tile in exactly one place, discs on the display) and exactly one
player acts with a legal action to take. The state round-trips through JSON
after every third action, and a player's view is unchanged when the
face-down tiles hidden from everyone are rearranged after every tenth; the
first 6 games check both after every action. At the end (and, in every
tenth game, at a midpoint) replaying the action log from the seed rebuilds
the state exactly, and the log survives the JSON codec. Then greedy AI
players beat random ones.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass

import pytest

from engine import rng
from engine.core import Action, replay
from engine.registry import get_game
from engine.rise.data import ROWS
from engine.rise.game import GAME
from engine.rise.state import EMPTY, RiseState

DATA = GAME.data
ALL_TILES = sorted([*DATA.progress, *DATA.territory, *DATA.cities])
CASES = [(seed, 2 + seed % 4) for seed in range(300)]
FAST = 12


@dataclass
class Chooser:
    """The playouts' own seeded choice of a legal action (independent of the game's randomness)."""

    seed: int
    rng_counter: int = 0

    def pick(self, actions: list[Action]) -> Action:
        # Stop placing and skip less eagerly than a uniform pick would, so maps fill up.
        weights = [1 if a.kind in ("stop", "skip") else 3 for a in actions]
        ticket = rng.below(self, sum(weights))
        for action, weight in zip(actions, weights, strict=True):
            if ticket < weight:
                return action
            ticket -= weight
        raise AssertionError("unreachable")


def check_components(s: RiseState) -> None:
    for p in range(s.players):
        assert s.pool[p] + s.stock[p] + s.on_map(p) == DATA.pool + DATA.stock, f"player {p} cube count"
        assert min(s.pool[p], s.stock[p], s.gold[p], s.resources[p], s.vp[p]) >= 0
        assert 0 <= s.food[p] <= DATA.food_max
        names = [DATA.progress[t].name for t in s.progress[p]]
        assert len(names) == len(set(names)), "duplicate progress tile"
    for region, counts in s.cubes.items():
        assert any(counts) and min(counts) >= 0, region
        reg = DATA.regions[region]
        assert reg.era <= s.era, f"cube in {region} in era {s.era}"
    places = sorted([
        *(t for box in s.progress_boxes + s.territory_boxes + s.city_boxes for t in box),
        *s.open_progress, *s.open_territory, *s.open_city, *s.retired,
        *(t for hand in s.progress + s.territory + s.cities for t in hand),
    ])
    assert places == ALL_TILES, "a tile is lost or in two places"
    held = [e for hand in s.empires for e in hand]
    assert sorted(held + s.open_empires) == sorted(DATA.empires)
    assert all(len(s.empires[p]) <= DATA.actions_per_turn for p in range(s.players))
    discs = Counter(c for row in ROWS for c in s.display[row] if c != EMPTY)
    for p in range(s.players):
        assert discs[p] <= DATA.actions_per_turn
    for row in ROWS:
        assert len(s.display[row]) == DATA.row_circles(row, s.players)
    assert set(s.trade_used) <= set(DATA.trade)
    assert sorted(s.order) == list(range(s.players))


def hide_from(s: RiseState) -> RiseState:
    """A copy with the face-down tiles (hidden from every player) rearranged."""
    other = s.clone()
    for boxes in (other.progress_boxes, other.territory_boxes, other.city_boxes):
        for box in boxes:
            box.reverse()
        same = [b for b in boxes if len(b) == len(boxes[0])]
        if len(same) > 1:
            same[0][:], same[1][:] = same[1][:], same[0][:]
    return other


def play_checked(seed: int, players: int) -> None:
    state = GAME.setup(players, {}, seed)
    chooser = Chooser(seed ^ 0x5EED)
    log: list[Action] = []
    midpoint: RiseState | None = None
    deep = seed < 6
    while not GAME.is_over(state):
        actors = sorted(GAME.actors(state))
        assert len(actors) == 1, "exactly one player acts at a time"
        actions = GAME.legal_actions(state, actors[0])
        assert actions, f"no legal action in phase {state.phase}"
        action = chooser.pick(list(actions))
        state = GAME.apply(state, action).state
        log.append(action)
        check_components(state)
        if deep or len(log) % 3 == 0:
            assert RiseState.from_json(json.loads(state.dumps())) == state
        if deep or len(log) % 10 == 0:
            viewer = len(log) % players
            assert GAME.view(state, viewer) == GAME.view(hide_from(state), viewer)
        if len(log) == 200 and seed % 10 == 0:
            midpoint = state
        assert len(log) < 5000, "game does not end"
    assert state.turn == DATA.turns and state.final == GAME.scores(state)
    assert sorted(GAME.ranking(state)) == list(range(players))
    assert replay(GAME, players, {}, seed, log) == state
    if midpoint is not None:
        assert replay(GAME, players, {}, seed, log[:200]) == midpoint
    decoded = [GAME.codec.decode(json.loads(json.dumps(a.to_json()))) for a in log]
    assert decoded == log


@pytest.mark.parametrize(("seed", "players"), CASES[:FAST], ids=[f"seed{c[0]}-p{c[1]}" for c in CASES[:FAST]])
def test_random_playout(seed: int, players: int) -> None:
    play_checked(seed, players)


@pytest.mark.slow
@pytest.mark.parametrize(("seed", "players"), CASES[FAST:], ids=[f"seed{c[0]}-p{c[1]}" for c in CASES[FAST:]])
def test_random_playout_sweep(seed: int, players: int) -> None:
    play_checked(seed, players)


def test_registered_and_json_view() -> None:
    game = get_game("rise")
    assert game is GAME
    state = GAME.setup(4, {}, 3)
    view = GAME.view(state, 0)
    assert json.loads(json.dumps(view)) == view
    assert view["you"] == {"player": 0} and GAME.view(state, None)["you"] is None
    text = json.dumps(view)
    hidden = [t for boxes in (state.progress_boxes, state.territory_boxes, state.city_boxes)
              for box in boxes for t in box]
    assert len(hidden) == 48 + 40 + 36 - 8 - 10 - 5
    assert not [t for t in hidden if f'"{t}"' in text], "a face-down tile shows in the view"
    assert all(f'"{t}"' in text for t in state.open_progress + state.open_territory + state.open_city)
