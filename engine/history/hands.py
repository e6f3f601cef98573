"""Hands of event cards the other players cannot tell apart: what both History games' private variants
(:meth:`engine.core.Game.private_variants`) are made of.

Others see how many event cards a player holds, never which; and they know each card's public kind
(its deck in the classic game, its epoch in the 5-epoch game). So any hand of the same size whose
cards have the same kinds, taken from cards nobody can see, looks the same to them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence


def unseen_cards(every_card: Iterable[str], *seen: Iterable[str]) -> Counter[str]:
    """The cards of ``every_card`` (a multiset) that are in none of the ``seen`` places."""
    left = Counter(list(every_card))  # a list: Counter would read a mapping as counts
    for place in seen:
        left.subtract(list(place))
    return +left  # drop what went to zero or below (a card seen twice is simply gone)


def other_hands(hand: Sequence[str], unseen: Counter[str], kind: Callable[[str], object]) -> list[list[str]]:
    """Up to two hands, each as unlike ``hand`` as the ``unseen`` cards allow, with its size and kinds.

    Each card is replaced by an unseen card of the same kind that ``hand`` does not hold, taking the
    first such card in name order for one variant and the last for the other (so together they
    differ from the hand in every card they can); a card with no such stand-in stays. Hands equal
    to ``hand``, or to each other, are left out. Both come out sorted, as the games keep hands.
    """
    held = set(hand)
    out: list[list[str]] = []
    for backwards in (False, True):
        left = Counter(unseen)
        variant: list[str] = []
        for card in hand:
            same_kind = (c for c, n in left.items() if n > 0 and c not in held and kind(c) == kind(card))
            stand_ins = sorted(same_kind, reverse=backwards)
            pick = stand_ins[0] if stand_ins else card
            if stand_ins:
                left[pick] -= 1
            variant.append(pick)
        variant.sort()
        if variant != sorted(hand) and variant not in out:
            out.append(variant)
    return out
