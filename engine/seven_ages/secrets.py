"""What one seat alone knows in 7 Ages, varied: the private variants behind the undo rule
(:meth:`engine.core.Game.private_variants`, :func:`engine.core.shows_hidden`).

The others see the size of a hand, that a bid or a vote is in, and that a marker lies face down on
an empire (see :mod:`engine.seven_ages.view`); of a seat's armed orders they see nothing. So a state
in which the seat's hand cards and its bid card have changed places with cards of the face-down deck (or,
once it runs out, of the face-down discard pile), its vote (and its sealed ballots in an option 16 vote)
is the other way, its face-down markers have changed places with each other and its armed orders are moved
or gone looks the same to every other seat and to a spectator.
"""

from __future__ import annotations

from dataclasses import replace

from engine.seven_ages.ballots import BALLOT
from engine.seven_ages.state import Marker, SevenState


def private_variants(state: SevenState, seat: int) -> list[SevenState]:
    """Two states as unlike ``state`` in ``seat``'s secrets as the hidden piles allow (one taking
    stand-ins from the top of the piles and turning markers one way, the other from the bottom and
    the other way); those equal to ``state`` are left out."""
    if not 0 <= seat < state.players:
        return []
    out: list[SevenState] = []
    for backwards in (False, True):
        variant = _swap_cards(state, seat, backwards)
        variant = _turn_vote(variant, seat)
        variant = _turn_ballots(variant, seat)
        variant = _shift_markers(variant, seat, backwards)
        if variant != state and variant not in out:
            out.append(variant)
    return out


def _swap_cards(state: SevenState, seat: int, backwards: bool) -> SevenState:
    """The seat's hand cards, then its bid card, each exchanged with an unseen card it does not hold."""
    person = state.people[seat]
    piles = {"deck": list(state.deck), "discard": list(state.discard)}
    held = set(person.hand) | ({person.bid} if person.bid is not None else set())
    places = [(name, i) for name in piles for i in range(len(piles[name])) if piles[name][i] not in held]
    if backwards:
        places.reverse()
    spots = iter(places)

    def exchange(card: int) -> int:
        spot = next(spots, None)
        if spot is None:
            return card
        name, i = spot
        stand_in = piles[name][i]
        piles[name][i] = card
        return stand_in

    hand = tuple(exchange(card) for card in person.hand)
    bid = exchange(person.bid) if person.bid is not None else None
    armed = _orders(person.armed, dict(zip(person.hand, hand, strict=True)), backwards)
    return replace(state, deck=tuple(piles["deck"]), discard=tuple(piles["discard"]),
                   people=tuple(replace(p, hand=hand, bid=bid, armed=armed) if p.seat == seat else p
                                for p in state.people))


def _orders(armed: tuple[tuple[int, int, str, int], ...], moved: dict[int, int],
            backwards: bool) -> tuple[tuple[int, int, str, int], ...]:
    """The seat's armed orders (:mod:`engine.seven_ages.armed`) varied: withdrawn in one variant, in the
    other following their cards to the stand-ins (an order on a card not held is dropped as it fires)."""
    if backwards:
        return ()
    return tuple(sorted((moved.get(card, card), empire, areas, to) for card, empire, areas, to in armed))


def _turn_vote(state: SevenState, seat: int) -> SevenState:
    """The seat's face-down sifting vote (option 2) the other way."""
    person = state.people[seat]
    if person.happy is None:
        return state
    return state.with_player(replace(person, happy=not person.happy))


def _turn_ballots(state: SevenState, seat: int) -> SevenState:
    """The seat's sealed ballots in an option 16 vote (:mod:`engine.seven_ages.ballots`) the other way."""
    if not any(p.kind == BALLOT and p.seat == seat for p in state.sealed):
        return state
    return replace(state, sealed=tuple(replace(p, data={**p.data, "yes": not p.data["yes"]})
                                       if p.kind == BALLOT and p.seat == seat else p for p in state.sealed))


def _shift_markers(state: SevenState, seat: int, backwards: bool) -> SevenState:
    """The actions of the seat's face-down markers moved round by one place among them."""
    mine = [i for i, m in enumerate(state.markers) if m.owner == seat and m.face_down]
    actions = [state.markers[i].action for i in mine]
    if len(set(actions)) < 2:
        return state
    shifted = actions[-1:] + actions[:-1] if backwards else actions[1:] + actions[:1]
    markers: list[Marker] = list(state.markers)
    for i, action in zip(mine, shifted, strict=True):
        markers[i] = replace(markers[i], action=action)
    return replace(state, markers=tuple(markers))
