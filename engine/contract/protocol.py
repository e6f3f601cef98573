"""The protocol every game object implements (:class:`Game`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from typing_extensions import TypeVar

from engine.contract.basics import JSON, PlayerId
from engine.contract.codec import Action, ActionCodec
from engine.contract.values import Decision, Event, Names, Outcome, Result

S = TypeVar("S", default=Any)
V = TypeVar("V", default=Any)


class Game(Protocol[S, V]):
    """The protocol every game object implements (see :class:`engine.spec.GameSpec` for what it is called).

    The rules hooks work on the state; the text hooks and :meth:`decision` work
    on a player's view only, so no sentence or label can carry hidden
    information out of the engine.

    Generic in the game's state ``S`` and its view ``V`` (its own ``TypedDict``), so that mypy checks
    every key a game's words read against the view it builds. The platform holds a bare ``Game``
    (``Game[Any, Any]``): it never reads inside a state or a view, only hands a game's view back to
    that same game, so any game is one (a default of ``Mapping[str, Any]`` for ``V`` would refuse
    a game whose words take its own, narrower view).
    """

    id: str
    title: str
    min_players: int
    max_players: int
    codec: ActionCodec

    def check_data(self) -> list[str]:
        """Every problem in the game's data files (empty when all is well)."""
        ...

    # -- rules ----------------------------------------------------------------------------
    def setup(self, players: int, options: Mapping[str, JSON], seed: int) -> S: ...

    def actors(self, state: S) -> frozenset[PlayerId]: ...

    def legal_actions(self, state: S, player: PlayerId) -> Sequence[Action]: ...

    def apply(self, state: S, action: Action) -> Result: ...

    def timeout_action(self, state: S, player: PlayerId) -> Action:
        """The most passive legal move of ``player`` (the "skip" timeout policy plays it)."""
        ...

    def view(self, state: S, viewer: PlayerId | None) -> V:
        """What ``viewer`` may see (None: a spectator), JSON-native; a game's own TypedDict."""
        ...

    def is_over(self, state: S) -> bool: ...

    def scores(self, state: S) -> list[int]: ...

    def ranking(self, state: S) -> list[PlayerId]: ...

    def places(self, state: S) -> list[list[PlayerId]]:
        """The seats by place, best first (the order of :meth:`ranking`): the seats of one place are tied
        on everything the game compares after all its tie-breaks, and share that place (never seat order).
        """
        ...

    def outcome(self, state: S) -> Outcome | None:
        """How the game ended: its :meth:`scores`, its :meth:`places` and why (an :class:`Ending` and
        the game's sentence for it); None while the game runs (:meth:`is_over` false). The platform
        records it as the game's result and says the sentence when the game ends."""
        ...

    def compared(self, state: S, seat: PlayerId) -> tuple[Any, ...]:
        """What the game compares of ``seat`` to rank it, best lowest: its score, then each tie-break in
        the rulebook's order; never the seat itself. Seats with equal ones share a place (:meth:`places`).
        :class:`BaseGame` ranks by it."""
        ...

    def undoable(self, before: S, action: Action, result: Result) -> bool:
        """Whether ``action`` (applied to ``before``, giving ``result``) may be taken back by its player:
        nothing new became known (no die, no draw, no reveal, no private event) and the same player
        still acts alone. :class:`BaseGame` has the generic rule (:func:`plain_move`, then
        :func:`shows_hidden` over :meth:`private_variants`). Never true of a move that is not a
        :func:`plain_move`: :class:`LogReplay` asks only about those."""
        ...

    def quiet(self, state: S, action: Action) -> bool:
        """Whether ``action``, a move ``state`` accepts, is quiet: it tells no seat but its sender
        anything. It changes only what its sender alone knows (a hidden standing order, a private
        setting), so every other seat's view and decision, and a spectator's, are the same after it
        (the view's own counter included), its events are its sender's alone, and it draws nothing.
        Quiet moves are moves a seat may send at any time (:attr:`engine.spec.GameSpec.anytime_kinds`).
        The platform counts a quiet move in no number another seat sees (the move counter, the
        staleness token of every button, the public log and news) and lets its sender alone take it
        back past other seats' quiet moves (not past a move the others see; :class:`LogReplay`). False
        by default (:class:`BaseGame`); a game with one declares the facet ``quiet_moves`` in its spec."""
        ...

    def quiet_examples(self, state: S, seat: PlayerId) -> Sequence[Action]:
        """A few quiet moves (:meth:`quiet`) ``seat`` may send now, each accepted by :meth:`apply`: what
        the contract suite plays to check that no other seat can tell. Empty by default."""
        ...

    def forced(self, state: S, player: PlayerId) -> Action | None:
        """``player``'s move when the platform may play it for them at once: their only legal move,
        and one whose being the only one tells the others nothing (:func:`only_move`, the default of
        :class:`BaseGame`); None when they have a real choice to make, or when asking them hides what
        they hold. A confirmation asked before a real choice is no forced move."""
        ...

    def up_next(self, state: S) -> PlayerId | None:
        """While one seat acts alone, the seat the game asks next: once that seat is done, the next to
        act is this one seat alone (unless the game ends first), and what every seat sees already fixes
        it. The platform tells its person "you're next". None when it is not fixed or not public yet (a
        draw, a roll, a bid, a hidden card or the move under way decides it; several seats act at once
        next) and when several seats act now. Read from the public part of the state only: two states
        that differ only in one seat's secrets (:meth:`private_variants`) give the same answer. None by
        default (:class:`BaseGame`): a game that says nothing is never wrong."""
        ...

    def private_variants(self, state: S, seat: PlayerId) -> Sequence[S]:
        """A few states equal to ``state`` but in what ``seat`` alone knows, none of them ``state``.

        Every other seat and a spectator see each of them exactly as they see ``state`` (same
        :meth:`view`): ``seat``'s hand replaced by cards the others cannot tell from it (from an unseen
        pile, as many), its face-down markers permuted, its secret bid changed. They differ from
        ``state`` as much as the rules allow and are derived from the state alone (no global random),
        so the answer is the same on every replay. A move is a reveal when the same move applied to
        one of them is refused or tells another seat something else (:func:`shows_hidden`): such a
        move cannot be taken back. Empty for a seat that knows nothing the others do not.
        """
        ...

    def join(self, state: S) -> Result:
        """A new player takes the next seat (numbered after the last one) of a game under way.

        Returns the state with the seat added and the events: a public one saying who joined, and
        what only the newcomer may see (their hand). The platform logs it as :func:`join_entry`.
        A game that takes no newcomers (the default of :class:`BaseGame`, and every game whose spec
        says ``joins_in_progress=False``) raises IllegalAction ``no_joining``; one that does refuses
        with its own sentence when it cannot take one now (no free colour, the table full, the game over).
        """
        ...

    # -- persistence ------------------------------------------------------------------------
    def to_json(self, state: S) -> dict[str, JSON]: ...

    def dumps(self, state: S) -> str:
        """The state as compact JSON text, equal to ``json.dumps(to_json(state))`` but
        without building a copy first (the service writes one per move)."""
        ...

    def from_json(self, data: Mapping[str, JSON]) -> S: ...

    # -- words, from a view -------------------------------------------------------------------
    def decision(self, view: V, player: PlayerId, legal: Sequence[Action],
                 names: Names) -> Decision:
        """``player``'s current decision: ``legal`` (their legal moves, computed by the
        engine from the state) headed and labelled from ``view`` (their own view), naming
        seats through ``names`` (their colour where ``names`` is empty)."""
        ...

    def describe_event(self, event: Event, names: Names) -> str | None:
        """One plain sentence telling players what ``event`` means, or None for bookkeeping.

        None too for an event type the game does not know (every game alike, a contract test): a log
        stored under older rules may hold a type the game no longer emits, and its reader must not
        fail. A type the game does emit is worded; each game's tests check that over its playouts."""
        ...

    def seat_colours(self, view: V) -> tuple[str | None, ...]:
        """The colour word each seat goes by now, read from ``view`` (a spectator's: every reader
        names a seat alike), index = seat: a game whose players choose their colours during play names
        a seat by the colour it took (7 Ages: "alice (Orange)" once she holds the orange/yellow
        counters), so no seat is ever named by another's colour. None for a seat without one yet and an
        empty tuple (:class:`engine.core.BaseGame`'s default) give the spec's word
        (:meth:`engine.spec.GameSpec.seat_names`). The platform asks only a game whose spec declares the
        facet ``chosen_colours``."""
        ...

    def stage(self, view: V) -> str:
        """The stage of play in a few words ("Epoch III", "Era II, turn 4", "Game over")."""
        ...

    def status_text(self, view: V, names: Names) -> str:
        """The public status: stage, whose turn, the scores; at the end the result and the winner."""
        ...

    def hand_text(self, view: V, player: PlayerId, names: Names) -> str:
        """What ``player`` holds that others may not see (cards, a secret bid), in sentences."""
        ...

    def board_text(self, view: V, names: Names) -> str:
        """The board in words: who holds what, where."""
        ...

    def place_text(self, view: V, place: str, names: Names) -> str | None:
        """One place of the board in words, from ``view`` only: its terrain, who holds it, the pieces
        of every seat there, what it is worth and its neighbours; an empty place is described too.
        ``place`` is what a person typed (a name, any case); None when no place is called that."""
        ...

    def card_text(self, view: V, wanted: str, names: Names) -> str | None:
        """One card in words, from ``view`` only, so the answer shows nothing its viewer may not see.

        ``wanted`` is what a person typed: a number or a name printed on the card (any case). The whole
        card, in several lines, when the viewer may read it; else one line: a short list when several
        cards they may read answer to it, a sentence when the card exists but the viewer may not read it
        (another seat's hand, the deck) or the number is no card's. None when the game has no card
        called that, or no cards at all (the default of :class:`BaseGame`): the platform then says so
        in one sentence."""
        ...

    def empire_text(self, view: V, wanted: str, names: Names) -> str | None:
        """One empire in words, from ``view`` only (``empire WHAT``): who plays it, where it stands, what
        it holds, as its viewer may know it (its own units whole, another seat's as everyone sees them).

        ``wanted`` is what a person typed (a name or a number, any case). A sentence when the game has
        empires but none the viewer may read answers to it. None when the game has no empires to look
        up (the default of :class:`BaseGame`): the platform then says so in one sentence."""
        ...

    def tracks_text(self, view: V, names: Names) -> str | None:
        """The game's tracks in words (``tracks``: progress, glory, money...), from ``view`` only; None
        when the game keeps no tracks beyond its scores (the default of :class:`BaseGame`)."""
        ...

    def summary_text(self, view: V, names: Names) -> str:
        """The end-of-game summary: final scores (with what they are made of) and the winner."""
        ...

    def orders(self, view: V, player: PlayerId, names: Names) -> Decision | None:
        """``player``'s standing orders as a decision, from their own ``view``: the moves they may send at
        any time, whoever acts (arm a card to fire in another seat's turn, withdraw an order), one labelled
        :class:`Choice` each, like :meth:`decision`'s; the choices may be none, and the heading then says
        why. Every choice is a move of a kind the spec lists in ``anytime_kinds``, sent through the same
        submit as any move. None for a game without standing orders (:class:`BaseGame`'s default; its
        spec's ``standing_orders`` facet is off)."""
        ...
