"""How long the bot's one event loop is held while games are played: loop lag per game.

Run by hand (never from the tests):
    .venv/bin/python bench/bench_loop.py [--moves 120] [--games history-classic,rise] [--pictures 1]

For each registered game (or those named), one service on a fresh SQLite file plays a game with one
person and AI seats to the table's size (greedy AIs: the heaviest), the person playing random legal
moves through ``submit`` as clicks would, so the AI seats move inside the service as they do in the
bot. Meanwhile, as the Discord front does, History notice pictures (a DM's close-up with its highlight
and the whole map) and a ``/annals board`` picture are drawn through the bot's own ``render`` path (the
default executor), one after another.

A heartbeat task wakes every millisecond and records each gap between its wake-ups beyond the
millisecond asked for. A gap counts as the smaller of its wall time and the CPU time the whole process
used during it (``time.process_time``): a worker thread holding the GIL shows as CPU, while a gap from
another process's load on the machine does not. Printed per game: p99 and max of the gaps, in ms, and
the goal (issue 25: p99 < 20 ms, max < 100 ms).
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.__main__ import load_rulesets
from bot.clock import FakeClock
from bot.service import GameService
from bot.store import Store
from engine.registry import get_game, make_policy, spec, specs

PICTURE_GAME = "history-classic"


class Heartbeat:
    """Wakes every ``step`` seconds and keeps each lateness, counted as min(wall, process CPU)."""

    def __init__(self, step: float = 0.001) -> None:
        self.step = step
        self.gaps: list[float] = []
        self._running = True

    async def run(self) -> None:
        wall, cpu = time.perf_counter(), time.process_time()
        while self._running:
            await asyncio.sleep(self.step)
            now_wall, now_cpu = time.perf_counter(), time.process_time()
            late = max(now_wall - wall - self.step, 0.0)
            self.gaps.append(min(late, now_cpu - cpu))
            wall, cpu = now_wall, now_cpu

    def stop(self) -> None:
        self._running = False

    def figures(self) -> tuple[float, float]:
        gaps = sorted(self.gaps) or [0.0]
        return gaps[int(len(gaps) * 0.99) - 1] * 1000, gaps[-1] * 1000


async def render(func: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """As the Discord front draws: in the default executor (bot.discord.kit.BotBase.render)."""
    return await asyncio.get_running_loop().run_in_executor(None, functools.partial(func, *args, **kwargs))


async def pictures(stop: asyncio.Event, views: list[Any]) -> int:
    """Draw History notice pictures (with the newest places highlighted) and a board until ``stop``."""
    draw = spec(PICTURE_GAME).notice_pictures()
    board = spec(PICTURE_GAME).render()
    drawn = 0
    while not stop.is_set():
        view = views[drawn % len(views)]
        focus = sorted(view.get("lands", {}) if isinstance(view.get("lands"), dict) else [])[:3]
        await render(draw, view, focus=tuple(focus), size=800)
        await render(board, view, size=1600)
        drawn += 1
    return drawn


def picture_views(moves: int = 60) -> list[Any]:
    game, rng = get_game(PICTURE_GAME), random.Random(3)
    state = game.setup(4, spec(PICTURE_GAME).checked_options(4, {}), 3)
    views = []
    for step in range(moves):
        if game.is_over(state):
            break
        player = sorted(game.actors(state))[0]
        state = game.apply(state, rng.choice(list(game.legal_actions(state, player)))).state
        if step % 10 == 0:
            views.append(game.view(state, player))
    return views


async def play(game_id: str, moves: int, folder: Path) -> int:
    """A game of one person and greedy AI seats, the person clicking random moves; returns clicks."""
    store = await Store.open(str(folder / f"loop-{game_id}.sqlite3"))
    try:
        svc = GameService(store, FakeClock(), default_ai="greedy", seed_factory=lambda: 5)
        table = spec(game_id).max_players
        gid = (await svc.create_lobby(1, "ann", game_id)).game_id
        for _ in range(table - 1):
            await svc.add_ai(gid, 1)
        await svc.start(gid, 1)
        clicks = 0
        while clicks < moves:
            status = await svc.status(gid)
            if status.status != "active" or 1 not in status.waiting_for:
                break
            seq, state = await svc.engine_state(gid)
            seat = next(s.seat for s in status.seats if s.user_id == 1)
            assert seat is not None  # every player has a seat once the game has started
            action = make_policy(game_id, "random", clicks).choose(state, seat)
            await svc.submit(gid, 1, action.to_json(), seq)
            clicks += 1
        return clicks
    finally:
        await store.close()


async def measure(game_id: str, moves: int, folder: Path, views: list[Any], with_pictures: bool
                  ) -> tuple[float, float, int, int]:
    beat = Heartbeat()
    ticking = asyncio.ensure_future(beat.run())
    stop = asyncio.Event()
    drawing = asyncio.ensure_future(pictures(stop, views)) if with_pictures else None
    try:
        clicks = await play(game_id, moves, folder)
    finally:
        stop.set()
        drawn = await drawing if drawing is not None else 0
        beat.stop()
        await ticking
    p99, worst = beat.figures()
    return p99, worst, clicks, drawn


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=120, help="the person's clicks per game (most)")
    parser.add_argument("--games", default="", help="comma-separated game ids (default: every registered)")
    parser.add_argument("--pictures", type=int, default=1, help="draw History pictures meanwhile (1/0)")
    args = parser.parse_args()
    ids = [g for g in args.games.split(",") if g] or [s.id for s in specs()]
    await asyncio.to_thread(load_rulesets)  # as the bot starts: games, AI and pictures loaded off the loop
    views = await asyncio.to_thread(picture_views)
    await render(spec(PICTURE_GAME).notice_pictures(), views[0], size=800)  # the first picture's set-up
    print(f"{'game':<16} {'p99 ms':>8} {'max ms':>8} {'clicks':>7} {'pictures':>9}   "
          "goal: p99 < 20, max < 100")
    with tempfile.TemporaryDirectory() as tmp:
        for game_id in ids:
            p99, worst, clicks, drawn = await measure(game_id, args.moves, Path(tmp), views,
                                                      bool(args.pictures))
            print(f"{game_id:<16} {p99:>8.1f} {worst:>8.1f} {clicks:>7} {drawn:>9}")


if __name__ == "__main__":
    asyncio.run(main())
