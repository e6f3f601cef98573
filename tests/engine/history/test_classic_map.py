"""The classic History of the World map: data facts and the loader/validator.

Each fact test cites the rulebook passage (seeds/history-of-the-world-classic-
7-epochs.txt) it checks.
"""

from __future__ import annotations

import copy
import itertools
from collections import deque
from pathlib import Path
from typing import Any

import pytest
import yaml

from engine.core import DataError
from engine.history.worldmap import (
    BORDER_KINDS,
    DEFAULT_MAP_PATH,
    TERRAINS,
    WorldMap,
    load_map,
    parse_map,
    validate_map,
)

# "Victory Points Table", in its row order.
AREAS = (
    "Middle East",
    "North Africa",
    "China",
    "India",
    "Southern Europe",
    "Northern Europe",
    "Southeast Asia",
    "Eurasia",
    "North America",
    "South America",
    "Nippon",
    "Africa",
    "Australia",
)

# Start lands of the Statistics, Greater Event and Lesser Event tables, and the
# lands of the worked examples, spelled as the rulebook prints them (with
# "Apennines" and "North European Plain" for the table's abbreviations).
RULEBOOK_LANDS = (
    # Statistics, epochs I-VII
    "Lower Tigris", "Nile Delta", "Crete", "Lower Indus", "Middle Tigris", "Yellow River",
    "Turanian Plain", "Upper Tigris", "Wei River", "Upper Indus", "Morea", "Caucasus",
    "Shatts Plateau", "Persian Plateau", "Central Europe", "Pindus", "Ganges Delta",
    "Great Plain of China", "Mongolia", "Southern Apennines", "Zagros", "Eastern Deccan",
    "Danubia", "Western Steppe", "Balkans", "Yangtze Kiang", "Arabian Peninsula", "Mekong",
    "Northern Gaul", "Scandinavia", "Eastern Ghats", "Szechuan", "Chekiang",
    "Northern Andes", "Mexican Valley", "Western Anatolia", "Western Iberia", "Pyrenees",
    "Ganges Valley", "North European Plain", "Manchurian Plain", "Lower Rhine",
    "Western Gaul", "Albion", "Appalachia", "Baltic Seaboard",
    # Greater Events (Minor Empires)
    "Eastern Anatolia", "Levant", "Central America", "Hokaido", "Persian Salt Desert",
    "Honshu",
    # Lesser Events (Kingdoms, Jewish Revolt, Crusade)
    "Palestine", "Northern Apennines", "Upper Nile", "Southern Andes", "Gold Coast",
    "Malayan Peninsula", "East Africa",
    # Examples (Libya in "The Gameboard"; scoring; British landing)
    "Libya", "Western Deccan", "Hindu Kush", "Si-Kyang",
)  # fmt: skip

WATER_KINDS = {
    "Red Sea": "sea",
    "Eastern Mediterranean": "sea",
    "Western Mediterranean": "sea",
    "Black Sea": "sea",
    "North Sea": "sea",
    "Sea of Japan": "sea",
    "South China Sea": "sea",
    "Bay of Bengal": "sea",
    "Caribbean Sea": "sea",
    "North Atlantic Ocean": "ocean",
    "Atlantic Ocean": "ocean",
    "Indian Ocean": "ocean",
    "Western Pacific Ocean": "ocean",
    "Eastern Pacific Ocean": "ocean",
}


@pytest.fixture(scope="module")
def world() -> WorldMap:
    return load_map()


@pytest.fixture()
def raw() -> dict[str, Any]:
    with DEFAULT_MAP_PATH.open(encoding="utf-8") as handle:
        data = yaml.safe_load(handle)
    assert isinstance(data, dict)
    return data


# --- The data file is sound --------------------------------------------------


def test_map_file_validates_cleanly(raw: dict[str, Any]) -> None:
    assert validate_map(raw) == []


def test_default_path_is_in_the_repo() -> None:
    repo = Path(__file__).resolve().parents[3]
    assert repo / "data" / "history" / "classic" / "map.yaml" == DEFAULT_MAP_PATH


# --- Counts ("The Gameboard"; "Resource Symbols and Monuments") ------------------


def test_102_lands_8_barren_94_in_areas(world: WorldMap) -> None:
    # "separated into 102 spaces, called Lands ... Eight of the Lands are Barren"
    assert len(world.lands) == 102
    barren = [land for land in world.lands.values() if land.barren]
    assert len(barren) == 8
    assert sum(len(world.lands_in_area(area)) for area in world.areas) == 94


def test_13_areas_in_table_order(world: WorldMap) -> None:
    assert world.areas == AREAS


def test_every_area_has_at_least_3_lands(world: WorldMap) -> None:
    # Control needs at least three armies in an Area.
    for area in world.areas:
        assert len(world.lands_in_area(area)) >= 3, area


def test_18_resource_symbols_none_barren(world: WorldMap) -> None:
    # "On the gameboard are 18 resource symbols"
    resources = [land for land in world.lands.values() if land.resource]
    assert len(resources) == 18
    assert not any(land.barren for land in resources)
    # spread over the world: at least 10 different areas carry one
    assert len({land.area for land in resources}) >= 10


def test_terrain_values(world: WorldMap) -> None:
    for land in world.lands.values():
        assert land.terrain in TERRAINS, land.name


# --- Names ---------------------------------------------------------------------


def test_every_rulebook_land_is_present_and_enterable(world: WorldMap) -> None:
    missing = [name for name in RULEBOOK_LANDS if name not in world.lands]
    assert missing == []
    barren = [name for name in RULEBOOK_LANDS if world.lands[name].barren]
    assert barren == []


def test_waters_and_their_kinds(world: WorldMap) -> None:
    assert {name: water.kind for name, water in world.waters.items()} == WATER_KINDS


def test_land_aliases_resolve(world: WorldMap) -> None:
    cases = {
        "S. Appenines": "Southern Apennines",
        "southern appenines": "Southern Apennines",
        "Southern Apennines": "Southern Apennines",
        "Northern Appenines": "Northern Apennines",
        "N. European Plain": "North European Plain",
        "n european plain": "North European Plain",
        "  lower   TIGRIS ": "Lower Tigris",
        "si-kyang": "Si-Kyang",
    }
    for typed, canonical in cases.items():
        assert world.resolve_land(typed) == canonical, typed


def test_water_aliases_resolve(world: WorldMap) -> None:
    # The Statistics table's abbreviations.
    cases = {
        "E. Med.": "Eastern Mediterranean",
        "W. Med.": "Western Mediterranean",
        "Western Med.": "Western Mediterranean",
        "S. China Sea": "South China Sea",
        "N. Atlantic": "North Atlantic Ocean",
        "Atlantic": "Atlantic Ocean",
        "Indian": "Indian Ocean",
        "W. Pacific": "Western Pacific Ocean",
        "E. Pacific": "Eastern Pacific Ocean",
        "caribbean sea": "Caribbean Sea",
        "Red Sea": "Red Sea",
    }
    for typed, canonical in cases.items():
        assert world.resolve_water(typed) == canonical, typed


def test_unknown_names_raise_helpful_key_errors(world: WorldMap) -> None:
    with pytest.raises(KeyError, match=r"did you mean 'Southern Apennines' or 'Northern"):
        world.resolve_land("Southern Apenines")
    with pytest.raises(KeyError, match="did you mean 'Eastern Mediterranean'"):
        world.resolve_water("E. Mediteranean")
    with pytest.raises(KeyError, match="unknown land 'Atlantis'"):
        world.resolve_land("Atlantis")
    with pytest.raises(KeyError, match="unknown sea or ocean"):
        world.resolve_water("Baltic Sea")
    with pytest.raises(KeyError):
        world.neighbours("Atlantis")
    with pytest.raises(KeyError):
        world.coast("Atlantic")  # aliases are for resolve_water only
    with pytest.raises(KeyError):
        world.lands_in_area("Antarctica")


# --- Connectivity --------------------------------------------------------------


def test_every_land_and_water_is_reachable(world: WorldMap) -> None:
    start = ("land", "Lower Tigris")
    seen = {start}
    queue = deque([start])
    while queue:
        kind, name = queue.popleft()
        if kind == "land":
            nxt = [("land", n) for n in world.neighbours(name)]
            nxt += [("water", w) for w in world.lands[name].waters]
        else:
            nxt = [("land", n) for n in world.coast(name)]
            nxt += [("water", w) for w in world.waters[name].links]
        for item in nxt:
            if item not in seen:
                seen.add(item)
                queue.append(item)
    assert {n for k, n in seen if k == "land"} == set(world.lands)
    assert {n for k, n in seen if k == "water"} == set(world.waters)


def test_borders_are_symmetric(world: WorldMap) -> None:
    for name in world.lands:
        for other in world.neighbours(name):
            assert name in world.neighbours(other)
            assert world.border(name, other) == world.border(other, name)
            assert world.border(name, other) in (None, *BORDER_KINDS)


def test_coasts_agree_with_lands(world: WorldMap) -> None:
    for water in world.waters:
        for name in world.coast(water):
            assert water in world.lands[name].waters
    for land in world.lands.values():
        for water in land.waters:
            assert land.name in world.coast(water)


def test_barren_lands(world: WorldMap) -> None:
    # Barbarians start in a Barren Land and attack out of it into adjacent Lands.
    for land in world.lands.values():
        if land.barren:
            assert not land.resource
            assert land.waters == frozenset()
            ordinary = [n for n in world.neighbours(land.name) if not world.lands[n].barren]
            assert ordinary, land.name


def test_anchors_sit_on_the_right_continent(world: WorldMap) -> None:
    americas = {"North America", "South America"}
    for land in world.lands.values():
        lon, lat = land.anchor
        assert -180 <= lon <= 180 and -90 <= lat <= 90
        if land.area in americas:
            assert lon < -30, land.name
        else:
            assert lon > -20, land.name
        if land.area == "Australia":
            assert lat < 0, land.name


def test_border_of_non_adjacent_lands_is_a_key_error(world: WorldMap) -> None:
    with pytest.raises(KeyError, match="not adjacent"):
        world.border("Albion", "Honshu")
    with pytest.raises(KeyError):
        world.border("Albion", "Albion")


# --- Navigation (Chapter V step 3 and the examples) ---------------------------------


def test_portuguese_example_reach(world: WorldMap) -> None:
    # "fleet markers in the Atlantic Ocean and all its reachable seas: North Sea,
    # Western Med., Eastern Med., Black Sea ... the Indian Ocean ... Red Sea and
    # Bay of Bengal."
    assert world.fleet_reach("Atlantic Ocean") == {
        "Atlantic Ocean",
        "North Sea",
        "Western Mediterranean",
        "Eastern Mediterranean",
        "Black Sea",
    }
    assert world.fleet_reach("Indian Ocean") == {"Indian Ocean", "Red Sea", "Bay of Bengal"}


def test_a_sea_reaches_only_itself(world: WorldMap) -> None:
    for name, water in world.waters.items():
        if water.kind == "sea":
            assert world.fleet_reach(name) == {name}


def test_britain_needs_exactly_the_12_fleet_markers(world: WorldMap) -> None:
    # Britain: N. Atlantic, Atlantic, Indian, W. Pacific Oceans; the box holds 12.
    oceans = ("North Atlantic Ocean", "Atlantic Ocean", "Indian Ocean", "Western Pacific Ocean")
    markers = set().union(*(world.fleet_reach(o) for o in oceans))
    assert len(markers) == 12
    assert "Caribbean Sea" not in markers


def test_any_four_oceans_fit_in_the_12_markers(world: WorldMap) -> None:
    # The most oceans a card lists is four (Britain, France).
    oceans = [name for name, w in world.waters.items() if w.kind == "ocean"]
    for left_out in oceans:
        chosen = [o for o in oceans if o != left_out]
        assert len(set().union(*(world.fleet_reach(o) for o in chosen))) <= 12


def test_water_links_are_symmetric_and_the_caribbean_is_apart(world: WorldMap) -> None:
    for name, water in world.waters.items():
        for other in water.links:
            assert name in world.waters[other].links
    for ocean in ("North Atlantic Ocean", "Atlantic Ocean"):
        assert "Caribbean Sea" not in world.fleet_reach(ocean)
    assert "Red Sea" not in world.waters["Eastern Mediterranean"].links
    assert "South China Sea" not in world.fleet_reach("Indian Ocean")


def test_greek_example_coasts(world: WorldMap) -> None:
    # Greeks (E. Med., W. Med., Black Sea) reach Shatts Plateau from Morea using
    # the Eastern then the Western Med. fleet, and Caucasus using the Eastern
    # Med. then the Black Sea fleet: so neither is one fleet away.
    morea = world.lands["Morea"].waters
    assert "Eastern Mediterranean" in morea
    assert "Western Mediterranean" not in morea
    shatts = world.lands["Shatts Plateau"].waters
    assert "Western Mediterranean" in shatts
    assert "Eastern Mediterranean" not in shatts
    caucasus = world.lands["Caucasus"].waters
    assert "Black Sea" in caucasus
    assert "Eastern Mediterranean" not in caucasus
    assert "Western Mediterranean" in world.waters["Eastern Mediterranean"].links
    assert "Black Sea" in world.waters["Eastern Mediterranean"].links


def test_british_landing_example(world: WorldMap) -> None:
    # Britain goes from Albion to Chekiang in one move by sea, then expands into
    # Si-Kyang, Yangtze Kiang or the Great Plain of China.
    oceans = ("North Atlantic Ocean", "Atlantic Ocean", "Indian Ocean", "Western Pacific Ocean")
    reach = set().union(*(world.fleet_reach(o) for o in oceans))
    assert "North Atlantic Ocean" in world.lands["Albion"].waters
    assert world.lands["Chekiang"].waters & reach
    for a, b in itertools.pairwise(oceans):
        assert b in world.waters[a].links
    assert {"Si-Kyang", "Yangtze Kiang", "Great Plain of China"} <= world.neighbours("Chekiang")


def test_crusade_lands_in_palestine_from_the_eastern_med(world: WorldMap) -> None:
    assert "Eastern Mediterranean" in world.lands["Palestine"].waters


def test_start_lands_near_their_fleets(world: WorldMap) -> None:
    # A few Statistics-table fleets whose start land sits on that very sea.
    on_sea = {
        "Nile Delta": ("Red Sea", "Eastern Mediterranean"),
        "Crete": ("Eastern Mediterranean",),
        "Shatts Plateau": ("Western Mediterranean",),
        "Southern Apennines": ("Eastern Mediterranean", "Western Mediterranean"),
        "Balkans": ("Black Sea", "Eastern Mediterranean"),
        "Arabian Peninsula": ("Red Sea",),
        "Mekong": ("South China Sea",),
        "Scandinavia": ("North Atlantic Ocean",),
        "Eastern Ghats": ("Bay of Bengal",),
        "Eastern Deccan": ("Bay of Bengal",),
        "Chekiang": ("South China Sea",),
        "Manchurian Plain": ("Sea of Japan", "South China Sea"),
        "Appalachia": ("Caribbean Sea",),
        "Levant": ("Eastern Mediterranean",),
        "Hokaido": ("Sea of Japan",),
        "Honshu": ("Sea of Japan",),
    }
    for land, waters in on_sea.items():
        for water in waters:
            assert water in world.lands[land].waters, (land, water)


# --- Combat examples: terrain, straits, the Great Wall --------------------------


def test_roman_example_ordinary_border_into_plain(world: WorldMap) -> None:
    # Southern -> Northern Apennines: the defender rolls one die.
    assert world.border("Southern Apennines", "Northern Apennines") is None
    assert world.lands["Northern Apennines"].terrain == "plain"


def test_mongol_example_great_wall(world: WorldMap) -> None:
    # Mongolia -> Wei River: two defender dice "due to ... the Great Wall".
    assert world.border("Mongolia", "Wei River") == "great_wall"
    assert world.border("Wei River", "Mongolia") == "great_wall"
    assert world.lands["Wei River"].terrain == "plain"


def test_great_wall_runs_along_northern_china(world: WorldMap) -> None:
    walls = [(a, b) for a, b, kind in world.edges() if kind == "great_wall"]
    assert len(walls) >= 2
    for a, b in walls:
        # The wall faces north: its southern side is in China, its northern side
        # is the steppe, the desert or Manchuria (the wall's sea end).
        south, north = sorted((a, b), key=lambda name: world.lands[name].anchor[1])
        assert world.lands[south].area == "China", (a, b)
        assert world.lands[north].anchor[1] > world.lands[south].anchor[1] + 3, (a, b)


def test_straits(world: WorldMap) -> None:
    expected = {
        ("Balkans", "Western Anatolia"),  # Bosporus
        ("Southern Iberia", "Atlas Mountains"),  # Gibraltar
        ("Albion", "Northern Gaul"),  # Dover
        ("Arabian Peninsula", "Abyssinia"),  # Bab-el-Mandeb
        ("Eastern Ghats", "Ceylon"),  # Palk
        ("Korea", "Kyushu"),  # Tsushima
        ("Southern Apennines", "Sicily"),  # Messina
    }
    for a, b in expected:
        assert world.border(a, b) == "strait", (a, b)
    # A strait crosses narrow water, so both shores touch a common water.
    for a, b, kind in world.edges():
        if kind == "strait":
            assert world.lands[a].waters & world.lands[b].waters, (a, b)


# --- The scoring example (Chapter VI) -----------------------------------------------


def test_scoring_example_areas(world: WorldMap) -> None:
    assert world.lands["Nile Delta"].area == "North Africa"
    assert world.lands["Libya"].area == "North Africa"
    assert world.lands["Palestine"].area == "Middle East"
    assert world.lands["Persian Plateau"].area == "Middle East"
    for name in ("Upper Indus", "Western Deccan", "Eastern Ghats", "Hindu Kush"):
        assert world.lands[name].area == "India", name


def test_vedic_city_states_hold_exactly_two_resources(world: WorldMap) -> None:
    # Five Vedic lands, two resource symbols -> one monument.
    vedic = ("Upper Indus", "Western Deccan", "Eastern Ghats", "Hindu Kush", "Persian Plateau")
    assert sum(world.lands[name].resource for name in vedic) == 2


def test_vedic_lands_are_one_expansion(world: WorldMap) -> None:
    # The Vedic City States expanded from Upper Indus into the other four lands.
    vedic = {"Upper Indus", "Western Deccan", "Eastern Ghats", "Hindu Kush", "Persian Plateau"}
    seen = {"Upper Indus"}
    queue = deque(seen)
    while queue:
        for nxt in world.neighbours(queue.popleft()) & vedic:
            if nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    assert seen == vedic


# --- Loader --------------------------------------------------------------------------


def test_load_map_is_cached_per_path() -> None:
    assert load_map() is load_map()
    assert load_map(DEFAULT_MAP_PATH) is load_map(str(DEFAULT_MAP_PATH))


def test_parse_map_builds_an_equal_map(raw: dict[str, Any], world: WorldMap) -> None:
    again = parse_map(raw)
    assert again.lands == world.lands
    assert again.waters == world.waters
    assert again.edges() == world.edges()


def test_load_map_reports_the_file_name(tmp_path: Path, raw: dict[str, Any]) -> None:
    raw["lands"]["Crete"]["terrain"] = "swamp"
    path = tmp_path / "broken.yaml"
    path.write_text(yaml.safe_dump(raw), encoding="utf-8")
    with pytest.raises(DataError) as caught:
        load_map(path)
    assert caught.value.problems == ["broken.yaml: lands.Crete: terrain 'swamp' is not one of "
                                     "['plain', 'forest', 'mountain']"]  # fmt: skip


# --- Validator: reports every problem at once ----------------------------------------


def test_validate_reports_several_injected_errors_at_once(raw: dict[str, Any]) -> None:
    broken = copy.deepcopy(raw)
    broken["lands"]["Albion"]["terrain"] = "swamp"
    broken["borders"].append(["Middle Tigris", "Lower Tigris"])  # reversed duplicate
    broken["lands"]["Gobi"]["resource"] = True  # barren with a resource
    broken["lands"]["Crete"]["waters"] = []  # Crete is reached by sea only: cut off
    problems = validate_map(broken)
    assert len(problems) >= 4
    text = "\n".join(problems)
    assert "not connected" in text and "land Crete" in text
    assert "Albion" in text and "swamp" in text
    assert "Middle Tigris - Lower Tigris is already listed" in text
    assert "barren land cannot have a resource" in text
    with pytest.raises(DataError) as caught:
        parse_map(broken)
    assert caught.value.problems == problems


def test_validate_catches_names_keys_and_shapes(raw: dict[str, Any]) -> None:
    broken = copy.deepcopy(raw)
    broken["lands"]["Crete"]["colour"] = "blue"  # unknown key
    broken["lands"]["Morea"]["waters"] = ["Aegean Sea"]  # unknown water
    broken["lands"]["Libya"]["area"] = "Sahel"  # unknown area
    broken["lands"]["Pindus"]["anchor"] = [200.0, 40.0]  # out of range
    del broken["lands"]["Zagros"]["resource"]  # missing key
    broken["borders"].append(["Albion", "Atlantis"])  # unknown land
    broken["borders"].append(["Albion", "Albion"])  # self border
    broken["borders"].append(["Albion", "Caledonia", "bridge"])  # bad kind
    broken["water_links"].append(["North Sea", "North Atlantic Ocean"])  # duplicate
    broken["waters"]["Red Sea"]["kind"] = "lake"
    broken["lands"]["Honshu"]["aliases"] = ["Crete"]  # clashes with a land
    broken["surprise"] = 1
    problems = validate_map(broken)
    text = "\n".join(problems)
    for expected in (
        "lands.Crete: unknown key 'colour'",
        "lands.Morea: unknown water 'Aegean Sea'",
        "lands.Libya: unknown area 'Sahel'",
        "lands.Pindus: anchor longitude 200.0",
        "lands.Zagros: missing key 'resource'",
        "unknown land 'Atlantis'",
        "Albion cannot border itself",
        "border kind 'bridge'",
        "North Sea - North Atlantic Ocean is already listed",
        "waters.Red Sea: kind 'lake'",
        "'Crete' of Honshu clashes with Crete",
        "map: unknown key 'surprise'",
    ):
        assert expected in text, expected
    assert len(problems) >= 12


def test_validate_catches_disconnection_and_thin_areas(raw: dict[str, Any]) -> None:
    broken = copy.deepcopy(raw)
    broken["lands"]["Crete"]["waters"] = []  # Crete is reached by sea only
    assert any("not connected" in p and "land Crete" in p for p in validate_map(broken))

    broken = copy.deepcopy(raw)
    for name in ("Hokaido", "Honshu"):
        broken["lands"][name]["area"] = "China"
    assert any("area Nippon has 1 land(s)" in p for p in validate_map(broken))

    broken = copy.deepcopy(raw)
    broken["borders"] = [b for b in broken["borders"] if "Kalahari" not in b[:2]]
    problems = validate_map(broken)
    assert any("Kalahari borders no ordinary land" in p for p in problems)


def test_validate_rejects_wrong_top_level_types() -> None:
    assert validate_map([]) == ["the map must be a mapping, got list"]
    problems = validate_map({"areas": "x", "waters": [], "water_links": {}, "lands": 3})
    assert any("missing key 'borders'" in p for p in problems)
    assert any(p.startswith("areas:") for p in problems)
    assert any(p.startswith("waters:") for p in problems)
    assert any(p.startswith("lands:") for p in problems)
    assert any(p.startswith("water_links:") for p in problems)


def test_great_wall_protects_the_chinese_side(world: WorldMap) -> None:
    """The Wall is difficult terrain "in the defender's Land": each wall border has
    exactly one protected side, and Wei River (the Mongol example) is inside."""
    wall = [(a, b) for a, b, kind in world.edges() if kind == "great_wall"]
    assert wall
    for a, b in wall:
        assert (a in world.wall_inside) != (b in world.wall_inside), (a, b)
    assert "Wei River" in world.wall_inside
    assert "Mongolia" not in world.wall_inside
    assert all(world.lands[land].area == "China" for land in world.wall_inside)


def test_great_wall_sides_are_validated(raw: dict[str, Any]) -> None:
    broken = copy.deepcopy(raw)
    broken["great_wall_inside"] = ["Wei River", "Mongolia", "Atlantis"]
    problems = validate_map(broken)
    assert any("unknown land 'Atlantis'" in p for p in problems)
    assert any("Mongolia - Wei River" in p or "Wei River - Mongolia" in p for p in problems)


def test_adjacent_areas(world: WorldMap) -> None:
    """Black Death strikes "two adjacent Areas": areas touch where their lands border."""
    assert "North Africa" in world.adjacent_areas("Middle East")
    assert "Middle East" in world.adjacent_areas("North Africa")
    assert "Australia" not in world.adjacent_areas("Middle East")
    for area in world.areas:
        assert area not in world.adjacent_areas(area)
        for other in world.adjacent_areas(area):
            assert area in world.adjacent_areas(other)
    with pytest.raises(KeyError):
        world.adjacent_areas("Atlantis")
