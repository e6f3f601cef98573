"""Issue 24, point 3: an event card played from the hand is shown to the table, so undo stops there.

In both History games the thread read "alice (Yellow) plays the event Astronomy." and Undo then put
the card back in the hand. Each test plays its turn through :class:`engine.core.LogReplay` (what the
service and the replay check use) and asks for the undo by its log entry, as a player would.
"""

from __future__ import annotations

import pytest

from engine.core import PUBLIC, Game, IllegalAction, LogReplay, Result, undo_entry
from engine.history.actions import Choose, Done, Expand, PlayCard
from engine.history.epochs5.actions import Invade, PlayEvent
from engine.history.epochs5.board import Ctx
from engine.history.epochs5.game import GAME as EPOCHS5
from engine.history.epochs5.state import Phase, State
from engine.history.epochs5.turn import start_turn
from engine.history.game import GAME as CLASSIC
from tests.support.history_builder import Scenario as ClassicScenario


def refuses_undo(run: LogReplay, player: int) -> bool:
    """Whether ``player``'s undo is refused in words, leaving the state as it was."""
    before = run.game.dumps(run.state)
    try:
        run.apply(undo_entry(player))
    except IllegalAction as refusal:
        assert refusal.code == "nothing_to_undo" and "take back" in refusal.message
        assert run.game.dumps(run.state) == before
        return True
    return False


def shown_to_all(game: Game, result: Result, card_name: str) -> bool:
    """Whether a public event of ``result`` is worded with the card's name (the thread's line)."""
    names = ["alice (Yellow)", "bob (Red)", "carol (Blue)"]
    lines = [game.describe_event(e, names) or "" for e in result.events if e.audience == PUBLIC]
    return any(card_name in line for line in lines)


@pytest.mark.parametrize("card", ["Astronomy", "Famine"])
def test_classic_an_event_card_played_from_the_hand_cannot_be_taken_back(card: str) -> None:
    s = ClassicScenario(epoch=2).hand(0, card, "Leader").start("Scytians", player=0)
    run = LogReplay(CLASSIC, s.state)
    card_id = CLASSIC.rules.card(card).id
    played = run.play(PlayCard(0, card_id))
    assert shown_to_all(CLASSIC, played, CLASSIC.rules.cards[card_id].name)
    assert refuses_undo(run, 0)
    assert card_id not in run.state.hands[0]


def test_classic_the_rest_of_the_turn_stays_undoable_up_to_the_played_card() -> None:
    # Astronomy alone: with a card left, ending the card's step would tell the table whether that
    # card is playable now (the events step comes back or is skipped), which is final too.
    s = ClassicScenario(epoch=2).hand(0, "Astronomy").start("Scytians", player=0)
    run = LogReplay(CLASSIC, s.state)
    run.play(PlayCard(0, "astronomy"))
    after_card = CLASSIC.dumps(run.state)
    run.play(Choose(0, "Black Sea"))  # the card's fleet: chosen in public, from nothing hidden
    assert not refuses_undo(run, 0)
    assert CLASSIC.dumps(run.state) == after_card
    run.play(Choose(0, "Black Sea"))
    before_expansion = CLASSIC.dumps(run.state)
    run.play(Expand(0, "Danubia"))  # across the Black Sea into an empty land: no die
    assert not refuses_undo(run, 0)
    assert CLASSIC.dumps(run.state) == before_expansion
    assert not refuses_undo(run, 0)  # the fleet's choice too
    assert refuses_undo(run, 0)  # but never the card
    assert "astronomy" not in run.state.hands[0]


def test_classic_a_plain_expansion_with_cards_in_hand_stays_undoable() -> None:
    s = ClassicScenario(epoch=2).hand(0, "Astronomy", "Famine").start("Scytians", player=0)
    run = LogReplay(CLASSIC, s.state)
    run.play(Done(0))  # no event this turn: on to the expansion
    before = CLASSIC.dumps(run.state)
    run.play(Expand(0, "Volga"))  # an empty land: no die
    assert not refuses_undo(run, 0)
    assert CLASSIC.dumps(run.state) == before
    assert run.state.hands[0] == ["astronomy", "famine"]


def epochs5_turn(*hand: str) -> State:
    """A 3-player 5-epoch game in epoch I, seat 0 holding ``hand`` (drafted this epoch) and starting
    the epoch's first empire on an empty board, seats 1 and 2 with nothing in hand."""
    state = State(players=3, options={"classic_drafting": False}, seed=7, epoch=1, phase=Phase.TURN)
    state.scores = [1, 2, 3]
    state.prefs = [{"reroll": "if_losing"} for _ in range(3)]
    state.hands = [sorted(hand), [], []]
    state.chosen_epoch = {card: 1 for card in hand}
    state.played_empires = [[] for _ in range(3)]
    state.revealed = [False] * 3
    rules = EPOCHS5.rules
    for later in range(2, 6):
        state.event_piles[str(later)] = rules.events_of(later)[:3]
        state.empire_piles[str(later)] = [e.key for e in rules.epochs[later]][:3]
    empire = rules.epochs[1][0]
    state.empire_of = [empire.key, None, None]
    start_turn(Ctx(state, rules), 0, empire)
    return state


def test_epochs5_levy_played_from_the_hand_cannot_be_taken_back() -> None:
    game = EPOCHS5
    run = LogReplay(game, epochs5_turn("levy"))
    played = run.play(PlayEvent(0, "levy"))
    assert shown_to_all(game, played, game.rules.events["levy"].name)
    assert refuses_undo(run, 0)
    assert "levy" not in run.state.hands[0]


def test_epochs5_an_invasion_of_an_empty_land_stays_undoable_but_not_past_the_levy() -> None:
    game = EPOCHS5
    run = LogReplay(game, epochs5_turn("levy"))
    before = game.dumps(run.state)
    run.play(Invade(0, "Arabia"))  # empty: no battle, no die
    assert not refuses_undo(run, 0)
    assert game.dumps(run.state) == before
    run.play(PlayEvent(0, "levy"))
    run.play(Invade(0, "Arabia"))
    assert not refuses_undo(run, 0)
    assert refuses_undo(run, 0)
