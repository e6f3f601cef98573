"""7 Ages action 5, Destiny (L847-853), and option 7 Technology (L1214-1218): pure rules.

Destiny takes every player at once (L373 allows it: no player's destiny affects
another's): each discards what they choose, then draws to fill their hand.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from engine.core import Action, Event, IllegalAction, Names
from engine.seven_ages import steps
from engine.seven_ages.actions import DiscardCard, Done
from engine.seven_ages.cards import load_deck
from engine.seven_ages.decision import register_heading
from engine.seven_ages.markers import BaseGoRules, GoHandler, MarkerStep, end_go
from engine.seven_ages.setup import discard_from_hand, draw, refill
from engine.seven_ages.state import Go, SevenState
from engine.seven_ages.steps import Ctx
from engine.seven_ages.text import register_event
from engine.seven_ages.text import seat as seat_name
from engine.seven_ages.trade import leader_areas
from engine.words import plural

HAND = 6  # L851
TECH_MOST, TECH_LEAST = 7, 5  # option 7 (L1216-1218)


def draws(kept: int, philosophers: int = 0, target: int = HAND) -> int:
    """Cards drawn after discarding down to ``kept``: enough to fill the hand to ``target``, one
    more for each Philosopher (L851-853)."""
    return max(target - kept, 0) + philosophers


def excess(hand: int, philosophers: int, target: int = HAND) -> int:
    """Cards to discard after a Philosopher's extra draws (L853: "bring your hand down to 6");
    without a Philosopher nothing more is discarded."""
    return max(hand - target, 0) if philosophers else 0


def technology_targets(takers: Sequence[tuple[int, int | None]], first: int, players: int) -> list[int]:
    """Option 7: each destiny action's hand size, in the order of ``takers``.

    A taker is (player, the empire's progress level, or None for the marker on no empire).
    One player alone fills to 7 every time. Otherwise the most advanced empire fills to 7
    (ties: the first player, then the nearest to their left); the marker on no empire, or
    if none the least advanced empire, to 5 (ties: the player furthest from the first
    player's left); the others to 6 (L1216-1218).
    """
    if not takers:
        return []
    if len({p for p, _ in takers}) == 1:
        return [TECH_MOST] * len(takers)
    seat = [(p - first) % players for p, _ in takers]
    targets = [HAND] * len(takers)
    empires = [i for i, (_, lvl) in enumerate(takers) if lvl is not None]
    if empires:
        most = min(empires, key=lambda i: (-(takers[i][1] or 0), seat[i]))
        targets[most] = TECH_MOST
    spare = [i for i, (_, lvl) in enumerate(takers) if lvl is None]
    pool = spare or [i for i in empires if targets[i] != TECH_MOST]
    if pool:
        least = min(pool, key=lambda i: (takers[i][1] or 0, -seat[i]))
        targets[least] = TECH_LEAST
    return targets


# -- the step ---------------------------------------------------------------------------------------

DISCARD, TRIM = "discard", "trim"
TECHNOLOGY = "technology"  # option 7's key in the lobby options


def _takers(state: SevenState) -> list[int]:
    """The markers taking Destiny this turn: its own markers, and wild cards turned over as one."""
    return [i for i, m in enumerate(state.markers) if m.action == "destiny" or m.turned == "destiny"]


def hand_target(state: SevenState, go: Go) -> int:
    """The hand a destiny fills: 6, or option 7's 7/6/5 (L1216-1218)."""
    if not state.options.get(TECHNOLOGY):
        return HAND
    takers = _takers(state)
    if go.marker not in takers:
        takers.append(go.marker)

    def level(i: int) -> int | None:
        card = state.markers[i].empire
        return state.empire(card).progress if card and state.has_empire(card) else None
    who = [(state.markers[i].owner, level(i)) for i in takers]
    targets = technology_targets(who, state.first, state.players)
    return targets[takers.index(go.marker)]


class DestinyRules(BaseGoRules):
    """Destiny (L847-853), every player at once (L373): discard any cards, draw to fill the hand
    (and one more a Philosopher), then discard down to the hand's size."""

    action = "destiny"
    parallel = True
    extra_ok = True  # L349
    own_events = True
    events_when = "Destiny events are played while you discard, before you draw."

    @property
    def handlers(self) -> Mapping[type[Action], GoHandler]:
        return {Done: self._draw, DiscardCard: self._discard}

    def opening(self, state: SevenState, go: Go) -> bool:
        return go.stage == DISCARD

    def begin(self, ctx: Ctx, go: Go) -> None:
        # a marker on an empire discarded since still draws, without that empire's Philosophers (L349)
        e = ctx.state.empire(go.empire) if go.empire and ctx.state.has_empire(go.empire) else None
        philosophers = leader_areas(e, "Philosopher") if e else 0
        ctx.state = ctx.state.with_go(replace(go, stage=DISCARD, data={
            "target": hand_target(ctx.state, go), "philosophers": philosophers}))

    def legal(self, state: SevenState, go: Go) -> list[Action]:
        hand = state.people[go.seat].hand
        moves: list[Action] = [DiscardCard(go.seat, c) for c in hand]
        return [*moves, Done(go.seat)] if go.stage == DISCARD else moves

    def passive(self, state: SevenState, go: Go) -> Action:
        if go.stage == DISCARD:
            return Done(go.seat)
        cards = load_deck().cards
        return DiscardCard(go.seat, min(state.people[go.seat].hand, key=lambda c: (cards[c].value, c)))

    def _draw(self, ctx: Ctx, go: Go, action: Done) -> None:
        seat, target = go.seat, int(go.data["target"])
        if go.stage != DISCARD:
            raise IllegalAction("must_discard", f"Discard down to {target} cards first.")
        n = draws(len(ctx.state.people[seat].hand), int(go.data["philosophers"]), target)
        refill(ctx, n)
        draw(ctx, seat, n)
        ctx.emit("destiny", seat=seat, empire=go.empire, drew=n)
        if excess(len(ctx.state.people[seat].hand), int(go.data["philosophers"]), target):
            ctx.state = ctx.state.with_go(replace(go, stage=TRIM))
        else:
            end_go(ctx, seat)

    def _discard(self, ctx: Ctx, go: Go, action: DiscardCard) -> None:
        seat, target = go.seat, int(go.data["target"])
        if action.card not in ctx.state.people[seat].hand:
            raise IllegalAction("not_in_hand", "That card is not in your hand.")
        discard_from_hand(ctx, seat, (action.card,))
        ctx.emit("card_discarded", seat=seat)
        if go.stage == TRIM and len(ctx.state.people[seat].hand) <= target:
            end_go(ctx, seat)


steps.register(MarkerStep(DestinyRules()))


def _destiny_words(event: Event, names: Names) -> str | None:
    d = event.data
    return f"{seat_name(names, int(d['seat']))} takes a Destiny and draws {plural(int(d['drew']), 'card')}."


register_event("destiny", _destiny_words)
register_heading(DISCARD, "discard any cards, then finish to draw")
register_heading(TRIM, "discard down to your hand's size")
