"""Random playouts of whole classic games with invariants checked after every action.

200 games over 3 to 6 players and all 16 combinations of the four advanced
options. After every action: the state round-trips through JSON, no component
limit is exceeded, lands hold one army (three figures with the option), scores
never go down, legal actions exist until the end, and no player's view changes
when the information hidden from that player is changed. At the end (and at a
midpoint) replaying the action log from the seed rebuilds the state exactly.
"""

from __future__ import annotations

import itertools
import json
from collections import Counter
from dataclasses import dataclass

import pytest

from engine import rng
from engine.core import Action, replay
from engine.history.game import GAME
from engine.history.spec import SPEC
from engine.history.state import HistoryState

OPTION_NAMES = [o.name for o in SPEC.options]
OPTION_SETS = [dict(zip(OPTION_NAMES, bits, strict=True))
               for bits in itertools.product([False, True], repeat=4)]
CASES = [(seed, 3 + seed % 4, OPTION_SETS[seed % 16]) for seed in range(200)]


@dataclass
class Chooser:
    """The playouts' own seeded choice of a legal action (independent of the game's dice)."""

    seed: int
    rng_counter: int = 0

    def pick(self, actions: list[Action]) -> Action:
        # End steps less eagerly than a uniform pick would, so games reach full boards.
        weights = [1 if a.kind in ("end_turn", "done") else 4 for a in actions]
        ticket = rng.below(self, sum(weights))
        for action, weight in zip(actions, weights, strict=True):
            if ticket < weight:
                return action
            ticket -= weight
        raise AssertionError("unreachable")


def check_components(state: HistoryState) -> None:
    rules = GAME.rules
    per_piece: Counter[tuple[int, int]] = Counter()
    for land, stack in state.armies.items():
        assert stack, f"empty stack left in {land}"
        assert not rules.map.lands[land].barren, f"army in barren land {land}"
        assert len({a[0] for a in stack}) == 1, f"two colours in {land}"
        figures = len(stack) + (1 if land in state.forts else 0)
        if state.options["multiple_armies"]:
            assert figures <= 3, f"{figures} figures in {land}"
        else:
            assert len(stack) == 1, f"{len(stack)} armies in {land}"
        for army in stack:
            per_piece[(army[0], army[1])] += 1
    for army in state.manned.values():
        per_piece[(army[0], army[1])] += 1
    turn = state.turn
    if turn is not None:
        per_piece[(turn.player, turn.force.piece_epoch)] += turn.force.pool + turn.force.restricted
    for (player, epoch), count in per_piece.items():
        limit = rules.armies_per_epoch[epoch - 1]
        assert count <= limit, f"player {player} uses {count} epoch {epoch} pieces"
    assert len(state.structures) <= rules.capitals_cities
    assert len(state.forts) + (turn.free_forts if turn else 0) <= rules.forts
    assert len(state.forts) == len(set(state.forts))
    assert set(state.forts) <= set(state.armies), "a fort stands without an army"
    assert len(state.monuments) == len(set(state.monuments)) <= rules.monuments
    markers = len(state.manned)
    if turn is not None:
        markers += turn.coins + turn.allies_coins + sum(1 for w in turn.force.fleets if w not in state.manned)
    assert markers <= rules.fleets_coins
    assert all(land in rules.map.lands for land in state.structures)


def hide_from(state: HistoryState, viewer: int) -> HistoryState:
    """A copy of ``state`` with everything ``viewer`` may not see changed."""
    other = state.clone()
    for p in range(other.players):
        if p != viewer:
            other.hands[p] = sorted("disaster" if card == "leader" else "leader" for card in other.hands[p])
    if other.phase != "over":
        other.markers = [[9] * len(m) for m in other.markers]
    other.marker_pile = [1] * len(other.marker_pile)
    other.deck = list(reversed(other.deck))
    keys = [e.key for e in GAME.rules.epochs[other.epoch]]
    if other.phase == "draw":
        if other.drawn is not None and other.draw_order[other.draw_pos] != viewer:
            other.drawn = keys[-1] if other.drawn != keys[-1] else keys[0]
        for p in range(other.players):
            visible = (p == viewer and other.given_by[p] is None) or other.given_by[p] == viewer
            if other.holding[p] is not None and not visible:
                other.holding[p] = keys[0] if other.holding[p] != keys[0] else keys[1]
    elif other.phase == "turn":
        started = {key for played in other.played_empires for key in played}
        for p in range(other.players):
            if p != viewer and other.holding[p] not in started:
                other.holding[p] = "hidden-from-view"
    return other


def play_checked(seed: int, players: int, options: dict[str, bool]) -> None:
    state = GAME.setup(players, options, seed)
    chooser = Chooser(seed ^ 0x5EED)
    log: list[Action] = []
    midpoint: tuple[int, HistoryState] | None = None
    previous = list(state.scores)
    while not GAME.is_over(state):
        actors = sorted(GAME.actors(state))
        assert actors, "nobody may act but the game is not over"
        actions = GAME.legal_actions(state, actors[0])
        assert actions, f"no legal action at step {state.turn and state.turn.step}"
        action = chooser.pick(actions)
        state = GAME.apply(state, action).state
        log.append(action)
        assert HistoryState.from_json(json.loads(json.dumps(state.to_json()))) == state
        check_components(state)
        assert all(now >= before for now, before in zip(state.scores, previous, strict=True))
        previous = list(state.scores)
        viewer = len(log) % players
        assert GAME.view(state, viewer) == GAME.view(hide_from(state, viewer), viewer)
        if len(log) == 150:
            midpoint = (len(log), state)
        assert len(log) < 5000, "game does not end"
    assert GAME.scores(state) == state.final
    assert sorted(GAME.ranking(state)) == list(range(players))
    assert replay(GAME, players, options, seed, log) == state
    if midpoint is not None:
        assert replay(GAME, players, options, seed, log[: midpoint[0]]) == midpoint[1]
    decoded = [GAME.codec.decode(json.loads(json.dumps(a.to_json()))) for a in log]
    assert decoded == log


@pytest.mark.parametrize(("seed", "players", "options"), CASES, ids=[f"seed{c[0]}-p{c[1]}" for c in CASES])
def test_random_playout(seed: int, players: int, options: dict[str, bool]) -> None:
    play_checked(seed, players, options)
