"""7 Ages Civilise (L855-1008) on the rulebook's examples: each test quotes its lines."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.seven_ages import beliefs, civilise
from engine.seven_ages.actions import Done, TurnMarker
from engine.seven_ages.cards import load_deck
from engine.seven_ages.civilisation_moves import (
    Adopt,
    Dominant,
    KeepLeader,
    Modernise,
    PlayArtefact,
    PlayEvent,
    PromoteLeader,
    RemoveDisorder,
    Renounce,
    Urbanise,
)
from engine.seven_ages.game import GAME
from engine.seven_ages.map import load_map
from tests.support.seven_ages_builder_civ import Table, card_of


def test_city_steps_and_age_limits_e30() -> None:
    # L1000-1002: "To build a city, place a value 1 city ... To improve a city, increase its value by
    # 1 level (e.g., a 3-value city increases to 5) ... only be improved to value 3 if its empire is in
    # age 2 or later ... to value 5 if ... age 4 or later ... to value 7 if its empire is in age 7."
    assert [civilise.next_city(v) for v in (None, 1, 3, 5)] == [1, 3, 5, 7]
    assert civilise.may_urbanise(None, age=1)
    assert not civilise.may_urbanise(1, age=1)
    assert civilise.may_urbanise(1, age=2)
    assert not civilise.may_urbanise(3, age=3)
    assert civilise.may_urbanise(3, age=4)
    assert not civilise.may_urbanise(5, age=6)
    assert civilise.may_urbanise(5, age=7)
    assert not civilise.may_urbanise(7, age=7)


def test_mongol_builder_one_age_early_e30() -> None:
    # L1004: "Builders may also improve cities one age earlier than usual (e.g., an area containing a
    # Mongol (card 41) Builder in age 3 could improve cities up to value 5)."
    assert load_deck().by_empire("Mongols").empire.ages[0] == 3
    assert civilise.city_limit(3, builder=True) == 5
    assert civilise.may_urbanise(3, age=3, builder=True)
    assert not civilise.may_urbanise(5, age=3, builder=True)
    assert civilise.city_limit(7, builder=True) == 7


def test_two_fertile_areas_or_one_other_e30() -> None:
    # L996: "build or improve cities in undisordered areas, either in 2 fertile areas or in one other
    # land area."
    terrains = {"Egypt": "fertile", "Ukraine": "fertile", "Mongolia": "steppe", "Altai": "mountain"}
    assert civilise.urban_plan_problem(["Egypt", "Ukraine"], terrains) is None
    assert civilise.urban_plan_problem(["Mongolia"], terrains) is None
    assert civilise.urban_plan_problem(["Egypt", "Mongolia"], terrains) is not None
    assert civilise.urban_plan_problem(["Mongolia", "Altai"], terrains) is not None
    assert civilise.urban_plan_problem(["Egypt", "Egypt"], terrains) is not None


def test_romans_modernise_at_level_40_e28() -> None:
    # L980: "The Romans are at progress level 40. They can turn over all their swords, upgrading them to
    # motorised infantry, their ships-of-the-line to battleships (progress level 39), galleys to
    # cruisers and so on."
    assert civilise.modernised("Sword", 40) == "Motorised"
    assert civilise.modernised("Ship-of-the-line", 40) == "Battleship"
    assert civilise.modernised("Galley", 40) == "Cruiser"
    assert civilise.modernised("Sword", 39) is None  # motorised infantry come at 40
    # L982: "You may even downgrade your units if you wish (e.g., a bomber can convert to a fighter"
    assert civilise.modernised("Bomber", 46) == "Fighter"
    assert civilise.modernised("Fighter", 46) == "Bomber"


def test_disorder_removal_costs_income_minimum_five() -> None:
    # L986-988: "pays that area's (undisordered) net income ... ignoring leaders, minimum 5" and
    # "Cyrenaica (L6) with no city, 5."
    assert civilise.disorder_cost(0) == 5
    assert civilise.disorder_cost(10) == 10


def test_christianity_marker_swap_rule_e26() -> None:
    # L907: "Alex's Mughals (card 48) are Islamic. On the marker's back is the last available Christian
    # artefact. Cat can still play or Adopt Christianity on her Italians (card 44) if there is another
    # Islamic artefact available that could be swapped for Alex's."
    # On bare markers: the Islamic marker with the Christian back can be swapped for another Islamic one
    counters = [("Islam", "Christianity"), ("Islam", "Buddhism")]
    assert beliefs.marker_available("Christianity", ["Islam"], counters)
    assert beliefs.swap_path("Christianity", {0: "Islam"}, counters) == [0, 1]
    # no other Islamic marker free: the Mughals keep the only counter that shows Christianity
    assert not beliefs.marker_available("Christianity", ["Islam"], [("Islam", "Christianity"),
                                                                   ("Hinduism", "Buddhism")])
    assert not beliefs.marker_available("Christianity", ["Islam", "Buddhism"], counters)
    # "swap them around": a chain of exchanges when one is not enough. The Islamic marker's other Islamic
    # partner shows Hinduism for another empire, which moves to a free Hindu marker.
    chain = [("Islam", "Christianity"), ("Islam", "Hinduism"), ("Hinduism", "Buddhism")]
    assert beliefs.swap_path("Christianity", {0: "Islam", 1: "Hinduism"}, chain) == [0, 1, 2]
    assert beliefs.turned([0, 1, 2], "Christianity", {0: "Islam", 1: "Hinduism"}) == {
        0: "Christianity", 1: "Islam", 2: "Hinduism"}


def test_belief_markers_are_double_sided() -> None:
    # L917: "the religious and government artefacts have different religions or governments on the back"
    deck = load_deck()
    kinds = {a.name: a.kind for a in deck.artefacts.values() if a.kind in ("religion", "government")}
    for front, back in deck.belief_markers:
        assert front != back and kinds[front] == kinds[back]
    for name in kinds:
        assert sum(sides.count(name) for sides in deck.belief_markers) == deck.artefacts[name].markers
    assert ("Islam", "Christianity") in deck.belief_markers  # E26's marker


# Other empires (card numbers) and areas to hold the rest of the markers in the E26 positions.
OTHERS = [(1, "Egypt"), (2, "Sumer"), (3, "Crete"), (4, "Jin"), (5, "Henan"), (6, "Assyria"),
          (7, "Cappadocia")]


def e26_table(islam_everywhere: bool) -> tuple[Table, int]:
    """Alex (seat 0): the Mughals, Islamic on the marker with the Christian back; every other Christian
    marker held by seat 2's empires (with ``islam_everywhere``, every other Islamic one too). Cat (seat
    1): the Italians, with a Christianity card in hand, civilising."""
    markers = load_deck().belief_markers
    islam_christian = markers.index(("Islam", "Christianity"))
    christian = [m for m, sides in enumerate(markers) if "Christianity" in sides and m != islam_christian]
    islamic = [m for m, sides in enumerate(markers) if "Islam" in sides and m != islam_christian]
    holders = [("Christianity", m) for m in christian] + [("Islam", m) for m in islamic if islam_everywhere]
    christianity = next(c.number for c in load_deck().cards.values() if c.artefact == "Christianity")
    t = Table(3).empire("Mughals", 0, 25, ["Punjab"], religions=("Islam",),
                        belief_markers={"Islam": islam_christian})
    for (card, area), (belief, m) in zip(OTHERS, holders, strict=False):
        t.empire(load_deck().cards[card].empire.name, 2, 25, [area], religions=(belief,),
                 belief_markers={belief: m})
    t.empire("Italians", 1, 40, ["Latium"]).hand(1, christianity)
    # the Mughals' marker's back is the last Christian side: no free marker shows Christianity
    held = {m for e in t.state.empires for _, m in e.belief_markers}
    assert {m for m, sides in enumerate(markers) if "Christianity" in sides} <= held
    civilising(t, 1, "Italians")
    return t, christianity


@pytest.mark.parametrize("how", ["play", "adopt"])
def test_christianity_marker_swap_e26(how: str) -> None:
    # E26 (L907) in play: Cat plays (or adopts) Christianity on her Italians; the Mughals' Islamic marker
    # is swapped for another Islamic one, and its Christian back goes to the Italians.
    t, christianity = e26_table(islam_everywhere=False)
    markers = load_deck().belief_markers
    before = dict(t.of("Mughals").belief_markers)["Islam"]
    if how == "play":
        t.do(PlayArtefact(1, christianity, card_of("Italians")))
    else:  # from an empire in range holding it (L962)
        to_stage(t, 1, "beliefs")
        t.do(Adopt(1, "Christianity"))
    assert t.of("Italians").religions == ("Christianity",)
    assert t.of("Italians").belief_markers == (("Christianity", before),)
    after = dict(t.of("Mughals").belief_markers)["Islam"]
    assert t.of("Mughals").religions == ("Islam",) and after != before and "Islam" in markers[after]
    [swap] = t.named("belief_marker_swapped")
    words = GAME.describe_event(swap, ["alex (Red)", "cat (Blue)", "dana (Green)"])
    assert words is not None and "Mughals" in words and "Italians" in words and "Christianity" in words


def test_no_swap_frees_christianity_e26() -> None:
    # E26 (L907) the other way: no other Islamic marker is available to swap for Alex's, so no marker can
    # show Christianity and Cat cannot play it (nor could any chain of swaps free one).
    t, christianity = e26_table(islam_everywhere=True)
    assert not beliefs.available(t.state, "Christianity")
    assert beliefs.available(t.state, "Hinduism")  # other markers are free: Christianity alone is out
    err = t.refused(PlayArtefact(1, christianity, card_of("Italians")), "artefact_refused")
    assert "Christianity" in err.message
    to_stage(t, 1, "beliefs")
    assert Adopt(1, "Christianity") not in t.legal(1)
    t.refused(Adopt(1, "Christianity"), "not_adoptable")


def test_religions_the_card_allows() -> None:
    # L901: "Some empires (e.g., the Shogunate, card 22) have two religious glory categories. They may
    # have up to two religions ... All other empires may have no more than one religion at a time."
    shogunate = load_deck().cards[22].empire
    cats = sum(1 for g in shogunate.glory if g["category"] == "religion")
    assert cats == 2
    assert civilise.may_take_religion(["Buddhism"], "Pantheism", cats) is None
    assert civilise.may_take_religion(["Buddhism", "Pantheism"], "Islam", cats) is not None
    assert civilise.may_take_religion(["Islam"], "Christianity", 1) is not None
    assert civilise.may_take_religion([], "Christianity", 0) is None
    # L899: "One government ... only if it has no current government."
    assert civilise.may_take_government("Democracy", "Socialism") is not None
    assert civilise.may_take_government(None, "Socialism") is None


def test_artefact_glory() -> None:
    # L909-911: a green artefact gains its empire 1 glory, +1 for a religion or government no other empire
    # has; Scientists (blue) or Artists (other green) in range gain their empires 1 each; a red one
    # costs its empire 1.
    religion = civilise.artefact_glory("green", "religion", True, {}, blue=False)
    assert religion.empire == 2
    shared = civilise.artefact_glory("green", "religion", False, {}, blue=False)
    assert shared.empire == 1
    blue = civilise.artefact_glory("blue", "artefact", False, {"Germans": 1, "French": 0}, blue=True)
    assert blue.empire == 1 and blue.leaders == {"Germans": 1}
    assert civilise.artefact_glory("red", "artefact", False, {"Germans": 1}, blue=False).empire == -1


def test_artefact_area_needs_the_right_leader() -> None:
    # L921: "if an area already contains an artefact, a blue artefact may only be placed in that area if
    # there is also a Scientist there, or any other green artefact if there is already an Artist there."
    assert civilise.artefact_area_problem(False, blue=True, leaders_there=()) is None
    assert civilise.artefact_area_problem(True, blue=True, leaders_there=("Scientist",)) is None
    assert civilise.artefact_area_problem(True, blue=True, leaders_there=("Artist",)) is not None
    assert civilise.artefact_area_problem(True, blue=False, leaders_there=("Artist",)) is None
    assert civilise.artefact_age_problem((4, 7), 3) is not None
    assert civilise.artefact_age_problem((4, 7), 4) is None


def test_english_leaders_e8() -> None:
    # L948: "Susan's English are still in age 4 when they civilise. As Shakespeare has not yet appeared,
    # Susan may place him in any English controlled area."
    named = [("Elizabeth", 4), ("Shakespeare", 4)]
    assert civilise.named_for_age(named, 4, appeared=["Elizabeth"]) == ["Shakespeare"]
    assert civilise.named_for_age(named, 5, appeared=[]) == []
    # L940: "Your empire may promote one leader if it has fewer leaders on the map than the empire's
    # Leader number."
    english = load_deck().by_empire("English").empire
    assert civilise.may_promote(english.leaders - 1, english.leaders)
    assert not civilise.may_promote(english.leaders, english.leaders)


def test_discarding_without_the_card_disorders() -> None:
    # L970: "disorder every land area in the empire containing a city without a leader or a leader
    # without a city."
    got = civilise.discard_disorders(["A", "B", "C", "D"], cities=["A", "B"], leaders=["B", "C"])
    assert got == {"A", "C"}


@pytest.mark.parametrize("codes", [["money"], ["card_check", "glory"], ["free_city"]])
def test_events_part_two_plays(codes: list[str]) -> None:
    assert civilise.event_problem(codes, "civilise") is None


def test_an_effect_civilise_does_not_carry_out_is_refused_by_name() -> None:
    problem = civilise.event_problem(["steal_money"], "civilise")  # a harvest effect: not a Civilise one
    assert problem == "That event's effect (steal money) cannot be carried out in a Civilise action."
    assert civilise.event_problem(["money"], "conflict") is not None


def test_every_civilise_or_any_time_event_of_the_deck_is_carried_out() -> None:
    """The refusal above is for a data edit only: no card of the deck meets it."""
    from engine.seven_ages.cards import load_deck
    refused = {c.event.name: civilise.event_problem([x["code"] for x in c.event.effects], c.event.timing)
               for c in load_deck().cards.values() if c.event.timing in ("civilise", "any")}
    cancels_only = "That event only cancels another event as it is played; it has nothing to do on its own."
    assert refused and {name: why for name, why in refused.items() if why and why != cancels_only} == {}


def test_every_civilise_event_code_is_known() -> None:
    from engine.seven_ages.effects import EFFECTS
    assert set(EFFECTS) >= civilise.EVENT_CODES_NOW


# -- the civilise step, played through the step machine --------------------------------------------

def civilising(t: Table, seat: int, empire: str) -> Table:
    t.marker(seat, "civilise", empire).enter("civilise")
    index = len(t.state.markers) - 1
    return t.do(TurnMarker(seat, index))


def to_stage(t: Table, seat: int, stage: str) -> Table:
    while t.state.go_of(seat) is not None and t.state.go_of(seat).stage != stage:  # type: ignore[union-attr]
        t.do(Done(seat))
    return t


def test_urbanise_two_fertile_areas_and_the_capital_e30() -> None:
    # L996-998: "either in 2 fertile areas or in one other land area ... If a non-Barbarian empire doesn't
    # have a Capital, the first city built or improved becomes its capital"
    areas = ["Latium", "Campania", "Tuscany", "Sardinia"]
    assert [load_map().areas[a].terrain for a in areas] == ["fertile", "fertile", "fertile", "mountain"]
    t = Table(2).empire("Romans", 0, 12, areas)
    civilising(t, 0, "Romans")
    to_stage(t, 0, "urbanise")
    t.do(Urbanise(0, "Latium"))
    assert t.state.area("Latium").city == 1 and t.of("Romans").capital == "Latium"
    t.refused(Urbanise(0, "Sardinia"), "cannot_urbanise")  # not with a fertile one
    t.refused(Urbanise(0, "Latium"), "cannot_urbanise")  # once an action
    t.do(Urbanise(0, "Campania"))
    t.refused(Urbanise(0, "Tuscany"), "cannot_urbanise")  # two fertile areas at most
    assert [t.state.area(a).city for a in areas] == [1, 1, 0, 0]


def test_urbanise_one_other_land_area() -> None:
    t = Table(2).empire("Romans", 0, 12, ["Latium", "Sardinia"], capital="Latium").city("Latium", 1)
    civilising(t, 0, "Romans")
    to_stage(t, 0, "urbanise")
    t.do(Urbanise(0, "Sardinia"))
    t.refused(Urbanise(0, "Latium"), "cannot_urbanise")
    assert t.state.area("Sardinia").city == 1 and t.of("Romans").capital == "Latium"


def test_urbanise_age_limit_and_the_mongol_builder_e30() -> None:
    # L1002: "A city can only be improved to value 3 if its empire is in age 2 or later"; L1004: "an area
    # containing a Mongol (card 41) Builder in age 3 could improve cities up to value 5"
    t = Table(2).empire("Mongols", 0, 16, ["Mongolia", "Gobi"], leaders=[("Builder", "Mongolia")],
                        capital="Mongolia")
    t.city("Mongolia", 3)
    civilising(t, 0, "Mongols")
    to_stage(t, 0, "urbanise")
    t.do(Urbanise(0, "Mongolia"))
    assert t.state.area("Mongolia").city == 5
    t2 = Table(2).empire("Mongols", 0, 16, ["Mongolia"], capital="Mongolia").city("Mongolia", 3)
    civilising(t2, 0, "Mongols")
    to_stage(t2, 0, "urbanise")
    t2.refused(Urbanise(0, "Mongolia"), "cannot_urbanise")


def test_builder_extra_city_e30() -> None:
    # L1004: "An empire (even Barbarian) with a Builder may build or improve an extra city during the same
    # civilise action. The extra city must be in the area the leader occupies"
    t = Table(2).empire("Mongols", 0, 16, ["Mongolia", "Gobi", "Altai"], leaders=[("Builder", "Altai")],
                        capital="Mongolia")
    t.city("Mongolia", 1)
    civilising(t, 0, "Mongols")
    to_stage(t, 0, "urbanise")
    t.do(Urbanise(0, "Mongolia"))  # the one other land area
    t.refused(Urbanise(0, "Gobi"), "cannot_urbanise")
    t.do(Urbanise(0, "Altai"))  # the Builder's extra
    assert (t.state.area("Mongolia").city, t.state.area("Altai").city) == (3, 1)


def test_romans_modernise_in_the_flow_e28() -> None:
    # L980: the Romans at 40 turn their swords into motorised infantry
    t = Table(2).empire("Romans", 0, 40, {"Latium": {"Sword": 3, "Galley": 1}})
    civilising(t, 0, "Romans")
    to_stage(t, 0, "modernise")
    assert set(t.legal(0)) >= {Modernise(0, "Latium", "Sword"), Modernise(0, "Latium", "Galley")}
    t.do(Modernise(0, "Latium", "Sword"))
    assert t.of("Romans").count("Latium", "Motorised") == 3 and t.of("Romans").count("Latium", "Sword") == 0


def test_shakespeare_promoted_e8() -> None:
    # L948: "As Shakespeare has not yet appeared, Susan may place him in any English controlled area."
    t = Table(2).empire("English", 0, 23, ["England", "Scotland"])
    t.state = replace(t.state, appeared=("Elizabeth",))
    civilising(t, 0, "English")
    to_stage(t, 0, "leaders")
    assert PromoteLeader(0, "Shakespeare", "Scotland") in t.legal(0)
    assert all(getattr(a, "name", "") != "Elizabeth" for a in t.legal(0))
    t.do(PromoteLeader(0, "Shakespeare", "Scotland"))
    assert [ld.name for ld in t.of("English").leaders] == ["Shakespeare"]
    assert "Shakespeare" in t.state.appeared
    t.refused(PromoteLeader(0), "no_promotion")  # one promotion a civilise (L940)


def test_unnamed_leader_drawn_kept_or_returned() -> None:
    # L950: "randomly pick a leader from the cup. You may return it to the cup if you don't like that
    # leader. If it is a 'no leader' counter, you must return it to the cup."
    t = Table(2).empire("Sumerians", 0, 3, ["Sumer"])
    t.state = replace(t.state, cup=("no leader",))
    civilising(t, 0, "Sumerians")
    to_stage(t, 0, "leaders")
    t.do(PromoteLeader(0))
    t.refused(KeepLeader(0, "Sumer"), "no_leader")
    t.do(KeepLeader(0))
    assert t.state.cup == ("no leader",)
    t.refused(PromoteLeader(0), "no_more_picks")  # the Sumerians' leader number is 1


@pytest.mark.parametrize("stage", ["cards", "leaders"])
@pytest.mark.parametrize("area", ["", "Sumer"])
def test_keeping_a_leader_none_was_drawn_is_refused_with_a_sentence(stage: str, area: str) -> None:
    """A leader is kept or returned only once drawn (L950): a keep sent before (a stale answer, as a random
    playout sent one: 5 players, seed 3, 12 turns) is refused with a sentence, changing nothing."""
    t = Table(2).empire("Sumerians", 0, 3, ["Sumer"])
    civilising(t, 0, "Sumerians")
    to_stage(t, 0, stage)
    err = t.refused(KeepLeader(0, area), "nothing_drawn")
    assert err.message == "You have drawn no leader from the cup to keep or return."


def test_a_leader_kept_is_not_kept_twice() -> None:
    """Once the leader drawn is kept (L950), the same keep sent again (a stale answer, as a random playout
    sent one: 5 players, seed 1, 6 turns, option 16 on) is refused: before, it placed a second leader."""
    t = Table(2).empire("Sumerians", 0, 3, ["Sumer"])
    t.state = replace(t.state, cup=("Tactician",))
    civilising(t, 0, "Sumerians")
    to_stage(t, 0, "leaders")
    t.do(PromoteLeader(0))
    t.do(KeepLeader(0, "Sumer"))
    assert [ld.name for ld in t.of("Sumerians").leaders] == ["Tactician"]
    t.refused(KeepLeader(0, "Sumer"), "nothing_drawn")


def test_playing_an_artefact_gains_glory() -> None:
    # L909: "If a green or Blue artefact is played, put the matching green marker on one of the empire's
    # Land areas. That empire gains 1 glory."
    card = next(c.number for c in load_deck().cards.values() if c.artefact == "Forum")
    t = Table(2).empire("Romans", 0, 12, ["Latium"]).hand(0, card)
    civilising(t, 0, "Romans")
    t.do(PlayArtefact(0, card, card_of("Romans"), "Latium"))
    assert t.state.area("Latium").artefacts == ("Forum",)
    assert t.glory(0) == 1 and card in t.state.discard


def test_artists_in_range_gain_glory() -> None:
    # L911: "Each ... Artist in range when any other green artefact is placed there, also gains that
    # leader's empire 1 glory."
    card = next(c.number for c in load_deck().cards.values() if c.artefact == "Forum")
    t = Table(2).empire("Romans", 0, 12, ["Latium"]).empire("Etruscans", 1, 12, ["Tuscany"],
                                                          leaders=[("Artist", "Tuscany")]).hand(0, card)
    civilising(t, 0, "Romans")
    t.do(PlayArtefact(0, card, card_of("Romans"), "Latium"))
    assert (t.glory(0), t.glory(1)) == (1, 1)


def test_a_second_artefact_needs_an_artist() -> None:
    # L921
    a = next(c.number for c in load_deck().cards.values() if c.artefact == "Forum")
    t = Table(2).empire("Romans", 0, 12, ["Latium"]).artefact("Latium", "Peace treaty").hand(0, a)
    civilising(t, 0, "Romans")
    t.refused(PlayArtefact(0, a, card_of("Romans"), "Latium"), "artefact_refused")


def test_a_religion_new_to_the_world_gains_two() -> None:
    # L909-911: 1 glory, and another "if no other empire currently has that religion"
    card = next(c.number for c in load_deck().cards.values() if c.artefact == "Christianity")
    t = Table(2).empire("Romans", 0, 12, ["Latium"]).hand(0, card)
    civilising(t, 0, "Romans")
    t.do(PlayArtefact(0, card, card_of("Romans")))
    assert t.of("Romans").religions == ("Christianity",) and t.glory(0) == 2


def test_adopting_a_religion_in_range() -> None:
    # L962: "If an empire with a religion or government is within Range of yours, your empire may now adopt
    # that religion or government (and gain 1 glory) ... provided no area in your empire is disordered."
    t = Table(2).empire("Romans", 0, 12, ["Latium"]).empire("Etruscans", 1, 12, ["Tuscany"],
                                                          religions=("Pantheism",))
    civilising(t, 0, "Romans")
    to_stage(t, 0, "beliefs")
    t.do(Adopt(0, "Pantheism"))
    assert t.of("Romans").religions == ("Pantheism",) and t.glory(0) == 1
    t2 = Table(2).empire("Romans", 0, 12, ["Latium", "Campania"]).empire(
        "Etruscans", 1, 12, ["Tuscany"], religions=("Pantheism",)).disorder("Campania")
    civilising(t2, 0, "Romans")
    to_stage(t2, 0, "beliefs")
    t2.refused(Adopt(0, "Pantheism"), "not_adoptable")


def test_renouncing_without_the_card_disorders() -> None:
    # L970: "Otherwise, disorder every land area in the empire containing a city without a leader or a
    # leader without a city."
    t = Table(2).empire("Romans", 0, 12, ["Latium", "Campania", "Tuscany"], religions=("Pantheism",),
                        leaders=[("Builder", "Tuscany")]).city("Latium", 3)
    civilising(t, 0, "Romans")
    to_stage(t, 0, "beliefs")
    t.do(Renounce(0, "Pantheism"))
    assert t.of("Romans").religions == ()
    assert [t.state.area(a).disorder for a in ("Latium", "Campania", "Tuscany")] == [True, False, True]


def test_removing_disorder_costs_at_least_five() -> None:
    # L986-988: "Cyrenaica (L6) with no city, 5."
    t = Table(2).empire("Egyptians", 0, 5, ["Egypt", "Cyrenaica"], money=6).disorder("Cyrenaica")
    civilising(t, 0, "Egyptians")
    to_stage(t, 0, "disorder")
    t.do(RemoveDisorder(0, "Cyrenaica"))
    assert not t.state.area("Cyrenaica").disorder and t.of("Egyptians").money == 1


def test_an_event_of_part_two() -> None:
    card = next(c.number for c in load_deck().cards.values() if c.event.name == "Peacock throne")
    t = Table(2).empire("Romans", 0, 12, ["Latium"], money=3).hand(0, card)
    civilising(t, 0, "Romans")
    t.do(PlayEvent(0, card, card_of("Romans")))
    assert t.of("Romans").money == 3 + 8 and card in t.state.discard
    # and the table reads what it did, not only that it was played (the card: "+8 money")
    said = [GAME.describe_event(e, ["alice", "bob"]) for e in t.named("event_effect")]
    assert said == ["Effect on the Romans: gain 8 money."]


def test_an_event_of_another_timing_is_refused_by_name() -> None:
    card = next(c.number for c in load_deck().cards.values() if c.event.timing == "production")
    t = Table(2).empire("Romans", 0, 12, ["Latium"]).empire("Etruscans", 1, 12, ["Tuscany"]).hand(0, card)
    civilising(t, 0, "Romans")
    err = t.refused(PlayEvent(0, card, card_of("Etruscans")), "event_not_now")
    assert "during production" in err.message
    assert all(not isinstance(a, PlayEvent) for a in t.legal(0))


def test_the_extra_marker_only_plays_cards() -> None:
    # L349: the additional marker's Civilise is "only for playing artefact and event cards"
    card = next(c.number for c in load_deck().cards.values() if c.event.name == "Peacock throne")
    t = Table(2).empire("Romans", 0, 12, ["Latium"], money=0).hand(0, card)
    t.marker(0, "civilise").enter("civilise").do(TurnMarker(0, 0))
    t.refused(Urbanise(0, "Latium"), "no_empire")
    t.do(PlayEvent(0, card, card_of("Romans")), Done(0))
    assert t.of("Romans").money == 8


def test_the_dominant_religion_may_change() -> None:
    # L966: "If an empire has two religion artefacts on their card, the leftmost is dominant. You may change
    # the order now."
    t = Table(2).empire("Shogunate", 0, 20, ["Yamato"], religions=("Buddhism", "Pantheism"))
    civilising(t, 0, "Shogunate")
    to_stage(t, 0, "beliefs")
    t.refused(Dominant(0, "Buddhism"), "not_second")
    t.do(Dominant(0, "Pantheism"))
    assert t.of("Shogunate").religions == ("Pantheism", "Buddhism")
