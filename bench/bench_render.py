"""Times drawing a mid-game classic board and prints the figures.

Run by hand (never from the tests):
    PYTHONPATH=. python bench/bench_render.py [--players 6] [--seed 3] [--epoch 4] [--save /tmp/board.png]

Targets (issue 3): under 150 ms per board, render/encode ratio under 2, under 1 MiB.
"""

from __future__ import annotations

import argparse
import io
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PIL import Image

from engine.history.classic import GAME
from render.board import _base, encode_png, render_board


def midgame_view(players: int, seed: int, epoch: int, ai: str = "greedy") -> dict[str, Any]:
    """Plays a seeded AI game until ``epoch`` is under way; the active player's view as plain data."""
    from engine.history.ai import make_policy

    state = GAME.setup(players, {}, seed)
    policies = [make_policy(ai, seed * 100 + p) for p in range(players)]
    steps = 0
    while not GAME.is_over(state) and steps < 100_000:
        if state.epoch >= epoch and state.turn is not None and state.turn.step == "expand":
            break
        actors = sorted(GAME.actors(state))
        p = actors[0]
        state = GAME.apply(state, policies[p].choose(state, p)).state
        steps += 1
    viewer = state.turn.player if state.turn is not None else None
    data: dict[str, Any] = json.loads(json.dumps(GAME.view(state, viewer)))
    return data


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--epoch", type=int, default=4)
    parser.add_argument("--size", type=int, default=1600)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--save", default="")
    args = parser.parse_args()
    view = midgame_view(args.players, args.seed, args.epoch)
    armies = sum(len(s) for s in view["board"]["armies"].values())
    start = time.perf_counter()
    png = render_board(view, size=args.size)
    first = time.perf_counter() - start
    render_t: list[float] = []
    encode_t: list[float] = []
    for _ in range(args.runs):
        start = time.perf_counter()
        png = render_board(view, size=args.size)
        render_t.append(time.perf_counter() - start)
    img = Image.open(io.BytesIO(png)).convert("RGB")
    img.load()
    for _ in range(args.runs):
        start = time.perf_counter()
        encode_png(img)
        encode_t.append(time.perf_counter() - start)
    r, e = statistics.median(render_t), statistics.median(encode_t)
    print(
        f"board: {args.players} players, seed {args.seed}, epoch {view['epoch']}, {armies} armies, "
        f"{img.width}x{img.height} px; base cache: {_base.cache_info().currsize} entr(y/ies)"
    )
    print(f"  first render (draws and caches the base map): {first * 1000:.0f} ms")
    print(f"  render_board: median {r * 1000:.1f} ms over {args.runs} runs")
    print(f"  PNG encode of the same image alone: median {e * 1000:.1f} ms")
    print(f"  ratio render/encode: {r / e:.2f}")
    print(f"  size: {len(png)} bytes ({len(png) / 1024:.0f} KiB)")
    if args.save:
        Path(args.save).write_bytes(png)
        print(f"  saved {args.save}")


if __name__ == "__main__":
    main()
