"""Option 16's powers that change numbers other parts compute (issue 32, item 3): one hook per quantity.

Each computation (income, unit costs, upkeep, trade number and levels, a trade's money, city steps, the
cost of removing disorder, harvest categories and totals, the price of glory) asks its hook once, here,
with the number the standard rules give; the hook returns that number unchanged unless the game plays
option 16 (:func:`~engine.seven_ages.artefact_powers.has_power` is False for every empire without it), so
the standard game never moves.

Who is exempt from what is decided once, in :func:`power` and :func:`penalty`: a Socialist ignores its
religion's power and penalty (L1940), Religious strife stops a religion's power but not its penalty (L1868),
an Autocracy ignores Universal suffrage (L1405), which touches only a Capitalist, Democratic or Socialist
empire that also has Renaissance (L1974). Readings are in data/seven_ages/README.md, "Option 16's powers".
"""

from __future__ import annotations

from dataclasses import replace

from engine.seven_ages.artefact_powers import has_power, powers_on
from engine.seven_ages.map import load_map
from engine.seven_ages.reach import in_range
from engine.seven_ages.state import Empire, SevenState

AUTOCRACY, CAPITALISM, DEMOCRACY, SOCIALISM = "Autocracy", "Capitalism", "Democracy", "Socialism"
RENAISSANCE, SUFFRAGE, STRIFE = "Renaissance", "Universal suffrage", "Religious strife"
INDUSTRIAL, REVOLUTION, CONCENTRATED = "Industrial Revolution", "Revolution", "Concentrated ownership"
WORLD_WAR, CONFUCIANISM, HINDUISM = "World war", "Confucianism", "Hinduism"
PHAROS, PRINTING, COMPUTING, MOON = "Pharos lighthouse", "Printing", "Computing", "Moon landing"
PYRAMID, PALACE, DIANA = "Great Pyramid", "Summer Palace", "Temple of Diana"
RELIGIONS = frozenset({"Buddhism", "Christianity", CONFUCIANISM, HINDUISM, "Islam", "Judaism", "Pantheism"})
"""The religion artefacts (L1366: their powers come from the dominant one only)."""
HARVEST_BONUS = {"Colossus of Rhodes": "ships", "Great Library": "progress", "Great Zimbabwe": "money",
                 "Hanging gardens": "artefacts"}
"""Artefacts adding 1 to a harvest glory category, or making it worth 1 where the card has none
(L1449, L1592, L1642, L1650)."""
RENAISSANCE_GLORY_PRICE = 30  # L1880
WORLD_WAR_MOST_LEVELS = 1  # L1993
PRINTING_MARGIN = 7  # L1836: "more than 7 higher"
HINDU_LOW, HINDU_HIGH = 1, 7  # L1676-1678
MOON_LANDING_END = 7  # L1772


def power(state: SevenState, e: Empire, name: str) -> bool:
    """Whether ``e`` enjoys artefact ``name``'s power now (option 16 only)."""
    if not has_power(state, e, name):
        return False
    if name in RELIGIONS:
        return not has_power(state, e, SOCIALISM) and not has_power(state, e, STRIFE)
    if name == SUFFRAGE:
        return (not has_power(state, e, AUTOCRACY) and has_power(state, e, RENAISSANCE)
                and any(has_power(state, e, g) for g in (CAPITALISM, DEMOCRACY, SOCIALISM)))
    return True


def penalty(state: SevenState, e: Empire, name: str) -> bool:
    """Whether ``e`` suffers artefact ``name``'s penalty now (Religious strife leaves a religion's one)."""
    if name in RELIGIONS:
        return has_power(state, e, name) and not has_power(state, e, SOCIALISM)
    return power(state, e, name)


def world_war(state: SevenState) -> bool:
    """Whether the black World war marker is on the progress track (L1986-1990)."""
    return powers_on(state) and bool(state.world_war)


def _half(value: int) -> int:
    return (value + 1) // 2  # L2197: halves round half up


# -- Production ---------------------------------------------------------------------------------------

def city_income(state: SevenState, e: Empire, city: int) -> int:
    """What an area's city earns in income: doubled with Industrial Revolution (L1686)."""
    return 2 * city if power(state, e, INDUSTRIAL) else city


def within(state: SevenState, e: Empire, source: str, area: str) -> bool:
    """Whether ``area`` is within ``e``'s Range of ``source`` (an area is within Range of itself)."""
    if area == source:  # an area is within Range of itself
        return True
    others = [a for x in state.empires if x.card != e.card for a in x.areas()]
    return in_range([source], [area], others, e.progress)


def marker_areas(state: SevenState, e: Empire, name: str) -> list[str]:
    """The areas ``e`` controls holding ``name``'s marker (an on-map artefact's controller, L1600, L1950)."""
    return [a for a in e.areas() if name in state.area(a).artefacts] if powers_on(state) else []


def counts_disordered(state: SevenState, e: Empire, area: str) -> bool:
    """Whether a disordered ``area`` of ``e`` still earns income and counts for glory: within Range of its
    Temple of Diana (L1958)."""
    return any(within(state, e, t, area) for t in marker_areas(state, e, DIANA))


def income_halvings(state: SevenState, e: Empire) -> int:
    """How many more times a Production's income is halved: once for an Autocracy, "cumulative if also
    Barbarian" (L1406), so with the no-capital halving (L497) it is halved twice, rounded once (L2197)."""
    return 1 if penalty(state, e, AUTOCRACY) else 0


def unit_cost(state: SevenState, e: Empire, unit_class: str, cost: int) -> int:
    """One unit's cost: Autocracy's infantry and cavalry 1 less (L1400), Revolution's infantry 1 less and
    ships and aircraft 1 more (L1889), Concentrated ownership 1 more (L1461); at least 1."""
    if not powers_on(state):
        return cost
    if power(state, e, AUTOCRACY) and unit_class in ("infantry", "cavalry"):
        cost -= 1
    if power(state, e, REVOLUTION):
        cost += -1 if unit_class == "infantry" else 1 if unit_class in ("ships", "aircraft") else 0
    if penalty(state, e, CONCENTRATED):
        cost += 1
    return max(1, cost)


LOST = "lost_area:"
"""An empire flag ``lost_area:T``: under option 16 a Democracy lost control of an area to another player's
empire in turn T (the latest such turn), for Democracy's cheaper units (L1526)."""


def note_losses(before: SevenState, after: SevenState) -> SevenState:
    """``after`` a move, with each Democracy that lost control of an area to another player's empire in it
    flagged with the turn (L1526); ``after`` itself without option 16."""
    if not powers_on(after):
        return after
    for e in before.empires:
        if not after.has_empire(e.card) or not power(before, e, DEMOCRACY):
            continue
        now = after.empire(e.card)
        gone = set(e.areas()) - set(now.areas())
        if gone and any(x.owner != e.owner and a in x.areas() for x in after.empires for a in gone):
            flags = [f for f in now.flags if not f.startswith(LOST)]
            after = after.with_empire(replace(now, flags=tuple(sorted([*flags, f"{LOST}{after.turn}"]))))
    return after


def halves_unit_costs(state: SevenState, e: Empire) -> bool:
    """Whether Production halves the total cost of ``e``'s new units: while the World war marker stands
    (L1992), or for a Democracy that lost control of an area to another player's empire in this or the
    previous turn (L1526). Halvings do not add up: both halve "the total cost"."""
    if world_war(state):
        return True
    return power(state, e, DEMOCRACY) and any(
        f.startswith(LOST) and int(f[len(LOST):]) >= state.turn - 1 for f in e.flags)


def build_total(state: SevenState, e: Empire, full_before: int, full_after: int) -> int:
    """What a build costs when this Production's units had cost ``full_before`` at full price and now cost
    ``full_after``: the difference, or of their halves while the total is halved (rounded half up, L2197)."""
    if halves_unit_costs(state, e):
        return _half(full_after) - _half(full_before)
    return full_after - full_before


def any_placement(state: SevenState) -> bool:
    """Whether units may be built into an area in any number: while the World war marker stands (L1992)."""
    return world_war(state)


def upkeep(state: SevenState, e: Empire, per_area: dict[str, int]) -> int:
    """Maintenance (``per_area``: units on the map by area): nothing for an Autocracy (L1401); with Universal
    suffrage each area's less its undisordered city's value, at least 1 an area (L1978)."""
    if power(state, e, AUTOCRACY):
        return 0
    if power(state, e, SUFFRAGE):
        return sum(max(1, n - (0 if state.area(a).disorder else state.area(a).city))
                   for a, n in per_area.items() if n)
    return sum(per_area.values())


def unit_returned_money(state: SevenState, e: Empire) -> int:
    """Money for one of the empire's units going back to its unit pool: 1 for a Socialist (L1936)."""
    return 1 if power(state, e, SOCIALISM) else 0


def free_progress(state: SevenState) -> bool:
    """Whether empires advance during Free progress at the end of turn: not while the World war marker
    stands (L1995)."""
    return not world_war(state)


# -- Trade and progress -------------------------------------------------------------------------------

def trade_number(state: SevenState, e: Empire, number: int) -> int:
    """The empire's Trade number: Pharos lighthouse and Printing +1 each (L1828, L1836), Confucianism's
    penalty -1 (L1479)."""
    if not powers_on(state):
        return number
    number += sum(1 for a in (PHAROS, PRINTING) if power(state, e, a))
    return number - (1 if penalty(state, e, CONFUCIANISM) else 0)


def trade_levels(state: SevenState, e: Empire, most: int, *, initiated: bool, margin: int) -> int:
    """The most levels a trade's winner advances (``margin``: its trade value less the other side's):
    Printing's extra level past a margin of 7 (L1836), Autocracy 1 fewer in a trade it began (L1407), at most
    1 while the World war marker stands (L1993)."""
    if not powers_on(state):
        return most
    if power(state, e, PRINTING) and margin > PRINTING_MARGIN:
        most += 1
    if penalty(state, e, AUTOCRACY) and initiated:
        most -= 1
    if world_war(state):
        most = min(most, WORLD_WAR_MOST_LEVELS)
    return max(0, most)


def trade_income(state: SevenState, e: Empire, received: list[int], mine: list[int]) -> int:
    """The money a side that does not progress earns (L583: the values of the cards it receives):
    Capitalism doubles the lowest of them (L1427), Universal suffrage counts its own cards too (L1980)."""
    total = sum(received)
    if not powers_on(state):
        return total
    if power(state, e, SUFFRAGE):
        total += sum(mine)
    if power(state, e, CAPITALISM) and received:
        total += min(received)
    return total


def traded_money(state: SevenState, e: Empire, other: Empire | None, cards: int) -> int:
    """Money at the end of a trade between two Democracies: 1 for each card both traded (L1524)."""
    if other is None or not (power(state, e, DEMOCRACY) and power(state, other, DEMOCRACY)):
        return 0
    return cards


def trade_won_glory(state: SevenState, e: Empire) -> int:
    """Glory for winning a trade: 1 for a Capitalist (L1427)."""
    return 1 if power(state, e, CAPITALISM) else 0


def trades_from_deck(state: SevenState, e: Empire) -> bool:
    """Whether the empire may trade with the deck's top card instead of one from its hand: Computing
    (L1455)."""
    return power(state, e, COMPUTING)


def second_trade_card(state: SevenState, e: Empire) -> bool:
    """Whether the empire may play a second trade card from its hand: Renaissance (L1878)."""
    return power(state, e, RENAISSANCE)


def leader_number(state: SevenState, e: Empire, number: int) -> int:
    """The empire's Leader number: +1 for a Democracy (L1522)."""
    return number + 1 if power(state, e, DEMOCRACY) else number


# -- Civilise -----------------------------------------------------------------------------------------

def city_steps(state: SevenState, e: Empire) -> int:
    """How many steps one urbanising raises a city: 2 for a Capitalist (L1429: a new city at 3, a 1 to 5)."""
    return 2 if power(state, e, CAPITALISM) else 1


def free_removals(state: SevenState, e: Empire) -> frozenset[str]:
    """The areas whose disorder ``e`` removes for nothing: its Great Pyramid's area and every adjacent one
    (L1600)."""
    wmap = load_map()
    return frozenset(a for p in marker_areas(state, e, PYRAMID) for a in (p, *wmap.adjacency[p]))


def palace_removals(state: SevenState, e: Empire) -> frozenset[str]:
    """The areas within Range of ``e``'s Summer Palace: it removes one's disorder for nothing (L1950)."""
    return frozenset(a for p in marker_areas(state, e, PALACE) for a in e.areas() if within(state, e, p, a))


def civilise_glory(state: SevenState, e: Empire) -> int:
    """Glory for carrying out a Civilise action: 1 with Moon landing (L1772)."""
    return 1 if power(state, e, MOON) else 0


def left_age(state: SevenState, e: Empire) -> tuple[str, ...]:
    """The artefacts on ``e``'s card discarded as it enters another age, forwards or back (L2083):
    Concentrated ownership (L1463), Religious strife (L1870) and Revolution (L1895)."""
    if not powers_on(state):
        return ()
    return tuple(a for a in e.artefacts if a in (CONCENTRATED, STRIFE, REVOLUTION))


# -- Harvest and the end ------------------------------------------------------------------------------

def harvest_bonus(state: SevenState, e: Empire) -> dict[str, int]:
    """The harvest categories ``e``'s artefacts raise by 1 (or make worth 1), L1449-1650."""
    return {cat: 1 for name, cat in HARVEST_BONUS.items() if power(state, e, name)}


def harvest_glory(state: SevenState, e: Empire, earned: int) -> int:
    """The empire's harvest glory after Hinduism: 1 or less gains 1 (its power), 7 or more loses 1 (its
    penalty), L1676-1678."""
    if earned <= HINDU_LOW and power(state, e, HINDUISM):
        return earned + 1
    if earned >= HINDU_HIGH and penalty(state, e, HINDUISM):
        return earned - 1
    return earned


def glory_price(state: SevenState, e: Empire, price: int) -> int:
    """One glory bought at the harvest: 30 money for a Renaissance empire (L1880)."""
    return RENAISSANCE_GLORY_PRICE if power(state, e, RENAISSANCE) else price


def ending_glory(state: SevenState, e: Empire) -> int:
    """Glory for the empire that ends the game: 7 with Moon landing (L1772)."""
    return MOON_LANDING_END if power(state, e, MOON) else 0
