"""What one player (or a spectator) may see of a classic game: the typed view.

The renderers, the decision labels and every sentence read this and nothing
else, so hidden information (hands, the empire deck, drawn cards, marker
values) leaves the engine only through :func:`build_view`. An army is
``[owner, piece_epoch, force]`` as in the state.
"""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict, final

from engine.history import event_cards
from engine.history.board import Ctx
from engine.history.data import RulesData
from engine.history.flow import expansion_targets, fort_lands, naval_options
from engine.history.scoring import Breakdown, places, ranking, score_breakdown
from engine.history.state import HistoryState, Phase, TurnStep
from engine.words import roman

_PLACING = (TurnStep.MINOR, TurnStep.CRUSADE, TurnStep.EXPAND)
"""The steps in which a force places armies (its targets are shown)."""
_MANNING = (TurnStep.NAVAL, TurnStep.EXPAND)
"""The steps in which fleets may be fought for or manned."""

class BoardView(TypedDict):
    armies: dict[str, list[list[Any]]]
    forts: list[str]
    structures: dict[str, str]  # land -> capital | city
    monuments: list[str]
    manned: dict[str, list[Any]]  # Naval Control: sea -> army on a fleet


class DrawView(TypedDict):
    order: list[int]
    drawer: int | None
    has_card: list[bool]
    cards_left: int


class PickView(TypedDict):
    what: str  # fleets | unman | monument
    options: list[str]
    left: int
    chosen: list[str]


class TurnView(TypedDict):
    player: int
    empire: str
    name: str
    step: TurnStep  # a str: its value once the view went through JSON
    force: str
    force_key: str
    force_kind: str
    pool: int
    restricted: int
    fleets: list[str]
    coins: int
    allies_coins: int
    free_forts: int
    lost: int
    played: list[str]
    leader: bool
    weaponry: bool
    jihad_losses: int
    elite: bool
    siegecraft: bool
    naval_power: bool
    expert: list[str]
    treachery: str | None
    pending: dict[str, Any] | None  # the card waiting for targets: card, effect, chosen...
    needs: list[int] | None  # [fewest, most] targets of the pending card, counting those chosen
    pick: PickView | None
    targets: dict[str, int]  # lands the force may expand into -> the defender's dice (0: no battle)
    fort_lands: list[str]
    naval: list[list[str]]  # Naval Control moves: [kind, sea]
    event_pieces: dict[str, int]  # card -> the far-away epoch its armies use


class YouView(TypedDict):
    player: int
    hand: list[str]
    score_now: Breakdown
    empire: NotRequired[str | None]
    empire_given_by: NotRequired[int]
    drawn: NotRequired[str]
    gave: NotRequired[dict[str, str | None]]
    piece_choices: NotRequired[dict[str, list[int]]]  # playable far-away cards -> epochs offered


# final: a reader of both History views (render.history_shown) tells them apart by their keys, which
# mypy narrows only for a final TypedDict
@final
class ClassicView(TypedDict):
    game: str
    seq: int
    players: int
    options: dict[str, Any]
    epoch: int
    epoch_name: str
    phase: Phase  # a str: its value once the view went through JSON
    actors: list[int]
    scores: list[int]
    final: list[int] | None
    ranking: list[int] | None
    places: list[list[int]] | None  # the seats by place, a tie that survives the tie-breaks shared
    hand_sizes: list[int]
    markers: list[int]
    marker_values: list[list[int]] | None
    played_empires: list[list[str]]
    empires_this_epoch: dict[str, str]
    board: BoardView
    draw: DrawView | None
    turn: TurnView | None
    you: YouView | None


def build_view(
    game_id: str, state: HistoryState, rules: RulesData, viewer: int | None, actors: list[int]
) -> ClassicView:
    """Everything ``viewer`` may see (None: a spectator)."""
    revealed: dict[str, str] = {}
    for p in range(state.players):
        played = state.played_empires[p]
        if played and rules.empires[played[-1]].epoch == state.epoch and state.phase is not Phase.DRAW:
            revealed[str(p)] = played[-1]
    view = ClassicView(
        game=game_id,
        seq=state.seq,
        players=state.players,
        options=dict(state.options),
        epoch=state.epoch,
        epoch_name=f"Epoch {roman(state.epoch)}",
        phase=state.phase,
        actors=actors,
        scores=list(state.scores),
        final=list(state.final) if state.final is not None else None,
        ranking=ranking(state, rules) if state.phase is Phase.OVER else None,
        places=places(state, rules) if state.phase is Phase.OVER else None,
        hand_sizes=[len(h) for h in state.hands],
        markers=[len(m) for m in state.markers],
        marker_values=[list(m) for m in state.markers] if state.phase is Phase.OVER else None,
        played_empires=[list(p) for p in state.played_empires],
        empires_this_epoch=revealed,
        board=BoardView(
            armies={land: [list(a) for a in stack] for land, stack in state.armies.items()},
            forts=list(state.forts),
            structures=dict(state.structures),
            monuments=list(state.monuments),
            manned={sea: list(a) for sea, a in state.manned.items()},
        ),
        draw=None,
        turn=None,
        you=None,
    )
    if state.phase is Phase.DRAW:
        view["draw"] = DrawView(
            order=list(state.draw_order),
            drawer=state.draw_order[state.draw_pos] if state.drawn is not None else None,
            has_card=[h is not None for h in state.holding],
            cards_left=len(state.deck),
        )
    turn = state.turn
    ctx = Ctx(state, rules)
    if turn is not None:
        pick = turn.pick
        view["turn"] = TurnView(
            player=turn.player,
            empire=turn.empire,
            name=rules.empires[turn.empire].name,
            step=turn.step,
            force=turn.force.name,
            force_key=turn.force.key,
            force_kind=turn.force.kind,
            pool=turn.force.pool,
            restricted=turn.force.restricted,
            fleets=list(turn.force.fleets),
            coins=turn.coins,
            allies_coins=turn.allies_coins,
            free_forts=turn.free_forts,
            lost=turn.lost,
            played=list(turn.played),
            leader=turn.leader,
            weaponry=turn.weaponry,
            jihad_losses=turn.jihad_losses,
            elite=turn.elite,
            siegecraft=turn.siegecraft,
            naval_power=turn.naval_power,
            expert=list(turn.expert),
            treachery=turn.treachery,
            pending=dict(turn.pending) if turn.pending else None,
            needs=list(event_cards.needed(ctx)) if turn.pending and turn.step is TurnStep.CARD else None,
            pick=PickView(what=str(pick["what"]), options=list(pick["options"]), left=int(pick["left"]),
                          chosen=list(pick["chosen"])) if pick is not None else None,
            targets=expansion_targets(ctx) if turn.step in _PLACING else {},
            fort_lands=fort_lands(ctx) if turn.step is TurnStep.EXPAND else [],
            naval=[list(m) for m in naval_options(ctx)] if turn.step in _MANNING else [],
            event_pieces=dict(turn.event_pieces),
        )
    if viewer is not None and 0 <= viewer < state.players:
        you = YouView(player=viewer, hand=list(state.hands[viewer]),
                      score_now=score_breakdown(state, rules, viewer))
        if state.phase is Phase.DRAW:
            holding = state.holding[viewer]
            if holding is not None and state.given_by[viewer] is None:
                you["empire"] = holding
            elif holding is not None:
                you["empire"] = None
                you["empire_given_by"] = int(state.given_by[viewer] or 0)
            if state.drawn is not None and state.draw_order[state.draw_pos] == viewer:
                you["drawn"] = state.drawn
            you["gave"] = {
                str(p): state.holding[p] for p in range(state.players) if state.given_by[p] == viewer
            }
        elif state.phase is Phase.TURN:
            you["empire"] = state.holding[viewer]
            if turn is not None and turn.player == viewer and turn.step is TurnStep.EVENTS:
                you["piece_choices"] = {
                    c: event_cards.piece_choices(ctx, rules.cards[c])
                    for c in sorted(set(state.hands[viewer])) if event_cards.far_epochs(ctx, rules.cards[c])
                }
        view["you"] = you
    return view
