"""The greedy player in a cancel window (:mod:`engine.seven_ages.cancels`).

It cancels the event on top when it holds a cancel of it and that event hurts it (played on its empire, or
on a player when it is not the event's player: it may be the victim) or helps the glory leader (played on
the leader's empire with effects that only help). A cancel on top is judged by the event under it: the
greedy player cancels a cancel of its own event, letting its event happen. Otherwise it passes, as a seat
that lets the window time out does.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core import Action, PlayerId
from engine.seven_ages import cancels, event_ai, harvest_ai, window
from engine.seven_ages.cards import load_deck
from engine.seven_ages.conflict_moves import WindowPass, WindowPlay
from engine.seven_ages.state import Go, Pending, SevenState


def _owner(state: SevenState, chosen: Mapping[str, Any]) -> PlayerId | None:
    target = int(chosen.get("target") or 0)
    return state.empire(target).owner if target and state.has_empire(target) else None


def worth_cancelling(state: SevenState, go: Go, player: PlayerId) -> bool:
    """Whether ``player`` gains by cancelling the event on top of ``go``'s chain."""
    chain = cancels.chain_of(go)
    assert chain is not None
    events = chain["events"]
    if len(events) > 1:  # a cancel on top: undo it when it cancels one's own event
        return int(events[-2]["seat"]) == player
    first = load_deck().cards[int(events[0]["card"])].event
    effects = [x for x in first.effects if x["code"] not in ("card_check", cancels.CODE)]
    owner = _owner(state, chain["chosen"])
    if int(events[0]["seat"]) == player or not effects:
        return False
    if any(x["code"] == "no_harvest" for x in effects):  # the harvest it would take away (L879)
        return harvest_ai.gains_most(state, player)
    if owner is None:  # on a player: it may be us
        return first.target in ("player", "everyone") and any(event_ai.hurts(x) for x in effects)
    if owner == player:
        return any(event_ai.hurts(x) for x in effects)
    return owner == event_ai.glory_leader(state, player) and all(event_ai.helps(x) for x in effects)


def choice(state: SevenState, pending: Pending, go: Go) -> Action:
    """Play the first cancel offered when it gains, else pass."""
    plays = [a for a in window.legal(state, pending) if isinstance(a, WindowPlay)]
    if plays and worth_cancelling(state, go, pending.seat):
        return plays[0]
    return WindowPass(pending.seat)
