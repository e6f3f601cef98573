"""Pictures from kept layers (issue 25): a picture composed from a static layer kept per size and
patches drawn over it is the very picture drawn whole and reduced, whatever was drawn before it."""

from __future__ import annotations

import io
import json
import random
from typing import Any

import numpy as np
import pytest
from PIL import Image

from engine.registry import make_policy
from engine.rise.game import GAME
from engine.rise.view import RiseView
from render import rise as rr
from render.layers import LayerCache, ShiftDraw, aligned, compose, reduce_whole
from render.palette import font
from render.png import encode_png


def _moments(players: int, seed: int, every: int) -> list[RiseView]:
    """Views (a seat's and a spectator's, in turn) of a seeded game between random players, one every
    ``every`` moves to its end."""
    state = GAME.setup(players, {}, seed)
    ais = [make_policy("rise", "random", seed * 31 + p) for p in range(players)]
    out: list[RiseView] = []
    move = 0
    while not GAME.is_over(state):
        seat = sorted(GAME.actors(state))[0]
        if move % every == 0:
            viewer = seat if len(out) % 2 == 0 else None
            out.append(json.loads(json.dumps(GAME.view(state, viewer))))
        state = GAME.apply(state, ais[seat].choose(state, seat)).state
        move += 1
    out.append(json.loads(json.dumps(GAME.view(state, 0))))
    return out


def _same(a: Image.Image, b: Image.Image) -> bool:
    return a.size == b.size and np.array_equal(np.asarray(a), np.asarray(b))


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (4, 2), (5, 3)])
def test_a_rise_picture_from_kept_layers_is_the_picture_drawn_whole(players: int, seed: int) -> None:
    # One game after another moment by moment, so layers drawn for one moment (a panel that has since
    # moved down, the terrain of an earlier era) serve the next ones.
    rr._TERRAIN.clear()
    rr._DASHBOARD.clear()
    rng = random.Random(seed)
    composed = 0
    for view in _moments(players, seed, every=23):
        regions = sorted(view["map"]["regions"])
        marked = set(rng.sample(regions, rng.choice([0, 1, 3])))
        for factor in (2, 1):
            whole = reduce_whole(rr._map_image(view, True, marked), factor)
            assert _same(rr._map_reduced(view, True, marked, factor), whole)
            dashboard = rr._dashboard_reduced(view, factor)
            if dashboard is not None:  # (None: taller than wide, drawn whole and widened instead)
                assert _same(dashboard, reduce_whole(rr._dashboard_image(view), factor))
                composed += 1
    assert composed > 10


def test_the_pictures_a_notice_sends_are_the_ones_drawn_whole() -> None:
    view = _moments(4, 7, every=40)[3]
    focus = sorted(view["map"]["regions"])[:2]
    tags = {}
    for tag, png in rr.notice_pictures(view, focus=focus, size=800):
        with Image.open(io.BytesIO(png)) as img:
            tags[tag] = img.convert("RGB")
    whole_map = reduce_whole(rr._map_image(view, True, set(focus)), 2)
    whole_dashboard = reduce_whole(rr._dashboard_image(view), 2)
    # Encoded with a palette of the picture's colours: the same picture gives the same decoded pixels.
    assert _same(tags["map"], Image.open(io.BytesIO(encode_png(whole_map))).convert("RGB"))
    assert _same(tags["dashboard"],
                 Image.open(io.BytesIO(encode_png(whole_dashboard))).convert("RGB"))


def test_shapes_and_text_drawn_on_a_part_at_an_even_corner_are_the_whole_pictures_pixels() -> None:
    rng = random.Random(5)
    whole = Image.new("RGB", (300, 200), (240, 235, 220))
    calls = []
    for _ in range(60):  # all within the smallest part below (what leaves a part is not drawn alike)
        x, y = rng.uniform(170, 240), rng.uniform(100, 150)
        w, h = rng.uniform(2, 50), rng.uniform(2, 40)
        colour = (rng.randrange(256), rng.randrange(256), rng.randrange(256))
        kind = rng.choice(["rounded", "ellipse", "rect", "line", "polygon", "text"])
        calls.append((kind, x, y, w, h, colour, rng.choice([1, 2, 3])))

    def paint(draw: ShiftDraw) -> None:
        for kind, x, y, w, h, colour, width in calls:
            if kind == "rounded":
                draw.rounded_rectangle((x, y, x + w, y + h), radius=min(w, h) / 3, fill=colour,
                                       outline=(0, 0, 0), width=width)
            elif kind == "ellipse":
                draw.ellipse((x, y, x + w, y + h), fill=colour, outline=(0, 0, 0), width=width)
            elif kind == "rect":
                draw.rectangle((x, y, x + w, y + h), fill=colour, outline=(0, 0, 0))
            elif kind == "line":
                draw.line([(x, y), (x + w, y + h)], fill=colour, width=width)
            elif kind == "polygon":
                draw.polygon([(x, y), (x + w, y + h / 3), (x + w / 2, y + h)], fill=colour, outline=(0, 0, 0))
            else:
                draw.text((x, y), "Ag 12", fill=colour, font=font(10 + width * 4, width == 2), anchor="lm")

    paint(ShiftDraw(whole))
    for corner in [(0, 0), (2, 2), (40, 18), (100, 60), (162, 94)]:
        part = Image.new("RGB", (300 - corner[0], 200 - corner[1]), (240, 235, 220))
        paint(ShiftDraw(part, corner))
        assert _same(part, whole.crop((*corner, 300, 200))), corner


def test_patches_on_whole_squares_reduce_to_the_whole_pictures_pixels() -> None:
    rng = np.random.default_rng(3)
    full = Image.fromarray(rng.integers(0, 256, (61, 90, 3), dtype=np.uint8), "RGB")
    reduced = reduce_whole(full, 2)
    assert reduced.size == (45, 30)
    drawn = full.copy()
    ShiftDraw(drawn).ellipse((10.5, 7.25, 30, 22), fill=(255, 0, 0))
    ShiftDraw(drawn).rectangle((50, 40, 70, 58), fill=(0, 0, 255))
    rects = [aligned((9, 6, 31, 23), 2, 90, 61), aligned((49, 39, 71, 60), 2, 90, 61)]
    assert all(v % 2 == 0 for r in rects for v in r) and rects[1][3] == 60  # the odd last row is cut

    def ellipse(canvas: Image.Image, at: tuple[int, int]) -> None:
        ShiftDraw(canvas, at).ellipse((10.5, 7.25, 30, 22), fill=(255, 0, 0))

    def box(canvas: Image.Image, at: tuple[int, int]) -> None:
        ShiftDraw(canvas, at).rectangle((50, 40, 70, 58), fill=(0, 0, 255))

    out = compose(full, reduced, 2, [(rects[0], ellipse), (rects[1], box)])
    assert out is not None and _same(out, reduce_whole(drawn, 2))
    overlapping = aligned((29, 20, 40, 30), 2, 90, 61)
    assert compose(full, reduced, 2, [(rects[0], ellipse), (overlapping, box)]) is None


def test_a_layer_cache_keeps_the_newest_and_draws_each_layer_once() -> None:
    cache = LayerCache(keep=2)
    drawn: list[str] = []

    def layer(name: str) -> Any:
        def draw() -> Image.Image:
            drawn.append(name)
            return Image.new("RGB", (4, 5), (len(name), 0, 0))
        return draw

    full, half = cache.get("a", layer("a"), 2)
    assert full.size == (4, 5) and half.size == (2, 2)
    cache.get("a", layer("a"), 1)
    cache.get("b", layer("b"), 2)
    cache.get("a", layer("a"), 2)
    cache.get("c", layer("c"), 2)  # "b" is the least recently used: it goes
    cache.get("a", layer("a"), 2)
    cache.get("b", layer("b"), 2)
    assert drawn == ["a", "b", "c", "b"]
