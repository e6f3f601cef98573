-- A time bank, as a timer policy beside a fixed time per move (issue 30).
--
-- Schema version 8: applied on a version-7 database by the runner in bot/store.py, inside
-- the runner's transaction, in portable SQL (same conventions as 0001). It only adds columns:
-- games and seats written before keep a fixed time per move (bank_seconds 0).

-- Each seat starts with bank_seconds (0: no bank, the game's move_seconds per move), gains
-- bank_increment after each of its moves, and holds at most bank_cap (0: no cap).
ALTER TABLE games ADD COLUMN bank_seconds INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN bank_increment INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN bank_cap INTEGER NOT NULL DEFAULT 0;
-- What is left of a seat's bank while its clock is not running (NULL: the whole starting bank).
-- A running clock's deadline is the bank: what is left is its deadline less now.
ALTER TABLE seats ADD COLUMN bank_left INTEGER;
