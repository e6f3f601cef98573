"""Action markers: their placement at the start of a turn, and their turning over at each action.

Placement (L339-349) is one step every player takes at once: a marker face down on each of their
empires in play, then, when they have fewer empires than their maximum (the number of empires in
the game divided by the number of players, rounded up, L345), one more in front of them. Others
learn only that a marker was placed, never which.

Each of the seven actions is a :class:`MarkerStep`: in turn from the First player clockwise (or
every player at once where the rulebook allows it, L373) a player turns over one of their face-down
markers of that action, or a wild card which becomes that action (L353), and carries out that
empire's go through the action's :class:`GoRules`; then turns over another, or passes and leaves
the rest face down (those empires miss their go, L377). A Start-empire marker on an empire does
nothing and the additional marker only starts an empire, takes a Destiny or civilises (L347-349):
such markers are never offered.

An action whose rules say ``own_events`` (Production, Trade, Manoeuvre, Destiny) lets the go's player
play events of its timing among the go's first decisions; the step lists and applies them through one
hook (:class:`OwnEvents`, :mod:`engine.seven_ages.own_events`), so no action carries that code itself.

With option 5 (Enhanced Play) an action whose rules interleave (Manoeuvre, L1194) goes round the
table one marker at a time: a seat turning a marker moves to the back of the queue, so the next seat
turns its marker before the first may turn a second; a seat that passes is out for the action.

Other players' standing orders on the empire and action fire as the marker is turned over, before
anything of the go happens (:class:`StandingOrders`, :mod:`engine.seven_ages.armed`). An order whose event
some card cancels opens the cancel window then (L875): the go waits at a stage of its own
(:data:`WAITING`), the window's answers come to the orders' hook, and once the chain is over the orders
left fire and the go begins, in the same move as the last answer.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from math import ceil
from typing import Any, Protocol

from engine.core import Action, Handler, Handlers, IllegalAction, PlayerId
from engine.seven_ages import steps
from engine.seven_ages.actions import Done, DraftMarker, Pass, PlaceMarker, TurnMarker
from engine.seven_ages.civilisation_moves import EventPick, PlayEvent
from engine.seven_ages.cleanup import end_of_action
from engine.seven_ages.conflict_moves import WindowPass, WindowPlay
from engine.seven_ages.state import DRAFT, EXTRA, MARKER_SET, MARKERS, WILD, Go, Marker, Pending, SevenState
from engine.seven_ages.steps import Ctx

_EVENT_KINDS: tuple[type[Action], ...] = (PlayEvent, EventPick)
"""The moves of events played in one's own go (a play, then an event's choices)."""
_WINDOW_KINDS: tuple[type[Action], ...] = (WindowPlay, WindowPass)
"""The moves of a cancel window opened by a standing order fired as a go begins (any action may hold one)."""
NO_CARDS = "no_cards"
"""``Go.data`` of a go whose marker was turned over with its cards stage answered: no card played
(:attr:`TurnMarker.no_cards`)."""
START_CARD = "start_card"
"""``Go.data`` of a Start empire go whose empire card was played with the turn (:attr:`TurnMarker.start`)."""
WAITING = "waiting"
"""The stage of a go that has not begun: an event fired on its empire as its marker was turned over waits in
its cancel window (L875); the chain's end begins the go."""

EMPIRES_IN_GAME = 15
"""Empires in a game of 7 Ages Classic: fifteen counter mixes (L335, L345)."""


def maximum(players: int, empires: int = EMPIRES_IN_GAME) -> int:
    """Most empires a player may have in play: empires in the game / players, rounded up (L345)."""
    return ceil(empires / players)


def extra_allowed(state: SevenState, seat: PlayerId) -> int:
    """How many markers ``seat`` may place on no empire: 1 below their maximum (L343); with option 5,
    2 when at least two below it (L1202)."""
    below = maximum(state.players) - len(state.empires_of(seat))
    if below <= 0:
        return 0
    return 2 if below >= 2 and state.options.get("enhanced_play") else 1


def unused(state: SevenState, seat: PlayerId) -> list[str]:
    """``seat``'s markers not placed yet this turn (a set may hold a marker twice: count them)."""
    left = [*state.people[seat].marker_set, *state.people[seat].drafted]
    for m in state.markers:
        if m.owner == seat:
            left.remove(m.action)
    return left


def _unmarked(state: SevenState, seat: PlayerId) -> list[int]:
    marked = {m.empire for m in state.markers if m.owner == seat}
    return [e.card for e in state.empires_of(seat) if e.card not in marked]


def _extras(state: SevenState, seat: PlayerId) -> int:
    return sum(1 for m in state.markers if m.owner == seat and m.empire == EXTRA)


@dataclass(frozen=True)
class Placement:
    """The ``markers`` step: every player places their markers at once."""

    name: str = MARKERS

    @property
    def handlers(self) -> Handlers[Ctx]:
        return {PlaceMarker: self.place, Done: self.finish}

    def enter(self, ctx: Ctx) -> None:
        s = ctx.state
        ctx.state = replace(s, queue=s.seats_from_first())
        for seat in s.seats_from_first():
            _settle_seat(ctx, seat)

    def actors(self, state: SevenState) -> frozenset[PlayerId]:
        return frozenset(state.queue)

    def legal(self, state: SevenState, seat: PlayerId) -> list[Action]:
        if seat not in state.queue:
            return []
        names = sorted(set(unused(state, seat)))
        todo = _unmarked(state, seat)
        if todo:
            return [PlaceMarker(seat, todo[0], m) for m in names]
        return [*(PlaceMarker(seat, EXTRA, m) for m in names), Done(seat)]

    def finish(self, ctx: Ctx, action: Done) -> None:
        if _unmarked(ctx.state, action.player):
            raise IllegalAction("markers_missing", "Place a marker on each of your empires first.")
        _finish(ctx, action.player)

    def place(self, ctx: Ctx, action: PlaceMarker) -> None:
        s, seat = ctx.state, action.player
        if action.marker not in unused(s, seat):
            raise IllegalAction("no_such_marker", "You have no such action marker left to place.")
        if action.empire == EXTRA:
            if _unmarked(s, seat):
                raise IllegalAction("markers_missing", "Place a marker on each of your empires first.")
            if _extras(s, seat) >= extra_allowed(s, seat):
                raise IllegalAction("no_extra", "You may place no more markers in front of you.")
        elif action.empire not in _unmarked(s, seat):
            raise IllegalAction("not_your_empire", "That is not one of your empires without a marker.")
        ctx.state = replace(s, markers=(*s.markers, Marker(seat, action.marker, action.empire)))
        ctx.emit("marker_placed", seat=seat, empire=action.empire)
        ctx.emit("marker_chosen", (seat,), seat=seat, empire=action.empire, marker=action.marker)
        _settle_seat(ctx, seat)

    def done(self, state: SevenState) -> bool:
        return not state.queue

    def timeout(self, state: SevenState, seat: PlayerId) -> Action:
        return passive_placement(state, seat)


def spare_sets(state: SevenState) -> int:
    """Option 5's spare sets drafted each turn in 7 Ages Classic: one with 4 players, two (round the
    table twice) with 3 (L1186-1190); with 2 players each plays two sets instead (L1192)."""
    if not state.options.get("enhanced_play"):
        return 0
    return {4: 1, 3: 2}.get(state.players, 0)


@dataclass(frozen=True)
class Draft:
    """The ``draft`` step of option 5: from the First player, each in turn secretly takes one spare
    marker and passes the rest face down to the left (L1186)."""

    name: str = DRAFT

    @property
    def handlers(self) -> Handlers[Ctx]:
        return {DraftMarker: self.draft}

    def enter(self, ctx: Ctx) -> None:
        s = ctx.state
        sets = spare_sets(s)
        ctx.state = replace(s, spare=MARKER_SET * sets, queue=s.seats_from_first() * sets)
        _hand_spare(ctx, None)

    def actors(self, state: SevenState) -> frozenset[PlayerId]:
        return frozenset(state.queue[:1])

    def legal(self, state: SevenState, seat: PlayerId) -> list[Action]:
        if seat not in self.actors(state):
            return []
        return [DraftMarker(seat, m) for m in sorted(set(state.spare))]

    def draft(self, ctx: Ctx, action: DraftMarker) -> None:
        s, seat = ctx.state, action.player
        if action.marker not in s.spare:
            raise IllegalAction("no_such_marker",
                                "There is no such marker among the spare ones passed to you.")
        spare = list(s.spare)
        spare.remove(action.marker)
        p = s.people[seat]
        ctx.state = replace(s, spare=tuple(spare), queue=s.queue[1:]).with_player(
            replace(p, drafted=(*p.drafted, action.marker)))
        ctx.emit("marker_drafted", seat=seat)
        ctx.emit("marker_drafted_secret", (seat,), seat=seat, marker=action.marker)
        _hand_spare(ctx, seat)

    def done(self, state: SevenState) -> bool:
        return not state.queue

    def timeout(self, state: SevenState, seat: PlayerId) -> Action:
        return DraftMarker(seat, sorted(set(state.spare))[0])


def _hand_spare(ctx: Ctx, giver: PlayerId | None) -> None:
    """Tell the seat to draft next which spare markers it is handed (by ``giver``; None: the First player
    picks up the spare sets). Its view shows them, as the table would; with two sets its moves (one per
    kind) may not change with what was taken before it, so only this event tells it of the change."""
    s = ctx.state
    if not s.queue:
        return
    receiver = s.queue[0]
    if giver is None:
        ctx.emit("spare_markers_taken_up", (receiver,), seat=receiver, markers=sorted(s.spare))
    else:
        ctx.emit("spare_markers_handed", (receiver,), seat=receiver, giver=giver, markers=sorted(s.spare))


def passive_placement(state: SevenState, seat: PlayerId) -> Action:
    """The skip move: the empire's first unused action marker (in the order of the set); no extra."""
    todo = _unmarked(state, seat)
    if todo:
        return PlaceMarker(seat, todo[0], unused(state, seat)[0])
    return Done(seat)


def _settle_seat(ctx: Ctx, seat: PlayerId) -> None:
    """A seat with nothing left to place has finished (no decision is left to ask)."""
    s = ctx.state
    if not _unmarked(s, seat) and (_extras(s, seat) >= extra_allowed(s, seat) or not unused(s, seat)):
        _finish(ctx, seat)


def _finish(ctx: Ctx, seat: PlayerId) -> None:
    s = ctx.state
    ctx.state = replace(s, queue=tuple(q for q in s.queue if q != seat)).with_player(
        replace(s.people[seat], placed=True))
    ctx.emit("markers_placed", seat=seat)


# -- turning markers over ----------------------------------------------------------------------

class GoRules(Protocol):
    """What one action does with an empire once its marker is turned over.

    A go is a :class:`~engine.seven_ages.state.Go` in ``state.goes``; the rules drive it through
    their own stages (``go.stage``, ``go.data``) and end it with :func:`end_go`. A decision of a seat
    other than the go's (a trade partner's card) is a :class:`~engine.seven_ages.state.Pending`
    whose ``empire`` is the go's empire; its moves come back to :meth:`apply` with that go.
    """

    action: str
    parallel: bool
    """Every player at once (Production, Destiny: L373) rather than in turn from the First player."""
    extra_ok: bool
    """Whether the additional marker, on no empire, can take this action (L349)."""
    on_empire: bool
    """Whether a marker on an empire takes this action (not Start empire: L347)."""
    interleaves: bool
    """Whether, with option 5 (Enhanced Play), seats take turns one marker each (Manoeuvre, L1194)."""
    @property
    def kinds(self) -> tuple[type[Action], ...]:
        """The action classes a go of this action takes (with :class:`BaseGoRules`, its handlers')."""
        ...

    own_events: bool
    """Whether the go's player may play events of this action's timing as the go begins
    (:class:`OwnEvents`, issue 27 item 3): Production, Trade, Manoeuvre and Destiny."""
    events_when: str
    """When in the go those events are played, as a refusal says it ("before anything is built")."""

    def enter(self, ctx: Ctx) -> None:
        """Anything automatic as the action begins (a forced discard)."""
        ...

    def turns(self, state: SevenState, seat: PlayerId, index: int) -> list[Action]:
        """The moves that turn over ``seat``'s marker ``index`` (a plain :class:`TurnMarker` by default; a
        first stage answered with the turn besides or instead, where the rules fold one in)."""
        ...

    def opening(self, state: SevenState, go: Go) -> bool:
        """Whether the go's player is at its first decisions, where its own events are offered."""
        ...

    def hand_offered(self, state: SevenState, go: Go) -> bool:
        """Whether the go's player is at a decision that offers cards of its hand (its own events at the
        opening, Civilise's cards, the empire to start): asked whenever the hand holds any card
        (:meth:`MarkerStep.asks_blind`)."""
        ...

    def usable(self, state: SevenState, marker: Marker) -> bool:
        """Whether turning ``marker`` over now could do anything (no playable card: nothing to start)."""
        ...

    def begin(self, ctx: Ctx, go: Go) -> None:
        """The marker is turned over: start the go (it may end at once)."""
        ...

    def legal(self, state: SevenState, go: Go) -> list[Action]: ...

    def apply(self, ctx: Ctx, go: Go, action: Action) -> None:
        """A move of ``go`` (or an answer to one of its questions); with :class:`BaseGoRules`, the handler
        :attr:`BaseGoRules.handlers` files its class under."""
        ...

    def passive(self, state: SevenState, go: Go) -> Action: ...

    def pending_legal(self, state: SevenState, pending: Pending) -> list[Action]: ...

    def pending_passive(self, state: SevenState, pending: Pending) -> Action: ...


GoHandler = Callable[[Ctx, Go, Any], None]
"""The rules of one move of a go (``Any``: each handler takes the action class it is filed under)."""


class BaseGoRules:
    """Defaults for :class:`GoRules`: nothing automatic, every marker usable, no pending decisions, and
    a go's moves applied by the handler :attr:`handlers` files their class under."""

    not_part: tuple[str, str] = ("wrong_step", "That is not part of this action.")
    """The refusal of a move of a class the go does not take: its code and sentence."""

    @property
    def handlers(self) -> Mapping[type[Action], GoHandler]:
        """Each action class a go takes, and the rules of that move."""
        return {}

    @property
    def kinds(self) -> tuple[type[Action], ...]:
        return tuple(self.handlers)

    def apply(self, ctx: Ctx, go: Go, action: Action) -> None:
        self.handlers.get(type(action), self.unlisted)(ctx, go, action)

    def unlisted(self, ctx: Ctx, go: Go, action: Action) -> None:
        """A move of a class :attr:`handlers` does not list (an answer sent where nothing asks):
        refused with :attr:`not_part`."""
        raise IllegalAction(*self.not_part)

    parallel = False
    extra_ok = False
    on_empire = True
    interleaves = False
    own_events = False
    events_when = ""

    def enter(self, ctx: Ctx) -> None:
        return None

    def turns(self, state: SevenState, seat: PlayerId, index: int) -> list[Action]:
        return [TurnMarker(seat, index)]

    def opening(self, state: SevenState, go: Go) -> bool:
        return False

    def hand_offered(self, state: SevenState, go: Go) -> bool:
        return self.own_events and self.opening(state, go)

    def usable(self, state: SevenState, marker: Marker) -> bool:
        return True

    def pending_legal(self, state: SevenState, pending: Pending) -> list[Action]:
        return []

    def pending_passive(self, state: SevenState, pending: Pending) -> Action:
        raise NotImplementedError(f"{type(self).__name__} asks no pending decisions")


def placed_to_act(state: SevenState, rules: GoRules, marker: Marker) -> bool:
    """Whether a face-down marker lies where this action could be taken (L347-349), whatever it is:
    what every player knows of another's marker."""
    if not marker.face_down:
        return False
    if marker.empire == EXTRA:
        return rules.extra_ok
    if not rules.on_empire:
        return False  # a Start-empire marker on an empire has no effect (L347)
    # 'You may carry out an action even if the empire the marker was placed on is already discarded'
    # (L375): what needs no empire, as the additional marker's actions (Destiny, Civilise's cards, L349)
    return state.has_empire(marker.empire) or rules.extra_ok


def effective(state: SevenState, rules: GoRules, marker: Marker) -> bool:
    """Whether ``marker`` may be turned over at ``rules.action`` (L347-353)."""
    return placed_to_act(state, rules, marker) and marker.action in (rules.action, WILD) and \
        rules.usable(state, marker)


def turnable(state: SevenState, rules: GoRules, seat: PlayerId) -> list[int]:
    return [i for i, m in enumerate(state.markers) if m.owner == seat and effective(state, rules, m)]


def may_act(state: SevenState, rules: GoRules, seat: PlayerId) -> bool:
    """Whether ``seat`` is asked at this action: they have a face-down marker placed where it could act.
    Public knowledge only, so being asked (or not) tells nobody which markers they hold; a seat
    without a marker of this action simply passes."""
    return any(m.owner == seat and placed_to_act(state, rules, m) for m in state.markers)


class OwnEvents(Protocol):
    """The events a go's player plays in its own go (:mod:`engine.seven_ages.own_events`), one mechanism
    for every action whose rules say ``own_events``: the plays are listed beside the go's first decisions
    (never a prompt of their own), and an event asking a choice holds the go at its own stage."""

    kinds: tuple[type[Action], ...]

    def busy(self, go: Go) -> bool:
        """Whether an event played in ``go`` waits for its player's choice."""
        ...

    def plays(self, state: SevenState, go: Go) -> list[Action]: ...

    def legal(self, state: SevenState, go: Go) -> list[Action]: ...

    def passive(self, state: SevenState, go: Go) -> Action: ...

    def apply(self, ctx: Ctx, go: Go, action: Action, rules: GoRules) -> None: ...


class StandingOrders(Protocol):
    """Other players' hidden orders that fire as an empire's go begins (:mod:`engine.seven_ages.armed`), and
    the cancel window one of them may open while the go waits at :data:`WAITING`."""

    def fire(self, ctx: Ctx, go: Go) -> None:
        """Fire the orders on ``go``'s empire and action not fired yet, in their fixed order, stopping at one
        whose cancel window opens (the others wait for the chain's end: each event is carried out or
        cancelled before the next is played, L877)."""
        ...

    def holding(self, go: Go) -> bool:
        """Whether an event fired in ``go`` waits in its cancel window (the go may not begin yet)."""
        ...

    def legal(self, state: SevenState, pending: Pending) -> list[Action]:
        """The answers of a seat asked in that window."""
        ...

    def apply(self, ctx: Ctx, go: Go, action: Action) -> None:
        """A seat's answer in the window of ``go``."""
        ...

    def passive(self, pending: Pending) -> Action:
        """The answer of a seat that lets the window time out."""
        ...


_OWN_EVENTS: list[OwnEvents] = []
_ORDERS: list[StandingOrders] = []


def use_own_events(hook: OwnEvents) -> None:
    """Plug in the own-go events (their module imports this one, so it registers itself)."""
    _OWN_EVENTS[:] = [hook]


def use_armed(orders: StandingOrders) -> None:
    """Plug in the standing orders that fire as an empire's go begins (:mod:`engine.seven_ages.armed`)."""
    _ORDERS[:] = [orders]


class MarkerStep:
    """One of the seven actions: markers turned over by their owners, each starting an empire's go."""

    def __init__(self, rules: GoRules) -> None:
        self.rules = rules
        self.name = rules.action
        self.kinds: tuple[type[Action], ...] = (TurnMarker, Pass, *rules.kinds)
        self.kinds = (*self.kinds, *(k for k in _WINDOW_KINDS if k not in self.kinds))
        self._events = rules.own_events
        if rules.own_events:  # a play and an event's choice are moves of every such action
            self.kinds = (*self.kinds, *(k for k in _EVENT_KINDS if k not in self.kinds))

    def enter(self, ctx: Ctx) -> None:
        self.rules.enter(ctx)
        s = ctx.state
        ctx.state = replace(s, queue=tuple(p for p in s.seats_from_first() if may_act(s, self.rules, p)))

    def actors(self, state: SevenState) -> frozenset[PlayerId]:
        if state.pending:
            return frozenset(p.seat for p in state.pending)
        if self.rules.parallel:
            return frozenset(state.queue)
        if state.goes and self.interleaved(state):
            return frozenset(g.seat for g in state.goes)  # its seat waits at the back of the queue
        return frozenset(state.queue[:1])

    def legal(self, state: SevenState, seat: PlayerId) -> list[Action]:
        if seat not in self.actors(state):
            return []
        pending = _pending_of(state, seat)
        go = state.go_of(seat)
        hook = self._hook()
        if pending is not None and (orders := _holding(state, pending)) is not None:
            return orders.legal(state, pending)
        if hook is not None and go is not None and hook.busy(go):
            return hook.legal(state, go)
        if pending is not None:
            moves = self.rules.pending_legal(state, pending)
        elif go is not None:
            moves = self.rules.legal(state, go)
        else:
            return [*(t for i in turnable(state, self.rules, seat) for t in self.rules.turns(state, seat, i)),
                    Pass(seat)]
        if hook is not None and go is not None and self.rules.opening(state, go) and \
                (pending is None or pending.empire == go.empire):
            # folded into the first decision the player gets anyway (its own go's, never another's
            # question): no prompt, nothing to read from it
            return [*hook.plays(state, go), *moves]
        return moves

    def asks_blind(self, state: SevenState, seat: PlayerId) -> bool:
        """Whether ``seat``'s decision is a real question even when it has one move, while it holds any
        card (its hand's size is public, what it holds is not; so being asked never depends
        on the hand). Where its go offers cards of its hand (:meth:`GoRules.hand_offered`: its own events
        at the opening, Civilise's cards, Start empire's card), "done" played at once with nothing to build
        would tell the table that no such card is in it. Before a go, while it holds a face-down marker of
        this action (or a wild one) placed to act: one whose use needs a card (Start empire's) may not be
        turnable for want of one, and a pass played at once would say so."""
        hook, go = self._hook(), state.go_of(seat)
        pending = _pending_of(state, seat)
        if not state.people[seat].hand or (go is not None and hook is not None and hook.busy(go)):
            return False
        if go is None:
            return pending is None and any(m.owner == seat and m.action in (self.rules.action, WILD)
                                           and placed_to_act(state, self.rules, m) for m in state.markers)
        return self.rules.hand_offered(state, go) and (pending is None or pending.empire == go.empire)

    def _hook(self) -> OwnEvents | None:
        return _OWN_EVENTS[0] if self._events and _OWN_EVENTS else None

    def interleaved(self, state: SevenState) -> bool:
        """Whether seats take turns one marker each at this action: option 5 at Manoeuvre (L1194)."""
        return self.rules.interleaves and not self.rules.parallel and bool(state.options.get("enhanced_play"))

    @property
    def handlers(self) -> Handlers[Ctx]:
        """Every class of :attr:`kinds` by its part: a marker turned over or a pass, an event played in
        one's own go (while the own-go events are plugged in), or a move of the go under way. Each asks
        first whether the seat is answering a question (:meth:`_answered`)."""
        hook = self._hook()
        table: dict[type[Action], Handler[Ctx]] = {cls: self._go_move for cls in self.kinds}
        if hook is not None:
            table.update({cls: self._event_move for cls in self.kinds if issubclass(cls, hook.kinds)})
        return {**table, TurnMarker: self._turn_move, Pass: self._pass_move}

    def _answered(self, ctx: Ctx, action: Action, *, own_event: bool) -> bool:
        """Apply ``action`` when its seat is asked something or an event holds its go: a cancel window of
        a go waiting for the standing orders, an own event waiting for its choice (or ``own_event``, a play
        of one), or another go's question; False when it is none of these."""
        s, seat = ctx.state, action.player
        pending = _pending_of(s, seat)
        hook, go = self._hook(), s.go_of(seat)
        if pending is not None and (orders := _holding(s, pending)) is not None:
            orders.apply(ctx, _go_asking(s, pending), action)
            self._go_on_waiting(ctx)
        elif go is not None and go.stage == WAITING:
            raise IllegalAction("go_waiting",
                                "Your go begins once the event played on your empire is settled.")
        elif hook is not None and go is not None and (hook.busy(go) or own_event):
            hook.apply(ctx, go, action, self.rules)
        elif pending is not None:
            owner = next(g for g in s.goes if g.empire == pending.empire)
            self.rules.apply(ctx, owner, action)
        else:
            return False
        return True

    def _go_move(self, ctx: Ctx, action: Action, *, own_event: bool = False) -> None:
        """A move of the seat's go under way (its action's rules)."""
        if not self._answered(ctx, action, own_event=own_event):
            go = ctx.state.go_of(action.player)
            if go is None:
                raise IllegalAction("no_go", "Turn over one of your action markers first, or pass.")
            self.rules.apply(ctx, go, action)
        self._tidy(ctx)

    def _event_move(self, ctx: Ctx, action: Action) -> None:
        """An event played in the seat's own go, or its choice (:class:`OwnEvents`)."""
        self._go_move(ctx, action, own_event=True)

    def _turn_move(self, ctx: Ctx, action: TurnMarker) -> None:
        """A marker turned over, starting a go."""
        if not self._answered(ctx, action, own_event=False):
            self._between_goes(ctx, action.player)
            self._turn(ctx, action.player, action)
        self._tidy(ctx)

    def _pass_move(self, ctx: Ctx, action: Pass) -> None:
        """No more markers turned over at this action."""
        if not self._answered(ctx, action, own_event=False):
            self._between_goes(ctx, action.player)
            s, seat = ctx.state, action.player
            ctx.state = replace(s, queue=tuple(q for q in s.queue if q != seat))
            ctx.emit("action_passed", seat=seat, action=self.name)
        self._tidy(ctx)

    def _between_goes(self, ctx: Ctx, seat: PlayerId) -> None:
        """Refuse a marker turned, or a pass, while the seat's go is under way."""
        if ctx.state.go_of(seat) is not None:
            raise IllegalAction("go_under_way", "Finish the go under way first.")

    def _turn(self, ctx: Ctx, seat: PlayerId, action: TurnMarker) -> None:
        s, index = ctx.state, action.marker
        if index not in turnable(s, self.rules, seat):
            raise IllegalAction("not_turnable",
                                "You have no such face-down marker to turn over for this action.")
        if action.no_cards and action not in self.rules.turns(s, seat, index):
            raise IllegalAction("no_card_stage", "Only a Civilise marker is turned over playing no card.")
        if action.start and action not in self.rules.turns(s, seat, index):
            raise IllegalAction("not_startable", "You may not start that empire with this marker now.")
        marker = s.markers[index]
        markers = list(s.markers)
        markers[index] = replace(marker, turned=self.name)
        # the first stage answered with the turn travels in the go's data, so a go held back by others'
        # orders (WAITING) still begins with it
        first = {NO_CARDS: True} if action.no_cards else {START_CARD: action.start} if action.start else {}
        go = Go(seat, index, marker.empire, self.name, data=first)
        queue = s.queue
        if self.interleaved(s):
            # 'each player turns over one marker ... before the First player can turn over a second'
            # (L1194): the seat goes to the back of the queue as it turns one, so whenever and however
            # its go ends (even by its empire being discarded mid-go) the next seat turns next. The
            # queue runs clockwise from the First player; front to back keeps that order.
            queue = (*(q for q in queue if q != seat), seat)
        ctx.state = replace(s, markers=tuple(markers), queue=queue).with_go(go)
        ctx.emit("marker_turned", seat=seat, empire=marker.empire, action=self.name,
                 wild=marker.action == WILD)
        self._go_on(ctx, go)

    def _go_on(self, ctx: Ctx, go: Go) -> None:
        """Others' orders on ``go``'s empire and action fire, before anything of the go happens; then the go
        begins, unless an order took it away or one's event waits in its cancel window (then the go waits at
        :data:`WAITING`, and goes on from here once the chain is over)."""
        orders = _ORDERS[0] if _ORDERS else None
        if orders is not None:
            orders.fire(ctx, go)
        now = ctx.state.go_of(go.seat)
        if now is None or now.marker != go.marker:
            return  # an order took the go away (Closed country): nothing of it happens
        if orders is not None and orders.holding(now):
            ctx.state = ctx.state.with_go(replace(now, stage=WAITING))
            return
        self.rules.begin(ctx, now)

    def _go_on_waiting(self, ctx: Ctx) -> None:
        """Each go waiting at :data:`WAITING` whose cancel window is over goes on: the orders left fire, then
        it begins."""
        orders = _ORDERS[0] if _ORDERS else None
        for go in ctx.state.goes:
            if go.stage == WAITING and (orders is None or not orders.holding(go)):
                self._go_on(ctx, go)

    def _tidy(self, ctx: Ctx) -> None:
        """Seats with no go under way and no face-down marker placed to act are done with this action."""
        s = ctx.state
        keep = tuple(q for q in s.queue if s.go_of(q) is not None or may_act(s, self.rules, q))
        if keep != s.queue:
            ctx.state = replace(s, queue=keep)

    def done(self, state: SevenState) -> bool:
        return not state.queue and not state.goes and not state.pending

    def timeout(self, state: SevenState, seat: PlayerId) -> Action:
        pending = _pending_of(state, seat)
        go = state.go_of(seat)
        hook = self._hook()
        if pending is not None and (orders := _holding(state, pending)) is not None:
            return orders.passive(pending)
        if hook is not None and go is not None and hook.busy(go):
            return hook.passive(state, go)
        if pending is not None:
            return self.rules.pending_passive(state, pending)
        if go is not None:
            return self.rules.passive(state, go)
        return Pass(seat)


def _pending_of(state: SevenState, seat: PlayerId) -> Pending | None:
    return next((p for p in state.pending if p.seat == seat), None)


def _go_asking(state: SevenState, pending: Pending) -> Go:
    """The go on whose behalf ``pending`` is asked (its empire's)."""
    return next(g for g in state.goes if g.empire == pending.empire)


def _holding(state: SevenState, pending: Pending) -> StandingOrders | None:
    """The orders' hook when ``pending`` is asked in the cancel window of a go waiting at :data:`WAITING`."""
    go = next((g for g in state.goes if g.empire == pending.empire), None)
    if go is None or go.stage != WAITING or not _ORDERS:
        return None
    return _ORDERS[0]


def end_go(ctx: Ctx, seat: PlayerId) -> None:
    """``seat``'s go is over (the step moves on to their next marker, or the next seat). It is the end of
    a player's action: leaders left alone are lost and vacant areas are cleared (L622, L2187), here and
    not after each move, since within a go units may pass through an area and leave it."""
    ctx.state = ctx.state.without_go(seat)
    end_of_action(ctx)


def took_wild(state: SevenState, card: int) -> bool:
    """Whether the empire of ``card`` took its action this turn with a wild card (L355)."""
    return any(m.empire == card and m.action == WILD and m.turned is not None for m in state.markers)


steps.register(Draft())
steps.register(Placement())
