"""The greedy 7 Ages player by the players' notes (L2295-2365), each habit on a built position.

- the additional marker is Start empire only with a card the rules let it start now, else Destiny
  (L2303-2305), and its Destiny throws out what it cannot start (all but one, L2305);
- each empire's marker follows its glory categories (L2331);
- a dud empire (under 3 glory at two harvests running) is discarded when the seat is at its most
  empires and holds a card to start instead (L2353), and the harvest records what each empire earned;
- the trade partner has a lower trade number than its own (L2337-2339);
- a side that cannot win a conflict round with all its units commits a couple of scouts (L2349);
- it plays for the glory its empires' cards pay for (L2309, L2331): ships to sea for a card that pays for
  seas, built first; land toward its card's regions; artefacts on its empire that pays for them; the
  religion its card pays for; a new empire where its start areas are not crowded (L2309).
"""

from __future__ import annotations

from dataclasses import replace

from engine.core import Action, IllegalAction
from engine.seven_ages import battle_ai, event_ai
from engine.seven_ages.actions import Build, DiscardCard, Done, PlaceMarker, StartCard, TurnMarker
from engine.seven_ages.ai import make_policy
from engine.seven_ages.battle import COMMIT
from engine.seven_ages.cards import load_deck
from engine.seven_ages.civilisation_moves import Adopt, PlayArtefact, PlayEvent, TradeWith
from engine.seven_ages.conflict_moves import FightIn
from engine.seven_ages.game import GAME
from engine.seven_ages.manoeuvre_moves import EndMovement, MoveFrom, MoveTo, MoveUnits, StopHere
from engine.seven_ages.map import load_map
from engine.seven_ages.spec import SPEC
from engine.seven_ages.start import startable
from engine.seven_ages.state import EXTRA, MARKERS
from tests.seven_ages_builder import Scenario, card
from tests.seven_ages_builder_civ import Table
from tests.test_seven_ages_civilise import civilising, to_stage
from tests.test_seven_ages_conflict import manoeuvre
from tests.test_seven_ages_production import producing


def greedy(s: Scenario, seat: int) -> object:
    return make_policy("greedy", 7).choose(s.state, seat)


def _an_age_1_table(*hand: str) -> Scenario:
    """Seat 1's Egyptians on level 3 make the game's age 1 (L389); seat 0 holds ``hand`` and no empire."""
    s = Scenario(players=3).empire("Egyptians", owner=1, progress=3, units={"Egypt": {"Spear": 3}})
    return s.hand(0, *hand).at(MARKERS)


# -- the additional marker (L2303-2305) ---------------------------------------------------------------

def test_the_additional_marker_digs_with_destiny_when_no_card_may_start() -> None:
    s = _an_age_1_table("Vikings", "Normans")  # age 3 empires in an age 1 game (L387)
    assert startable(s.state, 0) == []
    assert greedy(s, 0) == PlaceMarker(0, EXTRA, "destiny")


def test_the_additional_marker_starts_an_empire_with_a_card_that_may_start() -> None:
    s = _an_age_1_table("Vikings", "Sumerians")  # the Sumerians start in age 1, in Sumer (vacant)
    assert startable(s.state, 0) == [card("Sumerians")]
    assert greedy(s, 0) == PlaceMarker(0, EXTRA, "start")


def test_on_an_empty_map_only_the_first_player_places_start_the_others_the_wild_card() -> None:
    """L2301-2303: the First player should always start an empire; the others "might prefer to play the wild
    card so that you can choose a destiny instead if the first empire is in an age you don't have"."""
    s = Scenario(players=3).hand(0, "Sumerians").hand(1, "Vikings").at(MARKERS)
    assert s.state.first == 0 and not s.state.empires
    assert greedy(s, 0) == PlaceMarker(0, EXTRA, "start")
    assert greedy(s, 1) == PlaceMarker(1, EXTRA, "wild")


def test_the_wild_card_turns_as_destiny_when_the_first_empire_left_no_card_to_start() -> None:
    """The Sumerians make the game's age 1: seat 1's Vikings (age 3) cannot start, so its wild card waits
    for the Destiny and is turned over there."""
    s = Scenario(players=3).hand(0, "Sumerians").hand(1, "Vikings", "Normans").at(MARKERS)
    while s.state.phase == MARKERS:
        seat = min(s.actors())
        s.apply(make_policy("greedy", 7).choose(s.state, seat))
    turned = []
    while s.state.turn == 1:
        seat = min(s.actors())
        move = make_policy("greedy", 7).choose(s.state, seat)
        if seat == 1 and isinstance(move, TurnMarker):
            turned.append(s.state.phase)
        s.apply(move)
    assert s.state.empires_of(0) and not s.state.empires_of(1)
    assert turned == ["destiny"]


def _destiny(*hand: str, progress: int = 3) -> Scenario:
    s = Scenario(players=3).empire("Egyptians", owner=1, progress=progress, units={"Egypt": {"Spear": 3}})
    s.hand(0, *hand).marker(0, "destiny").at("destiny").turn_over(0)
    assert s.go_stage(0) == "discard"
    return s


def _discards(s: Scenario, seat: int) -> list[int]:
    """The cards the greedy player throws out before it finishes its Destiny's discarding."""
    out = []
    while (move := greedy(s, seat)) != Done(seat):
        assert isinstance(move, DiscardCard)
        out.append(move.card)
        s.apply(move)
    return out


def test_destiny_without_a_startable_card_keeps_only_the_one_that_comes_soonest() -> None:
    """L2305: "consider throwing all your cards out in your destiny action. At most keep one card": in age
    1 the Persians (age 2) come before the Vikings and Normans (age 3) and the Sudanese (age 5)."""
    s = _destiny("Vikings", "Normans", "Sudanese", "Persians")
    assert sorted(_discards(s, 0)) == sorted(card(n) for n in ("Vikings", "Normans", "Sudanese"))
    assert s.state.people[0].hand == (card("Persians"),)


def test_destiny_with_a_startable_card_throws_out_only_the_cards_past_their_ages() -> None:
    """Level 10 is age 2: the Sumerians (age 1 only) can never start again; the Persians may start now and
    the Vikings later, so both stay."""
    s = _destiny("Sumerians", "Persians", "Vikings", progress=10)
    assert _discards(s, 0) == [card("Sumerians")]


# -- markers by glory categories (L2331) -----------------------------------------------------------

def test_each_empire_takes_the_action_of_its_glory_categories() -> None:
    """The Egyptians' glory is cities and artefacts (civilise); the Akkadians' land units (production).
    Both are rich and well manned, out of the dark ages, on an odd turn (no manoeuvre)."""
    s = Scenario(players=3)
    s.empire("Egyptians", owner=0, progress=3, money=30, units={"Egypt": {"Spear": 4}})
    s.empire("Akkadians", owner=1, progress=3, money=30, units={"Babylonia": {"Spear": 4}})
    s.at(MARKERS)
    assert greedy(s, 0) == PlaceMarker(0, card("Egyptians"), "civilise")
    assert greedy(s, 1) == PlaceMarker(1, card("Akkadians"), "production")


def test_an_empire_in_a_dark_age_without_a_scientist_trades() -> None:
    """L1026: no free progress in a dark age, so only trading moves it on, whatever its glory."""
    s = Scenario(players=3).empire("Egyptians", owner=0, progress=18, money=30, units={"Egypt": {"Spear": 4}})
    s.at(MARKERS)
    assert greedy(s, 0) == PlaceMarker(0, card("Egyptians"), "trade")


# -- folding a dud (L2353) -------------------------------------------------------------------------

def _at_most_empires(harvests: tuple[int, ...], *hand: str) -> Scenario:
    """Five players: at most 3 empires each (L345); seat 0 holds three, the Shang with ``harvests``."""
    s = Scenario(players=5)
    s.empire("Shang", owner=0, progress=10, money=30, units={"Henan": {"Spear": 4}})
    s.empire("Persians", owner=0, progress=10, money=30, units={"Persis": {"Spear": 4}})
    s.empire("Akkadians", owner=0, progress=10, money=30, units={"Babylonia": {"Spear": 4}})
    shang = s.empire_of("Shang")
    s.state = s.state.with_empire(replace(shang, harvests=harvests))
    return s.hand(0, *hand).at(MARKERS)


def test_an_empire_under_3_glory_two_harvests_running_is_discarded_for_a_startable_card() -> None:
    s = _at_most_empires((2, 1), "Vikings")  # level 10 is age 2... the Vikings need age 3
    assert greedy(s, 0) != PlaceMarker(0, card("Shang"), "discard")  # nothing to start instead
    s = _at_most_empires((2, 1), "Qin")  # the Qin start in age 2
    assert greedy(s, 0) == PlaceMarker(0, card("Shang"), "discard")


def test_an_empire_that_earned_3_at_either_harvest_is_kept() -> None:
    assert greedy(_at_most_empires((3, 1), "Qin"), 0) != PlaceMarker(0, card("Shang"), "discard")
    assert greedy(_at_most_empires((1,), "Qin"), 0) != PlaceMarker(0, card("Shang"), "discard")


def _earned(s: Scenario, harvest: int) -> dict[int, int]:
    """Glory per empire at the ``harvest``-th harvest (0 the first), from its public event."""
    earned: dict[int, int] = {}
    for a in s.of_type("harvest")[harvest]["awards"]:
        earned[int(a["empire"])] = earned.get(int(a["empire"]), 0) + int(a["glory"])
    return earned


def test_the_harvest_records_what_each_empire_earned_at_its_last_two_harvests() -> None:
    s = Scenario(players=2).empire("Egyptians", owner=0, progress=3, units={"Egypt": {"Spear": 3}})
    s.empire("Shang", owner=1, progress=3, units={"Henan": {"Spear": 3}})
    s.city("Egypt", 2).at("end_turn")
    assert len(s.of_type("harvest")) == 1
    egyptians, shang = card("Egyptians"), card("Shang")
    assert s.empire_of("Egyptians").harvests == (_earned(s, 0)[egyptians],)
    assert s.empire_of("Egyptians").harvests[0] > 0  # its city and homeland at least
    assert s.empire_of("Shang").harvests == (_earned(s, 0).get(shang, 0),)
    while len(s.of_type("harvest")) < 3:
        s.end_turn()
    assert s.empire_of("Egyptians").harvests == (_earned(s, 1)[egyptians], _earned(s, 2)[egyptians])


# -- the trade partner (L2337-2339) ----------------------------------------------------------------

def test_the_trade_partner_has_the_lower_trade_number() -> None:
    """The Romans (trade 1) may trade with the Syracusans (trade 2, higher on the track) or the Shang
    (trade 0): "a more certain 2 progress is better than a dicey 3" (L2339)."""
    s = Scenario(players=3).empire("Romans", owner=0, progress=10, units={"Latium": {"Spear": 2}})
    s.empire("Syracusans", owner=1, progress=14, units={"Sicily": {"Spear": 2}})
    s.empire("Shang", owner=2, progress=8, units={"Tuscany": {"Spear": 2}})
    s.marker(0, "trade", "Romans").at("trade").turn_over(0, "Romans")
    assert set(s.legal(0)) == {TradeWith(0, card("Syracusans")), TradeWith(0, card("Shang"))}
    assert greedy(s, 0) == TradeWith(0, card("Shang"))


# -- conflict commitments by the odds (L2349) ------------------------------------------------------

def test_a_side_that_cannot_win_the_round_commits_a_couple_of_scouts() -> None:
    """Four Macedonian spears in open Ukraine against eleven Roman ones: all four would not beat the
    Romans' likely total, so two go in and two stay fresh (L2349: "What you don't want is for your forces
    to be disordered while your opponent has a lot of fresh units to commit")."""
    s = Scenario(players=2).empire("Romans", owner=0, progress=10, units={"Dacia": {"Spear": 12}})
    s.empire("Macedonians", owner=1, progress=10, units={"Ukraine": {"Spear": 4}})
    manoeuvre(s, 0, "Romans").play(MoveFrom(0, "Dacia"), MoveUnits(0, "Spear", 11), MoveTo(0, "Ukraine"),
                                   StopHere(0), EndMovement(0), FightIn(0, "Ukraine"))
    while any(p.seat == 1 and p.kind == COMMIT for p in s.state.pending):
        pending = next(p for p in s.state.pending if p.seat == 1)
        move = battle_ai.commit_choice(s.state, pending)
        assert greedy(s, 1) == move  # the greedy player commits by the same odds
        s.apply(move)
    sealed = next(p for p in s.state.sealed if p.seat == 1)
    assert sealed.data["units"] == {"Spear": 2}


# -- starting an empire ----------------------------------------------------------------------------

def test_a_poor_new_empire_builds_its_first_units_rather_than_keep_a_reserve() -> None:
    """The Caral start with 4 money: keeping back money for upkeep would leave them no unit, and an empire
    with no units on the map is discarded at once (L1012)."""
    s = Scenario(players=3).hand(0, "Caral").marker(0, "start").at("start").turn_over(0)
    while s.state.go_of(0) is not None:
        s.apply(make_policy("greedy", 7).choose(s.state, 0))
    assert s.state.has_empire(card("Caral"))
    assert s.empire_of("Caral").count() >= 1


def test_a_greedy_newcomer_chooses_its_colours_before_answering_a_window() -> None:
    """Seed 120 of the old playouts (2 greedy players, a third joining after 19 moves): the greedy
    newcomer was asked in a window before it had chosen its colours and passed, which the game refuses
    (L337: colours first). Played to its end, each move checked by the game's own legality."""
    seed, joined = 120, False
    state = GAME.setup(2, SPEC.default_options(), seed)
    ais = [make_policy("greedy", seed * 11 + p) for p in range(2)]
    moves = 0
    while not GAME.is_over(state):
        if not joined and moves >= 19:
            try:
                state = GAME.join(state).state
            except IllegalAction:
                pass  # still preparing: a later move
            else:
                joined = True
                ais.append(make_policy("greedy", seed * 11 + 2))
                continue
        actors = sorted(GAME.actors(state))
        seat = actors[moves % len(actors)]
        state = GAME.apply(state, ais[seat].choose(state, seat)).state  # an illegal choice raises here
        moves += 1
    assert joined and state.players == 3 and state.people[2].group


# -- playing for its cards' glory (L2309, L2331) -----------------------------------------------------

def _manoeuvre_go(s: Scenario, seat: int) -> list[Action]:
    """The greedy player's moves in its Manoeuvre go, played to the go's end."""
    moves = []
    while s.state.go_of(seat) is not None:
        move = make_policy("greedy", 7).choose(s.state, seat)
        moves.append(move)
        s.apply(move)
    return moves


def test_an_empire_whose_card_pays_for_seas_sails_a_ship_into_a_vacant_sea() -> None:
    """The Phoenicians' glory is seas (3) and money: a sea counts for the empire whose ships are in it
    (L1104), so their galley leaves Phoenicia for the vacant Eastern Mediterranean, besides the spears'
    expansion onto land. Turn 2: an even turn, when the greedy player expands."""
    s = Scenario(players=3).empire("Phoenicians", owner=0, progress=5, money=10,
                                   units={"Phoenicia": {"Spear": 3, "Galley": 1}}).set(turn=2)
    _manoeuvre_go(manoeuvre(s, 0, "Phoenicians"), 0)
    wmap = load_map()
    seas = {st.area for st in s.empire_of("Phoenicians").units if not wmap.areas[st.area].land}
    assert seas == {"Eastern Mediterranean"}


def test_an_empire_whose_card_pays_for_seas_builds_a_ship_before_more_land_units() -> None:
    """With four spears and 30 money the Phoenicians' first build is a galley, their card's seas needing
    ships; an empire whose card pays nothing at sea (the Akkadians: land units) builds its cheapest unit."""
    spears = {"Phoenicia": {"Spear": 4}}
    s = Scenario(players=3).empire("Phoenicians", owner=0, progress=5, money=30, units=spears)
    producing(s, 0, "Phoenicians")
    assert s.go_stage(0) == "build" and Build(0, "Galley", "Phoenicia") in s.legal(0)
    assert greedy(s, 0) == Build(0, "Galley", "Phoenicia")
    s = Scenario(players=3).empire("Akkadians", owner=0, progress=5, money=30, units=spears)
    producing(s, 0, "Akkadians")
    assert Build(0, "Galley", "Phoenicia") in s.legal(0)
    move = greedy(s, 0)
    assert isinstance(move, Build) and move.unit != "Galley"


def test_land_expansion_goes_toward_the_cards_region() -> None:
    """The Romans' glory is the region of Europe (3): from Kazan, on Europe's eastern edge, the spears that
    may leave go to Don and Muscovy (Europe, 2 income each), not to the Urals or West Siberia (Asia, as
    rich): an area outside Europe adds nothing to their glory."""
    wmap = load_map()
    europe = wmap.members("Europe")
    s = Scenario(players=3).empire("Romans", owner=0, progress=12, money=10, units={"Kazan": {"Spear": 3}})
    s.set(turn=2)
    assert {"Urals", "West Siberia", "Don", "Muscovy"} <= set(wmap.adjacency["Kazan"])
    assert not {"Urals", "West Siberia"} & europe
    moves = _manoeuvre_go(manoeuvre(s, 0, "Romans"), 0)
    entered = [m.area for m in moves if isinstance(m, MoveTo)]
    assert sorted(entered) == ["Don", "Muscovy"]


def test_an_artefact_goes_on_its_own_empire_whose_card_pays_for_artefacts() -> None:
    """Seat 0 civilises its Romans (no artefact glory) and also holds the Etruscans (artefacts 2): the
    Forum goes on the Etruscans, where it counts at every harvest (L1072), not on the Romans."""
    forum = next(c.number for c in load_deck().cards.values() if c.artefact == "Forum")
    t = Table(3).empire("Romans", 0, 12, ["Latium", "Campania"]).empire("Etruscans", 0, 12, ["Tuscany"])
    civilising(t.hand(0, forum), 0, "Romans")
    plays = [a for a in t.legal(0) if isinstance(a, PlayArtefact)]
    assert {a.target for a in plays} == {card("Romans"), card("Etruscans")}
    assert make_policy("greedy", 7).choose(t.state, 0) == PlayArtefact(0, forum, card("Etruscans"), "Tuscany")


def test_a_religion_is_played_on_its_own_empire_whose_card_pays_for_it() -> None:
    """Seat 0 civilises its Phoenicians (seas and money) and also holds the Franks (Christianity 2): the
    Christianity card goes on the Franks, whose harvest counts it (L1116)."""
    christianity = next(c.number for c in load_deck().cards.values() if c.artefact == "Christianity")
    t = Table(3).empire("Phoenicians", 0, 14, ["Phoenicia"]).empire("Franks", 0, 14, ["Rhineland"])
    civilising(t.hand(0, christianity), 0, "Phoenicians")
    plays = [a for a in t.legal(0) if isinstance(a, PlayArtefact)]
    assert {a.target for a in plays} == {card("Phoenicians"), card("Franks")}
    assert make_policy("greedy", 7).choose(t.state, 0) == PlayArtefact(0, christianity, card("Franks"))


def test_civilise_adopts_the_religion_its_card_pays_for() -> None:
    """The Hebrews' glory is Judaism (2): offered Christianity and Judaism by the empires in range, they
    adopt Judaism (L964-966, L1116)."""
    t = Table(3).empire("Hebrews", 0, 10, ["Palestine"]).empire(
        "Phoenicians", 1, 10, ["Phoenicia"], religions=("Christianity",)).empire(
        "Egyptians", 2, 10, ["Egypt"], religions=("Judaism",))
    civilising(t, 0, "Hebrews")
    to_stage(t, 0, "beliefs")
    assert {Adopt(0, "Christianity"), Adopt(0, "Judaism")} <= set(t.legal(0))
    assert make_policy("greedy", 7).choose(t.state, 0) == Adopt(0, "Judaism")


def test_a_new_empire_starts_where_its_start_areas_are_not_crowded() -> None:
    """The Canaanites and the Harappans promise the same glory from the same level; six Akkadian spears
    next to Phoenicia make the Canaanites' start a contested one (L2309: "an area with little
    competition"), so the Harappans start."""
    s = Scenario(players=3).empire("Egyptians", owner=1, progress=3, units={"Egypt": {"Spear": 3}})
    s.empire("Akkadians", owner=2, progress=3, units={"Syria": {"Spear": 6}})
    s.hand(0, "Canaanites", "Harappans").marker(0, "start").at("start").turn_over(0)
    assert {StartCard(0, card("Canaanites")), StartCard(0, card("Harappans"))} <= set(s.legal(0))
    assert greedy(s, 0) == StartCard(0, card("Harappans"))


def test_an_empire_whose_card_pays_for_money_keeps_it_once_it_has_six_units() -> None:
    """Mali's glory is the most money (3): with six spears it keeps its 30 money to rank in the harvest
    (L1032, L1046) rather than build a seventh unit; the Akkadians (land units) build on."""
    for name, builds in (("Mali", False), ("Akkadians", True)):
        s = Scenario(players=3).empire(name, owner=0, progress=12, money=30, units={"Mali": {"Spear": 6}})
        producing(s, 0, name)
        assert any(isinstance(a, Build) for a in s.legal(0))
        assert isinstance(greedy(s, 0), Build) == builds


def test_an_empire_paying_for_seas_and_money_still_builds_its_first_ships() -> None:
    """The Syracusans' glory is seas (2) and money (2): at six spears they keep their money, but not from
    their first galley, without which no sea counts for them (L1104)."""
    spears = {"Sicily": {"Spear": 6}}
    s = Scenario(players=3).empire("Syracusans", owner=0, progress=12, money=30, units=spears)
    producing(s, 0, "Syracusans")
    assert Build(0, "Galley", "Sicily") in s.legal(0)
    assert greedy(s, 0) == Build(0, "Galley", "Sicily")


def test_an_empire_with_ships_next_to_a_vacant_sea_manoeuvres_on_a_tie() -> None:
    """The Carthaginians' glory is seas (3) and money (2); poor (5 money), production weighs 3 too. With two
    galleys in Carthage next to vacant seas on an even turn (when the greedy player expands), the tie goes
    to Manoeuvre: seed 2's Carthaginians produced for eight turns and never sailed."""
    s = Scenario(players=3).empire("Carthaginians", owner=0, progress=12, money=5,
                                   units={"Carthage": {"Spear": 4, "Galley": 2}}).set(turn=6)
    s.at(MARKERS)
    assert greedy(s, 0) == PlaceMarker(0, card("Carthaginians"), "manoeuvre")


def test_an_event_that_hurts_goes_on_the_leaders_empire_that_earned_most() -> None:
    """Rebellion (disorder 2 areas of another player's empire) against seat 1, the glory leader: on its Shang,
    which earned 5 at the last harvest, not its Egyptians, which earned 1 (L2329: "minimise the leading
    players'" glory; a harvest's glory is public)."""
    rebellion = next(c.number for c in load_deck().cards.values() if c.event and c.event.name == "Rebellion")
    t = Table(3).empire("Romans", 0, 12, ["Latium"]).empire("Egyptians", 1, 12, ["Egypt", "Sinai"])
    t.empire("Shang", 1, 12, ["Henan", "Qin"]).hand(0, rebellion)
    t.state = t.state.with_player(replace(t.state.people[1], glory=20))
    for name, earned in (("Egyptians", (1,)), ("Shang", (5,))):
        t.state = t.state.with_empire(replace(t.of(name), harvests=earned))
    civilising(t, 0, "Romans")
    plays = [a for a in t.legal(0) if isinstance(a, PlayEvent)]
    assert {a.target for a in plays} == {card("Egyptians"), card("Shang")}
    assert event_ai.civ_event(t.state, 0, plays) == PlayEvent(0, rebellion, card("Shang"))
