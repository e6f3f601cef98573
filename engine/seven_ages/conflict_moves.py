"""The moves of conflict (L702-787): one small choice each, never a combination of units.

The active player picks the area to fight in next (:class:`FightIn`) and, when they own the defending
empire too, the player who defends it (:class:`Nominate`). Each round both sides commit at once and in
secret, a type and a count at a time (:class:`Commit`, :class:`CommitLeader`; with option 14 the
marines that go with ships committed at sea, :class:`Board`), then :class:`CommitDone`. Losses the
rulebook leaves to their owner are given up a type at a time (:class:`Lose`); a retreat may send its
units to several areas (:class:`RetreatSplit`, then per area :class:`RetreatArea`, :class:`RetreatUnits` and
:class:`RetreatLeader`).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.core import Action


@dataclass(frozen=True)
class FightIn(Action):
    """Resolve the conflict in ``area`` next (the active player's choice of order, L702)."""

    kind = "fight_in"
    area: str = ""


@dataclass(frozen=True)
class Nominate(Action):
    """The player (``seat``) who plays the defending empire the active player also owns (L702)."""

    kind = "nominate"
    seat: int = 0


@dataclass(frozen=True)
class Commit(Action):
    """Commit ``count`` more of the uncommitted ``unit`` in the area to this round, face down (L706)."""

    kind = "commit"
    unit: str = ""
    count: int = 1


@dataclass(frozen=True)
class Board(Action):
    """Option 14: ``count`` of the uncommitted infantry or missile ``unit`` at sea go with ships just
    committed, one a ship (L1354); part of the same secret commitment."""

    kind = "board"
    unit: str = ""
    count: int = 1


@dataclass(frozen=True)
class CommitLeader(Action):
    """Commit the Tactician in the area to this round as well (L706)."""

    kind = "commit_leader"


@dataclass(frozen=True)
class CommitDone(Action):
    """This side's commitment is complete (at least one unit, L706): it waits face down for the other's."""

    kind = "commit_done"


@dataclass(frozen=True)
class Redraw(Action):
    """With a Tactician in the area: discard this round's card and pick a second, to be used (L704)."""

    kind = "redraw"


@dataclass(frozen=True)
class Retreat(Action):
    """Retreat the empire's units and leaders from the conflict to the adjacent area ``to`` (L761-765)."""

    kind = "retreat"
    to: str = ""


@dataclass(frozen=True)
class StandFast(Action):
    """Do not retreat: fight on (L761)."""

    kind = "stand_fast"


@dataclass(frozen=True)
class RetreatSplit(Action):
    """Retreat, sending the units and leaders to different areas afterwards (L765: "Units can retreat to
    different areas"): an area (:class:`RetreatArea`), then a type and a count at a time
    (:class:`RetreatUnits`) and the leaders (:class:`RetreatLeader`) that go there."""

    kind = "retreat_split"


@dataclass(frozen=True)
class RetreatArea(Action):
    """In a split retreat, choose the area ``to`` that the next units and leaders go to ("": choose another
    one): each decision lists one area's moves only, so it stays small however many areas there are."""

    kind = "retreat_area"
    to: str = ""


@dataclass(frozen=True)
class RetreatUnits(Action):
    """Send ``count`` of the retreating ``unit`` to the adjacent area ``to`` (L763-765)."""

    kind = "retreat_units"
    unit: str = ""
    count: int = 1
    to: str = ""


@dataclass(frozen=True)
class RetreatLeader(Action):
    """Send the retreating leader ``name`` to the adjacent area ``to`` (L763)."""

    kind = "retreat_leader"
    name: str = ""
    to: str = ""


@dataclass(frozen=True)
class Lose(Action):
    """Give up ``count`` of ``unit`` towards the losses due (option 6's pursuit, L1206-1212; option 13's
    "their choice", L1340): the owner of the losing units picks them, a type at a time."""

    kind = "lose"
    unit: str = ""
    count: int = 1


@dataclass(frozen=True)
class Raze(Action):
    """A Barbarian empire that took an area with a city destroys it (``destroy``) or keeps it (L779)."""

    kind = "raze"
    destroy: bool = False


@dataclass(frozen=True)
class WindowPlay(Action):
    """Play the event of ``card`` from the hand in the window under way, for side ``side`` (0: the
    active side, 1: the other) where the event targets a side."""

    kind = "window_event"
    card: int = 0
    side: int = 0


@dataclass(frozen=True)
class WindowPass(Action):
    """Play no event now (the seat may still play one if the window reopens, L881). With ``never``, also
    set the seat's public ``events`` preference to ``never`` (:mod:`engine.seven_ages.window`): from the next
    window on it is asked only where the window is about it, as if it had sent ``prefs events=never``."""

    kind = "window_pass"
    never: bool = False


ACTIONS: tuple[type[Action], ...] = (FightIn, Nominate, Commit, Board, CommitLeader, CommitDone, Redraw,
                                     Retreat, StandFast, Raze, WindowPlay, WindowPass, RetreatSplit,
                                     RetreatArea, RetreatUnits, RetreatLeader, Lose)
