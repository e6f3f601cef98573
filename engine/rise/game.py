"""Rise of Empires as an Annals game (id ``rise``), 2 to 5 players.

Three eras of two game turns ("A" then "B"); each turn: new tiles, six actions
per player one at a time in turn order, food, income, victory points, (after
a B turn) the end of the era, and turn order determination. See
``engine.rise.actions`` for how a player's action breaks into short choices,
``engine.rise.view`` for what a player sees (:class:`RiseView`), and
``engine.rise.decision`` / ``engine.rise.text`` for the words built from it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core import Ending, Names, PlayerId, SpokenBy, StepGame, Words
from engine.rise import decision, end, flow, text, turn
from engine.rise.actions import CODEC
from engine.rise.context import Ctx
from engine.rise.data import RiseData, check_data, load_data
from engine.rise.spec import SPEC
from engine.rise.state import Phase, RiseState, Stage
from engine.rise.steps import STEPS
from engine.rise.view import RiseView, build_view
from engine.words import roman


class RiseGame(SpokenBy[RiseView], StepGame[RiseState, Ctx, Phase | Stage]):
    """The :class:`engine.core.Game` implementation of Rise of Empires, run by its steps
    (:data:`engine.rise.steps.STEPS`: who acts, the legal moves, the timeout move and the rules of each
    move, by the stage of the action under way or by the phase)."""

    WORDS = Words(decision=decision.decide, describe_event=text.describe_event, stage=text.stage,
                  status_text=text.status_text, hand_text=text.hand_text, board_text=text.board_text,
                  summary_text=text.summary_text)

    id = "rise"
    title = "Rise of Empires"
    min_players = 2
    max_players = 5
    codec = CODEC

    def __init__(self) -> None:
        super().__init__(STEPS, over=Phase.OVER)

    @property
    def data(self) -> RiseData:
        return load_data()

    def check_data(self) -> list[str]:
        """Every problem in this game's data files (for ``python -m engine check-data``)."""
        return check_data()

    def setup(self, players: int, options: Mapping[str, Any], seed: int) -> RiseState:
        state = RiseState(players=players, options=SPEC.checked_options(players, options), seed=int(seed))
        flow.start_game(Ctx(state, self.data))
        return state

    # -- whose move (the steps say who acts, which moves they have and the timeout move) ------------
    def step(self, state: RiseState) -> Phase | Stage:
        """The stage of the action under way in the Player Actions phase; otherwise the phase."""
        if state.phase is Phase.ACTIONS:
            return Stage(turn.task_of(state)["stage"])
        return state.phase

    def up_next(self, state: RiseState) -> PlayerId | None:
        """The next seat of the turn order while the Player Actions phase has an action left after this
        one; the next chooser while two or more are still to choose a turn-order place (the last takes
        the place left). None in the upkeep decisions and after the last action of a turn."""
        if state.phase is Phase.ACTIONS and state.task is not None:
            following = state.act_no + 1
            if following < self.data.actions_per_turn * state.players:
                seat = state.order[following % state.players]
                return seat if seat != int(state.task["player"]) else None
            return None
        if state.phase is Phase.ORDER and len(state.choosers) >= 3:
            return state.choosers[1]
        return None

    def hidden_draws(self, state: RiseState) -> tuple[int, ...]:
        # a face-down tile box shrinks when a tile is turned up
        return tuple(len(box) for boxes in (state.progress_boxes, state.territory_boxes, state.city_boxes)
                     for box in boxes)

    def private_variants(self, state: RiseState, seat: PlayerId) -> list[RiseState]:
        """None: nothing in Rise of Empires is one seat's secret (tiles are kept face up); the face-down
        tile boxes are hidden from everyone and :meth:`hidden_draws` covers them."""
        return []

    # -- applying (StepGame.apply checks the actor and hands the move to its step's handler) -------
    def begin(self, state: RiseState) -> Ctx:
        return Ctx(state.clone(), self.data)

    def finish(self, ctx: Ctx) -> RiseState:
        ctx.state.seq += 1
        return ctx.state

    # -- what players see -------------------------------------------------------------------------
    def view(self, state: RiseState, viewer: PlayerId | None) -> RiseView:
        """Everything ``viewer`` may see (None: a spectator); see :class:`engine.rise.view.RiseView`."""
        return build_view(state, self.data, viewer, self.id, sorted(self.actors(state)))

    # -- the end ---------------------------------------------------------------------------------------
    def scores(self, state: RiseState) -> list[int]:
        """Final points once over; until then the victory points so far."""
        return list(state.final) if state.final is not None else state.vp[:]

    def compared(self, state: RiseState, seat: PlayerId) -> tuple[int, int]:
        return end.compared(state, seat)

    def ending(self, state: RiseState) -> tuple[Ending, str]:
        # the game has one end: the victory points of its last turn, then the final bonus
        return Ending.LAST_ROUND, (f"The game ends: Era {roman(state.era)}, the last, is over after turn "
                                   f"{state.turn} of {self.data.turns}.")

    def to_json(self, state: RiseState) -> dict[str, Any]:
        return state.to_json()

    def dumps(self, state: RiseState) -> str:
        return state.dumps()

    def from_json(self, data: Mapping[str, Any]) -> RiseState:
        return RiseState.from_json(data)

    def place_text(self, view: RiseView, place: str, names: Names) -> str | None:
        return text.place_text(view, place, names)


GAME = RiseGame()
