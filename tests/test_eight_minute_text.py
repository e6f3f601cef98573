"""Words for Eight-Minute Empire: event sentences and action labels."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engine.core import Action, Event
from engine.eight_minute import text
from engine.eight_minute.actions import Bid, ChooseAction, ChooseFirst, Destroy, Done, Move, Place, TakeCard
from engine.eight_minute.data import load_data
from engine.eight_minute.game import GAME
from engine.eight_minute.state import NEUTRAL, EMState
from engine.registry import make_policy

ROOT = Path(__file__).resolve().parents[1]
DATA = load_data()

#: Seeded games covering every kind of moment: 2 players (neutral armies) with the goods
#: tokens and the die-roll tie-breaker, 3 players, 5 players over the three-game Full Game.
GAMES = [
    (2, {"goods_tokens": True, "die_roll_tiebreak": True}, 4, "greedy"),
    (2, {"die_roll_tiebreak": True}, 8, "random"),
    (3, {}, 2, "random"),
    (5, {"full_game": True, "goods_tokens": True}, 6, "greedy"),
]


def playout(players: int, options: dict[str, bool], seed: int, policy: str) -> Iterator[
        tuple[EMState, int, list[Action], tuple[Event, ...]]]:
    """Each step of a seeded AI game: the state before, who acts, the legal actions, the events after."""
    state = GAME.setup(players, options, seed)
    ais = [make_policy("eight-minute", policy, seed * 7 + p) for p in range(players)]
    while not GAME.is_over(state):
        player = min(GAME.actors(state))
        legal = GAME.legal_actions(state, player)
        result = GAME.apply(state, ais[player].choose(state, player))
        yield state, player, legal, result.events
        state = result.state


@pytest.fixture(scope="module")
def steps() -> list[tuple[EMState, int, list[Action], tuple[Event, ...]]]:
    return [step for game in GAMES for step in playout(*game)]


def test_event_types_match_what_the_engine_emits() -> None:
    source = (ROOT / "engine" / "eight_minute" / "flow.py").read_text(encoding="utf-8")
    emitted = set(re.findall(r'ctx\.emit\(\s*"([a-z_]+)"', source))
    assert emitted, "found the engine's events"
    assert emitted == set(text.EVENT_TYPES)


def test_every_event_of_seeded_playouts_is_described(steps: list[Any]) -> None:
    seen: set[str] = set()
    for _, _, _, events in steps:
        for event in events:
            line = text.describe_event(event)
            assert line and line.strip(), event
            assert "{" not in line and "None" not in line, line
            seen.add(event.type)
    # The playouts reach every event but the rare ones a seed may miss (a die roll-off,
    # an ignored card), which the tests below write by hand.
    assert seen >= set(text.EVENT_TYPES) - {"bid_roll", "action_ignored"}


def test_unknown_events_have_no_sentence() -> None:
    assert text.describe_event(Event("no_such_event", {})) is None


def test_hand_written_events() -> None:
    roll = text.describe_event(Event("bid_roll", {"rolls": [[0, 6], [2, 3]]}))
    assert roll is not None and "Red (P1) rolls 6" in roll and "Green (P3) rolls 3" in roll
    ignored = text.describe_event(Event("action_ignored", {"player": 1, "card": 14}))
    assert ignored is not None and "Blue (P2)" in ignored and "ignores" in ignored
    bids = text.describe_event(Event("bids_revealed", {"bids": [2, 0, 5]}))
    assert bids == "Bids revealed: Red (P1) 2, Blue (P2) 0, Green (P3) 5."
    # Card 14 (food): place 4 or move 2 over land. The third face-up card costs 1 coin.
    taken = text.describe_event(Event("card_taken", {"player": 0, "card": 14, "position": 2, "price": 1,
                                                     "drawn": 3}))
    assert taken is not None
    assert "card 3" in taken and "1 coin" in taken and "Place 4" in taken and " or " in taken
    assert "Food" in taken
    sail = text.describe_event(Event("army_moved", {"player": 3, "source": "eastwatch", "to": "sunhaven",
                                                    "water": True}))
    assert sail == "Yellow (P4) moves an army from Eastwatch to Sunhaven over the water."
    neutral = text.describe_event(Event("army_destroyed", {"player": 0, "region": "greyfen",
                                                           "owner": NEUTRAL}))
    assert neutral is not None and "neutral" in neutral and "Greyfen" in neutral
    over = text.describe_event(Event("game_over", {"scores": [9, 12, 12]}))
    assert over is not None and "tie" in over and "12" in over


def test_a_secret_bid_is_told_only_to_its_bidder(steps: list[Any]) -> None:
    for _, player, _, events in steps:
        for event in events:
            if event.type != "your_bid":
                continue
            others = [p for p in range(5) if p != player]
            assert event.visible_to(player)
            for other in others:
                assert text.describe_events([event], other) == []
            assert str(event.data["amount"]) in text.describe_events([event], player)[0]
            return
    raise AssertionError("no bid was made")


def test_labels_are_unique_at_every_step(steps: list[Any]) -> None:
    kinds: set[str] = set()
    for state, player, legal, _ in steps:
        view = GAME.view(state, player)
        labels = [text.action_label(view, a) for a in legal]
        assert len(set(labels)) == len(labels), labels
        assert all(label and len(label) <= 100 for label in labels), labels  # a Discord option label
        same = [text.action_label(state, a) for a in legal]
        assert labels == same, "a view and a state give the same labels"
        kinds |= {a.kind for a in legal}
    assert kinds >= {"bid", "neutral", "first", "take", "choose", "place", "move", "city", "destroy", "done"}


def test_labels_by_the_rulebook() -> None:
    state = GAME.setup(3, {}, 1)
    state.row = [1, 6, 14, 23, 13, 40]  # positions 1 to 6 cost 0, 1, 1, 2, 2, 3 coins
    state.phase, state.current, state.first_player = "turn", 0, 0
    free = text.action_label(state, TakeCard(0, 0))
    assert free.startswith("Take card 1 (free)") and "Place 1 army" in free and "Crystal" in free
    third = text.action_label(state, TakeCard(0, 2))
    assert third.startswith("Take card 3 (1 coin)") and "Place 4 armies or Move 2 over land" in third
    last = text.action_label(state, TakeCard(0, 5))
    assert last.startswith("Take card 6 (3 coins)") and "Wild" in last
    assert text.action_label(state, Bid(0, 1)) == "Bid 1 coin"
    assert text.action_label(state, Place(0, "crossroads")) == "Place an army in Crossroads"
    # Eastwatch-Sunhaven is a dotted water link; Crossroads-Westford a land border.
    assert text.action_label(state, Move(0, "eastwatch", "sunhaven")).endswith("(by water)")
    assert text.action_label(state, Move(0, "crossroads", "westford")) == "Move Crossroads → Westford"
    assert text.action_label(state, Destroy(0, "greyfen", 1)) == "Destroy a Blue army in Greyfen"
    assert text.action_label(state, Destroy(0, "greyfen", NEUTRAL)) == "Destroy a neutral army in Greyfen"


def test_labels_follow_the_card_under_way() -> None:
    state = GAME.setup(3, {}, 1)
    state.row = [14, 6, 1, 23, 13, 40]
    state = GAME.apply(GAME.apply(GAME.apply(state, Bid(0, 0)).state, Bid(1, 0)).state, Bid(2, 0)).state
    winner = min(GAME.actors(state))
    state = GAME.apply(state, ChooseFirst(winner, 0)).state
    state = GAME.apply(state, TakeCard(0, 0)).state  # card 14: place 4 armies or move 2
    labels = {text.action_label(state, a) for a in GAME.legal_actions(state, 0)}
    assert labels == {"Place 4 armies", "Move 2 over land", "Ignore the card's action"}
    state = GAME.apply(state, ChooseAction(0, 1)).state  # move 2
    assert text.action_label(state, Done(0)) == "Stop here (2 moves unused)"
