"""A picture's key names the people behind the colours when the platform gives them (issue 28):
"alice — Red", and "bob — Blue (you)" for the reader; with no people given, the colours alone."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from PIL import ImageDraw

from engine.registry import get_game, make_policy, spec
from render import stamps
from render.marks import NAME_ROOM, seat_label

PEOPLE = ("alice", "bob", "carol", "dave")
GAMES = ("history-classic", "history", "eight-minute", "rise")  # the games whose pictures draw seats


def _view(game_id: str, reader: int = 1) -> dict[str, Any]:
    game = get_game(game_id)
    state = game.setup(len(PEOPLE), spec(game_id).default_options(), 4)
    ais = [make_policy(game_id, "greedy", 700 + p) for p in range(len(PEOPLE))]
    for _ in range(60):
        if game.is_over(state):
            break
        p = sorted(game.actors(state))[0]
        state = game.apply(state, ais[p].choose(state, p)).state
    view: dict[str, Any] = json.loads(json.dumps(game.view(state, reader)))
    return view


@pytest.fixture
def written(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every text the pictures write, whichever way they write it."""
    texts: list[str] = []
    stamp, plain = stamps.StampDraw.text, ImageDraw.ImageDraw.text

    def stamped(self: stamps.StampDraw, xy: Any, text: Any, *args: Any, **kwargs: Any) -> None:
        texts.append(str(text))
        stamp(self, xy, text, *args, **kwargs)

    def drawn(self: ImageDraw.ImageDraw, xy: Any, text: Any, *args: Any, **kwargs: Any) -> None:
        texts.append(str(text))
        plain(self, xy, text, *args, **kwargs)

    monkeypatch.setattr(stamps.StampDraw, "text", stamped)
    monkeypatch.setattr(ImageDraw.ImageDraw, "text", drawn)
    yield texts


@pytest.mark.parametrize("game_id", GAMES)
def test_the_notice_key_names_each_person_beside_their_colour(game_id: str, written: list[str]) -> None:
    game_spec = spec(game_id)
    game_spec.notice_pictures()(_view(game_id), focus=(), size=800, people=PEOPLE)
    drawn = "\n".join(written)
    assert f"bob — {game_spec.colour(1)} (you)" in drawn
    for seat in (0, 2, 3):
        assert f"{PEOPLE[seat]} — {game_spec.colour(seat)}" in drawn


@pytest.mark.parametrize("game_id", GAMES)
def test_without_people_the_key_names_the_colours_alone(game_id: str, written: list[str]) -> None:
    game_spec = spec(game_id)
    game_spec.notice_pictures()(_view(game_id), focus=(), size=800)
    drawn = "\n".join(written)
    assert f"{game_spec.colour(1)} (you)" in drawn
    assert not any(person in drawn for person in PEOPLE)


def test_a_long_name_is_cut_with_an_ellipsis_and_a_missing_person_leaves_the_colour() -> None:
    long = "bartholomew-the-magnificent"
    label = seat_label("Green", 2, None, ("a", "b", long))
    person, _, colour = label.partition(" — ")
    assert colour == "Green"
    assert person.endswith("…") and len(person) == NAME_ROOM and long.startswith(person[:-1])
    assert seat_label("Green", 2, 2, ("a", "b", "")) == "Green (you)"
    assert seat_label("Yellow", 3, 0, ("a", "b")) == "Yellow"
