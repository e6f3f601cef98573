"""``card WHAT`` for any game with cards: finding a card by a name on it among those the asker may read.

A game gives the cards of its deck (:class:`Printed`: the names on each, its whole text) and which of
them its viewer's view lets them read; :func:`look_up` answers what a person typed. Only the viewer's
readable cards are ever searched, so what another seat holds cannot leak through an answer: a name that
is printed somewhere in the deck but on no card the asker may read gets one sentence saying so, and a
name printed nowhere gets None (the platform then says it knows no such card). No game is named here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from engine.words import join_words, shorten

ECHO = 40
"""How much of what was typed an answer repeats (never a pasted page)."""

LISTED = 8
"""How many matching cards an answer lists before it says how many more there are."""

SHORTEST_PART = 3
"""The fewest letters a part of a name must have to find a card by that part alone ("vik")."""


@dataclass(frozen=True)
class Printed:
    """One card as printed: the key the game knows it by, the names on it and how to word it whole."""

    key: str
    names: tuple[str, ...]
    label: str
    """A few words naming it in a list: "card 45, the Vikings"."""


def _folded(text: str) -> str:
    words = " ".join(text.casefold().split())
    return words.removeprefix("the ")


def echoed(asked: str) -> str:
    """What was typed, quoted and cut short: ``'Atlantis'``."""
    return repr(shorten(" ".join(asked.split()), ECHO))


def look_up(asked: str, deck: Sequence[Printed], readable: Iterable[str],
            whole: Callable[[str], str], refusal: str) -> str | None:
    """The answer to ``card ASKED`` from the cards a viewer may read (their keys: ``readable``).

    A name matches a card when it is one of the card's names (any case, with or without "the"), else
    when it is a part (of at least :data:`SHORTEST_PART` letters) of one of them. One readable card
    matching: its whole text (``whole(key)``); several: a short list of them; none, but the name is on a
    card of the deck: ``refusal`` (one sentence); on no card at all: None.
    """
    wanted = _folded(asked)
    if not wanted:
        return None
    seen = set(readable)
    exact = [c for c in deck if any(_folded(n) == wanted for n in c.names)]
    part = [c for c in deck if any(wanted in _folded(n) for n in c.names)] \
        if len(wanted) >= SHORTEST_PART else []
    found = [c for c in exact if c.key in seen] or [c for c in part if c.key in seen]
    if not found:
        return refusal if exact or part else None
    if len(found) == 1:
        return whole(found[0].key)
    shown = [c.label for c in found[:LISTED]]
    more = len(found) - len(shown)
    if more:
        shown.append(f"{more} more")
    return (f"{len(found)} cards you can see answer to {echoed(asked)}: {join_words(shown)}; "
            "ask for one of them.")
