"""Times drawing a mid-game classic board and prints the figures.

Run by hand (never from the tests):
    PYTHONPATH=. python bench/bench_render.py [--players 6] [--seed 3] [--epoch 4] [--save /tmp/board.png]

Targets (issue 3): under 150 ms per board, render/encode ratio under 2, under 1 MiB.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.render_timing import arguments, measure
from engine.history.game import GAME
from render.history_board import render_classic


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
    parser = arguments(__doc__.split("\n\n")[0], players=6)
    parser.add_argument("--epoch", type=int, default=4)
    args = parser.parse_args()
    view = midgame_view(args.players, args.seed, args.epoch)
    armies = sum(len(s) for s in view["board"]["armies"].values())
    measure(render_classic, view, f"{args.players} players, seed {args.seed}, epoch {view['epoch']}, "
            f"{armies} armies", args)


if __name__ == "__main__":
    main()
