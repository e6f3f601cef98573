"""Community leagues: points, standings, ratings, reliability, matchmaking, exports, store and migration."""

from __future__ import annotations

import contextlib
import io
import random
import shutil
import sqlite3
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from PIL import Image

from bot.clock import FakeClock
from bot.leagues.matchmaking import Match, MatchConfig, Matchmaker, MatchmakingError, QueueEntry
from bot.leagues.models import (
    League,
    LeagueGame,
    PointsTable,
    Season,
    SignUp,
    placings_from_places,
    placings_from_ranking,
    placings_from_scores,
)
from bot.leagues.ratings import DEFAULT_SIGMA, Rating, RatingConfig, RatingPoint, Ratings, carry, replay
from bot.leagues.reliability import (
    ReliabilityRecord,
    records_from_log,
    records_from_notices,
    summarise,
)
from bot.leagues.season import end_season
from bot.leagues.service import Actor, GameResult, LeagueError, LeagueService
from bot.leagues.standings import (
    page_count,
    parse_results_csv,
    parse_standings_csv,
    result_rows,
    results_csv,
    season_table,
    standings_csv,
    table_text,
)
from bot.leagues.store import MIGRATION, MIGRATION_NUMBER, LeagueConflict, LeagueStore
from bot.models import Notice, NoticeKind, Outcome, TimerSettings
from bot.notices import platform_text
from bot.service import GameService
from bot.store import MIGRATIONS_DIR, Store, StoreError, list_migrations
from engine.registry import get_game, make_policy
from render.league import RatingSeries, rating_chart, season_table_png, season_table_pngs
from tests.support.schema_helpers import service_migrations

GAME = "history-classic"
LEAGUE = "l1"
T0 = 1_704_067_200  # 2024-01-01
DAY = 86_400
PLAYERS = {101: "Ada", 102: "Bertil", 103: "Chiara", 104: "Dmitri", 105: "Eun-ji", 106: "Femi",
           107: "Gudrun", 108: "Hamid"}
STRONG = (101, 102, 103)  # the greedy AI; the others play the random AI


def season(**kw: Any) -> Season:
    base = Season(LEAGUE, 1, T0, T0 + 60 * DAY, points=PointsTable((10, 6, 3, 1)),
                  tie_breaks=("wins", "average_score"))
    return replace(base, **kw)


def finished(game_id: str, players: tuple[int, ...], placings: tuple[int, ...], scores: tuple[int, ...],
             at: int, *, number: int = 1) -> LeagueGame:
    return LeagueGame(game_id, LEAGUE, number, GAME, players, tuple(PLAYERS.get(u, f"P{u}") for u in players),
                      T0, status="over", placings=placings, scores=scores, finished_at=at,
                      thread_id=900 + at % 97)


# -- points --------------------------------------------------------------------------------

def test_points_table_adjusts_to_the_player_count() -> None:
    table = PointsTable((10, 6, 3, 1))
    assert table.for_players(4) == (10, 6, 3, 1)
    assert table.for_players(3) == (10, 5, 1)  # 2nd reads halfway between 6 and 3, rounded half up
    assert table.for_players(5) == (10, 7, 5, 3, 1)
    assert table.for_players(6) == (10, 8, 5, 4, 2, 1)
    explicit = PointsTable((10, 6, 3, 1), {3: (8, 4, 0)})
    assert explicit.for_players(3) == (8, 4, 0)
    # shared places share the points of the places they cover
    assert table.award([1, 1, 3, 4]) == [8.0, 8.0, 3.0, 1.0]
    assert table.award([1, 2, 2, 2]) == [10.0, 3.33, 3.33, 3.33]
    assert PointsTable((10, 6, 3, 1), {4: (1, 2, 3, 4)}).problems()
    assert PointsTable((1, 3)).problems()
    assert PointsTable.from_json(explicit.to_json()) == explicit
    assert placings_from_ranking([2, 0, 3, 1], 4) == (2, 4, 1, 3)
    assert placings_from_scores([50, 70, 50, 10]) == (2, 1, 2, 4)
    assert season(tie_breaks=("wins", "luck")).problems()


# -- the simulated season -------------------------------------------------------------------

def play(seed: int, players: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """A real classic game between AI policies; (placings, scores) by seat."""
    game = get_game(GAME)
    state = game.setup(len(players), {}, seed)
    policies = {seat: make_policy(GAME, "greedy" if user in STRONG else "random", seed * 10 + seat)
                for seat, user in enumerate(players)}
    while not game.is_over(state):
        seat = min(game.actors(state))
        state = game.apply(state, policies[seat].choose(state, seat)).state
    return placings_from_ranking(game.ranking(state), len(players)), tuple(game.scores(state))


@pytest.fixture(scope="module")
def simulated() -> list[LeagueGame]:
    return simulate_season()


def simulate_season() -> list[LeagueGame]:
    """12 games of 4 among 8 players, made by the matchmaker round by round, played by the AI."""
    rng = random.Random(5)
    mm = Matchmaker({GAME: (3, 6)})
    games: list[LeagueGame] = []
    now = T0
    while len(games) < 12:
        free = [u for u in PLAYERS if u not in mm.busy()]
        rng.shuffle(free)
        matches: list[Match] = []
        for user in free:
            now += 60
            matches += mm.join(user, GAME, 4, now)
        assert matches, "8 free players make two games of 4"
        for match in matches:
            seed = len(games) + 1
            record = LeagueGame(f"s{seed}", LEAGUE, 1, GAME, match.players,
                                tuple(PLAYERS[u] for u in match.players), now)
            mm.started(record)
            placings, scores = play(seed, match.players)
            now += DAY
            done = replace(record, status="over", placings=placings, scores=scores, finished_at=now,
                           thread_id=5000 + seed)
            games.append(done)
        for done in games[-len(matches):]:
            mm.finished(done)
    return games


def test_simulated_season_table_matches_the_placings(simulated: list[LeagueGame]) -> None:
    assert len(simulated) == 12 and all(len(g.players) == 4 for g in simulated)
    assert {u for g in simulated for u in g.players} == set(PLAYERS)
    # independently: 10/6/3/1 by placing, wins = first places, average of the final scores
    points = dict.fromkeys(PLAYERS, 0)
    wins = dict.fromkeys(PLAYERS, 0)
    scores: dict[int, list[int]] = {u: [] for u in PLAYERS}
    for g in simulated:
        assert g.placings is not None and g.scores is not None
        assert sorted(g.placings) == [1, 2, 3, 4]
        for user, place, score in zip(g.players, g.placings, g.scores, strict=True):
            points[user] += {1: 10, 2: 6, 3: 3, 4: 1}[place]
            wins[user] += place == 1
            scores[user].append(score)
    ledger, _ = replay(simulated)
    table = season_table(simulated, season(), PLAYERS, ledger.all())
    assert len(table) == 8
    by_user = {r.user_id: r for r in table}
    for user in PLAYERS:
        row = by_user[user]
        assert row.points == points[user]
        assert row.wins == wins[user]
        assert row.games == len(scores[user])
        assert row.average_score == round(sum(scores[user]) / len(scores[user]), 2)
        assert row.best_score == max(scores[user])
        assert row.name == PLAYERS[user]
    expected = sorted(PLAYERS, key=lambda u: (-points[u], -wins[u], -sum(scores[u]) / len(scores[u])))
    assert [r.user_id for r in table] == expected
    assert [r.position for r in table] == list(range(1, 9))
    assert sum(r.points for r in table) == 12 * 20


def test_simulated_season_ratings(simulated: list[LeagueGame]) -> None:
    ledger = Ratings()
    for g in simulated:
        assert g.placings is not None
        before = {u: ledger.get(u) for u in g.players}
        after = ledger.rate_game(g)
        winner = g.players[g.placings.index(1)]
        last = g.players[g.placings.index(4)]
        assert after[winner].mu > before[winner].mu
        assert after[last].mu < before[last].mu
        assert all(after[u].sigma < before[u].sigma for u in g.players)  # every game makes them surer
    wins = {u: sum(1 for g in simulated if g.placing_of(u) == 1) for u in PLAYERS}
    ordinals = ledger.ordinals()
    # the rating reads whole placings, not wins alone: the best mean placing rates highest
    mean_place = {u: sum(g.placing_of(u) or 0 for g in simulated if u in g.players)
                  / sum(1 for g in simulated if u in g.players) for u in PLAYERS}
    best = min(mean_place.values())
    leaders = {u for u in PLAYERS if mean_place[u] == best}
    ranked = sorted(PLAYERS, key=lambda u: -ordinals[u])
    assert set(ranked[:len(leaders)]) == leaders
    table = season_table(simulated, season(), PLAYERS, ledger.all())
    assert {r.user_id for r in table[:len(leaders)]} == leaders  # and top the table
    # the greedy players won most games, and their ratings are above the random players'
    assert sum(wins[u] for u in STRONG) > 6
    strong = sum(ordinals[u] for u in STRONG) / len(STRONG)
    weak = sum(ordinals[u] for u in PLAYERS if u not in STRONG) / (len(PLAYERS) - len(STRONG))
    assert strong > weak
    # 6 games each: past the provisional mark of 5
    assert all(not ledger.get(u).is_provisional(ledger.config) for u in PLAYERS)
    # the same ratings from the replay helper, with one history point per player per game
    replayed, history = replay(simulated)
    assert replayed.all() == ledger.all()
    assert len(history) == 12 * 4


def test_simulated_season_csv_parses_back(simulated: list[LeagueGame]) -> None:
    ledger, _ = replay(simulated)
    table = season_table(simulated, season(), PLAYERS, ledger.all())
    text = standings_csv(table)
    assert text.splitlines()[0].startswith("position,tied,user_id,name,points")
    assert parse_standings_csv(text) == table
    rows = result_rows(simulated, season().points)
    assert len(rows) == 48
    back = parse_results_csv(results_csv(rows))
    assert back == rows
    # the export's points add up to the table's
    for r in table:
        assert sum(x.points for x in back if x.user_id == r.user_id) == r.points
    with pytest.raises(ValueError):
        parse_standings_csv("a,b\n1,2\n")
    # names a spreadsheet would run as formulas are quoted, and still parse back as they were
    odd = [replace(table[0], name="=HYPERLINK(\"x\")"), replace(table[1], name='Ann "the, Bold"')]
    text = standings_csv(odd)
    assert ",\"'=HYPERLINK" in text  # the cell starts with a quote mark, not with "="
    assert parse_standings_csv(text) == odd


def test_simulated_season_end_and_carry_over(simulated: list[LeagueGame]) -> None:
    result = end_season(season(), simulated, names=PLAYERS)
    assert result.champions == (result.table[0].user_id,)
    assert "champion" in result.announcement("Annals League")
    assert PLAYERS[result.champions[0]] in result.announcement("Annals League")
    for user, rating in result.ratings.items():
        nxt = result.carried[user]
        assert nxt.mu == rating.mu and nxt.games == rating.games
        assert rating.sigma < nxt.sigma <= DEFAULT_SIGMA  # less certain again, never past a newcomer
    # a second season starts from the carried ratings; the first game moves them faster than before
    second = [replace(g, season=2) for g in simulated[:1]]
    ledger, _ = replay(second, initial=result.carried)
    stiff, _ = replay(second, initial=result.ratings)
    winner = second[0].players[second[0].placings.index(1)] if second[0].placings else 0
    gain_carried = ledger.get(winner).mu - result.carried[winner].mu
    gain_stiff = stiff.get(winner).mu - result.ratings[winner].mu
    assert gain_carried > gain_stiff > 0


def test_table_text_and_pictures(simulated: list[LeagueGame], tmp_path: Path) -> None:
    ledger, history = replay(simulated[:5])
    names = dict(PLAYERS) | {200 + i: f"Newcomer {i}" for i in range(6)}
    table = season_table(simulated[:5], season(), names, ledger.all(), signed_up=list(names))
    assert len(table) == 14 and page_count(table) == 2
    first = table_text(table, 1, title="Annals League, season 1")
    assert first.splitlines()[0] == "Annals League, season 1" and "Page 1/2" in first
    second = table_text(table, 2)
    assert "Page 2/2" in second and "Newcomer" in second
    assert table_text(table, 9) == second  # past the end: the last page
    assert "?" in first  # ratings after 1-3 games are provisional
    pngs = season_table_pngs(table, title="Annals League", subtitle="Season 1, after 5 games")
    assert len(pngs) == 2
    sizes = []
    for i, png in enumerate(pngs, start=1):
        (tmp_path / f"table{i}.png").write_bytes(png)
        sizes.append(Image.open(io.BytesIO(png)).size)
    assert sizes[0][0] == sizes[1][0] == 1080
    assert sizes[0][1] > sizes[1][1] > 400  # ten rows on the first page, four on the second
    again = season_table_png(table, title="Annals League", subtitle="Season 1, after 5 games", page=1)
    assert again == pngs[0]  # no time stamp: repeatable
    start = (0.0, 25.0, DEFAULT_SIGMA)

    def line(points: list[RatingPoint], user: int) -> list[tuple[float, float, float]]:
        mine = [p for p in points if p.user_id == user]
        return [start, *((float(i + 1), p.mu, p.sigma) for i, p in enumerate(mine))]

    series = [RatingSeries(PLAYERS[u], line(history, u)) for u in PLAYERS]
    chart = rating_chart(series)
    (tmp_path / "ratings.png").write_bytes(chart)
    assert Image.open(io.BytesIO(chart)).size == (1200, 800)
    _, full = replay(simulated)
    profile = rating_chart([RatingSeries("Ada", line(full, 101))], title="Ada: rating over the season")
    (tmp_path / "profile.png").write_bytes(profile)
    assert profile != chart


# -- tie-breaks ---------------------------------------------------------------------------

def test_a_shared_place_shares_its_league_points() -> None:
    """Issue 30: with two players tied on everything the game compares, the table paid 10, 5, 1 as if
    one had won; the engine's places give them one placing and they share its points: 7.5 each."""
    placings = placings_from_places([[1, 0], [2]], 3)
    assert placings == (1, 1, 3)
    assert PointsTable().award(placings) == [7.5, 7.5, 1.0]
    assert placings_from_places([[2], [0, 1, 3]], 4) == (2, 2, 1, 2)
    with pytest.raises(ValueError):
        placings_from_places([[0], [0, 1]], 2)


def test_the_game_over_line_names_every_winner_of_a_shared_first_place() -> None:
    data = {"scores": [9, 9, 4], "ranking": [0, 1, 2], "places": [[0, 1], [2]],
            "names": ["ann (Red)", "bob (Blue)", "cy (Green)"]}
    line = platform_text(Notice("g1", NoticeKind.game_over, data, "public", 9), [], str)
    assert line == ("Game over. Final scores: ann (Red) 9, bob (Blue) 9, cy (Green) 4. "
                    "Winners, sharing first place: ann (Red) and bob (Blue).")


def test_tie_breaks_in_the_organisers_order() -> None:
    # 1 and 2 both end on 14 points (10 + 1 + 3 and 1 + 3 + 10) with one win each, and each
    # finished ahead of the other once when they met.
    games = [
        finished("a", (1, 2, 3, 4), (1, 4, 2, 3), (90, 40, 70, 60), T0 + 1),
        finished("b", (1, 2, 3, 4), (4, 3, 1, 2), (30, 50, 95, 80), T0 + 2),
        finished("c", (2, 5, 6, 7), (1, 2, 3, 4), (60, 50, 40, 30), T0 + 3),
    ]
    games.append(finished("d", (1, 5, 6, 7), (3, 1, 2, 4), (70, 80, 75, 10), T0 + 4))
    by_h2h = season_table(games, season(tie_breaks=("head_to_head", "wins")))
    rows = {r.user_id: r for r in by_h2h}
    assert rows[1].points == rows[2].points == 14.0
    assert rows[1].wins == rows[2].wins == 1
    # head to head: game a 1 ahead, game b 2 ahead -> level; then wins level -> shared position
    assert rows[1].position == rows[2].position and rows[1].tied and rows[1].position_label.startswith("=")
    by_avg = season_table(games, season(tie_breaks=("average_score",)))
    order = [r.user_id for r in by_avg if r.user_id in (1, 2)]
    avg1, avg2 = (90 + 30 + 70) / 3, (40 + 50 + 60) / 3
    assert order == ([1, 2] if avg1 > avg2 else [2, 1])
    by_games = season_table(games, season(tie_breaks=("fewest_games",)))  # 3 games each: still equal
    assert {r.user_id: r.position for r in by_games}[1] == {r.user_id: r.position for r in by_games}[2]
    by_best = season_table(games, season(tie_breaks=("best_score",)))
    assert [r.user_id for r in by_best if r.user_id in (1, 2)] == [1, 2]  # 90 beats 60
    # a later game where 2 beats 1 breaks the head-to-head tie (and changes the points)
    more = [*games, finished("e", (1, 2, 8, 9), (2, 1, 3, 4), (1, 2, 0, 0), T0 + 5)]
    assert [r.user_id for r in season_table(more, season())][:2] == [2, 1]


def test_ratings_handle_ties_and_provisional_marks() -> None:
    ledger = Ratings(RatingConfig(provisional_games=2))
    after = ledger.update([1, 2, 3], [1, 1, 3])
    assert after[1] == after[2]  # a shared first place moves both the same
    assert after[1].mu > 25 > after[3].mu
    assert after[1].is_provisional(ledger.config)
    ledger.update([1, 2, 3], [3, 2, 1])
    assert not ledger.get(1).is_provisional(ledger.config)
    assert ledger.get(3).ordinal() == pytest.approx(ledger.get(3).mu - 3 * ledger.get(3).sigma)
    assert "?" in Rating(25, 8.3, 0).shown() and "±" in Rating(25, 8.3, 9).shown()
    with pytest.raises(ValueError):
        ledger.update([1], [1])


def test_a_winner_never_shows_a_lower_rating() -> None:
    # the case: a favourite (mu 35, sigma 1: shown 32.0000) beats a weak, settled player;
    # without limit_sigma the model's per-game growth of sigma outweighed the small gain of mu (31.9957)
    ledger = Ratings(initial={1: Rating(35.0, 1.0, 40), 2: Rating(15.0, 1.0, 40)})
    assert ledger.get(1).ordinal() == 32.0
    after = ledger.update([1, 2], [1, 2])
    assert after[1].mu > 35.0
    assert after[1].sigma <= 1.0
    assert after[1].ordinal() >= 32.0
    assert after[2].ordinal() < 12.0  # the loser's shown rating still falls


def test_games_never_make_a_rating_less_certain() -> None:
    rng = random.Random(3)
    start = {u: Rating(rng.uniform(10, 40), rng.choice([0.8, 1.0, 1.5, 3.0, 6.0, DEFAULT_SIGMA]), 10)
             for u in range(1, 13)}
    ledger = Ratings(initial=start)
    for _ in range(300):
        table = rng.sample(sorted(start), rng.randint(2, 6))
        before = {u: ledger.get(u) for u in table}
        placings = list(range(1, len(table) + 1))
        after = ledger.update(table, placings)
        for user in table:
            assert after[user].sigma <= before[user].sigma
        winner = table[0]
        assert after[winner].ordinal() >= before[winner].ordinal()


def test_season_carry_over_adds_a_small_fixed_uncertainty() -> None:
    config = RatingConfig()
    tau = DEFAULT_SIGMA / 8  # the documented choice: 25/24
    assert config.season_tau == pytest.approx(25 / 24)
    settled = carry(Rating(30.0, 2.0, 40), config)
    assert (settled.mu, settled.games) == (30.0, 40)
    assert settled.sigma == pytest.approx(2.2550, abs=1e-4)  # sqrt(4 + 625/576)
    # an uncertain rating is no longer sent back to a newcomer's sigma (the old carry-over did so
    # from sigma 7.2 up): sqrt(64 + 625/576)
    assert carry(Rating(30.0, 8.0, 4), config).sigma == pytest.approx(8.0675, abs=1e-4)
    assert carry(Rating(30.0, 8.3, 4), config).sigma == DEFAULT_SIGMA  # but never past it
    # seasons away add up in quadrature: from sigma 2, the 61st season reaches a newcomer's
    # (4 + n * 625/576 >= 625/9 from n = 60.3 on)
    rating = Rating(30.0, 2.0, 40)
    for n in range(1, 62):
        rating = carry(rating, config)
        if n == 60:
            assert rating.sigma == pytest.approx((4 + 60 * tau ** 2) ** 0.5)
            assert rating.sigma < DEFAULT_SIGMA
    assert rating.sigma == DEFAULT_SIGMA


def test_slow_seasons_make_ratings_surer_season_over_season() -> None:
    # 12 players, 4 seasons of 4 games each at tables of 4; skill decides most results
    rng = random.Random(8)
    people = list(range(1, 13))
    skill = {u: 25 + 2 * (u - 6.5) for u in people}
    initial: dict[int, Rating] = {}
    sigmas = []
    for number in range(1, 5):
        games = []
        for round_ in range(4):
            rng.shuffle(people)
            for t in range(3):
                table = tuple(people[4 * t:4 * t + 4])
                order = sorted(table, key=lambda u: -(skill[u] + rng.gauss(0, 4)))
                at = T0 + number * 100 * DAY + round_ * DAY + t
                games.append(finished(f"s{number}-{round_}-{t}", table,
                                      tuple(order.index(u) + 1 for u in table), (0, 0, 0, 0), at,
                                      number=number))
        result = end_season(season(number=number), games, initial=initial)
        sigmas.append(sum(r.sigma for r in result.ratings.values()) / len(people))
        initial = dict(result.carried)
    assert sigmas == sorted(sigmas, reverse=True) and len(set(sigmas)) == 4
    # and the carried ratings start less certain than they ended, but keep what they learnt
    assert all(result.ratings[u].sigma < initial[u].sigma < DEFAULT_SIGMA for u in people)


# -- matchmaking ---------------------------------------------------------------------------

def test_matchmaking_never_puts_a_player_in_two_games() -> None:
    rng = random.Random(11)
    mm = Matchmaker({GAME: (3, 6)}, ratings={u: rng.uniform(-5, 20) for u in range(1, 21)})
    running: dict[str, LeagueGame] = {}
    made = 0
    for step in range(2000):
        op = rng.random()
        user = rng.randint(1, 20)
        try:
            if op < 0.55:
                matches = mm.join(user, GAME, rng.choice((3, 4, 5)), step)
            elif op < 0.65:
                matches = [mm.pair(rng.sample(range(1, 21), 3), GAME)]
            elif op < 0.75:
                mm.leave(user)
                matches = []
            else:
                matches = []
                if running:
                    gid = rng.choice(sorted(running))
                    g = running.pop(gid)
                    n = len(g.players)
                    mm.finished(replace(g, status="over", placings=tuple(range(1, n + 1)), scores=(0,) * n))
        except MatchmakingError as exc:
            assert exc.code in ("busy", "not_queued")
            if exc.code == "busy":
                assert set(exc.users) & mm.busy()
            continue
        for m in matches:
            made += 1
            in_play = {u for g in running.values() for u in g.players}
            assert not set(m.players) & in_play, "a player was matched while in a running game"
            assert len(set(m.players)) == len(m.players)
            game = LeagueGame(f"m{made}", LEAGUE, 1, m.ruleset, m.players, tuple(f"P{u}" for u in m.players),
                              step, fixed=m.fixed)
            mm.started(game)
            running[game.game_id] = game
        in_play = {u for g in running.values() for u in g.players}
        assert mm.busy() == in_play
        assert not {e.user_id for e in mm.waiting()} & in_play, "a busy player is still queued"
    assert made > 50


def test_matchmaking_prefers_fresh_opponents_and_close_ratings() -> None:
    met = [LeagueGame(f"h{i}", LEAGUE, 1, GAME, (1, 2, 3), ("a", "b", "c"), T0 + i, status="over",
                      placings=(1, 2, 3), scores=(3, 2, 1), finished_at=T0 + i) for i in range(3)]
    mm = Matchmaker({GAME: (3, 6)}, history=met, config=MatchConfig(rating_weight=0))
    for i, user in enumerate((1, 2, 3, 4)):
        assert mm.join(user, GAME, 4, T0 + 100 + i) == ([] if user != 4 else [Match(GAME, (1, 2, 3, 4))])
    # five waiting for 3 seats: the longest-waiting (1) plays; 2 and 3 met 1 thrice, 5 and 6 never
    mm = Matchmaker({GAME: (3, 6)}, history=met, config=MatchConfig(rating_weight=0),
                    queued=[QueueEntry(u, GAME, 3, T0 + u) for u in (1, 2, 3, 5)])
    assert mm.join(6, GAME, 3, T0 + 50) == [Match(GAME, (1, 5, 6))]
    assert [e.user_id for e in mm.waiting()] == [2, 3]
    # with ratings only: the two closest to the longest-waiting player's rating
    ratings = {10: 10.0, 11: 0.0, 12: 9.0, 13: 11.0}
    mm = Matchmaker({GAME: (3, 6)}, ratings=ratings, queued=[QueueEntry(u, GAME, 3, u) for u in (10, 11, 12)])
    assert mm.join(13, GAME, 3, 99) == [Match(GAME, (10, 12, 13))]
    # a queued player matched in one queue leaves the others; fixed pairings refuse busy players
    mm = Matchmaker({GAME: (3, 6)})
    mm.join(1, GAME, 3, 1)
    mm.join(1, GAME, 4, 1)
    mm.join(2, GAME, 3, 2)
    assert mm.join(3, GAME, 3, 3) == [Match(GAME, (1, 2, 3))]
    assert mm.waiting() == [] and mm.busy() == {1, 2, 3}
    with pytest.raises(MatchmakingError) as info:
        mm.pair([3, 4, 5], GAME)
    assert info.value.code == "busy" and info.value.users == (3,)
    with pytest.raises(MatchmakingError) as info:
        mm.join(1, GAME, 4, 5)
    assert info.value.code == "busy"
    for code, call in (("bad_count", lambda: mm.join(9, GAME, 7, 0)),
                       ("bad_ruleset", lambda: mm.join(9, "chess", 2, 0)),
                       ("duplicate", lambda: mm.pair([7, 7, 8], GAME))):
        with pytest.raises(MatchmakingError) as info:
            call()
        assert info.value.code == code
    assert mm.pair([4, 5, 6], GAME) == Match(GAME, (4, 5, 6), fixed=True)


# -- reliability through the real service ----------------------------------------------------

@pytest_asyncio.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    s = await Store.open(tmp_path / "annals.sqlite3")
    yield s
    await s.close()


async def _move(svc: GameService, gid: str, user: int) -> None:
    status = await svc.status(gid)
    seq, state = await svc.engine_state(gid)
    seat = next(s.seat for s in status.seats if s.user_id == user)
    assert seat is not None
    action = make_policy(GAME, "random", seq).choose(state, seat)
    await svc.submit(gid, user, action.to_json(), seq)


async def _late(svc: GameService, clock: FakeClock, gid: str, user: int) -> None:
    status = await svc.status(gid)
    seat = next(s.seat for s in status.seats if s.user_id == user)
    turn = next(d for d in status.deadlines if d.player == seat and d.kind == "turn")
    clock.set(max(clock.now(), turn.due_at))
    assert await svc.fire_deadline(turn.deadline_id) is not None


@pytest.mark.asyncio
async def test_reliability_counts_missed_deadlines(store: Store) -> None:
    clock = FakeClock(T0)
    svc = GameService(store, clock, seed_factory=lambda: 7)
    notices: list[tuple[int, Notice]] = []

    def listen(outcome: Outcome) -> None:
        notices.extend((int(clock.now()), n) for n in outcome.notices)

    svc.subscribe(listen)
    timers = TimerSettings(move_seconds=3600, reminder_offsets=(), timeout_policy="ai", misses_before_ai=0)
    lobby = await svc.create_lobby(1, "Ada", GAME, timers=timers, seed=7)
    gid = lobby.game_id
    await svc.join(gid, 2, "Bertil")
    await svc.join(gid, 3, "Chiara")
    await svc.start(gid, 1)
    missed = {1: 0, 2: 0, 3: 0}
    plan = {1: 1, 2: 3, 3: 0}  # how many deadlines each person lets pass
    moves = 0
    while moves < 60:
        status = await svc.status(gid)
        if status.status != "active":
            break
        user = status.waiting_for[0]
        if missed[user] < plan[user] and moves % 4 == 1:
            await _late(svc, clock, gid, user)
            missed[user] += 1
        else:
            clock.advance(60)
            await _move(svc, gid, user)
        moves += 1
    assert missed == plan
    status = await svc.status(gid)
    seat_users = {s.seat: s.user_id for s in status.seats if s.seat is not None and s.user_id is not None}
    actions = await store.actions(gid)
    from_log = records_from_log(actions, seat_users)
    from_notices = [r for at, n in notices for r in records_from_notices([n], at)]
    assert sorted(r.key for r in from_notices) == sorted(r.key for r in from_log if r.kind == "missed")
    summary = summarise(from_log + from_notices)
    for user in (1, 2, 3):
        assert summary[user].missed == plan[user]
        assert summary[user].met == sum(1 for a in actions if a.source == "human" and a.user_id == user)
        assert summary[user].abandoned == summary[user].to_ai == 0
    assert summary[3].on_time == 1.0 and summary[2].on_time is not None and summary[2].on_time < 1.0
    assert "missed" in summary[2].shown()


@pytest.mark.asyncio
async def test_reliability_autopilot_resign_and_handover(store: Store) -> None:
    clock = FakeClock(T0)
    svc = GameService(store, clock, seed_factory=lambda: 9)
    seen: list[Notice] = []
    svc.subscribe(lambda out: seen.extend(out.notices))
    timers = TimerSettings(move_seconds=3600, reminder_offsets=(), timeout_policy="skip", misses_before_ai=2)
    gid = (await svc.create_lobby(1, "Ada", GAME, timers=timers, seed=9)).game_id
    for user, name in ((2, "Bertil"), (3, "Chiara"), (4, "Dmitri")):
        await svc.join(gid, user, name)
    await svc.start(gid, 1)
    late = 0
    while late < 2:  # Bertil misses two deadlines in a row: the AI takes the seat
        status = await svc.status(gid)
        user = status.waiting_for[0]
        if user == 2:
            await _late(svc, clock, gid, 2)
            late += 1
        else:
            await _move(svc, gid, user)
    await svc.resign(gid, 3)
    await svc.kick(gid, 1, 4)
    records = records_from_notices(seen, int(clock.now()))
    summary = summarise(records)
    assert (summary[2].missed, summary[2].to_ai, summary[2].abandoned) == (2, 1, 0)
    assert (summary[3].abandoned, summary[3].to_ai) == (1, 0)
    assert (summary[4].to_ai, summary[4].abandoned) == (1, 0)
    assert 1 not in summary
    assert summarise(records + records)[2] == summary[2]  # repeats count once


# -- store and migration ---------------------------------------------------------------------

def _migrations_with_leagues(root: Path) -> tuple[Path, Path, int]:
    """(the schema before the league migration, the schema with it, its number), as migration folders.

    The league migration is ``migrations/0004_leagues.sql``; the folder before it
    holds the files numbered below it (0001-0003: the previous version's schema).
    """
    before = root / "before"
    before.mkdir()
    current = list_migrations(MIGRATIONS_DIR)
    mine = next(n for n, path in current if path.resolve() == MIGRATION.resolve())
    assert mine == MIGRATION_NUMBER == 4
    for n, path in current:
        if n < mine:
            shutil.copy(path, before / path.name)
    assert [n for n, _ in list_migrations(before)] == [1, 2, 3]
    upto = root / "upto"  # later migrations (e.g. 0005) are not this test's business
    upto.mkdir()
    for n, path in current:
        if n <= mine:
            shutil.copy(path, upto / path.name)
    return before, upto, mine


def _dump(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    con = sqlite3.connect(path)
    try:
        sql = "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"
        tables = [r[0] for r in con.execute(sql)]
        return {t: sorted(con.execute(f"SELECT * FROM {t}").fetchall(), key=repr) for t in tables}
    finally:
        con.close()


@pytest.mark.asyncio
async def test_migration_upgrades_a_database_with_games(tmp_path: Path) -> None:
    db = tmp_path / "annals.sqlite3"
    previous, folder, number = _migrations_with_leagues(tmp_path)
    async with await Store.open(db, migrations_dir=previous) as old:
        before_version = await old.user_version()
        # today's service writes what the later migrations add (the outbox, each move's record, the
        # time banks, ...): the old schema gets those tables and columns
        with contextlib.closing(sqlite3.connect(db)) as con6:
            for later in service_migrations():
                con6.executescript(later.read_text())
        svc = GameService(old, FakeClock(T0), seed_factory=lambda: 3)
        done = (await svc.create_lobby(1, "Ada", GAME, seed=3, creator_joins=False)).game_id
        for _ in range(4):
            await svc.add_ai(done, 1)
        await svc.start(done, 1)  # AI seats only: played to the end at once
        assert (await svc.status(done)).status == "over"
        lobby = (await svc.create_lobby(2, "Bertil", GAME, seed=4)).game_id
        await svc.join(lobby, 3, "Chiara")
        with pytest.raises(StoreError):
            await LeagueStore.open(old)  # the league tables are not there yet
        old_actions = await old.actions(done)
        assert old_actions
    before = _dump(db)
    async with await Store.open(db, migrations_dir=folder) as new:
        assert await new.user_version() >= number == before_version + 1
        assert await new.integrity_problems() == []
        after = _dump(db)
        for table, rows in before.items():
            assert after[table] == rows, f"{table} changed"
        assert set(after) - set(before) == {"leagues", "league_seasons", "league_signups", "league_queue",
                                            "league_games", "league_ratings", "league_reliability"}
        leagues = await LeagueStore.open(new)
        try:
            await _use_league_store(new, leagues, done, lobby)
        finally:
            await leagues.close()
        assert await new.integrity_problems() == []
        assert (await new.get_game(done)) is not None and len(await new.actions(done)) == len(old_actions)
    # applying again changes nothing
    async with await Store.open(db, migrations_dir=folder) as again:
        assert await again.user_version() >= number


async def _use_league_store(store: Store, leagues: LeagueStore, done: str, lobby: str) -> None:
    league = League(LEAGUE, 77, "Annals League", (GAME,), created_by=1, created_at=T0,
                    options={GAME: {"naval_control": True}}, organiser_role_id=555)
    assert league.problems() == []
    assert league.is_organiser(9, [555], False) and not league.is_organiser(9, [1], False)
    await leagues.create_league(league)
    with pytest.raises(LeagueConflict):
        await leagues.create_league(replace(league, league_id="other"))  # same name on the same server
    assert await leagues.get_league(LEAGUE) == league
    assert await leagues.leagues(77) == [league]
    first = season()
    await leagues.open_season(first, {1: Rating(27.0, 6.0, 3)}, now=T0)
    with pytest.raises(LeagueConflict):
        await leagues.open_season(replace(first, number=2))
    assert await leagues.current_season(LEAGUE) == first
    for user in (1, 2, 3, 4):
        await leagues.sign_up(SignUp(LEAGUE, 1, user, f"P{user}", T0 + user))
    await leagues.queue_join(LEAGUE, 1, QueueEntry(2, GAME, 4, T0))
    await leagues.queue_join(LEAGUE, 1, QueueEntry(3, GAME, 3, T0))
    assert [e.user_id for e in await leagues.queue(LEAGUE, 1)] == [2, 3]
    players = (1, 2, 3, 4)
    record = LeagueGame(done, LEAGUE, 1, GAME, players, ("P1", "P2", "P3", "P4"), T0 + 10)
    await leagues.add_game(record)
    assert await leagues.queue(LEAGUE, 1) == []  # its players left the queues
    with pytest.raises(LeagueConflict):
        await leagues.add_game(record)
    with pytest.raises(LeagueConflict):
        await leagues.add_game(replace(record, game_id="nope"))  # no such game
    row = await store.get_game(done)
    assert row is not None and row.result is not None
    placings = placings_from_ranking(row.result["ranking"], 4)
    scores = tuple(row.result["scores"])
    ledger = Ratings(initial=await leagues.ratings(LEAGUE, 1))
    new = ledger.update(players, placings)
    points = [RatingPoint(u, done, T0 + 99, r.mu, r.sigma, r.games) for u, r in new.items()]
    await leagues.finish_game(done, placings, scores, T0 + 99, points)
    with pytest.raises(LeagueConflict):
        await leagues.finish_game(done, placings, scores, T0 + 99, points)  # never counted twice
    back = await leagues.get_game(done)
    assert back == replace(record, status="over", placings=placings, scores=scores, finished_at=T0 + 99)
    assert await leagues.ratings(LEAGUE, 1) == new
    history = await leagues.rating_history(LEAGUE, 1, 1)
    assert [p.game_id for p in history] == [None, done] and history[1].games == 4
    assert await leagues.games(LEAGUE, 1, statuses=["over"], user_id=3) == [back]
    table = season_table(await leagues.games(LEAGUE, 1), first, ratings=await leagues.ratings(LEAGUE, 1))
    assert table[0].user_id == players[placings.index(1)] and table[0].points == 10
    recs = [ReliabilityRecord(done, 2, "missed", 5, T0), ReliabilityRecord(done, 2, "missed", 5, T0 + 1)]
    await leagues.add_reliability(recs)
    assert len(await leagues.reliability(league_id=LEAGUE, user_id=2)) == 1
    await leagues.close_season(LEAGUE, 1, (players[placings.index(1)],), T0 + 200)
    assert await leagues.champions(LEAGUE, 1) == (players[placings.index(1)],)
    with pytest.raises(LeagueConflict):
        await leagues.sign_up(SignUp(LEAGUE, 1, 9, "late", T0))
    await leagues.open_season(replace(first, number=2), {u: carry(r, RatingConfig()) for u, r in new.items()})
    assert set(await leagues.ratings(LEAGUE, 2)) == set(players)
    assert [s.number for s in await leagues.seasons(LEAGUE)] == [1, 2]
    assert lobby  # the lobby game was left alone by the migration (checked by the dump above)


# -- the league service over the real game service --------------------------------------------

@pytest.mark.asyncio
async def test_league_service_runs_a_season(tmp_path: Path) -> None:
    clock = FakeClock(T0)
    # the whole schema: today's service writes into tables added after the leagues (the outbox, 0006)
    async with await Store.open(tmp_path / "annals.sqlite3") as store:
        svc = GameService(store, clock, seed_factory=lambda: 21)
        leagues = await LeagueStore.open(store)
        try:
            await _run_season(svc, leagues, clock)
        finally:
            await leagues.close()


async def _run_season(svc: GameService, leagues: LeagueStore, clock: FakeClock) -> None:
    ls = LeagueService(svc, leagues, clock)
    results: list[GameResult] = []
    ls.attach(results.append)
    admin, organiser, member = Actor(1, manages_server=True), Actor(9, role_ids=(555,)), Actor(8)
    with pytest.raises(LeagueError) as info:
        await ls.create_league(member, 77, "Sunday League", [GAME])
    assert info.value.code == "not_organiser"
    league = await ls.create_league(admin, 77, "  Sunday   League ", [GAME], organiser_role_id=555,
                                    move_seconds=6 * 3600)
    assert league.name == "Sunday League"
    with pytest.raises(LeagueError):
        await ls.create_league(admin, 77, "Sunday League", [GAME])
    with pytest.raises(LeagueError) as info:
        await ls.open_season(league.league_id, member, T0, T0 + 30 * DAY)
    assert info.value.code == "not_organiser"
    first = await ls.open_season(league.league_id, organiser, T0, T0 + 30 * DAY)
    assert first.number == 1
    for user in (1, 2, 3, 4, 5):
        await ls.sign_up(league.league_id, user, PLAYERS[100 + user])
    with pytest.raises(LeagueError) as info:
        await ls.queue(league.league_id, 6, GAME, 4)
    assert info.value.code == "not_signed_up"
    for user in (1, 2, 3):
        assert await ls.queue(league.league_id, user, GAME, 4) == []
    started = await ls.queue(league.league_id, 4, GAME, 4)
    assert len(started) == 1
    game = started[0].game
    assert sorted(game.players) == [1, 2, 3, 4] and not game.fixed
    assert started[0].outcomes[-1].status.status == "active"
    with pytest.raises(LeagueError) as info:
        await ls.queue(league.league_id, 2, GAME, 4)
    assert info.value.code == "busy"
    assert await ls.queue(league.league_id, 5, GAME, 3) == []
    with pytest.raises(LeagueError) as info:
        await ls.pair(league.league_id, organiser, [1, 5, 2], GAME)
    assert info.value.code == "busy" and info.value.params["users"] == [1, 2]

    # play it out: every person moves at random, each move a minute apart
    gid = game.game_id
    while (status := await svc.status(gid)).status == "active":
        clock.advance(60)
        user = status.waiting_for[0]
        seq, state = await svc.engine_state(gid)
        seat = next(s.seat for s in status.seats if s.user_id == user)
        assert seat is not None
        await svc.submit(gid, user, make_policy(GAME, "random", seq).choose(state, seat).to_json(), seq)
    assert status.status == "over" and status.ranking is not None and status.scores is not None
    assert len(results) == 1
    result = results[0]
    placings = placings_from_ranking(status.ranking, 4)
    assert result.game.placings == placings and result.points == tuple(first.points.award(placings))
    winner = game.players[placings.index(1)]
    assert result.after[winner].mu > result.before[winner].mu
    table = await ls.standings(league.league_id)
    assert [(r.user_id, r.points) for r in table][:4] == sorted(
        ((u, p) for u, p in zip(game.players, result.points, strict=True)), key=lambda x: -x[1])
    assert table[-1].user_id == 5 and table[-1].games == 0
    profile = await ls.profile(league.league_id, winner)
    assert (profile.games, profile.wins, profile.win_rate) == (1, 1, 1.0)
    assert profile.rating == result.after[winner]
    assert profile.reliability.met == sum(1 for a in await svc.store.actions(gid) if a.user_id == winner)
    assert profile.reliability.missed == 0 and [p.game_id for p in profile.history] == [gid]
    rows = await ls.results(league.league_id)
    assert parse_results_csv(results_csv(rows)) == rows and len(rows) == 4

    # an organiser's pairing once they are free; then the season ends and the next one carries ratings
    paired = await ls.pair(league.league_id, organiser, [2, 5, 3], GAME)
    assert paired.game.fixed and sorted(paired.game.players) == [2, 3, 5]
    assert await leagues.queue(league.league_id, 1) == []  # 5 left its queue when paired
    await svc.abandon(paired.game.game_id, 2)
    gone = await leagues.get_game(paired.game.game_id)
    assert gone is not None and gone.status == "abandoned"
    closed = await ls.close_season(league.league_id, organiser)
    assert closed.champions == (winner,) and closed.season.status == "closed"
    assert closed.ratings[winner] == result.after[winner]
    second = await ls.open_season(league.league_id, organiser, T0 + 31 * DAY, T0 + 60 * DAY)
    carried = await leagues.ratings(league.league_id, second.number)
    assert carried[winner].mu == result.after[winner].mu
    assert carried[winner].sigma > result.after[winner].sigma
    assert second.points == first.points
