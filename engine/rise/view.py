"""What a player sees of a Rise of Empires game: :class:`RiseView`, and the function that builds it.

Nothing in Rise of Empires is private to a player ("Keep all of your tiles
fully visible to all other players"); the only hidden things are the order of
the face-down tiles in the boxes of the tiles display, of which the view shows
the counts alone. So every seat's view is the same but for ``you``. Labels and
sentences (``engine.rise.text``, ``engine.rise.decision``) read only this.

Tile ids: ``p01``-``p48`` progress, ``t01``-``t40`` territory, ``c01``-``c36``
city, ``e1``-``e8`` empire.
"""

from __future__ import annotations

from typing import Any, TypedDict

from engine.core import PlayerId
from engine.rise import control, end, phases, turn
from engine.rise.data import ROWS, RiseData
from engine.rise.state import Phase, RiseState, Stage


class YieldView(TypedDict):
    """What a tile pays each game turn (a negative number is an upkeep): the part of every tile's view
    that :func:`engine.rise.text.yields_text` words."""

    food: int
    gold: int
    resources: int
    cubes: int
    vp: int


class TileView(YieldView):
    """What every progress, territory and city tile shows: its id, its printed name and its yields."""

    id: str
    name: str
    stays: bool


class ProgressView(TileView):
    era: int
    price: int  # gold to take it now (a tile of an earlier era)
    free: str | None  # a free action: "remove_cube" | "place_cube"
    special: str | None  # "printing" | "navigation" | "iron_axe"


class TerritoryView(TileView):
    """A territory tile: its yields alone."""


class WonderView(TypedDict):
    gold: int
    resources: int
    cubes: int
    vp: int


class CityView(TileView):
    era: int
    row: str
    cost: int
    upkeep: int
    wonder: WonderView | None


class SideView(TypedDict):
    """The side of an empire tile in play this era: regions, water, battle rows [attacker, defender] lost."""

    regions: int
    water: bool
    battles: list[list[int]]


class EmpireView(SideView):
    id: str


class PlayerView(TypedDict):
    seat: int
    gold: int
    resources: int
    food: int
    vp: int
    pool: int
    stock: int
    on_map: int
    progress: list[ProgressView]
    territory: list[TerritoryView]
    cities: list[CityView]
    empires: list[EmpireView]  # taken this game turn
    used: list[str]  # free tiles flipped this game turn
    waiting: list[str]  # free tiles not yet usable: some other player has not acted since they were taken


class RegionView(TypedDict):
    name: str
    era: int
    colour: str
    sea: bool
    part: str  # "old" | "new_world" | "far_east"
    standard: list[int]  # [first, second]
    yields: dict[str, int]
    anchor: list[float]  # [longitude, latitude]


class ControlView(TypedDict):
    first: list[int]
    second: list[int]


class MapView(TypedDict):
    regions: dict[str, RegionView]
    links: list[list[Any]]  # [region, region, arrow over water]
    cubes: dict[str, list[int]]  # region -> cubes per seat; empty regions left out
    control: dict[str, ControlView]


class RowView(TypedDict):
    circles: list[int]  # seat per circle, left to right; -1 empty


class BoxesView(TypedDict):
    progress: list[int]
    territory: list[int]
    city: list[int]


class TilesView(TypedDict):
    progress: list[ProgressView]  # face up
    territory: list[TerritoryView]
    city: list[CityView]
    empire: list[EmpireView]
    boxes: BoxesView  # face-down tiles per box (counts only)
    retired: int


class TradeView(TypedDict):
    id: str
    resources: int
    gold: int
    vp: int
    eras: list[int]
    open: bool
    used_by: int | None


class TaskView(TypedDict):
    """The action under way."""

    player: int
    stage: Stage  # a str: its value once the view went through JSON
    row: str | None
    circle: int
    empire: str | None
    side: SideView | None
    placed: list[str]
    before: list[str]
    battles: list[list[Any]]  # [region, battle row] fought so far


class PendingView(TypedDict):
    player: int
    kind: str  # "food_upkeep" | "upkeep" | "keep_progress" | "keep_city"
    tile: str


class OrderChoiceView(TypedDict):
    choosers: list[int]
    positions: list[int]  # seat per position; -1 free


class YouView(TypedDict):
    player: int


class RiseView(TypedDict):
    game: str
    seq: int
    players: int
    turn: int  # 1..6
    era: int  # 1..3
    half: str  # "A" | "B"
    phase: Phase  # a str: its value once the view went through JSON
    actors: list[int]
    order: list[int]  # seats by turn-order position
    current: int | None  # whose action it is
    actions_done: int  # actions completed this game turn, all players
    actions_per_turn: int  # per player
    players_state: list[PlayerView]
    map: MapView
    display: dict[str, RowView]
    removal_costs: dict[str, list[int | None]]  # B turn: the price of each of the current player's discs
    tiles: TilesView
    trade: list[TradeView]
    navigation: bool
    task: TaskView | None
    pending: list[PendingView]  # keep-or-give-up decisions; the first is being asked
    order_choice: OrderChoiceView | None
    yields: list[dict[str, int]]  # per seat: what this game turn's phases would pay
    final: list[int] | None
    ranking: list[int] | None
    places: list[list[int]] | None  # the seats by place, a tie that survives the tie-breaks shared
    you: YouView | None


def progress_view(s: RiseState, d: RiseData, tile: str) -> ProgressView:
    p = d.progress[tile]
    return ProgressView(
        id=tile,
        name=p.name,
        era=p.era,
        price=turn.progress_price(s, d, tile),
        food=p.food,
        gold=p.gold,
        resources=p.resources,
        cubes=p.cubes,
        vp=p.vp,
        free=p.free,
        special=p.special,
        stays=p.stays,
    )


def territory_view(d: RiseData, tile: str) -> TerritoryView:
    t = d.territory[tile]
    return TerritoryView(
        id=tile,
        name=t.name,
        food=t.food,
        gold=t.gold,
        resources=t.resources,
        cubes=t.cubes,
        vp=t.vp,
        stays=t.stays,
    )


def city_view(d: RiseData, tile: str) -> CityView:
    c = d.cities[tile]
    wonder = None
    if c.wonder is not None:
        wonder = WonderView(
            gold=c.wonder.gold, resources=c.wonder.resources, cubes=c.wonder.cubes, vp=c.wonder.vp
        )
    return CityView(
        id=tile,
        name=c.name,
        era=c.era,
        row=c.row,
        cost=c.cost,
        vp=c.vp,
        food=c.food,
        gold=c.gold,
        resources=c.resources,
        cubes=c.cubes,
        upkeep=c.upkeep,
        wonder=wonder,
        stays=c.stays,
    )


def empire_view(s: RiseState, d: RiseData, tile: str) -> EmpireView:
    side = d.empires[tile].side(s.era)
    return EmpireView(
        id=tile, regions=side.regions, water=side.water, battles=[list(b) for b in side.battles]
    )


def _task_view(s: RiseState, d: RiseData) -> TaskView | None:
    task = s.task
    if task is None:
        return None
    side = d.empires[str(task["empire"])].side(s.era) if task["empire"] else None
    return TaskView(
        player=int(task["player"]),
        stage=Stage(task["stage"]),
        row=task["row"],
        circle=int(task["circle"]),
        empire=task["empire"],
        side=SideView(regions=side.regions, water=side.water, battles=[list(b) for b in side.battles])
        if side
        else None,
        placed=list(task["placed"]),
        before=list(task["before"]),
        battles=[list(b) for b in task["battles"]],
    )


def build_view(
    s: RiseState, d: RiseData, viewer: PlayerId | None, game_id: str, actors: list[int]
) -> RiseView:
    """Everything ``viewer`` may see (None: a spectator)."""
    task = _task_view(s, d)
    current = task["player"] if task is not None else None
    costs: dict[str, list[int | None]] = {}
    if s.b_turn and current is not None:
        for row in ROWS:
            costs[row] = [
                turn.removal_cost(s, d, current, row, i) if owner == current else None
                for i, owner in enumerate(s.display.get(row, []))
            ]
    control_view: dict[str, ControlView] = {}
    for region in sorted(s.cubes):
        first, second = control.ranks(s, region)
        control_view[region] = ControlView(first=first, second=second)
    players = [
        PlayerView(
            seat=p,
            gold=s.gold[p],
            resources=s.resources[p],
            food=s.food[p],
            vp=s.vp[p],
            pool=s.pool[p],
            stock=s.stock[p],
            on_map=s.on_map(p),
            progress=[progress_view(s, d, t) for t in s.progress[p]],
            territory=[territory_view(d, t) for t in s.territory[p]],
            cities=[city_view(d, t) for t in s.cities[p]],
            empires=[empire_view(s, d, t) for t in s.empires[p]],
            used=[t for t in s.used if t in s.progress[p]],
            waiting=[t for t in s.progress[p] if t in s.waiting],
        )
        for p in range(s.players)
    ]
    regions = {
        r.id: RegionView(
            name=r.name,
            era=r.era,
            colour=d.era_colours[r.era],
            sea=r.sea,
            part=r.part,
            standard=list(r.standard),
            yields=dict(r.yields),
            anchor=list(r.anchor),
        )
        for r in d.regions.values()
    }
    links = sorted([a, b, frozenset((a, b)) in d.arrows] for a in d.adjacent for b in d.adjacent[a] if a < b)
    return RiseView(
        game=game_id,
        seq=s.seq,
        players=s.players,
        turn=s.turn,
        era=s.era,
        half="B" if s.b_turn else "A",
        phase=s.phase,
        actors=actors,
        order=s.order[:],
        current=current,
        actions_done=s.act_no,
        actions_per_turn=d.actions_per_turn,
        players_state=players,
        map=MapView(
            regions=regions,
            links=links,
            cubes={r: c[:] for r, c in sorted(s.cubes.items())},
            control=control_view,
        ),
        display={row: RowView(circles=s.display[row][:]) for row in ROWS if row in s.display},
        removal_costs=costs,
        tiles=TilesView(
            progress=[progress_view(s, d, t) for t in s.open_progress],
            territory=[territory_view(d, t) for t in s.open_territory],
            city=[city_view(d, t) for t in s.open_city],
            empire=[empire_view(s, d, t) for t in s.open_empires],
            boxes=BoxesView(
                progress=[len(b) for b in s.progress_boxes],
                territory=[len(b) for b in s.territory_boxes],
                city=[len(b) for b in s.city_boxes],
            ),
            retired=len(s.retired),
        ),
        trade=[
            TradeView(
                id=b.id,
                resources=b.resources,
                gold=b.gold,
                vp=b.vp,
                eras=list(b.eras),
                open=s.era in b.eras,
                used_by=s.trade_used.get(b.id),
            )
            for b in d.trade.values()
        ],
        navigation=s.navigation,
        task=task,
        pending=[
            PendingView(player=int(p["player"]), kind=str(p["kind"]), tile=str(p["tile"])) for p in s.pending
        ],
        order_choice=(
            OrderChoiceView(choosers=s.choosers[:], positions=s.new_order[:])
            if s.phase is Phase.ORDER
            else None
        ),
        yields=phases.every_yields(s, d),
        final=s.final[:] if s.final is not None else None,
        ranking=end.ranking(s) if s.phase is Phase.OVER else None,
        places=end.places(s) if s.phase is Phase.OVER else None,
        you=YouView(player=viewer) if viewer is not None and 0 <= viewer < s.players else None,
    )
