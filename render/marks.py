"""Each seat's shape: what marks a player's pieces besides their colour.

Colour alone does not tell every player apart: under a deuteranopia simulation
Red and Green come out as two close olive browns on a 16 px disc. So every
board draws a seat's pieces (and its key in the header) in the seat's own
outline: a circle, a square, a diamond, a triangle, a shield or a cross, in
seat order, each filling about the same area so that no player's pieces look
bigger (a hexagon or an octagon reads as a circle at 16 px). The numbers or
numerals a piece carries still fit inside each shape.
"""

from __future__ import annotations

from typing import Final

from PIL import ImageDraw

from render.palette import RGB

Point = tuple[float, float]

#: The shape of each seat's pieces, index = seat (names for the tests and the docs).
SHAPES: Final = ("circle", "square", "diamond", "triangle", "shield", "cross")

# Each polygon on a unit grid centred on the piece's centre, scaled so that its area is
# close to the circle's (pi r^2): the square's half side 0.89, the diamond's half diagonal 1.25, the cross's
# arms 1.0 wide and 2.2 long...
_UNIT: Final[dict[str, tuple[Point, ...]]] = {
    "square": ((-0.89, -0.89), (0.89, -0.89), (0.89, 0.89), (-0.89, 0.89)),
    "diamond": ((0.0, -1.25), (1.25, 0.0), (0.0, 1.25), (-1.25, 0.0)),
    # Point up, its centroid on the centre (a third of the way up from the base).
    "triangle": ((0.0, -1.55), (1.35, 0.78), (-1.35, 0.78)),
    # Flat top, point down: a heraldic shield.
    "shield": ((-0.95, -0.95), (0.95, -0.95), (0.95, 0.25), (0.0, 1.2), (-0.95, 0.25)),
    # A fat plus sign: arms half as wide as the circle, reaching a little past it.
    "cross": ((-0.5, -1.1), (0.5, -1.1), (0.5, -0.5), (1.1, -0.5), (1.1, 0.5), (0.5, 0.5), (0.5, 1.1),
              (-0.5, 1.1), (-0.5, 0.5), (-1.1, 0.5), (-1.1, -0.5), (-0.5, -0.5)),
}


def shape(seat: int) -> str:
    """The name of ``seat``'s shape (seats past the sixth repeat the cycle)."""
    return SHAPES[seat % len(SHAPES)]


def outline(seat: int, centre: Point, r: float) -> tuple[Point, ...] | None:
    """The corners of ``seat``'s shape of radius ``r`` about ``centre``; None for the circle."""
    unit = _UNIT.get(shape(seat))
    if unit is None:
        return None
    cx, cy = centre
    return tuple((cx + x * r, cy + y * r) for x, y in unit)


def draw_piece(draw: ImageDraw.ImageDraw, seat: int, centre: Point, r: float, *, fill: RGB | tuple[int, ...],
               ink: RGB | tuple[int, ...], width: int = 1) -> None:
    """``seat``'s shape of radius ``r`` about ``centre``, filled with ``fill`` and outlined in ``ink``.

    A negative seat (a neutral piece, a seat nobody holds) is a circle.
    """
    corners = outline(seat, centre, r) if seat >= 0 else None
    if corners is None:
        cx, cy = centre
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=ink, width=width)
    else:
        draw.polygon(corners, fill=fill, outline=ink, width=width)
