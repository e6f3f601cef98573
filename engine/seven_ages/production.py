"""2 Production (L473-545): income, maintenance, then building units, forts and one elite marker.

The go runs every player at once (L373 allows it: one empire's production never touches another's).
Its stages: income and maintenance happen as the marker is turned over; when the empire cannot pay
for every unit the player picks the units left unmaintained (``maintain``); then ``build`` until
:class:`~engine.seven_ages.actions.Done`. The building blocks (what a unit costs, where it may be
placed, the unit pool) serve Start empire's initial units too (:mod:`engine.seven_ages.start`).

Elephants, Nukes and Star Wars are the Kingdoms expansion's counters (L523-541): not in Classic.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from engine.core import Action, IllegalAction, PlayerId
from engine.seven_ages import modifiers, steps, trade_bars
from engine.seven_ages.actions import Build, BuildElite, Done, Fortify, Unmaintain
from engine.seven_ages.artefact_powers import RUTTERS, has_power
from engine.seven_ages.cards import Empire as Card
from engine.seven_ages.cards import load_deck
from engine.seven_ages.data import load_counters, load_tables
from engine.seven_ages.map import load_map
from engine.seven_ages.markers import BaseGoRules, GoHandler, MarkerStep, end_go
from engine.seven_ages.reach import SHIPS_OF_THE_LINE
from engine.seven_ages.state import LAST_LEVEL, MAX_MONEY, Empire, Go, SevenState
from engine.seven_ages.steps import Ctx
from engine.words import article

ELITE_MAX = 3  # L519
CITY_STEPS = (1, 3, 5, 7)  # L1000: "a 3-value city increases to 5"


def card_of(empire: Empire) -> Card:
    return load_deck().cards[empire.card].empire


def age_of(level: int) -> int:
    """The age of a progress level (past the 49th level: age 7)."""
    return load_tables().age_of(max(1, min(level, LAST_LEVEL)))


def empire_age(empire: Empire) -> int:
    return age_of(empire.progress)


def barbarian(empire: Empire, age: int | None = None) -> bool:
    """Whether the card's 'no cities' icon holds for the empire's age (L39, L2205)."""
    rule = card_of(empire).effect("no_cities_before")
    return rule is not None and (age if age is not None else empire_age(empire)) < int(rule["age"])


def round_half_up(numerator: int, denominator: int) -> int:
    """``numerator / denominator`` to the nearest whole number, 0.5 rounding up (L2197)."""
    return (2 * numerator + denominator) // (2 * denominator)


# -- income --------------------------------------------------------------------------------------

def area_income(state: SevenState, empire: Empire, area: str) -> int:
    """What one controlled area earns (L481-495): its terrain, its city, wheat and oil by age,
    doubled with a Populist; nothing while disordered. Option 16's artefacts change what its city earns and
    whether a disordered area earns (:mod:`engine.seven_ages.modifiers`)."""
    place = load_map().areas[area]
    if not place.land or place.terrain is None:
        return 0
    held = state.area(area)
    if held.disorder and not modifiers.counts_disordered(state, empire, area):
        return 0
    tables, age = load_tables(), empire_age(empire)
    terrain = tables.terrains[place.terrain]
    fertile_from = terrain.becomes_fertile_from_age
    if fertile_from is not None and age >= fertile_from:
        terrain = tables.terrains["fertile"]  # the forest disappears (L489)
    income = terrain.income + modifiers.city_income(state, empire, held.city)
    wheat = tables.modifiers["wheat"]
    if place.wheat and (terrain.name == "fertile" or age >= int(wheat["other_from_age"])):
        income += int(wheat["income"])
    oil = tables.modifiers["oil"]
    if place.oil and age >= int(oil["from_age"]):
        income += int(oil["income"])
    for special in card_of(empire).special:
        if special["code"] == "income_per_terrain" and special["terrain"] == place.terrain:
            income += int(special["amount"])
    if empire.has_leader("Populist", area):
        income *= 2
    return income


def income(state: SevenState, empire: Empire) -> int:
    """The empire's income this production: its areas' total, halved without a capital (L497) and as often
    as option 16's artefacts say, rounded once after all halving (L2197)."""
    total = sum(area_income(state, empire, a) for a in empire.areas())
    halves = (0 if empire.capital else 1) + modifiers.income_halvings(state, empire)
    return round_half_up(total, 2 ** halves)


def add_money(empire: Empire, amount: int) -> Empire:
    """With ``amount`` more money, kept within 0-199 (L479)."""
    return replace(empire, money=max(0, min(MAX_MONEY, empire.money + amount)))


# -- units ---------------------------------------------------------------------------------------

def unit_class(unit: str) -> str:
    return load_tables().unit_types[unit].unit_class


def pool(empire: Empire, unit: str) -> int:
    """Counters of ``unit``'s kind left in the empire's unit pool: its colour's mix less those on the
    map (a counter carries a unit on each side, L80)."""
    counters = load_counters()
    front = counters.front_of(unit)
    total = counters.mixes[empire.colour].counters.get(front, 0)
    on_map = sum(s.count for s in empire.units if counters.front_of(s.unit) == front)
    return total - on_map


AHEAD = "build_ahead:"
"""An empire flag ``build_ahead:N``: an event (Mechanica Miraculum, L1628) lets it build units N levels ahead
until its next Production is over."""


COST = "unit_cost:"
"""An empire flag ``unit_cost:<class>:<delta>``: an event played in its Production (Iron working) makes units
of a class cost ``delta`` more (negative: less) until that Production is over."""


def event_cost(e: Empire, unit_class: str) -> int:
    """What events played this Production add to the cost of a unit of ``unit_class``."""
    return sum(int(f.rsplit(":", 1)[1]) for f in e.flags if f.startswith(f"{COST}{unit_class}:"))


def with_event_cost(e: Empire, unit_class: str, delta: int) -> Empire:
    """``e`` with one more event changing the cost of ``unit_class`` (two cards add up, in one flag)."""
    total = event_cost(e, unit_class) + delta
    flags = [f for f in e.flags if not f.startswith(f"{COST}{unit_class}:")]
    return replace(e, flags=tuple(sorted([*flags, f"{COST}{unit_class}:{total}"])))


def ahead_levels(e: Empire) -> int:
    """Levels an event lets the empire build ahead now."""
    return sum(int(f[len(AHEAD):]) for f in e.flags if f.startswith(AHEAD))


def buildable_units(empire: Empire, state: SevenState | None = None) -> list[str]:
    """Unit types available at the empire's progress level (L505), or ahead of it by its card or an event
    (L1628), allowed by its icons until a first trade lifts them (L519); with ``state``, ships-of-the-line
    before their level for an empire with Rutters' power (option 16, L1903, E43 at L1388)."""
    tables = load_tables()
    card = card_of(empire)
    level = empire.progress + ahead_levels(empire) + sum(
        int(e["levels"]) for e in card.special if e["code"] == "build_ahead")
    out = []
    for name, ut in tables.unit_types.items():
        early = state is not None and name == SHIPS_OF_THE_LINE and has_power(state, empire, RUTTERS)
        if (ut.available > level and not early) or pool(empire, name) <= 0:
            continue
        if trade_bars.barred(empire, ut.unit_class):
            continue
        out.append(name)
    return out


def unit_cost(empire: Empire, unit: str, area: str, *, initial: bool = False,
              state: SevenState | None = None) -> int:
    """What one ``unit`` costs to build in ``area`` (L507): the class cost and the card's changes; 1
    less with an Administrator there (infantry only when that is the capital); at least 1; with ``state``,
    then as option 16's artefacts change it."""
    ut = load_tables().unit_types[unit]
    cost = ut.cost
    card = card_of(empire)
    cost += event_cost(empire, ut.unit_class)
    for e in card.special:
        if e["code"] == "unit_cost" and e["unit_class"] == ut.unit_class:
            cost += int(e["delta"])
        if initial and e["code"] == "initial_unit_cost" and e["unit_class"] == ut.unit_class:
            cost = int(e["cost"])  # L467
    if empire.has_leader("Administrator", area) and (ut.unit_class != "infantry" or area == empire.capital):
        cost -= 1
    cost = max(1, cost)
    return cost if state is None else modifiers.unit_cost(state, empire, ut.unit_class, cost)


def ship_area(state: SevenState, empire: Empire, area: str) -> bool:
    """Ships are built in coastal areas and sea (not ocean) areas the empire controls (L511)."""
    place = load_map().areas[area]
    if place.land:
        return load_map().coastal(area)
    return place.kind == "sea"


def placement_limit(state: SevenState, empire: Empire, area: str) -> int | None:
    """Most units built into ``area`` in one production (L513): any number with an Administrator,
    else the city's value, else 1 (None: no limit)."""
    if empire.has_leader("Administrator", area) or modifiers.any_placement(state):
        return None
    return state.area(area).city or 1


def can_place(state: SevenState, empire: Empire, unit: str, area: str,
              placed: Mapping[str, int] | None) -> bool:
    """Whether one more ``unit`` may be built into ``area`` (``placed``: this production's units by
    area; None at set-up, where any number may go in a start area, L445)."""
    if unit_class(unit) == "ships":
        if not ship_area(state, empire, area):
            return False
    elif not load_map().areas[area].land:
        return False
    if placed is None:
        return True
    limit = placement_limit(state, empire, area)
    return limit is None or placed.get(area, 0) < limit


def fort_cost(empire: Empire, area: str) -> int:
    """5 money, 4 with a Builder in the area (L517, the cost table L2838)."""
    fort = load_tables().costs["fort"]
    return int(fort["with_builder"] if empire.has_leader("Builder", area) else fort["cost"])


def elite_cost(empire: Empire) -> int:
    """3, or 1 per unit on the map not stacked with a Tactician, whichever is greater (L519, E14)."""
    elite = load_tables().costs["elite"]
    counted = sum(s.count for s in empire.units if not empire.has_leader("Tactician", s.area))
    return max(int(elite["minimum"]), int(elite["per_unit"]) * counted)


def fortifiable(state: SevenState, empire: Empire, areas: tuple[str, ...]) -> list[str]:
    if barbarian(empire):
        return []
    return [a for a in areas if load_map().areas[a].land and not state.area(a).fort
            and fort_cost(empire, a) <= empire.money]


def build_price(state: SevenState, empire: Empire, cost: int, count: int, full: int, *,
                initial: bool = False) -> int:
    """What ``count`` units of ``cost`` each cost now, this Production's units so far having cost ``full``
    at full price: in Start empire their price, in Production as option 16 changes it (L1526, L1992)."""
    return cost * count if initial else modifiers.build_total(state, empire, full, full + cost * count)


def most_builds(state: SevenState, empire: Empire, unit: str, area: str,
                placed: Mapping[str, int] | None, *, initial: bool = False, full: int = 0) -> int:
    """How many ``unit`` the empire may build into ``area`` now, as one move: as many as its money,
    its pool and the area's placement limit allow (0: none); ``full``: this Production's units so far at
    full price."""
    if unit not in buildable_units(empire, state) or not can_place(state, empire, unit, area, placed):
        return 0
    cost = unit_cost(empire, unit, area, initial=initial, state=state)
    most = min(empire.money // cost, pool(empire, unit))
    if not initial and modifiers.halves_unit_costs(state, empire):
        most = pool(empire, unit)
        while most and build_price(state, empire, cost, most, full) > empire.money:
            most -= 1
    limit = None if placed is None else placement_limit(state, empire, area)
    if limit is not None and placed is not None:
        most = min(most, limit - placed.get(area, 0))
    return max(0, most)


def build_moves(state: SevenState, empire: Empire, seat: PlayerId, areas: tuple[str, ...],
                placed: Mapping[str, int] | None, *, initial: bool = False, full: int = 0) -> list[Action]:
    """Every build the empire may make now: each type, each area it may go to, each count from 1 to
    :func:`most_builds` (its pool bounds the list: a colour's mix holds a few counters of a kind)."""
    return [Build(seat, unit, area, n) for unit in buildable_units(empire, state) for area in areas
            for n in range(1, most_builds(state, empire, unit, area, placed, initial=initial, full=full) + 1)]


def build(ctx: Ctx, empire: Empire, action: Build, areas: tuple[str, ...],
          placed: Mapping[str, int] | None, *, initial: bool = False, full: int = 0) -> Empire:
    """Build ``action.count`` units: checked, paid for, placed (``full``: this Production's units so far at
    full price). Returns the empire as it now is."""
    if action.unit not in load_tables().unit_types:
        raise IllegalAction("no_such_unit", "There is no such unit.")
    if action.area not in areas:
        raise IllegalAction("not_your_area", f"Your empire cannot build in {action.area}.")
    if action.count < 1:
        raise IllegalAction("bad_count", "Build at least one unit.")
    if action.unit not in buildable_units(empire, ctx.state):
        raise IllegalAction("unit_unavailable", f"Your empire cannot build {article(action.unit)} now: it "
                            "is not available at its progress level, barred by its card, or none is left in "
                            "its pool.")
    if not can_place(ctx.state, empire, action.unit, action.area, placed):
        raise IllegalAction("placement_limit", f"No more units may be placed in {action.area} now "
                            "(ships only on coasts and seas; otherwise up to the city's value, 1 without "
                            "one).")
    cost = unit_cost(empire, action.unit, action.area, initial=initial, state=ctx.state)
    most = most_builds(ctx.state, empire, action.unit, action.area, placed, initial=initial, full=full)
    if action.count > most:
        raise IllegalAction("too_many", f"Your empire can build at most {most} {action.unit} in "
                            f"{action.area} now ({cost} money each; its money, its pool and the area's "
                            "placement limit decide).")
    price = build_price(ctx.state, empire, cost, action.count, full, initial=initial)
    empire = replace(empire, money=empire.money - price).add_units(action.area, action.unit, action.count)
    ctx.state = ctx.state.with_empire(empire)
    ctx.emit("unit_built", seat=empire.owner, empire=empire.card, unit=action.unit, area=action.area,
             cost=price, count=action.count)
    return empire


def fortify(ctx: Ctx, empire: Empire, area: str, areas: tuple[str, ...]) -> Empire:
    if area not in fortifiable(ctx.state, empire, areas):
        raise IllegalAction("cannot_fortify", f"Your empire cannot fortify {area} now (a Barbarian empire "
                            "cannot; an area takes one fort; a fort costs 5, 4 with a Builder).")
    cost = fort_cost(empire, area)
    empire = replace(empire, money=empire.money - cost)
    ctx.state = ctx.state.with_empire(empire).with_area(replace(ctx.state.area(area), fort=True))
    ctx.emit("fort_built", seat=empire.owner, empire=empire.card, area=area, cost=cost)
    return empire


# -- the go ----------------------------------------------------------------------------------------

def maintenance(state: SevenState, empire: Empire) -> int:
    """1 money per unit on the map; Barbarians' units cost nothing (L499-503); as option 16's artefacts
    change it."""
    if barbarian(empire):
        return 0
    per_area: dict[str, int] = {}
    for s in empire.units:
        per_area[s.area] = per_area.get(s.area, 0) + s.count
    return modifiers.upkeep(state, empire, per_area)


INCOME, UPKEEP, ACTED = "income", "upkeep", "acted"
"""Go data: this production's income and the maintenance paid out of it (an event may change the income
while nothing is built yet), and whether anything was built, fortified or bought."""
FULL = "full"
"""Go data while World war halves the total cost of new units (option 16, L1992): what this Production's
units would have cost at full price, so each build pays its share of the halved total."""
PERCENTS = "percents"
"""Go data set before the go begins: the percents its income is to be collected at (Corrupt administration,
armed by another player and fired as the marker is turned over, :mod:`engine.seven_ages.armed`)."""


def _event_flag(flag: str) -> bool:
    return flag.startswith((AHEAD, COST))


class ProductionRules(BaseGoRules):
    action = "production"
    parallel = True
    own_events = True
    events_when = "Production events are played as your go begins, before anything is built."
    not_part = ("wrong_step", "That is not part of a production.")

    @property
    def handlers(self) -> Mapping[type[Action], GoHandler]:
        return {Unmaintain: self._unmaintain_move, Build: self._build, Fortify: self._fortify,
                BuildElite: self._elite, Done: self._done}

    def begin(self, ctx: Ctx, go: Go) -> None:
        e = ctx.state.empire(go.empire)
        earned = income(ctx.state, e)
        for percent in go.data.get(PERCENTS, []):  # another player's armed event, fired as the go began
            now = round_half_up(earned * int(percent), 100)
            ctx.emit("income_changed", seat=go.seat, empire=e.card, percent=int(percent), was=earned, now=now,
                     money=e.money + now)
            earned = now
        e = add_money(e, earned)
        ctx.state = ctx.state.with_empire(e)
        ctx.emit("income", seat=go.seat, empire=e.card, amount=earned, money=e.money)
        self._maintain(ctx, replace(go, data={INCOME: earned}), e)

    def opening(self, state: SevenState, go: Go) -> bool:
        """Before anything is built, fortified or bought, and before a unit is left unmaintained."""
        if go.stage == "maintain":
            return not go.data["left"]
        return go.stage == "build" and not go.data.get(ACTED)

    def _maintain(self, ctx: Ctx, go: Go, e: Empire) -> None:
        due = maintenance(ctx.state, e)
        if due > e.money:
            ctx.state = ctx.state.with_go(replace(go, stage="maintain", data={
                **go.data, "left": [], "placed": {}, UPKEEP: 0}))
            return
        e = replace(e, money=e.money - due)
        ctx.state = ctx.state.with_empire(e)
        if due:
            ctx.emit("maintained", seat=go.seat, empire=e.card, cost=due)
        ctx.state = ctx.state.with_go(replace(go, stage="build", data={
            **go.data, "placed": {}, "elite": False, UPKEEP: due}))

    def rework_income(self, ctx: Ctx, go: Go, percent: int) -> Go:
        """An event makes this production's income ``percent`` of what it was (L2197: rounded half up):
        the difference is paid or taken back, then maintenance is settled again out of the new total (so a
        halved income may leave units unmaintained). Returns the go, at the stage that follows."""
        e = ctx.state.empire(go.empire)
        was = int(go.data.get(INCOME, 0))
        now = round_half_up(was * percent, 100)
        e = add_money(e, int(go.data.get(UPKEEP, 0)) + now - was)
        ctx.state = ctx.state.with_empire(e)
        ctx.emit("income_changed", seat=go.seat, empire=e.card, percent=percent, was=was, now=now,
                 money=e.money)
        self._maintain(ctx, replace(go, data={**go.data, INCOME: now, UPKEEP: 0}), e)
        new = ctx.state.go_of(go.seat)
        assert new is not None
        return new

    def legal(self, state: SevenState, go: Go) -> list[Action]:
        e = state.empire(go.empire)
        if go.stage == "maintain":
            return [Unmaintain(go.seat, s.unit, s.area) for s in e.units]
        placed = go.data["placed"]
        moves = build_moves(state, e, go.seat, e.areas(), placed, full=int(go.data.get(FULL, 0)))
        moves += [Fortify(go.seat, a) for a in fortifiable(state, e, e.areas())]
        if not go.data["elite"] and e.elite < ELITE_MAX and elite_cost(e) <= e.money:
            moves.append(BuildElite(go.seat))
        return [*moves, Done(go.seat)]

    @staticmethod
    def _maintained(go: Go) -> None:
        """Refuse anything but choosing the units not maintained while the empire cannot pay for all."""
        if go.stage == "maintain":
            raise IllegalAction("must_unmaintain", "Your empire cannot pay for all its units: choose "
                                "which are not maintained first.")

    def _acted(self, ctx: Ctx, go: Go) -> Go:
        """Something is built: the income is settled for good."""
        self._maintained(go)
        go = replace(go, data={**go.data, ACTED: True})
        ctx.state = ctx.state.with_go(go)
        return go

    def _unmaintain_move(self, ctx: Ctx, go: Go, action: Unmaintain) -> None:
        if go.stage != "maintain":
            raise IllegalAction(*self.not_part)
        self._unmaintain(ctx, go, ctx.state.empire(go.empire), action)

    def _build(self, ctx: Ctx, go: Go, action: Build) -> None:
        go = self._acted(ctx, go)
        e = ctx.state.empire(go.empire)
        full = int(go.data.get(FULL, 0))
        build(ctx, e, action, e.areas(), go.data["placed"], full=full)
        placed = dict(go.data["placed"])
        placed[action.area] = placed.get(action.area, 0) + action.count
        data = {**go.data, "placed": placed}
        if modifiers.halves_unit_costs(ctx.state, e):  # the halved total is counted over the whole Production
            data[FULL] = full + action.count * unit_cost(e, action.unit, action.area, state=ctx.state)
        ctx.state = ctx.state.with_go(replace(go, data=data))

    def _fortify(self, ctx: Ctx, go: Go, action: Fortify) -> None:
        self._acted(ctx, go)
        e = ctx.state.empire(go.empire)
        fortify(ctx, e, action.area, e.areas())

    def _elite(self, ctx: Ctx, go: Go, action: BuildElite) -> None:
        go = self._acted(ctx, go)
        e = ctx.state.empire(go.empire)
        if go.data["elite"] or e.elite >= ELITE_MAX:
            raise IllegalAction("elite_limit", "An empire builds one elite marker a production, and has "
                                "at most 3.")
        cost = elite_cost(e)
        if cost > e.money:
            raise IllegalAction("cannot_pay", f"An elite marker costs {cost} and your empire has {e.money}.")
        ctx.state = ctx.state.with_empire(replace(e, money=e.money - cost, elite=e.elite + 1))
        ctx.state = ctx.state.with_go(replace(go, data={**go.data, "elite": True}))
        ctx.emit("elite_built", seat=go.seat, empire=e.card, cost=cost)

    def _done(self, ctx: Ctx, go: Go, action: Done) -> None:
        self._maintained(go)
        e = ctx.state.empire(go.empire)
        if any(_event_flag(f) for f in e.flags):  # events' levels ahead and costs last this Production
            kept = tuple(f for f in e.flags if not _event_flag(f))
            ctx.state = ctx.state.with_empire(replace(e, flags=kept))
        end_go(ctx, go.seat)

    def _unmaintain(self, ctx: Ctx, go: Go, e: Empire, action: Unmaintain) -> None:
        if e.count(action.area, action.unit) <= 0:
            raise IllegalAction("no_such_unit", f"Your empire has no {action.unit} in {action.area}.")
        e = e.add_units(action.area, action.unit, -1)
        left: list[Any] = [*go.data["left"], action.area]
        ctx.state = ctx.state.with_empire(e)
        ctx.emit("unit_unmaintained", seat=go.seat, empire=e.card, unit=action.unit, area=action.area)
        returned = modifiers.unit_returned_money(ctx.state, e)
        if returned:  # worded with the other powers' money (engine.seven_ages.power_events)
            e = add_money(e, returned)
            ctx.state = ctx.state.with_empire(e)
            ctx.emit("power_money", empire=e.card, money=returned, artefact=modifiers.SOCIALISM)
        if maintenance(ctx.state, e) > e.money:
            ctx.state = ctx.state.with_go(replace(go, data={**go.data, "left": left}))
            return
        # Disorder each land area where units were not maintained, unless now vacant (L503).
        for area in sorted(set(left)):
            if e.count(area) and load_map().areas[area].land:
                ctx.state = ctx.state.with_area(replace(ctx.state.area(area), disorder=True))
                ctx.emit("disordered", empire=e.card, area=area)
        self._maintain(ctx, replace(go, stage=""), ctx.state.empire(go.empire))

    def passive(self, state: SevenState, go: Go) -> Action:
        if go.stage == "maintain":
            e = state.empire(go.empire)
            s = e.units[-1]
            return Unmaintain(go.seat, s.unit, s.area)
        return Done(go.seat)


RULES = ProductionRules()
steps.register(MarkerStep(RULES))
