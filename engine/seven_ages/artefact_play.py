"""What playing an artefact does at once under option 16 (L1730-1943): the effects printed as "when played".

- *Just rule* removes all disorder in its empire (L1736).
- *Revolution* moves its empire back 3 progress levels, disorders its capital and removes all its religions
  (L1887); it discards *Concentrated ownership* (L1463) and *Religious strife* (L1870).
- *Socialism* disorders each city area its empire controls without a leader (L1934) and removes
  *Revolution* (L1893), as any religion gained does (L1894).
- Every Socialist gains 1 glory when another empire within its Range gains Socialism or discards another
  government (L1938).

A religion or government adopted in Civilise counts as played ("as if you had played that artefact card",
L962).

Nothing happens unless the game plays option 16.
"""

from __future__ import annotations

from dataclasses import replace

from engine.core import Event, Names
from engine.seven_ages import beliefs, power_events
from engine.seven_ages.artefact_powers import powers_on
from engine.seven_ages.endturn import advance
from engine.seven_ages.map import load_map
from engine.seven_ages.modifiers import CONCENTRATED, RELIGIONS, REVOLUTION, SOCIALISM, STRIFE, power
from engine.seven_ages.reach import empire_reaches
from engine.seven_ages.state import Empire
from engine.seven_ages.steps import Ctx
from engine.seven_ages.text import empire_name, register_event
from engine.words import join_words

JUST_RULE = "Just rule"
REVOLUTION_LEVELS = -3  # L1887


def played(ctx: Ctx, card: int, name: str) -> None:
    """Artefact ``name`` was just played on empire ``card``: its effects "when played"."""
    if not powers_on(ctx.state):
        return
    if name == JUST_RULE:
        _calm(ctx, ctx.state.empire(card), name)
    elif name == REVOLUTION:
        _revolution(ctx, card)
    elif name == SOCIALISM:
        e = ctx.state.empire(card)
        led = {ld.area for ld in e.leaders}
        for a in e.areas():
            if ctx.state.area(a).city and a not in led and load_map().areas[a].land:
                _disorder(ctx, e, a, name)
        _discard(ctx, card, (REVOLUTION,), name)
        _socialists_glory(ctx, card)
    elif name in RELIGIONS:
        _discard(ctx, card, (REVOLUTION,), name)


def renounced(ctx: Ctx, card: int, name: str, kind: str) -> None:
    """Empire ``card`` discarded religion or government ``name``: another government than Socialism gives
    each Socialist with it in Range 1 glory (L1938)."""
    if powers_on(ctx.state) and kind == "government" and name != SOCIALISM:
        _socialists_glory(ctx, card)


def _socialists_glory(ctx: Ctx, card: int) -> None:
    e = ctx.state.empire(card)
    for x in ctx.state.empires:
        socialist = x.card != card and power(ctx.state, x, SOCIALISM)
        if socialist and empire_reaches(ctx.state, x, e.areas(), card):
            power_events.glory(ctx, x.card, 1, SOCIALISM)


def _calm(ctx: Ctx, e: Empire, why: str) -> None:
    areas = [a for a in e.areas() if ctx.state.area(a).disorder]
    for a in areas:
        ctx.state = ctx.state.with_area(replace(ctx.state.area(a), disorder=False))
    if areas:
        ctx.emit("power_calm", empire=e.card, areas=areas, artefact=why)


def _disorder(ctx: Ctx, e: Empire, area: str, why: str) -> None:
    if not ctx.state.area(area).disorder:
        ctx.state = ctx.state.with_area(replace(ctx.state.area(area), disorder=True))
        ctx.emit("power_disorder", empire=e.card, area=area, artefact=why)


def _revolution(ctx: Ctx, card: int) -> None:
    advance(ctx, card, REVOLUTION_LEVELS)
    e = ctx.state.empire(card)
    if REVOLUTION not in e.artefacts:  # its own 3 levels back left the age: that does not discard it
        e = replace(e, artefacts=(*e.artefacts, REVOLUTION))
        ctx.state = ctx.state.with_empire(e)
    if e.capital:
        _disorder(ctx, e, e.capital, REVOLUTION)
    e = ctx.state.empire(card)
    if e.religions:
        ctx.state = beliefs.record(ctx.state.with_empire(replace(e, religions=())))
        ctx.emit("power_discard", empire=card, artefacts=list(e.religions), artefact=REVOLUTION)
    _discard(ctx, card, (CONCENTRATED, STRIFE), REVOLUTION)


def _discard(ctx: Ctx, card: int, names: tuple[str, ...], why: str) -> None:
    """Artefacts ``names`` leave the empire's card (they are discarded, L1463, L1870, L1893)."""
    e = ctx.state.empire(card)
    gone = [n for n in e.artefacts if n in names]
    if gone:
        kept = tuple(n for n in e.artefacts if n not in names)
        ctx.state = ctx.state.with_empire(replace(e, artefacts=kept))
        ctx.emit("power_discard", empire=card, artefacts=gone, artefact=why)


def _words(event: Event, names: Names) -> str | None:
    d = event.data
    who, why = empire_name(int(d["empire"])), d["artefact"]
    if event.type == "power_calm":
        return f"{why} removes the disorder in {join_words([str(a) for a in d['areas']])} of {who}."
    if event.type == "power_disorder":
        return f"{why} disorders {d['area']}, held by {who}."
    if event.type == "power_discard":
        return f"{why} discards {join_words([str(a) for a in d['artefacts']])} from {who}."
    return None


for _type in ("power_calm", "power_disorder", "power_discard"):
    register_event(_type, _words)
