"""The local console, ``python -m bot`` and its settings.

In-process tests drive :class:`bot.console.Console` with a FakeClock; the
subprocess tests run ``python -m bot`` on a temporary database (no token, piped
stdin, SIGTERM). Nothing waits on or measures wall-clock time; the subprocess
timeouts only stop a hung test.
"""

from __future__ import annotations

import io
import os
import queue
import re
import signal
import sqlite3
import subprocess
import sys
import threading
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

import tests.toy.spec  # noqa: F401  (the test-only game)
from bot.backup import BackupManager
from bot.clock import FakeClock
from bot.config import ConfigError, load_config, parse_duration, parse_env_file
from bot.console import Console, user_id_for
from bot.lines import LinesFrom
from bot.scheduler import Scheduler
from bot.service import GameService
from bot.store import Store
from engine.choice_words import matching_choices

ROOT = Path(__file__).resolve().parents[2]
HOUR = 3600


class Rig:
    """A console on a fresh database with a fake clock and a paused scheduler."""

    def __init__(self, store: Store, clock: FakeClock, out_dir: Path) -> None:
        self.store = store
        self.clock = clock
        self.out = io.StringIO()
        self.service = GameService(store, clock, seed_factory=lambda: 42, id_factory=lambda: "g1")
        self.scheduler = Scheduler(self.service)
        self.console = Console(self.service, self.out, scheduler=self.scheduler, clock=clock, out_dir=out_dir,
                               backups=BackupManager(store.path, out_dir / "backups", keep=2, clock=clock))
        self._seen = 0

    async def run(self, *lines: str) -> str:
        """Execute lines; returns what they printed."""
        for line in lines:
            assert await self.console.execute(line)
        text = self.out.getvalue()[self._seen:]
        self._seen = len(self.out.getvalue())
        return text


@pytest_asyncio.fixture
async def rig(tmp_path: Path) -> AsyncIterator[Rig]:
    store = await Store.open(tmp_path / "annals.sqlite3")
    r = Rig(store, FakeClock(), tmp_path)
    await r.scheduler.start(paused=True)
    yield r
    await r.scheduler.shutdown()
    await store.close()


# -- in-process ---------------------------------------------------------------------------


TOY = "toy-goofspiel"  # the test-only game: console behaviour shared by every game, on the smallest one


@pytest.mark.asyncio
async def test_lobby_decisions_and_the_end_of_a_game(rig: Rig, tmp_path: Path) -> None:
    out = await rig.run(
        f"/as alice create {TOY} move=14d remind=1d",
        "/as bob start g1",  # only the creator may start
        "/as alice add-ai",
        "/as alice start",
    )
    assert "[g1] alice opened a lobby for Goofspiel (test game): game g1. Join with: join g1" in out
    assert "[g1] AI 1 takes a seat in game g1." in out
    assert "[bob] Only the game's creator" in out
    names = (await rig.service.status("g1")).seat_names
    alice = next(n for n in names if n.startswith("alice ("))
    assert f"[g1] Game g1 begins. Seat order: 1. {names[0]}" in out
    # the decision is shown at once, with the game's own heading and labels, numbered
    assert f"[to {alice}] Your move in game g1 (due 2024-01-15 00:00 UTC, in 14d)." in out
    assert re.search(rf"\[to {re.escape(alice)}\] g1: Round 1: bid a card for the prize \d", out)
    assert "  1. Bid 1\n  2. Bid 2\n" in out
    out = await rig.run("status", "hand", "text")
    assert f"Waiting for: {alice} (due 2024-01-15 00:00 UTC, in 14d)" in out
    assert "Timers: 14d per move, reminders 1d before" in out
    assert "Round 1 of 5: the prize is" in out  # the game's own status_text
    assert f"[to {alice}] You hold 1, 2, 3, 4, 5." in out  # hand_text
    assert "5 prizes left." in out  # board_text
    out = await rig.run("bid 5")  # words alone are not a command ...
    assert "Unknown command 'bid'" in out
    out = await rig.run("play bid 5")  # ... but play WORDS is, and a bare number is play N
    assert f"[g1] {alice} has bid." in out and f"[to {alice}] You bid 5." in out
    assert f"[to {alice}] g1: Round 2:" in out  # the next decision at once
    assert "[bob] You have no seat" in await rig.run("/as bob hand")
    for _ in range(4):
        await rig.run("/as alice 1")
    final = rig.out.getvalue()
    # the result is said once: why the game ended and the game's own summary (scores, their parts, winner)
    assert "[g1] The game ends: all 5 prizes have been bid for.\n  Final scores:" in final
    assert re.search(r"Final scores: .*alice \(\w+\) \d+.*Winner: ", final)
    assert final.count("Winner") == 1 and final.count("Final scores") == 1
    status = await rig.service.status("g1")
    assert status.status == "over" and status.scores is not None
    assert await rig.service.verify_game("g1") == []
    assert "nothing to do in g1 now (over)" in await rig.run("/as alice play 1")


@pytest.mark.asyncio
async def test_time_fires_reminders_timeouts_and_vacation_shows(rig: Rig) -> None:
    await rig.run(f"/as alice create {TOY} move=2h remind=1h misses=1", "/as bob join g1", "/as alice start",
                  "/as bob play 1")  # only alice's bid is awaited now
    names = (await rig.service.status("g1")).seat_names
    alice = next(n for n in names if n.startswith("alice ("))
    out = await rig.run("/time +1h")
    assert "[clock] it is now 2024-01-01 01:00 UTC" in out
    assert f"[to {alice}] Reminder: your move in game g1 is due 2024-01-01 02:00 UTC, in 1h." in out
    out = await rig.run("/as alice vacation 2")
    assert f"[g1] {alice} is away for 2 days: the deadline moves to 2024-01-03 02:00 UTC" in out
    assert "(2 of 14 vacation days used)" in out
    assert f"{alice} missed" not in await rig.run("/time +1d")
    out = await rig.run("/time +2d")
    assert f"[g1] {alice} missed the deadline (1 in a row): the AI played the turn." in out
    assert f"[g1] {alice} missed too many deadlines in a row: the AI plays that seat from now on" in out
    out = await rig.run("/as alice reclaim")
    assert f"[g1] {alice} takes their seat back from the AI." in out
    out = await rig.run("/as alice vacation 20")
    assert "at most 14 vacation days" in out


@pytest.mark.asyncio
async def test_mistakes_get_clear_answers(rig: Rig, tmp_path: Path) -> None:
    out = await rig.run("play 1")
    assert "Say who you are first: /as NAME" in out
    out = await rig.run("/as zoe status")
    assert "You are in no running game" in out
    out = await rig.run(f"/as zoe create {TOY} move=5s")
    assert "between 1 minute and 14 days" in out
    out = await rig.run("/as zoe create chess")
    assert "Unknown game 'chess'" in out
    out = await rig.run(f"/as zoe create {TOY}", "frobnicate", "/nope", "play 1")
    assert "Unknown command 'frobnicate'" in out and "Unknown console command /nope" in out
    assert "The game has not started yet." in out or "nothing to do" in out
    out = await rig.run("/time soon", "/help")
    assert "not a duration" in out and "/as NAME" in out and "vacation DAYS" in out
    out = await rig.run("/backup")
    assert re.search(r"\[backup\] written to .*annals-20240101-000000Z\.sqlite3", out)
    assert await rig.console.execute("/quit") is False


@pytest.mark.asyncio
async def test_bad_input_gets_one_line_in_words(rig: Rig) -> None:
    """Issue 16: Python's own text never reaches a person; quotes and a byte-order mark are read."""
    for line, answer in [
        (f"/as zoe create {TOY} seats=many", "seats takes a whole number, not 'many'."),
        (f"/as zoe create {TOY} misses=x", "misses takes a whole number, not 'x'."),
        (f"/as zoe create {TOY} colour=red", "Goofspiel (test game) has no option 'colour'"),
        (f"/as zoe create {TOY} option=fast", "Goofspiel (test game) has no option 'fast'"),
        ("/as zoe create toy-goofspiel setting", "Settings are written key=value, not 'setting'."),
    ]:
        out = await rig.run(line)
        assert out.count("\n") == 1 and answer in out, (line, out)
        assert "invalid literal" not in out and "Error" not in out
    out = await rig.run(f"/as O'Brien create {TOY}")  # an apostrophe in a name is not a quotation
    assert "[g1] O'Brien opened a lobby" in out
    out = await rig.run("\ufeff/as zoe join g1")
    assert "[g1] zoe joined game g1." in out


@pytest.mark.asyncio
async def test_a_short_move_adapts_reminders_nobody_set(rig: Rig) -> None:
    """Issue 16: ``create ... move=1h`` was refused for the default 4-hour reminder."""
    out = await rig.run(f"/as alice create {TOY} move=1h", "status")
    assert "opened a lobby" in out and "Timers: 1h per move, reminders 15m before" in out
    out = await rig.run(f"/as bob create {TOY} move=1h remind=2h")  # one the person set is checked
    assert "Reminders must come after the move starts" in out


@pytest.mark.asyncio
async def test_a_choice_that_asks_first_waits_for_yes(rig: Rig) -> None:
    """A choice with ``confirm`` (ending a turn with armies unspent) is sent only on 'yes'."""
    from engine.core import Choice, Decision

    await rig.run(f"/as alice create {TOY} move=14d", "add-ai", "start")
    real = rig.service.decision

    async def asking(game_id: str, user_id: int) -> tuple[int, Decision | None]:
        seq, d = await real(game_id, user_id)
        if d is None:
            return seq, d
        return seq, Decision(d.player, d.heading, tuple(
            Choice(c.action, c.label, c.group, "Bid your highest card?") for c in d.choices))

    rig.service.decision = asking  # type: ignore[method-assign]
    seq = (await rig.service.status("g1")).seq
    out = await rig.run("play 5")
    assert "Bid your highest card? Type 'yes' to play 'Bid 5', anything else cancels it." in out
    assert (await rig.service.status("g1")).seq == seq
    out = await rig.run("status")
    assert "Not sent: Bid 5." in out and (await rig.service.status("g1")).seq == seq
    out = await rig.run("play 5", "undo")  # an undo before 'yes' takes back the unsent move alone
    assert out.rstrip().endswith("Not sent: Bid 5.") and (await rig.service.status("g1")).seq == seq
    await rig.run("play 5", "yes")
    assert (await rig.service.status("g1")).seq > seq


@pytest.mark.asyncio
async def test_with_a_real_clock_time_passes_by_itself(tmp_path: Path) -> None:
    async with await Store.open(tmp_path / "x.sqlite3") as store:
        out = io.StringIO()
        console = Console(GameService(store), out)
        assert await console.run(LinesFrom(["/time +2h", "/as a create"])) == 0
        assert "The clock is real here" in out.getvalue()
        assert "opened a lobby" in out.getvalue()


def test_matching_typed_moves() -> None:
    labels = ["keep the card", "give the card to bob (Blue)", "expand Levant", "expand Crete (battle)"]
    assert matching_choices("2", labels) == [1]
    assert matching_choices("9", labels) == []
    assert matching_choices("keep", labels) == [0]
    assert matching_choices("expand  levant", labels) == [2]
    assert matching_choices("Expand Crete", labels) == [3]
    assert matching_choices("give the card", labels) == [1]
    assert matching_choices("expand", labels) == [2, 3]  # two expansions: both named, none played


# -- settings -----------------------------------------------------------------------------


def test_env_files_and_durations(tmp_path: Path) -> None:
    env = tmp_path / ".env"
    env.write_text(
        "# comment\n\nDISCORD_TOKEN=abc # trailing\nexport ANNALS_DB='games.db'\nANNALS_BACKUP_KEEP=\"5\"\n"
        "ANNALS_BACKUP_INTERVAL=1h30m\nnot a line\n"
    )
    assert parse_env_file(env.read_text())["DISCORD_TOKEN"] == "abc"
    config = load_config({"ANNALS_BACKUP_KEEP": "7"}, env)
    assert config.discord_token == "abc" and config.db_path == "games.db"
    assert config.backup_keep == 7 and config.backup_interval == 5400  # the environment wins over .env
    assert config.backup_dir == Path("games.db").resolve().parent / "backups"
    empty = load_config({}, tmp_path / "missing.env")
    assert empty.discord_token is None and empty.db_path == "annals.sqlite3"
    assert empty.backup_interval == 6 * HOUR
    assert load_config({"ANNALS_BACKUP_INTERVAL": "off"}, None).backup_interval == 0
    with pytest.raises(ConfigError, match="ANNALS_BACKUP_KEEP"):
        load_config({"ANNALS_BACKUP_KEEP": "many"}, None)
    assert [parse_duration(t) for t in ("90", "+2h", "30m", "1d", "1h30m", "1w")] == [
        90, 7200, 1800, 86400, 5400, 7 * 86400]
    for bad in ("", "soon", "2x", "h"):
        with pytest.raises(ValueError):
            parse_duration(bad)


# -- python -m bot ------------------------------------------------------------------------


def bot_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ANNALS_", "DISCORD_"))}
    env.update(PYTHONPATH=str(ROOT), ANNALS_DB=str(tmp_path / "annals.sqlite3"), ANNALS_OUT=str(tmp_path),
               ANNALS_BACKUP_DIR=str(tmp_path / "backups"), **extra)
    return env


def test_no_token_and_closed_stdin_exits_0_and_says_how_to_connect(tmp_path: Path) -> None:
    result = subprocess.run([sys.executable, "-m", "bot"], cwd=tmp_path, env=bot_env(tmp_path),
                            stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert "DISCORD_TOKEN" in result.stdout and str(tmp_path / "annals.sqlite3") in result.stdout
    assert (tmp_path / "annals.sqlite3").exists()


def test_piped_commands_play_and_eof_exits_0(tmp_path: Path) -> None:
    script = "\n".join([
        "/as alice create history-classic seed=7", "/as alice add-ai", "/as alice add-ai", "/as alice start",
        "/as alice status", "actions", "play 1", "/as alice games",
    ]) + "\n"
    result = subprocess.run([sys.executable, "-m", "bot", "--demo"], cwd=tmp_path, env=bot_env(tmp_path),
                            input=script, capture_output=True, text=True, timeout=120)  # seed= needs --demo
    assert result.returncode == 0, result.stderr
    assert re.search(r"^\[\w+\] Game \w+ begins\. Seat order: ", result.stdout, re.M)
    assert "[to alice (" in result.stdout and "(play N, or the words of a choice)" in result.stdout
    assert "Annals stopped." in result.stdout
    assert result.stderr == ""


def test_sigterm_stops_the_console_cleanly_and_leaves_the_database_consistent(tmp_path: Path) -> None:
    proc = subprocess.Popen([sys.executable, "-m", "bot", "--demo"], cwd=tmp_path, env=bot_env(tmp_path),
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    lines: queue.Queue[str | None] = queue.Queue()

    def pump() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.put(line)
        lines.put(None)

    threading.Thread(target=pump, daemon=True).start()
    assert proc.stdin is not None
    try:
        proc.stdin.write("/as alice create history-classic seed=3\n/as alice add-ai\n/as bob join\n"
                         "/as alice add-ai\n/as alice start\n")
        proc.stdin.flush()
        seen: list[str] = []
        while True:
            line = lines.get(timeout=120)
            assert line is not None, "".join(seen)
            seen.append(line)
            if "Your move in" in line:
                break
        # a burst of moves, and the signal while they are being written
        proc.stdin.write("/as alice play 1\n" * 20)
        proc.stdin.flush()
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
    rest = []
    while (line := lines.get(timeout=10)) is not None:
        rest.append(line)
    assert proc.returncode == 0, proc.stderr.read() if proc.stderr else ""
    assert rest and rest[-1].strip() == "Annals stopped."
    check = subprocess.run(
        [sys.executable, "-c",
         "import asyncio, sys\n"
         "from bot.store import Store\nfrom bot.service import GameService\n"
         "async def main():\n"
         "    async with await Store.open(sys.argv[1]) as s:\n"
         "        svc = GameService(s)\n"
         "        problems = await s.integrity_problems()\n"
         "        for g in await s.list_games():\n"
         "            problems += await svc.verify_game(g.game_id)\n"
         "        print('games', len(await s.list_games()), 'problems', problems)\n"
         "asyncio.run(main())\n", str(tmp_path / "annals.sqlite3")],
        cwd=ROOT, env=bot_env(tmp_path), capture_output=True, text=True, timeout=120)
    assert check.returncode == 0, check.stderr
    assert check.stdout.strip() == "games 1 problems []"
    wal = tmp_path / "annals.sqlite3-wal"
    assert not wal.exists() or wal.stat().st_size == 0  # closed cleanly: the WAL was folded in


def test_backup_on_demand_from_the_command_line(tmp_path: Path) -> None:
    env = bot_env(tmp_path)
    subprocess.run([sys.executable, "-m", "bot"], cwd=tmp_path, env=env, input="/as a create\n",
                   capture_output=True, text=True, timeout=120, check=True)
    result = subprocess.run([sys.executable, "-m", "bot", "backup"], cwd=tmp_path, env=env,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    path = Path(result.stdout.strip())
    assert path.parent == tmp_path / "backups" and re.match(r"annals-\d{8}-\d{6}Z\.sqlite3$", path.name)
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 1


@pytest.mark.asyncio
async def test_ai_seats_leave_a_lobby_and_a_lobby_passes_or_closes(rig: Rig) -> None:
    """Issue 16: AI seats could not be removed from a console lobby; a lobby whose creator left
    stayed behind, empty."""
    out = await rig.run(f"/as alice create {TOY}", "add-ai", "kick AI 1", "status")
    assert "[g1] AI 1 was removed from game g1." in out and "1 of 2 seats taken" in out
    out = await rig.run("/as bob join g1", "/as alice leave")
    assert "[g1] The lobby's creator left: bob now runs game g1." in out
    out = await rig.run("/as bob add-ai", "/as bob start")  # bob may do what only the creator may
    assert "begins. Seat order:" in out


@pytest.mark.asyncio
async def test_join_without_a_game_takes_the_one_open_lobby(rig: Rig) -> None:
    """'join' alone answered "Usage: join GAME" even with one lobby open (the lobby line names it)."""
    out = await rig.run("/as bob join")
    assert out.strip() == "[bob] There is no open lobby to join; open one with 'create GAME'."
    await rig.run(f"/as alice create {TOY}")
    await rig.run("/as bob join")
    assert [s.name for s in (await rig.service.status("g1")).seats] == ["alice", "bob"]
    ids = iter(["g2"])
    rig.service._new_id = lambda: next(ids)  # the rig names every game g1
    await rig.run(f"/as carol create {TOY}")
    out = await rig.run("/as dave join")
    assert out.strip() == "[dave] Usage: join GAME (open lobbies: g1, g2)."


@pytest.mark.asyncio
async def test_scores_log_rules_and_land_through_the_games_own_words(rig: Rig) -> None:
    out = await rig.run(f"/as alice create {TOY}", "rules", "scores")
    assert "Goofspiel (test game), for 2 to 2 players: Two players bid cards 1 to 5" in out
    assert "The lobby is open" in out and "has not started: no scores yet" in out
    await rig.run("add-ai", "start", "play 1", "play 1")
    out = await rig.run("scores", "log", "log 1", "rules", "land PRIZES", "land Atlantis")
    assert "[alice] scores of g1:\n  Round 3 of 5: the prize is" in out
    assert "[alice] log of g1, the last 1 of " in out and re.search(r"  move \d+: .* has bid\.", out)
    assert "Now: Round 3 of 5." in out and "Your decision: Round 3: bid a card for the prize" in out
    # Goofspiel has cards but no places: the game's place_text knows none, and says nothing else
    assert "[alice] The board of g1 has no place called 'PRIZES'." in out
    assert "[alice] The board of g1 has no place called 'Atlantis'." in out
    for _ in range(3):
        await rig.run("play 1")
    out = await rig.run("scores")
    assert "  Final scores: " in out  # the game's summary once it is over


@pytest.mark.asyncio
async def test_card_answers_in_one_line_where_a_game_has_no_such_card(rig: Rig) -> None:
    out = await rig.run(f"/as alice create {TOY}", "card 3", "card")
    assert out.endswith("[alice] g1 has not started: nobody holds a card yet.\n"
                        "[alice] Usage: card WHAT (a card's number or a name printed on it)\n"), out
    await rig.run("add-ai", "start")
    out = await rig.run("card 3", "card " + "x" * 500)
    # Goofspiel's cards are bare numbers it has no text for: the template's card_text knows none
    assert out == ("[alice] Goofspiel (test game) has no card called '3'.\n"
                   f"[alice] Goofspiel (test game) has no card called '{'x' * 40}…'.\n"), out


@pytest.mark.asyncio
async def test_card_shows_a_seven_ages_card_whole_to_whoever_may_see_it(rig: Rig) -> None:
    """The 7 Ages game is opened through the service with a seed (a lobby's game draws its own); every
    command after that is typed at the console. alice reads her own card whole, privately; the AI's card and
    bob (no seat) asking for hers get one sentence."""
    from engine.seven_ages.card_words import card_long
    from engine.seven_ages.cards import load_deck

    alice = user_id_for("alice")
    gid = (await rig.service.create_lobby(alice, "alice", "seven-ages", seed=42)).game_id
    await rig.service.add_ai(gid, alice)
    await rig.service.start(gid, alice)
    _, state = await rig.service.engine_state(gid)
    seat = next(s.seat for s in (await rig.service.status(gid)).seats if s.user_id == alice)
    assert seat is not None
    mine, theirs = state.people[seat].hand[0], state.people[1 - seat].hand[0]
    name = (await rig.service.status(gid)).seat_names[seat]
    await rig.run()  # what the start printed
    out = await rig.run(f"/as alice card {mine}")
    assert out == "".join(f"[to {name}] {line}\n" for line in card_long(mine).splitlines()), out
    empire = load_deck().cards[mine].empire.name
    assert await rig.run(f"card {empire.upper()}") == out  # a name on the card, any case
    refused = (f"[to {name}] Card {theirs} is not one you can see: only your own cards and the empires on "
               "the map can be looked up.\n")
    assert await rig.run(f"card {theirs}") == refused
    await rig.run(f"/as bob use {gid}")
    out = await rig.run(f"card {mine}")
    assert out == (f"[to bob] Card {mine} is not one you can see: only your own cards and the empires on the "
                   "map can be looked up.\n"), out
    out = await rig.run("card Atlantis")
    assert out == "[bob] 7 Ages has no card called 'Atlantis'.\n", out


@pytest.mark.asyncio
async def test_at_a_terminal_the_prompt_edits_lines_and_recalls_history() -> None:
    """Issue 16: no prompt, no line editing, no history; arrow keys arrived as ``\\x1b[A``."""
    from prompt_toolkit import PromptSession
    from prompt_toolkit.history import InMemoryHistory
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from bot.lines import PromptLines

    with create_pipe_input() as keys:
        lines = PromptLines(PromptSession(history=InMemoryHistory(), input=keys, output=DummyOutput()))
        keys.send_text("status\r")
        assert await lines.next_line() == "status"
        keys.send_text("play 2\x1b[D\x1b[D\x7f\x7f 3\r")  # two left arrows, two backspaces: edited
        assert await lines.next_line() == "pl 3 2"
        keys.send_text("\x1b[A\x1b[A\r")  # up twice: the line before the last
        assert await lines.next_line() == "status"
        keys.send_text("\x04")  # Ctrl-D on an empty line: the end of the input
        assert await lines.next_line() is None


def test_choices_of_one_group_are_numbered_together() -> None:
    """A two-step pick prints each group once; ``play N`` counts in that printed order."""
    from bot.console import shown_order
    from engine.core import Action, Choice, Decision

    def c(label: str, group: str) -> Choice:
        return Choice(Action(0), label, group)

    d = Decision(0, "Place an army", (c("Amberhold", "South"), c("Ashvale", "West"), c("Dunesea", "South"),
                                      c("Greyfen", "West"), c("Frostpeak", "")))
    assert [x.label for x in shown_order(d)] == ["Amberhold", "Dunesea", "Ashvale", "Greyfen", "Frostpeak"]


@pytest.mark.asyncio
async def test_undo_takes_back_a_move_and_the_table_is_told_in_one_line(rig: Rig) -> None:
    """Issue 16: 'undo' takes back one's own move until something new became known."""
    await rig.run("/as alice create rise", "/as bob join g1", "/as alice start")
    # nothing played yet: refused in words, nothing changes
    seq = (await rig.service.status("g1")).seq
    assert "There is no move of yours to take back" in await rig.run("/as bob undo")
    assert (await rig.service.status("g1")).seq == seq
    refused = undone = 0
    for _ in range(40):
        status = await rig.service.status("g1")
        if status.status != "active" or undone:
            break
        who = "alice" if status.waiting_for[0] == user_id_for("alice") else "bob"
        before = await rig.service.decision("g1", user_id_for(who))
        logged = (await rig.service.public_log("g1"))[1]
        await rig.run(f"/as {who} 1")
        played = (await rig.service.public_log("g1"))[1]
        out = await rig.run("undo")
        if "took back their last move." in out:
            undone += 1
            assert "Your last move" not in out  # said once, by the table's line
            assert out.rstrip().splitlines()[-1].startswith("  ")  # then the decision again, its choices
            after = await rig.service.decision("g1", user_id_for(who))
            assert after[0] > before[0] and after[1] == before[1]  # a new seq, the same decision again
            # the public log ('log') no longer tells the move taken back
            assert len(played) > len(logged) and (await rig.service.public_log("g1"))[1] == logged
            names = (await rig.service.status("g1")).seat_names
            assert any(f"[g1] {n} took back their last move." in out for n in names)
            assert "Traceback" not in out and str(user_id_for(who)) not in out
        else:
            refused += 1
            assert "There is no move of yours to take back" in out
    assert undone == 1
    assert await rig.service.verify_game("g1") == []
