"""7 Ages glory: harvest categories, their ranking and tie-breaks, immediate glory, buying and hocking.

Pure rules over :class:`Holding`, a plain summary of one empire at harvest time
(what it controls, its cities, units, leaders and artefacts). The end of turn
(:mod:`engine.seven_ages.endturn`) builds the holdings from the state; the tests
build them by hand, so every rule here is checked on the rulebook's own numbers.

Readings (data/seven_ages/README.md, "Trade, destiny, civilise and glory"):
- a category's place earns ``value - place`` glory (1: 1; 2: 2/1; 3: 3/2/1, L1036-1040);
- each Artist raises its empire's artefact category by 1, so an empire without
  one earns from it too (the Huns 1, the Qin 3, L1072);
- a region icon counts land and sea areas together (the icon's colour, L1106, is
  not in our data);
- only one leader of a type counts in an area (L954), so "Philosophers" and
  "Scientists" are the number of areas holding one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from engine.seven_ages.cards import Empire
from engine.seven_ages.data import load_tables
from engine.seven_ages.effects import RANKED
from engine.seven_ages.map import WorldMap, load_map
from engine.seven_ages.production import round_half_up

PlayerId = int
LAST_LEVEL = 49
GLORY_COST = 50  # L1058 (30 with Renaissance: option 16 only, L931)
HOCK_MONEY = 5  # option 15 (L1356)
MONEY_LIMIT = 199  # L493


def halved(value: int, times: int = 1) -> int:
    """``value`` halved ``times`` times, rounded half up once, after all halving (L2197)."""
    return round_half_up(value, 2 ** times)


def place_points(value: int, place: int) -> int:
    """Glory of the ``place``-th (0 = most) in a category worth ``value`` (L1036-1040)."""
    return max(value - place, 0)


@dataclass(frozen=True)
class Holding:
    """One empire as the harvest sees it (areas are names of the map)."""

    empire: str  # the empire's key in the game (its card's name)
    player: PlayerId
    card: Empire
    level: int
    money: int = 0
    areas: frozenset[str] = frozenset()
    disordered: frozenset[str] = frozenset()
    cities: Mapping[str, int] = field(default_factory=dict)  # area -> value (the capital too)
    capital: str | None = None
    homeland: str | None = None
    units: Mapping[str, Mapping[str, int]] = field(default_factory=dict)  # area -> unit class -> count
    leaders: tuple[tuple[str, str], ...] = ()  # (ability, area) for every ability of every leader
    artefacts: tuple[tuple[str, str | None], ...] = ()  # (colour, area or None if on the card)
    religions: tuple[str, ...] = ()  # dominant first (L1174: the leftmost)
    beyond: bool = False  # progressed past level 49 (L1054)
    bonus: Mapping[str, int] = field(default_factory=dict)  # option 16: categories its artefacts raise

    @property
    def ordered(self) -> frozenset[str]:
        """The areas that count for harvest glory: disordered ones do not (L1042)."""
        return self.areas - self.disordered

    def leader_areas(self, ability: str) -> frozenset[str]:
        """Areas holding a leader of ``ability``: one of a type counts per area (L954)."""
        return frozenset(a for kind, a in self.leaders if kind == ability)

    def count(self, ability: str) -> int:
        return len(self.leader_areas(ability))

    def age(self) -> int:
        return load_tables().age_of(min(self.level, LAST_LEVEL))


def _counts_area(h: Holding, wmap: WorldMap, name: str) -> bool:
    """Deserts and tundra count only when the card says so (L1096); seas always count."""
    area = wmap.areas[name]
    if not area.land or area.terrain is None:
        return True
    return load_tables().terrains[area.terrain].counts_for_glory or "count_desert_tundra" in h.card.codes()


def _units(h: Holding, classes: tuple[str, ...]) -> int:
    return sum(n for area, by_class in h.units.items() if area not in h.disordered
               for cls, n in by_class.items() if cls in classes)


def artefact_total(h: Holding) -> int:
    """Green markers on ordered areas (doubled with an Artist, blue ones with a Scientist) or on the
    card, less red markers on the card (L1064-1068)."""
    total = 0
    artists, scientists = h.leader_areas("Artist"), h.leader_areas("Scientist")
    for colour, area in h.artefacts:
        if colour == "red":
            total -= 1
        elif area is None:
            total += 1
        elif area in h.ordered:
            double = area in (scientists if colour == "blue" else artists)
            total += 2 if double else 1
    return total


def religion_total(h: Holding, wmap: WorldMap) -> int:
    """Eligible areas, +1 and the city's value for each Religious leader (L1112)."""
    total = sum(1 for a in h.ordered if _counts_area(h, wmap, a))
    for area in h.leader_areas("Religious"):
        total += 1 + h.cities.get(area, 0)
    return total


def measure(h: Holding, category: str, which: str | None, wmap: WorldMap) -> int:
    """How much of a ranked category an empire has (L1060-1112)."""
    if category == "cities":
        return sum(v for a, v in h.cities.items() if a in h.ordered)
    if category == "money":
        return h.money
    if category == "progress":
        return LAST_LEVEL + 1 if h.beyond else h.level  # past 49: all tied (L1076)
    if category == "ships":
        return _units(h, ("ships",))
    if category == "cavalry":
        return _units(h, ("cavalry",))
    if category == "land_units":
        return _units(h, ("infantry", "missile", "cavalry"))
    if category == "seas":
        return sum(1 for a in h.ordered if not wmap.areas[a].land)
    if category == "artefacts":
        return artefact_total(h)
    if category == "region":
        members = set(wmap.areas) if which == "World" else wmap.members(str(which))
        return sum(1 for a in h.ordered if a in members and _counts_area(h, wmap, a))
    if category == "not_europe":
        return sum(1 for a in h.ordered if "Europe" not in wmap.regions_of(a) and _counts_area(h, wmap, a))
    if category == "religion":
        return religion_total(h, wmap)
    raise ValueError(f"{category} is not a ranked glory category")


def competitors(holdings: Sequence[Holding], category: str, which: str | None,
                wmap: WorldMap) -> list[Holding]:
    """Who a category compares: everyone, but for Not-Europe only empires with a capital in Europe
    (L1108) and for a religion only the empires with it (L1112)."""
    if category == "not_europe":
        return [h for h in holdings if h.capital is not None and "Europe" in wmap.regions_of(h.capital)]
    if category == "religion":
        return [h for h in holdings if which in h.religions]
    return list(holdings)


TieOrder = Callable[[PlayerId, tuple[str, ...]], tuple[str, ...]]
CategoryTieOrder = Callable[[str, str | None], TieOrder | None]
"""The owners' orders of their tied empires in one category (category, region or religion)."""


def _seat_order(first: PlayerId, players: int) -> Callable[[PlayerId], int]:
    return lambda p: (p - first) % players  # the first player, then leftwards (L1044, L2119)


def rank(amounts: Mapping[str, int], holdings: Mapping[str, Holding], first: PlayerId, players: int,
         choose: TieOrder | None = None) -> list[str]:
    """Empires with more than zero, most first (L1034).

    Ties: more Philosophers first, then the first player and those nearest their left
    (L1044); two empires of one player still tied are ordered by ``choose`` (their owner's
    choice, L1048), given the player and the tied empires in the order they were listed.
    """
    seat = _seat_order(first, players)

    def key(e: str) -> tuple[int, int, int]:
        return (-amounts[e], -holdings[e].count("Philosopher"), seat(holdings[e].player))

    ordered = sorted((e for e in amounts if amounts[e] > 0), key=key)
    out: list[str] = []
    i = 0
    while i < len(ordered):
        j = i
        while j < len(ordered) and key(ordered[j]) == key(ordered[i]):
            j += 1
        group = tuple(ordered[i:j])
        out += list(choose(holdings[group[0]].player, group) if choose and len(group) > 1 else group)
        i = j
    return out


def own_ties(amounts: Mapping[str, int], holdings: Mapping[str, Holding], first: PlayerId,
             players: int) -> list[tuple[PlayerId, tuple[str, ...]]]:
    """Groups of one player's empires tied after the Philosophers: the owner orders them (L1048)."""
    found: list[tuple[PlayerId, tuple[str, ...]]] = []

    def note(player: PlayerId, group: tuple[str, ...]) -> tuple[str, ...]:
        found.append((player, group))
        return group

    rank(amounts, holdings, first, players, note)
    return found


@dataclass(frozen=True)
class Award:
    """Glory one empire earns in one category (negative: the lost homeland)."""

    empire: str
    category: str
    which: str | None
    glory: int
    place: int | None = None  # 0 = most, for a ranked category


def category_value(h: Holding, category: str, which: str | None) -> int:
    """A card's value for a category (0 if none); an artefact's bonus adds to it, or makes it worth the
    bonus where the card has none (option 16, "value of 1 if none", L1449); each Artist adds 1 to artefacts
    (L1072)."""
    value = h.card.category(category, which) or 0
    extra = h.bonus.get(category, 0) if which is None else 0
    value = value + extra if value else extra
    return value + h.count("Artist") if category == "artefacts" else value


def ranked_categories(holdings: Sequence[Holding]) -> set[tuple[str, str | None]]:
    cats: set[tuple[str, str | None]] = set()
    for h in holdings:
        for g in h.card.glory:
            if g["category"] in RANKED:
                cats.add((g["category"], g.get("region") or g.get("religion")))
        if h.count("Artist"):
            cats.add(("artefacts", None))
        cats.update((c, None) for c, n in h.bonus.items() if n)
    return cats


def category_amounts(holdings: Sequence[Holding], category: str, which: str | None,
                     wmap: WorldMap) -> dict[str, int]:
    return {h.empire: measure(h, category, which, wmap) for h in competitors(holdings, category, which, wmap)}


def harvest(holdings: Sequence[Holding], first: PlayerId, players: int,
            choose: CategoryTieOrder | None = None, wmap: WorldMap | None = None) -> list[Award]:
    """Every empire's harvest glory (L1030-1136), one award per category that earns or costs;
    ``choose`` gives each category's owners' orders of their tied empires (L1048)."""
    wmap = wmap or load_map()
    by_name = {h.empire: h for h in holdings}
    awards: list[Award] = []
    for category, which in sorted(ranked_categories(holdings), key=lambda c: (c[0], c[1] or "")):
        amounts = category_amounts(holdings, category, which, wmap)
        order = choose(category, which) if choose else None
        for place, e in enumerate(rank(amounts, by_name, first, players, order)):
            points = place_points(category_value(by_name[e], category, which), place)
            if points:
                awards.append(Award(e, category, which, points, place))
    any_age7 = any(h.age() == 7 for h in holdings)
    for h in holdings:
        codes = {g["category"] for g in h.card.glory}
        if "homeland" in codes and h.homeland is not None:  # even if disordered (L1120)
            awards.append(Award(h.empire, "homeland", None, 1 if h.homeland in h.areas else -1))
        for resource in ("wheat", "elephant", "oil"):
            if resource in codes:
                n = resource_count(h, resource, any_age7, wmap)
                if n:
                    awards.append(Award(h.empire, resource, None, n))
        sites = sum(1 for a in h.ordered if h.religions and wmap.areas[a].religion == h.religions[0])
        if sites:  # religious sites of the dominant religion (L1116)
            awards.append(Award(h.empire, "religious_site", h.religions[0], sites))
    return awards


def resource_count(h: Holding, resource: str, any_age7: bool, wmap: WorldMap) -> int:
    """Resources an empire controls (L1084-1088): elephants while no empire is in age 7, oil in
    age 7, wheat outside fertile land from age 5."""
    areas = [wmap.areas[a] for a in h.ordered]
    if resource == "elephant":
        return 0 if any_age7 else sum(1 for a in areas if a.elephant)
    if resource == "oil":
        return sum(1 for a in areas if a.oil) if h.age() == 7 else 0
    return sum(1 for a in areas if a.wheat and (a.terrain == "fertile" or h.age() >= 5))


def player_harvest(awards: Sequence[Award], holdings: Sequence[Holding]) -> dict[PlayerId, int]:
    """Each player's harvest, the sum of their empires' awards."""
    owner = {h.empire: h.player for h in holdings}
    out: dict[PlayerId, int] = {}
    for a in awards:
        out[owner[a.empire]] = out.get(owner[a.empire], 0) + a.glory
    return out


def immediate(card: Empire, condition: str, times: int = 1) -> int:
    """Immediate glory for a condition met ``times`` times (square icons, L1138-1142): Benin's
    1 per level gained, Zimbabwe's 1 per tied trade."""
    return (card.category(condition) or 0) * times


def glory_price() -> int:
    """One glory bought at the harvest: 50 money (Renaissance's 30 is option 16's, L931, L1058)."""
    return GLORY_COST


def most_buyable(money: int, price: int = GLORY_COST) -> int:
    return money // price


def most_hockable(glory: int, ordered_cities: int) -> int:
    """Option 15: no more glory than the player has, nor than the empire's undisordered cities (L1356)."""
    return max(min(glory, ordered_cities), 0)


def hock(money: int, glory: int) -> int:
    """Money after hocking ``glory`` points: 5 each, at most 199 (L1356, L493)."""
    return min(money + HOCK_MONEY * glory, MONEY_LIMIT)
