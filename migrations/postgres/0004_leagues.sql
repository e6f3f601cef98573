-- Community leagues: leagues, seasons, sign-ups, queues, league games, ratings, reliability.
--
-- Schema version 4: applied on a version-3 database (0001-0003) by the runner
-- in bot/store.py, which wants migrations/NNNN_*.sql numbered without gaps.
--
-- Same conventions as 0001_initial.sql: applied inside the runner's transaction,
-- portable SQL, times in Unix seconds, Discord snowflakes as BIGINT. It only adds
-- tables and indexes, so existing games, seats and logs are untouched.

-- A league of one server.
CREATE TABLE leagues (
    league_id         VARCHAR(64)  NOT NULL PRIMARY KEY,
    guild_id          BIGINT       NOT NULL,
    name              VARCHAR(100) NOT NULL,
    rulesets_json     TEXT         NOT NULL,      -- ["history-classic", ...]
    options_json      TEXT         NOT NULL DEFAULT '{}', -- {ruleset: {option: value}}
    move_seconds      INTEGER      NOT NULL,
    organiser_role_id BIGINT,                     -- besides members with Manage Server
    created_by        BIGINT       NOT NULL,
    created_at        BIGINT       NOT NULL,
    UNIQUE (guild_id, name)
);

-- Seasons of a league, numbered from 1.
CREATE TABLE league_seasons (
    league_id       VARCHAR(64) NOT NULL REFERENCES leagues (league_id) ON DELETE CASCADE,
    number          INTEGER     NOT NULL,
    starts_at       BIGINT      NOT NULL,
    ends_at         BIGINT      NOT NULL,
    status          VARCHAR(8)  NOT NULL CHECK (status IN ('open', 'closed')),
    points_json     TEXT        NOT NULL,         -- bot.leagues.models.PointsTable.to_json()
    tie_breaks_json TEXT        NOT NULL,         -- ["wins", "head_to_head", ...]
    closed_at       BIGINT,
    champions_json  TEXT,                         -- user ids, once closed
    PRIMARY KEY (league_id, number)
);

-- Players who joined a season.
CREATE TABLE league_signups (
    league_id    VARCHAR(64)  NOT NULL,
    season       INTEGER      NOT NULL,
    user_id      BIGINT       NOT NULL,
    display_name VARCHAR(100) NOT NULL,
    joined_at    BIGINT       NOT NULL,
    PRIMARY KEY (league_id, season, user_id),
    FOREIGN KEY (league_id, season) REFERENCES league_seasons (league_id, number) ON DELETE CASCADE
);

-- Matchmaking queues: one row per player per (ruleset, player count) they wait for.
CREATE TABLE league_queue (
    league_id VARCHAR(64) NOT NULL,
    season    INTEGER     NOT NULL,
    user_id   BIGINT      NOT NULL,
    ruleset   VARCHAR(64) NOT NULL,
    players   INTEGER     NOT NULL,
    joined_at BIGINT      NOT NULL,
    PRIMARY KEY (league_id, season, user_id, ruleset, players),
    FOREIGN KEY (league_id, season) REFERENCES league_seasons (league_id, number) ON DELETE CASCADE
);

-- The league tag of an ordinary game, and its result once over.
CREATE TABLE league_games (
    game_id       VARCHAR(32) NOT NULL PRIMARY KEY REFERENCES games (game_id) ON DELETE CASCADE,
    league_id     VARCHAR(64) NOT NULL,
    season        INTEGER     NOT NULL,
    ruleset       VARCHAR(64) NOT NULL,
    players_json  TEXT        NOT NULL,           -- user ids by engine seat
    names_json    TEXT        NOT NULL,           -- display names by seat
    status        VARCHAR(16) NOT NULL CHECK (status IN ('running', 'over', 'abandoned')),
    fixed         SMALLINT    NOT NULL DEFAULT 0, -- an organiser's pairing
    created_at    BIGINT      NOT NULL,
    finished_at   BIGINT,
    placings_json TEXT,                           -- by seat, 1 = first
    scores_json   TEXT,                           -- by seat
    FOREIGN KEY (league_id, season) REFERENCES league_seasons (league_id, number) ON DELETE CASCADE
);
CREATE INDEX league_games_by_season ON league_games (league_id, season, status);

-- Rating history: a season's starting rating (game_id NULL) and one row per player per rated game.
CREATE TABLE league_ratings (
    league_id VARCHAR(64) NOT NULL,
    season    INTEGER     NOT NULL,
    user_id   BIGINT      NOT NULL,
    n         INTEGER     NOT NULL,               -- 0 for the starting rating, then 1, 2, 3...
    game_id   VARCHAR(32),
    at        BIGINT      NOT NULL,
    mu        DOUBLE PRECISION NOT NULL,
    sigma     DOUBLE PRECISION NOT NULL,
    games     INTEGER     NOT NULL,               -- rated games so far, all seasons
    PRIMARY KEY (league_id, season, user_id, n),
    FOREIGN KEY (league_id, season) REFERENCES league_seasons (league_id, number) ON DELETE CASCADE
);
CREATE INDEX league_ratings_by_game ON league_ratings (game_id);

-- Reliability facts (see bot/leagues/reliability.py); the key makes repeats harmless.
CREATE TABLE league_reliability (
    game_id VARCHAR(32) NOT NULL REFERENCES games (game_id) ON DELETE CASCADE,
    user_id BIGINT      NOT NULL,
    kind    VARCHAR(16) NOT NULL CHECK (kind IN ('met', 'missed', 'abandoned', 'to_ai')),
    seq     INTEGER     NOT NULL,
    at      BIGINT      NOT NULL,
    PRIMARY KEY (game_id, user_id, kind, seq)
);
CREATE INDEX league_reliability_by_user ON league_reliability (user_id);
