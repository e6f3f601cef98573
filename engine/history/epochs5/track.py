"""The score track: points gained, and the rule that two markers never share a space.

"If your score marker would end in a space of the track that is already
occupied by another player's marker, you can choose whether to gain a point or
lose a point ... until your token ends in an empty space." Past 99 a marker is
flipped to its 100+ side, so it shares the physical space ``score % 100`` with
a marker below 100; the rule is about spaces, so collisions compare spaces.
Moving in one direction until alone reaches every outcome alternating could
(the nearest empty space above or below), so the choice is made once: by the
``Track`` action, or at once by the player's standing preference ``track``
(``up`` or ``down``; ``ask``, the default, waits for the action).
"""

from __future__ import annotations

from engine.core import IllegalAction
from engine.history.epochs5.board import Ctx
from engine.history.epochs5.state import State, TurnStep

TRACK_SPACES = 100


def space(score: int) -> int:
    return score % TRACK_SPACES


def occupied(state: State, player: int, score: int) -> bool:
    return any(space(s) == space(score) for p, s in enumerate(state.scores) if p != player)


def gain(ctx: Ctx, player: int, points: int, why: str, resume: str) -> bool:
    """Advance ``player`` by ``points``; True when the marker landed on another and waits.

    While it waits the turn is at the ``track`` step and ``resume`` is where it goes next.
    """
    state = ctx.state
    new = state.scores[player] + points
    ctx.emit("points", player=player, points=points, why=why)
    if points > 0 and occupied(state, player, new):
        standing = state.prefs[player].get("track", "ask")
        if standing in ("up", "down"):
            state.scores[player] = _settle(state, player, new, standing)
            ctx.emit(
                "track_moved", player=player, direction=standing, score=state.scores[player], standing=True
            )
            return False
        turn = ctx.turn
        turn.track = {"at": new, "resume": resume, "why": why}
        turn.step = TurnStep.TRACK
        return True
    state.scores[player] = new
    return False


def _settle(state: State, player: int, at: int, direction: str) -> int:
    step = 1 if direction == "up" else -1
    while occupied(state, player, at):
        at += step
    return at


def move(ctx: Ctx, direction: str) -> str:
    """The ``Track`` action: step the waiting marker up or down until alone; return the resume step."""
    turn = ctx.turn
    if turn.step is not TurnStep.TRACK or turn.track is None:
        raise IllegalAction("no_tie", "Your score marker does not share a space.")
    if direction not in ("up", "down"):
        raise IllegalAction("bad_direction", "Move your score marker 'up' or 'down'.", direction=direction)
    state = ctx.state
    at = _settle(state, turn.player, int(turn.track["at"]), direction)
    state.scores[turn.player] = at
    ctx.emit("track_moved", player=turn.player, direction=direction, score=at)
    resume = str(turn.track["resume"])
    turn.track = None
    # "end": the marker moved while the turn was scored, and scoring ends the turn
    turn.step = TurnStep.SCORING if resume == "end" else TurnStep(resume)
    return resume
