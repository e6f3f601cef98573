"""7 Ages: preparing to play and who goes first (L299-337), and the state's JSON round trip."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.core import IllegalAction
from engine.seven_ages import flow, setup, steps
from engine.seven_ages.actions import Bid, ChooseColours
from engine.seven_ages.cards import load_deck
from engine.seven_ages.state import BID, COLOURS, MARKERS, SevenState, from_json, to_json

steps.load()
CAT, JACK, RAY, PATRICE = 0, 1, 2, 3


def cards_of_value(*values: int) -> list[int]:
    """Distinct card numbers with the given values, in that order."""
    pool = sorted(load_deck().cards.values(), key=lambda c: c.number)
    out: list[int] = []
    for v in values:
        out.append(next(c.number for c in pool if c.value == v and c.number not in out))
    return out


def with_hands(state: SevenState, hands: dict[int, list[int]]) -> SevenState:
    taken = {c for h in hands.values() for c in h}
    deck = tuple(c for c in state.deck + tuple(c for p in state.people for c in p.hand) if c not in taken)
    people = tuple(replace(p, hand=tuple(sorted(hands.get(p.seat, [])))) for p in state.people)
    return replace(state, deck=deck, people=people)


def play(state: SevenState, *actions: object) -> SevenState:
    for a in actions:
        state = flow.run(state, a).state  # type: ignore[arg-type]
    return state


def test_deal_seven_cards_each() -> None:
    """'Shuffle the cards and deal 7 face-down to each player' (L307)."""
    s = setup.new_game(4, {}, 3)
    assert [len(p.hand) for p in s.people] == [7, 7, 7, 7]
    assert len(s.deck) == 110 - 28
    assert s.phase == BID and steps.actors(s) == {0, 1, 2, 3}


def test_who_goes_first_example() -> None:
    """E1 (L329-335): 'Cat and Jack play a '7' card, while Ray and Patrice play a '1' card. Jack and Cat
    must now both play a second card, and Cat wins with a '5' to Jack's '4'. ... Jack then picks ...
    Ray (on Cat's left) picks ... and Patrice picks'."""
    c7a, c7b, c1a, c1b, c5, c4 = cards_of_value(7, 7, 1, 1, 5, 4)
    s = with_hands(setup.new_game(4, {}, 1), {CAT: [c7a, c5], JACK: [c7b, c4], RAY: [c1a], PATRICE: [c1b]})
    s = play(s, Bid(CAT, c7a), Bid(JACK, c7b), Bid(RAY, c1a), Bid(PATRICE, c1b))
    assert s.phase == BID and steps.actors(s) == {CAT, JACK}  # the tie re-bids
    s = play(s, Bid(JACK, c4), Bid(CAT, c5))
    assert s.phase == COLOURS and s.first == CAT
    assert setup.colour_order(s) == (CAT, JACK, RAY, PATRICE)
    assert steps.actors(s) == {CAT}
    with pytest.raises(IllegalAction):
        flow.run(s, ChooseColours(CAT, "purple-ish"))
    s = play(s, ChooseColours(CAT, "orange/yellow"), ChooseColours(JACK, "red/pink"),
             ChooseColours(RAY, "blue"), ChooseColours(PATRICE, "green"))
    # 'The other 3 empires are available for anyone to build' (L335): one group of three stays free
    assert setup.free_groups(s) == ["purple"]
    assert s.phase == MARKERS and s.turn == 1
    assert all(c in s.discard for c in (c7a, c7b, c1a, c1b, c5, c4))


def test_tied_player_without_cards_plays_from_the_deck() -> None:
    """'If you run out of cards, the tied players pick and play cards from the deck' (L321)."""
    a, b = cards_of_value(6, 6)
    s = with_hands(setup.new_game(2, {}, 1), {0: [a], 1: [b]})
    s = play(s, Bid(0, a), Bid(1, b))
    assert s.phase == BID and s.people[0].hand == ()
    top, second = s.deck[:2]
    s = play(s, Bid(0, setup.FROM_DECK), Bid(1, setup.FROM_DECK))
    assert top in s.discard and second in s.discard
    assert s.people[0].bids[1] == load_deck().cards[top].value


def test_tied_players_with_no_cards_and_no_deck_play_from_the_reshuffled_discards() -> None:
    """L321's "play cards from the deck" once the deck itself has run out (a sifted game can deal it
    nearly bare): "When there are no more cards left in the deck, shuffle the discard pile and turn it
    face-down to form the new deck" (L2107). The tied bids are discards, so a deck there is."""
    a, b = cards_of_value(6, 6)
    s = with_hands(setup.new_game(2, {}, 1), {0: [a], 1: [b]})
    s = replace(s, deck=())
    s = play(s, Bid(0, a), Bid(1, b))
    assert s.phase == BID and s.deck == () and set(s.discard) >= {a, b}
    s = play(s, Bid(0, setup.FROM_DECK), Bid(1, setup.FROM_DECK))
    assert len(s.people[0].bids) == 2 and len(s.people[1].bids) == 2  # both played a second card


def test_state_round_trips_through_json() -> None:
    s = setup.new_game(5, {"total_history": True}, 11)
    assert from_json(to_json(s)) == s
