"""``card WHAT`` in the classic game: an event card or an empire card in words, from a player's view.

A player may read the event cards in their own hand and those played this turn (the table sees them
played), the empire card they hold, drew or gave away, and every empire already called (the board
shows it). The rest of both decks, and other players' hands, are hidden: a name printed on such a card
gets one sentence, never its text.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.card_lookup import Printed, echoed, look_up
from engine.history.data import CardType, Empire, RulesData
from engine.history.view import ClassicView
from engine.words import join_words, plural, roman

EVENT = "event:"
EMPIRE = "empire:"
"""Keys of the two decks, kept apart (an event card and an empire are known by different ids)."""


def epochs_words(epochs: Iterable[int]) -> str:
    """ "epoch III", "epochs I-VII", "epochs II, IV and VI"."""
    ordered = sorted(epochs)
    if len(ordered) == 1:
        return f"epoch {roman(ordered[0])}"
    if ordered == list(range(ordered[0], ordered[-1] + 1)):
        return f"epochs {roman(ordered[0])}-{roman(ordered[-1])}"
    return "epochs " + join_words([roman(e) for e in ordered])


def event_words(card: CardType) -> str:
    """An event card whole: its deck, epochs and copies, then what it does."""
    head = (f"{card.name}: an event card of the {card.deck} deck, for {epochs_words(card.epochs)} "
            f"({plural(card.count, 'copy', 'copies')} in the game).")
    return f"{head}\n{card.text}"


def empire_words(empire: Empire, rules: RulesData) -> str:
    """An empire card whole: its epoch and place in the calling order, strength, start, fleets, leader."""
    capital = ", with a capital" if empire.capital else ""
    waters = join_words([f"the {w}" for w in empire.fleets])
    fleets = f"fleets in {waters}" if empire.fleets else "no fleets"
    lines = [f"{empire.name}: an empire card of Epoch {roman(empire.epoch)}, called {empire.order + 1} of "
             f"{len(rules.epochs[empire.epoch])}.",
             f"Strength {empire.strength}; starts in {join_words(list(empire.starts))}{capital}; {fleets}."]
    if empire.leader:
        lines.append(f"Leader: {empire.leader}.")
    return "\n".join(lines)


def _printed(rules: RulesData) -> tuple[Printed, ...]:
    events = [Printed(EVENT + c.id, (c.name, *c.aliases), c.name) for c in rules.cards.values()]
    empires = [Printed(EMPIRE + e.key, (e.name,), f"{e.name} (Epoch {roman(e.epoch)})")
               for e in rules.empires.values()]
    return tuple(events + empires)


def readable(view: ClassicView) -> set[str]:
    """The keys of the cards ``view`` lets its viewer read (see the module's docstring)."""
    turn, you = view["turn"], view["you"]
    events: list[str] = []
    empires = [k for called in view["played_empires"] for k in called]
    empires += [k for k in view["empires_this_epoch"].values() if k]
    if you is not None:
        events += you["hand"]
        empires += [k for k in (you.get("empire"), you.get("drawn"), *(you.get("gave") or {}).values()) if k]
    if turn is not None:
        events += turn["played"]
        if turn["pending"]:
            events.append(str(turn["pending"]["card"]))
    return {EVENT + str(c) for c in events} | {EMPIRE + str(k) for k in empires}


def answer(view: ClassicView, wanted: str, rules: RulesData) -> str | None:
    """The classic game's ``card_text``: an event or empire card by its name (any case)."""
    def whole(key: str) -> str:
        if key.startswith(EVENT):
            return event_words(rules.cards[key.removeprefix(EVENT)])
        return empire_words(rules.empires[key.removeprefix(EMPIRE)], rules)

    refusal = (f"No card you can see is called {echoed(wanted)}: only the cards in your hand, your own "
               "empire card, the events played this turn and the empires already called can be looked up.")
    return look_up(wanted, _printed(rules), readable(view), whole, refusal)
