"""The one registry of games: every layer enumerates games through it.

A game package registers itself with one call, ``register(GameSpec(...))``, in
its ``spec.py``. The built-in packages are listed once in :data:`BUILTIN`; a
game defined elsewhere (a test's toy game) makes the same call from its own
module. Registering imports no data: the spec names the game object, its AI
players and its renderer by dotted path.
"""

from __future__ import annotations

import importlib
import threading

from engine.core import Game
from engine.policy import Policy
from engine.spec import DataCheck, GameSpec

#: The spec modules of the games Annals ships, in the order the lobby lists them.
BUILTIN: tuple[str, ...] = (
    "engine.history.spec",
    "engine.history.epochs5.spec",
    "engine.eight_minute.spec",
    "engine.rise.spec",
    "engine.seven_ages.spec",
)

_SPECS: dict[str, GameSpec] = {}
_DATA: dict[str, DataCheck] = {}
_loaded = False
_loading = False
_lock = threading.RLock()


def register(spec: GameSpec) -> GameSpec:
    """Add a game. Registering the same spec again is harmless; another spec under a taken id is an error."""
    known = _SPECS.get(spec.id)
    if known is not None and known != spec:
        raise ValueError(f"game id {spec.id!r} is registered twice with different specs")
    _SPECS[spec.id] = spec
    return spec


def register_data(check: DataCheck) -> DataCheck:
    """Add data that ``check-data`` validates before its game is registered (a game under construction)."""
    _DATA[check.id] = check
    return check


def unregister(game_id: str) -> None:
    """Remove a game registered at run time (tests that register a game of their own clean up with it)."""
    _SPECS.pop(game_id, None)


def _ensure_builtin() -> None:
    """Import the built-in games once. Another thread asking meanwhile waits for all of them (the bot
    warms rulesets in a thread while its console already answers: it listed two games of five); a
    built-in module asking while this thread imports them gets what is registered so far."""
    global _loaded, _loading
    if _loaded:
        return
    with _lock:
        if _loaded or _loading:
            return
        _loading = True
        try:
            for module in BUILTIN:
                importlib.import_module(module)
            _loaded = True
        finally:
            _loading = False


def specs(*, offered: bool = False) -> list[GameSpec]:
    """Every registered game (only those the lobby offers with ``offered=True``), built-in ones first."""
    _ensure_builtin()
    return [s for s in _SPECS.values() if s.offered or not offered]


def data_checks() -> list[DataCheck]:
    """Data-only registrations (see :func:`register_data`)."""
    _ensure_builtin()
    return list(_DATA.values())


def game_ids(*, offered: bool = False) -> list[str]:
    """The ids of every registered game."""
    return [s.id for s in specs(offered=offered)]


def spec(game_id: str) -> GameSpec:
    """The spec of ``game_id``; KeyError naming the known ids otherwise."""
    _ensure_builtin()
    if game_id not in _SPECS:
        raise KeyError(f"Unknown game {game_id!r}; known games: {', '.join(_SPECS)}")
    return _SPECS[game_id]


def get_game(game_id: str) -> Game:
    """The game object of ``game_id``."""
    return spec(game_id).load()


def make_policy(game_id: str, name: str, seed: int) -> Policy:
    """An AI player for ``game_id`` (``"random"``, ``"greedy"``, ...), seeded for repeatable play."""
    return spec(game_id).make_policy(name, seed)
