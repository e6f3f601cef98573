"""``/annals fleet``: the decisions about fleets in the classic rules.

The capital and the fleets of an empire are put on the board by the engine as
the empire begins (Chapter V, steps 2-4: the capital goes in the start land and
one fleet in every water listed on the card), so there is nothing to choose
there. What a player does decide about fleets, and what this command plays,
with autocomplete of the seas that are legal now:

* after the Reallocation card, which fleets to take off for a coin each
  (the engine's ``choose`` at the ``reallocate`` step);
* with the Naval Control rule, putting an army on a fleet (``man_fleet``) or
  fighting a fleet another player keeps in one of the empire's seas (``attack_fleet``).
"""

from __future__ import annotations

from typing import Any

from discord import app_commands

from bot.discord.base import MAX_OPTIONS, CommandBase, Interaction, Reply
from bot.discord.moves import battle_lines, still_yours


class FleetCommands(CommandBase):
    """``/annals fleet`` (bound to the ``/annals`` group)."""

    async def _fleet_moves(self, gid: str, user_id: int) -> tuple[int, list[tuple[str, str, dict[str, Any]]]]:
        """(seq, [(sea, what it does, action)]) for the caller's fleet decisions now."""
        seq, legal = await self.bot.service.legal_actions(gid, user_id)
        if not legal:
            return seq, []
        turn = (await self.bot.service.view(gid, None)).get("turn") or {}
        out = []
        for a in legal:
            kind = a.get("kind")
            if kind == "man_fleet":
                out.append((str(a["sea"]), "put an army on your fleet", a))
            elif kind == "attack_fleet":
                out.append((str(a["sea"]), "fight the fleet there", a))
            elif kind == "choose" and turn.get("step") == "reallocate":
                out.append((str(a["target"]), "take the fleet off for a coin", a))
        return seq, out

    async def sea_autocomplete(self, interaction: Interaction,
                               current: str) -> list[app_commands.Choice[str]]:
        """Only the seas where the caller has a fleet decision now."""
        gid = await self._namespace_game(interaction)
        if gid is None:
            return []
        _, moves = await self._fleet_moves(gid, interaction.user.id)
        typed = current.lower().strip()
        return [app_commands.Choice(name=f"{sea}: {what}"[:100], value=sea)
                for sea, what, _ in moves if typed in sea.lower()][:MAX_OPTIONS]

    @app_commands.command(name="fleet", description="Fleets: take one off (Reallocation), man or attack one")
    @app_commands.describe(sea="The sea (only seas with a fleet decision now are offered)",
                           game="The game (default: your game in this channel)")
    async def fleet(self, interaction: Interaction, sea: str, game: str | None = None) -> None:
        async def work() -> Reply:
            gid, _, _ = await self._legal(interaction, game, ())  # refuses when it is not their move
            user = interaction.user.id
            seq, moves = await self._fleet_moves(gid, user)
            if not moves:
                return Reply("You have no fleet to decide about now. Capital and fleets are placed for you "
                             "when your empire begins; see `/annals rules`.")
            wanted = sea.strip().lower()
            move = next((m for m in moves if m[0].lower() == wanted), None)
            if move is None:
                return Reply(f"Nothing to do with a fleet in {sea} now; possible: "
                             + ", ".join(m[0] for m in moves) + ".")
            out = await self.bot.service.submit(gid, user, move[2], seq)
            text = f"{move[0]}: you chose to {move[1]}."
            text += "".join(f"\n{line}" for line in battle_lines(out))
            return Reply(text + still_yours(out, user))
        await self._answer(interaction, work, ephemeral=True)

    fleet.autocomplete("sea")(sea_autocomplete)
    fleet.autocomplete("game")(CommandBase.game_autocomplete)
