"""Option 5's interleaved Manoeuvre (L1194-1200): one marker each in turn, through example E36.

"Each *Manoeuvre* each player turns over one marker and carries out that action for one empire before
the *First player* can turn over a second marker and perform that same action with a second empire and
so on. If a player passes, they may not later perform *manoeuvre* this turn." (L1194). Without the
option a player turns over their markers one after another (L373), as before.
"""

from __future__ import annotations

from engine.seven_ages.actions import Pass, TurnMarker
from engine.seven_ages.game import GAME
from engine.seven_ages.manoeuvre_moves import EndMovement, MoveFrom, MoveTo, MoveUnits, StopHere
from engine.seven_ages.state import WILD
from tests.seven_ages_builder import Scenario, card

ANNA, PETER, ALEX = 0, 1, 2
NAMES = ("Anna (Red)", "Peter (Blue)", "Alex (Green)")


def e36(options: dict[str, object]) -> Scenario:
    """E36 (L1196): "Anna, Peter and Alex are playing a 3-player game ... She puts a *manoeuvre* on her
    Roman empire (card 12), another on her Huns (card 68) and a *Wild card* on her Irish (card 87). Peter
    has a *manoeuvre* marker on his Parthians (card 16)." Alex has a manoeuvre marker too (on his
    Egyptians): he passes all the same, and his marker stays face down."""
    s = Scenario(players=3, options=options)
    s.empire("Romans", owner=ANNA, progress=10, units={"Latium": {"Spear": 3}})
    s.empire("Huns", owner=ANNA, progress=10, units={"Kazakh Steppe": {"Spear": 2}})
    s.empire("Irish", owner=ANNA, progress=12, units={"Ireland": {"Spear": 2}})
    s.empire("Parthians", owner=PETER, progress=10, units={"Parthia": {"Spear": 2}})
    s.empire("Egyptians", owner=ALEX, progress=10, units={"Egypt": {"Spear": 2}})
    s.marker(ANNA, "manoeuvre", "Romans").marker(ANNA, "manoeuvre", "Huns").marker(ANNA, WILD, "Irish")
    s.marker(PETER, "manoeuvre", "Parthians").marker(ALEX, "manoeuvre", "Egyptians")
    return s.at("manoeuvre")


def turned(s: Scenario) -> list[int]:
    """The empires whose markers were turned over, in order."""
    return [int(d["empire"]) for d in s.of_type("marker_turned")]


def test_e36_each_player_turns_one_marker_before_the_first_turns_a_second() -> None:
    """L1198: "At the start of *Manoeuvre*, Anna turns over the marker on her Romans, moves them and resolves
    any conflict. Peter then turns over the marker on his Parthians and moves them. Alex passes. Anna now
    turns over the marker and moves her Huns. Peter and Alex both pass. Finally, Anna turns over the *Wild
    card*, announces it's a *manoeuvre* and moves her Irish." """
    s = e36({"enhanced_play": True})
    assert s.actors() == {ANNA}
    s.turn_over(ANNA, "Romans")
    s.play(MoveFrom(ANNA, "Latium"), MoveUnits(ANNA, "Spear", 1), MoveTo(ANNA, "Campania"), StopHere(ANNA))
    assert s.actors() == {ANNA}, "Anna's go runs to its end"
    s.play(EndMovement(ANNA))
    # before Anna may turn her Huns, Peter turns his Parthians
    assert s.actors() == {PETER}
    assert TurnMarker not in {type(a) for a in s.legal(ANNA)}
    s.turn_over(PETER, "Parthians").play(EndMovement(PETER))
    assert s.actors() == {ALEX}
    s.pass_(ALEX)
    assert s.actors() == {ANNA}
    s.turn_over(ANNA, "Huns").play(EndMovement(ANNA))
    # "If a player passes, they may not later perform manoeuvre this turn": Alex is not asked again,
    # and Peter has no marker left to turn
    assert s.actors() == {ANNA}
    wild = next(a for a in s.legal(ANNA) if isinstance(a, TurnMarker))
    choice = next(c for c in GAME.decision(GAME.view(s.state, ANNA), ANNA, s.legal(ANNA), NAMES).choices
                  if c.action == wild)
    assert choice.label == "Turn over the Wild card marker on the Irish as Manoeuvre"
    s.play(wild)
    assert s.of_type("marker_turned")[-1]["wild"] is True
    s.play(EndMovement(ANNA))
    assert s.state.phase != "manoeuvre", "nobody is asked again: the action is over"
    assert turned(s) == [card("Romans"), card("Parthians"), card("Huns"), card("Irish")]
    assert [d["seat"] for d in s.of_type("action_passed")] == [ALEX]
    alex = next(m for m in s.state.markers if m.owner == ALEX)
    assert alex.face_down, "Alex's Egyptians missed their go"
    assert s.empire_of("Romans").count("Campania") == 1, "Anna moved her Romans"


def test_a_seat_that_passes_is_never_asked_again_while_others_go_on() -> None:
    """L1194: a pass is for the rest of the action, even with a marker left face down: Alex passes after
    Anna's Romans and Peter's Parthians and is skipped each time round after that."""
    s = e36({"enhanced_play": True})
    s.turn_over(ANNA, "Romans").play(EndMovement(ANNA))
    s.turn_over(PETER, "Parthians").play(EndMovement(PETER))
    asked = []
    s.pass_(ALEX)
    while s.state.phase == "manoeuvre":
        asked.append(min(s.actors()))
        seat = min(s.actors())
        move = next((a for a in s.legal(seat) if isinstance(a, TurnMarker)), None)
        s.play(move if move is not None else EndMovement(seat) if s.state.go_of(seat) else Pass(seat))
    assert ALEX not in asked
    assert asked == [ANNA] * 4  # Huns: turn, end movement; Irish: turn, end movement


def test_without_option_5_a_player_turns_their_markers_one_after_another() -> None:
    """Without the option "the First player turns over their action marker(s) and does that action first,
    then the other players follow suit in Clockwise order after that player finishes" (L373)."""
    s = e36({})
    s.turn_over(ANNA, "Romans").play(EndMovement(ANNA))
    assert s.actors() == {ANNA}, "Anna goes on with her next marker"
    s.turn_over(ANNA, "Huns").play(EndMovement(ANNA))
    s.turn_over(ANNA, "Irish").play(EndMovement(ANNA))
    assert s.actors() == {PETER}
    s.turn_over(PETER, "Parthians").play(EndMovement(PETER))
    assert s.actors() == {ALEX}
    s.turn_over(ALEX, "Egyptians").play(EndMovement(ALEX))
    assert turned(s) == [card(n) for n in ("Romans", "Huns", "Irish", "Parthians", "Egyptians")]


def test_option_5_interleaves_manoeuvre_only() -> None:
    """L1194 speaks of Manoeuvre: at Discard empire, with option 5, Anna still discards both her empires
    before Peter is asked."""
    s = Scenario(players=3, options={"enhanced_play": True})
    s.empire("Romans", owner=ANNA, progress=10, units={"Latium": {"Spear": 1}})
    s.empire("Huns", owner=ANNA, progress=10, units={"Kazakh Steppe": {"Spear": 1}})
    s.empire("Parthians", owner=PETER, progress=10, units={"Parthia": {"Spear": 1}})
    s.marker(ANNA, "discard", "Romans").marker(ANNA, "discard", "Huns").marker(PETER, "discard", "Parthians")
    s.at("discard").turn_over(ANNA, "Romans")
    assert s.actors() == {ANNA}
    s.turn_over(ANNA, "Huns")
    assert s.actors() == {PETER}


def test_the_next_seat_turns_next_when_a_go_ends_with_its_empire() -> None:
    """A go may end without its player ending it: Anna's Romans, one galley at sea with no Roman land
    beside it, are lost at sea as the galley stops ("a galley ... not adjacent to a land area its empire
    controls ... is lost", L654) and the Romans, with no units, are discarded at once (L1012). Still
    Peter turns his marker before Anna turns her Huns'."""
    s = Scenario(players=3, options={"enhanced_play": True})
    s.empire("Romans", owner=ANNA, progress=10, units={"Tyrrhenian Sea": {"Galley": 1}})
    s.empire("Huns", owner=ANNA, progress=10, units={"Kazakh Steppe": {"Spear": 2}})
    s.empire("Parthians", owner=PETER, progress=10, units={"Parthia": {"Spear": 2}})
    s.marker(ANNA, "manoeuvre", "Romans").marker(ANNA, "manoeuvre", "Huns")
    s.marker(PETER, "manoeuvre", "Parthians").at("manoeuvre")
    s.turn_over(ANNA, "Romans").play(MoveFrom(ANNA, "Tyrrhenian Sea"), MoveUnits(ANNA, "Galley", 1))
    s.play(MoveTo(ANNA, "Western Mediterranean"), StopHere(ANNA))
    assert [d["empire"] for d in s.of_type("galleys_lost")] == [card("Romans")]
    assert not s.state.has_empire(card("Romans")) and s.state.go_of(ANNA) is None
    assert s.actors() == {PETER}
