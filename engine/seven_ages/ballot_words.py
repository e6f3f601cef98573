"""The words of option 16's votes (:mod:`engine.seven_ages.ballots`): the question a voter is asked, its two
choices and the events. A ballot cast is told without its choice; the count tells every ballot."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engine.core import Action, Choice, Event, Names
from engine.seven_ages.actions import CastBallot
from engine.seven_ages.decision import register_label, register_pending_heading
from engine.seven_ages.text import empire_name, register_event, seat, stage
from engine.seven_ages.view import PendingView, SevenView
from engine.words import join_words, plural

_TOPICS = {"heresy": "the heresy's proposed losses", "defender": "discarding the defender of the faith",
           "censure": "the United Nations' censure"}


def topic_words(topic: str) -> str:
    """What a vote decides, in words ("the United Nations' censure")."""
    return _TOPICS.get(topic, "the proposal")


def _for(empire: int) -> str:
    return f" for {empire_name(empire)}" if empire else ""


def _votes(weight: int) -> str:
    return plural(weight, "vote")


def _heading(view: SevenView, pending: PendingView, who: str) -> str:
    ask: dict[str, Any] = dict(pending.get("ask") or {})
    weight = _votes(int(ask.get("weight", 1)))
    return (f"{stage(view)}: {who}, vote in secret on {topic_words(str(ask.get('topic')))}"
            f"{_for(pending['empire'])} ({weight}; every ballot is shown once all are in)")


def _ballot(view: SevenView, action: CastBallot) -> Choice:
    return Choice(action, "Vote for it" if action.yes else "Vote against it")


LABELS: Mapping[type[Action], Callable[[SevenView, Any], Choice]] = {CastBallot: _ballot}
"""The words of a voter's moves, by class."""


def _words(event: Event, names: Names) -> str | None:
    d = event.data
    what = topic_words(str(d["topic"])) if "topic" in d else ""
    if event.type == "vote_opened":
        voters = [f"{seat(names, int(s))}{_for(int(e))} ({_votes(int(w))})" for s, e, w in d["voters"]]
        return f"A vote on {what}: {join_words(voters)} vote in secret."
    if event.type == "ballot_cast":
        return f"{seat(names, int(d['seat']))} has voted{_for(int(d['empire']))}."
    if event.type == "vote_counted":
        each = [f"{seat(names, int(s))}{_for(int(e))} {'for' if y else 'against'} ({_votes(int(w))})"
                for s, e, w, y in d["ballots"]]
        result = "carried" if d["carried"] else "failed"
        return f"The vote on {what}: {d['yes']} for, {d['no']} against: {result}. {'; '.join(each)}."
    return None


def register() -> None:
    """Plug these words into the game's words (:mod:`engine.seven_ages.game` calls it once)."""
    for type_ in ("vote_opened", "ballot_cast", "vote_counted"):
        register_event(type_, _words)
    for cls, label in LABELS.items():
        register_label(cls.kind, label)
    register_pending_heading("ballot", _heading)
