"""The game API shared by every game in Annals.

A game is a module-level object implementing :class:`Game`. States are plain
data that round-trip through JSON exactly; actions are frozen dataclasses with
a ``kind`` and a stable JSON codec; every random number comes from the state's
seed and counter (see :mod:`engine.rng`), so replaying the action log from the
seed rebuilds the state bit for bit.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol, TypeVar

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
        """Build an action from its JSON object; unknown kinds or fields raise IllegalAction."""
        kind = data.get("kind")
        cls = self._classes.get(kind) if isinstance(kind, str) else None
        if cls is None:
            raise IllegalAction("unknown_action", f"There is no action called {kind!r}.", kind=kind)
        names = {f.name: f for f in dataclasses.fields(cls)}
        extra = set(data) - set(names) - {"kind"}
        if extra:
            raise IllegalAction(
                "bad_action", f"Unexpected fields for {kind}: {', '.join(sorted(extra))}."
            )
        kwargs: dict[str, Any] = {}
        for name, f in names.items():
            if name in data:
                value = data[name]
                kwargs[name] = tuple(value) if isinstance(value, list) else value
            elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                raise IllegalAction("bad_action", f"The {kind} action needs a {name!r} value.")
        try:
            return cls(**kwargs)
        except TypeError as exc:  # pragma: no cover - dataclass signature mismatch
            raise IllegalAction("bad_action", f"Malformed {kind} action: {exc}") from exc


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


class Game(Protocol):
    """The protocol every game module object implements."""

    id: str
    title: str
    min_players: int
    max_players: int
    codec: ActionCodec

    def default_options(self) -> dict[str, JSON]: ...

    def check_data(self) -> list[str]:
        """Every problem in the game's data files (empty when all is well)."""
        ...

    def describe_event(self, event: Event) -> str | None:
        """One plain sentence telling players what ``event`` means, or None for bookkeeping."""
        ...

    def action_label(self, state: Any, action: Action) -> str:
        """A short label for ``action`` on a button or in a select (at most 100 characters)."""
        ...

    def setup(self, players: int, options: Mapping[str, JSON], seed: int) -> Any: ...

    def actors(self, state: Any) -> frozenset[PlayerId]: ...

    def legal_actions(self, state: Any, player: PlayerId) -> Sequence[Action]: ...

    def apply(self, state: Any, action: Action) -> Result: ...

    def view(self, state: Any, viewer: PlayerId | None) -> dict[str, JSON]: ...

    def is_over(self, state: Any) -> bool: ...

    def scores(self, state: Any) -> list[int]: ...

    def ranking(self, state: Any) -> list[PlayerId]: ...

    def to_json(self, state: Any) -> dict[str, JSON]: ...

    def dumps(self, state: Any) -> str:
        """The state as compact JSON text, equal to ``json.dumps(to_json(state))`` but
        without building a copy first (the service writes one per move)."""
        ...

    def from_json(self, data: Mapping[str, JSON]) -> Any: ...


def checked_options(game: Game, players: int, options: Mapping[str, JSON]) -> dict[str, JSON]:
    """The options a game starts with: its defaults overridden by ``options`` (switched on or off).

    Raises:
        IllegalAction: ``player_count`` outside the game's limits, ``unknown_option``.
    """
    if not game.min_players <= players <= game.max_players:
        raise IllegalAction("player_count", f"{game.title} is for {game.min_players} to {game.max_players} "
                            f"players, not {players}.", players=players)
    defaults = game.default_options()
    unknown = sorted(set(options) - set(defaults))
    if unknown:
        raise IllegalAction("unknown_option", f"Unknown option(s): {', '.join(unknown)}.", options=unknown)
    return {**defaults, **{k: bool(v) for k, v in options.items()}}


def replay(
    game: Game, players: int, options: Mapping[str, JSON], seed: int, log: Sequence[Action]
) -> Any:
    """Rebuild a state from its seed and action log."""
    state = game.setup(players, options, seed)
    for action in log:
        state = game.apply(state, action).state
    return state
