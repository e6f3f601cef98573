"""A whole game as one animated picture: the board after each stage, with the stage written on each frame.

A pure function of the boards already drawn (each from a view): it lays a caption strip over each and
joins them into an animated WebP, which Discord plays inline at chat width.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image, ImageDraw

from render.palette import PAPER, font

CAPTION = 30  # px: the strip the stage is written on, over the top of each frame
MAX_BYTES = 10 * 1024 * 1024  # Discord's attachment limit


def animate(frames: Sequence[tuple[str, bytes]], *, width: int = 800, seconds: float = 0.9,
            last_seconds: float = 4.0) -> bytes:
    """``frames`` (the stage's words, a board PNG) as an animated WebP ``width`` px wide: each stage
    shown ``seconds``, the last ``last_seconds``. Smaller frames are made until it fits Discord's 10 MiB."""
    if not frames:
        raise ValueError("a timelapse needs at least one frame")
    quality = 70
    while True:
        pictures = _same_size([_captioned(stage, png, width) for stage, png in frames])
        out = io.BytesIO()
        durations = [int(seconds * 1000)] * (len(pictures) - 1) + [int(last_seconds * 1000)]
        pictures[0].save(out, format="WEBP", save_all=True, append_images=pictures[1:], duration=durations,
                         loop=0, quality=quality, method=4)
        data = out.getvalue()
        if len(data) <= MAX_BYTES or width <= 320:
            return data
        width, quality = int(width * 0.8), max(quality - 10, 40)


def _same_size(pictures: list[Image.Image]) -> list[Image.Image]:
    """The frames on canvases of one size (WebP animates frames of one size only): a board that grows
    as the game goes (a longer table, a dashboard's second column) leaves paper below the shorter ones."""
    height = max(p.height for p in pictures)
    out = []
    for picture in pictures:
        if picture.height != height:
            canvas = Image.new("RGB", (picture.width, height), PAPER)
            canvas.paste(picture, (0, 0))
            picture = canvas
        out.append(picture)
    return out


def _captioned(stage: str, png: bytes, width: int) -> Image.Image:
    """The board at ``width`` under a strip with ``stage`` written on it (above the board, not over it:
    over it, the caption covered the board's own title and read as one garbled line with it)."""
    board = Image.open(io.BytesIO(png)).convert("RGB")
    if board.width != width:
        board = board.resize((width, max(1, round(board.height * width / board.width))), Image.Resampling.BOX)
    frame = Image.new("RGB", (width, board.height + CAPTION), (30, 30, 30))
    frame.paste(board, (0, CAPTION))
    ImageDraw.Draw(frame).text((10, CAPTION // 2), stage, font=font(16, bold=True), fill=(255, 255, 255),
                               anchor="lm")
    return frame
