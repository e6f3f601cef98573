"""The 7 Ages tables: terrain chart numbers the examples force, unit types and costs, the progress track.

Line numbers (L...) are lines of the Collector's edition rulebook, ``shared/seeds/7-ages.txt``.
"""

from __future__ import annotations

import copy
import re
from pathlib import Path

import pytest

from engine.seven_ages.data import TERRAINS, load_tables, read_yaml, rulebook_lines, table_problems

RULEBOOK = next((p / "shared" / "seeds" / "7-ages.txt" for p in Path(__file__).resolve().parents
                 if (p / "shared" / "seeds" / "7-ages.txt").exists()), Path("shared/seeds/7-ages.txt"))

# The cost table (L2832-2837): class cost, then each type with the level it becomes available at.
COST_TABLE = {
    "infantry": (2, {"Spear": 1, "Sword": 12, "Rifle": 28, "Motorised": 40}),
    "missile": (3, {"Archer": 1, "Catapult": 11, "Cannon": 25, "Artillery": 31}),
    "cavalry": (4, {"Chariot": 3, "Lt. Horse": 6, "Hs. Archer": 8, "Elephant": 10, "Knight": 17,
                    "Horse artillery": 34, "Tank": 43}),
    "ships": (5, {"Galley": 4, "Ship-of-the-line": 23, "Cruiser": 36, "Battleship": 39}),
    "aircraft": (7, {"Fighter": 44, "Bomber": 46, "Nuke": 47, "Star Wars": 49}),
}


def test_the_seven_terrains() -> None:
    # L2177: "A fertile, forest, jungle, mountain, steppe, tundra or desert area"
    assert tuple(load_tables().terrains) == TERRAINS == (
        "fertile", "forest", "jungle", "mountain", "steppe", "tundra", "desert")


def test_income_numbers_the_examples_force() -> None:
    # L485: fertile with wheat 5; L489: forest 2 (5 with a 3 city), wheat +2 in non-fertile areas from age 5,
    # the forest disappears in ages 6 and 7.
    t = load_tables()
    wheat = t.modifiers["wheat"]
    assert t.terrains["fertile"].income + wheat["income"] == 5
    assert t.terrains["forest"].income == 2
    assert wheat["other_from_age"] == 5
    assert t.terrains["forest"].becomes_fertile_from_age == 6
    # L491: oil counts in age 7 only
    assert t.modifiers["oil"]["from_age"] == 7


def test_defence_numbers_the_examples_force() -> None:
    t = load_tables()
    assert t.terrains["mountain"].defence == 3  # L694
    assert t.terrains["forest"].defence == 1  # L813
    assert t.modifiers["river"]["defence"] == 1  # L731
    assert t.modifiers["fort"]["defence"] == 2  # L721
    assert t.modifiers["invaded"]["defence"] == 2  # L722


def test_cavalry_loses_1_in_forest() -> None:
    # L811: "+5 for the knight (including -1 for the forest) ... +6 for the horse artillery (including the -1"
    assert load_tables().terrains["forest"].cavalry_modifier == -1


def test_desert_and_tundra_do_not_count_for_glory() -> None:
    # L1096: "only count desert or tundra areas if the 'Special' section of the Empire's card
    # specifically says so"
    t = load_tables()
    assert [n for n, terrain in t.terrains.items() if not terrain.counts_for_glory] == ["tundra", "desert"]


@pytest.mark.parametrize("unit_class", sorted(COST_TABLE))
def test_cost_table(unit_class: str) -> None:
    cost, types = COST_TABLE[unit_class]
    units = {u.name: u for u in load_tables().unit_types.values() if u.unit_class == unit_class}
    assert {n: u.available for n, u in units.items()} == types
    assert {u.cost for u in units.values()} == {cost}


def test_there_are_23_unit_types_in_5_classes() -> None:
    # L188-245: Infantry 4, Missile 4, Cavalry 7, Ships 4, Aircraft 4.
    units = load_tables().unit_types.values()
    assert len(units) == 23
    assert sorted({u.unit_class for u in units}) == ["aircraft", "cavalry", "infantry", "missile", "ships"]


def test_other_costs() -> None:
    # L2832-2841
    c = load_tables().costs
    assert c["maintenance"]["cost"] == 1
    assert (c["fort"]["cost"], c["fort"]["with_builder"]) == (5, 4)
    assert (c["elite"]["cost"], c["elite"]["minimum"]) == (3, 3)
    assert (c["remove_disorder"]["cost"], c["remove_disorder"]["minimum"]) == (5, 5)
    assert (c["glory"]["cost"], c["glory"]["with_renaissance"]) == (50, 30)


def test_progress_track_ages() -> None:
    # L2813-2825: seven ages of seven levels, 1-49.
    t = load_tables()
    assert [a.name for a in t.ages] == ["Antiquity", "Empires", "Revolt", "The Renaissance", "Discovery",
                                        "Colonialism", "Aquarius"]
    assert [(a.first, a.last) for a in t.ages] == [(1, 7), (8, 14), (15, 21), (22, 28), (29, 35), (36, 42),
                                                    (43, 49)]
    # L1388: the French start at level 22, in age 4; L409: the Macedonians' level 8 is age 2.
    assert t.age_of(22) == 4 and t.age_of(8) == 2 and t.age_of(49) == 7
    with pytest.raises(ValueError):
        t.age_of(50)


def test_maximum_city_value_by_age() -> None:
    # L1002: value 3 from age 2, 5 from age 4, 7 in age 7 (and 1 before).
    assert [a.max_city for a in load_tables().ages] == [1, 3, 3, 5, 5, 5, 7]


def test_dark_ages() -> None:
    # L2818: "Dark Age ->" 18, 19, 20; the same shaded row shows 24, 26, 32, 33, 38 and 45 (our reading).
    dark = load_tables().dark_ages
    assert {18, 19, 20} <= dark
    assert dark == {18, 19, 20, 24, 26, 32, 33, 38, 45}


def test_regions_and_religions() -> None:
    # L2079-2261: 4 regions, 10 sub-regions; L66-72: 7 religions.
    t = load_tables()
    assert sorted(t.regions) == ["Africa", "America", "Asia", "Europe"]
    assert sum(len(s) for s in t.regions.values()) == 10
    assert t.subregions["Britain"] == "Europe" and t.subregions["North-East Asia"] == "Asia"
    assert len(t.religions) == 7 and "Pantheism" in t.religions


def test_an_entry_without_source_is_refused() -> None:
    raw = read_yaml("tables.yaml")
    assert table_problems(raw) == []
    bad = copy.deepcopy(raw)
    del bad["unit_types"][0]["source"]
    bad["terrains"][1]["facts"]["move"] = "a guess"
    problems = table_problems(bad)
    assert any("Spear" in p and "source" in p for p in problems)
    assert any("forest" in p and "move" in p for p in problems)


def test_cost_table_citations_match_the_rulebook_text() -> None:
    if not RULEBOOK.exists():
        pytest.skip("the rulebook text is not beside the repository")
    text = RULEBOOK.read_text(encoding="utf-8").splitlines()
    aliases = {"hs. artillery": "horse artillery"}
    for unit in read_yaml("tables.yaml")["unit_types"]:
        cited = " ".join(text[i - 1] for i in rulebook_lines(unit["source"]))
        found = {aliases.get(n.strip().lower(), n.strip().lower()): int(v)
                 for n, v in re.findall(r"([A-Za-z. -]+?) ~ (\d+)", cited.replace("(", ","))}
        assert found.get(unit["name"].lower()) == unit["available"], unit["name"]
