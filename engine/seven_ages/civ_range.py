"""Range with permission for the plays of Civilise (L885, L1222, L2233): which empires a play must ask.

An event or artefact played on an empire in Civilise under option 8 counts Range to it, or to the area it
names (L1222); an assassination counts Range to the leader's empire whatever the options (L885). Either may
count through another empire's areas with that empire's permission (L2233): the play's route
(:func:`engine.seven_ages.range_permission.route`) names the empires to ask, and
:mod:`engine.seven_ages.range_requests` asks them before anything is played. Both checks of one play count
from the same empires; their keepers are asked together, lowest card first.

What each play offered needs is kept in the civilising go's data (``via``, its player's view alone) so that
its label can say "(asking the Carthaginians)"; it is read from the board only, never from anyone's answer.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from engine.core import Action, PlayerId
from engine.seven_ages import take_that
from engine.seven_ages.cards import load_deck
from engine.seven_ages.civilisation_moves import PlayArtefact, PlayEvent
from engine.seven_ages.range_permission import Route, route
from engine.seven_ages.range_requests import asking_words
from engine.seven_ages.state import Empire, Go, SevenState
from engine.seven_ages.view import SevenView

VIA = "via"
"""Go data: ``[kind, card, target, area, keepers]`` of each play offered that must ask first."""
ASSASSINATE = "assassinate"
LOOK = "look_at_hand"
"""The code of the events on a player (I spy, Counterspy): their player is named by one of its empires when
it is within Range only through other empires' areas (:func:`spy_targets`)."""


def assassin_route(state: SevenState, go: Go, target: Empire) -> Route | None:
    """How the assassin has ``target`` within Range (L885): from the civilising empire, or any of the
    player's empires for a civilise on none; through others' areas with their permission. None: out."""
    return route(state, take_that.civilise_froms(state, go.seat, go.empire), target.areas(), target.card)


def spy_targets(state: SevenState, seat: PlayerId, direct: Iterable[int]) -> list[Empire]:
    """For an event on a player under option 8 (L1226): each other player holding cards, not among
    ``direct`` (those within Range without asking), that has an empire within Range through other empires'
    areas with their permission (L2233), named by that empire (the fewest keepers, then the lowest cards),
    in seat order. The play asks before the card leaves the hand, so the player is chosen with it."""
    if not take_that.on(state):
        return []
    skip = {seat, *direct}
    out: list[Empire] = []
    for p in state.people:
        if p.seat in skip or not p.hand:
            continue
        reached = [(r, e) for e in state.empires_of(p.seat)
                   if (r := take_that.player_route(state, seat, e)) is not None]
        if reached:
            out.append(min(reached, key=lambda re: (len(re[0].keepers), re[0].keepers, re[1].card))[1])
    return out


def _merged(routes: Sequence[Route]) -> Route:
    """One play's checks asked together: the first that must ask pays, every keeper once."""
    start = next((r.start for r in routes if r.keepers), routes[0].start if routes else 0)
    return Route(start, tuple(sorted({k for r in routes for k in r.keepers})))


def event_route(state: SevenState, go: Go, target: Empire, area: str,
                effects: Iterable[Mapping[str, Any]]) -> Route | None:
    """What an event on ``target`` (``area`` of it) needs: option 8's Range (L1222) and an assassin's
    (L885); for an event on a player (I spy), named by ``target``, one of its empires, Range from any of
    the player's empires (L1226). None when out of Range whatever permission were given."""
    effects = list(effects)
    if any(x["code"] == LOOK for x in effects):
        return take_that.player_route(state, go.seat, target)
    routes: list[Route] = []
    if take_that.on(state):
        r = take_that.civilise_route(state, go.seat, go.empire, target, area)
        if r is None:
            return None
        routes.append(r)
    if any(x["code"] == ASSASSINATE for x in effects):
        r = assassin_route(state, go, target)
        if r is None:
            return None
        routes.append(r)
    return _merged(routes)


def artefact_route(state: SevenState, go: Go, target: Empire) -> Route | None:
    """What an artefact on ``target`` needs: option 8's Range to the empire (L1222), or nothing."""
    if not take_that.on(state):
        return Route(0)
    return take_that.civilise_route(state, go.seat, go.empire, target)


def play_route(state: SevenState, go: Go, action: Action) -> Route | None:
    """The route of an offered play on an empire (a Route without keepers for any other), by the rule
    :data:`PLAY_ROUTES` files its class under."""
    route = PLAY_ROUTES.get(type(action))
    return Route(0) if route is None else route(state, go, action)


def _event_play_route(state: SevenState, go: Go, action: PlayEvent) -> Route | None:
    if not action.target or not state.has_empire(action.target):
        return Route(0)
    effects = load_deck().cards[action.card].event.effects
    return event_route(state, go, state.empire(action.target), action.area, effects)


def _artefact_play_route(state: SevenState, go: Go, action: PlayArtefact) -> Route | None:
    if not action.target or not state.has_empire(action.target):
        return Route(0)
    return artefact_route(state, go, state.empire(action.target))


PLAY_ROUTES: Mapping[type[Action], Callable[[SevenState, Go, Any], Route | None]] = {
    PlayEvent: _event_play_route, PlayArtefact: _artefact_play_route}
"""The plays whose Range may need asking (L2233), by class: an event's and an artefact's on an empire."""


def via(state: SevenState, go: Go, moves: Iterable[Action]) -> list[list[Any]]:
    """The plays among ``moves`` whose route must ask, with the keepers to ask."""
    out: list[list[Any]] = []
    for a in moves:
        if isinstance(a, (PlayEvent, PlayArtefact)) and a.target:
            r = play_route(state, go, a)
            if r is not None and r.keepers:
                out.append([a.kind, a.card, a.target, a.area, list(r.keepers)])
    return out


def note(view: SevenView, action: PlayEvent | PlayArtefact) -> str:
    """" (asking the Carthaginians)" after the label of a play that asks first; "" for one that need not."""
    for go in view.get("goes", []):
        # only a Civilise go keeps these plays; a Trade go's own "via" (its partners' keepers) is another
        # list, and the same event labels serve the events played as a Trade go opens
        if go["seat"] != action.player or go["action"] != "civilise":
            continue
        for kind, card, target, area, keepers in go["data"].get(VIA, []):
            if (kind, card, target, area) == (action.kind, action.card, action.target, action.area):
                return f" ({asking_words([int(k) for k in keepers])})"
    return ""
