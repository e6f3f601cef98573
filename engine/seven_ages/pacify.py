"""Disorder removed by units at the end of movement (L676-698), and the unit that goes with each marker.

After its movement an empire may remove the disorder of each area it held as its go began where enough
of its units stand (:func:`engine.seven_ages.groups.pacifiable`), one :class:`Pacify` at a time (stage
``pacify``), then ``Done``. "As you remove each disorder marker, if the area doesn't have a fort, remove
one of your empire's units in the area as well" (L688): which unit is the player's choice, named in the
same move ("remove the disorder in Armenia, losing 1 Catapult"), one move per type of unit there. The
units that count are those standing there at the end of movement; the unit goes with the marker. A fort,
or a Populist (L698), removes the marker without a unit.

One move, never a second question: a question only where the area holds several types of unit would show
the table, under the fog of war (L791: the others see a stack's top unit and its size), whether the stack
is all of one type; at a table the player takes the marker and a unit off together. The unit, leaving
the map, is named to all.
"""

from __future__ import annotations

from dataclasses import replace

from engine.core import Action, IllegalAction
from engine.seven_ages import battle, losses
from engine.seven_ages.actions import Done
from engine.seven_ages.answers import Answers
from engine.seven_ages.groups import disorder_count, pacifiable
from engine.seven_ages.manoeuvre_moves import Pacify
from engine.seven_ages.markers import GoHandler
from engine.seven_ages.movement import POPULIST
from engine.seven_ages.state import Empire, Go, SevenState
from engine.seven_ages.steps import Ctx
from engine.seven_ages.war_modifiers import fortified

PACIFY = "pacify"
"""The go's stage: choosing the next area whose disorder goes (and the unit going with it), or finishing."""


def units_there(e: Empire, area: str) -> dict[str, int]:
    """The empire's units in ``area`` by type: the pool one unit is removed from."""
    return {s.unit: s.count for s in e.units if s.area == area}


def costs_a_unit(state: SevenState, e: Empire, area: str) -> bool:
    """Whether removing ``area``'s disorder removes one of the empire's units too: not with a fort there
    (L688; option 16's Great Wall counts as one, L1634), nor by a Populist there (L698: "at no cost")."""
    return not fortified(state, e, area) and not e.has_leader(POPULIST, area)


def legal(state: SevenState, go: Go) -> list[Action]:
    """The moves of stage ``pacify``: each area whose disorder may go, with each type of unit that may go
    with it (no unit where a fort or a Populist spares one), and finishing."""
    e = state.empire(go.empire)
    moves: list[Action] = []
    for area in pacifiable(state, e, go):
        if costs_a_unit(state, e, area):
            pool = units_there(e, area)
            moves += [Pacify(go.seat, area, unit) for unit, _ in losses.choices(pool, 1, None)]
        else:
            moves.append(Pacify(go.seat, area))
    return [*moves, Done(go.seat)]


def passive(state: SevenState, go: Go) -> Action:
    """A timed-out seat removes no more disorder."""
    return Done(go.seat)


def computer_move(state: SevenState, go: Go) -> Action:
    """The computer removes the disorder of the first area it may, giving up the cheapest unit there
    (:func:`engine.seven_ages.losses.computer_choice`), and finishes when none is left."""
    e = state.empire(go.empire)
    area = next(iter(pacifiable(state, e, go)), None)
    if area is None:
        return Done(go.seat)
    if not costs_a_unit(state, e, area):
        return Pacify(go.seat, area)
    return Pacify(go.seat, area, losses.computer_choice(units_there(e, area), 1, None)[0])


def apply(ctx: Ctx, go: Go, action: Action) -> None:
    """Apply a move of stage ``pacify``, by the handler :data:`MOVES` files its class under; when no more
    disorder may go, the conflicts follow."""
    MOVES.of(action)(ctx, go, action)


def _finish(ctx: Ctx, go: Go, action: Done) -> None:
    battle.after_movement(ctx, go)


def _pacify(ctx: Ctx, go: Go, action: Pacify) -> None:
    e = ctx.state.empire(go.empire)
    if action.area not in pacifiable(ctx.state, e, go):
        need = disorder_count(ctx.state, e, go, action.area)
        raise IllegalAction("not_pacifiable", f"Your units in {action.area} are too few to remove its "
                            f"disorder: {need} are needed (L680-686).")
    if not costs_a_unit(ctx.state, e, action.area):
        if action.unit:
            raise IllegalAction("bad_police", f"No unit goes with the disorder in {action.area}: a fort or a "
                                "Populist there spares it (L688, L698).")
        _remove(ctx, go, action.area, None)
        return
    if not action.unit:
        raise IllegalAction("bad_police", f"Name the unit you remove from {action.area} with its disorder "
                            "(L688).")
    refused = losses.refusal(units_there(e, action.area), 1, None, action.unit, 1)
    if refused:
        raise IllegalAction("bad_police", refused)
    _remove(ctx, go, action.area, action.unit)


MOVES: Answers[GoHandler] = Answers({Done: _finish, Pacify: _pacify}, "wrong_move",
                                    "Remove disorder by your units, or finish.")
"""The moves of stage ``pacify``, by class: remove an area's disorder, or finish."""


def _remove(ctx: Ctx, go: Go, area: str, unit: str | None) -> None:
    """Take ``area``'s disorder marker off, and ``unit`` (if any) with it; then the next area, or on."""
    e = ctx.state.empire(go.empire)
    if unit is not None:
        e = e.add_units(area, unit, -1)
    ctx.state = ctx.state.with_area(replace(ctx.state.area(area), disorder=False)).with_empire(e)
    ctx.emit("disorder_pacified", seat=go.seat, empire=e.card, area=area, lost=unit)
    if not pacifiable(ctx.state, e, go):
        battle.after_movement(ctx, go)
