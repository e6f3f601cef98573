"""7 Ages' standing orders as a decision (:mod:`engine.seven_ages.orders`): what ``orders`` offers a seat.

The table of tests/test_seven_ages_armed.py: Anna (seat 0) holds the Parthians and the cards named in each
test; Peter (seat 1) holds the Romans (Latium, Campania) and the Huns (Kazakh Steppe).
"""

from __future__ import annotations

from engine.core import Decision
from engine.seven_ages.cards import load_deck
from engine.seven_ages.civilisation_moves import Arm, Disarm
from engine.seven_ages.game import GAME
from tests.seven_ages_builder import Scenario, card
from tests.test_seven_ages_armed import (
    CLOSED,
    CORRUPT,
    GHAZI,
    HUNS,
    NAMES,
    NOMAD,
    PARTHIANS,
    PIRATE,
    ROMANS,
    event_card,
    table,
)

SCYTHIANS = card("Scythians")


def orders(s: Scenario, seat: int = 0) -> Decision:
    return GAME.orders(GAME.view(s.state, seat), seat, NAMES)


def test_a_card_that_takes_money_asks_which_of_your_empires_receives_it() -> None:
    """Pirate raid: "take up to 3 money"; Anna holds two empires, so each target is a group of two."""
    s = table(PIRATE)
    s.empire("Scythians", owner=0, progress=10, units={"Ukraine": {"Spear": 1}})
    made = orders(s)
    assert [(c.group, c.label, c.action) for c in made.choices] == [
        ("Arm Pirate raid on the Romans of Peter (Blue)", "Arm Pirate raid on the Romans, the money to the "
         "Parthians", Arm(0, PIRATE, ROMANS, "", PARTHIANS)),
        ("Arm Pirate raid on the Romans of Peter (Blue)", "Arm Pirate raid on the Romans, the money to the "
         "Scythians", Arm(0, PIRATE, ROMANS, "", SCYTHIANS)),
        ("Arm Pirate raid on the Huns of Peter (Blue)", "Arm Pirate raid on the Huns, the money to the "
         "Parthians", Arm(0, PIRATE, HUNS, "", PARTHIANS)),
        ("Arm Pirate raid on the Huns of Peter (Blue)", "Arm Pirate raid on the Huns, the money to the "
         "Scythians", Arm(0, PIRATE, HUNS, "", SCYTHIANS)),
    ]


def test_a_card_that_needs_nothing_more_is_one_choice_per_empire_saying_when_it_fires() -> None:
    s = table(CORRUPT, CLOSED, action="production")
    assert [(c.group, c.label) for c in orders(s).choices] == [
        ("", "Arm Corrupt administration on the Romans when their Production begins"),
        ("", "Arm Corrupt administration on the Huns when their Production begins"),
        ("", "Arm Closed country on the Romans when their Trade begins"),
        ("", "Arm Closed country on the Huns when their Trade begins"),
    ]


def test_an_empire_with_too_few_areas_is_not_offered_and_an_armed_card_may_be_withdrawn() -> None:
    """Nomad raid disorders 2 areas: the Huns hold 1. Arming it again replaces the order (the rules'
    reading), so the card stays offered beside its withdrawal."""
    s = table(NOMAD).play(Arm(0, NOMAD, ROMANS, "Campania,Latium"))
    made = orders(s)
    assert [(c.label, c.action) for c in made.choices] == [
        ("Arm Nomad raid on the Romans, disordering Campania and Latium",
         Arm(0, NOMAD, ROMANS, "Campania,Latium")),
        ("Withdraw Nomad raid on the Romans, disordering Campania and Latium", Disarm(0, NOMAD)),
    ]


def armed_by_the_rules() -> list[str]:
    """The events a player may arm, read from the card data (not from the code under test): those played on
    another player's empire in its Manoeuvre, Production or Trade go, in alphabetical order."""
    goes = {"manoeuvre", "production", "trade"}
    return sorted({c.event.name for c in load_deck().cards.values()
                   if c.event.target == "other_empire" and c.event.timing in goes})


def test_with_nothing_to_order_the_heading_says_why() -> None:
    able = armed_by_the_rules()
    # Border raid is armable now; Gold mine is played on one's own empire
    assert "Border raid" in able and "Gold mine" not in able
    assert orders(table(), 1).heading == (
        "You have no standing order to give: you hold none of the cards that can be armed "
        f"({', '.join(able[:-1])} and {able[-1]}) and have no order armed")
    lonely = Scenario(players=2)
    lonely.empire("Parthians", owner=0, progress=10, units={"Tuscany": {"Spear": 1}})
    lonely.hand(0, GHAZI).marker(0, "manoeuvre", "Parthians").first(0).at("manoeuvre")
    made = orders(lonely)
    assert made.choices == () and made.heading == (
        "You have no standing order to give: no other player has an empire in play to arm Ghazi raid "
        "against, and you have no order armed")
    assert orders(table(NOMAD).set(phase="over")).heading == "The game is over: there are no orders to give"


def test_a_label_too_long_for_a_button_keeps_every_name_without_the_verb() -> None:
    """Scourge of God on the Chinese Republic, two of the longest area names in the map: the full label
    would run past 100 characters."""
    scourge, chinese = event_card("Scourge of God"), card("Chinese Republic")
    s = Scenario(players=2)
    s.empire("Parthians", owner=0, progress=10, units={"Tuscany": {"Spear": 1}})
    s.empire("Chinese Republic", owner=1, progress=10, units={"Central Mediterranean": {"Spear": 1},
                                                               "Eastern Mediterranean": {"Spear": 1}})
    s.hand(0, scourge).marker(1, "manoeuvre", "Chinese Republic").first(1).at("manoeuvre")
    (made,) = orders(s).choices
    assert made.label == ("Scourge of God on the Chinese Republic: Central Mediterranean and Eastern "
                          "Mediterranean")
    assert made.action == Arm(0, scourge, chinese, "Central Mediterranean,Eastern Mediterranean")
    s.apply(made.action)  # the rules take it as offered
