"""The 7 Ages world map: one test per fact the rulebook states, the map's invariants, its raster.

Line numbers (L...) are lines of the Collector's edition rulebook, ``shared/seeds/7-ages.txt``
(draft of 17 Mar 2023). The map is Annals' reconstruction; these facts are what it must keep.
"""

from __future__ import annotations

import copy
import io
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PIL import Image

from engine.seven_ages.checks import check_data, report
from engine.seven_ages.data import (
    DATA_DIR,
    TERRAINS,
    load_tables,
    provenance,
    provenance_line,
    read_yaml,
    rulebook_lines,
)
from engine.seven_ages.map import WorldMap, load_map, map_problems, unreachable

# The rulebook text sits in ``shared/seeds`` beside the checkout (whichever folder level it is at).
RULEBOOK = next((p / "shared" / "seeds" / "7-ages.txt" for p in Path(__file__).resolve().parents
                 if (p / "shared" / "seeds" / "7-ages.txt").exists()), Path("shared/seeds/7-ages.txt"))
BOARD = DATA_DIR / "board"

# The 22 grid references the rulebook prints, each with the line that prints it.
PRINTED_REFS = {
    "Benin": ("J7", 29), "Egypt": ("M6", 485), "Germany": ("J4", 489), "Galapagos": ("A1", 606),
    "South Pacific": ("Z0", 606), "Gulf of Mexico": ("D4", 648), "Andalusia": ("H5", 672),
    "Epirus": ("K5", 731), "Ukraine": ("L4", 988), "Cyrenaica": ("L6", 988),
    "Japanese coast": ("R0", 1094), "Central Mediterranean": ("K5", 1098), "Solomons": ("Y2", 1100),
    "Timor & Bali": ("W4", 1100), "Western Mediterranean": ("J5", 1110), "Palestine": ("M5", 1118),
    # "Kiel (J3)" (L1574) is in Schleswig (L1582)
    "Panama": ("B4", 1574), "Suez": ("N5", 1574), "Schleswig": ("J3", 1574),
    "Mecca": ("N6", 1708), "Carthage": ("J5", 2115), "Siam": ("T4", 2173),
}

# Every area the rulebook names (34 lands, 12 seas).
NAMED_LANDS = (
    "Benin", "Egypt", "Germany", "Galapagos", "Yucatan", "Andalusia", "Mauretania", "Epirus", "Dacia",
    "Armenia", "Novgorod", "Smolensk", "Muscovy", "Normandy", "Thracia", "Burgundy", "Ukraine", "Cyrenaica",
    "Palestine", "Mecca", "Carthage", "Sahara", "Siam", "Malaya", "Solomons", "Timor & Bali", "Iceland",
    "Schleswig", "England", "Cis-Alpine", "Hausa", "Pallava", "Panama", "Suez",
)
NAMED_SEAS = (
    "South Pacific", "Gulf of Mexico", "Gulf of Panama", "Bay of Biscay", "Western Mediterranean",
    "Pillars of Hercules", "Central Mediterranean", "Eastern Mediterranean", "Java Sea", "Japanese coast",
    "North Sea", "Baltic",
)


@pytest.fixture(scope="module")
def world() -> WorldMap:
    return load_map()


def income(world: WorldMap, name: str, age: int, city: int) -> int:
    """An unordered area's income for an empire in ``age`` (L483-491), from the tables' numbers."""
    tables = load_tables()
    area = world.areas[name]
    assert area.terrain is not None
    terrain = tables.terrains[area.terrain]
    if terrain.becomes_fertile_from_age is not None and age >= terrain.becomes_fertile_from_age:
        terrain = tables.terrains["fertile"]
    wheat = tables.modifiers["wheat"]
    total = terrain.income + city
    if area.wheat and (terrain.name == "fertile" or age >= wheat["other_from_age"]):
        total += wheat["income"]
    if area.oil and age >= tables.modifiers["oil"]["from_age"]:
        total += tables.modifiers["oil"]["income"]
    return total


# --- the rulebook's facts ------------------------------------------------------


def test_every_area_the_rulebook_names_is_on_the_map(world: WorldMap) -> None:
    assert [n for n in NAMED_LANDS if n not in world.areas or not world.areas[n].land] == []
    assert [n for n in NAMED_SEAS if n not in world.areas or world.areas[n].land] == []


@pytest.mark.parametrize("name", sorted(PRINTED_REFS))
def test_printed_grid_reference_is_kept(world: WorldMap, name: str) -> None:
    ref, _line = PRINTED_REFS[name]
    assert world.areas[name].ref == ref


def test_egypt_is_fertile_with_wheat_and_earns_6_with_a_1_city(world: WorldMap) -> None:
    # L485: "Egypt (located at M6 on the map) is a fertile area with a value 1 city. Fertile areas
    # with wheat produce 5 income and a value 1 city adds 1, so Egypt will earn 6 income"
    assert world.areas["Egypt"].terrain == "fertile" and world.areas["Egypt"].wheat
    assert income(world, "Egypt", age=1, city=1) == 6


def test_germany_is_forest_with_wheat_and_earns_5_7_8(world: WorldMap) -> None:
    # L489: "Germany (J4) with a value 3 city provides 5 income ... before they enter age 5. In age 5,
    # Germany provides 7 income and, in ages 6 and 7, 8 income (because the forest disappears)."
    assert world.areas["Germany"].terrain == "forest" and world.areas["Germany"].wheat
    assert [income(world, "Germany", age, city=3) for age in range(1, 8)] == [5, 5, 5, 5, 7, 8, 8]


def test_ukraine_is_fertile_with_wheat_and_cyrenaica_earns_at_most_5(world: WorldMap) -> None:
    # L988: removing disorder costs the area's income (min. 5): the Ukraine with a 7 city, temple and
    # Industrial Revolution costs (7 x 2 + 5) / 2, so its own income is 5; Cyrenaica with no city, 5.
    assert world.areas["Ukraine"].terrain == "fertile" and world.areas["Ukraine"].wheat
    assert income(world, "Ukraine", age=1, city=0) == 5
    assert all(income(world, "Cyrenaica", age, city=0) <= 5 for age in range(1, 8))


def test_armenia_is_a_mountain_of_defence_3(world: WorldMap) -> None:
    # L694: "the terrain defence modifier in a mountain area is 3"
    assert world.areas["Armenia"].terrain == "mountain"
    assert load_tables().terrains["mountain"].defence == 3


def test_epirus_is_a_mountain_across_a_river_from_dacia(world: WorldMap) -> None:
    # L731: "entered Epirus (K5) via Dacia ... 4 (3 for the mountain and 1 for crossing an adjacent river"
    assert world.areas["Epirus"].terrain == "mountain"
    assert frozenset(("Dacia", "Epirus")) in world.rivers
    tables = load_tables()
    assert tables.terrains["mountain"].defence + tables.modifiers["river"]["defence"] == 4


def test_muscovy_is_forest(world: WorldMap) -> None:
    # L813: Cat's rifle gets "+1 for defending in a forest" in Muscovy.
    assert world.areas["Muscovy"].terrain == "forest"
    assert load_tables().terrains["forest"].defence == 1


def test_smolensk_lies_between_novgorod_and_muscovy(world: WorldMap) -> None:
    # L795-801: the French in Novgorod move into Smolensk, and the rest "through Smolensk to Muscovy".
    assert world.adjacent("Novgorod", "Smolensk") and world.adjacent("Smolensk", "Muscovy")
    assert not world.adjacent("Novgorod", "Muscovy")


def test_mauretania_andalusia_arrow_crosses_both_seas(world: WorldMap) -> None:
    # L672: a spear crossing from Mauretania to Andalusia is blocked only if both the Western
    # Mediterranean and the Pillars of Hercules hold another empire's units.
    arrows = [a for a in world.arrows if {a.a, a.b} == {"Mauretania", "Andalusia"}]
    assert len(arrows) == 1 and not arrows[0].blue
    assert set(arrows[0].over) == {"Western Mediterranean", "Pillars of Hercules"}
    assert world.adjacent("Mauretania", "Andalusia")
    for sea in arrows[0].over:
        assert world.adjacent("Mauretania", sea) and world.adjacent("Andalusia", sea)


def test_galapagos_wraps_round_to_the_south_pacific(world: WorldMap) -> None:
    # L606: "Galapagos (A1) is adjacent to the South Pacific (Z0)" by a blue arrow.
    blue = [a for a in world.arrows if a.blue]
    assert [{a.a, a.b} for a in blue] == [{"Galapagos", "South Pacific"}]
    assert world.adjacent("Galapagos", "South Pacific")
    assert world.areas["South Pacific"].kind == "ocean"


def test_normandy_is_on_the_bay_of_biscay(world: WorldMap) -> None:
    # L646: "French ships start a manoeuvre action in Normandy ... an English galley in the Bay of Biscay"
    assert "Bay of Biscay" in world.seas_of("Normandy")


def test_yucatan_has_separate_coasts_on_the_two_gulfs(world: WorldMap) -> None:
    # L648-650: no ship goes from the Gulf of Mexico (D4) to Yucatan and then to the Gulf of Panama.
    assert {"Gulf of Mexico", "Gulf of Panama"} <= world.seas_of("Yucatan")
    gulf, panama = world.coast_of("Yucatan", "Gulf of Mexico"), world.coast_of("Yucatan", "Gulf of Panama")
    assert gulf is not None and panama is not None and gulf != panama


def test_carthage_is_coastal_and_the_sahara_is_not(world: WorldMap) -> None:
    # L2115: "Carthage (J5) is a coastal area, the Sahara isn't"
    assert world.coastal("Carthage")
    assert not world.coastal("Sahara")


def test_siam_borders_the_java_sea_and_malaya(world: WorldMap) -> None:
    # L2173: moving into Siam (T4) "directly from the Java Sea is invading, moving via Malaya is not"
    assert world.adjacent("Siam", "Java Sea") and world.adjacent("Siam", "Malaya")
    assert world.areas["Malaya"].land


def test_central_mediterranean_is_in_africa_italy_and_europe(world: WorldMap) -> None:
    # L1098: "The Central Mediterranean (K5) is an area in Africa, Italy and Europe"
    assert {"Africa", "Italy", "Europe"} <= world.regions_of("Central Mediterranean")


def test_western_mediterranean_is_not_exclusively_outside_europe(world: WorldMap) -> None:
    # L1110: France's Western Mediterranean "doesn't count as it is not exclusively outside Europe"
    assert "Europe" in world.regions_of("Western Mediterranean")
    assert "Africa" in world.regions_of("Western Mediterranean")


def test_japanese_coast_is_in_north_east_asia_and_asia(world: WorldMap) -> None:
    # L1094: "The Japanese coast (R0) is in both the North-East Asia sub-region and the Asia region"
    assert {"North-East Asia", "Asia"} <= world.regions_of("Japanese coast")


@pytest.mark.parametrize(("island", "subregion"),
                         [("Solomons", "Australasia"), ("Timor & Bali", "S.E. Asia")])
def test_islands_joined_by_crossing_arrows_take_the_mainland_region(world: WorldMap, island: str,
                                                                   subregion: str) -> None:
    # L1100: "Solomons (Y2) is in Australasia and Timor & Bali (W4) is in S.E. Asia, and both are in Asia"
    area = world.areas[island]
    assert area.island and {subregion, "Asia"} <= world.regions_of(island)
    joined = [a.b if a.a == island else a.a for a in world.arrows if island in (a.a, a.b) and not a.blue]
    assert joined and all(world.areas[n].subregion == subregion for n in joined)


def test_iceland_is_in_britain_and_europe(world: WorldMap) -> None:
    # L1102: "Iceland is part of Britain and Europe" (the region in brackets after its name).
    area = world.areas["Iceland"]
    assert area.island and (area.region, area.subregion) == ("Europe", "Britain")
    assert not any("Iceland" in (a.a, a.b) for a in world.arrows)


def test_palestine_and_mecca_are_religious_sites(world: WorldMap) -> None:
    # L1118: a Christian Rome controlling an unordered Palestine (M5) gains 1 glory (a religious site).
    # L1708: Islam is adopted within range of Mecca (N6), its site.
    assert world.areas["Palestine"].religion == "Christianity"
    assert world.areas["Mecca"].religion == "Islam"


def test_the_three_canals(world: WorldMap) -> None:
    # L1574: "Great Canal (Kiel (J3), Panama (B4) & Suez (N5))"; L1582: the Kiel canal is in Schleswig.
    canals = {c.name: c for c in world.canals}
    assert set(canals) == {"Kiel", "Panama", "Suez"}
    assert (canals["Kiel"].area, canals["Kiel"].ref) == ("Schleswig", "J3")
    assert (canals["Panama"].area, canals["Panama"].ref) == ("Panama", "B4")
    assert (canals["Suez"].area, canals["Suez"].ref) == ("Suez", "N5")
    for canal in canals.values():
        a, b = canal.seas
        # the canal joins two seas that are on different coasts of its area and do not meet there
        assert world.coast_of(canal.area, a) != world.coast_of(canal.area, b)


def test_schleswig_has_a_baltic_and_a_north_sea_coast(world: WorldMap) -> None:
    # L1582: "If the Kiel canal is in Schleswig, ships there are on both the Baltic and the North Sea coast."
    baltic, north = world.coast_of("Schleswig", "Baltic"), world.coast_of("Schleswig", "North Sea")
    assert baltic is not None and north is not None and baltic != north


def test_siam_raises_elephants(world: WorldMap) -> None:
    # L97: the sample common elephant counter is "R Siam": raised in Siam.
    assert world.areas["Siam"].elephant


def test_byzantine_set_up_has_coastal_areas_on_the_eastern_mediterranean(world: WorldMap) -> None:
    # L387: Byzantines set up in Thracia and coastal areas adjacent to the Eastern Mediterranean.
    assert world.areas["Thracia"].land
    coast = {n for n in world.adjacency["Eastern Mediterranean"] if world.areas[n].land}
    assert len(coast) >= 5 and world.coastal("Thracia")


def test_burgundy_and_england_exist_as_homelands(world: WorldMap) -> None:
    # L1132: Burgundy is the French homeland; L431: Elizabeth is set up in England.
    assert world.areas["Burgundy"].region == "Europe"
    assert world.areas["England"].subregion == "Britain"


# --- invariants ------------------------------------------------------------------


def test_map_size_and_density(world: WorldMap) -> None:
    kinds = [a.kind for a in world.areas.values()]
    lands, waters = kinds.count("land"), len(kinds) - kinds.count("land")
    assert 260 <= len(kinds) <= 300
    assert 200 <= lands <= 225 and 55 <= waters <= 80
    # dense where history was: Europe holds far more areas than North America or Siberia-sized regions
    europe = sum(1 for a in world.areas.values() if a.region == "Europe")
    assert europe >= 2 * sum(1 for a in world.areas.values() if a.subregion == "South America")


def test_data_checks_clean_and_report_counts() -> None:
    assert check_data() == []
    lines = report()
    assert any(line.startswith("areas 285: 46 from the rulebook") for line in lines)


def test_every_land_has_a_known_terrain_and_region(world: WorldMap) -> None:
    tables = load_tables()
    for area in world.areas.values():
        if area.land:
            assert area.terrain in TERRAINS, area.name
            assert area.region in tables.regions or (area.island and area.region is None), area.name


def test_borders_are_listed_once_and_adjacency_is_symmetric(world: WorldMap) -> None:
    raw = read_yaml("map.yaml")
    pairs = [frozenset((b["a"], b["b"])) for b in raw["borders"]]
    assert len(pairs) == len(set(pairs))
    adj = world.adjacency
    assert all(a in adj[b] for a in adj for b in adj[a])


def test_every_area_is_reachable(world: WorldMap) -> None:
    assert unreachable(world) == []


def test_every_region_and_subregion_has_areas(world: WorldMap) -> None:
    tables = load_tables()
    for region, subs in tables.regions.items():
        for name in (region, *subs):
            assert any(a.land for a in (world.areas[n] for n in world.members(name))), name


def test_coasts_split_each_lands_seas(world: WorldMap) -> None:
    for area in world.areas.values():
        if area.coasts:
            listed = [s for seas in area.coasts.values() for s in seas]
            assert sorted(listed) == sorted(world.seas_of(area.name)), area.name


def test_missing_or_bad_source_is_refused() -> None:
    raw = read_yaml("map.yaml")
    assert map_problems(raw) == []
    bad = copy.deepcopy(raw)
    del bad["areas"][0]["source"]
    bad["borders"][0]["source"] = "rulebook:99999"
    problems = map_problems(bad)
    assert any(bad["areas"][0]["name"] in p and "source" in p for p in problems)
    assert any("border" in p and "source" in p for p in problems)
    assert provenance("public: a 2006 session report") == "public"
    assert provenance("rulebook:12-10") is None and provenance("") is None


def test_provenance_line_wording() -> None:
    entries = [{"source": "rulebook:1"}, {"source": "ours"}, {"source": "ours"}]
    assert provenance_line("areas", entries) == "areas 3: 1 from the rulebook, 2 ours"


def test_area_citations_name_their_area() -> None:
    if not RULEBOOK.exists():
        pytest.skip("the rulebook text is not beside the repository")
    text = RULEBOOK.read_text(encoding="utf-8").splitlines()
    raw = read_yaml("map.yaml")
    wrong = []
    for area in raw["areas"]:
        lines = rulebook_lines(area["source"])
        if lines and not any(area["name"].lower() in text[i - 1].lower() for i in lines):
            wrong.append(f"{area['name']} {area['source']}")
    assert wrong == []


# --- the raster -------------------------------------------------------------------


@pytest.fixture(scope="module")
def geometry() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((BOARD / "geometry.json").read_text(encoding="utf-8"))
    return data


def test_raster_holds_every_area_in_map_order(world: WorldMap, geometry: dict[str, Any]) -> None:
    ids = np.asarray(Image.open(BOARD / "areas.png")).astype(np.int64)
    assert ids.shape == (geometry["height"], geometry["width"])
    assert [geometry["ids"][str(i)] for i in range(1, len(world.areas) + 1)] == list(world.areas)
    present = set(np.unique(ids).tolist())
    assert all(i in present for i in range(1, len(world.areas) + 1))


def test_declared_borders_are_the_raster_contacts(world: WorldMap, geometry: dict[str, Any]) -> None:
    contacts = {frozenset(c) for c in geometry["contacts"]}
    assert world.borders == contacts - world.closed
    assert world.closed <= contacts
    # crossing arrows join areas that do not touch on the raster
    assert all(frozenset((a.a, a.b)) not in contacts for a in world.arrows)


def test_declared_coasts_are_the_raster_coasts(world: WorldMap, geometry: dict[str, Any]) -> None:
    declared = {n: sorted(sorted(s) for s in a.coasts.values()) for n, a in world.areas.items() if a.coasts}
    assert declared == geometry["coasts"]


def test_board_picture_draws(world: WorldMap) -> None:
    from render.seven_ages import render_board

    plain = Image.open(io.BytesIO(render_board(size=700)))
    lit = Image.open(io.BytesIO(render_board(size=700, highlight=["Egypt"])))
    assert plain.width == 700 and plain.size == lit.size
    assert np.asarray(plain.convert("RGB")).tolist() != np.asarray(lit.convert("RGB")).tolist()
