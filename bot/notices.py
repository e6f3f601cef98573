"""The one wording of every notice for people, shared by the console and Discord.

A platform notice (:class:`bot.models.NoticeKind`) is worded here; an engine
event is worded by its own game (``game.describe_event(event, names)``). Seats
are named as the platform names them everywhere ("alice (Blue)"): the names a
notice carries were taken when it happened, ``names`` (index = seat) fills in
the rest. Deadlines are formatted by the caller's ``when`` (the console prints
a date and "in 23h", Discord a ``<t:...:R>`` timestamp).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot.models import Notice, NoticeKind
from engine.core import Game
from engine.words import first_place, winners

log = logging.getLogger(__name__)

When = Callable[[float], str]
"""Formats a deadline (Unix seconds) for the reader."""


def describe_notice(notice: Notice, names: Sequence[str], game: Game, when: When) -> str | None:
    """One line telling people what ``notice`` means, or None when nobody needs to read it."""
    if notice.event is not None:
        try:
            return game.describe_event(notice.event, names)
        except Exception:  # a game's wording bug must not stop the lines after it
            log.exception("%s could not word the event %s", game.id, notice.event.type)
            return None
    return platform_text(notice, names, when)


def platform_text(notice: Notice, names: Sequence[str], when: When) -> str | None:
    """The line of a platform notice (one with a :class:`NoticeKind`, never an engine event)."""
    assert notice.kind is not None
    return _WORDS[notice.kind](notice, _Names(notice.data, names), when)


class _Names:
    """Who a notice is about: the name it carries, else the seat's current name."""

    def __init__(self, data: Mapping[str, Any], names: Sequence[str]) -> None:
        self.data = data
        self.names = names

    def __call__(self, key: str = "name", seat_key: str = "seat") -> str:
        name = self.data.get(key)
        if name:
            return str(name)
        seat = self.data.get(seat_key)
        if isinstance(seat, int) and 0 <= seat < len(self.names):
            return self.names[seat]
        return "a player"


Wording = Callable[[Notice, _Names, When], "str | None"]


def game_ended(d: Mapping[str, Any]) -> str:
    """The first words of a ``game_over`` notice's ``d``: why the game ended, in the game's words ("The
    game ends: the turn limit of 12 was reached."), or "Game over." for a game that ended before the
    reason was recorded."""
    why = d.get("why")
    return why if isinstance(why, str) and why else "Game over."


def _final(d: Mapping[str, Any]) -> str:
    """``The game ends: the turn limit of 12 was reached. Final scores: alice (Red) 12, bob (Blue) 9.
    Winner: alice (Red).`` (``Winners, sharing first place: ...`` for a tie the game's tie-breaks leave;
    ``Game over.`` first for a game over before it said why)."""
    scores = [int(x) for x in d.get("scores", [])]
    names = [str(n) for n in d.get("names", [])]
    label = [names[i] if i < len(names) else f"seat {i + 1}" for i in range(len(scores))]
    order = [int(i) for i in d.get("ranking", []) if 0 <= int(i) < len(scores)]
    order = order or sorted(range(len(scores)), key=lambda i: -scores[i])
    line = f"{game_ended(d)} Final scores: " + ", ".join(f"{label[i]} {scores[i]}" for i in order)
    first = first_place([[int(i) for i in place] for place in d.get("places") or []], order)
    return line + (f". {winners(first, label)}." if first else ".")


def _days(n: int) -> str:
    return f"{n} day" if n == 1 else f"{n} days"


def _seat_replaced(n: Notice, who: _Names, when: When) -> str:
    d = n.data
    if d.get("user_id"):
        return f"{who()} now plays that seat in game {n.game_id}."
    return f"The AI now plays {who()}'s seat in game {n.game_id}."


def _vacation(n: Notice, who: _Names, when: When) -> str:
    d = n.data
    clock = (f"the deadline moves to {when(d['due_at'])}" if d.get("due_at")
             else f"no clock of theirs starts before {when(d['away_until'])}")
    return (f"{who()} is away for {_days(int(d['days']))}: {clock} ({d['used']} of {d['cap']} vacation "
            "days used).")


def _unrecorded(n: Notice, who: _Names) -> str:
    moves = int(n.data.get("moves", 1))
    made = "a move" if moves == 1 else f"{moves} moves"
    return f"{who()} made {made} before the bot was upgraded; what happened then was not recorded."


def _ai_mark(seat: Mapping[str, Any]) -> str:
    """ " (an AI)" after a seat the AI plays, unless its name says so already ("AI 1 (Blue)")."""
    return " (an AI)" if seat.get("ai") and not str(seat.get("name", "")).startswith("AI") else ""


def _started(n: Notice, who: _Names, when: When) -> str:
    order = ", ".join(f"{int(s['seat']) + 1}. {s['name']}{_ai_mark(s)}" for s in n.data.get("seats", []))
    return f"Game {n.game_id} begins. Seat order: {order}."


_WORDS: dict[NoticeKind, Wording] = {
    NoticeKind.lobby_opened: lambda n, who, when: f"{who()} opened a lobby for {n.data['title']}: "
                                                  f"game {n.game_id}.",
    NoticeKind.player_joined: lambda n, who, when: f"{who()} joined game {n.game_id}.",
    NoticeKind.player_left: lambda n, who, when: f"{who()} "
    f"{'was removed from' if n.data.get('kicked') else 'left'} game {n.game_id}.",
    NoticeKind.seat_added: lambda n, who, when: f"{who()}{_ai_mark({'ai': n.data.get('ai'), 'name': who()})} "
                                                f"takes a seat in game {n.game_id}.",
    NoticeKind.seat_removed: lambda n, who, when: f"{who()} was removed from game {n.game_id}.",
    NoticeKind.lobby_passed: lambda n, who, when: f"The lobby's creator left: {who()} now runs game "
                                                  f"{n.game_id}.",
    NoticeKind.lobby_closed: lambda n, who, when: f"The lobby of game {n.game_id} closed: nobody is left "
                                                  "in it.",
    NoticeKind.game_started: _started,
    NoticeKind.your_turn: lambda n, who, when: f"Your move in game {n.game_id}"
    + (f" (due {when(n.data['due_at'])})." if n.data.get("due_at") else "."),
    NoticeKind.up_next: lambda n, who, when: f"You're next in {n.data.get('title') or 'game'}, game "
                                             f"{n.game_id}: {who()} has started their move.",
    NoticeKind.reminder: lambda n, who, when: f"Reminder: your move in game {n.game_id} is due "
    + (f"{when(n.data['due_at'])}." if n.data.get("due_at") else "soon."),
    NoticeKind.timeout: lambda n, who, when: f"{who()} missed the deadline "
    f"({n.data.get('missed')} in a row): "
    + ("the AI played the turn." if n.data.get("policy") == "ai" else "the turn was skipped."),
    NoticeKind.autopilot: lambda n, who, when: f"{who()} missed too many deadlines in a row: the AI plays "
                                               "that seat from now on (the player may take it back with "
                                               "reclaim).",
    NoticeKind.vacation: _vacation,
    NoticeKind.seat_replaced: _seat_replaced,
    NoticeKind.seat_reclaimed: lambda n, who, when: f"{who()} takes their seat back from the AI.",
    NoticeKind.resigned: lambda n, who, when: f"{who()} resigned from game {n.game_id}; the AI plays that "
                                              "seat to the end.",
    NoticeKind.paused: lambda n, who, when: f"Game {n.game_id} is paused by {who('by_name')}; the clocks "
                                            "are stopped.",
    NoticeKind.resumed: lambda n, who, when: f"Game {n.game_id} resumes (by {who('by_name')}); the clocks "
                                             "start afresh.",
    NoticeKind.abandoned: lambda n, who, when: f"Game {n.game_id} was abandoned by {who('by_name')}.",
    NoticeKind.game_over: lambda n, who, when: _final(n.data),
    NoticeKind.damaged: lambda n, who, when: f"Game {n.game_id} ({n.data['title']}) cannot be loaded: its "
                                             "stored record is damaged. It is set aside and its clocks are "
                                             "stopped; the other games play on. A server admin can restore "
                                             "it from the newest file in backups/.",
    NoticeKind.move_undone: lambda n, who, when: f"{who()} took back their last move.",
    NoticeKind.unrecorded: lambda n, who, when: _unrecorded(n, who),
    NoticeKind.forced: lambda n, who, when: f"Your only choice in game {n.game_id} was played for you: "
    f"{n.data['choice']}." if n.data.get("choice") else f"{who()} had no other choice: played at once.",
}
