"""7 Ages Civilise (L855-1008) on the rulebook's examples: each test quotes its lines."""

from __future__ import annotations

import pytest

from engine.seven_ages import civilise
from engine.seven_ages.cards import load_deck


def test_city_steps_and_age_limits_e30() -> None:
    # L1000-1002: "To build a city, place a value 1 city ... To improve a city, increase its value by
    # 1 level (e.g., a 3-value city increases to 5) ... only be improved to value 3 if its empire is in
    # age 2 or later ... to value 5 if ... age 4 or later ... to value 7 if its empire is in age 7."
    assert [civilise.next_city(v) for v in (None, 1, 3, 5)] == [1, 3, 5, 7]
    assert civilise.may_urbanise(None, age=1)
    assert not civilise.may_urbanise(1, age=1)
    assert civilise.may_urbanise(1, age=2)
    assert not civilise.may_urbanise(3, age=3)
    assert civilise.may_urbanise(3, age=4)
    assert not civilise.may_urbanise(5, age=6)
    assert civilise.may_urbanise(5, age=7)
    assert not civilise.may_urbanise(7, age=7)


def test_mongol_builder_one_age_early_e30() -> None:
    # L1004: "Builders may also improve cities one age earlier than usual (e.g., an area containing a
    # Mongol (card 41) Builder in age 3 could improve cities up to value 5)."
    assert load_deck().by_empire("Mongols").empire.ages[0] == 3
    assert civilise.city_limit(3, builder=True) == 5
    assert civilise.may_urbanise(3, age=3, builder=True)
    assert not civilise.may_urbanise(5, age=3, builder=True)
    assert civilise.city_limit(7, builder=True) == 7


def test_two_fertile_areas_or_one_other_e30() -> None:
    # L996: "build or improve cities in undisordered areas, either in 2 fertile areas or in one other
    # land area."
    terrains = {"Egypt": "fertile", "Ukraine": "fertile", "Mongolia": "steppe", "Altai": "mountain"}
    assert civilise.urban_plan_problem(["Egypt", "Ukraine"], terrains) is None
    assert civilise.urban_plan_problem(["Mongolia"], terrains) is None
    assert civilise.urban_plan_problem(["Egypt", "Mongolia"], terrains) is not None
    assert civilise.urban_plan_problem(["Mongolia", "Altai"], terrains) is not None
    assert civilise.urban_plan_problem(["Egypt", "Egypt"], terrains) is not None


def test_romans_modernise_at_level_40_e28() -> None:
    # L980: "The Romans are at progress level 40. They can turn over all their swords, upgrading them to
    # motorised infantry, their ships-of-the-line to battleships (progress level 39), galleys to
    # cruisers and so on."
    assert civilise.modernised("Sword", 40) == "Motorised"
    assert civilise.modernised("Ship-of-the-line", 40) == "Battleship"
    assert civilise.modernised("Galley", 40) == "Cruiser"
    assert civilise.modernised("Sword", 39) is None  # motorised infantry come at 40
    # L982: "You may even downgrade your units if you wish (e.g., a bomber can convert to a fighter"
    assert civilise.modernised("Bomber", 46) == "Fighter"
    assert civilise.modernised("Fighter", 46) == "Bomber"


def test_disorder_removal_costs_income_minimum_five() -> None:
    # L986-988: "pays that area's (undisordered) net income ... ignoring leaders, minimum 5" and
    # "Cyrenaica (L6) with no city, 5."
    assert civilise.disorder_cost(0) == 5
    assert civilise.disorder_cost(10) == 10


def test_christianity_marker_swap_e26() -> None:
    # L907: "Alex's Mughals (card 48) are Islamic. On the marker's back is the last available Christian
    # artefact. Cat can still play or Adopt Christianity on her Italians (card 44) if there is another
    # Islamic artefact available that could be swapped for Alex's."
    counters = [("Islam", "Christianity"), ("Islam", "Buddhism")]
    assert civilise.marker_available("Christianity", ["Islam"], counters)
    # no other Islamic marker free: the Mughals keep the only counter that shows Christianity
    assert not civilise.marker_available("Christianity", ["Islam"], [("Islam", "Christianity"),
                                                                    ("Hinduism", "Buddhism")])
    assert not civilise.marker_available("Christianity", ["Islam", "Buddhism"], counters)


def test_religions_the_card_allows() -> None:
    # L901: "Some empires (e.g., the Shogunate, card 22) have two religious glory categories. They may
    # have up to two religions ... All other empires may have no more than one religion at a time."
    shogunate = load_deck().cards[22].empire
    cats = sum(1 for g in shogunate.glory if g["category"] == "religion")
    assert cats == 2
    assert civilise.may_take_religion(["Buddhism"], "Pantheism", cats) is None
    assert civilise.may_take_religion(["Buddhism", "Pantheism"], "Islam", cats) is not None
    assert civilise.may_take_religion(["Islam"], "Christianity", 1) is not None
    assert civilise.may_take_religion([], "Christianity", 0) is None
    # L899: "One government ... only if it has no current government."
    assert civilise.may_take_government("Democracy", "Socialism") is not None
    assert civilise.may_take_government(None, "Socialism") is None


def test_artefact_glory() -> None:
    # L909-911: a green artefact gains its empire 1 glory, +1 for a religion or government no other empire
    # has; Scientists (blue) or Artists (other green) in range gain their empires 1 each; a red one
    # costs its empire 1.
    religion = civilise.artefact_glory("green", "religion", True, {}, blue=False)
    assert religion.empire == 2
    shared = civilise.artefact_glory("green", "religion", False, {}, blue=False)
    assert shared.empire == 1
    blue = civilise.artefact_glory("blue", "artefact", False, {"Germans": 1, "French": 0}, blue=True)
    assert blue.empire == 1 and blue.leaders == {"Germans": 1}
    assert civilise.artefact_glory("red", "artefact", False, {"Germans": 1}, blue=False).empire == -1


def test_artefact_area_needs_the_right_leader() -> None:
    # L921: "if an area already contains an artefact, a blue artefact may only be placed in that area if
    # there is also a Scientist there, or any other green artefact if there is already an Artist there."
    assert civilise.artefact_area_problem(False, blue=True, leaders_there=()) is None
    assert civilise.artefact_area_problem(True, blue=True, leaders_there=("Scientist",)) is None
    assert civilise.artefact_area_problem(True, blue=True, leaders_there=("Artist",)) is not None
    assert civilise.artefact_area_problem(True, blue=False, leaders_there=("Artist",)) is None
    assert civilise.artefact_age_problem((4, 7), 3) is not None
    assert civilise.artefact_age_problem((4, 7), 4) is None


def test_english_leaders_e8() -> None:
    # L948: "Susan's English are still in age 4 when they civilise. As Shakespeare has not yet appeared,
    # Susan may place him in any English controlled area."
    named = [("Elizabeth", 4), ("Shakespeare", 4)]
    assert civilise.named_for_age(named, 4, appeared=["Elizabeth"]) == ["Shakespeare"]
    assert civilise.named_for_age(named, 5, appeared=[]) == []
    # L940: "Your empire may promote one leader if it has fewer leaders on the map than the empire's
    # Leader number."
    english = load_deck().by_empire("English").empire
    assert civilise.may_promote(english.leaders - 1, english.leaders)
    assert not civilise.may_promote(english.leaders, english.leaders)


def test_discarding_without_the_card_disorders() -> None:
    # L970: "disorder every land area in the empire containing a city without a leader or a leader
    # without a city."
    got = civilise.discard_disorders(["A", "B", "C", "D"], cities=["A", "B"], leaders=["B", "C"])
    assert got == {"A", "C"}


@pytest.mark.parametrize("codes", [["money"], ["card_check", "glory"], ["free_city"]])
def test_events_part_two_plays(codes: list[str]) -> None:
    assert civilise.event_problem(codes, "civilise") is None


def test_events_of_part_four_are_refused_by_name() -> None:
    problem = civilise.event_problem(["assassinate"], "civilise")
    assert problem is not None and "part 4" in problem and "assassinate" in problem
    assert civilise.event_problem(["money"], "conflict") is not None


def test_every_civilise_event_code_is_known() -> None:
    from engine.seven_ages.effects import EFFECTS
    assert set(EFFECTS) >= civilise.EVENT_CODES_NOW
