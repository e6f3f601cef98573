"""Why a game of 7 Ages ended (:meth:`engine.core.Game.outcome`), read back from the finished state.

The game ends at the end of the turn in which an empire progressed beyond level 49, or at the turn
limit, end age or glory target chosen in the lobby (L313-315, :func:`engine.seven_ages.steps.end_reason`),
or at once when the Internet is played under option 16 (L315, L1694,
:mod:`engine.seven_ages.progress_markers`). The state keeps no note of which: the finished state
answers, since the game stops on the turn it ends and nothing changes after.
"""

from __future__ import annotations

from engine.core import Ending
from engine.seven_ages.artefact_powers import powers_on
from engine.seven_ages.progress_markers import INTERNET
from engine.seven_ages.state import PAST_THE_END, SevenState
from engine.seven_ages.steps import end_reason
from engine.seven_ages.text import empire_name


def ending(state: SevenState) -> tuple[Ending, str]:
    """The way ``state``, a finished game, ended, and its sentence.

    The Internet goes first: it ends the game in the middle of a turn, whatever the turn's end would
    have found (an empire beyond level 49 or the turn limit as well). The turn's own reasons come in
    the order the end of a turn checks them.

    Raises:
        ValueError: ``state`` is not a finished game (no reason to end holds).
    """
    if powers_on(state) and any(INTERNET in e.artefacts for e in state.empires):
        return Ending.CARD, "The game ends: the Internet was played, and it ends history (option 16)."
    opts = state.options
    match end_reason(state):
        case "level":
            first = min((e for e in state.empires if e.progress >= PAST_THE_END), key=lambda e: e.passed)
            return Ending.TRACK_END, (f"The game ends: {empire_name(first.card)} progressed beyond level "
                                      f"{PAST_THE_END - 1}, the end of the progress track.")
        case "turns":
            return Ending.TURN_LIMIT, f"The game ends: the turn limit of {opts['turn_limit']} was reached."
        case "age":
            return Ending.STAGE_LIMIT, (f"The game ends: an empire went beyond age {opts['end_age']}, the "
                                        "last age chosen for this game.")
        case "glory":
            return Ending.TARGET, (f"The game ends: a player reached the glory target of "
                                   f"{opts['glory_target']}.")
    raise ValueError("the game is not over: no reason for its end holds")
