"""Pre-armed orders (issue 27, item 3): an event played in another empire's go by a hidden standing order.

Anna (seat 0) holds raids timed "manoeuvre, another player's empire" (``data/seven_ages/cards.yaml``):
Ghazi raid disorders 1 area, Nomad raid 2, Raiders from the steppe 1 and takes 2 money. Peter (seat 1)
holds the Romans (Latium, Campania) and the Huns (Kazakh Steppe), each with a Manoeuvre marker.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.seven_ages.actions import Done, TurnMarker
from engine.seven_ages.ai import GreedyPolicy
from engine.seven_ages.cards import load_deck
from engine.seven_ages.civilisation_moves import Arm, Disarm
from engine.seven_ages.conflict_moves import WindowPass, WindowPlay
from engine.seven_ages.decision import heading
from engine.seven_ages.game import GAME
from engine.seven_ages.manoeuvre_moves import EndMovement, MoveFrom, MoveTo, MoveUnits, StopHere
from engine.seven_ages.secrets import private_variants
from engine.seven_ages.spec import SPEC
from engine.seven_ages.state import SevenState
from engine.seven_ages.text import describe_event
from engine.seven_ages.window import EVENT
from tests.seven_ages_builder import Scenario, card, cards_of_value

NAMES = ("Anna (Red)", "Peter (Blue)")


def event_card(name: str) -> int:
    return next(c.number for c in load_deck().cards.values() if c.event.name == name)


GHAZI, NOMAD = event_card("Ghazi raid"), event_card("Nomad raid")
RAIDERS, PIRATE = event_card("Raiders from the steppe"), event_card("Pirate raid")
CORRUPT, CLOSED = event_card("Corrupt administration"), event_card("Closed country")
JOLLY = event_card("Jolly Roger")
BORDER, ISLAND = event_card("Border raid"), event_card("Island isolation")  # the second cancels the first
GOLD = event_card("Gold mine")  # played on one's own empire in Civilise: never armed
ROMANS, HUNS, PARTHIANS = card("Romans"), card("Huns"), card("Parthians")
PLAIN = cards_of_value(2, avoid=(BORDER, ISLAND))[0]
"""A card that cancels nothing: what Peter holds when he holds no Island isolation."""


def table(*hand: int, take_that: bool = False, action: str = "manoeuvre") -> Scenario:
    """Peter's Romans and Huns, each with a marker of ``action``; Anna's Parthians (2 money); Anna holds
    ``hand``."""
    s = Scenario(players=2, options={"take_that": True} if take_that else None)
    s.empire("Parthians", owner=0, progress=10, money=2, units={"Tuscany": {"Spear": 1}})
    s.empire("Romans", owner=1, progress=10, money=5,
             units={"Latium": {"Spear": 3}, "Campania": {"Spear": 2}})
    s.empire("Huns", owner=1, progress=10, units={"Kazakh Steppe": {"Spear": 3}})
    s.hand(0, *hand).marker(1, action, "Romans").marker(1, action, "Huns").first(1)
    return s.at(action)


def words(s: Scenario, *types: str) -> list[str | None]:
    return [describe_event(e, NAMES) for e in s.events if e.type in types]


def test_an_armed_raid_fires_as_the_named_empire_manoeuvres() -> None:
    s = table(GHAZI)
    result = s.apply(Arm(0, GHAZI, ROMANS, "Latium"))
    assert [e.audience for e in result.events] == [(0,)], "only Anna is told"
    assert describe_event(result.events[0], NAMES) == \
        "Armed: Ghazi raid on the Romans when they manoeuvre, disordering Latium."
    assert GHAZI in s.state.people[0].hand, "the card stays in the hand until it fires"
    assert not s.area("Latium").disorder
    s.turn_over(1, "Romans")
    assert s.area("Latium").disorder and not s.area("Campania").disorder
    assert GHAZI not in s.state.people[0].hand and s.state.discard[-1] == GHAZI
    assert s.state.people[0].armed == ()
    played = [e for e in s.events if e.type == "armed_played"]
    assert len(played) == 1 and played[0].audience == "public"
    assert words(s, "armed_played") == \
        ["Anna (Red) plays Ghazi raid on the Romans as they manoeuvre, aimed at Latium."]


def test_raiders_from_the_steppe_disorder_and_take_money() -> None:
    s = table(RAIDERS).play(Arm(0, RAIDERS, ROMANS, "Campania"))
    s.turn_over(1, "Romans")
    assert s.area("Campania").disorder
    assert s.empire_of("Romans").money == 3  # 5 less the card's 2


def test_an_order_waits_for_its_own_empire_and_action() -> None:
    s = table(GHAZI).play(Arm(0, GHAZI, HUNS, "Kazakh Steppe"))
    s.turn_over(1, "Romans")  # another empire of the same player: nothing
    assert not s.of_type("armed_played") and GHAZI in s.state.people[0].hand
    assert s.state.people[0].armed == ((GHAZI, HUNS, "Kazakh Steppe", 0),)


def test_an_order_waits_through_another_action() -> None:
    s = Scenario(players=2)
    s.empire("Parthians", owner=0, progress=10, units={"Tuscany": {"Spear": 1}})
    s.empire("Romans", owner=1, progress=10, money=5, units={"Latium": {"Spear": 3}})
    s.hand(0, GHAZI).marker(1, "production", "Romans").first(1).at("production")
    s.play(Arm(0, GHAZI, ROMANS, "Latium")).turn_over(1, "Romans")
    assert not s.of_type("armed_played") and not s.area("Latium").disorder
    assert s.state.people[0].armed == ((GHAZI, ROMANS, "Latium", 0),)


def test_nomad_raid_names_two_areas_and_disorders_those_still_open() -> None:
    s = table(NOMAD).play(Arm(0, NOMAD, ROMANS, "Campania,Latium")).disorder("Latium")
    s.turn_over(1, "Romans")
    assert not s.area("Campania").disorder, "Island isolation cancels it: its window comes first (L875)"
    pass_windows(s)
    assert s.area("Campania").disorder and s.of_type("armed_played")
    assert words(s, "armed_played") == \
        ["Anna (Red) plays Nomad raid on the Romans as they manoeuvre, aimed at Campania."], \
        "named to all: the areas it is played on, not the one already in disorder"


def test_a_card_gone_before_the_moment_drops_the_order_told_to_its_owner_alone() -> None:
    s = table(GHAZI).play(Arm(0, GHAZI, ROMANS, "Latium"))
    s.hand(0)  # discarded meanwhile (another event's discard, a Destiny)
    s.turn_over(1, "Romans")
    assert not s.area("Latium").disorder and not s.of_type("armed_played")
    dropped = [e for e in s.events if e.type == "order_dropped"]
    assert [e.audience for e in dropped] == [(0,)]
    assert words(s, "order_dropped") == \
        ["Your armed Ghazi raid on the Romans was not played: the card is no longer in your hand."]
    assert s.state.people[0].armed == ()


def test_an_order_whose_areas_are_all_in_disorder_is_dropped() -> None:
    s = table(GHAZI).play(Arm(0, GHAZI, ROMANS, "Latium")).disorder("Latium")
    s.turn_over(1, "Romans")
    assert GHAZI in s.state.people[0].hand and not s.of_type("armed_played")
    assert words(s, "order_dropped") == ["Your armed Ghazi raid on the Romans was not played: none of the "
                                         "areas you named is theirs and out of disorder any more."]


def test_with_option_8_an_order_on_an_empire_out_of_range_is_dropped() -> None:
    """L1224: with Take that!, an event played outside one's own Civilise needs the target within Range.
    Anna's Parthians in Tuscany reach the Romans next door in Latium, not the Huns on the Kazakh Steppe."""
    s = table(GHAZI, take_that=True).play(Arm(0, GHAZI, HUNS, "Kazakh Steppe"))
    s.turn_over(1, "Huns")
    assert not s.area("Kazakh Steppe").disorder and GHAZI in s.state.people[0].hand
    assert words(s, "order_dropped") == ["Your armed Ghazi raid on the Huns was not played: none of your "
                                         "empires has it within Range (option 8, Take that!, L1224)."]
    near = table(GHAZI, take_that=True).play(Arm(0, GHAZI, ROMANS, "Latium"))
    near.turn_over(1, "Romans")
    assert near.of_type("armed_played") and near.area("Latium").disorder


@pytest.mark.parametrize(("action", "order"), [
    ("manoeuvre", Arm(0, GHAZI, ROMANS, "Latium")),
    ("manoeuvre", Arm(0, PIRATE, ROMANS, "", PARTHIANS)),
    ("production", Arm(0, CORRUPT, ROMANS, "")),
    ("trade", Arm(0, CLOSED, ROMANS, "")),
    ("trade", Arm(0, JOLLY, ROMANS, "", PARTHIANS)),
])
def test_others_see_nothing_of_an_order(action: str, order: Arm) -> None:
    """Two states differing only in Anna's armed orders: Peter and a spectator see the same views and get the
    same moves and prompts; Anna sees her order."""
    s = table(order.card, action=action).play(order)
    without = s.state.with_player(replace(s.state.people[0], armed=()))
    for viewer in (1, None):
        assert GAME.view(s.state, viewer) == GAME.view(without, viewer)
    assert GAME.legal_actions(s.state, 1) == GAME.legal_actions(without, 1)
    assert heading(GAME.view(s.state, 1), 1) == heading(GAME.view(without, 1), 1)
    mine, gone = GAME.view(s.state, 0)["you"], GAME.view(without, 0)["you"]
    assert mine is not None and gone is not None
    areas = [order.areas] if order.areas else []
    assert mine["armed"] == [{"card": order.card, "empire": ROMANS, "areas": areas, "to": order.to}]
    assert gone["armed"] == []


def test_private_variants_vary_the_orders() -> None:
    s = table(GHAZI).play(Arm(0, GHAZI, ROMANS, "Latium"))
    armed = {v.people[0].armed for v in private_variants(s.state, 0)}
    assert () in armed and any(o and o[0][0] != GHAZI for o in armed)


def held(state: SevenState) -> tuple[int, ...]:
    """The part of ``hidden_draws`` the seats hold: two hand sizes, then two counts of armed orders."""
    return GAME.hidden_draws(state)[-4:]


def test_undo_cannot_cross_a_fire_nor_an_arming() -> None:
    plain = table(GHAZI)
    before = plain.state
    plain.turn_over(1, "Romans")
    assert held(before) == held(plain.state) == (1, 0, 0, 0), "no order: no hand nor order changed"
    s = table(GHAZI)
    unarmed = s.state
    arm = Arm(0, GHAZI, ROMANS, "Latium")
    result = s.apply(arm)
    assert not GAME.undoable(unarmed, arm, result), "disarm withdraws an order; undo does not"
    assert held(s.state) == (1, 0, 1, 0), "the order is counted as it is armed"
    assert GAME.hidden_draws(unarmed) != GAME.hidden_draws(s.state)
    s.turn_over(1, "Romans")
    assert held(s.state) == (0, 0, 0, 0), "the fire moved the card and the order: no undo across it"


def test_disarm_withdraws_the_order_and_keeps_the_card() -> None:
    s = table(GHAZI).play(Arm(0, GHAZI, ROMANS, "Latium"), Disarm(0, GHAZI))
    assert s.state.people[0].armed == () and GHAZI in s.state.people[0].hand
    s.turn_over(1, "Romans")
    assert not s.area("Latium").disorder
    s.illegal(Disarm(0, GHAZI), "not_armed")


def test_arming_again_replaces_the_order() -> None:
    s = table(GHAZI).play(Arm(0, GHAZI, ROMANS, "Latium"), Arm(0, GHAZI, ROMANS, "Campania"))
    assert s.state.people[0].armed == ((GHAZI, ROMANS, "Campania", 0),)


def test_bad_orders_are_refused_with_one_sentence() -> None:
    s = table(GHAZI, NOMAD, GOLD)
    refusals = [
        s.illegal(Arm(0, RAIDERS, ROMANS, "Latium"), "not_in_hand"),
        s.illegal(Arm(0, GOLD, ROMANS, "Latium"), "not_armable"),
        s.illegal(Arm(0, GHAZI, card("Parthians"), "Tuscany"), "bad_target"),
        s.illegal(Arm(0, GHAZI, card("Vikings"), "Latium"), "bad_target"),
        s.illegal(Arm(0, NOMAD, ROMANS, "Latium"), "bad_areas"),
        s.illegal(Arm(0, NOMAD, ROMANS, "Latium,Latium"), "bad_areas"),
        s.illegal(Arm(0, GHAZI, ROMANS, "Tuscany"), "bad_areas"),
        s.illegal(Arm(5, GHAZI, ROMANS, "Latium"), "not_seated"),
    ]
    for r in refusals:
        assert r.message.count(".") == 1 and r.message.endswith("."), r.message
        assert "Error" not in r.message and "[" not in r.message
    assert refusals[1].message == "Gold mine cannot be armed: only Border raid, Closed country, Corrupt " \
        "administration, Ghazi raid, Jolly Roger, Nomad raid, Pirate raid, Raiders from the steppe and " \
        "Scourge of God can be so far."
    assert refusals[4].message == "Nomad raid disorders 2 areas: name 2 different ones."


def test_no_step_offers_an_order_among_its_legal_moves() -> None:
    s = table(GHAZI)
    assert not [a for seat in (0, 1) for a in s.legal(seat) if isinstance(a, (Arm, Disarm))]


def test_an_order_survives_saving_and_loading() -> None:
    s = table(GHAZI).play(Arm(0, GHAZI, ROMANS, "Latium"))
    loaded = GAME.from_json(GAME.to_json(s.state))
    assert loaded.people[0].armed == ((GHAZI, ROMANS, "Latium", 0),)
    assert loaded == s.state


def test_the_owner_reads_the_order_with_the_hand_and_nobody_else_does() -> None:
    s = table(GHAZI).play(Arm(0, GHAZI, ROMANS, "Latium"))
    mine = GAME.WORDS.hand_text(GAME.view(s.state, 0), 0, NAMES)
    assert "Armed orders, hidden from the others: Ghazi raid on the Romans at their Manoeuvre, disordering " \
        "Latium." in mine
    assert "Armed" not in GAME.WORDS.hand_text(GAME.view(s.state, 1), 1, NAMES)


def test_the_moves_arrive_as_json_like_any_anytime_move() -> None:
    """The service decodes any anytime kind from JSON (no console command of its own yet)."""
    assert GAME.codec.decode({"kind": "arm", "player": 0, "card": GHAZI, "empire": ROMANS,
                              "areas": "Latium"}) == Arm(0, GHAZI, ROMANS, "Latium")
    assert GAME.codec.decode({"kind": "disarm", "player": 0, "card": GHAZI}) == Disarm(0, GHAZI)
    assert {"arm", "disarm"} <= SPEC.anytime_kinds


# -- the events that take money, and the Production and Trade ones ---------------------------------------
# Their cards are ours (source: ours in cards.yaml), timed "on another player's empire" (L861-867); the
# readings are in data/seven_ages/README.md, "Events played in another empire's go: pre-armed orders".

def test_pirate_raid_takes_3_money_for_the_empire_its_order_names() -> None:
    """Pirate raid, "take up to 3 money": the Romans have 5, Anna's Parthians 2."""
    s = table(PIRATE)
    result = s.apply(Arm(0, PIRATE, ROMANS, "", PARTHIANS))
    assert describe_event(result.events[0], NAMES) == \
        "Armed: Pirate raid on the Romans when they manoeuvre, the money to the Parthians."
    assert "Pirate raid on the Romans at their Manoeuvre, the money to the Parthians" in \
        GAME.WORDS.hand_text(GAME.view(s.state, 0), 0, NAMES)
    assert s.empire_of("Romans").money == 5, "nothing happens as it is armed"
    s.turn_over(1, "Romans")
    assert (s.empire_of("Romans").money, s.empire_of("Parthians").money) == (2, 5)
    assert words(s, "armed_played", "money_taken") == [
        "Anna (Red) plays Pirate raid on the Romans as they manoeuvre.",
        "The Parthians take 3 money from the Romans."]
    assert PIRATE not in s.state.people[0].hand and s.state.people[0].armed == ()


def test_pirate_raid_on_an_empire_with_no_money_is_dropped_and_the_card_kept() -> None:
    s = table(PIRATE).play(Arm(0, PIRATE, ROMANS, "", PARTHIANS))
    s.state = s.state.with_empire(replace(s.empire_of("Romans"), money=0))
    s.turn_over(1, "Romans")
    assert PIRATE in s.state.people[0].hand and not s.of_type("armed_played")
    assert [e.audience for e in s.events if e.type == "order_dropped"] == [(0,)]
    assert words(s, "order_dropped") == \
        ["Your armed Pirate raid on the Romans was not played: they have no money to take."]


def test_corrupt_administration_halves_the_income_before_it_is_collected() -> None:
    """Income 50%, rounded half up (L2197), collected so (nothing is paid then taken back): the Romans end
    with the usual money less the half they did not earn."""
    plain = table(action="production").turn_over(1, "Romans")
    usual = plain.of_type("income")[0]["amount"]
    s = table(CORRUPT, action="production")
    result = s.apply(Arm(0, CORRUPT, ROMANS, ""))
    assert describe_event(result.events[0], NAMES) == \
        "Armed: Corrupt administration on the Romans when their Production begins."
    s.turn_over(1, "Romans")
    half = (usual + 1) // 2
    assert s.of_type("income")[0]["amount"] == half
    assert s.empire_of("Romans").money == plain.empire_of("Romans").money - (usual - half)
    assert words(s, "armed_played", "income_changed") == [
        "Anna (Red) plays Corrupt administration on the Romans as their Production begins.",
        f"The Romans earn 50% of their income this Production: {half} money instead of {usual}."]
    assert s.go_stage(1) == "build", "the go goes on as usual"


def test_corrupt_administration_out_of_range_with_option_8_is_dropped() -> None:
    s = table(CORRUPT, take_that=True, action="production").play(Arm(0, CORRUPT, HUNS, ""))
    plain = table(take_that=True, action="production").turn_over(1, "Huns")
    s.turn_over(1, "Huns")
    assert s.of_type("income") == plain.of_type("income") and CORRUPT in s.state.people[0].hand
    assert words(s, "order_dropped") == ["Your armed Corrupt administration on the Huns was not played: none "
                                         "of your empires has it within Range (option 8, Take that!, L1224)."]


def test_closed_country_takes_the_trade_away_before_a_partner_is_chosen() -> None:
    s = table(CLOSED, action="trade").play(Arm(0, CLOSED, ROMANS, ""))
    s.turn_over(1, "Romans")
    assert s.state.go_of(1) is None and not s.of_type("trade_begins")
    assert words(s, "armed_played", "action_lost") == [
        "Anna (Red) plays Closed country on the Romans as their Trade begins.",
        "The Romans lose their Trade and progress this turn."]
    assert CLOSED not in s.state.people[0].hand
    s.turn_over(1, "Huns")  # Peter's other empire trades as usual
    assert s.of_type("trade_begins")


def test_closed_country_keeps_the_orders_after_it_waiting() -> None:
    """Anna's Jolly Roger on the same empire and action comes after (by card): the trade is gone, so it
    waits, armed, for another Trade of the Romans."""
    assert CLOSED < JOLLY
    s = table(CLOSED, JOLLY, action="trade").play(Arm(0, CLOSED, ROMANS, ""),
                                                  Arm(0, JOLLY, ROMANS, "", PARTHIANS))
    s.turn_over(1, "Romans")
    assert s.state.people[0].armed == ((JOLLY, ROMANS, "", PARTHIANS),)
    assert s.empire_of("Romans").money == 5 and JOLLY in s.state.people[0].hand


def test_closed_country_whose_card_is_gone_is_dropped() -> None:
    s = table(CLOSED, action="trade").play(Arm(0, CLOSED, ROMANS, ""))
    s.hand(0)
    s.turn_over(1, "Romans")
    assert s.of_type("trade_begins") and not s.of_type("action_lost")
    assert words(s, "order_dropped") == \
        ["Your armed Closed country on the Romans was not played: the card is no longer in your hand."]


def test_jolly_roger_takes_up_to_5_money_as_the_trade_begins() -> None:
    s = table(JOLLY, action="trade").play(Arm(0, JOLLY, ROMANS, "", PARTHIANS))
    s.turn_over(1, "Romans")
    assert (s.empire_of("Romans").money, s.empire_of("Parthians").money) == (0, 7)
    assert words(s, "armed_played", "money_taken", "trade_begins") == [
        "Anna (Red) plays Jolly Roger on the Romans as their Trade begins.",
        "The Parthians take 5 money from the Romans.",
        "The Romans trade with the Parthians."]


def test_jolly_roger_whose_receiver_changed_hands_is_dropped() -> None:
    s = table(JOLLY, action="trade").play(Arm(0, JOLLY, ROMANS, "", PARTHIANS))
    s.state = s.state.with_empire(replace(s.empire_of("Parthians"), owner=1))
    s.turn_over(1, "Romans")
    assert s.empire_of("Romans").money == 5 and JOLLY in s.state.people[0].hand
    assert words(s, "order_dropped") == ["Your armed Jolly Roger on the Romans was not played: the empire "
                                         "you named to receive the money is no longer yours in play."]


def test_the_receiver_is_named_only_for_money_and_must_be_ones_own() -> None:
    s = table(PIRATE, CLOSED)
    refusals = [
        s.illegal(Arm(0, PIRATE, ROMANS, ""), "bad_receiver"),
        s.illegal(Arm(0, PIRATE, ROMANS, "", HUNS), "bad_receiver"),
        s.illegal(Arm(0, CLOSED, ROMANS, "", PARTHIANS), "bad_receiver"),
        s.illegal(Arm(0, CLOSED, ROMANS, "Latium"), "bad_areas"),
    ]
    assert [r.message for r in refusals] == [
        "Pirate raid takes money: name one of your empires in play to receive it.",
        "Pirate raid takes money: name one of your empires in play to receive it.",
        "Closed country takes no money: name no empire to receive it.",
        "Closed country disorders no area: name none."]
    assert s.state.people[0].armed == ()
    assert GAME.codec.decode({"kind": "arm", "player": 0, "card": PIRATE, "empire": ROMANS, "areas": "",
                              "to": PARTHIANS}) == Arm(0, PIRATE, ROMANS, "", PARTHIANS)


# -- Border raid, the one armable event a card cancels (Island isolation) ---------------------------------
# "Events must be cancelled *immediately* they are played on their target, *before* any checks on their
# effectiveness" (L875): the cancel window runs as the order fires, before the victim's go begins, which
# waits at the marker step's stage "waiting" meanwhile. Card 19's event is Border raid ("manoeuvre, another
# player's empire, disorder 1 area"), card 84's Island isolation ("any time, cancels Border raid").

def asked(s: Scenario) -> list[int]:
    return [p.seat for p in s.state.pending if p.kind == EVENT]


def pass_windows(s: Scenario) -> None:
    """Every seat asked in an open cancel window passes, until none is asked."""
    while seats := asked(s):
        s.play(WindowPass(seats[0]))


def border(*peter: int, options: dict[str, bool] | None = None) -> Scenario:
    """Anna's Border raid armed on the Romans' Latium; Peter holds ``peter``; Peter's Romans manoeuvre."""
    s = table(BORDER) if options is None else table_with(options, BORDER)
    return s.hand(1, *peter).play(Arm(0, BORDER, ROMANS, "Latium"))


def table_with(options: dict[str, bool], *hand: int) -> Scenario:
    """:func:`table` with lobby options on, and Anna's Parthians given a Manoeuvre marker too."""
    s = Scenario(players=2, options=options)
    s.empire("Parthians", owner=0, progress=10, money=2, units={"Tuscany": {"Spear": 1}})
    s.empire("Romans", owner=1, progress=10, money=5,
             units={"Latium": {"Spear": 3}, "Campania": {"Spear": 2}})
    s.empire("Huns", owner=1, progress=10, units={"Kazakh Steppe": {"Spear": 3}})
    s.hand(0, *hand).marker(1, "manoeuvre", "Romans").marker(1, "manoeuvre", "Huns")
    return s.marker(0, "manoeuvre", "Parthians").first(1).at("manoeuvre")


def test_border_raid_waits_for_its_cancel_window_then_disorders() -> None:
    """L875: the window comes first; Peter, whose empire it is played on, is asked though he holds no
    cancel (being asked tells nothing of a hand), Anna is not asked about her own play; all passing, the
    raid stands and Latium is disordered; then the Romans' go begins."""
    s = border(PLAIN)
    s.turn_over(1, "Romans")
    assert s.go_stage(1) == "waiting" and asked(s) == [1]
    assert not s.area("Latium").disorder, "nothing of it happens before the window closes"
    assert words(s, "armed_played") == \
        ["Anna (Red) plays Border raid on the Romans as they manoeuvre, aimed at Latium."]
    assert s.legal(1) == [WindowPass(1, never=True), WindowPass(1)] and GAME.forced(s.state, 1) is None
    assert heading(GAME.view(s.state, 1), 1, NAMES) == \
        "Turn 1: Manoeuvre: Border raid may be cancelled now: play a card that cancels it, or pass"
    s.illegal(MoveFrom(1, "Latium"), "wrong_move")  # the go has not begun
    s.play(WindowPass(1))
    assert s.area("Latium").disorder and not s.area("Campania").disorder
    assert BORDER in s.state.discard and s.state.people[0].armed == ()
    assert s.go_stage(1) == "stack" and not s.state.pending


def test_island_isolation_cancels_border_raid() -> None:
    """L871: "Cancelled cards have no effect and are discarded": Peter plays Island isolation, Anna (asked
    again now that her raid is cancelled, L873) has nothing that cancels it, and Latium stays in order."""
    s = border(ISLAND)
    s.turn_over(1, "Romans")
    assert set(s.legal(1)) == {WindowPlay(1, ISLAND), WindowPass(1, never=True), WindowPass(1)}
    s.play(WindowPlay(1, ISLAND))
    assert asked(s) == [0] and s.legal(0) == [WindowPass(0)]  # her hand is empty now: nothing to ask
    s.play(WindowPass(0))
    assert not s.area("Latium").disorder
    assert BORDER in s.state.discard and ISLAND in s.state.discard
    assert words(s, "cancel_played", "event_cancelled") == [
        "Peter (Blue) plays Island isolation to cancel Border raid.",
        "Border raid, played by Anna (Red), is cancelled by Island isolation: it has no effect."]
    assert s.go_stage(1) == "stack"


def test_no_card_of_the_deck_cancels_island_isolation() -> None:
    """A counter-cancel (L873's Cyberthief) would reopen the chain; the deck has none for Island isolation,
    so Anna, holding every cancel of the deck, may only pass once it is played."""
    deck = load_deck().cards.values()
    cancellers = {x: [c.number for c in deck if any(e["code"] == "cancel_event" and x in e["events"]
                                                    for e in c.event.effects)]
                  for x in ("Border raid", "Island isolation")}
    assert cancellers == {"Border raid": [ISLAND], "Island isolation": []}
    every_cancel = [c.number for c in deck if any(e["code"] == "cancel_event" for e in c.event.effects)]
    s = table(BORDER, *(c for c in every_cancel if c != ISLAND)).hand(1, ISLAND)
    s.play(Arm(0, BORDER, ROMANS, "Latium")).turn_over(1, "Romans").play(WindowPlay(1, ISLAND))
    assert s.legal(0) == [WindowPass(0, never=True), WindowPass(0)]


def test_the_window_asks_from_the_first_player_clockwise() -> None:
    """Three seats, Cat (seat 2) First: Cat, then Anna (skipped: it is her raid), then Peter; Cat's Island
    isolation reopens the window, which goes on with Anna, then Peter (Cat skipped: her cancel is on top)."""
    s = Scenario(players=3)
    s.empire("Parthians", owner=0, progress=10, units={"Tuscany": {"Spear": 1}})
    s.empire("Romans", owner=1, progress=10, units={"Latium": {"Spear": 3}})
    s.hand(0, BORDER).hand(1, PLAIN).hand(2, ISLAND).marker(1, "manoeuvre", "Romans").first(2).at("manoeuvre")
    s.play(Arm(0, BORDER, ROMANS, "Latium")).turn_over(1, "Romans")
    order = []
    while who := asked(s):
        order.append(who[0])
        cancel = who[0] == 2 and ISLAND in s.state.people[2].hand
        s.play(WindowPlay(2, ISLAND) if cancel else WindowPass(who[0]))
    assert order == [2, 0, 1]
    assert not s.area("Latium").disorder and s.go_stage(1) == "stack"


def test_the_orders_after_it_wait_for_its_window() -> None:
    """L877: "Each event is implemented (or cancelled) before the next is played". Anna (First) fires Border
    raid; Cat's Ghazi raid on the same go fires only once Border raid's chain is over."""
    s = Scenario(players=3)
    s.empire("Parthians", owner=0, progress=10, units={"Tuscany": {"Spear": 1}})
    s.empire("Romans", owner=1, progress=10, units={"Latium": {"Spear": 3}, "Campania": {"Spear": 2}})
    s.hand(0, BORDER).hand(2, GHAZI).marker(1, "manoeuvre", "Romans").first(0).at("manoeuvre")
    s.play(Arm(0, BORDER, ROMANS, "Latium"), Arm(2, GHAZI, ROMANS, "Campania")).turn_over(1, "Romans")
    assert s.state.people[2].armed == ((GHAZI, ROMANS, "Campania", 0),) and not s.area("Campania").disorder
    while who := asked(s):
        s.play(WindowPass(who[0]))
    assert s.area("Latium").disorder and s.area("Campania").disorder
    assert not s.state.people[2].armed
    assert [e["card"] for e in s.of_type("armed_played")] == [BORDER, GHAZI]
    assert s.go_stage(1) == "stack"


def test_a_border_raid_whose_area_is_gone_is_dropped_and_the_go_begins_at_once() -> None:
    """Re-validated as it fires: the Romans left Latium since it was armed, so the order is dropped, told to
    Anna alone, the card kept; no window opens and the go begins."""
    s = border(PLAIN)
    s.state = s.state.with_empire(s.empire_of("Romans").add_units("Latium", "Spear", -3))
    s.turn_over(1, "Romans")
    assert not asked(s) and not s.of_type("armed_played") and BORDER in s.state.people[0].hand
    assert [e.audience for e in s.events if e.type == "order_dropped"] == [(0,)]
    assert words(s, "order_dropped") == ["Your armed Border raid on the Romans was not played: none of the "
                                         "areas you named is theirs and out of disorder any more."]
    assert s.go_stage(1) == "stack"


OPTIONS = [{}, {"enhanced_play": True}, {"pursuit": True}, {"quick_conflict": True}]
"""Manoeuvre's options: plain, interleaved (option 5), pursuit (6), quick conflict (13)."""


@pytest.mark.parametrize("options", OPTIONS, ids=["plain", "interleaved", "pursuit", "quick_conflict"])
def test_the_victims_go_then_proceeds_as_if_no_order_had_fired(options: dict[str, bool]) -> None:
    """With each of Manoeuvre's options: once Island isolation has cancelled the raid, Peter's go is the one
    he would have had without any order (the same moves, the same queue), and he moves as usual."""
    plain = table_with(options).hand(1, PLAIN).turn_over(1, "Romans")
    s = table_with(options, BORDER).hand(1, ISLAND).play(Arm(0, BORDER, ROMANS, "Latium"))
    s.turn_over(1, "Romans").play(WindowPlay(1, ISLAND), WindowPass(0))
    assert s.legal(1) == plain.legal(1) and s.state.queue == plain.state.queue
    assert s.state.goes[0].stage == plain.state.goes[0].stage == "stack"
    s.play(MoveFrom(1, "Campania"), MoveUnits(1, "Spear", 1), MoveTo(1, "Latium"), StopHere(1))
    assert s.empire_of("Romans").count("Latium") == 4


def test_with_option_5_the_next_seat_turns_its_marker_after_the_raided_go() -> None:
    """L1194: Peter turned his marker first, so Anna turns hers once his go (held by the window) is over."""
    s = table_with({"enhanced_play": True}, BORDER).hand(1, PLAIN).play(Arm(0, BORDER, ROMANS, "Latium"))
    s.turn_over(1, "Romans")
    assert s.state.queue == (0, 1) and s.actors() == frozenset({1})
    s.play(WindowPass(1), EndMovement(1), Done(1))  # Done: no disorder removed (the raid's in Latium)
    assert s.actors() == frozenset({0}) and TurnMarker(0, 2) in s.legal(0)


def test_replays_are_the_same_and_no_undo_crosses_the_fire_or_the_cancel() -> None:
    """The same moves from the same state give the same states and events (the window's order is fixed);
    the fire and Island isolation move cards out of hands (hidden_draws), so neither is taken back."""
    runs = []
    for _ in range(2):
        s = border(ISLAND)
        before = s.state
        fired = s.apply(TurnMarker(1, 0))
        assert not GAME.undoable(before, TurnMarker(1, 0), fired)
        before = s.state
        cancel = s.apply(WindowPlay(1, ISLAND))
        assert not GAME.undoable(before, WindowPlay(1, ISLAND), cancel)
        s.play(WindowPass(0))
        runs.append((s.state, [(e.type, dict(e.data), e.audience) for e in s.events]))
    assert runs[0] == runs[1]
    assert GAME.from_json(GAME.to_json(runs[0][0])) == runs[0][0]


def test_the_greedy_victim_cancels_and_a_timeout_passes() -> None:
    s = border(ISLAND).turn_over(1, "Romans")
    assert GreedyPolicy(1).choose(s.state, 1) == WindowPlay(1, ISLAND)
    assert GAME.timeout_action(s.state, 1) == WindowPass(1)


def test_during_the_window_nobody_learns_whether_the_victim_holds_the_cancel() -> None:
    """Peter holding Island isolation or a plain card: Anna and a spectator see the same, and Peter is asked
    the same question (L881's pass: being asked depends on nothing held)."""
    seen = []
    for peter in (ISLAND, PLAIN):
        s = border(peter).turn_over(1, "Romans")
        seen.append((GAME.view(s.state, 0), GAME.view(s.state, None), GAME.legal_actions(s.state, 0),
                     heading(GAME.view(s.state, 1), 1, NAMES), asked(s)))
    assert seen[0] == seen[1]


def test_the_quiet_examples_never_offer_an_order_already_armed_the_same_way() -> None:
    """An example arms something new (the contract checks that each changes the state): with Anna's
    Ghazi raid armed on the first empire the examples would name, they name another or none."""
    s = table(GHAZI)
    first = next(a for a in GAME.quiet_examples(s.state, 0) if isinstance(a, Arm))
    s.apply(first)
    again = [a for a in GAME.quiet_examples(s.state, 0) if isinstance(a, Arm)]
    assert first not in again
    assert again, "Peter's Huns are another empire the raid fits"
    for arm in again:
        assert GAME.apply(s.state, arm).state != s.state, arm


def test_island_isolation_cancels_nomad_raid_too() -> None:
    """Our card data: Island isolation cancels the raids over land of the deck's commonest kind, Border
    raid and Nomad raid; Peter plays it in the window and neither named area is disordered (L871)."""
    s = table(NOMAD).play(Arm(0, NOMAD, ROMANS, "Campania,Latium"))
    s.hand(1, ISLAND)
    s.turn_over(1, "Romans")
    s.play(WindowPlay(1, ISLAND))
    pass_windows(s)
    assert not s.area("Campania").disorder and not s.area("Latium").disorder
    assert NOMAD in s.state.discard and ISLAND in s.state.discard
