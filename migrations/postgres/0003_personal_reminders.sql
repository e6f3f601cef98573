-- Personal reminder times: the seconds before a deadline at which this person
-- wants reminding, as a JSON list (e.g. [7200, 1800]), in place of each game's
-- own reminder times. NULL: the game's times. The ``reminders`` column
-- (all / last / none) still applies to whichever times are used.
ALTER TABLE user_settings ADD COLUMN reminder_offsets_json TEXT;
