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
from typing import Any

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
from engine.rise.state import EMPTY
from engine.rise.text import (
    ROW_NAMES,
    city_offer,
    empire_text,
    fit,
    gold,
    held_tile,
    own_action,
    payment_text,
    progress_offer,
    region_name,
    stage,
    territory_text,
)
from engine.words import join_words, plural, roman

View = Mapping[str, Any]


def decide(view: View, player: PlayerId, legal: Sequence[Action], names: Names) -> Decision:
    """``player``'s decision: ``legal`` headed and labelled from ``view``."""
    mixes = Counter((a.row, a.circle) for a in legal if isinstance(a, TakeBack))
    choices = tuple(_choice(view, player, a, legal, mixes, names) for a in legal)
    return Decision(player, _heading(view, player, legal), choices)


# -- headings ---------------------------------------------------------------------------------------
def _heading(view: View, player: PlayerId, legal: Sequence[Action]) -> str:
    phase = view["phase"]
    if phase in ("food_upkeep", "upkeep", "era_end"):
        return _keep_heading(view, player)
    if phase == "order":
        return (
            f"Turn order for game turn {int(view['turn']) + 1}: choose your position on the turn order "
            "track (position 1 acts first)"
        )
    task = view["task"]
    where = (
        f"{stage(view)} ({view['half']} turn), your action {own_action(view)} of {view['actions_per_turn']}"
    )
    me = view["players_state"][player]
    st = task["stage"]
    if st == "choose":
        free = " (or first use a free progress tile)" if any(isinstance(a, UseTile) for a in legal) else ""
        if view["half"] == "B":
            return (
                f"{where}: take back one of your discs and do its action, paying one unit for each disc to "
                f"its left{free}"
            )
        return f"{where}: choose a row of the action display for your disc{free}"
    if st == "act":
        row = str(task["row"])
        what = {
            "progress": "choose a progress tile",
            "territory": "choose a territory tile",
            "city": "choose a city tile",
            "empire": "choose an empire tile",
            "trade": "choose a trade box for your resource discs",
        }[row]
        skip = " or skip the action" if view["half"] == "B" else ""
        return f"{where}, {ROW_NAMES[row]} row: {what}{skip}"
    if st == "after" or task["side"] is None:
        return "Your action is done: use a free progress tile, or end your action"
    side = task["side"]
    tile = f"Empire tile {str(task['empire']).removeprefix('e')} ({empire_text(side)})"
    if st == "place":
        regions = len(task["placed"])
        return (
            f"{tile}: place cubes from your pool ({me['pool']} left) one at a time, in up to "
            f"{plural(int(side['regions']), 'region')} ({regions} used), then stop"
        )
    return f"{tile}: choose a battle in a region where you and another player have cubes, or stop"


def _keep_heading(view: View, player: PlayerId) -> str:
    item = view["pending"][0]
    tile = held_tile(view, player, str(item["tile"]))
    name = tile["name"]
    kind = item["kind"]
    if kind == "food_upkeep":
        return (
            f"City upkeep in food: keep your city {name} (it costs {-int(tile['food'])} food in the "
            "Food phase) or give it up"
        )
    if kind == "upkeep":
        return (
            f"City upkeep: pay {plural(int(tile['upkeep']), 'resource disc')} to keep your city {name}, "
            "or give it up"
        )
    era = roman(int(view["era"]))
    if kind == "keep_progress":
        return f"End of era {era}: keep your progress tile {name} for 1 gold, or give it up"
    return f"End of era {era}: keep your city {name} for 1 cube from your pool, or give it up"


# -- one choice per legal move ------------------------------------------------------------------------
def _choice(
    view: View, player: PlayerId, action: Action, legal: Sequence[Action], mixes: Counter[tuple[str, int]],
    names: Names,
) -> Choice:
    me = view["players_state"][player]
    if isinstance(action, TakeBack):
        disc = f"{ROW_NAMES[action.row]}: take back your disc in circle {action.circle + 1}"
        cost = sum(action.payment)
        if not cost:
            return Choice(action, f"{disc}, free")
        paid = payment_text(dict(zip(PAYMENTS, action.payment, strict=True)))
        group = f"{disc} (costs {cost})" if mixes[(action.row, action.circle)] > 1 else ""
        return Choice(action, fit(f"{disc}, pay {paid}"), group=group)
    if isinstance(action, Skip):
        row = ROW_NAMES.get(str(view["task"]["row"]), "this")
        others = len(legal) > 1
        return Choice(
            action,
            f"Skip the {row.lower()} action",
            confirm="Skip this action? Taking the disc back is paid for already." if others else "",
        )
    if isinstance(action, ClearCubes):
        n = int(me["on_map"])
        return Choice(
            action,
            f"First take your {plural(n, 'cube')} off the map (a new empire)",
            confirm=(f"Take all {n} of your cubes off the map into your pool?" if n > 1
                     else "Take your cube off the map into your pool?"),
        )
    if isinstance(action, Stop):
        return _stop(view, me, legal, action)
    if isinstance(action, Discard):
        name = held_tile(view, player, action.tile)["name"]
        return Choice(
            action, fit(f"Give up {name}"), confirm=f"Give up {name} for good? It goes back to the box."
        )
    return Choice(action, fit(_label(view, player, action, names)))


def _stop(view: View, me: Mapping[str, Any], legal: Sequence[Action], action: Stop) -> Choice:
    task = view["task"]
    st = task["stage"]
    if st == "place":
        can_place = any(isinstance(a, PlaceCube) for a in legal)
        ask = f"Stop placing with {plural(int(me['pool']), 'cube')} still in your pool?" if can_place else ""
        return Choice(action, "Done placing cubes" if task["placed"] else "Place no cubes", confirm=ask)
    if st == "battle":
        can_fight = any(isinstance(a, Battle) for a in legal)
        fought = bool(task["battles"])
        ask = (
            ("End without another battle?" if fought else "End without fighting a battle?")
            if can_fight
            else ""
        )
        return Choice(action, "No more battles" if fought else "Fight no battle", confirm=ask)
    unused = sorted(
        {
            next(t["name"] for t in me["progress"] if t["id"] == a.tile)
            for a in legal
            if isinstance(a, UseTile)
        }
    )
    ask = f"End your action without using {join_words(unused)}?" if unused else ""
    return Choice(action, "End your action", confirm=ask)


def _label(view: View, player: PlayerId, action: Action, names: Names) -> str:
    me = view["players_state"][player]
    tiles = view["tiles"]
    if isinstance(action, Select):
        return f"{ROW_NAMES[action.row]}: place a disc in circle {action.circle + 1}"
    if isinstance(action, TakeProgress | TakeTerritory | TakeCity | TakeEmpire):
        kind, words = _OFFERS[type(action)]
        t = next(x for x in tiles[kind] if x["id"] == action.tile)
        name = t.get("name") or f"Empire tile {action.tile.removeprefix('e')}"
        return f"{name} ({words(t)})"
    if isinstance(action, Trade):
        box = next(x for x in view["trade"] if x["id"] == action.box)
        pays = gold(int(box["gold"])) if box["gold"] else plural(int(box["vp"]), "victory point")
        discs = plural(int(box["resources"]), "resource disc")
        return f"Trade box {action.box.removeprefix('t')}: {discs} for {pays}"
    if isinstance(action, PlaceCube):
        have = (view["map"]["cubes"].get(action.region) or [0] * int(view["players"]))[player]
        there = f" (you have {have} there)" if have else ""
        return f"Place a cube in {region_name(action.region)}{there}"
    if isinstance(action, Battle):
        return _battle_label(view, player, action, names)
    if isinstance(action, UseTile):
        name = next(t["name"] for t in me["progress"] if t["id"] == action.tile)
        where = region_name(action.region)
        if action.target == EMPTY:
            return f"{name}: add a cube from your pool in {where}"
        return f"{name}: remove a cube of {SPEC.name_in(names, action.target)} in {where}"
    if isinstance(action, Keep):
        return _keep_label(view, player, action.tile)
    if isinstance(action, ChooseOrder):
        first = " (act first)" if action.position == 0 else ""
        return f"Position {action.position + 1} on the turn order track{first}"
    if isinstance(action, Pass):
        return "Pass: no action can be selected"
    raise ValueError(f"no label for {action.kind}")


#: The tiles display's list of each kind of tile, and how a tile on offer is worded.
_OFFERS: dict[type[Action], tuple[str, Callable[[Mapping[str, Any]], str]]] = {
    TakeProgress: ("progress", progress_offer),
    TakeTerritory: ("territory", territory_text),
    TakeCity: ("city", city_offer),
    TakeEmpire: ("empire", empire_text),
}


def _battle_label(view: View, player: PlayerId, action: Battle, names: Names) -> str:
    """The battle with its outcome: the losses are certain, capped by the cubes each side has there."""
    side = view["task"]["side"] or {"battles": []}
    rows: Sequence[Sequence[int]] = side["battles"]
    att, dfn = rows[action.row]
    counts = view["map"]["cubes"].get(action.region) or [0] * int(view["players"])
    theirs, ours = int(counts[action.target]), int(counts[player])
    which = f" (row {action.row + 1})" if len(rows) > 1 and int(view["era"]) >= 3 else ""
    enemy = SPEC.name_in(names, action.target)
    return (
        f"Attack {enemy} in {region_name(action.region)}{which}: {enemy} loses {min(dfn, theirs)} of "
        f"{theirs}, you lose {min(att, ours)} of {ours}"
    )


def _keep_label(view: View, player: PlayerId, tile_id: str) -> str:
    tile = held_tile(view, player, tile_id)
    kind = view["pending"][0]["kind"]
    price = {
        "food_upkeep": f"it eats {-int(tile.get('food', 0))} food",
        "upkeep": f"pay {plural(int(tile.get('upkeep', 0)), 'resource disc')}",
        "keep_progress": "pay 1 gold",
        "keep_city": "pay 1 pool cube",
    }[kind]
    return f"Keep {tile['name']} ({price})"
