"""Words for Eight-Minute Empire: event sentences, decisions and labels, status, hand, board, summary."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engine.core import Action, Event, decide
from engine.eight_minute import text
from engine.eight_minute.actions import Bid, ChooseAction, ChooseFirst, Destroy, Done, Move, Place, TakeCard
from engine.eight_minute.data import load_data
from engine.eight_minute.game import GAME
from engine.eight_minute.state import NEUTRAL, EMState, Phase
from engine.registry import make_policy

ROOT = Path(__file__).resolve().parents[3]
DATA = load_data()
NAMES = ["alice (Red)", "bob (Blue)", "carol (Green)", "dave (Yellow)", "erin (Purple)"]


def label(state: EMState, action: Action, player: int = 0) -> str:
    """The label ``player``'s decision gives ``action`` (labels are built from the view alone)."""
    return text.decision(GAME.view(state, player), player, [action], ()).choices[0].label

#: Seeded games covering every kind of moment: 2 players (neutral armies) with the goods
#: tokens and tied bids rolled off (nobody said who is youngest), 3 players with a youngest
#: player, 5 players over the three-game Full Game.
GAMES: list[tuple[int, dict[str, Any], int, str]] = [
    (2, {"goods_tokens": True}, 4, "greedy"),
    (2, {}, 8, "random"),
    (3, {"youngest": 2}, 5, "random"),
    (3, {}, 2, "random"),
    (5, {"full_game": True, "goods_tokens": True}, 6, "greedy"),
]


def playout(players: int, options: dict[str, Any], seed: int, policy: str) -> Iterator[
        tuple[EMState, int, list[Action], tuple[Event, ...]]]:
    """Each step of a seeded AI game: the state before, who acts, the legal actions, the events after."""
    state = GAME.setup(players, options, seed)
    ais = [make_policy("eight-minute", policy, seed * 7 + p) for p in range(players)]
    while not GAME.is_over(state):
        player = min(GAME.actors(state))
        legal = GAME.legal_actions(state, player)
        result = GAME.apply(state, ais[player].choose(state, player))
        yield state, player, legal, result.events
        state = result.state


@pytest.fixture(scope="module")
def steps() -> list[tuple[EMState, int, list[Action], tuple[Event, ...]]]:
    return [step for game in GAMES for step in playout(*game)]


def test_event_types_match_what_the_engine_emits() -> None:
    source = (ROOT / "engine" / "eight_minute" / "flow.py").read_text(encoding="utf-8")
    emitted = set(re.findall(r'ctx\.emit\(\s*"([a-z_]+)"', source))
    assert emitted, "found the engine's events"
    assert emitted == set(text.EVENT_TYPES)


def test_every_event_of_seeded_playouts_is_described(steps: list[Any]) -> None:
    """Every event type but the end has a sentence (the contract checks each sentence reads, at every move
    of every game's playouts); the seeded games reach all but the rare ones."""
    seen: set[str] = set()
    for _, _, _, events in steps:
        for event in events:
            line = text.describe_event(event, NAMES)
            seen.add(event.type)
            if event.type == "game_over":  # told once by the platform, with the summary
                assert line is None
            else:
                assert line, event
    # The playouts reach every event but the rare ones a seed may miss (a die roll-off,
    # an ignored card), which the tests below write by hand.
    assert seen >= set(text.EVENT_TYPES) - {"bid_roll", "action_ignored"}


def test_hand_written_events() -> None:
    roll = text.describe_event(Event("bid_roll", {"rolls": [[0, 6], [2, 3]]}), NAMES)
    assert roll is not None and "alice (Red) rolls 6" in roll and "carol (Green) rolls 3" in roll
    ignored = text.describe_event(Event("action_ignored", {"player": 1, "card": 14}), NAMES)
    assert ignored is not None and "bob (Blue)" in ignored and "ignores" in ignored
    bids = text.describe_event(Event("bids_revealed", {"bids": [2, 0, 5]}), NAMES[:3])
    assert bids == "Bids revealed: alice (Red) 2, bob (Blue) 0, carol (Green) 5."
    # Card 14 (food): place 4 or move 2 over land. The third face-up card costs 1 coin.
    taken = text.describe_event(Event("card_taken", {"player": 0, "card": 14, "position": 2, "price": 1,
                                                     "drawn": 3}), NAMES)
    assert taken is not None
    assert "card 3" in taken and "1 coin" in taken and "Place 4" in taken and " or " in taken
    assert "Food" in taken
    sail = text.describe_event(Event("army_moved", {"player": 3, "source": "eastwatch", "to": "sunhaven",
                                                    "water": True}), NAMES)
    assert sail == "dave (Yellow) moves an army from Eastwatch to Sunhaven over the water."
    neutral = text.describe_event(Event("army_destroyed", {"player": 0, "region": "greyfen",
                                                           "owner": NEUTRAL}), NAMES)
    assert neutral is not None and "neutral" in neutral and "Greyfen" in neutral
    # the end of the game is told once, by the platform with the summary (result_text names a tie)
    assert text.describe_event(Event("game_over", {"scores": [9, 12, 12]}), NAMES[:3]) is None


def test_a_secret_bid_is_told_only_to_its_bidder(steps: list[Any]) -> None:
    for _, player, _, events in steps:
        for event in events:
            if event.type != "your_bid":
                continue
            others = [p for p in range(5) if p != player]
            assert event.visible_to(player)
            for other in others:
                assert not event.visible_to(other) and not event.visible_to(None)
            line = text.describe_event(event, NAMES)
            assert line is not None and str(event.data["amount"]) in line
            return
    raise AssertionError("no bid was made")


def test_decisions_list_the_legal_moves_in_order_grouped_by_kind(steps: list[Any]) -> None:
    """Every decision lists the legal moves in the engine's order and groups a move kind all or not at all,
    over decisions of every kind (that each legal move is offered once with a unique short label is the
    contract's, at every move of every game's playouts)."""
    kinds: set[str] = set()
    for state, player, legal, _ in steps:
        decision = decide(GAME, state, player)
        assert decision is not None
        assert [c.action for c in decision.choices] == legal
        for choice in decision.choices:
            groups = {c.group for c in decision.choices if c.action.kind == choice.action.kind}
            assert choice.group or groups == {""}, "a move kind is grouped all or not at all"
        kinds |= {a.kind for a in legal}
    assert kinds >= {"bid", "neutral", "first", "take", "choose", "place", "move", "city", "destroy", "done"}


def test_labels_by_the_rulebook() -> None:
    state = GAME.setup(3, {}, 1)
    state.row = [1, 6, 14, 23, 13, 40]  # positions 1 to 6 cost 0, 1, 1, 2, 2, 3 coins
    state.phase, state.current, state.first_player = Phase.TURN, 0, 0
    free = label(state, TakeCard(0, 0))
    assert free.startswith("Card 1 (free)") and "Place 1 army" in free and "Crystal" in free
    third = label(state, TakeCard(0, 2))
    assert third.startswith("Card 3 (1 coin)") and "Place 4 armies or Move 2 over land" in third
    last = label(state, TakeCard(0, 5))
    assert last.startswith("Card 6 (3 coins)") and "Wild" in last
    assert label(state, Bid(0, 1)) == "Bid 1 coin"
    assert label(state, Place(0, "crossroads")) == "Place an army in Crossroads"
    # Eastwatch-Sunhaven is a dotted water link; Crossroads-Westford a land border.
    assert label(state, Move(0, "eastwatch", "sunhaven")).endswith("(by water)")
    assert label(state, Move(0, "crossroads", "westford")) == "Move Crossroads → Westford"
    assert label(state, Destroy(0, "greyfen", 1)) == "Destroy an army of Blue in Greyfen"
    assert label(state, Destroy(0, "greyfen", NEUTRAL)) == "Destroy a neutral army in Greyfen"


def test_labels_follow_the_card_under_way() -> None:
    state = GAME.setup(3, {}, 1)
    state.row = [14, 6, 1, 23, 13, 40]
    state = GAME.apply(GAME.apply(GAME.apply(state, Bid(0, 0)).state, Bid(1, 0)).state, Bid(2, 0)).state
    winner = min(GAME.actors(state))
    state = GAME.apply(state, ChooseFirst(winner, 0)).state
    state = GAME.apply(state, TakeCard(0, 0)).state  # card 14: place 4 armies or move 2
    decision = decide(GAME, state, 0)
    assert decision is not None
    assert {c.label for c in decision.choices} == {"Place 4 armies", "Move 2 over land",
                                                   "Ignore the card's action"}
    assert "choose which action" in decision.heading
    state = GAME.apply(state, ChooseAction(0, 1)).state  # move 2
    assert label(state, Done(0)) == "Stop here (2 moves unused)"


def test_headings_say_what_is_decided() -> None:
    """Each step's heading names the decision and what it is for."""
    state = GAME.setup(3, {}, 1)
    decision = decide(GAME, state, 0)
    assert decision is not None
    assert decision.heading.startswith("Bid for first player: you have 11 coins")
    state = GAME.setup(3, {}, 1)
    state.row = [14, 6, 1, 23, 13, 40]
    state = GAME.apply(GAME.apply(GAME.apply(state, Bid(0, 0)).state, Bid(1, 2)).state, Bid(2, 0)).state
    decision = decide(GAME, state, 1)
    assert decision is not None and decision.heading == "You won the bid: choose who takes the first turn"
    assert [c.label for c in decision.choices] == ["Red starts", "Blue (you) starts", "Green starts"]
    state = GAME.apply(state, ChooseFirst(1, 0)).state
    decision = decide(GAME, state, 0)
    assert decision is not None
    assert decision.heading == "Take a card: you have 11 coins; this is your card 1 of 10"
    state = GAME.apply(state, TakeCard(0, 2)).state  # card 1: place 1 army (crystal)
    decision = decide(GAME, state, 0)
    assert decision is not None
    assert decision.heading == "Your card (Place 1 army — Crystal): place 1 army, 1 left"


def test_ending_an_action_early_asks_first() -> None:
    """Rulebook: "If a player so chooses, he may take the card and ignore the action" - allowed, but
    the panel asks before giving up a card's action or the rest of it."""
    state = GAME.setup(3, {}, 1)
    state.row = [14, 6, 1, 23, 13, 40]
    state = GAME.apply(GAME.apply(GAME.apply(state, Bid(0, 0)).state, Bid(1, 2)).state, Bid(2, 0)).state
    state = GAME.apply(GAME.apply(state, ChooseFirst(1, 0)).state, TakeCard(0, 0)).state  # card 14
    decision = decide(GAME, state, 0)
    assert decision is not None
    confirms = {c.label: c.confirm for c in decision.choices}
    assert confirms["Ignore the card's action"].startswith("Ignore this card's action?")
    assert confirms["Place 4 armies"] == ""
    state = GAME.apply(state, ChooseAction(0, 0)).state  # place 4
    decision = decide(GAME, state, 0)
    assert decision is not None
    done = [c for c in decision.choices if isinstance(c.action, Done)]
    assert [c.confirm for c in done] == ["Stop with 4 armies to place unused?"]
    assert all(c.confirm == "" for c in decision.choices if not isinstance(c.action, Done))


def test_moves_and_destroys_are_grouped_for_a_two_step_pick() -> None:
    """A move is picked source first, then target; a destroy region first, then whose army."""
    state = GAME.setup(3, {}, 1)
    state.phase, state.current, state.first_player = Phase.TURN, 0, 0
    state.armies = {"crossroads": [2, 1, 0], "westford": [1, 0, 0]}
    state.task = {"card": 4, "choose": False, "steps": [], "do": "move", "left": 2}
    decision = decide(GAME, state, 0)
    assert decision is not None
    groups = {c.group for c in decision.choices if isinstance(c.action, Move)}
    assert groups == {"From Crossroads", "From Westford"}
    state.task = {"card": 15, "choose": False, "steps": [], "do": "destroy", "left": 1}
    decision = decide(GAME, state, 0)
    assert decision is not None
    labels = {c.label: c.group for c in decision.choices if isinstance(c.action, Destroy)}
    assert labels == {"Destroy an army of Red (yours) in Crossroads": "In Crossroads",
                      "Destroy an army of Blue in Crossroads": "In Crossroads",
                      "Destroy an army of Red (yours) in Westford": "In Westford"}


def test_texts_read_as_sentences_at_every_step(steps: list[Any]) -> None:
    for i, (state, player, _, _) in enumerate(steps):
        if i % 5:
            continue
        view = GAME.view(state, player)
        names = NAMES[:state.players]
        texts = [GAME.status_text(view, names), GAME.hand_text(view, player, names),
                 GAME.board_text(view, names), GAME.summary_text(view, names)]
        assert GAME.stage(view)
        for line in texts:
            assert line.endswith("."), line
            assert "None" not in line and "{" not in line and "P1" not in line, line
        assert names[state.current if state.current is not None else 0] in texts[0] or state.phase != "turn"


def test_the_hand_tells_your_secret_bid_and_no_one_else_s() -> None:
    state = GAME.apply(GAME.setup(3, {}, 1), Bid(0, 3)).state
    mine = GAME.hand_text(GAME.view(state, 0), 0, NAMES[:3])
    assert mine.startswith("Your secret bid: 3 coins.") and "You have 11 coins" in mine
    theirs = GAME.hand_text(GAME.view(state, 1), 1, NAMES[:3])
    assert theirs.startswith("You have not bid yet.") and "3 coins" not in theirs
    status = GAME.status_text(GAME.view(state, None), NAMES[:3])
    assert "bob (Blue) and carol (Green)" in status and "3 coins" not in status


def test_the_end_names_the_winner_and_the_tie_breaker() -> None:
    """Game End: "If players are tied, the player with the most coins wins." The status and the
    summary say who won and why; the summary breaks the score into regions, continents and goods."""
    state = GAME.setup(3, {}, 1)
    state.phase, state.current = Phase.OVER, None
    state.armies = {"greyfen": [1, 0, 0], "frostpeak": [0, 1, 0], "sunhaven": [0, 0, 2]}
    state.hands = [[24, 25], [], []]  # two iron: 1 point
    state.coins = [3, 5, 0]
    state.final = GAME.scores(state)
    assert state.final == [3, 2, 2]
    view = GAME.view(state, None)
    status = GAME.status_text(view, NAMES[:3])
    assert status.startswith("Game over. Final scores: alice (Red) 3, bob (Blue) 2, carol (Green) 2.")
    assert "alice (Red) wins with 3 points." in status
    summary = GAME.summary_text(view, NAMES[:3])
    assert "alice (Red): 3 (1 region + 1 continent + 1 for goods); goods 2 Iron = 1." in summary
    state.hands = [[], [], []]
    state.final = GAME.scores(state)
    status = GAME.status_text(GAME.view(state, None), NAMES[:3])
    assert "bob (Blue) wins: tied with alice (Red) on 2 points, ahead on coins (5 to 3)." in status
    assert GAME.stage(GAME.view(state, None)) == "Game over"
