"""Option 16: may an artefact go on an empire (and area) now, and if not, the one sentence why.

Pure rules over the state. The prerequisites are data (:mod:`engine.seven_ages.prerequisite_data`, each
citing its entry's "Ages:" line of L1390-1999); Range, control and coasts are the engine's own
(:func:`engine.seven_ages.reach.empire_reaches`, :meth:`Empire.areas`, :meth:`WorldMap.coastal`). Two rules
hold for whole colours: a blue artefact goes on an empire in a dark age only if it has a Scientist (L1376,
L2057), and the '†' lets an artefact come before its age when the empire has what it names (L1374).
Civilise asks :func:`age_allowed` and :func:`problem` only when the game plays option 16.
"""

from __future__ import annotations

from engine.seven_ages import trade_bars
from engine.seven_ages.artefact_powers import has, holds, in_play
from engine.seven_ages.cards import Artefact
from engine.seven_ages.data import load_tables
from engine.seven_ages.map import load_map
from engine.seven_ages.prerequisite_data import Prerequisite
from engine.seven_ages.reach import empire_reaches
from engine.seven_ages.state import Empire, SevenState
from engine.seven_ages.text import empire_name, the_empire
from engine.words import join_words

SCIENTIST = "Scientist"


def _age(e: Empire) -> int:
    return load_tables().age_of(max(1, min(e.progress, 49)))


def age_allowed(state: SevenState, e: Empire, art: Artefact) -> bool:
    """Whether the empire's age lets the artefact come: within its ages, or earlier by its '†' (L1374:
    Industrial Revolution from age 5 with Printing, World war in any age with Industrial Revolution)."""
    age = _age(e)
    if art.ages[0] <= age <= art.ages[1]:
        return True
    early = art.prerequisite.earlier_if if art.prerequisite else None
    return (early is not None and early.age <= age <= art.ages[1]
            and all(has(state, e, n) for n in early.requires))


def _line(pre: Prerequisite) -> str:
    return pre.source.replace("rulebook:", "L")


def _in_range_of(state: SevenState, e: Empire, place: str) -> bool:
    wmap = load_map()
    targets = [place] if place in wmap.areas else [a for a in wmap.members(place) if wmap.areas[a].land]
    # an empire in the place itself is within its Range: Range counts only areas away from it (L2227)
    return bool(set(targets) & set(e.areas())) or empire_reaches(state, e, targets)


def _controls(e: Empire, regions: tuple[str, ...]) -> bool:
    wmap = load_map()
    return any(wmap.areas[a].land and wmap.regions_of(a) & set(regions) for a in e.areas())


def _empire_problem(state: SevenState, e: Empire, art: Artefact, pre: Prerequisite) -> str | None:
    who, line = empire_name(e.card), _line(pre)
    missing = [n for n in pre.requires if not has(state, e, n)]
    if missing:
        return (f"{art.name} needs {join_words(pre.requires)} first: {who} have no "
                f"{join_words(missing, 'or')} ({line}).")
    if pre.requires_any and not any(has(state, e, n) for n in pre.requires_any):
        return f"{art.name} goes only on an empire with {join_words(pre.requires_any, 'or')} ({line})."
    if pre.within_range_of and not _in_range_of(state, e, pre.within_range_of):
        return f"{art.name} goes only on an empire within Range of {pre.within_range_of} ({line})."
    if pre.controls and not _controls(e, pre.controls):
        return (f"{art.name} goes only on an empire controlling a land area of "
                f"{join_words(pre.controls, 'or')} ({line}).")
    if pre.has_leader and not e.leaders:
        return f"{art.name} goes only on an empire with a leader on the map ({line})."
    if pre.has_religion and not e.religions:
        return f"{art.name} goes only on an empire with a religion ({line})."
    if pre.lacks_leader and e.has_leader(pre.lacks_leader):
        return f"{art.name} cannot go on an empire with a {pre.lacks_leader} leader ({line})."
    if pre.one_per_religion and e.religions and any(
            x.religions[:1] == e.religions[:1] and holds(state, x, art.name) for x in state.empires):
        return f"{e.religions[0]} already has its {art.name} ({line})."
    if pre.disordered_area is not None:
        disordered = any(state.area(a).disorder for a in e.areas())
        if pre.disordered_area and not disordered:
            return f"{art.name} goes only on an empire with a disordered area ({line})."
        if not pre.disordered_area and disordered:
            return f"{art.name} goes only on an empire without disorder ({line})."
    if pre.may_build_ships and trade_bars.barred(e, "ships"):
        return f"{art.name} goes only on an empire that may build ships ({line})."
    if pre.most_advanced and any(x.progress >= e.progress for x in state.empires if x.card != e.card):
        return f"{art.name} goes only on the one most advanced empire ({line})."
    if pre.shared_religion and (not e.religions or sum(
            1 for x in state.empires if e.religions[0] in x.religions) < pre.shared_religion):
        return f"{art.name} needs {pre.shared_religion} empires sharing the empire's religion ({line})."
    if pre.world_war_marker and not state.world_war:
        return f"{art.name} comes only while the World war marker is on the progress track ({line})."
    present = [n for n in pre.not_in_play if in_play(state, n)]
    if present:
        return f"{art.name} cannot be played while {join_words(present)} is in play ({line})."
    return None


def _ships(state: SevenState, area: str) -> int:
    classes = {name: t.unit_class for name, t in load_tables().unit_types.items()}
    return sum(s.count for e in state.empires for s in e.units
               if s.area == area and classes[s.unit] == "ships")


def _area_problem(state: SevenState, art: Artefact, pre: Prerequisite, area: str) -> str | None:
    wmap, here, line = load_map(), state.area(area), _line(pre)
    where = wmap.areas[area]
    if pre.coastal and not wmap.coastal(area):
        return f"{art.name} goes only on a coastal area; {area} is not ({line})."
    if pre.area_city and not here.city:
        return f"{art.name} goes only on an area with a city; {area} has none ({line})."
    if pre.area_undisordered and here.disorder:
        return f"{art.name} cannot go on a disordered area like {area} ({line})."
    if pre.terrain and where.terrain not in pre.terrain:
        return f"{art.name} goes only on {join_words(pre.terrain, 'or')}; {area} is not ({line})."
    if pre.river and not any(area in pair for pair in wmap.rivers):
        return f"{art.name} goes only on an area by a river; {area} is not ({line})."
    if pre.canal and all(c.area != area for c in wmap.canals if c.name == pre.canal):
        return f"{art.name} goes only on the {pre.canal} canal's area ({line})."
    if pre.most_ships and any(_ships(state, a) > _ships(state, area) for a in wmap.areas
                              if wmap.areas[a].land and wmap.coastal(a)):
        return f"{art.name} goes only on the coastal area with the most ships ({line})."
    if pre.not_religious_site and where.religion:
        return f"{art.name} cannot go on a religious site like {area} ({line})."
    return None


def empire_problem(state: SevenState, e: Empire, art: Artefact) -> str | None:
    """Why option 16 keeps ``art`` off empire ``e`` whatever the area, or None (its age is
    :func:`age_allowed`'s)."""
    if art.colour == "blue" and e.progress in load_tables().dark_ages and not e.has_leader(SCIENTIST):
        return (f"{the_empire(e.card)} are in a dark age: a blue artefact goes on them only with a "
                f"Scientist (L1376).")
    return _empire_problem(state, e, art, art.prerequisite) if art.prerequisite else None


def area_problem(state: SevenState, art: Artefact, area: str) -> str | None:
    """Why option 16 keeps the marker of ``art`` off ``area``, or None."""
    return _area_problem(state, art, art.prerequisite, area) if art.prerequisite else None


def problem(state: SevenState, e: Empire, art: Artefact, area: str | None = None) -> str | None:
    """Why option 16 keeps ``art`` off empire ``e`` (and off ``area``, for a marker on the map) now, in one
    sentence; None when it may go there. Its ages (with the '†'), the colour's rule and the entry's own."""
    if not age_allowed(state, e, art):
        first, last = art.ages
        ages = f"ages {first} to {last}" if first != last else f"age {first}"
        return f"{art.name} is for {ages}; {empire_name(e.card)} are in age {_age(e)}."
    return empire_problem(state, e, art) or (area_problem(state, art, area) if area is not None else None)
