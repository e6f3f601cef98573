"""The state of a 5-epoch game: plain, JSON-native data.

An army is ``[owner, force]``: ``force`` is the key of the empire or kingdom
whose active (upright) army it is, or ``""`` once resigned. A territory holds
at most one army. Everything hidden (the event and empire piles, hands, the
cards being drafted, empires not yet revealed) leaves the engine only through
the game's ``view``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from engine.history.state import copy_json, shallow_copy

Army = list[Any]  # [owner: int, force: str]


class Phase(StrEnum):
    """The phases of a game. A stored state holds the value ("draft"), the very string of the games
    saved before the phases were an enum."""

    DRAFT = "draft"  # the epoch's event and empire cards are drafted
    TURN = "turn"  # the empires are called, one turn each (its steps are a TurnStep)
    OVER = "over"


class TurnStep(StrEnum):
    """The steps of a turn, each a step of :mod:`engine.history.epochs5.steps` (stored as their values)."""

    KINGDOM = "kingdom"  # a kingdom of the epoch may be played first
    INVADE = "invade"  # the force invades, fortifies, plays event cards, or stops
    TARGET = "target"  # the targets of an event card, or of the end of the turn (monuments, forts)
    REROLL = "reroll"  # the invader rerolls a die or accepts the battle's dice
    SIEGE = "siege"  # a siege is laid or the invader retreats
    TRACK = "track"  # a score marker landed on another: up or down
    SCORING = "scoring"  # the turn is scored (within the move that ends the turn; nobody acts)


@dataclass
class Turn:
    """The active player's turn.

    ``force`` is the empire or kingdom placing armies now; ``pool`` its armies
    on the card and ``siege_tokens`` the tokens taken when the supply ran out.
    ``catapult`` counts pieces placed on the catapult this siege (its bonus is
    at most +3) and ``catapult_armies`` the armies among them (back to the
    supply when the siege ends). ``battle`` is the battle waiting for a
    decision (a reroll or siege-or-retreat); ``pending`` an event card waiting
    for its targets (or the Assyrians' forts); ``track`` a score marker
    waiting to leave an occupied space, with the step to go back to.
    ``free_invasions`` holds the territories of the Turks' battles this turn,
    which count as adjacent for their later invasions.
    """

    player: int
    empire: str
    step: TurnStep
    force: str = ""
    force_kind: str = "empire"  # empire | kingdom
    pool: int = 0
    siege_tokens: int = 0
    fleets: list[str] = field(default_factory=list)
    caravans: list[str] = field(default_factory=list)
    catapult: int = 0
    catapult_armies: int = 0
    battle: dict[str, Any] | None = None
    pending: dict[str, Any] | None = None
    effects: list[str] = field(default_factory=list)  # turn-long enhancements of the empire
    played: list[str] = field(default_factory=list)
    free_invasions: list[str] = field(default_factory=list)
    track: dict[str, Any] | None = None  # {"at": score, "resume": step, "why": str}


@dataclass
class State:
    """A whole 5-epoch game."""

    players: int
    options: dict[str, Any]
    seed: int
    rng_counter: int = 0
    seq: int = 0
    epoch: int = 1
    phase: Phase = Phase.DRAFT
    scores: list[int] = field(default_factory=list)
    prefs: list[dict[str, str]] = field(default_factory=list)
    # the trimmed piles of each epoch, keyed "1".."5" (hidden)
    event_piles: dict[str, list[str]] = field(default_factory=dict)
    empire_piles: dict[str, list[str]] = field(default_factory=dict)
    # drafting
    draft_order: list[int] = field(default_factory=list)  # most points first
    draft_step: int = 0
    event_set: list[str] = field(default_factory=list)
    empire_set: list[str] = field(default_factory=list)
    event_picked: bool = False
    empire_picked: bool = False
    drawn: dict[str, str] = field(default_factory=dict)  # classic drafting: "event"/"empire" -> card
    hands: list[list[str]] = field(default_factory=list)  # event cards held
    chosen_epoch: dict[str, int] = field(default_factory=dict)  # event card -> epoch it was taken in
    empire_of: list[str | None] = field(default_factory=list)
    revealed: list[bool] = field(default_factory=list)
    played_empires: list[list[str]] = field(default_factory=list)
    call_pos: int = 0
    turn: Turn | None = None
    # the board
    armies: dict[str, Army] = field(default_factory=dict)
    forts: list[str] = field(default_factory=list)
    structures: dict[str, str] = field(default_factory=dict)  # territory -> capitol | city
    monuments: list[str] = field(default_factory=list)
    # each player's score when each epoch ended (the parts of the final score)
    epoch_scores: list[list[int]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        copy = self.clone()
        data = dict(vars(copy))
        if copy.turn is not None:
            data["turn"] = dict(vars(copy.turn))
        return data

    def dumps(self) -> str:
        return json.dumps(self, default=vars, separators=(",", ":"))

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> State:
        raw = dict(data)
        turn = raw.pop("turn", None)
        if "phase" in raw:
            raw["phase"] = Phase(raw["phase"])  # the stored string back to its member
        state = cls(**raw)
        if turn is not None:
            state.turn = Turn(**{**turn, "step": TurnStep(turn["step"])})
        return state

    def clone(self) -> State:
        """A deep copy, field by field (hot path: every apply copies the state)."""
        copy = shallow_copy(self)
        copy.options = dict(self.options)
        copy.scores = self.scores[:]
        copy.prefs = [dict(p) for p in self.prefs]
        copy.event_piles = {k: v[:] for k, v in self.event_piles.items()}
        copy.empire_piles = {k: v[:] for k, v in self.empire_piles.items()}
        copy.draft_order = self.draft_order[:]
        copy.event_set = self.event_set[:]
        copy.empire_set = self.empire_set[:]
        copy.drawn = dict(self.drawn)
        copy.hands = [h[:] for h in self.hands]
        copy.chosen_epoch = dict(self.chosen_epoch)
        copy.empire_of = self.empire_of[:]
        copy.revealed = self.revealed[:]
        copy.played_empires = [p[:] for p in self.played_empires]
        copy.armies = {land: a[:] for land, a in self.armies.items()}
        copy.forts = self.forts[:]
        copy.structures = dict(self.structures)
        copy.monuments = self.monuments[:]
        copy.epoch_scores = [e[:] for e in self.epoch_scores]
        turn = self.turn
        if turn is not None:
            copy.turn = new = shallow_copy(turn)
            new.fleets = turn.fleets[:]
            new.caravans = turn.caravans[:]
            new.effects = turn.effects[:]
            new.played = turn.played[:]
            new.free_invasions = turn.free_invasions[:]
            new.battle = copy_json(turn.battle)
            new.pending = copy_json(turn.pending)
            new.track = copy_json(turn.track)
        return copy

    # -- board queries -------------------------------------------------------------
    def occupant(self, land: str) -> int | None:
        army = self.armies.get(land)
        return army[0] if army else None

    def force_lands(self, force: str) -> list[str]:
        return sorted(land for land, a in self.armies.items() if a[1] == force)

    def on_board(self, player: int) -> int:
        return sum(1 for a in self.armies.values() if a[0] == player)

    def supply(self, player: int, limit: int) -> int:
        """Armies of ``player`` neither on the board, on the card nor on the catapult."""
        used = self.on_board(player)
        turn = self.turn
        if turn is not None and turn.player == player:
            used += turn.pool + turn.catapult_armies
            if turn.battle is not None:
                used += 1  # the invading army standing in the defender's territory
        return limit - used
