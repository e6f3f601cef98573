"""Option 16's votes (L1510-1512, L1662-1664, L1968-1970) as simultaneous secret ballots.

A vote is opened by asking every voter at once: one :class:`~engine.seven_ages.state.Pending` of kind
:data:`BALLOT` per voter (a seat, for an empire of theirs or, for a vote of players, for none), carrying the
vote's topic, the rule that carries it and the voter's weight. A ballot cast leaves ``pending`` for
``SevenState.sealed`` (in no view, like a conflict's commitments, :mod:`engine.seven_ages.battle`), and the
table hears only that the voter has voted. When the last ballot is in, every ballot is shown at once with
the count (:func:`cast` returns the :class:`Count`); before that nothing of any ballot reaches any view or
any event but its caster's own.

Who votes and with what weight is each artefact's rule (:mod:`engine.seven_ages.ballot_weights`); how the
votes are counted is one of three rules (:class:`Rule`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from engine.core import IllegalAction
from engine.seven_ages.actions import NO, YES, CastBallot
from engine.seven_ages.state import Pending, SevenState
from engine.seven_ages.steps import Ctx

BALLOT = "ballot"
"""The kind of a voter's pending (then sealed) ballot."""


class Rule(StrEnum):
    """How a vote is carried."""

    MAJORITY = "majority"
    """More than half of the votes cast are for it (Heresy, L1664: "the majority"; a tie is no majority)."""
    TWO_THIRDS = "two_thirds"
    """More than 2/3 of the votes cast are for it (the vote against the defender of the faith, L1512)."""
    UNANIMOUS = "unanimous"
    """Every vote cast is for it (the United Nations' censure, L1968: "unanimous vote")."""


@dataclass(frozen=True)
class Voter:
    """One ballot to be cast: ``seat`` casts it, for its ``empire`` (0: as a player), worth ``weight``."""

    seat: int
    empire: int
    weight: int


@dataclass(frozen=True)
class Count:
    """A vote counted once every ballot is in: the weight for and against, and whether it is carried."""

    topic: str
    yes: int
    no: int
    carried: bool
    data: Mapping[str, Any]


Settle = Callable[[Ctx, Count], None]
"""What a counted vote does (discard the defender, lose the levels, censure): its topic's rules."""
_SETTLE: dict[str, Settle] = {}


def on_count(topic: str, settle: Settle) -> None:
    """Plug in what a counted vote of ``topic`` does (the module of the artefact that calls it)."""
    _SETTLE[topic] = settle


def carried(rule: Rule, yes: int, no: int) -> bool:
    """Whether ``yes`` votes for against ``no`` carry the vote under ``rule``."""
    total = yes + no
    match rule:
        case Rule.MAJORITY:
            return 2 * yes > total
        case Rule.TWO_THIRDS:
            return 3 * yes > 2 * total
        case Rule.UNANIMOUS:
            return total > 0 and no == 0


def voting(state: SevenState) -> bool:
    """Whether a vote is under way (some ballot still to be cast, or cast and sealed)."""
    return any(p.kind == BALLOT for p in (*state.pending, *state.sealed))


def open_vote(ctx: Ctx, topic: str, rule: Rule, voters: tuple[Voter, ...],
              data: Mapping[str, Any] | None = None) -> None:
    """Ask every voter at once; ``data`` (JSON) travels with the vote to its :class:`Count`.

    Raises:
        ValueError: with no voter, or while another vote is under way (the rules never stack two).
    """
    if not voters:
        raise ValueError(f"a {topic} vote with no voter")
    if voting(ctx.state):
        raise ValueError("a vote is already under way")
    shared = {"topic": topic, "rule": rule.value, "about": dict(data or {})}
    asked = tuple(Pending(BALLOT, v.seat, v.empire,
                          {**shared, "weight": v.weight,
                           "ask": {"topic": topic, "weight": v.weight, "about": dict(data or {})}})
                  for v in voters)
    ctx.state = replace(ctx.state, pending=(*ctx.state.pending, *asked))
    ctx.emit("vote_opened", topic=topic, rule=rule.value, about=dict(data or {}),
             voters=[[v.seat, v.empire, v.weight] for v in voters])


def ballots_of(state: SevenState, seat: int) -> tuple[Pending, ...]:
    """The ballots ``seat`` still has to cast (one per empire of theirs that votes)."""
    return tuple(p for p in state.pending if p.kind == BALLOT and p.seat == seat)


def cast(ctx: Ctx, seat: int, empire: int, yes: bool) -> Count | None:
    """``seat`` casts its ballot for ``empire`` (0: as a player), face down; the :class:`Count` once it
    was the last ballot to come in, else None.

    Raises:
        IllegalAction: when the seat has no such ballot to cast.
    """
    mine = next((p for p in ballots_of(ctx.state, seat) if p.empire == empire), None)
    if mine is None:
        raise IllegalAction("no_ballot", "You have no vote to cast there.")
    sealed = replace(mine, data={**mine.data, "yes": yes})
    ctx.state = replace(ctx.state, pending=tuple(p for p in ctx.state.pending if p is not mine),
                        sealed=(*ctx.state.sealed, sealed))
    ctx.emit("ballot_cast", seat=seat, empire=empire)
    if any(p.kind == BALLOT for p in ctx.state.pending):
        return None
    return _count(ctx)


def _count(ctx: Ctx) -> Count:
    """Every ballot turned face up at once, and the vote counted."""
    ballots = tuple(p for p in ctx.state.sealed if p.kind == BALLOT)
    ctx.state = replace(ctx.state, sealed=tuple(p for p in ctx.state.sealed if p.kind != BALLOT))
    first = ballots[0].data
    yes = sum(int(p.data["weight"]) for p in ballots if p.data["yes"])
    no = sum(int(p.data["weight"]) for p in ballots if not p.data["yes"])
    count = Count(str(first["topic"]), yes, no, carried(Rule(first["rule"]), yes, no), dict(first["about"]))
    ctx.emit("vote_counted", topic=count.topic, yes=yes, no=no, carried=count.carried, about=dict(count.data),
             ballots=[[p.seat, p.empire, int(p.data["weight"]), bool(p.data["yes"])]
                      for p in sorted(ballots, key=lambda p: (p.seat, p.empire))])
    return count


def answer(ctx: Ctx, action: CastBallot) -> None:
    """A seat's ballot, sent as a move; once it is the last one in, the vote is counted and settled.

    Raises:
        IllegalAction: for a vote other than for or against, or when the seat has no such ballot to cast.
    """
    if action.vote not in (YES, NO):
        raise IllegalAction("bad_vote", "Vote for it or against it.")
    count = cast(ctx, action.player, action.empire, action.yes)
    if count is not None and count.topic in _SETTLE:
        _SETTLE[count.topic](ctx, count)


def moves(state: SevenState, seat: int) -> list[CastBallot]:
    """The seat's two ballots for the first of its votes still to cast (none when it has none)."""
    mine = ballots_of(state, seat)
    if not mine:
        return []
    return [CastBallot(seat, mine[0].empire, YES), CastBallot(seat, mine[0].empire, NO)]
