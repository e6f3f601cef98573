"""Words for Rise of Empires: a sentence per event, and the status, hand, board and summary texts.

Pure functions of an event or of a view (:class:`engine.rise.view.RiseView`, or the part of it
they word: a tile's :class:`~engine.rise.view.TileView`, an empire side's
:class:`~engine.rise.view.SideView`) and the platform's seat names ("alice (Red)"); region and tile
names come from the game's data, which every player knows. Labels of the legal moves are in
``engine.rise.decision``, built with the tile wordings here.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engine.core import Event, Names
from engine.rise.actions import PAYMENT_WORDS
from engine.rise.data import ROWS, load_data
from engine.rise.state import EMPTY, Phase, Stage
from engine.rise.view import (
    CityView,
    ControlView,
    EmpireView,
    PlayerView,
    ProgressView,
    RiseView,
    SideView,
    TerritoryView,
    TileView,
    YieldView,
)
from engine.words import first_place, join_words, plural, roman, shorten

#: Every event type the engine emits (engine/rise/{phases,turn,flow,end}.py); each has a sentence.
EVENT_TYPES: frozenset[str] = frozenset(
    {
        "new_tiles",
        "disc_placed",
        "disc_removed",
        "took_progress",
        "took_territory",
        "took_city",
        "built_wonder",
        "traded",
        "skipped",
        "took_empire",
        "cleared",
        "placed",
        "battle",
        "tile_used",
        "passed",
        "kept",
        "discarded",
        "food",
        "income",
        "victory_points",
        "era_end",
        "turn_order_choosers",
        "turn_order_chosen",
        "final_bonus",
        "game_over",
    }
)

ROW_NAMES: dict[str, str] = {
    "progress": "Progress",
    "territory": "Territory",
    "city": "City",
    "empire": "Empire",
    "trade": "Trade",
}

LABEL_MAX = 100


def fit(text: str, limit: int = LABEL_MAX) -> str:
    """``text`` cut to ``limit`` characters with an ellipsis."""
    return shorten(text, limit)


def gold(n: int) -> str:
    return plural(n, "gold", "gold")


def region_name(region: str) -> str:
    found = load_data().regions.get(region)
    return found.name if found is not None else region


def tile_name(tile: str) -> str:
    """The printed name of a progress, territory or city tile (``e3`` -> ``empire tile 3``)."""
    data = load_data()
    for table in (data.progress, data.territory, data.cities):
        if tile in table:
            return table[tile].name
    if tile in data.empires:
        return f"empire tile {tile.removeprefix('e')}"
    return tile


def payment_text(paid: Mapping[str, int]) -> str:
    """``2 gold and 1 food``: a B-turn payment, by unit."""
    parts = [plural(n, *PAYMENT_WORDS[k]) for k, n in paid.items() if n]
    return join_words(parts) if parts else "nothing"


def yields_text(food: int = 0, gold: int = 0, resources: int = 0, cubes: int = 0, vp: int = 0) -> str:
    """``+1 VP, +2 food, +1 cube`` (a negative number is an upkeep)."""
    parts: list[str] = []
    for n, one, many in (
        (vp, "VP", "VP"),
        (gold, "gold", "gold"),
        (resources, "resource", "resources"),
        (cubes, "cube", "cubes"),
        (food, "food", "food"),
    ):
        if n:
            parts.append(f"{'+' if n > 0 else '-'}{abs(n)} {one if abs(n) == 1 else many}")
    return ", ".join(parts)


def _yields_of(tile: YieldView) -> str:
    return yields_text(
        int(tile["food"]), int(tile["gold"]), int(tile["resources"]), int(tile["cubes"]), int(tile["vp"])
    )


_SPECIAL_TEXT: dict[str, str] = {
    "printing": "B-turn discs cost nothing to take back",
    "navigation": "opens the New World and the Far East",
    "iron_axe": "forests cost no food",
}
_FREE_TEXT: dict[str, str] = {
    "remove_cube": "free: remove a rival cube",
    "place_cube": "free: add a pool cube",
}


def progress_text(tile: ProgressView) -> str:
    """What a progress tile (as the view shows it) does, in a few words."""
    bits = [_yields_of(tile)]
    if tile["special"]:
        bits.append(_SPECIAL_TEXT.get(str(tile["special"]), str(tile["special"])))
    if tile["free"]:
        bits.append(_FREE_TEXT.get(str(tile["free"]), str(tile["free"])))
    return "; ".join(b for b in bits if b) or "no yield"


def territory_text(tile: TerritoryView) -> str:
    return _yields_of(tile) or "no yield"


def city_text(tile: CityView) -> str:
    wonder = tile["wonder"]
    if wonder:
        price = [
            plural(n, one, many)
            for n, one, many in (
                (wonder["gold"], "gold", "gold"),
                (wonder["resources"], "resource", "resources"),
                (wonder["cubes"], "cube", "cubes"),
            )
            if n
        ]
        return f"wonder: pay {join_words(price)} for {wonder['vp']} VP at once"
    bits = [_yields_of(tile) or "no yield"]
    if tile["upkeep"]:
        bits.append(f"upkeep {plural(int(tile['upkeep']), 'resource')}")
    return "; ".join(bits)


def progress_offer(tile: ProgressView) -> str:
    """A progress tile on offer: ``era I, 1 gold: +1 VP`` (the price only when there is one)."""
    price = f", {gold(int(tile['price']))}" if tile["price"] else ""
    return f"era {roman(int(tile['era']))}{price}: {progress_text(tile)}"


def city_offer(tile: CityView) -> str:
    """A city tile on offer: ``3 gold: +2 VP, -1 food``; a wonder says its own price."""
    if tile["wonder"]:
        return city_text(tile)
    return f"{gold(int(tile['cost'])) if tile['cost'] else 'free'}: {city_text(tile)}"


def battles_text(battles: Sequence[Sequence[int]]) -> str:
    """``battle: you -1 them -2`` (both rows when the side has two)."""
    rows = [f"you -{att} them -{dfn}" for att, dfn in battles]
    return ("battles: " if len(rows) > 1 else "battle: ") + ", ".join(rows)


def empire_text(side: SideView) -> str:
    water = ", water" if side["water"] else ""
    return f"up to {plural(int(side['regions']), 'region')}{water}; {battles_text(side['battles'])}"


# -- events ------------------------------------------------------------------------------------------
def describe_event(event: Event, names: Names) -> str | None:
    """One sentence for a Rise of Empires event, or None for a type this game does not emit."""
    if event.type not in EVENT_TYPES:
        return None
    d = event.data

    def who(seat: Any) -> str:
        return names[int(seat)]

    def p() -> str:
        return who(d["player"])

    def tile(key: str = "tile") -> str:
        return tile_name(str(d[key]))

    def row() -> str:
        return ROW_NAMES.get(str(d["row"]), str(d["row"]))

    def new_tiles() -> str:
        half = "A" if int(d["turn"]) % 2 == 1 else "B"
        flipped: Sequence[str] = d.get("flipped") or []
        retired: Sequence[str] = d.get("retired") or []
        out = (
            f"Game turn {d['turn']} (era {roman(int(d['era']))}, {half} turn) begins: "
            f"{plural(len(flipped), 'new tile')} turned face up"
        )
        if retired:
            out += f", {plural(len(retired), 'tile')} left the display"
        return out + "."

    def disc_removed() -> str:
        cost = int(d["cost"])
        price = (
            f"paying {payment_text(d.get('paid') or {})} for the discs to its left" if cost else "at no cost"
        )
        return f"{p()} takes back a disc from the {row()} row (circle {int(d['circle']) + 1}), {price}."

    def took_progress() -> str:
        price = int(d.get("price", 0))
        return f"{p()} takes the progress tile {tile()}{f' for {gold(price)}' if price else ''}."

    def took_city() -> str:
        price = int(d.get("price", 0))
        return f"{p()} builds the city of {tile()}{f' for {gold(price)}' if price else ' for free'}."

    def traded() -> str:
        gets = [
            x
            for x in (
                gold(int(d["gold"])) if int(d.get("gold", 0)) else "",
                plural(int(d["vp"]), "victory point") if int(d.get("vp", 0)) else "",
            )
            if x
        ]
        return f"{p()} trades {plural(int(d['resources']), 'resource disc')} for {join_words(gets)}."

    def battle() -> str:
        where = region_name(str(d["region"]))
        out = (
            f"{p()} fights {who(d['target'])} in {where}: the defender loses "
            f"{plural(int(d['defender_lost']), 'cube')}, "
            f"the attacker {plural(int(d['attacker_lost']), 'cube')}"
        )
        holder = int(d.get("holder", EMPTY))
        if d.get("won"):
            return out + f"; {p()} now controls {where}."
        if holder == EMPTY:
            return out + f"; the battle was not won: nobody controls {where} alone."
        return out + f"; the battle was not won: {who(holder)} controls {where}."

    def tile_used() -> str:
        where = region_name(str(d["region"]))
        target = int(d["target"])
        if target == EMPTY:
            return f"{p()} uses {tile()} to add a cube in {where}."
        return f"{p()} uses {tile()} to remove a cube of {who(target)} in {where}."

    def kept() -> str:
        price = {
            "upkeep": " and pays its resource upkeep",
            "food_upkeep": " and will feed it",
            "keep_progress": " for 1 gold",
            "keep_city": " for a pool cube",
        }.get(str(d.get("why", "")), "")
        return f"{p()} keeps {tile()}{price}."

    def discarded() -> str:
        why = " (it could not be paid for)" if d.get("forced") else ""
        return f"{p()} gives up {tile()}{why}."

    def food() -> str:
        change = int(d["change"])
        moved = (
            f"gains {change} food"
            if change > 0
            else f"loses {-change} food"
            if change < 0
            else "neither gains nor loses food"
        )
        out = f"{p()} {moved} and stands at {d['food']} on the food track"
        if int(d.get("lost_vp", 0)):
            out += f"; running short costs {plural(int(d['lost_vp']), 'victory point')}"
        if int(d.get("gold", 0)):
            out += f"; the surplus over the top gives {gold(int(d['gold']))}"
        return out + "."

    def income() -> str:
        got = [
            x
            for x in (
                gold(int(d["gold"])) if int(d["gold"]) else "",
                plural(int(d["resources"]), "resource disc") if int(d["resources"]) else "",
                plural(int(d["cubes"]), "cube") if int(d["cubes"]) else "",
            )
            if x
        ]
        return f"{p()} receives {join_words(got) if got else 'no income'}."

    def era_end() -> str:
        removed: Mapping[str, Sequence[int]] = d.get("removed") or {}
        total = sum(sum(v) for v in removed.values())
        return (
            f"Era {roman(int(d['era']))} ends: half the cubes in every region go back to the stock "
            f"({plural(total, 'cube')} in all)."
        )

    texts: dict[str, Callable[[], str | None]] = {
        "new_tiles": new_tiles,
        "disc_placed": lambda: f"{p()} puts a disc on the {row()} row (circle {int(d['circle']) + 1}).",
        "disc_removed": disc_removed,
        "took_progress": took_progress,
        "took_territory": lambda: f"{p()} takes a territory tile: {tile()}.",
        "took_city": took_city,
        "built_wonder": lambda: (
            f"{p()} builds the wonder {tile()} and scores {plural(int(d['vp']), 'victory point')}."
        ),
        "traded": traded,
        "skipped": lambda: f"{p()} lets the {row()} action go.",
        "took_empire": lambda: f"{p()} takes {tile()}.",
        "cleared": lambda: f"{p()} takes all their cubes off the map.",
        "placed": lambda: f"{p()} places a cube in {region_name(str(d['region']))}.",
        "battle": battle,
        "tile_used": tile_used,
        "passed": lambda: f"{p()} can select no action and passes.",
        "kept": kept,
        "discarded": discarded,
        "food": food,
        "income": income,
        "victory_points": lambda: (
            f"{p()} scores {plural(int(d['gained']), 'victory point')} ({d['total']} in all)."
        ),
        "era_end": era_end,
        "turn_order_choosers": lambda: (
            "Turn order: choosing in the order " + ", ".join(who(x) for x in d["choosers"]) + "."
        ),
        "turn_order_chosen": lambda: (
            f"{p()} takes position {int(d['position']) + 1} on the turn order track."
        ),
        "final_bonus": lambda: (
            f"{p()} scores {plural(int(d['vp']), 'victory point')} for leftover gold and resource discs."
        ),
        # The platform tells the end of the game once, with the summary (summary_text).
        "game_over": lambda: None,
    }
    return texts[event.type]()


# -- the state of play, from a view ---------------------------------------------------------------------
def over(view: RiseView) -> bool:
    """Whether the game of ``view`` is over."""
    return Phase(view["phase"]) is Phase.OVER


def stage(view: RiseView) -> str:
    """``Era II, turn 3``, or ``Game over``."""
    if over(view):
        return "Game over"
    return f"Era {roman(int(view['era']))}, turn {view['turn']}"


def own_action(view: RiseView) -> int:
    """Which of their six actions of this game turn the player to act is on (1-based)."""
    return min(int(view["actions_done"]) // int(view["players"]) + 1, int(view["actions_per_turn"]))


def held_tile(view: RiseView, seat: int, tile: str) -> TileView:
    """A tile ``seat`` holds (progress, city or territory), as the view shows it."""
    mine = view["players_state"][seat]
    held: list[TileView] = [*mine["progress"], *mine["cities"], *mine["territory"]]
    for t in held:
        if t["id"] == tile:
            return t
    raise KeyError(tile)


def held_city(view: RiseView, seat: int, tile: str) -> CityView:
    """A city ``seat`` holds, as the view shows it (its upkeep and what it eats)."""
    for t in view["players_state"][seat]["cities"]:
        if t["id"] == tile:
            return t
    raise KeyError(tile)


def _doing(view: RiseView, names: Names) -> str:
    """What is going on now and who is to decide, in a clause."""
    phase = Phase(view["phase"])
    actor = view["actors"][0] if view["actors"] else None
    task = view["task"]
    if phase is Phase.ACTIONS and task is not None:
        total = int(view["actions_per_turn"]) * int(view["players"])
        step = {
            Stage.CHOOSE: "choosing an action",
            Stage.ACT: f"doing the {ROW_NAMES.get(str(task['row']), '')} action",
            Stage.PLACE: "placing cubes",
            Stage.BATTLE: "choosing battles",
            Stage.AFTER: "finishing an action",
        }[Stage(task["stage"])]
        return (
            f"player actions, {int(view['actions_done']) + 1} of {total}: "
            f"{names[int(task['player'])]} is {step}"
        )
    keeping = {
        Phase.FOOD_UPKEEP: "cities that eat food",
        Phase.UPKEEP: "city upkeep",
        Phase.ERA_END: f"the end of era {roman(int(view['era']))}",
    }.get(phase)
    if keeping is not None and view["pending"] and actor is not None:
        item = view["pending"][0]
        return f"{keeping}: {names[actor]} decides whether to keep {tile_name(str(item['tile']))}"
    if phase is Phase.ORDER and actor is not None:
        return f"turn order for the next game turn: {names[actor]} chooses a position"
    return "between phases"


def _in_order(view: RiseView) -> Sequence[int]:
    """The seats as a score line lists them: by final rank once the game is over, else by seat."""
    return view["ranking"] or range(int(view["players"]))


def _points(view: RiseView, names: Names) -> str:
    scores = view["final"] if view["final"] is not None else [p["vp"] for p in view["players_state"]]
    return ", ".join(f"{names[p]} {scores[p]}" for p in _in_order(view))


def _result(view: RiseView, names: Names) -> str:
    ranking: Sequence[int] = view["ranking"] or []
    if not ranking:
        return ""
    final: Sequence[int] = view["final"] or []
    first = ranking[0]
    shared = first_place(view["places"], ranking)
    if len(shared) > 1:
        return (f"{join_words([names[p] for p in shared])} share the win: tied on {final[first]} points and "
                "on gold (the rulebook's tie-break).")
    tied = [p for p in ranking if final[p] == final[first]]
    if len(tied) > 1:
        return (
            f"Winner: {names[first]}, tied on {final[first]} points with "
            f"{join_words([names[p] for p in tied[1:]])} and ahead on gold (the rulebook's tie-break)."
        )
    return f"Winner: {names[first]} with {final[first]} points."


def status_text(view: RiseView, names: Names) -> str:
    """Stage, what is being decided and by whom, turn order and victory points; at the end the result."""
    if over(view):
        return f"Game over. Final scores: {_points(view, names)}. {_result(view, names)}"
    order = ", ".join(names[p] for p in view["order"])
    return (
        f"{stage(view)} (the {view['half']} turn of the era): {_doing(view, names)}. "
        f"Turn order: {order}. Victory points: {_points(view, names)}."
    )


def _tiles_line(title: str, tiles: Sequence[tuple[str, str]]) -> str:
    """``Title: Mountain x3 (+3 cubes, -3 food); Plains (+1 cube, +2 food).`` from each tile's name and
    words (equal tiles counted once)."""
    if not tiles:
        return f"{title}: none."
    counts = Counter(f"{name} ({words})" for name, words in tiles)
    parts = [text if n == 1 else text.replace(" (", f" x{n} (", 1) for text, n in counts.items()]
    return f"{title}: " + "; ".join(parts) + "."


def hand_text(view: RiseView, player: int, names: Names) -> str:
    """``player``'s stock, tiles and what this game turn would pay them (nothing in Rise is hidden)."""
    me = view["players_state"][player]
    lines = [
        f"{names[player]}: you have {gold(me['gold'])}, {plural(me['resources'], 'resource disc')}, "
        f"{me['food']} food and {plural(me['vp'], 'victory point')}; cubes: {me['pool']} in your pool, "
        f"{me['stock']} in your stock, {me['on_map']} on the map.",
    ]

    def progress(t: ProgressView) -> str:
        words = progress_text(t)
        if t["free"]:
            state = (
                "used this turn"
                if t["id"] in me["used"]
                else "waiting until every other player has acted"
                if t["id"] in me["waiting"]
                else "ready"
            )
            words += f", {state}"
        return words

    lines.append(_tiles_line("Progress tiles", [(t["name"], progress(t)) for t in me["progress"]]))
    lines.append(_tiles_line("Territory tiles", [(t["name"], territory_text(t)) for t in me["territory"]]))
    lines.append(_tiles_line("Cities", [(t["name"], city_text(t)) for t in me["cities"]]))
    if me["empires"]:
        lines.append(_tiles_line("Empire tiles this turn", _empire_tiles(me["empires"])))
    pays = view["yields"][player]
    if not over(view):
        lines.append(
            "This game turn's Food, Income and Victory Points phases would bring you: "
            + (
                yields_text(pays["food"], pays["gold"], pays["resources"], pays["cubes"], pays["vp"])
                or "nothing"
            )
            + "."
        )
    lines.append("Nothing in Rise of Empires is hidden: every player sees your stock and your tiles.")
    return "\n".join(lines)


def _empire_tiles(empires: Sequence[EmpireView]) -> list[tuple[str, str]]:
    """Each empire tile's name (``Empire tile 3``: it has none printed) and words."""
    return [(f"Empire tile {e['id'].removeprefix('e')}", empire_text(e)) for e in empires]


def _region_line(view: RiseView, region: str, counts: Sequence[int], names: Names) -> str:
    reg = view["map"]["regions"][region]
    cubes = join_words([f"{plural(n, 'cube')} of {names[p]}" for p, n in enumerate(counts) if n])
    ctrl = view["map"]["control"].get(region) or ControlView(first=[], second=[])
    first: Sequence[int] = ctrl["first"]
    if len(first) == 1:
        held = f"{names[first[0]]} controls it"
    else:
        held = f"{join_words([names[p] for p in first])} share control"
    return f"{reg['name']}: {cubes}; {held}."


def board_text(view: RiseView, names: Names) -> str:
    """The map, the action display, the tiles on offer and the trade track, in sentences."""
    lines = [
        f"{stage(view)}{'' if over(view) else ' (' + view['half'] + ' turn)'}. "
        f"Turn order: {', '.join(names[p] for p in view['order'])}."
    ]
    cubes: Mapping[str, Sequence[int]] = view["map"]["cubes"]
    if cubes:
        lines.append("On the map: " + " ".join(_region_line(view, r, c, names) for r, c in cubes.items()))
    else:
        lines.append("The map is empty.")
    era = int(view["era"])
    regions = view["map"]["regions"]
    empty = [r["name"] for rid, r in regions.items() if rid not in cubes and r["era"] <= era]
    if empty:
        lines.append(f"Open and empty in era {roman(era)}: {', '.join(empty)}.")
    if view["display"]:
        rows = []
        for row in ROWS:
            circles: Sequence[int] = view["display"][row]["circles"]
            taken = [names[c] for c in circles if c != EMPTY]
            rows.append(
                f"{ROW_NAMES[row]} {len(taken)} of {len(circles)}"
                + (f" ({', '.join(taken)})" if taken else "")
            )
        lines.append("Action display, discs per row: " + "; ".join(rows) + ".")
    tiles = view["tiles"]
    lines.append(
        _tiles_line("Progress tiles on offer", [(t["name"], progress_offer(t)) for t in tiles["progress"]])
    )
    lines.append(
        _tiles_line("Territory tiles on offer", [(t["name"], territory_text(t)) for t in tiles["territory"]])
    )
    lines.append(_tiles_line("City tiles on offer", [(t["name"], city_offer(t)) for t in tiles["city"]]))
    lines.append(_tiles_line("Empire tiles on offer", _empire_tiles(tiles["empire"])))
    boxes = []
    for t in view["trade"]:
        if not t["open"]:
            continue
        pays = gold(int(t["gold"])) if t["gold"] else plural(int(t["vp"]), "victory point")
        used = f", used by {names[int(t['used_by'])]}" if t["used_by"] is not None else ""
        boxes.append(f"{plural(int(t['resources']), 'resource disc')} for {pays}{used}")
    lines.append(f"Trade boxes open in era {roman(era)}: " + "; ".join(boxes) + ".")
    boxes_down = tiles["boxes"]
    hidden = [sum(boxes_down["progress"]), sum(boxes_down["territory"]), sum(boxes_down["city"])]
    lines.append(
        f"Face down: {hidden[0]} progress, {hidden[1]} territory and {hidden[2]} city tiles. "
        + ("Navigation has been selected." if view["navigation"] else "Nobody has selected Navigation yet.")
    )
    return "\n".join(lines)


def summary_text(view: RiseView, names: Names) -> str:
    """Final scores with what they are made of (the points of play and the end bonus), and the winner."""
    final = view["final"]
    if final is None:
        return f"The game is not over. {status_text(view, names)}"
    parts = []
    for p in _in_order(view):
        me: PlayerView = view["players_state"][p]
        bonus = int(me["gold"]) // 3 + int(me["resources"]) // 3
        total = int(final[p])
        parts.append(
            f"{names[p]} {total} ({total - bonus} during the game, {bonus} at the end for "
            f"{gold(int(me['gold']))} and {plural(int(me['resources']), 'resource disc')})"
        )
    return "Final scores: " + "; ".join(parts) + f". {_result(view, names)}"


def place_text(view: RiseView, place: str, names: Names) -> str | None:
    """One region of the map: its era and kind, the cubes of every seat there, who comes first and
    second and what that scores, its yield and its neighbours (over land or by an arrow over water).
    None when no region is called ``place``."""
    regions = view["map"]["regions"]
    key = " ".join(place.split()).casefold()
    rid = next((r for r, reg in regions.items() if key in (r.casefold(), str(reg["name"]).casefold())), None)
    if rid is None:
        return None
    reg = regions[rid]
    kind = "a sea region" if reg["sea"] else "a land region"
    lines = [f"{reg['name']}: {kind}, open from era {roman(int(reg['era']))}."]
    counts: Sequence[int] = view["map"]["cubes"].get(rid) or []
    cubes = [f"{plural(n, 'cube')} of {names[p]}" for p, n in enumerate(counts) if n]
    lines.append(f"Cubes here: {join_words(cubes) if cubes else 'none'}.")
    ctrl = view["map"]["control"].get(rid) or ControlView(first=[], second=[])
    first, second = (list(ctrl["first"]), list(ctrl["second"]))
    vp_first, vp_second = (int(v) for v in reg["standard"])
    if first:
        who = join_words([names[p] for p in first])
        lines.append(f"Control: {who} first; {join_words([names[p] for p in second]) or 'nobody'} second.")
    else:
        lines.append("Control: nobody.")
    lines.append(f"Scoring: {vp_first} VP to the first, {vp_second} VP to the second.")
    yields = yields_text(**{k: int(v) for k, v in reg["yields"].items()})
    lines.append(f"Yield: {yields or 'none'}.")
    land: list[str] = []
    water: list[str] = []
    for a, b, over_water in view["map"]["links"]:
        if rid in (a, b):
            other = str(regions[b if a == rid else a]["name"])
            (water if over_water else land).append(other)
    lines.append(f"Neighbours: {join_words(sorted(land)) if land else 'none'}; "
                 f"by an arrow over water: {join_words(sorted(water)) if water else 'none'}.")
    return "\n".join(lines)
