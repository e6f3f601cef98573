-- The stored game is the truth; replay from the seed is only a check.
--
-- Schema version 7: applied on a version-6 database by the runner in bot/store.py,
-- inside the runner's transaction, in portable SQL (same conventions as 0001).
-- It only adds columns and tables: games, logs and notices written before stay
-- as they were, and read as "not recorded" where a new column is NULL.

-- The version of the rules a game was started with: the game package's own
-- version and a hash of its data files ("3+1a2b3c4d5e6f"). NULL: a game started
-- before versions were recorded. A game whose log no longer replays under
-- today's code plays on from its snapshot (docs/ARCHITECTURE.md, "Upgrades").
ALTER TABLE games ADD COLUMN rules_version VARCHAR(80);

-- Each log entry's events as the engine gave them when it was applied, with
-- their audiences (a JSON list of {"type", "data", "audience"}): the public log,
-- "since your last move" and the final account read these instead of replaying.
-- NULL: an entry written before records were kept.
ALTER TABLE actions ADD COLUMN events_json TEXT;
-- The seq of the undo entry that took this move back; an undo entry names itself
-- (NULL: a move that stands, as the table sees the game).
ALTER TABLE actions ADD COLUMN voided_by INTEGER;
-- The moves that stand, by seat: "since your last move" finds a seat's last move and reads
-- what followed without walking the entries taken back.
CREATE INDEX actions_standing ON actions (game_id, player, seq) WHERE voided_by IS NULL;

-- The moves that may still be taken back, each with the state from before it:
-- an undo restores the newest one's state and drops its row; a move that may
-- not be taken back (a roll, a draw, a reveal, another player's move, a join)
-- drops every row of its game. So a game holds at most one turn's worth.
CREATE TABLE undo_points (
    game_id    VARCHAR(32) NOT NULL REFERENCES games (game_id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL,                 -- the undoable log entry
    player     INTEGER NOT NULL,                 -- its player (seat_order)
    state_json TEXT    NOT NULL,                 -- the game's state before it (at seq - 1)
    PRIMARY KEY (game_id, seq)
);

-- A person's DM channel, once Discord opened it: a restart does not open it again.
CREATE TABLE dm_channels (
    user_id    BIGINT NOT NULL PRIMARY KEY,
    channel_id BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);

-- The batch a row went out in: the id of the batch's first row, written before its
-- first attempt, so a retry after a crash sends the same rows under the same nonce.
ALTER TABLE outbox ADD COLUMN batch_id BIGINT;

-- People removed from a running game (kicked, resigned, replaced): they may not join
-- it again as newcomers unless a moderator gives them a seat back.
CREATE TABLE departures (
    game_id VARCHAR(32) NOT NULL REFERENCES games (game_id) ON DELETE CASCADE,
    user_id BIGINT      NOT NULL,
    reason  VARCHAR(16) NOT NULL,                -- resigned | replaced | kicked
    at      BIGINT      NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
