"""Range through another empire's areas with its permission (L2233), for choosing a trade partner.

"Your empire can't count range *through* (it may count into) another empire's area unless ... that
empire gives its permission. In return it may demand cards and/or money from your empire" (L2233).
The decision is the canal's (L652, :mod:`engine.seven_ages.canals`): the owner answers no, yes or a price
in money (:data:`~engine.seven_ages.actions_move.TOLLS`), with the same actions, or answers ahead with a
standing preference of the same shape under its own key, ``range``.

Readings (``data/seven_ages/README.md``): a player's own empires always let its other empires count
through; a route needs at most one other empire's permission (a partner reachable only through two
is out of range), so one question is asked at most; a price is money only.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.seven_ages import prefs
from engine.seven_ages.actions_move import TOLLS
from engine.seven_ages.reach import in_range
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


def standing(state: SevenState, keeper: Empire) -> str:
    """The standing answer of ``keeper``'s player ("ask" by default)."""
    return prefs.standing(state, keeper.owner, PREF.key)


def _explorers(e: Empire) -> list[str]:
    return [ld.area for ld in e.leaders if "Explorer" in ld.abilities]


def _blocking(state: SevenState, e: Empire, target: Empire, let_through: Iterable[int] = ()) -> list[str]:
    """The areas ``e`` may not count through towards ``target``: every other player's other empires'."""
    free = {e.card, target.card, *let_through}
    return [a for x in state.empires if x.card not in free and x.owner != e.owner for a in x.areas()]


def keeper_for(state: SevenState, e: Empire, target: Empire) -> int | None:
    """Whose permission ``e`` needs to have ``target`` in range: :data:`DIRECT` for nobody's, the card of
    the one empire whose areas the route must pass, or None when no such route exists or its owner
    refuses ahead. Of several, one whose owner lets through ahead first, then the lowest card."""
    own, level = e.areas(), e.progress
    if in_range(own, target.areas(), _blocking(state, e, target), level, _explorers(e)):
        return DIRECT
    found: list[tuple[int, int]] = []
    for x in state.empires:
        if x.card in (e.card, target.card) or x.owner == e.owner or not x.units:
            continue
        rule = standing(state, x)
        if rule == "no":
            continue
        if in_range(own, target.areas(), _blocking(state, e, target, (x.card,)), level, _explorers(e)):
            found.append((0 if rule == "yes" else 1, x.card))
    if not found:
        return None
    rank, card = min(found)
    return DIRECT if rank == 0 else card
