"""Every worked example of the classic rulebook, played through the engine.

Each test quotes (in short) the passage of
``shared/seeds/history-of-the-world-classic-7-epochs.txt`` it replays; the
expected numbers come from the rulebook, not from the engine.
"""

from __future__ import annotations

from engine.history.actions import Expand
from tests.conftest import Dice
from tests.support.history_builder import Scenario, empire, lands_of


def test_roman_attack_into_northern_apennines(dice: Dice) -> None:
    """Chapter V, Combat, example: "The Romans (Epoch III) are attacking from
    Southern Apennines into Northern Apennines. ... rolling a 1 and a 3. The
    defender rolls one die, scoring a 4 ... the attacking Roman army is removed.
    ... rolls a 5 and a 5. The defender also rolls a 5 ... both armies are
    removed. The Roman player can expand into the (now) empty Land without
    further combat."""
    s = Scenario(epoch=3).army("Northern Apennines", owner=1).start("Romans", player=0)
    assert s.holder("Southern Apennines") == 0
    assert s.state.structures["Southern Apennines"] == "capital"
    assert s.pool == 19

    dice.script([1, 3], [4])
    s.expand("Northern Apennines")
    assert s.battles() == [([1, 3], [4], "loss")]
    assert s.holder("Northern Apennines") == 1
    assert s.pool == 18 and s.turn.lost == 1

    dice.script([5, 5], [5])
    s.expand("Northern Apennines")
    assert s.battles() == [([5, 5], [5], "tie")]
    assert s.holder("Northern Apennines") is None
    assert s.pool == 17 and s.turn.lost == 2

    dice.script()  # no more dice: the empty land is entered without combat
    s.expand("Northern Apennines")
    assert s.of_type("battle") == []
    assert s.stack("Northern Apennines") == [[0, 3, s.force]]
    assert s.pool == 16


def test_british_sea_landing_in_chekiang(dice: Dice) -> None:
    """Chapter V, Attacking from the Sea, example: "the British player is
    expanding from Albion to Chekiang ... The attacking British army rolls with
    2 dice, scoring a 2 and a 4. The defender gets three dice, rolling a 1, 1,
    and 5. The British army is defeated and removed. A second attempt succeeds
    ... From here the British player expands into the Lands of Si-Kyang, Yangtze
    Kiang, or the Great Plain of China without penalty since she is expanding
    from Chekiang not from the sea."

    "Without penalty": the three lands are attacked over land with no
    defender bonus, one defender die each.
    """
    s = Scenario(epoch=7)
    s.army("Chekiang", owner=1).army("Yangtze Kiang", owner=2).army("Great Plain of China", owner=2)
    s.army("Si-Kyang", owner=1)
    s.start("Britain", player=0)
    # Before the landing every Chinese land is reached only from the sea.
    assert s.targets()["Yangtze Kiang"] == 3

    dice.script([2, 4], [1, 1, 5], [6, 3], [1, 2, 5])
    s.expand("Chekiang")
    assert s.battles() == [([2, 4], [1, 1, 5], "loss")]
    assert s.holder("Chekiang") == 1
    s.expand("Chekiang")
    assert s.battles() == [([6, 3], [1, 2, 5], "win")]
    assert s.holder("Chekiang") == 0

    targets = s.targets()
    assert targets["Yangtze Kiang"] == 1
    assert targets["Great Plain of China"] == 1
    assert targets["Si-Kyang"] == 1

    dice.add([3, 3], [2], [4, 1], [2])
    s.expand("Yangtze Kiang")
    assert s.battles() == [([3, 3], [2], "win")]
    s.expand("Great Plain of China")
    assert s.battles() == [([4, 1], [2], "win")]
    dice.add([6, 6], [1])
    s.expand("Si-Kyang")
    assert s.holder("Si-Kyang") == 0
    assert {"Albion", "Chekiang", "Yangtze Kiang", "Great Plain of China", "Si-Kyang"} <= lands_of(
        s.state, 0
    )


def test_mongols_over_the_great_wall_with_leader_and_fort(dice: Dice) -> None:
    """Chapter V, Sack and Pillage Capitals, example: the Mongols (Leader: three
    dice) attack Wei River (capital and fort) over the Great Wall. "4, 6 and 6
    ... The defender rolls a 1 and a 6. The 6 becomes a 7, defeating the Mongol
    army. ... rolls a 2, 4, and 5. The defender rolls a 3 and a 4. The 4 becomes
    a 5, resulting in a tie. The Mongols remove their army and the defender
    removes his fort ... rolling a 1, 2 and 6. The defender still gets 2 dice but
    no more +1 ... He rolls a 2 and a 5. The Mongols win ... The capital is
    turned over and becomes a city with a Mongol army in it."
    """
    s = Scenario(epoch=5).army("Wei River", owner=1).capital("Wei River").fort("Wei River")
    s.hand(0, "Leader").start("Mongols", player=0)
    s.play("Leader")
    assert s.turn.leader
    assert s.turn.step == "expand"  # no other card to play: the empire is set up
    assert s.holder("Mongolia") == 0 and s.pool == 17

    dice.script([4, 6, 6], [1, 6])
    s.expand("Wei River")
    assert s.battles() == [([4, 6, 6], [1, 6], "loss")]
    assert "Wei River" in s.state.forts and s.holder("Wei River") == 1

    dice.script([2, 4, 5], [3, 4])
    s.expand("Wei River")
    assert s.battles() == [([2, 4, 5], [3, 4], "tie")]
    assert "Wei River" not in s.state.forts
    assert s.holder("Wei River") == 1  # the fort was the defender's loss
    assert s.state.structures["Wei River"] == "capital"

    dice.script([1, 2, 6], [2, 5])
    s.expand("Wei River")
    assert s.battles() == [([1, 2, 6], [2, 5], "win")]
    assert s.stack("Wei River") == [[0, 5, s.force]]
    assert s.state.structures["Wei River"] == "city"
    assert s.pool == 14 and s.turn.lost == 2
    assert s.turn.leader  # no triples: the leader lives


def test_greek_fleets_as_stepping_stones() -> None:
    """Chapter V, Expansion, example: "the Greek City States have navigation in
    the Western Med., Eastern Med., and the Black Sea. From their capital in
    Morea, the Greeks may expand into Shatts Plateau in one move, using their
    Eastern Med. fleet and their Western Med. fleet ... Similarly, the Greeks may
    step their way into Caucasus in one move, using their Eastern Med and Black
    Sea fleets."
    """
    s = Scenario(epoch=2).start("Greek City States", player=0)
    assert sorted(s.turn.force.fleets) == [
        "Black Sea", "Eastern Mediterranean", "Western Mediterranean"
    ]
    assert s.targets()["Shatts Plateau"] == 0
    assert s.targets()["Caucasus"] == 0
    s.expand("Shatts Plateau")
    assert s.holder("Shatts Plateau") == 0
    s.expand("Caucasus")
    assert s.holder("Caucasus") == 0
    assert lands_of(s.state, 0) == {"Morea", "Shatts Plateau", "Caucasus"}


def test_greek_fleets_do_not_reach_without_the_fleet() -> None:
    """Chapter V, Expansion: fleets are stepping stones only where the empire
    has them. Assyria (no fleets) cannot jump from Upper Tigris across a sea."""
    s = Scenario(epoch=2).start("Assyria", player=0)
    s.illegal(Expand(0, "Shatts Plateau"), "not_adjacent")


def test_portuguese_fleets_fill_the_oceans_seas() -> None:
    """Chapter V, step 3, example: "A person playing the Portuguese in Epoch VI
    would place fleet markers in the Atlantic Ocean and all its reachable seas:
    North Sea, Western Med., Eastern Med., Black Sea. A marker placed in the
    Indian Ocean allows markers to be place in its reachable seas: Red Sea and
    Bay of Bengal." The Western Pacific Ocean likewise brings its seas, the Sea
    of Japan and the South China Sea."""
    s = Scenario(epoch=6).start("Portugal", player=0)
    assert sorted(s.turn.force.fleets) == sorted(
        [
            "Atlantic Ocean", "North Sea", "Western Mediterranean", "Eastern Mediterranean",
            "Black Sea",
            "Indian Ocean", "Red Sea", "Bay of Bengal",
            "Western Pacific Ocean", "Sea of Japan", "South China Sea",
        ]
    )
    assert "Caribbean Sea" not in s.turn.force.fleets
    # From Western Iberia, in one move, as far as the Black Sea coast.
    s.expand("Caucasus")
    assert s.holder("Caucasus") == 0


def test_eighteen_point_scoring_example() -> None:
    """Chapter VI, Scoring, example: purple was Egypt in Epoch I (Nile Delta,
    Libya, Palestine) and is the Vedic City States in Epoch II (Upper Indus,
    Western Deccan, Eastern Ghats, Hindu Kush, Persian Plateau); another player
    has 3 armies in the Middle East. Two resource lands give a monument in Upper
    Indus (the capital). North Africa dominance 2x2=4, Middle East presence 3,
    India control 2x3=6, two capitals 4, one monument 1: "the purple player
    scores 18 points (4 + 3 + 6 + 2 + 2 + 1)". (Epoch II values of the Victory
    Points Table; the example's "Epoch I is 2" for North Africa is the Epoch II
    value.)"""
    s = Scenario(epoch=2)
    egypt = empire("Egypt").key
    for land in ("Nile Delta", "Libya", "Palestine"):
        s.army(land, owner=0, epoch=1, force=egypt)
    s.capital("Nile Delta")
    s.armies(1, "Lower Tigris", "Middle Tigris", "Zagros", epoch=1)
    s.score(0, 10).score(1, 7)
    s.played(0, "Egypt")
    s.start("Vedic City States", player=0)
    s.expand("Western Deccan", "Hindu Kush", "Eastern Ghats", "Persian Plateau")
    s.end_turn()

    assert s.state.monuments == ["Upper Indus"]
    scored = s.of_type("scored")
    assert len(scored) == 1 and scored[0]["player"] == 0
    breakdown = scored[0]["breakdown"]
    areas = {a: (v["level"], v["points"]) for a, v in breakdown["areas"].items()}
    assert areas == {
        "North Africa": ("dominance", 4),
        "Middle East": ("presence", 3),
        "India": ("control", 6),
    }
    assert breakdown["capitals"] == ["Nile Delta", "Upper Indus"]
    assert breakdown["monuments"] == ["Upper Indus"]
    assert scored[0]["points"] == 18
    assert s.state.scores[0] == 28
    assert s.state.scores[1] == 7  # only the active player scores


def _end_of_epoch_one(*seats: str) -> Scenario:
    """Epoch I ends with the Aryans' turn; everyone then has 8 victory points.

    ``seats`` names the epoch-I empire of players 0, 1, 2. The Aryans' player
    starts on 6 and scores exactly 2 (presence in the Middle East, Epoch I).
    """
    s = Scenario(epoch=1)
    aryans = seats.index("Aryans")
    for p, name in enumerate(seats):
        s.score(p, 6 if p == aryans else 8)
        if p != aryans:
            s.played(p, name)
    s.start("Aryans", player=aryans)
    s.end_turn()
    assert s.state.scores == [8, 8, 8]
    assert s.state.epoch == 2 and s.state.phase == "draw"
    return s


def test_empire_draw_tie_lower_strength_first() -> None:
    """Chapter VII, Drawing for New Empires: "if two players have 8 Victory
    Points, but one player played the Egyptians in Epoch I (strength of 5) and
    the other played the Minoans (strength of 3), then the Minoan player draws
    first."""
    s = _end_of_epoch_one("Aryans", "Egypt", "Minoans")
    assert s.state.draw_order[0] == 2
    assert s.state.draw_order.index(2) < s.state.draw_order.index(1)


def test_empire_draw_tie_earlier_empire_first() -> None:
    """Chapter VII, Drawing for New Empires: "if two players have 8 Victory
    Points and both played Empires with a strength of 5 (the Egyptians and the
    Aryans) in the previous Epoch, then the Egyptian player draws first as Egypt
    occurred earlier in the Epoch."""
    s = _end_of_epoch_one("Aryans", "Egypt", "Minoans")
    assert s.state.draw_order == [2, 1, 0]  # Minoans (3), Egypt (5, 2nd), Aryans (5, 7th)
