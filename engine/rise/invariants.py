"""What the Rise of Empires rules must never break, beyond the game contract: the contract suite checks
it after every move of its playouts (the spec's ``invariants``).

Every component within its limits (30 cubes a player, the food track, no negative stock, every tile
and empire in exactly one place, the discs on the display), one player acting at a time, the game ending
after its last turn with the final scores the game's, and no view changing when the face-down tiles,
hidden from every player, are rearranged.
"""

from __future__ import annotations

from collections import Counter

from engine.contract.invariants import view_shows_hidden
from engine.core import Action, Result
from engine.rise.data import ROWS
from engine.rise.game import GAME
from engine.rise.state import EMPTY, RiseState

DATA = GAME.data
ALL_TILES = sorted([*DATA.progress, *DATA.territory, *DATA.cities])


def problems(before: RiseState, action: Action, result: Result) -> list[str]:
    """Every Rise of Empires invariant ``result`` breaks, one sentence each (empty: none)."""
    state: RiseState = result.state
    found = component_problems(state)
    if GAME.is_over(state):
        if state.turn != DATA.turns or state.final != GAME.scores(state):
            found.append(f"the game ended at turn {state.turn} or with scores other than the game's")
    elif len(GAME.actors(state)) != 1:
        found.append(f"seats {sorted(GAME.actors(state))} act at once")
    viewer_sees = view_shows_hidden(GAME, state, lambda s, _: hide_from(s), state.seq % state.players)
    if viewer_sees is not None:
        found.append(viewer_sees)
    return found


def component_problems(s: RiseState) -> list[str]:
    """The components over their limits, lost or doubled in ``s``."""
    found: list[str] = []
    for p in range(s.players):
        if s.pool[p] + s.stock[p] + s.on_map(p) != DATA.pool + DATA.stock:
            found.append(f"seat {p} does not have its {DATA.pool + DATA.stock} cubes")
        if min(s.pool[p], s.stock[p], s.gold[p], s.resources[p], s.vp[p]) < 0:
            found.append(f"seat {p} has a negative stock")
        if not 0 <= s.food[p] <= DATA.food_max:
            found.append(f"seat {p} stands at {s.food[p]} on the food track")
        names = [DATA.progress[t].name for t in s.progress[p]]
        if len(names) != len(set(names)):
            found.append(f"seat {p} holds a progress tile twice")
    for region, counts in s.cubes.items():
        if not any(counts) or min(counts) < 0:
            found.append(f"{region} keeps an empty or negative count")
        if DATA.regions[region].era > s.era:
            found.append(f"a cube stands in {region} in era {s.era}")
    places = sorted([
        *(t for box in s.progress_boxes + s.territory_boxes + s.city_boxes for t in box),
        *s.open_progress, *s.open_territory, *s.open_city, *s.retired,
        *(t for hand in s.progress + s.territory + s.cities for t in hand),
    ])
    if places != ALL_TILES:
        found.append("a tile is lost or in two places")
    held = [e for hand in s.empires for e in hand]
    if sorted(held + s.open_empires) != sorted(DATA.empires):
        found.append("an empire tile is lost or in two places")
    if any(len(s.empires[p]) > DATA.actions_per_turn for p in range(s.players)):
        found.append("a seat holds more empire tiles than it has actions")
    discs = Counter(c for row in ROWS for c in s.display[row] if c != EMPTY)
    if any(discs[p] > DATA.actions_per_turn for p in range(s.players)):
        found.append("a seat has more discs on the display than it has actions")
    if any(len(s.display[row]) != DATA.row_circles(row, s.players) for row in ROWS):
        found.append("a row of the display has the wrong number of circles")
    if not set(s.trade_used) <= set(DATA.trade):
        found.append("a trade used is not one of the game's")
    if sorted(s.order) != list(range(s.players)):
        found.append(f"the turn order {s.order} is not an order of the seats")
    return found


def hide_from(s: RiseState) -> RiseState:
    """A copy with the face-down tiles (hidden from every player) rearranged."""
    other = s.clone()
    for boxes in (other.progress_boxes, other.territory_boxes, other.city_boxes):
        for box in boxes:
            box.reverse()
        same = [b for b in boxes if len(b) == len(boxes[0])]
        if len(same) > 1:
            same[0][:], same[1][:] = same[1][:], same[0][:]
    return other
