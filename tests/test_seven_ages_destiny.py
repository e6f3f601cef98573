"""7 Ages Destiny (L847-853) and option 7 Technology (L1214-1218)."""

from __future__ import annotations

from engine.seven_ages import destiny
from engine.seven_ages.actions import DiscardCard, Done, TurnMarker
from engine.seven_ages.conflict_moves import WindowPass
from tests.seven_ages_builder_civ import Table, cards_of_value


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


# -- the destiny step --------------------------------------------------------------------------------

def test_destiny_every_player_at_once_discard_then_fill() -> None:
    # L851 and L373 ("feel free to do yours at the same time")
    a, b, c, d = cards_of_value(0, 1, 2, 3)
    t = Table(2).empire("Romans", 0, 12, ["Latium"]).empire("Syracusans", 1, 10, ["Sicily"])
    t.hand(0, a, b).hand(1, c, d).marker(0, "destiny", "Romans").marker(1, "destiny", "Syracusans")
    t.enter("destiny")
    assert t.actors() == {0, 1}
    t.do(TurnMarker(0, 0), TurnMarker(1, 1))
    t.do(DiscardCard(0, a), Done(0))
    assert len(t.state.people[0].hand) == 6 and a not in t.state.people[0].hand
    t.refused(DiscardCard(1, a), "not_in_hand")
    t.do(Done(1))
    assert len(t.state.people[1].hand) == 6


def test_destiny_with_a_philosopher_then_discard_down() -> None:
    # L853
    t = Table(2).empire("Romans", 0, 12, ["Latium"], leaders=[("Philosopher", "Latium")])
    t.hand(0, *cards_of_value(0, 1, 2)).marker(0, "destiny", "Romans").enter("destiny")
    t.do(TurnMarker(0, 0), Done(0))
    assert len(t.state.people[0].hand) == 7
    t.refused(Done(0), "must_discard")
    hand = t.state.people[0].hand
    t.do(DiscardCard(0, hand[0]))
    assert len(t.state.people[0].hand) == 6
    assert all(g.action != "destiny" for g in t.state.goes)


def test_destiny_on_the_extra_marker() -> None:
    # L349: the additional marker's only effective actions are Start empire, Destiny or Civilise
    t = Table(2).hand(0, *cards_of_value(0)).marker(0, "destiny").enter("destiny")
    t.do(TurnMarker(0, 0), Done(0))
    assert len(t.state.people[0].hand) == 6


def test_technology_in_the_flow() -> None:
    # option 7 (L1218): the most advanced empire fills to 7, the marker on no empire to 5
    t = Table(2, options={"technology": True}).empire("Romans", 0, 12, ["Latium"])
    t.marker(0, "destiny", "Romans").marker(1, "destiny").enter("destiny")
    t.do(TurnMarker(0, 0), TurnMarker(1, 1), Done(0), Done(1))
    assert [len(p.hand) for p in t.state.people] == [7, 5]


def test_destiny_on_an_empire_discarded_this_turn_still_draws() -> None:
    # L349 (README reading): a marker left on an empire discarded since still takes what needs no empire,
    # a destiny's draw among it; the empire's Philosophers are gone with it.
    a, b = cards_of_value(0, 1)
    t = Table(2).empire("Syracusans", 1, 10, ["Sicily"]).hand(0, a, b).marker(0, "destiny", "Romans")
    t.enter("destiny")
    t.do(TurnMarker(0, 0), Done(0))
    assert len(t.state.people[0].hand) == 6


def test_a_window_answer_where_no_window_asks_is_refused_and_changes_nothing() -> None:
    """Every action's step takes a cancel window's answers (a standing order may open one as a go begins);
    sent in a Destiny go where no window asks, one is refused with a sentence, not an assertion."""
    a, b = cards_of_value(0, 1)
    t = Table(2).empire("Romans", 0, 12, ["Latium"]).empire("Syracusans", 1, 10, ["Sicily"])
    t.hand(0, a).hand(1, b).marker(0, "destiny", "Romans").marker(1, "destiny", "Syracusans")
    t.enter("destiny")
    t.do(TurnMarker(0, 0))
    t.refused(WindowPass(0), "wrong_step")
