"""7 Ages action 6, Civilise (L855-1008): pure rules.

What a civilising empire may do, in the rulebook's order: play event and
artefact cards, remove one leader and promote one, adopt a religion or a
government, discard one, modernise, remove disorder, urbanise. Each rule here
is a function of small inputs (levels, city values, counts); the game's steps
call them and turn a refusal into an IllegalAction a player reads.

Artefacts are in the standard mode unless option 16 is on (L923-931: their only
effect is glory; option 16's powers are in :mod:`engine.seven_ages.modifiers`).
Event cards run the effect codes of :mod:`engine.seven_ages.effects` listed in
:data:`EVENT_CODES_NOW`: the simple ones here, those that ask for a choice (an
area, a leader, a player, the victim's units, an assassination's draws) in
:mod:`engine.seven_ages.civ_events`. Every Civilise or any-time event of the deck
is carried out; a code outside the list (a data edit) is refused with a
sentence, never silently skipped. An event played first goes through the cancel
chain (:mod:`engine.seven_ages.cancels`, L871-877): its effects begin only once
no cancel stopped it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from engine import rng
from engine.core import Action, Choice, Event, IllegalAction, Names, PlayerId
from engine.seven_ages import (
    artefact_play,
    beliefs,
    cancels,
    civ_event_words,
    civ_events,
    civ_range,
    modifiers,
    power_events,
    prerequisites,
    progress_markers,
    range_requests,
    steps,
    take_that,
    window,
)
from engine.seven_ages.actions import Done, PlaceCapital, TurnMarker
from engine.seven_ages.artefact_powers import powers_on
from engine.seven_ages.beliefs import beliefs_of as _beliefs_of
from engine.seven_ages.card_words import card_text
from engine.seven_ages.cards import BELIEF_KINDS, Artefact, load_deck, named_leaders
from engine.seven_ages.civilisation_moves import (
    Adopt,
    AssassinCard,
    Dominant,
    EventPick,
    KeepLeader,
    Modernise,
    NewHomeland,
    PlayArtefact,
    PlayEvent,
    PromoteLeader,
    RemoveDisorder,
    RemoveLeader,
    Renounce,
    Urbanise,
)
from engine.seven_ages.cleanup import retire_leader
from engine.seven_ages.conflict_moves import WindowPass, WindowPlay
from engine.seven_ages.data import load_counters, load_tables
from engine.seven_ages.decision import register_heading, register_label
from engine.seven_ages.effects_words import describe, describe_all
from engine.seven_ages.endturn import advance, gain
from engine.seven_ages.manoeuvre_moves import CanalAnswer, PayToll
from engine.seven_ages.map import load_map
from engine.seven_ages.markers import NO_CARDS, BaseGoRules, GoHandler, MarkerStep, end_go
from engine.seven_ages.production import CITY_STEPS, ELITE_MAX, add_money, age_of, area_income, barbarian
from engine.seven_ages.promotion import leader_number, promotable
from engine.seven_ages.promotion import may_promote as may_promote  # the leader rules of L940-948
from engine.seven_ages.promotion import named_for_age as named_for_age
from engine.seven_ages.reach import distance, empire_reaches
from engine.seven_ages.setup import discard_from_hand, draw, refill
from engine.seven_ages.state import CIVILISE, AreaState, Empire, Go, Leader, Pending, SevenState
from engine.seven_ages.steps import Ctx
from engine.seven_ages.text import empire_name, register_event, the_empire
from engine.seven_ages.text import seat as seat_name
from engine.seven_ages.view import SevenView
from engine.words import plural, shorten

REMOVE_DISORDER_MINIMUM = 5  # L986
FERTILE_CITIES = 2  # L996: "either in 2 fertile areas or in one other land area"

#: Event codes carried out when a card is played in Civilise; a card with any other cannot be (event_problem).
EVENT_CODES_NOW = frozenset({
    "card_check", "money", "glory", "progress", "draw_cards", "remove_disorder", "free_city",
    "improve_city", "modernise", "elite_marker",
}) | civ_events.CODES


def city_limit(age: int, builder: bool = False) -> int:
    """The largest city an empire may build in its age (L1002), one age ahead with a Builder (L1004)."""
    tables = load_tables()
    age = min(age + 1, 7) if builder else age
    return tables.ages[age - 1].max_city


def next_city(value: int | None) -> int:
    """A new city is worth 1; an improved one goes up one step, 1 -> 3 -> 5 -> 7 (L1000)."""
    if not value:
        return CITY_STEPS[0]
    if value >= CITY_STEPS[-1]:
        raise ValueError("a city of 7 cannot be improved")
    return next(v for v in CITY_STEPS if v > value)


def may_urbanise(value: int | None, age: int, builder: bool = False) -> bool:
    """Whether a city (or none) may be built or improved by an empire in ``age`` (L1000-1004)."""
    return (value or 0) < CITY_STEPS[-1] and next_city(value) <= city_limit(age, builder)


def urban_plan_problem(areas: Sequence[str], terrains: Mapping[str, str | None]) -> str | None:
    """Why a set of areas is not one urbanising (L996): 2 fertile areas or 1 other land area."""
    if len(set(areas)) != len(areas):
        return "A city can be built or improved only once an action."
    if not areas:
        return None
    if len(areas) == 1:
        return None
    if len(areas) == FERTILE_CITIES and all(terrains.get(a) == "fertile" for a in areas):
        return None
    return "An empire urbanises either 2 fertile areas or 1 other land area."


def modernised(unit: str, level: int) -> str | None:
    """The unit type on the other side of a unit's counter, if the empire's level allows it
    (L976-982): turning over costs nothing and may also downgrade."""
    backs = load_counters().backs
    front = load_counters().front_of(unit)
    other = backs.get(front) if front == unit else front
    if other is None or other == unit:
        return None
    return other if load_tables().unit_types[other].available <= level else None


def disorder_cost(area_income: int) -> int:
    """Removing an area's disorder costs its undisordered net income, at least 5 (L986-988)."""
    return max(area_income, REMOVE_DISORDER_MINIMUM)


def religion_capacity(religion_categories: int) -> int:
    """How many religions an empire may hold: one, or as many as its card's religious glory
    categories (the Shogunate two, L897-901)."""
    return max(1, religion_categories)


def may_take_religion(held: Sequence[str], religion: str, religion_categories: int) -> str | None:
    """Why an empire may not take ``religion`` now (None if it may), L893-901."""
    if religion in held:
        return f"The empire already follows {religion}."
    if len(held) >= religion_capacity(religion_categories):
        return "The empire has as many religions as its card allows: discard one first."
    return None


def may_take_government(held: str | None, government: str) -> str | None:
    """One government at a time (L899, L2165)."""
    if held is not None:
        return f"The empire already has {held}: discard it first."
    return None


@dataclass(frozen=True)
class ArtefactGlory:
    """Glory from placing an artefact (L909-913): the empire's, and each leader's empire's."""

    empire: int
    leaders: Mapping[str, int]  # empire -> glory from its Scientists or Artists in range


def artefact_glory(colour: str, kind: str, new_to_world: bool, leaders_in_range: Mapping[str, int],
                   blue: bool) -> ArtefactGlory:
    """A green (or blue) artefact gains its empire 1 glory, and 1 more for a religion or government
    no other empire has; each Scientist in range for a blue one, or Artist for another green one,
    gains its own empire 1; a red artefact costs its empire 1 (L909-913). A black one (option 16 only) has
    no marker and L909-911 give it no glory: its entry says what it does."""
    if colour == "red":
        return ArtefactGlory(-1, {})
    if colour == "black":
        return ArtefactGlory(0, {})
    own = 1 + int(kind in ("religion", "government") and new_to_world)
    return ArtefactGlory(own, {e: n for e, n in leaders_in_range.items() if n})


def leader_kind_for(blue: bool) -> str:
    """The leader whose presence matters for an artefact: Scientist for blue, Artist otherwise."""
    return "Scientist" if blue else "Artist"


def artefact_area_problem(area_has_artefact: bool, blue: bool, leaders_there: Iterable[str]) -> str | None:
    """An area already holding an artefact takes a blue one only with a Scientist there, another
    green one only with an Artist (L921)."""
    if not area_has_artefact:
        return None
    need = leader_kind_for(blue)
    if need in set(leaders_there):
        return None
    article = "an" if need[0] in "AE" else "a"
    return f"That area already holds an artefact: another needs {article} {need} there."


def artefact_age_problem(ages: tuple[int, int], empire_age: int) -> str | None:
    """An artefact is played on an empire in its age range (L893)."""
    first, last = ages
    if first <= empire_age <= last:
        return None
    return f"That artefact is for ages {first} to {last}; the empire is in age {empire_age}."


def discard_disorders(areas: Iterable[str], cities: Iterable[str], leaders: Iterable[str]) -> set[str]:
    """Discarding a religion or government without its card disorders every land area with a city
    but no leader, or a leader but no city (L970)."""
    city, led = set(cities), set(leaders)
    return {a for a in areas if (a in city) != (a in led)}


def event_problem(codes: Iterable[str], timing: str) -> str | None:
    """Why an event card cannot be played in Civilise now (None if Civilise carries it out)."""
    if timing not in ("civilise", "any"):
        return f"That event is played during {timing.replace('_', ' ')}, not now."
    codes = set(codes)
    if codes <= {civ_events.CANCEL}:
        return "That event only cancels another event as it is played; it has nothing to do on its own."
    missing = sorted(codes - {civ_events.CANCEL} - EVENT_CODES_NOW)
    if missing:
        return ("That event's effect (" + ", ".join(c.replace("_", " ") for c in missing)
                + ") cannot be carried out in a Civilise action.")
    return None


# -- the step ---------------------------------------------------------------------------------------

CARDS, LEADERS, KEEP, BELIEFS, MODERNISE, DISORDER, URBANISE, CAPITAL = (
    "cards", "leaders", "keep", "beliefs", "modernise", "disorder", "urbanise", "capital")
STAGES = (CARDS, LEADERS, BELIEFS, MODERNISE, DISORDER, URBANISE, CAPITAL)
NO_LEADER = "no leader"


def _empire(state: SevenState, go: Go) -> Empire | None:
    return state.empire(go.empire) if go.empire and state.has_empire(go.empire) else None


def _age(e: Empire) -> int:
    return age_of(e.progress)


def _others(state: SevenState, *cards: int) -> list[str]:
    return [a for x in state.empires if x.card not in cards for a in x.areas()]


_reaches = empire_reaches
"""Whether target areas are within an empire's Range (L2223-2231)."""


def _in_play(state: SevenState, name: str) -> int:
    on_map = sum(a.artefacts.count(name) for a in state.areas)
    on_cards = sum(1 for e in state.empires if name in (*e.artefacts, *_beliefs_of(e)))
    return on_map + on_cards


def religion_categories(e: Empire) -> int:
    return sum(1 for g in load_deck().cards[e.card].empire.glory if g["category"] == "religion")


def belief_problem(state: SevenState, e: Empire, name: str, kind: str) -> str | None:
    """Why ``e`` may not take the religion or government ``name`` now."""
    if kind == "religion":
        problem = may_take_religion(e.religions, name, religion_categories(e))
    else:
        problem = may_take_government(e.government, name)
    if problem:
        return problem
    if not beliefs.available(state, name):
        return (f"Every marker showing {name} is in play, and turning markers over cannot free one "
                "(L915-917).")
    return None


def _gain(ctx: Ctx, seat: PlayerId, why: str, points: int) -> None:
    if points:
        gain(ctx, seat, why, points)


class CiviliseRules(BaseGoRules):
    """Civilise (L855-1008), stage by stage in the rulebook's order; ``Done`` ends a stage.

    The additional marker (on no empire) only plays event and artefact cards (L349)."""

    action = "civilise"
    extra_ok = True

    @property
    def handlers(self) -> Mapping[type[Action], GoHandler]:
        """A stage's moves (:meth:`_stages`), the end of a stage, and the answers only an event or a request
        asks for (refused when nothing asks: :meth:`apply` gives what asks every move first)."""
        return {**{cls: self._stage_move for cls in self._stages()}, Done: self._done,
                EventPick: self._no_event, AssassinCard: self._no_event,
                WindowPlay: self._no_window, WindowPass: self._no_window,
                CanalAnswer: self._no_request, PayToll: self._no_request}

    def begin(self, ctx: Ctx, go: Go) -> None:
        ctx.state = ctx.state.with_go(replace(go, stage=CARDS, data={"urban": [], "done": []}))
        e = _empire(ctx.state, go)
        if e is not None:  # option 16: Moon landing's glory for each Civilise (L1772)
            power_events.glory(ctx, e.card, modifiers.civilise_glory(ctx.state, e), modifiers.MOON)
        if go.data.get(NO_CARDS):  # the cards stage was answered with the turn: no card, as Done would
            now = ctx.state.go_of(go.seat)
            assert now is not None
            self._next_stage(ctx, now)
        self._note_via(ctx, go.seat)

    def turns(self, state: SevenState, seat: PlayerId, index: int) -> list[Action]:
        """Turning the marker over, and turning it over playing no card (the cards stage answered at once,
        the go beginning at its leaders). A seat the cards stage would offer nothing to is offered only the
        second: its Finish, asked whatever the hand holds, is not asked again; a seat holding a card it may
        play is offered both, so a go that begins past its cards tells nobody which it was."""
        marker = state.markers[index]
        trial = Go(seat, index, marker.empire, self.action, stage=CARDS, data={"urban": [], "done": []})
        skip = TurnMarker(seat, index, no_cards=True)
        return [TurnMarker(seat, index), skip] if self._card_moves(state, trial) else [skip]

    def _note_via(self, ctx: Ctx, seat: PlayerId) -> None:
        """Keep, for the player's labels, which plays offered must ask to count Range through (L2233)."""
        go = ctx.state.go_of(seat)
        if go is None or go.action != self.action:
            return
        found = civ_range.via(ctx.state, go, self._card_moves(ctx.state, go)) \
            if go.stage == CARDS and not ctx.state.pending else []
        if found != go.data.get(civ_range.VIA, []):
            ctx.state = ctx.state.with_go(replace(go, data={**go.data, civ_range.VIA: found}))

    def hand_offered(self, state: SevenState, go: Go) -> bool:
        """The cards stage plays the hand's events and artefacts (L859): asked whatever the hand holds."""
        return go.stage == CARDS

    # -- moves offered ---------------------------------------------------------------------------
    def legal(self, state: SevenState, go: Go) -> list[Action]:
        seat, e = go.seat, _empire(state, go)
        moves: list[Action] = []
        if go.stage == civ_events.EVENT:
            return civ_events.legal(state, go)
        if go.stage == CARDS:
            moves = self._card_moves(state, go)
        elif e is None:
            moves = []
        elif go.stage == LEADERS:
            moves = self._leader_moves(state, go, e)
        elif go.stage == KEEP:
            keeps: list[Action] = [KeepLeader(seat, a) for a in e.areas() if go.data["drawn"] != NO_LEADER]
            return [*keeps, KeepLeader(seat)]
        elif go.stage == BELIEFS:
            moves = self._belief_moves(state, go, e)
        elif go.stage == MODERNISE:
            moves = [Modernise(seat, st.area, st.unit) for st in e.units if modernised(st.unit, e.progress)]
        elif go.stage == DISORDER:
            moves = [RemoveDisorder(seat, a) for a in e.areas()
                     if state.area(a).disorder and e.money >= self._removal(state, go, e, a)[0]]
        elif go.stage == URBANISE:
            moves = [Urbanise(seat, a) for a in e.areas() if self._urban_problem(state, go, e, a) is None]
        elif go.stage == CAPITAL:
            if self._needs_capital(state, e):
                return [PlaceCapital(seat, a) for a in e.areas() if state.area(a).city]
            if self._may_move_homeland(e):
                moves = [NewHomeland(seat)]
        return [*moves, Done(seat)]

    def _card_moves(self, state: SevenState, go: Go) -> list[Action]:
        deck, seat = load_deck(), go.seat
        out: list[Action] = []
        for card in state.people[seat].hand:
            c = deck.cards[card]
            art = deck.artefacts[c.artefact]
            for e in state.empires:
                if range_requests.refused(go, seat, e.card):  # asked this go and refused (L2233)
                    continue
                if self._option_8_problem(state, go, e, art) or self._artefact_problem(state, go, e, art):
                    continue
                if art.placed == "area":
                    out += [PlayArtefact(seat, card, e.card, a) for a in e.areas()
                            if self._area_problem(state, e, art, a) is None]
                else:
                    out.append(PlayArtefact(seat, card, e.card))
            if event_problem([x["code"] for x in c.event.effects], c.event.timing) is None:
                out += [PlayEvent(seat, card, t, a) for t, a in self._event_targets(state, go, c.event.target,
                                                                                    c.event.effects)
                        if not range_requests.refused(go, seat, t)]
        return out

    def _leader_moves(self, state: SevenState, go: Go, e: Empire) -> list[Action]:
        seat, done = go.seat, go.data["done"]
        out: list[Action] = []
        if "removed" not in done:
            out += [RemoveLeader(seat, ld.name, ld.area) for ld in e.leaders]
        if "promoted" not in done and may_promote(len(e.leaders), leader_number(state, e)):
            for name in self._named(state, e):
                out += [PromoteLeader(seat, name, a) for a in e.areas()]
            if state.cup and int(go.data.get("picks", 0)) < leader_number(state, e):
                out.append(PromoteLeader(seat))
        return out

    def _belief_moves(self, state: SevenState, go: Go, e: Empire) -> list[Action]:
        seat, done = go.seat, go.data["done"]
        out: list[Action] = []
        if "adopted" not in done:
            out += [Adopt(seat, n) for n in self._adoptable(state, go, e)]
        if len(e.religions) > 1:
            out.append(Dominant(seat, e.religions[1]))
        if "renounced" not in done:
            arts = load_deck().artefacts
            for name in _beliefs_of(e):
                out.append(Renounce(seat, name))
                out += [Renounce(seat, name, c) for c in state.people[seat].hand
                        if arts[load_deck().cards[c].artefact].name == name]
        return out

    def pending_legal(self, state: SevenState, pending: Pending) -> list[Action]:
        if pending.kind == window.EVENT:  # a cancel window (L871-877)
            return cancels.pending_legal(state, pending)
        if pending.kind in range_requests.KINDS:  # counting Range through another's areas (L2233)
            return range_requests.pending_legal(state, pending)
        return civ_events.pending_legal(state, pending)

    def pending_passive(self, state: SevenState, pending: Pending) -> Action:
        if pending.kind == window.EVENT:
            return cancels.passive(pending)
        if pending.kind in range_requests.KINDS:
            return range_requests.passive(pending)
        return civ_events.pending_passive(state, pending)

    def passive(self, state: SevenState, go: Go) -> Action:
        if go.stage == civ_events.EVENT:
            return civ_events.passive(state, go)
        if go.stage == KEEP:
            return KeepLeader(go.seat)
        if go.stage == CAPITAL and (e := _empire(state, go)) is not None and self._needs_capital(state, e):
            return self.legal(state, go)[0]
        return Done(go.seat)

    # -- applying --------------------------------------------------------------------------------
    def apply(self, ctx: Ctx, go: Go, action: Action) -> None:
        """A move answering what asks (:meth:`_answered`), whatever its class; else a move of the go, by
        its class (:attr:`handlers`)."""
        if not self._answered(ctx, go, action):
            super().apply(ctx, go, action)
        self._note_via(ctx, go.seat)

    def _answered(self, ctx: Ctx, go: Go, action: Action) -> bool:
        """Apply ``action`` when its seat answers something asked (a cancel window, a Range request, a
        victim's choice or an assassination's draw) or the go waits for an event's choice; False when
        neither."""
        pending = next((p for p in ctx.state.pending if p.seat == action.player), None)
        if pending is not None and pending.kind == window.EVENT:  # a cancel or a pass (L871-877)
            cancels.move(ctx, go, action)
        elif pending is not None and pending.kind in range_requests.KINDS:
            range_requests.move(ctx, go, pending, action)
        elif pending is not None:  # a victim's choice or an assassination's draw
            civ_events.pending_apply(ctx, go, pending, action, self._effect)
        elif go.stage == civ_events.EVENT:
            civ_events.pick(ctx, go, action, self._effect)
        else:
            return False
        return True

    def _no_event(self, ctx: Ctx, go: Go, action: Action) -> None:
        raise IllegalAction("no_event", "No event is waiting for a choice now.")

    def _no_window(self, ctx: Ctx, go: Go, action: Action) -> None:
        raise IllegalAction("no_window", "No event is waiting to be cancelled now.")

    def _no_request(self, ctx: Ctx, go: Go, action: Action) -> None:
        raise IllegalAction("no_request", "No request to count Range through an area waits for you now.")

    def _done(self, ctx: Ctx, go: Go, action: Done) -> None:
        self._next_stage(ctx, go)

    def _stages(self) -> dict[type[Action], tuple[str, GoHandler]]:
        """Each move of a stage: the stage it belongs to, and its rules."""
        return {PlayEvent: (CARDS, self._event), PlayArtefact: (CARDS, self._artefact),
                RemoveLeader: (LEADERS, self._remove), PromoteLeader: (LEADERS, self._promote),
                KeepLeader: (KEEP, self._keep), Adopt: (BELIEFS, self._adopt),
                Renounce: (BELIEFS, self._renounce), Dominant: (BELIEFS, self._dominant),
                Modernise: (MODERNISE, self._modernise),
                RemoveDisorder: (DISORDER, self._disorder), Urbanise: (URBANISE, self._urbanise),
                PlaceCapital: (CAPITAL, self._capital), NewHomeland: (CAPITAL, self._homeland)}

    def _stage_move(self, ctx: Ctx, go: Go, action: Action) -> None:
        """A move of a stage: the stages before it are passed over (never back: L855's order)."""
        stage, handler = self._stages()[type(action)]
        if go.stage == KEEP and stage != KEEP:
            raise IllegalAction("keep_first", "Keep the leader you drew, or return it to the cup, first.")
        order = STAGES.index(stage if stage != KEEP else LEADERS)
        now = STAGES.index(go.stage if go.stage != KEEP else LEADERS)
        if order < now:
            raise IllegalAction("stage_over", "That part of Civilise is over: the rulebook's order is cards, "
                                "leaders, religion and government, modernising, disorder, then cities.")
        if _empire(ctx.state, go) is None and stage != CARDS:
            raise IllegalAction("no_empire", "A civilise on no empire only plays event and artefact cards.")
        if stage == KEEP and go.stage != KEEP:  # a stale answer: only a leader just drawn is kept (L950)
            raise IllegalAction("nothing_drawn", "You have drawn no leader from the cup to keep or return.")
        while STAGES.index(go.stage if go.stage != KEEP else LEADERS) < order:
            go = self._advance_stage(ctx, go)
        handler(ctx, go, action)

    def _advance_stage(self, ctx: Ctx, go: Go) -> Go:
        i = STAGES.index(go.stage)
        new = replace(go, stage=STAGES[i + 1])
        ctx.state = ctx.state.with_go(new)
        return new

    def _next_stage(self, ctx: Ctx, go: Go) -> None:
        e = _empire(ctx.state, go)
        if go.stage == KEEP:
            raise IllegalAction("keep_first", "Keep the leader you drew, or return it to the cup, first.")
        if (go.stage == CARDS and e is None) or go.stage == CAPITAL:
            if e is not None and self._needs_capital(ctx.state, e):
                raise IllegalAction("capital_first", "Make one of your cities the capital first (L1006).")
            end_go(ctx, go.seat)
            return
        go = self._advance_stage(ctx, go)
        if go.stage == CAPITAL and e is not None and not self._needs_capital(ctx.state, e) \
                and not self._may_move_homeland(e):
            end_go(ctx, go.seat)

    def _mark(self, ctx: Ctx, go: Go, word: str, **data: Any) -> Go:
        merged = dict(go.data)
        merged.update(data)
        if word:
            merged["done"] = [*merged["done"], word]
        new = replace(go, data=merged)
        ctx.state = ctx.state.with_go(new)
        return new

    # -- cards -----------------------------------------------------------------------------------
    def _take_card(self, ctx: Ctx, seat: PlayerId, card: int) -> None:
        if card not in ctx.state.people[seat].hand:
            raise IllegalAction("not_in_hand", "That card is not in your hand.")
        discard_from_hand(ctx, seat, (card,))

    def _event_targets(self, state: SevenState, go: Go, target: str,
                       effects: Sequence[Mapping[str, Any]]) -> list[tuple[int, str]]:
        """(empire, area) pairs an event may be played on; an area only where an effect needs one."""
        needs_area = target == "area" or any(x["code"] in ("free_city", "improve_city") for x in effects)
        # remove_disorder: the first area calmed, or none; the card's further areas are asked after
        may_area = any(x["code"] == "remove_disorder" for x in effects)
        mine = [e for e in state.empires if e.owner == go.seat]
        pool = {"own_empire": mine, "other_empire": [e for e in state.empires if e.owner != go.seat],
                "any_empire": list(state.empires), "area": list(state.empires)}.get(target)
        if pool is None:
            if any(x["code"] == civ_range.LOOK for x in effects):
                direct = civ_events.spy_seats(state, go.seat)  # none: no other player holds a card to look at
                # L1226 with L2233: a player within Range only through others' areas is named with the play
                asked = [(e.card, "") for e in civ_range.spy_targets(state, go.seat, direct)]
                return [(0, ""), *asked] if direct else asked
            return [(0, "")] if target in ("player", "everyone") and not needs_area else []
        out = []
        for e in pool:
            if not self._event_target_ok(state, go, e, effects):
                continue
            if needs_area or may_area:
                out += [(e.card, a) for a in e.areas() if self._event_area_ok(state, e, a, effects)
                        and take_that.civilise_problem(state, go.seat, go.empire, e, a) is None]
            if not needs_area and take_that.civilise_problem(state, go.seat, go.empire, e) is None:
                out.append((e.card, ""))
        return out

    def _event_target_ok(self, state: SevenState, go: Go, e: Empire,
                         effects: Sequence[Mapping[str, Any]]) -> bool:
        """Whether the event can do something to ``e``: assassins need a leader within Range of the
        civilising empire (L885), the other choices something to choose from."""
        codes = {str(x["code"]) for x in effects}
        if "assassinate" in codes:
            return bool(e.leaders) and civ_range.assassin_route(state, go, e) is not None
        if "lose_artefact" in codes:
            return bool(civ_events.artefacts_of(state, e))
        if "convert_area" in codes:
            return bool(civ_events.convert_candidates(state, e))
        if "promote_leader" in codes:
            return bool(civ_events.promote_options(state, e))
        return True

    def _event_area_ok(self, state: SevenState, e: Empire, area: str,
                       effects: Sequence[Mapping[str, Any]]) -> bool:
        held = state.area(area)
        land = load_map().areas[area].land
        for x in effects:
            if x["code"] == "free_city" and (held.city or not land):
                return False
            if x["code"] == "improve_city" and not held.city:
                return False
            if x["code"] == "remove_disorder" and not held.disorder:
                return False
        return True

    def _event(self, ctx: Ctx, go: Go, action: PlayEvent) -> None:
        card = load_deck().cards.get(action.card)
        if card is None or action.card not in ctx.state.people[go.seat].hand:
            raise IllegalAction("not_in_hand", "That card is not in your hand.")
        range_requests.not_again(go, go.seat, action.target)
        ev = card.event
        problem = event_problem([x["code"] for x in ev.effects], ev.timing)
        if problem:
            raise IllegalAction("event_not_now", problem)
        if action.target and ctx.state.has_empire(action.target) and ev.target != "player":
            target = ctx.state.empire(action.target)
            problem = take_that.civilise_problem(ctx.state, go.seat, go.empire, target, action.area)
            if problem:
                raise IllegalAction("out_of_range", problem)
        if (action.target, action.area) not in self._event_targets(ctx.state, go, ev.target, ev.effects):
            raise IllegalAction("bad_target", f"{ev.name} cannot be played there.")
        s = ctx.state
        route = civ_range.event_route(s, go, s.empire(action.target), action.area, ev.effects) \
            if action.target else None
        if route is not None and route.keepers:  # L2233: asked first; nothing is played until all agree
            range_requests.start(ctx, go, route, EVENT_ASKED, _chosen(action), action.target, ev.name)
            return
        self.play_event(ctx, go, action)

    def play_event(self, ctx: Ctx, go: Go, action: PlayEvent) -> None:
        """The event leaves the hand, is announced, and its cancel window opens (L859, L875)."""
        ev = load_deck().cards[action.card].event
        self._take_card(ctx, go.seat, action.card)
        ctx.emit("event_played", seat=go.seat, card=action.card, event=ev.name, target=action.target,
                 area=action.area)
        s = ctx.state
        victim = s.empire(action.target).owner if action.target and s.has_empire(action.target) else None
        # the cancel window comes first, before any effect and before the card check (L875)
        cancels.play(ctx, s.go_of(go.seat) or go, action.card, go.seat, victim, CIVILISE,
                     {"card": action.card, "target": action.target, "area": action.area})

    def resume(self, ctx: Ctx, go: Go, chosen: Mapping[str, Any]) -> None:
        """Carry out an event played in this go once no cancel stopped it."""
        action = PlayEvent(go.seat, int(chosen["card"]), int(chosen["target"]), str(chosen["area"]))
        civ_events.start(ctx, go, action, self._effect)

    def _effect(self, ctx: Ctx, go: Go, action: PlayEvent, x: Mapping[str, Any]) -> bool:
        return simple_effect(ctx, go, action, x)

    def _artefact_problem(self, state: SevenState, go: Go, e: Empire, art: Artefact) -> str | None:
        option_16 = powers_on(state)
        if art.colour == "black" and not option_16:
            return f"{art.name} has no marker and no effect without option 16 (L913, L925)."
        problem = artefact_age_problem(art.ages, _age(e))
        if problem and not (option_16 and prerequisites.age_allowed(state, e, art)):
            return problem
        problem = prerequisites.empire_problem(state, e, art) if option_16 else None
        if problem:
            return problem
        if art.kind in BELIEF_KINDS:
            if art.kind == "religion" and "religion" in go.data["done"]:
                return "One religion may be played each civilise action (L895)."
            if art.kind == "government" and "government" in go.data["done"]:
                return "One government may be played each civilise action (L899)."
            return belief_problem(state, e, art.name, art.kind)
        if art.colour != "black" and _in_play(state, art.name) >= art.markers:  # black: no marker (L913)
            return f"Every {art.name} marker is already in play (L915)."
        return None

    def _option_8_problem(self, state: SevenState, go: Go, e: Empire, art: Artefact) -> str | None:
        """Why option 8 keeps ``art`` off ``e``: out of Range (L1222), or the stricter colours (L1228)."""
        return (take_that.civilise_problem(state, go.seat, go.empire, e)
                or take_that.artefact_problem(state, go.seat, e, art))

    def _area_problem(self, state: SevenState, e: Empire, art: Artefact, area: str) -> str | None:
        if area not in e.areas() or not load_map().areas[area].land:
            return "A green artefact's marker goes on one of the empire's land areas (L909)."
        leaders = [ab for ld in e.leaders_in(area) for ab in ld.abilities]
        return artefact_area_problem(bool(state.area(area).artefacts), art.colour == "blue", leaders) or (
            prerequisites.area_problem(state, art, area) if powers_on(state) else None)

    def _artefact(self, ctx: Ctx, go: Go, action: PlayArtefact) -> None:
        s, deck = ctx.state, load_deck()
        if action.card not in s.people[go.seat].hand:
            raise IllegalAction("not_in_hand", "That card is not in your hand.")
        range_requests.not_again(go, go.seat, action.target)
        art = deck.artefacts[deck.cards[action.card].artefact]
        if not s.has_empire(action.target):
            raise IllegalAction("no_such_empire", "That empire is not in play.")
        e = s.empire(action.target)
        problem = self._option_8_problem(s, go, e, art) or self._artefact_problem(s, go, e, art)
        if problem is None and art.placed == "area":
            problem = self._area_problem(s, e, art, action.area)
        if problem:
            raise IllegalAction("artefact_refused", problem)
        route = civ_range.artefact_route(s, go, e)
        if route is not None and route.keepers:  # L2233: asked first; nothing is played until all agree
            range_requests.start(ctx, go, route, ARTEFACT_ASKED, _chosen(action), e.card, art.name)
            return
        self.place_artefact(ctx, go, action)

    def place_artefact(self, ctx: Ctx, go: Go, action: PlayArtefact) -> None:
        """The artefact leaves the hand for its empire or area, and its glory is gained (L909-913)."""
        s, deck = ctx.state, load_deck()
        art = deck.artefacts[deck.cards[action.card].artefact]
        e = s.empire(action.target)
        new_to_world = art.kind in BELIEF_KINDS and not any(art.name in _beliefs_of(x) for x in s.empires)
        self._take_card(ctx, go.seat, action.card)
        s = ctx.state
        if art.placed == "area":
            held = s.area(action.area)
            s = s.with_area(replace(held, artefacts=(*held.artefacts, art.name)))
        elif art.kind in BELIEF_KINDS:
            ctx.state = s
            beliefs.take(ctx, e.card, art.name, art.kind)  # turning markers over if it must (L915-917)
            s = ctx.state
        else:
            s = s.with_empire(replace(e, artefacts=(*e.artefacts, art.name)))
        ctx.state = s
        if art.kind in BELIEF_KINDS:
            go = self._mark(ctx, ctx.state.go_of(go.seat) or go, art.kind)
        leaders = self._leaders_in_range(ctx.state, art, action.area) if art.placed == "area" else {}
        glory = artefact_glory(art.colour, art.kind, new_to_world, leaders, art.colour == "blue")
        _gain(ctx, e.owner, "artefacts played", glory.empire)
        for card, n in glory.leaders.items():
            _gain(ctx, ctx.state.empire(int(card)).owner, "leaders in range", n)
        ctx.emit("artefact_played", seat=go.seat, card=action.card, artefact=art.name, empire=e.card,
                 area=action.area, glory=glory.empire)
        progress_markers.placed(ctx, ctx.state.empire(e.card), art)  # option 16: blue and black markers
        artefact_play.played(ctx, e.card, art.name)  # option 16: what playing it does at once

    def _leaders_in_range(self, state: SevenState, art: Artefact, area: str) -> dict[str, int]:
        """Each empire's Scientists (blue) or Artists (other green) within its Range of ``area`` (L911)."""
        kind = leader_kind_for(art.colour == "blue")
        out: dict[str, int] = {}
        for x in state.empires:
            for ld in x.leaders:
                if kind in ld.abilities and (ld.area == area or distance(
                        [ld.area], [area], _others(state, x.card), x.progress, age=_age(x)) is not None):
                    out[str(x.card)] = out.get(str(x.card), 0) + 1
        return out

    # -- leaders ---------------------------------------------------------------------------------
    def _named(self, state: SevenState, e: Empire) -> list[str]:
        return promotable(state, e)

    def _remove(self, ctx: Ctx, go: Go, action: RemoveLeader) -> None:
        e = _empire(ctx.state, go)
        assert e is not None
        if "removed" in go.data["done"]:
            raise IllegalAction("one_removal", "An empire removes one leader each civilise action (L934).")
        ld = next((x for x in e.leaders if x.name == action.name and x.area == action.area), None)
        if ld is None:
            raise IllegalAction("no_such_leader", "The empire has no such leader there.")
        leaders = list(e.leaders)
        leaders.remove(ld)
        ctx.state = retire_leader(ctx.state.with_empire(replace(e, leaders=tuple(leaders))), ld)
        self._mark(ctx, go, "removed")
        ctx.emit("leader_removed", seat=go.seat, empire=e.card, leader=ld.name, area=ld.area)

    def _promote(self, ctx: Ctx, go: Go, action: PromoteLeader) -> None:
        e = _empire(ctx.state, go)
        assert e is not None
        if "promoted" in go.data["done"] or not may_promote(len(e.leaders), leader_number(ctx.state, e)):
            raise IllegalAction("no_promotion", "The empire may promote one leader, and only while it has "
                                "fewer than its Leader number (L940).")
        if not action.name:
            picks = int(go.data.get("picks", 0))
            if picks >= leader_number(ctx.state, e) or not ctx.state.cup:
                raise IllegalAction("no_more_picks", "You have drawn from the cup as many times as the "
                                    "empire's Leader number (L950).")
            cup = list(ctx.state.cup)
            drawn = cup.pop(rng.below(ctx, len(cup)))
            ctx.state = replace(ctx.state, cup=tuple(cup))
            go = self._mark(ctx, go, "", picks=picks + 1, drawn=drawn)
            ctx.state = ctx.state.with_go(replace(go, stage=KEEP))
            ctx.emit("leader_drawn", seat=go.seat, empire=e.card, leader=drawn)
            return
        if action.name not in self._named(ctx.state, e):
            raise IllegalAction("not_named_now", "That named leader cannot be promoted: each appears once, "
                                "in its own age (L944-946).")
        if action.area not in e.areas():
            raise IllegalAction("not_your_area", "Place the leader in an area the empire controls (L952).")
        ld = next(x for x in named_leaders()[e.card] if x["name"] == action.name)
        leader = Leader(action.name, tuple(ld["abilities"]), action.area, named=True)
        ctx.state = replace(ctx.state.with_empire(replace(e, leaders=(*e.leaders, leader))),
                            appeared=tuple(sorted({*ctx.state.appeared, action.name})))
        self._mark(ctx, go, "promoted")
        ctx.emit("leader_promoted", seat=go.seat, empire=e.card, leader=action.name, area=action.area)

    def _keep(self, ctx: Ctx, go: Go, action: KeepLeader) -> None:
        e = _empire(ctx.state, go)
        assert e is not None
        drawn = str(go.data["drawn"])
        if action.area:
            if drawn == NO_LEADER:
                raise IllegalAction("no_leader", "A 'no leader' marker goes back to the cup (L950).")
            if action.area not in e.areas():
                raise IllegalAction("not_your_area", "Place the leader in an area the empire controls "
                                    "(L952).")
            leader = Leader(drawn, (drawn,), action.area)
            ctx.state = ctx.state.with_empire(replace(e, leaders=(*e.leaders, leader)))
            go = self._mark(ctx, go, "promoted")
            ctx.emit("leader_promoted", seat=go.seat, empire=e.card, leader=drawn, area=action.area)
        else:
            ctx.state = replace(ctx.state, cup=(*ctx.state.cup, drawn))
            ctx.emit("leader_returned", seat=go.seat, empire=e.card, leader=drawn)
        ctx.state = ctx.state.with_go(replace(go, stage=LEADERS))

    # -- religion and government -----------------------------------------------------------------
    def _adoptable(self, state: SevenState, go: Go, e: Empire) -> list[str]:
        if any(state.area(a).disorder for a in e.areas()):
            return []  # L962: "provided no area in your empire is disordered"
        names: set[str] = set()
        for x in state.empires:
            if x.card != e.card and _beliefs_of(x) and _reaches(state, e, x.areas(), x.card):
                names.update(_beliefs_of(x))
        if e.has_leader("Religious"):  # L897: start a religion as if it played the card
            names.update(r for r in load_tables().religions if r in load_deck().artefacts)
        kinds = {a.name: a.kind for a in load_deck().artefacts.values()}
        out = []
        for n in sorted(names):
            if kinds.get(n) == "religion" and "religion" in go.data["done"]:
                continue  # L964: not after playing a religion card this action
            if belief_problem(state, e, n, kinds.get(n, "religion")) is None:
                out.append(n)
        return out

    def _adopt(self, ctx: Ctx, go: Go, action: Adopt) -> None:
        e = _empire(ctx.state, go)
        assert e is not None
        if "adopted" in go.data["done"] or action.name not in self._adoptable(ctx.state, go, e):
            raise IllegalAction("not_adoptable", f"The empire cannot adopt {action.name} now: one a "
                                "civilise, held by an empire in range, with no disordered area (L962-964).")
        kind = load_deck().artefacts[action.name].kind
        new_to_world = not any(action.name in _beliefs_of(x) for x in ctx.state.empires)
        beliefs.take(ctx, e.card, action.name, kind)  # turning markers over if it must (L915-917)
        self._mark(ctx, go, "adopted")
        _gain(ctx, e.owner, "adopted", 1 + int(new_to_world))
        ctx.emit("adopted", seat=go.seat, empire=e.card, belief=action.name)
        artefact_play.played(ctx, e.card, action.name)  # option 16: as if its card were played (L962)

    def _renounce(self, ctx: Ctx, go: Go, action: Renounce) -> None:
        e = _empire(ctx.state, go)
        assert e is not None
        if "renounced" in go.data["done"]:
            raise IllegalAction("one_discard", "An empire discards one religion or government a civilise "
                                "(L970).")
        if action.name not in _beliefs_of(e):
            raise IllegalAction("not_held", f"The empire does not have {action.name}.")
        if action.card:
            if load_deck().cards.get(action.card) is None or \
                    load_deck().cards[action.card].artefact != action.name:
                raise IllegalAction("wrong_card", f"That card's artefact is not {action.name}.")
            self._take_card(ctx, go.seat, action.card)
        else:
            s = ctx.state
            lands = [a for a in e.areas() if load_map().areas[a].land]
            for a in sorted(discard_disorders(lands, [a for a in lands if s.area(a).city],
                                              [ld.area for ld in e.leaders])):
                s = s.with_area(replace(s.area(a), disorder=True))
            ctx.state = s
        e = ctx.state.empire(e.card)
        ctx.state = ctx.state.with_empire(replace(
            e, religions=tuple(r for r in e.religions if r != action.name),
            government=None if e.government == action.name else e.government))
        ctx.state = beliefs.record(ctx.state)  # its marker is free again
        self._mark(ctx, go, "renounced")
        ctx.emit("renounced", seat=go.seat, empire=e.card, belief=action.name, with_card=bool(action.card))
        artefact_play.renounced(ctx, e.card, action.name, load_deck().artefacts[action.name].kind)

    def _dominant(self, ctx: Ctx, go: Go, action: Dominant) -> None:
        e = _empire(ctx.state, go)
        assert e is not None
        if action.name not in e.religions[1:]:
            raise IllegalAction("not_second", "Only the empire's second religion can become its dominant "
                                "one.")
        order = (action.name, *(r for r in e.religions if r != action.name))
        ctx.state = ctx.state.with_empire(replace(e, religions=order))
        ctx.emit("dominant", seat=go.seat, empire=e.card, belief=action.name)

    # -- units, disorder, cities -------------------------------------------------------------------
    def _modernise(self, ctx: Ctx, go: Go, action: Modernise) -> None:
        e = _empire(ctx.state, go)
        assert e is not None
        other = modernised(action.unit, e.progress)
        n = e.count(action.area, action.unit)
        if not n or other is None:
            raise IllegalAction("cannot_modernise", "No such unit there can be turned over at the empire's "
                                "progress level (L976).")
        e = e.add_units(action.area, action.unit, -n).add_units(action.area, other, n)
        ctx.state = ctx.state.with_empire(e)
        ctx.emit("modernised", seat=go.seat, empire=e.card, area=action.area, unit=action.unit, to=other,
                 count=n)

    def _disorder(self, ctx: Ctx, go: Go, action: RemoveDisorder) -> None:
        e = _empire(ctx.state, go)
        assert e is not None
        if action.area not in e.areas() or not ctx.state.area(action.area).disorder:
            raise IllegalAction("not_disordered", "The empire controls no disordered area there.")
        cost, power = self._removal(ctx.state, go, e, action.area)
        if cost > e.money:
            raise IllegalAction("too_dear", f"Removing that disorder costs {cost}; the empire has {e.money}.")
        ctx.state = ctx.state.with_empire(add_money(e, -cost)).with_area(
            replace(ctx.state.area(action.area), disorder=False))
        if power == modifiers.PALACE:  # the Summer Palace frees one area a Civilise (L1950)
            self._mark(ctx, ctx.state.go_of(go.seat) or go, "", palace=action.area)
        ctx.emit("disorder_removed", seat=go.seat, empire=e.card, area=action.area, money=cost)

    @staticmethod
    def _removal(state: SevenState, go: Go, e: Empire, area: str) -> tuple[int, str | None]:
        """What removing ``area``'s disorder costs now, and the artefact that makes it free, if any: the
        Great Pyramid's area and its neighbours (L1600), one area in Range of the Summer Palace (L1950)."""
        if area in modifiers.free_removals(state, e):
            return 0, modifiers.PYRAMID
        if not go.data.get("palace") and area in modifiers.palace_removals(state, e):
            return 0, modifiers.PALACE
        return removal_cost(state, e, area), None

    def _urban_problem(self, state: SevenState, go: Go, e: Empire, area: str) -> str | None:
        """Why ``area`` cannot be built or improved now (None: it can, normally or by the Builder)."""
        place = load_map().areas[area]
        if not place.land or area not in e.areas():
            return "Cities are built in land areas the empire controls (L998)."
        held = state.area(area)
        if held.disorder:
            return "Cities are built only in undisordered areas (L996)."
        urban = list(go.data["urban"])
        if area in urban or area == go.data.get("builder"):
            return "That city was already built or improved this action (L1004)."
        builder = e.has_leader("Builder", area)
        if not may_urbanise(held.city or None, _age(e), builder):
            return "The city cannot grow further in the empire's age (L1002)."
        terrains = {a: load_map().areas[a].terrain for a in (*urban, area)}
        if not barbarian(e) and urban_plan_problem([*urban, area], terrains) is None:
            return None
        if builder and not go.data.get("builder"):
            return None
        return ("An empire urbanises 2 fertile areas or 1 other land area, plus one with a Builder (L996, "
                "L1004).")

    def _urbanise(self, ctx: Ctx, go: Go, action: Urbanise) -> None:
        e = _empire(ctx.state, go)
        assert e is not None
        problem = self._urban_problem(ctx.state, go, e, action.area)
        if problem:
            raise IllegalAction("cannot_urbanise", problem)
        urban = list(go.data["urban"])
        terrains = {a: load_map().areas[a].terrain for a in (*urban, action.area)}
        if not barbarian(e) and urban_plan_problem([*urban, action.area], terrains) is None:
            go = self._mark(ctx, go, "", urban=[*urban, action.area])
        else:
            go = self._mark(ctx, go, "", builder=action.area)
        held = ctx.state.area(action.area)
        value = next_city(held.city or None)
        limit = city_limit(_age(e), e.has_leader("Builder", action.area))
        for _ in range(modifiers.city_steps(ctx.state, e) - 1):  # a Capitalist's extra level (L1429)
            if value < CITY_STEPS[-1] and next_city(value) <= limit:
                value = next_city(value)
        ctx.state = ctx.state.with_area(replace(held, city=value))
        if not e.capital and not barbarian(e):  # L998: the first city becomes the capital
            ctx.state = ctx.state.with_empire(replace(e, capital=action.area))
        ctx.emit("urbanised", seat=go.seat, empire=e.card, area=action.area, city=value)

    def _needs_capital(self, state: SevenState, e: Empire) -> bool:
        """A non-Barbarian empire with no capital must make a city it controls its capital (L1006)."""
        return not e.capital and not barbarian(e) and any(state.area(a).city for a in e.areas())

    def _may_move_homeland(self, e: Empire) -> bool:
        """L1008: an empire controlling its homeland, with its capital elsewhere, may move it."""
        return bool(e.homeland and e.capital and e.homeland != e.capital and e.homeland in e.areas())

    def _capital(self, ctx: Ctx, go: Go, action: PlaceCapital) -> None:
        e = _empire(ctx.state, go)
        assert e is not None
        if not self._needs_capital(ctx.state, e) or action.area not in e.areas() \
                or not ctx.state.area(action.area).city:
            raise IllegalAction("no_capital_here", "Choose one of the empire's cities as its capital.")
        ctx.state = ctx.state.with_empire(replace(e, capital=action.area))
        ctx.emit("capital_named", seat=go.seat, empire=e.card, area=action.area)
        if not self._may_move_homeland(ctx.state.empire(e.card)):
            end_go(ctx, go.seat)

    def _homeland(self, ctx: Ctx, go: Go, action: Action) -> None:
        e = _empire(ctx.state, go)
        assert e is not None
        if not self._may_move_homeland(e):
            raise IllegalAction("no_new_homeland", "The empire must control its homeland, with its capital "
                                "elsewhere (L1008).")
        ctx.state = ctx.state.with_empire(replace(e, homeland=e.capital))
        ctx.emit("homeland_moved", seat=go.seat, empire=e.card, area=e.capital)
        end_go(ctx, go.seat)


def simple_effect(ctx: Ctx, go: Go, action: PlayEvent, x: Mapping[str, Any]) -> bool:
    """Carry out one effect that asks nothing (money, glory, a card check ...) on the event's target, else the
    go's empire; False when a failed card check stops the event (L869). Events played in other actions'
    goes use it too (:mod:`engine.seven_ages.own_events`)."""
    code, s = x["code"], ctx.state
    target = s.empire(action.target) if action.target and s.has_empire(action.target) else _empire(s, go)
    if code == "card_check":
        refill(ctx, 1)
        s = ctx.state
        if not s.deck:
            return False
        top = s.deck[0]
        ctx.state = replace(s, deck=s.deck[1:], discard=(*s.discard, top))
        value = load_deck().cards[top].value
        ctx.emit("card_check", card=top, value=value, needed=int(x["at_least"]))
        return value >= int(x["at_least"])
    if code == "glory":
        gain(ctx, go.seat, "events", int(x["amount"]))
    elif code == "draw_cards":
        refill(ctx, int(x["count"]))
        draw(ctx, go.seat, int(x["count"]))
    elif target is None:
        return True
    elif code == "money":
        ctx.state = s.with_empire(add_money(target, int(x["amount"])))
    elif code == "progress":
        advance(ctx, target.card, int(x["levels"]))
    elif code == "elite_marker":
        ctx.state = s.with_empire(replace(target, elite=min(ELITE_MAX, target.elite + int(x["count"]))))
    elif code == "modernise":
        ctx.state = s.with_empire(_modernise_all(target))
    elif code in ("free_city", "improve_city", "remove_disorder") and action.area:
        ctx.state = s.with_area(_area_effect(s.area(action.area), code, x))
    ctx.emit("event_effect", seat=go.seat, code=code, empire=target.card if target else 0,
             params={k: v for k, v in x.items() if k != "code"})
    return True


def removal_cost(state: SevenState, e: Empire, area: str) -> int:
    """The area's undisordered net income, ignoring leaders, at least 5 (L986)."""
    calm = state.with_area(replace(state.area(area), disorder=False))
    return disorder_cost(area_income(calm, replace(e, leaders=()), area))


def _modernise_all(e: Empire) -> Empire:
    """Every unit turned over to its better side where the level allows (a modernise event)."""
    tables = load_tables()
    for st in e.units:
        other = modernised(st.unit, e.progress)
        if other and tables.unit_types[other].available > tables.unit_types[st.unit].available:
            e = e.add_units(st.area, st.unit, -st.count).add_units(st.area, other, st.count)
    return e


def _area_effect(held: AreaState, code: str, x: Mapping[str, Any]) -> AreaState:
    if code == "free_city":
        return replace(held, city=int(x["value"]))
    if code == "improve_city":
        value = held.city
        for _ in range(int(x["steps"])):
            value = next_city(value) if value < CITY_STEPS[-1] else value
        return replace(held, city=value)
    return replace(held, disorder=False)


# Civilise's events come back from the cancel chain under the phase's name (CIVILISE).
EVENT_ASKED, ARTEFACT_ASKED = "civilise_event", "civilise_artefact"
"""The keys under which a play comes back once every empire asked let its Range through (L2233)."""
_RULES = CiviliseRules()
steps.register(MarkerStep(_RULES))
cancels.register_resume(CIVILISE, _RULES.resume)


def _chosen(action: PlayEvent | PlayArtefact) -> dict[str, Any]:
    return {"card": action.card, "target": action.target, "area": action.area}


def _granted(ctx: Ctx, go: Go, chosen: Mapping[str, Any]) -> None:
    """Every empire asked let the play's Range through: it is played as chosen (the card still in hand:
    nothing but answers happened meanwhile)."""
    card, target, area = int(chosen["card"]), int(chosen["target"]), str(chosen["area"])
    if card not in ctx.state.people[go.seat].hand or not ctx.state.has_empire(target):
        return
    _RULES.play_event(ctx, go, PlayEvent(go.seat, card, target, area))


def _granted_artefact(ctx: Ctx, go: Go, chosen: Mapping[str, Any]) -> None:
    card, target, area = int(chosen["card"]), int(chosen["target"]), str(chosen["area"])
    if card in ctx.state.people[go.seat].hand and ctx.state.has_empire(target):
        _RULES.place_artefact(ctx, go, PlayArtefact(go.seat, card, target, area))


range_requests.register(EVENT_ASKED, _granted)
range_requests.register(ARTEFACT_ASKED, _granted_artefact)
assert civ_event_words.REGISTERED  # the events' words come with the step


# -- words ------------------------------------------------------------------------------------------

def _play_event_label(view: SevenView, action: PlayEvent) -> Choice:
    ev = load_deck().cards[action.card].event
    where = f" on {empire_name(action.target)}" if action.target else ""
    if action.target and ev.target == "player":  # the player named by one of its empires (L1226)
        where = f" on the player of {empire_name(action.target)}"
    where += f" in {action.area}" if action.area else ""
    does = describe_all(ev.effects)  # what the event does, as the card says it
    note = civ_range.note(view, action)  # the empires its Range must ask first (L2233)
    return Choice(action, shorten(f"{ev.name}{where}", 100 - len(note)) + note,
                  group=shorten(f"Play {card_text(action.card)} as {ev.name}: {does}", 100))


def _artefact_label(view: SevenView, action: PlayArtefact) -> Choice:
    art = load_deck().cards[action.card].artefact
    where = f" on {empire_name(action.target)}" + (f" in {action.area}" if action.area else "")
    note = civ_range.note(view, action)
    return Choice(action, shorten(f"{art}{where}", 100 - len(note)) + note,
                  group=shorten(f"Play {card_text(action.card)} as {art}", 100))


def _remove_leader_label(view: SevenView, action: RemoveLeader) -> Choice:
    return Choice(action, f"Remove {action.name} from {action.area}")


def _promote_label(view: SevenView, action: PromoteLeader) -> Choice:
    if not action.name:
        return Choice(action, "Draw an unnamed leader from the cup")
    return Choice(action, f"{action.name} in {action.area}", group=f"Promote {action.name}")


def _keep_label(view: SevenView, action: KeepLeader) -> Choice:
    return Choice(action, f"Keep the leader in {action.area}" if action.area else "Return it to the cup")


def _adopt_label(view: SevenView, action: Adopt) -> Choice:
    return Choice(action, f"Adopt {action.name}")


def _renounce_label(view: SevenView, action: Renounce) -> Choice:
    if action.card:
        return Choice(action, shorten(f"Discard {action.name}, playing {card_text(action.card)}", 100))
    return Choice(action, f"Discard {action.name} without its card",
                  confirm="Every area with a city but no leader, or a leader but no city, falls into "
                          "disorder. Discard?")


def _dominant_label(view: SevenView, action: Dominant) -> Choice:
    return Choice(action, f"Make {action.name} the dominant religion")


def _modernise_label(view: SevenView, action: Modernise) -> Choice:
    other = modernised(action.unit, 49) or action.unit
    return Choice(action, f"Turn the {action.unit} in {action.area} over to {other}")


def _disorder_label(view: SevenView, action: RemoveDisorder) -> Choice:
    return Choice(action, f"Pay to remove the disorder in {action.area}")


def _urbanise_label(view: SevenView, action: Urbanise) -> Choice:
    return Choice(action, f"Build or improve the city in {action.area}")


def _homeland_label(view: SevenView, action: NewHomeland) -> Choice:
    return Choice(action, "Make the capital the new homeland")


LABELS: Mapping[type[Action], Callable[[SevenView, Any], Choice]] = {
    PlayEvent: _play_event_label, PlayArtefact: _artefact_label, RemoveLeader: _remove_leader_label,
    PromoteLeader: _promote_label, KeepLeader: _keep_label, Adopt: _adopt_label, Renounce: _renounce_label,
    Dominant: _dominant_label, Modernise: _modernise_label, RemoveDisorder: _disorder_label,
    Urbanise: _urbanise_label, NewHomeland: _homeland_label,
}
"""The words of the Civilise go's moves, by class."""


def _civ_words(event: Event, names: Names) -> str | None:
    d = event.data
    who = seat_name(names, int(d["seat"])) if "seat" in d else ""
    name = the_empire(int(d["empire"])) if int(d.get("empire") or 0) else ""
    t = event.type
    if t == "event_played":
        target = f" on {empire_name(int(d['target']))}" if d["target"] else ""
        return f"{who} plays the event {d['event']}{target}" + (f" in {d['area']}." if d["area"] else ".")
    if t == "card_check":
        verdict = "it works" if int(d["value"]) >= int(d["needed"]) else "it fails"
        return f"The check card is {card_text(int(d['card']))}: {verdict}."
    if t == "event_effect":  # what the event did, in the card's own words (older logs carry no params)
        if "params" not in d:
            return None
        does = describe(str(d["code"]), {"code": d["code"], **d["params"]})
        if int(d.get("empire") or 0):
            return f"Effect on {empire_name(int(d['empire']))}: {does}."
        return f"Effect for {who}: {does}."
    if t == "artefact_played":
        where = f" in {d['area']}" if d["area"] else ""
        return f"{who} plays {d['artefact']} on {empire_name(int(d['empire']))}{where}."
    if t == "leader_removed":
        return f"{name} remove their leader {d['leader']} from {d['area']}."
    if t == "leader_drawn":
        return f"{name} draw {d['leader']} from the leader cup."
    if t == "leader_promoted":
        return f"{name} promote {d['leader']} in {d['area']}."
    if t == "leader_returned":
        return f"{name} return {d['leader']} to the leader cup."
    if t == "adopted":
        return f"{name} adopt {d['belief']}."
    if t == "renounced":
        how = " by playing its card." if d["with_card"] else ": disorder follows."
        return f"{name} discard {d['belief']}{how}"
    if t == "dominant":
        return f"{name} make {d['belief']} their dominant religion."
    if t == "modernised":
        if "unit" not in d:  # the public event: which units, only their owner sees (fog of war, L791)
            return f"{name} turn {plural(int(d['count']), 'unit')} in {d['area']} over to their modern side."
        return f"{name} turn {d['count']} {d['unit']} in {d['area']} over to {d['to']}."
    if t == "disorder_removed":
        return f"{name} pay {d['money']} money to end the disorder in {d['area']}."
    if t == "urbanised":
        return f"{name} now have a city of {d['city']} in {d['area']}."
    if t == "capital_named":
        return f"{name} make {d['area']} their capital."
    if t == "homeland_moved":
        return f"{name} make their capital, {d['area']}, their homeland."
    return None


for _kind, _label in LABELS.items():
    register_label(_kind.kind, _label)
for _type in ("event_played", "card_check", "event_effect", "artefact_played", "leader_removed",
              "leader_drawn", "leader_promoted", "leader_returned", "adopted", "renounced", "dominant",
              "modernised", "disorder_removed", "urbanised", "capital_named", "homeland_moved"):
    register_event(_type, _civ_words)
for _stage, _words in (("cards", "play event and artefact cards (or finish)"),
                       ("leaders", "remove a leader, promote one (or finish)"),
                       ("keep", "keep the leader drawn, or return it to the cup"),
                       ("beliefs", "adopt or discard a religion or government (or finish)"),
                       ("modernise", "turn units over to their modern side (or finish)"),
                       ("disorder", "pay to remove disorder (or finish)"),
                       ("urbanise", "build or improve cities (or finish)")):
    register_heading(_stage, _words)
