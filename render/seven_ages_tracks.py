"""7 Ages' tracks as one picture for chat (800 px wide): progress, glory and money, from a view only.

* The progress track (L2806-2827, ``tables.yaml``): seven ages of seven levels, one row per age, each
  level a cell holding the markers of the empires there (their counter face and name); the dark-age
  spaces are shaded and marked.
* Glory (the glory track, L1050): one bar per seat over 0-200 (more past 199: the +200 markers).
* Money (kept on the glory track, L423, L481): one bar per empire in play over 0-199.

* Option 16's markers on the progress track: each blue artefact's blue marker (L1376-1388) and the black
  World war marker (L1986), as a tag in the cell of their level, under the empires there.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from PIL import Image, ImageDraw, ImageFont

from engine.seven_ages.data import load_tables
from engine.seven_ages.text import stage
from engine.seven_ages.view import SevenView
from render import palette
from render.palette import font
from render.png import encode_png
from render.seven_ages_colours import face, style
from render.seven_ages_pieces import owner_name

DARK: Final = (196, 188, 176)
"""A dark-age space's fill."""
CELL_LINE: Final = (150, 140, 128)
LEFT: Final = 108
"""The age names' column, px at 800."""
ENTRY: Final = 16
"""One empire's line in a progress cell, px at 800."""


@dataclass(frozen=True)
class Cell:
    """One level of the progress track: its number, whether it is a dark age, and the empires there
    (their card numbers, in the view's order)."""

    level: int
    dark: bool
    empires: tuple[int, ...]
    markers: tuple[tuple[str, str], ...] = ()  # option 16: (artefact, "blue" or "black") at this level

    @property
    def entries(self) -> int:
        return len(self.empires) + len(self.markers)


def progress_rows(view: SevenView) -> list[tuple[str, list[Cell]]]:
    """The progress track as rows: each age's words ("1 Antiquity") and its seven cells; an empire past
    the last level stands on the last."""
    tables = load_tables()
    last = max(a.last for a in tables.ages)
    at: dict[int, list[int]] = {}
    for e in view["empires"]:
        at.setdefault(min(max(int(e["progress"]), 1), last), []).append(int(e["card"]))
    tags: dict[int, list[tuple[str, str]]] = {}
    for name, level in view.get("progress_markers") or ():  # a view saved before option 16 has none
        tags.setdefault(int(level), []).append((str(name), "blue"))
    if view.get("world_war"):
        tags.setdefault(int(view["world_war"]), []).append(("World war", "black"))
    return [(f"{age.age} {age.name.removeprefix('The ')}",
             [Cell(level, level in tables.dark_ages, tuple(at.get(level, ())), tuple(tags.get(level, ())))
              for level in range(age.first, age.last + 1)])
            for age in tables.ages]


@functools.lru_cache(maxsize=4096)
def _stamp(text: str, f: ImageFont.FreeTypeFont, fill: tuple[int, int, int], anchor: str
           ) -> tuple[Image.Image, int, int]:
    """``text`` as a transparent stamp and where its anchor point lies in it: kept, since the tracks
    draw the same level numbers and names every time (the text is most of the picture's cost)."""
    w, h = math.ceil(f.getlength(text)) + 4, math.ceil(f.size * 1.6) + 4
    ox, oy = 2, (h // 2 if anchor[1] == "m" else 2)
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    ImageDraw.Draw(img).text((ox, oy), text, font=f, fill=fill, anchor=anchor)
    return img, ox, oy


def _say(img: Image.Image, xy: tuple[float, float], text: str, *, font: ImageFont.FreeTypeFont,
         fill: tuple[int, int, int], anchor: str) -> None:
    """Write ``text`` at ``xy`` (anchor "lm" or "lt") from its stamp."""
    stamp, ox, oy = _stamp(text, font, fill, anchor)
    img.paste(stamp, (round(xy[0]) - ox, round(xy[1]) - oy), stamp)


def _bar(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], value: int, top: int,
         fill: tuple[int, int, int], edge: tuple[int, int, int]) -> None:
    """A bar of ``value`` out of ``top`` in ``box``, on a pale track with a tick every 20."""
    x0, y0, x1, y1 = box
    draw.rectangle(box, fill=(236, 228, 212), outline=CELL_LINE)
    for tick in range(20, top, 20):
        tx = x0 + (x1 - x0) * tick / top
        draw.line((tx, y0, tx, y1), fill=(214, 204, 186))
    if value > 0:
        draw.rectangle((x0, y0, x0 + (x1 - x0) * min(value, top) / top, y1), fill=fill, outline=edge)


def tracks_image(view: SevenView, *, size: int = 800, people: Sequence[str] = ()) -> Image.Image:
    """The tracks picture (see the module's words), ``size`` px wide."""
    if size < 200:
        raise ValueError("size must be at least 200 pixels")
    k = size / 800
    empires = {int(e["card"]): e for e in view["empires"]}
    rows = progress_rows(view)
    f_small, f_name = font(max(8, round(10 * k))), font(max(8, round(11 * k)))
    f_bold, f_head = font(max(8, round(11 * k)), True), font(round(14 * k), True)
    heights = [round(max(1, *(c.entries for c in cells)) * ENTRY * k + 14 * k) for _, cells in rows]
    title_h = round(30 * k)
    head_h = round(22 * k)
    people_n = len(view["people"])
    lower_rows = max(people_n, (len(empires) + 1) // 2)
    lower_h = head_h + round(lower_rows * 19 * k) + round(8 * k)
    height = title_h + head_h + sum(heights) + round(10 * k) + lower_h
    img = Image.new("RGB", (size, height), palette.PAPER)
    draw = ImageDraw.Draw(img)
    _say(img, (8 * k, title_h / 2), f"7 Ages · {stage(view)}: the tracks", font=font(round(16 * k), True),
              fill=palette.INK, anchor="lm")
    y = title_h
    _say(img, (8 * k, y + head_h / 2), "Progress (shaded: a dark age, no free progress without a Scientist)",
              font=f_head, fill=palette.INK, anchor="lm")
    y += head_h
    cell_w = (size - LEFT * k - 8 * k) / 7
    for (words, cells), row_h in zip(rows, heights, strict=True):
        _say(img, (8 * k, y + row_h / 2), words, font=f_bold, fill=palette.INK, anchor="lm")
        for c, cell in enumerate(cells):
            x = LEFT * k + c * cell_w
            draw.rectangle((x, y, x + cell_w, y + row_h), fill=DARK if cell.dark else (250, 246, 236),
                           outline=CELL_LINE)
            _say(img, (x + 3 * k, y + 2 * k), str(cell.level) + (" dark" if cell.dark else ""), font=f_small,
                      fill=(90, 80, 70), anchor="lt")
            for n, card in enumerate(cell.empires):
                e = empires[card]
                ey = y + 13 * k + n * ENTRY * k
                side = round(12 * k)
                tile = face(str(e["colour"]), side, "")
                img.paste(tile, (round(x + 3 * k), round(ey)), tile)
                name = str(e["name"])
                room = cell_w - side - 9 * k
                while name and f_name.getlength(name) > room:
                    name = name[:-1]
                if name != str(e["name"]):
                    name = name[:-1].rstrip() + "."
                _say(img, (x + side + 6 * k, ey + side / 2), name, font=f_name, fill=palette.INK, anchor="lm")
            for n, (art, colour) in enumerate(cell.markers, start=len(cell.empires)):
                ty = y + 13 * k + n * ENTRY * k
                _tag(img, draw, (x + 3 * k, ty, x + cell_w - 3 * k), art, colour, f_name, k)
        y += row_h
    y += round(10 * k)
    half = size / 2
    _say(img, (8 * k, y + head_h / 2), "Glory", font=f_head, fill=palette.INK, anchor="lm")
    _say(img, (half + 8 * k, y + head_h / 2), "Money", font=f_head, fill=palette.INK, anchor="lm")
    y += head_h
    glory_top = max(200, *(int(p["glory"]) for p in view["people"]))
    label_w = 150 * k
    for n, p in enumerate(view["people"]):
        ry = y + n * 19 * k
        who = owner_name(view, int(p["seat"]), people)
        _say(img, (8 * k, ry + 8 * k), who, font=f_name, fill=palette.INK, anchor="lm")
        _bar(draw, (8 * k + label_w * 0.75, ry + 2 * k, half - 44 * k, ry + 15 * k), int(p["glory"]),
             glory_top, (120, 110, 98), palette.INK)
        _say(img, (half - 40 * k, ry + 8 * k), str(p["glory"]), font=f_bold, fill=palette.INK, anchor="lm")
    col_w = half / 2
    for n, e in enumerate(view["empires"]):
        cx = half + (n % 2) * col_w
        ry = y + (n // 2) * 19 * k
        look = style(str(e["colour"]))
        side = round(12 * k)
        tile = face(str(e["colour"]), side, "")
        img.paste(tile, (round(cx + 8 * k), round(ry + 2 * k)), tile)
        name = str(e["name"])
        while f_name.getlength(name) > 80 * k:
            name = name[:-1]
        _say(img, (cx + side + 12 * k, ry + 8 * k), name, font=f_name, fill=palette.INK, anchor="lm")
        _bar(draw, (cx + 104 * k, ry + 3 * k, cx + col_w - 34 * k, ry + 14 * k), int(e["money"]), 200,
             look.edge if look.stripes is None and look.edge != (255, 255, 255) else look.fill, palette.INK)
        _say(img, (cx + col_w - 30 * k, ry + 8 * k), str(e["money"]), font=f_bold, fill=palette.INK,
                  anchor="lm")
    return img


MARKER_FILL: Final = {"blue": (38, 84, 176), "black": (24, 24, 24)}
"""Option 16's marker colours (L1376: blue; L1986: black)."""


def _tag(img: Image.Image, draw: ImageDraw.ImageDraw, at: tuple[float, float, float], art: str, colour: str,
         f: ImageFont.FreeTypeFont, k: float) -> None:
    """A marker on the progress track: a filled tag with the artefact's name in white, cut to the cell."""
    x0, y0, x1 = at
    draw.rounded_rectangle((x0, y0, x1, y0 + 12 * k), radius=round(3 * k), fill=MARKER_FILL[colour])
    name = art
    while name and f.getlength(name) > x1 - x0 - 6 * k:
        name = name[:-1]
    if name != art:
        name = name[:-1].rstrip() + "."
    _say(img, (x0 + 3 * k, y0 + 6 * k), name, font=f, fill=(255, 255, 255), anchor="lm")


def render_tracks(view: SevenView, *, size: int = 800, people: Sequence[str] = ()) -> bytes:
    """:func:`tracks_image` as PNG bytes."""
    return encode_png(tracks_image(view, size=size, people=people))
