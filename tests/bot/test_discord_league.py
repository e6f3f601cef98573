"""The ``/league`` commands, driven through the real discord.py tree with no network.

Uses the harness of :mod:`tests.bot.test_discord_bot` (patched ``HTTPClient.request``
and webhook adapter, gateway payloads fed to ``ConnectionState``): creating a
league, opening a season, signing up, the queue starting a game in its own
thread, the standings picture and its paged text (also after a restart), the
CSV exports, the permission refusals, a played league game's result and the
end of the season; and the store migration from the previous version.
"""

from __future__ import annotations

import contextlib
import io
import re
import shutil
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import discord
import pytest
import pytest_asyncio
from discord.webhook.async_ import AsyncWebhookAdapter
from PIL import Image

from bot.clock import FakeClock
from bot.discord.client import AnnalsBot
from bot.leagues.models import PointsTable, placings_from_ranking
from bot.leagues.service import LeagueService, league_service_of
from bot.leagues.standings import parse_results_csv, parse_standings_csv
from bot.leagues.store import TABLES
from bot.service import GameService
from bot.store import MIGRATIONS_DIR, Store, list_migrations
from engine.registry import make_policy
from tests.bot.test_discord_bot import (
    ALICE,
    APP_ID,
    BOB,
    BOT_USER,
    CHANNEL_ID,
    EPHEMERAL,
    GUILD_ID,
    Call,
    FakeDiscord,
    Rig,
    button,
    fake,
    gateway,
    guild_payload,
    no_errors_logged,
)
from tests.support.schema_helpers import service_migrations

__all__ = ["fake", "no_errors_logged"]  # the harness's fixtures, used here by name
pytestmark = pytest.mark.asyncio

CAROL = 700_000_000_000_000_003
ORGANISERS = 810_000_000_000_000_555  # a role of the server
GAME = "history-classic"
SHORT = "eight-minute"  # a short game, to play a league game to its end
NOT_MANAGER = discord.Permissions.general().value & ~discord.Permissions(manage_guild=True,
                                                                         administrator=True).value
MANAGER = discord.Permissions(manage_guild=True, send_messages=True, view_channel=True).value


@pytest_asyncio.fixture
async def rig(fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Rig]:
    """A logged-in bot whose uploaded files are kept (``rig.uploads``: file name -> bytes)."""
    r = await _open_rig(fake, tmp_path, monkeypatch)
    try:
        yield r
    finally:
        await _close_rig(r)


class EarlyRig(Rig):
    """As ``python -m bot`` starts: the league service is open (and registered) before the bot is built."""

    async def open(self) -> Rig:
        self.store = await Store.open(self.db)
        self.service = GameService(self.store, self.clock, seed_factory=lambda: 42)
        await LeagueService.open(self.service)
        self.bot = AnnalsBot(self.service, board_size=400, guild_ready_timeout=0.0)
        await self.bot.login("fake-token")
        state = gateway(self.bot)
        state.parse_ready({"v": 10, "user": BOT_USER, "guilds": [{"id": str(GUILD_ID), "unavailable": True}],
                           "session_id": "s1", "resume_gateway_url": "wss://gateway.test",
                           "application": {"id": str(APP_ID), "flags": 0}, "private_channels": [],
                           "relationships": []})
        state.parse_guild_create(guild_payload())
        return self


async def _open_rig(fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *,
                    early: bool = False) -> Rig:
    uploads: dict[str, bytes] = {}
    recorded = fake.webhook_request
    posted = fake.http_request

    def keep(files: Any) -> None:
        for f in files or []:
            uploads[f.filename] = f.fp.read()
            f.reset()

    async def webhook(_adapter: Any, route: Any, session: Any, **kwargs: Any) -> Any:
        keep(kwargs.get("files"))
        return await recorded(route, session, **kwargs)

    async def http(_client: Any, route: Any, **kwargs: Any) -> Any:
        keep(kwargs.get("files"))
        return await posted(route, **kwargs)

    monkeypatch.setattr(AsyncWebhookAdapter, "request", webhook)
    monkeypatch.setattr(discord.http.HTTPClient, "request", http)
    r = await (EarlyRig if early else Rig)(fake, tmp_path / "annals.sqlite3").open()
    r.uploads = uploads  # type: ignore[attr-defined]
    r.bot._connection.parse_guild_role_create({"guild_id": str(GUILD_ID), "role": role_payload()})
    return r


async def _close_rig(r: Rig) -> None:
    await r.settle()
    leagues = league_service_of(r.service)
    if leagues is not None:
        await leagues.close()
    await r.close()


def role_payload() -> dict[str, Any]:
    return {"id": str(ORGANISERS), "name": "league organisers", "permissions": "0", "position": 1,
            "color": 0, "hoist": False, "managed": False, "mentionable": False, "flags": 0}


def option(name: str, value: Any) -> dict[str, Any]:
    kinds = {bool: 5, int: 4, str: 3}
    return {"name": name, "type": kinds[type(value)], "value": value}


async def league(rig: Rig, user_id: int, sub: str, *, manager: bool = False, roles: tuple[int, ...] = (),
                 role_options: dict[str, int] | None = None, **options: Any) -> list[Call]:
    """``/league SUB option:value ...`` by ``user_id``; returns the REST calls it caused."""
    opts = [option(k, v) for k, v in options.items()]
    data: dict[str, Any] = {"id": str(APP_ID + 8), "name": "league", "type": 1,
                            "options": [{"name": sub, "type": 1, "options": opts}]}
    for name, role in (role_options or {}).items():
        opts.append({"name": name, "type": 8, "value": str(role)})
        data.setdefault("resolved", {}).setdefault("roles", {})[str(role)] = role_payload()
    payload = rig._base(user_id, 2, data)
    payload["member"]["permissions"] = str(MANAGER if manager else NOT_MANAGER)
    payload["member"]["roles"] = [str(r) for r in roles]
    mark = len(rig.fake.calls)
    gateway(rig.bot).parse_interaction_create(payload)
    await rig.settle()
    return rig.fake.since(mark)


async def league_autocomplete(rig: Rig, user_id: int, sub: str, focused: str, typed: str,
                              **options: Any) -> list[dict[str, Any]]:
    opts = [option(k, v) for k, v in options.items()]
    opts.append({"name": focused, "type": 3, "value": typed, "focused": True})
    data = {"id": str(APP_ID + 8), "name": "league", "type": 1,
            "options": [{"name": sub, "type": 1, "options": opts}]}
    mark = len(rig.fake.calls)
    gateway(rig.bot).parse_interaction_create(rig._base(user_id, 4, data))
    await rig.settle()
    callback = next(c for c in rig.fake.since(mark) if "/callback" in c.path)
    assert callback.payload["type"] == 8
    return list(callback.payload["data"]["choices"])


def answer(calls: list[Call]) -> Call:
    """The (single) follow-up a command answered with; it is ephemeral, after an ephemeral defer."""
    callback = next(c for c in calls if "/callback" in c.path)
    assert callback.payload["type"] == 5 and callback.flags == EPHEMERAL
    found = [c for c in calls if c.method == "POST" and c.path.startswith(f"/webhooks/{APP_ID}/")]
    assert len(found) == 1, [c.content for c in found]
    assert found[0].flags == EPHEMERAL
    return found[0]


def buttons(call: Call) -> list[dict[str, Any]]:
    return [c for row in call.components for c in row["components"]]


async def set_up(rig: Rig, ruleset: str = GAME, players: tuple[int, ...] = (ALICE, BOB, CAROL)) -> str:
    """Alice (Manage Server) creates "Sunday League" and opens season 1; ``players`` sign up."""
    reply = answer(await league(rig, ALICE, "create", manager=True, name="Sunday League", ruleset=ruleset,
                                role_options={"organiser_role": ORGANISERS}))
    assert "Sunday League" in reply.content and "is created" in reply.content
    league_id = f"{GUILD_ID}-sunday-league"
    mark = len(rig.fake.calls)
    reply = answer(await league(rig, ALICE, "season-open", manager=True, league=league_id, days=28,
                                points="10, 6, 3, 1"))
    assert "Season 1 is open" in reply.content
    post = [c for c in rig.fake.channel_posts(mark) if "Season 1 of **Sunday League** is open" in c.content]
    assert len(post) == 1 and "10, 6, 3, 1" in post[0].content
    for user in players:
        reply = answer(await league(rig, user, "signup", league=league_id))
        assert "signed up for season 1" in reply.content
    return league_id


# == tests ===================================================================================
async def test_create_open_sign_up_and_the_queue_starts_a_game_in_its_thread(rig: Rig) -> None:
    league_id = await set_up(rig)
    reply = answer(await league(rig, ALICE, "queue", league=league_id, ruleset=GAME, players=3))
    assert "1 of 3 waiting" in reply.content
    reply = answer(await league(rig, BOB, "queue", league=league_id, ruleset=GAME, players=3))
    assert "2 of 3 waiting" in reply.content
    threads_before = dict(rig.fake.threads)
    reply = answer(await league(rig, CAROL, "queue", league=league_id, ruleset=GAME, players=3))
    found = re.search(r"League game `([a-z0-9]+)`", reply.content)
    assert found, reply.content
    game = found.group(1)
    status = await rig.service.status(game)
    assert status.status == "active"
    assert sorted(s.user_id or 0 for s in status.seats) == sorted((ALICE, BOB, CAROL))
    assert status.guild_id == GUILD_ID and status.channel_id == CHANNEL_ID
    new_threads = set(rig.fake.threads) - set(threads_before)
    assert status.thread_id is not None and new_threads == {status.thread_id}
    assert rig.fake.threads[status.thread_id] == CHANNEL_ID
    begins = [c for c in rig.fake.channel_posts(channel_id=status.thread_id) if "begins" in c.content]
    assert len(begins) == 1
    leagues = league_service_of(rig.service)
    assert leagues is not None
    tagged = await leagues.store.get_game(game)
    assert tagged is not None and tagged.league_id == league_id and tagged.thread_id == status.thread_id
    assert await leagues.store.queue(league_id, 1) == []  # the three left the queue
    # a player already in a queued-up game cannot queue again until it ends
    reply = answer(await league(rig, ALICE, "queue", league=league_id, ruleset=GAME, players=3))
    assert "already playing a league game" in reply.content
    assert await leagues.store.queue(league_id, 1) == []
    # leaving a queue one is not in says so
    reply = answer(await league(rig, BOB, "leave-queue", league=league_id))
    assert "not waiting" in reply.content


async def test_permission_refusals_are_ephemeral_and_change_nothing(rig: Rig) -> None:
    # creating needs Manage Server
    reply = answer(await league(rig, BOB, "create", name="Bob's League", ruleset=GAME))
    assert "Manage Server" in reply.content
    leagues = league_service_of(rig.service)
    assert leagues is not None and await leagues.store.leagues(GUILD_ID) == []
    league_id = await set_up(rig)
    mark = len(rig.fake.calls)
    # Bob has neither Manage Server nor the organiser role
    # the slash command's options, as league() takes them (any value a gateway option may hold)
    commands: tuple[tuple[str, dict[str, Any]], ...] = (
        ("season-open", {}), ("season-close", {}),
        ("pair", {"ruleset": GAME, "player1": str(ALICE), "player2": str(BOB), "player3": str(CAROL)}))
    for sub, options in commands:
        reply = answer(await league(rig, BOB, sub, league=league_id, **options))
        assert "Only the league's organisers" in reply.content, (sub, reply.content)
    assert not rig.fake.channel_posts(mark)  # nothing public was said
    season = await leagues.store.current_season(league_id)
    assert season is not None and season.number == 1 and season.status == "open"
    assert await leagues.store.games(league_id) == []
    # Carol holds the organiser role: she may pair players (a fixed game starts at once)
    reply = answer(await league(rig, CAROL, "pair", roles=(ORGANISERS,), league=league_id, ruleset=GAME,
                                player1=f"<@{ALICE}>", player2=str(BOB), player3=str(CAROL)))
    assert "has started" in reply.content
    games = await leagues.store.games(league_id)
    assert len(games) == 1 and games[0].fixed and sorted(games[0].players) == sorted((ALICE, BOB, CAROL))
    # a player who has not signed up cannot queue, and the league must be of this server
    stranger = 700_000_000_000_000_077
    reply = answer(await league(rig, stranger, "queue", league=league_id, ruleset=GAME, players=3))
    assert "Sign up" in reply.content
    reply = answer(await league(rig, ALICE, "signup", league="no-such-league"))
    assert "no league" in reply.content


async def test_standings_picture_and_text_pages_survive_a_restart(
        fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rig = await _open_rig(fake, tmp_path, monkeypatch)
    players = tuple(700_000_000_000_000_100 + i for i in range(12))
    try:
        league_id = await set_up(rig, players=players)
        reply = answer(await league(rig, players[0], "standings", league=league_id))
        assert "Page 1/2" in reply.content and "```" in reply.content
        assert reply.content.count("Someone") == 10  # ten players on the first page
        assert reply.files == ["standings-s1-p1.png"]
        image = Image.open(io.BytesIO(rig.uploads["standings-s1-p1.png"]))  # type: ignore[attr-defined]
        assert image.format == "PNG" and image.width > 500
        prev, nxt = buttons(reply)
        assert prev.get("disabled") and not nxt.get("disabled")
        message = reply.response
    finally:
        await _close_rig(rig)
    # the bot restarts; the old message's Next button still works
    rig = await _open_rig(fake, tmp_path, monkeypatch)
    try:
        calls = await button(rig, players[3], message, nxt["custom_id"])
        callback = next(c for c in calls if "/callback" in c.path)
        assert callback.payload["type"] == 6  # deferred update: the message itself is edited
        edit = [c for c in calls if c.method == "PATCH" and c.path.endswith("/messages/@original")]
        assert len(edit) == 1
        assert "Page 2/2" in edit[0].content and edit[0].content.count("Someone") == 2
        assert edit[0].files == ["standings-s1-p2.png"]
        assert Image.open(io.BytesIO(rig.uploads["standings-s1-p2.png"])).format == "PNG"  # type: ignore[attr-defined]
        prev, nxt = (c for row in edit[0].payload["components"] for c in row["components"])
        assert not prev.get("disabled") and nxt.get("disabled")
        # the same page posted for everyone
        mark = len(rig.fake.calls)
        reply = answer(await league(rig, players[0], "standings", league=league_id, page=2, public=True))
        posts = rig.fake.channel_posts(mark)
        assert reply.content == "Posted." and len(posts) == 1 and "Page 2/2" in posts[0].content
        assert posts[0].files == ["standings-s1-p2.png"]
    finally:
        await _close_rig(rig)


async def play_out(rig: Rig, game: str) -> None:
    """Every person plays the random AI's move, a minute apart."""
    status = await rig.service.status(game)
    while status.status == "active":
        rig.clock.advance(60)
        user = status.waiting_for[0]
        seq, state = await rig.service.engine_state(game)
        seat = next(s.seat for s in status.seats if s.user_id == user)
        assert seat is not None
        await rig.service.submit(game, user, make_policy(status.ruleset, "random", seq).choose(state, seat)
                                 .to_json(), seq)
        status = await rig.service.status(game)
    await rig.settle()


@pytest.mark.parametrize("early", [False, True], ids=["on-first-use", "at-start"])
async def test_a_played_game_shows_in_results_exports_and_the_season_end(
        fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, early: bool) -> None:
    rig = await _open_rig(fake, tmp_path, monkeypatch, early=early)
    try:
        league_id = await set_up(rig, ruleset=SHORT)
        answer(await league(rig, ALICE, "queue", league=league_id, ruleset=SHORT, players=2))
        reply = answer(await league(rig, BOB, "queue", league=league_id, ruleset=SHORT, players=2))
        game = re.search(r"League game `([a-z0-9]+)`", reply.content).group(1)  # type: ignore[union-attr]
        if early:
            # a restart, and no /league command before the game ends: only the service opened at
            # start-up (as python -m bot does) follows the game and has the thread told the result
            await _close_rig(rig)
            rig = await _open_rig(fake, tmp_path, monkeypatch, early=True)
        await play_out(rig, game)
        await _check_result(rig, league_id, game)
    finally:
        await _close_rig(rig)


async def _check_result(rig: Rig, league_id: str, game: str) -> None:
    status = await rig.service.status(game)
    assert status.status == "over" and status.ranking is not None and status.scores is not None
    players = tuple(s.user_id for s in sorted(status.seats, key=lambda s: s.seat or 0))
    placings = placings_from_ranking(status.ranking, 2)
    winner = players[placings.index(1)]
    awarded = PointsTable((10, 6, 3, 1)).award(placings)  # 2 players: 10 and 1
    assert sorted(awarded) == [1.0, 10.0]
    # the thread hears the league points
    assert status.thread_id is not None
    result = [c for c in rig.fake.channel_posts(channel_id=status.thread_id) if "League result" in c.content]
    assert len(result) == 1 and f"1st <@{winner}>" in result[0].content
    assert "10 league points" in result[0].content
    # finished games list links to the thread
    reply = answer(await league(rig, CAROL, "games", league=league_id))
    assert f"`{game}`" in reply.content and f"<#{status.thread_id}>" in reply.content
    # the exports are CSV attachments that parse back to the same numbers
    reply = answer(await league(rig, CAROL, "export", league=league_id, what="results"))
    assert len(reply.files) == 1 and reply.files[0].endswith("-results.csv")
    rows = parse_results_csv(rig.uploads[reply.files[0]].decode())  # type: ignore[attr-defined]
    assert [(r.game_id, r.user_id, r.placing, r.score, r.points) for r in rows] == [
        (game, u, placings[i], status.scores[i], awarded[i]) for i, u in enumerate(players)]
    assert {r.thread_id for r in rows} == {status.thread_id}
    reply = answer(await league(rig, CAROL, "export", league=league_id, what="standings"))
    table = parse_standings_csv(rig.uploads[reply.files[0]].decode())  # type: ignore[attr-defined]
    assert [(r.user_id, r.points, r.games, r.wins) for r in table] == [
        (winner, 10.0, 1, 1), (players[placings.index(2)], 1.0, 1, 0), (CAROL, 0.0, 0, 0)]
    assert table[0].rating is not None and table[1].rating is not None and table[0].rating > table[1].rating
    # the winner's profile, with the rating chart
    reply = answer(await league(rig, ALICE, "profile", league=league_id, player=str(winner)))
    assert "Games 1, wins 1 (100%)" in reply.content and "provisional" in reply.content
    assert len(reply.files) == 1
    assert Image.open(io.BytesIO(rig.uploads[reply.files[0]])).format == "PNG"  # type: ignore[attr-defined]
    # the end of the season: final table, chart and champion, for everyone
    mark = len(rig.fake.calls)
    reply = answer(await league(rig, CAROL, "season-close", roles=(ORGANISERS,), league=league_id))
    assert "Season 1 is closed" in reply.content
    posts = rig.fake.channel_posts(mark)
    assert len(posts) == 1
    assert "champion" in posts[0].content and f"<@{winner}>" in posts[0].content
    assert posts[0].files == ["final-table-s1.png", "ratings-s1.png"]
    for name in posts[0].files:
        assert Image.open(io.BytesIO(rig.uploads[name])).format == "PNG"  # type: ignore[attr-defined]
    leagues = league_service_of(rig.service)
    assert leagues is not None and await leagues.store.champions(league_id, 1) == (winner,)


async def test_leave_the_queue_and_withdraw(rig: Rig) -> None:
    league_id = await set_up(rig)
    leagues = league_service_of(rig.service)
    assert leagues is not None
    answer(await league(rig, ALICE, "queue", league=league_id, ruleset=GAME, players=3))
    answer(await league(rig, ALICE, "queue", league=league_id, ruleset=GAME, players=4))
    reply = answer(await league(rig, ALICE, "leave-queue", league=league_id))
    assert "stopped waiting (2 queues" in reply.content
    assert await leagues.store.queue(league_id, 1) == []
    answer(await league(rig, BOB, "queue", league=league_id, ruleset=GAME, players=3))
    reply = answer(await league(rig, BOB, "withdraw", league=league_id))
    assert "left the season" in reply.content
    assert await leagues.store.queue(league_id, 1) == []  # withdrawing leaves the queues too
    assert BOB not in {s.user_id for s in await leagues.store.signups(league_id, 1)}
    reply = answer(await league(rig, BOB, "withdraw", league=league_id))
    assert "not signed up" in reply.content
    reply = answer(await league(rig, BOB, "queue", league=league_id, ruleset=GAME, players=3))
    assert "Sign up" in reply.content


async def test_autocomplete_offers_leagues_rulesets_and_players(rig: Rig) -> None:
    league_id = await set_up(rig)
    reply = answer(await league(rig, BOB, "list"))
    assert "**Sunday League**: History of the World" in reply.content
    assert "season 1 open until" in reply.content
    choices = await league_autocomplete(rig, BOB, "signup", "league", "sun")
    assert choices == [{"name": "Sunday League", "value": league_id}]
    assert await league_autocomplete(rig, BOB, "signup", "league", "nothing like it") == []
    choices = await league_autocomplete(rig, BOB, "queue", "ruleset", "", league=league_id)
    assert [c["value"] for c in choices] == [GAME]  # the league's games only
    choices = await league_autocomplete(rig, BOB, "create", "ruleset", "eight")
    assert [c["value"] for c in choices] == [SHORT]
    choices = await league_autocomplete(rig, BOB, "profile", "player", "", league=league_id)
    assert sorted(int(c["value"]) for c in choices) == sorted((ALICE, BOB, CAROL))
    choices = await league_autocomplete(rig, BOB, "pair", "player2", "bo", league=league_id)
    assert [int(c["value"]) for c in choices] == [BOB]


# == the migration ===========================================================================
async def test_store_open_upgrades_a_database_of_the_previous_version(tmp_path: Path) -> None:
    previous = tmp_path / "previous"
    previous.mkdir()
    for number, path in list_migrations(MIGRATIONS_DIR):
        if number < 4:
            shutil.copy(path, previous / path.name)
    db = tmp_path / "annals.sqlite3"
    async with await Store.open(db, migrations_dir=previous) as old:
        assert await old.user_version() == 3
        # today's service writes what the later migrations add (the outbox, each move's record, the
        # time banks, ...): the old schema gets those tables and columns
        with contextlib.closing(sqlite3.connect(db)) as con6:
            for later in service_migrations():
                con6.executescript(later.read_text())
        svc = GameService(old, FakeClock(1_800_000_000), seed_factory=lambda: 5)
        over = (await svc.create_lobby(ALICE, "Alice", GAME, creator_joins=False)).game_id
        for _ in range(3):
            await svc.add_ai(over, ALICE)
        await svc.start(over, ALICE)  # AI seats only: played to the end at once
        lobby = (await svc.create_lobby(BOB, "Bob", SHORT)).game_id
        await svc.join(lobby, ALICE, "Alice")
        actions = len(await old.actions(over))
    con = sqlite3.connect(db)
    before = {t: sorted(con.execute(f"SELECT * FROM {t}").fetchall(), key=repr)
              for (t,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    con.close()
    assert not any(t.startswith("league") for t in before)
    upto = tmp_path / "upto"  # migrations after 0004 (e.g. 0005) are not this test's business
    upto.mkdir()
    for number, path in list_migrations(MIGRATIONS_DIR):
        if number <= 4:
            shutil.copy(path, upto / path.name)
    async with await Store.open(db, migrations_dir=upto) as store:  # 0004_leagues.sql applies
        assert await store.user_version() == 4
        assert await store.integrity_problems() == []
        con = sqlite3.connect(db)
        try:
            for table, rows in before.items():
                assert sorted(con.execute(f"SELECT * FROM {table}").fetchall(), key=repr) == rows, table
            names = {t for (t,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        finally:
            con.close()
        assert names - set(before) == set(TABLES)
        assert len(await store.actions(over)) == actions and (await store.get_game(over)).status == "over"  # type: ignore[union-attr]
        assert (await store.get_game(lobby)).status == "lobby"  # type: ignore[union-attr]
        leagues = await LeagueService.open(GameService(store, FakeClock(1_800_000_000)))
        try:
            assert await leagues.store.leagues(GUILD_ID) == []
        finally:
            await leagues.close()
    async with await Store.open(db, migrations_dir=upto) as again:  # opening again applies nothing
        assert await again.user_version() == 4
