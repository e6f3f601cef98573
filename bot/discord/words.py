"""How Discord words notices: the platform's one wording, with Discord's timestamps and hints.

Every notice, platform or engine event, is worded by :func:`bot.notices.describe_notice`
(the same lines as the console), with deadlines as Discord timestamps
(``<t:UNIX:R>``, shown in each reader's own time zone) and seats named as the
service names them ("alice (Blue)"). A few lines get a Discord hint after them
(how to join a lobby).
"""

from __future__ import annotations

from bot.discord.kit import timestamp
from bot.models import GameStatus, Notice, NoticeKind
from bot.notices import describe_notice
from engine.registry import get_game


def describe_for(notice: Notice, status: GameStatus) -> str | None:
    """One line for ``notice`` of the game of ``status`` (None: nobody needs to read it)."""
    text = describe_notice(notice, status.seat_names, get_game(status.ruleset), timestamp)
    if text is not None and notice.kind == NoticeKind.lobby_opened:
        text += f" Join with `/annals join game:{notice.game_id}`."
    return text
