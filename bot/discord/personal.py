"""Personal commands: my games across servers, reminder settings, vacation days."""

from __future__ import annotations

from dataclasses import replace

from discord import app_commands

from bot.config import parse_duration
from bot.discord.base import LIVE, CommandBase
from bot.discord.kit import GameId, Interaction, Reply, ShortText, mention, span, timestamp
from bot.models import GameRow, GameStatus, NoticeKind, ReminderPreference, UserSettings
from bot.service import ServiceError
from engine.registry import get_game
from engine.words import first_place, join_words

MAX_LISTED = 15  # games per answer (live ones first)
REMINDER_CHOICES = [
    app_commands.Choice(name="every reminder the game sends", value="all"),
    app_commands.Choice(name="only the last reminder before the deadline", value="last"),
    app_commands.Choice(name="no reminders", value="none"),
]
REMINDER_WORDS = {"all": "every reminder", "last": "only the last reminder before a deadline",
                  "none": "no reminders"}


def parse_times(text: str) -> tuple[int, ...] | None:
    """``"6h, 1h"`` -> seconds, longest first; ``"game"`` (or ``"default"``) -> None: each game's times."""
    words = [w.strip() for w in text.split(",") if w.strip()]
    if [w.lower() for w in words] in (["game"], ["default"]):
        return None
    if [w.lower() for w in words] in ([], ["none"]):
        return ()
    try:
        return tuple(sorted({parse_duration(w) for w in words}, reverse=True))
    except ValueError as exc:
        raise ServiceError("bad_settings", str(exc)) from exc


def reminder_words(settings: UserSettings) -> str:
    """A person's reminder settings, after "You get": which reminders, when, and "you're next" if asked."""
    if settings.reminders == "none":
        said = "no reminders"
    else:
        at = "each game's reminder times" if settings.reminder_offsets is None else \
            (", ".join(span(o) for o in settings.reminder_offsets) or "no times") + " before a deadline"
        said = f"{REMINDER_WORDS[settings.reminders]}, at {at}"
    if settings.up_next:
        return f"{said}, and a DM when the player before you starts their move (`next:False` stops it)."
    return f"{said}."


class PersonalCommands(CommandBase):
    """``/annals games``, ``reminders`` and ``vacation`` (bound to the ``/annals`` group)."""

    @app_commands.command(name="games", description="Your games on every server: status and whose move it is")
    @app_commands.describe(finished="Also list games that are over or abandoned (default no)")
    async def games(self, interaction: Interaction, finished: bool = False) -> None:
        async def work() -> Reply:
            rows = await self._games_of(interaction.user.id)
            live = sorted((r for r in rows if r.status in LIVE), key=lambda r: r.created_at)
            done = sorted((r for r in rows if r.status not in LIVE), key=lambda r: r.updated_at, reverse=True)
            shown = live + (done if finished else [])
            if not shown:
                more = "" if finished or not done else " (`finished:True` lists your past games)"
                return Reply("You have no running game; `/annals create` opens one." + more)
            lines = ["**Your games:**"]
            for row in shown[:MAX_LISTED]:
                lines.append(await self._game_line(row, interaction.user.id))
            if len(shown) > MAX_LISTED:
                lines.append(f"... and {len(shown) - MAX_LISTED} more.")
            if done and not finished:
                lines.append(f"{len(done)} finished game{'s' if len(done) != 1 else ''} not listed "
                             "(`finished:True`).")
            return Reply("\n".join(lines)[:2000])
        await self._answer(interaction, work, ephemeral=True)

    async def _game_line(self, row: GameRow, user_id: int) -> str:
        st: GameStatus = await self.bot.service.status(row.game_id)
        guild = self.bot.get_guild(row.guild_id) if row.guild_id is not None else None
        where = f" on {guild.name}" if guild is not None else ""
        if row.thread_id is not None:
            where += f" in <#{row.thread_id}>"
        line = f"- `{row.game_id}` {get_game(row.ruleset).title}{where}: {st.status}"
        if st.status == "active":
            due = {d.user_id: d.due_at for d in st.deadlines if d.kind == "turn" and not d.fired}
            if user_id in st.waiting_for:
                line += ", **your move**" + (f" (due {timestamp(due[user_id])})" if user_id in due else "")
            else:
                people = [mention(s.user_id) if s.user_id is not None and not s.is_ai else s.name
                          for p in st.actors for s in st.seats if s.seat == p]
                line += f", waiting for {', '.join(people) or 'nobody'}"
        elif st.status == "lobby":
            line += f" ({len(st.seats)} of {st.max_seats} seats)"
        elif st.status == "over" and st.scores is not None and st.ranking:
            first = first_place(st.places, st.ranking)
            won = [next((s.name for s in st.seats if s.seat == p), "?") for p in first]
            line += f", won by {join_words(won)}"
        return line

    @app_commands.command(name="reminders", description="Which turn reminders you get and when (every game)")
    @app_commands.describe(when="Every reminder, only the last one before a deadline, or none",
                           times="Your own times before a deadline, like \"6h, 1h\"; \"game\": each game's",
                           up_next="A DM when the player before you starts their move, to be ready")
    @app_commands.rename(up_next="next")
    @app_commands.choices(when=REMINDER_CHOICES)
    async def reminders(self, interaction: Interaction, when: str | None = None,
                        times: ShortText | None = None, up_next: bool | None = None) -> None:
        async def work() -> Reply:
            settings = await self.bot.service.user_settings(interaction.user.id)
            if when is not None:
                pref: ReminderPreference = "last" if when == "last" else "none" if when == "none" else "all"
                settings = replace(settings, reminders=pref)
            if times is not None:
                settings = replace(settings, reminder_offsets=parse_times(times))
            if up_next is not None:
                settings = replace(settings, up_next=up_next)
            if when is not None or times is not None or up_next is not None:
                await self.bot.service.set_user_settings(settings)  # refuses times out of range
                head = "Saved: from your next turn on you get"
            else:
                head = "You get"
            return Reply(f"{head} {reminder_words(settings)}")
        await self._answer(interaction, work, ephemeral=True)

    @app_commands.command(name="vacation", description="Declare days away: your deadlines move later")
    @app_commands.describe(days="How many days you will be away (from 1)",
                           game="The game (default: your game in this channel)")
    async def vacation(self, interaction: Interaction, days: app_commands.Range[int, 1, 365],
                       game: GameId | None = None) -> None:
        async def work() -> Reply:
            gid = await self._game(interaction, game)
            out = await self.bot.service.vacation(gid, interaction.user.id, days)
            notice = next((n for n in out.notices if n.kind == NoticeKind.vacation), None)
            data = notice.data if notice is not None else {}
            left = int(data.get("cap", 0)) - int(data.get("used", 0))
            if data.get("due_at"):
                said = f"your deadline moves to {timestamp(data['due_at'])}"
            else:
                said = f"your next clock will not start before {timestamp(data.get('away_until', 0))}"
            return Reply(f"Vacation of {days} day{'s' if days != 1 else ''} in game `{gid}`: {said}. "
                         f"{left} vacation day{'s' if left != 1 else ''} left in this game.")
        await self._answer(interaction, work, ephemeral=True)

    vacation.autocomplete("game")(CommandBase.game_autocomplete)
