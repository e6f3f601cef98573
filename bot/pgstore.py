"""The PostgreSQL store: the SQLite store's statements and semantics over a server that several bot
processes share (``ANNALS_DB=postgresql://...``; see :func:`bot.storage.open_store`).

Why a subclass of :class:`bot.store.Store`: the store's SQL is portable, so the same statements serve
both databases (one copy of every query; a method added to the SQLite store works here as soon as its
SQL does). What differs lives here:

* connections: an asyncpg pool instead of one writer and one reader; :class:`PgConnection` gives a
  transaction the small part of the DB-API the store's SQL uses (``?`` placeholders become ``$n``,
  ``rowcount``, ``fetchone``), and a constraint violation is raised as :class:`sqlite3.IntegrityError`,
  the class the store and the league store already catch;
* several writers: every change of a game first locks its row (``SELECT ... FOR UPDATE``) and checks
  both the log's seq and the game's *revision*, which every change bumps. A process only writes a
  game from the revision it last loaded (:meth:`load_bundle` records it), so a stale copy held in
  another process's cache gets :class:`~bot.store.StoreConflict` even for a change that does not
  advance the log (a lobby join, a vacation): nothing is overwritten, the service reloads;
* deadlines: :meth:`claim_deadlines` leases due rows with ``FOR UPDATE SKIP LOCKED``, so one live
  process fires each (a lease outlives a dead process by :data:`CLAIM_SECONDS` at most); firing stays
  guarded by the revision, so even two claims of one row write it once;
* caches: every change of a game also sends ``NOTIFY annals_games`` (delivered at commit only), and
  :meth:`follow` calls back with the ids of games other processes changed, so the service drops its
  parsed copy at once instead of serving a stale board until its next write conflicts;
* the notice outbox: rows are numbered by an identity column, and :meth:`claim_due` leases a
  destination to one process at a time (an advisory lock per destination while claiming, then a
  lease of :data:`OUTBOX_LEASE_SECONDS`), so each notice is sent by one process, in order, and a
  dead process's destinations pass to a live one when the lease runs out;
* migrations: SQLite's files, each followed by ``migrations/postgres/NNNN_*.sql`` of its number where
  PostgreSQL needs more, applied under an advisory lock with the version in the ``annals_schema``
  table;
* errors: a lock held past ``lock_timeout`` or a deadlock is :class:`~bot.store.StoreBusy`, a full disk
  :class:`~bot.store.StoreFull`, a lost server a :class:`~bot.store.StoreBusy` that says so.
"""

from __future__ import annotations

import logging
import os
import re
import secrets
import sqlite3
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

from bot.models import Deadline, Destination, GameBundle, GameChange, GameRow, OutboxItem, OutboxRow, SeatRow
from bot.store import (
    _DEADLINE_COLUMNS,
    _MIGRATION_NAME,
    _OUTBOX_COLUMNS,
    MIGRATIONS_DIR,
    MigrationError,
    Store,
    StoreBusy,
    StoreConflict,
    StoreError,
    StoreFull,
    _deadline,
    _outbox_row,
    _outbox_values,
    _outbox_where,
    list_migrations,
)

log = logging.getLogger(__name__)

PG_MIGRATIONS_DIR = MIGRATIONS_DIR / "postgres"
#: How many games' revisions a process remembers (the service caches 1,024 parsed games by default).
SEEN_GAMES = 100_000
CHANNEL = "annals_games"  # NOTIFY channel: "<owner> <game id>" for every change of a game
#: How long a claimed deadline is reserved for the process that claimed it.
CLAIM_SECONDS = 30
# A destination's rows stay with the process delivering them this long after its last claim (longer
# than one send with discord.py's own waits on a 429).
OUTBOX_LEASE_SECONDS = 120
_MIGRATION_LOCK = 0x616E6E616C73  # "annals": the advisory lock key held while migrating
_TOKEN = re.compile(r"'(?:[^']|'')*'|\?")


class PgIntegrityError(sqlite3.IntegrityError):
    """A PostgreSQL constraint violation, as the DB-API class the store's callers already catch."""


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
    """Raise asyncpg's errors as the store's (constraint violations as :class:`PgIntegrityError`)."""
    try:
        yield
    except asyncpg.IntegrityConstraintViolationError as exc:
        raise PgIntegrityError(str(exc)) from exc
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


class PgReader:
    """Reads through the pool, outside any transaction (the league store's reader)."""

    def __init__(self, store: PgStore) -> None:
        self._store = store

    async def execute_fetchall(self, sql: str,
                               parameters: Iterable[Any] | None = None) -> list[tuple[Any, ...]]:
        return await self._store._read(sql, tuple(parameters or ()))

    async def close(self) -> None:
        """Nothing to close: the store owns the pool."""


def pg_migrations(directory: Path = PG_MIGRATIONS_DIR) -> list[tuple[int, tuple[Path, ...]]]:
    """The migrations PostgreSQL runs: SQLite's portable files, each followed (in its transaction) by
    the file of the same number in ``directory`` where PostgreSQL needs more (0001's revision and
    claim columns, 0006's identity ids and leases)."""
    shared = list_migrations(MIGRATIONS_DIR)
    own: dict[int, Path] = {}
    for path in sorted(directory.glob("*.sql")):
        match = _MIGRATION_NAME.match(path.name)
        if not match or not 1 <= int(match.group(1)) <= len(shared):
            raise MigrationError(f"postgres/{path.name}: not NNNN_name.sql with one of SQLite's numbers")
        own[int(match.group(1))] = path
    return [(n, (path, own[n]) if n in own else (path,)) for n, path in shared]


class PgStore(Store):
    """The repository over one PostgreSQL database. Create it with :meth:`open`."""

    def __init__(self, url: str, pool: asyncpg.Pool) -> None:  # no SQLite connections: none of super's
        self.url = url
        self.path = redacted(url)
        self._pool = pool
        self._closed = False
        self._read_only = False  # opened by check: nothing to release at close
        self._current: ContextVar[PgConnection | None] = ContextVar(f"pg-{id(self)}", default=None)
        self._seen: OrderedDict[str, int] = OrderedDict()  # game id -> revision last loaded or written
        self.owner = f"{os.getpid()}-{secrets.token_hex(4)}"  # who holds a claim, who sent a notice
        self.outbox_lease = OUTBOX_LEASE_SECONDS  # seconds a claimed destination stays this process's
        self._listener: asyncpg.Connection | None = None

    # -- lifecycle -------------------------------------------------------------------
    @classmethod
    async def open(  # a URL where SQLite takes a path
        cls,
        path: str | os.PathLike[str] | None = None,
        *,
        migrations_dir: Path | None = None,
        busy_timeout_ms: int = 10_000,
        migrate: bool = True,
        exclusive: bool = False,
        pool_size: int = 10,
        read_only: bool = False,
    ) -> PgStore:
        """Connect to the database ``path`` (a ``postgresql://`` URL) and apply pending migrations.

        ``busy_timeout_ms`` becomes the server's ``lock_timeout`` (how long a write waits for a row
        another process holds); ``exclusive`` is accepted for symmetry and ignored: any number of
        processes may write (each write checks the game's revision). ``read_only`` (``python -m bot
        check``): every transaction of the session is read-only on the server, nothing is migrated.

        Raises:
            StoreError: the server cannot be reached or refuses us (the message says which).
            MigrationError: a migration failed (it was rolled back; the store is closed).
        """
        url = str(path) if path is not None else os.environ.get("ANNALS_DB", "")
        try:
            pool = await asyncpg.create_pool(
                url, min_size=1, max_size=pool_size, timeout=max(busy_timeout_ms / 1000, 1),
                server_settings={"lock_timeout": str(int(busy_timeout_ms)), "application_name": "annals",
                                 **({"default_transaction_read_only": "on"} if read_only else {})})
        except (TimeoutError, OSError, asyncpg.PostgresError, asyncpg.InterfaceError, ValueError) as exc:
            raise StoreError(f"Cannot open the PostgreSQL database {redacted(url)} ({exc}). Check ANNALS_DB "
                             "and that the server is running and lets this user in.") from exc
        store = cls(url, pool)
        store._read_only = read_only
        if migrate and not read_only:
            try:
                await store.migrate(migrations_dir or PG_MIGRATIONS_DIR)
            except BaseException:  # perhaps no schema to release deadlines in: just let go
                await store._shut()
                raise
        return store

    async def close(self) -> None:
        """Wait for the writes in progress, then close the pool (idempotent)."""
        if self._closed:
            return
        if self._read_only:  # claimed nothing, and may write nothing
            await self._shut()
            return
        try:  # the deadlines claimed but not fired go back at once (a killed process's after a lease)
            await self._read("UPDATE deadlines SET claimed_by = NULL, claimed_until = 0 "
                             "WHERE claimed_by = ? AND fired = 0 RETURNING deadline_id", (self.owner,))
        except StoreError as exc:
            log.warning("could not release the claimed deadlines: %s", exc)
        finally:
            await self._shut()

    async def _shut(self) -> None:
        """Close the listener and the pool, releasing nothing."""
        self._closed = True
        if self._listener is not None:
            await self._listener.close()
            self._listener = None
        await self._pool.close()

    async def follow(self, changed: Callable[[str], object]) -> None:
        """Call ``changed(game_id)`` whenever another process commits a change of a game (its own
        changes are not reported). Holds one connection of its own until :meth:`close`."""
        if self._listener is None:
            with _mapped():
                self._listener = await asyncpg.connect(self.url)

        def heard(_conn: object, _pid: int, _channel: str, payload: str) -> None:
            owner, _, game_id = payload.partition(" ")
            if owner != self.owner and game_id:
                changed(game_id)

        with _mapped():
            await self._listener.add_listener(CHANNEL, heard)

    async def __aenter__(self) -> PgStore:
        return self

    async def pragmas(self) -> dict[str, Any]:
        """The server's version, isolation level and lock timeout (what ``pragmas`` tells of SQLite)."""
        out: dict[str, Any] = {}
        for name in ("server_version", "transaction_isolation", "lock_timeout"):
            out[name] = await self._pool.fetchval(f"SHOW {name}")
        return out

    def reader(self) -> PgReader:
        """A reader over this store's pool (for :class:`bot.leagues.store.LeagueStore`)."""
        return PgReader(self)

    async def table_names(self) -> set[str]:
        """The tables of the current schema."""
        rows = await self._read("SELECT table_name FROM information_schema.tables "
                                "WHERE table_schema = current_schema()")
        return {str(r[0]) for r in rows}

    # -- migrations ------------------------------------------------------------------
    def latest_version(self) -> int:
        """The schema version this code brings a database to."""
        return len(pg_migrations())

    async def user_version(self) -> int:
        """The schema version: the last migration applied (0 on an empty database)."""
        rows = await self._read("SELECT to_regclass('annals_schema') IS NOT NULL")
        if not rows[0][0]:
            return 0
        rows = await self._read("SELECT version FROM annals_schema")
        return int(rows[0][0]) if rows else 0

    async def migrate(self, directory: Path = PG_MIGRATIONS_DIR) -> int:
        """Apply the migrations newer than the schema version, each in its own transaction.

        The whole run holds an advisory lock, taken BEFORE the version is read, so processes
        starting together apply each migration once: the others wait, then find nothing to do.

        Raises:
            MigrationError: a file failed; it was rolled back whole, earlier ones stay applied.
        """
        migrations = pg_migrations(directory)
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
    async def transaction(self) -> AsyncIterator[PgConnection]:  # type: ignore[override]
        """One write unit on a pooled connection: BEGIN, then COMMIT or ROLLBACK.

        A transaction opened inside another (in the same task) joins it, so :meth:`apply_change`
        can lock the game row and then run the store's own writes in one transaction.
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

    async def _read(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        current = self._current.get()
        if current is not None:  # inside a transaction: see its own writes
            return await current.execute_fetchall(sql, params)
        if self._closed:
            raise StoreError("the store is closed")
        with _mapped():
            return [tuple(r) for r in await self._pool.fetch(pg_sql(sql), *params)]

    # -- games -----------------------------------------------------------------------
    async def create_game(self, game: GameRow, seats: Iterable[SeatRow],
                          outbox: Sequence[OutboxItem] = ()) -> list[int]:
        ids = await super().create_game(game, seats, outbox)
        self._saw(game.game_id, 0)
        return ids

    async def load_bundle(self, game_id: str) -> GameBundle | None:
        # the revision is read first: a write in between makes it older than the bundle, which only
        # costs a conflict and a reload, never a write from a stale copy
        rows = await self._read("SELECT revision FROM games WHERE game_id = ?", (game_id,))
        bundle = await super().load_bundle(game_id)
        if rows and bundle is not None:
            self._saw(game_id, int(rows[0][0]))
        return bundle

    async def apply_change(self, change: GameChange) -> list[int]:
        """Lock the game's row, check its seq, status and revision, then write the change.

        Raises:
            StoreConflict: the game changed since this process loaded it, or does not exist;
                nothing was written.
        """
        gid = change.game_id
        async with self.transaction() as conn:
            rows = await conn.execute_fetchall(
                "SELECT seq, status, revision FROM games WHERE game_id = ? FOR UPDATE", (gid,))
            if not rows:
                raise StoreConflict(f"game {gid!r} does not exist")
            seq, status, revision = rows[0]
            seen = self._seen.get(gid)
            if (seq != change.expected_seq or (seen is not None and revision != seen)
                    or (change.expected_status is not None and status != change.expected_status)):
                raise StoreConflict(f"game {gid!r} changed meanwhile (seq {seq}, revision {revision})")
            await conn.execute("UPDATE games SET revision = ? WHERE game_id = ?", (revision + 1, gid))
            ids = await super().apply_change(change)
            await conn.execute("SELECT pg_notify(?, ?)", (CHANNEL, f"{self.owner} {gid}"))
        self._saw(gid, revision + 1)
        return ids

    def _saw(self, game_id: str, revision: int) -> None:
        """Remember the revision this process holds of a game, for the :data:`SEEN_GAMES` most recent
        (far more than the service caches: a game forgotten here was reloaded since, or is not cached)."""
        self._seen[game_id] = revision
        self._seen.move_to_end(game_id)
        while len(self._seen) > SEEN_GAMES:
            self._seen.popitem(last=False)

    # -- deadlines -------------------------------------------------------------------
    async def claim_deadlines(self, *, due_before: float) -> list[Deadline]:
        """Lease the unfired deadlines due by ``due_before`` that no other live process holds.

        Rows being claimed by another process right now are skipped (``SKIP LOCKED``), rows it
        claimed in the last :data:`CLAIM_SECONDS` are left to it; this process's own claims are
        returned again (it may retry a row it claimed).
        """
        now = int(time.time())
        rows = await self._read(
            f"UPDATE deadlines SET claimed_by = ?, claimed_until = ? WHERE deadline_id IN ("
            "SELECT deadline_id FROM deadlines WHERE fired = 0 AND due_at <= ? "
            "AND (claimed_until <= ? OR claimed_by = ?) "
            "AND game_id NOT IN (SELECT game_id FROM games WHERE damage IS NOT NULL) "  # paused clocks
            "FOR UPDATE SKIP LOCKED) "
            f"RETURNING {_DEADLINE_COLUMNS}",
            (self.owner, now + CLAIM_SECONDS, int(due_before), now, self.owner))
        return sorted((_deadline(r) for r in rows), key=lambda d: (d.due_at, d.deadline_id))

    # -- the notice outbox -------------------------------------------------------------
    async def _enqueue(self, conn: Any, items: Sequence[OutboxItem], now: int) -> list[int]:
        """Insert outbox rows numbered by the identity column (other processes insert too)."""
        ids: list[int] = []
        for it in items:
            rows = await conn.execute_fetchall(
                "INSERT INTO outbox (game_id, dest_kind, dest_id, payload_json, nonce, created_at) "
                "VALUES (?, ?, ?, ?, ?, ?) RETURNING id", _outbox_values(it, now))
            ids.append(int(next(iter(rows))[0]))
        return ids

    async def claim_due(self, destination: Destination, limit: int = 200) -> list[OutboxRow]:
        """The destination's undelivered rows, in order, leased to this process; none while another
        live process holds the destination (it delivers them, in order). Claims of one destination
        are taken one at a time under an advisory lock, so two processes never split its rows."""
        where, params = _outbox_where(destination)
        key = f"outbox {destination.kind} {destination.target} {destination.game_id or ''}"
        now = int(time.time())
        async with self.transaction() as conn:
            await conn.execute("SELECT pg_advisory_xact_lock(hashtext(?))", (key,))
            held = await conn.execute_fetchall(
                f"SELECT 1 FROM outbox WHERE {where} AND claimed_until > ? AND claimed_by <> ? LIMIT 1",
                (*params, now, self.owner))
            if list(held):
                return []
            rows = await conn.execute_fetchall(
                f"UPDATE outbox SET claimed_by = ?, claimed_until = ? WHERE id IN (SELECT id FROM outbox "
                f"WHERE {where} ORDER BY id LIMIT ?) RETURNING {_OUTBOX_COLUMNS}",
                (self.owner, now + self.outbox_lease, *params, limit))
        return sorted((_outbox_row(r) for r in rows), key=lambda r: r.id)

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
            missing = {"games", "seats", "actions", "snapshots", "deadlines"} - await self.table_names()
            out += [f"missing table {name}" for name in sorted(missing)]
        return out

    async def checkpoint_wal(self) -> None:
        """Nothing to do: the server manages its own write-ahead log."""
