"""The actions of Rise of Empires, with their JSON codec.

A player's action is: in an A turn ``select`` a row of the action display (a
disc goes into the row's rightmost free circle); in a B turn ``take_back`` one
of your discs together with the whole payment for the discs to its left (one
move, so a removal is never left half paid); then the row's own choice
(``progress``, ``territory``, ``city``, ``empire``, ``trade``; in B turns also
``skip``).
An empire tile is followed by ``clear`` (optional, first), ``place`` one cube
at a time and ``stop``, then ``battle`` one at a time and ``stop``. Free
progress tiles are used with ``use``. Between turns come ``keep``/``discard``
(city upkeep, end of era) and ``order`` (turn order positions).
Kind names are this package's own: nothing outside it may rely on them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engine.core import Action, ActionCodec


@dataclass(frozen=True)
class Select(Action):
    """A turn: put a disc into ``row``; ``circle`` (0 = leftmost) is its rightmost free circle."""

    kind: ClassVar[str] = "select"
    row: str
    circle: int


@dataclass(frozen=True)
class TakeBack(Action):
    """B turn: take back your disc in ``row`` at ``circle`` and pay for the discs to its left.

    The payment is complete: the fields say how many of each unit are paid
    (rulebook: "one gold, one player cube, one resource disc, one food point, or
    one victory point for each disc to its left"), adding up to the price.
    """

    kind: ClassVar[str] = "take_back"
    row: str
    circle: int
    gold: int = 0
    cubes: int = 0
    resources: int = 0
    food: int = 0
    vp: int = 0

    @property
    def payment(self) -> tuple[int, ...]:
        """The units paid, in :data:`PAYMENTS` order."""
        return (self.gold, self.cubes, self.resources, self.food, self.vp)


@dataclass(frozen=True)
class TakeProgress(Action):
    kind: ClassVar[str] = "progress"
    tile: str


@dataclass(frozen=True)
class TakeTerritory(Action):
    kind: ClassVar[str] = "territory"
    tile: str


@dataclass(frozen=True)
class TakeCity(Action):
    kind: ClassVar[str] = "city"
    tile: str


@dataclass(frozen=True)
class TakeEmpire(Action):
    kind: ClassVar[str] = "empire"
    tile: str


@dataclass(frozen=True)
class Trade(Action):
    """Put resource discs into a trade box for its gold or victory points."""

    kind: ClassVar[str] = "trade"
    box: str


@dataclass(frozen=True)
class Skip(Action):
    """B turn: do nothing with the action whose disc you removed."""

    kind: ClassVar[str] = "skip"


@dataclass(frozen=True)
class ClearCubes(Action):
    """Before placing: take all your cubes off the map into your pool."""

    kind: ClassVar[str] = "clear"


@dataclass(frozen=True)
class PlaceCube(Action):
    """Place one cube from your pool in ``region``."""

    kind: ClassVar[str] = "place"
    region: str


@dataclass(frozen=True)
class Stop(Action):
    """Stop placing cubes, stop fighting battles, or end your action."""

    kind: ClassVar[str] = "stop"


@dataclass(frozen=True)
class Battle(Action):
    """Fight ``target`` in ``region`` with battle row ``row`` of your empire tile."""

    kind: ClassVar[str] = "battle"
    region: str
    target: int
    row: int


@dataclass(frozen=True)
class UseTile(Action):
    """Use a free-action progress tile on ``region`` (``target``: whose cube, -1 for your own)."""

    kind: ClassVar[str] = "use"
    tile: str
    region: str
    target: int


@dataclass(frozen=True)
class Keep(Action):
    """Keep a tile, paying its upkeep (city upkeep, or the end-of-era price)."""

    kind: ClassVar[str] = "keep_tile"
    tile: str


@dataclass(frozen=True)
class Discard(Action):
    """Return a tile to the box rather than pay for it."""

    kind: ClassVar[str] = "discard_tile"
    tile: str


@dataclass(frozen=True)
class ChooseOrder(Action):
    """Turn order determination: take position ``position`` (0 = first)."""

    kind: ClassVar[str] = "order"
    position: int


@dataclass(frozen=True)
class Pass(Action):
    """Only when no action can be selected at all: let this action go by."""

    kind: ClassVar[str] = "pass"


CODEC = ActionCodec(Select, TakeBack, TakeProgress, TakeTerritory, TakeCity, TakeEmpire, Trade, Skip,
                    ClearCubes, PlaceCube, Stop, Battle, UseTile, Keep, Discard, ChooseOrder, Pass)
#: The units a B-turn removal may be paid in, in the rulebook's order (the fields of :class:`TakeBack`).
PAYMENTS: tuple[str, ...] = ("gold", "cubes", "resources", "food", "vp")

#: How a unit of payment is called: one, many. Here beside :data:`PAYMENTS` because both the rules'
#: refusals (``engine.rise.turn``) and the words (``engine.rise.text``) name the units.
PAYMENT_WORDS: dict[str, tuple[str, str]] = {
    "gold": ("gold", "gold"),
    "cubes": ("pool cube", "pool cubes"),
    "resources": ("resource disc", "resource discs"),
    "food": ("food", "food"),
    "vp": ("victory point", "victory points"),
}
