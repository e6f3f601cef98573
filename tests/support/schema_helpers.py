"""What the upgrade tests of an older schema share."""

from __future__ import annotations

from pathlib import Path

from bot.store import MIGRATIONS_DIR, list_migrations

FIRST_SERVICE_MIGRATION = 6
"""From this migration on (the outbox, each move's record, the time banks, the "you're next" setting,
and whatever comes later) today's service reads and writes what the migration adds, so a test that
plays today's service on an old schema applies these first (0005 only marks damaged games)."""


def service_migrations() -> list[Path]:
    """Every migration today's service needs on an old schema, in order."""
    return [path for n, path in list_migrations(MIGRATIONS_DIR) if n >= FIRST_SERVICE_MIGRATION]
