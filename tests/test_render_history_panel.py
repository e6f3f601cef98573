"""The History boards' header and key: the viewer's colour, the final scores with the winner, the
legend of the pieces."""

from __future__ import annotations

import io
import json
from typing import Any

import numpy as np
import pytest
from PIL import Image

from engine.registry import get_game, make_policy, spec
from render import palette
from render.history_board import BASE_WIDTH, FOOTER, HEADER
from render.history_shown import HistoryView, shown_in, viewer

HISTORY_GAMES = ("history-classic", "history")


def _play(game_id: str, players: int, seed: int, viewer_seat: int | None,
          moves: int | None = None) -> tuple[Any, HistoryView]:
    """A seeded AI game, whole or its first ``moves``; the state it reached and ``viewer_seat``'s view
    of it as plain data."""
    game = get_game(game_id)
    state = game.setup(players, spec(game_id).default_options(), seed)
    policies = [make_policy(game_id, "greedy", seed * 100 + p) for p in range(players)]
    played = 0
    while not game.is_over(state) and (moves is None or played < moves):
        p = sorted(game.actors(state))[0]
        state = game.apply(state, policies[p].choose(state, p)).state
        played += 1
    view: HistoryView = json.loads(json.dumps(game.view(state, viewer_seat)))
    return state, view


def _pixels(png: bytes) -> np.ndarray:
    with Image.open(io.BytesIO(png)) as img:
        return np.asarray(img.convert("RGB"), dtype=int)


@pytest.mark.parametrize("game_id", HISTORY_GAMES)
def test_the_final_board_shows_the_final_scores_and_the_rulebook_winner(game_id: str) -> None:
    # Issue 16: "The final History board shows the scores before the pre-eminence markers
    # (235/194/155/202 where the result is 253/203/155/206) and names no winner."
    game = get_game(game_id)
    state, view = _play(game_id, 4, 5, 0)
    seen = shown_in(view)
    scores, winner = seen.scores, seen.winner
    assert scores == game.scores(state)
    assert winner == game.ranking(state)[0]
    if game_id == "history-classic":  # the markers were added after the last epoch's scoring
        assert scores != list(state.scores)


@pytest.mark.parametrize("game_id", HISTORY_GAMES)
def test_no_winner_is_named_while_the_game_runs(game_id: str) -> None:
    state, view = _play(game_id, 3, 5, 0, moves=40)
    assert not get_game(game_id).is_over(state)
    seen = shown_in(view)
    assert (seen.scores, seen.winner) == (view["scores"], None)


@pytest.mark.parametrize("game_id", HISTORY_GAMES)
def test_the_header_marks_the_viewers_colour_and_nothing_else_changes(game_id: str) -> None:
    _, mine = _play(game_id, 3, 2, 1)
    assert viewer(mine) == 1
    spectator = mine.copy()
    spectator["you"] = None
    assert viewer(spectator) is None
    draw = spec(game_id).render()
    a, b = _pixels(draw(mine, size=1600)), _pixels(draw(spectator, size=1600))
    assert a.shape == b.shape
    # (The palette encode may move an antialiasing shade by a few levels anywhere: a level-16 change
    # is a drawn difference.)
    changed_rows = np.nonzero((np.abs(a - b) > 16).any(axis=(1, 2)))[0]
    assert changed_rows.size, "the viewer's chip reads the same as a spectator's"
    assert changed_rows.max() < HEADER  # only the header names "you"


@pytest.mark.parametrize("game_id", HISTORY_GAMES)
@pytest.mark.parametrize("size", [1600, 800])
def test_a_key_under_the_map_explains_the_pieces(game_id: str, size: int) -> None:
    _, view = _play(game_id, 3, 2, 0)
    img = _pixels(spec(game_id).render()(view, size=size))
    foot = img[-round(FOOTER * size / BASE_WIDTH):]
    ink = (np.abs(foot - np.array(palette.PAPER)).sum(axis=2) > 60).mean(axis=0)
    # Symbols and words run across a good part of the strip, not a stray line.
    assert (ink > 0).mean() > 0.3


@pytest.mark.parametrize("game_id", HISTORY_GAMES)
def test_the_outline_of_highlighted_lands_goes_under_the_names(game_id: str) -> None:
    # Issue 16: "The outline of the lands that changed is drawn through names ("Scandinai",
    # "rrawaddy", "Apen..es")."
    from render.history_board import _geometry, _names_mask, history_image

    _, view = _play(game_id, 3, 2, 0)
    board = "classic" if game_id == "history-classic" else "epochs5"
    lands = list(_geometry(board).data["lands"])
    # The drawing itself, before the palette encode (whose palette follows the whole picture).
    plain = np.asarray(history_image(view, board), dtype=int)
    lit = np.asarray(history_image(view, board, highlight=lands), dtype=int)
    changed = (plain != lit).any(axis=2)
    under_names = np.asarray(_names_mask(board, 1600, plain.shape[0])) > 0
    assert changed.sum() > 10_000  # every land is outlined ...
    assert not (changed & under_names).any()  # ... and no name lost a pixel to it
