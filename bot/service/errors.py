"""The service's one refusal type."""

from __future__ import annotations

from typing import Any

from engine.core import IllegalAction


class ServiceError(Exception):
    """A refused request; nothing was changed.

    Attributes:
        code: stable reason: ``no_such_game``, ``unknown_game``, ``bad_options``,
            ``bad_seats``, ``bad_timers``, ``bad_name``, ``bad_policy``, ``not_in_lobby``,
            ``lobby_full``, ``already_seated``, ``not_enough_players``, ``not_seated``,
            ``not_allowed``, ``not_started``, ``paused``, ``not_paused``, ``finished``,
            ``stale``, ``not_your_turn``, ``not_ai``, ``conflict``, ``engine_error``,
            ``bad_days``, ``vacation_cap``, ``damaged``, ``departed`` (removed from this running
            game), ``busy`` (the database is locked; nothing changed), ``disk_full`` (the disk
            is full or failing; nothing was saved),
            or an engine :class:`~engine.core.IllegalAction` code (``bad_action``, ...).
        message: a sentence for the person who asked.
        params: the values the message was built from.
    """

    def __init__(self, code: str, message: str, **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.params = params


BUSY = "The database is busy; try again in a moment."
DISK_FULL = "The disk is full: your {what} was not saved."


def refused(exc: IllegalAction) -> ServiceError:
    """The engine's refusal as the service's, with the same code, sentence and values."""
    return ServiceError(exc.code, exc.message, **exc.params)
