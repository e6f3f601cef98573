"""The plain values every game and the platform exchange: seats, events, results and decisions."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.contract.basics import JSON, PUBLIC, PlayerId
from engine.contract.codec import Action


@dataclass(frozen=True)
class Event:
    """Something that happened, addressed to an audience.

    ``audience`` is :data:`PUBLIC` or a tuple of the players who may see it.
    """

    type: str
    data: Mapping[str, JSON] = field(default_factory=dict)
    audience: str | tuple[PlayerId, ...] = PUBLIC

    def visible_to(self, viewer: PlayerId | None) -> bool:
        return self.audience == PUBLIC or (viewer is not None and viewer in self.audience)

    def to_json(self) -> dict[str, JSON]:
        audience: JSON = self.audience if self.audience == PUBLIC else list(self.audience)
        return {"type": self.type, "data": dict(self.data), "audience": audience}




@dataclass(frozen=True)
class Result:
    """What :meth:`Game.apply` returns: the new state and what happened."""

    state: Any
    events: tuple[Event, ...]


Names = Sequence[str]
"""How the platform names each seat, index = seat: ``["alice (Red)", "bob (Blue)"]``.

Every text hook takes it, so a line names a player the same way everywhere; the
engine never sees user ids or invents "Player 2".
"""


@dataclass(frozen=True)
class Choice:
    """One legal move as a player is offered it.

    Attributes:
        action: the move itself (one of ``legal_actions``).
        label: what the button or select option says, at most 100 characters and
            unique within its decision; built from the player's view only.
        group: for a two-step pick (a move's source, then its target), the first
            step's label; empty when the move stands alone.
        confirm: a question asked before the move is sent (ending a turn with
            armies unspent); empty when none is needed.
    """

    action: Action
    label: str
    group: str = ""
    confirm: str = ""


@dataclass(frozen=True)
class Decision:
    """What one player decides now: a heading and the legal moves to choose from.

    ``heading`` says what is decided and for what ("Civil War: choose the first
    land, 1 of 3"; "Keep or give the drawn card Sumeria"). ``choices`` hold every
    legal move of the player exactly once, in the order they are best shown.
    """

    player: PlayerId
    heading: str
    choices: tuple[Choice, ...]
