"""The SQLite dialect: one database file, written by one process, read beside it.

One writer connection, guarded by an ``asyncio.Lock``, performs every write as
``BEGIN IMMEDIATE ... COMMIT``; a second, read-only connection serves reads, so
a reader never sees another task's uncommitted writes. The file gets WAL, ``synchronous = FULL``
and foreign keys; a process becomes the file's one writer through a lock file
(:func:`hold_writer_lock`), so no revision or lease is needed (:attr:`SqliteDialect.shared` is None).

Migrations are ``migrations/NNNN_name.sql`` files, applied in order at start-up,
each in its own transaction together with ``PRAGMA user_version = NNNN`` (the version is read
inside that transaction, so concurrent openers never apply a file twice); a migration that fails
is rolled back whole and leaves the version unchanged.
"""

from __future__ import annotations

import asyncio
import fcntl
import os
import sqlite3
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote

import aiosqlite

from bot.dialect import MIGRATIONS_DIR, Connection, Reader, Row, list_migrations
from bot.store_errors import (
    ConstraintViolation,
    DatabaseInUse,
    MigrationError,
    NotADatabase,
    StoreBusy,
    StoreError,
    StoreFull,
)

DEFAULT_DB = "annals.sqlite3"
_TABLES = "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"

def storage_fault(exc: sqlite3.Error) -> StoreError | None:
    """The store's own error for a lock timeout or a full/failing disk, or None for anything else."""
    code = _code(exc)
    if code in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
        return StoreBusy(f"the database is locked by another process ({exc})")
    if code in (sqlite3.SQLITE_FULL, sqlite3.SQLITE_IOERR):
        return StoreFull(f"the disk is full or failing ({exc})")
    return None



def default_db_path() -> str:
    """The database file: ``$ANNALS_DB`` if set, else ``annals.sqlite3`` in the working directory."""
    return os.environ.get("ANNALS_DB") or DEFAULT_DB



SQLITE_HEADER = b"SQLite format 3\x00"  # the first 16 bytes of every SQLite database file
SMALLEST_DATABASE = 512  # bytes: one page of the smallest page size SQLite has


def _check_path(db: str, *, read_only: bool = False, empty_ok: bool = False) -> None:
    """A clear StoreError for a database path that cannot be one (before SQLite's own words).

    Checked before anything is created or written (the writer's lock file included): a file that is
    there but is not a database (empty, cut short, overwritten), since SQLite would silently start
    a new database in an empty or 1-byte file; and, unless ``read_only``, a file or folder Annals
    may not write to, which SQLite would open anyway and then refuse every write. ``empty_ok`` lets
    an empty file through, for openers that cannot tell it from one being created.

    Raises:
        NotADatabase: the file is there, but empty or not SQLite's.
        StoreError: any other path that cannot be a database Annals uses.
    """
    if db == ":memory:":  # the writer and the reader would each see a database of their own
        raise StoreError("ANNALS_DB cannot be ':memory:': Annals keeps its games in a file, read and "
                         "written by two connections. Name a file, e.g. annals.sqlite3.")
    if db.startswith("file:"):
        return
    target = Path(db)
    if target.is_dir():
        raise StoreError(f"{db} is a folder; ANNALS_DB names the database file, e.g. "
                         f"{target / 'annals.sqlite3'}.")
    if not target.parent.is_dir():
        raise StoreError(f"The folder {target.parent} of the database {db} does not exist; create it or "
                         "choose another ANNALS_DB.")
    if target.exists() and (target.stat().st_size or not empty_ok):
        _check_header(target, db)
    elif read_only:
        raise StoreError(f"There is no database file {db}; check ANNALS_DB.")
    if read_only:
        return
    if target.exists() and not os.access(target, os.W_OK):
        raise StoreError(f"{db} is read-only, and Annals writes every move to it: make it writable for the "
                         f"user running Annals (e.g. chmod u+w {db}), or choose another ANNALS_DB.")
    if not os.access(target.parent, os.W_OK):
        raise StoreError(f"The folder {target.parent} of the database {db} is read-only, and SQLite keeps "
                         "its log and lock files beside the database: make the folder writable for the "
                         "user running Annals, or choose another ANNALS_DB.")


def _check_header(target: Path, db: str) -> None:
    """Refuse a file that does not begin with SQLite's header (in one line saying what to do)."""
    try:
        with target.open("rb") as f:
            head = f.read(len(SQLITE_HEADER))
    except OSError as exc:
        raise StoreError(f"{db} cannot be read ({exc.strerror}): give the user running Annals read access "
                         "to it, or choose another ANNALS_DB.") from exc
    if not head:
        raise NotADatabase(f"{db} is empty (0 bytes), so it holds no games: it was cut short or never "
                           "written. Restore it from its backups/ folder, or delete it to start a new "
                           "database.")
    size = target.stat().st_size
    if head != SQLITE_HEADER or size < SMALLEST_DATABASE:
        what = "less than one page" if head == SQLITE_HEADER else "without SQLite's header"
        raise NotADatabase(f"{db} is not an Annals database ({size} byte{'s' * (size != 1)}, {what}: it "
                           "was cut short or overwritten). Restore it from its backups/ folder, or choose "
                           "another ANNALS_DB.")


def _checked_writer(db: str) -> int | None:
    """Check ``db`` (:func:`_check_path`), then become its writer (:func:`hold_writer_lock`).

    The writer creates a new database file only once it holds the lock, so a file that looks empty
    while the lock is held is one another process is creating: that process is named
    (:class:`DatabaseInUse`) rather than the file called empty. The check comes first, so a file
    refused leaves nothing written, no lock file either, unless one was there before.
    """
    try:
        _check_path(db)
    except NotADatabase:
        if not Path(f"{db}.lock").exists():
            raise
        fd = hold_writer_lock(db)  # DatabaseInUse while another process holds it
    else:
        return hold_writer_lock(db)
    try:
        _check_path(db)  # nobody else writes it now: it is what it looks like
    except BaseException:
        if fd is not None:
            os.close(fd)
        raise
    return fd


def hold_writer_lock(db: str) -> int | None:
    """Make this process the one writer of ``db``: an exclusive ``flock`` on ``<db>.lock``.

    Returns the open descriptor (keep it open as long as the process writes; closing it, or the
    process dying, even by SIGKILL, releases the lock), or None for an in-memory database.

    Why a lock file and not a revision checked by every write: the service keeps games parsed in
    memory and trusts that nobody else writes them; every table (seats, deadlines, settings,
    messages, leagues) would need its own revision and every write its own check, and one forgotten
    write silently loses a seat or fires a reminder twice, as issue 14 found. One writer process per
    file makes all of that true by construction, and the kernel drops the lock of a dead process,
    so a crash never leaves a stale lock behind. (``flock`` is not reliable on network filesystems;
    the database is not meant to live on one anyway, since SQLite's WAL needs shared memory.)

    Raises:
        DatabaseInUse: another process holds it; the message names it and says what to do.
    """
    if db == ":memory:":  # the writer and the reader would each see a database of their own
        raise StoreError("ANNALS_DB cannot be ':memory:': Annals keeps its games in a file, read and "
                         "written by two connections. Name a file, e.g. annals.sqlite3.")
    if db.startswith("file:"):
        return None
    path = f"{db}.lock"
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
        os.close(fd)
        who = f" (process {holder})" if holder.isdigit() else ""
        raise DatabaseInUse(
            f"Another Annals bot or console{who} is already using {db}; only one may write to it at a "
            "time. Stop that one first, or set ANNALS_DB to another file.") from None
    except BaseException:
        os.close(fd)
        raise
    os.ftruncate(fd, 0)
    os.pwrite(fd, f"{os.getpid()}\n".encode("ascii"), 0)  # who holds it, for the refusal above
    return fd



async def _enable_wal(conn: aiosqlite.Connection, budget: float, db: str) -> None:
    """Switch the file to WAL, retrying while another process holds it.

    The switch needs the file to itself, and SQLite does not run the busy handler for it, so two
    processes opening one fresh file at once would see "database is locked" at once. WAL is a
    property of the file: once any process has switched it, there is nothing left to do.
    """
    deadline = time.monotonic() + budget
    delay = 0.005
    while True:
        rows = list(await conn.execute_fetchall("PRAGMA journal_mode"))
        if str(rows[0][0]).lower() == "wal":
            return
        try:
            mode = list(await conn.execute_fetchall("PRAGMA journal_mode = WAL"))
        except sqlite3.OperationalError as exc:
            if _code(exc) != sqlite3.SQLITE_BUSY or time.monotonic() > deadline:
                raise
            await asyncio.sleep(delay)
            delay = min(delay * 2, 0.1)
            continue
        if str(mode[0][0]).lower() != "wal":  # SQLite keeps its mode rather than fail: say why
            raise StoreError(f"{db} cannot keep a write-ahead log (SQLite stays in {mode[0][0]} mode): "
                             "Annals needs a database file on a local disk. Choose another ANNALS_DB.")


def _code(exc: sqlite3.Error) -> int:
    """The primary SQLite result code of an error (extended codes folded), or -1 when unknown."""
    code = getattr(exc, "sqlite_errorcode", None)
    return code & 0xFF if isinstance(code, int) else -1


def _statements(sql: str) -> list[str]:
    """The SQL statements of a migration file, one by one (``;`` inside comments, strings and
    trigger bodies does not split, as :func:`sqlite3.complete_statement` knows)."""
    out: list[str] = []
    buffer = ""
    for piece in sql.split(";"):
        buffer += piece + ";"
        if sqlite3.complete_statement(buffer):
            out.append(buffer)
            buffer = ""
    rest = "\n".join(line for line in buffer.rstrip(";").splitlines() if not line.strip().startswith("--"))
    if rest.strip():
        raise MigrationError(f"the migration ends in an unfinished statement: {rest.strip()[:60]!r}")
    return out



class SqliteDialect:
    """One SQLite file: a writer and a reader connection. Create it with :meth:`open`."""

    def __init__(self, path: str, writer: aiosqlite.Connection, reader: aiosqlite.Connection,
                 lock_fd: int | None = None, busy_timeout_ms: int = 10_000) -> None:
        self.path = path
        self.shared = None  # one writer process per file (hold_writer_lock): nothing to coordinate
        self._lock_fd = lock_fd
        self._writer = writer
        self._reader = reader
        self._busy_timeout_ms = busy_timeout_ms
        self._write_lock = asyncio.Lock()
        self._closed = False

    # -- lifecycle -------------------------------------------------------------------
    @classmethod
    async def open(cls, db: str, *, busy_timeout_ms: int = 10_000, exclusive: bool = False,
                   read_only: bool = False) -> SqliteDialect:
        """Open (creating if needed) the database file ``db`` (see :meth:`bot.store.Store.open`).

        Raises:
            StoreError: the path is no database file (a folder, an empty or foreign file), or one
                Annals may not write to (unless ``read_only``); the message says what to do.
            DatabaseInUse: ``exclusive`` and another process is the writer.
        """
        if read_only:
            _check_path(db, read_only=True)
            return await cls._connect_read_only(db, busy_timeout_ms)
        lock_fd = _checked_writer(db) if exclusive else None
        if not exclusive:  # a file still empty may be one another process is creating this instant
            _check_path(db, empty_ok=True)
        try:
            return await cls._connect(db, busy_timeout_ms, lock_fd)
        except BaseException:
            if lock_fd is not None:
                os.close(lock_fd)
            raise

    @classmethod
    async def _connect(cls, db: str, busy_timeout_ms: int, lock_fd: int | None) -> SqliteDialect:
        try:
            writer = await aiosqlite.connect(db, isolation_level=None)
        except sqlite3.Error as exc:
            raise StoreError(f"{db} cannot be opened as a database ({exc}).") from exc
        try:
            # busy_timeout first, so every later statement waits for another process's lock
            await writer.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
            await _enable_wal(writer, busy_timeout_ms / 1000, db)
            for pragma in ("synchronous = FULL", "foreign_keys = ON"):
                await writer.execute(f"PRAGMA {pragma}")
            reader = await _reader(db, busy_timeout_ms)
        except sqlite3.DatabaseError as exc:
            await writer.close()
            raise StoreError(f"{db} is not an Annals database (SQLite says: {exc}). Choose another "
                             "ANNALS_DB, or restore this one from its backups/ folder.") from exc
        except BaseException:
            await writer.close()
            raise
        return cls(db, writer, reader, lock_fd, busy_timeout_ms)

    @classmethod
    async def _connect_read_only(cls, db: str, busy_timeout_ms: int) -> SqliteDialect:
        """Two read-only connections (a write through either fails in SQLite itself).

        Reading a database in WAL mode makes SQLite create its ``-wal`` and ``-shm`` files beside it
        (and fail in a read-only folder). A file without a ``-wal`` was closed cleanly, its log folded
        in, and has no writer (a live one keeps its log): it is opened as immutable, which creates
        nothing. One with a log is read through it, as the bot beside it writes; an empty log left
        in a read-only folder is ignored.
        """
        if db.startswith("file:"):  # a URI already: read-only is one more of its parameters
            uris = [f"{db}{'&' if '?' in db else '?'}mode=ro"]
        else:
            base = f"file:{quote(os.path.abspath(db))}?mode=ro"
            wal = Path(f"{db}-wal")
            immutable = f"{base}&immutable=1"
            uris = [base, *([immutable] if wal.stat().st_size == 0 else [])] if wal.exists() else [immutable]
        failure: sqlite3.Error | None = None
        for uri in uris:
            conns: list[aiosqlite.Connection] = []
            try:
                for _ in range(2):
                    conn = await aiosqlite.connect(uri, uri=True, isolation_level=None)
                    conns.append(conn)
                    for pragma in (f"busy_timeout = {int(busy_timeout_ms)}", "query_only = ON"):
                        await conn.execute(f"PRAGMA {pragma}")
                    await conn.execute_fetchall("SELECT count(*) FROM sqlite_master")  # reads page 1
                return cls(db, conns[0], conns[1], None, busy_timeout_ms)
            except sqlite3.Error as exc:
                failure = exc
                for conn in conns:
                    await conn.close()
            except BaseException:
                for conn in conns:
                    await conn.close()
                raise
        raise StoreError(f"{db} cannot be read as a database (SQLite says: {failure}). Restore it from its "
                         "backups/ folder, or choose another ANNALS_DB.") from failure

    async def close(self) -> None:
        """Wait for the write in progress, then close both connections (idempotent)."""
        if self._closed:
            return
        async with self._write_lock:
            self._closed = True
            try:
                await self._reader.close()
                await self._writer.close()
            finally:
                if self._lock_fd is not None:  # after the last write: the next writer may start
                    os.close(self._lock_fd)
                    self._lock_fd = None

    async def pragmas(self) -> dict[str, Any]:
        """The writer connection's journal mode, synchronous level, foreign keys and busy timeout."""
        out: dict[str, Any] = {}
        for name in ("journal_mode", "synchronous", "foreign_keys", "busy_timeout"):
            rows = list(await self._writer.execute_fetchall(f"PRAGMA {name}"))
            out[name] = rows[0][0]
        return out

    async def reader(self) -> Reader:
        """A read-only connection of its own, with the pragmas of the store's reader."""
        return await _reader(self.path, self._busy_timeout_ms)

    async def table_columns(self) -> dict[str, list[str]]:
        """The tables of the file, each with its columns in order."""
        names = [str(r[0]) for r in await self.read(_TABLES)]
        return {n: [str(r[1]) for r in await self.read(f'PRAGMA table_info("{n}")')] for n in names}

    # -- migrations ------------------------------------------------------------------
    async def user_version(self) -> int:
        """The schema version (``PRAGMA user_version``): the last migration applied."""
        rows = list(await self._writer.execute_fetchall("PRAGMA user_version"))
        return int(rows[0][0])

    def latest_version(self) -> int:
        """The schema version this code brings a database to (its number of migrations)."""
        return len(list_migrations(MIGRATIONS_DIR))

    async def migrate(self, directory: Path | None = None) -> int:
        """Apply the migrations newer than ``user_version``, each in its own transaction.

        The write lock (``BEGIN IMMEDIATE``) is taken BEFORE the version is read, so two processes
        opening one fresh file at once apply each migration once: the second waits for the
        first's COMMIT (up to the busy timeout), then reads the new version and skips it.

        Returns:
            The schema version afterwards.

        Raises:
            MigrationError: a file failed; it was rolled back whole, earlier ones stay applied.
        """
        migrations = list_migrations(directory or MIGRATIONS_DIR)
        version = 0
        for number, path in migrations:
            statements = _statements(path.read_text(encoding="utf-8"))
            async with self._write_lock:
                try:
                    await self._writer.execute("BEGIN IMMEDIATE")
                    version = await self.user_version()
                    if version > len(migrations):
                        raise MigrationError(
                            f"the database is at version {version}, newer than this code knows")
                    if number <= version:
                        await self._writer.execute("COMMIT")
                        continue
                    # statement by statement: executescript would COMMIT the lock away first
                    for statement in statements:
                        await self._writer.execute(statement)
                    await self._writer.execute(f"PRAGMA user_version = {number}")
                    await self._writer.execute("COMMIT")
                except sqlite3.Error as exc:
                    await self._rollback()
                    raise MigrationError(f"{path.name} failed and was rolled back: {exc}") from exc
                except BaseException:
                    await self._rollback()
                    raise
            version = number
        if version > len(migrations):  # nothing to apply, but the file is newer than the code
            raise MigrationError(f"the database is at version {version}, newer than this code knows")
        return version

    # -- the write unit --------------------------------------------------------------
    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Connection]:
        """One write unit: the writer lock, ``BEGIN IMMEDIATE``, then COMMIT or ROLLBACK."""
        async with self._write_lock:
            if self._closed:
                raise StoreError("the store is closed")
            conn = self._writer
            try:
                await conn.execute("BEGIN IMMEDIATE")
                try:
                    yield conn
                    await conn.execute("COMMIT")
                except BaseException:
                    await self._rollback()
                    raise
            except sqlite3.IntegrityError as exc:  # the project's class, as PostgreSQL's store raises
                raise ConstraintViolation(str(exc)) from exc
            except sqlite3.OperationalError as exc:  # a lock timeout or a full disk: say which
                fault = storage_fault(exc)
                if fault is None:
                    raise
                raise fault from exc

    async def _rollback(self) -> None:
        """Roll back whatever is open; never mask the error that led here."""
        try:
            if self._writer.in_transaction:
                await self._writer.execute("ROLLBACK")
        except sqlite3.Error:  # e.g. a COMMIT that went through although its caller was cancelled
            pass

    async def read(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """The rows of one query on the reader (committed data only)."""
        return list(await self._reader.execute_fetchall(sql, params))

    async def next_ids(self, conn: Connection, table: str, count: int) -> list[int]:
        """Numbers after the table's last id: the write lock is held, so no other writer takes them."""
        rows = await conn.execute_fetchall(f"SELECT COALESCE(MAX(id), 0) FROM {table}")
        first = int(next(iter(rows))[0]) + 1
        return list(range(first, first + count))

    # -- maintenance -----------------------------------------------------------------
    async def integrity_problems(self, *, quick: bool = False) -> list[str]:
        """``PRAGMA integrity_check`` (``quick_check`` when ``quick``: no index contents, faster)
        and ``foreign_key_check`` findings (empty when healthy)."""
        pragma = "quick_check" if quick else "integrity_check"
        out = [str(r[0]) for r in await self.read(f"PRAGMA {pragma}") if r[0] != "ok"]
        out += [f"foreign key: {tuple(r)}" for r in await self.read("PRAGMA foreign_key_check")]
        return out

    async def checkpoint_wal(self) -> None:
        """Fold the WAL into the main file (for backups and size measurements)."""
        async with self._write_lock:
            await self._writer.execute("PRAGMA wal_checkpoint(TRUNCATE)")


async def _reader(db: str, busy_timeout_ms: int) -> aiosqlite.Connection:
    """A connection that only reads ``db`` (foreign keys on, waiting for another process's lock)."""
    reader = await aiosqlite.connect(db, isolation_level=None)
    try:
        for pragma in ("foreign_keys = ON", f"busy_timeout = {int(busy_timeout_ms)}", "query_only = ON"):
            await reader.execute(f"PRAGMA {pragma}")
    except BaseException:
        await reader.close()
        raise
    return reader
