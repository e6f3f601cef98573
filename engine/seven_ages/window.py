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
timing registers (:func:`register`); the conflict registers ``conflict`` (:mod:`engine.seven_ages.battle`),
the cancel chain ``cancel`` (:mod:`engine.seven_ages.cancels`). A timing may say which cards a seat may play
(``offer``: the cancels of the event on top) and which seat is not asked this time (``skips``: the player
of that event), from what every player sees only; a seat skipped counts as having passed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from engine.core import Action, IllegalAction, PlayerId
from engine.seven_ages import prefs, range_requests, take_that
from engine.seven_ages.actions import Prefer
from engine.seven_ages.answers import Answers
from engine.seven_ages.cards import Card, load_deck
from engine.seven_ages.conflict_moves import WindowPass, WindowPlay
from engine.seven_ages.decision import plain_heading, register_pending_heading
from engine.seven_ages.range_permission import Route
from engine.seven_ages.state import Empire, Go, Pending, SevenState
from engine.seven_ages.steps import Ctx
from engine.seven_ages.text import empire_name
from engine.seven_ages.view import PendingView, SevenView

EVENT = "event"
"""The pending decision of the seat asked in an event window."""
PREF = prefs.register(prefs.Preference("events", "ask", {
    "ask": "asked at every event window (a conflict's round, an event that a card may cancel), whatever the "
           "hand.",
    "never": "never asked at event windows, except in one's own conflicts and for an event played by one or "
             "on one's empire."}, public=True))
"""Whether a seat is asked at event windows (L879-881): public, since being asked must tell nothing."""


Handler = Callable[[Ctx, Go, Card, int], None]
Offer = Callable[[SevenState, Go, PlayerId], list[Card]]
"""The cards a seat may play in a window now, when not those of the window's timing and codes."""
Skip = Callable[[SevenState, Go, PlayerId], bool]
"""Whether a seat is not asked this time round (counted as a pass): from public things only."""
Ask = Callable[[SevenState, Go], dict[str, Any]]
"""What the asked seat's decision shows it (``Pending.data["ask"]``, for its heading): public things only."""
Targets = Callable[[SevenState, Card], tuple[int, ...]]
"""The ``side`` values a card may be played with (a target seat, for a timing whose events name a player)."""
Heading = Callable[[SevenView, PendingView, str], str]
"""The asked seat's question, from its view, its pending decision (with ``ask``) and its name."""
VIA = "via"
"""In an asked seat's decision (``ask``): its plays that must ask to count Range through (L2233)."""
OUTER = "outer_window"
"""Where a window waits (``Go.data``) while a play made in it runs a window of its own (its cancel chain)."""
Target = Callable[[SevenState, Go, Card, int], Empire | None]
"""The empire a card played on a side targets (option 8 keeps plays to those within Range, L1224)."""


@dataclass(frozen=True)
class Timing:
    """What a window of one timing carries out: the effect codes it knows, whether the events target a
    side, the handler that applies a play, and optionally which cards are offered and who is skipped."""

    codes: frozenset[str]
    sided: bool
    handler: Handler
    offer: Offer | None = None
    skips: Skip | None = None
    ask: Ask | None = None
    targets: Targets | None = None
    heading: Heading | None = None
    target: Target | None = None


_TIMINGS: dict[str, Timing] = {}


def register(timing: str, codes: Iterable[str], handler: Handler, *, sided: bool = True,
             offer: Offer | None = None, skips: Skip | None = None, ask: Ask | None = None,
             targets: Targets | None = None, heading: Heading | None = None,
             target: Target | None = None) -> None:
    """Let windows of ``timing`` carry out events made only of ``codes``, applied by ``handler``; with
    ``offer``, the cards a seat may play are those it returns; with ``skips``, a seat it names is not asked
    this time round and counts as having passed; with ``ask``, what the asked seat is shown (worded by
    ``heading``); with ``targets``, the ``side`` values each card may be played with; with ``target``, the
    empire a play on a side targets (for option 8's Range, L1224)."""
    _TIMINGS[timing] = Timing(frozenset(codes), sided, handler, offer, skips, ask, targets, heading, target)


def _target_of(state: SevenState, go: Go, card: Card, side: int) -> Empire | None:
    """The empire ``card`` played on ``side`` targets, for option 8's Range (None: no empire)."""
    window = window_of(go)
    assert window is not None
    rules = _TIMINGS[str(window["timing"])]
    return rules.target(state, go, card, side) if rules.target is not None else None


def _range_problem(state: SevenState, go: Go, seat: PlayerId, card: Card, side: int) -> str | None:
    """Why option 8 keeps ``seat`` from playing ``card`` on ``side`` (L1224), even asking to count Range
    through other empires' areas (L2233), or None."""
    target = _target_of(state, go, card, side)
    if target is None:
        return None
    if range_requests.refused(go, seat, target.card):
        return (f"Your request to count Range to {empire_name(target.card)} through another empire's areas "
                "was refused this go.")
    return take_that.other_time_problem(state, seat, target, asking=True)


def _keepers(state: SevenState, go: Go, seat: PlayerId, card: Card, side: int) -> Route | None:
    """The route of a play whose Range counts through others' areas (None: it asks nobody)."""
    target = _target_of(state, go, card, side)
    found = take_that.other_time_route(state, seat, target) if target is not None else None
    return found if found is not None and found.keepers else None


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


def open_window(ctx: Ctx, go: Go, timing: str, always: Iterable[PlayerId]) -> bool:
    """Open a window of ``timing`` in ``go``: ask the first seat. True when it closed at once (every seat
    skipped)."""
    order = seats_asked(ctx.state, always)
    window = {"timing": timing, "order": order, "next": 0, "passes": 0}
    ctx.state = ctx.state.with_go(replace(go, data={**go.data, "window": window}))
    ctx.emit("window_opens", timing=timing, seats=order)
    return _ask(ctx, go.seat, window)


def asked_seat(go: Go) -> PlayerId:
    """The seat the window of ``go`` is asking (the one playing, while its play is applied)."""
    window = window_of(go)
    assert window is not None
    return int(window["order"][int(window["next"])])


def _ask(ctx: Ctx, seat: PlayerId, window: dict[str, Any]) -> bool:
    """Ask the next seat not skipped (a skipped seat counts as a pass); True when the window has closed."""
    go = ctx.state.go_of(seat)
    assert go is not None
    rules = _TIMINGS[str(window["timing"])]
    skips = rules.skips
    order = window["order"]
    while skips is not None and int(window["passes"]) < len(order) \
            and skips(ctx.state, go, int(order[int(window["next"])])):
        window["passes"] = int(window["passes"]) + 1
        window["next"] = (int(window["next"]) + 1) % len(order)
    if int(window["passes"]) >= len(order):
        ctx.state = ctx.state.with_go(replace(go, data={**go.data, "window": None}))
        ctx.emit("window_closes", timing=window["timing"])
        return True
    go = replace(go, data={**go.data, "window": window})
    ctx.state = ctx.state.with_go(go)
    seat_asked = int(order[int(window["next"])])
    via = _via(ctx.state, go, seat_asked)
    data = {"ask": {**(rules.ask(ctx.state, go) if rules.ask is not None else {}), "timing": window["timing"],
                    **({VIA: via} if via else {})}} if rules.ask is not None or via else {}
    asked = Pending(EVENT, seat_asked, go.empire, data)
    ctx.state = replace(ctx.state, pending=(*ctx.state.pending, asked))
    return False


def _via(state: SevenState, go: Go, seat: PlayerId) -> list[list[Any]]:
    """``[card, side, keepers]`` of each play offered to ``seat`` that must ask to count its Range through
    others' areas (L2233): for its labels, in its own decision's data (it reads its hand)."""
    if not take_that.on(state):
        return []
    rules = _TIMINGS[str(go.data["window"]["timing"])]
    if rules.target is None:
        return []
    out: list[list[Any]] = []
    for c in offered(state, go, seat):
        for side in (0, 1):
            if _range_problem(state, go, seat, c, side) is None and \
                    (found := _keepers(state, go, seat, c, side)) is not None:
                out.append([c.number, side, list(found.keepers)])
    return out


def note(view: SevenView, action: WindowPlay) -> str:
    """" (asking the Carthaginians)" after a window play that asks first; "" for one that need not."""
    for p in view.get("pending", []):
        if p["seat"] == action.player:
            for card, side, keepers in p.get("ask", {}).get(VIA, []):
                if (card, side) == (action.card, action.side):
                    return f" ({range_requests.asking_words([int(k) for k in keepers])})"
    return ""


def asked_blind(state: SevenState, seat: PlayerId) -> bool:
    """Whether ``seat`` is asked in an event window while holding a card: its answer is a real question
    even when it can only pass, for whether it could play is its secret (only the hand's size is public);
    the platform must ask it, never play its pass at once."""
    asked = any(p.seat == seat and p.kind == EVENT for p in state.pending)
    return asked and bool(state.people[seat].hand)


def offered(state: SevenState, go: Go, seat: PlayerId) -> list[Card]:
    """The cards ``seat`` may play in the window of ``go`` now."""
    window = window_of(go)
    assert window is not None
    rules = _TIMINGS[str(window["timing"])]
    if rules.offer is not None:
        return rules.offer(state, go, seat)
    return playable(state, seat, str(window["timing"]))


def legal(state: SevenState, pending: Pending) -> list[Action]:
    go = next(g for g in state.goes if g.empire == pending.empire)
    window = window_of(go)
    assert window is not None
    rules = _TIMINGS[str(window["timing"])]
    out: list[Action] = []
    for c in offered(state, go, pending.seat):
        sided = rules.sided and any(e["code"] != "ignore_fort" for e in c.event.effects)
        sides: tuple[int, ...] = (0, 1) if sided else (0,)
        if rules.targets is not None:
            sides = rules.targets(state, c)
        out += [WindowPlay(pending.seat, c.number, side) for side in sides
                if _range_problem(state, go, pending.seat, c, side) is None]
    return [*out, *_never(state, pending.seat), WindowPass(pending.seat)]


def _never(state: SevenState, seat: PlayerId) -> list[Action]:
    """The pass that also turns the seat's public setting to ``never``, offered to a seat holding a card
    (its hand's size is public: an empty hand passes at once, unasked) while it is asked by that setting.
    So a seat asked with nothing to play has a real choice, whether to go on being asked; it comes before
    the plain pass, which stays the last move (the move a computer seat falls back on)."""
    asked_by_setting = standing(state, seat) == "ask"
    return [WindowPass(seat, never=True)] if state.people[seat].hand and asked_by_setting else []


def apply(ctx: Ctx, go: Go, action: Action) -> bool:
    """The asked seat plays or passes; True when the window has closed (every seat asked passed in turn)."""
    pending = next(p for p in ctx.state.pending if p.seat == action.player and p.kind == EVENT)
    window = window_of(go)
    assert window is not None
    return ANSWERS.of(action)(ctx, go, pending, window, action)


def _asked_play(ctx: Ctx, go: Go, pending: Pending, window: dict[str, Any], action: WindowPlay) -> bool:
    """The asked seat plays a card: carried out now, or once the keepers its range crosses agree."""
    card = load_deck().cards.get(action.card)
    problem = _range_problem(ctx.state, go, action.player, card, action.side) if card else None
    if problem and action.card in ctx.state.people[action.player].hand:
        raise IllegalAction("out_of_range", problem)
    if action not in legal(ctx.state, pending):
        raise IllegalAction("not_playable", "You cannot play that event now.")
    ctx.state = replace(ctx.state, pending=tuple(p for p in ctx.state.pending if p is not pending))
    assert card is not None
    route = _keepers(ctx.state, go, action.player, card, action.side)
    if route is not None:  # L2233: asked first, the card face down aside until all agree
        _ask_through(ctx, go, action, route)
        return False
    _play(ctx, go, action, window)
    return _after(ctx, go, window)


def _asked_pass(ctx: Ctx, go: Go, pending: Pending, window: dict[str, Any], action: WindowPass) -> bool:
    """The asked seat passes (and, so asked, turns its public setting to ``never``)."""
    if action.never:
        _ask_never(ctx, action.player)
    window["passes"] = int(window["passes"]) + 1
    ctx.state = replace(ctx.state, pending=tuple(p for p in ctx.state.pending if p is not pending))
    return _after(ctx, go, window)


ANSWERS: Answers[Callable[[Ctx, Go, Pending, dict[str, Any], Any], bool]] = Answers(
    {WindowPlay: _asked_play, WindowPass: _asked_pass}, "wrong_move", "Play an event, or pass.")
"""The asked seat's moves, by class: play an event, or pass; each says whether the window has closed."""


def _ask_never(ctx: Ctx, seat: PlayerId) -> None:
    """``seat``'s public setting turned to ``never`` with its pass, told to every player as a ``prefer`` move
    is (:func:`engine.seven_ages.prefs.standing_move`); the window under way keeps its order (L881: the seats
    asked are fixed as it opens), the next ones leave the seat out unless they are about it."""
    if not _never(ctx.state, seat):
        raise IllegalAction("not_asked_so", "You are already asked only at the event windows about you.")
    ctx.state = prefs.set_preference(ctx.state, Prefer(seat, PREF.key, "never"))
    ctx.emit("preference_set", seat=seat, key=PREF.key, value="never")


def _play(ctx: Ctx, go: Go, action: WindowPlay, window: dict[str, Any]) -> None:
    """The card leaves the hand for the discards, and the timing carries it out."""
    s = ctx.state
    person = s.people[action.player]
    hand = list(person.hand)
    hand.remove(action.card)
    ctx.state = replace(s.with_player(replace(person, hand=tuple(hand))), discard=(*s.discard, action.card))
    ctx.emit("window_event_played", seat=action.player, card=action.card, side=action.side,
             timing=window["timing"])
    handler = _TIMINGS[str(window["timing"])].handler
    handler(ctx, ctx.state.go_of(go.seat) or go, load_deck().cards[action.card], action.side)
    window["passes"] = 0


def _ask_through(ctx: Ctx, go: Go, action: WindowPlay, route: Route) -> None:
    """Ask the route's keepers (L2233) before the play; the window waits on this seat. Which card waits is
    sealed (``SevenState.sealed``, in no view): the go's data, which its owner sees, never names it, and the
    card stays in the hand until it is played."""
    held = Pending(HELD, action.player, go.empire, {"card": action.card})
    ctx.state = replace(ctx.state, sealed=(*ctx.state.sealed, held))
    target = _target_of(ctx.state, go, load_deck().cards[action.card], action.side)
    assert target is not None
    range_requests.start(ctx, ctx.state.go_of(go.seat) or go, route, ASKED,
                         {"seat": action.player, "side": action.side}, target.card, "",
                         asker=action.player)


def _unseal(ctx: Ctx, seat: PlayerId) -> int:
    """The card ``seat`` chose while asking, no longer sealed (0: none)."""
    held = next((p for p in ctx.state.sealed if p.kind == HELD and p.seat == seat), None)
    if held is None:
        return 0
    ctx.state = replace(ctx.state, sealed=tuple(p for p in ctx.state.sealed if p is not held))
    return int(held.data["card"])


def _granted(ctx: Ctx, go: Go, chosen: Mapping[str, Any]) -> None:
    """Every keeper agreed: the card chosen is played, and the window goes on from the next seat."""
    seat, window = int(chosen["seat"]), window_of(go)
    assert window is not None
    card = _unseal(ctx, seat)
    if card not in ctx.state.people[seat].hand:  # gone meanwhile (nothing but answers happen): ask again
        _ask(ctx, go.seat, window)
        return
    _play(ctx, go, WindowPlay(seat, card, int(chosen["side"])), window)
    _after(ctx, go, window)  # a play leaves the window open: it asks the next seat


def _refused(ctx: Ctx, go: Go, chosen: Mapping[str, Any]) -> None:
    """A refusal or an unpaid price: the card stays in the hand, its player alone is told which, and the
    window asks the same seat again (its other plays, or a pass)."""
    seat, window = int(chosen["seat"]), window_of(go)
    assert window is not None
    card = _unseal(ctx, seat)
    ctx.emit("range_play_refused", (seat,), seat=seat, card=card, what=load_deck().cards[card].event.name,
             target=0, why="the permission to count Range through another empire's areas was not given, or "
             "its price not paid")
    _ask(ctx, go.seat, window)


def _after(ctx: Ctx, go: Go, window: dict[str, Any]) -> bool:
    """The next seat is asked (or the window closes: True), once a play or a pass is made."""
    if int(window["passes"]) < len(window["order"]):
        window["next"] = (int(window["next"]) + 1) % len(window["order"])
    now = ctx.state.go_of(go.seat)
    inner = window_of(now) if now is not None else None
    if now is not None and inner is not None and inner["timing"] != window["timing"]:
        # the play opened a window of its own (its cancel chain): this one waits under it until that one
        # is over, for each event is carried out or cancelled before the next is played (L877)
        ctx.state = ctx.state.with_go(replace(now, data={**now.data, OUTER: window}))
        return False
    return _ask(ctx, go.seat, window)


def resume_outer(ctx: Ctx, seat: PlayerId) -> bool:
    """The window that waited under another (:data:`OUTER`) in ``seat``'s go goes on: its next seat is asked.
    True when it has closed (every seat asked passed in turn)."""
    go = ctx.state.go_of(seat)
    assert go is not None
    outer = go.data.get(OUTER)
    assert outer is not None
    ctx.state = ctx.state.with_go(replace(go, data={**go.data, OUTER: None}))
    return _ask(ctx, seat, dict(outer))


def _heading(view: SevenView, pending: PendingView, who: str) -> str:
    """The asked seat's question, worded by its window's timing (the same whatever it holds)."""
    words = _TIMINGS[str(pending["ask"]["timing"])].heading
    if words is None:  # asked only to show which plays ask permission (VIA): the usual words
        return plain_heading(view, EVENT)
    return words(view, pending, who)


register_pending_heading(EVENT, _heading)

HELD = "range_held"
"""A sealed note of the card a seat chose to play while its Range is asked (L2233)."""
ASKED = "window_play"
"""The key under which a window's play comes back once its Range through others' areas is asked (L2233)."""
range_requests.register(ASKED, _granted, _refused)
