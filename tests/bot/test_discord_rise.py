"""Rise of Empires on Discord: every decision by the generic panel, and the Discord defect of issue 13
for this game: a Rise player with a keep/discard decision got the classic "You drew an empire card:
keep it or give it to a player who has none" DM with the classic keep/give select.

Uses the harness of :mod:`tests.bot.test_discord_bot`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from engine.rise.game import GAME
from tests.bot.test_discord_bot import (
    ALICE,
    EPHEMERAL,
    Rig,
    fake,
    followup,
    no_errors_logged,
    panel_of,
    rig,
)

__all__ = ["fake", "no_errors_logged", "rig"]  # the harness's fixtures, used here by name
pytestmark = pytest.mark.asyncio


async def open_game(rig: Rig, humans: tuple[int, ...], ais: int) -> str:
    """Alice opens a Rise of Empires lobby (``/annals create``); others join, AIs sit, it starts."""
    reply = followup(await rig.command(ALICE, "create", ruleset="rise", move_time="2d"))
    found = re.search(r"Game `([a-z0-9]+)` is open \((\d) seats\)", reply.content)
    assert found, reply.content
    game = found.group(1)
    for user in humans:
        if user != ALICE:
            assert "You joined" in followup(await rig.command(user, "join", game=game)).content
    for _ in range(ais):
        assert "AI seat was added" in followup(await rig.command(ALICE, "add-ai", game=game)).content
    assert "has started" in followup(await rig.command(ALICE, "start", game=game)).content
    return game


async def state(rig: Rig, game: str) -> Any:
    return (await rig.service.engine_state(game))[1]


async def seat_of(rig: Rig, game: str, user: int) -> int:
    st = await rig.service.status(game)
    seat = next(s.seat for s in st.seats if s.user_id == user)
    assert seat is not None
    return seat


async def drive(rig: Rig, game: str, user: int, until: Callable[[Any, list[dict[str, Any]]], bool],
                prefer: tuple[str, ...] = ("territory",), limit: int = 400, place: bool = False,
                tiles: tuple[str, ...] = ()) -> None:
    """Play ``user``'s moves through the service until ``until(state, legal)`` holds at their move.

    Their choices: a row of ``prefer`` when they may (else the first row), the first
    tile (or one named in ``tiles``), no battle, paying with the first thing they have,
    keeping tiles; cubes are
    placed (with ``place``: all of them, where rivals are if possible) or not at all.
    """
    for _ in range(limit):
        st = await rig.service.status(game)
        assert st.status == "active", st.status
        assert user in st.waiting_for
        seq, legal = await rig.service.legal_actions(game, user)
        s = await state(rig, game)
        if until(s, legal):
            await rig.settle()
            return
        kinds = [a["kind"] for a in legal]
        if place and "place" in kinds:
            places = [a for a in legal if a["kind"] == "place"]
            action = next((a for a in places if any(n for p, n in enumerate(s.cubes.get(a["region"], []))
                                                    if p != s.task["player"])), places[0])
        elif "select" in kinds:
            rows = [a for a in legal if a["kind"] == "select"]
            action = next((a for p in prefer for a in rows if a["row"] == p), rows[0])
        elif any("tile" in a and GAME.data.progress.get(a["tile"]) and GAME.data.progress[a["tile"]].name
                 in tiles for a in legal):
            action = next(a for a in legal if "tile" in a and GAME.data.progress.get(a["tile"])
                          and GAME.data.progress[a["tile"]].name in tiles)
        elif "stop" in kinds:
            action = next(a for a in legal if a["kind"] == "stop")
        else:
            action = legal[0]
        await rig.service.submit(game, user, action, seq)
    raise AssertionError("the wanted moment did not come")


async def test_a_keep_decision_is_the_rise_panel_not_the_classic_card_dm(rig: Rig) -> None:
    """Issue 13: "A Rise player gets the classic 'You drew an empire card: keep it or give it to a
    player who has none' DM ... whenever a Rise keep/discard decision is pending"."""
    game = await open_game(rig, (ALICE,), ais=2)
    await drive(rig, game, ALICE, lambda s, legal: any(a["kind"] == "keep_tile" for a in legal),
                prefer=("progress", "territory"))
    texts = "\n".join(c.content for c in rig.fake.dm_posts(ALICE))
    assert "You drew" not in texts and "give it to a player" not in texts
    assert not [c for c in rig.fake.dm_posts(ALICE) for row in c.components for item in row["components"]
                if str(item.get("custom_id", "")).startswith("annals:give:")]
    # the decision is the game's own, in the generic panel
    reply = followup(await rig.command(ALICE, "play", game=game))
    assert reply.flags == EPHEMERAL and panel_of(reply)
    labels = [item.get("label") or o["label"] for item in panel_of(reply)
              for o in (item.get("options") or [{"label": None}])]
    assert labels and not any(re.search(r"[Gg]ive it to", str(x)) for x in labels)
