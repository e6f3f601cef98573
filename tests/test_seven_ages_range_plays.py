"""7 Ages: plays that Range decides, counted through another empire's areas with its permission (L2233).

"Your empire can't count range *through* (it may count into) another empire's area unless ... that empire
gives its permission. In return it may demand cards and/or money from your empire, which you must supply
immediately if you accept" (L2233). Option 8 keeps Civilise's cards to "empires within *Range* of the empire
taking the action" (L1222); an assassin aims at "a leader whose *empire* is within **Range** of yours" (L885).

The map: Egypt touches Cyrenaica, which touches Tripolitania; every route from Egypt to Tripolitania passes
Cyrenaica, and Tripolitania is two areas away, within an age-2 empire's Range (L2227). alice's Egyptians
civilise; bob's Carthaginians hold Cyrenaica; cy's Etruscans hold Tripolitania.
"""

from __future__ import annotations

from dataclasses import replace
from typing import cast

from engine.core import Action
from engine.seven_ages import civ_range
from engine.seven_ages.actions import Done, TurnMarker
from engine.seven_ages.ai import make_policy
from engine.seven_ages.cards import load_deck
from engine.seven_ages.civilisation_moves import Arm, AssassinCard, EventPick, PlayArtefact, PlayEvent
from engine.seven_ages.conflict_moves import Commit, CommitDone, FightIn, WindowPass, WindowPlay
from engine.seven_ages.decision import choice, heading
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
from engine.seven_ages.markers import WAITING
from engine.seven_ages.range_requests import ASK
from engine.seven_ages.view import SevenView
from engine.seven_ages.window import EVENT
from tests.seven_ages_builder import Scenario
from tests.seven_ages_builder_civ import Table, card_of

CIVILISER, KEEPER, TARGET = "Egyptians", "Carthaginians", "Etruscans"
NAMES = ["alice (Red)", "bob (Blue)", "cy (Pink)"]
TAKE_THAT = {"take_that": True}


def _event(name: str) -> int:
    return next(c.number for c in load_deck().cards.values() if c.event.name == name)


QUAKE = _event("Earthquake")  # on an area: a city 2 steps smaller, one area disordered
ASSASSINS = _event("Assassins")  # card 109: up to 3 picks (L887)


def civilise(*keeper_prefs: str, options: dict[str, bool] | None = None, money: int = 20,
             cards: tuple[int, ...] = (QUAKE,), target_leader: bool = False) -> Table:
    """alice's Egyptians (age 2) take a civilise action; bob holds Cyrenaica, cy Tripolitania (a city of 5);
    ``keeper_prefs``: bob's standing preferences."""
    leaders = (("Tactician", "Tripolitania"),) if target_leader else ()
    t = Table(3, options=TAKE_THAT if options is None else options)
    t.empire(CIVILISER, 0, 8, ["Egypt"], money=money, capital="Egypt")
    t.empire(KEEPER, 1, 8, ["Cyrenaica"], money=0)
    t.empire(TARGET, 2, 8, ["Tripolitania"], leaders=leaders, capital="Tripolitania").city("Tripolitania", 5)
    spare = [c for c in load_deck().cards if c not in cards][:2]
    t.hand(0, *cards).hand(1, spare[0]).hand(2, spare[1]).prefs(1, *keeper_prefs)
    return t.marker(0, "civilise", CIVILISER).enter("civilise").do(TurnMarker(0, 0))


PLAY = PlayEvent(0, QUAKE, card_of(TARGET), "Tripolitania")


def played(t: Table) -> list[str]:
    return [str(e.data["event"]) for e in t.named("event_played")]


def label(t: Table, seat: int, action: Action) -> str:
    return choice(GAME.view(t.state, seat), seat, action).label


def test_an_option_8_target_behind_bobs_area_is_offered_asking_bob() -> None:
    # L1222 with L2233: Tripolitania is within Range only through Cyrenaica, so the play asks bob first
    t = civilise()
    assert PLAY in t.legal(0)
    assert label(t, 0, PLAY) == "Earthquake on the Etruscans in Tripolitania (asking the Carthaginians)"
    # an empire next door needs nobody's permission: no note
    on_keeper = PlayEvent(0, QUAKE, card_of(KEEPER), "Cyrenaica")
    assert label(t, 0, on_keeper) == "Earthquake on the Carthaginians in Cyrenaica"


def test_bob_says_yes_and_the_event_is_played() -> None:
    t = civilise()
    t.do(PLAY)
    assert t.actors() == {1} and not played(t) and QUAKE in t.state.people[0].hand
    for other in (1, 2):  # what alice would play stays hers: the request names only the target
        assert "range_request" not in str(GAME.view(t.state, other)["goes"])
    assert t.legal(1) == [CanalAnswer(1, REFUSE), CanalAnswer(1, 0), CanalAnswer(1, 5), CanalAnswer(1, 10),
                          CanalAnswer(1, 20)]
    assert heading(GAME.view(t.state, 1), 1, NAMES) == (
        "bob (Blue): the Egyptians ask the Carthaginians to count range through their areas, to play a card "
        "on the Etruscans: answer no, yes or a price")
    assert label(t, 1, CanalAnswer(1, 0)) == "Let them count through"
    answered = GAME.apply(t.state, CanalAnswer(1, 0))  # through the game's own door: a move of Civilise
    t.state, t.events = answered.state, [*t.events, *answered.events]
    assert played(t) == ["Earthquake"] and QUAKE not in t.state.people[0].hand


def test_bob_says_no_and_the_card_stays_in_hand() -> None:
    t = civilise()
    t.do(PLAY, CanalAnswer(1, REFUSE))
    assert not played(t) and QUAKE in t.state.people[0].hand
    assert t.actors() == {0} and Done(0) in t.legal(0)  # alice's go goes on
    # the same play is not offered again this go (nor asked over and over)
    assert not [a for a in t.legal(0) if isinstance(a, PlayEvent) and a.target == card_of(TARGET)]
    assert t.refused(PLAY, "refused_this_go").message == (
        "Your request to count Range through another empire's areas to the Etruscans was refused this go (or "
        "its price not paid): no card goes there before the go ends.")
    refused = t.named("range_play_refused")
    assert [e.audience for e in refused] == [(0,)]  # the card is named to alice alone
    assert GAME.describe_event(refused[0], NAMES) == (
        "alice (Red): Earthquake is not played, for the Carthaginians refused to let the Egyptians count "
        "range through their areas; the card stays in your hand.")
    public = [GAME.describe_event(e, NAMES) for e in t.events if e.type.startswith("range_request")]
    assert public == [
        "The Egyptians ask the Carthaginians to count range through their areas, to play a card on the "
        "Etruscans.",
        "The Carthaginians refuse when the Egyptians ask to count range through their areas."]
    assert not any("Earthquake" in (GAME.describe_event(e, NAMES) or "") for e in t.events
                   if e.audience != (0,))


def test_a_price_paid_at_once_then_the_event_is_played() -> None:
    t = civilise(money=20)
    t.do(PLAY, CanalAnswer(1, 10))
    assert t.actors() == {0} and t.legal(0) == [PayToll(0, True), PayToll(0, False)]
    assert label(t, 0, PayToll(0, True)) == "Pay the price and play the card"
    assert heading(GAME.view(t.state, 0), 0, NAMES) == (
        "alice (Red): the Carthaginians ask 10 money of the Egyptians to count range through their areas: "
        "pay it and play, or not")
    t.do(PayToll(0, True))
    # L2233: "which you must supply immediately if you accept"
    assert t.of(CIVILISER).money == 10 and t.of(KEEPER).money == 10
    assert played(t) == ["Earthquake"]


def test_a_price_unpaid_or_unaffordable_leaves_the_card_in_hand() -> None:
    t = civilise(money=5)
    t.do(PLAY, CanalAnswer(1, 10))
    assert t.legal(0) == [PayToll(0, False)]
    err = t.refused(PayToll(0, True), "too_poor")
    assert err.message == "The Egyptians have 5 money: the price is 10."
    t.do(PayToll(0, False))
    assert not played(t) and QUAKE in t.state.people[0].hand and t.of(CIVILISER).money == 5
    assert GAME.describe_event(t.named("range_play_refused")[0], NAMES) == (
        "alice (Red): Earthquake is not played, for you did not pay the 10 money the Carthaginians asked; "
        "the card stays in your hand.")


def test_standing_answers_apply_only_once_asked() -> None:
    # whatever bob answers ahead, alice is offered the same play with the same note
    asked = label(civilise(), 0, PLAY)
    for pref in ("range:yes", "range:no", "range:10"):
        t = civilise(pref)
        assert PLAY in t.legal(0) and label(t, 0, PLAY) == asked, pref
    yes = civilise("range:yes").do(PLAY)
    # played within alice's one move: bob's standing answer, shown once asked, stood for him
    assert played(yes) == ["Earthquake"]
    assert [e.data["answer"] for e in yes.named("range_request_answered")] == [0]
    no = civilise("range:no").do(PLAY)
    assert not played(no) and QUAKE in no.state.people[0].hand and no.named("range_play_refused")
    price = civilise("range:5").do(PLAY)
    assert price.actors() == {0} and not any(p.kind == ASK for p in price.state.pending)
    price.do(PayToll(0, True))
    assert price.of(KEEPER).money == 5 and played(price) == ["Earthquake"]


def test_without_option_8_nobody_is_asked() -> None:
    t = civilise(options={})
    assert label(t, 0, PLAY) == "Earthquake on the Etruscans in Tripolitania"
    t.do(PLAY)
    assert played(t) == ["Earthquake"] and not t.named("range_requested")


def test_out_of_range_even_with_permission_is_not_offered() -> None:
    # Tripolitania from Egypt at age 1 (level 1): two areas away, whatever bob allows
    t = Table(3, options=TAKE_THAT).empire(CIVILISER, 0, 1, ["Egypt"], capital="Egypt")
    t.empire(KEEPER, 1, 1, ["Cyrenaica"]).empire(TARGET, 2, 1, ["Tripolitania"]).city("Tripolitania", 5)
    t.hand(0, QUAKE).marker(0, "civilise", CIVILISER).enter("civilise").do(TurnMarker(0, 0))
    assert PLAY not in t.legal(0)
    t.refused(PLAY, "out_of_range")


def test_an_artefact_under_option_8_asks_too() -> None:
    forum = next(c.number for c in load_deck().cards.values() if c.artefact == "Forum")
    t = civilise(cards=(forum,))
    play = PlayArtefact(0, forum, card_of(TARGET), "Tripolitania")
    assert play in t.legal(0) and label(t, 0, play) == "Forum on the Etruscans in Tripolitania (asking the " \
        "Carthaginians)"
    t.do(play, CanalAnswer(1, 0))
    assert t.state.area("Tripolitania").artefacts == ("Forum",) and forum not in t.state.people[0].hand
    no = civilise(cards=(forum,)).do(play, CanalAnswer(1, REFUSE))
    assert forum in no.state.people[0].hand and no.state.area("Tripolitania").artefacts == ()


# -- assassinations (L885): within Range whatever the options ------------------------------------------

ASSASSINATE = PlayEvent(0, ASSASSINS, card_of(TARGET), "")


def test_an_assassin_counts_range_through_bobs_area_with_permission() -> None:
    t = civilise(options={}, cards=(ASSASSINS,), target_leader=True)
    assert ASSASSINATE in t.legal(0)
    assert label(t, 0, ASSASSINATE) == "Assassins on the Etruscans (asking the Carthaginians)"
    t.do(ASSASSINATE, CanalAnswer(1, 0))
    assert played(t) == ["Assassins"]
    while any(p.kind == "event" for p in t.state.pending):  # the cancel window: everyone passes
        seat = next(p.seat for p in t.state.pending)
        t.do(t.legal(seat)[-1])
    t.do(EventPick(0, "leader:Tactician|Tripolitania"))
    assert sorted(p.seat for p in t.state.pending) == [0, 2]  # both sides draw (L887-889)
    t.do(AssassinCard(0, True), AssassinCard(2, True))
    assert t.named("assassination")


def test_an_assassination_refused_keeps_the_card() -> None:
    t = civilise(options={}, cards=(ASSASSINS,), target_leader=True)
    t.do(ASSASSINATE, CanalAnswer(1, REFUSE))
    assert not played(t) and ASSASSINS in t.state.people[0].hand


def test_an_assassin_with_no_route_at_all_is_not_offered() -> None:
    # age 1: Tripolitania is out of Range even through Cyrenaica
    t = Table(3).empire(CIVILISER, 0, 1, ["Egypt"], capital="Egypt").empire(KEEPER, 1, 1, ["Cyrenaica"])
    t.empire(TARGET, 2, 1, ["Tripolitania"], leaders=(("Tactician", "Tripolitania"),))
    t.hand(0, ASSASSINS).marker(0, "civilise", CIVILISER).enter("civilise").do(TurnMarker(0, 0))
    assert ASSASSINATE not in t.legal(0)


# -- replay ---------------------------------------------------------------------------------------------

def test_a_request_replays_the_same() -> None:
    moves = (PLAY, CanalAnswer(1, 10), PayToll(0, True))
    first, second = civilise().do(*moves), civilise().do(*moves)
    assert first.state == second.state and first.events == second.events
    # a refusal changes nothing but the record: the state is the one before the play, bar the request's notes
    before = civilise()
    after = civilise().do(PLAY, CanalAnswer(1, REFUSE))
    assert after.state.people == before.state.people and after.state.empires == before.state.empires


def _four(level: int, bob: list[str], dan: list[str], target_in: str) -> Table:
    """alice's Egyptians civilise at ``level``; bob's Carthaginians hold ``bob``, dan's Romans ``dan``, cy's
    Etruscans ``target_in`` (a city of 5)."""
    t = Table(4, options=TAKE_THAT).empire(CIVILISER, 0, level, ["Egypt"], capital="Egypt", money=30)
    t.empire(KEEPER, 1, level, bob).empire("Romans", 3, level, dan)
    t.empire(TARGET, 2, level, [target_in]).city(target_in, 5)
    return t.hand(0, QUAKE).marker(0, "civilise", CIVILISER).enter("civilise").do(TurnMarker(0, 0))


def test_of_two_routes_the_one_asking_the_lowest_card() -> None:
    # the Sahara is two areas from Egypt through Cyrenaica (bob) or through Sudan (dan): one permission
    # either way; the lower card is asked
    t = _four(8, ["Cyrenaica"], ["Sudan"], "Sahara")
    keeper = min((KEEPER, "Romans"), key=card_of)
    play = PlayEvent(0, QUAKE, card_of(TARGET), "Sahara")
    assert label(t, 0, play) == f"Earthquake on the Etruscans in Sahara (asking the {keeper})"


def test_a_route_through_two_empires_asks_both_in_turn() -> None:
    # Hausa is three areas from Egypt (age 3): every route crosses bob's Cyrenaica or Sudan, then dan's
    # Tripolitania or Sahara. Both are asked, lowest card first; each may ask a price
    t = _four(15, ["Cyrenaica", "Sudan"], ["Tripolitania", "Sahara"], "Hausa")
    play = PlayEvent(0, QUAKE, card_of(TARGET), "Hausa")
    first, second = sorted((KEEPER, "Romans"), key=card_of)
    assert label(t, 0, play) == f"Earthquake on the Etruscans in Hausa (asking the {first} and the {second})"
    seats = {KEEPER: 1, "Romans": 3}
    t.do(play)
    assert t.actors() == {seats[first]}
    t.do(CanalAnswer(seats[first], 5), PayToll(0, True))
    assert t.actors() == {seats[second]} and not played(t)
    t.do(CanalAnswer(seats[second], 0))
    assert played(t) == ["Earthquake"] and t.of(CIVILISER).money == 25 and t.of(first).money == 5


# -- event windows (L1224): out of one's own go -------------------------------------------------------

BERSERKERS = load_deck().by_event("Berserkers").number


def window(*keeper_prefs: str, money: int = 20) -> Scenario:
    """dan's Romans (seat 1) attack from the Sahara cy's Macedonians (seat 2) in Tripolitania; both have
    committed, the event window is open and alice (seat 0, the First player) is asked: her Egyptians in Egypt
    (age 2) reach Tripolitania only through bob's Carthaginians in Cyrenaica (seat 3)."""
    s = Scenario(players=4, options=TAKE_THAT)
    s.empire("Romans", owner=1, progress=10, units={"Sahara": {"Spear": 3}})
    s.empire(TARGET_IN_WINDOW, owner=2, progress=10, units={"Tripolitania": {"Spear": 1}})
    s.empire(CIVILISER, owner=0, progress=10, money=money, units={"Egypt": {"Spear": 1}})
    s.empire(KEEPER, owner=3, progress=10, units={"Cyrenaica": {"Spear": 1}})
    s.hand(0, BERSERKERS)
    if keeper_prefs:
        s.state = s.state.with_player(replace(s.state.people[3], prefs=tuple(keeper_prefs)))
    s.marker(1, "manoeuvre", "Romans").at("manoeuvre").turn_over(1, "Romans")
    s.play(MoveFrom(1, "Sahara"), MoveUnits(1, "Spear", 2), MoveTo(1, "Tripolitania"), StopHere(1),
           EndMovement(1), FightIn(1, "Tripolitania"))
    s.play(Commit(1, "Spear", 1), CommitDone(1), Commit(2, "Spear", 1), CommitDone(2))
    assert [p.seat for p in s.state.pending if p.kind == EVENT] == [0]  # alice is asked first
    return s


TARGET_IN_WINDOW = "Macedonians"
ON_DEFENDER = WindowPlay(0, BERSERKERS, 1)


def window_played(s: Scenario) -> list[int]:
    return [int(e.data["card"]) for e in s.events if e.type == "window_event_played"]


def test_a_window_play_through_bobs_area_is_offered_and_asks_bob() -> None:
    # L1224: "To play events at any other time you must have an empire within range of the area or empire
    # targeted by the card"; L2233: through Cyrenaica with bob's permission
    s = window()
    assert ON_DEFENDER in GAME.legal_actions(s.state, 0)
    view = GAME.view(s.state, 0)
    assert [choice(view, 0, a).label for a in GAME.legal_actions(s.state, 0)] == [
        "Play Berserkers for the attackers: +3 to this side's total this round",
        "Play Berserkers for the defenders: +3 to this side's total this round (asking the Carthaginians)",
        "Play no event, and from now on ask me only at windows about me (prefs events=ask undoes it)",
        "Play no event now"]
    assert heading(view, 0, NAMES).endswith("the event window: play an event now, or pass")
    s.play(ON_DEFENDER)
    assert GAME.actors(s.state) == {3} and not window_played(s)
    assert BERSERKERS in s.state.people[0].hand  # still in the hand while asking
    # the go's owner (dan) reads nothing of the card in his view of his go
    assert str(BERSERKERS) not in str(GAME.view(s.state, 1)["goes"])
    s.play(CanalAnswer(3, 0))
    assert window_played(s) == [BERSERKERS] and BERSERKERS in s.state.discard


def test_a_window_play_refused_goes_back_to_the_hand_and_the_seat_is_asked_again() -> None:
    s = window()
    s.play(ON_DEFENDER, CanalAnswer(3, REFUSE))
    assert not window_played(s) and BERSERKERS in s.state.people[0].hand
    assert [p.seat for p in s.state.pending if p.kind == EVENT] == [0]  # her turn in the window again
    # the refused route is closed this go; the Romans, reached through the empty Sudan, are still open
    assert GAME.legal_actions(s.state, 0) == [WindowPlay(0, BERSERKERS, 0), WindowPass(0, never=True),
                                              WindowPass(0)]
    told = [e for e in s.events if e.type == "range_play_refused"]
    assert [e.audience for e in told] == [(0,)]
    assert GAME.describe_event(told[0], NAMES) == (
        "alice (Red): Berserkers is not played, for the permission to count Range through another empire's "
        "areas was not given, or its price not paid; the card stays in your hand.")


def test_a_window_play_for_a_price() -> None:
    s = window(money=20)
    s.play(ON_DEFENDER, CanalAnswer(3, 5))
    assert GAME.actors(s.state) == {0}
    assert GAME.legal_actions(s.state, 0) == [PayToll(0, True), PayToll(0, False)]
    s.play(PayToll(0, True))
    assert s.state.empire(card_of(CIVILISER)).money == 15 and s.state.empire(card_of(KEEPER)).money == 5
    assert window_played(s) == [BERSERKERS]


def test_a_window_play_with_a_standing_no() -> None:
    s = window("range:no")
    assert ON_DEFENDER in GAME.legal_actions(s.state, 0)  # offered all the same: the answer shows when asked
    s.play(ON_DEFENDER)
    assert not window_played(s) and BERSERKERS in s.state.people[0].hand


# -- the computer players -----------------------------------------------------------------------------

def test_the_greedy_player_asks_a_price_and_pays_one_it_can() -> None:
    # the canal's rule of thumb, reused: let through for a price; pay a price the empire can afford
    s = window(money=20)
    s.play(ON_DEFENDER)
    keeper = make_policy("greedy", 3).choose(s.state, 3)
    assert isinstance(keeper, CanalAnswer) and keeper.answer > 0
    s.play(keeper)
    assert make_policy("greedy", 0).choose(s.state, 0) == PayToll(0, True)
    t = civilise(money=20).do(PLAY)
    t.do(make_policy("greedy", 1).choose(t.state, 1))
    assert make_policy("greedy", 0).choose(t.state, 0) == PayToll(0, True)
    poor = civilise(money=0).do(PLAY, CanalAnswer(1, 5))
    assert make_policy("greedy", 0).choose(poor.state, 0) == PayToll(0, False)


# -- armed orders (L1224 with L2233): fired as another empire's go begins ------------------------------

GHAZI = _event("Ghazi raid")  # manoeuvre, another player's empire: disorders one area


def armed(*keeper_prefs: str, money: int = 20) -> Scenario:
    """alice (seat 0) has armed Ghazi raid on cy's Etruscans in Tripolitania (seat 2), reached from her
    Egyptians in Egypt (age 2) only through bob's Carthaginians in Cyrenaica (seat 1); cy turns over the
    Etruscans' Manoeuvre marker."""
    s = Scenario(players=3, options=TAKE_THAT)
    s.empire(CIVILISER, owner=0, progress=10, money=money, units={"Egypt": {"Spear": 1}})
    s.empire(KEEPER, owner=1, progress=10, units={"Cyrenaica": {"Spear": 1}})
    s.empire(TARGET, owner=2, progress=10, units={"Tripolitania": {"Spear": 2}})
    s.hand(0, GHAZI)
    if keeper_prefs:
        s.state = s.state.with_player(replace(s.state.people[1], prefs=tuple(keeper_prefs)))
    s.marker(2, "manoeuvre", TARGET).at("manoeuvre").play(Arm(0, GHAZI, card_of(TARGET), "Tripolitania"))
    return s.turn_over(2, TARGET)


def raided(s: Scenario) -> bool:
    return bool(s.area("Tripolitania").disorder)


def test_an_armed_order_through_bobs_area_asks_bob_while_cys_go_waits() -> None:
    # L1224: "you must have an empire within range of the area or empire targeted by the card"; L2233:
    # through Cyrenaica "unless ... that empire gives its permission"
    s = armed()
    assert GAME.actors(s.state) == {1} and not raided(s)
    assert GAME.legal_actions(s.state, 2) == []  # cy's go waits
    assert s.state.go_of(2) is not None and s.state.go_of(2).stage == WAITING  # type: ignore[union-attr]
    assert GHAZI in s.state.people[0].hand
    # the public request names the target, never the card: nobody else's view or words show it
    asked_words = [GAME.describe_event(e, NAMES) for e in s.events if e.type == "range_requested"]
    assert asked_words == ["The Egyptians ask the Carthaginians to count range through their areas, to play "
                           "a card on the Etruscans."]
    for seat in (1, 2):
        assert "Ghazi" not in str(GAME.view(s.state, seat)) and str(GHAZI) not in str(
            GAME.view(s.state, seat)["goes"])
    s.play(CanalAnswer(1, 0))
    assert raided(s) and GHAZI in s.state.discard and GHAZI not in s.state.people[0].hand
    assert [e.data["card"] for e in s.events if e.type == "armed_played"] == [GHAZI]
    assert GAME.actors(s.state) == {2} and s.state.go_of(2).stage != WAITING  # type: ignore[union-attr]


def test_an_armed_order_refused_is_dropped_and_the_card_kept() -> None:
    s = armed()
    s.play(CanalAnswer(1, REFUSE))
    assert not raided(s) and GHAZI in s.state.people[0].hand and s.state.people[0].armed == ()
    assert not [e for e in s.events if e.type == "armed_played"]
    dropped = [e for e in s.events if e.type == "order_dropped"]
    assert [e.audience for e in dropped] == [(0,)]  # alice alone learns which card
    assert GAME.describe_event(dropped[0], NAMES) == (
        "Your armed Ghazi raid on the Etruscans was not played: the permission to count Range through "
        "another empire's areas was not given, or its price not paid; the card stays in your hand.")
    assert GAME.actors(s.state) == {2}  # cy's go begins


def test_an_armed_order_for_a_price_paid_or_not() -> None:
    s = armed(money=20)
    s.play(CanalAnswer(1, 5))
    assert GAME.actors(s.state) == {0} and GAME.legal_actions(s.state, 0) == [PayToll(0, True),
                                                                               PayToll(0, False)]
    s.play(PayToll(0, True))
    assert s.state.empire(card_of(CIVILISER)).money == 15 and s.state.empire(card_of(KEEPER)).money == 5
    assert raided(s)
    unpaid = armed(money=20)
    unpaid.play(CanalAnswer(1, 10), PayToll(0, False))
    assert not raided(unpaid) and GHAZI in unpaid.state.people[0].hand
    assert unpaid.state.empire(card_of(CIVILISER)).money == 20
    poor = armed(money=3)
    poor.play(CanalAnswer(1, 5))
    assert GAME.legal_actions(poor.state, 0) == [PayToll(0, False)]  # 3 money cannot pay 5


def test_an_armed_order_with_standing_answers() -> None:
    yes, no = armed("range:yes"), armed("range:no")
    assert raided(yes) and GAME.actors(yes.state) == {2}
    assert not raided(no) and GHAZI in no.state.people[0].hand and GAME.actors(no.state) == {2}
    told = [GAME.describe_event(e, NAMES) for e in yes.events if e.type == "range_request_answered"]
    assert told == ["The Carthaginians agree when the Egyptians ask to count range through their areas."]


def test_an_armed_request_timed_out_is_refused_and_replays_the_same() -> None:
    s = armed()
    s.play(GAME.timeout_action(s.state, 1))
    assert not raided(s) and GHAZI in s.state.people[0].hand
    first, second = armed(), armed()
    for t in (first, second):
        t.play(CanalAnswer(1, 10), PayToll(0, True))
    assert first.state == second.state and first.events == second.events


def test_the_greedy_keeper_and_owner_answer_an_armed_request() -> None:
    s = armed(money=20)
    keeper = make_policy("greedy", 1).choose(s.state, 1)
    assert isinstance(keeper, CanalAnswer) and keeper.answer > 0
    s.play(keeper)
    assert make_policy("greedy", 0).choose(s.state, 0) == PayToll(0, True)


# -- events on a player (L1226 with L2233): I spy ------------------------------------------------------

I_SPY = _event("I spy")  # look at a player's hand, take a card
SPY_ON_CY = PlayEvent(0, I_SPY, card_of(TARGET), "")


def spying(*keeper_prefs: str, money: int = 20, options: dict[str, bool] | None = None) -> Table:
    """:func:`civilise` with alice holding I spy; bob's Carthaginians are next door, cy's Etruscans only
    through them ("that player must have an empire within range of any of your empires", L1226)."""
    return civilise(*keeper_prefs, money=money, cards=(I_SPY,), options=options)


def looked(t: Table) -> list[int]:
    return [int(e.data["victim"]) for e in t.named("hand_looked")]


def window_passed(t: Table) -> Table:
    """The others pass in I spy's cancel window (L871), each as asked, until alice's go goes on."""
    while t.actors() != {0}:
        (seat,) = t.actors()
        t.do(WindowPass(seat))
    return t


def test_a_player_within_range_only_through_bobs_area_is_named_with_the_play() -> None:
    t = spying()
    plays = [a for a in t.legal(0) if isinstance(a, PlayEvent) and a.card == I_SPY]
    assert plays == [PlayEvent(0, I_SPY, 0, ""), SPY_ON_CY]  # bob, next door, is picked after the play
    assert label(t, 0, SPY_ON_CY) == "I spy on the player of the Etruscans (asking the Carthaginians)"
    t.do(SPY_ON_CY)
    # asked before the card leaves the hand
    assert t.actors() == {1} and I_SPY in t.state.people[0].hand and not played(t)
    assert "I spy" not in str([GAME.describe_event(e, NAMES) for e in t.events if e.audience == "public"])
    window_passed(t.do(CanalAnswer(1, 0)))
    assert played(t) == ["I spy"] and I_SPY not in t.state.people[0].hand
    assert t.legal(0) == [EventPick(0, "seat:2")]  # the player named with the play, no other
    t.do(EventPick(0, "seat:2"))
    assert looked(t) == [2]


def test_a_player_target_refused_keeps_the_card_and_closes_that_route() -> None:
    t = spying()
    t.do(SPY_ON_CY, CanalAnswer(1, REFUSE))
    assert not played(t) and I_SPY in t.state.people[0].hand and not looked(t)
    told = t.named("range_play_refused")
    assert [e.audience for e in told] == [(0,)]
    assert GAME.describe_event(told[0], NAMES) == (
        "alice (Red): I spy is not played, for the Carthaginians refused to let the Egyptians count range "
        "through their areas; the card stays in your hand.")
    assert SPY_ON_CY not in t.legal(0) and PlayEvent(0, I_SPY, 0, "") in t.legal(0)


def test_a_player_target_for_a_price_and_with_a_standing_answer() -> None:
    t = spying(money=20).do(SPY_ON_CY, CanalAnswer(1, 10), PayToll(0, True))
    assert played(t) == ["I spy"]
    assert t.state.empire(card_of(CIVILISER)).money == 10 and t.state.empire(card_of(KEEPER)).money == 10
    unpaid = spying(money=20).do(SPY_ON_CY, CanalAnswer(1, 10), PayToll(0, False))
    assert not played(unpaid) and I_SPY in unpaid.state.people[0].hand
    yes = spying("range:yes").do(SPY_ON_CY)
    assert played(yes) == ["I spy"]
    no = spying("range:no").do(SPY_ON_CY)
    assert not played(no) and I_SPY in no.state.people[0].hand


def test_a_player_target_replays_the_same_and_without_option_8_asks_nobody() -> None:
    moves = (SPY_ON_CY, CanalAnswer(1, 5), PayToll(0, True))
    first, second = (window_passed(spying().do(*moves)).do(EventPick(0, "seat:2")) for _ in range(2))
    assert first.state == second.state and first.events == second.events
    plain = spying(options={})
    assert [a for a in plain.legal(0) if isinstance(a, PlayEvent)] == [PlayEvent(0, I_SPY, 0, "")]


def test_an_event_label_in_a_trade_go_reads_no_civilise_route() -> None:
    """An event played as one's Trade go opens is labelled like a Civilise play; the Trade go keeps its own
    ``via`` (each partner and the keeper asked for it), which is no list of plays. The label read it as one
    and raised (a greedy 5-player playout, seed 15, reached it); it reads only a Civilise go's now."""
    view = {"goes": [{"seat": 0, "empire": 40, "action": "trade", "stage": "partner",
                      "data": {"via": [[1, 2]]}}]}
    assert civ_range.note(cast(SevenView, view), PlayEvent(0, 93, 40)) == ""
