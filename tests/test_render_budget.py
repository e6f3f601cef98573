"""Every message's pictures within Discord's budget (issue 25): a turn notice (the reader's view at
chat width, closing in on the news since the reader's last move) and an ``/annals board`` message (a
spectator's view at the bot's board width, closing in on the latest turn) carry at most 250 KiB of
pictures, for every registered game, in the middle of a game and at its end."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import pytest

from bot.digest import NOTICE_SIZE, places
from engine import registry
from engine.spec import GameSpec

BUDGET = 250 * 1024
BOARD_SIZE = 1600  # the bot's default board width (bot.discord.kit.BotBase), what /annals board draws at


@dataclass
class Position:
    """A game stopped at a reader's turn: what a notice to that reader and a board message show."""

    view: Mapping[str, Any]
    focus: list[str]
    public: Mapping[str, Any]
    latest: list[str]


def position(spec: GameSpec, seed: int, steps: int) -> Position:
    """Random players for ``steps`` moves (or to the end), stopped when a seat that moved before is to
    move again (at the end: seat 0 reads the notice)."""
    game = spec.load()
    players = min(max(4, spec.min_players), spec.max_players)
    state = game.setup(players, spec.default_options(), seed)
    ais = [spec.make_policy("random", seed * 10 + p) for p in range(players)]
    rng = random.Random(seed)
    log: list[dict[str, Any]] = []
    seat = 0
    while not game.is_over(state):
        seat = rng.choice(sorted(game.actors(state)))
        if len(log) >= steps and log[-1]["player"] != seat and any(e["player"] == seat for e in log):
            break
        result = game.apply(state, ais[seat].choose(state, seat))
        state = result.state
        log.append({"player": seat, "events": [json.loads(json.dumps(e.to_json())) for e in result.events
                                                 if e.visible_to(None)]})
    else:
        seat = 0
    last = max((i for i, e in enumerate(log) if e["player"] == seat), default=0)
    run = len(log)
    while run > 0 and log[run - 1]["player"] == log[-1]["player"]:
        run -= 1
    return Position(json.loads(json.dumps(game.view(state, seat))), places(log[last:], seat),
                    json.loads(json.dumps(game.view(state, None))), places(log[run:]))


@pytest.mark.parametrize("spec", registry.specs(), ids=lambda s: s.id)
@pytest.mark.parametrize("steps", [120, 10**6], ids=["mid-game", "final"])
def test_every_message_carries_at_most_250_kib(spec: GameSpec, steps: int) -> None:
    at = position(spec, seed=7, steps=steps)
    draw = spec.notice_pictures()
    for message, view, focus, size in (("notice", at.view, at.focus, NOTICE_SIZE),
                                       ("board", at.public, at.latest, BOARD_SIZE)):
        pictures = draw(view, focus=focus, size=size)
        sizes = {tag or "board": len(png) for tag, png in pictures}
        assert sum(sizes.values()) <= BUDGET, (message, sizes)
