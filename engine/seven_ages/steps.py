"""The step machine of 7 Ages: which step the game is at, who acts, and how it moves on.

A game runs these phases (``SevenState.phase``)::

    redeem -> bid -> colours -> trim -> [ draft -> markers -> start -> production -> trade
        -> manoeuvre -> destiny -> civilise -> discard -> end_turn ] (next turn) ... -> over

Each phase is a :class:`Step` registered here under its name by the module that owns its rules:

- ``redeem``, ``bid``, ``colours``, ``trim``: :mod:`~engine.seven_ages.setup` (option 3's redraw,
  the first-player bid, dedicated colours, option 4's discard down to 6);
- ``draft``, ``markers``: :mod:`~engine.seven_ages.markers` (option 5's spare markers; every player
  places markers at once);
- the seven actions are :class:`engine.seven_ages.markers.MarkerStep` s, the generic turning of
  action markers (First player, then clockwise; or every player at once for Production and
  Destiny), each around the :class:`engine.seven_ages.markers.GoRules` of one action:
  ``start`` (:mod:`~engine.seven_ages.start`), ``production`` (:mod:`~engine.seven_ages.production`),
  ``discard`` (:mod:`~engine.seven_ages.discard`), ``trade`` (:mod:`~engine.seven_ages.trade`),
  ``destiny`` (:mod:`~engine.seven_ages.destiny`), ``civilise`` (:mod:`~engine.seven_ages.civilise`);
- ``end_turn``: :mod:`~engine.seven_ages.endturn` (free progress, glory, ...); then :func:`close_turn`
  here ends the game or starts the next turn.

``manoeuvre`` is :mod:`~engine.seven_ages.manoeuvre` (movement and disorder removal; the conflicts a
go starts are fought in :mod:`~engine.seven_ages.battle`). A phase nobody registered would be passed
straight on: it is not in the game yet, which is no rule of ours.
To plug a module in, add it to :data:`STEP_MODULES` and call :func:`register` at its import.

Every move goes through the handler its step files its class under (:mod:`engine.seven_ages.flow` gives
these steps to the engine's :class:`engine.core.StepGame`), then :func:`settle` moves on through every
step that is done (entering each with :meth:`Step.enter`) until one has actors.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from engine.core import PUBLIC, Action, Audience, Context, Handler, Handlers, PlayerId, tied_places
from engine.seven_ages import fog, modifiers
from engine.seven_ages.data import load_tables
from engine.seven_ages.state import (
    ACTIONS,
    DRAFT,
    END_TURN,
    FINAL_BONUS,
    OVER,
    PAST_THE_END,
    PHASES,
    Marker,
    SevenState,
    marker_sets,
)

STEP_MODULES: tuple[str, ...] = (
    "engine.seven_ages.setup",
    "engine.seven_ages.markers",
    "engine.seven_ages.start",
    "engine.seven_ages.production",
    "engine.seven_ages.discard",
    "engine.seven_ages.endturn",
    "engine.seven_ages.trade",
    "engine.seven_ages.destiny",
    "engine.seven_ages.civilise",
    "engine.seven_ages.manoeuvre",
    "engine.seven_ages.own_events",  # plugs the own-go events into the action steps above
    "engine.seven_ages.armed",  # plugs the standing orders fired in another empire's go
)
"""The modules that register steps, each at its import."""


@dataclass(eq=False)  # a working object, as the generic context
class Ctx(Context[SevenState]):
    """The generic context of one move: the state as it becomes (states are frozen: rules replace
    ``ctx.state``) and the events so far. It carries the state's dice (:class:`engine.rng.HasRng`), and
    the state as the move found it (``start``: option 16 compares control before and after a move)."""

    start: SevenState = field(init=False)

    def __post_init__(self) -> None:
        self.start = self.state

    @property
    def seed(self) -> int:
        return self.state.seed

    @seed.setter
    def seed(self, value: int) -> None:
        self.state = replace(self.state, seed=value)

    @property
    def rng_counter(self) -> int:
        return self.state.rng_counter

    @rng_counter.setter
    def rng_counter(self, value: int) -> None:
        self.state = replace(self.state, rng_counter=value)

    def emit(self, type_: str, audience: Audience = PUBLIC, **data: Any) -> None:
        """Record an event; a public one names no unit the fog of war hides (:func:`fog.veil`)."""
        super().emit(type_, audience, **fog.veil(type_, data, audience))


class Step(Protocol):
    """The rules of one phase: who acts, what they may do, and the rules of each move by its class (the
    engine's :class:`engine.core.Step` is built from it by :func:`contract_steps`)."""

    @property
    def name(self) -> str:
        """The phase it runs (a key of :data:`engine.seven_ages.state.PHASES`)."""
        ...

    @property
    def handlers(self) -> Handlers[Ctx]:
        """The rules of each move this step takes, by action class (any other move is refused before the
        rules see it); a handler raises IllegalAction with a sentence for a move the rules refuse."""
        ...

    def enter(self, ctx: Ctx) -> None:
        """Set the phase up as it begins (its queue of seats, automatic effects)."""
        ...

    def actors(self, state: SevenState) -> frozenset[PlayerId]: ...

    def legal(self, state: SevenState, seat: PlayerId) -> list[Action]: ...

    def done(self, state: SevenState) -> bool: ...

    def timeout(self, state: SevenState, seat: PlayerId) -> Action:
        """The most passive legal move of ``seat``."""
        ...


_STEPS: dict[str, Step] = {}
_AFTER: list[Callable[[Ctx], None]] = []


def after_move(rule: Callable[[Ctx], None]) -> Callable[[Ctx], None]:
    """Register a rule that holds at all times, checked after every move (an empire without units is
    discarded at once, L1012)."""
    _AFTER.append(rule)
    return rule


def register(step: Step) -> Step:
    if step.name not in PHASES or step.name == OVER:
        raise ValueError(f"{step.name!r} is not a phase of the game")
    if step.name in _STEPS:
        raise ValueError(f"the step {step.name!r} is registered twice")
    _STEPS[step.name] = step
    return step


def load() -> dict[str, Step]:
    """Every registered step by phase (importing :data:`STEP_MODULES`)."""
    for module in STEP_MODULES:
        importlib.import_module(module)
    return dict(_STEPS)


def step_of(state: SevenState) -> Step | None:
    return _STEPS.get(state.phase)


def actors(state: SevenState) -> frozenset[PlayerId]:
    """Who may move: the step's actors, and any newcomer still to choose their colours (L337)."""
    step = step_of(state)
    return (step.actors(state) if step is not None else frozenset()) | frozenset(state.choosing_colours())


def then_settle(rules: Handler[Ctx]) -> Handler[Ctx]:
    """``rules`` (one move's), then the rules that hold at all times (:func:`after_move`), then moving on
    as far as the game goes without a move (:func:`settle`)."""
    def move(ctx: Ctx, action: Action) -> None:
        rules(ctx, action)
        for rule in _AFTER:
            rule(ctx)
        settle(ctx)
    return move


def settle(ctx: Ctx) -> None:
    """Leave every finished phase for the next (entering it) until a phase waits for a move."""
    while ctx.state.phase != OVER:
        step = step_of(ctx.state)
        if step is not None and not step.done(ctx.state):
            return
        enter(ctx, _next_phase(ctx.state.phase))


def enter(ctx: Ctx, phase: str) -> None:
    """Begin ``phase`` (a new turn begins with the draft of option 5, played or not)."""
    if phase == DRAFT and not close_turn(ctx):
        return
    ctx.state = replace(ctx.state, phase=phase, queue=(), goes=(), pending=())
    if phase in ACTIONS:
        ctx.emit("action_begins", action=phase)
    step = step_of(ctx.state)
    if step is not None:
        step.enter(ctx)


def _next_phase(phase: str) -> str:
    if phase == END_TURN:
        return DRAFT
    return PHASES[PHASES.index(phase) + 1]


def close_turn(ctx: Ctx) -> bool:
    """Between turns: end the game if it is over (then False), or begin the next turn (True).

    The game ends after the turn an empire went beyond level 49 (its player gains 7 glory, L313),
    or when the turn limit, the end age or the glory target chosen in the lobby is reached (L315).
    """
    s = ctx.state
    if s.turn > 0:
        reason = end_reason(s)
        if reason:
            finish(ctx, reason)
            return False
        ctx.state = replace(s, first=(s.first + 1) % s.players)  # the turn marker passes left (L1148)
    s = ctx.state
    people = tuple(replace(p, placed=False, drafted=()) for p in s.people)
    if any(p.joined for p in people):
        # a newcomer changed the number of players: from this turn on all own the sets it gives (two
        # each for two players with option 5, L1192, else one); never mid-turn, with markers out
        own = marker_sets(s.options, s.players)
        people = tuple(replace(p, marker_set=own) for p in people)
    ctx.state = replace(s, turn=s.turn + 1, markers=(), notes=(), spare=(), people=people)
    ctx.emit("turn_begins", turn=ctx.state.turn, first=ctx.state.first)
    return True


def end_reason(state: SevenState) -> str:
    """Why the game ends at the end of this turn ("" while it goes on)."""
    opts = state.options
    if any(e.progress >= PAST_THE_END for e in state.empires):
        return "level"
    limit = int(opts.get("turn_limit", 0))
    if limit and state.turn >= limit:
        return "turns"
    end_age = int(opts.get("end_age", 7))
    if end_age < 7 and state.empires and load_tables().age_of(state.most_advanced()) > end_age:
        return "age"
    target = int(opts.get("glory_target", 0))
    if target and any(p.glory >= target for p in state.people):
        return "glory"
    return ""


def finish(ctx: Ctx, reason: str, ender: int = 0) -> None:
    """The game is over: the bonus of every empire past level 49 (L313), then the final scores.

    Option 16: an empire that ends the game (past level 49, or ``ender``, which played the Internet) with
    Moon landing's power gains 7 glory besides (L1772).
    """
    s = ctx.state
    for e in sorted(s.empires, key=lambda e: e.passed):
        if e.progress >= PAST_THE_END:
            s = s.with_player(s.people[e.owner].gain("illustrious", FINAL_BONUS))
            ctx.emit("illustrious", seat=e.owner, empire=e.card, glory=FINAL_BONUS)
    for e in s.empires:
        moon = modifiers.ending_glory(s, e) if e.progress >= PAST_THE_END or e.card == ender else 0
        if moon:
            s = s.with_player(s.people[e.owner].gain(modifiers.MOON, moon))
            ctx.emit("moon_landing_end", seat=e.owner, empire=e.card, glory=moon)
    ctx.state = replace(s, phase=OVER, queue=(), goes=(), pending=(),
                        final=tuple(p.glory for p in s.people))
    ctx.emit("game_over", reason=reason, scores=list(ctx.state.final or ()))


def ranking(state: SevenState) -> list[PlayerId]:
    """Most glory first; ties: the most advanced empire, or the first past level 49 (L311); a tie that
    survives them is won by both (:func:`places`), listed in seat order."""
    return sorted(range(state.players), key=lambda seat: (compared(state, seat), seat))


def places(state: SevenState) -> list[list[PlayerId]]:
    """:func:`ranking` by places: "If still equal, they both win" (L311)."""
    return tied_places(ranking(state), lambda seat: compared(state, seat))


def compared(state: SevenState, seat: int) -> tuple[int, int, int]:
    """What the ranking compares of ``seat``, best lowest."""
    mine = state.empires_of(seat)
    first_past = min((e.passed for e in mine if e.passed), default=10**6)
    best = max((e.progress for e in mine), default=0)
    return (-state.people[seat].glory, first_past, -best)


def face_down(markers: Sequence[Marker], seat: PlayerId) -> list[int]:
    """The indices of ``seat``'s markers still face down."""
    return [i for i, m in enumerate(markers) if m.owner == seat and m.face_down]


__all__ = ["Ctx", "Step", "actors", "load", "register", "settle", "then_settle"]
