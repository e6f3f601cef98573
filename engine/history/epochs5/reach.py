"""Where an empire can invade: borders, straits, and chains of fleets and caravans.

A fleet lets two territories touching its sea or ocean be adjacent; a fleet in
an ocean is also in every sea adjacent to that ocean. A caravan does the same
for the territories bordering its barren land. Fleets and caravans chain:
waters linked on the map (oceans by their dotted borders), barren lands that
border each other and barren lands touching a water join one chain, and every
territory touching a chain is adjacent to every other. Straits are ordinary
borders in the map data. Only a chain holding a fleet gives the defender the
"naval" effect; an invasion that can go by border or by caravans alone is not
naval unless the invader asks to use the fleet.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.history.worldmap import WorldMap

LAND = "land"
SEA = "sea"


def fleet_cover(wmap: WorldMap, water: str) -> set[str]:
    """The waters a fleet in ``water`` is in: itself, and every adjacent sea if it is an ocean.

    Only adjacent seas count (not seas beyond them): "also considered to have
    fleets in all seas adjacent to that ocean".
    """
    body = wmap.waters[water]
    if not body.fleets:
        return set()
    out = {water}
    if body.kind == "ocean":
        out.update(w for w in body.links if wmap.waters[w].kind == "sea" and wmap.waters[w].fleets)
    return out


def _components(wmap: WorldMap, waters: set[str], barren: set[str]) -> list[tuple[set[str], bool]]:
    """Chains of aids: (territories touching the chain, whether it holds a fleet)."""
    nodes = [("w", w) for w in sorted(waters)] + [("b", b) for b in sorted(barren)]
    seen: set[tuple[str, str]] = set()
    out: list[tuple[set[str], bool]] = []
    for start in nodes:
        if start in seen:
            continue
        seen.add(start)
        stack = [start]
        touching: set[str] = set()
        naval = False
        while stack:
            kind, name = stack.pop()
            if kind == "w":
                naval = True
                touching.update(t for t in wmap.coast(name) if not wmap.lands[t].barren)
                nxt = [("w", w) for w in wmap.waters[name].links if w in waters]
                nxt += [("b", b) for b in barren if name in wmap.lands[b].waters]
            else:
                touching.update(t for t in wmap.neighbours(name) if not wmap.lands[t].barren)
                nxt = [("b", b) for b in wmap.neighbours(name) if b in barren]
                nxt += [("w", w) for w in wmap.lands[name].waters if w in waters]
            for node in nxt:
                if node not in seen:
                    seen.add(node)
                    stack.append(node)
        out.append((touching, naval))
    return out


@dataclass(frozen=True)
class Reach:
    """Territories an active force may invade, by route."""

    by_land: frozenset[str]  # borders, straits, caravans only: no naval effect
    by_sea: frozenset[str]  # a chain holding a fleet: the defender may reroll a die

    def routes(self, land: str) -> list[str]:
        return [r for r, s in ((LAND, self.by_land), (SEA, self.by_sea)) if land in s]


def reach(wmap: WorldMap, sources: list[str], fleets: list[str], caravans: list[str]) -> Reach:
    """The territories adjacent (directly or by the force's aids) to any of ``sources``."""
    src = set(sources)
    by_land: set[str] = set()
    for land in sources:
        by_land.update(n for n in wmap.neighbours(land) if not wmap.lands[n].barren)
    waters: set[str] = set()
    for water in fleets:
        waters |= fleet_cover(wmap, water)
    barren = set(caravans)
    by_sea: set[str] = set()
    if barren:
        for touching, _ in _components(wmap, set(), barren):
            if touching & src:
                by_land |= touching
    if waters:
        for touching, naval in _components(wmap, waters, barren):
            if naval and touching & src:
                by_sea |= touching
    return Reach(frozenset(by_land), frozenset(by_sea))
