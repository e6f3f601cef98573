"""What every Discord module shares: the bot's base class, answers, click checks. No rules here.

:class:`BotBase` is the part of the client every command and component needs
(the service, the renderer slots, the board size); :class:`~bot.discord.client.AnnalsBot`
derives from it. Modules find their bot with :func:`bot_of`, which checks the
interaction's client against this base, so nothing below ``client.py`` imports
the client module and the package has no import cycle.

Who may click is checked in each item's ``interaction_check`` (see
:func:`check_clicker`). discord.py drops a dynamic item's interaction without
a word when that check fails (and treats an exception there as a failure), so
the check itself defers and answers the refusal ephemerally before returning
False: the person always learns why nothing happened.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import sys
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import discord
from discord import app_commands

from bot.service import GameService, ServiceError
from bot.service.text_input import MAX_TEXT, checked_text
from engine.words import shorten

log = logging.getLogger(__name__)
T = TypeVar("T")

# Free-text options, bounded so Discord refuses an overlong value before it reaches us.
GameId = app_commands.Range[str, 1, 40]  # a game's id (at most 32 characters), picked or typed
ShortText = app_commands.Range[str, 1, 100]  # a name, a person, a place, a duration
LongText = app_commands.Range[str, 1, 500]  # a list: lands, options, points

# Discord's answers when an interaction can no longer be answered: 10062 (unknown interaction, not
# acknowledged within 3 s) and 50027 (invalid webhook token, older than 15 minutes). They are the
# network's doing, not a bug here, and nobody can be told anything more: one warning line each.
GONE = {10062: "the interaction expired before it was answered",
        50027: "the interaction's token expired"}


def gone(error: BaseException | None) -> str | None:
    """Why ``error`` (or what it wraps) is Discord saying the interaction is gone, else None."""
    while isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    if isinstance(error, discord.HTTPException):
        return GONE.get(error.code)
    return None


def report(logger: logging.Logger, message: str, *args: object, error: BaseException | None = None) -> None:
    """Log a failure (``error``, else the exception being handled): with its traceback, but an
    interaction Discord no longer knows (:data:`GONE`) as one warning line."""
    error = error if error is not None else sys.exc_info()[1]
    why = gone(error)
    if why is not None:
        logger.warning(message + ": %s", *args, why)
    else:
        logger.error(message, *args, exc_info=error)


class GoneFilter(logging.Filter):
    """discord.py logs what it swallows with its traceback (an autocomplete answered after Discord
    forgot the interaction, a view's callback): when the cause is one of :data:`GONE`, the record
    becomes one warning line, as :func:`report` writes ours."""

    def filter(self, record: logging.LogRecord) -> bool:
        why = gone(record.exc_info[1] if record.exc_info else None)
        if why is not None:
            record.msg, record.args = f"{record.getMessage()}: {why}", None
            record.levelno, record.levelname = logging.WARNING, logging.getLevelName(logging.WARNING)
            record.exc_info, record.exc_text = None, None
        return True


GONE_FILTER = GoneFilter()
# the discord.py modules that log an exception they caught (a filter acts on its own logger's records)
DISCORD_LOGGERS = ("discord.app_commands.tree", "discord.ui.view", "discord.ui.modal", "discord.client")


def quiet_gone_interactions() -> None:
    """Install :class:`GoneFilter` on discord.py's loggers (once; adding it again changes nothing)."""
    for name in DISCORD_LOGGERS:
        logging.getLogger(name).addFilter(GONE_FILTER)


def typed_problem(data: Any) -> str | None:
    """Why a command's text options may not be read (:func:`bot.service.text_input.checked_text`):
    the refusal of the first bad one in the interaction ``data`` (subcommands included), or None."""
    stack = list(data.get("options") or []) if isinstance(data, dict) else []
    while stack:
        option = stack.pop(0)
        if not isinstance(option, dict):
            continue
        stack += list(option.get("options") or [])
        value = option.get("value")
        if isinstance(value, str):
            name = option.get("name")
            what = f"The {name} option" if isinstance(name, str) and name.isascii() and name.isprintable() \
                else "An option"
            try:
                checked_text(value, what, MAX_TEXT)
            except ServiceError as exc:
                return exc.message
    return None


APOLOGY = "Sorry, something went wrong on my side; nothing more was done. The error has been logged."
CHANGED = "This command has changed; a server admin can run `python -m bot sync`."
OUT_OF_DATE = ("This message is out of date: the game has moved on. "
               "Use `/annals play` for your current choices.")
GAME = r"[a-z0-9]{1,32}"  # a game id in a custom_id pattern
SEQ = r"[0-9]{1,9}"
USER = r"[0-9]{1,20}"
MAX_MESSAGE = 2000
MAX_OPTIONS = 25  # choices per select or autocomplete answer
MAX_BUTTON = 80  # characters of a button label

Interaction = discord.Interaction[Any]


@dataclass
class Reply:
    """What a command or a click answers with."""

    content: str
    files: list[discord.File] = field(default_factory=list)
    view: discord.ui.View | None = None


class BotBase(discord.Client):
    """The client as commands and components see it: the service and the picture executor.

    Args:
        service: the game service (shared with the scheduler).
        render_limit: how many pictures may be drawn at once (in the default executor).
        board_size: the width of board pictures in pixels.
        **options: passed to :class:`discord.Client`.
    """

    tree: app_commands.CommandTree[Any]  # set by the client, before any game adds its group

    def __init__(self, service: GameService, *, render_limit: int = 2, board_size: int = 1600,
                 **options: Any) -> None:
        super().__init__(**options)
        self.service = service
        self.board_size = board_size
        self._render_slots = asyncio.Semaphore(render_limit)

    async def render(self, func: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
        """Run a picture function in the default executor, at most ``render_limit`` at a time."""
        async with self._render_slots:
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(None, functools.partial(func, *args, **kwargs))


def bot_of(interaction: Interaction) -> BotBase:
    """The bot an interaction reached."""
    bot = interaction.client
    if not isinstance(bot, BotBase):  # pragma: no cover - only an Annals client registers our items
        raise TypeError("an Annals component reached a client that is not Annals")
    return bot


def clip(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters after a whole word, with an ellipsis when cut."""
    return shorten(text, limit)


def mention(user_id: int | None, name: str | None = None) -> str:
    """``<@id>`` for a person, else the seat's name."""
    if user_id is not None:
        return f"<@{int(user_id)}>"
    return name or "someone"


def span(seconds: int) -> str:
    """Seconds as a short duration: ``1d6h``, ``45m``."""
    days, rest = divmod(int(seconds), 86400)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60
    return "".join(f"{n}{u}" for n, u in ((days, "d"), (hours, "h"), (minutes, "m")) if n) or f"{seconds}s"


def timestamp(unix: float | int, style: str = "R") -> str:
    """A Discord timestamp that every reader sees in their own time zone (``<t:UNIX:R>``)."""
    return f"<t:{int(unix)}:{style}>"


async def refusal(bot: BotBase, user_id: int, game_id: str, seq: int | None, for_user: int | None = None, *,
                  stale: str = OUT_OF_DATE, anytime: bool = False) -> str | None:
    """Why ``user_id`` may not use a component of ``game_id`` built at ``seq`` (None: they may).

    Only the person a component was made for (``for_user``), seated in the game
    and holding their seat themselves, whose move it is (whatever the turn with
    ``anytime``: a standing order), on the board as it was when the component was
    made (``seq`` None: any seq will do).
    """
    if for_user is not None and user_id != for_user:
        return f"This is for <@{for_user}>, not for you."
    try:
        st = await bot.service.status(game_id)
    except ServiceError as exc:
        return exc.message
    seat = next((s for s in st.seats if s.user_id == user_id), None)
    if seat is None or seat.seat is None:
        return f"You have no seat in game `{game_id}`."
    if seat.is_ai:
        return f"The AI holds your seat in game `{game_id}`; take it back first."
    if st.status != "active":
        return f"Game `{game_id}` is {st.status}."
    if seq is not None and st.seq != seq:
        return stale
    if user_id not in st.waiting_for and not anytime:
        return f"It is not your move in game `{game_id}` now."
    return None


async def check_clicker(interaction: Interaction, game_id: str, seq: int | None, what: str,
                        for_user: int | None = None, *, stale: str = OUT_OF_DATE,
                        anytime: bool = False) -> bool:
    """``interaction_check`` of every component: defer, then allow or refuse out loud (only to the
    clicker). ``seq`` None: a component valid at any seq; ``stale``: what to say when it is out of date;
    ``anytime``: a component of a move made whoever's turn it is (a standing order)."""
    try:
        await interaction.response.defer(ephemeral=True, thinking=True)
        reason = await refusal(bot_of(interaction), interaction.user.id, game_id, seq, for_user, stale=stale,
                               anytime=anytime)
    except Exception:
        report(log, "checking a click on %s failed (user %s, game %s, seq %s)", what, interaction.user.id,
               game_id, seq)
        if not interaction.response.is_done():
            return False  # the click was never acknowledged: Discord has forgotten it
        reason = APOLOGY
    if reason is None:
        return True
    try:
        await interaction.followup.send(reason, ephemeral=True)
    except discord.HTTPException as exc:
        log.warning("could not send the refusal for %s to user %s: %s", what, interaction.user.id, exc)
    return False


async def run_component(interaction: Interaction, what: str, game_id: str,
                        work: Callable[[BotBase], Awaitable[Reply]], *, stale: str = OUT_OF_DATE) -> None:
    """Defer (unless the check did), run ``work``, answer ephemerally; refusals become polite sentences
    (``stale`` when the game moved on)."""
    try:
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=True, thinking=True)
    except discord.HTTPException:
        report(log, "%s failed (user %s, game %s)", what, interaction.user.id, game_id)
        return
    try:
        reply = await work(bot_of(interaction))
    except ServiceError as exc:
        reply = Reply(stale if exc.code == "stale" else exc.message)
    except Exception:
        report(log, "%s failed (user %s, game %s)", what, interaction.user.id, game_id)
        reply = Reply(APOLOGY)
    if reply.view is not None:
        await interaction.followup.send(reply.content, files=reply.files, view=reply.view, ephemeral=True)
    else:
        await interaction.followup.send(reply.content, files=reply.files, ephemeral=True)
