"""Information commands: a land's details, the scores and their chart, the paged log, rules help.

Everything here is built from what every player may see: the engine's view for
a spectator (or, for ``/annals rules``, the caller's own legal moves) and the
public events of the log. No hand, drawn card or pre-eminence marker value
is ever read. No rules here either: the help text only names the step the
engine says the caller is at and the command that plays it.
"""

from __future__ import annotations

import io
import logging
import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.discord.base import MAX_OPTIONS, CommandBase, Interaction, Reply, clip, rules_of
from bot.discord.moves import APOLOGY, bot_of
from bot.models import PUBLIC, GameStatus, LogEntry, Notice
from bot.service import ServiceError

if TYPE_CHECKING:
    from bot.discord.client import AnnalsBot

log = logging.getLogger(__name__)

LOG_ID = re.compile(r"annals:log:(?P<game>[a-z0-9]{1,32}):(?P<page>[0-9]{1,6}):(?P<dir>[pn])")
LOG_PAGE = 12  # lines per page
LOG_LINE = 150  # characters per line, so a page stays well under Discord's 2000


def seat_names(st: GameStatus) -> dict[int, str]:
    """Engine player id -> the seat's name (with its colour when it has one)."""
    return {s.seat: (f"{s.name} ({s.colour})" if s.colour else s.name)
            for s in st.seats if s.seat is not None}


def force_name(rules: Any, key: str) -> str:
    """The name of whoever owns an army: an empire, a Minor Empire, a kingdom..."""
    if key in rules.empires:
        return str(rules.empires[key].name)
    kind, _, rest = key.partition(":")
    card = rules.cards.get(rest)
    if card is not None and card.minor is not None:
        return str(card.minor.name)
    return (rest or kind).replace("-", " ").title()


# == the log ================================================================================
def log_lines(game_id: str, ruleset: str, entries: Sequence[LogEntry]) -> list[str]:
    """One line per public event that says something, numbered by its move."""
    from bot.discord.transport import describe

    lines = []
    for entry in entries:
        text = describe(Notice(game_id, entry.type, entry.data, PUBLIC, entry.seq), ruleset)
        if text:
            lines.append(clip(f"`{entry.seq}` {text}", LOG_LINE))
    return lines


async def log_page(bot: AnnalsBot, game_id: str, page: int | None) -> tuple[str, discord.ui.View]:
    """The text of one page of the game's log (None: the newest) and its prev/next buttons."""
    st = await bot.service.status(game_id)
    _, entries = await bot.service.public_log(game_id)
    lines = log_lines(game_id, st.ruleset, entries)
    pages = max(1, -(-len(lines) // LOG_PAGE))
    page = pages - 1 if page is None else min(max(page, 0), pages - 1)
    shown = lines[page * LOG_PAGE:(page + 1) * LOG_PAGE]
    head = f"**Log of game `{game_id}`**, page {page + 1} of {pages} (move {st.seq}):"
    text = "\n".join([head, *(shown or ["Nothing has happened yet."])])
    view = discord.ui.View(timeout=None)
    view.add_item(LogButton(game_id, max(page - 1, 0), "p", disabled=page == 0))
    view.add_item(LogButton(game_id, min(page + 1, pages - 1), "n", disabled=page >= pages - 1))
    return text, view


class LogButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=LOG_ID.pattern):
    """Previous or next page of the log; the custom_id carries the game and the page it opens.

    Pages count from the first event, so a page keeps its content as the game goes
    on and a button from before a restart opens the same page.
    """

    def __init__(self, game_id: str, page: int, direction: str, *, disabled: bool = False) -> None:
        self.game_id = game_id
        self.page = page
        self.direction = direction
        button: discord.ui.Button[Any] = discord.ui.Button(
            custom_id=f"annals:log:{game_id}:{page}:{direction}", disabled=disabled,
            label="Previous" if direction == "p" else "Next", style=discord.ButtonStyle.secondary)
        super().__init__(button)

    @classmethod
    async def from_custom_id(cls, interaction: Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> LogButton:
        return cls(match["game"], int(match["page"]), match["dir"])

    async def callback(self, interaction: Interaction) -> None:
        bot = bot_of(interaction)
        await interaction.response.defer()  # the replay may take a moment; the message is then edited
        try:
            text, view = await log_page(bot, self.game_id, self.page)
        except ServiceError as exc:
            await interaction.followup.send(exc.message, ephemeral=True)
            return
        except Exception:
            log.exception("log page failed (user %s, game %s, page %s)", interaction.user.id, self.game_id,
                          self.page)
            await interaction.followup.send(APOLOGY, ephemeral=True)
            return
        await interaction.edit_original_response(content=text, view=view)


# == rules help ===============================================================================
STEP_HELP: Mapping[str, str] = {
    "draw": ("Empire cards are being dealt for this epoch. The drawer keeps the card or gives it to a "
             "player who has none yet."),
    "events": ("Before your first army you may play event cards (each only in its epochs). "
               "Capital, fleets and the first army are then placed for you from the empire card."),
    "card": "An event card is waiting for its targets: choose them one at a time.",
    "minor": "A Minor Empire is expanding: place its armies, then finish it.",
    "crusade": "The Crusaders are expanding: place their armies, then finish them.",
    "reallocate": ("Reallocation: you may take fleets off the board, one coin each, before expanding."),
    "naval": ("Naval Control: you may put armies on your fleets, or fight a fleet another player "
              "keeps in one of your seas, before expanding."),
    "expand": ("Expansion: place armies from your pool into lands next to yours or reached by your "
               "fleets (battles where they are held), build forts, buy back lost armies, then end "
               "your turn: monuments are built and you score."),
}

KIND_HELP: Mapping[str, str] = {
    "keep": "`/annals play` (or the select in your DM): keep the empire card",
    "give": "`/annals play` (or the select in your DM): give the empire card away",
    "play": "`/annals event card:` play an event card",
    "choose": "`/annals play`: choose a target",
    "expand": "`/annals expand land:` (or `lands:\"A, B\"`) expand",
    "fort": "`/annals fort land:` build a fort",
    "buyback": "`/annals buyback` return a lost army for a coin",
    "done": "`/annals done` finish this step",
    "end_turn": "`/annals end-turn` end your turn",
    "man_fleet": "`/annals fleet sea:` put an army on a fleet",
    "attack_fleet": "`/annals fleet sea:` fight a fleet",
}


def rules_text(game_id: str, view: Mapping[str, Any], legal: Sequence[Mapping[str, Any]],
               waiting: str) -> str:
    """What the caller can do now and which command does it (from the public view and their moves)."""
    turn = view.get("turn") or {}
    step = "draw" if view.get("phase") == "draw" else str(turn.get("step") or "")
    if view.get("phase") == "over":
        return f"Game `{game_id}` is over: see `/annals scores` and `/annals log`."
    lines = [f"**Game `{game_id}`**, {view.get('epoch_name', '')}"
             + (f", {turn['name']} ({turn['force']})" if turn.get("name") else "") + "."]
    if step in STEP_HELP:
        lines.append(STEP_HELP[step])
    if legal:
        kinds = [str(a.get("kind")) for a in legal]
        if step == "reallocate":
            commands = ["`/annals fleet sea:` take a fleet off for a coin"]
        else:
            commands = [KIND_HELP.get(k, f"`/annals play`: {k.replace('_', ' ')}")
                        for k in dict.fromkeys(kinds)]
        lines.append("**It is your move.** You can:")
        lines += [f"- {c}" for c in dict.fromkeys(commands)]
        lines.append("Every move is also in `/annals play`.")
    else:
        lines.append(f"It is not your move: waiting for {waiting}. Meanwhile: `/annals hand`, "
                     "`/annals board`, `/annals land`, `/annals scores`, `/annals log`.")
    return "\n".join(lines)


# == the commands ==============================================================================
class InfoCommands(CommandBase):
    """``/annals land``, ``scores``, ``log`` and ``rules`` (bound to the ``/annals`` group)."""

    async def map_land_autocomplete(self, interaction: Interaction,
                                    current: str) -> list[app_commands.Choice[str]]:
        """Every land of the game's map whose name contains what was typed."""
        gid = await self._namespace_game(interaction, finished_ok=True)
        ruleset = (await self.bot.service.status(gid)).ruleset if gid else "history-classic"
        rules = rules_of(ruleset)
        if rules is None:
            return []
        typed = current.lower().strip()
        names = sorted(n for n, land in rules.map.lands.items()
                       if typed in n.lower() or any(typed in a.lower() for a in land.aliases))
        return [app_commands.Choice(name=n, value=n) for n in names][:MAX_OPTIONS]

    @app_commands.command(name="land", description="A land's details: area, terrain, holder, neighbours")
    @app_commands.describe(land="The land (any land of the map)",
                           game="The game (default: your game in this channel)")
    async def land(self, interaction: Interaction, land: str, game: str | None = None) -> None:
        async def work() -> Reply:
            gid = await self._game(interaction, game, finished_ok=True)
            st = await self.bot.service.status(gid)
            rules = rules_of(st.ruleset)
            if rules is None:
                return Reply("This game has no map to look at.")
            try:
                name = rules.map.resolve_land(land)
            except KeyError as exc:
                raise ServiceError("unknown_land", str(exc).strip("'\"")) from exc
            view = await self.bot.service.view(gid, None)  # public: the board only, never a hand
            return Reply(land_text(rules, view, name, seat_names(st)))
        await self._answer(interaction, work, ephemeral=True)

    @app_commands.command(name="scores", description="The score table and the score chart, for everyone")
    @app_commands.describe(game="The game (default: your game in this channel)",
                           chart="Add the chart of the scores over the game (default yes)")
    async def scores(self, interaction: Interaction, game: str | None = None, chart: bool = True) -> None:
        async def work() -> Reply:
            from render.charts import score_chart
            from render.history import history_from_events

            gid = await self._game(interaction, game, finished_ok=True)
            st = await self.bot.service.status(gid)
            view = await self.bot.service.view(gid, None)  # public counts only: no marker values in play
            names = seat_names(st)
            text = score_text(gid, view, names)
            files = []
            if chart:
                _, entries = await self.bot.service.public_log(gid)
                history = history_from_events(({"type": e.type, "data": e.data} for e in entries),
                                              int(view.get("players", len(names))))
                order = [names.get(p, f"seat {p + 1}") for p in range(history.players)]
                png = await self.bot.render(score_chart, history.series, player_names=order,
                                            title=f"Scores of game {gid}")
                files.append(discord.File(io.BytesIO(png), filename=f"annals-{gid}-scores-{st.seq}.png"))
            return Reply(text, files=files)
        await self._answer(interaction, work, ephemeral=False)

    @app_commands.command(name="log", description="The game's log of public events, page by page")
    @app_commands.describe(game="The game (default: your game in this channel)",
                           page="Which page (default: the newest)")
    async def log(self, interaction: Interaction, game: str | None = None,
                  page: app_commands.Range[int, 1, 100000] | None = None) -> None:
        async def work() -> Reply:
            gid = await self._game(interaction, game, finished_ok=True)
            text, view = await log_page(self.bot, gid, None if page is None else page - 1)
            return Reply(text, view=view)
        await self._answer(interaction, work, ephemeral=True)

    @app_commands.command(name="rules", description="Help for your step: what you can do and which command")
    @app_commands.describe(game="The game (default: your game in this channel)")
    async def rules(self, interaction: Interaction, game: str | None = None) -> None:
        async def work() -> Reply:
            from bot.discord.transport import mention

            gid = await self._game(interaction, game, finished_ok=True)
            st = await self.bot.service.status(gid)
            if st.status == "lobby":
                return Reply(f"Game `{gid}` is still a lobby: `/annals join`, `/annals add-ai`, then "
                             "`/annals start` (its creator or a server manager).")
            if st.status in ("paused", "abandoned"):
                return Reply(f"Game `{gid}` is {st.status}; nobody can move now.")
            view = await self.bot.service.view(gid, None)
            _, legal = await self.bot.service.legal_actions(gid, interaction.user.id)
            people = [mention(s.user_id) if s.user_id is not None and not s.is_ai else s.name
                      for p in st.actors for s in st.seats if s.seat == p]
            return Reply(rules_text(gid, view, legal, ", ".join(people) or "nobody")[:2000])
        await self._answer(interaction, work, ephemeral=True)

    land.autocomplete("land")(map_land_autocomplete)
    land.autocomplete("game")(CommandBase.game_autocomplete)
    scores.autocomplete("game")(CommandBase.game_autocomplete)
    log.autocomplete("game")(CommandBase.game_autocomplete)
    rules.autocomplete("game")(CommandBase.game_autocomplete)


def land_text(rules: Any, view: Mapping[str, Any], name: str, names: Mapping[int, str]) -> str:
    """A land's details from the public view: map facts, pieces, structures, waters, neighbours."""
    wmap = rules.map
    info = wmap.lands[name]
    board = view["board"]
    epoch = int(view.get("epoch") or 1)
    if info.area is None:
        head = f"**{name}**: a barren land (no area; armies cannot stay)."
    else:
        head = f"**{name}**, in {info.area} (the area is worth {rules.area_value(info.area, epoch)} " \
               f"in epoch {view.get('epoch_name', epoch)})."
    lines = [head, f"Terrain: {info.terrain}; resource: {'yes' if info.resource else 'no'}."]
    stack = board["armies"].get(name, [])
    if stack:
        owner = int(stack[0][0])
        pieces = ", ".join(f"{force_name(rules, str(a[2]))} (epoch {a[1]})" for a in stack)
        lines.append(f"Held by {names.get(owner, f'seat {owner + 1}')}: "
                     f"{len(stack)} {'army' if len(stack) == 1 else 'armies'} of {pieces}.")
    else:
        lines.append("Held by nobody.")
    built = []
    if name in board["structures"]:
        built.append(f"a {board['structures'][name]}")
    forts = list(board["forts"]).count(name)
    if forts:
        built.append("a fort" if forts == 1 else f"{forts} forts")
    monuments = list(board["monuments"]).count(name)
    if monuments:
        built.append("a monument" if monuments == 1 else f"{monuments} monuments")
    lines.append("Built here: " + (", ".join(built) if built else "nothing") + ".")
    if info.waters:
        manned = board.get("manned") or {}
        waters = [w + (f" (held by {names.get(int(manned[w][0]), 'someone')})" if w in manned else "")
                  for w in sorted(info.waters)]
        lines.append("Waters: " + ", ".join(waters) + ".")
    else:
        lines.append("Waters: none (inland).")
    near = []
    for other in sorted(wmap.neighbours(name)):
        kind = wmap.border(name, other)
        near.append(other + (f" ({kind.replace('_', ' ')})" if kind else ""))
    lines.append("Neighbours: " + (", ".join(near) or "none") + ".")
    return "\n".join(lines)[:2000]


def score_text(game_id: str, view: Mapping[str, Any], names: Mapping[int, str]) -> str:
    """The score table: public scores, marker counts and hand sizes (final scores once over)."""
    over = view.get("phase") == "over" and view.get("final") is not None
    scores = [int(x) for x in (view.get("final") if over else view.get("scores")) or []]
    order = [int(p) for p in view.get("ranking") or []] if over else \
        sorted(range(len(scores)), key=lambda p: -scores[p])
    when = " (final)" if over else f", {view.get('epoch_name', '')}"
    head = f"**Scores of game `{game_id}`**{when}:"
    lines = [head]
    markers = list(view.get("markers") or [])
    hands = list(view.get("hand_sizes") or [])
    for rank, p in enumerate(order, 1):
        bits = [f"{rank}. {names.get(p, f'seat {p + 1}')}: **{scores[p]}**"]
        if p < len(markers) and markers[p]:
            bits.append(f"{markers[p]} pre-eminence marker{'s' if markers[p] != 1 else ''}")
        if not over and p < len(hands):
            bits.append(f"{hands[p]} card{'s' if hands[p] != 1 else ''} in hand")
        lines.append(", ".join(bits))
    return "\n".join(lines)
