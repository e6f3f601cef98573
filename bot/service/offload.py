"""CPU work off the bot's one event loop, and the guard that proves it stays off.

One loop serves every game of every server: a callback that holds it 100 ms holds up every other
game's click, deadline and delivery. So the service runs the engine (moves, AI batches, decisions,
views, loading a snapshot, set-up) in worker threads (:func:`cpu`), and the fronts draw pictures in
their executor. Threads, not processes: the engine is pure Python, which hands the GIL back to the
loop every few milliseconds (``sys.getswitchinterval``), and a thread shares the game in memory at no
copying cost; the C code that held the GIL for long (Pillow's rank filters) is gone from the pictures.
``bench/bench_loop.py`` measures the loop's lag while AI-heavy games are played.

:func:`off_loop` marks a function that must never run on the loop's thread; with the environment
variable ``ANNALS_LOOP_GUARD=1`` (the test suite sets it) such a call raises :class:`LoopHeld`, so a
heavy path that slips back onto the loop fails the tests that exercise it.
"""

from __future__ import annotations

import asyncio
import functools
import os
from collections.abc import Callable, Mapping
from typing import Any, ParamSpec, TypeVar

from engine.core import Game, Result

P = ParamSpec("P")
T = TypeVar("T")


class LoopHeld(RuntimeError):
    """CPU-heavy work was called on the event loop's thread (raised only under ``ANNALS_LOOP_GUARD=1``)."""


def on_loop_thread() -> bool:
    """Whether this thread is running an event loop right now."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def off_loop(fn: Callable[P, T]) -> Callable[P, T]:
    """Mark ``fn`` as work for a worker thread: under the guard, a call on the loop's thread raises."""

    name = getattr(fn, "__qualname__", None) or getattr(getattr(fn, "func", None), "__qualname__", repr(fn))

    def guarded(*args: P.args, **kwargs: P.kwargs) -> T:
        if os.environ.get("ANNALS_LOOP_GUARD") == "1" and on_loop_thread():
            raise LoopHeld(f"{name} ran on the event loop's thread (bot.service.offload.cpu runs it off "
                           "the loop)")
        return fn(*args, **kwargs)

    return functools.update_wrapper(guarded, fn) if hasattr(fn, "__name__") else guarded


async def cpu(fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T:
    """Run ``fn`` in a worker thread and wait for it (the loop serves other games meanwhile)."""
    return await asyncio.to_thread(fn, *args, **kwargs)


@off_loop
def set_up(game: Game, players: int, options: Mapping[str, Any], seed: int) -> Any:
    """A game's set-up (a large game's data and deal take tens of milliseconds, its first one more)."""
    return game.setup(players, options, seed)


@off_loop
def seated(game: Game, state: Any) -> Result:
    """A newcomer seated by the game's own rules (:meth:`engine.core.Game.join`)."""
    return game.join(state)
