"""The History highlight (issue 25): the outline round the lands a turn touched is grown with shifted
maxima in numpy, never with Pillow's rank filters (which hold the GIL for their whole run, so a
picture drawn in a worker thread froze the bot's event loop), yet has the rank filters' very pixels;
a close-up drawn over its window alone is the very part of the whole map it shows; the names go back
over the pieces wherever pieces stand on them."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest
from PIL import Image, ImageFilter

from engine.registry import get_game, make_policy
from render.history_board import CLASSIC, EPOCHS5, HEADER, _dilate, history_image
from render.history_closeup import crop_box, notice_pictures
from render.history_shown import HistoryView

GAME_OF = {CLASSIC: "history-classic", EPOCHS5: "history"}


def _view(board: str, moves: int = 150) -> HistoryView:
    game_id = GAME_OF[board]
    game = get_game(game_id)
    state = game.setup(4, {}, 11)
    ais = [make_policy(game_id, "random", 110 + p) for p in range(4)]
    for _ in range(moves):
        if game.is_over(state):
            break
        p = sorted(game.actors(state))[0]
        state = game.apply(state, ais[p].choose(state, p)).state
    view: HistoryView = json.loads(json.dumps(game.view(state, 1)))
    return view


@pytest.mark.parametrize("density", [0.001, 0.02, 0.3, 0.95])
@pytest.mark.parametrize("reach", [1, 2, 3, 7, 12])
def test_growing_a_mask_gives_the_rank_filters_pixels(density: float, reach: int) -> None:
    rng = np.random.default_rng(int(density * 1000) + reach)
    mask = Image.fromarray(((rng.random((61, 97)) < density) * 255).astype(np.uint8), "L")
    size = 2 * reach + 1
    grown = mask.filter(ImageFilter.MaxFilter(size))
    assert np.array_equal(np.asarray(_dilate(mask, reach)), np.asarray(grown))


def test_a_notice_with_an_outline_runs_no_rank_filter(monkeypatch: pytest.MonkeyPatch) -> None:
    from render import history_board

    for cache in (history_board._base, history_board._names_mask, history_board._scaled_ids):
        cache.cache_clear()  # the bases too: they grow the coasts' shallows

    def refuse(self: ImageFilter.RankFilter, image: Any) -> Any:
        raise AssertionError(f"{type(self).__name__} holds the GIL for its whole run")

    monkeypatch.setattr(ImageFilter.RankFilter, "filter", refuse)
    view = _view(CLASSIC)
    pictures = notice_pictures(view, board=CLASSIC, focus=["Yunnan", "Ganges Delta"], size=800)
    assert [tag for tag, _ in pictures] == ["closeup", "map"]
    history_image(view, CLASSIC, highlight=["Gaul"], size=1600)
    for cache in (history_board._base, history_board._names_mask, history_board._scaled_ids):
        cache.cache_clear()  # drawn without the filters: no other test reuses them


@pytest.mark.parametrize("board", [CLASSIC, EPOCHS5])
@pytest.mark.parametrize("size", [1600, 2400])
def test_a_window_is_the_part_of_the_whole_map_it_shows(board: str, size: int) -> None:
    view = _view(board)
    lands = list(view["board"]["armies"])[:2] or ["Crete"]
    x0, y0, x1, y1 = crop_box(lands, board)
    k = size / 1600
    head = round(HEADER * k)
    window = (round(x0 * k) / k, round(y0 * k) / k, round(x1 * k) / k, round(y1 * k) / k)
    part = history_image(view, board, highlight=lands, size=size, window=window)
    whole = history_image(view, board, highlight=lands, size=size)
    box = (round(x0 * k), head + round(y0 * k), round(x1 * k), head + round(y1 * k))
    assert part.size == (box[2] - box[0], box[3] - box[1])
    assert np.array_equal(np.asarray(part), np.asarray(whole.crop(box)))
    # ... and the outline is there: the highlight's colour, which the plain map does not use
    plain = np.asarray(history_image(view, board, size=size, window=window))
    assert (np.asarray(part) != plain).any()


OUTLINED = {
    CLASSIC: (["Crete"], ["Northern Gaul", "Southern Gaul", "Western Gaul", "Pyrenees"],
              ["Siberian Tundra", "Eastern Siberia", "Great Plains"]),
    EPOCHS5: (["Crete"], ["Gaul", "Iberia", "Rhineland", "Alamannia"], ["Siberia", "Amur", "Cascadia"]),
}


def _outline_by_rank_filters(board: str, lands: list[str], size: int, with_names: bool) -> Image.Image:
    """The base map at ``size`` px with ``lands`` outlined as the outline is defined: the ring is
    what a square ``MaxFilter`` adds round the lands, the inner line what a ``MinFilter`` takes off
    them, both left out where a name stands (rank filters here: slow, but the very definition)."""
    from render import palette
    from render.history_board import _base, _geometry, _height, _land_boxes, _names_mask, _odd, _scaled_ids

    g = _geometry(board)
    k = size / 1600
    head = round(HEADER * k)
    wanted = {int(g.data["lands"][n]["id"]) for n in lands}
    ids = _scaled_ids(board, size)
    grow, thin = _odd(7 * k) // 2, _odd(3 * k) // 2
    boxes = [_land_boxes(board)[n] for n in lands]
    # A generous part round the lands (cut at the map's edges, where the filters stop too).
    x0 = max(0, int(min(b[0] for b in boxes) * k) - 4 * grow)
    y0 = max(0, int(min(b[1] for b in boxes) * k) - 4 * grow)
    x1 = min(ids.width, int(max(b[2] for b in boxes) * k) + 4 * grow)
    y1 = min(ids.height, int(max(b[3] for b in boxes) * k) + 4 * grow)
    mask = ids.crop((x0, y0, x1, y1)).point([255 if v in wanted else 0 for v in range(256)])
    m = np.asarray(mask) > 0
    ring = (np.asarray(mask.filter(ImageFilter.MaxFilter(2 * grow + 1))) > 0) & ~m
    inner = m & ~(np.asarray(mask.filter(ImageFilter.MinFilter(2 * thin + 1))) > 0)
    if with_names:
        named = np.asarray(_names_mask(board, size, _height(board, size)).crop(
            (x0, head + y0, x1, head + y1))) > 0
        ring, inner = ring & ~named, inner & ~named
    img = _base(board, size, with_names).copy()
    part = np.array(img.crop((x0, head + y0, x1, head + y1)))
    part[ring] = palette.HIGHLIGHT
    part[inner] = (200, 20, 120)
    img.paste(Image.fromarray(part, "RGB"), (x0, head + y0))
    return img


@pytest.mark.parametrize("board", [CLASSIC, EPOCHS5])
@pytest.mark.parametrize("size", [800, 1600, 2400])
@pytest.mark.parametrize("group", [0, 1, 2])
def test_the_outline_is_the_rank_filters_ring_and_inner_line(board: str, size: int, group: int) -> None:
    from render.history_board import _base, _highlight

    # One land; neighbours (no ring or line between them); lands on the map's edge and far apart.
    known = OUTLINED[board][group]
    names = size >= 1600
    head = round(HEADER * size / 1600)
    canvas = _base(board, size, names).copy()
    _highlight(canvas, known, size, head, board, names)
    expected = _outline_by_rank_filters(board, known, size, names)
    assert np.array_equal(np.asarray(canvas), np.asarray(expected))


@pytest.mark.parametrize("board", [CLASSIC, EPOCHS5])
@pytest.mark.parametrize("size", [1600, 2400, 3200])
def test_every_name_stands_over_the_pieces_on_it(board: str, size: int) -> None:
    # The names go back over the pieces only round the pieces: had a piece's box missed any of its
    # pixels, pasting the names everywhere would still change the picture.
    from render.history_board import _base, _names_mask

    view = _view(board, moves=400)
    img = history_image(view, board, highlight=list(view["board"]["armies"])[:3], size=size)
    again = img.copy()
    base = _base(board, size, True)
    again.paste(base, mask=_names_mask(board, size, base.height))
    assert np.array_equal(np.asarray(img), np.asarray(again))
