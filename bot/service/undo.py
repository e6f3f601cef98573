"""Undo within a turn: a player takes back their newest move while nothing new has become known."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.models import PUBLIC, ActionRow, NoticeKind, Outcome, UndoPoint
from bot.service.base import ServiceBase
from bot.service.errors import ServiceError
from bot.service.offload import cpu, off_loop
from bot.service.records import UndoStep, Unit, read_state, taken_back
from engine.core import IllegalAction, undo_entry

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

    Quiet moves (:meth:`engine.core.Game.quiet`) tell nobody else anything, so they stand in nobody's
    way: an undo reaching past other seats' quiet moves plays them again on the state it restores, as
    :class:`engine.core.LogReplay` does (one the restored board refuses is dropped). Taking back a quiet
    move is quiet itself: the counter the others see does not move, and only its player is told.
    """

    async def undo(self, game_id: str, user_id: int, seq_seen: int) -> Outcome:
        """Take back the caller's newest move; the others see one line that it was taken back (none for a
        quiet move).

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
            if seq_seen != lg.row.public_seq:
                raise ServiceError("stale", "The board has changed since you looked; please look again.",
                                   seen=seq_seen, current=lg.row.public_seq)
            player = seat.seat_order
            start = taken_back(lg.undo, player)
            if start is None:
                raise ServiceError("nothing_to_undo", NOTHING_TO_UNDO)
            # their move and the only moves played for them after it; the others' are quiet moves
            moves = [step for step in lg.undo[start:] if step.player == player]
            others = [step for step in lg.undo[start:] if step.player != player]
            unit = self._unit(lg)
            unit.undo = list(lg.undo[:start])
            entries = await self._quiet_entries(game_id, others)
            for move in reversed(moves):  # one undo entry a move, newest first, as a replay takes them back
                before = await self.store.undo_state(game_id, move.seq)
                if before is None:  # another process took it back or moved on: this copy is stale
                    self.forget(game_id)
                    raise ServiceError("stale", "The board has changed since you looked; please look again.")
                unit.state, unit.state_changed = await cpu(read_state, lg.game, before), True
                unit.seq += 1
                unit.quiet += move.quiet
                # taking back a quiet move is quiet too: marked so, for the move numbers (Store.quiet_entries)
                entry = {**undo_entry(player), "quiet": True} if move.quiet else undo_entry(player)
                unit.actions.append(ActionRow(game_id, unit.seq, player, entry, "human", unit.now, user_id,
                                              ()))
                unit.undo_drop.append(move.seq)
                unit.voided.append((unit.seq, unit.seq))  # an undo entry is no move either
                if not move.quiet:  # a quiet move stays voided by itself: the table never saw it
                    unit.voided.append((move.seq, unit.seq))
                # the quiet moves after it are played again on the state before it (those before it are in it)
                kept = await cpu(replay_quiet, unit, [s for s in others if s.seq > move.seq], entries)
                others = [s for s in others if s.seq < move.seq] + kept
            unit.undo += others
            # only that a move was taken back: never which (a private choice stays private); of a quiet
            # move, only its player hears
            quiet = all(move.quiet for move in moves)
            unit.notice(NoticeKind.move_undone, (user_id,) if quiet else PUBLIC, seat=player,
                        name=unit.names()[player])
            outcome = await self._commit_outcome(lg, unit)
        return await self._publish(outcome)

    async def _quiet_entries(self, game_id: str, steps: Sequence[UndoStep]) -> dict[int, Mapping[str, Any]]:
        """The logged moves of ``steps`` (other seats' quiet moves an undo plays again), by seq."""
        if not steps:
            return {}
        wanted = {step.seq for step in steps}
        rows = await self.store.actions(game_id, after_seq=steps[0].seq - 1, upto_seq=steps[-1].seq)
        return {row.seq: row.action for row in rows if row.seq in wanted}

    async def can_undo(self, game_id: str, user_id: int) -> bool:
        """Whether :meth:`undo` would take back a move of ``user_id`` now (the fronts offer it then)."""
        async with self._locked(game_id):
            return self._can_undo(await self._load(game_id), user_id)


@off_loop
def replay_quiet(unit: Unit, steps: Sequence[UndoStep], entries: Mapping[int, Mapping[str, Any]]
                 ) -> list[UndoStep]:
    """Play other seats' quiet moves ``steps`` again on ``unit``'s restored state, in their order, each
    with a new undo point (the state before it is another now); those the state refuses are dropped
    (their undo points with them). Returns the steps that stand."""
    game = unit.lg.game
    kept: list[UndoStep] = []
    for step in steps:
        unit.undo_drop.append(step.seq)
        unit.undo_points = [p for p in unit.undo_points if p.seq != step.seq]
        try:
            action = game.codec.decode(entries[step.seq])
            result = game.apply(unit.state, action)
        except (IllegalAction, KeyError):
            continue  # the order no longer fits the board restored (LogReplay drops it alike)
        unit.undo_points.append(UndoPoint(step.seq, step.player, game.dumps(unit.state)))
        unit.state = result.state
        kept.append(step)
    return kept
