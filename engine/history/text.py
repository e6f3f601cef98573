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


def describe_event(event: Event, rules: RulesData) -> str | None:
    """One line for the events worth telling a player about (None for the rest)."""
    d = event.data
    t = event.type
    if t == "battle":
        return (
            f"Battle for {d['land']}: {player_name(d['attacker'])} rolls {d['attacker_dice']}"
            + (f" +{d['attacker_bonus']}" if d["attacker_bonus"] else "")
            + f" vs {player_name(d['defender'])} {d['defender_dice']}"
            + (" +1 fort" if d["fort"] else "")
            + f": {d['outcome']}" + (" (treachery)" if d["treachery"] else "")
        )
    if t == "turn":
        return f"{player_name(d['player'])} plays {d['name']} (strength {d['strength']})."
    if t == "scored":
        return f"{player_name(d['player'])} scores {d['points']} (total {d['score']})."
    if t == "card_played":
        return f"{player_name(d['player'])} plays {rules.cards[d['card']].name}."
    if t == "epoch":
        order = ", ".join(player_name(p) for p in d["draw_order"])
        return f"--- {d['name']} --- draw order: {order}"
    if t in ("expanded", "sacked", "monuments", "fort_built", "preeminence", "game_over",
             "empire_given", "empire_kept", "epidemic", "disaster", "kingdom", "leader_killed",
             "your_draw", "your_empire", "empire_skipped", "markers_revealed"):
        return f"{t.replace('_', ' ')}: " + ", ".join(f"{k}={v}" for k, v in d.items() if k != "breakdown")
    return None


def describe_events(events: Sequence[Event], rules: RulesData, viewer: int | None) -> list[str]:
    lines = []
    for event in events:
        if event.visible_to(viewer):
            line = describe_event(event, rules)
            if line:
                lines.append(line)
    return lines
