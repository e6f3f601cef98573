"""Resolving conflict (L702-787) inside the active empire's go: rounds of secret commitments until one
side holds the area alone, or neither does.

After its movement and disorder removal, an empire resolves conflict in each area holding its units
and another empire's, in the order its player chooses (:class:`~engine.seven_ages.conflict_moves.FightIn`,
stage ``fight``). The defending empire is played by its owner; a player who owns both nominates another
player for it (stage ``nominate``, L702).

Each round (stage ``round``) both sides draw a card privately (a private event to each seat) and commit
at least one unit, secretly and at once: each side's choice is a :class:`~engine.seven_ages.state.Pending`
of kind ``commit`` (both seats act at once, in any order), a type and a count at a time. A finished
commitment waits face down in ``SevenState.sealed``, outside every view and every other seat's events,
until the other side's is in; then the reveal: one public event lists both cards, both commitments, both
sides' units in the area, and the totals (:mod:`engine.seven_ages.conflict`), and the losses follow
(L737-749). The conflict's public bookkeeping is in ``Go.data["fight"]``: the area, the defending empire
and its seat, the round, the conflict disorder markers, the units set aside, the losses.

Losses the rulebook leaves to their owner (option 6's pursuit, option 13's "their choice") are pendings
of kind ``losses`` (:mod:`engine.seven_ages.losses`), both sides' at once where both owe some, each
finished choice face down in ``SevenState.sealed`` until the other's is in; a retreat split between
areas (L765) is a pending of kind ``retreat_to``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from engine.core import Action, IllegalAction
from engine.seven_ages import losses, move_events, pursuit, quick, range_requests, retreat, window
from engine.seven_ages.answers import Answers
from engine.seven_ages.ballots import BALLOT
from engine.seven_ages.cards import Card, load_deck
from engine.seven_ages.cleanup import retire_leader
from engine.seven_ages.conflict import TACTICIAN, Entry, Tally, tally, unit_values
from engine.seven_ages.conflict_moves import (
    Board,
    Commit,
    CommitDone,
    CommitLeader,
    FightIn,
    Lose,
    Nominate,
    Raze,
    Redraw,
    Retreat,
    RetreatArea,
    RetreatLeader,
    RetreatSplit,
    RetreatUnits,
    StandFast,
)
from engine.seven_ages.data import load_tables
from engine.seven_ages.manoeuvre_moves import LAND, SHIPS
from engine.seven_ages.map import load_map
from engine.seven_ages.markers import GoHandler, end_go
from engine.seven_ages.movement import BUILDER, mode_of, others_in
from engine.seven_ages.production import CITY_STEPS, ELITE_MAX, add_money, age_of, barbarian
from engine.seven_ages.setup import refill
from engine.seven_ages.state import MANOEUVRE, Empire, Go, Pending, SevenState
from engine.seven_ages.steps import Ctx
from engine.seven_ages.text import unit_words
from engine.words import plural

FIGHT, NOMINATE, ROUND, RAZE = "fight", "nominate", "round", "raze"
"""The go's conflict stages: choosing the next area, nominating a defender, a round under way, a
Barbarian conqueror's choice to destroy the city it took."""
COMMIT = "commit"
"""The pending decision of each side in a round: its secret commitment."""
RETREAT = "retreat"
"""The pending decision of a side that may retreat before a round's cards (L761)."""
LOSSES = "losses"
"""The pending decision of a side owing losses of its choice (option 6's pursuit, option 13's round):
which units it gives up, a type at a time (:mod:`engine.seven_ages.losses`)."""
SCATTER = "retreat_to"
"""The pending decision of a side retreating to several areas: where each of its units and leaders goes
(L765), an area at a time (its ``to``: None until one is chosen)."""
SEND_CHOICES = 24
"""At most this many units and leaders offered in one decision of a split retreat, besides "another area"
(issue 26: small decisions): each type whole first, then the leaders, then one unit of a type, so every
type and leader stays sendable; once some are sent, the rest come into the list."""
PURSUIT, QUICK, WITHDRAW = "pursuit", "quick", "withdraw"
"""Why losses are owed (option 6's pursuit, option 13's round), and what follows once they are taken
(``Go.data["fight"]["after"]``: the retreat, or the rest of option 13's round)."""
ACTIVE, DEFENDER = 0, 1
"""The two sides, as indices of the lists in ``Go.data["fight"]``."""


def reduced_city(value: int) -> int:
    """A city one level down (7 -> 5 -> 3 -> 1 -> none): as a unit without a Builder enters a vacant area
    (L624), and as an area changes hands in conflict (L775)."""
    lower = [v for v in CITY_STEPS if v < value]
    return lower[-1] if lower else 0


# -- reading the go --------------------------------------------------------------------------------

def contested(state: SevenState, e: Empire) -> list[str]:
    """The areas holding the empire's units and another empire's (L702)."""
    if not state.has_empire(e.card):
        return []
    return [a for a in state.empire(e.card).areas() if others_in(state, e, a)]


def active(go: Go) -> int:
    """The card of the go's empire: a Start empire go keeps the card it plays in its data (its own
    ``empire`` is the additional marker's, L443-445); pendings keep ``go.empire``, which finds the go."""
    return int(go.data.get("card") or go.empire)


def fight_of(go: Go) -> dict[str, Any] | None:
    fight = go.data.get("fight")
    return dict(fight) if fight else None


def side_empire(state: SevenState, go: Go, fight: Mapping[str, Any], side: int) -> Empire:
    return state.empire(active(go) if side == ACTIVE else int(fight["defender"]))


def go_of_pending(state: SevenState, pending: Pending) -> Go:
    return next(g for g in state.goes if g.empire == pending.empire)


def uncommitted(state: SevenState, go: Go, fight: Mapping[str, Any], side: int,
                chosen: Mapping[str, int] | None = None) -> dict[str, int]:
    """The side's units in the area that are neither set aside (committed and survived) nor chosen."""
    e = side_empire(state, go, fight, side)
    area = str(fight["area"])
    aside = fight["aside"][side]
    out: dict[str, int] = {}
    for s in e.units:
        if s.area == area:
            n = s.count - int(aside.get(s.unit, 0)) - int((chosen or {}).get(s.unit, 0))
            if n > 0:
                out[s.unit] = n
    return out


def _entry(go: Go, area: str) -> Entry:
    """How the active side's units came into ``area`` this action (the defender's extra defence)."""
    rows = [r for r in go.data.get("arrivals", []) if r[0] == area]
    return Entry(invaded=any(bool(r[3]) for r in rows), river=any(bool(r[4]) for r in rows),
                 arrow=any(bool(r[5]) for r in rows))


def _set(ctx: Ctx, go: Go, stage: str | None = None, **data: Any) -> Go:
    new = replace(go, stage=go.stage if stage is None else stage, data={**go.data, **data})
    ctx.state = ctx.state.with_go(new)
    return new


# -- the go's stages ---------------------------------------------------------------------------------

AFTER_CONFLICTS: list[Callable[[Ctx, Go], bool]] = []
"""Rules that may take the go on once its conflicts are resolved (the Strategist's second move, L787):
each returns True when it did."""


def after_movement(ctx: Ctx, go: Go) -> None:
    """Movement and disorder removal are over: the conflicts, one area at a time; then the Strategist's
    second move if there is one (:data:`AFTER_CONFLICTS`), or the end of the go."""
    go = ctx.state.go_of(go.seat) or go
    e = ctx.state.empire(active(go)) if ctx.state.has_empire(active(go)) else None
    if e is not None and contested(ctx.state, e):
        _set(ctx, go, FIGHT, fight=None)
        return
    if e is not None and any(rule(ctx, go) for rule in AFTER_CONFLICTS):
        return
    end_go(ctx, go.seat)


def legal(state: SevenState, go: Go) -> list[Action]:
    """The active player's choices at the ``fight`` and ``nominate`` stages."""
    if go.stage == NOMINATE:
        return [Nominate(go.seat, s) for s in range(state.players) if s != go.seat]
    if go.stage == RAZE:
        return [Raze(go.seat, False), Raze(go.seat, True)]
    if go.stage == FIGHT:
        return [FightIn(go.seat, a) for a in contested(state, state.empire(active(go)))]
    return []


def passive(state: SevenState, go: Go) -> Action:
    choices = legal(state, go)
    assert choices, f"no conflict decision at stage {go.stage}"
    return choices[0]


def apply(ctx: Ctx, go: Go, action: Action) -> None:
    """A move of the active player at the ``fight``, ``nominate`` or ``raze`` stage, by the handler its stage
    files its class under (:data:`STAGE_MOVES`)."""
    if go.stage not in STAGE_MOVES:
        raise IllegalAction("round_under_way", "The conflict's round is under way: commit your units.")
    STAGE_MOVES[go.stage].of(action)(ctx, go, action)


def _fight_in(ctx: Ctx, go: Go, action: FightIn) -> None:
    if action.area not in contested(ctx.state, ctx.state.empire(active(go))):
        raise IllegalAction("no_conflict", f"There is no conflict to resolve in {action.area}.")
    _open(ctx, go, action.area)


def _nominate(ctx: Ctx, go: Go, action: Nominate) -> None:
    if action.seat == go.seat or not 0 <= action.seat < ctx.state.players:
        raise IllegalAction("bad_nominee", "Nominate another player at the table (L702).")
    fight = {**(fight_of(go) or {}), "dseat": action.seat}
    go = _set(ctx, go, ROUND, fight=fight)
    ctx.emit("defender_nominated", seat=action.seat, empire=int(fight["defender"]), area=fight["area"])
    _new_round(ctx, go)


def _raze(ctx: Ctx, go: Go, action: Raze) -> None:
    area = str(go.data["razing"])
    if action.destroy:
        ctx.state = ctx.state.with_area(replace(ctx.state.area(area), city=0))
        ctx.emit("city_destroyed", empire=active(go), area=area)
    after_movement(ctx, _set(ctx, go, FIGHT, razing=None))


STAGE_MOVES: Mapping[str, Answers[GoHandler]] = {
    FIGHT: Answers({FightIn: _fight_in}, "wrong_move", "Choose the area to resolve conflict in next."),
    NOMINATE: Answers({Nominate: _nominate}, "wrong_move",
                      "Nominate the player who defends your other empire."),
    RAZE: Answers({Raze: _raze}, "wrong_move", "Destroy the city you took, or keep it."),
}
"""The active player's conflict stages, each with its moves by class (``round`` takes none: both sides
answer their pending decisions)."""


def _open(ctx: Ctx, go: Go, area: str) -> None:
    e = ctx.state.empire(active(go))
    defender = others_in(ctx.state, e, area)[0]
    entry = _entry(go, area)
    fight = {"area": area, "defender": defender.card, "dseat": defender.owner, "round": 0,
             "marks": [0, 0], "aside": [{}, {}], "lost": [0, 0], "leaders_lost": [0, 0],
             "entry": [entry.invaded, entry.river, entry.arrow]}
    ctx.emit("conflict_begins", seat=go.seat, empire=e.card, defender=defender.card, area=area)
    if defender.owner == go.seat:
        _set(ctx, go, NOMINATE, fight=fight)
        return
    go = _set(ctx, go, ROUND, fight=fight)
    _new_round(ctx, go)


def _draw(ctx: Ctx) -> int:
    """A card from the deck for a conflict (the discards shuffled into a new deck if it ran out, L2107);
    0 when no card is left anywhere."""
    refill(ctx, 1)
    s = ctx.state
    if not s.deck:
        return 0
    ctx.state = replace(s, deck=s.deck[1:])
    return s.deck[0]


def _retreat_offers(state: SevenState, go: Go, fight: Mapping[str, Any]) -> list[int]:
    """The sides that may retreat before this round's cards (L761), the active side first, each only with
    somewhere to go (a side with no such area is not asked: its units would all be lost, L765)."""
    area = str(fight["area"])
    marks = [int(m) for m in fight["marks"]]
    out = []
    for side in (ACTIVE, DEFENDER):
        e = side_empire(state, go, fight, side)
        if retreat.eligible(e, area, marks[side], marks[1 - side]) and retreat.destinations(state, e, area):
            out.append(side)
    return out


def _new_round(ctx: Ctx, go: Go) -> None:
    """A new round: first the retreat offers (active side first, L761), then the cards."""
    fight = fight_of(go)
    assert fight is not None
    fight["round"] = int(fight["round"]) + 1
    fight["offers"] = _retreat_offers(ctx.state, go, fight)
    go = _set(ctx, go, ROUND, fight=fight)
    _next_offer(ctx, go)


def _next_offer(ctx: Ctx, go: Go) -> None:
    fight = fight_of(go)
    assert fight is not None
    offers = list(fight.get("offers") or [])
    if not offers:
        _cards(ctx, go)
        return
    side = offers[0]
    seat = go.seat if side == ACTIVE else int(fight["dseat"])
    ctx.state = replace(ctx.state, pending=(*ctx.state.pending, Pending(RETREAT, seat, go.empire,
                                                                          {"side": side})))


def retreat_legal(state: SevenState, pending: Pending) -> list[Action]:
    go = go_of_pending(state, pending)
    fight = fight_of(go)
    assert fight is not None
    e = side_empire(state, go, fight, int(pending.data["side"]))
    stay = [] if pending.data.get("forced") else [StandFast(pending.seat)]  # option 13: must retreat
    dests = retreat.destinations(state, e, str(fight["area"]))
    split = [RetreatSplit(pending.seat)] if len(dests) > 1 else []  # L765: "to different areas"
    return [*stay, *(Retreat(pending.seat, a) for a in dests), *split]


def retreat_move(ctx: Ctx, go: Go, action: Action) -> None:
    """A side stands fast, or retreats: then the conflict is over, the other side holding the area."""
    pending = next(p for p in ctx.state.pending if p.seat == action.player and p.kind == RETREAT)
    if action not in retreat_legal(ctx.state, pending):
        raise IllegalAction("no_retreat", "Retreat only to an adjacent area you control that holds no other "
                            "empire's units (L763), or stand fast.")
    ctx.state = replace(ctx.state, pending=tuple(p for p in ctx.state.pending if p is not pending))
    fight = fight_of(go)
    assert fight is not None
    side = int(pending.data["side"])
    fight["offers"] = [s for s in fight.get("offers") or [] if s != side]
    _RETREAT_ANSWERS[type(action)](ctx, go, pending, fight, action)


def _stand_fast(ctx: Ctx, go: Go, pending: Pending, fight: dict[str, Any], action: StandFast) -> None:
    _next_offer(ctx, _set(ctx, go, fight=fight))


def _retreat_to(ctx: Ctx, go: Go, pending: Pending, fight: dict[str, Any], action: Retreat) -> None:
    _withdrawing(ctx, go, pending, fight, action.to)


def _retreat_split(ctx: Ctx, go: Go, pending: Pending, fight: dict[str, Any], action: RetreatSplit) -> None:
    _withdrawing(ctx, go, pending, fight, None)  # the areas are chosen unit by unit (L765)


def _withdrawing(ctx: Ctx, go: Go, pending: Pending, fight: dict[str, Any], to: str | None) -> None:
    """A side retreats (to one area, or ``None``: several): its pursuit losses first (option 6)."""
    side = int(pending.data["side"])
    fight["after"] = {"then": WITHDRAW, "side": side, "to": to}
    go = _set(ctx, go, fight=fight)
    if ctx.state.options.get("pursuit") and not pending.data.get("forced"):  # option 6 (L1206-1212): the
        # pursuit losses are taken before the units withdraw; option 13's came with its round's losses
        _ask_losses(ctx, go, [(side, _pursuit_owed(ctx.state, go, fight, side))], PURSUIT)
        return
    _withdraw(ctx, go, side, to)


_RETREAT_ANSWERS: Mapping[type[Action], Callable[[Ctx, Go, Pending, dict[str, Any], Any], None]] = {
    StandFast: _stand_fast, Retreat: _retreat_to, RetreatSplit: _retreat_split}
"""A side's answers to a retreat offer, by class (:func:`retreat_move` has checked the move is one of
:func:`retreat_legal`'s)."""


def _pursuit_owed(state: SevenState, go: Go, fight: Mapping[str, Any], side: int) -> quick.Owed:
    """Option 6: the losses the other side's remaining cavalry and aircraft inflict on the retreating side
    (any of its units in the area), weighed by the pursuers' highest surviving level."""
    area = str(fight["area"])
    other = side_empire(state, go, fight, 1 - side)
    theirs = {s.unit: s.count for s in other.units if s.area == area}
    defender = side_empire(state, go, fight, DEFENDER)
    due = pursuit.losses_due(theirs, area, age_of(defender.progress))
    highest = max((load_tables().unit_types[u].available for u in theirs), default=0)
    mine = {s.unit: s.count for s in side_empire(state, go, fight, side).units if s.area == area}
    return quick.Owed(mine, due, highest)


def _withdraw(ctx: Ctx, go: Go, side: int, to: str | None) -> None:
    """The retreating side withdraws: all to ``to``; or, when it chose to split (``to`` None), to the one
    area left to go to at once, or a unit and a leader at a time when there are several (L765); with
    nowhere left to go its units are lost. Then the end of the conflict."""
    go = _now(ctx, go)
    fight = fight_of(go)
    assert fight is not None
    area = str(fight["area"])
    e = side_empire(ctx.state, go, fight, side)
    if to is None:
        dests = retreat.destinations(ctx.state, e, area)
        if len(dests) > 1:
            seat = go.seat if side == ACTIVE else int(fight["dseat"])
            ask = {"area": area, "empire": e.card, "dests": dests, "to": None}
            data = {"side": side, "dests": dests, "sent": [], "to": None, "ask": ask}
            asked = Pending(SCATTER, seat, go.empire, data)
            ctx.state = replace(ctx.state, pending=(*ctx.state.pending, asked))
            return
        if not dests:  # the pursuit took every unit that could go anywhere (L765)
            here = {s.unit: s.count for s in e.units if s.area == area}
            if here:
                _lose(ctx, go, fight, side, here, False)
            _end(ctx, _set(ctx, go, fight=fight), fight, _left(ctx.state, go, fight))
            return
        to = dests[0]
    e, lost = retreat.withdraw(e, area, to)
    ctx.state = ctx.state.with_empire(e)
    fight["lost"] = [int(x) + (sum(lost.values()) if i == side else 0) for i, x in enumerate(fight["lost"])]
    ctx.emit("conflict_retreat", empire=e.card, area=area, to=to,
             lost=[[u, n] for u, n in sorted(lost.items())])
    _end(ctx, _set(ctx, go, fight=fight), fight, _left(ctx.state, go, fight))


def _now(ctx: Ctx, go: Go) -> Go:
    return ctx.state.go_of(go.seat) or go


def _standing(state: SevenState, go: Go, fight: Mapping[str, Any], side: int) -> int:
    """The side's units left in the conflict's area: none once its empire is gone (discarded the moment
    its last unit was lost, L1012)."""
    card = active(go) if side == ACTIVE else int(fight["defender"])
    return state.empire(card).count(str(fight["area"])) if state.has_empire(card) else 0


def _left(state: SevenState, go: Go, fight: Mapping[str, Any]) -> list[int]:
    return [_standing(state, go, fight, s) for s in (ACTIVE, DEFENDER)]


# -- losses of the owner's choice, and retreats to several areas ----------------------------------------

def _seat_of(go: Go, fight: Mapping[str, Any], side: int) -> int:
    return go.seat if side == ACTIVE else int(fight["dseat"])


def _ask_data(e: Empire, area: str, pool: Mapping[str, int], left: int, highest: int | None, why: str,
              more: bool) -> dict[str, Any]:
    """What the asked seat's own view shows of its losses decision (``view.pending``): the area, the losses
    still owed, and what each unit that counts more than one satisfies."""
    weights = {u: w for u in sorted(pool) if (w := losses.weight_of(u, highest)) > 1}
    return {"area": area, "empire": e.card, "left": left, "weights": weights, "why": why, "more": more}


def _ask_losses(ctx: Ctx, go: Go, owed: list[tuple[int, quick.Owed]], why: str) -> None:
    """Each side owing losses of its choice is asked which units (both at once, answered in any order);
    a side with nothing to choose (one type of unit, or every unit must go) loses them at once. Once every
    side has chosen, the losses are taken and the conflict goes on (:func:`_losses_done`)."""
    for side, o in owed:
        go = _now(ctx, go)
        fight = fight_of(go)
        assert fight is not None
        found = losses.forced(o.pool, o.count, o.highest)
        if found is not None:
            if found[0]:
                _take(ctx, go, side, found[0], why, found[1], o.count)
            continue
        e = side_empire(ctx.state, go, fight, side)
        data = {"side": side, "why": why, "pool": dict(o.pool), "left": o.count, "due": o.count,
                "highest": o.highest, "chosen": {},
                "ask": _ask_data(e, str(fight["area"]), o.pool, o.count, o.highest, why, False)}
        ctx.state = replace(ctx.state, pending=(*ctx.state.pending, Pending(
            LOSSES, _seat_of(go, fight, side), go.empire, data)))
    if not any(p.kind == LOSSES and p.empire == go.empire for p in ctx.state.pending):
        _losses_done(ctx, go)


def _take(ctx: Ctx, go: Go, side: int, units: Mapping[str, int], why: str, how: str, due: int) -> None:
    go = _now(ctx, go)
    fight = fight_of(go)
    assert fight is not None
    if why == PURSUIT:
        _lose(ctx, go, fight, side, units, False, how=how, event="pursuit_losses", due=due)
    else:
        _lose(ctx, go, fight, side, units, False, how=how)
    _set(ctx, go, fight=fight)


def losses_legal(state: SevenState, pending: Pending) -> list[Action]:
    """A side's choices of units to give up: each type it may lose by one, and by as many as are owed."""
    d = pending.data
    return [Lose(pending.seat, u, n) for u, n in losses.choices(d["pool"], int(d["left"]), d["highest"])]


def lose_move(ctx: Ctx, go: Go, action: Action) -> None:
    """A side gives up units towards the losses it owes. Its choice stays face down (``SevenState.sealed``)
    until every side owing losses has chosen; the rest is taken without asking once nothing is left to
    choose."""
    pending = next(p for p in ctx.state.pending if p.seat == action.player and p.kind == LOSSES)
    _LOSS_ANSWERS.of(action)(ctx, go, pending, action)


def _give_up(ctx: Ctx, go: Go, pending: Pending, action: Lose) -> None:
    d = pending.data
    pool, left, highest = {u: int(n) for u, n in d["pool"].items()}, int(d["left"]), d["highest"]
    refused = losses.refusal(pool, left, highest, action.unit, action.count)
    if refused:
        raise IllegalAction("bad_loss", refused)
    pool, left = losses.give_up(pool, left, highest, action.unit, action.count)
    chosen = {u: int(n) for u, n in d["chosen"].items()}
    chosen[action.unit] = chosen.get(action.unit, 0) + action.count
    found = losses.forced(pool, left, highest)
    if found is None:
        go = _now(ctx, go)
        fight = fight_of(go)
        assert fight is not None
        e = side_empire(ctx.state, go, fight, int(d["side"]))
        ask = _ask_data(e, str(fight["area"]), pool, left, highest, str(d["why"]), True)
        _replace_pending(ctx, pending, {**d, "pool": pool, "left": left, "chosen": chosen, "ask": ask})
        return
    for u, n in found[0].items():
        chosen[u] = chosen.get(u, 0) + n
    ctx.state = replace(ctx.state, pending=tuple(p for p in ctx.state.pending if p is not pending),
                        sealed=(*ctx.state.sealed, replace(pending, data={**d, "chosen": chosen})))
    ctx.emit("losses_chosen", seat=action.player, area=d["ask"]["area"], empire=d["ask"]["empire"])
    if not any(p.kind == LOSSES and p.empire == go.empire for p in ctx.state.pending):
        _losses_done(ctx, go)


_LOSS_ANSWERS: Answers[Callable[[Ctx, Go, Pending, Any], None]] = Answers(
    {Lose: _give_up}, "wrong_move", "Choose the units you lose.")
"""A side's answers to the losses it owes, by class."""


def _losses_done(ctx: Ctx, go: Go) -> None:
    """Every side owing losses has chosen: the choices are taken, in side order, then the conflict goes on
    (the retreat that was pursued, or the rest of option 13's round)."""
    mine = sorted((p for p in ctx.state.sealed if p.kind == LOSSES and p.empire == go.empire),
                  key=lambda p: int(p.data["side"]))
    ctx.state = replace(ctx.state, sealed=tuple(p for p in ctx.state.sealed if p not in mine))
    for p in mine:
        d = p.data
        _take(ctx, go, int(d["side"]), d["chosen"], str(d["why"]), "chosen", int(d["due"]))
    go = _now(ctx, go)
    fight = fight_of(go)
    assert fight is not None
    after = dict(fight.get("after") or {})
    go = _set(ctx, go, fight={**fight, "after": None})
    if after.get("then") == WITHDRAW:
        _withdraw(ctx, go, int(after["side"]), after.get("to"))
    else:
        _quick_after(ctx, go, after.get("going"))


def scatter_legal(state: SevenState, pending: Pending) -> list[Action]:
    """A split retreat's next choice: the area the next units go to, among those something left may still
    go to (L763); once one is chosen, the units (a type, whole or one) that could enter it and the leaders,
    at most :data:`SEND_CHOICES` of them, and "another area" while there is one."""
    go = go_of_pending(state, pending)
    fight = fight_of(go)
    assert fight is not None
    area, dests = str(fight["area"]), [str(a) for a in pending.data["dests"]]
    e = side_empire(state, go, fight, int(pending.data["side"]))
    open_to = retreat.open_to(e, area, dests)
    to = pending.data.get("to")
    if not to:
        return [RetreatArea(pending.seat, a) for a in open_to]
    whole: list[Action] = []
    ones: list[Action] = []
    for s in (s for s in e.units if s.area == area and retreat.enters(s.unit, str(to))):
        whole.append(RetreatUnits(pending.seat, s.unit, s.count, str(to)))
        if s.count > 1:
            ones.append(RetreatUnits(pending.seat, s.unit, 1, str(to)))
    leaders = [RetreatLeader(pending.seat, name, str(to)) for name in dict.fromkeys(ld.name for ld in
                                                                                      e.leaders_in(area))]
    other = [RetreatArea(pending.seat, "")] if len(open_to) > 1 else []
    return [*[*whole, *leaders, *ones][:SEND_CHOICES], *other]


@dataclass(frozen=True)
class _Scatter:
    """A split retreat as its side's next move finds it: its pending, the side's empire, the area it
    leaves, the areas it may go to and the one its next units go to (None: to be chosen)."""

    go: Go
    pending: Pending
    fight: dict[str, Any]
    e: Empire
    area: str
    dests: list[str]
    to: str | None


def scatter_move(ctx: Ctx, go: Go, action: Action) -> None:
    """A retreating side chooses the area its next units go to, or sends units or a leader there; once
    nothing left could go anywhere, what is left is lost (L765) and the conflict ends."""
    pending = next(p for p in ctx.state.pending if p.seat == action.player and p.kind == SCATTER)
    go = _now(ctx, go)
    fight = fight_of(go)
    assert fight is not None
    side, area, dests = int(pending.data["side"]), str(fight["area"]), [str(a) for a in pending.data["dests"]]
    e = side_empire(ctx.state, go, fight, side)
    at = _Scatter(go, pending, fight, e, area, dests, pending.data.get("to"))
    _SCATTER_MOVES.of(action)(ctx, at, action)


def _refused(refusal: str | None) -> None:
    if refusal:
        raise IllegalAction("bad_retreat", refusal)


def _scatter_area(ctx: Ctx, at: _Scatter, action: RetreatArea) -> None:
    """The area the next units go to; "" for another area than the one chosen."""
    e, area, dests = at.e, at.area, at.dests
    if not action.to:
        _refused(None if at.to and len(retreat.open_to(e, area, dests)) > 1 else
                 "There is no other area to send your retreating units to.")
    elif action.to not in dests:
        _refused(f"{action.to} is not an area you may retreat to from {area} (L763).")
    elif action.to not in retreat.open_to(e, area, dests):
        _refused(f"None of your units left in {area} could enter {action.to} by itself (L763).")
    _scatter_to(ctx, at.pending, action.to or None)


def _sending_refusal(at: _Scatter, to: str) -> str | None:
    """Why units or a leader may not be sent to ``to`` now (None: they may)."""
    if to not in at.dests:
        return f"{to} is not an area you may retreat to from {at.area} (L763)."
    if not at.to:
        return "Choose the area you send units to first."
    if to != at.to:
        return f"You are sending units to {at.to}: choose another area first."
    return None


def _scatter_units(ctx: Ctx, at: _Scatter, action: RetreatUnits) -> None:
    held = at.e.count(at.area, action.unit)
    if held < 1:
        _refused(f"You have no {action.unit} left in {at.area} to retreat.")
    if not 1 <= action.count <= held:
        _refused(f"You have only {unit_words(held, action.unit)} left in {at.area} to retreat.")
    _refused(_sending_refusal(at, action.to))
    if not retreat.enters(action.unit, action.to):
        _refused(f"A {action.unit} could not enter {action.to} by itself (L763).")
    e = retreat.send(at.e, at.area, action.unit, action.count, action.to)
    ctx.emit("retreat_sent", empire=e.card, area=at.area, to=action.to, units=[[action.unit, action.count]])
    _sent(ctx, at, e, action.to)


def _scatter_leader(ctx: Ctx, at: _Scatter, action: RetreatLeader) -> None:
    if not any(ld.name == action.name for ld in at.e.leaders_in(at.area)):
        _refused(f"You have no leader {action.name} left in {at.area} to retreat.")
    _refused(_sending_refusal(at, action.to))
    e = retreat.send_leader(at.e, at.area, action.name, action.to)
    ctx.emit("retreat_sent", empire=e.card, area=at.area, to=action.to, leader=action.name)
    _sent(ctx, at, e, action.to)


def _sent(ctx: Ctx, at: _Scatter, e: Empire, to: str) -> None:
    """Units or a leader have gone to ``to``: the next choice, or, once nothing left could go anywhere, the
    units left lost (L765) and the conflict's end."""
    go, pending, fight, area, dests = at.go, at.pending, at.fight, at.area, at.dests
    ctx.state = ctx.state.with_empire(e)
    sent = sorted({*pending.data["sent"], to})
    open_to = retreat.open_to(e, area, dests)
    if open_to:  # the same area while something left may go there; the only one left; or a new choice
        _scatter_to(ctx, pending, at.to if at.to in open_to else open_to[0] if len(open_to) == 1 else None,
                    sent=sent)
        return
    ctx.state = replace(ctx.state, pending=tuple(p for p in ctx.state.pending if p is not pending))
    lost = retreat.stranded(e, area, dests)
    for u, n in lost.items():
        e = e.add_units(area, u, -n)
    ctx.state = ctx.state.with_empire(e)
    side = int(pending.data["side"])
    fight["lost"] = [int(x) + (sum(lost.values()) if i == side else 0) for i, x in enumerate(fight["lost"])]
    ctx.emit("conflict_retreat", empire=e.card, area=area, to="", areas=sent,
             lost=[[u, n] for u, n in sorted(lost.items())])
    _end(ctx, _set(ctx, go, fight=fight), fight, _left(ctx.state, go, fight))


_SCATTER_MOVES: Answers[Callable[[Ctx, _Scatter, Any], None]] = Answers(
    {RetreatArea: _scatter_area, RetreatUnits: _scatter_units, RetreatLeader: _scatter_leader},
    "bad_retreat", "Send your retreating units and leaders to the areas you retreat to.")
"""A split retreat's moves, by class: the area the next units go to, and what goes there."""


def _scatter_to(ctx: Ctx, pending: Pending, to: str | None, **data: Any) -> None:
    """The split retreat's pending with the area its next units go to (None: to be chosen)."""
    d = pending.data
    _replace_pending(ctx, pending, {**d, **data, "to": to, "ask": {**d["ask"], "to": to}})


def _cards(ctx: Ctx, go: Go) -> None:
    """Both sides pick a card, privately, and are asked for their commitments (L704-706)."""
    fight = fight_of(go)
    assert fight is not None
    seats = (go.seat, int(fight["dseat"]))
    ctx.emit("conflict_round", area=fight["area"], round=fight["round"], empire=active(go),
             defender=fight["defender"])
    pendings = []
    for side, seat in enumerate(seats):
        card = _draw(ctx)
        if card:  # face down in front of its seat until the reveal
            ctx.state = replace(ctx.state, aside=(*ctx.state.aside, (seat, card)))
        pendings.append(Pending(COMMIT, seat, go.empire, {"side": side, "card": card, "units": {},
                                                           "leader": False, "redrawn": False}))
        value = load_deck().cards[card].value if card else 0
        ctx.emit("conflict_card", (seat,), seat=seat, card=card, value=value, area=fight["area"])
    ctx.state = replace(ctx.state, pending=(*ctx.state.pending, *pendings))


# -- the secret commitments ------------------------------------------------------------------------------

def _marines_wait(area: str, free: Mapping[str, int]) -> bool:
    """In a sea area, land units aboard (option 14) wait for their ships: they are committed with them,
    and only then, while the side has uncommitted ships (L1354)."""
    return not load_map().areas[area].land and any(mode_of(u) == SHIPS for u in free)


def marines_free(state: SevenState, go: Go, fight: Mapping[str, Any], side: int,
                 chosen: Mapping[str, int]) -> dict[str, int]:
    """The side's land units in the (sea) area not committed yet: infantry and missiles aboard (L1352)."""
    return {u: n for u, n in uncommitted(state, go, fight, side, chosen).items() if mode_of(u) == LAND}


def strongest_marines(state: SevenState, go: Go, fight: Mapping[str, Any], side: int,
                      chosen: Mapping[str, int]) -> list[str]:
    """The uncommitted marine types, the strongest (front plus support) first: the computer's choice of
    which go with the side's ships."""
    e = side_empire(state, go, fight, side)
    area = str(fight["area"])
    free = marines_free(state, go, fight, side, chosen)
    return sorted(free, key=lambda u: (-sum(unit_values(e, u, area, age_of(e.progress))), u))


def boarding(pending: Pending) -> int:
    """How many more marines the side's committed ships wait for (0: none; absent before version 5)."""
    return int(pending.data.get("boarding", 0))


def commit_legal(state: SevenState, pending: Pending) -> list[Action]:
    """A side's commitment choices: one or all of an uncommitted type, the Tactician, or done; while
    committed ships wait for their marines, only which marines board them."""
    go = go_of_pending(state, pending)
    fight = fight_of(go)
    assert fight is not None
    side, seat = int(pending.data["side"]), pending.seat
    chosen = pending.data["units"]
    out: list[Action] = []
    seats = boarding(pending)
    if seats:  # L1354: which marines go with the ships just committed, one a ship
        for unit, n in sorted(marines_free(state, go, fight, side, chosen).items()):
            out.append(Board(seat, unit, 1))
            if min(n, seats) > 1:
                out.append(Board(seat, unit, min(n, seats)))
        return out
    free = uncommitted(state, go, fight, side, chosen)
    marines = _marines_wait(str(fight["area"]), free)
    for unit, n in sorted(free.items()):
        if marines and mode_of(unit) == LAND:
            continue  # marines are committed with their ships, and only then (L1354)
        out.append(Commit(seat, unit, 1))
        if n > 1:
            out.append(Commit(seat, unit, n))
    e = side_empire(state, go, fight, side)
    if not pending.data["leader"] and e.has_leader(TACTICIAN, str(fight["area"])):
        out.append(CommitLeader(seat))
    if not chosen and not pending.data.get("redrawn") and e.has_leader(TACTICIAN, str(fight["area"])):
        out.append(Redraw(seat))
    if chosen:
        out.append(CommitDone(seat))
    return out


@dataclass(frozen=True)
class _Side:
    """A side's commitment as its next move finds it: its pending, the conflict, the side, the units chosen so
    far (a copy, to add to), the area and how many marines its committed ships still wait for."""

    go: Go
    pending: Pending
    fight: dict[str, Any]
    side: int
    chosen: dict[str, int]
    area: str
    seats: int


def commit(ctx: Ctx, go: Go, action: Action) -> None:
    """A side's commitment move (either seat, in any order), by the handler its class is filed under: while
    committed ships wait for their marines, only :class:`Board` (:data:`_BOARDING`)."""
    pending = next(p for p in ctx.state.pending if p.seat == action.player and p.kind == COMMIT)
    fight = fight_of(go)
    assert fight is not None
    chosen = {u: int(n) for u, n in pending.data["units"].items()}
    at = _Side(go, pending, fight, int(pending.data["side"]), chosen, str(fight["area"]), boarding(pending))
    move = (_BOARDING if at.seats else _COMMITTING).get(type(action))
    if move is None and at.seats:
        raise IllegalAction("marines_first", f"First choose the {plural(at.seats, 'unit')} aboard that go "
                            "with the ships you committed (L1354).")
    if move is None:
        raise IllegalAction("wrong_move", "Commit your units to this round of the conflict.")
    move(ctx, at, action)


def _board_move(ctx: Ctx, at: _Side, action: Board) -> None:
    go, fight, side, chosen, area, seats = at.go, at.fight, at.side, at.chosen, at.area, at.seats
    free = marines_free(ctx.state, go, fight, side, chosen).get(action.unit, 0)
    if not seats:
        raise IllegalAction("no_boarding", "No ship you committed waits for a unit aboard now (L1354).")
    if action.count < 1 or action.count > free:
        raise IllegalAction("not_uncommitted", f"You have no {unit_words(action.count, action.unit)} "
                            f"aboard ships in {area} left to commit.")
    if action.count > seats:
        raise IllegalAction("one_a_ship", f"The ships you committed take {plural(seats, 'more unit')}, "
                            "one a ship (L630).")
    chosen[action.unit] = chosen.get(action.unit, 0) + action.count
    left = _board(ctx.state, go, fight, side, chosen, seats - action.count)
    _replace_pending(ctx, at.pending, {**at.pending.data, "units": chosen, "boarding": left})
    _so_far(ctx, action.player, area, chosen, bool(at.pending.data["leader"]))


def _commit_move(ctx: Ctx, at: _Side, action: Commit) -> None:
    go, fight, side, chosen, area = at.go, at.fight, at.side, at.chosen, at.area
    free = uncommitted(ctx.state, go, fight, side, chosen).get(action.unit, 0)
    if action.count < 1 or action.count > free:
        what = unit_words(action.count, action.unit)
        raise IllegalAction("not_uncommitted", f"You have no {what} left to commit in {area}.")
    waiting = _marines_wait(area, uncommitted(ctx.state, go, fight, side, chosen))
    if mode_of(action.unit) == LAND and waiting:
        raise IllegalAction("marines_with_ships", "Units aboard ships are committed with their ships "
                            "(L1354).")
    chosen[action.unit] = chosen.get(action.unit, 0) + action.count
    seats = 0
    if not load_map().areas[area].land and mode_of(action.unit) == SHIPS:
        seats = _board(ctx.state, go, fight, side, chosen, action.count)
    _replace_pending(ctx, at.pending, {**at.pending.data, "units": chosen, "boarding": seats})
    _so_far(ctx, action.player, area, chosen, bool(at.pending.data["leader"]))


def _commit_leader(ctx: Ctx, at: _Side, action: CommitLeader) -> None:
    if at.pending.data["leader"] or \
            not side_empire(ctx.state, at.go, at.fight, at.side).has_leader(TACTICIAN, at.area):
        raise IllegalAction("no_tactician", f"You have no Tactician to commit in {at.area}.")
    _replace_pending(ctx, at.pending, {**at.pending.data, "leader": True})
    _so_far(ctx, action.player, at.area, at.chosen, True)


def _redraw(ctx: Ctx, at: _Side, action: Redraw) -> None:
    area = at.area
    if at.chosen or at.pending.data.get("redrawn") or \
            not side_empire(ctx.state, at.go, at.fight, at.side).has_leader(TACTICIAN, area):
        raise IllegalAction("no_redraw", "Only a side with a Tactician in the area may pick a second "
                            "card, once, before committing (L704).")
    old = int(at.pending.data["card"])
    ctx.state = replace(ctx.state, aside=tuple(x for x in ctx.state.aside if x[1] != old),
                        discard=(*ctx.state.discard, *([old] if old else [])))
    card = _draw(ctx)
    if card:
        ctx.state = replace(ctx.state, aside=(*ctx.state.aside, (action.player, card)))
    pending = next(p for p in ctx.state.pending if p.seat == action.player and p.kind == COMMIT)
    _replace_pending(ctx, pending, {**pending.data, "card": card, "redrawn": True})
    ctx.emit("conflict_redraw", seat=action.player, area=area)
    value = load_deck().cards[card].value if card else 0
    ctx.emit("conflict_card", (action.player,), seat=action.player, card=card, value=value, area=area)


def _commit_done(ctx: Ctx, at: _Side, action: CommitDone) -> None:
    go, pending = at.go, at.pending
    if not at.chosen:
        raise IllegalAction("commit_one", "Commit at least one unit (L706).")
    ctx.state = replace(ctx.state, pending=tuple(p for p in ctx.state.pending if p is not pending),
                        sealed=(*ctx.state.sealed, pending))
    ctx.emit("conflict_committed", seat=action.player,
             empire=side_empire(ctx.state, go, at.fight, at.side).card, area=at.area)
    if not any(p.kind == COMMIT and p.empire == go.empire for p in ctx.state.pending):
        _reveal(ctx, ctx.state.go_of(go.seat) or go)


_SideMove = Callable[[Ctx, _Side, Any], None]
_COMMITTING: Mapping[type[Action], _SideMove] = {
    Board: _board_move, Commit: _commit_move, CommitLeader: _commit_leader, Redraw: _redraw,
    CommitDone: _commit_done}
"""A side's commitment moves, by class (a :class:`Board` with no ship waiting is refused by its rules)."""
_BOARDING: Mapping[type[Action], _SideMove] = {Board: _board_move}
"""The only move while committed ships wait for their marines: which of them board (L1354)."""


def _board(state: SevenState, go: Go, fight: Mapping[str, Any], side: int, chosen: dict[str, int],
           ships: int) -> int:
    """Option 14: ``ships`` committed at sea commit as many of the infantry and missiles aboard, one a
    ship (L1354). Which ones is the owner's choice: when only one outcome is possible (one type aboard, or
    every unit aboard goes) it is made here, in ``chosen``; otherwise the number still to choose is
    returned (0: none), for the owner's :class:`Board` moves."""
    aboard = marines_free(state, go, fight, side, chosen)
    seats = min(ships, sum(aboard.values()))
    if len(aboard) > 1 and seats < sum(aboard.values()):
        return seats
    for unit in strongest_marines(state, go, fight, side, chosen):
        take = min(seats, aboard[unit])
        if take:
            chosen[unit] = chosen.get(unit, 0) + take
            seats -= take
    return 0


def _so_far(ctx: Ctx, seat: int, area: str, chosen: Mapping[str, int], leader: bool) -> None:
    """The seat's commitment so far, to that seat alone (its view shows no pending decision's data)."""
    ctx.emit("conflict_committing", (seat,), seat=seat, area=area, leader=leader,
             units=[[u, n] for u, n in sorted(chosen.items())])


def _replace_pending(ctx: Ctx, old: Pending, data: dict[str, Any]) -> None:
    new = replace(old, data=data)
    ctx.state = replace(ctx.state, pending=tuple(new if p is old else p for p in ctx.state.pending))


# -- the reveal and its outcome ------------------------------------------------------------------------

def tallies(state: SevenState, go: Go, fight: Mapping[str, Any]) -> tuple[Tally, Tally]:
    area = str(fight["area"])
    a, d = side_empire(state, go, fight, ACTIVE), side_empire(state, go, fight, DEFENDER)
    revealed = fight["revealed"]
    units = [{u: int(n) for u, n in r["units"].items()} for r in revealed]
    values = [load_deck().cards[int(r["card"])].value if r["card"] else 0 for r in revealed]
    entry = Entry(*(bool(x) for x in fight["entry"]))
    marks, bonus = fight["marks"], fight.get("bonus") or [0, 0]
    ignore_fort = bool(fight.get("ignore_fort"))
    ta = tally(state, a, d, area, card_value=values[ACTIVE], mine=units[ACTIVE], theirs=units[DEFENDER],
               their_marks=int(marks[DEFENDER]), defending=False, active_units=units[ACTIVE], entry=entry,
               bonus=int(bonus[ACTIVE]))
    td = tally(state, d, a, area, card_value=values[DEFENDER], mine=units[DEFENDER], theirs=units[ACTIVE],
               their_marks=int(marks[ACTIVE]), defending=True, active_units=units[ACTIVE], entry=entry,
               ignore_fort=ignore_fort, bonus=int(bonus[DEFENDER]))
    return ta, td


def _reveal(ctx: Ctx, go: Go) -> None:
    """Both commitments are in: turn the cards over and show both sides' commitments and units in the
    area to everyone (L708, L791), then open the event window (L708, :mod:`engine.seven_ages.window`). A
    conflict bonus the go holds from an event played as it began (Conquistadors) counts for the active side
    in this round, the first its empire fights after the play (:func:`move_events.take_held`)."""
    fight = fight_of(go)
    assert fight is not None
    area = str(fight["area"])
    sealed = sorted((p for p in ctx.state.sealed if p.empire == go.empire and p.kind == COMMIT),
                    key=lambda p: int(p.data["side"]))
    drawn = [int(p.data["card"]) for p in sealed if p.data["card"]]  # L739: the cards picked are discarded
    ctx.state = replace(ctx.state, sealed=tuple(p for p in ctx.state.sealed if p not in sealed),
                        aside=tuple(x for x in ctx.state.aside if x[1] not in drawn),
                        discard=(*ctx.state.discard, *drawn))
    fight["revealed"] = [{"seat": p.seat, "card": int(p.data["card"]), "leader": bool(p.data["leader"]),
                          "units": {u: int(n) for u, n in p.data["units"].items()}} for p in sealed]
    held, go = move_events.take_held(go)  # a bonus played as the go began (Conquistadors)
    fight["bonus"] = [held, 0]
    sides = []
    for i, r in enumerate(fight["revealed"]):
        e = side_empire(ctx.state, go, fight, i)
        sides.append({"seat": r["seat"], "empire": e.card, "card": r["card"], "tactician": r["leader"],
                      "units": [[u, n] for u, n in sorted(r["units"].items())],
                      "forces": [[s.unit, s.count] for s in e.units if s.area == area]})
    ctx.emit("conflict_revealed", area=area, round=fight["round"], sides=sides)
    if held:
        ctx.emit("held_bonus_counts", empire=active(go), amount=held)
    go = _set(ctx, go, fight=fight)
    window.open_window(ctx, go, "conflict", (go.seat, int(fight["dseat"])))


def _play(ctx: Ctx, go: Go, card: Card, side: int) -> None:
    """An event played in a conflict's window (L708): ``conflict_bonus`` adds to the side's total this
    round, ``ignore_fort`` takes the defender's fort out of this conflict, ``elite_marker`` gives the side's
    empire elite markers (up to 3)."""
    fight = fight_of(go)
    assert fight is not None
    for effect in card.event.effects:
        if effect["code"] == "conflict_bonus":
            fight["bonus"] = [int(b) + (int(effect["amount"]) if i == side else 0)
                              for i, b in enumerate(fight["bonus"])]
        elif effect["code"] == "ignore_fort":
            fight["ignore_fort"] = True
        elif effect["code"] == "elite_marker":
            e = side_empire(ctx.state, go, fight, side)
            elite = min(ELITE_MAX, e.elite + int(effect["count"]))
            ctx.state = ctx.state.with_empire(replace(e, elite=elite))
    _set(ctx, go, fight=fight)


def window_move(ctx: Ctx, go: Go, action: Action) -> None:
    """A move in the conflict's event window; once every seat asked has passed in turn, the totals."""
    if window.apply(ctx, go, action):
        _tally_round(ctx, ctx.state.go_of(go.seat) or go)


def _tally_round(ctx: Ctx, go: Go) -> None:
    """The totals (L710-725), the losses (L737-749), then the next round or the end of the conflict."""
    fight = fight_of(go)
    assert fight is not None
    area = str(fight["area"])
    revealed = fight["revealed"]
    both = tallies(ctx.state, go, fight)
    sides = []
    for side, (r, t) in enumerate(zip(revealed, both, strict=True)):
        e = side_empire(ctx.state, go, fight, side)
        sides.append({"seat": r["seat"], "empire": e.card, "card": r["card"],
                      "units": [[u, n] for u, n in sorted(r["units"].items())],
                      "tactician": r["leader"], "total": t.total, "parts": t.parts(),
                      "forces": [[s.unit, s.count] for s in e.units if s.area == area]})
    totals = [t.total for t in both]
    if totals[ACTIVE] == totals[DEFENDER]:  # a tie: both lose, but a committed Tactician saves its side
        losers = [s for s in (ACTIVE, DEFENDER) if not revealed[s]["leader"]]
    else:
        losers = [ACTIVE if totals[ACTIVE] < totals[DEFENDER] else DEFENDER]
    ctx.emit("conflict_tallied", area=area, round=fight["round"], sides=sides,
             losers=[sides[s]["empire"] for s in losers])
    if ctx.state.options.get("quick_conflict"):  # option 13: this round decides it (L1334-1348)
        _quick(ctx, go, fight, (totals[ACTIVE], totals[DEFENDER]))
        return
    for side in (ACTIVE, DEFENDER):
        chosen = dict(revealed[side]["units"])
        if side in losers:
            _lose(ctx, go, fight, side, chosen, bool(revealed[side]["leader"]))
        else:
            aside = dict(fight["aside"][side])
            for u, n in chosen.items():
                aside[u] = aside.get(u, 0) + n
            fight["aside"] = [aside if i == side else fight["aside"][i] for i in (ACTIVE, DEFENDER)]
    fight["revealed"], fight["bonus"] = None, [0, 0]
    left = [side_empire(ctx.state, go, fight, s).count(area) for s in (ACTIVE, DEFENDER)]
    if not left[ACTIVE] or not left[DEFENDER]:
        _end(ctx, _set(ctx, go, fight=fight), fight, left)
        return
    for side in (ACTIVE, DEFENDER):
        if not uncommitted(ctx.state, go, fight, side):  # L745-749: all committed: a conflict disorder marker
            fight["marks"] = [int(m) + (1 if i == side else 0) for i, m in enumerate(fight["marks"])]
            fight["aside"] = [{} if i == side else fight["aside"][i] for i in (ACTIVE, DEFENDER)]
            ctx.emit("conflict_disorder", empire=side_empire(ctx.state, go, fight, side).card, area=area,
                     markers=fight["marks"][side])
    _new_round(ctx, _set(ctx, go, fight=fight))


def _quick(ctx: Ctx, go: Go, fight: dict[str, Any], totals: tuple[int, int]) -> None:
    """Option 13's single round: the losses of :func:`engine.seven_ages.quick.outcome`, then the side that
    must retreat is asked where to (units with nowhere to go are lost), then the end of the conflict."""
    area = str(fight["area"])
    revealed = fight["revealed"]
    committed = tuple(dict(r["units"]) for r in revealed)
    reserves = tuple(uncommitted(ctx.state, go, fight, s, committed[s]) for s in (ACTIVE, DEFENDER))
    due, highest = None, 0
    winner = ACTIVE if totals[ACTIVE] > totals[DEFENDER] else DEFENDER
    if ctx.state.options.get("pursuit") and totals[ACTIVE] != totals[DEFENDER]:  # only reserves pursue
        defender = side_empire(ctx.state, go, fight, DEFENDER)
        due = pursuit.losses_due(reserves[winner], area, age_of(defender.progress))
        survivors = {**reserves[winner], **committed[winner]}
        highest = max((load_tables().unit_types[u].available for u in survivors), default=0)
    result = quick.outcome(totals, (committed[0], committed[1]), (reserves[0], reserves[1]),
                           (bool(revealed[0]["leader"]), bool(revealed[1]["leader"])), due, highest)
    for side in (ACTIVE, DEFENDER):
        if result.losses[side] or result.tactician_lost[side]:
            _lose(ctx, go, fight, side, result.losses[side], result.tactician_lost[side])
    fight["revealed"] = None
    fight["after"] = {"then": QUICK, "going": result.retreats}
    go = _set(ctx, go, fight=fight)
    _ask_losses(ctx, go, [(side, o) for side, o in enumerate(result.owed) if o is not None], QUICK)


def _quick_after(ctx: Ctx, go: Go, going: int | None) -> None:
    """Option 13 once its losses are taken: the side that must retreat is asked where to (units with
    nowhere to go are lost), then the end of the conflict."""
    go = _now(ctx, go)
    fight = fight_of(go)
    assert fight is not None
    area = str(fight["area"])
    if going is not None and _standing(ctx.state, go, fight, going):
        e = side_empire(ctx.state, go, fight, going)
        if retreat.destinations(ctx.state, e, area):
            ctx.state = replace(ctx.state, pending=(*ctx.state.pending, Pending(
                RETREAT, _seat_of(go, fight, going), go.empire, {"side": going, "forced": True})))
            return
        _lose(ctx, go, fight, going, {s.unit: s.count for s in e.units if s.area == area}, False)
        go = _set(ctx, go, fight=fight)
    _end(ctx, go, fight, _left(ctx.state, go, fight))


def _lose(ctx: Ctx, go: Go, fight: dict[str, Any], side: int, units: Mapping[str, int], leader: bool, *,
          how: str = "", event: str = "conflict_losses", **extra: Any) -> None:
    """The side loses the units (and the Tactician) it committed this round: units back to the pool,
    an unnamed leader to the cup, a named one out of the game (L737-739). ``how``: whether the units were
    the owner's choice ("chosen") or there was nothing to choose (:data:`losses.ALL`,
    :data:`losses.ONE_TYPE`); ``event``: the public event saying so (a pursuit's has its own)."""
    area = str(fight["area"])
    e = side_empire(ctx.state, go, fight, side)
    for u, n in units.items():
        e = e.add_units(area, u, -n)
    lost_leaders = 0
    if leader:
        tactician = next(ld for ld in e.leaders if ld.area == area and TACTICIAN in ld.abilities)
        rest = list(e.leaders)
        rest.remove(tactician)
        e = replace(e, leaders=tuple(rest))
        ctx.state = retire_leader(ctx.state, tactician)
        lost_leaders = 1
        ctx.emit("leader_lost_in_conflict", empire=e.card, area=area, leader=tactician.name,
                 named=tactician.named)
    ctx.state = ctx.state.with_empire(e)
    count = sum(units.values())
    fight["lost"] = [int(x) + (count if i == side else 0) for i, x in enumerate(fight["lost"])]
    fight["leaders_lost"] = [int(x) + (lost_leaders if i == side else 0) for i, x in
                             enumerate(fight["leaders_lost"])]
    ctx.emit(event, empire=e.card, area=area, units=[[u, int(n)] for u, n in sorted(units.items())],
             **({"how": how} if how else {}), **extra)


def _end(ctx: Ctx, go: Go, fight: dict[str, Any], left: list[int]) -> None:
    """The end of the conflict (L767-781): the elite check, disorder, control and money."""
    area = str(fight["area"])
    lost = [int(x) for x in fight["lost"]]
    cards = (active(go), int(fight["defender"]))
    for side, card in enumerate(cards):
        _elite_check(ctx, card, lost[side])
    s = ctx.state
    if lost[ACTIVE] and lost[DEFENDER]:
        s = s.with_area(replace(s.area(area), disorder=True))
    winner = ACTIVE if left[ACTIVE] else DEFENDER if left[DEFENDER] else None
    if winner == ACTIVE:  # control changes (L777)
        conqueror = s.empire(active(go))
        held = s.area(area)
        city = held.city
        if city and not conqueror.has_leader(BUILDER, area):
            city = reduced_city(city)
        s = s.with_area(replace(held, artefacts=(), fort=False, city=city))
    ctx.state = s
    for side, card in enumerate(cards):
        if not ctx.state.has_empire(card):
            continue
        e = ctx.state.empire(card)
        lost_capital = e.capital == area and not left[side]
        if lost_capital:
            ctx.state = ctx.state.with_empire(replace(e, capital=None))
        beaten = winner is not None and winner != side
        if lost_capital or (e.capital is None and beaten and int(fight["leaders_lost"][side])):
            _seize_money(ctx, card, cards[1 - side] if winner == 1 - side else None, area)
    if winner == ACTIVE and go.action == "start":
        _liberated(ctx, go, active(go), area)
    ctx.emit("conflict_ended", area=area, empire=active(go), defender=cards[DEFENDER],
             winner=cards[winner] if winner is not None else None, lost=lost)
    conqueror = ctx.state.empire(active(go))
    if winner == ACTIVE and ctx.state.area(area).city and barbarian(conqueror):
        _set(ctx, go, RAZE, fight=None, razing=area)  # L779: it "may instead destroy the city"
        return
    after = _set(ctx, go, FIGHT, fight=None)
    after_movement(ctx, after)


def _liberated(ctx: Ctx, go: Go, card: int, area: str) -> None:
    """A city taken during Start empire (L777, L779): a Barbarian must destroy it; otherwise the first city
    the new empire liberates becomes its capital, worth at least the set-up value of its age (L453)."""
    e, held = ctx.state.empire(card), ctx.state.area(area)
    if not held.city:
        return
    if barbarian(e):
        ctx.state = ctx.state.with_area(replace(held, city=0))
        ctx.emit("city_destroyed", empire=card, area=area)
    elif e.capital is None:
        value = max(load_tables().ages[age_of(e.progress) - 1].max_city, held.city)
        ctx.state = ctx.state.with_empire(replace(e, capital=area, homeland=area)).with_area(
            replace(held, city=value))
        ctx.emit("capital_placed", seat=go.seat, empire=card, area=area, value=value)


def _elite_check(ctx: Ctx, card: int, lost: int) -> None:
    """An empire with an elite marker that lost 2 or more units draws a card: lower than its losses, it
    loses one elite marker (L769)."""
    if not ctx.state.has_empire(card) or not ctx.state.empire(card).elite or lost < 2:
        return
    drawn = _draw(ctx)
    value = load_deck().cards[drawn].value if drawn else 0
    if drawn:
        ctx.state = replace(ctx.state, discard=(*ctx.state.discard, drawn))
    e = ctx.state.empire(card)
    lose = value < lost
    if lose:
        ctx.state = ctx.state.with_empire(replace(e, elite=e.elite - 1))
    ctx.emit("elite_check", empire=card, card=drawn, value=value, lost=lost, removed=lose)


def _seize_money(ctx: Ctx, loser: int, taker: int | None, area: str) -> None:
    """All the loser's saved money is lost, half of it to the empire now controlling the area (L781)."""
    e = ctx.state.empire(loser)
    money = e.money
    ctx.state = ctx.state.with_empire(replace(e, money=0))
    half = money // 2
    if taker is not None and ctx.state.has_empire(taker):
        ctx.state = ctx.state.with_empire(add_money(ctx.state.empire(taker), half))
    ctx.emit("money_seized", empire=loser, taker=taker, money=money, gained=half if taker else 0, area=area)


STAGES = (FIGHT, NOMINATE, ROUND, RAZE)
"""The go stages a conflict runs in (a Manoeuvre's or a Start empire's go)."""


def pending_legal(state: SevenState, pending: Pending) -> list[Action] | None:
    """The choices of a conflict's pending decision (None: not a conflict's)."""
    if pending.kind == COMMIT:
        return commit_legal(state, pending)
    if pending.kind == window.EVENT:
        return window.legal(state, pending)
    if pending.kind in range_requests.KINDS:  # a window's play asking to count Range through (L2233)
        return range_requests.pending_legal(state, pending)
    if pending.kind == RETREAT:
        return retreat_legal(state, pending)
    if pending.kind == LOSSES:
        return losses_legal(state, pending)
    if pending.kind == SCATTER:
        return scatter_legal(state, pending)
    return None


def _pending_move(ctx: Ctx, go: Go, action: Action) -> bool:
    """Apply the move of a seat answering a conflict's pending decision; False if it answers none."""
    kinds = {p.kind for p in ctx.state.pending if p.seat == action.player}
    if COMMIT in kinds:
        commit(ctx, go, action)
    elif window.EVENT in kinds:
        window_move(ctx, go, action)
    elif asked := next((p for p in ctx.state.pending if p.seat == action.player
                        and p.kind in range_requests.KINDS), None):
        range_requests.move(ctx, go, asked, action)
    elif RETREAT in kinds:
        retreat_move(ctx, go, action)
    elif LOSSES in kinds:
        lose_move(ctx, go, action)
    elif SCATTER in kinds:
        scatter_move(ctx, go, action)
    else:
        return False
    return True


def handled(ctx: Ctx, go: Go, action: Action) -> bool:
    """Apply ``action`` if it belongs to a conflict (an answer to one of its pending decisions, or a move
    of a go in one of its stages): what every go that fights (Manoeuvre, Start empire) asks first."""
    if _pending_move(ctx, go, action):
        return True
    if go.stage in STAGES:
        apply(ctx, go, action)
        return True
    return False


def clear_stale(ctx: Ctx) -> None:
    """A conflict whose go ended under it (its empire discarded mid-conflict, its pendings with it): its
    sealed commitments go, and its cards are discarded. An option 16 vote's ballots belong to no go."""
    s = ctx.state
    live = {g.empire for g in s.goes}
    sealed = tuple(p for p in s.sealed if p.empire in live or p.kind == BALLOT)
    stale: list[int] = []
    if s.phase == MANOEUVRE:  # no other step of a manoeuvre sets cards aside
        held = {int(p.data["card"]) for p in (*s.pending, *sealed) if p.kind == COMMIT}
        stale = [c for _, c in s.aside if c not in held]
    if sealed != s.sealed or stale:
        ctx.state = replace(s, sealed=sealed, aside=tuple(x for x in s.aside if x[1] not in stale),
                            discard=(*s.discard, *stale))


def _target(state: SevenState, go: Go, card: Card, side: int) -> Empire | None:
    """The empire a conflict event targets: the side it is played on; a fort's (``ignore_fort`` alone, not
    sided), the defender."""
    fight = fight_of(go)
    if fight is None:
        return None
    if all(x["code"] == "ignore_fort" for x in card.event.effects):
        side = DEFENDER
    return side_empire(state, go, fight, side)


window.register("conflict", ("conflict_bonus", "ignore_fort", "elite_marker"), _play, target=_target)
