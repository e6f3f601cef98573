"""7 Ages action markers and the turn (L339-377, L311-315): placement, hidden markers, turning them
over in order, the wild card, and the end of the game."""

from __future__ import annotations

import json
from dataclasses import replace

from engine.seven_ages.actions import Done, DraftMarker, Pass, PlaceMarker, StartCard, TurnMarker
from engine.seven_ages.game import GAME
from engine.seven_ages.markers import maximum, took_wild
from engine.seven_ages.spec import SPEC
from engine.seven_ages.state import DRAFT, EXTRA, MARKER_SET, MARKERS, OVER, PAST_THE_END
from tests.contract.checks import random_playout
from tests.seven_ages_builder import Scenario, card
from tests.test_seven_ages_every_card import CENSUS_OPTIONS

SPEARS = {"Spear": 1}


def test_maximum_empires_example() -> None:
    """E2 (L345): 'if 7 players are playing with all 21 empires in 7 Ages Deluxe, the maximum is 3 each,
    if 4 players are playing with the 15 empires in 7 Ages Classic, the maximum is 4 each'."""
    assert maximum(7, 21) == 3
    assert maximum(4) == 4
    assert [maximum(n) for n in (2, 3, 5)] == [8, 5, 3]


def placing(players: int = 5, **options: object) -> Scenario:
    s = Scenario(players, options)
    return s


def test_every_player_places_at_once_one_marker_per_empire_then_maybe_one_more() -> None:
    """'each player now places one face-down on each empire card they have in play' and 'If you have fewer
    empires in play than your maximum, you may place one additional action marker' (L341-343)."""
    s = Scenario(5).empire("Egyptians", 0, 3, units={"Egypt": SPEARS})
    for name, area in (("Assyrians", "Assyria"), ("Phoenicians", "Phoenicia"), ("Sumerians", "Sumer")):
        s.empire(name, 1, 3, units={area: SPEARS})  # seat 1 holds 3: the maximum for 5 players
    s.at(MARKERS)
    assert s.actors() == {0, 1, 2, 3, 4}
    first = s.legal(0)  # its empire first
    assert first and all(isinstance(a, PlaceMarker) and a.empire == card("Egyptians") for a in first)
    s.illegal(PlaceMarker(0, EXTRA, "start"), "markers_missing")
    s.play(PlaceMarker(0, card("Egyptians"), "production"))
    assert Done(0) in s.legal(0) and PlaceMarker(0, EXTRA, "start") in s.legal(0)
    s.play(PlaceMarker(0, EXTRA, "start"))
    assert 0 not in s.actors()  # one extra marker only
    for name in ("Assyrians", "Phoenicians", "Sumerians"):
        s.play(PlaceMarker(1, card(name), "civilise" if name == "Sumerians" else "wild"
                           if name == "Phoenicians" else "production"))
    assert 1 not in s.actors()  # at their maximum: no additional marker (L343)
    s.illegal(PlaceMarker(1, EXTRA, "start"), "not_your_turn")


def test_option_five_allows_two_extra_markers() -> None:
    """Option 5 (L1202): 'if you have at least two fewer empires in play than your maximum you may place
    two additional action markers'."""
    s = Scenario(4, {"enhanced_play": True}).at(MARKERS)
    s.play(PlaceMarker(0, EXTRA, "start"), PlaceMarker(0, EXTRA, "wild"))
    assert 0 not in s.actors()


def test_face_down_markers_hand_and_deck_order_stay_hidden() -> None:
    """'Keep your unused action markers face-down (so no one else knows what you have chosen to do this
    turn)' (L341): another seat's view shows where a marker lies, never which it is, nor a hand or the
    deck's order."""
    s = Scenario(3).empire("Egyptians", 0, 3, units={"Egypt": SPEARS}).hand(0, "Romans", "English")
    s.at(MARKERS).play(PlaceMarker(0, card("Egyptians"), "production"), PlaceMarker(0, EXTRA, "civilise"))
    for viewer in (1, 2, None):
        view = GAME.view(s.state, viewer)
        assert [m["action"] for m in view["markers"]] == [None, None]
        assert view["your_hand"] is None or view["your_hand"] == []
        assert view["people"][0]["hand_size"] == 2
        text = json.dumps(view)
        assert "civilise" not in text and "production" not in text.replace('"phase": "markers"', "")
    own = GAME.view(s.state, 0)
    assert [m["action"] for m in own["markers"]] == ["production", "civilise"]
    assert own["your_hand"] == sorted([card("Romans"), card("English")])
    shuffled = replace(s.state, deck=tuple(reversed(s.state.deck)))
    assert GAME.view(shuffled, 1) == GAME.view(s.state, 1)


def test_a_start_marker_on_an_empire_and_an_extra_production_do_nothing() -> None:
    """E3 (L347-349): 'placing Start empire on an empire will have no effect'; the additional marker's
    only effective actions are Start empire, Destiny or Civilise."""
    s = Scenario(3).empire("Egyptians", 0, 3, units={"Egypt": SPEARS}).hand(0, "Romans")
    s.empire("Assyrians", 1, 3, units={"Assyria": SPEARS})
    s.marker(0, "start", "Egyptians").marker(1, "production", None).at("start")
    # At Start empire only seat 1's marker in front of them might start an empire (for all others know):
    # it is asked, and may only pass; seat 0, with a start card in hand, is not asked at all.
    assert s.state.phase == "start" and s.actors() == {1} and s.legal(1) == [Pass(1)]
    s.pass_(1)
    # at Production seat 0's marker on an empire might be Production: asked, but it can only pass
    assert s.state.phase == "production" and s.actors() == {0} and s.legal(0) == [Pass(0)]


def test_markers_are_turned_first_player_then_clockwise() -> None:
    """'the player with the turn marker (the First player) turns over their action marker(s) and does that
    action first, then the other players follow suit in Clockwise order' (L373)."""
    s = Scenario(3).first(1)
    for seat, name in ((0, "Egyptians"), (1, "Assyrians"), (2, "Sumerians")):
        s.hand(seat, name).marker(seat, "start")
    s.at("start")
    assert s.actors() == {1}
    s.pass_(1)
    assert s.actors() == {2}
    s.pass_(2)
    assert s.actors() == {0}


def test_being_asked_tells_nothing_a_seat_without_the_action_passes() -> None:
    """A seat with a face-down marker where the action could be taken is asked whatever the marker is, so
    others learn nothing before it is turned; a seat without one of this action may only pass."""
    s = Scenario(2).empire("Egyptians", 0, 3, units={"Egypt": SPEARS})
    s.marker(0, "civilise", "Egyptians").at("production")
    assert s.actors() == {0}
    assert s.legal(0) == [Pass(0)]


def test_the_wild_card_converts_at_any_action() -> None:
    """'It may be turned over during any action to convert into an action of that type' (L353); the
    empire then gets no free progress without an Administrator (L355): :func:`took_wild` tells."""
    s = Scenario(2).empire("Egyptians", 0, 3, capital="Egypt", units={"Egypt": SPEARS}).city("Egypt", 1)
    s.marker(0, "wild", "Egyptians").at("production")
    assert TurnMarker(0, 0) in s.legal(0)
    s.turn_over(0, "Egyptians")
    assert s.of_type("marker_turned")[-1] == {"seat": 0, "empire": card("Egyptians"), "action": "production",
                                              "wild": True}
    assert s.of_type("income")[-1]["amount"] == 6
    assert took_wild(s.state, card("Egyptians"))


def test_a_wild_card_in_front_of_a_player_starts_an_empire() -> None:
    s = Scenario(2).hand(0, "Egyptians").marker(0, "wild").at("start")
    s.turn_over(0)
    assert s.legal(0) == [StartCard(0, card("Egyptians"))]


def test_a_marker_left_face_down_misses_its_go_and_stays_hidden() -> None:
    """'You may always decide not to turn over a marker, in which case your empire misses its go' (L377)."""
    s = Scenario(2).empire("Egyptians", 0, 3, money=4, capital="Egypt", units={"Egypt": SPEARS})
    s.marker(0, "production", "Egyptians").at("production").pass_(0)
    assert s.empire_of("Egyptians").money == 4
    assert s.state.markers[0].face_down
    assert GAME.view(s.state, 1)["markers"][0]["action"] is None


def test_the_turn_marker_passes_left_and_a_new_turn_places_markers() -> None:
    """'The player with the turn marker hands it to the player to their left' (L1148)."""
    s = Scenario(3).empire("Egyptians", 0, 3, units={"Egypt": SPEARS}).first(2)
    s.marker(0, "production", "Egyptians").at("production").end_turn()
    assert s.state.phase == MARKERS and s.state.turn == 2 and s.state.first == 0
    assert s.state.markers == ()


def test_progress_beyond_the_49th_level_ends_the_game_with_seven_glory() -> None:
    """'The game ends at the end of the turn when any empire progresses beyond the 49th Progress level.
    That player gains 7 bonus glory points' (L313-315)."""
    s = Scenario(2).empire("Egyptians", 0, PAST_THE_END, units={"Egypt": SPEARS})
    s.empire("Assyrians", 1, 40, units={"Assyria": SPEARS})
    s.marker(0, "production", "Egyptians").at("production").end_turn()
    assert s.state.phase == OVER
    # the harvest of the turn's end adds its own glory: the bonus is the 'illustrious' part
    assert dict(s.state.people[0].parts)["illustrious"] == 7 and GAME.ranking(s.state) == [0, 1]


def test_a_predesignated_turn_or_glory_total_ends_the_game() -> None:
    """'The game can instead end at a time, glory total or Age you predesignate' (L315)."""
    s = Scenario(2, {"turn_limit": 3}).empire("Egyptians", 0, 3, units={"Egypt": SPEARS}).set(turn=3)
    s.marker(0, "production", "Egyptians").at("production").end_turn()
    assert s.state.phase == OVER
    s = Scenario(2, {"turn_limit": 0, "glory_target": 20}).empire("Egyptians", 0, 3, units={"Egypt": SPEARS})
    s.set(people=(replace(s.state.people[0], glory=20), s.state.people[1]))
    s.marker(0, "production", "Egyptians").at("production").end_turn()
    assert s.state.phase == OVER and GAME.ranking(s.state)[0] == 0
    s = Scenario(2, {"turn_limit": 0, "end_age": 2}).empire("Egyptians", 0, 15, units={"Egypt": SPEARS})
    s.marker(0, "production", "Egyptians").at("production").end_turn()
    assert s.state.phase == OVER
    # level 13: the free progress of the turn's end (half B) takes it to 14, still in age 2
    s = Scenario(2, {"turn_limit": 0, "end_age": 2}).empire("Egyptians", 0, 13, units={"Egypt": SPEARS})
    s.marker(0, "production", "Egyptians").at("production").end_turn()
    assert s.state.phase == MARKERS


def test_option_five_spare_markers_are_drafted_in_secret() -> None:
    """Option 5 (L1186): 'at the start of each turn the First player picks the spare set of action markers,
    secretly chooses one to add to their action markers, and passes the remainder face-down to the player
    to their left ... until all players have chosen a marker.'"""
    s = Scenario(4, {"enhanced_play": True}).first(2).at(DRAFT)
    assert s.state.phase == DRAFT and s.actors() == {2}
    assert GAME.view(s.state, 2)["spare_offered"] == sorted(MARKER_SET)
    assert GAME.view(s.state, 3)["spare_offered"] is None
    s.play(DraftMarker(2, "trade"))
    offered = GAME.view(s.state, 3)["spare_offered"]
    assert s.actors() == {3} and offered is not None and "trade" not in offered
    assert "trade" not in json.dumps(GAME.view(s.state, 0))
    s.play(DraftMarker(3, "wild"), DraftMarker(0, "start"), DraftMarker(1, "civilise"))
    assert s.state.phase == MARKERS
    # seat 0 now holds two start markers: one of its set and the drafted one, and may place both in front
    assert s.state.people[0].drafted == ("start",)
    s.play(PlaceMarker(0, EXTRA, "start"), PlaceMarker(0, EXTRA, "start"))
    assert 0 not in s.actors()


def test_a_seat_handed_two_spare_sets_is_told_what_it_is_handed() -> None:
    """Option 5 with 3 players (L1188-1190): 'use 2 spare sets ... go round the table twice'. Seat 1 is handed
    the markers seat 0 left, and sees them as at the table; with two of a kind its choices stay the same
    whichever seat 0 took, so a private event tells it (and only it) what it is handed."""
    s = Scenario(3, {"enhanced_play": True}).first(0).at(DRAFT)
    names = ["alice (Blue)", "bob (Red)", "carol (Green)"]
    told = {}
    for taken in ("trade", "civilise"):
        result = GAME.apply(s.state, DraftMarker(0, taken))
        left = list(MARKER_SET * 2)
        left.remove(taken)
        handed = [e for e in result.events if e.type == "spare_markers_handed"]
        assert [e.audience for e in handed] == [(1,)]
        assert sorted(handed[0].data["markers"]) == sorted(left)
        assert GAME.view(result.state, 1)["spare_offered"] == sorted(left)
        # its moves, one per kind, tell it nothing of what seat 0 took
        assert GAME.legal_actions(result.state, 1) == [DraftMarker(1, m) for m in sorted(set(MARKER_SET))]
        told[taken] = GAME.describe_event(handed[0], names)
    assert told["trade"] is not None and told["trade"].startswith("alice (Blue) passes you")
    assert "1 Trade and progress marker" in told["trade"] and "2 Civilise markers" in told["trade"]
    other = str(told["civilise"])
    assert "2 Trade and progress markers" in other and "1 Civilise marker" in other


def test_option_five_draft_with_three_players_keeps_the_contract() -> None:
    """The census's contract playout that found the draft telling a seat nothing of the spare markers it is
    handed (3 players, seed 3: the swap check at move 32)."""
    run = random_playout(SPEC, 3, 3, "random", options=CENSUS_OPTIONS)
    assert not run.problems, run.problems[:3]


def test_option_five_with_two_players_gives_two_sets() -> None:
    """Option 5 (L1192): 'If 2 people are playing, each may play with 2 (Classic/Deluxe) ... sets'."""
    s = Scenario(2, {"enhanced_play": True})
    assert sorted(s.state.people[0].marker_set) == sorted(MARKER_SET * 2)


def test_a_move_that_shows_something_cannot_be_taken_back() -> None:
    """Turning a marker over shows it and playing a card shows the card: neither is undoable; a unit
    built in a player's own go is."""
    s = Scenario(2).empire("Egyptians", 0, 3, money=20, capital="Egypt", units={"Egypt": SPEARS})
    s.hand(0, "Romans").marker(0, "production", "Egyptians").at("production")
    before = s.state
    result = s.apply(TurnMarker(0, 0))
    assert not GAME.undoable(before, TurnMarker(0, 0), result)
    build = next(a for a in s.legal(0) if a.kind == "build")
    before = s.state
    assert GAME.undoable(before, build, s.apply(build))
