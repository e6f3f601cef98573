"""The plain values every game and the platform exchange: seats, events, results and decisions."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
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


class Ending(StrEnum):
    """The ways a game ends, shared by every game (python-chess's ``Termination``); the value is what
    a stored result keeps, so a member is never renamed.

    Attributes:
        LAST_ROUND: the rulebook's whole game was played: its last epoch, era, round or card.
        TRACK_END: a marker went past the end of its track (7 Ages: an empire beyond level 49).
        TURN_LIMIT: the turn limit chosen for the game was reached.
        STAGE_LIMIT: the last age (epoch, era) chosen for the game was passed.
        TARGET: the score chosen as the target for the game was reached.
        CARD: a card played ends the game (7 Ages' Internet under option 16).
    """

    LAST_ROUND = "last_round"
    TRACK_END = "track_end"
    TURN_LIMIT = "turn_limit"
    STAGE_LIMIT = "stage_limit"
    TARGET = "target"
    CARD = "card"


@dataclass(frozen=True)
class Outcome:
    """How a game ended: the final scores, the places and why (:meth:`Game.outcome`).

    Attributes:
        scores: the final score of each seat, index = seat (:meth:`Game.scores`).
        places: the seats by place, best first; the seats of one place are tied on everything the game
            compares after all its tie-breaks, and share it (:meth:`Game.places`).
        reason: which way the game ended.
        why: the reason in the game's words, one sentence naming no seat ("The game ends: the turn
            limit of 12 was reached."), so any front may say it as it is.
    """

    scores: tuple[int, ...]
    places: tuple[tuple[PlayerId, ...], ...]
    reason: Ending
    why: str

    @property
    def ranking(self) -> tuple[PlayerId, ...]:
        """Every seat, best first; the seats sharing a place in seat order (:meth:`Game.ranking`)."""
        return tuple(seat for place in self.places for seat in place)

    @property
    def winners(self) -> tuple[PlayerId, ...]:
        """The seats of the first place (several when they share it)."""
        return self.places[0] if self.places else ()

    def to_json(self) -> dict[str, JSON]:
        """The stored result: the scores, the ranking and the places the platform always kept, with the
        reason and its sentence beside them."""
        return {"scores": list(self.scores), "ranking": list(self.ranking),
                "places": [list(place) for place in self.places],
                "reason": self.reason.value, "why": self.why}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Outcome | None:
        """The outcome a stored result holds; None for a result stored before outcomes had a reason
        (its scores and places are still read where they are needed, one key at a time)."""
        try:
            return cls(scores=tuple(int(x) for x in data["scores"]),
                       places=tuple(tuple(int(seat) for seat in place) for place in data["places"]),
                       reason=Ending(data["reason"]), why=str(data["why"]))
        except (KeyError, TypeError, ValueError):
            return None
