"""Colour distances for picture tests: CIE Lab ΔE, plain and under a deuteranopia simulation (every
picture test's colour checks use these)."""

from __future__ import annotations

import math

Colour = tuple[float, float, float]


def _linear(c: float) -> float:
    c /= 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def lab(rgb: Colour) -> Colour:
    """An sRGB colour (0-255) in CIE Lab (D65)."""
    r, g, b = (_linear(c) for c in rgb)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def deuteranopia(rgb: Colour) -> Colour:
    """Machado et al. (2009) deuteranopia simulation, severity 1, on linear RGB."""
    m = ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881))

    def encode(c: float) -> float:
        c = min(1.0, max(0.0, c))
        return 255 * (12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055)

    v = [_linear(c) for c in rgb]
    r, g, b = (encode(sum(m[i][j] * v[j] for j in range(3))) for i in range(3))
    return r, g, b


def delta_e(a: Colour, b: Colour) -> float:
    """The CIE76 distance between two sRGB colours."""
    return math.dist(lab(a), lab(b))
