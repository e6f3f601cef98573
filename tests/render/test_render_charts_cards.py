"""Charts, chart data from events, and the ``python -m render demo`` command."""

from __future__ import annotations

import io
from concurrent.futures import ThreadPoolExecutor

import pytest
from matplotlib.figure import Figure
from matplotlib.text import Text
from PIL import Image

from engine.core import Event
from engine.history.data import load_rules
from render import charts
from render.score_history import (
    EmpirePlayed,
    ScorePoint,
    epoch_gains,
    epoch_scores,
    history_from_events,
)

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def decode(data: bytes) -> Image.Image:
    assert data.startswith(PNG_MAGIC)
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


# -- a small hand-built game: 3 players, two epochs, markers at the end ----------------------------


def hand_events() -> list[Event | dict[str, object]]:
    """Two epochs of a 3-player game, written by hand (mixing Event objects and JSON dicts)."""
    return [
        # Epoch I's "epoch" event is emitted by setup, so a log often lacks it: left out here.
        Event("rolloff", {"rolls": {"0": 7, "1": 9, "2": 4}}),
        Event("turn", {"player": 1, "empire": "1:Egypt", "name": "Egypt", "strength": 5}),
        Event("expanded", {"land": "Nile Delta", "player": 1}),
        Event("scored", {"player": 1, "points": 6, "score": 6, "breakdown": {}}),
        {"type": "turn", "data": {"player": 0, "empire": "1:Minoans", "name": "Minoans", "strength": 3}},
        {"type": "scored", "data": {"player": 0, "points": 4, "score": 4}, "audience": "public"},
        Event("turn", {"player": 2, "empire": "1:Aryans", "name": "Aryans", "strength": 5}),
        Event("scored", {"player": 2, "points": 5, "score": 5}),
        Event("preeminence", {"player": 1, "epoch": 1}),
        Event("epoch", {"epoch": 2, "name": "Epoch II", "draw_order": [0, 2, 1]}),
        Event("turn", {"player": 2, "empire": "2:Assyria", "name": "Assyria", "strength": 8}),
        Event("scored", {"player": 2, "points": 12, "score": 17}),
        Event("turn", {"player": 0, "empire": "2:Persia", "name": "Persia", "strength": 12}),
        Event("scored", {"player": 0, "points": 20, "score": 24}),
        Event("turn", {"player": 1, "empire": "2:Hellenes", "name": "Hellenes", "strength": 7}),
        Event("scored", {"player": 1, "points": 3, "score": 9}),
        Event("preeminence", {"player": 0, "epoch": 2}),
        Event("markers_revealed", {"player": 1, "markers": [3], "score": 12}),
        Event("game_over", {"final": [24, 12, 17], "ranking": [0, 2, 1]}),
    ]


def test_history_from_hand_built_events() -> None:
    history = history_from_events(hand_events(), 3)
    assert [p.label for p in history.series] == [
        "Start", "I.1 Egypt", "I.2 Minoans", "I.3 Aryans",
        "II.1 Assyria", "II.2 Persia", "II.3 Hellenes", "Final",
    ]
    assert [p.scores for p in history.series] == [
        (0, 0, 0), (0, 6, 0), (4, 6, 0), (4, 6, 5), (4, 6, 17), (24, 6, 17), (24, 9, 17), (24, 12, 17),
    ]
    assert [p.period for p in history.series] == [0, 1, 1, 1, 2, 2, 2, 2]
    assert [p.player for p in history.series] == [None, 1, 0, 2, 2, 0, 1, None]
    assert history.final == (24, 12, 17) and history.ranking == (0, 2, 1) and history.over
    assert history.scores == (24, 12, 17)
    assert history.empires == (
        (EmpirePlayed("Minoans", 3, 1, "1:Minoans"), EmpirePlayed("Persia", 12, 2, "2:Persia")),
        (EmpirePlayed("Egypt", 5, 1, "1:Egypt"), EmpirePlayed("Hellenes", 7, 2, "2:Hellenes")),
        (EmpirePlayed("Aryans", 5, 1, "1:Aryans"), EmpirePlayed("Assyria", 8, 2, "2:Assyria")),
    )
    assert epoch_scores(history.series) == [("I", (4, 6, 5)), ("II", (24, 9, 17)), ("Final", (24, 12, 17))]
    assert epoch_gains(history.series) == [("I", (4, 6, 5)), ("II", (20, 3, 12)), ("Final", (0, 3, 0))]


def test_history_of_a_game_in_progress() -> None:
    events = hand_events()[:10]  # up to the start of epoch II
    history = history_from_events(events, 3)
    assert history.final is None and history.ranking is None and not history.over
    assert history.scores == (4, 6, 5)
    assert epoch_scores(history.series) == [("I", (4, 6, 5))]
    empty = history_from_events([], 4)
    assert empty.series == (ScorePoint("Start", (0, 0, 0, 0), 0),)
    assert epoch_scores(empty.series) == [] and epoch_gains(empty.series) == []


def test_history_matches_a_real_game() -> None:
    from engine.__main__ import play_ai_game
    from engine.history.game import GAME
    from render.score_history import empires_from_played, replay_history

    state, log = play_ai_game("history-classic", 3, 5, "random")
    history = replay_history(GAME, 3, {}, 5, log)
    assert history.final == tuple(GAME.scores(state))
    assert history.ranking == tuple(GAME.ranking(state))
    assert history.empires == empires_from_played(state.played_empires, load_rules().empires)
    turns = [p for p in history.series if p.label not in ("Start", "Final")]
    assert len(turns) == 7 * 3
    assert [p.period for p in turns] == sorted(p.period for p in turns)
    assert {p.period for p in turns} == set(range(1, 8))


# -- charts ---------------------------------------------------------------------------------------------


def sample(players: int = 4) -> tuple[list[ScorePoint], list[list[EmpirePlayed]]]:
    series = [ScorePoint("Start", (0,) * players, 0)]
    scores = [0] * players
    empires: list[list[EmpirePlayed]] = [[] for _ in range(players)]
    names = ["Timuride Emirates", "Holy Roman Empire", "Greek City States", "Incas & Aztecs", "Huns", "Celts"]
    for epoch in range(1, 8):
        for p in range(players):
            scores[p] += 3 * epoch + (p * 7 + epoch) % 5
            series.append(ScorePoint(f"{epoch}.{p + 1} X", tuple(scores), epoch, p))
            empires[p].append(EmpirePlayed(names[(p + epoch) % len(names)], 3 + (p + epoch) % 14, epoch))
    series.append(ScorePoint("Final", tuple(s + 2 * p for p, s in enumerate(scores)), 7))
    return series, empires


def texts_inside(fig: Figure) -> list[str]:
    """The texts of ``fig`` that reach outside the figure (drawn texts only)."""
    renderer = fig.canvas.get_renderer()  # type: ignore[attr-defined]
    fig.draw(renderer)
    width, height = fig.bbox.width, fig.bbox.height
    bad = []
    for text in fig.findobj(Text):
        if not text.get_visible() or not text.get_text().strip():
            continue
        box = text.get_window_extent(renderer)
        if box.x0 < -0.5 or box.y0 < -0.5 or box.x1 > width + 0.5 or box.y1 > height + 0.5:
            bad.append(text.get_text())
    return bad


def test_score_chart_png_size_and_determinism() -> None:
    series, _ = sample()
    first = charts.score_chart(series)
    image = decode(first)
    assert image.size == (1200, round(8.2 * charts.DPI))
    assert charts.score_chart(series) == first
    small = decode(charts.score_chart(series, by_epoch=False))
    assert small.size == (1200, round(5.2 * charts.DPI))


def test_score_chart_changes_with_the_data() -> None:
    series, _ = sample()
    base = charts.score_chart(series)
    bumped = [*series[:-1], ScorePoint("Final", tuple(s + 30 for s in series[-1].scores), 7)]
    assert charts.score_chart(bumped) != base
    assert charts.score_chart(series, player_names=["Ann", "Bo", "Cy", "Di"]) != base
    a = decode(base).convert("RGB")
    b = decode(charts.score_chart(bumped)).convert("RGB")
    assert a.size == b.size and a.tobytes() != b.tobytes()


@pytest.mark.parametrize("players", [3, 6])
def test_chart_labels_stay_inside_the_picture(players: int) -> None:
    series, _ = sample(players)
    long_names = ["Ælfgifu the Unready of Wessex", "Zoë", "Ngozi O.", "AVeryLongNameWithoutSpaces",
                  "Bob", "Ahmad al-Rashid"][:players]
    for names in (None, long_names):
        fig = charts.build_score_figure(series, player_names=names)
        assert texts_inside(fig) == []


def test_fit_lines_wraps_shrinks_and_cuts() -> None:
    fig = charts.build_score_figure(sample(3)[0])
    lines, size = charts.fit_lines(fig, "Holy Roman Empire", 90, 10)
    assert len(lines) <= 2 and size <= 10
    assert all(charts._width_px(fig, line, size, False) <= 90 for line in lines)
    cut, _ = charts.fit_lines(fig, "Supercalifragilisticexpialidocious", 60, 10, max_lines=1)
    assert cut[0].endswith("…") and charts._width_px(fig, cut[0], 8, False) <= 60


def test_charts_are_safe_in_worker_threads() -> None:
    series, _ = sample()
    players = [None, ["Ann", "Bo", "Cy", "Di"]]
    jobs = [players[i % 2] for i in range(6)]

    def run(names: list[str] | None) -> bytes:
        return charts.score_chart(series, player_names=names)

    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(run, jobs))
    assert len(set(results[0::2])) == 1 and len(set(results[1::2])) == 1 and results[0] != results[1]
    assert results[0] == charts.score_chart(series)


def test_charts_reject_mismatched_input() -> None:
    series, _ = sample(4)
    with pytest.raises(ValueError):
        charts.score_chart(series, player_names=["only", "three", "names"])
    with pytest.raises(ValueError):
        charts.score_chart([])
