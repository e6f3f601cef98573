"""LeagueService: leagues, seasons, sign-ups, queues and results on top of the game service.

The Discord layer (and the console) call these coroutines; this module makes
league games as ordinary games through :class:`bot.service.GameService`'s
public API (``create_lobby``, ``join``, ``start``) and follows them with a
listener registered by :meth:`LeagueService.attach` (``GameService.subscribe``):
reliability facts from every outcome of a league game, and the result and
rating changes once it is over.

Organiser-only calls take an :class:`Actor`, built by the transport from the
member (user id, role ids, whether they have Manage Server). Refusals raise
:class:`LeagueError` with a stable ``code`` and a sentence for the person.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import weakref
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from bot.clock import Clock, SystemClock
from bot.leagues.matchmaking import Match, MatchConfig, Matchmaker, MatchmakingError, QueueEntry
from bot.leagues.models import (
    DEFAULT_TIE_BREAKS,
    League,
    LeagueGame,
    PointsTable,
    Season,
    SignUp,
    placings_from_places,
    placings_from_ranking,
)
from bot.leagues.ratings import Rating, RatingConfig, RatingPoint, Ratings, carry
from bot.leagues.reliability import Reliability, records_from_log, records_from_notices, summarise
from bot.leagues.season import SeasonResult, end_season
from bot.leagues.standings import ResultRow, StandingRow, result_rows, season_table
from bot.leagues.store import LeagueConflict, LeagueStore
from bot.models import Outcome, TimerSettings
from bot.service import GameService, ServiceError
from engine import registry

log = logging.getLogger(__name__)


class LeagueError(Exception):
    """A refused league request; nothing was changed.

    Attributes:
        code: ``no_league``, ``no_season``, ``not_organiser``, ``bad_league``, ``bad_season``,
            ``conflict``, ``not_signed_up``, or a matchmaking code (``busy``, ``bad_count``...).
    """

    def __init__(self, code: str, message: str, **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.params = params


@dataclass(frozen=True)
class Actor:
    """Who asks: the member's id, their role ids, and whether they have Manage Server."""

    user_id: int
    role_ids: tuple[int, ...] = ()
    manages_server: bool = False


@dataclass(frozen=True)
class StartedGame:
    """A league game made from a match, with the game service's outcomes to deliver (lobby, start)."""

    game: LeagueGame
    outcomes: tuple[Outcome, ...]


@dataclass(frozen=True)
class GameResult:
    """A finished league game as recorded: placing points and rating changes, for the thread's post."""

    game: LeagueGame
    points: tuple[float, ...]
    before: Mapping[int, Rating]
    after: Mapping[int, Rating]


@dataclass(frozen=True)
class Profile:
    """A player's season profile."""

    user_id: int
    name: str
    games: int
    wins: int
    average_score: float
    best_score: int
    rating: Rating | None
    history: tuple[RatingPoint, ...]
    reliability: Reliability
    finished: tuple[LeagueGame, ...]

    @property
    def win_rate(self) -> float | None:
        return self.wins / self.games if self.games else None


ResultListener = Callable[[GameResult], Awaitable[None] | None]

# The league service of each running game service (see LeagueService.open and league_service_of).
_REGISTRY: weakref.WeakKeyDictionary[GameService, LeagueService] = weakref.WeakKeyDictionary()


def league_service_of(games: GameService) -> LeagueService | None:
    """The league service opened for ``games`` with :meth:`LeagueService.open`, if any."""
    return _REGISTRY.get(games)


class LeagueService:
    """League operations over a :class:`GameService` and a :class:`LeagueStore`."""

    def __init__(
        self, games: GameService, store: LeagueStore, clock: Clock | None = None, *,
        ratings: RatingConfig | None = None, matching: MatchConfig | None = None,
    ) -> None:
        self.games = games
        self.store = store
        self.clock: Clock = clock or SystemClock()
        self.rating_config = ratings or RatingConfig()
        self.match_config = matching or MatchConfig()
        # one matchmaking decision at a time per league, so two queue calls never seat a player twice
        self._locks: dict[str, asyncio.Lock] = {}
        self._result_listeners: list[ResultListener] = []
        self._attached = False

    @classmethod
    async def open(cls, games: GameService, clock: Clock | None = None) -> LeagueService:
        """The league service of ``games``: opened on its store, attached, and registered.

        Start-up (``python -m bot``) calls this once before the fronts start, so
        league games that end while nobody uses a league command are still
        recorded; the Discord layer finds the same service with :func:`league_service_of`.
        Close it with :meth:`close` before the game store.
        """
        store = await LeagueStore.open(games.store)
        service = cls(games, store, clock or games.clock)
        service.attach()
        _REGISTRY[games] = service
        return service

    async def close(self) -> None:
        """Close the league store's reader and forget the registration."""
        if _REGISTRY.get(self.games) is self:
            del _REGISTRY[self.games]
        await self.store.close()

    def _lock(self, league_id: str) -> asyncio.Lock:
        return self._locks.setdefault(league_id, asyncio.Lock())

    def attach(self, on_result: ResultListener | None = None) -> None:
        """Follow the game service's outcomes (call once, after creating both services).

        Args:
            on_result: called with each finished league game's :class:`GameResult`
                (the transport posts the points and rating changes in the game's thread).
        """

        if on_result is not None:
            self.on_result(on_result)
        if self._attached:
            return
        self._attached = True

        async def listener(outcome: Outcome) -> None:
            result = await self.record(outcome)
            if result is None:
                return
            for hear in list(self._result_listeners):
                try:
                    done = hear(result)
                    if inspect.isawaitable(done):
                        await done
                except Exception:  # one failing listener must not hide the result from the others
                    log.exception("result listener failed for league game %s", result.game.game_id)

        self.games.subscribe(listener)

    def on_result(self, listener: ResultListener) -> None:
        """Also call ``listener`` with every finished league game's :class:`GameResult`."""
        self._result_listeners.append(listener)

    def _now(self) -> int:
        return int(self.clock.now())

    # -- leagues and seasons -----------------------------------------------------------
    async def create_league(
        self, actor: Actor, guild_id: int, name: str, rulesets: Sequence[str], *,
        options: Mapping[str, Mapping[str, Any]] | None = None, move_seconds: int = 24 * 3600,
        organiser_role_id: int | None = None,
    ) -> League:
        """A new league on a server (members with Manage Server only)."""
        if not actor.manages_server:
            raise LeagueError("not_organiser", "Only members with Manage Server can create a league.")
        known = registry.game_ids(offered=True)
        for ruleset in rulesets:
            if ruleset not in known:
                raise LeagueError("bad_league", f"There is no game {ruleset!r}; the games are "
                                  f"{', '.join(known)}.")
        clean = " ".join(name.split())
        league = League(f"{guild_id}-{clean.casefold().replace(' ', '-')}"[:64], guild_id, clean,
                        tuple(rulesets), actor.user_id, self._now(), dict(options or {}), move_seconds,
                        organiser_role_id)
        problems = league.problems()
        if problems:
            raise LeagueError("bad_league", " ".join(problems))
        try:
            await self.store.create_league(league)
        except LeagueConflict as exc:
            raise LeagueError("conflict", f"There is already a league called {clean} here.") from exc
        return league

    async def league(self, league_id: str) -> League:
        league = await self.store.get_league(league_id)
        if league is None:
            raise LeagueError("no_league", "There is no such league.", league_id=league_id)
        return league

    async def _organiser(self, league_id: str, actor: Actor) -> League:
        league = await self.league(league_id)
        if not league.is_organiser(actor.user_id, actor.role_ids, actor.manages_server):
            raise LeagueError("not_organiser", "Only the league's organisers can do that.")
        return league

    async def season(self, league_id: str, number: int | None = None) -> Season:
        """A season by number, or the open one (else the latest)."""
        if number is not None:
            found = await self.store.get_season(league_id, number)
        else:
            found = await self.store.current_season(league_id)
            if found is None:
                seasons = await self.store.seasons(league_id)
                found = seasons[-1] if seasons else None
        if found is None:
            raise LeagueError("no_season", "This league has no such season yet.")
        return found

    async def open_season(
        self, league_id: str, actor: Actor, starts_at: int, ends_at: int, *,
        points: PointsTable | None = None, tie_breaks: Sequence[str] = DEFAULT_TIE_BREAKS,
    ) -> Season:
        """Open the next season; ratings of the last one carry over with their uncertainty grown back."""
        await self._organiser(league_id, actor)
        seasons = await self.store.seasons(league_id)
        previous = seasons[-1] if seasons else None
        season = Season(league_id, (previous.number + 1) if previous else 1, starts_at, ends_at, "open",
                        points or (previous.points if previous else PointsTable()), tuple(tie_breaks))
        problems = season.problems()
        if problems:
            raise LeagueError("bad_season", " ".join(problems))
        starting: dict[int, Rating] = {}
        if previous is not None:
            final = await self.store.ratings(league_id, previous.number)
            starting = {u: carry(r, self.rating_config) for u, r in final.items()}
        try:
            await self.store.open_season(season, starting, self._now())
        except LeagueConflict as exc:
            raise LeagueError("conflict", str(exc)) from exc
        return season

    async def close_season(self, league_id: str, actor: Actor) -> SeasonResult:
        """Close the open season: the final table, its champions, the ratings to carry over."""
        league = await self._organiser(league_id, actor)
        season = await self.store.current_season(league_id)
        if season is None:
            raise LeagueError("no_season", f"{league.name} has no open season.")
        result = await self._season_result(season)
        await self.store.close_season(league_id, season.number, result.champions, self._now())
        return replace(result, season=replace(season, status="closed"))

    async def _season_result(self, season: Season) -> SeasonResult:
        games = await self.store.games(season.league_id, season.number)
        history = await self.store.rating_history(season.league_id, season.number)
        initial = {p.user_id: p.rating for p in history if p.game_id is None}
        signups = await self.store.signups(season.league_id, season.number)
        names = {s.user_id: s.display_name for s in signups}
        return end_season(season, games, names=names, initial=initial, config=self.rating_config,
                          signed_up=[s.user_id for s in signups])

    # -- players -----------------------------------------------------------------------
    async def sign_up(self, league_id: str, user_id: int, name: str) -> Season:
        """Join the open season."""
        season = await self.store.current_season(league_id)
        if season is None:
            raise LeagueError("no_season", "Sign-ups open with the next season.")
        await self.store.sign_up(SignUp(league_id, season.number, user_id, " ".join(name.split())[:64],
                                        self._now()))
        return season

    async def withdraw(self, league_id: str, user_id: int) -> None:
        """Leave the open season and its queues (finished games keep counting)."""
        season = await self._open(league_id)
        if not await self.store.withdraw(league_id, season.number, user_id):
            raise LeagueError("not_signed_up", "You are not signed up for this season.")

    async def _open(self, league_id: str) -> Season:
        season = await self.store.current_season(league_id)
        if season is None:
            raise LeagueError("no_season", "This league has no open season.")
        return season

    async def _matchmaker(self, league: League, season: Season) -> Matchmaker:
        rulesets = {}
        for r in league.rulesets:
            spec = registry.spec(r)
            rulesets[r] = (spec.min_players, spec.max_players)
        ratings = await self.store.ratings(league.league_id, season.number)
        return Matchmaker(rulesets, await self.store.games(league.league_id, season.number),
                          {u: r.ordinal(self.rating_config.z) for u, r in ratings.items()},
                          await self.store.queue(league.league_id, season.number), self.match_config)

    async def queue(
        self, league_id: str, user_id: int, ruleset: str, players: int, *, channel_id: int | None = None
    ) -> list[StartedGame]:
        """Wait for a game of ``ruleset`` with ``players`` seats; the games this completes start now.

        Args:
            channel_id: where the games this completes are played (the transport opens
                their threads there, as for any game); None: no channel.
        """
        league = await self.league(league_id)
        async with self._lock(league_id):
            season = await self._open(league_id)
            names = {s.user_id: s.display_name for s in await self.store.signups(league_id, season.number)}
            if user_id not in names:
                raise LeagueError("not_signed_up", "Sign up for the season first.")
            mm = await self._matchmaker(league, season)
            now = self._now()
            try:
                matches = mm.join(user_id, ruleset, players, now)
            except MatchmakingError as exc:
                raise LeagueError(exc.code, exc.message, users=list(exc.users)) from exc
            await self.store.queue_join(league_id, season.number, QueueEntry(user_id, ruleset, players, now))
            return [await self._start(league, season, m, names, channel_id) for m in matches]

    async def leave_queue(self, league_id: str, user_id: int) -> int:
        """Stop waiting in every queue of the open season; how many entries went."""
        season = await self._open(league_id)
        return await self.store.queue_leave(league_id, season.number, user_id)

    async def pair(
        self, league_id: str, actor: Actor, users: Sequence[int], ruleset: str, *,
        channel_id: int | None = None,
    ) -> StartedGame:
        """An organiser's fixed pairing: start a league game for these signed-up players now."""
        league = await self._organiser(league_id, actor)
        async with self._lock(league_id):
            season = await self._open(league_id)
            names = {s.user_id: s.display_name for s in await self.store.signups(league_id, season.number)}
            missing = [u for u in users if u not in names]
            if missing:
                raise LeagueError("not_signed_up", "Some players have not signed up.", users=missing)
            mm = await self._matchmaker(league, season)
            try:
                match = mm.pair(users, ruleset)
            except MatchmakingError as exc:
                raise LeagueError(exc.code, exc.message, users=list(exc.users)) from exc
            return await self._start(league, season, match, names, channel_id)

    async def _start(
        self, league: League, season: Season, match: Match, names: Mapping[int, str],
        channel_id: int | None = None,
    ) -> StartedGame:
        first, *rest = match.players
        timers = TimerSettings(move_seconds=league.move_seconds,
                               reminder_offsets=tuple(o for o in (4 * 3600,) if o < league.move_seconds))
        outcomes: list[Outcome] = []
        out = await self.games.create_lobby(first, names[first], match.ruleset,
                                            options=league.options.get(match.ruleset, {}),
                                            max_seats=len(match.players), timers=timers,
                                            guild_id=league.guild_id, channel_id=channel_id)
        outcomes.append(out)
        gid = out.game_id
        try:
            for user in rest:
                outcomes.append(await self.games.join(gid, user, names[user]))
            outcomes.append(await self.games.start(gid, first))
        except ServiceError:
            await self.games.abandon(gid, first)
            raise
        started = outcomes[-1].status.seats
        seats = sorted((s for s in started if s.seat is not None), key=lambda s: s.seat or 0)
        players = tuple(s.user_id for s in seats if s.user_id is not None)
        game = LeagueGame(gid, league.league_id, season.number, match.ruleset, players,
                          tuple(names[u] for u in players), self._now(), fixed=match.fixed)
        await self.store.add_game(game)
        return StartedGame(game, tuple(outcomes))

    # -- following games -----------------------------------------------------------------
    async def record(self, outcome: Outcome) -> GameResult | None:
        """The game service's listener: reliability facts, and the result when a league game ends."""
        game = await self.store.get_game(outcome.game_id)
        if game is None or game.status != "running":
            return None
        now = self._now()
        await self.store.add_reliability(records_from_notices(outcome.notices, now))
        status = outcome.status
        if status.status not in ("over", "abandoned"):
            return None
        seat_users = dict(enumerate(game.players))
        met = [r for r in records_from_log(await self.games.store.actions(game.game_id), seat_users)
               if r.kind == "met"]
        await self.store.add_reliability(met)
        if status.status == "abandoned" or status.ranking is None or status.scores is None:
            await self.store.set_game_status(game.game_id, "abandoned", now)
            return None
        placings = placings_from_places(status.places, len(game.players)) if status.places is not None \
            else placings_from_ranking(status.ranking, len(game.players))  # a game over before places
        scores = tuple(status.scores)
        season = await self.season(game.league_id, game.season)
        ledger = Ratings(self.rating_config, await self.store.ratings(game.league_id, game.season))
        before = {u: ledger.get(u) for u in game.players}
        after = ledger.update(game.players, placings)
        points = [RatingPoint(u, game.game_id, now, r.mu, r.sigma, r.games) for u, r in after.items()]
        try:
            await self.store.finish_game(game.game_id, placings, scores, now, points)
        except LeagueConflict:
            return None  # another listener call recorded it first
        done = replace(game, status="over", placings=placings, scores=scores, finished_at=now)
        return GameResult(done, tuple(season.points.award(placings)), before, after)

    # -- reading -----------------------------------------------------------------------
    async def standings(self, league_id: str, number: int | None = None) -> list[StandingRow]:
        """The season table (the open season by default)."""
        season = await self.season(league_id, number)
        games = await self.store.games(league_id, season.number)
        signups = await self.store.signups(league_id, season.number)
        return season_table(games, season, {s.user_id: s.display_name for s in signups},
                            await self.store.ratings(league_id, season.number), self.rating_config,
                            [s.user_id for s in signups])

    async def results(self, league_id: str, number: int | None = None) -> list[ResultRow]:
        """Every finished game's results (for the list of games and the CSV export)."""
        season = await self.season(league_id, number)
        return result_rows(await self.store.games(league_id, season.number), season.points)

    async def profile(self, league_id: str, user_id: int, number: int | None = None) -> Profile:
        """A player's season: games, wins, scores, rating over time, reliability."""
        season = await self.season(league_id, number)
        games = [g for g in await self.store.games(league_id, season.number, user_id=user_id) if g.is_over]
        table = {r.user_id: r for r in await self.standings(league_id, season.number)}
        row = table.get(user_id)
        ratings = await self.store.ratings(league_id, season.number)
        history = await self.store.rating_history(league_id, season.number, user_id)
        records = await self.store.reliability(league_id=league_id, user_id=user_id)
        played = len(await self.store.games(league_id, None, user_id=user_id))
        reliability = summarise(records, {user_id: played})[user_id]
        name = row.name if row else "a player not signed up"  # never a raw user id
        return Profile(user_id, name, row.games if row else 0, row.wins if row else 0,
                       row.average_score if row else 0.0, row.best_score if row else 0, ratings.get(user_id),
                       tuple(history), reliability, tuple(games))
