"""History of the World, classic 7-epoch rules, as an Annals game (id ``history-classic``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine import rng
from engine.core import Action, Decision, Ending, Event, Names, PlayerId, StepGame
from engine.history import card_text, flow, text
from engine.history.actions import CODEC
from engine.history.board import Ctx
from engine.history.data import ROMAN, RulesData, check_data, load_rules
from engine.history.decision import decision
from engine.history.hands import other_hands, unseen_cards
from engine.history.scoring import compared
from engine.history.spec import SPEC
from engine.history.state import HistoryState, Phase
from engine.history.steps import STEPS, Key
from engine.history.view import ClassicView, build_view


class ClassicGame(StepGame[HistoryState, Ctx, Key, ClassicView]):
    """The :class:`engine.core.Game` implementation of the classic rules, run by its steps
    (:data:`engine.history.steps.STEPS`: who acts, the legal moves, the timeout move and the rules of
    each move, by phase and step of a turn)."""

    id = SPEC.id
    title = SPEC.title
    min_players = SPEC.min_players
    max_players = SPEC.max_players
    codec = CODEC

    def __init__(self) -> None:
        super().__init__(STEPS, over=Phase.OVER)

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

    # -- whose move (the steps say who acts, which moves they have and the timeout move) ------------
    def step(self, state: HistoryState) -> Key:
        """The draw and the end by their phase; in a turn, the turn's step."""
        if state.phase is Phase.TURN:
            assert state.turn is not None  # between two turns only inside a move
            return state.turn.step
        return state.phase

    def up_next(self, state: HistoryState) -> PlayerId | None:
        """The next drawer while three or more are still to draw (each has a real choice; the last two
        are decided at once, and then the empire called first is a hidden card); in a turn, the one seat
        still to play its empire this epoch (of several, who holds the next one called is hidden)."""
        if state.phase is Phase.DRAW and state.drawn is not None:
            following = state.draw_pos + 1
            return state.draw_order[following] if following <= state.players - 3 else None
        if state.phase is Phase.TURN and state.turn is not None:
            waiting = [p for p in range(state.players) if p != state.turn.player
                       and state.holding[p] is not None and len(state.played_empires[p]) < state.epoch]
            return waiting[0] if len(waiting) == 1 else None
        return None

    # -- applying (StepGame.apply checks the actor and hands the move to its step's handler) -------
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

    def begin(self, state: HistoryState) -> Ctx:
        return Ctx(state.clone(), self.rules)

    def finish(self, ctx: Ctx) -> HistoryState:
        # every move ends by moving past the steps that need no decision
        flow.advance(ctx)
        ctx.state.seq += 1
        return ctx.state

    # -- what players see ----------------------------------------------------------
    def view(self, state: HistoryState, viewer: PlayerId | None) -> ClassicView:
        """Everything ``viewer`` may see (None: a spectator). Hidden information stays out."""
        return build_view(self.id, state, self.rules, viewer, sorted(self.actors(state)))

    # -- words, from a view -----------------------------------------------------------
    def decision(self, view: ClassicView, player: PlayerId, legal: Sequence[Action],
                 names: Names) -> Decision:
        return decision(view, player, legal, self.rules, names)

    def describe_event(self, event: Event, names: Names) -> str | None:
        return text.describe_event(event, names, self.rules)

    def stage(self, view: ClassicView) -> str:
        return text.stage(view)

    def status_text(self, view: ClassicView, names: Names) -> str:
        return text.status_text(view, names, self.rules)

    def hand_text(self, view: ClassicView, player: PlayerId, names: Names) -> str:
        return text.hand_text(view, player, names, self.rules)

    def board_text(self, view: ClassicView, names: Names) -> str:
        return text.board_text(view, names, self.rules)

    def place_text(self, view: ClassicView, place: str, names: Names) -> str | None:
        return text.place_text(view, place, names, self.rules)

    def card_text(self, view: ClassicView, wanted: str, names: Names) -> str | None:
        return card_text.answer(view, wanted, self.rules)

    def summary_text(self, view: ClassicView, names: Names) -> str:
        return text.summary_text(view, names)

    # -- the end --------------------------------------------------------------------
    def check_data(self) -> list[str]:
        """Every problem in the classic map and rules data (empty when all is well)."""
        return check_data()

    def scores(self, state: HistoryState) -> list[int]:
        return list(state.final if state.final is not None else state.scores)

    def compared(self, state: HistoryState, seat: PlayerId) -> tuple[int, int, int, int]:
        return compared(state, self.rules, seat)

    def ending(self, state: HistoryState) -> tuple[Ending, str]:
        # the classic game has one end: Epoch VII scored and the pre-eminence markers revealed
        return Ending.LAST_ROUND, f"The game ends: Epoch {ROMAN[state.epoch]}, the last, has been played."

    def to_json(self, state: HistoryState) -> dict[str, Any]:
        return state.to_json()

    def dumps(self, state: HistoryState) -> str:
        return state.dumps()

    def from_json(self, data: Mapping[str, Any]) -> HistoryState:
        return HistoryState.from_json(data)


GAME = ClassicGame()

