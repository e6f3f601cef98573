"""Eight-Minute Empire on Discord: the decision panel plays every decision, so nothing is added here.

Every decision of the game is an :class:`engine.core.Decision` with labels
from the engine, played with ``/annals play`` and the "your move" DM; its
status, hand, board and summary come from the game's own text hooks.
"""

from __future__ import annotations

from bot.discord.kit import BotBase
from engine.spec import GameSpec


def setup(bot: BotBase, game_spec: GameSpec) -> None:
    """Nothing beyond the panel: the game needs no command of its own."""
