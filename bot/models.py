"""Plain records shared by the store and the game service (no I/O, no SQL, no Discord).

Rows mirror the tables in ``migrations/``; JSON columns are decoded into dicts
and lists here, except state snapshots, which stay text so that the service
decides when to pay for parsing them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any, Final, Literal

from engine.core import Decision, Event

GameStatusName = Literal["lobby", "active", "paused", "over", "abandoned"]
TimeoutPolicy = Literal["ai", "skip"]
DeadlineKind = Literal["turn", "reminder"]
ReminderPreference = Literal["all", "last", "none"]
ActionSource = Literal["human", "ai", "timeout", "forced"]  # forced: a person's only move, played at once
DepartureReason = Literal["resigned", "replaced", "kicked"]

STATUSES: Final = ("lobby", "active", "paused", "over", "abandoned")
MIN_MOVE_SECONDS: Final = 60
MAX_MOVE_SECONDS: Final = 14 * 24 * 3600
DEFAULT_MOVE_SECONDS: Final = 24 * 3600
MAX_BANK_SECONDS: Final = 60 * 24 * 3600


@dataclass(frozen=True)
class TimerSettings:
    """How long players have per move and what happens when they run out.

    Attributes:
        move_seconds: time per move, 1 minute to 14 days (default 24 hours).
        reminder_offsets: seconds before the deadline at which to remind the player.
        timeout_policy: ``"ai"`` (the AI plays the late player's turn) or
            ``"skip"`` (the turn is passed with the most passive legal actions).
        misses_before_ai: after this many consecutive missed deadlines the AI
            takes the seat for good (the player may take it back); 0 never.
        bank_seconds: a time bank instead of a time per move (0: none): each seat starts with this
            much, its running clock is what is left of it, and each of its moves adds
            ``bank_increment``, up to ``bank_cap`` (0: no cap).
    """

    move_seconds: int = DEFAULT_MOVE_SECONDS
    reminder_offsets: tuple[int, ...] = (4 * 3600,)
    timeout_policy: TimeoutPolicy = "ai"
    misses_before_ai: int = 3
    bank_seconds: int = 0
    bank_increment: int = 0
    bank_cap: int = 0

    @property
    def span(self) -> int:
        """The longest a clock may run: the starting bank, or the time per move."""
        return self.bank_seconds or self.move_seconds

    def banked(self, left: int) -> int:
        """What is left of a bank after a move that left ``left`` of it: the increment added, capped."""
        after = max(left, 0) + self.bank_increment
        return min(after, self.bank_cap) if self.bank_cap else after

    def with_move(self, seconds: int) -> TimerSettings:
        """These settings with ``seconds`` per move, and reminders nobody chose made to fit it: those
        that still fall inside a move stay; with none left, one reminder a quarter of a move ahead."""
        fitting = tuple(r for r in self.reminder_offsets if 0 < r < seconds)
        if not fitting and self.reminder_offsets and seconds // 4 >= MIN_MOVE_SECONDS:
            fitting = (seconds // 4,)
        return replace(self, move_seconds=seconds, reminder_offsets=fitting)

    def problems(self) -> list[str]:
        """Sentences describing what is wrong with these settings (empty when valid)."""
        out: list[str] = []
        if not MIN_MOVE_SECONDS <= self.move_seconds <= MAX_MOVE_SECONDS:
            out.append("The time per move must be between 1 minute and 14 days.")
        if self.bank_seconds and not MIN_MOVE_SECONDS <= self.bank_seconds <= MAX_BANK_SECONDS:
            out.append("A time bank must be between 1 minute and 60 days.")
        if not 0 <= self.bank_increment <= MAX_MOVE_SECONDS:
            out.append("The time added per move must be between 0 and 14 days.")
        if self.bank_cap and not self.bank_seconds <= self.bank_cap <= MAX_BANK_SECONDS:
            out.append("A time bank's cap must be at least the bank and at most 60 days.")
        if (self.bank_increment or self.bank_cap) and not self.bank_seconds:
            out.append("Time added per move and a cap need a time bank (bank=...).")
        if any(not 0 < r < self.span for r in self.reminder_offsets):
            out.append("Reminders must come after the move starts and before its deadline.")
        if len(self.reminder_offsets) > 5:
            out.append("At most 5 reminders per move.")
        if self.timeout_policy not in ("ai", "skip"):
            out.append("The timeout policy must be 'ai' or 'skip'.")
        if not 0 <= self.misses_before_ai <= 100:
            out.append("Misses before the AI takes over must be between 0 and 100.")
        return out


@dataclass(frozen=True)
class GameRow:
    """One row of ``games``."""

    game_id: str
    ruleset: str
    options: Mapping[str, Any]
    seed: int
    status: GameStatusName
    creator_id: int
    max_seats: int
    created_at: int
    updated_at: int
    seq: int = 0
    timers: TimerSettings = field(default_factory=TimerSettings)
    guild_id: int | None = None
    channel_id: int | None = None
    thread_id: int | None = None
    result: Mapping[str, Any] | None = None
    quiet: int = 0  # log entries the table never saw: quiet moves and the undo entries taking them back

    @property
    def public_seq(self) -> int:
        """The game's move counter as every player sees it: its log entries less the quiet ones
        (:meth:`engine.core.Game.quiet`), so no seat can tell that another made a quiet move. It is the
        number shown ("move 12") and the staleness token every choice is sent with (:attr:`GameStatus.seq`);
        :attr:`seq` stays the log's own index (storage, replay, undo)."""
        return self.seq - self.quiet


@dataclass(frozen=True)
class SeatRow:
    """One row of ``seats``: a person or an AI at the table.

    An AI seat with a ``user_id`` is a person's seat on autopilot (after missed
    deadlines); the person can take it back. An AI seat without one belongs to nobody.
    """

    game_id: str
    slot: int
    display_name: str
    joined_at: int
    user_id: int | None = None
    seat_order: int | None = None
    colour: str | None = None
    is_ai: bool = False
    ai_policy: str | None = None
    preferences: Mapping[str, Any] = field(default_factory=dict)
    missed_deadlines: int = 0
    vacation_days_used: int = 0
    away_until: int = 0  # unix seconds: clocks that start earlier start then (vacation booked ahead)
    bank_left: int | None = None  # a time bank's seconds left while no clock runs (None: all of it)

    @property
    def is_human(self) -> bool:
        """A person plays this seat right now."""
        return not self.is_ai and self.user_id is not None


@dataclass(frozen=True)
class ActionRow:
    """One entry of the append-only action log, with its record.

    Attributes:
        events: the entry's events as the engine gave them when it was applied (``{"type", "data",
            "audience"}``, audience ``"public"`` or a list of seats); None for an entry written before
            records were kept whose events could not be recovered (see :mod:`bot.service.records`).
        voided_by: the seq of the undo entry that took this move back, if one did.
    """

    game_id: str
    seq: int
    player: int
    action: Mapping[str, Any]
    source: ActionSource
    created_at: int
    user_id: int | None = None
    events: tuple[Mapping[str, Any], ...] | None = None
    voided_by: int | None = None


@dataclass(frozen=True)
class UndoPoint:
    """A move that may still be taken back (``seq``, by ``player``) and the state from before it."""

    seq: int
    player: int
    state_json: str


@dataclass(frozen=True)
class Snapshot:
    """A stored state: the current one (``snapshots``) or a checkpoint."""

    game_id: str
    seq: int
    state_json: str


@dataclass(frozen=True)
class Deadline:
    """One row of ``deadlines``: a clock for a human player who must act.

    Attributes:
        deadline_id: ``"<game>:<seq>:<player>:turn"`` or
            ``"<game>:<seq>:<player>:remind:<offset>"``; unique, stable, and the
            natural APScheduler job id.
        seq: the game's seq when this clock started (the player's wait began).
        player: the seat order (engine player id) on the clock.
        user_id: the person to remind or time out.
        kind: ``"turn"`` (the move is due) or ``"reminder"``.
        due_at: when it fires, in Unix seconds.
        fired: it has been handled (reminders stay, fired, until the clock is replaced).
    """

    deadline_id: str
    game_id: str
    seq: int
    player: int
    user_id: int | None
    kind: DeadlineKind
    due_at: int
    fired: bool = False


@dataclass(frozen=True)
class UserSettings:
    """A person's notification settings.

    Attributes:
        dm_allowed: whether Annals may DM them (off once a DM failed with 50007).
        reminders: which reminders they get: ``all``, only the ``last`` before a deadline, or ``none``.
        reminder_offsets: their own reminder times, seconds before a deadline, used in place
            of every game's own times (times not shorter than a game's time per move are
            skipped there); None: each game's times.
        up_next: whether they get a DM "you're next" when the player before them starts their move
            (in a game that knows who moves next, :meth:`engine.core.Game.up_next`); off by default.
    """

    user_id: int
    dm_allowed: bool = True
    reminders: ReminderPreference = "all"
    reminder_offsets: tuple[int, ...] | None = None
    up_next: bool = False

    def problems(self) -> list[str]:
        """Sentences describing what is wrong with these settings (empty when valid)."""
        out: list[str] = []
        if self.reminders not in ("all", "last", "none"):
            out.append("Reminders must be 'all', 'last' or 'none'.")
        offsets = self.reminder_offsets
        if offsets is not None:
            if len(offsets) > 5:
                out.append("At most 5 reminder times.")
            if any(not MIN_MOVE_SECONDS <= o < MAX_MOVE_SECONDS for o in offsets):
                out.append("Each reminder time must be between 1 minute and 14 days before the deadline.")
        return out


@dataclass(frozen=True)
class GuildSettings:
    """A Discord server's settings."""

    guild_id: int
    games_channel_id: int | None = None
    admin_role_id: int | None = None
    defaults: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class MessageRef:
    """Which Discord message shows ``purpose`` (e.g. ``"board"``) for a game."""

    game_id: str
    purpose: str
    channel_id: int
    message_id: int
    seq: int | None = None


@dataclass(frozen=True)
class GameBundle:
    """Everything needed to work on one game, read in one go by the store."""

    game: GameRow
    seats: tuple[SeatRow, ...]
    snapshot: Snapshot | None
    tail: tuple[ActionRow, ...]
    deadlines: tuple[Deadline, ...]
    reminder_prefs: Mapping[int, ReminderPreference]
    reminder_offsets: Mapping[int, tuple[int, ...]] = field(default_factory=dict)  # personal times
    undo: tuple[tuple[int, int, bool, bool], ...] = ()  # (seq, player, played for them, quiet) of the
    # moves that may be taken back, oldest first
    rules_version: str | None = None  # the rules it started under (None: before versions were kept)


@dataclass(frozen=True)
class Departure:
    """A person leaving the seat of a running game, or given a seat back.

    Someone who left may not join that game again as a newcomer (see migrations/0007's
    ``departures``) until its creator or an admin hands them a seat: that change carries their
    ``Departure`` with ``reason`` None, which drops the record.

    Attributes:
        user_id: the person.
        reason: why they left (``resigned``, ``replaced``, ``kicked``), or None: given a seat back.
    """

    user_id: int
    reason: DepartureReason | None


@dataclass
class GameChange:
    """One atomic change to a game, written by :meth:`bot.store.Store.apply_change`.

    The store applies it as one ``BEGIN IMMEDIATE ... COMMIT`` only if the game
    still has ``expected_seq`` (and ``expected_status`` when given); otherwise it
    raises :class:`bot.store.StoreConflict` and writes nothing.

    Attributes:
        new_seq: the game's seq afterwards (must equal the last appended action's seq).
        status: the new status, or None to keep it.
        result: the final scores/ranking to store (once over).
        actions: log entries to append, in seq order.
        snapshot: the new current state, or None to keep it.
        checkpoints: states to keep as checkpoints.
        seats_upsert: seat rows to insert or replace (by slot).
        seats_delete: slots to remove (lobby only).
        clear_all_deadlines: drop every deadline of the game first.
        clear_deadlines_for: players whose deadlines are dropped first.
        new_deadlines: deadlines to insert afterwards.
        fire_deadlines: deadline ids to mark fired.
        timers: new timer settings, or None to keep them.
        creator_id: the lobby's new creator (its creator left), or None to keep them.
        rules_version: the rules version to record (set when the game starts).
        undo_clear: drop every undo point of the game first (a move that cannot be taken back).
        undo_drop: undo points taken back (their moves were undone).
        undo_points: undo points to add afterwards (moves that may be taken back).
        voided: (seq, seq of the undo entry) of each move an undo took back.
        hold_public_ms: hold this change's public rows until then (Unix ms): more of the same command
            follows (AI seats playing on), and the thread gets the whole burst at once.
        release_held: make the game's held rows due now (the command's last change).
        departures: people who left a seat of the running game, or were given one back.
        new_quiet: how many of the game's log entries are quiet afterwards (:attr:`GameRow.quiet`), or
            None to keep the number.
    """

    game_id: str
    expected_seq: int
    updated_at: int
    new_seq: int
    expected_status: GameStatusName | None = None
    status: GameStatusName | None = None
    result: Mapping[str, Any] | None = None
    actions: list[ActionRow] = field(default_factory=list)
    snapshot: Snapshot | None = None
    checkpoints: list[Snapshot] = field(default_factory=list)
    seats_upsert: list[SeatRow] = field(default_factory=list)
    seats_delete: list[int] = field(default_factory=list)
    clear_all_deadlines: bool = False
    clear_deadlines_for: list[int] = field(default_factory=list)
    new_deadlines: list[Deadline] = field(default_factory=list)
    fire_deadlines: list[str] = field(default_factory=list)
    timers: TimerSettings | None = None
    creator_id: int | None = None
    outbox: list[OutboxItem] = field(default_factory=list)
    rules_version: str | None = None
    undo_clear: bool = False
    undo_drop: list[int] = field(default_factory=list)
    undo_points: list[UndoPoint] = field(default_factory=list)
    voided: list[tuple[int, int]] = field(default_factory=list)
    hold_public_ms: int | None = None
    release_held: bool = False
    departures: list[Departure] = field(default_factory=list)
    new_quiet: int | None = None


# -- the notice outbox (see migrations/0006_outbox.sql and bot/outbox.py) ---------------

DestKind = Literal["public", "channel", "dm", "status"]


@dataclass(frozen=True)
class Destination:
    """Where outbox rows go, and what one delivery worker serves, in order.

    ``public`` and ``status`` are a game's (its thread or channel, its pinned status):
    ``game_id`` is set and ``target`` is 0. ``dm`` is a person (``target`` = user id) and
    ``channel`` a server channel (``target`` = channel id), whatever the game: ``game_id`` None.
    """

    kind: DestKind
    target: int = 0
    game_id: str | None = None

    @classmethod
    def of(cls, kind: DestKind, target: int, game_id: str) -> Destination:
        """The destination of a row of ``game_id``."""
        return cls(kind, 0, game_id) if kind in ("public", "status") else cls(kind, target)


@dataclass(frozen=True)
class OutboxItem:
    """A row to write into the outbox, inside the transaction of the change it tells of."""

    game_id: str
    kind: DestKind
    target: int
    payload: Mapping[str, Any]
    nonce: str


@dataclass(frozen=True)
class OutboxRow:
    """A stored outbox row (``next_try_ms`` in Unix milliseconds, the other times in seconds)."""

    id: int
    game_id: str
    kind: DestKind
    target: int
    payload: Mapping[str, Any]
    nonce: str
    created_at: int
    attempts: int = 0
    next_try_ms: int = 0
    delivered_at: int | None = None
    gave_up_at: int | None = None
    last_error: str | None = None
    batch_id: int | None = None  # the first row of the batch it goes out in, once one was formed

    @property
    def destination(self) -> Destination:
        return Destination.of(self.kind, self.target, self.game_id)


# -- what the service hands back to a transport ---------------------------------------

Audience = str | tuple[int, ...]
"""``"public"`` (the game's channel or thread) or the user ids who may see a notice."""

PUBLIC: Final = "public"


class NoticeKind(StrEnum):
    """The platform's own notices (lobbies, clocks, seats), never an engine event.

    Engine events travel in :attr:`Notice.event` instead, so an engine event
    that shares a name with one of these (the 5-epoch ``resigned``: an empire
    laying down its armies) can never be taken for the platform's notice.
    """

    lobby_opened = "lobby_opened"
    player_joined = "player_joined"
    player_left = "player_left"
    seat_added = "seat_added"
    seat_removed = "seat_removed"
    lobby_passed = "lobby_passed"
    lobby_closed = "lobby_closed"
    game_started = "game_started"
    your_turn = "your_turn"
    reminder = "reminder"
    timeout = "timeout"
    autopilot = "autopilot"
    seat_replaced = "seat_replaced"
    seat_reclaimed = "seat_reclaimed"
    resigned = "resigned"
    paused = "paused"
    resumed = "resumed"
    abandoned = "abandoned"
    game_over = "game_over"
    vacation = "vacation"
    damaged = "damaged"
    move_undone = "move_undone"
    unrecorded = "unrecorded"  # in the log and the news only: moves made before records were kept
    forced = "forced"  # a person's only move, played for them at once (engine.core.only_move)
    up_next = "up_next"  # by DM, to a person who asked: the player before them has started their move


@dataclass(frozen=True)
class Notice:
    """Something a transport should tell people: a platform notice or an engine event, never both.

    Attributes:
        kind: the platform's notice (:class:`NoticeKind`), or None for an engine event.
        data: JSON-friendly details; seat numbers are engine player ids. For an
            engine event, the event's own data.
        audience: ``"public"`` or the user ids it is addressed to (privately).
        seq: the move counter players see right after it happened (:attr:`GameRow.public_seq`).
        seats: for engine events addressed to players, the engine's seat numbers.
        event: the engine event (:class:`engine.core.Event`), or None for a platform notice.
    """

    game_id: str
    kind: NoticeKind | None
    data: Mapping[str, Any]
    audience: Audience
    seq: int
    seats: tuple[int, ...] | None = None
    event: Event | None = None

    def __post_init__(self) -> None:
        if (self.kind is None) == (self.event is None):
            raise ValueError("a Notice is either a platform notice (kind) or an engine event (event)")
        if self.kind is not None and not isinstance(self.kind, NoticeKind):
            raise TypeError(f"a platform notice's kind is a NoticeKind, not {self.kind!r}")

    @property
    def is_public(self) -> bool:
        """Whether it goes to the game's public channel."""
        return self.audience == PUBLIC


@dataclass(frozen=True)
class SeatInfo:
    """A seat as shown to players."""

    slot: int
    seat: int | None
    user_id: int | None
    name: str
    colour: str | None
    is_ai: bool
    missed_deadlines: int
    bank_left: int | None = None  # a time bank's seconds left while no clock of theirs runs


@dataclass(frozen=True)
class GameStatus:
    """A summary of one game for status lines, lobbies and the scheduler.

    Attributes:
        seq: the move counter as every player sees it (:attr:`GameRow.public_seq`: quiet moves left
            out), shown as "move N" and sent back with every choice as its staleness token.
        actors: engine player ids who must act now.
        waiting_for: user ids of the people who must act now.
        deadlines: the game's current deadline rows (what the scheduler arms).
        scores / ranking: final figures once over (ranking lists seats, best first).
        why: once over, why the game ended in the game's words ("The game ends: the turn limit of 12
            was reached."); None for a game that ended before the reason was recorded.
        seat_names: how every line names each seat, index = engine seat: ``"alice (Blue)"``,
            ``"AI 1 (Green)"`` (empty before the game starts).
    """

    game_id: str
    ruleset: str
    title: str
    status: GameStatusName
    seq: int
    creator_id: int
    max_seats: int
    min_seats: int
    seats: tuple[SeatInfo, ...]
    actors: tuple[int, ...]
    waiting_for: tuple[int, ...]
    deadlines: tuple[Deadline, ...]
    timers: TimerSettings
    guild_id: int | None = None
    channel_id: int | None = None
    thread_id: int | None = None
    scores: tuple[int, ...] | None = None
    ranking: tuple[int, ...] | None = None
    seat_names: tuple[str, ...] = ()
    places: tuple[tuple[int, ...], ...] | None = None  # the seats by place (a shared place: several)
    why: str | None = None


@dataclass(frozen=True)
class Outcome:
    """What a service call did: the notices to deliver and the game's status afterwards."""

    game_id: str
    notices: tuple[Notice, ...]
    status: GameStatus
    outbox: tuple[int, ...] = ()  # the ids of the outbox rows written for these notices


@dataclass(frozen=True)
class Turn:
    """One person's moment in a game, read under one hold of the game's lock, so its parts agree.

    Attributes:
        status: the game's summary.
        decision: what the person decides now (None: nothing: not their move, an AI seat, not
            running).
        can_undo: whether an undo would take back a move of theirs now.
    """

    status: GameStatus
    decision: Decision | None
    can_undo: bool

    @property
    def seq(self) -> int:
        """The game's seq when it was read: what a move built from :attr:`decision` is sent with."""
        return self.status.seq


@dataclass(frozen=True)
class LogEntry:
    """One public event of a game's log, with the action that caused it.

    Attributes:
        seq: the action's seq (the game's seq right after it).
        player: the seat (engine player id) whose action it was.
        source: who chose the action: ``human``, ``ai`` or ``timeout``.
        created_at: when the action was applied (Unix seconds).
        type / data: the engine event (public ones only; hidden events never appear).
        notice: the platform's own line in place of an event (the moves made before an upgrade whose
            events were not recorded: :attr:`NoticeKind.unrecorded`), None for an engine event.
    """

    seq: int
    player: int
    source: ActionSource
    created_at: int
    type: str
    data: Mapping[str, Any]
    notice: NoticeKind | None = None

    def as_notice(self, game_id: str) -> Notice:
        """The entry as a public notice, worded like any other (:func:`bot.notices.describe_notice`)."""
        event = None if self.notice is not None else Event(self.type, self.data)
        return Notice(game_id, self.notice, self.data, PUBLIC, self.seq, event=event)
