"""How Discord words notices: the platform's one wording, with Discord's timestamps and hints.

Every notice, platform or engine event, is worded by :func:`bot.notices.describe_notice`
(the same lines as the console), with deadlines as Discord timestamps
(``<t:UNIX:R>``, shown in each reader's own time zone) and seats named as the
service names them ("alice (Blue)"). A few lines get a Discord hint after them
(how to join a lobby).
"""

from __future__ import annotations

from bot.discord.kit import mention, span, timestamp
from bot.models import GameStatus, Notice, NoticeKind
from bot.notices import describe_notice
from engine.registry import get_game


def clock_lines(st: GameStatus) -> list[str]:
    """Who is waited for, each with their running deadline; with a time bank, what is left of the bank
    of each other person (public data only)."""
    lines: list[str] = []
    due = {d.user_id: d.due_at for d in st.deadlines if d.kind == "turn" and not d.fired}
    if st.status == "active" and st.waiting_for:
        lines.append("Waiting for: " + ", ".join(
            mention(u) + (f" (due {timestamp(due[u])})" if u in due else "") for u in st.waiting_for))
    banks = [f"{st.seat_names[s.seat]} {span(s.bank_left)}" for s in st.seats
             if s.bank_left is not None and not s.is_ai and s.user_id not in due and s.seat is not None
             and s.seat < len(st.seat_names)]
    if st.status == "active" and st.timers.bank_seconds and banks:
        lines.append("Time banks: " + ", ".join(banks) + ".")
    return lines


def describe_for(notice: Notice, status: GameStatus) -> str | None:
    """One line for ``notice`` of the game of ``status`` (None: nobody needs to read it)."""
    text = describe_notice(notice, status.seat_names, get_game(status.ruleset), timestamp)
    if text is not None and notice.kind == NoticeKind.lobby_opened:
        text += f" Join with `/annals join game:{notice.game_id}`."
    return text
