"""History of the World, classic 7-epoch rules, as the platform sees it."""

from __future__ import annotations

from engine.registry import register
from engine.spec import GameSpec, OptionSpec

SPEC = register(GameSpec(
    version="2",  # 2: undo stops at a card shown from the hand (a log that undid one replays otherwise)
    data=("history/classic",),
    id="history-classic",
    title="History of the World (classic 7-epoch rules)",
    min_players=3,
    max_players=6,
    summary="Seven epochs of empires from Sumeria to Britain: draw, expand, fight, score.",
    game="engine.history.game:GAME",
    policies="engine.history.ai:make_policy",
    invariants="engine.history.invariants:problems",
    renderer="render.history_board:render_classic",
    pictures="render.history_closeup:notice_classic",
    warm="render.history_closeup:warm_classic",
    options=(
        OptionSpec("no_preeminence", "Advanced rule: no pre-eminence markers are awarded."),
        OptionSpec("one_minor_each", "Advanced rule: each player is dealt one Minor Empire and two other "
                   "Greater Events."),
        OptionSpec("multiple_armies", "Advanced rule: up to 3 figures (armies, at most one fort) in a land."),
        OptionSpec("naval_control", "Advanced rule: armies on fleets hold seas, stay on the board and score "
                   "1 each."),
    ),
    ui="bot.discord.classic",
    hidden_information=True,  # each hand of event cards
    named_places=True,
    undo_against_ai=True,
))
