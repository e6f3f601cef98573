"""7 Ages end of turn (L1022-1148): free progress, buying glory, harvest glory, option 15 hocking.

The ``end_turn`` step: free progress happens as it begins; then the harvest's events are played in their
window and carried out (:mod:`engine.seven_ages.harvest_events`); then, from the First player clockwise,
each player whose empires can afford it may buy glory; each player whose own empires tie in a
category where the order changes their glory says which is higher (L1048); the harvest is counted
(:mod:`engine.seven_ages.glory`); with option 15 each player may hock glory for money. Progress
(:func:`advance`) is shared with Trade and events: it removes leaders on a change of age (L946),
locks an empire past level 49 (L594) and pays immediate glory per level (L1142).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import replace
from itertools import permutations
from typing import Any

from engine.core import Action, Choice, Event, Handlers, IllegalAction, Names, PlayerId
from engine.seven_ages import glory, harvest_events, modifiers, power_events, progress_markers, steps
from engine.seven_ages.actions import Done
from engine.seven_ages.cards import load_deck
from engine.seven_ages.civilisation_moves import BuyGlory, Hock, RankHigher
from engine.seven_ages.conflict_moves import WindowPass, WindowPlay
from engine.seven_ages.data import load_tables
from engine.seven_ages.decision import register_heading, register_label
from engine.seven_ages.glory import Holding
from engine.seven_ages.map import load_map
from engine.seven_ages.markers import took_wild
from engine.seven_ages.production import age_of
from engine.seven_ages.state import END_TURN, LAST_LEVEL, PAST_THE_END, Empire, Go, Pending, SevenState
from engine.seven_ages.steps import Ctx
from engine.seven_ages.text import empire_name, register_event, the_empire
from engine.seven_ages.text import seat as seat_name
from engine.seven_ages.view import SevenView
from engine.words import join_words, plural

EVENTS, BUY, TIES, HOCK = "harvest_events", "buy", "ties", "hock"
PRICES = "prices"
"""Go data at the harvest: the empires whose glory costs other than 50 (option 16's Renaissance, L1880), for
the labels."""
HOCKING = "hocking"  # option 15's key in the lobby options
HARVESTS_KEPT = 2  # an empire's harvests its Empire.harvests keeps (the notes' "two turns running", L2353)


def advance(ctx: Ctx, card: int, levels: int) -> int:
    """Move an empire ``levels`` along the progress track (negative: back); the levels it moved.

    Past level 49 it stays there and can no longer go back (L594); entering another age removes
    all its leaders (L946) and the on-map artefacts of other ages (L927); each level gained pays
    the card's immediate glory per level (Benin, L1142).
    """
    s = ctx.state
    e = s.empire(card)
    if levels == 0 or e.progress >= PAST_THE_END:
        return 0
    new = max(1, e.progress + levels)
    passed, count = e.passed, s.passed_count
    if new > LAST_LEVEL:
        new, count = PAST_THE_END, count + 1
        passed = count
    moved = new - e.progress
    changed = age_of(new) != age_of(e.progress)
    e = replace(e, progress=new, passed=passed)
    s = replace(s, passed_count=count)
    if changed:
        s = _new_age(s, e)
        e = s.empire(card) if s.has_empire(card) else e
    else:
        s = s.with_empire(e)
    ctx.state = s
    ctx.emit("progress", empire=card, seat=e.owner, levels=moved, level=new)
    if changed and moved > 0:  # option 16: a higher age than the black marker's ends World war (L1996)
        progress_markers.entered_age(ctx, e)
    if moved > 0:
        immediate(ctx, card, "per_level", moved)
    return moved


def _new_age(s: SevenState, e: Empire) -> SevenState:
    """Old age has seen the leaders off (L946); on-map artefacts of other ages go (L927)."""
    cup = s.cup + tuple(ld.abilities[0] for ld in e.leaders if not ld.named)
    gone = modifiers.left_age(s, e)  # option 16: artefacts that last only the age (L1463, L1895)
    s = replace(s, cup=cup).with_empire(replace(e, leaders=(), artefacts=tuple(
        a for a in e.artefacts if a not in gone)))
    arts = load_deck().artefacts
    now = age_of(e.progress)
    for area in e.areas():
        a = s.area(area)
        keep = tuple(n for n in a.artefacts if n not in arts or arts[n].ages[0] <= now <= arts[n].ages[1])
        if keep != a.artefacts:
            s = s.with_area(replace(a, artefacts=keep))
    return s


def immediate(ctx: Ctx, card: int, condition: str, times: int = 1) -> None:
    """Immediate glory (square icons) for ``condition`` met ``times`` times (L1138-1142)."""
    e = ctx.state.empire(card)
    points = glory.immediate(load_deck().cards[card].empire, condition, times)
    if points:
        gain(ctx, e.owner, condition, points)
        ctx.emit("immediate_glory", seat=e.owner, empire=card, condition=condition, glory=points)


def gain(ctx: Ctx, seat: PlayerId, category: str, points: int) -> None:
    """``seat`` gains (or loses) glory; never below 0 (L2141)."""
    s = ctx.state
    ctx.state = s.with_player(s.people[seat].gain(category, points))


def holding(state: SevenState, e: Empire) -> Holding:
    """An empire as the harvest sees it."""
    deck, tables = load_deck(), load_tables()
    areas = frozenset(e.areas())
    units: dict[str, dict[str, int]] = {}
    for st in e.units:
        cls = tables.unit_types[st.unit].unit_class
        units.setdefault(st.area, {})
        units[st.area][cls] = units[st.area].get(cls, 0) + st.count
    artefacts: list[tuple[str, str | None]] = []
    for a in sorted(areas):
        for name in state.area(a).artefacts:
            art = deck.artefacts.get(name)
            if art is not None:
                artefacts.append((art.colour, a))
    for name in e.artefacts:  # on the card: red markers count against it, green ones for it (L1066)
        art = deck.artefacts.get(name)
        if art is not None and art.colour != "black":
            artefacts.append((art.colour, None))
    return Holding(
        empire=str(e.card), player=e.owner, card=deck.cards[e.card].empire, level=min(e.progress, LAST_LEVEL),
        money=e.money, areas=areas, disordered=frozenset(
            a for a in areas if state.area(a).disorder and not modifiers.counts_disordered(state, e, a)),
        cities={a: state.area(a).city for a in areas if state.area(a).city}, capital=e.capital,
        homeland=e.homeland, units=units,
        leaders=tuple((ab, ld.area) for ld in e.leaders for ab in ld.abilities),
        artefacts=tuple(artefacts), religions=e.religions, beyond=e.progress >= PAST_THE_END,
        bonus=modifiers.harvest_bonus(state, e))


def glory_price(state: SevenState, e: Empire) -> int:
    """What one glory costs the empire at the harvest (L1058), as option 16 changes it."""
    return modifiers.glory_price(state, e, glory.glory_price())


def free_progress(ctx: Ctx) -> None:
    """+1 level for every empire, unless it is in a dark age without a Scientist, or took a wild
    card action this turn without an Administrator (L1026, L355, L2009)."""
    dark = load_tables().dark_ages
    for e in ctx.state.empires:
        if not modifiers.free_progress(ctx.state):  # option 16: not while World war's marker stands (L1995)
            ctx.emit("no_free_progress", empire=e.card, why="world war")
            continue
        if took_wild(ctx.state, e.card) and not e.has_leader("Administrator"):
            ctx.emit("no_free_progress", empire=e.card, why="wild")
            continue
        if e.progress in dark and not e.has_leader("Scientist"):
            ctx.emit("no_free_progress", empire=e.card, why="dark")
            continue
        advance(ctx, e.card, 1)


# -- the step ---------------------------------------------------------------------------------------

def _go(state: SevenState) -> Go | None:
    return next((g for g in state.goes if g.action == END_TURN), None)


def _with_data(ctx: Ctx, stage: str, **data: Any) -> None:
    s = ctx.state
    go = _go(s)
    merged = dict(go.data if go else {})
    merged.update(data)
    seat = s.queue[0] if s.queue else s.first
    new = Go(seat, -1, 0, END_TURN, stage, merged)
    ctx.state = replace(s, goes=(new,))


def _buyers(state: SevenState) -> tuple[int, ...]:
    return tuple(p for p in state.seats_from_first()
                 if any(e.money >= glory_price(state, e) for e in state.empires_of(p)))


def _hockers(state: SevenState) -> tuple[int, ...]:
    return tuple(p for p in state.seats_from_first() if _hock_moves(state, p))


def _orders(go: Go | None) -> dict[str, list[str]]:
    return dict(go.data.get("orders", {})) if go else {}


def _chooser(orders: dict[str, list[str]], category: str, which: str | None) -> glory.TieOrder:
    def choose(player: PlayerId, group: tuple[str, ...]) -> tuple[str, ...]:
        chosen = [e for e in orders.get(_cat_key(category, which), []) if e in group]
        return (*chosen, *(e for e in group if e not in chosen))
    return choose


def _cat_key(category: str, which: str | None) -> str:
    return f"{category}:{which or ''}"


Question = tuple[PlayerId, str, tuple[str, ...]]


def tie_questions(state: SevenState, orders: dict[str, list[str]]) -> list[Question]:
    """Ties of one player's empires whose order changes that player's glory, not yet ordered:
    (seat, category key, the tied empires still to order)."""
    wmap = load_map()
    hs = [holding(state, e) for e in state.empires]
    by_name = {h.empire: h for h in hs}
    out = []
    for category, which in sorted(glory.ranked_categories(hs), key=lambda c: (c[0], c[1] or "")):
        amounts = glory.category_amounts(hs, category, which, wmap)
        key = _cat_key(category, which)
        ranked = glory.rank(amounts, by_name, state.first, state.players, _chooser(orders, category, which))
        for seat, group in glory.own_ties(amounts, by_name, state.first, state.players):
            done = [e for e in orders.get(key, []) if e in group]
            rest = tuple(e for e in group if e not in done)
            if len(rest) < 2:
                continue
            start = ranked.index(group[0]) if group[0] in ranked else 0
            places = [start + len(done) + i for i in range(len(rest))]
            totals = {sum(glory.place_points(glory.category_value(by_name[e], category, which), p)
                          for e, p in zip(order, places, strict=True)) for order in permutations(rest)}
            if len(totals) > 1:
                out.append((seat, key, rest))
    return out


def _current(state: SevenState) -> Go:
    """The end of turn's go, under way while the step takes moves."""
    go = _go(state)
    assert go is not None
    return go


def _asked(state: SevenState, seat: PlayerId) -> Pending | None:
    return next((p for p in state.pending if p.seat == seat), None)


class EndTurnStep:
    """The end of turn: free progress, the harvest's events, then buying glory, own ties, the harvest and
    hocking."""

    name = END_TURN

    @property
    def handlers(self) -> Handlers[Ctx]:
        return {BuyGlory: self._buy_move, RankHigher: self._rank_move, Hock: self._hock_move,
                Done: self._done, WindowPlay: self._window_move, WindowPass: self._window_move}

    def enter(self, ctx: Ctx) -> None:
        free_progress(ctx)
        ctx.state = replace(ctx.state, queue=())
        _with_data(ctx, EVENTS, orders={})
        go = _go(ctx.state)
        assert go is not None
        if harvest_events.open_harvest(ctx, go):
            self._after_events(ctx)

    def _after_events(self, ctx: Ctx) -> None:
        """The harvest's window has closed: its events are carried out, then glory may be bought."""
        go = _go(ctx.state)
        assert go is not None
        harvest_events.carry_out(ctx, go)
        ctx.state = replace(ctx.state, queue=_buyers(ctx.state))
        prices = {str(e.card): glory_price(ctx.state, e) for e in ctx.state.empires
                  if glory_price(ctx.state, e) != glory.GLORY_COST}
        _with_data(ctx, BUY, **({PRICES: prices} if prices else {}))
        self._move_on(ctx)

    def _move_on(self, ctx: Ctx) -> None:
        """Go to the next stage that needs a player, running the harvest on the way."""
        go = _go(ctx.state)
        assert go is not None
        if go.stage == BUY and not ctx.state.queue:
            go = replace(go, stage=TIES)
            ctx.state = replace(ctx.state, goes=(go,))
        if go.stage == TIES:
            # no harvest, no order of one's own ties to give (L879)
            cancelled = go.data.get(harvest_events.NO_HARVEST)
            questions = [] if cancelled else tie_questions(ctx.state, _orders(go))
            if questions:
                ctx.state = replace(ctx.state, queue=(questions[0][0],))
                _with_data(ctx, TIES, question=[questions[0][1], list(questions[0][2])])
                return
            self._harvest(ctx)
            hockers = _hockers(ctx.state) if ctx.state.options.get(HOCKING) else ()
            ctx.state = replace(ctx.state, queue=hockers)
            _with_data(ctx, HOCK, hocked={})
            go = _go(ctx.state)
            assert go is not None
        if go.stage == HOCK and not ctx.state.queue:
            ctx.state = replace(ctx.state, goes=())
        elif ctx.state.queue and (now := _go(ctx.state)) is not None and now.seat != ctx.state.queue[0]:
            # the go is the asked player's: their view shows its data and heading
            ctx.state = replace(ctx.state, goes=(replace(now, seat=ctx.state.queue[0]),))

    def _harvest(self, ctx: Ctx) -> None:
        s = ctx.state
        go = _go(s)
        if go is not None and go.data.get(harvest_events.NO_HARVEST):
            return  # Glory? Bah, Humbug stood (L879): announced as the events were carried out
        orders = _orders(go)
        awards = glory.harvest([holding(s, e) for e in s.empires], s.first, s.players,
                               lambda category, which: _chooser(orders, category, which))
        for a in awards:
            gain(ctx, s.empire(int(a.empire)).owner, a.category, a.glory)
        earned = Counter[int]()
        for a in awards:
            earned[int(a.empire)] += a.glory
        for e in s.empires:  # option 16: Hinduism's glory on what the harvest gave (L1676-1678)
            changed = modifiers.harvest_glory(ctx.state, e, earned[e.card]) - earned[e.card]
            power_events.glory(ctx, e.card, changed, modifiers.HINDUISM)
            earned[e.card] += changed
        for e in s.empires:  # kept for the computer players' folding of duds (L2353)
            live = ctx.state.empire(e.card)
            kept = (*live.harvests, earned[e.card])[-HARVESTS_KEPT:]
            ctx.state = ctx.state.with_empire(replace(live, harvests=kept))
        ctx.emit("harvest", awards=[{"empire": int(a.empire), "category": a.category, "which": a.which,
                                     "glory": a.glory, "place": a.place} for a in awards])

    def actors(self, state: SevenState) -> frozenset[PlayerId]:
        return frozenset(state.queue[:1]) | frozenset(p.seat for p in state.pending)

    def legal(self, state: SevenState, seat: PlayerId) -> list[Action]:
        go = _go(state)
        if go is None or seat not in self.actors(state):
            return []
        if (pending := _asked(state, seat)) is not None:
            return harvest_events.pending_legal(state, pending)
        if go.stage == BUY:
            return [*(BuyGlory(seat, e.card, n) for e in state.empires_of(seat)
                      for n in range(1, glory.most_buyable(e.money, glory_price(state, e)) + 1)), Done(seat)]
        if go.stage == TIES:
            return [RankHigher(seat, int(e)) for e in go.data["question"][1]]
        if go.stage == HOCK:
            return [*_hock_moves(state, seat), Done(seat)]
        return []

    def _answered(self, ctx: Ctx, action: Action) -> bool:
        """Apply ``action`` when its seat is asked in the harvest's window, or a cancel chain in it
        (L879-881); False when it is not."""
        go = _go(ctx.state)
        assert go is not None
        if _asked(ctx.state, action.player) is None:
            return False
        if harvest_events.move(ctx, go, action):
            self._after_events(ctx)
        return True

    def _window_move(self, ctx: Ctx, action: Action) -> None:
        if not self._answered(ctx, action):
            raise IllegalAction("no_window", "No harvest event may be played now.")

    def _done(self, ctx: Ctx, action: Done) -> None:
        if self._answered(ctx, action):
            return
        s = ctx.state
        if _current(s).stage == TIES:
            raise IllegalAction("tie_open", "Say which of your tied empires ranks higher first.")
        ctx.state = replace(s, queue=s.queue[1:])
        self._move_on(ctx)

    def _buy_move(self, ctx: Ctx, action: BuyGlory) -> None:
        if not self._answered(ctx, action):
            self._buy(ctx, action.player, action)
            self._move_on(ctx)

    def _rank_move(self, ctx: Ctx, action: RankHigher) -> None:
        if not self._answered(ctx, action):
            self._rank(ctx, _current(ctx.state), action)
            self._move_on(ctx)

    def _hock_move(self, ctx: Ctx, action: Hock) -> None:
        if not self._answered(ctx, action):
            self._hock(ctx, _current(ctx.state), action.player, action)
            self._move_on(ctx)

    def _buy(self, ctx: Ctx, seat: PlayerId, action: BuyGlory) -> None:
        s = ctx.state
        if _go(s) is None or _go(s).stage != BUY:  # type: ignore[union-attr]
            raise IllegalAction("not_buying", "Glory is bought only before the harvest.")
        e = _own(s, seat, action.empire)
        price = glory_price(s, e)
        cost = price * action.points
        if action.points < 1 or cost > e.money:
            raise IllegalAction("too_dear", f"Glory costs {price} money a point; the empire "
                                f"has {e.money}.", money=e.money)
        ctx.state = s.with_empire(replace(e, money=e.money - cost))
        gain(ctx, seat, "bought", action.points)
        ctx.emit("glory_bought", seat=seat, empire=e.card, glory=action.points, money=cost)

    def _rank(self, ctx: Ctx, go: Go, action: RankHigher) -> None:
        if go.stage != TIES:
            raise IllegalAction("no_tie", "No tie of your empires waits for you.")
        key, group = go.data["question"]
        if str(action.empire) not in group:
            raise IllegalAction("not_tied", "That empire is not one of the tied ones.")
        orders = {k: list(v) for k, v in _orders(go).items()}
        orders.setdefault(key, []).append(str(action.empire))
        ctx.state = replace(ctx.state, queue=())
        _with_data(ctx, TIES, orders=orders, question=None)
        ctx.emit("tie_ordered", seat=action.player, empire=action.empire, category=key.split(":")[0])

    def _hock(self, ctx: Ctx, go: Go, seat: PlayerId, action: Hock) -> None:
        if go.stage != HOCK:
            raise IllegalAction("not_hocking", "Glory is hocked only after the harvest (option 15).")
        if action not in _hock_moves(ctx.state, seat):
            raise IllegalAction("too_much", "Each empire may hock no more glory than its undisordered "
                                "cities, nor more than you have.")
        s = ctx.state
        e = s.empire(action.empire)
        ctx.state = s.with_empire(replace(e, money=glory.hock(e.money, action.points)))
        gain(ctx, seat, "hocked", -action.points)
        p = ctx.state.people[seat]
        ctx.state = ctx.state.with_player(replace(p, hocked=p.hocked + action.points))
        hocked = dict(go.data.get("hocked", {}))
        hocked[str(e.card)] = hocked.get(str(e.card), 0) + action.points
        _with_data(ctx, HOCK, hocked=hocked)
        ctx.emit("glory_hocked", seat=seat, empire=e.card, glory=action.points, money=5 * action.points)

    def done(self, state: SevenState) -> bool:
        return _go(state) is None and not state.queue

    def timeout(self, state: SevenState, seat: PlayerId) -> Action:
        if (pending := _asked(state, seat)) is not None:
            return harvest_events.passive(pending)
        go = _go(state)
        if go is not None and go.stage == TIES:
            return best_order(state, seat)
        return Done(seat)


def best_order(state: SevenState, seat: PlayerId) -> Action:
    """The tied empire whose placing first gives its player the most glory (the skip choice)."""
    go = _go(state)
    assert go is not None
    key, group = go.data["question"]
    category, which = key.split(":")
    deck = load_deck()
    best = max(group, key=lambda e: (deck.cards[int(e)].empire.category(category, which or None) or 0))
    return RankHigher(seat, int(best))


def _own(state: SevenState, seat: PlayerId, card: int) -> Empire:
    if not state.has_empire(card) or state.empire(card).owner != seat:
        raise IllegalAction("not_your_empire", "That is not one of your empires.")
    return state.empire(card)


def _hock_moves(state: SevenState, seat: PlayerId) -> list[Action]:
    go = _go(state)
    hocked = go.data.get("hocked", {}) if go else {}
    out: list[Action] = []
    left = state.people[seat].glory
    for e in state.empires_of(seat):
        cities = sum(1 for a in e.areas() if state.area(a).city and not state.area(a).disorder)
        most = glory.most_hockable(left, cities - int(hocked.get(str(e.card), 0)))
        out += [Hock(seat, e.card, n) for n in range(1, most + 1)]
    return out


steps.register(EndTurnStep())


# -- words ------------------------------------------------------------------------------------------

CATEGORY_WORDS = {"seas": "sea areas", "region": "areas in {}", "not_europe": "areas outside Europe",
                  "progress": "progress", "artefacts": "artefacts", "cities": "cities", "money": "money",
                  "ships": "ships", "land_units": "land units", "cavalry": "cavalry",
                  "religion": "{} areas", "homeland": "the homeland", "wheat": "wheat",
                  "elephant": "elephants", "oil": "oil", "religious_site": "{} sites"}


def category_words(category: str, which: str | None) -> str:
    return CATEGORY_WORDS.get(category, category.replace("_", " ")).format(which or "")


def _price_in(view: SevenView, card: int) -> int:
    """What one glory costs empire ``card`` at this harvest, from the end of turn's go in the view."""
    for go in view.get("goes", []):
        if go["action"] == END_TURN:
            return int(go["data"].get(PRICES, {}).get(str(card), glory.GLORY_COST))
    return glory.GLORY_COST


def _buy_label(view: SevenView, action: BuyGlory) -> Choice:
    price = _price_in(view, action.empire)
    return Choice(action, f"Buy {action.points} glory for {price * action.points} money",
                  group=f"Buy glory with {empire_name(action.empire)}")


def _hock_label(view: SevenView, action: Hock) -> Choice:
    return Choice(action, f"Hock {action.points} glory for {glory.HOCK_MONEY * action.points} money",
                  group=f"Hock glory for {empire_name(action.empire)}")


def _rank_label(view: SevenView, action: RankHigher) -> Choice:
    return Choice(action, f"{the_empire(action.empire)} rank higher in the tie")


LABELS: Mapping[type[Action], Callable[[SevenView, Any], Choice]] = {
    BuyGlory: _buy_label, Hock: _hock_label, RankHigher: _rank_label,
}
"""The words of the end of a turn's moves, by class."""


def _end_words(event: Event, names: Names) -> str | None:
    d = event.data
    who = seat_name(names, int(d["seat"])) if "seat" in d else ""
    name = the_empire(int(d["empire"])) if "empire" in d else ""
    if event.type == "progress":
        if int(d["levels"]) >= 0:
            return f"{name} advance {plural(int(d['levels']), 'level')} to progress level {d['level']}."
        return f"{name} fall back {plural(-int(d['levels']), 'level')} to progress level {d['level']}."
    if event.type == "no_free_progress":
        why = {"wild": "took a wild card action without an Administrator",
               "world war": "are at war: the World war marker is on the progress track"}.get(
            str(d["why"]), "are in a dark age without a Scientist")
        return f"{name} get no free progress: they {why}."
    if event.type == "immediate_glory":
        return f"{who} gains {plural(int(d['glory']), 'glory point')} at once from {name}."
    if event.type == "glory_bought":
        return f"{who} buys {d['glory']} glory with {name} for {d['money']} money."
    if event.type == "glory_hocked":
        return f"{who} hocks {d['glory']} glory: {name} gain {d['money']} money."
    if event.type == "tie_ordered":
        return f"{who} ranks {name} higher in their tie."
    if event.type == "harvest":
        parts = [f"{empire_name(int(a['empire']))} {int(a['glory']):+d} "
                 f"({category_words(a['category'], a['which'])})" for a in d["awards"]]
        return "Harvest glory: " + (join_words(parts) if parts else "no empire earns glory") + "."
    return None


for _kind, _label in LABELS.items():
    register_label(_kind.kind, _label)
for _type in ("progress", "no_free_progress", "immediate_glory", "glory_bought", "glory_hocked",
              "tie_ordered", "harvest"):
    register_event(_type, _end_words)
for _stage, _words in ((EVENTS, "play an event of the harvest, or pass"),
                       (BUY, "buy glory at 50 money a point (30 with Renaissance's power), or finish"),
                       (TIES, "two of your empires tie: say which ranks higher"),
                       (HOCK, "hock glory for 5 money a point (or finish)")):
    register_heading(_stage, _words)
