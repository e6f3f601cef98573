"""Colours and fonts shared by every picture Annals draws.

Player colours follow the order of ``engine.history.text.COLOURS`` (Red, Blue,
Green, Yellow, Purple, Orange). They are chosen to stay apart for players with
red-green colour blindness: besides hue they differ in lightness (dark red,
mid blue, teal green, light yellow, dark purple, mid orange), and
tests/render/test_render_board.py checks their CIE Lab distances, also under a
deuteranopia simulation.

Area fills are muted, paper-like tints so pieces in player colours stand out
on them; neighbouring areas differ in lightness as well as hue.
"""

from __future__ import annotations

import functools
from typing import Final

import matplotlib
from PIL import ImageFont

RGB = tuple[int, int, int]

#: Player colours, index = player id (names in engine/history/text.py COLOURS).
PLAYER_COLOURS: Final[tuple[RGB, ...]] = (
    (200, 30, 40),  # Red: dark, saturated
    (40, 110, 230),  # Blue
    (0, 158, 115),  # Green: bluish green (Okabe-Ito), lighter than red
    (250, 225, 40),  # Yellow: the lightest
    (120, 40, 150),  # Purple: the darkest
    (245, 140, 10),  # Orange
)
PLAYER_NAMES: Final = ("Red", "Blue", "Green", "Yellow", "Purple", "Orange")

#: Text colour that reads on each player colour (for numerals inside pieces).
PLAYER_TEXT: Final[tuple[RGB, ...]] = (
    (255, 255, 255),
    (255, 255, 255),
    (255, 255, 255),
    (20, 20, 20),
    (255, 255, 255),
    (20, 20, 20),
)

#: Fill of each scoring area (names as in data/history/classic/map.yaml).
AREA_COLOURS: Final[dict[str, RGB]] = {
    "Middle East": (234, 188, 110),  # ochre
    "North Africa": (244, 232, 172),  # pale yellow
    "China": (228, 148, 136),  # rose
    "India": (172, 206, 118),  # leaf green
    "Southern Europe": (222, 172, 196),  # dusty pink (a blue read as the sea round Italy)
    "Northern Europe": (204, 228, 196),  # pale mint
    "Southeast Asia": (96, 176, 150),  # teal, darker
    "Eurasia": (208, 192, 230),  # lavender
    "North America": (238, 200, 160),  # peach
    "South America": (150, 200, 120),  # green
    "Nippon": (226, 160, 214),  # orchid
    "Africa": (196, 156, 106),  # brown, darker
    "Australia": (240, 176, 118),  # apricot
}
# The 5-epoch board names four regions differently; each takes its classic counterpart's colour.
AREA_COLOURS.update(
    {
        "Northern Africa": AREA_COLOURS["North Africa"],
        "Far East": AREA_COLOURS["Nippon"],
        "Southern Africa": AREA_COLOURS["Africa"],
        "Australasia": AREA_COLOURS["Australia"],
    }
)

SEA: Final[RGB] = (150, 190, 222)
SEA_DEEP: Final[RGB] = (150, 188, 214)
BARREN: Final[RGB] = (206, 198, 184)
INK: Final[RGB] = (40, 36, 32)
PAPER: Final[RGB] = (246, 241, 228)
WATER_INK: Final[RGB] = (40, 80, 130)
BORDER: Final[RGB] = (95, 85, 75)
HIGHLIGHT: Final[RGB] = (255, 255, 255)

_FONT_DIR: Final = matplotlib.get_data_path() + "/fonts/ttf/"


@functools.lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """DejaVu Sans (matplotlib's bundled copy) at ``size`` pixels, cached."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(_FONT_DIR + name, size)


def lighten(colour: RGB, amount: float) -> RGB:
    """``colour`` mixed with white (amount 0: unchanged, 1: white)."""
    r, g, b = colour
    return (
        round(r + (255 - r) * amount),
        round(g + (255 - g) * amount),
        round(b + (255 - b) * amount),
    )


def darken(colour: RGB, amount: float) -> RGB:
    """``colour`` mixed with black (amount 0: unchanged, 1: black)."""
    r, g, b = colour
    return (round(r * (1 - amount)), round(g * (1 - amount)), round(b * (1 - amount)))

# --- Eight-Minute Empire -------------------------------------------------------

#: The two-player game's neutral armies: a mid grey, apart from every player colour.
NEUTRAL_ARMY: Final[RGB] = (150, 150, 146)
NEUTRAL_TEXT: Final[RGB] = (255, 255, 255)

#: Goods of Eight-Minute Empire: each has its own icon shape too (render/eight_minute.py),
#: so the colour never carries the meaning alone.
GOODS_COLOURS: Final[dict[str, RGB]] = {
    "crystal": (120, 200, 235),  # pale blue gem
    "food": (240, 130, 30),  # carrot orange
    "wood": (50, 130, 60),  # tree green
    "iron": (120, 124, 136),  # grey ore
    "tools": (140, 90, 50),  # brown anvil
    "wild": (235, 190, 30),  # gold star
}

#: Continent fills of the Eight-Minute board (muted, so pieces stand out), by continent id;
#: continents not named here take EM_CONTINENT_FALLBACK in order.
EM_CONTINENT_COLOURS: Final[dict[str, RGB]] = {
    "western_wilds": (178, 206, 150),  # sage
    "heartland": (236, 212, 158),  # wheat
    "northern_isles": (200, 208, 230),  # ice
    "southern_reach": (232, 184, 146),  # sand
}
EM_CONTINENT_FALLBACK: Final[tuple[RGB, ...]] = ((210, 200, 180), (190, 210, 200), (220, 190, 200))
COIN: Final[RGB] = (236, 190, 60)

# --- Rise of Empires ----------------------------------------------------------------

#: Region fills by the era colour the view names (data/rise/map.yaml: cream, green, blue).
RISE_ERA_COLOURS: Final[dict[str, RGB]] = {
    "cream": (239, 227, 194),
    "green": (185, 215, 168),
    "blue": (169, 196, 224),
}
#: The Mediterranean (the only sea region) and the ocean behind the map panels.
RISE_SEA: Final[RGB] = (120, 170, 210)
RISE_OCEAN: Final[RGB] = (214, 228, 238)
