"""How league ratings settle over slow seasons: mean sigma and mean shown rating per season.

Run by hand (never from the tests):
    .venv/bin/python bench/bench_seasons.py [--seasons 4] [--players 20] [--leagues 50] [--seed 1]

A league of ``--players`` players, each with a hidden true skill (drawn once, normal around the model's
mean with a spread of one performance noise ``beta``), plays ``--seasons`` seasons. In each season every
player plays 3 to 6 games (drawn per player and season), at tables of 3 to 6 players (as the leagues seat
History of the World and the other multiplayer games) made from players who still have games to play.
A seat's result is its true skill plus Gaussian noise of ``beta``; the ranking of those results is the
game's placings (no ties). The games are rated with :class:`bot.leagues.ratings.Ratings` and the
ratings carried into the next season with :func:`bot.leagues.ratings.carry`, under two settings:

* before: the old carry-over (``season_tau = sigma0 / 2``, which returns anyone with sigma >= 7.2 to a
  newcomer's uncertainty) and games that may raise sigma (``limit_sigma=False``);
* after: today's settings (``RatingConfig()``: ``season_tau = sigma0 / 8`` and ``limit_sigma=True``).

Both settings see exactly the same games and results (the same seed). Printed per season, as
averages over ``--leagues`` simulated leagues: mean sigma and mean shown rating (``mu - 3 sigma``) at the
season's end, the same at the start of the next season (after the carry-over), and the rank
correlation between shown ratings and hidden skills at the season's end.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.leagues.ratings import DEFAULT_MU, DEFAULT_SIGMA, Rating, RatingConfig, Ratings, carry

BETA = DEFAULT_SIGMA / 2  # openskill's default performance noise
GAMES_PER_SEASON = (3, 6)
TABLE_SIZES = (3, 6)
SETTINGS = {
    "before": RatingConfig(season_tau=DEFAULT_SIGMA / 2, limit_sigma=False),
    "after": RatingConfig(),
}

Game = tuple[tuple[int, ...], tuple[int, ...]]  # players, placings


@dataclass
class SeasonFigures:
    """Means over the league's players at the end of a season and at the start of the next."""

    sigma_end: float
    shown_end: float
    sigma_next: float
    shown_next: float
    rank_correlation: float


def season_games(rng: random.Random, players: Sequence[int], skill: dict[int, float]) -> list[Game]:
    """One season's games: each player plays 3-6, at tables of 3-6, placings from noisy results."""
    left = {u: rng.randint(*GAMES_PER_SEASON) for u in players}
    games: list[Game] = []
    while True:
        waiting = [u for u in players if left[u] > 0]
        if len(waiting) < TABLE_SIZES[0]:
            return games  # the last one or two players short of a table sit the rest out
        size = min(rng.randint(*TABLE_SIZES), len(waiting))
        # those with most games left are seated first, as a queue fills with whoever still wants to play
        rng.shuffle(waiting)
        waiting.sort(key=lambda u: -left[u])
        table = tuple(waiting[:size])
        result = {u: rng.gauss(skill[u], BETA) for u in table}
        order = sorted(table, key=lambda u: -result[u])
        games.append((table, tuple(order.index(u) + 1 for u in table)))
        for u in table:
            left[u] -= 1


def ranks(values: Sequence[float]) -> list[float]:
    """Ranks from 1 (values are continuous draws: no ties to average)."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    out = [0.0] * len(values)
    for rank, i in enumerate(order, start=1):
        out[i] = float(rank)
    return out


def spearman(a: Sequence[float], b: Sequence[float]) -> float:
    """Spearman's rank correlation of two equally long sequences."""
    ra, rb = ranks(a), ranks(b)
    ma, mb = statistics.fmean(ra), statistics.fmean(rb)
    num = sum((x - ma) * (y - mb) for x, y in zip(ra, rb, strict=True))
    den = math.sqrt(sum((x - ma) ** 2 for x in ra) * sum((y - mb) ** 2 for y in rb))
    return num / den


def run_league(seed: int, players: int, seasons: int) -> dict[str, list[SeasonFigures]]:
    """One league's seasons under every setting, from the same games."""
    rng = random.Random(seed)
    people = list(range(1, players + 1))
    skill = {u: rng.gauss(DEFAULT_MU, BETA) for u in people}
    schedule = [season_games(rng, people, skill) for _ in range(seasons)]
    out: dict[str, list[SeasonFigures]] = {}
    for name, config in SETTINGS.items():
        start: dict[int, Rating] = {}
        figures = []
        for games in schedule:
            ledger = Ratings(config, start)
            for table, placings in games:
                ledger.update(table, placings)
            end = {u: ledger.get(u) for u in people}
            start = {u: carry(r, config) for u, r in end.items()}
            figures.append(SeasonFigures(
                statistics.fmean(r.sigma for r in end.values()),
                statistics.fmean(r.ordinal(config.z) for r in end.values()),
                statistics.fmean(r.sigma for r in start.values()),
                statistics.fmean(r.ordinal(config.z) for r in start.values()),
                spearman([end[u].ordinal(config.z) for u in people], [skill[u] for u in people]),
            ))
        out[name] = figures
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seasons", type=int, default=4)
    parser.add_argument("--players", type=int, default=20)
    parser.add_argument("--leagues", type=int, default=50, help="simulated leagues averaged")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    runs = [run_league(args.seed * 100_003 + i, args.players, args.seasons) for i in range(args.leagues)]
    print(f"{args.leagues} leagues of {args.players} players, {args.seasons} seasons of "
          f"{GAMES_PER_SEASON[0]}-{GAMES_PER_SEASON[1]} games a player at tables of "
          f"{TABLE_SIZES[0]}-{TABLE_SIZES[1]} (seed {args.seed})")
    for name, config in SETTINGS.items():
        print(f"\n{name}: season_tau={config.season_tau:.3f} limit_sigma={config.limit_sigma}")
        print("season  sigma(end)  shown(end)  sigma(next start)  shown(next start)  rank corr")
        for number in range(args.seasons):
            f = [run[name][number] for run in runs]
            print(f"{number + 1:>6}  {statistics.fmean(x.sigma_end for x in f):>10.3f}  "
                  f"{statistics.fmean(x.shown_end for x in f):>10.3f}  "
                  f"{statistics.fmean(x.sigma_next for x in f):>17.3f}  "
                  f"{statistics.fmean(x.shown_next for x in f):>17.3f}  "
                  f"{statistics.fmean(x.rank_correlation for x in f):>9.3f}")


if __name__ == "__main__":
    main()
