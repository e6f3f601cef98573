"""Scenario tests of the 5-epoch rules (ruleset ``history``), each citing its rulebook passage.

The board is the real 5-epoch map (data/history/epochs5/map.yaml). Empire and
event cards are built here, so a test shows every number it relies on; the
Assyrians' card is checked against data/history/epochs5/empires.yaml as well
once that file exists. Dice come from the scripted ``dice`` fixture
(tests/conftest.py): every roll must match the script in its NUMBER of dice,
so the tests also check how many dice each side rolls.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

import pytest

from engine.core import Action, Event, IllegalAction
from engine.history.epochs5 import draft, turn
from engine.history.epochs5.actions import (
    Accept,
    Choose,
    Done,
    Draft,
    Fortify,
    Give,
    Invade,
    Keep,
    PlayEvent,
    Prefer,
    Reroll,
    Retreat,
    Siege,
    Stop,
    Track,
)
from engine.history.epochs5.board import Ctx, score_breakdown
from engine.history.epochs5.data import EventCard, RegionToken, Rules, make_rules
from engine.history.epochs5.empires import Empire
from engine.history.epochs5.game import Epochs5Game
from engine.history.epochs5.reach import reach
from engine.history.epochs5.state import Phase, State, TurnStep
from engine.history.epochs5.view import Epochs5View, YouView
from engine.history.worldmap import load_map
from tests.conftest import Dice

WMAP = load_map("data/history/epochs5/map.yaml")
VP_TABLE = {  # "Victory Point Table": presence value per epoch I..V
    "Middle East": [3, 3, 3, 3, 2],
    "Northern Africa": [2, 2, 2, 2, 1],
    "China": [2, 2, 3, 3, 2],
    "India": [2, 2, 3, 3, 2],
    "Southern Europe": [1, 2, 3, 3, 2],
    "Northern Europe": [1, 2, 2, 2, 1],
    "Southeast Asia": [1, 1, 2, 2, 2],
    "Far East": [1, 1, 1, 1, 2],
    "Eurasia": [1, 2, 2, 2, 2],
    "North America": [1, 2, 2, 3, 3],
    "South America": [1, 2, 2, 2, 2],
    "Southern Africa": [1, 2, 2, 2, 2],
    "Australasia": [1, 2, 2, 2, 2],
}


def table_tokens(table: dict[str, list[int]]) -> list[RegionToken]:
    return [RegionToken(region, e, e, v) for region, values in table.items() for e, v in enumerate(values, 1)]


def emp(
    name: str,
    epoch: int,
    order: int,
    armies: int,
    *starts: str,
    capitol: bool = True,
    fleets: Iterable[str] = (),
    caravans: Iterable[str] = (),
    effect: str | None = None,
) -> Empire:
    return Empire(
        key=f"{epoch}:{name}",
        name=name,
        epoch=epoch,
        order=order,
        armies=armies,
        starts=tuple(starts),
        structure="capitol" if capitol else None,
        fleets=tuple(fleets),
        caravans=tuple(caravans),
        effect=effect,
        marauder=not capitol,  # the test empires without a capitol show the torch
    )


# Epoch I in the order of the card back: "Sumerians are called first, followed by
# Egyptians, Minoans, and so on"; the example turn calls Minoans, Hittites, Assyrians.
SUMERIANS = emp("Sumerians", 1, 0, 5, "Tigris")
EGYPTIANS = emp("Egyptians", 1, 1, 5, "Nile")
MINOANS = emp("Minoans", 1, 2, 4, "Crete", fleets=["Mediterranean Sea"])
HITTITES = emp("Hittites", 1, 3, 5, "Anatolia")
# Example of a Turn: six armies, Mesopotamia with a capitol, a caravan in the Empty
# Quarter, "the Assyrian's ability lets her fortify one territory for each resource icon".
ASSYRIANS = emp(
    "Assyrians", 1, 4, 6, "Mesopotamia", caravans=["Empty Quarter"], effect="fortify_per_resource"
)
VANDALS = emp("Vandals", 1, 5, 6, "Gaul", capitol=False)  # a marauder for the tests
ROVERS = emp("Rovers", 1, 6, 8, "Iberia", fleets=["North Sea"])
NOMADS = emp("Nomads", 1, 7, 6, "Tarim Basin", caravans=["Himalayas"], capitol=False)
MESOAMERICANS = emp("Mesoamericans", 1, 8, 4, "Mexico", "Andes")
EMPIRES = [SUMERIANS, EGYPTIANS, MINOANS, HITTITES, ASSYRIANS, VANDALS, ROVERS, NOMADS, MESOAMERICANS]
LATER = [emp(f"E{e}{i}", e, i, 5, "Levant") for e in range(2, 6) for i in range(8)]


def card(cid: str, effect: str, epoch: int = 1, savable: bool = False, **params: Any) -> EventCard:
    return EventCard(
        id=cid,
        name=cid.title(),
        epoch=epoch,
        effect=effect,
        savable=savable,
        text="",
        params=params,
        design="ours",
    )


KINGDOM = EventCard(
    id="kush",
    name="Kush",
    epoch=1,
    effect="kingdom",
    savable=False,
    text="",
    params={},
    design="ours",
    kingdom=Empire(
        key="kingdom:kush", name="Kush", epoch=1, order=-1, armies=3, starts=("Nubia",), structure="city"
    ),
)
EVENTS = [
    KINGDOM,
    card("forts", "fortify", count=2),
    card("reroll", "reroll"),
    card("reinforce", "reinforce", savable=True, armies=3),
    card("fleet", "fleet"),
    card("diplomacy", "diplomacy"),
    card("disaster", "disaster"),
    card("siegeworks", "siege", tokens=2),
] + [card(f"ev{e}{i}", "assault", epoch=e) for e in range(2, 6) for i in range(8)]


def rules(**kw: Any) -> Rules:
    tokens = kw.pop("tokens", table_tokens(VP_TABLE))
    extra = kw.pop("extra", [])
    return make_rules(WMAP, EMPIRES + LATER + extra, EVENTS, tokens, **kw)


def you(view: Epochs5View) -> YouView:
    """The private part of a seated player's view (only a spectator's has none)."""
    private = view["you"]
    assert private is not None
    return private


class Scenario:
    """A game arranged by hand in the middle of an epoch, then driven through ``apply``."""

    def __init__(
        self, players: int = 3, epoch: int = 1, scores: list[int] | None = None, real: bool = False, **kw: Any
    ) -> None:
        if real:
            from engine.history.epochs5.data import load_rules

            self.game = Epochs5Game(load_rules())
        else:
            self.game = Epochs5Game(rules(**kw))
        self.state = State(
            players=players, options={"classic_drafting": False}, seed=7, epoch=epoch, phase=Phase.TURN
        )
        self.state.scores = scores or list(range(1, players + 1))
        self.state.prefs = [{"reroll": "if_losing"} for _ in range(players)]
        self.state.hands = [[] for _ in range(players)]
        self.state.played_empires = [[] for _ in range(players)]
        self.state.empire_of = [None] * players
        self.state.revealed = [False] * players
        for later in range(epoch + 1, 6):
            self.state.event_piles[str(later)] = self.game.rules.events_of(later)[:players]
            self.state.empire_piles[str(later)] = [e.key for e in self.game.rules.epochs[later]][:players]
        self.events: list[Event] = []

    def army(self, land: str, owner: int, force: str = "") -> Scenario:
        self.state.armies[land] = [owner, force]
        return self

    def structure(self, land: str, kind: str) -> Scenario:
        if kind == "monument":
            self.state.monuments.append(land)
        else:
            self.state.structures[land] = kind
        return self

    def fort(self, land: str) -> Scenario:
        self.state.forts.append(land)
        return self

    def hand(self, player: int, *cards: str) -> Scenario:
        self.state.hands[player] = sorted(cards)
        for c in cards:
            self.state.chosen_epoch[c] = self.state.epoch
        return self

    def start(self, empire: Empire, player: int) -> Scenario:
        self.state.empire_of[player] = empire.key
        self.state.call_pos = self.game.rules.epochs[empire.epoch].index(empire)
        ctx = Ctx(self.state, self.game.rules)
        turn.start_turn(ctx, player, empire)
        self.events.extend(ctx.events)
        return self

    def do(self, action: Action) -> Scenario:
        result = self.game.apply(self.state, action)
        self.state = result.state
        self.events.extend(result.events)
        return self

    def refused(self, action: Action, code: str) -> None:
        before = json.dumps(self.state.to_json(), sort_keys=True)
        with pytest.raises(IllegalAction) as err:
            self.game.apply(self.state, action)
        assert err.value.code == code
        assert json.dumps(self.state.to_json(), sort_keys=True) == before

    @property
    def turn(self) -> Any:
        return self.state.turn

    def holder(self, land: str) -> int | None:
        return self.state.occupant(land)

    def supply(self, player: int) -> int:
        return self.state.supply(player, 25)

    def types(self) -> list[str]:
        return [e.type for e in self.events]


# -- "Example of a Turn": the Assyrians ----------------------------------------------------------
def test_assyrian_example_turn(dice: Dice) -> None:
    """Nicole's Assyrians: establish, Zagros empty, Levant tie then again, Nile lost then sieged,
    a monument in Mesopotamia, forts in Mesopotamia and Zagros, 2 + 6 + 5 = 13 points."""
    greg, nicole, anna = 0, 1, 2
    s = Scenario(scores=[20, 10, 15])
    # Greg's Egyptians just finished: Nile with its capitol and a monument, Mesopotamia, Levant.
    s.army("Nile", greg).structure("Nile", "capitol").structure("Nile", "monument")
    s.army("Mesopotamia", greg).army("Levant", greg)
    s.army("Tigris", anna)  # the Sumerians', so the Assyrians have dominance, not supremacy
    s.start(ASSYRIANS, nicole)
    # 1. Six armies; Greg's army in Mesopotamia back to his supply; capitol and army; caravan.
    assert s.holder("Mesopotamia") == nicole and s.state.structures["Mesopotamia"] == "capitol"
    assert s.turn.pool == 5 and s.turn.caravans == ["Empty Quarter"]
    assert s.supply(greg) == 25 - 2 and s.supply(nicole) == 25 - 6
    # 2. Zagros is empty: no battle.
    dice.script()
    s.do(Invade(nicole, "Zagros"))
    assert s.holder("Zagros") == nicole
    # 4. Levant: two dice against one, a tie removes both.
    dice.script([3, 2], [3])
    s.do(Invade(nicole, "Levant"))
    assert s.holder("Levant") is None and s.supply(greg) == 25 - 1
    dice.script()
    s.do(Invade(nicole, "Levant"))
    assert s.holder("Levant") == nicole and s.turn.pool == 2
    # 5. Nile: lost, then a siege with the last army on "+1": tied dice, +1 wins.
    dice.script([2, 1], [4])
    s.do(Invade(nicole, "Nile"))
    assert s.turn.step == "siege" and s.holder("Nile") == greg
    dice.script([4, 1], [4])
    s.do(Siege(nicole))
    assert s.holder("Nile") == nicole
    assert s.state.structures["Nile"] == "city" and "Nile" in s.state.monuments  # one structure reduced
    assert s.turn.catapult == 0 and s.turn.pool == 0
    # 6. Two resource icons (Mesopotamia, Nile): one monument, in the capitol; two forts.
    s.do(Stop(nicole))
    assert s.state.monuments == ["Mesopotamia", "Nile"]
    assert s.turn.step == "target"
    s.do(Choose(nicole, "Mesopotamia")).do(Choose(nicole, "Zagros"))
    assert sorted(s.state.forts) == ["Mesopotamia", "Zagros"]
    # Resigned; 2 (Northern Africa presence) + 6 (Middle East dominance) + 5 (structures).
    assert s.state.armies["Zagros"] == [nicole, ""]
    assert s.state.scores[nicole] == 10 + 13
    scored = next(e for e in s.events if e.type == "scored")
    assert scored.data["regions"]["Northern Africa"] == {"level": "presence", "armies": 1, "points": 2}
    assert scored.data["regions"]["Middle East"] == {"level": "dominance", "armies": 3, "points": 6}
    assert scored.data["total"] == 13
    assert s.supply(nicole) == 25 - 4  # the catapult army went back to the supply


# -- battles ----------------------------------------------------------------------------------------
def test_win_removes_defender_and_occupies(dice: Dice) -> None:
    s = Scenario().army("Levant", 0).start(ASSYRIANS, 1)
    dice.script([6, 1], [5])
    s.do(Invade(1, "Levant"))
    assert s.state.armies["Levant"] == [1, ASSYRIANS.key]
    assert s.supply(0) == 25


def test_terrain_adds_one_to_the_defenders_highest_die(dice: Dice) -> None:
    """Zagros is a mountain: 5 against 4 + 1 is a tie."""
    s = Scenario().army("Zagros", 0).start(ASSYRIANS, 1)
    dice.script([5, 2], [4])
    s.do(Invade(1, "Zagros"))
    assert s.holder("Zagros") is None
    result = next(e for e in s.events if e.type == "battle_result")
    assert result.data == {"land": "Zagros", "player": 1, "defender": 0, "attacker_total": 5,
                           "defender_total": 5, "outcome": "tie", "won": False}


def test_fortified_defender_rolls_two_dice_and_the_fort_falls_on_a_win(dice: Dice) -> None:
    s = Scenario().army("Levant", 0).fort("Levant").start(ASSYRIANS, 1)
    dice.script([6, 6], [5, 2])
    s.do(Invade(1, "Levant"))
    assert s.holder("Levant") == 1 and "Levant" not in s.state.forts


def test_fort_stays_when_the_invader_loses(dice: Dice) -> None:
    s = Scenario().army("Levant", 0).fort("Levant").start(ASSYRIANS, 1)
    dice.script([2, 2], [5, 1])
    s.do(Invade(1, "Levant"))
    s.do(Retreat(1))
    assert s.holder("Levant") == 0 and "Levant" in s.state.forts
    assert s.turn.step == "invade" and s.supply(1) == 25 - 1 - 4


def test_naval_invasion_lets_the_defender_reroll_one_die(dice: Dice) -> None:
    """The Minoans cross the Mediterranean from Crete to the Levant: the defender rerolls."""
    s = Scenario().army("Levant", 0).start(MINOANS, 1)
    dice.script([4, 1], [2], [5])  # the defender is losing, so rerolls its die (preference)
    s.do(Invade(1, "Levant"))
    assert s.holder("Levant") == 0 and s.turn.step == "siege"
    reroll = next(e for e in s.events if e.type == "rerolled")
    assert reroll.data["side"] == "defender" and reroll.data["old"] == 2 and reroll.data["new"] == 5


def test_defender_never_rerolls_when_winning_and_never_if_so_preferred(dice: Dice) -> None:
    s = Scenario().army("Levant", 0).army("Anatolia", 2).start(MINOANS, 1)
    dice.script([3, 1], [4])  # winning: keeps the die
    s.do(Invade(1, "Levant")).do(Retreat(1))
    s.do(Prefer(2, "reroll", "never"))
    dice.script([5, 1], [2])  # losing, but the preference says never
    s.do(Invade(1, "Anatolia", "sea"))
    assert s.holder("Anatolia") == 1


def test_all_three_defender_effects_together(dice: Dice) -> None:
    """Anatolia (mountain) with a fort, invaded by fleet: two dice, +1, and a reroll of the lower."""
    s = Scenario().army("Anatolia", 0).fort("Anatolia").start(MINOANS, 1)
    dice.script([6, 6], [1, 3], [6])  # 6 v 3+1: the defender rerolls its lower die (the 1)
    s.do(Invade(1, "Anatolia"))
    result = next(e for e in s.events if e.type == "battle_result")
    assert result.data["defender_total"] == 7 and result.data["outcome"] == "loss"


def test_land_route_preferred_to_a_fleet_unless_asked() -> None:
    s = Scenario().army("Anatolia", 0).start(HITTITES, 1)
    s.turn.fleets = ["Mediterranean Sea"]
    targets = turn.invasion_targets(Ctx(s.state, s.game.rules))
    assert targets["Levant"] == ["land", "sea"]
    assert targets["Crete"] == ["sea"]
    s.refused(Invade(1, "Crete", "land"), "no_route")


def test_invader_reroll_offered_before_the_defender(dice: Dice) -> None:
    """ "If the invader and defender both have reroll effects ... starting with the invader.\""""
    s = Scenario().army("Levant", 0).hand(1, "reroll").start(MINOANS, 1)
    s.do(PlayEvent(1, "reroll"))
    dice.script([2, 1], [3])
    s.do(Invade(1, "Levant", "sea"))
    assert s.turn.step == "reroll"
    dice.script([4], [5])  # invader rerolls die 0 to a 4; the now losing defender rerolls to a 5
    s.do(Reroll(1, 0))
    assert s.turn.step == "siege"
    kinds = [(e.data["side"], e.data["new"]) for e in s.events if e.type == "rerolled"]
    assert kinds == [("invader", 4), ("defender", 5)]


def test_invader_may_pass_on_a_reroll(dice: Dice) -> None:
    s = Scenario().army("Levant", 0).hand(1, "reroll").start(ASSYRIANS, 1)
    s.do(PlayEvent(1, "reroll"))
    dice.script([6, 1], [3])
    s.do(Invade(1, "Levant"))
    s.do(Accept(1))
    assert s.holder("Levant") == 1


def test_siege_steps_plus_one_two_three_then_armies_to_supply(dice: Dice) -> None:
    """+1, +2, +3 on the catapult; past +3 the army goes straight back to the supply."""
    s = Scenario().army("Levant", 0).start(ROVERS, 1)  # 8 armies, the first in Iberia
    s.turn.fleets = ["Mediterranean Sea"]
    s.do(Prefer(0, "reroll", "never"))
    dice.script([1, 1], [6])
    s.do(Invade(1, "Levant"))
    for bonus in (1, 2, 3, 3):
        dice.script([1, 1], [6])
        s.do(Siege(1))
        battle = next(e for e in reversed(s.events) if e.type == "battle")
        assert battle.data["catapult"] == bonus
    assert s.turn.catapult_armies == 3 and s.turn.pool == 7 - 1 - 4
    assert s.supply(1) == 25 - 1 - 2 - 3 - 1  # board, card, catapult, invading army
    dice.script([5, 1], [6])  # 5 + 3 beats 6
    s.do(Siege(1))
    assert s.holder("Levant") == 1 and s.turn.catapult == 0
    assert s.supply(1) == 25 - 2 - 1


def test_must_retreat_when_the_card_is_empty(dice: Dice) -> None:
    s = Scenario().army("Levant", 0).start(ASSYRIANS, 1)
    s.turn.pool = 1
    dice.script([1, 1], [6])
    s.do(Invade(1, "Levant"))
    assert s.turn.step == "invade" and "must_retreat" in s.types()
    assert s.holder("Levant") == 0


def test_siege_tokens_when_the_supply_runs_short(dice: Dice) -> None:
    """ "If your supply runs out, take one siege token for each remaining army.\""""
    s = Scenario()
    for land in list(WMAP.lands)[:23]:
        if not WMAP.lands[land].barren and land not in ("Mesopotamia", "Levant"):
            s.army(land, 1)
    on_board = s.state.on_board(1)
    s.army("Levant", 0).start(ASSYRIANS, 1)
    assert s.turn.pool + 1 == 25 - on_board
    assert s.turn.siege_tokens == 6 - (25 - on_board)
    s.turn.pool = 0
    s.turn.siege_tokens = 1
    s.refused(Invade(1, "Levant"), "no_armies")  # tokens never invade
    s.turn.pool = 1
    dice.script([1, 1], [6], [6, 1], [2])
    s.do(Invade(1, "Levant")).do(Siege(1))
    assert s.holder("Levant") == 1 and s.turn.siege_tokens == 0 and s.turn.catapult_armies == 0


def test_structures_reduced_one_at_a_time(dice: Dice) -> None:
    """Capitol to city, then the city removed, then the monument; a tie reduces too."""
    s = Scenario().army("Levant", 0).structure("Levant", "capitol").structure("Levant", "monument")
    s.start(ROVERS, 1)
    s.turn.fleets = ["Mediterranean Sea"]
    s.do(Prefer(0, "reroll", "never"))
    dice.script([5, 1], [5])  # tie: capitol -> city
    s.do(Invade(1, "Levant"))
    assert s.state.structures["Levant"] == "city" and s.holder("Levant") is None
    s.army("Levant", 0)
    dice.script([6, 1], [5])  # win: the city goes
    s.do(Invade(1, "Levant"))
    assert "Levant" not in s.state.structures and "Levant" in s.state.monuments
    s.army("Levant", 0)
    dice.script([6, 1], [5])
    s.do(Invade(1, "Levant"))
    assert "Levant" not in s.state.monuments


def test_empty_territory_keeps_its_structures_and_fort() -> None:
    s = Scenario().structure("Levant", "capitol").fort("Levant").start(ASSYRIANS, 1)
    s.do(Invade(1, "Levant"))
    assert s.state.structures["Levant"] == "capitol" and "Levant" in s.state.forts


def test_own_resigned_army_goes_back_to_supply() -> None:
    s = Scenario().army("Levant", 1).start(ASSYRIANS, 1)
    before = s.supply(1)
    s.do(Invade(1, "Levant"))
    # The invading army came from the card; the resigned one went back to the supply.
    assert s.state.armies["Levant"] == [1, ASSYRIANS.key] and s.supply(1) == before + 1


def test_marauder_scores_a_point_per_structure_reduced(dice: Dice) -> None:
    s = Scenario(scores=[1, 10, 3]).army("Alamannia", 0).structure("Alamannia", "capitol")
    s.start(VANDALS, 1)
    assert "Gaul" not in s.state.structures  # no capitol for a marauder
    dice.script([6, 1], [2])
    s.do(Invade(1, "Alamannia"))
    assert s.state.scores[1] == 11


def test_marauder_point_onto_an_occupied_space_waits_for_the_track_choice(dice: Dice) -> None:
    s = Scenario(scores=[11, 10, 3]).army("Alamannia", 0).structure("Alamannia", "city").start(VANDALS, 1)
    dice.script([6, 1], [2])
    s.do(Invade(1, "Alamannia"))
    assert s.turn.step == "track"
    s.refused(Invade(1, "Rhineland"), "wrong_step")
    s.do(Track(1, "up"))
    assert s.state.scores[1] == 12 and s.turn.step == "invade"


def test_a_saved_turn_reads_its_phase_and_step_back_as_members(dice: Dice) -> None:
    # a saved game holds plain strings; the rules compare members by identity
    s = Scenario(scores=[11, 10, 3]).army("Alamannia", 0).structure("Alamannia", "city").start(VANDALS, 1)
    dice.script([6, 1], [2])
    s.do(Invade(1, "Alamannia"))
    back = State.from_json(json.loads(s.state.dumps()))
    assert back == s.state and back.phase is Phase.TURN
    assert back.turn is not None and back.turn.step is TurnStep.TRACK
    assert s.game.legal_actions(back, 1) == [Track(1, "up"), Track(1, "down")]
    moved = s.game.apply(back, Track(1, "up")).state
    assert moved.scores[1] == 12 and moved.turn is not None and moved.turn.step is TurnStep.INVADE


# -- establishing, monuments, forts ------------------------------------------------------------------
def test_establish_clears_the_start_territory() -> None:
    s = Scenario().army("Mesopotamia", 0).fort("Mesopotamia").structure("Mesopotamia", "city")
    s.structure("Mesopotamia", "monument").start(ASSYRIANS, 1)
    assert s.state.armies["Mesopotamia"] == [1, ASSYRIANS.key]
    assert s.state.structures["Mesopotamia"] == "capitol"
    assert "Mesopotamia" not in s.state.forts and "Mesopotamia" not in s.state.monuments


def test_two_start_territories_each_get_a_capitol_and_an_army() -> None:
    """Mesoamericans: "Place one capitol and one army in each starting territory.\""""
    s = Scenario().start(MESOAMERICANS, 0)
    assert s.state.structures == {"Mexico": "capitol", "Andes": "capitol"}
    assert s.holder("Mexico") == s.holder("Andes") == 0
    assert s.turn.pool == 2


def test_monument_priority_capitol_then_city_then_resource() -> None:
    s = Scenario().structure("Tigris", "city").start(ASSYRIANS, 1)
    for land in ("Tigris", "Anatolia", "Levant"):
        s.do(Invade(1, land))
    # Resources: Mesopotamia, Tigris, Anatolia = 3 -> one monument, in the capitol.
    s.do(Stop(1))
    assert s.state.monuments == ["Mesopotamia"]


def test_monuments_with_four_resources() -> None:
    s = Scenario().structure("Tigris", "city").start(HITTITES, 1)
    for land in ("Mesopotamia", "Tigris", "Levant", "Nile"):
        s.do(Invade(1, land))
    # Anatolia, Mesopotamia, Tigris, Nile carry resources: two monuments (capitol, then city).
    s.do(Stop(1))
    assert s.state.monuments == ["Anatolia", "Tigris"]


def test_fortify_spends_an_army() -> None:
    s = Scenario().start(ASSYRIANS, 1)
    s.do(Fortify(1, "Mesopotamia"))
    assert s.state.forts == ["Mesopotamia"] and s.turn.pool == 4
    s.refused(Fortify(1, "Mesopotamia"), "has_fort")
    s.refused(Fortify(1, "Levant"), "not_active")


def test_forts_are_limited_to_fourteen() -> None:
    s = Scenario(forts=1).start(ASSYRIANS, 1)
    s.do(Invade(1, "Zagros")).do(Fortify(1, "Zagros"))
    s.refused(Fortify(1, "Mesopotamia"), "no_forts")


def test_stop_returns_the_armies_left_on_the_card() -> None:
    s = Scenario().start(ASSYRIANS, 1)
    s.do(Stop(1))
    assert s.turn.step == "target"  # one resource: Mesopotamia -> one free fort
    s.do(Done(1))
    assert s.state.turn is None or s.state.turn.player != 1
    assert s.supply(1) == 24


# -- kingdoms and enhancements ----------------------------------------------------------------------
def test_kingdom_first_then_the_empire_and_scored_together() -> None:
    s = Scenario(scores=[1, 2, 3]).hand(0, "kush", "forts").start(EGYPTIANS, 0)
    assert s.turn.step == "kingdom"
    s.refused(PlayEvent(0, "forts"), "not_a_kingdom")
    s.do(PlayEvent(0, "kush"))
    assert s.turn.force == "kingdom:kush" and s.state.structures["Nubia"] == "city"
    s.refused(PlayEvent(0, "forts"), "unplayable")  # no enhancements while playing a kingdom
    s.do(Invade(0, "Horn"))
    s.do(Stop(0))
    assert s.state.armies["Nubia"] == [0, ""] and s.state.scores[0] == 1  # no points yet
    assert s.turn.force == EGYPTIANS.key and s.state.armies["Nile"] == [0, EGYPTIANS.key]
    s.do(Stop(0))
    # Northern Africa: Nile + Nubia = dominance 4; Southern Africa: Horn presence 1;
    # capitol 2 + city 1.
    assert s.state.scores[0] == 1 + 4 + 1 + 3


def test_kingdom_may_be_skipped_and_only_in_its_epoch() -> None:
    s = Scenario().hand(0, "kush").start(EGYPTIANS, 0)
    s.do(Done(0))
    assert s.turn.force == EGYPTIANS.key
    s2 = Scenario(epoch=2).hand(0, "kush").start(LATER[0], 0)
    assert s2.turn.step == "invade"


def test_enhancement_fortify_two_free_forts() -> None:
    s = Scenario().hand(1, "forts").start(ASSYRIANS, 1)
    s.do(Invade(1, "Zagros")).do(PlayEvent(1, "forts"))
    s.do(Choose(1, "Zagros"))
    s.refused(Choose(1, "Levant"), "bad_target")
    s.do(Choose(1, "Mesopotamia"))
    assert sorted(s.state.forts) == ["Mesopotamia", "Zagros"] and s.turn.pool == 4
    assert s.turn.step == "invade" and s.state.hands[1] == []


def test_enhancements_refused_during_an_invasion(dice: Dice) -> None:
    s = Scenario().army("Levant", 0).hand(1, "reinforce").start(ASSYRIANS, 1)
    dice.script([1, 1], [6])
    s.do(Invade(1, "Levant"))
    s.refused(PlayEvent(1, "reinforce"), "during_invasion")
    s.do(Retreat(1)).do(PlayEvent(1, "reinforce"))
    assert s.turn.pool == 5 - 1 + 3  # the retreating army went back to the supply


def test_savable_enhancement_kept_for_a_later_epoch_others_discarded() -> None:
    s = Scenario(players=3).hand(1, "reinforce", "forts")
    ctx = Ctx(s.state, s.game.rules)
    s.state.call_pos = 8
    draft.call_next(ctx)  # nobody holds an empire: the epoch ends
    assert s.state.epoch == 2 and s.state.hands[1] == ["reinforce"]


def test_event_needing_armies_refused_when_the_supply_is_short() -> None:
    s = Scenario().hand(1, "reinforce").start(ASSYRIANS, 1)
    for land in [t for t, info in WMAP.lands.items() if not info.barren][:40]:
        if s.state.supply(1, 25) > 2 and land not in s.state.armies:
            s.army(land, 1)
    s.refused(PlayEvent(1, "reinforce"), "unplayable")


def test_diplomacy_replaces_without_reducing() -> None:
    s = Scenario().army("Levant", 0).structure("Levant", "capitol").fort("Levant").hand(1, "diplomacy")
    s.start(ASSYRIANS, 1).do(PlayEvent(1, "diplomacy")).do(Choose(1, "Levant"))
    assert s.state.armies["Levant"] == [1, ASSYRIANS.key]
    assert s.state.structures["Levant"] == "capitol" and "Levant" in s.state.forts
    assert s.turn.pool == 5


def test_fleet_event_lets_the_empire_cross_the_sea() -> None:
    s = Scenario().hand(1, "fleet").start(HITTITES, 1)
    s.refused(Invade(1, "Crete"), "not_adjacent")
    s.do(PlayEvent(1, "fleet")).do(Choose(1, "Mediterranean Sea"))
    s.do(Invade(1, "Crete"))
    assert s.holder("Crete") == 1


# -- movement aids: the rulebook's adjacency examples -------------------------------------------------
def _reached(source: str, fleets: list[str], caravans: list[str]) -> set[str]:
    found = reach(WMAP, [source], fleets, caravans)
    return set((found.by_sea if fleets else found.by_land) - WMAP.neighbours(source)) - {source}


def test_north_sea_example() -> None:
    found = reach(WMAP, ["Rhineland"], ["North Sea"], [])
    assert found.by_sea - {"Rhineland"} == {
        "Iberia",
        "Gaul",
        "Britannia",
        "Alamannia",
        "Scandinavia",
        "Volga",
    }


def test_himalayas_example() -> None:
    found = reach(WMAP, ["Tarim Basin"], [], ["Himalayas"])
    expected = {"Turan", "Wei", "Sichuan", "Irrawaddy", "Bengal", "Ganges", "Hindu Kush"}
    assert expected <= found.by_land and not found.by_sea


def test_indian_ocean_example_via_the_arabian_sea() -> None:
    found = reach(WMAP, ["Arabia"], ["Indian Ocean"], [])
    assert found.by_sea - {"Arabia"} == {
        "Cape",
        "Horn",
        "Nubia",
        "Nile",
        "Ghats",
        "Australia",
        "Tigris",
        "Zagros",
        "Persian Plateau",
        "Indus",
        "Deccan",
    }


def test_fleets_and_caravans_chain() -> None:
    """A caravan in the Sahara (on the North Atlantic) and a fleet there: Nile reaches Britannia
    and, through the ocean's adjacent Caribbean Sea, Mexico; the caravan alone is not naval."""
    alone = reach(WMAP, ["Nile"], [], ["Sahara"])
    assert "Numidia" in alone.by_land and "Britannia" not in alone.by_land | alone.by_sea
    chained = reach(WMAP, ["Nile"], ["North Atlantic Ocean"], ["Sahara"])
    assert {"Britannia", "Mexico", "Numidia"} <= chained.by_sea and "Britannia" not in chained.by_land


def test_no_fleet_in_the_arctic_ocean() -> None:
    assert not reach(WMAP, ["Siberia"], ["Arctic Ocean"], []).by_sea


def test_barren_land_refused(dice: Dice) -> None:
    s = Scenario().start(ASSYRIANS, 1)
    s.refused(Invade(1, "Empty Quarter"), "barren")
    s.refused(Invade(1, "Gaul"), "not_adjacent")
    s.refused(Invade(1, "Atlantis"), "unknown_land")
    s.refused(Invade(0, "Zagros"), "not_your_turn")
    s.refused(Siege(1), "wrong_step")


# -- scoring ------------------------------------------------------------------------------------------
def test_region_without_a_token_scores_nothing() -> None:
    tokens = [t for t in table_tokens(VP_TABLE) if t.region != "Northern Africa"]
    s = Scenario(tokens=tokens).army("Nile", 0).army("Libya", 0).structure("Nile", "city")
    points = score_breakdown(s.state, s.game.rules, 0)
    assert points["regions"] == {} and points["total"] == 1


def test_supremacy_is_three_times_presence() -> None:
    s = Scenario(epoch=3).army("Levant", 0).army("Arabia", 0).army("Tigris", 0)
    points = score_breakdown(s.state, s.game.rules, 0)
    assert points["regions"]["Middle East"] == {"level": "supremacy", "armies": 3, "points": 9}
    s.army("Zagros", 1).army("Anatolia", 1)
    points = score_breakdown(s.state, s.game.rules, 0)
    assert points["regions"]["Middle East"]["level"] == "dominance"
    s.army("Persian Plateau", 1)
    assert score_breakdown(s.state, s.game.rules, 0)["regions"]["Middle East"]["level"] == "presence"


def test_score_marker_moves_down_until_alone() -> None:
    s = Scenario(scores=[11, 5, 12]).start(ASSYRIANS, 1)
    s.state.armies.clear()
    s.army("Levant", 1, ASSYRIANS.key).army("Arabia", 1, ASSYRIANS.key)
    s.turn.pool = 0
    s.do(Stop(1))  # Middle East dominance: 5 + 6 = 11, player 0's space
    assert s.turn.step == "track" and s.turn.track["at"] == 11
    s.refused(Track(1, "sideways"), "bad_direction")
    s.do(Track(1, "down"))
    assert s.state.scores[1] == 10


def test_score_marker_moves_up_past_occupied_spaces() -> None:
    s = Scenario(scores=[11, 5, 12]).start(ASSYRIANS, 1)
    s.state.armies.clear()
    s.army("Levant", 1, ASSYRIANS.key).army("Arabia", 1, ASSYRIANS.key)
    s.turn.pool = 0
    s.do(Stop(1))
    s.do(Track(1, "up"))
    assert s.state.scores[1] == 13


def test_scores_past_99_share_the_track_space() -> None:
    s = Scenario(scores=[7, 95, 3]).start(ASSYRIANS, 1)
    s.state.armies.clear()
    s.army("Levant", 1, ASSYRIANS.key).army("Arabia", 1, ASSYRIANS.key)
    s.turn.pool = 0
    s.do(Stop(1))  # 95 + 6 = 101: space 1, free
    assert s.state.scores[1] == 101
    view = s.game.view(s.state, None)
    assert view["track"][1] == {"space": 1, "flipped": True}


# -- drafting -----------------------------------------------------------------------------------------
def drafting(players: int, scores: list[int], classic: bool = False) -> tuple[Epochs5Game, State]:
    game = Epochs5Game(rules())
    state = game.setup(players, {"classic_drafting": classic}, 3)
    state.scores = list(scores)
    state.event_piles["1"] = state.event_set + state.event_piles.get("1", [])
    state.empire_piles["1"] = state.empire_set
    ctx = Ctx(state, game.rules)
    draft.start_epoch(ctx)
    return game, state


def test_setup_trims_piles_and_places_markers_on_one_to_n() -> None:
    game = Epochs5Game(rules())
    state = game.setup(4, {}, 11)
    assert sorted(state.scores) == [1, 2, 3, 4]
    assert len(state.event_set) == len(state.empire_set) == 4
    assert all(len(p) == 4 for p in state.event_piles.values())
    assert all(len(p) == 4 for p in state.empire_piles.values())


def test_draft_order_four_players_both_sets_at_once() -> None:
    game, state = drafting(4, [5, 9, 2, 7])  # most points: 1, 3, 0, 2
    assert state.draft_order == [1, 3, 0, 2]
    assert game.actors(state) == {1, 2}  # events with the leader, empires with the last
    view = game.view(state, 1)
    assert you(view)["choosing"]["pile"] == "event" and len(you(view)["choosing"]["cards"]) == 4
    assert "choosing" not in you(game.view(state, 3))
    ev = state.event_set[0]
    state = game.apply(state, Draft(1, ev)).state
    assert game.actors(state) == {2}  # the set passes only after both have chosen
    em = state.empire_set[0]
    state = game.apply(state, Draft(2, em)).state
    assert game.actors(state) == {3, 0} and len(state.event_set) == 3 and len(state.empire_set) == 3
    while state.phase == "draft":
        for p in sorted(game.actors(state)):
            if p in game.actors(state):
                state = game.apply(state, game.legal_actions(state, p)[0]).state
    assert all(e is not None for e in state.empire_of)
    assert all(len(h) == 1 for h in state.hands)


@pytest.mark.parametrize(("players", "scores"), [(3, [4, 8, 6]), (5, [1, 9, 5, 3, 7])])
def test_middle_player_chooses_one_set_then_the_other(players: int, scores: list[int]) -> None:
    game, state = drafting(players, scores)
    middle = state.draft_order[players // 2]
    while game.actors(state) != {middle}:
        for p in sorted(game.actors(state)):
            state = game.apply(state, game.legal_actions(state, p)[0]).state
    assert state.draft_order.index(middle) == state.draft_step == players // 2
    assert you(game.view(state, middle))["choosing"]["pile"] == "event"
    before = json.dumps(state.to_json())
    with pytest.raises(IllegalAction) as err:
        game.apply(state, Draft(middle, state.empire_set[0]))
    assert err.value.code == "one_set_at_a_time" and json.dumps(state.to_json()) == before
    state = game.apply(state, Draft(middle, state.event_set[0])).state
    assert game.actors(state) == {middle}
    assert you(game.view(state, middle))["choosing"]["pile"] == "empire"
    state = game.apply(state, Draft(middle, state.empire_set[0])).state
    assert middle not in game.actors(state)


def test_classic_drafting_keep_or_give() -> None:
    game, state = drafting(3, [2, 6, 4], classic=True)  # order 1, 2, 0
    assert game.actors(state) == {1, 0}
    acts = game.legal_actions(state, 1)
    assert Keep(1, "event") in acts and Give(1, "event", 2) in acts
    drawn = state.drawn["event"]
    state = game.apply(state, Give(1, "event", 0)).state
    assert drawn in state.hands[0]
    state = game.apply(state, Keep(0, "empire")).state
    # Step 2: player 2 holds both sets; the event card first.
    assert game.actors(state) == {2}
    state = game.apply(state, Keep(2, "event")).state
    with pytest.raises(IllegalAction):
        game.apply(state, Give(2, "empire", 0))  # 0 already has an empire card
    state = game.apply(state, Give(2, "empire", 1)).state
    # Step 3: player 0 must give the event card to player 1 (forced, automatic) and
    # player 1 has an empire card, so the last empire card goes to player 2.
    assert state.phase == "turn" and all(e is not None for e in state.empire_of)
    assert all(len(h) == 1 for h in state.hands)


def test_hidden_information_stays_out_of_other_views() -> None:
    game, state = drafting(4, [5, 9, 2, 7])
    secret = state.event_set[0]
    assert secret not in json.dumps(game.view(state, 2))
    assert secret not in json.dumps(game.view(state, None))
    future = state.empire_piles["2"][0]
    assert all(future not in json.dumps(game.view(state, p)) for p in range(4))


# -- empire effects -------------------------------------------------------------------------------
def test_pyramids_build_a_monument_per_resource() -> None:
    pyramids = emp("Pharaohs", 1, 6, 4, "Nile", effect="monument_per_resource")
    s = Scenario(extra=[pyramids]).start(pyramids, 0)
    s.do(Invade(0, "Libya")).do(Invade(0, "Numidia")).do(Stop(0))  # Nile and Numidia: resources
    assert s.state.monuments == ["Nile", "Numidia"]


@pytest.mark.parametrize(
    ("effect", "route", "total"),
    [("assault", "land", 6), ("naval_assault", "sea", 6), ("naval_assault", "land", 5)],
)
def test_empire_die_modifiers(dice: Dice, effect: str, route: str, total: int) -> None:
    raiders = emp("Raiders", 1, 6, 5, "Anatolia", fleets=["Mediterranean Sea"], effect=effect)
    s = Scenario(extra=[raiders]).army("Levant", 0).start(raiders, 1).do(Prefer(0, "reroll", "never"))
    dice.script([5, 1], [6])
    s.do(Invade(1, "Levant", route))
    result = next(e for e in s.events if e.type == "battle_result")
    assert result.data["attacker_total"] == total


def test_empire_ignoring_terrain(dice: Dice) -> None:
    legions = emp("Romans", 1, 6, 5, "Mesopotamia", effect="ignore_terrain")
    s = Scenario(extra=[legions]).army("Zagros", 0).start(legions, 1)
    dice.script([5, 1], [4])
    s.do(Invade(1, "Zagros"))
    assert s.holder("Zagros") == 1


def test_empire_reroll_is_not_the_kingdoms(dice: Dice) -> None:
    """ "Your empire's effect does not apply to your kingdom.\""""
    fire = emp("Byzantines", 1, 6, 5, "Crete", effect="reroll")
    s = Scenario(extra=[fire]).army("Horn", 2).hand(1, "kush").start(fire, 1)
    s.do(PlayEvent(1, "kush"))
    dice.script([6, 1], [2])  # the kingdom's battle: no reroll step
    s.do(Invade(1, "Horn"))
    assert s.holder("Horn") == 1 and "reroll" not in [e.data.get("step") for e in s.events]


# -- the real data ----------------------------------------------------------------------------------
def test_real_data_loads_with_the_rulebook_numbers() -> None:
    from engine.history.epochs5.data import check_data, load_rules

    assert check_data() == []
    real = load_rules()
    assert len(real.tokens) == 32
    for region, values in VP_TABLE.items():
        assert [real.region_value(region, e) for e in range(1, 6)] == values
    assert [len(real.events_of(e)) for e in range(1, 6)] == [8] * 5
    assert all(card.design == "ours" for card in real.events.values())
    assert (real.armies_per_player, real.structures, real.monuments, real.forts) == (25, 24, 20, 14)
    names = [e.name for e in real.epochs[1]]
    assert names[:5] == ["Sumerians", "Egyptians", "Minoans", "Hittites", "Assyrians"]


def test_assyrian_example_with_the_real_cards(dice: Dice) -> None:
    """The example turn again, on data/history/epochs5/empires.yaml's Assyrians: 13 points."""
    from engine.history.epochs5.data import load_rules

    real = load_rules()
    assyrians = next(e for e in real.epochs[1] if e.name == "Assyrians")
    s = Scenario(scores=[20, 10, 15], real=True)
    s.army("Nile", 0).structure("Nile", "capitol").structure("Nile", "monument")
    s.army("Mesopotamia", 0).army("Levant", 0).army("Tigris", 2)
    s.start(assyrians, 1)
    assert s.turn.pool == 5 and s.turn.caravans == ["Empty Quarter"]
    dice.script([3, 2], [3], [2, 1], [4], [4, 1], [4])
    s.do(Invade(1, "Zagros")).do(Invade(1, "Levant")).do(Invade(1, "Levant"))
    s.do(Invade(1, "Nile")).do(Siege(1)).do(Stop(1))
    s.do(Choose(1, "Mesopotamia")).do(Choose(1, "Zagros"))
    assert s.state.scores[1] == 23


# -- state plumbing --------------------------------------------------------------------------------
def _containers(value: Any, out: list[Any]) -> list[Any]:
    if isinstance(value, dict):
        out.append(value)
        for v in value.values():
            _containers(v, out)
    elif isinstance(value, list):
        out.append(value)
        for v in value:
            _containers(v, out)
    return out


def test_clone_shares_no_list_or_dict(dice: Dice) -> None:
    s = Scenario().army("Levant", 0).hand(1, "reroll").start(ASSYRIANS, 1).do(PlayEvent(1, "reroll"))
    dice.script([1, 1], [6])
    s.do(Invade(1, "Levant"))  # a battle waiting for the reroll decision
    state = s.state
    copy = state.clone()
    assert copy == state
    ids = {id(c) for c in _containers(vars(state), [])} | {id(c) for c in _containers(vars(state.turn), [])}
    copied = _containers(vars(copy), []) + _containers(vars(copy.turn), [])
    assert not any(id(c) in ids for c in copied)
    s.do(Accept(1)).do(Retreat(1))


def test_preference_from_a_bystander_changes_no_turn() -> None:
    s = Scenario().start(ASSYRIANS, 1)
    s.do(Prefer(2, "reroll", "if_not_winning"))
    assert s.state.prefs[2] == {"reroll": "if_not_winning"} and s.turn.player == 1
    s.refused(Prefer(2, "reroll", "always"), "bad_preference")
    s.refused(Prefer(7, "reroll", "never"), "not_seated")


def test_unrevealed_empires_stay_hidden_during_the_epoch() -> None:
    s = Scenario()
    s.state.empire_of = [EGYPTIANS.key, ASSYRIANS.key, ROVERS.key]
    s.start(EGYPTIANS, 0)
    view = s.game.view(s.state, 2)
    assert view["empires_this_epoch"] == {"0": EGYPTIANS.key}
    assert ASSYRIANS.key not in json.dumps(view) and you(view)["empire"] == ROVERS.key


def test_standing_track_preference_settles_without_waiting() -> None:
    s = Scenario(scores=[11, 5, 12]).start(ASSYRIANS, 1)
    s.do(Prefer(1, "track", "up"))
    s.state.armies.clear()
    s.army("Levant", 1, ASSYRIANS.key).army("Arabia", 1, ASSYRIANS.key)
    s.turn.pool = 0
    s.do(Stop(1))  # 5 + 6 = 11, taken: up past 12 to 13 at once
    assert s.state.scores[1] == 13 and (s.state.turn is None or s.state.turn.player != 1)


def test_caravan_invasion_gives_no_naval_reroll(dice: Dice) -> None:
    """ "The Naval defender effect does not apply to invasions using caravans.\""""
    s = Scenario().army("Arabia", 0).start(ASSYRIANS, 1)
    assert "Arabia" not in WMAP.neighbours("Mesopotamia")
    dice.script([4, 1], [2])  # the defender is losing, yet rolls nothing more
    s.do(Invade(1, "Arabia"))
    assert s.holder("Arabia") == 1


def test_straits_are_adjacency() -> None:
    """ "A territory is adjacent if it either shares a black border or is connected by ... a strait.\""""
    assert WMAP.border("Anatolia", "Macedonia") == "strait"
    s = Scenario().army("Macedonia", 0).start(HITTITES, 1)
    assert turn.invasion_targets(Ctx(s.state, s.game.rules))["Macedonia"] == ["land"]


def test_event_data_validation_lists_every_problem() -> None:
    from engine.history.epochs5.data import load_events, load_tokens

    problems: list[str] = []
    raw = {
        "events": [
            {"id": "a", "epoch": 1, "effect": "teleport"},
            {"id": "b", "epoch": 9, "effect": "assault"},
            {
                "id": "c",
                "epoch": 1,
                "effect": "kingdom",
                "savable": True,
                "kingdom": {"armies": 0, "starts": ["Empty Quarter", "Atlantis"], "structure": "castle"},
            },
        ]
    }
    load_events(raw, WMAP, problems)
    text = "\n".join(problems)
    for needle in (
        "unknown effect 'teleport'",
        "epoch must be 1..5",
        "cannot be saved",
        "is barren",
        "unknown territory 'Atlantis'",
        "structure must be",
        "armies must be",
        "has 1 event cards",
    ):
        assert needle in text, needle
    tokens = load_tokens({"regions": {**VP_TABLE, "Middle East": [3, None, None, 3, 2]}}, WMAP, problems)
    assert [(t.first, t.last, t.value) for t in tokens if t.region == "Middle East"] == [
        (1, 1, 3),
        (4, 4, 3),
        (5, 5, 2),
    ]
