"""Manoeuvre's movement and disorder removal (L598-700), through the rulebook's examples E16-E21.

Each scenario is arranged with the fluent builder and played only through ``GAME.apply``: a stack,
its units, then one area at a time (issue 26, part 2). Conflict, which follows a move ending beside
another empire's units, is in ``test_seven_ages_conflict.py``.
"""

from __future__ import annotations

from dataclasses import replace

from engine.seven_ages.actions import Done, Prefer
from engine.seven_ages.ai import make_policy
from engine.seven_ages.data import load_counters
from engine.seven_ages.decision import heading
from engine.seven_ages.game import GAME
from engine.seven_ages.manoeuvre_moves import (
    LAND,
    REFUSE,
    CanalAnswer,
    DropOff,
    EndMovement,
    MoveAll,
    MoveBack,
    MoveFrom,
    MoveTo,
    MoveUnits,
    Pacify,
    PayToll,
    StopHere,
    TakeLeader,
)
from engine.seven_ages.map import load_map
from engine.seven_ages.movement import allowance, disorder_needed, land_cost
from engine.seven_ages.state import Leader
from tests.seven_ages_builder import Scenario, card


def manoeuvre(s: Scenario, seat: int, empire: str) -> Scenario:
    """Open Manoeuvre with ``seat``'s marker on ``empire`` and turn it over."""
    return s.marker(seat, "manoeuvre", empire).at("manoeuvre").turn_over(seat, empire)


def moves_to(s: Scenario, seat: int) -> set[str]:
    return {a.area for a in s.legal(seat) if isinstance(a, MoveTo)}


# -- E16: entering a vacant area (L622-624) ---------------------------------------------------------

def test_e16_a_unit_without_a_builder_reduces_the_city_of_a_vacant_area() -> None:
    """L624: "Whenever a unit without a Builder enters a vacant area, remove any 1 value city there or
    reduce any higher value city there by 1 level (e.g., a 5-value city becomes a 3-value)." """
    s = Scenario(players=2).empire("Romans", owner=0, progress=10, units={"Latium": {"Spear": 3}})
    s.city("Campania", 5).city("Tuscany", 1)
    manoeuvre(s, 0, "Romans")
    s.play(MoveFrom(0, "Latium"), MoveUnits(0, "Spear", 1), MoveTo(0, "Campania"), StopHere(0))
    assert s.area("Campania").city == 3
    s.play(MoveFrom(0, "Latium"), MoveUnits(0, "Spear", 1), MoveTo(0, "Tuscany"), StopHere(0))
    assert s.area("Tuscany").city == 0
    assert s.empire_of("Romans").count("Tuscany") == 1


def test_e16_with_a_builder_the_city_is_untouched() -> None:
    s = Scenario(players=2).empire("Romans", owner=0, progress=10, units={"Latium": {"Spear": 3}},
                                   leaders={"Vitruvius": ("Builder", "Latium")})
    s.city("Campania", 5)
    manoeuvre(s, 0, "Romans")
    s.play(MoveFrom(0, "Latium"), MoveUnits(0, "Spear", 1), TakeLeader(0, "Vitruvius"), MoveTo(0, "Campania"),
           StopHere(0))
    assert s.area("Campania").city == 5
    assert s.empire_of("Romans").leaders_in("Campania")[0].name == "Vitruvius"


def test_e16_the_vacant_area_is_cleared_at_the_end_of_the_go_and_not_before() -> None:
    """L622: "If, at the end of any player's action, an area is vacant of units, remove all leaders,
    artefacts, fort and disorder markers in that area, and replace any capital with a city of the same
    value." The Scythians' card lets them leave their areas empty in ages 1-2 (L668)."""
    s = Scenario(players=2).empire("Scythians", owner=0, progress=10, capital="Ukraine",
                                   units={"Ukraine": {"Spear": 2}},
                                   leaders={"Anacharsis": ("Philosopher", "Ukraine")})
    s.city("Ukraine", 3).fort("Ukraine").disorder("Ukraine").artefact("Ukraine", "Pyramids")
    manoeuvre(s, 0, "Scythians").play(MoveFrom(0, "Ukraine"), MoveAll(0, LAND))
    s.play(MoveTo(0, sorted(moves_to(s, 0))[0]), StopHere(0))
    held = s.area("Ukraine")
    assert (held.fort, held.disorder, held.artefacts) == (True, True, ("Pyramids",))  # the go goes on
    s.play(EndMovement(0))
    held = s.area("Ukraine")
    assert (held.city, held.fort, held.disorder, held.artefacts) == (3, False, False, ())
    assert s.empire_of("Scythians").capital is None
    assert not s.empire_of("Scythians").leaders


# -- leaving units behind, units that moved, the 2:1 rule ------------------------------------------

def test_one_unit_stays_in_each_controlled_land_area() -> None:
    """L668: "an empire must always leave at least 1 non-aircraft unit in each Land area it controls"."""
    s = Scenario(players=2).empire("Romans", owner=0, progress=10, units={"Latium": {"Spear": 3}})
    manoeuvre(s, 0, "Romans").play(MoveFrom(0, "Latium"))
    counts = {a.count for a in s.legal(0) if isinstance(a, MoveUnits)}
    assert counts == {1, 2}
    s.illegal(MoveUnits(0, "Spear", 3), "not_free")


def test_units_that_moved_may_not_move_again_this_go() -> None:
    s = Scenario(players=2).empire("Romans", owner=0, progress=10, units={"Latium": {"Spear": 3}})
    manoeuvre(s, 0, "Romans")
    s.play(MoveFrom(0, "Latium"), MoveUnits(0, "Spear", 2), MoveTo(0, "Campania"), StopHere(0))
    assert MoveFrom(0, "Campania") not in s.legal(0)
    s.illegal(MoveFrom(0, "Campania"), "no_stack")


def test_terrain_costs_and_points_left() -> None:
    """L608: "As a unit enters an area, it uses up that many points. It can keep moving into further areas
    if it has any unused points but must have enough points left to pay the cost of each area it enters."
    A Spear has 2 (counters.yaml): after fertile Campania (1) only land areas costing 1 are offered."""
    s = Scenario(players=2).empire("Romans", owner=0, progress=10, units={"Latium": {"Spear": 2}})
    manoeuvre(s, 0, "Romans").play(MoveFrom(0, "Latium"), MoveUnits(0, "Spear", 1), MoveTo(0, "Campania"))
    wmap = load_map()
    expected = {n for n in wmap.adjacency["Campania"] if wmap.areas[n].land and land_cost(n, 2) <= 1}
    assert moves_to(s, 0) == expected
    s.play(MoveBack(0))
    assert s.empire_of("Romans").count("Latium") == 2


def test_land_units_pass_an_occupied_area_only_outnumbering_it_two_to_one() -> None:
    """L638: "Your land units may only move through land areas containing a unit from another empire
    if you already have at least twice as many units there as that other empire." """
    s = Scenario(players=2).empire("Romans", owner=0, progress=10,
                                   units={"Latium": {"Spear": 3}, "Campania": {"Spear": 1}})
    s.empire("Carthaginians", owner=1, progress=10, units={"Campania": {"Spear": 1}})
    manoeuvre(s, 0, "Romans").play(MoveFrom(0, "Latium"), MoveUnits(0, "Spear", 1), MoveTo(0, "Campania"))
    s.illegal(MoveTo(0, "Latium"), "outnumber")  # on through Campania: 1 Roman already there is not twice 1
    assert not any(isinstance(a, MoveTo) for a in s.legal(0))
    s = Scenario(players=2).empire("Romans", owner=0, progress=10,
                                   units={"Latium": {"Spear": 3}, "Campania": {"Spear": 2}})
    s.empire("Carthaginians", owner=1, progress=10, units={"Campania": {"Spear": 1}})
    manoeuvre(s, 0, "Romans").play(MoveFrom(0, "Latium"), MoveUnits(0, "Spear", 1), MoveTo(0, "Campania"))
    assert MoveTo(0, "Latium") in s.legal(0)  # 2 already there: it may pass on
    s.play(StopHere(0))  # ending there is allowed too: a conflict follows the movement (L702)
    assert s.empire_of("Romans").count("Campania") == 3


# -- E17-E19: ships ---------------------------------------------------------------------------------

def test_e17_a_ship_crosses_the_blue_arrow() -> None:
    """L604-606: "Areas joined by a crossing arrow, or indicated by a blue arrow, are adjacent to each
    other (e.g., Galapagos (A1) is adjacent to the South Pacific (Z0))." """
    s = Scenario(players=2).empire("Spanish", owner=0, progress=30,
                                   units={"Galapagos": {"Spear": 1, "Ship-of-the-line": 1}})
    manoeuvre(s, 0, "Spanish").play(MoveFrom(0, "Galapagos"), MoveUnits(0, "Ship-of-the-line", 1))
    assert "South Pacific" in moves_to(s, 0)
    s.play(MoveTo(0, "South Pacific"), StopHere(0))
    assert s.empire_of("Spanish").count("South Pacific") == 1


def _biscay(french_ships_there: int) -> Scenario:
    s = Scenario(players=2)
    units = {"Normandy": {"Spear": 1, "Ship-of-the-line": 2}}
    if french_ships_there:
        units["Bay of Biscay"] = {"Ship-of-the-line": french_ships_there}
    s.empire("French", owner=0, progress=30, units=units)
    s.empire("English", owner=1, progress=30, units={"England": {"Spear": 1}, "Bay of Biscay": {"Galley": 1},
                                                     "North Sea": {"Galley": 1}})
    return manoeuvre(s, 0, "French").play(MoveFrom(0, "Normandy"), MoveUnits(0, "Ship-of-the-line", 2),
                                          MoveTo(0, "Bay of Biscay"))


def test_e18_french_ships_pass_an_english_galley_in_the_bay_of_biscay() -> None:
    """L646: "French ships start a manoeuvre action in Normandy. They could move through an English galley
    in the Bay of Biscay if they already have at least 2 ships there or if no French units end their
    move in any area controlled by the English this action." """
    # 2 French ships there: they pass, and no promise binds them: they may end beside the English
    s = _biscay(2).play(MoveTo(0, "North Sea"), StopHere(0))
    assert s.empire_of("French").count("North Sea") == 2
    # none there: they pass, and may end where the English are not
    s = _biscay(0).play(MoveTo(0, "Irish Sea"), StopHere(0))
    assert s.empire_of("French").count("Irish Sea") == 2
    # none there: ending in an area the English control is refused for having passed them
    s = _biscay(0).play(MoveTo(0, "North Sea"))
    s.illegal(StopHere(0), "passed_blockade")


def test_cargo_may_not_be_set_down_where_a_blockade_passed_forbids_ending() -> None:
    """L644: ships that passed another empire's ships at sea without outnumbering them may do so only if
    "none of your units end their move in any area that empire controls": cargo set down ends its move
    (L632), so it may not be set down in England either."""
    s = Scenario(players=2)
    s.empire("French", owner=0, progress=30, units={"Normandy": {"Spear": 2, "Ship-of-the-line": 2}})
    s.empire("English", owner=1, progress=30, units={"England": {"Spear": 1}, "Bay of Biscay": {"Galley": 1}})
    manoeuvre(s, 0, "French").play(MoveFrom(0, "Normandy"), MoveUnits(0, "Ship-of-the-line", 2),
                                   MoveUnits(0, "Spear", 1))
    s.play(MoveTo(0, "Bay of Biscay"), MoveTo(0, "North Sea"), MoveTo(0, "England"))
    assert DropOff(0, "Spear", 1) not in s.legal(0)
    s.illegal(DropOff(0, "Spear", 1), "passed_blockade")


def _gulf(steps: tuple[str, ...] = (), land: str = "Cuba") -> Scenario:
    s = Scenario(players=2).empire("Spanish", owner=0, progress=30,
                                   units={land: {"Spear": 1}, "Gulf of Mexico": {"Ship-of-the-line": 1}})
    manoeuvre(s, 0, "Spanish").play(MoveFrom(0, "Gulf of Mexico"), MoveUnits(0, "Ship-of-the-line", 1))
    return s.play(*(MoveTo(0, a) for a in steps))


def test_e19_ships_cannot_cross_yucatan_but_may_go_back() -> None:
    """L648-650: "Ships can't move across land (e.g., you can't move a ship from the Gulf of Mexico (D4)
    to Yucatan and then to the Gulf of Panama). To indicate this, place ships on the coast closest to the
    sea area(s) that they can enter." """
    s = _gulf(("Yucatan",))
    assert "Gulf of Panama" not in moves_to(s, 0)
    s.illegal(MoveTo(0, "Gulf of Panama"), "wrong_coast")
    s.play(MoveTo(0, "Gulf of Mexico"))
    assert s.empire_of("Spanish").count("Gulf of Mexico") == 1


def test_e19_a_ship_keeps_its_coast_between_goes() -> None:
    s = _gulf(("Yucatan",), land="Yucatan").play(StopHere(0), EndMovement(0))
    assert dict(s.empire_of("Spanish").coasts) == {"Yucatan": "Gulf of Mexico"}
    s.marker(0, "manoeuvre", "Spanish").at("manoeuvre").turn_over(0, "Spanish")
    s.play(MoveFrom(0, "Yucatan"), MoveUnits(0, "Ship-of-the-line", 1))
    assert moves_to(s, 0) == {"Gulf of Mexico"}


# -- E20: crossing arrows -----------------------------------------------------------------------------

def _andalusia(med: dict[str, int], pillars: dict[str, int],
               own: dict[str, dict[str, int]] | None = None) -> Scenario:
    s = Scenario(players=2)
    s.empire("Romans", owner=0, progress=10, units={"Mauretania": {"Spear": 2}, **(own or {})})
    enemy: dict[str, dict[str, int]] = {"Carthage": {"Spear": 1}}
    if med:
        enemy["Western Mediterranean"] = med
    if pillars:
        enemy["Pillars of Hercules"] = pillars
    s.empire("Carthaginians", owner=1, progress=10, units=enemy)
    return manoeuvre(s, 0, "Romans").play(MoveFrom(0, "Mauretania"), MoveUnits(0, "Spear", 1))


def test_e20_the_spear_crosses_to_andalusia_unless_both_seas_are_held() -> None:
    """L672: "If both the Western Mediterranean and the Pillars of Hercules contain another empire's unit,
    your spear can't move across unless you have 2 or more ships in one or both of these sea areas. If
    only the Western Mediterranean contains another empire's unit, the spear can cross." """
    s = _andalusia({"Galley": 1}, {"Galley": 1})
    s.illegal(MoveTo(0, "Andalusia"), "arrow_blocked")
    s = _andalusia({"Galley": 1}, {"Galley": 1}, own={"Pillars of Hercules": {"Galley": 2}})
    assert "Andalusia" in moves_to(s, 0)
    s = _andalusia({"Galley": 1}, {"Galley": 1}, own={"Western Mediterranean": {"Galley": 2}})
    assert "Andalusia" in moves_to(s, 0)
    s = _andalusia({"Galley": 1}, {})
    s.play(MoveTo(0, "Andalusia"), StopHere(0))
    assert s.state.go_of(0) is not None and s.state.go_of(0).data["arrivals"] == [  # type: ignore[union-attr]
        ["Andalusia", "Spear", 1, False, False, True]]


# -- E21: removing disorder by units (L676-698) ---------------------------------------------------------

def _armenia(moving: dict[str, int], *, fort: bool = False) -> Scenario:
    s = Scenario(players=2)
    media = {u: n for u, n in moving.items()}
    media["Spear"] = media.get("Spear", 0) + 1  # one stays in Media (L668)
    s.empire("Mongols", owner=0, progress=18, units={"Armenia": {"Spear": 1}, "Media": media})
    s.city("Armenia", 1).disorder("Armenia")
    if fort:
        s.fort("Armenia")
    manoeuvre(s, 0, "Mongols").play(MoveFrom(0, "Media"))
    for unit, n in moving.items():
        s.play(MoveUnits(0, unit, n))
    return s.play(MoveTo(0, "Armenia"), StopHere(0), EndMovement(0))


def test_e21_six_mongol_units_remove_the_disorder_in_armenia() -> None:
    """L692-694: "the terrain defence modifier in a mountain area is 3 and there is a value 1 city
    there, so the marker will only be removed if 6 (2+3+1) Mongol units end there. The Mongols choose
    manoeuvre and move 5 more units into Armenia. They remove the disorder and one Mongol unit there,
    at the end of all movement." """
    s = _armenia({"Spear": 5})
    assert Pacify(0, "Armenia", "Spear") in s.legal(0)
    s.play(Pacify(0, "Armenia", "Spear"))
    assert not s.area("Armenia").disorder
    assert s.empire_of("Mongols").count("Armenia") == 5
    assert s.state.go_of(0) is None


def test_e21_five_units_are_too_few() -> None:
    s = _armenia({"Spear": 4})
    assert s.state.go_of(0) is None  # nothing to remove: the go is over
    assert s.area("Armenia").disorder


def test_e21_a_catapult_or_a_fort_needs_one_fewer_both_two_fewer() -> None:
    """L696: "If one of the units was a Catapult or the area had a fort, the Mongols would need one less
    unit to remove the disorder (2 less with both)." A fort counts as a unit (L686) and keeps the units
    (L688)."""
    s = _armenia({"Spear": 3, "Catapult": 1})
    s.play(Pacify(0, "Armenia", "Spear"))  # the unit that goes is the player's (L688)
    assert not s.area("Armenia").disorder
    assert s.empire_of("Mongols").count("Armenia") == 4
    s = _armenia({"Spear": 4}, fort=True)
    s.play(Pacify(0, "Armenia"))
    assert s.empire_of("Mongols").count("Armenia") == 5
    s = _armenia({"Spear": 2, "Catapult": 1}, fort=True)
    s.play(Pacify(0, "Armenia"))
    assert (s.area("Armenia").disorder, s.empire_of("Mongols").count("Armenia")) == (False, 4)


def test_e21_invading_and_crossings_need_more_units() -> None:
    """L696: "If any of these units entered the area by invading, or crossing a river or crossing arrow
    they would need even more units to remove the disorder" (+2 invaded, L722; +1 river, L731; +1 for a
    crossing arrow, our amount)."""
    s = Scenario(players=2).empire("Mongols", owner=0, progress=18, units={"Armenia": {"Spear": 6}})
    s.city("Armenia", 1)
    e, state = s.empire_of("Mongols"), s.state
    plain = disorder_needed(state, e, "Armenia", invaded=False, river=False, arrow=False)
    assert plain == 6
    assert disorder_needed(state, e, "Armenia", invaded=True, river=False, arrow=False) == plain + 2
    assert disorder_needed(state, e, "Armenia", invaded=False, river=True, arrow=False) == plain + 1
    assert disorder_needed(state, e, "Armenia", invaded=False, river=False, arrow=True) == plain + 1


def _epirus(origin: str, moving: int) -> Scenario:
    s = Scenario(players=2).empire("Macedonians", owner=0, progress=10,
                                   units={"Epirus": {"Spear": 1}, origin: {"Spear": moving + 1}})
    s.disorder("Epirus")
    manoeuvre(s, 0, "Macedonians").play(MoveFrom(0, origin), MoveUnits(0, "Spear", moving),
                                        MoveTo(0, "Epirus"), StopHere(0), EndMovement(0))
    return s


def test_e21_units_crossing_a_river_need_one_more() -> None:
    """L696, with E22's river (L729-731: Dacia to Epirus crosses a river into a mountain area): 5 units
    remove disorder in mountainous Epirus (2+3) when they come from Macedonia, 6 across the river."""
    assert Pacify(0, "Epirus", "Spear") in _epirus("Macedonia", 4).legal(0)
    assert _epirus("Dacia", 4).state.go_of(0) is None  # too few: nothing to decide, the go is over
    assert Pacify(0, "Epirus", "Spear") in _epirus("Dacia", 5).legal(0)


def _campania(by_sea: int, by_land: int = 0) -> Scenario:
    s = Scenario(players=2).empire("Romans", owner=0, progress=10,
                                   units={"Campania": {"Spear": 1}, "Latium": {"Spear": 4, "Galley": 3}})
    s.disorder("Campania")
    manoeuvre(s, 0, "Romans")
    if by_land:
        s.play(MoveFrom(0, "Latium"), MoveUnits(0, "Spear", by_land), MoveTo(0, "Campania"), StopHere(0))
    if by_sea:
        s.play(MoveFrom(0, "Latium"), MoveUnits(0, "Galley", by_sea), MoveUnits(0, "Spear", by_sea),
               MoveTo(0, "Tyrrhenian Sea"), MoveTo(0, "Campania"), DropOff(0, "Spear", by_sea),
               MoveTo(0, "Tyrrhenian Sea"), StopHere(0))
    return s.play(EndMovement(0))


def test_e21_units_invading_need_two_more() -> None:
    """L696 and L722 (+2 if any unit invaded): fertile Campania with no city needs 2 units, 4 once a unit
    came ashore from the Tyrrhenian Sea (set down by galleys that sail on)."""
    assert Pacify(0, "Campania", "Spear") in _campania(by_sea=0, by_land=1).legal(0)
    assert _campania(by_sea=1).state.go_of(0) is None  # 2 units, 4 needed: nothing to decide
    s = _campania(by_sea=3)
    assert s.empire_of("Romans").count("Campania") == 4
    assert Pacify(0, "Campania", "Spear") in s.legal(0)


def test_a_populist_removes_disorder_for_free() -> None:
    """L698: "A Populist who ends their move in an area your empire controlled at the start of its
    manoeuvre action, may remove the disorder marker there at no cost." """
    s = Scenario(players=2).empire("Mongols", owner=0, progress=18,
                                   units={"Armenia": {"Spear": 1}, "Media": {"Spear": 2}},
                                   leaders={"Rabble": ("Populist", "Media")})
    s.disorder("Armenia")
    manoeuvre(s, 0, "Mongols").play(MoveFrom(0, "Media"), MoveUnits(0, "Spear", 1), TakeLeader(0, "Rabble"),
                                    MoveTo(0, "Armenia"), StopHere(0), EndMovement(0), Pacify(0, "Armenia"))
    assert not s.area("Armenia").disorder
    assert s.empire_of("Mongols").count("Armenia") == 2


def test_pacifying_is_optional() -> None:
    s = _armenia({"Spear": 5}).play(Done(0))
    assert s.area("Armenia").disorder
    assert s.empire_of("Mongols").count("Armenia") == 6
    assert card("Mongols") in {e.card for e in s.state.empires}


# -- naval transport (L630-634) and option 14 (L1350-1354) ------------------------------------------------

def _convoy(options: dict[str, object] | None = None) -> Scenario:
    s = Scenario(players=2, options=options).empire("Romans", owner=0, progress=10,
                                                    units={"Latium": {"Spear": 3, "Galley": 2}})
    return manoeuvre(s, 0, "Romans").play(MoveFrom(0, "Latium"), MoveUnits(0, "Galley", 1))


def test_a_ship_carries_one_land_unit() -> None:
    """L630: "Each ship may transport one land or aircraft unit plus any number of leaders." """
    s = _convoy()
    assert MoveUnits(0, "Spear", 1) in s.legal(0)
    s.play(MoveUnits(0, "Spear", 1))
    s.illegal(MoveUnits(0, "Spear", 1), "not_free")  # one ship, one unit


def test_cargo_set_down_moves_no_further_and_invades() -> None:
    """L632: "During its move, ships may drop off their cargo, but transported units may not move further
    this action." A land unit entering a land area straight from the sea invades (L2173)."""
    s = _convoy().play(MoveUnits(0, "Spear", 1), MoveTo(0, "Tyrrhenian Sea"))
    s.illegal(DropOff(0, "Spear", 1), "drop_at_sea")
    s.play(MoveTo(0, "Sardinia"), DropOff(0, "Spear", 1), MoveTo(0, "Tyrrhenian Sea"), StopHere(0))
    rome = s.empire_of("Romans")
    assert (rome.count("Sardinia", "Spear"), rome.count("Tyrrhenian Sea", "Galley")) == (1, 1)
    go = s.state.go_of(0)
    assert go is not None and ["Sardinia", "Spear", 1, True, False, False] in go.data["arrivals"]
    assert MoveFrom(0, "Sardinia") not in s.legal(0)


def test_land_units_left_at_sea_are_lost_unless_marines() -> None:
    """L634: "Transported land units are lost if they don't end their move in a Coastal area (if playing
    option 14 Marines, transported infantry and missiles may remain at sea)." L1352: "provided that area
    is adjacent to a Land area their empire controls." """
    s = _convoy().play(MoveUnits(0, "Spear", 1), MoveTo(0, "Tyrrhenian Sea"), StopHere(0))
    assert s.empire_of("Romans").count("Tyrrhenian Sea", "Spear") == 0
    s = _convoy({"marines": True}).play(MoveUnits(0, "Spear", 1), MoveTo(0, "Tyrrhenian Sea"), StopHere(0),
                                        EndMovement(0))
    assert s.empire_of("Romans").count("Tyrrhenian Sea", "Spear") == 1


# -- canals (L652) --------------------------------------------------------------------------------------

def _panama(keeper_owner: int = 1, preference: str | None = None, keeper: bool = True) -> Scenario:
    s = Scenario(players=2).empire("Spanish", owner=0, progress=30, money=30,
                                   units={"Cuba": {"Spear": 1}, "Caribbean Sea": {"Ship-of-the-line": 1}})
    if keeper:
        s.empire("English", owner=keeper_owner, progress=30, money=0, units={"Panama": {"Spear": 1}})
    if preference is not None:
        s.apply(Prefer(keeper_owner, "canal", preference))
    return manoeuvre(s, 0, "Spanish").play(MoveFrom(0, "Caribbean Sea"), MoveUnits(0, "Ship-of-the-line", 1))


def test_ships_pass_the_panama_canal_when_its_owner_lets_them() -> None:
    """L652: "Ships may move directly between the sea areas connected by the Panama or Suez canal (at no
    extra cost) but only with the permission of the empire that owns that canal." """
    s = _panama().play(MoveTo(0, "Gulf of Panama"))
    assert s.actors() == frozenset({1})
    assert set(s.legal(1)) == {CanalAnswer(1, a) for a in (REFUSE, 0, 5, 10, 20)}
    s.play(CanalAnswer(1, 0))
    assert s.empire_of("Spanish").count("Gulf of Panama") == 1
    assert s.actors() == frozenset({0})


def test_a_refused_ship_stays_and_a_toll_is_paid_to_the_owner() -> None:
    s = _panama().play(MoveTo(0, "Gulf of Panama"), CanalAnswer(1, REFUSE))
    assert s.empire_of("Spanish").count("Caribbean Sea") == 1
    s = _panama().play(MoveTo(0, "Gulf of Panama"), CanalAnswer(1, 10))
    assert set(s.legal(0)) == {PayToll(0, True), PayToll(0, False)}
    s.play(PayToll(0, True))
    assert (s.empire_of("Spanish").money, s.empire_of("English").money) == (20, 10)
    assert s.empire_of("Spanish").count("Gulf of Panama") == 1


def test_a_standing_answer_is_given_ahead() -> None:
    s = _panama(preference="no")
    assert "Gulf of Panama" not in moves_to(s, 0)
    s.illegal(MoveTo(0, "Gulf of Panama"), "canal_refused")
    s = _panama(preference="yes").play(MoveTo(0, "Gulf of Panama"))
    assert not s.state.pending and s.empire_of("Spanish").count("Gulf of Panama") == 1


def test_ones_own_canal_needs_no_permission_and_nobodys_is_closed() -> None:
    s = _panama(keeper_owner=0).play(MoveTo(0, "Gulf of Panama"))
    assert not s.state.pending and s.empire_of("Spanish").count("Gulf of Panama") == 1
    s = _panama(keeper=False)
    s.illegal(MoveTo(0, "Gulf of Panama"), "canal_closed")


# -- Explorers, galleys, aircraft, the Mongols' horses ------------------------------------------------

def test_an_explorer_adds_a_point_and_crosses_neutral_areas_for_one() -> None:
    """L610: "Units accompanied by an Explorer for their whole move add 1 to their movement allowance."
    L2029: "Each neutral area entered by units stacked with an explorer costs 1 movement point." A Spear
    (2 points) reaches mountainous Calabria after Campania only with one."""
    plain = Scenario(players=2).empire("Romans", owner=0, progress=10, units={"Latium": {"Spear": 3}})
    manoeuvre(plain, 0, "Romans").play(MoveFrom(0, "Latium"), MoveUnits(0, "Spear", 1), MoveTo(0, "Campania"))
    assert "Calabria" not in moves_to(plain, 0)
    s = Scenario(players=2).empire("Romans", owner=0, progress=10,
                                   units={"Latium": {"Spear": 3}, "Campania": {"Spear": 1}},
                                   leaders={"Pytheas": ("Explorer", "Latium")})
    manoeuvre(s, 0, "Romans").play(MoveFrom(0, "Latium"), MoveUnits(0, "Spear", 1), TakeLeader(0, "Pytheas"),
                                   MoveTo(0, "Campania"), MoveTo(0, "Calabria"), StopHere(0))
    assert s.empire_of("Romans").leaders_in("Calabria")[0].name == "Pytheas"
    # L2031: "you do not need to leave any units behind in the area(s) the explorer moves through"
    s.play(MoveFrom(0, "Campania"))
    assert MoveUnits(0, "Spear", 1) in s.legal(0)


def _galley(explorer: bool) -> Scenario:
    leaders = {"Pytheas": ("Explorer", "Latium")} if explorer else None
    s = Scenario(players=2).empire("Romans", owner=0, progress=10,
                                   units={"Latium": {"Spear": 1, "Galley": 1}}, leaders=leaders)
    manoeuvre(s, 0, "Romans").play(MoveFrom(0, "Latium"), MoveUnits(0, "Galley", 1))
    if explorer:
        s.play(TakeLeader(0, "Pytheas"))
    return s.play(MoveTo(0, "Tyrrhenian Sea"), MoveTo(0, "Western Mediterranean"), StopHere(0))


def test_a_galley_far_from_its_empires_land_is_lost_unless_an_explorer_is_with_it() -> None:
    """L654: "Galleys are also lost immediately they are in an ocean or sea area that isn't adjacent to a
    land area their empire controls unless they are stacked with an Explorer." """
    assert _galley(explorer=False).empire_of("Romans").count("Western Mediterranean") == 0
    assert _galley(explorer=True).empire_of("Romans").count("Western Mediterranean", "Galley") == 1


def test_galleys_stay_out_of_oceans() -> None:
    """L654: "Galleys can't enter ocean areas unless their empire's special rules permit it"."""
    s = Scenario(players=2).empire("Romans", owner=0, progress=10,
                                   units={"Galapagos": {"Spear": 1, "Galley": 1}})
    manoeuvre(s, 0, "Romans").play(MoveFrom(0, "Galapagos"), MoveUnits(0, "Galley", 1))
    s.illegal(MoveTo(0, "South Pacific"), "galleys_oceans")


def test_aircraft_end_at_sea_only_near_their_empires_units() -> None:
    """L662: aircraft "may only end their move in a sea or ocean area that also contains one of its
    empire's (non-aircraft) units or is adjacent to such an area"."""
    s = Scenario(players=2).empire("Romans", owner=0, progress=45,
                                   units={"Latium": {"Spear": 1, "Fighter": 1}})
    manoeuvre(s, 0, "Romans").play(MoveFrom(0, "Latium"), MoveUnits(0, "Fighter", 1),
                                   MoveTo(0, "Tyrrhenian Sea"))
    assert StopHere(0) in s.legal(0)
    s.play(MoveTo(0, "Western Mediterranean"))
    s.illegal(StopHere(0), "air_base")


def test_the_mongols_cavalry_moves_one_more() -> None:
    """The Mongols' card: +1 movement for cavalry (``move_bonus``, cards.yaml)."""
    s = Scenario(players=2).empire("Mongols", owner=0, progress=18, units={"Media": {"Lt. Horse": 1}})
    s.empire("Romans", owner=1, progress=18, units={"Latium": {"Lt. Horse": 1}})
    counters = load_counters()
    for name, bonus in (("Mongols", 1), ("Romans", 0)):
        e = s.empire_of(name)
        printed = counters.values[(counters.mixes[e.colour].shade, "Lt. Horse")]["move"]
        assert allowance(e, "Lt. Horse") == printed + bonus


# -- decisions stay small; the greedy player expands ---------------------------------------------------

def test_a_crowded_stack_still_offers_fewer_than_40_choices() -> None:
    """Issue 26: the legal moves of a manoeuvre decision come from the current stack and its points
    left, never paths or combinations: a stack of every land type the light green counters hold, with
    leaders, in an area with six neighbours, and the group's next step."""
    units = {"Spear": 3, "Sword": 3, "Archer": 3, "Catapult": 2, "Chariot": 2, "Lt. Horse": 2,
             "Hs. Archer": 2, "Rifle": 2, "Cannon": 2, "Knight": 2}
    leaders = {f"Leader {i}": ("Explorer" if i == 0 else "Builder", "Media") for i in range(4)}
    s = Scenario(players=2).empire("Mongols", owner=0, progress=40, units={"Media": units}, leaders=leaders)
    manoeuvre(s, 0, "Mongols").play(MoveFrom(0, "Media"))
    sizes = [len(s.legal(0))]
    s.play(MoveAll(0, LAND))
    sizes.append(len(s.legal(0)))
    s.play(*(TakeLeader(0, name) for name in leaders))
    sizes.append(len(s.legal(0)))
    s.play(MoveTo(0, "Sumer"))
    sizes.append(len(s.legal(0)))
    assert max(sizes) < 40, sizes


def test_the_greedy_player_expands_into_vacant_land() -> None:
    """The greedy player's Manoeuvre moves units one at a time into the vacant land areas next to its
    stacks (leaving one in each), then ends movement."""
    s = Scenario(players=2).empire("Romans", owner=0, progress=10, units={"Latium": {"Spear": 4}})
    manoeuvre(s, 0, "Romans")
    greedy = make_policy("greedy", 1)
    while s.state.go_of(0) is not None:
        s.apply(greedy.choose(s.state, 0))
    wmap = load_map()
    lands = sorted(n for n in wmap.adjacency["Latium"] if wmap.areas[n].land)
    rome = s.empire_of("Romans")
    assert rome.areas() == tuple(sorted(["Latium", *lands]))
    assert [rome.count(a) for a in lands] == [1] * len(lands)
    assert rome.count("Latium") == 4 - len(lands)


def test_galleys_and_aircraft_stranded_at_sea_are_lost_as_an_action_ends() -> None:
    """L654 (galleys "lost immediately" away from their empire's land) and L664 (aircraft "immediately
    lost whenever there is no such area"): checked at the latest as any go ends."""
    s = Scenario(players=2).empire("Romans", owner=0, progress=45,
                                   units={"Latium": {"Spear": 1}, "Western Mediterranean": {"Galley": 1},
                                          "Tyrrhenian Sea": {"Galley": 1}, "Canary Sea": {"Fighter": 1},
                                          "Adriatic": {"Fighter": 1}})
    manoeuvre(s, 0, "Romans").play(EndMovement(0))
    rome = s.empire_of("Romans")
    assert (rome.count("Western Mediterranean"), rome.count("Canary Sea")) == (0, 0)
    assert (rome.count("Tyrrhenian Sea"), rome.count("Adriatic")) == (1, 1)  # next to Latium


def test_marines_at_sea_move_only_aboard_their_ships() -> None:
    """L632: transported units move with their ships; a land unit at sea (option 14) is no land group."""
    s = Scenario(players=2, options={"marines": True}).empire(
        "Romans", owner=0, progress=10,
        units={"Latium": {"Spear": 1}, "Tyrrhenian Sea": {"Spear": 1, "Galley": 1}})
    manoeuvre(s, 0, "Romans").play(MoveFrom(0, "Tyrrhenian Sea"))
    assert MoveUnits(0, "Spear", 1) not in s.legal(0)
    s.play(MoveUnits(0, "Galley", 1), MoveUnits(0, "Spear", 1), MoveTo(0, "Campania"), StopHere(0))
    assert s.empire_of("Romans").count("Campania") == 2


def test_two_unnamed_leaders_of_a_kind_ride_one_at_a_time() -> None:
    """Unnamed leaders of one ability share its name: taking one moves one, and a like leader elsewhere
    stays where it is."""
    s = Scenario(players=2).empire("Romans", owner=0, progress=10,
                                   units={"Latium": {"Spear": 3}, "Tuscany": {"Spear": 1}})
    rome = s.empire_of("Romans")
    s.set(empires=(replace(rome, leaders=tuple(Leader("Builder", ("Builder",), a) for a in
                                                ("Latium", "Latium", "Tuscany"))),))
    manoeuvre(s, 0, "Romans").play(MoveFrom(0, "Latium"), MoveUnits(0, "Spear", 1), TakeLeader(0, "Builder"))
    assert [a for a in s.legal(0) if isinstance(a, TakeLeader)] == []  # one unit, one leader (L628)
    s.play(MoveTo(0, "Campania"), StopHere(0))
    areas = sorted(ld.area for ld in s.empire_of("Romans").leaders)
    assert areas == ["Campania", "Latium", "Tuscany"]


def test_the_mover_reads_its_group_and_points_left() -> None:
    s = Scenario(players=2).empire("Romans", owner=0, progress=10, units={"Latium": {"Spear": 3}})
    manoeuvre(s, 0, "Romans").play(MoveFrom(0, "Latium"), MoveUnits(0, "Spear", 2), MoveTo(0, "Campania"))
    assert heading(GAME.view(s.state, 0), 0).endswith(
        "2 Spears in Campania, 1 movement point left: move on one area, or stop")
    assert "group" not in GAME.view(s.state, 1)["goes"][0]["data"]  # the go's working data is its owner's
