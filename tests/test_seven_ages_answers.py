"""7 Ages finds a move's rules and words by its class in tables (issue 31), never by testing the class.

:class:`engine.seven_ages.answers.Answers` files each class a decision takes under its rules and refuses
any other class with the decision's one sentence; the words of every move a decision may offer are in one
of the words tables :mod:`engine.seven_ages.decision` reads.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest

from engine.core import Action, IllegalAction
from engine.seven_ages import decision
from engine.seven_ages.actions import CODEC, Done, Prefer
from engine.seven_ages.answers import Answers
from engine.seven_ages.civilisation_moves import Arm, Disarm
from engine.seven_ages.game import GAME  # noqa: F401  (importing the game registers every module's words)
from engine.seven_ages.manoeuvre_moves import MoveTo, Pacify
from engine.seven_ages.pacify import MOVES


@dataclass(frozen=True)
class _LateDone(Done):
    """A move of a class derived from one the table lists (as the engine's steps find a handler)."""

    kind = "late_done"


def _finish(action: Action) -> str:
    return f"finished by {action.player}"


def _pacify(action: Action) -> str:
    return f"pacified for {action.player}"


TABLE: Answers[Callable[[Action], str]] = Answers({Done: _finish, Pacify: _pacify}, "wrong_move",
                                                  "Remove disorder by your units, or finish.")


def test_a_move_gets_the_rules_filed_under_its_class() -> None:
    assert TABLE.of(Done(1))(Done(1)) == "finished by 1"
    assert TABLE.of(Pacify(0, "Armenia", "Spear"))(Pacify(0, "Armenia", "Spear")) == "pacified for 0"


def test_a_move_of_a_derived_class_gets_the_rules_of_the_class_it_derives_from() -> None:
    """As an isinstance test did, and as :meth:`engine.core.Step.handler` finds a step's handler."""
    assert TABLE.of(_LateDone(2))(_LateDone(2)) == "finished by 2"


def test_a_move_of_another_class_is_refused_with_the_decisions_sentence() -> None:
    with pytest.raises(IllegalAction) as refused:
        TABLE.of(MoveTo(0, "Armenia"))
    assert (refused.value.code, refused.value.message) == ("wrong_move",
                                                           "Remove disorder by your units, or finish.")


def test_pacifying_takes_a_pacify_and_a_done_and_nothing_else() -> None:
    """The ``pacify`` stage's table (L680-688): removing an area's disorder, or finishing."""
    assert set(MOVES.handlers) == {Pacify, Done}
    with pytest.raises(IllegalAction) as refused:
        MOVES.of(MoveTo(0, "Armenia"))
    assert refused.value.message == "Remove disorder by your units, or finish."


def test_every_move_a_decision_may_offer_has_words() -> None:
    """Each class of the codec is worded by a words table (by kind, or by the class in decision's own),
    except the standing moves, worded by the orders (:mod:`engine.seven_ages.orders`) and never offered
    in a decision."""
    worded = {*decision._LABELS, *decision._NAMED, *(cls.kind for cls in decision._OWN_LABELS)}
    standing = {Prefer.kind, Arm.kind, Disarm.kind}
    assert [k for k in CODEC.kinds if k not in worded and k not in standing] == []
