"""7 Ages' pictures (issue 29 item 3): counters that read without hue, the key of the empires in play, the
close-up of a notice's places, the tracks, the scores chart; every picture drawn from a view alone."""

from __future__ import annotations

import copy
import io
import itertools
import json
from typing import Any

import numpy as np
import pytest
from PIL import Image

from engine.seven_ages.data import load_counters
from engine.seven_ages.game import GAME
from engine.seven_ages.spec import SPEC
from render.seven_ages import render_board
from render.seven_ages_colours import GROUP_HUES, face, group_and_shade
from render.seven_ages_pieces import key_items
from tests.colour_vision import delta_e, deuteranopia

PEOPLE = ("alice", "bob", "carol", "dora")


@pytest.fixture(scope="module")
def played() -> Any:
    """A 4-player greedy game some turns in (several empires on the map, some stacks of mixed units)."""
    state = GAME.setup(4, SPEC.default_options(), 1)
    ais = [SPEC.make_policy("greedy", 31 + p) for p in range(4)]
    for _ in range(500):
        seat = min(GAME.actors(state))
        state = GAME.apply(state, ais[seat].choose(state, seat)).state
    assert len(state.empires) >= 4
    return state


def view_of(state: Any, viewer: int | None) -> dict[str, Any]:
    return json.loads(json.dumps(GAME.view(state, viewer)))  # type: ignore[no-any-return]


def grey(img: Image.Image) -> np.ndarray:
    """A face as a colour-blind reader without any colour vision would see it: lightness alone."""
    return np.asarray(img.convert("RGB").convert("L"), dtype=float)


# -- item 1: counter colours ---------------------------------------------------------------------


def test_the_mixes_of_one_group_differ_in_lightness_or_pattern_not_hue_alone() -> None:
    mixes = load_counters().mixes
    by_group: dict[str, dict[str, np.ndarray]] = {}
    for name, mix in mixes.items():
        by_group.setdefault(mix.group, {})[mix.shade] = grey(face(name, 20, ""))
    assert len(by_group) == 5 and all(set(m) == {"dark", "light", "multi"} for m in by_group.values())
    for group, shades in by_group.items():
        inner = {s: a[6:14, 6:14] for s, a in shades.items()}  # well inside the edge
        # dark is a solid deep fill, light a pale one: far apart in grey
        assert inner["light"].mean() - inner["dark"].mean() >= 60, group
        # single-coloured fills are flat; multi-coloured ones are stripes of light and dark
        assert inner["dark"].std() < 4 and inner["light"].std() < 4, group
        assert inner["multi"].std() >= 25, group
        # a light counter's edge is the deep colour: darker than its middle by far
        edge = shades["light"][10, 0:2].mean()
        assert inner["light"].mean() - edge >= 50, group


def test_the_five_hues_stay_apart_for_red_green_colour_blind_readers() -> None:
    assert set(GROUP_HUES) == {m.group for m in load_counters().mixes.values()}
    for (a, ca), (b, cb) in itertools.combinations(GROUP_HUES.items(), 2):
        assert delta_e(ca, cb) >= 20, (a, b)
        assert delta_e(deuteranopia(ca), deuteranopia(cb)) >= 20, ("deuteranopia", a, b)


def test_every_mix_of_the_data_has_its_group_and_shade() -> None:
    for name, mix in load_counters().mixes.items():
        assert group_and_shade(name) == (mix.group, mix.shade)


def test_the_key_lists_the_empires_in_play_with_their_owners(played: Any) -> None:
    view = view_of(played, 1)
    entries = [(colour, words) for colour, words in key_items(view, PEOPLE) if colour is not None]
    assert len(entries) == len(played.empires)
    for e, (colour, words) in zip(view["empires"], entries, strict=True):
        assert colour == e["colour"]
        owner = f"{PEOPLE[e['owner']]} ({SPEC.colour(e['owner'])})" + (" (you)" if e["owner"] == 1 else "")
        assert words.startswith(f"{e['name']} (") and words.endswith(f": {owner}"), words
    # without people, a seat is its colour alone
    bare = [w for c, w in key_items(view_of(played, None)) if c is not None]
    assert all(not any(p in w for p in PEOPLE) for w in bare)


def test_no_picture_shows_a_unit_beneath_a_stack_top(played: Any) -> None:
    """The owner's view lists every unit; the pictures draw the stacks' tops alone, so removing the unit
    lists changes no byte (a spectator's view has none to begin with)."""
    for e in played.empires:
        owner = e.owner
        if len({(s.area, s.unit) for s in e.units}) > len({s.area for s in e.units}):
            break
    else:
        pytest.fail("no empire holds an area with units of two types")
    view = view_of(played, owner)
    blind = copy.deepcopy(view)
    for emp in blind["empires"]:
        emp["units"] = None
    assert render_board(view, size=1600) == render_board(blind, size=1600)
    hidden = {str(s.unit) for emp in played.empires for s in emp.units} - {
        str(u) for emp in view["empires"] for _, u, _ in emp["stacks"]}
    words = " ".join(w for _, w in key_items(view_of(played, None)))
    assert hidden and not any(f" {u}," in f" {words}," or f" {u}." in words for u in hidden)


def test_the_board_shows_the_pieces_and_changes_with_them(played: Any) -> None:
    view = view_of(played, None)
    before = render_board(view, size=1600)
    moved = copy.deepcopy(view)
    moved["empires"][0]["stacks"] = moved["empires"][0]["stacks"][1:]
    assert render_board(moved, size=1600) != before
    with Image.open(io.BytesIO(before)) as img:
        assert img.width == 1600
