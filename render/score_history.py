"""Chart data derived from a game's events: scores turn by turn, by epoch, and who played what.

The functions here read the public events a game emits (``turn``, ``scored``,
``epoch``, ``preeminence``, ``game_over``) and need neither the rules nor any
drawing library, so the bot can build chart data from its stored event log and
the demo from a live game. Events may be :class:`engine.core.Event` objects or
their JSON form (``{"type": ..., "data": ...}``).

The derived data is game-agnostic where that costs nothing: a score series is a
list of :class:`ScorePoint` (a label, every player's score, and the period --
the epoch -- it belongs to), so a game with rounds instead of epochs fits too.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.core import Action, Event, Game

ROMAN = ("", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X")

#: The events the derivation reads; everything else is skipped.
USED_EVENTS = frozenset({"epoch", "turn", "scored", "preeminence", "game_over"})


@dataclass(frozen=True)
class ScorePoint:
    """Every player's score at one moment of the game.

    Attributes:
        label: what just happened, e.g. ``"II.3 Persia"`` (epoch II, third empire called).
        scores: every player's score at that moment, by seat.
        period: the epoch (or round) the moment belongs to; 0 for the start of the game.
        player: the player who just scored, or None (start, final markers).
    """

    label: str
    scores: tuple[int, ...]
    period: int
    player: int | None = None


@dataclass(frozen=True)
class EmpirePlayed:
    """An empire a player commanded: its name, strength and epoch."""

    name: str
    strength: int
    period: int
    key: str = ""


@dataclass(frozen=True)
class GameHistory:
    """Everything the charts need, derived from one game's events.

    Attributes:
        players: number of seats.
        series: the start (all zero), then one point after each scored turn, then
            (once the game is over) a ``"Final"`` point with the end-of-game bonuses.
        empires: for each player, the empires commanded, in order of play.
        final: the final scores once the game is over, else None.
        ranking: players from first to last once the game is over, else None.
    """

    players: int
    series: tuple[ScorePoint, ...]
    empires: tuple[tuple[EmpirePlayed, ...], ...]
    final: tuple[int, ...] | None
    ranking: tuple[int, ...] | None

    @property
    def scores(self) -> tuple[int, ...]:
        """The latest scores (the final ones once the game is over)."""
        return self.final if self.final is not None else self.series[-1].scores

    @property
    def over(self) -> bool:
        return self.final is not None


def roman(n: int) -> str:
    """``n`` in Roman numerals for 1..10, else the plain number."""
    return ROMAN[n] if 0 < n < len(ROMAN) else str(n)


def _type_data(event: Event | Mapping[str, Any]) -> tuple[str, Mapping[str, Any]]:
    if isinstance(event, Event):
        return event.type, event.data
    return str(event.get("type", "")), event.get("data") or {}


def history_from_events(
    events: Iterable[Event | Mapping[str, Any]], players: int, *, first_period: int = 1
) -> GameHistory:
    """Derive a :class:`GameHistory` from a game's events in the order they happened.

    The first epoch's ``epoch`` event is emitted by ``setup`` and so is often
    missing from an action-by-action log: play starts in ``first_period``
    unless an ``epoch`` event says otherwise.

    Args:
        events: the game's events (objects or JSON dicts); unknown types are skipped.
        players: the number of players.
        first_period: the epoch the game starts in.

    Returns:
        The score series, the empires each player commanded, and the final result if any.
    """
    scores = [0] * players
    series = [ScorePoint("Start", tuple(scores), 0)]
    empires: list[list[EmpirePlayed]] = [[] for _ in range(players)]
    period = first_period
    calls = 0  # empires called so far this epoch
    names: dict[int, str] = {}  # player -> name of the empire whose turn it is
    final: tuple[int, ...] | None = None
    ranking: tuple[int, ...] | None = None
    for event in events:
        kind, data = _type_data(event)
        if kind not in USED_EVENTS:
            continue
        if kind == "epoch":
            new = int(data["epoch"])
            if new != period:
                calls = 0
            period = new
        elif kind == "turn":
            player = int(data["player"])
            calls += 1
            names[player] = f"{roman(period)}.{calls} {data['name']}"
            empires[player].append(EmpirePlayed(
                str(data["name"]), int(data["strength"]), period, str(data.get("empire", "")),
            ))
        elif kind == "scored":
            player = int(data["player"])
            scores[player] = int(data["score"])
            label = names.pop(player, f"{roman(period)} {player + 1}")
            series.append(ScorePoint(label, tuple(scores), period, player))
        elif kind == "preeminence":
            # The epoch is over; the next ``epoch`` event (if any) starts the count again.
            calls = 0
            period = int(data.get("epoch", period)) + 1
        elif kind == "game_over":
            final = tuple(int(s) for s in data["final"])
            ranking = tuple(int(p) for p in data.get("ranking") or ()) or None
            last = series[-1].period if series[-1].period else first_period
            if final != tuple(scores):
                series.append(ScorePoint("Final", final, last))
    return GameHistory(
        players=players,
        series=tuple(series),
        empires=tuple(tuple(e) for e in empires),
        final=final,
        ranking=ranking,
    )


def epoch_scores(series: Sequence[ScorePoint]) -> list[tuple[str, tuple[int, ...]]]:
    """Every player's score at the end of each period, as ``(roman numeral, scores)``.

    A ``"Final"`` point (end-of-game bonuses) becomes its own ``"Final"`` entry.
    """
    out: dict[str, tuple[int, ...]] = {}
    for point in series:
        if point.period == 0:
            continue
        key = "Final" if point.label == "Final" else roman(point.period)
        out[key] = point.scores
    return list(out.items())


def epoch_gains(series: Sequence[ScorePoint]) -> list[tuple[str, tuple[int, ...]]]:
    """Points each player gained in each period (the differences of :func:`epoch_scores`)."""
    totals = epoch_scores(series)
    if not totals:
        return []
    previous = tuple(0 for _ in totals[0][1])
    out = []
    for label, scores in totals:
        out.append((label, tuple(s - p for s, p in zip(scores, previous, strict=True))))
        previous = scores
    return out


def empires_from_played(
    played: Sequence[Sequence[str]], empires: Mapping[str, Any]
) -> tuple[tuple[EmpirePlayed, ...], ...]:
    """Empires per player from ``state.played_empires`` (or a view's ``played_empires``).

    Args:
        played: for each player, the keys of the empires played in order.
        empires: the rules' empires by key (objects with ``name``, ``strength``, ``epoch``).
    """
    return tuple(
        tuple(EmpirePlayed(empires[k].name, empires[k].strength, empires[k].epoch, k) for k in keys)
        for keys in played
    )


def replay_events(
    game: Game, players: int, options: Mapping[str, Any], seed: int, actions: Sequence[Action]
) -> list[Event]:
    """Replay an action log from its seed and collect every event ``apply`` emitted."""
    state = game.setup(players, options, seed)
    out: list[Event] = []
    for action in actions:
        result = game.apply(state, action)
        state = result.state
        out.extend(result.events)
    return out


def replay_history(
    game: Game, players: int, options: Mapping[str, Any], seed: int, actions: Sequence[Action]
) -> GameHistory:
    """:func:`history_from_events` over a replay of the action log."""
    return history_from_events(replay_events(game, players, options, seed, actions), players)
