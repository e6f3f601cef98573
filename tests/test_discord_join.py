"""``/annals join`` on a game under way (issue 18), through the Discord layer: a game whose rules take
newcomers (7 Ages, L337) seats the person, the thread names them "bob (Green)" and their hand and first
decision reach them by DM; a game whose rules take none refuses in one line.

The 7 Ages game is opened through the service with a seed (a lobby's game draws its own), as the tests
of the service do; every command after that goes through Discord.
"""

from __future__ import annotations

import pytest

from engine.registry import spec
from tests.test_discord_bot import (
    ALICE,
    BOB,
    CHANNEL_ID,
    GUILD_ID,
    NAMES,
    TOY,
    Rig,
    fake,
    followup,
    lobby_to_start,
    no_errors_logged,
    rig,
)

__all__ = ["fake", "no_errors_logged", "rig"]  # fixtures used by name

pytestmark = pytest.mark.asyncio
SEVEN = spec("seven-ages")
CAROL = 700_000_000_000_000_003
NAMES.setdefault(CAROL, "carol")


async def seven_ages_in_play(rig: Rig) -> str:
    svc = rig.service
    gid = (await svc.create_lobby(ALICE, "alice", SEVEN.id, seed=42, guild_id=GUILD_ID,
                                  channel_id=CHANNEL_ID)).game_id
    await svc.add_ai(gid, ALICE)
    await svc.start(gid, ALICE)
    game = SEVEN.load()
    while True:  # alice's skip moves take the game through the preparation
        seq, state = await svc.engine_state(gid)
        if state.turn > 0:
            await rig.settle()
            return gid
        seat = next(s.seat for s in (await svc.status(gid)).seats if s.user_id == ALICE)
        assert seat is not None
        await svc.submit(gid, ALICE, game.timeout_action(state, seat).to_json(), seq)


async def test_join_seats_a_newcomer_in_a_running_game_that_takes_them(rig: Rig) -> None:
    gid = await seven_ages_in_play(rig)
    mark = len(rig.fake.calls)
    reply = followup(await rig.command(BOB, "join", game=gid)).content
    assert f"You joined game `{gid}`" in reply
    await rig.settle()
    thread = "\n".join(r.content for r in rig.fake.public_posts(mark))
    assert "Bob (Third seat) joins the game" in thread, thread  # his Discord display name; no colour yet
    dms = "\n".join(r.content for r in rig.fake.dm_posts(BOB, mark))
    assert "You draw the " in dms, dms  # his 7 cards, to him alone
    assert "You draw" not in thread
    panel = [c for r in rig.fake.dm_posts(BOB, mark) for c in r.components]
    assert panel, dms
    again = followup(await rig.command(BOB, "join", game=gid)).content
    assert "already have a seat" in again and "\n" not in again.strip()


async def test_join_of_a_running_game_without_newcomers_is_refused_in_one_line(rig: Rig) -> None:
    game = await lobby_to_start(rig, TOY)
    reply = followup(await rig.command(CAROL, "join", game=game)).content
    assert "The game has already started." in reply and "\n" not in reply.strip()
    assert [s.user_id for s in (await rig.service.status(game)).seats if s.user_id == CAROL] == []
