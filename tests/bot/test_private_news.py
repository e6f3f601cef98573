"""Issue 28, item 5: every private notice names its game. "This epoch you play Shang Dynasty." reached
a person by DM in three games at once with no game named.

Through the fake Discord (the harness of :mod:`tests.bot.test_discord_bot`): every DM a person gets in a
History game names the game; and over the registry, every private line an engine or the platform
writes for one person, composed as the DM composes it, names its game.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.discord.transport import private_news
from bot.models import PUBLIC, Notice, NoticeKind
from bot.notices import describe_notice
from engine import registry
from tests.bot.test_discord_bot import (
    ALICE,
    BOB,
    CLASSIC,
    Rig,
    drive,
    fake,
    lobby_to_start,
    no_errors_logged,
    rig,
)

__all__ = ["fake", "no_errors_logged", "rig"]  # the harness's fixtures, used here by name
NAMES = ("alice (Blue)", "bob (Red)", "carol (Green)", "dave (Yellow)", "erin (Purple)", "fred (Orange)")


@pytest.mark.asyncio
async def test_every_dm_of_a_history_game_names_the_game(rig: Rig) -> None:
    game = await lobby_to_start(rig, CLASSIC, 3)
    await drive(rig, game, lambda seq, legal: seq >= 25)
    read = 0
    for user in (ALICE, BOB):
        for post in rig.fake.dm_posts(user):
            if post.content:
                assert f"`{game}`" in post.content.split("\n")[0], post.content
                read += 1
    assert read > 2


def _private_lines(game_id: str) -> list[str]:
    """Every line one seat alone is told in a seeded AI game (min players) of ``game_id``."""
    spec = registry.spec(game_id)
    game = spec.load()
    players = spec.min_players
    state = game.setup(players, spec.default_options(), 3)
    policies = [spec.make_policy(spec.policy_names[0], 7 + p) for p in range(players)]
    lines: list[str] = []
    while not game.is_over(state):
        player = min(game.actors(state))
        result = game.apply(state, policies[player].choose(state, player))
        state = result.state
        for event in result.events:
            if event.audience != PUBLIC:
                notice = Notice("g7k2", None, {}, (11,), 1, event=event)
                text = describe_notice(notice, NAMES[:players], game, str)
                lines += [text] if text else []
    return lines


#: Every platform notice a person may get alone, with what such a notice carries.
DATA: dict[str, Any] = {"seat": 0, "due_at": 1_700_000_000, "choice": "Card 1 (free)", "missed": 1,
                        "policy": "ai", "days": 2, "used": 2, "cap": 14, "away_until": 1_700_000_000,
                        "moves": 2, "user_id": 11, "title": "Game", "name": "alice (Blue)"}


@pytest.mark.parametrize("game_id", [s.id for s in registry.specs()])
def test_every_private_line_is_sent_under_its_games_name(game_id: str) -> None:
    lines = _private_lines(game_id)  # none in a game without hidden information (Rise)
    platform = [describe_notice(Notice("g7k2", kind, DATA, (11,), 1), NAMES, registry.get_game(game_id), str)
                for kind in NoticeKind]
    for line in lines + [p for p in platform if p]:
        sent = private_news("g7k2", registry.spec(game_id).title, [line])
        assert "g7k2" in sent.split("\n")[0], sent
        assert line in sent


def test_the_issues_line_is_one_of_them() -> None:
    assert any(line.startswith("This epoch you play") for line in _private_lines("history-classic"))
