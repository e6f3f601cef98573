"""How many lone moves reveal a secret, per game, and what the hidden swap costs (issue 24, point 3).

For every registered game (or one, ``--game``): plays seeded random games at the most seats and sorts
each move its player alone made (:func:`tests.contract.swap.alone`) into the two kinds of the issue:
revealing (the hidden swap shows another seat something only the mover knew: undo is refused) and
undoable, besides those that drew from an unseen pile. Then times ``Game.undoable`` on those moves,
which is what the service pays at every commit. Not a test: the counts are figures for the note.

Run by hand from the repository root::

    PYTHONPATH=. python bench/bench_undo_reveals.py --seeds 3 --steps 400
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

import tests.toy.spec  # noqa: F401  (the toy game registers itself)
from engine import registry
from engine.core import Action, Result
from engine.spec import GameSpec
from tests.contract.swap import alone, survey


def lone_moves(spec: GameSpec, seed: int, steps: int) -> list[tuple[Any, Action, Result]]:
    """The moves of a seeded random game that their player alone made, with the state before each."""
    game = spec.load()
    players = spec.max_players
    policy = spec.make_policy("random", seed)
    pick = random.Random(seed)
    state = game.setup(players, spec.checked_options(players, {}), seed)
    out: list[tuple[Any, Action, Result]] = []
    for _ in range(steps):
        if game.is_over(state):
            break
        player = pick.choice(sorted(game.actors(state)))
        action = policy.choose(state, player)
        result = game.apply(state, action)
        if alone(game, state, action, result):
            out.append((state, action, result))
        state = result.state
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", help="one game id (default: every registered game)")
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--steps", type=int, default=400)
    args = parser.parse_args()
    specs = [s for s in registry.specs() if args.game in (None, s.id)]
    print(f"{'game':16} {'revealing':>9} {'undoable':>9} {'drawing':>8} {'problems':>8}",
          f"{'undoable() us':>14}")
    for spec in specs:
        reveals = plain = drawn = problems = 0
        for seed in range(args.seeds):
            found = survey(spec, spec.max_players, seed, args.steps)
            reveals, plain, drawn = reveals + found.reveals, plain + found.plain, drawn + found.drawn
            problems += len(found.problems)
        moves = lone_moves(spec, 0, args.steps)
        game = spec.load()
        started = time.perf_counter()
        for before, action, result in moves:
            game.undoable(before, action, result)
        spent = (time.perf_counter() - started) / max(1, len(moves)) * 1e6
        print(f"{spec.id:16} {reveals:9} {plain:9} {drawn:8} {problems:8} {spent:14.0f}")


if __name__ == "__main__":
    main()
