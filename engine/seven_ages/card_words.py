"""A 7 Ages card in words, from the printed card (``cards.yaml``) alone: the whole card for a hand or a
look-up (:func:`card_long`), and the short forms that choice labels use (:func:`card_text`,
:func:`start_label`).

The card's parts follow its anatomy (L17-60): the empire block (ages, start areas with their grid
references, set-up, money, trade number, leader number, named leaders, special, glory categories,
the icons), the value, the artefact (colour, ages, its marks in words, condition) and the event (when it
is played, on what, what it does). Effects are worded by :mod:`engine.seven_ages.effects_words`.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from engine.card_lookup import Printed, look_up
from engine.seven_ages.cards import Artefact, Card, Empire, Event, load_deck, named_leaders
from engine.seven_ages.effects import EFFECTS, IMMEDIATE
from engine.seven_ages.effects_words import describe, describe_all
from engine.seven_ages.map import load_map
from engine.seven_ages.prerequisite_words import prerequisite_text
from engine.seven_ages.view import SevenView
from engine.words import join_words, shorten

LABEL_LIMIT = 100
"""A Discord select option's label holds 100 characters (:func:`engine.words.shorten`)."""

TIMING_WORDS = {
    "start": "in a Start empire action",
    "production": "during Production",
    "trade": "during Trade and progress",
    "manoeuvre": "during Manoeuvre",
    "destiny": "during Destiny",
    "civilise": "in your empire's Civilise action",
    "discard": "during Discard empire",
    "conflict": "during a conflict",
    "harvest": "at the harvest (end of turn)",
    "any": "at any time",
}
"""When an event may be played (L859-867), as a clause."""

TARGET_WORDS = {
    "own_empire": "on one of your own empires",
    "other_empire": "on another player's empire",
    "any_empire": "on any empire",
    "player": "on a player",
    "area": "on an area",
    "conflict_side": "on one side of a conflict",
    "event": "on an event as it is played",
    "everyone": "on everyone",
}
"""What an event is played on (L861), as a clause."""

CATEGORY_WORDS = {
    "seas": "sea areas", "not_europe": "areas outside Europe", "progress": "progress",
    "artefacts": "artefacts", "cities": "cities", "money": "money", "ships": "ships",
    "land_units": "land units", "cavalry": "cavalry", "homeland": "homeland (+1, or -1 if lost)",
    "wheat": "1 per wheat area", "elephant": "1 per elephant area", "oil": "1 per oil area",
    "per_level": "per progress level gained", "per_trade_won": "per trade won",
    "per_trade_tied": "per trade tied", "per_liberation": "per area liberated",
}
"""Glory categories (L62-74, L1028-1144) in words; region and religion categories are named by theirs."""


def ages_text(ages: tuple[int, int]) -> str:
    """ "age 3", "ages 1-3"."""
    first, last = ages
    return f"age {first}" if first == last else f"ages {first}-{last}"


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def start_areas(empire: Empire) -> str:
    """Its start areas with their grid references: "Norway (J3) and Denmark (J3)"."""
    areas = load_map().areas
    return join_words([f"{a} ({areas[a].ref})" for a in empire.starts])


def category_text(g: Mapping[str, Any]) -> str:
    """One glory category: "cities 2", "China 3", "Islam 2", "homeland (+1, or -1 if lost)",
    "1 per trade won (immediate)"."""
    cat = str(g["category"])
    if cat in IMMEDIATE:
        return f"{g['value']} {CATEGORY_WORDS[cat]} (immediate)"
    name = str(g.get("region") or g.get("religion") or CATEGORY_WORDS[cat])
    return f"{name} {g['value']}" if "value" in g else name


def _specials(empire: Empire, restriction: bool) -> list[str]:
    return [describe(str(e["code"]), e) for e in empire.special
            if (EFFECTS[str(e["code"])].family == "restriction") == restriction]


def _leaders(card: int) -> list[str]:
    return [f"{ld['name']} ({'/'.join(ld['abilities'])}, age {ld['age']})"
            for ld in named_leaders().get(card, ())]


def empire_lines(card: Card) -> list[str]:
    """The empire block of a card, line by line."""
    e = card.empire
    border = " (gold border: an age-1 empire)" if e.gold else ""
    lines = [f"Empire: the {e.name}, {ages_text(e.ages)}{border}",
             f"Starts: {start_areas(e)}",
             f"Set-up {signed(e.setup)}; money {e.money}; trade number {signed(e.trade)}; leader number "
             f"{e.leaders}"]
    leaders = _leaders(card.number)
    if leaders:
        lines.append(f"Named leaders: {join_words(leaders)}")
    special = _specials(e, restriction=False)
    if special:
        lines.append(f"Special: {'; '.join(special)}")
    lines.append(f"Glory: {', '.join(category_text(g) for g in e.glory)}")
    icons = _specials(e, restriction=True)
    if icons:
        lines.append(f"Icons: {'; '.join(icons)}")
    return lines


def artefact_line(art: Artefact) -> str:
    """The artefact: name, colour, ages and its marks, then its condition and what it does."""
    marks = ([" (needs another artefact first)"] if art.needs_other_first else []) + \
        ([" (may come in an earlier age)"] if art.may_be_earlier else [])
    ages = "any age" if art.any_age else ages_text(art.ages)
    line = f"Artefact: {art.name}{''.join(marks)}, {art.colour}, {ages}"
    if art.prerequisite:
        line += f"; {prerequisite_text(art.prerequisite)}"
    if art.summary:
        line += f". {art.summary[0].upper()}{art.summary[1:]}"
    return line


def event_line(event: Event) -> str:
    """The event: name, when, on what, what it does."""
    does = describe_all(event.effects)
    return (f"Event: {event.name}, played {TIMING_WORDS[event.timing]}, {TARGET_WORDS[event.target]}: "
            f"{does[0].upper()}{does[1:]}")


def card_long(number: int) -> str:
    """The whole card, several lines, names and not codes."""
    card = load_deck().cards[number]
    art = load_deck().artefacts[card.artefact]
    lines = [f"Card {number} (value {card.value})", *empire_lines(card), artefact_line(art),
             event_line(card.event)]
    return "\n".join(lines) + "."


def card_text(number: int) -> str:
    """A card by its empire and value, as labels and lines name it: "the Vikings (value 4)"."""
    c = load_deck().cards[number]
    return f"the {c.empire.name} (value {c.value})"


def card_parts(number: int) -> str:
    """A card's three parts and its value, for a choice that gives all of it up (a discard, a trade card
    kept or played): "the Vikings / Rutters / Berserkers (value 4)"."""
    c = load_deck().cards[number]
    return f"the {c.empire.name} / {c.artefact} / {c.event.name} (value {c.value})"


def start_label(number: int) -> str:
    """A start choice: "Start the Vikings: ages 3-4, Norway (J3) and Denmark (J3), set-up -2"."""
    e = load_deck().cards[number].empire
    return shorten(f"Start the {e.name}: {ages_text(e.ages)}, {start_areas(e)}, set-up {signed(e.setup)}",
                   LABEL_LIMIT)


NUMBER_DIGITS = 4
"""The most digits a card number is read from (the deck has 110 cards)."""


def is_number(text: str) -> bool:
    """Whether ``text`` is written in the digits 0-9 alone (not "²", not "٣")."""
    return text.isascii() and text.isdigit()


def visible_cards(view: SevenView) -> frozenset[int]:
    """The cards the viewer may read: their own hand and bid, every empire on the map, and the cards put
    out of the game once it is over. Others' hands, the deck and the face-down discards are hidden."""
    seen = set(view.get("your_hand") or ()) | {int(e["card"]) for e in view["empires"]}
    bid = view.get("your_bid")
    if isinstance(bid, int) and bid > 0:
        seen.add(bid)
    seen |= set(view.get("removed") or ())
    return frozenset(seen)


def card_lookup(view: SevenView, asked: str) -> str:
    """``card N``: the whole card when the viewer may see it, else one sentence saying why not."""
    text = asked.strip().removeprefix("#")
    # only a few plain digits are a number: int() refuses "²" and, past 4,300 digits, a pasted page
    if not (is_number(text) and len(text) <= NUMBER_DIGITS) or int(text) not in load_deck().cards:
        return (f"There is no card {shorten(asked.strip(), 20)!r}: cards are numbered 1 to "
                f"{len(load_deck().cards)}.")
    number = int(text)
    if number not in visible_cards(view):
        return (f"Card {number} is not one you can see: only your own cards and the empires on the map can "
                "be looked up.")
    return card_long(number)


@cache
def printed_deck() -> tuple[Printed, ...]:
    """Every card by the three names printed on it: its empire's, its artefact's and its event's."""
    return tuple(Printed(str(n), (c.empire.name, c.artefact, c.event.name), f"card {n}, {card_parts(n)}")
                 for n, c in sorted(load_deck().cards.items()))


def card_answer(view: SevenView, asked: str) -> str | None:
    """``card WHAT`` (the game's ``card_text``): by number (``45``, ``#45``, ``card 45``) as
    :func:`card_lookup` answers it, or by a name on a card the viewer may read (empire, artefact or
    event, any case); None when no card of the deck bears that name."""
    words = " ".join(asked.split())
    number = words.casefold().removeprefix("card").strip().removeprefix("#")
    if is_number(number):
        return card_lookup(view, number)
    refusal = ("No card you can see bears the name " + repr(shorten(words, 40)) + ": only your own cards "
               "and the empires on the map can be looked up.")
    return look_up(words, printed_deck(), (str(n) for n in visible_cards(view)),
                   lambda key: card_long(int(key)), refusal)
