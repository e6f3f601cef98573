"""A quiet move leaves the others' panels in date (issue 27, "hidden orders are hidden state").

The unmodified bot against the local fake Discord (:mod:`tests.support.fake_discord`, the harness of
tests/bot/test_discord_e2e.py): a person's decision panel carries the game's move counter in every
custom id, and a click on a panel built at another counter is refused as out of date. A quiet move of
another seat (:meth:`engine.core.Game.quiet`, here a private standing preference of 7 Ages: only its
sender sees it) must not move that counter, or the refusal itself would tell the person that someone
did something hidden. The game is chosen by its spec's ``quiet_moves`` facet, never by id.
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from engine import registry
from engine.spec import GameSpec
from tests.bot.test_discord_e2e import STEP, Running, loopback_only, no_errors_logged
from tests.support.fake_discord import EPHEMERAL, FakeDiscord, Request

__all__ = ["loopback_only", "no_errors_logged"]  # the e2e harness's fixtures, used here by name
pytestmark = pytest.mark.asyncio
ALICE = 710_000_000_000_000_001
BOB = 710_000_000_000_000_002
PEOPLE = {ALICE: "alice", BOB: "bob"}
QUIET = [s for s in registry.specs() if s.quiet_moves]
MOVES = 80  # random choices at most until a move may be taken back (7 Ages: within about 35)


@pytest_asyncio.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord(PEOPLE, heartbeat_interval=250) as f:
        with f.configure():
            yield f
    assert not f.unknown, [(r.method, r.path) for r in f.unknown]
    assert not f.invalid, [(r.method, r.path, r.response) for r in f.invalid]


def first_button(reply: Request) -> str:
    """The custom id of the first entry of a decision panel."""
    item = reply.components[0]["components"][0]
    assert str(item["custom_id"]).startswith("dp:"), item
    return str(item["custom_id"])


async def choose(bot: Running, user: int, reply: Request, pick: random.Random | None) -> Request:
    """Click an entry of the decision panel in ``reply`` (a button, or an option of a select), the first
    one or, with ``pick``, one at random; a group, a page or a question opened by it is answered alike."""
    for _ in range(4):
        items = [(str(item.get("custom_id", "")), item) for row in reply.components
                 for item in row["components"]]
        items = [(cid, item) for cid, item in items if cid.startswith("dp:") and not cid.startswith("dp:u:")]
        entries: list[tuple[str, list[str] | None]] = [
            (cid, [o["value"]]) for cid, item in items if item["type"] == 3 for o in item["options"]]
        entries += [(cid, None) for cid, item in items if item["type"] != 3]
        custom_id, values = entries[0] if pick is None else pick.choice(entries)
        interaction = await bot.fake.click(user, reply.response, custom_id, values,
                                           component_type=3 if values else 2)
        reply = await bot.fake.answered(interaction, STEP)
        if reply.content.startswith("You chose:") or not reply.components:
            break
    return reply


def undo_button(reply: Request) -> str | None:
    found = [str(item["custom_id"]) for row in reply.components for item in row["components"]
             if str(item.get("custom_id", "")).startswith("dp:u:")]
    return found[0] if found else None


def panel_ids(reply: Request) -> list[str]:
    return [str(item.get("custom_id", "")) for row in reply.components for item in row["components"]]


async def quiet_move(bot: Running, spec: GameSpec, gid: str, sender: int) -> None:
    """``sender``'s first quiet move now (a private preference of theirs), sent as the console would."""
    status = await bot.service.status(gid)
    seat = next(s.seat for s in status.seats if s.user_id == sender)
    assert seat is not None
    _, state = await bot.service.engine_state(gid)
    move = next(m for m in spec.load().quiet_examples(state, seat) if m.kind == "prefer")
    await bot.service.submit(gid, sender, move.to_json(), status.seq)
    assert (await bot.service.status(gid)).seq == status.seq


@pytest.mark.parametrize("spec", QUIET, ids=[s.id for s in QUIET])
async def test_another_seats_clicks_after_a_quiet_move_are_accepted(spec: GameSpec, fake: FakeDiscord,
                                                                   tmp_path: Path) -> None:
    bot = await Running(fake, tmp_path).start()
    try:
        service = bot.service
        gid = (await service.create_lobby(ALICE, "alice", spec.id)).status.game_id
        await service.join(gid, BOB, "bob")
        await service.start(gid, ALICE)
        status = await service.status(gid)
        clicker = status.waiting_for[0]
        sender = next(u for u in PEOPLE if u != clicker)

        # a panel built before the other seat's quiet move: the same panel after it, and its click counts
        _, panel = await bot.command(clicker, "play", game=gid)
        assert f":{gid}:{status.seq}:{clicker}:" in first_button(panel)
        await quiet_move(bot, spec, gid, sender)
        _, again = await bot.command(clicker, "play", game=gid)
        assert panel_ids(again) == panel_ids(panel) and again.content == panel.content
        answer = await choose(bot, clicker, panel, None)
        assert answer.flags == EPHEMERAL and "out of date" not in answer.content
        assert answer.content.startswith("You chose:"), answer.content

        # an Undo button from before the other seat's quiet move still takes the move back
        pick = random.Random(2)
        for _ in range(MOVES):
            undo = undo_button(answer)
            if undo is not None:
                break
            status = await service.status(gid)
            assert status.status == "active" and status.waiting_for, "no move to take back came"
            clicker = status.waiting_for[0]
            _, panel = await bot.command(clicker, "play", game=gid)
            answer = await choose(bot, clicker, panel, pick)
        assert undo is not None
        seq = (await service.status(gid)).seq
        await quiet_move(bot, spec, gid, next(u for u in PEOPLE if u != clicker))
        interaction = await fake.click(clicker, answer.response, undo, component_type=2)
        taken = await fake.answered(interaction, STEP)
        assert "took back their last move" in taken.content, taken.content
        assert (await service.status(gid)).seq == seq + 1
    finally:
        await bot.shutdown()
