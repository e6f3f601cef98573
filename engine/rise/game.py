"""Rise of Empires as an Annals game (id ``rise``), 2 to 5 players.

Three eras of two game turns ("A" then "B"); each turn: new tiles, six actions
per player one at a time in turn order, food, income, victory points, (after
a B turn) the end of the era, and turn order determination. See
``engine.rise.actions`` for how a player's action breaks into short choices.

The view (``GAME.view(state, viewer)``; ``viewer`` None is a spectator) is a
JSON-native dict; nothing in it depends on the viewer except ``you``::

    {
      "game": "rise", "seq": int, "players": int,
      "turn": 1..6, "era": 1..3, "half": "A" | "B",
      "phase": "actions" | "food_upkeep" | "upkeep" | "era_end" | "order" | "over",
      "actors": [seat, ...],
      "order": [seat, ...],                     # turn-order track, position 0 first
      "current": seat | None,                   # whose action it is
      "actions_done": int, "actions_per_turn": int,
      "players_state": [{"seat", "gold", "resources", "food", "vp", "pool", "stock",
                         "on_map", "progress": [progress tile], "territory": [territory tile],
                         "cities": [city tile], "empires": [empire tile],   # as under "tiles"
                         "used": [tile id]} per seat],   # used: free tiles flipped this turn
      "map": {
        "regions": {region: {"name", "era", "colour", "sea", "part", "closed",
                             "standard": [first, second], "yields": {kind: n},
                             "anchor": [lon, lat]}},
        "links": [[a, b, arrow: bool], ...],
        "cubes": {region: [count per seat]},    # regions with no cube left out
        "control": {region: {"first": [seat], "second": [seat]}},
      },
      "display": {row: {"circles": [seat | -1, ...]}},   # left to right; -1 empty
      "removal_costs": {row: [cost | None per circle]},   # B turn, for the current player
      "tiles": {
        "progress": [{"id", "name", "era", "price", "food", "gold", "resources", "cubes",
                      "vp", "free", "special", "stays"}],          # face up, selectable
        "territory": [{"id", "name", "food", "gold", "resources", "cubes", "vp", "stays"}],
        "city": [{"id", "name", "era", "row", "cost", "vp", "food", "gold", "resources",
                  "cubes", "upkeep", "wonder": None | {"gold","resources","cubes","vp"}}],
        "empire": [{"id", "regions", "water", "battles": [[att, def]]}],  # side of this era
        "boxes": {"progress": [n per box], "territory": [n per box], "city": [n per box]},
        "retired": int,
      },
      "trade": [{"id", "resources", "gold", "vp", "eras", "open": bool, "used_by": seat | None}],
      "navigation": bool,
      "task": None | {"player", "stage", "row", "circle", "owed", "empire",
                      "side": {"regions","water","battles"} | None,
                      "placed": [region], "before": [region], "battles": [[region, row]]},
      "pending": [{"player", "kind": "food_upkeep" | "upkeep" | "keep_progress" | "keep_city",
                   "tile"}],                   # the first is being asked
      "order_choice": {"choosers": [seat], "positions": [seat | -1]} | None,
      "yields": [{"food","gold","resources","cubes","vp"} per seat],   # what this turn would pay
      "final": [int] | None, "ranking": [seat] | None,
      "you": None | {"player": seat},
    }

Tile ids: ``p01``-``p48`` progress, ``t01``-``t40`` territory, ``c01``-``c36``
city, ``e1``-``e8`` empire; the face-down boxes show only their counts.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from engine.core import Action, Event, IllegalAction, PlayerId, Result
from engine.rise import control, end, flow, phases, turn
from engine.rise.actions import (
    CODEC,
    Battle,
    ChooseOrder,
    ClearCubes,
    Discard,
    Keep,
    Pass,
    Pay,
    PlaceCube,
    Select,
    Skip,
    Stop,
    TakeCity,
    TakeEmpire,
    TakeProgress,
    TakeTerritory,
    Trade,
    UseTile,
)
from engine.rise.context import Ctx
from engine.rise.data import ROWS, RiseData, check_data, load_data
from engine.rise.spec import SPEC
from engine.rise.state import EMPTY, RiseState

_DECISIONS = ("food_upkeep", "upkeep", "era_end")
_STAGE_ACTIONS: dict[str, tuple[type[Action], ...]] = {
    "choose": (Select, UseTile, Pass),
    "pay": (Pay,),
    "act": (TakeProgress, TakeTerritory, TakeCity, TakeEmpire, Trade, Skip),
    "place": (ClearCubes, PlaceCube, Stop),
    "battle": (Battle, Stop),
    "after": (UseTile, Stop),
}


class RiseGame:
    """The :class:`engine.core.Game` implementation of Rise of Empires."""

    id = "rise"
    title = "Rise of Empires"
    min_players = 2
    max_players = 5
    codec = CODEC

    @property
    def data(self) -> RiseData:
        return load_data()

    def default_options(self) -> dict[str, Any]:
        return {}

    def check_data(self) -> list[str]:
        """Every problem in this game's data files (for ``python -m engine check-data``)."""
        return check_data()

    def describe_event(self, event: Event) -> str | None:
        from engine.rise.text import describe_event

        return describe_event(event)

    def action_label(self, state: RiseState, action: Action) -> str:
        from engine.rise.text import action_label

        return action_label(state, action)

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

    def legal_actions(self, state: RiseState, player: PlayerId) -> list[Action]:
        if player not in self.actors(state):
            return []
        d = self.data
        if state.phase in _DECISIONS:
            tile = str(state.pending[0]["tile"])
            return [Keep(player, tile), Discard(player, tile)]
        if state.phase == "order":
            return [ChooseOrder(player, i) for i, seat in enumerate(state.new_order) if seat == EMPTY]
        task = turn.task_of(state)
        stage = task["stage"]
        out: list[Action] = []
        if stage == "choose":
            out.extend(Select(player, row, circle) for row, circle in turn.select_options(state, d, player))
            out.extend(UseTile(player, *use) for use in turn.free_uses(state, d, player))
            if not turn.select_options(state, d, player):
                out.append(Pass(player))
        elif stage == "pay":
            out.extend(Pay(player, what) for what in turn.pay_options(state, player))
        elif stage == "act":
            row = str(task["row"])
            makers: dict[str, type[Action]] = {"progress": TakeProgress, "territory": TakeTerritory,
                                               "city": TakeCity, "empire": TakeEmpire, "trade": Trade}
            cls = makers[row]
            out.extend(cls(player, choice) for choice in turn.row_choices(state, d, player, row))  # type: ignore[call-arg]
            if task["b"]:
                out.append(Skip(player))
        elif stage == "place":
            if turn.can_clear(state, player):
                out.append(ClearCubes(player))
            out.extend(PlaceCube(player, r) for r in turn.place_options(state, d, player))
            out.append(Stop(player))
        elif stage == "battle":
            out.extend(Battle(player, *b) for b in turn.battle_options(state, d, player))
            out.append(Stop(player))
        elif stage == "after":
            out.extend(UseTile(player, *use) for use in turn.free_uses(state, d, player))
            out.append(Stop(player))
        return out

    # -- applying -----------------------------------------------------------------------------
    def apply(self, state: RiseState, action: Action) -> Result:
        if action.player not in self.actors(state):
            if state.phase == "over":
                raise IllegalAction("game_over", "The game is over.")
            raise IllegalAction("not_your_turn", "It is not your turn.", player=action.player)
        for f in dataclasses.fields(action):
            value = getattr(action, f.name)
            want = str if f.type == "str" else int
            if not isinstance(value, want) or isinstance(value, bool):
                raise IllegalAction("bad_action", f"The {action.kind} action needs {f.type} {f.name!r}.",
                                    field=f.name)
        new = state.clone()
        ctx = Ctx(new, self.data)
        self._dispatch(ctx, action)
        new.seq += 1
        return Result(new, tuple(ctx.events))

    @staticmethod
    def _dispatch(ctx: Ctx, action: Action) -> None:
        s = ctx.state
        seat = action.player
        if s.phase in _DECISIONS:
            item = s.pending[0]
            if not isinstance(action, Keep | Discard) or action.tile != item["tile"]:
                raise IllegalAction("wrong_step", f"Decide first whether to keep tile {item['tile']}.",
                                    tile=item["tile"])
            if isinstance(action, Keep):
                if not end.can_keep(s, ctx.data, item):
                    raise IllegalAction("cannot_pay", "You cannot pay to keep that tile.", tile=action.tile)
                end.keep(ctx, item)
                s.pending.pop(0)
            else:
                end.discard(ctx, s.pending.pop(0), forced=False)
            flow.settle(ctx)
            return
        if s.phase == "order":
            if not isinstance(action, ChooseOrder):
                raise IllegalAction("wrong_step", "Choose your position on the turn order track.")
            if not 0 <= action.position < s.players or s.new_order[action.position] != EMPTY:
                raise IllegalAction("position_taken", "That position is not free.", position=action.position)
            flow.choose_position(ctx, action.position)
            return
        task = turn.task_of(s)
        stage = str(task["stage"])
        allowed = _STAGE_ACTIONS[stage]
        if not isinstance(action, allowed):
            names = ", ".join(cls.kind for cls in allowed)
            raise IllegalAction("wrong_step", f"That is not possible now; you may: {names}.", stage=stage)
        if isinstance(action, Select):
            turn.select(ctx, seat, action.row, action.circle)
        elif isinstance(action, UseTile):
            turn.use_tile(ctx, seat, action.tile, action.region, action.target)
            if stage == "after" and not turn.free_uses(s, ctx.data, seat):
                turn.complete(ctx)
        elif isinstance(action, Pass):
            turn.pass_action(ctx, seat)
        elif isinstance(action, Pay):
            turn.pay(ctx, seat, action.what)
        elif isinstance(action, TakeProgress):
            turn.take_progress(ctx, seat, action.tile)
        elif isinstance(action, TakeTerritory):
            turn.take_territory(ctx, seat, action.tile)
        elif isinstance(action, TakeCity):
            turn.take_city(ctx, seat, action.tile)
        elif isinstance(action, TakeEmpire):
            turn.take_empire(ctx, seat, action.tile)
        elif isinstance(action, Trade):
            turn.trade(ctx, seat, action.box)
        elif isinstance(action, Skip):
            turn.skip(ctx, seat)
        elif isinstance(action, ClearCubes):
            turn.clear_cubes(ctx, seat)
        elif isinstance(action, PlaceCube):
            turn.place_cube(ctx, seat, action.region)
        elif isinstance(action, Stop):
            turn.stop(ctx, seat)
        elif isinstance(action, Battle):
            turn.battle(ctx, seat, action.region, action.target, action.row)

    # -- what players see -------------------------------------------------------------------------
    def view(self, state: RiseState, viewer: PlayerId | None) -> dict[str, Any]:
        """Everything ``viewer`` may see (None: a spectator); see the module docstring for the shape."""
        d = self.data
        s = state
        task = s.task
        task_view: dict[str, Any] | None = None
        current: int | None = None
        if task is not None:
            current = int(task["player"])
            side = d.empires[str(task["empire"])].side(s.era) if task["empire"] else None
            task_view = {
                "player": current, "stage": task["stage"], "row": task["row"], "circle": task["circle"],
                "owed": task["owed"], "empire": task["empire"],
                "side": {"regions": side.regions, "water": side.water,
                         "battles": [list(b) for b in side.battles]} if side else None,
                "placed": list(task["placed"]), "before": list(task["before"]),
                "battles": [list(b) for b in task["battles"]],
            }
        costs: dict[str, list[int | None]] = {}
        if s.b_turn and current is not None:
            for row in ROWS:
                costs[row] = [turn.removal_cost(s, d, current, row, i) if owner == current else None
                              for i, owner in enumerate(s.display.get(row, []))]
        control_view: dict[str, Any] = {}
        for region in sorted(s.cubes):
            first, second = control.ranks(s, region)
            control_view[region] = {"first": first, "second": second}
        view: dict[str, Any] = {
            "game": self.id, "seq": s.seq, "players": s.players,
            "turn": s.turn, "era": s.era, "half": "B" if s.b_turn else "A",
            "phase": s.phase, "actors": sorted(self.actors(s)),
            "order": s.order[:], "current": current,
            "actions_done": s.act_no, "actions_per_turn": d.actions_per_turn,
            "players_state": [
                {"seat": p, "gold": s.gold[p], "resources": s.resources[p], "food": s.food[p], "vp": s.vp[p],
                 "pool": s.pool[p], "stock": s.stock[p], "on_map": s.on_map(p),
                 "progress": [self._progress_json(s, t) for t in s.progress[p]],
                 "territory": [self._territory_json(t) for t in s.territory[p]],
                 "cities": [self._city_json(t) for t in s.cities[p]],
                 "empires": [self._empire_json(s, t) for t in s.empires[p]],
                 "used": [t for t in s.used if t in s.progress[p]]}
                for p in range(s.players)
            ],
            "map": {
                "regions": {
                    r.id: {"name": r.name, "era": r.era, "colour": d.era_colours[r.era], "sea": r.sea,
                           "part": r.part, "closed": r.closed, "standard": list(r.standard),
                           "yields": dict(r.yields), "anchor": list(r.anchor)}
                    for r in d.regions.values()
                },
                "links": sorted([a, b, frozenset((a, b)) in d.arrows]
                                for a in d.adjacent for b in d.adjacent[a] if a < b),
                "cubes": {r: c[:] for r, c in sorted(s.cubes.items())},
                "control": control_view,
            },
            "display": {row: {"circles": s.display[row][:]} for row in ROWS if row in s.display},
            "removal_costs": costs,
            "tiles": {
                "progress": [self._progress_json(s, t) for t in s.open_progress],
                "territory": [self._territory_json(t) for t in s.open_territory],
                "city": [self._city_json(t) for t in s.open_city],
                "empire": [self._empire_json(s, t) for t in s.open_empires],
                "boxes": {"progress": [len(b) for b in s.progress_boxes],
                          "territory": [len(b) for b in s.territory_boxes],
                          "city": [len(b) for b in s.city_boxes]},
                "retired": len(s.retired),
            },
            "trade": [
                {"id": b.id, "resources": b.resources, "gold": b.gold, "vp": b.vp, "eras": list(b.eras),
                 "open": s.era in b.eras, "used_by": s.trade_used.get(b.id)}
                for b in d.trade.values()
            ],
            "navigation": s.navigation,
            "task": task_view,
            "pending": [dict(p) for p in s.pending],
            "order_choice": ({"choosers": s.choosers[:], "positions": s.new_order[:]}
                             if s.phase == "order" else None),
            "yields": phases.every_yields(s, d),
            "final": s.final[:] if s.final is not None else None,
            "ranking": end.ranking(s) if s.phase == "over" else None,
            "you": {"player": viewer} if viewer is not None and 0 <= viewer < s.players else None,
        }
        return view

    def _progress_json(self, s: RiseState, tile: str) -> dict[str, Any]:
        p = self.data.progress[tile]
        return {"id": tile, "name": p.name, "era": p.era, "price": turn.progress_price(s, self.data, tile),
                "food": p.food, "gold": p.gold, "resources": p.resources, "cubes": p.cubes, "vp": p.vp,
                "free": p.free, "special": p.special, "stays": p.stays}

    def _territory_json(self, tile: str) -> dict[str, Any]:
        t = self.data.territory[tile]
        return {"id": tile, "name": t.name, "food": t.food, "gold": t.gold, "resources": t.resources,
                "cubes": t.cubes, "vp": t.vp, "stays": t.stays}

    def _city_json(self, tile: str) -> dict[str, Any]:
        c = self.data.cities[tile]
        wonder = None
        if c.wonder is not None:
            wonder = {"gold": c.wonder.gold, "resources": c.wonder.resources, "cubes": c.wonder.cubes,
                      "vp": c.wonder.vp}
        return {"id": tile, "name": c.name, "era": c.era, "row": c.row, "cost": c.cost, "vp": c.vp,
                "food": c.food, "gold": c.gold, "resources": c.resources, "cubes": c.cubes,
                "upkeep": c.upkeep, "wonder": wonder, "stays": c.stays}

    def _empire_json(self, s: RiseState, tile: str) -> dict[str, Any]:
        side = self.data.empires[tile].side(s.era)
        return {"id": tile, "regions": side.regions, "water": side.water,
                "battles": [list(b) for b in side.battles]}

    # -- the end ---------------------------------------------------------------------------------------
    def is_over(self, state: RiseState) -> bool:
        return state.phase == "over"

    def scores(self, state: RiseState) -> list[int]:
        """Final points once over; until then the victory points so far."""
        return list(state.final) if state.final is not None else state.vp[:]

    def ranking(self, state: RiseState) -> list[PlayerId]:
        return end.ranking(state)

    def to_json(self, state: RiseState) -> dict[str, Any]:
        return state.to_json()

    def dumps(self, state: RiseState) -> str:
        return state.dumps()

    def from_json(self, data: Mapping[str, Any]) -> RiseState:
        return RiseState.from_json(data)

    def describe_action(self, action: Action) -> str:
        d = self.data
        names = {**{t: p.name for t, p in d.progress.items()}, **{t: x.name for t, x in d.territory.items()},
                 **{t: c.name for t, c in d.cities.items()}}
        if isinstance(action, TakeProgress | TakeTerritory | TakeCity):
            return f"take {names[action.tile]}"
        if isinstance(action, PlaceCube):
            return f"place a cube in {d.regions[action.region].name}"
        if isinstance(action, Battle):
            where = d.regions[action.region].name
            return f"battle player {action.target + 1} in {where} (row {action.row + 1})"
        payload = action.to_json()
        args = " ".join(f"{k}={v}" for k, v in payload.items() if k not in ("kind", "player"))
        return f"{payload['kind']} {args}".strip()


GAME = RiseGame()
