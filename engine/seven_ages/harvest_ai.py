"""The greedy player in the harvest's window (:mod:`engine.seven_ages.harvest_events`).

It plays a harvest event only when its rule of thumb gains: a glory event for itself (Glorious Glory's
point); a pity card on itself when no player has less glory; *Glory? Bah, Humbug* when the harvest as it
stands would give it less than the player it would give most. Otherwise it passes, as a seat that lets the
window time out does. In *Bah, Humbug*'s chain it cancels it when the harvest gives it glory and no player
more (:func:`gains_most`, used by :mod:`engine.seven_ages.cancel_ai`).
"""

from __future__ import annotations

from engine.core import Action, PlayerId
from engine.seven_ages import glory, window
from engine.seven_ages.cards import load_deck
from engine.seven_ages.conflict_moves import WindowPass, WindowPlay
from engine.seven_ages.endturn import holding
from engine.seven_ages.state import Pending, SevenState


def harvest_share(state: SevenState) -> dict[PlayerId, int]:
    """Each player's glory from the harvest as it stands (own ties in the skip order)."""
    hs = [holding(state, e) for e in state.empires]
    awards = glory.harvest(hs, state.first, state.players)
    return glory.player_harvest(awards, hs)


def gains_most(state: SevenState, player: PlayerId) -> bool:
    """Whether the harvest as it stands gives ``player`` glory, and no player more."""
    share = harvest_share(state)
    return share.get(player, 0) > 0 and share[player] == max(share.values())


def _gains(state: SevenState, play: WindowPlay) -> bool:
    codes = {x["code"] for x in load_deck().cards[play.card].event.effects}
    me = state.people[play.player]
    if "no_harvest" in codes:
        share = harvest_share(state)
        return share.get(play.player, 0) < max(share.values(), default=0)
    if "glory_if_least" in codes:
        return play.side == play.player and all(p.glory >= me.glory for p in state.people)
    return "glory" in codes


def choice(state: SevenState, pending: Pending) -> Action:
    """The first harvest event that gains it, else a pass."""
    plays = [a for a in window.legal(state, pending) if isinstance(a, WindowPlay)]
    return next((a for a in plays if _gains(state, a)), WindowPass(pending.seat))
