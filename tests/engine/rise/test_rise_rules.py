"""Scenario tests for Rise of Empires, each citing the rulebook passage it checks.

The rulebook is ``../shared/seeds/rise-of-empires.txt``. Scenarios start from
a real ``GAME.setup`` state, arrange what the example needs by hand (the
state is plain data), and are then played only through ``GAME.apply``, or,
for the phases between the players' actions, by finishing the last action
of a turn.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
import yaml

from engine.core import Action, IllegalAction
from engine.rise import ai, control, flow, phases
from engine.rise.actions import (
    CODEC,
    Battle,
    ChooseOrder,
    ClearCubes,
    Discard,
    Keep,
    Pass,
    PlaceCube,
    Select,
    Skip,
    Stop,
    TakeBack,
    TakeCity,
    TakeEmpire,
    TakeProgress,
    TakeTerritory,
    Trade,
    UseTile,
)
from engine.rise.ai import make_policy
from engine.rise.context import Ctx
from engine.rise.data import DATA_DIR
from engine.rise.game import GAME
from engine.rise.state import EMPTY, Phase, RiseState, Stage

DATA = GAME.data
MICHAEL, PETER, DAN, LIN, WHITE = 0, 1, 2, 3, 4


# -- a small builder -------------------------------------------------------------------------------
def pid(name: str, n: int = 0) -> str:
    """The id of the ``n``-th progress tile called ``name``."""
    return [t for t, p in DATA.progress.items() if p.name == name][n]


def tid(name: str, n: int = 0) -> str:
    return [t for t, x in DATA.territory.items() if x.name == name][n]


def cid(name: str) -> str:
    return next(t for t, c in DATA.cities.items() if c.name == name)


def arranged(players: int = 4, turn: int = 1, seed: int = 7) -> RiseState:
    """A fresh game in ``turn``, seats in order 0, 1, 2..., seat 0 about to act, nobody holding anything."""
    s = GAME.setup(players, {}, seed)
    s.order = list(range(players))
    s.turn = turn
    s.act_no = 0
    s.task = phases.new_task(0)
    s.open_empires = sorted(DATA.empires)
    return s


def act(s: RiseState, *actions: Action) -> RiseState:
    for action in actions:
        s = GAME.apply(s, action).state
    return s


def refused(s: RiseState, action: Action, code: str) -> None:
    """``action`` raises IllegalAction(code) and leaves ``s`` exactly as it was."""
    before = s.dumps()
    with pytest.raises(IllegalAction) as info:
        GAME.apply(s, action)
    assert info.value.code == code, info.value.message
    assert s.dumps() == before


def cubes(s: RiseState, region: str) -> list[int]:
    return s.cubes.get(region, [0] * s.players)


def put(s: RiseState, region: str, seat: int, n: int) -> None:
    s.add_cubes(region, seat, n)
    s.pool[seat] = max(0, s.pool[seat] - n)


def ctx(s: RiseState) -> Ctx:
    return Ctx(s, DATA)


# -- Setup -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_setup_gives_the_rulebook_stock_and_tiles_display(players: int) -> None:
    """Setup: 5 cubes in the pool, 25 in stock, 5 gold, 2 resource discs, 16 food, 0 VP;
    progress boxes era III under II under I (2 each), territory 4 per box, city tiles by era with eras I
    and II only in the top five boxes; the first turn flips 8 progress, 10 territory and 5 city tiles."""
    s = GAME.setup(players, {}, 11)
    assert s.pool == [5] * players and s.stock == [25] * players
    assert s.gold == [5] * players and s.resources == [2] * players
    assert s.food == [16] * players and s.vp == [0] * players
    assert len(s.open_progress) == 8 and {DATA.progress[t].era for t in s.open_progress} == {1}
    for box in s.progress_boxes:
        assert [DATA.progress[t].era for t in box] == [1, 2, 2, 3, 3]
    assert len(s.open_territory) == 10 and all(len(b) == 3 for b in s.territory_boxes)
    assert len(s.open_city) == 5
    assert all((DATA.cities[c].era, DATA.cities[c].row) == (1, "A") for c in s.open_city)
    for box in s.city_boxes[:5]:
        assert [(DATA.cities[c].era, DATA.cities[c].row) for c in box] == [
            (1, "B"), (2, "A"), (2, "B"), (3, "A"), (3, "B")]
    for box in s.city_boxes[5:]:
        assert [(DATA.cities[c].era, DATA.cities[c].row) for c in box] == [(3, "A"), (3, "B")]
    assert s.open_empires == sorted(DATA.empires) and len(s.open_empires) == 8
    # Turn order: a random starting player, then clockwise.
    assert s.order == [(s.order[0] + i) % players for i in range(players)]
    circles = {2: 4, 3: 6, 4: 8, 5: 10}[players]
    assert {row: len(c) for row, c in s.display.items()} == {
        "progress": circles, "territory": circles, "city": circles, "empire": min(circles, 8),
        "trade": circles}
    assert GAME.actors(s) == frozenset({s.order[0]})


def test_starting_player_is_random_over_seeds() -> None:
    firsts = {GAME.setup(4, {}, seed).order[0] for seed in range(40)}
    assert firsts == {0, 1, 2, 3}


# -- the action display ----------------------------------------------------------------------------
def test_a_turn_discs_go_right_to_left_and_michael_takes_the_second_circle() -> None:
    """"Michael is the first player in a five-player game. As his second action of the "A" turn, he
    places his blue disc into the second circle from the right of the territory row" -- discs go
    from right to left, one per circle."""
    s = arranged(players=5)
    s = act(s, Select(MICHAEL, "territory", 9), TakeTerritory(MICHAEL, s.open_territory[0]))
    assert s.display["territory"][9] == MICHAEL
    s = act(s, Select(PETER, "progress", 9), TakeProgress(PETER, s.open_progress[0]))
    for seat in (DAN, LIN, WHITE):
        s = act(s, Select(seat, "empire", s.display["empire"].count(EMPTY) - 1))
        s = act(s, TakeEmpire(seat, s.open_empires[0]), Stop(seat))
    refused(s, Select(MICHAEL, "territory", 9), "wrong_circle")
    s = act(s, Select(MICHAEL, "territory", 8))
    assert s.display["territory"][8:] == [MICHAEL, MICHAEL]
    refused(s, Skip(MICHAEL), "must_act")


def test_a_turn_row_needs_an_action_that_can_be_done() -> None:
    """"You may only select an action if you can perform it": no trade box without resource discs."""
    s = arranged()
    s.resources[MICHAEL] = 0
    legal = [(a.row, a.circle) for a in GAME.legal_actions(s, MICHAEL) if isinstance(a, Select)]
    assert ("trade", 7) not in legal
    refused(s, Select(MICHAEL, "trade", 7), "cannot_perform")
    s.resources[MICHAEL] = 2
    assert Select(MICHAEL, "trade", 7) in GAME.legal_actions(s, MICHAEL)


@pytest.mark.parametrize(("players", "rows_full_after"), [(2, 4), (5, 8)])
def test_rows_hold_as_many_discs_as_circles(players: int, rows_full_after: int) -> None:
    """Circles per row by player count; at most eight empire actions."""
    s = arranged(players=players)
    for i in range(rows_full_after):
        seat = s.order[i % players]
        circle = s.display["empire"].count(EMPTY) - 1
        s = act(s, Select(seat, "empire", circle), TakeEmpire(seat, s.open_empires[0]), Stop(seat))
    seat = int(s.task["player"]) if s.task else 0
    assert not any(isinstance(a, Select) and a.row == "empire" for a in GAME.legal_actions(s, seat))
    refused(s, Select(seat, "empire", 0), "row_full")


def b_turn(players: int = 4) -> RiseState:
    s = arranged(players=players, turn=2)
    for row in s.display:
        s.display[row] = [EMPTY] * len(s.display[row])
    return s


def test_b_turn_removal_costs_one_per_disc_to_the_left() -> None:
    """Peter (red) would love to take an empire tile in the B turn, "however, this would cost him two
    gold, food, victory points, player cubes, or resource discs" (green and white lie to the left of
    his disc). "You do not have to pay for empty spaces to the left." The removal and its whole
    payment are one move: every way of paying two units is offered, and nothing else."""
    s = b_turn(players=5)
    s.order = [PETER, MICHAEL, DAN, LIN, WHITE]
    s.task = phases.new_task(PETER)
    s.display["empire"] = [DAN, EMPTY, WHITE, EMPTY, PETER, EMPTY, EMPTY, MICHAEL]
    ways = [a.payment for a in GAME.legal_actions(s, PETER) if isinstance(a, TakeBack)]
    # gold, cubes, resources, food (Peter has no VP): pairs of the four units, repeats allowed.
    assert sorted(ways) == sorted({tuple(sum(1 for u in pair if u == k) for k in range(5))
                                   for pair in [(a, b) for a in range(4) for b in range(4)]})
    assert len(ways) == 10
    refused(s, Select(PETER, "empire", 4), "b_turn")
    refused(s, TakeBack(PETER, "empire", 4, gold=1), "wrong_payment")  # one unit short
    refused(s, TakeBack(PETER, "empire", 4, gold=1, vp=1), "cannot_pay")  # no victory point to pay
    s = act(s, TakeBack(PETER, "empire", 4, gold=1, food=1))
    assert s.display["empire"][4] == EMPTY and s.task is not None
    assert (s.gold[PETER], s.food[PETER], s.task["stage"]) == (4, 15, "act")
    assert Skip(PETER) in GAME.legal_actions(s, PETER)


def test_b_turn_payment_in_cubes_goes_to_the_general_stock() -> None:
    """"one player cube" paid for a disc leaves the pool for the general stock (30 cubes in all)."""
    s = b_turn()
    s.display["city"] = [PETER, MICHAEL, EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, EMPTY]
    s = act(s, TakeBack(MICHAEL, "city", 1, cubes=1))
    assert (s.pool[MICHAEL], s.stock[MICHAEL]) == (4, 26)


def test_b_turn_disc_with_nothing_to_its_left_is_free_and_may_be_skipped() -> None:
    """"You may always remove an action disc with nothing to its left for free"; "During a B turn
    you may remove an action disc but then do nothing" -- paying the full amount first."""
    s = b_turn()
    s.display["trade"] = [EMPTY, EMPTY, MICHAEL, PETER, EMPTY, EMPTY, EMPTY, EMPTY]
    s.display["city"] = [PETER, DAN, MICHAEL, EMPTY, EMPTY, EMPTY, EMPTY, EMPTY]
    assert [a for a in GAME.legal_actions(s, MICHAEL) if isinstance(a, TakeBack) and a.row == "trade"] == [
        TakeBack(MICHAEL, "trade", 2)]
    s = act(s, TakeBack(MICHAEL, "trade", 2))
    assert s.task is not None and s.task["stage"] == "act"
    s = act(s, Skip(MICHAEL))
    assert s.gold[MICHAEL] == 5 and s.act_no == 1 and s.display["trade"][2] == EMPTY


def test_b_turn_removal_is_free_with_printing() -> None:
    """"If you have the Printing progress tile, you never have to pay due to your action disc position.\""""
    s = b_turn()
    s.display["city"] = [PETER, DAN, LIN, MICHAEL, EMPTY, EMPTY, EMPTY, EMPTY]
    s.progress[MICHAEL].append(pid("Printing"))
    assert [a for a in GAME.legal_actions(s, MICHAEL) if isinstance(a, TakeBack)] == [
        TakeBack(MICHAEL, "city", 3)]
    s = act(s, TakeBack(MICHAEL, "city", 3))
    assert s.task is not None and s.task["stage"] == "act" and s.gold[MICHAEL] == 5


def test_b_turn_refuses_a_disc_you_cannot_pay_for() -> None:
    s = b_turn()
    s.display["city"] = [PETER, DAN, MICHAEL, EMPTY, EMPTY, EMPTY, EMPTY, EMPTY]
    s.display["progress"] = [EMPTY] * 7 + [MICHAEL]
    s.gold[MICHAEL] = s.pool[MICHAEL] = s.resources[MICHAEL] = s.vp[MICHAEL] = 0
    s.food[MICHAEL] = 1
    refused(s, TakeBack(MICHAEL, "city", 2, food=2), "cannot_pay")
    refused(s, TakeBack(MICHAEL, "city", 1), "not_your_disc")
    assert GAME.legal_actions(s, MICHAEL) == [TakeBack(MICHAEL, "progress", 7)]


def test_pass_only_when_no_action_can_be_selected() -> None:
    s = b_turn()
    assert Pass(MICHAEL) in GAME.legal_actions(s, MICHAEL)  # no disc of his on the display
    s = act(s, Pass(MICHAEL))
    assert s.act_no == 1
    s.display["territory"][7] = PETER
    refused(s, Pass(PETER), "must_select")


# -- progress tiles --------------------------------------------------------------------------------
def test_progress_price_by_era_and_no_duplicates() -> None:
    """1 gold for a tile from the previous era, 2 for an era I tile in era III; no two Iron Axes."""
    s = arranged(turn=5)
    s.open_progress = [pid("Iron Axe", 0), pid("Iron Axe", 1), pid("Printing"), pid("Industry")]
    s.gold[MICHAEL] = 3
    s = act(s, Select(MICHAEL, "progress", 7))
    offered = [a.to_json()["tile"] for a in GAME.legal_actions(s, MICHAEL)]
    assert offered == [pid("Iron Axe", 0), pid("Printing"), pid("Industry")]
    s = act(s, TakeProgress(MICHAEL, pid("Iron Axe", 0)))
    assert s.gold[MICHAEL] == 1
    s.task = phases.new_task(MICHAEL)
    s = act(s, Select(MICHAEL, "progress", 6))
    refused(s, TakeProgress(MICHAEL, pid("Iron Axe", 1)), "duplicate")
    s = act(s, TakeProgress(MICHAEL, pid("Printing")))
    assert s.gold[MICHAEL] == 0
    s.task = phases.new_task(MICHAEL)
    s = act(s, Select(MICHAEL, "progress", 5))
    s = act(s, TakeProgress(MICHAEL, pid("Industry")))
    assert s.gold[MICHAEL] == 0 and len(s.progress[MICHAEL]) == 3


def test_dan_takes_agriculture_then_uses_weapons() -> None:
    """Dan places a disc in the Progress row and takes Agriculture; after that he uses the Weapons
    tile he acquired earlier and removes another player's cube from the map, flipping Weapons over."""
    s = arranged(players=3)
    s.order = [DAN, MICHAEL, PETER]
    weapons = pid("Weapons")
    s.progress[DAN].append(weapons)
    s.waiting[weapons] = [PETER]  # taken at this turn's first action; Michael has acted since...
    s.act_no = 2  # ...and now it is Peter's turn
    s.task = phases.new_task(PETER)
    put(s, "nw_africa", DAN, 2)
    put(s, "nw_africa", PETER, 2)
    s = act(s, Select(PETER, "empire", 5), TakeEmpire(PETER, "e1"), Stop(PETER), Stop(PETER))  # no battle
    # Peter has now acted: every other player acted once since Dan took Weapons.
    assert s.act_no == 3 and GAME.actors(s) == frozenset({DAN}) and not s.waiting
    s.open_progress.append(pid("Agriculture"))
    s = act(s, Select(DAN, "progress", 5), TakeProgress(DAN, pid("Agriculture")))
    assert s.task is not None and s.task["stage"] == "after"
    s = act(s, UseTile(DAN, weapons, "nw_africa", PETER))
    assert cubes(s, "nw_africa")[PETER] == 1 and s.stock[PETER] == 26 and weapons in s.used
    assert GAME.actors(s) == frozenset({MICHAEL})  # Dan's action is over: no other free tile to use


def test_a_new_free_tile_waits_until_everyone_has_acted() -> None:
    s = arranged(players=3)
    s.open_progress.append(pid("Weapons"))
    put(s, "nw_africa", MICHAEL, 1)
    put(s, "nw_africa", PETER, 1)
    s = act(s, Select(MICHAEL, "progress", 5), TakeProgress(MICHAEL, pid("Weapons")))
    assert GAME.actors(s) == frozenset({PETER})  # no "after" stage: the tile is not ready
    s = act(s, Select(PETER, "empire", 5), TakeEmpire(PETER, "e2"), Stop(PETER), Stop(PETER))
    refusal = s.clone()
    refusal.task = phases.new_task(MICHAEL)
    refused(refusal, UseTile(MICHAEL, pid("Weapons"), "nw_africa", PETER), "tile_not_ready")
    s = act(s, Select(DAN, "empire", 4), TakeEmpire(DAN, "e3"), Stop(DAN))
    assert UseTile(MICHAEL, pid("Weapons"), "nw_africa", PETER) in GAME.legal_actions(s, MICHAEL)
    s = act(s, UseTile(MICHAEL, pid("Weapons"), "nw_africa", PETER))
    assert cubes(s, "nw_africa") == [1, 0, 0] and s.task is not None and s.task["stage"] == "choose"
    refused(s, UseTile(MICHAEL, pid("Weapons"), "nw_africa", PETER), "tile_unusable")  # once per turn


def test_a_free_tile_taken_last_in_a_turn_still_waits_for_the_others_next_turn() -> None:
    """"You cannot take a progress tile and immediately use it-you must wait until the other players
    have taken at least one action each." Michael takes Weapons with the last action of game turn 1
    and chooses to act first in turn 2: his first action there still cannot use it; once Peter and
    Dan have each acted, his second action can."""
    s = arranged(players=3)
    weapons = pid("Weapons")
    s.open_progress.append(weapons)
    put(s, "nw_africa", MICHAEL, 2)
    put(s, "nw_africa", PETER, 2)
    s.order = [PETER, DAN, MICHAEL]
    s.act_no = 3 * DATA.actions_per_turn - 3  # the last round of actions of the turn
    s.task = phases.new_task(PETER)
    s = act(s, Select(PETER, "territory", 5), TakeTerritory(PETER, s.open_territory[0]))
    s = act(s, Select(DAN, "territory", 4), TakeTerritory(DAN, s.open_territory[0]))
    s = act(s, Select(MICHAEL, "progress", 5), TakeProgress(MICHAEL, weapons))
    # The turn's phases run; Michael, fewest points, takes the first position.
    while s.phase != "actions":
        seat = min(GAME.actors(s))
        legal = GAME.legal_actions(s, seat)
        pick = [a for a in legal if isinstance(a, ChooseOrder) and a.position == 0 and seat == MICHAEL]
        s = act(s, pick[0] if pick else GAME.timeout_action(s, seat))
    assert s.turn == 2 and s.order[0] == MICHAEL and GAME.actors(s) == frozenset({MICHAEL})
    assert s.waiting == {weapons: [PETER, DAN]}
    assert not [a for a in GAME.legal_actions(s, MICHAEL) if isinstance(a, UseTile)]
    refused(s, UseTile(MICHAEL, weapons, "nw_africa", PETER), "tile_not_ready")
    while s.act_no < 3:  # Michael's first action, then Peter's and Dan's
        s = act(s, GAME.timeout_action(s, min(GAME.actors(s))))
    assert not s.waiting and GAME.actors(s) == frozenset({MICHAEL})
    assert UseTile(MICHAEL, weapons, "nw_africa", PETER) in GAME.legal_actions(s, MICHAEL)


# -- territory and city tiles ----------------------------------------------------------------------
def test_territory_tiles_earn_in_their_phases() -> None:
    """Plains: 1 cube, 2 food; Island: 1 cube, 1 food; Forest: 2 cubes, -2 food; Mountain: 3 cubes,
    -3 food; a Town: 1 VP and its one good. Iron Axe (our design) frees forests of their food."""
    s = arranged()
    s.territory[MICHAEL] = [tid("Plains"), tid("Island"), tid("Forest"), tid("Mountain"), tid("Market Town")]
    y = phases.tile_yields(s, DATA, MICHAEL)
    assert y == {"food": 2 + 1 - 2 - 3, "gold": 1, "resources": 0, "cubes": 1 + 1 + 2 + 3, "vp": 1}
    s.progress[MICHAEL] = [pid("Iron Axe")]
    assert phases.tile_yields(s, DATA, MICHAEL)["food"] == 2 + 1 - 3
    # Duplicates are allowed ("three Forests").
    s.territory[PETER] = [tid("Forest", 0), tid("Forest", 1), tid("Forest", 2)]
    assert phases.tile_yields(s, DATA, PETER)["cubes"] == 6


def test_city_costs_gold_and_wonders_only_in_b_turns() -> None:
    """Pay the city's cost in gold first (or you may not take it); wonders are only available in a
    B turn, paid in gold, resources and pool cubes, scored at once and returned to the box."""
    s = arranged()
    s.open_city = [cid("Mycenae"), cid("Knossos"), cid("Pyramids")]
    s.gold[MICHAEL] = 2
    s = act(s, Select(MICHAEL, "city", 7))
    assert [a.to_json()["tile"] for a in GAME.legal_actions(s, MICHAEL)] == [cid("Knossos")]
    refused(s, TakeCity(MICHAEL, cid("Mycenae")), "cannot_pay")
    refused(s, TakeCity(MICHAEL, cid("Pyramids")), "wonder_a_turn")
    s = b_turn()
    s.open_city = [cid("Pyramids")]
    s.display["city"][7] = MICHAEL
    wonder = DATA.cities[cid("Pyramids")].wonder
    assert wonder is not None
    s.gold[MICHAEL], s.resources[MICHAEL], s.pool[MICHAEL] = wonder.gold, wonder.resources, wonder.cubes
    s = act(s, TakeBack(MICHAEL, "city", 7), TakeCity(MICHAEL, cid("Pyramids")))
    assert (s.gold[MICHAEL], s.resources[MICHAEL], s.pool[MICHAEL]) == (0, 0, 0)
    assert s.vp[MICHAEL] == wonder.vp and cid("Pyramids") in s.retired and s.cities[MICHAEL] == []


# -- empire tiles: placement -----------------------------------------------------------------------
def test_michael_first_turn_places_in_nw_and_ne_africa() -> None:
    """First game turn: Michael (blue) takes a "2" empire tile without water, places two cubes in
    NW Africa and two in NE Africa, and saves one cube for later."""
    s = arranged(players=5)
    tile = "e2"
    assert DATA.empires[tile].era1.regions == 2 and not DATA.empires[tile].era1.water
    s = act(s, Select(MICHAEL, "empire", 7), TakeEmpire(MICHAEL, tile))
    options = {a.region for a in GAME.legal_actions(s, MICHAEL) if isinstance(a, PlaceCube)}
    assert options == {r.id for r in DATA.regions.values() if r.era == 1 and not r.sea}
    s = act(s, PlaceCube(MICHAEL, "nw_africa"), PlaceCube(MICHAEL, "nw_africa"))
    refused(s, PlaceCube(MICHAEL, "near_east"), "not_adjacent")
    refused(s, PlaceCube(MICHAEL, "mediterranean"), "region_closed")  # no water on this tile
    s = act(s, PlaceCube(MICHAEL, "ne_africa"), PlaceCube(MICHAEL, "ne_africa"))
    refused(s, PlaceCube(MICHAEL, "sw_europe"), "too_many_regions")
    assert cubes(s, "nw_africa")[MICHAEL] == 2 and cubes(s, "ne_africa")[MICHAEL] == 2
    assert s.pool[MICHAEL] == 1
    s = act(s, Stop(MICHAEL))
    assert GAME.actors(s) == frozenset({PETER})


def test_peter_cannot_reach_ne_africa_from_sw_europe() -> None:
    """Peter (red) placed three cubes in SW Europe last turn. He may place into NW Africa (adjacent)
    but not also NE Africa: it was not adjacent to SW Europe before the placement began."""
    s = b_turn(players=5)
    s.order = [PETER, MICHAEL, DAN, LIN, WHITE]
    s.task = phases.new_task(PETER)
    put(s, "sw_europe", PETER, 3)
    s.pool[PETER] = 5
    s.display["empire"][7] = PETER
    s = act(s, TakeBack(PETER, "empire", 7), TakeEmpire(PETER, "e2"))
    s = act(s, PlaceCube(PETER, "nw_africa"))
    refused(s, PlaceCube(PETER, "ne_africa"), "not_adjacent")
    assert "ne_africa" not in {a.region for a in GAME.legal_actions(s, PETER) if isinstance(a, PlaceCube)}


def test_clearing_cubes_starts_a_new_empire_anywhere() -> None:
    """"Before placing cubes, you may voluntarily remove all of your cubes from the world map and put
    them in your pool. Then you may start a new empire in any region(s).\""""
    s = arranged()
    put(s, "sw_europe", MICHAEL, 3)
    s = act(s, Select(MICHAEL, "empire", 7), TakeEmpire(MICHAEL, "e7"))
    refused(s, PlaceCube(MICHAEL, "mesopotamia"), "not_adjacent")
    s = act(s, ClearCubes(MICHAEL))
    assert s.pool[MICHAEL] == 5 and "sw_europe" not in s.cubes
    s = act(s, PlaceCube(MICHAEL, "mesopotamia"))
    refused(s, ClearCubes(MICHAEL), "cannot_clear")


def test_new_world_needs_water_and_navigation_in_era_two_a() -> None:
    """The New World and the Far East: water tiles in eras II and III; in era II A only once some
    player has selected Navigation (not necessarily the one placing); the B turn lifts that."""
    s = arranged(turn=3)
    s = act(s, Select(MICHAEL, "empire", 7), TakeEmpire(MICHAEL, "e1"))  # era II side: water
    refused(s, PlaceCube(MICHAEL, "north_america"), "region_closed")
    s.navigation = True
    s = act(s, PlaceCube(MICHAEL, "north_america"))
    s = act(s, PlaceCube(MICHAEL, "sw_europe"))  # from overseas only: any one Old World region
    assert cubes(s, "north_america")[MICHAEL] == 1 and cubes(s, "sw_europe")[MICHAEL] == 1
    b = b_turn()
    b.turn = 4
    b.display["empire"][7] = MICHAEL
    b = act(b, TakeBack(MICHAEL, "empire", 7), TakeEmpire(MICHAEL, "e1"), PlaceCube(MICHAEL, "china"))
    assert cubes(b, "china")[MICHAEL] == 1
    dry = arranged(turn=5)
    dry = act(dry, Select(MICHAEL, "empire", 7), TakeEmpire(MICHAEL, "e2"))  # no water
    refused(dry, PlaceCube(MICHAEL, "india"), "region_closed")
    era1 = arranged()
    era1 = act(era1, Select(MICHAEL, "empire", 7), TakeEmpire(MICHAEL, "e1"))
    refused(era1, PlaceCube(MICHAEL, "central_europe"), "region_closed")  # an era II region


def test_during_era_three_all_regions_may_be_entered_scandinavia_too() -> None:
    """"Players may only place cubes in regions with a color corresponding to the current and earlier
    eras. ... During Era-III, all regions may be entered." and "If you do not have any cubes on the world
    map, you may place cubes in any region allowed by the era." With a water tile in era III, every
    region of the map is open to a player with no cubes; Scandinavia (era III) is not open in era II."""
    s = arranged(turn=5)
    s = act(s, Select(MICHAEL, "empire", 7), TakeEmpire(MICHAEL, "e1"))  # era II/III side: water
    assert {a.region for a in GAME.legal_actions(s, MICHAEL) if isinstance(a, PlaceCube)} == set(DATA.regions)
    s = act(s, PlaceCube(MICHAEL, "scandinavia"))
    assert cubes(s, "scandinavia")[MICHAEL] == 1
    era2 = arranged(turn=4)
    era2.display["empire"][7] = MICHAEL
    era2 = act(era2, TakeBack(MICHAEL, "empire", 7), TakeEmpire(MICHAEL, "e1"))
    refused(era2, PlaceCube(MICHAEL, "scandinavia"), "region_closed")


def test_overseas_only_reaches_one_old_world_region_with_water() -> None:
    s = arranged(turn=5)
    put(s, "india", MICHAEL, 1)
    s = act(s, Select(MICHAEL, "empire", 7), TakeEmpire(MICHAEL, "e2"))  # no water
    refused(s, PlaceCube(MICHAEL, "persia"), "needs_water")
    s = arranged(turn=5)
    put(s, "india", MICHAEL, 1)
    s = act(s, Select(MICHAEL, "empire", 7), TakeEmpire(MICHAEL, "e3"))  # water, 3 regions
    s = act(s, PlaceCube(MICHAEL, "persia"))
    refused(s, PlaceCube(MICHAEL, "mesopotamia"), "one_old_region")


# -- battles ---------------------------------------------------------------------------------------
def test_battle_for_the_mediterranean() -> None:
    """Dan takes the "1" (water) empire tile, places 3 cubes in the Mediterranean, which Peter
    controls with 2 cubes, and attacks Peter: Peter loses both (the rightmost number), Dan loses
    one (the leftmost)."""
    s = arranged(players=4)
    s.order = [DAN, MICHAEL, PETER, LIN]
    s.task = phases.new_task(DAN)
    put(s, "mediterranean", PETER, 2)
    put(s, "ne_africa", DAN, 1)
    s.pool[DAN] = 4
    assert control.controller(s, "mediterranean") == PETER
    assert DATA.empires["e1"].era1.regions == 1 and DATA.empires["e1"].era1.water
    assert DATA.empires["e1"].era1.battles == ((1, 2),)
    s = act(s, Select(DAN, "empire", 7), TakeEmpire(DAN, "e1"))
    s = act(s, *[PlaceCube(DAN, "mediterranean")] * 3, Stop(DAN))
    assert s.task is not None and s.task["stage"] == "battle"
    assert Battle(DAN, "mediterranean", PETER, 0) in GAME.legal_actions(s, DAN)
    s = act(s, Battle(DAN, "mediterranean", PETER, 0))
    assert cubes(s, "mediterranean") == [0, 0, 2, 0]
    assert s.stock[PETER] == 27 and s.stock[DAN] == 26
    assert control.controller(s, "mediterranean") == DAN
    assert GAME.actors(s) == frozenset({MICHAEL})  # one battle in era I: the action is over


def test_battles_in_era_two_and_three() -> None:
    """A two-row tile fights only one battle in era II (top row); in era III up to two, in different
    regions, rows in the order of choice; battles need not be where cubes were just placed."""
    tile = next(e for e, x in DATA.empires.items() if len(x.era2.battles) == 2)
    rows = DATA.empires[tile].era2.battles
    for turn_no, battles in ((3, 1), (5, 2)):
        s = arranged(turn=turn_no)
        for region in ("sw_europe", "balkans"):
            s.add_cubes(region, MICHAEL, 4)
            s.add_cubes(region, PETER, 4)
        s = act(s, Select(MICHAEL, "empire", 7), TakeEmpire(MICHAEL, tile), Stop(MICHAEL))
        legal = [a for a in GAME.legal_actions(s, MICHAEL) if isinstance(a, Battle)]
        assert {a.row for a in legal} == ({0} if battles == 1 else {0, 1})
        s = act(s, Battle(MICHAEL, "balkans", PETER, 1 if battles == 2 else 0))
        used = rows[1] if battles == 2 else rows[0]
        assert cubes(s, "balkans")[:2] == [4 - used[0], 4 - used[1]]
        if battles == 1:
            assert GAME.actors(s) == frozenset({PETER})
            continue
        refused(s, Battle(MICHAEL, "balkans", PETER, 0), "no_battle")  # not the same region twice
        refused(s, Battle(MICHAEL, "sw_europe", PETER, 1), "no_battle")  # each row once
        s = act(s, Battle(MICHAEL, "sw_europe", PETER, 0))
        assert cubes(s, "sw_europe")[:2] == [4 - rows[0][0], 4 - rows[0][1]]
        assert GAME.actors(s) == frozenset({PETER})


# -- trade -----------------------------------------------------------------------------------------
def test_trade_examples() -> None:
    """Era I: Michael places two resource discs in the 2-4 box and takes 4 gold. Era III: Dan places
    seven in the 7-6 box and scores 6 victory points. Each box once per turn, only in its eras."""
    s = arranged()
    box = next(b for b in DATA.trade.values() if (b.resources, b.gold) == (2, 4))
    assert 1 in box.eras
    s = act(s, Select(MICHAEL, "trade", 7))
    seven_six = next(b for b in DATA.trade.values() if (b.resources, b.vp) == (7, 6))
    refused(s, Trade(MICHAEL, seven_six.id), "wrong_era")
    s = act(s, Trade(MICHAEL, box.id))
    assert (s.resources[MICHAEL], s.gold[MICHAEL]) == (0, 9)
    assert s.trade_used == {box.id: MICHAEL}
    s = act(s, Select(PETER, "trade", 6))
    refused(s, Trade(PETER, box.id), "box_used")
    s = arranged(turn=5)
    s.order = [DAN, MICHAEL, PETER, LIN]
    s.task = phases.new_task(DAN)
    s.resources[DAN] = 9
    s = act(s, Select(DAN, "trade", 7), Trade(DAN, seven_six.id))
    assert (s.resources[DAN], s.vp[DAN], s.gold[DAN]) == (2, 6, 5)


# -- control ---------------------------------------------------------------------------------------
def control_example() -> RiseState:
    s = arranged(players=5)
    # Michael (blue) 2 and Dan (green) 1 in NW Africa; Pete (red) and Lin (yellow) 2 each and Dan 1
    # in NE Africa.
    s.cubes = {"nw_africa": [2, 0, 1, 0, 0], "ne_africa": [0, 2, 1, 2, 0]}
    return s


def test_control_of_nw_africa_and_shared_control_of_ne_africa() -> None:
    """Michael controls NW Africa (two player cubes for control); Dan earns one VP for second place.
    Pete and Lin tie for NE Africa: one food each and (2 + 1) // 2 = 1 VP each; Dan gets nothing."""
    s = control_example()
    assert control.shares(s, DATA, "nw_africa") == {
        MICHAEL: {"food": 0, "gold": 0, "resources": 0, "cubes": 2, "vp": 2},
        DAN: {"food": 0, "gold": 0, "resources": 0, "cubes": 0, "vp": 1}}
    assert control.shares(s, DATA, "ne_africa") == {
        PETER: {"food": 1, "gold": 0, "resources": 0, "cubes": 0, "vp": 1},
        LIN: {"food": 1, "gold": 0, "resources": 0, "cubes": 0, "vp": 1}}


def test_control_benefits_are_paid_in_the_food_income_and_vp_phases() -> None:
    s = control_example()
    s.act_no = 29
    s.task = phases.new_task(WHITE)
    s.order = [MICHAEL, PETER, DAN, LIN, WHITE]
    s = act(s, Select(WHITE, "empire", 7), TakeEmpire(WHITE, "e1"), Stop(WHITE))
    assert s.phase == "order"
    assert s.food == [16, 17, 16, 17, 16]
    assert s.pool == [7, 5, 5, 5, 5] and s.stock == [23, 25, 25, 25, 25]
    assert s.vp == [2, 1, 1, 1, 0]


def test_tie_for_second_place_shares_the_right_number() -> None:
    s = arranged(players=4)
    s.cubes = {"mesopotamia": [3, 1, 1, 0]}  # standard [3, 2]
    assert control.shares(s, DATA, "mesopotamia")[PETER]["vp"] == 1
    assert control.shares(s, DATA, "mesopotamia")[MICHAEL]["vp"] == 3
    s.cubes = {"mesopotamia": [2, 2, 2, 0]}
    assert {p: v["vp"] for p, v in control.shares(s, DATA, "mesopotamia").items()} == {0: 1, 1: 1, 2: 1}


# -- food ------------------------------------------------------------------------------------------
def test_food_track_examples() -> None:
    """Two food and down four: to zero and lose two VP. 19 food and up four: up one and one gold (the
    remaining food point is lost). Never below zero VP."""
    s = arranged()
    s.food[MICHAEL], s.vp[MICHAEL] = 2, 5
    assert phases.move_food(s, DATA, MICHAEL, -4) == {"change": -4, "food": 0, "lost_vp": 2, "gold": 0}
    assert (s.food[MICHAEL], s.vp[MICHAEL]) == (0, 3)
    s.food[PETER], s.gold[PETER] = 19, 5
    assert phases.move_food(s, DATA, PETER, 4)["gold"] == 1
    assert (s.food[PETER], s.gold[PETER]) == (20, 6)
    s.food[DAN], s.vp[DAN] = 1, 1
    phases.move_food(s, DATA, DAN, -5)
    assert (s.food[DAN], s.vp[DAN]) == (0, 0)


def test_food_phase_doubles_in_the_last_turn() -> None:
    """"In the last game turn, double the amount of food points gained/lost.\""""
    for turn_no, expected in ((5, 16 - 3 + 2), (6, 16 - 6 + 4)):
        s = arranged(turn=turn_no)
        s.territory[MICHAEL] = [tid("Mountain"), tid("Plains")]
        phases.food_phase(ctx(s))
        assert s.food[MICHAEL] == expected


# -- income, upkeep, VP ----------------------------------------------------------------------------
def test_income_moves_cubes_from_stock_and_city_upkeep_is_a_choice() -> None:
    """Income: gold, resource discs, cubes (general stock to pool). A city's resource disc upkeep may
    be paid from this turn's resource income; unpaid, the tile returns to the box."""
    s = arranged(players=2)
    s.order = [MICHAEL, PETER]
    s.territory[MICHAEL] = [tid("Mountain"), tid("Mining Town")]
    s.cities[MICHAEL] = [cid("Babylon")]
    s.cities[PETER] = [cid("Rome")]
    s.resources = [0, 0]
    s.stock[MICHAEL] = 2
    c = ctx(s)
    phases.income_phase(c)
    assert s.pool[MICHAEL] == 7 and s.stock[MICHAEL] == 0  # 3 cubes earned, 2 in stock
    assert s.gold[MICHAEL] == 5 + 1 and s.resources[MICHAEL] == 1
    s.phase = Phase.UPKEEP
    flow.settle(c)
    assert GAME.legal_actions(s, MICHAEL) == [Keep(MICHAEL, cid("Babylon")), Discard(MICHAEL, cid("Babylon"))]
    refused(s, Keep(MICHAEL, cid("Rome")), "wrong_tile")
    s = act(s, Keep(MICHAEL, cid("Babylon")))
    assert s.cities[PETER] == [] and cid("Rome") in s.retired  # nothing to pay with: no question
    assert s.resources[MICHAEL] == 0 and s.cities[MICHAEL] == [cid("Babylon")]
    assert s.phase == "order"  # the VP phase ran; after an A turn, turn order comes next
    assert s.vp[MICHAEL] == DATA.cities[cid("Babylon")].vp + 1


def test_city_food_upkeep_is_kept_or_the_city_discarded_before_scoring() -> None:
    """"Some city tiles also have upkeep costs to be paid during the Food phase ... If you cannot or
    do not want to pay the cost, you must discard the city tile before scoring victory points.\""""
    for keep in (True, False):
        s = arranged(players=2)
        s.order = [MICHAEL, PETER]
        s.cities[PETER] = [cid("Mycenae")]  # 2 VP, costs 1 food
        s.act_no = 11
        s.task = phases.new_task(PETER)
        s = act(s, Select(PETER, "empire", 3), TakeEmpire(PETER, "e1"), Stop(PETER))
        assert s.phase == "food_upkeep" and GAME.actors(s) == frozenset({PETER})
        assert s.food == [16, 16]  # the Food phase waits for the decision
        s = act(s, (Keep if keep else Discard)(PETER, cid("Mycenae")))
        assert s.phase == "order"
        assert (s.food[PETER], s.vp[PETER]) == ((15, 2) if keep else (16, 0))
        assert (cid("Mycenae") in s.retired) is not keep


def test_turn_order_least_vp_chooses_first_with_tie_breaks() -> None:
    """Least VP chooses first; ties by fewest game tokens (gold, cubes, resource discs), then the
    player further back in the previous turn order."""
    s = arranged(players=4)
    s.order = [MICHAEL, PETER, DAN, LIN]
    s.vp = [3, 1, 3, 3]
    s.gold = [5, 5, 2, 5]
    c = ctx(s)
    flow.start_order(c)
    assert s.choosers == [PETER, DAN, LIN, MICHAEL]
    assert GAME.actors(s) == frozenset({PETER})
    s = act(s, ChooseOrder(PETER, 2))
    refused(s, ChooseOrder(DAN, 2), "position_taken")
    s = act(s, ChooseOrder(DAN, 0), ChooseOrder(LIN, 3))
    assert s.turn == 2 and s.order == [DAN, MICHAEL, PETER, LIN]  # Michael got the last place left
    assert GAME.actors(s) == frozenset({DAN})


# -- new tiles -------------------------------------------------------------------------------------
def test_new_tiles_phase_leftovers_wonders_and_empire_sides() -> None:
    """Unselected tiles stay available (4-5 players) and new ones are turned up; unselected wonders
    leave; empire tiles return (era II/III side from turn 3); the trade track is emptied; turn 5
    turns up 8 city tiles."""
    s = arranged(players=4, turn=2)
    wonder = cid("Pyramids")
    s.open_city.append(wonder)
    for box in s.city_boxes:
        if wonder in box:
            box.remove(wonder)
    left_progress = s.open_progress[:3]
    s.open_progress = left_progress[:]
    s.trade_used = {"t1": PETER}
    s.open_empires = ["e3"]
    s.turn = 3
    phases.new_tiles(ctx(s))
    assert s.open_progress[:3] == left_progress and len(s.open_progress) == 11
    assert wonder in s.retired and wonder not in s.open_city
    assert s.open_empires == sorted(DATA.empires) and s.trade_used == {}
    assert GAME.view(s, None)["tiles"]["empire"][0]["regions"] == DATA.empires["e1"].era2.regions


def test_city_tiles_turned_up_per_turn() -> None:
    """Five city tiles a turn (the top row only), eight from the A turn of era III."""
    s = arranged(players=5)
    flipped = []
    for turn_no in range(2, 7):
        s.turn = turn_no
        c = ctx(s)
        phases.new_tiles(c)
        event = next(e for e in c.events if e.type == "new_tiles")
        flipped.append(sum(1 for t in event.data["flipped"] if t.startswith("c")))
        eras = {(DATA.cities[t].era, DATA.cities[t].row) for t in event.data["flipped"] if t.startswith("c")}
        assert eras == {((turn_no + 1) // 2, "AB"[(turn_no + 1) % 2])}
    assert flipped == [5, 5, 5, 8, 8]
    assert all(not box for box in s.city_boxes)


def test_new_tiles_in_two_and_three_player_games_remove_leftovers_unless_red() -> None:
    s = arranged(players=3)
    s.open_progress = [pid("Writing"), pid("Agriculture")]  # Writing stays (red lower part)
    s.open_territory = [tid("Market Town"), tid("Plains")]
    s.turn = 2
    phases.new_tiles(ctx(s))
    assert s.open_progress[0] == pid("Writing") and pid("Agriculture") in s.retired
    assert s.open_territory[0] == tid("Market Town") and tid("Plains") in s.retired


def test_territory_supply_runs_out_in_era_two_b() -> None:
    s = arranged(players=5)
    for t in (2, 3, 4):
        s.turn = t
        phases.new_tiles(ctx(s))
    assert all(not box for box in s.territory_boxes)
    assert len(s.open_territory) == 40


# -- end of era, end of game -----------------------------------------------------------------------
def test_end_of_era_keeps_tiles_for_a_price_and_halves_cubes() -> None:
    """End of an era: keep progress tiles for a gold each, city tiles for a pool cube each, or lose
    them; territory tiles stay; half of each player's cubes in each region (rounded up) leave."""
    s = arranged(players=2, turn=2)
    s.order = [MICHAEL, PETER]
    s.progress[MICHAEL] = [pid("Agriculture"), pid("Pottery")]
    s.cities[MICHAEL] = [cid("Memphis")]
    s.territory[MICHAEL] = [tid("Plains")]
    s.gold = [1, 0]
    s.progress[PETER] = [pid("Writing")]
    s.cubes = {"nw_africa": [3, 1], "ne_africa": [4, 0]}
    s.phase = Phase.UPKEEP
    flow.settle(ctx(s))
    assert s.phase == "era_end" and GAME.actors(s) == frozenset({MICHAEL})
    s = act(s, Keep(MICHAEL, pid("Agriculture")))
    assert s.gold[MICHAEL] == 0
    # No gold left for Pottery: it goes without a question; Peter cannot pay either.
    assert s.pending[0] == {"player": MICHAEL, "kind": "keep_city", "tile": cid("Memphis")}
    assert pid("Pottery") in s.retired
    pool, stock = s.pool[MICHAEL], s.stock[MICHAEL]
    s = act(s, Keep(MICHAEL, cid("Memphis")))
    assert s.progress == [[pid("Agriculture")], []] and s.cities[MICHAEL] == [cid("Memphis")]
    # The cube paid, then half (rounded up) of 3 and of 4 cubes go back to stock.
    assert s.pool[MICHAEL] == pool - 1 and s.stock[MICHAEL] == stock + 1 + 2 + 2
    assert s.stock[PETER] == 25 + 1 and pid("Writing") in s.retired
    assert s.territory[MICHAEL] == [tid("Plains")]
    assert s.cubes == {"nw_africa": [1, 0], "ne_africa": [2, 0]}
    assert s.phase == "order"


def test_no_upkeep_after_the_last_era_and_final_bonus() -> None:
    """No end-of-era upkeep after era III; then a VP per three gold and per three resource discs;
    ties go to the most gold."""
    s = arranged(players=2, turn=6)
    s.order = [MICHAEL, PETER]
    s.progress[MICHAEL] = [pid("Democracy")]
    s.gold = [8, 11]
    s.resources = [5, 0]
    s.vp = [10, 10]
    s.cubes = {"russia": [3, 0]}
    s.phase = Phase.UPKEEP
    flow.settle(ctx(s))
    assert s.phase == "over"
    # Michael: 10 + Democracy 3 + Russia 4, + 8 // 3 + 5 // 3 = 20; Peter: 10 + 11 // 3 = 13.
    assert GAME.scores(s) == [20, 13]
    assert s.progress[MICHAEL] == [pid("Democracy")] and s.cubes == {"russia": [3, 0]}
    s.vp = [13, 13]
    assert GAME.ranking(s) == [PETER, MICHAEL]
    assert GAME.actors(s) == frozenset() and GAME.legal_actions(s, MICHAEL) == []


# -- plumbing --------------------------------------------------------------------------------------
def test_not_your_turn_and_wrong_step_leave_the_state_untouched() -> None:
    s = arranged()
    refused(s, Select(PETER, "empire", 7), "not_your_turn")
    refused(s, PlaceCube(MICHAEL, "nw_africa"), "wrong_step")
    refused(s, Select(MICHAEL, "nowhere", 0), "unknown_row")
    s = act(s, Select(MICHAEL, "territory", 7))
    refused(s, TakeProgress(MICHAEL, s.open_progress[0]), "wrong_row")
    refused(s, TakeTerritory(MICHAEL, "t99"), "tile_not_available")


def test_a_move_of_another_step_is_refused_with_what_the_game_waits_for() -> None:
    """A move the step does not take gets one sentence saying what the game is waiting for, in the
    words of that step (an action chosen, a cube placed, a tile kept), not a list of move kinds."""
    s = arranged()
    with pytest.raises(IllegalAction) as info:
        GAME.apply(s, Keep(MICHAEL, pid("Writing")))
    assert info.value.code == "wrong_step"
    assert "waiting for an action to be chosen" in info.value.message
    s = act(s, Select(MICHAEL, "empire", 7), TakeEmpire(MICHAEL, "e2"))
    with pytest.raises(IllegalAction) as info:
        GAME.apply(s, Select(MICHAEL, "city", 7))
    assert "waiting for the empire tile's cubes to be placed" in info.value.message
    k = arranged()
    k.cities[MICHAEL] = [cid("Babylon")]
    k.phase, k.task = Phase.UPKEEP, None
    k.pending = [{"player": MICHAEL, "kind": "upkeep", "tile": cid("Babylon")}]
    with pytest.raises(IllegalAction) as info:
        GAME.apply(k, Stop(MICHAEL))
    assert info.value.code == "wrong_step" and "upkeep" in info.value.message


def test_a_saved_game_loads_its_phase_and_stage_and_plays_on() -> None:
    """A stored state holds its phase and an action's stage as plain strings (as every game saved
    before they were enums); read back, the game goes on from them: the end of an era's last tile
    decision leads on to turn order, and a player placing cubes is still placing."""
    s = arranged(players=2, turn=2)
    s.order = [MICHAEL, PETER]
    s.progress[MICHAEL] = [pid("Agriculture")]
    s.gold = [3, 0]
    s.phase = Phase.UPKEEP
    flow.settle(ctx(s))
    stored = json.loads(s.dumps())
    assert (stored["phase"], stored["pending"][0]["tile"]) == ("era_end", pid("Agriculture"))
    loaded = GAME.from_json(stored)
    assert loaded.phase is Phase.ERA_END
    after = act(loaded, Keep(MICHAEL, pid("Agriculture")))
    assert after.phase is Phase.ORDER and after.gold[MICHAEL] == 2
    placing = act(arranged(), Select(MICHAEL, "empire", 7), TakeEmpire(MICHAEL, "e2"))
    stored = json.loads(placing.dumps())
    assert stored["task"]["stage"] == "place"
    loaded = GAME.from_json(stored)
    assert loaded.task is not None and loaded.task["stage"] is Stage.PLACE
    assert ai.placing(loaded, MICHAEL) == "e2"  # the greedy player counts the cubes still to place
    assert PlaceCube(MICHAEL, "nw_africa") in GAME.legal_actions(loaded, MICHAEL)


def test_malformed_actions_are_refused() -> None:
    # wrongly typed fields are refused by the codec itself, before any rule runs
    for data in ({"kind": "select", "player": 0, "row": "empire", "circle": "7"},
                 {"kind": "select", "player": 0, "row": 3, "circle": 7},
                 {"kind": "take_back", "player": 0, "row": "empire", "circle": 0, "gold": "1"}):
        with pytest.raises(IllegalAction) as info:
            CODEC.decode(data)
        assert info.value.code == "bad_action", data
    s = b_turn()
    refused(s, Select(MICHAEL, "empire", 0), "b_turn")
    refused(s, TakeBack(MICHAEL, "empire", 99), "not_your_disc")


def test_a_whole_turn_then_the_mirrored_b_turn() -> None:
    """Each player takes 6 actions in the A turn, one at a time in turn order, leaving a disc for
    each on the display; in the B turn each removes one disc per action, so the era ends with an
    empty display."""
    s = GAME.setup(3, {}, 5)
    first_order = s.order[:]
    ais = [make_policy("random", 40 + p) for p in range(3)]
    starts: list[int] = []
    passes = [0, 0, 0]
    while s.turn == 1 and s.phase == "actions":
        seat = min(GAME.actors(s))
        if s.task is not None and s.task["stage"] == "choose" and s.act_no == len(starts):
            starts.append(seat)
        action = ais[seat].choose(s, seat)
        passes[seat] += isinstance(action, Pass)
        s = act(s, action)
    assert starts == [first_order[i % 3] for i in range(18)]
    discs = [sum(row.count(p) for row in s.display.values()) for p in range(3)]
    assert [d + n for d, n in zip(discs, passes, strict=True)] == [6, 6, 6]
    while not (s.turn == 2 and s.phase == "order"):
        seat = min(GAME.actors(s))
        s = act(s, ais[seat].choose(s, seat))
    assert all(c == EMPTY for row in s.display.values() for c in row)


def test_actions_round_trip_through_the_codec() -> None:
    actions: list[Any] = [Select(0, "city", 3), TakeBack(1, "city", 3, vp=2, food=1),
                          Battle(2, "balkans", 1, 0), UseTile(0, "p05", "nw_africa", -1), ChooseOrder(3, 1),
                          Stop(0)]
    for a in actions:
        assert CODEC.decode(json.loads(json.dumps(a.to_json()))) == a


def test_check_data_is_clean_and_counts_match_the_rulebook() -> None:
    assert GAME.check_data() == []
    assert len(DATA.progress) == 48 and len(DATA.territory) == 40 and len(DATA.cities) == 36
    assert sum(1 for c in DATA.cities.values() if c.wonder) == 6 and len(DATA.empires) == 8
    seas = [r for r in DATA.regions.values() if r.sea]
    assert [r.id for r in seas] == ["mediterranean"]
    assert "sw_europe" in DATA.adjacent["nw_africa"] and "sw_europe" not in DATA.adjacent["ne_africa"]


def test_taking_navigation_opens_the_new_world_for_everyone_in_era_two_a() -> None:
    s = arranged(turn=3)
    s.open_progress = [pid("Navigation")]
    s = act(s, Select(MICHAEL, "progress", 7), TakeProgress(MICHAEL, pid("Navigation")))
    assert s.navigation
    s = act(s, Select(PETER, "empire", 7), TakeEmpire(PETER, "e1"), PlaceCube(PETER, "south_america"))
    assert cubes(s, "south_america")[PETER] == 1


def test_check_data_reports_every_problem(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Strict validation: broken files are reported all at once, naming the file and the entry."""
    import shutil

    import engine.rise.data as data_module

    shutil.copytree(data_module.DATA_DIR, tmp_path / "rise")
    map_file = tmp_path / "rise" / "map.yaml"
    text = map_file.read_text(encoding="utf-8")
    text = text.replace("  - [ne_africa, near_east]\n",
                        "  - [ne_africa, near_east]\n  - [ne_africa, sw_europe]\n")
    text = text.replace("standard: [2, 1], yields: {gold: 1}, anchor: [22.0, 41.5]",
                        "standard: [1, 2], yields: {gold: 1}, anchor: [22.0, 41.5]")
    map_file.write_text(text, encoding="utf-8")
    progress_file = tmp_path / "rise" / "progress.yaml"
    text = progress_file.read_text(encoding="utf-8").replace("name: Printing", "name: Typesetting")
    progress_file.write_text(text, encoding="utf-8")
    monkeypatch.setattr(data_module, "DATA_DIR", tmp_path / "rise")
    problems = data_module.check_data()
    assert "map.yaml: NE Africa must not touch SW Europe (rulebook example)" in problems
    assert any(p.startswith("map.yaml: region balkans: standard") for p in problems)
    assert "progress.yaml: the rulebook's Printing tile is missing" in problems


# -- readings written down in data/rise/README.md (issue 15, point 16) ----------------------------------
def test_reading_weapons_removes_a_cube_only_where_you_have_cubes() -> None:
    """Dan "uses the Weapons tile he acquired earlier and removes a green player cube from the world map".
    Reading: like a battle, which must be in "one region in which you have cubes and at least one other
    player has cubes", a Weapons-type tile removes a rival cube only from a region where you have cubes."""
    s = arranged(players=3)
    weapons = pid("Weapons")
    s.progress[MICHAEL].append(weapons)
    put(s, "nw_africa", MICHAEL, 1)
    put(s, "nw_africa", PETER, 1)
    put(s, "near_east", PETER, 2)  # Michael has no cube there
    uses = [(a.region, a.target) for a in GAME.legal_actions(s, MICHAEL) if isinstance(a, UseTile)]
    assert uses == [("nw_africa", PETER)]
    refused(s, UseTile(MICHAEL, weapons, "near_east", PETER), "no_cubes_there")


def test_reading_the_new_world_and_the_far_east_ignore_adjacency() -> None:
    """"In Era-II and Era-III, empire tiles depicting light blue "water" also allow you to place cubes in
    the New World or the Far East parts of the world map", against "All cubes must be placed in or
    adjacent to regions already containing cubes". Reading: the New World and the Far East are reached
    over water, so a water tile places there whatever its player holds in the Old World."""
    s = arranged(turn=4)
    put(s, "sw_europe", MICHAEL, 2)
    s.display["empire"][7] = MICHAEL
    s = act(s, TakeBack(MICHAEL, "empire", 7), TakeEmpire(MICHAEL, "e1"))  # water, 2 regions
    placeable = {a.region for a in GAME.legal_actions(s, MICHAEL) if isinstance(a, PlaceCube)}
    assert {"china", "india", "north_america", "south_america"} <= placeable
    assert "persia" not in placeable  # an Old World region far from SW Europe still needs a link
    s = act(s, PlaceCube(MICHAEL, "china"), PlaceCube(MICHAEL, "sw_europe"))
    assert cubes(s, "china")[MICHAEL] == 1 and cubes(s, "sw_europe")[MICHAEL] == 3


def test_reading_turn_order_game_tokens_count_pool_cubes_only() -> None:
    """"In the case of a tie, the player with the least number of game tokens takes precedence. "Game
    tokens" are: gold, cubes, and resource discs." Reading: the cubes are those in the pool (every player
    owns 30 in all, so counting the map or the stock too would tie everybody). Peter, with the same VP,
    gold and resources as Michael but more cubes on the map and fewer in his pool, chooses first (counting
    every cube, the tie would go to Michael, further back in the previous turn order)."""
    s = arranged(players=2)
    s.order = [PETER, MICHAEL]
    s.vp = [4, 4]
    s.pool = [3, 1]
    s.stock = [27, 19]  # Peter has 10 cubes on the map
    put(s, "balkans", PETER, 10)
    s.pool[PETER] = 1
    c = ctx(s)
    flow.start_order(c)
    assert c.events[0].data["choosers"] == [PETER, MICHAEL]


def test_reading_a_city_that_costs_food_can_always_be_kept_at_a_cost_in_victory_points() -> None:
    """"Some city tiles also have "upkeep costs" to be paid during the Food phase" and "If you reach the
    zero box of the food track, you lose one victory point for each food point you are unable to go
    down." Reading: a city's food is paid on the food track, which never refuses a payment, so keeping the
    city is always allowed even with no food left; the shortfall costs victory points."""
    s = arranged(players=2)
    s.order = [MICHAEL, PETER]
    s.cities[PETER] = [cid("Mycenae")]  # 2 VP, costs 1 food
    s.food[PETER] = 0
    s.vp[PETER] = 5
    s.act_no = 11
    s.task = phases.new_task(PETER)
    s = act(s, Select(PETER, "empire", 3), TakeEmpire(PETER, "e1"), Stop(PETER))
    assert GAME.legal_actions(s, PETER) == [Keep(PETER, cid("Mycenae")), Discard(PETER, cid("Mycenae"))]
    s = act(s, Keep(PETER, cid("Mycenae")))
    assert s.food[PETER] == 0 and s.vp[PETER] == 5 - 1 + 2  # one VP for the missing food, two for the city


def test_only_what_the_rulebook_names_is_attributed_to_it() -> None:
    """Every data entry marked ``source: rulebook`` is named in the rulebook: the regions of its examples
    ("NW Africa", "NE Africa", "SW Europe (Spain/France/Italy)", "the Mediterranean"), the progress tiles
    it names ("Agriculture", "two Iron Axes", "Weapons", "Printing", "Navigation"), the four territory
    kinds with their yields, and the trade boxes of its examples ("the 2-4 box", "the 7-6 box").
    Scandinavia, which it never names, is ours."""
    def attributed(file: str, key: str) -> set[str]:
        raw = yaml.safe_load((DATA_DIR / file).read_text(encoding="utf-8"))
        return {str(e.get("name", e.get("id"))) for e in raw[key] if e.get("source") == "rulebook"}

    assert attributed("map.yaml", "regions") == {"NW Africa", "NE Africa", "SW Europe (Spain/France/Italy)",
                                                 "Mediterranean"}
    assert attributed("progress.yaml", "kinds") == {"Agriculture", "Iron Axe", "Weapons", "Printing",
                                                    "Navigation"}
    assert attributed("territory.yaml", "kinds") == {"Plains", "Island", "Forest", "Mountain"}
    assert attributed("rules.yaml", "trade") == {"t2", "t10"}
    boxes = {b.id: (b.resources, b.gold or b.vp) for b in DATA.trade.values()}
    assert (boxes["t2"], boxes["t10"]) == ((2, 4), (7, 6))


def test_the_skip_policy_plays_the_most_passive_move() -> None:
    """A player who lets the clock run out keeps what they are asked about, stops placing, skips a paid
    B-turn action; where the rulebook forces a move ("You may only select an action if you can perform
    it") they take a territory tile (it costs nothing) or the cheapest disc, paid gold first."""
    s = arranged()
    assert GAME.timeout_action(s, MICHAEL) == Select(MICHAEL, "territory", 7)
    s = act(s, Select(MICHAEL, "empire", 7), TakeEmpire(MICHAEL, "e2"))
    assert GAME.timeout_action(s, MICHAEL) == Stop(MICHAEL)
    b = b_turn()
    b.display["city"] = [PETER, DAN, MICHAEL, EMPTY, EMPTY, EMPTY, EMPTY, EMPTY]
    b.display["trade"] = [PETER, MICHAEL, EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, EMPTY]
    assert GAME.timeout_action(b, MICHAEL) == TakeBack(MICHAEL, "trade", 1, gold=1)
    b = act(b, TakeBack(MICHAEL, "trade", 1, food=1))
    assert GAME.timeout_action(b, MICHAEL) == Skip(MICHAEL)
    k = arranged()
    k.cities[MICHAEL] = [cid("Babylon")]
    k.phase, k.task = Phase.UPKEEP, None
    k.pending = [{"player": MICHAEL, "kind": "upkeep", "tile": cid("Babylon")}]
    assert GAME.timeout_action(k, MICHAEL) == Keep(MICHAEL, cid("Babylon"))
