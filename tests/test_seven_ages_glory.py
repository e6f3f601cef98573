"""7 Ages glory: the rulebook's harvest examples (L1030-1144), immediate glory, hocking, rounding.

Each test quotes the line it checks. Holdings are built by hand (one empire as the
harvest sees it), so the expected glory comes from the rulebook, not the code.
"""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from engine.seven_ages import glory
from engine.seven_ages.cards import load_deck
from engine.seven_ages.glory import Holding
from engine.seven_ages.map import load_map


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
    awards = glory.harvest(list(hs.values()), 0, 2, lambda player, group: tuple(reversed(group)))
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
    h = holding("Qin", 0, ["Qin"], artefacts=(("green", "Qin"), ("red", None), ("red", None)))
    assert glory.artefact_total(h) == -1
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


def test_modifier_order_e49() -> None:
    # L2197: "add, then subtract, then double, then halve"
    assert glory.modified(3, add=2, subtract=1, doubles=1, halves=1) == 4
    assert glory.modified(3, add=0, subtract=0, doubles=0, halves=1) == 2
    # "you halve the total, not each value": three cities of 1 halved is 2, not 3 x 1
    assert glory.halved(1 + 1 + 1) == 2


def test_glory_never_below_zero_and_the_200_marker() -> None:
    # L2141 "You can't have fewer than 0 glory"; L1050 past 199 a +200 marker, back to 0
    assert glory.add_glory(1, -3) == 0
    assert glory.glory_track(199) == (0, 199)
    assert glory.glory_track(200) == (1, 0)
    assert glory.glory_track(437) == (2, 37)


def test_buying_glory_costs_50() -> None:
    # L1058: "If they have Renaissance, each glory point costs 30 money, otherwise, each costs 50."
    assert glory.most_buyable(149) == 2
