"""The board picture: raster/rules agreement, geometry, determinism, colours."""

from __future__ import annotations

import hashlib
import io
import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageChops

from engine.history.game import GAME
from engine.history.view import BoardView, ClassicView
from engine.history.worldmap import load_map
from render import palette
from render.history_board import BOARD_DIR, render_classic
from tests.support import board_rasters
from tests.support.colour_vision import delta_e, deuteranopia

ROOT = Path(__file__).resolve().parents[2]

#: Rules-adjacent lands whose rasters do not touch but lie across narrow water
#: (at most NARROW pixels apart) are fine: straits, and a few borders where the
#: real coast leaves a gulf between the two lands.
NARROW = 12

#: Pairs that touch in the raster without being adjacent in the rules, or are
#: adjacent in the rules but farther apart than NARROW, with the reason. Keep short.
ALLOWED: dict[frozenset[str], str] = {}




def _edge_pixels(ids: np.ndarray, lid: int) -> tuple[np.ndarray, np.ndarray]:
    mine = ids == lid
    pad = np.pad(mine, 1, constant_values=False)
    inner = pad[:-2, 1:-1] & pad[2:, 1:-1] & pad[1:-1, :-2] & pad[1:-1, 2:]
    ys, xs = np.nonzero(mine & ~inner)
    return xs, ys


def _gap(ids: np.ndarray, a: int, b: int) -> float:
    """Shortest distance in pixels between the two lands' edges."""
    ax, ay = _edge_pixels(ids, a)
    bx, by = _edge_pixels(ids, b)
    d2 = (ax[:, None] - bx[None, :]) ** 2 + (ay[:, None] - by[None, :]) ** 2
    return math.sqrt(float(d2.min()))


def test_raster_agrees_with_rules_adjacency() -> None:
    wmap = load_map()
    geo = board_rasters.geometry(BOARD_DIR)
    ids = board_rasters.land_ids(BOARD_DIR)
    id_of = {n: int(i) for i, n in geo["ids"].items()}
    assert sorted(id_of) == sorted(wmap.lands)
    name_of = {i: n for n, i in id_of.items()}
    present = set(np.unique(ids).tolist())
    assert all(id_of[n] in present for n in wmap.lands), "every land has pixels"
    touching = {frozenset((name_of[a], name_of[b])) for a, b in board_rasters.touching(ids, geo["off_board"])}
    rules = {frozenset((a, b)) for a, b, _ in wmap.edges()}
    problems = [
        f"touch in the raster, not adjacent in the rules: {' / '.join(sorted(p))}"
        for p in sorted(touching - rules, key=sorted)
        if p not in ALLOWED
    ]
    for pair in sorted(rules - touching, key=sorted):
        a, b = sorted(pair)
        gap = _gap(ids, id_of[a], id_of[b])
        if gap > NARROW and pair not in ALLOWED:
            problems.append(f"adjacent in the rules, {gap:.0f} px apart in the raster: {a} / {b}")
    assert not problems, "\n".join(problems)


def test_every_land_has_label_and_slots() -> None:
    wmap = load_map()
    geo = board_rasters.geometry(BOARD_DIR)
    ids = board_rasters.land_ids(BOARD_DIR)
    h, w = ids.shape
    assert (geo["width"], geo["height"]) == (w, h)
    # 3 armies (Multiple Armies option) or 2 armies + fort, capital/city, monument: 6 slots cover it.
    need = 3 + 1 + 1 + 1
    for name, land in wmap.lands.items():
        g = geo["lands"][name]
        x, y = g["label"]
        assert 0 <= x < w and 0 <= y < h, name
        assert g["label_lines"] and " ".join(g["label_lines"]) == name
        if land.area is None:
            continue  # barren lands hold no pieces
        assert len(g["slots"]) >= need, name
        assert len({tuple(s) for s in g["slots"]}) == len(g["slots"]), name
        for sx, sy in g["slots"]:
            assert 0 <= sx < w and 0 <= sy < h, name
    for water in wmap.waters:
        assert water in geo["waters"] and len(geo["waters"][water]["fleet"]) == 2


def _fixture_view(seed: int = 7, actions: int = 400) -> ClassicView:
    """A seeded game between random AI players, viewed by the active player, as plain JSON data."""
    from engine.history.ai import make_policy

    state = GAME.setup(4, {}, seed)
    policies = [make_policy("random", seed * 10 + p) for p in range(4)]
    for _ in range(actions):
        if GAME.is_over(state):
            break
        p = sorted(GAME.actors(state))[0]
        state = GAME.apply(state, policies[p].choose(state, p)).state
    viewer = state.turn.player if state.turn is not None else None
    view: ClassicView = json.loads(json.dumps(GAME.view(state, viewer)))
    return view


@pytest.fixture(scope="module")
def view() -> ClassicView:
    return _fixture_view()


def test_render_is_deterministic_and_decodes(view: ClassicView) -> None:
    a = render_classic(view)
    b = render_classic(json.loads(json.dumps(view)))
    assert a == b
    img = Image.open(io.BytesIO(a))
    img.load()
    assert img.format == "PNG" and img.width == 1600
    small = render_classic(view, size=800, names=False, highlight=["Levant", "Nile Delta"])
    img = Image.open(io.BytesIO(small))
    img.load()
    assert img.width == 800


def test_same_picture_in_another_process(view: ClassicView, tmp_path: Path) -> None:
    path = tmp_path / "view.json"
    path.write_text(json.dumps(view))
    code = (
        "import hashlib, json, sys; from render.history_board import render_classic; "
        f"print(hashlib.sha256(render_classic(json.load(open({str(path)!r})))).hexdigest())"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.strip() == hashlib.sha256(render_classic(view)).hexdigest()


def test_render_needs_only_plain_data(view: ClassicView) -> None:
    # A view as plain data with its board written by hand: no state anywhere.
    by_hand: ClassicView = json.loads(json.dumps(view))
    by_hand["board"] = BoardView(
        armies={"Levant": [[0, 1, "1:Sumerians"]], "Morea": [[1, 2, "2:Minoans"], [1, 2, "2:Minoans"]]},
        forts=["Levant"],
        structures={"Morea": "capital", "Levant": "city"},
        monuments=["Morea"],
        manned={},
    )
    png = render_classic(by_hand, highlight=["Crete"])
    assert png.startswith(b"\x89PNG")


# --- colours ----------------------------------------------------------------


def test_player_colours_distinguishable() -> None:
    cols = palette.PLAYER_COLOURS
    assert len(cols) == 6
    assert palette.PLAYER_NAMES == ("Red", "Blue", "Green", "Yellow", "Purple", "Orange")
    for i in range(6):
        for j in range(i + 1, 6):
            assert delta_e(cols[i], cols[j]) >= 20, (palette.PLAYER_NAMES[i], palette.PLAYER_NAMES[j])
            sim = delta_e(deuteranopia(cols[i]), deuteranopia(cols[j]))
            assert sim >= 20, (
                "deuteranopia",
                palette.PLAYER_NAMES[i],
                palette.PLAYER_NAMES[j],
                round(sim, 1),
            )


@pytest.mark.parametrize("ruleset", ["classic", "epochs5"])
def test_area_colours_cover_areas_and_neighbours_differ(ruleset: str) -> None:
    wmap = load_map(Path(__file__).resolve().parents[2] / "data" / "history" / ruleset / "map.yaml")
    assert set(wmap.areas) <= set(palette.AREA_COLOURS)
    cols = palette.AREA_COLOURS
    area_of = {land: info.area for land, info in wmap.lands.items() if info.area}
    pairs = {
        frozenset((area_of[a], area_of[b]))
        for a, b, _ in wmap.edges()
        if a in area_of and b in area_of and area_of[a] != area_of[b]
    }
    for pair in pairs:
        a, b = sorted(pair)
        assert delta_e(cols[a], cols[b]) >= 12, (a, b)


@pytest.mark.parametrize("board", ["classic", "epochs5"])
@pytest.mark.parametrize("size", [1600, 1000])
def test_names_do_not_overlap_and_touch_their_land(size: int, board: str) -> None:
    from render.history_board import (
        _MARGIN,
        BASE_WIDTH,
        HEADER,
        LABEL_SIZE,
        _geometry,
        _overlap,
        label_layout,
    )

    layout = label_layout(size, board)
    items = list(layout.items())
    clashes = [
        (a, b)
        for i, (a, la) in enumerate(items)
        for b, lb in items[i + 1 :]
        if _overlap(la.box, lb.box)
    ]
    assert clashes == []
    k = size / BASE_WIDTH
    head = round(HEADER * k)
    label = max(6, round(LABEL_SIZE * k))
    geometry = _geometry(board)
    ids = np.asarray(geometry.ids)
    g = geometry.data
    for name, land in g["lands"].items():
        x0, y0, x1, y1 = layout[name].box
        assert x0 >= 0 and x1 <= size, name
        assert " ".join(layout[name].lines).replace("- ", "") == name  # a cut word is joined again
        m = _MARGIN * label
        xs = np.clip((np.linspace(x0 - m, x1 + m, 15) / k).astype(int), 0, ids.shape[1] - 1)
        ys = np.clip(((np.linspace(y0 - m, y1 + m, 5) - head) / k).astype(int), 0, ids.shape[0] - 1)
        own = int(next(i for i, n in g["ids"].items() if n == name))
        if (ids[np.ix_(ys, xs)] == own).any():
            continue
        # Only islands and thin coasts too small to hold a name may have it beside them, never far.
        assert land["pixels"] < 1500, name
        px, py = land["pole"]
        cx, cy = layout[name].centre
        assert np.hypot(cx - px * k, cy - py * k - head) <= 4 * label, name


def test_a_5_epoch_view_draws_its_own_map_with_its_pieces() -> None:
    from engine.history.epochs5.game import GAME as EPOCHS5
    from render.history_board import render_epochs5

    view = EPOCHS5.view(EPOCHS5.setup(4, {}, 3), None)
    empty = Image.open(io.BytesIO(render_epochs5(view, size=800)))
    view["board"] = {"armies": {"Mesopotamia": [0, "assyrians"]}, "forts": [], "structures":
                     {"Mesopotamia": "capitol"}, "monuments": []}
    placed = Image.open(io.BytesIO(render_epochs5(view, size=800)))
    from engine.history.game import GAME as CLASSIC

    classic = Image.open(io.BytesIO(render_classic(CLASSIC.view(CLASSIC.setup(4, {}, 3), None), size=800)))
    assert empty.size != classic.size  # the 5-epoch raster, not the classic one
    diff = ImageChops.difference(empty.convert("RGB"), placed.convert("RGB")).getbbox()
    assert diff is not None
    x, y = json.loads((BOARD_DIR.parents[1] / "epochs5" / "board" / "geometry.json").read_text())[
        "lands"]["Mesopotamia"]["pole"]
    k = 800 / 1600
    reach = 2 * 21 * k  # the pieces may step up to two slot spacings aside from a name
    assert diff[0] - reach <= x * k <= diff[2] + reach and diff[1] - reach <= y * k + 39 <= diff[3] + reach


def test_a_board_without_a_picture_is_refused() -> None:
    from render.history_board import render_history

    with pytest.raises(ValueError, match="No board picture for 'chess'"):
        render_history(GAME.view(GAME.setup(3, {}, 1), None), "chess")


def test_pieces_step_aside_from_names_but_stay_on_their_land() -> None:
    from render.history_board import BASE_WIDTH, HEADER, _clear_shift, _geometry, _overlap, label_layout

    size = 1600
    k, head = size / BASE_WIDTH, round(HEADER * size / BASE_WIDTH)
    names = [label.box for label in label_layout(size).values()]
    geometry = _geometry()
    ids = np.asarray(geometry.ids)
    moved = 0
    for name, land in geometry.data["lands"].items():
        if not land["slots"]:
            continue
        shift = _clear_shift(name, (3, 3), k, head, "classic", names)
        if shift is None or shift == (0.0, 0.0):
            continue  # no shift clears every name: the pieces cover the least they can (test_render_layout)
        dx, dy = shift
        moved += 1
        own = int(next(i for i, n in geometry.data["ids"].items() if n == name))
        # still on the land: its pieces' middle, or (a narrow land) every piece
        middle = ids[int(land["pole"][1] + dy), int(land["pole"][0] + dx)] == own
        assert middle or all(ids[int(sy + dy), int(sx + dx)] == own for sx, sy in land["slots"][:6]), name
        slots = land["slots"]
        for sx, sy in slots[:6]:  # and no piece covers a name
            r = 13.5
            box = ((sx + dx - r) * k, (sy + dy - r) * k + head, (sx + dx + r) * k, (sy + dy + r) * k + head)
            assert not any(_overlap(box, t) for t in names), name
    assert moved >= 5  # crowded regions do have pieces that would cover a name


def test_no_area_reads_as_the_sea() -> None:
    # Issue 16: Italy and Macedonia, filled in a blue next to the sea's, read as water.
    for area, colour in palette.AREA_COLOURS.items():
        assert delta_e(colour, palette.SEA) >= 15, area  # lavender Eurasia, the closest, is ~19
