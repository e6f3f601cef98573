"""The 5-epoch map and empire cards: data facts, the loader/validator, the raster.

Each fact test cites the rulebook passage (seeds/history-of-the-world-5-
epochs.txt) it checks.
"""

from __future__ import annotations

import copy
import math
from collections import deque
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import yaml

from engine.core import DataError
from engine.history.epochs5.empires import (
    EMPIRE_EFFECTS,
    EMPIRES_PATH,
    MAP_PATH,
    Empire,
    check_data,
    empire_key,
    load_empires,
    load_world,
    parse_empires,
    validate_empires,
)
from engine.history.worldmap import WorldMap, load_map, validate_map
from tests.support import board_rasters

BOARD_DIR = MAP_PATH.parent / "board"

# "Victory Point Table", in its row order.
REGIONS = (
    "Middle East", "Northern Africa", "China", "India", "Southern Europe", "Northern Europe",
    "Southeast Asia", "Far East", "Eurasia", "North America", "South America",
    "Southern Africa", "Australasia",
)  # fmt: skip

# Presence values of Epoch I from the Victory Point Table (the Assyrian example scores them).
EPOCH_I_PRESENCE = {"Middle East": 3, "Northern Africa": 2}

# Every territory the rulebook names, spelled as printed: the Middle East list,
# the three adjacency examples, the Assyrian example, the board clarifications,
# and the start territories on the Epoch I empire card back it pictures.
RULEBOOK_TERRITORIES = (
    "Arabia", "Levant", "Anatolia", "Mesopotamia", "Tigris", "Zagros", "Persian Plateau",
    "Rhineland", "Iberia", "Gaul", "Britannia", "Alamannia", "Scandinavia", "Volga",
    "Tarim Basin", "Turan", "Wei", "Sichuan", "Irrawaddy", "Bengal", "Ganges", "Hindu Kush",
    "Cape", "Horn", "Nubia", "Nile", "Ghats", "Australia", "Indus", "Deccan",
    "Northern Lakes", "Siberia", "Crete", "Yangtze", "Pindus",
)  # fmt: skip
RULEBOOK_BARREN = ("Empty Quarter", "Himalayas")

# Empires the rulebook names (Epoch I order, the example, the clarifications, the quotes).
RULEBOOK_EMPIRES = (
    "Sumerians", "Egyptians", "Minoans", "Hittites", "Assyrians", "Mesoamericans", "Turks",
    "Macedonians", "Romans", "Mongols", "British", "Americans", "Carthaginians", "Germans",
    "French", "Greeks", "Arabs", "Tang Dynasty",
)  # fmt: skip


@pytest.fixture(scope="module")
def world() -> WorldMap:
    return load_world()


@pytest.fixture(scope="module")
def empires() -> dict[int, tuple[Empire, ...]]:
    return dict(load_empires())


@pytest.fixture()
def raw_map() -> dict[str, Any]:
    with MAP_PATH.open(encoding="utf-8") as handle:
        data = yaml.safe_load(handle)
    assert isinstance(data, dict)
    return data


@pytest.fixture()
def raw_empires() -> dict[str, Any]:
    with EMPIRES_PATH.open(encoding="utf-8") as handle:
        data = yaml.safe_load(handle)
    assert isinstance(data, dict)
    return data


def _by_name(empires: dict[int, tuple[Empire, ...]]) -> dict[str, Empire]:
    return {card.name: card for cards in empires.values() for card in cards}


def _fleet_targets(world: WorldMap, water: str) -> set[str]:
    """Territories a fleet in ``water`` lets an empire invade (barren lands hold no armies)."""
    found: set[str] = set()
    for body in world.fleet_reach(water):
        found |= {land for land in world.coast(body) if not world.lands[land].barren}
    return found


# --- The data files are sound --------------------------------------------------------


def test_data_files_validate_cleanly(raw_map: dict[str, Any], world: WorldMap) -> None:
    assert validate_map(raw_map) == []
    assert check_data() == []


def test_13_regions_in_table_order(world: WorldMap) -> None:
    assert world.areas == REGIONS


def test_region_sizes(world: WorldMap) -> None:
    # Supremacy needs three armies in a region; the board has far fewer
    # territories than the classic 94 ("greatly reduced", Design Notes).
    for region in world.areas:
        assert 3 <= len(world.lands_in_area(region)) <= 10, region
    territories = [land for land in world.lands.values() if not land.barren]
    assert 70 <= len(territories) < 94


def test_every_rulebook_territory_exists_as_printed(world: WorldMap) -> None:
    for name in RULEBOOK_TERRITORIES:
        assert name in world.lands, name
        assert not world.lands[name].barren, name
    for name in RULEBOOK_BARREN:
        assert world.lands[name].barren, name


def test_middle_east_is_the_rulebooks_list(world: WorldMap) -> None:
    # "Middle East Territories: Arabia, Levant, Anatolia, Mesopotamia, Tigris, Zagros, Persian Plateau"
    assert set(world.lands_in_area("Middle East")) == {
        "Arabia", "Levant", "Anatolia", "Mesopotamia", "Tigris", "Zagros", "Persian Plateau",
    }  # fmt: skip


# --- The adjacency examples ("Caravan and Fleet Adjacency Examples") --------------------


def test_north_sea_example(world: WorldMap) -> None:
    # "The red player (in Rhineland) can use the fleet to invade Iberia, Gaul,
    # Britannia, Alamannia, Scandinavia, and Volga."
    assert world.waters["North Sea"].kind == "sea"
    assert "Rhineland" in world.coast("North Sea")
    assert _fleet_targets(world, "North Sea") - {"Rhineland"} == {
        "Iberia", "Gaul", "Britannia", "Alamannia", "Scandinavia", "Volga",
    }  # fmt: skip


def test_himalayas_example(world: WorldMap) -> None:
    # "The green player (in Tarim Basin) can use the caravan to invade Turan, Wei,
    # Sichuan, Irrawaddy, Bengal, Ganges, and Hindu Kush."
    assert world.lands["Himalayas"].barren
    assert set(world.neighbours("Himalayas")) == {
        "Tarim Basin", "Turan", "Wei", "Sichuan", "Irrawaddy", "Bengal", "Ganges", "Hindu Kush",
    }  # fmt: skip


def test_indian_ocean_example(world: WorldMap) -> None:
    # "The blue player (in Arabia) can use the fleet to invade, Cape, Horn, Nubia,
    # Nile, Ghats, and Australia; also (via the Arabian Sea) Tigris, Zagros,
    # Persian Plateau, Indus, and Deccan."
    assert world.waters["Indian Ocean"].kind == "ocean"
    assert world.waters["Arabian Sea"].kind == "sea"
    assert world.fleet_reach("Indian Ocean") == {"Indian Ocean", "Arabian Sea"}
    assert set(world.coast("Indian Ocean")) - {"Arabia"} == {
        "Cape", "Horn", "Nubia", "Nile", "Ghats", "Australia",
    }  # fmt: skip
    via_arabian_sea = _fleet_targets(world, "Indian Ocean") - set(world.coast("Indian Ocean"))
    assert via_arabian_sea == {"Tigris", "Zagros", "Persian Plateau", "Indus", "Deccan"}


def test_fleet_in_an_ocean_covers_only_adjacent_seas(world: WorldMap) -> None:
    # "An empire with a fleet in an ocean is also considered to have fleets in all
    # seas adjacent to that ocean": the Black Sea lies beyond the Mediterranean.
    assert world.ocean_reach == "adjacent"
    assert world.fleet_reach("North Atlantic Ocean") == {
        "North Atlantic Ocean", "North Sea", "Mediterranean Sea", "Caribbean Sea",
    }  # fmt: skip
    assert world.fleet_reach("Mediterranean Sea") == {"Mediterranean Sea"}
    # Another ocean is never covered, only linked.
    for name, water in world.waters.items():
        if water.kind == "ocean":
            assert all(world.waters[w].kind == "sea" for w in world.fleet_reach(name) - {name})


def test_oceans_are_linked_by_dotted_borders(world: WorldMap) -> None:
    # "Oceans are adjacent to other oceans with which they share a dotted-line border."
    oceans = {n for n, w in world.waters.items() if w.kind == "ocean" and w.fleets}
    assert len(oceans) >= 5
    seen = {"Indian Ocean"}
    queue = deque(seen)
    while queue:
        for nxt in world.waters[queue.popleft()].links:
            if nxt in oceans and nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    assert seen == oceans, "every ocean a fleet may sail is linked to the others"


def test_no_fleet_between_northern_lakes_and_siberia(world: WorldMap) -> None:
    # "A fleet cannot exist in the ocean section between the Northern Lakes and Siberia."
    arctic = world.waters["Arctic Ocean"]
    assert not arctic.fleets
    assert {"Northern Lakes", "Siberia"} <= set(world.coast("Arctic Ocean"))
    assert all(w.fleets for n, w in world.waters.items() if n != "Arctic Ocean")
    assert "Siberia" not in world.neighbours("Northern Lakes")


def test_straits_are_edge_data(world: WorldMap) -> None:
    # "Any territories with straits connecting them are adjacent."
    for a, b in (
        ("Macedonia", "Anatolia"), ("Iberia", "Mauretania"), ("Britannia", "Gaul"),
        ("Latium", "Sicily"), ("Arabia", "Horn"), ("Malaya", "Sumatra"), ("Korea", "Kyushu"),
    ):  # fmt: skip
        assert world.border(a, b) == "strait"
        assert b in world.neighbours(a) and a in world.neighbours(b)
    assert all(kind in (None, "strait") for _, _, kind in world.edges())


# --- The Assyrian example turn ("Example of a Turn") --------------------------------------


def test_assyrian_example_map_facts(world: WorldMap) -> None:
    lands = world.lands
    # Start Mesopotamia, invade Zagros, Levant, then Nile.
    assert "Zagros" in world.neighbours("Mesopotamia")
    assert "Levant" in world.neighbours("Mesopotamia")
    assert "Nile" in world.neighbours("Levant")
    assert "Mesopotamia" in world.neighbours("Empty Quarter")  # the caravan
    # "2 points for having presence in Northern Africa, 6 points for having dominance in the Middle East"
    assert lands["Nile"].area == "Northern Africa"
    assert {lands[n].area for n in ("Mesopotamia", "Zagros", "Levant")} == {"Middle East"}
    # "Nicole has two resource icons, so she builds one monument in Mesopotamia"
    held = ("Mesopotamia", "Zagros", "Levant", "Nile")
    assert [n for n in held if lands[n].resource] == ["Mesopotamia", "Nile"]
    # A tie at Nile plus the catapult's +1 wins: no terrain +1 for the defender there.
    assert not lands["Nile"].rough and not lands["Levant"].rough


def test_assyrian_example_turn_comes_out_as_printed(
    world: WorldMap, empires: dict[int, tuple[Empire, ...]]
) -> None:
    card = _by_name(empires)["Assyrians"]
    assert (card.epoch, card.armies, card.starts, card.structure) == (1, 6, ("Mesopotamia",), "capitol")
    assert card.caravans == ("Empty Quarter",)
    assert card.effect == "fortify_per_resource"
    # Armies: one in Mesopotamia, one in Zagros, two at Levant (a tie removes the
    # first), two at Nile (the invader and the +1 siege army): all six.
    assert card.armies == 1 + 1 + 2 + 2
    held = ("Mesopotamia", "Zagros", "Levant", "Nile")
    resources = sum(1 for n in held if world.lands[n].resource)
    assert resources // 2 == 1  # one monument
    assert resources == 2  # two forts: Mesopotamia and Zagros
    by_region: dict[str, int] = {}
    for name in held:
        area = world.lands[name].area
        assert area is not None
        by_region[area] = by_region.get(area, 0) + 1
    # Presence with one army; dominance with two or more (the example's opponent
    # holds fewer there; supremacy is out, as an opponent is left in the region).
    region_points = sum(
        EPOCH_I_PRESENCE[region] * (1 if count == 1 else 2) for region, count in by_region.items()
    )
    # "2 points for having presence in Northern Africa, 6 points for having dominance in the Middle East"
    assert by_region == {"Middle East": 3, "Northern Africa": 1}
    assert region_points == 2 + 6


# --- Symmetry and connectivity -----------------------------------------------------------


def test_borders_and_links_are_symmetric(world: WorldMap) -> None:
    for name in world.lands:
        for other in world.neighbours(name):
            assert name in world.neighbours(other), (name, other)
            assert world.border(name, other) == world.border(other, name)
    for name, water in world.waters.items():
        for other in water.links:
            assert name in world.waters[other].links, (name, other)
        for land in world.coast(name):
            assert name in world.lands[land].waters


def test_everything_is_connected(world: WorldMap) -> None:
    graph: dict[str, set[str]] = {f"L:{n}": set() for n in world.lands}
    graph.update({f"W:{n}": set() for n in world.waters})
    for a, b, _ in world.edges():
        graph[f"L:{a}"].add(f"L:{b}")
        graph[f"L:{b}"].add(f"L:{a}")
    for name, water in world.waters.items():
        for other in water.links:
            graph[f"W:{name}"].add(f"W:{other}")
        for land in world.coast(name):
            graph[f"W:{name}"].add(f"L:{land}")
            graph[f"L:{land}"].add(f"W:{name}")
    seen = {"L:Mesopotamia"}
    queue = deque(seen)
    while queue:
        for nxt in graph[queue.popleft()]:
            if nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    assert seen == set(graph)


def test_old_world_territories_connect_overland(world: WorldMap) -> None:
    # Borders and straits alone join Europe, Asia, Africa and (island by island)
    # Australia; the Americas need fleets. Barren lands are not walked through.
    land = {n for n, t in world.lands.items() if not t.barren}
    seen = {"Mesopotamia"}
    queue = deque(seen)
    while queue:
        for nxt in world.neighbours(queue.popleft()):
            if nxt in land and nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    for name in ("Britannia", "Cape", "Honshu", "Java", "Siberia", "Mauretania", "Ghats", "Australia"):
        assert name in seen, name
    americas = {n for n, t in world.lands.items() if t.area in ("North America", "South America")}
    assert not americas & seen


def test_every_territory_is_adjacent_to_another(world: WorldMap) -> None:
    # "Territory: Areas of the board ... adjacent to one or more other territories."
    for name, land in world.lands.items():
        others = [n for n in world.neighbours(name) if not world.lands[n].barren]
        if land.barren:
            assert len(others) >= 3, f"a caravan in {name} should join several territories"
        else:
            assert others, name


def test_barren_lands_and_terrain(world: WorldMap) -> None:
    barren = {n for n, land in world.lands.items() if land.barren}
    assert {"Empty Quarter", "Himalayas", "Sahara", "Gobi"} <= barren
    for name in barren:
        land = world.lands[name]
        assert not land.resource and land.terrain == "plain", name
    # Mountains and forests are both "terrain"; plenty of both, and plenty of plain.
    rough = [land for land in world.lands.values() if land.rough]
    assert {land.terrain for land in rough} == {"forest", "mountain"}
    assert 20 <= len(rough) <= 45


def test_resources_spread_over_every_region(world: WorldMap) -> None:
    resources = [land for land in world.lands.values() if land.resource]
    assert 20 <= len(resources) <= 30
    assert {land.area for land in resources} == set(REGIONS)


def test_classic_map_keeps_its_fleet_reach() -> None:
    classic = load_map()
    assert classic.ocean_reach == "through_seas"
    assert "Black Sea" in classic.fleet_reach("Atlantic Ocean")
    assert all(water.fleets for water in classic.waters.values())


# --- The map validator's 5-epoch keys -------------------------------------------------------


def test_validator_checks_the_optional_keys(raw_map: dict[str, Any]) -> None:
    bad = copy.deepcopy(raw_map)
    bad["ocean_reach"] = "everywhere"
    bad["waters"]["Arctic Ocean"]["fleets"] = "no"
    problems = validate_map(bad)
    assert any("ocean_reach" in p and "everywhere" in p for p in problems)
    assert any("Arctic Ocean" in p and "fleets must be true or false" in p for p in problems)


# --- The empire cards ----------------------------------------------------------------------


def test_eight_empires_in_each_of_five_epochs(empires: dict[int, tuple[Empire, ...]]) -> None:
    # "40 Empire Cards (5 epochs, 8 of each)"
    assert sorted(empires) == [1, 2, 3, 4, 5]
    for epoch, cards in empires.items():
        assert len(cards) == 8, epoch
        assert [card.order for card in cards] == list(range(1, 9))
        assert all(card.epoch == epoch for card in cards)
    keys = [card.key for cards in empires.values() for card in cards]
    assert len(set(keys)) == 40


def test_epoch_i_call_order(empires: dict[int, tuple[Empire, ...]]) -> None:
    # "Sumerians are called first, followed by Egyptians, Minoans, and so on";
    # the example calls the Minoans, the Hittites, then the Assyrians.
    names = [card.name for card in empires[1]]
    assert names[:5] == ["Sumerians", "Egyptians", "Minoans", "Hittites", "Assyrians"]


def test_every_empire_the_rulebook_names_is_a_card(empires: dict[int, tuple[Empire, ...]]) -> None:
    named = _by_name(empires)
    for name in RULEBOOK_EMPIRES:
        assert name in named, name


def test_quoted_leaders_lead_their_empires(empires: dict[int, tuple[Empire, ...]]) -> None:
    named = _by_name(empires)
    quotes = {
        "Carthaginians": "Hannibal", "Germans": "Otto von Bismarck", "British": "Queen Victoria",
        "Americans": "Lincoln", "Mongols": "Genghis Khan", "French": "Napoleon",
        "Romans": "Julius Caesar", "Greeks": "Pericles", "Arabs": "Umar",
        "Tang Dynasty": "Emperor Taizong", "Macedonians": 'Alexander II ("The Great")',
    }  # fmt: skip
    for empire, leader in quotes.items():
        assert named[empire].leader == leader, empire
    # The Egyptian card pictured in the rulebook: "Ramesses II (1279-1213 BCE)".
    assert (named["Egyptians"].leader, named["Egyptians"].reign) == ("Ramesses II", "1279-1213 BCE")


def test_mesoamericans_start_in_two_territories(
    world: WorldMap, empires: dict[int, tuple[Empire, ...]]
) -> None:
    # "Place one capitol and one army in each starting territory, and then expand
    # your empire with the remaining two armies."
    card = _by_name(empires)["Mesoamericans"]
    assert len(card.starts) == 2 and card.structure == "capitol" and card.armies == 4
    assert {world.lands[n].area for n in card.starts} == {"North America", "South America"}


def test_turks_invade_after_battle(empires: dict[int, tuple[Empire, ...]]) -> None:
    card = _by_name(empires)["Turks"]
    assert card.effect == "invade_after_battle"


def test_start_territories_and_aids_exist(
    world: WorldMap, empires: dict[int, tuple[Empire, ...]]
) -> None:
    for cards in empires.values():
        for card in cards:
            assert 1 <= len(card.starts) <= 2, card.name
            for land in card.starts:
                assert land in world.lands and not world.lands[land].barren, card.name
            for water in card.fleets:
                assert world.waters[water].fleets, card.name
            for land in card.caravans:
                assert world.lands[land].barren, card.name
            assert card.effect is None or card.effect in EMPIRE_EFFECTS
            assert card.design in ("rulebook", "ours")
            assert card.design == "rulebook" or not card.ours


def test_fleets_and_caravans_serve_their_start(
    world: WorldMap, empires: dict[int, tuple[Empire, ...]]
) -> None:
    # Our design rule: every aid on a card is of use from its start: it joins
    # territories within two steps of a start territory, or chains (linked
    # waters) to another of the card's aids that does.
    for cards in empires.values():
        for card in cards:
            near = set(card.starts)
            for _ in range(2):
                near |= {n for land in near for n in world.neighbours(land) if not world.lands[n].barren}
            joins = {w: {n for x in world.fleet_reach(w) for n in world.coast(x)} for w in card.fleets}
            joins |= {b: set(world.neighbours(b)) for b in card.caravans}
            useful = {aid for aid, lands in joins.items() if lands & near}
            grew = True
            while grew:
                grew = False
                for water in set(card.fleets) - useful:
                    if world.waters[water].links & useful:
                        useful.add(water)
                        grew = True
            assert useful == set(joins), (card.name, set(joins) - useful)


def test_armies_grow_over_the_epochs(empires: dict[int, tuple[Empire, ...]]) -> None:
    means = [sum(c.armies for c in empires[e]) / 8 for e in range(1, 6)]
    assert means == sorted(means)
    assert all(3 <= c.armies <= 9 for cards in empires.values() for c in cards)
    # The Epoch I numbers are the rulebook's card back.
    assert [c.armies for c in empires[1]] == [3, 4, 3, 4, 6, 4, 5, 6]


def test_marauders_have_no_capitol(empires: dict[int, tuple[Empire, ...]]) -> None:
    marauders = {c.name for cards in empires.values() for c in cards if c.marauder}
    assert {"Mongols", "Vikings", "Huns"} <= marauders
    assert "Assyrians" not in marauders


def test_empire_key() -> None:
    assert empire_key("Zhou Dynasty") == "zhou_dynasty"
    assert empire_key("Alexander II (\"The Great\")") == "alexander_ii_the_great"


# --- The empire validator --------------------------------------------------------------------


def _card(raw: dict[str, Any], epoch: int, name: str) -> dict[str, Any]:
    for item in raw["epochs"][epoch]["empires"]:
        if item["name"] == name:
            assert isinstance(item, dict)
            return item
    raise AssertionError(name)


def test_validator_reports_every_injected_error(world: WorldMap, raw_empires: dict[str, Any]) -> None:
    bad = copy.deepcopy(raw_empires)
    _card(bad, 1, "Sumerians")["start"] = ["Atlantis"]
    _card(bad, 1, "Egyptians")["start"] = ["Sahara"]
    _card(bad, 1, "Minoans")["fleets"] = ["Arctic Ocean"]
    _card(bad, 1, "Hittites")["caravans"] = ["Levant"]
    _card(bad, 1, "Assyrians")["effect"]["id"] = "time_travel"
    _card(bad, 2, "Romans")["order"] = 1
    _card(bad, 3, "Guptas")["structure"] = "city"
    _card(bad, 3, "Huns")["armies"] = 0
    _card(bad, 3, "Franks")["colour"] = "blue"
    _card(bad, 4, "Mongols")["design"] = "ours"
    _card(bad, 4, "Mongols")["ours"] = ["armies"]
    _card(bad, 5, "Dutch")["name"] = "British"
    _card(bad, 5, "Qing Dynasty")["leader"] = None
    bad["epochs"][5]["empires"].pop()
    problems = validate_empires(bad, world)
    expected = [
        "unknown start territory 'Atlantis'",
        "start territory Sahara is a barren land",
        "no fleet may be placed in Arctic Ocean",
        "caravan land Levant is not a barren land",
        "effect id 'time_travel'",
        "epoch 2: call orders must be 1..8",
        "structure must be capitol or null",
        "armies must be 1..25",
        "unknown key 'colour'",
        "'ours' lists fields of a rulebook card",
        "repeats the empire of epoch 5",
        "Qing Dynasty: a reign needs a leader",
        "epoch 5: has 7 empire cards",
    ]
    for text in expected:
        assert any(text in p for p in problems), (text, problems)
    with pytest.raises(DataError) as caught:
        parse_empires(bad, world)
    assert caught.value.problems == problems


def test_validator_rejects_wrong_shapes(world: WorldMap) -> None:
    assert validate_empires([], world) == ["the empire data must be a mapping, got list"]
    assert any("epochs: must be a mapping" in p for p in validate_empires({"epochs": 3}, world))
    problems = validate_empires({"epochs": {1: {"empires": []}, 9: {}}, "extra": 1}, world)
    assert any("unknown top-level key 'extra'" in p for p in problems)
    assert any("9 is not an epoch" in p for p in problems)
    assert any("epoch 2: missing" in p for p in problems)
    assert any("epoch 1: has 0 empire cards" in p for p in problems)


def test_load_empires_reports_the_file_name(tmp_path: Path, raw_empires: dict[str, Any]) -> None:
    bad = copy.deepcopy(raw_empires)
    _card(bad, 1, "Greeks")["armies"] = "six"
    path = tmp_path / "empires.yaml"
    path.write_text(yaml.safe_dump(bad), encoding="utf-8")
    with pytest.raises(DataError) as caught:
        load_empires(path)
    assert caught.value.problems == ["empires.yaml: epoch 1, Greeks: armies must be 1..25, got 'six'"]


# --- The board raster -------------------------------------------------------------------------

#: Rules-adjacent lands whose rasters do not touch but lie across narrow water
#: (straits) may be at most this many pixels apart.
NARROW = 12




def _gap(ids: np.ndarray, a: int, b: int) -> float:
    """Shortest distance in pixels between the two lands' pixels."""
    ay, ax = np.nonzero(ids == a)
    by, bx = np.nonzero(ids == b)
    d2 = (ax[:, None] - bx[None, :]) ** 2 + (ay[:, None] - by[None, :]) ** 2
    return math.sqrt(float(d2.min()))


def test_raster_agrees_with_rules_adjacency(world: WorldMap) -> None:
    geo = board_rasters.geometry(BOARD_DIR)
    ids = board_rasters.land_ids(BOARD_DIR)
    id_of = {n: int(i) for i, n in geo["ids"].items()}
    assert list(id_of) == list(world.lands), "ids follow the map's order"
    name_of = {i: n for n, i in id_of.items()}
    present = set(np.unique(ids).tolist())
    assert all(id_of[n] in present for n in world.lands), "every land has pixels"
    touching = {frozenset((name_of[a], name_of[b])) for a, b in board_rasters.touching(ids, geo["off_board"])}
    rules = {frozenset((a, b)): kind for a, b, kind in world.edges()}
    problems = [
        f"touch in the raster, not adjacent in the rules: {' / '.join(sorted(p))}"
        for p in sorted(touching - set(rules), key=sorted)
    ]
    for pair in sorted(set(rules) - touching, key=sorted):
        a, b = sorted(pair)
        gap = _gap(ids, id_of[a], id_of[b])
        if rules[pair] != "strait" or gap > NARROW:
            kind = rules[pair] or "border"
            problems.append(f"adjacent ({kind}) in the rules, {gap:.0f} px apart: {a} / {b}")
    assert not problems, "\n".join(problems)


def test_every_land_has_label_and_slots(world: WorldMap) -> None:
    geo = board_rasters.geometry(BOARD_DIR)
    ids = board_rasters.land_ids(BOARD_DIR)
    h, w = ids.shape
    assert (geo["width"], geo["height"]) == (w, h)
    for name, land in world.lands.items():
        g = geo["lands"][name]
        x, y = g["label"]
        assert 0 <= x < w and 0 <= y < h, name
        assert " ".join(g["label_lines"]) == name
        if land.barren:
            assert g["slots"] == [], name
            continue
        assert len(g["slots"]) >= 6, name
        for sx, sy in g["slots"]:
            assert 0 <= sx < w and 0 <= sy < h, name
    for water in world.waters:
        assert len(geo["waters"][water]["fleet"]) == 2, water
    assert {tuple(s["lands"]) for s in geo["straits"]} == {
        (a, b) for a, b, kind in world.edges() if kind == "strait"
    }
    assert geo["great_wall"] == []


def test_anchors_fall_in_their_own_land(world: WorldMap) -> None:
    # The anchor of a land is drawn inside it (or its land is a neighbour's
    # island nearby): the raster was built from this map's anchors.
    geo = board_rasters.geometry(BOARD_DIR)
    ids = board_rasters.land_ids(BOARD_DIR)
    proj = geo["projection"]
    lon_t = np.linspace(proj["lon_knots"][0], proj["lon_knots"][-1], 20001)
    lat_t = np.linspace(proj["lat_knots"][0], proj["lat_knots"][-1], 20001)

    def acc(t: np.ndarray, knots: list[float], weights: list[float]) -> np.ndarray:
        wt = np.interp(t, knots, weights)
        return np.concatenate([[0.0], np.cumsum((wt[1:] + wt[:-1]) / 2 * np.diff(t))])

    lon_acc = acc(lon_t, proj["lon_knots"], proj["lon_weights"])
    lat_acc = acc(lat_t, proj["lat_knots"], proj["lat_weights"])
    scale = proj["scale"]
    id_of = {n: int(i) for i, n in geo["ids"].items()}
    wrong = []
    for name, land in world.lands.items():
        lon, lat = land.anchor
        x = int(np.interp(lon, lon_t, lon_acc) * scale)
        y = int((lat_acc[-1] - np.interp(lat, lat_t, lat_acc)) * scale)
        near = ids[max(0, y - 3) : y + 4, max(0, x - 3) : x + 4]
        if id_of[name] not in near:
            wrong.append(name)
    assert not wrong, wrong


def _raster_tool() -> Any:
    """tools/build_map_raster.py as a module (tools/ is no package)."""
    import importlib.util
    import sys

    name = "annals_build_map_raster"
    if name in sys.modules:
        return sys.modules[name]
    path = Path(__file__).resolve().parents[4] / "tools" / "build_map_raster.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    return module


def test_raster_tool_profiles_match_their_maps(world: WorldMap) -> None:
    tool = _raster_tool()
    classic = load_map()
    for name, wmap in (("classic", classic), ("epochs5", world)):
        profile = tool.PROFILES[name]
        unknown = [land for land in profile.extra_seeds if land not in wmap.lands]
        unknown += [land for quad in profile.corners for land in quad if land not in wmap.lands]
        assert not unknown, (name, unknown)
    # The committed board was drawn with the epochs5 profile's projection.
    assert board_rasters.geometry(BOARD_DIR)["projection"] == tool.PROFILES["epochs5"].projection.as_json()
    assert tool.parse_args(["--map", str(MAP_PATH)]).map == MAP_PATH
