"""Storage faults of issue 14 (points 8, 9, 11, 12): two processes on one database, damaged records,
unreadable files, and the words a player reads when the disk or the lock fails."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from bot.store import DatabaseInUse, Store

ROOT = Path(__file__).resolve().parents[1]

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
