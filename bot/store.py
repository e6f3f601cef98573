"""The store: every SQL statement of Annals and every transaction rule, written once over a dialect.

:class:`Store` holds the queries (games, seats, the log and its records, snapshots, deadlines,
settings, messages, the notice outbox, DM channels) in portable SQL with ``?`` placeholders; a
:class:`bot.dialect.Dialect` runs them: :class:`bot.sqlite_dialect.SqliteDialect` (an embedded file
with one writer, the default) or :class:`bot.postgres_dialect.PgDialect` (a server several bot
processes share). :meth:`Store.open` picks the dialect from the path or URL. Where several processes
write (the dialect's ``shared``), every change of a game is also guarded by its revision, and due
deadlines and outbox rows are leased to one process.

The store's errors (:mod:`bot.store_errors`) are re-exported here, where callers have always found
them.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import Any, cast

from bot.dialect import (
    MIGRATIONS_DIR,
    Connection,
    Dialect,
    Listening,
    Reader,
    Row,
    is_postgres,
    list_migrations,
    sqlite_path,
)
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
    ReminderPreference,
    SeatRow,
    Snapshot,
    TimerSettings,
    UserSettings,
)
from bot.sqlite_dialect import DEFAULT_DB, SqliteDialect, default_db_path, hold_writer_lock
from bot.store_errors import (
    ConstraintViolation,
    DatabaseInUse,
    MigrationError,
    NotADatabase,
    StoreBusy,
    StoreConflict,
    StoreError,
    StoreFull,
)
from engine.core import JOIN, UNDO

__all__ = [
    "DEFAULT_DB", "MIGRATIONS_DIR", "ConstraintViolation", "DatabaseInUse", "MigrationError", "NotADatabase",
    "Store", "StoreBusy", "StoreConflict", "StoreError", "StoreFull", "default_db_path", "hold_writer_lock",
    "list_migrations",
]

log = logging.getLogger(__name__)


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


_GAME_COLUMNS = (
    "g.game_id, g.ruleset, g.options_json, g.seed, g.status, g.creator_id, g.max_seats, g.created_at, "
    "g.updated_at, g.seq, g.move_seconds, g.reminder_offsets_json, g.timeout_policy, g.misses_before_ai, "
    "g.guild_id, g.channel_id, g.thread_id, g.result_json, g.bank_seconds, g.bank_increment, g.bank_cap, "
    "g.quiet_entries"
)
_SEAT_COLUMNS = (
    "s.game_id, s.slot, s.display_name, s.joined_at, s.user_id, s.seat_order, s.colour, s.is_ai, "
    "s.ai_policy, s.preferences_json, s.missed_deadlines, s.vacation_days_used, s.away_until, s.bank_left"
)
_DEADLINE_COLUMNS = "deadline_id, game_id, seq, player, user_id, kind, due_at, fired"


def _offsets(text: str) -> tuple[int, ...]:
    return tuple(int(x) for x in json.loads(text))


def _game(row: Sequence[Any]) -> GameRow:
    return GameRow(
        game_id=row[0], ruleset=row[1], options=json.loads(row[2]), seed=row[3], status=row[4],
        creator_id=row[5], max_seats=row[6], created_at=row[7], updated_at=row[8], seq=row[9],
        timers=TimerSettings(
            move_seconds=row[10], reminder_offsets=tuple(json.loads(row[11])),
            timeout_policy=row[12], misses_before_ai=row[13], bank_seconds=row[18], bank_increment=row[19],
            bank_cap=row[20],
        ),
        guild_id=row[14], channel_id=row[15], thread_id=row[16],
        result=json.loads(row[17]) if row[17] is not None else None, quiet=row[21],
    )


def _games(rows: Iterable[Sequence[Any]]) -> list[GameRow]:
    """Rows of a listing, leaving out (and logging) one whose stored settings cannot be read, so a
    damaged game never hides the others."""
    out: list[GameRow] = []
    for row in rows:
        try:
            out.append(_game(row))
        except (ValueError, TypeError) as exc:
            log.error("game %s has an unreadable row (%s); left out of the listing", row[0], exc)
    return out


def _seat(row: Sequence[Any]) -> SeatRow:
    return SeatRow(
        game_id=row[0], slot=row[1], display_name=row[2], joined_at=row[3], user_id=row[4],
        seat_order=row[5], colour=row[6], is_ai=bool(row[7]), ai_policy=row[8],
        preferences=json.loads(row[9]), missed_deadlines=row[10], vacation_days_used=row[11],
        away_until=row[12], bank_left=row[13],
    )


def _deadline(row: Sequence[Any]) -> Deadline:
    return Deadline(
        deadline_id=row[0], game_id=row[1], seq=row[2], player=row[3], user_id=row[4],
        kind=row[5], due_at=row[6], fired=bool(row[7]),
    )


def _action(row: Sequence[Any]) -> ActionRow:
    return ActionRow(
        game_id=row[0], seq=row[1], player=row[2], action=json.loads(row[3]), source=row[4],
        user_id=row[5], created_at=row[6],
    )


def _move(text: str) -> dict[str, Any]:
    """A stored move as a JSON object; one that is not readable reads as an empty one."""
    try:
        action = json.loads(text)
    except (TypeError, ValueError):
        return {}
    return action if isinstance(action, dict) else {}


def _kind(text: str) -> Any:
    return _move(text).get("kind")


def _record(row: Sequence[Any]) -> ActionRow:
    """A log entry with its record; a move that is not readable JSON reads as an empty one."""
    action = _move(row[3])
    events = json.loads(row[7]) if row[7] is not None else None
    return ActionRow(
        game_id=row[0], seq=row[1], player=row[2], action=action,
        source=row[4], user_id=row[5], created_at=row[6],
        events=tuple(events) if isinstance(events, list) else None, voided_by=row[8],
    )


def _public(events: Sequence[Mapping[str, Any]] | None) -> int | None:
    """How many of a record's events are public (None: no record)."""
    return None if events is None else sum(1 for e in events if e.get("audience") == "public")


def _seat_params(seat: SeatRow) -> tuple[Any, ...]:
    return (
        seat.game_id, seat.slot, seat.seat_order, seat.user_id, seat.display_name, seat.colour,
        int(seat.is_ai), seat.ai_policy, _dumps(dict(seat.preferences)), seat.missed_deadlines,
        seat.vacation_days_used, seat.joined_at, seat.away_until, seat.bank_left,
    )


_UPSERT_SEAT = (
    "INSERT INTO seats (game_id, slot, seat_order, user_id, display_name, colour, is_ai, ai_policy, "
    "preferences_json, missed_deadlines, vacation_days_used, joined_at, away_until, bank_left) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
    "ON CONFLICT (game_id, slot) DO UPDATE SET seat_order = excluded.seat_order, "
    "user_id = excluded.user_id, display_name = excluded.display_name, colour = excluded.colour, "
    "is_ai = excluded.is_ai, ai_policy = excluded.ai_policy, preferences_json = excluded.preferences_json, "
    "missed_deadlines = excluded.missed_deadlines, vacation_days_used = excluded.vacation_days_used, "
    "away_until = excluded.away_until, bank_left = excluded.bank_left"
)


_OUTBOX_COLUMNS = ("id, game_id, dest_kind, dest_id, payload_json, nonce, created_at, attempts, next_try_ms, "
                   "delivered_at, gave_up_at, last_error, batch_id")


def _outbox_where(destination: Destination) -> tuple[str, tuple[Any, ...]]:
    """The SQL condition (and its parameters) of a destination's rows still to deliver."""
    where = "dest_kind = ? AND delivered_at IS NULL AND gave_up_at IS NULL"
    if destination.game_id is not None:
        return f"{where} AND game_id = ?", (destination.kind, destination.game_id)
    return f"{where} AND dest_id = ?", (destination.kind, destination.target)


def _outbox_values(item: OutboxItem, now: int) -> tuple[Any, ...]:
    """An outbox row's columns after its id, as written."""
    return (item.game_id, item.kind, item.target, _dumps(dict(item.payload)), item.nonce, now)


def _outbox_row(r: Sequence[Any]) -> OutboxRow:
    return OutboxRow(int(r[0]), str(r[1]), r[2], int(r[3]), json.loads(r[4]), str(r[5]), int(r[6]), int(r[7]),
                     int(r[8]), r[9], r[10], r[11], None if r[12] is None else int(r[12]))



class Store:
    """The repository over one database, through its dialect. Create it with :meth:`open`."""

    def __init__(self, dialect: Dialect) -> None:
        self.dialect = dialect

    @property
    def path(self) -> str:
        """Where the data lives: the SQLite file, or the PostgreSQL URL without its password."""
        return self.dialect.path

    # -- lifecycle -------------------------------------------------------------------
    @classmethod
    async def open(
        cls,
        path: str | os.PathLike[str] | None = None,
        *,
        migrations_dir: Path | None = None,
        busy_timeout_ms: int = 10_000,
        migrate: bool = True,
        exclusive: bool = False,
        read_only: bool = False,
        pool_size: int = 10,
    ) -> Store:
        """Open (creating a SQLite file if needed) the database and apply pending migrations.

        Args:
            path: the SQLite file, or a ``postgresql://`` URL; defaults to :func:`default_db_path`.
            migrations_dir: where the numbered ``.sql`` files are (default ``migrations/``; for
                PostgreSQL, where its own additions are, default ``migrations/postgres/``).
            busy_timeout_ms: how long a write waits for a lock held by another process (SQLite's
                busy timeout, PostgreSQL's ``lock_timeout``).
            migrate: apply pending migrations now.
            exclusive: become the one writer process of a SQLite file (:func:`hold_writer_lock`)
                before touching it; the bot and the console open it so, tools that only read do not.
                A PostgreSQL database takes any number of writers (each write checks the game's
                revision), so there it is ignored.
            read_only: open an existing database for reading only (``python -m bot check``): SQLite's
                ``mode=ro``, no migration, no lock file, nothing written even in a read-only folder;
                read-only transactions on PostgreSQL; ``migrate`` and ``exclusive`` are ignored.
            pool_size: the most connections a PostgreSQL store holds.

        Raises:
            StoreError: the path is no database file (a folder, an empty or foreign file), or one
                Annals may not write to (unless ``read_only``), or the server cannot be reached;
                the message says what to do.
            DatabaseInUse: ``exclusive`` and another process is the writer.
            MigrationError: a migration failed (it was rolled back; the store is closed).
        """
        db = str(path) if path is not None else default_db_path()
        dialect: Dialect
        if is_postgres(db):
            from bot.postgres_dialect import PgDialect  # asyncpg only when a server is used

            pg = dialect = await PgDialect.open(db, busy_timeout_ms=busy_timeout_ms, pool_size=pool_size,
                                                read_only=read_only)
            give_up: Callable[[], Any] = pg.shut  # perhaps no schema to release deadlines in
        else:
            dialect = await SqliteDialect.open(sqlite_path(db), busy_timeout_ms=busy_timeout_ms,
                                               exclusive=exclusive, read_only=read_only)
            give_up = dialect.close
        if migrate and not read_only:
            try:
                await dialect.migrate(migrations_dir)
            except BaseException:
                await give_up()
                raise
        return cls(dialect)

    async def close(self) -> None:
        """Wait for the writes in progress, then let the database go (idempotent)."""
        await self.dialect.close()

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def pragmas(self) -> dict[str, Any]:
        """The connection settings that keep the data safe (SQLite's pragmas, the server's settings)."""
        return await self.dialect.pragmas()

    async def listen(self, changed: Callable[[str], object]) -> Listening | None:
        """Call ``changed(game_id)`` when another process changes a game, so a cached copy is dropped,
        until the returned connection drops or is closed; None where one process writes the database
        (a SQLite file: nothing to hear).

        Raises:
            StoreError: the server cannot be reached now.
        """
        if self.dialect.shared is None:
            return None
        return await self.dialect.shared.listen(changed)

    async def reader(self) -> Reader:
        """A read-only connection for the league store (which closes it)."""
        return await self.dialect.reader()

    async def table_columns(self) -> dict[str, list[str]]:
        """The tables of the schema, each with its columns in order."""
        return await self.dialect.table_columns()

    # -- migrations ------------------------------------------------------------------
    async def user_version(self) -> int:
        """The schema version: the last migration applied."""
        return await self.dialect.user_version()

    def latest_version(self) -> int:
        """The schema version this code brings a database to (its number of migrations)."""
        return self.dialect.latest_version()

    async def migrate(self, directory: Path | None = None) -> int:
        """Apply the migrations newer than the schema version, each in its own transaction; returns
        the version afterwards (see the dialects for how concurrent openers apply each once).

        Raises:
            MigrationError: a file failed; it was rolled back whole, earlier ones stay applied.
        """
        return await self.dialect.migrate(directory)

    # -- the write unit --------------------------------------------------------------
    def transaction(self) -> AbstractAsyncContextManager[Connection]:
        """One write unit: begin with the write lock, then commit, or roll back on any error.

        Raises:
            ConstraintViolation: a statement broke a constraint of the schema (nothing was written).
        """
        return self.dialect.transaction()

    async def _read(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return await self.dialect.read(sql, params)

    # -- games -----------------------------------------------------------------------
    async def create_game(self, game: GameRow, seats: Iterable[SeatRow],
                          outbox: Sequence[OutboxItem] = ()) -> list[int]:
        """Insert a new game (normally a lobby) and its first seats, and the rows telling of it
        into the outbox; returns the ids of those rows.

        Raises:
            StoreConflict: the game id is taken.
        """
        t = game.timers
        try:
            async with self.transaction() as conn:
                await conn.execute(
                    "INSERT INTO games (game_id, ruleset, options_json, seed, status, guild_id, channel_id, "
                    "thread_id, creator_id, max_seats, created_at, updated_at, seq, move_seconds, "
                    "reminder_offsets_json, timeout_policy, misses_before_ai, result_json, bank_seconds, "
                    "bank_increment, bank_cap) "
                    f"VALUES ({', '.join('?' * 21)})",
                    (game.game_id, game.ruleset, _dumps(dict(game.options)), game.seed, game.status,
                     game.guild_id, game.channel_id, game.thread_id, game.creator_id, game.max_seats,
                     game.created_at, game.updated_at, game.seq, t.move_seconds,
                     _dumps(list(t.reminder_offsets)), t.timeout_policy, t.misses_before_ai,
                     _dumps(dict(game.result)) if game.result is not None else None, t.bank_seconds,
                     t.bank_increment, t.bank_cap),
                )
                await conn.executemany(_UPSERT_SEAT, [_seat_params(s) for s in seats])
                ids = await self._enqueue(conn, outbox, game.created_at)
        except ConstraintViolation as exc:
            raise StoreConflict(f"game {game.game_id!r} already exists") from exc
        if self.dialect.shared is not None:
            self.dialect.shared.saw(game.game_id, 0)
        return ids

    async def apply_change(self, change: GameChange) -> list[int]:
        """Write one :class:`GameChange` atomically (see its docstring for the fields), its outbox
        rows included; returns the ids of those rows.

        Where several processes write the database, the game's row is locked first and its revision
        checked and bumped (:meth:`bot.dialect.Shared.lock_game`), and the others hear of the change.

        Raises:
            StoreConflict: the game's seq (or status, or revision) is no longer the expected one;
                nothing was written.
        """
        c = change
        shared = self.dialect.shared
        revision: int | None = None
        async with self.transaction() as conn:
            if shared is not None:
                revision = await shared.lock_game(conn, c)
            sets = ["seq = ?", "updated_at = ?"]
            params: list[Any] = [c.new_seq, c.updated_at]
            if c.status is not None:
                sets.append("status = ?")
                params.append(c.status)
            if c.result is not None:
                sets.append("result_json = ?")
                params.append(_dumps(dict(c.result)))
            if c.timers is not None:
                sets += ["move_seconds = ?", "reminder_offsets_json = ?", "timeout_policy = ?",
                         "misses_before_ai = ?", "bank_seconds = ?", "bank_increment = ?", "bank_cap = ?"]
                params += [c.timers.move_seconds, _dumps(list(c.timers.reminder_offsets)),
                           c.timers.timeout_policy, c.timers.misses_before_ai, c.timers.bank_seconds,
                           c.timers.bank_increment, c.timers.bank_cap]
            if c.creator_id is not None:
                sets.append("creator_id = ?")
                params.append(c.creator_id)
            if c.new_quiet is not None:
                sets.append("quiet_entries = ?")
                params.append(c.new_quiet)
            where = "game_id = ? AND seq = ?"
            params += [c.game_id, c.expected_seq]
            if c.expected_status is not None:
                where += " AND status = ?"
                params.append(c.expected_status)
            cur = await conn.execute(f"UPDATE games SET {', '.join(sets)} WHERE {where}", params)
            if cur.rowcount != 1:
                raise StoreConflict(f"game {c.game_id!r} is not at seq {c.expected_seq} any more")
            if c.rules_version is not None:
                await conn.execute("UPDATE games SET rules_version = ? WHERE game_id = ?",
                                   (c.rules_version, c.game_id))
            if c.actions:
                await conn.executemany(
                    "INSERT INTO actions (game_id, seq, player, action_json, source, user_id, created_at, "
                    "events_json, public_events) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    [(a.game_id, a.seq, a.player, _dumps(dict(a.action)), a.source, a.user_id, a.created_at,
                      _dumps([dict(e) for e in a.events]) if a.events is not None else None,
                      _public(a.events)) for a in c.actions],
                )
            await self._write_undo(conn, c)
            if c.snapshot is not None:
                await conn.execute(
                    "INSERT INTO snapshots (game_id, seq, state_json, updated_at) VALUES (?, ?, ?, ?) "
                    "ON CONFLICT (game_id) DO UPDATE SET seq = excluded.seq, "
                    "state_json = excluded.state_json, updated_at = excluded.updated_at",
                    (c.game_id, c.snapshot.seq, c.snapshot.state_json, c.updated_at),
                )
            if c.checkpoints:
                await conn.executemany(
                    "INSERT INTO checkpoints (game_id, seq, state_json, created_at) VALUES (?, ?, ?, ?)",
                    [(c.game_id, s.seq, s.state_json, c.updated_at) for s in c.checkpoints],
                )
            if c.seats_delete:
                await conn.executemany("DELETE FROM seats WHERE game_id = ? AND slot = ?",
                                       [(c.game_id, slot) for slot in c.seats_delete])
            if c.seats_upsert:
                await conn.executemany(_UPSERT_SEAT, [_seat_params(s) for s in c.seats_upsert])
            if c.clear_all_deadlines:
                await conn.execute("DELETE FROM deadlines WHERE game_id = ?", (c.game_id,))
            elif c.clear_deadlines_for:
                await conn.executemany("DELETE FROM deadlines WHERE game_id = ? AND player = ?",
                                       [(c.game_id, p) for p in c.clear_deadlines_for])
            if c.fire_deadlines:
                await conn.executemany("UPDATE deadlines SET fired = 1 WHERE deadline_id = ?",
                                       [(d,) for d in c.fire_deadlines])
            if c.new_deadlines:
                await conn.executemany(
                    "INSERT INTO deadlines (deadline_id, game_id, seq, player, user_id, kind, due_at, fired, "
                    "created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    [(d.deadline_id, d.game_id, d.seq, d.player, d.user_id, d.kind, d.due_at, int(d.fired),
                      c.updated_at) for d in c.new_deadlines],
                )
            await self._write_departures(conn, c)
            ids = await self._enqueue(conn, c.outbox, c.updated_at)
            await self._hold(conn, c, ids)
            if shared is not None:
                await shared.announce(conn, c.game_id)
        if shared is not None and revision is not None:
            shared.saw(c.game_id, revision)
        return ids

    @staticmethod
    async def _hold(conn: Connection, c: GameChange, ids: Sequence[int]) -> None:
        """Hold a change's public rows while its command goes on, or release what it held."""
        if c.hold_public_ms is not None:
            public = [i for i, item in zip(ids, c.outbox, strict=True) if item.kind == "public"]
            await conn.executemany("UPDATE outbox SET next_try_ms = ? WHERE id = ?",
                                   [(c.hold_public_ms, i) for i in public])
        if c.release_held:  # never tried and not due: held by this command (backed-off rows were tried)
            await conn.execute(
                "UPDATE outbox SET next_try_ms = 0 WHERE game_id = ? AND attempts = 0 AND next_try_ms > 0 "
                "AND delivered_at IS NULL AND gave_up_at IS NULL", (c.game_id,))

    @staticmethod
    async def _write_departures(conn: Connection, change: GameChange) -> None:
        """Record who left the game's seats (a later departure replaces the reason) and drop the
        record of whoever was given a seat back, in the change's own transaction."""
        left = [(change.game_id, d.user_id, d.reason, change.updated_at)
                for d in change.departures if d.reason is not None]
        back = [(change.game_id, d.user_id) for d in change.departures if d.reason is None]
        if back:
            await conn.executemany("DELETE FROM departures WHERE game_id = ? AND user_id = ?", back)
        if left:
            await conn.executemany(
                "INSERT INTO departures (game_id, user_id, reason, at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (game_id, user_id) DO UPDATE SET reason = excluded.reason, at = excluded.at",
                left)

    async def departure(self, game_id: str, user_id: int) -> str | None:
        """Why ``user_id`` left a seat of the running game ``game_id`` (``resigned``, ``replaced``,
        ``kicked``), or None when they never did or were given a seat back since."""
        rows = await self._read("SELECT reason FROM departures WHERE game_id = ? AND user_id = ?",
                                (game_id, user_id))
        return str(rows[0][0]) if rows else None

    @staticmethod
    async def _write_undo(conn: Connection, c: GameChange) -> None:
        """The undo points and voided moves of a change (see migrations/0007_stored_records.sql)."""
        if c.voided:
            await conn.executemany("UPDATE actions SET voided_by = ? WHERE game_id = ? AND seq = ?",
                                   [(by, c.game_id, seq) for seq, by in c.voided])
        if c.undo_clear:
            await conn.execute("DELETE FROM undo_points WHERE game_id = ?", (c.game_id,))
        elif c.undo_drop:
            await conn.executemany("DELETE FROM undo_points WHERE game_id = ? AND seq = ?",
                                   [(c.game_id, seq) for seq in c.undo_drop])
        if c.undo_points:
            await conn.executemany(
                "INSERT INTO undo_points (game_id, seq, player, state_json) VALUES (?, ?, ?, ?)",
                [(c.game_id, u.seq, u.player, u.state_json) for u in c.undo_points])

    async def get_game(self, game_id: str) -> GameRow | None:
        """The game's row, or None."""
        rows = await self._read(f"SELECT {_GAME_COLUMNS} FROM games g WHERE g.game_id = ?", (game_id,))
        return _game(rows[0]) if rows else None

    async def list_games(
        self, *, statuses: Sequence[GameStatusName] | None = None, guild_id: int | None = None
    ) -> list[GameRow]:
        """Games filtered by status and/or guild, oldest first."""
        where: list[str] = []
        params: list[Any] = []
        if statuses:
            where.append(f"g.status IN ({', '.join('?' * len(statuses))})")
            params += list(statuses)
        if guild_id is not None:
            where.append("g.guild_id = ?")
            params.append(guild_id)
        clause = f" WHERE {' AND '.join(where)}" if where else ""
        order = " ORDER BY g.created_at, g.game_id"
        rows = await self._read(f"SELECT {_GAME_COLUMNS} FROM games g{clause}{order}", params)
        return _games(rows)

    async def game_ids(self, *, statuses: Sequence[GameStatusName]) -> list[str]:
        """Ids of the games with these statuses, oldest first, without parsing their rows (so one
        damaged row cannot stop a caller that handles games one by one)."""
        rows = await self._read(
            f"SELECT game_id FROM games WHERE status IN ({', '.join('?' * len(statuses))}) "
            "ORDER BY created_at, game_id", list(statuses))
        return [str(r[0]) for r in rows]

    async def game_contact(self, game_id: str) -> tuple[str, str, int, int | None] | None:
        """(ruleset, status, creator id, guild id) read raw, for reporting a game that cannot load."""
        rows = await self._read("SELECT ruleset, status, creator_id, guild_id FROM games WHERE game_id = ?",
                                (game_id,))
        return (str(rows[0][0]), str(rows[0][1]), int(rows[0][2]), rows[0][3]) if rows else None

    async def mark_damaged(self, game_id: str, problem: str, now: int,
                           outbox: Sequence[OutboxItem] = ()) -> list[int] | None:
        """Set a game aside as damaged: its clocks pause (their rows stay, and no deadline of a damaged
        game is pending) until :meth:`clear_damage`. The first time, the ``outbox`` rows telling of it
        are written too and their ids returned; None when it was marked before."""
        async with self.transaction() as conn:
            cursor = await conn.execute(
                "UPDATE games SET damage = ?, updated_at = ? WHERE game_id = ? AND damage IS NULL",
                (problem, now, game_id))
            newly = cursor.rowcount > 0
            if not newly:
                await conn.execute("UPDATE games SET damage = ? WHERE game_id = ?", (problem, game_id))
            return await self._enqueue(conn, outbox, now) if newly else None

    async def clear_damage(self, game_id: str, now: int) -> None:
        """Put a game set aside back in play (it loads again, e.g. after a repair): its paused clocks
        run on, each moved later by the time the game spent set aside (since it was marked)."""
        async with self.transaction() as conn:
            rows = list(await conn.execute_fetchall(
                "SELECT updated_at FROM games WHERE game_id = ? AND damage IS NOT NULL", (game_id,)))
            if not rows:
                return
            paused = max(now - int(rows[0][0]), 0)
            await conn.execute("UPDATE deadlines SET due_at = due_at + ? WHERE game_id = ? AND fired = 0",
                               (paused, game_id))
            await conn.execute("UPDATE games SET damage = NULL, updated_at = ? WHERE game_id = ?",
                               (now, game_id))

    async def damaged_games(self) -> dict[str, str]:
        """The games set aside as damaged, with what went wrong."""
        rows = await self._read("SELECT game_id, damage FROM games WHERE damage IS NOT NULL ORDER BY game_id")
        return {str(r[0]): str(r[1]) for r in rows}

    async def games_in_channel(
        self, channel_id: int, *, statuses: Sequence[GameStatusName] | None = None
    ) -> list[GameRow]:
        """Games played in a channel or in their own thread there, oldest first."""
        where = "(g.channel_id = ? OR g.thread_id = ?)"
        params: list[Any] = [channel_id, channel_id]
        if statuses:
            where += f" AND g.status IN ({', '.join('?' * len(statuses))})"
            params += list(statuses)
        rows = await self._read(f"SELECT {_GAME_COLUMNS} FROM games g WHERE {where} "
                                "ORDER BY g.created_at, g.game_id", params)
        return _games(rows)

    async def games_of_user(self, user_id: int) -> list[str]:
        """Ids of the games where ``user_id`` holds a seat."""
        rows = await self._read("SELECT game_id FROM seats WHERE user_id = ? ORDER BY game_id", (user_id,))
        return [r[0] for r in rows]

    async def get_seats(self, game_id: str) -> list[SeatRow]:
        """The game's seats by slot."""
        rows = await self._read(f"SELECT {_SEAT_COLUMNS} FROM seats s WHERE s.game_id = ? ORDER BY s.slot",
                                (game_id,))
        return [_seat(r) for r in rows]

    async def load_bundle(self, game_id: str) -> GameBundle | None:
        """The game, its seats, current snapshot, the log after it, deadlines and reminder settings."""
        # where several processes write, the revision is read first: a write in between makes it older
        # than the bundle, which only costs a conflict and a reload, never a write from a stale copy
        shared = self.dialect.shared
        revision = await shared.revision(game_id) if shared is not None else None
        rows = await self._read(
            f"SELECT {_GAME_COLUMNS}, sn.seq, sn.state_json FROM games g "
            "LEFT JOIN snapshots sn ON sn.game_id = g.game_id WHERE g.game_id = ?",
            (game_id,),
        )
        if not rows:
            return None
        game = _game(rows[0])
        snap_seq, snap_json = rows[0][22], rows[0][23]
        snapshot = Snapshot(game_id, snap_seq, snap_json) if snap_json is not None else None
        seat_rows = await self._read(
            f"SELECT {_SEAT_COLUMNS}, u.reminders, u.reminder_offsets_json FROM seats s "
            "LEFT JOIN user_settings u ON u.user_id = s.user_id WHERE s.game_id = ? ORDER BY s.slot",
            (game_id,),
        )
        seats = tuple(_seat(r) for r in seat_rows)
        # the user columns come last (after every seat column, however many migrations add)
        prefs = {r[4]: cast(ReminderPreference, r[-2]) for r in seat_rows if r[4] is not None and r[-2]}
        offsets = {r[4]: _offsets(r[-1]) for r in seat_rows if r[4] is not None and r[-1] is not None}
        tail: tuple[ActionRow, ...] = ()
        after = snapshot.seq if snapshot is not None else 0
        if game.status != "lobby" and game.seq > after:
            tail = tuple(await self.actions(game_id, after_seq=after))
        deadlines = tuple(await self.game_deadlines(game_id)) if game.status == "active" else ()
        # a quiet move names itself as the entry that voided it (the table never saw it, as an undo entry)
        undo = tuple((int(r[0]), int(r[1]), r[2] == "forced", r[3] == r[0]) for r in await self._read(
            "SELECT u.seq, u.player, a.source, a.voided_by FROM undo_points u JOIN actions a ON "
            "a.game_id = u.game_id AND a.seq = u.seq WHERE u.game_id = ? ORDER BY u.seq", (game_id,)))
        version = await self._read("SELECT rules_version FROM games WHERE game_id = ?", (game_id,))
        if shared is not None and revision is not None:
            shared.saw(game_id, revision)
        return GameBundle(game, seats, snapshot, tail, deadlines, prefs, offsets, undo,
                          version[0][0] if version else None)

    # -- log and snapshots -----------------------------------------------------------
    async def actions(
        self, game_id: str, *, after_seq: int = 0, upto_seq: int | None = None
    ) -> list[ActionRow]:
        """Log entries with ``after_seq < seq <= upto_seq``, in order."""
        sql = ("SELECT game_id, seq, player, action_json, source, user_id, created_at FROM actions "
               "WHERE game_id = ? AND seq > ?")
        params: list[Any] = [game_id, after_seq]
        if upto_seq is not None:
            sql += " AND seq <= ?"
            params.append(upto_seq)
        return [_action(r) for r in await self._read(sql + " ORDER BY seq", params)]

    async def records(
        self, game_id: str, *, after_seq: int = 0, upto_seq: int | None = None, last: int | None = None
    ) -> list[ActionRow]:
        """Log entries with their records (events, voided), ``after_seq < seq <= upto_seq``, in order;
        with ``last``, only the newest ``last`` of them. An entry whose stored move cannot be read is
        returned with an empty move (the records are what readers need; ``check`` names the damage)."""
        sql = ("SELECT game_id, seq, player, action_json, source, user_id, created_at, events_json, "
               "voided_by FROM actions WHERE game_id = ? AND seq > ?")
        params: list[Any] = [game_id, after_seq]
        if upto_seq is not None:
            sql += " AND seq <= ?"
            params.append(upto_seq)
        if last is not None:
            rows = await self._read(sql + " ORDER BY seq DESC LIMIT ?", [*params, last])
            rows.reverse()
        else:
            rows = await self._read(sql + " ORDER BY seq", params)
        return [_record(r) for r in rows]

    async def standing(self, game_id: str, *, after_seq: int = 0, upto_seq: int, last: int | None = None
                       ) -> list[ActionRow]:
        """The log entries that stand (no undo took them back, no undo entry, no quiet move: each names
        itself as voided), ``after_seq < seq <= upto_seq``, in order, with their records; with ``last``, only
        the newest ``last`` of them."""
        sql = ("SELECT game_id, seq, player, action_json, source, user_id, created_at, events_json, "
               "voided_by FROM actions WHERE game_id = ? AND seq > ? AND seq <= ? AND voided_by IS NULL")
        if last is None:
            rows = await self._read(sql + " ORDER BY seq", (game_id, after_seq, upto_seq))
        else:
            rows = await self._read(sql + " ORDER BY seq DESC LIMIT ?", (game_id, after_seq, upto_seq, last))
            rows.reverse()
        return [_record(r) for r in rows]

    async def public_counts(self, game_id: str, *, upto_seq: int) -> list[tuple[int, int, int | None, str]]:
        """(seq, player, its public events (None for a move whose events were not recorded), source) of
        every move that stands, oldest first: the public log's index, read without reading an event."""
        rows = await self._read(
            "SELECT seq, player, public_events, source FROM actions WHERE game_id = ? AND seq <= ? "
            "AND voided_by IS NULL ORDER BY seq", (game_id, upto_seq))
        return [(int(r[0]), int(r[1]), None if r[2] is None else int(r[2]), str(r[3])) for r in rows]

    async def quiet_entries(self, game_id: str, *, upto_seq: int) -> list[int]:
        """The seqs of the log entries counted apart as quiet, up to ``upto_seq``, in order: the quiet moves
        (each voided by itself, and never by the undo taking it back) and the undo entries taking one back
        (marked ``quiet``); what maps the log's index to the move numbers players see."""
        rows = await self._read(
            "SELECT seq, action_json FROM actions WHERE game_id = ? AND seq <= ? AND voided_by = seq "
            "ORDER BY seq", (game_id, upto_seq))
        out: list[int] = []
        for seq, text in rows:
            entry = _move(text)
            if entry.get("kind") != UNDO or entry.get("quiet") is True:
                out.append(int(seq))
        return out

    async def last_move(self, game_id: str, player: int) -> int | None:
        """The seq of ``player``'s newest move that stands, or None. A seat's join entry is its first
        entry and no move of theirs: a newcomer who has not moved yet has none."""
        rows = await self._read(
            "SELECT seq, action_json FROM actions WHERE game_id = ? AND player = ? AND voided_by IS NULL "
            "ORDER BY seq DESC LIMIT 1", (game_id, player))
        if not rows or _kind(rows[0][1]) == JOIN:
            return None
        return int(rows[0][0])

    async def undo_state(self, game_id: str, seq: int) -> str | None:
        """The state from before the undoable move ``seq`` (its undo point), or None when it has none."""
        rows = await self._read("SELECT state_json FROM undo_points WHERE game_id = ? AND seq = ?",
                                (game_id, seq))
        return str(rows[0][0]) if rows else None

    async def unrecorded_games(self) -> list[str]:
        """Games with log entries written before records were kept, whose events were never looked for."""
        rows = await self._read(
            "SELECT DISTINCT game_id FROM actions WHERE events_json IS NULL ORDER BY game_id")
        return [str(r[0]) for r in rows]

    async def set_records(self, game_id: str, events: Sequence[tuple[int, str]],
                          voided: Sequence[tuple[int, int]] = ()) -> None:
        """Fill in the records of entries written before records were kept: ``events`` (``(seq,
        events_json)``, the text ``null`` where they cannot be recovered) and ``voided`` (``(seq, seq of
        the undo entry)``); what is recorded already is left as it is."""
        async with self.transaction() as conn:
            await conn.executemany(
                "UPDATE actions SET events_json = ?, public_events = ? WHERE game_id = ? AND seq = ? "
                "AND events_json IS NULL",
                [(text, _public(json.loads(text)), game_id, seq) for seq, text in events])
            await conn.executemany(
                "UPDATE actions SET voided_by = ? WHERE game_id = ? AND seq = ? AND voided_by IS NULL",
                [(by, game_id, seq) for seq, by in voided])

    async def log_bounds(self, game_id: str) -> tuple[int, int, int]:
        """(count, min seq, max seq) of the game's log; (0, 0, 0) when empty."""
        rows = await self._read(
            "SELECT COUNT(*), COALESCE(MIN(seq), 0), COALESCE(MAX(seq), 0) FROM actions WHERE game_id = ?",
            (game_id,),
        )
        return int(rows[0][0]), int(rows[0][1]), int(rows[0][2])

    async def snapshot(self, game_id: str) -> Snapshot | None:
        """The current snapshot."""
        rows = await self._read("SELECT seq, state_json FROM snapshots WHERE game_id = ?", (game_id,))
        return Snapshot(game_id, rows[0][0], rows[0][1]) if rows else None

    async def checkpoints(self, game_id: str) -> list[Snapshot]:
        """All checkpoints of a game, oldest first."""
        rows = await self._read(
            "SELECT seq, state_json FROM checkpoints WHERE game_id = ? ORDER BY seq", (game_id,)
        )
        return [Snapshot(game_id, r[0], r[1]) for r in rows]

    async def latest_checkpoint(self, game_id: str, *, upto_seq: int | None = None) -> Snapshot | None:
        """The newest checkpoint at or before ``upto_seq``."""
        sql = "SELECT seq, state_json FROM checkpoints WHERE game_id = ?"
        params: list[Any] = [game_id]
        if upto_seq is not None:
            sql += " AND seq <= ?"
            params.append(upto_seq)
        rows = await self._read(sql + " ORDER BY seq DESC LIMIT 1", params)
        return Snapshot(game_id, rows[0][0], rows[0][1]) if rows else None

    # -- deadlines -------------------------------------------------------------------
    async def game_deadlines(self, game_id: str) -> list[Deadline]:
        """A game's deadline rows (fired or not), by due time."""
        rows = await self._read(
            f"SELECT {_DEADLINE_COLUMNS} FROM deadlines WHERE game_id = ? ORDER BY due_at, deadline_id",
            (game_id,),
        )
        return [_deadline(r) for r in rows]

    async def get_deadline(self, deadline_id: str) -> Deadline | None:
        """One deadline row by id, or None when it was replaced or removed."""
        rows = await self._read(f"SELECT {_DEADLINE_COLUMNS} FROM deadlines WHERE deadline_id = ?",
                                (deadline_id,))
        return _deadline(rows[0]) if rows else None

    async def pending_deadlines(self, *, due_before: float | None = None) -> list[Deadline]:
        """Unfired deadlines (those due before ``due_before`` if given), soonest first."""
        sql = (f"SELECT {_DEADLINE_COLUMNS} FROM deadlines WHERE fired = 0 AND game_id NOT IN "
               "(SELECT game_id FROM games WHERE damage IS NOT NULL)")  # a damaged game's clocks pause
        params: list[Any] = []
        if due_before is not None:
            sql += " AND due_at <= ?"
            params.append(int(due_before))
        rows = await self._read(sql + " ORDER BY due_at, deadline_id", params)
        return [_deadline(r) for r in rows]

    async def claim_deadlines(self, *, due_before: float) -> list[Deadline]:
        """The unfired deadlines due by ``due_before`` this process may fire, soonest first: all of them
        where one process writes the database, else those no other live process has leased
        (:meth:`bot.dialect.Shared.claim_deadlines`)."""
        if self.dialect.shared is None:
            return await self.pending_deadlines(due_before=due_before)
        rows = await self.dialect.shared.claim_deadlines(int(due_before), _DEADLINE_COLUMNS)
        return sorted((_deadline(r) for r in rows), key=lambda d: (d.due_at, d.deadline_id))

    # -- people, servers, messages ---------------------------------------------------
    async def get_user_settings(self, user_id: int) -> UserSettings:
        """A person's settings (defaults when never set)."""
        rows = await self._read(
            "SELECT dm_allowed, reminders, reminder_offsets_json, up_next FROM user_settings "
            "WHERE user_id = ?", (user_id,))
        if not rows:
            return UserSettings(user_id)
        offsets = _offsets(rows[0][2]) if rows[0][2] is not None else None
        return UserSettings(user_id, bool(rows[0][0]), rows[0][1], offsets, bool(rows[0][3]))

    async def set_user_settings(self, settings: UserSettings, now: int) -> None:
        """Insert or replace a person's settings."""
        async with self.transaction() as conn:
            await conn.execute(
                "INSERT INTO user_settings (user_id, dm_allowed, reminders, reminder_offsets_json, "
                "up_next, updated_at) VALUES (?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (user_id) DO UPDATE SET dm_allowed = excluded.dm_allowed, "
                "reminders = excluded.reminders, reminder_offsets_json = excluded.reminder_offsets_json, "
                "up_next = excluded.up_next, updated_at = excluded.updated_at",
                (settings.user_id, int(settings.dm_allowed), settings.reminders,
                 None if settings.reminder_offsets is None else _dumps(list(settings.reminder_offsets)),
                 int(settings.up_next), now),
            )

    async def get_guild_settings(self, guild_id: int) -> GuildSettings:
        """A server's settings (defaults when never set)."""
        rows = await self._read(
            "SELECT games_channel_id, admin_role_id, defaults_json FROM guild_settings WHERE guild_id = ?",
            (guild_id,),
        )
        if not rows:
            return GuildSettings(guild_id)
        return GuildSettings(guild_id, rows[0][0], rows[0][1], json.loads(rows[0][2]))

    async def set_guild_settings(self, settings: GuildSettings, now: int) -> None:
        """Insert or replace a server's settings."""
        async with self.transaction() as conn:
            await conn.execute(
                "INSERT INTO guild_settings (guild_id, games_channel_id, admin_role_id, defaults_json, "
                "updated_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET "
                "games_channel_id = excluded.games_channel_id, admin_role_id = excluded.admin_role_id, "
                "defaults_json = excluded.defaults_json, updated_at = excluded.updated_at",
                (settings.guild_id, settings.games_channel_id, settings.admin_role_id,
                 _dumps(dict(settings.defaults)), now),
            )

    async def set_thread(self, game_id: str, thread_id: int | None, now: int) -> None:
        """Remember the Discord thread where a game is played (None: back to its channel)."""
        async with self.transaction() as conn:
            await conn.execute("UPDATE games SET thread_id = ?, updated_at = ? WHERE game_id = ?",
                               (thread_id, now, game_id))

    async def set_message(self, ref: MessageRef, now: int) -> None:
        """Remember which message shows ``ref.purpose`` for a game (replacing the previous one)."""
        async with self.transaction() as conn:
            await conn.execute(
                "INSERT INTO messages (game_id, purpose, channel_id, message_id, seq, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (game_id, purpose) DO UPDATE SET "
                "channel_id = excluded.channel_id, message_id = excluded.message_id, seq = excluded.seq, "
                "updated_at = excluded.updated_at",
                (ref.game_id, ref.purpose, ref.channel_id, ref.message_id, ref.seq, now),
            )

    async def messages(self, game_id: str) -> dict[str, MessageRef]:
        """The game's message map, by purpose."""
        rows = await self._read(
            "SELECT purpose, channel_id, message_id, seq FROM messages WHERE game_id = ?", (game_id,)
        )
        return {r[0]: MessageRef(game_id, r[0], r[1], r[2], r[3]) for r in rows}

    async def delete_message(self, game_id: str, purpose: str) -> None:
        """Forget a message (e.g. after it was deleted in Discord)."""
        async with self.transaction() as conn:
            await conn.execute("DELETE FROM messages WHERE game_id = ? AND purpose = ?", (game_id, purpose))

    # -- the notice outbox (see migrations/0006_outbox.sql) ----------------------------
    async def _enqueue(self, conn: Connection, items: Sequence[OutboxItem], now: int) -> list[int]:
        """Insert outbox rows inside the caller's transaction, numbered by the dialect (after the last
        under SQLite's one writer, from a sequence where several processes write)."""
        if not items:
            return []
        ids = await self.dialect.next_ids(conn, "outbox", len(items))
        await conn.executemany(
            "INSERT INTO outbox (id, game_id, dest_kind, dest_id, payload_json, nonce, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            [(i, *_outbox_values(it, now)) for i, it in zip(ids, items, strict=True)])
        return ids

    async def enqueue(self, items: Sequence[OutboxItem], now: int) -> list[int]:
        """Write outbox rows on their own (a front adding a row while delivering, e.g. the line
        announcing a new thread); the service writes its rows with its change instead."""
        async with self.transaction() as conn:
            return await self._enqueue(conn, items, now)

    async def outbox_destinations(self) -> list[Destination]:
        """Every destination with rows neither delivered nor given up, oldest row first."""
        rows = await self._read(
            "SELECT dest_kind, dest_id, game_id, MIN(id) FROM outbox WHERE delivered_at IS NULL AND "
            "gave_up_at IS NULL GROUP BY dest_kind, dest_id, game_id ORDER BY MIN(id)")
        seen: dict[Destination, None] = {}
        for r in rows:
            seen.setdefault(Destination.of(r[0], int(r[1]), str(r[2])), None)
        return list(seen)

    async def claim_due(self, destination: Destination, limit: int = 200) -> list[OutboxRow]:
        """The destination's rows still to deliver, in the order they were written (the first may
        not be due yet: nothing after it goes first). Where one process writes the database, no row
        is claimed twice and nothing is written here; where several do, the rows are leased to this
        process, and none are returned while another live process holds the destination
        (:meth:`bot.dialect.Shared.claim_outbox`)."""
        where, params = _outbox_where(destination)
        if self.dialect.shared is None:
            rows = await self._read(f"SELECT {_OUTBOX_COLUMNS} FROM outbox WHERE {where} ORDER BY id LIMIT ?",
                                    [*params, limit])
            return [_outbox_row(r) for r in rows]
        key = f"outbox {destination.kind} {destination.target} {destination.game_id or ''}"
        rows = await self.dialect.shared.claim_outbox(key, where, params, _OUTBOX_COLUMNS, limit)
        return sorted((_outbox_row(r) for r in rows), key=lambda r: r.id)

    async def outbox_rows(self, ids: Sequence[int] | None = None) -> list[OutboxRow]:
        """Outbox rows by id (every row when None), in id order (for the console and checks)."""
        if ids is None:
            rows = await self._read(f"SELECT {_OUTBOX_COLUMNS} FROM outbox ORDER BY id")
        elif not ids:
            return []
        else:
            rows = await self._read(f"SELECT {_OUTBOX_COLUMNS} FROM outbox WHERE id IN "
                                    f"({', '.join('?' * len(ids))}) ORDER BY id", list(ids))
        return [_outbox_row(r) for r in rows]

    async def mark_delivered(self, ids: Sequence[int], now: int) -> None:
        """The rows went out (Discord accepted every message they make)."""
        async with self.transaction() as conn:
            await conn.executemany("UPDATE outbox SET delivered_at = ? WHERE id = ? AND delivered_at IS NULL",
                                   [(now, i) for i in ids])

    async def form_batches(self, batches: Sequence[Sequence[int]]) -> None:
        """Write which rows go out together, before the first attempt, in one transaction: each batch's
        rows get the id of its first row as ``batch_id``. A retry (after a failure or a crash) sends
        exactly the stored batch under its first row's nonce, whatever rows were written since, so
        Discord returns the messages it already has instead of posting their news again. A row that
        is already in a batch keeps it."""
        async with self.transaction() as conn:
            await conn.executemany("UPDATE outbox SET batch_id = ? WHERE id = ? AND batch_id IS NULL",
                                   [(min(batch), i) for batch in batches if batch for i in batch])

    async def begin_attempt(self, ids: Sequence[int]) -> None:
        """The rows are about to be sent together: count the attempt first, so that after a crash
        half-way through they are still told apart from rows written since, and are sent again as
        the same batch (the same messages, the same nonces)."""
        async with self.transaction() as conn:
            await conn.executemany("UPDATE outbox SET attempts = attempts + 1 WHERE id = ?",
                                   [(i,) for i in ids])

    async def retry_later(self, ids: Sequence[int], error: str, next_try_ms: int) -> None:
        """The rows failed this time (the attempt is counted): try again from ``next_try_ms``."""
        async with self.transaction() as conn:
            await conn.executemany("UPDATE outbox SET next_try_ms = ?, last_error = ? WHERE id = ?",
                                   [(next_try_ms, error[:500], i) for i in ids])

    async def give_up(self, ids: Sequence[int], error: str, now: int) -> None:
        """The rows cannot go out (too many failures, or Discord refuses for good)."""
        async with self.transaction() as conn:
            await conn.executemany("UPDATE outbox SET gave_up_at = ?, last_error = ? WHERE id = ?",
                                   [(now, error[:500], i) for i in ids])

    # -- DM channels (see migrations/0007_stored_records.sql) ----------------------------
    async def dm_channel(self, user_id: int) -> int | None:
        """The id of the DM channel Discord opened for a person, if one was remembered."""
        rows = list(await self._read("SELECT channel_id FROM dm_channels WHERE user_id = ?", (user_id,)))
        return int(rows[0][0]) if rows else None

    async def remember_dm_channel(self, user_id: int, channel_id: int, now: int) -> None:
        """Remember a person's DM channel, so that a restart does not ask Discord to open it again."""
        async with self.transaction() as conn:
            await conn.execute(
                "INSERT INTO dm_channels (user_id, channel_id, updated_at) VALUES (?, ?, ?) "
                "ON CONFLICT (user_id) DO UPDATE SET channel_id = excluded.channel_id, "
                "updated_at = excluded.updated_at", (user_id, channel_id, now))

    async def forget_dm_channel(self, user_id: int, channel_id: int) -> None:
        """Forget a person's DM channel that Discord no longer knows (only that one: another process
        may have remembered a newer one meanwhile)."""
        async with self.transaction() as conn:
            await conn.execute("DELETE FROM dm_channels WHERE user_id = ? AND channel_id = ?",
                               (user_id, channel_id))

    async def prune_outbox(self, before: int) -> int:
        """Forget the rows delivered or given up before ``before`` (Unix seconds); returns how many."""
        async with self.transaction() as conn:
            cursor = await conn.execute(
                "DELETE FROM outbox WHERE (delivered_at IS NOT NULL AND delivered_at < ?) OR "
                "(gave_up_at IS NOT NULL AND gave_up_at < ?)", (before, before))
            return int(cursor.rowcount)

    # -- maintenance -----------------------------------------------------------------
    async def integrity_problems(self, *, quick: bool = False) -> list[str]:
        """What is wrong with the database (empty when healthy): SQLite's integrity and foreign-key
        checks (``quick`` leaves out the index contents), or a PostgreSQL schema's version and tables."""
        return await self.dialect.integrity_problems(quick=quick)

    async def checkpoint_wal(self) -> None:
        """Fold the write-ahead log into the main file (SQLite; the server manages its own)."""
        await self.dialect.checkpoint_wal()
