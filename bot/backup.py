"""Online backups of the SQLite database, on demand and on a schedule, keeping the last N files.

A backup uses SQLite's backup API (:meth:`sqlite3.Connection.backup`) from a
connection of its own, in a worker thread, so the bot keeps running: the copy is
one consistent snapshot of the last committed transaction (WAL readers never
block the writer). Each copy is written to a temporary name, checked with
``PRAGMA quick_check``, switched to the rollback journal (one self-contained
file) and only then renamed to ``annals-YYYYmmdd-HHMMSSZ.sqlite3``, the time
coming from the injected clock; so a file with the final name is always a whole,
healthy database. Older files beyond ``keep`` are deleted, oldest first.

Restoring: stop the bot, copy the chosen backup over the database file, delete
the database's ``-wal`` and ``-shm`` files if present, start the bot.
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import sqlite3
from pathlib import Path

from bot.clock import Clock, SystemClock, to_datetime

log = logging.getLogger(__name__)

PREFIX = "annals"
SUFFIX = ".sqlite3"
_NAME = re.compile(rf"^{PREFIX}-(\d{{8}}-\d{{6}}Z)(?:-(\d+))?{re.escape(SUFFIX)}$")


class BackupError(Exception):
    """A backup could not be made (nothing was left behind under a backup name)."""


class BackupManager:
    """Makes and prunes backups of one database file.

    Args:
        db_path: the live database.
        directory: where backup files go (created when needed).
        keep: how many backup files to keep (at least 1).
        clock: names the files (a FakeClock in tests).
    """

    def __init__(self, db_path: str | os.PathLike[str], directory: str | os.PathLike[str], *, keep: int = 14,
                 clock: Clock | None = None) -> None:
        if keep < 1:
            raise ValueError("keep at least one backup")
        self.db_path = Path(db_path)
        self.directory = Path(directory)
        self.keep = keep
        self.clock: Clock = clock or SystemClock()
        self._lock = asyncio.Lock()

    async def backup_now(self) -> Path:
        """Make one backup now and prune old ones; returns the new file.

        Raises:
            BackupError: the database is missing or the copy failed its check.
        """
        async with self._lock:  # one backup at a time (scheduled and on-demand may meet)
            target = self._next_name()
            path = await asyncio.to_thread(self._copy, target)
            removed = await asyncio.to_thread(self.prune)
        log.info("backup written to %s (%d old removed)", path, len(removed))
        return path

    def backups(self) -> list[Path]:
        """The backup files in the directory, oldest first."""
        if not self.directory.is_dir():
            return []
        found = [p for p in self.directory.iterdir() if p.is_file() and _NAME.match(p.name)]
        return sorted(found, key=_sort_key)

    def prune(self) -> list[Path]:
        """Delete all but the newest ``keep`` backups; returns what was deleted."""
        files = self.backups()
        doomed = files[:-self.keep] if len(files) > self.keep else []
        for path in doomed:
            path.unlink(missing_ok=True)
        return doomed

    # -- internals -----------------------------------------------------------------
    def _next_name(self) -> Path:
        stamp = to_datetime(self.clock.now()).strftime("%Y%m%d-%H%M%S") + "Z"
        path = self.directory / f"{PREFIX}-{stamp}{SUFFIX}"
        n = 1
        while path.exists():  # two backups within one second
            path = self.directory / f"{PREFIX}-{stamp}-{n}{SUFFIX}"
            n += 1
        return path

    def _copy(self, target: Path) -> Path:
        if not self.db_path.is_file():
            raise BackupError(f"there is no database at {self.db_path}")
        self.directory.mkdir(parents=True, exist_ok=True)
        partial = target.with_name(target.name + ".partial")
        partial.unlink(missing_ok=True)
        try:
            src = sqlite3.connect(self.db_path, timeout=30)  # only reads; WAL lets the bot write on
            try:
                dst = sqlite3.connect(partial)
                try:
                    src.backup(dst)
                    dst.execute("PRAGMA journal_mode = DELETE")
                    check = dst.execute("PRAGMA quick_check").fetchone()
                    if check is None or check[0] != "ok":
                        raise BackupError(f"the copy failed its check: {check}")
                finally:
                    dst.close()
            finally:
                src.close()
            os.replace(partial, target)
        except sqlite3.Error as exc:
            partial.unlink(missing_ok=True)
            raise BackupError(f"backup of {self.db_path} failed: {exc}") from exc
        except BaseException:
            partial.unlink(missing_ok=True)
            raise
        return target


def _sort_key(path: Path) -> tuple[str, int]:
    match = _NAME.match(path.name)
    assert match is not None
    return match.group(1), int(match.group(2) or 0)
