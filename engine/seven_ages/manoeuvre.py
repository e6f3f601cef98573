"""Action 4, Manoeuvre (L598-700): units move one area at a time, then disorder is removed by units.

A go is a loop of small decisions (see :mod:`engine.seven_ages.manoeuvre_moves`): choose a stack, the
units that move together (a *group*: all land units, all ships or all aircraft) and the leaders that
ride with them (L628), then the next area, one at a time, until the group stops; then the next
stack, or the end of movement. The legal next areas are worked out from the group's place and its
points left only (:mod:`engine.seven_ages.movement`), never by listing paths.

The group's units stand on the map where it has got to; until it stops, it may take its steps back
(:class:`MoveBack`), so what entering an area does for good happens when it stops: a city entered
vacant is reduced (L624), galleys that went to sea far from their empire's land are lost (L654).

``Go.data`` (the go owner's, see :data:`engine.seven_ages.view.PUBLIC_GO_DATA`):

- ``held``: the areas the empire controlled as the go began (disorder removal, L676);
- ``moved``: ``[area, unit, count]`` of units that have moved and may not move again this go;
- ``arrivals``: ``[area, unit, count, invaded, river, arrow]`` per unit that moved: whether its last
  step invaded (L2173), crossed a river or a crossing arrow (the defence and disorder sums need it);
- ``explored``: land areas an Explorer passed through (they may be left empty, L2031);
- ``promised``: empires whose ships a group of ours passed at sea without outnumbering them, so no
  unit of ours may end in an area they control this action (L644);
- ``group``: the group under way (see :mod:`engine.seven_ages.groups`).

After movement and disorder removal come the conflicts in the areas the empire shares with another
(:mod:`engine.seven_ages.battle`, L702-787).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from engine.core import Action, IllegalAction
from engine.seven_ages import battle, battle_ai, battle_words, manoeuvre_words, pacify, steps
from engine.seven_ages.actions import Done
from engine.seven_ages.battle import reduced_city
from engine.seven_ages.canals import canal_between
from engine.seven_ages.canals import owner as canal_owner
from engine.seven_ages.canals import standing as canal_standing
from engine.seven_ages.civilisation_moves import PlayEvent
from engine.seven_ages.cleanup import marooned
from engine.seven_ages.conflict_moves import ACTIONS as FIGHT_ACTIONS
from engine.seven_ages.groups import (
    MODES,
    aboard,
    all_that_can,
    drop_choices,
    drop_problem,
    entry_problem,
    everyone,
    free_leaders,
    group_mode,
    group_of,
    joinable,
    new_group,
    next_areas,
    pacifiable,
    points_left,
    riders,
    seats_left,
    shed_problem,
    stop_problem,
)
from engine.seven_ages.manoeuvre_moves import (
    ACTIONS,
    AIR,
    REFUSE,
    SHIPS,
    TOLLS,
    CanalAnswer,
    DropOff,
    EndMovement,
    MoveAll,
    MoveBack,
    MoveFrom,
    MoveTo,
    MoveUnits,
    PayToll,
    StopHere,
    TakeLeader,
)
from engine.seven_ages.map import load_map
from engine.seven_ages.markers import BaseGoRules, GoHandler, MarkerStep
from engine.seven_ages.modifiers import world_war
from engine.seven_ages.movement import (
    BUILDER,
    EXPLORER,
    GALLEY,
    STRATEGIST,
    arrow_between,
    galleys_in_oceans,
    mode_of,
    others_in,
    outnumbers,
    step_cost,
    supported_sea,
)
from engine.seven_ages.pacify import PACIFY
from engine.seven_ages.production import add_money
from engine.seven_ages.state import Empire, Go, Pending, SevenState
from engine.seven_ages.steps import Ctx
from engine.seven_ages.text import the_empire, unit_words

STACK, PATH = "stack", "path"
"""The go's stages of movement: choosing a stack (or the end of movement), moving a group; then removing
disorder (:data:`PACIFY`: :mod:`engine.seven_ages.pacify`)."""
PERMISSION = "permission"
"""The pending decision of a canal's owner: may these ships pass (L652)?"""


def _set(ctx: Ctx, go: Go, stage: str | None = None, **data: Any) -> Go:
    """``go`` with its stage and data changed, in the state; a group keeps its points left for the words."""
    merged = dict(go.data)
    if data.get("group"):
        group = dict(data["group"])
        group["left"] = points_left(ctx.state.empire(go.empire), group) if group["units"] else None
        data = {**data, "group": group}
    merged.update(data)
    new = replace(go, stage=go.stage if stage is None else stage, data=merged)
    ctx.state = ctx.state.with_go(new)
    return new


def _reduce_cities(ctx: Ctx, e: Empire, group: Mapping[str, Any]) -> None:
    """Reduce the city of each area the group entered vacant without a Builder (L624), once an area."""
    for area in dict.fromkeys(group["vacant"]):
        held = ctx.state.area(area)
        if held.city:
            ctx.state = ctx.state.with_area(replace(held, city=reduced_city(held.city)))
            ctx.emit("city_reduced", empire=e.card, area=area, value=held.city, now=reduced_city(held.city))


def _record(ctx: Ctx, go: Go, area: str, units: Mapping[str, int], group: Mapping[str, Any]) -> None:
    """Units that ended their move in ``area``: they may not move again this go, and how their last
    step came in counts for defence and disorder (invaded, across a river or a crossing arrow)."""
    flags = [bool(group["invaded"]), bool(group["river"]), bool(group["arrow"])]
    rows = sorted(units.items())
    _set(ctx, go, moved=[*go.data["moved"], *([area, u, n] for u, n in rows)],
         arrivals=[*go.data["arrivals"], *([area, u, n, *flags] for u, n in rows)])


KEPT = "kept"
"""The group as it stood when it last left units on the way: its steps back end there."""


def _moved_since_drop(group: Mapping[str, Any]) -> bool:
    """Whether the group has steps to take back: any since it set out, or since it last left units."""
    kept = group.get(KEPT)
    return bool(group["path"]) and (kept is None or len(group["path"]) > len(kept["path"]))


def _before_moving(go: Go) -> bool:
    """The go's first decision: no group under way and no unit moved yet (its events are played now)."""
    return go.stage == STACK and not go.data.get("group") and not go.data.get("moved")


class ManoeuvreRules(BaseGoRules):
    """Manoeuvre (L598-787): movement, disorder removed by units, then conflicts."""

    action = "manoeuvre"
    interleaves = True  # option 5: one marker each in turn (L1194)
    own_events = True  # played and carried out by the step (engine.seven_ages.own_events)
    events_when = "Manoeuvre events are played as your go begins, before any of your units moves."

    @property
    def handlers(self) -> Mapping[type[Action], GoHandler]:
        """Each move of movement by its class; every other move of the go (a conflict's, pacifying's, an
        event's: :meth:`apply` gives the conflict and pacifying theirs first) is refused by
        :meth:`unlisted`."""
        moves: dict[type[Action], GoHandler] = {
            CanalAnswer: self._canal, EndMovement: self._end_move, MoveFrom: self._from, PayToll: self._pay,
            MoveUnits: self._units_move, MoveAll: self._all_move, TakeLeader: self._leader_move,
            MoveTo: self._to, StopHere: self._stop_move, DropOff: self._drop_move, MoveBack: self._back_move}
        others = (*ACTIONS, *FIGHT_ACTIONS, Done, PlayEvent)
        return {**{cls: self.unlisted for cls in others}, **moves}

    def opening(self, state: SevenState, go: Go) -> bool:
        return _before_moving(go)

    def begin(self, ctx: Ctx, go: Go) -> None:
        e = ctx.state.empire(go.empire)
        _set(ctx, go, STACK, held=list(e.areas()), moved=[], arrivals=[], explored=[], promised=[],
             group=None)

    # -- legal moves ------------------------------------------------------------------------------
    def legal(self, state: SevenState, go: Go) -> list[Action]:
        if go.stage in battle.STAGES:
            return battle.legal(state, go)
        e = state.empire(go.empire)
        seat = go.seat
        if go.stage == PACIFY:
            return pacify.legal(state, go)
        group = group_of(go)
        if go.stage == STACK or group is None:
            return [*(MoveFrom(seat, a) for a in self._stacks(state, e, go)), EndMovement(seat)]
        if group.get("toll"):
            price = int(group["toll"]["price"])
            return [*([PayToll(seat, True)] if e.money >= price else []), PayToll(seat, False)]
        out: list[Action] = []
        if not group["path"]:
            out += self._joiners(state, e, go, group)
        if group["units"]:
            out += [MoveTo(seat, a) for a in next_areas(state, e, go, group)]
        out += [DropOff(seat, unit, n) for unit, n in drop_choices(state, e, go, group)]
        if not group["path"] or stop_problem(state, e, go, group) is None:
            out.append(StopHere(seat))
        if group["path"] and (_moved_since_drop(group) or not out):
            out.append(MoveBack(seat))
        return out

    def _stacks(self, state: SevenState, e: Empire, go: Go) -> list[str]:
        areas = e.areas()
        if go.data.get("second"):  # only the units stacked with a Strategist move again (L787)
            areas = tuple(a for a in areas if e.has_leader(STRATEGIST, a))
        return [a for a in areas if joinable(state, e, go, new_group(state, e, a))]

    def _joiners(self, state: SevenState, e: Empire, go: Go, group: Mapping[str, Any]) -> list[Action]:
        seat = go.seat
        addable = joinable(state, e, go, group)
        out: list[Action] = []
        for unit, n in sorted(addable.items()):
            out.append(MoveUnits(seat, unit, 1))
            if n > 1:
                out.append(MoveUnits(seat, unit, n))
        mode = group_mode(group)
        for m in MODES if mode is None else (mode,):
            if len([u for u in addable if mode_of(u) == m]) > 1:
                out.append(MoveAll(seat, m))
        if group["units"] and seats_left(group):
            out += [TakeLeader(seat, name) for name in free_leaders(e, group)]
        return out

    def pending_legal(self, state: SevenState, pending: Pending) -> list[Action]:
        fighting = battle.pending_legal(state, pending)
        if fighting is not None:
            return fighting
        seat = pending.seat
        return [CanalAnswer(seat, REFUSE), CanalAnswer(seat, 0), *(CanalAnswer(seat, t) for t in TOLLS)]

    def pending_passive(self, state: SevenState, pending: Pending) -> Action:
        # a timed-out commitment (or retreat) is the computer's move for that seat, not a fixed one
        return battle_ai.pending_passive(state, pending) or CanalAnswer(pending.seat, REFUSE)

    def passive(self, state: SevenState, go: Go) -> Action:
        if go.stage in (battle.FIGHT, battle.NOMINATE):
            return battle.passive(state, go)
        if go.stage == PACIFY:
            return pacify.passive(state, go)
        group = group_of(go)
        if go.stage == STACK or group is None:
            return EndMovement(go.seat)
        e = state.empire(go.empire)
        if group.get("toll"):
            return PayToll(go.seat, False)
        if not group["path"] or stop_problem(state, e, go, group) is None:
            return StopHere(go.seat)
        options = self.legal(state, go)
        return MoveBack(go.seat) if MoveBack(go.seat) in options else options[0]

    # -- applying ---------------------------------------------------------------------------------
    def apply(self, ctx: Ctx, go: Go, action: Action) -> None:
        """A conflict's move (or an answer to it) first, whatever its class; then the move by its class."""
        if not battle.handled(ctx, go, action):
            super().apply(ctx, go, action)

    def _pacifying(self, ctx: Ctx, go: Go, action: Action) -> bool:
        """Apply ``action`` when the go is removing disorder with its units
        (:mod:`~engine.seven_ages.pacify`), whatever its class; False when it is not."""
        if go.stage != PACIFY:
            return False
        pacify.apply(ctx, go, action)
        return True

    @staticmethod
    def _moving(go: Go, *, paying: bool = False) -> dict[str, Any]:
        """The group on the move; one sentence when there is none, or it must answer a toll first."""
        group = group_of(go)
        if group is None:
            raise IllegalAction("no_group", "Choose a stack to move first, or end movement.")
        if group.get("toll") and not paying:
            raise IllegalAction("toll_asked", "Pay the canal's toll, or refuse it, first.")
        return group

    def unlisted(self, ctx: Ctx, go: Go, action: Action) -> None:
        if not self._pacifying(ctx, go, action):
            self._moving(go)
            raise IllegalAction("wrong_move", "That is not a move of a manoeuvre now.")

    def _canal(self, ctx: Ctx, go: Go, action: CanalAnswer) -> None:
        if not any(p.seat == action.player and p.kind == PERMISSION for p in ctx.state.pending):
            raise IllegalAction("not_asked", "Nobody is asking to pass your canal now.")
        self._answer(ctx, go, action)

    def _end_move(self, ctx: Ctx, go: Go, action: EndMovement) -> None:
        if self._pacifying(ctx, go, action):
            return
        if group_of(go) is not None:
            raise IllegalAction("group_moving", "Stop or take back the units on the move first.")
        self._end_movement(ctx, go)

    def _from(self, ctx: Ctx, go: Go, action: MoveFrom) -> None:
        if self._pacifying(ctx, go, action):
            return
        if group_of(go) is not None:
            raise IllegalAction("group_moving", "Stop or take back the units on the move first.")
        e = ctx.state.empire(go.empire)
        if action.area not in self._stacks(ctx.state, e, go):
            raise IllegalAction("no_stack", f"You have no units in {action.area} that may still move.")
        _set(ctx, go, PATH, group=new_group(ctx.state, e, action.area))

    def _pay(self, ctx: Ctx, go: Go, action: PayToll) -> None:
        if not self._pacifying(ctx, go, action):
            self._toll(ctx, go, ctx.state.empire(go.empire), self._moving(go, paying=True), action)

    def _leader_move(self, ctx: Ctx, go: Go, action: TakeLeader) -> None:
        if not self._pacifying(ctx, go, action):
            self._join_leader(ctx, go, ctx.state.empire(go.empire), self._moving(go), action)

    def _all_move(self, ctx: Ctx, go: Go, action: MoveAll) -> None:
        if not self._pacifying(ctx, go, action):
            self._join_all(ctx, go, ctx.state.empire(go.empire), self._moving(go), action)

    def _units_move(self, ctx: Ctx, go: Go, action: MoveUnits) -> None:
        if not self._pacifying(ctx, go, action):
            self._join_units(ctx, go, ctx.state.empire(go.empire), self._moving(go), action)

    def _to(self, ctx: Ctx, go: Go, action: MoveTo) -> None:
        if not self._pacifying(ctx, go, action):
            self._step(ctx, go, ctx.state.empire(go.empire), self._moving(go), action.area)

    def _stop_move(self, ctx: Ctx, go: Go, action: StopHere) -> None:
        if not self._pacifying(ctx, go, action):
            self._stop(ctx, go, ctx.state.empire(go.empire), self._moving(go))

    def _drop_move(self, ctx: Ctx, go: Go, action: DropOff) -> None:
        if not self._pacifying(ctx, go, action):
            self._drop(ctx, go, ctx.state.empire(go.empire), self._moving(go), action)

    def _back_move(self, ctx: Ctx, go: Go, action: MoveBack) -> None:
        if self._pacifying(ctx, go, action):
            return
        group = self._moving(go)
        if MoveBack(go.seat) not in self.legal(ctx.state, go):
            raise IllegalAction("not_moved", "These units have not moved since they set out or last "
                                "left units on the way, so there are no steps to take back.")
        self._back(ctx, go, ctx.state.empire(go.empire), group)

    @staticmethod
    def _joining(group: Mapping[str, Any]) -> None:
        """Refuse a unit or leader joining a group that has set out."""
        if group["path"]:
            raise IllegalAction("under_way",
                                "Units and leaders join a group only before its first step (L628).")

    def _join_leader(self, ctx: Ctx, go: Go, e: Empire, group: dict[str, Any], action: TakeLeader) -> None:
        self._joining(group)
        if action.name not in free_leaders(e, group):
            raise IllegalAction("no_leader",
                                f"{action.name} is not a leader here that may join the move.")
        if not seats_left(group):
            raise IllegalAction("leader_needs_unit", "Each leader rides with one unit of its own (L628).")
        _set(ctx, go, group={**group, "leaders": [*group["leaders"], action.name]})

    def _join_all(self, ctx: Ctx, go: Go, e: Empire, group: dict[str, Any], action: MoveAll) -> None:
        self._joining(group)
        if action.mode not in MODES or (group_mode(group) not in (None, action.mode)):
            raise IllegalAction("wrong_mode", "Land units, ships and aircraft move in separate groups.")
        adding = all_that_can(ctx.state, e, go, group, action.mode)
        if not adding:
            raise IllegalAction("none_free", "No more such units here may move (L668).")
        self._add(ctx, go, group, adding)

    def _join_units(self, ctx: Ctx, go: Go, e: Empire, group: dict[str, Any], action: MoveUnits) -> None:
        self._joining(group)
        addable = joinable(ctx.state, e, go, group)
        if action.count < 1 or addable.get(action.unit, 0) < action.count:
            what = unit_words(action.count, action.unit)
            raise IllegalAction("not_free", f"You cannot move {what} from "
                                f"{group['from']}: units that moved stay, and one unit stays in each "
                                "land area you control (L668).")
        self._add(ctx, go, group, {action.unit: action.count})

    @staticmethod
    def _add(ctx: Ctx, go: Go, group: dict[str, Any], adding: Mapping[str, int]) -> None:
        """Units join the group: aboard its ships if they are not ships themselves (L630)."""
        units = dict(group["units"])
        cargo = aboard(group)
        for unit, n in adding.items():
            if group_mode(group) == SHIPS and mode_of(unit) != SHIPS:
                cargo[unit] = cargo.get(unit, 0) + n  # a ship carries it (L630)
            else:
                units[unit] = int(units.get(unit, 0)) + n
        _set(ctx, go, group={**group, "units": units, "cargo": cargo})

    def _step(self, ctx: Ctx, go: Go, e: Empire, group: dict[str, Any], to: str) -> None:
        problem = entry_problem(ctx.state, e, go, group, to)
        if problem is not None:
            raise IllegalAction(*problem)
        canal = canal_between(group["at"], to) if to not in load_map().adjacency[group["at"]] else None
        keeper = canal_owner(ctx.state, canal) if canal is not None else None
        if canal is None or keeper is None or keeper.owner == e.owner:
            self._enter(ctx, go, e, group, to)
            return
        rule = canal_standing(ctx.state, keeper.owner)
        if rule == "yes":
            self._enter(ctx, go, e, group, to)
        elif rule == "ask":  # the owner answers: a pending decision of theirs (L652)
            ctx.state = replace(ctx.state, pending=(*ctx.state.pending, Pending(
                PERMISSION, keeper.owner, go.empire, {"canal": canal.name, "to": to, "keeper": keeper.card})))
            _set(ctx, go, group={**group, "asking": to})
            ctx.emit("canal_asked", seat=go.seat, empire=e.card, keeper=keeper.card, canal=canal.name)
        else:
            _set(ctx, go, group={**group, "toll": {"to": to, "price": int(rule), "keeper": keeper.card}})

    def _answer(self, ctx: Ctx, go: Go, action: CanalAnswer) -> None:
        """The canal's owner answers: no, yes, or a toll the mover then pays or not."""
        pending = next(p for p in ctx.state.pending if p.seat == action.player and p.kind == PERMISSION)
        if action.answer != REFUSE and action.answer != 0 and action.answer not in TOLLS:
            raise IllegalAction("bad_answer", "Answer no, yes, or a toll of 5, 10 or 20 money.")
        ctx.state = replace(ctx.state, pending=tuple(p for p in ctx.state.pending if p is not pending))
        go = ctx.state.go_of(go.seat) or go
        group = {**(group_of(go) or {}), "asking": None}
        to, keeper = str(pending.data["to"]), int(pending.data["keeper"])
        ctx.emit("canal_answered", seat=action.player, empire=keeper, mover=go.empire, answer=action.answer,
                 canal=pending.data["canal"])
        if action.answer == REFUSE:
            _set(ctx, go, group=group)
        elif action.answer == 0:
            self._enter(ctx, go, ctx.state.empire(go.empire), group, to)
        else:
            _set(ctx, go, group={**group, "toll": {"to": to, "price": action.answer, "keeper": keeper}})

    def _toll(self, ctx: Ctx, go: Go, e: Empire, group: dict[str, Any], action: PayToll) -> None:
        toll = group.get("toll")
        if not toll:
            raise IllegalAction("no_toll", "No canal toll is asked of you now.")
        group = {**group, "toll": None}
        if not action.accept:
            _set(ctx, go, group=group)
            return
        price, keeper = int(toll["price"]), int(toll["keeper"])
        if e.money < price:
            raise IllegalAction("too_poor",
                                f"{the_empire(e.card)} have {e.money} money: the toll is {price}.")
        ctx.state = ctx.state.with_empire(add_money(e, -price))
        if ctx.state.has_empire(keeper):
            ctx.state = ctx.state.with_empire(add_money(ctx.state.empire(keeper), price))
        ctx.emit("toll_paid", seat=go.seat, empire=e.card, keeper=keeper, money=price)
        self._enter(ctx, go, ctx.state.empire(e.card), group, str(toll["to"]))

    def _enter(self, ctx: Ctx, go: Go, e: Empire, group: dict[str, Any], to: str) -> None:
        """The group enters ``to`` (its entry already allowed)."""
        s, wmap = ctx.state, load_map()
        at, mode = group["at"], group_mode(group)
        assert mode is not None
        cost = step_cost(s, e, mode, to, EXPLORER in riders(e, group))
        vacant = not s.occupants(to)
        promised = list(group["promised"])
        if not wmap.areas[at].land:  # leaving a sea: the group moved through it
            before = e  # the empire as it stood there before the group came
            for unit, n in group["units"].items():
                before = before.add_units(at, unit, -int(n))
            for other in others_in(s, e, at):
                if not outnumbers(before, other, at, (SHIPS, AIR)) and other.card not in promised:
                    promised.append(other.card)  # L644: passed only if no unit of ours ends in their areas
        arrow = arrow_between(at, to)
        coast = group["coast"]
        if wmap.areas[to].land and not wmap.areas[at].land:
            coast = wmap.coast_of(to, at)
        adrift = bool(group["adrift"]) or (
            not wmap.areas[to].land and GALLEY in group["units"] and not galleys_in_oceans(e)
            and EXPLORER not in riders(e, group) and not supported_sea(s, e, to))
        self._relocate(ctx, e, group, at, to)
        reduces = vacant and BUILDER not in riders(e, group)
        _set(ctx, go, group={
            **group, "at": to, "path": [*group["path"], to], "spent": int(group["spent"]) + cost,
            "coast": coast, "vacant": [*group["vacant"], to] if reduces else group["vacant"],
            "adrift": adrift, "promised": promised,
            "invaded": wmap.areas[to].land and not wmap.areas[at].land,
            "river": frozenset((at, to)) in wmap.rivers,
            "arrow": arrow is not None and not arrow.blue})
        ctx.emit("units_moved", seat=go.seat, empire=e.card, origin=at, area=to,
                 units=[[u, int(n)] for u, n in sorted(group["units"].items())])

    def _relocate(self, ctx: Ctx, e: Empire, group: Mapping[str, Any], at: str, to: str) -> None:
        """Move the group's units and riding leaders on the map from ``at`` to ``to``."""
        e = ctx.state.empire(e.card)
        for unit, n in everyone(group).items():
            e = e.add_units(at, unit, -n).add_units(to, unit, n)
        riding = Counter(group["leaders"])  # unnamed leaders share a name: move as many as ride, from here
        leaders = []
        for ld in e.leaders:
            if ld.area == at and riding[ld.name] > 0:
                riding[ld.name] -= 1
                ld = replace(ld, area=to)
            leaders.append(ld)
        e = replace(e, leaders=tuple(leaders))
        if not any(s.area == at and mode_of(s.unit) == SHIPS for s in e.units):
            e = replace(e, coasts=tuple(c for c in e.coasts if c[0] != at))  # no ship of ours lies there now
        ctx.state = ctx.state.with_empire(e)

    def _back(self, ctx: Ctx, go: Go, e: Empire, group: dict[str, Any]) -> None:
        """The group's steps taken back: to where it started, its points whole; or, once it has left
        units on the way, only to where it last did, with the points it had then (what was set down
        travelled there for good, L632, L787). A group standing where it left units, with no other move,
        goes back to where it started and ends its move there."""
        kept = group.get(KEPT)
        if kept is not None and _moved_since_drop(group):
            self._relocate(ctx, e, group, group["at"], kept["at"])
            _set(ctx, go, group={**kept, KEPT: kept})
            ctx.emit("units_moved_back", seat=go.seat, empire=e.card, area=kept["at"])
            return
        self._relocate(ctx, e, group, group["at"], group["from"])
        ctx.emit("units_moved_back", seat=go.seat, empire=e.card, area=group["from"])
        if kept is not None:  # stranded where it left units: it ends its move where it started
            go = _set(ctx, go, STACK, group=None)
            _record(ctx, go, group["from"], everyone(group), group)
            return
        fresh = new_group(ctx.state, ctx.state.empire(e.card), group["from"])
        _set(ctx, go, group={**fresh, "units": group["units"], "cargo": group.get("cargo", {}),
                             "leaders": group["leaders"], "dropped": group.get("dropped", [])})

    def _stop(self, ctx: Ctx, go: Go, e: Empire, group: dict[str, Any]) -> None:
        if not group["path"]:  # put back unmoved: choose another stack
            _set(ctx, go, STACK, group=None)
            return
        problem = stop_problem(ctx.state, e, go, group)
        if problem is not None:
            raise IllegalAction(*problem)
        at = group["at"]
        _reduce_cities(ctx, e, group)
        units = self._end_here(ctx, go, e, group, {u: int(n) for u, n in group["units"].items()})
        e = ctx.state.empire(e.card)
        ended = {**units}
        for unit, n in aboard(group).items():
            ended[unit] = ended.get(unit, 0) + n
        ctx.emit("units_stopped", seat=go.seat, empire=e.card, area=at, origin=group["from"],
                 units=[[u, n] for u, n in sorted(ended.items())], leaders=list(group["leaders"]))
        self._lose_marooned(ctx, go, at)
        explored = list(go.data.get("explored", []))
        if EXPLORER in riders(e, group):
            explored += [a for a in group["path"][:-1] if load_map().areas[a].land and a not in explored]
        go = _set(ctx, go, STACK, group=None, explored=explored,
                  promised=sorted({*go.data.get("promised", []), *group["promised"]}))
        _record(ctx, go, at, ended, group)

    def _end_here(self, ctx: Ctx, go: Go, e: Empire, group: Mapping[str, Any],
                  units: dict[str, int]) -> dict[str, int]:
        """Units of the group (not its cargo) end their move where it is: galleys gone adrift far from
        their empire's land are lost (L654), ships lie on the coast they came in by (L648-650). The
        survivors."""
        at = group["at"]
        e = ctx.state.empire(e.card)
        units = dict(units)
        if group["adrift"] and units.get(GALLEY):
            lost = units.pop(GALLEY)
            e = e.add_units(at, GALLEY, -lost)
            ctx.emit("galleys_lost", seat=go.seat, empire=e.card, area=at, count=lost)
        if group_mode(group) == SHIPS and load_map().areas[at].coasts and group["coast"] is not None:
            e = replace(e, coasts=tuple(sorted({**dict(e.coasts), at: group["coast"]}.items())))
        ctx.state = ctx.state.with_empire(e)
        return units

    def _lose_marooned(self, ctx: Ctx, go: Go, area: str) -> None:
        """Land units at sea off their ships, or not allowed to stay aboard, are lost (L634, L1352)."""
        e = ctx.state.empire(go.empire)
        for unit, n in marooned(ctx.state, e, area).items():
            e = e.add_units(area, unit, -n)
            ctx.emit("units_lost_at_sea", seat=go.seat, empire=e.card, area=area, unit=unit, count=n)
        ctx.state = ctx.state.with_empire(e)

    def _drop(self, ctx: Ctx, go: Go, e: Empire, group: dict[str, Any], action: DropOff) -> None:
        """Cargo set down (L632), or, in the Strategist's second move, some of the group's own units left
        where it is (L787): either way they end their move here and the group moves on without them."""
        cargo = aboard(group)
        units = {u: int(n) for u, n in group["units"].items()}
        own = action.unit in units or (bool(go.data.get("second")) and action.unit not in cargo)
        if own:
            problem = shed_problem(ctx.state, e, go, group, action.unit, action.count)
            if problem is not None:
                raise IllegalAction(*problem)
            units[action.unit] -= action.count
        else:
            if not group["path"] or cargo.get(action.unit, 0) < action.count or action.count < 1:
                what = unit_words(action.count, action.unit)
                raise IllegalAction("not_aboard", f"Your ships carry no {what} to set down here.")
            problem = drop_problem(ctx.state, e, go, group, action.unit)
            if problem is not None:
                raise IllegalAction(*problem)
            cargo[action.unit] -= action.count
        at = group["at"]
        _reduce_cities(ctx, e, group)  # the units left have entered them for good, whatever the rest does
        ending = {action.unit: action.count}
        if own:
            ending = self._end_here(ctx, go, e, group, ending)
        dropped = [*group.get("dropped", []), [at, action.unit, action.count]]
        rest = {**group, "units": {u: n for u, n in units.items() if n},
                "cargo": {u: n for u, n in cargo.items() if n}, "vacant": [], "dropped": dropped}
        rest[KEPT] = {k: v for k, v in rest.items() if k != KEPT}  # steps back stop here now
        go = _set(ctx, go, group=rest)
        if ending:  # galleys left adrift are lost, not set down
            ctx.emit("units_dropped", seat=go.seat, empire=e.card, area=at,
                     units=[[u, n] for u, n in sorted(ending.items())])
            _record(ctx, go, at, ending, group)

    def _end_movement(self, ctx: Ctx, go: Go) -> None:
        e = ctx.state.empire(go.empire)  # aircraft left with no base are lost as the go ends (cleanup)
        ctx.emit("movement_ended", seat=go.seat, empire=e.card)
        if ctx.state.has_empire(e.card) and e.units and pacifiable(ctx.state, e, go) and \
                not go.data.get("second"):
            _set(ctx, go, PACIFY)
        else:
            battle.after_movement(ctx, go)


WAR_MOVE = "war_move"
"""``Go.data`` key: the go has taken World war's extra move (option 16, L1992)."""


def war_move(ctx: Ctx, go: Go) -> bool:
    """While the World war marker stands, an empire taking a Manoeuvre "can move and resolve conflict again
    after resolving any conflicts from their first move" (option 16, L1992): every unit may move once
    more, from any area, then its conflicts; a Strategist's move (:func:`second_move`) comes after, the
    third. True when it begins."""
    if go.action != "manoeuvre" or go.data.get(WAR_MOVE) or go.data.get("second") or \
            go.stage not in (STACK, PACIFY, battle.FIGHT) or not world_war(ctx.state):
        return False
    e = ctx.state.empire(go.empire)
    _set(ctx, go, STACK, moved=[], group=None, fight=None, **{WAR_MOVE: True})
    ctx.emit("world_war_moves", seat=go.seat, empire=e.card)
    return True


def second_move(ctx: Ctx, go: Go) -> bool:
    """After all conflicts of a manoeuvre, units stacked with a Strategist may move and fight again,
    staying with the Strategist (L787): a second round of movement from the Strategists' areas only, where
    every unit may move once more; then its conflicts; then the go ends. True when it begins."""
    if go.action != "manoeuvre" or go.data.get("second") or go.stage not in (STACK, PACIFY, battle.FIGHT):
        return False
    e = ctx.state.empire(go.empire)
    if not any(e.has_leader(STRATEGIST, a) for a in e.areas()):
        return False
    _set(ctx, go, STACK, second=True, moved=[], group=None, fight=None)
    ctx.emit("strategist_moves", seat=go.seat, empire=e.card)
    return True


steps.register(MarkerStep(ManoeuvreRules()))
battle.AFTER_CONFLICTS.extend([war_move, second_move])  # World war's move first, the Strategist's last
manoeuvre_words.register()
battle_words.register()
steps.after_move(battle.clear_stale)

