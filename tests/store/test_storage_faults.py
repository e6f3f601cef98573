"""Storage faults of issue 14 (points 8, 9, 11, 12): two processes on one database, damaged records,
unreadable files, and the words a player reads when the disk or the lock fails."""

from __future__ import annotations

import asyncio
import hashlib
import logging
import os
import shutil
import sqlite3
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot.__main__ import main as bot_main
from bot.clock import FakeClock
from bot.models import NoticeKind
from bot.service import GameService, ServiceError
from bot.sqlite_dialect import SqliteDialect
from bot.store import DatabaseInUse, Store
from engine.registry import make_policy
from tests.store.test_upgrade import GAMES  # which fixture games today's rules still replay

ROOT = Path(__file__).resolve().parents[2]

# A child process that waits for the starting gun (a file appearing) and then opens the store,
# so two children race on the same fresh file as two bots started together would.
OPEN_AT_GO = textwrap.dedent("""
    import asyncio, os, sys, time
    from bot.store import Store
    db, go = sys.argv[1], sys.argv[2]
    open(f"{go}.{os.getpid()}", "w").close()  # ready
    while not os.path.exists(go):
        time.sleep(0.001)
    async def main() -> None:
        store = await Store.open(db)
        print(await store.user_version())
        await store.close()
    asyncio.run(main())
""")


def _child(script: str, *args: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen([sys.executable, "-c", script, *args], cwd=ROOT, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def test_two_processes_opening_a_fresh_database_at_once_both_succeed(tmp_path: Path) -> None:
    """Issue 14, point 9: "one dies in 9 of 10 trials ('table guild_settings already exists' or
    'database is locked')". Both must open it, ten times out of ten, at the newest schema."""
    newest = len(list((ROOT / "migrations").glob("*.sql")))
    for trial in range(10):
        db, go = tmp_path / f"fresh{trial}.sqlite3", tmp_path / f"go{trial}"
        children = [_child(OPEN_AT_GO, str(db), str(go)) for _ in range(2)]
        while len(list(tmp_path.glob(f"go{trial}.*"))) < 2:  # both imported, spinning on the gun
            time.sleep(0.01)
        go.touch()
        for child in children:
            out, err = child.communicate(timeout=60)
            assert child.returncode == 0, f"trial {trial}: {err}"
            assert out.strip() == str(newest)


# A child that becomes the database's writer (as a running bot does) and waits to be killed.
HOLD_AS_WRITER = textwrap.dedent("""
    import asyncio, sys
    from bot.store import Store
    async def main() -> None:
        store = await Store.open(sys.argv[1], exclusive=True)
        print("holding", flush=True)
        await asyncio.sleep(120)
        await store.close()
    asyncio.run(main())
""")


@pytest.mark.asyncio
async def test_a_second_writer_in_the_same_process_is_refused_until_the_first_closes(tmp_path: Path) -> None:
    db = tmp_path / "annals.sqlite3"
    first = await Store.open(db, exclusive=True)
    with pytest.raises(DatabaseInUse) as info:
        await Store.open(db, exclusive=True)
    assert "already using" in str(info.value) and "\n" not in str(info.value)
    await first.close()
    second = await Store.open(db, exclusive=True)  # the lock went with the first store
    await second.close()


def test_a_second_bot_or_console_on_a_live_database_is_refused_in_one_line(tmp_path: Path) -> None:
    """Issue 14, point 8: "in 28 of 30 races two people were both told 'joined' and one seat was
    silently overwritten ... Running the console against the live bot's database, or starting the bot
    twice, triggers it." The second process must not write at all: it is refused with one clear line,
    and once the first dies (even by SIGKILL) the file is free again."""
    db = tmp_path / "annals.sqlite3"
    holder = _child(HOLD_AS_WRITER, str(db))
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "holding"
        env = {**os.environ, "PYTHONPATH": str(ROOT), "ANNALS_DB": str(db)}
        env.pop("DISCORD_TOKEN", None)
        command = [sys.executable, "-m", "bot", "--console", "--env-file", str(tmp_path / "none")]
        second = subprocess.run(command, cwd=tmp_path, env=env, text=True, capture_output=True,
                                stdin=subprocess.DEVNULL, timeout=60)
        assert second.returncode == 1
        refusal = second.stderr.strip().splitlines()
        assert len(refusal) == 1 and f"process {holder.pid}" in refusal[0], second.stderr
        assert "already using" in refusal[0] and "Traceback" not in second.stderr
    finally:
        holder.kill()
        holder.communicate(timeout=30)

    async def reopen() -> None:
        store = await Store.open(db, exclusive=True)
        await store.close()
    asyncio.run(reopen())  # a killed writer leaves no stale lock behind


# -- start-up with a damaged game record (point 11) -------------------------------------------

KIND = "history-classic"
DAMAGES = {  # what a stray hand (or a bad disk sector) can do to one game's rows
    "snapshot not JSON": ["UPDATE snapshots SET state_json = '{\"half a state' WHERE game_id = ?"],
    "log entry not a move, no snapshot": [
        "UPDATE actions SET action_json = '{\"kind\": 7}' WHERE game_id = ?",
        "DELETE FROM snapshots WHERE game_id = ?"],
    "settings not JSON": ["UPDATE games SET options_json = 'garbage' WHERE game_id = ?"],
    "ruleset unknown": ["UPDATE games SET ruleset = 'no-such-game' WHERE game_id = ?"],
}


async def _three_games(db: Path) -> list[str]:
    store = await Store.open(db)
    counter = iter(range(1, 100))
    svc = GameService(store, FakeClock(), id_factory=lambda: f"g{next(counter)}", seed_factory=lambda: 42)
    games = []
    for creator in (10, 20, 30):
        gid = (await svc.create_lobby(creator, f"P{creator}", KIND)).game_id
        for user in (creator + 1, creator + 2):
            await svc.join(gid, user, f"P{user}")
        await svc.start(gid, creator)
        await _move(svc, gid)
        games.append(gid)
    await store.close()
    return games


async def _move(svc: GameService, gid: str) -> None:
    status = await svc.status(gid)
    user = status.waiting_for[0]
    seat = next(s.seat for s in status.seats if s.user_id == user)
    assert seat is not None
    seq, state = await svc.engine_state(gid)
    action = make_policy(KIND, "random", seq).choose(state, seat)
    await svc.submit(gid, user, action.to_json(), seq)


@pytest.mark.asyncio
@pytest.mark.parametrize("damage", sorted(DAMAGES))
async def test_a_damaged_game_is_set_aside_and_every_other_game_plays_on(
        tmp_path: Path, damage: str, caplog: pytest.LogCaptureFixture) -> None:
    """Issue 14, point 11: "One damaged game record stops the whole bot from starting (start-up loads
    every active game with no isolation)". After a restart with one damaged game, the others play on,
    the damaged one is marked, its creator told once, and the error logged once."""
    db = tmp_path / "annals.sqlite3"
    first, broken, last = await _three_games(db)
    with sqlite3.connect(db) as conn:
        for statement in DAMAGES[damage]:
            assert conn.execute(statement, (broken,)).rowcount > 0
    for restart in range(2):
        store = await Store.open(db)
        try:
            svc = GameService(store, FakeClock())
            outcomes = await svc.startup()
            told = [(o.game_id, n.kind, n.audience) for o in outcomes for n in o.notices
                    if n.kind is NoticeKind.damaged]
            assert told == ([(broken, NoticeKind.damaged, (20,))] if restart == 0 else [])
            assert list(await store.damaged_games()) == [broken]
            for gid in (first, last):
                await _move(svc, gid)  # plays on
            with pytest.raises(ServiceError) as info:
                await svc.status(broken)
            assert info.value.code == "damaged" and "backup" in info.value.message
            # its clocks pause: their rows stay (issue 24, point 6), but none of them is pending
            assert await store.game_deadlines(broken) != []
            assert all(d.game_id != broken for d in await store.pending_deadlines())
        finally:
            await store.close()
    assert sum("set aside" in r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR) == 1


def test_check_restore_puts_a_repaired_game_back_in_play_with_its_clocks_paused_meanwhile(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 24, "Storage faults told apart": a game set aside keeps its deadlines (paused), and `check`
    can restore it once it loads again; while it does not, it stays aside, saying why."""
    db = tmp_path / "annals.sqlite3"
    first, broken, _ = asyncio.run(_three_games(db))
    with sqlite3.connect(db) as conn:
        good = conn.execute("SELECT state_json FROM snapshots WHERE game_id = ?", (broken,)).fetchone()[0]
        conn.execute(DAMAGES["snapshot not JSON"][0], (broken,))

    async def start_up() -> dict[str, int]:
        store = await Store.open(db)
        try:
            await GameService(store, FakeClock()).startup()  # sets the broken game aside
            return {d.deadline_id: d.due_at for d in await store.game_deadlines(broken)}
        finally:
            await store.close()

    paused = asyncio.run(start_up())
    assert paused  # its clocks are kept, paused

    def restore(game_id: str) -> tuple[int, str, str]:
        monkeypatch.setenv("ANNALS_DB", str(db))
        monkeypatch.delenv("DISCORD_TOKEN", raising=False)
        status = bot_main(["check", "--restore", game_id, "--env-file", str(tmp_path / "none")])
        out, err = capsys.readouterr()
        return status, out, err

    status, _, err = restore(broken)
    assert status == 1 and err.startswith(f"Game {broken} still cannot be played: ")
    status, _, err = restore(first)
    assert status == 2 and "is not set aside as damaged" in err
    with sqlite3.connect(db) as conn:  # repaired by hand (or from a backup)
        conn.execute("UPDATE snapshots SET state_json = ? WHERE game_id = ?", (good, broken))
    status, out, _ = restore(broken)
    assert status == 0
    assert out.strip() == f"Game {broken} is back in play: its clocks run on from where they paused."
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT damage FROM games WHERE game_id = ?", (broken,)).fetchone()[0] is None
        after = dict(conn.execute("SELECT deadline_id, due_at FROM deadlines WHERE game_id = ?", (broken,)))
    assert set(after) == set(paused) and all(after[k] >= v for k, v in paused.items())


# -- `python -m bot check` and damaged database files (point 11) ---------------------------------

def _check(db: Path, monkeypatch: pytest.MonkeyPatch,
           capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    monkeypatch.setenv("ANNALS_DB", str(db))
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    status = bot_main(["check", "--env-file", str(db.parent / "none")])
    out, err = capsys.readouterr()
    return status, out, err


def test_check_replays_every_game_and_names_each_problem_on_one_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "annals.sqlite3"
    _, broken, _ = asyncio.run(_three_games(db))
    status, out, _ = _check(db, monkeypatch, capsys)
    assert status == 0 and "no problems (3 games checked against their logs)" in out
    with sqlite3.connect(db) as conn:  # a move rewritten behind the engine's back
        conn.execute("UPDATE snapshots SET state_json = '{}' WHERE game_id = ?", (broken,))
    status, out, err = _check(db, monkeypatch, capsys)
    assert status == 1 and "backups" in err
    assert out.splitlines() and all(line.startswith(f"game {broken}: ") for line in out.splitlines())


CORRUPTIONS = {  # how a file can go bad on disk; each printed a traceback before (issue 14, point 11)
    "cut in half": lambda data: data[: len(data) // 2],
    "pages overwritten": lambda data: data[:8192] + bytes(range(256)) * 32 + data[16384:],
    "header overwritten": lambda data: b"x" * 100 + data[100:],
    "first page overwritten": lambda data: data[:100] + bytes(3996) + data[4096:],
}


@pytest.mark.parametrize("corruption", sorted(CORRUPTIONS))
def test_a_damaged_database_file_gets_one_line_saying_how_to_restore_it(
        tmp_path: Path, corruption: str) -> None:
    db = tmp_path / "annals.sqlite3"
    asyncio.run(_three_games(db))
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.write_bytes(CORRUPTIONS[corruption](db.read_bytes()))
    env = {**os.environ, "PYTHONPATH": str(ROOT), "ANNALS_DB": str(db)}
    env.pop("DISCORD_TOKEN", None)
    for command in (["--console"], ["check"]):
        done = subprocess.run([sys.executable, "-m", "bot", *command, "--env-file", str(tmp_path / "none")],
                              cwd=tmp_path, env=env, text=True, capture_output=True,
                              stdin=subprocess.DEVNULL, timeout=60)
        assert done.returncode == 1, (command, done.stderr)
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and "backups" in lines[0] and "Traceback" not in done.stderr, done.stderr


# -- storage errors in words (point 12) ------------------------------------------------------------

async def _one_game(db: Path, busy_timeout_ms: int = 10_000) -> tuple[Store, GameService, str]:
    await _three_games(db)
    store = await Store.open(db, busy_timeout_ms=busy_timeout_ms)
    return store, GameService(store, FakeClock()), "g1"


@pytest.mark.asyncio
async def test_a_lock_held_past_the_timeout_is_refused_in_words_and_nothing_changes(tmp_path: Path) -> None:
    """Issue 14, point 12: "a lock held past the timeout" reached the player as raw SQLite text."""
    db = tmp_path / "annals.sqlite3"
    store, svc, gid = await _one_game(db, busy_timeout_ms=100)
    try:
        seq = (await svc.status(gid)).seq
        other = sqlite3.connect(db, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")  # another process holding the write lock
        try:
            with pytest.raises(ServiceError) as info:
                await _move(svc, gid)
        finally:
            other.execute("ROLLBACK")
            other.close()
        assert (info.value.code, info.value.message) == (
            "busy", "The database is busy; try again in a moment.")
        assert (await store.get_game(gid)).seq == seq  # type: ignore[union-attr]
        await _move(svc, gid)  # once the lock is free, the same move goes through
        assert (await store.get_game(gid)).seq == seq + 1  # type: ignore[union-attr]
    finally:
        await store.close()


@pytest.mark.asyncio
async def test_a_full_disk_is_refused_in_words_and_writing_resumes_when_space_returns(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 14, point 12: '"disk I/O error" on a full disk, 30 of 30 moves ... writing resumed when
    space returned - the messages should say what happened.' The fault is injected where SQLite would
    raise it: the writer connection's statements fail with SQLITE_FULL, then SQLITE_IOERR."""
    db = tmp_path / "annals.sqlite3"
    store, svc, gid = await _one_game(db)
    assert isinstance(store.dialect, SqliteDialect)
    writer = store.dialect._writer
    real = writer.executemany
    faults: list[int] = []

    def failing(sql: str, rows: Any) -> Any:
        if faults and sql.startswith("INSERT INTO actions"):
            exc = sqlite3.OperationalError("database or disk is full" if faults[0] == sqlite3.SQLITE_FULL
                                           else "disk I/O error")
            exc.sqlite_errorcode = faults[0]
            raise exc
        return real(sql, rows)

    monkeypatch.setattr(writer, "executemany", failing)
    try:
        seq = (await svc.status(gid)).seq
        for code in (sqlite3.SQLITE_FULL, sqlite3.SQLITE_IOERR_WRITE):
            faults[:] = [code]
            with pytest.raises(ServiceError) as info:
                await _move(svc, gid)
            assert (info.value.code, info.value.message) == (
                "disk_full", "The disk is full: your move was not saved.")
            assert (await store.get_game(gid)).seq == seq  # type: ignore[union-attr]
        faults.clear()  # space returns
        await _move(svc, gid)
        assert (await store.get_game(gid)).seq == seq + 1  # type: ignore[union-attr]
    finally:
        await store.close()


# -- files Annals cannot use, and a check that only reads (issue 24, point 7) ----------------------

def _plain_user() -> list[str]:
    """The command prefix that runs a child without root's right to write anything: permissions
    then hold for it as for any user (a read-only file is read-only), so the test meets the real
    fault, not a stand-in. Root keeps its uid but loses the capability to override them."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("running as root without setpriv: no file is read-only to this process")
    return [setpriv, "--bounding-set=-dac_override,-dac_read_search"]


def _bot(db: Path, *command: str, plain: bool = False) -> subprocess.CompletedProcess[str]:
    """``python -m bot COMMAND`` on ``db`` in a child, with no token and nothing on its stdin."""
    run = db.parent.parent / "run"  # a working folder of its own: nothing lands beside the database
    run.mkdir(exist_ok=True)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "ANNALS_DB": str(db), "ANNALS_OUT": str(run / "out")}
    env.pop("DISCORD_TOKEN", None)
    return subprocess.run([*(_plain_user() if plain else []), sys.executable, "-m", "bot", *command,
                           "--env-file", str(run / "none")], cwd=run, env=env, text=True,
                          capture_output=True, stdin=subprocess.DEVNULL, timeout=120)


def _folder(folder: Path) -> dict[str, tuple[str, int]]:
    """Every file of ``folder``: its content's hash and its modification time."""
    return {p.name: (hashlib.sha256(p.read_bytes()).hexdigest(), p.stat().st_mtime_ns)
            for p in sorted(folder.iterdir())}


def _one_line(done: subprocess.CompletedProcess[str]) -> str:
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    return lines[0]


def _real_database(path: Path) -> None:
    """A healthy SQLite file (not an Annals one: only its bytes are used)."""
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE t (x INTEGER)")
    conn.close()


# files SQLite would take for a new, empty database (the first two), or open and then fail on
TRUNCATED: dict[str, Callable[[bytes], bytes]] = {
    "empty": lambda real: b"",
    "one byte": lambda real: real[:1],
    "cut inside its first page": lambda real: real[:300],
}


@pytest.mark.parametrize("shape", sorted(TRUNCATED))
def test_an_empty_or_truncated_database_file_is_refused_at_start_and_left_as_it_is(
        tmp_path: Path, shape: str) -> None:
    """Issue 24, point 7: "A 0- or 1-byte database file silently starts as a new empty database"."""
    _real_database(tmp_path / "real.sqlite3")
    real = (tmp_path / "real.sqlite3").read_bytes()
    folder = tmp_path / "data"
    folder.mkdir()
    db = folder / "annals.sqlite3"
    db.write_bytes(TRUNCATED[shape](real))
    before = _folder(folder)
    done = _bot(db, "--console")
    assert done.returncode == 1, done.stdout
    line = _one_line(done)
    assert line.startswith(f"Cannot open the database: {db} is ") and "backups/" in line, line
    assert _folder(folder) == before  # no lock file, no log, no new database: nothing written


@pytest.mark.parametrize("what", ["file", "folder"])
def test_a_read_only_database_is_refused_at_start_in_one_line(tmp_path: Path, what: str) -> None:
    """Issue 24, point 7: "A read-only database file starts, then answers every write with 'Something
    went wrong'". Refused before anything starts, saying what to make writable."""
    folder = tmp_path / "data"
    folder.mkdir()
    db = folder / "annals.sqlite3"
    asyncio.run(_three_games(db))
    before = _folder(folder)
    target = db if what == "file" else folder
    mode = target.stat().st_mode
    target.chmod(0o444 if what == "file" else 0o555)
    try:
        done = _bot(db, "--console", plain=True)
    finally:
        target.chmod(mode)
    assert done.returncode == 1, done.stdout
    line = _one_line(done)
    assert line.startswith("Cannot open the database: ") and "is read-only" in line, line
    assert f"{target} is read-only" in line or f"{target} of the database {db} is read-only" in line, line
    assert _folder(folder) == before


def test_check_reads_a_database_in_a_read_only_folder_and_writes_nothing(tmp_path: Path) -> None:
    """Issue 24, point 7: "`bot check` on a read-only folder calls a healthy file 'not an Annals
    database'". It reads the file where it lies, and leaves no trace in a folder it could write to."""
    folder = tmp_path / "data"
    folder.mkdir()
    db = folder / "annals.sqlite3"
    asyncio.run(_three_games(db))
    before = _folder(folder)
    done = _bot(db, "check")  # a writable folder: still no -wal, -shm or lock file left behind
    assert done.returncode == 0 and "no problems (3 games checked" in done.stdout, done.stderr
    assert _folder(folder) == before
    folder.chmod(0o555)
    try:
        done = _bot(db, "check", plain=True)
    finally:
        folder.chmod(0o755)
    assert done.returncode == 0, done.stderr
    said = done.stdout.strip().splitlines()
    assert said == [f"{db}: no problems (3 games checked against their logs)."], done.stdout
    assert _folder(folder) == before


UPGRADE_FIXTURES = sorted(  # schema 1 to 6
    (ROOT / "tests" / "support" / "fixtures" / "upgrade").glob("v*.sqlite3"))


@pytest.mark.parametrize("fixture", UPGRADE_FIXTURES, ids=lambda p: p.name.split("_")[0])
def test_check_leaves_an_older_schema_as_it_is_and_says_the_bot_will_bring_it_up_to_date(
        tmp_path: Path, fixture: Path) -> None:
    """Issue 24, point 7: "`bot check` (described as read-only) runs migrations". A database written
    by an earlier commit is left at its version; its games are checked on a migrated copy, and none
    is damage."""
    folder = tmp_path / "data"
    folder.mkdir()
    db = folder / "annals.sqlite3"
    shutil.copyfile(fixture, db)
    version = int.from_bytes(db.read_bytes()[60:64], "big")  # the header's user_version, read without SQLite
    before = _folder(folder)
    done = _bot(db, "check")
    assert done.returncode == 0, (done.stdout, done.stderr)
    said = done.stdout.strip().splitlines()
    assert said[0] == f"{db}: schema version {version}; the bot brings it up to date at its next start.", said
    # its games are checked all the same, on a copy brought up to date: those today's rules no longer
    # replay are older-rules games, none is damage (issue 24's upgrade test, through the command)
    games = [g for g in GAMES if g.file.name == fixture.name]
    older = sorted(g.game_id for g in games if not g.replays)
    assert said[1] == f"  its {len(games)} games were checked on a copy brought up to date."
    notes = [line for line in said if line.startswith("game ")]
    assert sorted(line.split(":")[0].removeprefix("game ") for line in notes) == older
    assert all(line.endswith("(version unknown), plays on from its snapshot") for line in notes)
    tail = f", {len(older)} of them started under older rules" if older else ""
    assert said[-1] == f"{db}: no problems ({len(games)} games checked against their logs{tail}).", said
    assert _folder(folder) == before  # still at its version: nothing migrated, nothing written
