"""The mover's own manoeuvre events (issue 26, item 5): played as the first decision of its go.

"Some events can be played at other times during a turn. This will be stated on the card." (L865). Our
cards (``data/seven_ages/cards.yaml``, events ours) that change movement:

- Royal road (card 30), Star navigation (43), Outrigger (90), Elephants over the Alps (92): "+1 movement
  for this manoeuvre" (``move_bonus_once``, amount 1); Blitzkrieg (33), Manifest destiny (52): +2;
- Long march (106): +1 and "remove disorder from 1 area" (``remove_disorder``, count 1);
- Cataract (28), played on an area: "entering the target area costs 2 more this turn" (``move_cost``).

Movement (data README, L604-608): spears move 2; fertile areas cost 1 to enter, mountains 2.
Latium and Campania are fertile, Calabria (next to Campania) is a mountain.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engine.seven_ages.ai import make_policy
from engine.seven_ages.civilisation_moves import PlayEvent
from engine.seven_ages.conflict_moves import Commit, CommitDone, FightIn, WindowPass
from engine.seven_ages.decision import heading
from engine.seven_ages.game import GAME
from engine.seven_ages.manoeuvre_moves import LAND, EndMovement, MoveFrom, MoveTo, MoveUnits, StopHere
from engine.seven_ages.movement import step_cost
from engine.seven_ages.text import describe_event
from engine.seven_ages.window import EVENT
from tests.seven_ages_builder import Scenario, card, cards_of_value

ROYAL_ROAD, BLITZKRIEG, CATARACT, CONQUISTADORS, LONG_MARCH = 30, 33, 28, 50, 106
SUMERIANS = 2  # a card whose event is played in Civilise only
NAMES = ("Anna (Red)", "Peter (Blue)")


def romans(*hand: int, players: int = 2) -> Scenario:
    """Anna's Romans in Latium (3 spears) and Campania (2), Peter's Parthians in Tuscany, next to Latium;
    Anna holds ``hand`` and turns her Manoeuvre marker on the Romans."""
    s = Scenario(players=players)
    s.empire("Romans", owner=0, progress=10, units={"Latium": {"Spear": 3}, "Campania": {"Spear": 2}})
    s.empire("Parthians", owner=1, progress=10, units={"Tuscany": {"Spear": 1}})
    s.hand(0, *hand).marker(0, "manoeuvre", "Romans").at("manoeuvre")
    return s.turn_over(0, "Romans")


def events(s: Scenario) -> list[PlayEvent]:
    return [a for a in s.legal(0) if isinstance(a, PlayEvent)]


def take_one_spear(s: Scenario, area: str) -> Scenario:
    return s.play(MoveFrom(0, area), MoveUnits(0, "Spear", 1))


def reachable_after(s: Scenario, first: str) -> set[str]:
    """Where a spear moving on from ``first`` may go next."""
    s.play(MoveTo(0, first))
    return {a.area for a in s.legal(0) if isinstance(a, MoveTo)}


def test_royal_road_gives_every_unit_of_the_go_one_more_point() -> None:
    """Royal road: "+1 movement for this manoeuvre". Latium -> Campania (1) -> Calabria (2) is 3 points:
    beyond a spear's 2, within 2 + 1."""
    plain = take_one_spear(romans(), "Latium")
    assert "Calabria" not in reachable_after(plain, "Campania")
    s = romans(ROYAL_ROAD)
    roman = card("Romans")
    assert events(s) == [PlayEvent(0, ROYAL_ROAD, roman, "")], "the first decision offers the card"
    s.play(PlayEvent(0, ROYAL_ROAD, roman, ""))
    assert ROYAL_ROAD not in s.state.people[0].hand and s.state.discard[-1] == ROYAL_ROAD
    take_one_spear(s, "Latium")
    assert "1 Spear in Latium, 3 movement points left" in heading(GAME.view(s.state, 0), 0)
    assert "Calabria" in reachable_after(s, "Campania")
    s.play(MoveTo(0, "Calabria"), StopHere(0))
    assert s.empire_of("Romans").count("Calabria") == 1
    words = [describe_event(e, NAMES) for e in s.events if e.type in ("event_played", "move_bonus")]
    assert words == ["Anna (Red) plays the event Royal road on the Romans.",
                     "The Romans gain 1 movement point for every unit they move this manoeuvre."]


def test_any_number_of_cards_add_up_and_the_bonus_ends_with_the_go() -> None:
    """L861: "You may play any number of cards". Royal road (+1) and Blitzkrieg (+2) give a spear 5 points
    this go; the Huns' go that follows (without option 5, Anna's next marker) moves with 2."""
    s = Scenario(players=2)
    s.empire("Romans", owner=0, progress=10, units={"Latium": {"Spear": 3}})
    s.empire("Huns", owner=0, progress=10, units={"Kazakh Steppe": {"Spear": 3}})
    s.hand(0, ROYAL_ROAD, BLITZKRIEG).marker(0, "manoeuvre", "Romans").marker(0, "manoeuvre", "Huns")
    s.at("manoeuvre").turn_over(0, "Romans")
    roman = card("Romans")
    s.play(PlayEvent(0, BLITZKRIEG, roman, ""))
    assert events(s) == [PlayEvent(0, ROYAL_ROAD, roman, "")], "the first decision is asked again"
    s.play(PlayEvent(0, ROYAL_ROAD, roman, ""))
    assert events(s) == []
    take_one_spear(s, "Latium")
    assert "5 movement points left" in heading(GAME.view(s.state, 0), 0)
    s.play(StopHere(0), EndMovement(0))  # put back unmoved, then the go ends
    s.turn_over(0, "Huns").play(MoveFrom(0, "Kazakh Steppe"), MoveUnits(0, "Spear", 1))
    assert "2 movement points left" in heading(GAME.view(s.state, 0), 0)


def test_events_come_before_any_unit_moves() -> None:
    """Offered as the go's first decision: once a unit has moved the card stays in hand."""
    s = romans(ROYAL_ROAD)
    take_one_spear(s, "Latium").play(MoveTo(0, "Campania"), StopHere(0))
    assert events(s) == []
    s.illegal(PlayEvent(0, ROYAL_ROAD, card("Romans"), ""), "events_first")


def test_the_choice_is_never_listed_without_a_card_and_tells_nobody_about_the_hand() -> None:
    """A mover without a manoeuvre event has the same first decision as ever; and whether it holds one
    shows in no other seat's view (no prompt of its own, the same go stage)."""
    with_card, without = romans(ROYAL_ROAD), romans(SUMERIANS)
    assert events(without) == []
    assert [a for a in with_card.legal(0) if not isinstance(a, PlayEvent)] == without.legal(0)
    assert GAME.view(with_card.state, 1) == GAME.view(without.state, 1)
    assert GAME.view(with_card.state, None) == GAME.view(without.state, None)


def conquest(*hand: int) -> Scenario:
    """Anna's Romans (3 spears in Latium) against Peter's Parthians (3 spears in Tuscany, next door), the
    deck's top cards of known values (none held), Anna holding ``hand`` as her Romans' go begins."""
    s = Scenario(players=2)
    s.empire("Romans", owner=0, progress=10, units={"Latium": {"Spear": 3}})
    s.empire("Parthians", owner=1, progress=10, units={"Tuscany": {"Spear": 3}})
    s.hand(0, *hand).marker(0, "manoeuvre", "Romans").at("manoeuvre").turn_over(0, "Romans")
    avoid = (*(e.card for e in s.state.empires), *hand)
    top = cards_of_value(3, 3, 2, 5, avoid=avoid)  # round 1: 3 against 3; round 2: 2 against 5
    s.state = replace(s.state, deck=(*top, *(c for c in s.state.deck if c not in top)))
    return s


def fight_two_rounds(s: Scenario) -> list[dict[str, Any]]:
    """Two spears into Tuscany, one committed a side each round, every window passed: the two tallies."""
    s.play(MoveFrom(0, "Latium"), MoveUnits(0, "Spear", 2), MoveTo(0, "Tuscany"), StopHere(0),
           EndMovement(0), FightIn(0, "Tuscany"))
    for _ in range(2):
        for seat in (0, 1):
            s.play(Commit(seat, "Spear", 1), CommitDone(seat))
        while (asked := next((p for p in s.state.pending if p.kind == EVENT), None)) is not None:
            s.play(WindowPass(asked.seat))
    return s.of_type("conflict_tallied")


def test_conquistadors_moves_one_further_and_adds_one_in_the_first_round() -> None:
    """Conquistadors (card 50, manoeuvre, on one's own empire): "+1 movement for this manoeuvre" and
    "+1 to this side's total this round". Played as the go begins (the only time both its numbers can
    count), the +1 is held for the first conflict round the Romans fight this go: their round-1 total is the
    same round's total without the card plus 1 (the events' part 1), the Parthians' is unchanged, and
    round 2 counts no bonus."""
    plain, s = conquest(SUMERIANS), conquest(CONQUISTADORS)
    roman = card("Romans")
    assert events(s) == [PlayEvent(0, CONQUISTADORS, roman, "")], "offered with the go's first decision"
    s.play(PlayEvent(0, CONQUISTADORS, roman, ""))
    assert CONQUISTADORS not in s.state.people[0].hand and s.state.discard[-1] == CONQUISTADORS
    take_one_spear(s, "Latium")
    assert "3 movement points left" in heading(GAME.view(s.state, 0), 0), "a spear's 2, + 1"
    s.play(StopHere(0))
    before, after = fight_two_rounds(plain), fight_two_rounds(s)
    assert [r["round"] for r in after] == [1, 2]
    first = [int(side["total"]) for side in after[0]["sides"]]
    assert first == [int(before[0]["sides"][0]["total"]) + 1, int(before[0]["sides"][1]["total"])]
    assert after[0]["sides"][0]["parts"].get("bonus") == 1
    assert "bonus" not in after[0]["sides"][1]["parts"]
    assert "bonus" not in after[1]["sides"][0]["parts"], "one round only"
    assert [int(x["total"]) for x in after[1]["sides"]] == [int(x["total"]) for x in before[1]["sides"]]
    words = [describe_event(e, NAMES) for e in s.events
             if e.type in ("event_played", "move_bonus", "conflict_bonus_held", "held_bonus_counts")]
    assert words == ["Anna (Red) plays the event Conquistadors on the Romans.",
                     "The Romans gain 1 movement point for every unit they move this manoeuvre.",
                     "The Romans will add 1 to their total in the first conflict round they fight this "
                     "manoeuvre.",
                     "The Romans add 1 to their total this round (an event)."]


def test_conquistadors_bonus_ends_with_the_go_unfought() -> None:
    """A go that fights no conflict wastes the held +1: the Romans' next go fights without it."""
    s = conquest(CONQUISTADORS)
    s.play(PlayEvent(0, CONQUISTADORS, card("Romans"), ""), EndMovement(0)).end_turn()
    s.marker(0, "manoeuvre", "Romans").at("manoeuvre").turn_over(0, "Romans")
    tallies = fight_two_rounds(s)
    assert "bonus" not in tallies[0]["sides"][0]["parts"]


def test_the_greedy_player_plays_conquistadors_before_an_attack_only() -> None:
    """The greedy player plays Conquistadors as its go begins when it means to attack (the +1 then
    counts in a round): its Romans' 3 spears in Latium against one Parthian spear in Tuscany. Against 3
    Parthian spears (no attack worth it by the odds) it keeps the card."""
    greedy = make_policy("greedy", 1)
    s = romans(CONQUISTADORS)
    assert greedy.choose(s.state, 0) == PlayEvent(0, CONQUISTADORS, card("Romans"), "")
    s.play(PlayEvent(0, CONQUISTADORS, card("Romans"), ""))
    assert greedy.choose(s.state, 0) == MoveFrom(0, "Latium"), "then the attack"
    assert not isinstance(greedy.choose(conquest(CONQUISTADORS).state, 0), PlayEvent)


def test_a_civilise_event_is_refused_in_a_manoeuvre() -> None:
    s = romans(SUMERIANS)
    s.illegal(PlayEvent(0, SUMERIANS, card("Romans"), ""), "event_not_now")
    s.illegal(PlayEvent(0, ROYAL_ROAD, card("Romans"), ""), "not_in_hand")


def test_long_march_also_removes_the_disorder_of_one_area() -> None:
    """Long march: "+1 movement for this manoeuvre" and "remove disorder from 1 area": an area of the
    empire's, or none."""
    s = Scenario(players=2)
    s.empire("Romans", owner=0, progress=10, units={"Latium": {"Spear": 3}, "Campania": {"Spear": 2}})
    s.disorder("Latium").disorder("Campania")
    s.hand(0, LONG_MARCH).marker(0, "manoeuvre", "Romans").at("manoeuvre").turn_over(0, "Romans")
    roman = card("Romans")
    assert events(s) == [PlayEvent(0, LONG_MARCH, roman, a) for a in ("Campania", "Latium", "")]
    s.play(PlayEvent(0, LONG_MARCH, roman, "Campania"))
    assert not s.area("Campania").disorder and s.area("Latium").disorder
    take_one_spear(s, "Latium")
    assert "3 movement points left" in heading(GAME.view(s.state, 0), 0)
    removed = next(e for e in s.events if e.type == "event_disorder_removed")
    assert describe_event(removed, NAMES) == "The disorder in Campania ends."


def test_cataract_makes_an_area_dearer_for_everyone_until_the_turn_ends() -> None:
    """Cataract: "entering the target area costs 2 more this turn". Played by Anna as her Romans' go
    begins on Latium, next to Peter's Parthians: her own spear from Campania can no longer enter Latium
    (1 + 2 > 2), nor can Peter's units enter it more cheaply; the next turn it costs 1 again."""
    s = romans(CATARACT)
    assert events(s) == [PlayEvent(0, CATARACT, 0, "Latium")], "Campania borders no other empire"
    assert "Latium" in {a.area for a in take_one_spear(romans(CATARACT), "Campania").legal(0)
                        if isinstance(a, MoveTo)}
    s.play(PlayEvent(0, CATARACT, 0, "Latium"))
    take_one_spear(s, "Campania")
    err = s.illegal(MoveTo(0, "Latium"), "no_points")
    assert err.message == "Entering Latium costs 3 movement points: the units have 2 left."
    parthians = s.empire_of("Parthians")
    assert step_cost(s.state, parthians, LAND, "Latium", False) == 3
    words = [describe_event(e, NAMES) for e in s.events if e.type in ("event_played", "area_costs_more")]
    assert words == ["Anna (Red) plays the event Cataract in Latium.",
                     "Until the end of the turn, entering Latium costs 2 movement points more."]
    s.play(StopHere(0), EndMovement(0)).end_turn()
    assert step_cost(s.state, s.empire_of("Parthians"), LAND, "Latium", False) == 1


def test_the_greedy_player_marches_to_end_a_disorder_and_keeps_a_plain_bonus() -> None:
    """The greedy player plays Long march on its disordered area (an area's income is 0 while
    disordered, L483), and keeps Royal road (a card in hand is a future empire, a bid or a trade card,
    worth more than a point of movement to a player that moves one area at a time)."""
    s = Scenario(players=2)
    s.empire("Romans", owner=0, progress=10, units={"Latium": {"Spear": 3}, "Campania": {"Spear": 2}})
    s.disorder("Campania")
    s.hand(0, LONG_MARCH, ROYAL_ROAD).marker(0, "manoeuvre", "Romans").at("manoeuvre").turn_over(0, "Romans")
    greedy = make_policy("greedy", 1)
    assert greedy.choose(s.state, 0) == PlayEvent(0, LONG_MARCH, card("Romans"), "Campania")
    s.play(PlayEvent(0, LONG_MARCH, card("Romans"), "Campania"))
    assert not isinstance(greedy.choose(s.state, 0), PlayEvent)
