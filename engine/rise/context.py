"""The working context of one ``apply``: the new state, the data and the events so far."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.core import Event
from engine.rise.data import RiseData
from engine.rise.state import RiseState


@dataclass
class Ctx:
    state: RiseState
    data: RiseData
    events: list[Event] = field(default_factory=list)

    def emit(self, kind: str, **data: Any) -> None:
        self.events.append(Event(kind, data))
