"""The event window (L708, L879-881): after something is revealed, players may play events on it, one at a
time from the First player clockwise; a play reopens the window, and it closes when every seat asked has
passed in turn.

Whether a seat is asked never depends on its hand (that would tell the table who holds a playable
card): it is asked by a **public** standing preference, ``events=ask`` (the default) or ``events=never``,
set at any time and announced to every player (:mod:`engine.seven_ages.prefs`); the seats a window is
*about* (the two sides of a conflict) are always asked. A seat is asked through a pending decision of kind
``event``: play one of its cards of the window's timing (and the codes the window carries out), or pass.

The window is generic: its state is ``Go.data["window"]`` of the go it opened in (``timing``, the seats
in asking order, the next to ask, the passes in a row), and what a play does is the handler the window's
timing registers (:func:`register`); the conflict registers ``conflict`` (:mod:`engine.seven_ages.battle`).
Part 4 reuses it for the other timings.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import Any

from engine.core import Action, IllegalAction, PlayerId
from engine.seven_ages import prefs
from engine.seven_ages.actions_fight import WindowPass, WindowPlay
from engine.seven_ages.cards import Card, load_deck
from engine.seven_ages.state import Go, Pending, SevenState
from engine.seven_ages.steps import Ctx

EVENT = "event"
"""The pending decision of the seat asked in an event window."""
PREF = prefs.register(prefs.Preference("events", "ask", {
    "ask": "asked at every event window of a conflict, whatever the hand.",
    "never": "never asked at event windows of conflicts, except in one's own conflicts."}, public=True))
"""Whether a seat is asked at event windows (L879-881): public, since being asked must tell nothing."""


Handler = Callable[[Ctx, Go, Card, int], None]


@dataclass(frozen=True)
class Timing:
    """What a window of one timing carries out: the effect codes it knows, whether the events target a
    side, and the handler that applies a play."""

    codes: frozenset[str]
    sided: bool
    handler: Handler


_TIMINGS: dict[str, Timing] = {}


def register(timing: str, codes: Iterable[str], handler: Handler, *, sided: bool = True) -> None:
    """Let windows of ``timing`` carry out events made only of ``codes``, applied by ``handler``."""
    _TIMINGS[timing] = Timing(frozenset(codes), sided, handler)


def standing(state: SevenState, seat: PlayerId) -> str:
    """``seat``'s public setting for event windows (``ask`` by default)."""
    return prefs.standing(state, seat, PREF.key)


def seats_asked(state: SevenState, always: Iterable[PlayerId]) -> list[PlayerId]:
    """The seats a window asks, from the First player clockwise: those whose public setting is ``ask``,
    and always the seats the window is about. Nothing of any hand goes into it."""
    keep = set(always)
    return [s for s in state.seats_from_first() if s in keep or standing(state, s) == "ask"]


def playable(state: SevenState, seat: PlayerId, timing: str) -> list[Card]:
    """The cards in ``seat``'s hand whose event has this timing and only codes the window carries out."""
    rules = _TIMINGS[timing]
    deck = load_deck()
    return [deck.cards[c] for c in state.people[seat].hand
            if deck.cards[c].event.timing == timing and deck.cards[c].event.effects
            and all(e["code"] in rules.codes for e in deck.cards[c].event.effects)]


def window_of(go: Go) -> dict[str, Any] | None:
    w = go.data.get("window")
    return dict(w) if w else None


def open_window(ctx: Ctx, go: Go, timing: str, always: Iterable[PlayerId]) -> None:
    """Open a window of ``timing`` in ``go``: ask the first seat."""
    order = seats_asked(ctx.state, always)
    window = {"timing": timing, "order": order, "next": 0, "passes": 0}
    ctx.state = ctx.state.with_go(replace(go, data={**go.data, "window": window}))
    ctx.emit("window_opens", timing=timing, seats=order)
    _ask(ctx, go.empire, window)


def _ask(ctx: Ctx, empire: int, window: dict[str, Any]) -> None:
    seat = int(window["order"][int(window["next"])])
    ctx.state = replace(ctx.state, pending=(*ctx.state.pending, Pending(EVENT, seat, empire, {})))


def legal(state: SevenState, pending: Pending) -> list[Action]:
    go = next(g for g in state.goes if g.empire == pending.empire)
    window = window_of(go)
    assert window is not None
    rules = _TIMINGS[str(window["timing"])]
    out: list[Action] = []
    for c in playable(state, pending.seat, str(window["timing"])):
        sides = (0, 1) if rules.sided and any(e["code"] != "ignore_fort" for e in c.event.effects) else (0,)
        out += [WindowPlay(pending.seat, c.number, side) for side in sides]
    return [*out, WindowPass(pending.seat)]


def apply(ctx: Ctx, go: Go, action: Action) -> bool:
    """The asked seat plays or passes; True when the window has closed (every seat asked passed in turn)."""
    pending = next(p for p in ctx.state.pending if p.seat == action.player and p.kind == EVENT)
    window = window_of(go)
    assert window is not None
    if isinstance(action, WindowPlay):
        if action not in legal(ctx.state, pending):
            raise IllegalAction("not_playable", "You cannot play that event now.")
        s = ctx.state
        person = s.people[action.player]
        hand = list(person.hand)
        hand.remove(action.card)
        s = replace(s.with_player(replace(person, hand=tuple(hand))), discard=(*s.discard, action.card))
        ctx.state = s
        ctx.emit("window_event_played", seat=action.player, card=action.card, side=action.side,
                 timing=window["timing"])
        handler = _TIMINGS[str(window["timing"])].handler
        handler(ctx, ctx.state.go_of(go.seat) or go, load_deck().cards[action.card], action.side)
        window["passes"] = 0
    elif isinstance(action, WindowPass):
        window["passes"] = int(window["passes"]) + 1
    else:
        raise IllegalAction("wrong_move", "Play an event, or pass.")
    ctx.state = replace(ctx.state, pending=tuple(p for p in ctx.state.pending if p is not pending))
    go = ctx.state.go_of(go.seat) or go
    if int(window["passes"]) >= len(window["order"]):
        ctx.state = ctx.state.with_go(replace(go, data={**go.data, "window": None}))
        ctx.emit("window_closes", timing=window["timing"])
        return True
    window["next"] = (int(window["next"]) + 1) % len(window["order"])
    ctx.state = ctx.state.with_go(replace(go, data={**go.data, "window": window}))
    _ask(ctx, go.empire, window)
    return False
