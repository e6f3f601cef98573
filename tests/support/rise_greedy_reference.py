"""The Rise greedy player's choice worked out the straightforward way: the oracle of its fast search.

Every legal move is applied, every way of paying for a B-turn disc too, and every position is
scored with every seat's yields recomputed from scratch (``phases.every_yields``), exactly as the
greedy player did before it kept yields up to date and scored payments without applying them.
Slow on purpose: nothing here is shared with the search it checks but the rules and ``worth``'s
weights, which are restated below rather than imported.
"""

from __future__ import annotations

from engine.core import Action
from engine.rise import phases
from engine.rise.actions import ChooseOrder, TakeBack
from engine.rise.data import RiseData
from engine.rise.game import GAME
from engine.rise.state import RiseState


def reference_worth(s: RiseState, data: RiseData, seat: int, y: dict[str, int]) -> float:
    """The greedy player's worth of ``seat``'s position (its hand-made weights), read off the state."""
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


def reference_position(state: RiseState, seat: int) -> float:
    """``seat``'s worth less half the best rival's, every yield recomputed."""
    yields = phases.every_yields(state, GAME.data)
    mine = reference_worth(state, GAME.data, seat, yields[seat])
    rivals = [reference_worth(state, GAME.data, p, yields[p]) for p in range(state.players) if p != seat]
    return mine - 0.5 * max(rivals, default=0.0)


def _value(state: RiseState, action: Action, seat: int, depth: int) -> float:
    after = GAME.apply(state, action).state
    task = after.task
    if (depth > 0 and task is not None and int(task["player"]) == seat
            and task["stage"] == "act" and after.phase == "actions"):
        return max(_value(after, a, seat, depth - 1) for a in GAME.legal_actions(after, seat))
    return reference_position(after, seat)


def _cheapest_payments(state: RiseState, actions: list[Action], seat: int) -> list[Action]:
    cheapest: dict[tuple[str, int], tuple[float, Action]] = {}
    out: list[Action] = []
    for action in actions:
        if not isinstance(action, TakeBack):
            out.append(action)
            continue
        value = reference_position(GAME.apply(state, action).state, seat)
        disc = (action.row, action.circle)
        if disc not in cheapest or value > cheapest[disc][0] + 1e-9:
            cheapest[disc] = (value, action)
    return out + [action for _, action in cheapest.values()]


def reference_best(state: RiseState, seat: int) -> list[Action]:
    """The moves the greedy player must rank first, in legal order."""
    actions = GAME.legal_actions(state, seat)
    if len(actions) == 1:
        return actions
    if state.phase == "order":
        return [min(actions, key=lambda a: a.position if isinstance(a, ChooseOrder) else 99)]
    best: list[Action] = []
    top = float("-inf")
    for action in _cheapest_payments(state, actions, seat):
        value = _value(state, action, seat, 2)
        if value > top + 1e-9:
            top, best = value, [action]
        elif abs(value - top) <= 1e-9:
            best.append(action)
    return best
