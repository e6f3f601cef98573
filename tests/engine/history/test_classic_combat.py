"""Combat and expansion of the classic rules: every modifier, checked with scripted dice.

Passages cited are from Chapter IV (Event Cards, Coins), Chapter V (Expansion,
Combat and Building), the event card tables and the Optional Rules.
"""

from __future__ import annotations

import pytest

from engine.history.actions import BuildFort, BuyBack, Expand
from tests.conftest import Dice
from tests.support.history_builder import Scenario, only

# -- standard combat and defender bonuses -----------------------------------------


def test_standard_combat_two_dice_against_one(dice: Dice) -> None:
    """Chapter V, Combat: "You (the Attacker) roll two (2) dice and keep the
    higher number. The defender rolls one (1) die. The higher number wins and the
    defeated army is removed"; a won land is taken by the attacker."""
    s = Scenario(epoch=2).army("Middle Tigris", owner=1).start("Assyria", player=0)
    dice.script([2, 5], [4])
    s.expand("Middle Tigris")
    assert s.battles() == [([2, 5], [4], "win")]
    assert s.stack("Middle Tigris") == [[0, 2, s.force]]
    assert s.turn.lost == 0


def test_tie_removes_both_armies(dice: Dice) -> None:
    """Chapter V, Combat: "In the case of a tie, both armies are removed." """
    s = Scenario(epoch=2).army("Middle Tigris", owner=1).start("Assyria", player=0)
    pool = s.pool
    dice.script([4, 3], [4])
    s.expand("Middle Tigris")
    assert s.battles() == [([4, 3], [4], "tie")]
    assert s.holder("Middle Tigris") is None
    assert s.pool == pool - 1 and s.turn.lost == 1


@pytest.mark.parametrize(
    ("empire", "epoch", "target", "terrain"),
    [
        ("Scytians", 2, "Eastern Anatolia", "mountain"),  # Caucasus -> Eastern Anatolia
        ("Franks", 5, "Central Europe", "forest"),  # Northern Gaul -> Central Europe
    ],
)
def test_difficult_terrain_in_defenders_land_gives_two_dice(
    dice: Dice, empire: str, epoch: int, target: str, terrain: str
) -> None:
    """Chapter V, Defender Bonuses: "Difficult Terrain are the following:
    forests, mountains, straits, and the Great Wall of China. If the Difficult
    Terrain is in the defender's Land, then the defender gets to roll two dice,
    keeping the higher roll." ({terrain})"""
    s = Scenario(epoch=epoch).army(target, owner=1).start(empire, player=0)
    dice.script([6, 5], [6, 2])
    s.expand(target)
    assert s.battles() == [([6, 5], [6, 2], "tie")]
    assert s.holder(target) is None


def test_difficult_terrain_in_attackers_land_gives_no_bonus(dice: Dice) -> None:
    """Chapter V, Defender Bonuses: "If the Difficult Terrain is on the
    attacker's Land, then there is no defender bonus." Romans attack from the
    mountains of Southern Apennines into the plain of Northern Apennines."""
    s = Scenario(epoch=3).army("Northern Apennines", owner=1).start("Romans", player=0)
    dice.script([1, 2], [1])
    s.expand("Northern Apennines")
    assert s.battles() == [([1, 2], [1], "win")]


def test_strait_gives_two_dice_even_between_plains(dice: Dice) -> None:
    """Chapter V, Defender Bonuses: "Anytime you attack over a strait, the
    defender gets to roll 2 dice. A strait is not on either side of the land."
    The Byzantines attack from the Balkans over the strait into Western Anatolia,
    a plain."""
    s = Scenario(epoch=4).army("Western Anatolia", owner=1)
    s.start("Byzantines", player=0)
    # Western Anatolia also touches the Byzantines' fleets (3 dice): the strait
    # route (2 dice) is the kinder one and is used.
    dice.script([3, 3], [1, 3])
    s.expand("Western Anatolia")
    assert s.battles() == [([3, 3], [1, 3], "tie")]


def test_great_wall_gives_two_dice(dice: Dice) -> None:
    """Chapter V, Defender Bonuses: the Great Wall of China is difficult terrain.
    Hsiung-Nu attack from Mongolia over the Wall into Yellow River (a plain)."""
    s = Scenario(epoch=3).army("Yellow River", owner=1).start("Hsiung-Nu", player=0)
    dice.script([4, 1], [2, 5])
    s.expand("Yellow River")
    assert s.battles() == [([4, 1], [2, 5], "loss")]
    assert s.holder("Yellow River") == 1


def test_great_wall_helps_only_the_defender_inside_it(dice: Dice) -> None:
    """Chapter V, Defender Bonuses: difficult terrain counts "in the defender's
    Land"; "if the Difficult Terrain is on the attacker's Land, then there is no
    defender bonus". The Wall protects China: Chou Dynasty attacking out of Wei
    River into Mongolia (a plain) faces one die."""
    s = Scenario(epoch=2).army("Mongolia", owner=1).start("Chou Dynasty", player=0)
    assert s.targets()["Mongolia"] == 1
    dice.script([4, 1], [2])
    s.expand("Mongolia")
    assert s.battles() == [([4, 1], [2], "win")]
    assert s.holder("Mongolia") == 0


def test_sea_landing_gives_three_dice(dice: Dice) -> None:
    """Chapter V, Attacking from the Sea: "When you land an army directly from a
    fleet (as opposed to an adjacent Land), the defender rolls three (3) dice
    when defending, keeping the highest." Greeks land from Morea in Sicily."""
    s = Scenario(epoch=2).army("Sicily", owner=1).start("Greek City States", player=0)
    dice.script([6, 2], [5, 5, 5])
    s.expand("Sicily")
    assert s.battles() == [([6, 2], [5, 5, 5], "win")]
    assert s.holder("Sicily") == 0
    assert only(s.of_type("attack"))["by_sea"] is True


# -- forts -------------------------------------------------------------------------


def test_fort_adds_one_to_the_kept_die(dice: Dice) -> None:
    """Chapter V, Attacking an Army in a Fort: "A defender in a fort adds +1 to
    the die roll he or she keeps. Therefore a rolled 5 becomes a 6." 6 vs 5+1
    ties: the fort is the first piece lost, the attacker dies."""
    s = Scenario(epoch=2).army("Middle Tigris", owner=1).fort("Middle Tigris")
    s.start("Assyria", player=0)
    dice.script([6, 1], [5])
    s.expand("Middle Tigris")
    assert s.battles() == [([6, 1], [5], "tie")]
    assert "Middle Tigris" not in s.state.forts
    assert s.holder("Middle Tigris") == 1
    assert s.turn.lost == 1


def test_fort_lost_first_then_another_round(dice: Dice) -> None:
    """Chapter V, Attacking an Army in a Fort: "if the defender loses (or
    ties), the first piece removed is the fort, not the army in the fort. If the
    attacking army is still in the Land, there is another round of combat ... If
    the defender is defeated again, the defending army is removed." The same
    army fights on: two rounds, one Expand."""
    s = Scenario(epoch=2).army("Middle Tigris", owner=1).fort("Middle Tigris")
    s.start("Assyria", player=0)
    pool = s.pool
    dice.script([6, 1], [3], [4, 4], [2])
    s.expand("Middle Tigris")
    assert s.battles() == [([6, 1], [3], "win"), ([4, 4], [2], "win")]
    assert s.holder("Middle Tigris") == 0 and "Middle Tigris" not in s.state.forts
    assert s.pool == pool - 1


def test_fort_lost_then_attacker_loses_second_round(dice: Dice) -> None:
    """Chapter V, Attacking an Army in a Fort: after the fort falls, the second
    round is fought without the +1; a loss there removes the attacker and the
    defender keeps the land (without its fort)."""
    s = Scenario(epoch=2).army("Middle Tigris", owner=1).fort("Middle Tigris")
    s.start("Assyria", player=0)
    dice.script([6, 1], [3], [2, 3], [4])
    s.expand("Middle Tigris")
    assert [b[2] for b in s.battles()] == ["win", "loss"]
    assert s.holder("Middle Tigris") == 1 and "Middle Tigris" not in s.state.forts
    assert s.turn.lost == 1


def test_build_fort_for_an_army_and_not_in_an_empty_land() -> None:
    """Chapter V, Forts: "you may exchange one of your unplaced armies (from the
    army pool) for a fort. This fort can be placed in any Land containing an army
    of your Active Empire (not by itself in an empty Land)." "A Land may not
    contain more than one fort." "You may build a fort in a Land containing a
    capital or a city." """
    s = Scenario(epoch=2).start("Assyria", player=0)
    pool = s.pool
    s.build_fort("Upper Tigris", pay="army")
    assert "Upper Tigris" in s.state.forts and s.pool == pool - 1
    s.illegal(BuildFort(0, "Upper Tigris", "army"), "has_fort")
    s.illegal(BuildFort(0, "Middle Tigris", "army"), "not_yours")


# -- sack and pillage ----------------------------------------------------------------


def test_conquest_turns_a_capital_into_a_city(dice: Dice) -> None:
    """Chapter V, Sack and Pillage Capitals: "Whenever your army takes over a
    Land already containing a capital, the capital is turned over and becomes a
    city." Monuments remain."""
    s = Scenario(epoch=2).army("Middle Tigris", owner=1).capital("Middle Tigris")
    s.monument("Middle Tigris").start("Assyria", player=0)
    dice.script([5, 1], [2])
    s.expand("Middle Tigris")
    assert s.state.structures["Middle Tigris"] == "city"
    assert s.state.monuments == ["Middle Tigris"]


def test_conquest_removes_a_city(dice: Dice) -> None:
    """Chapter V, Sack and Pillage Capitals: "Whenever your army takes over a
    Land already containing a city, the city is sacked and removed from play." """
    s = Scenario(epoch=2).army("Middle Tigris", owner=1).city("Middle Tigris")
    s.start("Assyria", player=0)
    dice.script([5, 1], [2])
    s.expand("Middle Tigris")
    assert "Middle Tigris" not in s.state.structures


def test_tie_leaves_the_capital_standing(dice: Dice) -> None:
    """Chapter V, Sack and Pillage Capitals: "If a Land is left vacant (due to a
    tie in combat die rolls), leave the capitol or city in its current state." """
    s = Scenario(epoch=2).army("Middle Tigris", owner=1).capital("Middle Tigris")
    s.start("Assyria", player=0)
    dice.script([3, 1], [3])
    s.expand("Middle Tigris")
    assert s.holder("Middle Tigris") is None
    assert s.state.structures["Middle Tigris"] == "capital"


def test_capital_left_by_a_tie_is_turned_over_when_entered(dice: Dice) -> None:
    """Chapter V, Sack and Pillage Capitals: "If a Land is left vacant (due to a
    tie ...), leave the capitol or city in its current state. Only turn over (or
    remove) the piece when an invading army successfully enters the Land after a
    battle." The next army walks in and the capital becomes a city."""
    s = Scenario(epoch=2).army("Middle Tigris", owner=1).capital("Middle Tigris")
    s.start("Assyria", player=0)
    dice.script([3, 1], [3])
    s.expand("Middle Tigris")
    assert s.state.structures["Middle Tigris"] == "capital"
    s.expand("Middle Tigris")
    assert s.holder("Middle Tigris") == 0
    assert s.state.structures["Middle Tigris"] == "city"


# -- expansion rules ----------------------------------------------------------------


def test_own_older_army_is_replaced_without_combat(dice: Dice) -> None:
    """Chapter V, Additional Expansion Rules: "If you want to expand into a Land
    containing an army of your color (either from a past Empire or put on the
    board through card play), you may do so without combat. Replace the other
    figure with one from your army pool ... The previous army is removed." """
    s = Scenario(epoch=2).army("Middle Tigris", owner=0, epoch=1).fort("Middle Tigris")
    s.start("Assyria", player=0)
    dice.script()
    s.expand("Middle Tigris")
    assert s.stack("Middle Tigris") == [[0, 2, s.force]]
    assert "Middle Tigris" in s.state.forts  # the fort was never the enemy's
    assert s.of_type("battle") == []


def test_barren_lands_are_refused() -> None:
    """Chapter V, Additional Expansion Rules: "Armies may not expand into or pass
    through Barren Lands." Hsiung-Nu in Mongolia border the Gobi."""
    s = Scenario(epoch=3).start("Hsiung-Nu", player=0)
    assert "Gobi" not in s.targets()
    s.illegal(Expand(0, "Gobi"), "barren")
    # Nor through it: Takla Makan lies beyond the Gobi, Tibet beyond both.
    s.illegal(Expand(0, "Hindu Kush"), "not_adjacent")


def test_one_army_per_land() -> None:
    """Chapter V, Additional Expansion Rules: "A Land may contain only one
    army." The active empire cannot put a second army in its own land."""
    s = Scenario(epoch=2).start("Assyria", player=0)
    s.expand("Middle Tigris")
    s.illegal(Expand(0, "Middle Tigris"), "already_there")
    assert "Middle Tigris" not in s.targets()


def test_expansion_needs_adjacency() -> None:
    """Chapter V, Expansion: "You may expand your armies into any Land that is
    adjacent to your Start Land ... then ... adjacent to any Land containing an
    army from the Active Empire." """
    s = Scenario(epoch=2).start("Assyria", player=0)
    s.illegal(Expand(0, "Lower Tigris"), "not_adjacent")
    s.expand("Middle Tigris")
    s.expand("Lower Tigris")
    assert s.holder("Lower Tigris") == 0


def test_pool_runs_out() -> None:
    """Chapter V, step 1: the army pool holds the empire's strength; when it is
    empty no more armies can be placed. (Shang Dynasty: strength 3.)"""
    s = Scenario(epoch=1).start("Shang Dynasty", player=0)
    s.expand("Wei River", "Great Plain of China")
    assert s.pool == 0 and s.targets() == {}
    s.illegal(Expand(0, "Yangtze Kiang"), "no_armies")


# -- attacker bonuses from event cards ---------------------------------------------


def test_leader_three_dice_and_triples_kill_him(dice: Dice) -> None:
    """Greater Event "Leader": "The Active Empire rolls three dice when attacking
    until it rolls triples. Any triples roll kills the leader and returns the
    Empire to attacking with two dice." """
    s = Scenario(epoch=2).armies(1, "Middle Tigris", "Eastern Anatolia", "Levant")
    s.hand(0, "Leader").start("Assyria", player=0).play("Leader")
    dice.script([2, 2, 2], [1])
    s.expand("Middle Tigris")
    assert s.battles() == [([2, 2, 2], [1], "win")]  # the triple still counts
    assert not s.turn.leader
    assert only(s.of_type("leader_killed"))["roll"] == [2, 2, 2]
    dice.script([1, 6], [6, 1])  # two dice again (Eastern Anatolia: mountains)
    s.expand("Eastern Anatolia")
    assert s.battles() == [([1, 6], [6, 1], "tie")]


def test_weaponry_adds_one(dice: Dice) -> None:
    """Greater Event "Weaponry": "The Active Empire adds +1 to each of its die
    rolls this turn." 4+1 beats 4."""
    s = Scenario(epoch=2).army("Middle Tigris", owner=1)
    s.hand(0, "Weaponry").start("Assyria", player=0).play("Weaponry")
    dice.script([4, 1], [4])
    s.expand("Middle Tigris")
    assert s.battles() == [([4, 1], [4], "win")]
    assert only(s.of_type("battle"))["attacker_bonus"] == 1


def test_leader_and_weaponry_together(dice: Dice) -> None:
    """Chapter IV, Greater Events: "Leaders and Weaponry ... may be used together
    for a very strong bonus": three dice, +1."""
    s = Scenario(epoch=2).army("Middle Tigris", owner=1)
    s.hand(0, "Leader", "Weaponry").start("Assyria", player=0).play("Leader").play("Weaponry")
    assert s.turn.step == "expand"
    dice.script([1, 2, 5], [6])
    s.expand("Middle Tigris")
    assert s.battles() == [([1, 2, 5], [6], "tie")]


def test_jihad_three_dice_ties_then_two_dice_ties_then_normal(dice: Dice) -> None:
    """Lesser Event "Jihad": "The Active Empire uses three dice to attack and
    wins all ties until it loses its first army, at which point it attacked using
    two dice, but still wins ties. After losing its second army, the Empire does
    not win ties, and attacks normally." (Zagros and Eastern Anatolia are
    mountains: two defender dice.)"""
    s = Scenario(epoch=2).armies(1, "Middle Tigris", "Zagros", "Eastern Anatolia")
    s.hand(0, "Jihad").start("Assyria", player=0).play("Jihad")
    dice.script([3, 3, 1], [3], [1, 2, 1], [6, 1], [4, 4], [4, 2], [2, 1], [6, 1], [5, 5], [5, 1])
    s.expand("Middle Tigris")
    assert s.battles() == [([3, 3, 1], [3], "win")]  # three dice, tie won
    s.expand("Zagros")
    assert s.battles() == [([1, 2, 1], [6, 1], "loss")]  # first loss
    s.expand("Zagros")
    assert s.battles() == [([4, 4], [4, 2], "win")]  # two dice, tie still won
    s.expand("Eastern Anatolia")
    assert s.battles() == [([2, 1], [6, 1], "loss")]  # second loss
    s.expand("Eastern Anatolia")
    assert s.battles() == [([5, 5], [5, 1], "tie")]  # normal: a tie is a tie
    assert s.holder("Eastern Anatolia") is None


def test_elite_troops_win_ties_until_first_loss(dice: Dice) -> None:
    """Lesser Event "Elite Troops": "The Active Empire's armies win all ties
    until it looses an army in combat." """
    s = Scenario(epoch=2).armies(1, "Middle Tigris", "Lower Tigris")
    s.hand(0, "Elite Troops").start("Assyria", player=0).play("Elite Troops")
    dice.script([4, 2], [4], [1, 1], [2], [3, 3], [3])
    s.expand("Middle Tigris")
    assert s.battles() == [([4, 2], [4], "win")]
    s.expand("Lower Tigris")
    assert s.battles() == [([1, 1], [2], "loss")]
    s.expand("Lower Tigris")
    assert s.battles() == [([3, 3], [3], "tie")]


def test_siegecraft_plus_one_against_capital(dice: Dice) -> None:
    """Lesser Event "Siegecraft": "+1 bonus to die rolls when attacking a Land
    that contains a fort, capital or city." """
    s = Scenario(epoch=3).army("Northern Apennines", owner=1).capital("Northern Apennines")
    s.army("Sicily", owner=1)
    s.hand(0, "Siegecraft").start("Romans", player=0).play("Siegecraft")
    dice.script([3, 2], [3], [3, 3], [2, 3])
    s.expand("Northern Apennines")
    assert s.battles() == [([3, 2], [3], "win")]
    assert only(s.of_type("battle"))["attacker_bonus"] == 1
    s.expand("Sicily")  # nothing to besiege: no bonus, tie (over the strait)
    assert s.battles() == [([3, 3], [2, 3], "tie")]


def test_siegecraft_removes_fort_and_army_together_and_only_plus_one(dice: Dice) -> None:
    """Lesser Event "Siegecraft": "when the attacking army is victorious against
    a Land with a fort, the defender loses both the fort and defending army at
    the same time. A Land with both a fort and a city (or capital) only gains a
    +1 bonus." One round: 4+1 beats 3+1."""
    s = Scenario(epoch=3).army("Northern Apennines", owner=1).fort("Northern Apennines")
    s.city("Northern Apennines")
    s.hand(0, "Siegecraft").start("Romans", player=0).play("Siegecraft")
    dice.script([4, 1], [3])
    s.expand("Northern Apennines")
    assert s.battles() == [([4, 1], [3], "win")]
    assert only(s.of_type("battle"))["attacker_bonus"] == 1
    assert s.holder("Northern Apennines") == 0
    assert "Northern Apennines" not in s.state.forts
    assert "Northern Apennines" not in s.state.structures  # the city is sacked


def test_naval_power_two_dice_from_a_fleet(dice: Dice) -> None:
    """Lesser Event "Naval Power": "Defenders only roll 2 dice defending against
    these naval attackers." """
    s = Scenario(epoch=2).army("Sicily", owner=1)
    s.hand(0, "Naval Power").start("Greek City States", player=0).play("Naval Power")
    dice.script([5, 1], [4, 5])
    s.expand("Sicily")
    assert s.battles() == [([5, 1], [4, 5], "tie")]


@pytest.mark.parametrize(
    ("card", "epoch", "empire", "target"),
    [
        ("Expert Troops: Straits", 4, "Byzantines", "Western Anatolia"),
        ("Expert Troops: Mountains", 2, "Scytians", "Eastern Anatolia"),
        ("Expert Troops: Forests", 5, "Franks", "Central Europe"),
    ],
)
def test_expert_troops_take_away_the_terrain_die(
    dice: Dice, card: str, epoch: int, empire: str, target: str
) -> None:
    """Lesser Events "Expert Troops": "The Active Empire's armies suffer no
    Difficult Terrain penalties when attacking across straits / over mountains /
    through forests. Defenders only roll 1 die when defending against these
    attackers." (A fort still adds +1.)"""
    s = Scenario(epoch=epoch).army(target, owner=1).fort(target)
    s.hand(0, card).start(empire, player=0).play(card)
    dice.script([5, 1], [4], [2, 1], [1])
    s.expand(target)
    assert s.battles() == [([5, 1], [4], "tie")]  # 5 vs 4+1: one die, fort +1
    s.expand(target)
    assert s.battles() == [([2, 1], [1], "win")]


def test_expert_troops_only_for_their_terrain(dice: Dice) -> None:
    """Expert Troops: Forests does not help against mountains."""
    s = Scenario(epoch=2).army("Eastern Anatolia", owner=1)
    s.hand(0, "Expert Troops: Forests").start("Scytians", player=0)
    s.play("Expert Troops: Forests")
    dice.script([5, 1], [4, 2])
    s.expand("Eastern Anatolia")
    assert s.battles() == [([5, 1], [4, 2], "win")]


def test_treachery_wins_without_dice_even_against_a_fort(dice: Dice) -> None:
    """Lesser Event "Treachery": "name a Land controlled by an enemy. During this
    turn, if you attack that Land, you automatically win the attack." """
    s = Scenario(epoch=2).army("Middle Tigris", owner=1).fort("Middle Tigris")
    s.capital("Middle Tigris").army("Eastern Anatolia", owner=1)
    s.hand(0, "Treachery").start("Assyria", player=0)
    s.play("Treachery").choose("Middle Tigris")
    assert s.turn.treachery == "Middle Tigris"
    assert s.turn.step == "expand"  # nothing else to play: the empire is set up
    dice.script()
    s.expand("Middle Tigris")
    assert s.holder("Middle Tigris") == 0
    assert "Middle Tigris" not in s.state.forts
    assert s.state.structures["Middle Tigris"] == "city"
    assert all(b["treachery"] for b in s.of_type("battle"))
    dice.script([1, 1], [2, 3])  # any other land is fought normally
    s.expand("Eastern Anatolia")
    assert s.battles() == [([1, 1], [2, 3], "loss")]


# -- coins --------------------------------------------------------------------------


def test_coin_buys_back_a_lost_army(dice: Dice) -> None:
    """Chapter IV, Coins: "When an army in your Active Empire is lost in combat,
    you may spend a coin to return that defeated army to your army pool." """
    s = Scenario(epoch=2).army("Middle Tigris", owner=1)
    s.hand(0, "Population Explosion").start("Assyria", player=0)
    s.play("Population Explosion")
    assert s.turn.coins == 2
    s.illegal(BuyBack(0), "nothing_lost")  # nothing lost yet
    pool = s.pool
    dice.script([1, 1], [6])
    s.expand("Middle Tigris")
    assert s.pool == pool - 1 and s.turn.lost == 1
    s.buy_back()
    assert s.pool == pool and s.turn.coins == 1 and s.turn.lost == 0
    s.illegal(BuyBack(0), "nothing_lost")


def test_coin_buys_a_fort(dice: Dice) -> None:
    """Chapter IV, Coins: "You may spend a coin to buy a fort for your Active
    Empire." The pool is not touched."""
    s = Scenario(epoch=2).hand(0, "Population Explosion").start("Assyria", player=0)
    s.play("Population Explosion")
    pool = s.pool
    s.build_fort("Upper Tigris", pay="coin")
    assert "Upper Tigris" in s.state.forts
    assert s.pool == pool and s.turn.coins == 1


def test_allies_armies_may_not_attack(dice: Dice) -> None:
    """Lesser Event "Allies": "two coins ... any armies bought with the coins may
    only be used to expand into unoccupied Lands. These armies may not be used to
    attack." Shang (3 armies) loses two battles, buys both back with Allies
    coins, and may then only walk into empty lands."""
    s = Scenario(epoch=1).army("Wei River", owner=1)
    s.hand(0, "Allies").start("Shang Dynasty", player=0).play("Allies")
    assert s.turn.allies_coins == 2 and s.turn.coins == 0
    dice.script([1, 1], [6], [1, 1], [6])
    s.expand("Wei River", "Wei River")
    assert s.pool == 0 and s.turn.lost == 2
    s.buy_back().buy_back()
    assert s.pool == 0 and s.turn.force.restricted == 2
    assert "Wei River" not in s.targets()
    s.illegal(Expand(0, "Wei River"), "allies_cannot_attack")
    s.expand("Great Plain of China")
    assert s.holder("Great Plain of China") == 0 and s.turn.force.restricted == 1


# -- optional rules ----------------------------------------------------------------


def test_multiple_armies_option_stacks_and_extra_casualties(dice: Dice) -> None:
    """Optional Rules, Multiple Armies: "Players may have up to 3 figures in a
    Land. These may be 3 armies or 2 armies and a fort. ... When defending in this
    land you still defend with normal dice. The extra figures just allow extra
    casualties." """
    s = Scenario(epoch=2, options={"multiple_armies": True})
    s.army("Middle Tigris", owner=1).army("Middle Tigris", owner=1)
    s.start("Assyria", player=0)
    s.expand("Upper Tigris", "Upper Tigris")
    assert len(s.stack("Upper Tigris")) == 3
    s.illegal(Expand(0, "Upper Tigris"), "already_there")
    s.illegal(BuildFort(0, "Upper Tigris", "army"), "not_yours")
    # Two defending figures: the attacker must win twice, one die each time.
    dice.script([5, 1], [2], [3, 6], [4])
    s.expand("Middle Tigris")
    assert s.battles() == [([5, 1], [2], "win"), ([3, 6], [4], "win")]
    assert s.stack("Middle Tigris") == [[0, 2, s.force]]
    s.expand("Middle Tigris")
    s.build_fort("Middle Tigris", pay="army")  # 2 armies and a fort
    s.illegal(Expand(0, "Middle Tigris"), "already_there")


def test_multiple_armies_off_by_default() -> None:
    """Without the option a land holds one army (Chapter V)."""
    s = Scenario(epoch=2).start("Assyria", player=0)
    s.illegal(Expand(0, "Upper Tigris"), "already_there")


def test_naval_control_man_a_fleet_and_keep_it(dice: Dice) -> None:
    """Optional Rules, Naval Control: "Active Empires ... may place armies from
    their army pool onto their fleet markers in a sea (not an ocean). At the end
    of the turn, any fleets with armies on them remain on the board. You score
    one Victory Point for each sea controlled this way." """
    s = Scenario(epoch=2, options={"naval_control": True}).start("Greek City States", player=0)
    assert s.turn.step == "naval"
    pool = s.pool
    s.man_fleet("Black Sea")
    assert s.pool == pool - 1
    assert s.state.manned == {"Black Sea": [0, 2, s.force]}
    s.done()
    assert s.turn.step == "expand"
    s.end_turn()
    assert s.state.manned == {"Black Sea": [0, 2, "2:Greek City States"]}
    scored = only(s.of_type("scored"))
    assert scored["breakdown"]["seas"] == ["Black Sea"]
    # Southern Europe presence (2) + capital (2) + monument? (1 resource: none) + sea (1)
    assert scored["points"] == 2 + 2 + 1


def test_naval_control_fight_for_a_held_sea(dice: Dice) -> None:
    """Optional Rules, Naval Control: "Any Active Empires who want to put a fleet
    into a sea controlled by a past Empire must fight the existing fleet. Combat
    is handled normally with the attacker rolling two dice and the defending
    fleet rolling one." Normal combat leaves the winning army where it fought, so
    (our reading, data/history/classic/README.md) the winning army mans the sea:
    one army holds it, not two."""
    s = Scenario(epoch=2, options={"naval_control": True})
    s.state.manned["Black Sea"] = [1, 2, "2:Scytians"]
    s.start("Persia", player=0)
    assert "Black Sea" not in s.turn.force.fleets
    assert s.turn.contested == ["Black Sea"]
    dice.script([2, 3], [4], [5, 1], [4])
    s.attack_fleet("Black Sea")
    assert "Black Sea" in s.state.manned and s.turn.lost == 1
    pool = s.pool
    s.attack_fleet("Black Sea")
    assert s.state.manned["Black Sea"] == [0, 2, "2:Persia"]
    assert "Black Sea" in s.turn.force.fleets
    assert s.pool == pool - 1 and s.turn.lost == 1


def test_naval_control_tie_sinks_both_and_frees_the_sea(dice: Dice) -> None:
    """Optional Rules, Naval Control: fleet combat "is handled normally": a tie
    removes both the attacking army and the defending fleet. As with a land left
    empty by a tie (the Roman example of Chapter V: "The Roman player can expand
    into the (now) empty Land without further combat"), the empire's own fleet
    then goes into the now free sea."""
    s = Scenario(epoch=2, options={"naval_control": True})
    s.state.manned["Black Sea"] = [1, 2, "2:Scytians"]
    s.start("Persia", player=0)
    dice.script([4, 2], [4])
    s.attack_fleet("Black Sea")
    assert only(s.of_type("fleet_battle"))["outcome"] == "tie"
    assert "Black Sea" not in s.state.manned and s.turn.lost == 1
    assert "Black Sea" in s.turn.force.fleets
    assert s.turn.contested == []


def test_naval_control_oldest_fleets_make_way(dice: Dice) -> None:
    """Optional Rules, Naval Control: "If there are not enough fleet markers
    available to an Active Empire at the start of its turn, fleets with armies are
    removed from the board starting with the oldest Epoch first." Nine seas are
    held (nine of the twelve markers); the Netherlands need eight fleets, so the
    five oldest held fleets go. The four left that the Netherlands also sail
    must be fought for."""
    s = Scenario(epoch=7, options={"naval_control": True})
    held = {
        "Caribbean Sea": 1, "Sea of Japan": 1, "South China Sea": 2, "Bay of Bengal": 2,
        "Red Sea": 3, "Black Sea": 4, "Eastern Mediterranean": 5,
        "Western Mediterranean": 6, "North Sea": 6,
    }
    for sea, epoch in held.items():
        s.state.manned[sea] = [1, epoch, f"{epoch}:past"]
    s.start("Netherlands", player=0)
    assert sorted(s.state.manned) == [
        "Black Sea", "Eastern Mediterranean", "North Sea", "Western Mediterranean"
    ]
    assert sorted(s.turn.contested) == sorted(s.state.manned)
    assert sorted(s.turn.force.fleets) == [
        "Atlantic Ocean", "Bay of Bengal", "Indian Ocean", "Red Sea"
    ]
