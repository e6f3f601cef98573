"""``card WHAT`` in the 5-epoch game: an event card (enhancement or kingdom) or an empire card in words,
from a player's view.

A player may read the event cards in their hand, the cards in front of them while they choose, the
empire card they hold, the events played this turn (the table sees them played) and every empire
already revealed. Other hands, the piles and empires not yet revealed are hidden: a name printed on
such a card gets one sentence, never its text.
"""

from __future__ import annotations

from engine.card_lookup import Printed, echoed, look_up
from engine.history.epochs5.data import Rules
from engine.history.epochs5.text import empire_line
from engine.history.epochs5.view import Epochs5View
from engine.words import roman


def _sentence(text: str) -> str:
    return f"{text[:1].upper()}{text[1:]}" + ("" if text.endswith(".") else ".")


def card_words(rules: Rules, key: str) -> str:
    """A card whole, a line for what it is and a line for what it does (the armies of an empire or of
    a kingdom's front)."""
    if key in rules.events:
        card = rules.events[key]
        if card.kingdom is not None:
            return (f"{card.name}: a kingdom card of Epoch {roman(card.epoch)}.\n{_sentence(card.text)}\n"
                    f"Its kingdom: {empire_line(rules, card.kingdom.key)}.")
        saved = ", which may be saved for a later epoch" if card.savable else ""
        head = f"{card.name}: an enhancement card of Epoch {roman(card.epoch)}{saved}."
        return f"{head}\n{_sentence(card.text)}"
    emp = rules.empires[key]
    return (f"{emp.name}: an empire card of Epoch {roman(emp.epoch)}, called {emp.order} of "
            f"{len(rules.epochs[emp.epoch])}.\n{_sentence(empire_line(rules, key))}")


def _printed(rules: Rules) -> tuple[Printed, ...]:
    """The two decks: every event card, and the empire cards of every epoch (a kingdom's front is the
    event card it is printed on, so it is found by that card's name)."""
    events = [Printed(c.id, (c.name,), c.name) for c in rules.events.values()]
    empires = [Printed(e.key, (e.name,), f"{e.name} (Epoch {roman(e.epoch)})")
               for listed in rules.epochs.values() for e in listed]
    return tuple(events + empires)


def readable(view: Epochs5View) -> set[str]:
    """The keys of the cards ``view`` lets its viewer read (see the module's docstring)."""
    turn, you = view["turn"], view["you"]
    keys = [k for called in view["played_empires"] for k in called]
    keys += [k for k in view["empires_this_epoch"].values() if k]
    if turn is not None:
        keys += turn["played"]
    if you is not None:
        choosing = you.get("choosing")
        keys += [*you["hand"], *(choosing["cards"] if choosing else ())]
        keys += [k for k in (you["empire"],) if k]
    return {str(k) for k in keys}


def answer(view: Epochs5View, wanted: str, rules: Rules) -> str | None:
    """The 5-epoch game's ``card_text``: an event or empire card by its name (any case)."""
    def whole(key: str) -> str:
        return card_words(rules, key)

    refusal = (f"No card you can see is called {echoed(wanted)}: only your own cards, the events played "
               "this turn and the empires already revealed can be looked up.")
    return look_up(wanted, _printed(rules), readable(view), whole, refusal)
