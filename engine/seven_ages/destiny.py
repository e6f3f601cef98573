"""7 Ages action 5, Destiny (L847-853), and option 7 Technology (L1214-1218): pure rules.

Destiny takes every player at once (L373 allows it: no player's destiny affects
another's): each discards what they choose, then draws to fill their hand.
"""

from __future__ import annotations

from collections.abc import Sequence

HAND = 6  # L851
TECH_MOST, TECH_LEAST = 7, 5  # option 7 (L1216-1218)


def draws(kept: int, philosophers: int = 0, target: int = HAND) -> int:
    """Cards drawn after discarding down to ``kept``: enough to fill the hand to ``target``, one
    more for each Philosopher (L851-853)."""
    return max(target - kept, 0) + philosophers


def excess(hand: int, philosophers: int, target: int = HAND) -> int:
    """Cards to discard after a Philosopher's extra draws (L853: "bring your hand down to 6");
    without a Philosopher nothing more is discarded."""
    return max(hand - target, 0) if philosophers else 0


def technology_targets(takers: Sequence[tuple[int, int | None]], first: int, players: int) -> list[int]:
    """Option 7: each destiny action's hand size, in the order of ``takers``.

    A taker is (player, the empire's progress level, or None for the marker on no empire).
    One player alone fills to 7 every time. Otherwise the most advanced empire fills to 7
    (ties: the first player, then the nearest to their left); the marker on no empire, or
    if none the least advanced empire, to 5 (ties: the player furthest from the first
    player's left); the others to 6 (L1216-1218).
    """
    if not takers:
        return []
    if len({p for p, _ in takers}) == 1:
        return [TECH_MOST] * len(takers)
    seat = [(p - first) % players for p, _ in takers]
    targets = [HAND] * len(takers)
    empires = [i for i, (_, lvl) in enumerate(takers) if lvl is not None]
    if empires:
        most = min(empires, key=lambda i: (-(takers[i][1] or 0), seat[i]))
        targets[most] = TECH_MOST
    spare = [i for i, (_, lvl) in enumerate(takers) if lvl is None]
    pool = spare or [i for i in empires if targets[i] != TECH_MOST]
    if pool:
        least = min(pool, key=lambda i: (takers[i][1] or 0, -seat[i]))
        targets[least] = TECH_LEAST
    return targets
