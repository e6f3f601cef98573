"""Events played in one's own go of Production, Trade, Manoeuvre or Destiny (issue 27, items 2 and 3).

"Some events can be played at other times during a turn. This will be stated on the card." (L865). A card
whose event is timed for one of these actions, and is played on one's own empire (or "on any empire",
one's own among them), is offered to the player in their own empire's go of that action, among the go's
first decisions (:meth:`~engine.seven_ages.markers.GoRules.opening`): before anything is built in a
Production, before the trader's card in a Trade, before any unit moves in a Manoeuvre, while cards are
discarded in a Destiny. The offer is folded into a decision the player gets anyway, listed only from
their own hand, which only they see: no prompt of its own, nothing for the table to read from it.

One mechanism for every action (:class:`~engine.seven_ages.markers.MarkerStep` asks it through
:func:`~engine.seven_ages.markers.use_own_events`): the play is checked and discarded here, then the
card's codes run through the Civilise runner (:func:`engine.seven_ages.civ_events.start`), which holds
the go at its ``event`` stage while a choice is asked (Oracle bones' discard) and gives the go back at
the stage it was at. The codes particular to an action are carried out here: ``income_percent`` and
``unit_cost`` (this Production), ``add_units`` (free units placed by the player, asked through the runner),
``trade_bonus`` and ``steal_money`` (this trade, from its partner), the
movement codes (:mod:`engine.seven_ages.move_events`); the plain ones (money, an elite marker, cards
drawn) as in Civilise (:func:`engine.seven_ages.civilise.simple_effect`).

Not here: plays in another empire's go (pre-armed orders, :mod:`engine.seven_ages.armed`) or at the
harvest, and the cancels (plays out of one's own go and
the cancel chain). Conquistadors' conflict bonus is held by the manoeuvre go for its first conflict
round (:mod:`engine.seven_ages.move_events`). Readings with their passages: ``data/seven_ages/README.md``,
"Events in one's own go".
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from engine.core import Action, Event, IllegalAction, Names
from engine.seven_ages import cancels, civ_events, move_events
from engine.seven_ages.cards import load_deck
from engine.seven_ages.civilisation_moves import EventPick, PlayEvent
from engine.seven_ages.civilise import simple_effect
from engine.seven_ages.effects_words import describe
from engine.seven_ages.markers import GoRules, use_own_events
from engine.seven_ages.production import RULES as PRODUCTION
from engine.seven_ages.production import add_money, with_event_cost
from engine.seven_ages.setup import discard_from_hand
from engine.seven_ages.state import Go, SevenState
from engine.seven_ages.steps import Ctx
from engine.seven_ages.text import empire_name, register_event, the_empire
from engine.seven_ages.trade import BONUS

CODES: Mapping[str, frozenset[str]] = {
    "production": frozenset({"money", "elite_marker", "income_percent", "unit_cost", "build_ahead",
                             "add_units"}),
    "trade": frozenset({"money", "trade_bonus", "steal_money"}),
    "manoeuvre": move_events.MOVE_EVENT_CODES | {"add_units"},
    "destiny": frozenset({"draw_cards", "discard_cards"}),
}
"""The codes an event of each action's timing may carry to be played in one's own go of that action."""
OWN_TARGETS = ("own_empire", "any_empire")
"""Targets that let a card be played on the empire whose go it is ("another player's empire" is played in
that empire's go: out of one's own go, not here)."""
ACTION_WORDS = {"production": "production", "trade": "trade", "manoeuvre": "manoeuvre", "destiny": "destiny"}


def playable(card: int, action: str) -> bool:
    """Whether ``card``'s event may be played in one's own go of ``action``. An event some card of the deck
    cancels is not: its cancel window (:mod:`engine.seven_ages.cancels`) is not opened in these goes yet,
    and playing it without one would take away the others' right to cancel it (L875). No card played in
    one's own go today is such an event."""
    ev = load_deck().cards[card].event
    codes = {str(x["code"]) for x in ev.effects}
    if ev.timing != action or action not in CODES or not codes or not codes <= CODES[action]:
        return False
    if cancels.cancellable(ev.name):
        return False
    if action == "manoeuvre" and codes & move_events.MOVEMENT_CODES:
        return move_events.playable(card)  # a movement code, on the mover's empire or an area (Cataract)
    return ev.target in OWN_TARGETS


def targets(state: SevenState, go: Go, card: int) -> list[tuple[int, str]]:
    """(empire, area) pairs the event of ``card`` may be played on in ``go``: the go's empire."""
    if not go.empire or not state.has_empire(go.empire):
        return []
    codes = {str(x["code"]) for x in load_deck().cards[card].event.effects}
    if go.action == "manoeuvre" and codes & move_events.MOVEMENT_CODES:
        return move_events.targets(state, go, card)
    if "add_units" in codes and not _room(state, go, card):
        return []
    if "steal_money" in codes and not int(go.data.get("partner") or 0):
        return []  # taken from the trade partner: nothing to take from the deck
    return [(go.empire, "")]


def _room(state: SevenState, go: Go, card: int) -> bool:
    """Whether every ``add_units`` of the card has a unit the empire may build now, and a place for it."""
    e = state.empire(go.empire)
    for x in load_deck().cards[card].event.effects:
        if x["code"] == "add_units":
            unit = civ_events.best_unit(e, str(x["unit_class"]))
            if unit is None or not civ_events.place_areas(state, e, unit):
                return False
    return True


class Hook:
    """The own-go events as :class:`~engine.seven_ages.markers.MarkerStep` asks for them."""

    kinds: tuple[type[Action], ...] = (PlayEvent, EventPick)

    def busy(self, go: Go) -> bool:
        return go.stage == civ_events.EVENT

    def plays(self, state: SevenState, go: Go) -> list[Action]:
        """The player's events of this action's timing, on each target (none when the hand holds none)."""
        return [PlayEvent(go.seat, c, t, a) for c in sorted(state.people[go.seat].hand)
                if playable(c, go.action) for t, a in targets(state, go, c)]

    def legal(self, state: SevenState, go: Go) -> list[Action]:
        return civ_events.legal(state, go)

    def passive(self, state: SevenState, go: Go) -> Action:
        return civ_events.passive(state, go)

    def apply(self, ctx: Ctx, go: Go, action: Action, rules: GoRules) -> None:
        """The choice the event played waits for (whatever its class); else a play, by its class."""
        if self.busy(go):
            civ_events.pick(ctx, go, action, effect)
        else:
            _MOVES[type(action)](ctx, go, action, rules)


def _no_event(ctx: Ctx, go: Go, action: EventPick, rules: GoRules) -> None:
    raise IllegalAction("no_event", "No event is waiting for a choice now.")


def play(ctx: Ctx, go: Go, action: PlayEvent, rules: GoRules) -> None:
    """Play the event in one's own go: checked, discarded face up, announced, then carried out."""
    s, deck = ctx.state, load_deck()
    if action.card not in s.people[go.seat].hand or action.card not in deck.cards:
        raise IllegalAction("not_in_hand", "That card is not in your hand.")
    ev = deck.cards[action.card].event
    if not playable(action.card, go.action):
        raise IllegalAction("event_not_now", f"{ev.name} is not an event played as your "
                            f"{ACTION_WORDS.get(go.action, go.action)} begins.")
    if not rules.opening(s, go):
        raise IllegalAction("events_first", rules.events_when)
    if (action.target, action.area) not in targets(s, go, action.card):
        raise IllegalAction("bad_target", f"{ev.name} cannot be played there.")
    discard_from_hand(ctx, go.seat, (action.card,))
    ctx.emit("event_played", seat=go.seat, card=action.card, event=ev.name, target=action.target,
             area=action.area)
    civ_events.start(ctx, ctx.state.go_of(go.seat) or go, action, effect)


def effect(ctx: Ctx, go: Go, action: PlayEvent, x: Mapping[str, Any]) -> bool:
    """Carry out one code that asks nothing; False when a check card stops the event (L869)."""
    code = str(x["code"])
    now = ctx.state.go_of(go.seat) or go
    if code in move_events.MOVE_EVENT_CODES:
        move_events.effect(ctx, now, action, x)
    elif code == "income_percent":
        _income(ctx, now, int(x["percent"]))
    elif code == "unit_cost":
        e = ctx.state.empire(now.empire)
        ctx.state = ctx.state.with_empire(with_event_cost(e, str(x["unit_class"]), int(x["delta"])))
        ctx.emit("event_unit_cost", empire=e.card, unit_class=str(x["unit_class"]), delta=int(x["delta"]))
    elif code == "trade_bonus":
        bonus = int(now.data.get(BONUS, 0)) + int(x["amount"])
        ctx.state = ctx.state.with_go(replace(now, data={**now.data, BONUS: bonus}))
        ctx.emit("trade_bonus", empire=now.empire, amount=int(x["amount"]), total=bonus)
    elif code == "steal_money":
        _steal(ctx, now, int(x["amount"]))
    else:
        return simple_effect(ctx, now, action, x)
    return True


def _income(ctx: Ctx, go: Go, percent: int) -> None:
    """Income this action is ``percent`` of the usual: the production is settled again, and the event, under
    way, goes back to the stage that follows (maintenance may now be short)."""
    ev = civ_events.event_of(go)
    after = PRODUCTION.rework_income(ctx, replace(go, stage=str(ev["back"])), percent)
    ctx.state = ctx.state.with_go(replace(after, stage=civ_events.EVENT,
                                          data={**after.data, "event": {**ev, "back": after.stage}}))


def _steal(ctx: Ctx, go: Go, amount: int) -> None:
    """Up to ``amount`` money from the trade partner's empire to the trader's (what it has, if less)."""
    partner = int(go.data.get("partner") or 0)
    if not partner or not ctx.state.has_empire(partner):
        return
    victim = ctx.state.empire(partner)
    taken = min(amount, victim.money)
    ctx.state = ctx.state.with_empire(add_money(victim, -taken))
    ctx.state = ctx.state.with_empire(add_money(ctx.state.empire(go.empire), taken))
    ctx.emit("money_taken", empire=go.empire, victim=partner, money=taken)


def _words(event: Event, names: Names) -> str | None:
    d = event.data
    if event.type == "income_changed":
        return (f"{the_empire(int(d['empire']))} earn {d['percent']}% of their income this Production: "
                f"{d['now']} money instead of {d['was']}.")
    if event.type == "event_unit_cost":  # the card's own words: "infantry units cost 1 less to build"
        return f"For {empire_name(int(d['empire']))} this Production, {describe('unit_cost', d)}."
    if event.type == "trade_bonus":
        return f"{the_empire(int(d['empire']))} add {d['amount']} to the value of this trade."
    if event.type == "money_taken":
        return f"{the_empire(int(d['empire']))} take {d['money']} money from {empire_name(int(d['victim']))}."
    return None


for _type in ("income_changed", "event_unit_cost", "trade_bonus", "money_taken"):
    register_event(_type, _words)

_MOVES: Mapping[type[Action], Callable[[Ctx, Go, Any, GoRules], None]] = {PlayEvent: play,
                                                                          EventPick: _no_event}
"""The own-go events' moves (:attr:`Hook.kinds`) when no event waits for a choice, by class."""

use_own_events(Hook())
