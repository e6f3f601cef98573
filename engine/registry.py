"""Game ids -> game objects. Games are imported lazily so one game's data never slows another."""

from __future__ import annotations

import importlib

from engine.core import Game

_GAMES: dict[str, str] = {
    "history-classic": "engine.history.classic:GAME",
}


def game_ids() -> list[str]:
    """The ids of every game Annals can run."""
    return list(_GAMES)


def get_game(game_id: str) -> Game:
    """The game object for ``game_id``; KeyError naming the known ids otherwise."""
    try:
        module_name, attr = _GAMES[game_id].split(":")
    except KeyError:
        raise KeyError(f"Unknown game {game_id!r}; known games: {', '.join(_GAMES)}") from None
    game: Game = getattr(importlib.import_module(module_name), attr)
    return game
