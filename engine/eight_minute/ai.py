"""Computer players for Eight-Minute Empire.

Both policies take a state and a seat and return one of
``GAME.legal_actions(state, seat)``; their only randomness is their own
counter-based generator (:mod:`engine.rng`), never the game's.

* :class:`RandomPolicy`: uniform over the legal actions (the baseline).
* :class:`GreedyPolicy`: bids a little and goes first; takes the card whose
  goods and action are worth most for their price; then plays the action one
  army at a time, each time the step that most improves its position (its
  points minus the best rival's, plus a small pull towards contested and
  empty regions), stopping when no step helps. It reads only public
  information (the board, the face-up cards, coins) and its own bid.
"""

from __future__ import annotations

from collections import Counter

from engine import policy, rng
from engine.core import Action
from engine.eight_minute import flow
from engine.eight_minute.actions import Bid, ChooseAction, ChooseFirst, Done, Move, TakeCard
from engine.eight_minute.data import WILD, Card, EMData
from engine.eight_minute.game import GAME
from engine.eight_minute.scoring import best_goods, breakdown, goods_owned, region_controllers
from engine.eight_minute.state import EMState, Phase
from engine.policy import Policy, PolicyRng, legal

# Rough worth, in points, of one unit of each action (used to price cards).
_ACTION_WORTH = {"place": 0.55, "move": 0.35, "sail": 0.45, "city": 1.2, "destroy": 0.7}


class RandomPolicy(policy.RandomPolicy):
    """Uniform over the legal actions: the baseline."""

    game = GAME


def position_value(state: EMState, data: EMData, seat: int) -> float:
    """How well ``seat`` stands: its points minus the best rival's, plus a board-presence term."""
    parts = breakdown(state, data)
    mine = int(parts[seat]["total"])
    rival = max((int(p["total"]) for i, p in enumerate(parts) if i != seat), default=0)
    controllers = region_controllers(state, data)
    presence = 0.0
    for region in data.regions:
        own = state.army_count(region, seat) + state.city_count(region, seat)
        if own == 0:
            continue
        others = max(
            [state.army_count(region, p) + state.city_count(region, p)
             for p in range(state.players) if p != seat] + [state.neutral.get(region, 0)]
        )
        if controllers.get(region) == seat:
            # Armies beyond a one-army margin add little; a spare one guards against a destroy.
            presence += 0.15 if own - others >= 2 else 0.0
        elif own == others:
            presence += 0.3  # one more army takes it
    return mine - rival + presence


def goods_worth(state: EMState, data: EMData, player: int, card: Card) -> float:
    """What ``card``'s goods add to ``player``'s goods points, by the scoring tables of the data.

    The gain is exact (the best placing of wild goods before and after), plus a
    little for a first card of a good: it opens a set and gives wilds a home.
    """
    owned = goods_owned(state, data, player, region_controllers(state, data))
    more = Counter(owned)
    more[card.good] += card.goods
    gain = float(best_goods(more, data)[0] - best_goods(owned, data)[0])
    if card.good != WILD and owned.get(card.good, 0) == 0:
        gain += 0.3
    return gain


class GreedyPolicy:
    """One-step greedy play on :func:`position_value`, with a card-pricing rule for taking cards."""

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self._rng = PolicyRng(seed)

    def choose(self, state: EMState, player: int) -> Action:
        actions = legal(GAME, state, player)
        data = GAME.data
        if state.phase is Phase.BID:
            # A small bid: going first matters little, coins buy cards all game long.
            amount = min(state.coins[player], 1 + rng.below(self._rng, 2))
            return Bid(player, amount)
        if state.phase is Phase.FIRST:
            return ChooseFirst(player, player)
        if state.phase is Phase.NEUTRAL:
            return self._neutral(state, data, actions)
        if state.task is None:
            return self._take(state, data, player)
        if state.task["choose"]:
            choices = [a for a in actions if isinstance(a, ChooseAction)]
            return max(choices, key=lambda a: self._choice_worth(state, data, player, a.index))
        return self._step(state, data, player, actions)

    def _neutral(self, state: EMState, data: EMData, actions: list[Action]) -> Action:
        # Neutral armies hurt the rival most next to the start, where both spread first.
        near = data.land[data.start]
        ranked = sorted(actions, key=lambda a: (
            getattr(a, "region", "") not in near, state.neutral.get(getattr(a, "region", ""), 0),
            rng.below(self._rng, 1000)))
        return ranked[0]

    def _choice_worth(self, state: EMState, data: EMData, player: int, index: int) -> float:
        assert state.task is not None
        verb, n = state.task["steps"][index]
        return _ACTION_WORTH[str(verb)] * int(n)

    def _take(self, state: EMState, data: EMData, player: int) -> Action:
        turns_left = max(1, data.end_cards[state.players] - len(state.hands[player]))
        coin_worth = 0.25 + 1.5 / turns_left  # coins are worth more while many turns remain
        best: tuple[float, Action] | None = None
        for position in flow.affordable(state, data, player):  # the legal moves: a card you can pay for
            card = data.cards[state.row[position]]
            goods_gain = goods_worth(state, data, player, card)
            worths = [_ACTION_WORTH[s.verb] * s.n for s in card.actions]
            action_worth = sum(worths) if card.combine == "and" else max(worths)
            if any(s.verb == "city" for s in card.actions) and flow.cities_left(state, data, player) == 0:
                action_worth = 0.0
            value = goods_gain + action_worth - coin_worth * flow.price(data, position)
            value += rng.below(self._rng, 100) / 10000  # break exact ties without a fixed bias
            if best is None or value > best[0]:
                best = (value, TakeCard(player, position))
        assert best is not None
        return best[1]

    def _step(self, state: EMState, data: EMData, player: int, actions: list[Action]) -> Action:
        base = position_value(state, data, player)
        best_value, best_action = base, None
        for action in actions:
            if action == Done(player):
                continue
            after = GAME.apply(state, action).state
            value = position_value(after, data, player) + rng.below(self._rng, 100) / 100000
            if value > best_value:
                best_value, best_action = value, action
        if best_action is not None:
            return best_action
        task = state.task
        assert task is not None
        if task["do"] in ("move", "sail") and task["left"] > 1:
            # No single step gains now: walk an army from a crowded region towards open land.
            return self._spread(state, data, player, actions)
        return next(a for a in actions if isinstance(a, Done))

    def _spread(self, state: EMState, data: EMData, player: int, actions: list[Action]) -> Action:
        def surplus(region: str) -> int:
            own = state.army_count(region, player) + state.city_count(region, player)
            others = max([state.army_count(region, p) + state.city_count(region, p)
                          for p in range(state.players) if p != player] + [state.neutral.get(region, 0)])
            return own - others

        def empty(region: str) -> bool:
            return not any(state.army_count(region, p) for p in range(state.players)) and not \
                state.neutral.get(region, 0)

        moves = [a for a in actions if isinstance(a, Move)]
        good = [a for a in moves if surplus(a.source) >= 2 and (
            empty(a.to) or any(empty(r) for r in data.land[a.to]))]
        if good:
            return good[rng.below(self._rng, len(good))]
        return next(a for a in actions if isinstance(a, Done))


def make_policy(name: str, seed: int) -> Policy:
    """The policy called ``name`` ("random" or "greedy"), seeded for repeatable play."""
    return policy.make(name, seed, {"random": RandomPolicy, "greedy": GreedyPolicy})

