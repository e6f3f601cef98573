"""Undo within a turn: a player takes back their newest move while nothing new has become known."""

from __future__ import annotations

from bot.models import ActionRow, NoticeKind, Outcome
from bot.service.base import ServiceBase
from bot.service.errors import ServiceError
from bot.service.offload import cpu
from bot.service.records import read_state, taken_back
from engine.core import undo_entry

NOTHING_TO_UNDO = ("There is no move of yours to take back: something new became known since, or another "
                   "player moved.")


class UndoOps(ServiceBase):
    """The undo half of :class:`bot.service.GameService`.

    The log stays append-only: an undo is a log entry of its own (``{"kind": "undo"}``) that voids the
    newest undoable move (the engine's rule, :meth:`engine.core.Game.undoable`), so the seq moves on
    and every choice built before the undo is stale. The state comes back from the move's undo point,
    stored with it when it was played (``undo_points``: the state from before each move that may still
    be taken back), so an undo costs the same at move 10 and at move 5,000, replays nothing, rolls no
    die again, draws no card again, and works for a game started under older rules.
    """

    async def undo(self, game_id: str, user_id: int, seq_seen: int) -> Outcome:
        """Take back the caller's newest move; the others see one line that it was taken back.

        Raises:
            ServiceError: ``stale`` when the board changed since ``seq_seen``; ``nothing_to_undo``
                when a roll, a draw, a reveal or another player's move came since.
        """
        async with self._locked(game_id):
            lg = await self._load_seen(game_id, seq_seen)
            self._require_active(lg)
            seat = lg.seat_of_user(user_id)
            if seat is None or seat.seat_order is None or seat.is_ai:
                raise ServiceError("not_seated", "You have no seat in this game.")
            if seq_seen != lg.row.seq:
                raise ServiceError("stale", "The board has changed since you looked; please look again.",
                                   seen=seq_seen, current=lg.row.seq)
            player = seat.seat_order
            start = taken_back(lg.undo, player)
            if start is None:
                raise ServiceError("nothing_to_undo", NOTHING_TO_UNDO)
            moves = lg.undo[start:]  # their move, and the only moves played for them after it
            before = await self.store.undo_state(game_id, moves[0].seq)
            if before is None:  # another process took it back or moved on: this copy is stale
                self.forget(game_id)
                raise ServiceError("stale", "The board has changed since you looked; please look again.")
            unit = self._unit(lg)
            unit.state, unit.state_changed = await cpu(read_state, lg.game, before), True
            for move in reversed(moves):  # one undo entry a move, newest first, as a replay takes them back
                unit.seq += 1
                unit.actions.append(ActionRow(game_id, unit.seq, player, undo_entry(player), "human",
                                              unit.now, user_id, ()))
                unit.undo_drop.append(move.seq)
                unit.voided += [(move.seq, unit.seq), (unit.seq, unit.seq)]  # an undo entry is no move either
            unit.undo = list(lg.undo[:start])
            # only that a move was taken back: never which (a private choice stays private)
            unit.notice(NoticeKind.move_undone, seat=player, name=unit.names()[player])
            outcome = await self._commit_outcome(lg, unit)
        return await self._publish(outcome)

    async def can_undo(self, game_id: str, user_id: int) -> bool:
        """Whether :meth:`undo` would take back a move of ``user_id`` now (the fronts offer it then)."""
        async with self._locked(game_id):
            return self._can_undo(await self._load(game_id), user_id)
