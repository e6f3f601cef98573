"""Conflict (L702-787), through the rulebook's examples E22 and E23 and the exact odds of a round.

Each scenario is arranged with the fluent builder and played only through ``GAME.apply``, except the
odds test, which drives the conflict's own rules (:mod:`engine.seven_ages.battle`) 20,000 times.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from fractions import Fraction
from math import sqrt
from typing import Any

import pytest

from engine.core import PUBLIC, IllegalAction
from engine.seven_ages import battle, battle_ai, conflict, pursuit, quick, window
from engine.seven_ages.actions import Build, ChooseColour, ChooseLeader, Done, Prefer, StartCard
from engine.seven_ages.ai import make_policy
from engine.seven_ages.cards import load_deck
from engine.seven_ages.conflict_moves import (
    Commit,
    CommitDone,
    CommitLeader,
    FightIn,
    Raze,
    Redraw,
    Retreat,
    StandFast,
    WindowPass,
    WindowPlay,
)
from engine.seven_ages.game import GAME
from engine.seven_ages.manoeuvre_moves import EndMovement, MoveFrom, MoveTo, MoveUnits, StopHere, TakeLeader
from engine.seven_ages.state import SevenState
from engine.seven_ages.steps import Ctx
from engine.seven_ages.window import EVENT
from tests.seven_ages_builder import Scenario, card, cards_of_value


def manoeuvre(s: Scenario, seat: int, empire: str) -> Scenario:
    """Open Manoeuvre with ``seat``'s marker on ``empire`` and turn it over."""
    return s.marker(seat, "manoeuvre", empire).at("manoeuvre").turn_over(seat, empire)


def script_deck(s: Scenario, *values: int) -> Scenario:
    """The deck's top cards of these values, in this order (cards of empires in play left out)."""
    in_play = tuple(e.card for e in s.state.empires)
    top = cards_of_value(*values, avoid=in_play)
    s.state = replace(s.state, deck=(*top, *(c for c in s.state.deck if c not in top)))
    return s


def elite(s: Scenario, name: str, markers: int) -> Scenario:
    s.state = s.state.with_empire(replace(s.empire_of(name), elite=markers))
    return s


def commit(s: Scenario, seat: int, units: dict[str, int], leader: bool = False) -> Scenario:
    """``seat`` commits these units (one type and count at a time), its Tactician if asked, and is done;
    if that revealed the round, every seat asked in the event window passes."""
    for unit, n in units.items():
        s.play(Commit(seat, unit, n))
    if leader:
        s.play(CommitLeader(seat))
    s.play(CommitDone(seat))
    return no_events(s)


def no_events(s: Scenario) -> Scenario:
    """Every seat asked in the event window passes, in turn."""
    while (asked := next((p for p in s.state.pending if p.kind == EVENT), None)) is not None:
        s.play(WindowPass(asked.seat))
    return s


def last_tally(s: Scenario) -> dict[str, Any]:
    return s.of_type("conflict_tallied")[-1]


def totals(s: Scenario) -> tuple[int, int]:
    sides = last_tally(s)["sides"]
    return int(sides[0]["total"]), int(sides[1]["total"])


# -- E22: terrain defence by crossings (L729-733) ---------------------------------------------------

def test_e22_attacking_epirus_from_dacia_the_defence_modifier_is_4() -> None:
    """L729-733: "if any of the Active player's units entered Epirus (K5) via Dacia, the Defender's
    defence modifier in Epirus throughout the conflict would be 4 (3 for the mountain and 1 for crossing
    an adjacent river into the area)." """
    s = Scenario(players=2).empire("Romans", owner=0, progress=10, units={"Dacia": {"Spear": 3}})
    s.empire("Macedonians", owner=1, progress=10, units={"Epirus": {"Spear": 1}})
    manoeuvre(s, 0, "Romans").play(MoveFrom(0, "Dacia"), MoveUnits(0, "Spear", 2), MoveTo(0, "Epirus"),
                                   StopHere(0), EndMovement(0), FightIn(0, "Epirus"))
    commit(s, 0, {"Spear": 1})
    commit(s, 1, {"Spear": 1})
    assert last_tally(s)["sides"][1]["parts"]["terrain"] == 4
    assert "terrain" not in last_tally(s)["sides"][0]["parts"]  # the defender's alone (L717)


def test_e22_without_the_river_the_mountain_alone_counts_3() -> None:
    """L731: the river adds 1 only when a unit crossed it into the area."""
    s = Scenario(players=2).empire("Romans", owner=0, progress=10, units={"Macedonia": {"Spear": 3}})
    s.empire("Hellenic Greeks", owner=1, progress=10, units={"Epirus": {"Spear": 1}})
    manoeuvre(s, 0, "Romans").play(MoveFrom(0, "Macedonia"), MoveUnits(0, "Spear", 2), MoveTo(0, "Epirus"),
                                   StopHere(0), EndMovement(0), FightIn(0, "Epirus"))
    commit(s, 0, {"Spear": 1})
    commit(s, 1, {"Spear": 1})
    assert last_tally(s)["sides"][1]["parts"]["terrain"] == 3


# -- E23: Napoleon in Muscovy (L793-845) --------------------------------------------------------------

FRENCH_LEVEL, RUSSIAN_LEVEL = 34, 25
"""Age 5 (levels 29-35; horse artillery from 34) and age 4 (22-28): "one age higher" (L811)."""
E23_CARDS = (1, 5, 2,  # round 1: Alex's first card, Cat's 5, then Alex's second after his redraw (L807-809)
             6, 4,  # round 2 (L815)
             5, 4,  # round 3 (L823-825)
             5, 3,  # round 4: "picks a 4" but adds "+5 for the card" for his 47 (L829-831): we script a 5
             7, 4,  # round 5 (L837-839)
             0,  # the French elite check: "irrespective of its value" (L841)
             5, 1)  # Smolensk (L845)


def _napoleon() -> Scenario:
    """Alex's dark blue French (card 32) in Novgorod, Cat's light green Russians (card 34) in Smolensk
    and in their capital Muscovy, a 3-value city with a fort (L795-805)."""
    s = Scenario(players=2)
    s.empire("French", owner=0, progress=FRENCH_LEVEL, colour="dark blue",
             units={"Novgorod": {"Rifle": 5, "Knight": 2, "Artillery": 3, "Horse artillery": 1,
                                 "Lt. Horse": 1, "Sword": 1}},
             leaders={"Napoleon": ("Tactician", "Novgorod")})
    s.empire("Russians", owner=1, progress=RUSSIAN_LEVEL, colour="light green", capital="Muscovy",
             units={"Muscovy": {"Rifle": 2, "Cannon": 2, "Lt. Horse": 1, "Knight": 2},
                    "Smolensk": {"Lt. Horse": 1, "Rifle": 1}, "Kazan": {"Spear": 1}},
             leaders={"Kutuzov": ("Tactician", "Muscovy")})
    s.city("Muscovy", 3).fort("Muscovy")
    elite(s, "French", 1)
    return script_deck(s, *E23_CARDS)


def test_e23_the_move_needs_a_fourth_unit_in_smolensk_and_leaves_one_in_novgorod() -> None:
    """L797-801: "still doesn't have twice as many units as the Russians ... so Alex also moves a knight
    there to get the required 2:1. The remaining French units in Novgorod, less the 1 unit that must
    remain behind to control the area, now moves through Smolensk to Muscovy." """
    s = _napoleon()
    manoeuvre(s, 0, "French")
    s.play(MoveFrom(0, "Novgorod"), MoveUnits(0, "Rifle", 1), MoveUnits(0, "Lt. Horse", 1),
           MoveUnits(0, "Artillery", 1), MoveTo(0, "Smolensk"), StopHere(0))
    s.play(MoveFrom(0, "Novgorod"), MoveUnits(0, "Knight", 1), MoveTo(0, "Smolensk"))
    s.illegal(MoveTo(0, "Muscovy"), "outnumber")  # 3 French already there, 2 Russians: not 2:1
    s.play(StopHere(0), MoveFrom(0, "Novgorod"))
    s.play(MoveUnits(0, "Rifle", 4), MoveUnits(0, "Knight", 1), MoveUnits(0, "Artillery", 2),
           MoveUnits(0, "Horse artillery", 1))
    assert not any(isinstance(a, MoveUnits) for a in s.legal(0))  # the sword stays behind (L668)
    s.play(TakeLeader(0, "Napoleon"), MoveTo(0, "Smolensk"), MoveTo(0, "Muscovy"), StopHere(0))
    french = s.empire_of("French")
    assert french.count("Novgorod") == 1 and french.count("Smolensk") == 4 and french.count("Muscovy") == 8
    assert {ld.area for ld in french.leaders} == {"Muscovy"}


def _to_muscovy() -> Scenario:
    s = _napoleon()
    manoeuvre(s, 0, "French")
    s.play(MoveFrom(0, "Novgorod"), MoveUnits(0, "Rifle", 1), MoveUnits(0, "Lt. Horse", 1),
           MoveUnits(0, "Artillery", 1), MoveUnits(0, "Knight", 1), MoveTo(0, "Smolensk"), StopHere(0))
    s.play(MoveFrom(0, "Novgorod"), MoveUnits(0, "Rifle", 4), MoveUnits(0, "Knight", 1),
           MoveUnits(0, "Artillery", 2), MoveUnits(0, "Horse artillery", 1), TakeLeader(0, "Napoleon"),
           MoveTo(0, "Smolensk"), MoveTo(0, "Muscovy"), StopHere(0), EndMovement(0))
    assert {a.area for a in s.legal(0) if isinstance(a, FightIn)} == {"Muscovy", "Smolensk"}
    return s.play(FightIn(0, "Muscovy"))  # "Alex decides to resolve the conflict in Muscovy first" (L803)


def test_e23_napoleon_in_muscovy_round_by_round() -> None:
    """L793-845, the whole example: per round the active and defending totals 49/14, 11/12, 26/42, 47/10
    and 49/53 (the README's readings of L829-831 and L837), the conflict disorder markers, the losses,
    the elite check, the disorder, Napoleon out of the game, then Smolensk."""
    s = _to_muscovy()
    # round 1: "As they both have a tactician, they can discard their card and choose a second ... Alex
    # only ends up with a 2 card" (L807)
    assert Redraw(1) in s.legal(1)
    s.play(Redraw(0))
    assert s.of_type("conflict_card")[-1]["value"] == 2 and Redraw(0) not in s.legal(0)
    # "Alex's value is 49 ... Cat's value is 14 ... She doesn't get any benefit from the city due to
    # French artillery being committed" (L811-813)
    commit(s, 0, {"Rifle": 3, "Knight": 1, "Artillery": 2, "Horse artillery": 1})
    commit(s, 1, {"Rifle": 1})
    assert totals(s) == (49, 14)
    assert "city" not in last_tally(s)["sides"][1]["parts"]
    # round 2: "Cat's total is 12 (... +3 for the capital +2 for the fort). Alex's total is 11 (3 for
    # the rifle halved against an all-cavalry force ...)" (L817-819)
    commit(s, 1, {"Lt. Horse": 1})  # either side may answer first
    commit(s, 0, {"Rifle": 1})
    assert totals(s) == (11, 12)
    assert last_tally(s)["sides"][1]["parts"]["city"] == 3
    # "All Alex's units have now been committed, so he gets a conflict disorder marker" (L821)
    assert [d["markers"] for d in s.of_type("conflict_disorder")] == [1]
    # "Cat may now retreat ... Alex too can retreat because he has a Tactician (Napoleon) ... he has no
    # adjacent friendly area to retreat to (Smolensk is contested)" (L821): only Cat is asked
    assert GAME.actors(s.state) == frozenset({1})
    assert set(s.legal(1)) == {StandFast(1), Retreat(1, "Kazan")}
    s.play(StandFast(1))  # "not yet prepared to give up her capital"
    # round 3: 26 against 42, "+11 for the French disorder marker (6 ... front and 5 the best support)"
    commit(s, 0, {"Rifle": 1, "Artillery": 1, "Knight": 1})
    commit(s, 1, {"Rifle": 1, "Knight": 2, "Cannon": 2})
    assert totals(s) == (26, 42)
    assert last_tally(s)["sides"][1]["parts"]["disorder"] == 11
    # round 4: 47 (the README: the card must be a 5) against 10; Napoleon advances to the front (L829-835)
    s.play(StandFast(1))
    commit(s, 0, {"Rifle": 2, "Artillery": 1, "Horse artillery": 1}, leader=True)
    commit(s, 1, {"Lt. Horse": 1})
    assert totals(s) == (47, 10)
    assert last_tally(s)["sides"][1]["parts"]["disorder"] == 2  # a single unit: its front, no support
    # round 5: 49 (the README: L837's 50 does not add up) against 53 (L837-839)
    s.play(StandFast(1))
    commit(s, 0, {"Rifle": 2, "Artillery": 1, "Horse artillery": 1}, leader=True)
    commit(s, 1, {"Rifle": 1, "Knight": 2, "Cannon": 2}, leader=True)
    assert totals(s) == (49, 53)
    markers = [(d["empire"], d["markers"]) for d in s.of_type("conflict_disorder")]
    assert markers == [(card("French"), 1), (card("Russians"), 1), (card("French"), 2)]
    # "the remaining French units are all lost ... Napoleon is captured" (L841); 8 French units lost
    ended = s.of_type("conflict_ended")[-1]
    assert ended["winner"] == card("Russians") and ended["lost"] == [8, 2]
    assert s.empire_of("French").count("Muscovy") == 0 and "Napoleon" in s.state.appeared
    # "As he lost 8 units, irrespective of its value, the elite marker is lost" (L841)
    check = s.of_type("elite_check")[-1]
    assert check["lost"] == 8 and check["removed"] and s.empire_of("French").elite == 0
    assert s.area("Muscovy").disorder  # "Muscovy is disordered" (L843)
    assert s.empire_of("Russians").capital == "Muscovy" and s.area("Muscovy").city == 3
    # "Alex then easily wins the not so important conflict in Smolensk" (L845)
    s.play(FightIn(0, "Smolensk"))
    commit(s, 0, {"Rifle": 1, "Lt. Horse": 1, "Artillery": 1, "Knight": 1})
    commit(s, 1, {"Lt. Horse": 1, "Rifle": 1})
    assert s.of_type("conflict_ended")[-1]["winner"] == card("French")
    assert s.empire_of("Russians").count("Smolensk") == 0 and s.empire_of("French").count("Smolensk") == 4
    assert not s.state.goes and not s.state.pending and not s.state.sealed


def test_e23_commitments_are_secret_until_the_reveal() -> None:
    """L706: "Each player must secretly commit": nothing of Alex's commitment reaches Cat's view or
    events before both are in; the reveal shows both."""
    s = _to_muscovy()
    before = GAME.view(s.state, 1)
    result = s.apply(Commit(0, "Rifle", 3))
    after = GAME.view(s.state, 1)
    assert {**after, "seq": 0} == {**before, "seq": 0}
    assert all(not e.visible_to(1) for e in result.events)
    mine = [e.data for e in result.events if e.type == "conflict_committing"]
    assert mine == [{"seat": 0, "area": "Muscovy", "leader": False, "units": [["Rifle", 3]]}]  # Alex's own
    done = s.apply(CommitDone(0))
    assert [e.type for e in done.events if e.visible_to(1)] == ["conflict_committed"]
    assert "Rifle" not in str([e.data for e in done.events if e.visible_to(1)])
    assert GAME.actors(s.state) == frozenset({1})
    seen = s.apply(Commit(1, "Rifle", 1))
    assert all(not e.visible_to(0) for e in seen.events)
    reveal = s.apply(CommitDone(1))
    shown = next(e for e in reveal.events if e.type == "conflict_revealed")
    assert shown.visible_to(0) and shown.visible_to(1)
    french, russian = shown.data["sides"]
    assert french["units"] == [["Rifle", 3]] and russian["units"] == [["Rifle", 1]]
    # both sides' units in the area, to everyone (L791)
    assert ["Rifle", 4] in french["forces"] and ["Rifle", 2] in russian["forces"]


def test_undo_cannot_cross_a_reveal() -> None:
    """A sealed commitment counts among the hidden draws: the reveal changes them."""
    s = _to_muscovy()
    commit(s, 0, {"Rifle": 1})
    sealed = GAME.hidden_draws(s.state)
    s.play(Commit(1, "Rifle", 1))
    assert GAME.hidden_draws(s.state) == sealed
    s.play(CommitDone(1))
    assert GAME.hidden_draws(s.state) != sealed  # the reveal


def test_a_side_must_commit_at_least_one_unit() -> None:
    """L706: "(minimum 1)"."""
    s = _to_muscovy()
    assert CommitDone(0) not in s.legal(0)
    s.illegal(CommitDone(0), "commit_one")


# -- the exact odds of a round ----------------------------------------------------------------------------


def _enumerated() -> dict[str, Fraction]:
    """P(active wins), P(tie), P(defender wins) for two cards drawn in turn from the full deck, 1 unit of
    front 3 against 1 unit of front 3 with no modifier (a round decided by the cards alone)."""
    counts = Counter(c.value for c in load_deck().cards.values())
    assert counts == Counter({**{v: 14 for v in range(6)}, 6: 13, 7: 13})  # the deck's value counts
    n = sum(counts.values())
    out = {"active": Fraction(0), "tie": Fraction(0), "defender": Fraction(0)}
    for a, na in counts.items():
        for d, nd in counts.items():
            p = Fraction(na * (nd - (a == d)), n * (n - 1))
            out["active" if a > d else "defender" if a < d else "tie"] += p
    return out


def _fleets() -> SevenState:
    """Two light-shade fleets of one Ship-of-the-line (front 3) each in the Aegean, of the same age, no
    elite: a sea has no terrain, city or fort."""
    s = Scenario(players=2)
    s.empire("Hellenic Greeks", owner=0, progress=10, colour="light blue",
             units={"Aegean": {"Ship-of-the-line": 1}, "Achaea": {"Spear": 1}})
    s.empire("Persians", owner=1, progress=10, colour="light green",
             units={"Aegean": {"Ship-of-the-line": 1}, "Ionia": {"Spear": 1}})
    manoeuvre(s, 0, "Hellenic Greeks").play(EndMovement(0))
    assert s.go_stage(0) == battle.FIGHT
    return s.state


@pytest.mark.parametrize("rounds", [2_000, pytest.param(20_000, marks=pytest.mark.slow)])
def test_the_odds_of_one_unit_against_one_match_the_deck(rounds: int) -> None:
    """L710, L737: the higher total wins, a tie loses both; over 20,000 seeded rounds (2,000 in the fast
    suite) the engine's outcomes match the probabilities enumerated from the deck's value counts within
    3 standard errors."""
    start = _fleets()
    deck = sorted(load_deck().cards)
    outcomes: Counter[str] = Counter()
    rnd = random.Random(rounds)
    greeks, persians = card("Hellenic Greeks"), card("Persians")
    for _ in range(rounds):
        rnd.shuffle(deck)
        ctx = Ctx(replace(start, deck=tuple(deck), discard=()))
        go = ctx.state.go_of(0)
        assert go is not None
        battle.apply(ctx, go, FightIn(0, "Aegean"))
        for seat in (0, 1):
            go = next(g for g in ctx.state.goes if g.empire == greeks)
            battle.commit(ctx, go, Commit(seat, "Ship-of-the-line", 1))
            battle.commit(ctx, go, CommitDone(seat))
        while (asked := next((p for p in ctx.state.pending if p.kind == EVENT), None)) is not None:
            go = next(g for g in ctx.state.goes if g.empire == greeks)
            battle.window_move(ctx, go, WindowPass(asked.seat))
        losers = next(e.data["losers"] for e in ctx.events if e.type == "conflict_tallied")
        outcomes[{(persians,): "active", (greeks,): "defender"}.get(tuple(losers), "tie")] += 1
        assert len(losers) in (1, 2)
    for outcome, p in _enumerated().items():
        se = sqrt(float(p) * (1 - float(p)) / rounds)
        assert abs(outcomes[outcome] / rounds - float(p)) < 3 * se, (outcome, outcomes, float(p))


# -- the event window (L708, L879-881) ------------------------------------------------------------------

def _window(hands: dict[int, tuple[str, ...]], never: tuple[int, ...] = ()) -> Scenario:
    """Romans (seat 1) attack the Macedonians (seat 2) in fortified Epirus; seat 0 is the First player and
    only looks on. Both commitments are in: the event window is open."""
    s = Scenario(players=3).empire("Romans", owner=1, progress=10, units={"Dacia": {"Spear": 3}})
    s.empire("Macedonians", owner=2, progress=10, units={"Epirus": {"Spear": 1}})
    s.fort("Epirus")
    for seat, cards in hands.items():
        s.hand(seat, *(load_deck().by_event(name).number for name in cards))
    for seat in never:
        s.play(Prefer(seat, "events", "never"))
    manoeuvre(s, 1, "Romans").play(MoveFrom(1, "Dacia"), MoveUnits(1, "Spear", 2), MoveTo(1, "Epirus"),
                                   StopHere(1), EndMovement(1), FightIn(1, "Epirus"))
    s.play(Commit(1, "Spear", 1), CommitDone(1), Commit(2, "Spear", 1), CommitDone(2))
    return s


def _asked(s: Scenario) -> list[int]:
    """The seats asked, in order, while every one of them passes."""
    order = []
    while (asked := next((p for p in s.state.pending if p.kind == EVENT), None)) is not None:
        order.append(asked.seat)
        s.play(WindowPass(asked.seat))
    return order


def test_the_seats_asked_do_not_depend_on_hands() -> None:
    """L881: "the First player playing an event first, then the player to their left ... when everyone
    sequentially passes, no one may play any further events". Who is asked is a public setting (the two
    sides always): the same seats for states that differ only in hands."""
    empty = _asked(_window({}))
    holding = _asked(_window({0: ("Berserkers",), 2: ("Trojan horse", "Greek fire")}))
    assert empty == holding == [0, 1, 2]
    # seat 0 asks never to be asked; the sides are asked whatever they say
    assert _asked(_window({0: ("Berserkers",)}, never=(0, 1))) == [1, 2]
    assert _asked(_window({}, never=(0, 1))) == [1, 2]


def test_a_seat_holding_cards_but_no_conflict_event_is_asked_not_passed_for() -> None:
    """Seat 0 holds only Gold mine (no conflict event): its lone pass is still asked, for a seat that held
    Berserkers would be asked; only an empty hand (its size is public) passes at once."""
    s = _window({0: ("Gold mine",)})
    # the cards a stand-in hand would be drawn from (the piles' ends) hold no conflict event either
    plain = [c for c in s.state.deck if load_deck().cards[c].event.timing != "conflict"]
    rest = [c for c in s.state.deck if c not in plain[:2]]
    s.state = replace(s.state, deck=(plain[0], *rest, *s.state.discard, plain[1]), discard=())
    assert GAME.legal_actions(s.state, 0) == [WindowPass(0, never=True), WindowPass(0)]
    assert GAME.forced(s.state, 0) is None
    s = _window({})
    assert GAME.forced(s.state, 0) == WindowPass(0)


def test_a_seat_asked_with_nothing_to_play_may_pass_and_stop_being_asked() -> None:
    """The pass a seat holding cards is asked for (whatever they are) comes with a second answer: pass and
    turn the public events setting to never, as ``prefs events=never`` does, so the seat chooses whether
    it goes on being asked. Every player is told; the window under way keeps its order (L881), the next
    asks the seat only when it is about it."""
    s = _window({0: ("Gold mine",)})
    assert GAME.legal_actions(s.state, 0) == [WindowPass(0, never=True), WindowPass(0)]
    s.play(WindowPass(0, never=True))
    told = [e for e in s.events if e.type == "preference_set"]
    assert [(e.data, e.audience) for e in told] == [({"seat": 0, "key": "events", "value": "never"}, PUBLIC)]
    assert GAME.view(s.state, None)["people"][0]["prefs"]["events"] == "never"
    assert window.seats_asked(s.state, ()) == [1, 2] and window.seats_asked(s.state, (0,)) == [0, 1, 2]
    assert _asked(s) == [1, 2]  # this window goes on without asking seat 0 again


def test_the_never_pass_is_refused_to_a_seat_asked_only_because_the_window_is_about_it() -> None:
    """A side asked although its setting is never already has what the second answer would give: refused
    with a sentence, nothing changed."""
    s = _window({1: ("Gold mine",)}, never=(1,))
    assert [p.seat for p in s.state.pending if p.kind == EVENT] == [0]
    s.play(WindowPass(0))
    assert GAME.legal_actions(s.state, 1) == [WindowPass(1)]
    with pytest.raises(IllegalAction, match="already asked only at the event windows about you"):
        GAME.apply(s.state, WindowPass(1, never=True))


def test_a_play_reopens_the_window_and_counts_in_the_totals() -> None:
    """L708: events "may be played by any player, not just the players involved in the conflict"; a play
    reopens the window (L881). Seat 0 plays Berserkers (+3) for the defenders, then Trojan horse (the
    defender's fort counts nothing) for the attackers: every seat is asked again after each play."""
    s = _window({0: ("Berserkers", "Trojan horse")})
    berserkers, trojan = (load_deck().by_event(n).number for n in ("Berserkers", "Trojan horse"))
    s.play(WindowPlay(0, berserkers, 1), WindowPass(1), WindowPass(2), WindowPlay(0, trojan, 0))
    assert _asked(s) == [1, 2, 0]
    defender = last_tally(s)["sides"][1]["parts"]
    assert defender["bonus"] == 3 and "fort" not in defender
    assert berserkers in s.state.discard and not s.state.people[0].hand


def test_the_events_setting_is_public() -> None:
    """Being asked must be public knowledge: setting it is announced to every player."""
    s = Scenario(players=3)
    result = s.apply(Prefer(2, "events", "never"))
    assert [e.visible_to(0) for e in result.events] == [True]
    assert all(GAME.view(s.state, v)["people"][2]["prefs"] == {"events": "never"} for v in (0, 1, None))
    said = GAME.describe_event(result.events[0], ["alice (Red)", "bob (Blue)", "carol (Green)"])
    assert said is not None and said.startswith("carol (Green): never asked at event windows")


def test_e23_if_cat_retreats_the_french_take_muscovy_and_half_her_money() -> None:
    """L761-765: Cat may retreat once the French hold a conflict disorder marker, to an adjacent area she
    controls holding no other empire's units. L777: the area changes hands (fort removed, the city one
    step down, the capital an ordinary city); L781: "If an empire loses its capital in a conflict ... all
    that empire's saved money is lost, and half that amount is transferred"."""
    s = _to_muscovy()
    s.state = s.state.with_empire(replace(s.empire_of("Russians"), money=21))
    s.play(Redraw(0))
    commit(s, 0, {"Rifle": 3, "Knight": 1, "Artillery": 2, "Horse artillery": 1})
    commit(s, 1, {"Rifle": 1})
    commit(s, 0, {"Rifle": 1})
    commit(s, 1, {"Lt. Horse": 1})
    s.play(Retreat(1, "Kazan"))
    russians, french = s.empire_of("Russians"), s.empire_of("French")
    # all but the rifle lost in round 1 go to Kazan, where one Russian unit stood
    assert russians.count("Muscovy") == 0 and russians.count("Kazan") == 1 + 6
    assert {ld.area for ld in russians.leaders} == {"Kazan"}  # Kutuzov goes with them
    assert s.of_type("conflict_ended")[-1]["winner"] == card("French")
    assert not s.area("Muscovy").fort and s.area("Muscovy").city == 1 and russians.capital is None
    assert russians.money == 0 and french.money == 10
    assert s.area("Muscovy").disorder  # both sides lost units (L771)


def test_units_stacked_with_a_strategist_move_and_fight_again() -> None:
    """L787: "After Resolving all conflicts in a Manoeuvre action ..., units stacked with a Strategist may
    move and resolve conflicts again provided they remain stacked with the Strategist throughout their
    move"."""
    s = Scenario(players=2).empire("Romans", owner=0, progress=10, units={"Latium": {"Spear": 3}},
                                   leaders={"Strategist": ("Strategist", "Latium")})
    s.empire("Carthaginians", owner=1, progress=10, units={"Campania": {"Spear": 1}})
    manoeuvre(s, 0, "Romans").play(EndMovement(0))
    assert s.go_stage(0) == "stack" and s.of_type("strategist_moves")
    s.play(MoveFrom(0, "Latium"), MoveUnits(0, "Spear", 2))
    s.illegal(MoveTo(0, "Campania"), "strategist")  # without the Strategist they may not move
    s.play(TakeLeader(0, "Strategist"), MoveTo(0, "Campania"), StopHere(0), EndMovement(0))
    assert {a.area for a in s.legal(0) if isinstance(a, FightIn)} == {"Campania"}
    s.play(FightIn(0, "Campania"))
    commit(s, 0, {"Spear": 2})
    commit(s, 1, {"Spear": 1})
    # after this conflict, no third move: the go is over or another round is under way
    assert len(s.of_type("strategist_moves")) == 1


def test_without_a_strategist_there_is_no_second_move() -> None:
    s = Scenario(players=2).empire("Romans", owner=0, progress=10, units={"Latium": {"Spear": 3}})
    manoeuvre(s, 0, "Romans").play(EndMovement(0))
    assert s.state.go_of(0) is None and not s.of_type("strategist_moves")


# -- start-area conflicts (L445) ----------------------------------------------------------------------

def test_a_new_empire_fights_for_its_start_area_and_liberates_its_capital() -> None:
    """L443-445: "If there are unconverted units in any of your empire's start areas, you must now resolve
    conflict (see 4) in those areas", before the capital (L447); L777: "during Start empire you instead
    convert the first city you Liberate into your capital"; L781: the Etruscans lose their capital and
    their money, half of it to the Romans."""
    s = Scenario(players=2).hand(0, "Romans").marker(0, "start")
    s.empire("Etruscans", owner=1, progress=9, money=9, capital="Latium", units={"Latium": {"Spear": 1}})
    s.city("Latium", 3)
    script_deck(s, 7, 0)
    s.at("start").turn_over(0).play(StartCard(0, card("Romans")))
    s.play(next(a for a in s.legal(0) if isinstance(a, ChooseColour)))
    s.play(ChooseLeader(0, "", ""), Build(0, "Spear", "Latium"), Build(0, "Spear", "Latium"), Done(0))
    assert s.go_stage(0) == battle.FIGHT and s.legal(0) == [FightIn(0, "Latium")]
    s.play(FightIn(0, "Latium"))
    commit(s, 0, {"Spear": 2})
    commit(s, 1, {"Spear": 1})
    assert s.of_type("conflict_ended")[-1]["winner"] == card("Romans")
    assert s.empire_of("Romans").capital == "Latium"
    assert s.area("Latium").city == 3  # reduced to 1, then the set-up value of age 2 (L453)
    seized = s.of_type("money_seized")[-1]
    assert (seized["empire"], seized["money"], seized["taker"], seized["gained"]) == \
        (card("Etruscans"), 9, card("Romans"), 4)
    # the Etruscans, without units, are discarded at once (L1012)
    assert not s.state.has_empire(card("Etruscans")) and card("Etruscans") in s.state.discard
    assert s.state.go_of(0) is None or s.go_stage(0) in ("forts", "free_forts")


# -- the computer's conflicts -------------------------------------------------------------------------

def _greedy_go(s: Scenario, seat: int) -> Scenario:
    """The greedy player plays ``seat``'s moves until the seat has nothing more to decide."""
    ai = make_policy("greedy", 1)
    for _ in range(60):
        if seat not in GAME.actors(s.state) or s.state.go_of(seat) is None:
            break
        s.apply(ai.choose(s.state, seat))
    return s


def test_the_greedy_player_attacks_when_its_expected_total_beats_the_defenders() -> None:
    """Item 8: it attacks when its expected total beats the defender's."""
    s = Scenario(players=2).empire("Romans", owner=0, progress=10, units={"Latium": {"Spear": 6}})
    s.empire("Etruscans", owner=1, progress=10, units={"Campania": {"Spear": 1}})
    manoeuvre(s, 0, "Romans")
    _greedy_go(s, 0)
    assert s.of_type("conflict_begins") and s.of_type("conflict_begins")[0]["area"] == "Campania"


def test_the_greedy_player_does_not_attack_a_stronger_defender() -> None:
    s = Scenario(players=2).empire("Romans", owner=0, progress=10, units={"Latium": {"Spear": 2}})
    s.empire("Etruscans", owner=1, progress=10, units={"Campania": {"Spear": 5}})
    s.fort("Campania").city("Campania", 3)
    manoeuvre(s, 0, "Romans")
    _greedy_go(s, 0)
    assert not s.of_type("conflict_begins") and s.empire_of("Romans").count("Campania") == 0


def test_a_timed_out_commitment_is_the_computers_choice() -> None:
    """A timed-out commitment is the AI's move for that seat, not "commit one unit"."""
    s = _to_muscovy()
    for seat in (0, 1):
        pending = next(p for p in s.state.pending if p.seat == seat)
        assert GAME.timeout_action(s.state, seat) == battle_ai.commit_choice(s.state, pending)
    while any(p.seat == 0 and p.kind == battle.COMMIT for p in s.state.pending):
        s.apply(GAME.timeout_action(s.state, 0))
    sealed = next(p for p in s.state.sealed if p.seat == 0)
    assert sum(sealed.data["units"].values()) > 1  # the French army by the odds, not one unit


# -- option 6, pursuit (L1206-1212) ------------------------------------------------------------------------

def test_e52_pursuit_losses() -> None:
    """L1208: "you lose 2 units ... for each aircraft, 1 unit for each tank, and 1 unit for every other full
    2 cavalry units your opponent has remaining in the area. The total is halved if the conflict occurred in
    a mountain, -1 if in a forest (min. 0)": 1 aircraft + 1 tank + 5 other cavalry = 2 + 1 + 2 = 5."""
    pursuers = {"Fighter": 1, "Tank": 1, "Knight": 5}
    assert pursuit.losses_due(pursuers, "Ukraine", 5) == 5  # fertile
    assert pursuit.losses_due(pursuers, "Armenia", 5) == 3  # a mountain: halved, rounding up
    assert pursuit.losses_due(pursuers, "Muscovy", 5) == 4  # a forest: one fewer
    assert pursuit.losses_due({"Knight": 1}, "Muscovy", 5) == 0  # never below 0


def test_a_cavalry_loss_counts_two_and_so_does_a_more_advanced_unit() -> None:
    """L1210-1212: "Each cavalry or aircraft unit you lose in the pursuit satisfies 2 required losses. Each
    unit you lose from a higher Progress level than your opponent's highest surviving unit in the area also
    counts as 2 pursuit losses (3 if also cavalry or aircraft)." """
    assert quick.cheapest({"Knight": 3}, 3, highest=20) == {"Knight": 2}  # 2 + 2 satisfies 3
    assert pursuit.weight("Rifle", highest=17) == 2 and pursuit.weight("Tank", highest=17) == 3
    assert pursuit.weight("Spear", highest=17) == 1


def test_with_option_6_a_retreat_is_pursued() -> None:
    """L1206: "If your units retreat from conflict (see 4), you lose ... 1 unit for every other full 2
    cavalry units your opponent has remaining in the area": 4 Roman knights take 2 Etruscan spears."""
    s = Scenario(players=2, options={"pursuit": True})
    s.empire("Romans", owner=0, progress=20, units={"Latium": {"Knight": 5}})
    s.empire("Etruscans", owner=1, progress=10, units={"Campania": {"Spear": 4}, "Calabria": {"Spear": 1}})
    script_deck(s, 7, 0)
    manoeuvre(s, 0, "Romans").play(MoveFrom(0, "Latium"), MoveUnits(0, "Knight", 4), MoveTo(0, "Campania"),
                                   StopHere(0), EndMovement(0), FightIn(0, "Campania"))
    commit(s, 0, {"Knight": 4})
    commit(s, 1, {"Spear": 1})
    assert s.legal(1) == [StandFast(1), Retreat(1, "Calabria")]  # the Romans hold a disorder marker
    s.play(Retreat(1, "Calabria"))
    assert s.of_type("pursuit_losses")[-1]["units"] == [["Spear", 2]]
    assert s.empire_of("Etruscans").count("Calabria") == 1 + 1  # the one spear left in Campania retreats
    assert s.empire_of("Romans").count("Campania") == 4


# -- option 13, quick conflict resolution (L1334-1348) ----------------------------------------------------

def test_quick_outcomes() -> None:
    """L1338-1344: a total three times the other's loses nothing and destroys the other side; otherwise
    the loser loses its committed units and half the winner's reserves more, and retreats, and the winner
    loses half of the smaller committed force; a tie loses both sides' committed units (a committed
    Tactician saves them) and the active side retreats."""
    rout = quick.outcome((30, 10), ({"Spear": 2}, {"Spear": 1}), ({"Spear": 3}, {"Spear": 4}), (False, True))
    assert rout.losses == ({}, {"Spear": 5}) and rout.tactician_lost == (False, True)
    assert rout.retreats is None
    won = quick.outcome((20, 15), ({"Spear": 4}, {"Spear": 2}), ({"Spear": 4}, {"Spear": 3}), (False, False))
    assert won.losses == ({}, {"Spear": 2}) and won.retreats == 1  # the rest is each side's choice
    assert quick.settled(won) == ({"Spear": 1}, {"Spear": 4})  # the computer's: half of 2, half of 4
    tie = quick.outcome((9, 9), ({"Spear": 2}, {"Spear": 1}), ({"Spear": 3}, {"Spear": 4}), (True, False))
    assert tie.losses == ({}, {"Spear": 1}) and tie.retreats == 0


def _quick_campania(*cards: int) -> Scenario:
    s = Scenario(players=2, options={"quick_conflict": True})
    s.empire("Romans", owner=0, progress=10, units={"Latium": {"Spear": 6}})
    s.empire("Etruscans", owner=1, progress=10, units={"Campania": {"Spear": 3}, "Calabria": {"Spear": 1}})
    script_deck(s, *cards)
    manoeuvre(s, 0, "Romans").play(MoveFrom(0, "Latium"), MoveUnits(0, "Spear", 5), MoveTo(0, "Campania"),
                                   StopHere(0), EndMovement(0), FightIn(0, "Campania"))
    commit(s, 0, {"Spear": 2})
    return commit(s, 1, {"Spear": 1})


def test_with_option_13_one_round_decides_the_conflict() -> None:
    """L1336: "there is only one round"; a rout (11 against 2) destroys the Etruscans' reserves too."""
    s = _quick_campania(7, 0)
    assert totals(s) == (11, 2) and len(s.of_type("conflict_tallied")) == 1
    assert s.empire_of("Etruscans").count("Campania") == 0 and s.empire_of("Romans").count("Campania") == 5
    assert s.of_type("conflict_ended")[-1]["winner"] == card("Romans")


def test_with_option_13_the_loser_must_retreat() -> None:
    """L1340-1342: 8 against 5: the Etruscans lose their committed spear and one more (half the Romans' 3
    reserves), the Romans half of the smaller committed force (0), and the last Etruscan spear must
    retreat: standing fast is no choice."""
    s = _quick_campania(4, 3)
    assert totals(s) == (8, 5)
    assert s.legal(1) == [Retreat(1, "Calabria")]
    s.play(Retreat(1, "Calabria"))
    assert s.empire_of("Etruscans").count("Calabria") == 2 and s.empire_of("Romans").count("Campania") == 5


def test_a_barbarian_conqueror_may_destroy_the_city() -> None:
    """L779: "If the area is now controlled by a Barbarian empire, it may instead destroy the city. If it
    doesn't, the barbarian empire will gain income ... and defence benefits from the city"."""
    for destroy, city in ((True, 0), (False, 3)):
        s = Scenario(players=2).empire("Celts", owner=0, progress=10, units={"Latium": {"Spear": 4}})
        s.empire("Etruscans", owner=1, progress=10, units={"Campania": {"Spear": 1}})
        s.city("Campania", 5)
        script_deck(s, 7, 0)
        manoeuvre(s, 0, "Celts").play(MoveFrom(0, "Latium"), MoveUnits(0, "Spear", 3), MoveTo(0, "Campania"),
                                      StopHere(0), EndMovement(0), FightIn(0, "Campania"))
        commit(s, 0, {"Spear": 3})
        commit(s, 1, {"Spear": 1})
        assert set(s.legal(0)) == {Raze(0, True), Raze(0, False)}
        s.play(Raze(0, destroy))
        assert s.area("Campania").city == city  # 5, one level down as it changed hands (L777), or none


def test_the_default_layout_is_the_best_for_its_owner_with_the_disorder_bonus() -> None:
    """L712-716: "the (modified) front value of half (rounding up) your empire's committed units (your
    choice)" plus, per opponent's conflict disorder marker, the best front and support committed: with a
    marker, a unit strong at both is worth more at support when it alone gives the best support."""
    units = [(9, 9), (1, 1), (2, 1)]
    plain = conflict.battle_line(units, False)
    assert plain.value == 12
    marked = conflict.battle_line(units, False, marks=1)
    assert marked.value + marked.best == 12 + 11 and marked.support == (9,)
    assert plain.value + plain.best < 23


# -- option 14, marines in a sea conflict (L1354) -----------------------------------------------------------

def test_marines_are_committed_with_their_ships_at_half_value() -> None:
    """L1354: "When Resolving conflict in a sea area, Infantry and missiles must (and can only) be committed
    to the conflict when their transporting ships are committed, and each Land unit's front and support
    value is halved." """
    s = Scenario(players=2, options={"marines": True})
    s.empire("Hellenic Greeks", owner=0, progress=10, colour="light blue",
             units={"Aegean": {"Ship-of-the-line": 2, "Sword": 2}, "Achaea": {"Spear": 1}})
    s.empire("Persians", owner=1, progress=10, colour="light green",
             units={"Aegean": {"Ship-of-the-line": 1}, "Ionia": {"Spear": 1}})
    script_deck(s, 3, 3)
    manoeuvre(s, 0, "Hellenic Greeks").play(EndMovement(0), FightIn(0, "Aegean"))
    assert not any(isinstance(a, Commit) and a.unit == "Sword" for a in s.legal(0))
    s.illegal(Commit(0, "Sword", 1), "marines_with_ships")
    s.play(Commit(0, "Ship-of-the-line", 1))
    assert s.of_type("conflict_committing")[-1]["units"] == [["Ship-of-the-line", 1], ["Sword", 1]]
    s.play(CommitDone(0))
    commit(s, 1, {"Ship-of-the-line": 1})
    greeks = last_tally(s)["sides"][0]
    # light ship-of-the-line front 3 at the front; a light sword's support 1 halved, rounding up, to 1
    assert greeks["parts"]["units"] == 3 + 1
