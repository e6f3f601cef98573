"""Times drawing a mid-game Rise of Empires board and prints the figures.

Run by hand (never from the tests):
    PYTHONPATH=. python bench/bench_rise_render.py [--players 5] [--seed 3] [--save /tmp/rise.png]

Plays a seeded greedy game into the B turn of era II, then prints the median
render time, the PNG encode time of the same image alone, their ratio and the
byte size.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.render_timing import arguments, measure
from engine.registry import make_policy
from engine.rise.game import GAME
from engine.rise.view import RiseView
from render.rise import render_board


def midgame_view(players: int, seed: int) -> RiseView:
    """A seeded greedy game played to the middle of game turn 4 (era II, B turn); the mover's view."""
    state = GAME.setup(players, {}, seed)
    ais = [make_policy(GAME.id, "greedy", seed * 31 + p) for p in range(players)]
    while not GAME.is_over(state):
        if state.turn == 4 and state.phase == "actions" and state.act_no >= 3 * players:
            break
        p = min(GAME.actors(state))
        state = GAME.apply(state, ais[p].choose(state, p)).state
    actors = sorted(GAME.actors(state))
    data: RiseView = json.loads(json.dumps(GAME.view(state, actors[0] if actors else None)))
    return data


def main() -> None:
    args = arguments(__doc__.split("\n\n")[0], players=5).parse_args()
    view = midgame_view(args.players, args.seed)
    cubes = sum(sum(c) for c in view["map"]["cubes"].values())
    measure(render_board, view, f"{args.players} players, seed {args.seed}, turn {view['turn']}, "
            f"{cubes} cubes on the map", args, highlight=sorted(view["map"]["cubes"])[:3])


if __name__ == "__main__":
    main()
