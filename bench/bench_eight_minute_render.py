"""Times drawing a mid-game Eight-Minute Empire board and prints the figures.

Run by hand (never from the tests):
    PYTHONPATH=. python bench/bench_eight_minute_render.py [--players 5] [--seed 3] [--save /tmp/em.png]

Prints the median render time, the PNG encode time of the same image alone, their
ratio and the byte size (the targets of issue 3: under 150 ms, ratio under 2, under 1 MiB).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.render_timing import arguments, measure
from engine.eight_minute.game import GAME
from engine.registry import make_policy
from render.eight_minute import render_board


def midgame_view(players: int, seed: int, options: dict[str, bool]) -> dict[str, Any]:
    """Plays a seeded greedy game until every player holds half the cards that end it; the mover's view."""
    state = GAME.setup(players, options, seed)
    ais = [make_policy(GAME.id, "greedy", seed * 31 + p) for p in range(players)]
    while not GAME.is_over(state):
        view = GAME.view(state, None)
        if state.phase == "turn" and min(len(c) for c in view["cards"]) >= view["cards_to_end"] // 2:
            break
        p = min(GAME.actors(state))
        state = GAME.apply(state, ais[p].choose(state, p)).state
    viewer = state.current if state.current is not None else None
    data: dict[str, Any] = json.loads(json.dumps(GAME.view(state, viewer)))
    return data


def main() -> None:
    args = arguments(__doc__.split("\n\n")[0], players=5).parse_args()
    view = midgame_view(args.players, args.seed, {"goods_tokens": True})
    armies = sum(sum(c) for c in view["board"]["armies"].values())
    measure(render_board, view, f"{args.players} players, seed {args.seed}, {armies} armies", args,
            highlight=sorted(view["board"]["armies"])[:3])


if __name__ == "__main__":
    main()
