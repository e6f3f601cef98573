"""7 Ages data: loading, provenance and the ``check-data`` checks.

Every entry of ``data/seven_ages/*.yaml`` carries ``source:``, one of
``rulebook:N`` / ``rulebook:N-M`` (lines of the Collector's edition rulebook),
``public: <where>`` (a public report) or ``ours`` (authored by Annals). The
checks refuse an entry without one and each file's report says how many
entries of each kind it holds. :mod:`engine.seven_ages.checks` runs them all.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from engine.core import DataError

DATA_DIR = Path(__file__).resolve().parents[2] / "data" / "seven_ages"
RULEBOOK_LINES = 2841
TERRAINS: tuple[str, ...] = ("fertile", "forest", "jungle", "mountain", "steppe", "tundra", "desert")
PROVENANCE: tuple[str, ...] = ("rulebook", "public", "ours")
_RULEBOOK = re.compile(r"^rulebook:(\d+)(?:-(\d+))?$")



def provenance(source: object) -> str | None:
    """``"rulebook"``, ``"public"`` or ``"ours"`` for a valid ``source:`` value; None otherwise."""
    if not isinstance(source, str):
        return None
    if source == "ours":
        return "ours"
    if source.startswith("public:") and source[len("public:"):].strip():
        return "public"
    m = _RULEBOOK.match(source)
    if m:
        first, last = int(m.group(1)), int(m.group(2) or m.group(1))
        if 1 <= first <= last <= RULEBOOK_LINES:
            return "rulebook"
    return None


def rulebook_lines(source: str) -> range:
    """The rulebook lines a ``rulebook:N[-M]`` source cites (empty for other sources)."""
    m = _RULEBOOK.match(source)
    if not m:
        return range(0)
    return range(int(m.group(1)), int(m.group(2) or m.group(1)) + 1)


def source_problems(what: str, entries: Iterable[Mapping[str, Any]], key: str = "name") -> list[str]:
    """One problem per entry whose ``source`` is missing or malformed."""
    problems = []
    for i, entry in enumerate(entries):
        if provenance(entry.get("source")) is None:
            label = entry.get(key, f"#{i + 1}")
            problems.append(f"{what} {label}: source {entry.get('source')!r} is not 'rulebook:N[-M]', "
                            "'public: ...' or 'ours'")
    return problems


def provenance_line(what: str, entries: Iterable[Mapping[str, Any]]) -> str:
    """``"areas 284: 46 from the rulebook, 238 ours"``."""
    counts = Counter(provenance(e.get("source")) for e in entries)
    total = sum(counts.values())
    parts = [f"{counts[k]} {'from the rulebook' if k == 'rulebook' else k}" for k in PROVENANCE if counts[k]]
    return f"{what} {total}: {', '.join(parts)}"


def read_yaml(name: str) -> dict[str, Any]:
    path = DATA_DIR / name
    with path.open(encoding="utf-8") as f:
        data = yaml.safe_load(f)
    if not isinstance(data, dict):
        raise DataError([f"{name}: expected a mapping at the top"])
    return data


def section(data: Mapping[str, Any], name: str, file: str) -> list[dict[str, Any]]:
    """A list of mappings under ``name``; DataError naming the file otherwise."""
    value = data.get(name)
    if not isinstance(value, list) or not all(isinstance(e, dict) for e in value):
        raise DataError([f"{file}: '{name}' must be a list of mappings"])
    return value


# --- tables -----------------------------------------------------------------


@dataclass(frozen=True)
class Terrain:
    name: str
    income: int
    defence: int
    move: int
    counts_for_glory: bool
    cavalry_modifier: int
    becomes_fertile_from_age: int | None


@dataclass(frozen=True)
class UnitType:
    name: str
    unit_class: str
    available: int
    cost: int


@dataclass(frozen=True)
class Age:
    age: int
    name: str
    dates: str
    first: int
    last: int
    max_city: int


@dataclass(frozen=True)
class Tables:
    terrains: Mapping[str, Terrain]
    modifiers: Mapping[str, Mapping[str, Any]]
    unit_types: Mapping[str, UnitType]
    costs: Mapping[str, Mapping[str, Any]]
    ages: tuple[Age, ...]
    dark_ages: frozenset[int]
    religions: tuple[str, ...]
    regions: Mapping[str, tuple[str, ...]]

    def age_of(self, level: int) -> int:
        """The age of a progress level (1-49)."""
        for age in self.ages:
            if age.first <= level <= age.last:
                return age.age
        raise ValueError(f"no progress level {level} on the track (1-49)")

    @property
    def subregions(self) -> dict[str, str]:
        """Each sub-region's region."""
        return {sub: region for region, subs in self.regions.items() for sub in subs}


TABLE_SECTIONS = ("terrains", "modifiers", "unit_classes", "unit_types", "costs", "ages", "dark_ages",
                  "religions", "regions")


def table_problems(raw: Mapping[str, Any]) -> list[str]:
    problems: list[str] = []
    for name in TABLE_SECTIONS:
        key = "level" if name == "dark_ages" else "age" if name == "ages" else "name"
        problems += source_problems(f"tables.yaml {name}", section(raw, name, "tables.yaml"), key)
    terrains = [t["name"] for t in raw["terrains"]]
    if tuple(terrains) != TERRAINS:
        problems.append(f"tables.yaml terrains: expected {', '.join(TERRAINS)}, found {', '.join(terrains)}")
    for t in raw["terrains"]:
        for field, value in (t.get("facts") or {}).items():
            if provenance(value) is None:
                problems.append(f"tables.yaml terrain {t['name']}: fact {field} has no valid source")
    classes = {c["name"] for c in raw["unit_classes"]}
    for u in raw["unit_types"]:
        if u.get("class") not in classes:
            problems.append(f"tables.yaml unit {u.get('name')}: unknown class {u.get('class')!r}")
    levels = [(a["first"], a["last"]) for a in raw["ages"]]
    sevens = [(7 * i + 1, 7 * i + 7) for i in range(7)]
    if [a["age"] for a in raw["ages"]] != list(range(1, 8)) or levels != sevens:
        problems.append("tables.yaml ages: expected ages 1-7 of seven levels each, 1-49")
    return problems


def _build_tables(raw: Mapping[str, Any]) -> Tables:
    cls_cost = {c["name"]: int(c["cost"]) for c in raw["unit_classes"]}
    return Tables(
        terrains={t["name"]: Terrain(t["name"], int(t["income"]), int(t["defence"]), int(t["move"]),
                                     bool(t.get("counts_for_glory", True)), int(t.get("cavalry_modifier", 0)),
                                     t.get("becomes_fertile_from_age"))
                  for t in raw["terrains"]},
        modifiers={m["name"]: m for m in raw["modifiers"]},
        unit_types={u["name"]: UnitType(u["name"], u["class"], int(u["available"]), cls_cost[u["class"]])
                    for u in raw["unit_types"]},
        costs={c["name"]: c for c in raw["costs"]},
        ages=tuple(Age(int(a["age"]), a["name"], a["dates"], int(a["first"]), int(a["last"]),
                       int(a["max_city"])) for a in raw["ages"]),
        dark_ages=frozenset(int(d["level"]) for d in raw["dark_ages"]),
        religions=tuple(r["name"] for r in raw["religions"]),
        regions={r["name"]: tuple(r["subregions"]) for r in raw["regions"]},
    )


@cache
def load_tables() -> Tables:
    """The tables of ``tables.yaml``, validated; DataError listing every problem otherwise."""
    raw = read_yaml("tables.yaml")
    problems = table_problems(raw)
    if problems:
        raise DataError(problems)
    return _build_tables(raw)


def check_tables() -> list[str]:
    try:
        load_tables()
    except DataError as exc:
        return exc.problems
    return []


def report_tables() -> list[str]:
    raw = read_yaml("tables.yaml")
    entries = [e for name in TABLE_SECTIONS for e in raw[name]]
    return [provenance_line("table entries", entries)]


# -- the counters (counters.yaml) --------------------------------------------------------------------

@dataclass(frozen=True)
class Mix:
    """One colour's counters (L325): its group, shade, and how many counters of each front."""

    name: str
    group: str
    shade: str
    counters: Mapping[str, int]


@dataclass(frozen=True)
class Counters:
    mixes: Mapping[str, Mix]
    backs: Mapping[str, str]  # front -> back
    values: Mapping[tuple[str, str], Mapping[str, int]]  # (shade, unit) -> front, support, move

    @property
    def groups(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(m.group for m in self.mixes.values()))

    def front_of(self, unit: str) -> str:
        """The counter a unit type is printed on (its front, or the front whose back it is)."""
        if unit in self.backs:
            return unit
        return next((f for f, b in self.backs.items() if b == unit), unit)


@cache
def load_counters() -> Counters:
    raw = read_yaml("counters.yaml")
    return Counters(
        mixes={m["name"]: Mix(m["name"], m["group"], m["shade"], dict(m["counters"])) for m in raw["mixes"]},
        backs={b["front"]: b["back"] for b in raw["backs"]},
        values={(v["shade"], v["unit"]): {k: int(v[k]) for k in ("front", "support", "move")}
                for v in raw["unit_values"]},
    )
