"""The shared engine API: seeded randomness, the action codec, illegal actions, the registry."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import ClassVar

import pytest

from engine import rng
from engine.core import Action, ActionCodec, IllegalAction
from engine.history.actions import CODEC, BuildFort, Expand, Give, Keep
from engine.registry import game_ids, get_game


@dataclass
class Seeded:
    seed: int
    rng_counter: int = 0


def test_same_seed_same_rolls_and_counter_advances() -> None:
    a, b = Seeded(42), Seeded(42)
    assert rng.roll(a, 20) == rng.roll(b, 20)
    assert a.rng_counter == b.rng_counter == 20
    assert rng.roll(Seeded(43), 20) != rng.roll(Seeded(42), 20)


def test_dice_are_fair_enough() -> None:
    counts = Counter(rng.roll(Seeded(7), 60_000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    for face in range(1, 7):
        assert 9_000 < counts[face] < 11_000


def test_shuffle_is_a_permutation_and_repeatable() -> None:
    items = list(range(30))
    first, second = items[:], items[:]
    rng.shuffle(Seeded(5), first)
    rng.shuffle(Seeded(5), second)
    assert first == second
    assert sorted(first) == items
    assert first != items


def test_below_rejects_empty_range() -> None:
    with pytest.raises(ValueError):
        rng.below(Seeded(1), 0)


@pytest.mark.parametrize(
    "action", [Keep(0), Give(1, to=2), Expand(3, land="Levant"), BuildFort(2, land="Morea", pay="coin")]
)
def test_actions_round_trip_through_json(action: object) -> None:
    data = action.to_json()  # type: ignore[attr-defined]
    assert data["kind"] == type(action).kind  # type: ignore[attr-defined]
    assert CODEC.decode(data) == action


def test_codec_defaults_and_errors() -> None:
    assert CODEC.decode({"kind": "fort", "player": 1, "land": "Morea"}) == BuildFort(1, "Morea", "auto")
    with pytest.raises(IllegalAction) as unknown:
        CODEC.decode({"kind": "teleport", "player": 0})
    assert unknown.value.code == "unknown_action"
    with pytest.raises(IllegalAction) as missing:
        CODEC.decode({"kind": "expand", "player": 0})
    assert missing.value.code == "bad_action"
    with pytest.raises(IllegalAction) as extra:
        CODEC.decode({"kind": "keep", "player": 0, "colour": "red"})
    assert "colour" in extra.value.message


def test_registry_knows_the_classic_game() -> None:
    assert "history-classic" in game_ids()
    assert get_game("history-classic").id == "history-classic"
    with pytest.raises(KeyError, match="known games"):
        get_game("chess")


def test_illegal_action_survives_pickling() -> None:
    import pickle

    error = IllegalAction("not_adjacent", "Levant is not adjacent to any of your lands.", land="Levant")
    copy = pickle.loads(pickle.dumps(error))
    assert (copy.code, copy.message, copy.params) == (error.code, error.message, {"land": "Levant"})


# == strict decoding: every field's type is checked before any rule runs ======================
def _codecs() -> list[tuple[str, type]]:
    import dataclasses
    import typing

    import tests.toy.spec  # noqa: F401  (registers the toy game)
    out = []
    for gid in game_ids():
        codec = get_game(gid).codec
        for kind in codec.kinds:
            cls = codec._classes[kind]
            hints = typing.get_type_hints(cls)
            out += [(gid, cls)] if all(hints[f.name] in WRONG_FOR for f in dataclasses.fields(cls)) else []
    return out


def _good(kind: str, cls: type) -> dict[str, object]:
    import dataclasses
    import typing

    hints = typing.get_type_hints(cls)
    good: dict[type, object] = {int: 1, str: "x", bool: True}
    return {"kind": kind, **{f.name: good[hints[f.name]] for f in dataclasses.fields(cls)}}


WRONG_FOR: dict[type, list[object]] = {
    int: [False, True, 0.0, 1.5, "1", None, [1]], str: [1, True, None, ["x"], {"x": 1}],
    bool: [0, 1, "true", None, [True]]}


def test_every_game_declares_only_plain_fields_the_codec_checks() -> None:
    """The table below covers the whole of every registered codec (a new field type needs a new row)."""
    import tests.toy.spec  # noqa: F401

    assert sum(len(get_game(g).codec.kinds) for g in game_ids()) == len(_codecs())


@pytest.mark.parametrize(("gid", "cls"), _codecs(), ids=lambda v: v if isinstance(v, str) else v.kind)
def test_a_wrongly_typed_field_is_refused_by_the_codec(gid: str, cls: type) -> None:
    import dataclasses
    import typing

    codec = get_game(gid).codec
    good = _good(cls.kind, cls)  # type: ignore[attr-defined]
    assert codec.decode(good).to_json() == good  # the well-typed action decodes as it is
    hints = typing.get_type_hints(cls)
    for f in dataclasses.fields(cls):
        for wrong in WRONG_FOR[hints[f.name]]:
            with pytest.raises(IllegalAction) as refused:
                codec.decode({**good, f.name: wrong})
            assert refused.value.code == "bad_action", (f.name, wrong)
            assert repr(f.name) in refused.value.message, (f.name, wrong)


def test_a_player_number_is_an_int_not_a_bool_or_a_float() -> None:
    """Issue 14: ``"player": 0.0`` or ``false`` passed the own-seat check (0.0 == 0 == False)."""
    for player in (0.0, False):
        with pytest.raises(IllegalAction, match="'player' of a keep action must be a whole number, not"):
            CODEC.decode({"kind": "keep", "player": player})
    assert CODEC.decode({"kind": "keep", "player": 0}) == Keep(0)
    with pytest.raises(IllegalAction, match="must be a JSON object"):
        CODEC.decode([{"kind": "keep"}])  # type: ignore[arg-type]


@dataclass(frozen=True)
class Route(Action):
    """A made-up action with the field types no game uses yet."""

    kind: ClassVar[str] = "route"
    lands: tuple[str, ...]
    pair: tuple[int, str] = (0, "")
    note: str | None = None
    share: float = 0.0


def test_the_codec_checks_optional_and_tuple_fields() -> None:
    codec = ActionCodec(Route)
    data = {"kind": "route", "player": 1, "lands": ["a", "b"], "pair": [2, "c"], "share": 1}
    assert codec.decode(data) == Route(1, ("a", "b"), (2, "c"), None, 1.0)
    for field_, wrong in (("lands", ["a", 1]), ("lands", "ab"), ("pair", [2]), ("pair", [True, "c"]),
                          ("note", 3), ("share", True), ("share", "1")):
        with pytest.raises(IllegalAction):
            codec.decode({"kind": "route", "player": 1, "lands": [], field_: wrong})
