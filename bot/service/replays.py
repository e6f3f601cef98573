"""Stepping through a game: the board a seat was allowed to see after move N, and a finished game's
timelapse. Both rebuild states from the stored records: the newest checkpoint at or before the move
and the moves after it (at most a checkpoint's interval), in a worker thread; a whole game once, for
the timelapse, when it ends.

Hidden information is as it was at that moment: the state is rebuilt, then seen through the seat's own
view (a spectator's for a person with no seat), so a later move or another seat's hand shows nothing.
A game started under older rules is not rebuilt: today's rules may replay it to another board.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from bot.models import ActionRow
from bot.service.base import ServiceBase
from bot.service.errors import ServiceError
from bot.service.offload import cpu, off_loop
from bot.service.records import Loaded, entry_of
from engine.core import Game, IllegalAction, LogReplay, players_at_start


@off_loop
def rebuilt(game: Game, players: int, options: Mapping[str, Any], seed: int, base: str | None,
            rows: Sequence[ActionRow]) -> Any:
    """The state after ``rows``, from the stored state ``base`` (JSON) they follow, or from the set-up
    when None (``players``: seated now; those who joined since the start are seated by their entries)."""
    state = game.from_json(json.loads(base)) if base is not None else \
        game.setup(players_at_start(players, [r.action for r in rows]), options, seed)
    run = LogReplay(game, state)
    for row in rows:
        run.apply(row.action, mark=row.seq)
    return run.state


@off_loop
def stage_views(game: Game, players: int, options: Mapping[str, Any], seed: int,
                rows: Sequence[ActionRow]) -> list[tuple[str, dict[str, Any]]]:
    """A spectator's view after each stage of a whole game (the stage's words, the view), oldest first:
    the set-up, then the last state of every stage, the end included."""
    run = LogReplay(game, game.setup(players_at_start(players, [r.action for r in rows]), options, seed))
    out: list[tuple[str, dict[str, Any]]] = []
    view = dict(game.view(run.state, None))
    out.append((game.stage(view), view))
    for row in rows:
        run.apply(row.action, mark=row.seq)
        view = dict(game.view(run.state, None))
        stage = game.stage(view)
        if stage == out[-1][0]:
            out[-1] = (stage, view)  # the stage goes on: its frame is its newest board
        else:
            out.append((stage, view))
    return out


class ReplayOps(ServiceBase):
    """The stepping-through half of :class:`bot.service.GameService`."""

    async def view_at(self, game_id: str, user_id: int | None, move: int) -> dict[str, Any]:
        """What ``user_id`` was allowed to see of the game right after move ``move`` (its seat's view; a
        spectator's when they have none), with ``seq`` set to ``move``.

        Raises:
            ServiceError: ``not_started``; ``bad_move`` for a move the game has not reached;
                ``older_rules`` for a game started under other rules than today's.
        """
        async with self._locked(game_id):
            lg = await self._load(game_id)
            self._replayable(lg)
            last = lg.row.public_seq  # moves as players count them: no quiet move among them
            if not 0 <= move <= last:
                raise ServiceError("bad_move", f"Game {game_id} is at move {last}: choose a move "
                                   f"from 0 to {last}.", move=move)
            seq = lg.row.seq
            seat = lg.seat_of_user(user_id) if user_id is not None else None
            viewer = seat.seat_order if seat is not None else None
            players = sum(1 for s in lg.seats.values() if s.seat_order is not None)
        entry = entry_of(move, await self.store.quiet_entries(game_id, upto_seq=seq)) if seq != last else move
        base = await self.store.latest_checkpoint(game_id, upto_seq=entry) if entry else None
        state = await self._rebuilt(lg, players, base.state_json if base else None, base.seq if base else 0,
                                    entry)
        view = dict(lg.game.view(state, viewer))
        view["seq"] = move
        return view

    async def stage_views(self, game_id: str) -> list[tuple[str, dict[str, Any]]]:
        """A spectator's board after each stage of the game so far (for a finished game's timelapse)."""
        async with self._locked(game_id):
            lg = await self._load(game_id)
            self._replayable(lg)
            players = sum(1 for s in lg.seats.values() if s.seat_order is not None)
            upto = lg.row.seq
        rows = await self.store.records(game_id, upto_seq=upto)
        row = lg.row
        return await cpu(stage_views, lg.game, players, row.options, row.seed, rows)

    async def _rebuilt(self, lg: Loaded, players: int, base: str | None, base_seq: int, move: int) -> Any:
        rows = await self.store.records(lg.row.game_id, after_seq=base_seq, upto_seq=move)
        row = lg.row
        try:
            return await cpu(rebuilt, lg.game, players, row.options, row.seed, base, rows)
        except IllegalAction:
            if base is None:
                raise
        # an undo after the checkpoint took back a move from before it: from the set-up instead
        rows = await self.store.records(lg.row.game_id, upto_seq=move)
        return await cpu(rebuilt, lg.game, players, row.options, row.seed, None, rows)

    @staticmethod
    def _replayable(lg: Loaded) -> None:
        if lg.state is None:
            raise ServiceError("not_started", "The game has not started yet.")
        if lg.rules_version != lg.spec.rules_version():
            raise ServiceError("older_rules", f"Game {lg.row.game_id} started under older rules: its earlier "
                               "boards cannot be drawn again.")
