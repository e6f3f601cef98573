"""Issue 28, item 7: a game's thread opens with "Game ... begins". Lobby lines ("AI 1 takes a seat")
delivered after the start that opened the thread landed in the thread, and the pinned status could
be posted before the first line of the game.

The bot is served over the local fake Discord (:mod:`tests.bot.test_discord_e2e`); the outbox is held
while the lobby fills and the game starts, so everything goes out in one go after the start, as it
does when the commands come faster than the delivery.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

import tests.toy.spec  # noqa: F401  (registers the test-only game)
from bot.discord import transport
from tests.bot.test_delivery import ALICE, NAMES, TOY, delivered
from tests.bot.test_discord_e2e import Running, loopback_only, no_errors_logged
from tests.support.fake_discord import CHANNEL_ID, GUILD_ID, FakeDiscord

__all__ = ["loopback_only", "no_errors_logged"]  # the e2e module's autouse guards apply here too


@pytest_asyncio.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord(dict(NAMES), heartbeat_interval=250) as f:
        with f.configure():
            yield f


@pytest.mark.asyncio
async def test_lobby_lines_stay_in_the_channel_and_the_thread_opens_with_the_start(
        fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bot = await Running(fake, tmp_path).start()
    try:
        svc = bot.service
        gid = (await svc.create_lobby(ALICE, "alice", TOY, guild_id=GUILD_ID, channel_id=CHANNEL_ID)).game_id
        await delivered(svc.store)
        held: list[transport.Transport] = []
        monkeypatch.setattr(transport.Transport, "wake", lambda self: held.append(self))
        await svc.add_ai(gid, ALICE)
        await svc.start(gid, ALICE)
        monkeypatch.undo()
        assert held, "the outbox was never woken"
        # the game's lines are slow to go (Discord's latency, a rate limit): the status worker, woken
        # by the thread's opening, must still not pin the status above them
        send = transport.Transport.send_channel

        async def slow(self: transport.Transport, channel_id: int, text: str, **kw: Any) -> None:
            if channel_id != CHANNEL_ID:
                await asyncio.sleep(0.3)
            await send(self, channel_id, text, **kw)

        monkeypatch.setattr(transport.Transport, "send_channel", slow)
        held[0].wake()
        await delivered(svc.store)
        thread = (await svc.status(gid)).thread_id
        assert thread is not None
        in_thread = fake.created_in(thread)
        assert not [r.content for r in in_thread if "takes a seat" in r.content]
        assert [r for r in fake.created_in(CHANNEL_ID) if "AI 1 takes a seat" in r.content]
        assert f"Game {gid} begins" in in_thread[0].content, [r.content for r in in_thread]
        pinned = fake.pins.get(thread)
        assert pinned, "no status was pinned"
        status = next(i for i, r in enumerate(in_thread) if int((r.response or {}).get("id", 0)) == pinned[0])
        assert status > 0
    finally:
        await bot.shutdown()
