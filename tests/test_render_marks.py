"""Owners told apart by shape as well as colour (issue 28): under a deuteranopia simulation two seat
colours come out close, yet their pieces still differ in outline on every board that draws pieces."""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations

import numpy as np
import pytest
from PIL import Image, ImageDraw

from render import eight_minute as em
from render import history_board, palette, rise

BACKGROUND = (255, 0, 255)  # no seat colour and no ink: whatever is not this is the piece
# Machado, Oliveira & Fernandes (2009), deuteranopia at severity 1, on linear RGB.
DEUTERANOPIA = np.array([[0.367322, 0.860646, -0.227968],
                         [0.280085, 0.672501, 0.047413],
                         [-0.011820, 0.042940, 0.968881]])


def _linear(rgb: tuple[int, int, int]) -> np.ndarray:
    c = np.array(rgb) / 255.0
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def _srgb(lin: np.ndarray) -> np.ndarray:
    lin = np.clip(lin, 0.0, 1.0)
    return 255 * np.where(lin <= 0.0031308, lin * 12.92, 1.055 * lin ** (1 / 2.4) - 0.055)


def _seen_by_deuteranope(rgb: tuple[int, int, int]) -> np.ndarray:
    return _srgb(DEUTERANOPIA @ _linear(rgb))


def _closest_pair() -> tuple[int, int]:
    """The two seats whose colours the simulation brings closest together."""
    seen = [_seen_by_deuteranope(colour) for colour in palette.PLAYER_COLOURS]
    pairs = combinations(range(len(seen)), 2)
    return min(pairs, key=lambda ab: float(np.linalg.norm(seen[ab[0]] - seen[ab[1]])))


def _mask(img: Image.Image) -> np.ndarray:
    """Where the piece is: every pixel that is not the background."""
    out: np.ndarray = (np.asarray(img) != np.array(BACKGROUND)).any(axis=2)
    return out


def _history_army(seat: int) -> np.ndarray:
    img = Image.new("RGB", (40, 40), BACKGROUND)
    history_board._army(ImageDraw.Draw(img), (20, 20), seat, 3, False, 0.8)  # a 16 px disc at 800 px
    return _mask(img)


def _eight_minute_army(seat: int) -> np.ndarray:
    sprite = em._piece_sprite(seat, em._colour(seat), 16)
    out: np.ndarray = np.asarray(sprite)[:, :, 3] > 127
    return out


def _rise_cube(seat: int) -> np.ndarray:
    img = Image.new("RGB", (60, 60), BACKGROUND)
    rise._cube(ImageDraw.Draw(img), 16, 16, seat, 3)
    return _mask(img)


def _rise_disc(seat: int) -> np.ndarray:
    img = Image.new("RGB", (60, 60), BACKGROUND)
    rise._disc(ImageDraw.Draw(img), 30, 30, 12, seat)
    return _mask(img)


PIECES: dict[str, Callable[[int], np.ndarray]] = {
    "history army": _history_army, "eight-minute army": _eight_minute_army,
    "rise cube": _rise_cube, "rise disc": _rise_disc,
}


def test_the_simulation_brings_red_and_green_close() -> None:
    """The premise: colour alone fails for Red and Green under deuteranopia (issue 28's figures)."""
    red, green = (_seen_by_deuteranope(palette.PLAYER_COLOURS[s]) for s in (0, 2))
    original = np.linalg.norm(np.array(palette.PLAYER_COLOURS[0]) - np.array(palette.PLAYER_COLOURS[2]))
    assert np.linalg.norm(red - green) < original / 2
    assert _closest_pair() == (0, 2)


@pytest.mark.parametrize("piece", sorted(PIECES))
def test_the_closest_seats_under_deuteranopia_differ_in_outline(piece: str) -> None:
    a, b = _closest_pair()
    first, second = (PIECES[piece](s) for s in (a, b))
    differing = int((first ^ second).sum())
    assert differing >= 0.1 * min(first.sum(), second.sum()), (piece, differing)


@pytest.mark.parametrize("piece", sorted(PIECES))
def test_every_two_seats_differ_in_outline(piece: str) -> None:
    shapes = [PIECES[piece](s) for s in range(len(palette.PLAYER_COLOURS))]
    for a, b in combinations(range(len(shapes)), 2):
        differing = int((shapes[a] ^ shapes[b]).sum())
        assert differing >= 0.1 * min(shapes[a].sum(), shapes[b].sum()), (piece, a, b, differing)
