"""One `land` for every game (issue 28): :meth:`engine.core.Game.place_text` over the registry; no test
here names a game.

A place is found the way a person finds one: by a name the board text shows, then by the neighbours the
place's own text names. What the board says of a place (the items of its sentences that name it, with
their sentence's head: "North, held by ann (Red): Crossroads: 3 armies of ann (Red); 3 armies of bob
(Blue)") names seats the place's text must name too; an empty place is described, not skipped; an
unknown word gets None, so the front says it knows no such place.
"""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

import tests.toy.spec  # noqa: F401  (the toy game declares its facets too: it has no places)
from bot.clock import FakeClock
from bot.store import Store
from engine import registry
from engine.core import Game
from engine.spec import GameSpec
from tests.contract.test_console_contract import HUMAN, Table

SPECS = registry.specs()
#: The games whose board is named places (the facet :attr:`engine.spec.GameSpec.named_places`).
MAPPED = [s for s in SPECS if s.named_places]
PEOPLE = ("ann", "bob", "cid", "dan", "eve", "fay")
COLOURS = ("Red", "Blue", "Green", "Yellow", "Black", "White")
MOVES = 600
LOOKUPS = 4000
RAW = re.compile(r"\bNone\b|[{}\[\]]|\bseat \d|\w_\w")


def spec_id(value: object) -> str:
    return value.id if isinstance(value, GameSpec) else str(value)


def phrases(text: str) -> list[str]:
    """Every run of one to four words of ``text`` that starts with a capital: the names it may hold."""
    words = [w.strip(".,;:()") for w in text.split()]
    out = []
    for i, word in enumerate(words):
        if not word[:1].isupper():
            continue
        for n in range(1, 5):
            run = words[i:i + n]
            if len(run) == n and all(run):
                out.append(" ".join(run))
    return list(dict.fromkeys(out))


def seats_named(text: str, names: Sequence[str]) -> set[int]:
    return {p for p, name in enumerate(names) if name in text}


def board_says(board: str, place: str) -> list[str]:
    """The board's words about ``place``: each item of a list naming it, with the items after it that
    start no other place (no ": "), and the head of its sentence (whose list it is)."""
    word = re.compile(rf"(?<![\w-]){re.escape(place)}(?![\w-])")
    units = []
    for sentence in re.split(r"(?<=\.)\s+|\n", board):
        head, colon, rest = sentence.partition(": ")
        if not colon:
            if word.search(sentence):
                units.append(sentence)
            continue
        items = rest.split("; ")
        for i, item in enumerate(items):
            if not word.search(item) and not (i == 0 and word.search(head)):
                continue
            unit = [head, item, *itertools.takewhile(lambda later: ": " not in later, items[i + 1:])]
            units.append("; ".join(unit))
    return units


def crowded(spec: GameSpec) -> tuple[Game, list[Any], list[str]]:
    """The game, and a few states of a game played at random from its start (the first, the first
    where the board text names two seats, and the last), with the seats' names."""
    game = spec.load()
    players = min(max(spec.min_players, 3), spec.max_players)
    names = [f"{PEOPLE[p]} ({COLOURS[p]})" for p in range(players)]
    state = game.setup(players, {}, 7)
    rng = random.Random(spec.id)
    states = [state]
    for _ in range(MOVES):
        if game.is_over(state):
            break
        actors = sorted(game.actors(state))
        if not actors:
            break
        player = rng.choice(actors)
        state = game.apply(state, rng.choice(list(game.legal_actions(state, player)))).state
        if len(states) == 1 and len(seats_named(game.board_text(game.view(state, None), names), names)) > 1:
            states.append(state)
    states.append(state)
    return game, states, names


def places(game: Game, view: Any, names: Sequence[str]) -> dict[str, tuple[str, bool]]:
    """Every place reachable from the board text's names through the neighbours the places name:
    the word that found it -> (its text, whether the board text showed that word)."""
    board = game.board_text(view, names)
    todo = phrases(board)
    shown = set(todo)
    seen: set[str] = set()
    found: dict[str, tuple[str, bool]] = {}
    texts: set[str] = set()
    while todo and len(seen) < LOOKUPS:
        word = todo.pop(0)
        if word in seen:
            continue
        seen.add(word)
        text = game.place_text(view, word, names)
        if text is None or text in texts:
            continue
        texts.add(text)
        found[word] = (text, word in shown)
        todo += [p for p in phrases(text) if p not in seen]
    return found


@pytest.mark.parametrize("spec", MAPPED, ids=spec_id)
def test_land_describes_every_place_with_every_seats_pieces_and_an_empty_one_too(spec: GameSpec) -> None:
    game, states, names = crowded(spec)
    occupied = empty = 0
    for state in states:
        view = game.view(state, None)
        board = game.board_text(view, names)
        found = places(game, view, names)
        if not found:  # an empty board at the start names no place
            continue
        on_board: set[int] = set()
        named: set[int] = set()
        for word, (text, from_board) in found.items():
            seats = seats_named(text, names)
            named |= seats
            assert not RAW.search(text), text
            assert all(line.rstrip().endswith(".") for line in text.splitlines()), text
            assert game.place_text(view, word.upper(), names) == text  # any case
            for seat in range(len(names)):  # from the public board: the same words whoever looks
                assert game.place_text(game.view(state, seat), word, names) == text
            if from_board:
                said = board_says(board, word)
                owed = set().union(*(seats_named(unit, names) for unit in said)) if said else set()
                on_board |= owed
                assert owed <= seats, f"the board says {said} but land {word} says:\n{text}"
            if seats:
                occupied += 1
            else:
                empty += 1
                assert len(text.splitlines()) >= 3 and word.casefold() in text.casefold(), text
        assert on_board <= named
    assert occupied, f"no place of {spec.id} names a seat after {MOVES} random moves"
    assert empty, f"no empty place of {spec.id} is described"


@pytest.mark.parametrize("spec", SPECS, ids=spec_id)
def test_named_places_are_declared_exactly_when_the_board_names_places(spec: GameSpec) -> None:
    """The facet both ways: a game declaring named places describes some place its board text names,
    and one that does not describes none, from the start to :data:`MOVES` random moves on."""
    game, states, names = crowded(spec)
    found = sum(len(places(game, game.view(state, None), names)) for state in states)
    if spec.named_places:
        assert found, f"{spec.title} declares named places, yet describes no place its board names"
    else:
        assert not found, f"{spec.title} describes {found} places: its spec must declare named_places"


@pytest.mark.parametrize("spec", SPECS, ids=spec_id)
def test_a_word_that_is_no_place_gets_none(spec: GameSpec) -> None:
    game = spec.load()
    players = min(max(spec.min_players, 3), spec.max_players)
    view = game.view(game.setup(players, {}, 7), None)
    names = [f"{PEOPLE[p]} ({COLOURS[p]})" for p in range(players)]
    for word in ("Atlantis", "", "x" * 10_000, names[0]):
        assert game.place_text(view, word, names) is None, word


@pytest.mark.asyncio
async def test_the_consoles_land_is_the_games_place_text(tmp_path: Path) -> None:
    """`land NAME` at the console prints the game's own words for the place from the public board
    (every seat standing there, not the one item of a board sentence that names it), and a word that is
    no place gets one line; over every offered game, a place shared by several seats and an empty place
    among them."""
    shared = empty = 0
    for spec in (s for s in MAPPED if s.offered):
        store = await Store.open(tmp_path / f"{spec.id}.sqlite3")
        try:
            table = Table(store, FakeClock(), tmp_path)
            printed = await table.open_game(spec)
            status = await table.service.status("g1")
            view = await table.service.view("g1", None)
            game = spec.load()
            found = places(game, view, status.seat_names) or {
                word: (text, False) for word in phrases(printed)
                if (text := game.place_text(view, word, status.seat_names)) is not None}
            for word, (text, _) in list(found.items())[:12]:
                out = await table.run(f"land {word.lower()}")
                lines = "".join(f"  {line}\n" for line in text.splitlines())
                assert out == f"[{HUMAN}] In g1:\n{lines}", out
                shared += len(seats_named(text, status.seat_names)) > 1
                empty += not seats_named(text, status.seat_names)  # described, never "nothing mentions"
            unknown = await table.run("land Atlantis")
            assert unknown == f"[{HUMAN}] The board of g1 has no place called 'Atlantis'.\n", unknown
        finally:
            await table.scheduler.shutdown()
            await store.close()
    assert shared, "no offered game has a place several seats share at its start"
    assert empty, "no offered game has an empty place at its start"
