"""Rise of Empires words: a sentence for every event, a short unique label for every legal action."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from engine.core import Event
from engine.registry import make_policy
from engine.rise import text
from engine.rise.actions import Select
from engine.rise.game import GAME
from engine.rise.state import EMPTY, RiseState

# (players, seed, policy): every player count, random play (fast) plus one greedy game.
GAMES = [(2, 11, "random"), (3, 12, "random"), (4, 13, "random"), (5, 14, "random"), (3, 5, "greedy")]


def playout(players: int, seed: int, policy: str) -> Iterator[tuple[RiseState, tuple[Event, ...]]]:
    """Every state of a seeded game before each move, with the events the previous move emitted."""
    state = GAME.setup(players, {}, seed)
    ais = [make_policy("rise", policy, seed * 31 + p) for p in range(players)]
    events: tuple[Event, ...] = ()
    while not GAME.is_over(state):
        yield state, events
        seat = min(GAME.actors(state))
        result = GAME.apply(state, ais[seat].choose(state, seat))
        state, events = result.state, result.events
    yield state, events


@pytest.fixture(scope="module")
def emitted() -> dict[str, Event]:
    """One example of every event type the seeded playouts emit (setup's events included)."""
    out: dict[str, Event] = {}
    for players, seed, policy in GAMES:
        for _, events in playout(players, seed, policy):
            for event in events:
                out.setdefault(event.type, event)
    return out


def test_every_emitted_event_type_is_known_and_described(emitted: dict[str, Event]) -> None:
    assert set(emitted) <= text.EVENT_TYPES, set(emitted) - text.EVENT_TYPES
    for kind, event in emitted.items():
        sentence = GAME.describe_event(event)
        assert isinstance(sentence, str) and sentence.endswith("."), kind
        assert "{" not in sentence and "None" not in sentence, sentence
    # The playouts reach the phases of every game turn and the end.
    assert {
        "new_tiles",
        "disc_placed",
        "disc_removed",
        "food",
        "income",
        "victory_points",
        "era_end",
        "turn_order_chosen",
        "game_over",
    } <= set(emitted)


def test_sentences_name_players_regions_and_tiles() -> None:
    battle = Event(
        "battle", {"player": 1, "region": "ne_africa", "target": 0, "defender_lost": 2, "attacker_lost": 1}
    )
    assert GAME.describe_event(battle) == (
        "Blue (P2) fights Red (P1) in NE Africa: the defender loses 2 cubes, the attacker 1 cube."
    )
    took = Event("took_progress", {"player": 0, "tile": "p17", "price": 1})
    name = GAME.data.progress["p17"].name
    assert GAME.describe_event(took) == f"Red (P1) takes the progress tile {name} for 1 gold."
    # The rulebook's food example: 19 + 4 tops out at 20 and the surplus of 3 gives a gold per two.
    food = Event("food", {"player": 2, "change": 4, "food": 20, "lost_vp": 0, "gold": 1})
    sentence = GAME.describe_event(food)
    assert sentence is not None and "stands at 20" in sentence and "1 gold" in sentence


def test_unknown_event_is_bookkeeping() -> None:
    assert GAME.describe_event(Event("no_such_event", {})) is None


@pytest.mark.parametrize(("players", "seed", "policy"), GAMES)
def test_labels_unique_and_short_at_every_step(players: int, seed: int, policy: str) -> None:
    steps = 0
    for state, _ in playout(players, seed, policy):
        for seat in GAME.actors(state):
            legal = GAME.legal_actions(state, seat)
            labels = [GAME.action_label(state, a) for a in legal]
            assert len(set(labels)) == len(labels), labels
            assert all(0 < len(label) <= 100 for label in labels), labels
            steps += 1
    assert steps > 100


def test_b_turn_select_label_shows_the_removal_price() -> None:
    """B turns: removing a disc costs one unit per disc to its left (rulebook, Player Actions)."""
    seen = 0
    for state, _ in playout(4, 13, "random"):
        if not state.b_turn or state.task is None or state.task["stage"] != "choose":
            continue
        seat = int(state.task["player"])
        printing = any(GAME.data.progress[t].special == "printing" for t in state.progress[seat])
        for action in GAME.legal_actions(state, seat):
            if isinstance(action, Select):
                left = sum(1 for c in state.display[action.row][: action.circle] if c != EMPTY)
                label = GAME.action_label(state, action)
                want = "free" if printing or left == 0 else f"pay {left}"
                assert label.endswith(want), label
                assert f"circle {action.circle + 1}" in label
                seen += 1
    assert seen > 20
