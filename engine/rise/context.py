"""The working context of one ``apply``: the new state, the data and the events so far."""

from __future__ import annotations

from dataclasses import dataclass

from engine.core import Context
from engine.rise.data import RiseData
from engine.rise.state import RiseState


@dataclass
class Ctx(Context[RiseState]):
    """The generic context with the game's data beside the state (every Rise event is public)."""

    data: RiseData
