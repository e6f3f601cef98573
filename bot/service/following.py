"""Keeping open the connection that hears the changes other bot processes make to a shared database.

With several processes on one database (PostgreSQL), each keeps parsed games in memory; a move made
through another process makes that copy stale. The store tells of such changes on a connection of
its own (:meth:`bot.storage.GameStore.listen`); :class:`Following` keeps that connection open for as
long as the service runs, opening it again with a growing pause when it drops.
:mod:`bot.service.elsewhere` says what a change heard does to the service. A store one process
writes (SQLite) has nothing to hear, and none of this runs.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

from bot.storage import GameStore, Listening
from bot.store import StoreError

log = logging.getLogger("bot.service")

#: ``changed(game_id)``; None means any game may have changed (changes made while deaf were missed).
Changed = Callable[[str | None], object]
FIRST_PAUSE = 0.5  # seconds before the first try to reconnect
LONGEST_PAUSE = 30.0  # the pause doubles after each failed try, up to this


class Following:
    """Keeps a store's listening connection open until :meth:`stop`.

    Args:
        store: the shared store.
        changed: called with each game id another process changed, and with None once hearing again
            after the connection dropped (what changed meanwhile was not heard).
        first_pause, longest_pause: the back-off between tries to reconnect, in seconds.
        sleep: how to pause (tests pass one that does not wait for real time).
    """

    def __init__(self, store: GameStore, changed: Changed, *, first_pause: float = FIRST_PAUSE,
                 longest_pause: float = LONGEST_PAUSE,
                 sleep: Callable[[float], Awaitable[object]] = asyncio.sleep) -> None:
        self.store = store
        self.changed = changed
        self.first_pause = first_pause
        self.longest_pause = longest_pause
        self._sleep = sleep
        self._listening: Listening | None = None
        self._task: asyncio.Task[None] | None = None

    @property
    def hearing(self) -> bool:
        """True while the listening connection is open."""
        return self._listening is not None

    async def start(self) -> bool:
        """Open the connection and keep it open in a task of its own.

        Returns:
            False when the store is not shared (nothing to hear, no task); True otherwise, even
            when the server cannot be reached now (the task keeps trying, as after a drop).
        """
        if self._task is not None:
            return True
        try:
            self._listening = await self.store.listen(self.changed)
        except StoreError as exc:
            log.warning("cannot hear the changes of other processes yet (%s); trying again", exc)
            self._task = asyncio.create_task(self._keep(outage=True), name="annals-following")
            return True
        if self._listening is None:
            return False
        self._task = asyncio.create_task(self._keep(outage=False), name="annals-following")
        return True

    async def stop(self) -> None:
        """End the task and close the connection (idempotent)."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        listening, self._listening = self._listening, None
        if listening is not None:
            await listening.close()

    async def _keep(self, *, outage: bool) -> None:
        """Wait for the connection to drop, then reopen it, pausing longer after each failed try;
        an outage is logged when it starts and when it ends, not at every try."""
        while True:
            if not outage:
                assert self._listening is not None
                dropped = await self._listening.lost()
                self._listening = None
                if not dropped:  # closed on purpose: the store is closing
                    return
                log.warning("lost the connection that hears other processes' changes; reconnecting")
            pause, tries = self.first_pause, 0
            while self._listening is None:
                await self._sleep(pause)
                tries += 1
                try:
                    self._listening = await self.store.listen(self.changed)
                except StoreError as exc:
                    log.debug("reconnect try %d failed: %s", tries, exc)
                    pause = min(pause * 2, self.longest_pause)
            log.warning("hearing other processes' changes again (reconnected at try %d)", tries)
            outage = False
            self.changed(None)  # whatever changed while deaf was missed
