"""Option 8, Take that! (L1220-1228): cards are played only on empires and players within Range.

"during *Civilise* you may only play artefact and event cards on empires within *Range* of the empire
taking the action (any of your empires if the *civilise* is not being carried out by an empire)" (L1222);
"To play events at any other time you must have an empire within range of the area or empire targeted
by the card" (L1224); "To play an event that targets a player, that player must have an empire within
range of any of your empires" (L1226); and, stricter (its own option), black, blue or green artefacts
only on one's own empires (L1228).

Each check gives None when the play may go ahead, or the one sentence that says why not. In Civilise, in
an event window and for an armed order as it fires, Range counts through another empire's areas with its
permission (L2233): a target reachable so is offered (or the order fires), and the play asks first
(:func:`civilise_route`, :func:`other_time_route`, :mod:`engine.seven_ages.range_requests`).
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.core import PlayerId
from engine.seven_ages.cards import Artefact
from engine.seven_ages.range_permission import Route, route
from engine.seven_ages.reach import empire_reaches
from engine.seven_ages.state import Empire, SevenState
from engine.seven_ages.text import empire_name

OPTION, STRICT = "take_that", "take_that_strict"
"""The options' keys: L1222-1226, and L1228's stricter artefacts (on with option 8 only)."""
OWN_ONLY_COLOURS = frozenset({"black", "blue", "green"})
"""The artefact colours the stricter variant keeps to one's own empires (L1228)."""
EXEMPT = frozenset({"Holy war"})
"""L1228's exception by name; *holy war* is placed by a religion's defender (L1493, option 16), never
played from the hand here, and so is Peace treaty's second artefact: neither reaches these checks."""


def on(state: SevenState) -> bool:
    """Whether option 8 is in play."""
    return bool(state.options.get(OPTION))


def _reaches(state: SevenState, froms: Iterable[Empire], target: Empire, area: str) -> bool:
    """Whether one of ``froms`` is the target or has it (or ``area`` of it) within Range."""
    goal = [area] if area else target.areas()
    return any(f.card == target.card or empire_reaches(state, f, goal, target.card) for f in froms)


def civilise_froms(state: SevenState, seat: PlayerId, civiliser: int) -> list[Empire]:
    """The empires whose Range counts for a play in a Civilise by ``civiliser``: that one, or every empire
    of the player when the civilise is on no empire (L1222)."""
    if civiliser and state.has_empire(civiliser):
        return [state.empire(civiliser)]
    return list(state.empires_of(seat))


def civilise_route(state: SevenState, seat: PlayerId, civiliser: int, target: Empire,
                   area: str = "") -> Route | None:
    """How a play of ``seat`` on ``target`` (or ``area`` of it) in a Civilise by ``civiliser`` counts
    Range (L1222), through other empires' areas with their permission (L2233); None: out of Range."""
    return route(state, civilise_froms(state, seat, civiliser), [area] if area else target.areas(),
                 target.card)


def civilise_problem(state: SevenState, seat: PlayerId, civiliser: int, target: Empire,
                     area: str = "") -> str | None:
    """Why ``seat`` may not play an artefact or event on ``target`` in a Civilise by ``civiliser`` (0: on
    no empire, then any of the player's empires counts, L1222), even with every permission asked."""
    if not on(state) or civilise_route(state, seat, civiliser, target, area) is not None:
        return None
    by = empire_name(civiliser) if civiliser and state.has_empire(civiliser) else "any of your empires"
    return (f"With option 8 (Take that!), cards in Civilise go only on empires within Range of {by}, and "
            f"{empire_name(target.card)} are not (L1222).")


def other_time_route(state: SevenState, seat: PlayerId, target: Empire, area: str = "") -> Route | None:
    """How one of ``seat``'s empires has ``target`` (or ``area`` of it) within Range for an event outside
    Civilise (L1224), through other empires' areas with their permission (L2233); None: out of Range.
    Without option 8, a route that asks nobody."""
    if not on(state):
        return Route(0)
    return route(state, state.empires_of(seat), [area] if area else target.areas(), target.card)


def other_time_problem(state: SevenState, seat: PlayerId, target: Empire, area: str = "",
                       asking: bool = False) -> str | None:
    """Why ``seat`` may not play an event on ``target`` (or ``area`` of it) outside Civilise (L1224); with
    ``asking``, even counting through other empires' areas with their permission (an event window and an
    armed order as it fires ask it)."""
    if not on(state) or _reaches(state, state.empires_of(seat), target, area):
        return None
    if asking and other_time_route(state, seat, target, area) is not None:
        return None
    where = area or empire_name(target.card)
    return (f"With option 8 (Take that!), you play an event outside Civilise only with an empire within "
            f"Range of {where} (L1224).")


def player_route(state: SevenState, seat: PlayerId, empire: Empire) -> Route | None:
    """How one of ``seat``'s empires has ``empire`` within Range, for an event on its player (L1226),
    through other empires' areas with their permission (L2233); None: out of Range. Without option 8, a
    route that asks nobody."""
    if not on(state):
        return Route(0)
    return route(state, state.empires_of(seat), empire.areas(), empire.card)


def player_in_range(state: SevenState, seat: PlayerId, other: PlayerId) -> bool:
    """Whether an event of ``seat`` may target the player ``other`` (L1226): always without option 8."""
    if not on(state):
        return True
    mine = list(state.empires_of(seat))
    return any(_reaches(state, mine, o, "") for o in state.empires_of(other))


def artefact_problem(state: SevenState, seat: PlayerId, target: Empire, art: Artefact) -> str | None:
    """Why the stricter variant refuses ``art`` on ``target`` (L1228): black, blue and green artefacts go
    on the player's own empires only."""
    if not (on(state) and state.options.get(STRICT)) or target.owner == seat:
        return None
    if art.colour not in OWN_ONLY_COLOURS or art.name in EXEMPT:
        return None
    return (f"With option 8's stricter artefacts, {art.name} ({art.colour}) goes only on an empire of "
            "yours (L1228).")
