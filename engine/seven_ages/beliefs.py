"""Religion and government markers (L915-919): double-sided counters that may be turned over at any time.

"An artefact can't be played (or adopted) if all of that artefact's markers are already in play.
However, as the religious and government artefacts have different religions or governments on the
back, you may swap them around at any time to make a religion or government available" (L915-917).

Each marker in play shows one side for the empire holding it (``Empire.belief_markers``: belief ->
marker index, an index of ``Deck.belief_markers``). A religion or government is available when a free
marker shows it, or when markers in play can be exchanged so that one does: the empire holding a
marker with the wanted side on its back takes a free marker showing its own side instead (E26), or,
failing a single exchange, a chain of such exchanges. :func:`swap_path` finds the shortest.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import replace
from itertools import pairwise

from engine.core import Event, Names
from engine.seven_ages.cards import load_deck
from engine.seven_ages.state import Empire, SevenState
from engine.seven_ages.steps import Ctx
from engine.seven_ages.text import empire_name, register_event, the_empire

Markers = Sequence[tuple[str, str]]
Holding = tuple[int, str]  # (empire card, religion or government)


def beliefs_of(e: Empire) -> tuple[str, ...]:
    """An empire's religions (the dominant first) and its government."""
    return (*e.religions, *((e.government,) if e.government else ()))


def swap_path(wanted: str, shown: Mapping[int, str], markers: Markers) -> list[int] | None:
    """The markers to turn so that one shows ``wanted`` (None: impossible, every side is held).

    ``shown``: the side each marker in play shows. In the path, the first marker comes to show
    ``wanted``; each next one takes over the side the one before it showed (its holder's marker is
    exchanged for it); the last is free. A free marker showing ``wanted`` is a path of one; E26's
    swap a path of two. Shortest first; between equals, the lower-numbered markers.
    """
    roots = [m for m, sides in enumerate(markers) if wanted in sides]
    before: dict[int, int | None] = {m: None for m in roots}
    queue = deque(roots)
    while queue:
        m = queue.popleft()
        if m not in shown:
            path = [m]
            while (p := before[path[-1]]) is not None:
                path.append(p)
            return path[::-1]
        side = shown[m]
        for n, sides in enumerate(markers):
            if n not in before and side in sides:
                before[n] = m
                queue.append(n)
    return None


def turned(path: Sequence[int], wanted: str, shown: Mapping[int, str]) -> dict[int, str]:
    """``shown`` after the exchanges of ``path`` (see :func:`swap_path`)."""
    out = dict(shown)
    for a, b in pairwise(path):
        out[b] = shown[a]
    out[path[0]] = wanted
    return out


def marker_available(wanted: str, in_use: Sequence[str], markers: Markers) -> bool:
    """Whether a marker can show ``wanted`` while one shows each side in ``in_use`` (L915-919)."""
    shown: dict[int, str] = {}
    for name in in_use:
        path = swap_path(name, shown, markers)
        if path is None:
            return False
        shown = turned(path, name, shown)
    return swap_path(wanted, shown, markers) is not None


def assignment(state: SevenState) -> dict[Holding, int]:
    """The marker under every religion and government held: the one each empire records, while it is
    still valid; beliefs given without a marker (by an event, say) take one, as :func:`swap_path` finds."""
    markers = load_deck().belief_markers
    held: dict[Holding, int] = {}
    used: set[int] = set()
    missing: list[Holding] = []
    for e in state.empires:
        recorded = dict(e.belief_markers)
        for b in beliefs_of(e):
            m = recorded.get(b)
            if m is not None and 0 <= m < len(markers) and b in markers[m] and m not in used:
                held[(e.card, b)] = m
                used.add(m)
            else:
                missing.append((e.card, b))
    for h in missing:
        _take(held, h)
    return held


def _take(held: dict[Holding, int], h: Holding) -> list[int] | None:
    """Give ``h`` a marker, exchanging others along the shortest path; the path (None: none free)."""
    markers = load_deck().belief_markers
    shown = {m: b for (_, b), m in held.items()}
    path = swap_path(h[1], shown, markers)
    if path is None:
        return None
    holder = {m: k for k, m in held.items()}
    for a, b in pairwise(path):
        held[holder[a]] = b
    held[h] = path[0]
    return path


def available(state: SevenState, name: str) -> bool:
    """Whether a marker can be made to show the religion or government ``name`` now."""
    markers = load_deck().belief_markers
    shown = {m: b for (_, b), m in assignment(state).items()}
    return swap_path(name, shown, markers) is not None


def record(state: SevenState, held: Mapping[Holding, int] | None = None) -> SevenState:
    """Every empire with its markers as ``held`` says (the current :func:`assignment` by default)."""
    held = assignment(state) if held is None else held
    empires = []
    for e in state.empires:
        mine = tuple(sorted((b, m) for (card, b), m in held.items() if card == e.card))
        empires.append(e if mine == e.belief_markers else replace(e, belief_markers=mine))
    return replace(state, empires=tuple(empires))


def take(ctx: Ctx, card: int, name: str, kind: str) -> None:
    """The empire ``card`` takes the religion or government (``kind``) ``name`` on a marker showing it;
    every exchange this needs is an event (``belief_marker_swapped``). The caller has checked
    :func:`available` and that the empire may hold it."""
    held = assignment(ctx.state)
    holder = {m: k for k, m in held.items()}
    path = _take(held, (card, name))
    if path is None:
        raise ValueError(f"no {name} marker can be freed")
    for a, b in pairwise(path):
        other, side = holder[a]
        ctx.emit("belief_marker_swapped", empire=other, belief=side, old=a, new=b, to_empire=card,
                 wanted=name)
    e = ctx.state.empire(card)
    e = replace(e, religions=(*e.religions, name)) if kind == "religion" else replace(e, government=name)
    ctx.state = record(ctx.state.with_empire(e), held)


def _swap_words(event: Event, names: Names) -> str | None:
    d, deck = event.data, load_deck()
    side = str(d["belief"])
    old, new = deck.back(int(d["old"]), side), deck.back(int(d["new"]), side)
    return (f"{the_empire(int(d['empire']))} exchange their {side} marker ({old} on its back) for another "
            f"{side} marker ({new} on its back), to free {d['wanted']} for "
            f"{empire_name(int(d['to_empire']))}.")


register_event("belief_marker_swapped", _swap_words)
