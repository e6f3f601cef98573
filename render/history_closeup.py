"""A close-up of the History of the World map around a few lands, for a turn notice: the crop is
drawn at a larger scale, so names and pieces read at chat width (about 800 px) where the whole map
does not. The whole map goes along as a second picture."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Final

from PIL import Image

from engine.history.epochs5.view import Epochs5View
from engine.history.view import ClassicView
from render import palette
from render.history_board import (
    BASE_WIDTH,
    CLASSIC,
    EPOCHS5,
    HEADER,
    NAMES_FROM,
    _base,
    _geometry,
    _land_boxes,
    _names_mask,
    _scaled_ids,
    _seat,
    history_image,
    label_layout,
)
from render.history_shown import HistoryView, shown_in
from render.marks import draw_piece
from render.palette import font
from render.png import encode_png
from render.stamps import StampDraw, text_length

# Base px (at BASE_WIDTH) kept round the lands, the narrowest crop (so a single small land still
# shows its neighbours), and the shape of the picture (wider than tall, as chat shows it best).
PAD: Final = 70
MIN_WIDTH: Final = 440
ASPECT: Final = 4 / 3
# A close-up wider than a notice's (``/annals board`` draws at the bot's board width, 1600 px) has
# the whole map's shape instead: the two pictures of the message sit alike in chat, and the message
# stays within its bytes (a 4:3 close-up at 1600 px is a third larger than the whole map).
WIDE_ASPECT: Final = 16 / 9
# A close-up is drawn at the scale of the whole map at one of these widths (whose bases and label
# layouts are made once), the largest finer than 1600 px whose window at the picture's width still
# holds the lands: at 800 px a window 533 base px wide at 2400 px (at 3200 px it would be under
# MIN_WIDTH), at 1600 px one 800 wide at 3200 px. Drawn at its own scale, a close-up is never
# resampled: crisp, cheap, and half the bytes of one cut from a larger map and shrunk (resampling
# blends every edge into new colours). Lands too far apart for such a window are drawn at the
# nearest finer scale and shrunk.
SCALES: Final = (1600, 2400, 3200)
NOTICE_WIDTH: Final = 800
# The widest crop (base px) a notice's close-up takes: the window an 800 px close-up shows at its own
# scale (2400 px, its names 1.5 times their size on the whole map). Lands spread wider are not all
# shown (the whole map goes along with them): a wider crop (it was up to 600 px) had to be drawn at
# 2400 px over more than 800 px and shrunk, which cost a notice a third more drawing than its encode
# and blurred every name.
MAX_WIDTH: Final = NOTICE_WIDTH * BASE_WIDTH / SCALES[1] + 1e-6  # (a hair over: the window's width is
# computed in floating point, a last digit either side)
TOP: Final = 58  # header height of the close-up at 800 px


@functools.cache
def _named_boxes(board: str) -> dict[str, tuple[float, float, float, float]]:
    """Each land's bounding box with its name's (as the whole map places it), base px."""
    names = label_layout(BASE_WIDTH, board)  # at base width, base px are the picture's px
    out: dict[str, tuple[float, float, float, float]] = {}
    for land, (x0, y0, x1, y1) in _land_boxes(board).items():
        n0, m0, n1, m1 = names[land].box
        out[land] = (min(x0, n0), min(y0, m0 - HEADER), max(x1, n1), max(y1, m1 - HEADER))
    return out


def crop_box(lands: Sequence[str], board: str = CLASSIC, size: int = 800
             ) -> tuple[float, float, float, float]:
    """The part of the map (base px, map coordinates without the header) a close-up of ``lands``
    ``size`` px wide shows: their bounding box and their names' with a margin, widened to at least
    the close-up's shape (4:3, or :data:`WIDE_ASPECT` wider than a notice) and then to the window of
    one of :data:`SCALES` where one holds it (see :func:`window_scale`), inside the map."""
    boxes = _named_boxes(board)
    unknown = [n for n in lands if n not in boxes]
    if unknown or not lands:
        raise ValueError(f"No such land on this map: {', '.join(unknown) or '(none given)'}")
    x0 = min(boxes[n][0] for n in lands) - PAD
    y0 = min(boxes[n][1] for n in lands) - PAD
    x1 = max(boxes[n][2] for n in lands) + PAD
    y1 = max(boxes[n][3] for n in lands) + PAD
    g = _geometry(board)
    map_w, map_h = g.ids.width, g.ids.height
    # As wide as the lands need and at least the close-up's shape; lands spread wider than the map
    # is tall give a wider crop (up to the whole map), never a cut one.
    aspect = ASPECT if size <= NOTICE_WIDTH else WIDE_ASPECT
    w = min(max(x1 - x0, (y1 - y0) * aspect, MIN_WIDTH), map_w)
    scale = window_scale(w, size)
    if scale is not None:
        w = size * BASE_WIDTH / scale
    h = min(w / aspect, map_h)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    left = min(max(cx - w / 2, 0.0), map_w - w)
    top = min(max(cy - h / 2, 0.0), map_h - h)
    return left, top, left + w, top + h


def window_scale(width: float, size: int) -> int | None:
    """The largest of :data:`SCALES` finer than the whole map at :data:`BASE_WIDTH` (whose smallest
    names a close-up would show no larger than the whole map does) at which a ``size`` px wide
    picture shows at least ``width`` base px (and at least :data:`MIN_WIDTH`); None where none does."""
    fits = [s for s in SCALES if s > BASE_WIDTH and size * BASE_WIDTH / s >= max(width, MIN_WIDTH) - 1e-6]
    return max(fits) if fits else None


def _header(img: Image.Image, view: HistoryView, k: float, people: Sequence[str] = ()) -> None:
    """The stage and whose turn it is, and every seat's score, in two lines."""
    draw = StampDraw(img)
    draw.rectangle((0, 0, img.width, round(TOP * k)), fill=palette.PAPER)
    draw.line((0, round(TOP * k), img.width, round(TOP * k)), fill=palette.BORDER, width=max(1, round(k)))
    seen = shown_in(view)
    you, scores, winner, turn = seen.you, seen.scores, seen.winner, seen.turn
    title = seen.epoch_name
    if turn is not None:
        title += f" · {turn.name} — {_seat(turn.player, you, people)} playing"
    elif winner is not None:
        title += f" · Game over — {_seat(winner, you, people)} {'win' if winner == you else 'wins'}"
    draw.text((10 * k, 16 * k), title, font=font(round(17 * k), True), fill=palette.INK, anchor="lm")
    x, y = 10 * k, 42 * k
    f = font(round(14 * k))
    for p, score in enumerate(scores):
        colour = palette.PLAYER_COLOURS[p % len(palette.PLAYER_COLOURS)]
        r = 6 * k
        draw_piece(draw, p, (x + r, y), r, fill=colour, ink=palette.INK)
        text = f"{_seat(p, you, people)} {score}" + (" · winner" if p == winner else "")
        bold = font(round(14 * k), True) if p in (winner, you) else f
        draw.text((x + 2 * r + 4 * k, y), text, font=bold, fill=palette.INK, anchor="lm")
        x += 2 * r + 4 * k + text_length(text, bold) + 14 * k


def map_scale(crop_width: float, size: int) -> int:
    """The width of the whole map a close-up ``crop_width`` base px wide is drawn from, to be shown
    ``size`` px wide: the smallest of :data:`SCALES` at least as fine as the picture (the picture's
    own scale when it is one of them)."""
    zoom = size / crop_width  # output px per base px
    return next((s for s in SCALES if s >= BASE_WIDTH * zoom * (1 - 1e-9)), SCALES[-1])


def closeup_image(view: HistoryView, lands: Sequence[str], *, board: str = CLASSIC,
                  size: int = 800, people: Sequence[str] = ()) -> Image.Image:
    """The picture :func:`render_closeup` encodes: the window of :func:`crop_box` drawn at its own
    scale where that is one of :data:`SCALES`, else drawn finer and shrunk."""
    if size < 200:
        raise ValueError("size must be at least 200 pixels")
    x0, y0, x1, y1 = crop_box(lands, board, size)
    scale = map_scale(x1 - x0, size)
    k = scale / BASE_WIDTH
    height = round(size * (y1 - y0) / (x1 - x0))
    if abs(k * (x1 - x0) - size) < 1e-6:
        # Exactly ``size`` px of the map at this scale: the window's corner on a whole pixel.
        ids = _geometry(board).ids
        # (never past the map's far edge, where rounding could push a window's corner by a pixel)
        left = min(round(x0 * k), scale - size)
        top = min(round(y0 * k), round(ids.height * k) - height)
        window = (left / k, top / k, (left + size) / k, (top + height) / k)
        crop = history_image(view, board, highlight=lands, size=scale, window=window)
    else:
        crop = history_image(view, board, highlight=lands, size=scale, window=(x0, y0, x1, y1))
        # An area average (box filter): it reads as Lanczos does at these gentle ratios (under 2),
        # at a third of its cost and with half the stray colours to encode.
        crop = crop.resize((size, height), Image.Resampling.BOX)
    hk = size / 800
    out = Image.new("RGB", (size, height + round(TOP * hk)), palette.PAPER)
    out.paste(crop, (0, round(TOP * hk)))
    _header(out, view, hk, people)
    return out


def render_closeup(view: HistoryView, lands: Sequence[str], *, board: str = CLASSIC,
                   size: int = 800, people: Sequence[str] = ()) -> bytes:
    """A close-up of ``lands`` (outlined) and the lands round them, ``size`` px wide, as PNG bytes.

    Args:
        view: a player's or spectator's view of a History of the World game (plain data).
        lands: the lands the turn touched (at least one, names as on the map).
        board: which map (a key of ``render.history_board.BOARDS``).
        size: width of the picture in pixels.
        people: the person at each seat (index = seat), named beside their colour in the header.

    Raises:
        ValueError: a land is not on this map, none is given, or ``size`` is below 200.
    """
    return encode_png(closeup_image(view, lands, board=board, size=size, people=people))


def closeup_classic(view: ClassicView, lands: Sequence[str], *, size: int = 800) -> bytes:
    """:func:`render_closeup` of the classic 7-epoch map."""
    return render_closeup(view, lands, board=CLASSIC, size=size)


def closeup_epochs5(view: Epochs5View, lands: Sequence[str], *, size: int = 800) -> bytes:
    """:func:`render_closeup` of the 5-epoch edition's map."""
    return render_closeup(view, lands, board=EPOCHS5, size=size)


def focus_lands(focus: Sequence[str], board: str = CLASSIC) -> list[str]:
    """The words of ``focus`` that are lands of ``board``, in their order, each once."""
    boxes = _land_boxes(board)
    return [word for word in dict.fromkeys(focus) if word in boxes]


def closeup_lands(lands: Sequence[str], board: str = CLASSIC) -> list[str]:
    """The lands one close-up shows: the newest (the last of ``lands``), then each older one that
    still fits in an 800 px close-up's crop at most :data:`MAX_WIDTH` wide (the same lands at any
    width: a wider picture shows them larger). What happened last matters most to the reader; what
    happened far from it is on the whole map, which goes along."""
    group: list[str] = []
    for land in reversed(lands):
        x0, _, x1, _ = crop_box([*group, land], board)
        if not group or x1 - x0 <= MAX_WIDTH:
            group.append(land)
    return group


def notice_pictures(view: HistoryView, *, board: str = CLASSIC, focus: Sequence[str] = (),
                    size: int = 800, people: Sequence[str] = ()) -> list[tuple[str, bytes]]:
    """A turn notice's pictures of a History map: the close-up of the lands of ``focus`` (when it
    names any; see :func:`closeup_lands`), then the whole map with those lands outlined (with the
    names of places only from ``render.history_board.NAMES_FROM`` px wide: the close-up is there to read
    them). ``people`` (a name per seat) names the people beside their colours in both headers."""
    lands = closeup_lands(focus_lands(focus, board), board)
    out = [("closeup", render_closeup(view, lands, board=board, size=size, people=people))] if lands else []
    whole = history_image(view, board, highlight=lands, size=size, people=people)
    out.append(("map", encode_png(whole)))
    return out


def notice_classic(view: ClassicView, *, focus: Sequence[str] = (), size: int = 800,
                   people: Sequence[str] = ()) -> list[tuple[str, bytes]]:
    """:func:`notice_pictures` of the classic 7-epoch map (an :class:`engine.spec.NoticePictures`)."""
    return notice_pictures(view, board=CLASSIC, focus=focus, size=size, people=people)


def notice_epochs5(view: Epochs5View, *, focus: Sequence[str] = (), size: int = 800,
                   people: Sequence[str] = ()) -> list[tuple[str, bytes]]:
    """:func:`notice_pictures` of the 5-epoch edition's map."""
    return notice_pictures(view, board=EPOCHS5, focus=focus, size=size, people=people)


def warm(board: str, sizes: Sequence[int] = (NOTICE_WIDTH, BASE_WIDTH)) -> None:
    """Build what the first pictures of ``board`` at each of ``sizes`` px (a turn notice's width and
    the bot's board width) would otherwise build while someone waits: the whole map's base, the
    close-up's at its scale (2,400 and 3,200 px: 250-400 ms each), their names' masks, the scaled
    land rasters and the land boxes. For a start-up warm-up in a worker thread; safe to call again
    (all of it is kept) and from several threads."""
    _named_boxes(board)
    for size in sizes:
        # The close-up's scale where its window is exact (see :func:`window_scale`); the whole map at
        # the picture's own width.
        scales = [s for s in SCALES if s > BASE_WIDTH and size * BASE_WIDTH / s >= MIN_WIDTH - 1e-6]
        for scale, names in [(size, size >= NAMES_FROM), *((s, True) for s in scales[-1:])]:
            base = _base(board, scale, names)
            if names:
                _names_mask(board, scale, base.height)
            _scaled_ids(board, scale)


def warm_classic(sizes: Sequence[int] = (NOTICE_WIDTH, BASE_WIDTH)) -> None:
    """:func:`warm` for the classic 7-epoch map."""
    warm(CLASSIC, sizes)


def warm_epochs5(sizes: Sequence[int] = (NOTICE_WIDTH, BASE_WIDTH)) -> None:
    """:func:`warm` for the 5-epoch edition's map."""
    warm(EPOCHS5, sizes)
