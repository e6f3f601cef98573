"""Every registered game through the console, with no per-game code: the game contract at the table.

For each game in :func:`engine.registry.specs` (the test-only toy game included)
a scripted human plays a whole game against AI seats using nothing but what the
console shows: the decision it prints after every move (heading and numbered
choices), answering ``yes`` when a choice asks first. The transcript must end
with why the game ended ("The game ends: ..."), the final scores and the winner; ``status``, ``hand`` and
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
ENDS = "The game ends: "  # how the console says the game is over: why it ended, in the game's words
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


def a_place(board_text: str) -> str:
    """A name the board text mentions, for ``land``: the first capitalised word of a list's second item
    (an item alone does not say whose it is), else after a colon or at a line's start; any game's
    board will do."""
    found = re.search(r"; ([A-Z][a-z]{3,})", board_text) or \
        re.search(r"(?:^|: )([A-Z][a-z]{3,})", board_text, re.M)
    return found.group(1) if found else "Nowhere"


async def table_commands(table: Table, step: str) -> str:
    """The table's other commands (issue 16: scores, log, rules, land), each read as a player would;
    what they printed, for the transcript."""
    printed = ""
    board = await table.run("text")
    place = a_place(board)
    for command in ("scores", "log 5", "rules", f"land {place}", "land Atlantis"):
        out = await table.run(command)
        assert_readable(out, f"{command} {step}")
        printed += f"> {command}\n{out}"
    for line in (await table.run(f"land {place}")).splitlines()[1:]:  # each says what the place is, or
        assert ": " in line, f"'land {place}' says {line.strip()!r} {step}"  # whose: never the bare item
    unknown = await table.run("land Atlantis")
    assert len(unknown.strip().splitlines()) == 1, unknown  # a place nobody names: one line
    return printed


def one_line_answer(out: str, what: str) -> None:
    """A refusal is one line a person reads, never Python's text."""
    assert len(out.strip().splitlines()) == 1, f"{what} is answered in more than one line:\n{out}"
    assert_readable(out, what)


@pytest.mark.parametrize("spec", SPECS, ids=[s.id for s in SPECS])
@pytest.mark.asyncio
async def test_a_scripted_human_plays_a_whole_game_by_the_prompts(
        spec: GameSpec, table: Table, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.ERROR)
    rng = random.Random(spec.id)
    undos = 0
    retries = 0  # after a refused undo, the next moves try again: in a game where few moves can be taken
    # back (7 Ages: most reveal a marker, a card or a draw), every sixth alone may never land on one
    transcript = await table.open_game(spec, "move=14d")
    out = transcript
    assert f"{HUMAN} ({spec.colour(0)})" in transcript or any(
        f"{HUMAN} ({c})" in transcript for c in spec.colours), "the human is not named 'alice (Colour)'"
    await assert_views_read_as_sentences(table, "at the start")
    for step in range(MAX_COMMANDS):
        if ENDS in out:
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
            if (step % 6 == 5 or retries) and ENDS not in out:  # take it back, as a misclick would be
                undone = await table.run("undo")
                if "took back their last move" in undone:
                    undos += 1
                    retries = 0
                    out += "> undo\n" + undone  # the decision again, as before the move
                else:  # refused: after a roll, a draw, a reveal or another player's move
                    one_line_answer(undone, f"undo at step {step}")
                    retries = 5 if step % 6 == 5 and not undos else max(retries - 1, 0)
                    out += "> undo\n" + undone
        transcript += out
        if step % 97 == 0:
            await assert_views_read_as_sentences(table, f"at step {step}")
            transcript += await table_commands(table, f"at step {step}")
    else:
        raise AssertionError(f"{spec.id}: no game over after {MAX_COMMANDS} commands")
    if os.environ.get("ANNALS_TRANSCRIPTS"):  # to read a whole game as the player saw it
        Path(os.environ["ANNALS_TRANSCRIPTS"], f"{spec.id}.txt").write_text(transcript, encoding="utf-8")
    # The result is said once (issue 16: the engine's line, "Game over ..." and the summary said it
    # three times): why the game ended (issue 31) then the game's own summary, which names the winner.
    assert transcript.count(ENDS) == 1, transcript[-3000:]
    assert re.search(r"\[g1\] The game ends: [^\n]+\.\n", transcript), transcript[-3000:]
    assert transcript.count("Final scores") == 1, transcript[-3000:]
    end = transcript[transcript.index(ENDS):]
    final = await table.service.status("g1")
    assert final.ranking is not None
    winner = final.seat_names[final.ranking[0]]
    assert winner in end and ("Winner" in end or "wins" in end or "draw" in end.lower()), end
    status = await table.run("status")
    assert " - over" in status
    await assert_views_read_as_sentences(table, "at the end")
    transcript += await table_commands(table, "at the end")
    if os.environ.get("ANNALS_TRANSCRIPTS"):
        Path(os.environ["ANNALS_TRANSCRIPTS"], f"{spec.id}.txt").write_text(transcript, encoding="utf-8")
    if spec.undo_against_ai:  # the facet: some move of the game can be taken back against the AI
        assert undos > 0, "no move was ever taken back"
    else:  # every move is answered or revealed at once: an undo must always be refused
        assert undos == 0, f"{undos} moves were taken back, yet the spec declares none can be"
    for bad in ("Traceback", "Something went wrong", "listener failed", "waiting for nobody"):
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


# -- the bad input of issue 16, each answered in one line ------------------------------------------------
BAD_LINES = (
    ("create {game} seats=x", "seats takes a whole number"),
    ("create {game} move=abc", "not a duration"),
    ("create {game} seats=99", "players, not 99"),
    ("create nosuchgame", "Unknown game"),
    ("create {game} seed=5", "seed= is for demonstrations"),  # a real clock: the seed stays secret
    ("create {game} seed=-1", "seed= is for demonstrations"),
    ("create {game} seed=99999999999999999999999999", "seed= is for demonstrations"),
    ('create {game} "unclosed', "key=value"),
    ("timers move=-1h", "not a duration"),
    ("timers misses=abc", "whole number"),
    ("vacation abc", "Usage: vacation DAYS"),
    ("play abc", ""),
    ("play 99999999999999999999", ""),
    ("log -5", ""),
    ("land Xi'an", ""),  # an apostrophe is no quotation mark
    ("\ufeffstatus", "lobby"),  # a byte-order mark pasted with the line
)


@pytest.mark.asyncio
async def test_bad_input_is_answered_in_one_line(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.ERROR)
    store = await Store.open(tmp_path / "annals.sqlite3")
    out = io.StringIO()
    service = GameService(store, FakeClock(), id_factory=lambda: "g1")
    console = Console(service, out, out_dir=tmp_path)  # no settable clock, as `python -m bot` runs
    game = SPECS[0].id
    try:
        # a short time per move is a setting like any other (issue 16: "create ... move=1h" was
        # refused with a message about reminders the user never set)
        assert await console.execute(f"/as O'Brien create {game} move=1h")
        opened = out.getvalue()
        assert "O'Brien opened a lobby" in opened and "reminder" not in opened.lower(), opened
        for line, expected in BAD_LINES:
            seen = len(out.getvalue())
            assert await console.execute(line.format(game=game))
            said = out.getvalue()[seen:]
            if line.endswith("status"):  # the mark is dropped and the command runs
                assert "lobby" in said, said
                continue
            one_line_answer(said, repr(line))
            assert expected in said, (line, said)
            assert "No closing quotation" not in said
    finally:
        await store.close()
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], "errors were logged"


@pytest.mark.parametrize("where", ["missing/annals.sqlite3", "not-a-database.sqlite3", ".", "empty.sqlite3",
                                   "one-byte.sqlite3"])
def test_a_bad_database_path_is_one_line(where: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    from bot.__main__ import main

    (tmp_path / "not-a-database.sqlite3").write_text("a letter, not a database", encoding="utf-8")
    (tmp_path / "empty.sqlite3").write_bytes(b"")  # SQLite would start a new database in either
    (tmp_path / "one-byte.sqlite3").write_bytes(b"S")
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.setenv("ANNALS_DB", str(tmp_path / where))
    monkeypatch.setenv("ANNALS_OUT", str(tmp_path / "out"))
    monkeypatch.chdir(tmp_path)
    main([])
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1, err
    assert err.startswith("Cannot open the database: ") and "Traceback" not in err, err
