"""Words for Rise of Empires: a sentence per event, a short label per legal action.

Pure functions, no I/O beyond the game's cached data (region and tile names,
prices). Players are named by colour and seat, as in the other games
("Red (P1)").

* :func:`describe_event` -- one sentence for each event the engine emits, or
  None for an event nobody needs to read.
* :func:`action_label` -- a short label (at most 100 characters) for a button
  or select option, built from the state the action is legal in; every legal
  action of one moment gets a different label.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from engine.core import Action, Event
from engine.rise import turn
from engine.rise.actions import (
    Battle,
    ChooseOrder,
    ClearCubes,
    Discard,
    Keep,
    Pass,
    Pay,
    PlaceCube,
    Select,
    Skip,
    Stop,
    TakeCity,
    TakeEmpire,
    TakeProgress,
    TakeTerritory,
    Trade,
    UseTile,
)
from engine.rise.data import City, EmpireSide, Progress, RiseData, Territory, load_data
from engine.rise.state import EMPTY, RiseState
from engine.spec import SEAT_COLOURS as COLOURS

#: Every event type the engine emits (engine/rise/{phases,turn,flow,end}.py); each has a sentence.
EVENT_TYPES: frozenset[str] = frozenset(
    {
        "setup",
        "new_tiles",
        "disc_placed",
        "disc_removed",
        "paid",
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

PAY_NAMES: dict[str, tuple[str, str]] = {
    "gold": ("gold", "gold"),
    "cube": ("cube", "cubes"),
    "resource": ("resource disc", "resource discs"),
    "food": ("food", "food"),
    "vp": ("victory point", "victory points"),
}

ROMAN: tuple[str, ...] = ("", "I", "II", "III")

LABEL_MAX = 100


def player_name(p: int | None) -> str:
    """``Red (P1)`` for seat 0."""
    if p is None:
        return "nobody"
    return f"{COLOURS[p % len(COLOURS)]} (P{p + 1})"


def colour_name(p: int) -> str:
    """``Red`` for seat 0 (the short form for labels)."""
    return COLOURS[p % len(COLOURS)]


def count(n: int, one: str, many: str | None = None) -> str:
    """``1 cube``, ``3 cubes``."""
    return f"{n} {one if n == 1 else (many or one + 's')}"


def region_name(region: str, data: RiseData | None = None) -> str:
    data = data or load_data()
    found = data.regions.get(region)
    return found.name if found is not None else region


def tile_name(tile: str, data: RiseData | None = None) -> str:
    """The printed name of a progress, territory or city tile (``e3`` -> ``empire tile 3``)."""
    data = data or load_data()
    if tile in data.progress:
        return data.progress[tile].name
    if tile in data.territory:
        return data.territory[tile].name
    if tile in data.cities:
        return data.cities[tile].name
    if tile in data.empires:
        return f"empire tile {tile.removeprefix('e')}"
    return tile


def yields_text(food: int = 0, gold: int = 0, resources: int = 0, cubes: int = 0, vp: int = 0) -> str:
    """``+2 food, +1 cube, +1 VP`` (a negative number is an upkeep)."""
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


_SPECIAL_TEXT: dict[str, str] = {
    "printing": "B-turn discs cost nothing to remove",
    "navigation": "opens the New World and Far East",
    "iron_axe": "forests cost no food",
}
_FREE_TEXT: dict[str, str] = {
    "remove_cube": "free: remove a rival cube",
    "place_cube": "free: add a pool cube",
}


def progress_text(p: Progress) -> str:
    """What a progress tile does in a few words."""
    bits = [yields_text(p.food, p.gold, p.resources, p.cubes, p.vp)]
    if p.special:
        bits.append(_SPECIAL_TEXT.get(p.special, p.special))
    if p.free:
        bits.append(_FREE_TEXT.get(p.free, p.free))
    return "; ".join(b for b in bits if b) or "no yield"


def territory_text(t: Territory) -> str:
    return yields_text(t.food, t.gold, t.resources, t.cubes, t.vp) or "no yield"


def city_text(c: City) -> str:
    if c.wonder is not None:
        w = c.wonder
        price = (
            ", ".join(
                x
                for x in (
                    count(w.gold, "gold", "gold") if w.gold else "",
                    count(w.resources, "resource") if w.resources else "",
                    count(w.cubes, "cube") if w.cubes else "",
                )
                if x
            )
            or "nothing"
        )
        return f"wonder, pay {price} for {w.vp} VP at once"
    bits = [yields_text(c.food, c.gold, c.resources, c.cubes, c.vp) or "no yield"]
    if c.upkeep:
        bits.append(f"upkeep {count(c.upkeep, 'resource')}")
    return "; ".join(bits)


def battles_text(side: EmpireSide) -> str:
    """``battle: you lose 1, they lose 2`` (both rows when the side has two)."""
    rows = [f"you -{att} them -{dfn}" for att, dfn in side.battles]
    return ("battles: " if len(rows) > 1 else "battle: ") + ", ".join(rows)


def empire_text(side: EmpireSide) -> str:
    water = ", water" if side.water else ""
    return f"up to {count(side.regions, 'region')}{water}; {battles_text(side)}"


def fit(text: str, limit: int = LABEL_MAX) -> str:
    """``text`` cut to ``limit`` characters with an ellipsis."""
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


# -- events ------------------------------------------------------------------------------------------


def describe_event(event: Event) -> str | None:
    """One sentence for a Rise of Empires event, or None for bookkeeping nobody needs to read."""
    if event.type not in EVENT_TYPES:
        return None
    data = load_data()
    d = event.data
    who = player_name

    def p() -> str:
        return who(int(d["player"]))

    def tile(key: str = "tile") -> str:
        return tile_name(str(d[key]), data)

    def row() -> str:
        return ROW_NAMES.get(str(d["row"]), str(d["row"]))

    def setup() -> str:
        order: Sequence[int] = d["order"]
        return "The game begins. Turn order: " + ", ".join(who(x) for x in order) + "."

    def new_tiles() -> str:
        half = "A" if int(d["turn"]) % 2 == 1 else "B"
        flipped: Sequence[str] = d.get("flipped") or []
        retired: Sequence[str] = d.get("retired") or []
        out = (
            f"Game turn {d['turn']} (era {ROMAN[int(d['era'])]}, {half} turn) begins: "
            f"{count(len(flipped), 'new tile')} turned face up"
        )
        if retired:
            out += f", {count(len(retired), 'tile')} left the display"
        return out + "."

    def disc_placed() -> str:
        return f"{p()} puts a disc on the {row()} row (circle {int(d['circle']) + 1})."

    def disc_removed() -> str:
        cost = int(d["cost"])
        price = f"paying {cost} for the discs to its left" if cost else "at no cost"
        return f"{p()} takes back a disc from the {row()} row (circle {int(d['circle']) + 1}), {price}."

    def paid() -> str:
        one, _ = PAY_NAMES.get(str(d["what"]), (str(d["what"]), str(d["what"])))
        article = "a " if one in ("cube", "resource disc", "victory point") else "1 "
        return f"{p()} pays {article}{one}."

    def took_progress() -> str:
        price = int(d.get("price", 0))
        cost = f" for {count(price, 'gold', 'gold')}" if price else ""
        return f"{p()} takes the progress tile {tile()}{cost}."

    def took_city() -> str:
        price = int(d.get("price", 0))
        cost = f" for {count(price, 'gold', 'gold')}" if price else " for free"
        return f"{p()} builds the city of {tile()}{cost}."

    def traded() -> str:
        gets = []
        if int(d.get("gold", 0)):
            gets.append(count(int(d["gold"]), "gold", "gold"))
        if int(d.get("vp", 0)):
            gets.append(count(int(d["vp"]), "victory point"))
        return (
            f"{p()} trades {count(int(d['resources']), 'resource disc')} for "
            f"{' and '.join(gets) or 'nothing'}."
        )

    def battle() -> str:
        return (
            f"{p()} fights {who(int(d['target']))} in {region_name(str(d['region']), data)}: "
            f"the defender loses {count(int(d['defender_lost']), 'cube')}, "
            f"the attacker {count(int(d['attacker_lost']), 'cube')}."
        )

    def tile_used() -> str:
        where = region_name(str(d["region"]), data)
        target = int(d["target"])
        if target == EMPTY:
            return f"{p()} uses {tile()} to add a cube in {where}."
        return f"{p()} uses {tile()} to remove a cube of {who(target)} in {where}."

    def kept() -> str:
        why = str(d.get("why", ""))
        price = {
            "upkeep": " and pays its resource upkeep",
            "food_upkeep": " and will feed it",
            "keep_progress": " for 1 gold",
            "keep_city": " for a cube",
        }.get(why, "")
        return f"{p()} keeps {tile()}{price}."

    def discarded() -> str:
        why = " (it could not be paid for)" if d.get("forced") else ""
        return f"{p()} gives up {tile()}{why}."

    def food() -> str:
        change = int(d["change"])
        moved = (
            f"gains {change} food"
            if change > 0
            else (f"loses {-change} food" if change < 0 else "neither gains nor loses food")
        )
        out = f"{p()} {moved} and stands at {d['food']} on the food track"
        if int(d.get("lost_vp", 0)):
            out += f"; running short costs {count(int(d['lost_vp']), 'victory point')}"
        if int(d.get("gold", 0)):
            out += f"; the surplus over the top gives {count(int(d['gold']), 'gold', 'gold')}"
        return out + "."

    def income() -> str:
        gold, res, cubes = int(d["gold"]), int(d["resources"]), int(d["cubes"])
        got = ", ".join(
            x
            for x in (
                count(gold, "gold", "gold") if gold else "",
                count(res, "resource disc") if res else "",
                count(cubes, "cube") if cubes else "",
            )
            if x
        )
        return f"{p()} receives {got or 'no income'}."

    def victory_points() -> str:
        return f"{p()} scores {count(int(d['gained']), 'victory point')} ({d['total']} in all)."

    def era_end() -> str:
        removed: Mapping[str, Sequence[int]] = d.get("removed") or {}
        total = sum(sum(v) for v in removed.values())
        return (
            f"Era {ROMAN[int(d['era'])]} ends: half the cubes in every region go back to the stock "
            f"({count(total, 'cube')} in all)."
        )

    def game_over() -> str:
        scores: Sequence[int] = d["scores"]
        ranking: Sequence[int] = d.get("ranking") or sorted(range(len(scores)), key=lambda x: -scores[x])
        winner = ranking[0]
        return (
            f"The game is over: {who(winner)} wins with {scores[winner]}. Scores: "
            + ", ".join(f"{who(x)} {s}" for x, s in enumerate(scores))
            + "."
        )

    texts: dict[str, Callable[[], str]] = {
        "setup": setup,
        "new_tiles": new_tiles,
        "disc_placed": disc_placed,
        "disc_removed": disc_removed,
        "paid": paid,
        "took_progress": took_progress,
        "took_territory": lambda: f"{p()} takes a territory tile: {tile()}.",
        "took_city": took_city,
        "built_wonder": lambda: (
            f"{p()} builds the wonder {tile()} and scores {count(int(d['vp']), 'victory point')}."
        ),
        "traded": traded,
        "skipped": lambda: f"{p()} lets the {row()} action go.",
        "took_empire": lambda: f"{p()} takes {tile()}.",
        "cleared": lambda: f"{p()} takes all their cubes off the map.",
        "placed": lambda: f"{p()} places a cube in {region_name(str(d['region']), data)}.",
        "battle": battle,
        "tile_used": tile_used,
        "passed": lambda: f"{p()} can select no action and passes.",
        "kept": kept,
        "discarded": discarded,
        "food": food,
        "income": income,
        "victory_points": victory_points,
        "era_end": era_end,
        "turn_order_choosers": lambda: (
            "Turn order: choosing in the order " + ", ".join(who(x) for x in d["choosers"]) + "."
        ),
        "turn_order_chosen": lambda: (
            f"{p()} takes position {int(d['position']) + 1} on the turn order track."
        ),
        "final_bonus": lambda: (
            f"{p()} scores {count(int(d['vp']), 'victory point')} for leftover gold and resource discs."
        ),
        "game_over": game_over,
    }
    return texts[event.type]()


def describe_events(events: Sequence[Event], viewer: int | None) -> list[str]:
    """The sentences of the events ``viewer`` may see (None: a spectator), in order."""
    out: list[str] = []
    for event in events:
        if event.visible_to(viewer):
            line = describe_event(event)
            if line:
                out.append(line)
    return out


# -- labels for legal actions ------------------------------------------------------------------------


def _select_label(state: RiseState, data: RiseData, action: Select) -> str:
    name = ROW_NAMES.get(action.row, action.row)
    if state.b_turn:
        cost = (
            turn.removal_cost(state, data, action.player, action.row, action.circle)
            if action.row in state.display and 0 <= action.circle < len(state.display[action.row])
            else 0
        )
        price = "free" if cost == 0 else f"pay {cost}"
        return f"{name}: take back the disc in circle {action.circle + 1} — {price}"
    return f"{name}: place a disc (circle {action.circle + 1})"


def _stop_label(state: RiseState) -> str:
    task = state.task or {}
    stage = task.get("stage")
    if stage == "place":
        return "Done placing cubes" if task.get("placed") else "Place no cubes"
    if stage == "battle":
        return "No more battles" if task.get("battles") else "Fight no battle"
    return "End your action"


def _keep_label(state: RiseState, data: RiseData, tile: str, keep: bool) -> str:
    kind = str(state.pending[0]["kind"]) if state.pending else ""
    name = tile_name(tile, data)
    if not keep:
        return f"Give up {name}"
    if kind == "upkeep" and tile in data.cities:
        return f"Keep {name} (pay {count(data.cities[tile].upkeep, 'resource')})"
    if kind == "food_upkeep" and tile in data.cities:
        return f"Keep {name} (it eats {-data.cities[tile].food} food)"
    if kind == "keep_progress":
        return f"Keep {name} (1 gold)"
    if kind == "keep_city":
        return f"Keep {name} (1 cube)"
    return f"Keep {name}"


def action_label(state: RiseState, action: Action) -> str:
    """A short label for a button or select option, at most 100 characters.

    ``Empire: place a disc (circle 6)``, ``Trade: take back the disc in circle 3 — pay 2``,
    ``Empire tile 3 (era III): up to 3 regions, water; battles: you -1 them -2, you -2 them -2``,
    ``Place a cube in NE Africa``, ``Battle Blue in Near East: you -1, them -2``...
    """
    return fit(_label(state, action))


def _label(state: RiseState, action: Action) -> str:
    data = load_data()
    if isinstance(action, Select):
        return _select_label(state, data, action)
    if isinstance(action, Pay):
        one, _ = PAY_NAMES.get(action.what, (action.what, action.what))
        owed = int((state.task or {}).get("owed") or 0)
        left = f" ({owed} still owed)" if owed > 1 else ""
        return f"Pay 1 {one}{left}"
    if isinstance(action, TakeProgress):
        prog = data.progress[action.tile]
        price = turn.progress_price(state, data, action.tile)
        cost = f", {price} gold" if price else ""
        return f"{prog.name} (era {ROMAN[prog.era]}{cost}): {progress_text(prog)}"
    if isinstance(action, TakeTerritory):
        terr = data.territory[action.tile]
        return f"{terr.name}: {territory_text(terr)}"
    if isinstance(action, TakeCity):
        city = data.cities[action.tile]
        if city.wonder is not None:
            return f"{city.name}: {city_text(city)}"
        cost = f"{city.cost} gold" if city.cost else "free"
        return f"{city.name} ({cost}): {city_text(city)}"
    if isinstance(action, TakeEmpire):
        side = data.empires[action.tile].side(state.era)
        return f"Empire tile {action.tile.removeprefix('e')} (era {ROMAN[state.era]}): {empire_text(side)}"
    if isinstance(action, Trade):
        box = data.trade[action.box]
        gets = (
            " and ".join(
                x for x in (f"{box.gold} gold" if box.gold else "", f"{box.vp} VP" if box.vp else "") if x
            )
            or "nothing"
        )
        return f"Trade box {action.box.removeprefix('t')}: {count(box.resources, 'resource')} → {gets}"
    if isinstance(action, Skip):
        row = ROW_NAMES.get(str((state.task or {}).get("row") or ""), "this")
        return f"Skip the {row.lower()} action"
    if isinstance(action, ClearCubes):
        return f"First take your {count(state.on_map(action.player), 'cube')} off the map"
    if isinstance(action, PlaceCube):
        have = state.count(action.region, action.player)
        there = f" (you have {have})" if have else ""
        return f"Place a cube in {region_name(action.region, data)}{there}"
    if isinstance(action, Stop):
        return _stop_label(state)
    if isinstance(action, Battle):
        task = state.task or {}
        rows = data.empires[str(task["empire"])].side(state.era).battles if task.get("empire") else ()
        losses = ""
        if 0 <= action.row < len(rows):
            att, dfn = rows[action.row]
            losses = f": you -{att}, them -{dfn}"
        which = f" with row {action.row + 1}" if len(rows) > 1 else ""
        return f"Battle {colour_name(action.target)} in {region_name(action.region, data)}{which}{losses}"
    if isinstance(action, UseTile):
        name = tile_name(action.tile, data)
        where = region_name(action.region, data)
        if action.target == EMPTY:
            return f"{name}: add a cube in {where}"
        return f"{name}: remove a {colour_name(action.target)} cube in {where}"
    if isinstance(action, Keep):
        return _keep_label(state, data, action.tile, True)
    if isinstance(action, Discard):
        return _keep_label(state, data, action.tile, False)
    if isinstance(action, ChooseOrder):
        return f"Take position {action.position + 1} on the turn order track"
    if isinstance(action, Pass):
        return "Pass (no action can be selected)"
    return action.kind
