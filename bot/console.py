"""The bot's commands in a terminal: the no-token default, and a way to try Annals alone.

Several people share one terminal: ``/as alice create history-classic`` acts as
alice, and lines without a leading ``/`` act as the last person named. Public
messages print as ``[GAME] ...``; private ones as ``[to alice] ...``. Board
pictures are written to files and their paths printed. The console is a
transport like the Discord adapter: it turns lines into
:class:`~bot.service.GameService` calls and prints the notices the service
publishes (also those of deadlines fired by the scheduler while nobody typed).

Commands (as a person; GAME defaults to that person's current game)::

    create [RULESET] [seats=N] [move=24h] [remind=12h,1h] [policy=ai|skip] [misses=N] [seed=N] [option=NAME]
    join GAME | leave | add-ai [POLICY] | kick NAME | start | use GAME | games
    play N | play WORDS         (N from the 'actions' list; WORDS like 'expand Levant', 'keep')
    actions | status [GAME] | board | text | hand
    vacation DAYS | resign | reclaim | pause | resume | abandon | reminders all|last|none
    timers [move=..] [remind=..] [policy=..] [misses=..]

and for the console itself: ``/as NAME [COMMAND]``, ``/time +2h`` (only with a
settable clock: ``python -m bot --demo``), ``/backup``, ``/help``, ``/quit``.
"""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import hashlib
import importlib
import json
import logging
import os
import shlex
import threading
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, Protocol, TextIO

from bot.backup import BackupError, BackupManager
from bot.clock import Clock, to_datetime
from bot.config import parse_duration
from bot.models import Notice, Outcome, ReminderPreference, TimerSettings
from bot.scheduler import Scheduler
from bot.service import DEFAULT_COLOURS, GameService, ServiceError
from engine.core import Event
from engine.registry import game_ids, get_game

log = logging.getLogger(__name__)
HELP = """\
/as NAME [COMMAND]   act as NAME (lines without a leading / act as the last person named)
Commands (GAME defaults to your current game):
  create [RULESET] [seats=N] [move=24h] [remind=12h,1h] [policy=ai|skip] [misses=N] [seed=N] [option=NAME]
  join GAME      leave      add-ai [POLICY]      kick NAME      start      use GAME      games
  actions        your legal moves, numbered
  play N         play move N of that list; or play WORDS: play keep, play expand Levant
  status [GAME]  seats, whose move, deadlines, timers, scores
  text           the board as text          board   the board as a picture (a PNG file)
  hand           your cards (only you see them)
  vacation DAYS  move your deadline DAYS later, or book DAYS away ahead (capped per game)
  resign | reclaim | pause | resume | abandon | reminders all|last|none
  timers [move=..] [remind=..] [policy=..] [misses=..]
Console: /time +2h (with --demo: move the clock, deadlines fire)   /backup   /help   /quit"""


class SettableClock(Clock, Protocol):
    """A clock the console's ``/time`` can move forward."""

    def advance(self, seconds: float) -> float:
        """Move forward by ``seconds``; returns the new time."""
        ...


class LineSource(Protocol):
    """Where the console's lines come from."""

    async def next_line(self) -> str | None:
        """The next line without its newline, or None at end of input."""
        ...


class LinesFrom:
    """A :class:`LineSource` over a list of lines (tests and scripts)."""

    def __init__(self, lines: Sequence[str]) -> None:
        self._lines = list(lines)

    async def next_line(self) -> str | None:
        return self._lines.pop(0) if self._lines else None


class StdinLines:
    """A :class:`LineSource` reading file descriptor 0 in a daemon thread.

    Reading the raw descriptor (not ``sys.stdin``) keeps the thread off Python's
    buffered-stream locks, so a process stopped while the thread waits for input
    exits cleanly; pipes, files and terminals all work.
    """

    def __init__(self, fd: int = 0) -> None:
        self._fd = fd
        self._queue: asyncio.Queue[str | None] = asyncio.Queue()
        self._loop = asyncio.get_running_loop()
        threading.Thread(target=self._pump, name="annals-stdin", daemon=True).start()

    def _pump(self) -> None:
        decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        pending = ""
        try:
            while True:
                chunk = os.read(self._fd, 65536)
                if not chunk:
                    break
                pending += decoder.decode(chunk)
                *lines, pending = pending.split("\n")
                for line in lines:
                    self._put(line.rstrip("\r"))
            pending += decoder.decode(b"", final=True)
            if pending:
                self._put(pending)
        except OSError:
            pass
        finally:
            self._put(None)

    def _put(self, line: str | None) -> None:
        with contextlib.suppress(RuntimeError):  # the loop is closed: we are exiting anyway
            self._loop.call_soon_threadsafe(self._queue.put_nowait, line)

    async def next_line(self) -> str | None:
        return await self._queue.get()


def user_id_for(name: str) -> int:
    """A stable user id for a console name (the same across runs, so games survive restarts)."""
    digest = hashlib.sha256(f"annals-console:{name.lower()}".encode()).digest()
    return 1_000_000 + int.from_bytes(digest[:6], "big")


class Console:
    """The terminal transport.

    Args:
        service: the game service.
        out: where messages go.
        scheduler: fires deadlines after ``/time`` (optional).
        clock: a settable clock for ``/time``, or None when time passes really.
        out_dir: where board pictures are written.
        backups: makes ``/backup`` work (optional).
        is_admin: every console user counts as a server admin (may manage any game);
            off by default, so the console checks permissions like Discord does.
    """

    def __init__(self, service: GameService, out: TextIO, *, scheduler: Scheduler | None = None,
                 clock: SettableClock | None = None, out_dir: Path | str = ".",
                 backups: BackupManager | None = None, is_admin: bool = False) -> None:
        self.service = service
        self.out = out
        self.scheduler = scheduler
        self.clock = clock
        self.out_dir = Path(out_dir)
        self.backups = backups
        self.is_admin = is_admin
        self.user: str | None = None
        self._names: dict[int, str] = {}
        self._current: dict[str, str] = {}
        self._acting: tuple[int, str] | None = None  # (user, game) of the move being submitted
        service.subscribe(self._on_outcome)

    # == the loop ========================================================================
    async def run(self, source: LineSource, stop: asyncio.Event | None = None) -> int:
        """Execute lines until ``/quit``, end of input or ``stop``; returns the exit status (0)."""
        self.say("Annals console. Type /help for the commands, /quit to leave.")
        stop = stop or asyncio.Event()
        stopper = asyncio.ensure_future(stop.wait())
        try:
            while not stop.is_set():
                reader = asyncio.ensure_future(source.next_line())
                await asyncio.wait({reader, stopper}, return_when=asyncio.FIRST_COMPLETED)
                if not reader.done():
                    reader.cancel()
                    break
                line = reader.result()
                if line is None or not await self.execute(line):
                    break
        finally:
            stopper.cancel()
        return 0

    async def execute(self, line: str) -> bool:
        """Run one line; False when it asks to quit."""
        line = line.strip()
        if not line or line.startswith("#"):
            return True
        try:
            words = shlex.split(line)
        except ValueError as exc:
            self.say(f"Cannot read that line: {exc}.")
            return True
        if not words:
            return True
        head = words[0].lower()
        try:
            if head in ("/quit", "/exit"):
                return False
            if head in ("/help", "help", "/?"):
                self.say(HELP)
            elif head == "/as":
                if len(words) < 2:
                    self.say("Usage: /as NAME [COMMAND ...]")
                    return True
                self.user = words[1]
                self._names[user_id_for(words[1])] = words[1]
                if len(words) > 2:
                    await self.command(words[1], words[2:])
            elif head == "/time":
                await self.advance(words[1:])
            elif head == "/backup":
                await self.backup()
            elif head.startswith("/"):
                self.say(f"Unknown console command {words[0]}; type /help.")
            elif self.user is None:
                self.say("Say who you are first: /as NAME (for example /as alice create history-classic).")
            else:
                await self.command(self.user, words)
        except ServiceError as exc:
            self.say(f"[{self.user}] {exc.message}")
        except ValueError as exc:  # e.g. seats=many
            self.say(f"[{self.user}] Cannot read that: {exc}.")
        except Exception as exc:  # a console survives a bug in one command; the log has the details
            log.exception("console command failed: %s", line)
            self.say(f"[{self.user}] Something went wrong ({type(exc).__name__}); nothing more was done.")
        return True

    # == console commands ================================================================
    async def advance(self, args: Sequence[str]) -> None:
        """``/time +2h``: move a settable clock forward and fire what became due."""
        if self.clock is None:
            self.say("The clock is real here: time passes by itself. (Start with --demo for a clock "
                     "that /time can move.)")
            return
        if len(args) != 1:
            self.say("Usage: /time +DURATION (for example /time +2h, /time +1d, /time +30m)")
            return
        try:
            seconds = parse_duration(args[0])
        except ValueError as exc:
            self.say(str(exc))
            return
        self.clock.advance(seconds)
        self.say(f"[clock] it is now {when(self.clock.now())}")
        if self.scheduler is not None:
            await self.scheduler.run_due()

    async def backup(self) -> None:
        """``/backup``: an online backup now."""
        if self.backups is None:
            self.say("Backups are not configured here.")
            return
        try:
            path = await self.backups.backup_now()
        except BackupError as exc:
            self.say(f"Backup failed: {exc}")
            return
        self.say(f"[backup] written to {path}")

    # == a person's commands =============================================================
    async def command(self, name: str, words: Sequence[str]) -> None:
        """Run ``words`` (a command and its arguments) as the person ``name``."""
        verb, args = words[0].lower(), list(words[1:])
        handler = self._handlers().get(verb)
        if handler is None:
            self.say(f"[{name}] Unknown command {verb!r}; type /help.")
            return
        await handler(name, user_id_for(name), args)

    def _handlers(self) -> dict[str, Callable[[str, int, list[str]], Awaitable[None]]]:
        return {
            "create": self._create, "new": self._create, "join": self._join, "leave": self._leave,
            "add-ai": self._add_ai, "addai": self._add_ai, "kick": self._kick, "start": self._start,
            "use": self._use, "games": self._games, "play": self._play, "actions": self._actions,
            "status": self._status, "board": self._board, "text": self._text, "hand": self._hand,
            "vacation": self._vacation, "resign": self._resign, "reclaim": self._reclaim,
            "pause": self._pause, "resume": self._resume, "abandon": self._abandon,
            "reminders": self._reminders, "timers": self._timers,
        }

    async def _create(self, name: str, uid: int, args: list[str]) -> None:
        ruleset = "history-classic"
        if args and "=" not in args[0]:
            ruleset = args.pop(0)
        if ruleset not in game_ids():
            self.say(f"[{name}] Unknown game {ruleset!r}; known: {', '.join(game_ids())}.")
            return
        opts = _key_values(args)
        seats = int(opts.pop("seats")) if "seats" in opts else None
        seed = int(opts.pop("seed")) if "seed" in opts else None
        options = {o: True for o in opts.pop("option", "").split(",") if o}
        timers = _timers(TimerSettings(), opts)
        if opts:
            self.say(f"[{name}] Unknown settings: {', '.join(opts)}.")
            return
        out = await self.service.create_lobby(uid, name, ruleset, options=options, max_seats=seats,
                                              timers=timers, seed=seed)
        self._current[name] = out.game_id

    async def _join(self, name: str, uid: int, args: list[str]) -> None:
        if len(args) != 1:
            self.say(f"[{name}] Usage: join GAME")
            return
        await self.service.join(args[0], uid, name)
        self._current[name] = args[0]

    async def _leave(self, name: str, uid: int, args: list[str]) -> None:
        await self.service.leave(await self._game(name, uid, args), uid)

    async def _add_ai(self, name: str, uid: int, args: list[str]) -> None:
        await self.service.add_ai(await self._game(name, uid, []), uid, is_admin=self.is_admin,
                                  policy=args[0] if args else None)

    async def _kick(self, name: str, uid: int, args: list[str]) -> None:
        if len(args) != 1:
            self.say(f"[{name}] Usage: kick NAME")
            return
        gid = await self._game(name, uid, [])
        await self.service.kick(gid, uid, user_id_for(args[0]), is_admin=self.is_admin)

    async def _start(self, name: str, uid: int, args: list[str]) -> None:
        await self.service.start(await self._game(name, uid, args), uid, is_admin=self.is_admin)

    async def _use(self, name: str, uid: int, args: list[str]) -> None:
        if len(args) != 1:
            self.say(f"[{name}] Usage: use GAME")
            return
        status = await self.service.status(args[0])
        self._current[name] = status.game_id
        self.say(f"[{name}] now playing in {status.game_id} ({status.title}, {status.status}).")

    async def _games(self, name: str, uid: int, args: list[str]) -> None:
        found = await self.service.store.games_of_user(uid)
        if not found:
            self.say(f"[{name}] You have no games; create one with: create history-classic")
            return
        for gid in found:
            status = await self.service.status(gid)
            mark = " (current)" if self._current.get(name) == gid else ""
            self.say(f"[{name}] {gid}: {status.title}, {status.status}, seq {status.seq}{mark}")

    async def _play(self, name: str, uid: int, args: list[str]) -> None:
        gid = await self._game(name, uid, [])
        if not args:
            self.say(f"[{name}] Usage: play N (from 'actions') or play WORDS (like 'expand Levant')")
            return
        seq, legal = await self.service.legal_actions(gid, uid)
        if not legal:
            status = await self.service.status(gid)
            why = f"waiting for {self._who(status.waiting_for)}" if status.waiting_for else status.status
            self.say(f"[{name}] You have nothing to do in {gid} now ({why}).")
            return
        labels = await self._labels(gid, legal)
        choice = _match(" ".join(args), legal, labels)
        if choice is None:
            self.say(f"[{name}] That is not one of your moves; type 'actions' to list them.")
            return
        self._acting = (uid, gid)
        try:
            await self.service.submit(gid, uid, legal[choice], seq)
        finally:
            self._acting = None

    async def _actions(self, name: str, uid: int, args: list[str]) -> None:
        gid = await self._game(name, uid, args)
        _, legal = await self.service.legal_actions(gid, uid)
        if not legal:
            self.say(f"[{name}] You have nothing to do in {gid} now.")
            return
        labels = await self._labels(gid, legal)
        self.say(f"[{name}] Your moves in {gid} (play N):")
        for i, label in enumerate(labels, 1):
            self.say(f"  {i}. {label}")

    async def _status(self, name: str, uid: int, args: list[str]) -> None:
        gid = await self._game(name, uid, args)
        status = await self.service.status(gid)
        self.say(f"[{name}] {gid}: {status.title} - {status.status}, seq {status.seq}")
        for seat in status.seats:
            who = "AI" if seat.is_ai and seat.user_id is None else (
                "AI for now" if seat.is_ai else ("you" if seat.user_id == uid else ""))
            order = f"{seat.seat + 1}." if seat.seat is not None else "-"
            extra = ", ".join(x for x in (seat.colour, who) if x)
            self.say(f"  {order} {seat.name}" + (f" ({extra})" if extra else ""))
        if status.status == "lobby":
            self.say(f"  {len(status.seats)} of {status.max_seats} seats taken (at least {status.min_seats} "
                     "to start).")
        turn = {d.user_id: d.due_at for d in status.deadlines if d.kind == "turn"}
        if status.waiting_for:
            self.say("  Waiting for: " + ", ".join(
                self._name(u) + (f" (due {when(turn[u], self._now())})" if u in turn else "")
                for u in status.waiting_for))
        t = status.timers
        self.say(f"  Timers: {_span(t.move_seconds)} per move, reminders "
                 f"{', '.join(_span(r) + ' before' for r in t.reminder_offsets) or 'none'}, "
                 f"on timeout: {'the AI plays' if t.timeout_policy == 'ai' else 'the turn is skipped'}, "
                 f"the AI takes over after {t.misses_before_ai or 'no number of'} missed deadlines")
        if status.status in ("active", "paused", "over") and _is_history(status.ruleset):
            from engine.history.text import render_status

            view = await self.service.view(gid, uid)
            for line in render_status(view, _rules(status.ruleset)).splitlines():
                self.say("  " + line)

    async def _board(self, name: str, uid: int, args: list[str]) -> None:
        gid = await self._game(name, uid, args)
        view = await self.service.view(gid, uid)
        try:  # imported late: the console starts without Pillow and matplotlib loaded
            boards = importlib.import_module("render.boards")
            render_png: Callable[..., bytes] = boards.renderer(str(view.get("game", "")))
        except (ImportError, ValueError) as exc:
            self.say(f"[{name}] Board pictures are not available for this game ({exc}); "
                     "type 'text' for the board as text.")
            return
        png = await asyncio.to_thread(render_png, view)
        self.out_dir.mkdir(parents=True, exist_ok=True)
        path = self.out_dir / f"annals-{gid}-{view.get('seq', 0)}-{_safe(name)}.png"
        await asyncio.to_thread(path.write_bytes, png)
        self.say(f"[to {name}] board of {gid} written to {path}")

    async def _text(self, name: str, uid: int, args: list[str]) -> None:
        gid = await self._game(name, uid, args)
        status = await self.service.status(gid)
        view = await self.service.view(gid, uid)
        if _is_history(status.ruleset):
            from engine.history.text import render_board

            text = render_board(view, _rules(status.ruleset))
        else:
            text = json.dumps(view.get("board", view), indent=1, sort_keys=True)
        self.say(f"[{name}] board of {gid}:")
        for line in text.splitlines():
            self.say("  " + line)

    async def _hand(self, name: str, uid: int, args: list[str]) -> None:
        gid = await self._game(name, uid, args)
        status = await self.service.status(gid)
        view = await self.service.view(gid, uid)
        you = view.get("you")
        if not you:
            self.say(f"[{name}] You have no seat (or no hand) in {gid}.")
            return
        if not _is_history(status.ruleset):
            self.say(f"[to {name}] {json.dumps(you, sort_keys=True)}")
            return
        rules = _rules(status.ruleset)
        cards = [rules.cards[c] for c in you.get("hand", [])]
        self.say(f"[to {name}] Your hand in {gid}: " + (", ".join(c.name for c in cards) or "no cards"))
        for card in cards:
            self.say(f"[to {name}]   {card.name}: {card.text}")
        if you.get("drawn"):
            self.say(f"[to {name}] You drew: {rules.empires[you['drawn']].name}")
        if you.get("empire"):
            self.say(f"[to {name}] Your empire: {rules.empires[you['empire']].name}")

    async def _vacation(self, name: str, uid: int, args: list[str]) -> None:
        if len(args) not in (1, 2) or not args[0].isdigit():
            self.say(f"[{name}] Usage: vacation DAYS")
            return
        await self.service.vacation(await self._game(name, uid, args[1:]), uid, int(args[0]))

    async def _resign(self, name: str, uid: int, args: list[str]) -> None:
        await self.service.resign(await self._game(name, uid, args), uid)

    async def _reclaim(self, name: str, uid: int, args: list[str]) -> None:
        await self.service.reclaim(await self._game(name, uid, args), uid)

    async def _pause(self, name: str, uid: int, args: list[str]) -> None:
        await self.service.pause(await self._game(name, uid, args), uid, is_admin=self.is_admin)

    async def _resume(self, name: str, uid: int, args: list[str]) -> None:
        await self.service.resume(await self._game(name, uid, args), uid, is_admin=self.is_admin)

    async def _abandon(self, name: str, uid: int, args: list[str]) -> None:
        await self.service.abandon(await self._game(name, uid, args), uid, is_admin=self.is_admin)

    async def _reminders(self, name: str, uid: int, args: list[str]) -> None:
        if len(args) != 1 or args[0] not in ("all", "last", "none"):
            self.say(f"[{name}] Usage: reminders all|last|none")
            return
        settings = await self.service.user_settings(uid)
        choice: ReminderPreference = "all" if args[0] == "all" else "last" if args[0] == "last" else "none"
        await self.service.set_user_settings(replace(settings, reminders=choice))
        self.say(f"[{name}] Reminders: {args[0]} (from your next clock on).")

    async def _timers(self, name: str, uid: int, args: list[str]) -> None:
        gid = await self._game(name, uid, [])
        status = await self.service.status(gid)
        opts = _key_values(args)
        timers = _timers(status.timers, opts)
        if opts or not args:
            self.say(f"[{name}] Usage: timers [move=24h] [remind=12h,1h] [policy=ai|skip] [misses=3]")
            return
        await self.service.set_timers(gid, uid, timers, is_admin=self.is_admin)
        self.say(f"[{name}] Timers of {gid} changed.")

    # == helpers =========================================================================
    async def _game(self, name: str, uid: int, args: Sequence[str]) -> str:
        """The game a command is about: the argument, else the person's current game."""
        if args:
            gid = (await self.service.status(args[0])).game_id  # refuses an unknown game
            self._current[name] = gid
            return gid
        current = self._current.get(name)
        if current is not None:
            return current
        live: list[tuple[int, str]] = []
        for gid in await self.service.store.games_of_user(uid):
            row = await self.service.store.get_game(gid)
            if row is not None and row.status in ("lobby", "active", "paused"):
                live.append((row.updated_at, gid))
        if not live:
            raise ServiceError("no_such_game", "You are in no running game; create one or join one first.")
        gid = max(live)[1]
        self._current[name] = gid
        return gid

    async def _labels(self, gid: str, legal: list[dict[str, Any]]) -> list[str]:
        status = await self.service.status(gid)
        game = get_game(status.ruleset)
        actions = [game.codec.decode(a) for a in legal]
        _, state = await self.service.engine_state(gid)  # only for labels (battle odds are public)
        return [game.action_label(state, a) for a in actions]

    def _now(self) -> float:
        return self.service.clock.now()

    def _name(self, user_id: int | None) -> str:
        if user_id is None:
            return "nobody"
        return self._names.get(user_id, f"user {user_id}")

    def _who(self, users: Sequence[int]) -> str:
        return ", ".join(self._name(u) for u in users)

    def say(self, text: str) -> None:
        """Print one message (flushed at once, so pipes see it)."""
        self.out.write(text + "\n")
        self.out.flush()

    # == notices =========================================================================
    def _on_outcome(self, outcome: Outcome) -> None:
        for notice in outcome.notices:
            self._learn(notice)
            text = self.describe(notice, outcome.status.ruleset)
            if text is None:
                continue
            if notice.is_public:
                self.say(f"[{notice.game_id}] {text}")
                continue
            for user in notice.audience:
                if notice.type == "your_turn" and self._acting == (user, notice.game_id):
                    continue  # still their move after their own move: they know
                self.say(f"[to {self._name(int(user))}] {text}")

    def _learn(self, notice: Notice) -> None:
        if notice.type == "game_started":
            for seat in notice.data.get("seats", []):
                if seat.get("user_id") is not None and seat["user_id"] not in self._names:
                    self._names[seat["user_id"]] = seat["name"]

    def describe(self, notice: Notice, ruleset: str) -> str | None:
        """One line for a notice of a ``ruleset`` game (None for engine events not worth a line)."""
        d: Mapping[str, Any] = notice.data
        t = notice.type
        gid = notice.game_id
        now = self._now()
        texts: dict[str, Callable[[], str]] = {
            "lobby_opened": lambda: f"{self._name(d.get('creator'))} opened a lobby for {d['title']}: "
                                    f"join with 'join {gid}'.",
            "player_joined": lambda: f"{d['name']} joined.",
            "player_left": lambda: f"{d['name']} left.",
            "seat_added": lambda: f"{d['name']} takes a seat" + (" (AI)." if d.get("ai") else "."),
            "game_started": lambda: "The game begins. Seat order: " + ", ".join(
                f"{s['seat'] + 1}. {s['name']} ({_colour(ruleset, s['seat'])}{', AI' if s.get('ai') else ''})"
                for s in d["seats"]),
            "your_turn": lambda: f"Your move in {gid} (due {when(d['due_at'], now)}); type 'actions'.",
            "reminder": lambda: f"Reminder: your move in {gid} is due "
                                f"{when(d['due_at'], now) if d.get('due_at') else 'soon'}.",
            "timeout": lambda: f"{d['name']} missed the deadline ({d['missed']} in a row): "
                               + ("the AI played the turn." if d.get("policy") == "ai" else
                                  "the turn was skipped."),
            "autopilot": lambda: f"{d['name']} missed too many deadlines in a row: the AI plays that seat "
                                 "for good from now on (the player may take it back with 'reclaim').",
            "vacation": lambda: f"{d['name']} is away for {d['days']} day{'s' if d['days'] != 1 else ''}: "
                                + (f"the deadline moves to {when(d['due_at'], now)} " if d.get("due_at")
                                   else f"no clock of theirs starts before {when(d['away_until'], now)} ")
                                + f"({d['used']} of {d['cap']} vacation days used).",
            "seat_replaced": lambda: (f"{d.get('name')} takes over seat {int(d['seat']) + 1}."
                                      if d.get("user_id") else
                                      f"The AI takes over seat {int(d['seat']) + 1} ({d.get('reason')})."),
            "seat_reclaimed": lambda: f"{d['name']} takes their seat back from the AI.",
            "resigned": lambda: f"{self._name(d.get('old_user_id'))} resigned; the AI plays seat "
                                f"{int(d['seat']) + 1} to the end.",
            "paused": lambda: f"The game is paused by {self._name(d.get('by'))}; clocks are stopped.",
            "resumed": lambda: f"The game resumes (by {self._name(d.get('by'))}); clocks start afresh.",
            "abandoned": lambda: f"The game was abandoned by {self._name(d.get('by'))}.",
            "game_over": lambda: _final(d),
        }
        if t == "game_over" and "names" not in d:
            return None  # the engine's own event; the service's game_over notice follows with names
        make = texts.get(t)
        if make is not None:
            return make()
        try:
            return get_game(ruleset).describe_event(Event(t, d))
        except (KeyError, TypeError, IndexError, ValueError):
            return f"{t.replace('_', ' ')}: {_words(d)}"


# == small helpers =========================================================================
def when(timestamp: float, now: float | None = None) -> str:
    """``2024-01-02 00:00 UTC`` plus, given ``now``, how far away (``in 23h 59m``)."""
    text = to_datetime(timestamp).strftime("%Y-%m-%d %H:%M UTC")
    if now is None:
        return text
    delta = int(timestamp - now)
    return f"{text}, {'in ' + _span(delta) if delta >= 0 else _span(-delta) + ' ago'}"


def _span(seconds: int) -> str:
    if seconds < 60:
        return f"{seconds}s"
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60
    parts = [f"{days}d" if days else "", f"{hours}h" if hours else "", f"{minutes}m" if minutes else ""]
    return " ".join(p for p in parts if p)


def _final(d: Mapping[str, Any]) -> str:
    scores, names = list(d.get("scores", [])), list(d.get("names", []))
    ranking = list(d.get("ranking", []))
    label = [names[i] if i < len(names) else f"seat {i + 1}" for i in range(len(scores))]
    order = [i for i in ranking if 0 <= i < len(scores)]
    order = order or sorted(range(len(scores)), key=lambda i: -scores[i])
    line = "Game over. Final scores: " + ", ".join(f"{label[i]} {scores[i]}" for i in order)
    return line + (f". Winner: {label[order[0]]}." if order else ".")


def _words(data: Mapping[str, Any]) -> str:
    return " ".join(str(v) for k, v in data.items() if k != "player")


def _match(text: str, legal: list[dict[str, Any]], labels: list[str]) -> int | None:
    """The index of the legal action ``text`` names: its number, its words, or a unique label prefix."""
    text = " ".join(text.lower().split())
    if text.isdigit():
        index = int(text) - 1
        return index if 0 <= index < len(legal) else None
    for i, data in enumerate(legal):
        values = [str(v).lower() for k, v in data.items() if k not in ("kind", "player")]
        full = " ".join([str(data["kind"]).lower(), *values])
        if text == full or (values and text == f"{str(data['kind']).lower()} {values[0]}") or (
                not values and text == str(data["kind"]).lower()):
            return i
    hits = [i for i, label in enumerate(labels) if label.lower() == text]
    if not hits:
        hits = [i for i, label in enumerate(labels) if label.lower().startswith(text)]
    return hits[0] if len(hits) == 1 else None


def _key_values(args: Sequence[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for arg in args:
        key, sep, value = arg.partition("=")
        if not sep:
            raise ServiceError("bad_options", f"Settings are written key=value, not {arg!r}.")
        out[key.strip().lower()] = value.strip()
    return out


def _timers(base: TimerSettings, opts: dict[str, str]) -> TimerSettings:
    """``base`` changed by ``move=``, ``remind=``, ``policy=`` and ``misses=`` (removed from ``opts``)."""
    try:
        if "move" in opts:
            base = replace(base, move_seconds=parse_duration(opts.pop("move")))
        if "remind" in opts:
            text = opts.pop("remind")
            offsets = () if text.lower() in ("", "none", "off") else tuple(
                parse_duration(x) for x in text.split(",") if x.strip())
            base = replace(base, reminder_offsets=offsets)
        if "misses" in opts:
            base = replace(base, misses_before_ai=int(opts.pop("misses")))
    except ValueError as exc:
        raise ServiceError("bad_timers", str(exc)) from exc
    if "policy" in opts:
        policy = opts.pop("policy")
        if policy not in ("ai", "skip"):
            raise ServiceError("bad_timers", "The timeout policy is 'ai' or 'skip'.")
        base = replace(base, timeout_policy="ai" if policy == "ai" else "skip")
    problems = base.problems()
    if problems:
        raise ServiceError("bad_timers", " ".join(problems))
    return base


def _colour(ruleset: str, seat: int) -> str:
    colours: Sequence[str] = getattr(get_game(ruleset), "colours", DEFAULT_COLOURS)
    return colours[seat % len(colours)]


def _is_history(ruleset: str) -> bool:
    """Whether the classic rules' text views (status, board as text, hand) apply."""
    return ruleset == "history-classic"


def _rules(ruleset: str) -> Any:
    return getattr(get_game(ruleset), "rules", None)


def _safe(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_" else "_" for c in name)[:32] or "player"
