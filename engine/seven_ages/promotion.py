"""Who an empire may promote (L940-952): shared by Civilise's leader stage and the events that promote.

The rules are small functions of public state: the Leader number printed on the empire's card, the named
leaders of its age not yet seen in the game, and the one-a-civilise limit's own condition.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.seven_ages import modifiers
from engine.seven_ages.cards import load_deck, named_leaders
from engine.seven_ages.production import age_of
from engine.seven_ages.state import Empire, SevenState


def leader_number(state: SevenState, e: Empire) -> int:
    """The 'Leaders' number on the empire's card (L2183: the Inca's is 2), as option 16 changes it."""
    return modifiers.leader_number(state, e, load_deck().cards[e.card].empire.leaders)


def may_promote(on_map: int, leader_number: int) -> bool:
    """An empire may promote one leader while it has fewer than its Leader number (L940)."""
    return on_map < leader_number


def named_for_age(named: Iterable[tuple[str, int]], age: int, appeared: Iterable[str]) -> list[str]:
    """The named leaders an empire may promote: those of its current age not yet in the game
    (L944-948: "Each named leader can only appear in the game once")."""
    gone = set(appeared)
    return [n for n, a in named if a == age and n not in gone]


def promotable(state: SevenState, e: Empire) -> list[str]:
    """The named leaders ``e`` may promote now: its own, of its age, never seen in the game (L944-946)."""
    gone = {*state.appeared, *(ld.name for x in state.empires for ld in x.leaders if ld.named)}
    return named_for_age(((str(ld["name"]), int(ld["age"])) for ld in named_leaders().get(e.card, ())),
                         age_of(e.progress), gone)
