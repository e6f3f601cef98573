"""The bot's commands in a terminal: the no-token default, and a way to try Annals alone.

Several people share one terminal: ``/as alice create`` acts as alice, and
lines without a leading ``/`` act as the last person named. Public messages
print as ``[GAME] ...``; private ones as ``[to alice (Blue)] ...``. After every
move, the player whose decision it is sees it at once: its heading and
numbered choices, so a decision is one command (``play 2``, ``2``, or the
words of its label); a choice that asks a question first waits for ``yes``.
Every game is read through its own text hooks (``status_text``, ``hand_text``,
``board_text``, ``summary_text``); board pictures are written to ``ANNALS_OUT``
(default ``./annals-out/``) and their paths printed. The console is a
transport like the Discord adapter: it turns lines into
:class:`~bot.service.GameService` calls and prints the notices the service
publishes (also those of deadlines fired by the scheduler while nobody typed),
worded by :func:`bot.notices.describe_notice`.

Commands (as a person; GAME defaults to that person's current game)::

    create [GAME] [seats=N] [move=24h] [remind=12h,1h] [policy=ai|skip] [misses=N] [preset=P] [option=A,B]
           [NAME=VALUE]
    join [GAME] | leave | add-ai [POLICY] | kick NAME | start | use GAME | games
    play N | N | play WORDS     (N from the decision shown; WORDS: the start of a choice's label or
                                 some of its words; words that fit several choices list them)
    undo                        (take back your last move while nothing new is known)
    actions | status [GAME] | board [N] | timelapse | text | hand | scores | log [N] | rules | land NAME
    card WHAT                   (a card by its number or a name on it, as far as you may see it)
    vacation DAYS | resign | reclaim | pause | resume | abandon | reminders all|last|none|next on|off
    timers [move=..] [remind=..] [policy=..] [misses=..] | prefs [KEY=VALUE]
    orders [N | N.M | WORDS]    (your standing orders, in games that have them: moves made at any time,
                                 seen by you alone; N opens a group of them, N.M or WORDS sends one)

and for the console itself: ``/as NAME [COMMAND]``, ``/time +2h`` (only with a
settable clock: ``python -m bot --demo``), ``/backup``, ``/help``, ``/quit``.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Protocol, TextIO

from bot import lookups
from bot.backup import BackupError, BackupManager
from bot.clock import Clock, to_datetime
from bot.config import DEFAULT_OUT, parse_duration
from bot.digest import LATEST, NOTICE_SIZE, draw_timelapse, latest_turn, pictures_of
from bot.lines import LineSource
from bot.models import GameStatus, NoticeKind, Outcome, ReminderPreference, TimerSettings
from bot.notices import describe_notice, game_ended
from bot.order_lists import listing, pick
from bot.read_input import key_values, options_from, shortened, split_words, timers_from, whole
from bot.scheduler import Scheduler
from bot.service import GameService, ServiceError
from bot.service.text_input import MAX_LINE, checked_game_id, checked_name, checked_text
from engine import registry
from engine.choice_words import matching_choices
from engine.core import Choice, Decision
from engine.registry import game_ids
from engine.spec import OptionValue

log = logging.getLogger(__name__)
HELP = """\
/as NAME [COMMAND]   act as NAME (lines without a leading / act as the last person named)
Commands (GAME defaults to your current game):
  create [GAME] [seats=N] [move=24h] [remind=12h,1h] [policy=ai|skip] [misses=N] [preset=P] [option=A,B]
         [NAME=VALUE]
                 GAME is one of the games 'games' lists; preset=P takes a set of the game's options
                 ('rules' lists them), option=A,B switches options on, NAME=VALUE sets one (a number,
                 a word, on or off)
  join [GAME]    (a lobby: the only open one if none is named; or a running game whose rules take newcomers)
  leave          add-ai [POLICY]      kick NAME (a person, or an AI seat of a lobby)
  start          use GAME   games
  play N         play choice N of your decision (or just N); play WORDS: the start of its label or
                 some of its words in order (when they fit several choices, those are listed)
  undo           take back your last move (until a roll, a draw, a reveal or another player's move)
  actions        your decision again, numbered
  status [GAME]  seats, whose move, deadlines, timers, and the game's own status (scores, stage)
  text           the board in words          board [N]   the board as a picture (a PNG file), or
                 as you saw it after move N          timelapse   the whole game, stage by stage (WebP)
  hand           what only you see (cards, a secret bid)
  scores         the scores (and at the end what they are made of)     log [N]   the last N events
  rules          what the game is, its options, and what you may do now
  land NAME      what the board says about one place          area NAME   the same, as you ask it
  empire WHAT    one empire (a name or its card's number): its player, where it stands, its card, and
                 its card panel as a picture (a PNG file)
  tracks         the game's tracks (progress, glory, money) in words and as a picture (a PNG file)
  card WHAT      one card whole, by its number or a name on it (your own cards and those in play)
  vacation DAYS  move your deadline DAYS later, or book DAYS away ahead (capped per game)
  resign | reclaim | pause | resume | abandon | reminders all|last|none
  reminders next on|off   a message when the player before you starts their move (off by default)
  timers         the game's timers; timers [move=..] [remind=..] [policy=..] [misses=..] changes them
  prefs          your standing preferences (games that have them); prefs KEY=VALUE sets one
  orders         your standing orders (games that have them: moves made at any time, seen by you
                 alone, such as a card armed to play in another's turn); orders N opens or sends one
Console: /time +2h (with --demo: move the clock, deadlines fire)   /backup   /help   /quit"""


class SettableClock(Clock, Protocol):
    """A clock the console's ``/time`` can move forward."""

    def advance(self, seconds: float) -> float:
        """Move forward by ``seconds``; returns the new time."""
        ...


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
        clock: a settable clock for ``/time``, or None when time passes really. Only with
            one (``--demo``, tests) does ``create`` take ``seed=``: whoever picks a game's
            seed can work out every hidden draw.
        out_dir: where board pictures are written.
        backups: makes ``/backup`` work (optional).
        is_admin: every console user counts as a server admin (may manage any game);
            off by default, so the console checks permissions like Discord does.
    """

    def __init__(self, service: GameService, out: TextIO, *, scheduler: Scheduler | None = None,
                 clock: SettableClock | None = None, out_dir: Path | str = DEFAULT_OUT,
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
        self._pending: dict[str, _Pending] = {}  # a move waiting for its player's "yes"
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
        line = line.replace("\ufeff", "").replace("\t", " ").strip()  # a byte-order mark, a pasted tab
        try:  # every word of the line is checked here, once: the commands read only printable text
            checked_text(line, "That line", MAX_LINE)
        except ServiceError as exc:
            self.say(exc.message)
            return True
        if not line or line.startswith("#"):
            return True
        words = split_words(line)
        if not words:
            return True
        head = words[0].lower()
        try:
            if head in ("/quit", "/exit"):
                return False
            if head in ("/help", "help", "/?"):
                self.say(f"{HELP}\nGames: {_games_list()}")
            elif head == "/as":
                if len(words) < 2 or not words[1].strip():  # `/as ''` names nobody
                    self.say("Usage: /as NAME [COMMAND ...]")
                    return True
                self.user = checked_name(words[1])
                self._names[user_id_for(words[1])] = words[1]
                if len(words) > 2:
                    await self.command(words[1], words[2:])
            elif head == "/time":
                await self.advance(words[1:])
            elif head == "/backup":
                await self.backup()
            elif head.startswith("/"):
                self.say(f"Unknown console command {shortened(words[0])}; type /help.")
            elif self.user is None:
                self.say("Say who you are first: /as NAME (for example /as alice create).")
            else:
                await self.command(self.user, words)
        except ServiceError as exc:
            self.say(f"[{self.user}] {exc.message}" if self.user is not None else exc.message)
        except Exception:  # a console survives a bug in one command; the log has the details
            log.exception("console command failed: %s", line)
            self.say(f"[{self.user}] Something went wrong with that command; nothing more was done.")
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
        pending = self._pending.pop(name, None)
        if pending is not None:
            if verb in ("yes", "y"):
                await self._send(name, user_id_for(name), pending.game_id, pending.action, pending.seq)
                return
            self.say(f"[{name}] Not sent: {pending.label}.")
            if verb in ("no", "n", "cancel", "undo"):  # an undo here takes back the unsent move alone
                return
        if verb.isdigit():  # a decision is one command: its number alone
            verb, args = "play", [verb, *args]
        handler = self._handlers().get(verb)
        if handler is None:
            self.say(f"[{name}] Unknown command {shortened(verb)!r}; type /help.")
            return
        await handler(name, user_id_for(name), args)

    def _handlers(self) -> dict[str, Callable[[str, int, list[str]], Awaitable[None]]]:
        return {
            "create": self._create, "new": self._create, "join": self._join, "leave": self._leave,
            "add-ai": self._add_ai, "addai": self._add_ai, "kick": self._kick, "start": self._start,
            "use": self._use, "games": self._games, "play": self._play, "actions": self._actions,
            "status": self._status, "board": self._board, "text": self._text, "hand": self._hand,
            "timelapse": self._timelapse,
            "vacation": self._vacation, "resign": self._resign, "reclaim": self._reclaim,
            "pause": self._pause, "resume": self._resume, "abandon": self._abandon,
            "reminders": self._reminders, "timers": self._timers, "scores": self._scores, "log": self._log,
            "rules": self._rules, "land": self._land, "card": self._card, "undo": self._undo,
            "prefs": self._prefs, "orders": self._orders,
            "area": self._area, "empire": self._empire, "tracks": self._tracks,
        }

    async def _create(self, name: str, uid: int, args: list[str]) -> None:
        offered = game_ids(offered=True)
        ruleset = offered[0]
        if args and "=" not in args[0]:
            ruleset = args.pop(0)
        if ruleset not in offered:
            self.say(f"[{name}] Unknown game {shortened(ruleset)!r}; the games are: {_games_list()}.")
            return
        spec = registry.spec(ruleset)
        opts = key_values(args)
        seats = whole(opts.pop("seats"), "seats") if "seats" in opts else None
        seed = None
        if "seed" in opts:
            if self.clock is None:  # who picks the seed can work out every hidden draw of the game
                self.say(f"[{name}] seed= is for demonstrations and tests only (start with --demo).")
                return
            seed = whole(opts.pop("seed"), "seed")
        options = options_from(spec, opts)
        timers = timers_from(TimerSettings(), opts)
        out = await self.service.create_lobby(uid, name, ruleset, options=options, max_seats=seats,
                                              timers=timers, seed=seed)
        self._current[name] = out.game_id

    async def _join(self, name: str, uid: int, args: list[str]) -> None:
        if len(args) > 1:
            self.say(f"[{name}] Usage: join GAME")
            return
        if not args:  # the one open lobby, as a channel's /annals join takes the channel's
            lobbies = await self.service.store.game_ids(statuses=("lobby",))
            if len(lobbies) != 1:
                self.say(f"[{name}] Usage: join GAME (open lobbies: {', '.join(lobbies)})." if lobbies else
                         f"[{name}] There is no open lobby to join; open one with 'create GAME'.")
                return
            args = lobbies
        await self.service.join(checked_game_id(args[0]), uid, name)
        self._current[name] = args[0]

    async def _leave(self, name: str, uid: int, args: list[str]) -> None:
        await self.service.leave(await self._game(name, uid, args), uid)

    async def _add_ai(self, name: str, uid: int, args: list[str]) -> None:
        await self.service.add_ai(await self._game(name, uid, []), uid, is_admin=self.is_admin,
                                  policy=args[0] if args else None)

    async def _kick(self, name: str, uid: int, args: list[str]) -> None:
        if not args:
            self.say(f"[{name}] Usage: kick NAME")
            return
        target = " ".join(args)  # an AI seat's name has a space: kick AI 1
        gid = await self._game(name, uid, [])
        status = await self.service.status(gid)
        robots = {s.name.casefold() for s in status.seats if s.is_ai and s.user_id is None}
        if status.status == "lobby" and target.casefold() in robots:
            await self.service.remove_ai(gid, uid, target, is_admin=self.is_admin)
            return
        await self.service.kick(gid, uid, user_id_for(target), is_admin=self.is_admin)

    async def _start(self, name: str, uid: int, args: list[str]) -> None:
        await self.service.start(await self._game(name, uid, args), uid, is_admin=self.is_admin)

    async def _use(self, name: str, uid: int, args: list[str]) -> None:
        if len(args) != 1:
            self.say(f"[{name}] Usage: use GAME")
            return
        status = await self.service.status(checked_game_id(args[0]))
        self._current[name] = status.game_id
        self.say(f"[{name}] now playing in {status.game_id} ({status.title}, {status.status}).")

    async def _games(self, name: str, uid: int, args: list[str]) -> None:
        found = await self.service.store.games_of_user(uid)
        if not found:
            self.say(f"[{name}] You have no games; start one with 'create GAME' ({_games_list()}).")
            return
        for gid in found:
            status = await self.service.status(gid)
            mark = " (current)" if self._current.get(name) == gid else ""
            self.say(f"[{name}] {gid}: {status.title}, {status.status}, move {status.seq}{mark}")

    async def _play(self, name: str, uid: int, args: list[str]) -> None:
        gid = await self._game(name, uid, [])
        if not args:
            self.say(f"[{name}] Usage: play N (a number from your decision) or play WORDS (its label)")
            return
        seq, decision = await self.service.decision(gid, uid)
        if decision is None:
            status = await self.service.status(gid)
            why = (f"waiting for {', '.join(self._people(status, status.waiting_for))}" if status.waiting_for
                   else status.status)
            self.say(f"[{name}] You have nothing to do in {gid} now ({why}).")
            return
        choices = shown_order(decision)
        typed = " ".join(args)
        hits = matching_choices(typed, [c.label for c in choices])
        if not hits:
            self.say(f"[{name}] That is not one of your moves; type 'actions' to list them.")
            return
        if len(hits) > 1:  # never a guess: the fitting choices, by the numbers that play them
            self.say(f"[{name}] {shortened(typed)!r} fits {len(hits)} of your moves; nothing was played. "
                     "Type its number or more of its words:")
            for i in hits:
                self.say(f"  {i + 1}. {choices[i].label}")
            return
        choice = choices[hits[0]]
        if choice.confirm:
            self._pending[name] = _Pending(gid, seq, choice.action.to_json(), choice.label)
            self.say(f"[{name}] {choice.confirm} Type 'yes' to play '{choice.label}', anything else "
                     "cancels it.")
            return
        await self._send(name, uid, gid, choice.action.to_json(), seq)

    async def _send(self, name: str, uid: int, gid: str, action: dict[str, Any], seq: int) -> None:
        await self.service.submit(gid, uid, action, seq)

    async def _undo(self, name: str, uid: int, args: list[str]) -> None:
        """Take back one's newest move, while no die, draw, reveal or other player came since."""
        gid = await self._game(name, uid, args)
        await self.service.undo(gid, uid, (await self.service.status(gid)).seq)
        # the table's line ("alice (Blue) took back their last move.") says it once; the player gets
        # the decision back, as it was before the move
        _, decision = await self.service.decision(gid, uid)
        if decision is not None:
            self._show_decision(self._people(await self.service.status(gid), [uid])[0], gid, decision)

    async def _actions(self, name: str, uid: int, args: list[str]) -> None:
        gid = await self._game(name, uid, args)
        _, decision = await self.service.decision(gid, uid)
        if decision is None:
            self.say(f"[{name}] You have nothing to do in {gid} now.")
            return
        self._show_decision(self._people(await self.service.status(gid), [uid])[0], gid, decision)

    async def _status(self, name: str, uid: int, args: list[str]) -> None:
        gid = await self._game(name, uid, args)
        status = await self.service.status(gid)
        self.say(f"[{name}] {gid}: {status.title} - {status.status}, move {status.seq}")
        for seat in status.seats:
            who = "AI" if seat.is_ai and seat.user_id is None else (
                "AI for now" if seat.is_ai else ("you" if seat.user_id == uid else ""))
            bank = ""
            if seat.bank_left is not None and not seat.is_ai:  # a running clock: said below, with its due
                running = any(d.kind == "turn" and d.user_id == seat.user_id for d in status.deadlines)
                bank = "" if running else f", time bank {_span(seat.bank_left)}"
            if seat.seat is not None and seat.seat < len(status.seat_names):
                self.say(f"  {seat.seat + 1}. {status.seat_names[seat.seat]}" + (f", {who}" if who else "")
                         + bank)
            else:
                self.say(f"  - {seat.name}" + (f" ({who})" if who else ""))
        if status.status == "lobby":
            self.say(f"  {len(status.seats)} of {status.max_seats} seats taken (at least {status.min_seats} "
                     "to start).")
        turn = {d.user_id: d.due_at for d in status.deadlines if d.kind == "turn"}
        if status.waiting_for:
            self.say("  Waiting for: " + ", ".join(
                who + (f" (due {when(turn[u], self._now())})" if u in turn else "")
                for u, who in zip(status.waiting_for, self._people(status, status.waiting_for), strict=True)))
        self.say(f"  Timers: {_timers_line(status.timers)}")
        if status.status in ("active", "paused", "over"):
            view = await self.service.view(gid, None)
            game = registry.get_game(status.ruleset)
            self._lines(None, game.status_text(view, status.seat_names))

    async def _board(self, name: str, uid: int, args: list[str]) -> None:
        """``board [N]``: the board pictures now, or as they stood for the reader after move N."""
        move = whole(args.pop(0), "board") if args and args[0].isdigit() else None
        gid = await self._game(name, uid, args)
        status = await self.service.status(gid)
        view = await (self.service.view(gid, uid) if move is None else self.service.view_at(gid, uid, move))
        try:  # imported late: the console starts without Pillow and matplotlib loaded
            draw = pictures_of(status.ruleset)
        except ImportError:
            self.say(f"[{name}] Board pictures are not available here; type 'text' for the board in words.")
            return
        # The pictures of Discord's /annals board, at a turn notice's width: closing in on the latest turn.
        latest = (await self.service.public_log_slice(gid, None, LATEST))[2] if move is None else []
        focus = latest_turn(latest)
        seated = {s.seat: s.name for s in status.seats if s.seat is not None}  # the keys name the people
        people = [seated.get(seat, "") for seat in range(max(seated, default=-1) + 1)]
        pictures = await asyncio.to_thread(draw, view, focus=focus, size=NOTICE_SIZE, people=people)
        self.out_dir.mkdir(parents=True, exist_ok=True)
        for tag, png in pictures:
            path = self.out_dir / f"annals-{gid}-{view.get('seq', 0)}-{_safe(name)}{'-' * bool(tag)}{tag}.png"
            await asyncio.to_thread(path.write_bytes, png)
            self.say(f"[to {name}] board of {gid} written to {path}")

    async def _timelapse(self, name: str, uid: int, args: list[str]) -> None:
        """``timelapse [GAME]``: the game's board after each stage as one animated picture (a WebP file)."""
        gid = await self._game(name, uid, args)
        status = await self.service.status(gid)
        stages = await self.service.stage_views(gid)
        data = await asyncio.to_thread(draw_timelapse, status.ruleset, stages)
        self.out_dir.mkdir(parents=True, exist_ok=True)
        path = self.out_dir / f"annals-{gid}-{status.seq}-timelapse.webp"
        await asyncio.to_thread(path.write_bytes, data)
        self.say(f"[to {name}] timelapse of {gid} ({len(stages)} stages) written to {path}")

    async def _text(self, name: str, uid: int, args: list[str]) -> None:
        gid = await self._game(name, uid, args)
        status = await self.service.status(gid)
        view = await self.service.view(gid, uid)
        self.say(f"[{name}] board of {gid}:")
        self._lines(None, registry.get_game(status.ruleset).board_text(view, status.seat_names))

    async def _hand(self, name: str, uid: int, args: list[str]) -> None:
        gid = await self._game(name, uid, args)
        status = await self.service.status(gid)
        seat = next((s.seat for s in status.seats if s.user_id == uid and s.seat is not None), None)
        if seat is None:
            self.say(f"[{name}] You have no seat in a started game {gid}.")
            return
        view = await self.service.view(gid, uid)
        text = registry.get_game(status.ruleset).hand_text(view, seat, status.seat_names)
        self._lines(f"to {status.seat_names[seat]}", text)

    async def _scores(self, name: str, uid: int, args: list[str]) -> None:
        """The scores as the game words them: its status while it runs, its summary once over."""
        gid = await self._game(name, uid, args)
        status = await self.service.status(gid)
        if status.status == "lobby":
            self.say(f"[{name}] {gid} has not started: no scores yet.")
            return
        view = await self.service.view(gid, None)
        game = registry.get_game(status.ruleset)
        self.say(f"[{name}] scores of {gid}:")
        self._lines(None, game.summary_text(view, status.seat_names) if status.status == "over"
                    else game.status_text(view, status.seat_names))

    async def _log(self, name: str, uid: int, args: list[str]) -> None:
        """``log [N]``: the game's last N public events (20 unless said), each in the game's words."""
        count = LOG_LINES
        if args and re.fullmatch(r"[-+]?\d+", args[0]):  # a count, even a wrong one, is not a game id
            count = whole(args.pop(0), "log")
            if count < 1:
                self.say(f"[{name}] log N shows the last N events: N is 1 or more, not {count}.")
                return
        gid = await self._game(name, uid, args)
        status = await self.service.status(gid)
        if status.status == "lobby":
            self.say(f"[{name}] {gid} has not started: nothing has happened yet.")
            return
        # the newest events alone are read: a few more than asked, as bookkeeping ones have no line
        _, total, entries = await self.service.public_log_slice(gid, None, 4 * count)
        game = registry.get_game(status.ruleset)
        lines = [f"move {e.seq}: {text}" for e in entries
                 if (text := describe_notice(e.as_notice(gid), status.seat_names, game, self._when))]
        shown = lines[-count:] if count else []
        self.say(f"[{name}] log of {gid}, the last {len(shown)} of {total} events:")
        self._lines(None, "\n".join(shown) or "Nothing has happened yet.")

    async def _rules(self, name: str, uid: int, args: list[str]) -> None:
        """What the game is, where it stands, its options, and what the reader may do now."""
        gid = await self._game(name, uid, args)
        status = await self.service.status(gid)
        spec = registry.spec(status.ruleset)
        self.say(f"[{name}] {spec.title}, for {spec.min_players} to {spec.max_players} players: "
                 f"{spec.summary}")
        for option in (o for o in spec.options if o.offered):  # one still being built is not the lobby's
            self.say(f"  option {option.name} (default {_shown(option.default)}): {option.description}")
        for preset in spec.presets:
            self.say(f"  preset={preset.name}: {preset.description}")
        if status.status == "lobby":
            self.say("  The lobby is open: join GAME, add-ai, then start (its creator).")
            return
        view = await self.service.view(gid, None)
        self.say(f"  Now: {registry.get_game(status.ruleset).stage(view)}.")
        _, decision = await self.service.decision(gid, uid)
        if decision is None and status.status in ("over", "abandoned"):
            return  # over (the stage just said so) or abandoned: nobody is waited for
        if decision is None:
            waiting = ", ".join(self._people(status, status.waiting_for)) or "nobody"
            self.say(f"  Nothing for you to decide now; waiting for {waiting}.")
        else:
            self.say(f"  Your decision: {decision.heading} ({len(decision.choices)} choices; 'actions' "
                     "lists them, 'play N' plays one).")

    async def _land(self, name: str, uid: int, args: list[str]) -> None:
        """``land NAME``: one place of the board in the game's words (its ``place_text``: terrain,
        holder, every seat's pieces, values, neighbours), from the public view."""
        if not args:
            self.say(f"[{name}] Usage: land NAME (a land, a region or a place on the board)")
            return
        wanted = " ".join(args)
        gid = await self._game(name, uid, [])
        status = await self.service.status(gid)
        if status.status == "lobby":
            self.say(f"[{name}] {gid} has not started: the board is empty.")
            return
        view = await self.service.view(gid, None)  # public: the board only, never a hand
        text = registry.get_game(status.ruleset).place_text(view, wanted, status.seat_names)
        if text is None:
            shown = wanted if len(wanted) <= 40 else wanted[:40] + "…"  # never echo a pasted page
            self.say(f"[{name}] The board of {gid} has no place called {shown!r}.")
            return
        self.say(f"[{name}] In {gid}:")
        self._lines(None, text)

    async def _card(self, name: str, uid: int, args: list[str]) -> None:
        """``card WHAT``: one card in the game's words (its ``card_text``), from the asker's own view, so
        it shows only what they may see: their hand, the cards in play; a spectator, the public ones."""
        if not args:
            self.say(f"[{name}] Usage: card WHAT (a card's number or a name printed on it)")
            return
        wanted = " ".join(args)
        gid = await self._game(name, uid, [])
        status = await self.service.status(gid)
        if status.status == "lobby":
            self.say(f"[{name}] {gid} has not started: nobody holds a card yet.")
            return
        view = await self.service.view(gid, uid)  # the asker's own view: never another seat's hand
        text = registry.get_game(status.ruleset).card_text(view, wanted, status.seat_names)
        if text is None:
            shown = wanted if len(wanted) <= 40 else wanted[:40] + "…"  # never echo a pasted page
            self.say(f"[{name}] {status.title} has no card called {shown!r}.")
            return
        seat = next((s.seat for s in status.seats if s.user_id == uid and s.seat is not None), None)
        self._lines(f"to {name if seat is None else status.seat_names[seat]}", text)

    async def _area(self, name: str, uid: int, args: list[str]) -> None:
        """``area NAME``: one place of the board in the game's words, from the asker's view
        (:func:`bot.lookups.area_answer`), to the asker."""
        gid = await self._game(name, uid, [])
        text = await lookups.area_answer(self.service, gid, uid, " ".join(args))
        self._lines(f"to {await self._asker(gid, uid, name)}", text)

    async def _empire(self, name: str, uid: int, args: list[str]) -> None:
        """``empire WHAT``: one empire in the game's words from the asker's view, and its card panel
        written as a picture where the game draws one (:func:`bot.lookups.empire_answer`)."""
        gid = await self._game(name, uid, [])
        await self._answer_with_picture(name, uid, gid, await lookups.empire_answer(
            self.service, gid, uid, " ".join(args)))

    async def _tracks(self, name: str, uid: int, args: list[str]) -> None:
        """``tracks [GAME]``: the game's tracks in words and as a picture
        (:func:`bot.lookups.tracks_answer`)."""
        gid = await self._game(name, uid, args)
        await self._answer_with_picture(name, uid, gid, await lookups.tracks_answer(self.service, gid, uid))

    async def _asker(self, gid: str, uid: int, name: str) -> str:
        """How an answer addresses its asker: their seat's name ("alice (Red)"), else their own."""
        status = await self.service.status(gid)
        seat = next((s.seat for s in status.seats if s.user_id == uid and s.seat is not None), None)
        return name if seat is None else status.seat_names[seat]

    async def _answer_with_picture(self, name: str, uid: int, gid: str, answer: lookups.Answer) -> None:
        """The answer's words to the asker, then its picture written where ``board`` writes its own."""
        to = await self._asker(gid, uid, name)
        self._lines(f"to {to}", answer.text)
        if answer.draw is None:
            return
        try:
            png = await asyncio.to_thread(answer.draw)
        except ImportError:  # a console without Pillow still answers in words
            self.say(f"[to {to}] Pictures are not available here.")
            return
        if png is None:
            return
        seq = (await self.service.status(gid)).seq
        self.out_dir.mkdir(parents=True, exist_ok=True)
        path = self.out_dir / f"annals-{gid}-{seq}-{_safe(name)}-{answer.tag}.png"
        await asyncio.to_thread(path.write_bytes, png)
        self.say(f"[to {to}] {answer.tag} picture of {gid} written to {path}")

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
        """``reminders all|last|none``: which reminders; ``reminders next on|off``: "you're next"."""
        settings = await self.service.user_settings(uid)
        if len(args) == 2 and args[0] == "next" and args[1] in ("on", "off"):
            await self.service.set_user_settings(replace(settings, up_next=args[1] == "on"))
            told = "you get" if args[1] == "on" else "no more"
            self.say(f"[{name}] You're next: {args[1]} ({told} a message when the player before you starts "
                      "their move).")
            return
        if len(args) != 1 or args[0] not in ("all", "last", "none"):
            self.say(f"[{name}] Usage: reminders all|last|none, or reminders next on|off")
            return
        choice: ReminderPreference = "all" if args[0] == "all" else "last" if args[0] == "last" else "none"
        await self.service.set_user_settings(replace(settings, reminders=choice))
        self.say(f"[{name}] Reminders: {args[0]} (from your next clock on).")

    async def _timers(self, name: str, uid: int, args: list[str]) -> None:
        """``timers`` alone: the game's timers; ``timers move=.. ...``: change them."""
        gid = await self._game(name, uid, [])
        status = await self.service.status(gid)
        if not args:
            self.say(f"[{name}] Timers of {gid}: {_timers_line(status.timers)}.")
            return
        opts = key_values(args)
        timers = timers_from(status.timers, opts)
        if opts:
            self.say(f"[{name}] Usage: timers [move=24h] [remind=12h,1h] [policy=ai|skip] [misses=3]")
            return
        await self.service.set_timers(gid, uid, timers, is_admin=self.is_admin)
        self.say(f"[{name}] Timers of {gid} changed.")

    async def _prefs(self, name: str, uid: int, args: list[str]) -> None:
        """``prefs [KEY=VALUE ...]``: one's standing preferences in games that have them (what to do
        when a choice falls to you outside your turn), set with the call Discord's ``prefs`` makes:
        the game's ``prefer`` action, which a seated player may send at any time. The game words
        the change and refuses a key or value it does not know."""
        gid = await self._game(name, uid, [])
        status = await self.service.status(gid)
        spec = registry.spec(status.ruleset)
        if PREFER not in spec.anytime_kinds:
            self.say(f"[{name}] {spec.title} has no standing preferences.")
            return
        if status.status == "lobby":
            self.say(f"[{name}] {gid} has not started: preferences are set once you have a seat in play.")
            return
        for key, value in key_values(args).items():
            seq = (await self.service.status(gid)).seq
            await self.service.submit(gid, uid, {"kind": PREFER, "key": key, "value": value}, seq)
        if args:
            return  # the game's own line says what was set
        you = (await self.service.view(gid, uid)).get("you")
        if not you:
            self.say(f"[{name}] You have no seat in {gid}.")
            return
        now = ", ".join(f"{k}={v}" for k, v in sorted((you.get("prefs") or {}).items()))
        self.say(f"[{name}] Your standing preferences in {gid}: {now or 'none set'}. "
                 "Change one with prefs KEY=VALUE; 'hand' words them.")

    async def _orders(self, name: str, uid: int, args: list[str]) -> None:
        """``orders [N | N.M | WORDS]``: one's standing orders in a game that has them (a 7 Ages card armed
        to be played in another player's go), listed in two steps (:mod:`bot.order_lists`) and sent
        through the service's submit like any move. A game without them says so in one sentence."""
        gid = await self._game(name, uid, [])
        seq, decision = await self.service.orders(gid, uid)
        status = await self.service.status(gid)
        if decision is None:
            self.say(f"[{name}] {gid} is {status.status}: there are no orders to give." if status.status !=
                     "active" else f"[{name}] The AI holds your seat in {gid}; take it back first.")
            return
        who = self._people(status, [uid])[0]
        if not args:
            hint = " (orders N, or the words of an order)" if decision.choices else "."
            self.say(f"[to {who}] {gid}: {decision.heading}{hint}")
            for line in listing(decision, "orders"):
                self.say(line)
            return
        picked = pick(decision, " ".join(args), "orders")
        if picked.refusal:
            self.say(f"[{name}] {picked.refusal}")
            return
        for line in picked.lines:
            self.say(f"[to {who}] {line}" if not line.startswith(" ") else line)
        choice = picked.choice
        if choice is None:
            return
        if choice.confirm:
            self._pending[name] = _Pending(gid, seq, choice.action.to_json(), choice.label)
            self.say(f"[{name}] {choice.confirm} Type 'yes' to send '{choice.label}', anything else "
                     "cancels it.")
            return
        await self._send(name, uid, gid, choice.action.to_json(), seq)  # the game's own line says what it did

    # == helpers =========================================================================
    async def _game(self, name: str, uid: int, args: Sequence[str]) -> str:
        """The game a command is about: the argument, else the person's current game."""
        if args:
            gid = (await self.service.status(checked_game_id(args[0]))).game_id  # refuses an unknown game
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

    def _show_decision(self, name: str, gid: str, decision: Decision) -> None:
        """A decision as its player reads it: the heading, then one numbered line per choice."""
        self.say(f"[to {name}] {gid}: {decision.heading} (play N, or the words of a choice)")
        group = ""
        for i, choice in enumerate(shown_order(decision), 1):
            if choice.group and choice.group != group:
                group = choice.group
                self.say(f"   {group}:")
            self.say(f"  {i}. {choice.label}")

    def _now(self) -> float:
        return self.service.clock.now()

    def _when(self, timestamp: float) -> str:
        return when(timestamp, self._now())

    def _people(self, status: GameStatus, users: Sequence[int | None]) -> list[str]:
        """How the console names people: their seat's name in ``status`` ("alice (Blue)"),
        else the name they gave the console, else the name stored with their seat."""
        out = []
        for user in users:
            seat = next((s for s in status.seats if s.user_id == user), None)
            if seat is not None and seat.seat is not None and seat.seat < len(status.seat_names):
                out.append(status.seat_names[seat.seat])
            elif user is not None and user in self._names:
                out.append(self._names[user])
            else:
                out.append(seat.name if seat is not None else "someone")
        return out

    def _lines(self, to: str | None, text: str) -> None:
        for line in text.splitlines():
            self.say(f"[{to}] {line}" if to else "  " + line)

    def say(self, text: str) -> None:
        """Print one message (flushed at once, so pipes see it)."""
        self.out.write(text + "\n")
        self.out.flush()

    # == notices =========================================================================
    async def _on_outcome(self, outcome: Outcome) -> None:
        """Print an outcome's notices at once, then mark its outbox rows delivered: the console is its
        own only reader, and the rows hold the very notices it was handed (one wording, see
        :mod:`bot.notices`), so they are not left for a Discord bot opened later on this file."""
        await self._print_outcome(outcome)
        if outcome.outbox:
            await self.service.store.mark_delivered(outcome.outbox, int(self.service.clock.now()))

    async def _print_outcome(self, outcome: Outcome) -> None:
        status = outcome.status
        game = registry.get_game(status.ruleset)
        deciders: list[tuple[int, str]] = []
        for notice in outcome.notices:
            text = describe_notice(notice, status.seat_names, game, self._when)
            if notice.kind is NoticeKind.lobby_opened:
                text = f"{text} Join with: join {notice.game_id}"
            if notice.kind is NoticeKind.your_turn and text is not None:
                # the turn's next step: its decision alone, the turn was announced at its start
                head = "" if notice.data.get("goes_on") else text
                deciders += [(int(u), head) for u in notice.audience]
                continue  # with the decision itself, once every other line of the outcome is out
            if text is None:
                continue
            if notice.kind is NoticeKind.game_over:  # why: the summary below names scores and winner
                text = game_ended(notice.data)
            if notice.is_public:
                self.say(f"[{notice.game_id}] {text}")
            else:
                for who in self._people(status, [int(u) for u in notice.audience]):
                    self.say(f"[to {who}] {text}")
            if notice.kind is NoticeKind.game_over:  # the game's own summary: what the scores are made of
                view = await self.service.view(outcome.game_id, None)
                self._lines(None, game.summary_text(view, status.seat_names))
                self.say(f"[{notice.game_id}] Type 'timelapse' for the whole game as one animated picture.")
        for user, line in dict.fromkeys(deciders):
            who = self._people(status, [user])[0]
            if line:
                self.say(f"[to {who}] {line}")
            _, decision = await self.service.decision(outcome.game_id, user)
            if decision is not None:
                self._show_decision(who, outcome.game_id, decision)


@dataclass(frozen=True)
class _Pending:
    """A move whose choice asks a question first; sent on the player's 'yes'."""

    game_id: str
    seq: int
    action: dict[str, Any]
    label: str


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


LOG_LINES = 20
PREFER = "prefer"  # the action kind of a standing preference (GameSpec.anytime_kinds), as Discord sends it


def _timers_line(t: TimerSettings) -> str:
    """A game's timers in words, as ``status`` and ``timers`` say them."""
    clock = (f"a time bank of {_span(t.bank_seconds)}, +{_span(t.bank_increment)} per move"
             + (f" up to {_span(t.bank_cap)}" if t.bank_cap else "")) if t.bank_seconds \
        else f"{_span(t.move_seconds)} per move"
    return (f"{clock}, reminders "
            f"{', '.join(_span(r) + ' before' for r in t.reminder_offsets) or 'none'}, "
            f"on timeout: {'the AI plays' if t.timeout_policy == 'ai' else 'the turn is skipped'}, "
            f"the AI takes over after {t.misses_before_ai or 'no number of'} missed deadlines")


def _shown(value: OptionValue) -> str:
    return ("on" if value else "off") if isinstance(value, bool) else str(value)


def _safe(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_" else "_" for c in name)[:32] or "player"


def shown_order(decision: Decision) -> list[Choice]:
    """The choices in the order the console numbers them: the decision's order, with the choices
    of one group (a two-step pick's first step) brought together under one heading."""
    first: dict[str, int] = {}
    for i, choice in enumerate(decision.choices):
        first.setdefault(choice.group, i)
    return sorted(decision.choices, key=lambda c: first[c.group])


def _games_list() -> str:
    return ", ".join(f"{s.id} ({s.title})" for s in registry.specs(offered=True))


