"""Every seat's yields for the greedy player's many positions, without starting over each time.

The greedy player weighs hundreds of positions per decision, and they differ
from one another in a few tiles and a few regions at most. :class:`YieldCache`
gives exactly what :func:`engine.rise.phases.every_yields` gives, but works
out again only what changed since the position it saw last: the tile yields of
a seat whose tiles changed, and the shares of a region whose cubes changed
(the totals are integers, so taking a region's old shares out and its new ones
in is exact). Both are also memoised by what they read (a seat's tiles; a
region and its cube counts), so a position seen earlier costs one look-up.
"""

from __future__ import annotations

from engine.rise import control, phases
from engine.rise.data import YIELDS, RiseData
from engine.rise.state import RiseState

Yields = dict[str, int]
Shares = dict[int, Yields]
TileKey = tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]

_KINDS: tuple[str, ...] = (*YIELDS, "vp")

MEMO_LIMIT = 50_000
"""Entries a memo holds before it starts over (so a long-running bot's memory stays bounded)."""

# Pure functions of their keys, shared by every cache: a policy made afresh for each move (as the
# bot does) still finds the tiles and regions its predecessors worked out.
_TILE_MEMO: dict[TileKey, Yields] = {}
_SHARE_MEMO: dict[tuple[str, tuple[int, ...]], Shares] = {}


def tile_yields(data: RiseData, key: TileKey) -> Yields:
    """What a seat holding ``key``'s progress, territory and city tiles earns from them in one turn.

    :func:`engine.rise.phases.tile_yields`, memoised by the tiles (never change the result).
    """
    found = _TILE_MEMO.get(key)
    if found is None:
        if len(_TILE_MEMO) >= MEMO_LIMIT:
            _TILE_MEMO.clear()
        progress, territory, cities = key
        holder = RiseState(players=1, options={}, seed=0, progress=[list(progress)],
                           territory=[list(territory)], cities=[list(cities)])
        found = _TILE_MEMO[key] = phases.tile_yields(holder, data, 0)
    return found


def region_shares(data: RiseData, region: str, counts: tuple[int, ...]) -> Shares:
    """What each seat earns from ``region`` holding ``counts`` cubes per seat.

    :func:`engine.rise.control.shares`, memoised by the counts (never change the result).
    """
    key = (region, counts)
    found = _SHARE_MEMO.get(key)
    if found is None:
        if len(_SHARE_MEMO) >= MEMO_LIMIT:
            _SHARE_MEMO.clear()
        holder = RiseState(players=len(counts), options={}, seed=0,
                           cubes={region: list(counts)} if any(counts) else {})
        found = _SHARE_MEMO[key] = control.shares(holder, data, region)
    return found


def tile_key(state: RiseState, seat: int) -> TileKey:
    """``seat``'s progress, territory and city tiles, as a memo key."""
    return (tuple(state.progress[seat]), tuple(state.territory[seat]), tuple(state.cities[seat]))


def _add(totals: list[Yields], shares: Shares, sign: int) -> None:
    for seat, share in shares.items():
        total = totals[seat]
        for k, v in share.items():
            total[k] += sign * v


class YieldCache:
    """Yields of every seat, brought up to date from the last position asked about.

    Not shared between threads: each policy holds its own. The lists it returns are its own too:
    read them, never change them.
    """

    def __init__(self, data: RiseData) -> None:
        self._data = data
        self._players = 0
        # The last position's cubes and tiles (copies: states are not ours to keep), what each region
        # and each seat's tiles earn there, and the sums per seat.
        self._cubes: dict[str, list[int]] = {}
        self._shares: dict[str, Shares] = {}
        self._regions: list[Yields] = []
        self._progress: list[list[str]] = []
        self._territory: list[list[str]] = []
        self._cities: list[list[str]] = []
        self._tiles: list[Yields] = []
        self._every: list[Yields] = []

    def every(self, state: RiseState) -> list[Yields]:
        """What each seat earns this turn: the same as ``phases.every_yields(state, data)``."""
        self._sync(state)
        return self._every

    def every_after(self, state: RiseState, seat: int, tiles: TileKey | None,
                    cubes: tuple[str, tuple[int, ...]] | None) -> list[Yields]:
        """Every seat's yields once ``seat`` holds the tiles ``tiles`` (None: as now) and the region
        ``cubes[0]`` holds ``cubes[1]`` cubes per seat (None: as now), the rest of ``state`` unchanged.

        A seat whose yields do not change keeps the very dictionary :meth:`every` gave for it.
        """
        self._sync(state)
        out = self._every[:]
        changed: set[int] = set()
        every_tiles = self._tiles
        if tiles is not None:
            every_tiles = every_tiles[:]
            every_tiles[seat] = tile_yields(self._data, tiles)
            changed.add(seat)
        regions = self._regions
        if cubes is not None:
            region, counts = cubes
            before = self._shares.get(region, {})
            after = region_shares(self._data, region, counts)
            regions = regions[:]
            for p in {*before, *after}:
                total = dict(regions[p])
                for k, v in before.get(p, {}).items():
                    total[k] -= v
                for k, v in after.get(p, {}).items():
                    total[k] += v
                regions[p] = total
                changed.add(p)
        for p in changed:
            out[p] = {k: every_tiles[p][k] + regions[p][k] for k in _KINDS}
        return out

    def _sync(self, state: RiseState) -> None:
        """Bring the last position's figures to ``state``."""
        if state.players != self._players:
            self._reset(state.players)
        stale = False
        if state.cubes != self._cubes:
            self._update_regions(state)
            stale = True
        if (state.progress != self._progress or state.territory != self._territory
                or state.cities != self._cities):
            self._update_tiles(state)
            stale = True
        if stale:
            # A new list: the one handed out before still describes the position it was asked for.
            self._every = [{k: tiles[k] + regions[k] for k in _KINDS}
                           for tiles, regions in zip(self._tiles, self._regions, strict=True)]

    def _reset(self, players: int) -> None:
        self._players = players
        self._cubes = {}
        self._shares = {}
        self._regions = [dict.fromkeys(_KINDS, 0) for _ in range(players)]
        # No seat holds a list of tiles yet, so the first position works every seat's tiles out.
        self._progress = self._territory = self._cities = []
        self._tiles = []

    def _update_regions(self, state: RiseState) -> None:
        old, new = self._cubes, state.cubes
        changed = [r for r, counts in new.items() if old.get(r) != counts]
        changed.extend(r for r in old if r not in new)
        totals = self._regions
        for region in changed:
            _add(totals, self._shares.pop(region, {}), -1)
            if region in new:
                shares = self._shares[region] = region_shares(self._data, region, tuple(new[region]))
                _add(totals, shares, 1)
        self._cubes = {r: counts[:] for r, counts in new.items()}

    def _update_tiles(self, state: RiseState) -> None:
        self._tiles = [tile_yields(self._data, tile_key(state, seat)) for seat in range(state.players)]
        self._progress = [tiles[:] for tiles in state.progress]
        self._territory = [tiles[:] for tiles in state.territory]
        self._cities = [tiles[:] for tiles in state.cities]
