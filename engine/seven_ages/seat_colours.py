"""The colour each 7 Ages seat goes by: the colour group it took as its dedicated counters (L325-327).

A player picks a colour group during the game's preparation, in the order of the bids (or on joining,
L337), so no colour can name a seat from the start: the counters "alice (Red)" holds may be the orange
ones. A seat is therefore named by the first colour of its group once it has one ("alice (Orange)" for
the orange/yellow counters) and, until then, by the spec's seat words ("alice (First seat)"), which are no
colour at all. Every group's first colour differs, so no seat is ever named by another seat's counters.
The platform (:meth:`engine.core.Game.seat_colours`) and the pictures' keys both read it here, from the
public view.
"""

from __future__ import annotations

from engine.seven_ages.view import SevenView


def colour_word(group: str) -> str:
    """The word a seat holding the colour group ``group`` goes by: "orange/yellow" -> "Orange"."""
    return group.split("/")[0].strip().capitalize()


def seat_colours(view: SevenView) -> tuple[str | None, ...]:
    """Each seat's colour word from ``view`` (any viewer's: the groups are public), None for a seat that
    has not chosen its colours yet."""
    return tuple(colour_word(p["group"]) if p["group"] else None for p in view["people"])
