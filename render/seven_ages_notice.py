"""The pictures of a 7 Ages turn notice (an :class:`engine.spec.NoticePictures`): the close-up of the
areas the news names, the whole map as the overview, the tracks and, in a player's own notice, their
hand."""

from __future__ import annotations

from collections.abc import Sequence

from engine.seven_ages.view import SevenView
from render.png import encode_png
from render.seven_ages import NAMES_FROM, _base, _raster_edges, render_board
from render.seven_ages_closeup import _plain, area_boxes, closeup_areas, closeup_image, focus_areas
from render.seven_ages_hand import hand_image
from render.seven_ages_tracks import render_tracks

MAP_WIDTH = 1200
"""The widest overview map a notice carries: names are drawn from this width (``NAMES_FROM``) and a
named map at 1,200 px weighs some 190 KB, at 1,600 px 280 KB, over a message's budget."""


def notice_pictures(view: SevenView, *, focus: Sequence[str] = (), size: int = 800,
                    people: Sequence[str] = ()) -> list[tuple[str, bytes]]:
    """The close-up of the areas of ``focus`` (when it names any: the newest and the older ones near
    it, :func:`render.seven_ages_closeup.closeup_areas`), then the whole map with those areas outlined,
    then the tracks (:mod:`render.seven_ages_tracks`) once an empire is in play, then the reader's hand
    (:mod:`render.seven_ages_hand`) when the view holds one (a player's own: a notice by DM).
    ``people`` (a name per seat) names the seats in the headers and keys."""
    areas = closeup_areas(focus_areas(focus))
    out: list[tuple[str, bytes]] = []
    if areas:
        img, _ = closeup_image(view, areas, size=size, people=people)
        out.append(("closeup", encode_png(img)))
    # Discord's budget (250 KiB a message): the overview at most MAP_WIDTH px wide, without names when
    # a close-up names the news's places (at 1,600 px the named map alone weighs 280 KB)
    out.append(("map", render_board(view, size=min(size, MAP_WIDTH), names=None if not areas else False,
                                    highlight=areas, people=people)))
    if view["empires"]:  # before the first empire the tracks are empty
        out.append(("tracks", render_tracks(view, size=size, people=people)))
    hand = hand_image(view, size=size)  # a player's own view only: a spectator's holds no hand
    if hand is not None:
        out.append(("hand", encode_png(hand)))
    return out


def warm(sizes: Sequence[int] = (800,)) -> None:
    """Build what the first notice pictures would otherwise build while someone waits: the whole map's
    base at each of ``sizes`` px, the close-up's map at the raster's size, its area boxes and the edges
    an outline follows (some 300 ms in all). For a start-up warm-up in a worker thread; safe to call
    again and from several threads."""
    for size in sizes:
        _base(size, size >= NAMES_FROM)
    _plain()
    area_boxes()
    _raster_edges()
