"""Option 14 in a sea conflict: the player chooses which marines go with the ships they commit (L1354).

L1354: "When Resolving conflict in a sea area, Infantry and missiles must (and can only) be committed to
the conflict when their transporting ships are committed". Each ship carries one land unit (L630), so a
committed ship takes one unit aboard with it; which one is the owner's choice, made in the same secret
commitment. Scenarios use the fluent builder and ``GAME.apply`` only.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.seven_ages import battle_ai
from engine.seven_ages.battle import COMMIT
from engine.seven_ages.conflict_moves import Board, Commit, CommitDone, FightIn
from engine.seven_ages.game import GAME
from engine.seven_ages.manoeuvre_moves import EndMovement
from tests.seven_ages_builder import Scenario, cards_of_value

SHIP = "Ship-of-the-line"


def sea_fight(aboard: dict[str, int], ships: int = 2) -> Scenario:
    """Light blue Greeks with ``ships`` ships-of-the-line and ``aboard`` in the Aegean (Achaea theirs, so the
    marines may stay at sea, L1352) against a Persian ship; the Greeks' first round is under way."""
    s = Scenario(players=2, options={"marines": True})
    s.empire("Hellenic Greeks", owner=0, progress=10, colour="light blue",
             units={"Aegean": {SHIP: ships, **aboard}, "Achaea": {"Spear": 1}})
    s.empire("Persians", owner=1, progress=10, colour="light green",
             units={"Aegean": {SHIP: 1}, "Ionia": {"Spear": 1}})
    in_play = tuple(e.card for e in s.state.empires)
    top = cards_of_value(3, 3, avoid=in_play)
    s.state = replace(s.state, deck=(*top, *(c for c in s.state.deck if c not in top)))
    s.marker(0, "manoeuvre", "Hellenic Greeks").at("manoeuvre").turn_over(0, "Hellenic Greeks")
    return s.play(EndMovement(0), FightIn(0, "Aegean"))


def revealed_units(s: Scenario, seat: int) -> list[list[object]]:
    side = next(x for x in s.of_type("conflict_revealed")[-1]["sides"] if x["seat"] == seat)
    return list(side["units"])


def test_the_player_chooses_a_spear_rather_than_the_catapult() -> None:
    """A committed ship waits for its unit: the player picks the spear (front 1, support 1 in light blue)
    over the catapult (2, 3) the computer would take, and nothing else is accepted until then."""
    s = sea_fight({"Spear": 1, "Catapult": 1})
    s.play(Commit(0, SHIP, 1))
    assert s.legal(0) == [Board(0, "Catapult", 1), Board(0, "Spear", 1)]
    error = s.illegal(CommitDone(0), "marines_first")
    assert error.message == "First choose the 1 unit aboard that go with the ships you committed (L1354)."
    s.illegal(Commit(0, SHIP, 1), "marines_first")
    s.illegal(Board(0, "Spear", 2), "not_uncommitted")
    s.play(Board(0, "Spear", 1))
    assert s.of_type("conflict_committing")[-1]["units"] == [[SHIP, 1], ["Spear", 1]]
    assert not [a for a in s.legal(0) if isinstance(a, Board)]
    s.illegal(Board(0, "Catapult", 1), "no_boarding")
    s.play(CommitDone(0), Commit(1, SHIP, 1), CommitDone(1))
    assert revealed_units(s, 0) == [[SHIP, 1], ["Spear", 1]]


def test_the_choice_is_secret_until_the_reveal() -> None:
    """Nothing of the choice reaches the other seat or a spectator: their views are unchanged and every
    event of the moves is addressed to the committing seat alone (L706)."""
    s = sea_fight({"Spear": 1, "Catapult": 1})
    before = {viewer: _seen(s, viewer) for viewer in (1, None)}
    for move in (Commit(0, SHIP, 1), Board(0, "Spear", 1)):
        result = s.apply(move)
        assert result.events and all(e.audience == (0,) for e in result.events)
    assert {viewer: _seen(s, viewer) for viewer in (1, None)} == before


def _seen(s: Scenario, viewer: int | None) -> dict[str, object]:
    """What ``viewer`` sees, less the count of moves played."""
    view = dict(GAME.view(s.state, viewer))
    view.pop("seq")
    return view


@pytest.mark.parametrize(("ships", "aboard", "committed"), [
    (1, {"Spear": 2}, [[SHIP, 1], ["Spear", 1]]),  # one type aboard
    (2, {"Spear": 1, "Catapult": 1}, [["Catapult", 1], [SHIP, 2], ["Spear", 1]]),  # every unit aboard goes
])
def test_a_forced_choice_asks_nothing(ships: int, aboard: dict[str, int],
                                      committed: list[list[object]]) -> None:
    s = sea_fight(aboard, ships=ships)
    s.play(Commit(0, SHIP, ships))
    assert not [a for a in s.legal(0) if isinstance(a, Board)]
    assert CommitDone(0) in s.legal(0)
    assert s.of_type("conflict_committing")[-1]["units"] == committed


def test_the_computer_and_a_timed_out_seat_take_the_strongest() -> None:
    """The computer's commitment (the greedy player's, and a timed-out seat's) boards the catapult (2 + 3)
    before the spear (1 + 1)."""
    s = sea_fight({"Spear": 1, "Catapult": 1})
    s.play(Commit(0, SHIP, 1))
    assert GAME.timeout_action(s.state, 0) == Board(0, "Catapult", 1)
    pending = next(p for p in s.state.pending if p.kind == COMMIT and p.seat == 0)
    assert battle_ai.commit_choice(s.state, pending) == Board(0, "Catapult", 1)
    s.play(GAME.timeout_action(s.state, 0))
    pending = next(p for p in s.state.pending if p.kind == COMMIT and p.seat == 0)
    assert pending.data["units"] == {SHIP: 1, "Catapult": 1}
    assert CommitDone(0) in s.legal(0)


def test_the_choice_reads_as_a_sentence() -> None:
    s = sea_fight({"Spear": 2, "Catapult": 1}, ships=3)
    s.play(Commit(0, SHIP, 2))
    names = ["alice (Blue)", "bob (Red)"]
    decision = GAME.decision(GAME.view(s.state, 0), 0, s.legal(0), names)
    assert [c.label for c in decision.choices] == [
        "1 Catapult aboard goes with a ship you committed",
        "1 Spear aboard goes with a ship you committed",
        "2 Spears aboard go with the ships you committed"]
