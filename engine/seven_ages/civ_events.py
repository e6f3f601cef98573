"""7 Ages events played in one's own Civilise that ask for choices (issue 27, items 2, 5 and 6).

An event card runs its effect codes in order (L859-869). Codes that need nothing chosen run at once;
the others pause the go at the stage :data:`EVENT` with one question at a time:

- the **player of the event** chooses what the card leaves open (which areas fall into disorder or leave
  it, which leader the assassins aim at, which artefact burns, which player is spied on and which card is
  taken, which area converts, which leader is promoted) through
  :class:`~engine.seven_ages.civilisation_moves.EventPick` moves offered in their go, the question kept in
  ``Go.data["event"]`` (their view only);
- the **victim** answers where the card says the choice is theirs (``lose_units``: "of its choice"), a
  :class:`~engine.seven_ages.state.Pending` of kind :data:`LOSE` on their seat;
- an **assassination** (L883-891) is two secret pendings (:mod:`engine.seven_ages.assassins`) answered in
  any order, like a conflict's commitments, until one public reveal.

Readings (with their passages) are in ``data/seven_ages/README.md``, "Civilise events with choices".
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from engine import rng
from engine.core import Action, IllegalAction, PlayerId
from engine.seven_ages import assassins, fog, take_that
from engine.seven_ages.answers import Answers
from engine.seven_ages.cards import load_deck, named_leaders
from engine.seven_ages.civilisation_moves import EventPick, PlayEvent
from engine.seven_ages.cleanup import retire_leader
from engine.seven_ages.data import load_tables
from engine.seven_ages.map import load_map
from engine.seven_ages.production import AHEAD, ahead_levels, buildable_units, can_place, pool
from engine.seven_ages.promotion import leader_number, may_promote, promotable
from engine.seven_ages.quick import cost_order
from engine.seven_ages.setup import discard_from_hand, refill
from engine.seven_ages.state import Empire, Go, Leader, Pending, SevenState
from engine.seven_ages.steps import Ctx

EVENT = "event"
"""The civilise go's stage while an event waits for its player's choice."""
LOSE = "lose_units"
"""A victim's pending decision: which unit it loses ("units of its choice")."""
NO_LEADER = "no leader"
ADMINISTRATOR = "Administrator"

#: The codes this module carries out in Civilise (the simple ones are run by the civilise step).
CODES = frozenset({
    "disorder_areas", "disorder_by_card", "lose_units", "reduce_city", "new_dynasty", "convert_area",
    "build_ahead", "promote_leader", "look_at_hand", "steal_card", "lose_artefact", "assassinate",
    "discard_cards", "add_units"})
WAITS_ON = frozenset({LOSE, assassins.ASSASSIN})
"""The other seats' decisions an event waits for (a go's own pendings, a trade's cards, do not stop it)."""

Simple = Callable[[Ctx, Go, PlayEvent, Mapping[str, Any]], bool]
"""The civilise step's own effect runner (money, glory, a card check ...): False stops the event."""


# -- counting --------------------------------------------------------------------------------------

def leaders_counted(e: Empire) -> int:
    """The empire's leaders as events count them: an Administrator counts 2 (L2005-2007)."""
    return sum(2 if ADMINISTRATOR in ld.abilities else 1 for ld in e.leaders)


def fires_areas(card_value: int, e: Empire) -> int:
    """Fires: the check card's value less the target's leaders, administrators 2 (L2007), never below 0."""
    return max(0, card_value - leaders_counted(e))


def lowered_city(value: int, amount: int) -> int:
    """A city reduced by ``amount`` (a city of 1 reduced goes, 0)."""
    return max(0, value - amount)


# -- what may be chosen ----------------------------------------------------------------------------

def _land(area: str) -> bool:
    return load_map().areas[area].land


def disorder_candidates(state: SevenState, e: Empire) -> list[str]:
    """The target's land areas not yet in disorder."""
    return [a for a in e.areas() if _land(a) and not state.area(a).disorder]


def convert_candidates(state: SevenState, e: Empire) -> list[str]:
    """Land areas next to the empire's that are neutral or held in disorder by another empire, while it has
    an infantry unit to place there."""
    if _infantry(e) is None:
        return []
    geo = load_map()
    mine = set(e.areas())
    near = {b for a in mine for b in geo.adjacency.get(a, frozenset())} - mine
    out = []
    for a in sorted(near):
        if not _land(a):
            continue
        holders = state.occupants(a)
        if not holders or (state.area(a).disorder and all(x.card != e.card for x in holders)):
            out.append(a)
    return out


def best_unit(e: Empire, unit_class: str) -> str | None:
    """The most advanced unit of ``unit_class`` the empire may build now (its level, pool and card)."""
    tables = load_tables()
    units = [u for u in buildable_units(e) if tables.unit_types[u].unit_class == unit_class]
    return max(units, key=lambda u: (tables.unit_types[u].available, u)) if units else None


def _infantry(e: Empire) -> str | None:
    """The best infantry the empire may build now (the unit that takes a converted area)."""
    return best_unit(e, "infantry")


def place_areas(state: SevenState, e: Empire, unit: str) -> list[str]:
    """Where a free unit of an event may go: any of the empire's areas that takes that unit (ships on a coast
    or a sea, others on land), with no placement limit (free units are no Production's builds)."""
    return [a for a in e.areas() if can_place(state, e, unit, a, None)]


def artefacts_of(state: SevenState, e: Empire) -> list[tuple[str, str]]:
    """(area or "", artefact): the artefact markers in the target's areas and those on its card."""
    out = [(a, name) for a in e.areas() for name in state.area(a).artefacts]
    return [*out, *(("", name) for name in e.artefacts)]


def promote_options(state: SevenState, e: Empire) -> list[str]:
    """The picks of a free promotion: a named leader of the age in one of the empire's areas, or a draw
    from the cup; none at the Leader number (L940)."""
    if not may_promote(len(e.leaders), leader_number(state, e)):
        return []
    out = [f"named:{n}|{a}" for n in promotable(state, e) for a in e.areas()]
    return [*out, "cup"] if state.cup else out


def spy_seats(state: SevenState, seat: PlayerId) -> list[int]:
    """The players whose hand may be looked at: every other one holding a card (with option 8, one with
    an empire within Range of one of ``seat``'s, L1226)."""
    return [p.seat for p in state.people
            if p.seat != seat and p.hand and take_that.player_in_range(state, seat, p.seat)]


def _leader_key(ld: Leader) -> str:
    return f"leader:{ld.name}|{ld.area}"


# -- the event under way ---------------------------------------------------------------------------

def event_of(go: Go) -> dict[str, Any]:
    return dict(go.data.get("event") or {})


def _set(ctx: Ctx, seat: PlayerId, ev: dict[str, Any] | None, stage: str | None = None) -> Go:
    go = ctx.state.go_of(seat)
    assert go is not None
    new = replace(go, data={**go.data, "event": ev}, stage=stage or go.stage)
    ctx.state = ctx.state.with_go(new)
    return new


def _target(state: SevenState, ev: Mapping[str, Any]) -> Empire | None:
    t = int(ev["target"])
    return state.empire(t) if t and state.has_empire(t) else None


CALM = "remove_disorder"
"""Run by the caller's own runner for the area the card was played on (Civilise's, or Long march's in a
manoeuvre), then here for the card's further areas (Bread and circuses: 2)."""
CANCEL = "cancel_event"
"""A cancel acts only on an event as it is played (L871-877); a card played "at any time" may also be
played now, in its player's Civilise (L863), where its other effects are carried out."""


def start(ctx: Ctx, go: Go, action: PlayEvent, simple: Simple) -> None:
    """Carry out an event just played: its codes in order, pausing for each choice."""
    effects = [dict(x) for x in load_deck().cards[action.card].event.effects if x["code"] != CANCEL]
    ev = {"card": action.card, "target": action.target, "area": action.area, "left": effects, "ask": None,
          "victim": None, "back": go.stage}
    _set(ctx, go.seat, ev, EVENT)
    run(ctx, go.seat, simple)


def run(ctx: Ctx, seat: PlayerId, simple: Simple) -> None:
    """Go on with the event until it asks something or is over."""
    while True:
        go = ctx.state.go_of(seat)
        assert go is not None
        ev = event_of(go)
        if ev.get("ask") or any(p.empire == go.empire and p.kind in WAITS_ON
                                for p in (*ctx.state.pending, *ctx.state.sealed)):
            return
        if not ev["left"]:
            _set(ctx, seat, None, str(ev["back"]))
            return
        x = ev["left"][0]
        ev["left"] = ev["left"][1:]
        go = _set(ctx, seat, ev)
        if not _begin(ctx, go, ev, x, simple):
            _set(ctx, seat, None, str(ev["back"]))
            return


def _ask(ctx: Ctx, seat: PlayerId, ask: dict[str, Any]) -> bool:
    go = ctx.state.go_of(seat)
    assert go is not None
    _set(ctx, seat, {**event_of(go), "ask": ask})
    return True


def _begin(ctx: Ctx, go: Go, ev: dict[str, Any], x: Mapping[str, Any], simple: Simple) -> bool:
    """Start one effect; False when the event stops (a failed card check, L869)."""
    code, s = str(x["code"]), ctx.state
    action = PlayEvent(go.seat, int(ev["card"]), int(ev["target"]), str(ev["area"]))
    if code == CALM:
        return simple(ctx, go, action, x) and _calm_start(ctx, go, ev, int(x["count"]))
    if code not in CODES:
        return simple(ctx, go, action, x)
    e = _target(s, ev)
    if code == "look_at_hand":
        return _ask(ctx, go.seat, {"code": "seat"})
    if code == "steal_card":
        return _steal_start(ctx, go, ev, int(x["count"]))
    if code == "discard_cards":  # the player's own cards, of their choice (Oracle bones, in Destiny)
        if ctx.state.people[go.seat].hand:
            return _ask(ctx, go.seat, {"code": "discard", "left": int(x["count"])})
        return True
    if e is None:
        return True
    if code in ("disorder_areas", "disorder_by_card"):
        n = int(x.get("count", 0))
        if code == "disorder_by_card":
            n = _fires_check(ctx, e)
        return _disorder_start(ctx, go, ev, e, n)
    if code == "lose_units":
        units = _units_open(ctx.state, e, str(ev["area"]))
        if units:
            ctx.state = replace(ctx.state, pending=(*ctx.state.pending, Pending(
                LOSE, e.owner, go.empire, {"left": int(x["count"]), "area": ev["area"], "target": e.card})))
        return True
    if code == "reduce_city":
        _reduce(ctx, e, str(ev["area"]), int(x["amount"]))
    elif code == "new_dynasty":
        _new_dynasty(ctx, e)
    elif code == "convert_area":
        if convert_candidates(s, e):
            return _ask(ctx, go.seat, {"code": "convert", "left": int(x["count"])})
    elif code == "add_units":
        unit = best_unit(e, str(x["unit_class"]))
        areas = place_areas(s, e, unit) if unit is not None else []
        if len(areas) == 1:  # nothing to choose: every unit there, no question
            _place(ctx, go, e, areas[0], str(unit), min(int(x["count"]), pool(e, str(unit))))
        elif areas:
            return _ask(ctx, go.seat, {"code": "add", "left": int(x["count"]), "unit": unit})
    elif code == "build_ahead":
        levels = ahead_levels(e) + int(x["levels"])
        flags = [f for f in e.flags if not f.startswith(AHEAD)]
        ctx.state = s.with_empire(replace(e, flags=tuple(sorted([*flags, f"{AHEAD}{levels}"]))))
        ctx.emit("build_ahead", empire=e.card, levels=int(x["levels"]), now=go.action == "production")
    elif code == "promote_leader":
        if promote_options(s, e):
            return _ask(ctx, go.seat, {"code": "promote"})
    elif code == "lose_artefact":
        if artefacts_of(s, e):
            return _ask(ctx, go.seat, {"code": "artefact", "left": int(x["count"])})
    elif code == "assassinate" and e.leaders:
        return _ask(ctx, go.seat, {"code": "leader", "picks": int(x["picks"])})
    return True


# -- disorder ----------------------------------------------------------------------------------------

def _fires_check(ctx: Ctx, e: Empire) -> int:
    """Fires' card (L2007): drawn from the deck (refilled first if empty, L2107) and discarded."""
    refill(ctx, 1)
    s = ctx.state
    if not s.deck:
        return 0
    top = s.deck[0]
    ctx.state = replace(s, deck=s.deck[1:], discard=(*s.discard, top))
    value = load_deck().cards[top].value
    n = fires_areas(value, e)
    ctx.emit("fires_check", card=top, value=value, leaders=leaders_counted(e), areas=n, empire=e.card)
    return n


def _disorder_start(ctx: Ctx, go: Go, ev: dict[str, Any], e: Empire, n: int) -> bool:
    area = str(ev["area"])
    if area:  # an event played on an area disorders that area (Flood, Earthquake)
        if _land(area) and not ctx.state.area(area).disorder:
            disorder(ctx, e, area)
        return True
    if n <= 0:
        return True
    return _each_or_ask(ctx, go.seat, e, disorder_candidates(ctx.state, e), n, "disorder", disorder)


def _each_or_ask(ctx: Ctx, seat: PlayerId, e: Empire, options: list[str], n: int, code: str,
                 act: Callable[[Ctx, Empire, str], None]) -> bool:
    """Up to ``n`` of the target's ``options`` (areas): ``act`` on every one when there are no more than
    that (nothing to choose), else the player is asked ``code`` for them, one at a time."""
    if len(options) <= n:
        for a in options:
            act(ctx, e, a)
        return True
    return _ask(ctx, seat, {"code": code, "left": n})


def disorder(ctx: Ctx, e: Empire, area: str) -> None:
    """``area`` of the empire ``e`` falls into disorder by an event (announced)."""
    ctx.state = ctx.state.with_area(replace(ctx.state.area(area), disorder=True))
    ctx.emit("event_disorder", empire=e.card, area=area)


def calm_candidates(state: SevenState, e: Empire) -> list[str]:
    """The target's areas still in disorder (those a ``remove_disorder`` event may calm)."""
    return [a for a in e.areas() if state.area(a).disorder]


def _calm_start(ctx: Ctx, go: Go, ev: dict[str, Any], count: int) -> bool:
    """``remove_disorder`` after the area the card was played on is calmed (by the caller's own runner):
    up to ``count - 1`` more of the target's disordered areas, the player choosing one at a time; all of
    them without a question when there are no more than that. "Remove disorder from 2 areas" allows no
    fewer where more are disordered, so no "stop" is offered. Played on no area, it calms none."""
    e = _target(ctx.state, ev)
    left = count - 1
    if e is None or not ev["area"] or left <= 0:
        return True
    return _each_or_ask(ctx, go.seat, e, calm_candidates(ctx.state, e), left, "calm", calm)


def calm(ctx: Ctx, e: Empire, area: str) -> None:
    """The disorder of ``area`` of the empire ``e`` ends by an event (announced)."""
    ctx.state = ctx.state.with_area(replace(ctx.state.area(area), disorder=False))
    ctx.emit("event_calmed", empire=e.card, area=area)


# -- cities, dynasties ------------------------------------------------------------------------------

def _reduce(ctx: Ctx, e: Empire, area: str, amount: int) -> None:
    held = ctx.state.area(area)
    if not held.city:
        return
    owner = ctx.state.controller(area)
    if owner is not None and owner.has_leader("Builder", area):  # L2031: never reduced
        ctx.emit("event_city_spared", empire=owner.card, area=area)
        return
    value = lowered_city(held.city, amount)
    ctx.state = ctx.state.with_area(replace(held, city=value))
    if not value:
        for x in ctx.state.empires:
            if x.capital == area:
                ctx.state = ctx.state.with_empire(replace(x, capital=None))
    ctx.emit("event_city_reduced", empire=e.card, area=area, city=value)


def _dynasty_area(e: Empire) -> str:
    """Where a new dynasty's leaders stand: the capital, else the homeland if held, else the first area."""
    if e.capital and e.capital in e.areas():
        return e.capital
    if e.homeland and e.homeland in e.areas():
        return e.homeland
    return e.areas()[0]


def _new_dynasty(ctx: Ctx, e: Empire) -> None:
    """Every leader goes and as many draws from the cup as the Leader number replace them, in the capital; a
    'no leader' drawn goes back (L950). The old leaders return to the cup (named ones leave the game) after
    the draws: a new dynasty never brings back the old one (our reading)."""
    old = e.leaders
    ctx.emit("dynasty_ends", empire=e.card, leaders=len(old))
    area = _dynasty_area(e) if e.areas() else ""
    cup, new = list(ctx.state.cup), []
    for _ in range(leader_number(ctx.state, e) if area else 0):
        if not cup:
            break
        drawn = cup.pop(rng.below(ctx, len(cup)))
        if drawn == NO_LEADER:
            cup.append(drawn)
            ctx.emit("dynasty_leader", empire=e.card, leader=drawn, area="")
            continue
        new.append(Leader(drawn, (drawn,), area))
        ctx.emit("dynasty_leader", empire=e.card, leader=drawn, area=area)
    s = replace(ctx.state, cup=tuple(cup)).with_empire(replace(e, leaders=tuple(new)))
    for ld in old:
        s = retire_leader(s, ld)
    ctx.state = s


# -- units lost (the victim's choice) ----------------------------------------------------------------

def _units_open(state: SevenState, e: Empire, area: str) -> list[str]:
    return [f"unit:{st.area}|{st.unit}" for st in e.units if not area or st.area == area]


def _unit_cost(pick: str) -> tuple[tuple[int, int, str], str]:
    """The cheapest unit to lose, as the computer gives up units elsewhere (:func:`quick.cost_order`)."""
    return cost_order(pick.split("|", 1)[1]), pick


# -- the spy, the thief ----------------------------------------------------------------------------

def _steal_start(ctx: Ctx, go: Go, ev: dict[str, Any], count: int) -> bool:
    if ev.get("victim") is None:
        return True  # no hand was chosen (nobody held a card)
    if not ctx.state.people[int(ev["victim"])].hand:
        return True
    if ev.get("looked"):
        return _ask(ctx, go.seat, {"code": "steal", "left": count})
    for _ in range(count):  # without a look, at random
        hand = ctx.state.people[int(ev["victim"])].hand
        if not hand:
            break
        _take(ctx, go.seat, int(ev["victim"]), hand[rng.below(ctx, len(hand))])
    return True


def _take(ctx: Ctx, thief: PlayerId, victim: int, card: int) -> None:
    s = ctx.state
    v, t = s.people[victim], s.people[thief]
    hand = list(v.hand)
    hand.remove(card)
    s = s.with_player(replace(v, hand=tuple(hand)))
    ctx.state = s.with_player(replace(s.people[thief], hand=tuple(sorted((*t.hand, card)))))
    ctx.emit("card_taken", thief=thief, victim=victim)
    ctx.emit("card_stolen", (thief, victim), thief=thief, victim=victim, card=card)


# -- the player's choices --------------------------------------------------------------------------

def picks(state: SevenState, go: Go) -> list[str]:
    """What the event's player may pick now (``kind:detail`` keys)."""
    ev = event_of(go)
    ask = ev.get("ask") or {}
    code = ask.get("code")
    if code == "seat":
        named = _target(state, ev)
        if named is not None:  # played on a player named with the play, its Range asked first (L1226, L2233)
            return [f"seat:{named.owner}"] if state.people[named.owner].hand else []
        return [f"seat:{x}" for x in spy_seats(state, go.seat)]
    if code == "steal":
        return [f"card:{c}" for c in state.people[int(ev["victim"])].hand]
    if code == "discard":
        return [f"card:{c}" for c in state.people[go.seat].hand]
    if code == "place":
        e = _target(state, ev)
        return [f"area:{a}" for a in e.areas()] if e else []
    e = _target(state, ev)
    if e is None:
        return []
    if code == "disorder":
        return [f"area:{a}" for a in disorder_candidates(state, e)]
    if code == "calm":
        return [f"area:{a}" for a in calm_candidates(state, e)]
    if code == "add":
        unit = str(ask["unit"])
        return [f"area:{a}" for a in place_areas(state, e, unit)] if pool(e, unit) > 0 else []
    if code == "convert":
        return [f"area:{a}" for a in convert_candidates(state, e)]
    if code == "promote":
        return promote_options(state, e)
    if code == "artefact":
        return list(dict.fromkeys(f"artefact:{a}|{n}" for a, n in artefacts_of(state, e)))  # one of each
    if code == "leader":
        return sorted({_leader_key(ld) for ld in e.leaders})
    return []


def legal(state: SevenState, go: Go) -> list[Action]:
    return [EventPick(go.seat, p) for p in picks(state, go)]


def passive(state: SevenState, go: Go) -> Action:
    """A timed-out choice: the first on the list."""
    return legal(state, go)[0]


def pick(ctx: Ctx, go: Go, action: Action, simple: Simple) -> None:
    """The event's player answers the question under way (:data:`PICKS`)."""
    PICKS.of(action)(ctx, go, action, simple)


def _pick(ctx: Ctx, go: Go, action: EventPick, simple: Simple) -> None:
    ev = event_of(go)
    name = load_deck().cards[int(ev["card"])].event.name
    if action.pick not in picks(ctx.state, go):
        raise IllegalAction("bad_pick", f"That is not one of the choices {name} offers now.")
    ask = dict(ev["ask"])
    code = str(ask["code"])
    kind, _, detail = action.pick.partition(":")
    e = _target(ctx.state, ev)
    follow: dict[str, Any] | None = None
    if code == "seat":
        victim = int(detail)
        ev["victim"], ev["looked"] = victim, True
        ctx.emit("hand_looked", seat=go.seat, victim=victim)
        ctx.emit("hand_seen", (go.seat,), seat=go.seat, victim=victim,
                 cards=list(ctx.state.people[victim].hand))
    elif code == "steal":
        _take(ctx, go.seat, int(ev["victim"]), int(detail))
        follow = _less(ask)
    elif code == "discard":
        discard_from_hand(ctx, go.seat, (int(detail),))
        ctx.emit("card_discarded", seat=go.seat)
        follow = _less(ask)
    elif code == "disorder":
        assert e is not None
        disorder(ctx, e, detail)
        follow = _less(ask)
    elif code == "calm":
        assert e is not None
        calm(ctx, e, detail)
        follow = _less(ask)
    elif code == "convert":
        assert e is not None
        _convert(ctx, e, detail)
        follow = _less(ask)
    elif code == "add":
        assert e is not None
        _place(ctx, go, e, detail, str(ask["unit"]), 1)
        follow = _less(ask)
    elif code == "promote":
        assert e is not None
        follow = _promote(ctx, e, kind, detail)
    elif code == "place":
        assert e is not None
        leader = str(ask["leader"])
        ctx.state = ctx.state.with_empire(replace(e, leaders=(*e.leaders, Leader(leader, (leader,), detail))))
        ctx.emit("leader_promoted", seat=go.seat, empire=e.card, leader=leader, area=detail)
    elif code == "artefact":
        assert e is not None
        _burn(ctx, e, detail)
        follow = _less(ask)
    elif code == "leader":
        assert e is not None
        assassins.start(ctx, go, e, detail, int(ask["picks"]))
    go = ctx.state.go_of(go.seat) or go
    ev = {**event_of(go), **{k: v for k, v in ev.items() if k in ("victim", "looked")}}
    if follow is not None and not _choices_left(ctx.state, go, ev, follow):
        follow = None
    _set(ctx, go.seat, {**ev, "ask": follow})
    run(ctx, go.seat, simple)


PICKS: Answers[Callable[[Ctx, Go, Any, Simple], None]] = Answers(
    {EventPick: _pick}, "event_first", "Finish the event under way first: make its choice.")
"""The one move of an event's question under way: a pick among its choices."""


def _place(ctx: Ctx, go: Go, e: Empire, area: str, unit: str, count: int) -> None:
    """``count`` free units of an event placed in ``area`` (``add_units``)."""
    ctx.state = ctx.state.with_empire(ctx.state.empire(e.card).add_units(area, unit, count))
    ctx.emit("event_unit_placed", seat=go.seat, empire=e.card, area=area, unit=unit, count=count)


def _less(ask: Mapping[str, Any]) -> dict[str, Any] | None:
    left = int(ask["left"]) - 1
    return {**ask, "left": left} if left > 0 else None


def _choices_left(state: SevenState, go: Go, ev: dict[str, Any], ask: dict[str, Any]) -> bool:
    return bool(picks(state, replace(go, data={**go.data, "event": {**ev, "ask": ask}})))


def _convert(ctx: Ctx, e: Empire, area: str) -> None:
    """Convert_area (our reading): the other empire's units there go back to its pool, the disorder ends,
    and the empire places its best infantry unit there, taking the area (and its city)."""
    s = ctx.state
    for x in s.occupants(area):
        for st in [st for st in x.units if st.area == area]:
            x = x.add_units(area, st.unit, -st.count)
        s = s.with_empire(replace(x, capital=None) if x.capital == area else x)  # it names another (L1006)
    unit = _infantry(e)
    assert unit is not None
    s = s.with_empire(s.empire(e.card).add_units(area, unit, 1))
    ctx.state = s.with_area(replace(s.area(area), disorder=False))
    ctx.emit("area_converted", empire=e.card, area=area, unit=unit)


def _promote(ctx: Ctx, e: Empire, kind: str, detail: str) -> dict[str, Any] | None:
    """A free promotion: the named leader where chosen, or a draw from the cup to place next."""
    if kind == "named":
        name, area = detail.split("|", 1)
        row = next(x for x in named_leaders()[e.card] if x["name"] == name)
        leader = Leader(name, tuple(row["abilities"]), area, named=True)
        ctx.state = replace(ctx.state.with_empire(replace(e, leaders=(*e.leaders, leader))),
                            appeared=tuple(sorted({*ctx.state.appeared, name})))
        ctx.emit("leader_promoted", seat=e.owner, empire=e.card, leader=name, area=area)
        return None
    cup = list(ctx.state.cup)
    drawn = cup.pop(rng.below(ctx, len(cup)))
    ctx.emit("leader_drawn", seat=e.owner, empire=e.card, leader=drawn)
    if drawn == NO_LEADER:
        ctx.emit("leader_returned", seat=e.owner, empire=e.card, leader=drawn)
        return None
    ctx.state = replace(ctx.state, cup=tuple(cup))
    return {"code": "place", "leader": drawn}


def _burn(ctx: Ctx, e: Empire, detail: str) -> None:
    area, name = detail.split("|", 1)
    if area:
        held = ctx.state.area(area)
        arts = list(held.artefacts)
        arts.remove(name)
        ctx.state = ctx.state.with_area(replace(held, artefacts=tuple(arts)))
    else:
        arts = list(e.artefacts)
        arts.remove(name)
        ctx.state = ctx.state.with_empire(replace(e, artefacts=tuple(arts)))
    ctx.emit("artefact_lost", empire=e.card, artefact=name, area=area)


# -- pending decisions of other seats --------------------------------------------------------------

def pending_legal(state: SevenState, pending: Pending) -> list[Action]:
    if pending.kind == assassins.ASSASSIN:
        return assassins.legal(pending)
    assert pending.kind == LOSE
    return [*_victim_picks(state, pending)]


def _victim_picks(state: SevenState, pending: Pending) -> list[EventPick]:
    """A victim's choices: each of its units the event may remove."""
    target = int(pending.data["target"])
    if not state.has_empire(target):
        return []
    units = _units_open(state, state.empire(target), str(pending.data["area"]))
    return [EventPick(pending.seat, p) for p in units]


def pending_passive(state: SevenState, pending: Pending) -> Action:
    """A timed-out victim loses its cheapest unit; a timed-out draw is kept."""
    if pending.kind == assassins.ASSASSIN:
        return assassins.passive(pending)
    moves = pending_legal(state, pending)
    return min(moves, key=lambda a: _unit_cost(a.pick) if isinstance(a, EventPick) else (0, 0, ""))


def pending_apply(ctx: Ctx, go: Go, pending: Pending, action: Action, simple: Simple) -> None:
    """A victim's or an assassination side's move."""
    if pending.kind == assassins.ASSASSIN:
        assassins.move(ctx, go, pending, action)
    else:
        _lose(ctx, pending, action)
    run(ctx, go.seat, simple)


def _lose(ctx: Ctx, pending: Pending, action: Action) -> None:
    chosen = next((p for p in _victim_picks(ctx.state, pending) if p == action), None)
    if chosen is None:
        raise IllegalAction("bad_pick", "Choose one of your units the event removes.")
    area, unit = chosen.pick.split(":", 1)[1].split("|", 1)
    e = ctx.state.empire(int(pending.data["target"]))
    ctx.state = ctx.state.with_empire(e.add_units(area, unit, -1))
    ctx.emit("event_unit_lost", seat=pending.seat, empire=e.card, area=area, unit=unit)
    left = int(pending.data["left"]) - 1
    rest = tuple(p for p in ctx.state.pending if p is not pending)
    new = replace(pending, data={**pending.data, "left": left})
    if left > 0 and pending_legal(ctx.state, new):
        rest = (*rest, new)
    ctx.state = replace(ctx.state, pending=rest)


fog.open_event("event_unit_lost")  # a unit removed from the map is named (README, fog of war)


