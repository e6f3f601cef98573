"""How strong and how fast are each game's AI players? (Not a test: strength is a figure to watch.)

For every registered game (or one, ``--game``): plays seeded games of one greedy
player against random players, rotating the greedy seat through every seat and
the player count through the game's range, and prints the greedy win rate
against the fair share 1/players and the mean scores; then times all-greedy
games at the most seats.

Run by hand from the repository root::

    PYTHONPATH=. python bench/bench_ai.py --games 240 --seed 0
    PYTHONPATH=. python bench/bench_ai.py --game GAME_ID --players 4 --games 120
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from dataclasses import dataclass

from engine import registry
from engine.spec import GameSpec


@dataclass
class Outcome:
    scores: list[int]
    ranking: list[int]
    actions: int


def play(spec: GameSpec, names: Sequence[str], seed: int) -> Outcome:
    """One whole game; seat ``i`` is played by the AI called ``names[i]``."""
    game = spec.load()
    state = game.setup(len(names), spec.default_options(), seed)
    policies = [spec.make_policy(name, seed * 101 + seat) for seat, name in enumerate(names)]
    actions = 0
    while not game.is_over(state):
        player = min(game.actors(state))
        state = game.apply(state, policies[player].choose(state, player)).state
        actions += 1
    return Outcome(game.scores(state), game.ranking(state), actions)


def greedy_vs_random(spec: GameSpec, games: int, players: int | None, seed: int) -> float:
    """Print the greedy player's record against random players; return its win rate over the fair share."""
    counts = list(range(spec.min_players, spec.max_players + 1))
    wins = 0
    fair = 0.0
    greedy_total = other_total = 0.0
    by_count: dict[int, list[int]] = {}
    start = time.perf_counter()
    for g in range(games):
        n = players or counts[g % len(counts)]
        seat = (g // (1 if players else len(counts))) % n
        names = ["random"] * n
        names[seat] = "greedy"
        out = play(spec, names, seed + g)
        won = out.ranking[0] == seat
        wins += int(won)
        fair += 1 / n
        greedy_total += out.scores[seat]
        other_total += (sum(out.scores) - out.scores[seat]) / (n - 1)
        tally = by_count.setdefault(n, [0, 0])
        tally[0] += int(won)
        tally[1] += 1
    took = time.perf_counter() - start
    print(f"{spec.title}: greedy vs random, {games} games, seats rotated, seeds {seed}..{seed + games - 1}")
    print(f"  greedy wins {wins}/{games} = {wins / games:.1%} (fair share {fair / games:.1%})")
    for n in sorted(by_count):
        count, total = by_count[n]
        print(f"    {n} players: {count}/{total} = {count / total:.1%} (fair {1 / n:.1%})")
    print(f"  mean score: greedy {greedy_total / games:.1f}, random {other_total / games:.1f}")
    print(f"  {games / took:.1f} games/s")
    return wins / fair if fair else 0.0


def greedy_speed(spec: GameSpec, games: int, seed: int) -> None:
    """Time all-greedy games at the most seats: wall time, and this process's CPU time (the steadier
    figure on a machine shared with other work)."""
    actions = 0
    n = spec.max_players
    start, cpu_start = time.perf_counter(), time.process_time()
    for g in range(games):
        actions += play(spec, ["greedy"] * n, seed + g).actions
    took, cpu = time.perf_counter() - start, time.process_time() - cpu_start
    print(f"  greedy vs greedy, {n} players: {games} games in {took:.2f} s, {games / took:.2f} games/s, "
          f"{took / games * 1000:.0f} ms/game, {actions / games:.0f} actions/game, "
          f"{actions / took:.0f} actions/s")
    print(f"  CPU: {cpu:.2f} s, {cpu / games * 1000:.0f} ms/game, {actions / cpu:.0f} actions per CPU second")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=registry.game_ids(), default=None, help="one game (default: all)")
    parser.add_argument("--games", type=int, default=240, help="greedy-vs-random games per game")
    parser.add_argument("--players", type=int, default=None,
                        help="players per game; default cycles through the game's range")
    parser.add_argument("--seed", type=int, default=0, help="first game seed")
    parser.add_argument("--speed-games", type=int, default=20, help="greedy-vs-greedy games timed")
    args = parser.parse_args(argv)
    for spec in registry.specs():
        if args.game not in (None, spec.id):
            continue
        if args.players is not None and not spec.min_players <= args.players <= spec.max_players:
            parser.error(f"{spec.title} is for {spec.min_players} to {spec.max_players} players")
        spec.load().setup(spec.min_players, spec.default_options(), 0)  # load the data before timing
        if args.games > 0:  # --games 0: the speed figure alone
            ratio = greedy_vs_random(spec, args.games, args.players, args.seed)
            print(f"  greedy wins {ratio:.2f} times its fair share")
        greedy_speed(spec, args.speed_games, args.seed)


if __name__ == "__main__":
    main()
