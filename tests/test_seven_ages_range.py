"""7 Ages: Range through another empire's areas with its permission (L2233), as trade partners see it.

The map: Egypt touches Cyrenaica, which touches Tripolitania; from Egypt, Tripolitania is two areas away
(age 2 reaches it, L2227) and every route passes Cyrenaica (L2231: "can't count range *through* (it may
count into) another empire's area unless ... that empire gives its permission").
"""

from __future__ import annotations

from dataclasses import replace

from engine.seven_ages import trade
from engine.seven_ages.actions import TurnMarker
from engine.seven_ages.actions_civ import FROM_DECK, TradeCard, TradeWith
from engine.seven_ages.actions_move import REFUSE, CanalAnswer, PayToll
from engine.seven_ages.decision import choice
from engine.seven_ages.game import GAME
from tests.seven_ages_builder_civ import Table, card_of, cards_of_value

TRADER, KEEPER, PARTNER = "Egyptians", "Carthaginians", "Etruscans"


def table(*prefs: str, money: int = 20, keeper_traded: bool = False) -> Table:
    """Egypt (seat 0, age 2) about to trade; Cyrenaica held by seat 2, Tripolitania by seat 1; ``prefs``:
    seat 2's standing preferences."""
    t = Table(3).empire(TRADER, 0, 8, ["Egypt"], money=money).empire(PARTNER, 1, 8, ["Tripolitania"])
    t.empire(KEEPER, 2, 8, ["Cyrenaica"], money=0)
    mine, theirs = cards_of_value(3, 4)
    t.hand(0, mine).hand(1, theirs).prefs(2, *prefs).marker(0, "trade", TRADER)
    if keeper_traded:
        t.state = replace(t.state, notes=(*t.state.notes, f"traded:{card_of(KEEPER)}"))
    return t.enter("trade").do(TurnMarker(0, 0))


def began_with(t: Table) -> list[int]:
    return [int(e.data["partner"]) for e in t.named("trade_begins")]


def test_the_route_needs_the_keepers_permission() -> None:
    # L2231: without permission the Etruscans are out of range; Cyrenaica itself is "counted into"
    t = Table(3).empire(TRADER, 0, 8, ["Egypt"]).empire(PARTNER, 1, 8, ["Tripolitania"])
    t.empire(KEEPER, 2, 8, ["Cyrenaica"])
    assert not trade.in_range(["Egypt"], ["Tripolitania"], ["Cyrenaica"], 8)
    assert trade.partner_routes(t.state, card_of(TRADER)) == {card_of(PARTNER): card_of(KEEPER),
                                                              card_of(KEEPER): 0}


def test_the_keeper_is_asked_and_says_yes() -> None:
    t = table()
    assert t.legal(0) == [TradeWith(0, card_of(PARTNER)), TradeWith(0, card_of(KEEPER))]
    words = choice(GAME.view(t.state, 0), 0, TradeWith(0, card_of(PARTNER))).label
    assert words == ("Trade with the Etruscans, asking the Carthaginians to let you count range through "
                     "their areas")
    t.do(TradeWith(0, card_of(PARTNER)))
    assert t.actors() == {2}
    assert t.legal(2) == [CanalAnswer(2, REFUSE), CanalAnswer(2, 0), CanalAnswer(2, 5), CanalAnswer(2, 10),
                          CanalAnswer(2, 20)]
    t.refused(CanalAnswer(2, 7), "bad_answer")
    t.do(CanalAnswer(2, 0))
    assert began_with(t) == [card_of(PARTNER)]
    assert t.actors() == {0, 1}  # both trade cards now


def test_a_refusal_leaves_the_partner_out_of_range() -> None:
    t = table()
    t.do(TradeWith(0, card_of(PARTNER)), CanalAnswer(2, REFUSE))
    # the Carthaginians, the one partner left, are taken at once
    assert began_with(t) == [card_of(KEEPER)]
    assert [e.data["answer"] for e in t.named("range_answered")] == [REFUSE]


def test_a_price_paid_moves_money_and_opens_the_trade() -> None:
    t = table(money=20)
    t.do(TradeWith(0, card_of(PARTNER)), CanalAnswer(2, 10))
    assert t.actors() == {0}
    assert t.legal(0) == [PayToll(0, True), PayToll(0, False)]
    t.do(PayToll(0, True))
    assert t.of(TRADER).money == 10 and t.of(KEEPER).money == 10  # L2233: "supply immediately"
    assert began_with(t) == [card_of(PARTNER)]


def test_a_price_refused_or_unaffordable() -> None:
    t = table(money=5)
    t.do(TradeWith(0, card_of(PARTNER)), CanalAnswer(2, 10))
    assert t.legal(0) == [PayToll(0, False)]
    err = t.refused(PayToll(0, True), "too_poor")
    assert err.message == "The Egyptians have 5 money: the price is 10."
    t.do(PayToll(0, False))
    assert began_with(t) == [card_of(KEEPER)] and t.of(TRADER).money == 5


def test_a_standing_yes_answers_ahead_without_a_prompt() -> None:
    t = table("range:yes")
    assert t.legal(0) == [TradeWith(0, card_of(PARTNER)), TradeWith(0, card_of(KEEPER))]
    words = choice(GAME.view(t.state, 0), 0, TradeWith(0, card_of(PARTNER))).label
    assert words == "Trade with the Etruscans"
    t.do(TradeWith(0, card_of(PARTNER)))
    assert began_with(t) == [card_of(PARTNER)] and not t.named("range_asked")
    assert 2 not in t.actors()


def test_a_standing_no_takes_the_partner_off_the_list() -> None:
    t = table("range:no")
    assert began_with(t) == [card_of(KEEPER)]  # the only partner left, taken without a prompt
    assert not t.named("range_asked")


def test_a_standing_price_goes_to_the_trader_without_asking_the_keeper() -> None:
    t = table("range:5")
    t.do(TradeWith(0, card_of(PARTNER)))
    assert t.actors() == {0} and not t.named("range_asked")
    t.do(PayToll(0, True))
    assert t.of(KEEPER).money == 5 and began_with(t) == [card_of(PARTNER)]


def test_the_deck_is_offered_when_every_partner_needs_a_permission() -> None:
    # L557: the partner "must be within Range"; one behind a refused permission is not, so the deck is open
    t = table(keeper_traded=True)  # the Carthaginians traded already: the fresh Etruscans must be picked
    assert t.legal(0) == [TradeWith(0, card_of(PARTNER)), TradeWith(0, FROM_DECK)]
    assert choice(GAME.view(t.state, 0), 0, TradeWith(0, FROM_DECK)).label == "Trade with the deck"
    t.do(TradeWith(0, card_of(PARTNER)), CanalAnswer(2, REFUSE))
    # L557: "If possible, you must choose an empire that hasn't traded yet": no longer possible, so the
    # Carthaginians, who traded, are the one partner left
    assert began_with(t) == [card_of(KEEPER)]


def test_no_route_needs_it_nobody_is_asked() -> None:
    # the Etruscans in Cyrenaica are next door: nothing to count through
    t = Table(3).empire(TRADER, 0, 8, ["Egypt"]).empire(PARTNER, 1, 8, ["Cyrenaica"])
    t.empire(KEEPER, 2, 8, ["Tripolitania"])
    mine, theirs = cards_of_value(3, 4)
    t.hand(0, mine).hand(1, theirs).marker(0, "trade", TRADER).enter("trade").do(TurnMarker(0, 0))
    t.do(TradeWith(0, card_of(PARTNER)))
    assert began_with(t) == [card_of(PARTNER)] and not t.named("range_asked")
    t.do(TradeCard(0, mine))


def test_a_players_own_empire_lets_its_range_through() -> None:
    # reading: an empire of the trader's own player gives its permission
    t = Table(2).empire(TRADER, 0, 8, ["Egypt"]).empire(KEEPER, 0, 8, ["Cyrenaica"])
    t.empire(PARTNER, 1, 8, ["Tripolitania"])
    assert trade.partner_routes(t.state, card_of(TRADER)) == {card_of(PARTNER): 0}


def test_the_permission_in_words() -> None:
    t = table()
    t.do(TradeWith(0, card_of(PARTNER)), CanalAnswer(2, 10), PayToll(0, True))
    names = ["alice (Red)", "bob (Blue)", "cy (Pink)"]
    lines = [GAME.describe_event(e, names) for e in t.events if e.type.startswith("range_")]
    assert lines == [
        "The Egyptians ask the Carthaginians to count range through their areas, to trade with the "
        "Etruscans.",
        None,  # the answer is the price, said next
        "The Carthaginians ask 10 money of the Egyptians to count range through their areas, to trade with "
        "the Etruscans.",
        "The Egyptians pay 10 money to the Carthaginians to count range through their areas."]


def test_a_refusal_in_words() -> None:
    t = table()
    t.do(TradeWith(0, card_of(PARTNER)), CanalAnswer(2, REFUSE))
    line = GAME.describe_event(t.named("range_answered")[0], ["alice (Red)", "bob (Blue)", "cy (Pink)"])
    assert line == "The Carthaginians refuse when the Egyptians ask to count range through their areas."
