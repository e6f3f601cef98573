"""The test game's tiny board: the prizes won by each player, drawn with Pillow from the typed view.

A real game's renderer is its own module under ``render/`` (``render/<game>.py``), named by its spec's
``renderer``; the toy keeps it in its package so that the whole game lives under ``tests/``."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from render.png import encode_png
from tests.toy.game import ToyView


def render_board(view: ToyView, *, names: bool = True, highlight: Sequence[str] = (),
                 size: int = 400) -> bytes:
    """The board of ``view``: each seat's points and the prizes it has won (the toy has no places to
    highlight nor seat names on its board, so ``names`` and ``highlight`` change nothing)."""
    img = Image.new("RGB", (size, size // 2), "white")
    draw = ImageDraw.Draw(img)
    for p in (0, 1):
        y = 20 + p * size // 4
        draw.text((10, y), f"{p + 1}: {view['points'][p]} points", fill="black")
        for i, prize in enumerate(view["won"][p]):
            draw.rectangle((120 + 30 * i, y, 144 + 30 * i, y + 30), outline="black", fill="#d0e0ff")
            draw.text((128 + 30 * i, y + 8), str(prize), fill="black")
    return encode_png(img)
