"""Plain records of a league: the league itself, its seasons, sign-ups and games.

Times are whole Unix seconds (UTC), people are Discord user ids, as in
:mod:`bot.models`. Every record converts to and from JSON-friendly dicts so the
store can keep its settings in JSON columns.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Literal

SeasonStatus = Literal["open", "closed"]
LeagueGameStatus = Literal["running", "over", "abandoned"]

#: Tie-breaks an organiser may order, applied after placing points (see bot.leagues.standings).
TIE_BREAKS: Final = ("wins", "average_score", "rating", "head_to_head", "best_score", "fewest_games")
DEFAULT_TIE_BREAKS: Final = ("wins", "head_to_head", "average_score")
DEFAULT_POINTS: Final = (10.0, 6.0, 3.0, 1.0)
MIN_MOVE_SECONDS: Final = 60
MAX_MOVE_SECONDS: Final = 14 * 24 * 3600
MAX_NAME: Final = 64


def round2(value: float) -> float:
    """Points and averages are kept to 2 decimals, so text, pictures and CSV agree exactly."""
    return round(value + 0.0, 2)


@dataclass(frozen=True)
class PointsTable:
    """Placing points, adjusted to the number of players in a game.

    ``base`` is the table as organisers state it (``10, 6, 3, 1``: 1st to 4th).
    A game with a player count listed in ``by_count`` uses that row as it is.
    Otherwise the base table is stretched or shrunk to the player count: the
    winner always gets the first entry and the last player the last entry, and
    place ``p`` of ``n`` reads the base table at the same relative position
    ``(p - 1) / (n - 1)``, interpolating linearly between neighbouring entries
    and rounding half up to a whole point. So with ``10, 6, 3, 1`` a 3-player
    game pays ``10, 5, 1`` and a 6-player game ``10, 8, 5, 4, 2, 1``: finishing
    last never pays more in a bigger game, beating more players pays more.

    Players who share a place share the points of the places they cover
    equally (two tied for 1st in a 4-player game get ``(10 + 6) / 2 = 8`` each),
    rounded to 2 decimals.
    """

    base: tuple[float, ...] = DEFAULT_POINTS
    by_count: Mapping[int, tuple[float, ...]] = field(default_factory=dict)

    def problems(self) -> list[str]:
        """Sentences describing what is wrong (empty when valid)."""
        out: list[str] = []
        rows = [("The points table", self.base)] + [
            (f"The points for {n} players", row) for n, row in sorted(self.by_count.items())]
        for label, row in rows:
            if not row:
                out.append(f"{label} is empty.")
            elif any(p < 0 for p in row):
                out.append(f"{label} has negative points.")
            elif any(a < b for a, b in itertools.pairwise(row)):
                out.append(f"{label} must not pay a worse place more than a better one.")
        for n, row in self.by_count.items():
            if row and len(row) != n:
                out.append(f"The points for {n} players need {n} entries, not {len(row)}.")
        return out

    def for_players(self, n: int) -> tuple[float, ...]:
        """The points for places 1..n in an ``n``-player game."""
        if n < 1:
            raise ValueError("a game has at least one player")
        if n in self.by_count:
            return tuple(float(p) for p in self.by_count[n])
        base = [float(p) for p in self.base]
        if n == 1:
            return (base[0],)
        if len(base) == 1:
            return tuple(base[0] if i == 0 else 0.0 for i in range(n))
        out: list[float] = []
        for place in range(n):
            x = place * (len(base) - 1) / (n - 1)
            low = int(x)
            high = min(low + 1, len(base) - 1)
            value = base[low] + (base[high] - base[low]) * (x - low)
            out.append(float(int(value + 0.5 + 1e-9)))  # half up
        return tuple(out)

    def award(self, placings: Sequence[int]) -> list[float]:
        """Points per player for ``placings`` (1 = first; equal numbers share a place)."""
        n = len(placings)
        table = self.for_players(n)
        out: list[float] = []
        for p in placings:
            if not 1 <= p <= n:
                raise ValueError(f"placing {p} is outside 1..{n}")
            shared = sum(1 for q in placings if q == p)
            covered = table[p - 1:p - 1 + shared]
            out.append(round2(sum(covered) / shared))
        return out

    def to_json(self) -> dict[str, Any]:
        rows = {str(n): list(r) for n, r in sorted(self.by_count.items())}
        return {"base": list(self.base), "by_count": rows}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> PointsTable:
        rows = dict(data.get("by_count", {}))
        return cls(tuple(float(p) for p in data.get("base", DEFAULT_POINTS)),
                   {int(n): tuple(float(p) for p in row) for n, row in rows.items()})


@dataclass(frozen=True)
class League:
    """A league of one Discord server.

    Attributes:
        league_id: stable id (e.g. ``"l-<guild>-<n>"``), chosen by the caller.
        guild_id: the server.
        name: unique per server.
        rulesets: the registered game ids the league plays (:func:`engine.registry.game_ids`).
        options: per ruleset, the engine options its games use.
        move_seconds: the time per move of its games.
        organiser_role_id: members with this role organise the league (besides Manage Server).
        created_by / created_at: who made it, when.
    """

    league_id: str
    guild_id: int
    name: str
    rulesets: tuple[str, ...]
    created_by: int
    created_at: int
    options: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    move_seconds: int = 24 * 3600
    organiser_role_id: int | None = None

    def problems(self) -> list[str]:
        out: list[str] = []
        if not " ".join(self.name.split()):
            out.append("A league needs a name.")
        elif len(self.name) > MAX_NAME:
            out.append(f"A league name has at most {MAX_NAME} characters.")
        if not self.rulesets:
            out.append("A league plays at least one game.")
        if any(r not in self.rulesets for r in self.options):
            out.append("Options are given for a game the league does not play.")
        if not MIN_MOVE_SECONDS <= self.move_seconds <= MAX_MOVE_SECONDS:
            out.append("The time per move must be between 1 minute and 14 days.")
        return out

    def is_organiser(self, user_id: int, role_ids: Sequence[int], manages_server: bool) -> bool:
        """Organisers: members with Manage Server, or with the league's organiser role, or its creator."""
        if manages_server or user_id == self.created_by:
            return True
        return self.organiser_role_id is not None and self.organiser_role_id in role_ids


@dataclass(frozen=True)
class Season:
    """One season of a league.

    Attributes:
        number: 1, 2, 3... within the league.
        starts_at / ends_at: the planned dates (Unix seconds); games finished
            in between count. Organisers close a season explicitly.
        status: ``open`` (games count, sign-ups allowed) or ``closed``.
        points: the placing points table.
        tie_breaks: names from :data:`TIE_BREAKS`, applied in order after points.
    """

    league_id: str
    number: int
    starts_at: int
    ends_at: int
    status: SeasonStatus = "open"
    points: PointsTable = field(default_factory=PointsTable)
    tie_breaks: tuple[str, ...] = DEFAULT_TIE_BREAKS

    def problems(self) -> list[str]:
        out = list(self.points.problems())
        if self.number < 1:
            out.append("Seasons are numbered from 1.")
        if self.ends_at <= self.starts_at:
            out.append("A season must end after it starts.")
        unknown = [t for t in self.tie_breaks if t not in TIE_BREAKS]
        if unknown:
            out.append(f"Unknown tie-breaks: {', '.join(unknown)} (known: {', '.join(TIE_BREAKS)}).")
        if len(set(self.tie_breaks)) != len(self.tie_breaks):
            out.append("A tie-break is listed twice.")
        return out


@dataclass(frozen=True)
class SignUp:
    """A player who joined a season."""

    league_id: str
    season: int
    user_id: int
    display_name: str
    joined_at: int


@dataclass(frozen=True)
class LeagueGame:
    """A league game: an ordinary game with a league tag, and its result once over.

    Attributes:
        players: user ids by engine seat (seat 0 first).
        names: display names by seat, as they were when the game started.
        placings: by seat, 1 = first (equal numbers share a place); None until over.
        scores: final scores by seat; None until over.
        fixed: an organiser's pairing rather than the matchmaker's.
        thread_id: the game's Discord thread (read from the games table).
    """

    game_id: str
    league_id: str
    season: int
    ruleset: str
    players: tuple[int, ...]
    names: tuple[str, ...]
    created_at: int
    status: LeagueGameStatus = "running"
    placings: tuple[int, ...] | None = None
    scores: tuple[int, ...] | None = None
    finished_at: int | None = None
    thread_id: int | None = None
    fixed: bool = False

    def __post_init__(self) -> None:
        if len(self.names) != len(self.players):
            raise ValueError("one name per player")
        if len(set(self.players)) != len(self.players):
            raise ValueError("a player holds one seat per game")
        for seq in (self.placings, self.scores):
            if seq is not None and len(seq) != len(self.players):
                raise ValueError("placings and scores are given per seat")

    @property
    def is_over(self) -> bool:
        return self.status == "over" and self.placings is not None and self.scores is not None

    def placing_of(self, user_id: int) -> int | None:
        if self.placings is None or user_id not in self.players:
            return None
        return self.placings[self.players.index(user_id)]

    def score_of(self, user_id: int) -> int | None:
        if self.scores is None or user_id not in self.players:
            return None
        return self.scores[self.players.index(user_id)]


def placings_from_ranking(ranking: Sequence[int], players: int) -> tuple[int, ...]:
    """Placings by seat from the engine's ranking (seats best first).

    The engine already applied the rulebook's tie-breaks (History of the World:
    score, then weaker empires played, then pre-eminence, then epoch VII
    strength), so its ranking is a strict order and no places are shared.
    """
    if sorted(ranking) != list(range(players)):
        raise ValueError(f"a ranking lists each of the {players} seats once")
    out = [0] * players
    for place, seat in enumerate(ranking, start=1):
        out[seat] = place
    return tuple(out)


def placings_from_places(places: Sequence[Sequence[int]], players: int) -> tuple[int, ...]:
    """Placings by seat from the engine's places (best first; the seats of one place tied on every
    tie-break the game has): competition placings, so a shared place shares its number (1, 1, 3)."""
    if sorted(p for place in places for p in place) != list(range(players)):
        raise ValueError(f"places list each of the {players} seats once")
    out = [0] * players
    number = 1
    for place in places:
        for seat in place:
            out[seat] = number
        number += len(place)
    return tuple(out)


def placings_from_scores(scores: Sequence[float]) -> tuple[int, ...]:
    """Competition placings from scores alone (equal scores share a place: 1, 2, 2, 4)."""
    return tuple(1 + sum(1 for other in scores if other > s) for s in scores)
