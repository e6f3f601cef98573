"""7 Ages Destiny (L847-853) and option 7 Technology (L1214-1218)."""

from __future__ import annotations

from engine.seven_ages import destiny


def test_fill_to_six() -> None:
    # L851: "discard cards in your hand that you don't wish to keep, then draw cards from the deck
    # to fill your hand to 6 cards."
    assert destiny.draws(kept=2) == 4
    assert destiny.draws(kept=6) == 0
    assert destiny.draws(kept=8) == 0
    assert destiny.excess(hand=8, philosophers=0) == 0


def test_philosophers_draw_more_then_discard_down() -> None:
    # L853: "You may increase the draw by 1 for each Philosopher ... but after looking at your cards
    # you must then discard cards (your choice) to bring your hand down to 6."
    assert destiny.draws(kept=3, philosophers=2) == 5
    assert destiny.excess(hand=8, philosophers=2) == 2


def test_technology_one_player_fills_to_seven() -> None:
    # L1216: "If there is only one player, that player fills their hand to 7 cards per destiny action."
    assert destiny.technology_targets([(1, 12), (1, None)], first=0, players=3) == [7, 7]


def test_technology_most_least_and_spare_marker() -> None:
    # L1218: "the most advanced empire taking a destiny action ... fill their hand to 7 cards, while
    # the destiny action on no empire or, if none, the least advanced empire taking a destiny action
    # ... only fill their hand to 5 cards. All other destiny actions allow their owners to fill
    # their hand to 6 cards."
    assert destiny.technology_targets([(0, 20), (1, 12), (2, 15)], first=0, players=3) == [7, 5, 6]
    assert destiny.technology_targets([(0, 20), (1, 12), (2, None)], first=0, players=3) == [7, 6, 5]


def test_technology_ties() -> None:
    # L1218: most advanced tied: "the First player or the player nearest to their left"; least
    # advanced tied: "the player furthest from the left of the first player"
    assert destiny.technology_targets([(0, 12), (1, 12), (2, 12)], first=1, players=3) == [5, 7, 6]
