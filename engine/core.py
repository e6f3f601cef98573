"""The game API shared by every game in Annals.

A game is a module-level object implementing :class:`Game`. States are plain
data that round-trip through JSON exactly; actions are frozen dataclasses with
a ``kind`` and a stable JSON codec; every random number comes from the state's
seed and counter (see :mod:`engine.rng`), so replaying the action log from the
seed rebuilds the state bit for bit.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Protocol, TypeVar

PlayerId = int
"""Players are seats numbered from 0 in seat order."""

JSON = Any
"""A JSON-compatible value (dict/list/str/int/float/bool/None)."""

PUBLIC = "public"


class IllegalAction(Exception):
    """An action the rules do not allow; the state is left untouched.

    Attributes:
        code: a stable machine-readable reason, e.g. ``"not_adjacent"``.
        message: a sentence a player understands.
        params: the values the message was built from (for translations).
    """

    def __init__(self, code: str, message: str, **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.params = params

    def __reduce__(self) -> tuple[Any, ...]:
        # Exception pickling passes only ``args``; rebuild from all three parts
        # so the error survives a process pool or a queue between processes.
        return (_rebuild_illegal, (self.code, self.message, self.params))


def _rebuild_illegal(code: str, message: str, params: dict[str, Any]) -> IllegalAction:
    return IllegalAction(code, message, **params)


class DataError(Exception):
    """A game's data files are wrong; the message lists every problem found (one per line)."""

    def __init__(self, problems: Sequence[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = list(problems)


@dataclass(frozen=True)
class Action:
    """Base class of every action: who acts, and a ``kind`` naming the class."""

    kind: ClassVar[str] = ""
    player: PlayerId

    def to_json(self) -> dict[str, JSON]:
        """Encode as a JSON object with ``kind`` first, then the fields."""
        out: dict[str, JSON] = {"kind": self.kind}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            out[f.name] = list(value) if isinstance(value, tuple) else value
        return out


A = TypeVar("A", bound=Action)


class ActionCodec:
    """Maps ``kind`` strings to action classes and decodes JSON objects."""

    def __init__(self, *classes: type[Action]) -> None:
        self._classes: dict[str, type[Action]] = {}
        for cls in classes:
            if not cls.kind or cls.kind in self._classes:
                raise ValueError(f"action kind {cls.kind!r} is empty or registered twice")
            self._classes[cls.kind] = cls

    @property
    def kinds(self) -> tuple[str, ...]:
        return tuple(self._classes)

    def decode(self, data: Mapping[str, JSON]) -> Action:
        """Build an action from its JSON object.

        Unknown kinds, unknown or missing fields and values of the wrong type (checked
        against the dataclass annotations, before any rule sees them: a player number is
        an ``int``, never ``false`` or ``0.0``) raise IllegalAction.
        """
        if not isinstance(data, Mapping):
            raise IllegalAction("bad_action", "An action must be a JSON object.")
        kind = data.get("kind")
        cls = self._classes.get(kind) if isinstance(kind, str) else None
        if cls is None:
            raise IllegalAction("unknown_action", f"There is no action called {_shown(kind)}.",
                                kind=kind if isinstance(kind, str) else None)
        names = {f.name: f for f in dataclasses.fields(cls)}
        extra = set(data) - set(names) - {"kind"}
        if extra:
            raise IllegalAction(
                "bad_action", f"Unexpected fields for {kind}: {', '.join(sorted(map(str, extra)))}."
            )
        hints = _field_types(cls)
        kwargs: dict[str, Any] = {}
        for name, f in names.items():
            if name in data:
                value = _typed(data[name], hints[name])
                if value is _WRONG:
                    raise IllegalAction("bad_action", f"The {name!r} of a {kind} action must be "
                                        f"{_type_words(hints[name])}, not {_shown(data[name])}.")
                kwargs[name] = value
            elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                raise IllegalAction("bad_action", f"The {kind} action needs a {name!r} value.")
        return cls(**kwargs)


_WRONG = object()  # what _typed returns for a value that does not fit its annotation


_HINTS: dict[type, dict[str, Any]] = {}


def _field_types(cls: type[Action]) -> dict[str, Any]:
    """The resolved annotations of an action class (they are strings under postponed evaluation)."""
    if cls not in _HINTS:
        _HINTS[cls] = typing.get_type_hints(cls)
    return _HINTS[cls]


def _typed(value: JSON, hint: Any) -> Any:
    """``value`` as the field's type (JSON lists become tuples), or ``_WRONG``.

    Exact JSON types only: ``bool`` is no ``int`` here (Python says it is), an
    ``int`` field takes no float, a ``float`` field takes an int but no bool.
    """
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        for option in typing.get_args(hint):
            fitted = _typed(value, option)
            if fitted is not _WRONG:
                return fitted
        return _WRONG
    if origin is tuple:
        if not isinstance(value, (list, tuple)):
            return _WRONG
        args = typing.get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            args = (args[0],) * len(value)
        elif len(args) != len(value):
            return _WRONG
        items = tuple(_typed(item, arg) for item, arg in zip(value, args, strict=True))
        return _WRONG if any(item is _WRONG for item in items) else items
    if hint is type(None):
        return value if value is None else _WRONG
    if hint is bool or hint is str:
        return value if type(value) is hint else _WRONG
    if hint is int:
        return value if type(value) is int else _WRONG
    if hint is float:
        return float(value) if type(value) in (int, float) else _WRONG
    if hint is Any:
        return value
    return value if isinstance(hint, type) and isinstance(value, hint) else _WRONG


def _type_words(hint: Any) -> str:
    """A field's type in words, for the refusal."""
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        return " or ".join(_type_words(option) for option in typing.get_args(hint))
    if origin is tuple:
        return "a list"
    words = {int: "a whole number", str: "a text", bool: "true or false", float: "a number",
             type(None): "empty (null)"}
    return words.get(hint, getattr(hint, "__name__", str(hint)))


def _shown(value: JSON) -> str:
    """A value as a player may be shown it: JSON-like, and short."""
    text = {True: "true", False: "false"}[value] if isinstance(value, bool) else \
        "null" if value is None else repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


@dataclass(frozen=True)
class Event:
    """Something that happened, addressed to an audience.

    ``audience`` is :data:`PUBLIC` or a tuple of the players who may see it.
    """

    type: str
    data: Mapping[str, JSON] = field(default_factory=dict)
    audience: str | tuple[PlayerId, ...] = PUBLIC

    def visible_to(self, viewer: PlayerId | None) -> bool:
        return self.audience == PUBLIC or (viewer is not None and viewer in self.audience)

    def to_json(self) -> dict[str, JSON]:
        audience: JSON = self.audience if self.audience == PUBLIC else list(self.audience)
        return {"type": self.type, "data": dict(self.data), "audience": audience}


S = TypeVar("S")


@dataclass(frozen=True)
class Result:
    """What :meth:`Game.apply` returns: the new state and what happened."""

    state: Any
    events: tuple[Event, ...]


Names = Sequence[str]
"""How the platform names each seat, index = seat: ``["alice (Red)", "bob (Blue)"]``.

Every text hook takes it, so a line names a player the same way everywhere; the
engine never sees user ids or invents "Player 2".
"""


@dataclass(frozen=True)
class Choice:
    """One legal move as a player is offered it.

    Attributes:
        action: the move itself (one of ``legal_actions``).
        label: what the button or select option says, at most 100 characters and
            unique within its decision; built from the player's view only.
        group: for a two-step pick (a move's source, then its target), the first
            step's label; empty when the move stands alone.
        confirm: a question asked before the move is sent (ending a turn with
            armies unspent); empty when none is needed.
    """

    action: Action
    label: str
    group: str = ""
    confirm: str = ""


@dataclass(frozen=True)
class Decision:
    """What one player decides now: a heading and the legal moves to choose from.

    ``heading`` says what is decided and for what ("Civil War: choose the first
    land, 1 of 3"; "Keep or give the drawn card Sumeria"). ``choices`` hold every
    legal move of the player exactly once, in the order they are best shown.
    """

    player: PlayerId
    heading: str
    choices: tuple[Choice, ...]


class Game(Protocol):
    """The protocol every game object implements (see :class:`engine.spec.GameSpec` for what it is called).

    The rules hooks work on the state; the text hooks and :meth:`decision` work
    on a player's view only, so no sentence or label can carry hidden
    information out of the engine.
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
    def setup(self, players: int, options: Mapping[str, JSON], seed: int) -> Any: ...

    def actors(self, state: Any) -> frozenset[PlayerId]: ...

    def legal_actions(self, state: Any, player: PlayerId) -> Sequence[Action]: ...

    def apply(self, state: Any, action: Action) -> Result: ...

    def timeout_action(self, state: Any, player: PlayerId) -> Action:
        """The most passive legal move of ``player`` (the "skip" timeout policy plays it)."""
        ...

    def view(self, state: Any, viewer: PlayerId | None) -> Mapping[str, Any]:
        """What ``viewer`` may see (None: a spectator), JSON-native; a game's own TypedDict."""
        ...

    def is_over(self, state: Any) -> bool: ...

    def scores(self, state: Any) -> list[int]: ...

    def ranking(self, state: Any) -> list[PlayerId]: ...

    def places(self, state: Any) -> list[list[PlayerId]]:
        """The seats by place, best first (the order of :meth:`ranking`): the seats of one place are tied
        on everything the game compares after all its tie-breaks, and share that place (never seat order).
        """
        ...

    def compared(self, state: Any, seat: PlayerId) -> tuple[Any, ...]:
        """What the game compares of ``seat`` to rank it, best lowest: its score, then each tie-break in
        the rulebook's order; never the seat itself. Seats with equal ones share a place (:meth:`places`).
        :class:`BaseGame` ranks by it."""
        ...

    def undoable(self, before: Any, action: Action, result: Result) -> bool:
        """Whether ``action`` (applied to ``before``, giving ``result``) may be taken back by its player:
        nothing new became known (no die, no draw, no reveal, no private event) and the same player
        still acts alone. :class:`BaseGame` has the generic rule (:func:`plain_move`, then
        :func:`shows_hidden` over :meth:`private_variants`). Never true of a move that is not a
        :func:`plain_move`: :class:`LogReplay` asks only about those."""
        ...

    def forced(self, state: Any, player: PlayerId) -> Action | None:
        """``player``'s move when the platform may play it for them at once: their only legal move,
        and one whose being the only one tells the others nothing (:func:`only_move`, the default of
        :class:`BaseGame`); None when they have a real choice to make, or when asking them hides what
        they hold. A confirmation asked before a real choice is no forced move."""
        ...

    def up_next(self, state: Any) -> PlayerId | None:
        """While one seat acts alone, the seat the game asks next: once that seat is done, the next to
        act is this one seat alone (unless the game ends first), and what every seat sees already fixes
        it. The platform tells its person "you're next". None when it is not fixed or not public yet (a
        draw, a roll, a bid, a hidden card or the move under way decides it; several seats act at once
        next) and when several seats act now. Read from the public part of the state only: two states
        that differ only in one seat's secrets (:meth:`private_variants`) give the same answer. None by
        default (:class:`BaseGame`): a game that says nothing is never wrong."""
        ...

    def private_variants(self, state: Any, seat: PlayerId) -> Sequence[Any]:
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

    def join(self, state: Any) -> Result:
        """A new player takes the next seat (numbered after the last one) of a game under way.

        Returns the state with the seat added and the events: a public one saying who joined, and
        what only the newcomer may see (their hand). The platform logs it as :func:`join_entry`.
        A game that takes no newcomers (the default of :class:`BaseGame`, and every game whose spec
        says ``joins_in_progress=False``) raises IllegalAction ``no_joining``; one that does refuses
        with its own sentence when it cannot take one now (no free colour, the table full, the game over).
        """
        ...

    # -- persistence ------------------------------------------------------------------------
    def to_json(self, state: Any) -> dict[str, JSON]: ...

    def dumps(self, state: Any) -> str:
        """The state as compact JSON text, equal to ``json.dumps(to_json(state))`` but
        without building a copy first (the service writes one per move)."""
        ...

    def from_json(self, data: Mapping[str, JSON]) -> Any: ...

    # -- words, from a view -------------------------------------------------------------------
    def decision(self, view: Mapping[str, Any], player: PlayerId, legal: Sequence[Action],
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

    def stage(self, view: Mapping[str, Any]) -> str:
        """The stage of play in a few words ("Epoch III", "Era II, turn 4", "Game over")."""
        ...

    def status_text(self, view: Mapping[str, Any], names: Names) -> str:
        """The public status: stage, whose turn, the scores; at the end the result and the winner."""
        ...

    def hand_text(self, view: Mapping[str, Any], player: PlayerId, names: Names) -> str:
        """What ``player`` holds that others may not see (cards, a secret bid), in sentences."""
        ...

    def board_text(self, view: Mapping[str, Any], names: Names) -> str:
        """The board in words: who holds what, where."""
        ...

    def place_text(self, view: Mapping[str, Any], place: str, names: Names) -> str | None:
        """One place of the board in words, from ``view`` only: its terrain, who holds it, the pieces
        of every seat there, what it is worth and its neighbours; an empty place is described too.
        ``place`` is what a person typed (a name, any case); None when no place is called that."""
        ...

    def summary_text(self, view: Mapping[str, Any], names: Names) -> str:
        """The end-of-game summary: final scores (with what they are made of) and the winner."""
        ...


@dataclass(frozen=True)
class Words:
    """A game's words, from a view: the functions behind :class:`Game`'s text hooks (usually its
    ``text`` module's), for a game whose hooks need nothing but their arguments."""

    decision: Callable[[Mapping[str, Any], PlayerId, Sequence[Action], Names], Decision]
    describe_event: Callable[[Event, Names], str | None]
    stage: Callable[[Mapping[str, Any]], str]
    status_text: Callable[[Mapping[str, Any], Names], str]
    hand_text: Callable[[Mapping[str, Any], PlayerId, Names], str]
    board_text: Callable[[Mapping[str, Any], Names], str]
    summary_text: Callable[[Mapping[str, Any], Names], str]


class SpokenBy:
    """:class:`Game`'s text hooks, each calling its function in the class's :attr:`WORDS`."""

    WORDS: ClassVar[Words]

    def decision(self, view: Mapping[str, Any], player: PlayerId, legal: Sequence[Action],
                 names: Names) -> Decision:
        return self.WORDS.decision(view, player, legal, names)

    def describe_event(self, event: Event, names: Names) -> str | None:
        return self.WORDS.describe_event(event, names)

    def stage(self, view: Mapping[str, Any]) -> str:
        return self.WORDS.stage(view)

    def status_text(self, view: Mapping[str, Any], names: Names) -> str:
        return self.WORDS.status_text(view, names)

    def hand_text(self, view: Mapping[str, Any], player: PlayerId, names: Names) -> str:
        return self.WORDS.hand_text(view, player, names)

    def board_text(self, view: Mapping[str, Any], names: Names) -> str:
        return self.WORDS.board_text(view, names)

    def summary_text(self, view: Mapping[str, Any], names: Names) -> str:
        return self.WORDS.summary_text(view, names)


class StepContext(Protocol):
    """What a game's rules work on while one action is applied: the new state and the events so far."""

    @property
    def events(self) -> list[Event]: ...


C = TypeVar("C", bound=StepContext)


class BaseGame(Generic[S, C]):
    """The ``apply`` every game shares: who may act, which moves each step allows, then the rules.

    A game declares :attr:`STEPS` (step name -> the action classes that step
    allows) and implements :meth:`step`, :meth:`refusal`, :meth:`begin` and
    :meth:`handle`; :meth:`apply` checks the actor and the step, applies the
    move to a copy, advances ``seq`` and returns the events. The state passed
    in is never changed.
    """

    STEPS: ClassVar[Mapping[str, tuple[type[Action], ...]]] = {}

    def actors(self, state: S) -> frozenset[PlayerId]:
        raise NotImplementedError

    def step(self, state: S) -> str:
        """The name of the step the game is at (a key of :attr:`STEPS`)."""
        raise NotImplementedError

    def refusal(self, state: S, player: PlayerId) -> IllegalAction:
        """Why ``player``, who is not an actor now, may not move (game over, already bid, not your turn)."""
        raise NotImplementedError

    def begin(self, state: S) -> C:
        """A copy of ``state`` wrapped in the context the rules write to."""
        raise NotImplementedError

    def handle(self, ctx: C, action: Action) -> None:
        """Apply ``action`` (already checked against the step) to ``ctx``."""
        raise NotImplementedError

    def finish(self, ctx: C) -> S:
        """The new state once the rules are done (advance ``seq`` here)."""
        raise NotImplementedError

    def hidden_draws(self, state: S) -> tuple[int, ...]:
        """The sizes of the piles a move may draw from unseen (a deck dealt in order needs no die):
        a move that changes one revealed something and cannot be taken back. None by default."""
        return ()

    def private_variants(self, state: S, seat: PlayerId) -> Sequence[S]:
        """See :meth:`Game.private_variants`; none by default (a seat that knows nothing private)."""
        return ()

    def legal_actions(self, state: S, player: PlayerId) -> Sequence[Action]:
        raise NotImplementedError

    def compared(self, state: S, seat: PlayerId) -> tuple[Any, ...]:
        raise NotImplementedError

    def ranking(self, state: S) -> list[PlayerId]:
        """Seats best first by :meth:`compared`; seats tied on it (they share a place) in seat order."""
        return sorted(range(len(self.scores(state))), key=lambda seat: (self.compared(state, seat), seat))

    def places(self, state: S) -> list[list[PlayerId]]:
        """:meth:`ranking` cut into places by :meth:`compared` (see :meth:`Game.places`)."""
        return tied_places(self.ranking(state), lambda seat: self.compared(state, seat))

    def forced(self, state: S, player: PlayerId) -> Action | None:
        """See :meth:`Game.forced`: :func:`only_move` by default."""
        return only_move(self, state, player)

    def up_next(self, state: S) -> PlayerId | None:
        """See :meth:`Game.up_next`: None (not known) by default."""
        return None

    def view(self, state: S, viewer: PlayerId | None) -> Mapping[str, Any]:
        raise NotImplementedError

    def scores(self, state: S) -> list[int]:
        raise NotImplementedError

    def undoable(self, before: S, action: Action, result: Result) -> bool:
        """The generic undo rule: a :func:`plain_move` that drew nothing (:meth:`hidden_draws`) and
        showed nobody what its player alone knew (:func:`shows_hidden`). The swap runs last: it
        applies the move again per variant, so only moves that pass the cheap checks pay for it."""
        return plain_move(self, before, action, result) and \
            self.hidden_draws(before) == self.hidden_draws(result.state) and \
            not shows_hidden(self, before, action, result)

    def join(self, state: S) -> Result:
        raise no_joining()

    def apply(self, state: S, action: Action) -> Result:
        if action.player not in self.actors(state):
            raise self.refusal(state, action.player)
        step = self.step(state)
        allowed = self.STEPS.get(step, ())
        if not isinstance(action, allowed):
            kinds = ", ".join(cls.kind.replace("_", " ") for cls in allowed) or "nothing"
            raise IllegalAction("wrong_step", f"That is not possible now; you may: {kinds}.", step=step)
        ctx = self.begin(state)
        self.handle(ctx, action)
        return Result(self.finish(ctx), tuple(ctx.events))


class HasActors(Protocol):
    def actors(self, state: Any) -> frozenset[PlayerId]: ...


def plain_move(game: HasActors, before: Any, action: Action, result: Result) -> bool:
    """The generic undo rule: ``action`` left its player the only one to act, before and after, moved
    no die or shuffle (the state's ``rng_counter``, see :mod:`engine.rng`) and told nobody anything in
    private. A game adds its draws (:meth:`BaseGame.hidden_draws`) and the hidden-swap rule
    (:func:`shows_hidden`) on top."""
    alone = frozenset({action.player})
    if game.actors(before) != alone or game.actors(result.state) != alone:
        return False
    # every game keeps its randomness in the state (engine.rng); a state without a counter uses none
    if getattr(before, "rng_counter", None) != getattr(result.state, "rng_counter", None):
        return False
    return all(event.audience == PUBLIC for event in result.events)


class Swappable(HasActors, Protocol):
    """What :func:`shows_hidden` needs of a game: its rules, its views and its private variants."""

    def apply(self, state: Any, action: Action) -> Result: ...

    def view(self, state: Any, viewer: PlayerId | None) -> Mapping[str, Any]: ...

    def scores(self, state: Any) -> list[int]: ...

    def private_variants(self, state: Any, seat: PlayerId) -> Sequence[Any]: ...


def watchers(game: Swappable, state: Any, seat: PlayerId) -> list[PlayerId | None]:
    """Who may not see what ``seat`` alone knows: every other seat, then a spectator (None)."""
    others: list[PlayerId | None] = [p for p in range(len(game.scores(state))) if p != seat]
    return [*others, None]


def seen_by(game: Swappable, result: Result,
            viewer: PlayerId | None) -> tuple[list[Event], Mapping[str, Any]]:
    """What ``viewer`` learns from a move: the events it may see, and its view after."""
    return [e for e in result.events if e.visible_to(viewer)], game.view(result.state, viewer)


def tied_places(ranking: Sequence[PlayerId], key: Callable[[PlayerId], Any]) -> list[list[PlayerId]]:
    """``ranking`` cut into places: consecutive seats whose ``key`` (what the game compares, its
    tie-breaks included, the seat not) is equal share a place."""
    out: list[list[PlayerId]] = []
    last: Any = object()
    for seat in ranking:
        mark = key(seat)
        if out and mark == last:
            out[-1].append(seat)
        else:
            out.append([seat])
        last = mark
    return out


class Choosing(Protocol):
    """What :func:`only_move` needs of a game: its legal moves and its private variants."""

    def legal_actions(self, state: Any, player: PlayerId) -> Sequence[Action]: ...

    def private_variants(self, state: Any, seat: PlayerId) -> Sequence[Any]: ...


def only_move(game: Choosing, state: Any, player: PlayerId) -> Action | None:
    """``player``'s one legal move, when playing it at once tells the others nothing their clicking it
    would not. What playing at once shows is only that there was one choice (the move itself tells
    what its events tell, as when clicked); so the seat must have a single move whatever it holds in
    private (one move in each of :meth:`Game.private_variants`, maybe another: its one card, whichever
    it is). Otherwise (a real choice, or a lone move only because of what they hold, as no card they
    could play) None: they are asked."""
    legal = list(game.legal_actions(state, player))
    if len(legal) != 1:
        return None
    if any(len(game.legal_actions(variant, player)) != 1 for variant in game.private_variants(state, player)):
        return None
    return legal[0]


def shows_hidden(game: Swappable, before: Any, action: Action, result: Result) -> bool:
    """Whether ``action`` showed another seat or a spectator something only its player knew.

    The hidden-swap rule: the same move is applied to each of :meth:`Game.private_variants` of
    ``before`` for the mover (states the others cannot tell from ``before``). When it is refused in
    one (the move depended on what the mover alone held: a card played from the hand), or some other
    seat's events or view after it differ from those after the real move (a marker turned up, a bid
    shown), the move told the table something hidden: a reveal.
    """
    variants = game.private_variants(before, action.player)
    if not variants:
        return False
    audience = watchers(game, before, action.player)
    seen = {viewer: seen_by(game, result, viewer) for viewer in audience}
    for variant in variants:
        try:
            twin = game.apply(variant, action)
        except IllegalAction:
            return True
        if any(seen_by(game, twin, viewer) != seen[viewer] for viewer in audience):
            return True
    return False


UNDO = "undo"
"""The ``kind`` of the log entry that takes back its player's newest undoable move (never a game's action)."""


def undo_entry(player: PlayerId) -> dict[str, JSON]:
    """The log entry by which ``player`` takes back their newest move."""
    return {"kind": UNDO, "player": player}


JOIN = "join"
"""The ``kind`` of the log entry seating a new player in a game under way (never a game's action)."""


def join_entry(player: PlayerId) -> dict[str, JSON]:
    """The log entry by which a newcomer takes seat ``player`` (after the last) via :meth:`Game.join`."""
    return {"kind": JOIN, "player": player}


def no_joining() -> IllegalAction:
    """The refusal of a game that takes no new player once it has started."""
    return IllegalAction("no_joining", "This game can't take a new player once it has started.")


def players_at_start(seated: int, log: Iterable[Action | Mapping[str, JSON]]) -> int:
    """How many seats a game was set up with: those seated now less those who joined since (its log's
    join entries). A replay from the seed sets up that many, then replays the joins in their place."""
    return seated - sum(1 for entry in log if isinstance(entry, Mapping) and entry.get("kind") == JOIN)


@dataclass
class _Step:
    """A plain move in :class:`LogReplay`'s chain: the state before it, the move, its mark, what it
    gave, and whether :meth:`Game.undoable` allows taking it back (None until asked)."""

    before: Any
    action: Action
    mark: Any
    result: Result
    undoable: bool | None = None


class LogReplay:
    """Replays an action log that may hold undo and join entries, one entry at a time.

    The log stays append-only: an undo entry voids the newest move still undoable (per
    :meth:`Game.undoable`) and restores the state from before it, which is exactly the state a
    replay without that move reaches (the engine is deterministic). Any move that is not
    undoable (a roll, a draw, a reveal, another player's move) closes the chain behind it, so
    no undo ever reaches past something that became known. A join entry (:func:`join_entry`) seats a
    newcomer through :meth:`Game.join` and closes the chain too: no undo takes a seat away.

    :meth:`Game.undoable` is asked lazily, of the newest move only, when an undo could reach it: a
    move is undoable only if it is a :func:`plain_move` (the cheap check, made at once, closes the
    chain), and only the newest move of a chain can be taken back, so asking about the others would
    change no answer. A replay of a long log thus pays the hidden swap for a few moves, not all.
    """

    def __init__(self, game: Game, state: Any) -> None:
        self.game = game
        self.state = state
        self._undo: list[_Step] = []  # the plain moves since the chain last closed, newest last
        self.voided: Any = None  # the mark of the move the last undo took back

    def copy(self) -> LogReplay:
        """An independent replay at the same point (states never change in place: sharing them is safe)."""
        twin = LogReplay(self.game, self.state)
        twin._undo = list(self._undo)
        return twin

    def undoable(self, player: PlayerId) -> Action | None:
        """The move ``player`` would take back now, or None."""
        if not self._undo or self._undo[-1].action.player != player:
            return None
        step = self._undo[-1]
        if step.undoable is None:
            step.undoable = self.game.undoable(step.before, step.action, step.result)
        if not step.undoable:
            self._undo.clear()  # a final move: nothing before it can be reached any more
            return None
        return step.action

    def apply(self, entry: Mapping[str, JSON], mark: Any = None) -> Result:
        """Apply one log entry (an action's JSON, an undo or a join entry); an undo has no events.

        ``mark`` names the entry for the caller (its seq): after an undo, :attr:`voided` holds the
        mark of the move taken back (a public log drops that move's lines)."""
        if isinstance(entry, Mapping) and entry.get("kind") == UNDO:
            player = entry.get("player")
            if not isinstance(player, int) or self.undoable(player) is None:
                raise IllegalAction("nothing_to_undo", "There is no move of yours to take back: "
                                    "something new became known since, or another player moved.")
            step = self._undo.pop()
            self.state, self.voided = step.before, step.mark
            return Result(self.state, ())
        if isinstance(entry, Mapping) and entry.get("kind") == JOIN:
            return self.join(entry.get("player"))
        return self.play(self.game.codec.decode(entry), mark)

    def join(self, player: object) -> Result:
        """A newcomer takes seat ``player``, which must be the seat after the last."""
        seats = len(self.game.scores(self.state))
        if player != seats:
            raise IllegalAction("bad_join", f"A newcomer takes the seat after the last ({seats}), not "
                                f"{_shown(player)}.")
        result = self.game.join(self.state)
        self._undo.clear()
        self.state = result.state
        return result

    def play(self, action: Action, mark: Any = None) -> Result:
        before = self.state
        result = self.game.apply(before, action)
        if plain_move(self.game, before, action, result):
            self._undo.append(_Step(before, action, mark, result))
        else:
            self._undo.clear()
        self.state = result.state
        return result


def decide(game: Game, state: Any, player: PlayerId, names: Names = ()) -> Decision | None:
    """``player``'s current decision, or None when they have nothing to decide now."""
    if player not in game.actors(state):
        return None
    legal = game.legal_actions(state, player)
    if not legal:
        return None
    return game.decision(game.view(state, player), player, legal, names)


def replay(
    game: Game, players: int, options: Mapping[str, JSON], seed: int,
    log: Sequence[Action | Mapping[str, JSON]],
) -> Any:
    """Rebuild a state from its seed and action log (actions, or their JSON with undo and join entries);
    ``players`` is the number of seats at the start (see :func:`players_at_start`)."""
    run = LogReplay(game, game.setup(players, options, seed))
    for entry in log:
        if isinstance(entry, Action):
            run.play(entry)
        else:
            run.apply(entry)
    return run.state
