"""What the classic rules must never break, beyond the game contract: the contract suite checks it
after every move of its playouts (the spec's ``invariants``).

No component over the rulebook's limits (the armies of each epoch, capitals and cities, forts, monuments,
fleets and coins), one army a land (three figures with the multiple-armies option), two colours never
in one land, no army in a barren land, scores never going down, the final scores the ones stored, and
no seat's view changing when what is hidden from it is changed (the other hands, the markers, the
decks, a card drawn or held by another seat).
"""

from __future__ import annotations

from collections import Counter

from engine.contract.invariants import score_went_down, view_shows_hidden
from engine.core import Action, Result
from engine.history.game import GAME
from engine.history.state import HistoryState, Phase


def problems(before: HistoryState, action: Action, result: Result) -> list[str]:
    """Every classic invariant ``result`` breaks, one sentence each (empty: none)."""
    state: HistoryState = result.state
    found = component_problems(state)
    if GAME.is_over(state) and GAME.scores(state) != state.final:
        found.append(f"the final scores {state.final} are not the game's scores {GAME.scores(state)}")
    said = [score_went_down(before.scores, state.scores),
            view_shows_hidden(GAME, state, hide_from, state.seq % state.players)]
    found += [sentence for sentence in said if sentence is not None]
    return found


def component_problems(state: HistoryState) -> list[str]:
    """The components over their limits in ``state``."""
    rules = GAME.rules
    found: list[str] = []
    per_piece: Counter[tuple[int, int]] = Counter()
    for land, stack in state.armies.items():
        if not stack:
            found.append(f"an empty stack is left in {land}")
        if rules.map.lands[land].barren:
            found.append(f"an army stands in the barren land {land}")
        if len({a[0] for a in stack}) > 1:
            found.append(f"two colours share {land}")
        figures = len(stack) + (1 if land in state.forts else 0)
        if state.options["multiple_armies"] and figures > 3:
            found.append(f"{figures} figures stand in {land}")
        if not state.options["multiple_armies"] and len(stack) > 1:
            found.append(f"{len(stack)} armies stand in {land}")
        for army in stack:
            per_piece[(army[0], army[1])] += 1
    for army in state.manned.values():
        per_piece[(army[0], army[1])] += 1
    turn = state.turn
    if turn is not None:
        per_piece[(turn.player, turn.force.piece_epoch)] += turn.force.pool + turn.force.restricted
    for (player, epoch), count in per_piece.items():
        if count > rules.armies_per_epoch[epoch - 1]:
            found.append(f"seat {player} uses {count} epoch {epoch} pieces")
    if len(state.structures) > rules.capitals_cities:
        found.append(f"{len(state.structures)} capitals and cities stand")
    if len(state.forts) + (turn.free_forts if turn else 0) > rules.forts:
        found.append("more forts are out than the box holds")
    if len(state.forts) != len(set(state.forts)) or not set(state.forts) <= set(state.armies):
        found.append("a fort stands twice in a land or without an army")
    if len(state.monuments) != len(set(state.monuments)) or len(state.monuments) > rules.monuments:
        found.append("a monument stands twice or more are out than the box holds")
    markers = len(state.manned)
    if turn is not None:
        markers += turn.coins + turn.allies_coins + sum(1 for w in turn.force.fleets if w not in state.manned)
    if markers > rules.fleets_coins:
        found.append(f"{markers} fleets and coins are out")
    if not all(land in rules.map.lands for land in state.structures):
        found.append("a structure stands in no land of the map")
    return found


def hide_from(state: HistoryState, viewer: int) -> HistoryState:
    """A copy of ``state`` with everything ``viewer`` may not see changed."""
    other = state.clone()
    for p in range(other.players):
        if p != viewer:
            other.hands[p] = sorted("disaster" if card == "leader" else "leader" for card in other.hands[p])
    if other.phase != Phase.OVER:
        other.markers = [[9] * len(m) for m in other.markers]
    other.marker_pile = [1] * len(other.marker_pile)
    other.deck = list(reversed(other.deck))
    keys = [e.key for e in GAME.rules.epochs[other.epoch]]
    if other.phase == Phase.DRAW:
        if other.drawn is not None and other.draw_order[other.draw_pos] != viewer:
            other.drawn = keys[-1] if other.drawn != keys[-1] else keys[0]
        for p in range(other.players):
            visible = (p == viewer and other.given_by[p] is None) or other.given_by[p] == viewer
            if other.holding[p] is not None and not visible:
                other.holding[p] = keys[0] if other.holding[p] != keys[0] else keys[1]
    elif other.phase == Phase.TURN:
        started = {key for played in other.played_empires for key in played}
        for p in range(other.players):
            if p != viewer and other.holding[p] not in started:
                other.holding[p] = "hidden-from-view"
    return other
