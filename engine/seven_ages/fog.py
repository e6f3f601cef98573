"""Fog of war (L789-791): what the other players see of an empire's units, and how they may learn more.

"Obviously you can see the top unit in each stack, but you may only examine another player's other
on-map Units when tallying up conflict totals during conflict resolution." Our reading
(``data/seven_ages/README.md``, "Fog of war"): an empire's units in one area are one stack; every view
but its owner's shows that stack's **top unit and how many units it holds** (a stack's height shows on
a table, and the 2:1 rule, L638, needs it); leaders, cities, forts and artefacts stay public. The owner
chooses the top unit of each stack with :class:`~engine.seven_ages.manoeuvre_moves.TopUnit`, a standing
choice per area sent at any time and kept in :attr:`Empire.tops`; without one, or while the area
holds none of the chosen unit, the owner's standing ``top`` preference picks it: ``oldest`` (the
default, :func:`default_top`: the unit with the lowest availability level, then the first by name) or
``strongest`` (:func:`strongest`: the best front value in the empire's shade).

Events follow the same line: a public event never names a unit that stays on the map beneath the fog.
:func:`veil` (applied by ``Ctx.emit`` to every public event) takes the unit types out of the events
that put units on the map or move them (:data:`VEILED`; any other public event carrying ``unit`` or
``units`` too, unless declared open), leaving their number. Units leaving the map (losses, disbands)
are no longer "on-map": their events name them (:data:`OPEN`). A rule that shows units to everyone,
as a conflict's tally does, calls :func:`reveal` (one public ``units_revealed`` event listing each
side's units in the area), or declares its own event type with :func:`open_event`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any, Protocol

from engine.core import PUBLIC, Event, IllegalAction, Result
from engine.seven_ages import prefs
from engine.seven_ages.cards import load_deck
from engine.seven_ages.data import load_counters, load_tables
from engine.seven_ages.manoeuvre_moves import TopUnit
from engine.seven_ages.state import OVER, Empire, SevenState

REVEALED = "units_revealed"
"""The public event by which units beneath the fog are shown to all (:func:`reveal`)."""
TOP_SET = "top_unit_set"
"""The owner's private event saying which unit now shows on top of a stack."""

VEILED: dict[str, tuple[str, ...]] = {
    "unit_built": ("unit",),  # L505: a unit goes onto the map
    "units_converted": ("unit",),  # L445: units change empire and stay on the map
    "modernised": ("unit", "to"),  # L976: counters turned over where they stand
    "units_moved": ("units",),
    "units_stopped": ("units",),
    "units_dropped": ("units",),
}
"""Public events naming units that stay on the map, and the keys that name them."""
OPEN: set[str] = {
    REVEALED,
    "units_lost_at_sea",  # L634: off the map
    "galleys_lost",  # L654
    "unit_unmaintained",  # L501: back to the pool
    "disorder_pacified",  # L692: the unit removed with the marker ("lost")
}
"""Public events that may name units: units leaving the map, and reveals."""
UNIT_KEYS = ("unit", "units")
"""Data keys that name units in an event of a type neither veiled nor open (veiled by default)."""


class Emitting(Protocol):
    """What :func:`reveal` needs of a rule's context (``steps.Ctx``, which imports this module)."""

    state: SevenState

    def emit(self, type_: str, audience: str | tuple[int, ...] = PUBLIC, **data: Any) -> None: ...


def open_event(type_: str) -> None:
    """Declare that public events of ``type_`` may name units (a loss, or a reveal to all)."""
    OPEN.add(type_)


def veil(type_: str, data: Mapping[str, Any], audience: str | tuple[int, ...]) -> dict[str, Any]:
    """The data of an event as it may be sent: a public one without the types of units it names that stay
    on the map (``units``, a list of [unit, count], becomes ``count``, their number); others as they are."""
    out = dict(data)
    if audience != PUBLIC or type_ in OPEN:
        return out
    for key in VEILED.get(type_, UNIT_KEYS):
        if key not in out:
            continue
        value = out.pop(key)
        if key == "units" and "count" not in out:
            out["count"] = sum(int(n) for _, n in value)
    return out


def default_top(units: Iterable[str]) -> str:
    """The unit shown on top when its owner has not chosen: the lowest availability level, then by name."""
    kinds = load_tables().unit_types
    return min(units, key=lambda u: (kinds[u].available, u))


def strongest(empire: Empire, units: Iterable[str]) -> str:
    """The unit of ``units`` with the best front value in ``empire``'s shade (L80), then the oldest."""
    counters, kinds = load_counters(), load_tables().unit_types
    shade = counters.mixes[empire.colour].shade
    return min(units, key=lambda u: (-counters.values.get((shade, u), {}).get("front", 0),
                                     kinds[u].available, u))


TOP_PREF = prefs.register(prefs.Preference("top", "oldest", {
    "oldest": "Where you have not chosen a stack's top unit, the others see its oldest kind of unit.",
    "strongest": "Where you have not chosen a stack's top unit, the others see its strongest unit."},
    shown=True))
"""How a stack's top unit is picked where its owner has not chosen one (L791: the owner stacks them)."""


def top_unit(state: SevenState, empire: Empire, area: str) -> str | None:
    """The unit the other players see on top of ``empire``'s stack in ``area`` (None: no stack there)."""
    here = [s.unit for s in empire.units if s.area == area]
    if not here:
        return None
    chosen = dict(empire.tops).get(area)
    if chosen in here:
        return chosen
    if prefs.standing(state, empire.owner, TOP_PREF.key) == "strongest":
        return strongest(empire, here)
    return default_top(here)


def faces(state: SevenState, empire: Empire) -> list[list[Any]]:
    """Each stack as the other players see it: [area, top unit, units in the stack], by area."""
    return [[area, top_unit(state, empire, area), empire.count(area)] for area in empire.areas()]


def choose_top(state: SevenState, action: TopUnit) -> Result:
    """Apply a :class:`TopUnit` (an anytime move): checked, recorded in the empire's standing choices.

    Raises:
        IllegalAction: the game is over, the empire is not the player's, it has no units in the area, or
            none of that unit there. Nothing changes.
    """
    if state.phase == OVER:
        raise IllegalAction("game_over", "The game is over.")
    if not 0 <= action.player < state.players:
        raise IllegalAction("not_seated", "There is no such seat in this game.")
    if not state.has_empire(action.empire) or state.empire(action.empire).owner != action.player:
        raise IllegalAction("not_your_empire", "You can only stack the units of an empire of yours.")
    e = state.empire(action.empire)
    name = load_deck().cards[e.card].empire.name
    if not e.count(action.area):
        raise IllegalAction("no_stack", f"The {name} have no units in {action.area or 'that area'} to stack.")
    if not e.count(action.area, action.unit):
        raise IllegalAction("no_such_unit", f"The {name} have no {action.unit or 'such unit'} in "
                            f"{action.area} to show on top.")
    tops = dict(e.tops)
    tops[action.area] = action.unit
    new = state.with_empire(replace(e, tops=tuple(sorted(tops.items()))))
    data = {"seat": action.player, "empire": e.card, "area": action.area, "unit": action.unit}
    event = Event(TOP_SET, data, (action.player,))
    return Result(replace(new, seq=new.seq + 1), (event,))


def reveal(ctx: Emitting, area: str) -> None:
    """Show every unit in ``area`` to all (a conflict's tally, L791): one public :data:`REVEALED` event,
    ``sides`` a list of {empire, units: [[unit, count], ...]} in the order the empires arrived."""
    sides = [{"empire": e.card, "units": [[s.unit, s.count] for s in e.units if s.area == area]}
             for e in ctx.state.occupants(area)]
    ctx.emit(REVEALED, area=area, sides=sides)


def restacks(state: SevenState, seat: int) -> list[TopUnit]:
    """Every :class:`TopUnit` of ``seat`` that would change what the others see: another unit of a stack
    holding several types shown on top. (Not legal moves: anytime moves stand outside the decisions.)"""
    out = []
    for e in state.empires_of(seat):
        for area in e.areas():
            top = top_unit(state, e, area)
            out += [TopUnit(seat, e.card, area, s.unit) for s in e.units if s.area == area and s.unit != top]
    return out
