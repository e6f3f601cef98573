"""The Panama and Suez canals (L652): ships pass between the two seas a canal joins, directly and at no
extra cost, with the permission of the empire that owns the canal, which answers each request (yes, no
or a toll) or answers ahead with a standing preference.

Readings (``data/seven_ages/README.md``): the owner is the empire controlling the canal's land area; a
canal nobody controls is closed (nobody gives permission); Kiel joins the Schleswig coasts only with the
Great Canal artefact (L1582, option 16), so it is no canal here.
"""

from __future__ import annotations

from engine.core import PlayerId
from engine.seven_ages import prefs
from engine.seven_ages.manoeuvre_moves import TOLLS
from engine.seven_ages.map import Canal, load_map
from engine.seven_ages.state import Empire, SevenState

OPEN_CANALS = ("Panama", "Suez")
"""The canals of the standard game (L652)."""
PREF = prefs.register(prefs.Preference("canal", "ask", {
    "ask": "When another empire's ships want to pass your canal, you are asked.",
    "yes": "When another empire's ships want to pass your canal, they may pass.",
    "no": "When another empire's ships want to pass your canal, they may not pass.",
    **{str(t): f"When another empire's ships want to pass your canal, they may pass for a toll of {t} "
               "money." for t in TOLLS}}))
"""A canal owner's standing answer (L652): ask each time, always let through, never, or this toll."""


def canal_between(a: str, b: str) -> Canal | None:
    """The canal joining the seas ``a`` and ``b`` (None if none does)."""
    return next((c for c in load_map().canals if c.name in OPEN_CANALS and {a, b} == set(c.seas)), None)


def canals_from(sea: str) -> list[tuple[Canal, str]]:
    """Each canal with one end in ``sea``, and the sea at its other end."""
    return [(c, c.seas[1] if c.seas[0] == sea else c.seas[0]) for c in load_map().canals
            if c.name in OPEN_CANALS and sea in c.seas]


def owner(state: SevenState, canal: Canal) -> Empire | None:
    """The empire that owns ``canal``: the one controlling its land area."""
    return state.controller(canal.area)


def standing(state: SevenState, seat: PlayerId) -> str:
    """``seat``'s standing answer to canal requests ("ask" by default)."""
    return prefs.standing(state, seat, PREF.key)
