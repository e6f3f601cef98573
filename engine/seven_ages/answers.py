"""The moves one decision of a go takes, by class, and the one refusal of any other move.

A go's stages and the pending decisions inside it (a conflict's losses, a keeper asked to let Range count
through) each take a few classes of move; a table ``{action class: handler}`` says which, as the steps'
and the go rules' do (:attr:`engine.seven_ages.markers.BaseGoRules.handlers`), so no rule tests a move's
class itself.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Generic, TypeVar

from engine.core import Action, IllegalAction

H = TypeVar("H")
"""The handlers' type: what the decision's rules call with the move."""


@dataclass(frozen=True)
class Answers(Generic[H]):
    """A decision's moves by class, and the refusal of a move of any other class.

    Attributes:
        handlers: each action class the decision takes, and its rules.
        code: the refusal's code for a move of another class.
        sentence: the refusal's sentence for it, saying what the decision asks.
    """

    handlers: Mapping[type[Action], H]
    code: str
    sentence: str

    def of(self, action: Action) -> H:
        """The rules of ``action``'s class (or of a class it derives from, as the engine's steps find
        theirs: :meth:`engine.core.Step.handler`); refused with the decision's sentence when it takes no
        such move.

        Raises:
            IllegalAction: the decision takes no move of ``action``'s class.
        """
        found = self.handlers.get(type(action))
        if found is None:
            found = next((self.handlers[cls] for cls in type(action).__mro__ if cls in self.handlers), None)
        if found is None:
            raise IllegalAction(self.code, self.sentence)
        return found
