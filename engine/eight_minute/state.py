"""The state of an Eight-Minute Empire game: plain, JSON-native data.

Every field holds only dicts with string keys, lists, strings, ints, bools and
None, so ``EMState.from_json(json.loads(json.dumps(s.to_json()))) == s``.
Armies and cities are counted per region and seat (``armies[region][seat]``);
the 2-player neutral armies are counted apart in ``neutral``. Regions with no
piece of a kind are left out of that mapping.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

NEUTRAL = -1
"""The owner id of the 2-player game's neutral armies (in actions and control results)."""


class Phase(StrEnum):
    """The phases of play, each a step of :mod:`engine.eight_minute.steps`. A stored state holds the
    value ("bid"), the very string of the games saved before the phases were an enum."""

    NEUTRAL = "neutral"  # 2 players: the neutral armies are placed, one at a time, alternately
    BID = "bid"  # every player bids at once, in secret
    FIRST = "first"  # the bid's winner names the first player
    TURN = "turn"  # a player takes a card and does its action
    OVER = "over"


@dataclass
class EMState:
    """A whole game (or, with the Full Game variant, the current one of three).

    Hidden parts: the order of ``deck`` and the ``bids`` made before every
    player has bid; they leave the engine only through ``view``, which hides them.
    """

    players: int
    options: dict[str, Any]
    seed: int
    rng_counter: int = 0
    seq: int = 0  # number of actions applied
    game_no: int = 1  # 1..3 with the Full Game variant
    phase: Phase = Phase.NEUTRAL
    deck: list[int] = field(default_factory=list)  # face down; the next card is deck[0]
    row: list[int] = field(default_factory=list)  # face up, left (free) to right
    coins: list[int] = field(default_factory=list)
    hands: list[list[int]] = field(default_factory=list)  # cards each player took, in order
    armies: dict[str, list[int]] = field(default_factory=dict)
    neutral: dict[str, int] = field(default_factory=dict)
    cities: dict[str, list[int]] = field(default_factory=dict)
    tokens: dict[str, str] = field(default_factory=dict)  # Goods Tokens variant: region -> good
    neutral_left: int = 0
    neutral_next: int = 0  # the seat placing the next neutral army
    bids: list[int | None] = field(default_factory=list)
    revealed_bids: list[int] | None = None
    bid_winner: int | None = None
    bid_rolls: list[list[list[int]]] = field(default_factory=list)  # roll-off rounds of [seat, die]
    first_player: int | None = None
    current: int | None = None  # whose turn it is
    turns_taken: int = 0
    # The card being resolved: {"card", "choose", "steps", "do", "left"}:
    # choose -- the player still picks which of ``steps`` to do (an and/or card);
    # steps  -- [verb, n] actions still to come; do/left -- the action under way.
    task: dict[str, Any] | None = None
    past_games: list[list[int]] = field(default_factory=list)  # Full Game: each finished game's scores
    final: list[int] | None = None  # final scores (summed over the games) once the game is over

    def to_json(self) -> dict[str, Any]:
        return dict(vars(self.clone()))

    def dumps(self) -> str:
        """Compact JSON text of ``to_json()``."""
        return json.dumps(vars(self), separators=(",", ":"))

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> EMState:
        fields = dict(data)
        if "phase" in fields:
            fields["phase"] = Phase(fields["phase"])  # the stored string back to its member
        return cls(**fields).clone()

    def clone(self) -> EMState:
        """A deep copy, field by field (every apply copies the state: this is the hot path)."""
        copy = object.__new__(EMState)
        copy.__dict__.update(self.__dict__)
        copy.options = dict(self.options)
        copy.deck = self.deck[:]
        copy.row = self.row[:]
        copy.coins = self.coins[:]
        copy.hands = [h[:] for h in self.hands]
        copy.armies = {r: a[:] for r, a in self.armies.items()}
        copy.neutral = dict(self.neutral)
        copy.cities = {r: c[:] for r, c in self.cities.items()}
        copy.tokens = dict(self.tokens)
        copy.bids = self.bids[:]
        copy.revealed_bids = self.revealed_bids[:] if self.revealed_bids is not None else None
        copy.bid_rolls = [[pair[:] for pair in rnd] for rnd in self.bid_rolls]
        if self.task is not None:
            task = dict(self.task)
            task["steps"] = [s[:] for s in self.task["steps"]]
            copy.task = task
        copy.past_games = [g[:] for g in self.past_games]
        copy.final = self.final[:] if self.final is not None else None
        return copy

    # -- board queries -----------------------------------------------------------
    def army_count(self, region: str, owner: int) -> int:
        if owner == NEUTRAL:
            return self.neutral.get(region, 0)
        counts = self.armies.get(region)
        return counts[owner] if counts else 0

    def city_count(self, region: str, seat: int) -> int:
        counts = self.cities.get(region)
        return counts[seat] if counts else 0

    def armies_on_board(self, seat: int) -> int:
        return sum(a[seat] for a in self.armies.values())

    def cities_on_board(self, seat: int) -> int:
        return sum(c[seat] for c in self.cities.values())

    def add_army(self, region: str, owner: int, n: int = 1) -> None:
        """Add (or, with negative ``n``, remove) armies, dropping emptied entries."""
        if owner == NEUTRAL:
            left = self.neutral.get(region, 0) + n
            if left:
                self.neutral[region] = left
            else:
                self.neutral.pop(region, None)
            return
        counts = self.armies.setdefault(region, [0] * self.players)
        counts[owner] += n
        if not any(counts):
            del self.armies[region]

    def add_city(self, region: str, seat: int) -> None:
        self.cities.setdefault(region, [0] * self.players)[seat] += 1
