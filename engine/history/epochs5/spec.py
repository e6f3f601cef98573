"""History of the World, 5-epoch edition, as the platform sees it."""

from __future__ import annotations

from engine.registry import register
from engine.spec import GameSpec, OptionSpec

SPEC = register(GameSpec(
    version="2",  # 2: undo stops at a card shown from the hand (a log that undid one replays otherwise)
    data=("history/epochs5",),
    id="history",
    title="History of the World (5-epoch edition)",
    min_players=3,
    max_players=6,
    summary="Five epochs of drafted empires and events: invade, besiege, sail and trade, score.",
    game="engine.history.epochs5.game:GAME",
    policies="engine.history.epochs5.ai:make_policy",
    invariants="engine.history.epochs5.invariants:problems",
    renderer="render.history_board:render_epochs5",
    pictures="render.history_closeup:notice_epochs5",
    warm="render.history_closeup:warm_epochs5",
    options=(
        OptionSpec("classic_drafting", "Optional rule: draw the top card of each set and keep it or give it "
                   "away."),
    ),
    anytime_kinds=frozenset({"prefer"}),
    ui="bot.discord.epochs5",
    simultaneous_steps=True,  # the draft: the event card's and the empire's holders pick at once
    hidden_information=True,  # each hand of event cards
    named_places=True,
    undo_against_ai=True,
))
