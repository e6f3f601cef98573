"""Undo within a turn: a player takes back their newest move while nothing new has become known."""

from __future__ import annotations

import asyncio

from bot.models import ActionRow, NoticeKind, Outcome
from bot.service.base import ServiceBase
from bot.service.errors import ServiceError, refused
from bot.service.records import Loaded
from engine.core import IllegalAction, LogReplay, players_at_start, undo_entry


class UndoOps(ServiceBase):
    """The undo half of :class:`bot.service.GameService`.

    The log stays append-only: an undo is a log entry of its own (``{"kind": "undo"}``) that voids the
    newest undoable move (the engine's rule, :meth:`engine.core.Game.undoable`), so the seq moves on
    and every choice built before the undo is stale. The state is rebuilt by replaying the log
    from the seed, never by applying the move's inverse, so no die is rolled again and no card
    drawn again.
    """

    async def undo(self, game_id: str, user_id: int, seq_seen: int) -> Outcome:
        """Take back the caller's newest move; the others see one line that it was taken back.

        Raises:
            ServiceError: ``stale`` when the board changed since ``seq_seen``; ``nothing_to_undo``
                when a roll, a draw, a reveal or another player's move came since.
        """
        async with self._locked(game_id):
            lg = await self._load(game_id)
            self._require_active(lg)
            seat = lg.seat_of_user(user_id)
            if seat is None or seat.seat_order is None or seat.is_ai:
                raise ServiceError("not_seated", "You have no seat in this game.")
            if seq_seen != lg.row.seq:
                raise ServiceError("stale", "The board has changed since you looked; please look again.",
                                   seen=seq_seen, current=lg.row.seq)
            player = seat.seat_order
            run = await self._undo_run(lg)
            try:
                run.apply(undo_entry(player))
            except IllegalAction as exc:
                raise refused(exc) from exc
            unit = self._unit(lg)
            unit.seq += 1
            unit.state, unit.state_changed = run.state, True
            unit.actions.append(
                ActionRow(game_id, unit.seq, player, undo_entry(player), "human", unit.now, user_id))
            # only that a move was taken back: never which (a private choice stays private)
            unit.notice(NoticeKind.move_undone, seat=player, name=unit.names()[player])
            outcome = await self._commit_outcome(lg, unit)
        return await self._publish(outcome)

    async def can_undo(self, game_id: str, user_id: int) -> bool:
        """Whether :meth:`undo` would take back a move of ``user_id`` now (the fronts offer it then)."""
        async with self._locked(game_id):
            lg = await self._load(game_id)
            seat = lg.seat_of_user(user_id)
            if lg.row.status != "active" or seat is None or seat.seat_order is None or seat.is_ai:
                return False
            return (await self._undo_run(lg)).undoable(seat.seat_order) is not None

    async def _undo_run(self, lg: Loaded) -> LogReplay:
        """The game's whole log replayed from the seed, with the moves that may still be taken back.

        A replay from the seed (tens of milliseconds for a whole game) rather than from a
        checkpoint: a chain of undoable moves may reach back past any checkpoint.
        """
        log = await self.store.actions(lg.row.game_id)
        players = players_at_start(sum(1 for s in lg.seats.values() if s.seat_order is not None),
                                   [entry.action for entry in log])
        game = lg.game

        def rebuild() -> LogReplay:  # in a worker thread: the engine is pure
            run = LogReplay(game, game.setup(players, lg.row.options, lg.row.seed))
            for entry in log:
                run.apply(entry.action)
            return run

        run = await asyncio.to_thread(rebuild)
        if game.dumps(run.state) != game.dumps(lg.state):
            raise ServiceError("corrupt", "The game's log does not replay to its board; nothing changed.")
        return run
