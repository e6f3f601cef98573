"""Scoring: regions, continents, goods (with wild goods placed where they score most), tie-breakers.

Rulebook, "Game End": a region is controlled by the player with more armies
there than any other player (cities count as armies; a tie controls nothing);
a continent by the player who controls more of its regions than anyone else
(a tie controls nothing); goods score by their tables, each wild good added to
a good its owner already has. Ties on points go to the most coins, then the
most armies on the board, then the most controlled regions.

Readings: the 2-player neutral armies compete like a third player. They can
control a region (so nobody else does) and can hold the most regions of a
continent (so nobody controls it); they never score. A goods token counts as
a good owned, so wild goods may join it.
"""

from __future__ import annotations

import itertools
from collections import Counter
from typing import TypedDict

from engine.core import tied_places
from engine.eight_minute.data import GOODS, WILD, EMData
from engine.eight_minute.state import NEUTRAL, EMState


class ScoreView(TypedDict):
    """One seat's score as it stands, with what it is made of."""

    regions: int
    continents: int
    goods: int
    total: int
    controlled_regions: list[str]
    controlled_continents: list[str]
    goods_owned: dict[str, int]
    goods_counted: dict[str, int]  # with the wild goods placed where they score most
    goods_points: dict[str, int]


def region_controllers(state: EMState, data: EMData) -> dict[str, int]:
    """Region -> the seat controlling it (or NEUTRAL); uncontrolled regions are left out."""
    out: dict[str, int] = {}
    for region in data.regions:
        armies = state.armies.get(region)
        cities = state.cities.get(region)
        strength = [
            (armies[p] if armies else 0) + (cities[p] if cities else 0) for p in range(state.players)
        ]
        strength.append(state.neutral.get(region, 0))
        best = max(strength)
        if best > 0 and strength.count(best) == 1:
            seat = strength.index(best)
            out[region] = NEUTRAL if seat == state.players else seat
    return out


def continent_controllers(state: EMState, data: EMData, regions: dict[str, int]) -> dict[str, int]:
    """Continent -> the seat (or NEUTRAL) controlling more of its regions than anyone else."""
    out: dict[str, int] = {}
    for cid, continent in data.continents.items():
        held = Counter(regions[r] for r in continent.regions if r in regions)
        if not held:
            continue
        ranked = held.most_common()
        if len(ranked) == 1 or ranked[0][1] > ranked[1][1]:
            out[cid] = ranked[0][0]
    return out


def goods_owned(state: EMState, data: EMData, seat: int, regions: dict[str, int]) -> Counter[str]:
    """How many of each good (and ``wild``) ``seat`` has: its cards plus tokens of regions it controls."""
    owned: Counter[str] = Counter()
    for card_id in state.hands[seat]:
        card = data.cards[card_id]
        owned[card.good] += card.goods
    for region, good in state.tokens.items():
        if regions.get(region) == seat:
            owned[good] += 1
    return owned


def best_goods(owned: Counter[str], data: EMData) -> tuple[int, dict[str, int]]:
    """The most points the goods can score, and the counts per good with the wilds placed.

    Each wild good joins a good already owned (the rulebook: "added to any goods
    cards a player already owns"); every way of spreading them is tried, and the
    first best one in the order of ``GOODS`` is kept, so the result is stable.
    """
    base = {g: owned.get(g, 0) for g in GOODS}
    wilds = owned.get(WILD, 0)
    targets = [g for g in GOODS if base[g] > 0]
    best_points = sum(data.good_points(g, n) for g, n in base.items())
    best = dict(base)
    if not wilds or not targets:
        return best_points, best
    for split in itertools.product(range(wilds + 1), repeat=len(targets)):
        if sum(split) != wilds:
            continue
        counts = dict(base)
        for good, extra in zip(targets, split, strict=True):
            counts[good] += extra
        points = sum(data.good_points(g, n) for g, n in counts.items())
        if points > best_points:
            best_points, best = points, counts
    return best_points, best


def breakdown(state: EMState, data: EMData) -> list[ScoreView]:
    """Each seat's score as it stands: regions, continents, goods and the total, with details."""
    regions = region_controllers(state, data)
    continents = continent_controllers(state, data, regions)
    out: list[ScoreView] = []
    for seat in range(state.players):
        owned = goods_owned(state, data, seat, regions)
        goods_points, counts = best_goods(owned, data)
        mine = sorted(r for r, s in regions.items() if s == seat)
        conts = sorted(c for c, s in continents.items() if s == seat)
        out.append(ScoreView(
            regions=len(mine),
            continents=len(conts),
            goods=goods_points,
            total=len(mine) + len(conts) + goods_points,
            controlled_regions=mine,
            controlled_continents=conts,
            goods_owned={g: n for g, n in sorted(owned.items()) if n},
            goods_counted={g: n for g, n in counts.items() if n},
            goods_points={g: data.good_points(g, n) for g, n in counts.items() if n},
        ))
    return out


def tiebreak_key(state: EMState, parts: list[ScoreView], seat: int) -> tuple[int, int, int]:
    """The rulebook's tie-breakers in order: coins, armies on the board, controlled regions."""
    return (state.coins[seat], state.armies_on_board(seat), parts[seat]["regions"])


def totals(state: EMState, parts: list[ScoreView]) -> list[int]:
    """Points per seat: the current game plus every finished game of a Full Game."""
    return [
        parts[p]["total"] + sum(game[p] for game in state.past_games) for p in range(state.players)
    ]


def ranking(state: EMState, data: EMData) -> list[int]:
    """Seats from first to last: points, then the tie-breakers of the (last) game.

    Players still tied after every tie-breaker share the place (:func:`places`);
    the list keeps them in seat order. With the Full Game variant the rulebook gives no
    tie-breaker for the summed points: we use those of the last game.
    """
    return sorted(range(state.players), key=lambda p: (compared(state, data, p), p))


def places(state: EMState, data: EMData) -> list[list[int]]:
    """:func:`ranking` by places: players tied on points and every tie-breaker share theirs."""
    return tied_places(ranking(state, data), lambda p: compared(state, data, p))


def compared(state: EMState, data: EMData, p: int) -> tuple[int, ...]:
    """What the ranking compares of player ``p``, best lowest: points, then the tie-breakers."""
    parts = breakdown(state, data)
    return (-totals(state, parts)[p], *(-v for v in tiebreak_key(state, parts, p)))
