"""The 7 Ages world map: areas, borders, crossing arrows, coasts and canals (``data/seven_ages/map.yaml``).

Annals' reconstruction: the rulebook names 46 areas and a few dozen facts
about them; the rest is authored from real geography (``source: ours``).
Land, sea and ocean areas are all areas: units enter, control and count seas.

Adjacency is the union of borders (listed once each) and arrows (crossing
arrows between lands across seas, and the blue arrow that wraps the Pacific).
A sea belongs to every region of a land it borders (L1094-1098); an island
joined by a crossing arrow belongs to its mainland's region (L1100), other
islands to the region in brackets after their name, written here as their
``region`` (L1102).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from engine.core import DataError
from engine.seven_ages.data import (
    TERRAINS,
    load_tables,
    provenance_line,
    read_yaml,
    section,
    source_problems,
)

KINDS = ("land", "sea", "ocean")
REF_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
SECTIONS = ("areas", "borders", "arrows", "canals", "closed")


@dataclass(frozen=True)
class Area:
    name: str
    ref: str
    kind: str
    terrain: str | None
    region: str | None
    subregion: str | None
    island: bool
    wheat: bool
    oil: bool
    elephant: bool
    religion: str | None
    coasts: Mapping[str, tuple[str, ...]]
    anchor: tuple[float, float]
    seeds: tuple[tuple[float, float], ...]
    source: str

    @property
    def land(self) -> bool:
        return self.kind == "land"


@dataclass(frozen=True)
class Arrow:
    a: str
    b: str
    over: tuple[str, ...]
    blue: bool


@dataclass(frozen=True)
class Canal:
    name: str
    area: str
    ref: str
    seas: tuple[str, str]


@dataclass(frozen=True, eq=False)  # compared and hashed by identity: one map is loaded, and cached
class WorldMap:
    areas: Mapping[str, Area]
    borders: frozenset[frozenset[str]]
    rivers: frozenset[frozenset[str]]
    arrows: tuple[Arrow, ...]
    canals: tuple[Canal, ...]
    closed: frozenset[frozenset[str]]

    @property
    def adjacency(self) -> dict[str, frozenset[str]]:
        return _adjacency(self)

    def adjacent(self, a: str, b: str) -> bool:
        return b in self.adjacency[a]

    def seas_of(self, land: str) -> frozenset[str]:
        """The sea and ocean areas a land borders (its coasts together)."""
        return frozenset(n for n in self.adjacency_by_border(land) if not self.areas[n].land)

    def adjacency_by_border(self, name: str) -> frozenset[str]:
        return _by_border(self).get(name, frozenset())

    def coastal(self, land: str) -> bool:
        """A land area adjacent to a sea or ocean area (L2115)."""
        return bool(self.seas_of(land))

    def coast_of(self, land: str, sea: str) -> str | None:
        """The named coast of ``land`` on ``sea`` (None for a land with a single coast)."""
        for coast, seas in self.areas[land].coasts.items():
            if sea in seas:
                return coast
        return None

    def regions_of(self, name: str) -> frozenset[str]:
        """Regions and sub-regions an area is in (a sea: those of every land it borders)."""
        return _regions(self)[name]

    def members(self, region: str) -> frozenset[str]:
        return _members(self).get(region, frozenset())


# The map never changes once loaded: these tables are worked out once (the harvest asks for them for
# every empire and category, every turn).
@cache
def _by_border(wmap: WorldMap) -> dict[str, frozenset[str]]:
    out: dict[str, set[str]] = {n: set() for n in wmap.areas}
    for pair in wmap.borders:
        for n in pair:
            out.setdefault(n, set()).update(pair - {n})
    return {n: frozenset(ns) for n, ns in out.items()}


@cache
def _regions(wmap: WorldMap) -> dict[str, frozenset[str]]:
    lands = {n: frozenset(r for r in (a.region, a.subregion) if r) for n, a in wmap.areas.items() if a.land}
    seas = {n: frozenset(r for m in _by_border(wmap)[n] if m in lands for r in lands[m])
            for n, a in wmap.areas.items() if not a.land}
    return {**lands, **seas}


@cache
def _members(wmap: WorldMap) -> dict[str, frozenset[str]]:
    out: dict[str, set[str]] = {}
    for n, regions in _regions(wmap).items():
        for r in regions:
            out.setdefault(r, set()).add(n)
    return {r: frozenset(ns) for r, ns in out.items()}


@cache
def _adjacency(wmap: WorldMap) -> dict[str, frozenset[str]]:
    adj: dict[str, set[str]] = {n: set() for n in wmap.areas}
    pairs = [tuple(p) for p in wmap.borders] + [(a.a, a.b) for a in wmap.arrows]
    for a, b in pairs:
        adj[a].add(b)
        adj[b].add(a)
    return {n: frozenset(s) for n, s in adj.items()}


def _pair(entry: Mapping[str, Any]) -> frozenset[str]:
    return frozenset((entry["a"], entry["b"]))


def map_problems(raw: Mapping[str, Any]) -> list[str]:
    """Every problem of the map data, without building it."""
    problems: list[str] = []
    entries = {name: section(raw, name, "map.yaml") for name in SECTIONS}
    for sec, items in entries.items():
        key = "name" if sec in ("areas", "canals") else "a"
        problems += source_problems(f"map.yaml {sec[:-1]}", items, key)
    tables = load_tables()
    subregions = tables.subregions
    names: dict[str, dict[str, Any]] = {}
    for a in entries["areas"]:
        name = a.get("name")
        if not isinstance(name, str) or name in names:
            problems.append(f"map.yaml area {name!r}: missing or listed twice")
            continue
        names[name] = a
        ref = a.get("ref", "")
        if not (isinstance(ref, str) and len(ref) == 2 and ref[0] in REF_LETTERS and ref[1].isdigit()):
            problems.append(f"area {name}: grid reference {ref!r} is not a letter A-Z and a digit 0-9")
        kind = a.get("kind")
        if kind not in KINDS:
            problems.append(f"area {name}: kind {kind!r} is not one of {', '.join(KINDS)}")
            continue
        anchor = a.get("anchor")
        if not (isinstance(anchor, list) and len(anchor) == 2 and -180 <= anchor[0] <= 180
                and -90 <= anchor[1] <= 90):
            problems.append(f"area {name}: anchor must be [lon, lat]")
        if kind == "land":
            if a.get("terrain") not in TERRAINS:
                problems.append(f"area {name}: terrain {a.get('terrain')!r} is not one of "
                                f"{', '.join(TERRAINS)}")
            region, sub = a.get("region"), a.get("subregion")
            if region is not None and region not in tables.regions:
                problems.append(f"area {name}: unknown region {region!r}")
            if sub is not None and subregions.get(sub) != region:
                problems.append(f"area {name}: {sub!r} is not a sub-region of {region!r}")
            if a.get("religion") is not None and a["religion"] not in tables.religions:
                problems.append(f"area {name}: unknown religion {a['religion']!r}")
        else:
            for field in ("terrain", "region", "subregion", "wheat", "oil", "elephant", "religion", "coasts"):
                if a.get(field):
                    problems.append(f"area {name}: a {kind} area has no {field}")
    adj: dict[str, set[str]] = {n: set() for n in names}
    seen: set[frozenset[str]] = set()
    for b in entries["borders"]:
        pair = _pair(b)
        if len(pair) != 2 or not pair <= names.keys():
            problems.append(f"border {b.get('a')} / {b.get('b')}: unknown area or an area bordering itself")
            continue
        if pair in seen:
            problems.append(f"border {b['a']} / {b['b']}: listed twice")
        seen.add(pair)
        if b.get("river") and not all(names[n]["kind"] == "land" for n in pair):
            problems.append(f"border {b['a']} / {b['b']}: a river runs between two land areas")
        adj[b["a"]].add(b["b"])
        adj[b["b"]].add(b["a"])
    for c in entries["closed"]:
        if _pair(c) in seen:
            problems.append(f"closed contact {c['a']} / {c['b']} is also a border")
        if not _pair(c) <= names.keys():
            problems.append(f"closed contact {c['a']} / {c['b']}: unknown area")
    for arrow in entries["arrows"]:
        ends = [str(arrow.get("a")), str(arrow.get("b"))]
        if not set(ends) <= names.keys():
            problems.append(f"arrow {ends[0]} / {ends[1]}: unknown area")
            continue
        if _pair(arrow) in seen:
            problems.append(f"arrow {ends[0]} / {ends[1]}: the areas already share a border")
        for sea in arrow.get("over", []):
            if sea not in names or names[sea]["kind"] == "land":
                problems.append(f"arrow {ends[0]} / {ends[1]}: {sea!r} is not a sea area")
        if not arrow.get("blue") and not all(names[n]["kind"] == "land" for n in ends):
            problems.append(f"arrow {ends[0]} / {ends[1]}: a crossing arrow joins two land areas")
    for name, a in names.items():
        coasts = a.get("coasts") or {}
        seas = {n for n in adj[name] if names[n]["kind"] != "land"}
        listed = [s for group in coasts.values() for s in group]
        if coasts and (sorted(listed) != sorted(seas) or len(coasts) < 2):
            problems.append(f"area {name}: coasts {coasts} must split its seas {sorted(seas)} into 2+ groups")
    for canal in entries["canals"]:
        seas = canal.get("seas", [])
        area = canal.get("area")
        if area not in names or len(seas) != 2 or not all(s in names and s in adj[area] for s in seas):
            problems.append(f"canal {canal.get('name')}: its area must border both its seas")
    return problems


def _build(raw: Mapping[str, Any]) -> WorldMap:
    areas = {}
    for a in raw["areas"]:
        areas[a["name"]] = Area(
            name=a["name"], ref=a["ref"], kind=a["kind"], terrain=a.get("terrain"), region=a.get("region"),
            subregion=a.get("subregion"), island=bool(a.get("island")), wheat=bool(a.get("wheat")),
            oil=bool(a.get("oil")), elephant=bool(a.get("elephant")), religion=a.get("religion"),
            coasts={k: tuple(v) for k, v in (a.get("coasts") or {}).items()},
            anchor=(float(a["anchor"][0]), float(a["anchor"][1])),
            seeds=tuple((float(x), float(y)) for x, y in a.get("seeds", [])), source=a["source"])
    return WorldMap(
        areas=areas,
        borders=frozenset(_pair(b) for b in raw["borders"]),
        rivers=frozenset(_pair(b) for b in raw["borders"] if b.get("river")),
        arrows=tuple(Arrow(x["a"], x["b"], tuple(x.get("over", [])), bool(x.get("blue")))
                     for x in raw["arrows"]),
        canals=tuple(Canal(c["name"], c["area"], c["ref"], (c["seas"][0], c["seas"][1]))
                     for c in raw["canals"]),
        closed=frozenset(_pair(c) for c in raw["closed"]),
    )


def read_map() -> WorldMap:
    """The world map as written, unchecked (the raster tool reads it while its borders are being drawn)."""
    return _build(read_yaml("map.yaml"))


@cache
def load_map() -> WorldMap:
    """The world map, validated; DataError listing every problem otherwise."""
    raw = read_yaml("map.yaml")
    problems = map_problems(raw)
    if problems:
        raise DataError(problems)
    return _build(raw)


def unreachable(wmap: WorldMap) -> list[str]:
    """Areas not reachable from the first area through borders and arrows."""
    start = next(iter(wmap.areas))
    seen = {start}
    queue = deque([start])
    while queue:
        for n in wmap.adjacency[queue.popleft()]:
            if n not in seen:
                seen.add(n)
                queue.append(n)
    return [n for n in wmap.areas if n not in seen]


def check_map() -> list[str]:
    try:
        wmap = load_map()
    except DataError as exc:
        return exc.problems
    problems = [f"area {n} cannot be reached from the rest of the map" for n in unreachable(wmap)]
    tables = load_tables()
    for region, subs in tables.regions.items():
        for r in (region, *subs):
            if not wmap.members(r):
                problems.append(f"region {r} has no area")
    return problems


def report_map() -> list[str]:
    raw = read_yaml("map.yaml")
    return [provenance_line(name, raw[name]) for name in SECTIONS if raw[name]]
