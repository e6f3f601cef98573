"""The course of a classic game: empire draws, calling empires, monuments,
scoring, pre-eminence, the end of the game and the limits of the box.

Passages cited are from Chapters I, III, V, VI and VII of the rulebook.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from engine.history.actions import BuildFort, Give, Keep
from engine.history.game import GAME
from engine.history.view import ClassicView, YouView
from tests.conftest import Dice
from tests.support.history_builder import RULES, Scenario, empire, only


def _you(view: ClassicView) -> YouView:
    """The private part of a seated player's view (only a spectator's has none)."""
    you = view["you"]
    assert you is not None
    return you


# -- setting up -------------------------------------------------------------------


def test_deal_three_greater_and_seven_lesser_kept_secret() -> None:
    """Chapter II, Event Cards: "Deal out three (3) Greater Event cards and seven
    (7) Lesser Event Cards to each players. Players may look at their cards but
    must keep them secret until they are played." """
    state = GAME.setup(6, {}, seed=21)
    for p, hand in enumerate(state.hands):
        decks = [RULES.cards[c].deck for c in hand]
        assert decks.count("greater") == 3 and decks.count("lesser") == 7
        assert _you(GAME.view(state, p))["hand"] == hand
    other = GAME.view(state, 1)
    assert other["hand_sizes"] == [10] * 6
    text = json.dumps(GAME.view(state, None))
    assert not any(f'"{c}"' in text for c in RULES.cards)


def test_one_minor_empire_each_option() -> None:
    """Optional Rules, Minor Empires: "Distribute one Minor Empire card to each
    player and two other Greater Event cards." """
    state = GAME.setup(5, {"one_minor_each": True}, seed=4)
    for hand in state.hands:
        greater = [RULES.cards[c] for c in hand if RULES.cards[c].deck == "greater"]
        assert len(greater) == 3
        assert sum(1 for c in greater if c.effect == "minor_empire") == 1


def test_only_the_drawer_may_act() -> None:
    """Chapter III: each player in turn draws and decides; nobody else acts."""
    state = GAME.setup(3, {}, seed=2)
    (drawer,) = GAME.actors(state)
    other = (drawer + 1) % 3
    assert GAME.legal_actions(state, other) == []
    Scenario.wrap(state).illegal(Keep(other), "not_your_turn")


def test_the_drawer_is_told_the_draw_waits_for_their_card() -> None:
    """Chapter III: while the empires are drawn, the drawer keeps or gives the card; nothing else."""
    state = GAME.setup(3, {}, seed=2)
    (drawer,) = GAME.actors(state)
    error = Scenario.wrap(state).illegal(BuildFort(drawer, "Levant"), "wrong_step")
    assert error.message == ("That move is not possible now: the game is waiting for the empire card "
                             "drawn to be kept or given.")


# -- the empire draw ----------------------------------------------------------------


def test_epoch_one_rolloff_highest_draws_first_then_clockwise(dice: Dice) -> None:
    """Chapter III, Drawing Empire Cards: "Each player rolls two dice. The highest
    roller draws first and drawing proceeds clockwise." """
    dice.script([3, 4], [6, 6], [1, 2], [2, 2])
    state = GAME.setup(4, {}, seed=5)
    assert state.draw_order == [1, 2, 3, 0]
    assert GAME.actors(state) == frozenset({1})


def test_epoch_one_rolloff_ties_roll_again(dice: Dice) -> None:
    """Chapter III: the highest roller draws first; players tied for highest roll
    again (only they)."""
    dice.script([6, 6], [6, 6], [1, 1], [2, 2], [5, 1])
    state = GAME.setup(3, {}, seed=5)
    assert state.draw_order == [1, 2, 0]


def test_later_epochs_lowest_score_draws_first() -> None:
    """Chapter VII, Drawing for New Empires: "The player with the lowest number of
    Victory Points draws first, then the person in second-to-last place, etc. The
    leader draws last." Epoch II ends; epoch III is drawn."""
    s = Scenario(epoch=2).score(0, 20).score(1, 3).score(2, 11)
    s.played(1, "Egypt", "Assyria").played(2, "Minoans", "Chou Dynasty")
    s.played(0, "Sumeria")
    s.start("Persia", player=0)
    s.end_turn()  # Persia is the last empire of epoch II
    assert s.state.epoch == 3 and s.state.phase == "draw"
    assert s.state.draw_order == [1, 2, 0]


def _drawing(dice: Dice) -> Scenario:
    """A 3-player game at its first empire draw, drawing in seat order."""
    dice.script([6, 6], [1, 1], [1, 2])
    s = Scenario.wrap(GAME.setup(3, {}, seed=11))
    assert s.state.draw_order == [0, 1, 2]
    return s


def test_keep_or_give_then_receiver_must_give(dice: Dice) -> None:
    """Chapter III: "If you pass a card to another player, that player will play
    that Empire" and "If you have been given a card before you draw one, you may
    not keep the card you draw, but must give it to another player." """
    s = _drawing(dice)
    assert set(GAME.legal_actions(s.state, 0)) == {Keep(0), Give(0, 1), Give(0, 2)}
    first = s.state.drawn
    s.give(1)
    assert s.state.holding[1] == first
    assert set(GAME.legal_actions(s.state, 1)) == {Give(1, 0), Give(1, 2)}
    s.illegal(Keep(1), "must_give")
    s.illegal(Give(1, 1), "bad_receiver")
    second = s.state.drawn
    s.give(0)
    # Player 2 draws last and is the only one without a card: no choice.
    assert s.state.phase == "turn"
    assert s.state.holding[0] == second and s.state.holding[1] == first
    assert only(s.of_type("empire_kept")) == {"player": 2, "to": 2, "forced": True}


def test_last_drawer_has_no_choice(dice: Dice) -> None:
    """Chapter III: "The last player to draw has no choice because only one player
    needs a card at that point." Here the last drawer was given a card, so the
    card he draws goes to the one player still without one."""
    s = _drawing(dice)
    s.keep()
    s.give(2)
    assert s.state.phase == "turn"
    assert s.of_type("empire_given")[-1] == {"player": 2, "to": 1, "forced": True}
    assert all(h is not None for h in s.state.holding)


def test_cannot_give_to_a_player_who_has_a_card(dice: Dice) -> None:
    """Chapter III: "you may only have one Empire Card." """
    s = _drawing(dice)
    s.keep()
    s.illegal(Give(1, 0), "bad_receiver")


def test_given_card_hidden_from_receiver_until_all_distributed(dice: Dice) -> None:
    """Chapter III: a player given a card "may not look at the card until after
    ALL Empire Cards are distributed"; the giver has seen it."""
    s = _drawing(dice)
    first = s.state.drawn
    assert first is not None
    name = RULES.empires[first].name
    s.give(2)
    v2, v0, v1 = GAME.view(s.state, 2), GAME.view(s.state, 0), GAME.view(s.state, 1)
    assert _you(v2)["empire"] is None and _you(v2)["empire_given_by"] == 0
    assert _you(v0)["gave"] == {"2": first}
    for viewer in (1, 2, None):
        text = json.dumps(GAME.view(s.state, viewer))
        assert first not in text and name not in text
    for event in s.events:
        if event.visible_to(2) or event.visible_to(1):
            assert first not in json.dumps(event.to_json())
    assert _you(v1).get("drawn") == s.state.drawn
    s.keep()  # player 1 keeps; player 0 gets the last card without a choice
    assert s.state.phase == "turn"
    assert _you(GAME.view(s.state, 2))["empire"] == first
    told = [e for e in s.events if e.type == "your_empire" and e.audience == (2,)]
    assert only(told).data["empire"] == first


def test_unused_empires_are_never_shown(dice: Dice) -> None:
    """Chapter III: "Any unused Empire Cards are returned to the box without
    looking at them. Even in a six-player game, there will always be at least one
    Empire that is not played in an Epoch." """
    s = _drawing(dice)
    drawn = s.state.drawn
    assert drawn is not None
    deck_before = set(s.state.deck) | {drawn}
    s.keep().keep()
    assert s.state.phase == "turn"
    held = set(s.state.holding)
    unused = deck_before - held
    assert len(unused) == 4
    assert only(s.of_type("unused_empires")) == {"count": 4}
    assert s.state.deck == []
    text = json.dumps([e.to_json() for e in s.events])
    assert not any(key in text for key in unused)
    for viewer in (0, 1, 2, None):
        view = json.dumps(GAME.view(s.state, viewer))
        assert not any(key in view for key in unused)


def test_six_players_leave_one_empire_unused() -> None:
    """Chapter III: "Even in a six-player game, there will always be at least one
    Empire that is not played in an Epoch." """
    state = GAME.setup(6, {}, seed=3)
    while state.phase == "draw":
        (player,) = GAME.actors(state)
        state = GAME.apply(state, GAME.legal_actions(state, player)[0]).state
    assert len({h for h in state.holding if h}) == 6


# -- calling the empires -----------------------------------------------------------


def test_empires_called_in_card_order_and_skipped_when_not_held() -> None:
    """Chapter III, Going Through the Epoch: "If you have that Empire, turn your
    card over and start your turn. If no one has that empire, the next Empire on
    the list is read. This continues, with Empires either being played or skipped
    ... After all seven Empires have been called out ... the Epoch is over." """
    s = Scenario(epoch=1).holds(1, "Babylonia").holds(2, "Aryans")
    s.played(1, "Sumeria").played(2, "Sumeria")
    s.start("Egypt", player=0)
    s.end_turn()
    skipped = [e["name"] for e in s.of_type("empire_skipped")]
    assert skipped == ["Minoans", "Indus Valley"]
    assert s.turn.player == 1 and s.turn.empire == empire("Babylonia").key
    assert s.holder("Middle Tigris") == 1
    s.end_turn()
    assert [e["name"] for e in s.of_type("empire_skipped")] == ["Shang Dynasty"]
    assert s.turn.player == 2 and s.turn.empire == empire("Aryans").key
    s.end_turn()
    assert s.state.epoch == 2 and s.state.phase == "draw"
    assert s.state.played_empires == [
        [empire("Egypt").key], [empire("Sumeria").key, empire("Babylonia").key],
        [empire("Sumeria").key, empire("Aryans").key],
    ]


def test_start_land_is_cleared_but_monuments_remain() -> None:
    """Chapter V, step 4: "Put your capital and your first army down in the Start
    Land for that Empire. If there is already an army in that Land, this army is
    removed from play. If the Land has a fort, this is removed as well. However,
    any monuments in the Land remain." """
    s = Scenario(epoch=2).army("Upper Tigris", owner=1).fort("Upper Tigris")
    s.monument("Upper Tigris").start("Assyria", player=0)
    assert s.stack("Upper Tigris") == [[0, 2, s.force]]
    assert s.state.forts == [] and s.state.monuments == ["Upper Tigris"]
    assert s.state.structures == {"Upper Tigris": "capital"}
    assert s.pool == 7


def test_incas_and_aztecs_start_in_two_lands() -> None:
    """Statistics table, Epoch VI: "Incas / Aztecs ... 2 / 2 ... Northern Andes /
    Mexican Valley ... Yes": one card (empires.yaml reads the squashed row as
    one empire of strength 4), a capital and a first army in each start land."""
    s = Scenario(epoch=6).start("Incas & Aztecs", player=0)
    assert s.holder("Northern Andes") == 0 and s.holder("Mexican Valley") == 0
    assert s.state.structures == {"Northern Andes": "capital", "Mexican Valley": "capital"}
    assert s.pool == 2


# -- monuments ---------------------------------------------------------------------


def test_monuments_capital_then_city_then_resource() -> None:
    """Chapter V, Building: "For every two (2) Lands with resource symbols you
    control, build a monument." "If the Empire has a capital, place a monument
    there first. Otherwise, place it in any city the Active Empire controls.
    Otherwise, place it in a Land containing one of the resource symbols." "At no
    point can a Land have more than one monument." The Romans hold six resource
    lands and a city (their own past army's, taken over without a fight): three
    monuments, in the capital, the city and one resource land. The capital and
    the only city leave no choice; the third goes to the resource land the player
    picks ("place it in a Land containing one of the resource symbols")."""
    s = Scenario(epoch=3).army("Sicily", owner=0, epoch=2).city("Sicily")
    s.start("Romans", player=0)
    resources = ["Morea", "Levant", "Nile Delta", "Southern Iberia", "Central Europe",
                 "Middle Tigris"]
    assert all(RULES.map.lands[r].resource for r in resources)
    s.expand("Sicily", "Northern Apennines", *resources)
    assert s.state.structures["Sicily"] == "city"
    s.end_turn()
    assert s.turn.step == "pick" and sorted(s.turn.pick["options"]) == sorted(resources)
    assert s.state.monuments == ["Sicily", "Southern Apennines"]
    s.choose("Middle Tigris")
    built = only(s.of_type("monuments"))["lands"]
    assert built == ["Southern Apennines", "Sicily", "Middle Tigris"]
    assert sorted(s.state.monuments) == sorted(built)


def test_monument_skips_a_capital_that_has_one_and_rounds_down() -> None:
    """Chapter V, Building: "At no point can a Land have more than one monument";
    three resource lands make one monument (one per two)."""
    s = Scenario(epoch=3).monument("Southern Apennines").start("Romans", player=0)
    s.expand("Morea", "Levant", "Nile Delta")
    s.end_turn()
    assert sorted(s.turn.pick["options"]) == ["Levant", "Morea", "Nile Delta"]
    s.choose("Levant")
    assert only(s.of_type("monuments"))["lands"] == ["Levant"]


def test_monuments_only_for_the_active_empires_resources() -> None:
    """Chapter V, Building: "The resource symbols must be controlled by your
    Active Empire, not by Minor Empires, Kingdoms, or past Empires." """
    s = Scenario(epoch=3).army("Levant", owner=0, epoch=2).army("Nile Delta", owner=0, epoch=2)
    s.start("Romans", player=0)
    s.expand("Morea")
    s.end_turn()
    assert s.of_type("monuments") == [] and s.state.monuments == []


def test_no_monument_when_none_left_in_the_box() -> None:
    """Chapter V, Building: "if all monuments are on the gameboard, you may not
    build a monument." (36 in the box: Chapter I; 35 out, two due: only one.)"""
    free_lands = [land for land, info in RULES.map.lands.items()
                  if not info.barren and land not in ("Southern Apennines", "Morea", "Levant",
                                                      "Nile Delta", "Southern Iberia")]
    s = Scenario(epoch=3).monument(*free_lands[:35]).start("Romans", player=0)
    s.expand("Morea", "Levant", "Nile Delta", "Southern Iberia")
    s.end_turn()
    assert only(s.of_type("monuments"))["lands"] == ["Southern Apennines"]
    assert len(s.state.monuments) == 36


# -- scoring -----------------------------------------------------------------------


def test_only_the_active_player_scores_after_a_turn() -> None:
    """Chapter VI: "After your turn is over (not after the entire Epoch), you
    score for all your Active and past Empires on the board (all pieces of your
    color)." Nobody else scores then."""
    s = Scenario(epoch=2).armies(1, "Nile Delta", "Libya", "Thebaid").capital("Nile Delta")
    s.army("Morea", owner=0, epoch=1).score(1, 5)
    s.start("Assyria", player=0)
    s.end_turn()
    scored = only(s.of_type("scored"))
    # Middle East presence 3 + Southern Europe presence 2 + capital 2.
    assert scored["player"] == 0 and scored["points"] == 7
    assert s.state.scores == [7, 5, 0]


def test_dominance_needs_more_than_every_other_player() -> None:
    """Chapter VI: dominance is "At least two armies in an Area, and more than any
    other player"; control "At least three armies in an Area with no other
    player's army"; a tie at two is only presence."""
    s = Scenario(epoch=2).armies(1, "Nile Delta", "Libya").start("Carthaginia", player=0)
    s.expand("Atlas Mountains")
    s.end_turn()
    areas = only(s.of_type("scored"))["breakdown"]["areas"]
    assert areas["North Africa"] == {"level": "presence", "lands": 2, "points": 2}


# -- between epochs and the end ----------------------------------------------------


def test_preeminence_to_the_sole_leader() -> None:
    """Chapter VII, Pre-eminence Markers: "check to see which player has the most
    Victory Points. This player is pre-eminent and takes 1 Pre-eminence Marker
    ... This player may not look at the Marker until the end of the game." """
    s = Scenario(epoch=1).score(1, 30).score(2, 10)
    s.start("Aryans", player=0)
    pile = list(s.state.marker_pile)
    s.end_turn()
    assert s.state.markers == [[], [pile[-1]], []]
    assert s.state.marker_pile == pile[:-1]
    assert only(s.of_type("preeminence")) == {"player": 1, "epoch": 1}
    for viewer in (0, 1, 2, None):
        view = GAME.view(s.state, viewer)
        assert view["markers"] == [0, 1, 0] and view["marker_values"] is None


def test_no_preeminence_when_the_lead_is_shared() -> None:
    """Chapter VII: "If there are two people tied with the most Victory Points,
    neither is pre-eminent and no Pre-eminence Marker is drawn for that Epoch."
    The Aryans' player scores 2 (Middle East presence) and ties the leader."""
    s = Scenario(epoch=1).score(0, 28).score(1, 30).score(2, 28)
    s.start("Aryans", player=0)
    s.end_turn()
    assert s.state.scores == [30, 30, 28]
    assert s.state.markers == [[], [], []]
    assert len(s.state.marker_pile) == 8
    assert only(s.of_type("preeminence")) == {"player": None, "epoch": 1}


def test_no_preeminence_option() -> None:
    """Optional Rules, Pre-eminence Markers: "Eliminate Pre-eminence Markers.
    These are not rewarded to the leader at the end of an Epoch." """
    s = Scenario(epoch=1, options={"no_preeminence": True}).score(1, 30)
    s.start("Aryans", player=0)
    s.end_turn()
    assert s.state.markers == [[], [], []]


FINAL_PLAYED = {
    # strengths 4+8+8+8+9+9+10 = 56
    "p0": ["Sumeria", "Assyria", "Celts", "Guptas", "Franks", "Ming Dynasty", "Russia"],
    # strengths 5+7+9+14+7+8+6 = 56
    "p1": ["Egypt", "Greek City States", "Maurya", "Huns", "Chola", "Timuride Emirates",
           "Netherlands"],
    # strengths 3+7+9+14+7+8+6 = 54
    "p1_weaker": ["Minoans", "Greek City States", "Maurya", "Huns", "Chola",
                  "Timuride Emirates", "Netherlands"],
    # player 2 plays Germany last
    "p2": ["Indus Valley", "Persia", "Romans", "Arabs", "Mongols", "Spain"],
}


def _final_turn(
    scores: tuple[int, int], markers: tuple[list[int], list[int]], p0: Sequence[str], p1: Sequence[str]
) -> Scenario:
    """Epoch VII ends with player 2's Germany, who leads clearly and takes the
    last marker; players 0 and 1 are tied for second."""
    s = Scenario(epoch=7).score(0, scores[0]).score(1, scores[1]).score(2, 80)
    s.played(0, *p0).played(1, *p1).played(2, *FINAL_PLAYED["p2"])
    s.state.markers = [list(markers[0]), list(markers[1]), []]
    s.start("Germany", player=2)
    s.end_turn()
    assert GAME.is_over(s.state) and GAME.actors(s.state) == frozenset()
    return s


def test_final_reveal_adds_markers_from_last_place() -> None:
    """Chapter VII, Winning the Game: "After the last player has scored for Epoch
    VII, make sure the Pre-eminence Marker is drawn ... Starting with the player
    in last place, each player turns over any Pre-eminence Markers they have and
    adds the value of the Markers to their score ... the player with the most
    Victory Points wins the game." Germany scores Northern Europe presence (4)
    and its capital (2)."""
    s = _final_turn((40, 30), ([3], [4, 5]), FINAL_PLAYED["p0"], FINAL_PLAYED["p1"])
    assert s.state.scores == [40, 30, 86]
    drawn = s.state.markers[2]
    assert len(drawn) == 1  # the epoch VII marker, to the sole leader
    assert s.state.final == [43, 39, 86 + drawn[0]]
    assert GAME.scores(s.state) == [43, 39, 86 + drawn[0]]
    revealed = [e["player"] for e in s.of_type("markers_revealed")]
    assert revealed == [1, 0, 2]
    assert GAME.ranking(s.state) == [2, 0, 1]
    assert only(s.of_type("game_over"))["ranking"] == [2, 0, 1]
    assert GAME.view(s.state, 0)["marker_values"] == [[3], [4, 5], drawn]


def test_tie_break_lower_combined_strength() -> None:
    """Chapter VII, Ties: "If two players are tied for Victory Points, add up the
    combined army strengths of all seven of their played Empires. The player
    whose combined army strength is lower is the winner." """
    s = _final_turn((40, 40), ([4], [4]), FINAL_PLAYED["p0"], FINAL_PLAYED["p1_weaker"])
    assert s.state.final is not None
    assert s.state.final[:2] == [44, 44]
    assert GAME.ranking(s.state) == [2, 1, 0]


def test_tie_break_more_preeminence_points() -> None:
    """Chapter VII, Ties: "If there is still a tie, then the player with more
    Pre-eminence Marker points is the winner." (56 strength each.)"""
    s = _final_turn((42, 40), ([3], [5]), FINAL_PLAYED["p0"], FINAL_PLAYED["p1"])
    assert s.state.final is not None
    assert s.state.final[:2] == [45, 45]
    assert GAME.ranking(s.state) == [2, 1, 0]


def test_tie_break_lower_epoch_seven_strength() -> None:
    """Chapter VII, Ties: "If there is still a tie, then the player with the lower
    army strength in Epoch VII is the winner." Russia (10) against the Netherlands
    (6), 56 strength and 4 marker points each."""
    s = _final_turn((40, 40), ([4], [4]), FINAL_PLAYED["p0"], FINAL_PLAYED["p1"])
    strengths = [sum(RULES.empires[k].strength for k in s.state.played_empires[p])
                 for p in (0, 1)]
    assert strengths == [56, 56]
    assert s.state.final is not None
    assert s.state.final[:2] == [44, 44]
    assert GAME.ranking(s.state) == [2, 1, 0]
    s2 = _final_turn((40, 40), ([4], [4]), FINAL_PLAYED["p1"], FINAL_PLAYED["p0"])
    assert GAME.ranking(s2.state) == [2, 0, 1]


# -- the limits of the box (Chapter I, Contents) -----------------------------------


def test_army_pieces_run_out() -> None:
    """Chapter I: "Epoch VII pieces - British (16 of each color)"; Chapter IV:
    Kingdoms of Epochs I-III use an Epoch VII army. With one of them still on the
    board, Britain (strength 16) gets only 15 armies."""
    s = Scenario(epoch=7).army("Palestine", owner=0, epoch=7, force="kingdom:kingdom-cannanites")
    s.start("Britain", player=0)
    assert s.pool == 14  # 15, one of them already in Albion
    assert only(s.of_type("supply_out"))["got"] == 15


def test_kingdom_without_a_piece_still_founds_its_city() -> None:
    """Chapter I: "Epoch I pieces - Egyptians (5 of each color)". Kingdom: Mali
    (Epoch V) uses an Epoch I army; with all five on the board it places only its
    city."""
    s = Scenario(epoch=5)
    for land in ("Nile Delta", "Libya", "Palestine", "Thebaid", "Upper Nile"):
        s.army(land, owner=0, epoch=1)
    s.hand(0, "Kingdom: Mali").start("Franks", player=0).play("Kingdom: Mali")
    assert s.holder("Gold Coast") is None
    assert s.state.structures["Gold Coast"] == "city"
    assert s.of_type("supply_out")


def test_fleet_and_coin_markers_are_shared() -> None:
    """Chapter I: "There are 12 coins/fleets (same piece with a coin on one side
    and a fleet image on the other)." Portugal wants 11 fleets; with two coins
    already taken, only ten fleets can be placed. The player picks the ten to keep
    (issue 15: the rulebook gives no order, so the choice is the player's)."""
    s = Scenario(epoch=6).hand(0, "Population Explosion").start("Portugal", player=0)
    s.play("Population Explosion")
    assert s.turn.coins == 2
    assert s.turn.step == "pick" and s.turn.pick["left"] == 10
    waters = list(s.turn.pick["options"])
    assert len(waters) == 11 and "Sea of Japan" in waters
    s.choose(*[w for w in waters if w != "Atlantic Ocean"])
    assert sorted(s.turn.force.fleets) == sorted(w for w in waters if w != "Atlantic Ocean")
    assert only(s.of_type("supply_out"))["water"] == "Atlantic Ocean"


def test_capitals_run_out() -> None:
    """Chapter I: "Capitals/Cities (30)". With all thirty on the board a new
    empire gets no capital but still places its first army."""
    lands = [land for land, info in RULES.map.lands.items()
             if not info.barren and land != "Upper Tigris"][:30]
    s = Scenario(epoch=2).city(*lands).start("Assyria", player=0)
    assert "Upper Tigris" not in s.state.structures
    assert s.holder("Upper Tigris") == 0
    assert s.of_type("supply_out")


def test_forts_run_out() -> None:
    """Chapter I: "Forts (32)". With all 32 on the board no fort can be built."""
    lands = [land for land, info in RULES.map.lands.items()
             if not info.barren and land != "Upper Tigris"][:32]
    s = Scenario(epoch=2).fort(*lands).start("Assyria", player=0)
    s.illegal(BuildFort(0, "Upper Tigris", "army"), "no_forts")
    assert not any(isinstance(a, BuildFort) for a in s.legal())
