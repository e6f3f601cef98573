"""The shared engine API: seeded randomness, the action codec, illegal actions, the registry."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import pytest

from engine import rng
from engine.core import IllegalAction
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
