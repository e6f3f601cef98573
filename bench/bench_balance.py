"""Balance report from AI self-play: mean points each empire scores on its turn, by epoch.

Run by hand (never from the tests):
    PYTHONPATH=. python bench/bench_balance.py --game history --players 5 --games 100 [--ai greedy]

For the History of the World rulesets it reads the public ``turn`` and ``scored``
events: the points a player scores on an empire's turn count for that empire. It
prints each epoch's mean and every empire's mean with its distance from it, and
flags those more than 15% away. For any game it also prints the win rate by seat.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.registry import get_game, make_policy

FLAG = 0.15


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", required=True, help="a game whose view lists empires by epoch")
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ai", default="greedy")
    args = parser.parse_args()
    game = get_game(args.game)
    per_empire: dict[tuple[int, str], list[int]] = defaultdict(list)
    wins = [0] * args.players
    for g in range(args.games):
        seed = args.seed + g
        state = game.setup(args.players, {}, seed)
        ais = [make_policy(args.game, args.ai, seed * 31 + p) for p in range(args.players)]
        current: tuple[int, str] | None = None
        while not game.is_over(state):
            player = min(game.actors(state))
            result = game.apply(state, ais[player].choose(state, player))
            state = result.state
            for event in result.events:
                d = event.data
                if event.type == "turn":
                    current = (int(getattr(state, "epoch", 0)), str(d.get("name")))
                    per_empire[current].append(0)
                elif event.type == "scored" and current is not None:
                    points = d.get("points", d.get("total", 0))
                    per_empire[current][-1] += int(points) if isinstance(points, int) else 0
        wins[game.ranking(state)[0]] += 1
    print(f"{game.title}: {args.games} games, {args.players} players, {args.ai} AI")
    print("wins by seat: " + ", ".join(f"{p + 1}: {w}" for p, w in enumerate(wins)))
    for epoch in sorted({e for e, _ in per_empire}):
        rows = {name: statistics.mean(v) for (e, name), v in per_empire.items() if e == epoch}
        mean = statistics.mean(rows.values())
        print(f"epoch {epoch}: mean {mean:.1f} points per empire turn")
        for name, value in sorted(rows.items(), key=lambda kv: -kv[1]):
            off = value / mean - 1 if mean else 0.0
            flag = "  <-- out of line" if abs(off) > FLAG else ""
            print(f"    {name:<24} {value:6.1f}  {off:+.0%}{flag}")


if __name__ == "__main__":
    main()
