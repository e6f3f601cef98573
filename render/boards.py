"""Game id -> its board picture. Every renderer is ``render_board(view, *, names, highlight, size)``.

The bot and the console draw any game through :func:`render_board` here; the
renderers are imported lazily so one game's raster never slows another's start.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from typing import Any, Final, Protocol

_RENDERERS: Final[dict[str, str]] = {
    "history-classic": "render.board:render_board",
    "history": "render.board:render_board",
    "eight-minute": "render.eight_minute:render_board",
    "rise": "render.rise:render_board",
}


class BoardRenderer(Protocol):
    def __call__(
        self, view: Mapping[str, Any], *, names: bool = ..., highlight: Sequence[str] = ..., size: int = ...
    ) -> bytes: ...


def has_board(game_id: str) -> bool:
    """Whether Annals can draw ``game_id``'s board."""
    return game_id in _RENDERERS


def renderer(game_id: str) -> BoardRenderer:
    """The board renderer of ``game_id``; ValueError naming the games that have one otherwise."""
    if game_id not in _RENDERERS:
        raise ValueError(f"No board picture for {game_id!r}; known: {', '.join(_RENDERERS)}")
    module, attr = _RENDERERS[game_id].split(":")
    fn: BoardRenderer = getattr(importlib.import_module(module), attr)
    return fn


def render_board(
    view: Mapping[str, Any], *, names: bool = True, highlight: Sequence[str] = (), size: int = 1600
) -> bytes:
    """The board of the game ``view`` belongs to (its ``"game"`` id), as PNG bytes."""
    draw = renderer(str(view.get("game", "")))
    return draw(view, names=names, highlight=highlight, size=size)
