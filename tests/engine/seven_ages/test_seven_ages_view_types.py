"""The 7 Ages view is what its types say (issue 31 point 2): mypy checks every reader against
:class:`engine.seven_ages.view.SevenView`, so the views the game builds must hold exactly those keys, with
values of those types, at every level (a part built from untyped data, a fog-of-war stack or a go's
pending decision, could drift from its declaration unseen). Checked over greedy games for every viewer
and a spectator, as built and after a JSON round trip (the door where a phase comes back a plain str).
"""

from __future__ import annotations

import json
import types
import typing
from typing import Any, Literal, NotRequired, get_args, get_origin, get_type_hints, is_typeddict

import pytest

from engine.seven_ages.game import GAME
from engine.seven_ages.spec import SPEC
from engine.seven_ages.state import PHASES
from engine.seven_ages.view import Phase, SevenView, phase_of


def problems(value: object, kind: Any, where: str) -> list[str]:
    """Where ``value`` is not of the type ``kind`` (a TypedDict, list, dict, union, Literal or plain class):
    every key of a TypedDict it lacks or has beyond its declaration, every value of another type."""
    if kind is Any:
        return []
    origin = get_origin(kind)
    if is_typeddict(kind):
        if not isinstance(value, dict):
            return [f"{where} is {type(value).__name__}, not a {kind.__name__}"]
        # read NotRequired from the hints: under postponed annotations Python 3.11's __required_keys__
        # counts every key as required
        hints = get_type_hints(kind, include_extras=True)
        optional = {key for key, hint in hints.items() if get_origin(hint) is NotRequired}
        out = [f"{where} lacks {key!r}" for key in sorted(set(hints) - optional - set(value))]
        out += [f"{where} has {key!r}, which {kind.__name__} does not declare"
                for key in sorted(set(value) - set(hints))]
        for key in sorted(set(value) & set(hints)):
            hint = get_args(hints[key])[0] if key in optional else hints[key]
            out += problems(value[key], hint, f"{where}[{key!r}]")
        return out
    if origin in (types.UnionType, typing.Union):
        options = [problems(value, option, where) for option in get_args(kind)]
        return [] if any(not found for found in options) else [f"{where} = {value!r} is not {kind}"]
    if origin is Literal:
        return [] if value in get_args(kind) else [f"{where} = {value!r} is none of {get_args(kind)}"]
    if origin is list:
        if not isinstance(value, list):
            return [f"{where} is {type(value).__name__}, not a list"]
        (item,) = get_args(kind)
        return [p for i, v in enumerate(value) for p in problems(v, item, f"{where}[{i}]")]
    if origin is dict:
        if not isinstance(value, dict):
            return [f"{where} is {type(value).__name__}, not a dict"]
        key_type, value_type = get_args(kind)
        return [p for k, v in value.items()
                for p in [*problems(k, key_type, f"{where} key"),
                          *problems(v, value_type, f"{where}[{k!r}]")]]
    if kind is type(None):
        return [] if value is None else [f"{where} = {value!r} is not None"]
    if kind is int and isinstance(value, bool):  # a bool is an int to isinstance, never to the view's readers
        return [f"{where} = {value!r} is a bool, not an int"]
    return [] if isinstance(value, kind) else [f"{where} = {value!r} is not {kind.__name__}"]


def views() -> list[SevenView]:
    """Every seat's view and a spectator's, at each new phase and every 40 moves along a greedy 3- and a
    5-player game (the 3-player one with the sub-deck and enhanced play: sifting and drafting), and at
    their end."""
    out: list[SevenView] = []
    for seed, players in ((3, 3), (4, 5)):
        extra: dict[str, object] = {"turn_limit": 4}  # long enough for every phase, short enough to end
        extra |= {"sub_deck": 30, "enhanced_play": True} if players == 3 else {}
        options = {**SPEC.default_options(), **extra}
        state = GAME.setup(players, options, seed)
        ais = [SPEC.make_policy("greedy", 50 + p) for p in range(players)]
        phase = ""
        for step in range(5000):
            if step % 40 == 0 or state.phase != phase or GAME.is_over(state):
                phase = state.phase
                out += [GAME.view(state, viewer) for viewer in [*range(players), None]]
            if GAME.is_over(state):
                break
            player = min(GAME.actors(state))
            state = GAME.apply(state, ais[player].choose(state, player)).state
    return out


VIEWS = views()


def test_the_games_reach_the_parts_a_type_could_miss() -> None:
    """The views checked below hold every kind of part: empires with leaders and units, areas, markers,
    goes, pending decisions, the phases of preparing to play and of a turn, and a game's end."""
    seen = {
        "leaders": any(e["leaders"] for v in VIEWS for e in v["empires"]),
        "units": any(e["units"] for v in VIEWS for e in v["empires"]),
        "areas": any(v["areas"] for v in VIEWS),
        "markers": any(v["markers"] for v in VIEWS),
        "goes": any(v["goes"] for v in VIEWS),
        "pending": any(v["pending"] for v in VIEWS),
        "over": any(v["over"] for v in VIEWS),
        "every phase": {v["phase"] for v in VIEWS} >= {"sift", "sift_vote", "bid", "colours", "draft",
                                                      "markers", "end_turn", "over"},
    }
    assert all(seen.values()), seen


@pytest.mark.parametrize("round_trip", [False, True], ids=["built", "json"])
def test_every_view_holds_exactly_what_sevenview_declares(round_trip: bool) -> None:
    found: list[str] = []
    for view in VIEWS:
        shown = json.loads(json.dumps(view)) if round_trip else view
        found += problems(shown, SevenView, f"seat {view['viewer']}'s view at seq {view['seq']}")
    assert found[:10] == []


def test_the_phase_type_lists_every_phase_of_the_state_in_order() -> None:
    """A phase added to the state but not to :data:`Phase` would be a view value no reader is checked
    against (and :func:`phase_of` would refuse it)."""
    assert get_args(Phase) == PHASES


def test_phase_of_takes_a_phase_and_refuses_any_other_word() -> None:
    assert [phase_of(p) for p in PHASES] == list(PHASES)
    for word in ("sfit", "", "Over", "end turn"):
        with pytest.raises(ValueError, match="is not a 7 Ages phase"):
            phase_of(word)
