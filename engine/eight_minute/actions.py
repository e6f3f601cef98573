"""The actions of Eight-Minute Empire, with their JSON codec.

Every decision is a short list: a bid, a card position, which action of an
and/or card, then one army at a time (place one, move one a single step,
build one city, destroy one army), with ``done`` to stop early or to ignore
the card's action.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engine.core import Action, ActionCodec


@dataclass(frozen=True)
class Bid(Action):
    """The secret bid for choosing the first player: 0 up to all your coins."""

    kind: ClassVar[str] = "bid"
    amount: int


@dataclass(frozen=True)
class PlaceNeutral(Action):
    """2 players, before play: put one neutral army in any region."""

    kind: ClassVar[str] = "neutral"
    region: str


@dataclass(frozen=True)
class ChooseFirst(Action):
    """The bid's winner names the first player."""

    kind: ClassVar[str] = "first"
    seat: int


@dataclass(frozen=True)
class TakeCard(Action):
    """Take the face-up card at ``position`` (0 = leftmost), paying its price."""

    kind: ClassVar[str] = "take"
    position: int


@dataclass(frozen=True)
class ChooseAction(Action):
    """On an and/or card, pick which of its two actions to do (first)."""

    kind: ClassVar[str] = "choose"
    index: int


@dataclass(frozen=True)
class Place(Action):
    """Place one new army on the start region or a region with your city."""

    kind: ClassVar[str] = "place"
    region: str


@dataclass(frozen=True)
class Move(Action):
    """Move one of your armies one step, from ``source`` to the linked region ``to``."""

    kind: ClassVar[str] = "move"
    source: str
    to: str


@dataclass(frozen=True)
class BuildCity(Action):
    """Build one of your cities in a region where you have an army."""

    kind: ClassVar[str] = "city"
    region: str


@dataclass(frozen=True)
class Destroy(Action):
    """Remove one army of ``owner`` (a seat, or -1 for neutral) from ``region``."""

    kind: ClassVar[str] = "destroy"
    region: str
    owner: int


@dataclass(frozen=True)
class Done(Action):
    """Stop the action under way (keep the rest unused), or ignore the card's action."""

    kind: ClassVar[str] = "done"


CODEC = ActionCodec(Bid, PlaceNeutral, ChooseFirst, TakeCard, ChooseAction, Place, Move, BuildCity,
                    Destroy, Done)
