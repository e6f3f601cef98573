"""How the greedy 7 Ages player picks its trade partner: the players' notes (L2337-2343).

"When trading you want to pick someone with a lower trade number than you but who is higher on the
progress track ... Usually, you want to choose the latter [the lower trade number] on the assumption that a
more certain 2 progress is better than a dicey 3" (L2337-2339); "Another possibility is to pick the player
within range with only 1 or 2 cards" (L2343).

Everything read is public: each side's trade number, Scientists and disordered areas (what the trade
value adds to the card, L565), progress levels and the number of cards in a hand; never the other
player's cards or face-down markers. A partner whose route needs another empire's permission (L2233) comes
after every partner in direct range and after the deck (the answer may be no, or a price).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.core import Action, PlayerId
from engine.seven_ages.civilisation_moves import FROM_DECK, TradeWith
from engine.seven_ages.state import Empire, SevenState
from engine.seven_ages.trade import PARTNER, SCI, leader_areas, trade_number

FEW_CARDS = 2
"""A partner holding this many cards or fewer has little choice of card (L2343)."""


def public_bonus(state: SevenState, e: Empire) -> int:
    """What ``e`` adds to its card in a trade, as every player sees it: trade number, +1 a Scientist,
    -1 a disordered area (L565)."""
    disordered = sum(1 for a in e.areas() if state.area(a).disorder)
    return trade_number(e.card, e.progress) + leader_areas(e, SCI) - disordered


def partner_key(state: SevenState, me: Empire, partner: int, needs_leave: bool) -> tuple[int, ...]:
    """How good ``partner`` is, higher better: in direct range; a lower trade bonus than ``me`` (the likelier
    win, L2339); higher on the track (a third level, L575); the lowest bonus; the fewest cards (L2343)."""
    if partner == FROM_DECK:  # the deck adds no trade number (L567): a near-certain win, but no third level
        return (1, 0, 0, 0, 0, 0)
    o = state.empire(partner)
    mine, theirs = public_bonus(state, me), public_bonus(state, o)
    cards = len(state.people[o.owner].hand)
    return (0 if needs_leave else 2, int(theirs < mine), int(o.progress > me.progress), -theirs,
            int(cards <= FEW_CARDS), -o.card)


def choose(state: SevenState, player: PlayerId, offers: Sequence[TradeWith]) -> Action | None:
    """The partner the greedy player picks in its trade go; None outside that stage."""
    go = state.go_of(player)
    if go is None or go.action != "trade" or go.stage != PARTNER or not offers:
        return None
    me = state.empire(go.empire)
    via = {int(p) for p, k in go.data.get("via", []) if k}
    return max(offers, key=lambda a: partner_key(state, me, a.empire, a.empire in via))
