"""Which unit goes when disorder is removed by units (L688) is the player's choice (issue 26).

"As you remove each disorder marker, if the area doesn't have a fort, remove one of your empire's units in
the area as well. [Designer's note: it's policing the troublesome province]" (L688). E21's Mongols
(L692-698) in disordered, mountainous Armenia with a 1-value city, arranged with the fluent builder and
played through ``GAME.apply`` only.
"""

from __future__ import annotations

from engine import registry
from engine.seven_ages.actions import Done
from engine.seven_ages.actions_move import EndMovement, MoveFrom, MoveTo, MoveUnits, Pacify, Police, StopHere
from engine.seven_ages.ai import make_policy
from engine.seven_ages.game import GAME
from tests.contract.checks import Playout, check_decision, check_hidden_moves
from tests.seven_ages_builder import Scenario, card
from tests.test_seven_ages_manoeuvre import manoeuvre

NAMES = ("alice (Blue)", "bob (Red)")


def _armenia(moving: dict[str, int], resident: str = "Spear") -> Scenario:
    """The Mongols move ``moving`` from Media into Armenia (one Spear stays in Media, L668), where one
    ``resident`` unit of theirs already stands, then end movement: the disorder may go."""
    s = Scenario(players=2)
    s.empire("Mongols", owner=0, progress=18,
             units={"Armenia": {resident: 1}, "Media": {**moving, "Spear": moving.get("Spear", 0) + 1}})
    s.city("Armenia", 1).disorder("Armenia")
    manoeuvre(s, 0, "Mongols").play(MoveFrom(0, "Media"))
    for unit, n in moving.items():
        s.play(MoveUnits(0, unit, n))
    return s.play(MoveTo(0, "Armenia"), StopHere(0), EndMovement(0))


def _said(s: Scenario, kind: str) -> str:
    event = next(e for e in reversed(s.events) if e.type == kind)
    words = GAME.describe_event(event, NAMES)
    assert words is not None
    return words


def _mongols(s: Scenario) -> dict[str, int]:
    return {st.unit: st.count for st in s.empire_of("Mongols").units if st.area == "Armenia"}


def test_the_mongols_choose_the_catapult_to_go() -> None:
    """L696: with a Catapult among them, 5 units (2 + 3 mountain, the city counting 0) remove the disorder;
    the Mongols, asked which unit goes, give up the Catapult, counted before it went."""
    s = _armenia({"Spear": 3, "Catapult": 1})
    s.play(Pacify(0, "Armenia"))
    assert s.area("Armenia").disorder  # nothing happens until the unit is chosen
    assert s.legal(0) == [Police(0, "Catapult"), Police(0, "Spear")]
    decision = GAME.decision(GAME.view(s.state, 0), 0, s.legal(0), NAMES)
    assert decision.heading.endswith(": remove which unit from Armenia (policing the province)?")
    assert [c.label for c in decision.choices] == ["Remove 1 Catapult", "Remove 1 Spear"]
    s.play(Police(0, "Catapult"))
    assert not s.area("Armenia").disorder
    assert _mongols(s) == {"Spear": 4}
    assert _said(s, "disorder_pacified") == ("The Mongols remove the disorder in Armenia and remove 1 "
                                             "Catapult of theirs there with it.")
    assert s.state.go_of(0) is None  # no more disorder to remove, no conflict: the go is over


def test_or_they_choose_a_spear() -> None:
    s = _armenia({"Spear": 3, "Catapult": 1}).play(Pacify(0, "Armenia"), Police(0, "Spear"))
    assert _mongols(s) == {"Spear": 3, "Catapult": 1}
    assert not s.area("Armenia").disorder


def test_one_type_of_unit_there_asks_nothing_and_says_so_to_its_owner() -> None:
    """L692-694: six Spears, one goes; nothing to choose. Only the owner is told why (the others see the
    top unit of a stack and its size, not that every unit in it is a Spear, L791)."""
    s = _armenia({"Spear": 5})
    s.play(Pacify(0, "Armenia"))
    assert _mongols(s) == {"Spear": 5} and not s.area("Armenia").disorder
    assert s.state.go_of(0) is None
    forced = next(e for e in s.events if e.type == "policing_forced")
    assert forced.audience == (0,)
    assert GAME.describe_event(forced, NAMES) == ("Every unit of the Mongols in Armenia is a Spear: 1 Spear "
                                                  "goes with the disorder, with nothing to choose.")
    public = next(e for e in s.events if e.type == "disorder_pacified")
    assert public.visible_to(1) and public.data["lost"] == "Spear"


def test_a_fort_keeps_every_unit_and_asks_nothing() -> None:
    """L686-688: the fort counts as a unit, and no unit is removed where there is one."""
    s = Scenario(players=2)
    media = {"Spear": 3, "Catapult": 1}
    s.empire("Mongols", owner=0, progress=18, units={"Armenia": {"Spear": 1}, "Media": media})
    s.city("Armenia", 1).disorder("Armenia").fort("Armenia")
    manoeuvre(s, 0, "Mongols").play(MoveFrom(0, "Media"), MoveUnits(0, "Spear", 2),
                                    MoveUnits(0, "Catapult", 1), MoveTo(0, "Armenia"), StopHere(0),
                                    EndMovement(0), Pacify(0, "Armenia"))
    assert _mongols(s) == {"Spear": 3, "Catapult": 1} and not s.area("Armenia").disorder
    assert s.state.go_of(0) is None


def test_bad_input_gets_one_sentence_and_changes_nothing() -> None:
    s = _armenia({"Spear": 3, "Catapult": 1}).play(Pacify(0, "Armenia"))
    refused = s.illegal(Police(0, "Tank"), "bad_police")
    assert refused.message == "You have no Tank among the units that may be lost here."
    assert s.illegal(Done(0), "wrong_move").message == "Choose the unit you remove from Armenia with its " \
                                                       "disorder."
    s.illegal(Pacify(0, "Armenia"), "wrong_move")
    assert s.area("Armenia").disorder and _mongols(s) == {"Spear": 4, "Catapult": 1}


def test_the_computer_and_a_timed_out_seat_remove_the_cheapest_as_before() -> None:
    """Before the player chose, the engine removed the unit of the lowest cost, then the earliest available:
    an Archer (cost 3, level 1) before a Catapult (cost 3, level 11) and a Lt. Horse (cost 4)."""
    s = _armenia({"Catapult": 2, "Lt. Horse": 2}, resident="Archer").play(Pacify(0, "Armenia"))
    assert s.legal(0) == [Police(0, "Archer"), Police(0, "Catapult"), Police(0, "Lt. Horse")]
    assert GAME.timeout_action(s.state, 0) == Police(0, "Archer")
    assert make_policy("greedy", 1).choose(s.state, 0) == Police(0, "Archer")
    s.apply(GAME.timeout_action(s.state, 0))
    assert _mongols(s) == {"Catapult": 2, "Lt. Horse": 2}


def test_the_other_seat_sees_that_a_unit_is_chosen_not_which_units_are_there() -> None:
    s = _armenia({"Spear": 3, "Catapult": 1}).play(Pacify(0, "Armenia"))
    theirs = GAME.view(s.state, 1)
    go = next(g for g in theirs["goes"] if g["empire"] == card("Mongols"))
    assert "policing" not in go["data"]  # the area being policed is the go owner's, as the rest of the go
    assert "policing" in next(g for g in GAME.view(s.state, 0)["goes"] if g["seat"] == 0)["data"]


def test_the_police_decision_keeps_the_contract() -> None:
    """The shared contract's decision and swap checks: each move offered once with a readable label, the
    timed-out move legal, and no move telling another seat what it hides."""
    s = _armenia({"Spear": 3, "Catapult": 1}).play(Pacify(0, "Armenia"))
    out = Playout(registry.spec("seven-ages"), 2, 1)
    assert s.actors() == {0}
    for seat in sorted(s.actors()):
        check_decision(out, GAME, s.state, seat, 0)
        check_hidden_moves(out, GAME, s.state, seat, 0)
    assert out.problems == []
