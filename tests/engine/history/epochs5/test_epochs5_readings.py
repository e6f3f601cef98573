"""Rulebook scenarios for the 5-epoch readings of issue 15 (points 7-10).

Each test quotes the passage of seeds/history-of-the-world-5-epochs.txt it
checks; where the rulebook leaves a point open, the test pins the reading
written in data/history/epochs5/README.md.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
import yaml

from engine.core import IllegalAction, decide
from engine.history.epochs5.actions import Choose, Done, Invade, PlayEvent, Retreat, Siege, Stop
from engine.history.epochs5.data import DATA_DIR, load_events, load_rules
from engine.history.epochs5.empires import EMPIRES_PATH, load_world, validate_empires
from tests.conftest import Dice
from tests.engine.history.epochs5.test_epochs5_rules import ASSYRIANS, VANDALS, Scenario, emp


# -- 7. Monument sites ------------------------------------------------------------------------------
def test_the_player_chooses_among_equal_monument_sites() -> None:
    """"A monument must be placed in a territory occupied by one of your active armies that does
    not already have a monument. You must place it in a territory that has one of the following
    (in priority order): 1. Capitol 2. City 3. Resource Icon". The Vandals (a marauder: no capitol)
    hold three resource territories, Iberia, Rhineland and Britannia: one monument, three sites."""
    s = Scenario().start(VANDALS, 1)
    s.do(Invade(1, "Iberia")).do(Invade(1, "Rhineland")).do(Invade(1, "Britannia")).do(Stop(1))
    assert s.turn.step == "target" and s.state.monuments == []
    found = decide(s.game, s.state, 1)
    assert found is not None and found.heading.startswith("Build 1 monument: choose the territory")
    assert [c.label for c in found.choices] == ["A monument in Britannia", "A monument in Iberia",
                                                "A monument in Rhineland"]  # no Done: it must be built
    s.refused(Choose(1, "Gaul"), "bad_target")  # no resource icon
    s.refused(Done(1), "must_build")
    s.do(Choose(1, "Rhineland"))
    assert s.state.monuments == ["Rhineland"]
    assert s.turn is None or s.turn.step != "target"  # the turn went on to resign and score
    assert "empire_stood_down" in s.types()


def test_a_capitol_takes_the_monument_first_without_asking() -> None:
    """"1. Capitol" comes first: the Assyrians' capitol in Mesopotamia is the only site of that rank,
    so the monument goes there at once, as in the Example of a Turn ("she builds one monument in
    Mesopotamia")."""
    babylon = emp("Babylon", 1, 6, 4, "Mesopotamia")
    s = Scenario(extra=[babylon]).start(babylon, 0)
    s.do(Invade(0, "Tigris")).do(Invade(0, "Anatolia")).do(Stop(0))
    assert s.state.monuments == ["Mesopotamia"]


def test_each_monument_of_two_is_a_choice_and_the_skip_policy_takes_the_first_site() -> None:
    """Four resource territories make two monuments ("For every two territories with a resource
    icon ... you must build one monument"); each is placed where the player chooses; the timeout's
    passive move takes the first site offered."""
    s = Scenario().start(VANDALS, 1)
    for land in ("Iberia", "Rhineland", "Britannia", "Etruria"):
        s.do(Invade(1, land))
    s.do(Stop(1))
    s.do(Choose(1, "Rhineland"))
    assert s.turn.step == "target" and s.turn.pending["left"] == 1
    s.do(s.game.timeout_action(s.state, 1))
    assert s.state.monuments == ["Britannia", "Rhineland"]


# -- 8. The Zulu Kingdom and marauders ----------------------------------------------------------------
def test_every_kingdom_has_a_capitol_or_a_city() -> None:
    """"Some kingdoms are established with a city instead of a capitol": every kingdom card shows
    one of the two, the Zulu Kingdom included, and no kingdom is a marauder."""
    rules = load_rules()
    kingdoms = [c.kingdom for c in rules.events.values() if c.kingdom is not None]
    assert len(kingdoms) == 8
    assert all(k.structure in ("capitol", "city") and not k.marauder for k in kingdoms)
    zulu = rules.events["zulu"].kingdom
    assert zulu is not None and zulu.structure == "city" and zulu.starts == ("Cape",)


def test_a_kingdom_without_a_capitol_or_a_city_is_refused_by_the_loader() -> None:
    with (DATA_DIR / "events.yaml").open(encoding="utf-8") as fh:
        raw: dict[str, Any] = yaml.safe_load(fh)
    zulu = next(c for c in raw["events"] if c["id"] == "zulu")
    zulu["kingdom"]["structure"] = None
    problems: list[str] = []
    load_events(raw, load_world(), problems)
    assert problems == ["events.yaml: kingdom 'zulu': structure must be capitol or city"]


def test_only_a_torch_makes_a_marauder(dice: Dice) -> None:
    """"A marauder has a torch on the bottom-right of their empire card and does not receive a
    capitol in its starting location ... when you reduce a structure after a battle (win or tie),
    you immediately gain one point". The Zulu Kingdom reduces a capitol and gains nothing."""
    s = Scenario(epoch=5, real=True, scores=[1, 10, 3]).hand(1, "zulu")
    s.army("Zambezi", 0).structure("Zambezi", "capitol")
    s.start(s.game.rules.epochs[5][0], 1)
    s.do(PlayEvent(1, "zulu"))
    assert s.state.structures["Cape"] == "city"
    dice.script([6, 1], [2])
    s.do(Invade(1, "Zambezi"))
    assert s.state.structures["Zambezi"] == "city" and s.state.scores[1] == 10


def test_the_empire_data_must_say_marauder_exactly_for_the_cards_without_a_capitol() -> None:
    with EMPIRES_PATH.open(encoding="utf-8") as fh:
        raw = yaml.safe_load(fh)
    world = load_world()
    assert validate_empires(raw, world) == []
    bad = copy.deepcopy(raw)
    celts = next(c for c in bad["epochs"][2]["empires"] if c["name"] == "Celts")
    del celts["marauder"]  # no capitol and no torch
    problems = validate_empires(bad, world)
    assert len(problems) == 1 and "a capitol or a torch" in problems[0]
    marauders = {e.name for listed in load_rules().epochs.values() for e in listed if e.marauder}
    assert marauders == {"Celts", "Xiongnu", "Huns", "Vikings", "Mongols"}


# -- 9. The Turks ---------------------------------------------------------------------------------------
TURKS = emp("Turks", 1, 6, 5, "Anatolia", effect="invade_after_battle")


def test_the_turks_gain_nothing_from_a_lost_battle(dice: Dice) -> None:
    """The Turks' card: "After you *win* a battle, you may invade a territory adjacent to the one
    you just won." A lost battle and a retreat open nothing beside Levant."""
    s = Scenario(extra=[TURKS]).army("Levant", 0).start(TURKS, 1)
    dice.script([1, 1], [6])
    s.do(Invade(1, "Levant")).do(Retreat(1))
    s.refused(Invade(1, "Nile"), "not_adjacent")
    assert s.turn.free_invasions == []


def test_the_turks_gain_nothing_from_a_tie(dice: Dice) -> None:
    """A tie is not a win: "If the highest results are tied, both armies are removed"."""
    s = Scenario(extra=[TURKS]).army("Levant", 0).start(TURKS, 1)
    dice.script([4, 1], [4])
    s.do(Invade(1, "Levant"))
    assert s.holder("Levant") is None
    s.refused(Invade(1, "Nile"), "not_adjacent")


def test_the_turks_invade_beside_each_battle_won_in_sequence(dice: Dice) -> None:
    """"This ability can be used more than once ... sequentially (i.e., spaces adjacent to the space
    of the first battle are eligible to be invaded for the second)"."""
    s = Scenario(extra=[TURKS]).army("Levant", 0).army("Nile", 2).start(TURKS, 1)
    dice.script([6, 1], [2], [6, 1], [2])
    s.do(Invade(1, "Levant"))
    assert s.turn.free_invasions == ["Levant"]
    s.do(Invade(1, "Nile"))  # beside the first battle won
    s.do(Invade(1, "Libya"))  # beside the second
    assert s.turn.free_invasions == ["Levant", "Nile"] and s.holder("Libya") == 1


# -- 10. Enhancements: "any time except during an invasion" ------------------------------------------------
def test_an_enhancement_after_the_last_army_is_spent() -> None:
    """"You can play an enhancement during your turn at any time except during an invasion": with
    the card empty the empire still plays Reinforcements, and invades with the armies it brings."""
    s = Scenario().hand(1, "reinforce").start(ASSYRIANS, 1)
    for land in ("Zagros", "Tigris", "Anatolia", "Levant", "Arabia"):
        s.do(Invade(1, land))
    assert s.turn.pool == 0
    assert PlayEvent(1, "reinforce") in s.game.legal_actions(s.state, 1)
    s.do(PlayEvent(1, "reinforce"))
    assert s.turn.pool == 3


def test_a_siege_with_siege_tokens_alone_is_still_the_invasion(dice: Dice) -> None:
    """Reading: an invasion lasts until its battle is won, tied or retreated from ("You can continue
    to siege until you either win the battle ... or retreat"), and siege tokens stand in for armies
    on the catapult ("During a siege this turn, you may place a siege token on the catapult instead
    of an army"). So with no army but a siege token left the player may siege (no forced retreat),
    and may not play an enhancement until the invasion ends."""
    s = Scenario().army("Levant", 0).hand(1, "reinforce", "siegeworks").start(ASSYRIANS, 1)
    s.do(PlayEvent(1, "siegeworks"))  # two siege tokens
    for land in ("Zagros", "Tigris", "Anatolia", "Arabia"):
        s.do(Invade(1, land))
    dice.script([1, 1], [6])
    s.do(Invade(1, "Levant"))
    assert s.turn.pool == 0 and s.turn.siege_tokens == 2 and s.turn.step == "siege"
    assert s.game.legal_actions(s.state, 1) == [Siege(1), Retreat(1)]
    with pytest.raises(IllegalAction) as refused:
        s.game.apply(s.state, PlayEvent(1, "reinforce"))
    assert refused.value.code == "during_invasion"
    assert refused.value.message.startswith("The invasion of Levant is still going on")
    dice.script([1, 1], [6])
    s.do(Siege(1))
    assert s.turn.siege_tokens == 1 and s.turn.catapult == 1
    s.do(Retreat(1))
    s.do(PlayEvent(1, "reinforce"))  # the invasion is over
    assert s.turn.pool == 3


def test_no_enhancement_while_playing_a_kingdom() -> None:
    """"You cannot play enhancements while playing a kingdom.\""""
    sumer = emp("Sumer", 1, 6, 5, "Tigris")
    s = Scenario(extra=[sumer]).hand(0, "kush", "reinforce").start(sumer, 0)
    s.do(PlayEvent(0, "kush"))
    assert s.turn.force_kind == "kingdom"
    assert PlayEvent(0, "reinforce") not in s.game.legal_actions(s.state, 0)
    with pytest.raises(IllegalAction) as refused:
        s.game.apply(s.state, PlayEvent(0, "reinforce"))
    assert refused.value.message == "You cannot play enhancements while playing a kingdom."
