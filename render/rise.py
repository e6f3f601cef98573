"""The Rise of Empires board as a picture: a player's view -> PNG bytes.

``render_board(view, *, names=True, highlight=(), size=1600)`` draws, from the
plain-data view ``GAME.view`` returns (never a state), top to bottom:

* a header: era, game turn (A or B), phase, and who is doing what;
* the map in three panels (the New World, the Old World, the Far East): each
  region a box filled in its era's colour (the Mediterranean as sea) with
  its name, era numeral, victory point standard (first/second) and what
  control yields, a cube per player with the count (1st/2nd under the
  leaders), land links as bars and crossings over water as double-headed
  arrows;
* the action display: the five rows with their circles (as many as the player
  count gives), a disc per player in it, the A/B turn marker, the next free
  circle in A turns and, in B turns, the removal price under the current
  player's discs; beside it the trade track (open boxes of this era, used ones
  marked with the user's colour);
* the food track (0 to the top), the victory point track and the turn order;
* a panel per player in turn order: gold, resource discs, food, VP, cubes
  (pool / on the map / stock), what this turn would pay, and the tiles held
  (progress, territory, cities, the empire tile of this turn).

Region boxes are laid out from the map's anchors (longitude, latitude) in
their panel and pushed apart until none overlap (:func:`layout`), so every
region keeps room for five players' cubes. Everything is drawn at 1600 px
wide and scaled to ``size``.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from PIL import Image, ImageDraw, ImageFont

from engine.rise.spec import SPEC
from engine.rise.state import Phase, Stage
from engine.rise.view import PlayerView, RegionView, RiseView, RowView, TileView
from render import palette
from render.layers import (
    Drawer,
    LayerCache,
    Painter,
    Rect,
    Section,
    ShiftDraw,
    aligned,
    compose,
    compose_sections,
    draw_sections,
    reduce_whole,
)
from render.marks import draw_piece, seat_label
from render.palette import RGB, font
from render.png import encode_png
from render.stamps import StampDraw

GAME_ID: Final = SPEC.id  # the game whose views this draws (its spec names it; no id is spelt here)
BASE_W: Final = 1600
MARGIN: Final = 16
HEAD_H: Final = 92
MAP_H: Final = 800
BOX_W: Final = 184  # a region box
BOX_H: Final = 118
GAP: Final = 30  # between region boxes after relaxation (room for the links)
CUBE: Final = 28  # a cube square
CUBE_PITCH: Final = 34
MAX_CUBES: Final = 5
SIDE_W: Final = 236  # the New World and Far East panels
ROMAN: Final = ("", "I", "II", "III")
ROWS: Final = ("progress", "territory", "city", "empire", "trade")
ROW_TITLES: Final = {
    "progress": "Progress",
    "territory": "Territory",
    "city": "City",
    "empire": "Empire",
    "trade": "Trade",
}
PARTS: Final = ("new_world", "old", "far_east")
PART_TITLES: Final = {"new_world": "New World", "old": "Old World", "far_east": "Far East"}

INK: Final[RGB] = palette.INK
MUTED: Final[RGB] = (110, 100, 90)
PAPER: Final[RGB] = palette.PAPER
CARD: Final[RGB] = (252, 249, 240)
EDGE: Final[RGB] = palette.BORDER
LINK: Final[RGB] = (120, 104, 86)
ARROW: Final[RGB] = (30, 70, 120)
GOLD: Final[RGB] = palette.COIN
FOOD: Final[RGB] = (110, 160, 60)
RES: Final[RGB] = (150, 110, 70)
VP_INK: Final[RGB] = (130, 40, 40)
HIGHLIGHT_OUT: Final[RGB] = (15, 15, 15)
HIGHLIGHT_IN: Final[RGB] = (255, 255, 255)

Box = tuple[float, float, float, float]


# --- colours and small helpers ---------------------------------------------------------------


def player_colour(seat: int) -> RGB:
    return palette.PLAYER_COLOURS[seat % len(palette.PLAYER_COLOURS)]


def player_text(seat: int) -> RGB:
    return palette.PLAYER_TEXT[seat % len(palette.PLAYER_TEXT)]


def player_name(seat: int) -> str:
    return palette.PLAYER_NAMES[seat % len(palette.PLAYER_NAMES)]


def initial(seat: int) -> str:
    """One letter per colour (Red R, Blue B, Green G, Yellow Y, Purple P, Orange O)."""
    return player_name(seat)[0]


@functools.lru_cache(maxsize=4096)
def text_w(text: str, f: ImageFont.FreeTypeFont) -> float:
    """The width of ``text`` in ``f`` (kept: the same labels are measured turn after turn, and
    wrapping a name measures each of its prefixes)."""
    return float(f.getlength(text))


def wrap(
    text: str, f: ImageFont.FreeTypeFont, width: float, lines: int = 2, rest: float | None = None
) -> list[str]:
    """``text`` broken into at most ``lines`` lines, the first no wider than ``width`` and the
    others than ``rest`` (default ``width``); the last line is cut with … if it must be."""
    rest = width if rest is None else rest
    out: list[str] = []
    line = ""
    for word in text.split():
        trial = f"{line} {word}".strip()
        if text_w(trial, f) <= (rest if out else width) or not line:
            line = trial
        else:
            out.append(line)
            line = word
    if line:
        out.append(line)
    if len(out) > lines:
        out = [*out[: lines - 1], " ".join(out[lines - 1 :])]
    if out:
        limit = rest if len(out) > 1 else width
        out[-1] = ellipsize(out[-1], f, limit)
    return out


def ellipsize(text: str, f: ImageFont.FreeTypeFont, width: float) -> str:
    if text_w(text, f) <= width:
        return text
    while text and text_w(text + "…", f) > width:
        text = text[:-1]
    return text + "…"


def yields_text(y: Mapping[str, int]) -> str:
    """``+2 food +1 gold`` from a yields mapping (nothing: ``no yield``)."""
    names = {"food": "food", "gold": "gold", "resources": "res.", "cubes": "cube", "vp": "VP"}
    parts = []
    for key in ("vp", "gold", "resources", "cubes", "food"):
        n = int(y.get(key, 0) or 0)
        if n:
            unit = names[key] + ("s" if key == "cubes" and abs(n) > 1 else "")
            parts.append(f"{'+' if n > 0 else '-'}{abs(n)} {unit}")
    return " ".join(parts) or "no yield"


# --- map geometry ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Panel:
    part: str
    box: Box


@dataclass(frozen=True)
class MapLayout:
    """Region boxes in px at BASE_W, the map strip's own origin (top left at 0, 0)."""

    panels: tuple[Panel, ...]
    boxes: Mapping[str, Box]

    def cube_slots(self, region: str) -> list[tuple[float, float]]:
        """Top-left corners of the five cube squares along a region box's bottom."""
        x0, _, x1, y1 = self.boxes[region]
        width = MAX_CUBES * CUBE_PITCH - (CUBE_PITCH - CUBE)
        left = (x0 + x1 - width) / 2
        top = y1 - CUBE - 22
        return [(left + i * CUBE_PITCH, top) for i in range(MAX_CUBES)]


def panels() -> tuple[Panel, ...]:
    top, bottom = 44.0, MAP_H - 12.0
    return (
        Panel("new_world", (MARGIN, top, MARGIN + SIDE_W, bottom)),
        Panel("old", (MARGIN + SIDE_W + 14, top, BASE_W - MARGIN - SIDE_W - 14, bottom)),
        Panel("far_east", (BASE_W - MARGIN - SIDE_W, top, BASE_W - MARGIN, bottom)),
    )


def _overlap(a: Box, b: Box, gap: float) -> tuple[float, float]:
    """How far ``a`` and ``b`` (grown by ``gap``) overlap along x and y (<= 0: apart)."""
    ox = min(a[2], b[2]) + gap - max(a[0], b[0])
    oy = min(a[3], b[3]) + gap - max(a[1], b[1])
    return ox, oy


def _relax(centres: dict[str, list[float]], bounds: Box, iterations: int = 400) -> None:
    """Push overlapping boxes apart (along the shallower overlap), keeping them inside ``bounds``."""
    ids = sorted(centres)
    hw, hh = BOX_W / 2, BOX_H / 2
    for _ in range(iterations):
        moved = False
        for i, a in enumerate(ids):
            for b in ids[i + 1 :]:
                ca, cb = centres[a], centres[b]
                ba = (ca[0] - hw, ca[1] - hh, ca[0] + hw, ca[1] + hh)
                bb = (cb[0] - hw, cb[1] - hh, cb[0] + hw, cb[1] + hh)
                ox, oy = _overlap(ba, bb, GAP)
                if ox <= 0 or oy <= 0:
                    continue
                moved = True
                if ox * 0.8 < oy:  # prefer sideways moves: the map is wider than tall
                    push = ox / 2 + 0.5
                    sign = -1.0 if (ca[0], a) < (cb[0], b) else 1.0
                    ca[0] += sign * push
                    cb[0] -= sign * push
                else:
                    push = oy / 2 + 0.5
                    sign = -1.0 if (ca[1], a) < (cb[1], b) else 1.0
                    ca[1] += sign * push
                    cb[1] -= sign * push
        for c in centres.values():
            c[0] = min(max(c[0], bounds[0] + hw), bounds[2] - hw)
            c[1] = min(max(c[1], bounds[1] + hh), bounds[3] - hh)
        if not moved:
            return


def layout(regions: Mapping[str, RegionView]) -> MapLayout:
    """Region boxes for a view's ``map.regions`` (cached by the regions' ids, parts and anchors)."""
    key = tuple(
        sorted(
            (rid, str(r.get("part", "old")), tuple(float(v) for v in r["anchor"]))
            for rid, r in regions.items()
        )
    )
    return _layout(key)


@functools.lru_cache(maxsize=8)
def _layout(key: tuple[tuple[str, str, tuple[float, ...]], ...]) -> MapLayout:
    ps = panels()
    boxes: dict[str, Box] = {}
    for panel in ps:
        members = [(rid, anchor) for rid, part, anchor in key if part == panel.part]
        if panel.part == "old":  # unknown parts join the Old World
            members += [(rid, anchor) for rid, part, anchor in key if part not in PARTS]
        if not members:
            continue
        x0, y0, x1, y1 = panel.box
        inner = (x0 + 8, y0 + 34, x1 - 8, y1 - 8)
        lons = [a[0] for _, a in members]
        lats = [a[1] for _, a in members]
        lo_lon, hi_lon = min(lons), max(lons)
        lo_lat, hi_lat = min(lats), max(lats)
        cx0, cx1 = inner[0] + BOX_W / 2, inner[2] - BOX_W / 2
        cy0, cy1 = inner[1] + BOX_H / 2, inner[3] - BOX_H / 2
        centres: dict[str, list[float]] = {}
        for rid, (lon, lat) in members:
            fx = 0.5 if hi_lon == lo_lon else (lon - lo_lon) / (hi_lon - lo_lon)
            fy = 0.5 if hi_lat == lo_lat else (hi_lat - lat) / (hi_lat - lo_lat)
            centres[rid] = [cx0 + fx * (cx1 - cx0), cy0 + fy * (cy1 - cy0)]
        _relax(centres, inner)
        for rid, (cx, cy) in centres.items():
            boxes[rid] = (
                round(cx - BOX_W / 2),
                round(cy - BOX_H / 2),
                round(cx + BOX_W / 2),
                round(cy + BOX_H / 2),
            )
    return MapLayout(ps, boxes)


def _clip(box: Box, inside: tuple[float, float], toward: tuple[float, float]) -> tuple[float, float]:
    """Where the segment from ``inside`` (the box's centre) to ``toward`` leaves ``box``."""
    x0, y0, x1, y1 = box
    cx, cy = inside
    dx, dy = toward[0] - cx, toward[1] - cy
    ts = []
    if dx:
        ts.append(((x1 if dx > 0 else x0) - cx) / dx)
    if dy:
        ts.append(((y1 if dy > 0 else y0) - cy) / dy)
    t = min(t for t in ts if t > 0) if ts else 0.0
    return cx + dx * t, cy + dy * t


def _centre(box: Box) -> tuple[float, float]:
    return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2


# --- drawing primitives -------------------------------------------------------------------------------


def _arrow_head(
    draw: ImageDraw.ImageDraw,
    tip: tuple[float, float],
    tail: tuple[float, float],
    colour: RGB,
    size: float = 13,
) -> None:
    ang = math.atan2(tip[1] - tail[1], tip[0] - tail[0])
    left = (tip[0] - size * math.cos(ang - 0.45), tip[1] - size * math.sin(ang - 0.45))
    right = (tip[0] - size * math.cos(ang + 0.45), tip[1] - size * math.sin(ang + 0.45))
    draw.polygon([tip, left, right], fill=colour)


def _dashed(
    draw: ImageDraw.ImageDraw,
    a: tuple[float, float],
    b: tuple[float, float],
    colour: RGB,
    width: int,
    dash: float = 10,
    gap: float = 7,
) -> None:
    length = math.dist(a, b)
    if length == 0:
        return
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    pos = 0.0
    while pos < length:
        end = min(pos + dash, length)
        draw.line(
            [(a[0] + ux * pos, a[1] + uy * pos), (a[0] + ux * end, a[1] + uy * end)], fill=colour, width=width
        )
        pos = end + gap


def _cube(draw: ImageDraw.ImageDraw, x: float, y: float, seat: int, n: int, size: int = CUBE) -> None:
    colour = player_colour(seat)
    # The seat's shape (render.marks), not a plain cube: colour alone does not tell every player apart.
    draw_piece(draw, seat, (x + size / 2, y + size / 2), size * 0.5, fill=colour, ink=INK, width=2)
    draw.text(
        (x + size / 2, y + size / 2 + 1), str(n), fill=player_text(seat), font=font(16, True), anchor="mm"
    )


def _disc(
    draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, seat: int, label: str | None = None
) -> None:
    draw_piece(draw, seat, (cx, cy), r, fill=player_colour(seat), ink=INK, width=2)
    text = label if label is not None else initial(seat)
    draw.text(
        (cx, cy + 1),
        text,
        fill=player_text(seat),
        font=font(int(r * (0.95 if len(text) < 3 else 0.8)), True),
        anchor="mm",
    )


def _chip(
    draw: ImageDraw.ImageDraw,
    x: float,
    y: float,
    text: str,
    fill: RGB,
    *,
    size: int = 14,
    ink: RGB = INK,
    outline: RGB = EDGE,
    bold: bool = False,
) -> float:
    """A rounded label at (x, y); returns its width."""
    f = font(size, bold)
    w = text_w(text, f) + 14
    draw.rounded_rectangle((x, y, x + w, y + size + 12), radius=6, fill=fill, outline=outline, width=1)
    draw.text((x + 7, y + 6 + size / 2), text, fill=ink, font=f, anchor="lm")
    return w


# --- the sections ----------------------------------------------------------------------------------------


def _header(draw: ImageDraw.ImageDraw, view: RiseView) -> None:
    era = int(view.get("era", 1))
    half = str(view.get("half", "A"))
    title = f"Rise of Empires · Era {ROMAN[era] if 0 < era < 4 else era} · Game turn {view.get('turn')} of 6"
    draw.rectangle((0, 0, BASE_W, HEAD_H), fill=(58, 50, 44))
    draw.text((MARGIN + 4, 26), title, fill=(250, 244, 230), font=font(30, True), anchor="lm")
    # The A/B turn marker.
    x = BASE_W - MARGIN - 2 * 58
    for i, h in enumerate(("A", "B")):
        on = h == half
        box = (x + i * 58, 8, x + i * 58 + 50, 58)
        draw.rounded_rectangle(
            box,
            radius=8,
            fill=(250, 230, 150) if on else (90, 80, 72),
            outline=(250, 244, 230) if on else (120, 110, 100),
            width=2,
        )
        draw.text(
            ((box[0] + box[2]) / 2, 34),
            h,
            fill=INK if on else (150, 140, 130),
            font=font(30, True),
            anchor="mm",
        )
    draw.text((x - 12, 34), "turn", fill=(220, 210, 195), font=font(18), anchor="rm")
    draw.text(
        (MARGIN + 4, 70),
        ellipsize(status_line(view), font(19), BASE_W - 2 * MARGIN - 200),
        fill=(240, 228, 205),
        font=font(19),
        anchor="lm",
    )


_STAGES: Final = {
    Stage.CHOOSE: "choosing an action",
    Stage.ACT: "taking the action",
    Stage.PLACE: "placing cubes",
    Stage.BATTLE: "choosing battles",
    Stage.AFTER: "using free progress tiles",
}
_PENDING: Final = {
    "food_upkeep": "keep {tile} (it eats food) or give it up",
    "upkeep": "pay {tile}'s resource upkeep or give it up",
    "keep_progress": "keep {tile} for 1 gold at the end of the era",
    "keep_city": "keep {tile} for 1 cube at the end of the era",
}


def _tile_names(view: RiseView) -> dict[str, str]:
    names: dict[str, str] = {}
    for ps in view["players_state"]:
        held: list[TileView] = [*ps["progress"], *ps["territory"], *ps["cities"]]
        for t in held:
            names[str(t["id"])] = str(t["name"])
    return names


def status_line(view: RiseView) -> str:
    """What is going on, in one line: the phase and who is doing what."""
    phase = Phase(view["phase"])  # a plain str once the view went through JSON
    if phase is Phase.OVER:
        final = view.get("final") or []
        ranking = view.get("ranking") or []
        if ranking and final:
            return f"Game over: {player_name(int(ranking[0]))} wins with {final[int(ranking[0])]} points."
        return "Game over."
    task = view.get("task")
    if phase is Phase.ACTIONS and task:
        seat = int(task["player"])
        done = int(view.get("actions_done", 0))
        total = int(view.get("actions_per_turn", 6)) * int(view.get("players", 1))
        stage = Stage(task["stage"])
        row = f" ({ROW_TITLES.get(str(task['row']), '')} row)" if task["row"] else ""
        line = f"Player actions: {player_name(seat)} is {_STAGES[stage]}{row} · action {done + 1} of {total}"
        side = task["side"]
        if stage in (Stage.PLACE, Stage.BATTLE) and side:
            water = ", water" if side["water"] else ""
            tile = str(task["empire"]).removeprefix("e")
            line += f" · empire tile {tile}: {side['regions']} regions{water}"
            regions = view["map"]["regions"]
            placed = [regions[r]["name"] if r in regions else r for r in task["placed"]]
            if placed:
                line += " · placed in " + ", ".join(placed)
        return line
    pending = view.get("pending") or []
    if pending:
        item = pending[0]
        tile = _tile_names(view).get(str(item["tile"]), str(item["tile"]))
        text = _PENDING.get(str(item["kind"]), "decide about {tile}").format(tile=tile)
        head = {Phase.FOOD_UPKEEP: "City upkeep", Phase.UPKEEP: "City upkeep",
                Phase.ERA_END: "End of the era"}.get(phase, "End of the era")
        return f"{head}: {player_name(int(item['player']))} to {text}"
    choice = view.get("order_choice")
    if phase is Phase.ORDER and choice and choice["choosers"]:
        return (
            f"Turn order: {player_name(int(choice['choosers'][0]))} chooses a position "
            "(least victory points first)"
        )
    return {
        Phase.ERA_END: f"End of era {ROMAN[int(view.get('era', 1))]}",
        Phase.FOOD_UPKEEP: "City upkeep",
        Phase.UPKEEP: "City upkeep",
        Phase.ORDER: "Turn order determination",
    }.get(phase, phase.replace("_", " "))


def _draw_map(img: Image.Image, top: int, view: RiseView, names: bool, highlight: set[str]) -> None:
    """The map strip at ``top``: its terrain (:func:`_draw_terrain`), then every region's pieces."""
    _draw_terrain(img, top, view, names)
    draw = StampDraw(img)
    lay = layout(view["map"]["regions"])
    for rid in sorted(view["map"]["regions"]):
        _draw_region_pieces(draw, view, lay, rid, top, highlight)


def _draw_terrain(img: Image.Image, top: int, view: RiseView, names: bool) -> None:
    """What of the map strip at ``top`` changes only with the map's regions and links (their era,
    names, yields and standards, as :func:`_terrain_key` lists them): the panels, the legend, the
    links and the region boxes with their words, without the cubes or an outline."""
    draw = StampDraw(img)
    m = view["map"]
    regions = m["regions"]
    lay = layout(regions)

    def off(box: Box) -> Box:
        return box[0], box[1] + top, box[2], box[3] + top

    for panel in lay.panels:
        x0, y0, x1, y1 = off(panel.box)
        draw.rounded_rectangle(
            (x0, y0 - 34, x1, y1), radius=14, fill=palette.RISE_OCEAN, outline=(150, 175, 195), width=2
        )
        draw.text(
            ((x0 + x1) / 2, y0 - 16),
            PART_TITLES[panel.part],
            fill=(50, 80, 110),
            font=font(20, True),
            anchor="mm",
        )
        if panel.part == "old":  # the legend: era colours, the sea, the arrows
            lx = x0 + 12
            for era, colour in ((1, "cream"), (2, "green"), (3, "blue")):
                fill = palette.RISE_ERA_COLOURS[colour]
                lx += _chip(draw, lx, y0 - 29, f"Era {ROMAN[era]}", fill, size=13, bold=True) + 6
            lx += (
                _chip(draw, lx, y0 - 29, "Sea", palette.RISE_SEA, size=13, ink=(255, 255, 255), bold=True)
                + 14
            )
            _dashed(draw, (x1 - 150, y0 - 16), (x1 - 110, y0 - 16), ARROW, 4)
            _arrow_head(draw, (x1 - 104, y0 - 16), (x1 - 150, y0 - 16), ARROW, 11)
            draw.text((x1 - 98, y0 - 16), "over water", fill=(50, 80, 110), font=font(13, True), anchor="lm")
    # Links under the boxes: land links as bars between the edges, water crossings as arrows.
    for a, b, arrow in m["links"]:
        if a not in lay.boxes or b not in lay.boxes:
            continue
        ba, bb = off(lay.boxes[a]), off(lay.boxes[b])
        ca, cb = _centre(ba), _centre(bb)
        pa, pb = _clip(ba, ca, cb), _clip(bb, cb, ca)
        if arrow:
            _dashed(draw, pa, pb, ARROW, 4)
            _arrow_head(draw, pa, pb, ARROW)
            _arrow_head(draw, pb, pa, ARROW)
        else:
            draw.line([pa, pb], fill=LINK, width=7)
    for rid in sorted(regions):
        r = regions[rid]
        box = off(lay.boxes[rid])
        sea = bool(r.get("sea"))
        fill = palette.RISE_SEA if sea else palette.RISE_ERA_COLOURS.get(str(r.get("colour")), palette.BARREN)
        draw.rounded_rectangle(box, radius=10, fill=fill, outline=EDGE, width=2)
        ink = (255, 255, 255) if sea else INK
        era = int(r.get("era", 1))
        # Era numeral in the top-right corner (the fill says it too, but not to everyone).
        draw.text(
            (box[2] - 8, box[1] + 5),
            ROMAN[era] if 0 < era < 4 else str(era),
            fill=ink,
            font=font(16, True),
            anchor="ra",
        )
        name_top = box[1] + 6
        if names:
            f = font(16, True)
            # The era numeral shares the first line only.
            lines = wrap(str(r.get("name", rid)), f, BOX_W - 34, rest=BOX_W - 16)
            if lines and lines[-1].endswith("…"):  # a long name: a size smaller rather than cut
                f = font(14, True)
                lines = wrap(str(r.get("name", rid)), f, BOX_W - 34, rest=BOX_W - 16)
            for i, line in enumerate(lines):
                draw.text((box[0] + 8, name_top + i * 19), line, fill=ink, font=f, anchor="la")
        std = r.get("standard") or [0, 0]
        std_text = f"{std[0]}/{std[1]} VP"
        ytext = yields_text(r.get("yields") or {})
        # As large as the line allows (it is read at chat size, half this width): two yields take a
        # size or two smaller, the VP too when still needed, rather than be cut.
        vp_f, yf = next(((font(v, True), font(y)) for v, y in ((16, 16), (16, 14), (16, 12), (14, 12))
                         if text_w(std_text, font(v, True)) + text_w(ytext, font(y)) <= BOX_W - 24),
                        (font(14, True), font(12)))
        room = BOX_W - 24 - text_w(std_text, vp_f)
        draw.text((box[0] + 8, box[1] + 48), std_text, fill=ink if sea else VP_INK, font=vp_f, anchor="la")
        draw.text(
            (box[2] - 8, box[1] + 49),
            ellipsize(ytext, yf, room),
            fill=ink,
            font=yf,
            anchor="ra",
        )


def _terrain_key(view: RiseView, names: bool) -> tuple[Any, ...]:
    """Everything :func:`_draw_terrain` reads of ``view``: the same key, the same terrain."""
    m = view["map"]
    regions = tuple(sorted(
        (str(rid), repr([r["name"], r["sea"], r["colour"], r["era"], r["standard"], r["yields"], r["part"],
                         r["anchor"]]))
        for rid, r in m["regions"].items()
    ))
    return names, regions, repr(m["links"])


# Px round a region box that its pieces may reach: the outline's outer ring (4 px out, 5 wide).
_PIECES_REACH: Final = 8


def _pieces_box(box: Box) -> Box:
    """What :func:`_draw_region_pieces` may draw on round a region's ``box``."""
    return (box[0] - _PIECES_REACH, box[1] - _PIECES_REACH, box[2] + _PIECES_REACH, box[3] + _PIECES_REACH)


def _has_pieces(view: RiseView, rid: str, highlight: set[str]) -> bool:
    """Whether :func:`_draw_region_pieces` draws anything for ``rid``."""
    return rid in highlight or any(int(n) > 0 for n in view["map"]["cubes"].get(rid, []))


def _draw_region_pieces(draw: ImageDraw.ImageDraw, view: RiseView, lay: MapLayout, rid: str,
                        top: int, highlight: set[str], dx: int = 0, dy: int = 0) -> None:
    """A region's cubes (with 1st/2nd under the leaders) and its outline when highlighted, on the map
    strip at ``top`` of the picture, drawn on a canvas whose top-left corner is at (``dx``, ``dy``) on
    the picture (an even point: Pillow rounds halves to even, so an odd shift could move an edge)."""
    m = view["map"]
    r = m["regions"][rid]
    ink = (255, 255, 255) if r.get("sea") else INK
    box = lay.boxes[rid]
    x0, y0, x1, y1 = box[0] - dx, box[1] + top - dy, box[2] - dx, box[3] + top - dy
    counts = list(m["cubes"].get(rid, []))
    ctrl = m["control"].get(rid)
    first = {int(s) for s in ctrl["first"]} if ctrl else set()
    second = {int(s) for s in ctrl["second"]} if ctrl else set()
    present = [(s, int(n)) for s, n in enumerate(counts) if int(n) > 0]
    for (x, y), (seat, n) in zip(lay.cube_slots(rid), present, strict=False):
        x, y = x - dx, y + top - dy
        _cube(draw, x, y, seat, n)
        mark = "1st" if seat in first else ("2nd" if seat in second else "")
        if mark:
            draw.text((x + CUBE / 2, y + CUBE + 10), mark, fill=ink, font=font(14, True), anchor="mm")
    if rid in highlight:
        draw.rounded_rectangle((x0 - 4, y0 - 4, x1 + 4, y1 + 4), radius=13, outline=HIGHLIGHT_OUT, width=5)
        draw.rounded_rectangle((x0 - 1, y0 - 1, x1 + 1, y1 + 1), radius=11, outline=HIGHLIGHT_IN, width=2)


# --- the dashboard's sections ------------------------------------------------------------------------
# Each section of the dashboard is a static layer (frames, titles, scales, a player's name and tiles:
# what changes a few times a game) and patches over it (discs, markers, figures: what changes every
# turn); see render/layers.py. Drawn whole, every static layer goes first, then every patch.


def _section_rect(x0: float, y0: float, x1: float, y1: float) -> Rect:
    """A rect of the dashboard (drawing coordinates) on whole squares of every factor it is reduced
    by (2, a notice's 800 px), its corner even."""
    return aligned((x0, y0, x1, y1), 2, BASE_W, 1 << 30)


def _circles(display: Mapping[str, RowView], row: str) -> list[int]:
    """The circles of ``row`` on the action display, a seat or -1 each (none when it has no such row)."""
    return list(display[row]["circles"]) if row in display else []


def _display_section(top: int, view: RiseView) -> tuple[Section, int]:
    """The action display and the trade track at ``top``, and the height they take."""
    half = str(view.get("half", "A"))
    display = view["display"]
    costs: Mapping[str, Sequence[int | None]] = view.get("removal_costs") or {}
    current = view.get("current")
    left = MARGIN
    width = 880
    row_h = 62
    head = 40
    rows = [r for r in ROWS if r in display] or list(ROWS)
    height = head + row_h * len(rows) + 12
    r = 20
    pitch = 66
    trade = view["trade"]
    tx = left + width + 16
    tw = BASE_W - MARGIN - tx
    cols = 2
    bw = (tw - 28 - (cols - 1) * 10) / cols
    bh = (height - head - 12 - 4 * 8) / 5
    era = int(view.get("era", 1))

    def row_y(i: int) -> float:
        return top + head + i * row_h + row_h / 2 - 4

    def trade_box(i: int) -> tuple[float, float]:
        c, rr = i % cols, i // cols
        return tx + 14 + c * (bw + 10), top + head + rr * (bh + 8)

    def static(draw: ShiftDraw) -> None:
        draw.rounded_rectangle(
            (left, top, left + width, top + height), radius=12, fill=CARD, outline=EDGE, width=2
        )
        rule = (
            "A turn: a disc goes into the rightmost free circle"
            if half == "A"
            else "B turn: take a disc back, paying 1 per disc to its left"
        )
        draw.text((left + 14, top + 20), "Action display", fill=INK, font=font(20, True), anchor="lm")
        draw.text((left + 190, top + 20), rule, fill=MUTED, font=font(16), anchor="lm")
        for i, row in enumerate(rows):
            draw.text((left + 14, row_y(i)), ROW_TITLES[row], fill=INK, font=font(17, True), anchor="lm")
        # The trade track.
        draw.rounded_rectangle((tx, top, tx + tw, top + height), radius=12, fill=CARD, outline=EDGE, width=2)
        draw.text((tx + 14, top + 20), "Trade track", fill=INK, font=font(20, True), anchor="lm")
        draw.text(
            (tx + tw - 14, top + 20),
            f"era {ROMAN[era]} boxes open",
            fill=MUTED,
            font=font(15),
            anchor="rm",
        )
        for i, box in enumerate(trade):
            bx, by = trade_box(i)
            is_open = bool(box.get("open"))
            fill = (255, 255, 255) if is_open else (222, 216, 204)
            draw.rounded_rectangle(
                (bx, by, bx + bw, by + bh),
                radius=8,
                fill=fill,
                outline=INK if is_open else (180, 170, 155),
                width=2 if is_open else 1,
            )
            gets = " + ".join(
                x
                for x in (
                    f"{box['gold']} gold" if box.get("gold") else "",
                    f"{box['vp']} VP" if box.get("vp") else "",
                )
                if x
            )
            ink = INK if is_open else (150, 140, 128)
            draw.text(
                (bx + 10, by + bh / 2 - 9),
                f"{box['resources']} res. → {gets}",
                fill=ink,
                font=font(16, True),
                anchor="lm",
            )
            eras = " ".join(ROMAN[int(e)] for e in box.get("eras", []))
            draw.text((bx + 10, by + bh / 2 + 12), f"eras {eras}", fill=MUTED, font=font(14), anchor="lm")

    def circles(draw: ShiftDraw) -> None:
        for i, row in enumerate(rows):
            y = row_y(i)
            circles = _circles(display, row)
            row_costs = list(costs.get(row, []))
            free = max((k for k, c in enumerate(circles) if int(c) < 0), default=-1)
            for k, owner in enumerate(circles):
                cx = left + 150 + k * pitch + r
                if int(owner) >= 0:
                    _disc(draw, cx, y, r, int(owner))
                else:
                    nxt = half == "A" and k == free
                    draw.ellipse(
                        (cx - r, y - r, cx + r, y + r),
                        fill=(255, 255, 255) if nxt else (236, 230, 216),
                        outline=INK if nxt else (170, 160, 145),
                        width=3 if nxt else 2,
                    )
                    if nxt:
                        draw.text((cx, y), "next", fill=MUTED, font=font(12, True), anchor="mm")
                if half == "B" and k < len(row_costs) and row_costs[k] is not None and current is not None:
                    cost = int(row_costs[k] or 0)
                    draw.text(
                        (cx, y + r + 9),
                        "free" if cost == 0 else f"pay {cost}",
                        fill=VP_INK,
                        font=font(15, True),
                        anchor="mm",
                    )

    patches: list[tuple[Rect, Drawer]] = []
    most = max((len(_circles(display, row)) for row in rows), default=0)
    if most:
        # The circles, the discs in them and the prices under them (a price is wider than a circle).
        end = left + 150 + (most - 1) * pitch + 2 * r + 30
        last = row_y(len(rows) - 1) + r + 22
        patches.append((_section_rect(left + 140, row_y(0) - r - 4, end, last), circles))
    if half == "B" and current is not None and costs:
        label = f"prices for {player_name(int(current))}"

        def prices(draw: ShiftDraw) -> None:
            draw.text((left + width - 14, top + 20), label, fill=VP_INK, font=font(15, True), anchor="rm")

        w = text_w(label, font(15, True))
        patches.append((_section_rect(left + width - 18 - w, top + 6, left + width - 10, top + 34), prices))
    for i, box in enumerate(trade):
        used = box.get("used_by")
        if used is None:
            continue
        bx, by = trade_box(i)
        cx, cy = bx + bw - 22, by + bh / 2

        def used_disc(draw: ShiftDraw, cx: float = cx, cy: float = cy, seat: int = int(used)) -> None:
            _disc(draw, cx, cy, 15, seat)

        patches.append((_section_rect(cx - 18, cy - 18, cx + 18, cy + 18), used_disc))
    key = ("display", top, tuple(rows), half, era,
           repr([[b["open"], b["resources"], b["gold"], b["vp"], b["eras"]] for b in trade]))
    return Section(key, _section_rect(0, top, BASE_W - 1, top + height + 1), static, tuple(patches)), height


def _tracks_section(top: int, view: RiseView) -> tuple[Section, int]:
    """Food track, victory point track, turn order at ``top``, and the height they take."""
    ps = view["players_state"]
    left = MARGIN
    width = BASE_W - 2 * MARGIN
    height = 290
    # Food track: 0..20 (the top from the data is not in the view; 20 is the rulebook's top).
    food_max = max(20, *(int(p.get("food", 0)) for p in ps)) if ps else 20
    label_w = 120
    cells = food_max + 1
    cw = (width - label_w - 14) / cells
    fy = top + 14
    ch = 64
    # Victory point track: a ruler with a marker per player (stacked where they meet).
    vy = fy + ch + 78
    vps = [int(p.get("vp", 0)) for p in ps]
    top_vp = max(50, math.ceil(max(vps, default=0) / 25) * 25)
    x0, x1 = left + label_w + 14, left + width - 30
    oy = top + height - 52

    def static(draw: ShiftDraw) -> None:
        draw.rounded_rectangle(
            (left, top, left + width, top + height), radius=12, fill=CARD, outline=EDGE, width=2
        )
        draw.text((left + 14, fy + ch / 2), "Food", fill=INK, font=font(20, True), anchor="lm")
        for k in range(cells):
            x = left + label_w + k * cw
            fill = (235, 245, 222) if k else (245, 220, 214)
            draw.rectangle((x, fy, x + cw, fy + ch), fill=fill, outline=(190, 180, 165))
            draw.text((x + 4, fy + 3), str(k), fill=MUTED, font=font(15), anchor="la")
        draw.text((left + 14, vy), "VP", fill=INK, font=font(20, True), anchor="lm")
        draw.line([(x0, vy), (x1, vy)], fill=INK, width=3)
        step = 5
        for v in range(0, top_vp + 1, step):
            x = x0 + (x1 - x0) * v / top_vp
            big = v % 25 == 0
            draw.line([(x, vy - (9 if big else 5)), (x, vy + (9 if big else 5))], fill=INK,
                      width=2 if big else 1)
            if big:
                draw.text((x, vy + 22), str(v), fill=MUTED, font=font(15), anchor="mm")
        draw.text((left + 14, oy + 20), "Order", fill=INK, font=font(20, True), anchor="lm")

    def food(draw: ShiftDraw) -> None:
        by_cell: dict[int, list[int]] = {}
        for p in ps:
            by_cell.setdefault(int(p.get("food", 0)), []).append(int(p["seat"]))
        for k, seats in by_cell.items():
            x = left + label_w + min(k, food_max) * cw
            for j, seat in enumerate(seats):
                col, row = j % 3, j // 3
                _disc(draw, x + 13 + col * 23, fy + 30 + row * 23, 11, seat)

    def markers(draw: ShiftDraw) -> None:
        # Markers in one row above the ruler, spread apart where players are close, each with a
        # leader line down to its true place.
        seats = sorted(range(len(vps)), key=lambda s: (vps[s], s))
        want = [x0 + (x1 - x0) * vps[s] / top_vp for s in seats]
        radius = 20 if max(vps, default=0) >= 100 else 17  # three digits need a wider marker
        spread = _spread(want, 2 * radius + 4, x0, x1 + 18)
        for seat, x, at in zip(seats, want, spread, strict=True):
            cy = vy - 34
            draw.line([(x, vy), (at, cy)], fill=player_colour(seat), width=3)
            _disc(draw, at, cy, radius, seat, str(vps[seat]))

    def turn_order(draw: ShiftDraw) -> None:
        order = [int(s) for s in view.get("order", [])]
        choice = view.get("order_choice")
        x: float = left + label_w
        current = view.get("current")
        for pos, seat in enumerate(order):
            w = _chip(
                draw,
                x,
                oy + 4,
                f"{pos + 1}. {player_name(seat)}",
                player_colour(seat),
                size=17,
                ink=player_text(seat),
                outline=INK,
                bold=True,
            )
            if current is not None and int(current) == seat:
                draw.text((x + w / 2, oy + 42), "▲ to act", fill=INK, font=font(14, True), anchor="mm")
            x += w + 12
        if choice and Phase(view["phase"]) is Phase.ORDER:
            x += 24
            draw.text((x, oy + 20), "Next turn:", fill=INK, font=font(17, True), anchor="lm")
            x += 100
            for pos, seat in enumerate(choice.get("positions", [])):
                text = f"{pos + 1}. {player_name(int(seat))}" if int(seat) >= 0 else f"{pos + 1}. ?"
                fill = player_colour(int(seat)) if int(seat) >= 0 else (236, 230, 216)
                ink = player_text(int(seat)) if int(seat) >= 0 else MUTED
                x += _chip(draw, x, oy + 4, text, fill, size=17, ink=ink, outline=INK, bold=True) + 10

    patches: tuple[tuple[Rect, Drawer], ...] = (
        (_section_rect(left + label_w - 2, fy - 2, left + width + 1, fy + ch + 1), food),
        (_section_rect(x0 - 24, vy - 34 - 24, BASE_W - 1, vy + 2), markers),  # a marker reaches 20 px
        (_section_rect(left + label_w - 2, oy, BASE_W - 1, oy + 51), turn_order),
    )
    key = ("tracks", top, food_max, top_vp)
    return Section(key, _section_rect(0, top, BASE_W - 1, top + height + 1), static, patches), height


def _spread(xs: Sequence[float], gap: float, lo: float, hi: float) -> list[float]:
    """``xs`` (ascending) moved apart to at least ``gap`` between neighbours, kept within [lo, hi]."""
    out = [max(lo, x) for x in xs]
    for i in range(1, len(out)):
        out[i] = max(out[i], out[i - 1] + gap)
    if out and out[-1] > hi:
        out[-1] = hi
        for i in range(len(out) - 2, -1, -1):
            out[i] = min(out[i], out[i + 1] - gap)
    return out


def _flow(
    items: Sequence[tuple[str, RGB, RGB]], x0: float, x1: float, f: ImageFont.FreeTypeFont, row_h: float
) -> list[tuple[float, float, str, RGB, RGB]]:
    """Chips laid out left to right, wrapping at ``x1``: (x, row, text, fill, ink)."""
    out: list[tuple[float, float, str, RGB, RGB]] = []
    x, row = x0, 0.0
    for text, fill, ink in items:
        w = text_w(text, f) + 14
        if x + w > x1 and x > x0:
            x, row = x0, row + row_h
        out.append((x, row, text, fill, ink))
        x += w + 6
    return out


def _tile_chips(p: PlayerView) -> list[tuple[str, list[tuple[str, RGB, RGB]]]]:
    used = set(p.get("used", []))
    groups: list[tuple[str, list[tuple[str, RGB, RGB]]]] = []
    prog: list[tuple[str, RGB, RGB]] = []
    for t in p.get("progress", []):
        era = int(t.get("era", 1))
        fill = palette.RISE_ERA_COLOURS[("cream", "green", "blue")[max(0, min(era, 3) - 1)]]
        mark = " ✓" if t["id"] in used else (" ★" if t.get("free") else "")
        prog.append((f"{t['name']} {ROMAN[era] if 0 < era < 4 else era}{mark}", fill, INK))
    groups.append(("Progress", prog))
    counts: dict[str, int] = {}
    for land in p.get("territory", []):
        counts[str(land["name"])] = counts.get(str(land["name"]), 0) + 1
    groups.append(
        ("Territory", [(f"{n} x{c}" if c > 1 else n, (226, 236, 214), INK) for n, c in counts.items()])
    )
    cities = [(f"{c['name']} ({c['vp']} VP)", (246, 226, 206), INK) for c in p.get("cities", [])]
    groups.append(("Cities", cities))
    emp = []
    for e in p.get("empires", []):
        water = ", water" if e.get("water") else ""
        emp.append(
            (f"Empire {str(e['id']).removeprefix('e')}: {e['regions']} regions{water}", (214, 226, 240), INK)
        )
    if emp:
        groups.append(("Empire", emp))
    return groups


def final_text(view: RiseView, seat: int) -> str:
    """``1st place · 125 points`` (the ranking breaks ties by gold)."""
    final = view.get("final") or []
    ranking = [int(s) for s in view.get("ranking") or []]
    points = f"{final[seat]} points" if seat < len(final) else ""
    if seat in ranking:
        place = ranking.index(seat) + 1
        suffix = {1: "st", 2: "nd", 3: "rd"}.get(place, "th")
        return f"{place}{suffix} place · {points}"
    return f"final score: {points}"


def _panel_sections(top: int, view: RiseView, columns: int = 1, people: Sequence[str] = ()
                    ) -> tuple[list[Section], int]:
    """Every player's panel, in ``columns`` columns (each panel goes under the shortest one, so the
    order reads left to right, then down), and the height they take. A panel's layer holds its frame,
    name and tiles; its figures and its "to act" are patches. ``people`` (a name per seat) names the
    person beside the colour."""
    ps = view["players_state"]
    # In turn order while playing; by final rank once the game is over.
    order = [int(s) for s in view.get("ranking") or view.get("order", [])] or list(range(len(ps)))
    order += [s for s in range(len(ps)) if s not in order]
    yields = view.get("yields") or []
    final = view.get("final")
    current = view.get("current")
    actors = {int(a) for a in view.get("actors", [])}
    seen_by = view.get("you")
    you = seen_by["player"] if seen_by else None
    gutter = 12
    col_w = (BASE_W - 2 * MARGIN - gutter * (columns - 1)) / columns
    bottoms = [top] * columns
    # Read at chat size (half this width): the figures and tiles a size or two above the map's.
    chip_f = font(17)
    stat_f = font(20, True)
    label_w = 112
    sections: list[Section] = []
    for seat in order:
        p = ps[seat]
        colour = player_colour(seat)
        col = bottoms.index(min(bottoms))
        y = bottoms[col]
        left = round(MARGIN + col * (col_w + gutter))
        right = round(left + col_w)
        groups = _tile_chips(p)
        stats = [
            (f"{p.get('vp', 0)} VP", VP_INK),
            (f"{p.get('gold', 0)} gold", (150, 110, 10)),
            (f"{p.get('resources', 0)} resource discs", RES),
            (f"{p.get('food', 0)} food", (70, 120, 30)),
            (f"cubes {p.get('pool', 0)} pool · {p.get('on_map', 0)} map · {p.get('stock', 0)} stock", INK),
        ]
        this_turn = f"this turn: {yields_text(yields[seat])}" if seat < len(yields) and final is None else ""
        # The figures wrap onto more lines in a narrow column; this turn's yield goes on a line of its
        # own when it does not fit after them.
        placed: list[tuple[float, float, str, RGB]] = []
        sx, line = float(left + 36), 0.0
        for text, ink in stats:
            w = text_w(text, stat_f)
            if sx + w > right - 14 and sx > left + 36:
                sx, line = float(left + 36), line + 28
            placed.append((sx, line, text, ink))
            sx += w + 26
        turn_line = line
        if this_turn and sx + text_w(this_turn, font(17)) > right - 14:
            turn_line = line + 26
        extra = turn_line
        base_off = 74 + extra
        rows_h = 0.0
        laid: list[tuple[str, list[tuple[float, float, str, RGB, RGB]], float]] = []
        for title, items in groups:
            flowed = _flow(items, left + 36 + label_w, right - 12, chip_f, 34)
            h = (max((r for _, r, *_ in flowed), default=0.0) + 34) if flowed else 34
            laid.append((title, flowed, rows_h))
            rows_h += h
        height = int(78 + extra + rows_h + 10)
        name = seat_label(player_name(seat), seat, you, people)
        name_x = left + 36 + text_w(name, font(22, True)) + 14
        acting = seat in actors or (current is not None and int(current) == seat)
        result = final_text(view, seat) if final is not None else None

        def static(draw: ShiftDraw, y: int = y, left: int = left, right: int = right, height: int = height,
                   colour: RGB = colour, base_off: float = base_off,
                   laid: list[tuple[str, list[tuple[float, float, str, RGB, RGB]], float]] = laid) -> None:
            draw.rounded_rectangle((left, y, right, y + height), radius=12, fill=CARD, outline=EDGE, width=2)
            draw.rounded_rectangle((left, y, left + 22, y + height), radius=8, fill=colour, outline=INK,
                                   width=1)
            base = y + base_off
            for title, flowed, offset in laid:
                draw.text((left + 36, base + offset + 16), title, fill=MUTED, font=font(16, True),
                          anchor="lm")
                if not flowed:
                    draw.text(
                        (left + 36 + label_w, base + offset + 16),
                        "none",
                        fill=(160, 150, 140),
                        font=chip_f,
                        anchor="lm",
                    )
                for x, r, text, fill, ink in flowed:
                    _chip(draw, x, base + offset + r, text, fill, size=17, ink=ink)

        def heading(draw: ShiftDraw, y: int = y, left: int = left, seat: int = seat, colour: RGB = colour,
                    name: str = name, nx: float = name_x, acting: bool = acting, result: str | None = result
                    ) -> None:
            draw.text((left + 36, y + 22), name, fill=INK, font=font(22, True), anchor="lm")
            if acting:
                nx += _chip(
                    draw, nx, y + 9, "to act", colour, size=14, ink=player_text(seat), outline=INK, bold=True
                )
                nx += 8
            if result is not None:
                _chip(draw, nx, y + 9, result, (250, 236, 170), size=14, outline=INK, bold=True)

        def figures(draw: ShiftDraw, y: int = y, right: int = right, turn_line: float = turn_line,
                    placed: list[tuple[float, float, str, RGB]] = placed, this_turn: str = this_turn) -> None:
            for x, dy, text, ink in placed:
                draw.text((x, y + 54 + dy), text, fill=ink, font=stat_f, anchor="lm")
            if this_turn:
                draw.text((right - 14, y + 54 + turn_line), this_turn, fill=MUTED, font=font(17), anchor="rm")

        # The name (the reader's says "(you)": every reader's notice has its own) and the chips after
        # it (26 px high, from y + 9); the figures under them.
        patches: list[tuple[Rect, Drawer]] = [
            (_section_rect(left + 34, y + 6, right + 1, y + 35), heading),
            (_section_rect(left + 34, y + 38, right - 4, y + 54 + turn_line + 16), figures),
        ]
        # The layer is the same wherever the panel stands (its corner is always even) and whoever reads.
        key = ("panel", seat, left, right, height, base_off, repr(laid))
        rect = _section_rect(left, y, right + 1, y + height + 1)
        sections.append(Section(key, rect, static, tuple(patches)))
        bottoms[col] = y + height + 10
    return sections, max(bottoms) - top


# --- the picture --------------------------------------------------------------------------------------


def check_view(view: RiseView, highlight: Iterable[str]) -> set[str]:
    """The highlight as a set, after refusing a view of another game or an unknown region."""
    if view.get("game") != GAME_ID:
        raise ValueError(f"not a Rise of Empires view (game {view.get('game')!r})")
    regions = view["map"]["regions"]
    wanted = {str(h) for h in highlight}
    unknown = sorted(wanted - set(regions))
    if unknown:
        raise ValueError(f"unknown region(s) to highlight: {', '.join(unknown)}")
    return wanted




MAP_PICTURE_H: Final = HEAD_H + MAP_H + 16
# The map's terrain (:func:`_draw_terrain`) by :func:`_terrain_key`, at full size and reduced (5.5 MB
# a terrain): a game's map changes at an era's start, and a few games are drawn at once.
_TERRAIN: Final = LayerCache(keep=4)


def _map_image(view: RiseView, names: bool, marked: set[str]) -> Image.Image:
    canvas = Image.new("RGB", (BASE_W, MAP_PICTURE_H), PAPER)
    _header(StampDraw(canvas), view)
    _draw_map(canvas, HEAD_H + 8, view, names, marked)
    return canvas


_HEADER_RECT: Final = aligned((0, 0, BASE_W - 1, HEAD_H), 2, BASE_W, MAP_PICTURE_H)


def _header_part(view: RiseView, factor: int) -> Image.Image:
    """The header as the top of both pictures of a notice has it, reduced by ``factor``."""
    canvas = Image.new("RGB", (_HEADER_RECT[2], _HEADER_RECT[3]), PAPER)
    _header(ShiftDraw(canvas), view)
    return canvas.reduce(factor) if factor > 1 else canvas


def _map_reduced(view: RiseView, names: bool, marked: set[str], factor: int,
                 header: Image.Image | None = None) -> Image.Image:
    """:func:`_map_image` reduced by ``factor`` (as :func:`render.layers.reduce_whole`), its terrain
    kept (see render/layers.py): only the header (unless given, from :func:`_header_part`) and the
    regions with pieces or an outline are drawn."""
    def terrain() -> Image.Image:
        canvas = Image.new("RGB", (BASE_W, MAP_PICTURE_H), PAPER)
        _draw_terrain(canvas, HEAD_H + 8, view, names)
        return canvas

    full, reduced = _TERRAIN.get(_terrain_key(view, names), terrain, factor)
    patches: list[tuple[Rect, Painter]] = [] if header is not None else [
        (_HEADER_RECT, lambda canvas, at: _header(StampDraw(canvas), view)),
    ]
    regions = view["map"]["regions"]
    lay = layout(regions)
    top = HEAD_H + 8
    for rid in sorted(regions):
        if not _has_pieces(view, rid, marked):
            continue
        b = lay.boxes[rid]

        def paint(canvas: Image.Image, at: tuple[int, int], rid: str = rid) -> None:
            _draw_region_pieces(StampDraw(canvas), view, lay, rid, top, marked, at[0], at[1])

        patches.append((aligned(_pieces_box((b[0], b[1] + top, b[2], b[3] + top)), factor, BASE_W,
                                MAP_PICTURE_H), paint))
    out = compose(full, reduced, factor, patches)
    if out is None:  # regions too close for patches of their own (never on the game's map)
        return reduce_whole(_map_image(view, names, marked), factor)
    if header is not None:
        out.paste(header, (0, 0))
    return out


def _dashboard_sections(view: RiseView, columns: int | None = None, people: Sequence[str] = ()
                        ) -> tuple[list[Section], int]:
    """The dashboard's sections (the header, the action display, the tracks and the players' panels
    in ``columns`` columns; None: one, or two where one would make the picture taller than wide) and
    its height."""
    head = _section_rect(0, 0, BASE_W - 1, HEAD_H)
    sections = [Section(None, head, None, ((head, lambda draw: _header(draw, view)),))]
    y = HEAD_H + 8
    display, used = _display_section(y, view)
    y += used + 12
    tracks, used = _tracks_section(y, view)
    y += used + 12
    sections += [display, tracks]
    if columns is None:
        # Two columns at once where even the smallest panels would not fit in one; else one, or two
        # when one turns out too tall.
        columns = 2 if y + _least_column(view) + 6 > BASE_W else 1
        panels, used = _panel_sections(y, view, columns, people)
        if columns == 1 and y + used + 6 > BASE_W:
            panels, used = _panel_sections(y, view, 2, people)
    else:
        panels, used = _panel_sections(y, view, columns, people)
    return sections + panels, y + used + 6


def _dashboard_image(view: RiseView, columns: int | None = None, people: Sequence[str] = ()
                     ) -> Image.Image:
    """The header, the action display, the tracks and the players' panels in ``columns`` columns
    (None: one, or two where one would make the picture taller than wide), drawn whole."""
    sections, height = _dashboard_sections(view, columns, people)
    return draw_sections((BASE_W, height), PAPER, sections)


# The dashboard's static layers (frames, scales, each panel's name and tiles) by what they show, at
# full size and reduced (about 1 MB a section): a few games' worth of sections.
_DASHBOARD: Final = LayerCache(keep=32)


def _dashboard_reduced(view: RiseView, factor: int, header: Image.Image | None = None,
                       people: Sequence[str] = ()) -> Image.Image | None:
    """:func:`_dashboard_image` reduced by ``factor``, from kept layers (see render/layers.py), with
    ``header`` (from :func:`_header_part`) when given; None when it is taller than wide
    (:func:`render_dashboard` widens it then)."""
    sections, height = _dashboard_sections(view, people=people)
    if height > BASE_W:
        return None
    if header is None:
        return compose_sections((BASE_W, height), PAPER, sections, factor, _DASHBOARD)
    out = compose_sections((BASE_W, height), PAPER, sections[1:], factor, _DASHBOARD)
    if out is not None:
        out.paste(header, (0, 0))
    return out


def _least_column(view: RiseView) -> int:
    """The height every player's panel in one column takes at least (as :func:`_draw_players` lays
    them out: a panel's name and figures, a row per group of tiles, and the gap under it)."""
    return sum(78 + 34 * len(_tile_chips(p)) + 10 + 10 for p in view.get("players_state", []))


def render_image(
    view: RiseView, *, names: bool = True, highlight: Iterable[str] = ()
) -> Image.Image:
    """The whole board (the map above the dashboard) at BASE_W px wide as a Pillow image."""
    marked = check_view(view, highlight)
    top = _map_image(view, names, marked)
    bottom = _dashboard_image(view, 1)
    canvas = Image.new("RGB", (BASE_W, top.height + bottom.height - HEAD_H - 8), PAPER)
    canvas.paste(top, (0, 0))
    canvas.paste(bottom.crop((0, HEAD_H + 8, BASE_W, bottom.height)), (0, top.height))
    return canvas


def _factor(size: int) -> int | None:
    """How many px of the drawing make one of a ``size`` px wide picture, when a whole number."""
    return BASE_W // size if BASE_W % size == 0 else None


def _scaled(img: Image.Image, size: int) -> bytes:
    """``img`` (drawn at BASE_W) ``size`` px wide, as PNG bytes."""
    if size < 200:
        raise ValueError(f"size {size} is too small to read")
    factor = img.width // size
    if size * factor == img.width and factor > 1:
        # A whole fraction (800 px, a turn notice's width, is half): each pixel the mean of a square
        # of the drawing, as a box filter gives, at a tenth of the cost of Lanczos (which cost more
        # than drawing the picture) and with fewer stray colours to encode; it reads the same. The
        # last row or so of the bottom margin goes, so the squares fit.
        img = img.crop((0, 0, img.width, img.height - img.height % factor)).reduce(factor)
    elif size != img.width:
        img = img.resize((size, round(img.height * size / img.width)), Image.Resampling.LANCZOS)
    return encode_png(img)


def render_board(
    view: RiseView, *, names: bool = True, highlight: Sequence[str] = (), size: int = 1600
) -> bytes:
    """The whole board of a Rise of Empires view (the map above the dashboard) as PNG bytes,
    ``size`` px wide. A chat message carries :func:`render_map` and :func:`render_dashboard`
    instead: each of them is no taller than wide.

    Args:
        view: ``GAME.view(state, viewer)`` (JSON-native; see engine/rise/game.py).
        names: write the region names on the map.
        highlight: region ids to outline (e.g. where cubes may go); an unknown id is refused.
        size: the picture's width in pixels.

    Raises:
        ValueError: the view is not a Rise of Empires view, or ``highlight`` names an unknown region.
    """
    if size < 200:
        raise ValueError(f"size {size} is too small to read")
    return _scaled(render_image(view, names=names, highlight=highlight), size)


def render_map(
    view: RiseView, *, names: bool = True, highlight: Sequence[str] = (), size: int = 1600
) -> bytes:
    """The header and the map alone as PNG bytes, ``size`` px wide (about half as tall as wide);
    arguments and errors as :func:`render_board`."""
    if size < 200:
        raise ValueError(f"size {size} is too small to read")
    marked = check_view(view, highlight)
    factor = _factor(size)
    if factor is not None:
        return encode_png(_map_reduced(view, names, marked, factor))
    return _scaled(_map_image(view, names, marked), size)


def render_dashboard(view: RiseView, *, size: int = 1600, people: Sequence[str] = ()) -> bytes:
    """The header, the action display, the tracks and every player's panel as PNG bytes, ``size``
    px wide and no taller than wide: the panels go in two columns when one would make the picture
    too tall, and a picture still too tall gets paper on both sides. ``people`` (a name per seat)
    names the person beside the colour on each panel."""
    if size < 200:
        raise ValueError(f"size {size} is too small to read")
    check_view(view, ())
    factor = _factor(size)
    if factor is not None:
        reduced = _dashboard_reduced(view, factor, people=people)
        if reduced is not None:
            return encode_png(reduced)
    img = _dashboard_image(view, people=people)
    if img.height > img.width:
        wide = Image.new("RGB", (img.height, img.height), PAPER)
        wide.paste(img, ((img.height - img.width) // 2, 0))
        img = wide
    return _scaled(img, size)


def notice_pictures(view: RiseView, *, focus: Sequence[str] = (), size: int = 800,
                    people: Sequence[str] = ()) -> list[tuple[str, bytes]]:
    """A turn notice's pictures (an :class:`engine.spec.NoticePictures`): the map, with the regions
    ``focus`` names outlined, and the dashboard (its panels naming ``people``, a name per seat, beside
    their colours), each no taller than wide."""
    regions = [word for word in dict.fromkeys(focus) if word in view["map"]["regions"]]
    factor = _factor(size) if size >= 200 else None
    if factor is None:
        return [("map", render_map(view, highlight=regions, size=size)),
                ("dashboard", render_dashboard(view, size=size, people=people))]
    marked = check_view(view, regions)
    header = _header_part(view, factor)  # the same on both pictures: drawn once
    dashboard = _dashboard_reduced(view, factor, header, people)
    return [("map", encode_png(_map_reduced(view, True, marked, factor, header))),
            ("dashboard", render_dashboard(view, size=size, people=people) if dashboard is None
             else encode_png(dashboard))]
