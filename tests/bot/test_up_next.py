"""You're next (issue 30): an opt-in DM when the player before you starts their move.

Played on the relay game (:mod:`tests.support.relay_game`: the test game bid in turn, which names the next
seat) through the service, on the fake clock: the person who asked is told once per turn change and
nobody else is; nothing is told when the game names nobody; a resume, new timers or a restarted
service tell nothing again. Then the setting through ``/annals reminders next:`` and the console, and
the DM itself through the Discord harness (never a stand-in ping when DMs are closed).
"""

from __future__ import annotations

import io
import itertools
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import replace

import pytest
import pytest_asyncio

from bot.clock import FakeClock
from bot.console import Console, user_id_for
from bot.models import Notice, NoticeKind, Outcome, TimerSettings, UserSettings
from bot.notices import describe_notice
from bot.outbox import notices_of
from bot.service import GameService, ServiceError
from bot.store import Store
from engine.core import PlayerId
from engine.spec import GameSpec
from tests.bot.test_discord_bot import ALICE as D_ALICE
from tests.bot.test_discord_bot import BOB as D_BOB
from tests.bot.test_discord_bot import (
    CHANNEL_ID,
    EPHEMERAL,
    GUILD_ID,
    Rig,
    deferred,
    fake,
    followup,
    no_errors_logged,
    rig,
)
from tests.support import relay_game
from tests.support.relay_game import RELAY_ID, RelayGame

__all__ = ["fake", "no_errors_logged", "rig"]  # the Discord harness's fixtures, used here by name
pytestmark = pytest.mark.asyncio
ALICE, BOB = 1, 2
NAMES = {ALICE: "alice", BOB: "bob"}


@pytest.fixture(autouse=True)
def relay() -> Iterator[GameSpec]:
    with relay_game.registered() as spec:
        yield spec


def ids() -> Callable[[], str]:
    counter = itertools.count(1)
    return lambda: f"g{next(counter)}"


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest_asyncio.fixture
async def svc(store: Store, clock: FakeClock) -> AsyncIterator[GameService]:
    yield GameService(store, clock, seed_factory=lambda: 42, id_factory=ids())


async def started(svc: GameService, timers: TimerSettings | None = None) -> str:
    gid = (await svc.create_lobby(ALICE, NAMES[ALICE], RELAY_ID, timers=timers)).game_id
    await svc.join(gid, BOB, NAMES[BOB])
    await svc.start(gid, ALICE)
    return gid


async def seat_of(svc: GameService, gid: str, user: int) -> PlayerId:
    seat = next(s.seat for s in (await svc.status(gid)).seats if s.user_id == user)
    assert seat is not None
    return seat


async def bid(svc: GameService, gid: str) -> Outcome:
    """The person to move bids their lowest card."""
    status = await svc.status(gid)
    (user,) = status.waiting_for
    seq, decision = await svc.decision(gid, user)
    assert decision is not None
    return await svc.submit(gid, user, decision.choices[0].action.to_json(), seq)


async def told(store: Store, gid: str) -> list[Notice]:
    """Every "you're next" written to the outbox for ``gid``, in order (what the fronts deliver)."""
    return [n for row in await store.outbox_rows() if row.game_id == gid and row.kind == "dm"
            for n in notices_of(gid, row.payload) if n.kind is NoticeKind.up_next]


async def test_the_person_who_asked_is_told_when_the_player_before_starts_and_nobody_else(
        svc: GameService, store: Store) -> None:
    await svc.set_user_settings(UserSettings(ALICE, up_next=True))
    gid = await started(svc)
    # the seed seats Bob first (seat 0), then Alice (seat 1): each of Bob's turns names Alice next
    assert (await seat_of(svc, gid, BOB), await seat_of(svc, gid, ALICE)) == (0, 1)
    bob_turns = 1  # the start is Bob's first turn
    while (await svc.status(gid)).status == "active":
        out = await bid(svc, gid)
        bob_turns += out.status.status == "active" and out.status.waiting_for == (BOB,)
    notices = await told(store, gid)
    # a round each but the last, whose one-card bids are played at once (nobody is asked to move)
    assert bob_turns == 4 and len(notices) == 4
    # Bob never asked: his turns follow Alice's (but the last), and he is never told
    assert all(n.audience == (ALICE,) for n in notices)
    names = (await svc.status(gid)).seat_names
    line = describe_notice(notices[0], names, RelayGame(), str)
    assert line == (f"You're next in Relay Goofspiel (test game), game {gid}: {names[0]} has started their "
                    "move.")
    assert names[0].startswith("bob (")  # a person and a colour, never a raw id


async def test_nothing_is_told_when_the_game_names_nobody(svc: GameService, store: Store,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(RelayGame, "up_next", lambda self, state: None)
    for user in (ALICE, BOB):
        await svc.set_user_settings(UserSettings(user, up_next=True))
    gid = await started(svc)
    for _ in range(4):
        await bid(svc, gid)
    assert await told(store, gid) == []


async def test_nothing_is_told_by_default(svc: GameService, store: Store) -> None:
    assert not (await svc.user_settings(BOB)).up_next  # off until asked for
    gid = await started(svc)
    for _ in range(4):
        await bid(svc, gid)
    assert await told(store, gid) == []


async def test_a_clock_started_again_tells_nothing_again(svc: GameService, store: Store,
                                                        clock: FakeClock) -> None:
    """Once per turn change: a resumed game, new timers, the service restarted on the same database
    and a stale double click restart or reread clocks, none of them a new turn."""
    await svc.set_user_settings(UserSettings(ALICE, up_next=True))
    gid = await started(svc)
    assert len(await told(store, gid)) == 1  # the start: Bob's move, Alice is next
    await svc.pause(gid, ALICE)
    clock.advance(600)
    await svc.resume(gid, ALICE)
    status = await svc.status(gid)
    await svc.set_timers(gid, ALICE, replace(status.timers, move_seconds=7200, reminder_offsets=()))
    again = GameService(store, clock, seed_factory=lambda: 42)
    await again.startup()
    assert len(await told(store, gid)) == 1
    seq, decision = await again.decision(gid, BOB)
    assert decision is not None
    await again.submit(gid, BOB, decision.choices[0].action.to_json(), seq)  # Alice's move now
    with pytest.raises(ServiceError) as refused:
        await again.submit(gid, BOB, decision.choices[0].action.to_json(), seq)  # the double click
    assert refused.value.code in ("stale", "not_your_turn")
    assert len(await told(store, gid)) == 1
    await bid(again, gid)  # Alice bids: the next round begins with Bob, Alice is next again
    assert len(await told(store, gid)) == 2


async def test_the_setting_survives_a_restart(store: Store, clock: FakeClock) -> None:
    first = GameService(store, clock)
    await first.set_user_settings(UserSettings(BOB, reminders="last", up_next=True))
    second = GameService(store, clock)
    await second.startup()
    settings = await second.user_settings(BOB)
    assert settings.up_next and settings.reminders == "last"
    await second.set_user_settings(replace(settings, up_next=False))
    assert not (await GameService(store, clock).user_settings(BOB)).up_next


async def test_the_console_turns_it_on_and_prints_it_to_its_person(store: Store, clock: FakeClock) -> None:
    out = io.StringIO()
    console = Console(GameService(store, clock, seed_factory=lambda: 42, id_factory=ids()), out,
                      clock=None)
    for line in ("/as alice reminders next maybe", "/as alice reminders next on",
                 f"/as alice create {RELAY_ID}", "/as bob join g1", "/as alice start"):
        await console.execute(line)
    text = out.getvalue()
    assert "[alice] Usage: reminders all|last|none, or reminders next on|off" in text
    assert "[alice] You're next: on (you get a message when the player before you starts their move)." in text
    assert (await console.service.user_settings(user_id_for("alice"))).up_next
    assert not (await console.service.user_settings(user_id_for("bob"))).up_next
    said = [line for line in text.splitlines() if "You're next in" in line]
    assert len(said) == 1 and said[0].startswith("[to alice (") and ": bob (" in said[0], said


# == Discord ==========================================================================================
async def open_relay(rig: Rig) -> str:
    """Alice opens a relay game in the server's channel, Bob joins, Alice starts: Bob moves first."""
    gid = (await rig.service.create_lobby(D_ALICE, "Alice", RELAY_ID, guild_id=GUILD_ID,
                                          channel_id=CHANNEL_ID)).game_id
    await rig.service.join(gid, D_BOB, "Bob")
    await rig.service.start(gid, D_ALICE)
    await rig.settle()
    assert (await rig.service.status(gid)).waiting_for == (D_BOB,)
    return gid


def heads_up(rig: Rig, user: int, mark: int) -> list[str]:
    return [c.content for c in rig.fake.dm_posts(user, mark) if "You're next" in c.content]


async def test_reminders_next_true_then_the_dm_comes_once(rig: Rig) -> None:
    calls = await rig.command(D_ALICE, "reminders", next=True)
    assert deferred(calls).flags == EPHEMERAL
    assert "a DM when the player before you starts their move" in followup(calls).content
    assert (await rig.service.user_settings(D_ALICE)).up_next
    calls = await rig.command(D_ALICE, "reminders")  # asked with no option: it says what is set
    assert "`next:False` stops it" in followup(calls).content
    mark = len(rig.fake.calls)
    gid = await open_relay(rig)
    names = (await rig.service.status(gid)).seat_names
    assert heads_up(rig, D_ALICE, mark) == [
        f"You're next in Relay Goofspiel (test game), game {gid}: {names[0]} has started their move."]
    assert not heads_up(rig, D_BOB, mark)  # Bob never asked
    await rig.bot.transport.drain()  # asked to deliver again: nothing is left to send
    await rig.settle()
    assert len(heads_up(rig, D_ALICE, mark)) == 1
    calls = await rig.command(D_ALICE, "reminders", next=False)
    assert "player before you" not in followup(calls).content
    assert not (await rig.service.user_settings(D_ALICE)).up_next


async def test_with_dms_closed_nobody_is_pinged_for_it(rig: Rig) -> None:
    await rig.command(D_ALICE, "reminders", next=True)
    rig.fake.closed_dms.add(D_ALICE)
    mark = len(rig.fake.calls)
    gid = await open_relay(rig)
    pings = [c.content for c in rig.fake.public_posts(mark) if f"<@{D_ALICE}>" in c.content]
    assert pings == []
    rows = [r for r in await rig.store.outbox_rows() if r.game_id == gid and r.kind == "dm"
            and any(n.kind is NoticeKind.up_next for n in notices_of(gid, r.payload))]
    assert len(rows) == 1 and rows[0].delivered_at is not None  # dealt with, not left to retry


async def test_a_heads_up_that_comes_when_it_is_their_move_already_is_dropped(rig: Rig) -> None:
    """Delivered late (DMs retried, the bot down meanwhile), "you're next" would arrive beside or after
    "your move": it says nothing then, and the DM carries the move alone."""
    await rig.command(D_ALICE, "reminders", next=True)
    gid = await open_relay(rig)
    (row,) = [r for r in await rig.store.outbox_rows() if r.game_id == gid and r.kind == "dm" and
              r.target == D_ALICE and any(n.kind is NoticeKind.up_next for n in notices_of(gid, r.payload))]
    seq, decision = await rig.service.decision(gid, D_BOB)
    assert decision is not None
    await rig.service.submit(gid, D_BOB, decision.choices[0].action.to_json(), seq)  # Alice's move now
    await rig.settle()
    mark = len(rig.fake.calls)
    await rig.bot.transport._send_news(D_ALICE, gid, [row])  # the same row, sent once more, late
    assert heads_up(rig, D_ALICE, mark) == []
