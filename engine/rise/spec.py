"""Rise of Empires, as the platform sees it."""

from __future__ import annotations

from engine.registry import register
from engine.spec import GameSpec

SPEC = register(GameSpec(
    data=("rise",),
    id="rise",
    title="Rise of Empires",
    min_players=2,
    max_players=5,
    summary="Three eras of action rows, trade, territory and cities: the most victory points wins.",
    game="engine.rise.game:GAME",
    policies="engine.rise.ai:make_policy",
    invariants="engine.rise.invariants:problems",
    renderer="render.rise:render_board",
    pictures="render.rise:notice_pictures",
    named_places=True,
    undo_against_ai=True,  # every holding and row is on the table, one seat acts at a time
))
