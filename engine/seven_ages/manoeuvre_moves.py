"""The moves of a Manoeuvre go (L598-700): one small choice each, never a whole path.

A go is a loop: :class:`MoveFrom` a stack (an area holding units that have not moved), then which
units (:class:`MoveUnits`, a type and a count, or :class:`MoveAll`) and which leaders ride with them
(:class:`TakeLeader`), then :class:`MoveTo` the next area, one area at a time, until
:class:`StopHere`; then the next stack, or :class:`EndMovement`. At the end of movement,
:class:`Pacify` removes disorder by units (L676-698), naming the unit that goes with the marker (L688),
and ``Done`` finishes.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.core import Action

LAND, SHIPS, AIR = "land", "ships", "aircraft"
"""How a group of units moves: land units (infantry, missile, cavalry), ships, or aircraft."""


@dataclass(frozen=True)
class MoveFrom(Action):
    """Pick the stack in ``area`` to move units from."""

    kind = "move_from"
    area: str = ""


@dataclass(frozen=True)
class MoveUnits(Action):
    """Add ``count`` of the ``unit`` that have not moved yet to the moving group (before its first step)."""

    kind = "move_units"
    unit: str = ""
    count: int = 1


@dataclass(frozen=True)
class MoveAll(Action):
    """Add every unit of this way of moving (:data:`LAND`, :data:`SHIPS`, :data:`AIR`) that may leave."""

    kind = "move_all"
    mode: str = LAND


@dataclass(frozen=True)
class TakeLeader(Action):
    """A leader in the stack's area rides with the moving group for its whole move (L628)."""

    kind = "take_leader"
    name: str = ""


@dataclass(frozen=True)
class MoveTo(Action):
    """The moving group enters the adjacent ``area`` (paying its cost in movement points, L608)."""

    kind = "move_to"
    area: str = ""


@dataclass(frozen=True)
class DropOff(Action):
    """The moving ships set down ``count`` of the ``unit`` they carry where they are: those units
    move no further this action (L632)."""

    kind = "drop_off"
    unit: str = ""
    count: int = 1


@dataclass(frozen=True)
class StopHere(Action):
    """The moving group ends its move where it is; before its first step, it is put back unmoved."""

    kind = "stop_here"


@dataclass(frozen=True)
class MoveBack(Action):
    """Take the moving group's steps back: it stands unmoved where it started, its points whole."""

    kind = "move_back"


@dataclass(frozen=True)
class EndMovement(Action):
    """No more units move this go: on to removing disorder (L676)."""

    kind = "end_movement"


@dataclass(frozen=True)
class Pacify(Action):
    """Remove the disorder marker of ``area`` by the units there (L676-698), and with it one ``unit`` of
    the empire's there: "remove one of your empire's units in the area as well" (L688; the player's choice
    of which; none, "", where a fort or a Populist spares it)."""

    kind = "pacify"
    area: str = ""
    unit: str = ""


REFUSE = -1
"""A canal owner's answer: no passage (0: free passage; more: the toll asked)."""
TOLLS = (5, 10, 20)
"""The tolls a canal owner may ask (our choice of a few round sums, so a decision stays short)."""


@dataclass(frozen=True)
class CanalAnswer(Action):
    """The owner of a canal answers a request to pass: :data:`REFUSE`, 0 (free) or a toll (L652)."""

    kind = "canal_answer"
    answer: int = REFUSE


@dataclass(frozen=True)
class PayToll(Action):
    """Pay the toll the canal's owner asks and pass, or not (``accept`` False: stay)."""

    kind = "pay_toll"
    accept: bool = False


@dataclass(frozen=True)
class TopUnit(Action):
    """Show ``unit`` on top of the empire's stack in ``area`` to the other players (fog of war, L791): a
    standing choice per area, sent at any time (:mod:`engine.seven_ages.fog`)."""

    kind = "top_unit"
    empire: int = 0
    area: str = ""
    unit: str = ""


ACTIONS: tuple[type[Action], ...] = (MoveFrom, MoveUnits, MoveAll, TakeLeader, MoveTo, DropOff, StopHere,
                                     MoveBack, EndMovement, Pacify, CanalAnswer, PayToll,
                                     TopUnit)
