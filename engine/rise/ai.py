"""Computer players for Rise of Empires.

Both policies take a state and a seat and return one of
``GAME.legal_actions(state, seat)``; their only randomness is their own
counter-based generator (:mod:`engine.rng`), never the game's.

* :class:`RandomPolicy`: uniform over the legal actions (the baseline).
* :class:`GreedyPolicy`: tries every legal action and keeps the one after
  which its position is worth most: victory points, plus what its tiles and
  regions will still earn over the game turns left, plus gold, resources and
  cubes at rough exchange rates, minus half the best rival's worth. A row of
  the action display is judged by the best thing it then allows (looking one
  or two choices ahead within the same action); a B-turn disc is judged with
  its cheapest way of paying (by that same worth). Ties go to its generator.
  In turn order determination it takes the earliest free position.
"""

from __future__ import annotations

from engine import policy, rng
from engine.core import Action
from engine.policy import Policy, PolicyRng, legal
from engine.rise import phases
from engine.rise.actions import ChooseOrder, TakeBack
from engine.rise.data import RiseData
from engine.rise.game import GAME
from engine.rise.state import RiseState

POLICIES: tuple[str, ...] = ("random", "greedy")


class RandomPolicy(policy.RandomPolicy):
    """Uniform over the legal actions: the baseline."""

    game = GAME


def worth(state: RiseState, data: RiseData, seat: int, y: dict[str, int]) -> float:
    """How much ``seat``'s position is worth, in victory points (rough); ``y``: its yields this turn."""
    s = state
    if s.final is not None:
        return float(s.final[seat])
    turns_left = data.turns - s.turn + (1 if s.phase == "actions" else 0)
    late = 1.0 if s.turn >= 5 else 0.0
    value = float(s.vp[seat])
    value += turns_left * (y["vp"] + 0.4 * y["gold"] + 0.45 * y["resources"] + 0.3 * y["cubes"])
    value += (0.34 if late else 0.45) * s.gold[seat] + (0.34 if late else 0.5) * s.resources[seat]
    value += 0.3 * s.pool[seat] + 0.1 * s.food[seat]
    projected = s.food[seat] + y["food"] * max(turns_left, 1)
    if projected < 0:
        value += projected * 0.8
    task = s.task
    if task is not None and int(task["player"]) == seat and task["stage"] == "place" and task["empire"]:
        side = data.empires[str(task["empire"])].side(s.era)
        value += 0.5 * min(s.pool[seat], 2 * side.regions) * min(turns_left, 2)
    return value


def position(state: RiseState, data: RiseData, seat: int) -> float:
    yields = phases.every_yields(state, data)
    mine = worth(state, data, seat, yields[seat])
    rival = max((worth(state, data, p, yields[p]) for p in range(state.players) if p != seat), default=0.0)
    return mine - 0.5 * rival


class GreedyPolicy:
    """One-step lookahead on a hand-made worth of the position (see the module docstring)."""

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self._rng = PolicyRng(seed)

    def _value(self, state: RiseState, action: Action, seat: int, depth: int) -> float:
        data = GAME.data
        after = GAME.apply(state, action).state
        task = after.task
        if (depth > 0 and task is not None and int(task["player"]) == seat
                and task["stage"] == "act" and after.phase == "actions"):
            options = GAME.legal_actions(after, seat)
            return max(self._value(after, a, seat, depth - 1) for a in options)
        return position(after, data, seat)

    def choose(self, state: RiseState, player: int) -> Action:
        actions = legal(GAME, state, player)
        if len(actions) == 1:
            return actions[0]
        if state.phase == "order":
            # Turn order: acting early gets the pick of the tiles and regions.
            return min(actions, key=lambda a: a.position if isinstance(a, ChooseOrder) else 99)
        best: list[Action] = []
        top = float("-inf")
        for action in self._cheapest_payments(state, actions, player):
            value = self._value(state, action, player, 2)
            if value > top + 1e-9:
                top, best = value, [action]
            elif abs(value - top) <= 1e-9:
                best.append(action)
        return best[rng.below(self._rng, len(best))]


    @staticmethod
    def _cheapest_payments(state: RiseState, actions: list[Action], seat: int) -> list[Action]:
        """``actions`` with each B-turn disc's ways of paying cut to the one that leaves the most worth."""
        data = GAME.data
        cheapest: dict[tuple[str, int], tuple[float, Action]] = {}
        out: list[Action] = []
        for action in actions:
            if not isinstance(action, TakeBack):
                out.append(action)
                continue
            value = position(GAME.apply(state, action).state, data, seat)
            disc = (action.row, action.circle)
            if disc not in cheapest or value > cheapest[disc][0] + 1e-9:
                cheapest[disc] = (value, action)
        return out + [action for _, action in cheapest.values()]


def make_policy(name: str, seed: int) -> Policy:
    """A policy by name ("random" or "greedy"), seeded."""
    return policy.make(name, seed, {"random": RandomPolicy, "greedy": GreedyPolicy})
