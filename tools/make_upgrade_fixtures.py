"""Build the upgrade fixtures: SQLite databases written by earlier commits of this repository.

Each database in ``tests/support/fixtures/upgrade/`` is made by the code of one earlier commit (at least
one per schema version 1..6): the commit is checked out into a temporary ``git worktree`` and its
own console (``python -m bot --console`` with ``ANNALS_DB`` set, run by the shared virtualenv's
Python with ``PYTHONPATH`` at that worktree) plays a few scripted games, typed on its stdin the
way a person would. Nothing of today's code touches the database while it is written, so the files
hold exactly what those commits stored: their schema, their logs, their snapshots.

Then, with today's code, the tool writes ``tests/support/fixtures/upgrade/README.md``: per file its commit
and schema version, and per game its ruleset, status, seq, whose move it is, and whether today's
:func:`engine.core.replay` rebuilds the stored snapshot from the seed and log (the point of the
fixtures: many old logs no longer replay under today's rules). ``tests/store/test_upgrade.py`` opens the
files with today's store.

Usage (from the repository root, with the shared virtualenv)::

    PYTHONPATH=$PWD /work/main/.venv/bin/python tools/make_upgrade_fixtures.py        # every commit
    PYTHONPATH=$PWD /work/main/.venv/bin/python tools/make_upgrade_fixtures.py 07cf24e # some of them
    PYTHONPATH=$PWD /work/main/.venv/bin/python tools/make_upgrade_fixtures.py --readme-only
    PYTHONPATH=$PWD /work/main/.venv/bin/python tools/make_upgrade_fixtures.py --out /tmp/try --keep

Re-running replaces the files it makes (game ids and timestamps differ from run to run: ids are
random in every commit and the console's clock is the real one; the games' seeds, and so their
moves, are fixed). Every old console is driven the same way: a command, then an unknown console
command carrying a unique token whose refusal marks the end of the command's output. A console
that hangs holds the tool up: stop it with Ctrl-C (the temporary worktree is pruned on the way out).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "support" / "fixtures" / "upgrade"
PYTHON = Path(os.environ.get("ANNALS_FIXTURE_PYTHON", "/work/main/.venv/bin/python"))
MOVE_LINE = re.compile(r"^\s*(\d+)\.\s+(.*)$")
TIMEOUT = 120.0  # seconds an old console may take to finish its last command and quit


@dataclass(frozen=True)
class Game:
    """One scripted game.

    Attributes:
        ruleset: the engine game id as the commit spells it.
        label: a short name for the game in this tool's output and the README.
        seed: the game's seed (the console's ``seed=``), so its moves are the same every run.
        people: the human players, the first one creates the game.
        ais: AI seats added in the lobby (random policy: quick and reproducible).
        moves: how many moves the people make after the start, each the first one listed by
            ``actions`` for whoever must move (an AI seat moves by itself in between).
        undo: type ``undo`` as the last mover at the end (only where the commit's console has it).
        finish: the people resign after their moves, so the AI plays the game to its end.
    """

    ruleset: str
    label: str
    seed: int
    people: tuple[str, ...]
    ais: int = 0
    moves: int = 0
    undo: bool = False
    finish: bool = False


@dataclass(frozen=True)
class Commit:
    """An earlier commit and the games its console plays into one database."""

    commit: str
    schema: int
    games: tuple[Game, ...]
    why: str = ""


CLASSIC_MID = Game("history-classic", "classic, mid-turn", 11, ("alice", "bob", "carol"), moves=9, undo=True)
CLASSIC_START = Game("history-classic", "classic, a new turn", 12, ("alice", "bob", "carol"), moves=3)
EPOCHS_MID = Game("history", "5-epoch, mid-turn", 21, ("alice", "bob", "carol"), moves=8)
EIGHT_MID = Game("eight-minute", "Eight-Minute, in progress", 31, ("alice", "bob"), moves=12)
EIGHT_OVER = Game("eight-minute", "Eight-Minute, over", 32, ("dora",), ais=1, finish=True)
RISE_MID = Game("rise", "Rise, in progress", 41, ("alice", "bob", "carol"), moves=4)
# longer games reach the places where the rules changed since (their logs no longer replay)
CLASSIC_LONG = Game("history-classic", "classic, later mid-turn", 11, ("alice", "bob", "carol"), moves=40)
EPOCHS_LONG = Game("history", "5-epoch, later mid-turn", 21, ("alice", "bob", "carol"), moves=40)
CLASSIC_OVER = Game("history-classic", "classic, over", 13, ("dora",), ais=2, finish=True)

COMMITS: tuple[Commit, ...] = (
    Commit("d754de6", 1, (CLASSIC_MID, CLASSIC_START, CLASSIC_LONG, CLASSIC_OVER),
           "the store and console, classic rules only"),
    Commit("07cf24e", 2, (CLASSIC_MID, EPOCHS_MID, EIGHT_MID, CLASSIC_LONG, EPOCHS_LONG, EIGHT_OVER),
           "vacation booked ahead; 5-epoch and Eight-Minute engines just added"),
    Commit("33c8340", 3, (CLASSIC_MID, EPOCHS_MID, EIGHT_MID, RISE_MID, CLASSIC_LONG, EPOCHS_LONG,
                          EIGHT_OVER),
           "personal reminders; Rise of Empires added"),
    Commit("69d7ace", 4, (CLASSIC_MID, EPOCHS_MID, EIGHT_MID, RISE_MID, CLASSIC_LONG, EPOCHS_LONG,
                          EIGHT_OVER),
           "leagues; the last commit before the game contract"),
    Commit("0e39987", 5, (CLASSIC_MID, EPOCHS_MID, EIGHT_MID, RISE_MID, EIGHT_OVER),
           "damaged games set aside; undo within a turn"),
    Commit("7866563", 6, (CLASSIC_MID, EPOCHS_MID, EIGHT_MID, RISE_MID, EIGHT_OVER),
           "the outbox; the last commit before schema 7"),
    Commit("2a6b15d", 7, (CLASSIC_MID, EPOCHS_MID, EIGHT_MID, RISE_MID, EIGHT_OVER),
           "stored records, rules versions; the last commit before schema 8 (time banks)"),
    Commit("ce2aca9", 8, (CLASSIC_MID, EPOCHS_MID, EIGHT_MID, RISE_MID, EIGHT_OVER),
           "time banks; the last commit before schema 9 (the \"you're next\" setting)"),
    Commit("75f884a", 9, (CLASSIC_MID, EPOCHS_MID, EIGHT_MID, RISE_MID, EIGHT_OVER),
           "the \"you're next\" setting; the last commit before schema 10 (quiet moves counted apart)"),
)


class ConsoleError(RuntimeError):
    """An old console did not answer as expected."""


@dataclass
class OldConsole:
    """One old commit's console process, driven a command at a time over a pipe."""

    worktree: Path
    db: Path
    transcript: list[str] = field(default_factory=list)
    _proc: subprocess.Popen[str] | None = None
    _marks: int = 0

    def start(self, home: Path) -> None:
        """Start the worktree's ``python -m bot --console --demo`` on the database (later commits take
        ``seed=`` only with ``--demo``); pictures and backups go to ``home``."""
        env = {k: v for k, v in os.environ.items() if k not in {"DISCORD_TOKEN", "PYTHONPATH"}}
        env.update(PYTHONPATH=str(self.worktree), ANNALS_DB=str(self.db), PYTHONUNBUFFERED="1",
                   ANNALS_OUT=str(home), HOME=str(home))
        self._proc = subprocess.Popen(
            [str(PYTHON), "-m", "bot", "--console", "--demo"], cwd=home, env=env, text=True,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, bufsize=1)

    def say(self, line: str) -> list[str]:
        """Type ``line``; return what the console printed for it."""
        proc = self._proc
        if proc is None or proc.stdin is None or proc.stdout is None:
            raise ConsoleError("the console is not running")
        self._marks += 1
        token = f"zzmark{self._marks}"
        proc.stdin.write(f"{line}\n/{token}\n")
        proc.stdin.flush()
        self.transcript.append(f"> {line}")
        out: list[str] = []
        for text in _lines(proc.stdout):
            if token in text:
                return out
            self.transcript.append(text)
            out.append(text)
        raise ConsoleError(f"the console stopped after {line!r}: " + " | ".join(out[-5:]))

    def stop(self) -> None:
        """Close stdin (the console quits at the end of its input) and wait for the process."""
        proc = self._proc
        if proc is None:
            return
        if proc.stdin is not None:
            proc.stdin.close()
        try:
            proc.wait(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        self._proc = None


def _lines(stream: IO[str]) -> Iterator[str]:
    """The stream's lines without their newline, until it ends."""
    for raw in stream:
        yield raw.rstrip("\n")


def numbered(lines: Sequence[str]) -> list[tuple[int, str]]:
    """The numbered moves of an ``actions`` answer: (number, label)."""
    return [(int(m.group(1)), m.group(2)) for m in map(MOVE_LINE.match, lines) if m]


def game_id_of(lines: Sequence[str]) -> str:
    """The game id in the console's answer to ``create``: the tag of the game's line opening the lobby
    (``[ID] alice opened a lobby ...``, however each commit words the rest)."""
    for text in lines:
        found = re.match(r"\[([a-z0-9]+)\] .*\blobby\b", text)
        if found:
            return found.group(1)
    raise ConsoleError("no game id in the answer to create: " + " | ".join(lines))


def mover(con: OldConsole, people: Sequence[str], gid: str) -> tuple[str, list[tuple[int, str]]] | None:
    """The person who must move in ``gid`` now and their numbered moves, or None."""
    for person in people:
        con.say(f"/as {person} use {gid}")
        moves = numbered(con.say(f"/as {person} actions"))
        if moves:
            return person, moves
    return None


def play_game(con: OldConsole, spec: Game, has_undo: bool) -> str:
    """Play one scripted game through the console; return its id."""
    creator = spec.people[0]
    seats = len(spec.people) + spec.ais
    gid = game_id_of(con.say(f"/as {creator} create {spec.ruleset} seats={seats} seed={spec.seed}"))
    for person in spec.people[1:]:
        con.say(f"/as {person} join {gid}")
    for _ in range(spec.ais):
        con.say(f"/as {creator} add-ai random")
    started = con.say(f"/as {creator} start")
    if not any("begins" in text for text in started):
        raise ConsoleError(f"{spec.label}: the game did not start: " + " | ".join(started))
    last = creator
    for _ in range(spec.moves):
        found = mover(con, spec.people, gid)
        if found is None:
            raise ConsoleError(f"{spec.label}: nobody has a move in {gid}")
        last, moves = found
        con.say(f"/as {last} play {moves[0][0]}")
    if spec.undo and has_undo:
        con.say(f"/as {last} undo")
    if spec.finish:
        for person in spec.people:
            con.say(f"/as {person} use {gid}")
            con.say(f"/as {person} resign")
    return gid


def git(*args: str) -> str:
    """Run git in the repository; its stdout."""
    return subprocess.run(["git", *args], cwd=ROOT, check=True, text=True, capture_output=True).stdout


def schema_of(db: Path) -> int:
    """The database's PRAGMA user_version."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return int(conn.execute("PRAGMA user_version").fetchone()[0])
    finally:
        conn.close()


def build(entry: Commit, work: Path, out: Path = OUT) -> Path:
    """Make the fixture database of one commit in ``out``; returns its path."""
    short = git("rev-parse", "--short=7", entry.commit).strip()
    tree = work / f"wt-{short}"
    home = work / f"home-{short}"
    home.mkdir()
    db = home / "annals.sqlite3"
    git("worktree", "add", "--detach", str(tree), entry.commit)
    con = OldConsole(tree, db)
    try:
        # undo within a turn came with schema 5; earlier consoles answer 'undo' as unknown
        console = (tree / "bot" / "console.py").read_text(encoding="utf-8")
        has_undo = re.search(r"\bundo\b", console) is not None
        con.start(home)
        for spec in entry.games:
            gid = play_game(con, spec, has_undo)
            print(f"  {short}: {spec.label}: {gid}")
    except ConsoleError:
        print("\n".join(con.transcript[-40:]), file=sys.stderr)
        raise
    finally:
        con.stop()
        git("worktree", "remove", "--force", str(tree))
    if schema_of(db) != entry.schema:
        raise ConsoleError(f"{short} wrote schema {schema_of(db)}, expected {entry.schema}")
    target = out / f"v{entry.schema}_{short}.sqlite3"
    compact(db, target)
    (home / "transcript.txt").write_text("\n".join(con.transcript) + "\n", encoding="utf-8")
    return target


def compact(source: Path, target: Path) -> None:
    """Copy ``source`` to ``target`` as one small file: WAL folded in, rollback journal, vacuumed."""
    for stale in (target, target.with_name(target.name + "-wal"), target.with_name(target.name + "-shm")):
        stale.unlink(missing_ok=True)
    with sqlite3.connect(source) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    with sqlite3.connect(source) as src, sqlite3.connect(target) as dst:
        src.backup(dst)
    src.close()
    dst.close()
    conn = sqlite3.connect(target)
    conn.execute("PRAGMA journal_mode=DELETE")
    conn.execute("VACUUM")
    conn.close()


# -- the README, with today's code ----------------------------------------------------------------

@dataclass(frozen=True)
class GameFacts:
    """What the README says of one stored game."""

    game_id: str
    ruleset: str
    status: str
    seq: int
    to_move: str
    last_by: str
    replay: str
    undoable: str


def describe(db: Path) -> list[GameFacts]:
    """Each game of a fixture read straight from its tables, and today's replay verdict."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        rows = conn.execute("SELECT game_id, ruleset, options_json, seed, status, seq FROM games "
                            "ORDER BY created_at, game_id").fetchall()
        facts = []
        for game_id, ruleset, options_json, seed, status, seq in rows:
            seats = conn.execute("SELECT seat_order, display_name FROM seats WHERE game_id = ?",
                                 (game_id,)).fetchall()
            clocks = conn.execute("SELECT DISTINCT player FROM deadlines WHERE game_id = ? AND kind = 'turn' "
                                  "AND fired = 0 ORDER BY player", (game_id,)).fetchall()
            names = {order: name for order, name in seats}
            to_move = ", ".join(names.get(p, f"seat {p}") for (p,) in clocks) or "-"
            last = conn.execute("SELECT player, action_json FROM actions WHERE game_id = ? ORDER BY seq DESC "
                                "LIMIT 1", (game_id,)).fetchone()
            last_by = "-" if last is None else \
                f"{names.get(last[0], f'seat {last[0]}')} ({json.loads(last[1]).get('kind', '?')})"
            log = [json.loads(a) for (a,) in conn.execute(
                "SELECT action_json FROM actions WHERE game_id = ? ORDER BY seq", (game_id,))]
            snap = conn.execute("SELECT state_json FROM snapshots WHERE game_id = ?", (game_id,)).fetchone()
            state = None if snap is None else json.loads(snap[0])
            verdict = replay_verdict(ruleset, json.loads(options_json), int(seed), len(seats), log, state)
            undoable = "-" if status != "active" or state is None else \
                next_undoable(ruleset, state, [p for (p,) in clocks])
            facts.append(GameFacts(game_id, ruleset, status, int(seq), to_move, last_by, verdict, undoable))
        return facts
    finally:
        conn.close()


def replay_verdict(ruleset: str, options: dict[str, Any], seed: int, seated: int,
                   log: list[dict[str, Any]], snapshot: Any) -> str:
    """Today's replay of the log from the seed against the stored snapshot.

    One of: ``replays`` (the very JSON stored), ``replays (older JSON)`` (the state today's code
    reads from the snapshot, written in an older form), ``another state`` (today's rules reach a
    different board) or ``refused: <why>`` (today's rules reject a move of the log).
    """
    from engine.core import players_at_start, replay
    from engine.registry import get_game

    game = get_game(ruleset)
    try:
        state = replay(game, players_at_start(seated, log), options, seed, log)
    except Exception as exc:  # any refusal is the finding: say what it was
        message = getattr(exc, "message", None) or f"{type(exc).__name__}: {exc}"
        return "refused: " + " ".join(str(message).split())[:160]
    if json.loads(game.dumps(state)) == snapshot:
        return "replays"
    try:
        stored = game.dumps(game.from_json(snapshot))
    except Exception as exc:  # today's code cannot even read the old snapshot
        return f"another state (snapshot unreadable: {type(exc).__name__})"
    return "replays (older JSON)" if stored == game.dumps(state) else "another state"


def next_undoable(ruleset: str, snapshot: Any, players: Sequence[int]) -> str:
    """How many legal moves of the people to move today's rules would let them take back (on the
    stored snapshot): the upgrade test plays one of them."""
    from engine.registry import get_game

    game = get_game(ruleset)
    try:
        state = game.from_json(snapshot)
        count = 0
        for player in players:
            for action in game.legal_actions(state, player):
                count += game.undoable(state, action, game.apply(state, action))
    except Exception as exc:  # an old snapshot today's code cannot read: the finding, said plainly
        return f"snapshot unreadable ({type(exc).__name__})"
    return str(count)


COLUMNS = ("game", "ruleset", "status", "seq", "to move", "last entry by", "undoable moves now",
           "today's replay")


def readme(files: Sequence[tuple[Commit, Path]]) -> str:
    """The fixtures' README."""
    out = [
        "# Databases written by earlier commits",
        "",
        "Each file was written by the console of the commit it is named after",
        "(`v<schema>_<commit>.sqlite3`), by `tools/make_upgrade_fixtures.py`, which also wrote this page;",
        "`tests/store/test_upgrade.py` opens them with today's store. "
        "Do not edit them by hand: re-run the tool.",
        "",
        "\"Today's replay\" is `engine.core.replay` of the stored log from the seed under today's rules,",
        "compared with the stored snapshot: `replays` (the very JSON stored), `replays (older JSON)`",
        "(the state today's code reads from the snapshot, which was written in an older form),",
        "`another state` (today's rules reach a different board) or `refused` (today's rules reject a",
        "move, with the reason). \"Undoable moves now\": how many legal moves of the person to move",
        "today's rules would let them take back (the upgrade test plays one). \"Last entry by\": the",
        "seat and kind of the newest log entry (the same person as \"to move\": a game caught mid-turn).",
        "",
    ]
    sections: list[str] = []
    broken: dict[str, int] = {}
    total = 0
    for entry, path in files:
        subject = git("log", "-1", "--format=%h %ad %s", "--date=short", entry.commit).strip()
        sections += [f"## {path.name}", "", f"Commit {subject[:110]}", "",
                     f"Schema version {schema_of(path)}: {entry.why}. {path.stat().st_size // 1024} KiB.",
                     "", "| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
        for fact in describe(path):
            total += 1
            if not fact.replay.startswith("replays"):
                broken[path.name] = broken.get(path.name, 0) + 1
            cells = (fact.game_id, fact.ruleset, fact.status, str(fact.seq), fact.to_move, fact.last_by,
                     fact.undoable, fact.replay.replace("|", "/"))
            sections.append("| " + " | ".join(cells) + " |")
        sections.append("")
    where = "; ".join(f"{name}: {count}" for name, count in broken.items())
    same = ", ".join(path.name for _, path in files if path.name not in broken)
    out += [f"Of the {total} games, {sum(broken.values())} do not replay under today's rules:",
            f"{where}." + (f" Every game of {same} replays: for the moves they hold, those commits'"
                           " rules are today's." if same else ""),
            "The games were played by typing each commit's console commands: the people to move chose",
            "the first move their `actions` list offered; \"over\" games were played to the end by random AI",
            "seats after their person resigned.", "", *sections]
    return "\n".join(out)


def main(argv: Sequence[str] | None = None) -> int:
    """Build the fixtures (all commits, or those named) and rewrite the README."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("commits", nargs="*", help="only these commits of the list (short hashes)")
    parser.add_argument("--readme-only", action="store_true", help="only rewrite the README")
    parser.add_argument("--keep", action="store_true", help="keep the work folder (transcripts)")
    parser.add_argument("--out", type=Path, default=OUT,
                        help=f"where to write (default {OUT.relative_to(ROOT)})")
    args = parser.parse_args(argv)
    out: Path = args.out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    chosen = [c for c in COMMITS if not args.commits or any(c.commit.startswith(x) for x in args.commits)]
    if not args.readme_only:
        work = Path(tempfile.mkdtemp(prefix="annals-fixtures-"))
        try:
            for entry in chosen:
                print(f"{entry.commit}: schema {entry.schema}")
                print(f"  wrote {build(entry, work, out)}")
        finally:
            git("worktree", "prune")
            if args.keep:
                print(f"work folder kept: {work}")
            else:
                shutil.rmtree(work, ignore_errors=True)
    files = [(c, out / f"v{c.schema}_{git('rev-parse', '--short=7', c.commit).strip()}.sqlite3")
             for c in COMMITS]
    (out / "README.md").write_text(readme([(c, p) for c, p in files if p.exists()]), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
