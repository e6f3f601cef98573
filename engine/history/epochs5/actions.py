"""The actions of the 5-epoch rules, with their JSON codec."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engine.core import Action, ActionCodec


@dataclass(frozen=True)
class Draft(Action):
    """Keep one card of the set you are looking at (an event card or an empire card)."""

    kind: ClassVar[str] = "draft"
    card: str


@dataclass(frozen=True)
class Keep(Action):
    """Classic drafting: keep the card you drew from the ``pile`` ("event" or "empire")."""

    kind: ClassVar[str] = "keep"
    pile: str


@dataclass(frozen=True)
class Give(Action):
    """Classic drafting: give the drawn card to a player without a card of that set."""

    kind: ClassVar[str] = "give"
    pile: str
    to: int


@dataclass(frozen=True)
class PlayEvent(Action):
    """Play an event card: a kingdom before your empire, an enhancement between invasions."""

    kind: ClassVar[str] = "play"
    card: str


@dataclass(frozen=True)
class Choose(Action):
    """Name a target (a territory, a sea or a barren land) for the event being played."""

    kind: ClassVar[str] = "choose"
    target: str


@dataclass(frozen=True)
class Done(Action):
    """Finish a step: skip the kingdom, or stop choosing targets."""

    kind: ClassVar[str] = "done"


@dataclass(frozen=True)
class Invade(Action):
    """Place an army from the card in a territory; ``route`` is auto, land or sea (use a fleet)."""

    kind: ClassVar[str] = "invade"
    land: str
    route: str = "auto"


@dataclass(frozen=True)
class Fortify(Action):
    """Spend an army from the card to put a fort where an active army stands."""

    kind: ClassVar[str] = "fortify"
    land: str


@dataclass(frozen=True)
class Stop(Action):
    """Stop invading: the armies left on the card go back; build monuments, resign and score."""

    kind: ClassVar[str] = "stop"


@dataclass(frozen=True)
class Reroll(Action):
    """During a battle, use an invader's reroll on one of your dice (0 = first)."""

    kind: ClassVar[str] = "reroll"
    die: int


@dataclass(frozen=True)
class Accept(Action):
    """During a battle, pass on your reroll and let the dice stand."""

    kind: ClassVar[str] = "accept"


@dataclass(frozen=True)
class Siege(Action):
    """After losing a battle: put an army or siege token on the catapult and fight again."""

    kind: ClassVar[str] = "siege"


@dataclass(frozen=True)
class Retreat(Action):
    """After losing a battle: give up this territory (the catapult empties)."""

    kind: ClassVar[str] = "retreat"


@dataclass(frozen=True)
class Track(Action):
    """Your score marker landed on another's space: move it "up" or "down" until alone."""

    kind: ClassVar[str] = "track"
    direction: str


@dataclass(frozen=True)
class Prefer(Action):
    """Set a standing preference used when a choice falls to you outside your turn.

    ``reroll`` (naval reroll as defender): ``if_losing`` | ``if_not_winning`` | ``never``;
    ``track`` (your marker lands on another's space): ``ask`` | ``up`` | ``down``.
    Any seated player may send it at any time; it never changes whose move it is.
    """

    kind: ClassVar[str] = "prefer"
    key: str
    value: str


CODEC = ActionCodec(
    Draft,
    Keep,
    Give,
    PlayEvent,
    Choose,
    Done,
    Invade,
    Fortify,
    Stop,
    Reroll,
    Accept,
    Siege,
    Retreat,
    Track,
    Prefer,
)
