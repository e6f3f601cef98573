"""The game service: lobbies, moves, AI seats, timeouts. No Discord here.

Transports (the Discord adapter, the console) call these coroutines and turn
the returned :class:`~bot.models.Outcome` notices into messages; the scheduler
arms the deadline rows the service writes and calls :meth:`GameService.fire_deadline`.

Guarantees:
    * Every change of a game is ONE store transaction that appends the actions,
      replaces the current snapshot (plus a checkpoint every K actions), updates
      the seats and the deadlines of the players who must act next.
    * Work on one game is serialised by a per-game ``asyncio.Lock``; different
      games proceed concurrently (their writes share the store's one writer).
    * ``submit`` carries the seq the player saw; a stale seq is refused, so a
      double click or two racing players never apply an action twice.
    * Bad input raises :class:`ServiceError` with a stable ``code`` and a clear
      message, and changes nothing.

Deadlines (for the scheduler):
    A human player who must act has one ``turn`` row and one ``reminder`` row
    per reminder offset (fewer if the person asked for fewer). A player's clock
    restarts whenever they act or become an actor; other waiting actors keep
    theirs. Rows leave the table when their player stops being an actor, when
    the game is paused, ends or is abandoned; resuming starts fresh clocks. Ids
    are stable strings (``"<game>:<seq>:<player>:turn"``), usable as job ids.
    The scheduler should: at start-up call :meth:`GameService.startup`, then
    :meth:`GameService.pending_deadlines`, fire overdue rows at once and arm the
    rest; re-arm a game's jobs from ``outcome.status.deadlines`` in a listener
    (:meth:`GameService.subscribe`); sweep ``pending_deadlines`` every minute.
    :meth:`GameService.fire_deadline` is idempotent and returns None for rows
    that are fired, gone, stale or not yet due.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import logging
import random
import secrets
import weakref
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, replace
from typing import Any

from bot.clock import Clock, SystemClock
from bot.models import (
    PUBLIC,
    ActionRow,
    ActionSource,
    Deadline,
    GameChange,
    GameRow,
    GameStatus,
    GameStatusName,
    LogEntry,
    Notice,
    Outcome,
    ReminderPreference,
    SeatInfo,
    SeatRow,
    Snapshot,
    TimerSettings,
    UserSettings,
)
from bot.store import Store, StoreConflict
from engine.core import Action, Game, IllegalAction, PlayerId
from engine.registry import get_game, make_policy

log = logging.getLogger(__name__)

DEFAULT_COLOURS = ("Red", "Blue", "Green", "Yellow", "Purple", "Orange", "Black", "White")
PASSIVE_KINDS = ("done", "end_turn", "keep", "pass")
MAX_NAME = 64
DEFAULT_VACATION_DAYS = 14
DAY = 24 * 3600
LOG_CACHE = 64  # games whose public-log replay is kept in memory
Listener = Callable[[Outcome], Awaitable[None] | None]


class ServiceError(Exception):
    """A refused request; nothing was changed.

    Attributes:
        code: stable reason: ``no_such_game``, ``unknown_game``, ``bad_options``,
            ``bad_seats``, ``bad_timers``, ``bad_name``, ``bad_policy``, ``not_in_lobby``,
            ``lobby_full``, ``already_seated``, ``not_enough_players``, ``not_seated``,
            ``not_allowed``, ``not_started``, ``paused``, ``not_paused``, ``finished``,
            ``stale``, ``not_your_turn``, ``not_ai``, ``conflict``, ``engine_error``,
            ``bad_days``, ``vacation_cap``,
            or an engine :class:`~engine.core.IllegalAction` code (``bad_action``, ...).
        message: a sentence for the person who asked.
        params: the values the message was built from.
    """

    def __init__(self, code: str, message: str, **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.params = params


@dataclass
class _Loaded:
    """A game in memory: its row, seats by slot, engine state and deadline rows."""

    row: GameRow
    game: Game
    seats: dict[int, SeatRow]
    state: Any
    deadlines: list[Deadline]
    prefs: dict[int, ReminderPreference]
    own_reminders: dict[int, tuple[int, ...]] = field(default_factory=dict)  # personal reminder times

    def seat_of_player(self, player: PlayerId) -> SeatRow | None:
        for seat in self.seats.values():
            if seat.seat_order == player:
                return seat
        return None

    def seat_of_user(self, user_id: int) -> SeatRow | None:
        for seat in self.seats.values():
            if seat.user_id == user_id:
                return seat
        return None

    def ordered(self) -> list[SeatRow]:
        return sorted(self.seats.values(), key=lambda s: (s.seat_order is None, s.seat_order or 0, s.slot))


@dataclass(frozen=True)
class _Replay:
    """A replay of a game's log up to ``seq``: the state there and the public events so far."""

    seq: int
    state: Any
    entries: tuple[LogEntry, ...]


def _replay_public(game: Game, players: int, options: Mapping[str, Any], seed: int, start: _Replay,
                   actions: Sequence[ActionRow]) -> _Replay:
    """Continue ``start`` with ``actions`` (runs in a worker thread; the engine is pure)."""
    state = game.setup(players, options, seed) if start.state is None else start.state
    entries = list(start.entries)
    seq = start.seq
    for row in actions:
        if row.seq != seq + 1:
            raise ServiceError("corrupt", f"The log jumps from {seq} to {row.seq}.")
        result = game.apply(state, game.codec.decode(row.action))
        state, seq = result.state, row.seq
        entries += [LogEntry(row.seq, row.player, row.source, row.created_at, e.type, dict(e.data))
                    for e in result.events if isinstance(e.audience, str)]
    return _Replay(seq, state, tuple(entries))


@dataclass
class _Unit:
    """One transaction's worth of changes to a loaded game, built in memory first."""

    lg: _Loaded
    now: int
    state: Any
    seq: int
    status: GameStatusName
    actions: list[ActionRow] = field(default_factory=list)
    checkpoints: list[Snapshot] = field(default_factory=list)
    notices: list[Notice] = field(default_factory=list)
    seats: dict[int, SeatRow] = field(default_factory=dict)
    deleted_slots: list[int] = field(default_factory=list)
    restart: set[int] = field(default_factory=set)  # players whose clocks restart
    shift: dict[int, int] = field(default_factory=dict)  # players whose running clocks move (vacation)
    fired: list[str] = field(default_factory=list)
    result: dict[str, Any] | None = None
    timers: TimerSettings | None = None
    state_changed: bool = False

    def seat(self, player: PlayerId) -> SeatRow | None:
        for seat in self.seats.values():
            if seat.seat_order == player:
                return seat
        return None

    def notice(self, type_: str, audience: str | tuple[int, ...] = PUBLIC, **data: Any) -> None:
        self.notices.append(Notice(self.lg.row.game_id, type_, data, audience, self.seq))


class GameService:
    """Runs games on top of a :class:`~bot.store.Store`.

    Args:
        store: an open store.
        clock: where time comes from (a FakeClock in tests).
        checkpoint_every: keep a checkpoint every K actions.
        cache_size: games kept parsed in memory (0 reloads from the database every call).
        ai_batch: most AI actions written per transaction before yielding to other games.
        default_ai: the AI policy for new AI seats and autopilot.
        vacation_days: the most days away each seat may declare per game (see :meth:`vacation`).
        id_factory: makes new game ids (default: 8 random lowercase letters/digits).
        seed_factory: makes new game seeds (default: 62 random bits).
    """

    def __init__(
        self,
        store: Store,
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
        self._new_id = id_factory or _random_id
        self._new_seed = seed_factory or (lambda: secrets.randbits(62))
        self._cache: OrderedDict[str, _Loaded] = OrderedDict()
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
        self._listeners: list[Listener] = []
        self._logs: OrderedDict[str, _Replay] = OrderedDict()  # game id -> its last public-log replay

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

    # == lobby ===========================================================================
    async def create_lobby(
        self,
        creator_id: int,
        creator_name: str,
        ruleset: str,
        *,
        options: Mapping[str, Any] | None = None,
        max_seats: int | None = None,
        timers: TimerSettings | None = None,
        guild_id: int | None = None,
        channel_id: int | None = None,
        thread_id: int | None = None,
        seed: int | None = None,
        creator_joins: bool = True,
    ) -> Outcome:
        """Open a lobby for ``ruleset`` (e.g. ``"history-classic"``); the creator takes the first seat.

        Raises:
            ServiceError: unknown game, bad options, seats outside the game's range, bad timers.
        """
        game = _game_or_error(ruleset)
        max_seats = game.max_players if max_seats is None else max_seats
        if not game.min_players <= max_seats <= game.max_players:
            raise ServiceError("bad_seats", f"{game.title} is for {game.min_players} to {game.max_players} "
                               f"players, not {max_seats}.", min=game.min_players, max=game.max_players)
        timers = timers or TimerSettings()
        problems = timers.problems()
        if problems:
            raise ServiceError("bad_timers", " ".join(problems))
        opts = dict(options or {})
        seed = self._new_seed() if seed is None else int(seed)
        try:
            game.setup(game.min_players, opts, seed)  # validates the options
        except IllegalAction as exc:
            raise ServiceError("bad_options", exc.message, **exc.params) from exc
        name = _clean_name(creator_name)
        now = self._now()
        for _ in range(5):
            row = GameRow(game_id=self._new_id(), ruleset=ruleset, options=opts, seed=seed, status="lobby",
                          creator_id=creator_id, max_seats=max_seats, created_at=now, updated_at=now,
                          timers=timers, guild_id=guild_id, channel_id=channel_id, thread_id=thread_id)
            seats = [SeatRow(row.game_id, 0, name, now, user_id=creator_id)] if creator_joins else []
            try:
                await self.store.create_game(row, seats)
                break
            except StoreConflict:
                continue
        else:
            raise ServiceError("conflict", "Could not find a free game id; please try again.")
        lg = _Loaded(row, game, {s.slot: s for s in seats}, None, [], {})
        await self._refresh_prefs(lg, [creator_id] if creator_joins else [])
        self._remember(lg)
        notice = Notice(row.game_id, "lobby_opened", {"ruleset": ruleset, "title": game.title,
                                                      "creator": creator_id}, PUBLIC, 0)
        return await self._publish(Outcome(row.game_id, (notice,), self._status(lg)))

    async def join(self, game_id: str, user_id: int, display_name: str) -> Outcome:
        """Take a free seat in a lobby."""
        async with self._locked(game_id):
            lg = await self._load(game_id)
            self._require_lobby(lg)
            if lg.seat_of_user(user_id) is not None:
                raise ServiceError("already_seated", "You already have a seat in this game.")
            if len(lg.seats) >= lg.row.max_seats:
                raise ServiceError("lobby_full", "This game is full.", max=lg.row.max_seats)
            await self._refresh_prefs(lg, [user_id])
            unit = self._unit(lg)
            seat = SeatRow(game_id, _next_slot(lg), _clean_name(display_name), unit.now, user_id=user_id)
            unit.seats[seat.slot] = seat
            unit.notice("player_joined", user_id=user_id, name=seat.display_name)
            outcome = await self._commit_outcome(lg, unit)
        return await self._publish(outcome)

    async def leave(self, game_id: str, user_id: int) -> Outcome:
        """Give up one's seat in a lobby (in a running game, use :meth:`resign`)."""
        async with self._locked(game_id):
            lg = await self._load(game_id)
            seat = lg.seat_of_user(user_id)
            if seat is None:
                raise ServiceError("not_seated", "You have no seat in this game.")
            if lg.row.status != "lobby":
                raise ServiceError("not_in_lobby", "The game has started; use resign to leave it.")
            unit = self._unit(lg)
            del unit.seats[seat.slot]
            unit.deleted_slots.append(seat.slot)
            unit.notice("player_left", user_id=user_id, name=seat.display_name)
            outcome = await self._commit_outcome(lg, unit)
        return await self._publish(outcome)

    async def add_ai(
        self, game_id: str, by_user_id: int, *, is_admin: bool = False, policy: str | None = None,
        name: str | None = None,
    ) -> Outcome:
        """Add an AI seat to a lobby (the creator or an admin)."""
        async with self._locked(game_id):
            lg = await self._load(game_id)
            _require_manager(lg, by_user_id, is_admin)
            self._require_lobby(lg)
            if len(lg.seats) >= lg.row.max_seats:
                raise ServiceError("lobby_full", "This game is full.", max=lg.row.max_seats)
            policy = self._check_policy(lg.row.ruleset, policy or self.default_ai)
            unit = self._unit(lg)
            slot = _next_slot(lg)
            label = _clean_name(name) if name else f"AI {sum(s.is_ai for s in lg.seats.values()) + 1}"
            unit.seats[slot] = SeatRow(game_id, slot, label, unit.now, is_ai=True, ai_policy=policy)
            unit.notice("seat_added", name=label, ai=True)
            outcome = await self._commit_outcome(lg, unit)
        return await self._publish(outcome)

    async def kick(
        self, game_id: str, by_user_id: int, target_user_id: int, *, is_admin: bool = False
    ) -> Outcome:
        """Remove a player (creator or admin): from a lobby, or hand their seat to the AI."""
        async with self._locked(game_id):
            lg = await self._load(game_id)
            _require_manager(lg, by_user_id, is_admin)
            seat = lg.seat_of_user(target_user_id)
            if seat is None:
                raise ServiceError("not_seated", "That person has no seat in this game.")
            self._require_not_finished(lg)
            unit = self._unit(lg)
            if lg.row.status == "lobby":
                del unit.seats[seat.slot]
                unit.deleted_slots.append(seat.slot)
                unit.notice("player_left", user_id=target_user_id, name=seat.display_name, kicked=True)
                outcome = await self._commit_outcome(lg, unit)
            else:
                self._seat_to_ai(unit, seat, "kicked")
                outcome = await self._finish(lg, unit)
        return await self._publish(outcome)

    async def start(self, game_id: str, by_user_id: int, *, is_admin: bool = False) -> Outcome:
        """Start the game (creator or admin): draw the seat order from the game's seed and set up."""
        async with self._locked(game_id):
            lg = await self._load(game_id)
            _require_manager(lg, by_user_id, is_admin)
            self._require_lobby(lg)
            n = len(lg.seats)
            if n < lg.game.min_players:
                raise ServiceError("not_enough_players", f"{lg.game.title} needs at least "
                                   f"{lg.game.min_players} players; {n} seated.", needed=lg.game.min_players)
            await self._refresh_prefs(lg, [s.user_id for s in lg.seats.values() if s.user_id is not None])
            slots = sorted(lg.seats)
            random.Random(f"annals-seats:{lg.row.seed}").shuffle(slots)
            colours: Sequence[str] = getattr(lg.game, "colours", DEFAULT_COLOURS)
            try:
                state = lg.game.setup(n, lg.row.options, lg.row.seed)
            except IllegalAction as exc:
                raise ServiceError("bad_options", exc.message, **exc.params) from exc
            unit = self._unit(lg)
            for order, slot in enumerate(slots):
                colour = colours[order % len(colours)]
                unit.seats[slot] = replace(lg.seats[slot], seat_order=order, colour=colour)
            unit.state, unit.status, unit.state_changed = state, "active", True
            table = [unit.seats[s] for s in slots]
            unit.notice("game_started", seats=[{"seat": s.seat_order, "name": s.display_name,
                                                "user_id": s.user_id, "ai": s.is_ai} for s in table])
            outcome = await self._finish(lg, unit)
        return await self._publish(outcome)

    # == play ============================================================================
    async def submit(
        self, game_id: str, user_id: int, action_json: str | Mapping[str, Any], seq_seen: int
    ) -> Outcome:
        """Apply a player's action, then let AI seats move until a person must act or the game ends.

        Args:
            action_json: the action as JSON text or object (``{"kind": "expand", "land": "Levant"}``);
                ``player`` may be omitted (it is the caller's seat).
            seq_seen: the game's seq the player's choice was built against.

        Raises:
            ServiceError: ``stale`` when ``seq_seen`` is not the current seq; ``not_seated``,
                ``not_your_turn``, ``paused``...; engine codes for illegal actions.
        """
        async with self._locked(game_id):
            lg = await self._load(game_id)
            self._require_active(lg)
            seat = lg.seat_of_user(user_id)
            if seat is None or seat.seat_order is None:
                raise ServiceError("not_seated", "You have no seat in this game.")
            if seat.is_ai:
                raise ServiceError("not_seated", "The AI holds your seat; take it back first.")
            player = seat.seat_order
            action = _decode(lg.game, action_json, player)
            # Standing preferences and the like: any seated player, any time, whatever they saw,
            # and no clock of theirs starts over for it.
            anytime = action.kind in getattr(lg.game, "anytime_kinds", frozenset())
            if not anytime and seq_seen != lg.row.seq:
                raise ServiceError("stale", "The board has changed since you looked; please look again.",
                                   seen=seq_seen, current=lg.row.seq)
            if not anytime and player not in lg.game.actors(lg.state):
                raise ServiceError("not_your_turn", "It is not your turn.")
            unit = self._unit(lg)
            self._apply(unit, action, "human", user_id)
            if not anytime:
                unit.restart.add(player)
                if seat.missed_deadlines:
                    unit.seats[seat.slot] = replace(seat, missed_deadlines=0)
            outcome = await self._finish(lg, unit)
        return await self._publish(outcome)

    async def resign(self, game_id: str, user_id: int) -> Outcome:
        """Leave a running game for good; the AI plays the seat to the end."""
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
            outcome = await self._finish(lg, unit)
        return await self._publish(outcome)

    async def replace_seat(
        self, game_id: str, by_user_id: int, seat: int, *, new_user_id: int | None = None,
        new_name: str | None = None, is_admin: bool = False,
    ) -> Outcome:
        """Give seat ``seat`` (engine player id) to another person, or to the AI when ``new_user_id`` is None.

        The creator or an admin may replace anyone; a player may hand over their own seat.
        """
        async with self._locked(game_id):
            lg = await self._load(game_id)
            current = lg.seat_of_player(seat)
            if current is None:
                raise ServiceError("bad_seats", f"There is no seat {seat} in this game.", seat=seat)
            own = current.user_id is not None and current.user_id == by_user_id
            if not own:
                _require_manager(lg, by_user_id, is_admin)
            if lg.row.status == "lobby":
                raise ServiceError("not_started", "The game has not started; seats change by join and leave.")
            self._require_not_finished(lg)
            unit = self._unit(lg)
            if new_user_id is None:
                self._seat_to_ai(unit, current, "replaced")
            else:
                if lg.seat_of_user(new_user_id) is not None:
                    raise ServiceError("already_seated", "That person already has a seat in this game.")
                name = _clean_name(new_name or f"Player {new_user_id}")
                await self._refresh_prefs(lg, [new_user_id])
                unit.seats[current.slot] = replace(current, user_id=new_user_id, display_name=name,
                                                   is_ai=False, ai_policy=None, missed_deadlines=0)
                unit.restart.add(seat)
                unit.notice("seat_replaced", seat=seat, old_user_id=current.user_id, user_id=new_user_id,
                            name=name)
            outcome = await self._finish(lg, unit)
        return await self._publish(outcome)

    async def reclaim(self, game_id: str, user_id: int) -> Outcome:
        """Take back one's seat from the AI after it took over on missed deadlines."""
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
            unit.notice("seat_reclaimed", seat=seat.seat_order, user_id=user_id, name=seat.display_name)
            outcome = await self._finish(lg, unit)
        return await self._publish(outcome)

    async def pause(self, game_id: str, by_user_id: int, *, is_admin: bool = False) -> Outcome:
        """Stop the clocks and refuse moves until :meth:`resume` (creator or admin)."""
        async with self._locked(game_id):
            lg = await self._load(game_id)
            _require_manager(lg, by_user_id, is_admin)
            if lg.row.status != "active":
                raise ServiceError("not_started" if lg.row.status == "lobby" else
                                   "paused" if lg.row.status == "paused" else "finished",
                                   "Only a running game can be paused.", status=lg.row.status)
            unit = self._unit(lg)
            unit.status = "paused"
            unit.notice("paused", by=by_user_id)
            outcome = await self._commit_outcome(lg, unit)
        return await self._publish(outcome)

    async def resume(self, game_id: str, by_user_id: int, *, is_admin: bool = False) -> Outcome:
        """Restart a paused game; every player who must act gets a fresh clock."""
        async with self._locked(game_id):
            lg = await self._load(game_id)
            _require_manager(lg, by_user_id, is_admin)
            if lg.row.status != "paused":
                raise ServiceError("not_paused", "The game is not paused.", status=lg.row.status)
            unit = self._unit(lg)
            unit.status = "active"
            unit.notice("resumed", by=by_user_id)
            outcome = await self._finish(lg, unit)
        return await self._publish(outcome)

    async def abandon(self, game_id: str, by_user_id: int, *, is_admin: bool = False) -> Outcome:
        """End the game without a result (creator or admin); its log stays."""
        async with self._locked(game_id):
            lg = await self._load(game_id)
            _require_manager(lg, by_user_id, is_admin)
            self._require_not_finished(lg)
            unit = self._unit(lg)
            unit.status = "abandoned"
            unit.notice("abandoned", by=by_user_id)
            outcome = await self._commit_outcome(lg, unit)
        return await self._publish(outcome)

    async def set_timers(
        self, game_id: str, by_user_id: int, timers: TimerSettings, *, is_admin: bool = False
    ) -> Outcome:
        """Change the timer settings (creator or admin); running clocks restart with them."""
        problems = timers.problems()
        if problems:
            raise ServiceError("bad_timers", " ".join(problems))
        async with self._locked(game_id):
            lg = await self._load(game_id)
            _require_manager(lg, by_user_id, is_admin)
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
            running = _turn_due(lg, player)
            if running is not None:
                unit.seats[seat.slot] = replace(seat, vacation_days_used=used + days)
                unit.shift[player] = days * DAY
                due = running + days * DAY
            else:
                away = max(seat.away_until, unit.now) + days * DAY
                unit.seats[seat.slot] = replace(seat, vacation_days_used=used + days, away_until=away)
                due = None
            unit.notice("vacation", seat=player, user_id=user_id, name=seat.display_name, days=days,
                        used=used + days, cap=cap, due_at=due,
                        away_until=unit.seats[seat.slot].away_until)
            outcome = await self._commit_outcome(lg, unit)
        return await self._publish(outcome)

    # == people ==========================================================================
    async def user_settings(self, user_id: int) -> UserSettings:
        """A person's notification settings."""
        return await self.store.get_user_settings(user_id)

    async def set_user_settings(self, settings: UserSettings) -> None:
        """Store a person's notification settings (reminders apply from their next clock on).

        Raises:
            ServiceError: ``bad_settings`` (e.g. a reminder time outside 1 minute to 14 days).
        """
        problems = settings.problems()
        if problems:
            raise ServiceError("bad_settings", " ".join(problems))
        await self.store.set_user_settings(settings, self._now())
        for lg in self._cache.values():
            if settings.user_id in lg.prefs or lg.seat_of_user(settings.user_id) is not None:
                _adopt_settings(lg, settings)

    async def set_thread(self, game_id: str, thread_id: int | None) -> None:
        """Remember the game's own Discord thread (where its public notices go from now on)."""
        async with self._locked(game_id):
            await self._load(game_id)  # refuses an unknown game
            await self.store.set_thread(game_id, thread_id, self._now())
            self.forget(game_id)

    async def _refresh_prefs(self, lg: _Loaded, users: Sequence[int]) -> None:
        for user in users:
            _adopt_settings(lg, await self.store.get_user_settings(user))

    # == reading =========================================================================
    async def status(self, game_id: str) -> GameStatus:
        """The game's summary (seats, whose turn, deadlines, scores)."""
        async with self._locked(game_id):
            return self._status(await self._load(game_id))

    async def view(self, game_id: str, user_id: int | None) -> dict[str, Any]:
        """The engine's view of the game for ``user_id`` (a spectator if not seated)."""
        async with self._locked(game_id):
            lg = await self._load(game_id)
            if lg.state is None:
                raise ServiceError("not_started", "The game has not started yet.")
            seat = lg.seat_of_user(user_id) if user_id is not None else None
            view = lg.game.view(lg.state, seat.seat_order if seat else None)
            view["seq"] = lg.row.seq
            return view

    async def legal_actions(self, game_id: str, user_id: int) -> tuple[int, list[dict[str, Any]]]:
        """(seq, the caller's legal actions as JSON objects); empty when it is not their turn."""
        async with self._locked(game_id):
            lg = await self._load(game_id)
            seat = lg.seat_of_user(user_id)
            if lg.state is None or seat is None or seat.seat_order is None or lg.row.status != "active":
                return lg.row.seq, []
            return lg.row.seq, [a.to_json() for a in lg.game.legal_actions(lg.state, seat.seat_order)]

    async def engine_state(self, game_id: str) -> tuple[int, Any]:
        """(seq, engine state) of a started game: for AI drivers, tests and tools, not for players."""
        async with self._locked(game_id):
            lg = await self._load(game_id)
            return lg.row.seq, lg.state

    async def public_log(self, game_id: str) -> tuple[int, list[LogEntry]]:
        """(seq, every public event of a started game so far, oldest first).

        Events are not stored: the action log is replayed from the seed, in a worker
        thread, and the last replay of each game is kept (with its state) so that the
        next call replays only the new actions. Events addressed to some players only
        (drawn cards, hands) are left out.
        """
        async with self._locked(game_id):
            lg = await self._load(game_id)
            if lg.state is None:
                raise ServiceError("not_started", "The game has not started yet.")
            row, game = lg.row, lg.game
            players = sum(1 for s in lg.seats.values() if s.seat_order is not None)
        cached = self._logs.get(game_id)
        if cached is not None and cached.seq == row.seq:
            self._logs.move_to_end(game_id)
            return cached.seq, list(cached.entries)
        if cached is None or cached.seq > row.seq:
            cached = _Replay(0, None, ())
        actions = await self.store.actions(game_id, after_seq=cached.seq, upto_seq=row.seq)
        replay = await asyncio.to_thread(_replay_public, game, players, row.options, row.seed, cached,
                                         actions)
        self._logs[game_id] = replay
        self._logs.move_to_end(game_id)
        while len(self._logs) > LOG_CACHE:
            self._logs.popitem(last=False)
        return replay.seq, list(replay.entries)

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
                unit.notice("reminder", (seat.user_id,) if seat.user_id is not None else (), seat=d.player,
                            due_at=_turn_due(lg, d.player))
                outcome = await self._commit_outcome(lg, unit)
            else:
                outcome = await self._timeout(lg, unit, seat, d.player)
        return await self._publish(outcome)

    async def _timeout(self, lg: _Loaded, unit: _Unit, seat: SeatRow, player: PlayerId) -> Outcome:
        timers = lg.row.timers
        missed = seat.missed_deadlines + 1
        seat = replace(seat, missed_deadlines=missed)
        unit.notice("timeout", seat=player, user_id=seat.user_id, name=seat.display_name, missed=missed,
                    policy=timers.timeout_policy)
        if timers.misses_before_ai and missed >= timers.misses_before_ai:
            seat = replace(seat, is_ai=True, ai_policy=seat.ai_policy or self.default_ai)
            unit.notice("autopilot", seat=player, user_id=seat.user_id, name=seat.display_name)
        unit.seats[seat.slot] = seat
        unit.restart.add(player)
        for _ in range(500):
            if lg.game.is_over(unit.state) or player not in lg.game.actors(unit.state):
                break
            if timers.timeout_policy == "skip":
                action = _passive(lg.game.legal_actions(unit.state, player)) or self._ai_choice(unit, player)
            else:
                action = self._ai_choice(unit, player)
            self._apply(unit, action, "timeout", None)
        return await self._finish(lg, unit)

    # == start-up and audit ==============================================================
    async def startup(self, *, verify: bool = False) -> list[Outcome]:
        """Bring running games back after a restart: AI seats that must move do, and missing clocks start.

        Args:
            verify: also replay every running game's full log from its seed and
                raise if any disagrees with its snapshot.
        """
        outcomes: list[Outcome] = []
        for row in await self.store.list_games(statuses=["active"]):
            if verify:
                problems = await self.verify_game(row.game_id)
                if problems:
                    raise ServiceError("corrupt", f"Game {row.game_id} failed verification: {problems}")
            async with self._locked(row.game_id):
                lg = await self._load(row.game_id)
                if not self._needs_attention(lg):
                    continue
                outcome = await self._finish(lg, self._unit(lg))
            outcomes.append(await self._publish(outcome))
        return outcomes

    @staticmethod
    def _needs_attention(lg: _Loaded) -> bool:
        """An AI seat must move, or a person must act without a clock running."""
        if lg.row.status != "active" or lg.state is None:
            return False
        clocks = {d.player for d in lg.deadlines if d.kind == "turn"}
        for player in lg.game.actors(lg.state):
            seat = lg.seat_of_player(player)
            if seat is not None and (seat.is_ai or (seat.is_human and player not in clocks)):
                return True
        return False

    async def verify_game(self, game_id: str) -> list[str]:
        """Replay the full log from the seed and compare it with the stored snapshot and checkpoints.

        Returns:
            Problems found (empty when consistent): gaps in the log, a snapshot
            ahead of the log, states that disagree, human actors without a clock.
        """
        row = await self.store.get_game(game_id)
        if row is None:
            return [f"no game {game_id}"]
        if row.status == "lobby":
            return []
        game = _game_or_error(row.ruleset)
        seats = await self.store.get_seats(game_id)
        ordered = [s for s in seats if s.seat_order is not None]
        problems: list[str] = []
        count, low, high = await self.store.log_bounds(game_id)
        if count and (low != 1 or high != count):
            problems.append(f"log not contiguous: {count} actions from {low} to {high}")
        if high != row.seq:
            problems.append(f"games.seq is {row.seq} but the log ends at {high}")
        snapshot = await self.store.snapshot(game_id)
        if snapshot is None:
            problems.append("no snapshot")
        elif snapshot.seq > high:
            problems.append(f"snapshot at {snapshot.seq} is ahead of the log ({high})")
        marks = {c.seq: c for c in await self.store.checkpoints(game_id)}
        if snapshot is not None:
            marks[snapshot.seq] = snapshot
        state = game.setup(len(ordered), row.options, row.seed)
        applied = 0
        for entry in await self.store.actions(game_id):
            state = game.apply(state, game.codec.decode(entry.action)).state
            applied = entry.seq
            mark = marks.get(applied)
            if mark is not None and _canon(game.to_json(state)) != _canon(json.loads(mark.state_json)):
                problems.append(f"replayed state at seq {applied} differs from the stored one")
        if snapshot is not None and snapshot.seq == 0 and _canon(game.to_json(
                game.setup(len(ordered), row.options, row.seed))) != _canon(json.loads(snapshot.state_json)):
            problems.append("the set-up state differs from the stored one")
        if row.status == "active":
            have = {d.player for d in await self.store.game_deadlines(game_id) if d.kind == "turn"}
            for player in game.actors(state):
                seat = next((s for s in ordered if s.seat_order == player), None)
                if seat is not None and seat.is_human and player not in have:
                    problems.append(f"player {player} must act but has no deadline")
        return problems

    # == internals: loading ==============================================================
    @asynccontextmanager
    async def _locked(self, game_id: str) -> AsyncIterator[None]:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[game_id] = lock
        async with lock:
            yield

    async def _load(self, game_id: str) -> _Loaded:
        cached = self._cache.get(game_id)
        if cached is not None:
            self._cache.move_to_end(game_id)
            return cached
        bundle = await self.store.load_bundle(game_id)
        if bundle is None:
            raise ServiceError("no_such_game", f"There is no game {game_id!r}.", game_id=game_id)
        row = bundle.game
        game = _game_or_error(row.ruleset)
        state: Any = None
        if row.status != "lobby":
            players = sum(1 for s in bundle.seats if s.seat_order is not None)
            base = 0
            if bundle.snapshot is not None:
                state, base = game.from_json(json.loads(bundle.snapshot.state_json)), bundle.snapshot.seq
            else:
                state = game.setup(players, row.options, row.seed)
            for entry in bundle.tail:
                if entry.seq != base + 1:
                    raise ServiceError("corrupt", f"Game {game_id}: the log jumps from {base} "
                                       f"to {entry.seq}.")
                state, base = game.apply(state, game.codec.decode(entry.action)).state, entry.seq
        lg = _Loaded(row, game, {s.slot: s for s in bundle.seats}, state, list(bundle.deadlines),
                     dict(bundle.reminder_prefs), dict(bundle.reminder_offsets))
        self._remember(lg)
        return lg

    def _remember(self, lg: _Loaded) -> None:
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

    def _unit(self, lg: _Loaded) -> _Unit:
        return _Unit(lg, self._now(), lg.state, lg.row.seq, lg.row.status, seats=dict(lg.seats))

    def _apply(self, unit: _Unit, action: Action, source: ActionSource, user_id: int | None) -> None:
        game = unit.lg.game
        try:
            result = game.apply(unit.state, action)
        except IllegalAction as exc:
            raise ServiceError(exc.code, exc.message, **exc.params) from exc
        except Exception as exc:
            log.exception("engine failed on %s in game %s", action, unit.lg.row.game_id)
            raise ServiceError("engine_error", "Something went wrong with that move; "
                               "nothing changed.") from exc
        unit.seq += 1
        unit.state, unit.state_changed = result.state, True
        gid = unit.lg.row.game_id
        unit.actions.append(
            ActionRow(gid, unit.seq, action.player, action.to_json(), source, unit.now, user_id))
        if unit.seq % self.checkpoint_every == 0:
            unit.checkpoints.append(Snapshot(gid, unit.seq, _state_json(game, unit.state)))
        for event in result.events:
            if isinstance(event.audience, str):
                unit.notices.append(Notice(gid, event.type, event.data, PUBLIC, unit.seq))
                continue
            seats = tuple(event.audience)
            users = tuple(sorted({s.user_id for p in seats if (s := unit.seat(p)) and s.user_id is not None}))
            if users:
                unit.notices.append(Notice(gid, event.type, event.data, users, unit.seq, seats))
        if game.is_over(unit.state):
            unit.status = "over"
            unit.result = {"scores": list(game.scores(unit.state)), "ranking": list(game.ranking(unit.state))}
            unit.notice("game_over", **unit.result,
                        names=[s.display_name for s in sorted(
                            (s for s in unit.seats.values() if s.seat_order is not None),
                            key=lambda s: s.seat_order or 0)])

    def _ai_choice(self, unit: _Unit, player: PlayerId) -> Action:
        seat = unit.seat(player)
        name = (seat.ai_policy if seat else None) or self.default_ai
        seed = (unit.lg.row.seed * 1_000_003 + unit.seq * 7 + player) % (1 << 62)
        try:
            action: Action = make_policy(unit.lg.row.ruleset, name, seed).choose(unit.state, player)
            return action
        except Exception:
            log.exception("AI %s failed in game %s; playing its first legal action", name,
                          unit.lg.row.game_id)
            return unit.lg.game.legal_actions(unit.state, player)[0]

    def _run_ai(self, unit: _Unit) -> bool:
        """Let AI actors move; True when the batch limit stopped them before a person must act."""
        game = unit.lg.game
        moved = 0
        while unit.status == "active" and not game.is_over(unit.state):
            ai = sorted(p for p in game.actors(unit.state) if (s := unit.seat(p)) is not None and s.is_ai)
            if not ai:
                return False
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

    def _seat_to_ai(self, unit: _Unit, seat: SeatRow, why: str) -> None:
        name = seat.display_name if seat.display_name.endswith(" (AI)") else f"{seat.display_name} (AI)"
        unit.seats[seat.slot] = replace(seat, user_id=None, is_ai=True, display_name=name[:MAX_NAME],
                                        ai_policy=seat.ai_policy or self.default_ai)
        unit.notice("resigned" if why == "resigned" else "seat_replaced", seat=seat.seat_order,
                    old_user_id=seat.user_id, ai=True, reason=why)

    async def _finish(self, lg: _Loaded, unit: _Unit) -> Outcome:
        """Run AI moves and commit, in as many transactions as the AI batch needs."""
        notices: list[Notice] = []
        while True:
            more = self._run_ai(unit)
            await self._commit(lg, unit)
            notices += unit.notices
            if not more:
                break
            await asyncio.sleep(0)  # let other games use the writer between AI batches
            unit = self._unit(lg)
        return Outcome(lg.row.game_id, tuple(notices), self._status(lg))

    async def _commit_outcome(self, lg: _Loaded, unit: _Unit) -> Outcome:
        await self._commit(lg, unit)
        return Outcome(lg.row.game_id, tuple(unit.notices), self._status(lg))

    async def _commit(self, lg: _Loaded, unit: _Unit) -> None:
        """Write ``unit`` as one transaction and, once committed, adopt it as the game in memory."""
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
            for player in sorted(humans - waiting):
                seat = unit.seat(player)
                assert seat is not None and seat.user_id is not None
                start = max(unit.now, seat.away_until)  # a vacation booked ahead delays the clock
                clock = self._clock(row.game_id, unit.seq, player, seat.user_id, start, timers,
                                    lg.prefs.get(seat.user_id, "all"), lg.own_reminders.get(seat.user_id))
                new += clock
                unit.notice("your_turn", (seat.user_id,), seat=player, due_at=clock[0].due_at)
        fired = set(unit.fired)
        kept = [replace(d, fired=True) if d.deadline_id in fired else d for d in kept]
        # a moved clock keeps its ids (so scheduler jobs are replaced, not duplicated): rewrite its rows
        moved = [replace(d, due_at=d.due_at + unit.shift[d.player]) for d in kept if d.player in unit.shift]
        kept = [d for d in kept if d.player not in unit.shift] + moved
        gone = {d.player for d in lg.deadlines} - {d.player for d in kept}
        clear = sorted(gone | {d.player for d in moved})
        change = GameChange(
            game_id=row.game_id, expected_seq=row.seq, updated_at=unit.now, new_seq=unit.seq,
            expected_status=row.status, status=unit.status if unit.status != row.status else None,
            result=unit.result, actions=unit.actions,
            snapshot=Snapshot(row.game_id, unit.seq, _state_json(lg.game, unit.state))
            if unit.state_changed else None,
            checkpoints=unit.checkpoints,
            seats_upsert=[s for slot, s in unit.seats.items() if lg.seats.get(slot) != s],
            seats_delete=unit.deleted_slots,
            clear_all_deadlines=clear_all and bool(lg.deadlines),
            clear_deadlines_for=[] if clear_all else clear,
            new_deadlines=new + moved, fire_deadlines=[d for d in unit.fired if not clear_all],
            timers=unit.timers,
        )
        try:
            await self.store.apply_change(change)
        except StoreConflict as exc:
            self.forget(row.game_id)
            raise ServiceError("conflict", "The game changed meanwhile; please try again.") from exc
        except BaseException:
            self.forget(row.game_id)
            raise
        lg.row = replace(row, seq=unit.seq, status=unit.status, updated_at=unit.now, timers=timers,
                         result=unit.result if unit.result is not None else row.result)
        lg.seats = dict(unit.seats)
        lg.state = unit.state
        lg.deadlines = sorted(kept + new, key=lambda d: (d.due_at, d.deadline_id))
        self._remember(lg)

    @staticmethod
    def _clock(game_id: str, seq: int, player: PlayerId, user_id: int, now: int, timers: TimerSettings,
               pref: ReminderPreference, own: tuple[int, ...] | None = None) -> list[Deadline]:
        due = now + timers.move_seconds
        base = f"{game_id}:{seq}:{player}"
        out = [Deadline(f"{base}:turn", game_id, seq, player, user_id, "turn", due)]
        # personal reminder times replace the game's; those that do not fit in a move are skipped
        offsets = sorted({o for o in own if o < timers.move_seconds} if own is not None
                         else set(timers.reminder_offsets))
        if pref == "none":
            offsets = []
        elif pref == "last":
            offsets = offsets[:1]
        out += [Deadline(f"{base}:remind:{o}", game_id, seq, player, user_id, "reminder", due - o)
                for o in offsets if due - o > now]
        return out

    def _status(self, lg: _Loaded) -> GameStatus:
        row = lg.row
        actors: tuple[int, ...] = ()
        if lg.state is not None and row.status in ("active", "paused"):
            actors = tuple(sorted(lg.game.actors(lg.state)))
        waiting = tuple(u for p in actors if (s := lg.seat_of_player(p)) and s.is_human
                        and (u := s.user_id) is not None)
        result = row.result or {}
        return GameStatus(
            game_id=row.game_id, ruleset=row.ruleset, title=lg.game.title, status=row.status, seq=row.seq,
            creator_id=row.creator_id, max_seats=row.max_seats, min_seats=lg.game.min_players,
            seats=tuple(SeatInfo(s.slot, s.seat_order, s.user_id, s.display_name, s.colour, s.is_ai,
                                 s.missed_deadlines) for s in lg.ordered()),
            actors=actors, waiting_for=waiting, deadlines=tuple(lg.deadlines), timers=row.timers,
            guild_id=row.guild_id, channel_id=row.channel_id, thread_id=row.thread_id,
            scores=tuple(result["scores"]) if "scores" in result else None,
            ranking=tuple(result["ranking"]) if "ranking" in result else None,
        )

    # == checks ==========================================================================
    @staticmethod
    def _require_lobby(lg: _Loaded) -> None:
        if lg.row.status != "lobby":
            raise ServiceError("not_in_lobby", "The game has already started.", status=lg.row.status)

    @staticmethod
    def _require_not_finished(lg: _Loaded) -> None:
        if lg.row.status in ("over", "abandoned"):
            raise ServiceError("finished", f"The game is {lg.row.status}.", status=lg.row.status)

    @staticmethod
    def _require_active(lg: _Loaded) -> None:
        status = lg.row.status
        if status == "lobby":
            raise ServiceError("not_started", "The game has not started yet.")
        if status == "paused":
            raise ServiceError("paused", "The game is paused.")
        if status != "active":
            raise ServiceError("finished", f"The game is {status}.", status=status)

    def _check_policy(self, ruleset: str, policy: str) -> str:
        try:
            make_policy(ruleset, policy, 0)
        except (KeyError, ValueError) as exc:
            raise ServiceError("bad_policy", str(exc).strip("'\"")) from exc
        return policy

    # --- notifications ---
    async def since_last_move(self, game_id: str, player: PlayerId, *,
                              limit: int = 400) -> tuple[int | None, list[dict[str, Any]]]:
        """The public record of the moves from ``player``'s last move on (for turn notifications).

        That last move is included: what it set off (the next empire's turn, the
        scoring) is news too. Replays the stored log from the nearest checkpoint
        (or the set-up) without touching the game in memory. Only public events
        are returned, so the result may be shown to anyone. Looks back at most
        ``limit`` moves.

        Returns:
            (the seq of ``player``'s last move, or None when it made none within
            the last ``limit`` moves; one dict per move from that one on, oldest
            first, with ``seq``, ``player`` (engine seat), ``source`` (``human``,
            ``ai``, ``timeout``), ``user_id`` and ``events`` (each ``{"type", "data"}``)).
        """
        row = await self.store.get_game(game_id)
        if row is None:
            raise ServiceError("no_such_game", f"There is no game {game_id!r}.", game_id=game_id)
        if row.status == "lobby":
            return None, []
        window = max(row.seq - limit, 0)
        recent = await self.store.actions(game_id, after_seq=window, upto_seq=row.seq)
        last = max((a.seq for a in recent if a.player == player), default=None)
        start = window if last is None else last - 1
        game = _game_or_error(row.ruleset)
        base = await self.store.latest_checkpoint(game_id, upto_seq=start)
        if base is not None:
            state, seq = game.from_json(json.loads(base.state_json)), base.seq
        else:
            players = sum(1 for s in await self.store.get_seats(game_id) if s.seat_order is not None)
            state, seq = game.setup(players, row.options, row.seed), 0
        older = await self.store.actions(game_id, after_seq=seq, upto_seq=window) if seq < window else []
        rows = [entry for entry in [*older, *recent] if entry.seq > seq]

        def replay() -> list[dict[str, Any]]:  # in a worker thread: the engine is pure
            now, out = state, []
            for entry in rows:
                result = game.apply(now, game.codec.decode(entry.action))
                now = result.state
                if entry.seq > start:
                    out.append({"seq": entry.seq, "player": entry.player, "source": entry.source,
                                "user_id": entry.user_id,
                                "events": [{"type": e.type, "data": _canon(dict(e.data))}
                                           for e in result.events if e.visible_to(None)]})
            return out

        return last, await asyncio.to_thread(replay)


# == helpers ==============================================================================
def _random_id() -> str:
    alphabet = "abcdefghijkmnpqrstuvwxyz23456789"
    return "".join(secrets.choice(alphabet) for _ in range(8))


def _game_or_error(ruleset: str) -> Game:
    try:
        return get_game(ruleset)
    except KeyError as exc:
        raise ServiceError("unknown_game", str(exc).strip("'\""), ruleset=ruleset) from exc


def _clean_name(name: str) -> str:
    cleaned = " ".join(str(name).split())
    if not cleaned:
        raise ServiceError("bad_name", "A name cannot be empty.")
    return cleaned[:MAX_NAME]


def _next_slot(lg: _Loaded) -> int:
    return max(lg.seats, default=-1) + 1


def _adopt_settings(lg: _Loaded, settings: UserSettings) -> None:
    """Remember in a loaded game what a person's next clocks need: which reminders, at which times."""
    lg.prefs[settings.user_id] = settings.reminders
    if settings.reminder_offsets is None:
        lg.own_reminders.pop(settings.user_id, None)
    else:
        lg.own_reminders[settings.user_id] = settings.reminder_offsets


def _require_manager(lg: _Loaded, user_id: int, is_admin: bool) -> None:
    if not (is_admin or user_id == lg.row.creator_id):
        raise ServiceError("not_allowed", "Only the game's creator or a server admin may do that.")


def _decode(game: Game, action_json: str | Mapping[str, Any], player: PlayerId) -> Action:
    if isinstance(action_json, str):
        try:
            data = json.loads(action_json)
        except json.JSONDecodeError as exc:
            raise ServiceError("bad_action", "That move is not valid JSON.") from exc
    else:
        data = action_json
    if not isinstance(data, Mapping):
        raise ServiceError("bad_action", "A move is a JSON object with a 'kind'.")
    data = dict(data)
    if data.setdefault("player", player) != player:
        raise ServiceError("not_your_seat", "You can only move for your own seat.", player=data["player"])
    try:
        return game.codec.decode(data)
    except IllegalAction as exc:
        raise ServiceError(exc.code, exc.message, **exc.params) from exc


def _passive(actions: Sequence[Action]) -> Action | None:
    for kind in PASSIVE_KINDS:
        for action in actions:
            if action.kind == kind:
                return action
    return None


def _state_json(game: Game, state: Any) -> str:
    return game.dumps(state)


def _canon(data: Any) -> Any:
    return json.loads(json.dumps(data, sort_keys=True))


def _turn_due(lg: _Loaded, player: PlayerId) -> int | None:
    return next((d.due_at for d in lg.deadlines if d.player == player and d.kind == "turn"), None)
