-- Damaged games: a game whose stored record cannot be loaded is set aside, not fatal.
--
-- Schema version 5: applied on a version-4 database by the runner in bot/store.py,
-- inside the runner's transaction, in portable SQL (same conventions as 0001).
--
-- `damage` is NULL for a healthy game; otherwise what went wrong when it was last
-- loaded (for the log and `python -m bot check`, never shown to players). Start-up
-- marks a game whose snapshot or log cannot be read and tells its creator once;
-- the other games play on.
ALTER TABLE games ADD COLUMN damage TEXT;
