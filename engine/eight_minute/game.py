"""Eight-Minute Empire as an Annals game (id ``eight-minute``), 2 to 5 players.

Course of play: setup (2 players: ten neutral armies placed one at a time,
alternately), one secret simultaneous bid (every player who has not bid yet is
an actor; nothing of any bid shows before all are in), the winner pays and
names the first player, then turns: take a face-up card (prices 0, 1, 1, 2, 2,
3 by position), then do its action one army at a time or stop with ``done``.
The game ends when every player holds 13/10/8/7 cards (2/3/4/5 players).

Options (all off by default): ``full_game`` (three games, points added up),
``goods_tokens`` (a goods token on each triangle region), ``die_roll_tiebreak``
(tied bids roll a die instead of going to the youngest player).

The view (``GAME.view(state, viewer)``; ``viewer`` None is a spectator) is a
JSON-native dict::

    {
      "game": "eight-minute", "seq": int, "players": int, "options": {name: bool},
      "game_no": int, "games": int,          # 1 of 1, or 1..3 of 3 with full_game
      "phase": "neutral" | "bid" | "first" | "turn" | "over",
      "actors": [seat, ...],
      "start": region id,
      "board": {
        "armies":  {region: [count per seat]},   # regions with no army left out
        "neutral": {region: count},              # 2 players only
        "cities":  {region: [count per seat]},
        "tokens":  {region: good},               # goods_tokens variant
        "control": {region: seat | -1},          # -1: the neutral armies
        "continents": {continent: seat | -1},
      },
      "row": [{"position": 0..5, "price": int, "card": id, "good": str, "goods": int,
               "actions": [{"do": verb, "n": int}], "combine": "and" | "or" | None,
               "five": bool, "text": str}],
      "deck_left": int,
      "coins": [int per seat],
      "cards": [[card id, ...] per seat],       # taken cards are face up
      "armies_left": [int per seat], "cities_left": [int per seat],
      "cards_to_end": int,                      # cards each player holds when the game ends
      "neutral_left": int, "neutral_next": seat | None,
      "bid": {"has_bid": [bool per seat], "bids": [int] | None (until all have bid),
              "winner": seat | None, "rolls": [[[seat, die], ...] per roll-off round]},
      "first_player": seat | None, "current": seat | None,
      "task": None | {"player": seat, "card": id, "choose": bool,
                      "options": [{"index": i, "do": verb, "n": int}],   # when choose
                      "do": verb | None, "left": int, "then": [{"do": verb, "n": int}]},
      "scores": [{"regions", "continents", "goods", "total": int,
                  "controlled_regions": [...], "controlled_continents": [...],
                  "goods_owned": {good: n}, "goods_counted": {good: n},
                  "goods_points": {good: points}} per seat],   # the breakdown on demand
      "past_games": [[points per seat] per finished game],
      "totals": [int per seat],               # past games + this one
      "final": [int] | None, "ranking": [seat] | None,
      "you": None | {"player": seat, "bid": int | None},   # your own secret bid
    }

For drawing the board, :func:`engine.eight_minute.data.load_data` gives the map:
``regions[id]`` (``name``, ``continent``, ``anchor`` and ``polygon`` in a 0..1
board space drawn at ``aspect`` width/height, ``goods_token`` for the triangle
regions), ``continents[id]`` (``name``, ``outline``, ``regions``), the land
links ``land[id]`` and the dotted water links ``water[id]``; and the cards:
``cards[id]`` (as in the ``row`` entries above).

Verbs: ``place`` (new armies), ``move`` (over land), ``sail`` (over land and
water), ``city``, ``destroy``. Legal moves for a select: the action kinds are
``bid``, ``neutral``, ``first``, ``take``, ``choose``, ``place``, ``move``
(``source`` and ``to``: group them by ``source`` for a two-step select),
``city``, ``destroy`` (``region`` and ``owner``, -1 = neutral) and ``done``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core import Action, Event, IllegalAction, PlayerId, Result
from engine.eight_minute import flow
from engine.eight_minute.actions import (
    CODEC,
    Bid,
    BuildCity,
    ChooseAction,
    ChooseFirst,
    Destroy,
    Done,
    Move,
    Place,
    PlaceNeutral,
    TakeCard,
)
from engine.eight_minute.data import EMData, check_data, load_data
from engine.eight_minute.flow import OPTIONS, Ctx
from engine.eight_minute.scoring import breakdown, continent_controllers, ranking, region_controllers, totals
from engine.eight_minute.spec import SPEC
from engine.eight_minute.state import EMState


class EightMinuteGame:
    """The :class:`engine.core.Game` implementation of Eight-Minute Empire."""

    id = "eight-minute"
    title = "Eight-Minute Empire"
    min_players = 2
    max_players = 5
    codec = CODEC

    @property
    def data(self) -> EMData:
        return load_data()

    def default_options(self) -> dict[str, Any]:
        return dict.fromkeys(OPTIONS, False)

    def check_data(self) -> list[str]:
        """Every problem in this game's data files (for ``python -m engine check-data``)."""
        return check_data()

    def describe_event(self, event: Event) -> str | None:
        from engine.eight_minute.text import describe_event

        return describe_event(event)

    def action_label(self, state: EMState, action: Action) -> str:
        from engine.eight_minute.text import action_label

        return action_label(state, action)

    # -- setup -------------------------------------------------------------------------
    def setup(self, players: int, options: Mapping[str, Any], seed: int) -> EMState:
        opts = SPEC.checked_options(players, options)
        state = EMState(players=players, options=opts, seed=int(seed))
        flow.new_game(Ctx(state, self.data))
        return state

    # -- whose move, and which moves -------------------------------------------------------
    def actors(self, state: EMState) -> frozenset[PlayerId]:
        return flow.actors(state)

    def legal_actions(self, state: EMState, player: PlayerId) -> list[Action]:
        if player not in flow.actors(state):
            return []
        data = self.data
        if state.phase == "neutral":
            return [PlaceNeutral(player, r) for r in sorted(data.regions)]
        if state.phase == "bid":
            return [Bid(player, n) for n in range(state.coins[player] + 1)]
        if state.phase == "first":
            return [ChooseFirst(player, p) for p in range(state.players)]
        task = state.task
        if task is None:
            return [
                TakeCard(player, i) for i in range(len(state.row))
                if flow.price(data, i) <= state.coins[player]
            ]
        out: list[Action] = []
        if task["choose"]:
            out.extend(
                ChooseAction(player, i) for i, (verb, _) in enumerate(task["steps"])
                if flow.can_do(state, data, player, verb)
            )
        else:
            verb = task["do"]
            if verb == "place":
                out.extend(Place(player, r) for r in flow.place_regions(state, data, player))
            elif verb in ("move", "sail"):
                steps = flow.move_steps(state, data, player, verb == "sail")
                out.extend(Move(player, a, b) for a, b in steps)
            elif verb == "city":
                out.extend(BuildCity(player, r) for r in flow.city_regions(state, data, player))
            elif verb == "destroy":
                out.extend(Destroy(player, r, o) for r, o in flow.destroy_targets(state))
        out.append(Done(player))
        return out

    # -- applying ----------------------------------------------------------------------------
    def apply(self, state: EMState, action: Action) -> Result:
        if action.player not in flow.actors(state):
            if state.phase == "over":
                raise IllegalAction("game_over", "The game is over.")
            if state.phase == "bid":
                raise IllegalAction("already_bid", "You have made your bid; the others are still bidding.",
                                    player=action.player)
            raise IllegalAction("not_your_turn", "It is not your turn.", player=action.player)
        new = state.clone()
        ctx = Ctx(new, self.data)
        self._dispatch(ctx, action)
        new.seq += 1
        return Result(new, tuple(ctx.events))

    @staticmethod
    def _dispatch(ctx: Ctx, action: Action) -> None:
        phase = ctx.state.phase
        expected: dict[str, tuple[type[Action], ...]] = {
            "neutral": (PlaceNeutral,),
            "bid": (Bid,),
            "first": (ChooseFirst,),
            "turn": (TakeCard, ChooseAction, Place, Move, BuildCity, Destroy, Done),
        }
        allowed = expected.get(phase, ())
        if not isinstance(action, allowed):
            names = ", ".join(cls.kind for cls in allowed) or "nothing"
            raise IllegalAction("wrong_step", f"That is not possible now; you may: {names}.", phase=phase)
        if isinstance(action, PlaceNeutral):
            flow.place_neutral(ctx, action.region)
        elif isinstance(action, Bid):
            flow.bid(ctx, action.player, action.amount)
        elif isinstance(action, ChooseFirst):
            flow.choose_first(ctx, action.seat)
        elif isinstance(action, TakeCard):
            flow.take_card(ctx, action.player, action.position)
        elif isinstance(action, ChooseAction):
            flow.choose_action(ctx, action.index)
        elif isinstance(action, Place):
            flow.place(ctx, action.region)
        elif isinstance(action, Move):
            flow.move(ctx, action.source, action.to)
        elif isinstance(action, BuildCity):
            flow.build_city(ctx, action.region)
        elif isinstance(action, Destroy):
            flow.destroy(ctx, action.region, action.owner)
        elif isinstance(action, Done):
            flow.done(ctx)

    # -- what players see -----------------------------------------------------------------------
    def view(self, state: EMState, viewer: PlayerId | None) -> dict[str, Any]:
        """Everything ``viewer`` may see (None: a spectator); see the module docstring for the shape."""
        data = self.data
        regions = region_controllers(state, data)
        parts = breakdown(state, data)
        all_bid = all(b is not None for b in state.bids)
        task = state.task
        task_view: dict[str, Any] | None = None
        if task is not None:
            task_view = {
                "player": state.current,
                "card": task["card"],
                "choose": task["choose"],
                "options": [{"index": i, "do": v, "n": n} for i, (v, n) in enumerate(task["steps"])]
                if task["choose"] else [],
                "do": task["do"],
                "left": task["left"],
                "then": [] if task["choose"] else [{"do": v, "n": n} for v, n in task["steps"]],
            }
        view: dict[str, Any] = {
            "game": self.id,
            "seq": state.seq,
            "players": state.players,
            "options": dict(state.options),
            "game_no": state.game_no,
            "games": flow.games_in_match(state, data),
            "phase": state.phase,
            "actors": sorted(flow.actors(state)),
            "start": data.start,
            "board": {
                "armies": {r: list(c) for r, c in sorted(state.armies.items())},
                "neutral": dict(sorted(state.neutral.items())),
                "cities": {r: list(c) for r, c in sorted(state.cities.items())},
                "tokens": dict(sorted(state.tokens.items())),
                "control": dict(sorted(regions.items())),
                "continents": dict(sorted(continent_controllers(state, data, regions).items())),
            },
            "row": [
                {"position": i, "price": flow.price(data, i), **data.cards[c].to_json()}
                for i, c in enumerate(state.row)
            ],
            "deck_left": len(state.deck),
            "coins": list(state.coins),
            "cards": [list(h) for h in state.hands],
            "armies_left": [flow.armies_left(state, data, p) for p in range(state.players)],
            "cities_left": [flow.cities_left(state, data, p) for p in range(state.players)],
            "cards_to_end": data.end_cards[state.players],
            "neutral_left": state.neutral_left,
            "neutral_next": state.neutral_next if state.phase == "neutral" else None,
            "bid": {
                "has_bid": [b is not None for b in state.bids],
                "bids": list(state.revealed_bids) if all_bid and state.revealed_bids is not None else None,
                "winner": state.bid_winner,
                "rolls": [[pair[:] for pair in rnd] for rnd in state.bid_rolls],
            },
            "first_player": state.first_player,
            "current": state.current,
            "task": task_view,
            "scores": parts,
            "past_games": [list(g) for g in state.past_games],
            "totals": totals(state, parts),
            "final": list(state.final) if state.final is not None else None,
            "ranking": ranking(state, data) if state.phase == "over" else None,
            "you": None,
        }
        if viewer is not None and 0 <= viewer < state.players:
            view["you"] = {"player": viewer, "bid": state.bids[viewer] if state.bids else None}
        return view

    def score_breakdown(self, state: EMState) -> list[dict[str, Any]]:
        """The current score of every seat: regions, continents, goods, total (and details)."""
        return breakdown(state, self.data)

    # -- the end ------------------------------------------------------------------------------------
    def is_over(self, state: EMState) -> bool:
        return state.phase == "over"

    def scores(self, state: EMState) -> list[int]:
        """Final points once over; until then the points as they would stand now."""
        if state.final is not None:
            return list(state.final)
        return totals(state, breakdown(state, self.data))

    def ranking(self, state: EMState) -> list[PlayerId]:
        return ranking(state, self.data)

    def to_json(self, state: EMState) -> dict[str, Any]:
        return state.to_json()

    def dumps(self, state: EMState) -> str:
        return state.dumps()

    def from_json(self, data: Mapping[str, Any]) -> EMState:
        return EMState.from_json(data)

    def describe_action(self, action: Action) -> str:
        data = self.data
        if isinstance(action, TakeCard):
            return f"take card {action.position + 1} (costs {flow.price(data, action.position)})"
        if isinstance(action, Move):
            return f"move {data.regions[action.source].name} -> {data.regions[action.to].name}"
        if isinstance(action, Place | BuildCity | PlaceNeutral):
            return f"{action.kind} {data.regions[action.region].name}"
        if isinstance(action, Destroy):
            owner = "neutral" if action.owner < 0 else f"player {action.owner + 1}"
            return f"destroy a {owner} army in {data.regions[action.region].name}"
        payload = action.to_json()
        args = " ".join(f"{k}={v}" for k, v in payload.items() if k not in ("kind", "player"))
        return f"{payload['kind']} {args}".strip()


GAME = EightMinuteGame()
