"""The PostgreSQL dialect: the store's statements and semantics over a server that several bot
processes share (``ANNALS_DB=postgresql://...``; see :func:`bot.storage.open_store`).

The store's SQL is portable, so the same statements serve both databases (one copy of every query, in
:mod:`bot.store`). What differs lives here:

* connections: an asyncpg pool instead of one writer and one reader; :class:`PgConnection` gives a
  transaction the small part of the DB-API the store's SQL uses (``?`` placeholders become ``$n``,
  ``rowcount``, ``fetchone``), and a constraint violation is raised as
  :class:`~bot.store_errors.ConstraintViolation`, the class the SQLite dialect raises too;
* several writers (:class:`bot.dialect.Shared`): every change of a game first locks its row
  (``SELECT ... FOR UPDATE``) and checks both the log's seq and the game's *revision*, which every
  change bumps. A process only writes a game from the revision it last loaded (the store's
  ``load_bundle`` records it), so a stale copy held in another process's cache gets
  :class:`~bot.store_errors.StoreConflict` even for a change that does not advance the log (a lobby
  join, a vacation): nothing is overwritten, the service reloads;
* deadlines: :meth:`PgDialect.claim_deadlines` leases due rows with ``FOR UPDATE SKIP LOCKED``, so one
  live process fires each (a lease outlives a dead process by :data:`CLAIM_SECONDS` at most); firing
  stays guarded by the revision, so even two claims of one row write it once;
* caches: every change of a game also sends ``NOTIFY annals_games`` (delivered at commit only), and
  :meth:`PgDialect.listen` calls back with the ids of games other processes changed, on a connection
  of its own, so the service drops its parsed copy at once instead of serving a stale board until its
  next write conflicts (:mod:`bot.service.following` reconnects it when it drops);
* the notice outbox: rows are numbered from the identity column's sequence, and
  :meth:`PgDialect.claim_outbox` leases a destination to one process at a time (an advisory lock per
  destination while claiming, then a lease of :data:`OUTBOX_LEASE_SECONDS`), so each notice is sent
  by one process, in order, and a dead process's destinations pass to a live one when the lease
  runs out;
* migrations: SQLite's files, each followed by ``migrations/postgres/NNNN_*.sql`` of its number where
  PostgreSQL needs more, applied under an advisory lock with the version in the ``annals_schema``
  table;
* errors: a lock held past ``lock_timeout`` or a deadlock is :class:`~bot.store_errors.StoreBusy`, a
  full disk :class:`~bot.store_errors.StoreFull`, a lost server a
  :class:`~bot.store_errors.StoreBusy` that says so.
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import secrets
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import asyncpg  # type: ignore[import-untyped]  # ships no type information

from bot.dialect import MIGRATION_NAME, MIGRATIONS_DIR, Connection, Reader, Row, list_migrations
from bot.models import GameChange
from bot.store_errors import (
    ConstraintViolation,
    MigrationError,
    StoreBusy,
    StoreConflict,
    StoreError,
    StoreFull,
)

log = logging.getLogger(__name__)

PG_MIGRATIONS_DIR = MIGRATIONS_DIR / "postgres"
#: How many games' revisions a process remembers (the service caches 1,024 parsed games by default).
SEEN_GAMES = 100_000
CHANNEL = "annals_games"  # NOTIFY channel: "<owner> <game id>" for every change of a game
#: The ``application_name`` of the connection that hears other processes (to find it on the server).
LISTENER_NAME = "annals-listen"
LISTEN_CONNECT_SECONDS = 10.0  # most a try to open the listening connection waits for the server
#: How long a claimed deadline is reserved for the process that claimed it.
CLAIM_SECONDS = 30
# A destination's rows stay with the process delivering them this long after its last claim (longer
# than one send with discord.py's own waits on a 429).
OUTBOX_LEASE_SECONDS = 120
_MIGRATION_LOCK = 0x616E6E616C73  # "annals": the advisory lock key held while migrating
_TOKEN = re.compile(r"'(?:[^']|'')*'|\?")


@lru_cache(maxsize=2048)
def pg_sql(sql: str) -> str:
    """``sql`` with its ``?`` placeholders numbered ``$1, $2...`` (a ``?`` inside quotes is kept)."""
    count = 0

    def number(match: re.Match[str]) -> str:
        nonlocal count
        if match.group() != "?":
            return match.group()
        count += 1
        return f"${count}"

    return _TOKEN.sub(number, sql)


def _returns_rows(sql: str) -> bool:
    head = sql.lstrip().split(None, 1)[0].upper() if sql.strip() else ""
    return head in ("SELECT", "WITH", "VALUES", "SHOW") or " RETURNING " in sql.upper()


def _rowcount(status: str) -> int:
    """The row count of a command tag such as ``UPDATE 1`` or ``INSERT 0 3`` (-1 when it has none)."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else -1


def pg_fault(exc: BaseException) -> StoreError | None:
    """The store's own error for a server-side fault a player should hear about, or None."""
    if isinstance(exc, asyncpg.IntegrityConstraintViolationError):
        return None
    if isinstance(exc, (asyncpg.exceptions.LockNotAvailableError, asyncpg.exceptions.DeadlockDetectedError,
                        asyncpg.exceptions.SerializationError, asyncpg.exceptions.QueryCanceledError,
                        asyncpg.exceptions.TooManyConnectionsError)):
        return StoreBusy(f"the database is busy: another process held a lock too long ({exc})")
    if isinstance(exc, (asyncpg.exceptions.DiskFullError, asyncpg.exceptions.InsufficientResourcesError,
                        asyncpg.exceptions.OutOfMemoryError)):
        return StoreFull(f"the database server is out of disk or memory ({exc})")
    if isinstance(exc, (OSError, asyncpg.exceptions.ConnectionDoesNotExistError,
                        asyncpg.exceptions.CannotConnectNowError, asyncpg.exceptions.AdminShutdownError,
                        asyncpg.exceptions.ConnectionFailureError)):
        return StoreBusy(f"the database server cannot be reached; the last write may not be saved ({exc})")
    return None


@contextmanager
def _mapped() -> Iterator[None]:
    """Raise asyncpg's errors as the store's (a constraint violation as
    :class:`~bot.store_errors.ConstraintViolation`)."""
    try:
        yield
    except asyncpg.IntegrityConstraintViolationError as exc:
        raise ConstraintViolation(str(exc)) from exc
    except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError) as exc:
        fault = pg_fault(exc)
        if fault is None:
            raise
        raise fault from exc



def redacted(url: str) -> str:
    """``url`` without its password (for messages and logs)."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@")
    return urlunsplit(parts._replace(netloc=netloc))


class PgCursor:
    """The rows and row count of one statement (what the store reads of an aiosqlite cursor)."""

    def __init__(self, rows: list[tuple[Any, ...]], rowcount: int) -> None:
        self.rows = rows
        self.rowcount = rowcount

    async def fetchone(self) -> tuple[Any, ...] | None:
        return self.rows[0] if self.rows else None

    async def fetchall(self) -> list[tuple[Any, ...]]:
        return self.rows


class PgConnection:
    """One pooled connection inside a transaction, spoken to like the SQLite writer."""

    def __init__(self, conn: asyncpg.Connection) -> None:
        self.raw = conn

    async def execute(self, sql: str, parameters: Iterable[Any] | None = None) -> PgCursor:
        query, args = pg_sql(sql), tuple(parameters or ())
        with _mapped():
            if _returns_rows(query):
                rows = [tuple(r) for r in await self.raw.fetch(query, *args)]
                return PgCursor(rows, len(rows))
            return PgCursor([], _rowcount(await self.raw.execute(query, *args)))

    async def executemany(self, sql: str, parameters: Iterable[Iterable[Any]]) -> None:
        batch = [tuple(p) for p in parameters]
        if batch:
            with _mapped():
                await self.raw.executemany(pg_sql(sql), batch)

    async def execute_fetchall(self, sql: str,
                               parameters: Iterable[Any] | None = None) -> list[tuple[Any, ...]]:
        return (await self.execute(sql, parameters)).rows




def pg_migrations(directory: Path = PG_MIGRATIONS_DIR) -> list[tuple[int, tuple[Path, ...]]]:
    """The migrations PostgreSQL runs: SQLite's portable files, each followed (in its transaction) by
    the file of the same number in ``directory`` where PostgreSQL needs more (0001's revision and
    claim columns, 0006's identity ids and leases)."""
    shared = list_migrations(MIGRATIONS_DIR)
    own: dict[int, Path] = {}
    for path in sorted(directory.glob("*.sql")):
        match = MIGRATION_NAME.match(path.name)
        if not match or not 1 <= int(match.group(1)) <= len(shared):
            raise MigrationError(f"postgres/{path.name}: not NNNN_name.sql with one of SQLite's numbers")
        own[int(match.group(1))] = path
    return [(n, (path, own[n]) if n in own else (path,)) for n, path in shared]



class PgListening:
    """The connection :meth:`PgDialect.listen` opened, and the one callback it reports changes to."""

    def __init__(self, conn: asyncpg.Connection, owner: str, changed: Callable[[str], object],
                 closed: Callable[[PgListening], None]) -> None:
        self._conn = conn
        self._owner = owner
        self._changed = changed
        self._closed = closed
        self._closing = False
        self._gone = asyncio.Event()
        # asyncpg calls this when the socket closes, whoever closed it (the server, the network, us)
        conn.add_termination_listener(lambda _conn: self._gone.set())

    def heard(self, _conn: object, _pid: int, _channel: str, payload: str) -> None:
        """asyncpg's notification callback: a game another process changed (never our own)."""
        owner, _, game_id = payload.partition(" ")
        if owner != self._owner and game_id:
            self._changed(game_id)

    async def lost(self) -> bool:
        """Wait until the connection has dropped (True) or was closed on purpose (False)."""
        await self._gone.wait()
        return not self._closing

    async def close(self) -> None:
        """Close the connection; a connection the server already dropped is just let go."""
        self._closing = True
        self._closed(self)
        if not self._conn.is_closed():
            try:
                await self._conn.close(timeout=LISTEN_CONNECT_SECONDS)
            except (TimeoutError, OSError, asyncpg.PostgresError, asyncpg.InterfaceError):
                self._conn.terminate()  # a dead socket: drop it without the goodbye
        self._gone.set()


class PgReader:
    """Reads through the pool, outside any transaction (the league store's reader)."""

    def __init__(self, dialect: PgDialect) -> None:
        self._dialect = dialect

    async def execute_fetchall(self, sql: str,
                               parameters: Iterable[Any] | None = None) -> list[tuple[Any, ...]]:
        return await self._dialect.read(sql, tuple(parameters or ()))

    async def close(self) -> None:
        """Nothing to close: the store owns the pool."""


class PgDialect:
    """One PostgreSQL database through a pool, shared with other processes. Create it with :meth:`open`."""

    def __init__(self, url: str, pool: asyncpg.Pool, *, read_only: bool = False) -> None:
        self.url = url
        self.path = redacted(url)
        self._pool = pool
        self._closed = False
        self._read_only = read_only  # opened by check: nothing to release at close
        self._current: ContextVar[PgConnection | None] = ContextVar(f"pg-{id(self)}", default=None)
        self._seen: OrderedDict[str, int] = OrderedDict()  # game id -> revision last loaded or written
        self.owner = f"{os.getpid()}-{secrets.token_hex(4)}"  # who holds a claim, who sent a notice
        self.outbox_lease = OUTBOX_LEASE_SECONDS  # seconds a claimed destination stays this process's
        self._listening: set[PgListening] = set()  # closed with the pool, whoever forgot to

    @property
    def shared(self) -> PgDialect:
        """This dialect coordinates the processes sharing the database itself."""
        return self

    # -- lifecycle -------------------------------------------------------------------
    @classmethod
    async def open(cls, url: str, *, busy_timeout_ms: int = 10_000, pool_size: int = 10,
                   read_only: bool = False) -> PgDialect:
        """Connect to the database ``url`` (see :meth:`bot.store.Store.open`).

        ``busy_timeout_ms`` becomes the server's ``lock_timeout`` (how long a write waits for a row
        another process holds). ``read_only`` (``python -m bot check``): every transaction of the
        session is read-only on the server.

        Raises:
            StoreError: the server cannot be reached or refuses us (the message says which).
        """
        try:
            pool = await asyncpg.create_pool(
                url, min_size=1, max_size=pool_size, timeout=max(busy_timeout_ms / 1000, 1),
                server_settings={"lock_timeout": str(int(busy_timeout_ms)), "application_name": "annals",
                                 **({"default_transaction_read_only": "on"} if read_only else {})})
        except (TimeoutError, OSError, asyncpg.PostgresError, asyncpg.InterfaceError, ValueError) as exc:
            raise StoreError(f"Cannot open the PostgreSQL database {redacted(url)} ({exc}). Check ANNALS_DB "
                             "and that the server is running and lets this user in.") from exc
        return cls(url, pool, read_only=read_only)

    async def close(self) -> None:
        """Give back the deadlines this process claimed, then close the pool (idempotent)."""
        if self._closed:
            return
        if self._read_only:  # claimed nothing, and may write nothing
            await self.shut()
            return
        try:  # the deadlines claimed but not fired go back at once (a killed process's after a lease)
            await self.read("UPDATE deadlines SET claimed_by = NULL, claimed_until = 0 "
                            "WHERE claimed_by = ? AND fired = 0 RETURNING deadline_id", (self.owner,))
        except StoreError as exc:
            log.warning("could not release the claimed deadlines: %s", exc)
        finally:
            await self.shut()

    async def shut(self) -> None:
        """Close the listener and the pool, releasing nothing (also after a failed migration, when
        there may be no schema to release deadlines in)."""
        self._closed = True
        for listening in list(self._listening):
            await listening.close()
        await self._pool.close()

    async def pragmas(self) -> dict[str, Any]:
        """The server's version, isolation level and lock timeout (what ``pragmas`` tells of SQLite)."""
        out: dict[str, Any] = {}
        for name in ("server_version", "transaction_isolation", "lock_timeout"):
            out[name] = await self._pool.fetchval(f"SHOW {name}")
        return out

    async def reader(self) -> Reader:
        """A reader over this dialect's pool."""
        return PgReader(self)

    async def table_columns(self) -> dict[str, list[str]]:
        """The tables of the current schema, each with its columns in order."""
        out: dict[str, list[str]] = {}
        for r in await self.read("SELECT table_name, column_name FROM information_schema.columns WHERE "
                                 "table_schema = current_schema() ORDER BY table_name, ordinal_position"):
            out.setdefault(str(r[0]), []).append(str(r[1]))
        return out

    # -- migrations ------------------------------------------------------------------
    def latest_version(self) -> int:
        """The schema version this code brings a database to."""
        return len(pg_migrations())

    async def user_version(self) -> int:
        """The schema version: the last migration applied (0 on an empty database)."""
        rows = await self.read("SELECT to_regclass('annals_schema') IS NOT NULL")
        if not rows[0][0]:
            return 0
        rows = await self.read("SELECT version FROM annals_schema")
        return int(rows[0][0]) if rows else 0

    async def migrate(self, directory: Path | None = None) -> int:
        """Apply the migrations newer than the schema version, each in its own transaction
        (``directory`` holds PostgreSQL's own files, :func:`pg_migrations`).

        The whole run holds an advisory lock, taken BEFORE the version is read, so processes
        starting together apply each migration once: the others wait, then find nothing to do.

        Raises:
            MigrationError: a file failed; it was rolled back whole, earlier ones stay applied.
        """
        migrations = pg_migrations(directory or PG_MIGRATIONS_DIR)
        async with self._pool.acquire() as conn:
            with _mapped():
                await conn.execute("SELECT pg_advisory_lock($1)", _MIGRATION_LOCK)
            try:
                await conn.execute("CREATE TABLE IF NOT EXISTS annals_schema (version INTEGER NOT NULL)")
                version = await conn.fetchval("SELECT version FROM annals_schema")
                if version is None:
                    await conn.execute("INSERT INTO annals_schema (version) VALUES (0)")
                    version = 0
                if version > len(migrations):
                    raise MigrationError(f"the database is at version {version}, newer than this code knows")
                for number, paths in migrations:
                    if number <= version:
                        continue
                    running = paths[0]
                    try:
                        async with conn.transaction():
                            for running in paths:
                                await conn.execute(running.read_text(encoding="utf-8"))
                            await conn.execute("UPDATE annals_schema SET version = $1", number)
                    except asyncpg.PostgresError as exc:
                        where = f"{running.parent.name}/{running.name}"  # SQLite's file or postgres/'s
                        raise MigrationError(f"{where} failed and was rolled back: {exc}") from exc
                    version = number
            finally:
                await conn.execute("SELECT pg_advisory_unlock($1)", _MIGRATION_LOCK)
        return int(version)

    # -- the write unit --------------------------------------------------------------
    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Connection]:
        """One write unit on a pooled connection: BEGIN, then COMMIT or ROLLBACK.

        A transaction opened inside another (in the same task) joins it, and a read inside one sees
        its own writes.
        """
        current = self._current.get()
        if current is not None:
            yield current
            return
        if self._closed:
            raise StoreError("the store is closed")
        with _mapped():
            async with self._pool.acquire() as raw, raw.transaction():
                conn = PgConnection(raw)
                token = self._current.set(conn)
                try:
                    yield conn
                finally:
                    self._current.reset(token)

    async def read(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """The rows of one query (inside the task's transaction, when one is open)."""
        current = self._current.get()
        if current is not None:  # inside a transaction: see its own writes
            return await current.execute_fetchall(sql, params)
        if self._closed:
            raise StoreError("the store is closed")
        with _mapped():
            return [tuple(r) for r in await self._pool.fetch(pg_sql(sql), *params)]

    async def next_ids(self, conn: Connection, table: str, count: int) -> list[int]:
        """Numbers from the table's identity sequence (other processes take numbers from it too)."""
        rows = await conn.execute_fetchall(
            "SELECT nextval(pg_get_serial_sequence(?, 'id')) FROM generate_series(1, ?)", (table, count))
        return sorted(int(r[0]) for r in rows)  # ascending, as the items they number are in order

    # -- several writers (bot.dialect.Shared) ------------------------------------------
    async def revision(self, game_id: str) -> int | None:
        """The game's revision now, or None when there is no such game."""
        rows = await self.read("SELECT revision FROM games WHERE game_id = ?", (game_id,))
        return int(rows[0][0]) if rows else None

    def saw(self, game_id: str, revision: int) -> None:
        """Remember the revision this process holds of a game, for the :data:`SEEN_GAMES` most recent
        (far more than the service caches: a game forgotten here was reloaded since, or is not cached)."""
        self._seen[game_id] = revision
        self._seen.move_to_end(game_id)
        while len(self._seen) > SEEN_GAMES:
            self._seen.popitem(last=False)

    async def lock_game(self, conn: Connection, change: GameChange) -> int:
        """Lock the game's row, check its seq, status and revision, and bump the revision.

        Raises:
            StoreConflict: the game changed since this process loaded it, or does not exist;
                nothing was written.
        """
        gid = change.game_id
        rows = list(await conn.execute_fetchall(
            "SELECT seq, status, revision FROM games WHERE game_id = ? FOR UPDATE", (gid,)))
        if not rows:
            raise StoreConflict(f"game {gid!r} does not exist")
        seq, status, revision = rows[0]
        seen = self._seen.get(gid)
        if (seq != change.expected_seq or (seen is not None and revision != seen)
                or (change.expected_status is not None and status != change.expected_status)):
            raise StoreConflict(f"game {gid!r} changed meanwhile (seq {seq}, revision {revision})")
        await conn.execute("UPDATE games SET revision = ? WHERE game_id = ?", (revision + 1, gid))
        return int(revision) + 1

    async def announce(self, conn: Connection, game_id: str) -> None:
        """``NOTIFY`` the other processes (delivered when the transaction commits)."""
        await conn.execute("SELECT pg_notify(?, ?)", (CHANNEL, f"{self.owner} {game_id}"))

    async def listen(self, changed: Callable[[str], object]) -> PgListening:
        """``LISTEN`` on a connection of its own (not the pool's: it stays open) and call
        ``changed(game_id)`` for each change another process commits (this one's are not reported).

        Raises:
            StoreBusy: the server cannot be reached now, or dropped the connection at once; nothing
                is left open.
            StoreError: the store is closed.
        """
        if self._closed:
            raise StoreError("the store is closed")
        try:
            conn = await asyncpg.connect(self.url, timeout=LISTEN_CONNECT_SECONDS,
                                         server_settings={"application_name": LISTENER_NAME})
        except (TimeoutError, OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
            raise StoreBusy(f"cannot reach the database server to hear other processes ({exc})") from exc
        listening = PgListening(conn, self.owner, changed, self._listening.discard)
        try:
            await conn.add_listener(CHANNEL, listening.heard)
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:  # dropped at once
            await listening.close()
            raise StoreBusy(f"cannot hear other processes: the connection dropped ({exc})") from exc
        self._listening.add(listening)
        return listening

    async def claim_deadlines(self, due_before: int, columns: str) -> list[Row]:
        """Lease the unfired deadlines due by ``due_before`` that no other live process holds.

        Rows being claimed by another process right now are skipped (``SKIP LOCKED``), rows it
        claimed in the last :data:`CLAIM_SECONDS` are left to it; this process's own claims are
        returned again (it may retry a row it claimed).
        """
        now = int(time.time())
        return await self.read(
            "UPDATE deadlines SET claimed_by = ?, claimed_until = ? WHERE deadline_id IN ("
            "SELECT deadline_id FROM deadlines WHERE fired = 0 AND due_at <= ? "
            "AND (claimed_until <= ? OR claimed_by = ?) "
            "AND game_id NOT IN (SELECT game_id FROM games WHERE damage IS NOT NULL) "  # paused clocks
            f"FOR UPDATE SKIP LOCKED) RETURNING {columns}",
            (self.owner, now + CLAIM_SECONDS, due_before, now, self.owner))

    async def claim_outbox(self, key: str, where: str, params: Sequence[Any], columns: str,
                           limit: int) -> list[Row]:
        """Lease a destination's first rows to this process; none while another live process holds
        it (it delivers them, in order). Claims of one destination are taken one at a time under an
        advisory lock, so two processes never split its rows."""
        now = int(time.time())
        async with self.transaction() as conn:
            await conn.execute("SELECT pg_advisory_xact_lock(hashtext(?))", (key,))
            held = await conn.execute_fetchall(
                f"SELECT 1 FROM outbox WHERE {where} AND claimed_until > ? AND claimed_by <> ? LIMIT 1",
                (*params, now, self.owner))
            if list(held):
                return []
            return list(await conn.execute_fetchall(
                f"UPDATE outbox SET claimed_by = ?, claimed_until = ? WHERE id IN (SELECT id FROM outbox "
                f"WHERE {where} ORDER BY id LIMIT ?) RETURNING {columns}",
                (self.owner, now + self.outbox_lease, *params, limit)))

    # -- maintenance -----------------------------------------------------------------
    async def integrity_problems(self, *, quick: bool = False) -> list[str]:
        """What is wrong with the schema (missing tables, an unknown version); the server checks its
        own pages, and constraints hold by construction, so there is no ``integrity_check`` to run."""
        out: list[str] = []
        expected = len(pg_migrations())
        version = await self.user_version()
        if version != expected:
            out.append(f"schema version {version}, this code expects {expected}")
        if not quick:
            tables = set(await self.table_columns())
            missing = {"games", "seats", "actions", "snapshots", "deadlines"} - tables
            out += [f"missing table {name}" for name in sorted(missing)]
        return out

    async def checkpoint_wal(self) -> None:
        """Nothing to do: the server manages its own write-ahead log."""
