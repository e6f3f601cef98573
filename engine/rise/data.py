"""Rise of Empires' data: the map, the tiles, the action display and the trade track.

Reads ``data/rise/{map,progress,territory,cities,empires,rules}.yaml`` with
``yaml.safe_load`` and validates them strictly; every problem found is
collected so ``check_data()`` (and ``python -m engine check-data``) lists
them all at once.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from engine.core import DataError

DATA_DIR = Path(__file__).resolve().parents[2] / "data" / "rise"
ROWS: tuple[str, ...] = ("progress", "territory", "city", "empire", "trade")
PARTS: tuple[str, ...] = ("old", "new_world", "far_east")
YIELDS: tuple[str, ...] = ("food", "gold", "resources", "cubes")
FREE_ACTIONS: tuple[str, ...] = ("remove_cube", "place_cube")
SPECIALS: tuple[str, ...] = ("printing", "navigation", "iron_axe")
PROGRESS_TILES = 48
TERRITORY_TILES = 40
CITY_TILES = 36
WONDERS = 6
EMPIRE_TILES = 8
CITY_ROWS = {(1, "A"): 5, (1, "B"): 5, (2, "A"): 5, (2, "B"): 5, (3, "A"): 8, (3, "B"): 8}


@dataclass(frozen=True)
class Region:
    id: str
    name: str
    era: int
    sea: bool
    part: str
    standard: tuple[int, int]
    yields: Mapping[str, int]
    anchor: tuple[float, float]

    @property
    def overseas(self) -> bool:
        return self.part != "old"


@dataclass(frozen=True)
class Progress:
    id: str
    name: str
    era: int
    food: int
    gold: int
    resources: int
    cubes: int
    vp: int
    free: str | None
    special: str | None
    stays: bool


@dataclass(frozen=True)
class Territory:
    id: str
    name: str
    food: int
    gold: int
    resources: int
    cubes: int
    vp: int
    forest: bool
    town: bool
    stays: bool


@dataclass(frozen=True)
class Wonder:
    gold: int
    resources: int
    cubes: int
    vp: int


@dataclass(frozen=True)
class City:
    id: str
    name: str
    era: int
    row: str
    cost: int
    vp: int
    food: int
    gold: int
    resources: int
    cubes: int
    upkeep: int
    wonder: Wonder | None
    stays: bool


@dataclass(frozen=True)
class EmpireSide:
    regions: int
    water: bool
    battles: tuple[tuple[int, int], ...]  # (attacker cubes lost, defender cubes lost) per row


@dataclass(frozen=True)
class Empire:
    id: str
    era1: EmpireSide
    era2: EmpireSide

    def side(self, era: int) -> EmpireSide:
        return self.era1 if era == 1 else self.era2


@dataclass(frozen=True)
class TradeBox:
    id: str
    resources: int
    gold: int
    vp: int
    eras: tuple[int, ...]


@dataclass(frozen=True)
class RiseData:
    """Everything the rules read from the data files."""

    regions: Mapping[str, Region]
    adjacent: Mapping[str, frozenset[str]]
    arrows: frozenset[frozenset[str]]
    era_colours: Mapping[int, str]
    progress: Mapping[str, Progress]
    territory: Mapping[str, Territory]
    cities: Mapping[str, City]
    empires: Mapping[str, Empire]
    trade: Mapping[str, TradeBox]
    circles: Mapping[int, int]
    empire_max: int
    pool: int
    stock: int
    start_gold: int
    start_resources: int
    start_food: int
    start_vp: int
    food_max: int
    actions_per_turn: int
    turns: int
    progress_boxes: int
    territory_boxes: int
    city_boxes: int
    city_early_boxes: int

    def row_circles(self, row: str, players: int) -> int:
        """How many circles the action display has in ``row`` for ``players``."""
        n = self.circles[players]
        return min(n, self.empire_max) if row == "empire" else n


def _read(name: str, problems: list[str]) -> Any:
    try:
        return yaml.safe_load((DATA_DIR / name).read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        problems.append(f"{name}: cannot be read: {exc}")
        return None


def _int(raw: Mapping[str, Any], key: str, where: str, problems: list[str], default: int | None = 0,
         low: int | None = None, high: int | None = None) -> int:
    value = raw.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool):
        problems.append(f"{where}: {key} must be a whole number, not {value!r}")
        return 0
    if (low is not None and value < low) or (high is not None and value > high):
        problems.append(f"{where}: {key} = {value} is outside {low}..{high}")
    return value


def _bool(raw: Mapping[str, Any], key: str, where: str, problems: list[str]) -> bool:
    value = raw.get(key, False)
    if not isinstance(value, bool):
        problems.append(f"{where}: {key} must be true or false, not {value!r}")
        return False
    return value


def _keys(raw: Any, allowed: set[str], where: str, problems: list[str]) -> bool:
    if not isinstance(raw, dict):
        problems.append(f"{where}: expected a mapping, not {raw!r}")
        return False
    extra = sorted(set(raw) - allowed)
    if extra:
        problems.append(f"{where}: unknown keys {', '.join(extra)}")
    return True


_MARKS = {"source", "design"}


def _named(entries: Any, file: str, item: str, allowed: set[str],
           problems: list[str]) -> Iterator[tuple[dict[str, Any], str, str]]:
    """Each well-formed entry of a tile list with a new, non-empty name: (entry, name, where)."""
    seen: set[str] = set()
    for i, entry in enumerate(entries or []):
        where = f"{file}: {item} #{i + 1}"
        if not _keys(entry, allowed, where, problems):
            continue
        name = entry.get("name")
        if not isinstance(name, str) or not name or name in seen:
            problems.append(f"{where}: name missing or repeated: {name!r}")
            continue
        seen.add(name)
        yield entry, name, f"{file}: {name}"


def _load_map(problems: list[str]) -> tuple[dict[str, Region], dict[str, frozenset[str]],
                                            frozenset[frozenset[str]], dict[int, str]]:
    raw = _read("map.yaml", problems)
    regions: dict[str, Region] = {}
    links: dict[str, set[str]] = {}
    arrows: set[frozenset[str]] = set()
    colours: dict[int, str] = {}
    if not _keys(raw, {"eras", "regions", "adjacency"}, "map.yaml", problems):
        return regions, {}, frozenset(), colours
    eras = raw.get("eras")
    if not isinstance(eras, dict) or sorted(eras) != [1, 2, 3]:
        problems.append("map.yaml: eras must list eras 1, 2 and 3")
    else:
        for era, spec in eras.items():
            if not isinstance(spec, dict) or not isinstance(spec.get("colour"), str):
                problems.append(f"map.yaml: era {era} needs a colour")
            else:
                colours[int(era)] = spec["colour"]
    allowed = {"id", "name", "era", "sea", "part", "standard", "yields", "anchor", *_MARKS}
    for i, entry in enumerate(raw.get("regions") or []):
        where = f"map.yaml: region #{i + 1}"
        if not _keys(entry, allowed, where, problems):
            continue
        rid = entry.get("id")
        if not isinstance(rid, str) or not rid:
            problems.append(f"{where}: missing id")
            continue
        where = f"map.yaml: region {rid}"
        if rid in regions:
            problems.append(f"{where}: listed twice")
        name = entry.get("name")
        if not isinstance(name, str) or not name:
            problems.append(f"{where}: missing name")
            name = rid
        era = _int(entry, "era", where, problems, None, 1, 3)
        part = entry.get("part")
        if part not in PARTS:
            problems.append(f"{where}: part must be one of {', '.join(PARTS)}, not {part!r}")
            part = "old"
        standard = entry.get("standard")
        if (not isinstance(standard, list) or len(standard) != 2
                or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in standard)
                or standard[0] < standard[1]):
            problems.append(f"{where}: standard must be [first, second] with first >= second >= 0")
            standard = [0, 0]
        yields = entry.get("yields")
        if not isinstance(yields, dict) or set(yields) - set(YIELDS) or not all(
                isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in yields.values()):
            problems.append(f"{where}: yields must map {', '.join(YIELDS)} to positive numbers")
            yields = {}
        anchor = entry.get("anchor")
        if (not isinstance(anchor, list) or len(anchor) != 2
                or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in anchor)
                or not (-180 <= anchor[0] <= 180 and -90 <= anchor[1] <= 90)):
            problems.append(f"{where}: anchor must be [longitude, latitude]")
            anchor = [0.0, 0.0]
        sea = _bool(entry, "sea", where, problems)
        if standard[0] == 0:
            problems.append(f"{where}: an open region needs a victory points standard")
        regions[rid] = Region(rid, name, era, sea, part, (standard[0], standard[1]),
                              dict(yields), (float(anchor[0]), float(anchor[1])))
        links[rid] = set()
    seas = [r.id for r in regions.values() if r.sea]
    if seas != ["mediterranean"]:
        problems.append(f"map.yaml: the Mediterranean must be the only sea region, not {seas}")
    for part, count in (("new_world", 2), ("far_east", 2)):
        found = [r.id for r in regions.values() if r.part == part]
        if len(found) != count:
            problems.append(f"map.yaml: the {part} must have {count} regions, not {len(found)}")
        if any(regions[r].era != 2 for r in found):
            problems.append(f"map.yaml: the {part} opens in era II")
    if not any(r.era == 1 for r in regions.values() if r.part == "old" and not r.sea):
        problems.append("map.yaml: era I needs land regions")
    for i, entry in enumerate(raw.get("adjacency") or []):
        arrow = False
        pair = entry
        if isinstance(entry, dict):
            _keys(entry, {"pair", "arrow"}, f"map.yaml: adjacency #{i + 1}", problems)
            pair = entry.get("pair")
            arrow = entry.get("arrow") is True
        if not isinstance(pair, list) or len(pair) != 2 or not all(isinstance(r, str) for r in pair):
            problems.append(f"map.yaml: adjacency #{i + 1}: {entry!r} is not a pair of region ids")
            continue
        a, b = pair
        bad = [r for r in (a, b) if r not in regions]
        if bad:
            problems.append(f"map.yaml: adjacency #{i + 1}: unknown region(s) {', '.join(bad)}")
            continue
        if a == b:
            problems.append(f"map.yaml: adjacency: {a} is linked to itself")
            continue
        if b in links[a]:
            problems.append(f"map.yaml: adjacency: {a}-{b} is listed twice")
        if regions[a].part != regions[b].part:
            problems.append(f"map.yaml: adjacency: {a}-{b} joins two parts of the world")
        links[a].add(b)
        links[b].add(a)
        if arrow:
            arrows.add(frozenset((a, b)))
    if "nw_africa" in links and "sw_europe" not in links["nw_africa"]:
        problems.append("map.yaml: NW Africa must touch SW Europe (rulebook example)")
    if "ne_africa" in links and "sw_europe" in links["ne_africa"]:
        problems.append("map.yaml: NE Africa must not touch SW Europe (rulebook example)")
    # Each part of the world is connected.
    for part in PARTS:
        members = [r for r in regions.values() if r.part == part]
        if not members:
            continue
        seen = {members[0].id}
        todo = [members[0].id]
        while todo:
            for nxt in links[todo.pop()]:
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        missing = sorted(r.id for r in members if r.id not in seen)
        if missing:
            problems.append(f"map.yaml: {part} is not connected; cut off: {', '.join(missing)}")
    return regions, {r: frozenset(s) for r, s in links.items()}, frozenset(arrows), colours


def _load_progress(problems: list[str]) -> dict[str, Progress]:
    raw = _read("progress.yaml", problems)
    out: dict[str, Progress] = {}
    if not _keys(raw, {"kinds", "copies"}, "progress.yaml", problems):
        return out
    copies = _int(raw, "copies", "progress.yaml", problems, None, 1, 6)
    allowed = {"name", "era", "stays", "free", "special", *YIELDS, "vp", *_MARKS}
    n = 0
    for entry, name, where in _named(raw.get("kinds"), "progress.yaml", "kind", allowed, problems):
        free = entry.get("free")
        if free is not None and free not in FREE_ACTIONS:
            problems.append(f"{where}: free must be one of {', '.join(FREE_ACTIONS)}")
            free = None
        special = entry.get("special")
        if special is not None and special not in SPECIALS:
            problems.append(f"{where}: special must be one of {', '.join(SPECIALS)}")
            special = None
        values = {k: _int(entry, k, where, problems, 0, 0, 5) for k in (*YIELDS, "vp")}
        era = _int(entry, "era", where, problems, None, 1, 3)
        stays = _bool(entry, "stays", where, problems)
        if not (any(values.values()) or free or special):
            problems.append(f"{where}: the tile does nothing")
        for _ in range(copies):
            n += 1
            tid = f"p{n:02d}"
            out[tid] = Progress(tid, name, era, values["food"], values["gold"], values["resources"],
                                values["cubes"], values["vp"], free, special, stays)
    for name in ("Agriculture", "Iron Axe", "Weapons", "Printing", "Navigation"):
        if not any(t.name == name for t in out.values()):
            problems.append(f"progress.yaml: the rulebook's {name} tile is missing")
    if len(out) != PROGRESS_TILES:
        problems.append(f"progress.yaml: {len(out)} tiles, the game has {PROGRESS_TILES}")
    for era in (1, 2, 3):
        count = sum(1 for t in out.values() if t.era == era)
        if count != PROGRESS_TILES // 3:
            problems.append(f"progress.yaml: era {era} has {count} tiles, not {PROGRESS_TILES // 3}")
    return out


def _load_territory(problems: list[str]) -> dict[str, Territory]:
    raw = _read("territory.yaml", problems)
    out: dict[str, Territory] = {}
    if not _keys(raw, {"kinds"}, "territory.yaml", problems):
        return out
    allowed = {"name", "count", "forest", "town", "stays", *YIELDS, "vp", *_MARKS}
    n = 0
    towns = 0
    for entry, name, where in _named(raw.get("kinds"), "territory.yaml", "kind", allowed, problems):
        count = _int(entry, "count", where, problems, None, 1, 20)
        values = {k: _int(entry, k, where, problems, 0, -5, 5) for k in (*YIELDS, "vp")}
        town = _bool(entry, "town", where, problems)
        if town:
            towns += count
            gains = [k for k in YIELDS if values[k]]
            if values["vp"] != 1 or len(gains) != 1 or values[gains[0]] != 1:
                problems.append(f"{where}: a town earns 1 VP and 1 gold, resource, food or cube")
        for _ in range(count):
            n += 1
            tid = f"t{n:02d}"
            out[tid] = Territory(tid, name, values["food"], values["gold"], values["resources"],
                                 values["cubes"], values["vp"], _bool(entry, "forest", where, problems),
                                 town, _bool(entry, "stays", where, problems))
    if len(out) != TERRITORY_TILES:
        problems.append(f"territory.yaml: {len(out)} tiles, the game has {TERRITORY_TILES}")
    if towns != 6:
        problems.append(f"territory.yaml: {towns} towns, the rulebook has 6")
    return out


def _load_cities(problems: list[str]) -> dict[str, City]:
    raw = _read("cities.yaml", problems)
    out: dict[str, City] = {}
    if not _keys(raw, {"tiles", "design"}, "cities.yaml", problems):
        return out
    allowed = {"name", "era", "row", "cost", "vp", "upkeep", "wonder", "stays", *YIELDS, *_MARKS}
    rows: dict[tuple[int, str], int] = {}
    for entry, name, where in _named(raw.get("tiles"), "cities.yaml", "tile", allowed, problems):
        era = _int(entry, "era", where, problems, None, 1, 3)
        row = entry.get("row")
        if row not in ("A", "B"):
            problems.append(f"{where}: row must be A or B")
            row = "A"
        rows[(era, row)] = rows.get((era, row), 0) + 1
        wonder: Wonder | None = None
        if "wonder" in entry:
            spec = entry["wonder"]
            if _keys(spec, {"gold", "resources", "cubes", "vp"}, f"{where}: wonder", problems):
                wonder = Wonder(*(_int(spec, k, f"{where}: wonder", problems, 0, 0, 12)
                                  for k in ("gold", "resources", "cubes", "vp")))
                if row != "B":
                    problems.append(f"{where}: wonders lie in the B rows (only available in B turns)")
                if wonder.vp <= 0:
                    problems.append(f"{where}: a wonder scores victory points")
            if any(k in entry for k in ("cost", "vp", "upkeep", *YIELDS)):
                problems.append(f"{where}: a wonder has only its wonder price and points")
        tid = f"c{len(out) + 1:02d}"
        out[tid] = City(
            tid, name, era, row,
            _int(entry, "cost", where, problems, 0, 0, 9), _int(entry, "vp", where, problems, 0, 0, 6),
            _int(entry, "food", where, problems, 0, -3, 3), _int(entry, "gold", where, problems, 0, 0, 3),
            _int(entry, "resources", where, problems, 0, 0, 3),
            _int(entry, "cubes", where, problems, 0, 0, 3),
            _int(entry, "upkeep", where, problems, 0, 0, 1), wonder, _bool(entry, "stays", where, problems),
        )
    if len(out) != CITY_TILES:
        problems.append(f"cities.yaml: {len(out)} tiles, the game has {CITY_TILES}")
    if rows != CITY_ROWS:
        problems.append(f"cities.yaml: tiles per era and row {sorted(rows.items())}, "
                        f"expected {sorted(CITY_ROWS.items())}")
    wonders = sum(1 for c in out.values() if c.wonder)
    if wonders != WONDERS:
        problems.append(f"cities.yaml: {wonders} wonders, the game has {WONDERS}")
    return out


def _side(raw: Any, where: str, problems: list[str]) -> EmpireSide:
    if not _keys(raw, {"regions", "water", "battles"}, where, problems):
        return EmpireSide(1, False, ())
    regions = _int(raw, "regions", where, problems, None, 1, 4)
    battles = raw.get("battles")
    rows: list[tuple[int, int]] = []
    if not isinstance(battles, list) or not 1 <= len(battles) <= 2:
        problems.append(f"{where}: battles must list one or two [attacker, defender] rows")
    else:
        for row in battles:
            if (not isinstance(row, list) or len(row) != 2
                    or not all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 4 for v in row)):
                problems.append(f"{where}: battle row {row!r} must be [attacker, defender] losses")
            else:
                rows.append((row[0], row[1]))
    return EmpireSide(regions, _bool(raw, "water", where, problems), tuple(rows))


def _load_empires(problems: list[str]) -> dict[str, Empire]:
    raw = _read("empires.yaml", problems)
    out: dict[str, Empire] = {}
    if not _keys(raw, {"tiles", "design"}, "empires.yaml", problems):
        return out
    for i, entry in enumerate(raw.get("tiles") or []):
        where = f"empires.yaml: tile #{i + 1}"
        if not _keys(entry, {"id", "era1", "era2"}, where, problems):
            continue
        tid = entry.get("id")
        if not isinstance(tid, str) or tid in out:
            problems.append(f"{where}: id missing or repeated")
            continue
        one = _side(entry.get("era1"), f"empires.yaml: {tid} era I side", problems)
        two = _side(entry.get("era2"), f"empires.yaml: {tid} era II/III side", problems)
        if len(one.battles) != 1:
            problems.append(f"empires.yaml: {tid}: the era I side has one battle row")
        out[tid] = Empire(tid, one, two)
    if len(out) != EMPIRE_TILES:
        problems.append(f"empires.yaml: {len(out)} tiles, the game has {EMPIRE_TILES}")
    doubles = sum(1 for e in out.values() if len(e.era2.battles) == 2)
    if doubles != 2:
        problems.append(f"empires.yaml: {doubles} tiles with two battle rows, the rulebook has 2")
    return out


def _load_rules(problems: list[str]) -> dict[str, Any]:
    raw = _read("rules.yaml", problems)
    allowed = {"players", "cubes", "start", "food_max", "actions_per_turn", "turns", "boxes", "display",
               "trade"}
    if not _keys(raw, allowed, "rules.yaml", problems):
        return {}
    out: dict[str, Any] = {}
    cubes = raw.get("cubes") or {}
    start = raw.get("start") or {}
    boxes = raw.get("boxes") or {}
    display = raw.get("display") or {}
    out["pool"] = _int(cubes, "pool", "rules.yaml: cubes", problems, None, 0, 30)
    out["stock"] = _int(cubes, "stock", "rules.yaml: cubes", problems, None, 0, 30)
    for key in ("gold", "resources", "food", "vp"):
        out[f"start_{key}"] = _int(start, key, "rules.yaml: start", problems, None, 0, 30)
    out["food_max"] = _int(raw, "food_max", "rules.yaml", problems, None, 1, 40)
    out["actions_per_turn"] = _int(raw, "actions_per_turn", "rules.yaml", problems, None, 1, 9)
    out["turns"] = _int(raw, "turns", "rules.yaml", problems, None, 6, 6)
    for key in ("progress", "territory", "city", "city_early"):
        out[f"{key}_boxes" if key != "city_early" else "city_early_boxes"] = _int(
            boxes, key, "rules.yaml: boxes", problems, None, 1, 10)
    if display.get("rows") != list(ROWS):
        problems.append(f"rules.yaml: display rows must be {list(ROWS)}")
    circles = display.get("circles")
    if not isinstance(circles, dict) or sorted(circles) != [2, 3, 4, 5]:
        problems.append("rules.yaml: display circles must be given for 2 to 5 players")
        circles = {2: 4, 3: 6, 4: 8, 5: 10}
    out["circles"] = {int(k): _int(circles, k, "rules.yaml: circles", problems, None, 1, 12) for k in circles}
    out["empire_max"] = _int(display, "empire_max", "rules.yaml: display", problems, None, 1, 12)
    for players, n in out["circles"].items():
        if n * (len(ROWS) - 1) + min(n, out["empire_max"]) < players * out["actions_per_turn"]:
            problems.append(f"rules.yaml: {players} players need more circles than {n} per row")
    trade: dict[str, TradeBox] = {}
    for i, entry in enumerate(raw.get("trade") or []):
        where = f"rules.yaml: trade box #{i + 1}"
        if not _keys(entry, {"id", "resources", "gold", "vp", "eras", *_MARKS}, where, problems):
            continue
        bid = entry.get("id")
        if not isinstance(bid, str) or bid in trade:
            problems.append(f"{where}: id missing or repeated")
            continue
        eras = entry.get("eras")
        if not isinstance(eras, list) or not eras or not set(eras) <= {1, 2, 3}:
            problems.append(f"{where}: eras must list some of 1, 2, 3")
            eras = []
        gold = _int(entry, "gold", where, problems, 0, 0, 12)
        vp = _int(entry, "vp", where, problems, 0, 0, 12)
        if bool(gold) == bool(vp):
            problems.append(f"{where}: a box pays either gold or victory points")
        need = _int(entry, "resources", where, problems, None, 1, 9)
        trade[bid] = TradeBox(bid, need, gold, vp, tuple(eras))
    for era in (1, 2, 3):
        if not any(era in b.eras for b in trade.values()):
            problems.append(f"rules.yaml: no trade box for era {era}")
    out["trade"] = trade
    return out


def _build() -> tuple[RiseData | None, list[str]]:
    problems: list[str] = []
    regions, adjacent, arrows, colours = _load_map(problems)
    progress = _load_progress(problems)
    territory = _load_territory(problems)
    cities = _load_cities(problems)
    empires = _load_empires(problems)
    rules = _load_rules(problems)
    if problems:
        return None, problems
    if rules["progress_boxes"] * 6 != PROGRESS_TILES or rules["territory_boxes"] * 4 != TERRITORY_TILES:
        problems.append("rules.yaml: progress boxes hold 6 tiles and territory boxes 4")
    if rules["city_boxes"] != CITY_ROWS[(3, "A")] or rules["city_early_boxes"] != CITY_ROWS[(1, "A")]:
        problems.append("rules.yaml: city boxes must match the city rows")
    if problems:
        return None, problems
    data = RiseData(
        regions=regions, adjacent=adjacent, arrows=arrows, era_colours=colours,
        progress=progress, territory=territory, cities=cities, empires=empires, trade=rules.pop("trade"),
        **rules,
    )
    return data, problems


def check_data() -> list[str]:
    """Every problem in data/rise (empty when the data is valid)."""
    return _build()[1]


@lru_cache(maxsize=1)
def load_data() -> RiseData:
    """The validated data (cached); raises :class:`engine.core.DataError` listing every problem."""
    data, problems = _build()
    if data is None:
        raise DataError(problems)
    return data
