"""``python -m bot copy-db SOURCE TARGET``: move every row from one database to another (SQLite to
PostgreSQL to go up, PostgreSQL to SQLite to come back), then prove nothing was lost.

* The source is read in one read-only transaction, so a live bot may keep writing it: the copy is
  the database as it was at one moment (SQLite's WAL and PostgreSQL's REPEATABLE READ give that).
* The target is migrated to the same schema version and must be empty; it is written in one
  transaction, so a failed copy leaves it empty.
* Every table of the schema is copied, in an order that satisfies its foreign keys; columns only one
  dialect has (the PostgreSQL store's ``revision`` and deadline claims) are left to their defaults.
* Afterwards each table's row count is compared, and every game on the target is replayed from its
  seed and compared with its snapshot and checkpoints (:meth:`bot.service.GameService.audit`).
"""

from __future__ import annotations

import asyncio
import sqlite3
import sys
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any, Protocol

import asyncpg  # type: ignore[import-untyped]  # ships no type information

from bot.service import GameService
from bot.storage import GameStore, is_postgres, open_store, sqlite_path
from bot.store import MIGRATIONS_DIR, StoreError, list_migrations
from engine.words import plural

#: Parents before children (foreign keys); a table this list does not know goes after them all.
TABLE_ORDER = (
    "guild_settings", "user_settings", "games", "seats", "actions", "snapshots", "checkpoints", "deadlines",
    "messages", "leagues", "league_seasons", "league_signups", "league_queue", "league_games",
    "league_ratings", "league_reliability",
)
BATCH = 500
_SKIP = ("annals_schema",)  # PostgreSQL's record of the schema version: each side keeps its own
IDENTITY_TABLES = ("outbox",)  # PostgreSQL numbers these rows itself (migrations/postgres)
_SQLITE_TABLES = "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
_PG_COLUMNS = ("SELECT table_name, column_name FROM information_schema.columns "
               "WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position")


def _grouped(rows: Sequence[Sequence[Any]]) -> dict[str, list[str]]:
    """(table, column) rows -> the columns of each table, in order."""
    out: dict[str, list[str]] = {}
    for r in rows:
        out.setdefault(str(r[0]), []).append(str(r[1]))
    return out


class CopyError(StoreError):
    """The copy was refused or did not check out; the message says why."""


@dataclass(frozen=True)
class CopyReport:
    """What was copied: rows per table, and the games replayed on the target."""

    rows: dict[str, int]
    games: int

    def summary(self) -> str:
        total = sum(self.rows.values())
        return (f"{plural(total, 'row')} in {plural(len(self.rows), 'table')} copied; "
                f"{plural(self.games, 'game')} replayed on the target and equal to their snapshots.")


class SourceView(Protocol):
    """One consistent read of the source."""

    async def tables(self) -> dict[str, list[str]]: ...

    def rows(self, table: str, columns: Sequence[str]) -> AsyncIterator[list[tuple[Any, ...]]]: ...


class _SqliteSnapshot:
    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    async def tables(self) -> dict[str, list[str]]:
        names = [r[0] for r in self.conn.execute(_SQLITE_TABLES)]
        return {n: [r[1] for r in self.conn.execute(f'PRAGMA table_info("{n}")')] for n in names}

    async def rows(self, table: str, columns: Sequence[str]) -> AsyncIterator[list[tuple[Any, ...]]]:
        cursor = self.conn.execute(f"SELECT {', '.join(columns)} FROM {table}")
        while batch := cursor.fetchmany(BATCH):
            yield [tuple(r) for r in batch]


class _PgSnapshot:
    def __init__(self, conn: asyncpg.Connection) -> None:
        self.conn = conn

    async def tables(self) -> dict[str, list[str]]:
        return _grouped(await self.conn.fetch(_PG_COLUMNS))

    async def rows(self, table: str, columns: Sequence[str]) -> AsyncIterator[list[tuple[Any, ...]]]:
        async for batch in _pg_batches(self.conn, f"SELECT {', '.join(columns)} FROM {table}"):
            yield batch


async def _pg_batches(conn: asyncpg.Connection, sql: str) -> AsyncIterator[list[tuple[Any, ...]]]:
    cursor = await conn.cursor(sql)
    while batch := await cursor.fetch(BATCH):
        yield [tuple(r) for r in batch]


@asynccontextmanager
async def snapshot_of(source: str) -> AsyncIterator[SourceView]:
    """A read-only, consistent view of ``source`` for as long as the block runs."""
    if is_postgres(source):
        try:
            conn = await asyncpg.connect(source)
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
            raise CopyError(f"cannot read the source database ({exc})") from exc
        try:
            async with conn.transaction(isolation="repeatable_read", readonly=True):
                yield _PgSnapshot(conn)
        finally:
            await conn.close()
        return
    path = sqlite_path(source)
    try:
        conn_ = sqlite3.connect(f"file:{path}?mode=ro", uri=True, isolation_level=None)
    except sqlite3.Error as exc:
        raise CopyError(f"cannot read the source database {path} ({exc})") from exc
    try:
        conn_.execute("BEGIN")  # one read transaction: the WAL shows this moment to the end
        yield _SqliteSnapshot(conn_)
        conn_.execute("COMMIT")
    finally:
        conn_.close()


def _order(names: Sequence[str]) -> list[str]:
    known = [t for t in TABLE_ORDER if t in names]
    return known + sorted(t for t in names if t not in TABLE_ORDER)


async def _count(store: GameStore, table: str) -> int:
    async with store.transaction() as conn:
        row = await (await conn.execute(f"SELECT COUNT(*) FROM {table}")).fetchone()
    return int(row[0])


async def copy_db(source: str, target: str) -> CopyReport:
    """Copy every row of ``source`` into the empty database ``target`` and check it (module docstring).

    Raises:
        CopyError: the target is the source or not empty, the schemas differ, or the check failed.
    """
    if source == target or (not is_postgres(source) and not is_postgres(target)
                            and sqlite_path(source) == sqlite_path(target)):
        raise CopyError("the source and the target are the same database")
    expected = len(list_migrations(MIGRATIONS_DIR))
    store = await open_store(target)  # migrated to this code's schema
    try:
        tables = await store.table_columns()
        names = [t for t in tables if t not in _SKIP]
        busy = [t for t in names if await _count(store, t)]
        if busy:
            raise CopyError(f"the target is not empty (rows in {', '.join(sorted(busy))}); copy-db only "
                            "writes into an empty database")
        copied: dict[str, int] = {}
        async with snapshot_of(source) as snap:
            source_tables = {t: c for t, c in (await snap.tables()).items() if t not in _SKIP}
            missing = sorted(set(source_tables) - set(names))
            if missing:
                raise CopyError(f"the target has no table {', '.join(missing)}: is the source newer than "
                                f"this code (schema version {expected})?")
            if "games" not in source_tables:
                raise CopyError("the source is not an Annals database (it has no games table)")
            async with store.transaction() as conn:  # all or nothing
                for table in _order(list(source_tables)):
                    columns = [c for c in source_tables[table] if c in tables[table]]
                    insert = (f"INSERT INTO {table} ({', '.join(columns)}) "
                              f"VALUES ({', '.join('?' * len(columns))})")
                    copied[table] = 0
                    async for batch in snap.rows(table, columns):
                        await conn.executemany(insert, batch)
                        copied[table] += len(batch)
                if is_postgres(target):  # rows came with their ids: number new ones after them
                    for table in IDENTITY_TABLES:
                        await conn.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                                           f"(SELECT COALESCE(MAX(id), 0) + 1 FROM {table}), false)")
        for table, n in copied.items():
            if await _count(store, table) != n:
                raise CopyError(f"table {table}: {n} rows read, a different number on the target")
        audit = await GameService(store, cache_size=0).audit()
        if audit.problems:
            raise CopyError(f"{len(audit.problems)} problems on the target, first: {audit.problems[0]}")
        return CopyReport(copied, audit.checked)
    finally:
        await store.close()


def run(source: str, target: str) -> int:
    """The command: prints one line of result; exit status 0 when the copy checked out."""
    try:
        report = asyncio.run(copy_db(source, target))
    except StoreError as exc:
        print(f"copy-db: {exc}", file=sys.stderr)
        return 1
    print(report.summary())
    return 0
