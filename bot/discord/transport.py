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
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import discord

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
        return f"Your move in game `{gid}`{due}: use `/annals play game:{gid}`."
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
    if ruleset.startswith("history-"):
        from engine.history.text import describe_event

        rules = getattr(get_game(ruleset), "rules", None)
        try:
            return describe_event(Event(t, d), rules)  # type: ignore[arg-type]
        except (KeyError, TypeError, IndexError, ValueError):
            pass
    return f"{t.replace('_', ' ')}."


def _score_table(d: Mapping[str, Any]) -> str:
    names = [str(n) for n in d.get("names", [])]
    scores = [int(x) for x in d.get("scores", [])]
    order = [int(r) for r in d.get("ranking", []) if 0 <= int(r) < len(scores)] or list(range(len(scores)))
    return ", ".join(f"{names[k] if k < len(names) else f'seat {k + 1}'} {scores[k]}" for k in order)


class Transport:
    """Delivers the notices of every outcome the service publishes."""

    def __init__(self, bot: AnnalsBot) -> None:
        self.bot = bot
        self._queue: asyncio.Queue[Outcome] = asyncio.Queue()
        self._worker: asyncio.Task[None] | None = None
        self._shown: dict[str, str] = {}  # game id -> the status text last shown

    def on_outcome(self, outcome: Outcome) -> None:
        """The service listener: queue the outcome (never blocks the service)."""
        self._queue.put_nowait(outcome)

    def start(self) -> None:
        """Start the delivery worker (from ``setup_hook``)."""
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
        while True:
            outcome = await self._queue.get()
            try:
                await self.deliver(outcome)
            except Exception:
                log.exception("could not deliver the notices of game %s (seq %s)", outcome.game_id,
                              outcome.status.seq)
            finally:
                self._queue.task_done()

    async def deliver(self, outcome: Outcome) -> None:
        """Send an outcome's public lines to the game's thread (or channel) and private ones by DM.

        The game's thread is opened when the game starts (``game_started``); from
        then on its pinned status message is edited after every outcome.
        """
        status = outcome.status
        gid = outcome.game_id
        row = await self.bot.service.store.get_game(gid)
        thread_id = row.thread_id if row is not None else status.thread_id
        if thread_id is None and status.channel_id is not None and \
                any(n.type == "game_started" for n in outcome.notices):
            thread_id = await self.open_thread(gid, status.channel_id, status.title)
        channel_id = thread_id or status.channel_id
        public: list[str] = []
        private: dict[int, list[str]] = {}
        drawers: set[int] = set()
        for notice in outcome.notices:
            text = describe(notice, status.ruleset)
            if text is None:
                continue
            if notice.is_public:
                public.append(text)
                if notice.type == "game_started":
                    public.extend(self._turn_pings(outcome))
            else:
                for user in notice.audience:
                    private.setdefault(int(user), []).append(text)
                    if notice.type in ("your_draw", "your_turn"):
                        drawers.add(int(user))
        if public and channel_id is not None:
            await self.send_channel(channel_id, "\n".join(public))
        for user, lines in private.items():
            await self.send_private(user, "\n".join(lines), channel_id, gid, draw=user in drawers)
        if thread_id is not None:
            await self.update_status(gid, thread_id)

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
        scores = st.scores if st.scores is not None else view.get("scores")
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

    async def send_channel(self, channel_id: int, text: str) -> None:
        """Post ``text`` (split as needed) in a channel or thread by id."""
        channel = self.bot.get_partial_messageable(channel_id)
        for piece in split_message(text):
            await channel.send(piece, allowed_mentions=MENTION_USERS)

    async def send_private(self, user_id: int, text: str, channel_id: int | None, game_id: str, *,
                           draw: bool = False) -> None:
        """DM ``text`` to a person; if their DMs are closed, ping them in the game's channel instead.

        With ``draw`` (they may have just drawn an empire card) the DM also carries
        the card's picture and a select to keep it or give it away, if it is so.
        """
        settings = await self.bot.service.user_settings(user_id)
        if settings.dm_allowed:
            try:
                dm = await self.bot.create_dm(discord.Object(id=user_id))
                pieces = split_message(text)
                offer = await self.draw_offer(game_id, user_id) if draw else None
                for i, piece in enumerate(pieces):
                    if offer is not None and i == len(pieces) - 1:
                        line, files, view = offer
                        await dm.send(f"{piece}\n{line}"[:MAX_MESSAGE], files=files, view=view)
                    else:
                        await dm.send(piece)
                return
            except discord.Forbidden as exc:
                if exc.code != DM_CLOSED:
                    raise
                log.info("DMs to user %s are closed; remembering it", user_id)
                await self.bot.service.set_user_settings(replace(settings, dm_allowed=False))
        if channel_id is not None:
            await self.send_channel(
                channel_id,
                f"{mention(user_id)}, there is news for you in game `{game_id}` that I cannot send by DM. "
                f"Use `/annals hand game:{game_id}` or `/annals play game:{game_id}` to see it "
                "(and `/annals dms enabled:True` once your DMs are open).")

    async def draw_offer(self, game_id: str,
                         user_id: int) -> tuple[str, list[discord.File], discord.ui.View] | None:
        """The drawn empire card's name, picture and a keep/give select, while it is theirs to place."""
        from bot.discord.moves import draw_components

        return await draw_components(self.bot, game_id, user_id)
