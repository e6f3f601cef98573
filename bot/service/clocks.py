"""Clocks: time per move, vacations, deadlines that fire (reminders, timeouts); start-up."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from bot.models import Deadline, NoticeKind, Outcome, SeatRow, TimerSettings
from bot.service.audit import AuditOps
from bot.service.base import log
from bot.service.errors import ServiceError
from bot.service.offload import cpu, off_loop
from bot.service.records import DAY, Loaded, Unit, require_manager, turn_due
from engine.core import Action, IllegalAction, PlayerId

SCRATCH_MOVES = 8
"""How many standing moves an AI answering for a late person may send to a scratch copy of the state before
its answer (then the passive move is played): the greedy AI arms at most a card or two at a time."""


class ClockOps(AuditOps):
    """The clock half of :class:`bot.service.GameService`."""

    async def set_timers(
        self, game_id: str, by_user_id: int, timers: TimerSettings, *, is_admin: bool = False
    ) -> Outcome:
        """Change the timer settings (creator or admin); running clocks restart with them."""
        problems = timers.problems()
        if problems:
            raise ServiceError("bad_timers", " ".join(problems))
        async with self._locked(game_id):
            lg = await self._load(game_id)
            require_manager(lg, by_user_id, is_admin)
            self._require_not_finished(lg)
            unit = self._unit(lg)
            unit.timers = timers
            unit.restart.update(d.player for d in lg.deadlines)
            outcome = await self._finish(lg, unit)
        return await self._publish(outcome)

    async def vacation(self, game_id: str, user_id: int, days: int) -> Outcome:
        """Declare ``days`` away, extending the caller's deadlines without penalty.

        With a running clock, its turn deadline and reminders move ``days`` later.
        Without one (not the caller's move yet), the days are booked ahead: any
        clock that starts before the vacation ends starts when it ends. No missed
        deadline is counted for it. Each seat may take at most
        :attr:`vacation_days` days per game in total; the days used are stored on the
        seat in the same transaction as the moved deadline rows, which keep their ids.

        Raises:
            ServiceError: ``bad_days`` (not a whole number from 1), ``vacation_cap`` (beyond
                what is left), ``not_seated``,
                ``not_started``, ``paused``, ``finished``.
        """
        if isinstance(days, bool) or not isinstance(days, int) or days < 1:
            raise ServiceError("bad_days", "Vacation is a whole number of days, at least 1.", days=days)
        async with self._locked(game_id):
            lg = await self._load(game_id)
            seat = lg.seat_of_user(user_id)
            if seat is None or seat.seat_order is None:
                if lg.row.status == "lobby":
                    raise ServiceError("not_started", "The game has not started yet.")
                raise ServiceError("not_seated", "You have no seat in this game.")
            self._require_active(lg)
            if seat.is_ai:
                raise ServiceError("not_seated", "The AI holds your seat; take it back first.")
            cap, used = self.vacation_days, seat.vacation_days_used
            if used + days > cap:
                left = max(cap - used, 0)
                raise ServiceError("vacation_cap", f"You can take at most {cap} vacation days in this game; "
                                   f"{left} {'day is' if left == 1 else 'days are'} left.",
                                   cap=cap, used=used, left=left, days=days)
            player = seat.seat_order
            unit = self._unit(lg)
            running = turn_due(lg, player)
            if running is not None:
                unit.seats[seat.slot] = replace(seat, vacation_days_used=used + days)
                unit.shift[player] = days * DAY
                due = running + days * DAY
            else:
                away = max(seat.away_until, unit.now) + days * DAY
                unit.seats[seat.slot] = replace(seat, vacation_days_used=used + days, away_until=away)
                due = None
            unit.notice(NoticeKind.vacation, seat=player, user_id=user_id, name=lg.names()[player], days=days,
                        used=used + days, cap=cap, due_at=due,
                        away_until=unit.seats[seat.slot].away_until)
            outcome = await self._commit_outcome(lg, unit)
        return await self._publish(outcome)

    # == timers ==========================================================================
    async def pending_deadlines(self, *, due_before: float | None = None) -> list[Deadline]:
        """Unfired deadline rows of every game, soonest first (what the scheduler arms)."""
        return await self.store.pending_deadlines(due_before=due_before)

    async def fire_deadline(self, deadline_id: str) -> Outcome | None:
        """Handle a due deadline. Idempotent: None when it is fired, gone, stale or not yet due.

        A ``reminder`` becomes a private ``reminder`` notice. A ``turn`` deadline
        counts a missed deadline; after ``misses_before_ai`` in a row the AI takes
        the seat (``autopilot``); then the late player's turn is played for them
        (by the AI under timeout policy ``"ai"``, with passive moves under
        ``"skip"``) and AI seats move on, all as one change.
        """
        row = await self.store.get_deadline(deadline_id)
        if row is None or row.fired:
            return None
        async with self._locked(row.game_id):
            lg = await self._load(row.game_id)
            d = next((x for x in lg.deadlines if x.deadline_id == deadline_id), None)
            now = self._now()
            if d is None or d.fired or lg.row.status != "active" or now < d.due_at:
                return None
            seat = lg.seat_of_player(d.player)
            if seat is None or not seat.is_human or d.player not in lg.game.actors(lg.state):
                return None
            unit = self._unit(lg)
            unit.fired.append(d.deadline_id)
            if d.kind == "reminder":
                to = (seat.user_id,) if seat.user_id is not None else ()
                unit.notice(NoticeKind.reminder, to, seat=d.player, due_at=turn_due(lg, d.player))
                outcome = await self._commit_outcome(lg, unit)
            else:
                outcome = await self._timeout(lg, unit, seat, d.player)
        return await self._publish(outcome)

    async def _timeout(self, lg: Loaded, unit: Unit, seat: SeatRow, player: PlayerId) -> Outcome:
        timers = lg.row.timers
        missed = seat.missed_deadlines + 1
        seat = replace(seat, missed_deadlines=missed)
        name = lg.names()[player]
        unit.notice(NoticeKind.timeout, seat=player, user_id=seat.user_id, name=name, missed=missed,
                    policy=timers.timeout_policy)
        if timers.misses_before_ai and missed >= timers.misses_before_ai:
            seat = replace(seat, is_ai=True, ai_policy=seat.ai_policy or self.default_ai)
            unit.notice(NoticeKind.autopilot, seat=player, user_id=seat.user_id, name=name)
        unit.seats[seat.slot] = seat
        unit.restart.add(player)
        await cpu(self._play_out, unit, player, timers.timeout_policy)
        return await self._finish(lg, unit)

    @off_loop
    def _play_out(self, unit: Unit, player: PlayerId, policy: str) -> None:
        """The late player's moves, by the timeout policy: until they stop being an actor, or until
        someone who was not an actor becomes one (a simultaneous round ended and a new one began:
        that next decision is theirs to make, on a new clock)."""
        game = unit.lg.game
        others = game.actors(unit.state) - {player}
        for _ in range(500):
            actors = game.actors(unit.state)
            if game.is_over(unit.state) or player not in actors or (actors - {player}) - others:
                break
            action = game.timeout_action(unit.state, player) if policy == "skip" else \
                self._ai_answer(unit, player)
            self._apply(unit, action, "timeout", None)

    def _ai_answer(self, unit: Unit, player: PlayerId) -> Action:
        """The AI's answer to the decision a late person was asked: never a move of a kind a seat may send
        at any time (the spec's ``anytime_kinds``: a standing order armed or disarmed, a preference), which
        answers nothing and which the person never chose. An AI that would first send such a move is let
        send it to a scratch copy of the state only (such moves are quiet: they change what their sender
        alone knows), and asked again there; its answer is played if the real state takes it, else the
        game's passive move (:meth:`engine.core.Game.timeout_action`)."""
        game, anytime = unit.lg.game, unit.lg.spec.anytime_kinds
        scratch = unit.state
        for _ in range(SCRATCH_MOVES):
            action = self._ai_choice(unit, player, scratch)
            if action.kind not in anytime:
                if scratch is unit.state or action in game.legal_actions(unit.state, player):
                    return action
                break  # the answer leant on the order it would have armed
            try:
                scratch = game.apply(scratch, action).state
            except IllegalAction:
                break
        return game.timeout_action(unit.state, player)

    # == start-up and audit ==============================================================
    async def startup(self, *, verify: bool = False,
                      stop: Callable[[], bool] = lambda: False) -> list[Outcome]:
        """Bring running games back after a restart: AI seats that must move do, and missing clocks start.

        Args:
            verify: also replay every running game's full log from its seed and
                raise if any disagrees with its snapshot.
            stop: asked between games (a shutdown does not wait for the rest: the next start-up
                brings them back).
        """
        outcomes: list[Outcome] = []
        damaged = await self.store.damaged_games()
        for game_id in await self.store.game_ids(statuses=["active"]):
            if stop():
                break
            if verify:
                problems = await self.verify_game(game_id)
                if problems:
                    raise ServiceError("corrupt", f"Game {game_id} failed verification: {problems}")
            # each game on its own: one that cannot load is set aside (see _damaged), the rest go on
            try:
                async with self._locked(game_id):
                    lg = await self._load(game_id)
                    if game_id in damaged:  # it loads again (repaired by hand): back in play
                        await self.store.clear_damage(game_id, self._now())
                        self.forget(game_id)  # its paused clocks moved on: read them again
                        lg = await self._load(game_id)
                    if not self._needs_attention(lg):
                        continue
                    outcome = await self._finish(lg, self._unit(lg))
            except ServiceError as exc:
                if exc.code != "damaged":
                    log.error("game %s could not be resumed at start-up: %s", game_id, exc.message)
                continue
            outcomes.append(await self._publish(outcome))
        outcomes += self._damage_reports  # the games set aside just now, as told to their creators
        self._damage_reports = []
        return outcomes

    @staticmethod
    def _needs_attention(lg: Loaded) -> bool:
        """An AI seat must move, or a person must act without a clock running."""
        if lg.row.status != "active" or lg.state is None:
            return False
        clocks = {d.player for d in lg.deadlines if d.kind == "turn"}
        for player in lg.game.actors(lg.state):
            seat = lg.seat_of_player(player)
            if seat is not None and (seat.is_ai or (seat.is_human and player not in clocks)):
                return True
        return False
