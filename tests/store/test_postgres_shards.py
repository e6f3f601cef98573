"""Sharded bot processes on one PostgreSQL database, against the project's fake Discord.

Two bot "processes" (each its own store, service, scheduler and client, as ``python -m bot --shards
0-1 --shard-count 4`` and ``--shards 2-3 --shard-count 4`` would run) serve four servers spread over
four shards. Every interaction is answered once, by the process that owns its server's shard, and
what one process writes the other reads from the shared database.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import discord
import pytest
import pytest_asyncio

import bot.discord as bot_discord
from bot.config import Config, ConfigError, check_shards, load_config, parse_shards
from bot.discord.client import AnnalsBot, ShardedAnnalsBot, make_bot
from bot.scheduler import Scheduler
from bot.service import GameService
from bot.storage import open_store
from tests.support import pg
from tests.support.fake_discord import TOKEN, FakeDiscord

ALICE = 710_000_000_000_000_001
SHARDS = 4
STEP = 20.0  # seconds to wait for a step before failing (never a timing assertion)


def test_shard_settings_are_read_and_checked() -> None:
    assert parse_shards("0-3") == (0, 1, 2, 3) and parse_shards("5, 0,2-3") == (0, 2, 3, 5)
    for bad in ("", "a", "3-1", "1-"):
        with pytest.raises(ValueError):
            parse_shards(bad)
    config = load_config({"ANNALS_SHARDS": "4-7", "ANNALS_SHARD_COUNT": "8"}, env_file=None)
    assert (config.shard_ids, config.shard_count) == ((4, 5, 6, 7), 8)
    assert load_config({}, env_file=None).shard_count is None  # the default: one unsharded process
    with pytest.raises(ConfigError, match="needs ANNALS_SHARD_COUNT"):
        check_shards((0, 1), None)
    with pytest.raises(ConfigError, match=r"shards \[8\] are not below the shard count 8"):
        check_shards((7, 8), 8)


@pytest.mark.asyncio
async def test_shard_options_choose_the_sharded_client(tmp_path: Path) -> None:
    store = await open_store(tmp_path / "annals.sqlite3")
    try:
        service = GameService(store)
        plain = make_bot(service)
        sharded = make_bot(service, shard_ids=[2, 3], shard_count=8)
        assert type(plain) is AnnalsBot and not isinstance(plain, discord.AutoShardedClient)
        assert isinstance(sharded, ShardedAnnalsBot) and isinstance(sharded, discord.AutoShardedClient)
        assert (sharded.shard_ids, sharded.shard_count) == ([2, 3], 8)
        await plain.close()  # (a sharded client that never connected has nothing to close)
    finally:
        await store.close()


class Process:
    """One bot process: its own store and service on the shared database, serving some shards."""

    def __init__(self, url: str, tmp_path: Path, shard_ids: tuple[int, ...]) -> None:
        self.config = Config(discord_token=TOKEN, db_path=url, backup_dir=tmp_path / "backups",
                             backup_interval=0, shard_ids=shard_ids, shard_count=SHARDS)
        self.stop = asyncio.Event()
        self.received: list[int] = []  # interaction ids this process's client received

    async def start(self, built: list[AnnalsBot]) -> None:
        self.store = await open_store(self.config.db_path)
        self.service = GameService(self.store, seed_factory=lambda: 42)
        assert await self.service.follow_others()  # as python -m bot does: it hears the other process
        self.scheduler = Scheduler(self.service)
        work = bot_discord.serve(self.config, self.service, self.scheduler, self.stop)
        self.bot = built[-1]  # serve builds the client at once

        async def on_interaction(interaction: discord.Interaction[Any]) -> None:
            self.received.append(interaction.id)

        self.bot.on_interaction = on_interaction  # type: ignore[attr-defined]  # Client.dispatch finds it
        await self.scheduler.start(paused=True)
        self.task = asyncio.ensure_future(work)

        async def ready() -> None:  # every shard of this process connected, its servers received
            while not self.bot.is_ready():
                if self.task.done():
                    raise AssertionError(f"the bot stopped: {self.task.exception()!r}")
                await asyncio.sleep(0.02)

        await asyncio.wait_for(ready(), STEP)

    async def shutdown(self) -> None:
        self.stop.set()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.task, 30)
        await self.scheduler.shutdown()
        await self.service.stop_following()
        await self.store.close()


@pytest.fixture
def postgres_url() -> str:
    srv = pg.server()
    if srv is None:
        pytest.skip(pg.WHY_NOT[0])
    return pg.fresh_database(srv)


@pytest_asyncio.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord({ALICE: "alice"}, heartbeat_interval=250, guilds=4, shard_count=SHARDS) as f:
        with f.configure():
            yield f


@pytest.mark.asyncio
async def test_postgres_sharded_processes_answer_each_interaction_once_from_the_owning_shard(
        postgres_url: str, fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    url = postgres_url

    async def no_wait(self: discord.Client, shard_id: int | None, *, initial: bool = False) -> None:
        """Discord asks 5 s between two IDENTIFYs; the fake does not."""

    monkeypatch.setattr(discord.AutoShardedClient, "before_identify_hook", no_wait)
    built: list[AnnalsBot] = []
    real = make_bot  # the function serve calls through bot.discord, patched there below

    def recording(*args: Any, **kwargs: Any) -> AnnalsBot:
        built.append(real(*args, **kwargs))
        return built[-1]

    monkeypatch.setattr(bot_discord, "make_bot", recording)
    processes = [Process(url, tmp_path, (0, 1)), Process(url, tmp_path, (2, 3))]
    try:
        for p in processes:
            await p.start(built)
        assert sorted(fake.shard_sockets) == [0, 1, 2, 3]
        assert sorted({fake.shard_of(g) for g in fake.guild_channels}) == [0, 1, 2, 3]  # one server each
        sent: dict[int, int] = {}  # interaction id -> its server
        for _ in range(2):
            for guild in fake.guild_channels:
                interaction = await fake.command(ALICE, "annals", "games", guild_id=guild)
                sent[int(interaction["id"])] = guild
        await fake.wait_for(lambda: all(fake.callbacks(i) for i in sent), STEP, "every interaction answered")
        await asyncio.sleep(0.2)  # time for a second, wrong answer to arrive, if there were one
        for interaction_id, guild in sent.items():
            assert len(fake.callbacks(interaction_id)) == 1, f"interaction {interaction_id} answered twice"
            shard = fake.shard_of(guild)
            owner = next(p for p in processes if shard in (p.config.shard_ids or ()))
            others = [p for p in processes if p is not owner]
            assert interaction_id in owner.received
            assert all(interaction_id not in p.received for p in others)
            assert fake.routed[interaction_id] == shard
        # one database: a lobby opened through one process is there for the other
        out = await processes[0].service.create_lobby(ALICE, "alice", "history-classic",
                                                      guild_id=max(fake.guild_channels))
        row = await processes[1].store.get_game(out.game_id)
        assert row is not None and row.guild_id == max(fake.guild_channels)
    finally:
        for p in processes:
            if hasattr(p, "task"):
                await p.shutdown()
