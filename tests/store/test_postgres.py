"""What only the PostgreSQL store does: several processes (here: several stores, each with its own
pool, as separate bot processes have) on one database, its migrations, its claims and its errors.

The store, service, scheduler and crash tests run on PostgreSQL too (their ``[postgres]`` variants,
through the ``db_target`` fixture of conftest.py); this file holds the rest.
"""

from __future__ import annotations

import asyncio
import itertools
import sqlite3
from pathlib import Path

import asyncpg  # type: ignore[import-untyped]  # ships no type information
import pytest

from bot.clock import FakeClock
from bot.models import Deadline, GameChange, GameRow, SeatRow, TimerSettings
from bot.postgres_dialect import pg_migrations, pg_sql, redacted
from bot.service import GameService, ServiceError
from bot.sqlite_dialect import SqliteDialect
from bot.storage import is_postgres, open_store, sqlite_path
from bot.store import (
    MIGRATIONS_DIR,
    ConstraintViolation,
    MigrationError,
    Store,
    StoreBusy,
    StoreConflict,
    StoreError,
    list_migrations,
)
from engine.registry import make_policy
from tests.support import pg

GAME = "history-classic"


@pytest.fixture
def server() -> pg.Server:
    srv = pg.server()
    if srv is None:
        pytest.skip(pg.WHY_NOT[0])
    return srv


@pytest.fixture
def postgres_url(server: pg.Server) -> str:
    """A fresh migrated database (the name says postgres, so ``-k postgres`` selects every test here)."""
    return pg.fresh_database(server)


@pytest.fixture
def empty_postgres_url(server: pg.Server) -> str:
    """A fresh database without the schema."""
    return pg.fresh_database(server, migrated=False)


def lobby(game_id: str = "g1", now: int = 1000) -> GameRow:
    return GameRow(game_id=game_id, ruleset=GAME, options={}, seed=1, status="lobby", creator_id=1,
                   max_seats=5, created_at=now, updated_at=now, seq=0, timers=TimerSettings())


# -- choosing the store ----------------------------------------------------------------------


def test_postgres_and_sqlite_targets_are_told_apart() -> None:
    assert is_postgres("postgresql://u@h/db") and is_postgres("postgres://h/db")
    assert not is_postgres("annals.sqlite3") and not is_postgres("sqlite:///x/annals.sqlite3")
    assert sqlite_path("sqlite:///x/annals.sqlite3") == "x/annals.sqlite3"
    assert sqlite_path("annals.sqlite3") == "annals.sqlite3"


def test_postgres_placeholders_are_numbered_outside_quotes() -> None:
    assert pg_sql("SELECT a FROM t WHERE b = ? AND c IN (?, ?)") == \
        "SELECT a FROM t WHERE b = $1 AND c IN ($2, $3)"
    assert pg_sql("SELECT '?' || x FROM t WHERE y = ?") == "SELECT '?' || x FROM t WHERE y = $1"
    assert pg_sql("SELECT 'it''s ?' WHERE z = ?") == "SELECT 'it''s ?' WHERE z = $1"


def test_postgres_url_passwords_never_reach_a_message() -> None:
    assert redacted("postgresql://annals:s3cret@db.example:5432/annals") == \
        "postgresql://annals:***@db.example:5432/annals"


@pytest.mark.asyncio
async def test_postgres_no_setting_still_opens_the_embedded_sqlite_default(
        monkeypatch: pytest.MonkeyPatch, tmp_path: object) -> None:
    monkeypatch.chdir(str(tmp_path))
    monkeypatch.delenv("ANNALS_DB", raising=False)
    store = await open_store()
    try:
        assert isinstance(store, Store) and isinstance(store.dialect, SqliteDialect)
        assert store.path == "annals.sqlite3"
    finally:
        await store.close()


@pytest.mark.asyncio
async def test_postgres_an_unreachable_server_gets_one_clear_sentence() -> None:
    with pytest.raises(StoreError, match=r"Cannot open the PostgreSQL database .*Check ANNALS_DB") as info:
        await open_store("postgresql://annals:hunter2@/annals?host=/nonexistent-socket-dir",
                         migrate=False)
    assert "hunter2" not in str(info.value)


# -- migrations ------------------------------------------------------------------------------


@pytest.mark.asyncio
async def test_postgres_processes_opening_a_fresh_database_together_migrate_it_once(
        empty_postgres_url: str) -> None:
    """Issue 14 point 9 for the server: openers racing on an empty database all succeed."""
    url = empty_postgres_url
    stores = await asyncio.gather(*(Store.open(url) for _ in range(4)))
    try:
        versions = {await s.user_version() for s in stores}
        assert versions == {len(list_migrations(MIGRATIONS_DIR))}
        tables = set(await stores[0].table_columns())
        assert {"games", "seats", "actions", "deadlines", "leagues", "league_games"} <= tables
        assert await stores[0].integrity_problems() == []
        pragmas = await stores[0].pragmas()
        assert pragmas["transaction_isolation"] == "read committed" and pragmas["lock_timeout"] == "10s"
    finally:
        for s in stores:
            await s.close()


def test_postgres_migrations_are_sqlites_with_their_own_where_the_dialects_differ() -> None:
    """PostgreSQL runs SQLite's migrations, in the same order, each followed by its own file of the
    same name where PostgreSQL needs more; a file of another name is refused."""
    sqlite = list_migrations(MIGRATIONS_DIR)
    postgres = pg_migrations()
    assert [paths[0] for _, paths in postgres] == [p for _, p in sqlite]  # SQLite's own files, first
    assert [paths[-1].name for _, paths in postgres] == [p.name for _, p in sqlite]
    own = {paths[-1].name for _, paths in postgres if paths[-1].parent.name == "postgres"}
    assert own == {"0001_initial.sql", "0006_outbox.sql"}  # revision and claim columns; identity ids


def test_postgres_refuses_a_migration_of_its_own_without_a_sqlite_twin(tmp_path: Path) -> None:
    (tmp_path / "0099_orphan.sql").write_text("SELECT 1;")
    with pytest.raises(MigrationError, match=r"0099_orphan\.sql"):
        pg_migrations(tmp_path)


@pytest.mark.asyncio
async def test_postgres_a_failing_file_of_its_own_is_named_and_its_migration_rolled_back(
        empty_postgres_url: str, tmp_path: Path) -> None:
    """SQLite's 0001 and PostgreSQL's run in one transaction: when PostgreSQL's fails, the error names
    that file (not SQLite's, which ran fine) and neither leaves a trace."""
    own = tmp_path / "postgres"
    own.mkdir()
    (own / "0001_initial.sql").write_text("ALTER TABLE games ADD COLUMN revision NO_SUCH_TYPE;")
    with pytest.raises(MigrationError, match=r"^postgres/0001_initial\.sql failed and was rolled back"):
        await Store.open(empty_postgres_url, migrations_dir=own)
    store = await Store.open(empty_postgres_url)  # the real files then apply from the start
    try:
        assert await store.user_version() == len(list_migrations(MIGRATIONS_DIR))
    finally:
        await store.close()


# -- several processes on one database -------------------------------------------------------


@pytest.mark.asyncio
async def test_postgres_a_stale_copy_cannot_overwrite_a_change_that_kept_the_seq(postgres_url: str) -> None:
    """Issue 14 point 8: two processes; a seat written by one is never silently overwritten by the
    other, although a lobby join does not advance the log."""
    one, two = await Store.open(postgres_url), await Store.open(postgres_url)
    try:
        await one.create_game(lobby(), [SeatRow("g1", 0, "Ann", 1000, user_id=1)])
        assert await one.load_bundle("g1") is not None and await two.load_bundle("g1") is not None
        join = GameChange(game_id="g1", expected_seq=0, updated_at=1001, new_seq=0, expected_status="lobby",
                          seats_upsert=[SeatRow("g1", 1, "Bob", 1001, user_id=2)])
        await one.apply_change(join)
        stale = GameChange(game_id="g1", expected_seq=0, updated_at=1002, new_seq=0, expected_status="lobby",
                           seats_upsert=[SeatRow("g1", 1, "Cyd", 1002, user_id=3)])
        with pytest.raises(StoreConflict):
            await two.apply_change(stale)
        assert [s.display_name for s in await two.get_seats("g1")] == ["Ann", "Bob"]
        await two.load_bundle("g1")  # what the service does after a conflict: reload, then retry
        await two.apply_change(GameChange(game_id="g1", expected_seq=0, updated_at=1003, new_seq=0,
                                          seats_upsert=[SeatRow("g1", 2, "Cyd", 1003, user_id=3)]))
        assert [s.display_name for s in await one.get_seats("g1")] == ["Ann", "Bob", "Cyd"]
    finally:
        await one.close()
        await two.close()


@pytest.mark.asyncio
async def test_postgres_the_lobby_join_race_gives_30_correct_outcomes(postgres_url: str) -> None:
    """Two services (two processes' worth: own store, own cache) join people into the same lobby at
    once, 30 times: everyone told "joined" has a seat, nobody else has one, and no seat is shared."""
    clock = FakeClock()
    counter = itertools.count(1)
    stores = [await Store.open(postgres_url) for _ in range(2)]
    services = [GameService(s, clock, id_factory=lambda: f"race{next(counter)}") for s in stores]
    try:
        for round_ in range(30):
            out = await services[0].create_lobby(1, "Ann", GAME)
            gid = out.game_id
            for svc in services:
                await svc.status(gid)  # both hold the lobby in their caches, as live processes do
            users = (10 + round_ * 2, 11 + round_ * 2)

            async def join(svc: GameService, user: int, gid: str = gid) -> bool:
                try:
                    await svc.join(gid, user, f"P{user}")
                except ServiceError as exc:
                    assert exc.code == "conflict", exc.message
                    return False
                return True

            told = await asyncio.gather(join(services[0], users[0]), join(services[1], users[1]))
            seated = {s.user_id for s in await stores[0].get_seats(gid)}
            joined = {u for u, ok in zip(users, told, strict=True) if ok}
            assert seated == {1} | joined, f"round {round_}: told {joined}, seated {seated}"
            assert joined, "one of the two joins must go through"
    finally:
        for s in stores:
            await s.close()


@pytest.mark.asyncio
async def test_postgres_each_due_deadline_is_claimed_by_one_process(postgres_url: str) -> None:
    one, two = await Store.open(postgres_url), await Store.open(postgres_url)
    try:
        await one.create_game(lobby(), [SeatRow("g1", 0, "Ann", 1000, user_id=1)])
        rows = [Deadline(f"g1:1:{p}:turn", "g1", 1, p, 1, "turn", 5000 + p) for p in range(6)]
        await one.apply_change(GameChange(game_id="g1", expected_seq=0, updated_at=1001, new_seq=0,
                                          status="active", new_deadlines=rows))
        claims = await asyncio.gather(*(s.claim_deadlines(due_before=6000) for s in (one, two)))
        mine, theirs = ({d.deadline_id for d in c} for c in claims)
        assert not mine & theirs and mine | theirs == {d.deadline_id for d in rows}
        # a process may claim its own rows again (to retry), never the other's
        again = await asyncio.gather(*(s.claim_deadlines(due_before=6000) for s in (one, two)))
        assert ({d.deadline_id for d in again[0]}, {d.deadline_id for d in again[1]}) == (mine, theirs)
        # a process that stops hands back what it claimed and did not fire
        await one.close()
        assert {d.deadline_id for d in await two.claim_deadlines(due_before=6000)} == mine | theirs
        # not yet due: not claimed
        assert await two.claim_deadlines(due_before=4999) == []
    finally:
        await one.close()
        await two.close()


# -- errors ----------------------------------------------------------------------------------


@pytest.mark.asyncio
async def test_postgres_a_lock_held_too_long_is_busy_and_writes_nothing(postgres_url: str) -> None:
    store = await Store.open(postgres_url, busy_timeout_ms=200)
    holder = await asyncpg.connect(postgres_url)  # another process, holding the game's row
    try:
        await store.create_game(lobby(), [])
        async with holder.transaction():
            await holder.execute("SELECT 1 FROM games WHERE game_id = 'g1' FOR UPDATE")
            with pytest.raises(StoreBusy, match="busy"):
                await store.apply_change(GameChange(game_id="g1", expected_seq=0, updated_at=1001,
                                                    new_seq=0, status="active"))
        row = await store.get_game("g1")
        assert row is not None and row.status == "lobby"
    finally:
        await holder.close()
        await store.close()


@pytest.mark.asyncio
async def test_postgres_constraint_violations_are_the_stores_own_error(postgres_url: str) -> None:
    """Issue 31, point 5: PostgreSQL's store raised a subclass of sqlite3's IntegrityError; both
    dialects now raise the store's ConstraintViolation, and no sqlite3 class comes from a server."""
    store = await Store.open(postgres_url)
    try:
        with pytest.raises(ConstraintViolation) as info:
            async with store.transaction() as conn:
                await conn.execute("INSERT INTO messages (game_id, purpose, channel_id, message_id, "
                                   "updated_at) VALUES (?, ?, ?, ?, ?)", ("nope", "board", 1, 2, 3))
        assert not isinstance(info.value, sqlite3.Error)
        with pytest.raises(StoreConflict):
            await store.apply_change(GameChange(game_id="nope", expected_seq=0, updated_at=1, new_seq=1))
    finally:
        await store.close()


@pytest.mark.asyncio
async def test_postgres_a_process_drops_its_copy_of_a_game_another_process_changed(postgres_url: str) -> None:
    """Without it, a process would show the board as it last wrote it until its next write conflicted."""
    one, two = await Store.open(postgres_url), await Store.open(postgres_url)
    try:
        counter = itertools.count(1)
        reader = GameService(one, FakeClock(), id_factory=lambda: f"f{next(counter)}")
        writer = GameService(two, FakeClock())
        forgotten: list[str] = []

        def changed(game_id: str) -> None:
            forgotten.append(game_id)
            reader.forget(game_id)

        listening = await one.listen(changed)
        assert listening is not None  # a shared store: there is something to hear
        gid = (await reader.create_lobby(1, "Ann", GAME)).game_id
        for user in (2, 3):
            await reader.join(gid, user, f"P{user}")
        status = (await reader.start(gid, 1)).status
        assert (await writer.status(gid)).seq == status.seq
        seq, state = await writer.engine_state(gid)
        user = status.waiting_for[0]
        seat = next(s.seat for s in status.seats if s.user_id == user)
        assert seat is not None
        await writer.submit(gid, user, make_policy(GAME, "random", seq).choose(state, seat).to_json(), seq)

        async def heard() -> None:
            while gid not in forgotten:
                await asyncio.sleep(0.01)

        await asyncio.wait_for(heard(), 10)
        assert (await reader.status(gid)).seq == seq + 1  # read afresh, without writing first
        assert forgotten == [gid]  # its own changes are not reported back to it
        await listening.close()
        assert not await listening.lost()  # closed on purpose, not dropped
    finally:
        await one.close()
        await two.close()
