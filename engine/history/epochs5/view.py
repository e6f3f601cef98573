"""What a player sees of a 5-epoch game: the typed view every reader (text, decisions, renderer, bot) uses.

Everything here is JSON-native. Hidden things (the piles, other hands, the
cards being drafted, empires not yet revealed) appear only in the viewer's own
``you`` part. The active turn is public: the board shows it, so the turn part
also carries what the engine computed for it (the invasions open now with
their routes and odds, a battle's totals) and no reader redoes rules
arithmetic.
"""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict, final

from engine.history.epochs5.board import Breakdown
from engine.history.epochs5.state import Phase, TurnStep


class TrackSpace(TypedDict):
    space: int
    flipped: bool


class RegionTokenView(TypedDict):
    value: int
    first: int
    last: int


class BoardView(TypedDict):
    armies: dict[str, list[Any]]  # territory -> [owner, force key or "" once resigned]
    forts: list[str]
    structures: dict[str, str]  # territory -> capitol | city
    monuments: list[str]


class DraftView(TypedDict):
    order: list[int]
    step: int
    event_holder: int
    empire_holder: int
    event_cards_left: int
    empire_cards_left: int
    has_empire: list[bool]


class Invasion(TypedDict):
    """A territory the active force may invade now."""

    land: str
    routes: list[str]  # "land" and/or "sea" (a fleet: the defender may reroll a die)
    ways: list[str]  # how, in words: "border", "caravan", "fleet", "a battle won"
    holder: int | None  # whose army stands there (None: empty)
    battle: bool  # an opponent's army: invading it is a battle
    odds: dict[str, int]  # route -> chance in percent to win the first roll of that battle


class BattleView(TypedDict):
    land: str
    defender: int
    route: str
    fortified: bool
    terrain: bool
    att: list[int]
    dfd: list[int]
    totals: list[int]  # [the invader's total, the defender's total] as the dice stand
    rerolls_left: int


class TurnView(TypedDict):
    player: int
    empire: str
    name: str  # the empire's name
    step: TurnStep  # a str: its value once the view went through JSON
    force: str
    force_name: str  # the empire or kingdom placing armies now
    force_kind: str  # empire | kingdom
    armies: int
    siege_tokens: int
    fleets: list[str]
    caravans: list[str]
    catapult: int
    effects: list[str]
    played: list[str]
    battle: BattleView | None
    pending: dict[str, Any] | None
    track: dict[str, Any] | None
    invasions: list[Invasion]


class Choosing(TypedDict):
    pile: str  # event | empire
    cards: list[str]


class YouView(TypedDict):
    player: int
    hand: list[str]
    empire: str | None
    prefs: dict[str, str]
    score_now: Breakdown
    choosing: NotRequired[Choosing]


# final: a reader of both History views (render.history_shown) tells them apart by their keys, which
# mypy narrows only for a final TypedDict
@final
class Epochs5View(TypedDict):
    game: str
    seq: int
    players: int
    options: dict[str, Any]
    epoch: int
    epoch_name: str
    phase: Phase  # a str: its value once the view went through JSON
    actors: list[int]
    scores: list[int]
    epoch_scores: list[list[int]]  # each player's score at the end of each epoch played
    track: list[TrackSpace]
    ranking: list[int] | None
    places: list[list[int]] | None  # the seats by place, a tie that survives the tie-breaks shared
    hand_sizes: list[int]
    played_empires: list[list[str]]
    empires_this_epoch: dict[str, str | None]
    region_tokens: dict[str, RegionTokenView]
    board: BoardView
    draft: DraftView | None
    turn: TurnView | None
    you: YouView | None
