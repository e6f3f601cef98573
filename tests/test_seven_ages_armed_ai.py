"""The computer players arm standing orders (issue 27, item 9; :mod:`engine.seven_ages.armed_ai`).

Without them no computer player ever plays the cards timed for another empire's go (the playout census
found Nomad raid, Pirate raid and the like played only in the tests). The greedy player arms a card on an
empire of the glory leader, where it costs most; the random player now and then arms one anywhere. Every
order they send is one the game accepts, and each reads only what its seat may see.
"""

from __future__ import annotations

from dataclasses import replace

from engine.policy import PolicyRng
from engine.seven_ages.ai import ARM_ODDS, GreedyPolicy, RandomPolicy
from engine.seven_ages.armed_ai import greedy_order, random_order, unarmed
from engine.seven_ages.civilisation_moves import Arm
from engine.seven_ages.game import GAME
from engine.seven_ages.state import SevenState
from tests.seven_ages_builder import Scenario, card
from tests.test_seven_ages_armed import GHAZI, HUNS, NOMAD, PARTHIANS, PIRATE, ROMANS, pass_windows, table
from tests.test_seven_ages_move_events import romans


def _huns_spread(*hand: int, take_that: bool = False) -> Scenario:
    """:func:`table`, but Peter's Huns hold three steppe areas far from Anna's Parthians in Tuscany (the
    Romans next door hold two)."""
    s = Scenario(players=2, options={"take_that": True} if take_that else None)
    s.empire("Parthians", owner=0, progress=10, money=2, units={"Tuscany": {"Spear": 1}})
    s.empire("Romans", owner=1, progress=10, money=5,
             units={"Latium": {"Spear": 3}, "Campania": {"Spear": 2}})
    s.empire("Huns", owner=1, progress=10, units={"Kazakh Steppe": {"Spear": 1}, "Gobi": {"Spear": 1},
                                                  "Hexi": {"Spear": 1}})
    s.hand(0, *hand).marker(1, "manoeuvre", "Romans").marker(1, "manoeuvre", "Huns").first(1)
    return s.at("manoeuvre")


def test_greedy_arms_a_raid_on_the_leaders_empire_naming_its_biggest_cities() -> None:
    """Nomad raid disorders 2 areas: only the Romans hold two; Latium (a city of 3) is named before
    Campania (none)."""
    s = table(NOMAD)
    s.state = s.state.with_area(replace(s.state.area("Latium"), city=3))
    order = greedy_order(s.state, 0)
    assert order == Arm(0, NOMAD, ROMANS, "Latium,Campania", 0)
    s.play(order)
    s.turn_over(1, "Romans")
    pass_windows(s)  # Island isolation's window (L875)
    assert s.area("Latium").disorder and s.area("Campania").disorder


def test_greedy_takes_money_from_the_richest_empire_for_its_own() -> None:
    """Pirate raid takes up to 3: the Romans have 5, the Huns none; Anna's Parthians receive it."""
    s = table(PIRATE)
    order = greedy_order(s.state, 0)
    assert order == Arm(0, PIRATE, ROMANS, "", PARTHIANS)
    s.play(order)
    s.turn_over(1, "Romans")
    assert (s.empire_of("Romans").money, s.empire_of("Parthians").money) == (2, 5)


def test_greedy_raids_the_empire_with_most_areas_in_order_and_with_option_8_one_within_range() -> None:
    """Ghazi raid: the Huns have three areas in order, the Romans two; with Take that! only the Romans next
    door are within Range of Anna's Parthians (L1224), and an order on the Huns would be dropped."""
    assert greedy_order(_huns_spread(GHAZI).state, 0) == Arm(0, GHAZI, HUNS, "Gobi", 0)
    assert greedy_order(_huns_spread(GHAZI, take_that=True).state, 0) == Arm(0, GHAZI, ROMANS, "Campania", 0)


def test_greedy_arms_a_card_once_and_not_against_a_player_behind_in_glory() -> None:
    s = table(GHAZI)
    s.play(Arm(0, GHAZI, ROMANS, "Latium"))
    assert unarmed(s.state, 0) == [] and greedy_order(s.state, 0) is None
    three = Scenario(players=3)
    three.empire("Parthians", owner=0, progress=10, units={"Tuscany": {"Spear": 1}})
    three.empire("Romans", owner=1, progress=10, units={"Latium": {"Spear": 1}})
    three.empire("Huns", owner=2, progress=10, units={"Kazakh Steppe": {"Spear": 1}})
    three.hand(0, GHAZI)
    three.state = three.state.with_player(replace(three.state.people[2], glory=4))
    assert greedy_order(three.state, 0) == Arm(0, GHAZI, card("Huns"), "Kazakh Steppe", 0), \
        "the Huns' player leads in glory"


def test_the_greedy_players_move_is_the_order_and_a_card_it_cannot_arm_is_kept() -> None:
    s = table(NOMAD)
    assert GreedyPolicy(3).choose(s.state, 0) == greedy_order(s.state, 0)
    calm = table(NOMAD)  # the Huns hold one area, and the Romans' two are named whatever their disorder
    calm.state = calm.state.with_empire(replace(calm.empire_of("Romans"),
                                                units=tuple(u for u in calm.empire_of("Romans").units
                                                            if u.area == "Latium")))
    assert greedy_order(calm.state, 0) is None, "no empire of Peter's holds two areas to name"


def _others_differ(state: SevenState) -> SevenState:
    """``state`` with Peter's hand and armed orders changed: what Anna may not see."""
    peter = state.people[1]
    return state.with_player(replace(peter, hand=(*peter.hand, PIRATE), armed=((PIRATE, PARTHIANS, "", 0),)))


def test_both_players_read_only_what_their_seat_may_see() -> None:
    s = table(NOMAD, GHAZI)
    other = _others_differ(s.state)
    assert greedy_order(s.state, 0) == greedy_order(other, 0)
    for seed in range(20):
        assert random_order(s.state, 0, PolicyRng(seed)) == random_order(other, 0, PolicyRng(seed))


def test_random_orders_are_accepted_and_repeat_by_seed() -> None:
    s = table(NOMAD, GHAZI, PIRATE)
    seen = set()
    for seed in range(30):
        order = random_order(s.state, 0, PolicyRng(seed))
        assert order is not None and order == random_order(s.state, 0, PolicyRng(seed))
        GAME.apply(s.state, order)  # raises IllegalAction if the game refused it
        seen.add(order.card)
    assert seen == {NOMAD, GHAZI, PIRATE}


def test_random_draws_nothing_when_it_has_no_card_to_arm() -> None:
    dice = PolicyRng(5)
    assert random_order(table().state, 0, dice) is None and dice.rng_counter == 0


def test_the_random_player_arms_now_and_then_and_the_same_seed_the_same() -> None:
    """About one move in ARM_ODDS while it holds a card to arm; each order accepted; a seed repeats itself."""
    s = romans(GHAZI)  # Anna's Romans manoeuvre next to Peter's Parthians
    moves = [RandomPolicy(seed).choose(s.state, 0) for seed in range(200)]
    orders = [m for m in moves if isinstance(m, Arm)]
    assert 200 // ARM_ODDS // 3 <= len(orders) <= 3 * 200 // ARM_ODDS
    assert {(o.card, o.empire) for o in orders} == {(GHAZI, card("Parthians"))}
    for order in orders:
        GAME.apply(s.state, order)
    assert moves == [RandomPolicy(seed).choose(s.state, 0) for seed in range(200)]
