"""The game API shared by every game in Annals.

A game is a module-level object implementing :class:`Game`. States are plain
data that round-trip through JSON exactly; actions are frozen dataclasses with
a ``kind`` and a stable JSON codec; every random number comes from the state's
seed and counter (see :mod:`engine.rng`), so replaying the action log from the
seed rebuilds the state bit for bit.

The contract lives in :mod:`engine.contract`, a module per concern (the basic words, the errors, the
action codec, the values exchanged, the :class:`Game` protocol, what a move shows, the log and its
replay, the :class:`BaseGame` template, the step template :class:`StepGame` and the :class:`Context` its
handlers work on); this module gathers it under the one name every game and the platform import from.
"""

from __future__ import annotations

from engine.contract.basics import (
    JSON,
    PUBLIC,
    PlayerId,
)
from engine.contract.codec import (
    Action,
    ActionCodec,
    shown_value,
)
from engine.contract.context import (
    Audience,
    Context,
)
from engine.contract.errors import (
    DataError,
    IllegalAction,
)
from engine.contract.hidden import (
    Choosing,
    HasActors,
    Swappable,
    only_move,
    plain_move,
    seen_by,
    shows_hidden,
    tied_places,
    watchers,
)
from engine.contract.protocol import (
    Game,
)
from engine.contract.replay import (
    JOIN,
    UNDO,
    LogReplay,
    decide,
    join_entry,
    no_joining,
    players_at_start,
    replay,
    undo_entry,
)
from engine.contract.steps import (
    Handler,
    Handlers,
    Step,
    StepGame,
    first_move,
)
from engine.contract.template import (
    BaseGame,
    SpokenBy,
    Words,
)
from engine.contract.values import (
    Choice,
    Decision,
    Ending,
    Event,
    Names,
    Outcome,
    Result,
)

__all__ = [
    "JOIN",
    "JSON",
    "PUBLIC",
    "UNDO",
    "Action",
    "ActionCodec",
    "Audience",
    "BaseGame",
    "Choice",
    "Choosing",
    "Context",
    "DataError",
    "Decision",
    "Ending",
    "Event",
    "Game",
    "Handler",
    "Handlers",
    "HasActors",
    "IllegalAction",
    "LogReplay",
    "Names",
    "Outcome",
    "PlayerId",
    "Result",
    "SpokenBy",
    "Step",
    "StepGame",
    "Swappable",
    "Words",
    "decide",
    "first_move",
    "join_entry",
    "no_joining",
    "only_move",
    "plain_move",
    "players_at_start",
    "replay",
    "seen_by",
    "shown_value",
    "shows_hidden",
    "tied_places",
    "undo_entry",
    "watchers",
]
