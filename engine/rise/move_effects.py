"""What the simple moves change of what the greedy player weighs, told without applying them.

The greedy player scores a position by the seat's holdings (gold, pool cubes,
resources, food, victory points), every seat's yields and the empire tile being
placed; applying a move only to read those costs a copy of the whole state and
the rules' checks. For the moves that change nothing else it reads (taking a
tile or a trade box, skipping, stopping, a battle, taking an empire tile,
placing a cube, keeping or giving up a tile) their effect is stated here, from the same data and prices the
rules use. A move that may end the Player Actions phase sets off food, income
and victory points, so it is never told here: the greedy player applies it.
``tests/engine/rise/test_rise_greedy_oracle.py`` checks that every decision comes out as
when every move is applied.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from engine.core import Action
from engine.rise import end, turn
from engine.rise.actions import (
    Battle,
    Discard,
    Keep,
    PlaceCube,
    Skip,
    Stop,
    TakeBack,
    TakeCity,
    TakeEmpire,
    TakeProgress,
    TakeTerritory,
    Trade,
)
from engine.rise.data import RiseData
from engine.rise.state import RiseState
from engine.rise.turn import Mix


class Effect(NamedTuple):
    """The part of the position after a move that the greedy player's worth reads.

    Attributes:
        held: the seat's gold, pool cubes, resources, food and victory points after the move.
        progress: a progress tile joining the seat's tiles, if any (likewise ``territory``, ``city``).
        cubes: a region whose cubes change, with its cube counts per seat after the move, if any.
        dropped: a progress or city tile leaving the seat's tiles, if any.
        placing: the empire tile whose cubes the seat is placing after the move (None: not placing).
    """

    held: Mix
    progress: str | None = None
    territory: str | None = None
    city: str | None = None
    cubes: tuple[str, tuple[int, ...]] | None = None
    dropped: str | None = None
    placing: str | None = None


def _last_action(state: RiseState, data: RiseData) -> bool:
    """Whether completing the action under way ends the Player Actions phase."""
    return state.act_no + 1 >= data.actions_per_turn * state.players


def effect(state: RiseState, data: RiseData, seat: int, action: Action) -> Effect | None:
    """The effect of ``seat``'s legal ``action`` in ``state`` on its worth; None when it must be applied."""
    told = _TOLD.get(type(action))
    if told is None:
        told = _TOLD_UNLESS_LAST.get(type(action))
        if told is None or _last_action(state, data):
            return None
    return told(state, data, seat, action, turn.holdings(state, seat))


Told = Callable[[RiseState, RiseData, int, Any, Mix], "Effect | None"]
"""The effect of one class of move: the state, the data, the seat, the move (of the class it is filed
under) and the seat's holdings before it."""


def _placed(state: RiseState, data: RiseData, seat: int, action: PlaceCube, held: Mix) -> Effect:
    gold, pool, resources, food, vp = held
    empire = str(turn.task_of(state)["empire"])
    counts = list(state.cubes.get(action.region, [0] * state.players))
    counts[seat] += 1
    return Effect((gold, pool - 1, resources, food, vp), cubes=(action.region, tuple(counts)), placing=empire)


def _took_empire(state: RiseState, data: RiseData, seat: int, action: TakeEmpire, held: Mix) -> Effect:
    return Effect(held, placing=action.tile)


def _took_progress(state: RiseState, data: RiseData, seat: int, action: TakeProgress, held: Mix) -> Effect:
    gold, pool, resources, food, vp = held
    price = turn.progress_price(state, data, action.tile)
    return Effect((gold - price, pool, resources, food, vp), progress=action.tile)


def _took_territory(state: RiseState, data: RiseData, seat: int, action: TakeTerritory, held: Mix) -> Effect:
    return Effect(held, territory=action.tile)


def _took_city(state: RiseState, data: RiseData, seat: int, action: TakeCity, held: Mix) -> Effect:
    gold, pool, resources, food, vp = held
    city = data.cities[action.tile]
    if city.wonder is not None:
        # A wonder is paid for, scores at once and leaves the game: no tile joins the seat's.
        w = city.wonder
        return Effect((gold - w.gold, pool - w.cubes, resources - w.resources, food, vp + w.vp))
    return Effect((gold - city.cost, pool, resources, food, vp), city=action.tile)


def _traded(state: RiseState, data: RiseData, seat: int, action: Trade, held: Mix) -> Effect:
    gold, pool, resources, food, vp = held
    box = data.trade[action.box]
    return Effect((gold + box.gold, pool, resources - box.resources, food, vp + box.vp))


def _ended(state: RiseState, data: RiseData, seat: int, action: Skip | Stop, held: Mix) -> Effect:
    """Ends the choice, the placement, the battles or the free tiles: no longer placing."""
    return Effect(held)


def _fought(state: RiseState, data: RiseData, seat: int, action: Battle, held: Mix) -> Effect:
    attacker_loss, defender_loss = turn.side_of(state, data, turn.task_of(state)).battles[action.row]
    counts = list(state.cubes[action.region])
    counts[action.target] -= min(defender_loss, counts[action.target])
    counts[seat] -= min(attacker_loss, counts[seat])
    return Effect(held, cubes=(action.region, tuple(counts)))


def _kept(state: RiseState, data: RiseData, seat: int, action: Keep, held: Mix) -> Effect | None:
    """Keeping the tile asked about, when the next tile is asked about at once (see :func:`_asks_next`)."""
    if not _asks_next(state):
        return None
    gold, pool, resources, food, vp = held
    kind = state.pending[0]["kind"]
    if kind == "upkeep":
        resources -= data.cities[action.tile].upkeep
    elif kind == "keep_progress":
        gold -= 1
    elif kind == "keep_city":
        pool -= 1
    after: Mix = (gold, pool, resources, food, vp)
    if not end.can_keep(with_holdings(state, seat, after), data, state.pending[1]):
        return None
    return Effect(after)


def _gave_up(state: RiseState, data: RiseData, seat: int, action: Discard, held: Mix) -> Effect | None:
    """Giving up the tile asked about, when the next tile is asked about at once."""
    if not _asks_next(state) or not end.can_keep(state, data, state.pending[1]):
        return None
    return Effect(held, dropped=action.tile)


def _asks_next(state: RiseState) -> bool:
    """Whether another tile waits to be asked about after this one.

    The last decision of a phase sets off what follows (food, income, the next turn); one after
    which the next tile cannot be kept sets off the rules' forced discards: both are applied.
    """
    return len(state.pending) >= 2


_TOLD: Mapping[type[Action], Told] = {
    PlaceCube: _placed, TakeEmpire: _took_empire, Keep: _kept, Discard: _gave_up,
}
"""The moves whose effect is told whenever they are legal, by class."""

_TOLD_UNLESS_LAST: Mapping[type[Action], Told] = {
    TakeProgress: _took_progress, TakeTerritory: _took_territory, TakeCity: _took_city, Trade: _traded,
    Skip: _ended, Stop: _ended, Battle: _fought,
}
"""The moves whose effect is told unless they may complete the turn's last action, by class."""


def with_holdings(state: RiseState, seat: int, held: Mix) -> RiseState:
    """``state`` with ``seat``'s gold, pool cubes, resources, food and victory points set to ``held``,
    to read from (every other field is ``state``'s own object: never apply a move to it)."""
    out = object.__new__(RiseState)
    out.__dict__.update(state.__dict__)
    for name, value in zip(("gold", "pool", "resources", "food", "vp"), held, strict=True):
        values = getattr(state, name)[:]
        values[seat] = value
        setattr(out, name, values)
    return out


def paid(state: RiseState, seat: int, action: TakeBack) -> Mix:
    """``seat``'s holdings once it has paid for ``action`` (taking a disc back changes nothing else it
    weighs, though it leads on to the row's choice)."""
    gold, pool, resources, food, vp = turn.holdings(state, seat)
    return (gold - action.gold, pool - action.cubes, resources - action.resources, food - action.food,
            vp - action.vp)


def after_payment(state: RiseState, seat: int, action: TakeBack) -> RiseState:
    """``state`` with ``seat``'s holdings as after paying for ``action``, to read the row's moves and
    their effects from (they read neither the display nor the action under way).

    Every other field is ``state``'s own object: read it, never apply a move to it.
    """
    return with_holdings(state, seat, paid(state, seat, action))


_ROW_MOVES: dict[str, type[TakeProgress | TakeTerritory | TakeCity | TakeEmpire | Trade]] = {
    "progress": TakeProgress, "territory": TakeTerritory, "city": TakeCity, "empire": TakeEmpire,
    "trade": Trade,
}


def row_moves(state: RiseState, data: RiseData, seat: int, row: str) -> list[Action]:
    """The moves ``seat`` will be offered once it has selected ``row`` in an A turn (the row's tiles
    or boxes, in the order ``legal_actions`` gives them): selecting changes none of them."""
    return [_ROW_MOVES[row](seat, choice) for choice in turn.row_choices(state, data, seat, row)]
