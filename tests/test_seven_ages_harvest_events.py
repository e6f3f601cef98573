"""7 Ages: the harvest's events (L879-881, issue 27 items 3-4): played in an ordered window before Harvest
glory is scored, each through the cancel chain, carried out in the order played.

alice (seat 0) holds the Romans, bob (1) the Etruscans, cat (2) no empire; each harvest is compared with the
same table's harvest when nobody plays an event (the "normal" harvest L879 speaks of).
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.core import Decision
from engine.seven_ages import window
from engine.seven_ages.ai import GreedyPolicy
from engine.seven_ages.cards import load_deck
from engine.seven_ages.conflict_moves import WindowPass, WindowPlay
from engine.seven_ages.game import GAME
from tests.seven_ages_builder_civ import Table, cards_of_value

NAMES = ["alice (Red)", "bob (Blue)", "cat (Green)"]


def event(name: str) -> int:
    return next(c.number for c in load_deck().cards.values() if c.event.name == name)


HUMBUG, GLORIOUS = event("Glory? Bah, Humbug"), event("Glorious Glory")
PITY, MEEK = event("Glorious pity"), event("Blessed are the meek")
HARVEST_CARDS = (HUMBUG, GLORIOUS, PITY, MEEK)
PLAIN = [c for c in cards_of_value(2, 3, 4, 6, 1, avoid=HARVEST_CARDS)
         if load_deck().cards[c].event.timing not in ("harvest", "any")]
"""Cards that are no harvest event and no cancel: what the hands hold besides."""


def table(hands: dict[int, tuple[int, ...]], glory: tuple[int, int, int] = (0, 0, 0),
          first: int = 0) -> Table:
    """The end of turn begins with these hands and glory totals; the Romans in Latium and Campania (a city)
    earn a harvest."""
    t = Table(3, first=first).empire("Romans", 0, 12, ["Latium", "Campania"], capital="Latium",
                                     homeland="Latium").empire(
        "Etruscans", 1, 12, ["Tuscany"], capital="Tuscany", homeland="Tuscany")
    t.city("Latium", 3)
    for seat, points in enumerate(glory):
        t.state = t.state.with_player(replace(t.state.people[seat], glory=points))
    for seat, cards in hands.items():
        t.hand(seat, *cards)
    return t.enter("end_turn")


def asked(t: Table) -> list[int]:
    return [p.seat for p in t.state.pending if p.kind == window.EVENT]


def passes(t: Table) -> list[int]:
    """Every seat asked passes, in turn, until no window is open; the seats asked, in order."""
    seen = []
    while who := asked(t):
        seen.append(who[0])
        t.do(WindowPass(who[0]))
    return seen


def glories(t: Table) -> tuple[int, ...]:
    return tuple(t.glory(s) for s in range(3))


def normal(glory: tuple[int, int, int] = (0, 0, 0)) -> tuple[int, ...]:
    """Every player's glory after this table's harvest with no event played."""
    t = table({0: (PLAIN[0],), 1: (PLAIN[1],), 2: (PLAIN[2],)}, glory)
    passes(t)
    assert t.named("harvest")
    return glories(t)


def prompt(t: Table, seat: int) -> Decision:
    return GAME.decision(GAME.view(t.state, seat), seat, GAME.legal_actions(t.state, seat), NAMES)


def test_the_normal_harvest_earns_something() -> None:
    """The scenario is worth testing: with no event, the Romans' harvest gives alice glory."""
    assert normal()[0] > 0


def test_e24_glorious_glory_after_bah_humbug_leaves_a_normal_harvest() -> None:
    """L879: "if Glory? Bah, Humbug (card 24) is cancelled by Glorious Glory (card 29), Harvest glory is
    carried out normally"."""
    t = table({0: (PLAIN[0],), 1: (HUMBUG, PLAIN[1]), 2: (GLORIOUS, PLAIN[2])})
    assert asked(t) == [0]
    t.do(WindowPass(0), WindowPlay(1, HUMBUG))
    # its cancel chain opens before anything of it happens (L875), from the First player; bob, its player, is
    # not asked
    assert asked(t) == [0] and t.legal(0) == [WindowPass(0, never=True), WindowPass(0)]
    t.do(WindowPass(0))
    assert asked(t) == [2] and WindowPlay(2, GLORIOUS) in t.legal(2)
    t.do(WindowPlay(2, GLORIOUS))
    passes(t)
    assert [e.data["card"] for e in t.named("event_cancelled")] == [HUMBUG]
    assert not t.named("harvest_cancelled") and t.named("harvest")
    assert glories(t) == normal()  # a cancel only cancels: no glory of its own


def test_e24_glorious_glory_before_bah_humbug_means_no_glory() -> None:
    """L879: "but if Glorious Glory is played before Glory? Bah Humbug, no one gets glory this Harvest
    glory"."""
    t = table({0: (GLORIOUS, PLAIN[0]), 1: (HUMBUG, PLAIN[1]), 2: (PLAIN[2],)}, glory=(4, 2, 3))
    t.do(WindowPlay(0, GLORIOUS), WindowPlay(1, HUMBUG))
    # Bah, Humbug's chain: nobody holds Glorious Glory any more, and a pass is all anyone may do
    assert asked(t) == [0] and t.legal(0) == [WindowPass(0, never=True), WindowPass(0)]
    passes(t)
    assert t.named("harvest_cancelled") and not t.named("harvest")
    assert glories(t) == (4, 2, 3)


def test_the_window_asks_from_the_first_player_and_a_play_reopens_it() -> None:
    """L881: "the First player playing an event first, then the player to their left, and so on. You may pass
    and still play an event later, but when everyone sequentially passes, no one may play any further
    events"."""
    t = table({0: (PLAIN[0],), 1: (PLAIN[1],), 2: (GLORIOUS, PLAIN[2])}, first=1)
    order = [asked(t)[0]]
    t.do(WindowPass(1))
    order.append(asked(t)[0])
    t.do(WindowPlay(2, GLORIOUS))
    order += passes(t)
    assert order == [1, 2, 0, 1, 2]
    assert t.named("harvest")


def test_a_seat_set_to_never_is_not_asked() -> None:
    """The public ``events`` setting decides who is asked (L881), never the hand."""
    t = Table(3).empire("Romans", 0, 12, ["Latium"]).prefs(1, "events:never")
    t.hand(0, PLAIN[0]).hand(1, GLORIOUS).hand(2, PLAIN[1]).enter("end_turn")
    assert t.named("window_opens")[-1].data["seats"] == [0, 2]
    assert passes(t) == [0, 2]


def test_a_seat_with_no_card_is_not_asked() -> None:
    """A hand's size is public: a seat holding nothing counts as passing."""
    t = table({0: (PLAIN[0],), 2: (PLAIN[2],)})
    assert passes(t) == [0, 2]


def test_leak_two_hands_give_the_others_the_same_views_and_prompts() -> None:
    """bob holding Bah, Humbug or a plain card: alice's and cat's views and prompts are the same as he is
    asked and after he passes, and he is asked in both (his pass is never played at once)."""
    seen = []
    for bob in ((HUMBUG, PLAIN[1]), (PLAIN[3], PLAIN[1])):
        t = table({0: (PLAIN[0],), 1: bob, 2: (PLAIN[2],)})
        t.do(WindowPass(0))
        assert asked(t) == [1] and GAME.forced(t.state, 1) is None
        during = [(GAME.view(t.state, s), prompt(t, s)) for s in (0, 2)]
        assert prompt(t, 1).heading == "Turn 1: End of turn: before Harvest glory is scored, play an event " \
                                       "of the harvest, or pass"  # the stage heads it, as every heading
        t.do(WindowPass(1))
        seen.append((during, prompt(t, 2), GAME.view(t.state, 0)))
    assert seen[0] == seen[1]


def test_undo_never_crosses_a_harvest_event_played() -> None:
    """A card leaving a hand changes ``hidden_draws``; a pass does not."""
    t = table({0: (PLAIN[0],), 1: (GLORIOUS, PLAIN[1]), 2: (PLAIN[2],)})
    before = GAME.hidden_draws(t.state)
    t.do(WindowPass(0))
    assert GAME.hidden_draws(t.state) == before
    t.do(WindowPlay(1, GLORIOUS))
    assert GAME.hidden_draws(t.state) != before


def test_a_play_names_its_target_player() -> None:
    t = table({0: (PITY, PLAIN[0]), 1: (PLAIN[1],), 2: (PLAIN[2],)})
    labels = [c.label for c in prompt(t, 0).choices]
    assert labels[1].startswith("Play Glorious pity on bob (Blue): ")
    assert labels[-1] == "Play no event now"


def test_glorious_glory_as_an_event_is_worded_without_its_idle_cancel() -> None:
    """Played in the harvest's window it cancels nothing (nothing is on a chain): its label says the glory;
    in Bah, Humbug's chain it says the cancel only."""
    t = table({0: (GLORIOUS, PLAIN[0]), 1: (HUMBUG, PLAIN[1]), 2: (PLAIN[2],)})
    assert prompt(t, 0).choices[0].label == "Play Glorious Glory: gain 1 glory"
    t.do(WindowPass(0), WindowPlay(1, HUMBUG))
    assert prompt(t, 0).choices[0].label == "Play Glorious Glory: cancel 'Glory? Bah, Humbug' as it is played"


# one row per harvest card: (card, who plays it, on whom, glory before, each player's gain over the normal
# harvest; None: no harvest at all, every total as it was)
ROWS = [
    (HUMBUG, 1, 0, (4, 2, 3), None),
    (GLORIOUS, 1, 0, (4, 2, 3), (0, 1, 0)),
    (PITY, 0, 1, (4, 2, 3), (0, 5, 0)),  # bob has the least glory: L1277's claim stands
    (MEEK, 2, 1, (4, 2, 3), (0, 7, 0)),
    (PITY, 0, 2, (4, 2, 3), (0, 0, 0)),  # cat is not the least: bob has less
]


@pytest.mark.parametrize(("card", "by", "on", "before", "gains"), ROWS)
def test_each_harvest_card(card: int, by: int, on: int, before: tuple[int, int, int],
                           gains: tuple[int, int, int] | None) -> None:
    hands: dict[int, tuple[int, ...]] = {s: (PLAIN[s],) for s in range(3)}
    hands[by] = (card, PLAIN[by])
    t = table(hands, before)
    while asked(t)[0] != by:
        t.do(WindowPass(asked(t)[0]))
    target = on if load_deck().cards[card].event.target == "player" else 0
    t.do(WindowPlay(by, card, target))
    passes(t)
    if gains is None:
        assert glories(t) == before and not t.named("harvest")
    else:
        assert glories(t) == tuple(n + g for n, g in zip(normal(before), gains, strict=True))


def test_every_harvest_card_has_a_row() -> None:
    deck = load_deck().cards.values()
    assert {r[0] for r in ROWS} == {c.number for c in deck if c.event.timing == "harvest"}


def test_the_greedy_player_plays_what_gains_and_a_timeout_passes() -> None:
    t = table({0: (GLORIOUS, PLAIN[0]), 1: (PLAIN[1],), 2: (PLAIN[2],)})
    assert GreedyPolicy(0).choose(t.state, 0) == WindowPlay(0, GLORIOUS)
    assert GAME.timeout_action(t.state, 0) == WindowPass(0)


def test_the_greedy_player_pities_itself_only_when_least() -> None:
    least = table({0: (PITY, PLAIN[0]), 1: (PLAIN[1],), 2: (PLAIN[2],)}, glory=(1, 2, 3))
    assert GreedyPolicy(0).choose(least.state, 0) == WindowPlay(0, PITY, 0)
    ahead = table({0: (PITY, PLAIN[0]), 1: (PLAIN[1],), 2: (PLAIN[2],)}, glory=(5, 2, 3))
    assert GreedyPolicy(0).choose(ahead.state, 0) == WindowPass(0)


def test_the_greedy_player_spoils_a_harvest_it_would_lose() -> None:
    """bob's harvest is smaller than alice's: he plays Bah, Humbug; alice, ahead, would not."""
    t = table({0: (PLAIN[0],), 1: (HUMBUG, PLAIN[1]), 2: (PLAIN[2],)})
    t.do(WindowPass(0))
    assert GreedyPolicy(1).choose(t.state, 1) == WindowPlay(1, HUMBUG)
    t = table({0: (HUMBUG, PLAIN[0]), 1: (PLAIN[1],), 2: (PLAIN[2],)})
    assert GreedyPolicy(0).choose(t.state, 0) == WindowPass(0)


def test_the_greedy_player_saves_a_harvest_it_would_win() -> None:
    """alice's Romans earn the most: in Bah, Humbug's chain she cancels it with Glorious Glory; cat, who
    earns nothing, would not."""
    t = table({0: (GLORIOUS, PLAIN[0]), 1: (HUMBUG, PLAIN[1]), 2: (PLAIN[2],)})
    t.do(WindowPass(0), WindowPlay(1, HUMBUG))
    assert GreedyPolicy(0).choose(t.state, 0) == WindowPlay(0, GLORIOUS)
    t = table({0: (PLAIN[0],), 1: (HUMBUG, PLAIN[1]), 2: (GLORIOUS, PLAIN[2])})
    t.do(WindowPass(0), WindowPlay(1, HUMBUG), WindowPass(0))
    assert GreedyPolicy(2).choose(t.state, 2) == WindowPass(2)
