"""A game as the service holds it in memory, one change being built, and the small helpers both use."""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

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
    UserSettings,
)
from bot.service.errors import ServiceError, refused
from bot.service.text_input import MAX_NAME as MAX_NAME
from bot.service.text_input import checked_name
from engine import registry
from engine.core import UNDO, Action, Game, IllegalAction, LogReplay, PlayerId, players_at_start
from engine.spec import GameSpec

DAY = 24 * 3600


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
        return seat_names(self.spec, self.seats.values())


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
    departures: list[Departure] = field(default_factory=list)  # who left a seat, or got one back

    def seat(self, player: PlayerId) -> SeatRow | None:
        return seat_of(self.seats.values(), player)

    def names(self) -> tuple[str, ...]:
        return seat_names(self.lg.spec, self.seats.values())

    def notice(self, kind: NoticeKind, audience: Audience = PUBLIC, **data: Any) -> None:
        self.notices.append(Notice(self.lg.row.game_id, kind, data, audience, self.seq))


@dataclass(frozen=True)
class Replay:
    """A replay of a game's log up to ``seq``: where it stands (the state and the moves that may still
    be taken back, so a later undo entry replays) and the public events so far."""

    seq: int
    state: LogReplay | None
    entries: tuple[LogEntry, ...]


def replay_public(game: Game, players: int, options: Mapping[str, Any], seed: int, start: Replay,
                  actions: Sequence[ActionRow]) -> Replay:
    """Continue ``start`` with ``actions`` (runs in a worker thread; the engine is pure)."""
    # undo entries too (see bot.service.undo); a copy, so the cached replay stays as it was on failure
    # ``players``: those seated now; a replay from the start seats those who joined since at their entry
    run = LogReplay(game, game.setup(players_at_start(players, [r.action for r in actions]), options, seed)) \
        if start.state is None else start.state.copy()
    entries = list(start.entries)
    seq = start.seq
    for row in actions:
        if row.seq != seq + 1:
            raise ServiceError("corrupt", f"The log jumps from {seq} to {row.seq}.")
        result = run.apply(row.action, mark=row.seq)
        seq = row.seq
        if row.action.get("kind") == UNDO:  # the move taken back never happened, as the table sees it
            entries = [e for e in entries if e.seq != run.voided]
        entries += [LogEntry(row.seq, row.player, row.source, row.created_at, e.type, dict(e.data))
                    for e in result.events if isinstance(e.audience, str)]
    return Replay(seq, run, tuple(entries))


def seat_of(seats: Iterable[SeatRow], player: PlayerId) -> SeatRow | None:
    for seat in seats:
        if seat.seat_order == player:
            return seat
    return None


def seat_names(spec: GameSpec, seats: Iterable[SeatRow]) -> tuple[str, ...]:
    """How every line names each seated player, index = engine seat: ``"alice (Blue)"``.

    Names come from the stored seat rows, so they survive a restart; a seat
    without a person is named by its label (``"AI 1 (Green)"``).
    """
    placed = sorted((s for s in seats if s.seat_order is not None), key=lambda s: s.seat_order or 0)
    return tuple(spec.seat_name(s.seat_order or 0, s.display_name) for s in placed)


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
        return lg.spec.seat_name(seat.seat_order, seat.display_name) if seat.seat_order is not None \
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
