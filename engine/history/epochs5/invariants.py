"""What the 5-epoch rules must never break, beyond the game contract: the contract suite checks it
after every move of its playouts (the spec's ``invariants``).

No component over the rulebook's limits (25 armies a player counting the card and the catapult, the
capitols and cities, monuments and forts), no army in a barren land, forts only with an army, no two
score markers on one space of the track, armies of one force active at a time, scores never going
down, and no seat's view changing when what is hidden from it is changed (the other hands, the piles,
the draft's sets, an empire not yet revealed).
"""

from __future__ import annotations

from engine.contract.invariants import score_went_down, view_shows_hidden
from engine.core import Action, Result
from engine.history.epochs5.game import GAME
from engine.history.epochs5.state import Phase, State


def problems(before: State, action: Action, result: Result) -> list[str]:
    """Every 5-epoch invariant ``result`` breaks, one sentence each (empty: none)."""
    state: State = result.state
    found = component_problems(state)
    if GAME.is_over(state) and (state.epoch != 5 or state.turn is not None):
        found.append(f"the game ended in epoch {state.epoch} with a turn under way")
    said = [score_went_down(before.scores, state.scores),
            view_shows_hidden(GAME, state, hide_from, state.seq % state.players)]
    found += [sentence for sentence in said if sentence is not None]
    return found


def component_problems(state: State) -> list[str]:
    """The components over their limits in ``state``."""
    rules = GAME.rules
    found: list[str] = []
    for land, army in state.armies.items():
        if rules.map.lands[land].barren:
            found.append(f"an army stands in the barren land {land}")
        if not 0 <= army[0] < state.players:
            found.append(f"the army in {land} belongs to no seat")
    for player in range(state.players):
        if state.supply(player, rules.armies_per_player) < 0:
            found.append(f"seat {player} uses more than {rules.armies_per_player} armies")
    if len(state.structures) > rules.structures:
        found.append(f"{len(state.structures)} capitols and cities stand")
    if len(state.monuments) != len(set(state.monuments)) or len(state.monuments) > rules.monuments:
        found.append("a monument stands twice or more are out than the box holds")
    if len(state.forts) != len(set(state.forts)) or len(state.forts) > rules.forts:
        found.append("a fort stands twice or more are out than the box holds")
    if not set(state.forts) <= set(state.armies):
        found.append("a fort stands without an army")
    if len({s % 100 for s in state.scores}) != state.players:
        found.append(f"two score markers share a space: {state.scores}")
    turn = state.turn
    if turn is not None:
        if turn.pool < 0 or turn.siege_tokens < 0 or not 0 <= turn.catapult_armies <= 3:
            found.append("the turn's pool, siege tokens or catapult armies are out of range")
        if not {a[1] for a in state.armies.values() if a[1]} <= {turn.force}:
            found.append("armies of two forces are active")
    return found


def hide_from(state: State, viewer: int) -> State:
    """A copy of ``state`` with everything ``viewer`` may not see changed."""
    other = state.clone()
    all_events = sorted(GAME.rules.events)
    for p in range(other.players):
        if p != viewer:
            other.hands[p] = [all_events[(all_events.index(c) + 1) % len(all_events)] for c in other.hands[p]]
    other.event_piles = {k: [*reversed(v), "x"] for k, v in other.event_piles.items()}
    other.empire_piles = {k: ["y", *v[1:]] for k, v in other.empire_piles.items()}
    if other.phase == Phase.DRAFT:
        ev = other.draft_order[other.draft_step]
        em = other.draft_order[-1 - other.draft_step]
        if ev != viewer:
            other.event_set = ["hidden"] * len(other.event_set)
            if "event" in other.drawn:
                other.drawn["event"] = "hidden"
        if em != viewer:
            other.empire_set = ["hidden"] * len(other.empire_set)
            if "empire" in other.drawn:
                other.drawn["empire"] = "hidden"
    for p in range(other.players):
        if p != viewer and not other.revealed[p] and other.empire_of[p] is not None:
            other.empire_of[p] = "hidden-from-view"
    return other
