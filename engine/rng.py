"""Seeded, counter-based randomness that is identical on every platform.

Games never use the global :mod:`random`. A state stores ``seed`` and
``counter``; each draw mixes the two with SplitMix64 and advances the counter,
so a replay from the seed reproduces every roll and shuffle.
"""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import Protocol, TypeVar

_MASK = (1 << 64) - 1
T = TypeVar("T")


class HasRng(Protocol):
    seed: int
    rng_counter: int


def _mix(x: int) -> int:
    x = (x + 0x9E3779B97F4A7C15) & _MASK
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK
    return x ^ (x >> 31)


def next_u64(state: HasRng) -> int:
    """Return the next 64-bit value and advance the state's counter."""
    value = _mix((_mix(state.seed & _MASK) + state.rng_counter) & _MASK)
    state.rng_counter += 1
    return value


def below(state: HasRng, n: int) -> int:
    """A uniform integer in ``range(n)`` (rejection sampling keeps it unbiased)."""
    if n <= 0:
        raise ValueError("below() needs a positive bound")
    limit = (1 << 64) - ((1 << 64) % n)
    while True:
        value = next_u64(state)
        if value < limit:
            return value % n


def roll(state: HasRng, dice: int) -> list[int]:
    """Roll ``dice`` six-sided dice."""
    return [below(state, 6) + 1 for _ in range(dice)]


def shuffle(state: HasRng, items: MutableSequence[T]) -> None:
    """Fisher-Yates shuffle in place."""
    for i in range(len(items) - 1, 0, -1):
        j = below(state, i + 1)
        items[i], items[j] = items[j], items[i]
