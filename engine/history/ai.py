"""Computer players for classic History of the World.

Two policies share one small interface (:class:`Policy`): given a state and a
seat, return one of ``GAME.legal_actions(state, seat)``.

* :class:`RandomPolicy` picks uniformly among the legal actions. It is the
  baseline every other policy is measured against.
* :class:`GreedyPolicy` plays a cheap one-step evaluation: it keeps strong
  empire cards and hands weak ones to the leader, plays event cards when they
  are worth more than keeping them for later, aims destructive cards at the
  score leader, and expands into the land with the best marginal scoring gain
  per army it expects to spend (area presence/dominance/control this epoch and
  a little of the next ones, capitals, cities, monuments, resources, minus the
  dice the defender rolls), then fortifies what is valuable and exposed.

Both are deterministic: their only randomness is their own counter-based
generator (:mod:`engine.rng`) seeded at construction, never the game's. The
greedy policy reads only what its seat may see: the public board and scores,
its own hand and the empire card it drew or gave, never other hands, the deck
or pre-eminence marker values. Policies are pure: no I/O.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from engine import policy, rng
from engine.core import Action
from engine.history import flow
from engine.history.actions import (
    BuildFort,
    BuyBack,
    Choose,
    Done,
    EndTurn,
    Expand,
    Give,
    Keep,
    PlayCard,
)
from engine.history.board import Ctx, army_supply, reachable
from engine.history.combat import DIFFICULT_TERRAIN, defender_dice
from engine.history.data import CardType, Empire, RulesData
from engine.history.event_cards import event_epoch
from engine.history.founding import fleet_waters
from engine.history.game import GAME
from engine.history.scoring import area_counts, level
from engine.history.state import HistoryState, Phase, Turn, TurnStep
from engine.policy import Policy, PolicyRng, legal


class RandomPolicy(policy.RandomPolicy):
    """Uniform over the legal actions: the baseline."""

    game = GAME


# -- dice ----------------------------------------------------------------------


@cache
def _max_dist(dice: int) -> tuple[float, ...]:
    """P(highest of ``dice`` six-sided dice == m) for m = 0..6."""
    total = 6.0**dice
    return (0.0, *((m**dice - (m - 1) ** dice) / total for m in range(1, 7)))


@cache
def _round(att_dice: int, def_dice: int, shift: int) -> tuple[float, float, float]:
    """(win, tie, loss) of one combat round; ``shift`` = attacker bonus - defender bonus."""
    att, dfd = _max_dist(att_dice), _max_dist(max(1, def_dice))
    win = tie = 0.0
    for a in range(1, 7):
        for d in range(1, 7):
            p = att[a] * dfd[d]
            if a + shift > d:
                win += p
            elif a + shift == d:
                tie += p
    return win, tie, 1.0 - win - tie


@dataclass(frozen=True)
class _Profile:
    """How the current force attacks (the turn's event-card bonuses folded in)."""

    dice: int = 2
    bonus: int = 0
    siege: bool = False
    wins_ties: bool = False
    treachery: str | None = None
    expert: frozenset[str] = frozenset()
    naval_power: bool = False


@cache
def _expected_armies(
    att: int, dfd: int, shift: int, wins_ties: bool, fort: bool, siege: bool
) -> float:
    """Armies an attack is expected to cost until the land is held (the one left in it included).

    A tie removes both armies and leaves the land vacant, so one more army walks
    in; a fort is the first loss and the winning attacker fights on (Chapter V).
    """

    def probs(s: int) -> tuple[float, float, float]:
        w, t, lo = _round(att, dfd, s)
        return (w + t, 0.0, lo) if wins_ties else (w, t, lo)

    w, t, lo = probs(shift)
    e0 = (w + 2 * t + lo) / max(1e-9, 1 - lo)
    if not fort:
        return e0
    wf, tf, lf = probs(shift - 1)
    after = 0.0 if siege else t + lo * e0
    return (wf * (1 + after) + tf * (1 + e0) + lf) / max(1e-9, 1 - lf)


def _win_once(att: int, dfd: int, shift: int, fort: bool) -> tuple[float, float]:
    """(P a single army takes the land, P it only empties it) - for one-shot event armies."""
    w, t, _ = _round(att, dfd, shift)
    if not fort:
        return w, t
    wf = _round(att, dfd, shift - 1)[0]
    return wf * w, wf * t


# -- static map facts --------------------------------------------------------------


class _Static:
    """Map facts the policy asks for often, computed once per rules data."""

    def __init__(self, rules: RulesData) -> None:
        wmap = rules.map
        self.area: dict[str, str | None] = {n: land.area for n, land in wmap.lands.items()}
        self.neighbours: dict[str, tuple[str, ...]] = {
            n: tuple(sorted(nb for nb in wmap.neighbours(n) if not wmap.lands[nb].barren))
            for n in wmap.lands
        }
        self.all_neighbours: dict[str, tuple[str, ...]] = {
            n: tuple(sorted(wmap.neighbours(n))) for n in wmap.lands
        }
        self.resource = {n for n, land in wmap.lands.items() if land.resource}
        self.coastal = {n for n, land in wmap.lands.items() if land.waters}
        self.terrain = {n: land.terrain for n, land in wmap.lands.items()}
        self.area_adjacent = {area: wmap.adjacent_areas(area) for area in wmap.areas}


_STATIC: dict[int, _Static] = {}


def _static(rules: RulesData) -> _Static:
    found = _STATIC.get(id(rules))
    if found is None:
        found = _STATIC[id(rules)] = _Static(rules)
    return found


# -- the greedy player ------------------------------------------------------------------


@dataclass(frozen=True)
class GreedyWeights:
    """Tunable numbers of :class:`GreedyPolicy` (points unless said otherwise)."""

    future: tuple[float, ...] = (1.0, 0.5, 0.25)  # weight of this and the next epochs
    damage_leader: float = 0.7  # worth of a point taken from the top opponent
    damage_other: float = 0.4  # ... and from any other opponent
    army: float = 2.0  # what one more army in the pool is worth
    frontier: float = 0.08  # per empty land next to a land taken (room to grow)
    progress: float = 0.35  # times the area value, for a land that changes no level yet
    fort_threat: float = 0.1  # share of a land's worth a fort protects
    army_fort: float = 0.5  # times a fort's worth, against the army's best expansion
    card_bar: float = 3.0  # value a card must beat early on; falls as the game ends
    keep_margin: float = 0.5  # keep a drawn empire this close to the average left
    # An empire card's worth: points per army, capital, fleet water, place in the
    # calling order, and the start area's value (fitted to self-play turn scores).
    emp_strength: float = 0.7
    emp_capital: float = 2.1
    emp_fleet: float = 0.57
    emp_order: float = 1.0
    emp_area: float = 0.26


class GreedyPolicy:
    """A fast one-step-lookahead player (see the module docstring)."""

    name = "greedy"

    def __init__(self, seed: int = 0, weights: GreedyWeights | None = None) -> None:
        self._rng = PolicyRng(seed)
        self.weights = weights or GreedyWeights()

    # -- entry point -------------------------------------------------------------
    def choose(self, state: HistoryState, player: int) -> Action:
        actions = legal(GAME, state, player)
        if len(actions) == 1:
            return actions[0]
        ev = _Eval(state, player, GAME.rules, self.weights)
        if state.phase is Phase.DRAW:
            best = self._draw(ev, actions)
        else:
            turn = state.turn
            assert turn is not None
            step = turn.step
            if step is TurnStep.EVENTS:
                best = self._events(ev, actions)
            elif step is TurnStep.CARD:
                best = self._card(ev, actions)
            elif step in (TurnStep.MINOR, TurnStep.CRUSADE, TurnStep.EXPAND):
                best = self._expand(ev, actions)
            elif step is TurnStep.REALLOCATE:
                best = self._reallocate(ev, actions)
            elif step is TurnStep.PICK:  # fleets to keep, fleets to take, monument sites: the default
                best = actions[0]
            else:  # naval control: keep the armies for the land
                best = _find(actions, Done) or actions[-1]
        return best

    def _pick(self, scored: Sequence[tuple[float, Action]]) -> tuple[float, Action]:
        """The best (score, action); ties broken by the policy's own generator."""
        top = max(s for s, _ in scored)
        best = [(s, a) for s, a in scored if s >= top - 1e-9]
        if len(best) == 1:
            return best[0]
        return best[rng.below(self._rng, len(best))]

    # -- the empire draw -----------------------------------------------------------
    def _draw(self, ev: _Eval, actions: list[Action]) -> Action:
        state = ev.state
        drawn = state.drawn
        assert drawn is not None
        rules = ev.rules
        empire = rules.empires[drawn]
        value = ev.empire_value(empire)
        seen = {drawn}
        for p in range(state.players):
            held = state.holding[p]
            if held is not None and (p == ev.me or state.given_by[p] == ev.me):
                seen.add(held)
        unseen = [e for e in rules.epochs[state.epoch] if e.key not in seen]
        average = sum(ev.empire_value(e) for e in unseen) / max(1, len(unseen))
        keep = _find(actions, Keep)
        if keep is not None and value >= average - self.weights.keep_margin:
            return keep
        gives = [a for a in actions if isinstance(a, Give)]
        if not gives:
            return keep or actions[0]
        strong = value >= average
        # A strong card goes to the player furthest behind, a weak one to the leader.
        scored = [
            (float(-state.scores[a.to] if strong else state.scores[a.to]), a) for a in gives
        ]
        return self._pick(scored)[1]

    # -- event cards -----------------------------------------------------------------
    def _events(self, ev: _Eval, actions: list[Action]) -> Action:
        done = _find(actions, Done)
        # One play per card: the first listed uses the default far-away pieces.
        plays: list[PlayCard] = []
        for a in actions:
            if isinstance(a, PlayCard) and all(p.card != a.card for p in plays):
                plays.append(a)
        if not plays:
            return done or actions[0]
        state = ev.state
        hand = len(state.hands[ev.me])
        turns_left = 8 - state.epoch
        ratio = min(1.0, hand / (2.0 * turns_left))
        bar = self.weights.card_bar * (1.0 - ratio)
        scored = [(ev.card_value(ev.rules.cards[a.card]), a) for a in plays]
        value, best = self._pick(scored)
        if value > 0 and value >= bar:
            return best
        return done or best

    def _card(self, ev: _Eval, actions: list[Action]) -> Action:
        choices = [a for a in actions if isinstance(a, Choose)]
        done = _find(actions, Done)
        if not choices:
            return done or actions[0]
        turn = ev.turn
        pending = turn.pending
        assert pending is not None
        scored = [(ev.target_value(pending, a.target), a) for a in choices]
        value, best = self._pick(scored)
        # Stop early only once something is chosen and what is left would hurt us.
        if done is not None and pending["chosen"] and value <= 0:
            return done
        return best

    # -- expansion -----------------------------------------------------------------
    def _expand(self, ev: _Eval, actions: list[Action]) -> Action:
        turn = ev.turn
        targets = ev.targets()
        prof = ev.profile()
        expands = [(ev.expand_score(a.land, targets.get(a.land, 0), prof), a)
                   for a in actions if isinstance(a, Expand)]
        best_expand = max((s for s, _ in expands), default=0.0)
        forts = [a for a in actions if isinstance(a, BuildFort)]
        best_fort = self._pick([(ev.fort_value(a.land), a) for a in forts]) if forts else None
        fort_value = best_fort[0] if best_fort is not None else 0.0
        paid_free = turn.free_forts > 0 or turn.coins + turn.allies_coins > 0
        if expands:
            value, best = self._pick(expands)
            # A fort paid with an army competes with the army's best expansion.
            army_fort = not paid_free and fort_value * self.weights.army_fort > value
            if value > 0 and not army_fort:
                return best
        pool = turn.force.pool + turn.force.restricted
        buyback = _find(actions, BuyBack)
        if buyback is not None and pool == 0:
            again = ev.best_score_if_pool(prof)
            if again > 0.3 and again >= fort_value:
                return buyback
        if best_fort is not None and fort_value > 0 and (
            paid_free or fort_value * self.weights.army_fort >= best_expand
        ):
            return best_fort[1]
        return _find(actions, EndTurn) or _find(actions, Done) or actions[-1]

    def _reallocate(self, ev: _Eval, actions: list[Action]) -> Action:
        """Turn fleets into coins when they reach nothing worth taking."""
        choices = [a for a in actions if isinstance(a, Choose)]
        scored = [(-ev.fleet_use(a.target), a) for a in choices]
        if scored:
            value, best = self._pick(scored)
            if value >= 0:
                return best
        return _find(actions, Done) or actions[0]


def _find(actions: Iterable[Action], cls: type[Action]) -> Action | None:
    for action in actions:
        if isinstance(action, cls):
            return action
    return None


class _Eval:
    """Everything the greedy player computes about one state, from one seat."""

    def __init__(self, state: HistoryState, me: int, rules: RulesData, w: GreedyWeights) -> None:
        self.state = state
        self.me = me
        self.rules = rules
        self.w = w
        self.st = _static(rules)
        self.ctx = Ctx(state, rules)
        epoch = state.epoch
        self.fut = sum(f for k, f in enumerate(w.future) if epoch + k <= 7)
        self.area_value = {
            area: sum(f * rules.area_value(area, epoch + k)
                      for k, f in enumerate(w.future) if epoch + k <= 7)
            for area in rules.map.areas
        }
        self.counts = area_counts(state, rules)
        others = [p for p in range(state.players) if p != me]
        top = max((state.scores[p] for p in others), default=0)
        # Damage lasts until the victim's next scoring: an opponent who has already
        # played this epoch feels it only from the next epoch on (never, in epoch VII).
        later = sum(f for k, f in enumerate(w.future[1:], start=1) if epoch + k <= 7)
        self.weight = {}
        for p in others:
            weight = w.damage_leader if state.scores[p] == top and top > 0 else w.damage_other
            played = state.played_empires[p]
            if played and rules.empires[played[-1]].epoch == epoch:
                weight *= later / self.fut
            self.weight[p] = weight
        self.weight[me] = -1.0
        self.factor = rules.level_factor
        self._swings: dict[tuple[str, int | None, int | None], float] = {}
        self._before: dict[str, dict[int, int]] = {}
        self._resources_held: int | None = None

    @property
    def turn(self) -> Turn:
        turn = self.state.turn
        assert turn is not None
        return turn

    # -- worth of holdings -----------------------------------------------------
    def _levels(self, counter: Counter[int]) -> dict[int, int]:
        """Each player's level factor (0 to 3) in an area with these land counts."""
        held = [(p, n) for p, n in counter.items() if n > 0]
        out = {}
        for p, mine in held:
            lvl = level(mine, [n for q, n in held if q != p])
            out[p] = self.factor[lvl] if lvl else 0
        return out

    def swing(self, land: str, gainer: int | None, loser: int | None) -> float:
        """Points (for me, the others' losses weighted) when ``land`` changes hands.

        Area levels only; ``gainer`` and ``loser`` may be None (a land emptied or
        filled). Positive is good for me.
        """
        area = self.st.area.get(land)
        if area is None or gainer == loser:
            return 0.0
        key = (area, gainer, loser)
        found = self._swings.get(key)
        if found is None:
            found = self._swings[key] = self._swing(area, gainer, loser)
        return found

    def _swing(self, area: str, gainer: int | None, loser: int | None) -> float:
        value = self.area_value[area]
        if not value:
            return 0.0
        counts = self.counts[area]
        before = self._before.get(area)
        if before is None:
            before = self._before[area] = self._levels(counts)
        after_counts = counts.copy()
        if gainer is not None:
            after_counts[gainer] += 1
        if loser is not None:
            after_counts[loser] -= 1
        after = self._levels(after_counts)
        total = 0.0
        for p in set(before) | set(after):
            delta = after.get(p, 0) - before.get(p, 0)
            if delta:
                total += delta * value * (1.0 if p == self.me else -self.weight[p])
        return total

    def structure_points(self, land: str) -> float:
        """Capital/city/monument points in ``land`` per scoring."""
        pts = self.rules.structure_points
        kind = self.state.structures.get(land)
        value = float(pts[kind]) if kind else 0.0
        if land in self.state.monuments:
            value += pts["monument"]
        return value

    def take_value(self, land: str, taker: int) -> float:
        """What ``taker`` taking ``land`` (sacking it) is worth to me."""
        state = self.state
        owner = state.occupant(land)
        gain = self.swing(land, taker, owner)
        pts = self.rules.structure_points
        kind = state.structures.get(land)
        after = 0.0
        if kind == "capital":
            after = float(pts["city"])
        monument = pts["monument"] if land in state.monuments else 0
        sign = 1.0 if taker == self.me else -self.weight.get(taker, 0.0)
        gain += sign * (after + monument) * self.fut
        if owner is not None and owner != taker:
            gain += self.loss_of(owner, self.structure_points(land) * self.fut)
        return gain

    def loss_of(self, owner: int, points: float) -> float:
        """My view of ``owner`` losing ``points``."""
        return -points if owner == self.me else self.weight[owner] * points

    def army_worth(self, land: str) -> float:
        """What the army in ``land`` dying is worth to me (negative if it is mine)."""
        owner = self.state.occupant(land)
        if owner is None:
            return 0.0
        value = self.swing(land, None, owner)
        value += self.loss_of(owner, self.structure_points(land) * self.fut)
        if land in self.state.forts:
            value += self.loss_of(owner, 0.5)
        return value

    # -- the turn ---------------------------------------------------------------
    def profile(self) -> _Profile:
        turn = self.turn
        force = turn.force
        if force.kind != "empire":
            return _Profile(bonus=force.bonus)
        return _Profile(
            dice=3 if turn.leader or turn.jihad_losses == 0 else 2,
            bonus=force.bonus + (1 if turn.weaponry else 0),
            siege=turn.siegecraft,
            wins_ties=turn.elite or 0 <= turn.jihad_losses < 2,
            treachery=turn.treachery,
            expert=frozenset(turn.expert),
            naval_power=turn.naval_power,
        )

    def cost(self, land: str, dice: int, prof: _Profile) -> float:
        """Expected armies to take ``land`` against ``dice`` defender dice (0: no fight)."""
        if dice <= 0:
            return 1.0
        if prof.treachery == land:
            return 1.0
        state = self.state
        fort = land in state.forts
        siege = prof.siege and (fort or land in state.structures)
        shift = prof.bonus + (1 if siege else 0)
        return _expected_armies(prof.dice, dice, shift, prof.wins_ties, fort, siege and fort)

    def targets(self) -> dict[str, int]:
        return flow.expansion_targets(self.ctx)

    def expand_score(
        self, land: str, dice: int, prof: _Profile | None = None, pool: int | None = None
    ) -> float:
        """Gain per expected army of expanding into ``land``."""
        prof = prof or self.profile()
        state, turn, st = self.state, self.turn, self.st
        owner = state.occupant(land)
        # Entering a vacant capital sacks it too, so take_value fits empty lands as well.
        gain = 0.0 if owner == self.me else self.take_value(land, self.me)
        area = st.area.get(land)
        if area is not None and owner != self.me:
            value = self.area_value[area]
            mine = self.counts[area].get(self.me, 0)
            if mine < 3 and self.swing(land, self.me, owner) <= 0:
                gain += self.w.progress * value
        if land in st.resource and turn.force.kind == "empire":
            held = self.resources_held()
            gain += self.fut * (1.0 if held % 2 == 1 else 0.4)
        room = sum(1 for nb in st.neighbours[land] if nb not in state.armies)
        gain += self.w.frontier * room
        if gain <= 0:
            return gain
        armies = self.cost(land, dice, prof)
        if pool is None:
            pool = turn.force.pool
            if turn.force.kind == "empire":
                pool += turn.coins + turn.allies_coins
        if dice > 0 and armies > pool:
            gain *= pool / armies
        return gain / armies

    def resources_held(self) -> int:
        """Resource lands the active force holds (two make a monument)."""
        if self._resources_held is None:
            lands = self.state.force_lands(self.turn.force.key)
            self._resources_held = sum(1 for x in lands if x in self.st.resource)
        return self._resources_held

    def best_score_if_pool(self, prof: _Profile) -> float:
        """The best expansion if the pool held one more army (for buying one back)."""
        turn = self.turn
        state = self.state
        best = 0.0
        for land, routes in reachable(self.ctx, turn.force).items():
            owner = state.occupant(land)
            if owner == self.me:
                continue
            dice = 0 if owner is None else defender_dice(self.ctx, land, routes)
            best = max(best, self.expand_score(land, dice, prof, pool=1 + turn.coins))
        return best

    def fort_value(self, land: str) -> float:
        state, st = self.state, self.st
        area = st.area.get(land)
        worth = self.structure_points(land) * self.fut
        if area is not None:
            worth += 0.5 * self.area_value[area]
        if land in st.resource:
            worth += 0.3
        exposed = sum(1 for nb in st.neighbours[land] if state.occupant(nb) != self.me)
        if land in st.coastal:
            exposed += 1
        if state.epoch == 7:
            # Only the empires still to be called this epoch can attack it.
            left = len(self.rules.epochs[7]) - state.call_pos - 1
            worth *= max(0, left) / 7
        return worth * min(1.0, exposed / 3) * self.w.fort_threat

    def fleet_use(self, water: str) -> float:
        """Lands a fleet in ``water`` lets the empire reach that it could not walk to."""
        empire = self.rules.empires[self.turn.empire]
        ring = set(empire.starts)
        for _ in range(2):
            ring |= {nb for land in list(ring) for nb in self.st.neighbours[land]}
        return float(sum(
            1 for land in self.rules.map.coast(water)
            if land not in ring and self.st.area.get(land) is not None
            and self.state.occupant(land) != self.me
        ))

    # -- empire cards ------------------------------------------------------------
    def empire_value(self, empire: Empire) -> float:
        rules, w = self.rules, self.w
        epoch = self.state.epoch
        area = self.st.area.get(empire.starts[0])
        value = w.emp_strength * empire.strength
        if empire.capital:
            value += w.emp_capital * len(empire.starts)
        waters = fleet_waters(self.ctx, list(empire.fleets))
        value += w.emp_fleet * len(waters)
        if area is not None:
            value += w.emp_area * rules.area_value(area, epoch)
        value -= w.emp_order * empire.order
        return value

    # -- event cards -------------------------------------------------------------
    def _near(self) -> tuple[list[str], list[str], set[str]]:
        """(enemy lands, empty lands) the coming empire can probably reach, and sea-only lands."""
        turn = self.turn
        state, st = self.state, self.st
        empire = self.rules.empires[turn.empire]
        ring = set(empire.starts)
        for _ in range(2):
            ring |= {nb for land in list(ring) for nb in st.neighbours[land]}
        waters = fleet_waters(self.ctx, [*empire.fleets, *turn.astronomy])
        by_sea = set()
        for water in waters:
            by_sea |= {x for x in self.rules.map.coast(water) if x not in ring}
        near = sorted((ring | by_sea) - set(empire.starts))
        enemy = [x for x in near if state.occupant(x) not in (None, self.me)]
        empty = [x for x in near if x not in state.armies]
        return enemy, empty, by_sea

    def _attack_costs(self, prof: _Profile) -> list[float]:
        """Expected armies of the attacks this empire will likely make, cheapest first."""
        turn = self.turn
        empire = self.rules.empires[turn.empire]
        enemy, empty, by_sea = self._near()
        costs = []
        for land in enemy:
            if land in by_sea:
                dice = 2 if prof.naval_power else 3
            else:
                difficult = self.st.terrain[land] in DIFFICULT_TERRAIN
                dice = 2 if difficult and self.st.terrain[land] not in prof.expert else 1
            costs.append((self.take_value(land, self.me), self.cost(land, dice, prof)))
        # Attacks worth making: best value per army first.
        costs.sort(key=lambda vc: -vc[0] / vc[1])
        attacks = max(0.0, empire.strength - 1 - 0.6 * len(empty))
        if costs and attacks < 1:
            attacks = 1.0
        picked = [c for _, c in costs[: round(attacks)]]
        return picked

    def _boost(self, **changes: Any) -> float:
        """Armies saved over the likely attacks by a card changing the attack profile."""
        base = self.profile()
        better = dataclasses.replace(base, **changes)
        before = self._attack_costs(base)
        after = self._attack_costs(better)
        return max(0.0, sum(before) - sum(after)) * self.w.army

    def card_value(self, card: CardType) -> float:
        """Points the card is expected to bring this turn (roughly)."""
        effect = card.effect
        turn = self.turn
        empire = self.rules.empires[turn.empire]
        base = self.profile()
        army = self.w.army
        if effect == "minor_empire":
            minor = card.minor
            assert minor is not None
            supply = army_supply(self.ctx, self.me, event_epoch(self.ctx, card))
            return 4.0 + 2.0 * min(minor.strength, supply)
        if effect == "kingdom":
            return 10.0
        supply = army_supply(self.ctx, self.me, event_epoch(self.ctx, card))
        if effect == "migrants":
            area = card.params["migrants"]["area"]
            value = 1.0 + 2 * self.area_value[area] + (2.0 if self.state.epoch >= 4 else 0.0)
            return value * min(2, supply) / 2
        if effect == "leader":
            return self._boost(dice=3)
        if effect == "jihad":
            return self._boost(dice=3, wins_ties=True) * 0.8
        if effect == "weaponry":
            return self._boost(bonus=base.bonus + 1)
        if effect == "elite_troops":
            return self._boost(wins_ties=True) * 0.6
        if effect == "siegecraft":
            return self._boost(siege=True)
        if effect == "naval_power":
            return self._boost(naval_power=True)
        if effect == "expert_troops":
            terrain = card.params["expert_troops"]["terrain"]
            return self._boost(expert=base.expert | {terrain})
        if effect in ("population_explosion", "civil_service", "allies"):
            coins = int(card.params.get("coins", 0))
            if effect == "civil_service":
                coins += (1 if empire.capital else 0) + (1 if empire.fleets else 0)
            losses = sum(c - 1 for c in self._attack_costs(base))
            used = min(float(coins), losses)
            value = used * army + (coins - used) * 0.6
            return value * (0.7 if effect == "allies" else 1.0)
        if effect == "engineering":
            return 1.4 * self.fut
        if effect == "treachery":
            enemy, _, _ = self._near()
            best = 0.0
            for land in enemy:
                best = max(best, self.target_value({"effect": "treachery", "chosen": []}, land))
            return best
        if effect == "astronomy":
            seas = self.rules.map.waters
            best = max(
                (self.target_value({"effect": "astronomy", "chosen": []}, s)
                 for s, info in seas.items() if info.kind == "sea"),
                default=0.0,
            )
            return best
        if effect == "reallocation":
            waters = fleet_waters(self.ctx, list(empire.fleets))
            return 0.6 * sum(1 for w in waters if self.fleet_use(w) == 0)
        if effect == "crusade":
            return min(3, supply) * army * 0.8
        if supply <= 0:
            value = self._destroy_value(card)
            armies = ("civil_war", "barbarians", "jewish_revolt")
            return 0.0 if effect in armies else value
        return self._destroy_value(card, supply)

    def _destroy_value(self, card: CardType, supply: int = 99) -> float:
        """Best expected value of a card aimed at other players' lands."""
        effect = card.effect
        state = self.state
        pending: dict[str, object] = {"effect": effect, "chosen": []}
        if effect == "jewish_revolt":
            land = card.params["jewish_revolt"]["land"]
            owner = state.occupant(land)
            if owner == self.me:
                return 0.0
            if owner is None:
                return self.take_value(land, self.me)
            win, tie = _win_once(int(card.params["jewish_revolt"].get("dice", 3)), 1, 0,
                                 land in state.forts)
            return win * self.take_value(land, self.me) + tie * self.army_worth(land)
        if effect == "civil_war":
            groups: dict[tuple[int, str], list[float]] = {}
            for land, stack in state.armies.items():
                army = stack[0]
                if army[0] != self.me:
                    groups.setdefault((army[0], army[2]), []).append(self._rebel_value(land))
            best = 0.0
            for values in groups.values():
                best = max(best, sum(sorted(values, reverse=True)[: min(3, supply)]))
            return best
        if effect == "barbarians":
            best = 0.0
            for land, info in self.rules.map.lands.items():
                if info.barren:
                    best = max(best, self._barbarian_value(land))
            return best
        if effect == "black_death":
            best = 0.0
            for area in self.rules.map.areas:
                first = self._epidemic_area(area)
                second = max((self._epidemic_area(b) for b in self.st.area_adjacent[area]),
                             default=0.0)
                best = max(best, first + second)
            return best
        if effect == "famine":
            return max(self._epidemic_area(a) for a in self.rules.map.areas)
        if effect in ("plague", "pestilence"):
            return max((self.target_value(pending, land) for land in state.armies), default=0.0)
        if effect == "disaster":
            values = sorted((self.target_value(pending, land) for land in state.monuments),
                            reverse=True)
            return sum(v for v in values[:2] if v > 0)
        return 0.0

    def _rebel_value(self, land: str) -> float:
        """One rebel army (two dice, no terrain) attacking ``land``."""
        win, tie = _win_once(2, 1, 0, land in self.state.forts)
        return win * self.take_value(land, self.me) + tie * self.army_worth(land)

    def _epidemic_area(self, area: str) -> float:
        return sum(self.army_worth(land) / 6 for land in self.rules.map.lands_in_area(area))

    def _barbarian_value(self, barren: str) -> float:
        values = sorted(
            (self._barbarian_hit(land) for land in self.st.all_neighbours[barren]
             if self.state.occupant(land) not in (None, self.me)),
            reverse=True,
        )
        total, chance = 0.0, 1.0
        for value in values:
            if value <= 0:
                break
            total += chance * value
            chance *= 0.55
        return total

    def _barbarian_hit(self, land: str) -> float:
        difficult = self.st.terrain[land] in DIFFICULT_TERRAIN
        win, tie = _win_once(2, 2 if difficult else 1, 0, land in self.state.forts)
        return win * self.take_value(land, self.me) + tie * self.army_worth(land)

    def target_value(self, pending: dict[str, object], target: str) -> float:
        """Worth of naming ``target`` for the card waiting in ``pending``."""
        effect = pending["effect"]
        chosen = pending.get("chosen") or []
        assert isinstance(chosen, list)
        state, st = self.state, self.st
        if effect == "migrants":
            value = 1.0
            if st.terrain[target] in DIFFICULT_TERRAIN:
                value += 0.5
            value -= 0.3 * sum(1 for nb in st.neighbours[target]
                               if state.occupant(nb) not in (None, self.me))
            return value
        if effect == "civil_war":
            value = self._rebel_value(target)
            if not chosen:
                # The first land picks the empire: add the best two other lands of it.
                owner, force = state.armies[target][0][0], state.armies[target][0][2]
                others = sorted(
                    (self._rebel_value(land) for land, stack in state.armies.items()
                     if land != target and stack[0][0] == owner and stack[0][2] == force),
                    reverse=True,
                )
                value += sum(others[:2])
            return value
        if effect == "barbarians":
            if not chosen:
                return self._barbarian_value(target)
            return self._barbarian_hit(target)
        if effect in ("black_death", "famine"):
            value = self._epidemic_area(target)
            if effect == "black_death" and not chosen:
                value += max((self._epidemic_area(b) for b in st.area_adjacent[target]),
                             default=0.0)
            return value
        if effect == "treachery":
            empire = self.rules.empires[self.turn.empire]
            reach = set(empire.starts)
            reach |= {nb for land in empire.starts for nb in st.neighbours[land]}
            reach |= set(state.force_lands(self.turn.force.key))
            near = any(nb in reach for nb in st.neighbours[target]) or target in reach
            if not near:
                return 0.0
            prof = self.profile()
            difficult = st.terrain[target] in DIFFICULT_TERRAIN
            cost = self.cost(target, 2 if difficult else 1, _Profile(
                dice=prof.dice, bonus=prof.bonus, siege=prof.siege, wins_ties=prof.wins_ties))
            return (cost - 1) * self.w.army + 0.3 * max(0.0, self.take_value(target, self.me))
        if effect == "plague":
            first = self.army_worth(target)
            spread = max((self.army_worth(nb) for nb in st.neighbours[target]
                          if nb in state.armies), default=0.0)
            return 0.52 * (first + 0.42 * max(0.0, spread))
        if effect == "plague_spread":
            return self.army_worth(target)
        if effect == "pestilence":
            value = 0.42 * self.army_worth(target)
            value += sum(0.31 * self.army_worth(nb) for nb in st.neighbours[target])
            return value
        if effect == "disaster":
            owner = state.occupant(target)
            if owner is None:
                return 0.0
            loss = 1.0
            kind = state.structures.get(target)
            if kind is not None:
                loss += 1.0
            return self.loss_of(owner, loss * self.fut)
        if effect == "astronomy":
            return self._astronomy_value(target)
        return 0.0

    def _astronomy_value(self, sea: str) -> float:
        turn = self.turn
        empire = self.rules.empires[turn.empire]
        wmap = self.rules.map
        have = set(fleet_waters(self.ctx, [*empire.fleets, *turn.astronomy]))
        if sea in have:
            return 0.0
        home = set(empire.starts)
        home |= {nb for land in empire.starts for nb in self.st.neighbours[land]}
        links = wmap.waters[sea].links
        if not (any(sea in wmap.lands[x].waters for x in home) or links & have):
            return 0.0
        fresh = [x for x in wmap.coast(sea) if x not in home and x not in self.state.armies]
        return min(4.0, 0.4 * len(fresh))


def make_policy(name: str, seed: int) -> Policy:
    """A policy by name ("random" or "greedy": the spec's policy_names) with its own seed."""
    return policy.make(name, seed, {"random": RandomPolicy, "greedy": GreedyPolicy})
