"""Eight-Minute Empire, as the platform sees it."""

from __future__ import annotations

from engine.registry import register
from engine.spec import GameSpec, OptionSpec

SPEC = register(GameSpec(
    data=("eight_minute",),
    id="eight-minute",
    version="2",  # 2: the deck follows most public card lists (cards 8, 9, 19, 22): old logs replay otherwise
    title="Eight-Minute Empire",
    min_players=2,
    max_players=5,
    summary="A quick area-control game: buy a card, place, move or build, collect goods.",
    game="engine.eight_minute.game:GAME",
    policies="engine.eight_minute.ai:make_policy",
    invariants="engine.eight_minute.invariants:problems",
    renderer="render.eight_minute:render_board",
    pictures="render.eight_minute:notice_pictures",  # the board with its region names: the choices name them
    simultaneous_steps=True,  # the opening bid: every player bids coins at once
    hidden_information=True,  # a bid is sealed until all are in
    named_places=True,
    undo_against_ai=True,
    options=(
        OptionSpec("full_game", "Full Game variant: three games in a row; the highest sum of points wins."),
        OptionSpec("goods_tokens", "Goods Tokens variant: a token on each triangle region: one more good to "
                   "its controller."),
        OptionSpec("youngest", "Seat number (1 = first seat) of the youngest player, who wins a tied bid; "
                   "0 = nobody says, and tied bids roll a die (the rulebook's variant).",
                   default=0, minimum=0, maximum=5),
    ),
))
