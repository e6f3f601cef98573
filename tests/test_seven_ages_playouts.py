"""Random and greedy 7 Ages games with the game's own invariants checked after every move.

After every action: money within 0-199 (L479), glory never below 0, at most 3 elite markers (L519),
no unit pool below zero (the counter mix limits units, L297), one colour per empire in play, every
one of the 110 cards in exactly one place (deck, a hand, a face-down bid, the discard pile, out of the
game, or in play
as an empire, or played and being set up), progress 1-49 or past the end, and no seat's view naming
another's face-down marker. At the end of every go, and whenever no go is under way: no leader stands in
an area without a unit of its empire (L2187), and no vacant area holds a fort, disorder, an artefact or a
capital (L622), no land unit at sea off its ships (L634), no galley or aircraft lost at sea (L654, L664),
and every ship in a sea, ocean or coastal area
(L642). In Manoeuvre no decision offers 40 choices or more (the moves are stepwise: a stack, its units,
then one area at a time), and the fast suite's games do manoeuvre.
At the end the log replays to the same state. 40 games in the fast suite, 200 more with ``-m slow``.
In every fifth game of fewer than 5 players a newcomer joins once the game takes one (L337), from a
move on that varies with the seed; the log then holds their join entry.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import pytest

from engine.core import Action, IllegalAction, join_entry, replay
from engine.seven_ages.ai import make_policy
from engine.seven_ages.battle import COMMIT
from engine.seven_ages.cleanup import adrift, marooned
from engine.seven_ages.game import GAME
from engine.seven_ages.map import load_map
from engine.seven_ages.production import pool, unit_class
from engine.seven_ages.spec import SPEC
from engine.seven_ages.state import MAX_MONEY, PAST_THE_END, SevenState

CASES = [(seed, 2 + seed % 4, "random" if seed % 3 else "greedy") for seed in range(240)]
FAST = 40
MOST_CHOICES = 40
"""Every Manoeuvre decision offers fewer choices than this (issue 26: stepwise, never whole paths)."""
MANOEUVRES: Counter[str] = Counter()
"""Manoeuvre moves made by the playouts so far, by kind (the fast suite must see units move)."""


def invariant_problems(s: SevenState) -> list[str]:
    problems = []
    for e in s.empires:
        if not 0 <= e.money <= MAX_MONEY:
            problems.append(f"empire {e.card} has {e.money} money")
        if not 0 <= e.elite <= 3:
            problems.append(f"empire {e.card} has {e.elite} elite markers")
        if not 1 <= e.progress <= PAST_THE_END:
            problems.append(f"empire {e.card} is on level {e.progress}")
        for stack in e.units:
            if stack.count <= 0 or pool(e, stack.unit) < 0:
                problems.append(f"empire {e.card} has too many {stack.unit}")
    colours = [e.colour for e in s.empires]
    if len(colours) != len(set(colours)):
        problems.append(f"a colour is used twice: {colours}")
    if any(p.glory < 0 for p in s.people):
        problems.append("negative glory")
    played = [int(g.data["card"]) for g in s.goes if "card" in g.data]  # a card played, its empire not set up
    places = Counter([*s.deck, *s.discard, *s.removed, *played,
                      *(e.card for e in s.empires if e.card not in played),
                      *(c for p in s.people for c in p.hand), *(p.bid for p in s.people if p.bid),
                      *(c for _, c in s.aside)])  # cards face down in a trade (half B)
    if sorted(places) != list(range(1, 111)) or any(n != 1 for n in places.values()):
        problems.append("the cards are not each in exactly one place")
    for viewer in range(s.players):
        view = GAME.view(s, viewer)
        for m, shown in zip(s.markers, view["markers"], strict=True):
            if m.face_down and m.owner != viewer and shown["action"] is not None:
                problems.append(f"seat {viewer} sees seat {m.owner}'s face-down marker")
        if s.sealed or any(p.kind == COMMIT for p in s.pending):
            # a conflict's commitments (pending or sealed) of other seats change nothing in this view
            blank = replace(s, sealed=tuple(p if p.seat == viewer else replace(p, data={}) for p in s.sealed),
                            pending=tuple(p if p.seat == viewer else replace(p, data={}) for p in s.pending))
            if GAME.view(blank, viewer) != view:
                problems.append(f"seat {viewer} sees another seat's conflict commitment")
    return problems


def cleanup_problems(s: SevenState) -> list[str]:
    """What the end-of-action clean-ups (L622, L2187) leave behind: nothing, when they ran."""
    problems = [f"{ld.name} of empire {e.card} stands alone in {ld.area}"
                for e in s.empires for ld in e.leaders if not e.count(ld.area)]
    for held in s.areas:
        if (held.fort or held.disorder or held.artefacts) and not s.occupants(held.name):
            problems.append(f"vacant {held.name} keeps {held}")
    shared = Counter(a for e in s.empires for a in e.areas())
    problems += [f"{area} is shared by two empires outside a conflict" for area, n in shared.items() if n > 1]
    problems += [f"empire {e.card} keeps its capital in vacant {e.capital}"
                 for e in s.empires if e.capital is not None and not s.occupants(e.capital)]
    wmap = load_map()
    for e in s.empires:
        for stack in e.units:
            if marooned(s, e, stack.area) or adrift(s, e, stack.area):
                problems.append(f"empire {e.card} keeps units lost at sea in {stack.area}")
            place = wmap.areas[stack.area]
            if unit_class(stack.unit) == "ships" and place.land and not wmap.coastal(stack.area):
                problems.append(f"empire {e.card} has a ship inland in {stack.area}")
    return problems


def _goes(s: SevenState) -> set[tuple[int, int, int, str]]:
    return {(g.seat, g.marker, g.empire, g.action) for g in s.goes}


def play(seed: int, players: int, policy: str, **changed: object) -> SevenState:
    options = {**SPEC.default_options(), **changed}
    s = GAME.setup(players, options, seed)
    ais = [make_policy(policy, seed * 11 + p) for p in range(players)]
    log: list[Action | Mapping[str, Any]] = []
    join_at = 1 + 6 * (seed % 13) if seed % 5 == 0 and players < SPEC.max_players else None
    while not GAME.is_over(s):
        if join_at is not None and len(log) >= join_at:
            try:
                s = GAME.join(s).state
            except IllegalAction:
                pass  # still preparing: a later move
            else:
                join_at = None
                log.append(join_entry(s.players - 1))
                ais.append(make_policy(policy, seed * 11 + s.players - 1))
                continue
        actors = sorted(GAME.actors(s))
        assert actors, f"nobody may act in phase {s.phase}"
        seat = actors[len(log) % len(actors)]
        if s.phase == "manoeuvre":
            choices = len(GAME.legal_actions(s, seat))
            assert choices < MOST_CHOICES, f"seed {seed}: a manoeuvre decision of {choices} choices"
        action = ais[seat].choose(s, seat)
        if s.phase == "manoeuvre":
            MANOEUVRES[action.kind] += 1
        before = s
        s = GAME.apply(s, action).state
        log.append(action)
        problems = invariant_problems(s)
        if _goes(before) - _goes(s) or not s.goes:  # a go ended, or none is under way
            problems += cleanup_problems(s)
        assert not problems, f"seed {seed}, move {len(log)} {action.to_json()}: {problems}"
        assert len(log) < 20_000
    assert join_at is None, "the newcomer never joined"
    assert replay(GAME, players, options, seed, log) == s
    assert s.turn == options["turn_limit"] or any(e.progress >= PAST_THE_END for e in s.empires)
    return s


@pytest.mark.parametrize(("seed", "players", "policy"), CASES[:FAST])
def test_playouts_keep_the_invariants(seed: int, players: int, policy: str) -> None:
    play(seed, players, policy)


def test_the_playouts_manoeuvre() -> None:
    """Units move in the fast suite's games: random and greedy players take stacks, move them and stop
    (run after the playouts above, in file order; alone, it plays a few games itself)."""
    if not MANOEUVRES["stop_here"]:
        for seed, players, policy in CASES[:6]:
            play(seed, players, policy)
    assert MANOEUVRES["move_from"] and MANOEUVRES["move_to"] and MANOEUVRES["stop_here"]


@pytest.mark.slow
@pytest.mark.parametrize(("seed", "players", "policy"), CASES[FAST:])
def test_many_playouts_keep_the_invariants(seed: int, players: int, policy: str) -> None:
    play(seed, players, policy)


@pytest.mark.slow
@pytest.mark.parametrize(("seed", "players"), [(1, 2), (2, 3), (3, 4), (4, 5), (5, 4)])
def test_greedy_games_without_a_turn_limit_end(seed: int, players: int) -> None:
    """With no turn limit the game ends only when an empire goes beyond level 49 (L313): greedy players
    trade through the dark ages (where free progress stops, L1026) and get there, well within the 60
    turns the lobby's longest limit allows."""
    s = play(seed, players, "greedy", turn_limit=0)
    assert any(e.progress >= PAST_THE_END for e in s.empires)
    assert s.turn <= 60


@pytest.mark.slow
def test_greedy_outscores_random_players() -> None:
    """The greedy player against three random ones (its seat rotating), 12 turns: it pursues glory, so it
    should finish first in most games."""
    firsts = 0
    for seed in range(10):
        greedy = seed % 4
        options = SPEC.default_options()
        s = GAME.setup(4, options, seed)
        ais = [make_policy("greedy" if p == greedy else "random", seed * 31 + p) for p in range(4)]
        while not GAME.is_over(s):
            seat = min(GAME.actors(s))
            s = GAME.apply(s, ais[seat].choose(s, seat)).state
        firsts += GAME.ranking(s)[0] == greedy
    assert firsts >= 8
