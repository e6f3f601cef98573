"""One area of the 7 Ages map in words (the ``place_text`` hook, for ``land`` and ``area``), from what
every player sees.

The platform's place contract (tests/contract/test_place_contract.py) wants the same words whoever
looks, so this reads only the public parts of a view: each empire's stacks as everyone sees them (top
unit and height, L791), never an owner's own list of units, which a seat's view also holds. An empire's
own units whole are in its owner's ``empire`` and ``text``.
"""

from __future__ import annotations

from engine.core import Names
from engine.seven_ages.board_words import leader_words
from engine.seven_ages.text import seat, units_by_area
from engine.seven_ages.view import EmpireView, SevenView
from engine.words import join_words


def _whose(e: EmpireView, names: Names) -> str:
    return f"{seat(names, int(e['owner']))}'s {e['name']}"


def place_text(view: SevenView, place: str, names: Names) -> str | None:
    """One area: its kind, terrain, region and what it yields (wheat, oil, elephants, a religion), which
    empires hold it and their units there as everyone sees them (each stack's top unit and count, L791),
    its city (or capital), fort, disorder and artefacts, the leaders standing there, whose homeland it is,
    and its neighbours. None when no area is called ``place``."""
    from engine.seven_ages.map import load_map  # the map data loads only when a place is asked for

    wmap = load_map()
    key = " ".join(place.split()).casefold()
    area = next((a for a in wmap.areas.values() if key in (a.name.casefold(), a.ref.casefold())), None)
    if area is None:
        return None
    kind = (f"a land area ({area.terrain})" if area.terrain else "a land area") if area.land else \
        f"a {area.kind} area"
    where = f" in {area.region}" + (f" ({area.subregion})" if area.subregion else "") if area.region else ""
    lines = [f"{area.name}: {kind}{where}."]
    marks = [what for what, has in (("wheat", area.wheat), ("oil", area.oil), ("elephants", area.elephant))
             if has] + ([f"the {area.religion} religion"] if area.religion else [])
    lines.append("Bears: " + (join_words(marks) if marks else "no wheat, oil, elephants or religion") + ".")
    holders, units, leaders = [], [], []
    for e in view["empires"]:
        here = units_by_area(e, public=True).get(area.name)  # the public board: the same for every seat
        if here:
            holders.append(_whose(e, names))
            units.append(f"{join_words(here)} of {_whose(e, names)}")
        leaders += [f"{leader_words(ld)} of {_whose(e, names)}" for ld in e["leaders"]
                    if ld["area"] == area.name]
    lines.append(f"Held by: {join_words(holders) if holders else 'no empire'}.")
    lines.append(f"Units here: {'; '.join(units) if units else 'none'}.")
    shown = next((a for a in view["areas"] if a["name"] == area.name), None)
    capital_of = [_whose(e, names) for e in view["empires"] if e["capital"] == area.name]
    built = []
    if shown is not None:
        if shown.get("city"):
            city = f"a city of value {shown['city']}"
            built.append(f"the capital of {join_words(capital_of)}, {city}" if capital_of else city)
        if shown.get("fort"):
            built.append("a fort")
        if shown.get("disorder"):
            built.append("disorder")
        built += [f"the {a} artefact" for a in shown.get("artefacts") or []]
    lines.append("Built here: " + (join_words(built) if built else "nothing") + ".")
    lines.append(f"Leaders here: {'; '.join(leaders) if leaders else 'none'}.")
    homeland = [_whose(e, names) for e in view["empires"] if e["homeland"] == area.name]
    if homeland:
        lines.append(f"The homeland of {join_words(homeland)}.")
    near = sorted(wmap.adjacency.get(area.name, frozenset()))
    lines.append("Neighbours: " + (join_words(near) if near else "none") + ".")
    return "\n".join(lines)
