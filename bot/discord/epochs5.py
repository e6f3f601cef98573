"""The 5-epoch History of the World on Discord: only what the decision panel cannot express.

Every decision of the 5-epoch rules (the draft, the kingdom, invasions with
their routes and battle previews, rerolls, sieges, events and their targets,
the score track) is played with the generic panel (``/annals play`` and the
"your move" DM), labelled by the engine. This group, named after the game's
id, adds:

* ``invade lands:"A, B"``: several invasions in order, stopping at the first
  territory that is no longer a choice or whose battle was not won (the
  engine's ``won`` flag on the battle's events);
* ``prefs``: standing preferences (when to reroll as a defender, what to do
  when the score marker lands on another), sent as the engine's ``prefer``
  action, which the spec lets a seated player send at any time; every
  preference is worded by the engine (its sentence for the ``preference``
  event), never here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from discord import app_commands

from bot.discord.game_group import ActionJSON, GameGroup, batch, split_names
from bot.discord.kit import MAX_OPTIONS, BotBase, GameId, Interaction, LongText, Reply, ShortText
from bot.models import Outcome
from bot.service import ServiceError
from engine.core import Event, Game, Names
from engine.registry import get_game
from engine.spec import GameSpec

#: The values the engine's ``prefer`` action takes, by key: what the command sends, never shown.
PREF_VALUES: dict[str, tuple[str, ...]] = {
    "reroll": ("if_losing", "if_not_winning", "never"),
    "track": ("ask", "up", "down"),
}


def preference_words(game: Game, seat: int, key: str, value: str, names: Names) -> str:
    """The engine's sentence for ``seat`` setting ``key`` to ``value``, as it tells the player."""
    event = Event("preference", {"player": seat, "key": key, "value": value}, (seat,))
    return game.describe_event(event, names) or f"{key}: {value}."


def invasion_of(action: ActionJSON) -> str | None:
    """The territory an invasion goes to (None: not an invasion)."""
    return str(action["land"]) if action.get("kind") == "invade" else None


def battle_not_won(out: Outcome, seq: int) -> str | None:
    """A sentence when the move at ``seq`` left a battle not won (the engine's ``won`` flag), else None."""
    for notice in out.notices:
        if notice.seq == seq + 1 and notice.data.get("won") is False:
            where = notice.data.get("land")
            return f"The battle for {where} is not won." if where else "The battle is not won."
    return None


class Epochs5Group(GameGroup):
    """``/<game id> ...``: batch invasion and standing preferences of the 5-epoch rules."""

    @app_commands.command(name="invade", description="Invade several territories in order")
    @app_commands.describe(lands="Territories, comma separated, tried in order; stops at a battle not won",
                           game="The game (default: your game in this channel)")
    async def invade(self, interaction: Interaction, lands: LongText, game: GameId | None = None) -> None:
        async def work() -> Reply:
            names = split_names(lands)
            if not names:
                return Reply('Name one territory or several with `lands:"A, B"`.')
            gid = await self._own_game(interaction, game)
            return await batch(self.bot, gid, interaction.user.id, names,
                               lambda a, name: (invasion_of(a) or "").lower() == name.lower(), battle_not_won)
        await self._answer(interaction, work, ephemeral=True)

    async def lands_autocomplete(self, interaction: Interaction,
                                 current: str) -> list[app_commands.Choice[str]]:
        """The territories the caller may invade now (completing the last name of a list)."""
        return await self.choices_autocomplete(interaction, current, invasion_of)

    async def _pref_choices(self, interaction: Interaction, current: str,
                            key: str) -> list[app_commands.Choice[str]]:
        """The values of ``key``, each named by the engine's sentence for it (its lead cut off)."""
        game = get_game(self.spec.id)
        typed = current.casefold().strip()
        out = []
        for value in PREF_VALUES[key]:
            words = preference_words(game, 0, key, value, ())
            name = (words.partition(": ")[2] or words).rstrip(".")[:100]
            if typed in name.casefold() or typed == value:
                out.append(app_commands.Choice(name=name, value=value))
        return out[:MAX_OPTIONS]

    async def reroll_autocomplete(self, interaction: Interaction,
                                  current: str) -> list[app_commands.Choice[str]]:
        """When to reroll as a defender, in the engine's words."""
        return await self._pref_choices(interaction, current, "reroll")

    async def track_autocomplete(self, interaction: Interaction,
                                 current: str) -> list[app_commands.Choice[str]]:
        """What to do when the score marker lands on another's, in the engine's words."""
        return await self._pref_choices(interaction, current, "track")

    @app_commands.command(
        name="prefs", description="Your standing choices when you are not asked (show or set)"
    )
    @app_commands.describe(
        reroll="As a defender against a fleet: when to reroll your die",
        track="When your score marker lands on another's space",
        game="The game (default: your game in this channel)",
    )
    async def prefs(
        self,
        interaction: Interaction,
        reroll: ShortText | None = None,
        track: ShortText | None = None,
        game: GameId | None = None,
    ) -> None:
        async def work() -> Reply:
            gid = await self._own_game(interaction, game)
            user = interaction.user.id
            rules = get_game(self.spec.id)
            lines = []
            for key, value in (("reroll", reroll), ("track", track)):
                if value is None:
                    continue
                seq = (await self.bot.service.status(gid)).seq
                try:
                    out = await self.bot.service.submit(
                        gid, user, {"kind": "prefer", "key": key, "value": value}, seq
                    )
                except ServiceError as exc:
                    lines.append(exc.message)
                    break
                names = (await self.bot.service.status(gid)).seat_names
                lines += [said for n in out.notices if n.event is not None and n.audience != "public"
                          and user in n.audience and (said := rules.describe_event(n.event, names))]
            you: Mapping[str, Any] | None = (await self.bot.service.view(gid, user)).get("you")
            if not you:
                return Reply(f"You have no seat in game `{gid}`.")
            seat = int(you["player"])
            now = you.get("prefs") or {}
            lines.append("Your standing preferences:")
            lines += [f"- {preference_words(rules, seat, str(k), str(v), ())}"
                      for k, v in sorted(now.items())]
            return Reply("\n".join(lines))

        await self._answer(interaction, work, ephemeral=True)

    invade.autocomplete("lands")(lands_autocomplete)
    invade.autocomplete("game")(GameGroup.own_game_autocomplete)
    prefs.autocomplete("game")(GameGroup.own_game_autocomplete)
    prefs.autocomplete("reroll")(reroll_autocomplete)
    prefs.autocomplete("track")(track_autocomplete)


def setup(bot: BotBase, game_spec: GameSpec) -> None:
    """Add the 5-epoch group to the bot's command tree."""
    bot.tree.add_command(Epochs5Group(bot, game_spec))
