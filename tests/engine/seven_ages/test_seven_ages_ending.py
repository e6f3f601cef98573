"""Why a game of 7 Ages ended (issue 31): each end the rulebook names (L313-315, L1694), played to it.

A game ends at the end of the turn in which an empire progressed beyond level 49, or at the time,
glory total or age the players chose beforehand (L315); under option 16 playing the Internet ends it
at once (L1694). The game's outcome names which, in one sentence.
"""

from __future__ import annotations

from dataclasses import replace

from engine.core import Ending
from engine.seven_ages.game import GAME
from engine.seven_ages.state import MARKERS, OVER, SevenState
from tests.support.seven_ages_builder import Scenario

NO_END = {"turn_limit": 0, "end_age": 7, "glory_target": 0}
"""No end chosen in the lobby: only the rulebook's own end (or the one a test sets) stops the game."""
SPEAR = {"Spear": 1}
EGYPT = {"Egypt": SPEAR}
"""An empire's one unit, so it stays in play through the turn."""


def played_to_the_end(scenario: Scenario) -> SevenState:
    """The scenario's turn played out with every seat's most passive moves; the game must end."""
    scenario.at(MARKERS)
    assert GAME.outcome(scenario.state) is None  # nothing to say while the game runs
    state = scenario.end_turn().state
    assert state.phase == OVER
    return state


def test_the_turn_limit() -> None:
    scenario = Scenario(options={**NO_END, "turn_limit": 1}).empire("Egyptians", 0, 3, units=EGYPT)
    state = played_to_the_end(scenario)
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.reason is Ending.TURN_LIMIT
    assert outcome.why == "The game ends: the turn limit of 1 was reached."


def test_the_glory_target() -> None:
    scenario = Scenario(options={**NO_END, "glory_target": 5}).empire("Egyptians", 0, 3, units=EGYPT)
    people = list(scenario.state.people)
    people[1] = people[1].gain("test", 6)
    state = played_to_the_end(scenario.set(people=tuple(people)))
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.reason is Ending.TARGET
    assert outcome.why == "The game ends: a player reached the glory target of 5."


def test_the_end_age() -> None:
    # level 8 is in age 2 (L409): beyond an end age of 1
    scenario = Scenario(options={**NO_END, "end_age": 1})
    scenario.empire("Macedonians", 0, 8, units={"Macedonia": SPEAR})
    state = played_to_the_end(scenario)
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.reason is Ending.STAGE_LIMIT
    assert outcome.why == "The game ends: an empire went beyond age 1, the last age chosen for this game."


def test_an_empire_beyond_level_49_ends_the_game_even_at_the_turn_limit() -> None:
    """The track's end is the rulebook's own end (L313): it is the reason given when the turn limit
    falls on the same turn, and its player's 7 bonus glory shows in the outcome's scores."""
    scenario = Scenario(options={**NO_END, "turn_limit": 1}).empire("Egyptians", 2, 49, units=EGYPT)
    egyptians = replace(scenario.state.empires[0], progress=50, passed=1)
    state = played_to_the_end(scenario.set(empires=(egyptians,)))
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.reason is Ending.TRACK_END
    assert outcome.why == ("The game ends: the Egyptians progressed beyond level 49, the end of the "
                           "progress track.")
    assert outcome.scores[2] >= 7 and outcome.winners == (2,)


def test_the_internet_under_option_16_goes_before_the_turns_reason() -> None:
    """Played under option 16 the Internet ends the game where it is (L315, L1694), whatever the end of
    that turn would have found; without option 16 it ends nothing, and the turn's reason stands."""
    scenario = Scenario(options={**NO_END, "turn_limit": 1}).empire("Egyptians", 0, 45, units=EGYPT)
    limit = played_to_the_end(scenario)
    online = replace(limit.empires[0], artefacts=("Internet",))
    with_powers = replace(limit, empires=(online,), options={**limit.options, "artefact_powers": True})
    outcome = GAME.outcome(with_powers)
    assert outcome is not None and outcome.reason is Ending.CARD
    assert outcome.why == "The game ends: the Internet was played, and it ends history (option 16)."
    without = GAME.outcome(replace(with_powers, options={**limit.options, "artefact_powers": False}))
    assert without is not None and without.reason is Ending.TURN_LIMIT


def test_a_tie_on_glory_and_progress_is_won_by_both() -> None:
    """"If still equal, they both win" (L311): two seats with the same glory and equally advanced
    empires share first place in the outcome, never ordered by their seats."""
    scenario = Scenario(options={**NO_END, "turn_limit": 1}).empire("Egyptians", 0, 5, units=EGYPT)
    scenario.empire("Sumerians", 1, 5, units={"Sumer": SPEAR})
    state = played_to_the_end(scenario)
    people = tuple(replace(p, glory=10 if p.seat in (0, 1) else 2) for p in state.people)
    outcome = GAME.outcome(replace(state, people=people))
    assert outcome is not None and outcome.places[0] == (0, 1) and outcome.winners == (0, 1)
