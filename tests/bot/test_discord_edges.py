"""Discord's edges (issue 24, point 9), through the real discord.py command tree with no network.

A command Discord still shows after it was removed from the code (the commands were not synced
since) answered "Sorry, something went wrong" and logged an ERROR traceback; an autocomplete that
Discord had forgotten (10062) logged a full traceback; broken text in an option reached SQLite.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
import pytest
from discord.webhook.async_ import AsyncWebhookAdapter

from bot.discord.kit import CHANGED
from tests.bot.test_departures import LEFT, seven_ages_in_play
from tests.bot.test_discord_bot import (
    ALICE,
    APP_ID,
    BOB,
    EPHEMERAL,
    TOY,
    Call,
    FakeResponse,
    Rig,
    fake,
    followup,
    gateway,
    lobby_to_start,
    no_errors_logged,
    rig,
)

__all__ = ["fake", "no_errors_logged", "rig"]  # the harness's fixtures, used here by name
pytestmark = pytest.mark.asyncio


async def interact(rig: Rig, kind: int, data: dict[str, Any], user_id: int = ALICE) -> list[Call]:
    """Deliver an interaction of ``kind`` (2 a command, 4 an autocomplete) with ``data``."""
    mark = len(rig.fake.calls)
    gateway(rig.bot).parse_interaction_create(rig._base(user_id, kind, data))
    await rig.settle()
    return rig.fake.since(mark)


def command(name: str, *options: dict[str, Any]) -> dict[str, Any]:
    return {"id": str(APP_ID + 7), "name": name, "type": 1, "options": list(options)}


def sub(name: str, *options: dict[str, Any], kind: int = 1) -> dict[str, Any]:
    return {"name": name, "type": kind, "options": list(options)}


def text(name: str, value: str, *, focused: bool = False) -> dict[str, Any]:
    return {"name": name, "type": 3, "value": value, **({"focused": True} if focused else {})}


def private_answer(calls: list[Call]) -> str:
    """The one answer of an interaction, which must be a private message sent as its first response."""
    answers = [c for c in calls if "/callback" in c.path or c.path.startswith(f"/webhooks/{APP_ID}/")]
    assert len(answers) == 1, [(c.method, c.path) for c in calls]
    data = answers[0].payload.get("data") or answers[0].payload
    assert int(data.get("flags") or 0) & EPHEMERAL, answers[0].payload
    return str(data.get("content"))


OUT_OF_SYNC = {  # what Discord may still send after `python -m bot sync` was not run
    "a subcommand removed": command("annals", sub("retire", text("game", "g1"))),
    "a whole command removed": command("oldgame", sub("play")),
    "a group where a command was": command("annals", sub("admin", kind=2)),
}


@pytest.mark.parametrize("shape", sorted(OUT_OF_SYNC))
async def test_a_command_discord_shows_but_the_bot_no_longer_has_says_to_sync(
        rig: Rig, shape: str, caplog: pytest.LogCaptureFixture) -> None:
    calls = await interact(rig, 2, OUT_OF_SYNC[shape])
    assert private_answer(calls) == CHANGED
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING and "sync" in r.getMessage()]
    assert len(warnings) == 1 and warnings[0].exc_info is None  # and no ERROR (the harness checks)


async def test_an_autocomplete_discord_no_longer_knows_is_one_warning_line(
        rig: Rig, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """10062 (unknown interaction): the autocomplete's answer came after Discord gave up on it."""
    await lobby_to_start(rig, TOY)
    answer = AsyncWebhookAdapter.request  # the harness's fake, bound to it: called without the adapter

    async def expired(adapter: Any, route: Any, *args: Any, **kwargs: Any) -> Any:
        if "/callback" in route.url:
            raise discord.NotFound(FakeResponse(404, "Not Found"),
                                   {"code": 10062, "message": "Unknown interaction"})
        return await answer(route, *args, **kwargs)

    monkeypatch.setattr(AsyncWebhookAdapter, "request", expired)
    caplog.clear()
    await interact(rig, 4, command("annals", sub("status", text("game", "g", focused=True))))
    lines = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(lines) == 1, [r.getMessage() for r in lines]
    assert lines[0].levelno == logging.WARNING and lines[0].exc_info is None
    assert "expired" in lines[0].getMessage()


async def test_an_expired_command_token_is_one_warning_line(
        rig: Rig, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """50027 (invalid webhook token): the follow-up came after the interaction's 15 minutes."""
    answer = AsyncWebhookAdapter.request  # the harness's fake, bound to it: called without the adapter

    async def expired(adapter: Any, route: Any, *args: Any, **kwargs: Any) -> Any:
        if "/callback" not in route.url:
            raise discord.NotFound(FakeResponse(401, "Unauthorized"),
                                   {"code": 50027, "message": "Invalid Webhook Token"})
        return await answer(route, *args, **kwargs)

    monkeypatch.setattr(AsyncWebhookAdapter, "request", expired)
    caplog.clear()
    await interact(rig, 2, command("annals", sub("create", text("ruleset", TOY))))
    lines = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(lines) == 1 and lines[0].levelno == logging.WARNING and lines[0].exc_info is None, \
        [r.getMessage() for r in lines]


BROKEN = {
    "a lone surrogate in a game id": command("annals", sub("join", text("game", "g\ud800"))),
    "a control character in the options": command("annals", sub("create", text("ruleset", TOY),
                                                                 text("options", "seats\x00=2"))),
    "a line separator in a subcommand's option": command("annals", sub("admin", sub("pause", text(
        "game", "g1\u2028g2")), kind=2)),
}


@pytest.mark.parametrize("shape", sorted(BROKEN))
async def test_broken_text_in_an_option_is_refused_privately_in_one_line(rig: Rig, shape: str) -> None:
    calls = await interact(rig, 2, BROKEN[shape])
    said = private_answer(calls)
    assert "\n" not in said and ("not valid text" in said or "control character" in said), said
    said.encode("utf-8")  # nothing of the broken text came back
    assert await rig.service.store.game_ids(statuses=("lobby",)) == []  # nothing was made


async def test_an_autocomplete_of_broken_text_offers_nothing(rig: Rig) -> None:
    await lobby_to_start(rig, TOY)
    calls = await interact(rig, 4, command("annals", sub("status", text("game", "\udc00", focused=True))))
    callback = next(c for c in calls if "/callback" in c.path)
    assert callback.payload["type"] == 8 and callback.payload["data"]["choices"] == []


async def test_a_kicked_player_cannot_join_the_running_game_again_through_discord(rig: Rig) -> None:
    """Issue 24, point 9: 7 Ages takes newcomers, so ``/annals join`` on its running game would seat
    someone the creator had just kicked. Refused privately; the creator handing the seat back works."""
    svc = rig.service
    gid = await seven_ages_in_play(svc, ALICE)
    assert followup(await rig.command(BOB, "join", game=gid)).content == f"You joined game `{gid}`."
    bob = next(s.seat for s in (await svc.status(gid)).seats if s.user_id == BOB)
    assert bob is not None
    await svc.kick(gid, ALICE, BOB)
    before = await svc.status(gid)
    reply = followup(await rig.command(BOB, "join", game=gid))
    assert reply.flags == EPHEMERAL and reply.content == LEFT
    after = await svc.status(gid)
    assert (after.seq, after.seat_names) == (before.seq, before.seat_names)
    await svc.replace_seat(gid, ALICE, bob, new_user_id=BOB, new_name="bob")
    assert BOB in {s.user_id for s in (await svc.status(gid)).seats}


async def test_a_server_command_in_a_dm_that_discord_forgot_is_one_warning_line(
        rig: Rig, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """The refusal of a server command used in a DM meets 10062 too: no stray traceback."""
    answer = AsyncWebhookAdapter.request  # the harness's fake, bound to it: called without the adapter

    async def expired(adapter: Any, route: Any, *args: Any, **kwargs: Any) -> Any:
        if "/callback" in route.url:
            raise discord.NotFound(FakeResponse(404, "Not Found"),
                                   {"code": 10062, "message": "Unknown interaction"})
        return await answer(route, *args, **kwargs)

    monkeypatch.setattr(AsyncWebhookAdapter, "request", expired)
    payload = rig._base(ALICE, 2, command("annals", sub("status")))
    for key in ("guild_id", "guild_locale"):
        payload.pop(key)
    payload["user"] = payload.pop("member")["user"]
    payload["channel"] = {"id": payload["channel_id"], "type": 1, "recipients": [payload["user"]]}
    payload["context"] = 1
    caplog.clear()
    gateway(rig.bot).parse_interaction_create(payload)
    await rig.settle()
    lines = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(lines) == 1 and lines[0].levelno == logging.WARNING and lines[0].exc_info is None, \
        [r.getMessage() for r in lines]
