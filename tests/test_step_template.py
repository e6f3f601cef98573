"""The step template (:mod:`engine.contract.steps`), on a tiny game of its own defined here.

"Call and settle": both seats call a number at once, in secret (a simultaneous step); then seat 0
settles (or passes), and the game is over. Its steps are declared exactly as a real game declares
them, so these tests run the template itself, not a mock of it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from typing import ClassVar

import pytest

from engine.core import Action, Context, IllegalAction, PlayerId, Step, StepGame


class Phase(StrEnum):
    CALL = "call"
    SETTLE = "settle"
    OVER = "over"


@dataclass(frozen=True)
class Call(Action):
    kind: ClassVar[str] = "call"
    number: int


@dataclass(frozen=True)
class LoudCall(Call):
    """A call said aloud: a kind of its own the table does not list, filed under its base class."""

    kind: ClassVar[str] = "loud_call"


@dataclass(frozen=True)
class Settle(Action):
    kind: ClassVar[str] = "settle"


@dataclass(frozen=True)
class Pass(Action):
    kind: ClassVar[str] = "pass"


@dataclass(frozen=True)
class Tally:
    phase: Phase = Phase.CALL
    calls: tuple[int | None, ...] = (None, None)
    settled: bool = False
    seq: int = 0


Ctx = Context[Tally]


def _callers(state: Tally) -> tuple[PlayerId, ...]:
    return tuple(seat for seat, call in enumerate(state.calls) if call is None)


def _call(ctx: Ctx, action: Call) -> None:
    if not 1 <= action.number <= 3:
        raise IllegalAction("bad_number", "Call a number from 1 to 3.")
    calls = list(ctx.state.calls)
    calls[action.player] = action.number
    done = all(c is not None for c in calls)
    ctx.state = replace(ctx.state, calls=tuple(calls), phase=Phase.SETTLE if done else Phase.CALL)
    ctx.emit("called", player=action.player)


def _settle(ctx: Ctx, action: Settle) -> None:
    ctx.state = replace(ctx.state, settled=True, phase=Phase.OVER)


def _pass(ctx: Ctx, action: Pass) -> None:
    ctx.state = replace(ctx.state, phase=Phase.OVER)


STEPS: dict[Phase, Step[Tally, Ctx]] = {
    Phase.CALL: Step(expects="both players' calls", actors=_callers, handlers={Call: _call},
                     legal=lambda s, p: [Call(p, n) for n in (1, 2, 3)], timeout=lambda s, p: Call(p, 1),
                     not_yours=("already_called", "You have called; the other player is still calling.")),
    Phase.SETTLE: Step(expects="the first player to settle or pass", actors=lambda s: (0,),
                       handlers={Settle: _settle, Pass: _pass}, legal=lambda s, p: [Settle(p), Pass(p)],
                       timeout=lambda s, p: Pass(p)),
    Phase.OVER: Step(expects="nothing: the game is over", not_yours=("game_over", "The game is over.")),
}


class CallGame(StepGame[Tally, Ctx, Phase]):
    def __init__(self) -> None:
        super().__init__(STEPS, over=Phase.OVER)

    def step(self, state: Tally) -> Phase:
        return state.phase

    def begin(self, state: Tally) -> Ctx:
        return Ctx(state)

    def finish(self, ctx: Ctx) -> Tally:
        return replace(ctx.state, seq=ctx.state.seq + 1)


GAME = CallGame()


def refused(state: Tally, action: Action) -> IllegalAction:
    with pytest.raises(IllegalAction) as info:
        GAME.apply(state, action)
    return info.value


def test_a_move_goes_to_the_handler_its_class_is_filed_under() -> None:
    state = Tally(phase=Phase.SETTLE, calls=(2, 3))
    settled = GAME.apply(state, Settle(0)).state
    passed = GAME.apply(state, Pass(0)).state
    assert (settled.settled, settled.phase, settled.seq) == (True, Phase.OVER, 1)
    assert (passed.settled, passed.phase) == (False, Phase.OVER)
    assert state == Tally(phase=Phase.SETTLE, calls=(2, 3))  # the state given is never changed


def test_a_subclass_of_a_listed_action_is_handled_as_its_base() -> None:
    result = GAME.apply(Tally(), LoudCall(1, 3))
    assert result.state.calls == (None, 3)


def test_a_move_the_step_does_not_take_is_refused_naming_what_is_expected() -> None:
    state = Tally()
    error = refused(state, Settle(0))
    assert error.code == "wrong_step"
    assert error.message == "That move is not possible now: the game is waiting for both players' calls."
    assert refused(Tally(phase=Phase.SETTLE, calls=(1, 1)), Call(0, 2)).message == (
        "That move is not possible now: the game is waiting for the first player to settle or pass.")


def test_the_handlers_refusal_passes_through() -> None:
    assert refused(Tally(), Call(0, 7)).code == "bad_number"


def test_a_simultaneous_step_has_every_seat_still_to_move_as_actor() -> None:
    state = Tally()
    assert GAME.actors(state) == frozenset({0, 1})
    after_one = GAME.apply(state, Call(1, 2)).state
    assert GAME.actors(after_one) == frozenset({0})
    assert after_one.phase == Phase.CALL
    error = refused(after_one, Call(1, 3))
    assert error.code == "already_called"
    assert error.message == "You have called; the other player is still calling."
    both = GAME.apply(after_one, Call(0, 1)).state
    assert (both.phase, GAME.actors(both)) == (Phase.SETTLE, frozenset({0}))
    assert refused(both, Pass(1)).code == "not_your_turn"


class SeatedGame(CallGame):
    """The call game refusing a seat that is not in it before the step's own refusal."""

    def refusal(self, state: Tally, player: PlayerId) -> IllegalAction:
        if not 0 <= player < 2:
            return IllegalAction("not_seated", "There is no such seat in this game.")
        return super().refusal(state, player)


def test_a_non_actor_is_refused_through_the_games_refusal_hook() -> None:
    seated = SeatedGame()
    with pytest.raises(IllegalAction) as info:
        seated.apply(Tally(), Call(5, 1))
    assert info.value.code == "not_seated"
    with pytest.raises(IllegalAction) as info:
        seated.apply(Tally(calls=(2, None)), Call(0, 1))
    assert info.value.code == "already_called"  # the step's refusal stays the default


def test_legal_and_timeout_moves_come_from_the_step_and_only_for_actors() -> None:
    state = Tally(calls=(2, None))
    assert GAME.legal_actions(state, 1) == [Call(1, 1), Call(1, 2), Call(1, 3)]
    assert GAME.legal_actions(state, 0) == []
    assert GAME.timeout_action(state, 1) == Call(1, 1)
    with pytest.raises(IllegalAction, match="You have called"):
        GAME.timeout_action(state, 0)


def test_the_end_phase_is_over_and_refuses_every_move() -> None:
    over = Tally(phase=Phase.OVER, calls=(1, 2))
    assert GAME.is_over(over) and not GAME.is_over(Tally())
    assert GAME.actors(over) == frozenset()
    error = refused(over, Settle(0))
    assert (error.code, error.message) == ("game_over", "The game is over.")


def test_a_phase_stored_as_its_string_finds_its_step() -> None:
    # a state read back from JSON before it is typed again holds the plain string
    assert GAME.actors(Tally(phase="settle", calls=(1, 1))) == frozenset({0})  # type: ignore[arg-type]


def test_a_step_that_takes_moves_needs_a_timeout_move() -> None:
    with pytest.raises(ValueError, match="takes moves but has no timeout move"):
        Step[Tally, Ctx](expects="a call", actors=_callers, handlers={Call: _call})


def test_the_game_needs_a_step_for_its_end() -> None:
    with pytest.raises(ValueError, match="needs a step"):
        StepGame[Tally, Ctx, Phase]({Phase.CALL: STEPS[Phase.CALL]}, over=Phase.OVER)


@dataclass(frozen=True)
class Note(Action):
    """A remark any seat may make whatever the step: a move made at any time."""

    kind: ClassVar[str] = "note"


def _note(ctx: Ctx, action: Note) -> None:
    if action.player not in (0, 1):
        raise IllegalAction("not_seated", "Only the two players may make a remark.")
    ctx.emit("noted", player=action.player)


class NotingGame(CallGame):
    def __init__(self) -> None:
        StepGame.__init__(self, STEPS, over=Phase.OVER, anytime={Note: _note})


def test_a_move_made_at_any_time_skips_the_actors_and_the_step() -> None:
    game = NotingGame()
    called = Tally(calls=(2, None))  # seat 0 is no actor now
    for state in (called, Tally(phase=Phase.OVER, calls=(1, 2))):
        result = game.apply(state, Note(0))
        assert [e.type for e in result.events] == ["noted"]
        assert (result.state.phase, result.state.calls, result.state.seq) == (state.phase, state.calls, 1)
    assert game.legal_actions(called, 1) == [Call(1, 1), Call(1, 2), Call(1, 3)]  # never a step's move
    with pytest.raises(IllegalAction, match="Only the two players"):
        game.apply(called, Note(2))
    assert refused(called, Note(0)).code == "already_called"  # a game without it refuses as before
