"""Times drawing a mid-game Rise of Empires board and prints the figures.

Run by hand (never from the tests):
    PYTHONPATH=. python bench/bench_rise_render.py [--players 5] [--seed 3] [--save /tmp/rise.png]

Plays a seeded greedy game into the B turn of era II, then prints the median
render time, the PNG encode time of the same image alone, their ratio and the
byte size.
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

from engine.registry import make_policy
from engine.rise.game import GAME
from render.rise import encode_png, render_board


def midgame_view(players: int, seed: int) -> dict[str, Any]:
    """A seeded greedy game played to the middle of game turn 4 (era II, B turn); the mover's view."""
    state = GAME.setup(players, {}, seed)
    ais = [make_policy("rise", "greedy", seed * 31 + p) for p in range(players)]
    while not GAME.is_over(state):
        if state.turn == 4 and state.phase == "actions" and state.act_no >= 3 * players:
            break
        p = min(GAME.actors(state))
        state = GAME.apply(state, ais[p].choose(state, p)).state
    actors = sorted(GAME.actors(state))
    data: dict[str, Any] = json.loads(json.dumps(GAME.view(state, actors[0] if actors else None)))
    return data


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--size", type=int, default=1600)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--save", default="")
    args = parser.parse_args()
    view = midgame_view(args.players, args.seed)
    cubes = sum(sum(c) for c in view["map"]["cubes"].values())
    highlight = sorted(view["map"]["cubes"])[:3]
    start = time.perf_counter()
    png = render_board(view, size=args.size)
    first = time.perf_counter() - start
    render_t: list[float] = []
    encode_t: list[float] = []
    for i in range(args.runs):
        start = time.perf_counter()
        png = render_board(view, size=args.size, highlight=highlight if i % 2 else ())
        render_t.append(time.perf_counter() - start)
    img = Image.open(io.BytesIO(png)).convert("RGB")
    img.load()
    for _ in range(args.runs):
        start = time.perf_counter()
        encode_png(img)
        encode_t.append(time.perf_counter() - start)
    r, e = statistics.median(render_t), statistics.median(encode_t)
    print(
        f"board: {args.players} players, seed {args.seed}, turn {view['turn']}, {cubes} cubes on the map"
        f", {img.width}x{img.height} px"
    )
    print(f"  first render (computes and caches the map layout): {first * 1000:.0f} ms")
    print(f"  render_board: median {r * 1000:.1f} ms over {args.runs} runs (half of them with a highlight)")
    print(f"  PNG encode of the same image alone: median {e * 1000:.1f} ms")
    print(f"  ratio render/encode: {r / e:.2f}")
    print(f"  size: {len(png)} bytes ({len(png) / 1024:.0f} KiB)")
    if args.save:
        Path(args.save).write_bytes(png)
        print(f"  saved {args.save}")


if __name__ == "__main__":
    main()
