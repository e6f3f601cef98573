-- "You're next" (issue 30): a person may ask for a DM when the player before them starts their move.
--
-- Schema version 9: applied on a version-8 database by the runner in bot/store.py, inside the
-- runner's transaction, in portable SQL (same conventions as 0001). It only adds a column: people
-- who set their reminders before keep them, with the new DM off (0) until they ask for it.
ALTER TABLE user_settings ADD COLUMN up_next SMALLINT NOT NULL DEFAULT 0;
