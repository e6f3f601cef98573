"""The 5-epoch edition's map and empire cards: the one loader, with strict validation, and the one
:class:`Empire` type (an empire card, or the front of a kingdom card).

Reads ``data/history/epochs5/map.yaml`` (with :mod:`engine.history.worldmap`)
and ``data/history/epochs5/empires.yaml`` (the 40 empire cards). Every check
collects all the problems it finds, so ``check_data()`` lists them at once.

File format of ``empires.yaml``::

    epochs:
      1:
        name: Epoch I
        empires:
          - name: Assyrians
            order: 5                     # place in the epoch's call order, 1..8
            leader: Ashurbanipal         # optional, may be null
            reign: 669-631 BCE           # optional: the leader's years, as the card shows them
            armies: 6
            start: [Mesopotamia]         # one territory, or two (Mesoamericans)
            structure: capitol           # or null: no capitol (a marauder must say so)
            marauder: false              # true: the torch icon (no capitol; a point per reduction)
            fleets: []                   # waters where fleets are placed
            caravans: [Empty Quarter]    # barren lands where caravans are placed
            effect:                      # optional
              id: fortify_per_resource   # one of EMPIRE_EFFECTS
              name: Siege Masters
              text: ...
              params: {}                 # optional
            design: rulebook             # or ours (the whole card is our design)
            ours: [leader]               # optional, rulebook cards only: fields we filled in
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Final

import yaml

from engine.core import DataError
from engine.history.worldmap import WorldMap, load_map

DATA_DIR: Final = Path(__file__).resolve().parents[3] / "data" / "history" / "epochs5"
MAP_PATH: Final = DATA_DIR / "map.yaml"
EMPIRES_PATH: Final = DATA_DIR / "empires.yaml"

EPOCHS: Final = (1, 2, 3, 4, 5)
EMPIRES_PER_EPOCH: Final = 8
#: A player has 25 armies ("Component Limitations"); no card can ask for more.
MAX_ARMIES: Final = 25

#: Empire effects the data may name (the 5-epoch rules engine implements them).
EMPIRE_EFFECTS: Final = frozenset(
    {
        "fortify_per_resource",  # Assyrians: a fort per resource territory held
        "monument_per_resource",  # Egyptians' Pyramids: a monument per resource territory
        "invade_after_battle",  # Turks: after a battle won, invade a territory next to it
        "reroll",  # reroll one of your dice in each battle
        "assault",  # +1 to your highest die in each battle you fight as invader
        "ignore_terrain",  # defenders never get the terrain effect
        "naval_assault",  # +1 to your highest die in fleet invasions
        "extra_armies_per_capitol",  # an army more per capitol the player's armies hold
    }
)
DESIGNS: Final = ("rulebook", "ours")
STRUCTURES: Final = ("capitol", None)

_EMPIRE_KEYS: Final = frozenset(
    {
        "name",
        "order",
        "leader",
        "reign",
        "armies",
        "start",
        "structure",
        "marauder",
        "fleets",
        "caravans",
        "effect",
        "design",
        "ours",
    }
)
_EMPIRE_REQUIRED: Final = frozenset(
    {"name", "order", "armies", "start", "structure", "fleets", "caravans", "design"}
)
_OURS_FIELDS: Final = frozenset(_EMPIRE_KEYS - {"name", "design", "ours"})
_EFFECT_KEYS: Final = frozenset({"id", "name", "text", "params"})


@dataclass(frozen=True)
class Empire:
    """An empire card of the 5-epoch edition, or the front of a kingdom event card.

    Attributes:
        key: Stable identifier (``"zhou_dynasty"``; ``"kingdom:<card id>"`` for a kingdom).
        name: The empire, as the rulebook spells it.
        epoch: 1..5.
        order: Place in the epoch's call order (1 is called first; -1 for a kingdom).
        armies: Armies gathered when the empire is established.
        starts: Start territories (two for the Mesoamericans).
        structure: The piece placed in each start: ``"capitol"``, ``"city"`` (some
            kingdoms) or None.
        fleets: Waters where the card places a fleet.
        caravans: Barren lands where the card places a caravan.
        effect: The rules engine's id of the card's effect (one of :data:`EMPIRE_EFFECTS`), if any.
        params: The effect's parameters.
        marauder: The card shows a torch: no capitol, and a point for each structure
            reduced in battle. Only the torch makes a marauder, never a missing structure.
        effect_name: The effect's title on the card ("Pyramids").
        effect_text: What the effect does, in our words.
        leader: The leader on the card, or None.
        reign: The leader's years as the card shows them ("1279-1213 BCE"), or None.
        design: ``"rulebook"`` or ``"ours"``.
        ours: For a rulebook card, the fields we filled in ourselves.
    """

    key: str
    name: str
    epoch: int
    order: int
    armies: int
    starts: tuple[str, ...]
    structure: str | None
    fleets: tuple[str, ...] = ()
    caravans: tuple[str, ...] = ()
    effect: str | None = None
    params: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    marauder: bool = False
    effect_name: str = ""
    effect_text: str = ""
    leader: str | None = None
    reign: str | None = None
    design: str = "rulebook"
    ours: tuple[str, ...] = ()


def empire_key(name: str) -> str:
    """The stable key of an empire name: ``"Zhou Dynasty"`` -> ``"zhou_dynasty"``."""
    return re.sub(r"[^a-z0-9]+", "_", name.casefold()).strip("_")


def _is_name(value: object) -> bool:
    return isinstance(value, str) and bool(value.strip()) and value == value.strip()


def _name_list(value: object, where: str, what: str, problems: list[str]) -> list[str]:
    if not isinstance(value, list):
        problems.append(f"{where}: {what} must be a list, got {value!r}")
        return []
    good: list[str] = []
    for item in value:
        if not _is_name(item):
            problems.append(f"{where}: {what} entry {item!r} is not a name")
        elif item in good:
            problems.append(f"{where}: {what} lists {item} twice")
        else:
            good.append(str(item))
    return good


_Effect = tuple[str, str, str, Mapping[str, Any]]  # id, name, text, params


def _check_effect(raw: object, where: str, problems: list[str]) -> _Effect | None:
    if raw is None:
        return None
    if not isinstance(raw, Mapping):
        problems.append(f"{where}: effect must be a mapping, got {raw!r}")
        return None
    for key in raw:
        if key not in _EFFECT_KEYS:
            problems.append(f"{where}: effect has unknown key {key!r}")
    ok = True
    effect_id = raw.get("id")
    if effect_id not in EMPIRE_EFFECTS:
        problems.append(f"{where}: effect id {effect_id!r} is not one of {sorted(EMPIRE_EFFECTS)}")
        ok = False
    for key in ("name", "text"):
        if not _is_name(raw.get(key)):
            problems.append(f"{where}: effect {key} must be a non-empty string")
            ok = False
    params = raw.get("params", {})
    if not isinstance(params, Mapping):
        problems.append(f"{where}: effect params must be a mapping")
        ok = False
    if not ok:
        return None
    return (
        str(effect_id),
        str(raw["name"]),
        " ".join(str(raw["text"]).split()),
        MappingProxyType(dict(params)),
    )


def _check_card(
    raw: Mapping[Any, Any], epoch: int, where: str, world: WorldMap, problems: list[str]
) -> Empire | None:
    before = len(problems)
    for key in raw:
        if key not in _EMPIRE_KEYS:
            problems.append(f"{where}: unknown key {key!r}")
    for key in sorted(_EMPIRE_REQUIRED - set(raw)):
        problems.append(f"{where}: missing key {key!r}")
    name = raw.get("name")
    if not _is_name(name):
        problems.append(f"{where}: name must be a non-empty trimmed string, got {name!r}")
    order = raw.get("order")
    if not isinstance(order, int) or isinstance(order, bool) or not 1 <= order <= EMPIRES_PER_EPOCH:
        problems.append(f"{where}: order must be 1..{EMPIRES_PER_EPOCH}, got {order!r}")
    leader = raw.get("leader")
    if leader is not None and not _is_name(leader):
        problems.append(f"{where}: leader must be a name or null, got {leader!r}")
    reign = raw.get("reign")
    if reign is not None and not _is_name(reign):
        problems.append(f"{where}: reign must be a string or null, got {reign!r}")
    if reign is not None and leader is None:
        problems.append(f"{where}: a reign needs a leader")
    armies = raw.get("armies")
    if not isinstance(armies, int) or isinstance(armies, bool) or not 1 <= armies <= MAX_ARMIES:
        problems.append(f"{where}: armies must be 1..{MAX_ARMIES}, got {armies!r}")
    starts = _name_list(raw.get("start"), where, "start", problems)
    if not 1 <= len(starts) <= 2:
        problems.append(f"{where}: start must name one or two territories, got {len(starts)}")
    for land in starts:
        if land not in world.lands:
            problems.append(f"{where}: unknown start territory {land!r}")
        elif world.lands[land].barren:
            problems.append(f"{where}: start territory {land} is a barren land")
    structure = raw.get("structure")
    if structure not in STRUCTURES:
        problems.append(f"{where}: structure must be capitol or null (marauder), got {structure!r}")
    # The card's bottom-right icon is a capitol or a torch ("A marauder has a torch ... and
    # does not receive a capitol"): the data says both, and they must agree.
    marauder = raw.get("marauder", False)
    if not isinstance(marauder, bool):
        problems.append(f"{where}: marauder must be true or false, got {marauder!r}")
    elif marauder == (structure == "capitol"):
        problems.append(
            f"{where}: a card shows a capitol or a torch: a marauder has no capitol, "
            "every other empire has one"
        )
    fleets = _name_list(raw.get("fleets"), where, "fleets", problems)
    for water in fleets:
        if water not in world.waters:
            problems.append(f"{where}: unknown sea or ocean {water!r} for a fleet")
        elif not world.waters[water].fleets:
            problems.append(f"{where}: no fleet may be placed in {water}")
    caravans = _name_list(raw.get("caravans"), where, "caravans", problems)
    for land in caravans:
        if land not in world.lands:
            problems.append(f"{where}: unknown barren land {land!r} for a caravan")
        elif not world.lands[land].barren:
            problems.append(f"{where}: caravan land {land} is not a barren land")
    if isinstance(armies, int) and armies < len(starts):
        problems.append(f"{where}: {armies} armies cannot cover {len(starts)} start territories")
    effect = _check_effect(raw.get("effect"), where, problems)
    design = raw.get("design")
    if design not in DESIGNS:
        problems.append(f"{where}: design must be one of {list(DESIGNS)}, got {design!r}")
    ours: list[str] = []
    if "ours" in raw:
        ours = _name_list(raw.get("ours"), where, "ours", problems)
        if design == "ours":
            problems.append(f"{where}: 'ours' lists fields of a rulebook card; this card is all ours")
        for item in ours:
            if item not in _OURS_FIELDS:
                problems.append(f"{where}: 'ours' names unknown field {item!r}")
    if len(problems) != before:
        return None
    effect_id, effect_name, effect_text, params = effect or (None, "", "", MappingProxyType({}))
    return Empire(
        key=empire_key(str(name)),
        name=str(name),
        epoch=epoch,
        order=int(order),  # type: ignore[arg-type]  # checked above
        armies=int(armies),  # type: ignore[arg-type]  # checked above
        starts=tuple(starts),
        structure=None if structure is None else str(structure),
        fleets=tuple(fleets),
        caravans=tuple(caravans),
        effect=effect_id,
        params=params,
        marauder=bool(marauder),
        effect_name=effect_name,
        effect_text=effect_text,
        leader=None if leader is None else str(leader),
        reign=None if reign is None else str(reign),
        design=str(design),
        ours=tuple(ours),
    )


def _validate(raw: object, world: WorldMap) -> tuple[list[str], dict[int, tuple[Empire, ...]]]:
    problems: list[str] = []
    if not isinstance(raw, Mapping):
        return [f"the empire data must be a mapping, got {type(raw).__name__}"], {}
    for key in raw:
        if key != "epochs":
            problems.append(f"empires: unknown top-level key {key!r}")
    table = raw.get("epochs")
    if not isinstance(table, Mapping):
        return [*problems, f"epochs: must be a mapping of epoch -> entry, got {table!r}"], {}
    for key in table:
        if key not in EPOCHS:
            problems.append(f"epochs: {key!r} is not an epoch (1..5)")
    result: dict[int, tuple[Empire, ...]] = {}
    keys: dict[str, str] = {}
    for epoch in EPOCHS:
        entry = table.get(epoch)
        where = f"epoch {epoch}"
        if not isinstance(entry, Mapping):
            problems.append(f"{where}: missing or not a mapping")
            continue
        for key in entry:
            if key not in ("name", "empires"):
                problems.append(f"{where}: unknown key {key!r}")
        listed = entry.get("empires")
        if not isinstance(listed, list):
            problems.append(f"{where}: empires must be a list")
            continue
        if len(listed) != EMPIRES_PER_EPOCH:
            problems.append(f"{where}: has {len(listed)} empire cards, the box has {EMPIRES_PER_EPOCH}")
        cards: list[Empire] = []
        for index, item in enumerate(listed):
            spot = f"{where}, empire {index + 1}"
            if isinstance(item, Mapping) and _is_name(item.get("name")):
                spot = f"{where}, {item['name']}"
            if not isinstance(item, Mapping):
                problems.append(f"{spot}: must be a mapping, got {item!r}")
                continue
            card = _check_card(item, epoch, spot, world, problems)
            if card is None:
                continue
            other = keys.get(card.key)
            if other is not None:
                problems.append(f"{spot}: name {card.name!r} repeats the empire of {other}")
                continue
            keys[card.key] = where
            cards.append(card)
        orders = sorted(card.order for card in cards)
        if len(cards) == len(listed) and orders != list(range(1, len(cards) + 1)):
            problems.append(f"{where}: call orders must be 1..{len(cards)} once each, got {orders}")
        result[epoch] = tuple(sorted(cards, key=lambda card: card.order))
    return problems, result


def validate_empires(raw: object, world: WorldMap) -> list[str]:
    """Every problem in raw empire data (as loaded from YAML), checked against ``world``.

    Checks shapes and types, unknown and missing keys, 8 cards in each of the 5
    epochs with call orders 1..8, unique names, armies 1..25, one or two start
    territories that exist and are not barren, capitol or marauder, fleets in
    waters that allow them, caravans in barren lands, known effect ids, and
    the design marks.
    """
    return _validate(raw, world)[0]


def parse_empires(raw: object, world: WorldMap) -> dict[int, tuple[Empire, ...]]:
    """The empire cards by epoch, each epoch in call order.

    Raises:
        DataError: :func:`validate_empires` found problems (all are listed).
    """
    problems, result = _validate(raw, world)
    if problems:
        raise DataError(problems)
    return result


def load_world(path: str | Path | None = None) -> WorldMap:
    """The 5-epoch map (``data/history/epochs5/map.yaml`` by default), checked and cached.

    Raises:
        DataError: the map has problems (all are listed).
    """
    return load_map(MAP_PATH if path is None else path)


@functools.lru_cache(maxsize=4)
def _load_cached(path: Path, map_path: Path) -> Mapping[int, tuple[Empire, ...]]:
    with path.open(encoding="utf-8") as handle:
        raw = yaml.safe_load(handle)
    try:
        return MappingProxyType(parse_empires(raw, load_world(map_path)))
    except DataError as error:
        raise DataError([f"{path.name}: {p}" for p in error.problems]) from None


def load_empires(
    path: str | Path | None = None, map_path: str | Path | None = None
) -> Mapping[int, tuple[Empire, ...]]:
    """The empire cards by epoch (each in call order), checked and cached.

    Raises:
        DataError: the empire data has problems (all are listed).
        DataError: the map has problems.
        OSError: a file cannot be read.
    """
    empires = EMPIRES_PATH if path is None else Path(path).resolve()
    world = MAP_PATH if map_path is None else Path(map_path).resolve()
    return _load_cached(empires, world)


def check_data() -> list[str]:
    """Every problem in the 5-epoch map and empire files (empty when all is well)."""
    try:
        world = load_world()
    except DataError as error:
        return [f"map.yaml: {p}" for p in error.problems]
    except (OSError, yaml.YAMLError) as error:
        return [f"map.yaml: cannot read: {error}"]
    try:
        with EMPIRES_PATH.open(encoding="utf-8") as handle:
            raw = yaml.safe_load(handle)
    except (OSError, yaml.YAMLError) as error:
        return [f"empires.yaml: cannot read: {error}"]
    return [f"empires.yaml: {p}" for p in validate_empires(raw, world)]
