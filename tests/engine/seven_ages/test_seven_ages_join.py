"""7 Ages: more players entering a game under way (L337, issue 18).

"If any colours are still available, more players can enter the game after it has started. Simply
deal them 7 cards, place their glory marker on the same space as the player coming last and give
any free colour's empire counters to the new player. Continue play." (L337)
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import pytest

from engine.core import Action, IllegalAction, join_entry, replay
from engine.seven_ages.actions import ChooseColours, PlaceMarker, StartCard, TurnMarker
from engine.seven_ages.data import load_counters
from engine.seven_ages.game import GAME
from engine.seven_ages.markers import extra_allowed
from engine.seven_ages.spec import SPEC
from engine.seven_ages.state import EXTRA, MARKER_SET, MARKERS, OVER, SevenState
from tests.support.seven_ages_builder import Scenario

GROUPS = load_counters().groups
NAMES = SPEC.seat_names(["alice", "bob", "carol", "dave", "erin"])


def joined(s: Scenario) -> Scenario:
    result = GAME.join(s.state)
    s.state = result.state
    s.events += result.events
    return s


def glory(s: Scenario, *points: int) -> Scenario:
    s.state = replace(s.state, people=tuple(replace(p, glory=g) for p, g in zip(s.state.people, points,
                                                                                  strict=True)))
    return s


def refusal(state: SevenState) -> IllegalAction:
    with pytest.raises(IllegalAction) as info:
        GAME.join(state)
    return info.value


def test_the_newcomer_is_dealt_7_cards_and_starts_level_with_the_player_coming_last() -> None:
    """'Simply deal them 7 cards, place their glory marker on the same space as the player coming last'."""
    s = glory(Scenario(3).at(MARKERS), 12, 5, 9)
    deck, hands = s.state.deck, [p.hand for p in s.state.people]
    top = deck[:7]
    joined(s)
    newcomer = s.state.people[3]
    assert s.state.players == 4 and newcomer.seat == 3
    assert newcomer.hand == tuple(sorted(top)) and s.state.deck == deck[7:]
    assert newcomer.glory == 5 and dict(newcomer.parts) == {"latecomer": 5}
    assert [p.hand for p in s.state.people[:3]] == hands  # nobody else draws
    assert [p.glory for p in s.state.people[:3]] == [12, 5, 9]
    lines = [GAME.describe_event(e, NAMES) for e in s.events]
    assert lines[0] is not None and lines[0].startswith("dave (Fourth seat) joins the game with 5 glory")
    secret = [e for e in s.events if e.type == "cards_drawn_secret"]
    assert [e.audience for e in secret] == [(3,)]  # the cards themselves: the newcomer's alone
    assert GAME.view(s.state, 3)["your_hand"] == list(newcomer.hand)
    for viewer in (0, 1, 2, None):  # the others (and a spectator) see how many, never which
        view = GAME.view(s.state, viewer)
        assert view["people"][3]["hand_size"] == 7
        assert view["your_hand"] == (None if viewer is None else list(hands[viewer]))


def test_a_newcomer_when_the_deck_runs_short_gets_what_is_left() -> None:
    s = Scenario(2).at(MARKERS)
    s.state = replace(s.state, deck=s.state.deck[:3])
    joined(s)
    assert len(s.state.people[2].hand) == 3 and s.state.deck == ()


def test_the_newcomer_chooses_their_colours_among_the_free_ones_first() -> None:
    """'give any free colour's empire counters to the new player': any free one, their choice."""
    s = joined(Scenario(3).at(MARKERS))
    assert 3 in s.actors()
    assert s.legal(3) == [ChooseColours(3, g) for g in GROUPS[3:]]
    s.illegal(ChooseColours(3, GROUPS[0]), "colours_taken")
    s.illegal(PlaceMarker(3, EXTRA, "start"), "choose_colours_first")
    assert GAME.timeout_action(s.state, 3) == ChooseColours(3, GROUPS[3])
    s.play(ChooseColours(3, GROUPS[4]))
    assert s.state.people[3].group == GROUPS[4]
    assert 3 not in s.actors()  # joined while markers were being placed: from the next turn on


def test_nobody_joins_without_a_free_colour_beyond_five_players_before_play_or_after_the_end() -> None:
    """'If any colours are still available' (L337); 7 Ages Classic has five colour groups."""
    full = Scenario(5).at(MARKERS)
    assert refusal(full.state).code == "no_free_colour"
    waiting = joined(Scenario(4).at(MARKERS))  # one group left, and the newcomer still to choose it
    assert refusal(waiting.state).code == "no_free_colour"
    # a table of five with a group free (not possible in Classic's data): refused by the player count
    five = Scenario(5).at(MARKERS)
    five.state = five.state.with_player(replace(five.state.people[4], group=None))
    assert refusal(five.state).code == "table_full"
    assert refusal(GAME.setup(3, SPEC.default_options(), 1)).code == "preparing"
    assert refusal(replace(Scenario(3).state, phase=OVER)).code == "game_over"


def test_the_newcomer_places_a_marker_next_turn_and_starts_an_empire() -> None:
    """'If you have fewer empires in play than your maximum, you may place one additional action marker
    ... (1) Start empire' (L343-349): a newcomer, with no empire, starts one with it."""
    s = joined(Scenario(2).at(MARKERS))
    s.play(ChooseColours(2, GROUPS[2])).end_turn()
    assert s.state.turn == 2 and 2 in s.actors()
    assert PlaceMarker(2, EXTRA, "start") in s.legal(2)
    s.play(PlaceMarker(2, EXTRA, "start"))
    while s.state.phase == MARKERS:
        s.apply(GAME.timeout_action(s.state, min(s.actors())))
    assert s.state.phase == "start" and s.actors() == {2}
    s.play(TurnMarker(2, next(i for i, m in enumerate(s.state.markers) if m.owner == 2)))
    starts = [a for a in s.legal(2) if isinstance(a, StartCard)]
    assert starts and {a.card for a in starts} <= set(s.state.people[2].hand)
    s.play(starts[0])
    while not s.of_type("empire_started"):
        s.apply(GAME.timeout_action(s.state, min(s.actors())))
    assert s.of_type("empire_started")[0]["seat"] == 2
    assert s.state.empire(starts[0].card).owner == 2


def test_the_maximum_counts_the_newcomer() -> None:
    """E2 (L345): 'Your maximum is determined by dividing the number of empires in your game by the
    number of players, rounding up (... if 4 players are playing with the 15 empires in 7 Ages Classic,
    the maximum is 4 each)'. Three players have 5 each; once a fourth joins, 4."""
    s = Scenario(3)
    free = [m.name for m in load_counters().mixes.values() if m.group in GROUPS[3:]]
    empires = (("Egyptians", "Egypt"), ("Assyrians", "Assyria"), ("Phoenicians", "Phoenicia"),
               ("Sumerians", "Sumer"))
    for (name, area), colour in zip(empires, free, strict=False):
        s.empire(name, 0, 3, colour=colour, units={area: {"Spear": 1}})
    assert extra_allowed(s.state, 0) == 1  # 4 empires, maximum 5
    joined(s)
    assert extra_allowed(s.state, 0) == 0  # 4 empires, maximum 4
    assert extra_allowed(s.state, 3) == 1


def test_the_newcomer_sits_after_the_last_seat_and_gets_the_turn_marker_from_it() -> None:
    """'the other players follow suit in Clockwise order' (L373); the turn marker passes left (L1148)."""
    s = joined(Scenario(3).first(2).at(MARKERS))
    assert s.state.seats_from_first() == (2, 3, 0, 1)
    s.play(ChooseColours(3, GROUPS[3])).end_turn()
    assert s.state.first == 3


def test_two_players_with_option_5_keep_two_sets_until_the_turn_the_third_joins_in_ends() -> None:
    """Option 5: 'two player games: each player plays with two sets of action markers' (L1192)."""
    s = joined(Scenario(2, {"enhanced_play": True}).at(MARKERS))
    assert len(s.state.people[0].marker_set) == 2 * len(MARKER_SET)
    assert s.state.people[2].marker_set == MARKER_SET
    s.play(ChooseColours(2, GROUPS[2])).end_turn()
    assert all(p.marker_set == MARKER_SET for p in s.state.people)


def test_the_log_with_a_join_replays_to_the_same_state() -> None:
    state = GAME.setup(2, SPEC.default_options(), 3)
    log: list[Action | Mapping[str, Any]] = []
    while state.turn < 2:
        seat = min(GAME.actors(state))
        move = GAME.timeout_action(state, seat)
        log.append(move)
        state = GAME.apply(state, move).state
    state = GAME.join(state).state
    log.append(join_entry(2))
    for _ in range(6):  # the newcomer's colours, then whatever comes
        action = GAME.timeout_action(state, max(GAME.actors(state)))
        log.append(action)
        state = GAME.apply(state, action).state
    assert state.people[2].group == GROUPS[2]
    again = replay(GAME, 2, SPEC.default_options(), 3, log)
    assert GAME.dumps(again) == GAME.dumps(state)
    assert GAME.dumps(GAME.from_json(json.loads(GAME.dumps(state)))) == GAME.dumps(state)
