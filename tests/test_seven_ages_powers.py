"""7 Ages option 16 (L1362-1999): the artefacts' powers that change numbers other parts compute, through
the modifier hooks (:mod:`engine.seven_ages.modifiers`), played where the rules compute them.

Every expected number is read from the rulebook passage the test quotes (and the rulebook's own examples:
E44 at L1429, E45 at L1524, E29 at L988); the E15 trade (L586-590: the Syracusans' trade number +2, the
Romans' +1, the Romans higher) is the stage for the trade powers.
"""

from __future__ import annotations

from dataclasses import replace

from engine.seven_ages import artefact_play, endturn, glory, modifiers, steps
from engine.seven_ages.actions import Build, TurnMarker, Unmaintain
from engine.seven_ages.artefact_powers import OPTION
from engine.seven_ages.civilisation_moves import FROM_DECK, RemoveDisorder, TradeCard, TradeLevels, Urbanise
from engine.seven_ages.civilise import removal_cost
from engine.seven_ages.map import load_map
from engine.seven_ages.production import fort_cost, income, maintenance, unit_cost
from engine.seven_ages.promotion import leader_number
from engine.seven_ages.state import PAST_THE_END
from tests.seven_ages_builder import Scenario
from tests.seven_ages_builder_civ import Table, cards_of_value
from tests.test_seven_ages_civilise import civilising, to_stage
from tests.test_seven_ages_production import producing

ON = {OPTION: True}


def on_card(t: Table | Scenario, empire: str, *names: str, government: str | None = None,
            religions: tuple[str, ...] = ()) -> None:
    """Artefacts on an empire's card, its government and religions (dominant first)."""
    e = t.empire_of(empire) if isinstance(t, Scenario) else t.of(empire)
    t.state = t.state.with_empire(replace(e, artefacts=(*e.artefacts, *names),
                                          government=government or e.government,
                                          religions=religions or e.religions))


# -- Production ------------------------------------------------------------------------------------------

def egyptians(options: dict[str, bool] | None = None, level: int = 10, city: int = 1,
              units: dict[str, dict[str, int]] | None = None) -> Scenario:
    s = Scenario(2, options).empire("Egyptians", 0, level, capital="Egypt",
                                    units=units or {"Egypt": {"Spear": 1}})
    return s.city("Egypt", city)


def test_autocracy_production_power_and_penalty() -> None:
    """Autocracy (L1398-1406): infantry and cavalry cost 1 less (minimum 1), units cost no maintenance;
    its penalty halves the income it earns in a Production. Egypt earns 6 (E11, L485): 3 for an Autocracy,
    and its spear costs nothing to maintain."""
    s = egyptians(ON)
    on_card(s, "Egyptians", government="Autocracy")
    e = s.empire_of("Egyptians")
    assert unit_cost(e, "Spear", "Egypt", state=s.state) == 2 - 1  # infantry costs 2 (L2833)
    assert unit_cost(e, "Chariot", "Egypt", state=s.state) == 4 - 1  # cavalry 4 (L2835)
    assert unit_cost(e, "Archer", "Egypt", state=s.state) == 3  # missile units are neither
    producing(s, 0, "Egyptians")
    assert s.of_type("income")[-1]["amount"] == 3
    assert s.empire_of("Egyptians").money == 3 and not s.of_type("maintained")


def test_autocracy_halving_adds_to_the_no_capital_halving() -> None:
    """"halves the income it earns in a Production action (cumulative if also Barbarian)" (L1406): Egypt's 6
    (E11) without a capital is halved twice, 6 / 4 = 1.5, rounded once, up (L2197): 2."""
    s = Scenario(2, ON).empire("Egyptians", 0, 10, units={"Egypt": {"Spear": 1}}).city("Egypt", 1)
    on_card(s, "Egyptians", government="Autocracy")
    assert income(s.state, s.empire_of("Egyptians")) == 2


def test_without_option_16_an_autocracy_changes_nothing() -> None:
    """Without option 16 artefacts give glory only (L929-931): E11's 6 income less 1 maintenance."""
    s = egyptians()
    on_card(s, "Egyptians", government="Autocracy")
    assert unit_cost(s.empire_of("Egyptians"), "Spear", "Egypt", state=s.state) == 2
    producing(s, 0, "Egyptians")
    assert s.of_type("income")[-1]["amount"] == 6 and s.empire_of("Egyptians").money == 5


def test_concentrated_ownership_costs_one_more_but_not_forts() -> None:
    """Concentrated ownership (L1461): "increases the cost of all units it builds by +1. There is no effect
    on the cost of forts." Revolution discards it (L1463)."""
    s = egyptians(ON)
    on_card(s, "Egyptians", "Concentrated ownership")
    e = s.empire_of("Egyptians")
    assert unit_cost(e, "Spear", "Egypt", state=s.state) == 3
    assert unit_cost(e, "Galley", "Egypt", state=s.state) == 6
    assert fort_cost(e, "Egypt") == 5
    ctx = steps.Ctx(s.state)
    artefact_play.played(ctx, e.card, "Revolution")
    assert "Concentrated ownership" not in ctx.state.empire(e.card).artefacts


def test_revolution_costs_and_what_it_does_when_played() -> None:
    """Revolution (L1887-1889): "Move the empire's progress marker back 3 Progress levels, disorder its
    capital and remove all its Religion artefacts. Reduce the cost of the empire's infantry units by 1
    (minimum 1) and increase the cost of its ships and aircraft units by 1." Any religion gained later
    removes it (L1894)."""
    s = egyptians(ON, level=20)
    on_card(s, "Egyptians", "Revolution", religions=("Pantheism",))
    e = s.empire_of("Egyptians")
    assert unit_cost(e, "Spear", "Egypt", state=s.state) == 1
    assert unit_cost(e, "Galley", "Egypt", state=s.state) == 6
    assert unit_cost(e, "Chariot", "Egypt", state=s.state) == 4
    ctx = steps.Ctx(s.state)
    artefact_play.played(ctx, e.card, "Revolution")
    after = ctx.state.empire(e.card)
    assert after.progress == 17 and ctx.state.area("Egypt").disorder and after.religions == ()
    artefact_play.played(ctx, e.card, "Buddhism")
    assert "Revolution" not in ctx.state.empire(e.card).artefacts


def test_industrial_revolution_doubles_city_income() -> None:
    """Industrial Revolution (L1686): "double the income they receive during Production from all their
    cities": a 3 city earns 3 more."""
    plain = egyptians(ON, level=40, city=3)
    s = egyptians(ON, level=40, city=3)
    s.artefact("Egypt", "Industrial Revolution")
    assert income(s.state, s.empire_of("Egyptians")) == income(plain.state, plain.empire_of("Egyptians")) + 3


def test_world_war_halves_the_total_cost_and_lifts_the_placement_limit() -> None:
    """World war (L1992): "all empires taking a Production action halve the total cost of new units they
    build and can place any number of units in any area". Two spears (2 each, L2833) cost 2; an archer (3,
    L2834) brings the total to 7, halved 4 (rounded half up, L2197): it costs 2. Nubia, without a city,
    takes all three (L513 allows 1)."""
    s = egyptians(ON, units={"Egypt": {"Spear": 1}, "Nubia": {"Spear": 1}}).set(world_war=45)
    s.state = s.state.with_empire(replace(s.empire_of("Egyptians"), money=20))
    producing(s, 0, "Egyptians")
    start = s.empire_of("Egyptians").money
    s.play(Build(0, "Spear", "Nubia", 2))
    assert s.empire_of("Egyptians").money == start - 2
    s.play(Build(0, "Archer", "Nubia", 1))
    assert s.empire_of("Egyptians").money == start - 4
    assert s.empire_of("Egyptians").count("Nubia") == 4


def test_universal_suffrage_maintenance_only_for_its_governments() -> None:
    """Universal suffrage (L1974-1978): only effects a Capitalist, Democratic or Socialist empire with
    Renaissance; "reduce the maintenance cost in each area by the value of any undisordered city in that
    area (minimum cost 1 per area)". Three spears under a 3 city cost 1, two in Nubia 2; an Autocracy
    ignores it (L1405) and pays nothing anyway (L1401)."""
    units = {"Egypt": {"Spear": 3}, "Nubia": {"Spear": 2}}
    s = egyptians(ON, level=30, city=3, units=units)
    on_card(s, "Egyptians", "Renaissance", "Universal suffrage", government="Democracy")
    assert maintenance(s.state, s.empire_of("Egyptians")) == 1 + 2
    s.disorder("Egypt")  # a disordered city reduces nothing
    assert maintenance(s.state, s.empire_of("Egyptians")) == 3 + 2
    bare = egyptians(ON, level=30, city=3, units=units)
    on_card(bare, "Egyptians", "Universal suffrage", government="Democracy")  # no Renaissance
    assert maintenance(bare.state, bare.empire_of("Egyptians")) == 5


# -- Trade and progress ----------------------------------------------------------------------------------

def e15(options: dict[str, bool] | None = ON, **mine: object) -> tuple[Table, list[int]]:
    """E15's trade (L586): the Syracusans (+2) play, the Romans (+1, higher) play Caesar's 5."""
    three, five, four, caesar, seven, zero = cards_of_value(3, 5, 4, 5, 7, 0)
    t = Table(2, options).empire("Syracusans", 0, 10, ["Sicily"]).empire("Romans", 1, 12, ["Latium"])
    t.hand(0, three, five, four, seven).hand(1, caesar, zero).marker(0, "trade", "Syracusans")
    return t, [three, five, four, caesar, seven, zero]


def start(t: Table) -> Table:
    return t.enter("trade").do(TurnMarker(0, 0))


def revealed(t: Table) -> list[int]:
    return list(t.named("trade_revealed")[-1].data["values"])


def test_pharos_printing_and_confucianism_change_the_trade_number() -> None:
    """Pharos lighthouse (L1828) and Printing (L1836) add 1 to the Trade number; Confucianism's penalty
    takes 1 (L1479), which a Socialist ignores (L1940). E15: a 3 gives the Syracusans 5."""
    t, c = e15()
    t.artefact("Sicily", "Pharos lighthouse").artefact("Sicily", "Printing")
    start(t).do(TradeCard(1, c[3]), TradeCard(0, c[0]))
    assert revealed(t) == [3 + 2 + 2, 6]
    t, c = e15()
    on_card(t, "Syracusans", religions=("Confucianism",))
    start(t).do(TradeCard(1, c[3]), TradeCard(0, c[0]))
    assert revealed(t)[0] == 4
    t, c = e15()
    on_card(t, "Syracusans", religions=("Confucianism",), government="Socialism")
    start(t).do(TradeCard(1, c[3]), TradeCard(0, c[0]))
    assert revealed(t)[0] == 5


def test_printing_adds_a_level_past_a_margin_of_seven() -> None:
    """Printing (L1836): "may advance its progress marker by an extra Progress level if it wins with a
    Trade value more than 7 higher". A 7 (+2, +1) against a 0 (+1): 10 to 1; E15's 3 levels become 4."""
    t, c = e15()
    t.artefact("Sicily", "Printing")
    start(t).do(TradeCard(1, c[5]), TradeCard(0, c[4]))
    assert t.legal(0) == [TradeLevels(0, n) for n in (4, 3, 2, 1)]


def test_autocracy_advances_one_level_fewer_in_a_trade_it_began() -> None:
    """Autocracy's penalty (L1407): "reduces by 1 the number of Progress levels it advances when it wins a
    Trade and progress it initiates". E15 won with a five: up to 3 levels (L590), an Autocracy 2."""
    t, c = e15()
    on_card(t, "Syracusans", government="Autocracy")
    start(t).do(TradeCard(1, c[3]), TradeCard(0, c[1]))
    assert t.legal(0) == [TradeLevels(0, n) for n in (2, 1)]


def test_world_war_allows_one_level_a_trade() -> None:
    """World war (L1994): "empires may not advance more than 1 Progress level when they win a Trade and
    progress action" and "empires do not advance during Free progress" (L1995). E15 won with a five
    advances 1, with nothing to choose, and the end of turn that follows adds nothing."""
    t, c = e15()
    t.state = replace(t.state, world_war=45)
    start(t).do(TradeCard(1, c[3]), TradeCard(0, c[1]))
    assert t.of("Syracusans").progress == 11
    assert not any(p.kind == "trade_levels" for p in t.state.pending)


def test_capitalism_glory_for_a_win_and_double_the_lowest_card_otherwise() -> None:
    """Capitalism (L1427): "earn 1 glory each trade they win, and double the income of the lowest value
    Trade card they receive when they don't". E15 lost: Caesar's 5 brings 10."""
    t, c = e15()
    on_card(t, "Syracusans", government="Capitalism")
    start(t).do(TradeCard(1, c[3]), TradeCard(0, c[0]))
    assert t.of("Syracusans").money == 10
    t, c = e15()
    on_card(t, "Syracusans", government="Capitalism")
    start(t).do(TradeCard(1, c[3]), TradeCard(0, c[1]), TradeLevels(0, 1))
    assert t.glory(0) == 1


def test_universal_suffrage_earns_from_every_trade_card() -> None:
    """Universal suffrage (L1980): "If your empire does not progress during Trade, it receives income from
    all the Trade cards (yours and theirs)". E15 lost: the 3 and Caesar's 5 bring 8."""
    t, c = e15()
    on_card(t, "Syracusans", "Renaissance", "Universal suffrage", government="Democracy")
    start(t).do(TradeCard(1, c[3]), TradeCard(0, c[0]), TradeCard(0, FROM_DECK))  # no second card
    assert t.of("Syracusans").money == 8


def test_two_democracies_trading_earn_a_money_a_card() -> None:
    """Democracy (L1524): "At the end of every Trade Democrats conduct with each other they both get +1
    money for each card traded by both empires". One card each: 2 money each; E15's lost trade pays the
    Syracusans 5 besides (L590). Only between two Democracies."""
    t, c = e15()
    on_card(t, "Syracusans", government="Democracy")
    on_card(t, "Romans", government="Democracy")
    start(t).do(TradeCard(1, c[3]), TradeCard(0, c[0]))
    assert t.of("Syracusans").money == 5 + 2 and t.of("Romans").money == 2
    t, c = e15()
    on_card(t, "Syracusans", government="Democracy")
    start(t).do(TradeCard(1, c[3]), TradeCard(0, c[0]))
    assert t.of("Syracusans").money == 5 and t.of("Romans").money == 0


def test_computing_may_trade_the_decks_top_card() -> None:
    """Computing (L1455): "may choose to pick one card from the deck to trade with instead of from their
    hand"; without it the deck's card is only for an empty hand (L563)."""
    t, c = e15()
    top = cards_of_value(6, avoid=tuple(c))[0]
    t.deck_top(top).artefact("Sicily", "Computing")
    start(t)
    assert TradeCard(0, FROM_DECK) in t.legal(0)
    t.do(TradeCard(1, c[3]), TradeCard(0, FROM_DECK))
    assert t.named("trade_revealed")[-1].data["cards"][0] == top
    t, c = e15()
    start(t).refused(TradeCard(0, FROM_DECK), "has_cards")


# -- Civilise ----------------------------------------------------------------------------------------------

def test_a_capitalist_builds_a_new_city_at_3_and_improves_a_1_to_5_e44() -> None:
    """E44 (L1429): "Capitalist empires may build or improve cities 1 extra level (e.g., a new city is built
    with a value of 3 and a value 1 city improves to 5) up to the city maximum" (age 5: 5, L1002)."""
    t = Table(2, ON).empire("Romans", 0, 30, ["Latium", "Campania"], capital="Latium").city("Latium", 1)
    on_card(t, "Romans", government="Capitalism")
    to_stage(civilising(t, 0, "Romans"), 0, "urbanise")
    t.do(Urbanise(0, "Latium"), Urbanise(0, "Campania"))
    assert (t.state.area("Latium").city, t.state.area("Campania").city) == (5, 3)


def test_a_capitalist_city_stops_at_the_ages_maximum() -> None:
    """"up to the city maximum" (L1429): in age 3 a city reaches 3 at most (L1002), so a new one is 3 and a
    3 stays unimproved."""
    t = Table(2, ON).empire("Romans", 0, 16, ["Latium", "Campania"], capital="Latium")
    on_card(t, "Romans", government="Capitalism")
    to_stage(civilising(t, 0, "Romans"), 0, "urbanise")
    t.do(Urbanise(0, "Campania"))
    assert t.state.area("Campania").city == 3


def test_cyrenaica_costs_5_to_clear_under_option_16_e29() -> None:
    """E29 (L988): "Cyrenaica (L6) with no city, 5", with the artefacts' powers and no Deus Vult."""
    t = Table(2, ON).empire("Egyptians", 0, 10, ["Egypt", "Cyrenaica"], capital="Egypt").disorder("Cyrenaica")
    assert removal_cost(t.state, t.of("Egyptians"), "Cyrenaica") == 5


def _neighbour(area: str) -> str:
    return sorted(a for a in load_map().adjacency[area] if load_map().areas[a].land)[0]


def test_great_pyramid_clears_its_area_and_neighbours_for_nothing() -> None:
    """Great Pyramid (L1600): "the artefact's controller may remove disorder from this, and every adjacent
    area for no cost"."""
    near = _neighbour("Egypt")
    t = Table(2, ON).empire("Egyptians", 0, 10, ["Egypt", near], capital="Egypt").disorder("Egypt", near)
    t.artefact("Egypt", "Great Pyramid")
    to_stage(civilising(t, 0, "Egyptians"), 0, "disorder")
    t.do(RemoveDisorder(0, "Egypt"), RemoveDisorder(0, near))
    assert not t.state.area("Egypt").disorder and not t.state.area(near).disorder
    assert t.of("Egyptians").money == 0


def test_summer_palace_clears_one_area_for_nothing() -> None:
    """Summer Palace (L1950): "may remove disorder from 1 area within Range of the artefact for no cost";
    the second costs its income, at least 5 (L986), which an empire with no money cannot pay."""
    near = _neighbour("Egypt")
    t = Table(2, ON).empire("Egyptians", 0, 10, ["Egypt", near], capital="Egypt").disorder("Egypt", near)
    t.artefact("Egypt", "Summer Palace")
    to_stage(civilising(t, 0, "Egyptians"), 0, "disorder")
    t.do(RemoveDisorder(0, near))
    t.refused(RemoveDisorder(0, "Egypt"), "too_dear")


def test_just_rule_removes_all_disorder_when_played() -> None:
    """Just rule (L1736): "When played, remove all disorder in the empire.\""""
    near = _neighbour("Egypt")
    t = Table(2, ON).empire("Egyptians", 0, 10, ["Egypt", near], capital="Egypt").disorder("Egypt", near)
    ctx = steps.Ctx(t.state)
    artefact_play.played(ctx, t.of("Egyptians").card, "Just rule")
    assert not ctx.state.area("Egypt").disorder and not ctx.state.area(near).disorder


def test_socialism_disorders_leaderless_cities_when_played() -> None:
    """Socialism (L1934): "disorder each leaderless city area it controls"."""
    near = _neighbour("Egypt")
    t = Table(2, ON).empire("Egyptians", 0, 30, ["Egypt", near], capital="Egypt",
                            leaders=[("Builder", "Egypt")]).city("Egypt", 3).city(near, 1)
    ctx = steps.Ctx(t.state)
    artefact_play.played(ctx, t.of("Egyptians").card, "Socialism")
    assert ctx.state.area(near).disorder and not ctx.state.area("Egypt").disorder


def test_nothing_happens_when_played_without_option_16() -> None:
    t = Table(2).empire("Egyptians", 0, 10, ["Egypt"], capital="Egypt").disorder("Egypt")
    ctx = steps.Ctx(t.state)
    artefact_play.played(ctx, t.of("Egyptians").card, "Just rule")
    assert ctx.state.area("Egypt").disorder


def test_moon_landing_glory_each_civilise() -> None:
    """Moon landing (L1772): "gains a glory point each time it carries out a Civilise action"."""
    t = Table(2, ON).empire("Romans", 0, 45, ["Latium"], capital="Latium")
    on_card(t, "Romans", "Moon landing")
    civilising(t, 0, "Romans")
    assert t.glory(0) == 1


# -- Harvest and the end -----------------------------------------------------------------------------------

def test_harvest_artefacts_raise_their_category_or_make_it_worth_1() -> None:
    """Colossus of Rhodes, Great Library, Great Zimbabwe, Hanging gardens (L1449, L1592, L1642, L1650): "Add
    1 to the empire's ... glory category (value of 1 if none) during Harvest glory"."""
    areas = {"Colossus of Rhodes": "ships", "Great Library": "progress", "Great Zimbabwe": "money",
             "Hanging gardens": "artefacts"}
    for name, category in areas.items():
        t = Table(2, ON).empire("Egyptians", 0, 10, ["Egypt"], capital="Egypt").artefact("Egypt", name)
        plain = Table(2, ON).empire("Egyptians", 0, 10, ["Egypt"], capital="Egypt")
        before = glory.category_value(endturn.holding(plain.state, plain.of("Egyptians")), category, None)
        after = glory.category_value(endturn.holding(t.state, t.of("Egyptians")), category, None)
        assert after == (before + 1 if before else 1), name
        assert (category, None) in glory.ranked_categories([endturn.holding(t.state, t.of("Egyptians"))])


def test_hinduism_lifts_a_poor_harvest_and_trims_a_rich_one() -> None:
    """Hinduism (L1676-1678): 1 glory or fewer at the harvest gains 1 (its power), 7 or more loses 1 (its
    penalty); Religious strife stops the power, not the penalty (L1868)."""
    t = Table(2, ON).empire("Egyptians", 0, 10, ["Egypt"], religions=("Hinduism",))
    e = t.of("Egyptians")
    assert [modifiers.harvest_glory(t.state, e, n) for n in (0, 1, 2, 6, 7, 9)] == [1, 2, 2, 6, 6, 8]
    on_card(t, "Egyptians", "Religious strife")
    e = t.of("Egyptians")
    assert [modifiers.harvest_glory(t.state, e, n) for n in (0, 7)] == [0, 6]


def test_temple_of_diana_counts_disordered_areas_in_range() -> None:
    """Temple of Diana (L1958): "receives normal income from any disordered areas within Range of the
    temple, and counts those areas when working out how much glory it gains"."""
    t = Table(2, ON).empire("Egyptians", 0, 10, ["Egypt"], capital="Egypt").city("Egypt", 1)
    calm = income(t.state, t.of("Egyptians"))
    t.disorder("Egypt").artefact("Egypt", "Temple of Diana")
    assert income(t.state, t.of("Egyptians")) == calm
    assert endturn.holding(t.state, t.of("Egyptians")).ordered == {"Egypt"}


def test_renaissance_buys_glory_at_30() -> None:
    """Renaissance (L1880): "may buy glory during Harvest glory for 30 money each" (50 otherwise, L1058)."""
    t = Table(2, ON).empire("Romans", 0, 25, ["Latium"], money=90).empire("Syracusans", 1, 25, ["Sicily"])
    on_card(t, "Romans", "Renaissance")
    assert endturn.glory_price(t.state, t.of("Romans")) == 30
    assert endturn.glory_price(t.state, t.of("Syracusans")) == 50


def test_moon_landing_gains_7_when_it_ends_the_game() -> None:
    """Moon landing (L1772): "It gains 7 glory if it ends the game (in addition to the glory it gets for
    leaving age 7 ...)"."""
    t = Table(2, ON).empire("Romans", 0, PAST_THE_END, ["Latium"]).empire("Syracusans", 1, 40, ["Sicily"])
    on_card(t, "Romans", "Moon landing")
    on_card(t, "Syracusans", "Moon landing")
    ctx = steps.Ctx(t.state)
    steps.finish(ctx, "test")
    plain = Table(2, ON).empire("Romans", 0, PAST_THE_END, ["Latium"]).empire("Syracusans", 1, 40, ["Sicily"])
    ctx_plain = steps.Ctx(plain.state)
    steps.finish(ctx_plain, "test")
    assert ctx.state.people[0].glory == ctx_plain.state.people[0].glory + 7
    assert ctx.state.people[1].glory == ctx_plain.state.people[1].glory


def test_two_democracies_one_with_renaissance_get_3_money_each_e45() -> None:
    """E45 (L1524): "after Renaissance, 2 cards are traded by one Democrat and 1 by the other, they both get 3
    extra money". Renaissance (L1878): the second card is played face down after both first ones, and "All
    trade cards you play are added to your Trade value and then traded": the Syracusans' 3 and 4 (+2) beat
    Caesar's 5 (+1), 9 to 6; the Romans, who do not progress, earn the 7 they receive (L583) and 3 more."""
    t, c = e15()
    on_card(t, "Syracusans", "Renaissance", government="Democracy")
    on_card(t, "Romans", government="Democracy")
    start(t).do(TradeCard(1, c[3]), TradeCard(0, c[0]))
    assert t.actors() == {0} and TradeCard(0, FROM_DECK) in t.legal(0)  # none is a choice too
    t.do(TradeCard(0, c[2]))
    assert revealed(t) == [9, 6]
    assert t.of("Syracusans").money == 3 and t.of("Romans").money == 7 + 3
    assert {c[0], c[2]} <= set(t.state.people[1].hand) and c[3] in t.state.people[0].hand


def test_renaissance_asks_the_trader_first_and_may_play_none() -> None:
    """Renaissance (L1878): "the player whose action it is first if the other empire also has renaissance";
    a side playing none trades its one card, as without Renaissance (E15 lost: 5 and 6)."""
    t, c = e15()
    on_card(t, "Syracusans", "Renaissance")
    on_card(t, "Romans", "Renaissance")
    start(t).do(TradeCard(1, c[3]), TradeCard(0, c[0]))
    assert t.actors() == {0}
    t.do(TradeCard(0, FROM_DECK))
    assert t.actors() == {1}
    t.refused(TradeCard(1, c[2]), "not_in_hand")
    t.do(TradeCard(1, FROM_DECK))
    assert revealed(t) == [5, 6] and t.of("Syracusans").money == 5


def test_socialists_gain_a_money_for_each_unit_left_unmaintained() -> None:
    """Socialism (L1936): "gains 1 money each time one of its units is removed from the map and placed in
    its Unit pools (e.g., while Maintaining units you could discard one units to maintain another)". Six
    spears and 4 money of income (Egypt's 5 and Sudan's 2 halved without a capital, rounded up: the
    unmaintained example, L497, L501): one goes back, bringing 1 money, and the other five are maintained;
    without Socialism a second must go."""
    units = {"Egypt": {"Spear": 4}, "Nubia": {"Spear": 1}, "Sudan": {"Spear": 1}}
    for government, stage in (("Socialism", "build"), ("Democracy", "maintain")):
        s = Scenario(2, ON).empire("Egyptians", 0, 10, money=0, units=units)
        on_card(s, "Egyptians", government=government)
        producing(s, 0, "Egyptians")
        assert s.of_type("income")[-1]["amount"] == 4
        s.play(Unmaintain(0, "Spear", "Nubia"))
        assert s.go_stage(0) == stage, government
    assert s.of_type("power_money") == [] and s.empire_of("Egyptians").money == 4


def test_concentrated_ownership_and_revolution_end_with_the_age() -> None:
    """Concentrated ownership is discarded when its empire "enters another age" (L1463), Revolution when it
    "leaves its current age" (L1895); Revolution's own 3 levels back do not discard it (L1887)."""
    t = Table(2, ON).empire("Romans", 0, 14, ["Latium"], capital="Latium")
    on_card(t, "Romans", "Concentrated ownership")
    ctx = steps.Ctx(t.state)
    endturn.advance(ctx, t.of("Romans").card, 1)  # 14 to 15: age 2 to age 3
    assert "Concentrated ownership" not in ctx.state.empire(t.of("Romans").card).artefacts
    t = Table(2, ON).empire("Romans", 0, 16, ["Latium"], capital="Latium")
    on_card(t, "Romans", "Revolution")
    ctx = steps.Ctx(t.state)
    artefact_play.played(ctx, t.of("Romans").card, "Revolution")  # 16 to 13: into age 2
    assert ctx.state.empire(t.of("Romans").card).artefacts == ("Revolution",)
    endturn.advance(ctx, t.of("Romans").card, 2)  # 13 to 15: age 3
    assert ctx.state.empire(t.of("Romans").card).artefacts == ()


def test_without_option_16_trade_artefacts_change_nothing() -> None:
    """Without option 16 artefacts give glory only (L929-931): E15 lost with a 3 is 5 to 6 (L588), whatever
    the Syracusans hold, and no second card is asked."""
    t, c = e15(None)
    t.artefact("Sicily", "Pharos lighthouse")
    on_card(t, "Syracusans", "Renaissance", government="Capitalism")
    start(t).do(TradeCard(1, c[3]), TradeCard(0, c[0]))
    assert revealed(t) == [5, 6] and t.of("Syracusans").money == 5


def test_a_democracy_that_lost_an_area_builds_at_half_the_total_cost() -> None:
    """Democracy (L1526): "halve the total cost of their units in Production actions if they lost control of
    an area to another player's empire in that or the previous turn". Nubia goes to the Romans in a move of
    turn 1: in turns 1 and 2 two spears (2 each, L2833) cost 2 together; in turn 3, 4 again. A loss to the
    Democracy's own player's other empire does not count."""
    s = egyptians(ON, city=3, units={"Egypt": {"Spear": 1}, "Nubia": {"Spear": 1}})
    s.empire("Romans", 1, 10, units={"Latium": {"Spear": 1}})
    on_card(s, "Egyptians", government="Democracy")
    lost = s.empire_of("Egyptians").add_units("Nubia", "Spear", -1)
    after = s.state.with_empire(lost).with_empire(s.empire_of("Romans").add_units("Nubia", "Spear", 1))
    noted = modifiers.note_losses(s.state, after)
    for turn, price in ((1, 2), (2, 2), (3, 4)):
        t = Scenario(2, ON)
        t.state = replace(noted, turn=turn)
        t.state = t.state.with_empire(replace(t.empire_of("Egyptians"), money=20))
        producing(t, 0, "Egyptians")
        money = t.empire_of("Egyptians").money
        t.play(Build(0, "Spear", "Egypt", 2))
        assert money - t.empire_of("Egyptians").money == price, turn
    romans = s.empire_of("Romans").card
    mine = s.state.with_empire(replace(s.empire_of("Romans"), owner=0))  # both empires one player's
    moved = mine.with_empire(lost).with_empire(mine.empire(romans).add_units("Nubia", "Spear", 1))
    kept = modifiers.note_losses(mine, moved)
    assert not modifiers.halves_unit_costs(kept, kept.empire(lost.card))


def test_a_democracy_leader_number_is_one_more() -> None:
    """Democracy (L1522): "Democratic empires' Leader number is +1": the Inca's 2 (L2183) becomes 3."""
    t = Table(2, ON).empire("Inca", 0, 20, ["Peru"], capital="Peru")
    assert leader_number(t.state, t.of("Inca")) == 2
    on_card(t, "Inca", government="Democracy")
    assert leader_number(t.state, t.of("Inca")) == 3


def test_socialists_gain_glory_when_an_empire_in_range_turns_socialist_or_drops_a_government() -> None:
    """Socialism (L1938): "Socialists gain 1 glory whenever another empire within Range gains socialism or
    discards any other government"; an empire out of Range gives nothing."""
    near = _neighbour("Egypt")
    t = Table(2, ON).empire("Egyptians", 0, 30, ["Egypt"], capital="Egypt", government="Socialism")
    t.empire("Romans", 1, 30, [near]).empire("Inca", 1, 30, ["Peru"])
    ctx = steps.Ctx(t.state)
    artefact_play.played(ctx, t.of("Romans").card, "Socialism")
    assert ctx.state.people[0].glory == 1
    artefact_play.renounced(ctx, t.of("Romans").card, "Democracy", "government")
    assert ctx.state.people[0].glory == 2
    artefact_play.renounced(ctx, t.of("Romans").card, "Socialism", "government")
    artefact_play.played(ctx, t.of("Inca").card, "Socialism")
    assert ctx.state.people[0].glory == 2
