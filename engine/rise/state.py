"""The state of a Rise of Empires game: plain, JSON-native data.

Every field holds only dicts with string keys, lists, strings, ints, bools and
None, so ``RiseState.from_json(json.loads(json.dumps(s.to_json()))) == s``.
Per-player values are lists indexed by seat. Tiles are named by their ids
(``p01``.. progress, ``t01``.. territory, ``c01``.. city, ``e1``.. empire);
every tile is in exactly one place: a face-down box, the face-up display,
a player's hand, or the game box (``retired``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

EMPTY = -1
"""An empty circle of the action display."""


class Phase(StrEnum):
    """The phases of a game turn that wait for players. A stored state holds the value ("order"), the
    very string of the games saved before the phases were an enum."""

    ACTIONS = "actions"  # II Player Actions: one action at a time, run through its stages (Stage)
    FOOD_UPKEEP = "food_upkeep"  # cities that eat food: kept or given up before the Food phase
    UPKEEP = "upkeep"  # city upkeep in resource discs, after the Income phase
    ERA_END = "era_end"  # the end of an era: progress and city tiles kept or given up
    ORDER = "order"  # VI Turn Order Determination: a place on the track chosen, fewest points first
    OVER = "over"


class Stage(StrEnum):
    """The stages of one player's action (``task["stage"]``), each a step of
    :mod:`engine.rise.steps`; stored as the value, as before they were an enum."""

    CHOOSE = "choose"  # a row selected (A turn), a disc taken back (B turn), or a free tile used first
    ACT = "act"  # the row's tile or trade box (B turn: or skip)
    PLACE = "place"  # an empire tile's cubes, one at a time
    BATTLE = "battle"  # the empire tile's battles, one at a time
    AFTER = "after"  # free progress tiles after the action, or stop


@dataclass
class RiseState:
    """A whole game.

    Hidden parts: the order of the face-down tiles in ``progress_boxes``,
    ``territory_boxes`` and ``city_boxes``; they leave the engine only through
    ``view``, which shows how many tiles each box holds and nothing else.
    """

    players: int
    options: dict[str, Any]
    seed: int
    rng_counter: int = 0
    seq: int = 0  # number of actions applied
    turn: int = 1  # game turn 1..6 (era = (turn + 1) // 2; even turns are "B" turns)
    phase: Phase = Phase.ACTIONS
    order: list[int] = field(default_factory=list)  # seats by turn-order position
    act_no: int = 0  # regular actions completed this game turn
    gold: list[int] = field(default_factory=list)
    resources: list[int] = field(default_factory=list)
    food: list[int] = field(default_factory=list)
    vp: list[int] = field(default_factory=list)
    pool: list[int] = field(default_factory=list)
    stock: list[int] = field(default_factory=list)
    cubes: dict[str, list[int]] = field(default_factory=dict)  # region -> cubes per seat (no empty entries)
    progress_boxes: list[list[str]] = field(default_factory=list)  # face down, top first
    territory_boxes: list[list[str]] = field(default_factory=list)
    city_boxes: list[list[str]] = field(default_factory=list)
    open_progress: list[str] = field(default_factory=list)  # face up, selectable
    open_territory: list[str] = field(default_factory=list)
    open_city: list[str] = field(default_factory=list)
    open_empires: list[str] = field(default_factory=list)
    display: dict[str, list[int]] = field(default_factory=dict)  # row -> seat per circle, left to right
    trade_used: dict[str, int] = field(default_factory=dict)  # trade box -> seat that used it this turn
    progress: list[list[str]] = field(default_factory=list)  # tiles held per seat
    territory: list[list[str]] = field(default_factory=list)
    cities: list[list[str]] = field(default_factory=list)
    empires: list[list[str]] = field(default_factory=list)  # empire tiles taken this turn
    # Free-action progress tile -> the other seats that have not yet taken an action since it was
    # taken (it may be used once the list is empty; the entry is then dropped).
    waiting: dict[str, list[int]] = field(default_factory=dict)
    used: list[str] = field(default_factory=list)  # free-action progress tiles used this turn
    navigation: bool = False  # someone has selected a Navigation tile
    retired: list[str] = field(default_factory=list)  # tiles back in the game box, in order
    # The action under way: {"player", "stage" (a Stage), "row", "circle", "b", "empire",
    # "before", "placed", "cleared", "battles"} (see engine.rise.turn).
    task: dict[str, Any] | None = None
    pending: list[dict[str, Any]] = field(default_factory=list)  # keep/discard decisions: player, kind, tile
    choosers: list[int] = field(default_factory=list)  # turn-order determination: seats still to choose
    new_order: list[int] = field(default_factory=list)  # the positions chosen so far (EMPTY)
    final: list[int] | None = None  # final scores once the game is over

    @property
    def era(self) -> int:
        return (self.turn + 1) // 2

    @property
    def b_turn(self) -> bool:
        return self.turn % 2 == 0

    def to_json(self) -> dict[str, Any]:
        return dict(vars(self.clone()))

    def dumps(self) -> str:
        """Compact JSON text of ``to_json()``."""
        return json.dumps(vars(self), separators=(",", ":"))

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RiseState:
        fields = dict(data)
        # States saved before ``waiting`` kept ``since`` (turn and action a tile was taken); its
        # tiles count as ready, as they then did at the next game turn.
        fields.pop("since", None)
        if "phase" in fields:
            fields["phase"] = Phase(fields["phase"])  # the stored string back to its member
        task = fields.get("task")
        if task is not None:
            fields["task"] = {**task, "stage": Stage(task["stage"])}
        return cls(**fields).clone()

    def clone(self) -> RiseState:
        """A deep copy, field by field."""
        copy = object.__new__(RiseState)
        copy.__dict__.update(self.__dict__)
        copy.options = dict(self.options)
        for name in ("order", "gold", "resources", "food", "vp", "pool", "stock", "open_progress",
                     "open_territory", "open_city", "open_empires", "used", "retired", "choosers",
                     "new_order"):
            setattr(copy, name, getattr(self, name)[:])
        for name in ("progress_boxes", "territory_boxes", "city_boxes", "progress", "territory",
                     "cities", "empires"):
            setattr(copy, name, [x[:] for x in getattr(self, name)])
        copy.cubes = {r: c[:] for r, c in self.cubes.items()}
        copy.display = {r: c[:] for r, c in self.display.items()}
        copy.trade_used = dict(self.trade_used)
        copy.waiting = {t: w[:] for t, w in self.waiting.items()}
        copy.pending = [dict(p) for p in self.pending]
        if self.task is not None:
            task = dict(self.task)
            for key in ("before", "placed"):
                task[key] = task[key][:]
            task["battles"] = [b[:] for b in task["battles"]]
            copy.task = task
        copy.final = self.final[:] if self.final is not None else None
        return copy

    # -- cubes ---------------------------------------------------------------------
    def count(self, region: str, seat: int) -> int:
        counts = self.cubes.get(region)
        return counts[seat] if counts else 0

    def add_cubes(self, region: str, seat: int, n: int) -> None:
        """Add (or, with negative ``n``, remove) cubes, dropping emptied entries."""
        counts = self.cubes.setdefault(region, [0] * self.players)
        counts[seat] += n
        if counts[seat] < 0:
            raise ValueError(f"negative cubes in {region}")
        if not any(counts):
            del self.cubes[region]

    def regions_of(self, seat: int) -> list[str]:
        return sorted(r for r, c in self.cubes.items() if c[seat])

    def on_map(self, seat: int) -> int:
        return sum(c[seat] for c in self.cubes.values())
