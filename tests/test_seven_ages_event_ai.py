"""The greedy player's events found missing by the playout census (issue 27, item 9): it plays an event
where its rule of thumb gains (glory, money, the opponent's loss) and keeps it where it does not."""

from __future__ import annotations

from dataclasses import replace

from engine.seven_ages.ai import EVENT_ODDS, GreedyPolicy, RandomPolicy
from engine.seven_ages.civilisation_moves import PlayEvent
from engine.seven_ages.event_ai import civ_event
from tests.seven_ages_builder import Scenario, card
from tests.test_seven_ages_events_civilise import civilising, romans_and_etruscans
from tests.test_seven_ages_every_card import event
from tests.test_seven_ages_move_events import romans

CATARACT, NON_VIOLENCE = event("Cataract"), event("Non-violence")


def test_cataract_goes_where_the_glory_leader_would_come_in() -> None:
    """Latium borders Peter's Parthians in Tuscany; Peter is the only other player, so the leader."""
    s = romans(CATARACT)
    assert GreedyPolicy(1).choose(s.state, 0) == PlayEvent(0, CATARACT, 0, "Latium")


def test_cataract_is_kept_when_the_neighbour_is_not_the_leader() -> None:
    """Three players: carol (seat 2) leads in glory, and her empire is far away: Peter's Parthians next door
    are no reason to spend the card."""
    s = Scenario(players=3)
    s.empire("Romans", owner=0, progress=10, units={"Latium": {"Spear": 3}, "Campania": {"Spear": 2}})
    s.empire("Parthians", owner=1, progress=10, units={"Tuscany": {"Spear": 1}})
    s.empire("Huns", owner=2, progress=10, units={"Kazakh Steppe": {"Spear": 1}})
    s.hand(0, CATARACT).marker(0, "manoeuvre", "Romans").at("manoeuvre").turn_over(0, "Romans")
    s.state = s.state.with_player(replace(s.state.people[2], glory=3))
    assert PlayEvent(0, CATARACT, 0, "Latium") in s.legal(0)
    assert not isinstance(GreedyPolicy(1).choose(s.state, 0), PlayEvent)


def test_non_violence_earns_glory_on_the_empire_of_the_player_with_least() -> None:
    """Non-violence calms an area of another player's empire and gives its player 1 glory: alice plays it on
    carol's empire (0 glory) rather than bob's (2)."""
    t = romans_and_etruscans()
    t.empire("Huns", 2, 12, {"Kazakh Steppe": {"Spear": 1}})
    t.disorder("Tuscany", "Kazakh Steppe")
    t.state = t.state.with_player(replace(t.state.people[1], glory=2))
    t.hand(0, NON_VIOLENCE)
    civilising(t)
    plays = [a for a in t.legal(0) if isinstance(a, PlayEvent)]
    assert {a.target for a in plays} >= {card("Etruscans"), card("Huns")}
    chosen = civ_event(t.state, 0, plays)
    assert isinstance(chosen, PlayEvent) and (chosen.card, chosen.target) == (NON_VIOLENCE, card("Huns"))


def test_the_random_player_plays_an_offered_event_about_one_decision_in_event_odds() -> None:
    """In Civilise an event is one choice among dozens (cities, religions, leaders...): drawn uniformly it was
    almost never played. Now about one decision in EVENT_ODDS that offers one plays it; the same seed, the
    same move."""
    t = romans_and_etruscans()
    t.disorder("Tuscany")
    # conflict events, not played in Civilise: their cards offer only artefacts
    t.hand(0, NON_VIOLENCE, *(event(n) for n in ("Berserkers", "Greek fire", "Flower war", "Khalsa")))
    civilising(t)
    legal = t.legal(0)
    offered = sum(isinstance(a, PlayEvent) for a in legal)
    assert offered * 4 < len(legal), "the events are a small part of the decision"
    moves = [RandomPolicy(seed).choose(t.state, 0) for seed in range(200)]
    assert all(m in legal for m in moves)
    plays = sum(isinstance(m, PlayEvent) for m in moves)
    uniform = 200 * offered // len(legal)  # what a uniform draw over the legal moves would give
    assert plays >= uniform + 200 // EVENT_ODDS // 2
    assert moves == [RandomPolicy(seed).choose(t.state, 0) for seed in range(200)]


def test_assassins_go_after_a_leader_of_any_other_player() -> None:
    """Three players; carol (seat 2) leads in glory but has no leader; bob's Etruscans have a Tactician in
    Tuscany, next to alice's Romans: the Assassins go after it (a leader lost is the opponent's loss)."""
    t = romans_and_etruscans(leaders=(("Tactician", "Tuscany"),))
    t.empire("Huns", 2, 12, {"Kazakh Steppe": {"Spear": 1}})
    t.state = t.state.with_player(replace(t.state.people[2], glory=3))
    t.hand(0, event("Assassins"))
    civilising(t)
    plays = [a for a in t.legal(0) if isinstance(a, PlayEvent)]
    assert plays, "the Tactician is within reach"
    chosen = civ_event(t.state, 0, plays)
    assert isinstance(chosen, PlayEvent) and (chosen.card, chosen.target) == (event("Assassins"),
                                                                              card("Etruscans"))
