"""Pre-armed orders: events played in another empire's go (issue 27, item 3, second half).

"Some events can be played at other times during a turn. This will be stated on the card." (L865). A card
such as Nomad raid ("manoeuvre, another player's empire") is played while *another* empire takes that
action. Rather than ask every seat at every go (a turn already takes 30-90 moves, and whether a seat is
asked must never depend on its hand), a player sets a hidden standing order ahead, at any time: "when the
Aztecs manoeuvre, play Nomad raid on them, disordering these areas". The order is kept with the player's
hidden state, like a face-down marker: the card stays in the hand, only its owner sees the order, and the
others learn nothing, not even that an order exists (the view never shows it; the move is told to its
sender only). It fires at the first matching moment, as the named empire's marker of the card's action is
turned over and before anything of that go happens (:func:`engine.seven_ages.markers.use_armed`).

When it fires it is checked again: the card still in the hand, the empire still in play and another
player's, at least one of the named areas still the empire's and not in disorder. A refused order is
dropped and explained to its owner alone; an order that stands is revealed to all ("alice (Red) plays
Nomad raid on the Aztecs as they manoeuvre"), its card discarded, and the event carried out through the
cancel chain's entry (:func:`engine.seven_ages.cancels.play`) as if played then.

An event some card cancels (Border raid, cancelled by Island isolation) opens its cancel window as it
fires, before anything of it happens (L875): the victim's go waits at the marker step's stage
:data:`engine.seven_ages.markers.WAITING` until the chain is over, the orders after it wait too ("each
event is implemented (or cancelled) before the next is played", L877), and the go then begins as usual
(:class:`Orders` is the marker step's hook for all of it).

Under option 8 an order fires only on an empire within Range of one of its owner's empires (L1224), counted
through other empires' areas with their permission (L2233). When the empire is reachable only so, the keepers
are asked as the order fires (:mod:`engine.seven_ages.range_requests`; standing answers at once), the victim's
go waiting at :data:`~engine.seven_ages.markers.WAITING` meanwhile. The order waits sealed
(``SevenState.sealed``, in no view: the victim sees its own go's data, so the request there never names the
card); the public request names only the target. All agreeing, the order plays as above; a refusal or an
unpaid price drops it, the card stays in the hand and its owner alone is told, in one sentence.

What may be armed, the events played on another player's empire whose codes ask nothing of the victim: in
Manoeuvre, ``disorder_areas``, ``money`` and ``steal_money`` (Nomad raid, Ghazi raid, Border raid, Scourge
of God, Raiders from the steppe, Pirate raid); in Production, ``income_percent`` (Corrupt administration:
the income is collected at that percent, :data:`engine.seven_ages.production.PERCENTS`); in Trade,
``block_action`` (Closed country: the go ends before its partner is chosen) and ``steal_money`` (Jolly
Roger). An event that takes money names, in its order, which of its player's empires receives it.

An ``arm`` move is never among the legal moves a step offers (it is an anytime move); the computer players
send them by choice (:mod:`engine.seven_ages.armed_ai`), a person by the ``orders`` command.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from engine.core import Action, Event, IllegalAction, Names, PlayerId, Result
from engine.seven_ages import cancels, civ_events, range_requests, take_that
from engine.seven_ages.answers import Answers
from engine.seven_ages.cards import load_deck
from engine.seven_ages.civilisation_moves import Arm, Disarm, PlayEvent
from engine.seven_ages.civilise import simple_effect
from engine.seven_ages.conflict_moves import WindowPass, WindowPlay
from engine.seven_ages.decision import register_heading
from engine.seven_ages.markers import WAITING, end_go, use_armed
from engine.seven_ages.production import PERCENTS, add_money
from engine.seven_ages.setup import discard_from_hand
from engine.seven_ages.state import Go, Pending, Player, SevenState
from engine.seven_ages.steps import Ctx
from engine.seven_ages.text import empire_name, order_tail, register_event, seat, the_empire
from engine.seven_ages.view import action_name
from engine.words import join_words, plural

CODES: Mapping[str, frozenset[str]] = {
    "manoeuvre": frozenset({"disorder_areas", "money", "steal_money"}),
    "production": frozenset({"income_percent"}),
    "trade": frozenset({"block_action", "steal_money"}),
}
"""The codes an armed event of each action's timing may carry."""
TARGET = "other_empire"
RESUME = "armed"
HELD = "armed_held"
"""A sealed note of the order that waits while its owner's Range through others' areas is asked (L2233)."""
ASKED = "armed_play"
"""The key under which such an order comes back once the keepers have answered."""
"""The key of the cancel chain's resume that carries out a fired order."""
AS_THEY = {"manoeuvre": "as they manoeuvre", "production": "as their Production begins",
           "trade": "as their Trade begins"}
WHEN_THEY = {"manoeuvre": "when they manoeuvre", "production": "when their Production begins",
             "trade": "when their Trade begins"}

Order = tuple[int, int, str, int]
"""A standing order as the player's hidden state keeps it: (card, empire card, areas comma-separated, the
player's empire that receives the money the event takes, 0 for none)."""


def armable(card: int) -> bool:
    """Whether ``card``'s event may be armed (public: it reads only the card)."""
    deck = load_deck()
    if card not in deck.cards:
        return False
    ev = deck.cards[card].event
    codes = {str(x["code"]) for x in ev.effects}
    return ev.target == TARGET and ev.timing in CODES and bool(codes) and codes <= CODES[ev.timing]


def disorders(card: int) -> int:
    """How many areas ``card``'s event disorders (the areas an order on it must name)."""
    effects = load_deck().cards[card].event.effects
    return sum(int(x["count"]) for x in effects if x["code"] == "disorder_areas")


def takes(card: int) -> int:
    """How much money ``card``'s event takes from its target (an order on it names who receives it)."""
    effects = load_deck().cards[card].event.effects
    return sum(int(x["amount"]) for x in effects if x["code"] == "steal_money")


def areas_of(order: Order) -> list[str]:
    return [a for a in order[2].split(",") if a]


def orders(state: SevenState, seat_: PlayerId) -> tuple[Order, ...]:
    """``seat_``'s standing orders (its hidden state: for its own view only)."""
    return state.people[seat_].armed


def waiting(state: SevenState, seat_: PlayerId) -> tuple[int, ...]:
    """The cards of ``seat_``'s orders fired and waiting while their Range is asked (its own hidden state)."""
    return tuple(int(p.data["order"][0]) for p in state.sealed if p.kind == HELD and p.seat == seat_)


# -- the standing moves -----------------------------------------------------------------------------

def standing_order(state: SevenState, action: Arm) -> Result:
    """Apply an ``arm`` move from any seated player, whoever is to act; only its sender is told, and no other
    view changes (not even its counter). Bad input is refused with one sentence and changes nothing."""
    person = _seated(state, action)
    order = _checked(state, action)
    kept = tuple(sorted((*(o for o in person.armed if o[0] != action.card), order)))
    event = Event("order_armed", {"seat": action.player, "card": action.card, "empire": action.empire,
                                  "areas": list(areas_of(order)), "to": order[3]}, (action.player,))
    # a quiet move (engine/seven_ages/quiet.py): the view's counter does not move, or all would see it
    return Result(state.with_player(replace(person, armed=kept)), (event,))


def withdrawn_order(state: SevenState, action: Disarm) -> Result:
    """Apply a ``disarm`` move, as :func:`standing_order` applies an ``arm``: the order on the card goes."""
    person = _seated(state, action)
    if action.card not in {o[0] for o in person.armed}:
        raise IllegalAction("not_armed", "You have no order armed on that card.")
    kept = tuple(o for o in person.armed if o[0] != action.card)
    event = Event("order_disarmed", {"seat": action.player, "card": action.card}, (action.player,))
    return Result(state.with_player(replace(person, armed=kept)), (event,))  # quiet too


def _seated(state: SevenState, action: Action) -> Player:
    """The sender of a standing move; one sentence when no such seat is in the game."""
    if not 0 <= action.player < state.players:
        raise IllegalAction("not_seated", "There is no such seat in this game.")
    return state.people[action.player]


def _checked(state: SevenState, action: Arm) -> Order:
    """The order ``action`` sets, or one sentence saying why it cannot be set."""
    if action.card not in state.people[action.player].hand:
        raise IllegalAction("not_in_hand", "That card is not in your hand.")
    name = load_deck().cards[action.card].event.name
    if not armable(action.card):
        able = sorted({c.event.name for c in load_deck().cards.values() if armable(c.number)})
        raise IllegalAction("not_armable", f"{name} cannot be armed: only {join_words(able, 'and')} can be "
                            "so far.")
    if not state.has_empire(action.empire) or state.empire(action.empire).owner == action.player:
        raise IllegalAction("bad_target", f"{name} is played on an empire of another player in play.")
    wanted = disorders(action.card)
    areas = [a.strip() for a in action.areas.split(",") if a.strip()]
    if not wanted and areas:
        raise IllegalAction("bad_areas", f"{name} disorders no area: name none.")
    if len(areas) != wanted or len(set(areas)) != len(areas):
        ones = "one" if wanted == 1 else "ones"
        raise IllegalAction("bad_areas", f"{name} disorders {plural(wanted, 'area')}: "
                            f"name {wanted} different {ones}.")
    held = set(state.empire(action.empire).areas())
    if not set(areas) <= held:
        raise IllegalAction("bad_areas", f"Name areas {empire_name(action.empire)} hold now.")
    if not takes(action.card) and action.to:
        raise IllegalAction("bad_receiver", f"{name} takes no money: name no empire to receive it.")
    if takes(action.card) and not _yours(state, action.player, action.to):
        raise IllegalAction("bad_receiver", f"{name} takes money: name one of your empires in play to "
                            "receive it.")
    return (action.card, action.empire, ",".join(areas), action.to)


def _yours(state: SevenState, who: PlayerId, empire: int) -> bool:
    return state.has_empire(empire) and state.empire(empire).owner == who


# -- firing ------------------------------------------------------------------------------------------

def fire(ctx: Ctx, go: Go) -> None:
    """Every standing order on ``go``'s empire and action fires, the seats from the First player
    clockwise, each seat's orders by card: a fixed order, so a replay does the same. An order fired leaves
    its player's orders, so when one opens a cancel window the firing stops there and, called again once the
    chain is over, goes on with the next."""
    if not go.empire or not ctx.state.has_empire(go.empire):
        return
    for who in ctx.state.seats_from_first():
        for order in orders(ctx.state, who):
            now = ctx.state.go_of(go.seat)
            if now is None or now.marker != go.marker:
                return  # the go was taken away (Closed country): the orders left wait for another go
            if cancels.chain_of(now) is not None or range_requests.asking(now):
                return  # an event fired waits in its cancel window (or for permission): the next comes after
            if order[1] == go.empire and load_deck().cards[order[0]].event.timing == go.action:
                _fire_one(ctx, now, who, order)


_CANCEL_ANSWERS: Answers[Callable[[Ctx, Go, Any], None]] = Answers(
    {WindowPlay: cancels.move, WindowPass: cancels.move}, "wrong_move",
    "Play a card that cancels the event, or pass.")
"""The moves of a cancel window opened by an order fired as a go begins (L875): a cancel, or a pass."""


class Orders:
    """The marker step's hook (:class:`engine.seven_ages.markers.StandingOrders`): the orders fired as a go
    begins, and the cancel window of one of them while the go waits."""

    def fire(self, ctx: Ctx, go: Go) -> None:
        fire(ctx, go)

    def holding(self, go: Go) -> bool:
        return cancels.chain_of(go) is not None or range_requests.asking(go)

    def legal(self, state: SevenState, pending: Pending) -> list[Action]:
        if pending.kind in range_requests.KINDS:
            return range_requests.pending_legal(state, pending)
        return cancels.pending_legal(state, pending)

    def apply(self, ctx: Ctx, go: Go, action: Action) -> None:
        asked = next((p for p in ctx.state.pending
                      if p.seat == action.player and p.kind in range_requests.KINDS), None)
        if asked is not None:  # a keeper's answer, or the order's owner paying the price asked
            range_requests.move(ctx, go, asked, action)
            return
        _CANCEL_ANSWERS.of(action)(ctx, go, action)

    def passive(self, pending: Pending) -> Action:
        if pending.kind in range_requests.KINDS:
            return range_requests.passive(pending)
        return cancels.passive(pending)


def _fire_one(ctx: Ctx, go: Go, who: PlayerId, order: Order) -> None:
    card, empire = order[0], order[1]
    person = ctx.state.people[who]
    ctx.state = ctx.state.with_player(replace(person, armed=tuple(o for o in person.armed if o != order)))
    why = _refusal(ctx.state, go, who, order)
    if why:
        ctx.emit("order_dropped", (who,), seat=who, card=card, empire=empire, reason=why)
        return
    route = take_that.other_time_route(ctx.state, who, ctx.state.empire(empire))
    if route is not None and route.keepers:  # option 8: Range only through others' areas (L1224, L2233)
        held = Pending(HELD, who, go.empire, {"order": list(order)})
        ctx.state = replace(ctx.state, sealed=(*ctx.state.sealed, held))
        range_requests.start(ctx, go, route, ASKED, {"seat": who, "target": empire}, empire, "", asker=who)
        return
    _play(ctx, go, who, order)


def _play(ctx: Ctx, go: Go, who: PlayerId, order: Order) -> None:
    """The order stands: revealed to all, its card discarded, its event played through the cancel chain."""
    card, empire = order[0], order[1]
    ev = load_deck().cards[card].event
    discard_from_hand(ctx, who, (card,))
    # the areas it is played on are named to all, as a card played face up on its target is seen (L875):
    # those asked in its cancel window, if any, decide knowing them
    aimed = _open_areas(ctx.state, order)[:disorders(card)]
    ctx.emit("armed_played", seat=who, card=card, event=ev.name, empire=empire, action=go.action, areas=aimed)
    chosen = {"card": card, "seat": who, "target": empire, "areas": ",".join(aimed), "to": order[3]}
    cancels.play(ctx, go, card, who, ctx.state.empire(empire).owner, RESUME, chosen)


def _refusal(state: SevenState, go: Go, who: PlayerId, order: Order) -> str:
    """Why the order cannot be carried out now in ``go`` ("" when it can)."""
    card, empire, to = order[0], order[1], order[3]
    if card not in state.people[who].hand:
        return "the card is no longer in your hand"
    if not state.has_empire(empire) or state.empire(empire).owner == who:
        return "that empire is no longer another player's empire in play"
    if disorders(card) and not _open_areas(state, order):
        return "none of the areas you named is theirs and out of disorder any more"
    if takes(card) and not _yours(state, who, to):
        return "the empire you named to receive the money is no longer yours in play"
    if takes(card) and not state.empire(empire).money:
        return "they have no money to take"
    problem = take_that.other_time_problem(state, who, state.empire(empire), asking=True)
    if problem is not None:  # option 8: an event out of one's own go needs the target within Range (L1224)
        return "none of your empires has it within Range (option 8, Take that!, L1224)"
    if range_requests.refused(go, who, empire):
        return "your request to count Range through another empire's areas to them was refused this go"
    return ""


def _unseal(ctx: Ctx, who: PlayerId) -> Order | None:
    """The order ``who`` waits to play while its Range is asked, no longer sealed."""
    held = next((p for p in ctx.state.sealed if p.kind == HELD and p.seat == who), None)
    if held is None:
        return None
    ctx.state = replace(ctx.state, sealed=tuple(p for p in ctx.state.sealed if p is not held))
    card, empire, areas, to = held.data["order"]
    return (int(card), int(empire), str(areas), int(to))


def _granted(ctx: Ctx, go: Go, chosen: Mapping[str, Any]) -> None:
    """Every keeper let the order's owner count through (L2233): the order plays, checked again first."""
    who = int(chosen["seat"])
    order = _unseal(ctx, who)
    if order is None:
        return
    why = _refusal(ctx.state, go, who, order)
    if why:  # a price paid may have changed what the order needs (the money it takes, say)
        ctx.emit("order_dropped", (who,), seat=who, card=order[0], empire=order[1], reason=why)
        return
    _play(ctx, ctx.state.go_of(go.seat) or go, who, order)


def _refused(ctx: Ctx, go: Go, chosen: Mapping[str, Any]) -> None:
    """A refusal or an unpaid price: the order is dropped, the card kept; its owner alone is told."""
    who = int(chosen["seat"])
    order = _unseal(ctx, who)
    if order is not None:
        ctx.emit("order_dropped", (who,), seat=who, card=order[0], empire=order[1],
                 reason="the permission to count Range through another empire's areas was not given, or its "
                 "price not paid; the card stays in your hand")


def _open_areas(state: SevenState, order: Order) -> list[str]:
    """The order's areas the empire still holds, not in disorder: the ones its event may disorder."""
    open_ = set(civ_events.disorder_candidates(state, state.empire(order[1])))
    return [a for a in areas_of(order) if a in open_]


def _resume(ctx: Ctx, go: Go, chosen: Mapping[str, Any]) -> None:
    """Carry out a fired order that stood: its codes in order on the empire, the named areas disordered."""
    card, empire, to = int(chosen["card"]), int(chosen["target"]), int(chosen.get("to", 0))
    if not ctx.state.has_empire(empire):
        return
    order: Order = (card, empire, str(chosen["areas"]), to)
    action = PlayEvent(int(chosen["seat"]), card, empire, "")
    for x in load_deck().cards[card].event.effects:
        code = x["code"]
        if code == "disorder_areas":
            for area in _open_areas(ctx.state, order)[:int(x["count"])]:
                civ_events.disorder(ctx, ctx.state.empire(empire), area)
        elif code == "steal_money":
            _steal(ctx, empire, to, int(x["amount"]))
        elif code == "income_percent":  # collected at that percent as the Production begins
            now = ctx.state.go_of(go.seat) or go
            percents = [*now.data.get(PERCENTS, []), int(x["percent"])]
            ctx.state = ctx.state.with_go(replace(now, data={**now.data, PERCENTS: percents}))
        elif code == "block_action":
            ctx.emit("action_lost", seat=go.seat, empire=empire, action=go.action)
            end_go(ctx, go.seat)
            return
        else:
            simple_effect(ctx, go, action, x)


def _steal(ctx: Ctx, victim: int, to: int, amount: int) -> None:
    """Up to ``amount`` money from ``victim`` to ``to`` (all it has, if less); nothing if either is gone."""
    if not ctx.state.has_empire(victim) or not ctx.state.has_empire(to):
        return
    taken = min(amount, ctx.state.empire(victim).money)
    ctx.state = ctx.state.with_empire(add_money(ctx.state.empire(victim), -taken))
    ctx.state = ctx.state.with_empire(add_money(ctx.state.empire(to), taken))
    ctx.emit("money_taken", empire=to, victim=victim, money=taken)


# -- words -------------------------------------------------------------------------------------------

def _event_name(card: int) -> str:
    return load_deck().cards[card].event.name


def _words(event: Event, names: Names) -> str | None:
    d = event.data
    if event.type == "order_armed":
        timing = load_deck().cards[int(d["card"])].event.timing
        return (f"Armed: {_event_name(int(d['card']))} on {empire_name(int(d['empire']))} "
                f"{WHEN_THEY.get(timing, 'when they take their go')}"
                f"{order_tail(list(d['areas']), int(d.get('to', 0)))}.")
    if event.type == "order_disarmed":
        return (f"Disarmed: your order on {_event_name(int(d['card']))} is withdrawn; "
                "the card stays in your hand.")
    if event.type == "order_dropped":
        return (f"Your armed {_event_name(int(d['card']))} on {empire_name(int(d['empire']))} "
                f"was not played: {d['reason']}.")
    if event.type == "armed_played":
        aimed = f", aimed at {join_words([str(a) for a in d['areas']], 'and')}" if d.get("areas") else ""
        return (f"{seat(names, int(d['seat']))} plays {d['event']} on {empire_name(int(d['empire']))} "
                f"{AS_THEY.get(str(d['action']), 'as their go begins')}{aimed}.")
    if event.type == "action_lost":
        return f"{the_empire(int(d['empire']))} lose their {action_name(str(d['action']))} this turn."
    return None


for _type in ("order_armed", "order_disarmed", "order_dropped", "armed_played", "action_lost"):
    register_event(_type, _words)
cancels.register_resume(RESUME, _resume)
range_requests.register(ASKED, _granted, _refused)
use_armed(Orders())
register_heading(WAITING, "your go begins once the event played on your empire is settled")
