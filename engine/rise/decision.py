"""A Rise of Empires player's current decision, headed and labelled from their view.

:func:`decide` is the game's ``decision`` hook: a heading saying what is being
decided and for what, and one :class:`engine.core.Choice` per legal move with
a label (at most 100 characters, unique in the decision) built from the view
only. A B-turn removal is one move per way of paying; the disc is the first
step of that two-step pick (``group``). Moves that give up something still
usable (a paid action skipped, cubes left in the pool, a tile given up) ask
first (``confirm``). Battle labels preview the losses on both sides.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypedDict, TypeVar

from engine.core import Action, Choice, Decision, Names, PlayerId
from engine.rise.actions import (
    PAYMENTS,
    Battle,
    ChooseOrder,
    ClearCubes,
    Discard,
    Keep,
    Pass,
    PlaceCube,
    Select,
    Skip,
    Stop,
    TakeBack,
    TakeCity,
    TakeEmpire,
    TakeProgress,
    TakeTerritory,
    Trade,
    UseTile,
)
from engine.rise.spec import SPEC
from engine.rise.state import EMPTY, Phase, Stage
from engine.rise.text import (
    ROW_NAMES,
    city_offer,
    empire_text,
    fit,
    gold,
    held_city,
    held_tile,
    own_action,
    payment_text,
    progress_offer,
    region_name,
    stage,
    territory_text,
)
from engine.rise.view import PlayerView, RiseView, SideView, TaskView, TilesView
from engine.words import join_words, plural, roman


def decide(view: RiseView, player: PlayerId, legal: Sequence[Action], names: Names) -> Decision:
    """``player``'s decision: ``legal`` headed and labelled from ``view``."""
    mixes = Counter((a.row, a.circle) for a in legal if type(a) is TakeBack)
    asked = _Asked(view, player, legal, mixes, names)
    choices = tuple(_choice(asked, a) for a in legal)
    return Decision(player, _heading(view, player, legal), choices)


def _offered(legal: Sequence[Action], cls: type[Action]) -> bool:
    """Whether a move of class ``cls`` is among ``legal``."""
    return any(type(a) is cls for a in legal)


# -- headings ---------------------------------------------------------------------------------------
HeadingOf = Callable[[RiseView, PlayerId, Sequence[Action]], str]


def _heading(view: RiseView, player: PlayerId, legal: Sequence[Action]) -> str:
    """What ``player`` decides now: by the phase, and in the Player Actions phase by the action's stage."""
    phase = Phase(view["phase"])
    if phase is Phase.ACTIONS:
        return _STAGE_HEADINGS[Stage(_task(view)["stage"])](view, player, legal)
    return _PHASE_HEADINGS[phase](view, player, legal)


def _task(view: RiseView) -> TaskView:
    """The action under way, which a view of the Player Actions phase always holds."""
    task = view["task"]
    if task is None:
        raise ValueError("a view of the Player Actions phase holds the action under way")
    return task


def _where(view: RiseView) -> str:
    """The game turn and which of their actions the player is on."""
    return (
        f"{stage(view)} ({view['half']} turn), your action {own_action(view)} of {view['actions_per_turn']}"
    )


def _choose_heading(view: RiseView, player: PlayerId, legal: Sequence[Action]) -> str:
    free = " (or first use a free progress tile)" if _offered(legal, UseTile) else ""
    if view["half"] == "B":
        return (
            f"{_where(view)}: take back one of your discs and do its action, paying one unit for each disc "
            f"to its left{free}"
        )
    return f"{_where(view)}: choose a row of the action display for your disc{free}"


_ROW_WORK = {
    "progress": "choose a progress tile",
    "territory": "choose a territory tile",
    "city": "choose a city tile",
    "empire": "choose an empire tile",
    "trade": "choose a trade box for your resource discs",
}
"""What the act stage of each row asks for."""


def _act_heading(view: RiseView, player: PlayerId, legal: Sequence[Action]) -> str:
    row = str(_task(view)["row"])
    skip = " or skip the action" if view["half"] == "B" else ""
    return f"{_where(view)}, {ROW_NAMES[row]} row: {_ROW_WORK[row]}{skip}"


def _after_heading(view: RiseView, player: PlayerId, legal: Sequence[Action]) -> str:
    return "Your action is done: use a free progress tile, or end your action"


def _empire_tile(task: TaskView, side: SideView) -> str:
    """The empire tile under way (``task``'s, whose ``side`` is in play): its number and what it does."""
    return f"Empire tile {str(task['empire']).removeprefix('e')} ({empire_text(side)})"


def _place_heading(view: RiseView, player: PlayerId, legal: Sequence[Action]) -> str:
    task = _task(view)
    side = task["side"]
    if side is None:  # no empire tile under way: nothing but the free tiles left
        return _after_heading(view, player, legal)
    pool = view["players_state"][player]["pool"]
    return (
        f"{_empire_tile(task, side)}: place cubes from your pool ({pool} left) one at a time, in up to "
        f"{plural(int(side['regions']), 'region')} ({len(task['placed'])} used), then stop"
    )


def _battle_heading(view: RiseView, player: PlayerId, legal: Sequence[Action]) -> str:
    task = _task(view)
    side = task["side"]
    if side is None:  # no empire tile under way: nothing but the free tiles left
        return _after_heading(view, player, legal)
    return (f"{_empire_tile(task, side)}: choose a battle in a region where you and another player have "
            "cubes, or stop")


_STAGE_HEADINGS: Mapping[Stage, HeadingOf] = {
    Stage.CHOOSE: _choose_heading, Stage.ACT: _act_heading, Stage.PLACE: _place_heading,
    Stage.BATTLE: _battle_heading, Stage.AFTER: _after_heading,
}
"""The heading of each stage of an action."""


def _order_heading(view: RiseView, player: PlayerId, legal: Sequence[Action]) -> str:
    return (
        f"Turn order for game turn {int(view['turn']) + 1}: choose your position on the turn order "
        "track (position 1 acts first)"
    )


def _keep_heading(view: RiseView, player: PlayerId, legal: Sequence[Action]) -> str:
    item = view["pending"][0]
    name = held_tile(view, player, str(item["tile"]))["name"]
    kind = item["kind"]
    if kind == "food_upkeep":
        city = held_city(view, player, item["tile"])
        return (
            f"City upkeep in food: keep your city {name} (it costs {-int(city['food'])} food in the "
            "Food phase) or give it up"
        )
    if kind == "upkeep":
        city = held_city(view, player, item["tile"])
        return (
            f"City upkeep: pay {plural(int(city['upkeep']), 'resource disc')} to keep your city {name}, "
            "or give it up"
        )
    era = roman(int(view["era"]))
    if kind == "keep_progress":
        return f"End of era {era}: keep your progress tile {name} for 1 gold, or give it up"
    return f"End of era {era}: keep your city {name} for 1 cube from your pool, or give it up"


_PHASE_HEADINGS: Mapping[Phase, HeadingOf] = {
    Phase.FOOD_UPKEEP: _keep_heading, Phase.UPKEEP: _keep_heading, Phase.ERA_END: _keep_heading,
    Phase.ORDER: _order_heading,
}
"""The heading of each phase that asks players, but the Player Actions phase (by its stages)."""


# -- one choice per legal move ------------------------------------------------------------------------
@dataclass(frozen=True)
class _Asked:
    """What a choice is worded from: the view, the player deciding, all their legal moves, how many ways
    each B-turn disc may be paid, and the seats' names."""

    view: RiseView
    player: PlayerId
    legal: Sequence[Action]
    mixes: Counter[tuple[str, int]]
    names: Names

    @property
    def me(self) -> PlayerView:
        """The deciding player's part of the view."""
        return self.view["players_state"][self.player]

    @property
    def task(self) -> TaskView:
        """The action under way (a move of an action's stage is asked in its view only)."""
        return _task(self.view)


def _take_back_choice(at: _Asked, action: TakeBack) -> Choice:
    disc = f"{ROW_NAMES[action.row]}: take back your disc in circle {action.circle + 1}"
    cost = sum(action.payment)
    if not cost:
        return Choice(action, f"{disc}, free")
    paid = payment_text(dict(zip(PAYMENTS, action.payment, strict=True)))
    group = f"{disc} (costs {cost})" if at.mixes[(action.row, action.circle)] > 1 else ""
    return Choice(action, fit(f"{disc}, pay {paid}"), group=group)


def _skip_choice(at: _Asked, action: Skip) -> Choice:
    row = ROW_NAMES.get(str(at.task["row"]), "this")
    others = len(at.legal) > 1
    return Choice(
        action,
        f"Skip the {row.lower()} action",
        confirm="Skip this action? Taking the disc back is paid for already." if others else "",
    )


def _clear_choice(at: _Asked, action: ClearCubes) -> Choice:
    n = int(at.me["on_map"])
    return Choice(
        action,
        f"First take your {plural(n, 'cube')} off the map (a new empire)",
        confirm=(f"Take all {n} of your cubes off the map into your pool?" if n > 1
                 else "Take your cube off the map into your pool?"),
    )


def _stop_choice(at: _Asked, action: Stop) -> Choice:
    return _STOPS[Stage(at.task["stage"])](at, action)


def _stop_placing(at: _Asked, action: Stop) -> Choice:
    task = at.task
    can_place = _offered(at.legal, PlaceCube)
    ask = f"Stop placing with {plural(int(at.me['pool']), 'cube')} still in your pool?" if can_place else ""
    return Choice(action, "Done placing cubes" if task["placed"] else "Place no cubes", confirm=ask)


def _stop_fighting(at: _Asked, action: Stop) -> Choice:
    can_fight = _offered(at.legal, Battle)
    fought = bool(at.task["battles"])
    ask = (
        ("End without another battle?" if fought else "End without fighting a battle?")
        if can_fight
        else ""
    )
    return Choice(action, "No more battles" if fought else "Fight no battle", confirm=ask)


def _end_action(at: _Asked, action: Stop) -> Choice:
    unused = sorted(
        {
            next(t["name"] for t in at.me["progress"] if t["id"] == a.tile)
            for a in at.legal
            if type(a) is UseTile
        }
    )
    ask = f"End your action without using {join_words(unused)}?" if unused else ""
    return Choice(action, "End your action", confirm=ask)


_STOPS: Mapping[Stage, Callable[[_Asked, Stop], Choice]] = {
    Stage.PLACE: _stop_placing, Stage.BATTLE: _stop_fighting, Stage.AFTER: _end_action,
}
"""What ``stop`` ends in each stage that offers it."""


def _discard_choice(at: _Asked, action: Discard) -> Choice:
    name = held_tile(at.view, at.player, action.tile)["name"]
    return Choice(
        action, fit(f"Give up {name}"), confirm=f"Give up {name} for good? It goes back to the box."
    )


def _select_label(at: _Asked, action: Select) -> str:
    return f"{ROW_NAMES[action.row]}: place a disc in circle {action.circle + 1}"


def _offer_label(at: _Asked, action: TakeProgress | TakeTerritory | TakeCity | TakeEmpire) -> str:
    name, words = _OFFERS[type(action)](at.view["tiles"], action.tile)
    return f"{name} ({words})"


def _trade_label(at: _Asked, action: Trade) -> str:
    box = next(x for x in at.view["trade"] if x["id"] == action.box)
    pays = gold(int(box["gold"])) if box["gold"] else plural(int(box["vp"]), "victory point")
    discs = plural(int(box["resources"]), "resource disc")
    return f"Trade box {action.box.removeprefix('t')}: {discs} for {pays}"


def _place_label(at: _Asked, action: PlaceCube) -> str:
    view = at.view
    have = (view["map"]["cubes"].get(action.region) or [0] * int(view["players"]))[at.player]
    there = f" (you have {have} there)" if have else ""
    return f"Place a cube in {region_name(action.region)}{there}"


def _battle_choice_label(at: _Asked, action: Battle) -> str:
    return _battle_label(at.view, at.player, action, at.names)


def _use_label(at: _Asked, action: UseTile) -> str:
    name = next(t["name"] for t in at.me["progress"] if t["id"] == action.tile)
    where = region_name(action.region)
    if action.target == EMPTY:
        return f"{name}: add a cube from your pool in {where}"
    return f"{name}: remove a cube of {SPEC.name_in(at.names, action.target)} in {where}"


def _keep_choice_label(at: _Asked, action: Keep) -> str:
    return _keep_label(at.view, at.player, action.tile)


def _order_label(at: _Asked, action: ChooseOrder) -> str:
    first = " (act first)" if action.position == 0 else ""
    return f"Position {action.position + 1} on the turn order track{first}"


def _pass_label(at: _Asked, action: Pass) -> str:
    return "Pass: no action can be selected"


_CHOICES: Mapping[type[Action], Callable[[_Asked, Any], Choice]] = {
    TakeBack: _take_back_choice, Skip: _skip_choice, ClearCubes: _clear_choice, Stop: _stop_choice,
    Discard: _discard_choice,
}
"""The moves worded with more than a label (a group, a question asked first), by class."""

_LABELS: Mapping[type[Action], Callable[[_Asked, Any], str]] = {
    Select: _select_label, TakeProgress: _offer_label, TakeTerritory: _offer_label, TakeCity: _offer_label,
    TakeEmpire: _offer_label, Trade: _trade_label, PlaceCube: _place_label, Battle: _battle_choice_label,
    UseTile: _use_label, Keep: _keep_choice_label, ChooseOrder: _order_label, Pass: _pass_label,
}
"""The label of every other move, by class (each function takes its own class)."""


def _choice(at: _Asked, action: Action) -> Choice:
    choice = _CHOICES.get(type(action))
    if choice is not None:
        return choice(at, action)
    label = _LABELS.get(type(action))
    if label is None:
        raise ValueError(f"no label for {action.kind}")
    return Choice(action, fit(label(at, action)))


class _Identified(TypedDict):
    id: str


T = TypeVar("T", bound=_Identified)


def _on_offer(tiles: Sequence[T], tile: str) -> T:
    """The tile called ``tile`` among ``tiles`` (one list of the tiles display)."""
    return next(t for t in tiles if t["id"] == tile)


def _progress_offer(tiles: TilesView, tile: str) -> tuple[str, str]:
    t = _on_offer(tiles["progress"], tile)
    return t["name"], progress_offer(t)


def _territory_offer(tiles: TilesView, tile: str) -> tuple[str, str]:
    t = _on_offer(tiles["territory"], tile)
    return t["name"], territory_text(t)


def _city_offer(tiles: TilesView, tile: str) -> tuple[str, str]:
    t = _on_offer(tiles["city"], tile)
    return t["name"], city_offer(t)


def _empire_offer(tiles: TilesView, tile: str) -> tuple[str, str]:
    # an empire tile has no printed name: it is called by its number
    return f"Empire tile {tile.removeprefix('e')}", empire_text(_on_offer(tiles["empire"], tile))


#: How a tile on offer is named and worded, by the class of the move that takes it.
_OFFERS: dict[type[Action], Callable[[TilesView, str], tuple[str, str]]] = {
    TakeProgress: _progress_offer,
    TakeTerritory: _territory_offer,
    TakeCity: _city_offer,
    TakeEmpire: _empire_offer,
}


def _battle_label(view: RiseView, player: PlayerId, action: Battle, names: Names) -> str:
    """The battle with its outcome: the losses are certain, capped by the cubes each side has there."""
    side = _task(view)["side"]
    rows: Sequence[Sequence[int]] = side["battles"] if side is not None else []
    att, dfn = rows[action.row]
    counts = view["map"]["cubes"].get(action.region) or [0] * int(view["players"])
    theirs, ours = int(counts[action.target]), int(counts[player])
    which = f" (row {action.row + 1})" if len(rows) > 1 and int(view["era"]) >= 3 else ""
    enemy = SPEC.name_in(names, action.target)
    return (
        f"Attack {enemy} in {region_name(action.region)}{which}: {enemy} loses {min(dfn, theirs)} of "
        f"{theirs}, you lose {min(att, ours)} of {ours}"
    )


def _keep_label(view: RiseView, player: PlayerId, tile_id: str) -> str:
    tile = held_tile(view, player, tile_id)
    kind = view["pending"][0]["kind"]
    prices: dict[str, Callable[[], str]] = {
        "food_upkeep": lambda: f"it eats {-int(held_city(view, player, tile_id)['food'])} food",
        "upkeep": lambda: f"pay {plural(int(held_city(view, player, tile_id)['upkeep']), 'resource disc')}",
        "keep_progress": lambda: "pay 1 gold",
        "keep_city": lambda: "pay 1 pool cube",
    }
    return f"Keep {tile['name']} ({prices[kind]()})"
