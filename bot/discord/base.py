"""What every ``/annals`` command shares: deferring and answering, finding the game, autocomplete.

The command modules (:mod:`bot.discord.commands`, :mod:`bot.discord.info`,
:mod:`bot.discord.personal`, :mod:`bot.discord.admin`, the games' own groups)
define their commands as methods of classes deriving from :class:`CommandBase`;
the ``/annals`` group (and its ``admin`` subgroup) binds them, so ``self`` in a
command is the group and these helpers are at hand. No rules here.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from discord import app_commands

from bot.discord.kit import APOLOGY, MAX_OPTIONS, BotBase, Interaction, Reply, report
from bot.models import GameRow, GameStatusName, SeatInfo
from bot.service import ServiceError
from engine.registry import get_game

log = logging.getLogger(__name__)

LIVE: tuple[GameStatusName, ...] = ("lobby", "active", "paused")

# The personal commands, which make sense in a DM with the bot; every other command acts on a
# server's channel (a lobby's public posts, a board shown to everyone) and is refused in a DM.
# Discord sets contexts on top-level commands only, so /annals allows DMs and the rest is checked here.
DM_COMMANDS = frozenset({"annals games", "annals dms", "annals reminders", "annals vacation",
                         "annals hand", "annals play", "annals log"})
IN_SERVERS = app_commands.AppCommandContext(guild=True)
IN_SERVERS_AND_DMS = app_commands.AppCommandContext(guild=True, dm_channel=True)
SERVER_INSTALL = app_commands.AppInstallationType(guild=True)
NOT_IN_DMS = "This command works in a server's channel, not in a DM with the bot."


def manages_server(interaction: Interaction) -> bool:
    """Whether the caller may manage the server the command is used in (Manage Server or Administrator)."""
    if interaction.guild_id is None:  # a DM carries the permissions of no server
        return False
    perms = interaction.permissions
    return bool(perms.manage_guild or perms.administrator)


def is_admin(interaction: Interaction, game_guild: int | None) -> bool:
    """Whether the caller moderates a game of server ``game_guild`` as a server admin.

    Manage Server counts only in the game's own server: a manager of another server
    that has the bot must not pause or abandon this one by naming its (public) id.
    A game created outside any server has no server admins.
    """
    return game_guild is not None and interaction.guild_id == game_guild and manages_server(interaction)


def log_failure(interaction: Interaction) -> None:
    """Log the exception being handled with the command and where it was used (never shown to users)."""
    command = interaction.command.qualified_name if interaction.command else "?"
    report(log, "/%s failed (user %s, guild %s, channel %s)", command, interaction.user.id,
           interaction.guild_id, interaction.channel_id)


def seat_label(seat: SeatInfo) -> str:
    """A seat as a name with its place at the table, e.g. ``Bob (seat 2)`` or ``AI 1 (seat 3, AI)``."""
    where = f"seat {seat.seat + 1}" if seat.seat is not None else "lobby"
    return f"{seat.name} ({where}{', AI' if seat.is_ai else ''})"


if TYPE_CHECKING:
    # For the type checker the mixins are groups (discord.py's decorators want a Group as ``self``);
    # at run time they are plain classes and only AnnalsGroup / AdminGroup derive from Group.
    _Base = app_commands.Group
else:
    _Base = object


class CommandBase(_Base):
    """The helpers of the ``/annals`` commands; ``bot`` is set by the group."""

    bot: BotBase

    async def interaction_check(self, interaction: Interaction, /) -> bool:
        """Refuse every command but the personal ones in a DM (see :data:`DM_COMMANDS`)."""
        command = interaction.command.qualified_name if interaction.command else ""
        if interaction.guild_id is None and command not in DM_COMMANDS:
            raise app_commands.NoPrivateMessage(NOT_IN_DMS)
        return True

    async def _answer(self, interaction: Interaction, work: Callable[[], Awaitable[Reply]], *,
                      ephemeral: bool) -> None:
        """Defer, run ``work``, send its reply; refusals and errors become short private messages."""
        await interaction.response.defer(ephemeral=ephemeral, thinking=True)
        try:
            reply = await work()
        except ServiceError as exc:
            await self._private(interaction, exc.message, deferred_public=not ephemeral)
            return
        except Exception:
            log_failure(interaction)
            await self._private(interaction, APOLOGY, deferred_public=not ephemeral)
            return
        if reply.view is not None:
            await interaction.followup.send(reply.content, files=reply.files, view=reply.view,
                                            ephemeral=ephemeral)
        else:
            await interaction.followup.send(reply.content, files=reply.files, ephemeral=ephemeral)

    async def _show(self, interaction: Interaction, find: Callable[[], Awaitable[str]],
                    show: Callable[[str], Awaitable[Reply]]) -> None:
        """A public answer about one game: ``find`` names the game, ``show`` builds what everyone sees.

        The game is found before the public defer, so the likeliest refusal ("There is no
        game ...") is the private first response; a later one is made private by
        :meth:`_private`.
        """
        try:
            gid = await find()
        except ServiceError as exc:
            await interaction.response.send_message(exc.message, ephemeral=True)
            return
        except Exception:
            log_failure(interaction)
            await interaction.response.send_message(APOLOGY, ephemeral=True)
            return

        async def work() -> Reply:
            return await show(gid)
        await self._answer(interaction, work, ephemeral=False)

    @staticmethod
    async def _private(interaction: Interaction, text: str, *, deferred_public: bool) -> None:
        """Tell only the caller ``text`` after a defer.

        Discord ignores the ephemeral flag of the first follow-up after a public defer
        (that follow-up replaces the public "thinking..." message), so the public
        placeholder is deleted first and the follow-up is then a private message of its own.
        """
        if deferred_public:
            await interaction.delete_original_response()
        await interaction.followup.send(text, ephemeral=True)

    async def _game(self, interaction: Interaction, game: str | None, *, finished_ok: bool = False) -> str:
        """The game a command is about: the one named, else the caller's live game here or anywhere.

        With ``finished_ok`` (looking, not playing) a caller with no live game gets
        their most recently finished game here, or anywhere.
        """
        service = self.bot.service
        if game:
            return (await service.status(game.strip())).game_id  # refuses an unknown id
        mine = await self._games_of(interaction.user.id)
        live = [r for r in mine if r.status in LIVE]
        here = [r for r in live if interaction.channel_id in (r.channel_id, r.thread_id)]
        pick = here or live
        if len(pick) == 1:
            return pick[0].game_id
        if not pick and finished_ok:
            done = sorted((r for r in mine if r.status == "over"), key=lambda r: r.updated_at, reverse=True)
            done_here = [r for r in done if interaction.channel_id in (r.channel_id, r.thread_id)]
            if done_here or done:
                return (done_here or done)[0].game_id
        if not pick:
            raise ServiceError("no_such_game", "You are in no running game; create one or join one first.")
        raise ServiceError("ambiguous", "You play several games; say which one with the `game` option.")

    async def _games_of(self, user_id: int) -> list[GameRow]:
        """Every game ``user_id`` has a seat in, any status."""
        store = self.bot.service.store
        rows = [await store.get_game(gid) for gid in await store.games_of_user(user_id)]
        return [row for row in rows if row is not None]

    async def _managed_game(self, interaction: Interaction, game: str | None) -> str:
        """The game a moderation command is about: the one named, else the one played here.

        A moderator need not play: without ``game`` the live game of this channel (or
        its thread) is taken when there is exactly one, else the caller's own game.
        """
        if game:
            return await self._game(interaction, game)
        if interaction.channel_id is not None:
            rows = await self.bot.service.store.games_in_channel(interaction.channel_id, statuses=LIVE)
            if len(rows) == 1:
                return rows[0].game_id
        return await self._game(interaction, None)

    async def game_autocomplete(self, interaction: Interaction,
                                current: str) -> list[app_commands.Choice[str]]:
        """The caller's live games and the open lobbies of this server, matching what was typed."""
        service = self.bot.service
        rows = [r for r in await self._games_of(interaction.user.id) if r.status in LIVE]
        seen = {r.game_id for r in rows}
        if interaction.guild_id is not None:
            lobbies = await service.store.list_games(statuses=["lobby"], guild_id=interaction.guild_id)
            rows += [r for r in lobbies if r.game_id not in seen]
            seen |= {r.game_id for r in lobbies}
        if interaction.channel_id is not None:  # moderators: the game played in this channel or thread
            here = await service.store.games_in_channel(interaction.channel_id, statuses=LIVE)
            rows += [r for r in here if r.game_id not in seen]
        text = current.lower().strip()
        out = []
        for row in rows:
            label = f"{row.game_id} - {get_game(row.ruleset).title} ({row.status})"
            if text in label.lower():
                out.append(app_commands.Choice(name=label[:100], value=row.game_id))
        return out[:MAX_OPTIONS]

    async def _admin_of(self, interaction: Interaction, gid: str) -> bool:
        """:func:`is_admin` for game ``gid``: whether the caller manages the game's own server."""
        row = await self.bot.service.store.get_game(gid)
        return is_admin(interaction, row.guild_id if row is not None else None)

    async def _player(self, gid: str, user_id: int) -> int | None:
        st = await self.bot.service.status(gid)
        return next((s.seat for s in st.seats if s.user_id == user_id and not s.is_ai), None)

    async def _namespace_game(self, interaction: Interaction, *, finished_ok: bool = False) -> str | None:
        """For autocomplete: the game the command is about so far, or None."""
        game = getattr(interaction.namespace, "game", None)
        try:
            return await self._game(interaction, game if isinstance(game, str) else None,
                                    finished_ok=finished_ok)
        except ServiceError:
            return None
