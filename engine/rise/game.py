"""Rise of Empires as an Annals game (id ``rise``), 2 to 5 players.

Three eras of two game turns ("A" then "B"); each turn: new tiles, six actions
per player one at a time in turn order, food, income, victory points, (after
a B turn) the end of the era, and turn order determination. See
``engine.rise.actions`` for how a player's action breaks into short choices,
``engine.rise.view`` for what a player sees (:class:`RiseView`), and
``engine.rise.decision`` / ``engine.rise.text`` for the words built from it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from engine.core import Action, BaseGame, IllegalAction, Names, PlayerId, SpokenBy, Words
from engine.rise import decision, end, flow, text, turn
from engine.rise.actions import (
    CODEC,
    Battle,
    ChooseOrder,
    ClearCubes,
    Discard,
    Keep,
    Pass,
    PlaceCube,
    Select,
    Skip,
    Stop,
    TakeBack,
    TakeCity,
    TakeEmpire,
    TakeProgress,
    TakeTerritory,
    Trade,
    UseTile,
)
from engine.rise.context import Ctx
from engine.rise.data import RiseData, check_data, load_data
from engine.rise.spec import SPEC
from engine.rise.state import EMPTY, RiseState
from engine.rise.view import RiseView, build_view

_DECISIONS = ("food_upkeep", "upkeep", "era_end")

Handler = Callable[[Ctx, int, Any], None]


def _keep(ctx: Ctx, seat: int, action: Keep | Discard) -> None:
    s = ctx.state
    item = s.pending[0]
    if action.tile != item["tile"]:
        raise IllegalAction("wrong_tile", f"Decide first whether to keep tile {item['tile']}.",
                            tile=item["tile"])
    if isinstance(action, Keep):
        if not end.can_keep(s, ctx.data, item):
            raise IllegalAction("cannot_pay", "You cannot pay to keep that tile.", tile=action.tile)
        end.keep(ctx, item)
        s.pending.pop(0)
    else:
        end.discard(ctx, s.pending.pop(0), forced=False)
    flow.settle(ctx)


def _order(ctx: Ctx, seat: int, action: ChooseOrder) -> None:
    s = ctx.state
    if not 0 <= action.position < s.players or s.new_order[action.position] != EMPTY:
        raise IllegalAction("position_taken", "That position is not free.", position=action.position)
    flow.choose_position(ctx, action.position)


def _use(ctx: Ctx, seat: int, action: UseTile) -> None:
    s = ctx.state
    after = turn.task_of(s)["stage"] == "after"
    turn.use_tile(ctx, seat, action.tile, action.region, action.target)
    if after and not turn.free_uses(s, ctx.data, seat):
        turn.complete(ctx)


#: What each move does (its fields checked already).
_HANDLERS: dict[type[Action], Handler] = {
    Select: lambda ctx, seat, a: turn.select(ctx, seat, a.row, a.circle),
    TakeBack: turn.take_back,
    UseTile: _use,
    Pass: lambda ctx, seat, a: turn.pass_action(ctx, seat),
    TakeProgress: lambda ctx, seat, a: turn.take_progress(ctx, seat, a.tile),
    TakeTerritory: lambda ctx, seat, a: turn.take_territory(ctx, seat, a.tile),
    TakeCity: lambda ctx, seat, a: turn.take_city(ctx, seat, a.tile),
    TakeEmpire: lambda ctx, seat, a: turn.take_empire(ctx, seat, a.tile),
    Trade: lambda ctx, seat, a: turn.trade(ctx, seat, a.box),
    Skip: lambda ctx, seat, a: turn.skip(ctx, seat),
    ClearCubes: lambda ctx, seat, a: turn.clear_cubes(ctx, seat),
    PlaceCube: lambda ctx, seat, a: turn.place_cube(ctx, seat, a.region),
    Stop: lambda ctx, seat, a: turn.stop(ctx, seat),
    Battle: lambda ctx, seat, a: turn.battle(ctx, seat, a.region, a.target, a.row),
    Keep: _keep,
    Discard: _keep,
    ChooseOrder: _order,
}

#: The row of the action display -> the move that takes its tile or box.
_ROW_MOVES: dict[str, Callable[[int, str], Action]] = {
    "progress": TakeProgress, "territory": TakeTerritory, "city": TakeCity, "empire": TakeEmpire,
    "trade": Trade,
}


class RiseGame(SpokenBy, BaseGame[RiseState, Ctx]):
    """The :class:`engine.core.Game` implementation of Rise of Empires."""

    WORDS = Words(decision=decision.decide, describe_event=text.describe_event, stage=text.stage,
                  status_text=text.status_text, hand_text=text.hand_text, board_text=text.board_text,
                  summary_text=text.summary_text)

    id = "rise"
    title = "Rise of Empires"
    min_players = 2
    max_players = 5
    codec = CODEC

    STEPS: ClassVar[Mapping[str, tuple[type[Action], ...]]] = {
        "choose": (Select, TakeBack, UseTile, Pass),
        "act": (TakeProgress, TakeTerritory, TakeCity, TakeEmpire, Trade, Skip),
        "place": (ClearCubes, PlaceCube, Stop),
        "battle": (Battle, Stop),
        "after": (UseTile, Stop),
        "keep": (Keep, Discard),
        "order": (ChooseOrder,),
    }

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

    # -- whose move, and which moves ---------------------------------------------------------
    def actors(self, state: RiseState) -> frozenset[PlayerId]:
        if state.phase == "actions" and state.task is not None:
            return frozenset((int(state.task["player"]),))
        if state.phase in _DECISIONS and state.pending:
            return frozenset((int(state.pending[0]["player"]),))
        if state.phase == "order" and state.choosers:
            return frozenset((state.choosers[0],))
        return frozenset()

    def up_next(self, state: RiseState) -> PlayerId | None:
        """The next seat of the turn order while the Player Actions phase has an action left after this
        one; the next chooser while two or more are still to choose a turn-order place (the last takes
        the place left). None in the upkeep decisions and after the last action of a turn."""
        if state.phase == "actions" and state.task is not None:
            following = state.act_no + 1
            if following < self.data.actions_per_turn * state.players:
                seat = state.order[following % state.players]
                return seat if seat != int(state.task["player"]) else None
            return None
        if state.phase == "order" and len(state.choosers) >= 3:
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

    def step(self, state: RiseState) -> str:
        if state.phase in _DECISIONS:
            return "keep"
        if state.phase == "order":
            return "order"
        return str(turn.task_of(state)["stage"])

    def refusal(self, state: RiseState, player: PlayerId) -> IllegalAction:
        if state.phase == "over":
            return IllegalAction("game_over", "The game is over.")
        return IllegalAction("not_your_turn", "It is not your turn.", player=player)

    def legal_actions(self, state: RiseState, player: PlayerId) -> list[Action]:
        if player not in self.actors(state):
            return []
        s, d = state, self.data
        step = self.step(s)
        if step == "keep":
            tile = str(s.pending[0]["tile"])
            return [Keep(player, tile), Discard(player, tile)]
        if step == "order":
            return [ChooseOrder(player, i) for i, seat in enumerate(s.new_order) if seat == EMPTY]
        task = turn.task_of(s)
        out: list[Action] = []
        if step == "choose":
            selectable = turn.select_options(s, d, player)
            for row, circle in selectable:
                if s.b_turn:
                    cost = turn.removal_cost(s, d, player, row, circle)
                    out.extend(TakeBack(player, row, circle, *mix)
                               for mix in turn.payment_mixes(s, player, cost))
                else:
                    out.append(Select(player, row, circle))
            out.extend(UseTile(player, *use) for use in turn.free_uses(s, d, player))
            if not selectable:
                out.append(Pass(player))
        elif step == "act":
            row = str(task["row"])
            out.extend(_ROW_MOVES[row](player, choice) for choice in turn.row_choices(s, d, player, row))
            if task["b"]:
                out.append(Skip(player))
        elif step == "place":
            if turn.can_clear(s, player):
                out.append(ClearCubes(player))
            out.extend(PlaceCube(player, r) for r in turn.place_options(s, d, player))
            out.append(Stop(player))
        elif step == "battle":
            out.extend(Battle(player, *b) for b in turn.battle_options(s, d, player))
            out.append(Stop(player))
        else:  # after
            out.extend(UseTile(player, *use) for use in turn.free_uses(s, d, player))
            out.append(Stop(player))
        return out

    def timeout_action(self, state: RiseState, player: PlayerId) -> Action:
        """The most passive legal move: keep what you hold, stop, skip; forced actions take the cheapest.

        A player must select an action when one can be selected (A turn: the
        Territory row when it can be done, as a territory tile costs nothing, else
        the first row that can; B turn: the cheapest disc, paid in the rulebook's
        order: gold, cubes, resource discs, food, victory points) and, in an A
        turn, must do it (the first tile or box offered). Turn order: the first
        free position, as the AI takes.
        """
        legal = self.legal_actions(state, player)
        if not legal:
            raise IllegalAction("not_your_turn", "It is not your turn.", player=player)
        for passive in (Keep, Stop, Skip, Pass):
            found = [a for a in legal if isinstance(a, passive)]
            if found:
                return found[0]
        backs = [a for a in legal if isinstance(a, TakeBack)]
        if backs:
            return min(backs, key=lambda a: sum(a.payment))
        forced = [a for a in legal if not isinstance(a, UseTile)]
        free = [a for a in forced if isinstance(a, Select) and a.row == "territory"]
        return (free or forced)[0]

    # -- applying -----------------------------------------------------------------------------
    def begin(self, state: RiseState) -> Ctx:
        return Ctx(state.clone(), self.data)

    def handle(self, ctx: Ctx, action: Action) -> None:
        for f in dataclasses.fields(action):
            value = getattr(action, f.name)
            want = str if f.type == "str" else int
            if not isinstance(value, want) or isinstance(value, bool):
                raise IllegalAction("bad_action", f"The {action.kind} action needs {f.type} {f.name!r}.",
                                    field=f.name)
        _HANDLERS[type(action)](ctx, action.player, action)

    def finish(self, ctx: Ctx) -> RiseState:
        ctx.state.seq += 1
        return ctx.state

    # -- what players see -------------------------------------------------------------------------
    def view(self, state: RiseState, viewer: PlayerId | None) -> RiseView:
        """Everything ``viewer`` may see (None: a spectator); see :class:`engine.rise.view.RiseView`."""
        return build_view(state, self.data, viewer, self.id, sorted(self.actors(state)))

    # -- the end ---------------------------------------------------------------------------------------
    def is_over(self, state: RiseState) -> bool:
        return state.phase == "over"

    def scores(self, state: RiseState) -> list[int]:
        """Final points once over; until then the victory points so far."""
        return list(state.final) if state.final is not None else state.vp[:]

    def compared(self, state: RiseState, seat: PlayerId) -> tuple[int, int]:
        return end.compared(state, seat)

    def to_json(self, state: RiseState) -> dict[str, Any]:
        return state.to_json()

    def dumps(self, state: RiseState) -> str:
        return state.dumps()

    def from_json(self, data: Mapping[str, Any]) -> RiseState:
        return RiseState.from_json(data)

    def place_text(self, view: Mapping[str, Any], place: str, names: Names) -> str | None:
        return text.place_text(view, place, names)


GAME = RiseGame()
