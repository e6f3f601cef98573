"""The player chooses: pursuit losses (option 6, L1206-1212), option 13's losses (L1340-1342) and a retreat
split between areas (L763-765), each arranged with the fluent builder and played through ``GAME.apply``.
"""

from __future__ import annotations

import json

from engine import registry
from engine.seven_ages import battle, quick
from engine.seven_ages.ai import make_policy
from engine.seven_ages.conflict_moves import (
    Commit,
    CommitDone,
    FightIn,
    Lose,
    Retreat,
    RetreatArea,
    RetreatLeader,
    RetreatSplit,
    RetreatUnits,
    StandFast,
    WindowPass,
)
from engine.seven_ages.game import GAME
from engine.seven_ages.manoeuvre_moves import EndMovement, MoveFrom, MoveTo, MoveUnits, StopHere, TakeLeader
from engine.seven_ages.window import EVENT
from tests.contract.checks import Playout, check_decision, check_hidden_moves
from tests.seven_ages_builder import Scenario, card
from tests.test_seven_ages_conflict import manoeuvre, script_deck

NAMES = ("alice (Red)", "bob (Blue)")


def commit(s: Scenario, seat: int, units: dict[str, int]) -> Scenario:
    for unit, n in units.items():
        s.play(Commit(seat, unit, n))
    s.play(CommitDone(seat))
    while (asked := next((p for p in s.state.pending if p.kind == EVENT), None)) is not None:
        s.play(WindowPass(asked.seat))
    return s


def heading(s: Scenario, seat: int) -> str:
    return GAME.decision(GAME.view(s.state, seat), seat, s.legal(seat), NAMES).heading


def labels(s: Scenario, seat: int) -> list[str]:
    return [c.label for c in GAME.decision(GAME.view(s.state, seat), seat, s.legal(seat), NAMES).choices]


def said(s: Scenario, kind: str) -> str:
    event = next(e for e in reversed(s.events) if e.type == kind)
    words = GAME.describe_event(event, NAMES)
    assert words is not None
    return words


# -- E52: pursued by 1 aircraft, 1 tank and 5 other cavalry (L1206-1212) ----------------------------------

def _e52(**options: bool) -> Scenario:
    """The French (alice) attack the Russians' Fighter, Tank and 5 Knights in Ukraine (fertile) with 5 rifles
    and 2 knights from Dacia, Ney riding with them; the Russians commit everything and win round 1 (a
    conflict disorder marker), so the French may retreat before round 2 (L761): to Dacia or Smolensk."""
    s = Scenario(players=2, options=options)
    s.empire("French", owner=0, progress=30,
             units={"Dacia": {"Rifle": 6, "Knight": 2}, "Smolensk": {"Rifle": 1}},
             leaders={"Ney": ("Builder", "Dacia")})
    s.empire("Russians", owner=1, progress=45, units={"Ukraine": {"Fighter": 1, "Tank": 1, "Knight": 5}})
    script_deck(s, 0, 7)
    manoeuvre(s, 0, "French").play(MoveFrom(0, "Dacia"), MoveUnits(0, "Rifle", 5), MoveUnits(0, "Knight", 2),
                                   TakeLeader(0, "Ney"), MoveTo(0, "Ukraine"), StopHere(0), EndMovement(0),
                                   FightIn(0, "Ukraine"))
    commit(s, 0, {"Rifle": 1})
    commit(s, 1, {"Fighter": 1, "Tank": 1, "Knight": 5})
    assert s.of_type("conflict_tallied")[-1]["losers"] == [card("French")]
    assert s.empire_of("French").count("Ukraine") == 6  # 4 rifles and 2 knights left
    return s


def test_e52_the_pursued_player_chooses_and_a_knight_counts_two() -> None:
    """L1208: 1 aircraft + 1 tank + 5 other cavalry = 2 + 1 + 2 = 5 losses "(your choice)"; L1210: "Each
    cavalry or aircraft unit you lose in the pursuit satisfies 2 required losses"."""
    s = _e52(pursuit=True)
    assert s.legal(0) == [StandFast(0), Retreat(0, "Dacia"), Retreat(0, "Smolensk"), RetreatSplit(0)]
    s.play(Retreat(0, "Dacia"))
    # the losses come before the withdrawal: alice is asked, everyone still in Ukraine
    assert s.actors() == {0} and s.empire_of("French").count("Ukraine") == 6
    assert heading(s, 0) == ("alice (Red): choose 5 losses to pursuit for the French in Ukraine (a Knight "
                             "counts 2)")
    assert s.legal(0) == [Lose(0, "Knight", 1), Lose(0, "Knight", 2), Lose(0, "Rifle", 1),
                          Lose(0, "Rifle", 4)]
    assert labels(s, 0)[:2] == ["Lose 1 Knight (counts 2)", "Lose 2 Knights (count 2 each)"]
    assert "ask" not in GAME.view(s.state, 1)["pending"][0]  # bob sees that alice chooses, nothing more
    s.play(Lose(0, "Knight", 1))
    assert heading(s, 0).startswith("alice (Red): choose 3 more losses to pursuit")
    assert not s.of_type("pursuit_losses")  # nothing taken until the choice is complete
    s.play(Lose(0, "Rifle", 1), Lose(0, "Knight", 1))  # 2 + 1 + 2 = 5
    taken = s.of_type("pursuit_losses")[-1]
    assert taken["units"] == [["Knight", 2], ["Rifle", 1]] and taken["due"] == 5 and taken["how"] == "chosen"
    assert said(s, "pursuit_losses") == ("Pursued, the French lose 2 Knights and 1 Rifle as they retreat "
                                         "from Ukraine (their choice).")
    french = s.empire_of("French")
    assert french.count("Ukraine") == 0 and french.count("Dacia", "Rifle") == 1 + 3
    assert s.of_type("conflict_ended")[-1]["lost"][0] == 1 + 3  # round 1's rifle and the pursuit's three


def test_the_computer_and_a_timed_out_seat_lose_the_cheapest_as_before() -> None:
    """The computer (and a seat that let the decision time out) gives up the cheapest units, the engine's
    choice before the players chose: the 4 rifles (cost 2) first, then a knight (cost 4) for the fifth."""
    s = _e52(pursuit=True)
    s.play(Retreat(0, "Dacia"))
    assert quick.cheapest({"Rifle": 4, "Knight": 2}, 5, highest=44) == {"Rifle": 4, "Knight": 1}
    assert GAME.timeout_action(s.state, 0) == Lose(0, "Rifle", 4)
    assert make_policy("greedy", 1).choose(s.state, 0) == Lose(0, "Rifle", 4)
    s.apply(GAME.timeout_action(s.state, 0))
    # one knight satisfies the last loss: nothing left to choose, taken at once
    assert s.of_type("pursuit_losses")[-1]["units"] == [["Knight", 1], ["Rifle", 4]]
    assert s.empire_of("French").count("Dacia", "Knight") == 1


def test_bad_losses_get_one_sentence_and_change_nothing() -> None:
    s = _e52(pursuit=True)
    s.play(Retreat(0, "Dacia"))
    assert "no Tank" in s.illegal(Lose(0, "Tank", 1), "bad_loss").message  # a unit not there
    assert "only 4 Rifles that" in s.illegal(Lose(0, "Rifle", 5), "bad_loss").message  # above what is held
    assert s.illegal(StandFast(0), "wrong_move").message == "Choose the units you lose."
    s.play(Lose(0, "Knight", 1), Lose(0, "Rifle", 1))  # 2 more due, from 3 rifles and a knight
    refused = s.illegal(Lose(0, "Rifle", 3), "bad_loss")  # above what is due
    assert refused.message == "Only 2 more losses are due: give up fewer units."


def test_a_forced_pursuit_is_taken_without_asking() -> None:
    """No needless prompt: with one type of unit left the choice is made at once, and the words say so."""
    s = Scenario(players=2, options={"pursuit": True})
    s.empire("Romans", owner=0, progress=20, units={"Latium": {"Knight": 5}})
    s.empire("Etruscans", owner=1, progress=10, units={"Campania": {"Spear": 4}, "Calabria": {"Spear": 1}})
    script_deck(s, 7, 0)
    manoeuvre(s, 0, "Romans").play(MoveFrom(0, "Latium"), MoveUnits(0, "Knight", 4), MoveTo(0, "Campania"),
                                   StopHere(0), EndMovement(0), FightIn(0, "Campania"))
    commit(s, 0, {"Knight": 4})
    commit(s, 1, {"Spear": 1})
    s.play(Retreat(1, "Calabria"))
    assert not any(p.kind == battle.LOSSES for p in s.state.pending)
    assert s.of_type("pursuit_losses")[-1]["how"] == "one_type"
    assert said(s, "pursuit_losses").endswith("(no choice: all of one type).")


# -- option 13: each side chooses its losses (L1340-1342) ---------------------------------------------------

def _quick() -> Scenario:
    """The Romans commit a spear and an archer against 2 Etruscan spears and win (not threefold): they lose
    half of the smaller committed force (1 of their 2), the Etruscans 2 of their reserves (half the Romans'
    4 reserves), each side choosing which."""
    s = Scenario(players=2, options={"quick_conflict": True})
    s.empire("Romans", owner=0, progress=10, units={"Latium": {"Spear": 5, "Archer": 2}})
    s.empire("Etruscans", owner=1, progress=10, units={"Campania": {"Spear": 3, "Archer": 2},
                                                       "Calabria": {"Spear": 1}})
    script_deck(s, 6, 3)
    manoeuvre(s, 0, "Romans").play(MoveFrom(0, "Latium"), MoveUnits(0, "Spear", 4), MoveUnits(0, "Archer", 2),
                                   MoveTo(0, "Campania"), StopHere(0), EndMovement(0), FightIn(0, "Campania"))
    commit(s, 0, {"Spear": 1, "Archer": 1})
    commit(s, 1, {"Spear": 2})
    sides = s.of_type("conflict_tallied")[-1]["sides"]
    assert sides[1]["total"] < sides[0]["total"] < 3 * sides[1]["total"]
    return s


def test_with_option_13_each_side_chooses_its_losses_in_any_order() -> None:
    s = _quick()
    assert s.actors() == {0, 1}  # both asked at once
    assert s.of_type("conflict_losses")[-1]["units"] == [["Spear", 2]]  # the Etruscans' committed: no choice
    assert s.legal(0) == [Lose(0, "Archer", 1), Lose(0, "Spear", 1)]
    assert s.legal(1) == [Lose(1, "Archer", 1), Lose(1, "Archer", 2), Lose(1, "Spear", 1)]
    assert heading(s, 1) == "bob (Blue): choose 2 losses for the Etruscans in Campania"
    before, seen = s.state, len(s.events)
    s.play(Lose(0, "Archer", 1))  # alice is done: her choice waits face down
    assert GAME.hidden_draws(s.state) != GAME.hidden_draws(before)  # undo cannot cross it
    assert s.empire_of("Romans").count("Campania", "Archer") == 2
    assert [e.type for e in s.events[seen:] if e.visible_to(1)] == ["losses_chosen"]
    assert said(s, "losses_chosen") == "alice (Red) has chosen the losses of the Romans."
    assert labels(s, 1) == ["Lose 1 Archer", "Lose 2 Archers", "Lose 1 Spear"]
    assert s.actors() == {1}
    assert GAME.from_json(json.loads(json.dumps(GAME.to_json(s.state)))) == s.state  # saved mid-choice
    s.play(Lose(1, "Archer", 2))
    romans, etruscans = s.empire_of("Romans"), s.empire_of("Etruscans")
    assert romans.count("Campania") == 5 and romans.count("Campania", "Archer") == 1
    assert etruscans.count("Campania") == 1 and etruscans.count("Campania", "Archer") == 0
    chosen = [e for e in s.of_type("conflict_losses") if e.get("how") == "chosen"]
    assert [e["units"] for e in chosen] == [[["Archer", 1]], [["Archer", 2]]]
    # "The remaining loser's units (if any) must Retreat": one area, no split
    assert s.legal(1) == [Retreat(1, "Calabria")]
    s.play(Retreat(1, "Calabria"))
    assert s.empire_of("Etruscans").count("Calabria") == 2


def test_with_option_13_the_computer_chooses_the_cheapest() -> None:
    s = _quick()
    assert GAME.timeout_action(s.state, 0) == Lose(0, "Spear", 1)  # spear (cost 2) before archer (3)
    s.apply(GAME.timeout_action(s.state, 1))
    assert [p.kind for p in s.state.pending if p.seat == 1] == []
    s.apply(GAME.timeout_action(s.state, 0))
    assert s.empire_of("Romans").count("Campania", "Spear") == 3
    # the Etruscans' spear and one archer went; the other archer must retreat
    assert s.empire_of("Etruscans").count("Campania") == 1 and s.empire_of("Etruscans").count(
        "Campania", "Archer") == 1


# -- a retreat split between areas (L763-765) ---------------------------------------------------------------

def test_a_split_retreat_sends_units_and_leaders_to_two_areas() -> None:
    """L765: "Units can retreat to different areas"."""
    s = _e52()
    s.play(RetreatSplit(0))
    assert heading(s, 0) == ("alice (Red): send the French retreating from Ukraine to Dacia or Smolensk: "
                             "choose the area the next units go to")
    assert s.legal(0) == [RetreatArea(0, "Dacia"), RetreatArea(0, "Smolensk")]
    s.play(RetreatArea(0, "Smolensk"))
    assert heading(s, 0) == ("alice (Red): send the French retreating from Ukraine to Smolensk, a type of "
                             "unit or a leader at a time")
    assert {RetreatUnits(0, "Rifle", 4, "Smolensk"), RetreatLeader(0, "Ney", "Smolensk"),
            RetreatArea(0, "")} <= set(s.legal(0))
    s.play(RetreatUnits(0, "Rifle", 2, "Smolensk"))
    # the units go on the map again, beneath the fog of war (L791): the table learns their number
    assert said(s, "retreat_sent") == "The French send 2 units from Ukraine to Smolensk."
    s.play(RetreatLeader(0, "Ney", "Smolensk"))
    assert said(s, "retreat_sent") == "The French send Ney from Ukraine to Smolensk."
    s.play(RetreatArea(0, ""), RetreatArea(0, "Dacia"), RetreatUnits(0, "Knight", 2, "Dacia"))
    assert s.of_type("conflict_ended") == []  # two rifles still to go
    s.play(RetreatUnits(0, "Rifle", 2, "Dacia"))
    french = s.empire_of("French")
    assert french.count("Ukraine") == 0
    assert french.count("Smolensk") == 1 + 2 and french.count("Dacia") == 1 + 4
    assert {ld.area for ld in french.leaders} == {"Smolensk"}
    assert s.of_type("conflict_ended")[-1]["winner"] == card("Russians")
    assert said(s, "conflict_retreat") == "The French retreat from Ukraine to Dacia and Smolensk."


def test_bad_retreat_moves_get_one_sentence_and_change_nothing() -> None:
    s = _e52()
    s.play(RetreatSplit(0))
    first = s.illegal(RetreatUnits(0, "Rifle", 1, "Dacia"), "bad_retreat")
    assert first.message == "Choose the area you send units to first."
    assert "Don is not an area" in s.illegal(RetreatArea(0, "Don"), "bad_retreat").message
    s.play(RetreatArea(0, "Dacia"))
    assert "no Tank" in s.illegal(RetreatUnits(0, "Tank", 1, "Dacia"), "bad_retreat").message
    assert "only 4 Rifles" in s.illegal(RetreatUnits(0, "Rifle", 5, "Dacia"), "bad_retreat").message
    refused = s.illegal(RetreatUnits(0, "Rifle", 1, "Don"), "bad_retreat")  # adjacent, not French
    assert refused.message == "Don is not an area you may retreat to from Ukraine (L763)."
    assert "no leader Murat" in s.illegal(RetreatLeader(0, "Murat", "Dacia"), "bad_retreat").message
    elsewhere = s.illegal(RetreatUnits(0, "Rifle", 1, "Smolensk"), "bad_retreat")
    assert elsewhere.message == "You are sending units to Dacia: choose another area first."


FOUR_WAYS = ("Crimea", "Dacia", "Ruthenia", "Smolensk")
"""The French areas next to Ukraine in :func:`_crowded_retreat`."""
SIX_TYPES = {"Rifle": 3, "Knight": 2, "Cannon": 2, "Sword": 2, "Archer": 2, "Lt. Horse": 2}


def _crowded_retreat() -> Scenario:
    """E52's attack with six types of unit and two leaders, the French holding four areas next to Ukraine:
    sent a type at a time to any area, the old decision listed 6 x 4 x 2 + 2 x 4 = 56 moves."""
    s = Scenario(players=2)
    s.empire("French", owner=0, progress=30,
             units={"Dacia": {**SIX_TYPES, "Rifle": 5}, "Smolensk": {"Rifle": 1}, "Crimea": {"Rifle": 1},
                    "Ruthenia": {"Rifle": 1}},
             leaders={"Ney": ("Builder", "Dacia"), "Murat": ("Explorer", "Dacia")})
    s.empire("Russians", owner=1, progress=45, units={"Ukraine": {"Fighter": 1, "Tank": 1, "Knight": 5}})
    script_deck(s, 0, 7)
    manoeuvre(s, 0, "French").play(MoveFrom(0, "Dacia"))
    for unit, n in SIX_TYPES.items():
        s.play(MoveUnits(0, unit, n + (1 if unit == "Rifle" else 0)))
    s.play(TakeLeader(0, "Ney"), TakeLeader(0, "Murat"), MoveTo(0, "Ukraine"), StopHere(0), EndMovement(0),
           FightIn(0, "Ukraine"))
    commit(s, 0, {"Rifle": 1})
    commit(s, 1, {"Fighter": 1, "Tank": 1, "Knight": 5})
    return s.play(RetreatSplit(0))


def test_a_split_retreat_to_four_areas_stays_small_and_every_unit_may_go_anywhere() -> None:
    """Issue 26's small decisions for L765's "Units can retreat to different areas": the area first, then
    that area's units and leaders, so no decision reaches the 40 choices the playouts allow a manoeuvre;
    yet from each of the four areas' decisions every type (whole or one) and both leaders may be sent."""
    s = _crowded_retreat()
    assert s.legal(0) == [RetreatArea(0, a) for a in FOUR_WAYS]
    sizes = [len(s.legal(0))]
    for to in FOUR_WAYS:
        s.play(RetreatArea(0, to))
        offered = set(s.legal(0))
        sizes.append(len(offered))
        for unit, n in SIX_TYPES.items():
            assert {RetreatUnits(0, unit, n, to), RetreatUnits(0, unit, 1, to)} <= offered
        assert {RetreatLeader(0, "Ney", to), RetreatLeader(0, "Murat", to), RetreatArea(0, "")} <= offered
        s.play(RetreatArea(0, ""))
    assert max(sizes) <= battle.SEND_CHOICES + 1 < 40, sizes
    # one type to each area, the rest to Dacia: everything arrives where it was sent
    for to, unit in zip(FOUR_WAYS, SIX_TYPES, strict=False):
        s.play(RetreatArea(0, to), RetreatUnits(0, unit, SIX_TYPES[unit], to), RetreatArea(0, ""))
    s.play(RetreatArea(0, "Dacia"), RetreatUnits(0, "Archer", 2, "Dacia"), RetreatLeader(0, "Ney", "Dacia"),
           RetreatLeader(0, "Murat", "Dacia"))
    assert s.of_type("conflict_ended") == []  # the Lt. Horses are still in Ukraine
    s.play(RetreatUnits(0, "Lt. Horse", 1, "Dacia"), RetreatUnits(0, "Lt. Horse", 1, "Dacia"))
    french = s.empire_of("French")
    assert french.count("Ukraine") == 0
    assert [french.count(a) for a in FOUR_WAYS] == [1 + 3, 1 + 2 + 2 + 2, 1 + 2, 1 + 2]
    assert {ld.name: ld.area for ld in french.leaders} == {"Ney": "Dacia", "Murat": "Dacia"}
    assert s.of_type("conflict_ended")[-1]["winner"] == card("Russians")


def test_the_computer_retreats_everything_to_one_area() -> None:
    """The computer keeps sending the whole side to one area; a timed-out split sends everything to the
    first area too, a type at a time."""
    s = _e52()
    s.play(RetreatSplit(0))
    assert GAME.timeout_action(s.state, 0) == RetreatArea(0, "Dacia")
    s.apply(GAME.timeout_action(s.state, 0))
    assert GAME.timeout_action(s.state, 0) == RetreatUnits(0, "Rifle", 4, "Dacia")  # the biggest stack first
    while any(p.kind == battle.SCATTER for p in s.state.pending):
        s.apply(GAME.timeout_action(s.state, 0))
    french = s.empire_of("French")
    assert french.count("Dacia") == 1 + 6 and french.count("Smolensk") == 1
    assert {ld.area for ld in french.leaders} == {"Dacia"}


# -- the contract's checks on every new decision -----------------------------------------------------------

def _checked(s: Scenario) -> list[str]:
    """The shared contract's decision and swap checks for every seat asked now: each legal move offered once
    with a readable label, the timed-out move legal, and no move telling another seat what it hides."""
    out = Playout(registry.spec("seven-ages"), 2, 1)
    for seat in sorted(s.actors()):
        check_decision(out, GAME, s.state, seat, 0)
        check_hidden_moves(out, GAME, s.state, seat, 0)
    return out.problems


def test_the_new_decisions_keep_the_contract() -> None:
    pursued = _e52(pursuit=True).play(Retreat(0, "Dacia"))
    split = _e52().play(RetreatSplit(0))
    towards = _e52().play(RetreatSplit(0), RetreatArea(0, "Dacia"))
    both = _quick()
    one = _quick().play(Lose(0, "Archer", 1))
    for s, kinds in ((pursued, {battle.LOSSES}), (split, {battle.SCATTER}), (towards, {battle.SCATTER}),
                     (both, {battle.LOSSES}),
                     (one, {battle.LOSSES})):
        assert {p.kind for p in s.state.pending} == kinds
        assert _checked(s) == []
