"""The state of a classic History of the World game: plain, JSON-native data.

Every field holds only dicts with string keys, lists, strings, ints, bools and
None, so ``HistoryState.from_json(json.loads(json.dumps(s.to_json()))) == s``.
An army is the list ``[owner, piece_epoch, force]`` where ``force`` names what
put it there (an empire key such as ``"3:Romans"``, ``"minor:minor-mayans"``,
``"kingdom:kingdom-kush"``...); the active empire's armies are those whose
force equals the turn's force.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, TypeVar

Army = list[Any]  # [owner: int, piece_epoch: int, force: str]


T = TypeVar("T")


def _shallow(obj: T) -> T:
    """A copy of a dataclass instance sharing its field values (no __init__, unlike replace())."""
    copy = object.__new__(type(obj))
    copy.__dict__.update(obj.__dict__)
    return copy


def shallow_copy(obj: T) -> T:
    """Public name of :func:`_shallow` for the other History rulesets' states."""
    return _shallow(obj)


def _copy_json(value: Any) -> Any:
    """A deep copy of JSON-native data (small values such as a pending card's targets)."""
    if isinstance(value, dict):
        return {k: _copy_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy_json(v) for v in value]
    return value


def copy_json(value: Any) -> Any:
    """Public name of :func:`_copy_json` for the other History rulesets' states."""
    return _copy_json(value)


class Phase(StrEnum):
    """The phases of a game. A stored state holds the value ("draw"), the very string of the games
    saved before the phases were an enum."""

    DRAW = "draw"  # the epoch's empire cards are drawn, kept or given
    TURN = "turn"  # the empires are called, one turn each (its steps are a TurnStep)
    OVER = "over"


class TurnStep(StrEnum):
    """The steps of a turn, each a step of :mod:`engine.history.steps` (stored as their values)."""

    EVENTS = "events"  # event cards before the empire arrives
    CARD = "card"  # the targets of an event card played
    MINOR = "minor"  # a Minor Empire places its armies
    CRUSADE = "crusade"  # the Crusaders place theirs
    REALLOCATE = "reallocate"  # Reallocation: armies moved between lands
    NAVAL = "naval"  # Naval Control: fleet battles, before any expansion
    EXPAND = "expand"  # the empire expands, builds forts, mans fleets
    PICK = "pick"  # a choice the rules leave to the player mid-step (see engine.history.founding)


@dataclass
class Force:
    """Whoever is placing armies right now: the active empire, a Minor Empire, the Crusaders."""

    key: str
    kind: str  # "empire" | "minor" | "crusade"
    name: str
    piece_epoch: int
    pool: int = 0
    restricted: int = 0  # Allies armies: may only enter unoccupied lands
    fleets: list[str] = field(default_factory=list)
    at_sea: list[str] = field(default_factory=list)  # waters it starts in (Crusade)
    bonus: int = 0  # added to the attacker's kept die (Crusade +1)


@dataclass
class Turn:
    """The active player's turn: the empire called and everything that lasts one turn."""

    player: int
    empire: str
    step: TurnStep
    force: Force
    played: list[str] = field(default_factory=list)
    coins: int = 0
    allies_coins: int = 0
    free_forts: int = 0
    lost: int = 0  # active-empire armies lost in combat and not yet bought back
    leader: bool = False
    weaponry: bool = False
    jihad_losses: int = -1  # -1: no Jihad; else armies lost since it was played
    elite: bool = False
    siegecraft: bool = False
    naval_power: bool = False
    expert: list[str] = field(default_factory=list)
    treachery: str | None = None
    astronomy: list[str] = field(default_factory=list)
    pending: dict[str, Any] | None = None  # a card waiting for its targets
    minor_done: bool = False
    contested: list[str] = field(default_factory=list)  # Naval Control: seas to fight for
    # The far-away epoch the player chose for each army event card played this turn (card id -> epoch).
    event_pieces: dict[str, int] = field(default_factory=dict)
    # A choice the rules leave to the active player in the middle of a step (which fleets to
    # keep, which manned fleets to take, where a monument rises): see engine.history.picks.
    pick: dict[str, Any] | None = None


@dataclass
class HistoryState:
    """A whole game. Hidden parts (hands, the empire deck, drawn cards, marker
    values) leave the engine only through ``view``."""

    players: int
    options: dict[str, Any]
    seed: int
    rng_counter: int = 0
    seq: int = 0  # number of actions applied
    epoch: int = 1
    phase: Phase = Phase.DRAW
    scores: list[int] = field(default_factory=list)
    hands: list[list[str]] = field(default_factory=list)
    markers: list[list[int]] = field(default_factory=list)
    marker_pile: list[int] = field(default_factory=list)
    played_empires: list[list[str]] = field(default_factory=list)
    # empire draw
    draw_order: list[int] = field(default_factory=list)
    draw_pos: int = 0
    deck: list[str] = field(default_factory=list)
    drawn: str | None = None
    holding: list[str | None] = field(default_factory=list)
    given_by: list[int | None] = field(default_factory=list)
    # the epoch's turns
    call_pos: int = 0
    turn: Turn | None = None
    # the board
    armies: dict[str, list[Army]] = field(default_factory=dict)
    forts: list[str] = field(default_factory=list)
    structures: dict[str, str] = field(default_factory=dict)  # land -> capital | city
    monuments: list[str] = field(default_factory=list)
    manned: dict[str, Army] = field(default_factory=dict)  # Naval Control: sea -> army on a fleet
    final: list[int] | None = None  # final scores with markers, once the game is over

    def to_json(self) -> dict[str, Any]:
        """Plain JSON data, sharing nothing with the state (dataclasses.asdict is ~10x slower)."""
        copy = self.clone()
        data = dict(vars(copy))
        if copy.turn is not None:
            turn = dict(vars(copy.turn))
            turn["force"] = dict(vars(copy.turn.force))
            data["turn"] = turn
        return data

    def dumps(self) -> str:
        """Compact JSON text of ``to_json()``, serialised straight from the state (no copy)."""
        return json.dumps(self, default=vars, separators=(",", ":"))

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> HistoryState:
        raw = dict(data)
        turn = raw.pop("turn", None)
        if "phase" in raw:
            raw["phase"] = Phase(raw["phase"])  # the stored string back to its member
        state = cls(**raw)
        if turn is not None:
            turn = dict(turn)
            force = Force(**turn.pop("force"))
            turn["step"] = TurnStep(turn["step"])
            state.turn = Turn(force=force, **turn)
        return state

    def clone(self) -> HistoryState:
        """A deep copy, field by field.

        Every apply copies the state, so this is on the hot path: copying the
        known shapes directly is about four times faster than a pickle round
        trip and ten times faster than copy.deepcopy. A test checks that no
        list or dict is shared between a state and its clone, so a field added
        here without its copy cannot slip through.
        """
        copy = _shallow(self)
        copy.options = dict(self.options)
        copy.scores = self.scores[:]
        copy.hands = [h[:] for h in self.hands]
        copy.markers = [m[:] for m in self.markers]
        copy.marker_pile = self.marker_pile[:]
        copy.played_empires = [p[:] for p in self.played_empires]
        copy.draw_order = self.draw_order[:]
        copy.deck = self.deck[:]
        copy.holding = self.holding[:]
        copy.given_by = self.given_by[:]
        copy.armies = {land: [a[:] for a in stack] for land, stack in self.armies.items()}
        copy.forts = self.forts[:]
        copy.structures = dict(self.structures)
        copy.monuments = self.monuments[:]
        copy.manned = {sea: a[:] for sea, a in self.manned.items()}
        copy.final = self.final[:] if self.final is not None else None
        turn = self.turn
        if turn is not None:
            copy.turn = new_turn = _shallow(turn)
            new_turn.force = force = _shallow(turn.force)
            force.fleets = turn.force.fleets[:]
            force.at_sea = turn.force.at_sea[:]
            new_turn.played = turn.played[:]
            new_turn.expert = turn.expert[:]
            new_turn.astronomy = turn.astronomy[:]
            new_turn.contested = turn.contested[:]
            new_turn.pending = _copy_json(turn.pending)
            new_turn.event_pieces = dict(turn.event_pieces)
            new_turn.pick = _copy_json(turn.pick)
        return copy

    # -- board queries used everywhere -------------------------------------
    def occupant(self, land: str) -> int | None:
        """The player whose army holds ``land``, or None when it is vacant."""
        stack = self.armies.get(land)
        return stack[0][0] if stack else None

    def lands_of(self, player: int) -> list[str]:
        return [land for land, stack in self.armies.items() if stack and stack[0][0] == player]

    def force_lands(self, force: str) -> list[str]:
        return [land for land, stack in self.armies.items() if any(a[2] == force for a in stack)]

    def pieces_on_board(self, player: int, epoch: int) -> int:
        count = sum(
            1 for stack in self.armies.values() for a in stack if a[0] == player and a[1] == epoch
        )
        return count + sum(1 for a in self.manned.values() if a[0] == player and a[1] == epoch)
