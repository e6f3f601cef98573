"""Actions and their JSON: a move is a frozen dataclass with a ``kind``, read back strictly."""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

from engine.contract.basics import JSON, PlayerId
from engine.contract.errors import IllegalAction


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
            raise IllegalAction("unknown_action", f"There is no action called {shown_value(kind)}.",
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
                                        f"{_type_words(hints[name])}, not {shown_value(data[name])}.")
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


def shown_value(value: JSON) -> str:
    """A value as a player may be shown it: JSON-like, and short."""
    text = {True: "true", False: "false"}[value] if isinstance(value, bool) else \
        "null" if value is None else repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
