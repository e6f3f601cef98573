"""The Eight-Minute Empire board as a picture: a player's view -> PNG bytes.

``render_board(view, *, names=True, highlight=(), size=1600)`` draws, from the
plain-data view ``GAME.view`` returns (never a state):

* a header: whose turn it is and what they are doing, the game number, the deck;
* the map: four continents of regions (a tint per continent, neighbours in
  different shades), borders, region names, the start region, the dotted water
  links, the goods tokens (Goods Tokens variant), and per region a disc per
  player with the number of armies (a house badge for cities, a grey disc for
  the two-player neutral armies), a band inside each controlled region in the
  controller's colour and a chip by each continent's name for its controller;
* the six face-up cards with their price, good and action;
* a table: each player's coins, cards, goods, pieces left, the score breakdown
  (regions + continents + goods) and the bid.

Geometry comes from data/eight_minute/map.yaml (0..1 board space at its
aspect): region name positions and piece slots are laid out once at 1600 px
(:func:`layout`) and scaled. The map without pieces is drawn once per
(size, names) and cached; a turn's picture is a copy of it with the pieces and
the panels on top.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final, TypeGuard

from PIL import Image, ImageChops, ImageDraw, ImageFilter

from engine.eight_minute.data import GOODS, WILD, CardView, EMData, load_data
from engine.eight_minute.spec import SPEC
from engine.eight_minute.state import Phase
from engine.eight_minute.text import colour_name, good_name, step_text, units_left
from engine.eight_minute.view import EMView, RowCard
from render import palette
from render.marks import draw_piece, seat_label
from render.palette import RGB, font
from render.png import encode_png
from render.stamps import StampDraw

GAME_ID: Final = SPEC.id  # the game whose views this draws (its spec names it; no id is spelt here)
BASE_W: Final = 1600  # the layout is computed at this width and scaled
HEAD: Final = 64  # header height at BASE_W
DISC_R: Final = 19  # army disc radius
PITCH_X: Final = 50  # piece slots: a disc plus the city badge that overhangs it
PITCH_Y: Final = 45
MAX_COLUMNS: Final = 3
MIN_SLOTS: Final = 6  # five players and the neutral armies
NAME_SIZE: Final = 19
CARD_H: Final = 232
ROW_H: Final = 46
TABLE_HEAD: Final = 30
TIGHT_PITCH: Final = (44, 42)  # slots in the narrowest regions
TOKEN_ROOM: Final = 56  # a goods token beside a region's name
SS: Final = 2  # supersampling of the base map (smooth coasts and borders)

SEA: Final[RGB] = (146, 186, 214)
SEA_SHALLOW: Final[RGB] = (186, 214, 232)
COAST: Final[RGB] = (52, 82, 112)
REGION_EDGE: Final[RGB] = (96, 84, 70)
START_INK: Final[RGB] = (150, 30, 30)
CARD_FILL: Final[RGB] = (252, 249, 240)
ROW_ACTIVE: Final[RGB] = (255, 255, 255)
MUTED: Final[RGB] = (110, 100, 90)
HIGHLIGHT_LINE: Final[RGB] = (20, 20, 20)

Point = tuple[float, float]
Box = tuple[float, float, float, float]


# --- geometry ------------------------------------------------------------------


@dataclass(frozen=True)
class RegionLayout:
    """Where a region's name, goods token and pieces go, in px at BASE_W (map origin: top left)."""

    id: str
    name: str
    continent: str
    polygon: tuple[Point, ...]
    name_at: Point  # centre of the name's first line
    name_size: int
    name_box: Box
    start: bool
    token_at: Point | None
    rows: tuple[tuple[float, tuple[float, ...]], ...]  # (y, xs of the slots), top row first
    pitch: float = PITCH_X  # between the slots of a row

    @property
    def slots(self) -> list[Point]:
        return [(x, y) for y, xs in self.rows for x in xs]


@dataclass(frozen=True)
class ContinentLayout:
    id: str
    name: str
    outline: tuple[Point, ...]
    label_at: Point


@dataclass(frozen=True)
class Layout:
    width: int
    height: int  # of the map strip
    regions: Mapping[str, RegionLayout]
    continents: Mapping[str, ContinentLayout]
    water: tuple[tuple[str, str], ...]
    start: str


def _span_y(poly: Sequence[Point], x: float) -> tuple[float, float]:
    """Top and bottom of a convex polygon along the vertical line at ``x``."""
    ys = []
    for i, (x1, y1) in enumerate(poly):
        x2, y2 = poly[i - 1]
        if min(x1, x2) <= x <= max(x1, x2) and x1 != x2:
            ys.append(y1 + (y2 - y1) * (x - x1) / (x2 - x1))
    if not ys:
        raise ValueError("the line misses the polygon")
    return min(ys), max(ys)


def _span_x(poly: Sequence[Point], y: float) -> tuple[float, float]:
    """Left and right of a convex polygon along the horizontal line at ``y``."""
    xs = []
    for i, (x1, y1) in enumerate(poly):
        x2, y2 = poly[i - 1]
        if min(y1, y2) <= y <= max(y1, y2) and y1 != y2:
            xs.append(x1 + (x2 - x1) * (y - y1) / (y2 - y1))
    if not xs:
        return (0.0, 0.0)
    return min(xs), max(xs)


def _inner_span(poly: Sequence[Point], top: float, bottom: float, margin: float) -> tuple[float, float]:
    l1, r1 = _span_x(poly, top)
    l2, r2 = _span_x(poly, bottom)
    return max(l1, l2) + margin, min(r1, r2) - margin


def _fit_size(text: str, width: float, size: int, bold: bool = True) -> int:
    """The largest font size up to ``size`` at which ``text`` fits ``width`` px (at least 11)."""
    while size > 11 and font(size, bold).getlength(text) > width:
        size -= 1
    return size


def _rows(poly: Sequence[Point], ax: float, top: float, floor: float,
          pitch: tuple[float, float] = (PITCH_X, PITCH_Y)) -> list[tuple[float, tuple[float, ...]]]:
    """Rows of piece slots between ``top`` and ``floor``, as many columns as fit (at most MAX_COLUMNS)."""
    px, py = pitch
    rows: list[tuple[float, tuple[float, ...]]] = []
    y = top + 4 + py / 2
    while y + py / 2 <= floor:
        lo, hi = _inner_span(poly, y - py / 2 + 2, y + py / 2 - 2, 4)
        n = min(MAX_COLUMNS, int((hi - lo) // px))
        if n > 0:
            cx = min(max(ax, lo + n * px / 2), hi - n * px / 2)
            # The city badge hangs off the disc's right: shift the block left by a little.
            rows.append((y, tuple(cx - 4 + (i - (n - 1) / 2) * px for i in range(n))))
        y += py
    return rows


def _count(rows: Sequence[tuple[float, tuple[float, ...]]]) -> int:
    return sum(len(xs) for _, xs in rows)


def _region_layout(data: EMData, rid: str, w: int, h: int) -> RegionLayout:
    region = data.regions[rid]
    poly = tuple((x * w, y * h) for x, y in region.polygon)
    ax = region.anchor[0] * w
    top, bottom = _span_y(poly, ax)
    start = rid == data.start
    name_y = top + 22
    left, right = _inner_span(poly, name_y - 10, name_y + 10, 6)
    size = _fit_size(region.name, right - left, NAME_SIZE)
    half = font(size, True).getlength(region.name) / 2
    name_x = min(max(ax, left + half), right - half)
    # Below the top border all along the name, where that border slants.
    edge = max(_span_y(poly, name_x - half)[0], _span_y(poly, name_x + half)[0], top)
    name_y = max(name_y, edge + size * 0.7 + 5)
    left, right = _inner_span(poly, name_y - 10, name_y + 10, 6)
    name_x = min(max(ax, left + half), right - half)
    label_bottom = name_y + size * 0.7 + (20 if start else 0)
    token_at: Point | None = None
    floor = bottom - 6
    if region.goods_token:  # the token at the bottom of the region
        ty = bottom - 30
        tl, tr = _inner_span(poly, ty - 16, ty + 16, 4)
        token_at = ((tl + tr) / 2, ty)
        floor = ty - 26
    rows = _rows(poly, ax, label_bottom, floor)
    pitch_x: float = PITCH_X
    if _count(rows) < MIN_SLOTS:  # a narrow region: pack the pieces closer
        pitch_x = TIGHT_PITCH[0]
        rows = _rows(poly, ax, label_bottom, floor, TIGHT_PITCH)
    beside = half * 2 + TOKEN_ROOM
    if token_at is not None and _count(rows) < MIN_SLOTS and right - left >= beside:
        # Still short of room: the token goes beside the name, the pieces down to the bottom.
        centre = min(max(ax, left + beside / 2), right - beside / 2)
        name_x = centre - beside / 2 + half
        tx = centre + beside / 2 - TOKEN_ROOM / 2 + 4
        ty = max(_span_y(poly, tx - 24)[0], _span_y(poly, tx + 24)[0]) + 30
        token_at = (tx, ty)
        label_bottom = max(label_bottom, ty + 24)
        rows = _rows(poly, ax, label_bottom, bottom - 6, (pitch_x, TIGHT_PITCH[1]))
    name_box = (name_x - half, name_y - size * 0.7, name_x + half, label_bottom)
    return RegionLayout(
        id=rid, name=region.name, continent=region.continent, polygon=poly, name_at=(name_x, name_y),
        name_size=size, name_box=name_box, start=start, token_at=token_at, rows=tuple(rows), pitch=pitch_x,
    )


@functools.cache
def layout() -> Layout:
    """The map's geometry at BASE_W: region polygons, name spots, piece slots, continent labels."""
    data = load_data()
    w = BASE_W
    h = round(BASE_W / data.aspect)
    regions = {rid: _region_layout(data, rid, w, h) for rid in sorted(data.regions)}
    continents = {}
    for cid, c in data.continents.items():
        outline = tuple((x * w, y * h) for x, y in c.outline)
        xs = [p[0] for p in outline]
        label_y = min(p[1] for p in outline) - 20
        continents[cid] = ContinentLayout(cid, c.name, outline, ((min(xs) + max(xs)) / 2, label_y))
    water = sorted(
        {tuple(sorted((a, b))) for a, links in data.water.items() for b in links}
    )
    return Layout(
        width=w, height=h, regions=regions, continents=continents,
        water=tuple((str(a), str(b)) for a, b in water), start=data.start,
    )


def _region_fills(data: EMData) -> dict[str, RGB]:
    """Each region's tint: its continent's colour in one of three shades, land neighbours apart."""
    shades = (0.0, 0.22, -0.09)
    fills: dict[str, RGB] = {}
    fallback = iter(palette.EM_CONTINENT_FALLBACK * 4)
    base_of = {
        cid: palette.EM_CONTINENT_COLOURS.get(cid) or next(fallback) for cid in sorted(data.continents)
    }
    shade_of: dict[str, int] = {}
    for rid in sorted(data.regions):
        used = {shade_of[n] for n in data.land[rid] if n in shade_of}
        shade = next(i for i in range(len(shades) + len(data.land[rid])) if i not in used) % len(shades)
        shade_of[rid] = shade
        base = base_of[data.regions[rid].continent]
        amount = shades[shade]
        fills[rid] = palette.lighten(base, amount) if amount >= 0 else palette.darken(base, -amount)
    return fills


# --- sprites (drawn large and shrunk: smooth edges at any size) ------------------------------


def _ink_width(px: int) -> int:
    return max(2, round(px * 4 / 16))


@functools.lru_cache(maxsize=512)
def _sprite(kind: str, colour: RGB, px: int) -> Image.Image:
    """An RGBA icon ``px`` pixels square: disc, house, triangle, coin, star or a good's icon."""
    s = 4
    big = Image.new("RGBA", (px * s, px * s), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    u = px * s / 20  # a 20 x 20 design grid
    ink = (*palette.INK, 255)
    fill = (*colour, 255)
    line = _ink_width(px)

    def poly(points: Iterable[Point], f: tuple[int, int, int, int] = fill) -> None:
        d.polygon([(x * u, y * u) for x, y in points], fill=f, outline=ink, width=line)

    if kind == "disc":
        d.ellipse((u * 0.6, u * 0.6, u * 19.4, u * 19.4), fill=fill, outline=ink, width=line)
    elif kind == "house":
        poly([(10, 1), (19, 8.5), (17, 8.5), (17, 19), (3, 19), (3, 8.5), (1, 8.5)])
    elif kind == "triangle":
        poly([(10, 1), (19.4, 18.6), (0.6, 18.6)])
    elif kind == "coin":
        d.ellipse((u * 0.8, u * 0.8, u * 19.2, u * 19.2), fill=fill, outline=ink, width=line)
        rim = (*palette.darken(colour, 0.25), 255)
        d.ellipse((u * 4, u * 4, u * 16, u * 16), outline=rim, width=max(1, line // 2))
    elif kind in ("star", WILD):
        import math

        pts = []
        for i in range(10):
            r = 9.6 if i % 2 == 0 else 4.2
            a = -math.pi / 2 + i * math.pi / 5
            pts.append((10 + r * math.cos(a), 10.8 + r * math.sin(a)))
        poly(pts)
    elif kind == "crystal":
        poly([(5, 3), (15, 3), (19, 8), (10, 19), (1, 8)])
        thin = max(1, line // 2)
        facets: tuple[tuple[Point, Point], ...] = (
            ((1, 8), (19, 8)), ((5, 3), (7.5, 8)), ((15, 3), (12.5, 8)), ((7.5, 8), (10, 19)),
            ((12.5, 8), (10, 19)),
        )
        for pa, pb in facets:
            d.line(((pa[0] * u, pa[1] * u), (pb[0] * u, pb[1] * u)), fill=ink, width=thin)
    elif kind == "food":
        leaf = (*palette.GOODS_COLOURS["wood"], 255)
        poly([(6.5, 5), (10, 0.5), (10.5, 5)], leaf)
        poly([(9.5, 5), (13.5, 1), (13.5, 5)], leaf)
        poly([(4.5, 5.5), (15.5, 5.5), (10.5, 19.5), (9.5, 19.5)])
    elif kind == "wood":
        trunk = (*palette.GOODS_COLOURS["tools"], 255)
        poly([(8.2, 13), (11.8, 13), (11.8, 19.4), (8.2, 19.4)], trunk)
        poly([(10, 0.6), (18.5, 14.5), (1.5, 14.5)])
    elif kind == "iron":
        poly([(4, 7), (9, 2.5), (15.5, 3.5), (19, 10), (15.5, 17.5), (7, 18.5), (1.5, 13)])
        shine = (*palette.lighten(colour, 0.5), 255)
        d.polygon([(7 * u, 7 * u), (10 * u, 5 * u), (12 * u, 7.5 * u), (9 * u, 9.5 * u)], fill=shine)
    elif kind == "tools":
        poly([(1, 5), (19, 5), (19, 8), (14, 9.5), (13, 12.5), (16, 13), (17, 18.5), (3, 18.5),
              (4, 13), (7, 12.5), (6.5, 9.5), (1, 8)])
    else:
        raise ValueError(f"no sprite called {kind!r}")
    return big.resize((px, px), Image.Resampling.LANCZOS)


@functools.lru_cache(maxsize=128)
def _piece_sprite(seat: int, colour: RGB, px: int) -> Image.Image:
    """An RGBA army token of ``seat`` ``px`` pixels square: its shape (:mod:`render.marks`) where the
    disc sprite has its disc."""
    s = 4
    big = Image.new("RGBA", (px * s, px * s), (0, 0, 0, 0))
    u = px * s / 20  # the disc sprite's 20 x 20 design grid
    draw_piece(ImageDraw.Draw(big), seat, (10 * u, 10 * u), 9.4 * u, fill=(*colour, 255),
               ink=(*palette.INK, 255), width=_ink_width(px))
    return big.resize((px, px), Image.Resampling.LANCZOS)


def _paste(canvas: Image.Image, sprite: Image.Image, centre: Point) -> None:
    x = round(centre[0] - sprite.width / 2)
    y = round(centre[1] - sprite.height / 2)
    canvas.paste(sprite, (x, y), sprite)


def _good_icon(canvas: Image.Image, good: str, centre: Point, px: int) -> None:
    colour = palette.GOODS_COLOURS.get(good, palette.BARREN)
    _paste(canvas, _sprite(good if good in palette.GOODS_COLOURS else "disc", colour, px), centre)


# --- the base map ------------------------------------------------------------------


def _dotted(draw: ImageDraw.ImageDraw, a: Point, b: Point, step: float, r: float, fill: RGB) -> None:
    (x0, y0), (x1, y1) = a, b
    length = max(1.0, ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5)
    n = int(length // step)
    for i in range(n + 1):
        t = i / max(1, n)
        x, y = x0 + (x1 - x0) * t, y0 + (y1 - y0) * t
        draw.ellipse((x - r, y - r, x + r, y + r), fill=fill)


@functools.lru_cache(maxsize=8)
def _base(size: int, names: bool) -> Image.Image:
    """The map strip (no header, pieces or panels) ``size`` px wide; cached, callers copy it."""
    data = load_data()
    lay = layout()
    k = size / BASE_W
    w, h = size, round(lay.height * k)
    big_k = k * SS

    def at(p: Point, scale: float) -> Point:
        return p[0] * scale, p[1] * scale

    big = Image.new("RGB", (w * SS, h * SS), SEA)
    land = Image.new("L", big.size, 0)
    ld = ImageDraw.Draw(land)
    for c in lay.continents.values():
        pts = [at(p, big_k) for p in c.outline]
        ld.polygon(pts, fill=255)
        ld.line([*pts, pts[0]], fill=255, width=round(36 * big_k), joint="curve")  # grown by 18 px
    shallow = land.filter(ImageFilter.GaussianBlur(10 * big_k))
    big.paste(SEA_SHALLOW, mask=shallow.point(lambda v: v * 7 // 10))
    draw = ImageDraw.Draw(big)
    for a, b in lay.water:
        ca = at((data.regions[a].anchor[0] * lay.width, data.regions[a].anchor[1] * lay.height), big_k)
        cb = at((data.regions[b].anchor[0] * lay.width, data.regions[b].anchor[1] * lay.height), big_k)
        _dotted(draw, ca, cb, 15 * big_k, 3.4 * big_k, palette.WATER_INK)
    fills = _region_fills(data)
    for rid, reg in lay.regions.items():
        draw.polygon([at(p, big_k) for p in reg.polygon], fill=fills[rid])
    for reg in lay.regions.values():
        pts = [at(p, big_k) for p in reg.polygon]
        draw.line([*pts, pts[0]], fill=REGION_EDGE, width=max(1, round(1.6 * big_k)), joint="curve")
    for c in lay.continents.values():
        pts = [at(p, big_k) for p in c.outline]
        draw.line([*pts, pts[0]], fill=COAST, width=max(2, round(3.2 * big_k)), joint="curve")
    img = big.resize((w, h), Image.Resampling.LANCZOS)

    draw = ImageDraw.Draw(img)
    for c in lay.continents.values():
        x, y = at(c.label_at, k)
        text = c.name.upper()
        draw.text((x, y), text, font=font(max(8, round(20 * k)), True), fill=palette.lighten(COAST, 0.05),
                  anchor="mm", stroke_width=max(1, round(3 * k)), stroke_fill=SEA_SHALLOW)
    for rid, reg in lay.regions.items():
        x, y = at(reg.name_at, k)
        if names:
            draw.text((x, y), reg.name, font=font(max(7, round(reg.name_size * k)), True), fill=palette.INK,
                      anchor="mm", stroke_width=max(1, round(2 * k)),
                      stroke_fill=palette.lighten(fills[rid], 0.5))
        if reg.start:
            sy = y + (reg.name_size * 0.7 + 10) * k if names else y
            label = "START"
            f = font(max(6, round(13 * k)), True)
            star = _sprite("star", palette.COIN, max(6, round(16 * k)))
            total = star.width + 4 * k + f.getlength(label)
            left = x - total / 2
            _paste(img, star, (left + star.width / 2, sy))
            draw.text((left + star.width + 4 * k, sy), label, font=f, fill=START_INK, anchor="lm",
                      stroke_width=max(1, round(2 * k)), stroke_fill=palette.lighten(fills[rid], 0.5))
    return img


@functools.lru_cache(maxsize=8)
def _band_masks(size: int) -> dict[str, tuple[tuple[int, int], Image.Image, Image.Image, Image.Image]]:
    """Per region at ``size``: the top-left corner, the control band inside its border, and the
    highlight's wide ring and thin line along the border."""
    lay = layout()
    k = size / BASE_W
    out: dict[str, tuple[tuple[int, int], Image.Image, Image.Image, Image.Image]] = {}
    pad = 12 * k
    for rid, reg in lay.regions.items():
        xs = [p[0] * k for p in reg.polygon]
        ys = [p[1] * k for p in reg.polygon]
        x0, y0 = int(min(xs) - pad), int(min(ys) - pad)
        wdt, hgt = int(max(xs) + pad) - x0 + 1, int(max(ys) + pad) - y0 + 1
        pts = [((x - x0) * SS, (y - y0) * SS) for x, y in zip(xs, ys, strict=True)]
        closed = [*pts, pts[0]]
        shape = (wdt * SS, hgt * SS)

        def mask(fill: bool, width: float, pts: list[Point] = pts, closed: list[Point] = closed,
                 shape: tuple[int, int] = shape) -> Image.Image:
            m = Image.new("L", shape, 0)
            d = ImageDraw.Draw(m)
            if fill:
                d.polygon(pts, fill=255)
            else:
                d.line(closed, fill=255, width=max(1, round(width * SS)), joint="curve")
            return m

        inside = mask(True, 0)
        outer = ImageChops.multiply(mask(False, 2 * 10 * k), inside)
        inner = ImageChops.multiply(mask(False, 2 * 5 * k), inside)
        band = ImageChops.subtract(outer, inner)
        ring = mask(False, 11 * k)
        line = mask(False, 4 * k)
        out[rid] = (
            (x0, y0),
            band.resize((wdt, hgt), Image.Resampling.BILINEAR),
            ring.resize((wdt, hgt), Image.Resampling.BILINEAR),
            line.resize((wdt, hgt), Image.Resampling.BILINEAR),
        )
    return out


# --- the view ----------------------------------------------------------------------


def _colour(p: int) -> RGB:
    if p < 0:
        return palette.NEUTRAL_ARMY
    return palette.PLAYER_COLOURS[p % len(palette.PLAYER_COLOURS)]


def _text_colour(p: int) -> RGB:
    if p < 0:
        return palette.NEUTRAL_TEXT
    return palette.PLAYER_TEXT[p % len(palette.PLAYER_TEXT)]


def _players(view: EMView) -> int:
    n = view.get("players")
    if isinstance(n, int) and not isinstance(n, bool):
        return n
    return len(view.get("coins") or ())


def check_highlight(highlight: Iterable[str]) -> list[str]:
    """The region ids of ``highlight``; ValueError naming any that is not a region of the map."""
    regions = layout().regions
    wanted = list(dict.fromkeys(highlight))
    unknown = [r for r in wanted if r not in regions]
    if unknown:
        raise ValueError(
            f"Unknown region(s) to highlight: {', '.join(map(repr, unknown))}; "
            f"regions are: {', '.join(sorted(regions))}"
        )
    return wanted


def _draw_control(canvas: Image.Image, view: EMView, size: int, top: int) -> None:
    control: Mapping[str, int] = (view.get("board") or {}).get("control") or {}
    masks = _band_masks(size)
    for rid, seat in sorted(control.items()):
        if rid not in masks:
            continue
        (x0, y0), band, _, _ = masks[rid]
        canvas.paste(_colour(int(seat)), (x0, y0 + top), band)


def _draw_highlight(canvas: Image.Image, regions: Sequence[str], size: int, top: int) -> None:
    """A white ring along each region's border with a dark line on it (no player colour is white or ink)."""
    masks = _band_masks(size)
    for rid in regions:
        (x0, y0), _, ring, _ = masks[rid]
        canvas.paste(palette.HIGHLIGHT, (x0, y0 + top), ring)
    for rid in regions:
        (x0, y0), _, _, line = masks[rid]
        canvas.paste(HIGHLIGHT_LINE, (x0, y0 + top), line)


def _draw_pieces(canvas: Image.Image, view: EMView, k: float, top: int) -> None:
    lay = layout()
    board = view.get("board") or {}
    armies: Mapping[str, Sequence[int]] = board.get("armies") or {}
    cities: Mapping[str, Sequence[int]] = board.get("cities") or {}
    neutral: Mapping[str, int] = board.get("neutral") or {}
    tokens: Mapping[str, str] = board.get("tokens") or {}
    draw = StampDraw(canvas)
    disc_px = max(8, round(2 * DISC_R * k))
    num = font(max(7, round(21 * k)), True)
    badge = max(7, round(23 * k))
    small = font(max(6, round(13 * k)), True)

    def at(p: Point) -> Point:
        return p[0] * k, p[1] * k + top

    for rid, good in sorted(tokens.items()):
        reg = lay.regions.get(rid)
        if reg is None or reg.token_at is None:
            continue
        c = at(reg.token_at)
        _paste(canvas, _sprite("triangle", (250, 246, 232), max(8, round(48 * k))), (c[0], c[1] - 2 * k))
        _good_icon(canvas, str(good), (c[0], c[1] + 4 * k), max(6, round(24 * k)))

    for rid in sorted(set(armies) | set(cities) | set(neutral)):
        reg = lay.regions.get(rid)
        if reg is None:
            continue
        counts = list(armies.get(rid) or ())
        towns = list(cities.get(rid) or ())
        pieces: list[tuple[int, int, int]] = []  # (owner, armies, cities)
        for p in range(max(len(counts), len(towns))):
            on = counts[p] if p < len(counts) else 0
            built = towns[p] if p < len(towns) else 0
            if on or built:
                pieces.append((p, on, built))
        if neutral.get(rid):
            pieces.append((-1, int(neutral[rid]), 0))
        spots = _spots(reg, len(pieces))
        for (owner, n, towns_here), spot in zip(pieces, spots, strict=False):
            x, y = at(spot)
            colour, ink = _colour(owner), _text_colour(owner)
            if n:
                _paste(canvas, _piece_sprite(owner, colour, disc_px), (x, y))
                draw.text((x, y + 0.5 * k), str(n), font=num, fill=ink, anchor="mm")
                if towns_here:
                    bx, by = x + 16 * k, y + 11 * k
                    _paste(canvas, _sprite("house", colour, badge), (bx, by))
                    if towns_here > 1:
                        draw.text((bx, by + 2.5 * k), str(towns_here), font=small, fill=ink, anchor="mm")
            elif towns_here:
                house = max(8, round(30 * k))
                _paste(canvas, _sprite("house", colour, house), (x, y))
                if towns_here > 1:
                    draw.text((x, y + 3 * k), str(towns_here), font=num, fill=ink, anchor="mm")


def _spots(reg: RegionLayout, n: int) -> list[Point]:
    """The first ``n`` slots row by row, each partly used row centred."""
    out: list[Point] = []
    for y, xs in reg.rows:
        if len(out) >= n:
            break
        take = min(len(xs), n - len(out))
        shift = (len(xs) - take) * reg.pitch / 2
        out.extend((x + shift, y) for x in xs[:take])
    if len(out) < n:  # more pieces than slots: stack the rest on the last slot, a little offset
        last = out[-1] if out else (reg.name_at[0], reg.name_at[1] + 30)
        out.extend((last[0] + 6 * i, last[1] + 6 * i) for i in range(1, n - len(out) + 1))
    return out


def _draw_continent_control(canvas: Image.Image, view: EMView, k: float, top: int) -> None:
    lay = layout()
    held: Mapping[str, int] = (view.get("board") or {}).get("continents") or {}
    draw = StampDraw(canvas)
    f = font(max(8, round(20 * k)), True)
    small = font(max(7, round(16 * k)), True)
    for cid, seat in sorted(held.items()):
        c = lay.continents.get(cid)
        if c is None:
            continue
        x, y = c.label_at[0] * k, c.label_at[1] * k + top
        x += f.getlength(c.name.upper()) / 2 + 10 * k
        label = colour_name(int(seat))
        r = 9 * k
        chip_w = 2 * r + 6 * k + small.getlength(label) + 12 * k
        draw.rounded_rectangle((x, y - 13 * k, x + chip_w, y + 13 * k), radius=12 * k, fill=palette.PAPER,
                               outline=palette.BORDER, width=max(1, round(k)))
        _paste(canvas, _piece_sprite(int(seat), _colour(int(seat)), max(6, round(2 * r))), (x + 6 * k + r, y))
        draw.text((x + 6 * k + 2 * r + 5 * k, y), label, font=small, fill=palette.INK, anchor="lm")


# --- header and panels ------------------------------------------------------------------


_DOING: Final = {"place": "placing armies", "move": "moving over land", "sail": "moving over land or water",
                 "city": "building a city", "destroy": "destroying an army"}


def status_line(view: EMView) -> tuple[int | None, str]:
    """Who the header is about (a seat, or None) and what it says."""
    phase = view.get("phase")
    players = _players(view)
    if phase == Phase.NEUTRAL:
        seat = view.get("neutral_next")
        left = view.get("neutral_left", 0)
        return seat, f"{colour_name(seat)} places a neutral army ({left} left to place)"
    if phase == Phase.BID:
        done = sum(1 for b in (view.get("bid") or {}).get("has_bid", ()) if b)
        return None, f"Secret bids for first player: {done} of {players} in"
    if phase == Phase.FIRST:
        winner = (view.get("bid") or {}).get("winner")
        return winner, f"{colour_name(winner)} won the bid and chooses who starts"
    if phase == Phase.TURN:
        seat = view.get("current")
        task = view.get("task")
        who = colour_name(seat)
        if not task:
            return seat, f"{who} to play: take a card"
        if task.get("choose"):
            options = " or ".join(step_text(str(o["do"]), int(o["n"])) for o in task.get("options") or ())
            return seat, f"{who} chooses: {options}"
        if task.get("do"):
            verb, left = str(task["do"]), int(task.get("left") or 0)
            return seat, f"{who} is {_DOING.get(verb, verb)}: {units_left(verb, left)}"
        return seat, f"{who} to play"
    if phase == Phase.OVER:
        ranking = view.get("ranking") or []
        final = view.get("final") or view.get("totals") or []
        if ranking and final:
            best = ranking[0]
            return best, f"Game over: {colour_name(best)} wins with {final[best]}"
        return None, "Game over"
    return None, str(phase or "")


def _draw_header(canvas: Image.Image, view: EMView, k: float) -> None:
    draw = StampDraw(canvas)
    head = round(HEAD * k)
    draw.rectangle((0, 0, canvas.width, head - 1), fill=palette.PAPER)
    draw.line((0, head - 1, canvas.width, head - 1), fill=palette.BORDER, width=max(1, round(k)))
    pad = 14 * k
    y = head / 2
    title = font(max(8, round(24 * k)), True)
    mid = font(max(7, round(21 * k)), True)
    small = font(max(6, round(17 * k)))
    text = "Eight-Minute Empire"
    draw.text((pad, y), text, font=title, fill=palette.INK, anchor="lm")
    x = pad + title.getlength(text) + 22 * k
    seat, status = status_line(view)
    if seat is not None:
        _paste(canvas, _piece_sprite(int(seat), _colour(int(seat)), max(8, round(26 * k))), (x + 13 * k, y))
        x += 34 * k
    draw.text((x, y), status, font=mid, fill=palette.INK, anchor="lm")
    games = int(view.get("games") or 1)
    bits = []
    if games > 1:
        bits.append(f"Game {view.get('game_no', 1)} of {games}")
    bits.append(f"Deck {view.get('deck_left', 0)}")
    bits.append(f"Ends at {view.get('cards_to_end', '?')} cards each")
    draw.text((canvas.width - pad, y), " · ".join(bits), font=small, fill=MUTED, anchor="rm")


_BIG: Final = {"place": "Place {n}", "move": "Move {n}", "sail": "Move {n}", "city": "Build a city",
               "destroy": "Destroy 1 army"}
_SMALL: Final = {"move": "over land", "sail": "over land or water", "city": "where you have an army",
                 "destroy": "of any player"}


def _card_lines(verb: str, n: int) -> tuple[str, str]:
    big = _BIG.get(verb, verb).format(n=n)
    small = ("new army" if n == 1 else "new armies") if verb == "place" else _SMALL.get(verb, "")
    return big, small


def _in_row(card: CardView | RowCard) -> TypeGuard[RowCard]:
    """Whether ``card`` is a face-up card of the row (it has a price), not a card on its own."""
    return "price" in card


def draw_card(canvas: Image.Image, box: Box, card: CardView | RowCard, k: float) -> None:
    """One face-up card in ``box``: price and position, good, action(s)."""
    draw = StampDraw(canvas)
    x0, y0, x1, y1 = box
    good = str(card.get("good", ""))
    tint = palette.GOODS_COLOURS.get(good, palette.BARREN)
    radius = 10 * k
    edge = max(1, round(2 * k))
    draw.rounded_rectangle(box, radius=radius, fill=CARD_FILL, outline=palette.BORDER, width=edge)
    band = 46 * k
    draw.rounded_rectangle((x0, y0, x1, y0 + band), radius=radius, fill=palette.lighten(tint, 0.6),
                           outline=palette.BORDER, width=max(1, round(2 * k)))
    draw.rectangle((x0 + 2 * k, y0 + band - radius, x1 - 2 * k, y0 + band - 2 * k),
                   fill=palette.lighten(tint, 0.6))
    draw.line((x0, y0 + band, x1, y0 + band), fill=palette.BORDER, width=max(1, round(2 * k)))
    cy = y0 + band / 2
    r = 15 * k
    if _in_row(card):  # a face-up card: its price, and its position in the row
        price = int(card["price"])
        coin = max(8, round(30 * k))
        _paste(canvas, _sprite("coin", palette.COIN, coin), (x0 + 12 * k + coin / 2, cy))
        draw.text((x0 + 12 * k + coin / 2, cy + 0.5 * k), str(price), font=font(max(7, round(18 * k)), True),
                  fill=palette.INK, anchor="mm")
        cost = "free" if price == 0 else f"{price} coin{'s' if price != 1 else ''}"
        draw.text((x0 + 20 * k + coin, cy), cost, font=font(max(7, round(19 * k)), True), fill=palette.INK,
                  anchor="lm")
        pos = int(card.get("position", 0)) + 1
        draw.ellipse((x1 - 12 * k - 2 * r, cy - r, x1 - 12 * k, cy + r), fill=palette.INK)
        draw.text((x1 - 12 * k - r, cy + 0.5 * k), str(pos), font=font(max(7, round(19 * k)), True),
                  fill=(255, 255, 255), anchor="mm")
    else:  # a card on its own (a player's hand): its number
        draw.text((x0 + 14 * k, cy), f"Card {card.get('card', '')}", font=font(max(7, round(17 * k)), True),
                  fill=MUTED, anchor="lm")
    # The good.
    gy = y0 + band + 28 * k
    icon = max(8, round(36 * k))
    _good_icon(canvas, good, (x0 + 14 * k + icon / 2, gy), icon)
    goods = int(card.get("goods", 1))
    label = good_name(good) + (f" \u00d7{goods}" if goods > 1 else "")
    draw.text((x0 + 24 * k + icon, gy), label, font=font(max(7, round(22 * k)), True), fill=palette.INK,
              anchor="lm")
    if card.get("five"):  # the little "5" mark: a card only five players use
        f5 = font(max(6, round(14 * k)), True)
        tag = "5p"
        right = x1 - 20 * k - 2 * r if _in_row(card) else x1 - 12 * k
        tw = f5.getlength(tag) + 12 * k
        draw.rounded_rectangle((right - tw, cy - 11 * k, right, cy + 11 * k), radius=5 * k,
                               fill=palette.PAPER, outline=MUTED, width=max(1, round(k)))
        draw.text((right - tw / 2, cy), tag, font=f5, fill=MUTED, anchor="mm")
    # The action(s), centred in the space left.
    actions = list(card.get("actions") or ())
    big = font(max(7, round(24 * k)), True)
    sm = font(max(6, round(17 * k)))
    line_big, line_small, joiner_h = 28 * k, 21 * k, 20 * k
    height = len(actions) * (line_big + line_small) + max(0, len(actions) - 1) * joiner_h
    top = y0 + band + 50 * k
    y = top + max(0.0, (y1 - 8 * k - top - height) / 2)
    cx = (x0 + x1) / 2
    for i, action in enumerate(actions):
        if i:
            word = str(card.get("combine") or "and")
            jf = font(max(6, round(17 * k)), True)
            draw.line((x0 + 24 * k, y + joiner_h / 2, x1 - 24 * k, y + joiner_h / 2), fill=(205, 196, 180),
                      width=max(1, round(k)))
            tw = jf.getlength(word) + 14 * k
            draw.rectangle((cx - tw / 2, y + 2 * k, cx + tw / 2, y + joiner_h - 2 * k), fill=CARD_FILL)
            draw.text((cx, y + joiner_h / 2), word, font=jf, fill=START_INK, anchor="mm")
            y += joiner_h
        b, s = _card_lines(str(action.get("do")), int(action.get("n", 1)))
        draw.text((cx, y + line_big / 2), b, font=big, fill=palette.INK, anchor="mm")
        if s:
            draw.text((cx, y + line_big + line_small / 2), s, font=sm, fill=MUTED, anchor="mm")
        y += line_big + line_small


CARD_W: Final = (BASE_W - 2 * 16 - 5 * 12) / 6  # a face-up card's width at BASE_W


def card_image(card: CardView | RowCard, *, width: int = 320) -> bytes:
    """One card as PNG bytes, ``width`` px wide, drawn as in the row.

    ``card`` is a view's row entry (price and position shown) or a card's JSON
    (``Card.to_json()``: its number shown instead).
    """
    if width < 120:
        raise ValueError("width must be at least 120 pixels")
    k = width / CARD_W
    margin = round(6 * k)
    canvas = Image.new("RGB", (width + 2 * margin, round(CARD_H * k) + 2 * margin), palette.PAPER)
    draw_card(canvas, (margin, margin, margin + width - 1, margin + round(CARD_H * k) - 1), card, k)
    return encode_png(canvas)


def card_text_widths(card: CardView, k: float = 1.0) -> list[float]:
    """How wide each line of ``card``'s good and actions is drawn at scale ``k`` (for layout checks)."""
    goods = int(card.get("goods", 1))
    label = good_name(str(card.get("good", ""))) + (f" \u00d7{goods}" if goods > 1 else "")
    out = [24 * k + max(8, round(36 * k)) + font(max(7, round(22 * k)), True).getlength(label)]
    for action in card.get("actions") or ():
        b, s = _card_lines(str(action.get("do")), int(action.get("n", 1)))
        out.append(font(max(7, round(24 * k)), True).getlength(b))
        out.append(font(max(6, round(17 * k))).getlength(s))
    return out


def _draw_row(canvas: Image.Image, view: EMView, k: float, top: float) -> None:
    pad, gap = 16 * k, 12 * k
    row = list(view.get("row") or [])
    slots = 6
    width = (canvas.width - 2 * pad - (slots - 1) * gap) / slots
    draw = StampDraw(canvas)
    for i in range(slots):
        x0 = pad + i * (width + gap)
        box = (x0, top, x0 + width, top + CARD_H * k)
        if i < len(row):
            draw_card(canvas, box, row[i], k)
        else:
            draw.rounded_rectangle(box, radius=10 * k, outline=palette.BORDER, width=max(1, round(k)))
            draw.text(((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), "no card",
                      font=font(max(7, round(18 * k))), fill=MUTED, anchor="mm")


def _bid_text(view: EMView, p: int) -> str:
    bid = view.get("bid") or {}
    phase = view.get("phase")
    you = view.get("you")
    bids = bid.get("bids")
    if bids is None:
        if phase == Phase.NEUTRAL:
            return "—"
        if you and you["player"] == p and you["bid"] is not None:
            return f"✓ {you['bid']} (yours, secret)"
        has = bid.get("has_bid") or []
        return "✓ bid made" if p < len(has) and has[p] else "… bidding"
    text = str(bids[p])
    dice = [d for rnd in bid.get("rolls") or () for seat, d in rnd if seat == p]
    if dice:
        text += " (die " + ", ".join(map(str, dice)) + ")"
    if bid.get("winner") == p:
        text += " won"
    if view.get("first_player") == p:
        text += " · 1st"
    return text


# Table columns at BASE_W: (header, x, anchor)
_COLS: Final = {
    "player": ("Player", 18, "l"), "coins": ("Coins", 290, "m"), "cards": ("Cards", 368, "m"),
    "goods": ("Goods (cards + tokens)", 426, "l"), "supply": ("Left", 812, "l"),
    "regions": ("Regions", 966, "m"), "continents": ("Conts.", 1046, "m"), "gpoints": ("Goods", 1122, "m"),
    "total": ("Score", 1200, "m"), "match": ("Match", 1276, "m"), "bid": ("Bid", 1334, "l"),
}


def _draw_table(canvas: Image.Image, view: EMView, k: float, top: float,
                people: Sequence[str] = ()) -> None:
    draw = StampDraw(canvas)
    players = _players(view)
    head = font(max(6, round(15 * k)), True)
    txt = font(max(7, round(20 * k)))
    bold = font(max(7, round(20 * k)), True)
    big = font(max(7, round(24 * k)), True)
    games = int(view.get("games") or 1)
    cols = {name: (label, x * k, a) for name, (label, x, a) in _COLS.items() if name != "match" or games > 1}
    for label, x, a in cols.values():
        draw.text((x, top + TABLE_HEAD * k / 2), label, font=head, fill=MUTED, anchor=a + "m")
    y = top + TABLE_HEAD * k
    scores = list(view.get("scores") or [])
    totals = list(view.get("totals") or [])
    coins = list(view.get("coins") or [])
    cards = list(view.get("cards") or [])
    armies_left = list(view.get("armies_left") or [])
    cities_left = list(view.get("cities_left") or [])
    actors = set(view.get("actors") or ())
    seen_by = view.get("you")
    you = seen_by["player"] if seen_by else None
    end = view.get("cards_to_end", "?")
    ranking = list(view.get("ranking") or []) if view.get("phase") == Phase.OVER else []
    for p in range(players):
        row_top, row_bottom = y + 2 * k, y + ROW_H * k - 2 * k
        cy = (row_top + row_bottom) / 2
        active = p in actors and view.get("phase") != Phase.BID
        draw.rounded_rectangle((8 * k, row_top, canvas.width - 8 * k, row_bottom), radius=8 * k,
                               fill=ROW_ACTIVE if active else palette.lighten(palette.PAPER, 0.3),
                               outline=palette.INK if active else (222, 214, 198),
                               width=max(1, round((2.5 if active else 1) * k)))
        x = cols["player"][1]
        _paste(canvas, _piece_sprite(p, _colour(p), max(8, round(28 * k))), (x + 14 * k, cy))
        name = seat_label(colour_name(p), p, you, people)
        # A person's name makes the label longer: it takes a smaller type before it runs into the coins.
        won = bool(ranking) and ranking[0] == p
        after = head.getlength("◀ to play") + 8 * k if active else 30 * k if won else 0.0
        room = cols["coins"][1] - 30 * k - (x + 36 * k) - after
        face = bold
        for px in range(max(7, round(20 * k)), max(6, round(13 * k)) - 1, -1):
            face = font(px, True)
            if face.getlength(name) <= room:
                break
        draw.text((x + 36 * k, cy), name, font=face, fill=palette.INK, anchor="lm")
        if won:
            star = max(8, round(24 * k))
            _paste(canvas, _sprite("star", palette.COIN, star),
                   (x + 36 * k + face.getlength(name) + 18 * k, cy))
        if active:
            draw.text((x + 36 * k + face.getlength(name) + 8 * k, cy), "◀ to play", font=head,
                      fill=START_INK, anchor="lm")
        if p < len(coins):
            cx = cols["coins"][1]
            _paste(canvas, _sprite("coin", palette.COIN, max(7, round(22 * k))), (cx - 16 * k, cy))
            draw.text((cx + 4 * k, cy), str(coins[p]), font=bold, fill=palette.INK, anchor="lm")
        if p < len(cards):
            draw.text((cols["cards"][1], cy), f"{len(cards[p])}/{end}", font=txt, fill=palette.INK,
                      anchor="mm")
        owned: Mapping[str, int] = scores[p].get("goods_owned", {}) if p < len(scores) else {}
        gx = cols["goods"][1]
        for good in (*GOODS, WILD):
            n = int(owned.get(good, 0))
            if not n:
                continue
            _good_icon(canvas, good, (gx + 12 * k, cy), max(7, round(26 * k)))
            draw.text((gx + 28 * k, cy), str(n), font=bold, fill=palette.INK, anchor="lm")
            gx += 62 * k
        if p < len(armies_left) and p < len(cities_left):
            sx = cols["supply"][1]
            _paste(canvas, _piece_sprite(p, _colour(p), max(7, round(22 * k))), (sx + 11 * k, cy))
            draw.text((sx + 27 * k, cy), str(armies_left[p]), font=txt, fill=palette.INK, anchor="lm")
            _paste(canvas, _sprite("house", _colour(p), max(7, round(22 * k))), (sx + 78 * k, cy))
            draw.text((sx + 94 * k, cy), str(cities_left[p]), font=txt, fill=palette.INK, anchor="lm")
        if p < len(scores):
            s = scores[p]
            for col, key, f in (("regions", "regions", txt), ("continents", "continents", txt),
                                ("gpoints", "goods", txt), ("total", "total", big)):
                draw.text((cols[col][1], cy), str(s.get(key, 0)), font=f, fill=palette.INK, anchor="mm")
        if "match" in cols and p < len(totals):
            draw.text((cols["match"][1], cy), str(totals[p]), font=big, fill=palette.INK, anchor="mm")
        draw.text((cols["bid"][1], cy), _bid_text(view, p), font=txt, fill=palette.INK, anchor="lm")
        y += ROW_H * k
    neutral: Mapping[str, int] = (view.get("board") or {}).get("neutral") or {}
    if players == 2 and (neutral or view.get("phase") == Phase.NEUTRAL):
        cy = y + ROW_H * k / 2
        x = cols["player"][1]
        _paste(canvas, _sprite("disc", palette.NEUTRAL_ARMY, max(8, round(28 * k))), (x + 14 * k, cy))
        draw.text((x + 36 * k, cy), "Neutral", font=bold, fill=MUTED, anchor="lm")
        on_board = sum(int(v) for v in neutral.values())
        left = int(view.get("neutral_left") or 0)
        text = f"{on_board} armies on the board" + (f", {left} still to place" if left else "")
        draw.text((cols["goods"][1], cy), text, font=txt, fill=MUTED, anchor="lm")


def _table_rows(view: EMView) -> int:
    players = _players(view)
    neutral = (view.get("board") or {}).get("neutral") or {}
    extra = 1 if players == 2 and (neutral or view.get("phase") == Phase.NEUTRAL) else 0
    return players + extra


def _height(view: EMView, size: int) -> tuple[int, int, int]:
    """The picture's (card row top, table top, height) at ``size`` px wide."""
    k = size / BASE_W
    head = round(HEAD * k)
    row_top = head + round(layout().height * k) + round(12 * k)
    table_top = row_top + round(CARD_H * k) + round(14 * k)
    return row_top, table_top, table_top + round((TABLE_HEAD + ROW_H * _table_rows(view) + 12) * k)


def picture(view: EMView, *, names: bool = True, highlight: Sequence[str] = (),
            size: int = 1600, people: Sequence[str] = ()) -> Image.Image:
    """The board as a PIL image (see :func:`render_board`)."""
    if not isinstance(view, Mapping):
        raise TypeError(f"render_board draws a view (GAME.view output), not a {type(view).__name__}")
    if size < 400:
        raise ValueError("size must be at least 400 pixels")
    return _draw(view, names, highlight, size, people)


def _draw(view: EMView, names: bool, highlight: Sequence[str], size: int,
          people: Sequence[str]) -> Image.Image:
    game = view.get("game")
    if game is not None and game != GAME_ID:
        raise ValueError(f"this renderer draws {GAME_ID!r} views, not {game!r}")
    regions = check_highlight(highlight)
    k = size / BASE_W
    head = round(HEAD * k)
    base = _base(size, names)
    row_top, table_top, height = _height(view, size)
    canvas = Image.new("RGB", (size, height), palette.PAPER)
    canvas.paste(base, (0, head))
    _draw_control(canvas, view, size, head)
    if regions:
        _draw_highlight(canvas, regions, size, head)
    _draw_pieces(canvas, view, k, head)
    _draw_continent_control(canvas, view, k, head)
    _draw_header(canvas, view, k)
    _draw_row(canvas, view, k, row_top)
    _draw_table(canvas, view, k, table_top, people)
    return canvas


def render_board(view: EMView, *, names: bool = True, highlight: Sequence[str] = (),
                 size: int = 1600, people: Sequence[str] = ()) -> bytes:
    """The board as seen in ``view`` (``GAME.view`` output, plain data) as PNG bytes.

    Args:
        view: a player's or spectator's view of an Eight-Minute Empire game.
        names: write the region names on the map.
        highlight: region ids to outline (e.g. the legal targets of a select);
            ValueError for a name that is not a region of the map.
        size: width of the picture in pixels (at least 400).
        people: the person at each seat (index = seat), named beside their colour in the table.
    """
    return encode_png(picture(view, names=names, highlight=highlight, size=size, people=people))



def notice_pictures(view: EMView, *, focus: Sequence[str] = (), size: int = 800,
                    people: Sequence[str] = ()) -> list[tuple[str, bytes]]:
    """A turn notice's one picture (an :class:`engine.spec.NoticePictures`): the board with its region
    names, since every choice names regions ("Move Crossroads -> Eastwatch") and the names read at
    800 px, and with the regions ``focus`` names (the events' region ids) outlined; ``people`` (a name
    per seat) names the people beside their colours in the table."""
    regions = layout().regions
    marked = [word for word in dict.fromkeys(focus) if word in regions]
    if size < 400:
        raise ValueError("size must be at least 400 pixels")
    width = size  # a long table (five seats) must not make it taller than wide: narrow the board
    tall = _height(view, size)[2]
    if tall > size:
        width = size * size // tall
        while _height(view, width)[2] > size:
            width -= 1
    drawn = _draw(view, True, marked, width, people)
    if width == size:
        return [("", encode_png(drawn))]
    framed = Image.new("RGB", (size, drawn.height), palette.PAPER)
    framed.paste(drawn, ((size - width) // 2, 0))
    return [("", encode_png(framed))]


__all__ = [
    "card_image", "card_text_widths", "check_highlight", "draw_card", "layout", "notice_pictures", "picture",
    "render_board", "status_line",
]
