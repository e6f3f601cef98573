"""The one context a game's rules work on while a move is applied: the new state and its events.

Every game's handlers take a :class:`Context` (or a game's subclass of it, which adds what its rules
read beside the state: the rules data, helpers over the state). The context owns the events of the
move and their audiences, so no game writes its own ``emit``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from engine.contract.basics import PUBLIC, PlayerId
from engine.contract.values import Event

S = TypeVar("S")

Audience = str | tuple[PlayerId, ...]
"""Who may see an event: :data:`~engine.contract.basics.PUBLIC`, or the seats told it alone."""


@dataclass(eq=False)  # a working object: two contexts are the same only if they are one
class Context(Generic[S]):
    """One move being applied: the state as it becomes, and the events so far.

    A game's :meth:`~engine.contract.template.BaseGame.begin` builds it around a copy of the state
    (so its handlers may change ``state`` in place, or replace it when the state is frozen) and
    :meth:`~engine.contract.template.BaseGame.finish` reads the new state back. A game subclass adds
    fields after ``state`` (``events`` is keyword-only, so ``Ctx(state, rules)`` still reads in order).

    Attributes:
        state: the state the move makes.
        events: what the move told, in order, each with its audience.
    """

    state: S
    events: list[Event] = field(default_factory=list, kw_only=True)

    def emit(self, type_: str, audience: Audience = PUBLIC, **data: Any) -> None:
        """Record an event of ``type_`` told to ``audience`` (everyone by default; a tuple of seats
        for what only they may know, such as a card drawn or a secret bid)."""
        self.events.append(Event(type_, data, audience))
