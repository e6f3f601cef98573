"""How Discord names seats and words notices: one place, read by every Discord module.

Seats are named as the game's spec names them ("alice (Blue)"); notices are
worded by the platform's one wording (platform notices) and by the game's own
``describe_event`` (engine events), with deadlines as Discord timestamps.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.discord.kit import mention, timestamp
from bot.models import GameStatus, Notice
from engine.core import Event, Game
from engine.registry import get_game, spec


def seat_names(status: GameStatus) -> list[str]:
    """The name of every seat in seat order, e.g. ``["alice (Red)", "AI 1 (Blue)"]``."""
    game_spec = spec(status.ruleset)
    people: dict[int, str] = {s.seat: s.name for s in status.seats if s.seat is not None}
    count = max(people, default=-1) + 1
    return game_spec.seat_names([people.get(seat) for seat in range(count)])


def describe(notice: Notice, game: Game, names: Sequence[str]) -> str | None:
    """One line for a notice (None for bookkeeping nobody needs to read)."""
    d: Mapping[str, Any] = notice.data
    t = notice.type
    gid = notice.game_id
    if t == "lobby_opened":
        return (f"{mention(d.get('creator'))} opened a lobby for {d['title']} (game `{gid}`): "
                f"join with `/annals join game:{gid}`.")
    if t == "player_joined":
        return f"{mention(d.get('user_id'), d.get('name'))} joined game `{gid}`."
    if t == "player_left":
        return f"{d.get('name')} {'was removed from' if d.get('kicked') else 'left'} game `{gid}`."
    if t == "seat_added":
        return f"{d['name']} takes a seat in game `{gid}`" + (" (AI)." if d.get("ai") else ".")
    if t == "game_started":
        order = ", ".join(
            f"{s['seat'] + 1}. {mention(s.get('user_id'), s.get('name'))}{' (AI)' if s.get('ai') else ''}"
            for s in d.get("seats", []))
        return f"Game `{gid}` begins. Seat order: {order}."
    if t == "your_turn":
        due = f" (due {timestamp(d['due_at'])})" if d.get("due_at") else ""
        return f"Your move in game `{gid}`{due}: use `/annals play game:{gid}`."
    if t == "reminder":
        due = timestamp(d["due_at"]) if d.get("due_at") else "soon"
        return f"Reminder: your move in game `{gid}` is due {due}."
    if t == "timeout":
        what = "the AI played the turn." if d.get("policy") == "ai" else "the turn was skipped."
        who = mention(d.get("user_id"), d.get("name"))
        return f"{who} missed the deadline ({d.get('missed')} in a row): {what}"
    if t == "autopilot":
        return (f"{mention(d.get('user_id'), d.get('name'))} missed too many deadlines: the AI plays that "
                "seat from now on.")
    if t in ("paused", "resumed", "abandoned"):
        return f"Game `{gid}` was {t} by {mention(d.get('by'))}."
    if t == "game_over":
        if "names" not in d:
            return None  # the engine's own event; the service's notice with names follows
        return f"Game `{gid}` is over. Final scores: {_score_table(d, names)}."
    if t == "seat_replaced":
        who = mention(d["user_id"], d.get("name")) if d.get("user_id") else "the AI"
        return f"Seat {int(d['seat']) + 1} of game `{gid}` is now played by {who}."
    if t == "seat_reclaimed":
        who = mention(d.get("user_id"), d.get("name"))
        return f"{who} takes their seat back from the AI in game `{gid}`."
    if t == "resigned":
        return f"{mention(d.get('old_user_id'))} resigned from game `{gid}`; the AI plays the seat."
    if t == "vacation":
        return f"{mention(d.get('user_id'), d.get('name'))} is away for {d['days']} day(s)."
    return game.describe_event(Event(t, d), names)


def _score_table(d: Mapping[str, Any], names: Sequence[str]) -> str:
    scores = [int(x) for x in d.get("scores", [])]
    order = [int(r) for r in d.get("ranking", []) if 0 <= int(r) < len(scores)] or list(range(len(scores)))
    return ", ".join(f"{names[k] if k < len(names) else str(d['names'][k])} {scores[k]}" for k in order)


def describe_for(notice: Notice, status: GameStatus) -> str | None:
    """:func:`describe` with the game and the seat names of ``status``."""
    return describe(notice, get_game(status.ruleset), seat_names(status))
