"""1 Start empire (L379-471): play a card from the hand and set its empire up.

Only the additional marker (on no empire) starts an empire (L347-349). The go's stages, each a
decision only when the rules leave one:

``card`` (:class:`StartCard`) -> ``setup`` (a choice of progress the card offers, E4) ->
``colour`` (a dedicated colour first, L399) -> ``leader`` (one named leader of the starting age,
L429) -> ``build`` (initial units, paid as in Production, any number per start area, L431-435)
-> conversions (automatic, L437-441) -> ``capital`` (L449-455; a Barbarian with homeland glory
names its homeland instead, L457) -> ``forts`` (paid, L459) -> ``free_forts`` (L465).

Readings (see ``data/seven_ages/README.md``): other empires' units left unconverted in a start area
where the new empire set up units are fought over after the conversions, before the capital (L445,
:mod:`engine.seven_ages.battle`); the first city the new empire liberates becomes its capital (L777).
No card of our deck has free manoeuvres after set-up (L469).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from engine.core import Action, IllegalAction, PlayerId
from engine.seven_ages import battle, battle_ai, progress_markers, steps
from engine.seven_ages.actions import (
    Build,
    ChooseColour,
    ChooseLeader,
    Done,
    Fortify,
    FreeFort,
    PlaceCapital,
    SetupChoice,
    StartCard,
    TurnMarker,
)
from engine.seven_ages.cards import Empire as Card
from engine.seven_ages.cards import load_deck, named_leaders
from engine.seven_ages.conflict_moves import ACTIONS as FIGHT_ACTIONS
from engine.seven_ages.data import load_counters, load_tables
from engine.seven_ages.manoeuvre_moves import CanalAnswer, PayToll
from engine.seven_ages.map import load_map
from engine.seven_ages.markers import START_CARD, BaseGoRules, GoHandler, MarkerStep, end_go, turnable
from engine.seven_ages.production import (
    add_money,
    age_of,
    barbarian,
    build,
    build_moves,
    fortifiable,
    fortify,
    pool,
    unit_class,
)
from engine.seven_ages.state import WILD, Empire, Go, Leader, Marker, Pending, SevenState
from engine.seven_ages.steps import Ctx

BEHIND = "behind"  # the Byzantines' choice: 2 behind the leader (E4)
LEVEL_WITH = "level with "  # ... or level with one of the named empires


def game_age(state: SevenState) -> int | None:
    """The age of the most advanced empire (L389); None with an empty map."""
    level = state.most_advanced()
    return age_of(level) if level else None


def names_in_play(state: SevenState) -> set[str]:
    cards = load_deck().cards
    return {cards[e.card].empire.name for e in state.empires}


def first_level(age: int) -> int:
    return load_tables().ages[age - 1].first


def forced_start_age(state: SevenState) -> int | None:
    """The age the game's first empire must start in: 1 under option 1 (L1158), else the lobby's start
    age when it is above 1; None when any card may open the game (L411)."""
    if state.started_count:
        return None
    if state.options.get("total_history"):
        return 1
    age = int(state.options.get("start_age", 1))
    return age if age > 1 else None


def eligible(state: SevenState, card: Card) -> bool:
    """Whether ``card``'s empire may start now (L387-413)."""
    forced = forced_start_age(state)
    age = game_age(state)
    if forced is not None and not state.empires:
        return card.ages[0] <= forced <= card.ages[1]
    if age is None:
        return card.effect("setup_near_empire") is None  # L413: the Pirate State needs another empire
    cond = card.effect("conditional_age")
    if not card.ages[0] <= age <= card.ages[1] and not (
            cond is not None and int(cond["age"]) == age and cond["if_in_play"] in names_in_play(state)):
        return False
    near = card.effect("setup_near_empire")
    return near is None or _near_other(state, card, int(near["within"]))


def _near_other(state: SevenState, card: Card, within: int) -> bool:
    """Whether another empire has an area within ``within`` areas of a start area (L413)."""
    adjacency = load_map().adjacency
    others = {a for e in state.empires for a in e.areas()}
    frontier = set(card.starts)
    seen = set(frontier)
    for _ in range(within + 1):
        if frontier & others:
            return True
        frontier = {n for a in frontier for n in adjacency[a]} - seen
        seen |= frontier
    return False


def progress_options(state: SevenState, card: Card) -> dict[str, int]:
    """The progress levels the empire may start on, by the name of the choice ("" when there is none)."""
    forced = forced_start_age(state)
    if not state.empires:
        age = forced if forced is not None else card.ages[0]
        return {"": first_level(age) + max(0, card.setup)}  # L411
    lead = state.most_advanced()
    rel = card.effect("setup_relative")
    if rel is None:
        return {"": max(1, lead + card.setup)}  # L403-405
    options = {BEHIND: max(1, lead - int(rel["behind"]))}
    cards = load_deck().cards
    for e in state.empires:
        name = cards[e.card].empire.name
        if name in rel["empires"]:
            options[LEVEL_WITH + name] = max(1, min(e.progress, 49))
    return options


def start_areas(state: SevenState, card: Card) -> tuple[str, ...]:
    """The card's start areas, with the coastal areas it also takes (the Byzantines, E4)."""
    areas = list(card.starts)
    rule = card.effect("starts_coastal_of")
    if rule is not None:
        wmap = load_map()
        cards = load_deck().cards
        for e in state.empires:
            if cards[e.card].empire.name in rule["empires"]:
                areas += [a for a in e.areas() if wmap.areas[a].land and rule["sea"] in wmap.seas_of(a)]
    return tuple(dict.fromkeys(areas))


def colours_for(state: SevenState, seat: PlayerId) -> list[str]:
    """The colours ``seat`` may start an empire in: a free dedicated one if any, else a free colour
    nobody has dedicated (L325-327, L399)."""
    counters = load_counters()
    used = {e.colour for e in state.empires}
    mine = state.people[seat].group
    dedicated = [m.name for m in counters.mixes.values() if m.group == mine and m.name not in used]
    if dedicated:
        return dedicated
    groups = {p.group for p in state.people}
    return [m.name for m in counters.mixes.values() if m.group not in groups and m.name not in used]


def startable(state: SevenState, seat: PlayerId) -> list[int]:
    """The cards in ``seat``'s hand they may start an empire with now."""
    if not colours_for(state, seat):
        return []
    cards = load_deck().cards
    return [c for c in state.people[seat].hand
            if not state.has_empire(c) and eligible(state, cards[c].empire)]


_PAST_CONFLICTS = frozenset({"capital", "homeland", "forts", "free_forts"})
"""A Start go's stages after its start areas' conflicts (L445-465): the seat alone decides the rest."""


def alone_to_the_end(state: SevenState, seat: PlayerId) -> bool:
    """Whether ``seat``'s part of Start can ask no other seat, from what every seat sees: its go is past the
    start areas' conflicts (a conflict asks the empires there, L445), or it has no go and no card (so it can
    only pass). A seat holding a card may start an empire whose start areas nobody knows yet: a conflict
    may follow, so that is never answered yes, whatever the hand holds."""
    go = state.go_of(seat)
    if go is None:
        return not state.people[seat].hand
    return go.stage in _PAST_CONFLICTS


def _card(go: Go) -> int:
    return int(go.data.get("card", 0))


class StartRules(BaseGoRules):
    action = "start"
    extra_ok = True
    on_empire = False

    @property
    def handlers(self) -> Mapping[type[Action], GoHandler]:
        """Each stage's moves by class (:meth:`apply` has checked that the move is legal at the stage); a
        conflict's moves and a window's Range asked through (L2233) are the conflict's
        (:func:`battle.handled`)."""
        moves: dict[type[Action], GoHandler] = {
            StartCard: self._card_move, SetupChoice: self._setup_move, ChooseColour: self._colour_move,
            ChooseLeader: self._leader_move, Build: self._build_move, Done: self._done,
            PlaceCapital: self._capital_move, Fortify: self._fortify_move, FreeFort: self._free_fort}
        return {**{cls: self.unlisted for cls in (*FIGHT_ACTIONS, CanalAnswer, PayToll)}, **moves}

    def usable(self, state: SevenState, marker: Marker) -> bool:
        return bool(startable(state, marker.owner))

    def begin(self, ctx: Ctx, go: Go) -> None:
        ctx.state = ctx.state.with_go(replace(go, stage="card"))
        number = int(go.data.get(START_CARD, 0))
        if number in startable(ctx.state, go.seat):  # the card played with the turn (still startable)
            now = ctx.state.go_of(go.seat)
            assert now is not None
            self._play(ctx, now, number)

    def turns(self, state: SevenState, seat: PlayerId, index: int) -> list[Action]:
        """Turning the marker over, and turning it over starting each empire it may start, in one move (the
        card stage answered with the turn). Every seat able to turn it over is offered both, so neither
        tells anyone how many empires the hand could start; a lone startable empire's comes first. With
        several markers able to start (a wild card besides), the starts go with one of them, the Start
        marker before a wild card, so each start is offered once (the plain turns pick the marker)."""
        plain: list[Action] = [TurnMarker(seat, index)]
        able = turnable(state, self, seat)
        chosen = next((j for j in able if state.markers[j].action != WILD), able[0] if able else index)
        if index != chosen:
            return plain
        merged: list[Action] = [TurnMarker(seat, index, start=c) for c in startable(state, seat)]
        return [*merged, *plain] if len(merged) == 1 else [*plain, *merged]

    def hand_offered(self, state: SevenState, go: Go) -> bool:
        """The empire cards of the hand are offered at the ``card`` stage: asked whatever the hand holds."""
        return go.stage == "card"

    # -- the moves of each stage ---------------------------------------------------------------
    def legal(self, state: SevenState, go: Go) -> list[Action]:
        seat, stage = go.seat, go.stage
        if stage in battle.STAGES:  # the start-area conflicts (L445)
            return battle.legal(state, go)
        if stage == "card":
            return [StartCard(seat, c) for c in startable(state, seat)]
        if stage == "setup":
            return [SetupChoice(seat, k) for k in go.data["choices"]]
        if stage == "colour":
            return [ChooseColour(seat, c) for c in colours_for(state, seat)]
        e = state.empire(_card(go))
        areas = tuple(go.data["areas"])
        if stage == "leader":
            return [ChooseLeader(seat, "", ""), *(ChooseLeader(seat, ld["name"], a)
                                                  for ld in self._leaders(state, e) for a in areas)]
        if stage == "build":
            return [*build_moves(state, e, seat, self._build_areas(areas), None, initial=True), Done(seat)]
        if stage in ("capital", "homeland"):
            return [PlaceCapital(seat, a) for a in self._capital_areas(state, e, areas)]
        if stage == "forts":
            return [*(Fortify(seat, a) for a in fortifiable(state, e, areas)), Done(seat)]
        if stage == "free_forts":
            return [FreeFort(seat, a) for a in self._free_fort_areas(state, areas)]
        return []

    def pending_legal(self, state: SevenState, pending: Pending) -> list[Action]:
        return battle.pending_legal(state, pending) or []

    def pending_passive(self, state: SevenState, pending: Pending) -> Action:
        move = battle_ai.pending_passive(state, pending)
        assert move is not None, f"no pending decision {pending.kind} in a Start empire go"
        return move

    def passive(self, state: SevenState, go: Go) -> Action:
        if go.stage in battle.STAGES:
            return battle.passive(state, go)
        legal = self.legal(state, go)
        done = [a for a in legal if isinstance(a, Done) or (isinstance(a, ChooseLeader) and not a.name)]
        return done[0] if done else legal[0]

    def apply(self, ctx: Ctx, go: Go, action: Action) -> None:
        """A conflict's move (or an answer to it) first, whatever its class; then a move legal at the
        go's stage, by its class."""
        if battle.handled(ctx, go, action):
            return
        if action not in self.legal(ctx.state, go):
            raise IllegalAction("not_now", self._refusal(go))
        super().apply(ctx, go, action)

    def _card_move(self, ctx: Ctx, go: Go, action: StartCard) -> None:
        self._play(ctx, go, action.card)

    def _setup_move(self, ctx: Ctx, go: Go, action: SetupChoice) -> None:
        self._progress(ctx, go, go.data["choices"][action.choice])

    def _colour_move(self, ctx: Ctx, go: Go, action: ChooseColour) -> None:
        self._colour(ctx, go, action.colour)

    def _leader_move(self, ctx: Ctx, go: Go, action: ChooseLeader) -> None:
        self._leader(ctx, go, action)

    def _build_move(self, ctx: Ctx, go: Go, action: Build) -> None:
        e = ctx.state.empire(_card(go))
        build(ctx, e, action, self._build_areas(tuple(go.data["areas"])), None, initial=True)

    def _done(self, ctx: Ctx, go: Go, action: Done) -> None:
        """The units are placed (the ``build`` stage), or the forts built (``forts``)."""
        if go.stage == "build":
            self._after_units(ctx, go)
        else:
            self._free_forts(ctx, go)

    def _capital_move(self, ctx: Ctx, go: Go, action: PlaceCapital) -> None:
        self._capital(ctx, go, action.area, homeland_only=go.stage == "homeland")

    def _fortify_move(self, ctx: Ctx, go: Go, action: Fortify) -> None:
        fortify(ctx, ctx.state.empire(_card(go)), action.area, tuple(go.data["areas"]))

    def _free_fort(self, ctx: Ctx, go: Go, action: FreeFort) -> None:
        ctx.state = ctx.state.with_area(replace(ctx.state.area(action.area), fort=True))
        ctx.emit("fort_built", seat=go.seat, empire=_card(go), area=action.area, cost=0)
        self._free_forts(ctx, replace(go, data={**go.data, "free": int(go.data["free"]) - 1}))

    @staticmethod
    def _refusal(go: Go) -> str:
        return {
            "card": "You cannot start that card's empire now (its ages, its conditions, or no free colour).",
            "setup": "Choose one of the set-up options the card gives.",
            "colour": "You must choose one of your free dedicated colours if you have one, else a free "
                      "colour nobody has dedicated.",
            "leader": "Choose a named leader of this age for a start area, or none.",
            "build": "Your empire cannot build that unit there (its level, its pool, its money, ships on "
                     "coasts only).",
            "capital": "Place the capital in one of the empire's start areas.",
            "homeland": "Name one of the empire's start areas as its homeland.",
            "forts": "Fortify a start area without a fort that the empire can pay for, or finish.",
            "free_forts": "Put the free fort in a start area without a fort.",
        }.get(go.stage, "That is not part of starting an empire.")

    # -- each stage's effect ----------------------------------------------------------------------
    def _play(self, ctx: Ctx, go: Go, number: int) -> None:
        s = ctx.state
        card = load_deck().cards[number].empire
        p = s.people[go.seat]
        ctx.state = s.with_player(replace(p, hand=tuple(c for c in p.hand if c != number)))
        ctx.emit("card_played", seat=go.seat, card=number, empire=card.name)
        choices = progress_options(ctx.state, card)
        data = {"card": number, "areas": list(start_areas(ctx.state, card)), "free": 0}
        go = replace(go, data=data)
        if len(choices) > 1:
            ctx.state = ctx.state.with_go(replace(go, stage="setup", data={**data, "choices": choices}))
            return
        self._progress(ctx, go, next(iter(choices.values())))

    def _progress(self, ctx: Ctx, go: Go, level: int) -> None:
        data = {k: v for k, v in go.data.items() if k != "choices"}
        go = replace(go, stage="colour", data={**data, "progress": level})
        colours = colours_for(ctx.state, go.seat)
        if len(colours) == 1:
            self._colour(ctx, go, colours[0])
            return
        ctx.state = ctx.state.with_go(go)

    def _colour(self, ctx: Ctx, go: Go, colour: str) -> None:
        s = ctx.state
        number = _card(go)
        card = load_deck().cards[number].empire
        level = int(go.data["progress"])
        empire = add_money(Empire(card=number, owner=go.seat, colour=colour, progress=level, started=s.turn),
                           card.money)
        elites = card.effect("elite_markers")
        if elites is not None:
            empire = replace(empire, elite=min(3, int(elites["count"])))  # L437, at most 3 (L527)
        ctx.state = replace(s.with_empire(empire), started_count=s.started_count + 1)
        ctx.emit("empire_started", seat=go.seat, empire=number, name=card.name, colour=colour,
                 progress=level, money=empire.money)
        if not s.started_count:  # option 16: a game starting late has blue markers on the track (L1388)
            progress_markers.opening(ctx, empire)
        go = replace(go, stage="leader")
        if not self._leaders(ctx.state, empire):
            self._to_build(ctx, go)
            return
        ctx.state = ctx.state.with_go(go)

    @staticmethod
    def _leaders(state: SevenState, empire: Empire) -> list[Mapping[str, Any]]:
        """The card's named leaders of the empire's age not already on the map (L429)."""
        age = age_of(empire.progress)
        on_map = {ld.name for e in state.empires for ld in e.leaders}
        return [ld for ld in named_leaders().get(empire.card, ())
                if int(ld["age"]) == age and ld["name"] not in on_map]

    def _leader(self, ctx: Ctx, go: Go, action: ChooseLeader) -> None:
        if action.name:
            e = ctx.state.empire(_card(go))
            ld = next(ld for ld in self._leaders(ctx.state, e) if ld["name"] == action.name)
            leader = Leader(action.name, tuple(ld["abilities"]), action.area, named=True)
            ctx.state = ctx.state.with_empire(replace(e, leaders=(*e.leaders, leader)))
            ctx.emit("leader_placed", seat=go.seat, empire=e.card, leader=action.name, area=action.area)
        self._to_build(ctx, go)

    def _to_build(self, ctx: Ctx, go: Go) -> None:
        ctx.state = ctx.state.with_go(replace(go, stage="build"))

    @staticmethod
    def _build_areas(areas: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(a for a in areas if load_map().areas[a].land)

    def _after_units(self, ctx: Ctx, go: Go) -> None:
        e = ctx.state.empire(_card(go))
        card = load_deck().cards[e.card].empire
        areas = tuple(go.data["areas"])
        convert = card.effect("convert_units")
        if convert is not None:
            convert_start_areas(ctx, e, areas, tuple(convert["classes"]))
        go = ctx.state.go_of(go.seat) or go
        # unconverted units in a start area: resolve conflict there (L445), then the capital
        battle.after_movement(ctx, go)

    def after_conflicts(self, ctx: Ctx, go: Go) -> None:
        """The start areas' conflicts are resolved (or there were none): the capital (L449-455) and forts."""
        e = ctx.state.empire(_card(go))
        card = load_deck().cards[e.card].empire
        areas = tuple(go.data["areas"])
        free = card.effect("free_forts")
        go = replace(go, data={**go.data, "free": int(free["count"]) if free else 0})
        if e.capital is None and self._capital_areas(ctx.state, e, areas):
            if not barbarian(e):
                self._ask_place(ctx, replace(go, stage="capital"), e, areas)
                return
            if card.category("homeland") is not None:
                self._ask_place(ctx, replace(go, stage="homeland"), e, areas)
                return
        self._to_forts(ctx, go)

    def _ask_place(self, ctx: Ctx, go: Go, e: Empire, areas: tuple[str, ...]) -> None:
        options = self._capital_areas(ctx.state, e, areas)
        if len(options) == 1:
            self._capital(ctx, go, options[0], homeland_only=go.stage == "homeland")
            return
        ctx.state = ctx.state.with_go(go)

    @staticmethod
    def _capital_areas(state: SevenState, e: Empire, areas: tuple[str, ...]) -> list[str]:
        """Start areas no other empire holds; those with the empire's own units first if any."""
        free = [a for a in areas if load_map().areas[a].land and
                all(o.card == e.card for o in state.occupants(a))]
        held = [a for a in free if e.count(a)]
        return held or free

    def _capital(self, ctx: Ctx, go: Go, area: str, *, homeland_only: bool) -> None:
        e = ctx.state.empire(_card(go))
        if homeland_only:
            ctx.state = ctx.state.with_empire(replace(e, homeland=area))
            ctx.emit("homeland_named", seat=go.seat, empire=e.card, area=area)
        else:
            age = age_of(e.progress)
            value = max(load_tables().ages[age - 1].max_city, ctx.state.area(area).city)  # L453
            ctx.state = ctx.state.with_empire(replace(e, capital=area, homeland=area)).with_area(
                replace(ctx.state.area(area), city=value))
            ctx.emit("capital_placed", seat=go.seat, empire=e.card, area=area, value=value)
        self._to_forts(ctx, go)

    def _to_forts(self, ctx: Ctx, go: Go) -> None:
        e = ctx.state.empire(_card(go))
        if fortifiable(ctx.state, e, tuple(go.data["areas"])):
            ctx.state = ctx.state.with_go(replace(go, stage="forts"))
            return
        self._free_forts(ctx, go)

    def _free_forts(self, ctx: Ctx, go: Go) -> None:
        areas = tuple(go.data["areas"])
        if int(go.data["free"]) > 0 and self._free_fort_areas(ctx.state, areas):
            ctx.state = ctx.state.with_go(replace(go, stage="free_forts"))
            return
        end_go(ctx, go.seat)

    @staticmethod
    def _free_fort_areas(state: SevenState, areas: tuple[str, ...]) -> list[str]:
        return [a for a in areas if load_map().areas[a].land and not state.area(a).fort]


def convert_start_areas(ctx: Ctx, new: Empire, areas: tuple[str, ...], classes: tuple[str, ...]) -> None:
    """The card converts other empires' units of ``classes`` in its start areas to the same types of its
    own (while its pool has them), with their leaders, forts and cities; a Barbarian destroys the
    cities instead (L437-441). A converted city becomes the capital if the empire has none."""
    for area in areas:
        for old in ctx.state.occupants(area):
            if old.card == new.card:
                continue
            new = ctx.state.empire(new.card)
            for stack in [s for s in old.units if s.area == area and unit_class(s.unit) in classes]:
                n = min(stack.count, pool(new, stack.unit))
                if n <= 0:
                    continue
                old = old.add_units(area, stack.unit, -n)
                new = new.add_units(area, stack.unit, n)
                ctx.emit("units_converted", empire=new.card, other=old.card, unit=stack.unit, area=area,
                         count=n)
            moved = old.leaders_in(area)
            if moved and not old.count(area):
                old = replace(old, leaders=tuple(ld for ld in old.leaders if ld.area != area))
                new = replace(new, leaders=new.leaders + moved)
            if not old.count(area):
                city = ctx.state.area(area).city
                if city and barbarian(new):
                    ctx.state = ctx.state.with_area(replace(ctx.state.area(area), city=0))
                    ctx.emit("city_destroyed", empire=new.card, area=area)
                elif city and new.capital is None:
                    new = replace(new, capital=area, homeland=area)
                    ctx.emit("capital_converted", empire=new.card, area=area, value=city)
                if old.capital == area:
                    old = replace(old, capital=None)
            ctx.state = ctx.state.with_empire(old).with_empire(new)


def _continue_start(ctx: Ctx, go: Go) -> bool:
    """After the start areas' conflicts, a Start empire go goes on with the capital (L445-449)."""
    if go.action != "start":
        return False
    RULES.after_conflicts(ctx, ctx.state.go_of(go.seat) or go)
    return True


RULES = StartRules()
steps.register(MarkerStep(RULES))
battle.AFTER_CONFLICTS.append(_continue_start)
