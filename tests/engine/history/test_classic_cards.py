"""Event cards of the classic rules: every Greater and Lesser Event type.

Passages cited are from Chapter IV (Event Cards) and the "Greater Event Cards"
and "Lesser Event Cards" tables at the back of the rulebook.
"""

from __future__ import annotations

from collections.abc import Container, Mapping, Sequence

import pytest

from engine.history.actions import Choose, Done, Expand, PlayCard
from tests.conftest import Dice
from tests.support.history_builder import RULES, Scenario, only

# -- playing cards at all ----------------------------------------------------------


def test_at_most_two_cards_a_turn() -> None:
    """Chapter IV: "You may play up to two (2) Event Cards before starting your
    turn." After two, the empire is set up and no third card can be played."""
    s = Scenario(epoch=2).hand(0, "Population Explosion", "Civil Service", "Weaponry")
    s.start("Assyria", player=0)
    s.play("Population Explosion")
    assert s.turn.step == "events"
    s.play("Civil Service")
    assert s.turn.step == "expand"
    s.illegal(PlayCard(0, "weaponry"), "wrong_step")
    assert s.state.hands[0] == ["weaponry"]


def test_two_identical_cards_not_on_one_turn() -> None:
    """Chapter IV: "two of the exact same card may not be played on the same turn
    (two Leaders or two Disasters, for example)." """
    s = Scenario(epoch=2).hand(0, "Leader", "Leader", "Weaponry").start("Assyria", player=0)
    s.play("Leader")
    assert PlayCard(0, "leader") not in s.legal()
    s.illegal(PlayCard(0, "leader"), "card_unplayable")
    assert PlayCard(0, "weaponry") in s.legal()


def test_no_card_after_the_first_army() -> None:
    """Chapter IV: "Once you have placed your first army, you may not play a card
    for the rest of your turn." """
    s = Scenario(epoch=2).hand(0, "Weaponry").start("Assyria", player=0)
    s.done()
    assert s.turn.step == "expand" and s.holder("Upper Tigris") == 0
    s.illegal(PlayCard(0, "weaponry"), "wrong_step")


def test_cards_keep_to_their_epochs() -> None:
    """Chapter IV: "Some Event Cards can only be played during one Epoch or during
    a few Epochs." Kingdom: Kush is an Epoch III card."""
    s = Scenario(epoch=2).hand(0, "Kingdom: Kush", "Weaponry").start("Assyria", player=0)
    assert PlayCard(0, "kingdom-kush") not in s.legal()
    s.illegal(PlayCard(0, "kingdom-kush"), "card_unplayable")


# -- Greater Events -----------------------------------------------------------------


def test_reallocation_turns_fleets_into_coins() -> None:
    """Greater Event "Reallocation": "After placing all fleets but before
    expanding, the Active Empire may remove as many fleets as desired and replace
    them with coins. Once expansion begins, no more reallocating may take place." """
    s = Scenario(epoch=2).hand(0, "Reallocation").start("Greek City States", player=0)
    s.play("Reallocation")
    assert s.turn.step == "reallocate" and s.holder("Morea") == 0
    s.choose("Black Sea")
    assert "Black Sea" not in s.turn.force.fleets and s.turn.coins == 1
    s.done()
    assert s.turn.step == "expand"
    s.illegal(Choose(0, "Western Mediterranean"), "wrong_step")
    s.illegal(Expand(0, "Caucasus"), "not_adjacent")  # no Black Sea stepping stone now
    s.expand("Shatts Plateau")  # the Western Mediterranean fleet is still there
    s.build_fort("Morea", pay="coin")
    assert s.turn.coins == 0 and "Morea" in s.state.forts


def test_reallocation_needs_fleets() -> None:
    """Greater Event "Reallocation" diverts naval resources: an empire without
    fleets (Assyria) has nothing to reallocate."""
    s = Scenario(epoch=2).hand(0, "Reallocation", "Weaponry").start("Assyria", player=0)
    s.illegal(PlayCard(0, "reallocation"), "card_unplayable")


def test_leader_gives_three_dice(dice: Dice) -> None:
    """Greater Event "Leader": "The Active Empire rolls three dice when
    attacking" (triples: see test_classic_combat)."""
    s = Scenario(epoch=2).army("Middle Tigris", owner=1)
    s.hand(0, "Leader").start("Assyria", player=0).play("Leader")
    dice.script([1, 2, 3], [4])
    s.expand("Middle Tigris")
    assert s.battles() == [([1, 2, 3], [4], "loss")]


def test_weaponry_adds_one_to_every_attack(dice: Dice) -> None:
    """Greater Event "Weaponry": "The Active Empire adds +1 to each of its die
    rolls this turn." """
    s = Scenario(epoch=2).armies(1, "Middle Tigris", "Lower Tigris")
    s.hand(0, "Weaponry").start("Assyria", player=0).play("Weaponry")
    dice.script([2, 3], [4], [1, 1], [2])
    s.expand("Middle Tigris")
    assert s.battles() == [([2, 3], [4], "tie")]
    s.expand("Middle Tigris")  # the tie emptied it
    s.expand("Lower Tigris")
    assert s.battles() == [([1, 1], [2], "tie")]


MINORS = [
    # card, epoch, active empire elsewhere, start, strength, capital, fleets
    ("Hittites", 1, "Shang Dynasty", "Eastern Anatolia", 3, True, []),
    ("Phonecia", 2, "Chou Dynasty", "Levant", 3, True,
     ["Western Mediterranean", "Eastern Mediterranean"]),
    ("Mayans", 3, "Romans", "Central America", 2, True, []),
    # The table prints the Phoenicians' line for the Anglo-Saxons; cards.yaml
    # repairs the start land to Albion and invents no fleet (strength 3, no capital kept).
    ("Anglo-Saxons", 4, "Arabs", "Albion", 3, False, []),
    ("Fujiwara", 5, "Franks", "Hokaido", 3, True, ["Sea of Japan"]),
    ("Safavids", 6, "Ming Dynasty", "Persian Salt Desert", 3, True, []),
    ("Japan", 7, "Netherlands", "Honshu", 5, True, ["Sea of Japan"]),
]


@pytest.mark.parametrize(("card", "epoch", "active", "start", "strength", "capital", "fleets"),
                         MINORS, ids=[m[0] for m in MINORS])
def test_minor_empire_placement(
    card: str, epoch: int, active: str, start: str, strength: int, capital: bool, fleets: list[str]
) -> None:
    """Greater Events, Minor Empires: "Resolve this card before placing your first
    army." The Minor Empire gets its strength, capital and fleets and starts in its
    Start Land like an empire (Chapter V, steps 1-4: an army already there is
    removed, with its fort; monuments remain); it is played, then the Active
    Empire takes its turn."""
    s = Scenario(epoch=epoch).army(start, owner=1).fort(start).monument(start)
    s.hand(0, card).start(active, player=0).play(card)
    minor = RULES.card(card)
    assert minor.epochs == frozenset({epoch})
    assert s.turn.step == "minor" and s.turn.force.kind == "minor"
    key = f"minor:{minor.id}"
    pieces = s.turn.force.piece_epoch
    assert pieces in RULES.far(epoch)
    assert s.stack(start) == [[0, pieces, key]]
    assert start not in s.state.forts and start in s.state.monuments
    assert (s.state.structures.get(start) == "capital") is capital
    assert s.pool == strength - 1
    assert sorted(s.turn.force.fleets) == sorted(fleets)
    # The active empire has not been set up yet.
    emp_start = RULES.empires[s.turn.empire].starts[0]
    assert s.holder(emp_start) is None
    s.done()
    assert s.turn.step == "expand" and s.turn.force.kind == "empire"
    assert s.holder(emp_start) == 0 and s.holder(start) == 0


def test_minor_empire_expands_and_is_not_helped_by_the_other_card(dice: Dice) -> None:
    """Chapter IV, Greater Events: "A Minor Empire cannot be affected by the other
    Event Card played on this turn. (e.g. you cannot have a Minor Empire with a
    Leader)." The Hittites attack with two dice although a Leader was played; the
    Active Empire (Sumeria) then has its three dice. "The Minor Empire is not
    scored until the Active Empire is finished at the end of your turn": both
    score together then."""
    s = Scenario(epoch=1).army("Western Anatolia", owner=1).army("Middle Tigris", owner=2)
    s.hand(0, "Leader", "Hittites").start("Sumeria", player=0)
    s.play("Leader").play("Hittites")
    dice.script([6, 1], [2])
    s.expand("Western Anatolia")
    assert s.battles() == [([6, 1], [2], "win")]
    s.expand("Levant")
    assert s.pool == 0
    s.done()
    assert s.holder("Lower Tigris") == 0
    dice.script([1, 1, 2], [3])
    s.expand("Middle Tigris")
    assert s.battles() == [([1, 1, 2], [3], "loss")]
    s.end_turn()
    breakdown = only(s.of_type("scored"))["breakdown"]
    assert breakdown["capitals"] == ["Eastern Anatolia", "Lower Tigris"]
    assert breakdown["areas"]["Middle East"] == {"level": "dominance", "lands": 4, "points": 4}
    # Middle East dominance (2x2), two capitals (2x2), no monument (Levant is the
    # only resource and the Hittites are not the Active Empire).
    assert only(s.of_type("scored"))["points"] == 8
    assert s.state.monuments == []


# -- Lesser Events: Kingdoms, Migrants ----------------------------------------------

KINGDOMS = [
    ("Kingdom: Cannanites", 1, "Sumeria", "Palestine", 7),
    ("Kingdom: Etruscans", 2, "Assyria", "Northern Apennines", 7),
    ("Kingdom: Kush", 3, "Celts", "Upper Nile", 7),
    ("Kingdom: Tiahuanaco", 4, "Guptas", "Southern Andes", 1),
    ("Kingdom: Mali", 5, "Franks", "Gold Coast", 1),
    ("Kingdom: Thai", 6, "Ming Dynasty", "Malayan Peninsula", 1),
    ("Kingdom: Zimbabwe", 7, "Russia", "East Africa", 1),
]


@pytest.mark.parametrize(("card", "epoch", "active", "land", "piece"), KINGDOMS,
                         ids=[k[0] for k in KINGDOMS])
def test_kingdom(card: str, epoch: int, active: str, land: str, piece: int) -> None:
    """Lesser Events, Kingdoms: "Place one army (from Epoch VII / Epoch I) and a
    city in <land>. Any army (and fort) already there is destroyed." (A monument
    is not an army or fort: it stays.)"""
    s = Scenario(epoch=epoch).army(land, owner=1).fort(land).monument(land)
    s.hand(0, card).start(active, player=0).play(card)
    kid = RULES.card(card).id
    assert RULES.card(card).epochs == frozenset({epoch})
    assert s.stack(land) == [[0, piece, f"kingdom:{kid}"]]
    assert s.state.structures[land] == "city"
    assert land not in s.state.forts and land in s.state.monuments


MIGRANTS = [
    ("Migrants: Australia", 2, "Australia", 6),  # "any Epoch (except VII)"
    ("Migrants: North America", 4, "North America", 1),
    ("Migrants: Africa", 3, "Africa", 1),
]


@pytest.mark.parametrize(("card", "epoch", "area", "piece"), MIGRANTS, ids=[m[0] for m in MIGRANTS])
def test_migrants(card: str, epoch: int, area: str, piece: int) -> None:
    """Lesser Events, Migrants: "Place two armies ... in any two Lands in <area>.
    These armies must occupy vacant Lands. They may not build monuments or
    attack." """
    lands = RULES.map.lands_in_area(area)
    s = Scenario(epoch=epoch).army(lands[0], owner=1)
    active = RULES.epochs[epoch][0].name
    s.hand(0, card).start(active, player=0).play(card)
    assert s.turn.step == "card"
    s.illegal(Choose(0, lands[0]), "bad_target")  # occupied
    s.choose(lands[1])
    assert s.turn.step == "card"
    s.choose(lands[2])
    kid = RULES.card(card).id
    assert s.stack(lands[1]) == [[0, piece, f"migrants:{kid}"]]
    assert s.stack(lands[2]) == [[0, piece, f"migrants:{kid}"]]
    assert s.stack(lands[0])[0][0] == 1
    # They are not the Active Empire: not a base for expansion.
    assert s.turn.step == "expand"
    s.illegal(Expand(0, lands[0]), "not_adjacent")


# -- Lesser Events: rebels and invaders ---------------------------------------------


def test_civil_war(dice: Dice) -> None:
    """Lesser Event "Civil War": "Place three armies from a far-off Epoch in three
    different Lands of any one enemy Empire. These armies attack the existing army
    in that Land without any Difficult Terrain penalties (fort bonuses still apply
    for the defender). If victorious, these Lands fall under your control." """
    persia = "2:Persia"
    s = Scenario(epoch=3)
    for land in ("Persian Plateau", "Zagros", "Middle Tigris", "Lower Tigris"):
        s.army(land, owner=1, epoch=2, force=persia)
    s.fort("Persian Plateau")
    s.army("Upper Tigris", owner=1, epoch=1, force="1:Babylonia").army("Levant", owner=2)
    s.hand(0, "Civil War").start("Celts", player=0).play("Civil War")
    s.choose("Persian Plateau")
    s.illegal(Choose(0, "Upper Tigris"), "bad_target")  # another of player 1's empires
    s.illegal(Choose(0, "Levant"), "bad_target")  # another player
    s.choose("Zagros")
    dice.script([6, 1], [5], [3, 2], [1], [2, 2], [3])
    s.choose("Middle Tigris")
    # Mountains give no extra die; the fort's +1 does count.
    assert s.battles() == [([6, 1], [5], "tie"), ([3, 2], [1], "win"), ([2, 2], [3], "loss")]
    assert s.holder("Persian Plateau") == 1 and "Persian Plateau" not in s.state.forts
    assert s.stack("Zagros") == [[0, 7, "civil_war:civil-war"]]
    assert s.holder("Middle Tigris") == 1
    assert s.turn.step == "expand"  # nothing else to play


def test_barbarians_raid_from_a_barren_land(dice: Dice) -> None:
    """Lesser Event "Barbarians": "Place an army from a far-off Epoch in a Barren
    Land and attack out of this barren Land into an occupied enemy Land. If
    successful, leave the Barbarian army in the conquered Land, place another
    army in the Barren Land and attack another occupied Land. Continue this
    process until a Barbarian army is defeated or until all adjacent
    enemy-occupied Lands have been conquered." """
    s = Scenario(epoch=2).armies(1, "Palestine", "Levant").army("Lower Tigris", owner=2)
    s.hand(0, "Barbarians").start("Chou Dynasty", player=0).play("Barbarians")
    assert "Arabian Desert" in [a.target for a in s.legal() if isinstance(a, Choose)]
    s.illegal(Choose(0, "Palestine"), "bad_target")  # first a barren land
    s.choose("Arabian Desert")
    dice.script([4, 1], [3])
    s.choose("Palestine")
    assert s.stack("Palestine") == [[0, 7, "barbarians:barbarians"]]
    s.illegal(Done(0), "must_continue")
    # Levant is mountainous: two defender dice. Then Lower Tigris is the only
    # target left and the raid goes on by itself until a barbarian falls.
    dice.script([6, 6], [1, 2], [1, 1], [5])
    s.choose("Levant")
    assert s.battles() == [([6, 6], [1, 2], "win"), ([1, 1], [5], "loss")]
    assert s.holder("Levant") == 0 and s.holder("Lower Tigris") == 2
    assert "Arabian Desert" not in s.state.armies
    assert s.turn.step == "expand"


def test_barbarians_are_not_the_active_empires_expert_troops(dice: Dice) -> None:
    """Lesser Events: Expert Troops help "The Active Empire's armies"; the
    barbarians are not its armies, so a mountain land they attack from a barren
    land still defends with two dice (Chapter V, Difficult Terrain)."""
    s = Scenario(epoch=2).army("Hindu Kush", owner=1)
    s.hand(0, "Expert Troops: Mountains", "Barbarians").start("Chou Dynasty", player=0)
    s.play("Expert Troops: Mountains").play("Barbarians")
    dice.script([5, 1], [4, 5])
    s.choose("Tibet")  # Hindu Kush is its only enemy neighbour: attacked at once
    assert s.battles() == [([5, 1], [4, 5], "tie")]


def test_jewish_revolt(dice: Dice) -> None:
    """Lesser Event "Jewish Revolt": "One army from a far-off Epoch appears in
    Palestine and attacks any army there, using three dice. This army attacks
    without any Difficult Terrain penalties (fort bonuses still apply for the
    defender). If victorious, Palestine falls under your control." """
    s = Scenario(epoch=2).army("Palestine", owner=1).fort("Palestine")
    s.hand(0, "Jewish Revolt").start("Assyria", player=0)
    s2 = Scenario(epoch=2).army("Palestine", owner=1)
    s2.hand(0, "Jewish Revolt").start("Assyria", player=0)
    dice.script([2, 1, 3], [2], [6, 1, 1], [5])
    s.play("Jewish Revolt")
    # Round 1: 3 vs 2+1 is a tie: the fort falls first (the rebel is lost too).
    assert s.battles() == [([2, 1, 3], [2], "tie")]
    assert s.holder("Palestine") == 1 and "Palestine" not in s.state.forts
    s2.play("Jewish Revolt")
    assert s2.battles() == [([6, 1, 1], [5], "win")]
    assert s2.stack("Palestine") == [[0, 7, "revolt:jewish-revolt"]]


def test_crusade(dice: Dice) -> None:
    """Lesser Event "Crusade": "Place three armies from Epoch I in the Eastern
    Mediterranean Sea space. These armies may expand from the sea using normal
    expansion rules. They attack with +1 to their die roll. If Palestine is
    captured by the crusaders, place a fort and a city in the Land." """
    s = Scenario(epoch=5).army("Palestine", owner=1).army("Levant", owner=2)
    s.hand(0, "Crusade").start("Franks", player=0).play("Crusade")
    assert s.turn.step == "crusade" and s.pool == 3
    dice.script([3, 4], [2, 2, 4], [2, 1], [1, 2])
    s.expand("Palestine")  # from the sea: three dice; 4+1 beats 4
    assert s.battles() == [([3, 4], [2, 2, 4], "win")]
    assert s.stack("Palestine") == [[0, 1, "crusade:crusade"]]
    assert s.state.structures["Palestine"] == "city" and "Palestine" in s.state.forts
    s.expand("Levant")  # overland from Palestine: mountains, two dice; 2+1 beats 2
    assert s.battles() == [([2, 1], [1, 2], "win")]
    assert s.pool == 1
    s.done()
    assert s.turn.step == "expand" and s.holder("Northern Gaul") == 0
    assert s.holder("Palestine") == 0 and s.holder("Levant") == 0


# -- Lesser Events: catastrophes ----------------------------------------------------


def _area_rolls(
    areas: Sequence[str], rolls_by_land: Mapping[str, int], occupied: Container[str]
) -> list[list[int]]:
    """The single-die rolls of every occupied land of ``areas``, in the map's order."""
    script: list[list[int]] = []
    for area in areas:
        for land in RULES.map.lands_in_area(area):
            if land in occupied:
                script.append([rolls_by_land[land]])
    return script


def test_black_death(dice: Dice) -> None:
    """Lesser Event "Black Death" (Epoch VI): "Choose two adjacent Areas. Every
    army in a Land in those Areas must roll one die. If the army rolls a 1, it is
    eliminated (along with any fort)." """
    rolls = {"Levant": 1, "Palestine": 2, "Nile Delta": 1, "Libya": 6}
    s = Scenario(epoch=6).armies(1, "Levant", "Palestine").armies(2, "Nile Delta", "Libya")
    s.army("Morea", owner=2).fort("Levant", "Nile Delta")
    s.hand(0, "Black Death").start("Ming Dynasty", player=0).play("Black Death")
    s.choose("Middle East")
    s.illegal(Choose(0, "Australia"), "bad_target")  # not adjacent
    dice.script(*_area_rolls(["Middle East", "North Africa"], rolls, rolls))
    s.choose("North Africa")
    assert s.holder("Levant") is None and s.holder("Nile Delta") is None
    assert s.holder("Palestine") == 1 and s.holder("Libya") == 2 and s.holder("Morea") == 2
    assert s.state.forts == []


def test_famine(dice: Dice) -> None:
    """Lesser Event "Famine": "Choose an Area. All armies in Lands in that Area
    must roll a die. A roll of 1 means that army (and any fort) is destroyed." """
    rolls = {"Levant": 2, "Palestine": 1}
    s = Scenario(epoch=2).armies(1, "Levant", "Palestine").army("Nile Delta", owner=2)
    s.fort("Palestine")
    s.hand(0, "Famine").start("Chou Dynasty", player=0).play("Famine")
    dice.script(*_area_rolls(["Middle East"], rolls, rolls))
    s.choose("Middle East")
    assert s.holder("Levant") == 1 and s.holder("Palestine") is None
    assert s.holder("Nile Delta") == 2 and s.state.forts == []


def test_plague_spreads_until_an_army_survives(dice: Dice) -> None:
    """Lesser Event "Plague": "Choose an occupied Land. The army in that Land must
    roll 4 dice. If a 1 is rolled on any die, the army (and any fort) in that Land
    is destroyed. If the army dies, the Plague spreads to an adjacent Land of your
    choice, where the army therein must roll 3 dice. ... The Plague continues ...
    until an army survives it or until it can spread no further." """
    s = Scenario(epoch=2).armies(1, "Middle Tigris", "Zagros", "Levant").army("Lower Tigris", owner=2)
    s.fort("Middle Tigris")
    s.hand(0, "Plague").start("Assyria", player=0).play("Plague")
    dice.script([1, 3, 4, 5])
    s.choose("Middle Tigris")
    assert s.holder("Middle Tigris") is None and s.state.forts == []
    options = {a.target for a in s.legal() if isinstance(a, Choose)}
    assert options == {"Lower Tigris", "Zagros", "Levant"}
    assert Done(0) not in s.legal()
    # Lower Tigris dies; from there only Zagros is occupied: it follows by itself.
    dice.script([2, 1, 6], [2, 2, 2])
    s.choose("Lower Tigris")
    assert s.holder("Lower Tigris") is None and s.holder("Zagros") == 1
    assert s.holder("Levant") == 1
    assert s.turn.step == "expand"


def test_pestilence(dice: Dice) -> None:
    """Lesser Event "Pestilence": "Choose a Land. Any army in that Land must roll
    three dice. If a 1 is rolled on any die, the army (and any fort) in that Land
    is destroyed. All adjacent Lands to the first must roll two dice." """
    s = Scenario(epoch=2).armies(1, "Middle Tigris", "Zagros", "Levant", "Palestine")
    s.army("Lower Tigris", owner=2).fort("Zagros")
    s.hand(0, "Pestilence").start("Chou Dynasty", player=0).play("Pestilence")
    neighbours = sorted(n for n in RULES.map.neighbours("Middle Tigris")
                        if n in ("Zagros", "Levant", "Lower Tigris"))
    rolls = {"Zagros": [1, 5], "Levant": [3, 3], "Lower Tigris": [6, 1]}
    dice.script([2, 3, 4], *(rolls[n] for n in neighbours))
    s.choose("Middle Tigris")
    assert s.holder("Middle Tigris") == 1
    assert s.holder("Zagros") is None and s.state.forts == []
    assert s.holder("Levant") == 1 and s.holder("Lower Tigris") is None
    assert s.holder("Palestine") == 1  # not adjacent: no roll


def test_disaster() -> None:
    """Lesser Event "Disaster": "Choose up to two Lands that contain monuments.
    Destroy the monuments in those Lands. Any city or fort in those Lands is also
    destroyed. Any capital in those Lands is reduced to a city." """
    s = Scenario(epoch=2).army("Levant", owner=1).capital("Levant").monument("Levant", "Morea")
    s.fort("Levant").city("Morea").monument("Nile Delta")
    s.hand(0, "Disaster", "Disaster").start("Chou Dynasty", player=0).play("Disaster")
    s.choose("Levant", "Morea")  # two lands: resolved at once
    assert s.state.monuments == ["Nile Delta"]
    assert s.state.structures == {"Levant": "city", "Wei River": "capital"}
    assert s.state.forts == [] and s.holder("Levant") == 1
    assert s.turn.step == "expand"  # the second Disaster may not be played


def test_disaster_one_land_is_enough() -> None:
    """Lesser Event "Disaster": "up to two" lands: one, then done."""
    s = Scenario(epoch=2).monument("Levant", "Morea").hand(0, "Disaster", "Weaponry")
    s.start("Chou Dynasty", player=0).play("Disaster").choose("Morea")
    assert s.turn.step == "card"
    s.done()
    assert s.state.monuments == ["Levant"] and s.turn.step == "events"


# -- Lesser Events: coins, forts, fleets --------------------------------------------


def test_population_explosion_two_coins() -> None:
    """Lesser Event "Population Explosion": "The Active Empire receives two coins
    at the start of its turn." """
    s = Scenario(epoch=2).hand(0, "Population Explosion").start("Assyria", player=0)
    s.play("Population Explosion")
    assert s.turn.coins == 2


@pytest.mark.parametrize(
    ("empire", "coins"),
    [("Aryans", 1), ("Sumeria", 2), ("Egypt", 3)],
)
def test_civil_service(empire: str, coins: int) -> None:
    """Lesser Event "Civil Service": "The Active Empire receives one coin ... If
    the Empire has a capital, it receives a bonus coin. If the Empire has
    navigation, it receives a bonus coin." Aryans: neither; Sumeria: capital;
    Egypt: capital and fleets."""
    s = Scenario(epoch=1).hand(0, "Civil Service").start(empire, player=0).play("Civil Service")
    assert s.turn.coins == coins


def test_engineering_two_free_forts() -> None:
    """Lesser Event "Engineering": "If the Active Empire has a capital, add two
    forts to its army pool." They cost no army."""
    s = Scenario(epoch=2).hand(0, "Engineering").start("Assyria", player=0).play("Engineering")
    assert s.turn.free_forts == 2
    pool = s.pool
    s.expand("Middle Tigris")
    s.build_fort("Upper Tigris").build_fort("Middle Tigris")
    assert s.state.forts == ["Middle Tigris", "Upper Tigris"]
    assert s.pool == pool - 1 and s.turn.free_forts == 0


def test_engineering_needs_a_capital() -> None:
    """Lesser Event "Engineering": only "If the Active Empire has a capital" -
    the Scytians have none."""
    s = Scenario(epoch=2).hand(0, "Engineering", "Weaponry").start("Scytians", player=0)
    s.illegal(PlayCard(0, "engineering"), "card_unplayable")


def test_astronomy_extra_fleet_in_a_sea() -> None:
    """Lesser Event "Astronomy": "The Active Empire may place a fleet in any sea
    (not ocean) at the start of a turn. This is in addition to any fleets it
    normally receives." The Scytians in Caucasus sail the Black Sea."""
    s = Scenario(epoch=2).hand(0, "Astronomy").start("Scytians", player=0).play("Astronomy")
    s.illegal(Choose(0, "Atlantic Ocean"), "bad_target")
    s.choose("Black Sea")
    assert s.turn.force.fleets == ["Black Sea"]
    s.expand("Danubia")  # across the Black Sea
    assert s.holder("Danubia") == 0


def test_allies_coins_are_restricted(dice: Dice) -> None:
    """Lesser Event "Allies": "The Active Empire receives two coins ... any armies
    bought with the coins may only be used to expand into unoccupied Lands." """
    s = Scenario(epoch=2).army("Middle Tigris", owner=1)
    s.hand(0, "Allies").start("Assyria", player=0).play("Allies")
    assert s.turn.allies_coins == 2
    dice.script([1, 1], [4])
    s.expand("Middle Tigris")
    s.buy_back()
    assert s.turn.force.restricted == 1


# -- Lesser Events: combat cards (details in test_classic_combat) -------------------


@pytest.mark.parametrize(
    ("card", "flag", "value"),
    [
        ("Siegecraft", "siegecraft", True),
        ("Elite Troops", "elite", True),
        ("Naval Power", "naval_power", True),
        ("Jihad", "jihad_losses", 0),
        ("Expert Troops: Straits", "expert", ["strait"]),
        ("Expert Troops: Mountains", "expert", ["mountain"]),
        ("Expert Troops: Forests", "expert", ["forest"]),
    ],
)
def test_combat_card_lasts_the_turn(card: str, flag: str, value: object) -> None:
    """Lesser Events Siegecraft, Elite Troops, Naval Power, Jihad, Expert Troops
    work during the Active Empire's turn (their dice: test_classic_combat)."""
    s = Scenario(epoch=3).hand(0, card).start("Romans", player=0).play(card)
    assert getattr(s.turn, flag) == value


def test_treachery_names_an_enemy_land() -> None:
    """Lesser Event "Treachery": "name a Land controlled by an enemy ... If the
    Land is not attacked this turn, then the card is wasted." """
    s = Scenario(epoch=2).army("Levant", owner=1).army("Zagros", owner=0, epoch=1)
    s.hand(0, "Treachery").start("Assyria", player=0).play("Treachery")
    s.illegal(Choose(0, "Zagros"), "bad_target")  # your own
    s.choose("Levant")
    assert s.turn.treachery == "Levant"
    s.end_turn()
    assert "treachery" not in s.state.hands[0]


def test_crusade_needs_epoch_one_pieces(dice: Dice) -> None:
    """The Crusade's armies are epoch I pieces; with all five of them on the board
    the card would bring no armies, so it is refused with a reason and nothing changes."""
    s = Scenario(epoch=5).army("Palestine", owner=1)
    s.armies(0, "Libya", "Nile Delta", "Thebaid", "Upper Nile", "Crete", epoch=1)
    s.hand(0, "Crusade", "Leader").start("Franks", player=0)
    assert PlayCard(0, "crusade") not in s.legal()
    error = s.illegal(PlayCard(0, "crusade"), "card_unplayable")
    assert "epoch I pieces" in error.message
    assert "crusade" in s.state.hands[0]


def test_listing_legal_actions_leaves_the_state_alone(dice: Dice) -> None:
    """Asking which cards are playable (Barbarians looks for barren lands next to
    enemies) must not write to the state."""
    s = Scenario(epoch=3).army("Libya", owner=1).hand(0, "Barbarians").start("Romans", player=0)
    before = s.state.to_json()
    assert any(isinstance(a, PlayCard) and a.card == "barbarians" for a in s.legal())
    assert s.state.to_json() == before
