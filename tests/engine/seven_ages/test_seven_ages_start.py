"""7 Ages, 1 Start empire (L379-471): the rulebook's examples E4-E10 and the set-up steps."""

from __future__ import annotations

from engine.seven_ages.actions import (
    Build,
    ChooseColour,
    ChooseLeader,
    Done,
    Fortify,
    FreeFort,
    SetupChoice,
    StartCard,
)
from engine.seven_ages.cards import load_deck
from engine.seven_ages.game import GAME
from engine.seven_ages.start import BEHIND, LEVEL_WITH
from tests.support.seven_ages_builder import Scenario, card


def starting(*cards: str, players: int = 2, seat: int = 0, **options: object) -> Scenario:
    """A scenario at Start empire with ``cards`` in ``seat``'s hand and a Start marker in front of them."""
    return Scenario(players, options).hand(seat, *cards).marker(seat, "start")


def begin(s: Scenario, seat: int = 0) -> Scenario:
    return s.at("start").turn_over(seat)


def startable(s: Scenario, seat: int = 0) -> set[int]:
    return {a.card for a in s.legal(seat) if isinstance(a, StartCard)}


def through_colour(s: Scenario, seat: int = 0) -> Scenario:
    colour = next(a for a in s.legal(seat) if isinstance(a, ChooseColour))
    return s.play(colour)


def test_empty_map_example() -> None:
    """E7 (L413): 'If Cat starts the Egyptians, she would place their progress marker on progress level
    2. If she set-up the English instead, they would start on progress level 22 (4th age). She couldn't
    start her Pirates at all (because they must set-up within 3 areas of another empire).'"""
    s = begin(starting("Egyptians", "English", "Pirate State"))
    assert startable(s) == {card("Egyptians"), card("English")}
    s.play(StartCard(0, card("Egyptians")))
    through_colour(s)
    assert s.empire_of("Egyptians").progress == 2
    s2 = begin(starting("Egyptians", "English", "Pirate State"))
    s2.play(StartCard(0, card("English")))
    through_colour(s2)
    assert s2.empire_of("English").progress == 22


def test_assyrians_start_three_behind_the_macedonians() -> None:
    """E6 (L409, L425): 'The Macedonians (card 15), at progress level 8 (age 2), are the most advanced
    ... the Assyrians progress marker goes onto progress level 5, in age 1' and 'they set-up in age 1
    with 15 money'."""
    s = starting("Assyrians").empire("Macedonians", owner=1, progress=8, units={"Macedonia": {"Spear": 1}})
    s = begin(s)
    s.play(StartCard(0, card("Assyrians")))
    through_colour(s)
    e = s.empire_of("Assyrians")
    assert (e.progress, e.money) == (5, 15)


def test_carthaginians_start_in_age_one_only_with_the_phoenicians() -> None:
    """E5 (L393): 'If the most advanced empire ... was the Phoenicians (card 9) on Progress level 6, the
    game would be in age 1 ... since the Phoenicians are in play, the Carthaginians can start in age 1.'"""
    with_phoenicians = starting("Carthaginians").empire("Phoenicians", 1, 6,
                                                        units={"Phoenicia": {"Spear": 1}})
    assert card("Carthaginians") in startable(begin(with_phoenicians))
    without = starting("Carthaginians", "Assyrians").empire("Egyptians", 1, 6, units={"Egypt": {"Spear": 1}})
    assert startable(begin(without)) == {card("Assyrians")}


def test_byzantines_choose_their_progress_and_take_roman_coasts() -> None:
    """E4 (L387): 'The Byzantines (card 54) start their progress marker 2 behind the leader or the same
    space as the Greeks, Macedonians or Romans, Byzantines choice. The Byzantine starting areas are not
    a choice, they must set-up in Thracia and all Roman ... controlled coastal areas adjacent to the
    Eastern Mediterranean sea area.' The card converts the units there (L437)."""
    s = starting("Byzantines").empire("Romans", 1, 16,
                                      units={"Latium": {"Spear": 2}, "Palestine": {"Spear": 1}})
    s.empire("Mongols", 1, 19, units={"Mongolia": {"Spear": 1}})
    begin(s).play(StartCard(0, card("Byzantines")))
    choices = {a.choice for a in s.legal(0) if isinstance(a, SetupChoice)}
    assert choices == {BEHIND, LEVEL_WITH + "Romans"}
    s.play(SetupChoice(0, BEHIND))
    through_colour(s)
    assert s.empire_of("Byzantines").progress == 17  # 2 behind the Mongols' 19
    go = s.state.go_of(0)
    assert go is not None and go.data["areas"] == ["Thracia", "Palestine"]
    s.play(ChooseLeader(0, "", ""), Build(0, "Spear", "Thracia"), Done(0))
    # the Roman spear in Palestine is now Byzantine; Latium is not a start area and stays Roman
    assert s.empire_of("Byzantines").count("Palestine", "Spear") == 1
    assert s.empire_of("Romans").count("Palestine") == 0 and s.empire_of("Romans").count("Latium") == 2


def test_byzantines_may_start_level_with_the_romans() -> None:
    s = starting("Byzantines").empire("Romans", 1, 16, units={"Latium": {"Spear": 2}})
    s.empire("Mongols", 1, 19, units={"Mongolia": {"Spear": 1}})
    begin(s).play(StartCard(0, card("Byzantines")), SetupChoice(0, LEVEL_WITH + "Romans"))
    through_colour(s)
    assert s.empire_of("Byzantines").progress == 16


def test_english_named_leader_example() -> None:
    """E8 (L431): 'Susan starts the English empire in the 4th age. She may set-up either Shakespeare or
    Elizabeth and decides to set-up Elizabeth in England.'"""
    s = begin(starting("English")).play(StartCard(0, card("English")))
    through_colour(s)
    offered = {(a.name, a.area) for a in s.legal(0) if isinstance(a, ChooseLeader)}
    assert offered == {("", ""), ("Elizabeth", "England"), ("Shakespeare", "England")}
    s.play(ChooseLeader(0, "Elizabeth", "England"))
    e = s.empire_of("English")
    assert [(ld.name, ld.area) for ld in e.leaders] == [("Elizabeth", "England")]


def test_capital_takes_the_age_maximum() -> None:
    """E9 (L453): 'The set-up value of the capital is the maximum allowed for the age (e.g., 3 in age 2),
    or its current (converted or Liberated) value, whichever is higher.'"""
    s = starting("Romans").empire("Macedonians", 1, 9, units={"Macedonia": {"Spear": 1}})
    begin(s).play(StartCard(0, card("Romans")))
    through_colour(s)
    s.play(ChooseLeader(0, "", ""), Build(0, "Spear", "Latium"), Done(0))
    assert s.empire_of("Romans").capital == "Latium" and s.area("Latium").city == 3  # age 2
    higher = starting("Romans").empire("Macedonians", 1, 9, units={"Macedonia": {"Spear": 1}})
    higher.city("Latium", 5)
    begin(higher).play(StartCard(0, card("Romans")))
    through_colour(higher)
    higher.play(ChooseLeader(0, "", ""), Build(0, "Spear", "Latium"), Done(0))
    assert higher.area("Latium").city == 5


def test_jurchens_initial_cavalry_costs_two() -> None:
    """E10 (L467): 'the Jurchens (card 55) initial cavalry cost 2 if they set-up in age 3.'"""
    s = starting("Jurchens").empire("Romans", 1, 17, units={"Latium": {"Spear": 1}})
    begin(s).play(StartCard(0, card("Jurchens")))
    through_colour(s)
    s.play(ChooseLeader(0, "", ""))
    money = s.empire_of("Jurchens").money
    s.play(Build(0, "Chariot", "Manchuria"))
    assert s.empire_of("Jurchens").money == money - 2  # a cavalry unit otherwise costs 4 (L2835)
    assert s.of_type("unit_built")[-1]["cost"] == 2


def test_dedicated_colour_first() -> None:
    """'You must choose one of your dedicated colours if it is available' (L399)."""
    s = begin(starting("Egyptians")).play(StartCard(0, card("Egyptians")))
    colours = {a.colour for a in s.legal(0) if isinstance(a, ChooseColour)}
    assert colours == {"orange", "yellow", "multi-coloured orange/yellow"}
    s.illegal(ChooseColour(0, "purple"), "not_now")


def test_without_a_free_dedicated_colour_a_free_undedicated_one() -> None:
    s = starting("Romans")
    for name, area in (("Egyptians", "Egypt"), ("Assyrians", "Assyria"), ("Phoenicians", "Phoenicia")):
        s.empire(name, 0, 9, units={area: {"Spear": 1}})
    begin(s).play(StartCard(0, card("Romans")))
    colours = {a.colour for a in s.legal(0) if isinstance(a, ChooseColour)}
    # two players hold orange/yellow and red/pink: blue, green and purple are free for anyone
    assert colours and all(c.split()[-1] in ("blue", "green", "purple") for c in colours)


def test_initial_units_any_number_in_a_start_area_ships_on_coasts_forts_paid() -> None:
    """'any number of built units may be set-up in the start area(s)' (L431-433); 'Initial ships may
    only set-up in coastal areas' (L435); forts for 5 money each (L459); free forts (L465)."""
    s = begin(starting("Egyptians")).play(StartCard(0, card("Egyptians")))
    through_colour(s)
    s.play(ChooseLeader(0, "", ""))
    for _ in range(4):
        s.play(Build(0, "Spear", "Egypt"))  # far beyond a value-1 city's production limit
    e = s.empire_of("Egyptians")
    assert e.count("Egypt", "Spear") == 4 and e.money == 10 - 8
    assert Build(0, "Galley", "Egypt") not in s.legal(0)  # galleys come at level 4 (L2836)
    s.play(Done(0))
    # a value-1 capital (age 1) in Egypt, its homeland; no money left for a fort; then the free fort
    assert s.empire_of("Egyptians").capital == "Egypt" and s.area("Egypt").city == 1
    assert s.legal(0) == [FreeFort(0, "Egypt")]
    s.play(FreeFort(0, "Egypt"))
    assert s.area("Egypt").fort and s.state.go_of(0) is None


def test_paid_forts_at_set_up() -> None:
    s = begin(starting("Romans").empire("Macedonians", 1, 9, units={"Macedonia": {"Spear": 1}}))
    s.play(StartCard(0, card("Romans")))
    through_colour(s)
    s.play(ChooseLeader(0, "", ""), Build(0, "Spear", "Latium"), Done(0))
    assert Fortify(0, "Latium") in s.legal(0)
    money = s.empire_of("Romans").money
    s.play(Fortify(0, "Latium"))
    assert s.area("Latium").fort and s.empire_of("Romans").money == money - 5


def test_barbarians_place_no_capital_and_no_fort() -> None:
    """'If ... your empire is not Barbarian, you now set-up a capital' and 'Provided your empire is not
    Barbarian, you may now pay 5 money each to fortify' (L449, L459)."""
    s = starting("Jurchens").empire("Romans", 1, 15, units={"Latium": {"Spear": 1}})
    begin(s).play(StartCard(0, card("Jurchens")))
    through_colour(s)
    assert s.empire_of("Jurchens").progress == 13  # age 2: 'no cities before age 3'
    s.play(Build(0, "Spear", "Manchuria"), Done(0))
    e = s.empire_of("Jurchens")
    assert e.capital is None and e.homeland is None and s.area("Manchuria").city == 0
    assert s.state.go_of(0) is None and not s.area("Manchuria").fort


def test_a_barbarian_with_homeland_glory_names_its_homeland() -> None:
    """'If an empire with homeland glory doesn't have a capital, you specify one start area as its
    homeland' (L457): the Picts."""
    s = begin(starting("Picts")).play(StartCard(0, card("Picts")))
    through_colour(s)
    e = s.empire_of("Picts")
    area = load_deck().cards[card("Picts")].empire.starts[0]
    s.play(*(a for a in s.legal(0) if isinstance(a, ChooseLeader) and not a.name))
    s.play(Build(0, "Spear", area), Done(0))
    e = s.empire_of("Picts")
    assert e.capital is None and e.homeland == area and s.area(area).city == 0


def test_an_empire_set_up_without_units_is_discarded() -> None:
    """'If an empire ever has no units on the map, the empire is discarded immediately' (L1012)."""
    s = begin(starting("Egyptians")).play(StartCard(0, card("Egyptians")))
    through_colour(s)
    s.play(ChooseLeader(0, "", ""), Done(0))
    assert s.state.has_empire(card("Egyptians"))  # not while it is being set up
    while s.state.go_of(0) is not None:
        s.play(GAME.timeout_action(s.state, 0))
    assert not s.state.has_empire(card("Egyptians")) and card("Egyptians") in s.state.discard


def test_first_empire_under_total_history_starts_in_age_one() -> None:
    """Option 1 (L1158): 'The first empire played in the game must start in age 1.'"""
    s = begin(starting("Egyptians", "English", total_history=True))
    assert startable(s) == {card("Egyptians")}


def test_start_age_option_places_the_first_empire_in_that_age() -> None:
    s = begin(starting("Egyptians", "English", "Romans", start_age=2))
    assert startable(s) == {card("Egyptians"), card("Romans")}
    s.play(StartCard(0, card("Egyptians")))
    through_colour(s)
    assert s.empire_of("Egyptians").progress == 8 + 1  # left-most space of age 2, + its set-up 1
