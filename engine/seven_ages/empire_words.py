"""``empire WHAT`` and ``tracks`` for 7 Ages (the ``empire_text`` and ``tracks_text`` hooks), from one
viewer's view only.

An empire is found by its card's number or its printed name, among the cards the viewer may read
(:func:`engine.seven_ages.card_words.visible_cards`: the empires on the map, their own hand and bid, the
cards put out of the game once it is over), so no answer tells another seat's hand. An empire on the map
is told as the table shows it: its player, counters, level and age, money, elite markers, beliefs,
artefacts, every area it holds (its units as this viewer may know them: all of them for its owner, each
stack's top unit and height for everyone else, L791), its cities, its player's glory, then its card's
empire block. A card not on the map is its empire block alone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.core import Names
from engine.seven_ages.board_words import area_lines, empire_line
from engine.seven_ages.card_words import NUMBER_DIGITS, empire_lines, is_number, visible_cards
from engine.seven_ages.cards import load_deck
from engine.seven_ages.data import load_tables
from engine.seven_ages.text import seat, stage
from engine.seven_ages.view import AreaView, EmpireView, SevenView
from engine.words import join_words, shorten

SHORTEST_PART = 3
"""The fewest letters that find an empire by part of its name ("vik")."""


def _folded(text: str) -> str:
    return " ".join(text.casefold().split()).removeprefix("the ")


def find_empire(view: SevenView, wanted: str) -> int | str:
    """The card whose empire ``wanted`` names (its number, ``#45``, ``card 45``, or its empire's name or a
    part of it, any case), among the cards the viewer may read: an empire on the map before a card in
    hand. A sentence instead when none the viewer may read answers (or several do)."""
    words = " ".join(wanted.split())
    deck = load_deck().cards
    seen = visible_cards(view)
    on_map = [int(e["card"]) for e in view["empires"]]
    number = words.casefold().removeprefix("card").strip().removeprefix("#")
    if is_number(number):
        if len(number) > NUMBER_DIGITS or int(number) not in deck:
            return f"There is no card {shorten(words, 20)!r}: cards are numbered 1 to {len(deck)}."
        if int(number) not in seen:
            return (f"Card {int(number)} is not one you can see: only the empires on the map and your own "
                    "cards can be looked up.")
        return int(number)
    key = _folded(words)
    if not key:
        return "Name an empire (the Romans) or give its card's number (45)."
    exact = [n for n in sorted(deck) if _folded(deck[n].empire.name) == key]
    part = [n for n in sorted(deck) if key in _folded(deck[n].empire.name)] \
        if len(key) >= SHORTEST_PART else []
    for found in (exact, part):
        mapped = [n for n in on_map if n in found]
        readable = mapped or [n for n in found if n in seen]
        if len(readable) == 1:
            return readable[0]
        if readable:
            listed = join_words([f"the {deck[n].empire.name} (card {n})" for n in readable[:8]])
            return (f"{len(readable)} empires you can see answer to {shorten(words, 40)!r}: {listed}; "
                    "ask for one.")
    if exact or part:
        return (f"No empire you can see is called {shorten(words, 40)!r}: only the empires on the map and "
                "your own cards can be looked up.")
    return f"No empire of 7 Ages is called {shorten(words, 40)!r}."


def _cities(e: EmpireView, areas: Mapping[str, AreaView]) -> str:
    """The cities in the areas the empire holds: "Latium (capital, value 3) and Sicily (value 2)"."""
    held = sorted({str(s[0]) for s in e["stacks"]})
    cities = [f"{a} ({'capital, ' if a == e['capital'] else ''}value {areas[a]['city']})"
              for a in held if a in areas and areas[a]["city"]]
    return join_words(cities) if cities else "none"


def _glory(view: SevenView, owner: int, names: Names) -> str:
    person = next((p for p in view["people"] if int(p["seat"]) == owner), None)
    if person is None:
        return ""
    made = ", ".join(f"{v} {k.replace('_', ' ')}" for k, v in sorted(person["parts"].items()) if v)
    return (f"Glory this game of {seat(names, owner)}, who plays it: {person['glory']}"
            + (f" ({made})" if made else "") + ".")


def in_play_lines(view: SevenView, e: EmpireView, names: Names) -> list[str]:
    """An empire on the map, as ``view``'s viewer may know it."""
    card = load_deck().cards[int(e["card"])]
    areas = {str(a["name"]): a for a in view["areas"]}
    held = area_lines(e, areas)
    lines = [f"The {e['name']} (card {e['card']}, value {card.value}), the empire of "
             f"{seat(names, int(e['owner']))}.",
             empire_line(e),
             f"Areas held ({len({str(s[0]) for s in e['stacks']})}):" if held else "Areas held: none.",
             *held,
             f"Cities: {_cities(e, areas)}."]
    glory = _glory(view, int(e["owner"]), names)
    return [*lines, *([glory] if glory else [])]


def empire_answer(view: SevenView, wanted: str, names: Names) -> str:
    """``empire WHAT``: the empire on the map with its card's block, a card's empire block, or one
    sentence saying why there is none to show."""
    found = find_empire(view, wanted)
    if isinstance(found, str):
        return found
    card = load_deck().cards[found]
    shown = next((e for e in view["empires"] if int(e["card"]) == found), None)
    if shown is None:
        head = [f"The {card.empire.name} (card {found}, value {card.value}) are not on the map."]
    else:
        head = in_play_lines(view, shown, names)
    return "\n".join([*head, "On the card:", *empire_lines(card)]) + "."


def tracks_answer(view: SevenView, names: Names) -> str:
    """``tracks``: the progress track (each empire's level and age, the dark-age spaces), each seat's
    glory and each empire's money, as the tracks picture shows them."""
    tables = load_tables()
    empires: Sequence[EmpireView] = view["empires"]
    lines = [f"{stage(view)}: the tracks."]
    if empires:
        ranked = sorted(empires, key=lambda e: (-int(e["progress"]), int(e["card"])))
        lines.append("Progress: " + "; ".join(
            f"the {e['name']} of {seat(names, int(e['owner']))} level {e['progress']} (age {e['age']}"
            + (", a dark age" if int(e["progress"]) in tables.dark_ages else "") + ")" for e in ranked) + ".")
    else:
        lines.append("Progress: no empire is on the map.")
    dark = sorted(tables.dark_ages)
    lines.append("Dark-age levels (no free progress without a Scientist): "
                 f"{join_words([str(d) for d in dark])}." if dark else "No level is a dark age.")
    glory = sorted(view["people"], key=lambda p: (-int(p["glory"]), int(p["seat"])))
    lines.append("Glory: " + "; ".join(f"{seat(names, int(p['seat']))} {p['glory']}" for p in glory) + ".")
    if empires:
        lines.append("Money: " + "; ".join(
            f"the {e['name']} {e['money']}"
            for e in sorted(empires, key=lambda e: (-int(e["money"]), int(e["card"])))) + ".")
    return "\n".join(lines)
