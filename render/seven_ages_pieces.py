"""The pieces on the 7 Ages board, drawn from a view only: stacks, leaders, cities, forts, disorder.

Each empire's stack in an area is one counter in the empire's colour, showing its top unit (abbreviated,
:data:`UNIT_CODES`) and, when it holds more than one unit, how many it holds: what every player sees of
it (fog of war, L791; the view's ``stacks``). The units beneath are never drawn, whoever looks (their
types are in the owner's view and words). A gold pip above a counter counts its leaders; a white square
holds a city's value (ringed red for a capital), a dark triangle is a fort, a red bar disorder, a purple
pip an artefact. A key strip under the board names the empires' colours and the codes shown.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from PIL import Image, ImageDraw

from render import palette
from render.palette import RGB, font

UNIT_CODES: Final[dict[str, str]] = {
    "Spear": "Sp", "Sword": "Sw", "Rifle": "Ri", "Motorised": "Mo", "Archer": "Ar", "Catapult": "Ca",
    "Cannon": "Cn", "Artillery": "At", "Chariot": "Ch", "Lt. Horse": "LH", "Hs. Archer": "HA",
    "Knight": "Kn", "Horse artillery": "HR", "Tank": "Tk", "Galley": "Ga", "Ship-of-the-line": "SL",
    "Cruiser": "Cr", "Battleship": "Bs", "Fighter": "Fi", "Bomber": "Bo", "Elephant": "El", "Nuke": "Nu",
    "Star Wars": "SW",
}
"""Two letters per unit type, as a counter has room for."""
MIX_COLOURS: Final[dict[str, RGB]] = {
    "orange": (232, 120, 20), "yellow": (240, 206, 40), "red": (190, 30, 36), "pink": (236, 130, 170),
    "dark blue": (30, 60, 160), "light blue": (110, 170, 236), "dark green": (20, 110, 50),
    "light green": (120, 200, 100), "purple": (100, 40, 130), "light purple": (180, 140, 210),
}
"""The counter mixes' colours (``data/seven_ages/counters.yaml``); a multi-coloured mix is drawn in two
halves (:func:`mix_fill`)."""
MULTI: Final[dict[str, tuple[str, str]]] = {
    "multi-coloured orange/yellow": ("orange", "yellow"), "multi-coloured red/pink": ("red", "pink"),
    "multi-coloured blue": ("dark blue", "light blue"), "multi-coloured green": ("dark green", "light green"),
    "multi-coloured purple": ("purple", "light purple"),
}
LEADER: Final[RGB] = (236, 190, 40)
CAPITAL: Final[RGB] = (200, 30, 40)
FORT: Final[RGB] = (40, 36, 32)
DISORDER: Final[RGB] = (220, 40, 40)
ARTEFACT: Final[RGB] = (130, 60, 160)
KEY_H: Final = 30
"""The key strip's height at the board's full width (2200 px)."""


def mix_fill(colour: str) -> tuple[RGB, RGB]:
    """The two halves of a counter of ``colour`` (one colour twice for a single-coloured mix)."""
    if colour in MULTI:
        a, b = MULTI[colour]
        return MIX_COLOURS[a], MIX_COLOURS[b]
    rgb = MIX_COLOURS.get(colour, palette.NEUTRAL_ARMY)
    return rgb, rgb


def ink_on(fill: RGB) -> RGB:
    """Black or white, whichever reads on ``fill``."""
    r, g, b = fill
    return (20, 20, 20) if 0.299 * r + 0.587 * g + 0.114 * b > 150 else (255, 255, 255)


def _tag_width(side: float, count: int) -> float:
    """The width of the count tag on a counter's right (0 for a single unit)."""
    return 0.0 if count <= 1 else side * (0.55 if count < 10 else 0.85)


def _counter(draw: ImageDraw.ImageDraw, x: float, y: float, side: float, colour: str, top: str,
             count: int) -> None:
    """A counter whose left edge is at ``x``: the top unit's code, then a white tag with the count."""
    first, second = mix_fill(colour)
    box = (x, y - side / 2, x + side, y + side / 2)
    draw.rounded_rectangle(box, radius=side / 6, fill=first, outline=(255, 255, 255),
                           width=max(1, round(side / 14)))
    if second != first:  # a multi-coloured mix: its lower half in the second colour
        draw.rectangle((box[0] + 1, y, box[2] - 1, box[3] - 2), fill=second)
    code = UNIT_CODES.get(top, top[:2])
    draw.text((x + side / 2, y), code, font=font(max(7, round(side * 0.5)), True), fill=ink_on(first),
              anchor="mm", stroke_width=1 if second != first else 0, stroke_fill=first)
    tag = _tag_width(side, count)
    if tag:  # the stack's height, on a white tag against the counter's right edge
        draw.rectangle((box[2], y - side * 0.36, box[2] + tag, y + side * 0.36), fill=(255, 255, 255),
                       outline=palette.INK)
        draw.text((box[2] + tag / 2, y), str(count), font=font(max(7, round(side * 0.5)), True),
                  fill=palette.INK, anchor="mm")


def _area_marks(draw: ImageDraw.ImageDraw, a: Mapping[str, Any], capital: bool, right: float, y: float,
                side: float) -> None:
    """An area's city, fort, disorder and artefacts in a row ending at ``right`` (the counters' left)."""
    x = right - side * 0.5
    for _ in a["artefacts"]:
        draw.ellipse((x - side * 0.2, y - side * 0.2, x + side * 0.2, y + side * 0.2), fill=ARTEFACT)
        x -= side * 0.5
    if a["disorder"]:
        draw.rectangle((x - side * 0.35, y - side * 0.12, x + side * 0.35, y + side * 0.12), fill=DISORDER)
        x -= side * 0.8
    if a["fort"]:
        s = side * 0.4
        draw.polygon([(x, y - s), (x - s, y + s), (x + s, y + s)], fill=FORT)
        x -= side * 0.9
    if a["city"]:
        s = side * 0.42
        draw.rectangle((x - s, y - s, x + s, y + s), fill=(255, 255, 255),
                       outline=CAPITAL if capital else palette.INK, width=2 if capital else 1)
        draw.text((x, y), str(a["city"]), font=font(max(6, round(side * 0.5)), True), fill=palette.INK,
                  anchor="mm")


def draw_pieces(img: Image.Image, view: Mapping[str, Any], poles: Mapping[str, Sequence[float]],
                scale: float, top: float) -> None:
    """Draw every stack, leader and area marker of ``view`` on ``img`` (the board, ``scale`` times the
    raster's size, the raster's row 0 at ``top`` pixels): one row above each area's name, its markers
    on the left, then one counter per empire there."""
    draw = ImageDraw.Draw(img)
    side = max(13.0, 17 * scale)  # below 13 px a code and a count no longer read
    at: dict[str, list[tuple[Mapping[str, Any], float, str, int]]] = {}  # area: (empire, width, top, count)
    for e in view["empires"]:
        for area, unit, count in e["stacks"]:
            width = side + _tag_width(side, int(count))
            at.setdefault(area, []).append((e, width, str(unit), int(count)))
    marks = {a["name"]: a for a in view["areas"]}
    capitals = {e["capital"] for e in view["empires"]}
    for area in sorted(set(at) | set(marks)):
        pole = poles.get(area)
        if pole is None:
            continue
        here = at.get(area, [])
        x = pole[0] * scale - (sum(w for _, w, _, _ in here) + 2 * max(0, len(here) - 1)) / 2
        y = pole[1] * scale + top - side
        if area in marks:
            _area_marks(draw, marks[area], area in capitals, x, y, side)
        for e, width, unit, count in here:
            _counter(draw, x, y, side, str(e["colour"]), unit, count)
            leaders = sum(1 for ld in e["leaders"] if ld["area"] == area)
            if leaders:
                r = side * 0.28
                lx, ly = x + r * 0.4, y - side / 2 - r * 0.4
                draw.ellipse((lx - r, ly - r, lx + r, ly + r), fill=LEADER, outline=palette.INK)
                draw.text((lx, ly), str(leaders), font=font(max(6, round(r * 1.4)), True), fill=palette.INK,
                          anchor="mm")
            x += width + 2


def key_strip(view: Mapping[str, Any], width: int) -> Image.Image:
    """The pieces' key, ``width`` pixels wide: the empires' counter colours and names, then what a counter
    shows and the codes of the units on top of a stack, each wrapped onto as many rows as it needs."""
    scale = width / 2200
    row = max(16, round(KEY_H * scale))
    f = font(max(10, round(13 * scale)))
    side = max(10.0, 14 * scale)
    items: list[tuple[Mapping[str, Any] | None, str]] = [(e, str(e["name"])) for e in view["empires"]]
    showing = {str(unit) for e in view["empires"] for _, unit, _ in e["stacks"]}
    codes = [f"{c} {u}" for u, c in UNIT_CODES.items() if u in showing]
    words = ["Each counter: its top unit; on its white tag, how many units the stack holds.",
             *(f"{c}," for c in codes[:-1]), *(f"{c}." for c in codes[-1:])]
    items += [(None, w) for w in words]
    placed: list[tuple[float, int, Mapping[str, Any] | None, str]] = []
    x, line = 8.0, 0
    for k, (e, text) in enumerate(items):
        need = (side + 4 if e is not None else 0) + f.getlength(text)
        if e is None and k and items[k - 1][0] is not None:  # the words start on a row of their own
            x, line = 8.0, line + 1
        if x + need > width - 8 and x > 8:
            x, line = 8.0, line + 1
        placed.append((x, line, e, text))
        x += need + (14 if e is not None else 6)
    strip = Image.new("RGB", (width, (line + 1) * row), palette.PAPER)
    draw = ImageDraw.Draw(strip)
    for x, line, e, text in placed:
        y = line * row + row / 2
        if e is not None:
            first, second = mix_fill(str(e["colour"]))
            draw.rectangle((x, y - side / 2, x + side, y + side / 2), fill=first, outline=palette.INK)
            if second != first:
                draw.rectangle((x + 1, y, x + side - 1, y + side / 2 - 1), fill=second)
            x += side + 4
        draw.text((x, y), text, font=f, fill=palette.INK, anchor="lm")
    return strip
