"""Which unit goes when disorder is removed by units (L688) is the player's choice (issue 26), named in the
move that removes the marker (issue 27's leak: a second question only where the area held several types of
unit showed the others what the fog of war hides, L791).

"As you remove each disorder marker, if the area doesn't have a fort, remove one of your empire's units in
the area as well. [Designer's note: it's policing the troublesome province]" (L688). E21's Mongols
(L692-698) in disordered, mountainous Armenia with a 1-value city, arranged with the fluent builder and
played through ``GAME.apply`` only.
"""

from __future__ import annotations

from engine import registry
from engine.seven_ages.actions import Done
from engine.seven_ages.ai import make_policy
from engine.seven_ages.game import GAME
from engine.seven_ages.manoeuvre_moves import (
    EndMovement,
    MoveAll,
    MoveFrom,
    MoveTo,
    MoveUnits,
    Pacify,
    StopHere,
)
from tests.contract.checks import Playout, check_decision, check_hidden_moves
from tests.contract.swap import told
from tests.seven_ages_builder import Scenario
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
    the Mongols, offered the marker with each type of unit there, give up the Catapult, counted before it
    went."""
    s = _armenia({"Spear": 3, "Catapult": 1})
    assert s.legal(0) == [Pacify(0, "Armenia", "Catapult"), Pacify(0, "Armenia", "Spear"), Done(0)]
    decision = GAME.decision(GAME.view(s.state, 0), 0, s.legal(0), NAMES)
    assert [c.label for c in decision.choices][:2] == ["Remove the disorder in Armenia, losing 1 Catapult",
                                                       "Remove the disorder in Armenia, losing 1 Spear"]
    s.play(Pacify(0, "Armenia", "Catapult"))
    assert not s.area("Armenia").disorder
    assert _mongols(s) == {"Spear": 4}
    assert _said(s, "disorder_pacified") == ("The Mongols remove the disorder in Armenia and remove 1 "
                                             "Catapult of theirs there with it.")
    assert s.state.go_of(0) is None  # no more disorder to remove, no conflict: the go is over


def test_or_they_choose_a_spear() -> None:
    s = _armenia({"Spear": 3, "Catapult": 1}).play(Pacify(0, "Armenia", "Spear"))
    assert _mongols(s) == {"Spear": 3, "Catapult": 1}
    assert not s.area("Armenia").disorder


def test_one_type_of_unit_there_is_one_move_naming_it() -> None:
    """L692-694: six Spears, one goes; the one move says so."""
    s = _armenia({"Spear": 5})
    assert s.legal(0) == [Pacify(0, "Armenia", "Spear"), Done(0)]
    s.play(Pacify(0, "Armenia", "Spear"))
    assert _mongols(s) == {"Spear": 5} and not s.area("Armenia").disorder
    assert s.state.go_of(0) is None
    public = next(e for e in s.events if e.type == "disorder_pacified")
    assert public.visible_to(1) and public.data["lost"] == "Spear"


def _all_into_armenia(media: dict[str, int]) -> Scenario:
    """The Mongols move every unit that may leave Media into Armenia (the same moves whatever the units)."""
    s = Scenario(players=2)
    s.empire("Mongols", owner=0, progress=18, units={"Armenia": {"Spear": 1}, "Media": media})
    s.city("Armenia", 1).disorder("Armenia")
    manoeuvre(s, 0, "Mongols").play(MoveFrom(0, "Media"), MoveAll(0), MoveTo(0, "Armenia"), StopHere(0),
                                    EndMovement(0))
    assert _mongols(s) == {"Spear": media["Spear"], **{u: n for u, n in media.items() if u != "Spear"}}
    return s


def _pacify_giving_up_a_spear(s: Scenario) -> str:
    """What Bob (seat 1) is told when Alice removes Armenia's disorder by the first move that does it
    giving up a Spear (or names no unit), and his decision after it."""
    move = next(a for a in s.legal(0) if isinstance(a, Pacify) and getattr(a, "unit", "Spear") == "Spear")
    result = GAME.apply(s.state, move)
    return told(GAME, result, 1) + repr(GAME.actors(result.state))


def test_the_others_cannot_tell_a_stack_of_one_type_from_a_mixed_one() -> None:
    """Issue 27's leak: six Spears, or five and a Catapult (a Spear on top, six units: the same stack to Bob,
    L791). Removing the disorder with a Spear tells Bob the same in both; a question asked only of the
    mixed stack told him that it held another type (the go waited at a stage of its own, the marker still
    there, where with one type it went at once)."""
    one_type, mixed = _all_into_armenia({"Spear": 6}), _all_into_armenia({"Spear": 5, "Catapult": 1})
    assert GAME.view(one_type.state, 1) == GAME.view(mixed.state, 1)
    assert _pacify_giving_up_a_spear(one_type) == _pacify_giving_up_a_spear(mixed)


def test_a_fort_keeps_every_unit_and_asks_nothing() -> None:
    """L686-688: the fort counts as a unit, and no unit is removed where there is one."""
    s = Scenario(players=2)
    media = {"Spear": 3, "Catapult": 1}
    s.empire("Mongols", owner=0, progress=18, units={"Armenia": {"Spear": 1}, "Media": media})
    s.city("Armenia", 1).disorder("Armenia").fort("Armenia")
    manoeuvre(s, 0, "Mongols").play(MoveFrom(0, "Media"), MoveUnits(0, "Spear", 2),
                                    MoveUnits(0, "Catapult", 1), MoveTo(0, "Armenia"), StopHere(0),
                                    EndMovement(0))
    assert s.legal(0) == [Pacify(0, "Armenia"), Done(0)]
    s.illegal(Pacify(0, "Armenia", "Spear"), "bad_police")
    s.play(Pacify(0, "Armenia"))
    assert _mongols(s) == {"Spear": 3, "Catapult": 1} and not s.area("Armenia").disorder
    assert s.state.go_of(0) is None


def test_bad_input_gets_one_sentence_and_changes_nothing() -> None:
    s = _armenia({"Spear": 3, "Catapult": 1})
    refused = s.illegal(Pacify(0, "Armenia", "Tank"), "bad_police")
    assert refused.message == "You have no Tank among the units that may be lost here."
    refused = s.illegal(Pacify(0, "Armenia"), "bad_police")
    assert refused.message == "Name the unit you remove from Armenia with its disorder (L688)."
    assert s.area("Armenia").disorder and _mongols(s) == {"Spear": 4, "Catapult": 1}


def test_the_computer_removes_the_cheapest_and_a_timed_out_seat_none() -> None:
    """As before the player chose, the computer removes the unit of the lowest cost, then the earliest
    available: an Archer (cost 3, level 1) before a Catapult (cost 3, level 11) and a Lt. Horse (cost 4).
    A timed-out seat removes no more disorder."""
    s = _armenia({"Catapult": 2, "Lt. Horse": 2}, resident="Archer")
    assert make_policy("greedy", 1).choose(s.state, 0) == Pacify(0, "Armenia", "Archer")
    assert GAME.timeout_action(s.state, 0) == Done(0)
    s.apply(make_policy("greedy", 1).choose(s.state, 0))
    assert _mongols(s) == {"Catapult": 2, "Lt. Horse": 2}


def test_the_pacify_decision_keeps_the_contract() -> None:
    """The shared contract's decision and swap checks: each move offered once with a readable label, the
    timed-out move legal, and no move telling another seat what it hides."""
    s = _armenia({"Spear": 3, "Catapult": 1})
    out = Playout(registry.spec("seven-ages"), 2, 1)
    assert s.actors() == {0}
    for seat in sorted(s.actors()):
        check_decision(out, GAME, s.state, seat, 0)
        check_hidden_moves(out, GAME, s.state, seat, 0)
    assert out.problems == []
