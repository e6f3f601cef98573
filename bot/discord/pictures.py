"""The pictures a Discord message carries: each game's own notice pictures, as files. No rules here.

A turn notice (the DM, or the ping in the thread when DMs are closed) and
``/annals board`` carry what the game's spec says a notice shows
(:meth:`engine.spec.GameSpec.notice_pictures`): for a History map a close-up of
where the turn happened and the whole map, for Rise the map and the dashboard,
else the board. What the pictures close in on (the focus) is the places the
public events name: for a turn notice those since the reader's last move (the
same moves as the "since your last move" summary, :func:`bot.digest.places`),
for ``/annals board`` those of the latest player's turn so far.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from typing import Any

import discord

from bot.digest import NOTICE_SIZE, pictures_of
from bot.discord.kit import BotBase
from bot.models import GameStatus


def file_name(game_id: str, seq: int, tag: str) -> str:
    """``annals-GAME-SEQ-TAG.png`` (no tag: ``annals-GAME-SEQ.png``)."""
    return f"annals-{game_id}-{seq}{'-' + tag if tag else ''}.png"


def seat_people(status: GameStatus) -> list[str]:
    """The person at each seat of ``status``'s game, index = seat ("" where a seat has nobody): what a
    picture's key names beside the colour (a view holds seats, not people)."""
    seated = {s.seat: s.name for s in status.seats if s.seat is not None}
    return [seated.get(seat, "") for seat in range(max(seated, default=-1) + 1)]


async def picture_files(bot: BotBase, ruleset: str, game_id: str, view: Mapping[str, Any], *,
                        focus: Sequence[str] = (), size: int | None = None,
                        people: Sequence[str] | None = None) -> list[discord.File]:
    """The game's notice pictures of ``view`` as files, in the order Discord shows them, drawn off
    the event loop (:meth:`BotBase.render`).

    Args:
        bot: the client (its render slots, its ``board_size``).
        ruleset: the game's id in the registry.
        game_id: the game, for the file names.
        view: what the reader may see (a player's view, or a spectator's in public).
        focus: the words of the events the message is about (see :func:`bot.digest.places`).
        size: the pictures' width (default: a notice's, :data:`bot.digest.NOTICE_SIZE`, or the
            bot's ``board_size`` when that is smaller).
        people: the person at each seat (index = seat), for the pictures' keys ("alice — Blue");
            None: the game's seats as the service has them.
    """
    draw = pictures_of(ruleset)
    width = size if size is not None else min(bot.board_size, NOTICE_SIZE)
    if people is None:
        people = seat_people(await bot.service.status(game_id))
    pictures = await bot.render(draw, view, focus=tuple(focus), size=width, people=tuple(people))
    seq = int(view.get("seq", 0))
    return [discord.File(io.BytesIO(png), filename=file_name(game_id, seq, tag)) for tag, png in pictures]

