-- Annals schema, version 1.
--
-- Applied by bot/store.py inside one BEGIN IMMEDIATE ... COMMIT together with
-- "PRAGMA user_version = 1"; a migration file must not open or close
-- transactions itself. Written in portable SQL (no AUTOINCREMENT, no
-- SQLite-only types): bot/pgstore.py runs it as is, then postgres/0001_initial.sql.
-- Times are whole seconds since the Unix epoch (UTC); Discord snowflakes fit
-- a signed 64-bit INTEGER.

-- One row per Discord server that changed a setting.
CREATE TABLE guild_settings (
    guild_id         BIGINT  NOT NULL PRIMARY KEY,
    games_channel_id BIGINT,                      -- where new game threads are opened
    admin_role_id    BIGINT,                      -- members with it count as game admins
    defaults_json    TEXT    NOT NULL DEFAULT '{}', -- default timer settings and options
    updated_at       BIGINT  NOT NULL
);

-- One row per game, from lobby to the end.
CREATE TABLE games (
    game_id               VARCHAR(32) NOT NULL PRIMARY KEY,
    ruleset               VARCHAR(64) NOT NULL,   -- engine game id, e.g. 'history-classic'
    options_json          TEXT    NOT NULL,
    seed                  BIGINT  NOT NULL,       -- engine seed; also seeds the seat order
    status                VARCHAR(16) NOT NULL
        CHECK (status IN ('lobby', 'active', 'paused', 'over', 'abandoned')),
    guild_id              BIGINT,
    channel_id            BIGINT,
    thread_id             BIGINT,
    creator_id            BIGINT  NOT NULL,
    max_seats             INTEGER NOT NULL,
    created_at            BIGINT  NOT NULL,
    updated_at            BIGINT  NOT NULL,
    seq                   INTEGER NOT NULL DEFAULT 0, -- actions applied = MAX(actions.seq)
    move_seconds          INTEGER NOT NULL,       -- time per move
    reminder_offsets_json TEXT    NOT NULL,       -- seconds before the deadline, e.g. [14400]
    timeout_policy        VARCHAR(8) NOT NULL CHECK (timeout_policy IN ('ai', 'skip')),
    misses_before_ai      INTEGER NOT NULL,       -- consecutive misses before the AI takes the seat (0: never)
    result_json           TEXT                    -- final scores and ranking once over
);
CREATE INDEX games_by_status ON games (status);
CREATE INDEX games_by_guild ON games (guild_id, status);

-- The seats of a game. slot is the join order (stable); seat_order is the
-- engine's player id, drawn at start.
CREATE TABLE seats (
    game_id            VARCHAR(32) NOT NULL REFERENCES games (game_id) ON DELETE CASCADE,
    slot               INTEGER NOT NULL,
    seat_order         INTEGER,                   -- NULL in the lobby
    user_id            BIGINT,                    -- NULL for an AI seat nobody owns
    display_name       VARCHAR(100) NOT NULL,
    colour             VARCHAR(32),
    is_ai              SMALLINT NOT NULL DEFAULT 0,
    ai_policy          VARCHAR(32),
    preferences_json   TEXT    NOT NULL DEFAULT '{}', -- standing preferences for mid-turn choices
    missed_deadlines   INTEGER NOT NULL DEFAULT 0,    -- consecutive missed deadlines
    vacation_days_used INTEGER NOT NULL DEFAULT 0,
    joined_at          BIGINT  NOT NULL,
    PRIMARY KEY (game_id, slot),
    UNIQUE (game_id, seat_order),
    UNIQUE (game_id, user_id)
);
CREATE INDEX seats_by_user ON seats (user_id);

-- The append-only action log: action seq N moves the state from seq N-1 to N.
CREATE TABLE actions (
    game_id     VARCHAR(32) NOT NULL REFERENCES games (game_id) ON DELETE CASCADE,
    seq         INTEGER NOT NULL,
    player      INTEGER NOT NULL,                 -- seat_order of the acting seat
    action_json TEXT    NOT NULL,
    source      VARCHAR(16) NOT NULL,             -- human | ai | timeout
    user_id     BIGINT,                           -- the person who submitted it, if any
    created_at  BIGINT  NOT NULL,
    PRIMARY KEY (game_id, seq)
);

-- The current state of each started game (replaced by every change).
CREATE TABLE snapshots (
    game_id    VARCHAR(32) NOT NULL PRIMARY KEY REFERENCES games (game_id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL,
    state_json TEXT    NOT NULL,
    updated_at BIGINT  NOT NULL
);

-- Older states kept every K actions, to rebuild or audit a game without the whole log.
CREATE TABLE checkpoints (
    game_id    VARCHAR(32) NOT NULL REFERENCES games (game_id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL,
    state_json TEXT    NOT NULL,
    created_at BIGINT  NOT NULL,
    PRIMARY KEY (game_id, seq)
);

-- Clocks of the human players who must act. Written in the same transaction
-- as the state; read by the scheduler (see bot/service.py, GameService.fire_deadline).
CREATE TABLE deadlines (
    deadline_id VARCHAR(96) NOT NULL PRIMARY KEY, -- '<game>:<seq>:<player>:turn' or ':remind:<offset>'
    game_id     VARCHAR(32) NOT NULL REFERENCES games (game_id) ON DELETE CASCADE,
    seq         INTEGER NOT NULL,                 -- games.seq when this clock started
    player      INTEGER NOT NULL,                 -- seat_order of the player on the clock
    user_id     BIGINT,                           -- who to remind or time out
    kind        VARCHAR(16) NOT NULL CHECK (kind IN ('turn', 'reminder')),
    due_at      BIGINT  NOT NULL,
    fired       SMALLINT NOT NULL DEFAULT 0,
    created_at  BIGINT  NOT NULL
);
CREATE INDEX deadlines_pending ON deadlines (fired, due_at);
CREATE INDEX deadlines_by_game ON deadlines (game_id, player);

-- Per-person notification settings.
CREATE TABLE user_settings (
    user_id      BIGINT NOT NULL PRIMARY KEY,
    dm_allowed   SMALLINT NOT NULL DEFAULT 1,     -- 0 once a DM failed (Discord error 50007)
    reminders    VARCHAR(8) NOT NULL DEFAULT 'all' CHECK (reminders IN ('all', 'last', 'none')),
    updated_at   BIGINT NOT NULL
);

-- Which Discord message shows what, so it can be edited later.
CREATE TABLE messages (
    game_id    VARCHAR(32) NOT NULL REFERENCES games (game_id) ON DELETE CASCADE,
    purpose    VARCHAR(64) NOT NULL,              -- 'board', 'lobby', 'status', 'hand:<user>'...
    channel_id BIGINT  NOT NULL,
    message_id BIGINT  NOT NULL,
    seq        INTEGER,                           -- the game seq the message shows
    updated_at BIGINT  NOT NULL,
    PRIMARY KEY (game_id, purpose)
);
