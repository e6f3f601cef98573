"""Whole flows through the Discord layer: the classic empire draw with hidden cards by the panel,
timeouts, turn notifications with their "since your last move" summary, refusals of other people's
components, the show-my-choices button for closed DMs, and bursts of notices.

Driven with the harness of the bot tests (real command tree and dynamic items, patched HTTP).
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.discord.client import AnnalsBot
from bot.scheduler import Scheduler
from bot.service import GameService
from bot.store import Store
from engine.core import decide
from engine.history.data import load_rules
from engine.registry import get_game
from tests.bot.test_discord_bot import (
    ALICE,
    APP_ID,
    BOB,
    BOT_USER,
    CHANNEL_ID,
    CLASSIC,
    EPHEMERAL,
    GUILD_ID,
    NAMES,
    TOY,
    Call,
    FakeDiscord,
    Rig,
    button,
    deferred,
    entries,
    fake,
    followup,
    gateway,
    guild_payload,
    kinds,
    lobby_to_start,
    no_errors_logged,
    panel_of,
    press,
    rig,
)

__all__ = ["fake", "no_errors_logged", "rig"]  # fixtures used by name

pytestmark = pytest.mark.asyncio
CAROL = 700_000_000_000_000_003
NAMES.setdefault(CAROL, "carol")
RULES = load_rules()


# == helpers ================================================================================
def policy(legal: list[dict[str, Any]]) -> dict[str, Any]:
    """A fixed way of playing: with seed 42 it replays the same game every time."""
    for kind in ("keep", "play", "choose", "expand", "done", "end_turn"):
        found = [a for a in legal if a["kind"] == kind]
        if found:
            return found[0]
    return legal[0]


async def open_game(rig: Rig, joining: tuple[int, ...] = (BOB, CAROL), **create: Any) -> str:
    """Alice creates a 3-seat classic game, the others join (an AI fills the last seat), Alice starts it."""
    calls = await rig.command(ALICE, "create", ruleset=CLASSIC, seats=3, move_time="2d", **create)
    found = re.search(r"Game `([a-z0-9]+)` is open", followup(calls).content)
    assert found, followup(calls).content
    game = found.group(1)
    for user in joining:
        assert "You joined" in followup(await rig.command(user, "join", game=game)).content
    if len(joining) < 2:
        assert "AI seat was added" in followup(await rig.command(ALICE, "add-ai", game=game)).content
    assert "has started" in followup(await rig.command(ALICE, "start", game=game)).content
    return game


async def three_humans(rig: Rig, **create: Any) -> str:
    """Alice, Bob and Carol at the table."""
    return await open_game(rig, (BOB, CAROL), **create)


def mentions_as_played(text: str, name: str) -> bool:
    """Every line naming ``name`` says it is being played (public from the start of its turn)."""
    lines = [ln for ln in text.splitlines() if name in ln]
    return all(re.search(rf"play(s|ed) {re.escape(name)}", ln) for ln in lines)


async def drawers(rig: Rig, game: str) -> list[int]:
    st = await rig.service.status(game)
    out = []
    for user in st.waiting_for:
        _, legal = await rig.service.legal_actions(game, user)
        if kinds(legal) & {"keep", "give"}:
            out.append(user)
    return out


def since(calls: list[Call], mark: int) -> list[Call]:
    return calls[mark:]


# == the empire draw, hidden cards ============================================================
async def test_the_whole_empire_draw_of_an_epoch_by_dm(rig: Rig) -> None:
    game = await three_humans(rig)
    allowed: dict[str, set[int]] = {}  # empire name -> who may know it (drawer, receiver)
    decisions: list[tuple[int, str]] = []
    for _ in range(30):
        waiting = await drawers(rig, game)
        if not waiting:
            break
        user = waiting[0]
        seq, legal = await rig.service.legal_actions(game, user)
        prefix = f"dp:b:{game}:{seq}:{user}:"
        offers = [c for c in rig.fake.dm_posts(user)
                  if any(e[1].startswith(prefix) or e[1].startswith(f"dp:s:{game}:{seq}:{user}:")
                         for e in entries(c))]
        assert len(offers) == 1, "one DM with the decision panel per decision"
        offer = offers[0]
        drawn = RULES.empires[(await rig.service.view(game, user))["you"]["drawn"]].name
        assert drawn in offer.content  # the heading names the drawn card
        # someone else tries the drawer's panel: refused out loud, nothing shown, nothing done
        other = next(u for u in (ALICE, BOB, CAROL) if u != user)
        calls = await press(rig, other, offer, entries(offer)[0])
        refusal = followup(calls)
        assert deferred(calls).flags == EPHEMERAL and refusal.flags == EPHEMERAL
        assert f"This is for <@{user}>" in refusal.content and drawn not in refusal.content
        assert not refusal.files and (await rig.service.status(game)).seq == seq
        # alternate: give when the rules allow it, else keep (the engine's choice for each, by label)
        st = await rig.service.status(game)
        seat = next(s.seat for s in st.seats if s.user_id == user)
        assert seat is not None
        _, state = await rig.service.engine_state(game)
        found = decide(get_game(CLASSIC), state, seat, st.seat_names)
        assert found is not None and len(found.choices) == len(legal)
        gives = [c for c in found.choices if c.action.kind == "give"]
        if gives and len(decisions) % 2 == 0:
            choice = gives[0]
            receiver = next(s.user_id for s in st.seats if s.seat == choice.action.to_json()["to"])
            assert receiver is not None
            allowed[drawn] = {user, receiver}
        else:
            choice = next(c for c in found.choices if c.action.kind == "keep")
            allowed[drawn] = {user}
        message = offer
        if choice.group:
            calls = await press(rig, user, message, next(e for e in entries(message) if e[0] == choice.group))
            message = followup(calls)
        calls = await press(rig, user, message, next(e for e in entries(message) if e[0] == choice.label))
        assert followup(calls).content.startswith("You chose:") and followup(calls).flags == EPHEMERAL
        decisions.append((user, choice.action.kind))
    else:
        raise AssertionError("the draw never ended")
    # every seat decided by DM, or was given its card (and then draws no more)
    everyone = {u for u, _ in decisions} | {u for people in allowed.values() for u in people}
    assert everyone == {ALICE, BOB, CAROL}
    assert any(c == "give" for _, c in decisions) and any(c == "keep" for _, c in decisions)
    view = await rig.service.view(game, None)
    assert view["phase"] == "turn"  # the epoch's draw is over, its first empire plays
    # nobody saw a card they should not: not in public, not in another person's DMs
    public = "\n".join(c.content for c in rig.fake.public_posts())
    for name, people in allowed.items():
        assert mentions_as_played(public, name), name
        for user in (ALICE, BOB, CAROL):
            if user in people:
                continue
            for post in rig.fake.dm_posts(user):
                assert mentions_as_played(post.content, name), (name, user, post.content)


# == timeouts =================================================================================
@pytest.mark.parametrize("policy", ["ai", "skip"])
async def test_a_deadline_fires_the_thread_and_the_late_player_are_told(rig: Rig, policy: str) -> None:
    calls = await rig.command(ALICE, "create", ruleset=TOY, seats=2, move_time="2d", on_timeout=policy)
    found = re.search(r"Game `([a-z0-9]+)` is open", followup(calls).content)
    assert found
    game = found.group(1)
    await rig.command(BOB, "join", game=game)
    await rig.command(ALICE, "start", game=game)
    st = await rig.service.status(game)
    late = BOB
    seat = next(s.seat for s in st.seats if s.user_id == late)
    deadline = next(d for d in st.deadlines if d.kind == "turn" and d.user_id == late)
    assert await rig.service.fire_deadline(deadline.deadline_id) is None  # not due yet
    rig.clock.set(deadline.due_at)
    mark = len(rig.fake.calls)
    outcome = await rig.service.fire_deadline(deadline.deadline_id)
    assert outcome is not None
    await rig.settle()
    thread = st.thread_id
    assert thread is not None
    said = "\n".join(c.content for c in rig.fake.channel_posts(mark, channel_id=thread))
    done = "the AI played the turn" if policy == "ai" else "the turn was skipped"
    assert f"missed the deadline (1 in a row): {done}." in said
    told = [c for c in rig.fake.dm_posts(late, mark) if "You missed the deadline" in c.content]
    assert len(told) == 1 and f"game `{game}`" in told[0].content
    # the policy acted for the late seat, and the log says so
    timed_out = [r for r in await rig.store.actions(game, after_seq=st.seq) if r.source == "timeout"]
    assert timed_out and all(r.player == seat for r in timed_out)
    if policy == "skip":  # Goofspiel's most passive move: the lowest card
        assert [(r.action["kind"], r.action["card"]) for r in timed_out] == [("bid", 1)]
    assert (await rig.service.status(game)).seq > st.seq
    # the same deadline again does nothing, and nothing more is said
    mark = len(rig.fake.calls)
    assert await rig.service.fire_deadline(deadline.deadline_id) is None
    await rig.settle()
    assert not rig.fake.since(mark)


# == components: explicit refusals ============================================================
class Silent(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"test:silent:(?P<n>[0-9]+)"):
    """A dynamic item whose check fails the way discord.py leaves it: without answering."""

    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(custom_id=f"test:silent:{n}", label="x"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> Silent:
        return cls(int(match["n"]))

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        return False

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        raise AssertionError("never called")


def message_with(custom_id: str, channel_id: int = CHANNEL_ID) -> dict[str, Any]:
    fake = FakeDiscord()
    return fake.message(channel_id, {"content": "x", "components": [
        {"type": 1, "components": [{"type": 2, "style": 1, "label": "x", "custom_id": custom_id}]}]}, [])


async def test_a_failed_check_is_answered_not_dropped(rig: Rig) -> None:
    # what discord.py does with a failing check on its own: not a single REST call (the user
    # would see "This interaction failed")
    rig.bot.add_dynamic_items(Silent)
    assert await button(rig, ALICE, message_with("test:silent:1"), "test:silent:1") == []
    # ours answer: Alice's panel pressed by Bob, then by someone with no seat
    game = await lobby_to_start(rig)
    seq = (await rig.service.status(game)).seq
    reply = followup(await rig.command(ALICE, "play"))
    first = panel_of(reply)[0]["custom_id"]
    calls = await button(rig, BOB, reply.response, first)
    assert deferred(calls).flags == EPHEMERAL
    assert followup(calls).flags == EPHEMERAL and f"This is for <@{ALICE}>" in followup(calls).content
    calls = await button(rig, CAROL, reply.response, first)
    assert f"This is for <@{ALICE}>" in followup(calls).content
    assert (await rig.service.status(game)).seq == seq
    # the player it is for still can
    calls = await button(rig, ALICE, reply.response, first)
    assert followup(calls).content.startswith("You chose: Bid 1.")


# == the decision in the thread when DMs are closed ===========================================
async def test_closed_dms_get_a_button_in_the_thread_that_only_they_can_open(
        fake: FakeDiscord, tmp_path: Path) -> None:
    db = tmp_path / "annals.sqlite3"
    first = await Rig(fake, db).open()
    try:
        fake.closed_dms.add(BOB)
        game = await lobby_to_start(first)
        st = await first.service.status(game)
        assert BOB in st.waiting_for and st.thread_id is not None
        pings = [c for c in fake.channel_posts(channel_id=st.thread_id)
                 if f"<@{BOB}>, there is news" in c.content]
        assert len(pings) == 1
        ping = pings[0]
        assert ping.files == [f"annals-{game}-{st.seq}.png"]  # the board, as everyone may see it
        assert "Round 1: bid" not in ping.content  # the decision itself stays behind the button
        control = ping.components[0]["components"][0]
        assert control["type"] == 2 and control["custom_id"] == f"dp:o:{game}:{BOB}"
        # Alice presses Bob's button: refused, and she learns nothing of his decision
        calls = await button(first, ALICE, ping.response, control["custom_id"])
        assert deferred(calls).flags == EPHEMERAL
        refused = followup(calls)
        assert refused.content == f"This is for <@{BOB}>, not for you." and not refused.files
    finally:
        await first.close()

    second = await Rig(fake, db).open()  # a restart: the button still works
    try:
        calls = await button(second, BOB, ping.response, control["custom_id"])
        shown = followup(calls)
        assert shown.flags == EPHEMERAL and "Round 1: bid a card" in shown.content
        bids = entries(shown)
        assert [e[0] for e in bids] == ["Bid 1", "Bid 2", "Bid 3", "Bid 4", "Bid 5"]
        calls = await press(second, BOB, shown, bids[2])
        assert followup(calls).content.startswith("You chose: Bid 3.")
        assert (await second.service.status(game)).seq > st.seq
        # the button once more: Bob has bid, there is nothing for him to decide now
        calls = await button(second, BOB, ping.response, control["custom_id"])
        assert "not your move" in followup(calls).content and followup(calls).flags == EPHEMERAL
    finally:
        await second.close()


# == bursts ===================================================================================
async def open_unready(fake: FakeDiscord, db: Path, now: float) -> Rig:
    """A restarted bot: logged in (the transport is armed) but the gateway not ready yet."""
    r = Rig(fake, db)
    r.clock.set(now)
    r.store = await Store.open(db)
    r.service = GameService(r.store, r.clock, seed_factory=lambda: 42)
    r.bot = AnnalsBot(r.service, board_size=400, guild_ready_timeout=0.0)
    await r.bot.login("fake-token")
    return r


def become_ready(r: Rig) -> None:
    state = gateway(r.bot)
    state.parse_ready({"v": 10, "user": BOT_USER, "guilds": [{"id": str(GUILD_ID), "unavailable": True}],
                       "session_id": "s2", "resume_gateway_url": "wss://gateway.test",
                       "application": {"id": str(APP_ID), "flags": 0}, "private_channels": [],
                       "relationships": []})
    state.parse_guild_create(guild_payload())


async def test_a_burst_at_start_up_is_batched(fake: FakeDiscord, tmp_path: Path) -> None:
    db = tmp_path / "annals.sqlite3"
    first = await Rig(fake, db).open()
    games = [await open_game(first, (BOB,)) for _ in range(3)]
    threads = {}
    refs = {}
    for g in games:
        st = await first.service.status(g)
        assert st.thread_id is not None
        threads[g] = st.thread_id
        refs[g] = (await first.store.messages(g))["status"]
    due = max([d.due_at for g in games for d in (await first.service.status(g)).deadlines])
    await first.close()

    second = await open_unready(fake, db, due + 60)  # the bot was down past every deadline
    scheduler = Scheduler(second.service)
    try:
        mark = len(fake.calls)
        fired = await scheduler.start(paused=True)  # start-up: overdue deadlines fire at once
        assert len(fired) == 3
        # and the people whose move it is now play on before the bot is connected
        outcomes = len(fired)
        for g in games:
            for _ in range(2):
                st = await second.service.status(g)
                user = st.waiting_for[0]
                seq, legal = await second.service.legal_actions(g, user)
                await second.service.submit(g, user, legal[0], seq)
                outcomes += 1
        assert not fake.since(mark)  # nothing went out before the gateway was ready
        become_ready(second)
        await second.settle()
        calls = fake.since(mark)
        for g in games:
            thread = threads[g]
            posts = [c for c in calls if c.method == "POST" and c.path == f"/channels/{thread}/messages"]
            edits = [c for c in calls if c.method == "PATCH"
                     and c.path == f"/channels/{thread}/messages/{refs[g].message_id}"]
            # three outcomes, merged and cut at line ends into full messages: no message could go
            text = "\n".join(p.content for p in posts)
            assert all(len(p.content) + len(q.content.split("\n", 1)[0]) >= 2000
                       for p, q in itertools.pairwise(posts)), [len(p.content) for p in posts]
            assert len(edits) == 1  # the pinned status: edited once for the whole burst
            timeout_at = text.index("missed the deadline")
            later = [m.start() for m in re.finditer(r"(keeps|gives) the card", text)]
            assert later and all(i > timeout_at for i in later[-2:])  # in the order it happened
            # the status edit came after the thread's messages
            assert calls.index(edits[0]) > calls.index(posts[-1])
            st = await second.service.status(g)
            assert f"move {st.seq}" in edits[0].content
        patches = [c for c in calls if c.method == "PATCH"]
        assert len(patches) == len(games) < outcomes
        # each person heard once per game at most (plus the card, when theirs to place)
        for user in (ALICE, BOB):
            for dm in {c.path for c in fake.dm_posts(user, mark)}:
                texts = [c for c in fake.dm_posts(user, mark) if c.path == dm and not c.components]
                assert len(texts) <= len(games)
    finally:
        await scheduler.shutdown()
        await second.close()
