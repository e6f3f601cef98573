"""A game as the service holds it in memory, one change being built, and the small helpers both use."""

from __future__ import annotations

import json
import secrets
from bisect import bisect_right
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

from bot.models import (
    PUBLIC,
    ActionRow,
    Audience,
    Deadline,
    Departure,
    GameRow,
    GameStatusName,
    LogEntry,
    Notice,
    NoticeKind,
    ReminderPreference,
    SeatRow,
    Snapshot,
    TimerSettings,
    UndoPoint,
    UserSettings,
)
from bot.service.errors import ServiceError, refused
from bot.service.offload import off_loop
from bot.service.text_input import MAX_NAME as MAX_NAME
from bot.service.text_input import checked_name
from engine import registry
from engine.core import UNDO, Action, Event, Game, IllegalAction, LogReplay, PlayerId, players_at_start
from engine.spec import GameSpec

DAY = 24 * 3600


class UndoStep(NamedTuple):
    """A move that may still be taken back: its seq, its player, and whether the platform played it for
    them (their only move: an undo takes it back with the move of theirs before it)."""

    seq: int
    player: PlayerId
    forced: bool = False
    quiet: bool = False  # a quiet move (engine.core.Game.quiet): in no other seat's way


def taken_back(chain: Sequence[UndoStep], player: PlayerId) -> int | None:
    """Where an undo by ``player`` starts in the chain of moves that may be taken back: at their newest
    move of their own choosing, when only moves played for them and other seats' quiet moves follow it
    (their only moves: asking again would play them again; a quiet move tells them nothing, so it must
    not stop them either); None when they have none to take back."""
    k = len(chain) - 1
    while k >= 0 and ((chain[k].forced and chain[k].player == player)
                      or (chain[k].quiet and chain[k].player != player)):
        k -= 1
    if k < 0 or chain[k].player != player or chain[k].forced:
        return None
    return k


@dataclass
class Loaded:
    """A game in memory: its row, spec, seats by slot, engine state and deadline rows."""

    row: GameRow
    spec: GameSpec
    game: Game
    seats: dict[int, SeatRow]
    state: Any
    deadlines: list[Deadline]
    prefs: dict[int, ReminderPreference]
    own_reminders: dict[int, tuple[int, ...]] = field(default_factory=dict)  # personal reminder times
    undo: list[UndoStep] = field(default_factory=list)  # the moves that may be taken back, oldest first
    rules_version: str | None = None  # the rules it started under (None: before versions were kept)
    # The seats' colours in the newest state asked (the state itself, compared by identity): every notice
    # and status names the seats, and each would otherwise draw a spectator's view again.
    coloured: tuple[Any, tuple[str | None, ...]] | None = field(default=None, repr=False, compare=False)

    def colours_of(self, state: Any) -> tuple[str | None, ...]:
        """The colour word each seat goes by in ``state`` (:meth:`engine.core.Game.seat_colours`, from a
        spectator's view: every reader names a seat alike); none before the game has a state, nor for a
        game whose seats keep the spec's colours (no view is drawn for it)."""
        if state is None or not self.spec.chosen_colours:
            return ()
        kept = self.coloured
        if kept is None or kept[0] is not state:
            kept = self.coloured = (state, self.spec.seat_colours(state))
        return kept[1]

    def seat_of_player(self, player: PlayerId) -> SeatRow | None:
        return seat_of(self.seats.values(), player)

    def seat_of_user(self, user_id: int) -> SeatRow | None:
        for seat in self.seats.values():
            if seat.user_id == user_id:
                return seat
        return None

    def ordered(self) -> list[SeatRow]:
        return sorted(self.seats.values(), key=lambda s: (s.seat_order is None, s.seat_order or 0, s.slot))

    def names(self) -> tuple[str, ...]:
        return seat_names(self.spec, self.seats.values(), self.colours_of(self.state))


@dataclass
class Unit:
    """One transaction's worth of changes to a loaded game, built in memory first."""

    lg: Loaded
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
    creator: int | None = None  # the lobby passes to this person (its creator left)
    outbox: list[int] = field(default_factory=list)  # ids of the outbox rows written (after commit)
    undo: list[UndoStep] = field(default_factory=list)  # the chain after this unit
    undo_clear: bool = False  # a move that cannot be taken back came: the stored chain goes
    undo_points: list[UndoPoint] = field(default_factory=list)  # moves that may be taken back, to store
    undo_drop: list[int] = field(default_factory=list)  # undo points taken back
    voided: list[tuple[int, int]] = field(default_factory=list)  # (move, undo entry) pairs
    quiet: int = 0  # the game's quiet log entries after this unit (set from its row)
    rules_version: str | None = None  # recorded as the game starts
    departures: list[Departure] = field(default_factory=list)  # who left a seat, or got one back

    def __post_init__(self) -> None:
        self.undo = list(self.lg.undo)
        self.quiet = self.lg.row.quiet

    @property
    def public_seq(self) -> int:
        """The move counter every player sees after this unit (:attr:`bot.models.GameRow.public_seq`)."""
        return self.seq - self.quiet

    def may_undo(self, seq: int, player: PlayerId, before: str, forced: bool, quiet: bool = False) -> None:
        """Log entry ``seq`` of ``player`` may be taken back: keep the state from before it."""
        self.undo.append(UndoStep(seq, player, forced, quiet))
        self.undo_points.append(UndoPoint(seq, player, before))

    def final(self) -> None:
        """A log entry that cannot be taken back: no earlier one can be either."""
        self.undo.clear()
        self.undo_points.clear()
        self.undo_drop.clear()
        self.undo_clear = True

    def seat(self, player: PlayerId) -> SeatRow | None:
        return seat_of(self.seats.values(), player)

    def names(self) -> tuple[str, ...]:
        return seat_names(self.lg.spec, self.seats.values(), self.lg.colours_of(self.state))

    def notice(self, kind: NoticeKind, audience: Audience = PUBLIC, **data: Any) -> None:
        self.notices.append(Notice(self.lg.row.game_id, kind, data, audience, self.public_seq))


def event_records(events: Sequence[Event]) -> tuple[dict[str, Any], ...]:
    """A log entry's events as they are stored with it (type, data, audience), JSON-plain."""
    return tuple(canon(e.to_json()) for e in events)


def is_public(record: Mapping[str, Any]) -> bool:
    return record.get("audience") == PUBLIC


def voided_or_platform(row: ActionRow) -> bool:
    """An entry the table does not see as a move: taken back by an undo, or an undo entry itself."""
    return row.voided_by is not None or row.action.get("kind") == UNDO


def public_entries(rows: Sequence[ActionRow]) -> list[LogEntry]:
    """The public log from stored records: every public event of the moves not taken back, oldest
    first; a run of one seat's moves whose events were not recorded (made before an upgrade) is one
    :attr:`NoticeKind.unrecorded` line."""
    out: list[LogEntry] = []
    for row in rows:
        if voided_or_platform(row):
            continue
        if row.events is None:
            last = out[-1] if out else None
            kind = NoticeKind.unrecorded
            if last is not None and last.notice == kind and last.player == row.player:
                moves = int(last.data["moves"]) + 1
                out[-1] = replace(last, seq=row.seq, data={"seat": row.player, "moves": moves})
            else:
                out.append(LogEntry(row.seq, row.player, row.source, row.created_at, kind.value,
                                    {"seat": row.player, "moves": 1}, kind))
            continue
        out += [LogEntry(row.seq, row.player, row.source, row.created_at, str(e.get("type")),
                         dict(e.get("data") or {})) for e in row.events if is_public(e)]
        if row.source == "forced":  # after what it did: it was the seat's only choice
            out.append(LogEntry(row.seq, row.player, row.source, row.created_at, NoticeKind.forced.value,
                                {"seat": row.player}, NoticeKind.forced))
    return out


def shown_number(seq: int, quiet: Sequence[int]) -> int:
    """The move number players see for log entry ``seq``: its index less the quiet entries up to it
    (``quiet``: :meth:`bot.store.Store.quiet_entries`, in order)."""
    return seq - bisect_right(quiet, seq)


def entry_of(number: int, quiet: Sequence[int]) -> int:
    """The log entry right after which the table saw move ``number`` (:func:`shown_number`'s inverse on
    the entries that are not quiet): ``number`` plus the quiet entries before it."""
    seq = number
    for q in quiet:
        if q > seq:
            break
        seq += 1
    return seq


def log_index(counts: Sequence[tuple[int, int, int | None, str]]) -> list[tuple[int, int]]:
    """(seq, how many public log entries it gives) of each move that stands, from the store's index
    (:meth:`bot.store.Store.public_counts`), by the rule of :func:`public_entries`: a move's public
    events (and the line of a move played for its seat), or 1 for a move whose events were not
    recorded unless it goes on the same seat's run."""
    out: list[tuple[int, int]] = []
    run: int | None = None  # the seat of the run of unrecorded moves the log's last entry is
    for seq, player, public, source in counts:
        if public is None:
            out.append((seq, 0 if run == player else 1))
            run = player
        else:
            lines = public + (source == "forced")
            out.append((seq, lines))
            if lines:
                run = None
    return out


def log_window(index: Sequence[tuple[int, int]], first: int, count: int) -> tuple[int, int, int] | None:
    """The moves to read for log entries ``[first, first + count)``: (after seq, up to seq, entries of
    those moves to skip first), or None when there are none. Moves that add nothing to the last entry
    read are read with it (a run of unrecorded moves is one entry)."""
    pos, low, skip, high = 0, None, 0, None
    for i, (seq, n) in enumerate(index):
        if low is None and n and pos + n > first:
            low, skip = seq, first - pos
        pos += n
        if low is not None and pos >= first + count:
            high = seq
            for later, extra in index[i + 1:]:  # what merges into the last entry comes along
                if extra:
                    break
                high = later
            break
    if low is None:
        return None
    return low - 1, high if high is not None else index[-1][0], skip


def news_entries(rows: Sequence[ActionRow]) -> list[dict[str, Any]]:
    """The public record of ``rows`` for a turn notice: one dict per move that stands (``seq``, ``player``,
    ``source``, ``user_id``, ``events``: its public ``{"type", "data"}``; ``unrecorded``: true for a move
    made before records were kept)."""
    out: list[dict[str, Any]] = []
    for row in rows:
        if voided_or_platform(row):
            continue
        entry: dict[str, Any] = {"seq": row.seq, "player": row.player, "source": row.source,
                                 "user_id": row.user_id, "events": []}
        if row.events is None:
            entry["unrecorded"] = True
        else:
            entry["events"] = [{"type": e.get("type"), "data": e.get("data") or {}} for e in row.events
                               if is_public(e)]
        out.append(entry)
    return out


@dataclass(frozen=True)
class Recovered:
    """What a replay recovered of entries written before records were kept: ``events`` (seq, events
    JSON, or the text ``null`` where they cannot be trusted) and ``voided`` (seq, seq of the undo entry
    that took it back; an undo entry names itself)."""

    events: list[tuple[int, str]]
    voided: list[tuple[int, int]]


@off_loop
def read_state(game: Game, state_json: str) -> Any:
    """A stored state as the engine's (a large game's JSON takes milliseconds to read)."""
    return game.from_json(json.loads(state_json))


def read_again(game: Game, state_json: str) -> str:
    """A stored state as today's code reads and writes it: a state stored in an older form of the same
    board compares equal to the replay's (``game.dumps``, compact and canonical per game)."""
    return game.dumps(game.from_json(json.loads(state_json)))


@off_loop
def recover_records(game: Game, players: int, options: Mapping[str, Any], seed: int,
                    rows: Sequence[ActionRow], marks: Mapping[int, str]) -> Recovered:
    """The records of log entries written before records were kept, recovered by replaying the log
    under today's rules (runs in a worker thread: the engine is pure).

    A record is trusted only up to the newest stored state (``marks``: seq -> state JSON, the
    checkpoints and the snapshot) that the replay still reaches exactly: a game started under older
    rules may replay differently further on. Every entry without a record gets one: its events where
    trusted, the text ``null`` (not recoverable) elsewhere; and the undo entries met while trusted void
    the moves they took back.
    """
    wanted = [row.seq for row in rows if row.events is None]
    found: dict[int, str] = {}
    voids: list[tuple[int, int]] = []
    trusted = 0
    try:
        run = LogReplay(game, game.setup(players_at_start(players, [r.action for r in rows]), options, seed))
        for row in rows:
            result = run.apply(row.action, mark=row.seq)
            found[row.seq] = json.dumps(list(event_records(result.events)), sort_keys=True)
            if row.action.get("kind") == UNDO:
                voids += [(int(run.voided), row.seq), (row.seq, row.seq)]
            mark = marks.get(row.seq)
            if mark is not None:
                if game.dumps(run.state) != read_again(game, mark):
                    break
                trusted = row.seq
    except Exception:  # today's rules refuse the log here: nothing after the last stored state matched
        pass
    return Recovered([(seq, found[seq] if seq <= trusted and seq in found else "null") for seq in wanted],
                     [(seq, by) for seq, by in voids if by <= trusted])


def seat_of(seats: Iterable[SeatRow], player: PlayerId) -> SeatRow | None:
    for seat in seats:
        if seat.seat_order == player:
            return seat
    return None


def seat_names(spec: GameSpec, seats: Iterable[SeatRow],
               chosen: Sequence[str | None] = ()) -> tuple[str, ...]:
    """How every line names each seated player, index = engine seat: ``"alice (Blue)"``.

    Names come from the stored seat rows, so they survive a restart; a seat
    without a person is named by its label (``"AI 1 (Green)"``). ``chosen`` is the colour each seat
    took in play (:meth:`Loaded.colours_of`), which names it instead of the spec's colour.
    """
    placed = sorted((s for s in seats if s.seat_order is not None), key=lambda s: s.seat_order or 0)
    return tuple(spec.seat_name(s.seat_order or 0, s.display_name, chosen) for s in placed)


def random_id() -> str:
    alphabet = "abcdefghijkmnpqrstuvwxyz23456789"
    return "".join(secrets.choice(alphabet) for _ in range(8))


def spec_or_error(ruleset: str) -> GameSpec:
    try:
        return registry.spec(ruleset)
    except KeyError as exc:
        raise ServiceError("unknown_game", str(exc).strip("'\""), ruleset=ruleset) from exc


def clean_name(name: str) -> str:
    """``name`` with its runs of white space (newlines and tabs too) made single spaces; refused
    when nothing is left, or when it is too long or not printable (:func:`checked_name`)."""
    cleaned = " ".join(str(name).split())
    if not cleaned:
        raise ServiceError("bad_name", "A name cannot be empty.")
    return checked_name(cleaned)


def next_slot(lg: Loaded) -> int:
    return max(lg.seats, default=-1) + 1


def adopt_settings(lg: Loaded, settings: UserSettings) -> None:
    """Remember in a loaded game what a person's next clocks need: which reminders, at which times."""
    lg.prefs[settings.user_id] = settings.reminders
    if settings.reminder_offsets is None:
        lg.own_reminders.pop(settings.user_id, None)
    else:
        lg.own_reminders[settings.user_id] = settings.reminder_offsets


def require_manager(lg: Loaded, user_id: int, is_admin: bool) -> None:
    if not (is_admin or user_id == lg.row.creator_id):
        raise ServiceError("not_allowed", "Only the game's creator or a server admin may do that.")


def person_name(lg: Loaded, user_id: int) -> str:
    """How a notice names the person who paused, resumed or abandoned a game: their seat's
    name, else their role (the platform never shows a raw user id)."""
    seat = lg.seat_of_user(user_id)
    if seat is not None:
        return lg.spec.seat_name(seat.seat_order, seat.display_name, lg.colours_of(lg.state)) \
            if seat.seat_order is not None \
            else seat.display_name
    return "the game's creator" if user_id == lg.row.creator_id else "a server admin"


def decode_action(game: Game, action_json: str | Mapping[str, Any], player: PlayerId) -> Action:
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
        raise refused(exc) from exc


def canon(data: Any) -> Any:
    return json.loads(json.dumps(data, sort_keys=True))


def turn_due(lg: Loaded, player: PlayerId) -> int | None:
    return next((d.due_at for d in lg.deadlines if d.player == player and d.kind == "turn"), None)
