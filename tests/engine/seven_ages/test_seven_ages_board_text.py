"""The 7 Ages board in words (issue 29 item 2): per seat its counter group, per empire its state (leaders,
artefacts, religions, government, elite markers), per area its units as the viewer may know them (fog of
war, L791), its city or capital, fort and disorder; and the picture key naming seats the same way.

Every expected value here is read from the state a test arranged (or the rulebook's data), never from the
words' own helpers.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from typing import cast

import pytest

from engine.seven_ages.data import load_tables
from engine.seven_ages.game import GAME
from engine.seven_ages.spec import SPEC
from engine.seven_ages.state import Empire, SevenState
from engine.seven_ages.view import SevenView
from render.seven_ages_pieces import key_items
from tests.support.seven_ages_builder import Scenario, card

PEOPLE = ("alice", "bob", "carol", "dave", "erin")
NAMES = SPEC.seat_names(PEOPLE)  # before anyone chooses colours: "alice (First seat)"
UNIT_NAMES = sorted(load_tables().unit_types, key=len, reverse=True)  # "Hs. Archer" before "Archer"


def units_named(line: str) -> set[str]:
    """The unit types a line of words names (the longest names first, so "Hs. Archer" is not an Archer)."""
    found = set()
    for unit in UNIT_NAMES:
        pattern = re.compile(rf"\b{re.escape(unit)}(s|es)?\b")
        if pattern.search(line):
            found.add(unit)
            line = pattern.sub("", line)
    return found


def empire_block(text: str, name: str) -> dict[str, str]:
    """The area lines under the empire called ``name``: area -> the rest of its line."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"The {name} ("))
    out = {}
    for line in lines[start + 1:]:
        if not line.startswith("- "):
            break
        area, rest = line[2:].split(": ", 1)
        out[area] = rest
    return out


def playout_states() -> list[SevenState]:
    """States along greedy 4- and 5-player games, every 60 moves once empires are on the map."""
    out = []
    for seed, players in ((1, 4), (2, 5)):
        state = GAME.setup(players, SPEC.default_options(), seed)
        ais = [SPEC.make_policy("greedy", 31 + p) for p in range(players)]
        for step in range(720):
            if GAME.is_over(state):
                break
            if step % 60 == 59 and state.empires:
                out.append(state)
            player = min(GAME.actors(state))
            state = GAME.apply(state, ais[player].choose(state, player)).state
    return out


def test_no_view_names_another_seats_units_beneath_a_stack_top() -> None:
    """Two views of one state: the owner's words list every unit of each of its stacks; every other seat's
    (and a spectator's) give each stack one unit type, a unit the stack holds, and its true height."""
    mixed = 0
    for state in playout_states():
        for viewer in [*range(state.players), None]:
            text = GAME.board_text(json.loads(json.dumps(GAME.view(state, viewer))), NAMES)
            for e in state.empires:
                block = empire_block(text, GAME.view(state, None)["empires"][state.empires.index(e)]["name"])
                assert sorted(block) == sorted({s.area for s in e.units} | {ld.area for ld in e.leaders})
                for area in {s.area for s in e.units}:
                    here = {s.unit: s.count for s in e.units if s.area == area}
                    stack = block[area].split(";")[0]
                    if e.owner == viewer:
                        listed = stack.split(" (the others see")[0]
                        assert units_named(listed) == set(here), (area, stack)
                        for unit, n in here.items():
                            assert re.search(rf"\b{n} {re.escape(unit)}", listed), (area, unit, n, stack)
                        continue
                    named = units_named(stack)
                    assert len(named) == 1 and named <= set(here), (viewer, e.card, area, stack)
                    height = sum(here.values())
                    assert stack.startswith(f"{height} units, " if height > 1 else ("a ", "an ")), stack
                    mixed += len(here) > 1
    assert mixed >= 10  # the games did put stacks of several types under other seats' eyes


def arranged() -> Scenario:
    """alice (seat 0)'s Romans: two leaders (one named, one unnamed), a religion and a government on
    their markers, two elite markers, an artefact on their card; Latium their capital with a fort and an
    artefact marker, Campania in disorder; bob's Vikings in Denmark; a lone city in Sicily."""
    s = (Scenario(players=3)
         .empire("Romans", owner=0, progress=16, money=7, capital="Latium",
                 units={"Latium": {"Spear": 2, "Sword": 1}, "Campania": {"Spear": 1}},
                 leaders={"Caesar": ("Tactician", "Latium"), "Builder": ("Builder", "Campania")})
         .empire("Vikings", owner=1, progress=20, units={"Denmark": {"Sword": 2}})
         .city("Latium", 3).fort("Latium").artefact("Latium", "Forum").disorder("Campania").city("Sicily", 2))
    romans: Empire = s.state.empire(card("Romans"))
    # markers 8 (Christianity / Hinduism) and 16 (Autocracy / Socialism), artefacts.yaml belief_markers
    s.state = s.state.with_empire(replace(romans, elite=2, religions=("Christianity",),
                                          government="Autocracy",
                                          belief_markers=(("Christianity", 8), ("Autocracy", 16)),
                                          artefacts=("Just rule", "Heresy", "Heresy")))
    return s


def platform_names(s: SevenState) -> list[str]:
    """The seats as the platform names them: by the colours each took (from a spectator's view)."""
    return SPEC.seat_names(PEOPLE[:s.players], GAME.seat_colours(GAME.view(s, None)))


def test_the_board_names_leaders_artefacts_beliefs_elite_markers_and_disorder() -> None:
    s = arranged().state
    text = GAME.board_text(GAME.view(s, 2), platform_names(s))
    lines = text.splitlines()
    romans = lines.index("alice (Orange): orange/yellow counters.") + 1
    assert lines[romans] == ("The Romans (orange counters): level 16, age 3, 7 money, 2 elite markers; "
                             "religion Christianity (its marker's back: Hinduism); government Autocracy (its "
                             "marker's back: Socialism); artefacts Just rule and Heresy x 2.")
    assert lines[romans + 1] == "- Campania: a Spear; disorder; led by an unnamed Builder."
    assert lines[romans + 2] == ("- Latium: 3 units, a Spear on top; capital of value 3 and homeland; fort; "
                                 "artefact Forum; led by Caesar (Tactician).")
    assert "bob (Red): red/pink counters." in lines
    assert "carol (Blue): blue counters; no empire in play." in lines
    assert lines[-1] == "Held by no empire: Sicily (city of value 2)."


def test_an_empty_board_says_so() -> None:
    s = Scenario(players=3).state
    assert GAME.board_text(GAME.view(s, 0), NAMES).startswith("No empire is on the map.")


@pytest.mark.parametrize("viewer", [0, 1, None])
def test_the_key_and_the_words_name_a_seat_by_the_counters_it_took(viewer: int | None) -> None:
    """A seat goes by the colour group it chose (L325-327), in the picture key and in the words alike,
    whatever its place at the table: seat 0 holds the blue counters and is "alice (Blue)", seat 1 the
    red/pink ones and is "bob (Red)", so no seat is named by another's counters (issue 29: "alice (Red)"
    once held the blue counters)."""
    s = arranged().state
    s = replace(s, people=(replace(s.people[0], group="blue"), replace(s.people[1], group="red/pink"),
                           replace(s.people[2], group="orange/yellow")))
    s = s.with_empire(replace(s.empire(card("Romans")), colour="dark blue"))
    s = s.with_empire(replace(s.empire(card("Vikings")), colour="pink"))
    view = cast(SevenView, json.loads(json.dumps(GAME.view(s, viewer))))  # as the pictures get it
    headers = [words for colour, words in key_items(view, PEOPLE) if colour is None][:2]
    you = " (you)" if viewer == 0 else ""
    assert headers[0] == f"alice (Blue){you}: blue counters —"
    assert headers[1] == ("bob (Red) (you)" if viewer == 1 else "bob (Red)") + ": red/pink counters —"
    swatches = [(colour, words) for colour, words in key_items(view, PEOPLE) if colour is not None]
    assert swatches == [("dark blue", "Romans (solid blue)"), ("pink", "Vikings (pale red)")]
    text = GAME.board_text(view, platform_names(s)).splitlines()
    assert text[0] == "alice (Blue): blue counters."
    assert text[1].startswith("The Romans (dark blue counters): ")
    assert "bob (Red): red/pink counters." in text
