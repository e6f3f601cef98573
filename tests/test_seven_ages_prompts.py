"""7 Ages' prompt economy (issue 29, item 1): a stage answered with the move before it, never a lone
question left for what the hand holds, and nothing told to the others that a table would not see.

The readings are in data/seven_ages/README.md, "Moves played at once".
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.core import IllegalAction
from engine.seven_ages.actions import Pass, StartCard, TurnMarker
from engine.seven_ages.civilise import LEADERS
from engine.seven_ages.decision import choice
from engine.seven_ages.game import GAME
from tests.seven_ages_builder import Scenario, card

NOTHING_TO_PLAY, AN_AREA_EVENT = 1, 2
"""Card 1's event is of the harvest (not playable in Civilise); card 2's is an event on an area (L861)."""


def _before_civilise(hand: int) -> Scenario:
    """Alice (seat 0) holds one card and a face-down Civilise marker on her Egyptians, at Civilise."""
    s = Scenario(players=2)
    s.empire("Egyptians", owner=0, progress=3, money=10, capital="Egypt", units={"Egypt": {"Spear": 1}})
    s.empire("Parthians", owner=1, progress=3, units={"Persis": {"Spear": 1}})
    return s.city("Egypt", 1).hand(0, hand).marker(0, "civilise", "Egyptians").at("civilise")


def _marker(s: Scenario) -> int:
    return next(i for i, m in enumerate(s.state.markers) if m.owner == 0 and m.action == "civilise")


def test_a_civilise_with_no_card_to_play_begins_past_its_cards() -> None:
    """L861: the cards are played "during your empire's civilise action". Holding no card Civilise can
    play, the turn is offered as "turn over, playing no card": the go begins at its leaders (L936), and the
    lone Finish of the cards stage, asked whatever the hand holds, is not asked."""
    s = _before_civilise(NOTHING_TO_PLAY)
    i = _marker(s)
    assert GAME.legal_actions(s.state, 0) == [TurnMarker(0, i, no_cards=True), Pass(0)]
    s.play(TurnMarker(0, i, no_cards=True))
    go = s.state.go_of(0)
    assert go is not None and go.stage == LEADERS


def test_a_seat_that_could_play_is_offered_the_same_turn_and_shows_the_same() -> None:
    """Holding an event it may play, the seat is offered both turns; taking the one without cards, the
    other seat and a spectator see the same events and view as when it held nothing to play."""
    idle = _before_civilise(NOTHING_TO_PLAY)
    # the twin: the same state but for the card in alice's hand, exchanged with the unseen deck's
    assert AN_AREA_EVENT in idle.state.deck
    deck = tuple(NOTHING_TO_PLAY if c == AN_AREA_EVENT else c for c in idle.state.deck)
    able = Scenario(players=2)
    holding = replace(idle.state.people[0], hand=(AN_AREA_EVENT,))
    able.state = replace(idle.state, deck=deck).with_player(holding)
    i = _marker(able)
    assert GAME.legal_actions(able.state, 0) == [TurnMarker(0, i), TurnMarker(0, i, no_cards=True), Pass(0)]
    results = [GAME.apply(s.state, TurnMarker(0, i, no_cards=True)) for s in (idle, able)]
    for viewer in (1, None):
        seen = [([e for e in r.events if e.visible_to(viewer)], GAME.view(r.state, viewer)) for r in results]
        assert seen[0] == seen[1], viewer
    # the plain turn still opens the cards stage (a stored game's turn reads as it did)
    go = able.play(TurnMarker(0, i)).state.go_of(0)
    assert go is not None and go.stage == "cards"


def test_only_civilise_turns_a_marker_over_playing_no_card() -> None:
    s = Scenario(players=2)
    s.empire("Egyptians", owner=0, progress=3, money=10, capital="Egypt", units={"Egypt": {"Spear": 1}})
    s.hand(0, AN_AREA_EVENT).marker(0, "production", "Egyptians").at("production")
    i = next(i for i, m in enumerate(s.state.markers) if m.owner == 0)
    with pytest.raises(IllegalAction, match="Only a Civilise marker"):
        GAME.apply(s.state, TurnMarker(0, i, no_cards=True))


def _before_start() -> Scenario:
    """Alice (seat 0) holds the Mongols, the one empire card she may start, and the additional marker
    face down as Start empire (L347-349), at Start empire."""
    return Scenario(2).hand(0, card("Mongols")).marker(0, "start").at("start")


def test_the_one_empire_a_seat_may_start_is_started_with_the_turn() -> None:
    """L381: "When you carry out a start empire action, play any card from your hand to start the empire
    shown on the card". With one empire it may start, its card stage was a lone choice asked whatever the
    hand holds; the turn now offers that empire itself, first, beside the plain turn (which a seat with
    several startable empires is offered too), and tells the others what the turn and the card told."""
    s = _before_start()
    i = next(i for i, m in enumerate(s.state.markers) if m.owner == 0)
    mongols = card("Mongols")
    assert GAME.legal_actions(s.state, 0) == [TurnMarker(0, i, start=mongols), TurnMarker(0, i), Pass(0)]
    merged = GAME.apply(s.state, TurnMarker(0, i, start=mongols))
    step = GAME.apply(s.state, TurnMarker(0, i))
    assert GAME.legal_actions(step.state, 0) == [StartCard(0, mongols)]
    two_moves = [*step.events, *GAME.apply(step.state, StartCard(0, mongols)).events]
    for viewer in (1, None):
        assert [e for e in merged.events if e.visible_to(viewer)] == \
            [e for e in two_moves if e.visible_to(viewer)], viewer
    go = merged.state.go_of(0)
    assert go is not None and go.stage != "card" and mongols not in merged.state.people[0].hand


def test_an_empire_the_seat_may_not_start_is_refused_with_the_turn() -> None:
    s = _before_start()
    i = next(i for i, m in enumerate(s.state.markers) if m.owner == 0)
    with pytest.raises(IllegalAction, match="may not start that empire"):
        GAME.apply(s.state, TurnMarker(0, i, start=card("Romans")))


def test_each_empire_is_offered_once_with_a_wild_card_besides_the_start_marker() -> None:
    """A wild card may be turned over as Start empire too (L353): the starts go with the Start marker, so
    no two choices read the same; the wild card keeps its plain turn."""
    s = _before_start().marker(0, "wild")
    start, wild = (next(i for i, m in enumerate(s.state.markers) if m.owner == 0 and m.action == a)
                   for a in ("start", "wild"))
    mongols = card("Mongols")
    assert GAME.legal_actions(s.state, 0) == [TurnMarker(0, start, start=mongols), TurnMarker(0, start),
                                              TurnMarker(0, wild), Pass(0)]
    view = GAME.view(s.state, 0)
    labels = [choice(view, 0, a).label for a in GAME.legal_actions(s.state, 0)]
    assert len(set(labels)) == len(labels)
