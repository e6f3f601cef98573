"""The quiet moves of 7 Ages: those telling no one but their sender anything (:meth:`engine.core.Game.quiet`).

An armed order and its withdrawal (:mod:`engine.seven_ages.armed`) change only their sender's hidden
standing orders: another player learns of an order only when it fires. A standing preference
(:mod:`engine.seven_ages.prefs`) is quiet when only its owner sees it and nobody sees its effect at once
(:attr:`engine.seven_ages.prefs.Preference.quiet`); the public one (whether a player is asked at event
windows) and the top unit of a stack (seen by all) are not. A quiet move leaves the view's counter
(``seq``) as it was, so no other view changes at all; the platform counts it in no number the others see.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engine.core import Action, PlayerId
from engine.seven_ages import armed, prefs
from engine.seven_ages.actions import Prefer
from engine.seven_ages.civilisation_moves import Arm, Disarm
from engine.seven_ages.state import OVER, SevenState

EXAMPLES = 3
"""How many orders :func:`examples` arms at most (a few suffice to show that none is seen)."""


def is_quiet(action: Action) -> bool:
    """Whether ``action`` is quiet: an order armed or withdrawn, or a preference nobody else sees
    (:data:`QUIET`); a move of any other class is not."""
    rule = QUIET.get(type(action))
    return rule is not None and rule(action)


def _always(action: Action) -> bool:
    return True


def _unseen_preference(action: Prefer) -> bool:
    pref = prefs.PREFERENCES.get(action.key)
    return pref is not None and pref.quiet


QUIET: Mapping[type[Action], Callable[[Any], bool]] = {
    Arm: _always, Disarm: _always, Prefer: _unseen_preference}
"""The classes of move that may be quiet, each with the rule saying whether one is."""


def examples(state: SevenState, seat: PlayerId) -> list[Action]:
    """Some quiet moves ``seat`` may send now: an order on each of a few armable cards of its hand (on the
    first empire of another player it fits, naming that empire's first areas; the next such empire when
    that order is armed already), the withdrawal of each order it has, and each quiet preference set to
    another value. Each is accepted as it stands and changes something."""
    if state.phase == OVER or not 0 <= seat < state.players:
        return []
    out: list[Action] = [Disarm(seat, order[0]) for order in armed.orders(state, seat)]
    out += _orders(state, seat)
    for key in sorted(prefs.PREFERENCES):
        pref = prefs.PREFERENCES[key]
        now = prefs.standing(state, seat, key)
        other = next((v for v in pref.values if v != now), None)
        if pref.quiet and other is not None:
            out.append(Prefer(seat, key, other))
    return out


def _orders(state: SevenState, seat: PlayerId) -> list[Action]:
    """Up to :data:`EXAMPLES` orders ``seat`` may arm now, one per card, each other than the order it
    has armed on that card (arming that again would change nothing: no example)."""
    out: list[Action] = []
    mine = [e.card for e in state.empires_of(seat)]
    standing = set(armed.orders(state, seat))
    for card in sorted(set(state.people[seat].hand)):
        if len(out) >= EXAMPLES or not armed.armable(card):
            continue
        to = mine[0] if armed.takes(card) and mine else 0
        if armed.takes(card) and not to:
            continue
        wanted = armed.disorders(card)
        orders = ((card, e.card, ",".join(e.areas()[:wanted]), to)
                  for e in state.empires if e.owner != seat and len(e.areas()) >= wanted)
        order = next((o for o in orders if o not in standing), None)
        if order is not None:
            out.append(Arm(seat, *order))
    return out
