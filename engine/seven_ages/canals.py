"""The Panama and Suez canals (L652): ships pass between the two seas a canal joins, directly and at no
extra cost, with the permission of the empire that owns the canal, which answers each request (yes, no
or a toll) or answers ahead with a standing preference.

Readings (``data/seven_ages/README.md``): the owner is the empire controlling the canal's land area; a
canal nobody controls is closed (nobody gives permission); Kiel joins the Schleswig coasts only with the
Great Canal artefact (L1582, option 16), so it is no canal here.
"""

from __future__ import annotations

from engine.core import IllegalAction, PlayerId
from engine.seven_ages.actions_move import CANAL_RULES, CanalPreference
from engine.seven_ages.map import Canal, load_map
from engine.seven_ages.state import Empire, SevenState

OPEN_CANALS = ("Panama", "Suez")
"""The canals of the standard game (L652)."""
PREF = "canal:"


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
    """``seat``'s standing answer to canal requests (one of :data:`CANAL_RULES`; "ask" by default)."""
    return next((x[len(PREF):] for x in state.people[seat].prefs if x.startswith(PREF)), "ask")


def set_preference(state: SevenState, action: CanalPreference) -> SevenState:
    """Record a player's standing answer to requests to pass their canals (an anytime move)."""
    if action.rule not in CANAL_RULES:
        raise IllegalAction("bad_preference", "Choose ask, yes, no or a toll of 5, 10 or 20.")
    return state.with_preference(action.player, PREF, action.rule)
