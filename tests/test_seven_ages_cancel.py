"""7 Ages: the cancel chain (L871-881, issue 27 item 4, E24).

An event played opens a window before anything of it happens (L875) in which only the cancels of the event on
top are offered (L877); a cancel is itself an event that can be cancelled (L873); when every seat asked has
passed in turn, the chain resolves from the top. Who is asked depends on the public ``events`` setting only.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from engine.core import Decision
from engine.seven_ages import window
from engine.seven_ages.actions import TurnMarker
from engine.seven_ages.ai import GreedyPolicy
from engine.seven_ages.cancels import standing
from engine.seven_ages.cards import load_deck
from engine.seven_ages.civilisation_moves import EventPick, PlayEvent
from engine.seven_ages.conflict_moves import WindowPass, WindowPlay
from engine.seven_ages.game import GAME
from engine.seven_ages.state import Leader
from tests.seven_ages_builder_civ import Table, card_of, cards_of_value

NAMES = ["alice (Red)", "bob (Blue)", "cat (Green)"]


def event(name: str) -> int:
    return next(c.number for c in load_deck().cards.values() if c.event.name == name)


I_SPY, COUNTERSPY, CYBERTHIEF = event("I spy"), event("Counterspy"), event("Cyberthief")
NEW_DYNASTY, BAD_AUGURY, GOLD_MINE = event("New Dynasty"), event("Bad Augury"), event("Gold mine")
SPECIAL = (I_SPY, COUNTERSPY, CYBERTHIEF, NEW_DYNASTY, BAD_AUGURY, GOLD_MINE)
PLAIN = cards_of_value(2, 3, 6, 4, avoid=SPECIAL)
"""Cards no cancel names and no cancel is: what the hands hold besides."""


def table(hands: dict[int, tuple[int, ...]], civ: int = 0) -> Table:
    """alice (seat 0) holds the Romans in Latium, bob (1) the Etruscans in Tuscany with an Artist, cat (2) no
    empire; ``civ`` turns over their Civilise marker."""
    t = Table(3).empire("Romans", 0, 12, ["Latium"], capital="Latium").empire(
        "Etruscans", 1, 12, ["Tuscany"], leaders=(("Artist", "Tuscany"),), capital="Tuscany")
    for seat, cards in hands.items():
        t.hand(seat, *cards)
    empire = ("Romans", "Etruscans")[civ]
    t.marker(civ, "civilise", empire).enter("civilise")
    return t.do(TurnMarker(civ, len(t.state.markers) - 1))


def asked(t: Table) -> list[int]:
    return [p.seat for p in t.state.pending if p.kind == window.EVENT]


def passes(t: Table) -> Table:
    """Every seat asked passes, in turn, until the window closes."""
    while who := asked(t):
        t.do(WindowPass(who[0]))
    return t


def test_the_chain_resolves_top_down() -> None:
    """L873: the top stands and cancels the one under it; a cancelled cancel lets the one under it stand."""
    assert standing(1) == [True]
    assert standing(2) == [False, True]
    assert standing(3) == [True, False, True]


def test_e24_counterspy_cancels_i_spy() -> None:
    """L871: "Some events cancel others (e.g., Counterspy (card 71) cancels I spy (card 81)). Cancelled cards
    have no effect and are discarded"."""
    t = table({0: (I_SPY, PLAIN[0]), 1: (COUNTERSPY, PLAIN[1])})
    t.do(PlayEvent(0, I_SPY))
    assert asked(t) == [1]  # alice played it: bob is asked first
    assert set(t.legal(1)) == {WindowPlay(1, COUNTERSPY), WindowPass(1, never=True), WindowPass(1)}
    play = prompt(t, 1).choices[0]
    assert play.label == "Play Counterspy: cancel 'I spy' as it is played"
    t.do(WindowPlay(1, COUNTERSPY))
    assert asked(t) == [2]  # the window reopens on Counterspy
    said = GAME.describe_event(t.named("cancel_played")[-1], NAMES)
    assert said == "bob (Blue) plays Counterspy to cancel I spy."
    passes(t)
    assert not t.named("hand_seen") and t.state.people[0].hand == (PLAIN[0],)  # I spy did nothing
    assert t.state.people[1].hand == (PLAIN[1],)
    assert {I_SPY, COUNTERSPY} <= set(t.state.discard)
    go = t.state.go_of(0)
    assert go is not None and go.stage == "cards" and not t.state.pending
    said = GAME.describe_event(t.named("event_cancelled")[-1], NAMES)
    assert said == "I spy, played by alice (Red), is cancelled by Counterspy: it has no effect."


def test_e24_cyberthief_cancels_counterspy_and_i_spy_happens() -> None:
    """L873: "Cyberthief (card 10) is then played to cancel Counterspy allowing I spy to be implemented"."""
    t = table({0: (I_SPY, PLAIN[0]), 1: (COUNTERSPY, PLAIN[1]), 2: (CYBERTHIEF,)})
    t.do(PlayEvent(0, I_SPY), WindowPlay(1, COUNTERSPY))
    assert set(t.legal(2)) == {WindowPlay(2, CYBERTHIEF), WindowPass(2, never=True), WindowPass(2)}
    t.do(WindowPlay(2, CYBERTHIEF))
    passes(t)
    assert [int(e.data["card"]) for e in t.named("event_cancelled")] == [COUNTERSPY]
    assert t.legal(0) == [EventPick(0, "seat:1")]  # I spy goes on: only bob holds a card to look at
    t.do(EventPick(0, "seat:1"), EventPick(0, f"card:{PLAIN[1]}"))
    assert PLAIN[1] in t.state.people[0].hand and not t.state.people[1].hand
    assert not t.state.people[2].hand and {I_SPY, COUNTERSPY, CYBERTHIEF} <= set(t.state.discard)


def dynasty(check: int) -> Table:
    """alice plays New Dynasty on bob's Etruscans (Leader number 1); the deck's top card would be its check
    (L875), the cup holds a Builder."""
    t = table({0: (NEW_DYNASTY,), 1: (BAD_AUGURY, PLAIN[0])})
    t.deck_top(check)
    t.state = replace(t.state, cup=("Builder",))
    return t.do(PlayEvent(0, NEW_DYNASTY, card_of("Etruscans")))


def test_e24_bad_augury_comes_before_new_dynasty_draws_its_check() -> None:
    """L875: "if New Dynasty (card 34) was played on an empire, Bad Augury (card 15) would need to be played
    to cancel it before a card is picked from the deck to see if there will be a new dynasty"."""
    check = cards_of_value(6, avoid=SPECIAL)[0]
    t = dynasty(check)
    assert t.state.deck[0] == check and not t.named("card_check")  # nothing of it has happened yet
    assert WindowPlay(1, BAD_AUGURY) in t.legal(1)
    t.do(WindowPlay(1, BAD_AUGURY))
    passes(t)
    assert t.state.deck[0] == check and not t.named("card_check")  # no check card was ever picked
    assert t.of("Etruscans").leaders == (Leader("Artist", ("Artist",), "Tuscany"),)


def test_e24_after_the_check_card_bad_augury_is_refused() -> None:
    """The window is before the check: once every seat asked passed, the card is picked and Bad Augury can no
    longer be played on it."""
    check = cards_of_value(6, avoid=SPECIAL)[0]
    t = passes(dynasty(check))
    assert [int(e.data["card"]) for e in t.named("card_check")] == [check]
    assert t.of("Etruscans").leaders == (Leader("Builder", ("Builder",), "Tuscany"),)  # a new dynasty
    assert t.legal(1) == []
    t.refused(WindowPlay(1, BAD_AUGURY))
    assert BAD_AUGURY in t.state.people[1].hand


def test_e24_only_a_cancel_of_the_event_on_top_is_offered() -> None:
    """L877: "if Counterspy is played on you, you could play I spy to cancel it but couldn't play Gold mine
    (card 93) before Counterspy is implemented". Bob plays Counterspy in his Civilise; alice holds I spy and
    Gold mine."""
    t = table({0: (GOLD_MINE, I_SPY), 1: (COUNTERSPY,)}, civ=1)
    t.do(PlayEvent(1, COUNTERSPY))
    assert asked(t) == [0]
    assert set(t.legal(0)) == {WindowPlay(0, I_SPY), WindowPass(0, never=True), WindowPass(0)}
    assert t.refused(WindowPlay(0, GOLD_MINE), "not_playable").message == "You cannot play that event now."
    t.refused(PlayEvent(0, GOLD_MINE, card_of("Romans")))
    t.do(WindowPlay(0, I_SPY))
    passes(t)
    assert [int(e.data["card"]) for e in t.named("event_cancelled")] == [COUNTERSPY]
    assert not t.named("hand_seen") and t.state.people[0].hand == (GOLD_MINE,)


def test_an_event_no_card_cancels_opens_no_window() -> None:
    """Gold mine is named by no cancel of the deck (public): it happens at once, nobody is asked."""
    t = table({0: (GOLD_MINE,), 1: (BAD_AUGURY, COUNTERSPY)})
    t.do(PlayEvent(0, GOLD_MINE, card_of("Romans")))
    assert not t.state.pending and t.of("Romans").money == 7


def test_who_is_asked_follows_the_public_setting_and_the_target() -> None:
    """A seat whose ``events`` setting is ``never`` is not asked, except the player of the event's target
    empire (and the event's own player, once a cancel is played on it)."""
    t = Table(3).empire("Romans", 0, 12, ["Latium"]).empire("Etruscans", 1, 12, ["Tuscany"])
    t.prefs(1, "events:never").prefs(2, "events:never").hand(0, NEW_DYNASTY)
    t.marker(0, "civilise", "Romans").enter("civilise")
    t.do(TurnMarker(0, 0), PlayEvent(0, NEW_DYNASTY, card_of("Etruscans")))
    opened = t.named("window_opens")[-1]
    assert opened.data["seats"] == [0, 1] and asked(t) == [1]  # cat is not asked; bob, the target, is
    t.do(WindowPass(1))
    assert not asked(t) and t.named("card_check")  # alice is skipped: it went on


def prompt(t: Table, seat: int) -> Decision:
    return GAME.decision(GAME.view(t.state, seat), seat, GAME.legal_actions(t.state, seat), NAMES)


def test_a_seat_holding_no_cancel_is_asked_all_the_same() -> None:
    """Whatever bob holds, cat's and alice's views and decisions are the same during the window, and bob is
    asked in both (L881's pass); bob's own decision differs only by the cancel he may play."""
    seen = []
    for bob in ((COUNTERSPY, PLAIN[1]), (PLAIN[2], PLAIN[1])):
        t = table({0: (I_SPY, PLAIN[0]), 1: bob, 2: (PLAIN[3],)})
        t.do(PlayEvent(0, I_SPY))
        assert t.actors() == frozenset({1}) and GAME.forced(t.state, 1) is None
        others = [(GAME.view(t.state, s), prompt(t, s)) for s in (0, 2)]
        asked_bob = prompt(t, 1)
        assert asked_bob.heading == ("Turn 1: Civilise: I spy may be cancelled now: play a card that cancels "
                                     "it, or pass")
        assert asked_bob.choices[-1].label == "Play no event now"
        t.do(WindowPass(1))
        later = prompt(t, 2)
        seen.append((others, later, GAME.view(t.state, 0)))
        # cat holds no cancel, yet is asked: she might have held one (only her hand's size is public)
        assert GAME.forced(t.state, 2) is None
    assert seen[0] == seen[1]


def test_undo_never_crosses_a_cancel_played() -> None:
    """A cancel leaves its player's hand: the undo rule sees it (hidden_draws); a pass shows nothing."""
    t = table({0: (I_SPY, PLAIN[0]), 1: (COUNTERSPY, PLAIN[1]), 2: (PLAIN[2],)})
    t.do(PlayEvent(0, I_SPY))
    before = GAME.hidden_draws(t.state)
    t.do(WindowPlay(1, COUNTERSPY))
    assert GAME.hidden_draws(t.state) != before
    before = GAME.hidden_draws(t.state)
    t.do(WindowPass(2))
    assert GAME.hidden_draws(t.state) == before


def test_the_greedy_player_cancels_what_hurts_it_and_a_timeout_passes() -> None:
    """Bob holds Bad Augury: New Dynasty on his empire hurts him, he cancels it; on a timeout he passes."""
    t = dynasty(cards_of_value(6, avoid=SPECIAL)[0])
    assert GreedyPolicy(1).choose(t.state, 1) == WindowPlay(1, BAD_AUGURY)
    assert GAME.timeout_action(t.state, 1) == WindowPass(1)


def test_the_greedy_player_lets_an_event_that_hurts_another_pass() -> None:
    """Bob holds Bad Augury, but New Dynasty goes on alice's own Romans (not the glory leader's, not his)."""
    t = table({0: (NEW_DYNASTY,), 1: (BAD_AUGURY,)})
    t.state = t.state.with_player(replace(t.state.people[2], glory=9))
    t.do(PlayEvent(0, NEW_DYNASTY, card_of("Romans")))
    assert GreedyPolicy(1).choose(t.state, 1) == WindowPass(1)


def test_the_greedy_player_cancels_a_cancel_of_its_own_event() -> None:
    """Alice's I spy is cancelled by bob's Counterspy; alice holds Cyberthief: she cancels the Counterspy."""
    t = table({0: (I_SPY, CYBERTHIEF), 1: (COUNTERSPY,)})
    t.do(PlayEvent(0, I_SPY))
    assert GreedyPolicy(1).choose(t.state, 1) == WindowPlay(1, COUNTERSPY)  # I spy may be played on bob
    t.do(WindowPlay(1, COUNTERSPY), WindowPass(2))
    assert asked(t) == [0]
    assert GreedyPolicy(0).choose(t.state, 0) == WindowPlay(0, CYBERTHIEF)


@pytest.mark.parametrize("seed", range(12))
def test_random_chains_resolve_by_the_number_of_cancels(seed: int) -> None:
    """Counterspy and Cyberthief dealt at random, every seat asked playing or passing at random: I spy is
    carried out exactly when an even number of cancels was played (each cancel undoes the one under it,
    L873), and every card played has left its hand for the discards."""
    rng = random.Random(seed)
    hands: dict[int, list[int]] = {0: [I_SPY], 1: [], 2: []}
    for card in (COUNTERSPY, CYBERTHIEF):
        hands[rng.randrange(3)].append(card)
    t = table({s: (*cards, PLAIN[s]) for s, cards in hands.items()})
    t.do(PlayEvent(0, I_SPY))
    played = []
    while who := asked(t):
        options = t.legal(who[0])
        move = rng.choice(options)
        if isinstance(move, WindowPlay):
            played.append(move.card)
        t.do(move)
    carried_out = bool(t.legal(0)) and all(isinstance(a, EventPick) for a in t.legal(0))
    assert carried_out == (len(played) % 2 == 0)
    assert all(c in t.state.discard and all(c not in p.hand for p in t.state.people) for c in played)
