"""The arithmetic of conflict (L710-733), as pure functions: a side's conflict total for one round.

The conflict go (:mod:`engine.seven_ages.battle`) asks these once both sides' cards and commitments
are revealed. Readings are written in ``data/seven_ages/README.md`` ("Conflict").
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from itertools import product
from math import ceil, prod

from engine.seven_ages.cards import load_deck
from engine.seven_ages.data import load_counters, load_tables
from engine.seven_ages.map import load_map
from engine.seven_ages.movement import SIEGE_UNITS, terrain_defence, terrain_of
from engine.seven_ages.production import empire_age, unit_class
from engine.seven_ages.state import Empire, SevenState
from engine.seven_ages.war_modifiers import fortified, unit_strength

FORT_DEFENCE = 2  # "+2 if there is a fort in the area" (L719)
INVADED_DEFENCE = 2  # "+2 if any unit Invaded the area this action" (L720)
TACTICIAN, STRATEGIST = "Tactician", "Strategist"
HALVED_SIDE = frozenset({"infantry", "missile"})
LAND_CLASSES = frozenset({"infantry", "missile", "cavalry"})
HALVING_SIDE = frozenset({"aircraft", "cavalry"})


@dataclass(frozen=True)
class Entry:
    """How the active side's units came into the area this action: the defender's extra defence."""

    invaded: bool = False
    river: bool = False
    arrow: bool = False


def _special(e: Empire) -> tuple[Mapping[str, object], ...]:
    return tuple(load_deck().cards[e.card].empire.special)


def unit_values(e: Empire, unit: str, area: str, terrain_age: int) -> tuple[int, int]:
    """The (modified) front and support of one of the empire's ``unit`` in ``area``: its shade's printed
    values, its card's ``front_bonus`` for the type or class (the Russians' rifles, L813), the terrain's
    cavalry modifier (-1 in forest, L811-817), never below 0. ``terrain_age``: the age by which the
    area's terrain counts (the defender's, L733)."""
    counters = load_counters()
    printed = counters.values[(counters.mixes[e.colour].shade, unit)]
    front, support = printed["front"], printed["support"]
    cls = unit_class(unit)
    for code in _special(e):
        if code["code"] == "front_bonus" and str(code["unit"]).lower() in (unit.lower(), cls):
            front += int(str(code["amount"]))
    if load_map().areas[area].land and cls == "cavalry":
        mod = load_tables().terrains[terrain_of(area, terrain_age)].cavalry_modifier
        front, support = front + mod, support + mod
    if not load_map().areas[area].land and cls in LAND_CLASSES:  # option 14's marines: halved (L1354)
        front, support = ceil(front / 2), ceil(support / 2)
    return max(0, front), max(0, support)


def halved(mine: Iterable[str], theirs: Iterable[str]) -> bool:
    """Front values are halved when every unit committed is infantry or missile and every unit the
    opponent commits is aircraft or cavalry (L725)."""
    mine, theirs = list(mine), list(theirs)
    return bool(mine) and bool(theirs) and all(unit_class(u) in HALVED_SIDE for u in mine) and \
        all(unit_class(u) in HALVING_SIDE for u in theirs)


@dataclass(frozen=True)
class Line:
    """A side's committed units laid out: the front and support values (each unit's), best first."""

    front: tuple[int, ...]
    support: tuple[int, ...]

    @property
    def value(self) -> int:
        return sum(self.front) + sum(self.support)

    @property
    def best(self) -> int:
        """The best front plus the best support value committed (L716): 0 for an empty row."""
        return max(self.front, default=0) + max(self.support, default=0)


LAYOUTS = 4096
"""Most front/support layouts weighed for a side's best (beyond that, the gain-ordered layout)."""


def battle_line(values: Iterable[tuple[int, int]], halve: bool, marks: int = 0) -> Line:
    """Half the committed units (rounding up) at the front, the rest at support (L712-713), laid out for
    the owner's best total: the units' values plus ``marks`` times the best front and best support (the
    opponent's conflict disorder markers, L716). Units of equal values are alike, so the layouts weighed
    are how many of each kind stand at the front. A halved front value is rounded up (our reading)."""
    units = [(ceil(f / 2) if halve else f, s) for f, s in values]
    at_front = ceil(len(units) / 2)
    units.sort(key=lambda fs: (fs[0] - fs[1], fs[0]), reverse=True)
    best = Line(tuple(f for f, _ in units[:at_front]), tuple(s for _, s in units[at_front:]))
    kinds = Counter(units)
    if not marks or prod(n + 1 for n in kinds.values()) > LAYOUTS:
        return best
    keys = sorted(kinds)
    for split in product(*(range(kinds[k] + 1) for k in keys)):
        if sum(split) != at_front:
            continue
        front = tuple(k[0] for k, n in zip(keys, split, strict=True) for _ in range(n))
        support = tuple(k[1] for k, n in zip(keys, split, strict=True) for _ in range(kinds[k] - n))
        line = Line(front, support)
        if line.value + marks * line.best > best.value + marks * best.best:
            best = line
    return best


@dataclass(frozen=True)
class Tally:
    """One side's conflict total for a round and its parts, as the reveal event lists them."""

    card: int
    units: int
    elite: int
    ages: int
    disorder: int
    terrain: int = 0
    fort: int = 0
    invaded: int = 0
    city: int = 0
    bonus: int = 0

    @property
    def total(self) -> int:
        return (self.card + self.units + self.elite + self.ages + self.disorder + self.terrain + self.fort
                + self.invaded + self.city + self.bonus)

    def parts(self) -> dict[str, int]:
        return {k: v for k, v in vars(self).items() if v}


def defence(state: SevenState, defender: Empire, area: str, entry: Entry) -> int:
    """The defender's terrain defence modifiers in ``area`` (L717, L729-733): the terrain by the
    defender's age, +1 if the active side's units crossed a river into it, +1 over a crossing arrow,
    and the defender's card's ``defence_bonus`` in that terrain."""
    if not load_map().areas[area].land:
        return 0
    age = empire_age(defender)
    mods = {m: int(v.get("defence", 0)) for m, v in load_tables().modifiers.items()}
    total = terrain_defence(area, age) + mods["river"] * entry.river + mods["crossing_arrow"] * entry.arrow
    terrain = terrain_of(area, age)
    for code in _special(defender):
        if code["code"] == "defence_bonus" and code["terrain"] == terrain:
            total += int(str(code["amount"]))
    return total


def tally(state: SevenState, me: Empire, them: Empire, area: str, *, card_value: int,
          mine: Mapping[str, int], theirs: Mapping[str, int], their_marks: int, defending: bool,
          active_units: Mapping[str, int], entry: Entry, ignore_fort: bool = False, bonus: int = 0) -> Tally:
    """``me``'s conflict total this round (L710-725): ``mine`` and ``theirs`` are the units committed by
    each side; ``their_marks`` the conflict disorder markers the opponent has acquired;
    ``active_units`` the active side's committed units (a siege unit among them zeroes the city);
    ``bonus``: events played for this side this round."""
    terrain_age = empire_age(me) if defending else empire_age(them)  # the defender's age (L733)
    values: list[tuple[int, int]] = []
    for unit, n in sorted(mine.items()):
        values += [unit_strength(state, me, unit, area, unit_values(me, unit, area, terrain_age))] * int(n)
    line = battle_line(values, halved(mine, theirs), their_marks)
    ahead = max(0, empire_age(me) - empire_age(them))
    invaded = not defending and entry.invaded and any(c["code"] == "invade_bonus" for c in _special(me))
    card_bonus = sum(int(str(c["amount"])) for c in _special(me) if c["code"] == "invade_bonus") \
        if invaded else 0
    out = Tally(card=card_value, units=line.value, elite=me.elite, ages=ahead,
                disorder=their_marks * line.best, bonus=bonus + card_bonus)
    if not defending:
        return out
    siege = any(u in SIEGE_UNITS for u in active_units)
    held = state.area(area)
    return Tally(card=out.card, units=out.units, elite=out.elite, ages=out.ages, disorder=out.disorder,
                 terrain=defence(state, me, area, entry),
                 fort=FORT_DEFENCE if fortified(state, me, area) and not ignore_fort else 0,
                 invaded=INVADED_DEFENCE if entry.invaded else 0,
                 city=0 if siege else held.city, bonus=out.bonus)
