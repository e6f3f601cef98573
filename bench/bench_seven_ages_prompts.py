"""How often a 7 Ages player is asked something, and how often it is a choice of one: the prompt economy.

Run by hand (never from the tests):
    .venv/bin/python bench/bench_seven_ages_prompts.py [--seeds 1,2,3] [--players 3,5] [--turns 0]

Whole games (``--turns 0``: no turn limit) with the greedy player in every seat. A decision of seat 0 is
a prompt when the platform would ask it: its legal moves are not one the game lets the platform play at
once (:meth:`engine.core.Game.forced`). Printed per player count and seed: turns, seat 0's decisions
per turn (all of them: what it was asked before moves were played for it), its prompts per turn now,
the share of its prompts with a single choice, and the moves played for it.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.registry import get_game, make_policy, spec

GAME = "seven-ages"


def play(players: int, seed: int, turns: int) -> tuple[int, int, int, int]:
    """(turns played, seat 0's prompts, those with one choice, moves played for it)."""
    game = get_game(GAME)
    options = spec(GAME).checked_options(players, {"turn_limit": turns})
    state = game.setup(players, options, seed)
    policies = [make_policy(GAME, "greedy", seed * 31 + p) for p in range(players)]
    prompts = single = forced = 0
    while not game.is_over(state):
        actors = sorted(game.actors(state))
        if 0 in actors:
            legal = game.legal_actions(state, 0)
            if game.forced(state, 0) is not None:
                forced += 1
            else:
                prompts += 1
                single += len(legal) == 1
        player = actors[0]
        state = game.apply(state, policies[player].choose(state, player)).state
    return int(game.view(state, None)["turn"]), prompts, single, forced


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default="1,2,3")
    parser.add_argument("--players", default="3,5")
    parser.add_argument("--turns", type=int, default=0, help="turn limit (0: whole games)")
    args = parser.parse_args()
    print(f"{'players':>7} {'seed':>4} {'turns':>5} {'decisions/turn':>14} {'prompts/turn':>12} "
          f"{'single':>7} {'played for it':>13}")
    for players in map(int, args.players.split(",")):
        total = [0, 0, 0, 0]
        for seed in map(int, args.seeds.split(",")):
            turns, prompts, single, forced = play(players, seed, args.turns)
            total = [t + x for t, x in zip(total, (turns, prompts, single, forced), strict=True)]
            print(f"{players:>7} {seed:>4} {turns:>5} {(prompts + forced) / max(turns, 1):>14.1f} "
                  f"{prompts / max(turns, 1):>12.1f} {single / max(prompts, 1):>7.1%} {forced:>13}")
        turns, prompts, single, forced = total
        print(f"{players:>7}  all {turns:>5} {(prompts + forced) / max(turns, 1):>14.1f} "
              f"{prompts / max(turns, 1):>12.1f} {single / max(prompts, 1):>7.1%} {forced:>13}")


if __name__ == "__main__":
    main()
