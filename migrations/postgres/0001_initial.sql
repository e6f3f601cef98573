-- Schema version 1, PostgreSQL: run right after ../0001_initial.sql, in the same transaction
-- (bot/pgstore.py), for what several bot processes on one database need:
--   games.revision      bumped by every change of the game; a process writes a game only from the
--                       revision it loaded, so a stale copy in another process cannot overwrite it;
--   deadlines.claimed_* which process leased a due deadline, and until when (FOR UPDATE SKIP LOCKED).
ALTER TABLE games ADD COLUMN revision BIGINT NOT NULL DEFAULT 0;
ALTER TABLE deadlines ADD COLUMN claimed_by VARCHAR(64);
ALTER TABLE deadlines ADD COLUMN claimed_until BIGINT NOT NULL DEFAULT 0;  -- Unix seconds
