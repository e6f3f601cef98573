"""The classic 7-epoch History of the World on Discord: only what the decision panel cannot express.

Every decision of the classic rules (the drawn empire card, events and their
targets, expansion, forts, fleets, ending the turn) is played with the generic
panel (``/annals play`` and the "your move" DM). This group, named after the
game's id, adds what a panel cannot say in one click:

* ``expand lands:"A, B, C"``: several expansions in order, stopping at the
  first land that is no longer a choice or whose battle was not won;
* ``land``: a land's details in the game's own words (its ``place_text``: area and its value,
  terrain, holder and armies, what is built, waters, neighbours);
* ``scores``: the game's own score summary, for everyone, and the chart.
"""

from __future__ import annotations

import io

import discord
from discord import app_commands

from bot.discord.game_group import ActionJSON, GameGroup, batch, split_names
from bot.discord.kit import MAX_OPTIONS, BotBase, GameId, Interaction, LongText, Reply, ShortText
from bot.models import Outcome
from bot.service import ServiceError
from engine.registry import get_game
from engine.spec import GameSpec


def expansion_of(action: ActionJSON) -> str | None:
    """The land an expansion goes to (None: not an expansion)."""
    return str(action["land"]) if action.get("kind") == "expand" else None


def lost_battle(out: Outcome, seq: int) -> str | None:
    """Whether the move at ``seq`` fought a battle that was not won (Chapter VI: a tie or a loss)."""
    for notice in out.notices:
        data = notice.data
        if notice.seq == seq + 1 and notice.event is not None and notice.event.type == "battle" \
                and not data.get("treachery") \
                and data.get("outcome") != "win":
            return f"The battle for {data.get('land')} was not won."
    return None


class ClassicGroup(GameGroup):
    """``/<game id> ...``: batch expansion, land details and the score table of the classic rules."""

    @app_commands.command(name="expand", description="Expand into several lands in order")
    @app_commands.describe(lands="Lands, comma separated, tried in order; stops at a battle not won",
                           game="The game (default: your game in this channel)")
    async def expand(self, interaction: Interaction, lands: LongText, game: GameId | None = None) -> None:
        async def work() -> Reply:
            names = split_names(lands)
            if not names:
                return Reply('Name one land or several with `lands:"A, B, C"`.')
            gid = await self._own_game(interaction, game)
            return await batch(self.bot, gid, interaction.user.id, names,
                               lambda a, name: (expansion_of(a) or "").lower() == name.lower(), lost_battle)
        await self._answer(interaction, work, ephemeral=True)

    async def lands_autocomplete(self, interaction: Interaction,
                                 current: str) -> list[app_commands.Choice[str]]:
        """The lands the caller may expand into now (completing the last name of a list)."""
        return await self.choices_autocomplete(interaction, current, expansion_of)

    async def map_land_autocomplete(self, interaction: Interaction,
                                    current: str) -> list[app_commands.Choice[str]]:
        """The lands the caller may expand into now, and what was typed when the map knows it."""
        offered = await self.choices_autocomplete(interaction, current, expansion_of)
        typed = current.strip()
        if typed and not any(c.value.casefold() == typed.casefold() for c in offered):
            game = getattr(interaction.namespace, "game", None)
            try:
                gid = await self._own_game(interaction, game if isinstance(game, str) else None,
                                           finished_ok=True)
                st = await self.bot.service.status(gid)
                view = await self.bot.service.view(gid, None)
            except ServiceError:
                return offered
            if get_game(st.ruleset).place_text(view, typed, st.seat_names) is not None:
                offered.insert(0, app_commands.Choice(name=typed[:100], value=typed[:100]))
        return offered[:MAX_OPTIONS]

    @app_commands.command(name="land", description="A land's details: area, terrain, holder, neighbours")
    @app_commands.describe(land="The land (any land of the map; the list offers those you may expand into)",
                           game="The game (default: your game in this channel)")
    async def land(self, interaction: Interaction, land: ShortText, game: GameId | None = None) -> None:
        async def work() -> Reply:
            gid = await self._own_game(interaction, game, finished_ok=True)
            st = await self.bot.service.status(gid)
            view = await self.bot.service.view(gid, None)  # public: the board only, never a hand
            text = get_game(st.ruleset).place_text(view, land, st.seat_names)
            if text is None:
                shown = land if len(land) <= 40 else land[:40] + "…"
                raise ServiceError("unknown_land", f"The map has no land called {shown!r}.")
            return Reply(text[:2000])
        await self._answer(interaction, work, ephemeral=True)

    @app_commands.command(name="scores", description="The score table and the score chart, for everyone")
    @app_commands.describe(game="The game (default: your game in this channel)",
                           chart="Add the chart of the scores over the game (default yes)")
    async def scores(self, interaction: Interaction, game: GameId | None = None, chart: bool = True) -> None:
        async def find() -> str:
            return await self._own_game(interaction, game, finished_ok=True)

        async def work(gid: str) -> Reply:
            from render.charts import score_chart  # matplotlib loads only when a chart is drawn
            from render.score_history import history_from_events

            st = await self.bot.service.status(gid)
            view = await self.bot.service.view(gid, None)  # public counts only: no marker values in play
            names = dict(enumerate(st.seat_names))
            text = f"**Scores of game `{gid}`**\n" + get_game(st.ruleset).summary_text(view, st.seat_names)
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
        await self._show(interaction, find, work)

    expand.autocomplete("lands")(lands_autocomplete)
    land.autocomplete("land")(map_land_autocomplete)
    for _command in (expand, land, scores):
        _command.autocomplete("game")(GameGroup.own_game_autocomplete)
    del _command


def setup(bot: BotBase, game_spec: GameSpec) -> None:
    """Add the classic group to the bot's command tree."""
    bot.tree.add_command(ClassicGroup(bot, game_spec))
