-- The notice outbox: what people must be told, written in the same transaction as
-- the change that caused it, and delivered afterwards by the front (Discord's
-- per-destination workers; the console prints and marks at once).
--
-- Schema version 6: applied on a version-5 database by the runner in bot/store.py,
-- inside the runner's transaction, in portable SQL (same conventions as 0001: no
-- AUTOINCREMENT; the store numbers rows inside its write transaction).
--
-- A destination is (dest_kind, dest_id, game_id):
--   'public'  the game's thread, or its channel before the thread exists (dest_id 0)
--   'channel' a server channel by id (the "game ... is played in #thread" line)
--   'dm'      a person by user id (their news of one game; the ping in the thread
--             when their DMs are closed)
--   'status'  the game's pinned status message (dest_id 0)
-- payload_json holds the notices themselves (bot/outbox.py), never rendered text:
-- the words and pictures are made at delivery, so both fronts keep one wording.
-- nonce is sent with every message a row makes (suffixed with the piece's index),
-- so a retry after a crash is refused by Discord instead of posted twice.
-- next_try_ms is Unix milliseconds (backoff steps are shorter than a second);
-- delivered_at and gave_up_at are whole seconds, at most one of them set.
CREATE TABLE outbox (
    id           BIGINT      NOT NULL PRIMARY KEY,
    game_id      VARCHAR(32) NOT NULL REFERENCES games (game_id) ON DELETE CASCADE,
    dest_kind    VARCHAR(16) NOT NULL,
    dest_id      BIGINT      NOT NULL,
    payload_json TEXT        NOT NULL,
    nonce        VARCHAR(25) NOT NULL,
    created_at   BIGINT      NOT NULL,
    attempts     INTEGER     NOT NULL DEFAULT 0,
    next_try_ms  BIGINT      NOT NULL DEFAULT 0,
    delivered_at BIGINT,
    gave_up_at   BIGINT,
    last_error   TEXT
);
CREATE INDEX outbox_pending ON outbox (delivered_at, gave_up_at, dest_kind, dest_id, game_id, id);
