"""The SQLite store: connection settings, migrations (fresh, re-run, broken), guarded writes."""

from __future__ import annotations

import os
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot.models import (
    ActionRow,
    Deadline,
    GameChange,
    GameRow,
    GuildSettings,
    MessageRef,
    SeatRow,
    Snapshot,
    TimerSettings,
    UserSettings,
)
from bot.store import (
    MIGRATIONS_DIR,
    ConstraintViolation,
    MigrationError,
    Store,
    StoreConflict,
    StoreError,
    default_db_path,
    list_migrations,
)

pytestmark = pytest.mark.asyncio
TABLES = {"guild_settings", "games", "seats", "actions", "snapshots", "checkpoints", "deadlines",
          "user_settings", "messages"}


def tables(path: Path) -> set[str]:
    with sqlite3.connect(path) as conn:
        return {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def user_version(path: Path) -> int:
    with sqlite3.connect(path) as conn:
        return int(conn.execute("PRAGMA user_version").fetchone()[0])


def lobby(game_id: str = "g1", now: int = 1000) -> GameRow:
    return GameRow(game_id=game_id, ruleset="history-classic", options={}, seed=7, status="lobby",
                   creator_id=1, max_seats=6, created_at=now, updated_at=now, timers=TimerSettings())


# -- connection and migrations -------------------------------------------------------------


async def test_fresh_database_is_migrated_with_the_right_pragmas(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "annals.sqlite3")  # SQLite's pragmas (test_postgres: the server's)
    assert await store.user_version() == len(list_migrations(MIGRATIONS_DIR))
    assert tables(tmp_path / "annals.sqlite3") >= TABLES
    pragmas = await store.pragmas()
    assert pragmas["journal_mode"] == "wal"
    assert pragmas["synchronous"] == 2  # FULL
    assert pragmas["foreign_keys"] == 1
    assert pragmas["busy_timeout"] > 0
    assert await store.integrity_problems() == []
    await store.close()


async def test_migrations_are_idempotent(tmp_path: Path) -> None:
    path = tmp_path / "a.sqlite3"
    async with await Store.open(path) as first:
        await first.create_game(lobby(), [SeatRow("g1", 0, "Ann", 1000, user_id=1)])
        version = await first.user_version()
        assert await first.migrate() == version  # a second run in the same process
    async with await Store.open(path) as second:  # and a restart
        assert await second.user_version() == version
        assert (await second.get_game("g1")) is not None


async def test_a_broken_migration_is_rolled_back_whole(tmp_path: Path) -> None:
    migrations = tmp_path / "migrations"
    migrations.mkdir()
    shutil.copy(MIGRATIONS_DIR / "0001_initial.sql", migrations / "0001_initial.sql")
    path = tmp_path / "b.sqlite3"
    async with await Store.open(path, migrations_dir=migrations) as s:
        assert await s.user_version() == 1
    (migrations / "0002_broken.sql").write_text(
        "CREATE TABLE extra (x INTEGER);\n"
        "ALTER TABLE games ADD COLUMN league_id BIGINT;\n"
        "INSERT INTO no_such_table VALUES (1);\n"
    )
    with pytest.raises(MigrationError, match=r"0002_broken\.sql"):
        await Store.open(path, migrations_dir=migrations)
    assert user_version(path) == 1
    assert "extra" not in tables(path)
    with sqlite3.connect(path) as conn:
        assert "league_id" not in {r[1] for r in conn.execute("PRAGMA table_info(games)")}
    # fixed, it applies on the next start
    (migrations / "0002_broken.sql").write_text("CREATE TABLE extra (x INTEGER);\n")
    async with await Store.open(path, migrations_dir=migrations) as s:
        assert await s.user_version() == 2
    assert "extra" in tables(path)


async def test_a_broken_first_migration_leaves_an_empty_database(tmp_path: Path) -> None:
    migrations = tmp_path / "migrations"
    migrations.mkdir()
    (migrations / "0001_bad.sql").write_text("CREATE TABLE a (x INTEGER);\nCREATE TABLE a (y INTEGER);\n")
    path = tmp_path / "c.sqlite3"
    with pytest.raises(MigrationError):
        await Store.open(path, migrations_dir=migrations)
    assert user_version(path) == 0
    assert tables(path) == set()


async def test_migration_files_must_be_numbered_without_gaps(tmp_path: Path) -> None:
    (tmp_path / "0001_a.sql").write_text("SELECT 1;")
    (tmp_path / "0003_c.sql").write_text("SELECT 1;")
    with pytest.raises(MigrationError, match="without gaps"):
        list_migrations(tmp_path)
    (tmp_path / "0003_c.sql").unlink()
    (tmp_path / "2_b.sql").write_text("SELECT 1;")
    with pytest.raises(MigrationError, match="NNNN_name"):
        list_migrations(tmp_path)


async def test_a_database_newer_than_the_code_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "d.sqlite3"
    async with await Store.open(path):
        pass
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA user_version = 99")
    with pytest.raises(MigrationError, match="newer"):
        await Store.open(path)


async def test_default_path_honours_annals_db(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ANNALS_DB", raising=False)
    assert default_db_path() == "annals.sqlite3"
    monkeypatch.setenv("ANNALS_DB", "/data/annals.db")
    assert default_db_path() == "/data/annals.db"


# -- writes ------------------------------------------------------------------------------


async def test_a_change_is_written_whole_or_not_at_all(store: Store) -> None:
    await store.create_game(lobby(), [SeatRow("g1", 0, "Ann", 1000, user_id=1)])
    with pytest.raises(StoreConflict):
        await store.create_game(lobby(), [])
    change = GameChange(
        game_id="g1", expected_seq=0, updated_at=1001, new_seq=1, status="active",
        actions=[ActionRow("g1", 1, 0, {"kind": "keep", "player": 0}, "human", 1001, 1)],
        snapshot=Snapshot("g1", 1, '{"x": 1}'),
        seats_upsert=[SeatRow("g1", 0, "Ann", 1000, user_id=1, seat_order=0, colour="Red")],
        new_deadlines=[Deadline("g1:1:0:turn", "g1", 1, 0, 1, "turn", 5000)],
    )
    await store.apply_change(change)
    game = await store.get_game("g1")
    assert game is not None and game.seq == 1 and game.status == "active"
    assert [a.seq for a in await store.actions("g1")] == [1]
    assert (await store.snapshot("g1")) == Snapshot("g1", 1, '{"x": 1}')
    assert [d.deadline_id for d in await store.pending_deadlines()] == ["g1:1:0:turn"]
    # replaying the same change (a stale writer) is refused and writes nothing
    with pytest.raises(StoreConflict):
        await store.apply_change(change)
    # a change that fails half-way (duplicate log entry) leaves no trace
    bad = GameChange(
        game_id="g1", expected_seq=1, updated_at=1002, new_seq=2,
        actions=[ActionRow("g1", 2, 0, {"kind": "done"}, "human", 1002),
                 ActionRow("g1", 2, 0, {"kind": "done"}, "human", 1002)],
        snapshot=Snapshot("g1", 2, "{}"), clear_all_deadlines=True,
    )
    with pytest.raises(ConstraintViolation):
        await store.apply_change(bad)
    game = await store.get_game("g1")
    assert game is not None and game.seq == 1
    assert await store.log_bounds("g1") == (1, 1, 1)
    assert (await store.snapshot("g1")) == Snapshot("g1", 1, '{"x": 1}')
    assert len(await store.game_deadlines("g1")) == 1


async def test_transaction_rolls_back_on_error(store: Store) -> None:
    with pytest.raises(RuntimeError):
        async with store.transaction() as conn:
            await conn.execute("INSERT INTO user_settings (user_id, updated_at) VALUES (5, 1)")
            raise RuntimeError("boom")
    assert await store.get_user_settings(5) == UserSettings(5)


async def test_settings_and_message_map_round_trip(store: Store) -> None:
    await store.set_user_settings(UserSettings(7, dm_allowed=False, reminders="last"), 10)
    assert await store.get_user_settings(7) == UserSettings(7, False, "last")
    await store.set_guild_settings(GuildSettings(3, games_channel_id=11, defaults={"move_seconds": 60}), 10)
    assert await store.get_guild_settings(3) == GuildSettings(3, 11, None, {"move_seconds": 60})
    await store.create_game(lobby(), [])
    await store.set_message(MessageRef("g1", "board", 100, 200, 5), 10)
    await store.set_message(MessageRef("g1", "board", 100, 201, 6), 11)
    assert await store.messages("g1") == {"board": MessageRef("g1", "board", 100, 201, 6)}
    await store.delete_message("g1", "board")
    assert await store.messages("g1") == {}


async def test_foreign_keys_are_enforced(store: Store) -> None:
    with pytest.raises(ConstraintViolation):
        await store.set_message(MessageRef("nope", "board", 1, 2), 1)


async def test_closing_twice_is_harmless(tmp_path: Path) -> None:
    s = await Store.open(tmp_path / "e.sqlite3")
    await s.close()
    await s.close()


@pytest.mark.parametrize("make, words", [
    (lambda d: d / "missing" / "annals.sqlite3", "does not exist; create it or choose another ANNALS_DB"),
    (lambda d: d, "is a folder; ANNALS_DB names the database file"),
    (lambda d: d / "notes.txt", "is not an Annals database"),
    (lambda d: ":memory:", "cannot be ':memory:'"),  # it waited for WAL mode for ever
])
async def test_a_path_that_cannot_be_a_database_gets_one_clear_sentence(
        tmp_path: Path, make: Any, words: str) -> None:
    """Issue 16: a bad ANNALS_DB path or a file that is not a database printed a 35-line traceback."""
    (tmp_path / "notes.txt").write_text("shopping: bread, milk\n" * 100)
    with pytest.raises(StoreError) as info:
        await Store.open(make(tmp_path))
    assert words in str(info.value) and "\n" not in str(info.value)
    assert (tmp_path / "notes.txt").read_text().startswith("shopping")  # nothing written over it


async def test_a_read_only_opening_reads_and_cannot_write(db_target: str) -> None:
    """``python -m bot check`` opens the database so (issue 24, point 7): what it reads is there, and
    a write through it fails in the database itself, whichever database it is."""
    from bot.storage import open_store

    writer = await open_store(db_target)
    await writer.set_user_settings(UserSettings(7, dm_allowed=False, reminders="last"), 10)
    await writer.close()
    reader = await open_store(db_target, read_only=True)
    try:
        assert await reader.get_user_settings(7) == UserSettings(7, False, "last")
        assert await reader.user_version() == reader.latest_version()
        with pytest.raises(Exception, match=r"(?i)read.?only"):
            await reader.set_user_settings(UserSettings(8), 11)
        assert await reader.get_user_settings(8) == UserSettings(8)
    finally:
        await reader.close()


async def test_a_fresh_file_another_writer_is_creating_is_in_use_not_empty(tmp_path: Path) -> None:
    """The writer creates a new file only once it holds the lock; meanwhile the file is empty. A
    second bot must hear that the database is in use, not that it is empty."""
    from bot.store import DatabaseInUse, NotADatabase, hold_writer_lock

    db = tmp_path / "annals.sqlite3"
    fd = hold_writer_lock(str(db))
    assert fd is not None
    db.write_bytes(b"")  # the first writer has created it and not written its first page yet
    try:
        with pytest.raises(DatabaseInUse):
            await Store.open(db, exclusive=True)
    finally:
        os.close(fd)
    with pytest.raises(NotADatabase, match="is empty"):  # nobody creating it: it is what it looks like
        await Store.open(db, exclusive=True)
    assert db.read_bytes() == b""
