"""Typed, strictly validated rules data of History of the World (classic).

Reads ``data/history/classic/{empires,cards,scoring,components}.yaml``; the
map lives in :mod:`engine.history.worldmap`. Every loader collects all the
problems it finds so ``python -m engine check-data`` can list them at once.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from engine.core import DataError
from engine.history.worldmap import WorldMap, load_map
from engine.words import roman

DATA_DIR = Path(__file__).resolve().parents[2] / "data" / "history" / "classic"
EPOCHS = range(1, 8)
#: Epoch numerals by number (index 0 unused), from the one shared helper; the board renderer reads it.
ROMAN: tuple[str, ...] = ("", *(roman(e) for e in EPOCHS))

EFFECTS = frozenset(
    {
        "reallocation", "leader", "weaponry", "minor_empire", "kingdom", "migrants",
        "civil_war", "barbarians", "jewish_revolt", "siegecraft", "crusade", "black_death",
        "treachery", "elite_troops", "naval_power", "engineering", "expert_troops",
        "population_explosion", "famine", "plague", "pestilence", "jihad", "disaster",
        "civil_service", "astronomy", "allies",
    }
)


"""The classic data's error is the one every game raises (kept under its old name for callers)."""


@dataclass(frozen=True)
class Empire:
    """One empire card (or a Minor Empire's statistics).

    ``starts`` usually holds one land; the Incas & Aztecs card of epoch VI
    starts in two, with a capital and a first army in each.
    """

    key: str
    name: str
    epoch: int
    order: int
    leader: str
    strength: int
    starts: tuple[str, ...]
    capital: bool
    fleets: tuple[str, ...]


@dataclass(frozen=True)
class CardType:
    """One kind of event card; a deck holds ``count`` copies of it."""

    id: str
    name: str
    deck: str
    effect: str
    count: int
    epochs: frozenset[int]
    before_first_army: bool
    text: str
    params: Mapping[str, Any]
    aliases: tuple[str, ...]
    minor: Empire | None = None


@dataclass(frozen=True)
class RulesData:
    """Everything the classic rules read from data, cross-checked against the map."""

    map: WorldMap
    epochs: Mapping[int, tuple[Empire, ...]]
    empires: Mapping[str, Empire]
    cards: Mapping[str, CardType]
    area_values: Mapping[str, tuple[int, ...]]
    level_factor: Mapping[str, int]
    structure_points: Mapping[str, int]
    armies_per_epoch: tuple[int, ...]
    capitals_cities: int
    forts: int
    monuments: int
    fleets_coins: int
    markers: tuple[int, ...]
    greater_per_player: int
    lesser_per_player: int
    far_epochs: tuple[tuple[int, ...], ...]
    epoch_names: Mapping[int, str]

    def area_value(self, area: str, epoch: int) -> int:
        return self.area_values[area][epoch - 1]

    def far(self, epoch: int) -> tuple[int, ...]:
        """The far-away epochs whose pieces event armies may use in ``epoch`` (Chapter IV)."""
        return self.far_epochs[epoch - 1]

    def card(self, name: str) -> CardType:
        """Find a card type by id, name or alias (case-insensitive)."""
        wanted = name.strip().lower()
        for card in self.cards.values():
            if wanted in (card.id, card.name.lower(), *(a.lower() for a in card.aliases)):
                return card
        raise KeyError(f"There is no event card called {name!r}.")


def _read(name: str, problems: list[str], base: Path) -> Any:
    path = base / name
    try:
        with path.open(encoding="utf-8") as fh:
            return yaml.safe_load(fh)
    except (OSError, yaml.YAMLError) as exc:
        problems.append(f"{name}: cannot read: {exc}")
        return None


def _epochs(value: Any, where: str, problems: list[str]) -> frozenset[int]:
    if not isinstance(value, list) or not value or not all(v in EPOCHS for v in value):
        problems.append(f"{where}: epochs must be a non-empty list of 1..7, got {value!r}")
        return frozenset()
    return frozenset(value)


def _empire(
    raw: Any, key: str, epoch: int, order: int, where: str, wmap: WorldMap, problems: list[str]
) -> Empire | None:
    if not isinstance(raw, dict):
        problems.append(f"{where}: expected a mapping")
        return None
    allowed = {"name", "leader", "strength", "start", "starts", "capital", "fleets", "aliases"}
    for extra in sorted(set(raw) - allowed):
        problems.append(f"{where}: unknown key {extra!r}")
    starts_raw = raw.get("starts", [raw.get("start")])
    starts: list[str] = []
    for land in starts_raw if isinstance(starts_raw, list) else []:
        try:
            starts.append(wmap.resolve_land(str(land)))
        except KeyError:
            problems.append(f"{where}: unknown start land {land!r}")
    fleets: list[str] = []
    for water in raw.get("fleets") or []:
        try:
            fleets.append(wmap.resolve_water(str(water)))
        except KeyError:
            problems.append(f"{where}: unknown fleet water {water!r}")
    strength = raw.get("strength")
    if not isinstance(strength, int) or strength < 1:
        problems.append(f"{where}: strength must be a positive integer")
        strength = 1
    if not starts:
        problems.append(f"{where}: no start land")
    return Empire(
        key=key,
        name=str(raw.get("name", key)),
        epoch=epoch,
        order=order,
        leader=str(raw.get("leader", "")),
        strength=strength,
        starts=tuple(starts),
        capital=bool(raw.get("capital", False)),
        fleets=tuple(fleets),
    )


def _load_empires(raw: Any, wmap: WorldMap, problems: list[str]) -> dict[int, tuple[Empire, ...]]:
    epochs: dict[int, tuple[Empire, ...]] = {}
    table = raw.get("epochs") if isinstance(raw, dict) else None
    if not isinstance(table, dict):
        problems.append("empires.yaml: missing 'epochs' mapping")
        return epochs
    for epoch in EPOCHS:
        entry = table.get(epoch)
        listed = entry.get("empires") if isinstance(entry, dict) else None
        if not isinstance(listed, list) or not listed:
            problems.append(f"empires.yaml: epoch {epoch} has no empires")
            continue
        built = []
        for order, item in enumerate(listed):
            name = item.get("name", "?") if isinstance(item, dict) else "?"
            where = f"empires.yaml: epoch {epoch} empire {name!r}"
            empire = _empire(item, f"{epoch}:{name}", epoch, order, where, wmap, problems)
            if empire:
                built.append(empire)
        epochs[epoch] = tuple(built)
    return epochs


def _load_cards(raw: Any, wmap: WorldMap, problems: list[str]) -> dict[str, CardType]:
    cards: dict[str, CardType] = {}
    if not isinstance(raw, dict):
        problems.append("cards.yaml: expected a mapping with 'greater' and 'lesser'")
        return cards
    base_keys = {"id", "name", "effect", "count", "epochs", "before_first_army", "text", "aliases"}
    for deck in ("greater", "lesser"):
        for item in raw.get(deck) or []:
            cid = item.get("id") if isinstance(item, dict) else None
            where = f"cards.yaml: {deck} card {cid!r}"
            if not isinstance(item, dict) or not isinstance(cid, str):
                problems.append(f"{where}: each card needs an id")
                continue
            if cid in cards:
                problems.append(f"{where}: duplicate id")
            effect = item.get("effect")
            if effect not in EFFECTS:
                problems.append(f"{where}: unknown effect {effect!r}")
                continue
            params = {k: v for k, v in item.items() if k not in base_keys}
            for key in params:
                if key not in (effect, "coins"):
                    problems.append(f"{where}: unknown key {key!r}")
            count = item.get("count")
            if not isinstance(count, int) or count < 1:
                problems.append(f"{where}: count must be a positive integer")
                count = 1
            block = params.get(effect)
            minor = None
            if effect == "minor_empire":
                epochs = _epochs(item.get("epochs"), where, problems)
                minor = _empire(
                    {"name": item.get("name"), **(block or {})},
                    f"minor:{cid}", min(epochs or {1}), 0, where, wmap, problems,
                )
            for land_key in ("land", "target"):
                if isinstance(block, dict) and land_key in block:
                    try:
                        block[land_key] = wmap.resolve_land(str(block[land_key]))
                    except KeyError:
                        problems.append(f"{where}: unknown land {block[land_key]!r}")
            if isinstance(block, dict) and "area" in block and block["area"] not in wmap.areas:
                problems.append(f"{where}: unknown area {block['area']!r}")
            if isinstance(block, dict) and "sea" in block:
                try:
                    block["sea"] = wmap.resolve_water(str(block["sea"]))
                except KeyError:
                    problems.append(f"{where}: unknown sea {block['sea']!r}")
            cards[cid] = CardType(
                id=cid,
                name=str(item.get("name", cid)),
                deck=deck,
                effect=effect,
                count=count,
                epochs=_epochs(item.get("epochs"), where, problems),
                before_first_army=bool(item.get("before_first_army", False)),
                text=str(item.get("text", "")).strip(),
                params=params,
                aliases=tuple(str(a) for a in item.get("aliases") or ()),
                minor=minor,
            )
    return cards


def validate(base: Path | None = None, wmap: WorldMap | None = None) -> tuple[RulesData | None, list[str]]:
    """Load and cross-check all classic rules data; return it with every problem found."""
    base = base or DATA_DIR
    problems: list[str] = []
    wmap = wmap or load_map()
    empires_raw = _read("empires.yaml", problems, base)
    cards_raw = _read("cards.yaml", problems, base)
    scoring = _read("scoring.yaml", problems, base) or {}
    comps = _read("components.yaml", problems, base) or {}
    epochs = _load_empires(empires_raw, wmap, problems)
    cards = _load_cards(cards_raw, wmap, problems)

    area_values: dict[str, tuple[int, ...]] = {}
    for area in wmap.areas:
        values = (scoring.get("areas") or {}).get(area)
        if not isinstance(values, list) or len(values) != 7:
            problems.append(f"scoring.yaml: area {area!r} needs 7 epoch values")
            values = [0] * 7
        area_values[area] = tuple(int(v) for v in values)
    for area in set(scoring.get("areas") or {}) - set(wmap.areas):
        problems.append(f"scoring.yaml: unknown area {area!r}")

    for deck, want in (("greater", 22), ("lesser", 49)):
        total = sum(c.count for c in cards.values() if c.deck == deck)
        if total != want:
            problems.append(f"cards.yaml: {deck} deck has {total} cards, the rulebook has {want}")
    for epoch, listed in epochs.items():
        if len(listed) != 7:
            problems.append(f"empires.yaml: epoch {epoch} has {len(listed)} empire cards, not 7")
    armies = tuple(comps.get("armies_per_epoch") or ())
    if len(armies) != 7:
        problems.append("components.yaml: armies_per_epoch needs 7 values")
        armies = (20,) * 7
    for listed in epochs.values():
        for empire in listed:
            if empire.strength > armies[empire.epoch - 1]:
                problems.append(
                    f"empires.yaml: {empire.name} has strength {empire.strength}, "
                    f"more than the {armies[empire.epoch - 1]} pieces of its epoch"
                )
    far = comps.get("far_epochs")
    if not isinstance(far, list) or len(far) != 7 or not all(
        isinstance(pair, list) and pair and all(isinstance(e, int) and 1 <= e <= 7 for e in pair)
        for pair in far
    ):
        problems.append("components.yaml: far_epochs needs 7 lists of epochs (1 to 7), one per epoch")
    if problems:
        return None, problems
    per = comps.get("event_cards_per_player") or {}
    data = RulesData(
        map=wmap,
        epochs=epochs,
        empires={e.key: e for listed in epochs.values() for e in listed},
        cards=cards,
        area_values=area_values,
        level_factor=dict(scoring.get("levels") or {}),
        structure_points=dict(scoring.get("structures") or {}),
        armies_per_epoch=armies,
        capitals_cities=int(comps["capitals_cities"]),
        forts=int(comps["forts"]),
        monuments=int(comps["monuments"]),
        fleets_coins=int(comps["fleets_coins"]),
        markers=tuple(int(v) for v in comps["preeminence_markers"]),
        greater_per_player=int(per.get("greater", 3)),
        lesser_per_player=int(per.get("lesser", 7)),
        far_epochs=tuple(tuple(int(v) for v in pair) for pair in comps["far_epochs"]),
        epoch_names={e: f"Epoch {roman(e)}" for e in EPOCHS},
    )
    return data, []


@lru_cache(maxsize=1)
def load_rules() -> RulesData:
    """The validated classic rules data (cached); raises DataError listing all problems."""
    data, problems = validate()
    if data is None:
        raise DataError(problems)
    return data


def check_data() -> list[str]:
    """Every problem in the classic map and rules data (empty when all is well)."""
    try:
        wmap = load_map()
    except DataError as exc:
        return list(exc.problems)
    _, problems = validate(wmap=wmap)
    return problems
