"""What the Eight-Minute Empire rules must never break, beyond the game contract: the contract suite
checks it after every move of its playouts (the spec's ``invariants``).

Component limits (14 armies and 3 cities a player, the neutral armies, the six-card row, every card in
exactly one place, coins never below zero); while the players bid, exactly those yet to bid act, a bid
is told to its bidder alone, no public event carries an amount and a spectator sees no bid; no seat's
view changes when what is hidden from it changes (the others' bids, the deck's order); at the end every
hand holds its full count of cards, the final scores are the game's and the Full Game has played its
three games.
"""

from __future__ import annotations

from engine.contract.invariants import view_shows_hidden
from engine.core import PUBLIC, Action, Result
from engine.eight_minute.game import GAME
from engine.eight_minute.state import EMState, Phase

DATA = GAME.data


def problems(before: EMState, action: Action, result: Result) -> list[str]:
    """Every Eight-Minute Empire invariant ``result`` breaks, one sentence each (empty: none)."""
    state: EMState = result.state
    found = component_problems(state)
    for event in result.events:
        if event.type == "your_bid" and event.audience != (action.player,):
            found.append(f"a bid is told to {event.audience}, not to its bidder alone")
        if (event.audience == PUBLIC and before.phase == Phase.BID and event.type != "bids_revealed"
                and "amount" in event.data):
            found.append(f"the public event {event.type} tells a bid's amount")
    if state.phase == Phase.BID:
        waiting = frozenset(p for p in range(state.players) if state.bids[p] is None)
        if GAME.actors(state) != waiting:
            found.append(f"seats {sorted(GAME.actors(state))} bid, not those yet to bid {sorted(waiting)}")
        spectator = GAME.view(state, None)
        if spectator["bid"]["bids"] is not None or spectator["you"] is not None:
            found.append("a spectator sees the bids while the players bid")
    viewer_sees = view_shows_hidden(GAME, state, hide_from, state.seq % state.players)
    if viewer_sees is not None:
        found.append(viewer_sees)
    if GAME.is_over(state):
        found += end_problems(state)
    return found


def component_problems(state: EMState) -> list[str]:
    """The components over their limits, or lost, in ``state``."""
    n = state.players
    found: list[str] = []
    for counts in (*state.armies.values(), *state.cities.values()):
        if len(counts) != n or min(counts) < 0 or not any(counts):
            found.append(f"a region's count {counts} is not one count a seat, some of them pieces")
    for seat in range(n):
        if state.armies_on_board(seat) > DATA.armies_per_player:
            found.append(f"seat {seat} has {state.armies_on_board(seat)} armies out")
        if state.cities_on_board(seat) > DATA.cities_per_player:
            found.append(f"seat {seat} has {state.cities_on_board(seat)} cities out")
        if state.coins[seat] < 0:
            found.append(f"seat {seat} has {state.coins[seat]} coins")
        if len(state.hands[seat]) > DATA.end_cards[n]:
            found.append(f"seat {seat} holds {len(state.hands[seat])} cards")
    if not all(v > 0 for v in state.neutral.values()):
        found.append("a region keeps an empty neutral count")
    if sum(state.neutral.values()) + state.neutral_left > (DATA.neutral_armies if n == 2 else 0):
        found.append("more neutral armies are out than the game has")
    if len(state.row) > DATA.face_up:
        found.append(f"the row holds {len(state.row)} cards")
    in_play = sorted(c.id for c in DATA.cards.values() if n == 5 or not c.five)
    held = [c for hand in state.hands for c in hand]
    if sorted(state.row + state.deck + held) != in_play:
        found.append("a card is lost or doubled")
    if not set(state.armies) | set(state.cities) | set(state.neutral) <= set(DATA.regions):
        found.append("a piece stands in no region of the map")
    return found


def end_problems(state: EMState) -> list[str]:
    """What must hold once the game is over."""
    found: list[str] = []
    if [len(h) for h in state.hands] != [DATA.end_cards[state.players]] * state.players:
        found.append(f"the game ended with hands of {[len(h) for h in state.hands]} cards")
    if GAME.scores(state) != state.final:
        found.append(f"the final scores {state.final} are not the game's scores {GAME.scores(state)}")
    if state.game_no != (3 if state.options["full_game"] else 1):
        found.append(f"the match ended after game {state.game_no}")
    return found


def hide_from(state: EMState, viewer: int) -> EMState:
    """A copy of ``state`` with everything ``viewer`` may not see changed."""
    other = state.clone()
    if other.phase == Phase.BID:
        other.bids = [
            b if p == viewer or b is None else (b + 1) % (other.coins[p] + 1)
            for p, b in enumerate(other.bids)
        ]
    other.deck = list(reversed(other.deck))
    return other
