"""Eight-Minute Empire's data: the map, the 42 cards, the goods tables, the setup numbers.

Reads ``data/eight_minute/{map,cards,scoring,rules}.yaml`` with ``yaml.safe_load``
and validates them strictly. Every loader collects all the problems it finds,
so ``check_data()`` (and ``python -m engine check-data``) lists them at once.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, TypedDict

import yaml

from engine.core import DataError

DATA_DIR = Path(__file__).resolve().parents[2] / "data" / "eight_minute"
GOODS: tuple[str, ...] = ("crystal", "food", "wood", "iron", "tools")
WILD = "wild"
VERBS: tuple[str, ...] = ("place", "move", "sail", "city", "destroy")
PLAYER_COUNTS = (2, 3, 4, 5)
CARD_COUNT = 42
FIVE_CARDS = 5
CONTINENTS = 4


class StepView(TypedDict):
    """One action printed on a card, as JSON: a verb (place, move, sail, city, destroy) and its count."""

    do: str
    n: int


class CardView(TypedDict):
    """A card's face as JSON (:meth:`Card.to_json`); a face-up card of a view's row adds its place."""

    card: int
    good: str
    goods: int
    actions: list[StepView]
    combine: str | None  # "and" | "or" with two actions
    five: bool
    text: str


@dataclass(frozen=True)
class Step:
    """One action printed on a card: a verb and how many times (armies, moves)."""

    verb: str
    n: int

    def to_json(self) -> StepView:
        return {"do": self.verb, "n": self.n}

    def text(self) -> str:
        words = {
            "place": f"place {self.n} {'army' if self.n == 1 else 'armies'}",
            "move": f"move {self.n} over land",
            "sail": f"move {self.n} over land or water",
            "city": "build a city",
            "destroy": "destroy an army",
        }
        return words[self.verb]


@dataclass(frozen=True)
class Card:
    """One card: its good (and how many), its actions and whether only five players use it."""

    id: int
    good: str
    goods: int
    actions: tuple[Step, ...]
    combine: str | None  # "and" | "or" with two actions
    five: bool
    # Where the public card lists of the deck disagree: ("kept", the reading played, which most
    # lists share) then ("other", the other lists' readings), each naming its lists (see
    # data/eight_minute/README.md); empty when they agree.
    disputed: tuple[tuple[str, str], ...] = ()
    note: str = ""  # why we read the card as we do, where that reading is our own choice

    def to_json(self) -> CardView:
        return {
            "card": self.id,
            "good": self.good,
            "goods": self.goods,
            "actions": [s.to_json() for s in self.actions],
            "combine": self.combine,
            "five": self.five,
            "text": self.text(),
        }

    def text(self) -> str:
        joiner = f" {self.combine} " if self.combine else ""
        return joiner.join(s.text() for s in self.actions)


@dataclass(frozen=True)
class Region:
    id: str
    name: str
    continent: str
    anchor: tuple[float, float]
    polygon: tuple[tuple[float, float], ...]
    goods_token: bool


@dataclass(frozen=True)
class Continent:
    id: str
    name: str
    outline: tuple[tuple[float, float], ...]
    regions: tuple[str, ...]


@dataclass(frozen=True)
class EMData:
    """Everything the rules read from the data files."""

    aspect: float
    start: str
    continents: Mapping[str, Continent]
    regions: Mapping[str, Region]
    land: Mapping[str, frozenset[str]]
    water: Mapping[str, frozenset[str]]
    cards: Mapping[int, Card]
    tables: Mapping[str, tuple[tuple[int, int], ...]]
    armies_per_player: int
    cities_per_player: int
    start_armies: int
    face_up: int
    prices: tuple[int, ...]
    neutral_armies: int
    coins: Mapping[int, int]
    end_cards: Mapping[int, int]
    full_game_games: int
    goods_tokens: Mapping[str, int]

    def neighbours(self, region: str, water: bool) -> frozenset[str]:
        """Regions one move away: over land, and over the dotted lines when ``water``."""
        if water:
            return self.land[region] | self.water[region]
        return self.land[region]

    def good_points(self, good: str, count: int) -> int:
        """Victory points of ``count`` of ``good`` by its table."""
        points = 0
        for need, value in self.tables[good]:
            if count >= need:
                points = value
        return points


def _read(name: str, problems: list[str]) -> Any:
    path = DATA_DIR / name
    try:
        return yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        problems.append(f"{name}: cannot be read: {exc}")
        return None


def _point(value: Any, where: str, problems: list[str]) -> tuple[float, float]:
    if (
        not isinstance(value, list) or len(value) != 2
        or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
    ):
        problems.append(f"{where}: a point must be [x, y] numbers, not {value!r}")
        return (0.0, 0.0)
    x, y = float(value[0]), float(value[1])
    if not (0.0 <= x <= 1.0 and 0.0 <= y <= 1.0):
        problems.append(f"{where}: point {value!r} lies outside the 0..1 board space")
    return (x, y)


def _polygon(value: Any, where: str, problems: list[str]) -> tuple[tuple[float, float], ...]:
    if not isinstance(value, list) or len(value) < 3:
        problems.append(f"{where}: a polygon needs at least three points")
        return ()
    return tuple(_point(p, where, problems) for p in value)


def _inside(point: tuple[float, float], polygon: tuple[tuple[float, float], ...]) -> bool:
    """Even-odd rule point-in-polygon test."""
    x, y = point
    inside = False
    for i, (x1, y1) in enumerate(polygon):
        x2, y2 = polygon[i - 1]
        if (y1 > y) != (y2 > y) and x < (x2 - x1) * (y - y1) / (y2 - y1) + x1:
            inside = not inside
    return inside


def _edges(polygon: tuple[tuple[float, float], ...]) -> set[frozenset[tuple[float, float]]]:
    return {frozenset((polygon[i - 1], polygon[i])) for i in range(len(polygon))}


def _links(raw: Any, name: str, regions: Mapping[str, Any], problems: list[str]) -> set[frozenset[str]]:
    out: set[frozenset[str]] = set()
    if not isinstance(raw, list):
        problems.append(f"map.yaml: {name} must be a list of [region, region] pairs")
        return out
    for pair in raw:
        if not isinstance(pair, list) or len(pair) != 2 or not all(isinstance(r, str) for r in pair):
            problems.append(f"map.yaml: {name}: {pair!r} is not a pair of region ids")
            continue
        a, b = pair
        for r in (a, b):
            if r not in regions:
                problems.append(f"map.yaml: {name}: unknown region {r!r}")
        if a == b:
            problems.append(f"map.yaml: {name}: {a} is linked to itself")
            continue
        link = frozenset(pair)
        if link in out:
            problems.append(f"map.yaml: {name}: {a}-{b} is listed twice (list each link once)")
        out.add(link)
    return out


def _load_map(problems: list[str]) -> dict[str, Any]:
    raw = _read("map.yaml", problems)
    if not isinstance(raw, dict):
        if raw is not None:
            problems.append("map.yaml: the top level must be a mapping")
        return {}
    unknown = set(raw) - {"aspect", "start", "continents", "regions", "land_links", "water_links"}
    if unknown:
        problems.append(f"map.yaml: unknown keys {sorted(unknown)}")
    aspect = raw.get("aspect")
    if not isinstance(aspect, int | float) or aspect <= 0:
        problems.append("map.yaml: aspect must be a positive number")
        aspect = 1.0
    continents: dict[str, dict[str, Any]] = {}
    for c in raw.get("continents") or []:
        if not isinstance(c, dict) or not isinstance(c.get("id"), str) or not isinstance(c.get("name"), str):
            problems.append(f"map.yaml: continent {c!r} needs an id and a name")
            continue
        if c["id"] in continents:
            problems.append(f"map.yaml: continent {c['id']} is listed twice")
        extra = set(c) - {"id", "name", "outline"}
        if extra:
            problems.append(f"map.yaml: continent {c['id']}: unknown keys {sorted(extra)}")
        continents[c["id"]] = {
            "name": c["name"],
            "outline": _polygon(c.get("outline"), f"map.yaml: continent {c['id']} outline", problems),
        }
    if len(continents) != CONTINENTS:
        problems.append(f"map.yaml: the board has {CONTINENTS} continents, not {len(continents)}")
    regions: dict[str, Region] = {}
    for r in raw.get("regions") or []:
        if not isinstance(r, dict) or not isinstance(r.get("id"), str) or not isinstance(r.get("name"), str):
            problems.append(f"map.yaml: region {r!r} needs an id and a name")
            continue
        rid = r["id"]
        where = f"map.yaml: region {rid}"
        if rid in regions:
            problems.append(f"{where} is listed twice")
        extra = set(r) - {"id", "name", "continent", "anchor", "polygon", "goods_token"}
        if extra:
            problems.append(f"{where}: unknown keys {sorted(extra)}")
        if r.get("continent") not in continents:
            problems.append(f"{where}: unknown continent {r.get('continent')!r}")
        token = r.get("goods_token", False)
        if not isinstance(token, bool):
            problems.append(f"{where}: goods_token must be true or false")
            token = False
        anchor = _point(r.get("anchor"), f"{where} anchor", problems)
        polygon = _polygon(r.get("polygon"), f"{where} polygon", problems)
        if polygon and not _inside(anchor, polygon):
            problems.append(f"{where}: the anchor {list(anchor)} is not inside its polygon")
        regions[rid] = Region(rid, r["name"], str(r.get("continent")), anchor, polygon, token)
    start = raw.get("start")
    if start not in regions:
        problems.append(f"map.yaml: the start region {start!r} is not a region")
    land = _links(raw.get("land_links"), "land_links", regions, problems)
    water = _links(raw.get("water_links"), "water_links", regions, problems)
    for link in land & water:
        problems.append(f"map.yaml: {'-'.join(sorted(link))} is both a land and a water link")
    for link in land:
        a, b = sorted(link)
        if a in regions and b in regions:
            if regions[a].continent != regions[b].continent:
                problems.append(f"map.yaml: land link {a}-{b} crosses from one continent to another")
            elif not _edges(regions[a].polygon) & _edges(regions[b].polygon):
                problems.append(f"map.yaml: land link {a}-{b}: their polygons share no edge")
    for link in water:
        a, b = sorted(link)
        if a in regions and b in regions and regions[a].continent == regions[b].continent:
            problems.append(f"map.yaml: water link {a}-{b} joins two regions of one continent")
    ids = sorted(regions)
    for i, a in enumerate(ids):
        for b in ids[i + 1:]:
            ra, rb = regions[a], regions[b]
            shared = ra.continent == rb.continent and _edges(ra.polygon) & _edges(rb.polygon)
            if shared and frozenset((a, b)) not in land:
                problems.append(f"map.yaml: {a} and {b} share a border but have no land link")
    for cid in continents:
        if not any(r.continent == cid for r in regions.values()):
            problems.append(f"map.yaml: continent {cid} has no region")
    # The whole board must be one piece once the water links are added.
    adjacency: dict[str, set[str]] = {r: set() for r in regions}
    for link in land | water:
        a, b = sorted(link)
        if a in adjacency and b in adjacency:
            adjacency[a].add(b)
            adjacency[b].add(a)
    if regions:
        seen = {ids[0]}
        todo = [ids[0]]
        while todo:
            for nxt in adjacency[todo.pop()]:
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        if len(seen) != len(regions):
            problems.append(f"map.yaml: the map is not connected; cut off: {sorted(set(regions) - seen)}")
    return {
        "aspect": float(aspect),
        "start": start,
        "continents": {
            cid: Continent(cid, c["name"], c["outline"],
                           tuple(r.id for r in regions.values() if r.continent == cid))
            for cid, c in continents.items()
        },
        "regions": regions,
        "land": {r: frozenset(x for link in land if r in link for x in link if x != r) for r in regions},
        "water": {r: frozenset(x for link in water if r in link for x in link if x != r) for r in regions},
    }


def _positive_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value > 0


#: A disputed card's readings: the one played (most public lists share it) first, then the others.
READINGS: tuple[str, ...] = ("kept", "other")


def _readings(raw: Any, where: str, problems: list[str]) -> tuple[tuple[str, str], ...]:
    """A card's ``disputed`` entry: both lists' readings, as sentences."""
    if raw is None:
        return ()
    if not isinstance(raw, dict) or sorted(raw) != sorted(READINGS) or not all(
        isinstance(v, str) and v for v in raw.values()
    ):
        problems.append(f"{where}: disputed names the reading we keep and the other one "
                        f"({', '.join(READINGS)}), each in words")
        return ()
    return tuple((key, str(raw[key])) for key in READINGS)


def _load_cards(problems: list[str]) -> dict[int, Card]:
    raw = _read("cards.yaml", problems)
    if not isinstance(raw, dict) or not isinstance(raw.get("cards"), list):
        if raw is not None:
            problems.append("cards.yaml: needs a 'cards' list")
        return {}
    cards: dict[int, Card] = {}
    for c in raw["cards"]:
        if not isinstance(c, dict) or not _positive_int(c.get("id")):
            problems.append(f"cards.yaml: card {c!r} needs a positive integer id")
            continue
        cid = c["id"]
        where = f"cards.yaml: card {cid}"
        extra = set(c) - {"id", "good", "goods", "actions", "combine", "five", "disputed", "note"}
        if extra:
            problems.append(f"{where}: unknown keys {sorted(extra)}")
        if cid in cards:
            problems.append(f"{where} is listed twice")
        good = c.get("good")
        if good not in (*GOODS, WILD):
            problems.append(f"{where}: unknown good {good!r}")
        if not _positive_int(c.get("goods")):
            problems.append(f"{where}: goods must be a positive whole number")
        steps: list[Step] = []
        actions = c.get("actions")
        if not isinstance(actions, list) or not 1 <= len(actions) <= 2:
            problems.append(f"{where}: a card has one or two actions")
            actions = []
        for a in actions:
            if not isinstance(a, dict) or len(a) != 1:
                problems.append(f"{where}: action {a!r} must be one {{verb: count}}")
                continue
            ((verb, n),) = a.items()
            if verb not in VERBS:
                problems.append(f"{where}: unknown action {verb!r} (known: {', '.join(VERBS)})")
            elif not _positive_int(n):
                problems.append(f"{where}: {verb} needs a positive count")
            elif verb in ("city", "destroy") and n != 1:
                problems.append(f"{where}: {verb} is done once per card, not {n} times")
            else:
                steps.append(Step(verb, n))
        combine = c.get("combine")
        if len(actions) == 2 and combine not in ("and", "or"):
            problems.append(f"{where}: two actions need combine: and | or")
        if len(actions) == 1 and combine is not None:
            problems.append(f"{where}: combine is only for cards with two actions")
        five = c.get("five", False)
        if not isinstance(five, bool):
            problems.append(f"{where}: five must be true or false")
            five = False
        disputed = _readings(c.get("disputed"), where, problems)
        note = c.get("note", "")
        if not isinstance(note, str):
            problems.append(f"{where}: note must be a sentence")
            note = ""
        cards[cid] = Card(cid, str(good), int(c.get("goods") or 1), tuple(steps),
                          combine if isinstance(combine, str) else None, five, disputed, note)
    if sorted(cards) != list(range(1, CARD_COUNT + 1)):
        problems.append(f"cards.yaml: the deck has cards 1 to {CARD_COUNT}, found {len(cards)} ids")
    fives = sum(1 for c in cards.values() if c.five)
    if fives != FIVE_CARDS:
        problems.append(f"cards.yaml: five cards carry the '5' mark in the rulebook; {fives} are marked")
    return cards


def _load_tables(problems: list[str]) -> dict[str, tuple[tuple[int, int], ...]]:
    raw = _read("scoring.yaml", problems)
    if not isinstance(raw, dict) or not isinstance(raw.get("goods"), dict):
        if raw is not None:
            problems.append("scoring.yaml: needs a 'goods' mapping")
        return {}
    tables: dict[str, tuple[tuple[int, int], ...]] = {}
    for good, rows in raw["goods"].items():
        where = f"scoring.yaml: {good}"
        if good not in GOODS:
            problems.append(f"{where}: unknown good (wild has no table of its own)")
            continue
        if (
            not isinstance(rows, list) or len(rows) != 4
            or not all(isinstance(r, list) and len(r) == 2 and all(_positive_int(v) for v in r) for r in rows)
        ):
            problems.append(f"{where}: a table is four [count, points] pairs of positive numbers")
            continue
        pairs = tuple((int(r[0]), int(r[1])) for r in rows)
        if any(a[0] >= b[0] or a[1] >= b[1] for a, b in itertools.pairwise(pairs)):
            problems.append(f"{where}: counts and points must both rise along the table")
        tables[good] = pairs
    for good in GOODS:
        if good not in tables and good not in raw["goods"]:
            problems.append(f"scoring.yaml: {good} has no table")
    return tables


def _load_rules(problems: list[str]) -> dict[str, Any]:
    raw = _read("rules.yaml", problems)
    if not isinstance(raw, dict):
        if raw is not None:
            problems.append("rules.yaml: the top level must be a mapping")
        return {}
    out: dict[str, Any] = {}
    for key in ("armies_per_player", "cities_per_player", "start_armies", "face_up_cards",
                "neutral_armies", "full_game_games"):
        if not _positive_int(raw.get(key)):
            problems.append(f"rules.yaml: {key} must be a positive whole number")
        out[key] = raw.get(key) if _positive_int(raw.get(key)) else 1
    prices = raw.get("row_prices")
    if (
        not isinstance(prices, list) or len(prices) != out["face_up_cards"]
        or not all(isinstance(p, int) and p >= 0 for p in prices)
    ):
        problems.append("rules.yaml: row_prices needs one price (0 or more) per face-up card")
        prices = [0] * int(out["face_up_cards"])
    out["row_prices"] = tuple(prices)
    for key in ("coins", "end_cards"):
        table = raw.get(key)
        if not isinstance(table, dict) or sorted(table) != list(PLAYER_COUNTS) or not all(
            _positive_int(v) for v in table.values()
        ):
            problems.append(f"rules.yaml: {key} needs a positive number for each of 2, 3, 4 and 5 players")
            table = dict.fromkeys(PLAYER_COUNTS, 1)
        out[key] = dict(table)
    tokens = raw.get("goods_tokens")
    if not isinstance(tokens, dict) or not set(tokens) <= set(GOODS) or not all(
        _positive_int(v) for v in tokens.values()
    ):
        problems.append("rules.yaml: goods_tokens maps goods to how many tokens show them")
        tokens = {}
    out["goods_tokens"] = dict(tokens)
    return out


def load_all() -> tuple[EMData | None, list[str]]:
    """Read and validate every file; the data (None if unusable) and all problems."""
    problems: list[str] = []
    wmap = _load_map(problems)
    cards = _load_cards(problems)
    tables = _load_tables(problems)
    rules = _load_rules(problems)
    if wmap and rules:
        triangles = sum(1 for r in wmap["regions"].values() if r.goods_token)
        tokens = sum(rules["goods_tokens"].values())
        if triangles != tokens:
            problems.append(f"map.yaml/rules.yaml: {triangles} triangle regions for {tokens} goods tokens")
        if wmap["start"] in wmap["regions"] and wmap["regions"][wmap["start"]].goods_token:
            problems.append("map.yaml: the start region carries no goods token")
    if cards and rules:
        used = {n: sum(1 for c in cards.values() if n == 5 or not c.five) for n in PLAYER_COUNTS}
        for n in PLAYER_COUNTS:
            needed = n * rules["end_cards"][n]
            if used[n] < needed:
                problems.append(f"cards.yaml: {n} players take {needed} cards but the deck has {used[n]}")
    if problems or not (wmap and cards and tables and rules):
        return None, problems
    data = EMData(
        aspect=wmap["aspect"],
        start=wmap["start"],
        continents=wmap["continents"],
        regions=wmap["regions"],
        land=wmap["land"],
        water=wmap["water"],
        cards=cards,
        tables=tables,
        armies_per_player=rules["armies_per_player"],
        cities_per_player=rules["cities_per_player"],
        start_armies=rules["start_armies"],
        face_up=rules["face_up_cards"],
        prices=rules["row_prices"],
        neutral_armies=rules["neutral_armies"],
        coins=rules["coins"],
        end_cards=rules["end_cards"],
        full_game_games=rules["full_game_games"],
        goods_tokens=rules["goods_tokens"],
    )
    return data, []


@lru_cache(maxsize=1)
def load_data() -> EMData:
    """The validated data (cached); raises :class:`engine.core.DataError` listing every problem."""
    data, problems = load_all()
    if data is None:
        raise DataError(problems)
    return data


def check_data() -> list[str]:
    """Every problem in the Eight-Minute Empire data files (empty when all is well)."""
    return load_all()[1]
