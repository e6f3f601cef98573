"""The cancel chain (L871-881): an event played on its target may be cancelled before anything of it happens.

When an event is played, *before* any of its effects and before its card check (L875, "Events must be
cancelled immediately they are played on their target, before any checks on their effectiveness"), a
window of timing ``cancel`` opens (part 3's window, :mod:`engine.seven_ages.window`). Each seat asked may
play a card whose ``cancel_event`` names the event on top of the chain, or pass. A cancel played is itself
an event: it goes on top and the window reopens, now offering only the cancels of *that* event ("each event
is implemented (or cancelled) before the next is played", L877: no Gold mine while Counterspy waits). When
every seat asked has passed in a row, the chain resolves from the top: the top event stands, the one under
it is cancelled, the one under that stands again (its canceller was cancelled: "Cyberthief ... is then
played to cancel Counterspy allowing I spy to be implemented", L873), and so on down. A cancelled event has
no effect; every card played is discarded as it is played (L859), so a seat whose card is cancelled has
lost it. If the event at the bottom stands, what played it goes on with it (:func:`register_resume`).

Readings (written down in ``data/seven_ages/README.md``, "The cancel chain"):

- **Who is asked.** By the public ``events`` setting only, never by the hand (a seat with no cancel is asked
  all the same and passes, L881's "you may pass"); the player of the event and the player of its target
  empire are always asked, as a conflict's two sides are: the rulebook's example is "if Counterspy is
  played on you, you could play I spy to cancel it" (L877). An event played on a player (I spy) names its
  victim as it is carried out, after the window: only the setting decides for the other seats.
- **Not one's own event.** The player of the event on top is not asked this time round (they count as
  passing): cancelling one's own play is taking it back, which the rulebook never offers. They are asked
  again once someone cancels it.
- **Only a card of the deck can cancel.** An event no card of the deck names (Gold mine) opens no window:
  which cards the deck holds is public, so this tells nothing of any hand.
- **In a window a cancel only cancels.** A card played there does what its ``cancel_event`` says and nothing
  else (I spy played on Counterspy looks at no hand); played in its player's own Civilise it is an event
  like any other, its cancel part idle (:mod:`engine.seven_ages.civ_events`).

Any timing reuses the chain by calling :func:`play` once its card has left the hand, with the key of a
resume it registered.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from typing import Any

from engine.core import Action, Event, Names, PlayerId
from engine.seven_ages import window
from engine.seven_ages.cards import Card, load_deck
from engine.seven_ages.conflict_moves import WindowPass
from engine.seven_ages.state import Go, Pending, SevenState
from engine.seven_ages.steps import Ctx
from engine.seven_ages.text import register_event, stage
from engine.seven_ages.text import seat as seat_name
from engine.seven_ages.view import PendingView, SevenView

TIMING = "cancel"
"""The window timing of the cancel chain."""
CODE = "cancel_event"
CHAIN = "chain"
"""Where the chain under way is kept: ``Go.data["chain"]`` of the go the first event was played in."""

Resume = Callable[[Ctx, Go, Mapping[str, Any]], None]
"""What carries out an event that stood: the go it was played in and what its player chose (target, area)."""
_RESUMES: dict[str, Resume] = {}


def register_resume(key: str, resume: Resume) -> None:
    """Let :func:`play` hand an event that stood back to ``resume`` (one key per place events are played)."""
    _RESUMES[key] = resume


def cancels(card: Card) -> frozenset[str]:
    """The names of the events ``card`` cancels (empty: none)."""
    return frozenset(str(n) for x in card.event.effects if x["code"] == CODE for n in x["events"])


def cancellable(name: str) -> bool:
    """Whether some card of the deck cancels the event ``name`` (public: the deck's list is printed)."""
    return any(name in cancels(c) for c in load_deck().cards.values())


def chain_of(go: Go) -> dict[str, Any] | None:
    """The chain under way in ``go`` (None: no event waits to be cancelled there)."""
    chain = go.data.get(CHAIN)
    return dict(chain) if chain else None


def _top(go: Go) -> dict[str, Any]:
    chain = chain_of(go)
    assert chain is not None
    return dict(chain["events"][-1])


def top_name(go: Go) -> str:
    """The name of the event on top of the chain (the one a cancel would cancel now)."""
    return load_deck().cards[int(_top(go)["card"])].event.name


def play(ctx: Ctx, go: Go, card: int, seat: PlayerId, target_seat: PlayerId | None, resume: str,
         chosen: Mapping[str, Any]) -> None:
    """An event was played (its card already out of its player's hand): open its cancel window, or, when no
    card of the deck cancels it, carry it out at once through the resume registered as ``resume``.

    Args:
        ctx: the move under way.
        go: the go the event is played in (the chain and its window live there).
        card: the event's card.
        seat: its player.
        target_seat: the player of the empire it is played on (None: no empire), always asked.
        resume: the key of the :func:`register_resume` that carries the event out if it stands.
        chosen: what its player chose, handed back to the resume (target, area ...).
    """
    if not cancellable(load_deck().cards[card].event.name):
        _RESUMES[resume](ctx, go, chosen)
        return
    chain = {"events": [{"card": card, "seat": seat}], "resume": resume, "chosen": dict(chosen)}
    go = replace(go, data={**go.data, CHAIN: chain})
    ctx.state = ctx.state.with_go(go)
    always = {seat} | ({target_seat} if target_seat is not None else set())
    if window.open_window(ctx, go, TIMING, always):
        _resolve(ctx, go.seat)


def _offer(state: SevenState, go: Go, seat: PlayerId) -> list[Card]:
    """The cards of ``seat``'s hand that cancel the event on top (and nothing else, L877)."""
    name = top_name(go)
    deck = load_deck()
    return [deck.cards[c] for c in state.people[seat].hand if name in cancels(deck.cards[c])]


def _skips(state: SevenState, go: Go, seat: PlayerId) -> bool:
    """The player of the event on top is not asked to cancel it (public: every play is announced)."""
    return int(_top(go)["seat"]) == seat


def _ask(state: SevenState, go: Go) -> dict[str, Any]:
    """What a seat asked is shown: the event on top (announced to everyone)."""
    return {"cancel": top_name(go)}


def _push(ctx: Ctx, go: Go, card: Card, side: int) -> None:
    """A cancel played: it goes on top of the chain (the window reopens, offering its own cancels)."""
    chain = chain_of(go)
    assert chain is not None
    by = window.asked_seat(go)
    under = top_name(go)
    chain["events"] = [*chain["events"], {"card": card.number, "seat": by}]
    ctx.state = ctx.state.with_go(replace(go, data={**go.data, CHAIN: chain}))
    ctx.emit("cancel_played", seat=by, card=card.number, event=card.event.name, cancels=under)


def move(ctx: Ctx, go: Go, action: Action) -> None:
    """A seat's answer in the cancel window of ``go``: a cancel of the event on top, or a pass; when every
    seat asked has passed in a row, the chain resolves."""
    if window.apply(ctx, go, action):
        _resolve(ctx, go.seat)


def standing(count: int) -> list[bool]:
    """Which events of a chain of ``count`` stand, bottom first: the top stands and cancels the one under
    it, whose own cancel thus fails, so the one under that stands, and so on (L873)."""
    return [(count - 1 - i) % 2 == 0 for i in range(count)]


def _resolve(ctx: Ctx, seat: PlayerId) -> None:
    go = ctx.state.go_of(seat)
    assert go is not None
    chain = chain_of(go)
    assert chain is not None
    events = chain["events"]
    stands = standing(len(events))
    ctx.state = ctx.state.with_go(replace(go, data={**go.data, CHAIN: None}))
    for i in reversed(range(len(events))):
        if not stands[i]:
            ctx.emit("event_cancelled", seat=int(events[i]["seat"]), card=int(events[i]["card"]),
                     by=int(events[i + 1]["card"]))
    if stands[0]:
        go = ctx.state.go_of(seat) or go
        _RESUMES[str(chain["resume"])](ctx, go, chain["chosen"])


def pending_legal(state: SevenState, pending: Pending) -> list[Action]:
    """The choices of a seat asked in a cancel window."""
    return window.legal(state, pending)


def passive(pending: Pending) -> Action:
    """A seat that lets a cancel window time out passes."""
    return WindowPass(pending.seat)


def asked_in(state: SevenState, pending: Pending) -> Go | None:
    """The go whose chain ``pending`` asks about (None: the pending is no cancel window's)."""
    if pending.kind != window.EVENT:
        return None
    go = next((g for g in state.goes if g.empire == pending.empire), None)
    return go if go is not None and chain_of(go) is not None else None


def _heading(view: SevenView, pending: PendingView, who: str) -> str:
    """The asked seat's question, the same whatever it holds, headed by the stage as every heading is (the
    reader is the one asked: their own name would only repeat it)."""
    return (f"{stage(view)}: {pending['ask']['cancel']} may be cancelled now: play a card that cancels it, "
            "or pass")


window.register(TIMING, (CODE,), _push, sided=False, offer=_offer, skips=_skips, ask=_ask, heading=_heading)


# -- words ------------------------------------------------------------------------------------------

def _name(card: int) -> str:
    return load_deck().cards[card].event.name


def _words(event: Event, names: Names) -> str | None:
    d = event.data
    if event.type == "cancel_played":
        return f"{seat_name(names, int(d['seat']))} plays {d['event']} to cancel {d['cancels']}."
    if event.type == "event_cancelled":
        return (f"{_name(int(d['card']))}, played by {seat_name(names, int(d['seat']))}, is cancelled by "
                f"{_name(int(d['by']))}: it has no effect.")
    return None


def _register(types: Iterable[str]) -> None:
    for t in types:
        register_event(t, _words)


_register(("cancel_played", "event_cancelled"))
