"""Pre-armed orders (issue 27, item 3): an event played in another empire's go by a hidden standing order.

Anna (seat 0) holds raids timed "manoeuvre, another player's empire" (``data/seven_ages/cards.yaml``):
Ghazi raid disorders 1 area, Nomad raid 2, Raiders from the steppe 1 and takes 2 money. Peter (seat 1)
holds the Romans (Latium, Campania) and the Huns (Kazakh Steppe), each with a Manoeuvre marker.
"""

from __future__ import annotations

from dataclasses import replace

from engine.seven_ages.actions_civ import Arm, Disarm
from engine.seven_ages.cards import load_deck
from engine.seven_ages.decision import heading
from engine.seven_ages.game import GAME
from engine.seven_ages.secrets import private_variants
from engine.seven_ages.spec import SPEC
from engine.seven_ages.state import SevenState
from engine.seven_ages.text import describe_event
from tests.seven_ages_builder import Scenario, card

NAMES = ("Anna (Red)", "Peter (Blue)")


def event_card(name: str) -> int:
    return next(c.number for c in load_deck().cards.values() if c.event.name == name)


GHAZI, NOMAD = event_card("Ghazi raid"), event_card("Nomad raid")
RAIDERS = event_card("Raiders from the steppe")
BORDER = event_card("Border raid")  # cancelled by another card: not armable yet
ROMANS, HUNS = card("Romans"), card("Huns")


def table(*hand: int, take_that: bool = False) -> Scenario:
    """Peter's Romans and Huns, each with a Manoeuvre marker; Anna's Parthians; Anna holds ``hand``."""
    s = Scenario(players=2, options={"take_that": True} if take_that else None)
    s.empire("Parthians", owner=0, progress=10, units={"Tuscany": {"Spear": 1}})
    s.empire("Romans", owner=1, progress=10, money=5,
             units={"Latium": {"Spear": 3}, "Campania": {"Spear": 2}})
    s.empire("Huns", owner=1, progress=10, units={"Kazakh Steppe": {"Spear": 3}})
    s.hand(0, *hand).marker(1, "manoeuvre", "Romans").marker(1, "manoeuvre", "Huns").first(1)
    return s.at("manoeuvre")


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
    assert words(s, "armed_played") == ["Anna (Red) plays Ghazi raid on the Romans as they manoeuvre."]


def test_raiders_from_the_steppe_disorder_and_take_money() -> None:
    s = table(RAIDERS).play(Arm(0, RAIDERS, ROMANS, "Campania"))
    s.turn_over(1, "Romans")
    assert s.area("Campania").disorder
    assert s.empire_of("Romans").money == 3  # 5 less the card's 2


def test_an_order_waits_for_its_own_empire_and_action() -> None:
    s = table(GHAZI).play(Arm(0, GHAZI, HUNS, "Kazakh Steppe"))
    s.turn_over(1, "Romans")  # another empire of the same player: nothing
    assert not s.of_type("armed_played") and GHAZI in s.state.people[0].hand
    assert s.state.people[0].armed == ((GHAZI, HUNS, "Kazakh Steppe"),)


def test_an_order_waits_through_another_action() -> None:
    s = Scenario(players=2)
    s.empire("Parthians", owner=0, progress=10, units={"Tuscany": {"Spear": 1}})
    s.empire("Romans", owner=1, progress=10, money=5, units={"Latium": {"Spear": 3}})
    s.hand(0, GHAZI).marker(1, "production", "Romans").first(1).at("production")
    s.play(Arm(0, GHAZI, ROMANS, "Latium")).turn_over(1, "Romans")
    assert not s.of_type("armed_played") and not s.area("Latium").disorder
    assert s.state.people[0].armed == ((GHAZI, ROMANS, "Latium"),)


def test_nomad_raid_names_two_areas_and_disorders_those_still_open() -> None:
    s = table(NOMAD).play(Arm(0, NOMAD, ROMANS, "Campania,Latium")).disorder("Latium")
    s.turn_over(1, "Romans")
    assert s.area("Campania").disorder and s.of_type("armed_played")


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


def test_others_see_nothing_of_an_order() -> None:
    """Two states differing only in Anna's armed orders: Peter and a spectator see the same views and get the
    same moves and prompts; Anna sees her order."""
    s = table(GHAZI).play(Arm(0, GHAZI, ROMANS, "Latium"))
    without = s.state.with_player(replace(s.state.people[0], armed=()))
    for viewer in (1, None):
        assert GAME.view(s.state, viewer) == GAME.view(without, viewer)
    assert GAME.legal_actions(s.state, 1) == GAME.legal_actions(without, 1)
    assert heading(GAME.view(s.state, 1), 1) == heading(GAME.view(without, 1), 1)
    mine, gone = GAME.view(s.state, 0)["you"], GAME.view(without, 0)["you"]
    assert mine is not None and gone is not None
    assert mine["armed"] == [{"card": GHAZI, "empire": ROMANS, "areas": ["Latium"]}]
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
    assert s.state.people[0].armed == ((GHAZI, ROMANS, "Campania"),)


def test_bad_orders_are_refused_with_one_sentence() -> None:
    s = table(GHAZI, NOMAD, BORDER)
    refusals = [
        s.illegal(Arm(0, RAIDERS, ROMANS, "Latium"), "not_in_hand"),
        s.illegal(Arm(0, BORDER, ROMANS, "Latium"), "not_armable"),
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
    assert refusals[1].message == "Border raid cannot be armed: only Ghazi raid, Nomad raid, Raiders from " \
        "the steppe and Scourge of God can be so far."
    assert refusals[4].message == "Nomad raid disorders 2 areas: name 2 different ones."


def test_the_computer_never_arms() -> None:
    s = table(GHAZI)
    assert not [a for seat in (0, 1) for a in s.legal(seat) if isinstance(a, (Arm, Disarm))]


def test_an_order_survives_saving_and_loading() -> None:
    s = table(GHAZI).play(Arm(0, GHAZI, ROMANS, "Latium"))
    loaded = GAME.from_json(GAME.to_json(s.state))
    assert loaded.people[0].armed == ((GHAZI, ROMANS, "Latium"),)
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
