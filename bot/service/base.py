"""The service's machinery every operation shares: loading a game, applying moves, AI seats,
committing one change as one transaction, clocks and the status a transport reads."""

from __future__ import annotations

import asyncio
import inspect
import json
import logging
import secrets
import time
import weakref
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from dataclasses import replace
from typing import Any, cast

from bot.clock import Clock, SystemClock
from bot.models import (
    PUBLIC,
    ActionRow,
    ActionSource,
    Deadline,
    GameBundle,
    GameChange,
    GameStatus,
    GameStatusName,
    Notice,
    NoticeKind,
    Outcome,
    ReminderPreference,
    SeatInfo,
    SeatRow,
    Snapshot,
    TimerSettings,
)
from bot.outbox import route
from bot.service.errors import BUSY, DISK_FULL, ServiceError, refused
from bot.service.following import Changed, Following
from bot.service.offload import cpu, off_loop
from bot.service.records import (
    MAX_NAME,
    Loaded,
    UndoStep,
    Unit,
    adopt_settings,
    event_records,
    random_id,
    spec_or_error,
    taken_back,
)
from bot.storage import GameStore
from bot.store import StoreBusy, StoreConflict, StoreFull
from engine.core import Action, IllegalAction, LogReplay, PlayerId, Result, decide, players_at_start
from engine.core import Outcome as GameOutcome

log = logging.getLogger("bot.service")

DEFAULT_VACATION_DAYS = 14
Listener = Callable[[Outcome], Awaitable[None] | None]
HOLD_MS = 60_000  # most a command's public rows wait for its end (real time, as delivery's retries)


@contextmanager
def saving(what: str = "move") -> Iterator[None]:
    """A write the store could not make as a refusal both fronts show, never SQLite's own words:
    a lock held past the timeout, or a full (or failing) disk. Nothing was written either way."""
    try:
        yield
    except StoreBusy as exc:
        log.warning("write refused: %s", exc)
        raise ServiceError("busy", BUSY) from exc
    except StoreFull as exc:
        log.error("write refused: %s", exc)
        raise ServiceError("disk_full", DISK_FULL.format(what=what)) from exc


class ServiceBase:
    """What every part of :class:`bot.service.GameService` builds on (see its docstring for the arguments)."""

    def __init__(
        self,
        store: GameStore,
        clock: Clock | None = None,
        *,
        checkpoint_every: int = 100,
        cache_size: int = 1024,
        ai_batch: int = 64,
        default_ai: str = "greedy",
        vacation_days: int = DEFAULT_VACATION_DAYS,
        id_factory: Callable[[], str] | None = None,
        seed_factory: Callable[[], int] | None = None,
    ) -> None:
        if checkpoint_every < 1 or ai_batch < 1 or cache_size < 0:
            raise ValueError("checkpoint_every and ai_batch must be positive, cache_size not negative")
        self.store = store
        self.clock: Clock = clock or SystemClock()
        self.checkpoint_every = checkpoint_every
        self.cache_size = cache_size
        self.ai_batch = ai_batch
        self.default_ai = default_ai
        if vacation_days < 0:
            raise ValueError("vacation_days must not be negative")
        self.vacation_days = vacation_days
        self._new_id = id_factory or random_id
        self._new_seed = seed_factory or (lambda: secrets.randbits(62))
        self._cache: OrderedDict[str, Loaded] = OrderedDict()
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
        self._listeners: list[Listener] = []
        self._damage_reports: list[Outcome] = []  # games set aside since start-up collected them
        self._elsewhere: list[Changed] = []  # told of games other processes changed (elsewhere.py)
        self._following: Following | None = None

    # == hooks ===========================================================================
    def subscribe(self, listener: Listener) -> None:
        """Call ``listener(outcome)`` after every change (after commit, outside the game lock).

        The scheduler uses it to re-arm a game's jobs from ``outcome.status.deadlines``;
        a transport may use it to deliver notices of changes it did not ask for
        (timeouts). Exceptions in listeners are logged, never raised.
        """
        self._listeners.append(listener)

    async def _publish(self, outcome: Outcome) -> Outcome:
        for listener in self._listeners:
            try:
                result = listener(outcome)
                if inspect.isawaitable(result):
                    await result
            except Exception:
                log.exception("listener failed for game %s", outcome.game_id)
        return outcome

    # == internals: loading ==============================================================
    @asynccontextmanager
    async def _locked(self, game_id: str) -> AsyncIterator[None]:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[game_id] = lock
        async with lock:
            yield

    async def _load(self, game_id: str) -> Loaded:
        cached = self._cache.get(game_id)
        if cached is not None:
            self._cache.move_to_end(game_id)
            return cached
        bundle = await self._read_bundle(game_id)
        if bundle is None:
            raise ServiceError("no_such_game", f"There is no game {game_id!r}.", game_id=game_id)
        try:
            lg = await cpu(self._parse, bundle)
        except ServiceError as exc:
            raise await self._damaged(game_id, exc.message) from exc
        except Exception as exc:  # whatever a damaged record makes the parsers or the engine raise
            raise await self._damaged(game_id, f"{type(exc).__name__}: {exc}") from exc
        self._remember(lg)
        return lg

    async def _load_seen(self, game_id: str, seq_seen: int) -> Loaded:
        """The game, loaded again when the caller saw another seq than the copy in memory holds: with
        several processes on one database (PostgreSQL), another may have moved it since this one read it.
        A click that is really stale costs one extra load."""
        lg = await self._load(game_id)
        if seq_seen != lg.row.public_seq and game_id in self._cache:
            self.forget(game_id)
            lg = await self._load(game_id)
        return lg

    async def _read_bundle(self, game_id: str, tries: int = 3) -> GameBundle | None:
        """The game's stored bundle. A row that cannot be read is damage (the game is set aside); a
        fault of the database itself (a lock, the disk, the connection) may pass: it is tried again
        after a short pause, then refused as "busy, try again", never taken for damage."""
        for attempt in range(tries):
            try:
                return await self.store.load_bundle(game_id)
            except (ValueError, TypeError, KeyError) as exc:  # a stored row that cannot be read, every time
                raise await self._damaged(game_id, f"{type(exc).__name__}: {exc}") from exc
            except Exception as exc:
                log.warning("game %s could not be read now (try %d of %d): %s", game_id, attempt + 1, tries,
                            exc)
                if attempt + 1 == tries:
                    raise ServiceError("busy", BUSY) from exc
                await asyncio.sleep(0.05 * (attempt + 1))
        raise AssertionError("unreachable")  # pragma: no cover

    @off_loop
    def _parse(self, bundle: GameBundle) -> Loaded:
        """The game in memory from its stored bundle: the snapshot plus the log after it."""
        row = bundle.game
        game_id = row.game_id
        spec = spec_or_error(row.ruleset)
        game = spec.load()
        state: Any = None
        players = sum(1 for s in bundle.seats if s.seat_order is not None)
        if row.status != "lobby" and players:  # a lobby closed before its start has no state
            base = 0
            if bundle.snapshot is not None:
                state, base = game.from_json(json.loads(bundle.snapshot.state_json)), bundle.snapshot.seq
            else:  # the whole log follows: those who joined since the start are seated by it
                state = game.setup(players_at_start(players, [e.action for e in bundle.tail]), row.options,
                                   row.seed)
            run = LogReplay(game, state)  # undo and join entries too (see bot.service.undo, lobby)
            for entry in bundle.tail:
                if entry.seq != base + 1:
                    raise ServiceError("corrupt", f"Game {game_id}: the log jumps from {base} "
                                       f"to {entry.seq}.")
                state, base = run.apply(entry.action).state, entry.seq
        return Loaded(row, spec, game, {s.slot: s for s in bundle.seats}, state, list(bundle.deadlines),
                      dict(bundle.reminder_prefs), dict(bundle.reminder_offsets),
                      [UndoStep(*step) for step in bundle.undo], bundle.rules_version)

    async def _damaged(self, game_id: str, problem: str) -> ServiceError:
        """Set a game that cannot load aside (marked, clocks stopped) and, the first time, log it and
        tell its creator; returns the refusal for whoever asked for it."""
        refusal = ServiceError("damaged", f"Game {game_id} cannot be played: its stored record is damaged. "
                               "Its creator was told; a server admin can restore it from a backup.",
                               game_id=game_id)
        contact = await self.store.game_contact(game_id)
        if contact is None:
            return refusal
        bare = self._bare_status(game_id, *contact)
        notice = Notice(game_id, NoticeKind.damaged, {"title": bare.title}, (bare.creator_id,), 0)
        ids = await self.store.mark_damaged(game_id, problem, self._now(), route(game_id, [notice]))
        if ids is None:
            return refusal
        log.error("game %s cannot be loaded and is set aside: %s", game_id, problem)
        self._damage_reports.append(await self._publish(Outcome(game_id, (notice,), bare, tuple(ids))))
        return refusal

    @staticmethod
    def _bare_status(game_id: str, ruleset: str, status: str, creator: int, guild: int | None) -> GameStatus:
        """What can be said of a game that cannot load: its title, creator and server."""
        try:
            title = spec_or_error(ruleset).title
        except ServiceError:
            title = ruleset
        return GameStatus(game_id=game_id, ruleset=ruleset, title=title, status=cast(GameStatusName, status),
                          seq=0, creator_id=creator, max_seats=0, min_seats=0, seats=(), actors=(),
                          waiting_for=(), deadlines=(), timers=TimerSettings(), guild_id=guild)

    def _remember(self, lg: Loaded) -> None:
        if self.cache_size == 0:
            return
        self._cache[lg.row.game_id] = lg
        self._cache.move_to_end(lg.row.game_id)
        while len(self._cache) > self.cache_size:
            self._cache.popitem(last=False)

    def forget(self, game_id: str | None = None) -> None:
        """Drop cached games (all when ``game_id`` is None), e.g. after settings changed."""
        if game_id is None:
            self._cache.clear()
        else:
            self._cache.pop(game_id, None)

    # == internals: changing =============================================================
    def _now(self) -> int:
        return int(self.clock.now())

    def _unit(self, lg: Loaded) -> Unit:
        return Unit(lg, self._now(), lg.state, lg.row.seq, lg.row.status, seats=dict(lg.seats))

    @off_loop
    def _apply(self, unit: Unit, action: Action, source: ActionSource, user_id: int | None) -> None:
        game = unit.lg.game
        before = unit.state
        try:
            result = game.apply(before, action)
            quiet = game.quiet(before, action)
            # a quiet move tells nobody anything: its sender may always take it back (engine.core.LogReplay)
            undoable = quiet or game.undoable(before, action, result)
        except IllegalAction as exc:
            raise refused(exc) from exc
        except Exception as exc:
            log.exception("engine failed on %s in game %s", action, unit.lg.row.game_id)
            raise ServiceError("engine_error", "Something went wrong with that move; "
                               "nothing changed.") from exc
        self._record(unit, action.player, action.to_json(), result, source, user_id,
                     before=game.dumps(before) if undoable else None, quiet=quiet)

    def _record(self, unit: Unit, player: PlayerId, entry: dict[str, Any], result: Result,
                source: ActionSource, user_id: int | None, *, before: str | None = None,
                quiet: bool = False) -> None:
        """Log one entry (a move, or a join: :func:`engine.core.join_entry`) with the state, its record
        (the events, and ``before``: the state it may be taken back to, None when it may not) and the
        notices of its events, in ``unit``'s transaction.

        A ``quiet`` move (:meth:`engine.core.Game.quiet`) is counted apart (:attr:`Unit.quiet`: the
        counter players see does not move), voided by itself as the table never saw it (no public log,
        news or "last move" reads it), and kept undoable without closing anyone else's chain."""
        game = unit.lg.game
        unit.seq += 1
        unit.quiet += quiet
        unit.state, unit.state_changed = result.state, True
        gid = unit.lg.row.game_id
        unit.actions.append(ActionRow(gid, unit.seq, player, entry, source, unit.now, user_id,
                                      event_records(result.events)))
        if quiet:
            unit.voided.append((unit.seq, unit.seq))
        if before is None:
            unit.final()
        else:
            unit.may_undo(unit.seq, player, before, source == "forced", quiet)
        if unit.seq % self.checkpoint_every == 0:
            unit.checkpoints.append(Snapshot(gid, unit.seq, game.dumps(unit.state)))
        for event in result.events:
            # engine events travel as ``event``, never as a platform NoticeKind
            if isinstance(event.audience, str):
                unit.notices.append(Notice(gid, None, dict(event.data), PUBLIC, unit.public_seq, event=event))
                continue
            seats = tuple(event.audience)
            users = tuple(sorted({s.user_id for p in seats if (s := unit.seat(p)) and s.user_id is not None}))
            if users:
                unit.notices.append(Notice(gid, None, dict(event.data), users, unit.public_seq, seats,
                                           event=event))
        ended = game.outcome(unit.state)
        if ended is not None:
            unit.status = "over"
            # the result row keeps the scores, ranking and places it always held, the reason beside them
            unit.result = ended.to_json()
            unit.notice(NoticeKind.game_over, **unit.result, names=list(unit.names()))

    def _ai_choice(self, unit: Unit, player: PlayerId, state: Any = None) -> Action:
        """The seat's AI's move in ``state`` (None: the game's state; another: a scratch copy of it)."""
        seat = unit.seat(player)
        name = (seat.ai_policy if seat else None) or self.default_ai
        state = unit.state if state is None else state
        # the public counter: an AI's choice must not depend on whether someone made a quiet move
        seed = (unit.lg.row.seed * 1_000_003 + unit.public_seq * 7 + player) % (1 << 62)
        try:
            action: Action = unit.lg.spec.make_policy(name, seed).choose(state, player)
            return action
        except Exception:
            log.exception("AI %s failed in game %s; playing its first legal action", name,
                          unit.lg.row.game_id)
            return unit.lg.game.legal_actions(state, player)[0]

    @off_loop
    def _run_ai(self, unit: Unit) -> bool:
        """Let AI actors move; True when the batch limit stopped them before a person must act."""
        game = unit.lg.game
        moved = 0
        while unit.status == "active" and not game.is_over(unit.state):
            ai = sorted(p for p in game.actors(unit.state) if (s := unit.seat(p)) is not None and s.is_ai)
            if not ai:
                if not self._play_forced(unit):  # a person's only move is played for them, and AI goes on
                    return False
                moved += 1
                continue
            if moved >= self.ai_batch:
                return True
            try:
                self._apply(unit, self._ai_choice(unit, ai[0]), "ai", None)
            except ServiceError:
                log.exception("AI move refused in game %s; playing the first legal action",
                              unit.lg.row.game_id)
                try:
                    self._apply(unit, game.legal_actions(unit.state, ai[0])[0], "ai", None)
                except (ServiceError, IndexError):
                    log.exception("AI seat %s of game %s is stuck", ai[0], unit.lg.row.game_id)
                    return False
            moved += 1
        return False

    def _play_forced(self, unit: Unit) -> bool:
        """Play one person's only move, if a person who must act has one that tells nobody anything
        (:meth:`engine.core.Game.forced`), saying so in public after what it did; False when every person
        must choose."""
        game = unit.lg.game
        for player in sorted(game.actors(unit.state)):
            seat = unit.seat(player)
            if seat is None or not seat.is_human:
                continue
            move = game.forced(unit.state, player)
            if move is None or self._would_seal(unit, player, move):
                continue
            names = unit.names()
            decision = decide(game, unit.state, player, names)  # the choice's words, from their view: theirs
            choice = next((c.label for c in decision.choices if c.action == move), "") if decision else ""
            self._apply(unit, move, "forced", None)  # nobody chose it
            # the table hears that the seat had no choice; only its person hears which (a card's name)
            unit.notice(NoticeKind.forced, seat=player, name=names[player])
            if choice and seat.user_id is not None:
                unit.notice(NoticeKind.forced, (seat.user_id,), seat=player, name=names[player],
                            choice=choice)
            return True
        return False

    @staticmethod
    def _would_seal(unit: Unit, player: PlayerId, move: Action) -> bool:
        """Whether playing ``move`` for ``player`` would make their own last move final (they may still
        take it back, and this move may not be): then it is theirs to confirm, or to undo what led to
        it, as a person at the table would ("end the turn" after a move they might take back)."""
        if taken_back(unit.undo, player) is None:
            return False
        game = unit.lg.game
        return not game.undoable(unit.state, move, game.apply(unit.state, move))

    def _seat_to_ai(self, unit: Unit, seat: SeatRow, why: str) -> None:
        before = unit.names()
        # "AI for bob" reads as one name before the colour ("AI for bob (Green)"); a "bob (AI)" label
        # once gave "bob (AI) (Green)", two brackets in a row
        named = seat.is_ai or seat.display_name.startswith("AI")
        name = seat.display_name if named else f"AI for {seat.display_name}"
        unit.seats[seat.slot] = replace(seat, user_id=None, is_ai=True, display_name=name[:MAX_NAME],
                                        ai_policy=seat.ai_policy or self.default_ai)
        order = seat.seat_order
        unit.notice(NoticeKind.resigned if why == "resigned" else NoticeKind.seat_replaced, seat=order,
                    old_user_id=seat.user_id, ai=True, reason=why,
                    name=before[order] if order is not None and order < len(before) else seat.display_name)

    async def _finish(self, lg: Loaded, unit: Unit) -> Outcome:
        """Run AI moves and commit, in as many transactions as the AI batch needs."""
        notices: list[Notice] = []
        rows: list[int] = []
        held = False
        game_id = lg.row.game_id
        while True:
            more = await cpu(self._run_ai, unit)
            # while AI seats play on, the thread's rows wait, so it gets the command's burst whole (a game
            # the AI ends inside one command is one summary); a crash lets them go after HOLD_MS
            await self._commit(lg, unit, hold=more, release=held and not more)
            held = held or more
            notices += unit.notices
            rows += unit.outbox
            if not more:
                break
            # between batches the game's lock is let go: a reader of this game (its status, a view) and
            # other games are served meanwhile; then the AI goes on from what is stored
            await self._let_in(game_id)
            lg = await self._load(game_id)
            if lg.row.status != "active":  # paused or abandoned meanwhile: what was held goes in HOLD_MS
                break
            unit = self._unit(lg)
        return Outcome(game_id, tuple(notices), self._status(lg), tuple(rows))

    async def _let_in(self, game_id: str) -> None:
        """Let whoever waits for this game's lock (held by the caller) go first, then take it back."""
        lock = self._locks.get(game_id)
        if lock is None or not lock.locked():
            await asyncio.sleep(0)
            return
        lock.release()
        try:
            await asyncio.sleep(0)
        finally:
            await lock.acquire()

    async def _commit_outcome(self, lg: Loaded, unit: Unit) -> Outcome:
        await self._commit(lg, unit)
        return Outcome(lg.row.game_id, tuple(unit.notices), self._status(lg), tuple(unit.outbox))

    async def _commit(self, lg: Loaded, unit: Unit, *, hold: bool = False, release: bool = False) -> None:
        """Write ``unit`` as one transaction and, once committed, adopt it as the game in memory;
        ``hold``: its public rows wait for the rest of the command, ``release``: what it held goes."""
        row = lg.row
        timers = unit.timers or row.timers
        clear_all = unit.status != "active"
        kept: list[Deadline] = []
        new: list[Deadline] = []
        if not clear_all and unit.state is not None:
            game = lg.game
            humans = {p for p in game.actors(unit.state) if (s := unit.seat(p)) is not None and s.is_human}
            waiting = {d.player for d in lg.deadlines
                       if d.kind == "turn" and d.player in humans and d.player not in unit.restart}
            kept = [d for d in lg.deadlines if d.player in waiting]
            self._settle_banks(lg, unit, timers, keep=waiting, moved=True)
            for player in sorted(humans - waiting):
                seat = unit.seat(player)
                assert seat is not None and seat.user_id is not None
                start = max(unit.now, seat.away_until)  # a vacation booked ahead delays the clock
                span = seat.bank_left if timers.bank_seconds and seat.bank_left is not None else timers.span
                clock = self._clock(row.game_id, unit.seq, player, seat.user_id, start, timers, span,
                                    lg.prefs.get(seat.user_id, "all"), lg.own_reminders.get(seat.user_id))
                new += clock
                # their own move left them to decide again with nobody else moving between: the same
                # turn goes on, and the fronts do not announce it again at every step of it
                goes_on = (player in unit.restart and bool(unit.actions)
                           and all(a.player == player for a in unit.actions)
                           and any(d.player == player and d.kind == "turn" for d in lg.deadlines))
                unit.notice(NoticeKind.your_turn, (seat.user_id,), seat=player, due_at=clock[0].due_at,
                            goes_on=goes_on)
                # a new turn: the game starts, or someone else moved before it (not a clock started
                # again by a resume, new timers or a seat taken back, nor their own turn going on)
                if row.status == "lobby" or any(a.player != player for a in unit.actions):
                    await self._tell_next(lg, unit, player)
        if clear_all and unit.status == "paused":  # the clocks stop: each bank keeps what was left
            self._settle_banks(lg, unit, timers, keep=set(), moved=False)
        fired = set(unit.fired)
        kept = [replace(d, fired=True) if d.deadline_id in fired else d for d in kept]
        # a moved clock keeps its ids (so scheduler jobs are replaced, not duplicated): rewrite its rows
        moved = [replace(d, due_at=d.due_at + unit.shift[d.player]) for d in kept if d.player in unit.shift]
        kept = [d for d in kept if d.player not in unit.shift] + moved
        gone = {d.player for d in lg.deadlines} - {d.player for d in kept}
        clear = sorted(gone | {d.player for d in moved})
        starts = row.status == "lobby" and unit.state is not None  # started (or over at once): its rules
        change = GameChange(
            game_id=row.game_id, expected_seq=row.seq, updated_at=unit.now, new_seq=unit.seq,
            expected_status=row.status, status=unit.status if unit.status != row.status else None,
            result=unit.result, actions=unit.actions,
            snapshot=Snapshot(row.game_id, unit.seq, await cpu(self._dumps, unit))
            if unit.state_changed else None,
            checkpoints=unit.checkpoints,
            seats_upsert=[s for slot, s in unit.seats.items() if lg.seats.get(slot) != s],
            seats_delete=unit.deleted_slots,
            clear_all_deadlines=clear_all and bool(lg.deadlines),
            clear_deadlines_for=[] if clear_all else clear,
            new_deadlines=new + moved, fire_deadlines=[d for d in unit.fired if not clear_all],
            timers=unit.timers, creator_id=unit.creator,
            rules_version=lg.spec.rules_version() if starts else None,
            undo_clear=unit.undo_clear, undo_drop=unit.undo_drop, undo_points=unit.undo_points,
            voided=unit.voided, departures=unit.departures,
            new_quiet=unit.quiet if unit.quiet != row.quiet else None,
            hold_public_ms=int(time.time() * 1000) + HOLD_MS if hold else None, release_held=release,
        )
        # the notices go into the outbox in this same transaction: a crash after the commit loses none
        to_move = [] if clear_all or unit.state is None else sorted(
            {s.user_id for p in lg.game.actors(unit.state) if (s := unit.seat(p)) is not None and s.is_human
             and s.user_id is not None})
        # quiet moves alone change nothing the table sees: not even the pinned status is looked at again
        quiet_only = bool(unit.actions) and unit.quiet - row.quiet == len(unit.actions)
        change.outbox = route(row.game_id, unit.notices, waiting=to_move,
                              started=unit.status != "lobby" and not quiet_only)
        try:
            with saving():
                unit.outbox = await self.store.apply_change(change)
        except StoreConflict as exc:
            self.forget(row.game_id)
            raise ServiceError("conflict", "The game changed meanwhile; please try again.") from exc
        except BaseException:
            self.forget(row.game_id)
            raise
        lg.row = replace(row, seq=unit.seq, quiet=unit.quiet, status=unit.status, updated_at=unit.now,
                         timers=timers,
                         result=unit.result if unit.result is not None else row.result,
                         creator_id=row.creator_id if unit.creator is None else unit.creator)
        lg.seats = dict(unit.seats)
        lg.state = unit.state
        lg.undo = list(unit.undo)
        if change.rules_version is not None:
            lg.rules_version = change.rules_version
        lg.deadlines = sorted(kept + new, key=lambda d: (d.due_at, d.deadline_id))
        self._remember(lg)

    async def _tell_next(self, lg: Loaded, unit: Unit, player: PlayerId) -> None:
        """"You're next", by DM, to the person of the seat the game names as moving after ``player``
        (:meth:`engine.core.Game.up_next`), who starts their move now: if that person asked for it
        (:attr:`bot.models.UserSettings.up_next`), plays the seat themselves and is not ``player``'s."""
        following = lg.game.up_next(unit.state)
        seat = unit.seat(following) if following is not None and following != player else None
        mover = unit.seat(player)
        if seat is None or not seat.is_human or seat.user_id is None or mover is None \
                or mover.user_id == seat.user_id:
            return
        if not (await self.store.get_user_settings(seat.user_id)).up_next:
            return
        unit.notice(NoticeKind.up_next, (seat.user_id,), seat=player, name=unit.names()[player],
                    title=lg.spec.title, next_seat=following)

    @staticmethod
    @off_loop
    def _dumps(unit: Unit) -> str:
        """The unit's state as stored (a large game's JSON takes milliseconds)."""
        return unit.lg.game.dumps(unit.state)

    @staticmethod
    def _settle_banks(lg: Loaded, unit: Unit, timers: TimerSettings, *, keep: set[int], moved: bool) -> None:
        """With a time bank: each seat whose running clock stops now (all but ``keep``) keeps what was left
        of it, plus the increment when it stops because the seat moved (or was moved for: a time-out)."""
        if not timers.bank_seconds:
            return
        for d in lg.deadlines:
            seat = unit.seat(d.player)
            if d.kind != "turn" or d.player in keep or seat is None:
                continue
            left = max(d.due_at - unit.now, 0)
            unit.seats[seat.slot] = replace(seat, bank_left=timers.banked(left) if moved else left)

    @staticmethod
    def _clock(game_id: str, seq: int, player: PlayerId, user_id: int, now: int, timers: TimerSettings,
               span: int, pref: ReminderPreference, own: tuple[int, ...] | None = None) -> list[Deadline]:
        """A player's clock: its turn deadline ``span`` seconds after ``now`` (the time per move, or what
        is left of their bank), and the reminders that fit in it."""
        due = now + span
        base = f"{game_id}:{seq}:{player}"
        out = [Deadline(f"{base}:turn", game_id, seq, player, user_id, "turn", due)]
        # personal reminder times replace the game's; those that do not fit in a move are skipped
        offsets = sorted({o for o in own if o < span} if own is not None
                         else {o for o in timers.reminder_offsets if o < span})
        if pref == "none":
            offsets = []
        elif pref == "last":
            offsets = offsets[:1]
        out += [Deadline(f"{base}:remind:{o}", game_id, seq, player, user_id, "reminder", due - o)
                for o in offsets if due - o > now]
        return out

    @staticmethod
    def _can_undo(lg: Loaded, user_id: int) -> bool:
        """Whether an undo would take back a move of ``user_id``'s seat now (the engine's rule)."""
        seat = lg.seat_of_user(user_id)
        if lg.row.status != "active" or seat is None or seat.seat_order is None or seat.is_ai:
            return False
        return taken_back(lg.undo, seat.seat_order) is not None

    def _status(self, lg: Loaded) -> GameStatus:
        row = lg.row
        actors: tuple[int, ...] = ()
        if lg.state is not None and row.status in ("active", "paused"):
            actors = tuple(sorted(lg.game.actors(lg.state)))
        waiting = tuple(u for p in actors if (s := lg.seat_of_player(p)) and s.is_human
                        and (u := s.user_id) is not None)
        result = row.result or {}
        return GameStatus(
            game_id=row.game_id, ruleset=row.ruleset, title=lg.spec.title, status=row.status,
            seq=row.public_seq,
            creator_id=row.creator_id, max_seats=row.max_seats, min_seats=lg.spec.min_players,
            seats=tuple(SeatInfo(s.slot, s.seat_order, s.user_id, s.display_name, s.colour, s.is_ai,
                                 s.missed_deadlines,
                                 (s.bank_left if s.bank_left is not None else row.timers.bank_seconds)
                                 if row.timers.bank_seconds else None) for s in lg.ordered()),
            actors=actors, waiting_for=waiting, deadlines=tuple(lg.deadlines), timers=row.timers,
            guild_id=row.guild_id, channel_id=row.channel_id, thread_id=row.thread_id,
            scores=tuple(result["scores"]) if "scores" in result else None,
            ranking=tuple(result["ranking"]) if "ranking" in result else None,
            places=tuple(tuple(place) for place in result["places"]) if "places" in result else None,
            seat_names=lg.names(),
            # a result stored before games recorded why they ended has no reason to say
            why=ended.why if (ended := GameOutcome.from_json(result)) is not None else None,
        )

    # == checks ==========================================================================
    @staticmethod
    def _require_lobby(lg: Loaded) -> None:
        if lg.row.status != "lobby":
            raise ServiceError("not_in_lobby", "The game has already started.", status=lg.row.status)

    @staticmethod
    def _require_not_finished(lg: Loaded) -> None:
        if lg.row.status in ("over", "abandoned"):
            raise ServiceError("finished", f"The game is {lg.row.status}.", status=lg.row.status)

    @staticmethod
    def _require_active(lg: Loaded) -> None:
        status = lg.row.status
        if status == "lobby":
            raise ServiceError("not_started", "The game has not started yet.")
        if status == "paused":
            raise ServiceError("paused", "The game is paused.")
        if status != "active":
            raise ServiceError("finished", f"The game is {status}.", status=status)

    @staticmethod
    def _check_policy(lg: Loaded, policy: str) -> str:
        if policy not in lg.spec.policy_names:
            raise ServiceError("bad_policy", f"{lg.spec.title} has no AI called {policy!r}; it has "
                               f"{', '.join(lg.spec.policy_names)}.", policy=policy)
        return policy

    async def _refresh_prefs(self, lg: Loaded, users: Sequence[int]) -> None:
        for user in users:
            adopt_settings(lg, await self.store.get_user_settings(user))
