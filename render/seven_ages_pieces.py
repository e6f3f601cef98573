"""The pieces on the 7 Ages board, drawn from a view only: stacks, leaders, cities, forts, disorder.

Each empire's stack in an area is one counter in the empire's colours (a face of
:mod:`render.seven_ages_colours`: solid, pale or striped, so shades read without hue), showing its
top unit (abbreviated, :data:`UNIT_CODES`) and, when it holds more than one unit, how many it holds:
what every player sees of it (fog of war, L791; the view's ``stacks``). The units beneath are never
drawn, whoever looks (their types are in the owner's view and words). A gold pip above a counter
counts its leaders; a white square holds a city's value (ringed red for a capital), a dark triangle
is a fort, a red bar disorder, a purple pip an artefact. A key strip under the board names the
empires in play by seat (a row each: the seat, its counter group, then its empires and how their
counters look), and the codes shown.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from PIL import Image, ImageDraw

from engine.seven_ages.seat_colours import seat_colours
from engine.seven_ages.spec import SPEC
from engine.seven_ages.view import AreaView, EmpireView, SevenView
from render import palette
from render.palette import RGB, font
from render.seven_ages_colours import describe, face

UNIT_CODES: Final[dict[str, str]] = {
    "Spear": "Sp", "Sword": "Sw", "Rifle": "Ri", "Motorised": "Mo", "Archer": "Ar", "Catapult": "Ca",
    "Cannon": "Cn", "Artillery": "At", "Chariot": "Ch", "Lt. Horse": "LH", "Hs. Archer": "HA",
    "Knight": "Kn", "Horse artillery": "HR", "Tank": "Tk", "Galley": "Ga", "Ship-of-the-line": "SL",
    "Cruiser": "Cr", "Battleship": "Bs", "Fighter": "Fi", "Bomber": "Bo", "Elephant": "El", "Nuke": "Nu",
    "Star Wars": "SW",
}
"""Two letters per unit type, as a counter has room for."""
LEADER: Final[RGB] = (236, 190, 40)
CAPITAL: Final[RGB] = (200, 30, 40)
FORT: Final[RGB] = (40, 36, 32)
DISORDER: Final[RGB] = (220, 40, 40)
ARTEFACT: Final[RGB] = (130, 60, 160)
KEY_H: Final = 30
"""The key strip's height at the board's full width (2200 px)."""


def _tag_width(side: float, count: int) -> float:
    """The width of the count tag on a counter's right (0 for a single unit)."""
    return 0.0 if count <= 1 else side * (0.55 if count < 10 else 0.85)


def _counter(img: Image.Image, draw: ImageDraw.ImageDraw, x: float, y: float, side: float, colour: str,
             top: str, count: int) -> None:
    """A counter whose left edge is at ``x``: the top unit's code on the mix's face
    (:func:`render.seven_ages_colours.face`), then a white tag with the count."""
    px = round(side)
    tile = face(colour, px, UNIT_CODES.get(top, top[:2]))
    img.paste(tile, (round(x), round(y - px / 2)), tile)
    tag = _tag_width(side, count)
    if tag:  # the stack's height, on a white tag against the counter's right edge
        right = round(x) + px
        draw.rectangle((right, y - side * 0.36, right + tag, y + side * 0.36), fill=(255, 255, 255),
                       outline=palette.INK)
        draw.text((right + tag / 2, y), str(count), font=font(max(7, round(side * 0.5)), True),
                  fill=palette.INK, anchor="mm")


def _area_marks(draw: ImageDraw.ImageDraw, a: AreaView, capital: bool, right: float, y: float,
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


def draw_pieces(img: Image.Image, view: SevenView, poles: Mapping[str, Sequence[float]],
                scale: float, top: float, side: float | None = None) -> None:
    """Draw every stack, leader and area marker of ``view`` on ``img`` (the board, ``scale`` times the
    raster's size, the raster's row 0 at ``top`` pixels): one row above each area's name, its markers
    on the left, then one counter per empire there."""
    draw = ImageDraw.Draw(img)
    if side is None:
        side = max(13.0, 17 * scale)  # below 13 px a code and a count no longer read
    at: dict[str, list[tuple[EmpireView, float, str, int]]] = {}  # area: (empire, width, top, count)
    for e in view["empires"]:
        for area, unit, count in e["stacks"]:
            width = side + _tag_width(side, int(count))
            at.setdefault(str(area), []).append((e, width, str(unit), int(count)))
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
            _counter(img, draw, x, y, side, str(e["colour"]), unit, count)
            leaders = sum(1 for ld in e["leaders"] if ld["area"] == area)
            if leaders:
                r = side * 0.28
                lx, ly = x + r * 0.4, y - side / 2 - r * 0.4
                draw.ellipse((lx - r, ly - r, lx + r, ly + r), fill=LEADER, outline=palette.INK)
                draw.text((lx, ly), str(leaders), font=font(max(6, round(r * 1.4)), True), fill=palette.INK,
                          anchor="mm")
            x += width + 2


def owner_name(view: SevenView, seat: int, people: Sequence[str] = (),
               group: str | None = None) -> str:
    """How the pictures name a seat of ``view``: as the platform does, by the colours it took ("alice
    (Orange)", :func:`engine.seven_ages.seat_colours.seat_colours`; the colour alone without a person),
    "(you)" for the view's reader, and with ``group`` its dedicated counter group after it, as the board
    text does ("alice (Orange): orange/yellow counters")."""
    person = people[seat].strip() if 0 <= seat < len(people) else ""
    name = SPEC.seat_name(seat, person or None, seat_colours(view))
    name = f"{name} (you)" if seat == view.get("viewer") else name
    return f"{name}: {group} counters" if group else name


def key_items(view: SevenView, people: Sequence[str] = ()) -> list[tuple[str | None, str]]:
    """The key's entries in order: for each seat with an empire in play, (None, the seat and its counter
    group) opening a row, then (a mix's name, the words beside its swatch) for each of its empires; then
    (None, words) for what a counter shows and the codes of the units on top of some stack."""
    groups = {int(p["seat"]): p.get("group") for p in view["people"]}
    owned: dict[int, list[EmpireView]] = {}
    for e in view["empires"]:
        owned.setdefault(int(e["owner"]), []).append(e)
    items: list[tuple[str | None, str]] = []
    for owner in sorted(owned):
        group = groups.get(owner)
        items.append((None, owner_name(view, owner, people, str(group) if group else None) + " —"))
        items += [(str(e["colour"]), f"{e['name']} ({describe(str(e['colour']))})") for e in owned[owner]]
    showing = {str(unit) for e in view["empires"] for _, unit, _ in e["stacks"]}
    codes = [f"{c} {u}" for u, c in UNIT_CODES.items() if u in showing]
    words = ["Each counter: its top unit; on its white tag, how many units the stack holds.",
             *(f"{c}," for c in codes[:-1]), *(f"{c}." for c in codes[-1:])]
    return items + [(None, w) for w in words]


def key_strip(view: SevenView, width: int, people: Sequence[str] = ()) -> Image.Image:
    """The pieces' key, ``width`` pixels wide: each empire in play as its counter's face, its name, how
    its counters look in words and whose it is (``people``: a name per seat); then what a counter shows
    and the codes of the units on top of a stack, each wrapped onto as many rows as it needs."""
    scale = width / 2200
    row = max(16, round(KEY_H * scale))
    f = font(max(10, round(13 * scale)))
    side = max(10, round(14 * scale))
    items = key_items(view, people)
    placed: list[tuple[float, int, str | None, str]] = []
    x, line = 8.0, 0
    for k, (colour, text) in enumerate(items):
        need = (side + 4 if colour is not None else 0) + f.getlength(text)
        if colour is None and k and items[k - 1][0] is not None:  # the words start on a row of their own
            x, line = 8.0, line + 1
        if x + need > width - 8 and x > 8:
            x, line = 8.0, line + 1
        placed.append((x, line, colour, text))
        x += need + (18 if colour is not None else 6)
    strip = Image.new("RGB", (width, (line + 1) * row), palette.PAPER)
    draw = ImageDraw.Draw(strip)
    for x, line, colour, text in placed:
        y = line * row + row / 2
        if colour is not None:
            tile = face(colour, side, "")
            strip.paste(tile, (round(x), round(y - side / 2)), tile)
            x += side + 4
        draw.text((x, y), text, font=f, fill=palette.INK, anchor="lm")
    return strip
