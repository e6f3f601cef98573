"""Both History rulesets' words and pictures read a view fresh from the engine (its phase and turn step
``Phase``/``TurnStep`` members) and its JSON copy (their strings) alike: the conversion at the door is
what keeps them equal, so a seeded game of each samples every phase and every step of a turn."""

from __future__ import annotations

import json
from collections.abc import Sequence
from enum import StrEnum
from typing import Any

import pytest

from engine.core import Action
from engine.history.epochs5.game import GAME as EPOCHS5
from engine.history.epochs5.state import Phase as Epochs5Phase
from engine.history.epochs5.state import TurnStep as Epochs5Step
from engine.history.game import GAME as CLASSIC
from engine.history.state import Phase as ClassicPhase
from engine.history.state import TurnStep as ClassicStep
from engine.registry import make_policy
from render.history_shown import shown_in

NAMES = ("alice (Red)", "bob (Blue)", "carol (Green)", "dave (Yellow)")

#: The game, its phases and turn steps, and the steps a seeded 3-player game never reaches (a step
#: that only some event cards or a score marker landing on another lead to).
CASES: list[tuple[Any, type[StrEnum], type[StrEnum], set[str]]] = [
    (CLASSIC, ClassicPhase, ClassicStep, {"crusade", "naval"}),
    (EPOCHS5, Epochs5Phase, Epochs5Step, {"track", "scoring"}),
]


def _words(game: Any, view: Any, seat: int, legal: Sequence[Action]) -> tuple[object, ...]:
    names = NAMES[:3]
    asked = game.decision(view, seat, legal, names) if legal else None
    return (asked, game.stage(view), game.status_text(view, names), game.board_text(view, names),
            game.hand_text(view, seat, names), game.summary_text(view, names),
            game.card_text(view, "1", names), shown_in(view))


@pytest.mark.parametrize(("game", "phases", "steps", "unreached"), CASES, ids=["classic", "epochs5"])
def test_the_words_and_the_picture_read_a_view_and_its_json_copy_alike(
    game: Any, phases: type[StrEnum], steps: type[StrEnum], unreached: set[str]
) -> None:
    state = game.setup(3, {}, 4)
    ais = [make_policy(game.id, "random", 40 + p) for p in range(3)]
    seen: set[str] = set()
    n = 0
    while True:
        view = game.view(state, None)
        key = view["turn"]["step"] if view["turn"] else view["phase"]
        if key not in seen or n % 25 == 0:  # every phase and step, and a sample of the rest
            seen.add(key)
            for seat in sorted(game.actors(state)) or [0]:
                fresh = game.view(state, seat)
                copy = json.loads(json.dumps(fresh))
                assert type(fresh["phase"]) is phases and type(copy["phase"]) is str
                legal = game.legal_actions(state, seat)
                assert _words(game, copy, seat, legal) == _words(game, fresh, seat, legal)
        if game.is_over(state):
            break
        seat = min(game.actors(state))
        state = game.apply(state, ais[seat].choose(state, seat)).state
        n += 1
    assert seen >= {*phases} - {"turn"} | ({*steps} - unreached)
