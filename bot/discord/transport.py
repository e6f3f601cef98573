"""Service notices -> Discord messages.

Public notices of one outcome become one message (split at Discord's 2000
characters) in the game's thread or channel; private ones are gathered per
person and sent by DM. When a DM fails with 50007 (the person does not accept
DMs from us) that is remembered in the person's settings (``dm_allowed``
off), the person is pinged in the game's channel instead, with no hidden
content, and no more DMs are tried until they turn them back on
(``/annals dms``).

Outcomes are queued and delivered in order by one worker task, so a slow
Discord never holds up the game service (which publishes after commit).
The worker starts delivering once the client is ready and takes everything
queued at that moment as one burst (deadline rollovers at start-up, a long
run of AI moves): public lines for the same channel are merged into as few
messages as possible, in order; each person gets one message per game; and
the pinned status message of a game is edited once, when the queue has run
dry, not once per outcome. Discord's own per-route rate limits are then
respected by discord.py's HTTP client.

When it becomes someone's turn (not when they just moved and still must act)
the DM carries the board and a "since your last move" summary
(:mod:`bot.digest`); with DMs closed, the ping in the thread carries them
instead (public data only). The DM also carries the person's decision as the
generic panel (:mod:`bot.discord.panel`), whatever the game and whatever the
decision is (a move, a drawn card to keep or give, a bid); with DMs closed the
ping carries a button that opens that panel ephemerally, to that person alone.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass, field, replace

import discord

from bot.digest import digest, places
from bot.discord.kit import BotBase, Reply, mention, timestamp
from bot.discord.panel import OpenPanelButton, panel
from bot.discord.pictures import picture_files
from bot.discord.words import describe_for
from bot.models import MessageRef, Notice, NoticeKind, Outcome
from engine.registry import get_game

log = logging.getLogger(__name__)

MAX_MESSAGE = 2000
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


@dataclass
class _News:
    """What one person hears about one game in a burst."""

    user_id: int
    game_id: str
    channel_id: int | None
    lines: list[str] = field(default_factory=list)
    turn: bool = False  # a your_turn / your_draw notice came: it may be their move now


@dataclass
class _Turn:
    """A turn notification: the your-move line, the summary and whether to show the board."""

    line: str
    summary: str
    ruleset: str
    fresh: bool  # False: they just moved and still must act (no board, no summary)
    focus: tuple[str, ...] = ()  # what the summary's events name: where the pictures close in


class _Posts:
    """Public texts waiting to go out: one text per channel, in the order things happened there.

    Channels (game threads) are independent, so a burst touching several games
    sends each thread its news as one text (cut at 2000 characters) instead of
    one message per outcome.
    """

    def __init__(self) -> None:
        self.items: dict[int, str] = {}

    def add(self, channel_id: int, text: str) -> None:
        before = self.items.get(channel_id)
        self.items[channel_id] = text if before is None else f"{before}\n{text}"


class Transport:
    """Delivers the notices of every outcome the service publishes."""

    def __init__(self, bot: BotBase) -> None:
        self.bot = bot
        self._queue: asyncio.Queue[Outcome] = asyncio.Queue()
        self._worker: asyncio.Task[None] | None = None
        self._shown: dict[str, str] = {}  # game id -> the status text last shown
        self._dirty: dict[str, int] = {}  # game id -> thread whose pinned status must be refreshed

    def on_outcome(self, outcome: Outcome) -> None:
        """The service listener: queue the outcome (never blocks the service)."""
        self._queue.put_nowait(outcome)

    def start(self) -> None:
        """Start the delivery worker (from ``setup_hook``); it delivers once the client is ready."""
        if self._worker is None:
            self._worker = asyncio.create_task(self._run(), name="annals-transport")

    async def stop(self) -> None:
        """Stop the worker; undelivered outcomes are dropped (their state is in the database)."""
        if self._worker is not None:
            self._worker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._worker
            self._worker = None

    async def drain(self) -> None:
        """Wait until every queued outcome has been delivered (tests, shutdown)."""
        await self._queue.join()

    async def _run(self) -> None:
        await self.bot.wait_until_ready()
        while True:
            burst = [await self._queue.get()]
            while not self._queue.empty():
                burst.append(self._queue.get_nowait())
            try:
                await self.deliver_all(burst)
                if self._queue.empty():
                    await self.flush_status()
            except Exception:
                log.exception("could not deliver the notices of games %s",
                              sorted({o.game_id for o in burst}))
            finally:
                for _ in burst:
                    self._queue.task_done()

    async def deliver(self, outcome: Outcome) -> None:
        """Deliver one outcome now, status message included."""
        await self.deliver_all([outcome])
        await self.flush_status()

    async def deliver_all(self, outcomes: list[Outcome]) -> None:
        """Send the public lines of ``outcomes`` to their threads (or channels) and private ones by DM.

        Outcomes are taken in order; a game's thread is opened when it starts
        (``game_started``). Each person gets one message per game (sent first),
        then each channel one text with its public lines in order. The pinned
        status messages are only marked for :meth:`flush_status`.
        """
        posts = _Posts()
        news: dict[tuple[str, int], _News] = {}
        for outcome in outcomes:
            status = outcome.status
            gid = outcome.game_id
            row = await self.bot.service.store.get_game(gid)
            thread_id = row.thread_id if row is not None else status.thread_id
            if thread_id is None and status.channel_id is not None and \
                    any(n.kind == NoticeKind.game_started for n in outcome.notices):
                await self._post(posts)  # what was said before the thread opened goes first
                posts = _Posts()
                thread_id = await self.open_thread(gid, status.channel_id, status.title)
            channel_id = thread_id or status.channel_id
            public: list[str] = []
            # A resumed game's moves are those announced before the pause (same seq, same panel):
            # the players hear of their new deadline, not the same "Your move" and board again.
            resumed = any(n.kind == NoticeKind.resumed for n in outcome.notices)
            for notice in outcome.notices:
                if not notice.is_public:
                    for user in notice.audience:
                        item = news.setdefault((gid, int(user)), _News(int(user), gid, channel_id))
                        item.channel_id = channel_id
                        if notice.kind == NoticeKind.your_turn and resumed:
                            item.lines.append(_resumed_line(gid, notice))
                        elif notice.kind == NoticeKind.your_turn:
                            item.turn = True
                        else:  # the turn line is written at sending time
                            text = describe_for(notice, status)
                            if text and text not in item.lines:
                                item.lines.append(text)
                    continue
                text = describe_for(notice, status)
                if text is None:
                    continue
                public.append(text)
                if notice.kind == NoticeKind.game_started:
                    public.extend(self._turn_pings(outcome))
                late_kinds = (NoticeKind.timeout, NoticeKind.autopilot)
                late = notice.data.get("user_id") if notice.kind in late_kinds else None
                if late is not None:  # the late player also hears it privately
                    item = news.setdefault((gid, int(late)), _News(int(late), gid, channel_id))
                    item.channel_id = channel_id
                    item.lines.append(_late_line(notice))
            if public and channel_id is not None:
                posts.add(channel_id, "\n".join(public))
            if thread_id is not None:
                self._dirty[gid] = thread_id
        # private news first: whoever sees a thread's latest post may rely on their DMs being there
        for item in news.values():
            try:
                await self.send_private(item.user_id, "\n".join(item.lines), item.channel_id, item.game_id,
                                        turn=item.turn)
            except Exception:  # one person's trouble must not keep the others' news back
                log.exception("could not tell user %s about game %s", item.user_id, item.game_id)
        await self._post(posts)

    async def _post(self, posts: _Posts) -> None:
        for channel_id, text in posts.items.items():
            try:
                await self.send_channel(channel_id, text)
            except discord.HTTPException as exc:
                log.warning("could not post in channel %s: %s", channel_id, exc)

    async def flush_status(self) -> None:
        """Edit the pinned status message of every game that changed since the last flush."""
        dirty, self._dirty = self._dirty, {}
        for gid, thread_id in dirty.items():
            try:
                await self.update_status(gid, thread_id)
            except discord.HTTPException as exc:
                log.warning("could not update the status of game %s: %s", gid, exc)

    async def open_thread(self, game_id: str, channel_id: int, title: str) -> int | None:
        """Open the game's public thread in its channel and remember it; None if Discord refuses."""
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
        await self.send_channel(channel_id, f"Game `{game_id}` is played in <#{thread.id}>.")
        return thread.id

    async def status_text(self, game_id: str) -> str:
        """The pinned status message: the game's own status, whose turn, deadlines (public data only)."""
        service = self.bot.service
        st = await service.status(game_id)
        lines = [f"**{st.title}**, game `{game_id}`: move {st.seq} ({st.status})."]
        if st.status in ("active", "paused", "over"):
            view = await service.view(game_id, None)  # a spectator's view: nothing hidden
            lines.append(get_game(st.ruleset).status_text(view, st.seat_names))
        due = {d.user_id: d.due_at for d in st.deadlines if d.kind == "turn" and not d.fired}
        if st.status == "active" and st.waiting_for:
            lines.append("Waiting for: " + ", ".join(
                mention(u) + (f" (due {timestamp(due[u])})" if u in due else "") for u in st.waiting_for))
        return "\n".join(lines)

    async def update_status(self, game_id: str, thread_id: int) -> None:
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
        message = await thread.send(text, allowed_mentions=discord.AllowedMentions.none())
        try:
            await message.pin(reason="Annals: the game's status")
        except discord.HTTPException as exc:
            log.warning("could not pin the status of game %s: %s", game_id, exc)
        await store.set_message(MessageRef(game_id, "status", thread_id, message.id, seq), now)
        self._shown[game_id] = text

    @staticmethod
    def _turn_pings(outcome: Outcome) -> list[str]:
        return [f"{mention(u)}, it is your move." for u in outcome.status.waiting_for]

    async def send_channel(self, channel_id: int, text: str, *, files: list[discord.File] | None = None,
                           view: discord.ui.View | None = None) -> None:
        """Post ``text`` (split as needed) in a channel or thread; files and view go on the last piece."""
        channel = self.bot.get_partial_messageable(channel_id)
        pieces = split_message(text) or [""]
        for i, piece in enumerate(pieces):
            if i == len(pieces) - 1 and (files or view is not None):
                if view is not None:
                    await channel.send(piece, files=files or [], view=view, allowed_mentions=MENTION_USERS)
                else:
                    await channel.send(piece, files=files or [], allowed_mentions=MENTION_USERS)
            else:
                await channel.send(piece, allowed_mentions=MENTION_USERS)

    async def send_private(self, user_id: int, text: str, channel_id: int | None, game_id: str, *,
                           turn: bool = False) -> None:
        """DM ``text`` to a person; if their DMs are closed, ping them in the game's channel instead.

        With ``turn`` and the person to move now (and not just after their own move),
        the message also says so, carries the board and what happened since their last
        move, and their decision as the panel; the ping in the thread carries a button
        that opens the panel (to that person only).
        """
        news = await self.turn_news(game_id, user_id) if turn else None
        if not text and (news is None or not news.fresh):
            return  # they just moved and still must act: the reply to their move said so
        settings = await self.bot.service.user_settings(user_id)
        if settings.dm_allowed:
            try:
                await self._send_dm(user_id, text, game_id, news)
                return
            except discord.Forbidden as exc:
                if exc.code != DM_CLOSED:
                    raise
                log.info("DMs to user %s are closed; remembering it", user_id)
                await self.bot.service.set_user_settings(replace(settings, dm_allowed=False))
        if channel_id is not None:
            await self._ping(user_id, channel_id, game_id, news)

    async def _send_dm(self, user_id: int, text: str, game_id: str, news: _Turn | None) -> None:
        """The news, board and summary in one message; the decision panel in another."""
        parts = [text] if text else []
        files: list[discord.File] = []
        offer: Reply | None = None
        if news is not None:
            parts.append(news.line)
            if news.fresh:
                parts += [news.summary] if news.summary else []
                view = await self.bot.service.view(game_id, user_id)
                files += await picture_files(self.bot, news.ruleset, game_id, view, focus=news.focus)
                offer = await panel(self.bot, game_id, user_id)
        dm = await self.bot.create_dm(discord.Object(id=user_id))
        pieces = split_message("\n".join(parts))
        for i, piece in enumerate(pieces):
            await dm.send(piece, files=files if i == len(pieces) - 1 else [])
        if offer is not None and offer.view is not None:
            await dm.send(offer.content, view=offer.view)

    async def _ping(self, user_id: int, channel_id: int, game_id: str, news: _Turn | None) -> None:
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
            public = await self.bot.service.view(game_id, None)
            files += await picture_files(self.bot, news.ruleset, game_id, public, focus=news.focus)
        await self.send_channel(channel_id, "\n".join(lines), files=files, view=view)

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
