"""Multiplayer skill ratings from final placings, with openskill's Plackett-Luce model.

Each player's skill is a Gaussian belief ``mu`` with uncertainty ``sigma``
(openskill's defaults: 25 and 25/3). After every finished league game the
placings (1 = first, equal numbers for a shared place) update every player at
the table at once. What players see is the conservative *ordinal*
``mu - 3 sigma``: a skill the player is about 99.7 % likely to exceed, so it
starts at 0 and grows as games make the belief both higher and surer. A player
with fewer than ``provisional_games`` rated games is marked provisional.

Within a season a game never makes a rating less certain (openskill's
``limit_sigma``): without it, the model's small per-game growth of sigma could
outweigh what a lopsided game teaches, and a favourite who beat a weak player
would see the shown rating fall.

Between seasons each rating carries over with its ``mu`` kept and a small,
fixed uncertainty added in quadrature, ``sigma' = min(sqrt(sigma^2 + tau^2),
sigma0)``, as if true skill drifted between seasons with a standard deviation
of ``tau``. ``tau = sigma0 / 8`` (about 1.04, a quarter of
the model's per-game performance noise ``beta = sigma0 / 2``) is:

* small against what a slow season teaches: 3-6 multiplayer games take 0.4-0.7
  off sigma in the first seasons, so mean sigma still falls season
  over season (``bench/bench_seasons.py``: 7.7, 7.2, 6.8, 6.4 at the ends of four
  seasons), where the old ``tau = sigma0 / 2`` put anyone with sigma >= 7.2 back
  to a newcomer's uncertainty and mean sigma stayed at 7.7;
* not nothing: a settled player (sigma 2) comes back at sigma 2.25, so a new
  season can still move the rating, and about 60 seasons away would take a
  settled rating back to a newcomer's uncertainty.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

from bot.leagues.models import LeagueGame

DEFAULT_MU = 25.0
DEFAULT_SIGMA = 25.0 / 3.0
#: The uncertainty a rating gains at each season's end (see the module docstring for the choice).
SEASON_TAU = DEFAULT_SIGMA / 8


@dataclass(frozen=True)
class RatingConfig:
    """Settings of the rating model.

    Attributes:
        mu / sigma: a new player's rating.
        provisional_games: rated games before a rating stops being provisional.
        season_tau: uncertainty added (in quadrature) when a rating moves to the next season.
        z: how many sigmas the shown ordinal lies below mu.
        limit_sigma: whether a game may only lower a player's sigma (openskill's option).
    """

    mu: float = DEFAULT_MU
    sigma: float = DEFAULT_SIGMA
    provisional_games: int = 5
    season_tau: float = SEASON_TAU
    z: float = 3.0
    limit_sigma: bool = True

    def model(self) -> PlackettLuce:
        """The openskill model these settings describe."""
        return PlackettLuce(mu=self.mu, sigma=self.sigma, limit_sigma=self.limit_sigma)


@dataclass(frozen=True)
class Rating:
    """One player's rating: belief ``mu``, uncertainty ``sigma``, rated games so far."""

    mu: float
    sigma: float
    games: int = 0

    def ordinal(self, z: float = 3.0) -> float:
        """The conservative skill shown in tables: ``mu - z * sigma``."""
        return self.mu - z * self.sigma

    def is_provisional(self, config: RatingConfig) -> bool:
        return self.games < config.provisional_games

    def shown(self, config: RatingConfig | None = None) -> str:
        """``"12.3 (27.4 ± 5.0)"``, with a ``?`` after provisional ratings."""
        config = config or RatingConfig()
        mark = "?" if self.is_provisional(config) else ""
        return f"{self.ordinal(config.z):.1f}{mark} ({self.mu:.1f} ± {self.sigma:.1f})"


@dataclass(frozen=True)
class RatingPoint:
    """A player's rating right after a game (``game_id`` None: the season's starting rating)."""

    user_id: int
    game_id: str | None
    at: int
    mu: float
    sigma: float
    games: int

    @property
    def rating(self) -> Rating:
        return Rating(self.mu, self.sigma, self.games)


class Ratings:
    """A season's ratings ledger: current ratings, updated game by game.

    Args:
        config: the model settings.
        initial: starting ratings (e.g. carried over from the last season).
    """

    def __init__(
        self, config: RatingConfig | None = None, initial: Mapping[int, Rating] | None = None
    ) -> None:
        self.config = config or RatingConfig()
        self._model = self.config.model()
        self._ratings: dict[int, Rating] = dict(initial or {})

    def get(self, user_id: int) -> Rating:
        return self._ratings.get(user_id, Rating(self.config.mu, self.config.sigma, 0))

    def all(self) -> dict[int, Rating]:
        return dict(self._ratings)

    def ordinals(self) -> dict[int, float]:
        return {u: r.ordinal(self.config.z) for u, r in self._ratings.items()}

    def update(self, players: Sequence[int], placings: Sequence[int]) -> dict[int, Rating]:
        """Rate one finished game; returns (and keeps) the new ratings of its players.

        Ties: players with equal placings are passed to openskill with equal
        ranks, which treats them as a draw between them.
        """
        if len(players) != len(placings) or len(players) < 2:
            raise ValueError("a rated game has at least two players, each with a placing")
        before = [self.get(u) for u in players]
        teams = [[self._model.rating(mu=r.mu, sigma=r.sigma)] for r in before]
        result = self._model.rate(teams, ranks=[float(p) for p in placings])
        after: dict[int, Rating] = {}
        for user, old, team in zip(players, before, result, strict=True):
            new = team[0]
            after[user] = Rating(float(new.mu), float(new.sigma), old.games + 1)
        self._ratings.update(after)
        return after

    def rate_game(self, game: LeagueGame) -> dict[int, Rating]:
        """Rate a finished :class:`LeagueGame`."""
        if game.placings is None:
            raise ValueError(f"game {game.game_id} has no result")
        return self.update(game.players, game.placings)

    def carry_over(self) -> dict[int, Rating]:
        """Ratings for the next season: same mu, uncertainty grown back, game counts kept."""
        return {u: carry(r, self.config) for u, r in self._ratings.items()}


def carry(rating: Rating, config: RatingConfig) -> Rating:
    """One rating moved to the next season (see the module docstring).

    Args:
        rating: the rating at the end of the season.
        config: the model settings (``season_tau`` and the newcomer's ``sigma``, its cap).

    Returns:
        The starting rating of the next season: same ``mu`` and game count, ``sigma`` grown.
    """
    sigma = min(config.sigma, math.sqrt(rating.sigma ** 2 + config.season_tau ** 2))
    return Rating(rating.mu, sigma, rating.games)


def replay(
    games: Iterable[LeagueGame], config: RatingConfig | None = None,
    initial: Mapping[int, Rating] | None = None,
) -> tuple[Ratings, list[RatingPoint]]:
    """Rate finished games in the order they finished (then by id); the ledger and its history.

    The history starts with a point per player of ``initial`` (at time 0, no
    game), then one point per player per game.
    """
    ledger = Ratings(config, initial)
    history = [RatingPoint(u, None, 0, r.mu, r.sigma, r.games) for u, r in sorted((initial or {}).items())]
    done = sorted((g for g in games if g.is_over), key=lambda g: (g.finished_at or 0, g.game_id))
    for game in done:
        for user, rating in ledger.rate_game(game).items():
            history.append(RatingPoint(user, game.game_id, game.finished_at or 0, rating.mu, rating.sigma,
                                       rating.games))
    return ledger, history
