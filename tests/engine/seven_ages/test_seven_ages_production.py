"""7 Ages, 2 Production (L473-521): income, maintenance, building, elite markers; the rulebook's examples
E11-E14."""

from __future__ import annotations

from engine.seven_ages.actions import Build, BuildElite, Done, Fortify, Unmaintain
from engine.seven_ages.cards import load_deck
from engine.seven_ages.production import elite_cost, income
from engine.seven_ages.state import MAX_MONEY
from tests.support.seven_ages_builder import Scenario

SPEARS = {"Spear": 1}


def producing(s: Scenario, seat: int, empire: str) -> Scenario:
    return s.marker(seat, "production", empire).at("production").turn_over(seat, empire)


def test_egypt_income_example() -> None:
    """E11 (L485): 'Fertile areas with wheat produce 5 income and a value 1 city adds 1, so Egypt will
    earn 6 income this turn. If it were disordered, it would earn no income.'"""
    s = Scenario(2).empire("Egyptians", 0, 3, capital="Egypt", units={"Egypt": SPEARS}).city("Egypt", 1)
    producing(s, 0, "Egyptians")
    assert s.of_type("income")[-1]["amount"] == 6
    assert s.empire_of("Egyptians").money == 6 - 1  # and 1 to maintain its spear (L499)
    s.disorder("Egypt")
    assert income(s.state, s.empire_of("Egyptians")) == 0


def test_germany_income_by_age() -> None:
    """E12 (L489): 'Germany (J4) with a value 3 city provides 5 income to the Germans (card 33) before
    they enter age 5. In age 5, Germany provides 7 income and, in ages 6 and 7, 8 income (because the
    forest disappears).'"""
    by_level = {}
    for level in (22, 28, 29, 35, 36, 43, 49):
        s = Scenario(2).empire("Germans", 0, level, capital="Germany", units={"Germany": SPEARS})
        s.city("Germany", 3)
        by_level[level] = income(s.state, s.empire_of("Germans"))
    assert by_level == {22: 5, 28: 5, 29: 7, 35: 7, 36: 8, 43: 8, 49: 8}


def test_no_capital_halves_income_rounding_half_up() -> None:
    """'Halve your total income if your empire has no capital (rounded ...)' (L497); 'round it to the
    nearest whole number (0.5 rounding up)' (L2197). Egypt's 5 without a city halves to 3."""
    s = Scenario(2).empire("Egyptians", 0, 3, units={"Egypt": SPEARS})
    assert income(s.state, s.empire_of("Egyptians")) == 3


def test_populist_doubles_an_area() -> None:
    """'Double the value of each area that contains a Populist' (L493)."""
    s = Scenario(2).empire("Egyptians", 0, 3, capital="Egypt", units={"Egypt": SPEARS},
                           leaders={"Demagogue": ("Populist", "Egypt")}).city("Egypt", 1)
    assert income(s.state, s.empire_of("Egyptians")) == 12


def test_money_never_above_199() -> None:
    """'(a maximum of 199 at any time)' (L479)."""
    s = Scenario(2).empire("Egyptians", 0, 3, money=197, capital="Egypt", units={"Egypt": SPEARS})
    s.city("Egypt", 1)
    producing(s, 0, "Egyptians")
    assert s.of_type("income")[-1]["money"] == MAX_MONEY
    assert s.empire_of("Egyptians").money == MAX_MONEY - 1


def test_unmaintained_units_return_and_disorder_their_area() -> None:
    """'If you can't, you choose which are not maintained ... Disorder each Land area where units were not
    maintained, unless it's now vacant' (L501-503)."""
    s = Scenario(2).empire("Egyptians", 0, 3, money=0, capital="Egypt",
                           units={"Egypt": {"Spear": 4}, "Nubia": {"Spear": 1}, "Sudan": {"Spear": 1}})
    producing(s, 0, "Egyptians")  # it can pay for all six: it must (L501)
    e = s.empire_of("Egyptians")
    earned = s.of_type("income")[-1]["amount"]
    assert earned == 5 + 0 + 2  # Egypt fertile with wheat, Nubia desert, Sudan steppe
    assert s.go_stage(0) == "build" and e.money == earned - 6
    poor = Scenario(2).empire("Egyptians", 0, 3, money=0, units={"Egypt": {"Spear": 4}, "Nubia": {"Spear": 1},
                                                                 "Sudan": {"Spear": 2}})
    producing(poor, 0, "Egyptians")  # no capital: (5 + 2) / 2 = 4 for 7 units
    assert poor.go_stage(0) == "maintain"
    poor.illegal(Done(0), "must_unmaintain")
    poor.play(Unmaintain(0, "Spear", "Egypt"), Unmaintain(0, "Spear", "Sudan"))
    assert poor.go_stage(0) == "maintain"
    poor.play(Unmaintain(0, "Spear", "Nubia"))  # Nubia is now vacant
    e = poor.empire_of("Egyptians")
    assert poor.go_stage(0) == "build" and e.money == 0 and e.count() == 4
    assert poor.area("Egypt").disorder and poor.area("Sudan").disorder and not poor.area("Nubia").disorder


def test_barbarian_units_need_no_maintenance() -> None:
    """'Barbarian empires' units don't require maintenance' (L501)."""
    s = Scenario(2).empire("Jurchens", 0, 13, units={"Manchuria": {"Spear": 3}})
    producing(s, 0, "Jurchens")
    assert s.empire_of("Jurchens").money == s.of_type("income")[-1]["amount"]


def test_placement_limit_example() -> None:
    """E13 (L513): 'You may place any number of units in an area that contains an Administrator.
    Otherwise, you may only place as many units in an area as the value of the city there (e.g., you
    could place 5 units in an area with a value 5 city). You may place one unit in each area without
    a city.'"""
    s = Scenario(2).empire("Romans", 0, 16, money=100, capital="Latium", colour="multi-coloured green",
                           units={"Latium": SPEARS, "Tuscany": SPEARS}).city("Latium", 5)
    producing(s, 0, "Romans")
    for unit in ("Spear", "Spear", "Archer", "Archer", "Sword"):
        s.play(Build(0, unit, "Latium"))
    assert not any(isinstance(a, Build) and a.area == "Latium" for a in s.legal(0))
    s.illegal(Build(0, "Spear", "Latium"), "placement_limit")
    s.play(Build(0, "Spear", "Tuscany"))
    s.illegal(Build(0, "Spear", "Tuscany"), "placement_limit")
    admin = Scenario(2).empire("Romans", 0, 16, money=100, capital="Latium", colour="multi-coloured green",
                               units={"Tuscany": SPEARS}, leaders={"Augustus": ("Administrator", "Tuscany")})
    producing(admin, 0, "Romans")
    for unit in ("Spear", "Spear", "Spear", "Sword", "Sword", "Archer", "Archer"):
        admin.play(Build(0, unit, "Tuscany"))
    assert admin.empire_of("Romans").count("Tuscany") == 8


def test_unit_costs_and_availability() -> None:
    """Costs by class (L2833-2837), 1 less with an Administrator, infantry only in the capital (L507);
    units only from their progress level (L505)."""
    s = Scenario(2).empire("Romans", 0, 11, money=100, capital="Latium",
                           units={"Latium": SPEARS, "Tuscany": SPEARS},
                           leaders={"Augustus": ("Administrator", "Tuscany")}).city("Latium", 5)
    producing(s, 0, "Romans")
    units = {a.unit for a in s.legal(0) if isinstance(a, Build)}
    assert "Catapult" in units and "Sword" not in units  # catapults at 11, swords at 12
    money = s.empire_of("Romans").money
    s.play(Build(0, "Spear", "Tuscany"))  # infantry: the Administrator is not in the capital
    assert s.empire_of("Romans").money == money - 2
    s.play(Done(0))
    s2 = Scenario(2).empire("Romans", 0, 11, money=100, capital="Latium", units={"Tuscany": SPEARS},
                            leaders={"Augustus": ("Administrator", "Tuscany")})
    producing(s2, 0, "Romans")
    money = s2.empire_of("Romans").money
    s2.play(Build(0, "Chariot", "Tuscany"))
    assert s2.empire_of("Romans").money == money - 3  # cavalry 4, less 1


def test_ships_only_on_coasts_and_not_before_trade_when_barred() -> None:
    """'You may only build ships in coastal areas and Sea areas (not ocean areas) the empire controls'
    (L511); the 'no ships' icon holds until the empire first trades (L515)."""
    inland = Scenario(2).empire("Egyptians", 0, 5, money=100, capital="Egypt",
                                units={"Egypt": SPEARS, "Sudan": SPEARS})
    producing(inland, 0, "Egyptians")
    galleys = {a.area for a in inland.legal(0) if isinstance(a, Build) and a.unit == "Galley"}
    assert galleys == {"Egypt"}  # the Sudan has no coast
    inca = load_deck().by_empire("Inca").empire
    home = inca.starts[0]
    for flags, can in (((), False), (("traded",), True)):
        barred = Scenario(2).empire("Inca", 0, 20, money=100, capital=home, units={home: SPEARS}, flags=flags)
        producing(barred, 0, "Inca")
        assert any(isinstance(a, Build) and a.unit == "Galley" for a in barred.legal(0)) is can


def test_elite_cost_example() -> None:
    """E14 (L519): 'if the Romans (card 12) have 14 units on the map it costs them 14 to build an elite
    marker ... the Romans would only pay 3 if 13 of their 14 units were stacked with Caesar'."""
    s = Scenario(2).empire("Romans", 0, 16, money=50, capital="Latium",
                           units={"Latium": {"Spear": 7, "Archer": 3}, "Tuscany": {"Spear": 4}})
    assert elite_cost(s.empire_of("Romans")) == 14
    caesar = Scenario(2).empire("Romans", 0, 16, money=50, capital="Latium",
                                units={"Latium": {"Spear": 7, "Archer": 3, "Chariot": 3}, "Tuscany": SPEARS},
                                leaders={"Caesar": ("Tactician", "Latium")})
    assert elite_cost(caesar.empire_of("Romans")) == 3
    producing(caesar, 0, "Romans")
    caesar.play(BuildElite(0))
    assert caesar.empire_of("Romans").elite == 1
    assert BuildElite(0) not in caesar.legal(0)  # one elite marker per production (L519)


def test_forts_cost_five_or_four_with_a_builder() -> None:
    """'Each fort costs 5 money to build (4 if a Builder is in the area)' (L517)."""
    s = Scenario(2).empire("Egyptians", 0, 3, money=20, capital="Egypt",
                           units={"Egypt": SPEARS, "Nubia": SPEARS}, leaders={"Khufu": ("Builder", "Nubia")})
    producing(s, 0, "Egyptians")
    money = s.empire_of("Egyptians").money
    s.play(Fortify(0, "Nubia"))
    assert s.empire_of("Egyptians").money == money - 4
    s.play(Fortify(0, "Egypt"))
    assert s.empire_of("Egyptians").money == money - 9
    assert Fortify(0, "Egypt") not in s.legal(0)


def test_production_is_taken_by_every_player_at_once() -> None:
    """Production runs for every player at once (L373: when players don't interact)."""
    s = Scenario(3).empire("Egyptians", 0, 3, units={"Egypt": SPEARS}).empire("Assyrians", 1, 3,
                                                                             units={"Assyria": SPEARS})
    s.marker(0, "production", "Egyptians").marker(1, "production", "Assyrians").at("production")
    assert s.actors() == {0, 1}


def _most(s: Scenario, unit: str, area: str) -> int:
    return max((a.count for a in s.legal(0) if isinstance(a, Build) and (a.unit, a.area) == (unit, area)),
               default=0)


def test_a_build_takes_a_count_in_one_move() -> None:
    """Building three spears is one move, not three: 'Spear x 3 in Latium' pays 3 spears' cost (L507)
    and counts 3 against Latium's placement limit (L513)."""
    s = Scenario(2).empire("Romans", 0, 16, money=100, capital="Latium", colour="multi-coloured green",
                           units={"Latium": SPEARS}).city("Latium", 5)
    producing(s, 0, "Romans")
    money = s.empire_of("Romans").money
    s.play(Build(0, "Spear", "Latium", 3))
    assert s.empire_of("Romans").count("Latium", "Spear") == 4
    assert s.empire_of("Romans").money == money - 3 * 2  # infantry costs 2 (L2833)
    # one public event, naming no unit type (fog of war, L791)
    assert s.of_type("unit_built")[-1] == {"seat": 0, "empire": s.empire_of("Romans").card, "area": "Latium",
                                           "cost": 6, "count": 3}
    assert _most(s, "Archer", "Latium") == 2  # a value-5 city takes 5 units a production, 3 placed
    s.illegal(Build(0, "Archer", "Latium", 3), "too_many")
    s.illegal(Build(0, "Archer", "Latium", 0), "bad_count")


def test_the_count_is_bounded_by_money_and_pool() -> None:
    """The most a build offers is what the money pays for and what the colour's mix has left (L80: a
    counter's unit is in the pool only when not on the map); multi-coloured green has 8 spear counters."""
    s = Scenario(2).empire("Romans", 0, 16, money=100, capital="Latium", colour="multi-coloured green",
                           units={"Latium": {"Spear": 5}}, leaders={"Augustus": ("Administrator", "Latium")})
    producing(s, 0, "Romans")
    assert _most(s, "Spear", "Latium") == 3  # 8 counters, 5 on the map; no placement limit here
    poor = Scenario(2).empire("Romans", 0, 16, money=0, capital="Latium", colour="multi-coloured green",
                              units={"Latium": SPEARS}).city("Latium", 5)
    producing(poor, 0, "Romans")
    money = poor.empire_of("Romans").money
    assert money // 2 < 5  # the money binds before the value-5 city's limit
    assert _most(poor, "Sword", "Latium") == money // 2  # swords cost 2 (L2833)
