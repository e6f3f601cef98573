"""Rulebook scenarios for the choices the classic rulebook leaves to the player, and our written readings.

Each test quotes the passage it checks; the readings are written down in
data/history/classic/README.md (issue 15, points 1-6).
"""

from __future__ import annotations

from engine.core import decide
from engine.history.actions import AttackFleet, Choose, ManFleet, PlayCard
from engine.history.game import GAME
from tests.conftest import Dice
from tests.support.history_builder import RULES, Scenario, only


def plays(s: Scenario, card: str) -> list[PlayCard]:
    cid = RULES.card(card).id
    return [a for a in s.legal() if isinstance(a, PlayCard) and a.card == cid]


# -- 1. far-away armies ------------------------------------------------------------------------


def test_japan_takes_persian_pieces_when_an_egyptian_one_is_still_on_the_board() -> None:
    """Chapter IV, Lesser Events: event armies use "a figure that is far away from the current
    Epoch. So if it is early in the game, use a Spanish or British figure; if it is late in the
    game, use an Egyptian or Persian figure." (Minor Empires too, see the data README.)
    In epoch VII, with one Egyptian army of the player still on the board, Japan
    (strength 5) may use Persian pieces and gets all five armies; the player may still
    choose the Egyptian pieces, and then the box gives only four."""
    s = Scenario(epoch=7).army("Nile Delta", owner=0, epoch=1).hand(0, "Japan").start("Russia", player=0)
    offered = plays(s, "Japan")
    assert sorted(a.pieces for a in offered) == [1, 2]
    assert offered[0].pieces == 2  # the default: the epoch with more free pieces
    decision = decide(GAME, s.state, 0)
    assert decision is not None
    labels = {c.label: c.group for c in decision.choices if c.action in offered}
    assert labels == {"Play Japan with epoch II pieces": "Play Japan",
                      "Play Japan with epoch I pieces": "Play Japan"}
    s.play("Japan")  # the default
    assert s.turn.force.piece_epoch == 2 and s.pool == 4 and s.stack("Honshu")[0][1] == 2
    t = Scenario(epoch=7).army("Nile Delta", owner=0, epoch=1).hand(0, "Japan").start("Russia", player=0)
    t.apply(PlayCard(0, RULES.card("Japan").id, 1))
    # Four Egyptian pieces are free: one in Honshu, three in the pool.
    assert t.turn.force.piece_epoch == 1 and t.pool == 3
    assert only(t.of_type("supply_out"))["got"] == 4


def test_army_events_are_offered_while_either_far_epoch_has_pieces(dice: Dice) -> None:
    """Chapter IV: late in the game "use an Egyptian or Persian figure".
    In epoch VI, with all five Egyptian pieces of the player on the board, Civil War and
    Jewish Revolt are still offered: all twelve Persian pieces are free."""
    egypt = ["Nile Delta", "Upper Nile", "Libya", "Thebaid", "Levant"]
    s = Scenario(epoch=6).armies(0, *egypt, epoch=1)
    s.armies(1, "Zagros", "Palestine", "Middle Tigris", epoch=5)
    s.hand(0, "Civil War", "Jewish Revolt").start("Ottoman Turks", player=0)
    for card in ("Civil War", "Jewish Revolt"):
        assert [a.pieces for a in plays(s, card)] == [0]  # one epoch only: nothing to choose
    dice.script([6, 1, 1], [2])
    s.play("Jewish Revolt")
    assert s.stack("Palestine") == [[0, 2, "revolt:jewish-revolt"]]


def test_early_in_the_game_the_player_picks_spanish_or_british_rebels(dice: Dice) -> None:
    """Chapter IV: "if it is early in the game, use a Spanish or British figure":
    a Spanish (epoch VI) or British (epoch VII) figure. The player
    picks the Spanish ones; the rebel army that wins is a Spanish piece."""
    s = Scenario(epoch=3).armies(1, "Levant", "Palestine", "Nile Delta", epoch=2)
    s.hand(0, "Civil War").start("Romans", player=0)
    assert sorted(a.pieces for a in plays(s, "Civil War")) == [6, 7]
    s.apply(PlayCard(0, "civil-war", 6))
    assert s.turn.event_pieces == {"civil-war": 6}
    assert s.illegal(PlayCard(0, "civil-war", 3), "wrong_step")
    dice.script([6, 1], [2], [6, 1], [2], [6, 1], [2])
    s.choose("Levant", "Palestine", "Nile Delta")
    for land in ("Levant", "Palestine", "Nile Delta"):
        assert s.stack(land) == [[0, 6, "civil_war:civil-war"]]


def test_a_far_epoch_the_rules_do_not_allow_is_refused() -> None:
    """Chapter IV: "if it is late in the game, use an Egyptian or Persian figure":
    only Egyptian or Persian figures; asking for British ones is refused
    with a sentence, and nothing changes."""
    s = Scenario(epoch=5).armies(1, "Levant", epoch=4).hand(0, "Jewish Revolt").start("Franks", player=0)
    error = s.illegal(PlayCard(0, "jewish-revolt", 7), "bad_pieces")
    assert "epoch VII" in error.message and "epoch II or epoch I" in error.message


# -- 2. monument sites -------------------------------------------------------------------------


def test_a_capital_less_empire_chooses_its_monument_sites() -> None:
    """Chapter V, Resource Symbols and Monuments: "If the Empire has a capital, place a monument
    there first. Otherwise, place it in any city the Active Empire controls. Otherwise, place it
    in a Land containing one of the resource symbols controlled by that empire." The Aryans have
    no capital and no city: the player picks both sites among their resource lands."""
    s = Scenario(epoch=1).start("Aryans", player=0)
    held = set(s.state.lands_of(0))
    resources = sorted(land for land, info in RULES.map.lands.items() if info.resource and land not in held)
    s.state.armies.update({land: [[0, 1, s.force]] for land in resources[:4]})
    s.turn.force.pool = 0
    s.end_turn()
    decision = decide(GAME, s.state, 0)
    assert decision is not None and decision.heading == "Monument 1 of 2: choose the land where it rises"
    assert sorted(s.turn.pick["options"]) == sorted(resources[:4])
    assert GAME.timeout_action(s.state, 0) == Choose(0, s.turn.pick["options"][0])
    s.choose(resources[3])
    assert s.turn.pick["left"] == 1 and resources[3] not in s.turn.pick["options"]
    s.choose(resources[1])
    assert sorted(only(s.of_type("monuments"))["lands"]) == sorted([resources[1], resources[3]])
    assert s.of_type("scored")


def test_cities_come_before_resource_lands() -> None:
    """Chapter V: "Otherwise, place it in any city the Active Empire controls." With two cities
    and no capital, the player picks one of the cities, never a plain resource land."""
    s = Scenario(epoch=1).start("Aryans", player=0)
    held = set(s.state.lands_of(0))
    resources = sorted(land for land, info in RULES.map.lands.items()
                       if info.resource and land not in held)[:2]
    plain = sorted(land for land, info in RULES.map.lands.items()
                   if not info.resource and not info.barren and land not in held)[:2]
    s.state.armies.update({land: [[0, 1, s.force]] for land in [*resources, *plain]})
    s.city(*plain)
    s.turn.force.pool = 0
    s.end_turn()
    assert sorted(s.turn.pick["options"]) == sorted(plain)
    s.choose(plain[1])
    assert only(s.of_type("monuments"))["lands"] == [plain[1]]


# -- 3. fleets running short -------------------------------------------------------------------


def test_naval_control_the_active_empire_picks_which_fleets_of_the_oldest_epoch_go() -> None:
    """Optional Rules, Naval Control: "fleets with armies are removed from the board starting with
    the oldest Epoch first. The Active Empire (who needs the fleet markers) decides which fleets to
    take within this Epoch and in what order." All nine seas are held, three of them from epoch I,
    and Population Explosion holds two more markers as coins: one marker is free and Persia needs
    three, so two of the three epoch I fleets must go and the player picks which."""
    s = Scenario(epoch=2, options={"naval_control": True})
    held = {"Caribbean Sea": 1, "Sea of Japan": 1, "South China Sea": 1, "Bay of Bengal": 2,
            "North Sea": 2, "Western Mediterranean": 2, "Red Sea": 2, "Black Sea": 2,
            "Eastern Mediterranean": 2}
    for sea, epoch in held.items():
        s.state.manned[sea] = [1, epoch, f"{epoch}:past"]
    s.hand(0, "Population Explosion").start("Persia", player=0).play("Population Explosion")
    assert s.turn.coins == 2
    assert s.turn.step == "pick"
    assert s.turn.pick["what"] == "unman" and s.turn.pick["left"] == 2
    assert s.turn.pick["options"] == ["Caribbean Sea", "Sea of Japan", "South China Sea"]
    decision = decide(GAME, s.state, 0)
    assert decision is not None
    assert decision.heading == ("Fleet markers run short: choose the manned fleets that leave the board, "
                                "2 left to choose")
    assert "Take off the fleet of Blue in the Sea of Japan" in [c.label for c in decision.choices]
    s.choose("Sea of Japan", "Caribbean Sea")
    assert "South China Sea" in s.state.manned
    assert not {"Sea of Japan", "Caribbean Sea"} & set(s.state.manned)
    assert s.turn.step == "naval"
    assert sorted(s.turn.contested) == ["Black Sea", "Eastern Mediterranean", "Red Sea"]


# -- 4. Naval Control ---------------------------------------------------------------------------


def test_a_won_fleet_battle_leaves_the_army_manning_the_sea(dice: Dice) -> None:
    """Naval Control: "Combat is handled normally with the attacker rolling two dice and the
    defending fleet rolling one." Read as normal combat in full: the Active Empire's Leader
    (three dice) applies, and the winning army stays, manning the sea, as a winning army stays
    in the land it took. Only one army is spent to hold the sea."""
    s = Scenario(epoch=2, options={"naval_control": True})
    s.state.manned["Black Sea"] = [1, 1, "1:past"]
    s.hand(0, "Leader").start("Persia", player=0).play("Leader")
    pool = s.pool
    dice.script([2, 5, 1], [4])
    s.attack_fleet("Black Sea")
    assert only(s.of_type("fleet_battle"))["outcome"] == "win"
    assert s.state.manned["Black Sea"] == [0, 2, "2:Persia"]
    assert s.pool == pool - 1 and s.turn.lost == 0


def test_weaponry_and_elite_troops_apply_to_fleet_battles(dice: Dice) -> None:
    """Naval Control: "Combat is handled normally": Weaponry adds one to the kept die and Elite
    Troops win ties, as in any battle of the Active Empire."""
    s = Scenario(epoch=2, options={"naval_control": True})
    s.state.manned["Black Sea"] = [1, 1, "1:past"]
    s.hand(0, "Weaponry", "Elite Troops").start("Persia", player=0).play("Weaponry").play("Elite Troops")
    dice.script([4, 1], [5])  # 4 + 1 = 5 against 5: a tie, which Elite Troops win
    s.attack_fleet("Black Sea")
    assert only(s.of_type("fleet_battle"))["outcome"] == "win"
    assert s.state.manned["Black Sea"][0] == 0


def test_armies_man_fleets_during_expansion_but_fleet_combat_comes_first(dice: Dice) -> None:
    """Naval Control: "Active Empires ... may place armies from their army pool onto their fleet
    markers in a sea" (at any time of the turn), but "All fleet combat is resolved, in any order,
    before any army expansion starts"."""
    s = Scenario(epoch=2, options={"naval_control": True})
    s.state.manned["Black Sea"] = [1, 1, "1:past"]
    s.start("Persia", player=0)
    assert AttackFleet(0, "Black Sea") in s.legal()
    s.done()
    assert s.turn.step == "expand"
    assert AttackFleet(0, "Black Sea") not in s.legal()
    s.illegal(AttackFleet(0, "Black Sea"), "wrong_step")
    assert ManFleet(0, "Red Sea") in s.legal()
    s.expand("Zagros")
    s.man_fleet("Red Sea")
    assert s.state.manned["Red Sea"] == [0, 2, "2:Persia"]


# -- 5. Jewish Revolt in your own Palestine --------------------------------------------------------


def test_jewish_revolt_leaves_your_own_palestine_alone() -> None:
    """Lesser Event "Jewish Revolt": "One army from a far-off Epoch appears in Palestine and attacks
    any army there". Your own army is nobody to attack: your army and your fort stay."""
    s = Scenario(epoch=2).army("Palestine", owner=0, epoch=1).fort("Palestine")
    s.hand(0, "Jewish Revolt").start("Assyria", player=0).play("Jewish Revolt")
    assert s.stack("Palestine") == [[0, 1, "past:0"]] and "Palestine" in s.state.forts
    assert only(s.of_type("revolt_idle"))["land"] == "Palestine"


# -- 6. readings ----------------------------------------------------------------------------------


def test_entering_your_own_old_capital_keeps_it_a_capital() -> None:
    """Chapter V: "If you want to expand into a Land containing an army of your color ... Replace the
    other figure with one from your army pool without a fight", and "Whenever your army takes over a
    Land already containing a capital, the capital is turned over and becomes a city." Our reading:
    replacing your own figure takes nothing over, so the capital stays (worth 2 points); a land of
    yours emptied first (a tie, a plague) is entered like any empty land and sacked."""
    s = Scenario(epoch=3).army("Northern Apennines", owner=0, epoch=2).capital("Northern Apennines")
    s.start("Romans", player=0).expand("Northern Apennines")
    assert s.state.structures["Northern Apennines"] == "capital"
    assert s.of_type("replaced") and not s.of_type("sacked")
    t = Scenario(epoch=3).capital("Northern Apennines").start("Romans", player=0)
    t.expand("Northern Apennines")
    assert t.state.structures["Northern Apennines"] == "city"


def test_the_anglo_saxons_start_in_albion_with_no_invented_fleet() -> None:
    """Greater Event table, Anglo-Saxons: the printed line (start Levant, navigation W. Med. and
    E. Med.) is the Phoenicians' copied; the start land is repaired to Albion and no fleet is made up."""
    minor = RULES.card("Anglo-Saxons").minor
    assert minor is not None
    assert minor.starts == ("Albion",) and minor.fleets == () and minor.strength == 3 and not minor.capital


def test_an_old_capital_of_your_colour_counts_as_a_city_for_monuments() -> None:
    """Chapter V: "Otherwise, place it in any city the Active Empire controls." The Romans take back
    their colour's old capital in Sicily without a fight (it stays a capital, reading 6): after their
    own capital it is the next monument site, before any plain resource land."""
    s = Scenario(epoch=3).army("Sicily", owner=0, epoch=2).capital("Sicily").start("Romans", player=0)
    s.expand("Sicily", "Morea", "Levant", "Nile Delta", "Southern Iberia")
    s.end_turn()  # four resource lands: two monuments, neither leaves a choice
    assert only(s.of_type("monuments"))["lands"] == ["Southern Apennines", "Sicily"]
    assert s.state.structures["Sicily"] == "capital"
