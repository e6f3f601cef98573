"""``empire``, ``area`` and ``tracks``: the look-ups both fronts answer (the console's commands and
``/annals empire|area|tracks``), through the game contract alone.

Each reads the asker's own view (a spectator's when they hold no seat), so an answer cannot carry what
another seat alone knows: the game's ``empire_text``, ``place_text`` and ``tracks_text`` word it, and the
spec's ``empire_picture`` and ``tracks_picture`` draw it. A picture comes back as a function to run in the
front's picture thread (never on the loop: :func:`bot.service.offload.off_loop`). Bad input, a lobby and a
game without empires or tracks are refused with one sentence (:class:`bot.service.ServiceError`), and
nothing changes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from bot.models import GameStatus
from bot.service import GameService, ServiceError
from bot.service.offload import off_loop
from engine import registry
from engine.words import shorten

PICTURE_SIZE = 800
"""A look-up picture's width: chat's."""
ECHO = 40
"""How much of what was typed a refusal repeats (never a pasted page)."""


@dataclass(frozen=True)
class Answer:
    """A look-up's words and, where the game draws one, its picture to draw off the loop."""

    text: str
    draw: Callable[[], bytes | None] | None = None
    tag: str = ""
    """What the picture's file name says it is ("empire", "tracks")."""


def people_of(status: GameStatus) -> list[str]:
    """The person at each seat (index = seat), for a picture's names; "" for an empty seat."""
    seated = {s.seat: s.name for s in status.seats if s.seat is not None}
    return [seated.get(seat, "") for seat in range(max(seated, default=-1) + 1)]


def echoed(wanted: str) -> str:
    return repr(shorten(" ".join(wanted.split()), ECHO))


def _pictured(text: str, draw: Callable[[], bytes | None] | None, tag: str) -> Answer:
    """``text`` with its picture's drawing (None: the game draws none) marked for a worker thread."""
    return Answer(text) if draw is None else Answer(text, off_loop(draw), tag)


async def _started(service: GameService, game_id: str, what: str) -> GameStatus:
    status = await service.status(game_id)
    if status.status == "lobby":
        raise ServiceError("not_started", f"Game {game_id} has not started: {what}.")
    return status


async def empire_answer(service: GameService, game_id: str, user_id: int, wanted: str) -> Answer:
    """``empire WHAT``: one empire as the game words it from the asker's view, with its card panel."""
    if not wanted.strip():
        raise ServiceError("bad_input", "Name an empire or give its card's number: empire Romans, empire 12.")
    status = await _started(service, game_id, "no empire is on the map yet")
    view = await service.view(game_id, user_id)  # the asker's own view: never another seat's hand
    text = registry.get_game(status.ruleset).empire_text(view, wanted, status.seat_names)
    if text is None:
        raise ServiceError("no_empires", f"{status.title} has no empires to look up: the board in words "
                                         "shows where each player stands.")
    panel = registry.spec(status.ruleset).empire_panel()
    people = people_of(status)
    return _pictured(text, None if panel is None else partial(panel, view, wanted, size=PICTURE_SIZE,
                                                              people=people), "empire")


async def area_answer(service: GameService, game_id: str, user_id: int, wanted: str) -> str:
    """``area NAME``: one place of the board in the game's words (its ``place_text``), from the asker's
    view (the place contract makes it the public board's words: nothing private)."""
    if not wanted.strip():
        raise ServiceError("bad_input", "Name a place of the board: area Latium.")
    status = await _started(service, game_id, "the board is empty")
    view = await service.view(game_id, user_id)
    text = registry.get_game(status.ruleset).place_text(view, wanted, status.seat_names)
    if text is None:
        raise ServiceError("unknown_place", f"The board of {game_id} has no place called {echoed(wanted)}.")
    return text


async def tracks_answer(service: GameService, game_id: str, user_id: int) -> Answer:
    """``tracks``: the game's tracks in words from the asker's view, with their picture."""
    status = await _started(service, game_id, "no track has moved yet")
    view = await service.view(game_id, user_id)
    text = registry.get_game(status.ruleset).tracks_text(view, status.seat_names)
    if text is None:
        raise ServiceError("no_tracks", f"{status.title} keeps no tracks beyond its scores: the status shows "
                                        "them.")
    picture = registry.spec(status.ruleset).tracks_image()
    people = people_of(status)
    return _pictured(text, None if picture is None else partial(picture, view, size=PICTURE_SIZE,
                                                                people=people), "tracks")

