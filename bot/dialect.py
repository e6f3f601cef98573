"""What the store asks of a database, and what differs between the two it runs on.

:class:`bot.store.Store` holds every query and transaction rule once, over a :class:`Dialect`:
:class:`bot.sqlite_dialect.SqliteDialect` (an embedded file, one writer process) or
:class:`bot.postgres_dialect.PgDialect` (a server several bot processes share). A dialect supplies
only what differs: connecting (two connections or a pool), the parameter style (the store writes
``?``), the migration files and where the schema version is kept, how a transaction begins and locks,
how faults and constraint violations are recognised (as :mod:`bot.store_errors`), how new outbox rows
are numbered, and, for a database several processes write, :class:`Shared`: the game revisions,
deadline and outbox leases and change notices that keep them from overwriting each other.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import Any, Protocol

from bot.models import GameChange
from bot.store_errors import MigrationError

MIGRATIONS_DIR = Path(__file__).resolve().parents[1] / "migrations"
MIGRATION_NAME = re.compile(r"^(\d{4})_[A-Za-z0-9_\-]+\.sql$")
SQLITE_PREFIX = "sqlite:///"
POSTGRES_PREFIXES = ("postgresql://", "postgres://")

#: A row as a dialect returns it: indexable by column position (a tuple, or sqlite3.Row).
Row = Any


def is_postgres(target: str) -> bool:
    """True when ``target`` names a PostgreSQL database rather than a SQLite file."""
    return target.startswith(POSTGRES_PREFIXES)


def sqlite_path(target: str) -> str:
    """The file of a SQLite target (``sqlite:///x.db`` or a plain path)."""
    return target[len(SQLITE_PREFIX):] if target.startswith(SQLITE_PREFIX) else target


def list_migrations(directory: Path) -> list[tuple[int, Path]]:
    """The numbered ``.sql`` files in ``directory``, in order; gaps and duplicates are errors."""
    found: list[tuple[int, Path]] = []
    for path in sorted(directory.glob("*.sql")):
        match = MIGRATION_NAME.match(path.name)
        if not match:
            raise MigrationError(f"{path.name}: migration files are named NNNN_name.sql")
        found.append((int(match.group(1)), path))
    numbers = [n for n, _ in found]
    if numbers != list(range(1, len(numbers) + 1)):
        raise MigrationError(f"migrations must be numbered 1, 2, 3... without gaps; found {numbers}")
    return found


class Cursor(Protocol):
    """What the store reads of a statement's result."""

    @property
    def rowcount(self) -> int: ...

    async def fetchone(self) -> Row | None: ...

    async def fetchall(self) -> Iterable[Row]: ...


class Connection(Protocol):
    """A connection inside a write transaction, spoken to in ``?`` placeholders."""

    def execute(self, sql: str, parameters: Iterable[Any] | None = None) -> Awaitable[Cursor]: ...

    def executemany(self, sql: str, parameters: Iterable[Iterable[Any]]) -> Awaitable[object]: ...

    def execute_fetchall(self, sql: str,
                         parameters: Iterable[Any] | None = None) -> Awaitable[Iterable[Row]]: ...


class Reader(Protocol):
    """A read-only connection: what :class:`bot.leagues.store.LeagueStore` reads through."""

    async def execute_fetchall(self, sql: str, parameters: Iterable[Any] | None = None) -> Iterable[Any]: ...

    async def close(self) -> None: ...


class Listening(Protocol):
    """One connection hearing the changes other processes commit (see :meth:`Shared.listen`)."""

    async def lost(self) -> bool:
        """Wait until changes are no longer heard.

        Returns:
            True when the connection dropped, False when it was closed on purpose (:meth:`close`,
            or the store closing).
        """

    async def close(self) -> None:
        """Stop hearing and let the connection go (idempotent)."""


class Shared(Protocol):
    """What several processes writing one database need, so none overwrites another's change."""

    async def revision(self, game_id: str) -> int | None:
        """The game's revision now (read before loading it), or None when there is no such game."""

    def saw(self, game_id: str, revision: int) -> None:
        """Remember the revision this process holds of a game (loaded or written)."""

    async def lock_game(self, conn: Connection, change: GameChange) -> int:
        """Lock the game's row for the transaction, check that it is still the seq, status and
        revision this process loaded, bump its revision and return the new one.

        Raises:
            StoreConflict: it changed meanwhile or does not exist; nothing was written.
        """

    async def announce(self, conn: Connection, game_id: str) -> None:
        """Tell the other processes, at commit, that the game changed."""

    async def listen(self, changed: Callable[[str], object]) -> Listening:
        """Call ``changed(game_id)`` whenever another process commits a change of a game, on a
        connection of its own, until that connection drops or is closed.

        Raises:
            StoreError: the server cannot be reached now (nothing is left open).
        """

    async def claim_deadlines(self, due_before: int, columns: str) -> list[Row]:
        """Lease the unfired deadlines due by ``due_before`` no other live process holds (``columns``
        of each, in no particular order)."""

    async def claim_outbox(self, key: str, where: str, params: Sequence[Any], columns: str,
                           limit: int) -> list[Row]:
        """Lease the first ``limit`` rows matching ``where`` (one destination's, named by ``key``) to
        this process, or none while another live process holds that destination."""


class Dialect(Protocol):
    """One database as the store uses it (see the module docstring for what belongs here)."""

    @property
    def path(self) -> str:
        """Where the data lives: the SQLite file, or the PostgreSQL URL without its password."""

    @property
    def shared(self) -> Shared | None:
        """The coordination of several writing processes; None when one process writes the database."""

    def transaction(self) -> AbstractAsyncContextManager[Connection]:
        """One write unit: begin (taking the write lock), then commit, or roll back on any error.

        Raises:
            ConstraintViolation: a statement broke a constraint (nothing was written).
            StoreBusy, StoreFull: a lock held too long, a full disk, a lost server.
        """

    async def read(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """The rows of one query, outside any write (committed data only)."""

    async def next_ids(self, conn: Connection, table: str, count: int) -> list[int]:
        """``count`` new ids for rows of ``table`` (its ``id`` column), inside ``conn``'s transaction."""

    async def close(self) -> None: ...

    async def pragmas(self) -> dict[str, Any]: ...

    async def user_version(self) -> int: ...

    def latest_version(self) -> int: ...

    async def migrate(self, directory: Path | None = None) -> int: ...

    async def integrity_problems(self, *, quick: bool = False) -> list[str]: ...

    async def checkpoint_wal(self) -> None: ...

    async def table_columns(self) -> dict[str, list[str]]:
        """The tables of the schema, each with its columns in order."""

    async def reader(self) -> Reader:
        """A read-only connection for the league store (closed by it)."""
