"""The 7 Ages board in words (the ``board_text`` hook), built from one viewer's view only.

Grouped by seat: a line naming the seat as the platform does and its dedicated counter group ("alice
(Red): red/pink counters", as the picture key does), then for each of its empires in play one line (its
counters, level, age, money, elite markers, religions, government, the artefacts on its card) and one line
per area it holds: the units as the viewer may know them, the city or capital, fort, disorder, leaders
and the artefact markers there. The fog of war (L791, :mod:`engine.seven_ages.fog`) is the view's: its
owner's view lists every unit (and says what the others see on top), any other view holds only each
stack's top unit and count, so no other seat's units beneath a top can be named here.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from engine.core import Names
from engine.seven_ages.text import seat, unit_count, unit_words
from engine.seven_ages.view import AreaView, EmpireView, LeaderView, PersonView, SevenView
from engine.words import article, join_words, plural


def seat_line(names: Names, person: PersonView, empires: int) -> str:
    """A seat and its dedicated counter group: "alice (Red): red/pink counters." (and "no empire in play"
    when it has none)."""
    who = seat(names, int(person["seat"]))
    group = person.get("group")
    said = f"{who}: {group} counters" if group else who
    return said + ("" if empires else "; no empire in play") + "."


def leader_words(leader: LeaderView) -> str:
    """A leader by name and type: "Aguda (Tactician)"; an unnamed one is its type: "an unnamed Explorer"."""
    kinds = join_words([str(a) for a in leader["abilities"]])
    return f"{leader['name']} ({kinds})" if leader["named"] else f"an unnamed {kinds}"


def belief_words(belief: str, backs: Mapping[str, str]) -> str:
    """A religion or government, with what its double-sided marker shows on the back (L915-917)."""
    return f"{belief} (its marker's back: {backs[belief]})" if belief in backs else belief


def empire_line(e: EmpireView) -> str:
    """One empire's own state: counters, progress, money, elite markers, beliefs and its card's
    artefacts."""
    parts = [f"level {e['progress']}, age {e['age']}, {e['money']} money"
             + (f", {plural(int(e['elite']), 'elite marker')}" if e["elite"] else "")]
    backs = {str(b): str(back) for b, _, back in e["belief_markers"]}
    religions = [str(r) for r in e["religions"]]
    if religions:
        said = [belief_words(r, backs) for r in religions]
        if len(said) > 1:  # the dominant religion is listed first (Empire.religions)
            said[0] += ", dominant"
        parts.append(("religion " if len(said) == 1 else "religions ") + join_words(said))
    if e["government"]:
        parts.append(f"government {belief_words(str(e['government']), backs)}")
    held = {str(a) for a, _, _ in e["stacks"]}
    if e["homeland"] and e["homeland"] not in held:  # otherwise its area line says so
        parts.append(f"homeland {e['homeland']}")
    if e["artefacts"]:
        counted = Counter(str(a) for a in e["artefacts"])
        arts = [unit_count(a, n) for a, n in counted.items()]
        parts.append(("artefact " if len(arts) == 1 else "artefacts ") + join_words(arts))
    return f"The {e['name']} ({e['colour']} counters): {'; '.join(parts)}."


def stack_words(e: EmpireView, area: str) -> str:
    """The empire's units in ``area`` as this view holds them: every type for its owner (with what the
    others see when the stack mixes types), else the top unit and the count (L791)."""
    face = next((s for s in e["stacks"] if s[0] == area), None)
    if face is None:
        return "no units"
    _, top, count = face
    seen = article(str(top)) if count == 1 else f"{count} units, {article(str(top))} on top"
    if e["units"] is None:
        return seen
    mine = [(str(u), int(n)) for a, u, n in e["units"] if a == area]
    listed = join_words([unit_words(n, u) for u, n in mine])
    return listed + (f" (the others see {seen})" if len(mine) > 1 else "")


def area_marks(a: AreaView | None, capital: bool, homeland: bool) -> list[str]:
    """What an area holds besides units: its city or capital, homeland, fort, disorder, artefacts."""
    if a is None:
        return ["homeland"] if homeland else []
    marks = []
    if a["city"]:  # the capital of an empire's homeland is said in one breath
        marks.append(f"{'capital' if capital else 'city'} of value {a['city']}"
                     + (" and homeland" if homeland else ""))
    elif homeland:
        marks.append("homeland")
    if a["fort"]:
        marks.append("fort")
    if a["disorder"]:
        marks.append("disorder")
    arts = [str(x) for x in a["artefacts"]]
    if arts:
        marks.append(("artefact " if len(arts) == 1 else "artefacts ") + join_words(arts))
    return marks


def area_lines(e: EmpireView, areas: Mapping[str, AreaView]) -> list[str]:
    """One line per area the empire holds (or where a leader of its stands), by name."""
    leaders: dict[str, list[str]] = {}
    for ld in e["leaders"]:
        leaders.setdefault(str(ld["area"]), []).append(leader_words(ld))
    lines = []
    for area in sorted({str(s[0]) for s in e["stacks"]} | set(leaders)):
        marks = area_marks(areas.get(area), area == e["capital"], area == e["homeland"])
        parts = [stack_words(e, area), *marks]
        here = leaders.get(area, [])
        if here:
            parts.append(f"led by {join_words(here)}")
        lines.append(f"- {area}: {'; '.join(parts)}.")
    return lines


def unheld_line(view: SevenView) -> str | None:
    """The areas with a city, fort, disorder or artefact that no empire holds, or None."""
    held = {str(s[0]) for e in view["empires"] for s in e["stacks"]}
    rest = [f"{a['name']} ({', '.join(area_marks(a, False, False))})" for a in view["areas"]
            if a["name"] not in held and (a["city"] or a["fort"] or a["disorder"] or a["artefacts"])]
    return f"Held by no empire: {'; '.join(sorted(rest))}." if rest else None


def board_text(view: SevenView, names: Names) -> str:
    """The board as ``view``'s viewer may know it, one line per seat, per empire and per area held."""
    if not view["empires"]:
        return f"No empire is on the map. {view['deck_size']} cards are left in the deck."
    areas = {str(a["name"]): a for a in view["areas"]}
    by_seat: dict[int, list[EmpireView]] = {}
    for e in view["empires"]:
        by_seat.setdefault(int(e["owner"]), []).append(e)
    lines: list[str] = []
    people: Sequence[PersonView] = view["people"]
    for person in people:
        mine = by_seat.get(int(person["seat"]), [])
        if not mine and not person.get("group"):
            continue  # not yet in the game's colours: nothing of theirs is on the board
        lines.append(seat_line(names, person, len(mine)))
        for e in mine:
            lines += [empire_line(e), *area_lines(e, areas)]
    rest = unheld_line(view)
    return "\n".join([*lines, *([rest] if rest else [])])
