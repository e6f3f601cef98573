"""Injectable clocks: the service and the scheduler never call ``time.time()`` themselves.

Production code uses :class:`SystemClock`; tests use :class:`FakeClock` and move
time by hand, so no test ever waits for or measures real time.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime
from typing import Protocol


class Clock(Protocol):
    """Where the application reads the time."""

    def now(self) -> float:
        """Seconds since the Unix epoch (UTC)."""
        ...


class SystemClock:
    """The real wall clock."""

    def now(self) -> float:
        """Seconds since the Unix epoch, from ``time.time()``."""
        return time.time()


class FakeClock:
    """A clock that only moves when told to.

    Args:
        start: the initial time in seconds since the Unix epoch (default 2024-01-01 UTC).
    """

    def __init__(self, start: float = 1_704_067_200.0) -> None:
        self._now = float(start)

    def now(self) -> float:
        """The current fake time."""
        return self._now

    def advance(self, seconds: float) -> float:
        """Move time forward by ``seconds`` (never backwards) and return the new time."""
        if seconds < 0:
            raise ValueError("a clock never goes backwards")
        self._now += seconds
        return self._now

    def set(self, when: float) -> None:
        """Jump to ``when`` (which may not be earlier than now)."""
        if when < self._now:
            raise ValueError("a clock never goes backwards")
        self._now = float(when)


def to_datetime(timestamp: float) -> datetime:
    """A timezone-aware UTC datetime for a Unix timestamp (what APScheduler's run_date wants)."""
    return datetime.fromtimestamp(timestamp, tz=UTC)
