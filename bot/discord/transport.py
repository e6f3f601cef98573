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
instead (public data only), plus a button that shows a drawn empire card and
the keep/give choice ephemerally to that player alone.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

import discord

from bot.digest import digest
from bot.discord.base import play_command
from bot.models import MessageRef, Notice, Outcome
from engine.core import Event
from engine.registry import get_game

if TYPE_CHECKING:
    from bot.discord.client import AnnalsBot

log = logging.getLogger(__name__)

MAX_MESSAGE = 2000
DM_CLOSED = 50007  # Discord: "Cannot send messages to this user"
MENTION_USERS = discord.AllowedMentions(everyone=False, roles=False, users=True, replied_user=False)


def mention(user_id: int | None, name: str | None = None) -> str:
    """``<@id>`` for a person, else the seat's name."""
    if user_id is not None:
        return f"<@{int(user_id)}>"
    return name or "someone"


def timestamp(unix: float | int, style: str = "R") -> str:
    """A Discord timestamp that every reader sees in their own time zone (``<t:UNIX:R>``)."""
    return f"<t:{int(unix)}:{style}>"


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


def describe(notice: Notice, ruleset: str) -> str | None:
    """One line for a notice (None for bookkeeping nobody needs to read)."""
    d: Mapping[str, Any] = notice.data
    t = notice.type
    gid = notice.game_id
    if t == "lobby_opened":
        return (f"{mention(d.get('creator'))} opened a lobby for {d['title']} (game `{gid}`): "
                f"join with `/annals join game:{gid}`.")
    if t == "player_joined":
        return f"{mention(d.get('user_id'), d.get('name'))} joined game `{gid}`."
    if t == "player_left":
        return f"{d.get('name')} {'was removed from' if d.get('kicked') else 'left'} game `{gid}`."
    if t == "seat_added":
        return f"{d['name']} takes a seat in game `{gid}`" + (" (AI)." if d.get("ai") else ".")
    if t == "game_started":
        order = ", ".join(
            f"{s['seat'] + 1}. {mention(s.get('user_id'), s.get('name'))}{' (AI)' if s.get('ai') else ''}"
            for s in d.get("seats", []))
        return f"Game `{gid}` begins. Seat order: {order}."
    if t == "your_turn":
        due = f" (due {timestamp(d['due_at'])})" if d.get("due_at") else ""
        return f"Your move in game `{gid}`{due}: use `{play_command(ruleset)} game:{gid}`."
    if t == "reminder":
        due = timestamp(d["due_at"]) if d.get("due_at") else "soon"
        return f"Reminder: your move in game `{gid}` is due {due}."
    if t == "timeout":
        what = "the AI played the turn." if d.get("policy") == "ai" else "the turn was skipped."
        who = mention(d.get("user_id"), d.get("name"))
        return f"{who} missed the deadline ({d.get('missed')} in a row): {what}"
    if t == "autopilot":
        return (f"{mention(d.get('user_id'), d.get('name'))} missed too many deadlines: the AI plays that "
                "seat from now on.")
    if t in ("paused", "resumed", "abandoned"):
        return f"Game `{gid}` was {t} by {mention(d.get('by'))}."
    if t == "game_over":
        if "names" not in d:
            return None  # the engine's own event; the service's notice with names follows
        return f"Game `{gid}` is over. Final scores: {_score_table(d)}."
    if t == "seat_replaced":
        who = mention(d["user_id"], d.get("name")) if d.get("user_id") else "the AI"
        return f"Seat {int(d['seat']) + 1} of game `{gid}` is now played by {who}."
    if t == "seat_reclaimed":
        who = mention(d.get("user_id"), d.get("name"))
        return f"{who} takes their seat back from the AI in game `{gid}`."
    if t == "resigned":
        return f"{mention(d.get('old_user_id'))} resigned from game `{gid}`; the AI plays the seat."
    if t == "vacation":
        return f"{mention(d.get('user_id'), d.get('name'))} is away for {d['days']} day(s)."
    try:
        return get_game(ruleset).describe_event(Event(t, d))
    except (KeyError, TypeError, IndexError, ValueError):
        # A notice the game cannot word (an older log, a missing field) still reaches the thread.
        return f"{t.replace('_', ' ')}."


def _late_line(notice: Notice) -> str:
    """What a player who missed a deadline is told privately."""
    gid = notice.game_id
    if notice.type == "autopilot":
        return f"You missed too many deadlines in game `{gid}`: the AI plays your seat from now on."
    done = "the AI played your turn" if notice.data.get("policy") == "ai" else "your turn was skipped"
    return f"You missed the deadline in game `{gid}` ({notice.data.get('missed')} in a row): {done}."


def _score_table(d: Mapping[str, Any]) -> str:
    names = [str(n) for n in d.get("names", [])]
    scores = [int(x) for x in d.get("scores", [])]
    order = [int(r) for r in d.get("ranking", []) if 0 <= int(r) < len(scores)] or list(range(len(scores)))
    return ", ".join(f"{names[k] if k < len(names) else f'seat {k + 1}'} {scores[k]}" for k in order)


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
    fresh: bool  # False: they just moved and still must act (no board, no summary)


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

    def __init__(self, bot: AnnalsBot) -> None:
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
                    any(n.type == "game_started" for n in outcome.notices):
                await self._post(posts)  # what was said before the thread opened goes first
                posts = _Posts()
                thread_id = await self.open_thread(gid, status.channel_id, status.title)
            channel_id = thread_id or status.channel_id
            public: list[str] = []
            for notice in outcome.notices:
                if not notice.is_public:
                    for user in notice.audience:
                        item = news.setdefault((gid, int(user)), _News(int(user), gid, channel_id))
                        item.channel_id = channel_id
                        if notice.type in ("your_draw", "your_turn"):
                            item.turn = True
                        if notice.type != "your_turn":  # the turn line is written at sending time
                            text = describe(notice, status.ruleset)
                            if text and text not in item.lines:
                                item.lines.append(text)
                    continue
                text = describe(notice, status.ruleset)
                if text is None:
                    continue
                public.append(text)
                if notice.type == "game_started":
                    public.extend(self._turn_pings(outcome))
                late = notice.data.get("user_id") if notice.type in ("timeout", "autopilot") else None
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
                                        draw=item.turn, turn=item.turn)
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
        """The pinned status message: whose turn, the deadline, the scores (public data only)."""
        service = self.bot.service
        st = await service.status(game_id)
        names = {s.seat: s.name for s in st.seats if s.seat is not None}
        view: Mapping[str, Any] = {}
        if st.status in ("active", "paused", "over"):
            with contextlib.suppress(Exception):
                view = await service.view(game_id, None)  # a spectator's view: nothing hidden
        head = f"**{st.title}**, game `{game_id}`: move {st.seq}"
        if view.get("epoch_name"):
            head += f", {view['epoch_name']}"
        lines = [head + f" ({st.status})."]
        due = {d.user_id: d.due_at for d in st.deadlines if d.kind == "turn" and not d.fired}
        if st.status in ("active", "paused") and st.actors:
            people = []
            for player in st.actors:
                seat = next((s for s in st.seats if s.seat == player), None)
                if seat is None:
                    continue
                if seat.is_ai or seat.user_id is None:
                    people.append(f"{seat.name} (AI)")
                else:
                    when = f" (due {timestamp(due[seat.user_id])})" if seat.user_id in due else ""
                    people.append(mention(seat.user_id) + when)
            lines.append("Whose turn: " + ", ".join(people))
        raw: list[Any] = list(st.scores if st.scores is not None else view.get("scores") or [])
        # a number per seat, or a breakdown per seat with its total (Eight-Minute Empire)
        scores = [int(x["total"]) if isinstance(x, Mapping) else int(x) for x in raw]
        if scores:
            lines.append("Scores: " + ", ".join(
                f"{names.get(p, f'seat {p + 1}')} {int(x)}" for p, x in enumerate(scores)))
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
                           draw: bool = False, turn: bool = False) -> None:
        """DM ``text`` to a person; if their DMs are closed, ping them in the game's channel instead.

        With ``turn`` and the person to move now, the message also says so and,
        unless they just moved themselves, carries the board and what happened
        since their last move. With ``draw`` and an empire card theirs to place,
        the DM carries the card's picture and the keep/give select; the ping in
        the thread carries a button that shows them (to that person only).
        """
        news = await self.turn_news(game_id, user_id) if turn else None
        offer_wanted = draw and await self._draw_pending(game_id, user_id)
        if not text and not offer_wanted and (news is None or not news.fresh):
            return  # they just moved and still must act: the reply to their move said so
        settings = await self.bot.service.user_settings(user_id)
        if settings.dm_allowed:
            try:
                await self._send_dm(user_id, text, game_id, news, offer_wanted)
                return
            except discord.Forbidden as exc:
                if exc.code != DM_CLOSED:
                    raise
                log.info("DMs to user %s are closed; remembering it", user_id)
                await self.bot.service.set_user_settings(replace(settings, dm_allowed=False))
        if channel_id is not None:
            await self._ping(user_id, channel_id, game_id, news, offer_wanted)

    async def _send_dm(self, user_id: int, text: str, game_id: str, news: _Turn | None, offer: bool) -> None:
        """The news, board and summary in one message; a drawn card, its picture and select in another."""
        parts = [text] if text else []
        files: list[discord.File] = []
        if news is not None:
            parts.append(news.line)
            if news.fresh:
                parts += [news.summary] if news.summary else []
                files.append(await self.board_file(game_id, user_id))
        found = await self.draw_offer(game_id, user_id) if offer else None
        dm = await self.bot.create_dm(discord.Object(id=user_id))
        pieces = split_message("\n".join(parts))
        for i, piece in enumerate(pieces):
            await dm.send(piece, files=files if i == len(pieces) - 1 else [])
        if found is not None:
            line, card, view = found
            await dm.send(line, files=card, view=view)

    async def _ping(self, user_id: int, channel_id: int, game_id: str, news: _Turn | None,
                    offer: bool) -> None:
        """The public stand-in for a DM: a mention, public data only, and the card behind a button."""
        lines = [f"{mention(user_id)}, there is news for you in game `{game_id}` that I cannot send by DM"
                 + (f": {news.line[0].lower()}{news.line[1:]}" if news is not None else ".")]
        files: list[discord.File] = []
        view: discord.ui.View | None = None
        if offer:
            from bot.discord.moves import DrawButton

            seq = (await self.bot.service.status(game_id)).seq
            view = discord.ui.View(timeout=None)
            view.add_item(DrawButton(game_id, seq, user_id))
            lines.append("Your empire card waits behind the button below: only you will see it.")
        lines.append(f"Use `/annals hand game:{game_id}` or `/annals play game:{game_id}` to see it "
                     "(and `/annals dms enabled:True` once your DMs are open).")
        if news is not None and news.fresh:
            if news.summary:
                lines.append(news.summary)
            files.append(await self.board_file(game_id, None))
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
        line = f"Your move in game `{game_id}`{when}: use `{play_command(st.ruleset)} game:{game_id}`."
        last, entries = await service.since_last_move(game_id, seat.seat)
        if last is not None and all(e.get("player") == seat.seat for e in entries):
            return _Turn(line, "", fresh=False)  # nobody else moved since their own last move
        names = {s.seat: s.name for s in st.seats if s.seat is not None}
        describe = None if st.ruleset == "history-classic" else get_game(st.ruleset).describe_event
        summary = digest(entries, seat.seat, names, first=last is None, describe=describe)
        return _Turn(line, summary, fresh=True)

    async def board_file(self, game_id: str, user_id: int | None) -> discord.File:
        """The board picture as ``user_id`` sees it (None: a spectator, for public posts)."""
        import io

        from render.boards import render_board

        view = await self.bot.service.view(game_id, user_id)
        png = await self.bot.render(render_board, view, names=False, size=self.bot.board_size)
        return discord.File(io.BytesIO(png), filename=f"board-{game_id}-{view.get('seq', 0)}.png")

    async def _draw_pending(self, game_id: str, user_id: int) -> bool:
        _, legal = await self.bot.service.legal_actions(game_id, user_id)
        return any(a.get("kind") in ("keep", "give") for a in legal)

    async def draw_offer(self, game_id: str,
                         user_id: int) -> tuple[str, list[discord.File], discord.ui.View] | None:
        """The drawn empire card's name, picture and a keep/give select, while it is theirs to place."""
        from bot.discord.moves import draw_components

        return await draw_components(self.bot, game_id, user_id)
