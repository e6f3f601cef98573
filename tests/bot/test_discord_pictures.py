"""Issue 16, "boards for chat": the pictures a turn notice carries on Discord, through the fake Discord.

"The picture a turn notice carries must be readable at 800 px wide: for the History maps, a close-up
of the region where the turn happened (large names, the pieces) plus the whole map as a second
image; for Rise, the map and the dashboard as separate pictures, each no taller than wide."

Uses the harness of :mod:`tests.bot.test_discord_bot` (its bot draws pictures 400 px wide).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from engine.registry import spec
from render.stamps import StampDraw
from tests.bot.test_discord_bot import (
    ALICE,
    BOB,
    CLASSIC,
    Rig,
    _policy,
    fake,
    followup,
    lobby_to_start,
    no_errors_logged,
    rig,
)

__all__ = ["fake", "no_errors_logged", "rig"]  # the harness's fixtures, used here by name
pytestmark = pytest.mark.asyncio
RISE = "rise"


def tags(files: list[str]) -> list[str]:
    """What each picture is, from its file name ``annals-GAME-SEQ-TAG.png``."""
    return [name.removesuffix(".png").rsplit("-", 1)[1] for name in files]


async def play_until(rig: Rig, game: str, done: Callable[[], bool], limit: int = 200) -> None:
    """The people play the harness's fixed policy, each notice delivered before the next move, until
    ``done()``."""
    for _ in range(limit):
        await rig.settle()
        if done():
            return
        st = await rig.service.status(game)
        assert st.status == "active" and st.waiting_for, st.status
        seq, legal = await rig.service.legal_actions(game, st.waiting_for[0])
        await rig.service.submit(game, st.waiting_for[0], _policy(legal), seq)
    raise AssertionError("the wanted notice never came")


def dms_with_pictures(rig: Rig, user: int) -> list[list[str]]:
    return [post.files for post in rig.fake.dm_posts(user) if post.files]


async def test_a_history_turn_dm_carries_the_close_up_and_the_whole_map(rig: Rig) -> None:
    game = await lobby_to_start(rig, CLASSIC, seats=3)

    def closeup_sent() -> bool:
        return any("closeup" in tags(files)
                   for user in (ALICE, BOB) for files in dms_with_pictures(rig, user))

    await play_until(rig, game, closeup_sent)
    sent = [files for user in (ALICE, BOB) for files in dms_with_pictures(rig, user)]
    with_closeup = [files for files in sent if "closeup" in tags(files)]
    # the close-up of where the others' turns went first, then the whole map; nothing else
    assert with_closeup and all(tags(files) == ["closeup", "map"] for files in with_closeup), sent
    # a DM whose news names no land (the game's first turn) carries the whole map alone
    assert all(tags(files) in (["closeup", "map"], ["map"]) for files in sent), sent
    for files in with_closeup:
        assert all(name.startswith(f"annals-{game}-") for name in files)


async def test_a_rise_turn_dm_carries_the_map_and_the_dashboard(rig: Rig) -> None:
    game = await lobby_to_start(rig, RISE, seats=3)

    def both_moved() -> bool:
        return bool(dms_with_pictures(rig, ALICE)) and bool(dms_with_pictures(rig, BOB))

    await play_until(rig, game, both_moved)
    sent = dms_with_pictures(rig, ALICE) + dms_with_pictures(rig, BOB)
    assert sent and all(tags(files) == ["map", "dashboard"] for files in sent), sent


async def test_with_dms_closed_the_ping_in_the_thread_carries_the_same_pictures(rig: Rig) -> None:
    rig.fake.closed_dms.add(BOB)
    game = await lobby_to_start(rig, RISE, seats=3)
    thread = (await rig.service.status(game)).thread_id
    assert thread is not None

    def pinged() -> bool:
        return any(f"<@{BOB}>, there is news" in post.content and post.files
                   for post in rig.fake.channel_posts(channel_id=thread))

    await play_until(rig, game, pinged)
    pings = [post for post in rig.fake.channel_posts(channel_id=thread)
             if f"<@{BOB}>, there is news" in post.content and post.files]
    assert pings and all(tags(post.files) == ["map", "dashboard"] for post in pings)


async def test_the_board_command_shows_the_notice_pictures_to_everyone(rig: Rig) -> None:
    game = await lobby_to_start(rig, RISE, seats=3)
    reply = followup(await rig.command(BOB, "board", game=game))
    assert reply.flags == 0 and tags(reply.files) == ["map", "dashboard"]


async def test_the_pictures_keys_name_the_people_at_the_table(rig: Rig, monkeypatch: pytest.MonkeyPatch
                                                             ) -> None:
    """Issue 28: "alice — Red" in the pictures' keys, the people as the service seats them (a view holds
    seats, not people: the front passes them)."""
    written: list[str] = []
    stamp = StampDraw.text

    def recorded(self: StampDraw, xy: Any, text: Any, *args: Any, **kwargs: Any) -> None:
        written.append(str(text))
        stamp(self, xy, text, *args, **kwargs)

    monkeypatch.setattr(StampDraw, "text", recorded)
    game = await lobby_to_start(rig, RISE, seats=3)
    followup(await rig.command(BOB, "board", game=game))
    seats = [s for s in (await rig.service.status(game)).seats if s.seat is not None]
    assert len(seats) == 3
    drawn = "\n".join(written)
    for seat in seats:
        assert f"{seat.name} — {spec(RISE).colour(seat.seat or 0)}" in drawn, seat
