"""Every registered game through the console, with no per-game code: the game contract at the table.

For each game in :func:`engine.registry.specs` (the test-only toy game included)
a scripted human plays a whole game against AI seats using nothing but what the
console shows: the decision it prints after every move (heading and numbered
choices), answering ``yes`` when a choice asks first. The transcript must end
with "Game over", the final scores and the winner; ``status``, ``hand`` and
``text`` must read as sentences at every sampled step (no JSON, no raw user
ids, no Python error text); both timeout policies must fire and move the game on.
"""

from __future__ import annotations

import io
import logging
import os
import random
import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

import tests.toy.spec  # noqa: F401  (registers the toy game, exactly as a real game registers)
from bot.clock import FakeClock
from bot.console import Console, user_id_for
from bot.scheduler import Scheduler
from bot.service import GameService
from bot.store import Store
from engine import registry
from engine.spec import GameSpec

SPECS = registry.specs(offered=True)  # the console creates only the games the lobby offers
HUMAN = "alice"
MAX_COMMANDS = 4000  # a game that needs more from one human is stuck, not long
CHOICE = re.compile(r"^  (\d+)\. ", re.M)
PYTHON_TEXT = ("Traceback", "Error", "Exception", "invalid literal", "object has no attribute",
               "Something went wrong", "NoneType")


class Table:
    """A console on a fresh database with a fake clock; the scripted human is ``alice``."""

    def __init__(self, store: Store, clock: FakeClock, out_dir: Path) -> None:
        self.store = store
        self.clock = clock
        self.out = io.StringIO()
        self.service = GameService(store, clock, seed_factory=lambda: 20240101, id_factory=lambda: "g1")
        self.scheduler = Scheduler(self.service)
        self.console = Console(self.service, self.out, scheduler=self.scheduler, clock=clock, out_dir=out_dir)
        self._seen = 0

    async def run(self, *lines: str) -> str:
        """Execute lines; returns what they printed."""
        for line in lines:
            assert await self.console.execute(line)
        text = self.out.getvalue()[self._seen:]
        self._seen = len(self.out.getvalue())
        return text

    async def open_game(self, spec: GameSpec, *settings: str) -> str:
        """alice's game of ``spec`` with AI seats for the rest, started; what it printed."""
        seats = spec.min_players
        out = await self.run(f"/as {HUMAN} create {spec.id} seats={seats} {' '.join(settings)}".strip())
        for _ in range(seats - 1):
            out += await self.run("add-ai")
        return out + await self.run("start")


@pytest_asyncio.fixture
async def table(tmp_path: Path) -> AsyncIterator[Table]:
    store = await Store.open(tmp_path / "annals.sqlite3")
    t = Table(store, FakeClock(), tmp_path)
    await t.scheduler.start(paused=True)
    yield t
    await t.scheduler.shutdown()
    await store.close()


def last_decision(text: str) -> int:
    """How many choices the last decision printed in ``text`` offers (0: none shown)."""
    at = text.rfind(" (play N, or the words of a choice)")
    return len(CHOICE.findall(text[at:])) if at >= 0 else 0


def assert_readable(text: str, what: str) -> None:
    """A person's text: sentences, no JSON, no raw user id, no Python error text."""
    assert text.strip(), f"{what} printed nothing"
    assert "{" not in text and "}" not in text, f"{what} prints raw data:\n{text}"
    assert str(user_id_for(HUMAN)) not in text, f"{what} shows a raw user id:\n{text}"
    for bad in PYTHON_TEXT:
        assert bad not in text, f"{what} shows Python's text ({bad}):\n{text}"


async def assert_views_read_as_sentences(table: Table, step: str) -> None:
    for command in ("status", "hand", "text"):
        out = await table.run(command)
        assert_readable(out, f"{command} {step}")


@pytest.mark.parametrize("spec", SPECS, ids=[s.id for s in SPECS])
@pytest.mark.asyncio
async def test_a_scripted_human_plays_a_whole_game_by_the_prompts(
        spec: GameSpec, table: Table, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.ERROR)
    rng = random.Random(spec.id)
    transcript = await table.open_game(spec, "move=14d")
    out = transcript
    assert f"{HUMAN} ({spec.colour(0)})" in transcript or any(
        f"{HUMAN} ({c})" in transcript for c in spec.colours), "the human is not named 'alice (Colour)'"
    await assert_views_read_as_sentences(table, "at the start")
    for step in range(MAX_COMMANDS):
        if "Game over" in out:
            break
        if "Type 'yes'" in out.splitlines()[-1]:
            out = await table.run("yes")
        else:
            n = last_decision(out)
            if n == 0:  # the prompt went by with another line: ask for it again
                out = await table.run("actions")
                n = last_decision(out)
            assert n > 0, f"no decision shown and the game is not over:\n{out[-2000:]}"
            out = await table.run(f"play {rng.randint(1, n)}")
        transcript += out
        if step % 97 == 0:
            await assert_views_read_as_sentences(table, f"at step {step}")
    else:
        raise AssertionError(f"{spec.id}: no game over after {MAX_COMMANDS} commands")
    if os.environ.get("ANNALS_TRANSCRIPTS"):  # to read a whole game as the player saw it
        Path(os.environ["ANNALS_TRANSCRIPTS"], f"{spec.id}.txt").write_text(transcript, encoding="utf-8")
    assert re.search(r"Final scores: .+", transcript), "no final scores"
    assert "Winner" in transcript or "winner" in transcript or "draw" in transcript.lower()
    status = await table.run("status")
    assert " - over" in status
    await assert_views_read_as_sentences(table, "at the end")
    for bad in ("Traceback", "Something went wrong", "listener failed"):
        assert bad not in transcript
    # nobody resigned: an engine event of that name (the 5-epoch empire laying down its armies) is
    # the game's own sentence, never the platform's "resigned; the AI plays that seat"
    assert "resigned from game" not in transcript
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], "errors were logged"


@pytest.mark.parametrize("policy", ["ai", "skip"])
@pytest.mark.parametrize("spec", SPECS, ids=[s.id for s in SPECS])
@pytest.mark.asyncio
async def test_both_timeout_policies_fire(spec: GameSpec, policy: str, table: Table) -> None:
    await table.open_game(spec, "move=1h", f"policy={policy}", "misses=0")
    status = await table.service.status("g1")
    assert status.waiting_for == (user_id_for(HUMAN),)
    seat = next(s.seat for s in status.seats if s.user_id == user_id_for(HUMAN))
    assert seat is not None
    _, state = await table.service.engine_state("g1")
    passive = spec.load().timeout_action(state, seat)
    out = await table.run("/time +61m")
    done = "the AI played the turn." if policy == "ai" else "the turn was skipped."
    assert f"{status.seat_names[seat]} missed the deadline (1 in a row): {done}" in out, out
    played = [a for a in await table.store.actions("g1") if a.source == "timeout"]
    assert played and (await table.service.status("g1")).seq > status.seq
    if policy == "skip":  # the game's own passive move, never the AI's (the 5-epoch 'stop' was missed)
        assert played[0].action == passive.to_json()
    assert_readable(out, f"the {policy} timeout")
