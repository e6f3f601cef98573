"""How the AI casts a ballot in option 16's votes (:mod:`engine.seven_ages.ballots`), and proposes a Heresy
vote action's losses.

It reads only what its seat may know: its own ballot's question (topic, weight, what the vote is about) and
the public state, never another ballot (they are sealed until all are in).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.core import Action
from engine.seven_ages.actions import NO, YES, CastBallot, HeresyLoss, LiftHeresy
from engine.seven_ages.ballot_weights import CENSURE, DEFENDER, HERESY
from engine.seven_ages.state import Pending, SevenState

BEARABLE_LOSS = 2
"""The most progress levels an empire gives up to lift a heresy: every action of its religion's empires is a
vote action while the heresy lasts (L1660), which costs far more than a level or two."""


def ballot(state: SevenState, pending: Pending) -> bool:
    """Yes or no on the vote ``pending`` asks of its seat."""
    ask = pending.data["ask"]
    about = ask["about"]
    seat = pending.seat
    topic = ask["topic"]
    if topic == HERESY:
        return seat == about.get("proposer") or int(ask["weight"]) <= BEARABLE_LOSS
    if topic == DEFENDER:  # against the defender unless it is one's own empire
        defender = int(about["defender"])
        return state.has_empire(defender) and state.empire(defender).owner != seat
    if topic == CENSURE:  # censure a rival at least as glorious as oneself; the caller backs its own call
        censured = int(about["censured"])
        return seat == about.get("caller") or state.people[censured].glory >= state.people[seat].glory
    return False


def choose(state: SevenState, pending: Pending) -> CastBallot:
    """The move casting the AI's ballot on ``pending``."""
    return CastBallot(pending.seat, pending.empire, YES if ballot(state, pending) else NO)


def vote_action(state: SevenState, player: int, actions: Sequence[Action]) -> Action | None:
    """Its move in a Heresy vote action (:mod:`engine.seven_ages.heresy`), or None outside one: remove the
    heresy when its religious leader may; share the levels out to the other players' empires first, the most
    glorious player's first (their votes weigh those levels, so the proposal may fail, but it costs the AI
    nothing), its own empires last."""
    if lifts := [a for a in actions if isinstance(a, LiftHeresy)]:
        return next(a for a in lifts if a.lift)
    losses = [a for a in actions if isinstance(a, HeresyLoss)]
    if not losses:
        return None

    def burden(a: HeresyLoss) -> tuple[bool, int, int]:
        owner = state.empire(a.empire).owner
        return owner == player, -state.people[owner].glory, a.empire

    return min(losses, key=burden)
