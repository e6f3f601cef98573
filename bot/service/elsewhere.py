"""What the service does with a change another bot process made to a game of a shared database.

Its cached copy goes, and whoever shows something of the game (the scheduler's timers, a transport's
outbox workers) is told through :meth:`ElsewhereOps.on_changed_elsewhere`;
:class:`bot.service.following.Following` hears the changes from start-up to shutdown.
"""

from __future__ import annotations

import logging

from bot.service.base import ServiceBase
from bot.service.following import Changed, Following

log = logging.getLogger("bot.service")


class ElsewhereOps(ServiceBase):
    """The service's side: start and stop following, and what a change heard does."""

    def on_changed_elsewhere(self, listener: Changed) -> None:
        """Call ``listener(game_id)`` after another process changed a game and its cached copy was
        dropped here (None: any game may have changed). The scheduler re-arms the game's timers, a
        transport looks for notices to deliver. Exceptions are logged, never raised."""
        self._elsewhere.append(listener)

    def changed_elsewhere(self, game_id: str | None) -> None:
        """Another process changed ``game_id`` (None: maybe any game): drop the copy, tell the listeners."""
        self.forget(game_id)
        for listener in self._elsewhere:
            try:
                listener(game_id)
            except Exception:
                log.exception("listener failed for a change of game %s made elsewhere", game_id)

    async def follow_others(self) -> bool:
        """Hear the changes other processes make, if the store is shared, until :meth:`stop_following`.

        Returns:
            True when the store is shared (following, or trying to reach the server), else False.
        """
        if self._following is None:
            self._following = Following(self.store, self.changed_elsewhere)
        return await self._following.start()

    async def stop_following(self) -> None:
        """Stop hearing other processes (before the store closes; idempotent)."""
        following, self._following = self._following, None
        if following is not None:
            await following.stop()
