"""Random playouts of whole 5-epoch games (ruleset ``history``) with invariants after every action.

200 games over 3 to 6 players (16 in the fast suite, the rest with
``pytest -m slow``), one in four with the optional classic drafting, a few
with a greedy player, and now and then a standing preference sent by a
player who is not acting. After every action: the state round-trips through
JSON, no component limit is exceeded (25 armies a player counting the card and
the catapult, 24 capitols/cities, 20 monuments, 14 forts), a territory holds
one army and never a barren land, forts stand only with an army, no two score
markers share a track space, scores never go down, legal actions exist until
the end, and no player's view changes when the information hidden from that
player is changed. At the end (and at a midpoint) replaying the action log
from the seed rebuilds the state exactly.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import pytest

from engine import rng
from engine.core import Action, replay
from engine.history.epochs5.actions import Prefer
from engine.history.epochs5.ai import GreedyPolicy
from engine.history.epochs5.game import GAME
from engine.history.epochs5.state import State

FAST = 16
CASES = [
    pytest.param(seed, 3 + seed % 4, seed % 4 == 1, id=f"seed{seed}-p{3 + seed % 4}",
                 marks=() if seed < FAST else pytest.mark.slow)
    for seed in range(200)
]


@dataclass
class Chooser:
    """The playouts' own seeded choice of a legal action."""

    seed: int
    rng_counter: int = 0

    def pick(self, actions: list[Action]) -> Action:
        # Stop less eagerly than a uniform pick would, so boards fill up.
        weights = [1 if a.kind in ("stop", "done", "retreat") else 4 for a in actions]
        ticket = rng.below(self, sum(weights))
        for action, weight in zip(actions, weights, strict=True):
            if ticket < weight:
                return action
            ticket -= weight
        raise AssertionError("unreachable")


def check_components(state: State) -> None:
    rules = GAME.rules
    for land, army in state.armies.items():
        assert not rules.map.lands[land].barren, f"army in barren land {land}"
        assert 0 <= army[0] < state.players
    for player in range(state.players):
        assert state.supply(player, rules.armies_per_player) >= 0, f"player {player} uses over 25 armies"
    assert len(state.structures) <= rules.structures
    assert len(state.monuments) == len(set(state.monuments)) <= rules.monuments
    assert len(state.forts) == len(set(state.forts)) <= rules.forts
    assert set(state.forts) <= set(state.armies), "a fort stands without an army"
    assert len({s % 100 for s in state.scores}) == state.players, "two markers share a space"
    turn = state.turn
    if turn is not None:
        assert turn.pool >= 0 and turn.siege_tokens >= 0 and 0 <= turn.catapult_armies <= 3
        active = {a[1] for a in state.armies.values() if a[1]}
        assert active <= {turn.force}, "armies of two forces are active"


def hide_from(state: State, viewer: int) -> State:
    """A copy of ``state`` with everything ``viewer`` may not see changed."""
    other = state.clone()
    all_events = sorted(GAME.rules.events)
    for p in range(other.players):
        if p != viewer:
            other.hands[p] = [all_events[(all_events.index(c) + 1) % len(all_events)] for c in other.hands[p]]
    other.event_piles = {k: [*reversed(v), "x"] for k, v in other.event_piles.items()}
    other.empire_piles = {k: ["y", *v[1:]] for k, v in other.empire_piles.items()}
    if other.phase == "draft":
        ev = other.draft_order[other.draft_step]
        em = other.draft_order[-1 - other.draft_step]
        if ev != viewer:
            other.event_set = ["hidden"] * len(other.event_set)
            if "event" in other.drawn:
                other.drawn["event"] = "hidden"
        if em != viewer:
            other.empire_set = ["hidden"] * len(other.empire_set)
            if "empire" in other.drawn:
                other.drawn["empire"] = "hidden"
    for p in range(other.players):
        if p != viewer and not other.revealed[p] and other.empire_of[p] is not None:
            other.empire_of[p] = "hidden-from-view"
    return other


def play_checked(seed: int, players: int, classic: bool) -> None:
    options = {"classic_drafting": classic}
    state = GAME.setup(players, options, seed)
    chooser = Chooser(seed ^ 0x5EED)
    greedy = GreedyPolicy(seed) if seed % 10 == 3 else None
    log: list[Action] = []
    midpoint: tuple[int, State] | None = None
    previous = list(state.scores)
    while not GAME.is_over(state):
        actors = sorted(GAME.actors(state))
        assert actors, "nobody may act but the game is not over"
        actor = actors[rng.below(chooser, len(actors))]
        actions = GAME.legal_actions(state, actor)
        assert actions, f"no legal action at step {state.turn and state.turn.step}"
        if rng.below(chooser, 40) == 0:
            bystander = rng.below(chooser, players)
            key, values = (
                ("reroll", ("if_losing", "if_not_winning", "never"))
                if len(log) % 2
                else ("track", ("ask", "up", "down"))
            )
            action: Action = Prefer(bystander, key, values[rng.below(chooser, 3)])
        elif greedy is not None and actor == 0:
            action = greedy.choose(state, actor)
            assert action in actions
        else:
            action = chooser.pick(actions)
        state = GAME.apply(state, action).state
        log.append(action)
        assert State.from_json(json.loads(json.dumps(state.to_json()))) == state
        assert json.loads(GAME.dumps(state)) == state.to_json()
        check_components(state)
        assert all(now >= before for now, before in zip(state.scores, previous, strict=True))
        previous = list(state.scores)
        viewer = len(log) % players
        assert GAME.view(state, viewer) == GAME.view(hide_from(state, viewer), viewer)
        if len(log) == 60:
            midpoint = (len(log), state)
        assert len(log) < 3000, "game does not end"
    assert state.epoch == 5 and state.turn is None
    assert sorted(GAME.ranking(state)) == list(range(players))
    assert replay(GAME, players, options, seed, log) == state
    if midpoint is not None:
        assert replay(GAME, players, options, seed, log[: midpoint[0]]) == midpoint[1]
    decoded = [GAME.codec.decode(json.loads(json.dumps(a.to_json()))) for a in log]
    assert decoded == log


@pytest.mark.parametrize(("seed", "players", "classic"), CASES)
def test_random_playout(seed: int, players: int, classic: bool) -> None:
    play_checked(seed, players, classic)


def test_every_empire_and_event_card_is_played_somewhere() -> None:
    """Across seeds, every empire is called and every kind of event resolves without error."""
    called: set[str] = set()
    played: set[str] = set()
    for seed in range(40):
        state = GAME.setup(6, {}, 1000 + seed)
        chooser = Chooser(seed)
        while not GAME.is_over(state):
            actor = min(GAME.actors(state))
            actions = GAME.legal_actions(state, actor)
            plays = [a for a in actions if a.kind == "play"]
            state = GAME.apply(state, plays[0] if plays else chooser.pick(actions)).state
            if state.turn is not None:
                called.add(state.turn.empire)
                played.update(state.turn.played)
    assert called == {e.key for listed in GAME.rules.epochs.values() for e in listed}
    effects = {GAME.rules.events[c].effect for c in played}
    assert effects == {c.effect for c in GAME.rules.events.values()}
