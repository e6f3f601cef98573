"""PNG encoding shared by every picture Annals draws."""

from __future__ import annotations

import io

import numpy as np
from PIL import Image

from render import palette as colours

# A board has a few dozen flat colours plus the antialiasing of its text and outlines: 256 palette
# entries hold it with no visible change, in a third of the bytes of a true-colour PNG. The fast
# octree quantizer costs less than the true-colour encode it saves; without dithering, flat fills
# stay flat (dithering would speckle them and cost bytes) and text edges stay crisp.
PALETTE_COLOURS = 256
# The quantizer stores a bucket's mean, a level or two off the flat colour that fills most of it;
# the colours a player tells apart (seats, areas, ink, sea, paper) are put back exactly, so a piece
# keeps the very colour of its seat. A key colour further than this from every entry is left out.
_SNAP = 12
_KEYS: tuple[colours.RGB, ...] = tuple(dict.fromkeys((
    *colours.PLAYER_COLOURS, *colours.PLAYER_TEXT, *colours.AREA_COLOURS.values(), colours.SEA,
    colours.SEA_DEEP, colours.BARREN, colours.INK, colours.PAPER, colours.WATER_INK, colours.BORDER,
    colours.HIGHLIGHT, (0, 0, 0),
)))


def _palette_image(img: Image.Image) -> Image.Image:
    """``img`` (RGB) as a palette image of at most 256 colours, the key colours exact."""
    out = img.quantize(PALETTE_COLOURS, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    entries = np.array(out.getpalette() or [], dtype=int).reshape(-1, 3)
    used = np.array(sorted(i for _, i in out.getcolors(PALETTE_COLOURS) or ()), dtype=int)
    snapped: set[int] = set()
    for key in _KEYS:
        dist = np.abs(entries[used] - np.array(key)).max(axis=1)
        i = int(used[np.argmin(dist)])
        if dist.min() <= _SNAP and i not in snapped:
            entries[i] = key
            snapped.add(i)
    out.putpalette(entries.astype(np.uint8).ravel().tolist())
    return out


def encode_png(img: Image.Image, *, palette: bool = True) -> bytes:
    """PNG bytes at Pillow's default compression (level 6): level 9 or ``optimize`` would cost
    several times the drawing for a few percent fewer bytes.

    An RGB picture is stored as a palette image (``palette=False`` keeps every colour exact, for a
    photograph-like picture where smooth gradients would band)."""
    if palette and img.mode == "RGB":
        img = _palette_image(img)
    out = io.BytesIO()
    img.save(out, format="PNG")
    return out.getvalue()
