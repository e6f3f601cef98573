"""Option 13, Quick conflict resolution (L1334-1348): one round decides the conflict.

"Conflict is resolved normally but there is only one round. If your conflict total in the area is at
least three times greater than your opponent's, you lose no units in the area while they lose all their
units there. Otherwise, the loser loses all their committed units in the area and the winner loses half
the committed units (their choice) that they or their opponent committed, whichever is fewer. The loser
now also loses a number of their remaining units in the area (their choice) equal to half the number of
the winner's reserves there. The remaining loser's units (if any) must Retreat. If they tie, they each
lose all their committed units (unless they also committed a Tactician) and the empire carrying out the
action must Retreat." With option 6, only reserves pursue, and their pursuit losses add to the reserves'.

What each side loses is worked out here (:func:`outcome`): the losses fixed by the round, and the
losses each side still chooses (:class:`Owed`, "their choice"), which the conflict go asks their owners
for (:mod:`engine.seven_ages.losses`). :func:`settled` makes those choices the computer's way, the
cheapest first (:func:`cheapest`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from engine.seven_ages.data import load_tables
from engine.seven_ages.pursuit import weight

ROUT = 3
"""A total at least three times the other's loses nothing and destroys the other side (L1338)."""


@dataclass(frozen=True)
class Owed:
    """Losses a side still chooses: ``count`` losses from ``pool`` (its units by type), each unit
    satisfying one, or with ``highest`` set as option 6's pursuit weighs it (L1210-1212)."""

    pool: dict[str, int]
    count: int
    highest: int | None = None


@dataclass(frozen=True)
class Outcome:
    """Units each side loses whatever its owner chooses (by type), whether each loses its committed
    Tactician, the side that must retreat with whatever it has left there (None: nobody), and the losses
    each side still chooses (None: none)."""

    losses: tuple[dict[str, int], dict[str, int]]
    tactician_lost: tuple[bool, bool]
    retreats: int | None
    owed: tuple[Owed | None, Owed | None] = (None, None)


def cost_order(unit: str) -> tuple[int, int, str]:
    """How the computer orders units to give up: the cheapest first, then the earliest available."""
    kind = load_tables().unit_types[unit]
    return kind.cost, kind.available, unit


def cheapest(units: Mapping[str, int], count: int, highest: int | None = None) -> dict[str, int]:
    """The cheapest ``count`` units of ``units`` (each counting 1), or with ``highest`` the cheapest that
    satisfy ``count`` pursuit losses, weighed as option 6 weighs them (L1210-1212)."""
    out: dict[str, int] = {}
    for unit in sorted(units, key=cost_order):
        for _ in range(int(units[unit])):
            if count <= 0:
                return out
            out[unit] = out.get(unit, 0) + 1
            count -= 1 if highest is None else weight(unit, highest)
    return out


def _less(units: Mapping[str, int], minus: Mapping[str, int]) -> dict[str, int]:
    return {u: n - minus.get(u, 0) for u, n in units.items() if n - minus.get(u, 0) > 0}


def outcome(totals: tuple[int, int], committed: tuple[Mapping[str, int], Mapping[str, int]],
            reserves: tuple[Mapping[str, int], Mapping[str, int]], tacticians: tuple[bool, bool],
            pursuit_due: int | None = None, highest: int = 0) -> Outcome:
    """The single round's losses. ``pursuit_due``: with option 6, the pursuit losses the winner's reserves
    inflict (added to half the reserves, L1346); ``highest``: the level of the winner's best surviving unit
    (a more advanced unit lost counts double)."""
    a, d = totals
    if a == d:  # L1344: both lose their committed units unless a Tactician; the active side retreats
        losses = tuple({} if tacticians[s] else dict(committed[s]) for s in (0, 1))
        return Outcome((losses[0], losses[1]), (False, False), 0)
    winner = 0 if a > d else 1
    loser = 1 - winner
    if totals[winner] >= ROUT * totals[loser]:
        everything = {**committed[loser]}
        for u, n in reserves[loser].items():
            everything[u] = everything.get(u, 0) + int(n)
        out: list[dict[str, int]] = [{}, {}]
        out[loser] = everything
        lost = [False, False]
        lost[loser] = tacticians[loser]
        return Outcome((out[0], out[1]), (lost[0], lost[1]), None)
    out = [{}, {}]
    out[loser] = dict(committed[loser])
    owed: list[Owed | None] = [None, None]
    half = min(sum(committed[winner].values()), sum(committed[loser].values())) // 2
    owed[winner] = Owed(_less(committed[winner], {}), half)
    due = sum(reserves[winner].values()) // 2
    left = _less(reserves[loser], {})
    # with option 6 the reserves' pursuit adds to their losses, weighed as pursuit losses are
    owed[loser] = Owed(left, due) if pursuit_due is None else Owed(left, due + pursuit_due, highest)
    lost = [False, False]
    lost[loser] = tacticians[loser]
    return Outcome((out[0], out[1]), (lost[0], lost[1]), loser, (owed[0], owed[1]))


def settled(result: Outcome) -> tuple[dict[str, int], dict[str, int]]:
    """Each side's losses with its choices made the computer's way: the cheapest units first."""
    out: list[dict[str, int]] = []
    for fixed, owed in zip(result.losses, result.owed, strict=True):
        total = dict(fixed)
        if owed is not None:
            for u, n in cheapest(owed.pool, owed.count, owed.highest).items():
                total[u] = total.get(u, 0) + n
        out.append(total)
    return out[0], out[1]
