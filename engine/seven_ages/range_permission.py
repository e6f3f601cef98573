"""Range through another empire's areas with its permission (L2233): which empires a route must ask.

"Your empire can't count range *through* (it may count into) another empire's area unless ... that
empire gives its permission. In return it may demand cards and/or money from your empire" (L2233).
The decision is the canal's (L652, :mod:`engine.seven_ages.canals`): the owner answers no, yes or a price
in money (:data:`~engine.seven_ages.manoeuvre_moves.TOLLS`), with the same actions, or answers ahead with a
standing preference of the same shape under its own key, ``range``. Trade asks it for a partner
(:mod:`engine.seven_ages.trade`); every other play that Range decides asks it through
:mod:`engine.seven_ages.range_requests`.

Readings (``data/seven_ages/README.md``): a player's own empires always let its other empires count
through; a route is the one needing the fewest permissions (then the lowest cards), chosen from the board
alone, so what is offered never shows anyone's standing answer: that shows only once a request is made,
as at a canal; a price is money only.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations
from typing import Any

from engine.seven_ages import prefs
from engine.seven_ages.data import load_tables
from engine.seven_ages.manoeuvre_moves import TOLLS
from engine.seven_ages.map import load_map
from engine.seven_ages.reach import SHIPS_OF_THE_LINE, empire_range, in_range
from engine.seven_ages.state import Empire, SevenState

PREF = prefs.register(prefs.Preference("range", "ask", {
    "ask": "When another empire wants to count its range through your empire's areas, you are asked.",
    "yes": "Other empires may count their range through your empire's areas.",
    "no": "Other empires may not count their range through your empire's areas.",
    **{str(t): f"Other empires may count their range through your empire's areas for {t} money."
       for t in TOLLS}}))
"""An empire owner's standing answer to a request to count range through its areas (L2233)."""

DIRECT = 0
"""A route's keeper when no permission is needed."""


@dataclass(frozen=True)
class Route:
    """How an empire has a target within Range: ``start``, the empire whose Range counts (and pays any
    price), and ``keepers``, the empires whose areas it counts through and must ask, lowest card first."""

    start: int
    keepers: tuple[int, ...] = ()


def standing(state: SevenState, keeper: Empire) -> str:
    """The standing answer of ``keeper``'s player ("ask" by default)."""
    return prefs.standing(state, keeper.owner, PREF.key)


def _explorers(e: Empire) -> list[str]:
    return [ld.area for ld in e.leaders if "Explorer" in ld.abilities]


def _blocking(state: SevenState, e: Empire, target: int, let_through: Iterable[int] = ()) -> list[str]:
    """The areas ``e`` may not count through towards ``target``: every other player's other empires'."""
    free = {e.card, target, *let_through}
    return [a for x in state.empires if x.card not in free and x.owner != e.owner for a in x.areas()]


@cache
def _around(own: tuple[str, ...], level: int, explorers: tuple[str, ...]) -> frozenset[str]:
    """The areas within Range of ``own`` counting through every area (one search for all empires)."""
    wmap, tables = load_map(), load_tables()
    age = tables.age_of(min(level, 49))
    oceans_ok = level >= tables.unit_types[SHIPS_OF_THE_LINE].available
    doubled = frozenset(explorers)
    found: set[str] = set()
    for start in own:
        limit = empire_range(age, start in doubled)
        seen = {start: 0}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            if seen[here] >= limit:
                continue
            for n in wmap.adjacency[here]:
                if n not in seen and (wmap.areas[n].kind != "ocean" or oceans_ok):
                    seen[n] = seen[here] + 1
                    queue.append(n)
        found.update(seen)
    return frozenset(found)


def _keepers(state: SevenState, e: Empire, goal: Sequence[str], target: int) -> tuple[int, ...] | None:
    """The fewest empires whose permission lets ``e`` count ``goal`` within its Range (of several sets as
    small, the lowest cards), () for none needed, None when no permission would do."""
    own, level, explorers = e.areas(), e.progress, _explorers(e)
    if in_range(own, goal, _blocking(state, e, target), level, explorers):
        return ()
    # only an empire with an area within Range (counting through everything) can lie on a route
    around = _around(tuple(own), level, tuple(explorers))
    near = sorted(x.card for x in state.empires
                  if x.card not in (e.card, target) and x.owner != e.owner and around.intersection(x.areas()))
    if not in_range(own, goal, _blocking(state, e, target, near), level, explorers):
        return None
    for size in range(1, len(near) + 1):
        for keepers in combinations(near, size):
            if in_range(own, goal, _blocking(state, e, target, keepers), level, explorers):
                return keepers
    return None  # unreachable: all of ``near`` together reach it


def route(state: SevenState, froms: Iterable[Empire], goal: Sequence[str], target: int = 0) -> Route | None:
    """The route by which one of ``froms`` has ``goal`` (areas; ``target``, the empire they belong to, if
    any, is counted through freely) within Range: the one needing the fewest permissions, then the lowest
    keepers' cards, then the lowest starting card; None when none has, whatever permission were given.
    One of ``froms`` that is the target itself always has it."""
    froms = list(froms)
    key = (tuple(f.card for f in froms), tuple(goal), target)
    memo = _memo(state)
    if key not in memo:
        memo[key] = _route(state, froms, goal, target)
    return memo[key]


_LAST: list[Any] = [None, {}]
"""The routes found on the last state asked about: a Civilise offer asks the same target for every card
in the hand, and the step asks again on the same state for the labels."""


def _memo(state: SevenState) -> dict[tuple[Any, ...], Route | None]:
    if _LAST[0] is not state:  # states are never changed in place: a new one is a new object
        _LAST[0], _LAST[1] = state, {}
    memo: dict[tuple[Any, ...], Route | None] = _LAST[1]
    return memo


def _route(state: SevenState, froms: Sequence[Empire], goal: Sequence[str], target: int) -> Route | None:
    best: Route | None = None
    for f in sorted(froms, key=lambda x: x.card):
        if f.card == target:
            return Route(f.card)
        keepers = _keepers(state, f, goal, target)
        if keepers is None:
            continue
        if best is None or (len(keepers), keepers) < (len(best.keepers), best.keepers):
            best = Route(f.card, keepers)
    return best


def keeper_for(state: SevenState, e: Empire, target: Empire) -> int | None:
    """Whose permission ``e`` needs to have ``target`` in range, for a trade: :data:`DIRECT` for nobody's,
    the card of the one empire whose areas the route must pass, or None when no route needs at most one.
    Read from the board alone: whatever its owner would answer, the same keeper is named."""
    found = route(state, [e], target.areas(), target.card)
    if found is None or len(found.keepers) > 1:
        return None
    return found.keepers[0] if found.keepers else DIRECT
