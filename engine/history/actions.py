"""The actions of classic History of the World, with their JSON codec."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engine.core import Action, ActionCodec


@dataclass(frozen=True)
class Keep(Action):
    """Keep the empire card you just drew."""

    kind: ClassVar[str] = "keep"


@dataclass(frozen=True)
class Give(Action):
    """Give the empire card you just drew to a player who has none."""

    kind: ClassVar[str] = "give"
    to: int


@dataclass(frozen=True)
class PlayCard(Action):
    """Play an event card from your hand (before your first army).

    ``pieces`` is the far-away epoch whose pieces the card's armies use, where the
    rulebook lets the player choose (Chapter IV); 0 takes the default.
    """

    kind: ClassVar[str] = "play"
    card: str
    pieces: int = 0


@dataclass(frozen=True)
class Choose(Action):
    """Name a target for the card being resolved (a land, an area or a sea)."""

    kind: ClassVar[str] = "choose"
    target: str


@dataclass(frozen=True)
class Done(Action):
    """Finish the current step (events, a card's targets, a Minor Empire, reallocation...)."""

    kind: ClassVar[str] = "done"


@dataclass(frozen=True)
class Expand(Action):
    """Place an army from the pool into a land, fighting if it is held by an enemy."""

    kind: ClassVar[str] = "expand"
    land: str


@dataclass(frozen=True)
class BuildFort(Action):
    """Put a fort into a land held by the active empire; pay with "army", "coin" or "auto"."""

    kind: ClassVar[str] = "fort"
    land: str
    pay: str = "auto"


@dataclass(frozen=True)
class BuyBack(Action):
    """Spend a coin to return an army lost in combat this turn to the pool."""

    kind: ClassVar[str] = "buyback"


@dataclass(frozen=True)
class AttackFleet(Action):
    """Naval Control option: fight the fleet another player keeps in a sea."""

    kind: ClassVar[str] = "attack_fleet"
    sea: str


@dataclass(frozen=True)
class ManFleet(Action):
    """Naval Control option: put an army from the pool on your fleet in a sea."""

    kind: ClassVar[str] = "man_fleet"
    sea: str


@dataclass(frozen=True)
class EndTurn(Action):
    """End expansion: build monuments, clean up and score."""

    kind: ClassVar[str] = "end_turn"


CODEC = ActionCodec(
    Keep, Give, PlayCard, Choose, Done, Expand, BuildFort, BuyBack, AttackFleet, ManFleet, EndTurn
)
