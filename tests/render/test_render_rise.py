"""The Rise of Empires board picture: a pure function of a view, laid out so every region has room."""

from __future__ import annotations

import copy
import io
import json
import struct
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from engine.registry import make_policy
from engine.rise.data import load_data
from engine.rise.game import GAME
from engine.rise.state import EMPTY, Phase, Stage
from engine.rise.view import (
    CityView,
    ControlView,
    MapView,
    PlayerView,
    ProgressView,
    RegionView,
    RiseView,
    TaskView,
    TerritoryView,
    TilesView,
)
from render import palette
from render import rise as rr
from render.__main__ import main as render_main

DATA = load_data()


def _regions() -> dict[str, RegionView]:
    """The map part of a view, written from the data files (not from any game state)."""
    colours = {1: "cream", 2: "green", 3: "blue"}
    return {
        r.id: {
            "name": r.name,
            "era": r.era,
            "colour": colours[r.era],
            "sea": r.sea,
            "part": r.part,
            "standard": list(r.standard),
            "yields": dict(r.yields),
            "anchor": list(r.anchor),
        }
        for r in DATA.regions.values()
    }


def _player(seat: int, vp: int) -> PlayerView:
    progress: ProgressView = {
        "id": "p03",
        "name": "Iron Axe",
        "era": 1,
        "price": 0,
        "food": 0,
        "gold": 0,
        "resources": 0,
        "cubes": 1,
        "vp": 0,
        "free": None,
        "special": "iron_axe",
        "stays": False,
    }
    plains: TerritoryView = {
        "id": "t01",
        "name": "Plains",
        "food": 2,
        "gold": 0,
        "resources": 0,
        "cubes": 1,
        "vp": 0,
        "stays": False,
    }
    city: CityView = {
        "id": "c01",
        "name": "Memphis",
        "era": 1,
        "row": "A",
        "cost": 1,
        "vp": 1,
        "food": 1,
        "gold": 0,
        "resources": 0,
        "cubes": 0,
        "upkeep": 0,
        "wonder": None,
        "stays": False,
    }
    return {
        "seat": seat,
        "gold": 3 + seat,
        "resources": seat,
        "food": 10 + seat,
        "vp": vp,
        "pool": 4,
        "stock": 20 - seat,
        "on_map": 6,
        "progress": [progress],
        "territory": [plains] * (seat + 1),
        "cities": [city],
        "empires": [{"id": "e3", "regions": 3, "water": True, "battles": [[1, 2], [2, 2]]}]
        if seat == 1
        else [],
        "used": [],
        "waiting": [],
    }


def hand_view(players: int = 5) -> RiseView:
    """A B-turn view written by hand: cubes of five players in NE Africa, discs on the display."""
    circles = {2: 4, 3: 6, 4: 8, 5: 10}[players]
    task: TaskView = {
        "player": 1,
        "stage": Stage.CHOOSE,
        "row": None,
        "circle": EMPTY,
        "empire": None,
        "side": None,
        "placed": [],
        "before": [],
        "battles": [],
    }
    control: dict[str, ControlView] = {
        "ne_africa": {"first": [players - 1], "second": [0]},
        "mediterranean": {"first": [1], "second": []},
    }
    board: MapView = {
        "regions": _regions(),
        "links": sorted(
            [a, b, frozenset((a, b)) in DATA.arrows]
            for a in DATA.adjacent
            for b in DATA.adjacent[a]
            if a < b
        ),
        "cubes": {"ne_africa": [3, 2, 2, 1, 4][:players], "mediterranean": [0, 1, 0, 0, 0][:players]},
        "control": control,
    }
    tiles: TilesView = {
        "progress": [],
        "territory": [],
        "city": [],
        "empire": [],
        "boxes": {"progress": [2] * 8, "territory": [3] * 10, "city": [2] * 8},
        "retired": 0,
    }
    return {
        "game": "rise",
        "seq": 99,
        "players": players,
        "turn": 4,
        "era": 2,
        "half": "B",
        "phase": Phase.ACTIONS,
        "actors": [1],
        "order": list(range(players))[::-1],
        "current": 1,
        "actions_done": 7,
        "actions_per_turn": 6,
        "players_state": [_player(p, 10 * p + 3) for p in range(players)],
        "map": board,
        "display": {row: {"circles": [1, -1, 0, 1] + [-1] * (circles - 4)} for row in rr.ROWS},
        "removal_costs": {row: [0, None, None, 2] + [None] * (circles - 4) for row in rr.ROWS},
        "tiles": tiles,
        "trade": [
            {
                "id": b.id,
                "resources": b.resources,
                "gold": b.gold,
                "vp": b.vp,
                "eras": list(b.eras),
                "open": 2 in b.eras,
                "used_by": 0 if b.id == "t2" else None,
            }
            for b in DATA.trade.values()
        ],
        "navigation": True,
        "task": task,
        "pending": [],
        "order_choice": None,
        "yields": [{"food": 1, "gold": 1, "resources": 0, "cubes": 2, "vp": 3}] * players,
        "final": None,
        "ranking": None,
        "places": None,
        "you": None,
    }


def pixels(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def test_same_view_same_bytes_and_view_untouched() -> None:
    view = hand_view()
    before = copy.deepcopy(view)
    first = rr.render_board(view)
    assert view == before
    assert rr.render_board(json.loads(json.dumps(view))) == first
    assert first[:8] == b"\x89PNG\r\n\x1a\n"


def test_hand_built_view_renders_every_player_count() -> None:
    for players in (2, 3, 4, 5):
        img = pixels(rr.render_board(hand_view(players)))
        assert img.width == 1600 and img.height > 1500


def test_every_region_has_a_box_with_room_for_five_players() -> None:
    lay = rr.layout(_regions())
    assert set(lay.boxes) == set(DATA.regions)
    boxes = list(lay.boxes.items())
    for i, (a, ba) in enumerate(boxes):
        assert ba[2] - ba[0] == rr.BOX_W and ba[3] - ba[1] == rr.BOX_H
        panel = next(p for p in lay.panels if p.part == DATA.regions[a].part)
        assert (
            panel.box[0] <= ba[0]
            and ba[2] <= panel.box[2]
            and panel.box[1] <= ba[1]
            and ba[3] <= panel.box[3]
        )
        for b, bb in boxes[i + 1 :]:
            apart = ba[2] <= bb[0] or bb[2] <= ba[0] or ba[3] <= bb[1] or bb[3] <= ba[1]
            assert apart, (a, b)
        slots = lay.cube_slots(a)
        assert len(slots) == 5
        for k, (x, y) in enumerate(slots):
            assert ba[0] < x and x + rr.CUBE < ba[2] and ba[1] < y and y + rr.CUBE < ba[3]
            if k:
                assert x >= slots[k - 1][0] + rr.CUBE  # side by side, no overlap


def test_cubes_drawn_in_player_colours_in_every_region() -> None:
    open_regions = list(DATA.regions)
    cubes = {r: [1, 2, 3, 4, 5] for r in open_regions}
    view = hand_view()
    view["map"]["cubes"] = cubes
    img = pixels(rr.render_board(view))
    lay = rr.layout(view["map"]["regions"])
    top = rr.HEAD_H + 8
    for region in open_regions:
        for seat, (x, y) in enumerate(lay.cube_slots(region)):
            # Each seat's shape (render.marks) in its colour fills much of the cube's square.
            box = np.asarray(img.crop((int(x), int(y) + top, int(x) + rr.CUBE, int(y) + top + rr.CUBE)))
            filled = int((box == np.array(palette.PLAYER_COLOURS[seat])).all(axis=2).sum())
            assert filled >= rr.CUBE * rr.CUBE // 5, (
                region,
                seat,
            )


def test_highlight_outlines_the_region_and_unknown_names_are_refused() -> None:
    view = hand_view()
    lay = rr.layout(view["map"]["regions"])
    x0, y0, _, y1 = lay.boxes["near_east"]
    probe = (int(x0) - 3, int((y0 + y1) / 2) + rr.HEAD_H + 8)
    plain = pixels(rr.render_board(view))
    marked = pixels(rr.render_board(view, highlight=["near_east"]))
    assert marked.getpixel(probe) == rr.HIGHLIGHT_OUT
    assert plain.getpixel(probe) != rr.HIGHLIGHT_OUT
    with pytest.raises(ValueError, match="atlantis"):
        rr.render_board(view, highlight=["atlantis"])
    other = hand_view()
    other["game"] = "eight-minute"
    with pytest.raises(ValueError, match="not a Rise of Empires view"):
        rr.render_board(other)


def test_size_and_names_switch() -> None:
    view = hand_view(3)
    small = pixels(rr.render_board(view, size=800))
    assert small.width == 800
    assert rr.render_board(view, names=False) != rr.render_board(view)


def test_b_turn_prices_only_under_the_current_players_discs() -> None:
    view = hand_view()
    img = pixels(rr.render_board(view))
    no_prices = copy.deepcopy(view)
    no_prices["removal_costs"] = {}
    assert pixels(rr.render_board(no_prices)).tobytes() != img.tobytes()


def test_real_game_views_render() -> None:
    state = GAME.setup(4, {}, 8)
    ais = [make_policy("rise", "random", 8 * 31 + p) for p in range(4)]
    shown = 0
    step = 0
    while not GAME.is_over(state):
        if step % 150 == 0:
            assert pixels(rr.render_board(GAME.view(state, None), size=640)).width == 640
            shown += 1
        seat = min(GAME.actors(state))
        state = GAME.apply(state, ais[seat].choose(state, seat)).state
        step += 1
    final = GAME.view(state, None)
    assert rr.status_line(final).startswith("Game over:")
    assert pixels(rr.render_board(final)).width == 1600
    assert shown >= 3


def _seeded_views(players: int, seed: int) -> list[RiseView]:
    """Views of a seeded random game every 60 actions, and its final view, each from seat 0."""
    state = GAME.setup(players, {}, seed)
    ais = [make_policy("rise", "random", seed * 31 + p) for p in range(players)]
    views: list[RiseView] = []
    step = 0
    while not GAME.is_over(state):
        if step % 60 == 0:
            views.append(json.loads(json.dumps(GAME.view(state, 0))))
        seat = min(GAME.actors(state))
        state = GAME.apply(state, ais[seat].choose(state, seat)).state
        step += 1
    return [*views, json.loads(json.dumps(GAME.view(state, 0)))]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_map_and_the_dashboard_are_each_no_taller_than_wide(players: int) -> None:
    # Issue 16: "the Rise board is 1600x2432, so Discord shows a tall thumbnail where nothing can be
    # read"; a turn notice carries the map and the dashboard as two pictures instead.
    for view in _seeded_views(players, 11 + players)[::3]:
        for size in (1600, 800):
            for png in (rr.render_map(view, size=size), rr.render_dashboard(view, size=size)):
                img = pixels(png)
                assert img.width == size and img.height <= img.width


def test_the_dashboard_names_the_viewer_and_the_map_shows_their_highlight() -> None:
    view = hand_view()
    mine: RiseView = {**view, "you": {"player": 0}}
    assert rr.render_dashboard(mine) != rr.render_dashboard(view)  # "Red (you)"
    assert rr.render_map(view) != rr.render_map(view, highlight=["near_east"])
    with pytest.raises(ValueError, match="atlantis"):
        rr.render_map(view, highlight=["atlantis"])


def test_the_rise_demo_writes_the_map_and_the_dashboard_as_notices_do(tmp_path: Path) -> None:
    out = tmp_path / "rise"
    assert render_main(["demo", "--game", "rise", "--stages", "1", "--size", "400", "--out", str(out)]) == 0
    boards = sorted(p.name for p in out.iterdir() if p.name.startswith("board-"))
    assert len(boards) == 2 and boards[0].endswith("-dashboard.png") and boards[1].endswith("-map.png")
    for name in boards:
        width, height = struct.unpack(">II", (out / name).read_bytes()[16:24])  # the PNG's IHDR
        assert width == 400 and height <= width, (name, width, height)
