"""The classic game's decisions and words beyond the contract: headings and confirmations of the
rulebook's moments, and every event type the engine emits worded, naming players only through the names
it is given.

That each decision offers exactly the legal moves, once each, labelled in at most 100 characters and
never twice the same, with the timeout move among them, is the contract's, checked at every move of
every game's playouts (tests/contract/test_game_contract.py).
"""

from __future__ import annotations

import glob
import re
from collections.abc import Iterator
from typing import Any

from engine.core import PUBLIC, Event, decide
from engine.history.ai import make_policy
from engine.history.board import Ctx
from engine.history.flow import start_epoch
from engine.history.game import GAME
from engine.history.spec import SPEC
from engine.history.text import BOOKKEEPING
from tests.support.history_builder import RULES, Scenario

NAMES = ["ann (Red)", "bo (Blue)", "cy (Green)", "di (Yellow)", "ed (Purple)", "flo (Orange)"]
GAMES = [
    ("random", {}),
    ("greedy", {"naval_control": True, "multiple_armies": True}),
    ("random", {"naval_control": True}),
    ("greedy", {}),
    ("random", {"one_minor_each": True, "naval_control": True, "no_preeminence": True}),
]


def walk(seed: int, policy: str, options: dict[str, bool]) -> Iterator[tuple[Any, int, list[Event]]]:
    """(state before the move, the player, the events of the move) for a whole game."""
    players = 3 + seed % 4
    state = GAME.setup(players, options, seed)
    ais = [make_policy(policy, seed * 7 + p) for p in range(players)]
    while not GAME.is_over(state):
        player = min(GAME.actors(state))
        result = GAME.apply(state, ais[player].choose(state, player))
        yield state, player, list(result.events)
        state = result.state


def emitted_types() -> set[str]:
    """Every event type the classic engine's source emits (``emit("type", ...)``, or a type
    picked by a condition as in ``emit("empire_kept" if ... else "empire_given", ...)``)."""
    types: set[str] = set()
    for path in glob.glob("engine/history/*.py"):
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for call in re.findall(r'emit\(\s*("[a-z_]+"(?: if [^,]* else "[a-z_]+")?)', text):
            types |= set(re.findall(r'"([a-z_]+)"', call))
    return types


def test_ending_the_turn_with_armies_left_asks_first() -> None:
    """An end of turn with armies unspent is confirmed; with none left it is not."""
    s = Scenario(epoch=3).start("Romans", player=0)
    decision = decide(GAME, s.state, 0)
    assert decision is not None
    end = next(c for c in decision.choices if c.action.kind == "end_turn")
    assert "19 armies" in end.confirm
    assert decision.heading == "Romans: expand, 19 armies left"
    s.state.turn.force.pool = 0  # type: ignore[union-attr]
    decision = decide(GAME, s.state, 0)
    assert decision is not None
    assert only_kind(decision.choices, "end_turn").confirm == ""


def only_kind(choices: Any, kind: str) -> Any:
    found = [c for c in choices if c.action.kind == kind]
    assert len(found) == 1
    return found[0]


def test_the_draw_decision_names_the_card_and_the_seats_by_colour() -> None:
    state = GAME.setup(3, {}, 5)
    player = min(GAME.actors(state))
    decision = decide(GAME, state, player)
    assert decision is not None and state.drawn is not None
    drawn = RULES.empires[state.drawn].name
    assert decision.heading == f"Keep or give the drawn card {drawn}"
    others = [SPEC.colour(p) for p in range(3) if p != player]
    assert sorted(c.label for c in decision.choices) == sorted(
        [f"Keep {drawn}", *(f"Give {drawn} to {colour}" for colour in others)])
    assert GAME.timeout_action(state, player).kind == "keep"


def test_a_civil_war_heading_counts_the_lands() -> None:
    """Civil War takes up to three lands of one enemy empire: the heading says which one of three."""
    s = Scenario(epoch=3).armies(1, "Levant", "Palestine", "Nile Delta", epoch=2).hand(0, "Civil War")
    s.start("Romans", player=0).play("Civil War")
    decision = decide(GAME, s.state, 0)
    assert decision is not None
    assert decision.heading == "Civil War: choose the first land of the enemy empire, 1 of 3"
    assert "Levant (held by Blue)" in [c.label for c in decision.choices]
    s.choose("Levant")
    decision = decide(GAME, s.state, 0)
    assert decision is not None
    assert decision.heading == "Civil War: choose another land of the same empire, 2 of 3"


def test_every_event_type_is_worded_with_the_names_given() -> None:
    """Every event type the engine emits has a sentence (only bookkeeping has none), and
    players appear by the names passed in, never as a raw seat number or colour alone."""
    seen: dict[str, Event] = {}
    for seed in range(10):
        policy, options = GAMES[seed % len(GAMES)]
        for _, _, events in walk(seed, policy, options):
            for event in events:
                seen.setdefault(event.type, event)
                line = GAME.describe_event(event, NAMES)
                if event.type in BOOKKEEPING:
                    continue
                assert line, event
                assert "{" not in line and "None" not in line and "P1" not in line, line
                if event.audience != PUBLIC:
                    continue  # a private line speaks to its reader as "you"
                for key in ("player", "owner", "attacker", "to"):
                    who = event.data.get(key)
                    if isinstance(who, int):
                        assert NAMES[who] in line, (event, line)
    # The rare ones, from the engine itself: the first roll-off, a revolt in a land of
    # your own, coins when the markers have run out, crusaders taking Palestine.
    state = GAME.setup(4, {}, 1)
    ctx = Ctx(state.clone(), RULES)
    ctx.state.epoch = 1
    start_epoch(ctx)
    rare = list(ctx.events)
    s = Scenario(epoch=2).army("Palestine", owner=0).hand(0, "Jewish Revolt").start("Assyria", player=0)
    s.play("Jewish Revolt")
    rare += s.events
    s = Scenario(epoch=6).hand(0, "Population Explosion").start("Portugal", player=0)
    s.turn.coins = 12
    s.play("Population Explosion")
    rare += s.events
    s = Scenario(epoch=5).hand(0, "Crusade").start("Franks", player=0).play("Crusade")
    s.expand("Palestine")
    rare += s.events
    for event in rare:
        seen.setdefault(event.type, event)
        assert GAME.describe_event(event, NAMES), event
    missing = emitted_types() - set(seen)
    assert not missing, f"never seen, so never checked: {sorted(missing)}"


def test_status_hand_board_and_summary_read_as_sentences() -> None:
    names = NAMES[:3]
    state = GAME.setup(3, {}, 11)
    ais = [make_policy("greedy", 11 + p) for p in range(3)]
    while not GAME.is_over(state):
        player = min(GAME.actors(state))
        if state.turn is not None and state.epoch == 2 and state.turn.step == "expand":
            view = GAME.view(state, player)
            assert GAME.stage(view) == "Epoch II"
            status = GAME.status_text(view, names)
            assert status.startswith("Epoch II. Scores: ann (Red) ") and names[player] in status
            assert "You hold" in GAME.hand_text(view, player, names)
            assert names[player] in GAME.board_text(view, names)
        state = GAME.apply(state, ais[player].choose(state, player)).state
    view = GAME.view(state, None)
    assert GAME.stage(view) == "Game over"
    winner = names[GAME.ranking(state)[0]]
    assert f"Winner: {winner}." in GAME.status_text(view, names)
    summary = GAME.summary_text(view, names)
    first = GAME.ranking(state)[0]
    assert summary.splitlines()[0] == "Final scores:"
    assert summary.splitlines()[1].startswith(f"1. {winner}: {GAME.scores(state)[first]} points")
    assert summary.endswith(f"Winner: {winner}.")
