"""How the AI casts a ballot in option 16's votes (:mod:`engine.seven_ages.ballots`).

It reads only what its seat may know: its own ballot's question (topic, weight, what the vote is about) and
the public state, never another ballot (they are sealed until all are in).
"""

from __future__ import annotations

from engine.seven_ages.actions import NO, YES, CastBallot
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
