"""Plain sentences for the 5-epoch rules' events and short labels for their actions."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engine.core import Action, Event
from engine.history.epochs5.data import Rules


def _p(player: Any) -> str:
    return f"Player {int(player) + 1}" if isinstance(player, int) else "A player"


def _dice(values: Any) -> str:
    return "-".join(str(v) for v in values) if isinstance(values, list) else "?"


_SIMPLE: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "epoch": lambda d: f"{d['name']} begins: choose an event card and an empire card.",
    "drafted": lambda d: (
        f"{_p(d['player'])} keeps a{'n event' if d['pile'] == 'event' else 'n empire'} card."
    ),
    "sets_passed": lambda d: "The cards are passed on.",
    "kept": lambda d: f"{_p(d['player'])} keeps the {d['pile']} card drawn.",
    "given": lambda d: f"{_p(d['player'])} gives the {d['pile']} card drawn to {_p(d['to'])}.",
    "turn": lambda d: f"{_p(d['player'])} reveals the {d['name']} and takes the catapult.",
    "empire_not_chosen": lambda d: f"Nobody chose the {d['name']}.",
    "kingdom": lambda d: f"{_p(d['player'])} plays the kingdom {d['name']}.",
    "established": lambda d: (
        f"The {d['name']} rise in {', '.join(d['starts'])} with {d['armies']} more armies"
        + (f" and {d['siege_tokens']} siege tokens" if d.get("siege_tokens") else "")
        + ("; marauders, no capitol." if d.get("marauder") else ".")
    ),
    "invaded": lambda d: (
        f"{_p(d['player'])} invades {d['land']}"
        + (" by fleet" if d.get("route") == "sea" else "")
        + (" and fights." if d.get("battle") else ".")
    ),
    "battle": lambda d: (
        f"Battle for {d['land']}: {_dice(d['attacker_dice'])}"
        + (f" +{d['attacker_bonus']}" if d.get("attacker_bonus") else "")
        + f" against {_dice(d['defender_dice'])}"
        + (" +1 terrain" if d.get("terrain") else "")
        + "."
    ),
    "rerolled": lambda d: f"The {d['side']} rerolls a {d['old']} and gets a {d['new']}.",
    "battle_result": lambda d: {
        "win": f"{d['land']} falls ({d['attacker_total']} to {d['defender_total']}).",
        "loss": f"{d['land']} holds ({d['attacker_total']} to {d['defender_total']}).",
        "tie": f"Tie at {d['land']}: both armies fall.",
    }[d["outcome"]],
    "siege": lambda d: f"Siege of {d['land']}: the catapult stands at +{d['catapult']}.",
    "retreat": lambda d: f"{_p(d['player'])} retreats from {d['land']}.",
    "reduced": lambda d: f"The {d['structure']} in {d['land']} is reduced.",
    "fort_built": lambda d: f"A fort is built in {d['land']}.",
    "monument_built": lambda d: f"A monument is built in {d['land']}.",
    "points": lambda d: f"{_p(d['player'])} gains {d['points']} points.",
    "track_moved": lambda d: f"{_p(d['player'])} moves the score marker {d['direction']} to {d['score']}.",
    "game_over": lambda d: "The game is over.",
}


def describe_event(event: Event, rules: Rules) -> str | None:
    """One sentence for an event, or None for bookkeeping the players need not read."""
    data = dict(event.data)
    if event.type == "event_played":
        return f"{_p(data['player'])} plays {rules.events[data['card']].name}."
    make = _SIMPLE.get(event.type)
    if make is None:
        return None
    try:
        return make(data)
    except (KeyError, TypeError, ValueError):
        return None


def action_label(rules: Rules, action: Action) -> str:
    """A short label for a button or a select (at most 100 characters)."""
    data = action.to_json()
    kind = data["kind"]
    if kind == "draft":
        card = str(data["card"])
        if card in rules.events:
            label = f"keep event {rules.events[card].name}"
        else:
            emp = rules.empires[card]
            label = f"keep empire {emp.name} ({emp.armies} armies)"
    elif kind == "play":
        label = f"play {rules.events[str(data['card'])].name}"
    elif kind == "invade":
        label = f"invade {data['land']}" + (" by fleet" if data.get("route") == "sea" else "")
    elif kind == "give":
        label = f"give the {data['pile']} card to player {int(data['to']) + 1}"
    elif kind == "track":
        label = f"move your score marker {data['direction']}"
    elif kind == "reroll":
        label = f"reroll die {int(data['die']) + 1}"
    else:
        words = {
            "keep": f"keep the {data.get('pile')} card",
            "choose": f"choose {data.get('target')}",
            "done": "done",
            "fortify": f"fortify {data.get('land')}",
            "stop": "stop invading (monuments, resign, score)",
            "accept": "keep the dice",
            "siege": "siege (catapult)",
            "retreat": "retreat",
            "prefer": f"prefer {data.get('key')}={data.get('value')}",
        }
        label = words.get(kind) or str(kind)
    return label[:100]
