"""The end of a season: the final table, the champions and the ratings carried into the next one."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from bot.leagues.models import LeagueGame, Season
from bot.leagues.ratings import Rating, RatingConfig, RatingPoint, Ratings, replay
from bot.leagues.standings import StandingRow, season_games, season_table


@dataclass(frozen=True)
class SeasonResult:
    """What closing a season produces.

    Attributes:
        table: the final standings.
        champions: user ids in first place (several only if they stayed equal
            after every tie-break).
        ratings: the ratings at the end of the season.
        history: every rating point of the season (for the chart).
        carried: the starting ratings of the next season (uncertainty grown back).
    """

    season: Season
    table: tuple[StandingRow, ...]
    champions: tuple[int, ...]
    ratings: Mapping[int, Rating]
    history: tuple[RatingPoint, ...]
    carried: Mapping[int, Rating]

    def announcement(self, league_name: str) -> str:
        """A sentence naming the champions, for the post with the final table."""
        names = [r.name for r in self.table if r.user_id in self.champions]
        if not names:
            return f"Season {self.season.number} of {league_name} ended without a finished game."
        who = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
        title = "champion" if len(names) == 1 else "joint champions"
        top = self.table[0]
        return (f"Season {self.season.number} of {league_name} is over: {who}, {title} with "
                f"{top.points:g} points from {top.games} game{'' if top.games == 1 else 's'}.")


def end_season(
    season: Season,
    games: Iterable[LeagueGame],
    *,
    names: Mapping[int, str] | None = None,
    initial: Mapping[int, Rating] | None = None,
    config: RatingConfig | None = None,
    signed_up: Iterable[int] = (),
) -> SeasonResult:
    """Close ``season``: rate its finished games from ``initial``, rank, name champions, carry ratings.

    Running games are left out (organisers usually wait for them or abandon them first).
    """
    config = config or RatingConfig()
    played = season_games(games, season)
    ledger: Ratings
    ledger, history = replay(played, config, initial)
    table = season_table(played, season, names, ledger.all(), config, signed_up)
    champions = tuple(r.user_id for r in table if r.position == 1 and r.games > 0)
    return SeasonResult(season, tuple(table), champions, ledger.all(), tuple(history), ledger.carry_over())
