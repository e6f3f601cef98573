"""The end of a game is one :class:`engine.core.Outcome` (issue 31): the contract's check of it, which every
registered game's playouts run (:func:`tests.contract.checks.outcome_problem`), catches each way an
outcome can be wrong; a tie the game does not break shares its place; a stored result reads back.

The playouts themselves (``test_game_contract.py``) check every registered game at every checkpoint:
no outcome while the game runs, and at the end the game's scores and places with a worded reason.
"""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from engine.core import Ending, Outcome
from tests.contract.checks import outcome_problem
from tests.toy.game import Bid, ToyGame, ToyState

WHY = "The game ends: all 5 prizes have been bid for."


def finished(game: ToyGame, *bids: tuple[int, int]) -> ToyState:
    """A two-seat toy game played to its end by ``bids``, one (seat 0's card, seat 1's card) a round."""
    state = game.setup(2, {}, 7)
    for mine, theirs in bids:
        state = game.apply(state, Bid(player=0, card=mine)).state
        state = game.apply(state, Bid(player=1, card=theirs)).state
    assert game.is_over(state)
    return state


def test_a_tie_no_rule_breaks_shares_first_place() -> None:
    game = ToyGame()
    state = finished(game, *((card, card) for card in range(1, 6)))  # equal bids take nothing
    outcome = game.outcome(state)
    assert outcome == Outcome(scores=(0, 0), places=((0, 1),), reason=Ending.LAST_ROUND, why=WHY)
    assert outcome.winners == (0, 1) and outcome.ranking == (0, 1)
    assert outcome_problem(game, state) is None


def test_the_better_seat_is_first_whatever_its_number() -> None:
    game = ToyGame()
    state = finished(game, (1, 2), (2, 1), (3, 4), (4, 5), (5, 3))  # seat 1 outbids in three rounds of five
    outcome = game.outcome(state)
    assert outcome is not None and outcome.places == ((1,), (0,)) and outcome.winners == (1,)
    assert outcome.scores == tuple(game.scores(state)) and outcome.scores[1] > outcome.scores[0]


class Misreported(ToyGame):
    """The toy, its outcome wrong in one way at a time (what the contract's check must catch)."""

    def __init__(self, fault: str) -> None:
        super().__init__()
        self.fault = fault

    def outcome(self, state: ToyState) -> Outcome | None:
        if self.fault == "early":
            return Outcome((0, 0), ((0, 1),), Ending.LAST_ROUND, WHY)
        right = super().outcome(state)
        if right is None or self.fault == "missing":
            return None
        return {
            "places": replace(right, places=((0,), (1,))),
            "scores": replace(right, scores=(9, 9)),
            "unworded": replace(right, why="The game ends: {reason}."),
            "bare": replace(right, why="Over"),
        }[self.fault]


@pytest.mark.parametrize("fault", ["places", "scores", "unworded", "bare", "missing"])
def test_the_check_finds_a_wrong_outcome_at_the_end(fault: str) -> None:
    game = Misreported(fault)
    state = finished(game, *((card, card) for card in range(1, 6)))
    assert outcome_problem(game, state) is not None


def test_the_check_finds_an_outcome_before_the_end() -> None:
    game = Misreported("early")
    assert outcome_problem(game, game.setup(2, {}, 7)) is not None
    assert outcome_problem(ToyGame(), game.setup(2, {}, 7)) is None


def test_a_stored_result_reads_back_and_one_without_a_reason_reads_as_none() -> None:
    outcome = Outcome(scores=(3, 9, 9), places=((1, 2), (0,)), reason=Ending.TURN_LIMIT,
                      why="The game ends: the turn limit of 12 was reached.")
    stored = json.loads(json.dumps(outcome.to_json()))
    assert stored == {"scores": [3, 9, 9], "ranking": [1, 2, 0], "places": [[1, 2], [0]],
                      "reason": "turn_limit", "why": "The game ends: the turn limit of 12 was reached."}
    assert Outcome.from_json(stored) == outcome
    old = {"scores": [3, 9, 9], "ranking": [1, 2, 0], "places": [[1, 2], [0]]}  # before issue 31
    assert Outcome.from_json(old) is None
    assert Outcome.from_json({**stored, "reason": "resigned"}) is None  # no such way to end
