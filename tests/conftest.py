"""Shared fixtures: scripted dice for the classic History of the World tests; the database under test."""

from __future__ import annotations

import os
from collections import deque
from collections.abc import AsyncIterator, Iterator, Sequence
from pathlib import Path
from typing import cast

import pytest
import pytest_asyncio

import engine.rng
from bot.storage import open_store
from bot.store import Store
from tests.support import pg

# CPU-heavy service work (moves, AI batches, decisions, pictures, replays) must never run on the event
# loop's thread: every test that drives the service checks it (bot.service.offload.off_loop).
os.environ.setdefault("ANNALS_LOOP_GUARD", "1")


class Dice:
    """Stands in for :func:`engine.rng.roll` once armed with a script.

    Until :meth:`script` is called it rolls real seeded dice (so ``GAME.setup``
    can hold its roll-off). Once armed, every roll must match the next
    scripted roll in the NUMBER of dice asked for, so a test also checks how
    many dice each side rolls; an unscripted roll fails the test.
    """

    def __init__(self) -> None:
        self._real = engine.rng.roll
        self._script: deque[list[int]] | None = None
        self.rolled: list[list[int]] = []

    def script(self, *rolls: Sequence[int]) -> None:
        """Arm the dice: the next rolls are exactly these (none at all if empty)."""
        self._script = deque(list(r) for r in rolls)

    def add(self, *rolls: Sequence[int]) -> None:
        assert self._script is not None, "arm the dice with script() first"
        self._script.extend(list(r) for r in rolls)

    @property
    def left(self) -> int:
        return len(self._script) if self._script is not None else 0

    def __call__(self, state: engine.rng.HasRng, n: int) -> list[int]:
        if self._script is None:
            return self._real(state, n)
        if not self._script:
            raise AssertionError(f"unscripted roll of {n} dice (script used up)")
        nxt = self._script.popleft()
        if len(nxt) != n:
            raise AssertionError(f"the engine rolled {n} dice where the script expects {nxt}")
        self.rolled.append(nxt)
        return list(nxt)


@pytest.fixture
def dice(monkeypatch: pytest.MonkeyPatch) -> Iterator[Dice]:
    """Scripted dice; the test fails if scripted rolls are left unused."""
    d = Dice()
    monkeypatch.setattr(engine.rng, "roll", d)
    yield d
    assert d.left == 0, f"{d.left} scripted roll(s) were never rolled"


# -- the database under test: SQLite and PostgreSQL (tests/support/pg.py) --------------------------------
BACKENDS = ("sqlite", "postgres")


@pytest.fixture(params=BACKENDS)
def db_target(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh, migrated database for ``bot.storage.open_store``: a SQLite file, or a new database on
    the test PostgreSQL server (test ids end in ``[postgres]``, so ``-k postgres`` selects them)."""
    if request.param == "sqlite":
        return str(tmp_path / "annals.sqlite3")
    srv = pg.server()
    if srv is None:
        pytest.skip(pg.WHY_NOT[0])
    return pg.fresh_database(srv)


@pytest_asyncio.fixture
async def store(db_target: str) -> AsyncIterator[Store]:
    """The store on :func:`db_target`, opened and closed round the test (open_store gives a
    :class:`Store` over either dialect)."""
    s = cast(Store, await open_store(db_target))
    yield s
    await s.close()


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    pg.stop()  # the throwaway cluster, if this process started one
