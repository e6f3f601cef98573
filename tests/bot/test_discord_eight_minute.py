"""Eight-Minute Empire on Discord: every decision by the generic panel; the secret bid stays secret.

Uses the harness of :mod:`tests.bot.test_discord_bot`. Both people bid at the same
time, so each one's panel is built before the other's bid: the click still
counts (the decision means the same), and nobody but the bidder sees an amount
before every bid is in.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from engine.core import decide
from engine.registry import get_game
from tests.bot.test_discord_bot import (
    ALICE,
    BOB,
    EPHEMERAL,
    Call,
    Rig,
    entries,
    fake,
    followup,
    no_errors_logged,
    press,
    rig,
)

__all__ = ["fake", "no_errors_logged", "rig"]  # the harness's fixtures, used here by name
pytestmark = pytest.mark.asyncio


async def open_game(rig: Rig, humans: tuple[int, ...], ais: int) -> str:
    """Alice opens an Eight-Minute Empire lobby (``/annals create``); others join, AIs sit, it starts."""
    reply = followup(await rig.command(ALICE, "create", ruleset="eight-minute", move_time="2d"))
    found = re.search(r"Game `([a-z0-9]+)` is open \((\d) seats\)", reply.content)
    assert found, reply.content
    game = found.group(1)
    assert found.group(2) == "5"  # the game's own maximum
    for user in humans:
        if user != ALICE:
            assert "You joined" in followup(await rig.command(user, "join", game=game)).content
    for _ in range(ais):
        assert "AI seat was added" in followup(await rig.command(ALICE, "add-ai")).content
    assert "has started" in followup(await rig.command(ALICE, "start")).content
    return game


def plain(text: str) -> str:
    """``text`` without mentions, channel links, timestamps and `code` (ids hold digits)."""
    return re.sub(r"<[@#]\d+>|<t:\d+:\w>|`[^`]*`", "", text)


async def bid_entry(rig: Rig, game: str, user: int, message: Call,
                    amount: int) -> tuple[str, str, str | None]:
    """The panel entry of ``message`` that bids ``amount`` (found by the engine's own label)."""
    status = await rig.service.status(game)
    seat = next(s.seat for s in status.seats if s.user_id == user)
    assert seat is not None
    _, state = await rig.service.engine_state(game)
    found = decide(get_game("eight-minute"), state, seat)
    assert found is not None
    label = next(c.label for c in found.choices if c.action.to_json() == {"kind": "bid", "player": seat,
                                                                            "amount": amount})
    return next(e for e in entries(message) if e[0] == label)


async def test_the_bid_stays_secret_until_everyone_has_bid(rig: Rig) -> None:
    game = await open_game(rig, (ALICE, BOB), ais=1)
    st = await rig.service.status(game)
    assert set(st.waiting_for) == {ALICE, BOB}  # the AI bid at once; both people bid at the same time
    mark = len(rig.fake.calls)
    bob_panel = followup(await rig.command(BOB, "play", game=game))  # built before Alice bids
    alice_panel = followup(await rig.command(ALICE, "play", game=game))
    assert bob_panel.flags == alice_panel.flags == EPHEMERAL
    calls = await press(rig, ALICE, alice_panel, await bid_entry(rig, game, ALICE, alice_panel, 7))
    assert followup(calls).content.startswith("You chose:") and followup(calls).flags == EPHEMERAL
    seen_by_others = [c.content for c in rig.fake.public_posts(mark)] + \
        [c.content for c in rig.fake.dm_posts(BOB, mark)] + \
        [followup(await rig.command(BOB, "status", game=game)).content]
    for text in seen_by_others:
        assert not re.search(r"\b7\b", plain(text)), text
    assert (await rig.service.view(game, BOB))["bid"]["bids"] is None
    # Bob bids with the panel he got before Alice's bid: it still counts
    calls = await press(rig, BOB, bob_panel, await bid_entry(rig, game, BOB, bob_panel, 2))
    assert followup(calls).content.startswith("You chose:")
    bids = (await rig.service.view(game, None))["bid"]["bids"]
    assert bids is not None and sorted(bids)[-1] == 7


async def test_a_whole_two_player_game_by_the_panel(rig: Rig) -> None:
    game = await open_game(rig, (ALICE,), ais=1)
    for _ in range(600):
        st = await rig.service.status(game)
        if st.status != "active":
            break
        reply = followup(await rig.command(ALICE, "play", game=game))
        found: list[Any] = entries(reply)
        assert found, reply.content
        calls = await press(rig, ALICE, reply, found[-1])
        answer = followup(calls)
        if answer.components and entries(answer) and not answer.content.startswith("You chose"):
            await press(rig, ALICE, answer, entries(answer)[0])  # a group's second step or a question
    assert (await rig.service.status(game)).status == "over"
    # 13 cards each with two players (the rulebook's table of the end)
    assert any("The game ends: every player has taken 13 cards. Final scores" in c.content
               for c in rig.fake.public_posts())
