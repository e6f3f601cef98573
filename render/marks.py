"""Each seat's shape and label: what marks a player's pieces besides their colour, and who they are.

Colour alone does not tell every player apart: under a deuteranopia simulation
Red and Green come out as two close olive browns on a 16 px disc. So every
board draws a seat's pieces (and its key in the header) in the seat's own
outline: a circle, a square, a diamond, a triangle, a shield or a cross, in
seat order, each inside the circle's square so that every layout stays as it
was (a hexagon or an octagon would read as a circle at 16 px). The number or
numeral a piece carries stays at its centre.

Where the platform gives the people at the table, a picture's key names them
beside their colour (:func:`seat_label`): a view holds seats, not people.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from PIL import ImageDraw

from render.palette import RGB

Point = tuple[float, float]

#: The shape of each seat's pieces, index = seat (names for the tests and the docs).
SHAPES: Final = ("circle", "square", "diamond", "triangle", "shield", "cross")

# Each polygon on a unit grid centred on the piece's centre, inside the circle's square (x and y from
# -1 to 1): every board lays out, clips and redraws round a piece by that square, so no corner may
# reach past it. (So the diamond and the triangle are smaller than the circle; they read as shapes.)
_UNIT: Final[dict[str, tuple[Point, ...]]] = {
    "square": ((-0.88, -0.88), (0.88, -0.88), (0.88, 0.88), (-0.88, 0.88)),
    "diamond": ((0.0, -1.0), (1.0, 0.0), (0.0, 1.0), (-1.0, 0.0)),
    # Point down: a monument (History) and a goods token (Eight-Minute) are triangles pointing up.
    "triangle": ((-1.0, -0.9), (1.0, -0.9), (0.0, 1.0)),
    "shield": ((-0.95, -0.9), (0.95, -0.9), (0.95, 0.25), (0.0, 1.0), (-0.95, 0.25)),  # point down
    # A fat plus sign: arms 0.9 wide, as long as the circle is wide.
    "cross": ((-0.45, -1.0), (0.45, -1.0), (0.45, -0.45), (1.0, -0.45), (1.0, 0.45), (0.45, 0.45),
              (0.45, 1.0), (-0.45, 1.0), (-0.45, 0.45), (-1.0, 0.45), (-1.0, -0.45), (-0.45, -0.45)),
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


#: The longest person's name a picture's key writes in full (a longer one is cut, with an ellipsis).
NAME_ROOM: Final = 14


def seat_label(colour: str, seat: int, you: int | None = None, people: Sequence[str] = ()) -> str:
    """How a picture's key names ``seat``: ``"alice — Blue (you)"``, or ``"Blue (you)"`` when the
    platform gives no person for it (``people``: a name per seat, index = seat; ``you``: the
    reader's seat, None for a spectator)."""
    person = people[seat].strip() if 0 <= seat < len(people) else ""
    if len(person) > NAME_ROOM:
        person = person[:NAME_ROOM - 1].rstrip() + "…"
    label = f"{person} — {colour}" if person else colour
    return f"{label} (you)" if seat == you else label
