"""7 Ages' "you're next" (issue 30) at Start empire (L379-471): a new empire may fight over its start
areas (L445), which asks the seats there before the next seat of the queue, so the seat starting is
followed by the next one only once it is past those conflicts or holds no card to start with."""

from __future__ import annotations

from engine.seven_ages import battle
from engine.seven_ages.actions import Build, ChooseColour, ChooseLeader, Done, Pass, StartCard
from engine.seven_ages.conflict_moves import FightIn
from engine.seven_ages.game import GAME
from tests.seven_ages_builder import Scenario, card


def _romans_against_the_etruscans() -> Scenario:
    """Seat 0 (a Start marker and the Romans) starts; seat 1's Etruscans hold Latium, a Roman start area;
    seat 2 has a Start marker and no card."""
    s = Scenario(players=3).hand(0, "Romans").marker(0, "start").marker(2, "start")
    s.empire("Etruscans", owner=1, progress=9, money=9, capital="Latium", units={"Latium": {"Spear": 1}})
    return s.at("start")


def test_a_seat_that_may_start_an_empire_is_followed_by_nobody_named() -> None:
    """Holding a card it may start an empire whose start areas hold others' units: nobody is named."""
    s = _romans_against_the_etruscans()
    assert GAME.actors(s.state) == {0}
    assert GAME.up_next(s.state) is None
    s.turn_over(0).play(StartCard(0, card("Romans")))
    s.play(next(a for a in s.legal(0) if isinstance(a, ChooseColour)))
    s.play(ChooseLeader(0, "", ""), Build(0, "Spear", "Latium"), Build(0, "Spear", "Latium"), Done(0))
    assert s.go_stage(0) == battle.FIGHT and GAME.actors(s.state) == {0}
    assert GAME.up_next(s.state) is None
    s.play(FightIn(0, "Latium"))
    assert 1 in GAME.actors(s.state)  # the Etruscans' seat is asked first: naming seat 2 would be wrong


def test_a_seat_without_a_card_or_past_its_conflicts_names_the_next_seat() -> None:
    """Past the conflicts (the forts) the rest is the seat's alone: the next seat of the queue is named
    and is the next asked; a seat with no card can only pass, so the one after it is named too."""
    s = _romans_against_the_etruscans()
    s.empire("Etruscans", owner=1, progress=9, units={"Campania": {"Spear": 1}})  # Latium left free
    s.turn_over(0).play(StartCard(0, card("Romans")))
    s.play(next(a for a in s.legal(0) if isinstance(a, ChooseColour)))
    s.play(ChooseLeader(0, "", ""), Build(0, "Spear", "Latium"), Build(0, "Spear", "Latium"), Done(0))
    assert s.go_stage(0) in ("forts", "free_forts") and GAME.actors(s.state) == {0}
    assert GAME.up_next(s.state) == 2
    while s.state.go_of(0) is not None:
        s.play(Done(0) if Done(0) in s.legal(0) else s.legal(0)[0])
    assert GAME.actors(s.state) == {2}
    assert GAME.up_next(s.state) is None  # the last seat of the queue: nobody after it
    s = Scenario(players=3).hand(0).marker(0, "start").marker(2, "start").at("start")
    assert GAME.actors(s.state) == {0} and s.legal(0) == [Pass(0)]
    assert GAME.up_next(s.state) == 2
    s.play(Pass(0))
    assert GAME.actors(s.state) == {2}
