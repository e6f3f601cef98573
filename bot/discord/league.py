"""The ``/league`` slash commands: community leagues on Discord. No rules here.

Every decision is :class:`bot.leagues.service.LeagueService`'s: this module turns
interactions into its calls and its answers into messages, pictures and files.
Each command defers first (the database, the renderer and the rating model may
take longer than Discord's 3 seconds), ephemerally, so a refusal
(:class:`~bot.leagues.service.LeagueError` or :class:`~bot.service.ServiceError`)
reaches only the person who asked; what the whole server should see (a season
opening, the final table) is then posted in the channel.

League games are ordinary games: a queue that fills (or an organiser's pairing)
creates one in the server's games channel (``/annals admin`` settings) or else
in the channel where the command was used, and the transport opens its thread
when it starts, as for any game. When a league game ends, its thread gets the
placing points and the rating changes.

The standings are paged with :class:`TablePageButton`, a ``DynamicItem`` whose
custom_id carries the league, the season and the page, so the buttons of a table
posted weeks ago still work after a restart.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import discord
from discord import app_commands

from bot.config import parse_duration
from bot.discord.base import IN_SERVERS, SERVER_INSTALL, log_failure, manages_server
from bot.discord.kit import (
    APOLOGY,
    MAX_OPTIONS,
    BotBase,
    Interaction,
    LongText,
    ShortText,
    bot_of,
    clip,
    report,
)
from bot.leagues.models import TIE_BREAKS, League, PointsTable, Season
from bot.leagues.ratings import Rating, RatingConfig, RatingPoint
from bot.leagues.service import (
    Actor,
    GameResult,
    LeagueError,
    LeagueService,
    Profile,
    StartedGame,
    league_service_of,
)
from bot.leagues.standings import (
    PER_PAGE,
    StandingRow,
    page_count,
    results_csv,
    standings_csv,
    table_text,
)
from bot.service import ServiceError
from engine.registry import game_ids, get_game
from render.league import RatingSeries, rating_chart, season_table_png

log = logging.getLogger(__name__)

MAX_MESSAGE = 2000
CHART_PLAYERS = 6  # lines on the end-of-season chart (more only hide each other)
DAY = 24 * 3600
# custom_id: annals:lt:<season>:<page>:<p|n>:<league id> (the league id last: it may hold any character)
TABLE_ID = re.compile(
    r"annals:lt:(?P<season>[0-9]{1,4}):(?P<page>[0-9]{1,4}):(?P<dir>[pn]):(?P<league>.{1,64})")
MENTION = re.compile(r"^<@!?(?P<id>[0-9]{15,21})>$")
PLACES = {1: "1st", 2: "2nd", 3: "3rd"}


def place(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``..."""
    return PLACES.get(n, f"{n}th")


def title_of(ruleset: str) -> str:
    try:
        return str(get_game(ruleset).title)
    except KeyError:
        return ruleset


@dataclass
class Answer:
    """What a command answers (to the caller) and, optionally, posts in the channel for everyone."""

    content: str
    files: list[discord.File] = field(default_factory=list)
    view: discord.ui.View | None = None
    post: str | None = None  # public text for the channel
    post_files: list[discord.File] = field(default_factory=list)


def actor_of(interaction: Interaction) -> Actor:
    """The caller as the league service sees them: id, role ids, Manage Server."""
    user = interaction.user
    roles = tuple(r.id for r in user.roles) if isinstance(user, discord.Member) else ()
    return Actor(user.id, roles, manages_server(interaction))  # leagues are found on this server only


def parse_user(text: str) -> int:
    """A user option typed or chosen by autocomplete: a user id or a mention."""
    text = text.strip()
    found = MENTION.match(text)
    if found:
        return int(found["id"])
    if text.isdigit():
        return int(text)
    raise LeagueError("bad_player", f"`{clip(text, 40)}` is not a player; pick one from the list.")


def parse_points(text: str) -> PointsTable:
    """``10, 6, 3, 1`` -> a points table (checked by the service)."""
    try:
        values = tuple(float(p) for p in re.split(r"[,\s]+", text.strip()) if p)
    except ValueError as exc:
        raise LeagueError("bad_season", "Give the points as numbers, best place first, like `10, 6, 3, 1`.") \
            from exc
    return PointsTable(values)


def parse_tie_breaks(text: str) -> tuple[str, ...]:
    return tuple(t for t in re.split(r"[,\s]+", text.strip().lower()) if t)


def rating_series(name: str, points: Sequence[RatingPoint], config: RatingConfig) -> RatingSeries:
    """One player's line: the season's starting rating (or a new player's) at 0, then one point per game."""
    out: list[tuple[float, float, float]] = []
    rated = [p for p in points if p.game_id is not None]
    start = next((p for p in points if p.game_id is None), None)
    out.append((0.0, start.mu, start.sigma) if start else (0.0, config.mu, config.sigma))
    out += [(float(i), p.mu, p.sigma) for i, p in enumerate(rated, start=1)]
    return RatingSeries(name, out)


def table_message(league: League, season: Season, rows: Sequence[StandingRow], page: int) -> str:
    pages = page_count(rows, PER_PAGE)
    page = min(max(page, 1), pages)
    state = "final table" if season.status == "closed" else "standings"
    head = f"**{league.name}**, season {season.number} {state}"
    text = table_text(rows, page)
    return f"{head}\n```\n{text}\n```"


def table_view(league_id: str, season: int, page: int, pages: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(TablePageButton(league_id, season, max(page - 1, 1), "p", disabled=page <= 1))
    view.add_item(TablePageButton(league_id, season, min(page + 1, pages), "n", disabled=page >= pages))
    return view


async def table_page(bot: BotBase, leagues: LeagueService, league_id: str, number: int | None,
                     page: int) -> tuple[str, discord.File, discord.ui.View]:
    """A page of a season's table: text, picture and the page buttons."""
    league = await leagues.league(league_id)
    season = await leagues.season(league_id, number)
    rows = await leagues.standings(league_id, season.number)
    pages = page_count(rows, PER_PAGE)
    page = min(max(page, 1), pages)
    subtitle = f"Season {season.number}" + (" - final" if season.status == "closed" else "")
    png = await bot.render(season_table_png, rows, title=league.name, subtitle=subtitle, page=page)
    file = discord.File(io.BytesIO(png), filename=f"standings-s{season.number}-p{page}.png")
    return table_message(league, season, rows, page), file, table_view(league_id, season.number, page, pages)


async def service_for(bot: BotBase) -> LeagueService:
    """The league service started with the bot (``python -m bot``), else one opened now."""
    found = league_service_of(bot.service)
    if found is not None:
        return found
    lock = _OPENING.setdefault(id(bot.service), asyncio.Lock())
    async with lock:
        found = league_service_of(bot.service)
        if found is None:
            found = await LeagueService.open(bot.service)
        return found


_OPENING: dict[int, asyncio.Lock] = {}


class TablePageButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=TABLE_ID.pattern):
    """Previous or next page of a season table; works on tables posted before a restart."""

    def __init__(self, league_id: str, season: int, page: int, direction: str, *,
                 disabled: bool = False) -> None:
        self.league_id = league_id
        self.season = season
        self.page = page
        self.direction = direction
        button: discord.ui.Button[Any] = discord.ui.Button(
            custom_id=f"annals:lt:{season}:{page}:{direction}:{league_id}", disabled=disabled,
            label="Previous" if direction == "p" else "Next", style=discord.ButtonStyle.secondary)
        super().__init__(button)

    @classmethod
    async def from_custom_id(cls, interaction: Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> TablePageButton:
        return cls(match["league"], int(match["season"]), int(match["page"]), match["dir"])

    async def callback(self, interaction: Interaction) -> None:
        bot = bot_of(interaction)
        await interaction.response.defer()  # the picture takes a moment; the message is then edited
        try:
            text, file, view = await table_page(bot, await service_for(bot), self.league_id, self.season,
                                                self.page)
        except (LeagueError, ServiceError) as exc:
            await interaction.followup.send(exc.message, ephemeral=True)
            return
        except Exception:
            report(log, "league table page failed (user %s, league %s, season %s, page %s)",
                   interaction.user.id, self.league_id, self.season, self.page)
            await interaction.followup.send(APOLOGY, ephemeral=True)
            return
        await interaction.edit_original_response(content=text, attachments=[file], view=view)


class LeagueGroup(app_commands.Group):
    """``/league ...``: leagues, seasons, sign-ups, queues, pairings, standings, profiles, exports."""

    def __init__(self, bot: BotBase) -> None:
        super().__init__(name="league", description="Community leagues: seasons, queues, standings, ratings",
                         guild_only=True, allowed_contexts=IN_SERVERS, allowed_installs=SERVER_INSTALL)
        self.bot = bot
        self._listening: set[int] = set()  # league services whose results this group posts
        found = league_service_of(bot.service)
        if found is not None:
            self._listen(found)

    # == plumbing ========================================================================
    def _listen(self, leagues: LeagueService) -> None:
        if id(leagues) not in self._listening:
            self._listening.add(id(leagues))
            leagues.on_result(self.post_result)

    async def _leagues(self) -> LeagueService:
        leagues = await service_for(self.bot)
        self._listen(leagues)
        return leagues

    async def _answer(self, interaction: Interaction,
                      work: Callable[[LeagueService], Awaitable[Answer]]) -> None:
        """Defer (ephemerally), run ``work``, answer the caller, post the public part in the channel."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            if interaction.guild_id is None:
                raise LeagueError("no_league", "Leagues belong to servers; use this command in one.")
            answer = await work(await self._leagues())
            if answer.post is not None and interaction.channel_id is not None:
                channel = self.bot.get_partial_messageable(interaction.channel_id)
                await channel.send(answer.post[:MAX_MESSAGE], files=answer.post_files,
                                   allowed_mentions=discord.AllowedMentions.none())
        except (LeagueError, ServiceError) as exc:
            await interaction.followup.send(exc.message, ephemeral=True)
            return
        except Exception:
            log_failure(interaction)
            await interaction.followup.send(APOLOGY, ephemeral=True)
            return
        if answer.view is not None:
            await interaction.followup.send(answer.content[:MAX_MESSAGE], files=answer.files,
                                            view=answer.view, ephemeral=True)
        else:
            await interaction.followup.send(answer.content[:MAX_MESSAGE], files=answer.files, ephemeral=True)

    async def _league(self, leagues: LeagueService, interaction: Interaction, league: str) -> League:
        """The league named by the option (its id, or its name on this server)."""
        found = await leagues.store.get_league(league.strip())
        if found is None or found.guild_id != interaction.guild_id:
            wanted = " ".join(league.split()).casefold()
            here = await leagues.store.leagues(interaction.guild_id or 0)
            found = next((lg for lg in here if lg.name.casefold() == wanted), None)
        if found is None:
            raise LeagueError("no_league", f"There is no league `{clip(league, 60)}` on this server; "
                              "pick one from the list.")
        return found

    async def _games_channel(self, interaction: Interaction) -> int | None:
        """Where league games are played: the server's games channel, else this channel (not a thread)."""
        if interaction.guild_id is not None:
            settings = await self.bot.service.store.get_guild_settings(interaction.guild_id)
            if settings.games_channel_id is not None:
                return settings.games_channel_id
        channel = interaction.channel
        if isinstance(channel, discord.Thread):
            return channel.parent_id
        return interaction.channel_id

    async def post_result(self, result: GameResult) -> None:
        """The league service's result listener: the points and rating changes, in the game's thread."""
        game = result.game
        if self.bot.is_closed() or game.thread_id is None or game.placings is None:
            return
        leagues = league_service_of(self.bot.service)
        config = leagues.rating_config if leagues is not None else RatingConfig()
        lines = [f"League result, season {game.season}:"]
        order = sorted(range(len(game.players)), key=lambda s: (game.placings or ())[s])
        for seat in order:
            user = game.players[seat]
            before, after = result.before.get(user), result.after.get(user)
            change = ""
            if before is not None and after is not None:
                delta = after.ordinal(config.z) - before.ordinal(config.z)
                change = f", rating {before.ordinal(config.z):.1f} -> {after.shown(config)} ({delta:+.1f})"
            score = game.scores[seat] if game.scores is not None else 0
            lines.append(f"{place(game.placings[seat])} <@{user}> ({score} points in the game): "
                         f"{result.points[seat]:g} league points{change}")
        await self.bot.get_partial_messageable(game.thread_id).send(
            "\n".join(lines)[:MAX_MESSAGE], allowed_mentions=discord.AllowedMentions.none())

    # == leagues and seasons =============================================================
    @app_commands.command(name="create", description="Create a league on this server (Manage Server)")
    @app_commands.describe(
        name="The league's name (unique on this server)",
        ruleset="The game the league plays",
        ruleset2="A second game the league plays (optional)",
        move_time="Time per move in league games, like 24h, 3d or 90m (default 24h)",
        organiser_role="Members with this role organise the league too",
    )
    async def create(self, interaction: Interaction, name: ShortText, ruleset: ShortText,
                     ruleset2: ShortText | None = None, move_time: ShortText | None = None,
                     organiser_role: discord.Role | None = None) -> None:
        async def work(leagues: LeagueService) -> Answer:
            seconds = 24 * 3600
            if move_time:
                try:
                    seconds = parse_duration(move_time)
                except ValueError as exc:
                    raise LeagueError("bad_league", str(exc)) from exc
            rulesets = [ruleset.strip()] + ([ruleset2.strip()] if ruleset2 and ruleset2 != ruleset else [])
            league = await leagues.create_league(
                actor_of(interaction), interaction.guild_id or 0, name, rulesets, move_seconds=seconds,
                organiser_role_id=organiser_role.id if organiser_role else None)
            games = ", ".join(title_of(r) for r in league.rulesets)
            role = f" and <@&{league.organiser_role_id}>" if league.organiser_role_id else ""
            return Answer(f"League **{league.name}** is created ({games}). Organisers: members with Manage "
                          f"Server{role}. Open its first season with `/league season-open`.")
        await self._answer(interaction, work)

    @app_commands.command(name="list", description="The leagues of this server and their seasons")
    async def list_(self, interaction: Interaction) -> None:
        async def work(leagues: LeagueService) -> Answer:
            here = await leagues.store.leagues(interaction.guild_id or 0)
            if not here:
                return Answer("This server has no league yet; `/league create` makes one.")
            lines = []
            for lg in here:
                current = await leagues.store.current_season(lg.league_id)
                state = (f"season {current.number} open until <t:{current.ends_at}:D>" if current
                         else "no open season")
                lines.append(f"**{lg.name}**: {', '.join(title_of(r) for r in lg.rulesets)}; {state}")
            return Answer("\n".join(lines))
        await self._answer(interaction, work)

    @app_commands.command(name="season-open", description="Open the league's next season (organisers)")
    @app_commands.describe(
        league="The league",
        days="How long the season lasts, in days (default 30)",
        points="League points by place, best first, like 10, 6, 3, 1 (default: the last season's)",
        tie_breaks=f"Tie-breaks in order, from: {', '.join(TIE_BREAKS)}"[:100],
    )
    async def season_open(self, interaction: Interaction, league: ShortText,
                          days: app_commands.Range[int, 1, 365] = 30, points: LongText | None = None,
                          tie_breaks: LongText | None = None) -> None:
        async def work(leagues: LeagueService) -> Answer:
            lg = await self._league(leagues, interaction, league)
            now = int(leagues.clock.now())
            kwargs: dict[str, Any] = {}
            if points:
                kwargs["points"] = parse_points(points)
            if tie_breaks:
                kwargs["tie_breaks"] = parse_tie_breaks(tie_breaks)
            season = await leagues.open_season(lg.league_id, actor_of(interaction), now, now + days * DAY,
                                               **kwargs)
            table = ", ".join(f"{p:g}" for p in season.points.base)
            post = (f"Season {season.number} of **{lg.name}** is open until <t:{season.ends_at}:D>. "
                    f"League points by place: {table} (adjusted to the number of players); ties broken by "
                    f"{', '.join(season.tie_breaks).replace('_', ' ')}. Sign up with `/league signup`, "
                    "then wait for a game with `/league queue`.")
            return Answer(f"Season {season.number} is open.", post=post)
        await self._answer(interaction, work)

    @app_commands.command(name="season-close",
                          description="Close the open season: final table, champions (organisers)")
    @app_commands.describe(league="The league")
    async def season_close(self, interaction: Interaction, league: ShortText) -> None:
        async def work(leagues: LeagueService) -> Answer:
            lg = await self._league(leagues, interaction, league)
            result = await leagues.close_season(lg.league_id, actor_of(interaction))
            rows = list(result.table)
            files = [discord.File(io.BytesIO(await self.bot.render(
                season_table_png, rows, title=lg.name, subtitle=f"Season {result.season.number} - final")),
                filename=f"final-table-s{result.season.number}.png")]
            top = [r for r in rows if r.games][:CHART_PLAYERS]
            config = leagues.rating_config
            series = [rating_series(r.name, [p for p in result.history if p.user_id == r.user_id], config)
                      for r in top]
            if series:
                chart = await self.bot.render(rating_chart, series,
                                              title=f"{lg.name}: ratings in season {result.season.number}",
                                              z=config.z)
                files.append(discord.File(io.BytesIO(chart), filename=f"ratings-s{result.season.number}.png"))
            champions = " ".join(f"<@{u}>" for u in result.champions)
            post = result.announcement(lg.name)
            if champions:
                post += f" Congratulations {champions}!"
            post += f"\n```\n{table_text(rows, 1)}\n```Ratings carry over to the next season."
            return Answer(f"Season {result.season.number} is closed.", post=post, post_files=files)
        await self._answer(interaction, work)

    # == players =========================================================================
    @app_commands.command(name="signup", description="Sign up for the league's open season")
    @app_commands.describe(league="The league")
    async def signup(self, interaction: Interaction, league: ShortText) -> None:
        async def work(leagues: LeagueService) -> Answer:
            lg = await self._league(leagues, interaction, league)
            season = await leagues.sign_up(lg.league_id, interaction.user.id, interaction.user.display_name)
            return Answer(f"You are signed up for season {season.number} of **{lg.name}**. Wait for a game "
                          "with `/league queue`.")
        await self._answer(interaction, work)

    @app_commands.command(name="withdraw", description="Leave the league's open season and its queues")
    @app_commands.describe(league="The league")
    async def withdraw(self, interaction: Interaction, league: ShortText) -> None:
        async def work(leagues: LeagueService) -> Answer:
            lg = await self._league(leagues, interaction, league)
            await leagues.withdraw(lg.league_id, interaction.user.id)
            return Answer(f"You left the season of **{lg.name}**; your finished games still count.")
        await self._answer(interaction, work)

    @app_commands.command(name="queue", description="Wait for a league game; it starts when enough wait")
    @app_commands.describe(league="The league", ruleset="Which game", players="How many players (seats)")
    async def queue(self, interaction: Interaction, league: ShortText, ruleset: ShortText,
                    players: app_commands.Range[int, 2, 6]) -> None:
        async def work(leagues: LeagueService) -> Answer:
            lg = await self._league(leagues, interaction, league)
            started = await leagues.queue(lg.league_id, interaction.user.id, ruleset.strip(), players,
                                          channel_id=await self._games_channel(interaction))
            mine = [s for s in started if interaction.user.id in s.game.players]
            if mine:
                return Answer(self._started_text(lg, mine[0]))
            season = await leagues.season(lg.league_id)
            waiting = [e for e in await leagues.store.queue(lg.league_id, season.number)
                       if (e.ruleset, e.players) == (ruleset.strip(), players)]
            return Answer(f"You wait for a {players}-player game of {title_of(ruleset.strip())} in "
                          f"**{lg.name}** ({len(waiting)} of {players} waiting). It starts by itself when "
                          "enough players wait; `/league leave-queue` to stop waiting.")
        await self._answer(interaction, work)

    @staticmethod
    def _started_text(lg: League, started: StartedGame) -> str:
        game = started.game
        who = ", ".join(f"<@{u}>" for u in game.players)
        return (f"League game `{game.game_id}` of **{lg.name}** ({title_of(game.ruleset)}) has started with "
                f"{who}; it is played in its own thread.")

    @app_commands.command(name="leave-queue", description="Stop waiting for league games")
    @app_commands.describe(league="The league")
    async def leave_queue(self, interaction: Interaction, league: ShortText) -> None:
        async def work(leagues: LeagueService) -> Answer:
            lg = await self._league(leagues, interaction, league)
            gone = await leagues.leave_queue(lg.league_id, interaction.user.id)
            if not gone:
                return Answer(f"You were not waiting for a game of **{lg.name}**.")
            return Answer(f"You stopped waiting ({gone} queue{'s' if gone != 1 else ''} of **{lg.name}**).")
        await self._answer(interaction, work)

    @app_commands.command(name="pair", description="Start a league game for chosen players now (organisers)")
    @app_commands.describe(league="The league", ruleset="Which game", player1="A signed-up player",
                           player2="A signed-up player", player3="A signed-up player (optional)",
                           player4="A signed-up player (optional)", player5="A signed-up player (optional)",
                           player6="A signed-up player (optional)")
    async def pair(self, interaction: Interaction, league: ShortText, ruleset: ShortText, player1: ShortText,
                   player2: ShortText, player3: ShortText | None = None, player4: ShortText | None = None,
                   player5: ShortText | None = None, player6: ShortText | None = None) -> None:
        async def work(leagues: LeagueService) -> Answer:
            lg = await self._league(leagues, interaction, league)
            users = [parse_user(p) for p in (player1, player2, player3, player4, player5, player6) if p]
            if len(set(users)) != len(users):
                raise LeagueError("bad_count", "A player is named twice.")
            started = await leagues.pair(lg.league_id, actor_of(interaction), users, ruleset.strip(),
                                         channel_id=await self._games_channel(interaction))
            return Answer(self._started_text(lg, started))
        await self._answer(interaction, work)

    # == reading =========================================================================
    @app_commands.command(name="standings", description="The season table, as a picture and as text")
    @app_commands.describe(league="The league", season="Which season (default: the open or latest one)",
                           page="Which page (10 players a page)",
                           public="Post it in the channel for everyone (default: only you see it)")
    async def standings(self, interaction: Interaction, league: ShortText,
                        season: app_commands.Range[int, 1, 9999] | None = None,
                        page: app_commands.Range[int, 1, 999] = 1, public: bool = False) -> None:
        async def work(leagues: LeagueService) -> Answer:
            lg = await self._league(leagues, interaction, league)
            text, file, view = await table_page(self.bot, leagues, lg.league_id, season, page)
            if public and interaction.channel_id is not None:
                await self.bot.get_partial_messageable(interaction.channel_id).send(
                    text, file=file, view=view, allowed_mentions=discord.AllowedMentions.none())
                return Answer("Posted.")
            return Answer(text, [file], view)
        await self._answer(interaction, work)

    @app_commands.command(name="profile", description="A player's season: results, rating chart, reliability")
    @app_commands.describe(league="The league", player="The player (default: you)",
                           season="Which season (default: the open or latest one)")
    async def profile(self, interaction: Interaction, league: ShortText, player: ShortText | None = None,
                      season: app_commands.Range[int, 1, 9999] | None = None) -> None:
        async def work(leagues: LeagueService) -> Answer:
            lg = await self._league(leagues, interaction, league)
            user = parse_user(player) if player else interaction.user.id
            prof = await leagues.profile(lg.league_id, user, season)
            number = (await leagues.season(lg.league_id, season)).number
            files: list[discord.File] = []
            history = list(prof.history)
            if prof.rating is not None or history:
                chart = await self.bot.render(
                    rating_chart, [rating_series(prof.name, history, leagues.rating_config)],
                    title=f"{prof.name}: rating in season {number}", z=leagues.rating_config.z)
                files.append(discord.File(io.BytesIO(chart), filename=f"rating-{user}-s{number}.png"))
            return Answer(self._profile_text(lg, number, prof, leagues.rating_config), files)
        await self._answer(interaction, work)

    @staticmethod
    def _profile_text(lg: League, number: int, prof: Profile, config: RatingConfig) -> str:
        lines = [f"**{prof.name}** (<@{prof.user_id}>) in **{lg.name}**, season {number}"]
        if prof.games:
            rate = f"{prof.win_rate:.0%}" if prof.win_rate is not None else "-"
            lines.append(f"Games {prof.games}, wins {prof.wins} ({rate}), average score "
                         f"{prof.average_score:.1f}, best score {prof.best_score}")
        else:
            lines.append("No finished league game this season yet.")
        rating: Rating | None = prof.rating
        if rating is not None:
            mark = " (provisional: fewer than " \
                f"{config.provisional_games} rated games)" if rating.is_provisional(config) else ""
            lines.append(f"Rating {rating.shown(config)}{mark}")
        else:
            lines.append("No rating yet.")
        lines.append(f"Reliability: {prof.reliability.shown()}")
        for game in prof.finished[-10:]:
            where = f" <#{game.thread_id}>" if game.thread_id else ""
            at = game.placing_of(prof.user_id)
            lines.append(f"`{game.game_id}` {title_of(game.ruleset)}: {place(at) if at else '-'} of "
                         f"{len(game.players)}, score {game.score_of(prof.user_id)}{where}")
        return "\n".join(lines)

    @app_commands.command(name="games", description="The season's finished league games, with their threads")
    @app_commands.describe(league="The league", season="Which season (default: the open or latest one)")
    async def games(self, interaction: Interaction, league: ShortText,
                    season: app_commands.Range[int, 1, 9999] | None = None) -> None:
        async def work(leagues: LeagueService) -> Answer:
            lg = await self._league(leagues, interaction, league)
            number = (await leagues.season(lg.league_id, season)).number
            over = await leagues.store.games(lg.league_id, number, statuses=["over"])
            done = [g for g in over if g.is_over]
            done.sort(key=lambda g: (g.finished_at or 0, g.game_id), reverse=True)
            head = f"Finished games of **{lg.name}**, season {number} ({len(done)}):"
            if not done:
                return Answer(f"{head} none yet.")
            lines = [head]
            for shown, game in enumerate(done):
                placings = game.placings or ()
                order = sorted(range(len(game.players)), key=lambda s: placings[s])
                who = ", ".join(f"{placings[s]}. {game.names[s]} ({(game.scores or ())[s]})" for s in order)
                where = f" <#{game.thread_id}>" if game.thread_id else ""
                when = f"<t:{game.finished_at or 0}:d>"
                line = f"`{game.game_id}` {when} {title_of(game.ruleset)}: {who}{where}"
                more = f"... and {len(done) - shown} more (`/league export what:results` lists all)."
                if sum(len(x) + 1 for x in lines) + len(line) + len(more) + 1 > MAX_MESSAGE:
                    lines.append(more)
                    break
                lines.append(line)
            return Answer("\n".join(lines))
        await self._answer(interaction, work)

    @app_commands.command(name="export", description="The season's standings or game results as a CSV file")
    @app_commands.describe(league="The league", what="Standings or game results",
                           season="Which season (default: the open or latest one)")
    @app_commands.choices(what=[app_commands.Choice(name="standings", value="standings"),
                                app_commands.Choice(name="game results", value="results")])
    async def export(self, interaction: Interaction, league: ShortText, what: str = "standings",
                     season: app_commands.Range[int, 1, 9999] | None = None) -> None:
        async def work(leagues: LeagueService) -> Answer:
            lg = await self._league(leagues, interaction, league)
            number = (await leagues.season(lg.league_id, season)).number
            if what == "results":
                text = results_csv(await leagues.results(lg.league_id, number))
            else:
                text = standings_csv(await leagues.standings(lg.league_id, number))
            slug = re.sub(r"[^a-z0-9]+", "-", lg.name.casefold()).strip("-") or "league"
            name = f"{slug}-s{number}-{what}.csv"
            file = discord.File(io.BytesIO(text.encode("utf-8")), filename=name)
            return Answer(f"{what.title()} of **{lg.name}**, season {number}.", [file])
        await self._answer(interaction, work)

    # == autocomplete ====================================================================
    async def league_autocomplete(self, interaction: Interaction,
                                  current: str) -> list[app_commands.Choice[str]]:
        """The leagues of this server whose name contains what was typed."""
        if interaction.guild_id is None:
            return []
        leagues = await self._leagues()
        typed = current.casefold().strip()
        return [app_commands.Choice(name=lg.name[:100], value=lg.league_id)
                for lg in await leagues.store.leagues(interaction.guild_id)
                if typed in lg.name.casefold()][:MAX_OPTIONS]

    async def _namespace_league(self, interaction: Interaction) -> League | None:
        chosen = getattr(interaction.namespace, "league", None)
        if not isinstance(chosen, str) or not chosen or interaction.guild_id is None:
            return None
        try:
            return await self._league(await self._leagues(), interaction, chosen)
        except LeagueError:
            return None

    async def ruleset_autocomplete(self, interaction: Interaction,
                                   current: str) -> list[app_commands.Choice[str]]:
        """Creating: every game; otherwise the games of the chosen league."""
        creating = interaction.command is not None and interaction.command.name == "create"
        lg = None if creating else await self._namespace_league(interaction)
        options = list(lg.rulesets) if lg is not None else list(game_ids())
        typed = current.casefold().strip()
        out = [app_commands.Choice(name=title_of(r)[:100], value=r) for r in options
               if typed in title_of(r).casefold() or typed in r]
        return out[:MAX_OPTIONS]

    async def player_autocomplete(self, interaction: Interaction,
                                  current: str) -> list[app_commands.Choice[str]]:
        """The players signed up for the chosen league's season."""
        lg = await self._namespace_league(interaction)
        if lg is None:
            return []
        leagues = await self._leagues()
        number = getattr(interaction.namespace, "season", None)
        try:
            season = await leagues.season(lg.league_id, number if isinstance(number, int) else None)
        except LeagueError:
            return []
        typed = current.casefold().strip()
        return [app_commands.Choice(name=s.display_name[:100], value=str(s.user_id))
                for s in await leagues.store.signups(lg.league_id, season.number)
                if typed in s.display_name.casefold()][:MAX_OPTIONS]

    for _command in (season_open, season_close, signup, withdraw, queue, leave_queue, pair, standings,
                     profile, games, export):
        _command.autocomplete("league")(league_autocomplete)
    create.autocomplete("ruleset")(ruleset_autocomplete)
    create.autocomplete("ruleset2")(ruleset_autocomplete)
    queue.autocomplete("ruleset")(ruleset_autocomplete)
    pair.autocomplete("ruleset")(ruleset_autocomplete)
    profile.autocomplete("player")(player_autocomplete)
    for _option in ("player1", "player2", "player3", "player4", "player5", "player6"):
        pair.autocomplete(_option)(player_autocomplete)
    del _command, _option


def install(bot: BotBase) -> None:
    """Add ``/league`` to the bot's command tree and register its buttons (from ``BotBase.__init__``)."""
    bot.tree.add_command(LeagueGroup(bot))
    bot.add_dynamic_items(TablePageButton)


__all__ = ["LeagueGroup", "TablePageButton", "install"]
