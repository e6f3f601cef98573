"""7 Ages Trade and progress (L551-596) and Range (L2223-2231), on the rulebook's examples."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.core import IllegalAction
from engine.seven_ages import prefs, trade
from engine.seven_ages.actions import Prefer, TurnMarker
from engine.seven_ages.card_words import card_text
from engine.seven_ages.cards import load_deck
from engine.seven_ages.civilisation_moves import Gift, TradeCard, TradeKeep, TradeLevels
from engine.seven_ages.trade import Side
from tests.seven_ages_builder_civ import Table, card_of, cards_of_value

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


# -- the trade step, played through the step machine -----------------------------------------------

def syracuse_table(*, rome_marker: bool = False, gifts: tuple[int, ...] = (0, 1)) -> tuple[Table, list[int]]:
    """E15's trade, under way; the ``gifts`` seats have asked to be asked for a gift after a trade."""
    three, five, four, caesar, spare = cards_of_value(3, 5, 4, 5, 0)
    t = Table(2).empire("Syracusans", 0, 10, ["Sicily"], money=0).empire("Romans", 1, 12, ["Latium"], money=0)
    for seat in gifts:
        t.state = prefs.set_preference(t.state, Prefer(seat, "gift", "ask"))
    t.hand(0, three, five, four).hand(1, caesar, spare).marker(0, "trade", "Syracusans")
    if rome_marker:
        t.marker(1, "trade", "Romans")
    t.enter("trade").do(TurnMarker(0, 0))
    return t, [three, five, four, caesar, spare]


def test_the_trade_in_the_flow_lost_e15() -> None:
    # L586-594: Syracuse plays a 3 (total 5), Caesar a 5 (total 6): "The Romans win the trade, and
    # advance their progress marker one space ... you gained a 5 card and 5 money, while Caesar got your
    # lowly 3. Luckily, the Roman player decides to give you another 4 money"
    t, (three, _, _, caesar, _) = syracuse_table()
    assert t.actors() == {0, 1}  # both play at once
    t.do(TradeCard(1, caesar))
    assert t.actors() == {0}
    t.do(TradeCard(0, three))
    assert t.named("trade_revealed")[0].data["values"] == [5, 6]
    assert t.of("Romans").progress == 13 and t.of("Syracusans").progress == 10
    assert t.of("Syracusans").money == 5 and t.of("Romans").money == 0
    assert caesar in t.state.people[0].hand and three in t.state.people[1].hand
    assert three not in t.state.people[0].hand
    assert t.actors() == {0, 1}  # the gifts
    t.do(Gift(0, 0))
    t.refused(Gift(1, 6), "too_much")
    t.do(Gift(1, 0))


def test_the_romans_gift_e15() -> None:
    t, (three, _, _, caesar, _) = syracuse_table()
    t.state = t.state.with_empire(replace(t.of("Romans"), money=10))
    t.do(TradeCard(1, caesar), TradeCard(0, three), Gift(0, 0), Gift(1, 4))
    assert t.of("Syracusans").money == 5 + 4
    assert t.of("Romans").money == 6


def test_the_trade_won_with_a_five_e15() -> None:
    # L590: "you would have won and could have gone up 3"
    t, (_, five, _, caesar, _) = syracuse_table()
    t.do(TradeCard(1, caesar), TradeCard(0, five))
    assert t.actors() == {0}
    assert t.legal(0) == [TradeLevels(0, n) for n in (3, 2, 1)]  # the extra levels are the winner's choice
    t.do(TradeLevels(0, 3))
    assert t.of("Syracusans").progress == 13
    assert t.of("Romans").money == 5 and t.of("Romans").progress == 12


def test_the_trade_tied_with_a_four_e15() -> None:
    # L590: "If you had played a 4 card, your totals would have been equal and you would have progressed
    # 1 space."
    t, (_, _, four, caesar, _) = syracuse_table()
    t.do(TradeCard(1, caesar), TradeCard(0, four))
    assert t.named("trade_revealed")[0].data["winner"] is None
    assert t.of("Syracusans").progress == 11 and t.of("Romans").progress == 12
    assert t.of("Romans").money == 4 and t.of("Syracusans").money == 0


def test_a_partner_with_a_trade_marker_turns_it_over() -> None:
    # L561: "If your empire trades with an empire that also chose a trade and progress action this turn,
    # they must immediately turn over their action marker, and the trade will complete both empires'
    # trade and progress actions."
    t, (three, _, _, caesar, _) = syracuse_table(rome_marker=True)
    assert t.state.markers[1].turned == "trade"
    t.do(TradeCard(1, caesar), TradeCard(0, three))
    # the Romans chose trade and progress too: their win may take a second level
    assert t.actors() == {1} and t.legal(1) == [TradeLevels(1, n) for n in (2, 1)]
    t.do(TradeLevels(1, 2), Gift(0, 0), Gift(1, 0))
    assert progress_in_trade(t, "Romans") == 2
    assert len(t.named("trade_begins")) == 1  # the one trade completed both actions


def test_a_standing_preference_answers_for_the_partner() -> None:
    # NOTES 4.4: the partner may set a preference ahead ("play my lowest card"); its card is played at once
    t = Table(2).empire("Syracusans", 0, 10, ["Sicily"]).empire("Romans", 1, 12, ["Latium"])
    low, high, mine = cards_of_value(0, 7, 3)
    t.hand(0, mine).hand(1, low, high).marker(0, "trade", "Syracusans")
    t.state = prefs.set_preference(t.state, Prefer(1, "partner", "lowest"))
    t.enter("trade").do(TurnMarker(0, 0))
    assert t.actors() == {0}
    t.do(TradeCard(0, mine))
    assert t.named("trade_revealed")[0].data["cards"] == [mine, low]


def test_trading_with_the_deck() -> None:
    # L559: "If there are no empires controlled by another player in range, you trade with the deck."
    # L585: "you discard the card(s) you played if you traded with the deck"
    mine, top = cards_of_value(6, 1)
    t = Table(2).empire("Syracusans", 0, 10, ["Sicily"]).hand(0, mine).deck_top(top)
    t.marker(0, "trade", "Syracusans").enter("trade").do(TurnMarker(0, 0))
    assert t.actors() == {0}
    t.do(TradeCard(0, mine))
    assert t.named("trade_revealed")[0].data["cards"] == [mine, top]
    assert t.state.people[0].hand == (top,) and mine in t.state.discard
    # won (8 to 1) with trade and progress chosen, no partner above: 1 + 1 levels
    assert t.legal(0) == [TradeLevels(0, n) for n in (2, 1)]
    t.do(TradeLevels(0, 2))
    assert progress_in_trade(t, "Syracusans") == 2


def progress_in_trade(t: Table, name: str) -> int:
    """Levels an empire moved during the trade action (the end of turn follows it at once here)."""
    moved = 0
    for e in t.events:
        if e.type == "action_begins" and e.data["action"] != "trade":
            break
        if e.type == "progress" and e.data["empire"] == card_of(name):
            moved += e.data["levels"]
    return moved


def test_an_empty_hand_plays_the_decks_top_card() -> None:
    # L563: "If you don't have any cards in your hand, use the top card from the deck instead."
    top, deck_card = cards_of_value(2, 0)
    t = Table(2).empire("Syracusans", 0, 10, ["Sicily"]).deck_top(top, deck_card)
    t.marker(0, "trade", "Syracusans").enter("trade").do(TurnMarker(0, 0))
    t.refused(TradeCard(0, 5), "not_in_hand")
    t.do(TradeCard(0, 0))
    assert t.named("trade_revealed")[0].data["cards"] == [top, deck_card]


def test_scientists_draw_and_keep_one() -> None:
    # L577: the winner "draws a card from the deck for each Scientist in the empire (if any), keeps one
    # and discards any others."
    mine, top, a, b = cards_of_value(6, 1, 2, 3)
    t = Table(2).empire("Syracusans", 0, 10, {"Sicily": {"Spear": 1}, "Calabria": {"Spear": 1}},
                        leaders=[("Scientist", "Sicily"), ("Scientist", "Calabria")])
    t.hand(0, mine).deck_top(top, a, b).marker(0, "trade", "Syracusans").enter("trade").do(TurnMarker(0, 0))
    t.do(TradeCard(0, mine), TradeLevels(0, 1))
    assert t.actors() == {0} and set(t.legal(0)) == {TradeKeep(0, a), TradeKeep(0, b)}
    t.do(TradeKeep(0, b))
    assert b in t.state.people[0].hand and a in t.state.discard


def test_the_partner_is_asked_in_words_and_nobody_sees_a_face_down_card() -> None:
    from engine.core import decide
    from engine.seven_ages.game import GAME
    t, (three, _, _, caesar, _) = syracuse_table()
    d = decide(GAME, t.state, 1, ["alice (Red)", "bob (Blue)"])
    assert d is not None and "face down" in d.heading
    assert {c.label for c in d.choices} >= {f"Play {card_text(caesar)} face down"}
    t.do(TradeCard(1, caesar))
    view = GAME.view(t.state, 0)
    assert "aside" not in view
    shown = [v for g in view["goes"] for v in g["data"].values()]
    assert all(caesar not in (v if isinstance(v, list) else [v]) for v in shown)
    t.do(TradeCard(0, three))
    assert t.state.aside == ()


def test_benin_gains_glory_at_once_for_levels_from_a_trade_e35() -> None:
    # L1142: "Cat's Benin empire (card 67) progresses 2 levels during a trade & progress. She immediately
    # gains 2 glory."
    mine, top = cards_of_value(7, 0)
    t = Table(2).empire("Benin", 0, 16, ["Benin"]).hand(0, mine).deck_top(top)
    t.marker(0, "trade", "Benin").enter("trade").do(TurnMarker(0, 0), TradeCard(0, mine), TradeLevels(0, 2))
    gained = [e.data["glory"] for e in t.named("immediate_glory") if e.data["condition"] == "per_level"]
    assert gained[0] == 2


def test_a_trade_in_words() -> None:
    from engine.seven_ages.game import GAME
    t, (three, _, _, caesar, _) = syracuse_table()
    t.state = t.state.with_empire(replace(t.of("Romans"), money=10))
    t.do(TradeCard(1, caesar), TradeCard(0, three), Gift(0, 0), Gift(1, 4))
    names = ["alice (Red)", "bob (Blue)"]
    lines = [GAME.describe_event(e, names) for e in t.events]
    text = "\n".join(x for x in lines if x)
    assert "The Syracusans trade with the Romans." in text
    assert "the Romans win" in text and "The Syracusans earn 5 money from the trade." in text
    assert "The Romans give 4 money to the Syracusans." in text


def test_the_standing_preference_is_an_anytime_move() -> None:
    # NOTES 4.4: a player who is not to act sets "play my lowest card" ahead, through the game itself
    from engine.seven_ages.game import GAME
    from engine.seven_ages.spec import SPEC
    assert Prefer.kind in SPEC.anytime_kinds
    t = Table(2).empire("Syracusans", 0, 10, ["Sicily"]).empire("Romans", 1, 12, ["Latium"])
    low, high, mine = cards_of_value(0, 7, 3)
    t.hand(0, mine).hand(1, low, high).marker(0, "trade", "Syracusans").enter("trade")
    assert 1 not in t.actors()
    result = GAME.apply(t.state, Prefer(1, "partner", "lowest"))
    assert [e.type for e in result.events] == ["preference_set"] and result.events[0].audience == (1,)
    t.state = result.state
    t.do(TurnMarker(0, 0))
    assert t.actors() == {0}
    with pytest.raises(IllegalAction):
        GAME.apply(t.state, Prefer(1, "partner", "sometimes"))
    with pytest.raises(IllegalAction):
        GAME.apply(t.state, Prefer(1, "weather", "fine"))


def _trade_over(t: Table) -> bool:
    """No trade go is left (the end of the turn, its harvest window, may follow at once)."""
    go = t.state.go_of(0)
    return go is None or go.action != "trade"


def test_no_gift_is_asked_unless_a_player_asks_to_be_asked() -> None:
    """L585: "Either player may give the other money" after a trade. Nobody is asked by default (gift
    none), a player who set gift=ask is asked, and only they are."""
    t, (three, _, _, caesar, _) = syracuse_table(gifts=())
    t.do(TradeCard(1, caesar), TradeCard(0, three))
    assert _trade_over(t) and not [p for p in t.state.pending if p.kind == "gift"]  # no gift asked
    t, (three, _, _, caesar, _) = syracuse_table(gifts=(1,))
    t.do(TradeCard(1, caesar), TradeCard(0, three))
    assert t.actors() == {1} and [p.seat for p in t.state.pending] == [1]
    t.do(Gift(1, 0))
    assert _trade_over(t)
