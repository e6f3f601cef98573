"""Who finishes games: deadlines met and missed, games abandoned, seats handed to the AI.

The service stores no notices, so reliability is kept as its own records
(``league_reliability``), made from two sources that agree where they overlap:

* the action log (``actions`` rows, which the store keeps): every action a
  person submitted met that move's deadline (the service starts a fresh clock
  for each move); every maximal run of consecutive ``timeout`` actions of one
  seat is one missed deadline (the service plays the late turn as one run
  and the seat stops being an actor before its next clock can start);
* the service's notices (:class:`bot.models.Notice`, seen by a listener
  registered with ``GameService.subscribe``): ``timeout`` (a missed
  deadline), ``autopilot`` (the AI took the seat after missed deadlines),
  ``seat_replaced`` with ``ai`` set (an organiser handed the seat to the AI),
  ``resigned`` (the player left the game before its end).

Each record is identified by (game, user, kind, seq), so the same fact seen from
both sources counts once: a missed deadline's ``seq`` is the game's seq when
the deadline fired, that is the seq before the first timeout action.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal, Protocol

ReliabilityKind = Literal["met", "missed", "abandoned", "to_ai"]
KINDS: tuple[ReliabilityKind, ...] = ("met", "missed", "abandoned", "to_ai")


@dataclass(frozen=True)
class ReliabilityRecord:
    """One fact about a player in one game.

    Attributes:
        kind: ``met`` (moved before the deadline), ``missed`` (the deadline fired),
            ``abandoned`` (resigned a running game), ``to_ai`` (their seat went to
            the AI: autopilot after missed deadlines, or an organiser's decision).
        seq: the game's seq the fact belongs to (see the module docstring).
        at: when it happened (Unix seconds).
    """

    game_id: str
    user_id: int
    kind: ReliabilityKind
    seq: int
    at: int

    @property
    def key(self) -> tuple[str, int, str, int]:
        return (self.game_id, self.user_id, self.kind, self.seq)


@dataclass(frozen=True)
class Reliability:
    """A player's reliability summary."""

    user_id: int
    met: int = 0
    missed: int = 0
    abandoned: int = 0
    to_ai: int = 0
    games: int = 0

    @property
    def on_time(self) -> float | None:
        """The share of deadlines met (None before any deadline)."""
        total = self.met + self.missed
        return self.met / total if total else None

    def shown(self) -> str:
        rate = "-" if self.on_time is None else f"{self.on_time:.0%}"
        return (f"{rate} on time ({self.met} met, {self.missed} missed), {self.abandoned} abandoned, "
                f"{self.to_ai} handed to the AI, in {self.games} game{'' if self.games == 1 else 's'}")


class NoticeLike(Protocol):
    """What reliability reads of a service notice (:class:`bot.models.Notice` fits)."""

    @property
    def game_id(self) -> str: ...
    @property
    def kind(self) -> str | None: ...
    @property
    def data(self) -> Mapping[str, Any]: ...
    @property
    def seq(self) -> int: ...


class ActionLike(Protocol):
    """What reliability reads of an action log row (:class:`bot.models.ActionRow` fits)."""

    @property
    def game_id(self) -> str: ...
    @property
    def seq(self) -> int: ...
    @property
    def player(self) -> int: ...
    @property
    def source(self) -> str: ...
    @property
    def user_id(self) -> int | None: ...
    @property
    def created_at(self) -> int: ...


def records_from_notices(notices: Iterable[NoticeLike], at: int) -> list[ReliabilityRecord]:
    """Reliability facts in a batch of service notices (one outcome's, usually), all at time ``at``."""
    out: list[ReliabilityRecord] = []
    for n in notices:
        data = n.data
        if n.kind == "timeout" and data.get("user_id") is not None:
            out.append(ReliabilityRecord(n.game_id, int(data["user_id"]), "missed", n.seq, at))
        elif n.kind == "autopilot" and data.get("user_id") is not None:
            out.append(ReliabilityRecord(n.game_id, int(data["user_id"]), "to_ai", n.seq, at))
        elif n.kind == "resigned" and data.get("old_user_id") is not None:
            out.append(ReliabilityRecord(n.game_id, int(data["old_user_id"]), "abandoned", n.seq, at))
        elif n.kind == "seat_replaced" and data.get("ai") and data.get("old_user_id") is not None:
            out.append(ReliabilityRecord(n.game_id, int(data["old_user_id"]), "to_ai", n.seq, at))
    return out


def records_from_log(actions: Iterable[ActionLike], seat_users: Mapping[int, int]) -> list[ReliabilityRecord]:
    """Deadlines met and missed in a game's action log.

    Args:
        actions: the game's log rows (any order; one game).
        seat_users: the person holding each engine seat (a league game's
            ``players`` by seat); timeout runs of other seats are skipped.
    """
    rows = sorted(actions, key=lambda a: (a.game_id, a.seq))
    out: list[ReliabilityRecord] = []
    previous: ActionLike | None = None
    for a in rows:
        if a.source == "human" and a.user_id is not None:
            out.append(ReliabilityRecord(a.game_id, a.user_id, "met", a.seq, a.created_at))
        elif a.source == "timeout" and a.player in seat_users:
            continues = (previous is not None and previous.source == "timeout" and previous.player == a.player
                         and previous.game_id == a.game_id and previous.seq == a.seq - 1)
            if not continues:
                out.append(ReliabilityRecord(a.game_id, seat_users[a.player], "missed", a.seq - 1,
                                             a.created_at))
        previous = a
    return out


def unique(records: Iterable[ReliabilityRecord]) -> list[ReliabilityRecord]:
    """Records without repeats (the first of each key kept), in their order."""
    seen: set[tuple[str, int, str, int]] = set()
    out: list[ReliabilityRecord] = []
    for r in records:
        if r.key not in seen:
            seen.add(r.key)
            out.append(r)
    return out


def summarise(
    records: Iterable[ReliabilityRecord], games_played: Mapping[int, int] | None = None
) -> dict[int, Reliability]:
    """Per player: deadlines met and missed, games abandoned, seats handed to the AI.

    Args:
        records: any mix of sources; repeats count once.
        games_played: league games per player (shown beside the counts); players
            listed here without records get a zero summary.
    """
    counts: dict[int, dict[str, int]] = {}
    games: dict[int, set[str]] = {}
    for r in unique(records):
        c = counts.setdefault(r.user_id, dict.fromkeys(KINDS, 0))
        c[r.kind] += 1
        games.setdefault(r.user_id, set()).add(r.game_id)
    played = dict(games_played or {})
    users = set(counts) | set(played)
    out: dict[int, Reliability] = {}
    for user in sorted(users):
        c = counts.get(user, dict.fromkeys(KINDS, 0))
        out[user] = Reliability(user, c["met"], c["missed"], c["abandoned"], c["to_ai"],
                                played.get(user, len(games.get(user, ()))))
    return out
