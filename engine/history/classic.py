"""History of the World, classic 7-epoch rules, as an Annals game (id ``history-classic``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine import rng
from engine.core import Action, Event, IllegalAction, PlayerId, Result
from engine.history import events, flow
from engine.history.actions import (
    CODEC,
    AttackFleet,
    BuildFort,
    BuyBack,
    Choose,
    Done,
    EndTurn,
    Expand,
    Give,
    Keep,
    ManFleet,
    PlayCard,
)
from engine.history.board import Ctx, forts_free
from engine.history.rules_data import ROMAN, RulesData, load_rules
from engine.history.scoring import ranking, score_breakdown
from engine.history.spec import SPEC
from engine.history.state import HistoryState

OPTIONS: dict[str, str] = {
    "no_preeminence": "Advanced rule: no pre-eminence markers are awarded.",
    "one_minor_each": "Advanced rule: each player is dealt one Minor Empire and two other Greater Events.",
    "multiple_armies": "Advanced rule: up to 3 figures (armies, at most one fort) in a land.",
    "naval_control": "Advanced rule: armies on fleets hold seas, stay on the board and score 1 each.",
}


class ClassicGame:
    """The :class:`engine.core.Game` implementation of the classic rules."""

    id = "history-classic"
    title = "History of the World (classic 7-epoch rules)"
    min_players = 3
    max_players = 6
    codec = CODEC

    @property
    def rules(self) -> RulesData:
        return load_rules()

    def default_options(self) -> dict[str, Any]:
        return {name: False for name in OPTIONS}

    # -- setup -----------------------------------------------------------------
    def setup(self, players: int, options: Mapping[str, Any], seed: int) -> HistoryState:
        opts = SPEC.checked_options(players, options)
        rules = self.rules
        state = HistoryState(players=players, options=opts, seed=int(seed))
        state.scores = [0] * players
        state.markers = [[] for _ in range(players)]
        state.played_empires = [[] for _ in range(players)]
        state.hands = self._deal(state, rules)
        if not opts["no_preeminence"]:
            state.marker_pile = list(rules.markers)
            rng.shuffle(state, state.marker_pile)
        ctx = Ctx(state, rules)
        flow.start_epoch(ctx)
        return state

    def _deal(self, state: HistoryState, rules: RulesData) -> list[list[str]]:
        def deck(kind: str, minors: bool | None = None) -> list[str]:
            cards = [
                c.id for c in rules.cards.values() for _ in range(c.count)
                if c.deck == kind and (minors is None or (c.effect == "minor_empire") == minors)
            ]
            rng.shuffle(state, cards)
            return cards

        hands: list[list[str]] = [[] for _ in range(state.players)]
        if state.options.get("one_minor_each"):
            minors, greater = deck("greater", True), deck("greater", False)
            for hand in hands:
                hand.append(minors.pop())
                hand.extend(greater.pop() for _ in range(rules.greater_per_player - 1))
        else:
            greater = deck("greater")
            for hand in hands:
                hand.extend(greater.pop() for _ in range(rules.greater_per_player))
        lesser = deck("lesser")
        for hand in hands:
            hand.extend(lesser.pop() for _ in range(rules.lesser_per_player))
            hand.sort()
        return hands

    # -- whose move, and which moves -------------------------------------------
    def actors(self, state: HistoryState) -> frozenset[PlayerId]:
        if state.phase == "draw" and state.drawn is not None:
            return frozenset({state.draw_order[state.draw_pos]})
        if state.phase == "turn" and state.turn is not None:
            return frozenset({state.turn.player})
        return frozenset()

    def legal_actions(self, state: HistoryState, player: PlayerId) -> list[Action]:
        if player not in self.actors(state):
            return []
        ctx = Ctx(state, self.rules)
        if state.phase == "draw":
            may_keep, give_to = flow.draw_choices(ctx)
            out: list[Action] = [Keep(player)] if may_keep else []
            return out + [Give(player, p) for p in give_to]
        turn = state.turn
        assert turn is not None
        step = turn.step
        if step == "events":
            return [*(PlayCard(player, c) for c in flow.playable_cards(ctx)), Done(player)]
        if step == "card":
            acts: list[Action] = [Choose(player, t) for t in events.candidates(ctx)]
            if self._may_finish_card(ctx):
                acts.append(Done(player))
            return acts
        if step in ("minor", "crusade"):
            return [*(Expand(player, land) for land in sorted(flow.expansion_targets(ctx))), Done(player)]
        if step == "reallocate":
            return [*(Choose(player, w) for w in turn.force.fleets), Done(player)]
        if step == "naval":
            naval: list[Action] = [
                AttackFleet(player, sea) if kind == "attack_fleet" else ManFleet(player, sea)
                for kind, sea in flow.naval_options(ctx)
            ]
            return [*naval, Done(player)]
        acts = [Expand(player, land) for land in sorted(flow.expansion_targets(ctx))]
        can_pay = turn.free_forts + turn.coins + turn.allies_coins + turn.force.pool + turn.force.restricted
        if can_pay and (forts_free(ctx) > 0 or turn.free_forts > 0):
            acts.extend(BuildFort(player, land) for land in flow.fort_lands(ctx))
        if turn.lost > 0 and turn.coins + turn.allies_coins > 0:
            acts.append(BuyBack(player))
        acts.append(EndTurn(player))
        return acts

    @staticmethod
    def _may_finish_card(ctx: Ctx) -> bool:
        turn = ctx.state.turn
        assert turn is not None and turn.pending is not None
        effect, chosen = turn.pending["effect"], turn.pending["chosen"]
        if effect == "plague_spread" or (effect == "barbarians" and chosen):
            return False
        fewest, _ = events.needed(ctx)
        return not chosen or len(chosen) >= fewest

    # -- applying ---------------------------------------------------------------
    def apply(self, state: HistoryState, action: Action) -> Result:
        if action.player not in self.actors(state):
            if state.phase == "over":
                raise IllegalAction("game_over", "The game is over.")
            raise IllegalAction("not_your_turn", "It is not your turn.", player=action.player)
        new = state.clone()
        ctx = Ctx(new, self.rules)
        self._dispatch(ctx, action)
        new.seq += 1
        return Result(new, tuple(ctx.events))

    def _dispatch(self, ctx: Ctx, action: Action) -> None:
        state = ctx.state
        if state.phase == "draw":
            if isinstance(action, Keep):
                flow.decide_draw(ctx, action.player, None)
            elif isinstance(action, Give):
                flow.decide_draw(ctx, action.player, int(action.to))
            else:
                raise IllegalAction("drawing", "Empire cards are being drawn: keep or give the card.")
            return
        turn = state.turn
        assert turn is not None
        step = turn.step
        allowed = {
            "events": (PlayCard, Done),
            "card": (Choose, Done),
            "minor": (Expand, Done),
            "crusade": (Expand, Done),
            "reallocate": (Choose, Done),
            "naval": (AttackFleet, ManFleet, Done),
            "expand": (Expand, BuildFort, BuyBack, EndTurn),
        }[step]
        if not isinstance(action, allowed):
            names = ", ".join(cls.kind for cls in allowed)
            raise IllegalAction(
                "wrong_step", f"That is not possible now; at this step you may: {names}.", step=step
            )
        if isinstance(action, PlayCard):
            events.play(ctx, action.card)
        elif isinstance(action, Done):
            flow.finish_step(ctx)
        elif isinstance(action, Choose):
            if step == "reallocate":
                flow.reallocate(ctx, action.target)
            else:
                events.choose(ctx, action.target)
        elif isinstance(action, Expand):
            flow.expand(ctx, action.land)
        elif isinstance(action, BuildFort):
            flow.build_fort(ctx, action.land, action.pay)
        elif isinstance(action, BuyBack):
            flow.buy_back(ctx)
        elif isinstance(action, AttackFleet):
            flow.attack_fleet(ctx, action.sea)
        elif isinstance(action, ManFleet):
            flow.man_fleet(ctx, action.sea)
        elif isinstance(action, EndTurn):
            flow.end_turn(ctx)
        flow.advance(ctx)

    # -- what players see ----------------------------------------------------------
    def view(self, state: HistoryState, viewer: PlayerId | None) -> dict[str, Any]:
        """Everything ``viewer`` may see (None: a spectator). Hidden information stays out."""
        rules = self.rules
        revealed: dict[str, str] = {}
        for p in range(state.players):
            played = state.played_empires[p]
            if played and rules.empires[played[-1]].epoch == state.epoch and state.phase != "draw":
                revealed[str(p)] = played[-1]
        turn = state.turn
        view: dict[str, Any] = {
            "game": self.id,
            "seq": state.seq,
            "players": state.players,
            "options": dict(state.options),
            "epoch": state.epoch,
            "epoch_name": f"Epoch {ROMAN[state.epoch]}",
            "phase": state.phase,
            "actors": sorted(self.actors(state)),
            "scores": list(state.scores),
            "final": list(state.final) if state.final is not None else None,
            "ranking": ranking(state, rules) if state.phase == "over" else None,
            "hand_sizes": [len(h) for h in state.hands],
            "markers": [len(m) for m in state.markers],
            "marker_values": [list(m) for m in state.markers] if state.phase == "over" else None,
            "played_empires": [list(p) for p in state.played_empires],
            "empires_this_epoch": revealed,
            "board": {
                "armies": {land: [list(a) for a in stack] for land, stack in state.armies.items()},
                "forts": list(state.forts),
                "structures": dict(state.structures),
                "monuments": list(state.monuments),
                "manned": {sea: list(a) for sea, a in state.manned.items()},
            },
            "draw": None,
            "turn": None,
            "you": None,
        }
        if state.phase == "draw":
            view["draw"] = {
                "order": list(state.draw_order),
                "drawer": state.draw_order[state.draw_pos] if state.drawn is not None else None,
                "has_card": [h is not None for h in state.holding],
                "cards_left": len(state.deck),
            }
        if turn is not None:
            view["turn"] = {
                "player": turn.player,
                "empire": turn.empire,
                "name": rules.empires[turn.empire].name,
                "step": turn.step,
                "force": turn.force.name,
                "force_key": turn.force.key,
                "force_kind": turn.force.kind,
                "pool": turn.force.pool,
                "restricted": turn.force.restricted,
                "fleets": list(turn.force.fleets),
                "coins": turn.coins,
                "allies_coins": turn.allies_coins,
                "free_forts": turn.free_forts,
                "lost": turn.lost,
                "played": list(turn.played),
                "leader": turn.leader,
                "weaponry": turn.weaponry,
                "jihad_losses": turn.jihad_losses,
                "elite": turn.elite,
                "siegecraft": turn.siegecraft,
                "naval_power": turn.naval_power,
                "expert": list(turn.expert),
                "treachery": turn.treachery,
                "pending": dict(turn.pending) if turn.pending else None,
            }
        if viewer is not None and 0 <= viewer < state.players:
            you: dict[str, Any] = {
                "player": viewer,
                "hand": list(state.hands[viewer]),
                "score_now": score_breakdown(state, rules, viewer),
            }
            if state.phase == "draw":
                holding = state.holding[viewer]
                if holding is not None and state.given_by[viewer] is None:
                    you["empire"] = holding
                elif holding is not None:
                    you["empire"] = None
                    you["empire_given_by"] = state.given_by[viewer]
                if state.drawn is not None and state.draw_order[state.draw_pos] == viewer:
                    you["drawn"] = state.drawn
                you["gave"] = {
                    str(p): state.holding[p] for p in range(state.players) if state.given_by[p] == viewer
                }
            elif state.phase == "turn":
                you["empire"] = state.holding[viewer]
            view["you"] = you
        return view

    # -- the end --------------------------------------------------------------------
    def check_data(self) -> list[str]:
        """Every problem in the classic map and rules data (empty when all is well)."""
        from engine.history.rules_data import check_data

        return check_data()

    def describe_event(self, event: Event) -> str | None:
        from engine.history.text import describe_event

        return describe_event(event, self.rules)

    def action_label(self, state: HistoryState, action: Action) -> str:
        from engine.history.play import action_label

        return action_label(state, action)

    def is_over(self, state: HistoryState) -> bool:
        return state.phase == "over"

    def scores(self, state: HistoryState) -> list[int]:
        return list(state.final if state.final is not None else state.scores)

    def ranking(self, state: HistoryState) -> list[PlayerId]:
        return ranking(state, self.rules)

    def to_json(self, state: HistoryState) -> dict[str, Any]:
        return state.to_json()

    def dumps(self, state: HistoryState) -> str:
        return state.dumps()

    def from_json(self, data: Mapping[str, Any]) -> HistoryState:
        return HistoryState.from_json(data)

    def describe_action(self, action: Action) -> str:
        data = action.to_json()
        args = " ".join(f"{k}={v}" for k, v in data.items() if k not in ("kind", "player"))
        return f"{data['kind']} {args}".strip()


GAME = ClassicGame()

