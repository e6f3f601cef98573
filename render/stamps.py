"""Text drawn once and stamped after: an ``ImageDraw`` whose ``text`` keeps each string's mask.

Pillow keeps no glyph cache: every ``draw.text`` rasterises each glyph again with FreeType, and a
picture full of labels (a Rise dashboard draws about 450 strings) spends most of its drawing time
there, though from one turn to the next nearly every label is the same. A mask is kept per string,
font, anchor and fraction of a pixel where it starts (FreeType places glyphs at that fraction), so a
stamp gives the very pixels ``draw.text`` gives: both fill the ink through the same mask.
"""

from __future__ import annotations

import functools
import math
from typing import Any

from PIL import Image, ImageDraw, ImageFont


@functools.lru_cache(maxsize=2048)
def _stamp(text: str, font: ImageFont.FreeTypeFont, anchor: str | None, fx: float, fy: float
           ) -> tuple[Image.Image, tuple[int, int]]:
    """The mask of ``text`` drawn with its anchor at (``fx``, ``fy``) px (fractions of a pixel) and
    where the mask's corner lies from that point's whole pixel."""
    left, top, right, bottom = (math.floor(v) for v in font.getbbox(text, anchor=anchor))
    pad = 2  # antialiasing and the fraction reach a pixel or so past the box
    # The anchor's whole pixel in the mask, never left of or above it: Pillow truncates a negative
    # position towards 0, which would put the glyphs elsewhere than on the picture.
    x0, y0 = max(0, pad - left), max(0, pad - top)
    mask = Image.new("L", (x0 + max(right, 0) + pad, y0 + max(bottom, 0) + pad), 0)
    ImageDraw.Draw(mask).text((x0 + fx, y0 + fy), text, fill=255, font=font, anchor=anchor)
    return mask, (-x0, -y0)


@functools.lru_cache(maxsize=4096)
def text_length(text: str, font: ImageFont.FreeTypeFont) -> float:
    """``font.getlength(text)``, kept: a picture's labels are measured again turn after turn."""
    return float(font.getlength(text))


class StampDraw(ImageDraw.ImageDraw):
    """``ImageDraw.Draw(img)`` whose plain ``text`` calls (a string, a TrueType font, a fill, at most
    an anchor; none left of or above the picture) stamp a kept mask; any other call draws as usual."""

    def __init__(self, im: Image.Image) -> None:
        super().__init__(im)
        self.canvas = im

    def text(self, xy: Any, text: Any, fill: Any = None, font: Any = None, anchor: Any = None,
             *args: Any, **kwargs: Any) -> None:
        x, y = float(xy[0]), float(xy[1])
        if args or kwargs or not isinstance(text, str) or "\n" in text or fill is None \
                or not isinstance(font, ImageFont.FreeTypeFont) or x < 0 or y < 0:
            super().text(xy, text, fill, font, anchor, *args, **kwargs)
            return
        fx, fy = math.modf(x)[0], math.modf(y)[0]
        mask, (dx, dy) = _stamp(text, font, anchor, fx, fy)
        self.canvas.paste(fill, (int(x) + dx, int(y) + dy), mask)
