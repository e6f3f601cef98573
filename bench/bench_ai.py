"""How strong and how fast are the classic History of the World AI players?

Plays seeded games of one greedy player against random players, rotating the
greedy seat through every seat, and prints the greedy win rate (against the
fair share 1/players), mean scores, then the speed of all-greedy games.

Run by hand from the repository root::

    PYTHONPATH=. python bench/bench_ai.py --games 240 --seed 0
    PYTHONPATH=. python bench/bench_ai.py --players 6 --games 120
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from dataclasses import dataclass

from engine.history.ai import Policy, make_policy
from engine.history.classic import GAME


@dataclass
class Outcome:
    scores: list[int]
    ranking: list[int]
    actions: int


def play(names: Sequence[str], seed: int, options: dict[str, bool] | None = None) -> Outcome:
    """One whole game; seat ``i`` is played by ``make_policy(names[i], ...)``."""
    state = GAME.setup(len(names), options or {}, seed)
    policies: list[Policy] = [
        make_policy(name, seed * 101 + seat) for seat, name in enumerate(names)
    ]
    actions = 0
    while not GAME.is_over(state):
        (player,) = GAME.actors(state)
        state = GAME.apply(state, policies[player].choose(state, player)).state
        actions += 1
    return Outcome(GAME.scores(state), GAME.ranking(state), actions)


def greedy_vs_random(games: int, players: int | None, seed: int) -> None:
    wins = 0
    fair = 0.0
    greedy_total = other_total = 0.0
    by_count: dict[int, list[int]] = {}
    start = time.perf_counter()
    for g in range(games):
        n = players or 3 + g % 4
        seat = (g // (1 if players else 4)) % n
        names = ["random"] * n
        names[seat] = "greedy"
        out = play(names, seed + g)
        won = out.ranking[0] == seat
        wins += int(won)
        fair += 1 / n
        greedy_total += out.scores[seat]
        other_total += (sum(out.scores) - out.scores[seat]) / (n - 1)
        tally = by_count.setdefault(n, [0, 0])
        tally[0] += int(won)
        tally[1] += 1
    took = time.perf_counter() - start
    print(f"greedy vs random: {games} games, seats rotated, seeds {seed}..{seed + games - 1}")
    print(f"  greedy wins {wins}/{games} = {wins / games:.1%} (fair share {fair / games:.1%})")
    for n in sorted(by_count):
        count, total = by_count[n]
        print(f"    {n} players: {count}/{total} = {count / total:.1%} (fair {1 / n:.1%})")
    print(f"  mean score: greedy {greedy_total / games:.1f}, random {other_total / games:.1f}")
    print(f"  {games / took:.1f} games/s")


def greedy_speed(games: int, seed: int) -> None:
    actions = 0
    start = time.perf_counter()
    for g in range(games):
        actions += play(["greedy"] * 6, seed + g).actions
    took = time.perf_counter() - start
    print(f"greedy vs greedy, 6 players: {games} games in {took:.2f} s")
    print(f"  {games / took:.2f} games/s, {took / games * 1000:.0f} ms/game, "
          f"{actions / games:.0f} actions/game, {actions / took:.0f} actions/s")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=240, help="greedy-vs-random games")
    parser.add_argument("--players", type=int, default=None,
                        help="players per game (3-6); default cycles 3, 4, 5, 6")
    parser.add_argument("--seed", type=int, default=0, help="first game seed")
    parser.add_argument("--speed-games", type=int, default=20,
                        help="6-player greedy-vs-greedy games timed")
    args = parser.parse_args(argv)
    if args.players is not None and not 3 <= args.players <= 6:
        parser.error("--players must be between 3 and 6")
    GAME.setup(3, {}, 0)  # load the rules data before timing
    greedy_vs_random(args.games, args.players, args.seed)
    greedy_speed(args.speed_games, args.seed)


if __name__ == "__main__":
    main()
