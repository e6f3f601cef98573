"""The close-up of a History map round the lands a turn touched, for a turn notice at chat size."""

from __future__ import annotations

import io
import json
from typing import Any

import numpy as np
import pytest
from PIL import Image

from engine.registry import get_game, make_policy, spec
from render.history_board import BASE_WIDTH, CLASSIC, EPOCHS5, _geometry, _land_boxes
from render.history_closeup import (
    MAX_WIDTH,
    MIN_WIDTH,
    closeup_classic,
    closeup_epochs5,
    closeup_lands,
    crop_box,
    focus_lands,
    notice_pictures,
)
from render.history_shown import HistoryView
from tests.contract.test_pictures_contract import images, moment


def _view(game_id: str) -> HistoryView:
    game = get_game(game_id)
    state = game.setup(4, spec(game_id).default_options(), 9)
    ais = [make_policy(game_id, "greedy", 900 + p) for p in range(4)]
    for _ in range(300):
        if game.is_over(state):
            break
        p = sorted(game.actors(state))[0]
        state = game.apply(state, ais[p].choose(state, p)).state
    view: HistoryView = json.loads(json.dumps(game.view(state, 1)))
    return view


@pytest.mark.parametrize(("board", "lands"), [
    (CLASSIC, ["Yunnan"]), (CLASSIC, ["Northern Apennines", "Southern Apennines"]),
    (CLASSIC, ["Western Deccan", "Ganges Delta"]), (EPOCHS5, ["Macedonia", "Tigris"]),
    (CLASSIC, ["Laurentia", "Kyushu"]),  # across the whole map: the crop cannot exceed it
])
def test_the_crop_holds_the_lands_in_the_close_up_shape(board: str, lands: list[str]) -> None:
    x0, y0, x1, y1 = crop_box(lands, board)
    ids = _geometry(board).ids
    assert x0 >= 0 and y0 >= 0 and x1 <= ids.width + 1e-6 and y1 <= ids.height + 1e-6
    assert (x1 - x0) / (y1 - y0) >= 4 / 3 - 1e-6  # never taller than the chat's 4:3
    assert x1 - x0 >= min(MIN_WIDTH, ids.width)
    for land in lands:  # each land whole
        a, b, c, d = _land_boxes(board)[land]
        assert x0 <= a and c <= x1 and y0 <= b and d <= y1, land


def test_a_small_land_is_shown_larger_than_on_the_whole_map() -> None:
    x0, _, x1, _ = crop_box(["Yunnan"])
    # At 800 px wide the close-up shows Yunnan at least 1.8 times as large as the whole map does.
    assert (800 / (x1 - x0)) / (800 / BASE_WIDTH) >= 1.8


@pytest.mark.parametrize(("game_id", "draw", "lands"), [
    ("history-classic", closeup_classic, ["Great Plain of China", "Yunnan"]),
    ("history", closeup_epochs5, ["Macedonia", "Tigris"]),
])
def test_a_close_up_is_a_chat_sized_picture(game_id: str, draw: Any, lands: list[str]) -> None:
    png = draw(_view(game_id), lands, size=800)
    with Image.open(io.BytesIO(png)) as img:
        assert img.width == 800 and img.height < img.width
        pixels = np.asarray(img.convert("RGB"))
    assert len(np.unique(pixels.reshape(-1, 3), axis=0)) > 30  # a map, not an empty frame


def test_an_unknown_land_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="Atlantis"):
        crop_box(["Yunnan", "Atlantis"])
    with pytest.raises(ValueError, match="none given"):
        crop_box([])


@pytest.mark.parametrize(("game_id", "board", "lands"), [
    ("history-classic", CLASSIC, ["Northern Apennines", "Southern Apennines"]),
    ("history", EPOCHS5, ["Macedonia", "Pindus"]),
])
def test_after_the_warm_up_a_notice_and_a_board_build_no_map(game_id: str, board: str, lands: list[str]
                                                            ) -> None:
    from render import history_board as maps
    from render.history_closeup import notice_pictures, warm

    caches = (maps._base, maps._names_mask, maps._scaled_ids)
    for cache in caches:
        cache.cache_clear()
    warm(board)
    built = [cache.cache_info().misses for cache in caches]
    view = _view(game_id)
    for size in (800, BASE_WIDTH):  # a turn notice, then /annals board at the bot's board width
        tags = [tag for tag, _ in notice_pictures(view, board=board, focus=lands, size=size)]
        assert tags == ["closeup", "map"]
    assert [cache.cache_info().misses for cache in caches] == built


# -- the close-up of a turn notice, from a random game's news (the notice pictures' contract holds for every
# game in tests/contract/test_pictures_contract.py) ---------------------------------------------------
HISTORY = [("history-classic", CLASSIC), ("history", EPOCHS5)]


@pytest.mark.parametrize(("game_id", "board"), HISTORY)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_history_close_up_holds_the_newest_lands_of_the_news(game_id: str, board: str, seed: int) -> None:
    game_spec = spec(game_id)
    at = moment(game_spec, 4, seed=seed, steps=60)
    lands = focus_lands(at.focus, board)
    assert lands, f"the news since the reader's last move names no land: {at.focus}"
    shown = closeup_lands(lands, board)
    assert shown[0] == lands[-1]  # what happened last is always in the close-up
    x0, y0, x1, y1 = crop_box(shown, board)
    for land in shown:
        a, b, c, d = _land_boxes(board)[land]
        assert x0 <= a and c <= x1 and y0 <= b and d <= y1, land
    assert len(shown) == 1 or x1 - x0 <= MAX_WIDTH  # names stay large: the crop is never too wide
    pictures = game_spec.notice_pictures()(at.view, focus=at.focus, size=800)
    assert [tag for tag, _ in pictures] == ["closeup", "map"]
    closeup, whole = images(pictures)
    assert closeup.width == whole.width == 800 and closeup.height <= closeup.width


@pytest.mark.parametrize(("game_id", "board"), HISTORY)
def test_news_that_names_no_land_gives_the_whole_map_alone(game_id: str, board: str) -> None:
    at = moment(spec(game_id), 3, seed=4, steps=30)
    view: HistoryView = json.loads(json.dumps(at.view))  # a History view, as plain data
    pictures = notice_pictures(view, board=board, focus=["Sumerians", "Pacific Ocean", "empire"], size=400)
    assert [tag for tag, _ in pictures] == ["map"]
