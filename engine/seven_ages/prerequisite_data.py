"""Option 16's artefact prerequisites as data (``artefacts.yaml``, each entry's ``prerequisite``).

Each artefact entry of option 16 (L1390-1999) states in its "Ages:" line what an empire (or, for a marker
placed on the map, the area) must have before the artefact may be played on it. The data says it with
the fields of :data:`FIELDS`; :mod:`engine.seven_ages.prerequisites` checks them against a game, and
:func:`prerequisite_problems` (run by ``check-data``) refuses an unknown field or a name that is not an
artefact, area, region, terrain or leader kind.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any

FIELDS: Mapping[str, str] = {
    "requires": "artefacts the empire must have, every one (the card's '*')",
    "requires_any": "artefacts (governments) of which the empire must have one",
    "earlier_if": "{age, requires}: from that age on when the empire has those artefacts (the card's '†')",
    "within_range_of": "an area or region the empire must have within Range",
    "controls": "regions in one of which the empire must control a land area",
    "has_leader": "true: the empire must have a leader on the map",
    "lacks_leader": "a leader kind the empire must not have",
    "has_religion": "true: the empire must have a religion",
    "one_per_religion": "true: no other empire of its dominant religion may hold the artefact",
    "disordered_area": "true: one of its areas must be disordered; false: none may be",
    "not_in_play": "artefacts that must not be in play",
    "world_war_marker": "true: the black World war marker must be on the progress track",
    "may_build_ships": "true: the empire must be allowed to build ships",
    "most_advanced": "true: the empire must be the one most advanced, alone",
    "coastal": "true: the area must be coastal",
    "area_city": "true: the area must hold a city",
    "area_undisordered": "true: the area must not be disordered",
    "terrain": "terrains of which the area must be one",
    "river": "true: the area must border a river",
    "canal": "the canal whose area the marker goes on",
    "most_ships": "true: the area must hold as many ships as any other coastal area",
    "shared_religion": "how many empires (itself included) must have its dominant religion",
    "not_religious_site": "true: the area must not be a religious site",
    "source": "the rulebook line that states it",
}
"""Every field a ``prerequisite`` may hold, with what it asks (the data README repeats them)."""

@dataclass(frozen=True)
class Earlier:
    """The '†': the artefact may come from ``age`` on when the empire has every one of ``requires``."""

    age: int
    requires: tuple[str, ...]


@dataclass(frozen=True)
class Prerequisite:
    """What an empire (and the area of a marker on the map) must have for an artefact (option 16)."""

    source: str
    requires: tuple[str, ...] = ()
    requires_any: tuple[str, ...] = ()
    earlier_if: Earlier | None = None
    within_range_of: str | None = None
    controls: tuple[str, ...] = ()
    has_leader: bool = False
    lacks_leader: str | None = None
    has_religion: bool = False
    one_per_religion: bool = False
    disordered_area: bool | None = None
    not_in_play: tuple[str, ...] = ()
    world_war_marker: bool = False
    may_build_ships: bool = False
    most_advanced: bool = False
    coastal: bool = False
    area_city: bool = False
    area_undisordered: bool = False
    terrain: tuple[str, ...] = ()
    river: bool = False
    canal: str | None = None
    most_ships: bool = False
    shared_religion: int = 0
    not_religious_site: bool = False

    def named(self) -> tuple[str, ...]:
        """Every artefact it names (those it requires, one of, earlier, and those that must be absent)."""
        earlier = self.earlier_if.requires if self.earlier_if else ()
        return (*self.requires, *self.requires_any, *earlier, *self.not_in_play)


def _names(value: Any) -> tuple[str, ...]:
    return tuple(str(v) for v in value) if isinstance(value, list) else ()


def parse(raw: Mapping[str, Any] | None) -> Prerequisite | None:
    """The checked ``prerequisite`` mapping as a value (None when the artefact has none)."""
    if not raw:
        return None
    early = raw.get("earlier_if")
    return Prerequisite(
        source=str(raw["source"]),
        requires=_names(raw.get("requires")),
        requires_any=_names(raw.get("requires_any")),
        earlier_if=Earlier(int(early["age"]), _names(early.get("requires"))) if early else None,
        within_range_of=raw.get("within_range_of"),
        controls=_names(raw.get("controls")),
        has_leader=bool(raw.get("has_leader")),
        lacks_leader=raw.get("lacks_leader"),
        has_religion=bool(raw.get("has_religion")),
        one_per_religion=bool(raw.get("one_per_religion")),
        disordered_area=raw.get("disordered_area"),
        not_in_play=_names(raw.get("not_in_play")),
        world_war_marker=bool(raw.get("world_war_marker")),
        may_build_ships=bool(raw.get("may_build_ships")),
        most_advanced=bool(raw.get("most_advanced")),
        coastal=bool(raw.get("coastal")),
        area_city=bool(raw.get("area_city")),
        area_undisordered=bool(raw.get("area_undisordered")),
        terrain=_names(raw.get("terrain")),
        river=bool(raw.get("river")),
        canal=raw.get("canal"),
        most_ships=bool(raw.get("most_ships")),
        shared_religion=int(raw.get("shared_religion", 0)),
        not_religious_site=bool(raw.get("not_religious_site")),
    )


_FLAGS = ("has_leader", "has_religion", "one_per_religion", "world_war_marker", "may_build_ships",
          "most_advanced", "coastal", "area_city", "area_undisordered", "river", "most_ships",
          "not_religious_site")
_LISTS = ("requires", "requires_any", "not_in_play", "controls", "terrain")


@dataclass(frozen=True)
class Vocabulary:
    """The names a prerequisite may use, from the rest of the data."""

    artefacts: Collection[str]
    places: Collection[str]  # areas and regions (Range of Palestine, of India)
    regions: Collection[str]
    terrains: Collection[str]
    leader_kinds: Collection[str]
    canals: Collection[str]


def _list_problems(where: str, key: str, value: Any, known: Collection[str]) -> list[str]:
    if not (isinstance(value, list) and value and all(isinstance(v, str) for v in value)):
        return [f"{where}: {key} must be a list of names"]
    return [f"{where}: {key} names {v!r}, which is not known" for v in value if v not in known]


def prerequisite_problems(name: str, raw: Any, words: Vocabulary) -> list[str]:
    """Every problem of one artefact's ``prerequisite``: an unknown field, a wrong type, an unknown name."""
    where = f"artefacts.yaml {name} prerequisite"
    if not isinstance(raw, dict):
        return [f"{where}: must be a mapping of the fields {', '.join(FIELDS)}"]
    problems = [f"{where}: unknown field {k!r}" for k in raw if k not in FIELDS]
    if not str(raw.get("source", "")).startswith("rulebook:"):
        problems.append(f"{where}: source must cite the rulebook's line (rulebook:N)")
    for key in _FLAGS:
        if key in raw and raw[key] is not True:
            problems.append(f"{where}: {key} is written only as true")
    lists = {"requires": words.artefacts, "requires_any": words.artefacts, "not_in_play": words.artefacts,
             "controls": words.regions, "terrain": words.terrains}
    for key in _LISTS:
        if key in raw:
            problems += _list_problems(where, key, raw[key], lists[key])
    if "disordered_area" in raw and not isinstance(raw["disordered_area"], bool):
        problems.append(f"{where}: disordered_area is true or false")
    for key, known in (("within_range_of", words.places), ("lacks_leader", words.leader_kinds),
                       ("canal", words.canals)):
        if key in raw and raw[key] not in known:
            problems.append(f"{where}: {key} names {raw[key]!r}, which is not known")
    if "shared_religion" in raw and not (isinstance(raw["shared_religion"], int)
                                         and 2 <= raw["shared_religion"] <= 5):
        problems.append(f"{where}: shared_religion is a number of empires from 2 to 5")
    early = raw.get("earlier_if")
    if early is not None:
        if not (isinstance(early, dict) and set(early) == {"age", "requires"}
                and isinstance(early["age"], int) and 1 <= early["age"] <= 7):
            problems.append(f"{where}: earlier_if is {{age: 1-7, requires: [artefact, ...]}}")
        else:
            problems += _list_problems(where, "earlier_if requires", early["requires"], words.artefacts)
    return problems
