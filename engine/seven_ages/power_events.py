"""Glory and money an artefact's power gives or takes (option 16), applied and worded in one place.

The computations that ask :mod:`engine.seven_ages.modifiers` for such a number (a trade won by a Capitalist,
two Democracies trading, a Moon landing's Civilise, Hinduism at the harvest, the Moon landing's end) apply
it here, so every such change is one event naming the artefact.
"""

from __future__ import annotations

from dataclasses import replace

from engine.core import Event, Names
from engine.seven_ages.state import MAX_MONEY
from engine.seven_ages.steps import Ctx
from engine.seven_ages.text import register_event, the_empire
from engine.words import plural


def glory(ctx: Ctx, card: int, points: int, artefact: str) -> None:
    """The player of empire ``card`` gains (or loses) ``points`` glory by ``artefact``'s power."""
    if not points:
        return
    e = ctx.state.empire(card)
    ctx.state = ctx.state.with_player(ctx.state.people[e.owner].gain(artefact, points))
    ctx.emit("power_glory", seat=e.owner, empire=card, glory=points, artefact=artefact)


def money(ctx: Ctx, card: int, amount: int, artefact: str) -> None:
    """Empire ``card`` gains ``amount`` money by ``artefact``'s power (within 0-199, L479)."""
    if not amount:
        return
    e = ctx.state.empire(card)
    ctx.state = ctx.state.with_empire(replace(e, money=max(0, min(MAX_MONEY, e.money + amount))))
    ctx.emit("power_money", empire=card, money=amount, artefact=artefact)


def _words(event: Event, names: Names) -> str | None:
    d = event.data
    who = the_empire(int(d["empire"]))
    if event.type == "power_glory":
        points = int(d["glory"])
        verb = "gain" if points > 0 else "lose"
        return f"{who} {verb} {plural(abs(points), 'glory', 'glory')} by {d['artefact']}."
    if event.type == "power_money":
        return f"{who} gain {d['money']} money by {d['artefact']}."
    return None


for _type in ("power_glory", "power_money"):
    register_event(_type, _words)
