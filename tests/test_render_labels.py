"""The History maps' label layouts are stored when the maps are built (issue 25: computing them on a
notice's first request took 1.3-2 s): the stored ones are what the code computes, and a picture at a
stored width never computes one."""

from __future__ import annotations

import json

import pytest

from render import history_board
from render.history_board import BOARDS, CLASSIC, LAYOUT_DIR, STORED_SIZES, label_layout, layout_json


@pytest.mark.parametrize("board", list(BOARDS))
def test_the_stored_layouts_are_what_the_code_computes(board: str) -> None:
    stored = (LAYOUT_DIR / f"{board}.json").read_text(encoding="utf-8")
    # A failure here: run `PYTHONPATH=. python -m render.history_labels` and commit what it writes.
    assert json.loads(stored) == json.loads(layout_json(board))


def test_a_stored_width_is_never_computed_on_request(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(size: int, board: str = CLASSIC) -> None:
        raise AssertionError(f"layout of {board} at {size} px computed on request")

    label_layout.cache_clear()
    monkeypatch.setattr(history_board, "compute_layout", refuse)
    try:
        for board in BOARDS:
            for size in STORED_SIZES:
                assert label_layout(size, board)
    finally:
        label_layout.cache_clear()


def test_a_changed_map_is_laid_out_afresh(monkeypatch: pytest.MonkeyPatch) -> None:
    history_board._stored_layouts.cache_clear()
    label_layout.cache_clear()
    monkeypatch.setattr(history_board, "layout_inputs", lambda board: "another map")
    try:
        assert history_board._stored_layouts(CLASSIC) == {}
        assert label_layout(1600, CLASSIC) == history_board.compute_layout(1600, CLASSIC)
    finally:
        history_board._stored_layouts.cache_clear()
        label_layout.cache_clear()
