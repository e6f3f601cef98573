"""Bytes and time of a turn notice's pictures, per registered game, before and after issue 16.

Before: the one whole board a turn DM carried (the game's board renderer, no names, at the bot's
``board_size``, 1600 px). After: the game's notice pictures (``GameSpec.notice_pictures``: a History
close-up and the whole map, Rise's map and dashboard, else the board) at 800 px, closing in on the
places the public events since the reader's last move name.

Run by hand (never from the tests):
    PYTHONPATH=. python bench/bench_notice_pictures.py [--runs 5] [--steps 120] [--seed 5] [--save DIR]
"""

from __future__ import annotations

import argparse
import io
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PIL import Image

from bot.digest import NOTICE_SIZE, places
from engine import registry
from engine.spec import GameSpec

BOARD_SIZE = 1600  # the bot's default board_size (bot.discord.kit.BotBase)


def turn_moment(spec: GameSpec, players: int, seed: int, steps: int) -> tuple[dict[str, Any], list[str]]:
    """A seeded game between the spec's default AI, stopped after ``steps`` moves when a seat that moved
    before is to move again: that seat's view and the focus of its notice."""
    game = spec.load()
    state = game.setup(players, spec.default_options(), seed)
    ais = [spec.make_policy(spec.policy_names[0], seed * 10 + p) for p in range(players)]
    log: list[dict[str, Any]] = []
    seat = 0
    while not game.is_over(state):
        seat = sorted(game.actors(state))[0]
        if len(log) >= steps and log[-1]["player"] != seat and any(e["player"] == seat for e in log):
            break
        result = game.apply(state, ais[seat].choose(state, seat))
        state = result.state
        log.append({"player": seat, "events": [e.to_json() for e in result.events if e.visible_to(None)]})
    last = max((i for i, e in enumerate(log) if e["player"] == seat), default=0)
    view: dict[str, Any] = json.loads(json.dumps(game.view(state, seat)))
    return view, places(log[last:], seat)


def timed(fn: Callable[..., Any], runs: int, *args: Any, **kwargs: Any) -> tuple[Any, float, float]:
    """(the last result of ``fn(*args, **kwargs)``, the first call's ms, the median ms of ``runs`` more)."""
    start = time.perf_counter()
    out = fn(*args, **kwargs)
    first = (time.perf_counter() - start) * 1000
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        out = fn(*args, **kwargs)
        times.append((time.perf_counter() - start) * 1000)
    return out, first, statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--steps", type=int, default=120)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--save", default="", help="a folder to write every picture to")
    args = parser.parse_args()
    for spec in registry.specs():
        players = min(max(args.players, spec.min_players), spec.max_players)
        view, focus = turn_moment(spec, players, args.seed, args.steps)
        board, b_first, b_med = timed(spec.render(), args.runs, view, names=False, size=BOARD_SIZE)
        pictures, n_first, n_med = timed(spec.notice_pictures(), args.runs, view, focus=focus,
                                         size=NOTICE_SIZE)
        print(f"{spec.id}: {players} players, seed {args.seed}, move {view.get('seq', '?')}")
        with Image.open(io.BytesIO(board)) as img:
            print(f"  before: one board {img.width}x{img.height}, {len(board) / 1024:.0f} KiB, "
                  f"{b_med:.0f} ms (first {b_first:.0f} ms)")
        parts = []
        for tag, png in pictures:
            with Image.open(io.BytesIO(png)) as img:
                parts.append(f"{tag or 'board'} {img.width}x{img.height} {len(png) / 1024:.0f} KiB")
            if args.save:
                Path(args.save).mkdir(parents=True, exist_ok=True)
                Path(args.save, f"{spec.id}-{tag or 'board'}.png").write_bytes(png)
        total = sum(len(png) for _, png in pictures)
        count = f"{len(pictures)} picture{'s' if len(pictures) != 1 else ''}"
        print(f"  after:  {count}, {total / 1024:.0f} KiB, {n_med:.0f} ms "
              f"(first {n_first:.0f} ms): {'; '.join(parts)}")


if __name__ == "__main__":
    main()
