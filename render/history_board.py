"""The History of the World board as a picture: a player's view -> PNG bytes.

The map is a raster of land ids built once by tools/build_map_raster.py
(data/history/classic/board/lands.png plus geometry.json). The base picture
(area fills, borders, barren lands, names, straits, the Great Wall, resources)
is drawn once per (size, names) and cached; a turn's picture is a copy of it
with the pieces and the score panel drawn on top, so it costs little more than
the PNG encode.

``render_classic`` and ``render_epochs5`` are pure functions of the view (plain JSON-like data, as
``GAME.view`` returns it); they never see a game state.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, NamedTuple

import numpy as np
from PIL import Image, ImageChops, ImageDraw, ImageFilter

from engine.history.data import ROMAN, load_rules
from engine.history.epochs5.view import Epochs5View
from engine.history.view import ClassicView
from engine.history.worldmap import WorldMap
from render import palette
from render.history_shown import HistoryView, Shown, shown_in
from render.marks import draw_piece, seat_label
from render.palette import RGB, font
from render.png import encode_png
from render.stamps import StampDraw, text_length

DATA_DIR: Final = Path(__file__).resolve().parents[1] / "data"
BOARD_DIR: Final = DATA_DIR / "history/classic/board"
CLASSIC: Final = "classic"
EPOCHS5: Final = "epochs5"
BASE_WIDTH: Final = 1600  # geometry.json coordinates are at this width
HEADER: Final = 78  # header height at BASE_WIDTH
FOOTER: Final = 34  # legend strip under the map at BASE_WIDTH
LABEL_SIZE: Final = 11
# The whole map writes the names of places from this width on. Narrower, a name would be 6 px high
# (no one reads it) and would only hide pieces: a turn notice's close-up (render/history_closeup.py) shows
# the names at chat width instead.
NAMES_FROM: Final = BASE_WIDTH
OFF_BOARD_COLOUR: Final[RGB] = (222, 222, 214)
COAST: Final[RGB] = (62, 92, 122)
AREA_EDGE: Final[RGB] = (70, 58, 48)
STRAIT: Final[RGB] = (150, 40, 30)
WALL: Final[RGB] = (90, 40, 30)
RESOURCE: Final[RGB] = (232, 176, 20)


@dataclass(frozen=True)
class _Geometry:
    ids: Image.Image  # mode "L", BASE_WIDTH wide
    data: Mapping[str, Any]
    area_of: Mapping[str, str | None]
    resource: frozenset[str]
    area_values: Mapping[str, tuple[int, ...]]
    areas: tuple[str, ...]
    directory: Path  # where its raster and geometry.json live


def _classic_rules() -> tuple[Path, WorldMap, Mapping[str, tuple[int, ...]]]:
    rules = load_rules()
    return BOARD_DIR, rules.map, rules.area_values


def _epochs5_rules() -> tuple[Path, WorldMap, Mapping[str, tuple[int, ...]]]:
    from engine.history.epochs5.data import load_rules as load_epochs5

    rules = load_epochs5()
    values = {
        area: tuple(
            next((t.value for t in rules.tokens if t.region == area and t.first <= e <= t.last), 0)
            for e in range(1, 6)
        )
        for area in rules.map.areas
    }
    return DATA_DIR / "history/epochs5/board", rules.map, values


# Board (the folder under data/history/) -> where its raster lives, its map and its area values
# per epoch. Every History of the World ruleset draws its own raster through the same code; each
# has its own entry function below, which its game's spec names.
BOARDS: Final[dict[str, Callable[[], tuple[Path, WorldMap, Mapping[str, tuple[int, ...]]]]]] = {
    CLASSIC: _classic_rules,
    EPOCHS5: _epochs5_rules,
}


@functools.cache
def _geometry(board: str = CLASSIC) -> _Geometry:
    if board not in BOARDS:
        raise ValueError(f"No board picture for {board!r}; known: {', '.join(BOARDS)}")
    directory, wmap, area_values = BOARDS[board]()
    with Image.open(directory / "lands.png") as img:
        ids = img.convert("L")
    data = json.loads((directory / "geometry.json").read_text(encoding="utf-8"))
    return _Geometry(
        ids=ids,
        data=data,
        area_of={n: land.area for n, land in wmap.lands.items()},
        resource=frozenset(n for n, land in wmap.lands.items() if land.resource),
        area_values=dict(area_values),
        areas=tuple(wmap.areas),
        directory=directory,
    )


def _binary(img: Image.Image) -> Image.Image:
    return img.point(lambda v: 255 if v else 0)


def _dilate(mask: Image.Image, reach: int) -> Image.Image:
    """``mask`` ("L", 0 or 255) grown by ``reach`` px in every direction (a square): the same pixels
    as ``MaxFilter(2 * reach + 1)``, at a fraction of its cost. Pillow's rank filters hold the GIL
    for their whole run (608 ms on a 1200x900 mask: a picture drawn in a worker thread froze the
    bot's event loop all that time); see :func:`_grown`."""
    if reach <= 0:
        return mask
    return Image.fromarray(_grown(np.asarray(mask), reach), "L")


def _grown(mask: np.ndarray, reach: int) -> np.ndarray:
    """The greatest value within ``reach`` px (a square, cut at the edges) of each pixel of ``mask``
    (2-D): a few shifted maxima per axis, each step twice the last (1, 2, 4... px), so ``reach`` 5
    costs three per axis. Cheaper than box blurs thresholded (a notice's outline spent 5 ms in them)
    and numpy lets the GIL go while it runs."""
    out = mask.copy()
    for axis in (0, 1):
        done, step = 0, 1
        while done < reach:
            s = min(step, reach - done)
            src = out.copy()
            lo = [slice(None), slice(None)]
            hi = [slice(None), slice(None)]
            lo[axis], hi[axis] = slice(None, -s), slice(s, None)
            np.maximum(out[tuple(hi)], src[tuple(lo)], out=out[tuple(hi)])  # from s px before
            np.maximum(out[tuple(lo)], src[tuple(hi)], out=out[tuple(lo)])  # from s px after
            done += s
            step *= 2
    return out


def _edges(img: Image.Image) -> Image.Image:
    """255 where a pixel differs from its right or lower neighbour ("L" in, "L" out)."""
    right = ImageChops.offset(img, -1, 0)
    down = ImageChops.offset(img, 0, -1)
    return ImageChops.lighter(
        _binary(ImageChops.difference(img, right)), _binary(ImageChops.difference(img, down))
    )


def _text_centered(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    lines: Sequence[str],
    size: int,
    fill: RGB,
    *,
    bold: bool = True,
    italic: bool = False,
    halo: RGB | None = None,
    halo_width: int = 2,
) -> None:
    f = font(size, bold) if not italic else _italic(size)
    line_h = size + max(1, size // 6)
    top = xy[1] - line_h * len(lines) / 2 + line_h / 2
    for i, line in enumerate(lines):
        draw.text(
            (xy[0], top + i * line_h),
            line,
            font=f,
            fill=fill,
            anchor="mm",
            stroke_width=halo_width if halo else 0,
            stroke_fill=halo,
        )


@functools.lru_cache(maxsize=16)
def _italic(size: int) -> Any:
    from PIL import ImageFont

    return ImageFont.truetype(palette._FONT_DIR + "DejaVuSans-Oblique.ttf", size)


Box = tuple[float, float, float, float]


def _text_box(centre: tuple[float, float], lines: Sequence[str], size: int, bold: bool, extra: float) -> Box:
    """The box ``_text_centered`` fills for ``lines`` around ``centre`` (``extra`` px on the right)."""
    f = font(size, bold)
    line_h = size + max(1, size // 6)
    half_w = max(f.getlength(line) for line in lines) / 2
    half_h = line_h * len(lines) / 2
    return (centre[0] - half_w, centre[1] - half_h, centre[0] + half_w + extra, centre[1] + half_h)


def _overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


# Offsets tried around a land's visual centre, in units of the label size: a name may sit
# anywhere within six sizes across and three up or down; the costs below pick the spot.
_STEP = 0.5
_REACH_X, _REACH_Y = 6.0, 3.0
# What a name costs where it stands: each sample point of its box over another land or a
# barren land costs more than over the sea (a name over the sea still reads as the coast's),
# and covering the place where pieces stand costs as much as leaving the land.
_COST_OTHER_LAND, _COST_SEA = 1.6, 0.3
_COST_PIECES, _COST_DISTANCE, _COST_ADRIFT = 2.0, 0.35, 3.0
_COST_OWN_PIECES, _COST_CORE = 0.5, 3.0
# ... and a name whose own army would otherwise find no spot pays this for the army's spot.
_COST_CORE_BLOCKED = 12.0
# A name's box may lie over another land by this share at most (antialiased corners, a sliver of
# coast); any spot within that beats any spot beyond it.
_ON_OTHER_LAND, _COST_ON_OTHER = 0.03, 20.0
# ... and must lie over its own land by this share at least (a name wholly over the sea, however
# near, reads as the sea's).
_ON_OWN_LAND = 0.2
# Clear space kept between two names (in label sizes), so neighbours never read as one name.
_GAP_X, _GAP_Y = 0.6, 0.25
_MARGIN = 0.4


class Label(NamedTuple):
    centre: tuple[float, float]
    box: Box
    lines: tuple[str, ...]
    size: int = 0  # font size in px (0: the map's label size)


# What a last-resort wrapping costs, in the units of a name's cost: a name in three lines, or a
# long one-word name cut with a hyphen, reads worse than on one or two lines (Great Australian
# Desert and the 5-epoch Mesopotamia are wider than their lands at any size).
_COST_THREE_LINES, _COST_HYPHEN = 0.4, 0.8
_VOWELS = frozenset("aeiouy")
_DIGRAPHS = frozenset({"ch", "ck", "gh", "ph", "qu", "sh", "th", "wh"})  # never cut between these


def _hyphenated(word: str) -> tuple[str, str] | None:
    """``word`` cut in two with a hyphen at a syllable's end (between two consonants that vowels
    surround, or before a consonant between two vowels), as near its middle as such a cut is; None
    for a word too short to cut."""
    w = word.lower()

    def vowel(i: int) -> bool:
        return w[i] in _VOWELS

    cuts = [i for i in range(3, len(w) - 2)
            if w[i - 1:i + 1] not in _DIGRAPHS
            and ((vowel(i - 2) and not vowel(i - 1) and not vowel(i) and vowel(i + 1))
                 or (vowel(i - 1) and not vowel(i) and vowel(i + 1)))]
    if len(word) < 8 or not cuts:
        return None
    if w.endswith("land"):  # a compound: Rhine-land, not Rhi-neland
        cuts = [len(w) - 4]
    cut = min(cuts, key=lambda i: abs(i + 1 - (len(word) - i)))
    return word[:cut] + "-", word[cut:]


def _line_variants(name: str, lines: Sequence[str]) -> tuple[list[tuple[tuple[str, ...], float]], ...]:
    """The ways to write ``name`` with what each costs, in two stages: the geometry's wrapping, the
    name on one line and split in two; then, for a name none of those keeps on its own land, one
    word a line (a three-word name) or a one-word name cut with a hyphen."""
    words = name.split()
    plain = [tuple(lines), (name,)]
    if len(words) > 1:
        def imbalance(i: int) -> int:
            return abs(len(" ".join(words[:i])) - len(" ".join(words[i:])))

        cut = min(range(1, len(words)), key=imbalance)
        plain.append((" ".join(words[:cut]), " ".join(words[cut:])))
    last: list[tuple[tuple[str, ...], float]] = []
    if len(words) == 3:
        last.append((tuple(words), _COST_THREE_LINES))
    elif len(words) == 1 and (halves := _hyphenated(name)):
        last.append((halves, _COST_HYPHEN))
    return [(v, 0.0) for v in dict.fromkeys(plain)], last


def _intersections(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Area shared by each box of ``a`` (rows x0, y0, x1, y1) with each box of ``b``."""
    w = np.minimum(a[:, None, 2], b[None, :, 2]) - np.maximum(a[:, None, 0], b[None, :, 0])
    h = np.minimum(a[:, None, 3], b[None, :, 3]) - np.maximum(a[:, None, 1], b[None, :, 1])
    out: np.ndarray = np.clip(w, 0, None) * np.clip(h, 0, None)
    return out


# Label layouts are computed when the maps are built, not when a picture is first asked for (each
# costs 150-300 ms, and the first notice of a process needed four): ``python -m render.history_labels``
# writes them for these widths (the whole map without and with names, and the maps close-ups are
# drawn at) into LAYOUT_DIR; tests/test_render_labels.py fails when a stored one is not what the
# code computes. A file whose map inputs changed is ignored, and the layout computed on demand.
LAYOUT_DIR: Final = Path(__file__).resolve().parent / "layouts"
STORED_SIZES: Final = (800, 1600, 2400, 3200)


def layout_inputs(board: str) -> str:
    """A digest of what a ``board``'s layouts are computed from: its raster and its geometry."""
    directory = _geometry(board).directory
    digest = hashlib.sha256()
    for name in ("lands.png", "geometry.json"):
        digest.update((directory / name).read_bytes())
    return digest.hexdigest()


def layout_json(board: str) -> str:
    """The text of ``board``'s stored layouts at :data:`STORED_SIZES`, computed afresh."""
    sizes = {str(size): {name: [*label.centre, *label.box, list(label.lines), label.size]
                         for name, label in compute_layout(size, board).items()}
             for size in STORED_SIZES}
    return json.dumps({"inputs": layout_inputs(board), "sizes": sizes}, indent=0, sort_keys=True) + "\n"


@functools.cache
def _stored_layouts(board: str) -> dict[int, dict[str, Label]]:
    """The layouts stored for ``board`` (none when its file is missing or its map has changed)."""
    path = LAYOUT_DIR / f"{board}.json"
    if not path.exists():
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    if data.get("inputs") != layout_inputs(board):
        return {}
    return {int(size): {name: Label((cx, cy), (x0, y0, x1, y1), tuple(lines), fsize)
                        for name, (cx, cy, x0, y0, x1, y1, lines, fsize) in labels.items()}
            for size, labels in data["sizes"].items()}


@functools.lru_cache(maxsize=16)
def label_layout(size: int, board: str = CLASSIC) -> dict[str, Label]:
    """Where each land and sea name is drawn at ``size`` px wide (stored when the maps were built,
    else computed now: see :func:`compute_layout`)."""
    stored = _stored_layouts(board).get(size)
    return stored if stored is not None else compute_layout(size, board)


def compute_layout(size: int, board: str = CLASSIC) -> dict[str, Label]:
    """Where each land and sea name is drawn at ``size`` px wide, the box it fills and its lines.

    Sea names keep the geometry's spots. Each land name (the smallest lands first,
    as they have the fewest good spots) tries every offset around the land's
    visual centre and each way of wrapping it, never overlapping a name already
    placed, and takes the cheapest: as much of the name inside its own land as
    possible, off the spots where pieces stand, and close to the centre.
    """
    g = _geometry(board)
    k = size / BASE_WIDTH
    head = round(HEADER * k)
    label = max(6, round(LABEL_SIZE * k))
    ids = np.asarray(g.ids)
    id_of = {name: int(i) for i, name in g.data["ids"].items()}
    barren = np.zeros(256, dtype=bool)
    for name, i in id_of.items():
        barren[i] = g.area_of[name] is None
    lands = g.data["lands"]
    piece_owner = [n for n in lands if lands[n]["slots"]]
    pieces = np.array([[c * k for c in lands[n]["pieces_box"]] for n in piece_owner])
    pieces[:, 1::2] += head
    # The middle of the first row, where a land's single army (the commonest sight) stands.
    middle = np.array([lands[n]["slots"][1] for n in piece_owner], dtype=float)
    r_army = 13.5
    cores = np.column_stack([(middle[:, 0] - r_army) * k, (middle[:, 1] - r_army) * k + head,
                             (middle[:, 0] + r_army) * k, (middle[:, 1] + r_army) * k + head])
    placed: dict[str, Label] = {}
    boxes: list[Box] = []
    for name, w in g.data["waters"].items():
        centre = (w["label"][0] * k, w["label"][1] * k + head)
        box = _text_box(centre, w["label_lines"], label + 1, False, 0)
        placed[name] = Label(centre, box, tuple(w["label_lines"]))
        boxes.append(box)

    offsets = np.array(
        [
            (dx * label, dy * label)
            for dx in np.arange(-_REACH_X, _REACH_X + 1e-9, _STEP)
            for dy in np.arange(-_REACH_Y, _REACH_Y + 1e-9, _STEP)
        ]
    )
    grid_x, grid_y = np.meshgrid(np.linspace(0.0, 1.0, 7), np.linspace(0.0, 1.0, 3))
    fx, fy = grid_x.ravel()[None, :], grid_y.ravel()[None, :]
    # A finer grid over the name's box itself: the share of it over another land must stay under
    # _ON_OTHER_LAND (a name over a neighbour reads as the neighbour's).
    fine_x, fine_y = np.meshgrid(np.linspace(0.02, 0.98, 25), np.linspace(0.05, 0.95, 7))
    gx, gy = fine_x.ravel()[None, :], fine_y.ravel()[None, :]
    def place(name: str, boxes: list[Box], core_cost: float = _COST_CORE) -> tuple[float, Label, float]:
        """The cheapest spot for ``name``'s label, and how far it strays from its own land (0: not)."""
        land_g = lands[name]
        pole = (land_g["pole"][0] * k, land_g["pole"][1] * k + head)
        extra = 12 * k if name in g.resource else 0
        bold = g.area_of[name] is not None
        taken = np.array(boxes) + np.array([-_GAP_X, -_GAP_Y, _GAP_X, _GAP_Y]) * label
        own_pieces = np.array([n == name for n in piece_owner])
        best: tuple[float, Label, float] | None = None
        # A name that finds no spot off the other lands at the map's label size tries a smaller one,
        # and one that finds none in any size tries the last-resort wrappings.
        sizes = sorted({label, max(6, round(label * 0.85)), max(6, round(label * 0.72))}, reverse=True)
        for stage in _line_variants(name, land_g["label_lines"]):
            for fsize in sizes:
                for lines, wrap_cost in stage:
                    x0, y0, x1, y1 = _text_box((0.0, 0.0), lines, fsize, bold, extra)
                    cand = np.column_stack(
                        [offsets[:, 0] + pole[0] + x0, offsets[:, 1] + pole[1] + y0,
                         offsets[:, 0] + pole[0] + x1, offsets[:, 1] + pole[1] + y1]
                    )
                    ok = ~(_intersections(cand, taken) > 0).any(axis=1)
                    ok &= (cand[:, 0] >= 0) & (cand[:, 2] <= size)  # on the map: not over the header
                    ok &= (cand[:, 1] >= head) & (cand[:, 3] <= head + ids.shape[0] * k)  # or the legend
                    if not ok.any():
                        continue
                    cand = cand[ok]
                    # Sample the box and a margin round it on a 7x3 grid against the id raster (at
                    # BASE_WIDTH): a name hugging another land's coast reads as that land's.
                    m = _MARGIN * label
                    left, top = cand[:, None, 0] - m, cand[:, None, 1] - m
                    width, height = cand[:, None, 2] - left + m, cand[:, None, 3] - top + m
                    sx = np.clip(((left + fx * width) / k).astype(int), 0, ids.shape[1] - 1)
                    sy = np.clip(((top + fy * height - head) / k).astype(int), 0, ids.shape[0] - 1)
                    under = ids[sy, sx]
                    own = under == id_of[name]
                    sea = (under == 0) | (under == 255)
                    outside = np.where(own, 0.0, np.where(sea, _COST_SEA, _COST_OTHER_LAND)).mean(axis=1)
                    text_w = cand[:, None, 2] - cand[:, None, 0]  # the resource mark after it too
                    bx = np.clip(((cand[:, None, 0] + gx * text_w) / k).astype(int), 0, ids.shape[1] - 1)
                    text_h = cand[:, None, 3] - cand[:, None, 1]
                    by = np.clip(((cand[:, None, 1] + gy * text_h - head) / k).astype(int),
                                 0, ids.shape[0] - 1)
                    inside = ids[by, bx]
                    on_other = ((inside != id_of[name]) & (inside != 0) & (inside != 255)).mean(axis=1)
                    on_own = (inside == id_of[name]).mean(axis=1)
                    area = (cand[:, 2] - cand[:, 0]) * (cand[:, 3] - cand[:, 1])
                    # Pieces on other lands stay put; this land's own pieces step aside from its name
                    # (_piece_shift), so covering them costs less.
                    shared = _intersections(cand, pieces)
                    covered = np.minimum(shared[:, ~own_pieces].sum(axis=1) / area, 1.0) + \
                        _COST_OWN_PIECES * np.minimum(shared[:, own_pieces].sum(axis=1) / area, 1.0) + \
                        np.where((_intersections(cand, cores[own_pieces]) > 0).any(axis=1), core_cost,
                                 _COST_CORE * (_intersections(cand, cores) > 0).any(axis=1))
                    centre_x = (cand[:, 0] + cand[:, 2] - extra) / 2
                    centre_y = (cand[:, 1] + cand[:, 3]) / 2
                    dist = np.hypot(centre_x - pole[0], centre_y - pole[1]) / (3 * label)
                    adrift = ~own.any(axis=1)  # a name must at least touch its land
                    short = np.maximum(_ON_OWN_LAND - on_own, 0.0)
                    stray = np.maximum(on_other - _ON_OTHER_LAND, 0.0) + short
                    astray = stray > 0
                    cost = wrap_cost + outside + _COST_PIECES * covered + _COST_DISTANCE * dist \
                        + _COST_ADRIFT * adrift + _COST_ON_OTHER * astray * (1.0 + on_other + short)
                    i = int(np.argmin(cost))
                    if best is None or cost[i] < best[0]:
                        box = (float(cand[i, 0]), float(cand[i, 1]), float(cand[i, 2]), float(cand[i, 3]))
                        centre = (float(centre_x[i]), float(centre_y[i]))
                        best = (float(cost[i]), Label(centre, box, lines, fsize), float(stray[i]))
                # a smaller size is tried only for a name that found no spot on its own land (or, placed
                # again, none off its army's spot)
                if best is not None and best[0] < (_COST_ON_OTHER if core_cost <= _COST_CORE else core_cost):
                    break
            if best is not None and best[2] == 0.0:
                break
        if best is None:  # nowhere free within reach: the centre, overlapping
            lines = tuple(land_g["label_lines"])
            best = (0.0, Label(pole, _text_box(pole, lines, label, bold, extra), lines, label), 1.0)
        return best

    order = sorted(lands, key=lambda n: (lands[n]["pixels"], n))
    strays: dict[str, float] = {}
    for name in order:
        _, placed[name], strays[name] = place(name, boxes)
        boxes.append(placed[name].box)
    # A small land's name may stand where its own army must stand, the army finding no clear spot
    # within reach (Indus, Yunnan, Nile Delta): such a name is placed again, now paying dearly for
    # the army's spot, and kept where its army then finds room.
    def blocked(names: Sequence[str], boxes: list[Box]) -> set[str]:
        return {n for n in names
                if lands[n]["slots"] and _clear_shift(n, (1, 0), k, head, board, boxes) is None}

    def near(box: Box) -> list[str]:
        """The lands whose army could stand under ``box`` (within the pieces' reach)."""
        reach = (max(_STEPS) * 21.0 + 13.5) * k  # the farthest shift, in slot spacings, plus a piece
        return [n for n in piece_owner if box[0] - reach < lands[n]["slots"][1][0] * k < box[2] + reach
                and box[1] - reach < lands[n]["slots"][1][1] * k + head < box[3] + reach]

    for name in order:
        if not lands[name]["slots"] or not blocked([name], [label.box for label in placed.values()]):
            continue
        others = [label.box for n, label in placed.items() if n != name]
        _, again, stray = place(name, others, _COST_CORE_BLOCKED)
        around = [n for n in near(again.box) if n != name]
        # kept where it strays off its land no further, its army finds room and no neighbour's army
        # loses its room
        if stray <= strays[name] + 1e-9 and not blocked([name, *around], [*others, again.box]) \
                - blocked(around, [*others, placed[name].box]):
            placed[name] = again
    return placed


@functools.lru_cache(maxsize=16)
def _base(board: str, size: int, names: bool) -> Image.Image:
    """The map without pieces or panel, ``size`` pixels wide (cached; callers copy it)."""
    g = _geometry(board)
    k = size / BASE_WIDTH
    map_h = round(g.ids.height * k)
    head = round(HEADER * k)
    ids = _scaled_ids(board, size)

    # Area fills through a palette: index = land id.
    lut: list[int] = [0] * 768
    lut[0:3] = palette.SEA
    lut[255 * 3 : 256 * 3] = OFF_BOARD_COLOUR
    area_index: list[int] = [0] * 256  # land id -> area number (for area edges); 0 sea
    for lid, name in g.data["ids"].items():
        i = int(lid)
        area = g.area_of[name]
        colour = palette.AREA_COLOURS[area] if area else palette.BARREN
        lut[i * 3 : i * 3 + 3] = colour
        area_index[i] = g.areas.index(area) + 1 if area else 20 + i
    area_index[255] = 250
    fills = ids.copy()
    fills.putpalette(lut)
    img = fills.convert("RGB")

    # Sea: lighter shallows along the coasts.
    land = _binary(ids)
    shallow = _dilate(land, 2).filter(ImageFilter.GaussianBlur(4 * k + 1))
    sea_mask = ImageChops.invert(land)
    shallow = ImageChops.multiply(shallow, sea_mask).point(lambda v: v * 6 // 10)
    img.paste(palette.lighten(palette.SEA, 0.55), mask=shallow)

    # Barren lands: diagonal hatching.
    barren_ids = {int(i) for i, n in g.data["ids"].items() if g.area_of[n] is None}
    barren = ids.point(lambda v: 255 if v in barren_ids else 0)
    hatch = Image.new("L", (size, map_h), 0)
    hd = ImageDraw.Draw(hatch)
    step = max(4, round(7 * k))
    for x in range(-map_h, size, step):
        hd.line((x, map_h, x + map_h, 0), fill=255, width=1)
    img.paste(palette.darken(palette.BARREN, 0.12), mask=ImageChops.multiply(hatch, barren))

    # Borders: thin between lands, strong between areas, blue along coasts.
    edges = _edges(ids)
    coast = _edges(land)
    areas = ids.point(area_index)
    area_edges = ImageChops.subtract(_edges(areas), coast)
    if k >= 0.75:
        area_edges = _dilate(area_edges, 1).point(lambda v: v * 7 // 10)
    land_edges = ImageChops.subtract(edges, coast)
    img.paste(palette.BORDER, mask=land_edges.point(lambda v: v * 8 // 10))
    img.paste(AREA_EDGE, mask=ImageChops.multiply(area_edges, land))
    img.paste(COAST, mask=coast.point(lambda v: v * 9 // 10))

    canvas = Image.new("RGB", (size, head + map_h + round(FOOTER * k)), palette.PAPER)
    canvas.paste(img, (0, head))
    draw = ImageDraw.Draw(canvas)

    def at(p: Sequence[float]) -> tuple[float, float]:
        return p[0] * k, p[1] * k + head

    # Straits: a red double tick across the water.
    for s in g.data["straits"]:
        (x0, y0), (x1, y1) = at(s["line"][0]), at(s["line"][1])
        mx, my = (x0 + x1) / 2, (y0 + y1) / 2
        dx, dy = x1 - x0, y1 - y0
        length = max(1.0, (dx * dx + dy * dy) ** 0.5)
        ux, uy = dx / length, dy / length
        half = max(length / 2 + 3 * k, 5 * k)
        a = (mx - ux * half, my - uy * half)
        b = (mx + ux * half, my + uy * half)
        draw.line((a, b), fill=palette.PAPER, width=max(2, round(5 * k)))
        draw.line((a, b), fill=STRAIT, width=max(1, round(3 * k)))
    # The Great Wall: a crenellated dark line along the shared border.
    for wall in g.data["great_wall"]:
        pts = [at(p) for p in wall["points"]]
        r = max(1.0, 2.2 * k)
        for i, (wx, wy) in enumerate(pts):
            if i % 2 == 0:
                draw.rectangle((wx - r, wy - r, wx + r, wy + r), fill=WALL)

    if names:
        _draw_names(draw, board, size, mask=False)
    for name in g.resource:
        # The symbol sits after the name, or alone where the name would stand.
        centre, _, lines, _ = label_layout(size, board)[name]
        rx, ry = centre
        if not names and g.data["ids"].get(str(g.ids.getpixel((int(rx / k), int((ry - head) / k))))) != name:
            rx, ry = at(g.data["lands"][name]["pole"])  # the name's spot is off the land
        if names:
            widest = max(font(max(6, round(LABEL_SIZE * k)), True).getlength(s) for s in lines)
            rx += widest / 2 + 6 * k
            ry -= (len(lines) - 1) * LABEL_SIZE * k / 2
        _diamond(draw, (rx, ry), 5 * k)
    _draw_legend(draw, board, k, head + map_h + FOOTER * k / 2)
    return canvas


def _draw_names(draw: ImageDraw.ImageDraw, board: str, size: int, *, mask: bool) -> None:
    """Every water and land name with its halo; with ``mask``, in white only (the pixels a name
    covers, which a highlight's outline must leave alone)."""
    g = _geometry(board)
    k = size / BASE_WIDTH
    head = round(HEADER * k)
    label = max(6, round(LABEL_SIZE * k))
    white: RGB = (255, 255, 255)
    for w in g.data["waters"].values():
        _text_centered(
            draw,
            (w["label"][0] * k, w["label"][1] * k + head),
            w["label_lines"],
            label + 1,
            white if mask else palette.WATER_INK,
            italic=True,
            halo=white if mask else palette.lighten(palette.SEA, 0.4),
            halo_width=1,
        )
    layout = label_layout(size, board)
    for name in g.data["lands"]:
        is_barren = g.area_of[name] is None
        halo = palette.lighten(palette.AREA_COLOURS.get(g.area_of[name] or "", palette.BARREN), 0.55)
        _text_centered(
            draw,
            layout[name].centre,
            layout[name].lines,
            layout[name].size or label,
            white if mask else (90, 80, 70) if is_barren else palette.INK,
            italic=is_barren,
            bold=not is_barren,
            halo=white if mask else halo,
            halo_width=max(1, round(2 * k)),
        )


@functools.lru_cache(maxsize=16)
def _names_mask(board: str, size: int, height: int) -> Image.Image:
    """255 where a name or its halo stands on the ``size`` px wide board (cached with the base)."""
    img = Image.new("RGB", (size, height), (0, 0, 0))
    _draw_names(ImageDraw.Draw(img), board, size, mask=True)
    return _binary(img.convert("L"))  # a name's antialiased rim counts as the name


def _draw_legend(draw: ImageDraw.ImageDraw, board: str, k: float, y: float) -> None:
    """What each piece and mark means, in a strip under the map (drawn once with the base)."""
    f = font(max(9, round(13 * k)))
    x = 10 * k

    def item(symbol: Callable[[tuple[float, float]], None], text: str, width: float = 24.0) -> None:
        nonlocal x
        symbol((x + width * k / 2, y))
        x += width * k + 4 * k
        draw.text((x, y), text, font=f, fill=palette.INK, anchor="lm")
        x += f.getlength(text) + 16 * k

    draw.text((x, y), "Key:", font=font(max(9, round(13 * k)), True), fill=palette.INK, anchor="lm")
    x += font(max(9, round(13 * k)), True).getlength("Key:") + 10 * k
    if board == EPOCHS5:
        item(lambda c: _army(draw, c, 1, 0, False, k), "army")
        item(lambda c: _army(draw, c, 1, 0, True, k), "army moving now", 30)
        item(lambda c: _caravan(draw, c, palette.PLAYER_COLOURS[1], k), "caravan")
    else:
        item(lambda c: _army(draw, c, 1, 3, False, k), "army of epoch I to VII")
        item(lambda c: _army(draw, c, 1, 3, True, k), "army moving now", 30)
        item(lambda c: _ship(draw, c, palette.PLAYER_COLOURS[1], k, None), "fleet")
    item(lambda c: _city(draw, c, k), "city", 16)
    item(lambda c: _star(draw, c, 8 * k, (250, 214, 60), k), "capitol" if board == EPOCHS5 else "capital", 18)
    item(lambda c: _monument(draw, c, k), "monument", 18)
    item(lambda c: _fort(draw, c, k), "fort", 18)
    item(lambda c: _diamond(draw, c, 5 * k), "resource", 12)

    def strait(c: tuple[float, float]) -> None:
        draw.line(((c[0] - 9 * k, c[1]), (c[0] + 9 * k, c[1])), fill=STRAIT, width=max(1, round(3 * k)))

    item(strait, "strait", 20)
    if board == CLASSIC:
        def wall(c: tuple[float, float]) -> None:
            r = max(1.0, 2.2 * k)
            for i in range(-2, 3, 2):
                wx = c[0] + i * 4 * k
                draw.rectangle((wx - r, c[1] - r, wx + r, c[1] + r), fill=WALL)

        item(wall, "Great Wall", 20)


def _diamond(draw: ImageDraw.ImageDraw, c: tuple[float, float], r: float) -> None:
    x, y = c
    draw.polygon(
        [(x, y - r), (x + r * 0.8, y), (x, y + r), (x - r * 0.8, y)], fill=RESOURCE, outline=palette.INK
    )


# --- pieces -----------------------------------------------------------------


def _army(
    draw: ImageDraw.ImageDraw, c: tuple[float, float], owner: int, epoch: int, active: bool, k: float
) -> None:
    x, y = c
    r = 10 * k
    colour = palette.PLAYER_COLOURS[owner % len(palette.PLAYER_COLOURS)]
    if active:
        ro = r + 3.2 * k
        draw_piece(draw, owner, (x, y), ro, fill=(255, 255, 255), ink=palette.INK, width=max(1, round(k)))
    draw_piece(draw, owner, (x, y), r, fill=colour, ink=palette.INK, width=max(1, round(k)))
    text = ROMAN[epoch] if 0 <= epoch < len(ROMAN) else str(epoch)
    size = max(6, round((11 if len(text) < 3 else 9) * k))
    draw.text(
        (x, y + 0.5 * k),
        text,
        font=font(size, True),
        anchor="mm",
        fill=palette.PLAYER_TEXT[owner % len(palette.PLAYER_TEXT)],
    )


def _fort(draw: ImageDraw.ImageDraw, c: tuple[float, float], k: float) -> None:
    x, y = c
    w, h = 7 * k, 6 * k
    stone, ink = (150, 140, 128), palette.INK
    draw.rectangle((x - w, y - h + 2 * k, x + w, y + h), fill=stone, outline=ink, width=max(1, round(k)))
    m = 2.6 * k
    for i in (-1, 0, 1):
        cx = x + i * (w - m / 2) * 0.95
        draw.rectangle((cx - m / 2, y - h - 1 * k, cx + m / 2, y - h + 2 * k), fill=stone, outline=ink)
    draw.rectangle((x - 1.6 * k, y + h - 4 * k, x + 1.6 * k, y + h), fill=ink)


def _star(draw: ImageDraw.ImageDraw, c: tuple[float, float], r: float, fill: RGB, k: float) -> None:
    import math

    x, y = c
    pts = []
    for i in range(10):
        rr = r if i % 2 == 0 else r * 0.45
        a = -math.pi / 2 + i * math.pi / 5
        pts.append((x + rr * math.cos(a), y + rr * math.sin(a)))
    draw.polygon(pts, fill=fill, outline=palette.INK, width=max(1, round(k)))


def _city(draw: ImageDraw.ImageDraw, c: tuple[float, float], k: float) -> None:
    x, y = c
    r = 6 * k
    draw.ellipse(
        (x - r, y - r, x + r, y + r), fill=(255, 255, 255), outline=palette.INK, width=max(1, round(1.5 * k))
    )
    q = 2.6 * k
    draw.ellipse((x - q, y - q, x + q, y + q), fill=palette.INK)


def _monument(draw: ImageDraw.ImageDraw, c: tuple[float, float], k: float) -> None:
    x, y = c
    h, w = 8 * k, 7.5 * k
    draw.polygon(
        [(x, y - h), (x + w, y + h * 0.8), (x - w, y + h * 0.8)],
        fill=(236, 206, 120),
        outline=palette.INK,
        width=max(1, round(k)),
    )
    draw.line(((x, y - h), (x + w * 0.25, y + h * 0.8)), fill=(176, 140, 60), width=max(1, round(k)))


def _ship(
    draw: ImageDraw.ImageDraw, c: tuple[float, float], colour: RGB, k: float, manned: int | None
) -> None:
    x, y = c
    ink = palette.INK
    hull = [(x - 11 * k, y + 1 * k), (x + 11 * k, y + 1 * k), (x + 7 * k, y + 7 * k), (x - 7 * k, y + 7 * k)]
    draw.polygon(hull, fill=colour, outline=ink, width=max(1, round(k)))
    draw.line(((x, y + 1 * k), (x, y - 11 * k)), fill=ink, width=max(1, round(1.3 * k)))
    draw.polygon(
        [(x + 1 * k, y - 11 * k), (x + 9 * k, y - 2 * k), (x + 1 * k, y - 2 * k)],
        fill=(250, 248, 240),
        outline=ink,
    )
    if manned is not None:
        r = 4 * k
        mc = palette.PLAYER_COLOURS[manned % len(palette.PLAYER_COLOURS)]
        draw_piece(draw, manned, (x - 8 * k, y - 6 * k), r, fill=mc, ink=ink)


def _caravan(draw: ImageDraw.ImageDraw, c: tuple[float, float], colour: RGB, k: float) -> None:
    """A caravan (5-epoch rules): a tent in the empire's colour."""
    x, y = c
    draw.polygon(
        [(x - 10 * k, y + 7 * k), (x, y - 9 * k), (x + 10 * k, y + 7 * k)],
        fill=colour,
        outline=palette.INK,
        width=max(1, round(k)),
    )
    draw.line(((x, y - 9 * k), (x, y + 7 * k)), fill=palette.INK, width=max(1, round(k)))


# Where a land's pieces may shift (in slot spacings) when they would cover a name: the first of
# these that clears every name and keeps the pieces' middle on the land is taken.
_STEPS: Final = (-2.0, -1.5, -1.0, -0.5, 0.0, 0.5, 1.0, 1.5, 2.0)
_PIECE_SHIFTS: Final = tuple(sorted(
    ((fx, fy) for fx in _STEPS for fy in _STEPS),
    key=lambda s: (abs(s[0]) + abs(s[1]), abs(s[0]), s),
))  # nearest first


# Base px round a piece's centre that hold all of it: its shape (an army's ring reaches 14) and the
# count beside it ("+2" beside an army, "x3" beside a fleet, which reach about 28 to the right).
_PIECE_REACH: Final = 32
_DISC: Final = np.hypot(*np.mgrid[-9:10, -9:10]) <= 9  # a piece's footprint, in base px round its centre


def _piece_shift(name: str, count: tuple[int, int], k: float, head: int, board_id: str,
                 names: Sequence[Box]) -> tuple[float, float]:
    """How far (base px) to move a land's pieces so they cover no name: ``count`` is how many
    pieces stand in the army row and in the buildings row (no move where none clears them all)."""
    clear = _clear_shift(name, count, k, head, board_id, names)
    return clear if clear is not None else _least_covering_shift(name, count, k, head, board_id, names)


@functools.lru_cache(maxsize=4096)
def _shift_at(name: str, count: tuple[int, int], size: int, board_id: str) -> tuple[float, float]:
    """:func:`_piece_shift` on the ``size`` px wide map with its names, kept: the same few counts
    of pieces stand on a land turn after turn, and finding their spot among the names is most of
    the cost of drawing them."""
    k = size / BASE_WIDTH
    names = [label.box for label in label_layout(size, board_id).values()]
    return _piece_shift(name, count, k, round(HEADER * k), board_id, names)


def _piece_boxes(slots: Sequence[Sequence[float]], count: tuple[int, int], dx: float, dy: float,
                 k: float, head: int) -> tuple[list[Box], list[tuple[float, float]]]:
    """The boxes (picture px) of a land's two rows of pieces shifted by (dx, dy) base px, and the
    pieces' centres (base px)."""
    spacing = slots[1][0] - slots[0][0]
    r = 13.5  # the largest piece's radius at BASE_WIDTH (an active army's ring)
    boxes, centres = [], []
    for row, n in ((slots[:3], count[0]), (slots[3:6], count[1])):
        if n:
            off = (3 - n) * spacing / 2
            x0, y = row[0][0] + off + dx, row[0][1] + dy
            x1 = row[n - 1][0] + off + dx
            boxes.append(((x0 - r) * k, (y - r) * k + head, (x1 + r) * k, (y + r) * k + head))
            centres += [(row[i][0] + off + dx, row[i][1] + dy) for i in range(n)]
    return boxes, centres


def _least_covering_shift(name: str, count: tuple[int, int], k: float, head: int, board_id: str,
                          names: Sequence[Box]) -> tuple[float, float]:
    """Where no shift clears every name: the one covering the least of them, its pieces still
    standing on their land (a capital under an army on a narrow land covers a corner of a name,
    not the whole of it)."""
    g = _geometry(board_id)
    land = g.data["lands"][name]
    slots = land["slots"]
    spacing = slots[1][0] - slots[0][0]
    own = next(int(i) for i, n in g.data["ids"].items() if n == name)
    best, least = (0.0, 0.0), float("inf")
    named = np.array(names, dtype=float).reshape(-1, 4)
    for fx, fy in _PIECE_SHIFTS:
        boxes, centres = _piece_boxes(slots, count, fx * spacing, fy * spacing, k, head)
        if (fx, fy) != (0.0, 0.0) and not all(g.ids.getpixel((int(x), int(y))) == own for x, y in centres
                                              if 0 <= x < g.ids.width and 0 <= y < g.ids.height):
            continue
        covered = float(_intersections(np.array(boxes), named).sum()) if boxes else 0.0
        if covered < least - 1e-9:
            best, least = (fx * spacing, fy * spacing), covered
    return best


def _touching(g: _Geometry, own: int, x: float, y: float) -> bool:
    """A piece's disc (radius 9 at BASE_WIDTH) round (x, y) reaches the land ``own``."""
    part = np.asarray(g.ids.crop((int(x) - 9, int(y) - 9, int(x) + 10, int(y) + 10)))
    return bool((part[_DISC] == own).any())


def _clear_shift(name: str, count: tuple[int, int], k: float, head: int, board_id: str,
                 names: Sequence[Box]) -> tuple[float, float] | None:
    """The nearest shift of a land's pieces that clears every name, best with every piece standing
    on the land, else with the pieces' middle on it (a sliver of a land has no room for a row of
    three), else with every piece touching it (an island too small for both a name and an army:
    the army stands on the coast, the name beside it); None where no shift within reach clears them."""
    g = _geometry(board_id)
    land = g.data["lands"][name]
    slots = land["slots"]
    spacing = slots[1][0] - slots[0][0]
    own = next(int(i) for i, n in g.data["ids"].items() if n == name)

    def on_land(x: float, y: float) -> bool:
        return 0 <= y < g.ids.height and 0 <= x < g.ids.width and g.ids.getpixel((int(x), int(y))) == own

    # Only the names within the pieces' reach can be covered: the others are left out (it is the
    # label layout's hottest loop).
    reach = max(_STEPS) * spacing + 14.0
    x0, y0, x1, y1 = (min(p[0] for p in slots) - reach) * k, (min(p[1] for p in slots) - reach) * k + head, \
        (max(p[0] for p in slots) + reach) * k, (max(p[1] for p in slots) + reach) * k + head
    names = [t for t in names if _overlap(t, (x0, y0, x1, y1))]
    fallback: tuple[float, float] | None = None
    coast: tuple[float, float] | None = None
    for fx, fy in _PIECE_SHIFTS:
        dx, dy = fx * spacing, fy * spacing
        boxes, centres = _piece_boxes(slots, count, dx, dy, k, head)
        if any(_overlap(b, t) for b in boxes for t in names):
            continue
        if all(on_land(x, y) for x, y in centres):
            return dx, dy
        middle_on_land = on_land(land["pole"][0] + dx, land["pole"][1] + dy)
        if fallback is None and (middle_on_land or (fx, fy) == (0.0, 0.0)):
            fallback = (dx, dy)
        if coast is None and all(_touching(g, own, x, y) for x, y in centres):
            coast = (dx, dy)
    return fallback or coast


def _draw_pieces(canvas: Image.Image, seen: Shown, k: float, head: int, board_id: str,
                 names: bool = False, origin: tuple[int, int] = (0, 0)) -> list[tuple[int, int, int, int]]:
    """Every piece ``seen`` on the map; ``canvas`` is the part of the picture whose top-left corner
    is at ``origin`` (pieces are placed on the whole picture, then drawn where the canvas shows them).
    Returns boxes on the canvas (x0, y0, x1, y1, clipped to it) that hold every pixel drawn: one per
    land, ship and caravan shown."""
    g = _geometry(board_id)
    turn = seen.turn
    active_keys = turn.active if turn is not None else frozenset()
    draw = StampDraw(canvas)
    lands = g.data["lands"]
    size = round(k * BASE_WIDTH)
    shift = (0.0, 0.0)

    def at(p: Sequence[float], dx: float = 0.0) -> tuple[float, float]:
        return (p[0] + dx + shift[0]) * k - origin[0], (p[1] + shift[1]) * k + head - origin[1]

    spots: list[tuple[int, int, int, int]] = []
    reach = _PIECE_REACH * k

    def spot(centres: Sequence[tuple[float, float]]) -> None:
        """Keep the box round pieces drawn at ``centres`` (where it shows on the canvas)."""
        if not centres:
            return
        x0 = max(0, int(min(x for x, _ in centres) - reach))
        y0 = max(0, int(min(y for _, y in centres) - reach))
        x1 = min(canvas.width, int(max(x for x, _ in centres) + reach) + 1)
        y1 = min(canvas.height, int(max(y for _, y in centres) + reach) + 1)
        if x0 < x1 and y0 < y1:
            spots.append((x0, y0, x1, y1))

    forts, monuments, structures, armies = seen.forts, seen.monuments, seen.structures, seen.armies
    for name in sorted(set(armies) | forts | monuments | set(structures)):
        if name not in lands:
            continue
        slots = lands[name]["slots"]
        if not slots:
            continue
        row1, row2 = slots[:3], slots[3:6]
        spacing = row1[1][0] - row1[0][0]
        stack = armies.get(name, ())
        shown = stack[:3]
        offset = (3 - len(shown)) * spacing / 2
        buildings = (name in forts) + (name in structures) + (name in monuments)
        shift = _shift_at(name, (len(shown), buildings), size, board_id) if names \
            else (0.0, 0.0)
        centres = []
        for i, army in enumerate(shown):
            owner, epoch, force = army
            centres.append(at(row1[i], offset))
            _army(draw, centres[-1], owner, epoch, force in active_keys, k)
        if len(stack) > 3:
            x, y = at(row1[2], offset)
            draw.text(
                (x + 9 * k, y - 9 * k),
                f"+{len(stack) - 3}",
                font=font(max(6, round(9 * k)), True),
                fill=palette.INK,
                stroke_width=1,
                stroke_fill=(255, 255, 255),
            )
        others: list[str] = []
        if name in forts:
            others.append("fort")
        if name in structures:
            others.append(structures[name])
        if name in monuments:
            others.append("monument")
        offset2 = (3 - len(others)) * spacing / 2
        for i, piece in enumerate(others):
            c = at(row2[i], offset2)
            centres.append(c)
            if piece == "fort":
                _fort(draw, c, k)
            elif piece in ("capital", "capitol"):
                _star(draw, c, 8 * k, (250, 214, 60), k)
            elif piece == "monument":
                _monument(draw, c, k)
            else:
                _city(draw, c, k)
        spot(centres)

    shift = (0.0, 0.0)  # ships and caravans stand where the geometry puts them
    waters = g.data["waters"]
    manned = seen.manned
    fleets = Counter(turn.fleets if turn is not None else ())
    player = turn.player if turn is not None else None
    for water in sorted(set(fleets) | set(manned)):
        if water not in waters:
            continue
        x, y = at(waters[water]["fleet"])
        spot([(x, y)])
        holder_owner = manned.get(water)
        n = fleets.get(water, 0)
        if n and player is not None:
            colour = palette.PLAYER_COLOURS[int(player) % len(palette.PLAYER_COLOURS)]
            _ship(draw, (x, y), colour, k, holder_owner)
            if n > 1:
                draw.text(
                    (x + 12 * k, y + 2 * k),
                    f"x{n}",
                    font=font(max(6, round(10 * k)), True),
                    anchor="lm",
                    fill=palette.INK,
                    stroke_width=1,
                    stroke_fill=(255, 255, 255),
                )
        elif holder_owner is not None:
            _ship(draw, (x, y), (200, 200, 200), k, holder_owner)
    caravans = Counter(turn.caravans if turn is not None else ())
    if caravans and player is not None:
        colour = palette.PLAYER_COLOURS[int(player) % len(palette.PLAYER_COLOURS)]
        for land in sorted(caravans):
            if land in lands:
                _caravan(draw, at(lands[land]["pole"]), colour, k)
                spot([at(lands[land]["pole"])])
    return spots


# --- panel ------------------------------------------------------------------


def _draw_panel(canvas: Image.Image, seen: Shown, k: float, head: int, board: str,
                people: Sequence[str] = ()) -> None:
    g = _geometry(board)
    draw = StampDraw(canvas)
    draw.rectangle((0, 0, canvas.width, head - 1), fill=palette.PAPER)
    draw.line((0, head - 1, canvas.width, head - 1), fill=palette.BORDER, width=max(1, round(k)))
    pad = 10 * k
    epoch = seen.epoch
    title = seen.epoch_name or (f"Epoch {ROMAN[epoch]}" if 0 < epoch < len(ROMAN) else "")
    big, mid, small = (
        font(max(8, round(20 * k)), True),
        font(max(7, round(14 * k))),
        font(max(6, round(11 * k))),
    )
    y1 = 18 * k
    draw.text((pad, y1), title, font=big, fill=palette.INK, anchor="lm")
    x = pad + text_length(title, big) + 16 * k
    turn = seen.turn
    you, scores, winner = seen.you, seen.scores, seen.winner
    if turn is not None:
        p = turn.player
        colour = palette.PLAYER_COLOURS[p % len(palette.PLAYER_COLOURS)]
        r = 7 * k
        draw_piece(draw, p, (x + r, y1), r, fill=colour, ink=palette.INK)
        text = f"{turn.name} — {_seat(p, you, people)} playing"
        if turn.catapult:  # 5-epoch rules: the siege bonus waiting on the catapult
            text += f" · catapult +{turn.catapult}"
        if turn.to_place is not None:  # 5-epoch rules: the armies left on the card
            n = turn.to_place
            text += f" · {n} {'army' if n == 1 else 'armies'} to place"
        draw.text((x + 2 * r + 6 * k, y1), text, font=mid, fill=palette.INK, anchor="lm")
    elif winner is not None:
        text = f"Game over — {_seat(winner, you, people)} {'win' if winner == you else 'wins'}"
        draw.text((x, y1), text, font=mid, fill=palette.INK, anchor="lm")
    elif seen.phase:
        draw.text((x, y1), seen.phase.capitalize(), font=mid, fill=palette.INK, anchor="lm")

    # Scores, right-aligned: a chip per player (the final figures once the game is over).
    xr = canvas.width - pad
    for p in reversed(range(len(scores))):
        colour = palette.PLAYER_COLOURS[p % len(palette.PLAYER_COLOURS)]
        label = f"{_seat(p, you, people)} {scores[p]}" + (" · winner" if p == winner else "")
        w = text_length(label, mid) + 26 * k
        x0 = xr - w
        active = (turn is not None and turn.player == p) or p == winner
        draw.rounded_rectangle(
            (x0, y1 - 11 * k, xr, y1 + 11 * k),
            radius=5 * k,
            fill=(255, 255, 255) if active else palette.PAPER,
            outline=palette.INK if active else palette.BORDER,
            width=max(1, round((2 if active else 1) * k)),
        )
        r = 6 * k
        draw_piece(draw, p, (x0 + 6 * k + r, y1), r, fill=colour, ink=palette.INK)
        draw.text((x0 + 20 * k, y1), label, font=mid, fill=palette.INK, anchor="lm")
        xr = x0 - 6 * k

    # Area values of this epoch, which double as the colour key.
    y2 = 54 * k
    x = pad
    key = "Area values:" if 0 < epoch < len(ROMAN) else "Areas:"
    draw.text((x, y2), key, font=small, fill=palette.INK, anchor="lm")
    x += text_length(key, small) + 8 * k
    cell = (canvas.width - x - pad) / len(g.areas)
    tokens = seen.tokens
    for area in g.areas:
        colour = palette.AREA_COLOURS[area]
        if tokens is not None:  # 5-epoch rules: a region scores only once its token is out
            value = tokens.get(area)
        else:
            values = g.area_values.get(area, ())
            value = values[epoch - 1] if 0 < epoch <= len(values) else None
        draw.rounded_rectangle(
            (x, y2 - 9 * k, x + cell - 4 * k, y2 + 9 * k),
            radius=3 * k,
            fill=colour,
            outline=palette.darken(colour, 0.35),
        )
        text = _short_area(area)
        vt = ("-" if tokens is not None else "") if value is None else str(value)
        draw.text((x + 4 * k, y2), text, font=small, fill=palette.INK, anchor="lm")
        if vt:
            draw.text(
                (x + cell - 8 * k, y2),
                vt,
                font=font(max(6, round(12 * k)), True),
                fill=palette.INK,
                anchor="rm",
            )
        x += cell


def _seat(p: int, you: int | None, people: Sequence[str] = ()) -> str:
    return seat_label(palette.PLAYER_NAMES[p % len(palette.PLAYER_NAMES)], p, you, people)


_AREA_SHORT: Final = {
    "Northern Africa": "N. Africa",
    "Southern Africa": "S. Africa",
    "Southern Europe": "S. Europe",
    "Northern Europe": "N. Europe",
    "Southeast Asia": "S.E. Asia",
    "North America": "N. America",
    "South America": "S. America",
}


def _short_area(area: str) -> str:
    return _AREA_SHORT.get(area, area)


def _highlight(canvas: Image.Image, names: Sequence[str], size: int, head: int, board: str,
               with_names: bool = True, origin: tuple[int, int] = (0, 0),
               within: tuple[int, int, int, int] | None = None) -> None:
    """Outline the lands ``names`` on ``canvas``: a ring round them and a thin line inside their
    coast, left out where a name stands. ``canvas`` is the part of the ``size`` px wide picture whose
    top-left corner is at ``origin`` (the whole picture: (0, 0)); with ``within`` (a box on the
    canvas), only there (a window's margin, which is cut off, goes without)."""
    g = _geometry(board)
    wanted = {int(g.data["lands"][n]["id"]) for n in names if n in g.data["lands"]}
    if not wanted:
        return
    k = size / BASE_WIDTH
    grow = _odd(7 * k)
    # Only the lands' surroundings are masked and grown, and only where the canvas shows them.
    boxes = [box for name, box in _land_boxes(board).items() if int(g.data["lands"][name]["id"]) in wanted]
    ids = _scaled_ids(board, size)
    shown = within if within is not None else (0, 0, canvas.width, canvas.height)
    left = max(0, int(min(b[0] for b in boxes) * k) - grow - 1, origin[0] + shown[0])
    top = max(0, int(min(b[1] for b in boxes) * k) - grow - 1, origin[1] + shown[1] - head)
    right = min(ids.width, int(max(b[2] for b in boxes) * k) + grow + 2, origin[0] + shown[2])
    bottom = min(ids.height, int(max(b[3] for b in boxes) * k) + grow + 2, origin[1] + shown[3] - head)
    if left >= right or top >= bottom:
        return
    # The mask reaches a ring's width past what is shown, so the ring at the canvas's edge is whole.
    x0, y0 = max(0, left - grow), max(0, top - grow)
    x1, y1 = min(ids.width, right + grow), min(ids.height, bottom + grow)
    lut = [255 if v in wanted else 0 for v in range(256)]
    # In numpy on 0/255 masks (the same pixels as Pillow's subtract, invert and multiply, in a
    # fraction of their time): the ring is what growing adds, the inner line what shrinking takes.
    mask = np.asarray(ids.crop((x0, y0, x1, y1)).point(lut))
    ring = _grown(mask, grow // 2) & ~mask
    inner = mask & _grown(~mask, _odd(3 * k) // 2)  # ~ (mask shrunk) = (~ mask) grown
    rows, cols = slice(top - y0, bottom - y0), slice(left - x0, right - x0)
    where = (left, head + top, right, head + bottom)  # on the whole picture
    at = (left - origin[0], head + top - origin[1])  # on the canvas
    # The outline goes under the names: where a name stands, it is left out.
    names_mask = _names_mask(board, size, _height(board, size)) if with_names else None
    cover = ~np.asarray(names_mask.crop(where)) if names_mask is not None else None
    region = np.array(canvas.crop((*at, at[0] + right - left, at[1] + bottom - top)))
    for part, colour in ((ring, palette.HIGHLIGHT), (inner, (200, 20, 120))):
        on = (part[rows, cols] if cover is None else part[rows, cols] & cover) != 0
        # A channel at a time: a third of the time of the whole pixel at once, a quarter of Pillow's
        # paste through a mask (which blends every pixel of the region).
        for channel, value in enumerate(colour):
            region[..., channel][on] = value
    canvas.paste(Image.fromarray(region, "RGB"), at)


@functools.lru_cache(maxsize=16)
def _scaled_ids(board: str, size: int) -> Image.Image:
    """The land-id raster at ``size`` px wide (nearest neighbour: ids are never blended)."""
    g = _geometry(board)
    return g.ids.resize((size, round(g.ids.height * size / BASE_WIDTH)), Image.Resampling.NEAREST)


@functools.cache
def _land_boxes(board: str) -> dict[str, tuple[int, int, int, int]]:
    """Each land's bounding box on the raster (base px): x0, y0, x1, y1."""
    g = _geometry(board)
    ids = np.asarray(g.ids)
    # Which ids each column and each row holds, in one pass over the raster (a pass per land cost
    # half a second on a notice's first picture).
    in_col = np.zeros((256, ids.shape[1]), dtype=bool)
    in_col[ids, np.arange(ids.shape[1])[None, :]] = True
    in_row = np.zeros((256, ids.shape[0]), dtype=bool)
    in_row[ids, np.arange(ids.shape[0])[:, None]] = True
    out: dict[str, tuple[int, int, int, int]] = {}
    for lid, name in g.data["ids"].items():
        cols, rows = np.flatnonzero(in_col[int(lid)]), np.flatnonzero(in_row[int(lid)])
        if cols.size:
            out[name] = (int(cols[0]), int(rows[0]), int(cols[-1]) + 1, int(rows[-1]) + 1)
    return out


def _odd(v: float) -> int:
    n = max(3, round(v))
    return n if n % 2 else n + 1


def render_classic(
    view: ClassicView, *, names: bool = True, highlight: Sequence[str] = (), size: int = 1600
) -> bytes:
    """The classic 7-epoch board as seen in ``view`` (``GAME.view`` output, plain data) as PNG bytes.

    Args:
        view: A player's or spectator's view of a classic game.
        names: Write land and water names on the map (only from :data:`NAMES_FROM` px wide).
        highlight: Land names to outline (e.g. the lands a player may pick).
        size: Width of the picture in pixels.
    """
    return render_history(view, CLASSIC, names=names, highlight=highlight, size=size)


def render_epochs5(
    view: Epochs5View, *, names: bool = True, highlight: Sequence[str] = (), size: int = 1600
) -> bytes:
    """The 5-epoch edition's board as seen in ``view``, as PNG bytes (arguments as :func:`render_classic`)."""
    return render_history(view, EPOCHS5, names=names, highlight=highlight, size=size)


def render_history(
    view: HistoryView, board: str, *, names: bool = True, highlight: Sequence[str] = (),
    size: int = 1600,
) -> bytes:
    """A History of the World ``board`` (a key of :data:`BOARDS`) as seen in ``view``, as PNG bytes."""
    return encode_png(history_image(view, board, names=names, highlight=highlight, size=size))


def history_image(
    view: HistoryView, board: str, *, names: bool = True, highlight: Sequence[str] = (),
    size: int = 1600, window: Box | None = None, people: Sequence[str] = (),
) -> Image.Image:
    """The picture :func:`render_history` encodes (with names only from :data:`NAMES_FROM` px wide).

    With ``window`` (base px on the map, without the header: x0, y0, x1, y1), only that part of the
    map is drawn, at the scale of the ``size`` px wide map, with no header or legend: a close-up
    costs what its own pixels cost, never the whole map's. ``people`` (a name per seat) puts the
    people beside their colours in the header.
    """
    if size < 200:
        raise ValueError("size must be at least 200 pixels")
    names = names and size >= NAMES_FROM
    k = size / BASE_WIDTH
    head = round(HEADER * k)
    base = _base(board, size, names)
    if window is None:
        box = shown = (0, 0, base.width, base.height)
    else:
        shown = (round(window[0] * k), head + round(window[1] * k), round(window[2] * k),
                 head + round(window[3] * k))
        # Drawn with a margin: Pillow places text whose corner falls left of or above the canvas a
        # pixel off (it truncates the position towards 0), so a piece's numeral at the window's edge
        # would not match the whole map's.
        m = round(_WINDOW_MARGIN * k)
        box = (max(0, shown[0] - m), max(0, shown[1] - m), min(base.width, shown[2] + m),
               min(base.height, shown[3] + m))
    canvas = base.crop(box)  # a copy: the cached base stays bare
    origin = (box[0], box[1])
    if highlight:
        _highlight(canvas, highlight, size, head, board, names, origin,
                   (shown[0] - box[0], shown[1] - box[1], shown[2] - box[0], shown[3] - box[1]))
    seen = shown_in(view)
    spots = _draw_pieces(canvas, seen, k, head, board_id=board, names=names, origin=origin)
    if names:
        # Where a land is too small for both its pieces and its name, the pieces stand on the name
        # (the layout keeps them apart wherever there is room): the name and its halo go back over
        # them, so every name reads and the piece's colour still shows around it. Only round the
        # pieces: elsewhere the canvas is the base already (a highlight leaves the names alone), and
        # the whole window's paste was most of a board message's drawing.
        mask = _names_mask(board, size, base.height)
        for x0, y0, x1, y1 in spots:
            named = mask.crop((x0 + origin[0], y0 + origin[1], x1 + origin[0], y1 + origin[1]))
            part = named.getbbox()  # where a name stands in the spot (mostly nowhere: nothing to do)
            if part is not None:
                where = (x0 + origin[0] + part[0], y0 + origin[1] + part[1], x0 + origin[0] + part[2],
                         y0 + origin[1] + part[3])
                canvas.paste(base.crop(where), (x0 + part[0], y0 + part[1]), named.crop(part))
    if window is None:
        _draw_panel(canvas, seen, k, head, board, people)
        return canvas
    return canvas.crop((shown[0] - box[0], shown[1] - box[1], shown[2] - box[0], shown[3] - box[1]))


_WINDOW_MARGIN: Final = 32  # base px: more than any piece's text reaches from its centre


def _height(board: str, size: int) -> int:
    """The height of the ``size`` px wide picture: header, map and legend."""
    k = size / BASE_WIDTH
    return round(HEADER * k) + round(_geometry(board).ids.height * k) + round(FOOTER * k)
