"""The season table: placing points, games, wins, average score and rating, with tie-breaks.

Only finished league games of the season count. Players are ordered by
points, then by the season's tie-breaks in the organisers' order:

* ``wins``: more first places (a shared first place counts as a win for each);
* ``average_score``: higher average final score;
* ``rating``: higher rating ordinal (players without a rating count as 0);
* ``head_to_head``: among the tied players only, more times placed ahead of
  another tied player in games where both played, minus the times behind;
* ``best_score``: higher best single-game score;
* ``fewest_games``: fewer games (the same points from fewer games).

Players still equal after every tie-break share the position (shown ``=3``)
and are listed by name. Signed-up players without a finished game close the
table with 0 points.

Points and averages are kept to 2 decimals, so the text, the picture and the
CSV exports show exactly the same numbers, and the CSV parses back to them.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from bot.leagues.models import LeagueGame, PointsTable, Season, round2
from bot.leagues.ratings import Rating, RatingConfig

PER_PAGE = 10


@dataclass(frozen=True)
class StandingRow:
    """One line of the season table.

    Attributes:
        position: 1 for the leader; players who share a place share the number.
        tied: the position is shared.
        rating: the rating ordinal (2 decimals), None when the player has no rating.
        rating_sigma: the rating's uncertainty (2 decimals), None without a rating.
        provisional: fewer rated games than the rating model asks for.
    """

    position: int
    tied: bool
    user_id: int
    name: str
    points: float
    games: int
    wins: int
    average_score: float
    best_score: int
    rating: float | None
    rating_sigma: float | None
    provisional: bool

    @property
    def position_label(self) -> str:
        return f"={self.position}" if self.tied else str(self.position)


@dataclass
class _Tally:
    user_id: int
    points: float = 0.0
    games: int = 0
    wins: int = 0
    score_sum: int = 0
    best: int = 0


def season_games(games: Iterable[LeagueGame], season: Season) -> list[LeagueGame]:
    """The finished games of ``season``, in the order they finished."""
    return sorted((g for g in games if g.league_id == season.league_id and g.season == season.number
                   and g.is_over), key=lambda g: (g.finished_at or 0, g.game_id))


def season_table(
    games: Iterable[LeagueGame],
    season: Season,
    names: Mapping[int, str] | None = None,
    ratings: Mapping[int, Rating] | None = None,
    rating_config: RatingConfig | None = None,
    signed_up: Iterable[int] = (),
) -> list[StandingRow]:
    """The standings of ``season`` from its finished games (see the module docstring)."""
    config = rating_config or RatingConfig()
    played = season_games(games, season)
    names = dict(names or {})
    for game in played:
        for user, name in zip(game.players, game.names, strict=True):
            names.setdefault(user, name)
    tallies: dict[int, _Tally] = {u: _Tally(u) for u in signed_up}
    for game in played:
        assert game.placings is not None and game.scores is not None
        awards = season.points.award(game.placings)
        for user, place, score, pts in zip(game.players, game.placings, game.scores, awards, strict=True):
            t = tallies.setdefault(user, _Tally(user))
            t.points = round2(t.points + pts)
            if t.games == 0 or score > t.best:
                t.best = score
            t.games += 1
            t.wins += place == 1
            t.score_sum += score
    ratings = ratings or {}

    def ordinal(user: int) -> float:
        r = ratings.get(user)
        return round2(r.ordinal(config.z)) if r is not None else 0.0

    def average(t: _Tally) -> float:
        return round2(t.score_sum / t.games) if t.games else 0.0

    keys: dict[str, Callable[[_Tally, Sequence[int]], float]] = {
        "wins": lambda t, _g: t.wins,
        "average_score": lambda t, _g: average(t),
        "rating": lambda t, _g: ordinal(t.user_id),
        "head_to_head": lambda t, group: _head_to_head(t.user_id, group, played),
        "best_score": lambda t, _g: t.best,
        "fewest_games": lambda t, _g: -t.games,
    }
    order = [keys[name] for name in season.tie_breaks]
    groups = _split(list(tallies.values()), [lambda t, _g: t.points, *order])
    rows: list[StandingRow] = []
    for group in groups:
        position = len(rows) + 1
        for t in sorted(group, key=lambda t: (names.get(t.user_id, "").casefold(), t.user_id)):
            r = ratings.get(t.user_id)
            rows.append(StandingRow(
                position=position, tied=len(group) > 1, user_id=t.user_id,
                name=names.get(t.user_id, "a player who left"), points=t.points, games=t.games, wins=t.wins,
                average_score=average(t), best_score=t.best, rating=ordinal(t.user_id) if r else None,
                rating_sigma=round2(r.sigma) if r else None,
                provisional=r.is_provisional(config) if r else True,
            ))
    return rows


def _split(
    tallies: list[_Tally], keys: Sequence[Callable[[_Tally, Sequence[int]], float]]
) -> list[list[_Tally]]:
    """Order ``tallies`` by ``keys`` (higher first), each key applied within the groups the last left."""
    if not keys or len(tallies) <= 1:
        return [tallies] if tallies else []
    group_ids = [t.user_id for t in tallies]
    first = keys[0]
    values = {t.user_id: first(t, group_ids) for t in tallies}
    out: list[list[_Tally]] = []
    for value in sorted(set(values.values()), reverse=True):
        same = [t for t in tallies if values[t.user_id] == value]
        out += _split(same, keys[1:])
    return out


def _head_to_head(user: int, group: Sequence[int], games: Sequence[LeagueGame]) -> int:
    """Times ``user`` placed ahead of another member of ``group`` minus the times behind."""
    net = 0
    for game in games:
        mine = game.placing_of(user)
        if mine is None:
            continue
        for other in group:
            theirs = game.placing_of(other) if other != user else None
            if theirs is not None:
                net += (theirs > mine) - (theirs < mine)
    return net


# -- text ---------------------------------------------------------------------------------

def page_count(rows: Sequence[StandingRow], per_page: int = PER_PAGE) -> int:
    return max(1, -(-len(rows) // per_page))


def table_text(
    rows: Sequence[StandingRow], page: int = 1, *, per_page: int = PER_PAGE, title: str = ""
) -> str:
    """One page of the table as monospaced text (for a Discord code block or the console).

    Columns: position, name, points, games, wins, average score, rating (``?``
    marks a provisional rating). Pages are numbered from 1; a page past the
    end shows the last one.
    """
    pages = page_count(rows, per_page)
    page = min(max(page, 1), pages)
    chunk = rows[(page - 1) * per_page:page * per_page]
    width = max([len(r.name) for r in chunk] + [6])
    width = min(width, 20)
    head = f"{'#':>3}  {'Player':<{width}} {'Pts':>7} {'G':>3} {'W':>3} {'Avg':>7} {'Rating':>8}"
    lines = [title] if title else []
    lines += [head, "-" * len(head)]
    for r in chunk:
        name = r.name if len(r.name) <= width else r.name[:width - 1] + "…"
        rating = "-" if r.rating is None else f"{r.rating:.1f}{'?' if r.provisional else ''}"
        lines.append(f"{r.position_label:>3}  {name:<{width}} {_num(r.points):>7} {r.games:>3} {r.wins:>3} "
                     f"{f'{r.average_score:.1f}' if r.games else '-':>7} {rating:>8}")
    if not chunk:
        lines.append("No games finished yet.")
    lines.append(f"Page {page}/{pages}")
    return "\n".join(lines)


def _num(value: float) -> str:
    """Points without needless decimals: 16, 12.5, 6.33."""
    return f"{value:.2f}".rstrip("0").rstrip(".")


# -- CSV ----------------------------------------------------------------------------------

STANDINGS_FIELDS = ("position", "tied", "user_id", "name", "points", "games", "wins", "average_score",
                    "best_score", "rating", "rating_sigma", "provisional")
RESULTS_FIELDS = ("game_id", "ruleset", "finished_at", "thread_id", "seat", "user_id", "name", "placing",
                  "score", "points")


_FORMULA = ("=", "+", "-", "@", "\t", "\r")


def _cell(name: str) -> str:
    """A name made safe for spreadsheets: a leading formula character gets a ``'`` in front."""
    return "'" + name if name.startswith(_FORMULA) else name


def _uncell(text: str) -> str:
    return text[1:] if text.startswith("'") and text[1:].startswith(_FORMULA) else text


def standings_csv(rows: Sequence[StandingRow]) -> str:
    """The table as CSV (one row per player, numbers with 2 decimals, empty rating when none)."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(STANDINGS_FIELDS)
    for r in rows:
        writer.writerow([r.position, int(r.tied), r.user_id, _cell(r.name), f"{r.points:.2f}", r.games,
                         r.wins, f"{r.average_score:.2f}", r.best_score,
                         "" if r.rating is None else f"{r.rating:.2f}",
                         "" if r.rating_sigma is None else f"{r.rating_sigma:.2f}", int(r.provisional)])
    return buf.getvalue()


def parse_standings_csv(text: str) -> list[StandingRow]:
    """Read :func:`standings_csv` output back."""
    reader = csv.DictReader(io.StringIO(text))
    if tuple(reader.fieldnames or ()) != STANDINGS_FIELDS:
        raise ValueError(f"expected the columns {', '.join(STANDINGS_FIELDS)}")
    return [StandingRow(
        position=int(d["position"]), tied=d["tied"] == "1", user_id=int(d["user_id"]),
        name=_uncell(d["name"]),
        points=float(d["points"]), games=int(d["games"]), wins=int(d["wins"]),
        average_score=float(d["average_score"]), best_score=int(d["best_score"]),
        rating=float(d["rating"]) if d["rating"] else None,
        rating_sigma=float(d["rating_sigma"]) if d["rating_sigma"] else None,
        provisional=d["provisional"] == "1",
    ) for d in reader]


@dataclass(frozen=True)
class ResultRow:
    """One player's line in the game results export."""

    game_id: str
    ruleset: str
    finished_at: int
    thread_id: int | None
    seat: int
    user_id: int
    name: str
    placing: int
    score: int
    points: float


def result_rows(games: Iterable[LeagueGame], points: PointsTable) -> list[ResultRow]:
    """Every player's result in every finished game, games in the order they finished."""
    out: list[ResultRow] = []
    for g in sorted((g for g in games if g.is_over), key=lambda g: (g.finished_at or 0, g.game_id)):
        assert g.placings is not None and g.scores is not None
        awards = points.award(g.placings)
        for seat, user in enumerate(g.players):
            out.append(ResultRow(g.game_id, g.ruleset, g.finished_at or 0, g.thread_id, seat, user,
                                 g.names[seat], g.placings[seat], g.scores[seat], awards[seat]))
    return out


def results_csv(rows: Sequence[ResultRow]) -> str:
    """Game results as CSV; ``finished_at`` as an ISO 8601 UTC time."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(RESULTS_FIELDS)
    for r in rows:
        when = datetime.fromtimestamp(r.finished_at, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        writer.writerow([r.game_id, r.ruleset, when, "" if r.thread_id is None else r.thread_id, r.seat,
                         r.user_id, _cell(r.name), r.placing, r.score, f"{r.points:.2f}"])
    return buf.getvalue()


def parse_results_csv(text: str) -> list[ResultRow]:
    """Read :func:`results_csv` output back."""
    reader = csv.DictReader(io.StringIO(text))
    if tuple(reader.fieldnames or ()) != RESULTS_FIELDS:
        raise ValueError(f"expected the columns {', '.join(RESULTS_FIELDS)}")
    out: list[ResultRow] = []
    for d in reader:
        when = datetime.strptime(d["finished_at"], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)
        out.append(ResultRow(d["game_id"], d["ruleset"], int(when.timestamp()),
                             int(d["thread_id"]) if d["thread_id"] else None, int(d["seat"]),
                             int(d["user_id"]),
                             _uncell(d["name"]), int(d["placing"]), int(d["score"]), float(d["points"])))
    return out
