"""A small fluent builder of 7 Ages positions for Trade, Destiny, Civilise and the end of turn.

A table starts from an empty state in turn 1 (no setup played), lets a test put empires, cities,
leaders, hands and markers down, then enters an action (or the end of turn) with the step
machine's own :func:`engine.seven_ages.steps.enter` and plays moves through
:func:`engine.seven_ages.flow.run` only::

    t = Table(3).empire("Syracusans", 0, 10, ["Sicily"]).empire("Romans", 1, 12, ["Latium"])
    t.marker(0, "trade", "Syracusans").enter("trade")
    t.do(TurnMarker(0, 0))
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from itertools import cycle
from typing import Any

import pytest

from engine.core import Action, Event, IllegalAction
from engine.seven_ages import flow, steps
from engine.seven_ages.cards import load_deck
from engine.seven_ages.state import Empire, Leader, Marker, Player, SevenState, Stack
from tests.support.seven_ages_builder import card as card_of
from tests.support.seven_ages_builder import cards_of_value

steps.load()
__all__ = ["Table", "card_of", "cards_of_value"]


class Table:
    def __init__(self, players: int = 3, options: Mapping[str, Any] | None = None, first: int = 0) -> None:
        self.state = SevenState(players=players, options=dict(options or {}), seed=7, turn=1, first=first,
                                phase="markers", people=tuple(Player(i) for i in range(players)),
                                deck=tuple(load_deck().cards))
        self.events: list[Event] = []
        self.colours = cycle(("red", "pink", "dark blue", "light blue", "dark green",
                              "light green"))

    # -- arranging -------------------------------------------------------------------------------
    def empire(self, name: str, owner: int, level: int,
               areas: Iterable[str] | Mapping[str, Mapping[str, int]],
               money: int = 0, leaders: Iterable[tuple[str, str]] = (), capital: str | None = None,
               homeland: str | None = None, religions: tuple[str, ...] = (),
               government: str | None = None, belief_markers: Mapping[str, int] | None = None) -> Table:
        """An empire of ``owner`` at ``level``: one Spear in each area (or the units given by area);
        ``belief_markers``: the double-sided marker (its index in the data) under a religion or
        government (by default, the first one free)."""
        units = areas if isinstance(areas, Mapping) else {a: {"Spear": 1} for a in areas}
        stacks = tuple(Stack(a, u, n) for a, by in sorted(units.items()) for u, n in sorted(by.items()))
        lds = tuple(Leader(kind, (kind,), area) for kind, area in leaders)
        e = Empire(card_of(name), owner, next(self.colours), level, money, stacks, leaders=lds,
                   capital=capital, homeland=homeland, religions=religions, government=government,
                   belief_markers=tuple(sorted((belief_markers or {}).items())))
        self.state = self.state.with_empire(e)
        return self

    def city(self, area: str, value: int) -> Table:
        self.state = self.state.with_area(replace(self.state.area(area), city=value))
        return self

    def disorder(self, *areas: str) -> Table:
        for area in areas:
            self.state = self.state.with_area(replace(self.state.area(area), disorder=True))
        return self

    def artefact(self, area: str, name: str) -> Table:
        a = self.state.area(area)
        self.state = self.state.with_area(replace(a, artefacts=(*a.artefacts, name)))
        return self

    def hand(self, seat: int, *cards: int) -> Table:
        s = self.state
        deck = tuple(c for c in s.deck if c not in cards)
        self.state = replace(s, deck=deck).with_player(replace(s.people[seat], hand=tuple(sorted(cards))))
        return self

    def deck_top(self, *cards: int) -> Table:
        s = self.state
        self.state = replace(s, deck=(*cards, *(c for c in s.deck if c not in cards)))
        return self

    def marker(self, seat: int, action: str, empire: str | None = None) -> Table:
        card = card_of(empire) if empire else 0
        self.state = replace(self.state, markers=(*self.state.markers, Marker(seat, action, card)))
        return self

    def prefs(self, seat: int, *prefs: str) -> Table:
        self.state = self.state.with_player(replace(self.state.people[seat], prefs=tuple(sorted(prefs))))
        return self

    def enter(self, phase: str) -> Table:
        ctx = steps.Ctx(self.state)
        steps.enter(ctx, phase)
        steps.settle(ctx)
        self.state = ctx.state
        self.events += ctx.events
        return self

    # -- playing ---------------------------------------------------------------------------------
    def do(self, *actions: Action) -> Table:
        for action in actions:
            step = steps.step_of(self.state)
            assert step is not None
            assert action.player in step.actors(self.state), f"{action} by a non-actor"
            ctx = flow.run(self.state, action)
            self.state = ctx.state
            self.events += ctx.events
        return self

    def refused(self, action: Action, code: str | None = None) -> IllegalAction:
        before = self.state
        with pytest.raises(IllegalAction) as err:
            flow.run(self.state, action)
        assert self.state == before
        if code:
            assert err.value.code == code, err.value.message
        return err.value

    # -- looking -----------------------------------------------------------------------------------
    def of(self, name: str) -> Empire:
        return self.state.empire(card_of(name))

    def glory(self, seat: int) -> int:
        return self.state.people[seat].glory

    def actors(self) -> frozenset[int]:
        return steps.actors(self.state)

    def legal(self, seat: int) -> list[Action]:
        step = steps.step_of(self.state)
        return step.legal(self.state, seat) if step else []

    def named(self, kind: str) -> list[Event]:
        return [e for e in self.events if e.type == kind]


