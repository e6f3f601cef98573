"""``/rise``: Rise of Empires on Discord. Interactions -> service calls; no rules here.

Lobbies are opened with ``/annals create ruleset:rise`` (2 to 5 seats); this
group plays them. Commands (every answer but ``board`` is ephemeral):

* ``play``: what you must decide now, with components:

  - choosing an action: a button per row of the action display you may use
    now. In A turns the disc goes into the row's rightmost free circle; in B
    turns the button removes your cheapest disc of that row and shows its
    price (a gold, cube, resource disc, food or VP per disc to its left;
    free with Printing). When the price can be paid in more than one way a
    select of the possible mixes comes first, and nothing happens until one
    is chosen; with one way only it is paid at once. Free progress tiles
    (Weapons, Railways...) are used from a select, before or after the action;
  - the row's own choice: a select of the legal tiles (progress, territory,
    city, empire) with their cost and effect, or of the open trade boxes; in B
    turns a button to skip the action;
  - after an empire tile: a region select, one cube at a time, with buttons to
    clear your cubes first and to stop; then battles from a select, one at a
    time, with a stop button;
  - keep or discard a tile (city upkeep, the end of an era), and the position
    on the turn order track, as buttons.

* ``status``: your stock (gold, resource discs, food, VP, cubes), your tiles
  and what the coming phases would pay you.
* ``board``: the board picture and the action display for everyone here.

Every component is a :class:`discord.ui.DynamicItem` whose custom_id carries
the game id and the seq it was built at (``rise:b:WHAT:GAME:SEQ[:ARG]`` for
buttons, ``rise:s:WHAT:GAME:SEQ[:ARG]`` for selects), so it works after a
restart and a stale one is refused politely.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.discord.base import MAX_OPTIONS, Interaction, Reply, clip
from bot.discord.game_group import (
    MAX_BUTTON,
    MAX_MESSAGE,
    Answer,
    GameGroup,
    GameItem,
    GameKit,
    answer_after,
    plural,
    price,
    seat_names,
    waiting_text,
    who,
    with_news,
)
from bot.models import Outcome
from bot.service import ServiceError
from engine.registry import get_game

if TYPE_CHECKING:
    from bot.discord.client import AnnalsBot

KIT = GameKit(ruleset="rise", group="rise", title="Rise of Empires", prefix="rise")
RULESET = KIT.ruleset
GROUP = KIT.group
PLAY = KIT.play
STALE = KIT.stale
MISSING = KIT.missing
SELECT_ID = KIT.component_id("s", ("tile", "trade", "mix", "pay", "place", "battle", "use"))
BUTTON_ID = KIT.component_id("b", ("row", "skip", "pass", "stop", "clear", "keep", "discard", "order"))

ROWS: tuple[str, ...] = ("progress", "territory", "city", "empire", "trade")
ROW_TITLES = {"progress": "Progress tile", "territory": "Territory tile", "city": "City tile",
              "empire": "Empire tile", "trade": "Trade"}
TILE_ROWS = ("progress", "territory", "city", "empire")
#: The ways of paying for a disc in B turns, in the engine's order, with their words.
PAYMENTS: tuple[tuple[str, str, str], ...] = (
    ("gold", "gold", "gold"), ("cube", "cube", "cubes"), ("resource", "resource disc", "resource discs"),
    ("food", "food", "food"), ("vp", "VP", "VP"))
ERAS = {1: "I", 2: "II", 3: "III"}
#: Events that only repeat what the mover chose (their reply already says it).
ECHOES = frozenset({"disc_placed", "disc_removed", "paid", "took_progress", "took_territory", "took_city",
                    "took_empire", "traded", "skipped", "passed", "placed", "cleared", "tile_used",
                    "kept", "turn_order_chosen"})
QUIET = frozenset({"your_turn", "game_started"})

Labels = Mapping[str, str]  # an action's JSON (sorted keys) -> the game's label for it


# == words ================================================================================
def _ordinal(n: int) -> str:
    """1 -> ``1st``, 2 -> ``2nd``... (positions on the turn order track: 1 to 5)."""
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n, 'th')}"


def region_name(view: Mapping[str, Any], region: str) -> str:
    info = ((view.get("map") or {}).get("regions") or {}).get(region) or {}
    return str(info.get("name") or region)


def _signed(n: int, one: str, many: str | None = None) -> str:
    word = one if abs(n) == 1 else (many or one + "s")
    return f"{n:+d} {word}"


def yields_text(tile: Mapping[str, Any]) -> str:
    """What a tile earns each game turn, e.g. ``+2 food, +1 cube, +1 VP`` (empty: nothing)."""
    parts = []
    for key, one, many in (("food", "food", "food"), ("gold", "gold", "gold"),
                           ("resources", "resource disc", "resource discs"), ("cubes", "cube", "cubes"),
                           ("vp", "VP", "VP")):
        n = int(tile.get(key) or 0)
        if n:
            parts.append(_signed(n, one, many))
    return ", ".join(parts)


_FREE = {"remove_cube": "free action: remove a rival cube where you have cubes",
         "place_cube": "free action: put a pool cube where you have cubes"}
_SPECIAL = {"printing": "B-turn discs cost nothing to remove", "iron_axe": "your Forests cost no food",
            "navigation": "opens the New World and the Far East in era II A"}


def progress_effect(tile: Mapping[str, Any]) -> str:
    parts = []
    each = yields_text(tile)
    if each:
        parts.append(f"each turn {each}")
    if tile.get("free"):
        parts.append(_FREE.get(str(tile["free"]), f"free action: {tile['free']}"))
    if tile.get("special"):
        parts.append(_SPECIAL.get(str(tile["special"]), str(tile["special"])))
    return "; ".join(parts) or "no effect"


def city_effect(tile: Mapping[str, Any]) -> str:
    wonder = tile.get("wonder")
    if wonder:
        cost = ", ".join(x for x in (plural(int(wonder["gold"]), "gold", "gold") if wonder["gold"] else "",
                                     plural(int(wonder["resources"]), "resource disc")
                                     if wonder["resources"] else "",
                                     plural(int(wonder["cubes"]), "pool cube") if wonder["cubes"] else "")
                         if x)
        return f"wonder: pay {cost or 'nothing'}, score {wonder['vp']} VP at once"
    parts = [f"each turn {yields_text(tile)}" if yields_text(tile) else ""]
    if int(tile.get("upkeep") or 0):
        parts.append(f"upkeep {plural(int(tile['upkeep']), 'resource disc')} a turn")
    return "; ".join(p for p in parts if p) or "no effect"


def empire_effect(tile: Mapping[str, Any], era: int) -> str:
    regions = int(tile.get("regions") or 0)
    water = ", water (Mediterranean, overseas)" if tile.get("water") else ""
    rows = [f"you lose {a}, they lose {d}" for a, d in tile.get("battles") or []]
    if not rows:
        fights = "no battle"
    elif len(rows) == 1 or era < 3:
        fights = f"battle: {rows[0]}" + (" (two battles from era III)" if len(rows) > 1 else "")
    else:
        fights = "two battles: " + " / ".join(rows)
    return f"{plural(regions, 'region')}{water}; {fights}"


def tile_name(view: Mapping[str, Any], tile: str) -> str:
    """The name of a tile anywhere in the view (face up or held by someone)."""
    tiles = view.get("tiles") or {}
    pools = [tiles.get(k) or [] for k in TILE_ROWS]
    for p in view.get("players_state") or []:
        pools += [p.get("progress") or [], p.get("territory") or [], p.get("cities") or [],
                  p.get("empires") or []]
    for pool in pools:
        for t in pool:
            if t.get("id") == tile:
                return str(t.get("name") or _empire_title(t))
    return tile


def _empire_title(tile: Mapping[str, Any]) -> str:
    water = " (water)" if tile.get("water") else ""
    return f"Empire tile {tile.get('id', '')}: {plural(int(tile.get('regions') or 0), 'region')}{water}"


def _stock_line(p: Mapping[str, Any]) -> str:
    return (f"{plural(int(p['gold']), 'gold', 'gold')}, {plural(int(p['resources']), 'resource disc')}, "
            f"{p['food']} food, {p['vp']} VP, {plural(int(p['pool']), 'cube')} in your pool "
            f"({p['stock']} in stock, {p['on_map']} on the map)")


def action_words(state: Any, action: Mapping[str, Any]) -> str:
    """The game's own short label for ``action`` (its ``action_label`` hook)."""
    game = get_game(RULESET)
    decoded = game.codec.decode(dict(action))
    return clip(str(game.action_label(state, decoded)), 100)


# == what you must decide now ==============================================================
def _me(view: Mapping[str, Any]) -> int:
    return int((view.get("you") or {}).get("player", 0))


PHASES = {"actions": "player actions", "food_upkeep": "city upkeep before the Food phase",
          "upkeep": "city upkeep after the Income phase", "era_end": "end of the era",
          "order": "turn order determination", "over": "the game is over"}


def _when(view: Mapping[str, Any]) -> str:
    return f"turn {view['turn']} of 6, era {ERAS.get(int(view['era']), view['era'])} {view['half']}"


def _phase(view: Mapping[str, Any]) -> str:
    return PHASES.get(str(view.get("phase")), str(view.get("phase")))


async def panel(bot: AnnalsBot, game_id: str, user_id: int) -> Answer:
    """The caller's decision now: a few lines and the components to make it (None: nothing to do)."""
    status, seq, legal, view = await KIT.snapshot(bot, game_id, user_id, started=True)
    names = seat_names(status)
    if not legal:
        return waiting_text(status, view, names, when=f"{_when(view)}, {_phase(view)}"), None
    me = _me(view)
    mine = view["players_state"][me]
    head = f"Game `{game_id}`, move {seq}, {_when(view)}."
    kinds = {str(a["kind"]) for a in legal}
    labels = {_key(a): text for a, text in zip(legal, await bot.labels(game_id, legal), strict=True)}
    if kinds & {"keep", "discard"}:
        return _decision_panel(game_id, seq, view, mine, head)
    if "order" in kinds:
        return _order_panel(game_id, seq, view, legal, names, head)
    task = view.get("task") or {}
    stage = str(task.get("stage"))
    if stage == "choose":
        return _choose_panel(game_id, seq, view, legal, labels, mine, head)
    if stage == "pay":
        return _pay_panel(game_id, seq, view, mine, int(task.get("owed") or 0), None, head)
    if stage == "act":
        return _act_panel(game_id, seq, view, legal, labels, mine, head)
    if stage == "place":
        return _place_panel(game_id, seq, view, legal, names, mine, head)
    if stage == "battle":
        return _battle_panel(game_id, seq, view, legal, labels, names, head)
    items = discord.ui.View(timeout=None)  # "after": free tiles after the action, or stop
    _add_use_select(items, game_id, seq, legal, labels, "Use a free tile now")
    items.add_item(RiseButton("stop", game_id, seq, None, "End my action", discord.ButtonStyle.secondary,
                              row=4))
    return f"{head}\nYour action is done; you may still use a free progress tile.", items


def _my_action_no(view: Mapping[str, Any]) -> int:
    return int(view.get("actions_done") or 0) // max(1, int(view.get("players") or 1)) + 1


def _key(action: Mapping[str, Any]) -> str:
    return json.dumps(action, sort_keys=True)


def _choose_panel(game_id: str, seq: int, view: Mapping[str, Any], legal: Sequence[Mapping[str, Any]],
                  labels: Labels, mine: Mapping[str, Any], head: str) -> Answer:
    me = _me(view)
    b_turn = view.get("half") == "B"
    lines = [f"{head} Your action {_my_action_no(view)} of {view.get('actions_per_turn', 6)}.",
             f"You have {_stock_line(mine)}."]
    if b_turn:
        printing = any(t.get("special") == "printing" for t in mine.get("progress") or [])
        lines.append("B turn: take one of your discs back and do its action (or skip it). You pay one gold, "
                     "cube, resource disc, food or VP for each disc to its left"
                     + (" - but you hold Printing: removing is free." if printing else ".")
                     + " A button takes back your cheapest disc of its row.")
    else:
        lines.append("A turn: your disc goes into the rightmost free circle of a row and the action is done "
                     "at once.")
    selects = [a for a in legal if a["kind"] == "select"]
    usable = {str(a["row"]) for a in selects}
    costs = view.get("removal_costs") or {}
    items = discord.ui.View(timeout=None)
    for row in ROWS:
        circles = list(((view.get("display") or {}).get(row) or {}).get("circles") or [])
        if b_turn:
            own = [i for i, c in enumerate(circles) if c == me]
            prices = [int((costs.get(row) or [0] * len(circles))[i] or 0) for i in own]
            if not own:
                state = "no disc of yours"
            else:
                state = ("your discs cost " if len(own) > 1 else "your disc costs ") + \
                    ", ".join(str(p) if p else "nothing" for p in prices)
                if row not in usable:
                    state += " - you cannot pay for it"
        else:
            free = sum(1 for c in circles if c == -1)
            state = f"{free} of {len(circles)} circles free" if free else "full"
            if row not in usable and free:
                state += " - not possible for you now"
        lines.append(f"- {ROW_TITLES[row]}: {state}")
    for row in ROWS:
        if row not in usable:
            continue
        if b_turn:
            circle = min(int(a["circle"]) for a in selects if a["row"] == row)
            price = int((costs.get(row) or [])[circle] or 0)
            label = f"{ROW_TITLES[row]} · {_unit_price(price)}"
        else:
            label = ROW_TITLES[row]
        items.add_item(RiseButton("row", game_id, seq, row, clip(label, MAX_BUTTON),
                                  discord.ButtonStyle.primary, row=0 if ROWS.index(row) < 3 else 1))
    if any(a["kind"] == "pass" for a in legal):
        lines.append("No action is possible for you: let this one go by.")
        items.add_item(RiseButton("pass", game_id, seq, None, "Let this action go by",
                                  discord.ButtonStyle.secondary, row=1))
    if any(a["kind"] == "use" for a in legal):
        lines.append("You may first use a free progress tile (list below).")
        _add_use_select(items, game_id, seq, legal, labels, "Use a free tile first")
    return clip("\n".join(lines), MAX_MESSAGE), items


def _unit_price(n: int) -> str:
    """A B-turn removal price: ``free`` or ``costs 2`` (units of the player's choice)."""
    return "free" if n == 0 else f"costs {n}"


def _add_use_select(items: discord.ui.View, game_id: str, seq: int, legal: Sequence[Mapping[str, Any]],
                    labels: Labels, placeholder: str) -> None:
    """The free progress tiles' uses (Weapons, Railways...), labelled by the game."""
    uses = [a for a in legal if a["kind"] == "use"]
    if not uses:
        return
    options = [discord.SelectOption(label=clip(labels.get(_key(a), str(a["tile"])), 100),
                                    value=f"{a['tile']}:{a['region']}:{int(a['target'])}")
               for a in uses[:MAX_OPTIONS]]
    items.add_item(RiseSelect("use", game_id, seq, None, options, placeholder, row=3))


def payment_mixes(have: Mapping[str, int], owed: int, limit: int = MAX_OPTIONS + 1) -> list[list[str]]:
    """The ways of paying ``owed`` units from ``have`` (payment -> how many), at most ``limit`` of them.

    Each way is the list of units in the engine's payment order, most of the
    earlier kinds first (all gold, then gold and a cube, ...).
    """
    kinds = [k for k, _, _ in PAYMENTS]
    out: list[list[str]] = []

    def walk(i: int, left: int, taken: list[str]) -> None:
        if len(out) >= limit:
            return
        if left == 0:
            out.append(taken[:])
            return
        if i == len(kinds):
            return
        for n in range(min(left, int(have.get(kinds[i], 0))), -1, -1):
            walk(i + 1, left - n, taken + [kinds[i]] * n)

    walk(0, owed, [])
    return out


def _holdings(p: Mapping[str, Any]) -> dict[str, int]:
    return {"gold": int(p["gold"]), "cube": int(p["pool"]), "resource": int(p["resources"]),
            "food": int(p["food"]), "vp": int(p["vp"])}


def mix_text(units: Sequence[str]) -> str:
    """``['gold', 'gold', 'food']`` -> ``2 gold + 1 food``."""
    parts = []
    for key, one, many in PAYMENTS:
        n = units.count(key)
        if n:
            parts.append(f"{n} {one if n == 1 else many}")
    return " + ".join(parts) or "nothing"


def _left_after(have: Mapping[str, int], units: Sequence[str]) -> str:
    words = {k: many for k, _, many in PAYMENTS}
    words["gold"] = "gold"
    return "leaves " + ", ".join(f"{have[k] - units.count(k)} {words[k]}" for k, _, _ in PAYMENTS
                                 if units.count(k))


def _pay_panel(game_id: str, seq: int, view: Mapping[str, Any], mine: Mapping[str, Any], owed: int,
               row: str | None, head: str) -> Answer:
    """How to pay ``owed`` units: a select of whole mixes, or (too many mixes) one unit at a time.

    ``row`` set: the disc is not removed yet (the mix select removes it, then pays);
    None: it is removed and the payment is under way.
    """
    have = _holdings(mine)
    mixes = payment_mixes(have, owed)
    items = discord.ui.View(timeout=None)
    what = f"Removing your disc from the {ROW_TITLES[row].lower()} row" if row else "Your disc is removed; it"
    verb = "costs" if row else "still costs"
    text = (f"{head}\n{what} {verb} {owed}: one gold, cube, resource disc, food or VP for each disc to its "
            f"left. You have {_stock_line(mine)}.")
    if len(mixes) <= MAX_OPTIONS:
        options = [discord.SelectOption(label=clip(f"Pay {mix_text(m)}", 100), value=",".join(m),
                                        description=clip(_left_after(have, m), 100)) for m in mixes]
        items.add_item(RiseSelect("mix", game_id, seq, row or "owed", options, "How you pay"))
        return text + "\nChoose how you pay:", items
    options = [discord.SelectOption(label=f"Pay 1 {one}", value=key,
                                    description=f"you have {have[key]}")
               for key, one, _ in PAYMENTS if have[key] > 0]
    items.add_item(RiseSelect("pay", game_id, seq, None, options, "Pay one unit"))
    return text + "\nPay one unit at a time:", items


def _act_panel(game_id: str, seq: int, view: Mapping[str, Any], legal: Sequence[Mapping[str, Any]],
               labels: Labels, mine: Mapping[str, Any], head: str) -> Answer:
    task = view.get("task") or {}
    row = str(task.get("row"))
    b_turn = view.get("half") == "B"
    items = discord.ui.View(timeout=None)
    skip = any(a["kind"] == "skip" for a in legal)
    lines = [head]
    chosen = [a for a in legal if a["kind"] == row]
    if row == "trade":
        lines.append(f"Trade: put resource discs into a free box of this era's trade track "
                     f"(you have {plural(int(mine['resources']), 'resource disc')}).")
        boxes = {str(b["id"]): b for b in view.get("trade") or []}
        options = []
        for a in chosen:
            box = boxes.get(str(a["box"])) or {}
            gain = plural(int(box.get("gold") or 0), "gold", "gold") if box.get("gold") else \
                f"{box.get('vp', 0)} VP"
            spend = plural(int(box.get("resources") or 0), "resource disc")
            options.append(discord.SelectOption(label=clip(labels.get(_key(a), str(a["box"])), 100),
                                                value=str(a["box"]),
                                                description=clip(f"{spend} → {gain}", 100)))
        if options:
            items.add_item(RiseSelect("trade", game_id, seq, None, options, "The trade box"))
    else:
        lines.append(_act_line(row, mine))
        offered = {str(t["id"]): t for t in (view.get("tiles") or {}).get(row) or []}
        options = [_tile_option(view, row, offered.get(str(a["tile"])) or {"id": a["tile"]},
                                labels.get(_key(a)))
                   for a in chosen]
        for page in range(min(4, (len(options) + MAX_OPTIONS - 1) // MAX_OPTIONS)):
            part = options[page * MAX_OPTIONS:(page + 1) * MAX_OPTIONS]
            placeholder = f"Choose the {row} tile" + (f" ({page + 1})" if len(options) > MAX_OPTIONS else "")
            items.add_item(RiseSelect("tile", game_id, seq, str(page), part, placeholder, row=page))
    if not chosen:
        lines.append("Nothing can be chosen in this row now.")
    if skip:
        lines.append("B turn: you may also do nothing with this action (what you paid stays paid).")
        items.add_item(RiseButton("skip", game_id, seq, None, "Skip the action",
                                  discord.ButtonStyle.secondary, row=4))
    elif b_turn and not chosen:
        lines.append(f"Use `{PLAY}` again.")
    return clip("\n".join(lines), MAX_MESSAGE), items


def _act_line(row: str, mine: Mapping[str, Any]) -> str:
    gold = plural(int(mine["gold"]), "gold", "gold")
    if row == "progress":
        return (f"Take a progress tile (1 gold if from the previous era, 2 for an era I tile in era III; "
                f"no duplicates). You have {gold}.")
    if row == "territory":
        return "Take a territory tile."
    if row == "city":
        return (f"Take a city tile, paying its cost in gold (wonders: gold, resource discs and pool cubes, "
                f"scored at once). You have {gold}, {plural(int(mine['resources']), 'resource disc')}, "
                f"{plural(int(mine['pool']), 'pool cube')}.")
    return (f"Take an empire tile, then place cubes from your pool ({int(mine['pool'])}) and fight battles "
            "if you wish.")


def _tile_option(view: Mapping[str, Any], row: str, tile: Mapping[str, Any],
                 game_label: str | None) -> discord.SelectOption:
    """A tile in a select: the game's label (name, price, effect), and the cost and effect spelt out."""
    tid = str(tile.get("id"))
    if row == "progress":
        label = f"{tile.get('name', tid)} (era {ERAS.get(int(tile.get('era') or 1), '?')})"
        desc = f"price {price(int(tile.get('price') or 0), 'gold', 'gold')}; {progress_effect(tile)}"
    elif row == "territory":
        label = str(tile.get("name", tid))
        desc = f"no cost; each turn {yields_text(tile) or 'nothing'}"
    elif row == "city":
        label = str(tile.get("name", tid))
        if tile.get("wonder"):
            desc = city_effect(tile)
        else:
            desc = f"price {price(int(tile.get('cost') or 0), 'gold', 'gold')}; {city_effect(tile)}"
    else:
        label = _empire_title(tile)
        desc = empire_effect(tile, int(view.get("era") or 1))
    return discord.SelectOption(label=clip(game_label or label, 100), value=tid, description=clip(desc, 100))


def _cube_counts(view: Mapping[str, Any], region: str, names: Mapping[int, str], me: int) -> str:
    counts = list(((view.get("map") or {}).get("cubes") or {}).get(region) or [])
    parts = [f"{'you' if p == me else who(names, p)} {n}" for p, n in enumerate(counts) if n]
    return ", ".join(parts) or "empty"


def _place_panel(game_id: str, seq: int, view: Mapping[str, Any], legal: Sequence[Mapping[str, Any]],
                 names: Mapping[int, str], mine: Mapping[str, Any], head: str) -> Answer:
    me = _me(view)
    task = view.get("task") or {}
    side = task.get("side") or {}
    placed = [region_name(view, str(r)) for r in task.get("placed") or []]
    regions = int(side.get("regions") or 0)
    lines = [head,
             f"Your empire tile lets you place cubes in {plural(regions, 'region')}"
             + (" (water)" if side.get("water") else "") + f"; {plural(int(mine['pool']), 'cube')} "
             f"left in your pool. Regions so far: {', '.join(placed) or 'none'}.",
             "Place one cube at a time; stop when you are done (then come the battles)."]
    items = discord.ui.View(timeout=None)
    options = []
    regions_info = (view.get("map") or {}).get("regions") or {}
    for a in legal:
        if a["kind"] != "place":
            continue
        region = str(a["region"])
        info = regions_info.get(region) or {}
        standard = info.get("standard") or [0, 0]
        desc = f"now: {_cube_counts(view, region, names, me)}; VP {standard[0]}/{standard[1]}"
        gives = yields_text(info.get("yields") or {})
        if gives:
            desc += f"; control gives {gives}"
        options.append(discord.SelectOption(label=clip(region_name(view, region), 100), value=region,
                                            description=clip(desc, 100)))
    if options:
        items.add_item(RiseSelect("place", game_id, seq, None, options, "Place a cube in"))
    else:
        lines.append("You cannot place any more cubes.")
    if any(a["kind"] == "clear" for a in legal):
        items.add_item(RiseButton("clear", game_id, seq, None, "Clear my cubes from the map first",
                                  discord.ButtonStyle.danger, row=4))
    items.add_item(RiseButton("stop", game_id, seq, None, "Stop placing", discord.ButtonStyle.secondary,
                              row=4))
    return clip("\n".join(lines), MAX_MESSAGE), items


def _battle_panel(game_id: str, seq: int, view: Mapping[str, Any], legal: Sequence[Mapping[str, Any]],
                  labels: Labels, names: Mapping[int, str], head: str) -> Answer:
    me = _me(view)
    task = view.get("task") or {}
    rows = (task.get("side") or {}).get("battles") or []
    fought = [f"{region_name(view, str(r))} (row {int(i) + 1})" for r, i in task.get("battles") or []]
    lines = [head, "Battles: choose one region where you and another player have cubes, one battle at a time"
             + (" (era III: a second battle in another region, with the other row)." if len(rows) > 1
                and int(view.get("era") or 1) >= 3 else ".")]
    if fought:
        lines.append("Fought so far: " + ", ".join(fought) + ".")
    cubes = (view.get("map") or {}).get("cubes") or {}
    options = []
    for a in legal:
        if a["kind"] != "battle":
            continue
        region, target, row = str(a["region"]), int(a["target"]), int(a["row"])
        att, dfn = rows[row] if row < len(rows) else (0, 0)
        counts = cubes.get(region) or []
        theirs = int(counts[target]) if target < len(counts) else 0
        ours = int(counts[me]) if me < len(counts) else 0
        label = f"Attack {who(names, target)} in {region_name(view, region)}"
        if len(rows) > 1 and int(view.get("era") or 1) >= 3:
            label += f" (row {row + 1})"
        label = labels.get(_key(a), label)  # the game's own words when it has them
        desc = (f"they lose {min(dfn, theirs)} of {theirs}, you lose {min(att, ours)} of {ours}")
        options.append(discord.SelectOption(label=clip(label, 100), value=f"{region}:{target}:{row}",
                                            description=clip(desc, 100)))
    items = discord.ui.View(timeout=None)
    if options:
        items.add_item(RiseSelect("battle", game_id, seq, None, options[:MAX_OPTIONS], "Fight a battle"))
    items.add_item(RiseButton("stop", game_id, seq, None, "No (more) battles", discord.ButtonStyle.secondary,
                              row=4))
    return clip("\n".join(lines), MAX_MESSAGE), items


_DECISIONS = {
    "food_upkeep": ("{name} costs food each Food phase: keep it (the Food phase counts it) or return it.",
                    "Keep it", "Return it"),
    "upkeep": ("{name} needs its upkeep of {upkeep} now: pay it or return the tile.",
               "Keep it (pay {upkeep})", "Return it"),
    "keep_progress": ("End of the era: keep {name} for 1 gold or return it.",
                      "Keep it (1 gold)", "Return it"),
    "keep_city": ("End of the era: keep {name} for 1 cube from your pool or return it.",
                  "Keep it (1 pool cube)", "Return it"),
}


def _decision_panel(game_id: str, seq: int, view: Mapping[str, Any], mine: Mapping[str, Any],
                    head: str) -> Answer:
    pending = (view.get("pending") or [{}])[0]
    kind = str(pending.get("kind"))
    tile = str(pending.get("tile"))
    name = tile_name(view, tile)
    held: Mapping[str, Any] = next((t for t in mine.get("cities") or [] if t.get("id") == tile), {})
    upkeep = plural(int(held.get("upkeep") or 0), "resource disc")
    question, keep, discard = _DECISIONS.get(kind, ("Keep {name} or return it?", "Keep it", "Return it"))
    text = (f"{head}\n{question.format(name=f'**{name}**', upkeep=upkeep)}\n"
            f"You have {_stock_line(mine)}.")
    items = discord.ui.View(timeout=None)
    items.add_item(RiseButton("keep", game_id, seq, tile, clip(keep.format(upkeep=upkeep), MAX_BUTTON),
                              discord.ButtonStyle.primary, row=0))
    items.add_item(RiseButton("discard", game_id, seq, tile, discard, discord.ButtonStyle.danger, row=0))
    return clip(text, MAX_MESSAGE), items


def _order_panel(game_id: str, seq: int, view: Mapping[str, Any], legal: Sequence[Mapping[str, Any]],
                 names: Mapping[int, str], head: str) -> Answer:
    choice = view.get("order_choice") or {}
    taken = [f"{_ordinal(i + 1)}: {who(names, int(s))}" for i, s in enumerate(choice.get("positions") or [])
             if int(s) >= 0]
    lines = [head, "Turn order for the next game turn: the player with the fewest victory points chooses "
             "first. Choose your position on the turn order track."]
    if taken:
        lines.append("Taken: " + ", ".join(taken) + ".")
    items = discord.ui.View(timeout=None)
    for a in legal:
        if a["kind"] == "order":
            pos = int(a["position"])
            items.add_item(RiseButton("order", game_id, seq, str(pos), f"Play {_ordinal(pos + 1)}",
                                      discord.ButtonStyle.primary, row=0))
    return "\n".join(lines), items


# == after a move ===========================================================================
async def after_move(bot: AnnalsBot, game_id: str, user_id: int, said: str, out: Outcome) -> Answer:
    """What the mover is told: what they did, what happened meanwhile, and their next decision."""
    from bot.discord.transport import describe

    me = next((s.seat for s in out.status.seats if s.user_id == user_id), None)
    news: list[str] = []
    for notice in out.notices:
        if not notice.is_public or notice.type in QUIET:
            continue
        if notice.type in ECHOES and notice.data.get("player") == me:
            continue  # their own choices are in ``said``
        line = describe(notice, out.status.ruleset)
        if line and line not in news:
            news.append(line)
    names = seat_names(out.status)
    nxt = ", ".join(who(names, p) for p in out.status.actors)
    return await answer_after(bot, game_id, user_id, with_news(said, news), out, panel,
                              over="\nThe game is over: the final scores are in the game's thread.",
                              idle=f"\nYour move is done; now waiting for {nxt or 'nobody'}.")


# == components ============================================================================
async def submit_chain(bot: AnnalsBot, game_id: str, user_id: int, seq: int,
                       actions: Sequence[Mapping[str, Any]]) -> Answer:
    """Submit ``actions`` in order (each at the seq the previous one left); answer with the next decision.

    Used for a B-turn removal and its payment: they are separate engine steps
    but one decision of the player. Should a later step be refused, what went
    through stands and the answer says where things are.
    """
    _, state = await bot.service.engine_state(game_id)
    words = [action_words(state, actions[0])]
    out = await bot.service.submit(game_id, user_id, actions[0], seq)
    for action in actions[1:]:
        if user_id not in out.status.waiting_for:
            break
        _, state = await bot.service.engine_state(game_id)
        try:
            words.append(action_words(state, action))
            out = await bot.service.submit(game_id, user_id, action, out.status.seq)
        except ServiceError as exc:
            words.append(f"then stopped: {exc.message}")
            break
    return await after_move(bot, game_id, user_id, "Done: " + "; ".join(words) + ".", out)


async def submit_one(bot: AnnalsBot, game_id: str, user_id: int, seq: int,
                     pick: Callable[[Mapping[str, Any]], bool], missing: str = MISSING) -> Answer:
    """Submit the caller's one legal action that ``pick`` accepts; answer with the next decision."""
    _, action = await KIT.pick(bot, game_id, user_id, seq, pick)
    if action is None:
        return missing, None
    return await submit_chain(bot, game_id, user_id, seq, [action])


class RiseSelect(GameItem, discord.ui.DynamicItem[discord.ui.Select[Any]], template=SELECT_ID.pattern):
    """A select of one Rise of Empires decision (``what``): a tile, a box, a payment, a region, a battle."""

    kit = KIT
    noun = "select"

    def __init__(self, what: str, game_id: str, seq: int, arg: str | None = None,
                 options: list[discord.SelectOption] | None = None, placeholder: str = "Choose",
                 row: int | None = None) -> None:
        self.what = what
        self.game_id = game_id
        self.seq = seq
        self.arg = arg
        super().__init__(KIT.select(what, game_id, seq, arg, options, placeholder, row))

    @classmethod
    async def from_custom_id(cls, interaction: Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> RiseSelect:
        return cls(match["what"], match["game"], int(match["seq"]), match["arg"])

    async def work(self, bot: AnnalsBot, user_id: int) -> Answer:
        values = self.item.values
        value = values[0] if values else ""
        gid, seq, what = self.game_id, self.seq, self.what
        if what == "tile":
            return await submit_one(bot, gid, user_id, seq,
                                    lambda a: a["kind"] in TILE_ROWS and a.get("tile") == value)
        if what == "trade":
            return await submit_one(bot, gid, user_id, seq,
                                    lambda a: a["kind"] == "trade" and a.get("box") == value)
        if what == "place":
            return await submit_one(bot, gid, user_id, seq,
                                    lambda a: a["kind"] == "place" and a.get("region") == value)
        if what == "pay":
            return await submit_one(bot, gid, user_id, seq,
                                    lambda a: a["kind"] == "pay" and a.get("what") == value)
        if what == "battle":
            return await submit_one(bot, gid, user_id, seq, lambda a: a["kind"] == "battle"
                                    and f"{a.get('region')}:{a.get('target')}:{a.get('row')}" == value)
        if what == "use":
            return await submit_one(bot, gid, user_id, seq, lambda a: a["kind"] == "use"
                                    and f"{a.get('tile')}:{a.get('region')}:{a.get('target')}" == value)
        return await self._pay_mix(bot, user_id, value)

    async def _pay_mix(self, bot: AnnalsBot, user_id: int, value: str) -> Answer:
        """Remove the disc (unless already removed: ``arg`` "owed") and pay the chosen mix, unit by unit."""
        gid, seq = self.game_id, self.seq
        _, legal = await KIT.current(bot, gid, user_id, seq)
        units = [u for u in value.split(",") if u]
        if any(u not in {k for k, _, _ in PAYMENTS} for u in units):
            return MISSING, None
        view = await bot.service.view(gid, user_id)
        have = _holdings(view["players_state"][_me(view)])
        if any(units.count(k) > have[k] for k in have):
            return "You do not have all of that to pay with; choose another way.", None
        first: list[dict[str, Any]] = []
        if self.arg and self.arg != "owed":
            selects = [a for a in legal if a["kind"] == "select" and a.get("row") == self.arg]
            if not selects:
                return MISSING, None
            first = [min(selects, key=lambda a: int(a["circle"]))]
            owed = int((view.get("removal_costs") or {}).get(self.arg, [])[int(first[0]["circle"])] or 0)
        else:
            if not any(a["kind"] == "pay" for a in legal):
                return MISSING, None
            owed = int((view.get("task") or {}).get("owed") or 0)
        if len(units) != owed:
            return f"That pays {len(units)}, but {owed} is owed; use `{PLAY}` again.", None
        pays = [{"kind": "pay", "player": _me(view), "what": u} for u in units]
        return await submit_chain(bot, gid, user_id, seq, [*first, *pays])


class RiseButton(GameItem, discord.ui.DynamicItem[discord.ui.Button[Any]], template=BUTTON_ID.pattern):
    """A button of one Rise of Empires decision: a display row, skip, pass, stop, clear, keep, a position."""

    kit = KIT
    noun = "button"

    def __init__(self, what: str, game_id: str, seq: int, arg: str | None = None, label: str = "Choose",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary, *, disabled: bool = False,
                 row: int | None = None) -> None:
        self.what = what
        self.game_id = game_id
        self.seq = seq
        self.arg = arg
        super().__init__(KIT.button(what, game_id, seq, arg, label, style, disabled=disabled, row=row))

    @classmethod
    async def from_custom_id(cls, interaction: Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> RiseButton:
        return cls(match["what"], match["game"], int(match["seq"]), match["arg"])

    async def work(self, bot: AnnalsBot, user_id: int) -> Answer:
        gid, seq, arg, what = self.game_id, self.seq, self.arg, self.what
        if what == "row":
            return await self._choose_row(bot, user_id)
        if what in ("keep", "discard"):
            return await submit_one(bot, gid, user_id, seq,
                                    lambda a: a["kind"] == what and a.get("tile") == arg)
        if what == "order":
            return await submit_one(bot, gid, user_id, seq,
                                    lambda a: a["kind"] == "order" and str(a.get("position")) == arg)
        return await submit_one(bot, gid, user_id, seq, lambda a: a["kind"] == what)

    async def _choose_row(self, bot: AnnalsBot, user_id: int) -> Answer:
        """Choose a row: A turn, place the disc; B turn, remove the cheapest own disc of the row and pay.

        Removing the leftmost of your discs in a row always costs least, now and
        for the discs you leave (each disc left of another adds to its price),
        so the button takes that one.
        """
        gid, seq, row = self.game_id, self.seq, str(self.arg)
        _, legal = await KIT.current(bot, gid, user_id, seq)
        selects = [a for a in legal if a["kind"] == "select" and a.get("row") == row]
        if not selects:
            return f"You cannot choose the {ROW_TITLES.get(row, row).lower()} row now.", None
        action = min(selects, key=lambda a: int(a["circle"]))
        view = await bot.service.view(gid, user_id)
        if view.get("half") != "B":
            return await submit_chain(bot, gid, user_id, seq, [action])
        owed = int(((view.get("removal_costs") or {}).get(row) or [])[int(action["circle"])] or 0)
        if owed == 0:
            return await submit_chain(bot, gid, user_id, seq, [action])
        mine = view["players_state"][_me(view)]
        mixes = payment_mixes(_holdings(mine), owed)
        if len(mixes) == 1:  # one way to pay: no question to ask
            pays = [{"kind": "pay", "player": action["player"], "what": u} for u in mixes[0]]
            return await submit_chain(bot, gid, user_id, seq, [action, *pays])
        if len(mixes) > MAX_OPTIONS:  # too many mixes for one list: remove now, then pay unit by unit
            return await submit_chain(bot, gid, user_id, seq, [action])
        head = f"Game `{gid}`, move {seq}, {_when(view)}."
        return _pay_panel(gid, seq, view, mine, owed, row, head)


# == status and board ========================================================================
def stock_text(view: Mapping[str, Any], me: int, game_id: str, names: Mapping[int, str]) -> str:
    """The caller's stock, tiles, regions and what the coming phases would pay them."""
    p = view["players_state"][me]
    lines = [f"Your stock in game `{game_id}` ({_when(view)}, {_phase(view)}):",
             f"{_stock_line(p)}."]
    order = [int(s) for s in view.get("order") or []]
    if me in order:
        lines.append(f"Turn order: {_ordinal(order.index(me) + 1)} of {len(order)}.")
    used = set(p.get("used") or [])
    progress = [f"{t['name']}" + (" (used this turn)" if t["id"] in used else "") + f": {progress_effect(t)}"
                for t in p.get("progress") or []]
    lines.append("Progress tiles: " + ("; ".join(progress) if progress else "none"))
    terr: dict[str, int] = {}
    for t in p.get("territory") or []:
        terr[str(t["name"])] = terr.get(str(t["name"]), 0) + 1
    lines.append("Territory tiles: " + (", ".join(f"{n} x{c}" if c > 1 else n for n, c in terr.items())
                                        or "none"))
    cities = [f"{t['name']}: {city_effect(t)}" for t in p.get("cities") or []]
    lines.append("City tiles: " + ("; ".join(cities) if cities else "none"))
    if p.get("empires"):
        lines.append("Empire tiles this turn: " + ", ".join(_empire_title(t) for t in p["empires"]))
    cubes = (view.get("map") or {}).get("cubes") or {}
    control = (view.get("map") or {}).get("control") or {}
    held = []
    for region, counts in cubes.items():
        if me < len(counts) and counts[me]:
            rank = control.get(region) or {}
            where = " (first)" if me in (rank.get("first") or []) else \
                " (second)" if me in (rank.get("second") or []) else ""
            held.append(f"{region_name(view, region)} {counts[me]}{where}")
    lines.append("Your cubes on the map: " + (", ".join(held) or "none"))
    y = (view.get("yields") or [{}] * (me + 1))[me] if me < len(view.get("yields") or []) else {}
    if y:
        lines.append("This turn's phases would pay you: " + (yields_text(y) or "nothing") + ".")
    return clip("\n".join(lines), MAX_MESSAGE)


def display_text(view: Mapping[str, Any], names: Mapping[int, str]) -> str:
    """The action display and the tracks, in words (the picture's companion)."""
    when = _when(view)
    lines = [f"{when[0].upper()}{when[1:]}, {_phase(view)}."]
    for row in ROWS:
        circles = list(((view.get("display") or {}).get(row) or {}).get("circles") or [])
        discs = [who(names, int(c)).split(" (")[0] for c in circles if int(c) >= 0]
        lines.append(f"{ROW_TITLES[row]}: {len(discs)} of {len(circles)} circles taken"
                     + (f" ({', '.join(discs)})" if discs else ""))
    order = [who(names, int(s)) for s in view.get("order") or []]
    lines.append("Turn order: " + ", ".join(order))
    lines.append("VP and food: " + ", ".join(f"{who(names, int(p['seat']))} {p['vp']} VP, {p['food']} food"
                                            for p in view.get("players_state") or []))
    return "\n".join(lines)


class RiseGroup(GameGroup):
    """``/rise ...``: play Rise of Empires (lobbies are opened with ``/annals create ruleset:rise``)."""

    kit = KIT

    def __init__(self, bot: AnnalsBot) -> None:
        super().__init__(bot, "Play Rise of Empires: actions, tiles, cubes and battles")

    @app_commands.command(name="play", description="Your decision now, with buttons and lists (only for you)")
    @app_commands.describe(game="The game (default: your Rise of Empires game here)")
    async def play(self, interaction: Interaction, game: str | None = None) -> None:
        async def work() -> Reply:
            gid = await self._own_game(interaction, game)
            text, items = await panel(self.bot, gid, interaction.user.id)
            return Reply(text, view=items)
        await self._answer(interaction, work, ephemeral=True)

    @app_commands.command(name="status",
                          description="Your gold, resources, food, VP, cubes and tiles (only for you)")
    @app_commands.describe(game="The game (default: your Rise of Empires game here)")
    async def status(self, interaction: Interaction, game: str | None = None) -> None:
        async def work() -> Reply:
            gid = await self._own_game(interaction, game, finished_ok=True)
            st = await self.bot.service.status(gid)
            if st.status == "lobby":
                return Reply(f"Game `{gid}` has not started yet.")
            view = await self.bot.service.view(gid, interaction.user.id)
            you = view.get("you")
            if not you:
                return Reply(f"You have no seat in game `{gid}`.")
            return Reply(stock_text(view, int(you["player"]), gid, seat_names(st)))
        await self._answer(interaction, work, ephemeral=True)

    @app_commands.command(name="board", description="Show the board and the action display to everyone here")
    @app_commands.describe(game="The game (default: your Rise of Empires game here)")
    async def board(self, interaction: Interaction, game: str | None = None) -> None:
        async def work() -> Reply:
            gid = await self._own_game(interaction, game, finished_ok=True)
            st = await self.bot.service.status(gid)
            if st.status == "lobby":
                return Reply(f"Game `{gid}` has not started yet.")
            view = await self.bot.service.view(gid, None)  # public: a spectator's view
            text = f"Game `{gid}` after move {view.get('seq', 0)}.\n" + display_text(view, seat_names(st))
            picture = await self._board_file(gid, view)
            files = [picture] if picture is not None else []
            return Reply(clip(text, MAX_MESSAGE), files=files)
        await self._answer(interaction, work, ephemeral=False)

    play.autocomplete("game")(GameGroup.own_game_autocomplete)
    status.autocomplete("game")(GameGroup.own_game_autocomplete)
    board.autocomplete("game")(GameGroup.own_game_autocomplete)


def install(bot: AnnalsBot) -> None:
    """Add ``/rise`` to the bot's command tree and register its buttons and selects."""
    bot.tree.add_command(RiseGroup(bot))
    bot.add_dynamic_items(RiseSelect, RiseButton)
