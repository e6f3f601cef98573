"""7 Ages events played in one's own go of Production, Trade or Destiny (issue 27, items 2 and 3).

"Some events can be played at other times during a turn. This will be stated on the card." (L865); "Each
event and artefact card may be played on any area, empire or player" (L861). A card timed for an action and
played on one's own empire (or "on any empire") is offered in one's own empire's go of that action, with the
go's first decisions. The cards (``data/seven_ages/cards.yaml``, events ours) and what their codes say:

- ``money``: "the target gains N money (negative: loses)"; ``elite_marker``: "gains N elite markers (up to
  3)"; ``income_percent``: "the target's income this action is N percent"; ``unit_cost``: "units of a class
  cost N more (negative: less)"; ``build_ahead``: "builds units N progress levels ahead (L1628)";
- ``trade_bonus``: "+N to this trade's value"; ``steal_money``: "take up to N money from the target" (our
  reading for a card played on one's own empire: from the trade partner);
- ``draw_cards`` / ``discard_cards``: "draw N cards", "discard N cards" (Oracle bones, in Destiny).

The scenarios: the Egyptians hold Egypt (fertile with wheat, a city of 1: income 6, E11 L485) with one
spear (maintenance 1, L499) and 10 money; the Romans (Latium) trade with the Parthians (Tuscany, next to
Latium: in range, L2227).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest

from engine.seven_ages import cancels, own_events
from engine.seven_ages.actions import Build, DiscardCard, Done
from engine.seven_ages.ai import make_policy
from engine.seven_ages.cards import load_deck
from engine.seven_ages.civilisation_moves import EventPick, PlayEvent, TradeCard
from engine.seven_ages.decision import decide, heading
from engine.seven_ages.game import GAME
from engine.seven_ages.manoeuvre_moves import MoveFrom
from engine.seven_ages.production import ahead_levels, buildable_units, unit_cost
from engine.seven_ages.text import describe_event
from tests.seven_ages_builder import Scenario, card, cards_of_value

NAMES = ("alice (Red)", "bob (Blue)")
SUMERIANS = 2  # an event played in Civilise only: never offered in these goes
START_MONEY = 10
INCOME, UPKEEP = 6, 1  # E11: Egypt earns 6; one spear costs 1


def egypt(*hand: int) -> Scenario:
    """Alice's Egyptians turn over their Production marker, holding ``hand``."""
    s = Scenario(players=2)
    s.empire("Egyptians", owner=0, progress=3, money=START_MONEY, capital="Egypt",
             units={"Egypt": {"Spear": 1}})
    s.empire("Parthians", owner=1, progress=3, units={"Persis": {"Spear": 1}})
    s.city("Egypt", 1).hand(0, *hand).marker(0, "production", "Egyptians").at("production")
    return s.turn_over(0, "Egyptians")


def rome(*hand: int, parthian_money: int = 7) -> Scenario:
    """Alice's Romans trade with Bob's Parthians (the only empire in range: chosen at once); both are asked
    for a card. Alice holds ``hand`` and a card of value 3, Bob a card of value 2."""
    three, two = cards_of_value(3, 2, avoid=hand)
    s = Scenario(players=2)
    s.empire("Romans", owner=0, progress=10, units={"Latium": {"Spear": 1}})
    s.empire("Parthians", owner=1, progress=10, money=parthian_money, units={"Tuscany": {"Spear": 1}})
    s.hand(0, three, *hand).hand(1, two).marker(0, "trade", "Romans").at("trade")
    return s.turn_over(0, "Romans")


def trade_cards(s: Scenario) -> tuple[int, int]:
    """Both sides play their card (Alice the 3): the trade is revealed."""
    mine = next(c for c in s.state.people[0].hand if value(c) == 3)
    s.play(TradeCard(1, s.state.people[1].hand[0]), TradeCard(0, mine))
    values = s.of_type("trade_revealed")[-1]["values"]
    return int(values[0]), int(values[1])


def value(c: int) -> int:
    return load_deck().cards[c].value


def plays(s: Scenario, seat: int = 0) -> list[PlayEvent]:
    return [a for a in s.legal(seat) if isinstance(a, PlayEvent)]


# -- one row per newly playable card -------------------------------------------------------------------

@dataclass(frozen=True)
class Row:
    card: int
    name: str
    build: Callable[..., Scenario]
    empire: str
    check: Callable[[Scenario], None]


def _money(n: int) -> Callable[[Scenario], None]:
    def check(s: Scenario) -> None:
        assert s.empire_of("Egyptians").money == START_MONEY + INCOME - UPKEEP + n
    return check


def _income(percent: int) -> Callable[[Scenario], None]:
    # L2197: rounded half up; the upkeep is paid out of the new income
    income = {50: 3, 150: 9}[percent]

    def check(s: Scenario) -> None:
        assert s.empire_of("Egyptians").money == START_MONEY + income - UPKEEP
    return check


def _trade_money(n: int) -> Callable[[Scenario], None]:
    def check(s: Scenario) -> None:
        assert s.empire_of("Romans").money == n
    return check


def _elite(s: Scenario) -> None:
    assert s.empire_of("Egyptians").elite == 1


def _iron(s: Scenario) -> None:
    # infantry costs 2 (the cost table, L2828-2841); Iron working: 1 less this Production
    e = s.empire_of("Egyptians")
    assert unit_cost(e, "Spear", "Egypt") == 1
    words = [describe_event(x, NAMES) for x in s.events if x.type == "event_unit_cost"]
    assert words == ["For the Egyptians this Production, infantry units cost 1 less to build."]
    s.play(Build(0, "Spear", "Egypt", 1))
    assert s.empire_of("Egyptians").money == START_MONEY + INCOME - UPKEEP - 1
    s.done(0)
    assert unit_cost(s.empire_of("Egyptians"), "Spear", "Egypt") == 2, "the cost is back after the Production"


def _gunpowder(s: Scenario) -> None:
    # Galleys come at level 4 (L2828-2841); the Egyptians are at 3: Gunpowder puts them one level ahead
    assert "Galley" in buildable_units(s.empire_of("Egyptians"))
    s.done(0)
    assert ahead_levels(s.empire_of("Egyptians")) == 0, "only for this Production"


def _bonus(n: int, money: int = 0) -> Callable[[Scenario], None]:
    def check(s: Scenario) -> None:
        assert s.empire_of("Romans").money == money
        plain = rome()
        assert trade_cards(s)[0] == trade_cards(plain)[0] + n
    return check


def _doge(s: Scenario) -> None:
    assert s.empire_of("Romans").money == 4 and s.empire_of("Parthians").money == 7 - 4


ROWS = [
    Row(11, "Quipu", egypt, "Egyptians", _money(4)),
    Row(18, "Gold of Nubia", egypt, "Egyptians", _money(6)),
    Row(89, "Coffee boom", egypt, "Egyptians", _money(6)),
    Row(105, "Gold rush", egypt, "Egyptians", _money(8)),
    Row(49, "Tulip mania", egypt, "Egyptians", _money(-6)),  # "on any empire": on one's own counts
    Row(4, "Monsoon", egypt, "Egyptians", _income(50)),
    Row(94, "Long winter", egypt, "Egyptians", _income(50)),
    Row(60, "Domesday book", egypt, "Egyptians", _income(150)),
    Row(96, "Five-year plan", egypt, "Egyptians", _income(150)),
    Row(102, "Drill sergeant", egypt, "Egyptians", _elite),
    Row(7, "Iron working", egypt, "Egyptians", _iron),
    Row(73, "Gunpowder", egypt, "Egyptians", _gunpowder),
    Row(9, "Purple dye", rome, "Romans", _trade_money(5)),
    Row(51, "Spice route", rome, "Romans", _trade_money(6)),
    Row(75, "Treasure fleet", rome, "Romans", _trade_money(8)),
    Row(25, "Merchant fleet", rome, "Romans", _bonus(2)),
    Row(40, "Silk road", rome, "Romans", _bonus(1, money=3)),
    Row(62, "Doge's bargain", rome, "Romans", _doge),
]


@pytest.mark.parametrize("row", ROWS, ids=[r.name for r in ROWS])
def test_each_card_in_its_own_go(row: Row) -> None:
    assert load_deck().cards[row.card].event.name == row.name
    s = row.build(row.card)
    play = PlayEvent(0, row.card, card(row.empire), "")
    assert plays(s) == [play], "offered on the go's own empire, with the go's first decision"
    s.play(play)
    assert row.card not in s.state.people[0].hand and s.state.discard[-1] == row.card
    row.check(s)


def test_oracle_bones_draws_two_then_discards_one_of_the_players_choice() -> None:
    """Oracle bones (Destiny): "draw 2 cards" then "discard 1 card"; the discard is the player's choice,
    asked as the event's question; then the Destiny goes on (discard, draw to 6, L851)."""
    oracle, keep = 5, SUMERIANS
    top = cards_of_value(7, 6, avoid=(oracle, keep))
    s = Scenario(players=2).empire("Romans", owner=0, progress=10, units={"Latium": {"Spear": 1}})
    s.hand(0, oracle, keep)
    s.set(deck=(*top, *(c for c in s.state.deck if c not in top)))
    s.marker(0, "destiny", "Romans").at("destiny").turn_over(0, "Romans")
    assert plays(s) == [PlayEvent(0, oracle, card("Romans"), "")]
    s.play(PlayEvent(0, oracle, card("Romans"), ""))
    assert sorted(s.state.people[0].hand) == sorted([keep, *top])
    assert set(s.legal(0)) == {EventPick(0, f"card:{c}") for c in (keep, *top)}
    assert heading(GAME.view(s.state, 0), 0).endswith("Oracle bones: choose a card of yours to discard")
    s.illegal(Done(0), "event_first")
    s.play(EventPick(0, f"card:{keep}"))
    assert sorted(s.state.people[0].hand) == sorted(top) and s.state.discard[-1] == keep
    assert DiscardCard(0, top[0]) in s.legal(0) and Done(0) in s.legal(0), "the Destiny goes on"
    s.done(0)
    assert len(s.state.people[0].hand) == 6


# -- when they are offered ---------------------------------------------------------------------------

def test_a_production_event_is_not_offered_in_a_trade_nor_a_trade_event_in_a_production() -> None:
    s = rome(105)
    assert plays(s) == []
    s.illegal(PlayEvent(0, 105, card("Romans"), ""), "event_not_now")
    s = egypt(9)
    assert plays(s) == []
    err = s.illegal(PlayEvent(0, 9, card("Egyptians"), ""), "event_not_now")
    assert err.message == "Purple dye is not an event played as your production begins."


def test_production_events_only_before_anything_is_built() -> None:
    s = egypt(105).play(Build(0, "Spear", "Egypt", 1))
    assert plays(s) == []
    err = s.illegal(PlayEvent(0, 105, card("Egyptians"), ""), "events_first")
    assert err.message == "Production events are played as your go begins, before anything is built."


def test_trade_events_only_before_the_traders_card() -> None:
    s = rome(9)
    s.hand(1, *s.state.people[1].hand, 51)  # Bob holds Spice route, a trade event, too
    assert plays(s, 1) == [], "the partner plays no event in the trader's go"
    mine = next(c for c in s.state.people[0].hand if c != 9)
    s.play(TradeCard(0, mine))
    assert s.actors() == {1} and plays(s) == []
    s.illegal(PlayEvent(0, 9, card("Romans"), ""), "not_your_turn")


def test_events_on_another_players_empire_wait_for_plays_out_of_ones_own_go() -> None:
    """Corrupt administration (Production, "on another player's empire") and Jolly Roger (Trade) are played
    in that other empire's go: not offered here, nor accepted on one's own empire."""
    s = egypt(63)
    assert plays(s) == []
    s.illegal(PlayEvent(0, 63, card("Parthians"), ""), "event_not_now")
    s = rome(98)
    assert plays(s) == []
    s.illegal(PlayEvent(0, 98, card("Parthians"), ""), "event_not_now")


def test_bad_input_changes_nothing() -> None:
    s = egypt(105)
    s.illegal(PlayEvent(0, 105, card("Parthians"), ""), "bad_target")
    s.illegal(PlayEvent(0, 18, card("Egyptians"), ""), "not_in_hand")
    s.illegal(EventPick(0, "card:105"), "no_event")
    err = s.illegal(PlayEvent(0, 105, card("Egyptians"), "Egypt"), "bad_target")
    assert err.message == "Gold rush cannot be played there."


def test_doges_bargain_takes_only_what_the_partner_has() -> None:
    s = rome(62, parthian_money=3)
    s.play(PlayEvent(0, 62, card("Romans"), ""))
    assert s.empire_of("Romans").money == 3 and s.empire_of("Parthians").money == 0
    words = [describe_event(e, NAMES) for e in s.events if e.type in ("event_played", "money_taken")]
    assert words == ["alice (Red) plays the event Doge's bargain on the Romans.",
                     "The Romans take 3 money from the Parthians."]
    fresh = rome(62)
    choice = decide(GAME.view(fresh.state, 0), 0, fresh.legal(0), NAMES).choices[0]
    assert str(choice.group).endswith("take up to 4 money from a raided or trading empire")


def test_merchant_fleet_words() -> None:
    s = rome(25).play(PlayEvent(0, 25, card("Romans"), ""))
    words = [describe_event(e, NAMES) for e in s.events if e.type == "trade_bonus"]
    assert words == ["The Romans add 2 to the value of this trade."]


def test_a_halved_income_may_leave_units_unmaintained() -> None:
    """Monsoon halves 6 to 3; with no money the Egyptians cannot keep 4 spears (L499-503): the
    Production turns to choosing the units left unmaintained."""
    s = Scenario(players=2)
    s.empire("Egyptians", owner=0, progress=3, capital="Egypt", units={"Egypt": {"Spear": 4}})
    s.city("Egypt", 1).hand(0, 4).marker(0, "production", "Egyptians").at("production")
    s.turn_over(0, "Egyptians")
    assert s.go_stage(0) == "build" and s.empire_of("Egyptians").money == INCOME - 4
    s.play(PlayEvent(0, 4, card("Egyptians"), ""))
    assert s.go_stage(0) == "maintain" and s.empire_of("Egyptians").money == 3


def test_the_offer_is_no_prompt_and_tells_nobody_about_the_hand() -> None:
    """Same hand size, one hand with Gold rush and one without: the player's other moves are the same, and
    every other seat's view is the same."""
    with_card, without = egypt(105), egypt(SUMERIANS)
    assert plays(without) == []
    assert [a for a in with_card.legal(0) if not isinstance(a, PlayEvent)] == without.legal(0)
    assert GAME.view(with_card.state, 1) == GAME.view(without.state, 1)
    assert GAME.view(with_card.state, None) == GAME.view(without.state, None)
    assert with_card.go_stage(0) == without.go_stage(0)


def poor(*hand: int) -> Scenario:
    """Alice's Egyptians turn over their Production marker with five spears to keep and no money: 1 money
    left after maintenance (E11: Egypt earns 6, L499), too little to build, fortify or buy anything."""
    s = Scenario(players=2)
    s.empire("Egyptians", owner=0, progress=3, money=0, capital="Egypt", units={"Egypt": {"Spear": 5}})
    s.empire("Parthians", owner=1, progress=3, units={"Persis": {"Spear": 1}})
    s.city("Egypt", 1).hand(0, *hand).marker(0, "production", "Egyptians").at("production")
    return s.turn_over(0, "Egyptians")


def test_a_production_with_nothing_to_build_asks_a_seat_holding_cards_whatever_they_are() -> None:
    """Part 3's rule: whether a seat is asked never depends on its hand. With nothing to build, holding
    Gold rush (a Production event) asked the player, and holding the Sumerians (no such event) said "done"
    at once: the table could tell the two hands apart. Both are asked now, with the same heading; only an
    empty hand (its size is public) says "done" at once."""
    with_card, without = poor(105), poor(SUMERIANS)
    assert plays(with_card) and without.legal(0) == [Done(0)]
    assert GAME.forced(with_card.state, 0) is None
    assert GAME.forced(without.state, 0) is None
    asked = [decide(GAME.view(s.state, 0), 0, s.legal(0), NAMES) for s in (with_card, without)]
    assert asked[0].heading == asked[1].heading
    assert [c.label for c in asked[1].choices] == ["Finish building"]
    assert GAME.forced(poor().state, 0) == Done(0)


def test_words_name_the_player_and_say_what_the_event_does() -> None:
    s = egypt(4)
    play = PlayEvent(0, 4, card("Egyptians"), "")
    decision = decide(GAME.view(s.state, 0), 0, s.legal(0), NAMES)
    choice = next(c for c in decision.choices if c.action == play)
    assert choice.label == "Monsoon on the Egyptians"
    assert "as Monsoon: income this action is 50% of the usual" in str(choice.group)
    s.play(play)
    words = [describe_event(e, NAMES) for e in s.events if e.type in ("event_played", "income_changed")]
    assert words == ["alice (Red) plays the event Monsoon on the Egyptians.",
                     "The Egyptians earn 50% of their income this Production: 3 money instead of 6."]


# -- the greedy player --------------------------------------------------------------------------------

def test_the_greedy_player_plays_what_helps_its_own_empire_and_keeps_what_hurts_it() -> None:
    greedy = make_policy("greedy", 0)
    s = egypt(105)
    assert greedy.choose(s.state, 0) == PlayEvent(0, 105, card("Egyptians"), "")
    s = egypt(4)  # Monsoon would halve its own income
    assert not isinstance(greedy.choose(s.state, 0), PlayEvent)
    s = rome(25)
    assert greedy.choose(s.state, 0) == PlayEvent(0, 25, card("Romans"), "")


def test_the_greedy_player_discards_its_lowest_card_to_oracle_bones() -> None:
    oracle = 5
    low, high = cards_of_value(0, 7, avoid=(oracle,))
    s = Scenario(players=2).empire("Romans", owner=0, progress=10, units={"Latium": {"Spear": 1}})
    s.hand(0, oracle, low, high)
    s.marker(0, "destiny", "Romans").at("destiny").turn_over(0, "Romans")
    greedy = make_policy("greedy", 0)
    s.play(greedy.choose(s.state, 0))
    assert s.state.discard[-1] == oracle
    drawn = [c for c in s.state.people[0].hand if c not in (low, high)]
    lowest = min((low, high, *drawn), key=value)
    pick = greedy.choose(s.state, 0)
    assert isinstance(pick, EventPick) and value(int(pick.pick[5:])) == value(lowest)


# -- free units (add_units): "place N free units of a class" ----------------------------------------

def test_free_units_go_where_the_player_chooses_one_at_a_time() -> None:
    """Janissaries (Production): 2 free infantry. At level 3 the only infantry is the Spear (Sword from 12,
    the cost table L2828-2841). With Egypt and Nubia, each unit's area is the player's choice."""
    s = Scenario(players=2)
    s.empire("Egyptians", owner=0, progress=3, money=START_MONEY, capital="Egypt",
             units={"Egypt": {"Spear": 1}, "Nubia": {"Spear": 1}})
    s.city("Egypt", 1).hand(0, 53).marker(0, "production", "Egyptians").at("production")
    s.turn_over(0, "Egyptians").play(PlayEvent(0, 53, card("Egyptians"), ""))
    assert set(s.legal(0)) == {EventPick(0, "area:Egypt"), EventPick(0, "area:Nubia")}
    assert heading(GAME.view(s.state, 0), 0).endswith("Janissaries: choose where a free Spear goes")
    s.illegal(EventPick(0, "area:Persis"), "bad_pick")
    s.play(EventPick(0, "area:Nubia"), EventPick(0, "area:Nubia"))
    e = s.empire_of("Egyptians")
    assert (e.count("Egypt", "Spear"), e.count("Nubia", "Spear")) == (1, 3)
    assert s.go_stage(0) == "build", "the Production goes on"


@pytest.mark.parametrize(("number", "name"),
                         [(76, "Banner armies"), (91, "Horse breeding"), (107, "Gauchos")])
def test_one_free_cavalry_in_the_only_area_needs_no_question(number: int, name: str) -> None:
    """1 free cavalry: at level 3 the Chariot (Lt. Horse from 6, L2828-2841); the Egyptians hold Egypt only,
    so it goes there without a question."""
    assert load_deck().cards[number].event.name == name
    s = egypt(number).play(PlayEvent(0, number, card("Egyptians"), ""))
    assert s.empire_of("Egyptians").count("Egypt", "Chariot") == 1
    assert s.go_stage(0) == "build"
    words = [describe_event(e, NAMES) for e in s.events if e.type == "event_unit_placed"]
    assert words == ["The Egyptians place 1 free unit in Egypt."], "others read no unit type (fog of war)"


@pytest.mark.parametrize(("number", "count"), [(41, 2), (95, 1)])
def test_horde_and_steppe_horsemen_as_the_manoeuvre_begins(number: int, count: int) -> None:
    """Horde (2) and Steppe horsemen (1): free cavalry as the mover's go begins. The Romans at level 10 may
    have a Chariot (3), a Lt. Horse (6) or a Hs. Archer (8): the best is the Hs. Archer. Placed before any
    unit moves, they may move this go."""
    s = Scenario(players=2)
    s.empire("Romans", owner=0, progress=10, units={"Latium": {"Spear": 3}, "Campania": {"Spear": 2}})
    s.empire("Parthians", owner=1, progress=10, units={"Tuscany": {"Spear": 1}})
    s.hand(0, number).marker(0, "manoeuvre", "Romans").at("manoeuvre").turn_over(0, "Romans")
    assert plays(s) == [PlayEvent(0, number, card("Romans"), "")]
    s.play(PlayEvent(0, number, card("Romans"), ""))
    for _ in range(count):
        s.play(EventPick(0, "area:Campania"))
    assert s.empire_of("Romans").count("Campania", "Hs. Archer") == count
    assert MoveFrom(0, "Campania") in s.legal(0)


def test_the_greedy_player_takes_free_units() -> None:
    s = egypt(91)
    assert make_policy("greedy", 0).choose(s.state, 0) == PlayEvent(0, 91, card("Egyptians"), "")


def test_every_card_of_these_timings_on_ones_own_empire_is_playable_and_none_is_cancellable() -> None:
    """The count (issue 27's table): each card timed for Production, Trade or Destiny and played on one's own
    empire or any empire is playable in one's own go; no card of the deck cancels one of them (their cancel
    window is not opened in these goes)."""
    deck = load_deck().cards
    mine = [n for n, c in deck.items() if c.event.timing in ("production", "trade", "destiny")
            and c.event.target in ("own_empire", "any_empire")]
    # 17 Production, 8 Trade, 1 Destiny events; Corrupt administration, Closed country, Jolly Roger are
    # played on another player's empire
    assert len(mine) == 17 + 8 + 1 - 3
    assert all(own_events.playable(n, deck[n].event.timing) for n in mine)
    assert not any(cancels.cancellable(deck[n].event.name) for n in mine)
