"""Online backups: whole, healthy copies named by the clock; only the newest N are kept; restore works."""

from __future__ import annotations

import asyncio
import itertools
import shutil
import sqlite3
from pathlib import Path

import pytest

from bot.backup import BackupError, BackupManager
from bot.clock import FakeClock
from bot.models import TimerSettings
from bot.service import GameService
from bot.store import Store

pytestmark = pytest.mark.asyncio
GAME = "history-classic"


def games_in(path: Path) -> set[str]:
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"  # one self-contained file
        return {r[0] for r in conn.execute("SELECT game_id FROM games")}
    finally:
        conn.close()


async def new_game(svc: GameService) -> str:
    timers = TimerSettings(move_seconds=3600, reminder_offsets=(600,))
    out = await svc.create_lobby(1, "P1", GAME, seed=42, timers=timers)
    await svc.add_ai(out.game_id, 1)
    await svc.add_ai(out.game_id, 1)
    await svc.start(out.game_id, 1)
    return out.game_id


async def test_backups_open_hold_the_games_and_only_the_last_n_are_kept(tmp_path: Path) -> None:
    clock = FakeClock()  # 2024-01-01 00:00 UTC
    db = tmp_path / "annals.sqlite3"
    counter = itertools.count(1)
    store = await Store.open(db)
    svc = GameService(store, clock, id_factory=lambda: f"g{next(counter)}")
    backups = BackupManager(db, tmp_path / "backups", keep=3, clock=clock)
    made: list[tuple[Path, set[str]]] = []
    try:
        for _ in range(5):
            await new_game(svc)
            path = await backups.backup_now()  # online: the store stays open
            made.append((path, {r.game_id for r in await store.list_games()}))
            clock.advance(3600)
    finally:
        await store.close()
    assert [p.name for p, _ in made] == [f"annals-20240101-0{h}0000Z.sqlite3" for h in range(5)]
    kept = backups.backups()
    assert kept == [p for p, _ in made[-3:]]
    assert sorted(p.name for p in (tmp_path / "backups").iterdir()) == [p.name for p in kept]  # no leftovers
    for path, games in made[-3:]:
        assert games_in(path) == games
    assert games_in(kept[-1]) == {"g1", "g2", "g3", "g4", "g5"}


async def test_two_backups_in_one_second_get_distinct_names(tmp_path: Path) -> None:
    db = tmp_path / "a.sqlite3"
    async with await Store.open(db):
        backups = BackupManager(db, tmp_path / "b", keep=5, clock=FakeClock())
        first, second = await backups.backup_now(), await backups.backup_now()
    assert first != second and second.name == "annals-20240101-000000Z-1.sqlite3"
    assert backups.backups() == [first, second]
    backups.keep = 1
    assert backups.prune() == [first] and backups.backups() == [second]


async def test_a_backup_taken_under_load_is_consistent_and_restores(tmp_path: Path) -> None:
    clock = FakeClock()
    db = tmp_path / "annals.sqlite3"
    counter = itertools.count(1)
    store = await Store.open(db)
    svc = GameService(store, clock, id_factory=lambda: f"g{next(counter)}")
    backups = BackupManager(db, tmp_path / "backups", keep=2, clock=clock)
    try:
        games = await asyncio.gather(*(new_game(svc) for _ in range(3)))
        busy = asyncio.gather(*(new_game(svc) for _ in range(3)))
        path = await backups.backup_now()
        await busy
    finally:
        await store.close()
    # restore, as the README says: stop, copy over the database, drop -wal/-shm, start
    restored = tmp_path / "restored.sqlite3"
    shutil.copy(path, restored)
    async with await Store.open(restored) as again:
        assert await again.integrity_problems() == []
        svc2 = GameService(again, clock)
        found = {r.game_id for r in await again.list_games()}
        assert set(games) <= found
        for gid in found:
            assert await svc2.verify_game(gid) == []


async def test_a_missing_database_is_a_clear_error(tmp_path: Path) -> None:
    backups = BackupManager(tmp_path / "nope.sqlite3", tmp_path / "b", clock=FakeClock())
    with pytest.raises(BackupError, match="no database"):
        await backups.backup_now()
    assert backups.backups() == []
    with pytest.raises(ValueError):
        BackupManager(tmp_path / "x", tmp_path / "b", keep=0)
