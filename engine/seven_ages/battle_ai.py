"""How the computer plays a conflict: it commits by the odds, and judges whether an attack is worth it.

Both the greedy player and a timed-out seat use :func:`commit_choice` (a timed-out commitment is the
AI's move for that seat, never a fixed "commit one unit"). Everything here reads only what the seat
may know: its own card and units, the other side's units in the area (stack sizes are public on a
table, L791), the public markers, never the other side's card or commitment.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core import Action
from engine.seven_ages import losses, range_requests, window
from engine.seven_ages.battle import (
    ACTIVE,
    COMMIT,
    DEFENDER,
    LOSSES,
    RETREAT,
    SCATTER,
    active,
    boarding,
    commit_legal,
    fight_of,
    go_of_pending,
    marines_free,
    retreat_legal,
    scatter_legal,
    side_empire,
    strongest_marines,
    tallies,
    uncommitted,
)
from engine.seven_ages.cards import load_deck
from engine.seven_ages.conflict import Entry, tally, unit_values
from engine.seven_ages.conflict_moves import (
    Board,
    Commit,
    CommitDone,
    CommitLeader,
    Lose,
    RetreatArea,
    RetreatLeader,
    RetreatUnits,
    WindowPass,
    WindowPlay,
)
from engine.seven_ages.groups import all_that_can, new_group, next_areas
from engine.seven_ages.manoeuvre_moves import LAND
from engine.seven_ages.map import load_map
from engine.seven_ages.movement import mode_of, others_in
from engine.seven_ages.production import empire_age
from engine.seven_ages.state import Empire, Go, Pending, SevenState


def expected_card() -> float:
    """The mean value of a card drawn from the full deck."""
    values = [c.value for c in load_deck().cards.values()]
    return sum(values) / len(values)


def _strongest_first(e: Empire, units: Mapping[str, int], area: str, age: int) -> list[str]:
    """One entry per unit, the best (front plus support) first."""
    out = [u for u, n in units.items() for _ in range(int(n))]
    out.sort(key=lambda u: (-sum(unit_values(e, u, area, age)), u))
    return out


def estimate(state: SevenState, me: Empire, them: Empire, area: str, units: Mapping[str, int],
             theirs: Mapping[str, int], *, card: float, defending: bool, marks: int = 0,
             entry: Entry | None = None) -> float:
    """``me``'s total with ``units`` committed against ``theirs`` and a card worth ``card``."""
    return tally(state, me, them, area, card_value=0, mine=units, theirs=theirs, their_marks=marks,
                 defending=defending, active_units=units if not defending else theirs,
                 entry=entry or Entry()).total + card


Sides = tuple[dict[str, Any], int, str, tuple[Empire, Empire], tuple[dict[str, int], dict[str, int]]]


def _both_sides(state: SevenState, pending: Pending) -> Sides:
    """A side's pending decision in its conflict: the fight, the side, the area, (its empire, the other's)
    and (its uncommitted units, the other's)."""
    go = go_of_pending(state, pending)
    fight = fight_of(go)
    assert fight is not None
    side = int(pending.data["side"])
    empires = (side_empire(state, go, fight, side), side_empire(state, go, fight, 1 - side))
    free = (uncommitted(state, go, fight, side), uncommitted(state, go, fight, 1 - side))
    return fight, side, str(fight["area"]), empires, free


SCOUTS = 2
"""Units a side commits to wait and see when its whole force cannot beat the other side's likely total
(the players' notes, L2349: "it might be best to adopt a wait and see approach and just commit a couple of
scouts. What you don't want is for your forces to be disordered while your opponent has a lot of fresh
units to commit")."""


def _plan(state: SevenState, pending: Pending) -> dict[str, int]:
    """The units the side means to commit: the fewest of its strongest that beat the other side's
    likely total (its best half committed with an average card); when even all of them do not, a couple
    of its weakest (:data:`SCOUTS`), keeping the rest fresh for the next round."""
    fight, side, area, (me, them), (mine, theirs) = _both_sides(state, pending)
    defender_age = empire_age(me if side == DEFENDER else them)
    their_order = _strongest_first(them, theirs, area, defender_age)
    likely: dict[str, int] = {}
    for u in their_order[:max(1, (len(their_order) + 1) // 2)]:
        likely[u] = likely.get(u, 0) + 1
    entry = Entry(*(bool(x) for x in fight["entry"]))
    marks = [int(x) for x in fight["marks"]]
    card = int(pending.data["card"])
    my_card = load_deck().cards[card].value if card else 0
    target = estimate(state, them, me, area, likely, {}, card=expected_card(), defending=side == ACTIVE,
                      marks=marks[side], entry=entry)
    plan: dict[str, int] = {}
    order = _strongest_first(me, mine, area, defender_age)
    for u in order:
        plan[u] = plan.get(u, 0) + 1
        if estimate(state, me, them, area, plan, likely, card=my_card, defending=side == DEFENDER,
                    marks=marks[1 - side], entry=entry) > target:
            return plan
    scouts: dict[str, int] = {}
    for u in order[::-1][:SCOUTS]:
        scouts[u] = scouts.get(u, 0) + 1
    return scouts


def commit_choice(state: SevenState, pending: Pending) -> Action:
    """The next move of a side's commitment by the odds: the planned units a type at a time (with option 14,
    the strongest marines aboard with the ships committed at sea), the Tactician when it has one (it saves
    the committed units on a tie), then done."""
    legal = commit_legal(state, pending)
    seats = boarding(pending)
    if seats:  # option 14: the strongest marines go with the ships committed (L1354)
        go = go_of_pending(state, pending)
        fight = fight_of(go)
        assert fight is not None
        side, chosen = int(pending.data["side"]), pending.data["units"]
        unit = strongest_marines(state, go, fight, side, chosen)[0]
        count = min(seats, marines_free(state, go, fight, side, chosen)[unit])
        return Board(pending.seat, unit, count)
    plan = _plan(state, pending)
    chosen = {u: int(n) for u, n in pending.data["units"].items()}
    for a in legal:
        if isinstance(a, Commit):
            want = plan.get(a.unit, 0) - chosen.get(a.unit, 0)
            if want > 0 and (a.count == want or a.count == 1):
                best = [b for b in legal if isinstance(b, Commit) and b.unit == a.unit and b.count == want]
                return best[0] if best else a
    leader = next((a for a in legal if isinstance(a, CommitLeader)), None)
    if leader is not None:
        return leader
    done = next((a for a in legal if isinstance(a, CommitDone)), None)
    if done is not None:
        return done
    return legal[0]


def event_choice(state: SevenState, pending: Pending) -> Action:
    """In a conflict's event window: a seat playing one of the two sides plays its first event for its own
    side while that side is not ahead; everyone else passes."""
    legal = window.legal(state, pending)
    go = go_of_pending(state, pending)
    fight = fight_of(go)
    if fight is None or not fight.get("revealed"):
        return legal[-1]
    mine = [side for side, r in enumerate(fight["revealed"]) if int(r["seat"]) == pending.seat]
    if len(mine) != 1:
        return legal[-1]
    totals = [t.total for t in tallies(state, go, fight)]
    if totals[mine[0]] > totals[1 - mine[0]]:
        return legal[-1]
    return next((a for a in legal if isinstance(a, WindowPlay) and a.side == mine[0]), legal[-1])


def retreat_choice(state: SevenState, pending: Pending) -> Action:
    """Retreat when behind: when the other side's uncommitted units with an average card would beat this
    side's with an average card; else stand fast."""
    legal = retreat_legal(state, pending)
    if len(legal) == 1:  # nothing to weigh: a forced retreat, whose other side may be gone (discarded, L1012)
        return legal[0]
    go = go_of_pending(state, pending)
    fight = fight_of(go)
    if fight is None or not (state.has_empire(active(go)) and state.has_empire(int(fight["defender"]))):
        return legal[0]  # the other side's empire is gone (discarded, L1012): nothing to retreat from
    fight, side, area, (me, them), (mine, theirs) = _both_sides(state, pending)
    entry = Entry(*(bool(x) for x in fight["entry"]))
    marks = [int(x) for x in fight["marks"]]
    card = expected_card()
    ours = estimate(state, me, them, area, mine, theirs, card=card, defending=side == DEFENDER,
                    marks=marks[1 - side], entry=entry)
    other = estimate(state, them, me, area, theirs, mine, card=card, defending=side == ACTIVE,
                     marks=marks[side], entry=entry)
    if other > ours and len(legal) > 1:
        return legal[1]
    return legal[0]


def losses_choice(state: SevenState, pending: Pending) -> Action:
    """The units to give up next: the cheapest, as the engine took them before the players chose."""
    d = pending.data
    unit, count = losses.computer_choice(d["pool"], int(d["left"]), d["highest"])
    return Lose(pending.seat, unit, count)


def scatter_choice(state: SevenState, pending: Pending) -> Action:
    """Where retreating units go when the computer sends them: everything to the first area it may go to,
    as its retreat picks one area, the biggest stack first; what cannot enter it, to the next."""
    legal = scatter_legal(state, pending)
    sends = [a for a in legal if isinstance(a, (RetreatUnits, RetreatLeader))]
    if not sends:
        return next(a for a in legal if isinstance(a, RetreatArea) and a.to)
    return max(sends, key=lambda a: a.count if isinstance(a, RetreatUnits) else 0)


def pending_passive(state: SevenState, pending: Pending) -> Action | None:
    """The move of a seat that let a conflict's decision time out: the computer's (None: not a conflict's)."""
    if pending.kind == LOSSES:
        return losses_choice(state, pending)
    if pending.kind == SCATTER:
        return scatter_choice(state, pending)
    if pending.kind == COMMIT:
        return commit_choice(state, pending)
    if pending.kind == window.EVENT:
        return WindowPass(pending.seat)
    if pending.kind in range_requests.KINDS:  # refused, as at a canal; a price not paid
        return range_requests.passive(pending)
    if pending.kind == RETREAT:
        return retreat_choice(state, pending)
    return None


def _margin(state: SevenState, e: Empire, units: Mapping[str, int], to: str) -> float | None:
    """How far ``units`` of ``e`` moved into ``to``, all committed with an average card, would beat its
    defender's units there, all committed, with an average card and the defence (None: no such target,
    another player's empire alone in a land area)."""
    if not load_map().areas[to].land:
        return None
    others = others_in(state, e, to)
    if len(others) != 1 or others[0].owner == e.owner:
        return None
    d = others[0]
    defenders = {s.unit: s.count for s in d.units if s.area == to}
    card = expected_card()
    return estimate(state, e, d, to, units, defenders, card=card, defending=False) - \
        estimate(state, d, e, to, defenders, units, card=card, defending=True)


def attack_plan(state: SevenState, go: Go) -> tuple[str, str] | None:
    """(from, to): the stack whose land units that may move would best beat, by the odds, another player's
    empire next door (the greedy player attacks when its expected total beats the defender's)."""
    e = state.empire(go.empire)
    best: tuple[float, str, str] | None = None
    for area in e.areas():
        group = new_group(state, e, area)
        land = all_that_can(state, e, go, group, LAND)  # what it takes: every land unit that may leave
        if not land:
            continue
        for to in next_areas(state, e, go, {**group, "units": land}):
            margin = _margin(state, e, land, to)
            if margin is not None and margin > 0 and (best is None or margin > best[0]):
                best = (margin, area, to)
    return (best[1], best[2]) if best else None


def attack_into(state: SevenState, go: Go, group: Mapping[str, Any], choices: list[str]) -> str | None:
    """Of the areas the moving group may enter next, the enemy-held one it would best beat (None: none)."""
    e = state.empire(go.empire)
    units = {u: int(n) for u, n in group["units"].items()}
    scored = [(m, to) for to in choices if (m := _margin(state, e, units, to)) is not None and m > 0]
    return max(scored)[1] if scored else None


def may_attack(state: SevenState, e: Empire, area: str, to: str) -> bool:
    """Whether the empire's land units in ``area`` but one (who stays, L668) would beat the defenders of
    ``to`` by the odds (the greedy player then takes a Manoeuvre)."""
    land = {s.unit: s.count for s in e.units if s.area == area and mode_of(s.unit) == LAND}
    if sum(land.values()) < 2:
        return False
    cheapest = min(land, key=lambda u: sum(unit_values(e, u, area, empire_age(e))))
    land[cheapest] -= 1
    margin = _margin(state, e, {u: n for u, n in land.items() if n}, to)
    return margin is not None and margin > 0
