"""Fog of war (issue 26 item 6; rulebook L789-791): "Obviously you can see the top unit in each stack, but
you may only examine another player's other on-map Units when tallying up conflict totals".

Our reading (data/seven_ages/README.md, "Fog of war"): every view but the owner's shows each (empire,
area) as its top unit and its count; the owner picks the top unit (a standing choice per area, default
the lowest availability level); leaders, cities, forts and artefacts stay public; public events never
name a unit that stays on the map beneath the fog.
"""

from __future__ import annotations

import io
import json
from collections import Counter
from dataclasses import replace
from typing import Any

import numpy as np
import pytest
from PIL import Image

from bot.clock import FakeClock
from bot.service import GameService, ServiceError
from bot.store import Store
from engine.core import PUBLIC, Event
from engine.seven_ages import fog, steps
from engine.seven_ages.actions import Build, Done, Prefer
from engine.seven_ages.ai import make_policy
from engine.seven_ages.cards import load_deck
from engine.seven_ages.data import load_tables
from engine.seven_ages.decision import choice
from engine.seven_ages.game import GAME
from engine.seven_ages.manoeuvre_moves import TopUnit
from engine.seven_ages.spec import SPEC
from engine.seven_ages.state import SevenState
from render.seven_ages import render_board
from tests.seven_ages_builder import Scenario, card

UNIT_NAMES = frozenset(load_tables().unit_types)
NAMES = ("alice (Blue)", "bob (Red)", "carol (Green)", "dave (Yellow)", "erin (Purple)")
PLAYOUTS = [(seed, 2 + seed % 4, "random" if seed % 2 else "greedy") for seed in range(8)]
ALICE = 1
RESTACKED: Counter[str] = Counter()
"""Top-unit moves the playouts made, by policy (the random player must send some)."""


def strings(value: Any) -> set[str]:
    """Every string anywhere in a JSON value."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(strings(v) for v in value.values())) if value else set()
    if isinstance(value, (list, tuple)):
        return set().union(*(strings(v) for v in value)) if value else set()
    return set()


def fog_problems(state: SevenState, viewer: int | None) -> list[str]:
    """What ``viewer``'s view shows that the fog hides, or gets wrong, of the state's stacks."""
    view = GAME.view(state, viewer)
    problems = []
    for e, shown in zip(state.empires, view["empires"], strict=True):
        full = [[s.area, s.unit, s.count] for s in e.units]
        if e.owner == viewer:
            if shown["units"] != full:
                problems.append(f"the owner's view of {e.card} lists {shown['units']}, not {full}")
        elif shown["units"] is not None:
            problems.append(f"seat {viewer} sees every unit of empire {e.card}")
        for area, top, count in shown["stacks"]:
            here = {s.unit for s in e.units if s.area == area}
            if top not in here or count != e.count(str(area)):
                problems.append(f"the stack of {e.card} in {area} shows {top} x{count}: it holds {here}")
        if sorted(a for a, _, _ in shown["stacks"]) != sorted(e.areas()):
            problems.append(f"the stacks of {e.card} are not its areas")
    # Nothing else in the view may name a unit type: not the other empires' units, not a go or a pending
    # decision of another seat (the viewer's own empires and go may name their own units).
    rest = dict(view)
    rest["empires"] = [{k: v for k, v in shown.items() if k != "stacks"} for shown in view["empires"]
                       if shown["owner"] != viewer]
    rest["goes"] = [g for g in view["goes"] if g["seat"] != viewer]
    named = strings(rest) & UNIT_NAMES
    if named:
        problems.append(f"seat {viewer}'s view names {sorted(named)} outside the stacks' tops")
    return problems


def event_problems(events: tuple[Event, ...]) -> list[str]:
    """Public events naming a unit type, other than those of units leaving the map or shown to all."""
    return [f"the public {e.type} names {sorted(strings(e.data) & UNIT_NAMES)}" for e in events
            if e.audience == PUBLIC and e.type not in fog.OPEN and strings(e.data) & UNIT_NAMES]


def play_checking_fog(seed: int, players: int, policy: str) -> SevenState:
    s = GAME.setup(players, SPEC.default_options(), seed)
    ais = [make_policy(policy, seed * 7 + p) for p in range(players)]
    moves = 0
    while not GAME.is_over(s):
        actors = sorted(GAME.actors(s))
        seat = actors[moves % len(actors)]
        action = ais[seat].choose(s, seat)
        if isinstance(action, TopUnit):
            RESTACKED[policy] += 1
        result = GAME.apply(s, action)
        s = result.state
        moves += 1
        problems = event_problems(result.events)
        if s.empires and moves % 3 == 0:  # every view, every third move (the views cost more than moves)
            for viewer in (*range(players), None):
                problems += fog_problems(s, viewer)
        assert not problems, f"seed {seed}, move {moves} {action.to_json()}: {problems}"
    return s


@pytest.mark.parametrize(("seed", "players", "policy"), PLAYOUTS)
def test_no_view_shows_a_unit_below_another_empires_top(seed: int, players: int, policy: str) -> None:
    """Property over seeded random and greedy games of 2-5 players: the owner's view lists every unit;
    every other view (a spectator's too) shows each stack as a unit it holds and its true count, and names
    no other unit type anywhere; no public event names a unit that stays on the map."""
    play_checking_fog(seed, players, policy)


def test_the_random_player_restacks() -> None:
    """The playouts above exercise the new move (run after them, in file order; alone, it plays two)."""
    if not RESTACKED["random"]:
        for seed, players, policy in PLAYOUTS[1:4:2]:
            play_checking_fog(seed, players, policy)
    assert RESTACKED["random"]


# -- the top-unit choice ---------------------------------------------------------------------------

def vikings_and_germans(money: int = 0) -> Scenario:
    """Seat 0's Vikings in Denmark (2 Spears, 3 Swords, a leader, a city, a fort) and Sweden (1 Spear);
    seat 1's Germans next door in Schleswig; Production, seat 0 to turn over its marker on the Vikings."""
    return (Scenario(players=3)
            .empire("Vikings", owner=0, progress=20, money=money,
                    units={"Denmark": {"Spear": 2, "Sword": 3}, "Sweden": {"Spear": 1}},
                    leaders={"Eriksson": ("Explorer", "Denmark")})
            .empire("Germans", owner=1, progress=20, units={"Schleswig": {"Spear": 1}})
            .city("Denmark", 3).fort("Denmark").marker(0, "production", "Vikings").at("production"))


def stack_seen(s: SevenState, viewer: int | None, area: str) -> list[Any]:
    e = next(x for x in GAME.view(s, viewer)["empires"] if x["card"] == card("Vikings"))
    return next(st for st in e["stacks"] if st[0] == area)


def test_others_see_the_oldest_unit_on_top_by_default() -> None:
    """With no choice made, the top is the unit with the lowest availability level: the Spear (level 1)
    over the Sword (level 12, tables.yaml)."""
    s = vikings_and_germans().state
    for viewer in (1, 2, None):
        assert stack_seen(s, viewer, "Denmark") == ["Denmark", "Spear", 5]
        assert stack_seen(s, viewer, "Sweden") == ["Sweden", "Spear", 1]


def test_a_standing_top_preference_shows_the_strongest_where_no_choice_was_made() -> None:
    """The owner stacks its units (L791); ``prefs top=strongest`` shows the best front value where no
    area's top was chosen (a Sword's front beats a Spear's in every shade, 3 or 4 against 1 or 2:
    counters.yaml), and a choice made for an area still wins over it."""
    s = vikings_and_germans()
    s.apply(Prefer(0, "top", "strongest"))
    assert fog.strongest(s.empire_of("Vikings"), ["Spear", "Sword"]) == "Sword"
    for viewer in (1, None):
        assert stack_seen(s.state, viewer, "Denmark") == ["Denmark", "Sword", 5]
        assert stack_seen(s.state, viewer, "Sweden") == ["Sweden", "Spear", 1]  # nothing stronger there
    s.apply(TopUnit(0, card("Vikings"), "Denmark", "Spear"))
    assert stack_seen(s.state, 1, "Denmark") == ["Denmark", "Spear", 5]
    s.illegal(Prefer(0, "top", "prettiest"), "bad_preference")


def test_the_top_unit_choice_changes_what_the_others_see_and_nothing_else() -> None:
    s = vikings_and_germans()
    before = s.state
    views = {v: GAME.view(before, v) for v in (0, 1, 2, None)}
    result = s.apply(TopUnit(0, card("Vikings"), "Denmark", "Sword"))
    after = result.state
    for viewer in (1, 2, None):
        assert stack_seen(after, viewer, "Denmark") == ["Denmark", "Sword", 5]
        changed = GAME.view(after, viewer)
        old = views[viewer]
        assert changed["empires"][1] == old["empires"][1]  # the Germans: as they were
        assert {k: v for k, v in changed.items() if k not in ("seq", "empires")} == \
            {k: v for k, v in old.items() if k not in ("seq", "empires")}
    assert GAME.view(after, 0)["empires"][0]["units"] == views[0]["empires"][0]["units"]
    # the state: only the Vikings' standing choice (and the move count)
    vikings = before.empire(card("Vikings"))
    assert after.empire(card("Vikings")) == replace(vikings, tops=(("Denmark", "Sword"),))
    assert replace(after, seq=before.seq, empires=before.empires) == before
    assert GAME.actors(after) == GAME.actors(before)
    for seat in GAME.actors(before):
        assert GAME.legal_actions(after, seat) == GAME.legal_actions(before, seat)
    # only its owner is told, in words
    (event,) = result.events
    assert event.audience == (0,)
    assert GAME.describe_event(event, NAMES) == \
        "Other players now see a Sword on top of the units of the Vikings in Denmark."
    move = TopUnit(0, card("Vikings"), "Denmark", "Archer")
    assert choice(GAME.view(after, 0), 0, move).label == "Show an Archer on top of your units in Denmark"


def test_the_choice_stands_while_the_unit_is_away() -> None:
    """A standing choice per area: with no Sword left in Denmark the default shows; Swords back, a Sword."""
    s = vikings_and_germans().play(TopUnit(0, card("Vikings"), "Denmark", "Sword"))
    vikings = s.state.empire(card("Vikings"))
    gone = s.state.with_empire(vikings.add_units("Denmark", "Sword", -3))
    assert stack_seen(gone, 1, "Denmark") == ["Denmark", "Spear", 2]
    back = gone.with_empire(gone.empire(card("Vikings")).add_units("Denmark", "Sword", 1))
    assert stack_seen(back, 1, "Denmark") == ["Denmark", "Sword", 3]


@pytest.mark.parametrize(("action", "code", "words"), [
    (TopUnit(0, card("Vikings"), "Schleswig", "Spear"), "no_stack",
     "The Vikings have no units in Schleswig to stack."),
    (TopUnit(0, card("Vikings"), "Sweden", "Sword"), "no_such_unit",
     "The Vikings have no Sword in Sweden to show on top."),
    (TopUnit(0, card("Vikings"), "Denmark", "Tank"), "no_such_unit",
     "The Vikings have no Tank in Denmark to show on top."),
    (TopUnit(1, card("Vikings"), "Denmark", "Sword"), "not_your_empire",
     "You can only stack the units of an empire of yours."),
    (TopUnit(0, card("Romans"), "Denmark", "Sword"), "not_your_empire",
     "You can only stack the units of an empire of yours."),
])
def test_bad_top_unit_choices_get_one_sentence_and_change_nothing(action: TopUnit, code: str,
                                                                   words: str) -> None:
    s = vikings_and_germans()
    refusal = s.illegal(action, code)  # the builder checks the state is unchanged
    assert refusal.message == words


def test_the_top_unit_choice_survives_a_json_round_trip() -> None:
    s = vikings_and_germans().play(TopUnit(0, card("Vikings"), "Denmark", "Sword"),
                                   TopUnit(0, card("Vikings"), "Sweden", "Spear")).state
    assert s.empire(card("Vikings")).tops == (("Denmark", "Sword"), ("Sweden", "Spear"))
    again = GAME.from_json(json.loads(GAME.dumps(s)))
    assert again == s
    assert GAME.view(again, 1) == GAME.view(s, 1)


# -- words and events -------------------------------------------------------------------------------

def test_the_board_in_words_shows_others_the_top_and_count_only() -> None:
    s = vikings_and_germans().play(TopUnit(0, card("Vikings"), "Denmark", "Sword")).state
    other = GAME.board_text(GAME.view(s, 1), NAMES)
    assert "- Denmark: 5 units, a Sword on top; city of value 3; fort; led by Eriksson (Explorer)." in other
    assert "Spears" not in other and "Swords" not in other
    own = GAME.board_text(GAME.view(s, 0), NAMES)
    assert "- Denmark: 2 Spears and 3 Swords (the others see 5 units, a Sword on top);" in own
    place = GAME.place_text(GAME.view(s, 2), "Denmark", NAMES) or ""
    assert "a stack of 5 units with a Sword on top of alice (Blue)'s Vikings" in place
    assert "Spear" not in place


def test_a_build_tells_the_others_a_unit_was_built_not_which() -> None:
    """L505: the Vikings build a Sword in Denmark in their Production; the public event and its words give
    the area and the price, not the type."""
    s = vikings_and_germans(money=30).turn_over(0, "Vikings")
    s.play(Build(0, "Sword", "Denmark"))
    built = [e for e in s.events if e.type == "unit_built"]
    assert built and all(e.audience == PUBLIC and "unit" not in e.data for e in built)
    words = GAME.describe_event(built[-1], NAMES) or ""
    assert words.startswith("The Vikings build a unit in Denmark for ")
    assert s.state.empire(card("Vikings")).count("Denmark", "Sword") == 4
    s.play(Done(0))


def test_a_reveal_shows_both_sides_to_all() -> None:
    """The tally (L791): :func:`fog.reveal` is how a rule shows every unit in an area to everyone."""
    s = vikings_and_germans().state
    germans = s.empire(card("Germans")).add_units("Denmark", "Knight", 2)
    ctx = steps.Ctx(s.with_empire(germans))
    fog.reveal(ctx, "Denmark")
    (event,) = ctx.events
    assert event.audience == PUBLIC
    assert event.data["sides"] == [{"empire": card("Vikings"), "units": [["Spear", 2], ["Sword", 3]]},
                                   {"empire": card("Germans"), "units": [["Knight", 2]]}]
    assert GAME.describe_event(event, NAMES) == ("The units in Denmark are shown to all for the conflict: "
                                                 "the Vikings 2 Spears and 3 Swords; the Germans 2 Knights.")


def test_an_undeclared_public_event_naming_units_is_veiled() -> None:
    """A new rule's event that names units is veiled unless declared open: the fog fails safe."""
    ctx = steps.Ctx(vikings_and_germans().state)
    ctx.emit("new_rule_moved", empire=1, unit="Knight", units=[["Knight", 2], ["Rifle", 1]])
    ctx.emit("new_rule_moved", audience=(0,), empire=1, unit="Knight")
    public, private = ctx.events
    assert public.data == {"empire": 1, "count": 3}
    assert private.data == {"empire": 1, "unit": "Knight"}


# -- the AI ---------------------------------------------------------------------------------------

def test_the_greedy_player_shows_its_strongest_unit_at_a_border() -> None:
    """Denmark borders the Germans' Schleswig: the greedy Vikings show a Sword (front 4 in the orange, dark
    mix; a Spear's is 2, counters.yaml) on top there; Sweden, one type only, keeps its default."""
    s = vikings_and_germans().state
    greedy = make_policy("greedy", 1)
    assert greedy.choose(s, 0) == TopUnit(0, card("Vikings"), "Denmark", "Sword")
    after = GAME.apply(s, TopUnit(0, card("Vikings"), "Denmark", "Sword")).state
    assert not isinstance(greedy.choose(after, 0), TopUnit)


# -- the picture ----------------------------------------------------------------------------------

def pixels(png: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB"))


def test_another_seats_picture_draws_the_top_and_count_never_the_units_below() -> None:
    s = vikings_and_germans().state
    vikings = s.empire(card("Vikings"))
    other_below = s.with_empire(vikings.add_units("Denmark", "Spear", -2).add_units("Denmark", "Archer", 2))
    # below the top (the Archer would be the default top: choose the Sword in both)
    shown = GAME.apply(s, TopUnit(0, vikings.card, "Denmark", "Sword")).state
    swapped = GAME.apply(other_below, TopUnit(0, vikings.card, "Denmark", "Sword")).state
    same = render_board(GAME.view(shown, 1), size=800)
    assert render_board(GAME.view(swapped, 1), size=800) == same  # what lies below never shows
    spear_on_top = render_board(GAME.view(s, 1), size=800)
    assert not np.array_equal(pixels(spear_on_top), pixels(same))  # the top unit does
    plain = render_board(None, size=800)
    assert Image.open(io.BytesIO(same)).height > Image.open(io.BytesIO(plain)).height  # the key strip


# -- the platform -----------------------------------------------------------------------------------

@pytest.mark.asyncio
async def test_a_player_sets_a_top_unit_through_the_service_at_any_time(store: Store) -> None:
    """The console and Discord send moves through ``GameService.submit``: a top-unit choice goes that way
    as JSON, whoever is to act and whatever the seq they saw (an anytime kind, like the canal preference);
    a bad one is refused in one sentence, as the game words it."""
    assert TopUnit.kind in SPEC.anytime_kinds
    svc = GameService(store, FakeClock(), seed_factory=lambda: 7, id_factory=lambda: "g1")
    gid = (await svc.create_lobby(ALICE, "alice", SPEC.id, seed=7)).game_id
    await svc.add_ai(gid, ALICE)
    await svc.start(gid, ALICE)
    alice = make_policy("greedy", 3)
    for _ in range(400):  # alice plays greedily (the AI seat moves between) until she holds a stack
        seq, state = await svc.engine_state(gid)
        seat = next(s.seat for s in (await svc.status(gid)).seats if s.user_id == ALICE)
        assert seat is not None
        mine = [e for e in state.empires_of(seat) if e.units]
        if mine:
            break
        await svc.submit(gid, ALICE, alice.choose(state, seat).to_json(), seq)
    assert mine, "alice never held a stack"
    e = mine[0]
    area, unit = e.units[0].area, e.units[0].unit
    await svc.submit(gid, ALICE, {"kind": "top_unit", "empire": e.card, "area": area, "unit": unit}, seq - 1)
    _, after = await svc.engine_state(gid)
    assert after.empire(e.card).tops == ((area, unit),)
    with pytest.raises(ServiceError) as info:
        await svc.submit(gid, ALICE, {"kind": "top_unit", "empire": e.card, "area": "Atlantis", "unit": unit},
                         seq - 1)
    assert info.value.code == "no_stack"
    name = load_deck().cards[e.card].empire.name
    assert info.value.message == f"The {name} have no units in Atlantis to stack."
    _, last = await svc.engine_state(gid)
    assert last.empire(e.card).tops == ((area, unit),)
