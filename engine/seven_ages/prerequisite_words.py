"""An artefact's option 16 prerequisite in words (the card look-up and the data README read it)."""

from __future__ import annotations

from engine.seven_ages.prerequisite_data import Prerequisite
from engine.words import join_words


def _all(names: tuple[str, ...]) -> str:
    return join_words(list(names))


def _any(names: tuple[str, ...]) -> str:
    return ", ".join(names[:-1]) + f" or {names[-1]}" if len(names) > 1 else names[0]


def prerequisite_text(pre: Prerequisite) -> str:
    """``"only on an empire with Renaissance; in age 5 with Printing"``: every field, in our words."""
    empire: list[str] = []
    if pre.requires:
        empire.append(f"with {_all(pre.requires)}")
    if pre.requires_any:
        empire.append(f"with {_any(pre.requires_any)}")
    if pre.within_range_of:
        empire.append(f"within Range of {pre.within_range_of}")
    if pre.controls:
        empire.append(f"controlling a land area of {_any(pre.controls)}")
    if pre.has_leader:
        empire.append("with a leader")
    if pre.has_religion:
        empire.append("with a religion")
    if pre.lacks_leader:
        empire.append(f"without a {pre.lacks_leader} leader")
    if pre.one_per_religion:
        empire.append("whose dominant religion has no other holder of it")
    if pre.disordered_area is True:
        empire.append("with a disordered area")
    if pre.disordered_area is False:
        empire.append("without disorder")
    if pre.may_build_ships:
        empire.append("that may build ships")
    if pre.most_advanced:
        empire.append("alone the most advanced")
    if pre.shared_religion:
        empire.append(f"whose religion {pre.shared_religion} empires share")
    area: list[str] = []
    if pre.coastal:
        area.append("that is coastal")
    if pre.area_city:
        area.append("with a city")
    if pre.area_undisordered:
        area.append("that is not disordered")
    if pre.terrain:
        area.append(f"of {_any(pre.terrain)}")
    if pre.river:
        area.append("by a river")
    if pre.canal:
        area.append(f"of the {pre.canal} canal")
    if pre.most_ships:
        area.append("with the most ships")
    if pre.not_religious_site:
        area.append("that is not a religious site")
    parts = [f"only on an empire {_all(tuple(empire))}"] if empire else []
    if area:
        parts.append(f"on an area {_all(tuple(area))}")
    if pre.world_war_marker:
        parts.append("only while the World war marker is on the progress track")
    if pre.not_in_play:
        parts.append(f"not while {_any(pre.not_in_play)} is in play")
    if pre.earlier_if:
        parts.append(f"from age {pre.earlier_if.age} with {_all(pre.earlier_if.requires)}")
    return "; ".join(parts)
