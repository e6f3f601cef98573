"""The ``/annals`` slash commands: interactions -> service calls, for every game alike.

No rules here and no game here: every decision is the engine's, shown by the
generic decision panel (:mod:`bot.discord.panel`), and every text is the
game's own (``status_text``, ``hand_text``, ``summary_text``). Each command
defers first (the database and the renderer may take longer than Discord's 3
seconds), then answers with a follow-up; a refused request
(:class:`~bot.service.ServiceError`) is answered with its message, anything
unexpected is logged with its context and answered with a short apology.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Sequence
from dataclasses import replace

import discord
from discord import app_commands

from bot.config import parse_duration
from bot.digest import LATEST, latest_turn
from bot.discord.admin import AbandonButton, AdminGroup
from bot.discord.base import IN_SERVERS_AND_DMS, SERVER_INSTALL, CommandBase
from bot.discord.info import InfoCommands, LogButton
from bot.discord.kit import (
    MAX_MESSAGE,
    BotBase,
    GameId,
    Interaction,
    LongText,
    Reply,
    ShortText,
    clip,
    mention,
)
from bot.discord.orders import DYNAMIC_ITEMS as ORDER_ITEMS
from bot.discord.orders import orders_panel
from bot.discord.panel import panel
from bot.discord.personal import PersonalCommands
from bot.discord.pictures import picture_files
from bot.discord.words import clock_lines
from bot.models import TimerSettings
from bot.read_input import with_bank
from bot.service import ServiceError
from engine.core import IllegalAction
from engine.registry import get_game, spec, specs

log = logging.getLogger(__name__)


def _game_choices() -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=s.title[:100], value=s.id) for s in specs(offered=True)][:25]


HAND_ATTACHED = "\n(Your whole hand is in the attached file.)"
BOARD_ATTACHED = "\n(The whole board in words is in the attached file.)"


def long_reply(content: str, whole: str, filename: str, note: str,
               files: Sequence[discord.File] = ()) -> Reply:
    """``content`` in one message; longer than a message (a game that words whole cards, a large board),
    it starts in the message, says so with ``note``, and ``whole`` comes as a text file, never cut off."""
    if len(content) <= MAX_MESSAGE:
        return Reply(content, files=list(files))
    attached = discord.File(io.BytesIO(whole.encode()), filename=filename)
    return Reply(clip(content, MAX_MESSAGE - len(note)) + note, files=[*files, attached])


def hand_reply(gid: str, text: str) -> Reply:
    """A hand in one private message, whole in an attached file when longer than a message."""
    return long_reply(f"Game `{gid}`: {text}", text, f"hand-{gid}.txt", HAND_ATTACHED)


def board_reply(head: str, gid: str, text: str, files: Sequence[discord.File]) -> Reply:
    """The board in words after ``head``, with its pictures; whole in an attached file when longer than a
    message (a mid-game 7 Ages board runs to several thousand characters)."""
    return long_reply(f"{head}\n{text}", text, f"board-{gid}.txt", BOARD_ATTACHED, files)


class AnnalsGroup(InfoCommands, PersonalCommands, app_commands.Group):
    """``/annals ...``: lobby, play, information and personal commands, and the ``admin`` subgroup.

    The commands of :mod:`bot.discord.info` and :mod:`bot.discord.personal` are
    listed at the end of the class body, which is how discord.py binds them to this
    group; ``/annals admin ...`` is its own group.
    """

    def __init__(self, bot: BotBase) -> None:
        super().__init__(name="annals", description="Play slow games of history with Annals",
                         allowed_contexts=IN_SERVERS_AND_DMS, allowed_installs=SERVER_INSTALL)
        self.bot = bot
        self.admin = AdminGroup(bot, parent=self)
        # Buttons of these modules must work from the start, even on messages sent before a restart.
        bot.add_dynamic_items(LogButton, AbandonButton, *ORDER_ITEMS)

    # == lobby ===========================================================================
    @app_commands.command(name="create", description="Open a lobby for a new game in this channel")
    @app_commands.describe(
        ruleset="Which game to play",
        seats="How many seats the game has (each game has its own limits)",
        move_time="Time per move, like 24h, 3d or 90m (default 24h)",
        time_bank="Instead: a time bank, like 3d+12h (12 hours more a move) or 3d+12h/5d (at most 5 days)",
        on_timeout="What happens when a player misses the deadline",
        options="The game's options, comma separated: NAME turns one on, NAME=VALUE sets it, "
                "preset=P takes a set",
    )
    @app_commands.choices(ruleset=_game_choices(), on_timeout=[
        app_commands.Choice(name="the AI plays the turn", value="ai"),
        app_commands.Choice(name="the turn is skipped", value="skip"),
    ])
    async def create(self, interaction: Interaction, ruleset: str,
                     seats: app_commands.Range[int, 2, 6] | None = None, move_time: ShortText | None = None,
                     on_timeout: str | None = None, options: LongText | None = None,
                     time_bank: ShortText | None = None) -> None:
        async def work() -> Reply:
            timers = TimerSettings()
            if move_time:
                try:
                    seconds = parse_duration(move_time)
                except ValueError as exc:
                    raise ServiceError("bad_timers", str(exc)) from exc
                timers = replace(timers, move_seconds=seconds,
                                 reminder_offsets=tuple(r for r in timers.reminder_offsets if r < seconds))
            if on_timeout:
                timers = replace(timers, timeout_policy="skip" if on_timeout == "skip" else "ai")
            if time_bank:
                timers = with_bank(timers, time_bank)
                timers = replace(timers, reminder_offsets=tuple(r for r in timers.reminder_offsets
                                                                if r < timers.span))
            out = await self.bot.service.create_lobby(
                interaction.user.id, interaction.user.display_name, ruleset,
                options=game_options(ruleset, options), max_seats=seats, timers=timers,
                guild_id=interaction.guild_id, channel_id=interaction.channel_id)
            return Reply(f"Game `{out.game_id}` is open ({out.status.max_seats} seats). Others join with "
                         f"`/annals join game:{out.game_id}`; start it with `/annals start`.")
        await self._answer(interaction, work, ephemeral=True)

    @app_commands.command(name="join", description="Take a free seat in a lobby, or in a running game that "
                          "takes newcomers")
    @app_commands.describe(game="The game to join (its id)")
    async def join(self, interaction: Interaction, game: GameId) -> None:
        async def work() -> Reply:
            user = interaction.user
            out = await self.bot.service.join(game.strip(), user.id, user.display_name)
            return Reply(f"You joined game `{out.game_id}`.")
        await self._answer(interaction, work, ephemeral=True)

    @app_commands.command(name="leave", description="Give up your seat in a lobby")
    @app_commands.describe(game="The game (default: your game in this channel)")
    async def leave(self, interaction: Interaction, game: GameId | None = None) -> None:
        async def work() -> Reply:
            gid = await self._game(interaction, game)
            await self.bot.service.leave(gid, interaction.user.id)
            return Reply(f"You left game `{gid}`.")
        await self._answer(interaction, work, ephemeral=True)

    @app_commands.command(name="add-ai", description="Add an AI seat to a lobby (creator or Manage Server)")
    @app_commands.describe(game="The game (default: your game in this channel)")
    async def add_ai(self, interaction: Interaction, game: GameId | None = None) -> None:
        async def work() -> Reply:
            gid = await self._game(interaction, game)
            admin = await self._admin_of(interaction, gid)
            await self.bot.service.add_ai(gid, interaction.user.id, is_admin=admin)
            return Reply(f"An AI seat was added to game `{gid}`.")
        await self._answer(interaction, work, ephemeral=True)

    @app_commands.command(name="start", description="Start a game from its lobby (creator or Manage Server)")
    @app_commands.describe(game="The game (default: your game in this channel)")
    async def start(self, interaction: Interaction, game: GameId | None = None) -> None:
        async def work() -> Reply:
            gid = await self._game(interaction, game)
            admin = await self._admin_of(interaction, gid)
            await self.bot.service.start(gid, interaction.user.id, is_admin=admin)
            return Reply(f"Game `{gid}` has started.")
        await self._answer(interaction, work, ephemeral=True)

    # == information =====================================================================
    @app_commands.command(name="status", description="Seats, whose move it is, deadlines and scores")
    @app_commands.describe(game="The game (default: your game in this channel)")
    async def status(self, interaction: Interaction, game: GameId | None = None) -> None:
        async def find() -> str:
            return await self._game(interaction, game, finished_ok=True)

        async def work(gid: str) -> Reply:
            st = await self.bot.service.status(gid)
            lines = [f"**{st.title}** - game `{gid}`, {st.status}, move {st.seq}"]
            names = st.seat_names if st.status != "lobby" else []
            for seat in st.seats:
                order = f"{seat.seat + 1}." if seat.seat is not None else "-"
                named = names[seat.seat] if seat.seat is not None and seat.seat < len(names) else seat.name
                person = f", {mention(seat.user_id)}" if seat.user_id is not None else ""
                lines.append(f"{order} {named}{person}" + (" (AI)" if seat.is_ai else ""))
            if st.status == "lobby":
                lines.append(f"{len(st.seats)} of {st.max_seats} seats taken "
                             f"(at least {st.min_seats} to start).")
            else:
                view = await self.bot.service.view(gid, None)  # a spectator's view: nothing hidden
                lines.append(get_game(st.ruleset).status_text(view, names))
            lines += clock_lines(st)
            return Reply("\n".join(lines)[:2000])
        await self._show(interaction, find, work)

    @app_commands.command(name="board", description="Show the board as pictures to everyone here")
    @app_commands.describe(game="The game (default: your game in this channel)",
                           move="The board as it stood after this move (default: now)")
    async def board(self, interaction: Interaction, game: GameId | None = None,
                    move: app_commands.Range[int, 0, 10_000_000] | None = None) -> None:
        async def find() -> str:
            gid = await self._game(interaction, game, finished_ok=True)
            if (await self.bot.service.status(gid)).status == "lobby":
                raise ServiceError("not_started", f"Game `{gid}` has not started: there is no board yet.")
            return gid

        async def work(gid: str) -> Reply:
            st = await self.bot.service.status(gid)
            if move is not None:  # rebuilt from the records, as a spectator saw it then: never a hand
                view = await self.bot.service.view_at(gid, None, move)
                files = await picture_files(self.bot, st.ruleset, gid, view, size=self.bot.board_size)
                text = get_game(st.ruleset).board_text(view, st.seat_names)
                head = f"The board of game `{gid}` after move {move} of {st.seq}."
                return board_reply(head, gid, text, files)
            view = await self.bot.service.view(gid, None)  # public: a spectator's view, never a hand
            _, _, entries = await self.bot.service.public_log_slice(gid, None, LATEST)
            # The game's notice pictures (a close-up of the latest turn, where the game has one), at the
            # bot's full board width: here a player asked to study the board.
            files = await picture_files(self.bot, st.ruleset, gid, view, focus=latest_turn(entries),
                                        size=self.bot.board_size)
            text = get_game(st.ruleset).board_text(view, st.seat_names)
            return board_reply(f"The board of game `{gid}` after move {view.get('seq', 0)}.", gid, text,
                               files)
        await self._show(interaction, find, work)

    @app_commands.command(name="hand", description="What you hold in a game (only you see this)")
    @app_commands.describe(game="The game (default: your game in this channel)")
    async def hand(self, interaction: Interaction, game: GameId | None = None) -> None:
        async def work() -> Reply:
            gid = await self._game(interaction, game, finished_ok=True)
            st = await self.bot.service.status(gid)
            seat = next((s.seat for s in st.seats if s.user_id == interaction.user.id), None)
            if seat is None or st.status == "lobby":
                return Reply(f"You have no seat (or no hand yet) in game `{gid}`.")
            view = await self.bot.service.view(gid, interaction.user.id)
            text = get_game(st.ruleset).hand_text(view, seat, st.seat_names)
            return hand_reply(gid, text)
        await self._answer(interaction, work, ephemeral=True)

    # == play ============================================================================
    @app_commands.command(name="play", description="Your decision now, with buttons and lists (only for you)")
    @app_commands.describe(game="The game (default: your game in this channel)")
    async def play(self, interaction: Interaction, game: GameId | None = None) -> None:
        async def work() -> Reply:
            gid = await self._game(interaction, game)
            return await panel(self.bot, gid, interaction.user.id)
        await self._answer(interaction, work, ephemeral=True)

    @app_commands.command(name="orders", description="Your standing orders: moves made at any time, seen by "
                          "you alone (only for you)")
    @app_commands.describe(game="The game (default: your game in this channel)")
    async def orders(self, interaction: Interaction, game: GameId | None = None) -> None:
        async def work() -> Reply:
            gid = await self._game(interaction, game)
            return await orders_panel(self.bot, gid, interaction.user.id)
        await self._answer(interaction, work, ephemeral=True)

    # == personal ========================================================================
    @app_commands.command(name="dms", description="Turn direct messages from Annals (cards, turns) on or off")
    @app_commands.describe(enabled="Whether Annals may send you direct messages")
    async def dms(self, interaction: Interaction, enabled: bool) -> None:
        async def work() -> Reply:
            settings = await self.bot.service.user_settings(interaction.user.id)
            await self.bot.service.set_user_settings(replace(settings, dm_allowed=enabled))
            return Reply("Direct messages are on." if enabled else
                         "Direct messages are off: I will ping you in the game's channel instead.")
        await self._answer(interaction, work, ephemeral=True)

    leave.autocomplete("game")(CommandBase.game_autocomplete)
    add_ai.autocomplete("game")(CommandBase.game_autocomplete)
    start.autocomplete("game")(CommandBase.game_autocomplete)
    status.autocomplete("game")(CommandBase.game_autocomplete)
    board.autocomplete("game")(CommandBase.game_autocomplete)
    hand.autocomplete("game")(CommandBase.game_autocomplete)
    play.autocomplete("game")(CommandBase.game_autocomplete)
    orders.autocomplete("game")(CommandBase.game_autocomplete)
    join.autocomplete("game")(CommandBase.game_autocomplete)

    # the commands of the other modules: listed here, discord.py binds them to this group
    log = InfoCommands.log
    card = InfoCommands.card
    empire = InfoCommands.empire
    area = InfoCommands.area
    tracks = InfoCommands.tracks
    games = PersonalCommands.games
    reminders = PersonalCommands.reminders
    vacation = PersonalCommands.vacation


def game_options(ruleset: str, text: str | None) -> dict[str, object]:
    """The options in ``text`` ("goods_tokens, youngest=2"), each checked against the game's own;
    ``preset=NAME`` takes a preset's values first, and the options named beside it override them."""
    try:
        game_spec = spec(ruleset)
    except KeyError as exc:
        raise ServiceError("unknown_ruleset", f"There is no game {ruleset!r}.") from exc
    preset: dict[str, object] = {}
    out: dict[str, object] = {}
    for part in (text or "").split(","):
        name, _, value = part.partition("=")
        name = name.strip().lower().replace(" ", "_").replace("-", "_")
        if not name:
            continue
        try:
            if name == "preset":
                preset = dict(game_spec.preset(value))
            else:
                out[name] = game_spec.option(name).parse(value)
        except IllegalAction as exc:
            raise ServiceError(exc.code, exc.message) from exc
    return preset | out

