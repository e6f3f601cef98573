"""The test game's AI: random, and a 'greedy' one that bids the prize's value when it can."""

from __future__ import annotations

from engine import policy
from engine.core import Action, PlayerId
from engine.policy import Policy
from tests.toy.game import GAME, Bid, ToyState


class RandomPolicy(policy.RandomPolicy):
    game = GAME


class GreedyPolicy(policy.RandomPolicy):
    game = GAME
    name = "greedy"

    def choose(self, state: ToyState, player: PlayerId) -> Action:
        prize = state.prizes[0]
        hand = state.hands[player]
        return Bid(player, min(hand, key=lambda c: (abs(c - prize), c)))


def make_policy(name: str, seed: int) -> Policy:
    return policy.make(name, seed, {"random": RandomPolicy, "greedy": GreedyPolicy})
