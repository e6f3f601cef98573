"""Storage faults of issue 14 (points 8, 9, 11, 12): two processes on one database, damaged records,
unreadable files, and the words a player reads when the disk or the lock fails."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

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
