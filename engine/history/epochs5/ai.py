"""Computer players for the 5-epoch rules.

* :class:`RandomPolicy` picks uniformly among the legal actions (the baseline).
* :class:`GreedyPolicy` plays a cheap one-step evaluation: it drafts the
  empire with the most armies (a capitol and an effect count a little) and
  the event that helps most now, plays its kingdom and its enhancements,
  invades where the points it would score right now rise most per army
  (discounted by the chance of winning the battle), sieges while the catapult
  still adds to its dice and the card can pay, rerolls a losing die, and
  steps up the score track.

Both read only what their seat may see (the board, the scores, their own hand
and the cards in front of them) and use their own counter-based generator,
never the game's.
"""

from __future__ import annotations

from engine import policy, rng
from engine.core import Action
from engine.history.epochs5 import battle, turn
from engine.history.epochs5.actions import (
    Accept,
    Choose,
    Draft,
    Give,
    Invade,
    Keep,
    PlayEvent,
    Reroll,
    Retreat,
    Siege,
    Stop,
    Track,
)
from engine.history.epochs5.board import Ctx, score_breakdown
from engine.history.epochs5.data import Rules
from engine.history.epochs5.game import GAME
from engine.history.epochs5.reach import SEA
from engine.history.epochs5.state import State
from engine.policy import Policy, PolicyRng

EVENT_VALUE = {
    "kingdom": 6.0,
    "assault": 5.0,
    "reroll": 4.0,
    "reinforce": 4.0,
    "diplomacy": 3.5,
    "revolution": 3.5,
    "siege": 3.0,
    "ignore_terrain": 3.0,
    "fleet": 2.5,
    "caravan": 2.0,
    "fortify": 2.0,
    "monument": 2.5,
    "city": 2.0,
    "barbarians": 2.5,
    "disaster": 2.0,
}


class RandomPolicy(policy.RandomPolicy):
    """Uniform over the legal actions: the baseline."""

    game = GAME


class GreedyPolicy:
    """One-step greedy play (see the module docstring)."""

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self._rng = PolicyRng(seed)

    @property
    def rules(self) -> Rules:
        return GAME.rules

    def choose(self, state: State, player: int) -> Action:
        actions = GAME.legal_actions(state, player)
        kinds = {a.kind for a in actions}
        if "draft" in kinds:
            return max(actions, key=lambda a: self._card_value(state, a.card if isinstance(a, Draft) else ""))
        if "keep" in kinds or "give" in kinds:
            return self._classic_draft(state, player, actions)
        if "track" in kinds:
            return Track(player, "up")
        if "reroll" in kinds:
            return self._reroll(state, player)
        if "siege" in kinds:
            return self._siege(state, player)
        plays = [a for a in actions if isinstance(a, PlayEvent)]
        if plays:
            return plays[0]
        chooses = [a for a in actions if isinstance(a, Choose)]
        if chooses:
            return chooses[0]
        invades = [a for a in actions if isinstance(a, Invade)]
        if invades:
            best, value = self._best_invasion(state, player, invades)
            if value > 0:
                return best
        if any(isinstance(a, Stop) for a in actions):
            return Stop(player)
        return actions[-1]

    # -- drafting -------------------------------------------------------------------------------
    def _card_value(self, state: State, card: str) -> float:
        rules = self.rules
        if card in rules.events:
            ev = rules.events[card]
            return EVENT_VALUE.get(ev.effect, 1.0) + (0.5 if ev.savable else 0.0)
        emp = rules.empires[card]
        value = 2.0 * emp.armies + (1.5 if emp.structure else 0.5) + (1.0 if emp.effect else 0.0)
        value += 0.5 * (len(emp.fleets) + len(emp.caravans))
        region = rules.map.lands[emp.starts[0]].area
        if region is not None:
            value += rules.region_value(region, state.epoch)
        return value

    def _classic_draft(self, state: State, player: int, actions: list[Action]) -> Action:
        keep = next((a for a in actions if isinstance(a, Keep)), None)
        gives = [a for a in actions if isinstance(a, Give)]
        pile = keep.pile if keep else gives[0].pile if isinstance(gives[0], Give) else "event"
        card = state.drawn[pile]
        pool = (
            self.rules.events_of(state.epoch)
            if pile == "event"
            else [e.key for e in self.rules.epochs[state.epoch]]
        )
        values = sorted(self._card_value(state, c) for c in pool)
        good = self._card_value(state, card) >= values[len(values) // 2]
        if keep is not None and (good or not gives):
            return keep
        # A weak card goes to the leader; a good one we cannot keep to the weakest player.
        key = (lambda g: -state.scores[g.to]) if not good else (lambda g: state.scores[g.to])
        return min((g for g in gives if isinstance(g, Give)), key=key)

    # -- battles --------------------------------------------------------------------------------
    def _reroll(self, state: State, player: int) -> Action:
        tn = state.turn
        assert tn is not None and tn.battle is not None
        ctx = Ctx(state, self.rules)
        att, dfd = battle.totals(ctx, tn.battle)
        dice = tn.battle["att"]
        if att <= dfd and min(dice) < 4:
            return Reroll(player, dice.index(min(dice)))
        return Accept(player)

    def _siege(self, state: State, player: int) -> Action:
        tn = state.turn
        assert tn is not None
        if tn.siege_tokens > 0 or (tn.catapult < battle.CATAPULT_SPACES and tn.pool > 1):
            return Siege(player)
        return Retreat(player)

    # -- invading -------------------------------------------------------------------------------
    def _best_invasion(self, state: State, player: int, invades: list[Invade]) -> tuple[Invade, float]:
        rules = self.rules
        tn = state.turn
        assert tn is not None
        ctx = Ctx(state, rules)
        base = score_breakdown(state, rules, player)["total"]
        targets = turn.invasion_targets(ctx)
        best: tuple[Invade, float] = (invades[0], float("-inf"))
        for act in invades:
            land = act.land
            held = state.armies.get(land)
            trial = state.clone()
            trial.armies[land] = [player, tn.force]
            gain = float(score_breakdown(trial, rules, player)["total"] - base)
            if rules.map.lands[land].resource:
                gain += 0.75
            if held is None:
                value = gain + 0.5
            elif held[0] == player:
                value = gain - 0.5
            else:
                route = act.route if act.route != "auto" else targets[land][0]
                chance = battle.odds(ctx, land, route)
                if route == SEA:
                    chance *= 0.85  # the defender's naval reroll
                hurt = 1.0 + (2.0 if state.structures.get(land) == "capitol" else 0.0)
                value = chance * (gain + hurt) - (1.0 - chance) * 1.2
            value += rng.below(self._rng, 100) / 1000.0
            if value > best[1]:
                best = (act, value)
        return best


def make_policy(name: str, seed: int) -> Policy:
    """The policy called ``name`` ("random" or "greedy")."""
    return policy.make(name, seed, {"random": RandomPolicy, "greedy": GreedyPolicy})
