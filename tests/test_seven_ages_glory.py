"""7 Ages glory: the rulebook's harvest examples (L1030-1144), immediate glory, hocking, rounding.

Each test quotes the line it checks. Holdings are built by hand (one empire as the
harvest sees it), so the expected glory comes from the rulebook, not the code.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

import pytest

from engine.seven_ages import glory
from engine.seven_ages.actions import Done
from engine.seven_ages.cards import load_deck
from engine.seven_ages.civilisation_moves import BuyGlory, Hock, RankHigher
from engine.seven_ages.glory import Holding
from engine.seven_ages.map import load_map
from tests.seven_ages_builder_civ import Table, card_of


def holding(name: str, player: int, areas: Iterable[str] = (), level: int = 10, **kw: object) -> Holding:
    card = load_deck().by_empire(name).empire
    return Holding(empire=name, player=player, card=card, level=level, areas=frozenset(areas),
                   **kw)  # type: ignore[arg-type]


def glory_of(awards: list[glory.Award], empire: str, category: str | None = None) -> int:
    return sum(a.glory for a in awards if a.empire == empire and category in (None, a.category))


def test_harvest_tie_break_seat_order_e31() -> None:
    # L1046: "Greg is the first player this turn. An empire of Cat's on Greg's left and Ray on
    # Greg's right have both tied for second in most money. Neither has a Philosopher so Cat's
    # empire is second and Ray's third in money this turn."
    greg, cat, ray = 0, 1, 3
    hs = {h.empire: h for h in (holding("Zimbabwe", greg, money=30), holding("Syracusans", cat, money=20),
                                holding("Romans", ray, money=20))}
    amounts = {e: glory.measure(h, "money", None, load_map()) for e, h in hs.items()}
    assert glory.rank(amounts, hs, first=greg, players=4) == ["Zimbabwe", "Syracusans", "Romans"]
    # and with Ray first player this turn, Ray's empire is the higher of the two
    assert glory.rank(amounts, hs, first=ray, players=4)[1:] == ["Romans", "Syracusans"]


def test_two_philosophers_win_ties_only_in_different_areas_e27() -> None:
    # L958: "An empire with 2 Philosophers wins ties during Harvest glory with empires that only
    # have 1 but only if the 2 are in different areas."
    apart = holding("Romans", 1, money=9, leaders=(("Philosopher", "Latium"), ("Philosopher", "Campania")))
    together = holding("Romans", 1, money=9, leaders=(("Philosopher", "Latium"), ("Philosopher", "Latium")))
    one = holding("Syracusans", 0, money=9, leaders=(("Philosopher", "Sicily"),))
    for romans, expected in ((apart, ["Romans", "Syracusans"]), (together, ["Syracusans", "Romans"])):
        hs = {"Romans": romans, "Syracusans": one}
        assert glory.rank({"Romans": 9, "Syracusans": 9}, hs, first=0, players=2) == expected


def test_own_empires_tied_are_ordered_by_their_owner() -> None:
    # L1048: "If two of your own empires tie for a particular category (after taking
    # Philosophers into account), you choose which is higher."
    hs = {"Syracusans": holding("Syracusans", 1, money=20), "Zimbabwe": holding("Zimbabwe", 1, money=20),
          "Romans": holding("Romans", 0, money=50)}
    amounts = {e: h.money for e, h in hs.items()}
    assert glory.own_ties(amounts, hs, first=0, players=2) == [(1, ("Syracusans", "Zimbabwe"))]
    chosen = glory.rank(amounts, hs, 0, 2, lambda player, group: tuple(reversed(group)))
    assert chosen == ["Romans", "Zimbabwe", "Syracusans"]
    awards = glory.harvest(list(hs.values()), 0, 2, lambda c, w: lambda player, group: tuple(reversed(group)))
    # Syracusans' money 2 as third is worth nothing; Zimbabwe's money 1 as second nothing either
    assert glory_of(awards, "Syracusans", "money") == 0


def test_zero_earns_nothing() -> None:
    # L1034: "you can't gain glory from most money if your empire has 0 money"
    awards = glory.harvest([holding("Syracusans", 0, money=0)], 0, 1)
    assert glory_of(awards, "Syracusans", "money") == 0


def test_western_mediterranean_is_not_exclusively_outside_europe_e33() -> None:
    # L1110: "France controls the Western Mediterranean (J5) but it doesn't count as it is not
    # exclusively outside Europe."
    french = holding("French", 0, ["Normandy", "Western Mediterranean", "Carthage"], level=25,
                     capital="Normandy")
    assert glory.measure(french, "not_europe", None, load_map()) == 1  # Carthage only


def test_cats_harvest_e34() -> None:
    # L1130-1136: the French "have equal most artefacts and gain 2 glory. However, Burgundy (the
    # French homeland) is controlled by the Germans (card 33), so she loses 1 glory ... the Vikings
    # are larger when they include their Tundra areas outside Europe, so Cat gets 2 glory for being
    # 2nd top. France therefore ends up with a total of 3 glory this turn (4-1). Cat then counts up
    # her Pict and Qin glory which gives her another 2 for a total of 5 glory, halved for the
    # Glory? card for a grand total of 2.5 rounded to 3 glory this turn."
    cat, alex, anna = 0, 1, 2
    french = holding("French", cat, ["Normandy", "Aquitaine", "Carthage", "Numidia"], level=25,
                     capital="Normandy", homeland="Burgundy", artefacts=(("green", "Aquitaine"),))
    picts = holding("Picts", cat, ["Scotland"], level=15, homeland="Scotland")
    qin = holding("Qin", cat, ["Qin"], level=12, disordered=frozenset({"Qin"}))
    germans = holding("Germans", alex, ["Burgundy", "Germany"], level=25, capital="Germany",
                      artefacts=(("green", "Germany"),))
    vikings = holding("Vikings", anna, ["Norway", "Greenland", "Rupert's Land", "Labrador Sea"], level=18,
                      capital="Norway")
    english = holding("English", anna, ["England", "Irish Sea"], level=22)
    everyone = [french, picts, qin, germans, vikings, english]
    awards = glory.harvest(everyone, first=cat, players=3)
    assert glory_of(awards, "French", "artefacts") == 2
    assert glory_of(awards, "French", "homeland") == -1
    assert glory_of(awards, "French", "not_europe") == 2
    assert glory_of(awards, "Vikings", "not_europe") == 3
    assert glory_of(awards, "French") == 3
    assert glory_of(awards, "Picts") + glory_of(awards, "Qin") == 2
    total = glory.player_harvest(awards, everyone)[cat]
    assert total == 5
    assert glory.halved(total) == 3  # "2.5 rounded to 3"


def test_vikings_without_tundra_would_trail_france() -> None:
    # L1134: "France has more non-Tundra and non-Desert land areas than any other European empire."
    french = holding("French", 0, ["Normandy", "Carthage", "Numidia"], level=25, capital="Normandy")
    romans = holding("Romans", 1, ["Latium", "Greenland", "Rupert's Land"], level=12, capital="Latium")
    # the Romans' card does not count tundra: they have none outside Europe
    awards = glory.harvest([french, romans], first=1, players=2)
    assert glory_of(awards, "French", "not_europe") == 3


def test_disordered_areas_and_their_artefacts_do_not_count() -> None:
    # L1042: "you don't count disordered areas (e.g., ignore artefacts in disordered areas)"
    egypt = holding("Egyptians", 0, ["Egypt"], cities={"Egypt": 3}, artefacts=(("green", "Egypt"),),
                    disordered=frozenset({"Egypt"}), homeland="Egypt")
    awards = glory.harvest([egypt], 0, 1)
    assert glory_of(awards, "Egyptians", "cities") == 0
    assert glory_of(awards, "Egyptians", "artefacts") == 0
    assert glory_of(awards, "Egyptians", "homeland") == 1  # "(even if disordered)", L1120


def test_artists_raise_the_artefact_category() -> None:
    # L1064-1072: green artefacts with an Artist count double; "each artist also increases its
    # empire's artefact glory category by 1 (e.g., the Huns (card 68) would gain 1 glory, while
    # the Qin (card 100) would gain 3, if they have 1 artist and the most artefacts)."
    for name, expected in (("Huns", 1), ("Qin", 3)):
        h = holding(name, 0, ["Qin"], artefacts=(("green", "Qin"),), leaders=(("Artist", "Qin"),))
        assert glory.artefact_total(h) == 2
        assert glory_of(glory.harvest([h], 0, 1), name, "artefacts") == expected


def test_red_artefacts_subtract() -> None:
    # L1066: "adds up all its green artefact markers and subtracts all its red artefact markers"
    h = holding("Qin", 0, ["Qin"], artefacts=(("green", "Qin"), ("red", None), ("red", None)))
    assert glory.artefact_total(h) == -1
    on_card = holding("Qin", 0, ["Qin"], artefacts=(("green", None), ("red", None), ("green", None)))
    assert glory.artefact_total(on_card) == 1
    assert glory_of(glory.harvest([h], 0, 1), "Qin", "artefacts") == 0


def test_progress_beyond_49_ties() -> None:
    # L1076: "if two or more empires end the game beyond the 49th level, they are all tied as most
    # advanced" (then the seat order decides who is higher)
    a = holding("Germans", 1, level=49, beyond=True)
    b = holding("Sumerians", 0, level=49, beyond=True)
    amounts = {h.empire: glory.measure(h, "progress", None, load_map()) for h in (a, b)}
    assert amounts["Germans"] == amounts["Sumerians"]


def test_immediate_glory_e35() -> None:
    # L1142: "Cat's Benin empire (card 67) progresses 2 levels during a trade & progress. She
    # immediately gains 2 glory." L578: ties matter to Zimbabwe (card 42).
    deck = load_deck()
    assert glory.immediate(deck.by_empire("Benin").empire, "per_level", 2) == 2
    assert glory.immediate(deck.by_empire("Zimbabwe").empire, "per_trade_tied") == 1
    assert glory.immediate(deck.by_empire("Romans").empire, "per_level", 2) == 0
    # immediate glory is never a harvest category (L1140)
    benin = holding("Benin", 0, ["Benin"])
    assert glory_of(glory.harvest([benin], 0, 1), "Benin", "per_level") == 0


def test_hocking_e41() -> None:
    # L1360: "Your Egyptians (card 1) have 3 undisordered cities. You may reduce your glory by up
    # to 3 and, if you do, Egypt gains 15 money."
    assert glory.most_hockable(glory=10, ordered_cities=3) == 3
    assert glory.hock(money=0, glory=3) == 15
    assert glory.most_hockable(glory=2, ordered_cities=3) == 2  # "not more glory than you have"
    assert glory.hock(money=190, glory=3) == 199  # money never above 199 (L493)


@pytest.mark.parametrize(("value", "times", "expected"), [(5, 1, 3), (4, 1, 2), (3, 1, 2), (7, 2, 2),
                                                          (1, 1, 1), (0, 1, 0), (5, 2, 1)])
def test_rounding_after_all_halving_e49(value: int, times: int, expected: int) -> None:
    # L2197: "When you halve a number, round it to the nearest whole number (0.5 rounding up) after
    # all halving."
    assert glory.halved(value, times) == expected


def test_halving_the_total_e49() -> None:
    # L2197: "you halve the total, not each value": three cities of 1 halved is 2, not 3 x 1
    assert glory.halved(1 + 1 + 1) == 2


def test_buying_glory_costs_50() -> None:
    # L1058: "If they have Renaissance, each glory point costs 30 money, otherwise, each costs 50."
    assert glory.most_buyable(149) == 2


# -- the end of turn, played through the step machine ----------------------------------------------

def end_of_turn(t: Table) -> Table:
    return t.enter("end_turn")


def test_free_progress_for_every_empire() -> None:
    # L1026: "After all empires have finished their actions, increase each empire's Progress level by
    # one unless it is currently in a dark age without a Scientist, or it took a Wild card action this
    # turn without an Administrator."
    t = Table(2).empire("Romans", 0, 12, ["Latium"]).empire("Sumerians", 1, 3, ["Sumer"])
    end_of_turn(t)
    assert (t.of("Romans").progress, t.of("Sumerians").progress) == (13, 4)


def turned_wild(t: Table, seat: int, empire: str) -> Table:
    from dataclasses import replace as rep

    from engine.seven_ages.state import Marker
    m = Marker(seat, "wild", card_of(empire), turned="production")
    t.state = rep(t.state, markers=(*t.state.markers, m))
    return t


def test_a_wild_card_costs_the_free_progress_unless_an_administrator() -> None:
    # L355: "An empire with a wild card marker does not get the Free progress at the End of turn unless
    # it has an Administrator."
    t = Table(2).empire("Romans", 0, 12, ["Latium"]).empire("Sumerians", 1, 3, ["Sumer"],
                                                         leaders=[("Administrator", "Sumer")])
    turned_wild(t, 0, "Romans")
    turned_wild(t, 1, "Sumerians")
    end_of_turn(t)
    assert t.of("Romans").progress == 12
    assert t.of("Sumerians").progress == 4


def test_no_free_progress_in_a_dark_age_without_a_scientist() -> None:
    # L2131: "Unless they have a Scientist, empires in those spaces do not advance during Free progress."
    t = Table(2).empire("Romans", 0, 18, ["Latium"]).empire("Mongols", 1, 19, ["Mongolia"],
                                                         leaders=[("Scientist", "Mongolia")])
    end_of_turn(t)
    assert t.of("Romans").progress == 18
    assert t.of("Mongols").progress == 20


def test_free_progress_pays_benins_immediate_glory() -> None:
    # L1142 immediate glory per level gained, whatever moved the marker
    t = Table(2).empire("Benin", 0, 16, ["Benin"])
    end_of_turn(t)
    assert t.of("Benin").progress == 17
    assert t.state.people[0].glory >= 1
    assert dict(t.state.people[0].parts)["per_level"] == 1


def test_a_new_age_sees_the_leaders_off() -> None:
    # L946: "Immediately remove all its leaders when an empire progresses forwards or backwards into a
    # different age (old age has seen them off)."
    t = Table(2).empire("Romans", 0, 14, ["Latium"], leaders=[("Builder", "Latium")])
    cup = len(t.state.cup)
    end_of_turn(t)
    assert t.of("Romans").progress == 15 and t.of("Romans").leaders == ()
    assert len(t.state.cup) == cup + 1  # an unnamed leader goes back to the cup


def test_beyond_49_is_locked() -> None:
    # L594: "If an empire progresses beyond the 49th level it is still in the 7th age but can no longer
    # go backwards in progress."
    t = Table(2).empire("Italians", 0, 49, ["Latium"])
    end_of_turn(t)
    assert t.of("Italians").progress == 50 and t.of("Italians").passed == 1


def test_buying_glory_first_player_first() -> None:
    # L1056: "all empires that want to buy glory may do so now (First player first, then Clockwise)"
    t = Table(3, first=1).empire("Romans", 0, 12, ["Latium"], money=120).empire(
        "Syracusans", 2, 10, ["Sicily"], money=60)
    end_of_turn(t)
    assert t.actors() == {2}  # seat 2 sits left of the first player, seat 1, who cannot buy
    assert BuyGlory(2, card_of("Syracusans"), 2) not in t.legal(2)
    t.do(BuyGlory(2, card_of("Syracusans"), 1), Done(2))
    assert t.actors() == {0}
    t.refused(BuyGlory(0, card_of("Romans"), 3), "too_dear")
    t.do(BuyGlory(0, card_of("Romans"), 2), Done(0))
    assert t.of("Romans").money == 20 and t.of("Syracusans").money == 10
    assert dict(t.state.people[0].parts)["bought"] == 2


def money_glory(t: Table, name: str) -> int:
    return sum(a["glory"] for a in t.named("harvest")[0].data["awards"]
               if a["category"] == "money" and a["empire"] == card_of(name))


@pytest.mark.parametrize(("higher", "syracuse"), [("Syracusans", 1), ("Zimbabwe", 0)])
def test_own_tie_is_the_owners_choice(higher: str, syracuse: int) -> None:
    # L1048: "If two of your own empires tie for a particular category (after taking Philosophers into
    # account), you choose which is higher." The Romans have the most money; Syracusans (money 2) and
    # Zimbabwe (money 1), both seat 1's, tie for second: the Syracusans second are worth 1 glory, Zimbabwe
    # second nothing.
    t = Table(2).empire("Romans", 0, 12, ["Latium"], money=45).empire(
        "Syracusans", 1, 10, ["Sicily"], money=30).empire("Zimbabwe", 1, 20, ["Zimbabwe"], money=30)
    end_of_turn(t)
    assert t.state.phase == "end_turn" and t.actors() == {1}
    assert set(t.legal(1)) == {RankHigher(1, card_of("Syracusans")), RankHigher(1, card_of("Zimbabwe"))}
    t.do(RankHigher(1, card_of(higher)))
    assert money_glory(t, "Syracusans") == syracuse
    assert money_glory(t, "Zimbabwe") == 0


def test_own_tie_that_changes_nothing_is_not_asked() -> None:
    # Zimbabwe (money 1) second or third earns nothing; the Qin have no money category.
    t = Table(2).empire("Romans", 0, 12, ["Latium"], money=45).empire(
        "Qin", 1, 10, ["Qin"], money=30).empire("Zimbabwe", 1, 20, ["Zimbabwe"], money=30)
    end_of_turn(t)
    assert t.named("harvest") and not t.named("tie_ordered")
    assert t.state.phase != "end_turn"


def test_hocking_in_the_flow_e41() -> None:
    # L1360: "Your Egyptians (card 1) have 3 undisordered cities. You may reduce your glory by up to 3
    # and, if you do, Egypt gains 15 money."
    t = Table(2, options={"hocking": True}).empire("Egyptians", 0, 5, ["Egypt", "Nubia", "Sudan", "Libya"],
                                                   money=0)
    t.city("Egypt", 1).city("Nubia", 1).city("Sudan", 1).city("Libya", 1).disorder("Libya")
    t.state = t.state.with_player(replace(t.state.people[0], glory=10))
    end_of_turn(t)
    assert t.actors() == {0}
    hocks = [a for a in t.legal(0) if isinstance(a, Hock)]
    assert max(a.points for a in hocks) == 3
    t.do(Hock(0, card_of("Egyptians"), 3))
    assert t.of("Egyptians").money == 15
    t.refused(Hock(0, card_of("Egyptians"), 1), "too_much")
