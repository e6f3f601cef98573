"""Eight-Minute Empire as an Annals game (id ``eight-minute``), 2 to 5 players.

Course of play: setup (2 players: ten neutral armies placed one at a time,
alternately), one secret simultaneous bid (every player who has not bid yet is
an actor; nothing of any bid shows before all are in), the winner pays and
names the first player, then turns: take a face-up card (prices 0, 1, 1, 2, 2,
3 by position), then do its action one army at a time or stop with ``done``.
The game ends when every player holds 13/10/8/7 cards (2/3/4/5 players).

Options (the spec's, ``engine/eight_minute/spec.py``): ``full_game`` (three
games, points added up), ``goods_tokens`` (a goods token on each triangle
region), ``youngest`` (the seat, from 1, of the youngest player, who wins a tied
bid; 0 when nobody said: tied bids then roll a die, the rulebook's variant).

The view (``GAME.view(state, viewer)``; ``viewer`` None is a spectator) is an
:class:`engine.eight_minute.view.EMView` (its fields are documented there); its
``board`` holds region ids, and :func:`engine.eight_minute.data.load_data` gives
the map (region names, continents, polygons, land and water links) and the cards.

Verbs: ``place`` (new armies), ``move`` (over land), ``sail`` (over land and
water), ``city``, ``destroy``. The action kinds are ``bid``, ``neutral``,
``first``, ``take``, ``choose``, ``place``, ``move`` (``source`` and ``to``),
``city``, ``destroy`` (``region`` and ``owner``, -1 = neutral) and ``done``;
:meth:`EightMinuteGame.decision` heads and labels them for a player (moves
grouped by source and destroys by region, for a two-step pick).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core import Ending, IllegalAction, Names, PlayerId, SpokenBy, StepGame, Words
from engine.eight_minute import flow, text
from engine.eight_minute.actions import CODEC
from engine.eight_minute.data import EMData, check_data, load_data
from engine.eight_minute.flow import Ctx, games_in_match
from engine.eight_minute.scoring import breakdown, compared, totals
from engine.eight_minute.spec import SPEC
from engine.eight_minute.state import EMState, Phase
from engine.eight_minute.steps import STEPS
from engine.eight_minute.view import EMView, build_view


class EightMinuteGame(SpokenBy[EMView], StepGame[EMState, Ctx, Phase]):
    """The :class:`engine.core.Game` implementation of Eight-Minute Empire, run by its steps
    (:data:`engine.eight_minute.steps.STEPS`: who acts, the legal moves, the timeout move and the
    rules of each move, by phase)."""

    WORDS = Words(decision=text.decision, describe_event=text.describe_event, stage=text.stage,
                  status_text=text.status_text, hand_text=text.hand_text, board_text=text.board_text,
                  summary_text=text.summary_text)

    id = SPEC.id
    title = SPEC.title
    min_players = SPEC.min_players
    max_players = SPEC.max_players
    codec = CODEC

    def __init__(self) -> None:
        super().__init__(STEPS, over=Phase.OVER)

    @property
    def data(self) -> EMData:
        return load_data()

    def check_data(self) -> list[str]:
        """Every problem in this game's data files (for ``python -m engine check-data``)."""
        return check_data()

    # -- setup -------------------------------------------------------------------------
    def setup(self, players: int, options: Mapping[str, Any], seed: int) -> EMState:
        opts = SPEC.checked_options(players, options)
        if int(opts.get("youngest") or 0) > players:
            raise IllegalAction("bad_option", f"The youngest player is a seat from 1 to {players} "
                                "(or 0 when nobody says).", option="youngest")
        state = EMState(players=players, options=opts, seed=int(seed))
        flow.new_game(Ctx(state, self.data))
        return state

    # -- whose move (the steps say who acts, which moves they have and the timeout move) ------------
    def step(self, state: EMState) -> Phase:
        return state.phase

    def up_next(self, state: EMState) -> PlayerId | None:
        """The seat to the left, in the two-player neutral placing and when a turn ends; None when this
        card ends the game (or a game of the Full Game, which goes on with a bid), and in the bid."""
        if state.phase is Phase.NEUTRAL:
            return (state.neutral_next + 1) % state.players if state.neutral_left > 1 else None
        if state.phase is not Phase.TURN or state.current is None:
            return None
        # the card of this turn is in its hand once taken (a task under way)
        cards = [len(h) + (p == state.current and state.task is None) for p, h in enumerate(state.hands)]
        if all(n >= self.data.end_cards[state.players] for n in cards):
            return None
        return (state.current + 1) % state.players

    # -- applying (StepGame.apply checks the actor and hands the move to its step's handler) -------
    def hidden_draws(self, state: EMState) -> tuple[int, ...]:
        # taking a card turns the next one of the face-down deck up
        return (len(state.deck),)

    def private_variants(self, state: EMState, seat: PlayerId) -> list[EMState]:
        """``state`` with ``seat``'s secret bid, while others still bid, as low and as high as its
        coins allow: the only thing a seat knows that the others do not (the deck's order is
        hidden from everyone; :meth:`hidden_draws` covers it)."""
        if not 0 <= seat < state.players or not state.bids or state.bids[seat] is None \
                or all(b is not None for b in state.bids):
            return []
        out = []
        for amount in sorted({0, state.coins[seat]} - {state.bids[seat]}):
            variant = state.clone()
            variant.bids[seat] = amount
            out.append(variant)
        return out

    def begin(self, state: EMState) -> Ctx:
        return Ctx(state.clone(), self.data)

    def finish(self, ctx: Ctx) -> EMState:
        ctx.state.seq += 1
        return ctx.state

    # -- what players see -----------------------------------------------------------------------
    def view(self, state: EMState, viewer: PlayerId | None) -> EMView:
        """Everything ``viewer`` may see (None: a spectator); see the module docstring for the shape."""
        return build_view(self.id, state, self.data, viewer)

    # -- the end ------------------------------------------------------------------------------------
    def scores(self, state: EMState) -> list[int]:
        """Final points once over; until then the points as they would stand now."""
        if state.final is not None:
            return list(state.final)
        return totals(state, breakdown(state, self.data))

    def compared(self, state: EMState, seat: PlayerId) -> tuple[int, ...]:
        return compared(state, self.data, seat)

    def ending(self, state: EMState) -> tuple[Ending, str]:
        # the game has one end: every player holds the cards their number calls for (of the last
        # game, with the Full Game variant)
        cards = self.data.end_cards[state.players]
        games = games_in_match(state, self.data)
        match = f", in the last of the Full Game's {games} games" if games > 1 else ""
        return Ending.LAST_ROUND, f"The game ends: every player has taken {cards} cards{match}."

    def to_json(self, state: EMState) -> dict[str, Any]:
        return state.to_json()

    def dumps(self, state: EMState) -> str:
        return state.dumps()

    def from_json(self, data: Mapping[str, Any]) -> EMState:
        return EMState.from_json(data)

    def place_text(self, view: EMView, place: str, names: Names) -> str | None:
        return text.place_text(view, place, names)


GAME = EightMinuteGame()
