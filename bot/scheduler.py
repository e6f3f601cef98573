"""Deadlines table -> APScheduler 3.x in-memory jobs, and the handlers that fire them.

The ``deadlines`` table (written by the service in the same transaction as the
state) is the only truth; jobs are a cache of it, rebuilt at every start-up:

* :meth:`Scheduler.start` lets the service bring games back
  (:meth:`~bot.service.GameService.startup`), arms one ``date`` job per unfired
  row (job id = deadline id; ``replace_existing=True``, ``coalesce=True``,
  ``misfire_grace_time=None``), fires the overdue rows at once, and adds a
  sweeper that re-reads the table every minute (catching rows written by another
  process or jobs lost to a bug).
* A listener on the service re-arms a game's jobs from ``outcome.status.deadlines``
  after every change, and removes the jobs of rows that are gone; another listener
  re-reads a game's rows when another process changed it (a shared database).
* Every job, and the sweeper, only calls :meth:`Scheduler.run_due`, which fires
  the rows due by the clock, soonest first, through
  :meth:`~bot.service.GameService.fire_deadline`; that is idempotent, so a job
  and the sweeper meeting, or a restart between firing and re-arming, never
  fire a deadline twice. Outcomes reach the transports through the service's
  own subscribers (``fire_deadline`` publishes them).

Time is injected: tests drive :meth:`run_due` with a FakeClock and start the
APScheduler part paused (``start(paused=True)``), so nothing waits for real time.
APScheduler runs jobs as tasks that may be cancelled at its shutdown, so jobs
only hand work to tasks the Scheduler owns; :meth:`shutdown` lets the one in
progress finish its write.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from apscheduler.schedulers.asyncio import AsyncIOScheduler  # type: ignore[import-untyped]

from bot.clock import Clock, to_datetime
from bot.models import Deadline, Outcome
from bot.service import GameService

log = logging.getLogger(__name__)

SWEEP_JOB = "annals:sweep"
SWEEP_SECONDS = 60.0  # how often the sweeper re-reads the deadlines table
PERIODIC_PREFIX = "annals:every:"


class Scheduler:
    """Arms deadline jobs and fires due deadlines for one :class:`GameService`.

    Args:
        service: the game service (its clock is used unless ``clock`` is given).
        clock: the time source for "what is due".
        jobs: the APScheduler instance (a fresh ``AsyncIOScheduler`` in UTC by default).
        sweep_seconds: how often the sweeper re-reads the table.
        arm_within: arm a job only for deadlines due within this many seconds (None: every pending
            deadline); the sweeper arms the later ones as they come near. A bot with thousands of
            games sets it: a job per deadline of every game would cost seconds of the loop to arm.
    """

    def __init__(self, service: GameService, *, clock: Clock | None = None, jobs: Any = None,
                 sweep_seconds: float = SWEEP_SECONDS, arm_within: float | None = None) -> None:
        if arm_within is not None and arm_within <= sweep_seconds:
            raise ValueError("arm_within must be longer than sweep_seconds, or a deadline could be missed")
        self.service = service
        self.clock: Clock = clock or service.clock
        self.jobs: Any = jobs if jobs is not None else AsyncIOScheduler(timezone="UTC")
        self.sweep_seconds = sweep_seconds
        self.arm_within = arm_within
        self._armed: dict[str, dict[str, int]] = {}  # game id -> {deadline id: due_at}
        self._settled: set[tuple[str, int]] = set()  # due rows the service declined (gone/stale)
        self._run_lock = asyncio.Lock()
        self._tasks: set[asyncio.Task[Any]] = set()
        self._subscribed = False
        self._closing = False

    # == life cycle ======================================================================
    async def start(self, *, paused: bool = False, background: bool = False) -> list[Outcome]:
        """Bring games back, arm every pending deadline, fire the overdue ones, start the sweeper.

        Args:
            paused: start APScheduler paused (tests): jobs are armed and inspectable,
                but only calls of :meth:`run_due` fire deadlines.
            background: return at once and do the rest in an owned task (the bot: its front answers
                while thousands of games are brought back; a game not brought back yet loads on
                first use, and its deadlines come from the deadlines table without loading it).

        Returns:
            The outcomes of the start-up work and of the deadlines fired at once (none when
            ``background``: they are published to the service's listeners as they happen).
        """
        if not self._subscribed:
            self.service.subscribe(self._on_outcome)
            self.service.on_changed_elsewhere(self._on_changed_elsewhere)
            self._subscribed = True
        if not self.jobs.running:
            self.jobs.start(paused=paused)
        self.jobs.add_job(self._sweep_job, "interval", seconds=self.sweep_seconds, id=SWEEP_JOB,
                          replace_existing=True, coalesce=True, max_instances=1, misfire_grace_time=None)
        if background:
            self._spawn(self._bring_back(), "start-up")
            return []
        return await self._bring_back()

    async def _bring_back(self) -> list[Outcome]:
        """The deadlines armed and the overdue ones fired (from the table: no game is loaded for it),
        then every running game brought back (AI seats that must move, missing clocks)."""
        outcomes = await self.sweep()
        outcomes += await self.service.startup(stop=lambda: self._closing)
        # moves made before records were kept get theirs, in the background (once, after an upgrade)
        self._spawn(self.service.recover_records(lambda: self._closing), "records")
        return outcomes

    async def shutdown(self) -> None:
        """Stop the jobs, let the deadline being fired finish its write, then return (idempotent)."""
        self._closing = True
        if self.jobs.running:
            self.jobs.shutdown(wait=False)
        await self.idle()
        async with self._run_lock:  # a run_due called directly (console /time) finishes too
            pass
        self._armed.clear()

    async def idle(self) -> None:
        """Wait until the work handed over by jobs (deadlines, sweeps, backups) is done."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    def every(self, seconds: float, work: Callable[[], Awaitable[Any]], name: str) -> None:
        """Run ``work()`` every ``seconds`` (e.g. backups) as an owned task that shutdown waits for."""

        async def job() -> None:
            self._spawn(work(), name)

        self.jobs.add_job(job, "interval", seconds=seconds, id=PERIODIC_PREFIX + name, replace_existing=True,
                          coalesce=True, max_instances=1, misfire_grace_time=None)

    # == firing ==========================================================================
    async def run_due(self, now: float | None = None) -> list[Outcome]:
        """Fire every unfired deadline due by ``now`` (default: the clock), soonest first.

        The service's clock has the last word: a row it finds not yet due is left
        for later. Rows the service declines although due (gone, stale, for a seat
        that is no longer a person's) are remembered and not tried again.

        Returns:
            The outcomes of the deadlines that fired (already published by the service).
        """
        outcomes: list[Outcome] = []
        async with self._run_lock:
            for _ in range(100):  # a fired row may start clocks; they are never due at once, but be safe
                when = self.clock.now() if now is None else now
                # claimed: with several processes on one database, each due row goes to one of them
                due = [d for d in await self.service.store.claim_deadlines(due_before=when)
                       if (d.deadline_id, d.due_at) not in self._settled]
                if not due:
                    break
                # a player whose move is already due is timed out, not reminded first: the timeout
                # replaces their clock, so their due reminders go with it
                late = {(d.game_id, d.player) for d in due if d.kind == "turn"}
                due = [d for d in due if d.kind == "turn" or (d.game_id, d.player) not in late]
                fired = 0
                for row in due:
                    if self._closing:
                        return outcomes
                    outcome = await self._fire(row)
                    if outcome is not None:
                        outcomes.append(outcome)
                        fired += 1
                if not fired:
                    break
        return outcomes

    async def _fire(self, row: Deadline) -> Outcome | None:
        try:
            outcome = await self.service.fire_deadline(row.deadline_id)
        except Exception:
            log.exception("deadline %s failed; the sweeper will try again", row.deadline_id)
            return None
        if outcome is None:
            if row.due_at > self.service.clock.now():
                return None  # not due by the service's clock: its job stays armed
            self._settled.add((row.deadline_id, row.due_at))
        self._disarm(row.game_id, row.deadline_id)
        return outcome

    async def sweep(self) -> list[Outcome]:
        """Re-read the table: fire what is due, arm what is pending, drop jobs of rows that are gone."""
        outcomes = await self.run_due()
        now = self.clock.now()
        pending = await self.service.pending_deadlines(due_before=self._horizon(now))
        wanted: dict[str, dict[str, int]] = {}
        for row in pending:
            if row.due_at > now:
                wanted.setdefault(row.game_id, {})[row.deadline_id] = row.due_at
        for game_id in set(self._armed) | set(wanted):
            self._sync(game_id, wanted.get(game_id, {}))
        live = {(d.deadline_id, d.due_at) for d in pending}
        self._settled &= live
        return outcomes

    # == jobs ============================================================================
    def armed(self) -> dict[str, int]:
        """The deadline jobs this scheduler holds: deadline id -> due time (Unix seconds)."""
        return {i: due for game in self._armed.values() for i, due in game.items()}

    def _on_outcome(self, outcome: Outcome) -> None:
        """Service listener: make the game's jobs match its deadline rows."""
        if self._closing:
            return
        horizon = self._horizon(self.clock.now())
        rows = {d.deadline_id: d.due_at for d in outcome.status.deadlines
                if not d.fired and (horizon is None or d.due_at <= horizon)}
        self._sync(outcome.game_id, rows)

    def _on_changed_elsewhere(self, game_id: str | None) -> None:
        """Service listener: another process changed ``game_id`` (None: maybe any game) and may have
        moved its clocks; make its jobs match its rows now rather than at the next sweep."""
        if self._closing:
            return
        self._spawn(self.sweep() if game_id is None else self._resync(game_id), "resync")

    async def _resync(self, game_id: str) -> None:
        """Make one game's jobs match its deadline rows as the table holds them."""
        horizon = self._horizon(self.clock.now())
        rows = {d.deadline_id: d.due_at for d in await self.service.store.game_deadlines(game_id)
                if not d.fired and (horizon is None or d.due_at <= horizon)}
        if not self._closing:
            self._sync(game_id, rows)

    def _horizon(self, now: float) -> float | None:
        """The latest due time armed as a job now (None: all)."""
        return None if self.arm_within is None else now + self.arm_within

    def _sync(self, game_id: str, rows: dict[str, int]) -> None:
        have = self._armed.get(game_id, {})
        for deadline_id in set(have) - set(rows):
            self._disarm(game_id, deadline_id)
        for deadline_id, due in rows.items():
            if have.get(deadline_id) != due or self.jobs.get_job(deadline_id) is None:
                self._arm(game_id, deadline_id, due)

    def _arm(self, game_id: str, deadline_id: str, due_at: int) -> None:
        self.jobs.add_job(self._deadline_job, "date", run_date=to_datetime(due_at), id=deadline_id,
                          replace_existing=True, coalesce=True, misfire_grace_time=None)
        self._armed.setdefault(game_id, {})[deadline_id] = due_at

    def _disarm(self, game_id: str, deadline_id: str) -> None:
        game = self._armed.get(game_id)
        if game is None or game.pop(deadline_id, None) is None:
            return
        if not game:
            del self._armed[game_id]
        job = self.jobs.get_job(deadline_id)
        if job is not None:
            job.remove()

    async def _deadline_job(self) -> None:
        self._spawn(self.run_due(), "deadline")

    async def _sweep_job(self) -> None:
        self._spawn(self.sweep(), "sweep")

    def _spawn(self, work: Awaitable[Any], name: str) -> None:
        if self._closing:
            if asyncio.iscoroutine(work):
                work.close()
            return

        async def guarded() -> None:
            try:
                await work
            except Exception:
                log.exception("scheduled %s failed", name)

        task = asyncio.get_running_loop().create_task(guarded(), name=f"annals-{name}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
