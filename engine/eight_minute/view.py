"""What a player (or a spectator) sees of an Eight-Minute Empire game: :class:`EMView`, JSON-native.

Hidden from a viewer: the order of the deck and the other players' bids until
every bid is in. Everything else on the table is public: the board, the row,
the coins and the cards each player took (face up in front of them).
"""

from __future__ import annotations

from typing import TypedDict

from engine.eight_minute import flow
from engine.eight_minute.data import CardView, EMData, StepView
from engine.eight_minute.scoring import (
    ScoreView,
    breakdown,
    continent_controllers,
    places,
    ranking,
    region_controllers,
    totals,
)
from engine.eight_minute.state import EMState, Phase
from engine.eight_minute.steps import STEPS


class RowCard(CardView):
    """A face-up card of the row (its face, :class:`CardView`), with its price by position (0 = leftmost)."""

    position: int
    price: int


class BoardView(TypedDict):
    armies: dict[str, list[int]]  # region -> count per seat; empty regions left out
    neutral: dict[str, int]  # the 2-player neutral armies
    cities: dict[str, list[int]]
    tokens: dict[str, str]  # Goods Tokens variant: region -> good
    control: dict[str, int]  # region -> seat, -1 for the neutral armies
    continents: dict[str, int]  # continent -> seat, -1 for the neutral armies


class BidView(TypedDict):
    has_bid: list[bool]
    bids: list[int] | None  # None until every bid is in
    winner: int | None
    rolls: list[list[list[int]]]  # die roll-off rounds of [seat, die]


class OptionView(TypedDict):
    index: int
    do: str
    n: int


class TaskView(TypedDict):
    """The card being resolved: an and/or choice still open, or the action under way and what follows."""

    player: int | None
    card: int
    choose: bool
    options: list[OptionView]  # when choose
    do: str | None
    left: int
    then: list[StepView]


class YouView(TypedDict):
    player: int
    bid: int | None  # your own secret bid


class EMView(TypedDict):
    """The whole view; ``viewer`` None is a spectator."""

    game: str
    seq: int
    players: int
    options: dict[str, bool | int | str]
    game_no: int
    games: int  # 1, or 3 with the Full Game variant
    phase: Phase  # a str: its value once the view went through JSON
    actors: list[int]
    start: str
    board: BoardView
    row: list[RowCard]
    deck_left: int
    coins: list[int]
    cards: list[list[int]]  # card ids each seat took, face up
    armies_left: list[int]
    cities_left: list[int]
    cards_to_end: int  # cards each player holds when the game ends
    neutral_left: int
    neutral_next: int | None
    bid: BidView
    first_player: int | None
    current: int | None
    task: TaskView | None
    scores: list[ScoreView]
    past_games: list[list[int]]
    totals: list[int]  # past games + this one
    final: list[int] | None
    ranking: list[int] | None
    places: list[list[int]] | None  # the seats by place, a tie that survives the tie-breaks shared
    you: YouView | None


def row_card(data: EMData, position: int, card_id: int) -> RowCard:
    card = data.cards[card_id]
    return RowCard(position=position, price=flow.price(data, position), card=card.id, good=card.good,
                   goods=card.goods, actions=[StepView(do=s.verb, n=s.n) for s in card.actions],
                   combine=card.combine, five=card.five, text=card.text())


def task_view(state: EMState) -> TaskView | None:
    task = state.task
    if task is None:
        return None
    steps = [(str(v), int(n)) for v, n in task["steps"]]
    return TaskView(
        player=state.current, card=int(task["card"]), choose=bool(task["choose"]),
        options=[OptionView(index=i, do=v, n=n) for i, (v, n) in enumerate(steps)] if task["choose"] else [],
        do=task["do"], left=int(task["left"]),
        then=[] if task["choose"] else [StepView(do=v, n=n) for v, n in steps],
    )


def build_view(game_id: str, state: EMState, data: EMData, viewer: int | None) -> EMView:
    """Everything ``viewer`` may see (None: a spectator)."""
    regions = region_controllers(state, data)
    parts = breakdown(state, data)
    all_bid = all(b is not None for b in state.bids)
    you: YouView | None = None
    if viewer is not None and 0 <= viewer < state.players:
        you = YouView(player=viewer, bid=state.bids[viewer] if state.bids else None)
    return EMView(
        game=game_id,
        seq=state.seq,
        players=state.players,
        options=dict(state.options),
        game_no=state.game_no,
        games=flow.games_in_match(state, data),
        phase=state.phase,
        actors=sorted(STEPS[state.phase].actors(state)),
        start=data.start,
        board=BoardView(
            armies={r: list(c) for r, c in sorted(state.armies.items())},
            neutral=dict(sorted(state.neutral.items())),
            cities={r: list(c) for r, c in sorted(state.cities.items())},
            tokens=dict(sorted(state.tokens.items())),
            control=dict(sorted(regions.items())),
            continents=dict(sorted(continent_controllers(state, data, regions).items())),
        ),
        row=[row_card(data, i, c) for i, c in enumerate(state.row)],
        deck_left=len(state.deck),
        coins=list(state.coins),
        cards=[list(h) for h in state.hands],
        armies_left=[flow.armies_left(state, data, p) for p in range(state.players)],
        cities_left=[flow.cities_left(state, data, p) for p in range(state.players)],
        cards_to_end=data.end_cards[state.players],
        neutral_left=state.neutral_left,
        neutral_next=state.neutral_next if state.phase is Phase.NEUTRAL else None,
        bid=BidView(
            has_bid=[b is not None for b in state.bids],
            bids=list(state.revealed_bids) if all_bid and state.revealed_bids is not None else None,
            winner=state.bid_winner,
            rolls=[[pair[:] for pair in rnd] for rnd in state.bid_rolls],
        ),
        first_player=state.first_player,
        current=state.current,
        task=task_view(state),
        scores=parts,
        past_games=[list(g) for g in state.past_games],
        totals=totals(state, parts),
        final=list(state.final) if state.final is not None else None,
        ranking=ranking(state, data) if state.phase is Phase.OVER else None,
        places=places(state, data) if state.phase is Phase.OVER else None,
        you=you,
    )
