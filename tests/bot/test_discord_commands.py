"""The rest of the ``/annals`` commands, driven through the real discord.py tree with no network.

Uses the harness of :mod:`tests.bot.test_discord_bot` (patched ``HTTPClient.request``
and webhook adapter, gateway payloads fed to ``ConnectionState``): the paged log
(also after a restart), my games, reminders, vacation, and moderation with its
permission checks. The platform's commands are played on the test-only toy game;
the log on the classic game, whose log is long enough for several pages.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.discord.admin import REFUSED
from bot.service import GameService
from engine.history.data import load_rules
from engine.seven_ages.card_words import card_long
from tests.bot.test_discord_bot import (
    ALICE,
    APP_ID,
    BOB,
    CLASSIC,
    EPHEMERAL,
    TOY,
    Call,
    FakeDiscord,
    Rig,
    button,
    deferred,
    drive,
    fake,
    followup,
    gateway,
    lobby_to_start,
    no_errors_logged,
    rig,
    user_payload,
)
from tests.bot.test_discord_bot import _policy as _policy
from tests.bot.test_discord_join import seven_ages_in_play

__all__ = ["fake", "no_errors_logged", "rig"]  # the harness's fixtures, used here by name
pytestmark = pytest.mark.asyncio
CAROL = 700_000_000_000_000_003
OTHER_GUILD = 800_000_000_000_000_099
DAY = 24 * 3600
NOT_MANAGER = discord.Permissions.general().value & ~discord.Permissions(manage_guild=True,
                                                                         administrator=True).value
MANAGER = discord.Permissions(manage_guild=True, send_messages=True, view_channel=True).value


async def invoke(rig: Rig, user_id: int, path: str, *, manager: bool = False,
                 users: dict[str, int] | None = None, **options: Any) -> list[Call]:
    """``/annals PATH option:value ...`` (PATH may be ``admin pause``); ``users`` are user options."""
    kinds_of = {bool: 5, int: 4, str: 3}
    opts: list[dict[str, Any]] = [{"name": k, "type": kinds_of[type(v)], "value": v}
                                  for k, v in options.items()]
    resolved: dict[str, Any] = {}
    for name, uid in (users or {}).items():
        opts.append({"name": name, "type": 6, "value": str(uid)})
        resolved.setdefault("users", {})[str(uid)] = user_payload(uid, "carol" if uid == CAROL else "someone")
    parts = path.split()
    node: dict[str, Any] = {"name": parts[-1], "type": 1, "options": opts}
    if len(parts) == 2:
        node = {"name": parts[0], "type": 2, "options": [node]}
    data: dict[str, Any] = {"id": str(APP_ID + 7), "name": "annals", "type": 1, "options": [node]}
    if resolved:
        data["resolved"] = resolved
    payload = rig._base(user_id, 2, data)
    payload["member"]["permissions"] = str(MANAGER if manager else NOT_MANAGER)
    mark = len(rig.fake.calls)
    gateway(rig.bot).parse_interaction_create(payload)
    await rig.settle()
    return rig.fake.since(mark)


async def sub_autocomplete(rig: Rig, user_id: int, path: str, focused: str, typed: str,
                           **options: str) -> list[dict[str, Any]]:
    """Autocomplete for an option of ``/annals admin SUB`` (two levels)."""
    group, sub = path.split()
    opts = [{"name": k, "type": 3, "value": v} for k, v in options.items()]
    opts.append({"name": focused, "type": 3, "value": typed, "focused": True})
    data = {"id": str(APP_ID + 7), "name": "annals", "type": 1,
            "options": [{"name": group, "type": 2, "options": [{"name": sub, "type": 1, "options": opts}]}]}
    mark = len(rig.fake.calls)
    gateway(rig.bot).parse_interaction_create(rig._base(user_id, 4, data))
    await rig.settle()
    callback = next(c for c in rig.fake.since(mark) if "/callback" in c.path)
    assert callback.payload["type"] == 8
    return list(callback.payload["data"]["choices"])


def hidden_names(rules: Any, view: dict[str, Any]) -> set[str]:
    """Names of the cards in a player's hand and of an empire card they drew but did not show."""
    you = view["you"]
    names = {rules.cards[c].name for c in you["hand"]}
    if you.get("drawn"):
        names.add(rules.empires[you["drawn"]].name)
    return names


# == fleets ==================================================================================
# == the log ==================================================================================
def log_buttons(call: Call) -> dict[str, dict[str, Any]]:
    row = call.components[0]["components"]
    return {b["label"]: b for b in row}


async def test_log_pages_with_buttons_that_survive_a_restart(fake: FakeDiscord, tmp_path: Path) -> None:
    rules = load_rules()
    db = tmp_path / "annals.sqlite3"
    first = await Rig(fake, db).open()
    game = await lobby_to_start(first, CLASSIC, 3)
    await drive(first, game, lambda s, legal: s > 60)
    calls = await first.command(ALICE, "log")
    reply = followup(calls)
    assert reply.flags == EPHEMERAL
    pages = int(re.search(r"page (\d+) of (\d+)", reply.content).group(2))  # type: ignore[union-attr]
    assert pages >= 3 and f"page {pages} of {pages}" in reply.content
    buttons = log_buttons(reply)
    assert buttons["Next"]["disabled"] is True and not buttons["Previous"].get("disabled")
    assert buttons["Previous"]["custom_id"] == f"annals:log:{game}:{pages - 2}:p"
    # nothing hidden in any page: no hand card of anyone, no drawn empire card
    hidden: set[str] = set()
    for user in (ALICE, BOB):
        hidden |= {rules.cards[c].name for c in (await first.service.view(game, user))["you"]["hand"]}
    texts = [reply.content]
    calls = await button(first, ALICE, reply.response, buttons["Previous"]["custom_id"])
    callback = next(c for c in calls if "/callback" in c.path)
    assert callback.payload["type"] == 6  # deferred update: the same message is edited
    edit = next(c for c in calls if c.method == "PATCH" and c.path.endswith("/messages/@original"))
    assert f"page {pages - 1} of {pages}" in edit.content
    texts.append(edit.content)
    message = {**reply.response, "components": edit.payload["components"]}
    await_actions = await first.store.actions(game)
    await first.close()

    second = await Rig(fake, db).open()  # a new process, same database: the old buttons still work
    try:
        prev = log_buttons(Call("", "", edit.payload))["Previous"]["custom_id"]
        assert prev == f"annals:log:{game}:{pages - 3}:p"
        calls = await button(second, ALICE, message, prev)
        edit = next(c for c in calls if c.method == "PATCH" and c.path.endswith("/messages/@original"))
        assert f"page {pages - 2} of {pages}" in edit.content
        texts.append(edit.content)
        calls = await second.command(BOB, "log", page=1)
        first_page = followup(calls)
        assert "page 1 of" in first_page.content and log_buttons(first_page)["Previous"]["disabled"] is True
        texts.append(first_page.content)
    finally:
        await second.close()
    # each page lists its events in move order, and the newest page ends with the newest move
    for text in texts:
        numbers = [int(n) for n in re.findall(r"^`(\d+)`", text, flags=re.M)]
        assert numbers and numbers == sorted(numbers), text
    newest = [int(n) for n in re.findall(r"^`(\d+)`", texts[0], flags=re.M)]
    actions = await_actions
    # every expansion tried in the moves the newest page covers is named there (as an expansion or a battle)
    for action in actions:
        if newest[0] < action.seq <= newest[-1] and action.action["kind"] == "expand":
            assert action.action["land"] in texts[0], action
    assert newest[-1] <= actions[-1].seq
    seen = "\n".join(texts)
    for name in hidden:
        assert f"plays the event {name}" in seen or name not in seen, name
    assert "You drew" not in seen and "You drew" not in reply.content


async def test_card_reads_ones_own_card_privately_and_refuses_anothers_in_one_line(rig: Rig) -> None:
    """``/annals card``: the game's own words for a card from the caller's view, only to the caller; a
    card in another player's hand gets one sentence; a name no card bears, the platform's sentence."""
    rules = load_rules()
    game = await lobby_to_start(rig, CLASSIC, 3)
    await drive(rig, game, lambda seq, legal: seq > 3)
    views = {user: await rig.service.view(game, user) for user in (ALICE, BOB)}
    names = {user: {rules.cards[c].name for c in view["you"]["hand"]} for user, view in views.items()}
    mine = sorted(names[ALICE] - names[BOB])
    assert mine, names
    card = mine[0]
    text = next(rules.cards[c].text for c in views[ALICE]["you"]["hand"] if rules.cards[c].name == card)
    mark = len(rig.fake.calls)
    calls = await rig.command(ALICE, "card", card=card.lower())
    assert deferred(calls).flags == EPHEMERAL
    reply = followup(calls)
    assert reply.flags == EPHEMERAL
    assert reply.content.startswith(f"{card}: an event card of the "), reply.content
    assert reply.content.endswith(text), reply.content
    refused = followup(await rig.command(BOB, "card", card=card, game=game)).content
    assert refused.startswith(f"No card you can see is called {card!r}: ") and "\n" not in refused
    assert text not in refused
    unknown = followup(await rig.command(ALICE, "card", card="Atlantis")).content
    assert unknown == "History of the World (classic 7-epoch rules) has no card called 'Atlantis'.", unknown
    assert not rig.fake.public_posts(mark)  # nothing public was posted by asking


async def test_card_shows_a_seven_ages_card_whole_to_its_holder_alone(rig: Rig) -> None:
    """7 Ages words whole cards: alice reads hers by number, bob (no seat) is refused it in one line."""
    gid = await seven_ages_in_play(rig)
    _, state = await rig.service.engine_state(gid)
    seat = next(s.seat for s in (await rig.service.status(gid)).seats if s.user_id == ALICE)
    assert seat is not None
    mine = state.people[seat].hand[0]
    mark = len(rig.fake.calls)
    reply = followup(await rig.command(ALICE, "card", card=f"#{mine}", game=gid))
    assert reply.flags == EPHEMERAL and reply.content == card_long(mine), reply.content
    refused = followup(await rig.command(BOB, "card", card=str(mine), game=gid))
    assert refused.content == (f"Card {mine} is not one you can see: only your own cards and the empires on "
                               "the map can be looked up."), refused.content
    assert not rig.fake.public_posts(mark)


async def test_the_public_log_grows_by_replaying_only_new_moves(rig: Rig) -> None:
    game = await lobby_to_start(rig, CLASSIC, 3)
    await drive(rig, game, lambda s, legal: s > 10)
    seq, early = await rig.service.public_log(game)
    await drive(rig, game, lambda s, legal: s > seq + 30)
    later_seq, later = await rig.service.public_log(game)  # continues the kept replay
    assert later_seq > seq and later[:len(early)] == early
    fresh = GameService(rig.store, rig.clock)  # another process: replays the whole log from the seed
    assert await fresh.public_log(game) == (later_seq, later)
    assert {e.type for e in later} >= {"drew_empire", "turn", "expanded"}
    assert not {e.type for e in later} & {"your_draw", "your_empire"}  # private events stay out
    assert [e.seq for e in later] == sorted(e.seq for e in later) and later[-1].seq <= later_seq


# == personal ===================================================================================
async def test_games_lists_my_games_on_every_server(rig: Rig) -> None:
    game = await lobby_to_start(rig)
    elsewhere = (await rig.service.create_lobby(ALICE, "alice", TOY, max_seats=2,
                                                guild_id=OTHER_GUILD, channel_id=1)).game_id
    await rig.settle()
    status = await rig.service.status(game)
    calls = await rig.command(ALICE, "games")
    assert deferred(calls).flags == EPHEMERAL
    text = followup(calls).content
    line = next(x for x in text.splitlines() if f"`{game}`" in x)
    assert "active" in line and "History Club" in line and f"<#{status.thread_id}>" in line
    assert ("your move" in line) == (ALICE in status.waiting_for)
    if ALICE not in status.waiting_for:
        assert f"<@{status.waiting_for[0]}>" in line
    lobby = next(x for x in text.splitlines() if f"`{elsewhere}`" in x)
    assert "lobby" in lobby and "1 of 2 seats" in lobby
    # Bob sees only his one game
    text = followup(await rig.command(BOB, "games")).content
    assert f"`{game}`" in text and f"`{elsewhere}`" not in text
    # finished games are listed on request
    await rig.service.abandon(elsewhere, ALICE)
    text = followup(await rig.command(ALICE, "games")).content
    assert f"`{elsewhere}`" not in text and "1 finished game not listed" in text
    assert f"`{elsewhere}`" in followup(await rig.command(ALICE, "games", finished=True)).content


async def test_reminder_setting_applies_to_the_next_clock(rig: Rig) -> None:
    game = await lobby_to_start(rig)
    await invoke(rig, ALICE, "admin timer", reminders="12h, 2h")
    assert (await rig.service.status(game)).timers.reminder_offsets == (12 * 3600, 2 * 3600)
    calls = await rig.command(BOB, "reminders", when="last")
    assert deferred(calls).flags == EPHEMERAL and "only the last reminder" in followup(calls).content
    assert (await rig.service.user_settings(BOB)).reminders == "last"
    rig.service.forget()  # the next clocks are armed from what the database says
    start = (await rig.service.status(game)).seq
    _, reminders = await clock_of(rig, game, BOB, start)
    assert reminders == [2 * 3600]
    _, reminders = await clock_of(rig, game, ALICE, start)
    assert reminders == [12 * 3600, 2 * 3600]  # Alice kept the default: every reminder of the game


async def clock_of(rig: Rig, game: str, user_id: int, after: int) -> tuple[int, list[int]]:
    """Play on (fixed policy) until a clock started after move ``after`` runs for ``user_id``;
    returns its due time and how long before it each reminder comes."""
    for _ in range(200):
        status = await rig.service.status(game)
        mine = [d for d in status.deadlines if d.user_id == user_id]
        turn = next((d for d in mine if d.kind == "turn" and d.seq > after), None)
        if turn is not None:
            await rig.settle()
            return turn.due_at, sorted((turn.due_at - d.due_at for d in mine if d.kind == "reminder"),
                                       reverse=True)
        user = status.waiting_for[0]
        seq, legal = await rig.service.legal_actions(game, user)
        await rig.service.submit(game, user, _policy(legal), seq)
    raise AssertionError("no new clock")


async def test_personal_reminder_times_replace_the_games(rig: Rig) -> None:
    game = await lobby_to_start(rig)  # the game's time per move is 2 days, its reminder 4 hours before
    assert (await rig.service.status(game)).timers.reminder_offsets == (4 * 3600,)
    calls = await rig.command(BOB, "reminders", times="45m, 3h, 3d")
    assert "3d, 3h, 45m before a deadline" in followup(calls).content
    assert (await rig.service.user_settings(BOB)).reminder_offsets == (3 * DAY, 3 * 3600, 45 * 60)
    start = (await rig.service.status(game)).seq
    rig.service.forget()  # read back from the database, not only from memory
    _, reminders = await clock_of(rig, game, BOB, start)
    assert reminders == [3 * 3600, 45 * 60]  # 3 days does not fit in a 2-day move
    _, reminders = await clock_of(rig, game, ALICE, start)
    assert reminders == [4 * 3600]  # Alice keeps the game's
    # "game" goes back to each game's times; a time out of range is refused and nothing changes
    assert "each game's reminder times" in followup(await rig.command(BOB, "reminders", times="game")).content
    assert (await rig.service.user_settings(BOB)).reminder_offsets is None
    calls = await rig.command(BOB, "reminders", times="20s")
    assert "between 1 minute and 14 days" in followup(calls).content
    assert (await rig.service.user_settings(BOB)).reminder_offsets is None
    # asked with no option, it says what is set
    await rig.command(BOB, "reminders", when="none")
    assert followup(await rig.command(BOB, "reminders")).content == "You get no reminders."


async def test_vacation_moves_my_deadline(rig: Rig) -> None:
    game = await lobby_to_start(rig)
    user = (await rig.service.status(game)).waiting_for[0]
    before = next(d.due_at for d in (await rig.service.status(game)).deadlines
                  if d.user_id == user and d.kind == "turn")
    calls = await rig.command(user, "vacation", days=2)
    assert deferred(calls).flags == EPHEMERAL
    text = followup(calls).content
    assert f"<t:{before + 2 * DAY}:R>" in text and "12 vacation days left" in text
    after = next(d.due_at for d in (await rig.service.status(game)).deadlines
                 if d.user_id == user and d.kind == "turn")
    assert after == before + 2 * DAY
    calls = await rig.command(user, "vacation", days=13)
    assert "at most 14" in followup(calls).content


# == moderation ==================================================================================
async def test_moderation_is_refused_to_a_player_who_is_neither_creator_nor_manager(rig: Rig) -> None:
    game = await lobby_to_start(rig)
    before = await rig.service.status(game)
    cases: tuple[tuple[str, dict[str, Any]], ...] = (
        ("admin pause", {}), ("admin kick", {"player": str(ALICE)}), ("admin timer", {"move_time": "1h"}),
        ("admin abandon", {}), ("admin resume", {}), ("admin replace", {"player": str(ALICE)}))
    for path, options in cases:
        calls = await invoke(rig, BOB, path, **options)
        reply = followup(calls)
        assert deferred(calls).flags == EPHEMERAL and reply.flags == EPHEMERAL, path
        assert reply.content == REFUSED, (path, reply.content)
        assert not reply.components, path  # no confirmation button either
    after = await rig.service.status(game)
    assert (after.status, after.seq, after.timers, after.seats) == \
        (before.status, before.seq, before.timers, before.seats)


async def test_a_member_with_manage_server_may_moderate(rig: Rig) -> None:
    game = await lobby_to_start(rig)
    calls = await invoke(rig, BOB, "admin pause", manager=True)
    assert "is paused" in followup(calls).content
    status = await rig.service.status(game)
    assert status.status == "paused" and not status.deadlines
    thread = status.thread_id
    assert thread is not None
    assert any("is paused by Bob" in c.content for c in rig.fake.channel_posts(channel_id=thread))
    assert "is paused: there is nothing to decide" in followup(await rig.command(ALICE, "play")).content
    # a manager who plays no game here: the game of this channel is the one meant
    calls = await invoke(rig, CAROL, "admin resume", manager=True)
    assert "goes on" in followup(calls).content
    assert (await rig.service.status(game)).status == "active"
    calls = await invoke(rig, BOB, "admin timer", manager=True, move_time="3d", on_timeout="skip", misses=0)
    assert "changed" in followup(calls).content
    timers = (await rig.service.status(game)).timers
    assert (timers.move_seconds, timers.timeout_policy, timers.misses_before_ai) == (3 * DAY, "skip", 0)
    # with no option, the timers are only shown (to anyone)
    text = followup(await invoke(rig, BOB, "admin timer")).content
    assert "time per move 3d" in text and "the turn is skipped" in text


async def test_the_creator_kicks_and_replaces_players(rig: Rig) -> None:
    game = await lobby_to_start(rig)
    choices = await sub_autocomplete(rig, ALICE, "admin kick", "player", "")
    assert {c["value"] for c in choices} == {str(ALICE), str(BOB)}
    seats = (await rig.service.status(game)).seats
    bob = next(s for s in seats if s.user_id == BOB)
    calls = await invoke(rig, ALICE, "admin kick", player=str(BOB))
    assert "was removed" in followup(calls).content
    now = next(s for s in (await rig.service.status(game)).seats if s.seat == bob.seat)
    assert now.is_ai and now.user_id is None  # the AI plays Bob's seat from now on
    choices = await sub_autocomplete(rig, ALICE, "admin replace", "player", "")
    assert len(choices) == 2  # every seat, the AI's too
    # the AI seat goes to Carol
    ai = now
    assert ai.seat is not None
    calls = await invoke(rig, ALICE, "admin replace", player=f"seat {ai.seat + 1}", users={"by": CAROL})
    assert f"now played by <@{CAROL}>" in followup(calls).content
    carol = next(s for s in (await rig.service.status(game)).seats if s.seat == ai.seat)
    assert carol.user_id == CAROL and not carol.is_ai
    # and the creator's own seat to the AI (no `by`)
    mine = next(s for s in (await rig.service.status(game)).seats if s.user_id == ALICE)
    calls = await invoke(rig, ALICE, "admin replace", player=str(ALICE))
    assert "now played by the AI" in followup(calls).content
    assert next(s for s in (await rig.service.status(game)).seats if s.seat == mine.seat).is_ai


async def test_abandon_needs_the_confirmation_of_a_moderator(rig: Rig) -> None:
    game = await lobby_to_start(rig)
    seq = (await rig.service.status(game)).seq
    calls = await invoke(rig, ALICE, "admin abandon")
    reply = followup(calls)
    assert reply.flags == EPHEMERAL and "Abandon game" in reply.content
    confirm = reply.components[0]["components"][0]
    assert confirm["custom_id"] == f"annals:abandon:{game}:{seq}"
    assert (await rig.service.status(game)).status == "active"  # nothing yet
    # someone else pressing it (without Manage Server) is refused at once
    calls = await button(rig, BOB, reply.response, confirm["custom_id"])
    refusal = next(c for c in calls if "/callback" in c.path)
    assert refusal.payload["type"] == 4 and refusal.payload["data"]["flags"] == EPHEMERAL
    assert refusal.payload["data"]["content"] == REFUSED
    assert (await rig.service.status(game)).status == "active"
    # once the game moves on, the old confirmation does nothing
    await drive(rig, game, lambda s, legal: s > seq)
    calls = await button(rig, ALICE, reply.response, confirm["custom_id"])
    assert "moved on" in followup(calls).content
    assert (await rig.service.status(game)).status == "active"
    # a fresh one, pressed by the creator
    reply = followup(await invoke(rig, ALICE, "admin abandon"))
    calls = await button(rig, ALICE, reply.response, reply.components[0]["components"][0]["custom_id"])
    assert followup(calls).content == f"Game `{game}` is abandoned."
    status = await rig.service.status(game)
    assert status.status == "abandoned" and status.thread_id is not None
    assert any("was abandoned by Alice" in c.content
               for c in rig.fake.channel_posts(channel_id=status.thread_id))
