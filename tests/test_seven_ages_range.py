"""7 Ages: Range through another empire's areas with its permission (L2233), as trade partners see it.

The map: Egypt touches Cyrenaica, which touches Tripolitania; from Egypt, Tripolitania is two areas away
(age 2 reaches it, L2227) and every route passes Cyrenaica (L2231: "can't count range *through* (it may
count into) another empire's area unless ... that empire gives its permission").
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.core import IllegalAction
from engine.seven_ages import civ_events, take_that, trade
from engine.seven_ages.actions import TurnMarker
from engine.seven_ages.cards import load_deck
from engine.seven_ages.civilisation_moves import FROM_DECK, PlayArtefact, PlayEvent, TradeCard, TradeWith
from engine.seven_ages.conflict_moves import Commit, CommitDone, FightIn, WindowPass, WindowPlay
from engine.seven_ages.decision import choice
from engine.seven_ages.game import GAME
from engine.seven_ages.manoeuvre_moves import (
    REFUSE,
    CanalAnswer,
    EndMovement,
    MoveFrom,
    MoveTo,
    MoveUnits,
    PayToll,
    StopHere,
)
from engine.seven_ages.spec import OPTIONS
from engine.seven_ages.window import EVENT
from tests.seven_ages_builder import Scenario
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


def _offered(t: Table) -> list[tuple[object, str]]:
    """The trader's partner choices, as the trader reads them."""
    view = GAME.view(t.state, 0)
    return [(a, choice(view, 0, a).label) for a in t.legal(0)]


def test_the_trader_sees_the_same_partners_whatever_the_keeper_answers_ahead() -> None:
    # a standing answer is the keeper's secret until a request is made (as at a canal): the list and its
    # labels must not change with it
    asked = _offered(table())
    assert asked[0][1] == ("Trade with the Etruscans, asking the Carthaginians to let you count range "
                           "through their areas")
    for pref in ("range:yes", "range:no", "range:10"):
        assert _offered(table(pref)) == asked, pref
        assert GAME.view(table(pref).state, 0)["goes"] == GAME.view(table().state, 0)["goes"], pref


def test_a_standing_yes_answers_the_request_without_a_prompt() -> None:
    t = table("range:yes")
    t.do(TradeWith(0, card_of(PARTNER)))
    assert began_with(t) == [card_of(PARTNER)]
    assert [e.data["answer"] for e in t.named("range_answered")] == [0]  # shown once asked
    assert len(t.named("range_asked")) == 1 and 2 not in t.actors()


def test_a_standing_no_refuses_the_request_and_the_partners_are_offered_again() -> None:
    t = table("range:no")
    t.do(TradeWith(0, card_of(PARTNER)))
    assert [e.data["answer"] for e in t.named("range_answered")] == [REFUSE]
    assert began_with(t) == [card_of(KEEPER)]  # the only partner left, taken without a prompt


def test_a_standing_price_goes_to_the_trader_without_asking_the_keeper() -> None:
    t = table("range:5")
    t.do(TradeWith(0, card_of(PARTNER)))
    assert t.actors() == {0} and [e.data["answer"] for e in t.named("range_answered")] == [5]
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


# -- option 8, Take that! (L1220-1228) ----------------------------------------------------------------

def _event(name: str) -> int:
    return next(c.number for c in load_deck().cards.values() if c.event.name == name)


def _artefact(name: str) -> int:
    return next(c.number for c in load_deck().cards.values() if c.artefact == name)


def romans_civilise(etruscans_in: str, *, options: dict[str, bool] | None = None, cards: tuple[int, ...] = ()
                    ) -> Table:
    """The Romans (alice, Latium, age 2) take a civilise action; the Etruscans (bob) hold ``etruscans_in``,
    a city of 5 there, and a card in hand."""
    t = Table(3, options=options).empire("Romans", 0, 12, ["Latium"], capital="Latium")
    t.empire("Etruscans", 1, 12, [etruscans_in], capital=etruscans_in).city(etruscans_in, 5)
    spare = next(c for c in load_deck().cards if c not in cards)
    t.hand(0, *cards).hand(1, spare).marker(0, "civilise", "Romans").enter("civilise")
    return t.do(TurnMarker(0, 0))


TAKE_THAT = {"take_that": True}


def test_option_8_refuses_an_event_on_an_empire_out_of_range() -> None:
    # L1222: "during Civilise you may only play artefact and event cards on empires within Range of the
    # empire taking the action". Egypt is far beyond the Romans' age-2 range of Latium.
    quake = _event("Earthquake")
    t = romans_civilise("Egypt", options=TAKE_THAT, cards=(quake,))
    play = PlayEvent(0, quake, card_of("Etruscans"), "Egypt")
    assert play not in t.legal(0)
    err = t.refused(play, "out_of_range")
    assert err.message == ("With option 8 (Take that!), cards in Civilise go only on empires within Range of "
                           "the Romans, and the Etruscans are not (L1222).")


def test_without_option_8_the_same_event_goes_anywhere() -> None:
    quake = _event("Earthquake")
    t = romans_civilise("Egypt", cards=(quake,))
    assert PlayEvent(0, quake, card_of("Etruscans"), "Egypt") in t.legal(0)


def test_option_8_allows_an_event_on_an_empire_in_range() -> None:
    # Tuscany is next to Latium: one area away, within age 2
    quake = _event("Earthquake")
    t = romans_civilise("Tuscany", options=TAKE_THAT, cards=(quake,))
    t.do(PlayEvent(0, quake, card_of("Etruscans"), "Tuscany"))
    assert [e.data["event"] for e in t.named("event_played")] == ["Earthquake"]


def test_option_8_refuses_an_artefact_out_of_range_and_allows_one_in_range() -> None:
    forum = _artefact("Forum")  # green, on a land area (L909)
    far = romans_civilise("Egypt", options=TAKE_THAT, cards=(forum,))
    err = far.refused(PlayArtefact(0, forum, card_of("Etruscans"), "Egypt"), "artefact_refused")
    assert "Range of the Romans" in err.message
    near = romans_civilise("Tuscany", options=TAKE_THAT, cards=(forum,))
    near.do(PlayArtefact(0, forum, card_of("Etruscans"), "Tuscany"))
    assert near.state.area("Tuscany").artefacts == ("Forum",)


def test_option_8_stricter_keeps_green_artefacts_on_ones_own_empires() -> None:
    # L1228: "you may only play black, blue or green Artefacts on empires you control"
    forum = _artefact("Forum")
    t = romans_civilise("Tuscany", options={**TAKE_THAT, "take_that_strict": True}, cards=(forum,))
    err = t.refused(PlayArtefact(0, forum, card_of("Etruscans"), "Tuscany"), "artefact_refused")
    assert err.message == ("With option 8's stricter artefacts, Forum (green) goes only on an empire of "
                           "yours (L1228).")
    assert PlayArtefact(0, forum, card_of("Etruscans"), "Tuscany") not in t.legal(0)
    t.do(PlayArtefact(0, forum, card_of("Romans"), "Latium"))
    assert t.state.area("Latium").artefacts == ("Forum",)


def test_option_8_keeps_a_player_target_within_range() -> None:
    # L1226: "To play an event that targets a player, that player must have an empire within range of any
    # of your empires." bob's Etruscans in Egypt are not; in Tuscany they are.
    far = romans_civilise("Egypt", options=TAKE_THAT)
    assert civ_events.spy_seats(far.state, 0) == []
    assert civ_events.spy_seats(romans_civilise("Egypt").state, 0) == [1]
    near = romans_civilise("Tuscany", options=TAKE_THAT)
    assert civ_events.spy_seats(near.state, 0) == [1]


def test_option_8_is_offered_with_its_stricter_variant() -> None:
    # the lobby's keys are the ones the rules read
    offered = {o.name: o.default for o in OPTIONS}
    assert offered[take_that.OPTION] is False and offered[take_that.STRICT] is False


def _conflict_window(onlooker_in: str, options: dict[str, bool]) -> Scenario:
    """The Romans (seat 1) attack the Macedonians (seat 2) in Epirus, both committed: the event window is
    open. Seat 0, the First player, holds Berserkers and has the Egyptians in ``onlooker_in``."""
    s = Scenario(players=3, options=options)
    s.empire("Romans", owner=1, progress=10, units={"Dacia": {"Spear": 3}})
    s.empire("Macedonians", owner=2, progress=10, units={"Epirus": {"Spear": 1}})
    s.empire("Egyptians", owner=0, progress=10, units={onlooker_in: {"Spear": 1}})
    s.hand(0, load_deck().by_event("Berserkers").number)
    s.marker(1, "manoeuvre", "Romans").at("manoeuvre").turn_over(1, "Romans")
    s.play(MoveFrom(1, "Dacia"), MoveUnits(1, "Spear", 2), MoveTo(1, "Epirus"), StopHere(1), EndMovement(1),
           FightIn(1, "Epirus"))
    s.play(Commit(1, "Spear", 1), CommitDone(1), Commit(2, "Spear", 1), CommitDone(2))
    assert [p.seat for p in s.state.pending if p.kind == EVENT] == [0]  # seat 0 is asked first
    return s


def test_option_8_keeps_an_out_of_turn_event_to_a_target_within_range() -> None:
    # L1224: "To play events at any other time you must have an empire within range of the area or empire
    # targeted by the card." From Egypt (age 2) the Macedonians in Epirus are out of range.
    berserkers = load_deck().by_event("Berserkers").number
    far = _conflict_window("Egypt", TAKE_THAT)
    assert GAME.legal_actions(far.state, 0) == [WindowPass(0, never=True), WindowPass(0)]
    with pytest.raises(IllegalAction) as err:
        far.apply(WindowPlay(0, berserkers, 1))
    assert err.value.code == "out_of_range"
    assert err.value.message == ("With option 8 (Take that!), you play an event outside Civilise only with "
                                 "an empire within Range of the Macedonians (L1224).")
    # from Achaea, next to Epirus, the play is open; without the option, from Egypt too
    assert WindowPlay(0, berserkers, 1) in GAME.legal_actions(_conflict_window("Achaea", TAKE_THAT).state, 0)
    assert WindowPlay(0, berserkers, 1) in GAME.legal_actions(_conflict_window("Egypt", {}).state, 0)


def test_the_answers_read_as_a_permission_to_count_range() -> None:
    # the canal's answers, in the words of L2233 when they answer a trader
    t = table()
    t.do(TradeWith(0, card_of(PARTNER)))
    asked = [choice(GAME.view(t.state, 2), 2, a).label for a in t.legal(2)]
    assert asked == ["Refuse", "Let them count through", "Ask 5 money", "Ask 10 money", "Ask 20 money"]
    t.do(CanalAnswer(2, 10))
    assert [choice(GAME.view(t.state, 0), 0, a).label for a in t.legal(0)] == ["Pay the price and trade",
                                                                             "Refuse the price"]
