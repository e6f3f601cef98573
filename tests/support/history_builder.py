"""A small fluent builder for classic History of the World scenarios.

A scenario starts from a real ``GAME.setup`` state, clears it (board, hands,
scores, the empire draw), lets a test arrange pieces, and starts an empire's
turn with the engine's own :func:`engine.history.flow.start_turn`. From then
on it is driven only through ``GAME.apply``::

    s = Scenario(epoch=3).army("Northern Apennines", owner=1).start("Romans", player=0)
    s.expand("Northern Apennines")
    assert s.holder("Northern Apennines") == 0
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import pytest

from engine.core import Action, Event, IllegalAction, Result
from engine.history import flow
from engine.history.actions import (
    AttackFleet,
    BuildFort,
    BuyBack,
    Choose,
    Done,
    EndTurn,
    Expand,
    Give,
    Keep,
    ManFleet,
    PlayCard,
)
from engine.history.board import Ctx
from engine.history.data import Empire
from engine.history.game import GAME
from engine.history.state import HistoryState, Phase

RULES = GAME.rules


def empire(name: str, epoch: int | None = None) -> Empire:
    """The empire card called ``name`` (in ``epoch`` if given)."""
    for e in RULES.empires.values():
        if e.name == name and (epoch is None or e.epoch == epoch):
            return e
    raise KeyError(name)


class Scenario:
    """A classic game arranged by hand, then played through ``GAME.apply``."""

    def __init__(
        self,
        players: int = 3,
        epoch: int = 1,
        options: Mapping[str, Any] | None = None,
        seed: int = 1,
    ) -> None:
        state = GAME.setup(players, dict(options or {}), seed)
        state.epoch = epoch
        state.phase = Phase.TURN
        state.scores = [0] * players
        state.hands = [[] for _ in range(players)]
        state.markers = [[] for _ in range(players)]
        state.played_empires = [[] for _ in range(players)]
        state.deck = []
        state.drawn = None
        state.draw_order = list(range(players))
        state.draw_pos = players
        state.holding = [None] * players
        state.given_by = [None] * players
        state.call_pos = 0
        state.turn = None
        state.armies = {}
        state.forts = []
        state.structures = {}
        state.monuments = []
        state.manned = {}
        self.state: HistoryState = state
        self.events: list[Event] = []
        self.last: Result | None = None

    @classmethod
    def wrap(cls, state: HistoryState) -> Scenario:
        """Drive an untouched state (e.g. a fresh ``GAME.setup``) with the helpers."""
        s = cls.__new__(cls)
        s.state = state
        s.events = []
        s.last = None
        return s

    # -- arranging --------------------------------------------------------------
    def army(
        self, land: str, owner: int, epoch: int | None = None, force: str | None = None
    ) -> Scenario:
        """Put an army of ``owner`` in ``land`` (default: a past empire's piece)."""
        land = RULES.map.resolve_land(land)
        piece = epoch if epoch is not None else max(1, self.state.epoch - 1)
        self.state.armies.setdefault(land, []).append([owner, piece, force or f"past:{owner}"])
        return self

    def armies(self, owner: int, *lands: str, epoch: int | None = None) -> Scenario:
        for land in lands:
            self.army(land, owner, epoch)
        return self

    def fort(self, *lands: str) -> Scenario:
        for land in lands:
            self.state.forts.append(RULES.map.resolve_land(land))
        self.state.forts.sort()
        return self

    def capital(self, *lands: str) -> Scenario:
        for land in lands:
            self.state.structures[RULES.map.resolve_land(land)] = "capital"
        return self

    def city(self, *lands: str) -> Scenario:
        for land in lands:
            self.state.structures[RULES.map.resolve_land(land)] = "city"
        return self

    def monument(self, *lands: str) -> Scenario:
        for land in lands:
            self.state.monuments.append(RULES.map.resolve_land(land))
        self.state.monuments.sort()
        return self

    def score(self, player: int, points: int) -> Scenario:
        self.state.scores[player] = points
        return self

    def hand(self, player: int, *cards: str) -> Scenario:
        self.state.hands[player] = sorted(RULES.card(c).id for c in cards)
        return self

    def played(self, player: int, *names: str) -> Scenario:
        """Set the empires ``player`` has played so far, oldest first (names or keys)."""
        keys = []
        for name in names:
            keys.append(name if name in RULES.empires else empire(name).key)
        self.state.played_empires[player] = keys
        return self

    def holds(self, player: int, name: str) -> Scenario:
        """``player`` holds this epoch's empire ``name`` (to be called later)."""
        self.state.holding[player] = empire(name, self.state.epoch).key
        return self

    def start(self, name: str, player: int = 0) -> Scenario:
        """Start ``player``'s turn with this epoch's empire ``name`` via the engine's flow.

        Players who have not played any empire yet get a stand-in previous empire
        (the first of the previous epoch) so a later empire draw can be ordered;
        tests that check the draw order set ``played`` themselves.
        """
        state = self.state
        emp = empire(name, state.epoch)
        stand_in = RULES.epochs[max(1, state.epoch - 1)][0].key
        for p in range(state.players):
            if p != player and not state.played_empires[p]:
                state.played_empires[p] = [stand_in]
        state.holding[player] = emp.key
        state.call_pos = emp.order
        ctx = Ctx(state, RULES)
        flow.start_turn(ctx, player, emp)
        self.events = list(ctx.events)
        return self

    # -- playing ----------------------------------------------------------------
    @property
    def player(self) -> int:
        turn = self.state.turn
        if turn is not None:
            return turn.player
        return self.state.draw_order[self.state.draw_pos]

    def apply(self, action: Action) -> Result:
        result = GAME.apply(self.state, action)
        self.state = result.state
        self.events = list(result.events)
        self.last = result
        return result

    def play(self, card: str) -> Scenario:
        self.apply(PlayCard(self.player, RULES.card(card).id))
        return self

    def choose(self, *targets: str) -> Scenario:
        for target in targets:
            self.apply(Choose(self.player, target))
        return self

    def done(self) -> Scenario:
        self.apply(Done(self.player))
        return self

    def expand(self, *lands: str) -> Scenario:
        for land in lands:
            self.apply(Expand(self.player, land))
        return self

    def build_fort(self, land: str, pay: str = "auto") -> Scenario:
        self.apply(BuildFort(self.player, land, pay))
        return self

    def buy_back(self) -> Scenario:
        self.apply(BuyBack(self.player))
        return self

    def man_fleet(self, sea: str) -> Scenario:
        self.apply(ManFleet(self.player, sea))
        return self

    def attack_fleet(self, sea: str) -> Scenario:
        self.apply(AttackFleet(self.player, sea))
        return self

    def keep(self) -> Scenario:
        self.apply(Keep(self.player))
        return self

    def give(self, to: int) -> Scenario:
        self.apply(Give(self.player, to))
        return self

    def end_turn(self) -> Scenario:
        self.apply(EndTurn(self.player))
        return self

    def illegal(self, action: Action, code: str) -> IllegalAction:
        """Assert ``action`` is refused with ``code`` and leaves the state untouched."""
        before = self.state.to_json()
        with pytest.raises(IllegalAction) as info:
            GAME.apply(self.state, action)
        assert info.value.code == code, info.value.message
        assert self.state.to_json() == before
        return info.value

    # -- looking ----------------------------------------------------------------
    def holder(self, land: str) -> int | None:
        return self.state.occupant(RULES.map.resolve_land(land))

    def stack(self, land: str) -> list[list[Any]]:
        return [list(a) for a in self.state.armies.get(RULES.map.resolve_land(land), [])]

    @property
    def turn(self) -> Any:
        assert self.state.turn is not None
        return self.state.turn

    @property
    def pool(self) -> int:
        return int(self.turn.force.pool)

    @property
    def force(self) -> str:
        return str(self.turn.force.key)

    def of_type(self, kind: str) -> list[dict[str, Any]]:
        """The data of the last action's events of one type."""
        return [dict(e.data) for e in self.events if e.type == kind]

    def battles(self) -> list[tuple[list[int], list[int], str]]:
        """(attacker dice, defender dice, outcome) of the last action's battles."""
        return [
            (list(b["attacker_dice"]), list(b["defender_dice"]), str(b["outcome"]))
            for b in self.of_type("battle")
        ]

    def targets(self) -> dict[str, int]:
        """Lands the current force may expand into, with the defender's dice."""
        return flow.expansion_targets(Ctx(self.state, RULES))

    def legal(self) -> list[Action]:
        return list(GAME.legal_actions(self.state, self.player))


def lands_of(state: HistoryState, player: int) -> set[str]:
    return set(state.lands_of(player))


def only(items: Iterable[Any]) -> Any:
    found = list(items)
    assert len(found) == 1, found
    return found[0]
