"""Play: moves, and the seat changes of a running game (resign, replace, reclaim, pause, resume, abandon)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from bot.models import Departure, NoticeKind, Outcome
from bot.service.base import ServiceBase
from bot.service.errors import ServiceError
from bot.service.offload import cpu
from bot.service.records import clean_name, decode_action, person_name, require_manager
from bot.service.text_input import checked_game_id


class PlayOps(ServiceBase):
    """The playing half of :class:`bot.service.GameService`."""

    # == play ============================================================================
    async def submit(
        self, game_id: str, user_id: int, action_json: str | Mapping[str, Any], seq_seen: int
    ) -> Outcome:
        """Apply a player's action, then let AI seats move until a person must act or the game ends.

        Args:
            action_json: the action as JSON text or object (``{"kind": "expand", "land": "Levant"}``);
                ``player`` may be omitted (it is the caller's seat).
            seq_seen: the game's move counter (:attr:`bot.models.GameStatus.seq`) the player's choice was
                built against.

        Raises:
            ServiceError: ``stale`` when ``seq_seen`` is not the current seq; ``not_seated``,
                ``not_your_turn``, ``paused``...; engine codes for illegal actions.
        """
        game_id = checked_game_id(game_id)
        async with self._locked(game_id):
            lg = await self._load_seen(game_id, seq_seen)
            self._require_active(lg)
            seat = lg.seat_of_user(user_id)
            if seat is None or seat.seat_order is None:
                raise ServiceError("not_seated", "You have no seat in this game.")
            if seat.is_ai:
                raise ServiceError("not_seated", "The AI holds your seat; take it back first.")
            player = seat.seat_order
            action = decode_action(lg.game, action_json, player)
            # Standing preferences and the like: any seated player, any time, whatever they saw,
            # and no clock of theirs starts over for it.
            anytime = action.kind in lg.spec.anytime_kinds
            # the counter every player sees: another seat's quiet move leaves this click in date
            if not anytime and seq_seen != lg.row.public_seq:
                raise ServiceError("stale", "The board has changed since you looked; please look again.",
                                   seen=seq_seen, current=lg.row.public_seq)
            if not anytime and player not in lg.game.actors(lg.state):
                raise ServiceError("not_your_turn", "It is not your turn.")
            unit = self._unit(lg)
            await cpu(self._apply, unit, action, "human", user_id)
            if not anytime:
                unit.restart.add(player)
                if seat.missed_deadlines:
                    unit.seats[seat.slot] = replace(seat, missed_deadlines=0)
            outcome = await self._finish(lg, unit)
        return await self._publish(outcome)

    async def resign(self, game_id: str, user_id: int) -> Outcome:
        """Leave a running game for good; the AI plays the seat to the end."""
        game_id = checked_game_id(game_id)
        async with self._locked(game_id):
            lg = await self._load(game_id)
            seat = lg.seat_of_user(user_id)
            if seat is None:
                raise ServiceError("not_seated", "You have no seat in this game.")
            if lg.row.status == "lobby":
                raise ServiceError("not_started", "The game has not started; use leave instead.")
            self._require_not_finished(lg)
            unit = self._unit(lg)
            self._seat_to_ai(unit, seat, "resigned")
            unit.departures.append(Departure(user_id, "resigned"))
            outcome = await self._finish(lg, unit)
        return await self._publish(outcome)

    async def replace_seat(
        self, game_id: str, by_user_id: int, seat: int, *, new_user_id: int | None = None,
        new_name: str | None = None, is_admin: bool = False,
    ) -> Outcome:
        """Give seat ``seat`` (engine player id) to another person, or to the AI when ``new_user_id`` is None.

        The creator or an admin may replace anyone; a player may hand over their own seat.
        """
        game_id = checked_game_id(game_id)
        async with self._locked(game_id):
            lg = await self._load(game_id)
            current = lg.seat_of_player(seat)
            if current is None:
                raise ServiceError("bad_seats", f"There is no seat {seat} in this game.", seat=seat)
            own = current.user_id is not None and current.user_id == by_user_id
            manager = is_admin or by_user_id == lg.row.creator_id
            if not own:
                require_manager(lg, by_user_id, is_admin)
            if lg.row.status == "lobby":
                raise ServiceError("not_started", "The game has not started; seats change by join and leave.")
            self._require_not_finished(lg)
            unit = self._unit(lg)
            if current.user_id is not None and current.user_id != new_user_id:
                unit.departures.append(Departure(current.user_id, "replaced"))
            if new_user_id is None:
                self._seat_to_ai(unit, current, "replaced")
            else:
                if lg.seat_of_user(new_user_id) is not None:
                    raise ServiceError("already_seated", "That person already has a seat in this game.")
                if await self.store.departure(game_id, new_user_id) is not None:
                    if not manager:  # a player handing on their own seat cannot overrule a moderator
                        raise ServiceError("departed", "That person left this game; only its creator or a "
                                           "server admin can give them a seat again.")
                    unit.departures.append(Departure(new_user_id, None))
                name = clean_name(new_name or "a new player")  # never a raw user id
                await self._refresh_prefs(lg, [new_user_id])
                unit.seats[current.slot] = replace(current, user_id=new_user_id, display_name=name,
                                                   is_ai=False, ai_policy=None, missed_deadlines=0)
                unit.restart.add(seat)
                unit.notice(NoticeKind.seat_replaced, seat=seat, old_user_id=current.user_id,
                            user_id=new_user_id, name=lg.spec.seat_name(seat, name, lg.colours_of(lg.state)))
            outcome = await self._finish(lg, unit)
        return await self._publish(outcome)

    async def reclaim(self, game_id: str, user_id: int) -> Outcome:
        """Take back one's seat from the AI after it took over on missed deadlines."""
        game_id = checked_game_id(game_id)
        async with self._locked(game_id):
            lg = await self._load(game_id)
            seat = lg.seat_of_user(user_id)
            if seat is None:
                raise ServiceError("not_seated", "You have no seat in this game.")
            if not seat.is_ai:
                raise ServiceError("not_ai", "You are playing your seat already.")
            self._require_not_finished(lg)
            unit = self._unit(lg)
            unit.seats[seat.slot] = replace(seat, is_ai=False, missed_deadlines=0)
            if seat.seat_order is not None:
                unit.restart.add(seat.seat_order)
            unit.notice(NoticeKind.seat_reclaimed, seat=seat.seat_order, user_id=user_id,
                        name=lg.spec.seat_name(seat.seat_order or 0, seat.display_name,
                                                     lg.colours_of(lg.state)))
            outcome = await self._finish(lg, unit)
        return await self._publish(outcome)

    async def pause(self, game_id: str, by_user_id: int, *, is_admin: bool = False) -> Outcome:
        """Stop the clocks and refuse moves until :meth:`resume` (creator or admin)."""
        game_id = checked_game_id(game_id)
        async with self._locked(game_id):
            lg = await self._load(game_id)
            require_manager(lg, by_user_id, is_admin)
            if lg.row.status != "active":
                raise ServiceError("not_started" if lg.row.status == "lobby" else
                                   "paused" if lg.row.status == "paused" else "finished",
                                   "Only a running game can be paused.", status=lg.row.status)
            unit = self._unit(lg)
            unit.status = "paused"
            unit.notice(NoticeKind.paused, by=by_user_id, by_name=person_name(lg, by_user_id))
            outcome = await self._commit_outcome(lg, unit)
        return await self._publish(outcome)

    async def resume(self, game_id: str, by_user_id: int, *, is_admin: bool = False) -> Outcome:
        """Restart a paused game; every player who must act gets a fresh clock."""
        game_id = checked_game_id(game_id)
        async with self._locked(game_id):
            lg = await self._load(game_id)
            require_manager(lg, by_user_id, is_admin)
            if lg.row.status != "paused":
                raise ServiceError("not_paused", "The game is not paused.", status=lg.row.status)
            unit = self._unit(lg)
            unit.status = "active"
            unit.notice(NoticeKind.resumed, by=by_user_id, by_name=person_name(lg, by_user_id))
            outcome = await self._finish(lg, unit)
        return await self._publish(outcome)

    async def abandon(self, game_id: str, by_user_id: int, *, is_admin: bool = False) -> Outcome:
        """End the game without a result (creator or admin); its log stays."""
        game_id = checked_game_id(game_id)
        async with self._locked(game_id):
            lg = await self._load(game_id)
            require_manager(lg, by_user_id, is_admin)
            self._require_not_finished(lg)
            unit = self._unit(lg)
            unit.status = "abandoned"
            unit.notice(NoticeKind.abandoned, by=by_user_id, by_name=person_name(lg, by_user_id))
            outcome = await self._commit_outcome(lg, unit)
        return await self._publish(outcome)

