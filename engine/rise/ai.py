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

The greedy player weighs hundreds of positions per decision, so it avoids
building them: every seat's yields are kept up to date from position to
position (:mod:`engine.rise.yield_cache`); the moves whose effect on the worth
is a known change of holdings, tiles, cubes or placement are scored without
being applied (:mod:`engine.rise.move_effects`), and so are the ways of paying
for a disc and the moves of a row just chosen; the rest are applied once each.
It decides exactly as applying every move would (``tests/engine/rise/test_rise_greedy_oracle.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engine import policy, rng
from engine.core import Action
from engine.policy import Policy, PolicyRng
from engine.rise import move_effects
from engine.rise.actions import Select, Skip, TakeBack
from engine.rise.data import RiseData
from engine.rise.game import GAME
from engine.rise.state import Phase, RiseState, Stage
from engine.rise.turn import Mix, holdings
from engine.rise.yield_cache import Snapshot, TileKey, YieldCache, Yields, tile_key, with_cubes, with_tiles


class RandomPolicy(policy.RandomPolicy):
    """Uniform over the legal actions: the baseline."""

    game = GAME


def worth(state: RiseState, data: RiseData, seat: int, y: Yields) -> float:
    """How much ``seat``'s position is worth, in victory points (rough); ``y``: its yields this turn."""
    return worth_of(state, data, seat, y, holdings(state, seat), placing(state, seat))


def placing(state: RiseState, seat: int) -> str | None:
    """The empire tile whose cubes ``seat`` is placing now, or None."""
    task = state.task
    if task is not None and int(task["player"]) == seat and task["stage"] is Stage.PLACE and task["empire"]:
        return str(task["empire"])
    return None


def worth_of(state: RiseState, data: RiseData, seat: int, y: Yields, held: Mix, empire: str | None) -> float:
    """:func:`worth` with what it reads of ``seat`` given: its yields ``y``, its gold, pool cubes,
    resources, food and victory points ``held`` and the empire tile it is placing (``empire``).

    Positions after a simple move differ from the one before in these alone, so the move is scored
    without applying it (the same arithmetic in the same order: the same float as applying it).
    """
    s = state
    if s.final is not None:
        return float(s.final[seat])
    gold, pool, resources, food, vp = held
    turns_left = data.turns - s.turn + (1 if s.phase is Phase.ACTIONS else 0)
    late = 1.0 if s.turn >= 5 else 0.0
    value = float(vp)
    value += turns_left * (y["vp"] + 0.4 * y["gold"] + 0.45 * y["resources"] + 0.3 * y["cubes"])
    value += (0.34 if late else 0.45) * gold + (0.34 if late else 0.5) * resources
    value += 0.3 * pool + 0.1 * food
    projected = food + y["food"] * max(turns_left, 1)
    if projected < 0:
        value += projected * 0.8
    if empire is not None:
        side = data.empires[empire].side(s.era)
        value += 0.5 * min(pool, 2 * side.regions) * min(turns_left, 2)
    return value


def position(state: RiseState, data: RiseData, seat: int) -> float:
    """``seat``'s worth less half the best rival's."""
    return _Node(state, seat).position(data, YieldCache(data))


class _Node:
    """A position met while deciding, with what has been worked out about it so far.

    ``children``: the positions after ``seat``'s moves applied from it, each applied once however
    often a decision (or the next one, see :data:`_last`) comes back to it; ``scores``: the
    positions' values after the moves scored without applying them (:mod:`engine.rise.move_effects`);
    ``previews``: the position as after paying for a disc, for scoring the moves of its row.
    """

    __slots__ = ("children", "moves", "previews", "rival", "scores", "seat", "snapshot", "state", "tiles",
                 "value", "worths")

    def __init__(self, state: RiseState, seat: int, snapshot: Snapshot | None = None) -> None:
        self.state = state
        self.seat = seat
        self.snapshot = snapshot  # every seat's yields here, once worked out
        self.children: dict[Action, _Node] = {}
        self.scores: dict[Action, float] = {}
        self.previews: dict[Action, _Node] = {}
        self.moves: list[Action] | None = None
        self.value: float | None = None
        self.rival = 0.0
        self.worths: list[float] = []
        self.tiles: TileKey | None = None

    def child(self, action: Action) -> _Node:
        found = self.children.get(action)
        if found is None:
            found = self.children[action] = _Node(GAME.apply(self.state, action).state, self.seat)
        return found

    def preview(self, action: TakeBack, data: RiseData, cache: YieldCache) -> _Node:
        """The position as after paying for ``action``, for scoring the row's moves (never to apply).

        Paying changes no yields and no rival's holdings: it shares this position's yields and rivals'
        worth, and works out the seat's own.
        """
        found = self.previews.get(action)
        if found is None:
            self.position(data, cache)
            seat, snapshot = self.seat, self.yields(cache)
            found = _Node(move_effects.after_payment(self.state, seat, action), seat, snapshot)
            found.worths = self.worths[:]
            found.worths[seat] = worth(found.state, data, seat, snapshot.every[seat])
            found.rival = self.rival
            found.value = found.worths[seat] - 0.5 * found.rival
            self.previews[action] = found
        return found

    def legal(self) -> list[Action]:
        if self.moves is None:
            self.moves = GAME.legal_actions(self.state, self.seat)
        return self.moves

    def yields(self, cache: YieldCache) -> Snapshot:
        """Every seat's yields here."""
        if self.snapshot is None:
            self.snapshot = cache.snapshot(self.state)
        return self.snapshot

    def position(self, data: RiseData, cache: YieldCache) -> float:
        """The seat's worth less half the best rival's."""
        if self.value is None:
            s, seat = self.state, self.seat
            every = self.yields(cache).every
            self.worths = [worth(s, data, p, every[p]) for p in range(s.players)]
            self.rival = max((w for p, w in enumerate(self.worths) if p != seat), default=0.0)
            self.value = self.worths[seat] - 0.5 * self.rival
        return self.value

    def score(self, action: Action, data: RiseData, cache: YieldCache) -> float | None:
        """The position's value after ``action`` without applying it; None when it must be applied."""
        found = self.scores.get(action)
        if found is not None:
            return found
        change = move_effects.effect(self.state, data, self.seat, action)
        if change is None:
            return None
        s, seat = self.state, self.seat
        if self.value is None:
            self.position(data, cache)
        snapshot = self.yields(cache)
        if change.cubes is None:
            # Only the seat's holdings and tiles may change: the rivals' worth stays.
            yields = snapshot.every[seat]
            if change.progress or change.territory or change.city or change.dropped:
                if self.tiles is None:
                    self.tiles = tile_key(s, seat)
                progress, territory, cities = self.tiles
                if change.dropped:
                    progress, cities = _without(progress, change.dropped), _without(cities, change.dropped)
                yields = with_tiles(snapshot, data, seat, (progress + _one(change.progress),
                                                           territory + _one(change.territory),
                                                           cities + _one(change.city)))
            mine = worth_of(s, data, seat, yields, change.held, change.placing)
            rival = self.rival
        else:
            changed = with_cubes(snapshot, data, *change.cubes)
            yields = changed.get(seat, snapshot.every[seat])
            mine = worth_of(s, data, seat, yields, change.held, change.placing)
            # A rival whose yields stay keeps its worth (the same inputs: the same float).
            rival = max((worth_of(s, data, p, changed[p], holdings(s, p), None) if p in changed
                         else self.worths[p] for p in range(s.players) if p != seat), default=0.0)
        value = self.scores[action] = mine - 0.5 * rival
        return value


def _one(tile: str | None) -> tuple[str, ...]:
    return () if tile is None else (tile,)


def _without(tiles: tuple[str, ...], tile: str) -> tuple[str, ...]:
    """``tiles`` less the first ``tile`` among them (as a list's ``remove``), if any."""
    if tile not in tiles:
        return tiles
    i = tiles.index(tile)
    return tiles[:i] + tiles[i + 1:]


_last: _Node | None = None
"""The position after the greedy player's last choice, with what it already worked out there.

The lookahead of one decision may apply and score the moves of the next (a disc taken back, then
the tiles of its row when the turn's last action is one): the next decision starts from this node
when its position is equal. Module-wide, as the bot makes a fresh policy for each move; read and
replaced whole (one reference), so policies in other threads at worst miss it.
"""


class GreedyPolicy:
    """One-step lookahead on a hand-made worth of the position (see the module docstring)."""

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self._rng = PolicyRng(seed)
        self._yields = YieldCache(GAME.data)

    def _value(self, node: _Node, action: Action, depth: int) -> float:
        data = GAME.data
        if action not in node.children:
            # A move told by its effect never leads to another choice of the same action.
            quick = node.score(action, data, self._yields)
            if quick is not None:
                return quick
            lead = _LEADS_ON.get(type(action)) if depth > 0 else None
            if lead is not None:
                start, then = lead(node, action, data, self._yields)
                after = [start.score(a, data, self._yields) for a in then]
                if all(value is not None for value in after):
                    return max(value for value in after if value is not None)
        after_node = node.child(action)
        task = after_node.state.task
        if (depth > 0 and task is not None and int(task["player"]) == node.seat
                and task["stage"] is Stage.ACT and after_node.state.phase is Phase.ACTIONS):
            return max(self._value(after_node, a, depth - 1) for a in after_node.legal())
        return after_node.position(data, self._yields)

    def _rank(self, state: RiseState, player: int) -> tuple[_Node, list[Action], bool]:
        """The start node, the moves ranked first (in legal order) and whether a draw picks among them."""
        node = _start(state, player)
        actions = node.legal()
        if not actions:
            raise ValueError(f"player {player} has no legal action now")
        if len(actions) == 1:
            return node, actions[:], False
        if state.phase is Phase.ORDER:
            # Turn order: acting early gets the pick of the tiles and regions (the free positions come
            # first to last).
            return node, actions[:1], False
        best: list[Action] = []
        top = float("-inf")
        for action in self._cheapest_payments(node, actions):
            value = self._value(node, action, 2)
            if value > top + 1e-9:
                top, best = value, [action]
            elif abs(value - top) <= 1e-9:
                best.append(action)
        return node, best, True

    def best(self, state: RiseState, player: int) -> list[Action]:
        """The moves the greedy player ranks first, in legal order; :meth:`choose` draws one of them."""
        return self._rank(state, player)[1]

    def choose(self, state: RiseState, player: int) -> Action:
        global _last
        node, best, draw = self._rank(state, player)
        choice = best[rng.below(self._rng, len(best))] if draw else best[0]
        # Only a position the greedy player made itself is kept (nobody else holds it to change it).
        _last = node.children.get(choice)
        return choice

    def _cheapest_payments(self, node: _Node, actions: list[Action]) -> list[Action]:
        """``actions`` with each B-turn disc's ways of paying cut to the one that leaves the most worth.

        A payment changes only what the seat holds (not the yields, nor any rival's worth), so each
        is scored from ``node`` itself, with the arithmetic of :func:`worth`.
        """
        data = GAME.data
        cheapest: dict[tuple[str, int], tuple[float, Action]] = {}
        out: list[Action] = []
        node.position(data, self._yields)
        s, seat = node.state, node.seat
        yields = node.yields(self._yields).every[seat]
        gold, pool, resources, food, vp = holdings(s, seat)
        for action in actions:
            if type(action) is not TakeBack:
                out.append(action)
                continue
            held = (gold - action.gold, pool - action.cubes, resources - action.resources, food - action.food,
                    vp - action.vp)
            value = worth_of(s, data, seat, yields, held, None) - 0.5 * node.rival
            disc = (action.row, action.circle)
            if disc not in cheapest or value > cheapest[disc][0] + 1e-9:
                cheapest[disc] = (value, action)
        return out + [action for _, action in cheapest.values()]


def _row_after_select(node: _Node, action: Select, data: RiseData,
                      cache: YieldCache) -> tuple[_Node, list[Action]]:
    """Selecting a row leads on to the row's moves, which it changes nothing of: score them from here."""
    return node, move_effects.row_moves(node.state, data, node.seat, action.row)


def _row_after_take_back(node: _Node, action: TakeBack, data: RiseData,
                         cache: YieldCache) -> tuple[_Node, list[Action]]:
    """Taking a disc back leads on to the row's moves (or a skip, the action paid for already), which
    read nothing it changes but the payment: score them from the payment made."""
    start = node.preview(action, data, cache)
    return start, [*move_effects.row_moves(start.state, data, node.seat, action.row), Skip(node.seat)]


_LEADS_ON: Mapping[type[Action], Callable[[_Node, Any, RiseData, YieldCache], tuple[_Node, list[Action]]]] = {
    Select: _row_after_select, TakeBack: _row_after_take_back,
}
"""The moves that lead on to another choice of the same action, by class: the position to score that
choice's moves from, and those moves (each function takes its own class)."""


def _start(state: RiseState, seat: int) -> _Node:
    """The node of ``state``: the one the last choice led to when it is the same position, else a new one."""
    last = _last
    if last is not None and last.seat == seat and last.state == state:
        return last
    return _Node(state, seat)


def make_policy(name: str, seed: int) -> Policy:
    """A policy by name ("random" or "greedy"), seeded."""
    return policy.make(name, seed, {"random": RandomPolicy, "greedy": GreedyPolicy})
