"""7 Ages action 3, Trade and progress (L551-596), and Range (L2223-2231): pure rules.

The game's step (:mod:`engine.seven_ages.actions_civ`, the step table) asks the
active empire's player for a partner, then both players for a face-down card at
once; :func:`settle` gives what the revealed cards mean: who wins, how far each
side may progress, the income of a side that does not progress.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from engine.seven_ages.data import load_tables
from engine.seven_ages.map import WorldMap, load_map

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


def partners(in_reach: Mapping[str, bool], traded: Iterable[str]) -> list[str]:
    """The empires the active empire may pick (L557-559): those in range controlled by another
    player (``in_reach``: empire -> in range), those that have not traded yet this turn if any.
    Empty: it trades with the deck."""
    reach = [e for e, ok in in_reach.items() if ok]
    fresh = [e for e in reach if e not in set(traded)]
    return fresh or reach


def trade_value(card_value: int, trade_number: int, scientists: int, disordered: int) -> int:
    """Card + trade number + 1 a Scientist - 1 a disordered area (L565)."""
    return card_value + trade_number + scientists - disordered


@dataclass(frozen=True)
class Side:
    """One side of a trade: the card it played and what it brings."""

    card: int  # the played card's value
    value: int  # its trade value (the card's value alone for the deck, L567)
    level: int = 0  # its progress level before the trade
    chose: bool = False  # it took a trade and progress action this turn


@dataclass(frozen=True)
class Outcome:
    """What a revealed trade means for each side (index 0 = active, 1 = partner)."""

    winner: int | None  # 0, 1 or None for a tie
    levels: tuple[int, int]  # the least each side progresses
    extra: tuple[int, int]  # levels the winner *may* add (L573-575)
    income: tuple[int, int]  # money for a side that does not progress (L583)


def settle(active: Side, partner: Side, deck: bool) -> Outcome:
    """The effects of a trade (L569-583). The deck never progresses nor earns."""
    sides = (active, partner)
    if active.value != partner.value:
        w = 0 if active.value > partner.value else 1
        if deck and w == 1:
            levels, extra = (0, 0), (0, 0)
        else:
            me, them = sides[w], sides[1 - w]
            more = int(me.chose) + int(not deck and them.level > me.level)
            levels = (1, 0) if w == 0 else (0, 1)
            extra = (more, 0) if w == 0 else (0, more)
        winner: int | None = w
    else:
        winner, extra = None, (0, 0)
        if deck:
            levels = (int(active.chose), 0)
        elif active.chose and partner.chose:  # the lower advances; level: neither (L579)
            levels = (int(active.level < partner.level), int(partner.level < active.level))
        else:
            levels = (int(active.chose), int(partner.chose))
    income = tuple(0 if levels[i] else sides[1 - i].card for i in (0, 1))
    if deck:
        income = (income[0], 0)
    return Outcome(winner, levels, extra, (income[0], income[1]))
