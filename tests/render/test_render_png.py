"""The shared PNG encoder: boards go out as palette PNGs that keep what a player reads."""

from __future__ import annotations

import io

import numpy as np
from PIL import Image, ImageDraw

from render import palette
from render.png import encode_png


def _board_like() -> Image.Image:
    """Flat fills in the area and player colours, a soft gradient and antialiased text: what a
    board is made of."""
    img = Image.new("RGB", (600, 300), palette.SEA)
    draw = ImageDraw.Draw(img)
    for i, colour in enumerate(palette.AREA_COLOURS.values()):
        draw.rectangle((i * 34, 20, i * 34 + 30, 120), fill=colour, outline=palette.BORDER)
    for i, colour in enumerate(palette.PLAYER_COLOURS):
        draw.ellipse((20 + i * 60, 150, 60 + i * 60, 190), fill=colour, outline=palette.INK)
    for x in range(600):
        draw.line((x, 220, x, 240), fill=(x * 255 // 600, 120, 200))
    draw.text((20, 250), "Great Plain of China  Northern Apennines", font=palette.font(20, True),
              fill=palette.INK, stroke_width=2, stroke_fill=palette.PAPER)
    return img


def test_a_board_becomes_a_palette_png_a_third_the_size_with_its_colours_kept() -> None:
    img = _board_like()
    png = encode_png(img)
    exact = encode_png(img, palette=False)
    with Image.open(io.BytesIO(png)) as out:
        assert out.mode == "P"
        got = np.asarray(out.convert("RGB"), dtype=int)
    with Image.open(io.BytesIO(exact)) as out:
        assert out.mode == "RGB"
    assert len(png) * 2 < len(exact)
    want = np.asarray(img, dtype=int)
    assert np.abs(got - want).mean() < 2.0
    # The flat fills a player tells apart (pieces, areas) keep their colour within a few levels.
    for i, colour in enumerate(palette.PLAYER_COLOURS):
        assert np.abs(got[170, 40 + i * 60] - np.array(colour)).max() <= 8, palette.PLAYER_NAMES[i]
    for i, colour in enumerate(palette.AREA_COLOURS.values()):
        assert np.abs(got[70, i * 34 + 15] - np.array(colour)).max() <= 8


def test_the_same_picture_gives_the_same_bytes() -> None:
    assert encode_png(_board_like()) == encode_png(_board_like())
