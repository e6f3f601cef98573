"""What the rest of the bot needs from a database, and the one place that picks which database.

:class:`GameStore` is the interface the service, the scheduler, the console, the Discord adapter
and the league store use, derived from their call sites; :class:`bot.store.Store` provides it over
either dialect: embedded SQLite (the default, :mod:`bot.sqlite_dialect`) or a PostgreSQL server shared
by several bot processes (:mod:`bot.postgres_dialect`). :func:`open_store` reads ``ANNALS_DB`` (or the
path/URL it is given):

* nothing, a path, or ``sqlite:///path``: the SQLite file;
* ``postgresql://user@host/db`` (or ``postgres://``): the PostgreSQL database.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import Any, Protocol

from bot.dialect import POSTGRES_PREFIXES, SQLITE_PREFIX, Listening, Reader, is_postgres, sqlite_path
from bot.models import (
    ActionRow,
    Deadline,
    Destination,
    GameBundle,
    GameChange,
    GameRow,
    GameStatusName,
    GuildSettings,
    MessageRef,
    OutboxItem,
    OutboxRow,
    SeatRow,
    Snapshot,
    UserSettings,
)
from bot.store import Store

__all__ = ["POSTGRES_PREFIXES", "SQLITE_PREFIX", "GameStore", "Listening", "Reader", "is_postgres",
           "open_store", "sqlite_path"]


class GameStore(Protocol):
    """The game database as its callers use it (see :class:`bot.store.Store` for each method)."""

    @property
    def path(self) -> str:
        """Where the data lives: the SQLite file, or the PostgreSQL URL without its password."""

    def transaction(self) -> AbstractAsyncContextManager[Any]: ...

    async def close(self) -> None: ...

    async def user_version(self) -> int: ...

    def latest_version(self) -> int: ...

    async def integrity_problems(self, *, quick: bool = False) -> list[str]: ...

    async def reader(self) -> Reader:
        """A read-only connection for the league store (which closes it)."""

    async def table_columns(self) -> dict[str, list[str]]:
        """The tables of the schema, each with its columns in order."""

    async def listen(self, changed: Callable[[str], object]) -> Listening | None:
        """Call ``changed(game_id)`` when another process changes a game, until the connection this
        returns drops or is closed; None where one process writes the database (nothing to hear).
        :class:`bot.service.following.Following` keeps it open for the service."""

    # -- games
    async def create_game(self, game: GameRow, seats: Iterable[SeatRow],
                          outbox: Sequence[OutboxItem] = ()) -> list[int]: ...

    async def apply_change(self, change: GameChange) -> list[int]: ...

    async def get_game(self, game_id: str) -> GameRow | None: ...

    async def list_games(
        self, *, statuses: Sequence[GameStatusName] | None = None, guild_id: int | None = None
    ) -> list[GameRow]: ...

    async def game_ids(self, *, statuses: Sequence[GameStatusName]) -> list[str]: ...

    async def game_contact(self, game_id: str) -> tuple[str, str, int, int | None] | None: ...

    async def mark_damaged(self, game_id: str, problem: str, now: int,
                           outbox: Sequence[OutboxItem] = ()) -> list[int] | None: ...

    async def clear_damage(self, game_id: str, now: int) -> None: ...

    async def damaged_games(self) -> dict[str, str]: ...

    async def games_in_channel(
        self, channel_id: int, *, statuses: Sequence[GameStatusName] | None = None
    ) -> list[GameRow]: ...

    async def games_of_user(self, user_id: int) -> list[str]: ...

    async def get_seats(self, game_id: str) -> list[SeatRow]: ...

    async def departure(self, game_id: str, user_id: int) -> str | None: ...

    async def load_bundle(self, game_id: str) -> GameBundle | None: ...

    # -- log and snapshots
    async def actions(
        self, game_id: str, *, after_seq: int = 0, upto_seq: int | None = None
    ) -> list[ActionRow]: ...

    async def records(
        self, game_id: str, *, after_seq: int = 0, upto_seq: int | None = None, last: int | None = None
    ) -> list[ActionRow]: ...

    async def standing(self, game_id: str, *, after_seq: int = 0, upto_seq: int, last: int | None = None
                       ) -> list[ActionRow]: ...

    async def public_counts(self, game_id: str, *, upto_seq: int
                            ) -> list[tuple[int, int, int | None, str]]: ...

    async def quiet_entries(self, game_id: str, *, upto_seq: int) -> list[int]: ...

    async def last_move(self, game_id: str, player: int) -> int | None: ...

    async def undo_state(self, game_id: str, seq: int) -> str | None: ...

    async def unrecorded_games(self) -> list[str]: ...

    async def set_records(self, game_id: str, events: Sequence[tuple[int, str]],
                          voided: Sequence[tuple[int, int]] = ()) -> None: ...

    async def log_bounds(self, game_id: str) -> tuple[int, int, int]: ...

    async def snapshot(self, game_id: str) -> Snapshot | None: ...

    async def checkpoints(self, game_id: str) -> list[Snapshot]: ...

    async def latest_checkpoint(self, game_id: str, *, upto_seq: int | None = None) -> Snapshot | None: ...

    # -- deadlines
    async def game_deadlines(self, game_id: str) -> list[Deadline]: ...

    async def get_deadline(self, deadline_id: str) -> Deadline | None: ...

    async def pending_deadlines(self, *, due_before: float | None = None) -> list[Deadline]: ...

    async def claim_deadlines(self, *, due_before: float) -> list[Deadline]:
        """The unfired deadlines due by ``due_before`` that this process may fire now: with several
        processes on one database, a row another live process has claimed is left out."""

    # -- people, servers, messages
    async def get_user_settings(self, user_id: int) -> UserSettings: ...

    async def set_user_settings(self, settings: UserSettings, now: int) -> None: ...

    async def get_guild_settings(self, guild_id: int) -> GuildSettings: ...

    async def set_guild_settings(self, settings: GuildSettings, now: int) -> None: ...

    async def set_thread(self, game_id: str, thread_id: int | None, now: int) -> None: ...

    async def set_message(self, ref: MessageRef, now: int) -> None: ...

    async def messages(self, game_id: str) -> dict[str, MessageRef]: ...

    async def delete_message(self, game_id: str, purpose: str) -> None: ...

    # -- the notice outbox (written with the changes above, delivered by a front)
    async def enqueue(self, items: Sequence[OutboxItem], now: int) -> list[int]: ...

    async def outbox_destinations(self) -> list[Destination]: ...

    async def claim_due(self, destination: Destination, limit: int = 200) -> list[OutboxRow]:
        """The destination's rows this process may deliver now, in order: with several processes on
        one database, none while another live process holds the destination."""

    async def outbox_rows(self, ids: Sequence[int] | None = None) -> list[OutboxRow]: ...

    async def form_batches(self, batches: Sequence[Sequence[int]]) -> None:
        """Store which rows go out together (each batch's first id as their ``batch_id``), in one
        transaction, before the first attempt; a row already in a batch keeps it."""

    async def begin_attempt(self, ids: Sequence[int]) -> None: ...

    async def mark_delivered(self, ids: Sequence[int], now: int) -> None: ...

    async def retry_later(self, ids: Sequence[int], error: str, next_try_ms: int) -> None: ...

    async def give_up(self, ids: Sequence[int], error: str, now: int) -> None: ...

    async def prune_outbox(self, before: int) -> int: ...

    # -- the DM channels Discord opened (a restart does not open them again)
    async def dm_channel(self, user_id: int) -> int | None: ...

    async def remember_dm_channel(self, user_id: int, channel_id: int, now: int) -> None: ...

    async def forget_dm_channel(self, user_id: int, channel_id: int) -> None: ...


async def open_store(target: str | Path | None = None, *, exclusive: bool = False,
                     migrate: bool = True, read_only: bool = False) -> GameStore:
    """Open the database ``target`` names (default ``ANNALS_DB``, else the embedded SQLite file).

    ``exclusive`` makes this process the one writer of a SQLite file (see
    :func:`bot.sqlite_dialect.hold_writer_lock`); a PostgreSQL database takes any number of processes,
    each write being guarded by the game's revision, so it has no such lock. ``read_only`` opens it
    for reading only, migrating nothing (``python -m bot check``).

    Raises:
        StoreError: the database cannot be opened (the message says why and what to do).
    """
    return await Store.open(None if target is None else str(target), exclusive=exclusive, migrate=migrate,
                            read_only=read_only)
