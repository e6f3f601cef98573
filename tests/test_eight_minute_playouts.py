"""Random playouts of whole Eight-Minute Empire games with invariants checked after every action.

512 games: 2 to 5 players crossed with all 8 combinations of the three
options (Full Game, Goods Tokens, a youngest player named or not: tied bids
then roll a die). After every
action: the state round-trips through JSON, component limits hold (14
armies and 3 cities a player, 10 neutral armies, the six-card row, every
card in exactly one place, coins never below zero), legal actions exist
until the end, and no bid is visible to anyone but its bidder before all
have bid (nor the deck's order to anyone): a viewer's view does not change
when what is hidden from that viewer is changed. The "skip" policy's move is
always legal, and the decision (at powers of two) offers exactly the legal moves. At the end (and at a
midpoint) replaying the action log from the seed rebuilds the state exactly.

A last test plays greedy against random players and expects greedy to win
most games.
"""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass
from typing import Any

import pytest

from engine import rng
from engine.core import PUBLIC, Action, decide, replay
from engine.eight_minute.game import GAME
from engine.eight_minute.state import EMState

DATA = GAME.data
OPTION_SETS = list(itertools.product([False, True], repeat=3))  # full game, goods tokens, youngest named
CASES = [
    (seed, players, {"full_game": full, "goods_tokens": tokens,
                     "youngest": seed % players + 1 if young else 0})
    for seed in range(512)
    for players in [2 + seed % 4]
    for full, tokens, young in [OPTION_SETS[(seed // 4) % 8]]
]


@dataclass
class Chooser:
    """The playouts' own seeded pick of a legal action (independent of the game's randomness)."""

    seed: int
    rng_counter: int = 0

    def pick(self, actions: list[Action]) -> Action:
        return actions[rng.below(self, len(actions))]


def check_components(state: EMState) -> None:
    n = state.players
    for counts in (*state.armies.values(), *state.cities.values()):
        assert len(counts) == n and min(counts) >= 0 and any(counts), "bad or empty count entry"
    for seat in range(n):
        assert state.armies_on_board(seat) <= DATA.armies_per_player
        assert state.cities_on_board(seat) <= DATA.cities_per_player
        assert state.coins[seat] >= 0
        assert len(state.hands[seat]) <= DATA.end_cards[n]
    assert all(v > 0 for v in state.neutral.values())
    assert sum(state.neutral.values()) + state.neutral_left <= (DATA.neutral_armies if n == 2 else 0)
    assert len(state.row) <= DATA.face_up
    in_play = sorted(c.id for c in DATA.cards.values() if n == 5 or not c.five)
    held = [c for hand in state.hands for c in hand]
    assert sorted(state.row + state.deck + held) == in_play, "a card is lost or doubled"
    assert set(state.armies) | set(state.cities) | set(state.neutral) <= set(DATA.regions)


def hide_from(state: EMState, viewer: int) -> EMState:
    """A copy of ``state`` with everything ``viewer`` may not see changed."""
    other = state.clone()
    if other.phase == "bid":
        other.bids = [
            b if p == viewer or b is None else (b + 1) % (other.coins[p] + 1)
            for p, b in enumerate(other.bids)
        ]
    other.deck = list(reversed(other.deck))
    return other


def play_checked(seed: int, players: int, options: dict[str, Any]) -> None:
    state = GAME.setup(players, options, seed)
    chooser = Chooser(seed ^ 0x5EED)
    log: list[Action] = []
    midpoint: tuple[int, EMState] | None = None
    while not GAME.is_over(state):
        actors = sorted(GAME.actors(state))
        assert actors, "nobody may act but the game is not over"
        if state.phase == "bid":
            assert actors == [p for p in range(players) if state.bids[p] is None]
        # Simultaneous bidders: any of them may move; take them in a seeded order.
        player = actors[rng.below(chooser, len(actors))]
        actions = list(GAME.legal_actions(state, player))
        assert actions, f"no legal action in phase {state.phase}"
        assert GAME.timeout_action(state, player) in actions, "the skip policy's move is legal"
        if len(log) & (len(log) - 1) == 0:  # at powers of two: the decision offers exactly the legal moves
            decision = decide(GAME, state, player)
            assert decision is not None and [c.action for c in decision.choices] == actions
        action = chooser.pick(actions)
        result = GAME.apply(state, action)
        for event in result.events:
            if event.type == "your_bid":
                assert event.audience == (action.player,)
            if event.audience == PUBLIC and state.phase == "bid" and event.type != "bids_revealed":
                assert "amount" not in event.data
        state = result.state
        log.append(action)
        assert EMState.from_json(json.loads(json.dumps(state.to_json()))) == state
        assert json.loads(state.dumps()) == state.to_json()
        check_components(state)
        if state.phase == "bid" or len(log) % 7 == 0:
            viewer = len(log) % players
            view = GAME.view(state, viewer)
            assert view == GAME.view(hide_from(state, viewer), viewer)
            assert json.loads(json.dumps(view)) == view  # JSON-native
            if state.phase == "bid":
                spectator = GAME.view(state, None)
                assert spectator["bid"]["bids"] is None and spectator["you"] is None
        if len(log) == 60:
            midpoint = (len(log), state)
        assert len(log) < 3000, "game does not end"
    assert GAME.actors(state) == frozenset()
    assert [len(h) for h in state.hands] == [DATA.end_cards[players]] * players
    assert GAME.scores(state) == state.final
    assert sorted(GAME.ranking(state)) == list(range(players))
    assert state.game_no == (3 if options["full_game"] else 1)
    assert replay(GAME, players, options, seed, log) == state
    if midpoint is not None:
        assert replay(GAME, players, options, seed, log[: midpoint[0]]) == midpoint[1]
    decoded = [GAME.codec.decode(json.loads(json.dumps(a.to_json()))) for a in log]
    assert decoded == log


@pytest.mark.parametrize(("seed", "players", "options"), CASES,
                         ids=[f"seed{c[0]}-p{c[1]}-{''.join(str(int(v)) for v in c[2].values())}"
                              for c in CASES])
def test_random_playout(seed: int, players: int, options: dict[str, Any]) -> None:
    play_checked(seed, players, options)
