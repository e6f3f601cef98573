"""What the 7 Ages rules must never break, beyond the game contract: the contract suite checks it after
every move of its playouts (the spec's ``invariants``).

After every move: money within 0-199 (L479), glory never below 0, at most 3 elite markers (L519), no
unit pool below zero (the counter mix limits units, L297), one colour per empire in play, every one of
the 110 cards in exactly one place (the deck, a hand, a face-down bid, the discard pile, out of the
game, in play as an empire, or played and being set up), progress 1-49 or past the end, and no seat's
view naming another's face-down marker or conflict commitment. At the end of every go, and whenever no
go is under way: no leader stands in an area without a unit of its empire (L2187), no vacant area holds
a fort, disorder, an artefact or a capital (L622), no land unit is at sea off its ships (L634), no
galley or aircraft is lost at sea (L654, L664), and every ship is in a sea, ocean or coastal area
(L642). In Manoeuvre no decision offers 40 choices or more (the moves are stepwise, issue 26: a stack,
its units, then one area at a time). The game ends at its turn limit or with an empire past level 49
(L313).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from engine.core import Action, Result
from engine.seven_ages.battle import COMMIT
from engine.seven_ages.cleanup import adrift, marooned
from engine.seven_ages.game import GAME
from engine.seven_ages.map import load_map
from engine.seven_ages.production import pool, unit_class
from engine.seven_ages.state import MANOEUVRE, MAX_MONEY, PAST_THE_END, SevenState

MOST_CHOICES = 40
"""Every Manoeuvre decision offers fewer choices than this (issue 26: stepwise, never whole paths)."""


def problems(before: SevenState, action: Action, result: Result) -> list[str]:
    """Every 7 Ages invariant ``result`` breaks, one sentence each (empty: none)."""
    s: SevenState = result.state
    found = state_problems(s)
    if before.phase == MANOEUVRE:
        choices = len(GAME.legal_actions(before, action.player))
        if choices >= MOST_CHOICES:
            found.append(f"a manoeuvre decision offered {choices} choices")
    if _goes(before) - _goes(s) or not s.goes:  # a go ended, or none is under way
        found += cleanup_problems(s)
    if GAME.is_over(s) and not (s.turn == s.options["turn_limit"]
                                or any(e.progress >= PAST_THE_END for e in s.empires)):
        found.append(f"the game ended at turn {s.turn}, neither its limit nor with an empire past the end")
    return found


def state_problems(s: SevenState) -> list[str]:
    """What must hold after every move."""
    found = []
    for e in s.empires:
        if not 0 <= e.money <= MAX_MONEY:
            found.append(f"empire {e.card} has {e.money} money")
        if not 0 <= e.elite <= 3:
            found.append(f"empire {e.card} has {e.elite} elite markers")
        if not 1 <= e.progress <= PAST_THE_END:
            found.append(f"empire {e.card} is on level {e.progress}")
        for stack in e.units:
            if stack.count <= 0 or pool(e, stack.unit) < 0:
                found.append(f"empire {e.card} has too many {stack.unit}")
    colours = [e.colour for e in s.empires]
    if len(colours) != len(set(colours)):
        found.append(f"a colour is used twice: {colours}")
    if any(p.glory < 0 for p in s.people):
        found.append("a seat's glory is negative")
    played = [int(g.data["card"]) for g in s.goes if "card" in g.data]  # a card played, its empire not set up
    places = Counter([*s.deck, *s.discard, *s.removed, *played,
                      *(e.card for e in s.empires if e.card not in played),
                      *(c for p in s.people for c in p.hand), *(p.bid for p in s.people if p.bid),
                      *(c for _, c in s.aside)])  # cards face down in a trade
    if sorted(places) != list(range(1, 111)) or any(n != 1 for n in places.values()):
        found.append("the cards are not each in exactly one place")
    for viewer in range(s.players):
        view = GAME.view(s, viewer)
        for m, shown in zip(s.markers, view["markers"], strict=True):
            if m.face_down and m.owner != viewer and shown["action"] is not None:
                found.append(f"seat {viewer} sees seat {m.owner}'s face-down marker")
        if s.sealed or any(p.kind == COMMIT for p in s.pending):
            # a conflict's commitments (pending or sealed) of other seats change nothing in this view
            blank = replace(s, sealed=tuple(p if p.seat == viewer else replace(p, data={}) for p in s.sealed),
                            pending=tuple(p if p.seat == viewer else replace(p, data={}) for p in s.pending))
            if GAME.view(blank, viewer) != view:
                found.append(f"seat {viewer} sees another seat's conflict commitment")
    return found


def cleanup_problems(s: SevenState) -> list[str]:
    """What the end-of-action clean-ups (L622, L2187) leave behind: nothing, when they ran."""
    found = [f"{ld.name} of empire {e.card} stands alone in {ld.area}"
             for e in s.empires for ld in e.leaders if not e.count(ld.area)]
    for held in s.areas:
        if (held.fort or held.disorder or held.artefacts) and not s.occupants(held.name):
            found.append(f"vacant {held.name} keeps {held}")
    shared = Counter(a for e in s.empires for a in e.areas())
    found += [f"{area} is shared by two empires outside a conflict" for area, n in shared.items() if n > 1]
    found += [f"empire {e.card} keeps its capital in vacant {e.capital}"
              for e in s.empires if e.capital is not None and not s.occupants(e.capital)]
    wmap = load_map()
    for e in s.empires:
        for stack in e.units:
            if marooned(s, e, stack.area) or adrift(s, e, stack.area):
                found.append(f"empire {e.card} keeps units lost at sea in {stack.area}")
            place = wmap.areas[stack.area]
            if unit_class(stack.unit) == "ships" and place.land and not wmap.coastal(stack.area):
                found.append(f"empire {e.card} has a ship inland in {stack.area}")
    return found


def _goes(s: SevenState) -> set[tuple[int, int, int, str]]:
    return {(g.seat, g.marker, g.empire, g.action) for g in s.goes}
