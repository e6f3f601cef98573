"""What a game's own command group shares: its name from the spec, its games, batch moves. No rules here.

A game's Discord module (the spec's ``ui``) adds only what the decision panel
cannot express, such as several moves in one command. Its group is named
after the game's id and plays only games of that id; :func:`batch` sends a
list of moves one at a time, each picked from the person's decision as it
stands then, and stops at the first one that is no longer a choice or that
the game's own check says went wrong (a battle not won).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from discord import app_commands

from bot.discord.base import IN_SERVERS, LIVE, SERVER_INSTALL, CommandBase
from bot.discord.kit import MAX_MESSAGE, MAX_OPTIONS, BotBase, Interaction, Reply, clip
from bot.discord.panel import fit, idle_text, own_lines, sentence, turn_panel
from bot.models import Outcome
from bot.service import ServiceError
from engine.spec import GameSpec

ActionJSON = Mapping[str, Any]


class GameGroup(CommandBase, app_commands.Group):
    """The base of ``/GAME-ID ...``: the commands only one game has (lobbies open with ``/annals create``)."""

    def __init__(self, bot: BotBase, game_spec: GameSpec) -> None:
        super().__init__(name=game_spec.id, description=clip(f"More ways to play {game_spec.title}", 100),
                         guild_only=True, allowed_contexts=IN_SERVERS, allowed_installs=SERVER_INSTALL)
        self.bot = bot
        self.spec = game_spec

    async def _own_game(self, interaction: Interaction, game: str | None, *,
                        finished_ok: bool = False) -> str:
        """The game of this kind meant: the one named, else the caller's live one here or anywhere
        (with ``finished_ok``, looking rather than playing: else their latest finished one)."""
        title = self.spec.title
        if game:
            status = await self.bot.service.status(game.strip())
            if status.ruleset != self.spec.id:
                raise ServiceError("wrong_game", f"Game `{status.game_id}` is {status.title}; "
                                   f"these commands are for {title}.")
            return status.game_id
        kind = [r for r in await self._games_of(interaction.user.id) if r.ruleset == self.spec.id]
        mine = [r for r in kind if r.status in LIVE]
        here = [r for r in mine if interaction.channel_id in (r.channel_id, r.thread_id)]
        pick = here or mine
        if not pick and finished_ok:
            pick = sorted((r for r in kind if r.status == "over"), key=lambda r: r.updated_at)[-1:]
        if len(pick) == 1:
            return pick[0].game_id
        if not pick:
            raise ServiceError("no_such_game", f"You are in no {title} game; open one with "
                               f"`/annals create ruleset:{self.spec.id}`.")
        raise ServiceError("ambiguous", f"You play several {title} games; say which one with `game`.")

    async def own_game_autocomplete(self, interaction: Interaction,
                                    current: str) -> list[app_commands.Choice[str]]:
        """The caller's live games of this kind."""
        typed = current.lower().strip()
        out = []
        for row in await self._games_of(interaction.user.id):
            if row.ruleset == self.spec.id and row.status in LIVE and typed in row.game_id:
                out.append(app_commands.Choice(name=f"{row.game_id} ({row.status})", value=row.game_id))
        return out[:MAX_OPTIONS]

    async def choices_autocomplete(self, interaction: Interaction, current: str,
                                   name_of: Callable[[ActionJSON], str | None],
                                   ) -> list[app_commands.Choice[str]]:
        """The names ``name_of`` finds in the caller's choices now (in a list, the last one)."""
        game = getattr(interaction.namespace, "game", None)
        try:
            gid = await self._own_game(interaction, game if isinstance(game, str) else None)
            _, decision = await self.bot.service.decision(gid, interaction.user.id)
        except ServiceError:
            return []
        if decision is None:
            return []
        names = dict.fromkeys(n for c in decision.choices if (n := name_of(c.action.to_json())))
        head, comma, last = current.rpartition(",")
        prefix = f"{head.strip()}, " if comma else ""
        typed = last.strip().lower()
        out = []
        for name in names:
            value = f"{prefix}{name}"
            if typed in name.lower() and len(value) <= 100:
                out.append(app_commands.Choice(name=value, value=value))
        return out[:MAX_OPTIONS]


def split_names(text: str | None) -> list[str]:
    """``"A, B ,C"`` -> ``["A", "B", "C"]``."""
    return [x.strip() for x in (text or "").split(",") if x.strip()]


async def batch(bot: BotBase, game_id: str, user_id: int, names: Sequence[str],
                matches: Callable[[ActionJSON, str], bool], setback: Callable[[Outcome, int], str | None],
                ) -> Reply:
    """Play the choice ``matches`` finds for each of ``names`` in turn, as long as it is one.

    ``setback(outcome, seq)`` is the game's own check of a move sent at ``seq``: a
    sentence when the batch must stop there (a battle not won), else None. The
    answer says what each move did and ends with the person's decision now.
    """
    lines: list[str] = []
    for i, name in enumerate(names):
        rest = names[i + 1:]
        untried = f" ({', '.join(rest)} not tried)" if rest else ""
        seq, decision = await bot.service.decision(game_id, user_id)
        choice = None if decision is None else next(
            (c for c in decision.choices if matches(c.action.to_json(), name)), None)
        if choice is None:
            lines.append(f"{name} is not one of your choices now: stopped there{untried}.")
            break
        try:
            out = await bot.service.submit(game_id, user_id, choice.action.to_json(), seq)
        except ServiceError as exc:
            if not lines:
                raise
            lines.append(f"{name}: {exc.message} Stopped there{untried}.")
            break
        lines.append(sentence(choice.label))
        lines += own_lines(out, user_id, seq)
        why = setback(out, seq)
        if why is not None:
            lines.append(f"{why} Stopped there{untried}.")
            break
        if out.status.status != "active" or user_id not in out.status.waiting_for:
            if rest:
                lines.append(f"Your move is over{untried}.")
            break
    turn = await bot.service.turn(game_id, user_id)
    if turn.decision is not None:
        nxt = turn_panel(turn, user_id)
        return Reply(fit(lines, nxt.content), view=nxt.view)
    return Reply(clip(fit(lines, idle_text(turn.status)), MAX_MESSAGE))
