"""A small fluent builder for 7 Ages scenarios.

A scenario starts from a real ``GAME.setup`` state past the first-player bid and the colours (seat
``i`` holds the ``i``-th colour group, seat 0 is the First player), with empty hands. A test arranges
empires, areas, hands and face-down markers, then opens an action with :meth:`Scenario.at` (the
engine's own step entry) and from then on drives the game only through ``GAME.apply``::

    s = Scenario(players=2).empire("Egyptians", owner=0, progress=3, units={"Egypt": {"Spear": 2}})
    s.city("Egypt", 1).marker(0, "production", "Egyptians").at("production")
    s.turn_over(0, "Egyptians")
    assert s.empire_of("Egyptians").money == 10 + 6 - 2
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import pytest

from engine.core import Action, Event, IllegalAction, Result
from engine.seven_ages import steps
from engine.seven_ages.actions import Done, Pass, TurnMarker
from engine.seven_ages.cards import load_deck
from engine.seven_ages.data import load_counters
from engine.seven_ages.game import GAME
from engine.seven_ages.state import DRAFT, EXTRA, MARKERS, OVER, AreaState, Empire, Leader, Marker, SevenState


def card(name: str) -> int:
    """The number of the card whose empire is ``name``."""
    return load_deck().by_empire(name).number


def cards_of_value(*values: int, avoid: tuple[int, ...] = ()) -> list[int]:
    """Distinct card numbers with the given values, in that order."""
    out: list[int] = []
    for v in values:
        out.append(next(n for n, c in load_deck().cards.items()
                        if c.value == v and n not in out and n not in avoid))
    return out


class Scenario:
    """A 7 Ages game arranged by hand, then played through ``GAME.apply``."""

    def __init__(self, players: int = 3, options: Mapping[str, Any] | None = None, seed: int = 1) -> None:
        s = GAME.setup(players, dict(options or {}), seed)
        groups = load_counters().groups
        hands = tuple(c for p in s.people for c in p.hand)
        people = tuple(replace(p, hand=(), bid=None, group=groups[p.seat], placed=True) for p in s.people)
        self.state: SevenState = replace(s, phase=MARKERS, turn=1, first=0, queue=(), people=people,
                                         deck=hands + s.deck)
        self.events: list[Event] = []

    # -- arranging ------------------------------------------------------------------------------
    def empire(self, name: str, owner: int, progress: int, *, money: int = 0, colour: str | None = None,
               units: Mapping[str, Mapping[str, int]] | None = None, capital: str | None = None,
               leaders: Mapping[str, tuple[str, str]] | None = None, flags: tuple[str, ...] = ()) -> Scenario:
        """An empire in play; ``leaders``: name -> (ability, area)."""
        number = card(name)
        if colour is None:
            used = {e.colour for e in self.state.empires}
            group = self.state.people[owner].group
            colour = next(m.name for m in load_counters().mixes.values()
                          if m.group == group and m.name not in used)
        e = Empire(card=number, owner=owner, colour=colour, progress=progress, money=money, capital=capital,
                   homeland=capital, flags=tuple(sorted(flags)))
        for area, stack in (units or {}).items():
            for unit, n in stack.items():
                e = e.add_units(area, unit, n)
        named = {ld for c in load_deck().cards.values() for ld in c.empire.named_leaders}
        e = replace(e, leaders=tuple(Leader(n, (ability,), area, named=n in named)
                                     for n, (ability, area) in (leaders or {}).items()))
        self.state = replace(self.state.with_empire(e), started_count=self.state.started_count + 1,
                             deck=tuple(c for c in self.state.deck if c != number))
        return self

    def city(self, area: str, value: int) -> Scenario:
        self.state = self.state.with_area(replace(self.state.area(area), city=value))
        return self

    def fort(self, area: str) -> Scenario:
        self.state = self.state.with_area(replace(self.state.area(area), fort=True))
        return self

    def disorder(self, area: str) -> Scenario:
        self.state = self.state.with_area(replace(self.state.area(area), disorder=True))
        return self

    def artefact(self, area: str, name: str) -> Scenario:
        """An artefact marker on the map in ``area``."""
        held = self.state.area(area)
        self.state = self.state.with_area(replace(held, artefacts=(*held.artefacts, name)))
        return self

    def hand(self, seat: int, *names: str | int) -> Scenario:
        cards = tuple(n if isinstance(n, int) else card(n) for n in names)
        s = self.state
        self.state = replace(s, deck=tuple(c for c in s.deck if c not in cards)).with_player(
            replace(s.people[seat], hand=tuple(sorted(cards))))
        return self

    def marker(self, seat: int, action: str, empire: str | None = None) -> Scenario:
        """A face-down marker of ``seat``: on the empire called ``empire``, or in front of them."""
        where = EXTRA if empire is None else card(empire)
        self.state = replace(self.state, markers=(*self.state.markers, Marker(seat, action, where)))
        return self

    def first(self, seat: int) -> Scenario:
        self.state = replace(self.state, first=seat)
        return self

    def set(self, **fields: Any) -> Scenario:
        self.state = replace(self.state, **fields)
        return self

    def at(self, phase: str) -> Scenario:
        """Open ``phase`` of this turn as the engine does (its queue, its automatic effects)."""
        ctx = steps.Ctx(self.state)
        if phase == DRAFT:  # entering the draft begins a new turn: open this turn's draft instead
            ctx.state = replace(ctx.state, phase=DRAFT)
            step = steps.step_of(ctx.state)
            assert step is not None
            step.enter(ctx)
        else:
            steps.enter(ctx, phase)
        steps.settle(ctx)
        self.state = ctx.state
        self.events += ctx.events
        return self

    # -- playing ---------------------------------------------------------------------------------
    def apply(self, action: Action) -> Result:
        result = GAME.apply(self.state, action)
        self.state = result.state
        self.events += result.events
        return result

    def play(self, *actions: Action) -> Scenario:
        for a in actions:
            self.apply(a)
        return self

    def turn_over(self, seat: int, empire: str | None = None, action: str | None = None) -> Scenario:
        """Turn over ``seat``'s face-down marker on ``empire`` (None: the one in front of them)."""
        where = EXTRA if empire is None else card(empire)
        index = next(i for i, m in enumerate(self.state.markers) if m.owner == seat and m.empire == where
                     and m.face_down and (action is None or m.action == action))
        return self.play(TurnMarker(seat, index))

    def done(self, seat: int) -> Scenario:
        return self.play(Done(seat))

    def pass_(self, seat: int) -> Scenario:
        return self.play(Pass(seat))

    def end_turn(self) -> Scenario:
        """Every seat still asked this turn takes its most passive move, until the next turn or the end."""
        turn = self.state.turn
        while self.state.turn == turn and self.state.phase != OVER:
            seat = min(self.actors())
            self.apply(GAME.timeout_action(self.state, seat))
        return self

    def illegal(self, action: Action, code: str) -> IllegalAction:
        before = self.state
        with pytest.raises(IllegalAction) as info:
            GAME.apply(self.state, action)
        assert info.value.code == code, info.value.message
        assert self.state == before
        return info.value

    # -- reading ------------------------------------------------------------------------------------
    def legal(self, seat: int) -> list[Action]:
        return list(GAME.legal_actions(self.state, seat))

    def actors(self) -> frozenset[int]:
        return GAME.actors(self.state)

    def empire_of(self, name: str) -> Empire:
        return self.state.empire(card(name))

    def area(self, name: str) -> AreaState:
        return self.state.area(name)

    def of_type(self, kind: str) -> list[dict[str, Any]]:
        return [dict(e.data) for e in self.events if e.type == kind]

    def go_stage(self, seat: int) -> str | None:
        go = self.state.go_of(seat)
        return go.stage if go else None
