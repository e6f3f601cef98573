"""The console reads what people type without guessing, and answers small edges in words (issue 28,
items 3 and 7): words fitting several choices, a pasted page as a command, ``log -5``, ``timers``
alone, and the standing preferences a game lets a seated player set at any time."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from bot.clock import FakeClock
from bot.store import Store
from engine.core import Choice, Decision
from tests.bot.test_console import TOY, Rig

PLACES = ["Eastwatch", "Westford", "Goldfield", "Lowmere", "Stonebridge"]


@pytest_asyncio.fixture
async def rig(tmp_path: Path) -> AsyncIterator[Rig]:
    store = await Store.open(tmp_path / "annals.sqlite3")
    r = Rig(store, FakeClock(), tmp_path)
    await r.scheduler.start(paused=True)
    yield r
    await r.scheduler.shutdown()
    await store.close()


def moves_from_crossroads(rig: Rig) -> None:
    """The toy's five bids relabelled as moves that all start "Move Crossroads", as an
    Eight-Minute army's moves from one region read."""
    real = rig.service.decision

    async def relabelled(game_id: str, user_id: int) -> tuple[int, Decision | None]:
        seq, d = await real(game_id, user_id)
        if d is None:
            return seq, d
        return seq, Decision(d.player, d.heading, tuple(
            Choice(c.action, f"Move Crossroads → {PLACES[i]}") for i, c in enumerate(d.choices)))

    rig.service.decision = relabelled  # type: ignore[method-assign]


@pytest.mark.asyncio
async def test_words_that_fit_several_choices_list_them_and_play_nothing(rig: Rig) -> None:
    await rig.run(f"/as alice create {TOY} move=14d", "add-ai", "start")
    moves_from_crossroads(rig)
    seq = (await rig.service.status("g1")).seq
    out = await rig.run("play move crossroads")
    assert out == ("[alice] 'move crossroads' fits 5 of your moves; nothing was played. Type its number "
                   "or more of its words:\n"
                   "  1. Move Crossroads → Eastwatch\n  2. Move Crossroads → Westford\n"
                   "  3. Move Crossroads → Goldfield\n  4. Move Crossroads → Lowmere\n"
                   "  5. Move Crossroads → Stonebridge\n")
    out = await rig.run("play move cross s")  # the words of one choice, each by its start
    assert (await rig.service.status("g1")).seq > seq
    assert "You bid 5." in out  # Stonebridge is the toy's fifth choice: its bid of 5


@pytest.mark.asyncio
async def test_a_prefix_of_several_labels_is_not_played(rig: Rig) -> None:
    await rig.run(f"/as alice create {TOY} move=14d", "add-ai", "start")
    seq = (await rig.service.status("g1")).seq
    out = await rig.run("play bi")
    assert "'bi' fits 5 of your moves; nothing was played." in out and "  3. Bid 3\n" in out
    assert (await rig.service.status("g1")).seq == seq
    out = await rig.run("play bid 3")
    assert "You bid 3." in out


@pytest.mark.asyncio
async def test_a_pasted_page_is_not_echoed_back_whole(rig: Rig) -> None:
    word = "x" * 900  # a line holds 1,000 characters at most: a longer one is refused as too long
    for line, answer in [(f"/as alice {word}", "[alice] Unknown command 'xxxxxxxxx"),
                         (f"/{word}", "Unknown console command /xxxxxxx"),
                         (f"/as alice create {word}", "[alice] Unknown game 'xxxxxxx"),
                         (f"/as alice create {TOY} {word}",
                          "[alice] Settings are written key=value, not 'xxx")]:
        out = await rig.run(line)
        assert out.startswith(answer) and out.count("\n") == 1, out
        assert "…" in out and out.count("x") <= 60, out  # cut to a few dozen letters, whatever else it says


@pytest.mark.asyncio
async def test_log_with_a_count_below_one_is_answered_in_words(rig: Rig) -> None:
    await rig.run(f"/as alice create {TOY}", "add-ai", "start", "play 1")
    for count in ("-5", "0"):
        out = await rig.run(f"log {count}")
        assert out == f"[alice] log N shows the last N events: N is 1 or more, not {count}.\n"
    assert "the last 2 of " in await rig.run("log 2")


@pytest.mark.asyncio
async def test_timers_alone_prints_the_timers(rig: Rig) -> None:
    await rig.run(f"/as alice create {TOY} move=2d remind=6h policy=skip misses=2")
    out = await rig.run("timers")
    assert out == ("[alice] Timers of g1: 2d per move, reminders 6h before, on timeout: the turn is "
                   "skipped, the AI takes over after 2 missed deadlines.\n")
    out = await rig.run("timers move=3d", "timers")
    assert "Timers of g1 changed." in out and "Timers of g1: 3d per move" in out
    assert "Usage: timers" in await rig.run("timers colour=red")


@pytest.mark.asyncio
async def test_standing_preferences_are_set_from_the_console(rig: Rig) -> None:
    """The 5-epoch rules' reroll and track preferences, sent as Discord's ``prefs`` sends them."""
    await rig.run("/as alice create history", "add-ai", "add-ai", "start")
    out = await rig.run("prefs")
    assert "[alice] Your standing preferences in g1: reroll=if_losing, track=ask." in out
    seq = (await rig.service.status("g1")).seq
    out = await rig.run("prefs reroll=never track=up")
    assert "Your preference is set: as defender against a fleet, never reroll." in out  # the game's words
    assert "reroll=never, track=up" in await rig.run("prefs")
    assert (await rig.service.status("g1")).seq > seq
    out = await rig.run("prefs reroll=sometimes")
    assert out == "[alice] Unknown preference reroll=sometimes.\n"
    assert "reroll=never, track=up" in await rig.run("prefs")  # the refusal changed nothing


@pytest.mark.asyncio
async def test_a_game_without_preferences_says_so(rig: Rig) -> None:
    await rig.run(f"/as alice create {TOY}", "add-ai", "start")
    out = await rig.run("prefs reroll=never")
    assert out == "[alice] Goofspiel (test game) has no standing preferences.\n"
