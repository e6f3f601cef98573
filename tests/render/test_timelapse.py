"""The timelapse joins boards of different heights (a board that grows as the game goes)."""

from __future__ import annotations

import io

from PIL import Image, ImageSequence

from render.palette import PAPER
from render.timelapse import CAPTION, animate


def board(width: int, height: int, colour: tuple[int, int, int]) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height), colour).save(out, format="PNG")
    return out.getvalue()


def test_boards_of_different_heights_make_one_timelapse_on_the_tallest_frame() -> None:
    """WebP animates frames of one size: Rise's three-seat dashboard grew a column mid-game and the
    game-over summary could not be sent ('Invalid frame dimensions')."""
    frames = [("Set-up", board(800, 500, (200, 30, 30))), ("Epoch 1", board(800, 700, (30, 30, 200))),
              ("Game over", board(1600, 1000, (30, 160, 30)))]
    data = animate(frames, width=800)
    picture = Image.open(io.BytesIO(data))
    shots = [frame.convert("RGB") for frame in ImageSequence.Iterator(picture)]
    assert picture.format == "WEBP" and len(shots) == 3
    assert all(shot.size == (800, 700 + CAPTION) for shot in shots)  # the caption strip above the board
    first = shots[0]
    below_caption = first.getpixel((400, CAPTION + 100))
    assert isinstance(below_caption, tuple) and below_caption[0] > 150 > below_caption[2]  # the red board
    under = first.getpixel((400, 650))  # below the 500 px board: paper, not stretched board
    assert isinstance(under, tuple) and all(abs(a - b) < 20 for a, b in zip(under, PAPER, strict=True))
