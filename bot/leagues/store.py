"""The league tables (``migrations/0004_leagues.sql``) over the game store's database.

Writes go through :meth:`bot.store.Store.transaction` (the one guarded writer,
``BEGIN IMMEDIATE ... COMMIT`` on SQLite), so league rows and game rows never race.
Reads use a read-only connection the store gives this class (:meth:`bot.store.Store.reader`: on
SQLite one of its own on the same file with the same pragmas as the store's reader, on PostgreSQL
the store's pool). The SQL is portable, as in :mod:`bot.store`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from bot.dialect import Connection
from bot.leagues.matchmaking import QueueEntry, QueueKey
from bot.leagues.models import League, LeagueGame, LeagueGameStatus, PointsTable, Season, SignUp
from bot.leagues.ratings import Rating, RatingPoint
from bot.leagues.reliability import ReliabilityRecord
from bot.storage import GameStore, Reader
from bot.store import MIGRATIONS_DIR, ConstraintViolation, StoreError

#: The migration that adds the league tables (schema version 4), applied by :meth:`bot.store.Store.open`.
MIGRATION = MIGRATIONS_DIR / "0004_leagues.sql"
MIGRATION_NUMBER = 4
TABLES = ("leagues", "league_seasons", "league_signups", "league_queue", "league_games", "league_ratings",
          "league_reliability")


class LeagueConflict(StoreError):
    """A league write was refused: a duplicate, a season not open, a game already recorded..."""


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


_LEAGUE_COLUMNS = ("league_id, guild_id, name, rulesets_json, options_json, move_seconds, organiser_role_id, "
                   "created_by, created_at")
_SEASON_COLUMNS = "league_id, number, starts_at, ends_at, status, points_json, tie_breaks_json"
_GAME_COLUMNS = ("lg.game_id, lg.league_id, lg.season, lg.ruleset, lg.players_json, lg.names_json, "
                 "lg.status, lg.fixed, lg.created_at, lg.finished_at, lg.placings_json, lg.scores_json, "
                 "g.thread_id")


def _league(r: Sequence[Any]) -> League:
    return League(league_id=r[0], guild_id=r[1], name=r[2], rulesets=tuple(json.loads(r[3])),
                  options=json.loads(r[4]), move_seconds=r[5], organiser_role_id=r[6], created_by=r[7],
                  created_at=r[8])


def _season(r: Sequence[Any]) -> Season:
    return Season(league_id=r[0], number=r[1], starts_at=r[2], ends_at=r[3], status=r[4],
                  points=PointsTable.from_json(json.loads(r[5])), tie_breaks=tuple(json.loads(r[6])))


def _game(r: Sequence[Any]) -> LeagueGame:
    return LeagueGame(
        game_id=r[0], league_id=r[1], season=r[2], ruleset=r[3], players=tuple(json.loads(r[4])),
        names=tuple(json.loads(r[5])), status=r[6], fixed=bool(r[7]), created_at=r[8], finished_at=r[9],
        placings=tuple(json.loads(r[10])) if r[10] is not None else None,
        scores=tuple(json.loads(r[11])) if r[11] is not None else None, thread_id=r[12],
    )


class LeagueStore:
    """League records in the game store's database. Create it with :meth:`open`."""

    def __init__(self, store: GameStore, reader: Reader) -> None:
        self.store = store
        self._reader = reader

    @classmethod
    async def open(cls, store: GameStore) -> LeagueStore:
        """A league store on ``store``'s database (whose migrations must include the league tables).

        Raises:
            StoreError: the league tables are missing (the migration was not applied).
        """
        missing = set(TABLES) - set(await store.table_columns())
        if missing:
            raise StoreError(f"the league tables are missing ({', '.join(sorted(missing))}): "
                             f"apply {MIGRATION.name}")
        return cls(store, await store.reader())

    async def close(self) -> None:
        await self._reader.close()

    async def _read(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        return list(await self._reader.execute_fetchall(sql, params))

    # -- leagues -----------------------------------------------------------------------
    async def create_league(self, league: League) -> None:
        """Insert a league.

        Raises:
            LeagueConflict: the id or the (server, name) pair is taken.
        """
        try:
            async with self.store.transaction() as conn:
                await conn.execute(
                    f"INSERT INTO leagues ({_LEAGUE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (league.league_id, league.guild_id, league.name, _dumps(list(league.rulesets)),
                     _dumps({k: dict(v) for k, v in league.options.items()}), league.move_seconds,
                     league.organiser_role_id, league.created_by, league.created_at))
        except ConstraintViolation as exc:
            raise LeagueConflict(f"a league named {league.name!r} already exists on this server") from exc

    async def get_league(self, league_id: str) -> League | None:
        rows = await self._read(f"SELECT {_LEAGUE_COLUMNS} FROM leagues WHERE league_id = ?", (league_id,))
        return _league(rows[0]) if rows else None

    async def leagues(self, guild_id: int) -> list[League]:
        """A server's leagues by name."""
        rows = await self._read(f"SELECT {_LEAGUE_COLUMNS} FROM leagues WHERE guild_id = ? ORDER BY name",
                                (guild_id,))
        return [_league(r) for r in rows]

    # -- seasons -----------------------------------------------------------------------
    async def open_season(self, season: Season, starting: Mapping[int, Rating] | None = None,
                          now: int = 0) -> None:
        """Open the league's next season, with starting ratings (carried over) if any.

        Raises:
            LeagueConflict: another season is open, or ``season.number`` is not the next one.
        """
        async with self.store.transaction() as conn:
            cur = await conn.execute(
                "SELECT COALESCE(MAX(number), 0), SUM(CASE WHEN status = 'open' THEN 1 ELSE 0 END) "
                "FROM league_seasons WHERE league_id = ?", (season.league_id,))
            row = await cur.fetchone()
            assert row is not None
            if row[1]:
                raise LeagueConflict("close the open season first")
            if season.number != row[0] + 1:
                raise LeagueConflict(f"the next season is number {row[0] + 1}")
            await conn.execute(
                f"INSERT INTO league_seasons ({_SEASON_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (season.league_id, season.number, season.starts_at, season.ends_at, "open",
                 _dumps(season.points.to_json()), _dumps(list(season.tie_breaks))))
            await conn.executemany(
                "INSERT INTO league_ratings (league_id, season, user_id, n, game_id, at, mu, sigma, games) "
                "VALUES (?, ?, ?, 0, NULL, ?, ?, ?, ?)",
                [(season.league_id, season.number, u, now, r.mu, r.sigma, r.games)
                 for u, r in sorted((starting or {}).items())])

    async def close_season(self, league_id: str, number: int, champions: Sequence[int], now: int) -> None:
        """Close an open season, naming its champions; queued players leave its queues."""
        async with self.store.transaction() as conn:
            cur = await conn.execute(
                "UPDATE league_seasons SET status = 'closed', closed_at = ?, champions_json = ? "
                "WHERE league_id = ? AND number = ? AND status = 'open'",
                (now, _dumps(list(champions)), league_id, number))
            if cur.rowcount != 1:
                raise LeagueConflict(f"season {number} is not open")
            await conn.execute("DELETE FROM league_queue WHERE league_id = ? AND season = ?",
                               (league_id, number))

    async def get_season(self, league_id: str, number: int) -> Season | None:
        rows = await self._read(f"SELECT {_SEASON_COLUMNS} FROM league_seasons "
                                "WHERE league_id = ? AND number = ?", (league_id, number))
        return _season(rows[0]) if rows else None

    async def seasons(self, league_id: str) -> list[Season]:
        rows = await self._read(f"SELECT {_SEASON_COLUMNS} FROM league_seasons WHERE league_id = ? "
                                "ORDER BY number", (league_id,))
        return [_season(r) for r in rows]

    async def current_season(self, league_id: str) -> Season | None:
        """The open season, or None."""
        rows = await self._read(f"SELECT {_SEASON_COLUMNS} FROM league_seasons WHERE league_id = ? "
                                "AND status = 'open' ORDER BY number DESC", (league_id,))
        return _season(rows[0]) if rows else None

    async def champions(self, league_id: str, number: int) -> tuple[int, ...]:
        rows = await self._read("SELECT champions_json FROM league_seasons "
                                "WHERE league_id = ? AND number = ?", (league_id, number))
        return tuple(json.loads(rows[0][0])) if rows and rows[0][0] else ()

    # -- sign-ups and queues -----------------------------------------------------------
    async def sign_up(self, signup: SignUp) -> None:
        """Join an open season (joining again updates the name only).

        Raises:
            LeagueConflict: the season is not open.
        """
        async with self.store.transaction() as conn:
            await self._require_open(conn, signup.league_id, signup.season)
            await conn.execute(
                "INSERT INTO league_signups (league_id, season, user_id, display_name, joined_at) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (league_id, season, user_id) "
                "DO UPDATE SET display_name = excluded.display_name",
                (signup.league_id, signup.season, signup.user_id, signup.display_name, signup.joined_at))

    async def withdraw(self, league_id: str, season: int, user_id: int) -> bool:
        """Leave a season (and its queues); False when not signed up. Finished games keep counting."""
        async with self.store.transaction() as conn:
            await conn.execute("DELETE FROM league_queue WHERE league_id = ? AND season = ? AND user_id = ?",
                               (league_id, season, user_id))
            cur = await conn.execute(
                "DELETE FROM league_signups WHERE league_id = ? AND season = ? AND user_id = ?",
                (league_id, season, user_id))
            return bool(cur.rowcount)

    async def signups(self, league_id: str, season: int) -> list[SignUp]:
        rows = await self._read(
            "SELECT league_id, season, user_id, display_name, joined_at FROM league_signups "
            "WHERE league_id = ? AND season = ? ORDER BY joined_at, user_id", (league_id, season))
        return [SignUp(r[0], r[1], r[2], r[3], r[4]) for r in rows]

    async def queue_join(self, league_id: str, season: int, entry: QueueEntry) -> None:
        """Add a queue entry (kept as it was if already there)."""
        async with self.store.transaction() as conn:
            await self._require_open(conn, league_id, season)
            await conn.execute(
                "INSERT INTO league_queue (league_id, season, user_id, ruleset, players, joined_at) "
                "VALUES (?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (league_id, season, user_id, ruleset, players) DO NOTHING",
                (league_id, season, entry.user_id, entry.ruleset, entry.players, entry.joined_at))

    async def queue_leave(
        self, league_id: str, season: int, user_id: int, key: QueueKey | None = None
    ) -> int:
        """Remove a player's entries (one queue or all); how many went."""
        sql = "DELETE FROM league_queue WHERE league_id = ? AND season = ? AND user_id = ?"
        params: list[Any] = [league_id, season, user_id]
        if key is not None:
            sql += " AND ruleset = ? AND players = ?"
            params += [key[0], key[1]]
        async with self.store.transaction() as conn:
            cur = await conn.execute(sql, params)
            return int(cur.rowcount)

    async def queue(self, league_id: str, season: int) -> list[QueueEntry]:
        """Every waiting entry of a season, longest-waiting first."""
        rows = await self._read(
            "SELECT user_id, ruleset, players, joined_at FROM league_queue "
            "WHERE league_id = ? AND season = ? ORDER BY joined_at, user_id, ruleset, players",
            (league_id, season))
        return [QueueEntry(r[0], r[1], r[2], r[3]) for r in rows]

    # -- league games ------------------------------------------------------------------
    async def add_game(self, game: LeagueGame) -> None:
        """Tag a created game as a league game; its players leave the season's queues (one transaction).

        Raises:
            LeagueConflict: the game is already a league game, does not exist, or the season is not open.
        """
        try:
            async with self.store.transaction() as conn:
                await self._require_open(conn, game.league_id, game.season)
                await conn.execute(
                    "INSERT INTO league_games (game_id, league_id, season, ruleset, players_json, "
                    "names_json, status, fixed, created_at, finished_at, placings_json, scores_json) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (game.game_id, game.league_id, game.season, game.ruleset, _dumps(list(game.players)),
                     _dumps(list(game.names)), game.status, int(game.fixed), game.created_at,
                     game.finished_at,
                     _dumps(list(game.placings)) if game.placings is not None else None,
                     _dumps(list(game.scores)) if game.scores is not None else None))
                await conn.executemany(
                    "DELETE FROM league_queue WHERE league_id = ? AND season = ? AND user_id = ?",
                    [(game.league_id, game.season, u) for u in game.players])
        except ConstraintViolation as exc:
            raise LeagueConflict(f"game {game.game_id!r} is already a league game or does not exist") from exc

    async def finish_game(
        self, game_id: str, placings: Sequence[int], scores: Sequence[int], finished_at: int,
        ratings: Sequence[RatingPoint] = (),
    ) -> None:
        """Record a league game's result and its players' new ratings, in one transaction.

        Raises:
            LeagueConflict: not a running league game (so a result is never counted twice).
        """
        async with self.store.transaction() as conn:
            cur = await conn.execute(
                "UPDATE league_games SET status = 'over', finished_at = ?, placings_json = ?, "
                "scores_json = ? WHERE game_id = ? AND status = 'running'",
                (finished_at, _dumps(list(placings)), _dumps(list(scores)), game_id))
            if cur.rowcount != 1:
                raise LeagueConflict(f"game {game_id!r} is not a running league game")
            cur = await conn.execute("SELECT league_id, season FROM league_games WHERE game_id = ?",
                                     (game_id,))
            row = await cur.fetchone()
            assert row is not None
            for p in ratings:
                await conn.execute(
                    "INSERT INTO league_ratings "
                    "(league_id, season, user_id, n, game_id, at, mu, sigma, games) "
                    "SELECT ?, ?, ?, COALESCE(MAX(n), 0) + 1, ?, ?, ?, ?, ? FROM league_ratings "
                    "WHERE league_id = ? AND season = ? AND user_id = ?",
                    (row[0], row[1], p.user_id, p.game_id, p.at, p.mu, p.sigma, p.games,
                     row[0], row[1], p.user_id))

    async def set_game_status(self, game_id: str, status: LeagueGameStatus, now: int) -> None:
        """Mark a running league game abandoned (or running again)."""
        async with self.store.transaction() as conn:
            await conn.execute("UPDATE league_games SET status = ?, finished_at = ? WHERE game_id = ? "
                               "AND status != 'over'",
                               (status, now if status != "running" else None, game_id))

    async def get_game(self, game_id: str) -> LeagueGame | None:
        rows = await self._read(f"SELECT {_GAME_COLUMNS} FROM league_games lg JOIN games g "
                                "ON g.game_id = lg.game_id WHERE lg.game_id = ?", (game_id,))
        return _game(rows[0]) if rows else None

    async def games(
        self, league_id: str, season: int | None = None, *,
        statuses: Sequence[LeagueGameStatus] | None = None, user_id: int | None = None,
    ) -> list[LeagueGame]:
        """League games, oldest first; filtered by season, status and player."""
        where = ["lg.league_id = ?"]
        params: list[Any] = [league_id]
        if season is not None:
            where.append("lg.season = ?")
            params.append(season)
        if statuses:
            where.append(f"lg.status IN ({', '.join('?' * len(statuses))})")
            params += list(statuses)
        rows = await self._read(f"SELECT {_GAME_COLUMNS} FROM league_games lg JOIN games g "
                                f"ON g.game_id = lg.game_id WHERE {' AND '.join(where)} "
                                "ORDER BY lg.created_at, lg.game_id", params)
        out = [_game(r) for r in rows]
        return [g for g in out if user_id in g.players] if user_id is not None else out

    # -- ratings -----------------------------------------------------------------------
    async def rating_history(
        self, league_id: str, season: int, user_id: int | None = None
    ) -> list[RatingPoint]:
        """A season's rating points (starting ones first), optionally of one player."""
        sql = ("SELECT user_id, game_id, at, mu, sigma, games FROM league_ratings "
               "WHERE league_id = ? AND season = ?")
        params: list[Any] = [league_id, season]
        if user_id is not None:
            sql += " AND user_id = ?"
            params.append(user_id)
        rows = await self._read(sql + " ORDER BY n, at, user_id", params)
        return [RatingPoint(r[0], r[1], r[2], r[3], r[4], r[5]) for r in rows]

    async def ratings(self, league_id: str, season: int) -> dict[int, Rating]:
        """Each player's latest rating in the season."""
        rows = await self._read(
            "SELECT r.user_id, r.mu, r.sigma, r.games FROM league_ratings r "
            "WHERE r.league_id = ? AND r.season = ? AND r.n = (SELECT MAX(x.n) FROM league_ratings x "
            "WHERE x.league_id = r.league_id "
            "AND x.season = r.season AND x.user_id = r.user_id)", (league_id, season))
        return {r[0]: Rating(r[1], r[2], r[3]) for r in rows}

    # -- reliability -------------------------------------------------------------------
    async def add_reliability(self, records: Iterable[ReliabilityRecord]) -> None:
        """Keep reliability facts (repeats are ignored)."""
        rows = [(r.game_id, r.user_id, r.kind, r.seq, r.at) for r in records]
        if not rows:
            return
        async with self.store.transaction() as conn:
            await conn.executemany(
                "INSERT INTO league_reliability (game_id, user_id, kind, seq, at) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT (game_id, user_id, kind, seq) DO NOTHING", rows)

    async def reliability(
        self, *, league_id: str | None = None, user_id: int | None = None
    ) -> list[ReliabilityRecord]:
        """Reliability facts, of one league's games and/or one player, in time order."""
        sql = "SELECT r.game_id, r.user_id, r.kind, r.seq, r.at FROM league_reliability r"
        where: list[str] = []
        params: list[Any] = []
        if league_id is not None:
            sql += " JOIN league_games lg ON lg.game_id = r.game_id"
            where.append("lg.league_id = ?")
            params.append(league_id)
        if user_id is not None:
            where.append("r.user_id = ?")
            params.append(user_id)
        if where:
            sql += " WHERE " + " AND ".join(where)
        rows = await self._read(sql + " ORDER BY r.at, r.game_id, r.seq", params)
        return [ReliabilityRecord(r[0], r[1], r[2], r[3], r[4]) for r in rows]

    # -- internals ---------------------------------------------------------------------
    @staticmethod
    async def _require_open(conn: Connection, league_id: str, season: int) -> None:
        cur = await conn.execute("SELECT status FROM league_seasons WHERE league_id = ? AND number = ?",
                                 (league_id, season))
        row = await cur.fetchone()
        if row is None or row[0] != "open":
            raise LeagueConflict(f"season {season} is not open")
