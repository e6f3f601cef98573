"""The ``/annals`` slash commands and the play select: interactions -> service calls.

No rules here: every decision is the service's (and the engine's). Each
command defers first (the database and the renderer may take longer than
Discord's 3 seconds), then answers with a follow-up; a refused request
(:class:`~bot.service.ServiceError`) is answered with its message, anything
unexpected is logged with its context and answered with a short apology.
"""

from __future__ import annotations

import io
import logging
import re
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.config import parse_duration
from bot.discord.admin import AbandonButton, AdminGroup
from bot.discord.base import MAX_OPTIONS, CommandBase, Interaction, Reply, clip, is_admin, rules_of
from bot.discord.fleets import FleetCommands
from bot.discord.info import InfoCommands, LogButton
from bot.discord.moves import APOLOGY as APOLOGY
from bot.discord.moves import OUT_OF_DATE as OUT_OF_DATE
from bot.discord.moves import EndTurnButton, battle_lines, bot_of, lost_battle, still_yours, target_view
from bot.discord.personal import PersonalCommands
from bot.models import TimerSettings
from bot.service import ServiceError
from engine.registry import game_ids, get_game, spec

if TYPE_CHECKING:
    from bot.discord.client import AnnalsBot

log = logging.getLogger(__name__)

MAX_SELECTS = 5  # action rows per message
PLAY_ID = re.compile(r"annals:play:(?P<game>[a-z0-9]{1,32}):(?P<seq>[0-9]{1,9}):(?P<page>[0-9])")


def _ruleset_choices() -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=get_game(g).title[:100], value=g) for g in game_ids()][:25]


class AnnalsGroup(InfoCommands, PersonalCommands, FleetCommands, app_commands.Group):
    """``/annals ...``: lobby, play, information and personal commands, and the ``admin`` subgroup.

    The commands of :mod:`bot.discord.info`, :mod:`bot.discord.personal` and
    :mod:`bot.discord.fleets` are listed at the end of the class body, which is how
    discord.py binds them to this group; ``/annals admin ...`` is its own group.
    """

    def __init__(self, bot: AnnalsBot) -> None:
        super().__init__(name="annals", description="Play slow games of History of the World with Annals")
        self.bot = bot
        self.admin = AdminGroup(bot, parent=self)
        # Buttons of these modules must work from the start, even on messages sent before a restart.
        bot.add_dynamic_items(LogButton, AbandonButton)

    # == lobby ===========================================================================
    @app_commands.command(name="create", description="Open a lobby for a new game in this channel")
    @app_commands.describe(
        ruleset="Which game and rules to play",
        seats="How many seats the game has (2 to 6; each game has its own limits)",
        move_time="Time per move, like 24h, 3d or 90m (default 24h)",
        on_timeout="What happens when a player misses the deadline",
        no_preeminence="Advanced rule: no pre-eminence markers are awarded",
        one_minor_each="Advanced rule: each player is dealt one Minor Empire",
        multiple_armies="Advanced rule: up to 3 figures in a land",
        naval_control="Advanced rule: armies on fleets hold seas and score",
        options="Other options of the game, comma separated (e.g. goods_tokens, full_game)",
    )
    @app_commands.choices(ruleset=_ruleset_choices(), on_timeout=[
        app_commands.Choice(name="the AI plays the turn", value="ai"),
        app_commands.Choice(name="the turn is skipped", value="skip"),
    ])
    async def create(self, interaction: Interaction, ruleset: str = "history-classic",
                     seats: app_commands.Range[int, 2, 6] | None = None, move_time: str | None = None,
                     on_timeout: str | None = None, no_preeminence: bool = False,
                     one_minor_each: bool = False, multiple_armies: bool = False,
                     naval_control: bool = False, options: str | None = None) -> None:
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
            flags = {"no_preeminence": no_preeminence, "one_minor_each": one_minor_each,
                     "multiple_armies": multiple_armies, "naval_control": naval_control}
            flags.update(dict.fromkeys(game_options(ruleset, options), True))
            out = await self.bot.service.create_lobby(
                interaction.user.id, interaction.user.display_name, ruleset,
                options={k: True for k, v in flags.items() if v}, max_seats=seats, timers=timers,
                guild_id=interaction.guild_id, channel_id=interaction.channel_id)
            return Reply(f"Game `{out.game_id}` is open ({out.status.max_seats} seats). Others join with "
                         f"`/annals join game:{out.game_id}`; start it with `/annals start`.")
        await self._answer(interaction, work, ephemeral=True)

    @app_commands.command(name="join", description="Take a free seat in a game's lobby")
    @app_commands.describe(game="The game to join (its id)")
    async def join(self, interaction: Interaction, game: str) -> None:
        async def work() -> Reply:
            user = interaction.user
            out = await self.bot.service.join(game.strip(), user.id, user.display_name)
            return Reply(f"You joined game `{out.game_id}`.")
        await self._answer(interaction, work, ephemeral=True)

    @app_commands.command(name="leave", description="Give up your seat in a lobby")
    @app_commands.describe(game="The game (default: your game in this channel)")
    async def leave(self, interaction: Interaction, game: str | None = None) -> None:
        async def work() -> Reply:
            gid = await self._game(interaction, game)
            await self.bot.service.leave(gid, interaction.user.id)
            return Reply(f"You left game `{gid}`.")
        await self._answer(interaction, work, ephemeral=True)

    @app_commands.command(name="add-ai", description="Add an AI seat to a lobby (creator or Manage Server)")
    @app_commands.describe(game="The game (default: your game in this channel)")
    async def add_ai(self, interaction: Interaction, game: str | None = None) -> None:
        async def work() -> Reply:
            gid = await self._game(interaction, game)
            await self.bot.service.add_ai(gid, interaction.user.id, is_admin=is_admin(interaction))
            return Reply(f"An AI seat was added to game `{gid}`.")
        await self._answer(interaction, work, ephemeral=True)

    @app_commands.command(name="start", description="Start a game from its lobby (creator or Manage Server)")
    @app_commands.describe(game="The game (default: your game in this channel)")
    async def start(self, interaction: Interaction, game: str | None = None) -> None:
        async def work() -> Reply:
            gid = await self._game(interaction, game)
            await self.bot.service.start(gid, interaction.user.id, is_admin=is_admin(interaction))
            return Reply(f"Game `{gid}` has started.")
        await self._answer(interaction, work, ephemeral=True)

    # == information =====================================================================
    @app_commands.command(name="status", description="Seats, whose move it is, deadlines and scores")
    @app_commands.describe(game="The game (default: your game in this channel)")
    async def status(self, interaction: Interaction, game: str | None = None) -> None:
        async def work() -> Reply:
            from bot.discord.transport import mention, timestamp

            gid = await self._game(interaction, game, finished_ok=True)
            st = await self.bot.service.status(gid)
            lines = [f"**{st.title}** - game `{gid}`, {st.status}, move {st.seq}"]
            for seat in st.seats:
                order = f"{seat.seat + 1}." if seat.seat is not None else "-"
                who = mention(seat.user_id, seat.name) if not seat.is_ai or seat.user_id else seat.name
                extra = ", ".join(x for x in (seat.colour, "AI" if seat.is_ai else None) if x)
                lines.append(f"{order} {who}" + (f" ({extra})" if extra else ""))
            if st.status == "lobby":
                lines.append(f"{len(st.seats)} of {st.max_seats} seats taken "
                             f"(at least {st.min_seats} to start).")
            due = {d.user_id: d.due_at for d in st.deadlines if d.kind == "turn"}
            if st.waiting_for:
                lines.append("Waiting for: " + ", ".join(
                    mention(u) + (f" (due {timestamp(due[u])})" if u in due else "") for u in st.waiting_for))
            if st.scores is not None:
                lines.append("Scores: " + ", ".join(str(s) for s in st.scores))
            return Reply("\n".join(lines))
        await self._answer(interaction, work, ephemeral=False)

    @app_commands.command(name="board", description="Show the board as a picture to everyone here")
    @app_commands.describe(game="The game (default: your game in this channel)",
                           names="Write the names of lands and seas on the map (default yes)")
    async def board(self, interaction: Interaction, game: str | None = None, names: bool = True) -> None:
        async def work() -> Reply:
            from render.board import render_board

            gid = await self._game(interaction, game, finished_ok=True)
            view = await self.bot.service.view(gid, None)  # public: a spectator's view, never a hand
            png = await self.bot.render(render_board, view, names=names, size=self.bot.board_size)
            file = discord.File(io.BytesIO(png), filename=f"annals-{gid}-{view.get('seq', 0)}.png")
            return Reply(f"The board of game `{gid}` after move {view.get('seq', 0)}.", files=[file])
        await self._answer(interaction, work, ephemeral=False)

    @app_commands.command(name="hand", description="Your cards and empire in a game (only you see this)")
    @app_commands.describe(game="The game (default: your game in this channel)")
    async def hand(self, interaction: Interaction, game: str | None = None) -> None:
        async def work() -> Reply:
            gid = await self._game(interaction, game)
            st = await self.bot.service.status(gid)
            view = await self.bot.service.view(gid, interaction.user.id)
            you = view.get("you")
            if not you:
                return Reply(f"You have no seat (or no hand) in game `{gid}`.")
            rules = rules_of(st.ruleset)
            if rules is None:
                return Reply(f"Your hidden information in game `{gid}`: {you}")
            cards = [rules.cards[c] for c in you.get("hand", [])]
            lines = [f"Your hand in game `{gid}`: " + (", ".join(c.name for c in cards) or "no cards")]
            lines += [f"- **{c.name}**: {c.text}" for c in cards]
            if you.get("drawn"):
                lines.append(f"You drew the empire card: **{rules.empires[you['drawn']].name}**")
            if you.get("empire"):
                lines.append(f"Your empire: **{rules.empires[you['empire']].name}**")
            from render.cards import event_card

            files = []
            for i, card in enumerate(cards[:10]):
                png = await self.bot.render(event_card, card, width=400, rules=rules)
                files.append(discord.File(io.BytesIO(png), filename=f"card-{i + 1}.png"))
            return Reply("\n".join(lines)[:2000], files=files)
        await self._answer(interaction, work, ephemeral=True)

    # == play ============================================================================
    @app_commands.command(name="play", description="List your legal moves and choose one (only you see this)")
    @app_commands.describe(game="The game (default: your game in this channel)")
    async def play(self, interaction: Interaction, game: str | None = None) -> None:
        async def work() -> Reply:
            gid = await self._game(interaction, game)
            seq, legal = await self.bot.service.legal_actions(gid, interaction.user.id)
            if not legal:
                st = await self.bot.service.status(gid)
                why = "it is not your move" if st.status == "active" else f"the game is {st.status}"
                return Reply(f"You have nothing to do in game `{gid}` now ({why}).")
            labels = await self.bot.labels(gid, legal)
            shown = min(len(labels), MAX_OPTIONS * MAX_SELECTS)
            view = discord.ui.View(timeout=None)
            for page in range((shown + MAX_OPTIONS - 1) // MAX_OPTIONS):
                first = page * MAX_OPTIONS
                options = [discord.SelectOption(label=clip(labels[i], 100), value=str(i))
                           for i in range(first, min(first + MAX_OPTIONS, shown))]
                view.add_item(PlaySelect(gid, seq, page, options))
            more = f" (the first {shown} of {len(labels)})" if shown < len(labels) else ""
            return Reply(f"Your moves in game `{gid}` at move {seq}{more}: choose one.", view=view)
        await self._answer(interaction, work, ephemeral=True)

    # == classic moves ===================================================================
    async def land_autocomplete(self, interaction: Interaction,
                                current: str) -> list[app_commands.Choice[str]]:
        """Only the lands the caller may expand into now; in ``lands``, completes the last name typed."""
        lands = [str(a["land"]) for a in await self._legal_for_autocomplete(interaction, "expand")]
        head, comma, last = current.rpartition(",")
        prefix = f"{head.strip()}, " if comma else ""
        typed = last.strip().lower()
        out = []
        for land in lands:
            if typed in land.lower():
                value = f"{prefix}{land}"
                if len(value) <= 100:
                    out.append(app_commands.Choice(name=value, value=value))
        return out[:MAX_OPTIONS]

    async def card_autocomplete(self, interaction: Interaction,
                                current: str) -> list[app_commands.Choice[str]]:
        """The event cards the caller may play now."""
        plays = await self._legal_for_autocomplete(interaction, "play")
        if not plays:
            return []
        game = getattr(interaction.namespace, "game", None)
        gid = await self._game(interaction, game if isinstance(game, str) else None)
        rules = rules_of((await self.bot.service.status(gid)).ruleset)
        with_names = []
        for a in plays:
            key = str(a["card"])
            name = rules.cards[key].name if rules is not None and key in rules.cards else key
            with_names.append((str(name), key))
        typed = current.lower().strip()
        return [app_commands.Choice(name=n[:100], value=k) for n, k in with_names
                if typed in n.lower() or typed in k][:MAX_OPTIONS]

    async def fort_autocomplete(self, interaction: Interaction,
                                current: str) -> list[app_commands.Choice[str]]:
        """The lands where the caller may build a fort now."""
        lands = sorted({str(a["land"]) for a in await self._legal_for_autocomplete(interaction, "fort")})
        typed = current.lower().strip()
        return [app_commands.Choice(name=x, value=x) for x in lands if typed in x.lower()][:MAX_OPTIONS]

    @app_commands.command(name="expand", description="Place an army in a land, or several in order")
    @app_commands.describe(land="The land to expand into (only legal lands are offered)",
                           lands="Several lands, comma separated, tried in order; stops at a lost battle",
                           game="The game (default: your game in this channel)")
    async def expand(self, interaction: Interaction, land: str | None = None, lands: str | None = None,
                     game: str | None = None) -> None:
        async def work() -> Reply:
            names = [land.strip()] if land else [x.strip() for x in (lands or "").split(",") if x.strip()]
            if not names:
                return Reply("Name a land with `land:` or several with `lands:\"A, B, C\"`.")
            gid, seq, legal = await self._legal(interaction, game, "expand")
            user = interaction.user.id
            player = await self._player(gid, user)
            lines: list[str] = []
            for i, name in enumerate(names):
                if i:
                    gid, seq, legal = await self._legal(interaction, gid, "expand")
                action = next((a for a in legal if str(a["land"]).lower() == name.lower()), None)
                if action is None:
                    lines.append(f"You cannot expand into {name} now; stopped there.")
                    break
                try:
                    out = await self.bot.service.submit(gid, user, action, seq)
                except ServiceError as exc:
                    if not lines:
                        raise
                    lines.append(f"{action['land']}: {exc.message} Stopped there.")
                    break
                fights = battle_lines(out)
                lines += fights
                if lost_battle(out, player, str(action["land"])):
                    rest = names[i + 1:]
                    lines.append(f"The battle for {action['land']} was lost: stopped here" +
                                 (f" ({', '.join(rest)} not tried)." if rest else ".") +
                                 " Attack again or choose another land with `/annals expand`.")
                    break
                if not fights:
                    lines.append(f"You expanded into {action['land']}.")
                if user not in out.status.waiting_for:
                    if i + 1 < len(names):
                        lines.append("Your turn is over; the other lands were not tried.")
                    break
            return Reply("\n".join(lines)[:2000])
        await self._answer(interaction, work, ephemeral=True)

    @app_commands.command(name="event", description="Play an event card, then choose its targets")
    @app_commands.describe(card="The event card (only cards you may play now are offered)",
                           game="The game (default: your game in this channel)")
    async def event(self, interaction: Interaction, card: str, game: str | None = None) -> None:
        async def work() -> Reply:
            gid, seq, legal = await self._legal(interaction, game, "play")
            rules = rules_of((await self.bot.service.status(gid)).ruleset)
            wanted = card.strip().lower()

            def name(key: str) -> str:
                return str(rules.cards[key].name) if rules is not None and key in rules.cards else key

            action = next((a for a in legal if str(a["card"]).lower() == wanted
                           or name(str(a["card"])).lower() == wanted), None)
            if action is None:
                return Reply(f"You cannot play {card} now.")
            user = interaction.user.id
            out = await self.bot.service.submit(gid, user, action, seq)
            text = f"You played {name(str(action['card']))}."
            text += "".join(f"\n{line}" for line in battle_lines(out))
            seq, legal = await self.bot.service.legal_actions(gid, user)
            view = target_view(gid, seq, legal)
            if view is not None:
                return Reply(text + "\nChoose its target:", view=view)
            return Reply(text + still_yours(out, user))
        await self._answer(interaction, work, ephemeral=True)

    @app_commands.command(name="fort", description="Build a fort in a land your empire holds")
    @app_commands.describe(land="The land (only lands where you may build are offered)",
                           pay="How to pay for it (default: as the rules allow)",
                           game="The game (default: your game in this channel)")
    @app_commands.choices(pay=[app_commands.Choice(name="as the rules allow", value="auto"),
                               app_commands.Choice(name="with an army", value="army"),
                               app_commands.Choice(name="with a coin", value="coin")])
    async def fort(self, interaction: Interaction, land: str, pay: str = "auto",
                   game: str | None = None) -> None:
        async def work() -> Reply:
            gid, seq, legal = await self._legal(interaction, game, "fort")
            here = [a for a in legal if str(a["land"]).lower() == land.strip().lower()]
            action = next((a for a in here if a.get("pay") == pay), None)
            if action is None and here:
                action = {**here[0], "pay": pay}  # the engine refuses a payment it does not allow
            if action is None:
                return Reply(f"You cannot build a fort in {land} now.")
            out = await self.bot.service.submit(gid, interaction.user.id, action, seq)
            return Reply(f"A fort is built in {action['land']}." + still_yours(out, interaction.user.id))
        await self._answer(interaction, work, ephemeral=True)

    @app_commands.command(name="buyback", description="Spend a coin to return an army lost this turn")
    @app_commands.describe(game="The game (default: your game in this channel)")
    async def buyback(self, interaction: Interaction, game: str | None = None) -> None:
        await self._simple(interaction, game, "buyback", "You cannot buy an army back now.",
                           "A coin brings a lost army back to your pool.")

    @app_commands.command(name="done", description="Finish the current step (events, targets, minor empire)")
    @app_commands.describe(game="The game (default: your game in this channel)")
    async def done(self, interaction: Interaction, game: str | None = None) -> None:
        await self._simple(interaction, game, "done", "There is no step to finish now.", "Step finished.")

    async def _simple(self, interaction: Interaction, game: str | None, kind: str, refused: str,
                      said: str) -> None:
        async def work() -> Reply:
            gid, seq, legal = await self._legal(interaction, game, kind)
            if not legal:
                return Reply(refused)
            out = await self.bot.service.submit(gid, interaction.user.id, legal[0], seq)
            return Reply(said + still_yours(out, interaction.user.id))
        await self._answer(interaction, work, ephemeral=True)

    @app_commands.command(name="end-turn", description="End your turn: monuments, clean-up and scoring")
    @app_commands.describe(game="The game (default: your game in this channel)")
    async def end_turn(self, interaction: Interaction, game: str | None = None) -> None:
        async def work() -> Reply:
            gid, seq, legal = await self._legal(interaction, game, "end_turn")
            if not legal:
                return Reply("You cannot end your turn now.")
            view = discord.ui.View(timeout=None)
            view.add_item(EndTurnButton(gid, seq))
            return Reply(f"End your turn in game `{gid}` now? Armies left in your pool are lost.", view=view)
        await self._answer(interaction, work, ephemeral=True)

    expand.autocomplete("land")(land_autocomplete)
    expand.autocomplete("lands")(land_autocomplete)
    event.autocomplete("card")(card_autocomplete)
    fort.autocomplete("land")(fort_autocomplete)
    expand.autocomplete("game")(CommandBase.game_autocomplete)
    event.autocomplete("game")(CommandBase.game_autocomplete)
    fort.autocomplete("game")(CommandBase.game_autocomplete)
    buyback.autocomplete("game")(CommandBase.game_autocomplete)
    done.autocomplete("game")(CommandBase.game_autocomplete)
    end_turn.autocomplete("game")(CommandBase.game_autocomplete)

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
    join.autocomplete("game")(CommandBase.game_autocomplete)

    # the commands of the other modules: listed here, discord.py binds them to this group
    fleet = FleetCommands.fleet
    land = InfoCommands.land
    scores = InfoCommands.scores
    log = InfoCommands.log
    rules = InfoCommands.rules
    games = PersonalCommands.games
    reminders = PersonalCommands.reminders
    vacation = PersonalCommands.vacation



def game_options(ruleset: str, text: str | None) -> list[str]:
    """The option names in ``text`` ("goods tokens, full_game"), each checked against the game's own."""
    try:
        game = spec(ruleset)
    except KeyError as exc:
        raise ServiceError("unknown_ruleset", f"There is no game {ruleset!r}.") from exc
    known = game.default_options()
    names = [o.strip().lower().replace(" ", "_").replace("-", "_") for o in (text or "").split(",")]
    unknown = [n for n in names if n and n not in known]
    if unknown:
        offered = ", ".join(known) or "none"
        raise ServiceError("bad_option", f"{', '.join(unknown)}: not an option of {game.title} "
                                         f"(its options: {offered}).")
    return [n for n in names if n]


class PlaySelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=PLAY_ID.pattern):
    """A select of legal moves; its custom_id carries the game id, the seq it was built at and its page.

    Registered in ``setup_hook``, so a select from before a restart still works;
    one built at an older seq answers that the board is out of date.
    """

    def __init__(self, game_id: str, seq: int, page: int = 0,
                 options: list[discord.SelectOption] | None = None) -> None:
        self.game_id = game_id
        self.seq = seq
        self.page = page
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=f"annals:play:{game_id}:{seq}:{page}", placeholder="Choose your move",
            options=options or [discord.SelectOption(label="(no moves)", value="-1")])
        super().__init__(select)

    @classmethod
    async def from_custom_id(cls, interaction: Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> PlaySelect:
        return cls(match["game"], int(match["seq"]), int(match["page"]))

    async def interaction_check(self, interaction: Interaction, /) -> bool:
        from bot.discord.moves import check_clicker

        return await check_clicker(interaction, self.game_id, self.seq, "the play select")

    async def callback(self, interaction: Interaction) -> None:
        bot = bot_of(interaction)
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            text = await self._play(bot, interaction)
        except ServiceError as exc:
            text = OUT_OF_DATE if exc.code == "stale" else exc.message
        except Exception:
            log.exception("play select failed (user %s, game %s, seq %s)", interaction.user.id,
                          self.game_id, self.seq)
            text = APOLOGY
        await interaction.followup.send(text, ephemeral=True)

    async def _play(self, bot: AnnalsBot, interaction: Interaction) -> str:
        values = self.item.values
        if not values:
            return "Choose a move from the list."
        seq, legal = await bot.service.legal_actions(self.game_id, interaction.user.id)
        if seq != self.seq:
            return OUT_OF_DATE
        if not legal:
            return f"It is not your move in game `{self.game_id}` now."
        index = int(values[0])
        if not 0 <= index < len(legal):
            return "That is not one of your moves now; use `/annals play` again."
        label = (await bot.labels(self.game_id, [legal[index]]))[0]
        out = await bot.service.submit(self.game_id, interaction.user.id, legal[index], self.seq)
        more = " It is still your move: use `/annals play` again." if interaction.user.id in \
            out.status.waiting_for else ""
        return f"You played: {label}.{more}"
