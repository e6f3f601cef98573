"""Who may do what, and what reaches whom: authorization by the game's own server, private
refusals, guild-only commands, bounded free text, and strictly typed actions (issue 14).

Driven through the real discord.py command tree with the patched-HTTP harness of
:mod:`tests.bot.test_discord_bot`.
"""

from __future__ import annotations

import io
import logging
from pathlib import Path
from typing import Any, cast

import discord
import pytest
from discord import app_commands
from discord.webhook.async_ import AsyncWebhookAdapter

from bot.clock import FakeClock
from bot.console import Console
from bot.discord.admin import REFUSED
from bot.service import GameService, ServiceError
from bot.store import Store
from tests.bot.test_discord_bot import (
    ALICE,
    APP_ID,
    BOB,
    CHANNEL_ID,
    EPHEMERAL,
    GUILD_ID,
    TOY,
    Call,
    FakeResponse,
    Rig,
    deferred,
    fake,
    followup,
    lobby_to_start,
    no_errors_logged,
    rig,
)
from tests.bot.test_discord_commands import MANAGER

__all__ = ["fake", "no_errors_logged", "rig"]  # the harness's fixtures, used here by name
pytestmark = pytest.mark.asyncio

CAROL = 700_000_000_000_000_003
ELSEWHERE = 800_000_000_000_000_099  # another server that has the bot
ELSEWHERE_CHANNEL = 800_000_000_000_000_098
SERVICE_REFUSAL = "Only the game's creator or a server admin may do that."


def in_server(payload: dict[str, Any], guild: int, channel: int, *, manager: bool) -> dict[str, Any]:
    """The interaction ``payload`` as if used in ``channel`` of server ``guild``."""
    payload["guild_id"] = str(guild)
    payload["channel_id"] = str(channel)
    payload["channel"] = {**payload["channel"], "id": str(channel), "guild_id": str(guild)}
    payload["authorizing_integration_owners"] = {"0": str(guild)}
    if manager:
        payload["member"]["permissions"] = str(MANAGER)
    return payload


async def send(rig: Rig, payload: dict[str, Any]) -> list[Call]:
    mark = len(rig.fake.calls)
    rig.bot._connection.parse_interaction_create(cast(Any, payload))
    await rig.settle()
    return rig.fake.since(mark)


def command_payload(rig: Rig, user_id: int, path: str, options: dict[str, Any]) -> dict[str, Any]:
    """``/annals PATH option:value ...`` (PATH may be ``admin pause``)."""
    parts = path.split()
    kinds = {bool: 5, int: 4, str: 3}
    node: dict[str, Any] = {"name": parts[-1], "type": 1, "options": [
        {"name": k, "type": kinds[type(v)], "value": v} for k, v in options.items()]}
    if len(parts) == 2:
        node = {"name": parts[0], "type": 2, "options": [node]}
    return rig._base(user_id, 2, {"id": str(APP_ID + 7), "name": "annals", "type": 1, "options": [node]})


async def command_from(rig: Rig, user_id: int, path: str, options: dict[str, str], *, guild: int = GUILD_ID,
                       channel: int = ELSEWHERE_CHANNEL, manager: bool = True) -> list[Call]:
    return await send(rig, in_server(command_payload(rig, user_id, path, options), guild, channel,
                                     manager=manager))


# Every moderation command, with the state of the game it is tried on and its extra options.
MODERATION: list[tuple[str, str, dict[str, str]]] = [
    ("admin pause", "active", {}),
    ("admin resume", "paused", {}),
    ("admin kick", "active", {"player": str(BOB)}),
    ("admin replace", "active", {"player": str(BOB)}),
    ("admin timer", "active", {"move_time": "1h"}),
    ("admin abandon", "active", {}),
    ("add-ai", "lobby", {}),
    ("start", "lobby", {}),
]


def moderation_commands(rig: Rig) -> set[str]:
    """The commands the tree itself calls moderation: the admin group, and any 'Manage Server' one."""
    found = set()
    for command in rig.bot.tree.walk_commands():
        if not isinstance(command, app_commands.Command):
            continue
        name = command.qualified_name.removeprefix("annals ")
        if command.qualified_name.startswith("annals ") and (
                name.startswith("admin ") or "Manage Server" in command.description):
            found.add(name)
    return found


async def game_in(rig: Rig, state: str) -> str:
    """A game of Alice's in the harness's server, in ``state`` (lobby with Bob, active or paused)."""
    if state == "lobby":
        reply = followup(await rig.command(ALICE, "create", ruleset=TOY, seats=2, move_time="2d"))
        game = reply.content.split("`")[1]
        assert "You joined" in followup(await rig.command(BOB, "join", game=game)).content
        return game
    game = await lobby_to_start(rig)
    if state == "paused":
        await rig.service.pause(game, ALICE)
    return game


async def test_the_table_covers_every_moderation_command(rig: Rig) -> None:
    assert moderation_commands(rig) == {path for path, _, _ in MODERATION}


@pytest.mark.parametrize(("path", "state", "options"), MODERATION, ids=[m[0] for m in MODERATION])
async def test_manage_server_elsewhere_moderates_nothing(rig: Rig, path: str, state: str,
                                                         options: dict[str, str]) -> None:
    """A manager of another server names the game's (public) id: refused privately, nothing changes."""
    game = await game_in(rig, state)
    before = await rig.service.status(game)
    calls = await command_from(rig, CAROL, path, {"game": game, **options}, guild=ELSEWHERE)
    reply = followup(calls)
    assert deferred(calls).flags == EPHEMERAL and reply.flags == EPHEMERAL
    assert reply.content in (REFUSED, SERVICE_REFUSAL), reply.content
    assert not reply.components  # no abandon confirmation either
    after = await rig.service.status(game)
    assert (after.status, after.seq, after.timers, after.seats) == \
        (before.status, before.seq, before.timers, before.seats)
    # the same person with the same permission in the game's own server may (the control)
    calls = await command_from(rig, CAROL, path, {"game": game, **options}, guild=GUILD_ID,
                               channel=ELSEWHERE_CHANNEL + 1)
    assert followup(calls).content not in (REFUSED, SERVICE_REFUSAL)


async def test_the_abandon_button_pressed_from_another_server_is_refused(rig: Rig) -> None:
    game = await lobby_to_start(rig)
    reply = followup(await command_from(rig, ALICE, "admin abandon", {}, guild=GUILD_ID, manager=False))
    custom_id = reply.components[0]["components"][0]["custom_id"]
    payload = rig._base(CAROL, 3, {"custom_id": custom_id, "component_type": 2})
    payload["message"] = reply.response
    calls = await send(rig, in_server(payload, ELSEWHERE, ELSEWHERE_CHANNEL, manager=True))
    refusal = next(c for c in calls if "/callback" in c.path)
    assert refusal.payload["data"]["content"] == REFUSED and refusal.payload["data"]["flags"] == EPHEMERAL
    assert (await rig.service.status(game)).status == "active"


async def test_the_creator_moderates_from_any_server(rig: Rig) -> None:
    game = await lobby_to_start(rig)
    calls = await command_from(rig, ALICE, "admin pause", {"game": game}, guild=ELSEWHERE, manager=False)
    assert "is paused" in followup(calls).content
    assert (await rig.service.status(game)).status == "paused"


# == refusals are private ===========================================================================
PUBLIC = [("annals", "status"), ("annals", "board"), ("history-classic", "scores")]


@pytest.mark.parametrize(("top", "sub"), PUBLIC, ids=[f"{t} {s}" for t, s in PUBLIC])
async def test_a_public_command_refuses_privately(rig: Rig, top: str, sub: str) -> None:
    """Issue 14: "There is no game 'nosuch'." was visible to everyone after a public defer."""
    calls = await rig.command(BOB, sub, top=top, game="nosuch")
    answers = [c for c in calls if "/callback" in c.path or c.path.startswith(f"/webhooks/{APP_ID}/")]
    assert answers, [c.path for c in calls]
    for answer in answers:  # the refusal itself, and nothing public before or after it
        assert answer.payload.get("type") in (None, 4) and answer.flags == EPHEMERAL, answer
    assert any("There is no game 'nosuch'" in a.content for a in answers)


async def test_a_refusal_after_a_public_defer_replaces_the_placeholder_privately(
        rig: Rig, monkeypatch: pytest.MonkeyPatch) -> None:
    game = await lobby_to_start(rig)

    async def gone(*args: object, **kwargs: object) -> object:
        raise ServiceError("no_such_game", "That game is gone.")
    monkeypatch.setattr(rig.service, "view", gone)
    calls = await rig.command(BOB, "status", game=game)
    assert deferred(calls).flags == 0  # the answer was meant for everyone
    hook = f"/webhooks/{APP_ID}/"
    deleted = [i for i, c in enumerate(calls) if c.method == "DELETE" and c.path.endswith("/@original")]
    sent = [i for i, c in enumerate(calls) if c.method == "POST" and c.path.startswith(hook)]
    assert deleted and sent and deleted[0] < sent[0]  # the public placeholder goes before the refusal
    assert [(calls[i].content, calls[i].flags) for i in sent] == [("That game is gone.", EPHEMERAL)]


# == where commands work =============================================================================
DM_CHANNEL = 800_000_000_000_000_097


def in_dm(payload: dict[str, Any]) -> dict[str, Any]:
    """The interaction ``payload`` as if used in the caller's DM with the bot."""
    user = payload.pop("member")["user"]
    payload.pop("guild_id")
    payload["user"] = user
    payload["channel_id"] = str(DM_CHANNEL)
    payload["channel"] = {"id": str(DM_CHANNEL), "type": 1, "recipients": [user], "last_message_id": None}
    payload["context"] = 1
    payload["authorizing_integration_owners"] = {"0": str(GUILD_ID)}
    return payload


def annals_commands(rig: Rig) -> set[str]:
    return {c.qualified_name for c in rig.bot.tree.walk_commands()
            if isinstance(c, app_commands.Command) and c.qualified_name.startswith("annals ")}


async def test_top_level_commands_declare_where_they_work(rig: Rig) -> None:
    guild, bot_dm = 0, 1  # Discord's interaction context types
    tops = {c.name: c.to_dict(rig.bot.tree) for c in rig.bot.tree.get_commands()}
    assert tops["annals"]["contexts"] == [guild, bot_dm]
    for name, data in tops.items():
        assert data["integration_types"] == [0], name  # installed in servers, never by a user
        if name != "annals":
            assert data["contexts"] == [guild] and data["dm_permission"] is False, name


async def test_only_the_personal_commands_work_in_a_dm(rig: Rig) -> None:
    personal = {"annals games", "annals dms", "annals reminders", "annals vacation", "annals hand",
                "annals play", "annals log"}
    assert personal < annals_commands(rig)
    for name in sorted(annals_commands(rig) - personal):
        path = name.removeprefix("annals ")
        calls = await send(rig, in_dm(command_payload(rig, ALICE, path, {})))
        callback = next(c for c in calls if "/callback" in c.path)
        assert callback.payload["type"] == 4 and callback.flags == EPHEMERAL, name
        assert "not in a DM" in callback.content, (name, callback.content)
        assert len(calls) == 1, name  # nothing else happened
    assert not await rig.service.store.list_games()  # no lobby was opened anywhere
    required: dict[str, dict[str, Any]] = {"annals dms": {"enabled": True}, "annals vacation": {"days": 2}}
    for name in sorted(personal):
        options = required.get(name, {})
        calls = await send(rig, in_dm(command_payload(rig, ALICE, name.removeprefix("annals "), options)))
        assert not any("not in a DM" in c.content for c in calls), name


# == expected network losses, bounded text, no repeated DM =========================================
def failing_webhook(rig: Rig, monkeypatch: pytest.MonkeyPatch, where: str,
                    error: discord.HTTPException) -> None:
    """Make the interaction webhook calls whose path contains ``where`` fail with ``error``."""
    real = rig.fake.webhook_request

    async def request(adapter: Any, route: Any, *args: Any, **kwargs: Any) -> Any:
        if where in route.url:
            raise error
        return await real(route, *args, **kwargs)
    monkeypatch.setattr(AsyncWebhookAdapter, "request", request)


@pytest.mark.parametrize(("where", "error"), [
    ("/callback", discord.NotFound(FakeResponse(404, "Not Found"),
                                   {"code": 10062, "message": "Unknown interaction"})),
    ("/webhooks/", discord.HTTPException(FakeResponse(401, "Unauthorized"),
                                         {"code": 50027, "message": "Invalid Webhook Token"})),
], ids=["10062", "50027"])
async def test_an_expired_interaction_is_one_warning_without_traceback(
        rig: Rig, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, where: str,
        error: discord.HTTPException) -> None:
    """Issue 14: expected network errors were logged as ERROR with tracebacks."""
    failing_webhook(rig, monkeypatch, where, error)
    caplog.clear()
    await rig.command(ALICE, "games")
    records = [r for r in caplog.records if r.name.startswith("bot.")]
    assert records and all(r.levelno == logging.WARNING and r.exc_info is None for r in records), \
        [(r.levelname, r.getMessage()) for r in records]
    assert "expired" in records[0].getMessage()


async def test_every_free_text_option_is_bounded(rig: Rig) -> None:
    unbounded = []
    for command in rig.bot.tree.walk_commands():
        if not isinstance(command, app_commands.Command):
            continue
        for option in command.to_dict(rig.bot.tree)["options"]:
            if option["type"] == 3 and not option.get("choices") and not option.get("max_length"):
                unbounded.append(f"{command.qualified_name} {option['name']}")
    assert not unbounded
    assert sum(1 for _ in rig.bot.tree.walk_commands()) > 40  # the whole tree was seen


async def test_pause_and_resume_do_not_send_the_same_your_move_again(rig: Rig) -> None:
    game = await lobby_to_start(rig)
    waiting = (await rig.service.status(game)).waiting_for
    assert waiting
    told = {u: [c.content for c in rig.fake.dm_posts(u)] for u in waiting}
    assert all(any("Your move in game" in t for t in texts) for texts in told.values())
    mark = len(rig.fake.calls)
    await command_from(rig, ALICE, "admin pause", {}, guild=GUILD_ID, channel=CHANNEL_ID, manager=False)
    await command_from(rig, ALICE, "admin resume", {}, guild=GUILD_ID, channel=CHANNEL_ID, manager=False)
    assert (await rig.service.status(game)).status == "active"
    for user in waiting:
        after = [c for c in rig.fake.dm_posts(user, mark)]
        assert not any("Your move in game" in c.content or c.files or c.components for c in after), user
        assert any("goes on" in c.content and "<t:" in c.content for c in after), user


# == strictly typed moves ============================================================================
async def test_a_move_with_a_wrongly_typed_player_is_refused_and_not_logged(rig: Rig) -> None:
    """Issue 14: ``"player": 0.0`` or ``false`` passed the own-seat check and was stored in the log."""
    game = await lobby_to_start(rig)
    st = await rig.service.status(game)
    # seat 0 is the one that 0.0 and false pass for
    user = next(s.user_id for s in st.seats if s.seat == 0 and s.user_id in st.waiting_for)
    assert user is not None
    seq, legal = await rig.service.legal_actions(game, user)
    assert legal
    for wrong in (0.0, False):
        with pytest.raises(ServiceError) as refused:
            await rig.service.submit(game, user, {**legal[0], "player": wrong}, seq)
        assert "must be a whole number" in refused.value.message
        assert (await rig.service.status(game)).seq == seq  # nothing was applied or logged


# == seeds ===========================================================================================
@pytest.mark.parametrize("seed", [10**20, 2**63, -1, True], ids=["20 digits", "2**63", "negative", "bool"])
async def test_a_seed_out_of_range_is_refused_in_words(rig: Rig, seed: int) -> None:
    """Issue 14: a 20-digit seed= gave an OverflowError."""
    with pytest.raises(ServiceError, match="A seed is a whole number from 0 to"):
        await rig.service.create_lobby(ALICE, "alice", TOY, seed=seed)
    assert not await rig.service.store.list_games()


async def test_the_largest_seed_is_kept(rig: Rig) -> None:
    game = (await rig.service.create_lobby(ALICE, "alice", TOY, seed=2**63 - 1)).game_id
    row = await rig.service.store.get_game(game)
    assert row is not None and row.seed == 2**63 - 1


async def test_the_console_takes_seed_only_in_demo_mode(tmp_path: Path) -> None:
    """Whoever picks the seed can work out every hidden draw: no seed= on a real clock."""
    async with await Store.open(tmp_path / "x.sqlite3") as store:
        out = io.StringIO()
        console = Console(GameService(store), out)
        assert await console.execute(f"/as alice create {TOY} seed=7")
        assert "start with --demo" in out.getvalue()
        assert not await store.list_games()
        demo = Console(GameService(store, FakeClock(1_800_000_000)), out, clock=FakeClock(1_800_000_000))
        assert await demo.execute(f"/as alice create {TOY} seed=7")
        rows = await store.list_games()
        assert [r.seed for r in rows] == [7]
