"""7 Ages action 6, Civilise (L855-1008): pure rules.

What a civilising empire may do, in the rulebook's order: play event and
artefact cards, remove one leader and promote one, adopt a religion or a
government, discard one, modernise, remove disorder, urbanise. Each rule here
is a function of small inputs (levels, city values, counts); the game's steps
call them and turn a refusal into an IllegalAction a player reads.

Artefacts are in the standard mode (option 16 off, L923-931): their only effect
is glory. Event cards run the effect codes of :mod:`engine.seven_ages.effects`
that part 2 implements (:data:`EVENT_CODES_NOW`); any other is refused with a
sentence naming part 4, never silently skipped.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache

from engine.seven_ages.data import load_tables, read_yaml

CITY_STEPS = (1, 3, 5, 7)  # L1000: "a 3-value city increases to 5"
REMOVE_DISORDER_MINIMUM = 5  # L986
FERTILE_CITIES = 2  # L996: "either in 2 fertile areas or in one other land area"

#: Event codes part 2 carries out when a card is played in Civilise; the rest wait for part 4.
EVENT_CODES_NOW = frozenset({
    "card_check", "money", "glory", "progress", "draw_cards", "remove_disorder", "free_city",
    "improve_city", "modernise", "elite_marker", "promote_leader",
})


def city_limit(age: int, builder: bool = False) -> int:
    """The largest city an empire may build in its age (L1002), one age ahead with a Builder (L1004)."""
    tables = load_tables()
    age = min(age + 1, 7) if builder else age
    return tables.ages[age - 1].max_city


def next_city(value: int | None) -> int:
    """A new city is worth 1; an improved one goes up one step, 1 -> 3 -> 5 -> 7 (L1000)."""
    if not value:
        return CITY_STEPS[0]
    if value >= CITY_STEPS[-1]:
        raise ValueError("a city of 7 cannot be improved")
    return next(v for v in CITY_STEPS if v > value)


def may_urbanise(value: int | None, age: int, builder: bool = False) -> bool:
    """Whether a city (or none) may be built or improved by an empire in ``age`` (L1000-1004)."""
    return (value or 0) < CITY_STEPS[-1] and next_city(value) <= city_limit(age, builder)


def urban_plan_problem(areas: Sequence[str], terrains: Mapping[str, str | None]) -> str | None:
    """Why a set of areas is not one urbanising (L996): 2 fertile areas or 1 other land area."""
    if len(set(areas)) != len(areas):
        return "A city can be built or improved only once an action."
    if not areas:
        return None
    if len(areas) == 1:
        return None
    if len(areas) == FERTILE_CITIES and all(terrains.get(a) == "fertile" for a in areas):
        return None
    return "An empire urbanises either 2 fertile areas or 1 other land area."


@cache
def counter_backs() -> Mapping[str, str]:
    """Each unit type's other side (counters.yaml ``backs``, validated by ``check-data``)."""
    out: dict[str, str] = {}
    for b in read_yaml("counters.yaml")["backs"]:
        out[b["front"]], out[b["back"]] = b["back"], b["front"]
    return out


def modernised(unit: str, level: int) -> str | None:
    """The unit type on the other side of a unit's counter, if the empire's level allows it
    (L976-982): turning over costs nothing and may also downgrade."""
    other = counter_backs().get(unit)
    if other is None:
        return None
    return other if load_tables().unit_types[other].available <= level else None


def disorder_cost(area_income: int) -> int:
    """Removing an area's disorder costs its undisordered net income, at least 5 (L986-988)."""
    return max(area_income, REMOVE_DISORDER_MINIMUM)


def religion_capacity(religion_categories: int) -> int:
    """How many religions an empire may hold: one, or as many as its card's religious glory
    categories (the Shogunate two, L897-901)."""
    return max(1, religion_categories)


def may_take_religion(held: Sequence[str], religion: str, religion_categories: int) -> str | None:
    """Why an empire may not take ``religion`` now (None if it may), L893-901."""
    if religion in held:
        return f"The empire already follows {religion}."
    if len(held) >= religion_capacity(religion_categories):
        return "The empire has as many religions as its card allows: discard one first."
    return None


def may_take_government(held: str | None, government: str) -> str | None:
    """One government at a time (L899, L2165)."""
    if held is not None:
        return f"The empire already has {held}: discard it first."
    return None


def marker_available(wanted: str, in_use: Sequence[str], counters: Sequence[tuple[str, str]]) -> bool:
    """Whether a religion or government marker can show ``wanted`` (L915-919).

    Each double-sided counter shows one of its two sides; the markers ``in_use`` (one per
    empire holding that religion or government) may be turned over at any time to free a
    side, so ``wanted`` is available when every marker in use and ``wanted`` can be shown by
    different counters at once (a matching; E26's Christianity freed by swapping Islam).
    """
    needs = [*in_use, wanted]
    match: dict[int, int] = {}  # counter -> index in needs

    def place(i: int, seen: set[int]) -> bool:
        for c, sides in enumerate(counters):
            if needs[i] in sides and c not in seen:
                seen.add(c)
                if c not in match or place(match[c], seen):
                    match[c] = i
                    return True
        return False

    return all(place(i, set()) for i in range(len(needs)))


@dataclass(frozen=True)
class ArtefactGlory:
    """Glory from placing an artefact (L909-913): the empire's, and each leader's empire's."""

    empire: int
    leaders: Mapping[str, int]  # empire -> glory from its Scientists or Artists in range


def artefact_glory(colour: str, kind: str, new_to_world: bool, leaders_in_range: Mapping[str, int],
                   blue: bool) -> ArtefactGlory:
    """A green (or blue) artefact gains its empire 1 glory, and 1 more for a religion or government
    no other empire has; each Scientist in range for a blue one, or Artist for another green one,
    gains its own empire 1; a red artefact costs its empire 1 (L909-913)."""
    if colour == "red":
        return ArtefactGlory(-1, {})
    own = 1 + int(kind in ("religion", "government") and new_to_world)
    return ArtefactGlory(own, {e: n for e, n in leaders_in_range.items() if n})


def leader_kind_for(blue: bool) -> str:
    """The leader whose presence matters for an artefact: Scientist for blue, Artist otherwise."""
    return "Scientist" if blue else "Artist"


def artefact_area_problem(area_has_artefact: bool, blue: bool, leaders_there: Iterable[str]) -> str | None:
    """An area already holding an artefact takes a blue one only with a Scientist there, another
    green one only with an Artist (L921)."""
    if not area_has_artefact:
        return None
    need = leader_kind_for(blue)
    if need in set(leaders_there):
        return None
    article = "an" if need[0] in "AE" else "a"
    return f"That area already holds an artefact: another needs {article} {need} there."


def artefact_age_problem(ages: tuple[int, int], empire_age: int) -> str | None:
    """An artefact is played on an empire in its age range (L893)."""
    first, last = ages
    if first <= empire_age <= last:
        return None
    return f"That artefact is for ages {first} to {last}; the empire is in age {empire_age}."


def may_promote(on_map: int, leader_number: int) -> bool:
    """An empire may promote one leader while it has fewer than its Leader number (L940)."""
    return on_map < leader_number


def named_for_age(named: Iterable[tuple[str, int]], age: int, appeared: Iterable[str]) -> list[str]:
    """The named leaders an empire may promote: those of its current age not yet in the game
    (L944-948: "Each named leader can only appear in the game once")."""
    gone = set(appeared)
    return [n for n, a in named if a == age and n not in gone]


def discard_disorders(areas: Iterable[str], cities: Iterable[str], leaders: Iterable[str]) -> set[str]:
    """Discarding a religion or government without its card disorders every land area with a city
    but no leader, or a leader but no city (L970)."""
    city, led = set(cities), set(leaders)
    return {a for a in areas if (a in city) != (a in led)}


def event_problem(codes: Iterable[str], timing: str) -> str | None:
    """Why an event card cannot be played in Civilise now (None if part 2 carries it out)."""
    if timing != "civilise":
        return f"That event is played during {timing.replace('_', ' ')}, not now."
    missing = sorted(set(codes) - EVENT_CODES_NOW)
    if missing:
        return ("That event's effect (" + ", ".join(c.replace("_", " ") for c in missing)
                + ") comes with the full card effects, part 4 of 7 Ages; it cannot be played yet.")
    return None
