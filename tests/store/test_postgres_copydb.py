"""``python -m bot copy-db``: a SQLite database with games in every state goes into PostgreSQL and
back, and nothing is lost (every row of every table equal, every game replays to its snapshot)."""

from __future__ import annotations

import asyncio
import itertools
import sqlite3
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.clock import FakeClock
from bot.copydb import CopyError, copy_db
from bot.leagues.service import Actor, LeagueService
from bot.models import MessageRef, OutboxItem, TimerSettings, UserSettings
from bot.service import GameService
from bot.storage import GameStore, open_store
from engine.registry import make_policy
from tests.support import pg

GAME = "history-classic"
DAY = 86400
T0 = 1_704_067_200


@pytest.fixture
def server() -> pg.Server:
    srv = pg.server()
    if srv is None:
        pytest.skip(pg.WHY_NOT[0])
    return srv


async def play(svc: GameService, gid: str, moves: int) -> None:
    for _ in range(moves):
        status = await svc.status(gid)
        if status.status != "active":
            return
        user = status.waiting_for[0]
        seq, state = await svc.engine_state(gid)
        seat = next(s.seat for s in status.seats if s.user_id == user)
        assert seat is not None
        await svc.submit(gid, user, make_policy(GAME, "random", seq).choose(state, seat).to_json(), seq)


async def started(svc: GameService, people: tuple[int, ...]) -> str:
    gid = (await svc.create_lobby(people[0], f"P{people[0]}", GAME,
                                  timers=TimerSettings(move_seconds=DAY, reminder_offsets=(3600,)))).game_id
    for user in people[1:]:
        await svc.join(gid, user, f"P{user}")
    await svc.start(gid, people[0])
    return gid


async def fill(target: str) -> dict[str, str]:
    """Games in every state, league games (one running, one over and rated), settings, messages."""
    store = await open_store(target)
    clock = FakeClock(T0)
    counter = itertools.count(1)
    svc = GameService(store, clock, id_factory=lambda: f"g{next(counter)}", seed_factory=lambda: 7,
                      checkpoint_every=5)
    leagues = await LeagueService.open(svc, clock)
    try:
        states: dict[str, str] = {}
        states["lobby"] = (await svc.create_lobby(1, "Ann", GAME)).game_id
        states["active"] = await started(svc, (1, 2, 3))
        await play(svc, states["active"], 12)
        states["paused"] = await started(svc, (4, 5, 6))
        await play(svc, states["paused"], 3)
        await svc.pause(states["paused"], 4)
        states["abandoned"] = await started(svc, (7, 8, 9))
        await svc.abandon(states["abandoned"], 7)
        states["over"] = await started(svc, (1, 4, 7))
        for seat in range(3):
            await svc.replace_seat(states["over"], 1, seat)  # the AI plays it to the end
        admin = Actor(1, manages_server=True)
        league = await leagues.create_league(admin, 77, "Sunday League", [GAME])
        await leagues.open_season(league.league_id, admin, T0, T0 + 30 * DAY)
        for user in (11, 12, 13, 14, 15, 16):
            await leagues.sign_up(league.league_id, user, f"L{user}")
        running = await leagues.pair(league.league_id, admin, [11, 12, 13], GAME)
        states["league running"] = running.game.game_id
        await play(svc, states["league running"], 4)
        rated = await leagues.pair(league.league_id, admin, [14, 15, 16], GAME)
        states["league over"] = rated.game.game_id
        for seat in range(3):
            await svc.replace_seat(states["league over"], 1, seat, is_admin=True)
        await store.set_user_settings(UserSettings(2, dm_allowed=False, reminders="last",
                                                   reminder_offsets=(600,)), T0)
        await store.set_message(MessageRef(states["active"], "board", 100, 200, 3), T0)
        for state, gid in states.items():
            row = await store.get_game(gid)
            assert row is not None
            want = state.split()[-1].replace("running", "active")
            assert row.status == want, (state, row.status)
        assert await store.game_deadlines(states["active"])
        return states
    finally:
        await leagues.close()
        await store.close()


async def dump(target: str) -> dict[str, list[tuple[object, ...]]]:
    """Every row of every table (the columns both dialects have), in a stable order."""
    store = await open_store(target)
    try:
        out: dict[str, list[tuple[object, ...]]] = {}
        for table in ("guild_settings", "user_settings", "games", "seats", "actions", "snapshots",
                      "checkpoints", "deadlines", "messages", "leagues", "league_seasons", "league_signups",
                      "league_queue", "league_games", "league_ratings", "league_reliability", "outbox"):
            out[table] = await rows(store, table)
        return out
    finally:
        await store.close()


async def rows(store: GameStore, table: str) -> list[tuple[object, ...]]:
    async with store.transaction() as conn:
        found = await (await conn.execute(f"SELECT {', '.join(COLUMNS[table])} FROM {table}")).fetchall()
    return sorted((tuple(r) for r in found), key=repr)


COLUMNS: dict[str, list[str]] = {}


def sqlite_columns(path: str) -> None:
    with sqlite3.connect(path) as conn:
        for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'"):
            COLUMNS[name] = [r[1] for r in conn.execute(f'PRAGMA table_info("{name}")')]


def test_postgres_copy_db_moves_every_state_up_and_back(server: pg.Server, tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    source = str(tmp_path / "annals.sqlite3")
    states = asyncio.run(fill(source))
    assert len(states) == 7
    up = pg.fresh_database(server, migrated=False)
    assert main(["copy-db", source, up]) == 0
    assert "games replayed on the target and equal to their snapshots" in capsys.readouterr().out
    back = str(tmp_path / "back.sqlite3")
    assert main(["copy-db", up, back]) == 0
    sqlite_columns(source)
    before = asyncio.run(dump(source))
    assert all(before[t] for t in ("games", "seats", "actions", "snapshots", "checkpoints", "deadlines",
                                   "messages", "user_settings", "leagues", "league_games", "league_ratings",
                                   "outbox"))
    assert asyncio.run(dump(back)) == before  # SQLite -> PostgreSQL -> SQLite: every row the same
    # and PostgreSQL holds them too, games playable there (the service loads and verifies each)
    pg_rows = asyncio.run(audited_games(up))
    assert pg_rows == sorted(states.values())


async def audited_games(url: str) -> list[str]:
    store = await open_store(url)
    try:
        svc = GameService(store, FakeClock(T0), cache_size=0)
        audit = await svc.audit()
        assert audit.problems == [] and audit.checked == 7
        # the copied notices keep their ids, and new ones are numbered after them
        copied = await store.outbox_rows()
        gid = copied[-1].game_id
        new = await store.enqueue([OutboxItem(gid, "public", 0, {"notices": []}, "copy-db-test")], T0)
        assert new == [max(r.id for r in copied) + 1]
        return sorted(await store.game_ids(statuses=("lobby", "active", "paused", "over", "abandoned")))
    finally:
        await store.close()


def test_postgres_copy_db_refuses_a_non_empty_target_and_itself(server: pg.Server, tmp_path: Path) -> None:
    source = str(tmp_path / "annals.sqlite3")
    asyncio.run(fill(source))
    target = pg.fresh_database(server)
    assert asyncio.run(copy_db(source, target)).games == 7
    with pytest.raises(CopyError, match="the target is not empty"):
        asyncio.run(copy_db(source, target))
    with pytest.raises(CopyError, match="the same database"):
        asyncio.run(copy_db(source, f"sqlite:///{source}"))
    assert main(["copy-db", source]) == 2  # one database named: the usage line, nothing copied


def test_postgres_every_state_and_the_leagues_can_be_made_on_the_server_itself(
        server: pg.Server, tmp_path: Path) -> None:
    """The same games made through the service on PostgreSQL (the league store's SQL included: ratings
    are written by INSERT ... SELECT), then copied down to SQLite and checked there."""
    url = pg.fresh_database(server)
    states = asyncio.run(fill(url))
    assert asyncio.run(audited_games(url)) == sorted(states.values())
    down = str(tmp_path / "down.sqlite3")
    report = asyncio.run(copy_db(url, down))
    assert report.games == 7 and report.rows["league_ratings"] > 0
    assert asyncio.run(audited_games(down)) == sorted(states.values())
