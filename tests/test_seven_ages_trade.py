"""7 Ages Trade and progress (L551-596) and Range (L2223-2231), on the rulebook's examples."""

from __future__ import annotations

from engine.seven_ages import trade
from engine.seven_ages.cards import load_deck
from engine.seven_ages.trade import Side

SYRACUSE = load_deck().by_empire("Syracusans").empire
ROME = load_deck().by_empire("Romans").empire


def syracuse_vs_rome(card: int) -> trade.Outcome:
    # L586: "Your Syracusans (card 56), whose trade number is +2, choose to trade with the Romans,
    # whose number is +1. The Romans are on a higher progress level." Caesar plays a 5.
    mine = Side(card, trade.trade_value(card, SYRACUSE.trade, 0, 0), level=10, chose=True)
    theirs = Side(5, trade.trade_value(5, ROME.trade, 0, 0), level=12, chose=False)
    return trade.settle(mine, theirs, deck=False)


def test_syracusan_trade_lost_e15() -> None:
    # L588-590: "You play a 3-value card. With its trade number, Syracuse's total is 5. Caesar plays
    # a 5 for Rome, so Rome's total is 6. The Romans win the trade, and advance their progress
    # marker one space." L594: "you gained a 5 card and 5 money, while Caesar got your lowly 3."
    assert (SYRACUSE.trade, ROME.trade) == (2, 1)
    out = syracuse_vs_rome(3)
    assert out.winner == 1
    assert out.levels == (0, 1) and out.extra == (0, 0)
    assert out.income == (5, 0)


def test_syracusan_trade_won_with_a_five_e15() -> None:
    # L590: "If only you had played your 5 card, you would have won and could have gone up 3 (1 for
    # winning, +1 because Syracuse chose a trade and progress action and +1 more because Rome had
    # the higher progress level before trading)."
    out = syracuse_vs_rome(5)
    assert out.winner == 0
    assert out.levels[0] + out.extra[0] == 3
    assert out.levels[1] == 0
    assert out.income == (0, 5)  # Rome does not progress: it earns Syracuse's card value (L583)


def test_syracusan_trade_tied_with_a_four_e15() -> None:
    # L590: "If you had played a 4 card, your totals would have been equal and you would have
    # progressed 1 space."
    out = syracuse_vs_rome(4)
    assert out.winner is None
    assert out.levels == (1, 0) and out.extra == (0, 0)
    assert out.income == (0, 4)


def test_tie_when_both_chose_trade() -> None:
    # L579: "If both empires chose trade & progress, the empire lower in progress advances 1 level
    # (only). If they are equal in progress, neither advance."
    lower, higher = Side(3, 5, level=8, chose=True), Side(4, 5, level=9, chose=True)
    assert trade.settle(lower, higher, deck=False).levels == (1, 0)
    same = Side(4, 5, level=8, chose=True)
    out = trade.settle(lower, same, deck=False)
    assert out.levels == (0, 0) and out.income == (4, 3)


def test_against_the_deck() -> None:
    # L567: "you play against the top card drawn from the deck without modifying it." The deck
    # neither progresses nor earns.
    me = Side(2, trade.trade_value(2, 2, 1, 0), level=20, chose=True)  # 2 + 2 + a Scientist = 5
    won = trade.settle(me, Side(4, 4), deck=True)
    assert won.winner == 0 and won.levels == (1, 0) and won.extra == (1, 0)  # no "higher partner" level
    lost = trade.settle(me, Side(7, 7), deck=True)
    assert lost.winner == 1 and lost.levels == (0, 0) and lost.income == (7, 0)


def test_trade_value_counts_scientists_and_disorder() -> None:
    # L565: "Add 1 for each Scientist, and subtract 1 for each disordered area, in your empire."
    assert trade.trade_value(4, 1, scientists=2, disordered=3) == 4


def test_partner_not_yet_traded_preferred() -> None:
    # L557: "If possible, you must choose an empire that hasn't traded yet this turn. If there are
    # no empires controlled by another player in range, you trade with the deck."
    reach = {"Romans": True, "Carthaginians": True, "Persians": False}
    assert trade.partners(reach, traded={"Romans"}) == ["Carthaginians"]
    assert trade.partners(reach, traded={"Romans", "Carthaginians"}) == ["Romans", "Carthaginians"]
    assert trade.partners({"Persians": False}, traded=()) == []


def test_range_adjacent_is_one_area_e50() -> None:
    # L2227: "if one of your areas is adjacent to one of another empire, then there is 1 area
    # between them, and you are within range of them from age 1."
    assert trade.distance(["Egypt"], ["Cyrenaica"], [], level=1) == 1
    assert trade.in_range(["Egypt"], ["Cyrenaica"], [], level=1)
    # two areas away (Egypt - Cyrenaica - Tripolitania) needs age 2
    assert trade.distance(["Egypt"], ["Tripolitania"], [], level=1) == 2
    assert not trade.in_range(["Egypt"], ["Tripolitania"], [], level=7)
    assert trade.in_range(["Egypt"], ["Tripolitania"], [], level=8)


def test_range_not_through_another_empire() -> None:
    # L2231: "Your empire can't count range through (it may count into) another empire's area"
    assert trade.distance(["Egypt"], ["Tripolitania"], ["Cyrenaica"], level=8) != 2
    assert trade.in_range(["Egypt"], ["Cyrenaica"], ["Cyrenaica"], level=1)


def test_range_into_oceans_needs_ships_of_the_line() -> None:
    # L2229: "Your empire may only count range into or through ocean areas if it may build
    # ships-of-the-line"; Galapagos (A1) is adjacent to the South Pacific (Z0) (L606)
    assert trade.distance(["Galapagos"], ["South Pacific"], [], level=22) is None
    assert trade.distance(["Galapagos"], ["South Pacific"], [], level=23) == 1


def test_explorer_doubles_range() -> None:
    # L2021: "The Range of an empire is doubled when counting from an area containing an explorer."
    assert not trade.in_range(["Egypt"], ["Tripolitania"], [], level=1)
    assert trade.in_range(["Egypt"], ["Tripolitania"], [], level=1, explorer_areas=["Egypt"])
