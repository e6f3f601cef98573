"""A History board's land rasters as the map tests read them: each land's id per pixel, the geometry that
names the ids, and which lands touch, for the classic and the 5-epoch board alike."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image


def land_ids(board_dir: Path) -> np.ndarray:
    """The board's ``lands.png``: one grey level per land (0: sea)."""
    with Image.open(board_dir / "lands.png") as img:
        return np.asarray(img.convert("L"))


def geometry(board_dir: Path) -> dict[str, Any]:
    """The board's ``geometry.json``: which id is which land, the off-board id, the labels' places."""
    data: dict[str, Any] = json.loads((board_dir / "geometry.json").read_text(encoding="utf-8"))
    return data


def touching(ids: np.ndarray, off_board: int) -> set[tuple[int, int]]:
    """The pairs of land ids whose pixels touch across a row or a column (sea and off-board aside)."""
    pairs: set[tuple[int, int]] = set()
    for a, b in ((ids[:, :-1], ids[:, 1:]), (ids[:-1, :], ids[1:, :])):
        diff = (a != b) & (a != 0) & (b != 0) & (a != off_board) & (b != off_board)
        for p, q in zip(a[diff].tolist(), b[diff].tolist(), strict=True):
            pairs.add((min(p, q), max(p, q)))
    return pairs
