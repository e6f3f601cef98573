"""Disorder removed by units at the end of movement (L676-698), and the unit that goes with each marker.

After its movement an empire may remove the disorder of each area it held as its go began where enough
of its units stand (:func:`engine.seven_ages.groups.pacifiable`), one :class:`Pacify` at a time (stage
``pacify``), then ``Done``. "As you remove each disorder marker, if the area doesn't have a fort, remove
one of your empire's units in the area as well" (L688): which unit is the player's choice. The units that
count are those standing there at the end of movement; the unit goes once it is chosen. With one type of
unit there, nothing is asked (the owner is told why); with several, the go waits in stage ``police`` for
:class:`Police`, the question being a one-unit loss (:mod:`engine.seven_ages.losses`, whose computer's
choice, the cheapest unit, is also the timed-out seat's). A fort, or a Populist (L698), removes the marker
without a unit.

``Go.data["policing"]``: the area whose unit is being chosen (the go owner's, like the rest of the go).
"""

from __future__ import annotations

from dataclasses import replace

from engine.core import Action, IllegalAction
from engine.seven_ages import battle, losses
from engine.seven_ages.actions import Done
from engine.seven_ages.actions_move import Pacify, Police
from engine.seven_ages.groups import disorder_count, pacifiable
from engine.seven_ages.movement import POPULIST
from engine.seven_ages.state import Empire, Go, SevenState
from engine.seven_ages.steps import Ctx

PACIFY, POLICE = "pacify", "police"
"""The go's stages: choosing the next area whose disorder goes (or finishing), and choosing the unit that
goes with it."""
AREA = "policing"
"""The ``Go.data`` key naming the area whose unit is being chosen."""


def units_there(e: Empire, area: str) -> dict[str, int]:
    """The empire's units in ``area`` by type: the pool one unit is removed from."""
    return {s.unit: s.count for s in e.units if s.area == area}


def costs_a_unit(state: SevenState, e: Empire, area: str) -> bool:
    """Whether removing ``area``'s disorder removes one of the empire's units too: not with a fort there
    (L688), nor by a Populist there (L698: "at no cost")."""
    return not state.area(area).fort and not e.has_leader(POPULIST, area)


def legal(state: SevenState, go: Go) -> list[Action]:
    """The moves of stages ``pacify`` and ``police``."""
    e = state.empire(go.empire)
    if go.stage == POLICE:
        pool = units_there(e, str(go.data[AREA]))
        return [Police(go.seat, unit) for unit, _ in losses.choices(pool, 1, None)]
    return [*(Pacify(go.seat, a) for a in pacifiable(state, e, go)), Done(go.seat)]


def passive(state: SevenState, go: Go) -> Action:
    """A timed-out seat (and the computer) removes no more disorder, and gives up the cheapest unit when
    asked which."""
    if go.stage == POLICE:
        return Police(go.seat, cheapest(state, go))
    return Done(go.seat)


def cheapest(state: SevenState, go: Go) -> str:
    """The unit the computer removes from the area being policed: the cheapest
    (:func:`engine.seven_ages.losses.computer_choice`)."""
    pool = units_there(state.empire(go.empire), str(go.data[AREA]))
    return losses.computer_choice(pool, 1, None)[0]


def apply(ctx: Ctx, go: Go, action: Action) -> None:
    """Apply a move of stage ``pacify`` or ``police``; when no more disorder may go, the conflicts follow."""
    if go.stage == POLICE:
        _police(ctx, go, action)
        return
    if isinstance(action, Done):
        battle.after_movement(ctx, go)
        return
    if not isinstance(action, Pacify):
        raise IllegalAction("wrong_move", "Remove disorder by your units, or finish.")
    e = ctx.state.empire(go.empire)
    if action.area not in pacifiable(ctx.state, e, go):
        need = disorder_count(ctx.state, e, go, action.area)
        raise IllegalAction("not_pacifiable", f"Your units in {action.area} are too few to remove its "
                            f"disorder: {need} are needed (L680-686).")
    if not costs_a_unit(ctx.state, e, action.area):
        _remove(ctx, go, action.area, None)
        return
    pool = units_there(e, action.area)
    found = losses.forced(pool, 1, None)
    if found is None:  # several types of unit: the player chooses which goes
        ctx.state = ctx.state.with_go(replace(go, stage=POLICE, data={**go.data, AREA: action.area}))
        return
    unit = next(iter(found[0]))
    ctx.emit("policing_forced", audience=(go.seat,), empire=e.card, area=action.area, unit=unit)
    _remove(ctx, go, action.area, unit)


def _police(ctx: Ctx, go: Go, action: Action) -> None:
    area = str(go.data[AREA])
    if not isinstance(action, Police):
        raise IllegalAction("wrong_move", f"Choose the unit you remove from {area} with its disorder.")
    pool = units_there(ctx.state.empire(go.empire), area)
    refused = losses.refusal(pool, 1, None, action.unit, 1)
    if refused:
        raise IllegalAction("bad_police", refused)
    go = replace(go, stage=PACIFY, data={k: v for k, v in go.data.items() if k != AREA})
    ctx.state = ctx.state.with_go(go)
    _remove(ctx, go, area, action.unit)


def _remove(ctx: Ctx, go: Go, area: str, unit: str | None) -> None:
    """Take ``area``'s disorder marker off, and ``unit`` (if any) with it; then the next area, or on."""
    e = ctx.state.empire(go.empire)
    if unit is not None:
        e = e.add_units(area, unit, -1)
    ctx.state = ctx.state.with_area(replace(ctx.state.area(area), disorder=False)).with_empire(e)
    ctx.emit("disorder_pacified", seat=go.seat, empire=e.card, area=area, lost=unit)
    if not pacifiable(ctx.state, e, go):
        battle.after_movement(ctx, go)
