"""The mover's own manoeuvre events (issue 26, item 5): cards played as a manoeuvre go's first decision.

"Some events can be played at other times during a turn. This will be stated on the card." (L865).
The manoeuvre-timed events that change the arithmetic of movement are offered to the mover with the
go's first decision, before any of its units moves: play one (then another, "any number of cards",
L861), or choose a stack and go on. They are never listed when the mover holds none, and they add no
prompt of their own: the first decision (a stack, or the end of movement) is asked anyway, so nobody
learns from it whether the mover holds such a card. The offer and the play are the mechanism every
action shares (:mod:`engine.seven_ages.own_events`); this module holds what is particular to movement:
which cards, on what, and what their codes do.

- ``move_bonus_once`` (Royal road, Blitzkrieg, ...): +N to the allowance of every unit the go moves;
  kept in the go's data (``bonus``) and copied into each group it forms (:func:`groups.new_group`).
- ``move_cost`` (Cataract): entering the area costs N more for the rest of the turn, to everyone; a
  public turn note (``state.notes``, cleared as the turn ends) that :func:`movement.step_cost` reads.
- ``remove_disorder`` (with Long march's bonus): the disorder of one of the empire's areas, or none.
- ``conflict_bonus`` (with Conquistadors' bonus): "+1 to this side's total this round", held in the go's
  data (``fight_bonus``) and added to the empire's total in the first conflict round it fights in this go (the
  first round revealed after the play, :func:`take_held`); a go with no conflict wastes it, as a go that
  moves nothing wastes the movement.

An event with another effect (the raids' disorder) is played in another player's go (pre-armed orders).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from engine.core import Event, Names
from engine.seven_ages.cards import load_deck
from engine.seven_ages.civilisation_moves import PlayEvent
from engine.seven_ages.map import load_map
from engine.seven_ages.state import Empire, Go, SevenState
from engine.seven_ages.steps import Ctx
from engine.seven_ages.text import register_event, the_empire
from engine.words import plural

MOVEMENT_CODES = frozenset({"move_bonus_once", "move_cost"})
"""The event codes that change movement arithmetic: what makes a card a mover's manoeuvre event."""
MOVE_EVENT_CODES = MOVEMENT_CODES | {"remove_disorder", "conflict_bonus"}
"""Every code such a card may also carry and still be played as the go begins (Long march,
Conquistadors)."""
BONUS = "bonus"
"""The ``Go.data`` key of the go's movement bonus (and of each group's copy of it)."""
HELD = "fight_bonus"
"""The ``Go.data`` key of the conflict bonus the go's events hold for its first conflict round."""
COST_NOTE = "cost"
"""The turn note of an area that costs more to enter: ``cost:<card>:<amount>:<area>``."""


def playable(card: int) -> bool:
    """Whether ``card``'s event is a manoeuvre event the mover plays as its go begins."""
    ev = load_deck().cards[card].event
    codes = {x["code"] for x in ev.effects}
    return ev.timing == "manoeuvre" and bool(codes & MOVEMENT_CODES) and codes <= MOVE_EVENT_CODES


def go_bonus(state: SevenState, card: int) -> int:
    """The movement the manoeuvre go of the empire ``card`` gained from events (0 without a go)."""
    go = next((g for g in state.goes if g.empire == card and g.action == "manoeuvre"), None)
    return int(go.data.get(BONUS, 0)) if go is not None else 0


def take_held(go: Go) -> tuple[int, Go]:
    """The conflict bonus ``go`` holds from its events, and the go without it: the round that takes it
    counts it once."""
    held = int(go.data.get(HELD, 0))
    if not held:
        return 0, go
    return held, replace(go, data={k: v for k, v in go.data.items() if k != HELD})


def extra_cost(state: SevenState, area: str) -> int:
    """What the turn's notes add to the cost of entering ``area`` (Cataract)."""
    total = 0
    for note in state.notes:
        parts = note.split(":", 3)
        if len(parts) == 4 and parts[0] == COST_NOTE and parts[3] == area:
            total += int(parts[2])
    return total


def cataract_areas(state: SevenState, e: Empire) -> list[str]:
    """Where the mover may make entry dearer: the empire's land areas next to another empire's units.
    Played by the mover as its own go begins, the note can only matter to units coming after it this
    turn, into areas others may reach; listing every area of the map would make a decision of hundreds
    of choices (issue 26 caps a manoeuvre decision under 40)."""
    wmap = load_map()
    out = []
    for area in e.areas():
        if not wmap.areas[area].land:
            continue
        near = (area, *wmap.adjacency[area])
        if any(o.card != e.card for n in near for o in state.occupants(n)):
            out.append(area)
    return out


def targets(state: SevenState, go: Go, card: int) -> list[tuple[int, str]]:
    """(empire, area) pairs the event of ``card`` may be played on in ``go``."""
    ev = load_deck().cards[card].event
    e = state.empire(go.empire)
    codes = {x["code"] for x in ev.effects}
    if ev.target == "area":
        return [(0, a) for a in cataract_areas(state, e)]
    if ev.target != "own_empire":  # the bonus is for this manoeuvre: the empire of the go only
        return []
    areas = [a for a in e.areas() if state.area(a).disorder] if "remove_disorder" in codes else []
    return [(e.card, a) for a in areas] + [(e.card, "")]


def effect(ctx: Ctx, go: Go, action: PlayEvent, x: Mapping[str, Any]) -> None:
    """Carry out one movement code of an event the mover plays (:mod:`engine.seven_ages.own_events`)."""
    s, code = ctx.state, x["code"]
    if code == "move_bonus_once":
        now = s.go_of(go.seat) or go
        bonus = int(now.data.get(BONUS, 0)) + int(x["amount"])
        ctx.state = s.with_go(replace(now, data={**now.data, BONUS: bonus}))
        ctx.emit("move_bonus", seat=go.seat, empire=go.empire, amount=int(x["amount"]), total=bonus)
    elif code == "move_cost":
        note = f"{COST_NOTE}:{action.card}:{int(x['amount'])}:{action.area}"
        ctx.state = replace(s, notes=tuple(sorted({*s.notes, note})))
        ctx.emit("area_costs_more", area=action.area, amount=int(x["amount"]),
                 total=extra_cost(ctx.state, action.area))
    elif code == "conflict_bonus":
        now = s.go_of(go.seat) or go
        held = int(now.data.get(HELD, 0)) + int(x["amount"])
        ctx.state = s.with_go(replace(now, data={**now.data, HELD: held}))
        ctx.emit("conflict_bonus_held", empire=go.empire, amount=int(x["amount"]), total=held)
    elif code == "remove_disorder" and action.area:
        ctx.state = s.with_area(replace(s.area(action.area), disorder=False))
        ctx.emit("event_disorder_removed", empire=go.empire, area=action.area)


def _words(event: Event, names: Names) -> str | None:
    d = event.data
    if event.type == "move_bonus":
        total = f" ({d['total']} in all)" if int(d["total"]) != int(d["amount"]) else ""
        return (f"{the_empire(int(d['empire']))} gain {plural(int(d['amount']), 'movement point')} for "
                f"every unit they move this manoeuvre{total}.")
    if event.type == "area_costs_more":
        return (f"Until the end of the turn, entering {d['area']} costs "
                f"{plural(int(d['total']), 'movement point')} more.")
    if event.type == "event_disorder_removed":
        return f"The disorder in {d['area']} ends."
    if event.type == "conflict_bonus_held":
        total = f" ({d['total']} in all)" if int(d["total"]) != int(d["amount"]) else ""
        return (f"{the_empire(int(d['empire']))} will add {d['amount']} to their total in the first conflict "
                f"round they fight this manoeuvre{total}.")
    if event.type == "held_bonus_counts":
        return f"{the_empire(int(d['empire']))} add {d['amount']} to their total this round (an event)."
    return None


for _type in ("move_bonus", "area_costs_more", "event_disorder_removed", "conflict_bonus_held",
              "held_bonus_counts"):
    register_event(_type, _words)
