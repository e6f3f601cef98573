"""The moves of Trade and progress, Destiny, Civilise and the end of turn (half B of part 2).

A placeholder so the codec already combines both halves: add each action class here and list it
in :data:`ACTIONS`; :data:`engine.seven_ages.actions.CODEC` decodes every kind of both modules
(:class:`engine.seven_ages.actions.Done`, ``Pass`` and ``TurnMarker`` are shared by every step).
"""

from __future__ import annotations

from engine.core import Action

ACTIONS: tuple[type[Action], ...] = ()
