"""An artefact's option 16 prerequisite in words (the card look-up reads it)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.seven_ages.prerequisite_data import Prerequisite
from engine.words import join_words


def _any(names: tuple[str, ...]) -> str:
    return join_words(list(names), "or")


Phrase = Callable[[Any], str]

EMPIRE: tuple[tuple[str, Phrase], ...] = (
    ("requires", lambda v: f"with {join_words(list(v))}"),
    ("requires_any", lambda v: f"with {_any(v)}"),
    ("within_range_of", lambda v: f"within Range of {v}"),
    ("controls", lambda v: f"controlling a land area of {_any(v)}"),
    ("has_leader", lambda v: "with a leader"),
    ("has_religion", lambda v: "with a religion"),
    ("lacks_leader", lambda v: f"without a {v} leader"),
    ("one_per_religion", lambda v: "whose dominant religion has no other holder of it"),
    ("disordered_area", lambda v: "with a disordered area" if v else "without disorder"),
    ("may_build_ships", lambda v: "that may build ships"),
    ("most_advanced", lambda v: "alone the most advanced"),
    ("shared_religion", lambda v: f"whose religion {v} empires share"),
)
"""What each empire field asks, in the order the words give them ("only on an empire ...")."""

AREA: tuple[tuple[str, Phrase], ...] = (
    ("coastal", lambda v: "that is coastal"),
    ("area_city", lambda v: "with a city"),
    ("area_undisordered", lambda v: "that is not disordered"),
    ("terrain", lambda v: f"of {_any(v)}"),
    ("river", lambda v: "by a river"),
    ("canal", lambda v: f"of the {v} canal"),
    ("most_ships", lambda v: "with the most ships"),
    ("not_religious_site", lambda v: "that is not a religious site"),
)
"""What each field of the marker's area asks ("on an area ...")."""


def _said(pre: Prerequisite, fields: tuple[tuple[str, Phrase], ...]) -> list[str]:
    """The phrases of the fields ``pre`` sets (an unset field is empty, False or None; ``False`` is said
    only for ``disordered_area``, where it asks for no disorder)."""
    out = []
    for name, phrase in fields:
        value = getattr(pre, name)
        if value or (name == "disordered_area" and value is False):
            out.append(phrase(value))
    return out


def prerequisite_text(pre: Prerequisite) -> str:
    """``"only on an empire with Renaissance; from age 5 with Printing"``: every field, in our words."""
    empire, area = _said(pre, EMPIRE), _said(pre, AREA)
    parts = [f"only on an empire {join_words(empire)}"] if empire else []
    if area:
        parts.append(f"on an area {join_words(area)}")
    if pre.world_war_marker:
        parts.append("only while the World war marker is on the progress track")
    if pre.not_in_play:
        parts.append(f"not while {_any(pre.not_in_play)} is in play")
    if pre.earlier_if:
        parts.append(f"from age {pre.earlier_if.age} with {join_words(list(pre.earlier_if.requires))}")
    return "; ".join(parts)
