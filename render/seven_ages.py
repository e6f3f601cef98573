"""The 7 Ages world map as a picture: the static board (no pieces yet) -> PNG bytes.

``render_board(view=None, *, size=2200, names=None, highlight=())`` draws from
the map data (``data/seven_ages/map.yaml``) and its raster
(``data/seven_ages/board/areas.png`` and ``geometry.json``, built by
``tools/build_map_raster.py``):

* every land area filled in its terrain's colour, every sea and ocean area in
  its own blue (oceans deeper); thin lines between areas, thick blue lines
  where a region or sub-region ends (the rulebook's "thick blue lines", L1090);
* rivers along the borders that have one, crossing arrows as dashed lines with
  a head at each end, the blue wrap-around arrow at both edges of the board
  (L606), the three canals;
* the wheat, oil and elephant symbols and the religious sites of each area;
* each name with its grid reference ("Egypt M6"), seas in italics;
* a title saying the map is Annals' reconstruction, and a legend.

The base picture is drawn once per size and cached; ``highlight`` outlines
areas on a copy. With a ``view``, the pieces are drawn from it alone
(:mod:`render.seven_ages_pieces`): each stack as its top unit and its count,
never the units beneath (fog of war, L791), with a key strip under the board.
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Final

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from engine.seven_ages.map import WorldMap, load_map
from engine.seven_ages.text import stage
from engine.seven_ages.view import SevenView
from render import palette
from render.palette import RGB, font
from render.png import encode_png
from render.seven_ages_pieces import draw_pieces, key_strip

BOARD_DIR: Final = Path(__file__).resolve().parents[1] / "data" / "seven_ages" / "board"
BASE_W: Final = 2200
TITLE_H: Final = 44
LEGEND_H: Final = 58
NAMES_FROM: Final = 1200

TERRAIN_COLOURS: Final[dict[str, RGB]] = {
    "fertile": (178, 214, 128),
    "forest": (104, 158, 98),
    "jungle": (62, 136, 108),
    "mountain": (176, 150, 124),
    "steppe": (222, 212, 146),
    "tundra": (208, 214, 216),
    "desert": (238, 216, 164),
}
SEA: Final[RGB] = (160, 200, 230)
OCEAN: Final[RGB] = (118, 166, 212)
OFF_BOARD: Final[RGB] = (190, 206, 218)  # lakes and what no area holds
LAND_LINE: Final[RGB] = (92, 80, 68)
SEA_LINE: Final[RGB] = (96, 140, 186)
REGION_LINE: Final[RGB] = (24, 70, 170)
RIVER: Final[RGB] = (40, 110, 220)
ARROW: Final[RGB] = (30, 30, 30)
WRAP: Final[RGB] = (20, 80, 220)
CANAL: Final[RGB] = (200, 40, 40)
SYMBOLS: Final[dict[str, tuple[str, RGB, RGB]]] = {  # key: (letter, fill, ink)
    "wheat": ("W", (236, 190, 40), (60, 40, 0)),
    "oil": ("O", (30, 30, 30), (255, 255, 255)),
    "elephant": ("E", (130, 130, 136), (255, 255, 255)),
}
RELIGION: Final[RGB] = (130, 60, 160)


@functools.cache
def _raster() -> tuple[np.ndarray, dict[str, Any]]:
    geometry: dict[str, Any] = json.loads((BOARD_DIR / "geometry.json").read_text(encoding="utf-8"))
    ids = np.asarray(Image.open(BOARD_DIR / "areas.png")).astype(np.int32)
    return ids, geometry


def _italic(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(palette._FONT_DIR + "DejaVuSans-Oblique.ttf", size)


def _edge_pixels(ids: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Each pixel whose right or lower neighbour differs: (ys, xs, own id, neighbour id)."""
    ys_r, xs_r = np.nonzero(ids[:, :-1] != ids[:, 1:])
    ys_d, xs_d = np.nonzero(ids[:-1, :] != ids[1:, :])
    ys = np.concatenate([ys_r, ys_d])
    xs = np.concatenate([xs_r, xs_d])
    other = np.concatenate([ids[ys_r, xs_r + 1], ids[ys_d + 1, xs_d]])
    return ys, xs, ids[ys, xs], other


@functools.cache
def _raster_edges() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """:func:`_edge_pixels` of the whole raster, kept: every outlined board reads them (12 ms each)."""
    return _edge_pixels(_raster()[0])


def _lut(wmap: WorldMap, names: Sequence[str], off: int) -> np.ndarray:
    lut = np.zeros((off + 1, 3), dtype=np.uint8)
    lut[:] = OFF_BOARD
    for i, name in enumerate(names, start=1):
        area = wmap.areas[name]
        colour = TERRAIN_COLOURS[area.terrain] if area.terrain else SEA if area.kind == "sea" else OCEAN
        lut[i] = colour
    return lut


def _dashed(draw: ImageDraw.ImageDraw, a: Sequence[float], b: Sequence[float], fill: RGB, width: int,
            dash: float = 7.0) -> None:
    length = math.dist(a, b)
    steps = max(1, int(length / dash))
    for k in range(0, steps, 2):
        t0, t1 = k / steps, min(1.0, (k + 1) / steps)
        draw.line([(a[0] + (b[0] - a[0]) * t0, a[1] + (b[1] - a[1]) * t0),
                   (a[0] + (b[0] - a[0]) * t1, a[1] + (b[1] - a[1]) * t1)], fill=fill, width=width)


def _head(draw: ImageDraw.ImageDraw, tip: Sequence[float], tail: Sequence[float], fill: RGB,
          size: float) -> None:
    angle = math.atan2(tip[1] - tail[1], tip[0] - tail[0])
    left = (tip[0] - size * math.cos(angle - 0.45), tip[1] - size * math.sin(angle - 0.45))
    right = (tip[0] - size * math.cos(angle + 0.45), tip[1] - size * math.sin(angle + 0.45))
    draw.polygon([tuple(tip), left, right], fill=fill)


def _arrow(draw: ImageDraw.ImageDraw, a: Sequence[float], b: Sequence[float], fill: RGB, both: bool) -> None:
    # Reach at least 14 px into each land so a narrow strait still shows a readable arrow.
    dx, dy = b[0] - a[0], b[1] - a[1]
    n = max(1.0, math.hypot(dx, dy))
    ux, uy = (dx / n, dy / n) if n > 1.0 else (1.0, 0.0)
    half = max(n / 2 + 8, 16.0)
    mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
    a2 = (mx - ux * half, my - uy * half)
    b2 = (mx + ux * half, my + uy * half)
    _dashed(draw, a2, b2, fill, 2)
    _head(draw, b2, a2, fill, 8)
    if both:
        _head(draw, a2, b2, fill, 8)


def _place_labels(wmap: WorldMap, geometry: Mapping[str, Any], ids_shape: tuple[int, int]
                  ) -> list[tuple[str, tuple[float, float], int, bool]]:
    """Where each name goes: at its area's most inland point, nudged off names placed before it.

    Big areas first; a name that finds no clear spot is drawn smaller, then over the others.
    """
    placed: list[tuple[float, float, float, float]] = []
    out = []
    areas = geometry["areas"]
    order = sorted((n for n in areas if areas[n].get("pole")), key=lambda n: -areas[n]["pixels"])
    for name in order:
        g = areas[name]
        sea = not wmap.areas[name].land
        text = f"{name} {wmap.areas[name].ref}"
        best = None
        for size in (12, 11, 10, 9):
            f = _italic(size) if sea else font(size, True)
            w, h = f.getlength(text), size + 2
            for ox, oy in [(0, 0), (0, -10), (0, 10), (-14, 0), (14, 0), (0, -18), (0, 18), (-20, -12),
                           (20, 12), (20, -12), (-20, 12)]:
                cx, cy = g["pole"][0] + ox, g["pole"][1] + oy
                box = (cx - w / 2 - 1, cy - h / 2, cx + w / 2 + 1, cy + h / 2)
                if box[0] < 0 or box[2] > ids_shape[1] or box[1] < 0 or box[3] > ids_shape[0]:
                    continue
                clash = any(b[0] < box[2] and box[0] < b[2] and b[1] < box[3] and box[1] < b[3]
                            for b in placed)
                if not clash:
                    best = ((cx, cy), size, box)
                    break
            if best:
                break
        if best is None:
            best = ((float(g["pole"][0]), float(g["pole"][1])), 9, (0.0, 0.0, 0.0, 0.0))
        placed.append(best[2])
        out.append((text, best[0], best[1], sea))
    return out


def _symbols(wmap: WorldMap, name: str) -> list[tuple[str, RGB, RGB]]:
    area = wmap.areas[name]
    marks = [SYMBOLS[k] for k in ("wheat", "oil", "elephant") if getattr(area, k)]
    if area.religion:
        marks.append((area.religion[0], RELIGION, (255, 255, 255)))
    return marks


@functools.lru_cache(maxsize=4)
def _base(size: int, names: bool) -> Image.Image:
    wmap = load_map()
    ids, geometry = _raster()
    off = int(geometry["off_board"])
    order = [geometry["ids"][str(i)] for i in range(1, len(geometry["ids"]) + 1)]
    h, w = ids.shape
    rgb = _lut(wmap, order, off)[ids]
    ys, xs, own, other = _edge_pixels(ids)
    land_ids = np.array([False] + [wmap.areas[n].land for n in order] + [False] * (off - len(order)))
    both_land = land_ids[own] & land_ids[other]
    both_water = ~land_ids[own] & ~land_ids[other]
    rgb[ys[both_water], xs[both_water]] = SEA_LINE
    rgb[ys[~both_water], xs[~both_water]] = LAND_LINE
    # Region edges: thick blue lines between lands of different regions or sub-regions.
    region_key = {i: (wmap.areas[n].region, wmap.areas[n].subregion) for i, n in enumerate(order, start=1)}
    keys = np.array([hash(region_key.get(i)) for i in range(off + 1)], dtype=np.int64)
    edge = both_land & (keys[own] != keys[other])
    img = Image.fromarray(rgb, "RGB")
    draw = ImageDraw.Draw(img)
    for y, x in zip(ys[edge].tolist(), xs[edge].tolist(), strict=True):
        draw.rectangle((x - 1, y - 1, x + 1, y + 1), fill=REGION_LINE)
    # Rivers: along the pixels where the two areas meet.
    id_of = {n: i for i, n in enumerate(order, start=1)}
    for pair in wmap.rivers:
        a, b = (id_of[n] for n in pair)
        sel = ((own == a) & (other == b)) | ((own == b) & (other == a))
        for y, x in zip(ys[sel].tolist(), xs[sel].tolist(), strict=True):
            draw.rectangle((x - 1, y - 1, x + 1, y + 1), fill=RIVER)
    for arrow in geometry["arrows"]:
        if arrow.get("blue"):
            # Each half leaves the board at one edge; its label names the area at the other edge.
            west_area, east_area = sorted(arrow["areas"], key=lambda n: geometry["areas"][n]["pole"][0])
            for part, other_end in (("west", east_area), ("east", west_area)):
                a, b = arrow[part]
                draw.line([tuple(a), tuple(b)], fill=WRAP, width=3)
                _head(draw, b, a, WRAP, 12)
                text = f"to {other_end} {wmap.areas[other_end].ref}"
                tx = 6 if part == "west" else w - 6 - font(11, True).getlength(text)
                draw.text((tx, b[1] - 18), text, font=font(11, True), fill=WRAP, stroke_width=2,
                          stroke_fill=(255, 255, 255))
        else:
            a, b = arrow["line"]
            _arrow(draw, a, b, ARROW, both=True)
    for canal in geometry["canals"]:
        x, y = canal["at"]
        draw.rectangle((x - 9, y - 3, x + 9, y + 3), fill=CANAL)
        draw.text((x, y + 11), f"{canal['name']} canal", font=font(10, True), fill=CANAL, anchor="mm",
                  stroke_width=2, stroke_fill=(255, 255, 255))
    if names:
        labels = _place_labels(wmap, geometry, (h, w))
        for text, (cx, cy), fsize, sea in labels:
            draw.text((cx, cy), text, font=_italic(fsize) if sea else font(fsize, True),
                      fill=palette.WATER_INK if sea else palette.INK, anchor="mm",
                      stroke_width=2, stroke_fill=(255, 255, 255) if not sea else SEA)
        boxes = {text.rsplit(" ", 1)[0]: (cx, cy, fsize) for text, (cx, cy), fsize, _ in labels}
    else:
        boxes = {}
    for name, g in geometry["areas"].items():
        marks = _symbols(wmap, name)
        if not marks or not g.get("pole"):
            continue
        cx, cy, fsize = boxes.get(name, (g["pole"][0], g["pole"][1] - 12, 12))
        y = cy + fsize / 2 + 7
        for k, (letter, fill, ink) in enumerate(marks):
            x = cx + (k - (len(marks) - 1) / 2) * 13
            draw.ellipse((x - 6, y - 6, x + 6, y + 6), fill=fill, outline=(255, 255, 255))
            draw.text((x, y), letter, font=font(8, True), fill=ink, anchor="mm")
    framed = Image.new("RGB", (w, h + TITLE_H + LEGEND_H), palette.PAPER)
    framed.paste(img, (0, TITLE_H))
    _title_and_legend(ImageDraw.Draw(framed), w, h)
    if size != w:
        framed = framed.resize((size, round(framed.height * size / w)), Image.Resampling.LANCZOS)
    return framed


def _title_and_legend(draw: ImageDraw.ImageDraw, w: int, h: int) -> None:
    draw.text((16, TITLE_H / 2), "7 Ages: the world", font=font(22, True), fill=palette.INK, anchor="lm")
    draw.text((260, TITLE_H / 2), "Annals' reconstruction of the map (the original's several hundred areas "
              "are not published); names and the rulebook's map facts are kept.",
              font=font(13), fill=palette.INK, anchor="lm")
    y = TITLE_H + h + LEGEND_H / 2
    x = 16
    for terrain, colour in TERRAIN_COLOURS.items():
        draw.rectangle((x, y - 8, x + 22, y + 8), fill=colour, outline=LAND_LINE)
        draw.text((x + 28, y), terrain, font=font(12), fill=palette.INK, anchor="lm")
        x += 40 + int(font(12).getlength(terrain))
    for label, colour in (("sea", SEA), ("ocean", OCEAN)):
        draw.rectangle((x, y - 8, x + 22, y + 8), fill=colour, outline=SEA_LINE)
        draw.text((x + 28, y), label, font=font(12), fill=palette.INK, anchor="lm")
        x += 40 + int(font(12).getlength(label))
    for key, (letter, fill, ink) in SYMBOLS.items():
        draw.ellipse((x, y - 7, x + 14, y + 7), fill=fill)
        draw.text((x + 7, y), letter, font=font(8, True), fill=ink, anchor="mm")
        draw.text((x + 20, y), key, font=font(12), fill=palette.INK, anchor="lm")
        x += 32 + int(font(12).getlength(key))
    draw.ellipse((x, y - 7, x + 14, y + 7), fill=RELIGION)
    draw.text((x + 20, y), "religious site (initial of its religion)", font=font(12), fill=palette.INK,
              anchor="lm")
    x += 270
    draw.line((x, y, x + 30, y), fill=REGION_LINE, width=4)
    draw.text((x + 36, y), "region edge", font=font(12), fill=palette.INK, anchor="lm")
    x += 120
    draw.line((x, y, x + 30, y), fill=RIVER, width=3)
    draw.text((x + 36, y), "river", font=font(12), fill=palette.INK, anchor="lm")
    x += 80
    _arrow(draw, (x, y), (x + 34, y), ARROW, both=True)
    draw.text((x + 44, y), "crossing arrow", font=font(12), fill=palette.INK, anchor="lm")


def _stage_title(img: Image.Image, view: SevenView, scale: float) -> None:
    """The stage in the title (a board whose pieces did not move still says when it was drawn), then the
    note that the map is Annals' reconstruction."""
    draw = ImageDraw.Draw(img)
    draw.rectangle((0, 0, img.width, TITLE_H * scale - 1), fill=palette.PAPER)
    head = f"7 Ages · {stage(view)}"
    big = font(max(9, round(22 * scale)), True)
    draw.text((16 * scale, TITLE_H * scale / 2), head, font=big, fill=palette.INK, anchor="lm")
    x = 16 * scale + big.getlength(head) + 24 * scale
    note = "Annals' reconstruction of the map; names and the rulebook's map facts are kept."
    small = font(max(8, round(13 * scale)))
    if x + small.getlength(note) < img.width - 8:
        draw.text((x, TITLE_H * scale / 2), note, font=small, fill=palette.INK, anchor="lm")


def render_board(view: SevenView | None = None, *, size: int = BASE_W, names: bool | None = None,
                 highlight: Iterable[str] = (), people: Sequence[str] = ()) -> bytes:
    """The board as PNG bytes, ``size`` pixels wide; ``highlight`` outlines those areas in white;
    ``people`` (a name per seat) names the empires' owners in the key.

    Names are drawn by default from ``NAMES_FROM`` px wide: narrower, 285 names are a smudge.
    """
    img = _base(size, size >= NAMES_FROM if names is None else names)
    wanted = list(highlight)
    if view is not None and view.get("empires"):
        _, geometry = _raster()
        scale = size / int(geometry["width"])
        img = img.copy()
        draw_pieces(img, view, {n: g["pole"] for n, g in geometry["areas"].items() if g.get("pole")},
                    scale, TITLE_H * scale)
        strip = key_strip(view, size, people)
        keyed = Image.new("RGB", (size, img.height + strip.height), palette.PAPER)
        keyed.paste(img, (0, 0))
        keyed.paste(strip, (0, img.height))
        img = keyed
    if view is not None and view.get("phase"):
        if not view.get("empires"):
            img = img.copy()  # never draw on the cached base
        _stage_title(img, view, size / BASE_W)
    if wanted:
        img = img.copy()
        ids, geometry = _raster()
        id_of = {n: int(k) for k, n in geometry["ids"].items()}
        scale = size / ids.shape[1]
        draw = ImageDraw.Draw(img)
        ys, xs, own, other = _raster_edges()
        for name in wanted:
            sel = (own == id_of[name]) | (other == id_of[name])
            for y, x in zip(ys[sel].tolist(), xs[sel].tolist(), strict=True):
                px, py = x * scale, (y + TITLE_H) * scale
                draw.rectangle((px - 1, py - 1, px + 1, py + 1), fill=palette.HIGHLIGHT)
    return encode_png(img)
