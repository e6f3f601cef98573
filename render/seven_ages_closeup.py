"""A close-up of the 7 Ages map round the areas a turn notice is about, drawn at its own scale.

At chat width (800 px) the whole map's 285 names are a smudge; the close-up draws a window of the map
(at most :data:`MAX_SPAN` raster px wide, at least :data:`MIN_SPAN`) so each raster pixel is 1 to 2
picture pixels: areas, region edges and rivers from the raster itself (never a resampled picture, so
edges and names stay crisp), every name of an area whose name point lies in the window, placed apart
from the others, the crossing arrows and canals, and the pieces of the view
(:func:`render.seven_ages_pieces.draw_pieces`). The focused areas are outlined.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from engine.seven_ages.map import load_map
from engine.seven_ages.text import stage
from engine.seven_ages.view import SevenView
from render import palette
from render.palette import font
from render.seven_ages import (
    ARROW,
    CANAL,
    LAND_LINE,
    REGION_LINE,
    RIVER,
    SEA,
    SEA_LINE,
    _arrow,
    _italic,
    _lut,
    _raster,
    _symbols,
)
from render.seven_ages_pieces import draw_pieces, owner_name

MIN_SPAN: Final = 400
"""The narrowest window (raster px): a picture 800 px wide shows it twice as large."""
MAX_SPAN: Final = 640
"""The widest window: at 800 px its smallest names are still 12 px (the whole map's are 9-12 px at
2200 px; at 800 px, 4-5)."""
PAD: Final = 60
ASPECT: Final = 4 / 3
HEADER: Final = 46
"""The header's height at 800 px."""
LABEL_SIZES: Final = (14, 13, 12, 11)


OFFSETS: Final = ((0, 0), (0, 8), (0, 16), (-18, 4), (18, 4), (-30, 12), (30, 12), (0, 26), (0, -10),
                   (-40, 0), (40, 0), (-24, 24), (24, 24), (0, 36), (-50, 16), (50, 16), (0, -22),
                   (-60, 0), (60, 0), (0, 48), (-40, 36), (40, 36), (0, -34))
"""Where a name may go from just under its area's pieces (picture px), nearest first."""


@dataclass(frozen=True)
class Label:
    """A name drawn in the close-up: its text, centre, font size and box (picture px, map part)."""

    area: str
    text: str
    at: tuple[float, float]
    size: int
    box: tuple[float, float, float, float]
    sea: bool


@functools.cache
def area_boxes() -> dict[str, tuple[int, int, int, int]]:
    """Each area's bounding box in the raster (x0, y0, x1, y1, inclusive)."""
    ids, geometry = _raster()
    flat = ids.ravel()
    n = int(geometry["off_board"]) + 1
    ys, xs = np.divmod(np.arange(flat.size), ids.shape[1])
    x0 = np.full(n, 1 << 30)
    y0 = np.full(n, 1 << 30)
    x1 = np.full(n, -1)
    y1 = np.full(n, -1)
    np.minimum.at(x0, flat, xs)
    np.minimum.at(y0, flat, ys)
    np.maximum.at(x1, flat, xs)
    np.maximum.at(y1, flat, ys)
    return {name: (int(x0[int(i)]), int(y0[int(i)]), int(x1[int(i)]), int(y1[int(i)]))
            for i, name in geometry["ids"].items() if x1[int(i)] >= 0}


def focus_areas(focus: Sequence[str]) -> list[str]:
    """The words of ``focus`` that are areas of the map, in their order, each once."""
    areas = load_map().areas
    return [word for word in dict.fromkeys(focus) if word in areas]


def window(areas: Sequence[str]) -> tuple[float, float, float, float]:
    """The raster window a close-up of ``areas`` shows: their boxes with a margin, at least
    :data:`MIN_SPAN` wide and 4:3, inside the map; areas too large for :data:`MAX_SPAN` get a window
    that wide round their name points."""
    boxes = area_boxes()
    if not areas or any(a not in boxes for a in areas):
        unknown = ", ".join(a for a in areas if a not in boxes) or "(none given)"
        raise ValueError(f"No such area on the map: {unknown}")
    x0 = min(boxes[a][0] for a in areas) - PAD
    y0 = min(boxes[a][1] for a in areas) - PAD
    x1 = max(boxes[a][2] for a in areas) + PAD
    y1 = max(boxes[a][3] for a in areas) + PAD
    ids, _ = _raster()
    map_h, map_w = ids.shape
    w = min(max(x1 - x0, (y1 - y0) * ASPECT, MIN_SPAN), map_w, map_h * ASPECT)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    if w > MAX_SPAN:  # an ocean or a steppe larger than a readable window: round its name point
        _, geometry = _raster()
        poles = [geometry["areas"][a]["pole"] for a in areas]
        w = float(MAX_SPAN)
        cx, cy = sum(p[0] for p in poles) / len(poles), sum(p[1] for p in poles) / len(poles)
    h = w / ASPECT
    left = min(max(cx - w / 2, 0.0), map_w - w)
    top = min(max(cy - h / 2, 0.0), map_h - h)
    return left, top, left + w, top + h


def closeup_areas(areas: Sequence[str]) -> list[str]:
    """The areas one close-up shows: the newest (the last of ``areas``), then each older one that keeps
    the window at most :data:`MAX_SPAN` wide. What happened far away is on the whole map, which goes
    along."""
    group: list[str] = []
    for area in reversed(areas):
        x0, _, x1, _ = window([*group, area])
        if not group or x1 - x0 <= MAX_SPAN:
            group.append(area)
    return group


def _font(size: int, sea: bool) -> ImageFont.FreeTypeFont:
    return _italic(size) if sea else font(size, True)


def layout(win: tuple[float, float, float, float], k: float, side: float, focus: Sequence[str] = ()
           ) -> list[Label]:
    """Where each name of an area whose name point lies in ``win`` goes at ``k`` picture px per raster
    px: just under its pieces' row, nudged off the names placed before it (``focus`` first, then big
    areas), never out of the picture. A name with no clear spot at any of :data:`LABEL_SIZES` is left
    out (an area at the window's edge, whose name the whole map shows), unless it is of ``focus``: it
    then goes where it overlaps least."""
    _, geometry = _raster()
    wmap = load_map()
    x0, y0, x1, y1 = win
    w, h = (x1 - x0) * k, (y1 - y0) * k
    areas = geometry["areas"]
    inside = [n for n, g in areas.items()
              if g.get("pole") and x0 <= g["pole"][0] < x1 and y0 <= g["pole"][1] < y1]
    inside.sort(key=lambda n: (n not in focus, -areas[n]["pixels"]))
    placed: list[Label] = []
    for name in inside:
        sea = not wmap.areas[name].land
        text = f"{name} {wmap.areas[name].ref}"
        px, py = (areas[name]["pole"][0] - x0) * k, (areas[name]["pole"][1] - y0) * k + side * 0.3
        best: tuple[float, Label] | None = None
        for size in LABEL_SIZES:
            f = _font(size, sea)
            tw, th = f.getlength(text) + 2, size + 3
            for ox, oy in OFFSETS:
                cx = min(max(px + ox, tw / 2 + 1), w - tw / 2 - 1)
                cy = min(max(py + oy + th / 2, th / 2 + 1), h - th / 2 - 1)
                box = (cx - tw / 2, cy - th / 2, cx + tw / 2, cy + th / 2)
                clash = sum(max(0.0, min(box[2], b.box[2]) - max(box[0], b.box[0]))
                            * max(0.0, min(box[3], b.box[3]) - max(box[1], b.box[1])) for b in placed)
                if best is None or clash < best[0]:
                    best = (clash, Label(name, text, (cx, cy), size, box, sea))
                if clash == 0:
                    break
            if best is not None and best[0] == 0:
                break
        assert best is not None
        if best[0] == 0 or name in focus:
            placed.append(best[1])
    return placed


@dataclass(frozen=True)
class _Tables:
    """What the map part reads for each raster id, built once: its fill, whether it is land, its region,
    and which pairs of ids share a river."""

    lut: np.ndarray
    land: np.ndarray
    region: np.ndarray
    river: np.ndarray  # (id, id) -> a river runs between them


@functools.cache
def _tables() -> _Tables:
    _, geometry = _raster()
    wmap = load_map()
    off = int(geometry["off_board"])
    order = [geometry["ids"][str(i)] for i in range(1, len(geometry["ids"]) + 1)]
    pad = [False] * (off - len(order))
    land = np.array([False, *(wmap.areas[n].land for n in order), *pad])
    keys = {key: i for i, key in enumerate(dict.fromkeys((wmap.areas[n].region, wmap.areas[n].subregion)
                                                           for n in order), start=1)}
    region = np.array([0, *(keys[(wmap.areas[n].region, wmap.areas[n].subregion)] for n in order), *pad],
                      dtype=np.int64)
    id_of = {n: i for i, n in enumerate(order, start=1)}
    river = np.zeros((off + 1, off + 1), dtype=bool)
    for x, y in wmap.rivers:
        river[id_of[x], id_of[y]] = river[id_of[y], id_of[x]] = True
    return _Tables(_lut(wmap, order, off), land, region, river)


@functools.cache
def _plain() -> Image.Image:
    """The whole map at the raster's size: areas, their edges, region lines and rivers (no names,
    symbols or arrows: a close-up draws those at its own scale)."""
    ids, _ = _raster()
    t = _tables()
    part = ids
    rgb = t.lut[part]
    right = np.zeros(part.shape, dtype=bool)
    down = np.zeros(part.shape, dtype=bool)
    right[:, :-1] = part[:, :-1] != part[:, 1:]
    down[:-1, :] = part[:-1, :] != part[1:, :]
    edge = right | down
    other = part.copy()  # the id across each edge pixel's edge (its own id where there is none)
    other[:-1, :][down[:-1, :]] = part[1:, :][down[:-1, :]]
    other[:, :-1][right[:, :-1]] = part[:, 1:][right[:, :-1]]
    land_here, land_there = t.land[part], t.land[other]
    water = edge & ~land_here & ~land_there
    rgb[edge] = LAND_LINE
    rgb[water] = SEA_LINE
    # Region edges and rivers two px wide: the edge pixel and its neighbour across.
    thick = edge & land_here & land_there & (t.region[part] != t.region[other])
    river = edge & t.river[part, other]
    for mask, colour in ((thick, REGION_LINE), (river, RIVER)):
        grown = mask.copy()
        grown[:, 1:] |= mask[:, :-1] & right[:, :-1]
        grown[1:, :] |= mask[:-1, :] & down[:-1, :]
        rgb[grown] = colour
    return Image.fromarray(rgb, "RGB")


def _outline(img: Image.Image, win: tuple[float, float, float, float], areas: Sequence[str],
             top: int) -> None:
    """Outline ``areas`` in the highlight colour: their rim pixels in the raster (two wide), enlarged as
    the map part is."""
    ids, geometry = _raster()
    id_of = {n: int(i) for i, n in geometry["ids"].items()}
    wanted = np.zeros(int(geometry["off_board"]) + 1, dtype=bool)
    wanted[[id_of[a] for a in areas]] = True
    x0, y0 = int(win[0]), int(win[1])
    x1, y1 = min(ids.shape[1], int(np.ceil(win[2])) + 1), min(ids.shape[0], int(np.ceil(win[3])) + 1)
    inside = wanted[ids[y0:y1, x0:x1]]
    rim = np.zeros_like(inside)
    rim[:, 1:] |= inside[:, 1:] & ~inside[:, :-1]
    rim[:, :-1] |= inside[:, :-1] & ~inside[:, 1:]
    rim[1:, :] |= inside[1:, :] & ~inside[:-1, :]
    rim[:-1, :] |= inside[:-1, :] & ~inside[1:, :]
    mask = Image.fromarray(rim.astype(np.uint8) * 255, "L")
    box = (win[0] - x0, win[1] - y0, win[2] - x0, win[3] - y0)
    rim_img = mask.resize((img.width, img.height - top), Image.Resampling.NEAREST, box=box)
    img.paste(palette.HIGHLIGHT, (0, top), rim_img)


@functools.lru_cache(maxsize=2048)
def _stamp(text: str, size: int, sea: bool) -> Image.Image:
    """A name with its halo as an RGBA stamp, kept: a name is drawn in many close-ups (the halo's
    stroke is most of a close-up's text cost)."""
    f = _font(size, sea)
    w, h = round(f.getlength(text)) + 8, size + 10
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    ImageDraw.Draw(img).text((w / 2, h / 2), text, font=f, fill=palette.WATER_INK if sea else palette.INK,
                             anchor="mm", stroke_width=2, stroke_fill=SEA if sea else (255, 255, 255))
    return img


@functools.lru_cache(maxsize=16)
def _static(win: tuple[float, float, float, float], size: int, areas: tuple[str, ...]
            ) -> tuple[Image.Image, list[Label], float]:
    """The close-up without its header and pieces: areas, outline, arrows, canals, names and symbols;
    kept for the few latest windows, since every reader of one move's notice gets the same window."""
    top = round(HEADER * size / 800)
    k = size / (win[2] - win[0])
    height = round((win[3] - win[1]) * k)
    # The whole map's areas and lines at the raster's own size, drawn once, then this window of it
    # enlarged pixel for pixel (nearest: crisp, and a tenth of drawing the window at its scale).
    part_img = _plain().resize((size, height), Image.Resampling.NEAREST, box=win)
    img = Image.new("RGB", (size, part_img.height + top), palette.PAPER)
    img.paste(part_img, (0, top))
    _outline(img, win, areas, top)
    draw = ImageDraw.Draw(img)
    x0, y0 = win[0], win[1]
    _, geometry = _raster()

    def at(p: Sequence[float]) -> tuple[float, float]:
        return (p[0] - x0) * k, (p[1] - y0) * k + top

    for arrow in geometry["arrows"]:
        if not arrow.get("blue"):
            _arrow(draw, at(arrow["line"][0]), at(arrow["line"][1]), ARROW, both=True)
    for canal in geometry["canals"]:
        x, y = at(canal["at"])
        draw.rectangle((x - 9 * k, y - 3 * k, x + 9 * k, y + 3 * k), fill=CANAL)
        # named, as on the whole map: a red bar alone would read as an area's disorder
        draw.text((x, y - 3 * k - 7), f"{canal['name']} canal", font=font(11, True), fill=CANAL, anchor="mm",
                  stroke_width=2, stroke_fill=(255, 255, 255))
    labels = layout(win, k, _side(k), areas)
    wmap = load_map()
    for label in labels:
        cx, cy = label.at[0], label.at[1] + top
        stamp = _stamp(label.text, label.size, label.sea)
        img.paste(stamp, (round(cx - stamp.width / 2), round(cy - stamp.height / 2)), stamp)
        marks = _symbols(wmap, label.area)
        for n, (letter, fill, ink) in enumerate(marks):
            sx, sy = cx + (n - (len(marks) - 1) / 2) * 15, cy + label.size / 2 + 9
            draw.ellipse((sx - 7, sy - 7, sx + 7, sy + 7), fill=fill, outline=(255, 255, 255))
            draw.text((sx, sy), letter, font=font(9, True), fill=ink, anchor="mm")
    return img, labels, k


def _side(k: float) -> float:
    """A counter's side in a close-up at ``k`` picture px per raster px."""
    return max(13.0, 17 * k * 0.8)


def _header(draw: ImageDraw.ImageDraw, view: SevenView, width: int, hk: float,
            people: Sequence[str]) -> None:
    """The stage, then every seat's glory, named as the key names them."""
    draw.rectangle((0, 0, width, round(HEADER * hk)), fill=palette.PAPER)
    draw.line((0, round(HEADER * hk), width, round(HEADER * hk)), fill=palette.BORDER, width=1)
    draw.text((8 * hk, 13 * hk), f"7 Ages · {stage(view)}", font=font(round(15 * hk), True), fill=palette.INK,
              anchor="lm")
    glory = " · ".join(f"{owner_name(view, int(p['seat']), people)} {p['glory']}" for p in view["people"])
    draw.text((8 * hk, 33 * hk), f"Glory: {glory}", font=font(round(13 * hk)), fill=palette.INK, anchor="lm")


def closeup_image(view: SevenView, areas: Sequence[str], *, size: int = 800,
                  people: Sequence[str] = ()) -> tuple[Image.Image, list[Label]]:
    """The close-up of ``areas`` (see :func:`window`), ``size`` px wide, and the names it drew."""
    if size < 200:
        raise ValueError("size must be at least 200 pixels")
    win = window(areas)
    hk = size / 800
    top = round(HEADER * hk)
    base, labels, k = _static(win, size, tuple(areas))
    img = base.copy()
    _, geometry = _raster()
    poles = {n: ((g["pole"][0] - win[0]), (g["pole"][1] - win[1])) for n, g in geometry["areas"].items()
             if g.get("pole") and win[0] <= g["pole"][0] < win[2] and win[1] <= g["pole"][1] < win[3]}
    draw_pieces(img, view, poles, k, float(top), side=_side(k))
    _header(ImageDraw.Draw(img), view, size, hk, people)
    return img, labels
