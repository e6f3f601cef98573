"""Stamped text (render/stamps.py) gives the very pixels Pillow's own ``text`` gives, wherever it
stands (fractions of a pixel, anchors, at the picture's edges), and a stamp is drawn once."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image, ImageDraw

from render import stamps
from render.palette import font
from render.stamps import StampDraw

PLACES = [(10, 12), (10.5, 12.25), (33.75, 40.6), (0, 0), (195.4, 58.9), (-3.5, 20), (120, -4)]


@pytest.mark.parametrize("anchor", [None, "la", "mm", "ra", "lm", "rm", "ms"])
@pytest.mark.parametrize(("size", "bold"), [(11, False), (17, True), (22, True)])
def test_a_stamp_is_the_text_pillow_draws(anchor: str | None, size: int, bold: bool) -> None:
    f = font(size, bold)
    for text in ("Era II", "cubes 1 pool · 9 map", "Égypte — 3/1 VP", "x"):
        for xy in PLACES:
            plain = Image.new("RGB", (200, 60), (250, 246, 236))
            stamped = plain.copy()
            ImageDraw.Draw(plain).text(xy, text, fill=(20, 90, 160), font=f, anchor=anchor)
            StampDraw(stamped).text(xy, text, fill=(20, 90, 160), font=f, anchor=anchor)
            assert np.array_equal(np.asarray(plain), np.asarray(stamped)), (text, xy)


def test_a_string_is_rasterised_once() -> None:
    stamps._stamp.cache_clear()
    img = Image.new("RGB", (300, 100), (255, 255, 255))
    draw = StampDraw(img)
    for x in range(10):
        draw.text((20 + 20 * x, 50), "VP", fill=(0, 0, 0), font=font(16, True), anchor="mm")
    assert stamps._stamp.cache_info().misses == 1 and stamps._stamp.cache_info().hits == 9
