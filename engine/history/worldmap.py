"""The History of the World map: lands, areas, seas and oceans, and how they touch.

The map is data (``data/history/classic/map.yaml`` for the classic rules,
``data/history/epochs5/map.yaml`` for the 5-epoch rules, whose "areas" are
that edition's regions and "lands" its territories); this module loads it,
checks it strictly and answers the questions the rules ask of a map: which
lands border a land (and whether across a strait or the Great Wall), which
lands touch a water, which seas a fleet in an ocean may also use, and which
land a player means when typing a name or an abbreviation.

Whether an attack crosses difficult terrain is a rules question and lives in
the engine; this module only reports terrain and border kinds.

File format (all keys required unless marked optional)::

    areas: [Middle East, ...]                    # scoring areas, in table order
    waters:
      Red Sea: {kind: sea, anchor: [lon, lat], aliases: [...]}   # aliases optional
    water_links:                                 # unordered pairs, each once
      - [Western Mediterranean, Eastern Mediterranean]
    lands:
      Lower Tigris:
        area: Middle East                        # null for a barren land
        terrain: plain                           # plain | forest | mountain
        resource: false
        anchor: [46.5, 31.0]                     # [longitude, latitude]
        waters: [Indian Ocean]                   # waters it touches
        aliases: []                              # optional
    borders:                                     # unordered pairs, each once
      - [Lower Tigris, Middle Tigris]            # ordinary border
      - [Balkans, Western Anatolia, strait]      # or great_wall

Optional keys (the 5-epoch map uses them; the classic map does not)::

    ocean_reach: adjacent        # or through_seas (the default, classic rules)
    waters:
      Arctic Ocean: {kind: ocean, anchor: [...], fleets: false}   # default true

``ocean_reach`` says which seas a fleet in an ocean also sails:
``through_seas`` (classic) every sea reachable from the ocean through seas
only; ``adjacent`` (5-epoch) only the seas linked to the ocean itself.
``fleets: false`` marks a water where no fleet may be placed or exist.
"""

from __future__ import annotations

import difflib
import functools
import math
from collections import deque
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any, Final

import yaml

from engine.core import DataError, IllegalAction

TERRAINS: Final = ("plain", "forest", "mountain")
BORDER_KINDS: Final = ("strait", "great_wall")
WATER_KINDS: Final = ("sea", "ocean")
OCEAN_REACHES: Final = ("through_seas", "adjacent")
#: Terrains that give the 5-epoch defender its "terrain" effect (forests and
#: mountains alike, "Board Clarifications").
DIFFICULT_TERRAINS: Final = frozenset({"forest", "mountain"})

#: Lands an area needs at least: control of an area takes three armies.
MIN_LANDS_PER_AREA: Final = 3

DEFAULT_MAP_PATH: Final = (
    Path(__file__).resolve().parents[2] / "data" / "history" / "classic" / "map.yaml"
)

_TOP_KEYS: Final = frozenset(
    {"areas", "waters", "water_links", "lands", "borders", "great_wall_inside", "ocean_reach"}
)
_REQUIRED_TOP_KEYS: Final = frozenset({"areas", "waters", "water_links", "lands", "borders"})
_WATER_KEYS: Final = frozenset({"kind", "anchor", "aliases", "fleets"})
_WATER_REQUIRED: Final = frozenset({"kind", "anchor"})
_LAND_KEYS: Final = frozenset({"area", "terrain", "resource", "anchor", "waters", "aliases"})
_LAND_REQUIRED: Final = frozenset({"area", "terrain", "resource", "anchor", "waters"})


@dataclass(frozen=True)
class Land:
    """One land (a space armies may hold, unless it is barren).

    Attributes:
        name: Canonical name, as the rulebook spells it.
        area: Scoring area, or None for a barren land.
        terrain: One of :data:`TERRAINS`.
        resource: Whether the land carries a resource symbol.
        anchor: ``(longitude, latitude)`` of a point inside the land.
        waters: Seas and oceans the land touches.
        aliases: Other spellings accepted by :meth:`WorldMap.resolve_land`.
    """

    name: str
    area: str | None
    terrain: str
    resource: bool
    anchor: tuple[float, float]
    waters: frozenset[str]
    aliases: tuple[str, ...] = ()

    @property
    def barren(self) -> bool:
        """True for a barren land: no area, no armies, Barbarians only."""
        return self.area is None

    @property
    def rough(self) -> bool:
        """True for forest or mountain (the 5-epoch defender's "terrain" effect)."""
        return self.terrain in DIFFICULT_TERRAINS


@dataclass(frozen=True)
class Water:
    """One sea or ocean.

    Attributes:
        name: Canonical name.
        kind: ``"sea"`` or ``"ocean"``.
        anchor: ``(longitude, latitude)`` of a point inside the water.
        links: Waters this one touches (between two oceans: a dotted-line border).
        aliases: Other spellings accepted by :meth:`WorldMap.resolve_water`.
        fleets: False where no fleet may be placed or exist (optional key).
    """

    name: str
    kind: str
    anchor: tuple[float, float]
    links: frozenset[str]
    aliases: tuple[str, ...] = ()
    fleets: bool = True


class UnknownNameError(KeyError):
    """A land, water or area name that the map does not know.

    A ``KeyError`` whose ``str()`` is the plain message (``KeyError`` itself
    would show it in quotes).
    """

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


def _normalise(name: str) -> str:
    """Fold a name for look-up: case, full stops and spacing do not matter."""
    return " ".join(name.replace(".", " ").casefold().split())


def _unknown(kind: str, name: str, known: Mapping[str, str]) -> UnknownNameError:
    """A KeyError for an unknown name, suggesting close canonical names.

    Args:
        kind: What was looked up ("land", "area", ...), for the message.
        name: The name as given.
        known: Every accepted spelling -> its canonical name.
    """
    close = difflib.get_close_matches(name, list(known), n=6, cutoff=0.6)
    if not close:
        folded = {_normalise(spelling): spelling for spelling in known}
        close = [folded[m] for m in difflib.get_close_matches(_normalise(name), folded, n=6)]
    canonical = list(dict.fromkeys(known[spelling] for spelling in close))[:3]
    hint = f"; did you mean {' or '.join(repr(c) for c in canonical)}?" if canonical else ""
    return UnknownNameError(f"unknown {kind} {name!r}{hint}")


class WorldMap:
    """A checked, immutable map. Build it with :func:`parse_map` or :func:`load_map`.

    Attributes:
        areas: Scoring areas in the order of the Victory Points Table.
        lands: Land name -> :class:`Land`, in file order.
        waters: Water name -> :class:`Water`, in file order.
        ocean_reach: ``"through_seas"`` or ``"adjacent"`` (see :meth:`fleet_reach`).
    """

    areas: tuple[str, ...]
    ocean_reach: str
    lands: Mapping[str, Land]
    waters: Mapping[str, Water]
    wall_inside: frozenset[str]
    """The lands the Great Wall protects: it is difficult terrain only for their defenders."""

    def __init__(
        self,
        areas: Iterable[str],
        lands: Iterable[Land],
        waters: Iterable[Water],
        borders: Iterable[tuple[str, str, str | None]],
        wall_inside: Iterable[str] = (),
        ocean_reach: str = "through_seas",
    ) -> None:
        """Assemble a map from already-checked parts (use :func:`parse_map`)."""
        self.areas = tuple(areas)
        self.ocean_reach = ocean_reach
        self.wall_inside = frozenset(wall_inside)
        self.lands = MappingProxyType({land.name: land for land in lands})
        self.waters = MappingProxyType({water.name: water for water in waters})

        adjacent: dict[str, set[str]] = {name: set() for name in self.lands}
        kinds: dict[frozenset[str], str | None] = {}
        edges: list[tuple[str, str, str | None]] = []
        for a, b, kind in borders:
            adjacent[a].add(b)
            adjacent[b].add(a)
            kinds[frozenset((a, b))] = kind
            edges.append((a, b, kind))
        self._neighbours = {name: frozenset(n) for name, n in adjacent.items()}
        self._border_kinds = kinds
        self._edges = tuple(edges)

        coasts: dict[str, list[str]] = {name: [] for name in self.waters}
        for land in self.lands.values():
            for water in land.waters:
                coasts[water].append(land.name)
        self._coasts = {name: frozenset(c) for name, c in coasts.items()}

        by_area: dict[str, list[str]] = {area: [] for area in self.areas}
        for land in self.lands.values():
            if land.area is not None:
                by_area[land.area].append(land.name)
        self._by_area = {area: tuple(names) for area, names in by_area.items()}

        touching: dict[str, set[str]] = {area: set() for area in self.areas}
        for a, b, _ in self._edges:
            area_a, area_b = self.lands[a].area, self.lands[b].area
            if area_a is not None and area_b is not None and area_a != area_b:
                touching[area_a].add(area_b)
                touching[area_b].add(area_a)
        self._adjacent_areas = {area: tuple(sorted(found)) for area, found in touching.items()}

        self._reach = {name: self._compute_reach(name) for name in self.waters}

        self._land_names: dict[str, str] = {}
        for land in self.lands.values():
            for alias in (land.name, *land.aliases):
                self._land_names[_normalise(alias)] = land.name
        self._water_names: dict[str, str] = {}
        for body in self.waters.values():
            for alias in (body.name, *body.aliases):
                self._water_names[_normalise(alias)] = body.name

    def __repr__(self) -> str:
        return (
            f"WorldMap({len(self.areas)} areas, {len(self.lands)} lands, "
            f"{len(self.waters)} waters, {len(self._edges)} borders)"
        )

    def _compute_reach(self, name: str) -> frozenset[str]:
        if self.waters[name].kind != "ocean":
            return frozenset({name})
        if self.ocean_reach == "adjacent":
            links = self.waters[name].links
            return frozenset({name, *(w for w in links if self.waters[w].kind == "sea")})
        seen = {name}
        queue = deque([name])
        while queue:
            for nxt in self.waters[queue.popleft()].links:
                if nxt not in seen and self.waters[nxt].kind == "sea":
                    seen.add(nxt)
                    queue.append(nxt)
        return frozenset(seen)

    def _check_land(self, name: str) -> None:
        if name not in self.lands:
            raise _unknown("land", name, {land: land for land in self.lands})

    def _check_water(self, name: str) -> None:
        if name not in self.waters:
            raise _unknown("sea or ocean", name, {water: water for water in self.waters})

    def neighbours(self, land: str) -> frozenset[str]:
        """Lands sharing a border with ``land``, straits and the Great Wall included.

        Raises:
            KeyError: ``land`` is not a canonical land name.
        """
        self._check_land(land)
        return self._neighbours[land]

    def border(self, a: str, b: str) -> str | None:
        """The kind of the border between two adjacent lands.

        Returns:
            ``"strait"`` or ``"great_wall"``, or None for an ordinary border.

        Raises:
            KeyError: a name is unknown or the lands are not adjacent.
        """
        self._check_land(a)
        self._check_land(b)
        key = frozenset((a, b))
        if a == b or key not in self._border_kinds:
            raise UnknownNameError(f"{a} and {b} are not adjacent")
        return self._border_kinds[key]

    def edges(self) -> tuple[tuple[str, str, str | None], ...]:
        """Every border once, as ``(land, land, kind)`` in file order."""
        return self._edges

    def coast(self, water: str) -> frozenset[str]:
        """Lands touching ``water`` (barren lands list no waters).

        Raises:
            KeyError: ``water`` is not a canonical water name.
        """
        self._check_water(water)
        return self._coasts[water]

    def lands_in_area(self, area: str) -> tuple[str, ...]:
        """Lands of ``area`` in file order.

        Raises:
            KeyError: ``area`` is not one of :attr:`areas`.
        """
        if area not in self._by_area:
            raise _unknown("area", area, {known: known for known in self.areas})
        return self._by_area[area]

    def adjacent_areas(self, area: str) -> tuple[str, ...]:
        """The areas with a land bordering one of ``area``'s lands, sorted by name."""
        if area not in self._adjacent_areas:
            raise _unknown("area", area, {a.lower(): a for a in self.areas})
        return self._adjacent_areas[area]

    def fleet_reach(self, water: str) -> frozenset[str]:
        """Waters a fleet marker in ``water`` gives navigation in.

        A sea reaches itself. An ocean reaches itself plus, when the map's
        ``ocean_reach`` is ``"through_seas"`` (classic), every sea reachable
        from it by moving through seas only (never through another ocean), or,
        when it is ``"adjacent"`` (5-epoch), every sea linked to it.

        Raises:
            KeyError: ``water`` is not a canonical water name.
        """
        self._check_water(water)
        return self._reach[water]

    def resolve_land(self, name: str) -> str:
        """The canonical land name for a name or alias.

        Case, full stops and extra spaces are ignored, so ``"n. european
        plain"`` resolves to ``"North European Plain"``.

        Raises:
            KeyError: nothing matches; the message suggests close names.
        """
        found = self.land_named(name)
        if found is None:
            raise _unknown("land", name, self._spellings(self.lands))
        return found

    def land_named(self, name: str) -> str | None:
        """The canonical land name for a name or alias, as :meth:`resolve_land` reads it; None when
        nothing matches (for a reader asking about a place that may not be a land)."""
        return self._land_names.get(_normalise(name))

    def resolve_water(self, name: str) -> str:
        """The canonical sea or ocean name for a name or alias (see :meth:`resolve_land`).

        Raises:
            KeyError: nothing matches; the message suggests close names.
        """
        found = self._water_names.get(_normalise(name))
        if found is None:
            raise _unknown("sea or ocean", name, self._spellings(self.waters))
        return found

    @staticmethod
    def _spellings(items: Mapping[str, Land] | Mapping[str, Water]) -> dict[str, str]:
        spellings: dict[str, str] = {}
        for item in items.values():
            for spelling in (item.name, *item.aliases):
                spellings[spelling] = item.name
        return spellings


# --------------------------------------------------------------------------
# Validation
# --------------------------------------------------------------------------


def _is_name(value: object) -> bool:
    return isinstance(value, str) and bool(value.strip()) and value == value.strip()


def _entries(
    raw: Mapping[str, Any], section: str, problems: list[str]
) -> Iterator[tuple[str, str, Mapping[Any, Any]]]:
    """The well-formed ``name: {...}`` entries of a top-level section; reports the rest."""
    table = raw.get(section)
    if not isinstance(table, Mapping):
        problems.append(f"{section}: must be a mapping of name -> entry, got {table!r}")
        return
    for name, entry in table.items():
        if not _is_name(name):
            problems.append(f"{section}: {name!r} is not a non-empty trimmed string")
        elif not isinstance(entry, Mapping):
            problems.append(f"{section}.{name}: must be a mapping, got {entry!r}")
        else:
            yield name, f"{section}.{name}", entry


def _check_anchor(value: object, where: str, problems: list[str]) -> None:
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
    ):
        problems.append(f"{where}: anchor must be [longitude, latitude], got {value!r}")
        return
    lon, lat = float(value[0]), float(value[1])
    if not (math.isfinite(lon) and -180.0 <= lon <= 180.0):
        problems.append(f"{where}: anchor longitude {value[0]!r} is outside -180..180")
    if not (math.isfinite(lat) and -90.0 <= lat <= 90.0):
        problems.append(f"{where}: anchor latitude {value[1]!r} is outside -90..90")


def _check_keys(
    entry: Mapping[object, object],
    allowed: frozenset[str],
    required: frozenset[str],
    where: str,
    problems: list[str],
) -> None:
    for key in entry:
        if key not in allowed:
            problems.append(f"{where}: unknown key {key!r}")
    for key in sorted(required - set(entry)):
        problems.append(f"{where}: missing key {key!r}")


def _check_aliases(value: object, where: str, problems: list[str]) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, list):
        problems.append(f"{where}: aliases must be a list, got {value!r}")
        return []
    good: list[str] = []
    for alias in value:
        if _is_name(alias):
            good.append(str(alias))
        else:
            problems.append(f"{where}: alias {alias!r} is not a non-empty trimmed string")
    return good


def _check_names_unique(owners: Mapping[str, list[str]], what: str, problems: list[str]) -> None:
    """Every name and alias must fold to a different look-up key."""
    seen: dict[str, str] = {}
    for owner, names in owners.items():
        for name in (owner, *names):
            key = _normalise(name)
            other = seen.get(key)
            if other is None:
                seen[key] = owner
            elif other != owner:
                problems.append(f"{what} name {name!r} of {owner} clashes with {other}")
            elif name != owner:
                problems.append(f"{what} {owner}: alias {name!r} repeats another of its names")


def _check_pairs(
    raw: object,
    section: str,
    known: Mapping[str, object],
    what: str,
    problems: list[str],
    allow_kind: bool,
) -> list[tuple[str, str, str | None]]:
    """Check a list of unordered pairs, returning the well-formed ones."""
    if not isinstance(raw, list):
        problems.append(f"{section}: must be a list of pairs, got {type(raw).__name__}")
        return []
    pairs: list[tuple[str, str, str | None]] = []
    seen: dict[frozenset[str], int] = {}
    for index, item in enumerate(raw):
        where = f"{section}[{index}]"
        sizes = (2, 3) if allow_kind else (2,)
        if not isinstance(item, list) or len(item) not in sizes:
            shape = "[a, b] or [a, b, kind]" if allow_kind else "[a, b]"
            problems.append(f"{where}: must be {shape}, got {item!r}")
            continue
        a, b = item[0], item[1]
        kind = item[2] if len(item) == 3 else None
        ok = True
        for end in (a, b):
            if not isinstance(end, str) or end not in known:
                problems.append(f"{where}: unknown {what} {end!r}")
                ok = False
        if len(item) == 3 and kind not in BORDER_KINDS:
            problems.append(f"{where}: border kind {kind!r} is not one of {list(BORDER_KINDS)}")
            ok = False
        if not ok:
            continue
        if a == b:
            problems.append(f"{where}: {a} cannot border itself")
            continue
        key = frozenset((a, b))
        if key in seen:
            problems.append(f"{where}: {a} - {b} is already listed at {section}[{seen[key]}]")
            continue
        seen[key] = index
        pairs.append((a, b, kind if isinstance(kind, str) else None))
    return pairs


def _check_connected(
    land_coasts: Mapping[str, list[str]],
    waters: Iterable[str],
    borders: list[tuple[str, str, str | None]],
    links: list[tuple[str, str, str | None]],
    problems: list[str],
) -> None:
    """Every land and water must be reachable over borders, coasts and links."""
    graph: dict[tuple[str, str], set[tuple[str, str]]] = {}
    for name in land_coasts:
        graph[("land", name)] = set()
    for name in waters:
        graph[("water", name)] = set()

    def join(x: tuple[str, str], y: tuple[str, str]) -> None:
        if x in graph and y in graph:
            graph[x].add(y)
            graph[y].add(x)

    for a, b, _ in borders:
        join(("land", a), ("land", b))
    for a, b, _ in links:
        join(("water", a), ("water", b))
    for name, touched in land_coasts.items():
        for water in touched:
            join(("land", name), ("water", water))
    if not graph:
        return
    start = next(iter(graph))
    seen = {start}
    queue = deque([start])
    while queue:
        for nxt in graph[queue.popleft()]:
            if nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    cut_off = [f"{kind} {name}" for kind, name in graph if (kind, name) not in seen]
    if cut_off:
        problems.append(
            f"the map is not connected: {len(cut_off)} place(s) cannot be reached from "
            f"{start[1]}: {', '.join(sorted(cut_off))}"
        )


def _validate(raw: object) -> tuple[list[str], WorldMap | None]:
    """Check ``raw`` and, when it is sound, build the map from it."""
    problems: list[str] = []
    if not isinstance(raw, Mapping):
        return [f"the map must be a mapping, got {type(raw).__name__}"], None
    _check_keys(raw, _TOP_KEYS, _REQUIRED_TOP_KEYS, "map", problems)

    # Areas.
    areas: list[str] = []
    raw_areas = raw.get("areas")
    if not isinstance(raw_areas, list):
        problems.append(f"areas: must be a list of names, got {raw_areas!r}")
    else:
        for index, area in enumerate(raw_areas):
            if not _is_name(area):
                problems.append(f"areas[{index}]: {area!r} is not a non-empty trimmed string")
            elif area in areas:
                problems.append(f"areas[{index}]: {area} is listed twice")
            else:
                areas.append(str(area))

    # Waters.
    ocean_reach = raw.get("ocean_reach", "through_seas")
    if ocean_reach not in OCEAN_REACHES:
        problems.append(f"ocean_reach: {ocean_reach!r} is not one of {list(OCEAN_REACHES)}")
        ocean_reach = "through_seas"
    water_kinds: dict[str, str] = {}
    water_fleets: dict[str, bool] = {}
    water_anchors: dict[str, tuple[float, float]] = {}
    water_aliases: dict[str, list[str]] = {}
    for name, where, entry in _entries(raw, "waters", problems):
        _check_keys(entry, _WATER_KEYS, _WATER_REQUIRED, where, problems)
        kind = entry.get("kind")
        if kind not in WATER_KINDS:
            problems.append(f"{where}: kind {kind!r} is not one of {list(WATER_KINDS)}")
        n_before = len(problems)
        _check_anchor(entry.get("anchor"), where, problems)
        water_aliases[name] = _check_aliases(entry.get("aliases"), where, problems)
        water_kinds[name] = kind if isinstance(kind, str) else "sea"
        fleets = entry.get("fleets", True)
        if not isinstance(fleets, bool):
            problems.append(f"{where}: fleets must be true or false, got {fleets!r}")
        water_fleets[name] = fleets is not False
        if len(problems) == n_before:
            anchor = entry["anchor"]
            water_anchors[name] = (float(anchor[0]), float(anchor[1]))
    _check_names_unique(water_aliases, "water", problems)

    links = _check_pairs(
        raw.get("water_links"), "water_links", water_kinds, "water", problems, allow_kind=False
    )

    # Lands.
    lands: dict[str, Land] = {}
    land_aliases: dict[str, list[str]] = {}
    land_areas: dict[str, str | None] = {}  # every land entry; "?" if its area is bad
    land_coasts: dict[str, list[str]] = {}  # every land entry -> its known waters
    table = raw.get("lands")
    raw_lands: Mapping[str, object] = table if isinstance(table, Mapping) else {}
    for name, where, entry in _entries(raw, "lands", problems):
        n_before = len(problems)
        _check_keys(entry, _LAND_KEYS, _LAND_REQUIRED, where, problems)
        area = entry.get("area")
        if area is not None and area not in areas:
            problems.append(f"{where}: unknown area {area!r}")
        terrain = entry.get("terrain")
        if terrain not in TERRAINS:
            problems.append(f"{where}: terrain {terrain!r} is not one of {list(TERRAINS)}")
        resource = entry.get("resource")
        if not isinstance(resource, bool):
            problems.append(f"{where}: resource must be true or false, got {resource!r}")
        _check_anchor(entry.get("anchor"), where, problems)
        touched = entry.get("waters")
        land_waters: list[str] = []
        if not isinstance(touched, list):
            problems.append(f"{where}: waters must be a list, got {touched!r}")
        else:
            for water in touched:
                if not isinstance(water, str) or water not in water_kinds:
                    problems.append(f"{where}: unknown water {water!r}")
                elif water in land_waters:
                    problems.append(f"{where}: water {water} is listed twice")
                else:
                    land_waters.append(water)
        if area is None and "area" in entry:
            if resource is True:
                problems.append(f"{where}: a barren land cannot have a resource")
            if terrain in TERRAINS and terrain != "plain":
                problems.append(f"{where}: a barren land must be plain, not {terrain}")
        land_aliases[name] = _check_aliases(entry.get("aliases"), where, problems)
        known_area = "area" in entry and (area is None or area in areas)
        land_areas[name] = area if known_area else "?"
        land_coasts[name] = land_waters
        if len(problems) == n_before:
            anchor = entry["anchor"]
            lands[name] = Land(
                name=name,
                area=area,
                terrain=str(terrain),
                resource=bool(resource),
                anchor=(float(anchor[0]), float(anchor[1])),
                waters=frozenset(land_waters),
                aliases=tuple(land_aliases[name]),
            )
    _check_names_unique(land_aliases, "land", problems)

    borders = _check_pairs(
        raw.get("borders"), "borders", raw_lands, "land", problems, allow_kind=True
    )

    # Whole-map checks, on every entry well-formed enough to take part, so that
    # they report even when other entries have problems.
    for area in areas:
        count = sum(1 for owner in land_areas.values() if owner == area)
        if count < MIN_LANDS_PER_AREA:
            problems.append(
                f"area {area} has {count} land(s); it needs at least {MIN_LANDS_PER_AREA}"
            )
    neighbours: dict[str, set[str]] = {name: set() for name in land_areas}
    for a, b, _ in borders:
        if a in neighbours and b in neighbours:
            neighbours[a].add(b)
            neighbours[b].add(a)
    for name, area in land_areas.items():
        if area is None and all(land_areas[n] is None for n in neighbours[name]):
            problems.append(f"barren land {name} borders no ordinary land (Barbarians need one)")
    coasts: dict[str, list[str]] = {name: [] for name in water_kinds}
    for name, touched_waters in land_coasts.items():
        for water in touched_waters:
            coasts[water].append(name)
    for water, touching in coasts.items():
        if not touching:
            problems.append(f"water {water} touches no land")
    _check_connected(land_coasts, water_kinds, borders, links, problems)
    wall_inside = raw.get("great_wall_inside") or []
    if not isinstance(wall_inside, list) or not all(_is_name(n) for n in wall_inside):
        problems.append("great_wall_inside must be a list of land names")
        wall_inside = []
    for name in wall_inside:
        if name not in land_areas:
            problems.append(f"great_wall_inside: unknown land {name!r}")
    for a, b, kind in borders:
        if kind == "great_wall" and (a in wall_inside) == (b in wall_inside):
            problems.append(
                f"the Great Wall border {a} - {b} needs exactly one side listed in great_wall_inside"
            )
    if problems:
        return problems, None

    water_links: dict[str, set[str]] = {name: set() for name in water_kinds}
    for a, b, _ in links:
        water_links[a].add(b)
        water_links[b].add(a)
    waters = [
        Water(
            name=name,
            kind=water_kinds[name],
            anchor=water_anchors[name],
            links=frozenset(water_links[name]),
            aliases=tuple(water_aliases[name]),
            fleets=water_fleets[name],
        )
        for name in water_kinds
    ]
    return [], WorldMap(areas, lands.values(), waters, borders, wall_inside, str(ocean_reach))


def land_or_refuse(wmap: WorldMap, name: str, noun: str = "land") -> str:
    """The canonical name of the land ``name`` (any accepted spelling); an IllegalAction a player
    understands otherwise (``noun``: what the ruleset calls a land, e.g. "territory")."""
    try:
        return wmap.resolve_land(name)
    except KeyError:
        raise IllegalAction("unknown_land", f"There is no {noun} called {name!r}.", land=name) from None


def water_or_refuse(wmap: WorldMap, name: str) -> str:
    """The canonical name of the sea or ocean ``name``; an IllegalAction otherwise."""
    try:
        return wmap.resolve_water(name)
    except KeyError:
        raise IllegalAction(
            "unknown_water", f"There is no sea or ocean called {name!r}.", water=name
        ) from None


def validate_map(raw: object) -> list[str]:
    """Check raw map data (as loaded from YAML) and list every problem found.

    Checks shapes and types, unknown keys, unknown area/water/land names in
    every list, terrain and water kinds, anchors in range, duplicate or
    self borders and water links (in either order), barren lands with
    resources or without an ordinary neighbour, areas with too few lands,
    clashing names or aliases, waters touching no land, and that every land
    and water can be reached over borders, coasts and water links.

    Args:
        raw: The parsed YAML document.

    Returns:
        Human-readable problems, empty when the data is sound.
    """
    problems, _ = _validate(raw)
    return problems


def parse_map(raw: object) -> WorldMap:
    """Build a :class:`WorldMap` from raw map data.

    Args:
        raw: The parsed YAML document.

    Raises:
        DataError: :func:`validate_map` found problems (all are listed).
    """
    problems, world = _validate(raw)
    if world is None:
        raise DataError(problems)
    return world


@functools.lru_cache(maxsize=8)
def _load_cached(path: Path) -> WorldMap:
    with path.open(encoding="utf-8") as handle:
        raw = yaml.safe_load(handle)
    try:
        return parse_map(raw)
    except DataError as error:
        raise DataError([f"{path.name}: {p}" for p in error.problems]) from None


def load_map(path: str | Path | None = None) -> WorldMap:
    """Load and check a map file; the result is cached per path.

    Args:
        path: The YAML file; defaults to ``data/history/classic/map.yaml``
            in the repository holding this module.

    Raises:
        DataError: the data has problems (all are listed).
        OSError: the file cannot be read.
    """
    resolved = DEFAULT_MAP_PATH if path is None else Path(path).resolve()
    return _load_cached(resolved)
