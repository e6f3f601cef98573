"""A picture as a static layer kept per size, with what changes drawn on patches of it.

Most of a turn's picture is the same as the last turn's: a map's terrain, a dashboard's frames and
titles. Drawn at full size and reduced to chat size turn after turn, they cost more than the PNG
encode of the picture. Here the static layer is drawn once at full size and kept with its reduction
by each whole factor asked for; a turn's picture is a copy of the reduction with each patch that
changes (a region's pieces, the header) drawn over the full-size layer's own pixels there and reduced
alone. A box reduction's pixel is the mean of its own square of the full picture, so a patch whose
corners lie on whole squares reduces to the very pixels the whole picture would: the composed
picture is the one drawing everything at full size and reducing it gives (tests/render/test_render_layers.py).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image

from render.stamps import StampDraw

Rect = tuple[int, int, int, int]
# Draws a patch's pieces on ``canvas``, whose top-left corner is at the given point of the picture.
Painter = Callable[[Image.Image, tuple[int, int]], None]


class LayerCache:
    """A few static layers by key (the least recently used go first), each with its reductions.

    Thread-safe: pictures are drawn in worker threads. A layer handed out is never drawn on again
    (callers crop or copy it)."""

    def __init__(self, keep: int = 8) -> None:
        self._keep = keep
        self._layers: OrderedDict[Hashable, dict[int, Image.Image]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable, draw: Callable[[], Image.Image], factor: int
            ) -> tuple[Image.Image, Image.Image]:
        """The layer ``key`` names at full size (drawn by ``draw`` the first time) and reduced by
        ``factor`` (its height cut to whole squares first)."""
        with self._lock:
            kept = self._layers.get(key)
            if kept is not None:
                self._layers.move_to_end(key)
                full, reduced = kept[1], kept.get(factor)
                if reduced is not None:
                    return full, reduced
        if kept is None:
            full = draw()
        reduced = reduce_whole(full, factor)
        with self._lock:
            entry = self._layers.setdefault(key, {1: full})
            entry[factor] = reduced
            self._layers.move_to_end(key)
            while len(self._layers) > self._keep:
                self._layers.popitem(last=False)
        return full, reduced

    def clear(self) -> None:
        with self._lock:
            self._layers.clear()


def reduce_whole(img: Image.Image, factor: int) -> Image.Image:
    """``img`` reduced by ``factor`` (each pixel the mean of a ``factor`` square; the last rows that
    make no whole square go). Factor 1 gives ``img`` itself."""
    if factor == 1:
        return img
    return img.crop((0, 0, img.width, img.height - img.height % factor)).reduce(factor)


def aligned(rect: tuple[float, float, float, float], factor: int, width: int, height: int) -> Rect:
    """``rect`` (drawing coordinates: x1 and y1 are the last pixels it reaches) grown to whole
    ``factor`` squares, its corner on an even point, and cut to the picture's whole squares. Even:
    Pillow rounds a shape's corners half to even, so a patch drawn an odd number of px from the
    picture's corner could have an edge a pixel off the whole picture's."""
    step = factor if factor % 2 == 0 else 2 * factor
    x0, y0, x1, y1 = rect
    return (max(0, int(x0) // step * step), max(0, int(y0) // step * step),
            min(width - width % factor, -(-(int(x1) + 1) // step) * step),
            min(height - height % factor, -(-(int(y1) + 1) // step) * step))


def compose(full: Image.Image, reduced: Image.Image, factor: int, patches: Sequence[tuple[Rect, Painter]]
            ) -> Image.Image | None:
    """The picture: ``reduced`` with each patch (a rect of ``full``, on whole squares, and what to draw
    on it) drawn at full size and reduced into place. None when two patches overlap (the caller then
    draws the whole picture): each is drawn over the static layer alone."""
    if _overlapping([rect for rect, _ in patches]):
        return None
    out = reduced.copy()
    for rect, paint in patches:
        if rect[0] >= rect[2] or rect[1] >= rect[3]:
            continue
        patch = full.crop(rect)
        paint(patch, (rect[0], rect[1]))
        out.paste(patch.reduce(factor) if factor > 1 else patch, (rect[0] // factor, rect[1] // factor))
    return out


class ShiftDraw(StampDraw):
    """A :class:`render.stamps.StampDraw` on a canvas whose top-left corner is at ``origin`` on the
    picture: shapes and text are given in the picture's coordinates and land where the whole picture
    has them (``origin`` even, see :func:`aligned`)."""

    def __init__(self, im: Image.Image, origin: tuple[int, int] = (0, 0)) -> None:
        super().__init__(im)
        self.dx, self.dy = origin
        self._inside = False  # within a call that makes others (a rounded rectangle draws an ellipse)

    def _shifted(self, xy: Any) -> Any:
        if self._inside or (self.dx == 0 and self.dy == 0):
            return xy
        if isinstance(xy[0], (list, tuple)):
            return [(p[0] - self.dx, p[1] - self.dy) for p in xy]
        return [v - (self.dy if i % 2 else self.dx) for i, v in enumerate(xy)]

    def _call(self, method: Callable[..., None], xy: Any, *args: Any, **kwargs: Any) -> None:
        shifted = self._shifted(xy)
        inside, self._inside = self._inside, True
        try:
            method(shifted, *args, **kwargs)
        finally:
            self._inside = inside

    def text(self, xy: Any, *args: Any, **kwargs: Any) -> None:
        self._call(super().text, xy, *args, **kwargs)

    def line(self, xy: Any, *args: Any, **kwargs: Any) -> None:
        self._call(super().line, xy, *args, **kwargs)

    def rectangle(self, xy: Any, *args: Any, **kwargs: Any) -> None:
        self._call(super().rectangle, xy, *args, **kwargs)

    def rounded_rectangle(self, xy: Any, *args: Any, **kwargs: Any) -> None:
        self._call(super().rounded_rectangle, xy, *args, **kwargs)

    def ellipse(self, xy: Any, *args: Any, **kwargs: Any) -> None:
        self._call(super().ellipse, xy, *args, **kwargs)

    def polygon(self, xy: Any, *args: Any, **kwargs: Any) -> None:
        self._call(super().polygon, xy, *args, **kwargs)


# Draws in the picture's coordinates (through a ShiftDraw on whatever part is being drawn).
Drawer = Callable[[ShiftDraw], None]


@dataclass(frozen=True)
class Section:
    """A part of a picture: its static layer (kept by ``key``; None: plain background) over ``rect``,
    and patches inside it (rects on the picture, and what changes there)."""

    key: Hashable | None
    rect: Rect
    static: Drawer | None
    patches: tuple[tuple[Rect, Drawer], ...] = ()


def draw_sections(size: tuple[int, int], background: tuple[int, int, int], sections: Sequence[Section]
                  ) -> Image.Image:
    """The whole picture at full size: every section's static layer, then every patch's pieces."""
    canvas = Image.new("RGB", size, background)
    draw = ShiftDraw(canvas)
    for section in sections:
        if section.static is not None:
            section.static(draw)
    for section in sections:
        for _, pieces in section.patches:
            pieces(draw)
    return canvas


def compose_sections(size: tuple[int, int], background: tuple[int, int, int], sections: Sequence[Section],
                     factor: int, cache: LayerCache) -> Image.Image | None:
    """:func:`draw_sections` reduced by ``factor``, each section's static layer kept in ``cache``
    (full size and reduced), each patch drawn over its section's layer alone and reduced into place.
    None when two sections or two patches overlap (the caller draws the whole picture then)."""
    if _overlapping([s.rect for s in sections]) or any(
            _overlapping([r for r, _ in s.patches]) for s in sections):
        return None
    for s in sections:
        for r, _ in s.patches:
            if not (s.rect[0] <= r[0] and s.rect[1] <= r[1] and r[2] <= s.rect[2] and r[3] <= s.rect[3]):
                return None
    out = Image.new("RGB", (size[0] // factor, size[1] // factor), background)
    for s in sections:
        x0, y0 = s.rect[0], s.rect[1]
        if s.key is None or s.static is None:
            full: Image.Image | None = None
        else:
            def layer(s: Section = s) -> Image.Image:
                canvas = Image.new("RGB", (s.rect[2] - s.rect[0], s.rect[3] - s.rect[1]), background)
                assert s.static is not None
                s.static(ShiftDraw(canvas, (s.rect[0], s.rect[1])))
                return canvas

            full, reduced = cache.get(s.key, layer, factor)
            out.paste(reduced, (x0 // factor, y0 // factor))
        for rect, pieces in s.patches:
            if rect[0] >= rect[2] or rect[1] >= rect[3]:
                continue
            if full is None:
                patch = Image.new("RGB", (rect[2] - rect[0], rect[3] - rect[1]), background)
            else:
                patch = full.crop((rect[0] - x0, rect[1] - y0, rect[2] - x0, rect[3] - y0))
            pieces(ShiftDraw(patch, (rect[0], rect[1])))
            out.paste(patch.reduce(factor) if factor > 1 else patch, (rect[0] // factor, rect[1] // factor))
    return out


def _overlapping(rects: Sequence[Rect]) -> bool:
    return any(a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
               for i, a in enumerate(rects) for b in rects[i + 1:])
