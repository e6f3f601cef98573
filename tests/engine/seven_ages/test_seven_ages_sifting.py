"""7 Ages option 2, Not the full deck (L1162-1170), played with the vote after each round.

L1164-1168: "before you start the game deal an agreed number of cards (which can be the full deck if
you like) face-down to all players equally. Put all remaining cards face-down aside. Each player looks
at their sub-deck, discards a card face-down and passes the remaining cards face-down to the player to
their left. Repeat until the majority of players are happy to play with the remaining cards. Still
face-down, reshuffle these remaining cards (and those put aside) into one deck and start playing. The
discarded cards are removed from the game and kept hidden from all players until game's end."
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from engine.core import Action, Event, IllegalAction
from engine.registry import make_policy
from engine.seven_ages import flow, setup, steps
from engine.seven_ages.actions import AGAIN, HAPPY, DiscardCard, SiftVote
from engine.seven_ages.cards import load_deck
from engine.seven_ages.game import GAME
from engine.seven_ages.spec import SPEC
from engine.seven_ages.state import BID, OVER, SIFT, SIFT_VOTE, SevenState, from_json, to_json
from engine.seven_ages.view import SevenView

steps.load()
NAMES = ["alex (Red)", "cat (Blue)", "dana (Green)", "eve (Yellow)", "finn (Purple)"]


def play(state: SevenState, *actions: Action) -> tuple[SevenState, list[Event]]:
    events: list[Event] = []
    for a in actions:
        ctx = flow.run(state, a)
        state = ctx.state
        events += ctx.events
    return state, events


def discard_round(state: SevenState) -> tuple[SevenState, list[Event]]:
    """Every player puts out the first card of their sub-deck."""
    assert state.phase == SIFT
    return play(state, *(DiscardCard(p.seat, p.hand[0]) for p in state.people))


def vote(state: SevenState, happy: Sequence[bool]) -> tuple[SevenState, list[Event]]:
    assert state.phase == SIFT_VOTE
    return play(state, *(SiftVote(seat, HAPPY if h else AGAIN) for seat, h in enumerate(happy)))


def test_the_agreed_number_is_dealt_and_the_rest_put_aside() -> None:
    s = setup.new_game(3, {"sub_deck": 20}, 5)
    assert s.phase == SIFT and steps.actors(s) == {0, 1, 2}
    assert [len(p.hand) for p in s.people] == [20, 20, 20] and len(s.deck) == 110 - 60
    # "which can be the full deck": any number above what the deck holds for each deals it all equally
    whole = setup.new_game(4, {"sub_deck": 55}, 5)
    assert [len(p.hand) for p in whole.people] == [27] * 4 and len(whole.deck) == 110 - 108


def test_a_majority_of_happy_players_ends_the_sifting() -> None:
    s = setup.new_game(3, {"sub_deck": 20}, 5)
    first = s.people[0].hand
    s, _ = discard_round(s)
    # "passes the remaining cards face-down to the player to their left"
    assert s.phase == SIFT_VOTE and s.people[1].hand == first[1:]
    assert steps.actors(s) == {0, 1, 2}  # every player votes at once
    s, events = vote(s, [True, False, True])
    assert s.phase == BID and len(s.removed) == 3
    assert [len(p.hand) for p in s.people] == [7, 7, 7] and len(s.deck) == 110 - 3 - 21
    assert not set(s.removed) & ({c for p in s.people for c in p.hand} | set(s.deck))
    [tally] = [e for e in events if e.type == "sift_votes"]
    words = GAME.describe_event(tally, NAMES)
    assert words is not None and "alex (Red) and dana (Green) are happy" in words and "majority" in words


def test_a_tie_is_no_majority_so_another_round() -> None:
    # "until the majority of players are happy": two of four is not a majority
    s = setup.new_game(4, {"sub_deck": 20}, 8)
    s, _ = discard_round(s)
    s, events = vote(s, [True, True, False, False])
    assert s.phase == SIFT and len(s.removed) == 4
    assert [len(p.hand) for p in s.people] == [19] * 4
    [tally] = [e for e in events if e.type == "sift_votes"]
    assert "another round" in (GAME.describe_event(tally, NAMES) or "")
    s, _ = discard_round(s)
    s, _ = vote(s, [True, True, True, False])
    assert s.phase == BID and len(s.removed) == 8 and len(s.deck) == 110 - 8 - 28


def test_sifting_ends_when_the_sub_decks_are_down_to_one_card() -> None:
    # A sub-deck of one card leaves nothing to pass on after a discard: the sifting ends, with no vote.
    s = setup.new_game(2, {"sub_deck": 2}, 3)
    s, events = discard_round(s)
    assert s.phase == BID and len(s.removed) == 2
    assert not [e for e in events if e.type == "sift_votes"]
    assert setup.new_game(2, {"sub_deck": 1}, 3).phase == BID  # one card each: no round at all


def test_sifting_ends_before_the_hands_cannot_be_dealt() -> None:
    # Everyone always wants another round: the rounds stop while the cards left still deal every hand.
    s = setup.new_game(5, {"sub_deck": 55}, 4)
    rounds = 0
    while s.phase in (SIFT, SIFT_VOTE):
        s, _ = discard_round(s)
        rounds += 1
        if s.phase == SIFT_VOTE:
            s, _ = vote(s, [False] * 5)
    assert s.phase == BID and [len(p.hand) for p in s.people] == [7] * 5
    assert len(s.deck) + 35 + len(s.removed) == 110 and len(s.deck) < 5  # another round would not deal
    assert rounds == len(s.removed) // 5


def test_discards_sub_decks_and_votes_stay_hidden() -> None:
    s = setup.new_game(3, {"sub_deck": 20}, 5)
    # Seat 0 puts out one card or another: nobody else's view differs, and no event names the card.
    a, events_a = play(s, DiscardCard(0, s.people[0].hand[0]))
    b, _ = play(s, DiscardCard(0, s.people[0].hand[1]))
    for viewer in (1, 2, None):
        assert GAME.view(a, viewer) == GAME.view(b, viewer)
    assert all("card" not in e.data for e in events_a)
    view = GAME.view(a, 1)
    assert view["your_hand"] == list(a.people[1].hand) and view["removed"] is None
    assert view["removed_size"] == 1 and [p["hand_size"] for p in view["people"]] == [19, 20, 20]
    # Votes: seat 0 votes one way or the other; until every vote is in, the others cannot tell.
    s, _ = discard_round(s)
    happy, _ = play(s, SiftVote(0, HAPPY))
    unhappy, _ = play(s, SiftVote(0, AGAIN))
    for viewer in (1, 2, None):
        assert GAME.view(happy, viewer) == GAME.view(unhappy, viewer)
    assert GAME.view(happy, 1)["people"][0]["has_voted"]
    with pytest.raises(IllegalAction, match="another round") as refused:
        play(s, SiftVote(1, "maybe"))
    assert refused.value.code == "bad_vote"


def test_the_discards_are_shown_at_the_game_end() -> None:
    state = GAME.setup(2, SPEC.checked_options(2, {"sub_deck": 20, "turn_limit": 1}), 11)
    ais = [make_policy("seven-ages", "random", 11 * 31 + p) for p in range(2)]
    while not GAME.is_over(state):
        seat = min(GAME.actors(state))
        state = GAME.apply(state, ais[seat].choose(state, seat)).state
    assert state.phase == OVER and state.removed
    assert GAME.view(state, 0)["removed"] == sorted(state.removed)


def test_the_skip_move_and_the_ai_are_happy() -> None:
    s, _ = discard_round(setup.new_game(3, {"sub_deck": 20}, 5))
    assert GAME.timeout_action(s, 1) == SiftVote(1, HAPPY)
    assert make_policy("seven-ages", "greedy", 1).choose(s, 1) == SiftVote(1, HAPPY)
    # the AI's and the skip move's discard: the lowest card of the sub-deck
    fresh = setup.new_game(3, {"sub_deck": 20}, 5)
    deck = load_deck().cards
    low = min(fresh.people[2].hand, key=lambda c: (deck[c].value, c))
    assert GAME.timeout_action(fresh, 2) == DiscardCard(2, low)


def test_sifting_replays_exactly_and_survives_json() -> None:
    def run() -> SevenState:
        s = setup.new_game(3, {"sub_deck": 12}, 21)
        s, _ = discard_round(s)
        s, _ = vote(s, [True, False, False])
        s, _ = discard_round(s)
        mid, _ = play(s, SiftVote(2, AGAIN))
        assert from_json(to_json(mid)) == mid  # a vote half-taken is kept in the saved game
        s, _ = play(mid, SiftVote(0, HAPPY), SiftVote(1, HAPPY))
        return s

    first, second = run(), run()
    assert first == second and first.phase == BID and len(first.removed) == 6


def test_the_summary_names_the_discards() -> None:
    view: SevenView = {**GAME.view(setup.new_game(2, {}, 1), 0), "removed": [12, 44], "over": True}
    words = GAME.summary_text(view, NAMES[:2])
    assert "put out of the game before it began: 12 (Romans), 44 (Italians)." in words
