"""Every registered game through the Discord harness, with no per-game code.

For each game of ``engine.registry.specs()`` (the test-only toy game included):
a lobby is opened, filled with AI seats and started through ``/annals``; one
scripted person plays only what the decision panel offers (the "your move" DM,
then each answer to a click), clicking a random entry (a choice, a group's
first step, a confirmation) until the game is over and the final scores are
posted; ``/annals hand``, ``/annals status`` and ``/annals board`` answer in
sentences at the start and at the end. The harness is the real discord.py
command tree and dynamic items against patched HTTP (:mod:`tests.bot.test_discord_bot`).
"""

from __future__ import annotations

import os
import random
import re
from pathlib import Path

import pytest

import tests.toy.spec
from engine.registry import specs
from engine.spec import GameSpec
from tests.bot.test_discord_bot import (
    ALICE,
    APP_ID,
    EPHEMERAL,
    Call,
    Rig,
    fake,
    followup,
    no_errors_logged,
    rig,
)
from tests.contract.checks import missing_hooks

__all__ = ["fake", "no_errors_logged", "rig"]  # the harness's fixtures, used by name

pytestmark = pytest.mark.asyncio

MAX_CLICKS = 4000
RAW = re.compile(r"Traceback|Error\b|\{'|\{\"|<bot\.|<engine\.")


def panel_items(call: Call) -> list[tuple[str, str | None]]:
    """(custom_id, value) of every entry of the decision panel in a message: buttons and select options."""
    out: list[tuple[str, str | None]] = []
    for row in call.components:
        for item in row.get("components") or []:
            custom_id = str(item.get("custom_id") or "")
            if not custom_id.startswith("dp:") or item.get("disabled"):
                continue
            if item.get("type") == 3:
                out += [(custom_id, str(o["value"])) for o in item.get("options") or []]
            else:
                out.append((custom_id, None))
    return out


def last_panel(calls: list[Call]) -> Call | None:
    """The newest message of ``calls`` that carries a decision panel (a DM or an answer to a click)."""
    return next((c for c in reversed(calls) if c.method == "POST" and panel_items(c)), None)


async def click(rig: Rig, user_id: int, message: Call, custom_id: str, value: str | None) -> list[Call]:
    """Press a button (``value`` None) or choose ``value`` in a select of a bot message."""
    if value is not None:
        return await rig.select(user_id, message.response, custom_id, value)
    payload = rig._base(user_id, 3, {"custom_id": custom_id, "component_type": 2})
    payload["message"] = message.response
    mark = len(rig.fake.calls)
    rig.bot._connection.parse_interaction_create(payload)  # type: ignore[arg-type]
    await rig.settle()
    return rig.fake.since(mark)


def sentences(text: str) -> None:
    assert text.strip(), "an empty answer"
    assert not RAW.search(text), text


def shown(call: Call, rig: Rig) -> str:
    """One message as a person saw it: where, the text, and the labels of its panel."""
    dm = call.path.split("/")[2] in {str(c) for c in rig.fake.dm_channels}
    labels = [o["label"] for row in call.components for item in row.get("components") or []
              for o in ([item] if item.get("type") != 3 else item.get("options") or []) if "label" in o]
    return f"{'[DM] ' if dm else ''}{call.content}" + "".join(f"\n    [{label}]" for label in labels)


async def start_game(rig: Rig, game_spec: GameSpec) -> str:
    """Alice opens a lobby of ``game_spec``, fills it with AI seats and starts it."""
    seats = max(game_spec.min_players, 2)
    reply = followup(await rig.command(ALICE, "create", ruleset=game_spec.id, seats=seats, move_time="2d"))
    found = re.search(r"Game `([a-z0-9]+)` is open", reply.content)
    assert found, reply.content
    gid = found.group(1)
    for _ in range(seats - 1):
        assert "AI seat was added" in followup(await rig.command(ALICE, "add-ai", game=gid)).content
    assert "has started" in followup(await rig.command(ALICE, "start", game=gid)).content
    return gid


async def look(rig: Rig, gid: str) -> None:
    """``/annals hand`` (private), ``status`` and ``board`` (public) answer in sentences."""
    hand = followup(await rig.command(ALICE, "hand", game=gid))
    assert hand.flags == EPHEMERAL
    sentences(hand.content)
    status = followup(await rig.command(ALICE, "status", game=gid))
    assert status.flags == 0
    sentences(status.content)
    board = followup(await rig.command(ALICE, "board", game=gid))
    assert board.flags == 0 and board.files and board.files[0].endswith(".png")
    sentences(board.content)


@pytest.mark.parametrize("game_spec", specs(), ids=lambda s: s.id)
async def test_a_whole_game_by_the_panel_alone(rig: Rig, game_spec: GameSpec) -> None:
    missing = missing_hooks(game_spec.load())
    assert not missing, f"{game_spec.id} lacks the contract hooks: {', '.join(missing)}"
    gid = await start_game(rig, game_spec)
    await look(rig, gid)
    chance = random.Random(f"discord-contract:{game_spec.id}")
    clicks = 0
    calls = list(rig.fake.calls)
    while (status := await rig.service.status(gid)).status == "active":
        assert clicks < MAX_CLICKS, f"{game_spec.id}: no end after {clicks} clicks"
        message = last_panel(calls) if ALICE in status.waiting_for else None
        if message is None:  # no panel in the last answer: she asks for it, as a person would
            assert ALICE in status.waiting_for, "the AI seats stopped with nobody to move"
            calls = await rig.command(ALICE, "play", game=gid)
            message = last_panel(calls)
            assert message is not None, [c.content for c in calls]
        sentences(message.content)
        custom_id, value = chance.choice(panel_items(message))
        calls = await click(rig, ALICE, message, custom_id, value)
        answer = followup(calls)
        assert answer.flags == EPHEMERAL
        sentences(answer.content)
        clicks += 1
    assert status.status == "over"
    over = [c for c in rig.fake.public_posts()  # posts, not the edits of the pinned status
            if c.method == "POST" and "Final scores:" in c.content]
    assert len(over) == 1, "the final scores are posted once"
    assert re.search(r"^The game ends: [^\n]+?\. Final scores: ", over[0].content, re.M), \
        "the final scores follow why the game ended"
    if os.environ.get("ANNALS_TRANSCRIPTS"):  # what the people at the table were shown, in order
        Path(os.environ["ANNALS_TRANSCRIPTS"], f"discord-{game_spec.id}.txt").write_text(
            "\n".join(shown(c, rig) for c in rig.fake.calls if c.method in ("POST", "PATCH") and c.content),
            encoding="utf-8")
    await look(rig, gid)


async def test_a_panel_is_for_its_person_only_and_a_stale_one_says_so(rig: Rig) -> None:
    gid = await start_game(rig, tests.toy.spec.SPEC)
    status = await rig.service.status(gid)
    assert status.waiting_for == (ALICE,)
    message = last_panel(rig.fake.dm_posts(ALICE))
    assert message is not None, "the your-move DM carries the panel"
    items = panel_items(message)
    assert len(items) == 5  # Goofspiel: one bid per card, 1 to 5
    custom_id, value = items[0]
    # someone else pressing Alice's button is refused, privately, and nothing moves
    other = 700_000_000_000_000_002
    answer = followup(await click(rig, other, message, custom_id, value))
    assert answer.flags == EPHEMERAL and f"<@{ALICE}>" in answer.content
    assert (await rig.service.status(gid)).seq == status.seq
    answer = followup(await click(rig, ALICE, message, custom_id, value))
    assert answer.content.startswith("You chose: Bid 1.")
    # the same button after the round moved on: the heading changed, so it is out of date
    answer = followup(await click(rig, ALICE, message, custom_id, value))
    assert "out of date" in answer.content
    assert f"/webhooks/{APP_ID}/" in answer.path
