"""Range (L2223-2231): how many areas away an empire reaches, into but not through other empires' areas.

Pure rules, apart from the map and the tables; :mod:`engine.seven_ages.trade` re-exports them, and
:mod:`engine.seven_ages.range_permission` adds the permission to count through (L2233).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

from engine.seven_ages.data import load_tables
from engine.seven_ages.map import WorldMap, load_map
from engine.seven_ages.state import Empire, SevenState

SHIPS_OF_THE_LINE = "Ship-of-the-line"  # range into or through oceans needs them (L2229)


def empire_range(age: int, explorer: bool = False) -> int:
    """How many areas away an empire reaches: its age, doubled from an Explorer's area (L2021, L2227)."""
    return age * 2 if explorer else age


def distance(own: Iterable[str], target: Iterable[str], others: Iterable[str], level: int,
             explorer_areas: Iterable[str] = (), age: int | None = None,
             wmap: WorldMap | None = None) -> int | None:
    """Areas counted from ``own`` to the nearest of ``target`` (adjacent = 1, L2227), or None.

    Counting may go into but not through another empire's area (``others``, L2231), and into
    or through oceans only from the level where the empire may build ships-of-the-line (L2229).
    With ``age``, counting stops at the empire's range (an Explorer's area doubles it, L2021).
    """
    wmap = wmap or load_map()
    tables = load_tables()
    oceans_ok = level >= tables.unit_types[SHIPS_OF_THE_LINE].available
    goal, blocked = frozenset(target), frozenset(others)
    explorers = frozenset(explorer_areas)
    best: int | None = None
    for start in own:
        limit = None if age is None else empire_range(age, start in explorers)
        seen = {start: 0}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            d = seen[here]
            if limit is not None and d >= limit:
                continue
            if here != start and (here in blocked or here in goal):
                continue
            for n in wmap.adjacency[here]:
                if n in seen or (wmap.areas[n].kind == "ocean" and not oceans_ok):
                    continue
                seen[n] = d + 1
                if n in goal:
                    best = d + 1 if best is None else min(best, d + 1)
                queue.append(n)
    return best


def in_range(own: Iterable[str], target: Iterable[str], others: Iterable[str], level: int,
             explorer_areas: Iterable[str] = (), wmap: WorldMap | None = None) -> bool:
    """Whether the target is within the empire's Range (L2227-2231)."""
    age = load_tables().age_of(min(level, 49))
    return distance(own, target, others, level, explorer_areas, age, wmap) is not None


def empire_reaches(state: SevenState, e: Empire, target_areas: Iterable[str], exclude: int = 0) -> bool:
    """Whether ``target_areas`` are within ``e``'s Range (L2223-2231): counted into, not through, every
    other empire's areas but ``exclude``'s (the target's own), from its Explorers' areas doubled."""
    explorers = [ld.area for ld in e.leaders if "Explorer" in ld.abilities]
    others = [a for x in state.empires if x.card not in (e.card, exclude) for a in x.areas()]
    return in_range(e.areas(), target_areas, others, e.progress, explorers)
