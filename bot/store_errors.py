"""The store's errors, one class per thing that can go wrong, whichever database holds the games.

Both dialects (:mod:`bot.sqlite_dialect`, :mod:`bot.postgres_dialect`) raise these and only these for
what a caller may handle, so the service, the league store and the fronts never see sqlite3's or
asyncpg's classes.
"""

from __future__ import annotations


class StoreError(Exception):
    """A problem with the database itself."""


class MigrationError(StoreError):
    """A migration could not be applied (it was rolled back whole)."""


class DatabaseInUse(StoreError):
    """Another process already holds the database as its writer (see
    :func:`bot.sqlite_dialect.hold_writer_lock`)."""


class StoreBusy(StoreError):
    """Another process held the database's lock for longer than the busy timeout; nothing was written."""


class StoreFull(StoreError):
    """The disk is full (or failed to write); the transaction was rolled back, nothing was written."""


class NotADatabase(StoreError):
    """The database file is there but is no SQLite database: empty, cut short or overwritten."""


class StoreConflict(StoreError):
    """A write was refused because the game changed underneath it (or does not exist)."""


class ConstraintViolation(StoreError):
    """A write broke a constraint of the schema (a key already taken, a row it names missing); the
    transaction was rolled back. Both databases raise this one class, so a caller catches it once."""
