"""The playout budget: how many seeded games of each registered game the contract suite plays, and how
each one is seated, so every game gets the same play (issue 31: one budget for all, never a game's own).

The fast suite plays :data:`FAST_SEEDS` of every game; ``pytest -m slow`` plays :data:`SWEEP_SEEDS`
more. Seed ``s`` seats ``min_players + s % k`` players (``k`` player counts), plays the random AI for
the first ``k`` seeds and the game's first other AI for the next ``k`` (so each player count meets
both in the fast suite when a game has at most four counts), and sets each of the game's switches
(boolean options) on or off by a coin seeded by ``s`` (its other options keep their defaults).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine.core import JSON
from engine.spec import GameSpec

FAST_SEEDS = range(8)
"""The playouts of every game in the fast suite: the same seeds for each."""
SWEEP_SEEDS = range(8, 200)
"""The longer sweep, ``slow``: 192 more playouts of every game, 200 in all (the most any game had of
its own before the budget was shared)."""


@dataclass(frozen=True)
class Seating:
    """One seeded playout: the seat count, the AI every seat plays and the lobby options."""

    seed: int
    players: int
    policy: str
    options: dict[str, JSON]


def seating(spec: GameSpec, seed: int) -> Seating:
    """How the playout of ``seed`` seats ``spec``'s game (see the module docstring)."""
    counts = spec.max_players - spec.min_players + 1
    others = [name for name in spec.policy_names if name != "random"]
    policy = others[0] if others and (seed // counts) % 2 else "random"
    coin = random.Random(seed)  # one coin per switch, the same every run
    switches = [o.name for o in spec.options if isinstance(o.default, bool)]
    options: dict[str, JSON] = {name: coin.random() < 0.5 for name in switches}
    return Seating(seed, spec.min_players + seed % counts, policy, options)
