"""7 Ages components: the 110-card deck, artefacts, leaders and counter mixes (``data/seven_ages``).

Annals' reconstruction: the rulebook ties 42 card numbers to names and states
some of their attributes; those are kept and cited, the rest is ours. Loading
validates everything a rule relies on and ``check-data`` reports
every problem at once. Specials and events are data over the closed vocabulary
of :mod:`engine.seven_ages.effects`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from engine.core import DataError
from engine.seven_ages.data import (
    load_tables,
    provenance_line,
    read_yaml,
    section,
    source_problems,
)
from engine.seven_ages.effects import (
    EFFECTS,
    IMMEDIATE,
    RANKED,
    TARGETS,
    TIMINGS,
    UNIT_CLASSES,
    UNRANKED,
    WORLD,
)
from engine.seven_ages.effects_words import TEMPLATES
from engine.seven_ages.map import load_map
from engine.seven_ages.prerequisite_data import Prerequisite, Vocabulary, parse, prerequisite_problems

DECK_SIZE = 110
LEADER_TYPES = (
    "Administrator",
    "Artist",
    "Builder",
    "Explorer",
    "Philosopher",
    "Populist",
    "Religious",
    "Scientist",
    "Strategist",
    "Tactician",
)  # L2001-2071
SHADES = ("dark", "light", "multi")


@dataclass(frozen=True)
class Empire:
    name: str
    ages: tuple[int, int]
    gold: bool
    starts: tuple[str, ...]
    setup: int
    money: int
    trade: int
    leaders: int
    special: tuple[Mapping[str, Any], ...]
    glory: tuple[Mapping[str, Any], ...]
    named_leaders: tuple[str, ...]

    def codes(self) -> frozenset[str]:
        return frozenset(e["code"] for e in self.special)

    def effect(self, code: str) -> Mapping[str, Any] | None:
        return next((e for e in self.special if e["code"] == code), None)

    @property
    def age_one(self) -> bool:
        """Startable in age 1, unconditionally (gold border) or on a condition (L393, L2305)."""
        cond = self.effect("conditional_age")
        return self.ages[0] == 1 or (cond is not None and cond["age"] == 1)

    def category(self, category: str, which: str | None = None) -> int | None:
        """The value of a glory category (None when the card has none; 0 for an unranked one)."""
        for g in self.glory:
            if g["category"] == category and which in (None, g.get("region"), g.get("religion")):
                return int(g.get("value", 0))
        return None

    @property
    def max_harvest(self) -> int:
        """Most glory a harvest gives without resources: ranked values and the homeland's 1 (L1036-1040)."""
        return sum(int(g.get("value", 0)) for g in self.glory if g["category"] in RANKED) + (
            1 if self.category("homeland") is not None else 0
        )


@dataclass(frozen=True)
class Event:
    name: str
    timing: str
    target: str
    effects: tuple[Mapping[str, Any], ...]
    source: str


@dataclass(frozen=True)
class Card:
    number: int
    value: int
    empire: Empire
    artefact: str
    event: Event
    source: str


@dataclass(frozen=True)
class Artefact:
    name: str
    ages: tuple[int, int]
    colour: str
    kind: str
    placed: str
    markers: int
    expansion: str | None
    source: str
    needs_other_first: bool = False  # the card's "*": another artefact first (L53-58)
    may_be_earlier: bool = False  # the card's "†": may be played in an earlier age
    prerequisite: Prerequisite | None = None  # option 16: what the empire (and area) must have first
    summary: str = ""  # what it does under option 16, in our words

    @property
    def any_age(self) -> bool:
        return self.ages == (1, 7)


@dataclass(frozen=True)
class Deck:
    cards: Mapping[int, Card]
    artefacts: Mapping[str, Artefact]
    belief_markers: tuple[tuple[str, str], ...] = ()
    """The double-sided religion and government markers (L915-919), each (one side, the other), in
    data order: a marker's index here is its identity in play."""

    def back(self, marker: int, side: str) -> str:
        """The other side of the belief marker ``marker`` from ``side``."""
        a, b = self.belief_markers[marker]
        return b if side == a else a

    def by_empire(self, name: str) -> Card:
        return next(c for c in self.cards.values() if c.empire.name == name)

    def by_event(self, name: str) -> Card:
        return next(c for c in self.cards.values() if c.event.name == name)


def effect_problems(where: str, effects: object, *, event: bool) -> list[str]:
    """Problems of a list of effects: unknown codes, missing, extra or mistyped parameters."""
    if not isinstance(effects, list):
        return [f"{where}: effects must be a list"]
    problems = []
    for e in effects:
        code = e.get("code") if isinstance(e, dict) else None
        spec = EFFECTS.get(code) if isinstance(code, str) else None
        if spec is None or not isinstance(e, dict):
            problems.append(f"{where}: effect code {code!r} is not in the vocabulary")
            continue
        if code not in TEMPLATES:  # a player must be able to read every effect (effects_words.py)
            problems.append(f"{where}: effect code {code} has no words in effects_words.TEMPLATES")
        if not event and spec.family == "event":
            problems.append(f"{where}: {code} is an event effect, not an empire special")
        names = {p for p, _ in spec.params}
        extra = set(e) - names - {"code"}
        if extra:
            problems.append(f"{where}: {code} has unknown parameters {sorted(extra)}")
        for pname, ptype in spec.params:
            value = e.get(pname)
            ok = (
                isinstance(value, list) and all(isinstance(v, str) for v in value)
                if ptype is list
                else (isinstance(value, ptype) and not isinstance(value, bool))
            )
            if not ok:
                problems.append(f"{where}: {code} needs {pname} ({ptype.__name__})")
        if (
            code in ("unit_cost", "move_bonus", "initial_unit_cost", "add_units")
            and e.get("unit_class") not in UNIT_CLASSES
        ):
            problems.append(f"{where}: {code} names no unit class ({e.get('unit_class')!r})")
        if code == "convert_units" and not set(e.get("classes") or ()) <= set(UNIT_CLASSES):
            problems.append(f"{where}: convert_units names an unknown unit class")
    return problems


def glory_problems(
    where: str, glory: object, regions: frozenset[str], religions: tuple[str, ...]
) -> list[str]:
    if not isinstance(glory, list) or not glory:
        return [f"{where}: glory must be a non-empty list"]
    problems = []
    for g in glory:
        cat = g.get("category")
        value = g.get("value")
        if cat in RANKED:
            if value not in (1, 2, 3):
                problems.append(f"{where}: glory {cat} needs a value 1-3")
            if cat == "region" and g.get("region") not in regions | {WORLD}:
                problems.append(f"{where}: glory region {g.get('region')!r} is not a region of the map")
            if cat == "religion" and g.get("religion") not in religions:
                problems.append(f"{where}: glory religion {g.get('religion')!r} is unknown")
        elif cat in UNRANKED:
            if value is not None:
                problems.append(f"{where}: glory {cat} takes no value")
        elif cat in IMMEDIATE:
            if not isinstance(value, int) or value < 1:
                problems.append(f"{where}: immediate glory {cat} needs a value")
        else:
            problems.append(f"{where}: glory category {cat!r} is unknown")
    return problems


def _ages(value: object) -> tuple[int, int] | None:
    if (
        isinstance(value, list)
        and len(value) == 2
        and all(isinstance(v, int) for v in value)
        and 1 <= value[0] <= value[1] <= 7
    ):
        return value[0], value[1]
    return None


ARTEFACT_KEYS = frozenset({"name", "ages", "needs_other_first", "may_be_earlier", "prerequisite", "colour",
                           "colour_source", "kind", "placed", "markers", "expansion", "source", "summary"})
"""The fields of an artefact entry: any other is refused (a misspelt field would silently mean nothing)."""


def _vocabulary(raw: list[dict[str, Any]]) -> Vocabulary:
    wmap, tables = load_map(), load_tables()
    regions = {r for a in wmap.areas.values() for r in (a.region, a.subregion) if r}
    return Vocabulary(artefacts={str(a.get("name")) for a in raw}, places=set(wmap.areas) | regions,
                      regions=regions, terrains=set(tables.terrains), leader_kinds=LEADER_TYPES,
                      canals={c.name for c in wmap.canals})


def _marks_problems(a: dict[str, Any]) -> list[str]:
    """The card's marks agree with the prerequisite: '†' with ``earlier_if``; '*' with another artefact (or
    the World war marker) required first (L1370-1374)."""
    pre, name = a.get("prerequisite") or {}, a.get("name")
    problems = []
    if bool(a.get("may_be_earlier")) != ("earlier_if" in pre):
        problems.append(f"artefacts.yaml {name}: may_be_earlier (the card's '†') goes with earlier_if "
                        "(L1374)")
    if a.get("needs_other_first") and not ({"requires", "world_war_marker"} & set(pre)):
        problems.append(f"artefacts.yaml {name}: needs_other_first (the card's '*') but its prerequisite "
                        "requires nothing first (L1372)")
    return problems


def artefact_problems(raw: list[dict[str, Any]]) -> list[str]:
    problems = source_problems("artefacts.yaml", raw)
    words = _vocabulary(raw)
    for a in raw:
        problems += [f"artefacts.yaml {a.get('name')}: unknown field {k!r}"
                     for k in a if k not in ARTEFACT_KEYS]
        if "prerequisite" in a:
            problems += prerequisite_problems(str(a.get("name")), a["prerequisite"], words)
        problems += _marks_problems(a)
        if _ages(a.get("ages")) is None:
            problems.append(f"artefacts.yaml {a.get('name')}: ages must be [first, last] within 1-7")
        if a.get("colour") not in ("green", "blue", "red", "black"):
            problems.append(f"artefacts.yaml {a.get('name')}: colour {a.get('colour')!r}")
        least = 0 if a.get("colour") == "black" else 1  # L913: black artefacts have no marker
        if not isinstance(a.get("markers"), int) or not least <= a["markers"] <= least * 9:
            problems.append(
                f"artefacts.yaml {a.get('name')}: markers must be 1-9 (0 if black, L913)"
            )
    return problems


BELIEF_KINDS = ("religion", "government")


def belief_marker_problems(raw: list[dict[str, Any]], arts: list[dict[str, Any]]) -> list[str]:
    """The double-sided markers (L915-919): two different sides of one kind (a religion backs a religion,
    a government a government), each religion or government on exactly its ``markers`` sides."""
    problems = source_problems("artefacts.yaml belief_markers", raw, key="sides")
    kinds = {a.get("name"): a.get("kind") for a in arts if a.get("kind") in BELIEF_KINDS}
    sides: Counter[str] = Counter()
    for m in raw:
        pair = m.get("sides")
        if not (isinstance(pair, list) and len(pair) == 2 and all(p in kinds for p in pair)
                and pair[0] != pair[1] and kinds[pair[0]] == kinds[pair[1]]):
            problems.append(f"artefacts.yaml belief_markers {pair}: two different religions or two different "
                            "governments (L917)")
            continue
        sides.update(pair)
    for a in arts:
        if a.get("name") in kinds and sides[a["name"]] != a.get("markers"):
            problems.append(f"artefacts.yaml {a['name']}: {a.get('markers')} markers but "
                            f"{sides[a['name']]} sides in belief_markers")
    return problems


def card_problems(
    raw: list[dict[str, Any]], artefacts: Mapping[str, Mapping[str, Any]], leaders: list[dict[str, Any]]
) -> list[str]:
    wmap, tables = load_map(), load_tables()
    regions = frozenset(tables.regions) | frozenset(tables.subregions)
    problems = source_problems("cards.yaml", raw, "number")
    problems += source_problems("cards.yaml event", [c.get("event") or {} for c in raw])
    numbers = [c.get("number") for c in raw]
    if sorted(n for n in numbers if isinstance(n, int)) != list(range(1, DECK_SIZE + 1)):
        problems.append(f"cards.yaml: the deck must number 1-{DECK_SIZE} once each")
    led = {(ld["card"], ld["name"]) for ld in leaders}
    by_number = {c.get("number"): c for c in raw}
    for ld in leaders:
        card = by_number.get(ld.get("card"), {})
        empire = card.get("empire") or {}
        if empire.get("name") != ld.get("empire") or ld.get("name") not in empire.get("named_leaders", []):
            problems.append(f"leaders.yaml {ld.get('name')}: not a named leader of card {ld.get('card')}")
    for c in raw:
        where = f"card {c.get('number')}"
        if c.get("value") not in range(8):
            problems.append(f"{where}: value must be 0-7")
        emp = c.get("empire") or {}
        ages = _ages(emp.get("ages"))
        if ages is None:
            problems.append(f"{where}: empire ages must be [first, last] within 1-7")
        elif bool(emp.get("gold")) != (ages[0] == 1):
            problems.append(f"{where}: a gold border marks exactly the unconditional age-1 empires")
        for area in emp.get("starts") or [None]:
            if area not in wmap.areas or not wmap.areas[area].land:
                problems.append(f"{where}: start area {area!r} is not a land area of the map")
        for field in ("setup", "money", "trade", "leaders"):
            if not isinstance(emp.get(field), int):
                problems.append(f"{where}: empire {field} must be a number")
        problems += effect_problems(f"{where} special", emp.get("special", []), event=False)
        problems += glory_problems(f"{where}", emp.get("glory"), regions, tables.religions)
        for name in emp.get("named_leaders", []):
            if (c.get("number"), name) not in led:
                problems.append(f"{where}: named leader {name} is not in leaders.yaml")
        art = artefacts.get(c.get("artefact"))  # type: ignore[arg-type]
        if art is None:
            problems.append(f"{where}: artefact {c.get('artefact')!r} is not in artefacts.yaml")
        elif art.get("expansion"):
            problems.append(f"{where}: artefact {art['name']} belongs to the {art['expansion']} expansion")
        elif ages and not _other_ages(ages, tuple(art["ages"])):
            problems.append(f"{where}: artefact {art['name']} shares its ages with the empire (L2445)")
        ev = c.get("event") or {}
        if ev.get("timing") not in TIMINGS:
            problems.append(f"{where}: event timing {ev.get('timing')!r} is not one of {', '.join(TIMINGS)}")
        if ev.get("target") not in TARGETS:
            problems.append(f"{where}: event target {ev.get('target')!r} is not one of {', '.join(TARGETS)}")
        problems += effect_problems(f"{where} event", ev.get("effects"), event=True)
        if not ev.get("effects"):
            problems.append(f"{where}: event {ev.get('name')!r} has no effect")
    events = [(c.get("event") or {}).get("name") for c in raw]
    # one name, one thing: a player names the event or the artefact they play
    for name in sorted(str(n) for n in set(events) & set(artefacts)):
        problems.append(f"cards.yaml: the event {name!r} has the name of an artefact")
    for c in raw:
        for e in (c.get("event") or {}).get("effects") or []:
            for name in e.get("events", []) if e.get("code") == "cancel_event" else []:
                if name not in events:
                    problems.append(f"card {c.get('number')}: cancels {name!r}, an event not in the deck")
    return problems


def _other_ages(empire: tuple[int, int], artefact: tuple[int, int]) -> bool:
    """An artefact of other ages than its empire (L2445); an any-age artefact is playable in every age."""
    return artefact == (1, 7) or artefact[1] < empire[0] or artefact[0] > empire[1]


@cache
def named_leaders() -> dict[int, tuple[Mapping[str, Any], ...]]:
    """Each card's named leaders (name, age, abilities), from ``leaders.yaml``: what Start and Civilise
    set up and what the card text lists."""
    out: dict[int, list[Mapping[str, Any]]] = {}
    for ld in read_yaml("leaders.yaml")["named"]:
        out.setdefault(int(ld["card"]), []).append(ld)
    return {card: tuple(lds) for card, lds in out.items()}


def leader_problems(raw: Mapping[str, Any]) -> list[str]:
    named, cup = section(raw, "named", "leaders.yaml"), section(raw, "unnamed", "leaders.yaml")
    problems = source_problems("leaders.yaml named", named) + source_problems(
        "leaders.yaml unnamed", cup, "ability"
    )
    for ld in named:
        if not ld.get("abilities") or not set(ld["abilities"]) <= set(LEADER_TYPES):
            problems.append(
                f"leaders.yaml {ld.get('name')}: abilities must be leader types ({', '.join(LEADER_TYPES)})"
            )
        if ld.get("age") not in range(1, 8):
            problems.append(f"leaders.yaml {ld.get('name')}: age must be 1-7")
    for u in cup:
        if u.get("ability") not in (*LEADER_TYPES, "no leader"):
            problems.append(f"leaders.yaml unnamed {u.get('ability')!r}: not a leader type")
    return problems


def counter_problems(raw: Mapping[str, Any]) -> list[str]:
    backs, values, mixes = (section(raw, s, "counters.yaml") for s in ("backs", "unit_values", "mixes"))
    problems = (
        source_problems("counters.yaml backs", backs, "front")
        + source_problems("counters.yaml unit_values", values, "unit")
        + source_problems("counters.yaml mixes", mixes)
    )
    types = set(load_tables().unit_types)
    for b in backs:
        if not {b.get("front"), b.get("back")} <= types:
            problems.append(f"counters.yaml backs: {b.get('front')}/{b.get('back')} are not unit types")
    fronts = {b["front"] for b in backs}
    for m in mixes:
        if m.get("shade") not in SHADES or set(m.get("counters") or {}) != fronts:
            problems.append(
                f"counters.yaml mix {m.get('name')}: shade {SHADES} and one count per counter front"
            )
    if len(mixes) != 15 or len({m["group"] for m in mixes}) != 5:
        problems.append("counters.yaml: 15 mixes in five colour groups (L325-335)")
    return problems


def _build(raw: list[dict[str, Any]], arts: list[dict[str, Any]], beliefs: list[dict[str, Any]]) -> Deck:
    artefacts = {
        a["name"]: Artefact(
            a["name"],
            (a["ages"][0], a["ages"][1]),
            a["colour"],
            a["kind"],
            a["placed"],
            a["markers"],
            a.get("expansion"),
            a["source"],
            bool(a.get("needs_other_first")),
            bool(a.get("may_be_earlier")),
            parse(a.get("prerequisite")),
            str(a.get("summary", "")),
        )
        for a in arts
    }
    cards = {}
    for c in raw:
        e, ev = c["empire"], c["event"]
        empire = Empire(
            e["name"],
            (e["ages"][0], e["ages"][1]),
            bool(e["gold"]),
            tuple(e["starts"]),
            e["setup"],
            e["money"],
            e["trade"],
            e["leaders"],
            tuple(e.get("special", ())),
            tuple(e["glory"]),
            tuple(e.get("named_leaders", ())),
        )
        cards[c["number"]] = Card(
            c["number"],
            c["value"],
            empire,
            c["artefact"],
            Event(ev["name"], ev["timing"], ev["target"], tuple(ev["effects"]), ev["source"]),
            c["source"],
        )
    markers = tuple((m["sides"][0], m["sides"][1]) for m in beliefs)
    return Deck(dict(sorted(cards.items())), artefacts, markers)


def deck_problems() -> list[str]:
    """Every problem of cards, artefacts, leaders and counters (empty when all is well)."""
    cards = section(read_yaml("cards.yaml"), "cards", "cards.yaml")
    arts = section(read_yaml("artefacts.yaml"), "artefacts", "artefacts.yaml")
    leaders = read_yaml("leaders.yaml")
    beliefs = section(read_yaml("artefacts.yaml"), "belief_markers", "artefacts.yaml")
    return (
        artefact_problems(arts)
        + belief_marker_problems(beliefs, arts)
        + leader_problems(leaders)
        + counter_problems(read_yaml("counters.yaml"))
        + card_problems(cards, {a["name"]: a for a in arts}, leaders["named"])
    )


@cache
def load_deck() -> Deck:
    """The validated deck; DataError listing every problem otherwise."""
    problems = deck_problems()
    if problems:
        raise DataError(problems)
    return _build(
        section(read_yaml("cards.yaml"), "cards", "cards.yaml"),
        section(read_yaml("artefacts.yaml"), "artefacts", "artefacts.yaml"),
        section(read_yaml("artefacts.yaml"), "belief_markers", "artefacts.yaml"),
    )


def report_deck() -> list[str]:
    cards = read_yaml("cards.yaml")["cards"]
    leaders = read_yaml("leaders.yaml")
    counters = read_yaml("counters.yaml")
    return [
        provenance_line("cards (number and name)", cards),
        provenance_line("events", [c["event"] for c in cards]),
        provenance_line("artefacts", read_yaml("artefacts.yaml")["artefacts"]),
        provenance_line("religion and government markers", read_yaml("artefacts.yaml")["belief_markers"]),
        provenance_line("named leaders", leaders["named"]),
        provenance_line("unnamed leader kinds", leaders["unnamed"]),
        provenance_line("counter mixes", counters["mixes"]),
        provenance_line("unit values", counters["unit_values"]),
    ]
