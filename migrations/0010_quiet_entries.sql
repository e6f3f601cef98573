-- Quiet moves (issue 27): a move that tells no seat but its sender anything (engine.core.Game.quiet, a
-- hidden standing order) is a log entry like any other, but the table must not be able to count it.
--
-- Schema version 10: applied on a version-9 database by the runner in bot/store.py, inside the
-- runner's transaction, in portable SQL (same conventions as 0001). It only adds a column: how many of
-- the game's log entries are quiet (quiet moves and the undo entries taking them back). The number every
-- player sees, and the staleness token of every button, is seq - quiet_entries; games stored before
-- have none.
ALTER TABLE games ADD COLUMN quiet_entries INTEGER NOT NULL DEFAULT 0;
