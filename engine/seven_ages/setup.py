"""Preparing to play and who goes first (L299-337), with the dealing parts of options 1, 3 and 4.

- :func:`new_game`: shuffle the 110 cards and deal 7 to each player (10 with option 4; option 1
  deals two gold-bordered age-1 empires first, L1158), fill the leader cup.
- ``sift`` and ``sift_vote`` (option 2, L1162-1170): the agreed number of cards dealt to each player
  as a sub-deck; each round everyone discards one face down and passes the rest left, then everyone
  votes at once whether they are happy with the cards left; a majority ends it.
- ``redeem`` (option 3, L1172-1176): from the dealer (the first seat) clockwise, each
  discards any cards and refills to 6 (8 with option 4).
- ``bid``: every player plays a card face down at once; the highest goes first; tied players play
  again; a tied player without cards plays the deck's top card (L317-323).
- ``colours``: in order of the highest card played (ties: the nearest to the left of the winner),
  each takes a colour group as their dedicated colours (L325-327).
- ``trim`` (option 4, L1182): from the First player clockwise, discard down to 6.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from engine import rng
from engine.core import Action, Handlers, IllegalAction, PlayerId
from engine.seven_ages import steps
from engine.seven_ages.actions import AGAIN, HAPPY, Bid, ChooseColours, DiscardCard, Done, SiftVote
from engine.seven_ages.cards import load_deck
from engine.seven_ages.data import load_counters, read_yaml
from engine.seven_ages.state import (
    BID,
    COLOURS,
    REDEEM,
    SIFT,
    SIFT_VOTE,
    TRIM,
    Player,
    SevenState,
    marker_sets,
)
from engine.seven_ages.steps import Ctx

HAND = 7  # L307
ENHANCED_HAND = 10  # option 4 (L1180)
REFILL = 6  # option 3 (L1176)
ENHANCED_REFILL = 8
KEEP = 6  # option 4: discard down to 6 after the colours (L1182)
SUB_DECK = "sub_deck"
"""Option 2's lobby option: the agreed number of cards dealt to each player (0: off)."""
FROM_DECK = 0
"""A bid of card 0: the top card of the deck, played by a tied player with no cards left (L321)."""


@cache
def leader_cup() -> tuple[str, ...]:
    """The unnamed leaders and 'no leader' markers that fill the cup (L304), in data order."""
    raw = read_yaml("leaders.yaml")
    return tuple(u["ability"] for u in raw["unnamed"] for _ in range(int(u["count"])))


def new_game(players: int, options: Mapping[str, Any], seed: int) -> SevenState:
    """The state before anyone has moved: cards dealt, the first phase entered."""
    own = marker_sets(options, players)
    state = SevenState(players=players, options=dict(options), seed=seed, cup=leader_cup(),
                       people=tuple(Player(seat, marker_set=own) for seat in range(players)))
    ctx = Ctx(state)
    agreed = int(options.get(SUB_DECK, 0))
    if agreed:
        deck = list(load_deck().cards)
        rng.shuffle(ctx, deck)
        each = min(agreed, len(deck) // players)  # at most the whole deck, dealt equally (L1164)
        hands = [tuple(sorted(deck[each * seat: each * (seat + 1)])) for seat in range(players)]
        ctx.state = replace(ctx.state, deck=tuple(deck[each * players:]),
                            people=tuple(replace(p, hand=hands[p.seat]) for p in ctx.state.people))
        ctx.emit("sub_decks_dealt", cards=each)
        if may_sift(ctx.state):
            steps.enter(ctx, SIFT)
        else:
            end_sifting(ctx)
    else:
        deal(ctx, list(load_deck().cards))
    steps.settle(ctx)
    return ctx.state


def deal(ctx: Ctx, deck: list[int]) -> None:
    """Shuffle ``deck`` and deal the hands (L307; options 1 and 4), then begin option 3 or the bid."""
    options, players = ctx.state.options, ctx.state.players
    hand = ENHANCED_HAND if options.get("enhanced_start") else HAND
    hands: list[list[int]] = [[] for _ in range(players)]
    if options.get("total_history"):
        # Two unconditional age-1 empires each, then the rest from the reshuffled deck (L1158).
        gold = [n for n in deck if load_deck().cards[n].empire.gold]
        rng.shuffle(ctx, gold)
        for seat in range(players):
            hands[seat] += gold[2 * seat: 2 * seat + 2]
        deck = [n for n in deck if n not in {c for h in hands for c in h}]
    rng.shuffle(ctx, deck)
    for seat in range(players):
        while len(hands[seat]) < hand:
            hands[seat].append(deck.pop(0))
    ctx.state = replace(ctx.state, deck=tuple(deck), people=tuple(
        replace(p, hand=tuple(sorted(hands[p.seat]))) for p in ctx.state.people))
    steps.enter(ctx, REDEEM if options.get("redemption") else BID)


def draw(ctx: Ctx, seat: PlayerId, n: int) -> None:
    """``seat`` draws ``n`` cards (fewer when the deck runs out: the discards are not reshuffled)."""
    s = ctx.state
    taken = s.deck[:n]
    p = s.people[seat]
    ctx.state = replace(s, deck=s.deck[n:]).with_player(replace(p, hand=tuple(sorted(p.hand + taken))))
    ctx.emit("cards_drawn", seat=seat, count=len(taken))
    if taken:
        ctx.emit("cards_drawn_secret", (seat,), seat=seat, cards=list(taken))


def refill(ctx: Ctx, n: int) -> None:
    """Before drawing ``n`` cards: when the deck runs out, the discard pile is shuffled into a new
    deck (L2107)."""
    s = ctx.state
    if len(s.deck) >= n or not s.discard:
        return
    pile = list(s.discard)
    ctx.state = replace(s, discard=())
    rng.shuffle(ctx, pile)
    ctx.state = replace(ctx.state, deck=(*ctx.state.deck, *pile))
    ctx.emit("deck_reshuffled", cards=len(pile))


def discard_from_hand(ctx: Ctx, seat: PlayerId, cards: tuple[int, ...]) -> None:
    s = ctx.state
    p = s.people[seat]
    hand = list(p.hand)
    for c in cards:
        hand.remove(c)
    ctx.state = replace(s, discard=s.discard + cards).with_player(replace(p, hand=tuple(hand)))


# -- the first-player bid ------------------------------------------------------------------------

@dataclass(frozen=True)
class BidStep:
    name: str = BID

    @property
    def handlers(self) -> Handlers[Ctx]:
        return {Bid: self.bid}

    def enter(self, ctx: Ctx) -> None:
        ctx.state = replace(ctx.state, queue=tuple(range(ctx.state.players)))

    def actors(self, state: SevenState) -> frozenset[PlayerId]:
        return frozenset(q for q in state.queue if state.people[q].bid is None)

    def legal(self, state: SevenState, seat: PlayerId) -> list[Action]:
        if seat not in self.actors(state):
            return []
        hand = state.people[seat].hand
        return [Bid(seat, c) for c in hand] if hand else [Bid(seat, FROM_DECK)]

    def bid(self, ctx: Ctx, action: Bid) -> None:
        s, seat = ctx.state, action.player
        p = s.people[seat]
        if p.hand and action.card not in p.hand:
            raise IllegalAction("not_in_hand", "You do not hold that card.", card=action.card)
        if not p.hand and action.card != FROM_DECK:
            raise IllegalAction("not_in_hand", "You have no cards left: you play the deck's top card.")
        card = action.card
        if card == FROM_DECK:
            refill(ctx, 1)  # the earlier bids are discards: they make a new deck if it ran out
            s = ctx.state
            card, s = s.deck[0], replace(s, deck=s.deck[1:])
        hand = tuple(c for c in p.hand if c != card)
        ctx.state = s.with_player(replace(p, hand=hand, bid=card))
        ctx.emit("bid_placed", seat=seat)
        ctx.emit("bid_secret", (seat,), seat=seat, card=card)
        if not self.actors(ctx.state):
            _reveal(ctx)

    def done(self, state: SevenState) -> bool:
        return not state.queue

    def timeout(self, state: SevenState, seat: PlayerId) -> Action:
        hand = state.people[seat].hand
        if not hand:
            return Bid(seat, FROM_DECK)
        deck = load_deck().cards
        return Bid(seat, min(hand, key=lambda c: (deck[c].value, c)))  # keep the best cards


def _reveal(ctx: Ctx) -> None:
    """All bids are in: show them, discard them, and find the winner or the tied players (L319-321)."""
    s = ctx.state
    deck = load_deck().cards
    bids = {q: int(s.people[q].bid or 0) for q in s.queue}
    values = {q: deck[c].value for q, c in bids.items()}
    top = max(values.values())
    tied = tuple(q for q in s.queue if values[q] == top)
    people = list(s.people)
    for q in bids:
        people[q] = replace(people[q], bid=None, bids=(*people[q].bids, values[q]))
    ctx.state = replace(s, people=tuple(people), discard=s.discard + tuple(bids.values()))
    ctx.emit("bids_revealed", bids={str(q): c for q, c in bids.items()},
             values={str(q): v for q, v in values.items()})
    if len(tied) > 1:
        ctx.state = replace(ctx.state, queue=tied)
        ctx.emit("bid_tied", seats=list(tied), value=top)
        return
    winner = tied[0]
    ctx.state = replace(ctx.state, queue=(), first=winner)
    ctx.emit("first_player", seat=winner)


def colour_order(state: SevenState) -> tuple[int, ...]:
    """The winner, then by the highest card played (a later round decides between cards equal in the
    earlier), ties broken by the nearest to the left of the winner (L325, E1)."""
    n, first = state.players, state.first
    others = [q for q in range(n) if q != first]
    others.sort(key=lambda q: (tuple(-v for v in state.people[q].bids), (q - first) % n))
    return (first, *others)


@dataclass(frozen=True)
class ColoursStep:
    name: str = COLOURS

    @property
    def handlers(self) -> Handlers[Ctx]:
        return {ChooseColours: self.choose}

    def enter(self, ctx: Ctx) -> None:
        ctx.state = replace(ctx.state, queue=colour_order(ctx.state))

    def actors(self, state: SevenState) -> frozenset[PlayerId]:
        return frozenset(state.queue[:1])

    def legal(self, state: SevenState, seat: PlayerId) -> list[Action]:
        if seat not in self.actors(state):
            return []
        return [ChooseColours(seat, g) for g in free_groups(state)]

    def choose(self, ctx: Ctx, action: ChooseColours) -> None:
        s = ctx.state
        if action.group not in free_groups(s):
            raise IllegalAction("colours_taken", "Those colours are not free; choose another group.")
        ctx.state = replace(s, queue=s.queue[1:]).with_player(replace(s.people[action.player],
                                                                      group=action.group))
        ctx.emit("colours_chosen", seat=action.player, group=action.group)

    def done(self, state: SevenState) -> bool:
        return not state.queue

    def timeout(self, state: SevenState, seat: PlayerId) -> Action:
        return ChooseColours(seat, free_groups(state)[0])


def free_groups(state: SevenState) -> list[str]:
    taken = {p.group for p in state.people}
    return [g for g in load_counters().groups if g not in taken]


# -- option 2 (not the full deck) -----------------------------------------------------------------

def may_sift(state: SevenState) -> bool:
    """Whether another round of sifting can be played (L1166): every sub-deck still holds a card to pass
    on after the discard, and the cards left after it still deal every hand. Otherwise sifting ends."""
    hand = ENHANCED_HAND if state.options.get("enhanced_start") else HAND
    sub_decks = [len(p.hand) for p in state.people]
    left = sum(sub_decks) + len(state.deck) - state.players
    return min(sub_decks) >= 2 and left >= hand * state.players


def end_sifting(ctx: Ctx) -> None:
    """The sub-decks and the cards put aside are shuffled into one deck and the hands dealt (L1168);
    the discarded cards stay out of the game, hidden until its end."""
    s = ctx.state
    rest = [c for p in s.people for c in p.hand] + list(s.deck)
    ctx.state = replace(s, deck=(), people=tuple(replace(p, hand=(), happy=None) for p in s.people))
    ctx.emit("deck_sifted", removed=len(s.removed))
    deal(ctx, rest)


@dataclass(frozen=True)
class SiftStep:
    """Option 2 (L1162-1170), a round: every player at once discards a card of their sub-deck face down;
    then the sub-decks pass to the left and the players vote (:class:`SiftVoteStep`), unless no other
    round can be played (:func:`may_sift`)."""

    name: str = SIFT

    @property
    def handlers(self) -> Handlers[Ctx]:
        return {DiscardCard: self.discard}

    def enter(self, ctx: Ctx) -> None:
        ctx.state = replace(ctx.state, queue=tuple(range(ctx.state.players)))

    def actors(self, state: SevenState) -> frozenset[PlayerId]:
        return frozenset(state.queue) if state.phase == SIFT else frozenset()

    def legal(self, state: SevenState, seat: PlayerId) -> list[Action]:
        if seat not in self.actors(state):
            return []
        return [DiscardCard(seat, c) for c in state.people[seat].hand]

    def discard(self, ctx: Ctx, action: DiscardCard) -> None:
        s, seat = ctx.state, action.player
        p = s.people[seat]
        if action.card not in p.hand:
            raise IllegalAction("not_in_hand", "That card is not among the cards passed to you.",
                                card=action.card)
        queue = tuple(q for q in s.queue if q != seat)
        ctx.state = replace(s, removed=(*s.removed, action.card), queue=queue).with_player(
            replace(p, hand=tuple(c for c in p.hand if c != action.card)))
        ctx.emit("card_removed", seat=seat)
        if ctx.state.queue:
            return
        s = ctx.state
        n = s.players
        passed = tuple(replace(p, hand=s.people[(p.seat - 1) % n].hand) for p in s.people)
        ctx.state = replace(s, people=passed)
        ctx.emit("cards_passed_left", rounds=len(s.removed) // n)
        if may_sift(ctx.state):
            steps.enter(ctx, SIFT_VOTE)
        else:
            end_sifting(ctx)

    def done(self, state: SevenState) -> bool:
        return state.phase != SIFT or not state.queue

    def timeout(self, state: SevenState, seat: PlayerId) -> Action:
        deck = load_deck().cards
        return DiscardCard(seat, min(state.people[seat].hand, key=lambda c: (deck[c].value, c)))


@dataclass(frozen=True)
class SiftVoteStep:
    """Option 2 (L1166): "Repeat until the majority of players are happy to play with the remaining
    cards." Every player votes at once, face down; strictly more than half happy ends the sifting (a
    tie is no majority: another round)."""

    name: str = SIFT_VOTE

    @property
    def handlers(self) -> Handlers[Ctx]:
        return {SiftVote: self.vote}

    def enter(self, ctx: Ctx) -> None:
        ctx.state = replace(ctx.state, queue=tuple(range(ctx.state.players)))

    def actors(self, state: SevenState) -> frozenset[PlayerId]:
        return frozenset(q for q in state.queue if state.people[q].happy is None)

    def legal(self, state: SevenState, seat: PlayerId) -> list[Action]:
        if seat not in self.actors(state):
            return []
        return [SiftVote(seat, HAPPY), SiftVote(seat, AGAIN)]

    def vote(self, ctx: Ctx, action: SiftVote) -> None:
        s, seat = ctx.state, action.player
        if action.vote not in (HAPPY, AGAIN):
            raise IllegalAction("bad_vote", "Vote happy with these cards, or for another round.")
        ctx.state = s.with_player(replace(s.people[seat], happy=action.happy))
        ctx.emit("sift_voted", seat=seat)
        if self.actors(ctx.state):
            return
        s = ctx.state
        happy = [p.seat for p in s.people if p.happy]
        ctx.state = replace(s, queue=(), people=tuple(replace(p, happy=None) for p in s.people))
        ends = 2 * len(happy) > s.players
        ctx.emit("sift_votes", happy=happy, players=s.players, ends=ends)
        if ends:
            end_sifting(ctx)
        else:
            steps.enter(ctx, SIFT)

    def done(self, state: SevenState) -> bool:
        return state.phase != SIFT_VOTE or not state.queue

    def timeout(self, state: SevenState, seat: PlayerId) -> Action:
        return SiftVote(seat, HAPPY)


# -- option 3 (redemption) and option 4 (discard down to 6) ----------------------------------------

@dataclass(frozen=True)
class HandStep:
    """Each player in turn discards cards one at a time, then (``refill``) draws back up to a number."""

    name: str
    refill: bool

    @property
    def handlers(self) -> Handlers[Ctx]:
        # Done is taken without a refill too: the refusal says what is missing (discard down to 6)
        return {DiscardCard: self.discard, Done: self.done_discarding}

    def enter(self, ctx: Ctx) -> None:
        s = ctx.state
        if self.name == REDEEM:
            # from the dealer (the first seat) clockwise (L1174)
            order = tuple(range(s.players)) if s.options.get("redemption") else ()
        else:
            order = s.seats_from_first() if s.options.get("enhanced_start") else ()
        ctx.state = replace(s, queue=order)
        self._skip_done(ctx)

    def _limit(self, state: SevenState) -> int:
        if self.refill:
            return ENHANCED_REFILL if state.options.get("enhanced_start") else REFILL
        return KEEP

    def actors(self, state: SevenState) -> frozenset[PlayerId]:
        return frozenset(state.queue[:1])

    def legal(self, state: SevenState, seat: PlayerId) -> list[Action]:
        if seat not in self.actors(state):
            return []
        discards: list[Action] = [DiscardCard(seat, c) for c in state.people[seat].hand]
        return [*discards, Done(seat)] if self.refill else discards

    def discard(self, ctx: Ctx, action: DiscardCard) -> None:
        seat = action.player
        if action.card not in ctx.state.people[seat].hand:
            raise IllegalAction("not_in_hand", "You do not hold that card.", card=action.card)
        discard_from_hand(ctx, seat, (action.card,))
        ctx.emit("card_discarded", seat=seat)
        if not self.refill and len(ctx.state.people[seat].hand) <= KEEP:
            self._next(ctx)

    def done_discarding(self, ctx: Ctx, action: Done) -> None:
        if not self.refill:
            raise IllegalAction("too_many_cards", f"Discard down to {KEEP} cards first.")
        self._next(ctx)

    def _next(self, ctx: Ctx) -> None:
        s = ctx.state
        seat = s.queue[0]
        if self.refill:
            draw(ctx, seat, max(0, self._limit(s) - len(s.people[seat].hand)))
        ctx.state = replace(ctx.state, queue=ctx.state.queue[1:])
        self._skip_done(ctx)

    def _skip_done(self, ctx: Ctx) -> None:
        if self.refill:
            return
        s = ctx.state
        ctx.state = replace(s, queue=tuple(q for q in s.queue if len(s.people[q].hand) > KEEP))

    def done(self, state: SevenState) -> bool:
        return not state.queue

    def timeout(self, state: SevenState, seat: PlayerId) -> Action:
        if self.refill:
            return Done(seat)
        deck = load_deck().cards
        return DiscardCard(seat, min(state.people[seat].hand, key=lambda c: (deck[c].value, c)))


steps.register(SiftStep())
steps.register(SiftVoteStep())
steps.register(BidStep())
steps.register(ColoursStep())
steps.register(HandStep(REDEEM, refill=True))
steps.register(HandStep(TRIM, refill=False))
