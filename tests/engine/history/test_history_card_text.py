"""``card WHAT`` in both History rulesets (issue 29 item 4): an event or empire card whole, from the
asker's view only.

The expected texts were written from ``data/history/classic/cards.yaml`` and ``empires.yaml``, and from
``data/history/epochs5/events.yaml`` and ``empires.yaml``, field by field, not copied from the output.
"""

from __future__ import annotations

from engine.history.epochs5.game import GAME as EPOCHS5
from engine.history.game import GAME as CLASSIC

NAMES = ["ann (Red)", "bob (Blue)", "cid (Green)"]

WEAPONRY = """Weaponry: an event card of the greater deck, for epochs I-VII (4 copies in the game).
For this turn, add 1 to every die the Active Empire rolls."""

EGYPT = """Egypt: an empire card of Epoch I, called 2 of 7.
Strength 5; starts in Nile Delta, with a capital; fleets in the Red Sea and the Eastern Mediterranean.
Leader: Zoser."""

MONASTERY = """Monastery: an enhancement card of Epoch III.
Build a monument in a territory held by one of your active armies."""

VIKINGS = """Vikings: an empire card of Epoch III, called 7 of 8.
5 armies, starting in Scandinavia, marauder (torch, no capitol), fleets in the North Sea and the North \
Atlantic Ocean; Longships: When you invade with a fleet, add one to your highest die."""


def test_classic_reads_ones_own_event_cards_and_the_empires_called_and_refuses_another_hand() -> None:
    state = CLASSIC.setup(3, {}, 7)
    state.hands = [["weaponry"], ["leader"], []]
    state.played_empires[2] = ["1:Egypt"]
    ann, bob = CLASSIC.view(state, 0), CLASSIC.view(state, 1)
    assert len(CLASSIC.rules.epochs[1]) == 7
    for asked in ("Weaponry", "weaponry", "WEAPON"):
        assert CLASSIC.card_text(ann, asked, NAMES) == WEAPONRY, asked
    assert CLASSIC.card_text(bob, "egypt", NAMES) == EGYPT  # called: on the table
    assert CLASSIC.card_text(CLASSIC.view(state, None), "Egypt", NAMES) == EGYPT
    assert CLASSIC.card_text(ann, "Leader", NAMES) == (
        "No card you can see is called 'Leader': only the cards in your hand, your own empire card, the "
        "events played this turn and the empires already called can be looked up.")
    assert CLASSIC.card_text(bob, "Leader", NAMES) is not None and "three dice" in str(
        CLASSIC.card_text(bob, "Leader", NAMES))
    assert CLASSIC.card_text(ann, "Atlantis", NAMES) is None
    assert CLASSIC.card_text(ann, "45", NAMES) is None  # classic cards have no numbers


def test_epochs5_reads_ones_own_event_cards_and_the_empires_revealed_and_refuses_another_hand() -> None:
    state = EPOCHS5.setup(3, {}, 7)
    state.hands = [["monastery"], [], []]
    state.played_empires[1] = ["vikings"]
    ann, bob = EPOCHS5.view(state, 0), EPOCHS5.view(state, 1)
    assert EPOCHS5.card_text(ann, "monastery", NAMES) == MONASTERY
    assert EPOCHS5.card_text(ann, "the Vikings", NAMES) == VIKINGS
    assert EPOCHS5.card_text(bob, "Monastery", NAMES) == (
        "No card you can see is called 'Monastery': only your own cards, the events played this turn and "
        "the empires already revealed can be looked up.")
    assert EPOCHS5.card_text(bob, "Camelot", NAMES) is None
