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

from typing import NamedTuple

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


class Snapshot(NamedTuple):
    """Every seat's yields in one position, and their parts. Never changed once made.

    Attributes:
        every: per seat, everything it earns this turn (``phases.every_yields``).
        tiles: per seat, what its tiles earn.
        regions: per seat, what its regions earn.
        shares: per region holding cubes, what each seat earns there.
    """

    every: list[Yields]
    tiles: list[Yields]
    regions: list[Yields]
    shares: dict[str, Shares]


def with_tiles(snapshot: Snapshot, data: RiseData, seat: int, tiles: TileKey) -> Yields:
    """``seat``'s yields in ``snapshot``'s position were it to hold ``tiles`` instead."""
    held, regions = tile_yields(data, tiles), snapshot.regions[seat]
    return {k: held[k] + regions[k] for k in _KINDS}


def with_cubes(snapshot: Snapshot, data: RiseData, region: str, counts: tuple[int, ...]) -> dict[int, Yields]:
    """The seats whose yields change, with their new yields, were ``region`` to hold ``counts`` cubes."""
    before = snapshot.shares.get(region, {})
    after = region_shares(data, region, counts)
    out: dict[int, Yields] = {}
    for seat in {*before, *after}:
        was, now = before.get(seat, _NOTHING), after.get(seat, _NOTHING)
        if was != now:
            every = snapshot.every[seat]
            out[seat] = {k: every[k] - was[k] + now[k] for k in _KINDS}
    return out


_NOTHING: Yields = dict.fromkeys(_KINDS, 0)


class YieldCache:
    """Every seat's yields, brought up to date from the last position asked about.

    Not shared between threads: each policy holds its own.
    """

    def __init__(self, data: RiseData) -> None:
        self._data = data
        self._players = 0
        # The last position's cubes and tiles (copies: states are not ours to keep).
        self._cubes: dict[str, list[int]] = {}
        self._progress: list[list[str]] = []
        self._territory: list[list[str]] = []
        self._cities: list[list[str]] = []
        self._snapshot = Snapshot([], [], [], {})

    def every(self, state: RiseState) -> list[Yields]:
        """What each seat earns this turn: the same as ``phases.every_yields(state, data)``."""
        return self.snapshot(state).every

    def snapshot(self, state: RiseState) -> Snapshot:
        """Every seat's yields in ``state``, and their parts."""
        if state.players != self._players:
            self._players = state.players
            self._cubes = {}
            self._progress = self._territory = self._cities = []  # no seat's tiles known yet
            empty = [dict(_NOTHING) for _ in range(state.players)]
            self._snapshot = Snapshot(empty, empty, empty, {})
        tiles, regions, shares = self._snapshot.tiles, self._snapshot.regions, self._snapshot.shares
        stale = False
        if state.cubes != self._cubes:
            regions, shares = self._regions(state)
            stale = True
        if (state.progress != self._progress or state.territory != self._territory
                or state.cities != self._cities):
            tiles = [tile_yields(self._data, tile_key(state, seat)) for seat in range(state.players)]
            self._progress = [held[:] for held in state.progress]
            self._territory = [held[:] for held in state.territory]
            self._cities = [held[:] for held in state.cities]
            stale = True
        if stale:
            every = [{k: t[k] + r[k] for k in _KINDS} for t, r in zip(tiles, regions, strict=True)]
            self._snapshot = Snapshot(every, tiles, regions, shares)
        return self._snapshot

    def _regions(self, state: RiseState) -> tuple[list[Yields], dict[str, Shares]]:
        """The regions' part of the yields in ``state``, from the last position's by the regions that
        changed (new objects: the last snapshot stays as it was)."""
        old, new = self._cubes, state.cubes
        changed = [r for r, counts in new.items() if old.get(r) != counts]
        changed.extend(r for r in old if r not in new)
        totals = [dict(total) for total in self._snapshot.regions]
        shares = dict(self._snapshot.shares)
        for region in changed:
            _add(totals, shares.pop(region, {}), -1)
            if region in new:
                now = shares[region] = region_shares(self._data, region, tuple(new[region]))
                _add(totals, now, 1)
        self._cubes = {r: counts[:] for r, counts in new.items()}
        return totals, shares


def _add(totals: list[Yields], shares: Shares, sign: int) -> None:
    for seat, share in shares.items():
        total = totals[seat]
        for k, v in share.items():
            total[k] += sign * v
