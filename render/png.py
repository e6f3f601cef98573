"""PNG encoding shared by every picture Annals draws."""

from __future__ import annotations

import io

from PIL import Image


def encode_png(img: Image.Image) -> bytes:
    """PNG bytes at Pillow's default compression (level 6): level 9 or ``optimize`` would cost
    several times the drawing for a few percent fewer bytes."""
    out = io.BytesIO()
    img.save(out, format="PNG")
    return out.getvalue()
