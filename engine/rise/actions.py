"""The actions of Rise of Empires, with their JSON codec.

Every decision is a short list. A player's action is: ``select`` a row of the
action display (A turn: a disc goes into the row's rightmost free circle; B
turn: one of your discs is removed), ``pay`` for the discs to its left one
unit at a time (B turns), then the row's own choice (``progress``,
``territory``, ``city``, ``empire``, ``trade``; in B turns also ``skip``).
An empire tile is followed by ``clear`` (optional, first), ``place`` one cube
at a time and ``stop``, then ``battle`` one at a time and ``stop``. Free
progress tiles are used with ``use``. Between turns come ``keep``/``discard``
(city upkeep, end of era) and ``order`` (turn order positions).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engine.core import Action, ActionCodec


@dataclass(frozen=True)
class Select(Action):
    """Choose a row of the action display; ``circle`` (0 = leftmost) is where the disc goes or leaves."""

    kind: ClassVar[str] = "select"
    row: str
    circle: int


@dataclass(frozen=True)
class Pay(Action):
    """Pay one unit for one disc left of the removed one: gold, cube, resource, food or vp."""

    kind: ClassVar[str] = "pay"
    what: str


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

    kind: ClassVar[str] = "keep"
    tile: str


@dataclass(frozen=True)
class Discard(Action):
    """Return a tile to the box rather than pay for it."""

    kind: ClassVar[str] = "discard"
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


CODEC = ActionCodec(Select, Pay, TakeProgress, TakeTerritory, TakeCity, TakeEmpire, Trade, Skip,
                    ClearCubes, PlaceCube, Stop, Battle, UseTile, Keep, Discard, ChooseOrder, Pass)
PAYMENTS: tuple[str, ...] = ("gold", "cube", "resource", "food", "vp")
