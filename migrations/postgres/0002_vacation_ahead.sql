-- Vacation booked ahead: a player may declare days away while it is not their
-- move; any clock that starts for them before this moment starts at it instead.
ALTER TABLE seats ADD COLUMN away_until BIGINT NOT NULL DEFAULT 0;
