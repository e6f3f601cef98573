"""History of the World, classic 7-epoch rules, as an Annals game (id ``history-classic``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from engine import rng
from engine.core import Action, BaseGame, Decision, Event, IllegalAction, Names, PlayerId, Result
from engine.history import card_text, event_cards, flow, text
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
from engine.history.data import RulesData, check_data, load_rules
from engine.history.decision import decision
from engine.history.hands import other_hands, unseen_cards
from engine.history.scoring import compared
from engine.history.spec import SPEC
from engine.history.state import HistoryState
from engine.history.view import ClassicView, build_view


class ClassicGame(BaseGame[HistoryState, Ctx]):
    """The :class:`engine.core.Game` implementation of the classic rules."""

    id = SPEC.id
    title = SPEC.title
    min_players = SPEC.min_players
    max_players = SPEC.max_players
    codec = CODEC

    #: Which moves each step allows (the draw, then the steps of a turn).
    STEPS: ClassVar[Mapping[str, tuple[type[Action], ...]]] = {
        "draw": (Keep, Give),
        "events": (PlayCard, Done),
        "card": (Choose, Done),
        "minor": (Expand, Done),
        "crusade": (Expand, Done),
        "reallocate": (Choose, Done),
        "naval": (AttackFleet, ManFleet, Done),
        "expand": (Expand, BuildFort, BuyBack, ManFleet, EndTurn),
        "pick": (Choose,),
    }

    @property
    def rules(self) -> RulesData:
        return load_rules()

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

    def up_next(self, state: HistoryState) -> PlayerId | None:
        """The next drawer while three or more are still to draw (each has a real choice; the last two
        are decided at once, and then the empire called first is a hidden card); in a turn, the one seat
        still to play its empire this epoch (of several, who holds the next one called is hidden)."""
        if state.phase == "draw" and state.drawn is not None:
            following = state.draw_pos + 1
            return state.draw_order[following] if following <= state.players - 3 else None
        if state.phase == "turn" and state.turn is not None:
            waiting = [p for p in range(state.players) if p != state.turn.player
                       and state.holding[p] is not None and len(state.played_empires[p]) < state.epoch]
            return waiting[0] if len(waiting) == 1 else None
        return None

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
            plays: list[Action] = []
            for c in flow.playable_cards(ctx):
                choices = event_cards.piece_choices(ctx, ctx.rules.cards[c])
                if len(choices) > 1:
                    plays.extend(PlayCard(player, c, e) for e in choices)
                else:
                    plays.append(PlayCard(player, c))
            return [*plays, Done(player)]
        if step == "pick":
            assert turn.pick is not None
            return [Choose(player, target) for target in turn.pick["options"]]
        if step == "card":
            acts: list[Action] = [Choose(player, t) for t in event_cards.candidates(ctx)]
            if self._may_finish_card(ctx):
                acts.append(Done(player))
            return acts
        if step in ("minor", "crusade"):
            return [*(Expand(player, land) for land in sorted(flow.expansion_targets(ctx))), Done(player)]
        if step == "reallocate":
            return [*(Choose(player, w) for w in flow.reallocatable(ctx)), Done(player)]
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
        acts.extend(ManFleet(player, sea) for kind, sea in flow.naval_options(ctx) if kind == "man_fleet")
        acts.append(EndTurn(player))
        return acts

    def timeout_action(self, state: HistoryState, player: PlayerId) -> Action:
        """The most passive move: keep a drawn card, play no event, stop, end the turn.

        In a pick (fleets, monument sites) it is the default, the first option listed.
        """
        legal = self.legal_actions(state, player)
        if not legal:
            raise IllegalAction("not_your_turn", "It is not your turn.", player=player)
        for passive in (Keep, EndTurn, Done):
            for action in legal:
                if isinstance(action, passive):
                    return action
        return legal[0]

    @staticmethod
    def _may_finish_card(ctx: Ctx) -> bool:
        turn = ctx.state.turn
        assert turn is not None and turn.pending is not None
        effect, chosen = turn.pending["effect"], turn.pending["chosen"]
        if effect == "plague_spread" or (effect == "barbarians" and chosen):
            return False
        fewest, _ = event_cards.needed(ctx)
        return not chosen or len(chosen) >= fewest

    # -- applying (the BaseGame template) ----------------------------------------
    def apply(self, state: HistoryState, action: Action) -> Result:
        # The draw is the one step whose refusal says more than the table can: what is going on.
        drawing = state.phase == "draw" and action.player in self.actors(state)
        if drawing and not isinstance(action, (Keep, Give)):
            raise IllegalAction("drawing", "Empire cards are being drawn: keep or give the card.")
        return super().apply(state, action)

    def hidden_draws(self, state: HistoryState) -> tuple[int, ...]:
        # an event card drawn from the deck, a pre-eminence marker from the pile
        return (len(state.deck), len(state.marker_pile))

    def private_variants(self, state: HistoryState, seat: PlayerId) -> list[HistoryState]:
        """``state`` with ``seat``'s event cards swapped for cards of the same deck that nobody can see
        (not dealt, or played before this turn): all the others know of a hand is its size."""
        if not 0 <= seat < state.players or not state.hands[seat]:
            return []
        cards = self.rules.cards
        played = state.turn.played if state.turn is not None else []
        unseen = unseen_cards((c.id for c in cards.values() for _ in range(c.count)), *state.hands, played)
        out = []
        for hand in other_hands(state.hands[seat], unseen, lambda c: cards[c].deck):
            variant = state.clone()
            variant.hands[seat] = hand
            out.append(variant)
        return out

    def step(self, state: HistoryState) -> str:
        if state.phase == "draw":
            return "draw"
        return state.turn.step if state.turn is not None else "over"

    def refusal(self, state: HistoryState, player: PlayerId) -> IllegalAction:
        if state.phase == "over":
            return IllegalAction("game_over", "The game is over.")
        return IllegalAction("not_your_turn", "It is not your turn.", player=player)

    def begin(self, state: HistoryState) -> Ctx:
        return Ctx(state.clone(), self.rules)

    def finish(self, ctx: Ctx) -> HistoryState:
        ctx.state.seq += 1
        return ctx.state

    def handle(self, ctx: Ctx, action: Action) -> None:
        step = self.step(ctx.state)
        if isinstance(action, Keep):
            flow.decide_draw(ctx, action.player, None)
        elif isinstance(action, Give):
            flow.decide_draw(ctx, action.player, int(action.to))
        elif isinstance(action, PlayCard):
            event_cards.play(ctx, action.card, int(action.pieces))
        elif isinstance(action, Done):
            flow.finish_step(ctx)
        elif isinstance(action, Choose):
            if step == "reallocate":
                flow.reallocate(ctx, action.target)
            elif step == "pick":
                flow.choose_pick(ctx, action.target)
            else:
                event_cards.choose(ctx, action.target)
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
    def view(self, state: HistoryState, viewer: PlayerId | None) -> ClassicView:
        """Everything ``viewer`` may see (None: a spectator). Hidden information stays out."""
        return build_view(self.id, state, self.rules, viewer, sorted(self.actors(state)))

    # -- words, from a view -----------------------------------------------------------
    def decision(self, view: Mapping[str, Any], player: PlayerId, legal: Sequence[Action],
                 names: Names) -> Decision:
        return decision(view, player, legal, self.rules, names)

    def describe_event(self, event: Event, names: Names) -> str | None:
        return text.describe_event(event, names, self.rules)

    def stage(self, view: Mapping[str, Any]) -> str:
        return text.stage(view)

    def status_text(self, view: Mapping[str, Any], names: Names) -> str:
        return text.status_text(view, names, self.rules)

    def hand_text(self, view: Mapping[str, Any], player: PlayerId, names: Names) -> str:
        return text.hand_text(view, player, names, self.rules)

    def board_text(self, view: Mapping[str, Any], names: Names) -> str:
        return text.board_text(view, names, self.rules)

    def place_text(self, view: Mapping[str, Any], place: str, names: Names) -> str | None:
        return text.place_text(view, place, names, self.rules)

    def card_text(self, view: Mapping[str, Any], wanted: str, names: Names) -> str | None:
        return card_text.answer(view, wanted, self.rules)

    def summary_text(self, view: Mapping[str, Any], names: Names) -> str:
        return text.summary_text(view, names)

    # -- the end --------------------------------------------------------------------
    def check_data(self) -> list[str]:
        """Every problem in the classic map and rules data (empty when all is well)."""
        return check_data()

    def is_over(self, state: HistoryState) -> bool:
        return state.phase == "over"

    def scores(self, state: HistoryState) -> list[int]:
        return list(state.final if state.final is not None else state.scores)

    def compared(self, state: HistoryState, seat: PlayerId) -> tuple[int, int, int, int]:
        return compared(state, self.rules, seat)

    def to_json(self, state: HistoryState) -> dict[str, Any]:
        return state.to_json()

    def dumps(self, state: HistoryState) -> str:
        return state.dumps()

    def from_json(self, data: Mapping[str, Any]) -> HistoryState:
        return HistoryState.from_json(data)


GAME = ClassicGame()

