"""The Strategist's second move drops units off on its way (L787).

L787: "units stacked with a Strategist may move and resolve conflicts again provided they remain stacked
with the Strategist throughout their move (they may be dropped off in areas the Strategist moves
through)." Dropped units stop where they are left, as cargo set down does (L632: "transported units may
not move further this action"). Each scenario is arranged with the fluent builder and played through
``GAME.apply`` only.
"""

from __future__ import annotations

from dataclasses import replace

from engine.seven_ages.conflict_moves import Commit, FightIn
from engine.seven_ages.groups import DROP_CHOICES
from engine.seven_ages.manoeuvre_moves import (
    DropOff,
    EndMovement,
    MoveBack,
    MoveFrom,
    MoveTo,
    MoveUnits,
    StopHere,
    TakeLeader,
)
from engine.seven_ages.state import Leader
from tests.seven_ages_builder import Scenario


def second_move(s: Scenario, seat: int, empire: str) -> Scenario:
    """Open Manoeuvre with ``seat``'s marker on ``empire``, end the first movement at once (no conflict
    follows), so the Strategist's second move begins."""
    s.marker(seat, "manoeuvre", empire).at("manoeuvre").turn_over(seat, empire).play(EndMovement(seat))
    assert s.of_type("strategist_moves"), "the second move should have begun"
    return s


def romans(units: dict[str, dict[str, int]], progress: int = 10, at: str = "Latium") -> Scenario:
    """The Romans with these units and a Strategist in ``at``, for seat 0 of two."""
    return Scenario(players=2).empire("Romans", owner=0, progress=progress, units=units,
                                      leaders={"Strategist": ("Strategist", at)})


def test_a_unit_dropped_on_the_way_stops_there_and_moves_no_more() -> None:
    """Two spears ride with the Strategist Tuscany -> Latium -> Campania (fertile, 1 point each); one is
    left in Latium, the other goes on to Campania. The one left ends its move there: it is recorded as
    moved, so even a second Strategist standing in Latium cannot lead it anywhere this action."""
    s = romans({"Tuscany": {"Spear": 3}}, at="Tuscany")
    rome = s.empire_of("Romans")
    s.set(empires=(replace(rome, leaders=(*rome.leaders, Leader("Strategist", ("Strategist",), "Latium"))),))
    second_move(s, 0, "Romans")
    s.play(MoveFrom(0, "Tuscany"), MoveUnits(0, "Spear", 2), TakeLeader(0, "Strategist"), MoveTo(0, "Latium"))
    assert DropOff(0, "Spear", 1) in s.legal(0)
    s.play(DropOff(0, "Spear", 1))
    dropped = s.of_type("units_dropped")[-1]
    assert (dropped["area"], dropped["count"]) == ("Latium", 1)
    s.play(MoveTo(0, "Campania"), StopHere(0))
    rome = s.empire_of("Romans")
    assert (rome.count("Tuscany"), rome.count("Latium"), rome.count("Campania")) == (1, 1, 1)
    # the Strategist waiting in Latium has only the dropped spear: it may not move again (L632, L787)
    assert MoveFrom(0, "Latium") not in s.legal(0)
    s.illegal(MoveFrom(0, "Latium"), "no_stack")
    assert sorted(ld.area for ld in rome.leaders) == ["Campania", "Latium"]  # the first rode on


def test_refusals_of_a_drop_off() -> None:
    """A drop is offered only where the group has gone (not before its first step), of units it has, and
    never of the last unit the Strategist rides with (L628: a leader moves with one unit for its whole
    move; leaving them all is stopping)."""
    s = second_move(romans({"Latium": {"Spear": 3}}), 0, "Romans")
    s.play(MoveFrom(0, "Latium"), MoveUnits(0, "Spear", 2), TakeLeader(0, "Strategist"))
    s.illegal(DropOff(0, "Spear", 1), "not_moved")  # not a place the Strategist moved through
    s.play(MoveTo(0, "Campania"))
    s.illegal(DropOff(0, "Spear", 3), "not_in_group")
    s.illegal(DropOff(0, "Sword", 1), "not_in_group")
    assert DropOff(0, "Spear", 2) not in s.legal(0)
    error = s.illegal(DropOff(0, "Spear", 2), "leader_needs_unit")
    assert error.message == ("Each leader rides on with one unit of its own (L628): keep a unit with each, "
                             "or stop here.")
    assert [a for a in s.legal(0) if isinstance(a, DropOff)] == [DropOff(0, "Spear", 1)]


def test_no_drop_off_in_the_first_move() -> None:
    """Only cargo is set down on the way in an ordinary move (L632); the group's own units stop together."""
    s = romans({"Latium": {"Spear": 3}})
    s.marker(0, "manoeuvre", "Romans").at("manoeuvre").turn_over(0, "Romans")
    s.play(MoveFrom(0, "Latium"), MoveUnits(0, "Spear", 2), MoveTo(0, "Campania"))
    assert not [a for a in s.legal(0) if isinstance(a, DropOff)]
    s.illegal(DropOff(0, "Spear", 1), "not_aboard")


def test_a_dropped_unit_fights_where_it_is_left() -> None:
    """Aircraft fly on through areas holding only other empires' land units (L660): a fighter left with the
    Carthaginians in Campania while the Strategist flies on fights there once movement ends (L702)."""
    s = romans({"Latium": {"Spear": 1, "Fighter": 2}}, progress=45)
    s.empire("Carthaginians", owner=1, progress=10, units={"Campania": {"Spear": 1}})
    second_move(s, 0, "Romans")
    s.play(MoveFrom(0, "Latium"), MoveUnits(0, "Fighter", 2), TakeLeader(0, "Strategist"),
           MoveTo(0, "Campania"), DropOff(0, "Fighter", 1), MoveTo(0, "Calabria"), StopHere(0))
    s.play(EndMovement(0))
    rome = s.empire_of("Romans")
    assert (rome.count("Campania", "Fighter"), rome.count("Calabria", "Fighter")) == (1, 1)
    assert [a for a in s.legal(0) if isinstance(a, FightIn)] == [FightIn(0, "Campania")]
    s.play(FightIn(0, "Campania"))
    assert Commit(0, "Fighter", 1) in s.legal(0)


def test_units_dropped_by_the_group_do_not_count_as_already_there() -> None:
    """L638: land units move through an area holding another empire's units only with twice as many of
    their own *already* there. A first Strategist's group ends beside one Carthaginian spear in Campania;
    a second group, passing through, may not make up the two by leaving a unit of its own."""
    s = romans({"Tuscany": {"Spear": 4}}, at="Tuscany")
    rome = s.empire_of("Romans")
    s.set(empires=(replace(rome, leaders=(*rome.leaders, Leader("Strategist", ("Strategist",), "Tuscany"))),))
    s.empire("Carthaginians", owner=1, progress=10, units={"Latium": {"Spear": 1}})
    second_move(s, 0, "Romans")
    s.play(MoveFrom(0, "Tuscany"), MoveUnits(0, "Spear", 1), TakeLeader(0, "Strategist"),
           MoveTo(0, "Latium"), StopHere(0))
    s.play(MoveFrom(0, "Tuscany"), MoveUnits(0, "Spear", 2), TakeLeader(0, "Strategist"),
           MoveTo(0, "Latium"), DropOff(0, "Spear", 1))
    assert MoveTo(0, "Campania") not in s.legal(0)
    s.illegal(MoveTo(0, "Campania"), "outnumber")


def test_drop_off_choices_stay_few() -> None:
    """One or all of each type, at most :data:`DROP_CHOICES` in one decision (issue 26: small decisions)."""
    units = {"Spear": 2, "Sword": 2, "Archer": 2, "Catapult": 2, "Chariot": 2, "Lt. Horse": 2,
             "Hs. Archer": 2}
    s = second_move(romans({"Latium": {**units, "Spear": 3}}, progress=30), 0, "Romans")  # one stays (L668)
    s.play(MoveFrom(0, "Latium"), *(MoveUnits(0, u, n) for u, n in units.items()))
    s.play(TakeLeader(0, "Strategist"), MoveTo(0, "Campania"))
    drops = [a for a in s.legal(0) if isinstance(a, DropOff)]
    assert len(drops) == DROP_CHOICES < 2 * len(units)


def test_steps_taken_back_after_a_drop_end_where_the_units_were_left() -> None:
    """What was left on the way travelled there for good (L632, L787): taking the group's steps back then
    returns it to where it last left units, with the points it had there, never to its start with its
    points whole (which would let a group carry units ahead and come back fresh)."""
    s = romans({"Tuscany": {"Spear": 3}}, at="Tuscany")
    second_move(s, 0, "Romans")
    s.play(MoveFrom(0, "Tuscany"), MoveUnits(0, "Spear", 2), TakeLeader(0, "Strategist"), MoveTo(0, "Latium"),
           DropOff(0, "Spear", 1))
    assert MoveBack(0) not in s.legal(0)  # nothing moved since the drop: no steps to take back
    s.illegal(MoveBack(0), "not_moved")
    s.play(MoveTo(0, "Campania"), MoveBack(0))
    rome = s.empire_of("Romans")
    assert (rome.count("Tuscany"), rome.count("Latium"), rome.count("Campania")) == (1, 2, 0)
    assert s.of_type("units_moved_back")[-1]["area"] == "Latium"
    assert MoveBack(0) not in s.legal(0) and StopHere(0) in s.legal(0)
