"""What every game's computer players share: the policy protocol, their own dice, the random
baseline and picking a policy by name. Each game's ``ai`` module adds its greedy player."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar, Protocol

from engine import rng
from engine.core import Action, Game, PlayerId


class Policy(Protocol):
    """A computer player: picks one legal action for ``player`` in ``state``."""

    name: str

    def choose(self, state: Any, player: PlayerId) -> Action: ...


class PolicyRng:
    """A policy's own seed and counter (the :class:`engine.rng.HasRng` protocol): its choices are
    repeatable and never touch the game's dice."""

    def __init__(self, seed: int) -> None:
        self.seed = int(seed)
        self.rng_counter = 0


def legal(game: Game, state: Any, player: PlayerId) -> list[Action]:
    """``player``'s legal actions; ValueError when there is none (a policy asked out of turn)."""
    actions = list(game.legal_actions(state, player))
    if not actions:
        raise ValueError(f"player {player} has no legal action now")
    return actions


class RandomPolicy:
    """Uniform over the legal actions: the baseline. A game's subclass names its ``game``."""

    name = "random"
    game: ClassVar[Game]

    def __init__(self, seed: int = 0) -> None:
        self._rng = PolicyRng(seed)

    def choose(self, state: Any, player: PlayerId) -> Action:
        actions = legal(self.game, state, player)
        return actions[rng.below(self._rng, len(actions))]


def make(name: str, seed: int, policies: Mapping[str, Callable[[int], Policy]]) -> Policy:
    """The policy called ``name``, seeded; ValueError naming the known ones otherwise."""
    if name not in policies:
        raise ValueError(f"Unknown policy {name!r}; known policies: {', '.join(policies)}")
    return policies[name](seed)
