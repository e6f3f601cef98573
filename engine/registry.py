"""Game ids -> game objects. Games are imported lazily so one game's data never slows another."""

from __future__ import annotations

import importlib
from typing import Any

from engine.core import Game

_GAMES: dict[str, str] = {
    "history-classic": "engine.history.classic:GAME",
    "history": "engine.history.epochs5.game:GAME",
    "eight-minute": "engine.eight_minute.game:GAME",
    "rise": "engine.rise.game:GAME",
}
_POLICIES: dict[str, str] = {
    "history-classic": "engine.history.ai:make_policy",
    "history": "engine.history.epochs5.ai:make_policy",
    "eight-minute": "engine.eight_minute.ai:make_policy",
    "rise": "engine.rise.ai:make_policy",
}


def game_ids() -> list[str]:
    """The ids of every game Annals can run."""
    return list(_GAMES)


def get_game(game_id: str) -> Game:
    """The game object for ``game_id``; KeyError naming the known ids otherwise."""
    if game_id not in _GAMES:
        raise KeyError(f"Unknown game {game_id!r}; known games: {', '.join(_GAMES)}")
    game: Game = _load(_GAMES[game_id])
    return game


def _load(spec: str) -> Any:
    module_name, attr = spec.split(":")
    return getattr(importlib.import_module(module_name), attr)


def make_policy(game_id: str, name: str, seed: int) -> Any:
    """An AI player for ``game_id`` ("random", "greedy", ...), seeded for repeatable play."""
    if game_id not in _POLICIES:
        raise KeyError(f"No AI players for {game_id!r} yet.")
    return _load(_POLICIES[game_id])(name, seed)
