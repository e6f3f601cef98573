"""Plain-text pictures of a classic game for terminals and logs (a pure function of a view)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.core import Event
from engine.history.rules_data import ROMAN, RulesData

COLOURS = ("Red", "Blue", "Green", "Yellow", "Purple", "Orange")


def player_name(p: int | None) -> str:
    return "nobody" if p is None else f"{COLOURS[p % len(COLOURS)]} (P{p + 1})"


def land_line(view: Mapping[str, Any], land: str) -> str:
    board = view["board"]
    bits = []
    for army in board["armies"].get(land, []):
        bits.append(f"{COLOURS[army[0]][0]}{ROMAN[army[1]]}")
    if land in board["forts"]:
        bits.append("fort")
    if land in board["structures"]:
        bits.append(board["structures"][land])
    if land in board["monuments"]:
        bits.append("monument")
    return f"{land}: {' '.join(bits)}" if bits else land


def render_board(view: Mapping[str, Any], rules: RulesData, *, empty: bool = False) -> str:
    """The board by area; with ``empty=False`` only lands holding something are listed."""
    lines = []
    epoch = view["epoch"]
    for area in [*rules.map.areas, None]:
        lands = [n for n, info in rules.map.lands.items() if info.area == area]
        shown = [land_line(view, n) for n in sorted(lands) if empty or land_line(view, n) != n]
        if not shown:
            continue
        title = area or "Barren lands"
        value = f" (worth {rules.area_value(area, epoch)})" if area else ""
        lines.append(f"{title}{value}: " + "; ".join(shown))
    manned = view["board"]["manned"]
    if manned:
        lines.append("Seas held: " + "; ".join(f"{s}: {player_name(a[0])}" for s, a in manned.items()))
    return "\n".join(lines) if lines else "The board is empty."


def render_status(view: Mapping[str, Any], rules: RulesData) -> str:
    lines = [f"{view['epoch_name']} - " + ", ".join(
        f"{player_name(p)} {s}{'*' * view['markers'][p]}" for p, s in enumerate(view["scores"])
    )]
    turn = view.get("turn")
    if turn:
        lines.append(
            f"Turn: {player_name(turn['player'])} plays {turn['name']} "
            f"(step: {turn['step']}, {turn['force']}: {turn['pool']} armies in the pool"
            + (f" +{turn['restricted']} Allies" if turn["restricted"] else "")
            + f", coins {turn['coins'] + turn['allies_coins']}, free forts {turn['free_forts']})"
        )
        if turn["fleets"]:
            lines.append("Fleets: " + ", ".join(turn["fleets"]))
    draw = view.get("draw")
    if draw and draw["drawer"] is not None:
        lines.append(f"Empire draw: {player_name(draw['drawer'])} is deciding.")
    you = view.get("you")
    if you:
        hand = ", ".join(rules.cards[c].name for c in you["hand"]) or "no cards"
        lines.append(f"Your hand: {hand}")
        if you.get("drawn"):
            lines.append(f"You drew: {rules.empires[you['drawn']].name}")
        if you.get("empire"):
            e = rules.empires[you["empire"]]
            lines.append(f"Your empire: {e.name} (strength {e.strength}, starts {', '.join(e.starts)})")
    if view["phase"] == "over":
        lines.append("Final scores: " + ", ".join(
            f"{player_name(p)} {s}" for p, s in enumerate(view["final"])
        ))
        lines.append("Winner: " + player_name(view["ranking"][0]))
    return "\n".join(lines)


def _lands(lands: Sequence[str]) -> str:
    return ", ".join(lands) if lands else "no land"


def describe_event(event: Event, rules: RulesData) -> str | None:
    """One sentence for an engine event, or None for bookkeeping nobody needs to read."""
    d = event.data
    who = player_name

    def empire(key: str | None) -> str:
        found = rules.empires.get(key) if key is not None else None
        return found.name if found is not None else "no empire"

    def battle() -> str:
        if d["treachery"]:
            return f"Treachery: {who(d['attacker'])} takes {d['land']} without a fight."
        bonus = f" +{d['attacker_bonus']}" if d["attacker_bonus"] else ""
        fort = " +1 for the fort" if d["fort"] else ""
        result = {"win": "the attacker wins", "loss": "the defender holds", "tie": "a tie, both lose"}
        return (
            f"Battle for {d['land']}: {who(d['attacker'])} rolls {d['attacker_dice']}{bonus} against "
            f"{who(d['defender'])}'s {d['defender_dice']}{fort}: {result[d['outcome']]}."
        )

    texts: dict[str, Any] = {
        "epoch": lambda: f"--- {d['name']} begins. Empire cards are drawn in this order: "
        + ", ".join(who(p) for p in d["draw_order"]) + ".",
        "rolloff": lambda: "Roll-off for the first draw: "
        + ", ".join(f"{who(int(p))} {r}" for p, r in d["rolls"].items()) + ".",
        "drew_empire": lambda: f"{who(d['player'])} draws an empire card.",
        "your_draw": lambda: f"You drew {empire(d['empire'])}.",
        "empire_kept": lambda: f"{who(d['player'])} keeps the card.",
        "empire_given": lambda: f"{who(d['player'])} gives the card to {who(d['to'])}"
        + (" (no other choice)." if d["forced"] else "."),
        "unused_empires": lambda: f"{d['count']} empire card(s) go back to the box unseen.",
        "your_empire": lambda: f"This epoch you play {empire(d['empire'])}.",
        "empire_skipped": lambda: f"Nobody holds {d['name']}; it is skipped.",
        "turn": lambda: f"{who(d['player'])} plays {d['name']} (strength {d['strength']}, "
        f"starting in {_lands(d['starts'])}).",
        "card_played": lambda: f"{who(d['player'])} plays the event {rules.cards[d['card']].name}.",
        "card_withdrawn": lambda: f"{who(d['player'])} takes {rules.cards[d['card']].name} back.",
        "established": lambda: f"{d['name']} is established in {_lands(d['starts'])} with "
        f"{d['pool']} more armies" + (f" and fleets in {_lands(d['fleets'])}." if d["fleets"] else "."),
        "expanded": lambda: f"{who(d['player'])} expands into {d['land']}"
        + (" from the sea." if d["by_sea"] else "."),
        "replaced": lambda: f"An older army in {d['land']} makes way for the new empire.",
        "attack": lambda: f"{who(d['player'])} attacks {d['land']}"
        + (" from the sea" if d["by_sea"] else "") + f" ({d['defender_dice']} defending dice).",
        "battle": battle,
        "leader_killed": lambda: f"Triples ({d['roll']}): the leader falls; back to two dice.",
        "fort_lost": lambda: f"The fort in {d['land']} is destroyed.",
        "sacked": lambda: f"{d['land']}: the {d['was']} is "
        + ("turned into a city." if d["now"] else "sacked and removed."),
        "cleared": lambda: f"{d['land']} is cleared ({d['why']}).",
        "fort_built": lambda: f"A fort is built in {d['land']} (paid with {d['paid']}).",
        "free_forts": lambda: f"Engineering: {d['count']} free fort(s) this turn.",
        "bought_back": lambda: f"{who(d['player'])} spends a coin to bring a lost army back.",
        "reallocated": lambda: f"The fleet in the {d['water']} becomes a coin.",
        "monuments": lambda: f"Monuments rise in {_lands(d['lands'])}.",
        "scored": lambda: f"{who(d['player'])} scores {d['points']} (total {d['score']}).",
        "preeminence": lambda: (
            f"{who(d['player'])} leads and takes a pre-eminence marker." if d["player"] is not None
            else "Nobody leads alone: no pre-eminence marker this epoch."
        ),
        "markers_revealed": lambda: f"{who(d['player'])} reveals markers {d['markers']}: "
        f"{d['score']} points.",
        "game_over": lambda: "The game is over. Winner: " + who(d["ranking"][0]) + ".",
        "kingdom": lambda: f"{d['name']}: a kingdom of {who(d['player'])} rises in {d['land']}.",
        "migrants": lambda: f"Migrants of {who(d['player'])} settle in {_lands(d['lands'])}.",
        "crusade": lambda: f"{d['armies']} crusaders gather in the {d['sea']}.",
        "crusade_prize": lambda: f"The crusaders hold {d['land']} and fortify it.",
        "force_done": lambda: f"{d['name']} is done ({d['left']} armies unused).",
        "epidemic": lambda: f"{d['why']}: the army of {who(d['owner'])} in {d['land']} rolls "
        f"{d['dice']} and " + ("dies." if d["died"] else "survives."),
        "disaster": lambda: f"Disaster strikes {d['land']}: its monument falls.",
        "treachery": lambda: f"Treachery is planned against {d['land']}.",
        "astronomy": lambda: f"Astronomy: an extra fleet will sail in the {d['sea']}.",
        "fleet_battle": lambda: f"Fleet battle in the {d['sea']}: {d['attacker_dice']} against "
        f"{d['defender_dice']}: {d['outcome']}.",
        "fleet_manned": lambda: f"{who(d['player'])} holds the {d['sea']} with an army on a fleet.",
        "fleet_removed": lambda: f"The fleet of {who(d['owner'])} in the {d['sea']} leaves the board.",
        "supply_out": lambda: f"No {d['piece']} pieces are left in the box.",
        "markers_short": lambda: f"Only {d['got']} of {d['wanted']} coins: the fleet/coin markers ran out.",
    }
    make = texts.get(event.type)
    return make() if make else None


def describe_events(events: Sequence[Event], rules: RulesData, viewer: int | None) -> list[str]:
    lines = []
    for event in events:
        if event.visible_to(viewer):
            line = describe_event(event, rules)
            if line:
                lines.append(line)
    return lines
