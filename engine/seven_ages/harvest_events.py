"""The harvest's event window (L879-881): the harvest's events, played in turn before Harvest glory is scored.

As the end of turn begins (after free progress, before glory is bought: "At the start of *Harvest glory*, Anna
plays the *Glory?* card", L1130), a window of timing ``harvest`` opens (:mod:`engine.seven_ages.window`): the
First player is asked first, then clockwise; a play reopens it; when every seat asked has passed in a row it
closes (L881). Who is asked is the public ``events`` setting only, and a seat holding no card at all counts
as passing (a hand's size is public); nothing else of a hand goes into it.

Each event played goes through the cancel chain (:func:`engine.seven_ages.cancels.play`) before anything of
it happens; the events that stand are kept in the order they were played (``Go.data["harvest_events"]``) and
carried out, in that order, when the window closes (:func:`carry_out`). So order matters as L879 says:
*Glorious Glory* played after *Glory? Bah, Humbug* cancels it in its chain and the harvest is scored as
usual; played before it, it is an event of its own (one glory for its player) and gone from the hands when
*Bah, Humbug* comes, which then stands: no one gets glory this harvest.

Readings (``data/seven_ages/README.md``, "The harvest's events"):

- ``no_harvest``: no one gains glory at this Harvest glory: neither the categories nor the harvest events' own
  glory (Glorious Glory's point, the pity cards'), whichever was played first; glory bought with money before
  the harvest is a purchase, and stands.
- ``reveal_glory``: glory is on the public track in standard play, so it shows nothing new: it is announced.
- ``glory_if_least``: the player it is played on gains its ``up_to`` glory if no player has less glory than
  they have at that moment (after the events played before it), else nothing: with the track public, the
  claim of L1277 is the most the card allows and the challenge is decided by the track.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from engine.core import Action, Choice, Event, Names, PlayerId
from engine.seven_ages import cancels, window
from engine.seven_ages.cards import Card, load_deck
from engine.seven_ages.conflict_moves import WindowPass, WindowPlay
from engine.seven_ages.decision import choice, register_named_label
from engine.seven_ages.effects_words import describe_all
from engine.seven_ages.state import Go, Pending, SevenState
from engine.seven_ages.steps import Ctx
from engine.seven_ages.text import register_event, stage
from engine.seven_ages.text import seat as seat_name
from engine.seven_ages.view import PendingView, SevenView
from engine.words import shorten

TIMING = "harvest"
"""The window timing of the harvest's events (and the cards' own ``timing``)."""
CODES = ("no_harvest", "reveal_glory", "glory_if_least", "glory", cancels.CODE)
"""What the harvest's four cards are made of (Glorious Glory's cancel is idle when played as an event)."""
PLAYED = "harvest_events"
"""``Go.data`` of the end of turn: the events that stood, in the order they were played."""
NO_HARVEST = "no_harvest"
"""``Go.data`` of the end of turn: set when a *Glory? Bah, Humbug* stood (no glory this harvest)."""
RESUME = "harvest"
"""The key under which the harvest's events come back from the cancel chain."""


def open_harvest(ctx: Ctx, go: Go) -> bool:
    """Open the harvest's window in the end of turn's ``go``; True when it closed at once (no seat asked)."""
    return window.open_window(ctx, go, TIMING, ())


def _skips(state: SevenState, go: Go, seat: PlayerId) -> bool:
    """A seat holding no card cannot play one: its hand's size is public, so skipping it tells nothing."""
    return not state.people[seat].hand


def _ask(state: SevenState, go: Go) -> dict[str, Any]:
    return {"harvest": True}


def _targets(state: SevenState, card: Card) -> tuple[int, ...]:
    """A card played on a player names one (any seat, its own too); one played on everyone names none."""
    return tuple(range(state.players)) if card.event.target == "player" else (0,)


def _played(ctx: Ctx, go: Go, card: Card, side: int) -> None:
    """A harvest event left its player's hand: announce it, then its cancel chain comes first (L875)."""
    seat = window.asked_seat(go)
    target = side if card.event.target == "player" else None
    ctx.emit("harvest_event_played", seat=seat, card=card.number, event=card.event.name, target=target)
    cancels.play(ctx, go, card.number, seat, target, RESUME, {"card": card.number, "seat": seat,
                                                              "on": target})


def _stands(ctx: Ctx, go: Go, chosen: Mapping[str, Any]) -> None:
    """An event no cancel stopped: kept, in the order played, for the scoring."""
    kept = [*go.data.get(PLAYED, []), dict(chosen)]
    ctx.state = ctx.state.with_go(replace(go, data={**go.data, PLAYED: kept}))


def move(ctx: Ctx, go: Go, action: Action) -> bool:
    """A seat's answer in the harvest's window (or in the cancel chain of an event played there); True when
    the harvest's window has closed."""
    if cancels.chain_of(go) is not None:
        cancels.move(ctx, go, action)
        now = ctx.state.go_of(go.seat)
        if now is None or cancels.chain_of(now) is not None:
            return False
        return window.resume_outer(ctx, go.seat)
    return window.apply(ctx, go, action)


def carry_out(ctx: Ctx, go: Go) -> None:
    """The events that stood, in the order they were played, before the harvest is scored."""
    deck = load_deck()
    played = list(go.data.get(PLAYED, []))
    effects = [(p, x) for p in played for x in deck.cards[int(p["card"])].event.effects]
    if any(x["code"] == NO_HARVEST for _, x in effects):
        ctx.state = ctx.state.with_go(replace(go, data={**go.data, NO_HARVEST: True}))
        by = next(int(p["card"]) for p, x in effects if x["code"] == NO_HARVEST)
        ctx.emit("harvest_cancelled", card=by)
        return
    for p, x in effects:
        seat = int(p["seat"]) if p["on"] is None else int(p["on"])
        if x["code"] == "glory":
            _gain(ctx, seat, int(x["amount"]))
            ctx.emit("harvest_event_glory", seat=seat, glory=int(x["amount"]))
        elif x["code"] == "reveal_glory":
            ctx.emit("glory_shown", seat=seat, glory=ctx.state.people[seat].glory)
        elif x["code"] == "glory_if_least":
            mine = ctx.state.people[seat].glory
            if all(q.glory >= mine for q in ctx.state.people):
                _gain(ctx, seat, int(x["up_to"]))
                ctx.emit("harvest_event_glory", seat=seat, glory=int(x["up_to"]))
            else:
                ctx.emit("not_least", seat=seat)


def _gain(ctx: Ctx, seat: PlayerId, points: int) -> None:
    ctx.state = ctx.state.with_player(ctx.state.people[seat].gain("event", points))


def pending_legal(state: SevenState, pending: Pending) -> list[Action]:
    """The choices of a seat asked in the harvest's window or in a chain under way there."""
    return window.legal(state, pending)


def passive(pending: Pending) -> Action:
    """A seat that lets the window time out passes."""
    return WindowPass(pending.seat)


def asked_in(state: SevenState, pending: Pending) -> Go | None:
    """The end of turn's go whose harvest window ``pending`` asks about (None: not such a pending, or a cancel
    chain is under way there)."""
    if pending.kind != window.EVENT:
        return None
    go = next((g for g in state.goes if g.empire == pending.empire), None)
    w = window.window_of(go) if go is not None else None
    return go if go is not None and w is not None and w["timing"] == TIMING else None


# -- words ------------------------------------------------------------------------------------------

def _heading(view: SevenView, pending: PendingView, who: str) -> str:
    """The asked seat's question, the same whatever it holds, headed by the stage as every heading is."""
    return f"{stage(view)}: before Harvest glory is scored, play an event of the harvest, or pass"


def _label(view: SevenView, action: WindowPlay, names: Names) -> Choice:
    """A harvest event names its target player; any other window's play is worded as before."""
    mine = next((p for p in view["pending"] if p["seat"] == action.player), None)
    if mine is None or mine.get("ask", {}).get("timing") != TIMING:
        return choice(view, action.player, action)
    ev = load_deck().cards[action.card].event
    on = f" on {seat_name(names, action.side)}" if ev.target == "player" else ""
    # played as an event, a card's cancel part is idle (it cancels only in a chain): not worded here
    words = f"Play {ev.name}{on}: {describe_all([x for x in ev.effects if x['code'] != cancels.CODE])}"
    return Choice(action, shorten(words, 100), group="Events")


def _words(event: Event, names: Names) -> str | None:
    d = event.data
    who = seat_name(names, int(d["seat"])) if "seat" in d else ""
    if event.type == "harvest_event_played":
        on = f" on {seat_name(names, int(d['target']))}" if d["target"] is not None else ""
        return f"{who} plays {d['event']}{on}."
    if event.type == "harvest_cancelled":
        return f"{load_deck().cards[int(d['card'])].event.name} stands: no one gets glory this Harvest glory."
    if event.type == "harvest_event_glory":
        return f"{who} gains {d['glory']} glory from a harvest event."
    if event.type == "glory_shown":
        return f"{who} shows their glory: {d['glory']}."
    if event.type == "not_least":
        return f"{who} gains nothing: another player has less glory."
    return None


window.register(TIMING, CODES, _played, sided=False, skips=_skips, ask=_ask, targets=_targets,
                heading=_heading)
cancels.register_resume(RESUME, _stands)
register_named_label(WindowPlay.kind, _label)
for _type in ("harvest_event_played", "harvest_cancelled", "harvest_event_glory", "glory_shown", "not_least"):
    register_event(_type, _words)
