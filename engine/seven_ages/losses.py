"""Losses the rulebook leaves to their owner: "You lose 2 units (your choice) to pursuit" (option 6,
L1206-1212) and option 13's "the winner loses half the committed units (their choice) ... The loser now
also loses a number of their remaining units in the area (their choice)" (L1340-1342).

A side owes ``left`` losses from a pool of its units (by type). Its owner gives them up a type at a time
(:class:`~engine.seven_ages.conflict_moves.Lose`): one unit, or as many of the type as may still be owed.
A unit satisfies one loss, or with pursuit's weights (``highest``: the pursuers' best surviving level)
what :func:`engine.seven_ages.pursuit.weight` says: 2 for a cavalry or aircraft, 2 above the pursuers'
highest level, 3 if both. The choice is never enumerated as combinations: the moves are the pool's types
times {1, as many as may still be owed}.

Everything here reads or builds plain values; :mod:`engine.seven_ages.battle` asks the question (a
:class:`~engine.seven_ages.state.Pending` of kind ``losses``) and applies the answer.
"""

from __future__ import annotations

from collections.abc import Mapping
from math import ceil

from engine.seven_ages.pursuit import weight
from engine.seven_ages.quick import cheapest
from engine.seven_ages.text import unit_words

ALL, ONE_TYPE = "all", "one_type"
"""Why a choice was forced (made without asking): every unit of the pool had to go, or the pool held one
type of unit only."""


def weight_of(unit: str, highest: int | None) -> int:
    """How many losses one ``unit`` satisfies: 1, or pursuit's weight when ``highest`` is set."""
    return 1 if highest is None else weight(unit, highest)


def most(pool: Mapping[str, int], left: int, highest: int | None, unit: str) -> int:
    """The most of ``unit`` that may be given up now: what is held, and no more than the losses still owed
    need (the last one given up may satisfy more than is owed)."""
    return min(int(pool.get(unit, 0)), ceil(left / weight_of(unit, highest))) if left > 0 else 0


def choices(pool: Mapping[str, int], left: int, highest: int | None) -> list[tuple[str, int]]:
    """The (unit, count) moves: each type in the pool by one, and by as many as may still be owed."""
    out: list[tuple[str, int]] = []
    for unit in sorted(u for u, n in pool.items() if n > 0):
        top = most(pool, left, highest, unit)
        out.append((unit, 1))
        if top > 1:
            out.append((unit, top))
    return out


def forced(pool: Mapping[str, int], left: int, highest: int | None) -> tuple[dict[str, int], str] | None:
    """The losses when there is nothing to choose, and why (:data:`ALL`, :data:`ONE_TYPE`): nothing owed
    or nothing held (no losses), every unit of the pool must go, or the pool holds one type only. None when
    the owner has a real choice."""
    held = {u: int(n) for u, n in pool.items() if n > 0}
    if left <= 0 or not held:
        return {}, ALL
    if sum(n * weight_of(u, highest) for u, n in held.items()) <= left:
        return held, ALL
    if len(held) == 1:
        unit = next(iter(held))
        return {unit: most(held, left, highest, unit)}, ONE_TYPE
    return None


def refusal(pool: Mapping[str, int], left: int, highest: int | None, unit: str, count: int) -> str | None:
    """Why giving up ``count`` of ``unit`` is refused (one sentence), or None when it may be given up."""
    if count < 1 or unit not in pool or int(pool[unit]) < 1:
        return f"You have no {unit} among the units that may be lost here."
    if count > int(pool[unit]):
        return f"You have only {unit_words(int(pool[unit]), unit)} that may be lost here."
    if count > most(pool, left, highest, unit):
        return f"Only {left} more {'loss is' if left == 1 else 'losses are'} due: give up fewer units."
    return None


def give_up(pool: Mapping[str, int], left: int, highest: int | None, unit: str,
            count: int) -> tuple[dict[str, int], int]:
    """The pool and the losses still owed once ``count`` of ``unit`` are given up (checked by
    :func:`refusal` first)."""
    rest = {u: int(n) - (count if u == unit else 0) for u, n in pool.items()}
    return {u: n for u, n in rest.items() if n > 0}, left - count * weight_of(unit, highest)


def computer_choice(pool: Mapping[str, int], left: int, highest: int | None) -> tuple[str, int]:
    """The computer's next move (and a timed-out seat's): the cheapest units, as
    :func:`engine.seven_ages.quick.cheapest` picks them, a type at a time."""
    picked = cheapest(pool, left, highest)
    unit = next(iter(picked))
    return unit, picked[unit]
