"""7 Ages as an Annals game (id ``seven-ages``), 2 to 5 players: the contract around the step machine.

The rules live in the steps (:mod:`engine.seven_ages.steps` says which module runs which phase), given to
the engine's step template (:class:`engine.core.StepGame`) by :mod:`engine.seven_ages.flow`: the template
checks who may act and with what kind of move and applies a move to a copy through the handler the
current step files its class under; this object adds the moves made at any time, and words views
(:mod:`~engine.seven_ages.view`, :mod:`~engine.seven_ages.decision`, :mod:`~engine.seven_ages.text`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from engine.core import (
    JSON,
    Action,
    Decision,
    Ending,
    IllegalAction,
    Names,
    PlayerId,
    Result,
    SpokenBy,
    StepGame,
    Words,
    only_move,
)
from engine.seven_ages import (
    area_words,
    armed,
    ballot_words,
    board_words,
    card_words,
    decision,
    empire_words,
    ending,
    flow,
    fog,
    heresy,
    join,
    modifiers,
    orders,
    prefs,
    quiet,
    seat_colours,
    secrets,
    start,
    steps,
    text,
    window,
)
from engine.seven_ages.actions import CODEC, Done, Pass, Prefer
from engine.seven_ages.checks import check_data
from engine.seven_ages.civilisation_moves import Arm, Disarm
from engine.seven_ages.manoeuvre_moves import TopUnit
from engine.seven_ages.markers import MarkerStep
from engine.seven_ages.setup import new_game
from engine.seven_ages.spec import SPEC
from engine.seven_ages.state import (
    CIVILISE,
    DISCARD,
    DRAFT,
    OVER,
    START,
    SevenState,
    dumps,
    from_json,
    to_json,
)
from engine.seven_ages.steps import Ctx
from engine.seven_ages.view import SevenView, build_view

ballot_words.register()
heresy.register()

_ONE_BY_ONE = frozenset({DRAFT, START, CIVILISE, DISCARD})  # see SevenAgesGame.up_next

STANDING: Mapping[type[Action], Callable[[SevenState, Any], Result]] = {
    TopUnit: fog.choose_top,  # the fog of war's top unit of a stack (L791)
    Arm: armed.standing_order,  # a hidden standing order
    Disarm: armed.withdrawn_order,
    Prefer: prefs.standing_move,  # a standing preference (a trade partner's card chosen ahead...)
}
"""The moves any seat may send at any time, whatever the step and whoever acts (the spec's
``anytime_kinds``), by class: each is its own move, checked and counted (or kept quiet) by its module."""


class SevenAgesGame(SpokenBy[SevenView], StepGame[SevenState, Ctx, str, SevenView]):
    WORDS = Words(decision=decision.decide, describe_event=text.describe_event, stage=text.stage,
                  status_text=text.status_text, hand_text=text.hand_text, board_text=board_words.board_text,
                  summary_text=text.summary_text)
    id = SPEC.id
    title = SPEC.title
    min_players = SPEC.min_players
    max_players = SPEC.max_players
    codec = CODEC

    def __init__(self) -> None:
        super().__init__(flow.STEPS, over=OVER)

    def check_data(self) -> list[str]:
        return check_data()

    def seat_colours(self, view: SevenView) -> tuple[str | None, ...]:
        """Each seat by the colour group it took (:mod:`engine.seven_ages.seat_colours`)."""
        return seat_colours.seat_colours(view)

    # -- rules --------------------------------------------------------------------------------
    def setup(self, players: int, options: Mapping[str, JSON], seed: int) -> SevenState:
        return new_game(players, SPEC.checked_options(players, options), seed)

    def up_next(self, state: SevenState) -> PlayerId | None:
        """The next seat of the queue in a step taken one seat at a time where no other seat is asked in
        between (the spare-marker draft; Discard; Civilise once the seat acting has no card left to play:
        how many cards a hand holds is public; Start once the seat acting is past its start areas'
        conflicts, or holds no card to start an empire with); None elsewhere."""
        if state.phase not in _ONE_BY_ONE or state.pending or state.choosing_colours():
            return None
        if state.phase == CIVILISE and state.queue and state.people[state.queue[0]].hand:
            return None  # an event it may play can ask another seat first (a victim, an assassination)
        if state.phase == START and state.queue and not start.alone_to_the_end(state, state.queue[0]):
            return None  # the empire it starts may fight over its start areas, asking the seats there first
        return next((q for q in state.queue if q != state.queue[0]), None)

    def step(self, state: SevenState) -> str:
        return state.phase

    def refusal(self, state: SevenState, player: PlayerId) -> IllegalAction:
        if state.phase != OVER and not 0 <= player < state.players:
            return IllegalAction("not_seated", "There is no such seat in this game.")
        return super().refusal(state, player)

    def apply(self, state: SevenState, action: Action) -> Result:
        """A move made at any time (:data:`STANDING`), a newcomer's colours (L337: their first move,
        whatever the step), or the current step's move (:meth:`StepGame.apply`)."""
        standing = STANDING.get(type(action))
        if standing is not None:
            return standing(state, action)
        if action.player in state.choosing_colours():
            return join.choose_colours(state, action)
        return super().apply(state, action)

    def join(self, state: SevenState) -> Result:
        return join.join(state)

    def begin(self, state: SevenState) -> Ctx:
        return Ctx(state)

    def finish(self, ctx: Ctx) -> SevenState:
        """The move is counted; under option 16 a Democracy that lost an area in it is noted (L1526)."""
        return replace(modifiers.note_losses(ctx.start, ctx.state), seq=ctx.state.seq + 1)

    def hidden_draws(self, state: SevenState) -> tuple[int, ...]:
        """What a move may show of hidden things, by size: a draw from the deck or the cup, a card leaving
        a hand (played, bid, discarded), a marker turned face up. A move that changes one cannot be
        taken back: it showed something. A conflict's sealed commitments and the cards held aside (an
        assassination's draws, a trade's cards) count too: their reveal shows the other side's; so do the
        armed orders (:mod:`~engine.seven_ages.armed`), which fire unseen and then show themselves."""
        face_down = sum(1 for m in state.markers if m.face_down)
        return (len(state.deck), len(state.cup), face_down, len(state.sealed), len(state.aside),
                *(len(p.hand) for p in state.people), *(len(p.armed) for p in state.people))

    def quiet(self, state: SevenState, action: Action) -> bool:
        """An order armed or withdrawn, or a preference nobody else sees (:mod:`engine.seven_ages.quiet`)."""
        return quiet.is_quiet(action)

    def quiet_examples(self, state: SevenState, seat: PlayerId) -> list[Action]:
        return quiet.examples(state, seat)

    def private_variants(self, state: SevenState, seat: PlayerId) -> list[SevenState]:
        """Its hand and bid swapped with unseen cards, its vote turned, its face-down markers
        exchanged, its armed orders moved or withdrawn (:mod:`engine.seven_ages.secrets`)."""
        return secrets.private_variants(state, seat)

    def forced(self, state: SevenState, player: PlayerId) -> Action | None:
        """:func:`engine.core.only_move`, and the table's reading: a player whose only move is to turn over
        no more markers, or to finish a stage with nothing to do, says so at once. A table sees that
        too, so playing it at once tells nothing a table does not (data/seven_ages/README.md, "Moves
        played at once"), though what they hold decided it (a face-down marker they may turn is always
        a real choice: they are asked; so is the opening of a go where their events of its action are
        offered, while they hold a card: :meth:`MarkerStep.asks_blind`)."""
        legal = self.legal_actions(state, player)
        if window.asked_blind(state, player):
            return None  # an event window's lone pass still hides whether a card was there to play
        step = steps.step_of(state)
        if isinstance(step, MarkerStep) and step.asks_blind(state, player):
            return None  # so does a go's opening, where its player's events of that action are offered
        if len(legal) == 1 and isinstance(legal[0], (Pass, Done)):
            return legal[0]
        return only_move(self, state, player)

    def view(self, state: SevenState, viewer: PlayerId | None) -> SevenView:
        return build_view(state, viewer, self.id)

    def scores(self, state: SevenState) -> list[int]:
        return [p.glory for p in state.people]

    def compared(self, state: SevenState, seat: PlayerId) -> tuple[int, int, int]:
        return steps.compared(state, seat)

    def ending(self, state: SevenState) -> tuple[Ending, str]:
        return ending.ending(state)

    # -- persistence ------------------------------------------------------------------------------
    def to_json(self, state: SevenState) -> dict[str, JSON]:
        data: dict[str, JSON] = to_json(state)
        return data

    def dumps(self, state: SevenState) -> str:
        return dumps(state)

    def from_json(self, data: Mapping[str, JSON]) -> SevenState:
        return from_json(data)

    def place_text(self, view: SevenView, place: str, names: Names) -> str | None:
        return area_words.place_text(view, place, names)

    def empire_text(self, view: SevenView, wanted: str, names: Names) -> str | None:
        return empire_words.empire_answer(view, wanted, names)

    def tracks_text(self, view: SevenView, names: Names) -> str | None:
        return empire_words.tracks_answer(view, names)

    def card_text(self, view: SevenView, wanted: str, names: Names) -> str | None:
        return card_words.card_answer(view, wanted)

    def orders(self, view: SevenView, player: PlayerId, names: Names) -> Decision:
        """The pre-armed events (:mod:`engine.seven_ages.armed`) ``player`` may arm or withdraw now."""
        return orders.decide(view, player, names)


GAME = SevenAgesGame()
