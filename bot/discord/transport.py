"""Service notices -> Discord messages, from the outbox.

The service writes every notice into the outbox (:mod:`bot.outbox`) in the transaction
of the change that caused it, and wakes this transport after the commit. Delivery runs
one worker per destination, started on demand and ended when its destination has
nothing left: a game's thread (or its channel before the thread opens), a server
channel, a person's DMs, a game's pinned status. Each worker sends its rows in the
order they were written, marks them delivered once Discord accepted every message,
and retries a failure with a doubling delay (never sooner than a 429's
``retry_after``); after :data:`bot.outbox.MAX_ATTEMPTS` tries, or at once when Discord
refuses for good (403, 404, 400), a row is given up with a log line, and a "your move"
DM that cannot go becomes a ping in the game's thread. So a rate-limited thread or a
failing DM endpoint holds up only itself, never another game or person. At start-up
(and after every commit) the workers pick up whatever is undelivered, so notices
survive a restart; every message carries a nonce made from its row's (Discord's
``enforce_nonce``), so a retry after a crash returns the message already posted
instead of posting it twice. On shutdown the workers are cancelled: what they had
not sent stays in the outbox for the next start.

Which rows go out together (a batch) is written in the outbox (``batch_id``) before the
first attempt, so a retry, after a failure or a crash, sends exactly the stored batch under
its first row's nonce, whatever rows were written since (a person's DMs mix games: another
game's row must not split a batch, or its second half goes out again under new nonces).
Making a message (reading the game, the "since your last move" news, the words, the
pictures) is kept apart from sending it: a failure there, but for a busy database, cannot
pass by retrying, so the rows are given up at once with one log line, and a "your move"
among them becomes a plain line naming the game. No notice can stop a worker. DM channels
are opened one person at a time, each with a rate-limit key of their own, and remembered in
the database (:mod:`bot.discord.dms`).

A worker takes all its destination's due rows at once: a thread gets one text for
a burst of outcomes (cut at 2000 characters); a burst that ends the game and is
longer than :data:`LONG_BURST` messages (a game the AI finished inside one command)
becomes one message with its last lines and scores, the final board, and the whole
account as an attached text file. A person gets one message per game. The pinned
status is edited once per burst. When a game starts, its worker opens the thread;
the "Game ... is played in #thread" line in the parent channel is a row of its own,
so a failure there never keeps back the thread's posts, the pin or the DMs.

When a person's DM fails with 50007 (they do not accept DMs from us) that is
remembered in their settings (``dm_allowed`` off), they are pinged in the game's
channel instead, with no hidden content, and no more DMs are tried until they turn
them back on (``/annals dms``). When it becomes someone's turn (not when they just
moved and still must act) the DM carries the board and a "since your last move"
summary (:mod:`bot.digest`), and their decision as the generic panel
(:mod:`bot.discord.panel`); with DMs closed the ping carries a button that opens that
panel ephemerally, to that person alone. A game that was paused and resumes does not
send the same "Your move" and board again: the players hear of their new deadline.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import re
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace

import aiohttp
import discord

from bot.digest import digest, draw_timelapse, places
from bot.discord.dms import DmChannels
from bot.discord.kit import BotBase, Reply, mention, timestamp
from bot.discord.panel import OpenPanelButton, panel
from bot.discord.pictures import picture_files
from bot.discord.words import clock_lines, describe_for
from bot.models import Destination, GameStatus, MessageRef, Notice, NoticeKind, OutboxRow
from bot.outbox import (
    LATE_KINDS,
    LOBBY_KINDS,
    MAX_ATTEMPTS,
    item,
    message_nonce,
    new_nonce,
    notices_of,
    retry_delay,
)
from bot.service import ServiceError
from bot.storage import GameStore
from bot.store import StoreBusy
from engine.registry import get_game, spec

log = logging.getLogger(__name__)

MAX_MESSAGE = 2000
LONG_BURST = 3  # messages: a longer burst that ends the game is attached as a file instead
TAIL_LINES = 5  # lines of a long burst still shown in the message
STARTED = ("active", "paused", "over")  # a game played (or played out) gets a thread, a lobby never
KEEP_DELIVERED = 7 * 24 * 3600  # seconds a delivered row stays in the outbox (for inquiries), from start-up
RESCAN_SECONDS = 60.0  # how often the outbox is looked at with no commit to wake it
DM_CLOSED = 50007  # Discord: "Cannot send messages to this user"
MENTION_USERS = discord.AllowedMentions(everyone=False, roles=False, users=True, replied_user=False)


def split_message(text: str, limit: int = MAX_MESSAGE) -> list[str]:
    """``text`` cut at line ends into pieces of at most ``limit`` characters."""
    pieces: list[str] = []
    current = ""
    for line in text.splitlines():
        while len(line) > limit:  # a single over-long line: cut it hard
            if current:
                pieces.append(current)
                current = ""
            pieces.append(line[:limit])
            line = line[limit:]
        candidate = f"{current}\n{line}" if current else line
        if len(candidate) > limit:
            pieces.append(current)
            current = line
        else:
            current = candidate
    if current:
        pieces.append(current)
    return pieces


def _late_line(notice: Notice) -> str:
    """What a player who missed a deadline is told privately."""
    gid = notice.game_id
    if notice.kind == NoticeKind.autopilot:
        return f"You missed too many deadlines in game `{gid}`: the AI plays your seat from now on."
    done = "the AI played your turn" if notice.data.get("policy") == "ai" else "your turn was skipped"
    return f"You missed the deadline in game `{gid}` ({notice.data.get('missed')} in a row): {done}."


def _resumed_line(game_id: str, notice: Notice) -> str:
    due = notice.data.get("due_at")
    when = f"; your move is now due {timestamp(due)}" if isinstance(due, (int, float)) else ""
    return (f"Game `{game_id}` goes on{when}. The choices I sent you before the pause still stand "
            f"(or use `/annals play game:{game_id}`).")


def _now_ms() -> int:
    """Real time: retries are about the network, not the game's clock."""
    return int(time.time() * 1000)


def _permanent(exc: BaseException) -> bool:
    """Whether retrying cannot help: Discord refused the request itself (403, 404, 400), or the game
    cannot be read any more. A 429, a 5xx, a network error or a bug of ours is worth another try."""
    if isinstance(exc, ServiceError):
        return exc.code in ("no_such_game", "damaged")
    if isinstance(exc, discord.HTTPException) and not isinstance(exc, discord.RateLimited):
        return 400 <= exc.status < 500 and exc.status != 429
    return False


def _retry_after(exc: BaseException) -> float | None:
    return exc.retry_after if isinstance(exc, discord.RateLimited) else None


@dataclass
class _Turn:
    """A turn notification: the your-move line, the summary and whether to show the board."""

    line: str
    summary: str
    ruleset: str
    fresh: bool  # False: they just moved and still must act (no board, no summary)
    focus: tuple[str, ...] = ()  # what the summary's events name: where the pictures close in


class Unbuildable(Exception):
    """Making a row's message failed (reading the game, wording it, drawing it), not sending it: the
    same row would fail the same way at every try, so it is given up at once."""

    def __init__(self, cause: Exception) -> None:
        super().__init__(f"{type(cause).__name__}: {cause}")
        self.cause = cause


# what may pass by itself while a message is being made: the database busy, the network failing
_TRANSIENT = (StoreBusy, discord.HTTPException, aiohttp.ClientError, OSError, asyncio.TimeoutError)


@contextlib.contextmanager
def building() -> Iterator[None]:
    """Around the making of a message: any failure but a transient one becomes :class:`Unbuildable`
    (a broken game's news must not be retried until the worker dies, nor hold up the person's other
    games)."""
    try:
        yield
    except ServiceError as exc:
        if exc.code in ("busy", "no_such_game", "damaged"):  # busy passes; the others: see _permanent
            raise
        raise Unbuildable(exc) from exc
    except _TRANSIENT:
        raise
    except Exception as exc:
        raise Unbuildable(exc) from exc


def _fresh_run(rows: Sequence[OutboxRow], now_ms: int) -> list[OutboxRow]:
    """The rows to put in new batches: those due and in no batch yet, from the first, in order."""
    out: list[OutboxRow] = []
    for row in rows:
        if row.next_try_ms > now_ms or row.batch_id is not None:
            break
        out.append(row)
    return out


def compose(kind: str, rows: Sequence[OutboxRow]) -> list[list[OutboxRow]]:
    """How ``rows`` of one destination go out: a person gets one message per game (each game's rows
    a batch of their own, in the order of their first row), any other destination one batch."""
    if kind != "dm":
        return [list(rows)] if rows else []
    games: dict[str, list[OutboxRow]] = {}
    for row in rows:
        games.setdefault(row.game_id, []).append(row)
    return list(games.values())


def _tells_turn(rows: Sequence[OutboxRow]) -> bool:
    """Whether ``rows`` (of one game) tell someone it is their move."""
    return any(n.kind == NoticeKind.your_turn for r in rows for n in notices_of(r.game_id, r.payload))


def private_news(game_id: str, title: str, lines: Sequence[str]) -> str:
    """A person's news of one game as one DM: under a heading naming the game unless its first line
    names it already. A person in several games reads "This epoch you play Shang Dynasty." and must
    know which game it is about; the engine's line cannot say (a game knows no game id)."""
    if not lines:
        return ""
    if re.search(rf"\b{re.escape(game_id)}\b", lines[0]):
        return "\n".join(lines)
    return "\n".join([f"**{title}**, game `{game_id}`:", *lines])


def your_move_fallback(title: str, game_id: str) -> str:
    """The plain "your move" sent when the full one cannot be made (no board, no news, no panel)."""
    return f"Your move in {title} `{game_id}`: open `/annals play game:{game_id}`."


class Transport:
    """Delivers the outbox: one worker per destination (see the module docstring)."""

    def __init__(self, bot: BotBase) -> None:
        self.bot = bot
        self._workers: dict[Destination, asyncio.Task[None]] = {}
        self._wakes: dict[Destination, asyncio.Event] = {}
        self._poke = asyncio.Event()
        self._dispatcher: asyncio.Task[None] | None = None
        self._shown: dict[str, str] = {}  # game id -> the status text last shown
        self._thread_locks: dict[str, asyncio.Lock] = {}  # one thread per game, whoever opens it
        self._threadless: set[str] = set()  # games whose thread Discord refused
        self.dms = DmChannels(bot, lambda: self.store)

    @property
    def store(self) -> GameStore:
        return self.bot.service.store

    def on_outcome(self, outcome: object) -> None:
        """The service listener: the outcome's rows are committed; wake the workers (never blocks)."""
        self.wake()

    def on_changed_elsewhere(self, game_id: str | None) -> None:
        """The service listener for another process's change (None: maybe any game's).

        The other process may pin a status this one did not write, so the text this one showed last
        no longer says what the pinned message holds: the next status is written whatever it says.
        The change's notices may be for a destination this process holds the lease of, which the
        other cannot claim: look for them now."""
        if game_id is None:
            self._shown.clear()
        else:
            self._shown.pop(game_id, None)
        self.wake()

    def wake(self) -> None:
        """Look for undelivered rows soon (after a commit, or a row written here)."""
        self._poke.set()

    def start(self) -> None:
        """Start looking for undelivered rows (from ``setup_hook``); the workers deliver once the client
        is ready, beginning with whatever was left undelivered before a restart."""
        if self._dispatcher is None:
            self._poke.set()
            self._dispatcher = asyncio.create_task(self._dispatch(), name="annals-outbox")

    async def stop(self) -> None:
        """Stop every worker at once; what they had not sent stays in the outbox for the next start."""
        tasks = [t for t in (self._dispatcher, *self._workers.values()) if t is not None]
        self._dispatcher = None
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._workers.clear()
        self._wakes.clear()

    async def drain(self) -> None:
        """Wait until the outbox holds nothing due and no worker is busy (tests, shutdown); a row
        waiting to be retried is waited for too, so bound this with a timeout."""
        while True:
            await self._scan()
            tasks = list(self._workers.values())
            if not tasks:
                return
            await asyncio.wait(tasks)

    async def _dispatch(self) -> None:
        try:  # what went out (or was given up) more than a week ago is of no more use
            await self.store.prune_outbox(int(time.time()) - KEEP_DELIVERED)
        except Exception:
            log.exception("could not prune the outbox")
        loop = asyncio.get_running_loop()
        while True:
            # a poke after each commit; and a look now and then regardless, for rows another process
            # left (PostgreSQL: its lease ran out, it died) or that this one could not claim before
            timer = loop.call_later(RESCAN_SECONDS, self._poke.set)
            try:
                await self._poke.wait()
            finally:
                timer.cancel()
            self._poke.clear()
            try:
                await self._scan()
            except Exception:  # the database is busy or closing: the next poke tries again
                log.exception("could not read the outbox")

    async def _scan(self) -> None:
        """Start a worker for every destination with undelivered rows, or wake the one it has."""
        for dest in await self.store.outbox_destinations():
            wake = self._wakes.get(dest)
            if wake is not None:
                wake.set()
                continue
            self._wakes[dest] = asyncio.Event()
            self._workers[dest] = asyncio.create_task(self._work(dest), name=f"annals-outbox-{dest.kind}")

    async def _work(self, dest: Destination) -> None:
        wake = self._wakes[dest]
        try:
            await self.bot.wait_until_ready()
            while True:
                wake.clear()
                rows = await self.store.claim_due(dest)
                if not rows:
                    if wake.is_set():  # a row was written while we looked
                        continue
                    return
                now = _now_ms()
                if rows[0].next_try_ms > now:  # backing off: wait, unless new rows come first
                    with contextlib.suppress(asyncio.TimeoutError):
                        await asyncio.wait_for(wake.wait(), (rows[0].next_try_ms - now) / 1000)
                    continue
                for batch in await self._batches(dest, rows, now):
                    await self._attempt(dest, batch)
        except Exception:  # the database failed under us: the next commit's wake starts a new worker
            log.exception("the delivery worker of %s %s stopped", dest.kind, dest.game_id or dest.target)
        finally:  # synchronously with the last look, so a row written after it gets a new worker
            if self._wakes.get(dest) is wake:
                del self._wakes[dest]
                self._workers.pop(dest, None)

    async def _batches(self, dest: Destination, rows: list[OutboxRow], now_ms: int) -> list[list[OutboxRow]]:
        """What to send next, from the destination's undelivered ``rows`` (the first one due).

        A batch formed before (then failed, or cut short by a crash) goes again exactly as it was
        stored, under its first row's nonce, whatever rows were written since: Discord returns the
        messages it already has. Otherwise the due rows in no batch yet are composed into batches
        (:func:`compose`), which are written down in one transaction before the first attempt.
        """
        first = rows[0]
        if first.batch_id is not None:
            return [[r for r in rows if r.batch_id == first.batch_id]]
        batches = compose(dest.kind, _fresh_run(rows, now_ms))
        await self.store.form_batches([[r.id for r in batch] for batch in batches])
        return [[replace(r, batch_id=batch[0].id) for r in batch] for batch in batches]

    async def _attempt(self, dest: Destination, rows: list[OutboxRow]) -> None:
        ids = [r.id for r in rows]
        await self.store.begin_attempt(ids)  # ``rows`` keep the count from before it
        try:
            if dest.kind == "public":
                await self._send_public(rows[0].game_id, rows)
            elif dest.kind == "dm":
                await self._send_news(dest.target, rows[0].game_id, rows)
            elif dest.kind == "status":
                await self._send_status(rows[0].game_id, rows[0].nonce)
            else:
                for row in rows:
                    await self._send_announcement(dest.target, row)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            await self._failed(dest, rows, exc)
            return
        await self.store.mark_delivered(ids, int(time.time()))

    async def _failed(self, dest: Destination, rows: list[OutboxRow], exc: Exception) -> None:
        ids = [r.id for r in rows]
        tries = rows[0].attempts + 1
        why = f"{type(exc).__name__}: {exc}"
        where = f"{dest.kind} {dest.game_id or dest.target}"
        if isinstance(exc, Unbuildable):  # one line: the same row would fail the same way every time
            log.warning("gave up %d notice row(s) of game %s for %s: the message could not be made (%s)",
                        len(ids), rows[0].game_id, where, exc)
            if dest.kind == "dm":
                await self._dm_fallback(dest.target, rows)
            await self.store.give_up(ids, f"could not be made: {exc}", int(time.time()))
            return
        if _permanent(exc) or tries >= MAX_ATTEMPTS:
            log.warning("gave up delivering %d notice row(s) to %s after %d tries: %s", len(ids), where,
                        tries, why)
            if dest.kind == "dm":  # the stand-in first: once given up, the rows are nobody's to retry
                await self._dm_gave_up(dest.target, rows)
            await self.store.give_up(ids, why, int(time.time()))
            return
        if isinstance(exc, (discord.HTTPException, aiohttp.ClientError, OSError, asyncio.TimeoutError)):
            log.warning("could not deliver to %s (try %d of %d), retrying: %s", where, tries, MAX_ATTEMPTS,
                        why)
        else:  # a bug of ours: the traceback says where
            log.error("could not deliver to %s (try %d of %d), retrying", where, tries, MAX_ATTEMPTS,
                      exc_info=exc)
        delay = retry_delay(tries, _retry_after(exc))
        await self.store.retry_later(ids, why, _now_ms() + int(delay * 1000))

    async def _dm_gave_up(self, user_id: int, rows: list[OutboxRow]) -> None:
        """A "your move" DM that cannot go: ping the person in the game's thread (public data only), so
        no game waits on someone nobody told. Never raises: the worker goes on with the next rows."""
        gid = rows[0].game_id
        if not _tells_turn(rows):
            return
        try:
            channel = await self.game_channel(gid)
            with building():
                news = await self.turn_news(gid, user_id)
            if channel is not None and news is not None:
                await self._ping(user_id, channel, gid, news, nonce=f"{rows[0].nonce}g")
        except Exception as exc:  # one line, whatever it was: the rows are given up next regardless
            log.warning("could not ping user %s in game %s either: %s: %s", user_id, gid,
                        type(exc).__name__, exc)

    async def _dm_fallback(self, user_id: int, rows: list[OutboxRow]) -> None:
        """A "your move" whose message could not be made: a plain line naming the game instead, by DM
        (or in the game's thread when their DMs are closed). Never raises."""
        gid = rows[0].game_id
        if not _tells_turn(rows):
            return
        try:
            with contextlib.suppress(Exception):  # the status may be what fails: then tell them anyway
                if user_id not in (await self.bot.service.status(gid)).waiting_for:
                    return  # no longer their move (the news came late): nothing to fall back on
            row = await self.store.get_game(gid)
            title = spec(row.ruleset).title if row is not None else "game"
            text = your_move_fallback(title, gid)
            nonce = f"{rows[0].nonce}f"
            if (await self.bot.service.user_settings(user_id)).dm_allowed:
                dm = await self.dms.messageable(user_id)
                try:
                    await dm.send(text, nonce=message_nonce(nonce, 0))
                    return
                except discord.HTTPException as exc:
                    await self.dms.on_failure(user_id, dm, exc)
                    if not (isinstance(exc, discord.Forbidden) and exc.code == DM_CLOSED):
                        raise
            channel = row.thread_id or row.channel_id if row is not None else None
            if channel is not None:
                await self.send_channel(channel, f"{mention(user_id)}: {text[0].lower()}{text[1:]}",
                                        nonce=nonce)
        except Exception as exc:  # one line: nothing more can be done for these rows
            log.warning("could not send user %s the plain your-move of game %s either: %s: %s", user_id,
                        gid, type(exc).__name__, exc)

    # == what each destination gets ======================================================
    async def _send_public(self, game_id: str, rows: list[OutboxRow]) -> None:
        """The public lines of ``rows`` in the game's thread (opened here when the game starts), or
        in its channel; a long burst as a file (see :data:`LONG_BURST`)."""
        with building():
            status = await self.bot.service.wording_status(game_id)
            notices = [(r, n) for r in rows for n in notices_of(game_id, r.payload)]
        channel_id = await self.game_channel(game_id)
        if channel_id is None:
            return  # a game without a channel (made in the console): nobody to post to
        lines: list[str] = []
        lobby: list[str] = []
        over = False
        with building():
            for r, notice in notices:
                text = describe_for(notice, status)
                if text is None:
                    continue
                if notice.kind in LOBBY_KINDS:
                    lobby.append(text)
                    continue
                lines.append(text)
                over = over or notice.kind == NoticeKind.game_over
                if notice.kind == NoticeKind.game_started:
                    lines += [f"{mention(int(u))}, it is your move." for u in r.payload.get("waiting", [])]
        nonce = f"{rows[0].nonce}-{len(rows)}"
        if lobby:
            row = await self.store.get_game(game_id)
            parent = row.channel_id if row is not None and row.channel_id is not None else channel_id
            await self.send_channel(parent, "\n".join(lobby), nonce=f"{nonce}l")
        if not lines:
            return
        text = "\n".join(lines)
        timelapse = await self._timelapse(game_id, status) if over else []
        if not over or len(split_message(text)) <= LONG_BURST:
            await self.send_channel(channel_id, text, nonce=nonce, files=timelapse or None)
            await self._first_status(game_id, channel_id, nonce)
            return
        # A long burst ending the game (the AI finishing it inside one command): the final board,
        # the last lines with the scores, and the whole account as a file, not dozens of messages.
        head = (f"{len(lines)} things happened in game `{game_id}`; the whole account is attached. "
                "The last of them:")
        files = [discord.File(io.BytesIO(text.encode()), filename=f"annals-{game_id}-{status.seq}.txt")]
        if status.status == "over":
            with building():
                view = await self.bot.service.view(game_id, None)
                files[:0] = await picture_files(self.bot, status.ruleset, game_id, view)
        tail = "\n".join([head, *lines[-TAIL_LINES:]])
        await self.send_channel(channel_id, split_message(tail)[-1] if len(tail) > MAX_MESSAGE else tail,
                                files=files + timelapse, nonce=nonce)

    async def _timelapse(self, game_id: str, status: GameStatus) -> list[discord.File]:
        """A finished game's timelapse, for its summary (none for a game of older rules, which today's
        rules may not replay, or one whose pictures cannot be made: one log line)."""
        if status.status != "over":
            return []
        try:
            stages = await self.bot.service.stage_views(game_id)
            data = await self.bot.render(draw_timelapse, status.ruleset, stages)
        except (ServiceError, ValueError, OSError, RuntimeError) as exc:  # the summary goes without it
            log.warning("no timelapse for game %s: %s", game_id, exc)
            return []
        return [discord.File(io.BytesIO(data), filename=f"annals-{game_id}-timelapse.webp")]

    async def _send_news(self, user_id: int, game_id: str, rows: list[OutboxRow]) -> None:
        """A person's news of one game, by DM (or the ping in the thread when their DMs are closed)."""
        resumed = any(r.payload.get("resumed") for r in rows)
        lines: list[str] = []
        turn = False
        heads_up = True  # nothing but "you're next": no stand-in ping when their DMs are closed
        with building():
            status = await self.bot.service.wording_status(game_id)
            for notice in (n for r in rows for n in notices_of(game_id, r.payload)):
                if notice.kind == NoticeKind.up_next and user_id in status.waiting_for:
                    continue  # come late: it is their move already, which their news says
                heads_up = heads_up and notice.kind == NoticeKind.up_next
                if notice.kind == NoticeKind.your_turn:
                    # a resumed game's moves are those announced before the pause (same seq, same
                    # panel): the player hears of the new deadline, not the same "Your move" and board
                    if resumed:
                        lines.append(_resumed_line(game_id, notice))
                    else:
                        turn = True  # the turn line is written at sending time
                elif notice.is_public and notice.kind in LATE_KINDS:
                    lines.append(_late_line(notice))
                elif (text := describe_for(notice, status)) and text not in lines:
                    lines.append(text)
        text = private_news(game_id, status.title, lines)
        await self.send_private(user_id, text, await self.game_channel(game_id), game_id, turn=turn,
                                nonce=rows[0].nonce, ping=not heads_up)

    async def _send_status(self, game_id: str, nonce: str) -> None:
        row = await self.store.get_game(game_id)
        if row is None or row.thread_id is None:
            return
        if (await self.store.messages(game_id)).get("status") is None \
                and Destination("public", 0, game_id) in await self.store.outbox_destinations():
            return  # the first status is pinned after the game's first lines ("Game ... begins")
        await self.update_status(game_id, row.thread_id, nonce=nonce)

    async def _first_status(self, game_id: str, channel_id: int, nonce: str) -> None:
        """Pin the game's first status in its thread right after the lines just posted there (the
        status worker leaves the first one to this, so it never comes before "Game ... begins")."""
        row = await self.store.get_game(game_id)
        if row is not None and row.thread_id == channel_id \
                and (await self.store.messages(game_id)).get("status") is None:
            await self.update_status(game_id, channel_id, nonce=f"{nonce}s")

    async def _send_announcement(self, channel_id: int, row: OutboxRow) -> None:
        thread = int(row.payload["thread"])
        text = f"Game `{row.game_id}` is played in <#{thread}>."
        await self.send_channel(channel_id, text, nonce=row.nonce)

    async def game_channel(self, game_id: str) -> int | None:
        """Where the game's public lines go: its own thread, opened here the first time it is needed
        once the game has started (by whichever worker needs it first), else its channel."""
        lock = self._thread_locks.setdefault(game_id, asyncio.Lock())
        async with lock:
            row = await self.store.get_game(game_id)
            if row is None:
                raise ServiceError("no_such_game", f"There is no game {game_id!r}.")
            if row.thread_id is None and row.channel_id is not None and row.status in STARTED \
                    and game_id not in self._threadless:
                thread = await self.open_thread(game_id, row.channel_id, spec(row.ruleset).title)
                if thread is None:  # refused: this game is played in the channel (until a restart)
                    self._threadless.add(game_id)
                return thread or row.channel_id
            return row.thread_id or row.channel_id

    async def open_thread(self, game_id: str, channel_id: int, title: str) -> int | None:
        """Open the game's public thread in its channel and remember it; None if Discord refuses (the
        game is then played in the channel). The line announcing it in the channel is an outbox row of
        its own, and so is the first pinned status."""
        channel = self.bot.get_channel(channel_id)
        try:
            if channel is None:
                channel = await self.bot.fetch_channel(channel_id)
            if not isinstance(channel, discord.TextChannel):
                return None
            thread = await channel.create_thread(
                name=f"{title} - {game_id}"[:100], type=discord.ChannelType.public_thread,
                auto_archive_duration=10080, reason=f"Annals game {game_id}")
        except (discord.HTTPException, discord.InvalidData) as exc:
            log.warning("could not open a thread for game %s in channel %s: %s", game_id, channel_id, exc)
            return None
        await self.bot.service.set_thread(game_id, thread.id)
        await self.store.enqueue([item(game_id, "channel", channel_id, {"thread": thread.id}),
                                  item(game_id, "status", 0, {})], int(time.time()))
        self.wake()
        return thread.id

    async def status_text(self, game_id: str) -> str:
        """The pinned status message: the game's own status, whose turn, deadlines (public data only)."""
        service = self.bot.service
        st = await service.status(game_id)
        lines = [f"**{st.title}**, game `{game_id}`: move {st.seq} ({st.status})."]
        if st.status in ("active", "paused", "over"):
            view = await service.view(game_id, None)  # a spectator's view: nothing hidden
            lines.append(get_game(st.ruleset).status_text(view, st.seat_names))
        lines += clock_lines(st)
        return "\n".join(lines)

    async def update_status(self, game_id: str, thread_id: int, *, nonce: str | None = None) -> None:
        """Edit the game's pinned status message (post and pin it the first time)."""
        text = await self.status_text(game_id)
        if self._shown.get(game_id) == text:
            return
        store = self.bot.service.store
        now = int(self.bot.service.clock.now())
        seq = (await self.bot.service.status(game_id)).seq
        thread = self.bot.get_partial_messageable(thread_id)
        ref = (await store.messages(game_id)).get("status")
        if ref is not None and ref.channel_id == thread_id:
            try:
                await thread.get_partial_message(ref.message_id).edit(
                    content=text, allowed_mentions=discord.AllowedMentions.none())
                await store.set_message(replace(ref, seq=seq), now)
                self._shown[game_id] = text
                return
            except discord.NotFound:
                await store.delete_message(game_id, "status")
        message = await thread.send(text, allowed_mentions=discord.AllowedMentions.none(),
                                    nonce=message_nonce(nonce or new_nonce(), 0))
        try:
            await message.pin(reason="Annals: the game's status")
        except discord.HTTPException as exc:
            log.warning("could not pin the status of game %s: %s", game_id, exc)
        await store.set_message(MessageRef(game_id, "status", thread_id, message.id, seq), now)
        self._shown[game_id] = text

    async def send_channel(self, channel_id: int, text: str, *, files: list[discord.File] | None = None,
                           view: discord.ui.View | None = None, nonce: str | None = None) -> None:
        """Post ``text`` (split as needed) in a channel or thread; files and view go on the last piece.
        Piece ``i`` carries the nonce ``<nonce>-<i>`` (Discord posts a nonce only once)."""
        channel = self.bot.get_partial_messageable(channel_id)
        pieces = split_message(text) or [""]
        nonce = nonce or new_nonce()
        for i, piece in enumerate(pieces):
            tag = message_nonce(nonce, i)
            if i == len(pieces) - 1 and (files or view is not None):
                if view is not None:
                    await channel.send(piece, files=files or [], view=view, allowed_mentions=MENTION_USERS,
                                       nonce=tag)
                else:
                    await channel.send(piece, files=files or [], allowed_mentions=MENTION_USERS, nonce=tag)
            else:
                await channel.send(piece, allowed_mentions=MENTION_USERS, nonce=tag)

    async def send_private(self, user_id: int, text: str, channel_id: int | None, game_id: str, *,
                           turn: bool = False, nonce: str | None = None, ping: bool = True) -> None:
        """DM ``text`` to a person; if their DMs are closed, ping them in the game's channel instead
        (unless not ``ping``: a heads-up nobody needs in public, as "you're next").

        With ``turn`` and the person to move now (and not just after their own move),
        the message also says so, carries the board and what happened since their last
        move, and their decision as the panel; the ping in the thread carries a button
        that opens the panel (to that person only).
        """
        with building():
            news = await self.turn_news(game_id, user_id) if turn else None
        if not text and (news is None or not news.fresh):
            return  # they just moved and still must act: the reply to their move said so
        settings = await self.bot.service.user_settings(user_id)
        if settings.dm_allowed:
            try:
                await self._send_dm(user_id, text, game_id, news, nonce)
                return
            except discord.Forbidden as exc:
                if exc.code != DM_CLOSED:
                    raise
                log.info("DMs to user %s are closed; remembering it", user_id)
                await self.bot.service.set_user_settings(replace(settings, dm_allowed=False))
        if channel_id is not None and ping:
            await self._ping(user_id, channel_id, game_id, news, nonce=nonce)

    async def _send_dm(self, user_id: int, text: str, game_id: str, news: _Turn | None,
                       nonce: str | None = None) -> None:
        """The news, board and summary in one message; the decision panel in another."""
        parts = [text] if text else []
        files: list[discord.File] = []
        offer: Reply | None = None
        if news is not None:
            parts.append(news.line)
            if news.fresh:
                parts += [news.summary] if news.summary else []
                with building():
                    view = await self.bot.service.view(game_id, user_id)
                    files += await picture_files(self.bot, news.ruleset, game_id, view, focus=news.focus)
                    offer = await panel(self.bot, game_id, user_id)
        pieces = split_message("\n".join(parts))
        base = nonce or new_nonce()
        tags = [message_nonce(base, i) for i in range(len(pieces) + 1)]
        for again in (True, False):  # a remembered channel Discord no longer knows: once more, anew
            dm = await self.dms.messageable(user_id)
            try:
                for i, piece in enumerate(pieces):
                    await dm.send(piece, files=files if i == len(pieces) - 1 else [], nonce=tags[i])
                if offer is not None and offer.view is not None:
                    await dm.send(offer.content, view=offer.view, nonce=tags[-1])
                return
            except discord.HTTPException as exc:
                if not await self.dms.on_failure(user_id, dm, exc) or not again:
                    raise

    async def _ping(self, user_id: int, channel_id: int, game_id: str, news: _Turn | None, *,
                    nonce: str | None = None) -> None:
        """The public stand-in for a DM: a mention, public data only, and the decision behind a button."""
        lines = [f"{mention(user_id)}, there is news for you in game `{game_id}` that I cannot send by DM"
                 + (f": {news.line[0].lower()}{news.line[1:]}" if news is not None else ".")]
        files: list[discord.File] = []
        view: discord.ui.View | None = None
        if news is not None and news.fresh:
            view = discord.ui.View(timeout=None)
            view.add_item(OpenPanelButton(game_id, user_id))
            lines.append("Your choices wait behind the button below: only you will see them.")
        lines.append(f"Use `/annals hand game:{game_id}` or `/annals play game:{game_id}` to see them "
                     "(and `/annals dms enabled:True` once your DMs are open).")
        if news is not None and news.fresh:
            if news.summary:
                lines.append(news.summary)
            with building():
                public = await self.bot.service.view(game_id, None)
                files += await picture_files(self.bot, news.ruleset, game_id, public, focus=news.focus)
        await self.send_channel(channel_id, "\n".join(lines), files=files, view=view,
                                nonce=f"{nonce}p" if nonce is not None else None)

    async def turn_news(self, game_id: str, user_id: int) -> _Turn | None:
        """The turn line and the summary for a person whose move it is now (None if it is not)."""
        service = self.bot.service
        st = await service.status(game_id)
        seat = next((s for s in st.seats if s.user_id == user_id and not s.is_ai), None)
        if st.status != "active" or seat is None or seat.seat is None or user_id not in st.waiting_for:
            return None
        due = next((d.due_at for d in st.deadlines if d.user_id == user_id and d.kind == "turn"
                    and not d.fired), None)
        when = f" (due {timestamp(due)})" if due else ""
        line = f"Your move in game `{game_id}`{when}: choose below, or use `/annals play game:{game_id}`."
        last, entries = await service.since_last_move(game_id, seat.seat)
        if last is not None and all(e.get("player") == seat.seat for e in entries):
            return _Turn(line, "", st.ruleset, fresh=False)  # nobody else moved since their own last move
        summary = digest(entries, seat.seat, st.seat_names, get_game(st.ruleset), first=last is None)
        return _Turn(line, summary, st.ruleset, fresh=True, focus=tuple(places(entries, seat.seat)))
