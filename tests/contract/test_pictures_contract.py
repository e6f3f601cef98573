"""The pictures of a turn notice (issue 16), for every registered game: PNGs no wider than asked, and
for a game that draws its own (``GameSpec.pictures``) none taller than wide, as chat shows them best.

The focus is what the notice is about: the words the public events since the reader's last move name
(:func:`bot.digest.places`). The History close-up's own checks are in tests/render/test_render_closeup.py.
"""

from __future__ import annotations

import io
import json
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import pytest
from PIL import Image

import tests.toy.spec  # noqa: F401  (registers the toy game, which keeps this contract too)
from bot.digest import places
from engine import registry
from engine.spec import GameSpec

SPECS = registry.specs()
PNG = b"\x89PNG\r\n\x1a\n"
SIZES = (400, 800)


def spec_id(value: object) -> str:
    return value.id if isinstance(value, GameSpec) else str(value)


@dataclass
class Moment:
    """A game at a reader's turn: their view, the public record since their last move, the focus."""

    view: Mapping[str, Any]
    entries: list[dict[str, Any]]
    reader: int
    focus: list[str]
    public: Mapping[str, Any]  # a spectator's view, what a board message in the thread shows
    latest: list[str]  # the focus of the last seat's run of moves, a board message's outline


def moment(spec: GameSpec, players: int, seed: int, steps: int) -> Moment:
    """Play ``spec``'s random players until, after ``steps`` moves, a new seat is to move that moved
    before; that seat's view and the public events since its last move (the digest's entries)."""
    game = spec.load()
    state = game.setup(players, spec.default_options(), seed)
    ais = [spec.make_policy("random", seed * 10 + p) for p in range(players)]
    rng = random.Random(seed)
    log: list[dict[str, Any]] = []
    while not game.is_over(state):
        seat = rng.choice(sorted(game.actors(state)))
        if len(log) >= steps and log[-1]["player"] != seat and any(e["player"] == seat for e in log):
            break
        result = game.apply(state, ais[seat].choose(state, seat))
        state = result.state
        log.append({"player": seat, "events": [json.loads(json.dumps(e.to_json())) for e in result.events
                                                 if e.visible_to(None)]})
    else:
        seat = 0
    last = max((i for i, e in enumerate(log) if e["player"] == seat), default=0)
    entries = log[last:]
    view = json.loads(json.dumps(game.view(state, seat)))
    run = len(log)
    while run > 0 and log[run - 1]["player"] == log[-1]["player"]:
        run -= 1
    return Moment(view, entries, seat, places(entries, seat), json.loads(json.dumps(game.view(state, None))),
                  places(log[run:]))


def images(pictures: list[tuple[str, bytes]]) -> list[Image.Image]:
    out: list[Image.Image] = []
    for _, png in pictures:
        assert png[:8] == PNG
        with Image.open(io.BytesIO(png)) as img:
            img.load()
            out.append(img)
    return out


@pytest.mark.parametrize("spec", SPECS, ids=spec_id)
@pytest.mark.parametrize("size", SIZES)
def test_notice_pictures_are_pngs_no_wider_than_asked(spec: GameSpec, size: int) -> None:
    at = moment(spec, spec.max_players, seed=size, steps=40)
    pictures = spec.notice_pictures()(at.view, focus=at.focus, size=size)
    assert pictures, "a turn notice carries at least one picture"
    tags = [tag for tag, _ in pictures]
    assert len(set(tags)) == len(tags) and all(tag.isalpha() or tag == "" for tag in tags), tags
    assert tags == [""] or "" not in tags  # only a picture alone goes untagged
    for (tag, _), img in zip(pictures, images(pictures), strict=True):
        assert 200 <= img.width <= size, (tag, img.size)
        if spec.pictures:  # a game's own notice pictures are drawn for chat: none taller than wide
            assert img.height <= img.width, (tag, img.size)


@pytest.mark.parametrize("spec", SPECS, ids=spec_id)
def test_words_that_are_no_place_change_nothing(spec: GameSpec) -> None:
    """The focus is every word of the events: a game keeps its places and must ignore the rest."""
    at = moment(spec, spec.min_players, seed=5, steps=20)
    draw = spec.notice_pictures()
    plain = draw(at.view, focus=(), size=400)
    assert draw(at.view, focus=("Atlantis", "", "up", "3:Nobody", "t99"), size=400) == plain


@pytest.mark.parametrize("spec", SPECS, ids=spec_id)
def test_the_final_board_has_its_notice_pictures(spec: GameSpec) -> None:
    at = moment(spec, spec.min_players, seed=3, steps=10**6)  # to the end of the game
    assert images(spec.notice_pictures()(at.view, focus=at.focus, size=400))


def test_the_focus_is_the_others_places_newest_last() -> None:
    entries = [
        {"player": 1, "events": [{"type": "expanded", "data": {"land": "Gaul", "player": 1}}]},
        {"player": 0, "events": [{"type": "expanded", "data": {"land": "Iberia", "player": 0}}]},
        {"player": 2, "events": [{"type": "turn", "data": {"starts": ["Crete", "Gaul"], "name": "Minoans"}},
                                 {"type": "scored", "data": {"breakdown": {"Gaul": 3}}}]},
    ]
    # the reader's own move (seat 0) is not news to them; a place named again is news again
    assert places(entries, 0) == ["Crete", "Gaul", "Minoans"]
    assert places(entries) == ["Iberia", "Crete", "Gaul", "Minoans"]
