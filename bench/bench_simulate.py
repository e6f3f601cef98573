"""Times whole games between AI players (the first registered game unless --game) and prints the figures.

Run by hand (never from the tests):
    .venv/bin/python bench/bench_simulate.py [--game ID] [--games 50] [--players N] [--ai greedy]

``--players`` defaults to 6, or the game's most when it seats fewer (Rise of Empires: 5).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.__main__ import play_ai_game
from engine.registry import game_ids, spec

DEFAULT_PLAYERS = 6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=game_ids(), default=game_ids()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--players", type=int, default=None,
                        help="players per game (default: 6, or the game's most when it seats fewer)")
    parser.add_argument("--ai", default="greedy", choices=("greedy", "random"))
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    game = spec(args.game)
    if args.players is None:
        args.players = max(game.min_players, min(DEFAULT_PLAYERS, game.max_players))
    elif not game.min_players <= args.players <= game.max_players:
        parser.error(f"{game.title} is for {game.min_players} to {game.max_players} players.")
    play_ai_game(args.game, args.players, args.seed, args.ai)  # warm the data caches
    times: list[float] = []
    actions: list[int] = []
    cpu_start = time.process_time()
    for i in range(args.games):
        start = time.perf_counter()
        _, log = play_ai_game(args.game, args.players, args.seed + i, args.ai)
        times.append(time.perf_counter() - start)
        actions.append(len(log))
    cpu = time.process_time() - cpu_start  # this process alone: steadier on a shared machine
    total = sum(times)
    print(f"{args.game}: {args.games} games, {args.players} players, {args.ai} AI")
    print(f"  per game: mean {statistics.mean(times) * 1000:.0f} ms, "
          f"median {statistics.median(times) * 1000:.0f} ms, max {max(times) * 1000:.0f} ms")
    print(f"  actions per game: mean {statistics.mean(actions):.0f}")
    print(f"  actions per second: {sum(actions) / total:.0f} (per CPU second: {sum(actions) / cpu:.0f})")
    print(json.dumps({"game": args.game, "games": args.games, "players": args.players, "ai": args.ai,
                      "games_per_second": round(args.games / total, 2),
                      "mean_ms_per_game": round(statistics.mean(times) * 1000, 1)}))


if __name__ == "__main__":
    main()
