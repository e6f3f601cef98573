"""The 5-epoch game's words beyond the contract, and the regressions of issue 13.

The contract suite checks at every move of every game's playouts that the decision offers every legal
move exactly once with a short unique label and that every event is worded
(tests/contract/test_game_contract.py); here what only 5-epoch's words must do: every event type its
engine emits has a wording, lines never show a kingdom's key, and the rulebook's moments.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from engine.core import decide
from engine.history.epochs5 import text
from engine.history.epochs5.actions import Done, Invade, PlayEvent, Stop
from engine.history.epochs5.game import GAME, Epochs5Game
from engine.history.epochs5.reach import SEA
from tests.conftest import Dice
from tests.engine.history.epochs5.test_epochs5_rules import ASSYRIANS, KINGDOM, MINOANS, SUMERIANS, Scenario

NAMES = ["alice (Red)", "bob (Blue)", "carol (Green)", "dan (Yellow)", "eve (Purple)", "fay (Orange)"]
ENGINE_DIR = Path(__file__).resolve().parents[4] / "engine" / "history" / "epochs5"


def _readable(line: str) -> None:
    assert line.strip(), "an empty sentence"
    for bad in ("{", "}", "None", "Player ", "Traceback", "[", "kingdom:"):
        assert bad not in line, f"{bad!r} in {line!r}"


def _play(players: int, seed: int, classic: bool) -> None:
    """A random game read as 5-epoch reads: the stage is an epoch, no line shows a kingdom's key, the
    game's end alone is told by the platform (every other event has a sentence) and the summary lists
    every score."""
    names = NAMES[:players]
    state = GAME.setup(players, {"classic_drafting": classic}, seed)
    pick = random.Random(seed)
    moves = 0
    while not GAME.is_over(state):
        player = min(GAME.actors(state))
        found = decide(GAME, state, player)
        assert found is not None
        for line in (found.heading, *(c.label for c in found.choices)):
            _readable(line)
        if moves & (moves - 1) == 0:  # powers of two keep the sweep fast
            view = GAME.view(state, player)
            for words in (GAME.status_text(view, names), GAME.hand_text(view, player, names),
                          GAME.board_text(view, names)):
                _readable(words)
            assert GAME.stage(view).startswith("Epoch ")
        result = GAME.apply(state, pick.choice(GAME.legal_actions(state, player)))
        for event in result.events:
            said = GAME.describe_event(event, names)
            if event.type == "game_over":
                assert said is None  # the platform tells it, with summary_text
            else:  # 5-epoch words every event but the end (the contract lets a public one be silent)
                assert said is not None, event.type
                _readable(said)
        state = result.state
        moves += 1
    end = GAME.view(state, None)
    summary = GAME.summary_text(end, names)
    assert GAME.stage(end) == "Game over"
    for p in range(players):
        assert f"{names[p]}: {GAME.scores(state)[p]}" in summary


@pytest.mark.parametrize(("players", "classic"), [(3, False), (6, True)])
def test_the_words_read_as_5_epoch_words(players: int, classic: bool) -> None:
    """That every decision offers each legal move once with a short unique label, the timeout move among
    them, and every event is worded is the contract's, at every move of every game's playouts
    (tests/contract/test_game_contract.py); here what only 5-epoch's words must do."""
    _play(players, 11 * players + int(classic), classic)


def test_every_event_type_the_engine_emits_has_a_wording() -> None:
    """Read from the engine's source, so an event added later without words fails here."""
    emitted: set[str] = set()
    for path in ENGINE_DIR.glob("*.py"):
        emitted |= set(re.findall(r'emit\(\s*"([a-z_]+)"', path.read_text(encoding="utf-8")))
    emitted |= {"kept", "given"}  # draft.decide emits one of the two by name
    assert emitted - set(text.EVENTS) == set()
    assert set(text.EVENTS) - emitted == set(), "words for an event the engine never emits"


# -- the regressions of issue 13 ---------------------------------------------------------------------
def test_the_end_of_an_empire_is_not_called_resigned(dice: Dice) -> None:
    """The engine's own event once took the platform's "resigned" (a player leaving the game)."""
    s = Scenario().start(SUMERIANS, 0)
    s.do(Stop(0))
    assert "resigned" not in s.types()
    stood_down = next(e for e in s.events if e.type == "empire_stood_down")
    line = GAME.describe_event(stood_down, NAMES[:3])
    assert line == "The Sumerians fall into decline: alice (Red)'s armies are resigned."


def test_hand_text_lists_the_cards_held() -> None:
    """``/annals hand`` answered with an apology ('Rules' object has no attribute 'cards')."""
    game = Epochs5Game()
    state = game.setup(3, {}, 4)
    while not state.hands[0]:
        player = min(game.actors(state))
        state = game.apply(state, game.legal_actions(state, player)[0]).state
    words = game.hand_text(game.view(state, 0), 0, NAMES[:3])
    held = game.rules.events[state.hands[0][0]]
    assert words.startswith("You hold 1 event card:") and held.name in words and held.text in words
    assert "hidden" in game.hand_text(game.view(state, 1), 0, NAMES[:3])  # another seat's view shows none


def test_the_skip_policy_stops_invading() -> None:
    """The "skip" timeout policy played the AI: it knew no `stop`."""
    s = Scenario().start(SUMERIANS, 0)
    assert s.game.timeout_action(s.state, 0) == Stop(0)


def test_stopping_with_armies_left_asks_first_and_labels_say_how_and_the_odds() -> None:
    """Two dice against one: the invader wins 125 of 216 rolls (58%); with the defender's +1 for
    terrain, 90 of 216 (42%). Counted by hand: the defender's die d loses to a best of two above d."""
    s = Scenario().army("Levant", 2).army("Zagros", 2).start(ASSYRIANS, 1)
    found = decide(s.game, s.state, 1)
    assert found is not None
    by_action = {c.action: c for c in found.choices}
    odds = "battle, {}% to win the first roll"
    assert by_action[Invade(1, "Levant")].label == "Invade Levant by border: " + odds.format(58)
    assert by_action[Invade(1, "Zagros")].label == "Invade Zagros by border: " + odds.format(42)
    assert by_action[Invade(1, "Levant")].group == "Invade"
    assert "5 armies still on the card" in by_action[Stop(1)].confirm
    assert found.heading.startswith("The Assyrians: 5 armies on the card")


def test_a_land_reachable_by_border_and_by_fleet_offers_both_routes() -> None:
    """Crete touches Pindus by a strait and by the Mediterranean, where the Minoans have a fleet."""
    s = Scenario().army("Pindus", 0).start(MINOANS, 1)
    found = decide(s.game, s.state, 1)
    assert found is not None
    labels = {c.action: c.label for c in found.choices}
    assert labels[Invade(1, "Pindus")] == "Invade Pindus by border: battle, 42% to win the first roll"
    assert labels[Invade(1, "Pindus", SEA)] == (
        "Invade Pindus by fleet: battle, 42% to win the first roll (naval: the defender may reroll)")
    shown = s.game.view(s.state, None)["turn"]
    assert shown is not None
    invasions = {i["land"]: i for i in shown["invasions"]}
    assert invasions["Pindus"]["ways"] == ["border", "fleet"] and invasions["Pindus"]["holder"] == 0
    assert invasions["Anatolia"]["ways"] == ["fleet"] and not invasions["Anatolia"]["battle"]


def test_battle_result_says_whether_the_battle_was_won(dice: Dice) -> None:
    s = Scenario().army("Levant", 0).army("Zagros", 0).army("Anatolia", 0).start(ASSYRIANS, 1)
    dice.script([6, 1], [2], [1, 1], [6], [3, 3], [3])
    s.do(Invade(1, "Levant")).do(Invade(1, "Zagros"))
    results = [e.data for e in s.events if e.type == "battle_result"]
    assert [(r["outcome"], r["won"]) for r in results] == [("win", True), ("loss", False)]
    s.do(s.game.timeout_action(s.state, 1))  # retreat: the passive answer to a lost battle
    s.do(Invade(1, "Anatolia"))
    assert [e.data["won"] for e in s.events if e.type == "battle_result"][-1] is False  # a tie


def test_skipping_a_kingdom_asks_first() -> None:
    s = Scenario().hand(0, "kush").start(SUMERIANS, 0)
    found = decide(s.game, s.state, 0)
    assert found is not None
    by_action = {c.action: c for c in found.choices}
    assert by_action[Done(0)].confirm == "Skip Kush? A kingdom cannot be saved for a later epoch."
    assert by_action[PlayEvent(0, "kush")].label.startswith("Play the kingdom Kush")
    assert KINGDOM.kingdom is not None and "Sumerians" in found.heading


def test_an_empty_supply_is_told_plainly() -> None:
    """"In the rare case that a player must place a structure or fort and the supply is empty, the
    player does not place the structure or fort.\""""
    s = Scenario(structures=0).start(SUMERIANS, 0)
    assert "Tigris" not in s.state.structures
    out = next(e for e in s.events if e.type == "supply_out")
    assert GAME.describe_event(out, NAMES[:3]) == "The supply has no capitol left: Tigris gets no capitol."


def test_the_status_says_whose_turn_what_they_do_and_the_scores() -> None:
    s = Scenario().start(ASSYRIANS, 1)
    view = s.game.view(s.state, None)
    assert s.game.status_text(view, NAMES[:3]) == (
        "Epoch I: bob (Blue)'s Assyrians invade, 5 armies left on the card. "
        "Scores: carol (Green) 3, bob (Blue) 2, alice (Red) 1.")
    assert s.game.stage(view) == "Epoch I"
