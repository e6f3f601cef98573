"""How each of 7 Ages' fifteen counter mixes looks, told apart without relying on hue alone.

The counters come in five colour groups, each dark, light and multi-coloured (L325-335,
``data/seven_ages/counters.yaml``). Ten shades of five hues are too many for a colour-blind reader to
tell apart by colour, so each group keeps one hue (picked from the Okabe-Ito set, which stays apart
under red-green colour blindness) and the shade is drawn as a fill:

* dark: a solid counter in the group's deep colour, with a thin white edge;
* light: a pale counter with a thick edge in the deep colour;
* multi-coloured: diagonal stripes of the deep and pale colours, with a deep edge.

So two mixes of one group differ in lightness or pattern, which reads in grey too.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Final

from PIL import Image, ImageDraw

from engine.seven_ages.data import load_counters
from render import palette
from render.palette import RGB, font

GROUP_HUES: Final[dict[str, RGB]] = {
    "orange/yellow": (230, 159, 0),  # Okabe-Ito orange
    "red/pink": (200, 60, 20),  # a deeper Okabe-Ito vermillion: darker than the orange
    "blue": (0, 100, 170),  # Okabe-Ito blue
    "green": (0, 150, 110),  # Okabe-Ito bluish green
    "purple": (150, 70, 150),  # Okabe-Ito reddish purple, deepened for white ink
}
"""Each colour group's deep colour (its dark mix's fill, every mix's edge)."""
PALE: Final = 0.72
"""How far towards white a light mix's fill is."""
SHADE_WORDS: Final[dict[str, str]] = {"dark": "solid", "light": "pale", "multi": "striped"}


@dataclass(frozen=True)
class CounterStyle:
    """How a mix's counter is drawn: ``fill`` (the stripes' first colour for a multi-coloured mix),
    ``stripes`` (their second colour, or None), ``edge`` and its ``edge_width`` share of the side, and
    the ``ink`` of the unit code."""

    fill: RGB
    stripes: RGB | None
    edge: RGB
    edge_width: float
    ink: RGB


def ink_on(fill: RGB) -> RGB:
    """Black or white, whichever reads on ``fill``."""
    r, g, b = fill
    return (20, 20, 20) if 0.299 * r + 0.587 * g + 0.114 * b > 150 else (255, 255, 255)


def group_and_shade(colour: str) -> tuple[str, str]:
    """The colour group and shade of the mix ``colour`` (``counters.yaml``); ("", "dark") for a name no
    mix has."""
    mix = load_counters().mixes.get(colour)
    return (mix.group, mix.shade) if mix is not None else ("", "dark")


def style(colour: str) -> CounterStyle:
    """The look of a counter of the mix ``colour`` (a neutral grey one for a name no mix has)."""
    group, shade = group_and_shade(colour)
    deep = GROUP_HUES.get(group, palette.NEUTRAL_ARMY)
    pale = palette.lighten(deep, PALE)
    if shade == "light":
        return CounterStyle(pale, None, deep, 0.14, (20, 20, 20))
    if shade == "multi":
        return CounterStyle(deep, pale, deep, 0.1, (20, 20, 20))
    return CounterStyle(deep, None, (255, 255, 255), 0.07, ink_on(deep))


def describe(colour: str) -> str:
    """How the key words a mix's look: "solid orange", "pale orange", "striped orange"."""
    group, shade = group_and_shade(colour)
    return f"{SHADE_WORDS[shade]} {group.split('/')[0] or 'grey'}"


@functools.lru_cache(maxsize=512)
def face(colour: str, side: int, code: str) -> Image.Image:
    """A counter of ``colour`` ``side`` px square showing ``code`` (no code: a bare swatch), RGBA with
    its rounded corners transparent; kept, since a board shows the same faces many times."""
    look = style(colour)
    scale = 4  # drawn large and shrunk: the stripes and corners come out smooth at 13-20 px
    big = side * scale
    img = Image.new("RGB", (big, big), look.fill)
    draw = ImageDraw.Draw(img)
    if look.stripes is not None:
        band = big / 4
        for k in range(-4, 9, 2):  # diagonal bands, a quarter of the side wide
            x = k * band
            draw.polygon([(x, 0), (x + band, 0), (x + band - big, big), (x - big, big)], fill=look.stripes)
    edge = max(scale, round(big * look.edge_width))
    mask = Image.new("L", (big, big), 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, big - 1, big - 1), radius=big / 6, fill=255)
    ring = Image.new("L", (big, big), 0)
    ImageDraw.Draw(ring).rounded_rectangle((0, 0, big - 1, big - 1), radius=big / 6, outline=255, width=edge)
    img.paste(look.edge, (0, 0), ring)
    out = img.resize((side, side), Image.Resampling.BOX).convert("RGBA")
    out.putalpha(mask.resize((side, side), Image.Resampling.BOX))
    if code:
        text = ImageDraw.Draw(out)
        # On stripes the code gets a pale halo so it reads over both colours.
        text.text((side / 2, side / 2), code, font=font(max(7, round(side * 0.5)), True), fill=look.ink,
                  anchor="mm", stroke_width=max(1, side // 12) if look.stripes else 0,
                  stroke_fill=look.stripes or look.fill)
    return out
