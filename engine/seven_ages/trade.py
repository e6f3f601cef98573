"""7 Ages action 3, Trade and progress (L551-596), and Range (L2223-2231): pure rules.

The game's step (:mod:`engine.seven_ages.civilisation_moves`, the step table) asks the
active empire's player for a partner, then both players for a face-down card at
once; :func:`settle` gives what the revealed cards mean: who wins, how far each
side may progress, the income of a side that does not progress.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from engine.core import Action, Choice, Event, IllegalAction, Names, PlayerId
from engine.seven_ages import modifiers, power_events, prefs, range_permission, steps, trade_bars
from engine.seven_ages.card_words import card_text
from engine.seven_ages.cards import load_deck
from engine.seven_ages.civilisation_moves import FROM_DECK, Gift, TradeCard, TradeKeep, TradeLevels, TradeWith
from engine.seven_ages.data import load_tables
from engine.seven_ages.decision import register_heading, register_label
from engine.seven_ages.endturn import advance, immediate
from engine.seven_ages.manoeuvre_moves import REFUSE, TOLLS, CanalAnswer, PayToll
from engine.seven_ages.markers import BaseGoRules, GoHandler, MarkerStep, end_go
from engine.seven_ages.production import add_money
from engine.seven_ages.reach import distance as distance  # re-exported: Range is read from here
from engine.seven_ages.reach import in_range as in_range
from engine.seven_ages.setup import refill
from engine.seven_ages.state import Empire, Go, Pending, SevenState
from engine.seven_ages.steps import Ctx
from engine.seven_ages.text import empire_name, register_event, the_empire
from engine.seven_ages.text import seat as seat_name
from engine.seven_ages.view import SevenView
from engine.words import join_words, plural


def partners(in_reach: Mapping[str, bool], traded: Iterable[str]) -> list[str]:
    """The empires the active empire may pick (L557-559): those in range controlled by another
    player (``in_reach``: empire -> in range), those that have not traded yet this turn if any.
    Empty: it trades with the deck."""
    reach = [e for e, ok in in_reach.items() if ok]
    fresh = [e for e in reach if e not in set(traded)]
    return fresh or reach


def trade_value(card_value: int, trade_number: int, scientists: int, disordered: int) -> int:
    """Card + trade number + 1 a Scientist - 1 a disordered area (L565)."""
    return card_value + trade_number + scientists - disordered


@dataclass(frozen=True)
class Side:
    """One side of a trade: the card it played and what it brings."""

    card: int  # the played card's value
    value: int  # its trade value (the card's value alone for the deck, L567)
    level: int = 0  # its progress level before the trade
    chose: bool = False  # it took a trade and progress action this turn


@dataclass(frozen=True)
class Outcome:
    """What a revealed trade means for each side (index 0 = active, 1 = partner)."""

    winner: int | None  # 0, 1 or None for a tie
    levels: tuple[int, int]  # the least each side progresses
    extra: tuple[int, int]  # levels the winner *may* add (L573-575)
    income: tuple[int, int]  # money for a side that does not progress (L583)


def settle(active: Side, partner: Side, deck: bool) -> Outcome:
    """The effects of a trade (L569-583). The deck never progresses nor earns."""
    sides = (active, partner)
    if active.value != partner.value:
        w = 0 if active.value > partner.value else 1
        if deck and w == 1:
            levels, extra = (0, 0), (0, 0)
        else:
            me, them = sides[w], sides[1 - w]
            more = int(me.chose) + int(not deck and them.level > me.level)
            levels = (1, 0) if w == 0 else (0, 1)
            extra = (more, 0) if w == 0 else (0, more)
        winner: int | None = w
    else:
        winner, extra = None, (0, 0)
        if deck:
            levels = (int(active.chose), 0)
        elif active.chose and partner.chose:  # the lower advances; level: neither (L579)
            levels = (int(active.level < partner.level), int(partner.level < active.level))
        else:
            levels = (int(active.chose), int(partner.chose))
    income = tuple(0 if levels[i] else sides[1 - i].card for i in (0, 1))
    if deck:
        income = (income[0], 0)
    return Outcome(winner, levels, extra, (income[0], income[1]))


# -- the step ---------------------------------------------------------------------------------------

PARTNER, CARDS, LEVELS, KEEP, GIFT = "partner", "cards", "levels", "keep", "gift"
PERMIT, PRICE = "range_permission", "range_price"
"""Choosing a partner whose route passes another empire's areas (L2233): the pending decision of that
empire's player, then the trader's stage when a price is asked."""
SECOND, SECONDS = "trade_second", "seconds"
"""Option 16's Renaissance (L1878): the pending decision of a second face-down card from the hand, asked once
both first cards are in (the trader first); go data: the sides that played one (public: it is seen face
down) and the sides already asked."""
BONUS = "bonus"
"""Go data: what the trader's events add to its side's trade value."""
SCI = "Scientist"
CARD_PREF = prefs.register(prefs.Preference("partner", "ask", {
    "ask": "When another empire trades with one of yours, you are asked for your card.",
    "lowest": "When another empire trades with one of yours, your lowest card is played.",
    "highest": "When another empire trades with one of yours, your highest card is played."}))
"""A player's card as another empire's trade partner (L557): asked, or their hand's lowest or highest."""
GIFT_PREF = prefs.register(prefs.Preference("gift", "none", {
    "none": "After a trade of yours you give nothing and are not asked.",
    "ask": "After a trade of yours you are asked whether to give the other empire money."}))
"""Whether a player is asked for a gift after each trade (L585): most give none, so not asking is the
default (issue 29's prompt economy); a gift of nothing changes nothing, so this reveals nothing."""
GIFT_STEPS = (1, 2, 3, 4, 5, 10, 15, 20, 25, 30, 40, 50, 75, 100, 150, 199)


def leader_areas(e: Empire, ability: str) -> int:
    """How many of an empire's leaders of one type count: one an area (L954)."""
    return len({ld.area for ld in e.leaders if ability in ld.abilities})


def trade_number(card: int, level: int) -> int:
    """The card's trade number, or the one its Special gives for the empire's age."""
    empire = load_deck().cards[card].empire
    now = load_tables().age_of(min(level, 49))
    for e in empire.special:
        if e["code"] == "trade_by_age" and e["age"] == now:
            return int(e["trade"])
    return empire.trade


def partner_routes(state: SevenState, card: int, refused: Iterable[int] = ()) -> dict[int, int]:
    """The empires ``card`` may trade with now (L557-559), each with the empire whose permission its
    route needs (:data:`~engine.seven_ages.range_permission.DIRECT` for none, L2233); empty: the deck.
    ``refused``: partners whose route's permission was refused or its price not paid this go."""
    e = state.empire(card)
    routes: dict[int, int] = {}
    for o in state.empires:
        if o.owner == e.owner or not o.units or o.card in refused:
            continue
        keeper = range_permission.keeper_for(state, e, o)
        if keeper is not None:
            routes[o.card] = keeper
    traded = [n.split(":")[1] for n in state.notes if n.startswith("traded:")]
    return {int(c): routes[int(c)] for c in partners({str(c): True for c in routes}, traded)}


def _trade_marker(state: SevenState, card: int) -> int | None:
    """The index of a Trade-and-progress marker on ``card`` (face down or already turned), if any."""
    return next((i for i, m in enumerate(state.markers) if m.empire == card and m.action == "trade"), None)


def _chose(state: SevenState, card: int) -> bool:
    """Whether an empire took a trade and progress action this turn (its own marker, or a wild card
    turned over as one)."""
    return any(m.empire == card and (m.action == "trade" or m.turned == "trade") for m in state.markers)


def _hand_pick(hand: tuple[int, ...], rule: str) -> int:
    if not hand:
        return FROM_DECK
    cards = load_deck().cards
    pick = min if rule == "lowest" else max
    return pick(hand, key=lambda c: (cards[c].value, c))


def _set(ctx: Ctx, go: Go, stage: str, **data: Any) -> Go:
    merged = dict(go.data)
    merged.update(data)
    new = replace(go, stage=stage, data=merged)
    ctx.state = ctx.state.with_go(new)
    return new


def _value(card: int) -> int:
    """A played card's value (0 for no card: the deck and the discards were both empty)."""
    return load_deck().cards[card].value if card else 0


def _drawn(state: SevenState, seat: PlayerId) -> list[int]:
    """The cards ``seat`` has set aside (a winner's Scientist draws)."""
    return [c for s, c in state.aside if s == seat]


def _ask(ctx: Ctx, *pendings: Pending) -> None:
    ctx.state = replace(ctx.state, pending=(*ctx.state.pending, *pendings))


def _answered(ctx: Ctx, seat: PlayerId, kind: str) -> None:
    ctx.state = replace(ctx.state, pending=tuple(p for p in ctx.state.pending
                                                 if not (p.seat == seat and p.kind == kind)))


class TradeRules(BaseGoRules):
    """Trade and progress (L551-596): a partner, two face-down cards at once, the outcome, a gift.

    The partner's card is a decision of a player whose turn it is not: a pending decision with its
    own deadline (the AI or the skip move answers it on a timeout), or answered at once by that
    player's standing preference (``trade:lowest`` / ``trade:highest``).
    """

    action = "trade"
    own_events = True
    events_when = "Trade events are played as your trade begins, before you play your trade card."
    not_part = ("wrong_move", "That is not a move of a trade.")

    @property
    def handlers(self) -> Mapping[type[Action], GoHandler]:
        return {TradeWith: self._trade_with, TradeCard: self._card, TradeLevels: self._levels,
                TradeKeep: self._keep, Gift: self._gift, CanalAnswer: self._permission, PayToll: self._price}

    def opening(self, state: SevenState, go: Go) -> bool:
        """The partner is known and the trader's own card is still asked of it."""
        return go.stage == CARDS and any(p.seat == go.seat and p.kind == "trade_card" for p in state.pending)

    def begin(self, ctx: Ctx, go: Go) -> None:
        self._offer(ctx, go, [])

    def _offer(self, ctx: Ctx, go: Go, refused: list[int]) -> None:
        """Offer the partners (L557-559); with only partners whose route needs a permission, the deck
        too, since not asking leaves them out of range (L2233). A single choice is taken at once."""
        routes = partner_routes(ctx.state, go.empire, refused)
        options = list(routes)
        if options and all(routes.values()):
            options.append(FROM_DECK)
        via = [[p, k] for p, k in routes.items() if k]
        go = _set(ctx, go, PARTNER, options=options, via=via, refused=refused)
        if len(options) <= 1:
            self._choose(ctx, go, options[0] if options else FROM_DECK)

    def legal(self, state: SevenState, go: Go) -> list[Action]:
        if go.stage == PARTNER:
            return [TradeWith(go.seat, c) for c in go.data["options"]]
        if go.stage == PRICE:
            price = int(go.data["price"]["money"])
            pay = [PayToll(go.seat, True)] if state.empire(go.empire).money >= price else []
            return [*pay, PayToll(go.seat, False)]
        return []

    def passive(self, state: SevenState, go: Go) -> Action:
        if go.stage == PRICE:
            return PayToll(go.seat, False)
        return self.legal(state, go)[0]

    def _trade_with(self, ctx: Ctx, go: Go, action: TradeWith) -> None:
        if go.stage != PARTNER or action.player != go.seat:
            raise IllegalAction("no_partner_now", "The trade partner is already chosen.")
        if action.empire not in go.data["options"]:
            raise IllegalAction("not_a_partner", "That empire is not one you may trade with now: pick "
                                "one in range that has not traded yet this turn.")
        self._choose(ctx, go, action.empire)

    # -- stages ----------------------------------------------------------------------------------
    def _choose(self, ctx: Ctx, go: Go, partner: int) -> None:
        """The trader picks ``partner``: traded with at once, or first the permission its route needs
        (L2233), asked of the keeper's player or answered by its standing preference; either way the
        request is made in public, and only then does anyone see the answer (as at a canal)."""
        keeper = dict((int(p), int(k)) for p, k in go.data.get("via", [])).get(partner)
        if not keeper:
            self._partner(ctx, go, partner)
            return
        k = ctx.state.empire(keeper)
        rule = range_permission.standing(ctx.state, k)
        ctx.emit("range_asked", seat=go.seat, empire=go.empire, keeper=keeper, partner=partner)
        if rule == "ask":
            ctx.state = replace(ctx.state, pending=(*ctx.state.pending, Pending(PERMIT, k.owner, go.empire, {
                "partner": partner, "keeper": keeper, "ask": {"trader": go.empire, "partner": partner}})))
            _set(ctx, go, PERMIT, partner=partner, keeper=keeper)
            return
        answer = REFUSE if rule == "no" else 0 if rule == "yes" else int(rule)
        ctx.emit("range_answered", seat=k.owner, empire=keeper, trader=go.empire, partner=partner,
                 answer=answer)
        self._answer(ctx, go, partner, keeper, answer)

    def _answer(self, ctx: Ctx, go: Go, partner: int, keeper: int, answer: int) -> None:
        """What the keeper's answer does: no closes the route, yes opens it, a price goes to the trader."""
        if answer == REFUSE:
            self._refused(ctx, go, partner)
        elif answer == 0:
            self._partner(ctx, go, partner)
        else:
            self._ask_price(ctx, go, partner, keeper, answer)

    def _ask_price(self, ctx: Ctx, go: Go, partner: int, keeper: int, money: int) -> None:
        _set(ctx, go, PRICE, price={"partner": partner, "keeper": keeper, "money": money})
        ctx.emit("range_price", seat=go.seat, empire=go.empire, keeper=keeper, partner=partner, money=money)

    def _refused(self, ctx: Ctx, go: Go, partner: int) -> None:
        """The route is closed: the partners are offered again without it (the deck if none is left)."""
        self._offer(ctx, go, [*go.data.get("refused", []), partner])

    def _permission(self, ctx: Ctx, go: Go, action: CanalAnswer) -> None:
        """The keeper's player answers: no, yes, or a price in money the trader then pays or not."""
        pending = next((p for p in ctx.state.pending if p.seat == action.player and p.kind == PERMIT), None)
        if pending is None or go.stage != PERMIT:
            raise IllegalAction("not_asked", "Nobody is asking to count range through your empire now.")
        if action.answer != REFUSE and action.answer != 0 and action.answer not in TOLLS:
            raise IllegalAction("bad_answer", "Answer no, yes, or a price of "
                                f"{', '.join(str(t) for t in TOLLS[:-1])} or {TOLLS[-1]} money.")
        ctx.state = replace(ctx.state, pending=tuple(p for p in ctx.state.pending if p is not pending))
        partner, keeper = int(pending.data["partner"]), int(pending.data["keeper"])
        ctx.emit("range_answered", seat=action.player, empire=keeper, trader=go.empire, partner=partner,
                 answer=action.answer)
        self._answer(ctx, ctx.state.go_of(go.seat) or go, partner, keeper, action.answer)

    def _price(self, ctx: Ctx, go: Go, action: PayToll) -> None:
        """The trader pays the price and trades (L2233: "which you must supply immediately if you
        accept"), or does not and picks again."""
        if go.stage != PRICE or action.player != go.seat:
            raise IllegalAction("no_price", "No price for counting range is asked of you now.")
        price = go.data["price"]
        partner, keeper, money = int(price["partner"]), int(price["keeper"]), int(price["money"])
        if not action.accept:
            self._refused(ctx, go, partner)
            return
        e = ctx.state.empire(go.empire)
        if e.money < money:
            raise IllegalAction("too_poor",
                                f"{the_empire(e.card)} have {e.money} money: the price is {money}.")
        ctx.state = ctx.state.with_empire(add_money(e, -money))
        ctx.state = ctx.state.with_empire(add_money(ctx.state.empire(keeper), money))
        ctx.emit("range_paid", seat=go.seat, empire=go.empire, keeper=keeper, money=money)
        self._partner(ctx, ctx.state.go_of(go.seat) or go, partner)

    def _partner(self, ctx: Ctx, go: Go, partner: int) -> None:
        s = ctx.state
        seats = [go.seat, s.empire(partner).owner if partner else -1]
        marker = _trade_marker(s, partner) if partner else None
        if marker is not None and s.markers[marker].face_down:
            # L561: "they must immediately turn over their action marker, and the trade will complete
            # both empires' trade and progress actions."
            markers = list(s.markers)
            markers[marker] = replace(markers[marker], turned="trade")
            ctx.state = replace(s, markers=tuple(markers))
            ctx.emit("marker_turned", seat=seats[1], empire=partner, action="trade", wild=False)
        go = _set(ctx, go, CARDS, partner=partner, seats=seats, played=[])
        ctx.emit("trade_begins", seat=go.seat, empire=go.empire, partner=partner)
        _ask(ctx, Pending("trade_card", go.seat, go.empire))
        if partner:
            rule = prefs.standing(ctx.state, seats[1], CARD_PREF.key)
            if rule == "ask":
                _ask(ctx, Pending("trade_card", seats[1], go.empire))
            else:
                self._play(ctx, go, 1, _hand_pick(ctx.state.people[seats[1]].hand, rule))

    def _card(self, ctx: Ctx, go: Go, action: TradeCard) -> None:
        if go.stage != CARDS or action.player not in go.data["seats"]:
            raise IllegalAction("no_card_now", "No trade card is asked of you now.")
        if any(p.seat == action.player and p.kind == SECOND for p in ctx.state.pending):
            self._second(ctx, go, action)
            return
        side = go.data["seats"].index(action.player)
        hand = ctx.state.people[action.player].hand
        if action.card == FROM_DECK and hand and not self._deck_allowed(ctx.state, go, side):
            raise IllegalAction("has_cards", "Play a card from your hand: the deck's top card is only for an "
                                "empty hand.")
        if action.card != FROM_DECK and action.card not in hand:
            raise IllegalAction("not_in_hand", "That card is not in your hand.")
        _answered(ctx, action.player, "trade_card")
        self._play(ctx, go, side, action.card)

    @staticmethod
    def _deck_allowed(state: SevenState, go: Go, side: int) -> bool:
        """Whether a side may trade with the deck's top card though it holds cards: Computing (L1455)."""
        card = (go.empire, int(go.data["partner"]))[side]
        return bool(card) and modifiers.trades_from_deck(state, state.empire(card))

    def _play(self, ctx: Ctx, go: Go, side: int, card: int) -> None:
        s = ctx.state
        seat = go.data["seats"][side]
        if card != FROM_DECK:
            p = s.people[seat]
            hand = list(p.hand)
            hand.remove(card)
            ctx.state = s.with_player(replace(p, hand=tuple(hand)))
        # face down until both are in: set aside where only the player sees it (no go data)
        if card != FROM_DECK:
            ctx.state = replace(ctx.state, aside=(*ctx.state.aside, (seat, card)))
        go = ctx.state.go_of(go.seat) or go
        played = [*go.data["played"], side]
        go = _set(ctx, go, CARDS, played=played)
        ctx.emit("trade_card_played", seat=seat, empire=go.empire)
        if len(played) == (2 if go.data["partner"] else 1):
            self._seconds_or_reveal(ctx, go)

    def _seconds_or_reveal(self, ctx: Ctx, go: Go) -> None:
        """Both first cards are in: a side with Renaissance's power and cards in hand is asked for a second
        (the trader first, L1878); when none is left to ask, the cards are revealed."""
        asked = list(go.data.get("asked", []))
        for side, card in enumerate((go.empire, int(go.data["partner"]))):
            seat = go.data["seats"][side]
            if (card and side not in asked and ctx.state.people[seat].hand
                    and modifiers.second_trade_card(ctx.state, ctx.state.empire(card))):
                _set(ctx, go, CARDS, asked=[*asked, side])
                _ask(ctx, Pending(SECOND, seat, go.empire))
                return
        self._reveal(ctx, go)

    def _second(self, ctx: Ctx, go: Go, action: TradeCard) -> None:
        """A second card face down from the hand, or none (:data:`FROM_DECK`: never the deck's, L1878)."""
        hand = ctx.state.people[action.player].hand
        if action.card != FROM_DECK and action.card not in hand:
            raise IllegalAction("not_in_hand", "That card is not in your hand.")
        _answered(ctx, action.player, SECOND)
        side = go.data["seats"].index(action.player)
        if action.card != FROM_DECK:
            p = ctx.state.people[action.player]
            ctx.state = ctx.state.with_player(replace(p, hand=tuple(c for c in hand if c != action.card)))
            ctx.state = replace(ctx.state, aside=(*ctx.state.aside, (action.player, action.card)))
            now = ctx.state.go_of(go.seat) or go
            go = _set(ctx, now, CARDS, **{SECONDS: [*now.data.get(SECONDS, []), side]})
            ctx.emit("trade_second_card", seat=action.player, empire=go.empire)
        self._seconds_or_reveal(ctx, ctx.state.go_of(go.seat) or go)

    def _top(self, ctx: Ctx) -> int:
        refill(ctx, 1)
        s = ctx.state
        if not s.deck:  # every card is in a hand: the side plays nothing, worth 0
            return FROM_DECK
        ctx.state = replace(s, deck=s.deck[1:])
        return s.deck[0]

    def _reveal(self, ctx: Ctx, go: Go) -> None:
        partner = int(go.data["partner"])
        seats = go.data["seats"]
        mine = [[c for s, c in ctx.state.aside if s == seat] for seat in seats]
        seconds = [mine[i].pop() if i in go.data.get(SECONDS, []) else None for i in (0, 1)]
        played = [m[0] if m else FROM_DECK for m in mine]
        ctx.state = replace(ctx.state, aside=tuple(x for x in ctx.state.aside if x[0] not in seats))
        played = [c if c != FROM_DECK else self._top(ctx) for c in played]
        every = [[c for c in (played[i], seconds[i]) if c] for i in (0, 1)]  # all of a side's cards (L1878)
        s = ctx.state
        sides = []
        for i, card in enumerate((go.empire, partner)):
            shown = sum(_value(c) for c in every[i])
            if not card:
                sides.append(Side(shown, shown))
                continue
            e = s.empire(card)
            disordered = sum(1 for a in e.areas() if s.area(a).disorder)
            number = modifiers.trade_number(s, e, trade_number(card, e.progress))
            value = trade_value(shown, number, leader_areas(e, SCI), disordered)
            if i == 0:  # the trader's own events (Merchant fleet): "+N to this trade's value"
                value += int(go.data.get(BONUS, 0))
            sides.append(Side(shown, value, e.progress, _chose(s, card)))
        out = settle(sides[0], sides[1], deck=not partner)
        values = [sd.value for sd in sides]
        if any(seconds):  # the second cards (Renaissance), named only when played: older logs read alike
            ctx.emit("trade_revealed", empire=go.empire, partner=partner, cards=played, values=values,
                     winner=out.winner, seconds=[c or 0 for c in seconds])
        else:
            ctx.emit("trade_revealed", empire=go.empire, partner=partner, cards=played, values=values,
                     winner=out.winner)
        most = self._most_levels(s, go, out, [sd.value for sd in sides])
        for i, card in enumerate((go.empire, partner)):
            if card and out.income[i]:
                e = ctx.state.empire(card)
                money = modifiers.trade_income(ctx.state, e, [_value(c) for c in every[1 - i]],
                                               [_value(c) for c in every[i]])
                ctx.state = ctx.state.with_empire(add_money(e, money))
                ctx.emit("trade_income", empire=card, money=money)
            if card and i != out.winner:
                advance(ctx, card, out.levels[i])
            elif card and most <= 1:
                advance(ctx, card, most)
        self._swap(ctx, go, every)
        self._after(ctx, go, out, len(every[0]) + len(every[1]))
        if most > 1:
            w = out.winner if out.winner is not None else 0
            go = _set(ctx, ctx.state.go_of(go.seat) or go, LEVELS, most=most, winner=w)
            _ask(ctx, Pending("trade_levels", go.data["seats"][w], go.empire))
        else:
            self._scientists(ctx, ctx.state.go_of(go.seat) or go, out.winner)

    @staticmethod
    def _most_levels(state: SevenState, go: Go, out: Outcome, values: list[int]) -> int:
        """The most levels the trade's winner may advance (0 without a winner): the least and the extra it
        may add (L573-575), as option 16's artefacts change them."""
        if out.winner is None:
            return 0
        w = out.winner
        card = (go.empire, int(go.data["partner"]))[w]
        most = out.levels[w] + out.extra[w]
        if not card or not most:
            return most
        return modifiers.trade_levels(state, state.empire(card), most, initiated=w == 0,
                                      margin=values[w] - values[1 - w])

    def _swap(self, ctx: Ctx, go: Go, every: list[list[int]]) -> None:
        """Each side keeps the cards the other played; with the deck, the active side discards its own
        (L585)."""
        seats = go.data["seats"]
        s = ctx.state
        if go.data["partner"]:
            for i in (0, 1):
                p = s.people[seats[i]]
                s = s.with_player(replace(p, hand=tuple(sorted((*p.hand, *every[1 - i])))))
        else:
            p = s.people[seats[0]]
            s = replace(s, discard=(*s.discard, *every[0])).with_player(
                replace(p, hand=tuple(sorted((*p.hand, *every[1])))))
        ctx.state = s

    def _after(self, ctx: Ctx, go: Go, out: Outcome, cards: int) -> None:
        """Immediate glory of a trade won or tied (L578, L1138), option 16's glory and money at the end of a
        trade (``cards``: how many both sides traded), the traded marks."""
        partner = int(go.data["partner"])
        both = [c for c in (go.empire, partner) if c]
        for i, card in enumerate(both):
            if out.winner == i:
                immediate(ctx, card, "per_trade_won")
                power_events.glory(ctx, card, modifiers.trade_won_glory(ctx.state, ctx.state.empire(card)),
                                   modifiers.CAPITALISM)
            elif out.winner is None and partner:
                immediate(ctx, card, "per_trade_tied")
        if partner:
            for card, other in ((both[0], both[1]), (both[1], both[0])):
                s = ctx.state
                money = modifiers.traded_money(s, s.empire(card), s.empire(other), cards)
                power_events.money(ctx, card, money, modifiers.DEMOCRACY)
        notes = set(ctx.state.notes) | {f"traded:{c}" for c in both}
        ctx.state = replace(ctx.state, notes=tuple(sorted(notes)))
        if partner:  # each icon lifted by a trade with an empire free of it, won or lost (L519)
            for card, other in ((both[0], both[1]), (both[1], both[0])):
                e = ctx.state.empire(card)
                classes = trade_bars.lifted_by(e, ctx.state.empire(other))
                if classes:
                    ctx.state = ctx.state.with_empire(trade_bars.lift(e, classes))
                    ctx.emit("bar_lifted", empire=card, classes=classes)

    def _levels(self, ctx: Ctx, go: Go, action: TradeLevels) -> None:
        if go.stage != LEVELS or action.player != go.data["seats"][go.data["winner"]]:
            raise IllegalAction("no_levels_now", "No progress choice is asked of you now.")
        if not 1 <= action.levels <= go.data["most"]:
            raise IllegalAction("bad_levels", f"Advance between 1 and {go.data['most']} levels.")
        _answered(ctx, action.player, "trade_levels")
        w = int(go.data["winner"])
        advance(ctx, (go.empire, int(go.data["partner"]))[w], action.levels)
        self._scientists(ctx, ctx.state.go_of(go.seat) or go, w)

    def _scientists(self, ctx: Ctx, go: Go, winner: int | None) -> None:
        """The winner draws a card for each Scientist and keeps one (L577)."""
        card = (go.empire, int(go.data["partner"]))[winner] if winner is not None else 0
        n = leader_areas(ctx.state.empire(card), SCI) if card else 0
        refill(ctx, n)
        drawn = list(ctx.state.deck[:n])
        if drawn:
            seat = go.data["seats"][winner]
            ctx.state = replace(ctx.state, deck=ctx.state.deck[len(drawn):],
                                aside=(*ctx.state.aside, *((seat, c) for c in drawn)))
            go = _set(ctx, go, KEEP)
            ctx.emit("cards_drawn", seat=seat, count=len(drawn))
            ctx.emit("cards_drawn_secret", (seat,), seat=seat, cards=drawn)
            _ask(ctx, Pending("trade_keep", seat, go.empire))
            return
        self._gifts(ctx, go)

    def _keep(self, ctx: Ctx, go: Go, action: TradeKeep) -> None:
        drawn = _drawn(ctx.state, action.player)
        if go.stage != KEEP or action.card not in drawn:
            raise IllegalAction("not_drawn", "Keep one of the cards your Scientists drew.")
        _answered(ctx, action.player, "trade_keep")
        s = replace(ctx.state, aside=tuple(x for x in ctx.state.aside if x[0] != action.player))
        p = s.people[action.player]
        rest = tuple(c for c in drawn if c != action.card)
        ctx.state = replace(s, discard=s.discard + rest).with_player(
            replace(p, hand=tuple(sorted((*p.hand, action.card)))))
        self._gifts(ctx, ctx.state.go_of(go.seat) or go)

    def _gifts(self, ctx: Ctx, go: Go) -> None:
        """Either side may now give the other money (L585)."""
        if not go.data["partner"]:
            self._end(ctx, go)
            return
        asked = [seat for seat in go.data["seats"] if prefs.standing(ctx.state, seat, GIFT_PREF.key) == "ask"]
        if not asked:
            self._end(ctx, go)
            return
        go = _set(ctx, go, GIFT)
        for seat in asked:
            _ask(ctx, Pending("gift", seat, go.empire))

    def _gift(self, ctx: Ctx, go: Go, action: Gift) -> None:
        if go.stage != GIFT or action.player not in go.data["seats"]:
            raise IllegalAction("no_gift_now", "No gift can be given now.")
        side = go.data["seats"].index(action.player)
        cards = (go.empire, int(go.data["partner"]))
        giver, taker = ctx.state.empire(cards[side]), ctx.state.empire(cards[1 - side])
        if not 0 <= action.amount <= giver.money:
            raise IllegalAction("too_much", f"The empire has {giver.money} money to give.", money=giver.money)
        _answered(ctx, action.player, "gift")
        if action.amount:
            ctx.state = ctx.state.with_empire(add_money(giver, -action.amount))
            ctx.state = ctx.state.with_empire(add_money(ctx.state.empire(taker.card), action.amount))
            ctx.emit("gift", empire=giver.card, to=taker.card, money=action.amount)
        if not any(p.kind == "gift" for p in ctx.state.pending):
            self._end(ctx, ctx.state.go_of(go.seat) or go)

    def _end(self, ctx: Ctx, go: Go) -> None:
        end_go(ctx, go.seat)

    # -- pending decisions -----------------------------------------------------------------------
    def pending_legal(self, state: SevenState, pending: Pending) -> list[Action]:
        go = next(g for g in state.goes if g.empire == pending.empire)
        seat = pending.seat
        if pending.kind == "trade_card":
            hand = state.people[seat].hand
            deck = [TradeCard(seat, FROM_DECK)] if hand and self._deck_allowed(
                state, go, go.data["seats"].index(seat)) else []
            return [*(TradeCard(seat, c) for c in hand), *deck] or [TradeCard(seat, FROM_DECK)]
        if pending.kind == SECOND:  # none first: the skip move
            return [TradeCard(seat, FROM_DECK), *(TradeCard(seat, c) for c in state.people[seat].hand)]
        if pending.kind == "trade_levels":
            return [TradeLevels(seat, n) for n in range(go.data["most"], 0, -1)]
        if pending.kind == "trade_keep":
            return [TradeKeep(seat, c) for c in _drawn(state, seat)]
        if pending.kind == PERMIT:
            return [CanalAnswer(seat, REFUSE), CanalAnswer(seat, 0), *(CanalAnswer(seat, t) for t in TOLLS)]
        if pending.kind == "gift":
            side = go.data["seats"].index(seat)
            money = state.empire((go.empire, int(go.data["partner"]))[side]).money
            return [Gift(seat, 0), *(Gift(seat, n) for n in GIFT_STEPS if n <= money)]
        return []

    def pending_passive(self, state: SevenState, pending: Pending) -> Action:
        """The skip moves: the lowest card, every level earned, the best drawn card, no gift."""
        if pending.kind == "trade_card":
            return TradeCard(pending.seat, _hand_pick(state.people[pending.seat].hand, "lowest"))
        if pending.kind == PERMIT:  # a request not answered in time is refused, as at a canal
            return CanalAnswer(pending.seat, REFUSE)
        if pending.kind == "trade_keep":
            cards = load_deck().cards
            best = max(_drawn(state, pending.seat), key=lambda c: (cards[c].value, c))
            return TradeKeep(pending.seat, best)
        return self.pending_legal(state, pending)[0]


steps.register(MarkerStep(TradeRules()))


# -- words ------------------------------------------------------------------------------------------

def _keeper_in(view: SevenView, action: TradeWith) -> int:
    """The empire whose permission the trader's route to ``action.empire`` needs (0: none), from its go."""
    for go in view.get("goes", []):
        if go["seat"] == action.player:
            for partner, keeper in go["data"].get("via", []):
                if partner == action.empire:
                    return int(keeper)
    return 0


def _trade_with_label(view: SevenView, action: TradeWith) -> Choice:
    if action.empire == FROM_DECK:
        return Choice(action, "Trade with the deck")
    keeper = _keeper_in(view, action)
    if keeper:
        return Choice(action, f"Trade with {empire_name(action.empire)}, asking {empire_name(keeper)} "
                      "to let you count range through their areas")
    return Choice(action, f"Trade with {empire_name(action.empire)}")


def _trade_card_label(view: SevenView, action: TradeCard) -> Choice:
    if action.card == FROM_DECK:
        if any(p["seat"] == action.player and p["kind"] == SECOND for p in view.get("pending", [])):
            return Choice(action, "Play no second card")
        if view.get("your_hand"):
            return Choice(action, "Play the deck's top card instead of one from your hand (Computing)")
        return Choice(action, "Play the top card of the deck (your hand is empty)")
    second = any(p["seat"] == action.player and p["kind"] == SECOND for p in view.get("pending", []))
    extra = " as a second card" if second else ""
    return Choice(action, f"Play {card_text(action.card)} face down{extra}")


def _levels_label(view: SevenView, action: TradeLevels) -> Choice:
    return Choice(action, f"Advance {plural(action.levels, 'level')}")


def _keep_label(view: SevenView, action: TradeKeep) -> Choice:
    return Choice(action, f"Keep {card_text(action.card)}")


def _gift_label(view: SevenView, action: Gift) -> Choice:
    return Choice(action, f"Give {action.amount} money" if action.amount else "Give nothing")


LABELS: Mapping[type[Action], Callable[[SevenView, Any], Choice]] = {
    TradeWith: _trade_with_label, TradeCard: _trade_card_label, TradeLevels: _levels_label,
    TradeKeep: _keep_label, Gift: _gift_label,
}
"""The words of a Trade go's moves, by class."""


def _trade_words(event: Event, names: Names) -> str | None:
    d = event.data
    who = seat_name(names, int(d["seat"])) if "seat" in d else ""
    if event.type == "trade_begins":
        other = empire_name(int(d["partner"])) if d["partner"] else "the deck"
        return f"{the_empire(int(d['empire']))} trade with {other}."
    if event.type == "trade_card_played":
        return f"{who} plays a trade card face down."
    if event.type == "trade_second_card":
        return f"{who} plays a second trade card face down (Renaissance)."
    if event.type == "trade_revealed":
        cards = [card_text(int(c)) if c else "no card" for c in d["cards"]]
        other = empire_name(int(d["partner"])) if d["partner"] else "the deck"
        result = "the trade is tied" if d["winner"] is None else \
            f"{(empire_name(int(d['empire'])), other)[int(d['winner'])]} win"
        for i, c in enumerate(d.get("seconds", [0, 0])):
            if c:
                cards[i] += f" and {card_text(int(c))}"
        return (f"Trade revealed: {empire_name(int(d['empire']))} {cards[0]} (total {d['values'][0]}), "
                f"{other} {cards[1]} (total {d['values'][1]}): {result}.")
    if event.type == "trade_income":
        return f"{the_empire(int(d['empire']))} earn {d['money']} money from the trade."
    if event.type == "deck_reshuffled":
        return f"The deck has run out: the {d['cards']} discarded cards are shuffled into a new deck."
    if event.type == "gift":
        return f"{the_empire(int(d['empire']))} give {d['money']} money to " \
               f"{empire_name(int(d['to']))}."
    if event.type == "bar_lifted":
        return (f"{the_empire(int(d['empire']))} may build {join_words([str(c) for c in d['classes']])} from "
                "now on: they traded with an empire free of that restriction.")
    return _range_words(event)


def _range_words(event: Event) -> str | None:
    """The permission to count range through another empire's areas (L2233), in words."""
    d = event.data
    if event.type == "range_asked":
        return (f"{the_empire(int(d['empire']))} ask {empire_name(int(d['keeper']))} to count range through "
                f"their areas, to trade with {empire_name(int(d['partner']))}.")
    if event.type == "range_answered":
        answer = int(d["answer"])
        if answer > 0:  # the price's own event says it
            return None
        what = "refuse" if answer == REFUSE else "agree"
        return (f"{the_empire(int(d['empire']))} {what} when {empire_name(int(d['trader']))} ask to count "
                "range through their areas.")
    if event.type == "range_price":
        return (f"{the_empire(int(d['keeper']))} ask {d['money']} money of {empire_name(int(d['empire']))} "
                f"to count range through their areas, to trade with {empire_name(int(d['partner']))}.")
    if event.type == "range_paid":
        return (f"{the_empire(int(d['empire']))} pay {d['money']} money to {empire_name(int(d['keeper']))} "
                "to count range through their areas.")
    return None


for _kind, _label in LABELS.items():
    register_label(_kind.kind, _label)
for _type in ("trade_begins", "trade_card_played", "trade_second_card", "trade_revealed", "trade_income",
              "gift", "bar_lifted", "deck_reshuffled", "range_asked", "range_answered", "range_price",
              "range_paid"):
    register_event(_type, _trade_words)
for _stage, _words in (("partner", "choose the empire to trade with"),
                       ("trade_card", "play a card face down for the trade"),
                       (SECOND, "Renaissance: play a second card face down from your hand, or none"),
                       ("trade_levels", "you won the trade: choose how many levels to advance"),
                       ("trade_keep", "keep one of the cards your Scientists drew"),
                       ("gift", "give the other empire money, or nothing"),
                       (PERMIT, "another empire asks to count its range through your empire's areas, to "
                                "trade: answer no, yes or a price"),
                       (PRICE, "the empire whose areas your range passes asks a price: pay it and trade, "
                               "or not")):
    register_heading(_stage, _words)
