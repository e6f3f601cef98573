"""The game service: lobbies, moves, AI seats, timeouts. No Discord here.

One facade, :class:`GameService`, over parts split by concern: lobbies
(:mod:`bot.service.lobby`), play (:mod:`bot.service.play`), clocks and
deadlines (:mod:`bot.service.clocks`), reading (:mod:`bot.service.queries`) and,
with several processes on one database, hearing the others' changes
(:mod:`bot.service.elsewhere`), all on the shared machinery of :mod:`bot.service.base`.

Transports (the Discord adapter, the console) call these coroutines and turn
the returned :class:`~bot.models.Outcome` notices into messages; the scheduler
arms the deadline rows the service writes and calls :meth:`GameService.fire_deadline`.

Guarantees:
    * Every change of a game is ONE store transaction that appends the actions,
      replaces the current snapshot (plus a checkpoint every K actions), updates
      the seats and the deadlines of the players who must act next.
    * Work on one game is serialised by a per-game ``asyncio.Lock``; different
      games proceed concurrently (their writes share the store's one writer).
    * ``submit`` carries the seq the player saw; a stale seq is refused, so a
      double click or two racing players never apply an action twice.
    * Bad input raises :class:`ServiceError` with a stable ``code`` and a clear
      message, and changes nothing.

Deadlines (for the scheduler):
    A human player who must act has one ``turn`` row and one ``reminder`` row
    per reminder offset (fewer if the person asked for fewer). A player's clock
    restarts whenever they act or become an actor; other waiting actors keep
    theirs. Rows leave the table when their player stops being an actor, when
    the game is paused, ends or is abandoned; resuming starts fresh clocks. Ids
    are stable strings (``"<game>:<seq>:<player>:turn"``), usable as job ids.
    The scheduler should: at start-up call :meth:`GameService.startup`, then
    :meth:`GameService.pending_deadlines`, fire overdue rows at once and arm the
    rest; re-arm a game's jobs from ``outcome.status.deadlines`` in a listener
    (:meth:`GameService.subscribe`); sweep ``pending_deadlines`` every minute.
    :meth:`GameService.fire_deadline` is idempotent and returns None for rows
    that are fired, gone, stale or not yet due.
"""

from __future__ import annotations

from bot.service.base import DEFAULT_VACATION_DAYS, Listener
from bot.service.clocks import ClockOps
from bot.service.elsewhere import ElsewhereOps
from bot.service.errors import ServiceError
from bot.service.lobby import LobbyOps
from bot.service.play import PlayOps
from bot.service.queries import QueryOps
from bot.service.records import DAY, MAX_NAME
from bot.service.replays import ReplayOps
from bot.service.undo import UndoOps

__all__ = ["DAY", "DEFAULT_VACATION_DAYS", "MAX_NAME", "GameService", "Listener", "ServiceError"]


class GameService(LobbyOps, PlayOps, UndoOps, ClockOps, QueryOps, ReplayOps, ElsewhereOps):
    """Runs games on top of a :class:`~bot.store.Store`.

    Args:
        store: an open store.
        clock: where time comes from (a FakeClock in tests).
        checkpoint_every: keep a checkpoint every K actions.
        cache_size: games kept parsed in memory (0 reloads from the database every call).
        ai_batch: most AI actions written per transaction before yielding to other games.
        default_ai: the AI policy for new AI seats and autopilot.
        vacation_days: the most days away each seat may declare per game (see :meth:`vacation`).
        id_factory: makes new game ids (default: 8 random lowercase letters/digits).
        seed_factory: makes new game seeds (default: 62 random bits).
    """
