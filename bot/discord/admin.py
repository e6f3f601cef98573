"""``/annals admin ...``: pause, resume, kick, replace, timer, abandon.

Allowed to the game's creator and to members with Manage Server (or
Administrator) in the game's own server: the adapter passes ``is_admin`` from
the interaction's permissions, counted only when the command is used in the
server the game was created in, and the service decides, so everyone else gets
the service's refusal, ephemerally, and nothing changes. The public news
(paused, resumed, seat replaced...) reaches the game's thread as service notices.

These live in a subgroup because Discord allows at most 25 subcommands in a
group and ``/annals`` has 24 others.
"""

from __future__ import annotations

import logging
import re
from dataclasses import replace
from typing import Any

import discord
from discord import app_commands

from bot.config import parse_duration
from bot.discord.base import CommandBase, is_admin, seat_label
from bot.discord.kit import (
    APOLOGY,
    MAX_OPTIONS,
    BotBase,
    GameId,
    Interaction,
    Reply,
    ShortText,
    bot_of,
    report,
    span,
)
from bot.models import GameStatus, SeatInfo, TimerSettings
from bot.read_input import with_bank
from bot.service import ServiceError

log = logging.getLogger(__name__)

ABANDON_ID = re.compile(r"annals:abandon:(?P<game>[a-z0-9]{1,32}):(?P<seq>[0-9]{1,9})")
REFUSED = "Only the game's creator or a member with Manage Server may do that; nothing was changed."
MENTION = re.compile(r"<@!?(\d+)>")


def may_manage(st: GameStatus, interaction: Interaction) -> bool:
    """The service's rule, to refuse early (before a confirmation is shown); the service checks again."""
    return interaction.user.id == st.creator_id or is_admin(interaction, st.guild_id)


def find_seat(st: GameStatus, text: str) -> SeatInfo:
    """The seat named by a user id, a mention, a seat number (``2`` or ``seat 2``) or a name."""
    wanted = text.strip()
    mention = MENTION.fullmatch(wanted)
    if mention:
        wanted = mention.group(1)
    low = wanted.lower().removeprefix("seat").strip()
    for seat in st.seats:
        if wanted.isdigit() and seat.user_id == int(wanted):
            return seat
    if low.isdigit() and len(low) <= 2:
        found = next((s for s in st.seats if s.seat is not None and s.seat + 1 == int(low)), None)
        if found is not None:
            return found
    found = next((s for s in st.seats if s.name.lower() == wanted.lower()), None)
    if found is None:
        found = next((s for s in st.seats if seat_label(s).lower() == wanted.lower()), None)
    if found is None:
        raise ServiceError("not_seated", f"There is no player {text!r} in game `{st.game_id}`.")
    return found


def _seat_value(seat: SeatInfo) -> str:
    if seat.user_id is not None:
        return str(seat.user_id)
    return f"seat {seat.seat + 1}" if seat.seat is not None else seat.name


def timers_text(t: TimerSettings) -> str:
    """Timer settings in words."""
    reminders = ", ".join(span(r) for r in sorted(t.reminder_offsets, reverse=True)) or "none"
    policy = "the AI plays the turn" if t.timeout_policy == "ai" else "the turn is skipped"
    misses = f"after {t.misses_before_ai} missed in a row" if t.misses_before_ai else "never"
    clock = (f"a time bank of {span(t.bank_seconds)}, {span(t.bank_increment)} more after each move"
             + (f", at most {span(t.bank_cap)}" if t.bank_cap else "")) if t.bank_seconds \
        else f"time per move {span(t.move_seconds)}"
    return (f"{clock}; reminders {reminders} before the deadline; "
            f"on a missed deadline {policy}; the AI takes the seat for good {misses}.")


class AdminGroup(CommandBase, app_commands.Group):
    """Moderation of a game: its creator, or members with Manage Server."""

    def __init__(self, bot: BotBase, *, parent: app_commands.Group) -> None:
        super().__init__(name="admin", parent=parent,
                         description="Moderate a game (its creator, or members with Manage Server)")
        self.bot = bot

    async def player_autocomplete(self, interaction: Interaction,
                                  current: str) -> list[app_commands.Choice[str]]:
        """The game's seats (people for ``kick``, every seat for ``replace``)."""
        game = getattr(interaction.namespace, "game", None)
        try:
            gid = await self._managed_game(interaction, game if isinstance(game, str) else None)
            st = await self.bot.service.status(gid)
        except ServiceError:
            return []
        command = interaction.command.name if interaction.command else ""
        seats = [s for s in st.seats if command != "kick" or (s.user_id is not None and not s.is_ai)]
        typed = current.lower().strip()
        return [app_commands.Choice(name=seat_label(s)[:100], value=_seat_value(s))
                for s in seats if typed in seat_label(s).lower()][:MAX_OPTIONS]

    @app_commands.command(name="pause", description="Pause a game: clocks stop and nobody can move")
    @app_commands.describe(game="The game (default: the game of this channel)")
    async def pause(self, interaction: Interaction, game: GameId | None = None) -> None:
        async def work() -> Reply:
            gid = await self._managed_game(interaction, game)
            admin = await self._admin_of(interaction, gid)
            await self.bot.service.pause(gid, interaction.user.id, is_admin=admin)
            return Reply(f"Game `{gid}` is paused. `/annals admin resume` starts the clocks again.")
        await self._admin(interaction, work)

    @app_commands.command(name="resume", description="Resume a paused game with fresh clocks")
    @app_commands.describe(game="The game (default: the game of this channel)")
    async def resume(self, interaction: Interaction, game: GameId | None = None) -> None:
        async def work() -> Reply:
            gid = await self._managed_game(interaction, game)
            admin = await self._admin_of(interaction, gid)
            await self.bot.service.resume(gid, interaction.user.id, is_admin=admin)
            return Reply(f"Game `{gid}` goes on; whoever must move has a fresh clock.")
        await self._admin(interaction, work)

    @app_commands.command(name="kick", description="Remove a player: from a lobby, or the AI takes the seat")
    @app_commands.describe(player="The player (their seats are offered)",
                           game="The game (default: the game of this channel)")
    async def kick(self, interaction: Interaction, player: ShortText, game: GameId | None = None) -> None:
        async def work() -> Reply:
            gid = await self._managed_game(interaction, game)
            seat = find_seat(await self.bot.service.status(gid), player)
            if seat.user_id is None or seat.is_ai:
                raise ServiceError("not_seated", f"{seat.name} is played by the AI; use `/annals admin "
                                   "replace` to give the seat to someone.")
            await self.bot.service.kick(gid, interaction.user.id, seat.user_id,
                                        is_admin=await self._admin_of(interaction, gid))
            return Reply(f"{seat.name} was removed from game `{gid}`.")
        await self._admin(interaction, work)

    @app_commands.command(name="replace", description="Give a seat to another person, or to the AI")
    @app_commands.describe(player="The seat to give (the game's seats are offered)",
                           by="The person who takes it over (leave empty: the AI plays it)",
                           game="The game (default: the game of this channel)")
    async def replace_seat(self, interaction: Interaction, player: ShortText, by: discord.User | None = None,
                           game: GameId | None = None) -> None:
        async def work() -> Reply:
            gid = await self._managed_game(interaction, game)
            seat = find_seat(await self.bot.service.status(gid), player)
            if seat.seat is None:
                raise ServiceError("not_started", "The game has not started; seats change by join and leave.")
            if by is not None and by.bot:
                raise ServiceError("bad_seats", "A bot cannot take a seat; leave `by` empty for the AI.")
            await self.bot.service.replace_seat(
                gid, interaction.user.id, seat.seat, new_user_id=by.id if by is not None else None,
                new_name=by.display_name if by is not None else None,
                is_admin=await self._admin_of(interaction, gid))
            who = f"<@{by.id}>" if by is not None else "the AI"
            return Reply(f"Seat {seat.seat + 1} ({seat.name}) of game `{gid}` is now played by {who}.")
        await self._admin(interaction, work)

    @app_commands.command(name="timer", description="Change the time per move, reminders or timeout policy")
    @app_commands.describe(move_time="Time per move, like 24h, 3d or 90m",
                           reminders="Reminders before the deadline, like \"4h, 1h\", or none",
                           on_timeout="What happens when a player misses the deadline",
                           misses="Missed deadlines in a row before the AI takes the seat (0: never)",
                           time_bank="A time bank, like 3d+12h or 3d+12h/5d; off: a time per move",
                           game="The game (default: the game of this channel)")
    @app_commands.choices(on_timeout=[
        app_commands.Choice(name="the AI plays the turn", value="ai"),
        app_commands.Choice(name="the turn is skipped", value="skip"),
    ])
    async def timer(self, interaction: Interaction, move_time: ShortText | None = None,
                    reminders: ShortText | None = None, on_timeout: str | None = None,
                    misses: app_commands.Range[int, 0, 100] | None = None,
                    game: GameId | None = None, time_bank: ShortText | None = None) -> None:
        async def work() -> Reply:
            gid = await self._managed_game(interaction, game)
            st = await self.bot.service.status(gid)
            if move_time is None and reminders is None and on_timeout is None and misses is None \
                    and time_bank is None:
                return Reply(f"Timers of game `{gid}`: {timers_text(st.timers)}")
            timers = st.timers
            try:
                if move_time is not None:
                    seconds = parse_duration(move_time)
                    timers = replace(timers, move_seconds=seconds, reminder_offsets=tuple(
                        r for r in timers.reminder_offsets if r < seconds))
                if reminders is not None:
                    words = [w.strip() for w in reminders.split(",") if w.strip()]
                    offsets = () if [w.lower() for w in words] in ([], ["none"]) else \
                        tuple(sorted({parse_duration(w) for w in words}, reverse=True))
                    timers = replace(timers, reminder_offsets=offsets)
            except ValueError as exc:
                raise ServiceError("bad_timers", str(exc)) from exc
            if on_timeout is not None:
                timers = replace(timers, timeout_policy="skip" if on_timeout == "skip" else "ai")
            if misses is not None:
                timers = replace(timers, misses_before_ai=misses)
            if time_bank is not None:
                timers = with_bank(timers, time_bank)
            await self.bot.service.set_timers(gid, interaction.user.id, timers,
                                              is_admin=await self._admin_of(interaction, gid))
            return Reply(f"Timers of game `{gid}` changed: {timers_text(timers)} Running clocks start again.")
        await self._admin(interaction, work)

    @app_commands.command(name="abandon", description="End a game without a result (asks for a confirmation)")
    @app_commands.describe(game="The game (default: the game of this channel)")
    async def abandon(self, interaction: Interaction, game: GameId | None = None) -> None:
        async def work() -> Reply:
            gid = await self._managed_game(interaction, game)
            st = await self.bot.service.status(gid)
            if not may_manage(st, interaction):
                raise ServiceError("not_allowed", REFUSED)
            if st.status in ("over", "abandoned"):
                return Reply(f"Game `{gid}` is {st.status} already.")
            view = discord.ui.View(timeout=None)
            view.add_item(AbandonButton(gid, st.seq))
            return Reply(f"Abandon game `{gid}` ({st.title}, move {st.seq})? It ends without a result "
                         "for everyone; its log is kept.", view=view)
        await self._admin(interaction, work)

    async def _admin(self, interaction: Interaction, work: Any) -> None:
        """Answer ephemerally; a refusal says who may do it (the thread hears what was done)."""
        async def guarded() -> Reply:
            try:
                reply: Reply = await work()
            except ServiceError as exc:
                if exc.code == "not_allowed":
                    raise ServiceError("not_allowed", REFUSED) from exc
                raise
            return reply
        await self._answer(interaction, guarded, ephemeral=True)

    for _command in (pause, resume, kick, replace_seat, timer, abandon):
        _command.autocomplete("game")(CommandBase.game_autocomplete)
    kick.autocomplete("player")(player_autocomplete)
    replace_seat.autocomplete("player")(player_autocomplete)
    del _command


class AbandonButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=ABANDON_ID.pattern):
    """The confirmation of ``/annals admin abandon``; it carries the game and the seq it was asked at."""

    def __init__(self, game_id: str, seq: int) -> None:
        self.game_id = game_id
        self.seq = seq
        button: discord.ui.Button[Any] = discord.ui.Button(
            custom_id=f"annals:abandon:{game_id}:{seq}", label="Yes, abandon the game",
            style=discord.ButtonStyle.danger)
        super().__init__(button)

    @classmethod
    async def from_custom_id(cls, interaction: Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> AbandonButton:
        return cls(match["game"], int(match["seq"]))

    async def interaction_check(self, interaction: Interaction, /) -> bool:
        """Only the creator or a server manager may press it; anyone else is told so, privately."""
        bot = bot_of(interaction)
        try:
            allowed = may_manage(await bot.service.status(self.game_id), interaction)
        except ServiceError as exc:
            await interaction.response.send_message(exc.message, ephemeral=True)
            return False
        if not allowed:
            await interaction.response.send_message(REFUSED, ephemeral=True)
        return allowed

    async def callback(self, interaction: Interaction) -> None:
        bot = bot_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            st = await bot.service.status(self.game_id)
            if st.seq != self.seq:
                text = (f"Game `{self.game_id}` has moved on since you asked; nothing was done. "
                        "Use `/annals admin abandon` again if you still want to.")
            else:
                await bot.service.abandon(self.game_id, interaction.user.id,
                                          is_admin=is_admin(interaction, st.guild_id))
                text = f"Game `{self.game_id}` is abandoned."
        except ServiceError as exc:
            text = REFUSED if exc.code == "not_allowed" else exc.message
        except Exception:
            report(log, "abandon failed (user %s, game %s, seq %s)", interaction.user.id, self.game_id,
                   self.seq)
            text = APOLOGY
        await interaction.followup.send(text, ephemeral=True)
