"""The test game's tiny board: the prizes won by each player, drawn with Pillow."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image, ImageDraw

from render.png import encode_png


def render_board(view: Mapping[str, Any], *, names: bool = True, highlight: Sequence[str] = (),
                 size: int = 400) -> bytes:
    img = Image.new("RGB", (size, size // 2), "white")
    draw = ImageDraw.Draw(img)
    for p in (0, 1):
        y = 20 + p * size // 4
        draw.text((10, y), f"{p + 1}: {view['points'][p]} points", fill="black")
        for i, prize in enumerate(view["won"][p]):
            draw.rectangle((120 + 30 * i, y, 144 + 30 * i, y + 30), outline="black", fill="#d0e0ff")
            draw.text((128 + 30 * i, y + 8), str(prize), fill="black")
    return encode_png(img)
