"""Typed rules data of the 5-epoch edition: empires, event cards, region tokens, components.

The map is a :class:`engine.history.worldmap.WorldMap` (the classic loader reads
``data/history/epochs5/map.yaml`` unchanged: its ``areas`` are this edition's
regions). The map and the empire cards come from :mod:`.empires`; event cards,
the Victory Point Table and the box contents from this package's own YAML
files, validated strictly here. Tests build :class:`Rules` by hand on
small maps with :func:`make_rules`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from engine.core import DataError
from engine.history.epochs5.empires import Empire, load_empires, load_world
from engine.history.worldmap import WorldMap

DATA_DIR = Path(__file__).resolve().parents[3] / "data" / "history" / "epochs5"
EPOCHS = range(1, 6)

#: Effects an event card may have (see :mod:`engine.history.epochs5.cards`).
EVENT_EFFECTS = frozenset(
    {
        "kingdom",
        "fortify",
        "reinforce",
        "siege",
        "reroll",
        "assault",
        "ignore_terrain",
        "fleet",
        "caravan",
        "monument",
        "city",
        "diplomacy",
        "revolution",
        "barbarians",
        "disaster",
    }
)
@dataclass(frozen=True)
class EventCard:
    """One event card. ``kingdom`` is set for kingdom cards (a minor empire's front)."""

    id: str
    name: str
    epoch: int
    effect: str
    savable: bool
    text: str
    params: Mapping[str, Any]
    design: str
    kingdom: Empire | None = None

    @property
    def is_kingdom(self) -> bool:
        return self.effect == "kingdom"


@dataclass(frozen=True)
class RegionToken:
    """A region token: its presence value from epoch ``first`` to ``last``."""

    region: str
    first: int
    last: int
    value: int


@dataclass(frozen=True)
class Rules:
    """Everything the 5-epoch rules read from data."""

    map: WorldMap
    epochs: Mapping[int, tuple[Empire, ...]]
    events: Mapping[str, EventCard]
    tokens: tuple[RegionToken, ...]
    level_factor: Mapping[str, int]
    structure_points: Mapping[str, int]
    armies_per_player: int = 25
    structures: int = 24
    monuments: int = 20
    forts: int = 14
    empires: Mapping[str, Empire] = field(default_factory=dict)

    def __post_init__(self) -> None:
        index = {e.key: e for listed in self.epochs.values() for e in listed}
        for card in self.events.values():
            if card.kingdom is not None:
                index[card.kingdom.key] = card.kingdom
        object.__setattr__(self, "empires", index)

    def token(self, region: str, epoch: int) -> RegionToken | None:
        """The region token on the board during ``epoch`` (None: the region scores nothing)."""
        for tok in self.tokens:
            if tok.region == region and tok.first <= epoch <= tok.last:
                return tok
        return None

    def region_value(self, region: str, epoch: int) -> int:
        tok = self.token(region, epoch)
        return tok.value if tok else 0

    def events_of(self, epoch: int) -> list[str]:
        return [c.id for c in self.events.values() if c.epoch == epoch]


def make_rules(
    wmap: WorldMap,
    empires: Iterable[Empire],
    events: Iterable[EventCard] = (),
    tokens: Iterable[RegionToken] | None = None,
    armies_per_player: int = 25,
    structures: int = 24,
    monuments: int = 20,
    forts: int = 14,
) -> Rules:
    """Rules assembled from parts (tests); tokens default to value 1 for every region and epoch."""
    by_epoch: dict[int, list[Empire]] = {e: [] for e in EPOCHS}
    for emp in empires:
        by_epoch[emp.epoch].append(emp)
    if tokens is None:
        tokens = [RegionToken(region, 1, 5, 1) for region in wmap.areas]
    return Rules(
        map=wmap,
        epochs={e: tuple(sorted(v, key=lambda x: x.order)) for e, v in by_epoch.items()},
        events={c.id: c for c in events},
        tokens=tuple(tokens),
        level_factor={"presence": 1, "dominance": 2, "supremacy": 3},
        structure_points={"capitol": 2, "city": 1, "monument": 1},
        armies_per_player=armies_per_player,
        structures=structures,
        monuments=monuments,
        forts=forts,
    )


# -- loading the YAML -----------------------------------------------------------------------


def _read(base: Path, name: str, problems: list[str]) -> Any:
    try:
        with (base / name).open(encoding="utf-8") as fh:
            return yaml.safe_load(fh)
    except (OSError, yaml.YAMLError) as exc:
        problems.append(f"{name}: cannot read: {exc}")
        return None


def _land(wmap: WorldMap, name: Any, where: str, problems: list[str]) -> str | None:
    try:
        land = wmap.resolve_land(str(name))
    except KeyError:
        problems.append(f"{where}: unknown territory {name!r}")
        return None
    return land


def _water(wmap: WorldMap, name: Any, where: str, problems: list[str]) -> str | None:
    try:
        return wmap.resolve_water(str(name))
    except KeyError:
        problems.append(f"{where}: unknown sea or ocean {name!r}")
        return None


def load_tokens(raw: Any, wmap: WorldMap, problems: list[str]) -> tuple[RegionToken, ...]:
    """Region tokens from the Victory Point Table: a token per run of equal values."""
    table = raw.get("regions") if isinstance(raw, dict) else None
    if not isinstance(table, dict):
        problems.append("scoring.yaml: missing 'regions' table")
        return ()
    tokens: list[RegionToken] = []
    for region in wmap.areas:
        values = table.get(region)
        if not isinstance(values, list) or len(values) != 5:
            problems.append(f"scoring.yaml: region {region!r} needs 5 epoch values (null: no token)")
            continue
        epoch = 1
        while epoch <= 5:
            value = values[epoch - 1]
            last = epoch
            while last < 5 and values[last] == value:
                last += 1
            if value is not None:
                tokens.append(RegionToken(region, epoch, last, int(value)))
            epoch = last + 1
    for region in set(table) - set(wmap.areas):
        problems.append(f"scoring.yaml: unknown region {region!r}")
    return tuple(tokens)


def _kingdom(
    raw: Any, cid: str, name: str, epoch: int, design: str, wmap: WorldMap, problems: list[str]
) -> Empire | None:
    where = f"events.yaml: kingdom {cid!r}"
    if not isinstance(raw, dict):
        problems.append(f"{where}: needs a 'kingdom' mapping")
        return None
    starts = [s for s in (_land(wmap, x, where, problems) for x in raw.get("starts") or []) if s]
    for land in starts:
        if wmap.lands[land].barren:
            problems.append(f"{where}: start {land} is barren")
    if not starts:
        problems.append(f"{where}: no start territory")
    # "Some kingdoms are established with a city instead of a capitol": every kingdom has one of them.
    structure = raw.get("structure")
    if structure not in ("capitol", "city"):
        problems.append(f"{where}: structure must be capitol or city")
    armies = raw.get("armies")
    if not isinstance(armies, int) or armies < 1:
        problems.append(f"{where}: armies must be a positive integer")
        armies = 1
    fleets = [w for w in (_water(wmap, x, where, problems) for x in raw.get("fleets") or []) if w]
    caravans = [c for c in (_land(wmap, x, where, problems) for x in raw.get("caravans") or []) if c]
    for land in caravans:
        if not wmap.lands[land].barren:
            problems.append(f"{where}: caravan land {land} is not barren")
    return Empire(
        key=f"kingdom:{cid}",
        name=name,
        epoch=epoch,
        order=-1,
        armies=armies,
        starts=tuple(starts),
        structure=str(structure) if structure else None,
        fleets=tuple(fleets),
        caravans=tuple(caravans),
        design=design,  # the kingdom's front is part of its event card
    )


def load_events(raw: Any, wmap: WorldMap, problems: list[str]) -> dict[str, EventCard]:
    cards: dict[str, EventCard] = {}
    listed = raw.get("events") if isinstance(raw, dict) else None
    if not isinstance(listed, list):
        problems.append("events.yaml: missing 'events' list")
        return cards
    allowed = {"id", "name", "epoch", "effect", "savable", "text", "design", "kingdom", "params"}
    for item in listed:
        cid = item.get("id") if isinstance(item, dict) else None
        if not isinstance(cid, str):
            problems.append("events.yaml: every card needs an id")
            continue
        where = f"events.yaml: card {cid!r}"
        for extra in sorted(set(item) - allowed):
            problems.append(f"{where}: unknown key {extra!r}")
        if cid in cards:
            problems.append(f"{where}: duplicate id")
        effect = item.get("effect")
        if effect not in EVENT_EFFECTS:
            problems.append(f"{where}: unknown effect {effect!r}")
            continue
        epoch = item.get("epoch")
        if epoch not in EPOCHS:
            problems.append(f"{where}: epoch must be 1..5")
            continue
        design = str(item.get("design", "rulebook"))
        if design not in ("rulebook", "ours"):
            problems.append(f"{where}: design must be 'rulebook' or 'ours'")
        params = dict(item.get("params") or {})
        kingdom = None
        if effect == "kingdom":
            name = str(item.get("name", cid))
            kingdom = _kingdom(item.get("kingdom"), cid, name, epoch, design, wmap, problems)
            if item.get("savable"):
                problems.append(f"{where}: a kingdom cannot be saved for later epochs")
        cards[cid] = EventCard(
            id=cid,
            name=str(item.get("name", cid)),
            epoch=epoch,
            effect=effect,
            savable=bool(item.get("savable", False)),
            text=" ".join(str(item.get("text", "")).split()),
            params=params,
            design=design,
            kingdom=kingdom,
        )
    for epoch in EPOCHS:
        count = sum(1 for c in cards.values() if c.epoch == epoch)
        if count != 8:
            problems.append(f"events.yaml: epoch {epoch} has {count} event cards, the box has 8")
    return cards


def _world(problems: list[str]) -> WorldMap | None:
    try:
        return load_world()
    except DataError as exc:
        problems.extend(f"map.yaml: {p}" for p in exc.problems)
    except OSError as exc:
        problems.append(f"map.yaml: cannot read: {exc}")
    return None


def _empires(problems: list[str]) -> dict[int, tuple[Empire, ...]]:
    try:
        return dict(load_empires())
    except DataError as exc:
        problems.extend(exc.problems)
    except OSError as exc:
        problems.append(f"empires.yaml: cannot load: {exc}")
    return {}


def validate(base: Path | None = None, wmap: WorldMap | None = None) -> tuple[Rules | None, list[str]]:
    """Load and cross-check the 5-epoch data; return it with every problem found."""
    base = base or DATA_DIR
    problems: list[str] = []
    if wmap is None:
        wmap = _world(problems)
    if wmap is None:
        return None, problems
    epochs = _empires(problems)
    events = load_events(_read(base, "events.yaml", problems), wmap, problems)
    scoring = _read(base, "scoring.yaml", problems) or {}
    comps = _read(base, "components.yaml", problems) or {}
    tokens = load_tokens(scoring, wmap, problems)
    if len(tokens) != int(comps.get("region_tokens", 32)):
        problems.append(f"scoring.yaml: the table makes {len(tokens)} region tokens, the box has 32")
    levels = scoring.get("levels") or {}
    if set(levels) != {"presence", "dominance", "supremacy"}:
        problems.append("scoring.yaml: levels must be presence, dominance and supremacy")
    structure_points = scoring.get("structures") or {}
    if set(structure_points) != {"capitol", "city", "monument"}:
        problems.append("scoring.yaml: structures must be capitol, city and monument")
    for key in ("armies_per_player", "capitols_cities", "monuments", "forts"):
        if not isinstance(comps.get(key), int):
            problems.append(f"components.yaml: {key} must be an integer")
    if problems:
        return None, problems
    return (
        Rules(
            map=wmap,
            epochs=epochs,
            events=events,
            tokens=tokens,
            level_factor={k: int(v) for k, v in levels.items()},
            structure_points={k: int(v) for k, v in structure_points.items()},
            armies_per_player=int(comps["armies_per_player"]),
            structures=int(comps["capitols_cities"]),
            monuments=int(comps["monuments"]),
            forts=int(comps["forts"]),
        ),
        [],
    )


@lru_cache(maxsize=1)
def load_rules() -> Rules:
    """The validated 5-epoch rules data (cached); raises DataError listing all problems."""
    data, problems = validate()
    if data is None:
        raise DataError(problems)
    return data


def check_data() -> list[str]:
    """Every problem in the 5-epoch data (empty when all is well)."""
    return validate()[1]
