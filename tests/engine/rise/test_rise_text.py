"""Rise of Empires words: a sentence for every event, a decision covering every legal move, readable texts.

Everything here reads the game through its contract hooks (``decision``,
``describe_event``, ``status_text``...) with the platform's seat names.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence

import pytest

from engine.core import Action, Event, decide
from engine.registry import make_policy
from engine.rise.actions import Discard, Keep, PlaceCube, Select, Skip, Stop, TakeBack, TakeEmpire
from engine.rise.data import load_data
from engine.rise.game import GAME
from engine.rise.spec import SPEC
from engine.rise.state import EMPTY, Phase, RiseState
from engine.rise.text import EVENT_TYPES
from engine.rise.view import RiseView
from tests.engine.rise.test_rise_rules import arranged, b_turn

DATA = load_data()
NAMES = SPEC.seat_names(["alice", "bob", "carol", "dave", "erin"])
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
    """One example of every event type the seeded playouts emit."""
    out: dict[str, Event] = {}
    for players, seed, policy in GAMES:
        for _, events in playout(players, seed, policy):
            for event in events:
                out.setdefault(event.type, event)
    return out


def sentence_ok(text: str) -> None:
    assert text and "{" not in text and "None" not in text and "[" not in text, text
    assert "P1" not in text and "Player 1" not in text, text  # seats are named by the platform's names


def test_every_event_type_is_worded(emitted: dict[str, Event]) -> None:
    assert set(emitted) == EVENT_TYPES, EVENT_TYPES ^ set(emitted)
    for kind, event in emitted.items():
        sentence = GAME.describe_event(event, NAMES)
        if kind == "game_over":  # told once by the platform, with the summary
            assert sentence is None
            continue
        assert isinstance(sentence, str) and sentence.endswith("."), kind
        sentence_ok(sentence)


def test_the_battle_for_the_mediterranean_is_worded_with_its_result() -> None:
    """Rulebook: "Dan ... takes the "1" (water) empire tile and places 3 of his (green) cubes into the Med.
    Peter (red) currently controls the area with 2 cubes. ... Peter loses both cubes ..., Dan loses one"
    -- and Dan now controls the Mediterranean, which the sentence and the label say."""
    dan, peter = 0, 1
    s = arranged(players=2)
    s.add_cubes("mediterranean", peter, 2)
    s = GAME.apply(s, Select(dan, "empire", 3)).state
    s = GAME.apply(s, TakeEmpire(dan, "e1")).state
    for _ in range(3):
        s = GAME.apply(s, PlaceCube(dan, "mediterranean")).state
    s = GAME.apply(s, Stop(dan)).state
    decision = decide(GAME, s, dan)
    assert decision is not None
    labels = [c.label for c in decision.choices]
    assert "Attack Blue in Mediterranean: Blue loses 2 of 2, you lose 1 of 3" in labels
    attack = next(c.action for c in decision.choices if c.label.startswith("Attack"))
    result = GAME.apply(s, attack)
    battle = next(e for e in result.events if e.type == "battle")
    assert battle.data["won"] is True and battle.data["holder"] == dan
    assert GAME.describe_event(battle, NAMES) == (
        "alice (Red) fights bob (Blue) in Mediterranean: the defender loses 2 cubes, the attacker 1 cube; "
        "alice (Red) now controls Mediterranean."
    )
    lost = Event(
        "battle",
        {
            "player": 0,
            "region": "ne_africa",
            "target": 1,
            "defender_lost": 1,
            "attacker_lost": 1,
            "holder": 1,
            "won": False,
        },
    )
    assert GAME.describe_event(lost, NAMES) == (
        "alice (Red) fights bob (Blue) in NE Africa: the defender loses 1 cube, the attacker 1 cube; "
        "the battle was not won: bob (Blue) controls NE Africa."
    )


def test_food_sentence_follows_the_rulebook_example() -> None:
    """ "If you had 19 food points and had to go up four, you would go up one food and take one gold"."""
    food = Event("food", {"player": 2, "change": 4, "food": 20, "lost_vp": 0, "gold": 1})
    assert GAME.describe_event(food, NAMES) == (
        "carol (Green) gains 4 food and stands at 20 on the food track; "
        "the surplus over the top gives 1 gold."
    )


@pytest.mark.parametrize(("players", "seed", "policy"), [GAMES[1], GAMES[4]])
def test_decisions_keep_the_engine_s_order_and_the_words_read_as_rise_words(
        players: int, seed: int, policy: str) -> None:
    """Decisions list the legal moves in the engine's order, the stage is an era, and the end names the
    winner after the final scores (that each legal move is offered once with a unique short label, the
    timeout move among them, and the texts read is the contract's, at every move of every game's
    playouts, tests/contract/test_game_contract.py)."""
    steps = 0
    names = NAMES[:players]
    for state, _ in playout(players, seed, policy):
        for seat in GAME.actors(state):
            decision = decide(GAME, state, seat)
            assert decision is not None
            assert [c.action for c in decision.choices] == list(GAME.legal_actions(state, seat))
            steps += 1
        view = GAME.view(state, 0)
        for line in (GAME.status_text(view, names), GAME.board_text(view, names),
                     GAME.hand_text(view, 0, names)):
            sentence_ok(line)  # no bracket either, which the contract allows
        assert GAME.stage(view).startswith(("Era ", "Game over"))
    assert steps > 100
    over = GAME.view(state, None)
    summary = GAME.summary_text(over, names)
    winner = names[GAME.ranking(state)[0]]
    assert summary.startswith("Final scores:") and f"Winner: {winner}" in summary
    assert f"Winner: {winner}" in GAME.status_text(over, names)


def test_b_turn_removal_choices_are_one_per_way_of_paying_grouped_by_disc() -> None:
    """B turn: "pay one gold, one player cube, one resource disc, one food point, or one victory point for
    each disc to its left": each way is one choice with its price in the label, grouped under its disc."""
    s = b_turn()
    s.display["empire"] = [1, 2, 0, EMPTY, EMPTY, EMPTY, EMPTY, EMPTY]  # two discs left of seat 0's
    s.display["trade"] = [0, EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, EMPTY]
    s.gold[0], s.pool[0], s.resources[0], s.food[0], s.vp[0] = 1, 0, 0, 5, 0
    decision = decide(GAME, s, 0)
    assert decision is not None and "take back one of your discs" in decision.heading
    backs = {c.label: c.group for c in decision.choices if isinstance(c.action, TakeBack)}
    disc = "Empire: take back your disc in circle 3"
    assert backs == {
        "Trade: take back your disc in circle 1, free": "",
        f"{disc}, pay 1 gold and 1 food": f"{disc} (costs 2)",
        f"{disc}, pay 2 food": f"{disc} (costs 2)",
    }


def test_keep_or_give_up_decisions_say_what_they_are() -> None:
    """End of an era: "You may choose to retain progress tiles but must pay one gold to the bank for each
    tile you keep" -- the heading names the era, the tile and the price; giving it up asks first."""
    s = arranged()
    tile = next(t for t, p in DATA.progress.items() if p.name == "Agriculture")
    s.progress[0].append(tile)
    s.turn, s.phase, s.task = 2, Phase.ERA_END, None
    s.pending = [{"player": 0, "kind": "keep_progress", "tile": tile}]
    decision = decide(GAME, s, 0)
    assert decision is not None
    assert decision.heading == "End of era I: keep your progress tile Agriculture for 1 gold, or give it up"
    by_action = {type(c.action): c for c in decision.choices}
    assert by_action[Keep].label == "Keep Agriculture (pay 1 gold)" and not by_action[Keep].confirm
    assert (
        by_action[Discard].label == "Give up Agriculture"
        and "Give up Agriculture" in by_action[Discard].confirm
    )


def test_skipping_a_paid_action_asks_first() -> None:
    s = b_turn()
    s.display["territory"] = [1, 0, EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, EMPTY]
    s = GAME.apply(s, TakeBack(0, "territory", 1, gold=1)).state
    decision = decide(GAME, s, 0)
    assert decision is not None and "Territory row" in decision.heading
    skip = next(c for c in decision.choices if isinstance(c.action, Skip))
    assert skip.label == "Skip the territory action" and skip.confirm


def test_view_is_json_and_its_typed_dict_names_every_key() -> None:
    state = GAME.setup(3, {}, 4)
    view = GAME.view(state, 1)
    assert json.loads(json.dumps(view)) == view
    assert set(view) == set(RiseView.__annotations__)


def test_the_face_down_tiles_stay_out_of_every_view() -> None:
    """The boxes' tiles lie face down: at the start of a 4-player game 48 progress, 40 territory and 36
    city tiles, less the 8, 10 and 5 laid face up, and no view names one of them; the face-up ones show."""
    state = GAME.setup(4, {}, 3)
    view = GAME.view(state, 0)
    assert view["you"] == {"player": 0} and GAME.view(state, None)["you"] is None
    text = json.dumps(view)
    hidden = [t for boxes in (state.progress_boxes, state.territory_boxes, state.city_boxes)
              for box in boxes for t in box]
    assert len(hidden) == 48 + 40 + 36 - 8 - 10 - 5
    assert not [t for t in hidden if f'"{t}"' in text], "a face-down tile shows in the view"
    assert all(f'"{t}"' in text for t in state.open_progress + state.open_territory + state.open_city)


def test_the_words_read_a_view_and_its_json_copy_alike() -> None:
    # A view fresh from the engine holds Phase and Stage members; one that went through JSON (stored, or
    # sent to the console) holds their strings. The words convert at the door, so both read the same.
    names = NAMES[:3]
    phases: set[Phase] = set()

    def words(view: RiseView, seat: int, legal: Sequence[Action]) -> tuple[object, ...]:
        asked = GAME.decision(view, seat, legal, names) if legal else None
        return (asked, GAME.stage(view), GAME.status_text(view, names), GAME.board_text(view, names),
                GAME.hand_text(view, seat, names), GAME.summary_text(view, names))

    for n, (state, _) in enumerate(playout(3, 12, "random")):
        if state.phase is Phase.ACTIONS and n % 7:
            continue
        phases.add(state.phase)
        for seat in sorted(GAME.actors(state)) or [0]:
            view = GAME.view(state, seat)
            copy: RiseView = json.loads(json.dumps(view))
            assert type(copy["phase"]) is str and type(view["phase"]) is Phase
            legal = GAME.legal_actions(state, seat)
            assert words(copy, seat, legal) == words(view, seat, legal)
    assert {Phase.ACTIONS, Phase.ORDER, Phase.OVER} <= phases


def test_hand_text_lists_the_stock_and_says_nothing_is_hidden() -> None:
    """Setup: "five cubes in your pool ... 25 ... general stock ... 5 gold and 2 resource discs", 16 food."""
    state = GAME.setup(2, {}, 3)
    text = GAME.hand_text(GAME.view(state, 1), 1, NAMES[:2])
    assert text.startswith(
        "bob (Blue): you have 5 gold, 2 resource discs, 16 food and 0 victory points; "
        "cubes: 5 in your pool, 25 in your stock, 0 on the map."
    )
    assert "Nothing in Rise of Empires is hidden" in text


@pytest.mark.parametrize(("players", "seed", "policy"), [(4, 13, "random"), (3, 5, "greedy")])
def test_the_final_scores_are_listed_best_first(players: int, seed: int, policy: str) -> None:
    """A final score line read in seat order ("alice 40, bob 62, carol 51") with the winner named after
    it; the game over lists the seats by their final rank, as the summary's winner line does."""
    *_, (final, _) = playout(players, seed, policy)
    view = GAME.view(final, None)
    names = NAMES[:players]
    scores, ranking = view["final"], view["ranking"]
    assert scores is not None and ranking is not None  # the game is over
    for text in (GAME.summary_text(view, names), GAME.status_text(view, names)):
        at = [text.index(f"{names[p]} {scores[p]}") for p in ranking]
        assert at == sorted(at), text
    assert [scores[p] for p in ranking] == sorted(scores, reverse=True)
