"""7 Ages option 16: the artefacts' powers that change movement and conflict numbers, through their hooks
(:mod:`engine.seven_ages.war_modifiers`), played where movement and conflict compute them.

Each expected number is read from the rulebook entry the test quotes (L1362-1999) and from the printed
tables (the Terrain Effects Chart's costs, the counters' values), never from the code under test.
"""

from __future__ import annotations

from dataclasses import replace

from engine.core import Event
from engine.seven_ages.artefact_powers import OPTION
from engine.seven_ages.conflict import FORT_DEFENCE, Entry, Tally, tally
from engine.seven_ages.data import load_counters
from engine.seven_ages.game import GAME
from engine.seven_ages.manoeuvre_moves import (
    LAND,
    SHIPS,
    EndMovement,
    MoveFrom,
    MoveTo,
    MoveUnits,
    Pacify,
    StopHere,
)
from engine.seven_ages.movement import disorder_force, land_cost, step_cost
from tests.engine.seven_ages.test_seven_ages_manoeuvre import manoeuvre, moves_to
from tests.support.seven_ages_builder import Scenario

ON = {OPTION: True}
CALABRIA_COST = 2  # hills (Terrain Effects Chart, L608): what Calabria costs a land unit


def with_artefacts(s: Scenario, empire: str, *names: str) -> Scenario:
    """``names`` on the empire's card."""
    e = s.empire_of(empire)
    s.state = s.state.with_empire(replace(e, artefacts=(*e.artefacts, *names)))
    return s


# -- Movement: Paved roads and Railways (L1804-1810, L1851-1859) ----------------------------------------

def _italy(options: dict[str, bool] | None, *artefacts: str, calabria: str = "Romans") -> Scenario:
    """Romans with 2 Spears in Latium; Calabria (hills, a city of 1) held by ``calabria``, whose card has
    ``artefacts``."""
    s = Scenario(2, options).empire("Romans", 0, 10, units={"Latium": {"Spear": 2}})
    if calabria == "Romans":
        s.state = s.state.with_empire(s.empire_of("Romans").add_units("Calabria", "Spear", 1))
    else:
        s.empire(calabria, 1, 10, units={"Calabria": {"Spear": 1}})
    s.city("Calabria", 1)
    return with_artefacts(s, calabria, *artefacts)


def test_the_hills_of_calabria_cost_2_to_enter() -> None:
    """The stage: Calabria is hills, 2 movement points for a land unit (L608), whoever holds it."""
    assert land_cost("Calabria", 2) == CALABRIA_COST


def test_paved_roads_a_city_costs_1_movement_point_to_enter() -> None:
    """L1810: "Each area that has a city controlled by an empire with paved roads costs any empire only 1
    movement point to enter, regardless of terrain." A Spear has 2 points (counters.yaml): after fertile
    Campania (1) it may still enter the Romans' hill city of Calabria."""
    s = _italy(ON, "Paved roads")
    manoeuvre(s, 0, "Romans").play(MoveFrom(0, "Latium"), MoveUnits(0, "Spear", 1), MoveTo(0, "Campania"))
    assert "Calabria" in moves_to(s, 0)
    s = _italy(None, "Paved roads")
    manoeuvre(s, 0, "Romans").play(MoveFrom(0, "Latium"), MoveUnits(0, "Spear", 1), MoveTo(0, "Campania"))
    assert "Calabria" not in moves_to(s, 0)


def test_paved_roads_help_any_empire_entering_the_city() -> None:
    """L1810: "costs *any* empire": the Romans pay 1 to enter a Macedonian city with paved roads; without a
    city there the hills cost 2 again."""
    s = _italy(ON, "Paved roads", calabria="Macedonians")
    romans = s.empire_of("Romans")
    assert step_cost(s.state, romans, LAND, "Calabria", False) == 1
    s.city("Calabria", 0)
    assert step_cost(s.state, romans, LAND, "Calabria", False) == CALABRIA_COST


def test_railways_enter_an_own_city_for_nothing() -> None:
    """L1859: empires that have railways "may enter each area with a city that they control for a cost of
    0 movement points"; another empire's city is not theirs, so its hills cost 2."""
    s = _italy(ON, "Railways")
    assert step_cost(s.state, s.empire_of("Romans"), LAND, "Calabria", False) == 0
    s = with_artefacts(_italy(ON, calabria="Macedonians"), "Romans", "Railways")
    assert step_cost(s.state, s.empire_of("Romans"), LAND, "Calabria", False) == CALABRIA_COST


def test_option_16_off_no_road_or_railway_changes_a_cost() -> None:
    """Without option 16 artefacts are glory only (L929-931): the hills cost 2 with both on the card."""
    s = _italy(None, "Paved roads", "Railways")
    assert step_cost(s.state, s.empire_of("Romans"), LAND, "Calabria", False) == CALABRIA_COST


# -- Conflict: Pharos lighthouse (L1822-1828) and Great Wall (L1630-1634) --------------------------------

def _aegean(options: dict[str, bool] | None) -> Scenario:
    """Roman and Macedonian galleys fight in the Aegean; the Romans hold Thracia (on the Aegean) and its
    Pharos lighthouse."""
    s = Scenario(2, options).empire("Romans", 0, 10, units={"Aegean": {"Galley": 1},
                                                             "Thracia": {"Spear": 1}})
    s.empire("Macedonians", 1, 10, units={"Aegean": {"Galley": 1}})
    return s.artefact("Thracia", "Pharos lighthouse")


def _galley_fight(s: Scenario) -> Tally:
    return tally(s.state, s.empire_of("Romans"), s.empire_of("Macedonians"), "Aegean", card_value=0,
                 mine={"Galley": 1}, theirs={"Galley": 1}, their_marks=0, defending=False,
                 active_units={"Galley": 1}, entry=Entry())


def test_pharos_lighthouse_ships_within_range_add_1_to_front_and_support() -> None:
    """L1828: "All its ships within Range of the Pharos add +1 to their front and support values." One
    galley stands at the front (L712): its printed front (counters.yaml) and 1."""
    s = _aegean(ON)
    counters = load_counters()
    printed = counters.values[(counters.mixes[s.empire_of("Romans").colour].shade, "Galley")]["front"]
    assert _galley_fight(s).units == printed + 1
    assert _galley_fight(_aegean(None)).units == printed


def test_pharos_lighthouse_needs_its_area() -> None:
    """The lighthouse is a marker in an area (L1824): an empire that lost Thracia loses its ships' bonus."""
    s = _aegean(ON)
    s.state = s.state.with_empire(s.empire_of("Romans").add_units("Thracia", "Spear", -1))
    counters = load_counters()
    printed = counters.values[(counters.mixes[s.empire_of("Romans").colour].shade, "Galley")]["front"]
    assert _galley_fight(s).units == printed


def _wall(options: dict[str, bool] | None, defended: str) -> Scenario:
    """The Macedonians hold Macedonia, with the Great Wall, and ``defended``; the Romans attack it."""
    s = Scenario(2, options).empire("Romans", 0, 10, units={"Dacia": {"Spear": 3}})
    s.empire("Macedonians", 1, 10, units={"Macedonia": {"Spear": 1}, defended: {"Spear": 1}})
    return s.artefact("Macedonia", "Great Wall")


def _defence(s: Scenario, area: str) -> Tally:
    return tally(s.state, s.empire_of("Macedonians"), s.empire_of("Romans"), area, card_value=0,
                 mine={"Spear": 1}, theirs={"Spear": 1}, their_marks=0, defending=True,
                 active_units={"Spear": 1}, entry=Entry())


def test_great_wall_its_area_and_adjacent_land_areas_count_as_fortified() -> None:
    """L1634: "The area containing the artefact, and all adjacent land areas controlled by that empire are
    treated as having a fort. Actual forts there provide no extra benefit." A fort is +2 in conflict (L719)
    and one unit when removing disorder (L686); Epirus is next to Macedonia, Campania is not."""
    s = _wall(ON, "Epirus")
    assert _defence(s, "Macedonia").fort == FORT_DEFENCE == 2
    assert _defence(s, "Epirus").fort == 2
    assert disorder_force(s.state, s.empire_of("Macedonians"), "Epirus") == 1 + 1
    s.fort("Epirus")
    assert _defence(s, "Epirus").fort == 2
    assert disorder_force(s.state, s.empire_of("Macedonians"), "Epirus") == 1 + 1
    assert _defence(_wall(ON, "Campania"), "Campania").fort == 0


def test_option_16_off_the_wall_and_the_lighthouse_change_nothing() -> None:
    s = _wall(None, "Epirus")
    assert _defence(s, "Epirus").fort == 0
    assert disorder_force(s.state, s.empire_of("Macedonians"), "Epirus") == 1
    sea = _aegean(None)
    assert step_cost(sea.state, sea.empire_of("Romans"), SHIPS, "Aegean", False) == 1


# -- Movement: Rutters (L1899-1905) -----------------------------------------------------------------------

def _biscay(options: dict[str, bool] | None, *artefacts: str, ship: str = "Ship-of-the-line") -> Scenario:
    """French ships in the Bay of Biscay, next to the North Atlantic ocean, ready to sail."""
    s = Scenario(2, options).empire("French", 0, 30, units={"Normandy": {"Spear": 1},
                                                             "Bay of Biscay": {ship: 1}})
    with_artefacts(s, "French", *artefacts)
    return manoeuvre(s, 0, "French").play(MoveFrom(0, "Bay of Biscay"), MoveUnits(0, ship, 1))


def test_rutters_ships_enter_an_ocean_only_with_rutters() -> None:
    """L1905: "An empire may not trace Range, nor its ships Move, into or through ocean areas if it doesn't
    have rutters." Without option 16 the ship-of-the-line sails on (L654 bars only galleys)."""
    assert "North Atlantic" not in moves_to(_biscay(ON), 0)
    s = _biscay(ON)
    refusal = s.illegal(MoveTo(0, "North Atlantic"), "rutters")  # and the state is unchanged
    assert "Rutters" in refusal.message and "North Atlantic" in refusal.message
    assert "North Atlantic" in moves_to(_biscay(ON, "Rutters"), 0)
    assert "North Atlantic" in moves_to(_biscay(None), 0)


def test_rutters_blue_marker_gives_every_empire_at_or_beyond_it_the_power() -> None:
    """E43 (L1388) puts the blue Rutters marker at progress level 22; an empire at 30 is beyond it (L1380)
    and may sail into the ocean; at 21 it may not."""
    s = _biscay(ON)
    s.state = replace(s.state, progress_markers=(("Rutters", 22),))
    assert "North Atlantic" in moves_to(s, 0)
    s.state = s.state.with_empire(replace(s.empire_of("French"), progress=21))
    assert "North Atlantic" not in moves_to(s, 0)


# -- Manoeuvre: World war's extra move (L1990-1993) -------------------------------------------------------

def _at_war(options: dict[str, bool] | None, *, strategist: bool = False) -> Scenario:
    """The Romans (3 Spears in Latium) take a Manoeuvre while the black World war marker stands at 45."""
    leaders = {"Strategist": ("Strategist", "Latium")} if strategist else None
    s = Scenario(2, options).empire("Romans", 0, 45, units={"Latium": {"Spear": 3}}, leaders=leaders)
    s.state = replace(s.state, world_war=45)
    return manoeuvre(s, 0, "Romans")


def test_world_war_every_empire_moves_and_fights_again() -> None:
    """L1992: "all empires that take a Manoeuvre action can move and resolve conflict again after resolving
    any conflicts from their first move": after the first move ends, every unit may move once more, from
    any area, and the go ends after that second move (no Strategist)."""
    s = _at_war(ON)
    s.play(MoveFrom(0, "Latium"), MoveUnits(0, "Spear", 2), MoveTo(0, "Campania"), StopHere(0),
           EndMovement(0))
    assert s.go_stage(0) == "stack" and len(s.of_type("world_war_moves")) == 1
    s.play(MoveFrom(0, "Campania"), MoveUnits(0, "Spear", 1), MoveTo(0, "Calabria"), StopHere(0),
           EndMovement(0))
    assert s.empire_of("Romans").count("Calabria") == 1  # a Spear that moved first moved again (L668: one
    assert s.empire_of("Romans").count("Campania") == 1  # stays in each land area)
    assert s.state.go_of(0) is None and len(s.of_type("world_war_moves")) == 1


def test_world_war_then_the_strategist_moves_a_third_time() -> None:
    """L1992: "Units stacked with a Strategist may then move and resolve conflict a third time.\""""
    s = _at_war(ON, strategist=True).play(EndMovement(0))
    assert s.of_type("world_war_moves") and not s.of_type("strategist_moves")
    s.play(EndMovement(0))
    assert s.go_stage(0) == "stack" and len(s.of_type("strategist_moves")) == 1
    told = GAME.describe_event(Event("strategist_moves", s.of_type("strategist_moves")[0]), ("a", "b"))
    assert told is not None and "one more move" in told and "second" not in told  # it is the third here
    s.play(EndMovement(0))
    assert s.state.go_of(0) is None


def test_option_16_off_the_world_war_marker_gives_no_extra_move() -> None:
    s = _at_war(None).play(EndMovement(0))
    assert s.state.go_of(0) is None and not s.of_type("world_war_moves")


def _armenia_under_the_wall(options: dict[str, bool] | None) -> Scenario:
    """E21's stage (L692-696): disordered mountain Armenia with a city of 1, held by the Mongols, who move 4
    more Spears in from Media, where their Great Wall stands."""
    s = Scenario(2, options).empire("Mongols", 0, 18, units={"Armenia": {"Spear": 1}, "Media": {"Spear": 5}})
    s.city("Armenia", 1).disorder("Armenia").artefact("Media", "Great Wall")
    return manoeuvre(s, 0, "Mongols").play(MoveFrom(0, "Media"), MoveUnits(0, "Spear", 4),
                                           MoveTo(0, "Armenia"), StopHere(0), EndMovement(0))


def test_great_wall_removes_disorder_as_a_fort_does() -> None:
    """E21 (L696): with a fort in Armenia the Mongols "would need one less unit" than 6, and a fort keeps
    the units (L688). The Great Wall next door counts as that fort (L1634): 5 Spears remove the disorder
    and all 5 stay; without option 16 five are too few (L692)."""
    s = _armenia_under_the_wall(ON)
    s.play(Pacify(0, "Armenia"))
    assert not s.area("Armenia").disorder and s.empire_of("Mongols").count("Armenia") == 5
    s = _armenia_under_the_wall(None)
    assert s.area("Armenia").disorder and s.state.go_of(0) is None
