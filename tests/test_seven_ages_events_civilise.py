"""7 Ages: the Civilise-timed events that ask for choices (issue 27, items 2, 5 and 6).

One table-driven scenario per card (the card, a minimal position, the moves its choices take, the state change
the rulebook and the card's data give), then E25 (assassinations, L883-891), E46 (Fires with an
Administrator, L2005-2007), the secrecy of an assassination's draws, and refusals.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

import pytest

from engine.core import Action, IllegalAction
from engine.seven_ages import civ_events, event_ai, window
from engine.seven_ages.actions import Build, Done, TurnMarker
from engine.seven_ages.ai import GreedyPolicy
from engine.seven_ages.cards import load_deck
from engine.seven_ages.civilisation_moves import AssassinCard, EventPick, PlayEvent, PromoteLeader
from engine.seven_ages.conflict_moves import WindowPass
from engine.seven_ages.game import GAME
from engine.seven_ages.production import buildable_units
from engine.seven_ages.state import Leader
from tests.seven_ages_builder_civ import Table, card_of, cards_of_value


def event(name: str) -> int:
    return next(c.number for c in load_deck().cards.values() if c.event.name == name)


def civilising(t: Table, seat: int = 0, empire: str = "Romans") -> Table:
    t.marker(seat, "civilise", empire).enter("civilise")
    return t.do(TurnMarker(seat, len(t.state.markers) - 1))


def romans_and_etruscans(etruscans: dict[str, dict[str, int]] | None = None, money: int = 0,
                         leaders: tuple[tuple[str, str], ...] = ()) -> Table:
    """The Romans (alice, seat 0, level 12) civilise in Latium; the Etruscans (bob, seat 1) hold Tuscany and
    what else a row gives."""
    return Table(3).empire("Romans", 0, 12, ["Latium"], capital="Latium").empire(
        "Etruscans", 1, 12, etruscans or {"Tuscany": {"Spear": 2, "Archer": 1}}, money=money,
        leaders=leaders, capital="Tuscany")


@dataclass(frozen=True)
class Row:
    """One card's scenario: the position, whom the card is played on (an empire, an area), the choices made
    (by the player of the event, or the victim), and what must have changed."""

    card: str
    table: Callable[[], Table]
    target: str
    area: str
    moves: tuple[Action, ...]
    check: Callable[[Table], None]


def _flood(t: Table) -> None:
    # disorder the area (1), and its holder removes 1 unit of its choice there: bob gave up the Archer
    assert t.state.area("Tuscany").disorder
    e = t.of("Etruscans")
    assert e.count("Tuscany", "Archer") == 0 and e.count("Tuscany", "Spear") == 2


def _earthquake(t: Table) -> None:
    assert t.state.area("Tuscany").city == 3 and t.state.area("Tuscany").disorder  # 5 reduced by 2


def _deportation(t: Table) -> None:
    e = t.of("Etruscans")
    assert e.count("Venetia") == 0 and e.count("Tuscany", "Spear") == 1 and e.count("Tuscany", "Archer") == 1


def _exodus(t: Table) -> None:
    assert t.of("Etruscans").money == 10 - 3 and t.of("Etruscans").count("Tuscany", "Spear") == 1


def _dynasty(t: Table) -> None:
    # the Artist goes back to the cup, one draw (the Etruscans' Leader number is 1) brings the Builder
    assert t.of("Etruscans").leaders == (Leader("Builder", ("Builder",), "Tuscany"),)
    assert t.state.cup == ("Artist",)


def _no_dynasty(t: Table) -> None:
    assert t.of("Etruscans").leaders == (Leader("Artist", ("Artist",), "Tuscany"),)
    assert t.state.cup == ("Builder",)


def _dynasty_table(check: int) -> Callable[[], Table]:
    def make() -> Table:
        t = romans_and_etruscans(leaders=(("Artist", "Tuscany"),))
        t.state = replace(t.state, cup=("Builder",))
        return t.deck_top(*cards_of_value(check, avoid=(27, 34, 101)))
    return make


def _converted(area: str, sword: bool = True) -> Callable[[Table], None]:
    def check(t: Table) -> None:
        # the Romans at level 12 place their best infantry (a Sword, available at 12) and hold the area
        assert t.of("Romans").count(area, "Sword") == 1 and not t.state.area(area).disorder
        assert t.of("Etruscans").count(area) == 0
        if area == "Tuscany":  # the Etruscans' capital is lost with it: they name another (L1006)
            assert t.of("Etruscans").capital is None
    return check


def _converting() -> Table:
    return romans_and_etruscans({"Tuscany": {"Spear": 1}, "Venetia": {"Spear": 1}}).disorder("Tuscany")


def _mechanica(t: Table) -> None:
    assert "Knight" not in buildable_units(t.of("Romans"))  # the Knight is 17: 5 levels ahead
    assert "Sword" in buildable_units(t.of("Romans"))  # level 11 + 1 reaches the Sword (12)


def _examination(t: Table) -> None:
    assert t.of("Romans").leaders == (Leader("Philosopher", ("Philosopher",), "Latium"),)
    # the action's own promotion is still to come (the event's was free)
    t.do(Done(0))
    assert PromoteLeader(0, "Caesar", "Latium") in t.legal(0)


def _mahdi(t: Table) -> None:
    assert disordered(t) == ["Tuscany", "Venetia"]


def _book_burning(t: Table) -> None:
    assert t.state.area("Tuscany").artefacts == () and t.of("Etruscans").artefacts == ("Forum",)


SPIED = cards_of_value(2, 6, avoid=(81,))
KILLING = cards_of_value(6, 4, avoid=(109,))  # the assassin's card, then the target's
FIRE = cards_of_value(3, avoid=(110,))  # 3 less 1 leader: 2 of the 3 areas


def disordered(t: Table) -> list[str]:
    return [a for a in ("Cis-Alpine", "Tuscany", "Venetia") if t.state.area(a).disorder]


def _spied(t: Table) -> None:
    assert t.state.people[1].hand == (SPIED[0],) and SPIED[1] in t.state.people[0].hand


def _killed(t: Table) -> None:
    assert t.of("Etruscans").leaders == () and set(KILLING) <= set(t.state.discard)


def _burnt(t: Table) -> None:
    assert disordered(t) == ["Cis-Alpine", "Venetia"]


THREE_AREAS = {"Tuscany": {"Spear": 1}, "Venetia": {"Spear": 1}, "Cis-Alpine": {"Spear": 1}}

ROWS = [
    Row("Flood", romans_and_etruscans, "Etruscans", "Tuscany",
        (EventPick(1, "unit:Tuscany|Archer"),), _flood),
    Row("Earthquake", lambda: romans_and_etruscans().city("Tuscany", 5), "Etruscans", "Tuscany", (),
        _earthquake),
    Row("Deportation",
        lambda: romans_and_etruscans({"Tuscany": {"Spear": 2, "Archer": 1}, "Venetia": {"Spear": 1}}),
        "Etruscans", "", (EventPick(1, "unit:Venetia|Spear"), EventPick(1, "unit:Tuscany|Spear")),
        _deportation),
    Row("Exodus", lambda: romans_and_etruscans({"Tuscany": {"Spear": 2}}, money=10), "Etruscans", "",
        (EventPick(1, "unit:Tuscany|Spear"),), _exodus),
    Row("Mandate of Heaven", _dynasty_table(4), "Etruscans", "", (), _dynasty),  # at least 4
    Row("New Dynasty", _dynasty_table(5), "Etruscans", "", (), _dynasty),  # at least 5
    Row("Uprising", _dynasty_table(4), "Etruscans", "", (), _no_dynasty),  # 4 < 5: it fails
    Row("Risorgimento", _converting, "Romans", "", (EventPick(0, "area:Tuscany"),), _converted("Tuscany")),
    Row("Hijra", _converting, "Romans", "", (EventPick(0, "area:Campania"),), _converted("Campania")),
    Row("Marriage alliance", _converting, "Romans", "", (EventPick(0, "area:Tuscany"),),
        _converted("Tuscany")),
    Row("Mechanica Miraculum",
        lambda: Table(3).empire("Romans", 0, 11, ["Latium"]).empire("Etruscans", 1, 12, ["Tuscany"]),
        "Romans", "", (), _mechanica),
    Row("Imperial examination", lambda: _with_cup(romans_and_etruscans(), "Philosopher"), "Romans", "",
        (EventPick(0, "cup"), EventPick(0, "area:Latium")), _examination),
    Row("Mahdi", lambda: romans_and_etruscans(THREE_AREAS), "Etruscans", "",
        (EventPick(0, "area:Tuscany"), EventPick(0, "area:Venetia")), _mahdi),
    Row("I spy", lambda: romans_and_etruscans().hand(1, *SPIED), "", "",
        (EventPick(0, "seat:1"), EventPick(0, f"card:{SPIED[1]}")), _spied),
    Row("Assassins", lambda: romans_and_etruscans(leaders=(("Tactician", "Tuscany"),)).deck_top(*KILLING),
        "Etruscans", "", (EventPick(0, "leader:Tactician|Tuscany"), AssassinCard(0, True),
                          AssassinCard(1, True)), _killed),
    Row("Fires", lambda: romans_and_etruscans(THREE_AREAS, leaders=(("Artist", "Tuscany"),)).deck_top(*FIRE),
        "Etruscans", "", (EventPick(0, "area:Venetia"), EventPick(0, "area:Cis-Alpine")), _burnt),
    Row("Book burning", lambda: _with_forum(romans_and_etruscans()), "Etruscans", "",
        (EventPick(0, "artefact:Tuscany|Peace treaty"),), _book_burning),
]


def _with_cup(t: Table, *cup: str) -> Table:
    t.state = replace(t.state, cup=cup)
    return t


def _with_forum(t: Table) -> Table:
    t.artefact("Tuscany", "Peace treaty")
    t.state = t.state.with_empire(replace(t.of("Etruscans"), artefacts=("Forum",)))
    return t


def play(t: Table, name: str, target: str = "", area: str = "") -> Table:
    """Alice plays the event; where a card of the deck could cancel it, every seat asked passes (the cancel
    chain is tested in tests/test_seven_ages_cancel.py)."""
    card = event(name)
    t.hand(0, card, *t.state.people[0].hand)
    civilising(t)
    t.do(PlayEvent(0, card, card_of(target) if target else 0, area))
    while asked := [p for p in t.state.pending if p.kind == window.EVENT]:
        t.do(WindowPass(asked[0].seat))
    return t


@pytest.mark.parametrize("row", ROWS, ids=[r.card for r in ROWS])
def test_each_civilise_event(row: Row) -> None:
    t = play(row.table(), row.card, row.target, row.area)
    t.do(*row.moves)
    go = t.state.go_of(0)
    assert go is not None and go.stage == "cards" and not t.state.pending  # the event is over
    assert event(row.card) in t.state.discard
    row.check(t)


def test_flood_asks_the_victim_which_unit() -> None:
    """Flood's lose_units is "of its choice": bob's seat, alone, is asked."""
    t = play(romans_and_etruscans(), "Flood", "Etruscans", "Tuscany")
    assert t.actors() == frozenset({1})
    assert set(t.legal(1)) == {EventPick(1, "unit:Tuscany|Spear"), EventPick(1, "unit:Tuscany|Archer")}
    assert GAME.timeout_action(t.state, 1) == EventPick(1, "unit:Tuscany|Spear")  # the cheapest


def test_an_earthquake_spares_a_builders_city() -> None:
    """L2031: "Cities in a builder's area never get reduced (e.g., events ...)"."""
    t = play(romans_and_etruscans(leaders=(("Builder", "Tuscany"),)).city("Tuscany", 5), "Earthquake",
             "Etruscans", "Tuscany")
    assert t.state.area("Tuscany").city == 5 and t.state.area("Tuscany").disorder


def test_mechanica_miraculum_lasts_one_production() -> None:
    played = play(Table(3).empire("Romans", 0, 11, ["Latium"]), "Mechanica Miraculum", "Romans")
    flags = played.of("Romans").flags
    t = Table(3).empire("Romans", 0, 11, ["Latium"], money=30)
    t.state = t.state.with_empire(replace(t.of("Romans"), flags=flags))
    t.marker(0, "production", "Romans").enter("production")
    t.do(TurnMarker(0, 0))
    assert "Sword" in {a.unit for a in t.legal(0) if isinstance(a, Build)}  # the next Production
    t.do(Done(0))
    assert t.of("Romans").flags == ()  # spent with it


def test_book_burning_offers_like_markers_once() -> None:
    """Two like markers in one area are one choice (a decision offers each move once)."""
    t = romans_and_etruscans().artefact("Tuscany", "Peace treaty").artefact("Tuscany", "Peace treaty")
    t = play(t, "Book burning", "Etruscans")
    assert t.legal(0) == [EventPick(0, "artefact:Tuscany|Peace treaty")]
    t.do(EventPick(0, "artefact:Tuscany|Peace treaty"))
    assert t.state.area("Tuscany").artefacts == ("Peace treaty",)


# -- I spy: the hand seen and the card taken are private ------------------------------------------------

def test_i_spy_looks_then_takes_a_card() -> None:
    a, b = cards_of_value(2, 6, avoid=(event("I spy"),))
    t = romans_and_etruscans().hand(1, a, b)
    t = play(t, "I spy")
    assert t.legal(0) == [EventPick(0, "seat:1")]  # only bob holds cards
    t.do(EventPick(0, "seat:1"))
    seen = t.named("hand_seen")[-1]
    assert seen.data["cards"] == [a, b] and seen.visible_to(0) and not seen.visible_to(1) \
        and not seen.visible_to(2)
    assert set(t.legal(0)) == {EventPick(0, f"card:{a}"), EventPick(0, f"card:{b}")}
    t.do(EventPick(0, f"card:{b}"))
    assert t.state.people[1].hand == (a,) and b in t.state.people[0].hand
    stolen = t.named("card_stolen")[-1]
    assert stolen.visible_to(0) and stolen.visible_to(1) and not stolen.visible_to(2)
    taken = t.named("card_taken")[-1]
    assert taken.visible_to(2) and "card" not in taken.data
    names = ["alice", "bob", "cat"]
    text = GAME.describe_event(stolen, names)
    assert text is not None and "bob" in text and load_deck().cards[b].empire.name in text


# -- E25: assassinations (L883-891) ---------------------------------------------------------------------

def assassination(*deck: int) -> Table:
    """The Romans (alice) send the Assassins (3 picks) after the Inca (bob, Leader number 2, L2183) next
    door in Tuscany; ``deck``: the cards on top, drawn assassin first."""
    t = Table(3).empire("Romans", 0, 12, ["Latium"]).empire("Inca", 1, 12, ["Tuscany"],
                                                           leaders=(("Tactician", "Tuscany"),))
    t.deck_top(*deck)
    t = play(t, "Assassins", "Inca")
    return t.do(EventPick(0, "leader:Tactician|Tuscany"))


def test_e25_each_side_draws_up_to_its_number() -> None:
    """L887: "If you have picked as many cards as the event specifies (or 3 for the Assassins ...)"; the
    target
    "with the maximum number picked limited by the empire's Leader number" (Inca: 2)."""
    cards = cards_of_value(0, 1, 2, 3, 4, 5, avoid=(event("Assassins"),))
    t = assassination(*cards)
    assert t.actors() == frozenset({0, 1})
    assert set(t.legal(1)) == {AssassinCard(1, True), AssassinCard(1, False)}
    t.do(AssassinCard(1, False))  # bob's second and last pick
    assert t.legal(1) == [AssassinCard(1, True)]
    t.refused(AssassinCard(1, False), "no_more_draws")
    t.do(AssassinCard(0, False), AssassinCard(0, False))  # alice's second and third
    assert t.legal(0) == [AssassinCard(0, True)]


def test_e25_a_higher_assassin_card_kills_the_leader() -> None:
    low, target, high = cards_of_value(1, 4, 6, avoid=(event("Assassins"),))
    t = assassination(low, target, high)
    t.do(AssassinCard(0, False), AssassinCard(0, True), AssassinCard(1, True))
    assert t.of("Inca").leaders == ()
    assert "Tactician" in t.state.cup  # an unnamed leader goes back to the cup
    shown = t.named("assassination")[-1]
    assert shown.data["values"] == [6, 4] and shown.data["killed"]
    assert {low, target, high} <= set(t.state.discard) and not t.state.aside and not t.state.sealed
    go = t.state.go_of(0)
    assert go is not None and go.stage == "cards"


def test_e25_a_tie_fails() -> None:
    a, b = cards_of_value(5, 5, avoid=(event("Assassins"),))
    t = assassination(a, b)
    t.do(AssassinCard(1, True), AssassinCard(0, True))
    assert t.of("Inca").leaders == (Leader("Tactician", ("Tactician",), "Tuscany"),)
    assert not t.named("assassination")[-1].data["killed"]


def test_assassination_draws_leak_nothing() -> None:
    """Whatever the assassin draws, bob's and cat's views, prompts and events are the same until the reveal;
    and the undo rule sees the cards held aside."""
    seen = []
    for first, second in (cards_of_value(0, 7), cards_of_value(7, 0)):
        t = assassination(first, cards_of_value(3)[0], second)
        before = GAME.hidden_draws(t.state)
        t.events.clear()
        t.do(AssassinCard(0, False), AssassinCard(0, True))
        assert GAME.hidden_draws(t.state) != before
        views = [GAME.view(t.state, s) for s in (1, 2)]
        names = ["alice", "bob", "cat"]
        prompts = [GAME.decision(GAME.view(t.state, s), s, GAME.legal_actions(t.state, s), names)
                   for s in (1, 2)]
        events = [(e.type, e.data) for e in t.events if e.visible_to(1) or e.visible_to(2)]
        seen.append((views, prompts, events))
    assert seen[0] == seen[1]


# -- E46: Fires with an Administrator (L2005-2007) --------------------------------------------------------

def test_e46_fires_counts_an_administrator_twice() -> None:
    """L2007: "if Fires (card 110) is played against your empire and it has 2 leaders one of which is an
    administrator, 3 (not 2) is subtracted from the card picked"."""
    five = cards_of_value(5, avoid=(event("Fires"),))[0]
    four = {**THREE_AREAS, "Provence": {"Spear": 1}}
    t = romans_and_etruscans(four, leaders=(("Administrator", "Tuscany"), ("Artist", "Venetia")))
    t = play(t.deck_top(five), "Fires", "Etruscans")
    check = t.named("fires_check")[-1].data
    assert check["leaders"] == 3 and check["areas"] == 5 - 3
    t.do(EventPick(0, "area:Provence"), EventPick(0, "area:Tuscany"))
    assert sorted(a for a in four if t.state.area(a).disorder) == ["Provence", "Tuscany"]
    assert civ_events.fires_areas(2, t.of("Etruscans")) == 0  # never below none


# -- refusals ---------------------------------------------------------------------------------------------

def test_a_target_not_allowed_is_refused_in_one_sentence() -> None:
    """Assassins on an empire with no leader, or a pick the event does not offer: one sentence, no change."""
    t = romans_and_etruscans(THREE_AREAS)
    card = event("Assassins")
    t.hand(0, card, event("Mahdi"))
    civilising(t)
    err = t.refused(PlayEvent(0, card, card_of("Etruscans")), "bad_target")
    assert err.message == "Assassins cannot be played there."
    t.do(PlayEvent(0, event("Mahdi"), card_of("Etruscans")))
    err = t.refused(EventPick(0, "area:Latium"), "bad_pick")
    assert err.message.count(".") == 1 and "Mahdi" in err.message
    t.refused(Done(0), "event_first")


def test_assassins_need_the_target_in_range() -> None:
    """L885: "a leader whose empire is within Range of yours"."""
    t = Table(3).empire("Romans", 0, 1, ["Latium"]).empire("Inca", 1, 12, ["Alto Peru"],
                                                           leaders=(("Tactician", "Alto Peru"),))
    t.hand(0, event("Assassins"))
    civilising(t)
    with pytest.raises(IllegalAction):
        t.do(PlayEvent(0, event("Assassins"), card_of("Inca")))
    assert all(not isinstance(a, PlayEvent) for a in t.legal(0))


# -- the computer players -----------------------------------------------------------------------------------

def test_the_greedy_player_sends_assassins_after_the_glory_leader() -> None:
    """Its rule of thumb: an event that hurts goes on the empire of the player leading in glory, and it
    answers every question of the event, its own draws and the victim's, until the event is over."""
    low, high, good = cards_of_value(1, 6, 5, avoid=(event("Assassins"),))
    t = Table(3).empire("Romans", 0, 12, ["Latium"]).empire("Inca", 1, 12, ["Tuscany"],
                                                           leaders=(("Tactician", "Tuscany"),))
    t.state = t.state.with_player(replace(t.state.people[1], glory=9))
    t.hand(0, event("Assassins")).deck_top(low, high, good)
    civilising(t)
    plays = [a for a in t.legal(0) if isinstance(a, PlayEvent)]
    assert event_ai.civ_event(t.state, 0, plays) == PlayEvent(0, event("Assassins"), card_of("Inca"))
    t.do(PlayEvent(0, event("Assassins"), card_of("Inca")))
    ai = GreedyPolicy(1)
    while in_event(t):
        t.do(ai.choose(t.state, min(t.actors())))
    # alice drew 1 (below 4: she draws again) then 5, bob kept his 6 (4 or more): the Tactician survives
    shown = t.named("assassination")[-1].data
    assert shown["values"] == [5, 6] and len(t.named("assassin_redraw")) == 1
    assert t.of("Inca").leaders == (Leader("Tactician", ("Tactician",), "Tuscany"),)


def in_event(t: Table) -> bool:
    go = t.state.go_of(0)
    return bool(t.state.pending) or (go is not None and go.stage == civ_events.EVENT)
