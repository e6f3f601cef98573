"""7 Ages option 16 (L1362-1999): the artefacts' prerequisites, checked by Civilise.

Every expected value here is read from the rulebook's "Ages:" line of the entry it names (quoted), never
from the data or the code under test.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.seven_ages import prerequisites
from engine.seven_ages.artefact_powers import OPTION, has_power
from engine.seven_ages.cards import load_deck
from engine.seven_ages.checks import check_data
from engine.seven_ages.civilisation_moves import PlayArtefact
from engine.seven_ages.game import GAME
from tests.seven_ages_builder import Scenario
from tests.seven_ages_builder_civ import Table, card_of
from tests.test_seven_ages_civilise import civilising

ON = {OPTION: True}
IR = "Industrial Revolution"
NAMES = ["alex (Red)", "cat (Blue)", "dana (Green)"]


def art_card(name: str) -> int:
    return next(c.number for c in load_deck().cards.values() if c.artefact == name)


def artefact(name: str):  # type: ignore[no-untyped-def]
    return load_deck().artefacts[name]


def with_card_artefacts(t: Table, empire: str, *names: str) -> Table:
    """Artefacts that sit on the empire's card (Renaissance, a red one...)."""
    e = t.state.empire(card_of(empire))
    t.state = t.state.with_empire(replace(e, artefacts=(*e.artefacts, *names)))
    return t


def why(t: Table, empire: str, name: str, area: str | None = None) -> str | None:
    return prerequisites.problem(t.state, t.state.empire(card_of(empire)), artefact(name), area)


# -- the table: every Classic artefact's prerequisite, read from its entry ---------------------------------
# (artefact, the entry's words, what the data must say). The 46 artefacts without an expansion (L1390-1999).
CLASSIC: dict[str, tuple[str, dict[str, object] | None]] = {
    "Autocracy": ("Ages: 2-7", None),
    "Buddhism": ("only on an empire within Range of India", {"within_range_of": "India"}),
    "Capitalism": ("only on an empire that has Industrial Revolution", {"requires": (IR,)}),
    "Christianity": ("only on an empire in Range of Palestine (M5)", {"within_range_of": "Palestine"}),
    "Colossus of Rhodes": ("only on a coastal area", {"coastal": True}),
    "Computing": ("only on an empire that has Radio", {"requires": ("Radio",)}),
    "Concentrated ownership": ("Ages: Any", None),
    "Confucianism": ("only on an empire that controls a Chinese, or S.E. Asian land area",
                     {"controls": ("China", "S.E. Asia")}),
    "Defender of the faith": ("only on an empire with a leader and a religion, and that religion doesn't "
                              "already have a defender of the faith",
                              {"has_leader": True, "has_religion": True, "one_per_religion": True}),
    "Democracy": ("Ages: 2-7", None),
    "Forum": ("only on an undisordered area containing a city",
              {"area_city": True, "area_undisordered": True}),
    "Great Canal (Kiel)": ("only on an area adjacent to the Kiel ... Canal ... controlled by an empire that "
                           "has Industrial Revolution", {"canal": "Kiel", "requires": (IR,)}),
    "Great Canal (Panama)": ("... Panama ...", {"canal": "Panama", "requires": ("Industrial Revolution",)}),
    "Great Canal (Suez)": ("... Suez Canal ...", {"canal": "Suez", "requires": ("Industrial Revolution",)}),
    "Great Library": ("Ages: 2, 3", None),
    "Great Pyramid": ("Ages: 1-3", None),
    "Great Wall": ("Ages: 2-4", None),
    "Great Zimbabwe": ("Ages: 2-5", None),
    "Hanging gardens": ("Ages: 1, 2", None),
    "Heresy": ("only on a Religious empire", {"has_religion": True}),
    "Hinduism": ("only on an empire that controls an Indian land area", {"controls": ("India",)}),
    "Industrial Revolution": ("6, 7 (and 5 if the empire has Printing) and only on an empire with "
                              "Renaissance",
                              {"requires": ("Renaissance",), "earlier_if": (5, ("Printing",))}),
    "Internet": ("only if the empire has Computing and Satellites, and Social Media is not in play",
                 {"requires": ("Computing", "Satellites"), "not_in_play": ("Social Media",)}),
    "Islam": ("only on an empire within Range of Mecca (N6)", {"within_range_of": "Mecca"}),
    "Just rule": ("only on an empire with a leader", {"has_leader": True}),
    "Moon landing": ("only on an empire that has Computing and Satellites",
                     {"requires": ("Computing", "Satellites")}),
    "Oracle": ("Ages: 1, 2", None),
    "Pantheism": ("Ages: any", None),
    "Paved roads": ("Ages: 2-7", None),
    "Peace treaty": ("Ages: Any", None),
    "Pharos lighthouse": ("only on a coastal area", {"coastal": True}),
    "Printing": ("only on an empire with Renaissance", {"requires": ("Renaissance",)}),
    "Radio": ("only on an empire with Industrial Revolution and Printing",
              {"requires": ("Industrial Revolution", "Printing")}),
    "Railways": ("only on an empire with Paved roads and Industrial Revolution",
                 {"requires": ("Paved roads", "Industrial Revolution")}),
    "Religious strife": ("only on an empire that has a religion but no Religious leader",
                         {"has_religion": True, "lacks_leader": "Religious"}),
    "Renaissance": ("Ages: 4-7", None),
    "Revolution": ("only on an empire with at least one disordered area", {"disordered_area": True}),
    "Rutters": ("only on an empire that may build ships", {"may_build_ships": True}),
    "Satellites": ("only on an empire that has Rutters and Radio", {"requires": ("Rutters", "Radio")}),
    "Social Media": ("only if the empire has Computing and Satellites",
                     {"requires": ("Computing", "Satellites")}),
    "Socialism": ("only on an empire that has Industrial Revolution", {"requires": (IR,)}),
    "Summer Palace": ("Ages: any", None),
    "Temple of Diana": ("Ages: 1, 2", None),
    "United Nations": ("but only if the black World war marker is on the Progress track",
                       {"world_war_marker": True}),
    "Universal suffrage": ("only on ... a Capitalist, Democratic or Socialist empire that also has "
                           "Renaissance", {"requires": ("Renaissance",),
                                           "requires_any": ("Capitalism", "Democracy", "Socialism")}),
    "World war": ("7 (or any if played on an empire that has Industrial Revolution) but not if the United "
                  "Nations is on the map",
                  {"earlier_if": (1, ("Industrial Revolution",)), "not_in_play": ("United Nations",)}),
}


def _said(name: str) -> dict[str, object] | None:
    """The fields the data gives ``name`` (the defaults left out), in the table's form."""
    pre = artefact(name).prerequisite
    if pre is None:
        return None
    out: dict[str, object] = {}
    for key, value in vars(pre).items():
        if key == "source" or value in ((), None, False, 0):
            continue
        out[key] = (value.age, value.requires) if key == "earlier_if" else value
    return out


def test_the_table_holds_every_classic_artefact() -> None:
    classic = {a.name for a in load_deck().artefacts.values() if a.expansion is None}
    assert len(CLASSIC) == 46 and set(CLASSIC) == classic


@pytest.mark.parametrize("name", sorted(CLASSIC))
def test_each_classic_prerequisite_is_its_entrys(name: str) -> None:
    words, expected = CLASSIC[name]
    assert _said(name) == expected, words
    pre = artefact(name).prerequisite
    if pre is not None:  # each cites the line of its entry's "Ages:" (L1390-1999)
        assert 1390 <= int(pre.source.removeprefix("rulebook:")) <= 1999


def test_check_data_refuses_an_unknown_field_or_name(monkeypatch: pytest.MonkeyPatch) -> None:
    from engine.seven_ages import cards, data

    real = data.read_yaml

    def spoilt(name: str):  # type: ignore[no-untyped-def]
        raw = real(name)
        if name == "artefacts.yaml":
            arts = [dict(a) for a in raw["artefacts"]]
            rail = next(a for a in arts if a["name"] == "Railways")
            rail["prerequisite"] = {**rail["prerequisite"], "requires": ["Paved roads", "Steam engine"],
                                    "owns_a_horse": True}
            raw = {**raw, "artefacts": arts}
        return raw

    monkeypatch.setattr(cards, "read_yaml", spoilt)
    problems = check_data()
    assert any("Railways" in p and "'Steam engine'" in p for p in problems), problems
    assert any("Railways" in p and "'owns_a_horse'" in p for p in problems), problems


# -- E42 and E43: the blue markers -------------------------------------------------------------------------
def sudanese_at_31() -> Table:
    t = Table(3, ON).empire("Sudanese", 0, 31, ["Sudan", "Nubia"]).artefact("Nubia", "Printing")
    return with_card_artefacts(t, "Sudanese", "Renaissance").hand(0, art_card("Industrial Revolution"))


def test_industrial_revolution_on_the_sudanese_e42() -> None:
    # E42 (L1382): "The Sudanese empire (card 80) is on Progress level 31 (in age 5) when they have Industrial
    # Revolution played on them. Its blue marker is placed 2 spaces (7-their age) ahead on the progress track.
    # The Sudanese and every empire on progress level 33 or higher receive the benefits of Industrial
    # revolution and satisfy the prerequisite for having Railways played on them."
    t = sudanese_at_31()
    t.empire("Romans", 1, 33, ["Latium"], leaders=[("Scientist", "Latium")])
    t.empire("Franks", 1, 34, ["Burgundy"])
    t.empire("Macedonians", 2, 32, ["Persis"], leaders=[("Scientist", "Persis")])
    for name in ("Romans", "Franks", "Macedonians"):
        t.artefact({"Romans": "Latium", "Franks": "Burgundy", "Macedonians": "Persis"}[name], "Paved roads")
    assert "Industrial Revolution" in (why(t, "Romans", "Railways") or "")  # before: nobody has it
    civilising(t, 0, "Sudanese")
    t.do(PlayArtefact(0, art_card("Industrial Revolution"), card_of("Sudanese"), "Sudan"))
    assert t.state.progress_markers == (("Industrial Revolution", 33),)
    s = t.state
    assert [has_power(s, s.empire(card_of(n)), "Industrial Revolution")
            for n in ("Sudanese", "Romans", "Franks", "Macedonians")] == [True, True, True, False]
    assert why(t, "Romans", "Railways", "Latium") is None  # 33, a dark age: its Scientist lets it come
    assert why(t, "Franks", "Railways", "Burgundy") is None
    refusal = why(t, "Macedonians", "Railways", "Persis")
    assert refusal is not None and "Industrial Revolution" in refusal and "Macedonians" in refusal
    [marker] = t.named("blue_marker")
    words = GAME.describe_event(marker, NAMES)
    assert words is not None and "33" in words and "Sudanese" in words


def test_the_blue_marker_is_placed_once_and_stays() -> None:
    # L1378: "If not already on the progress track"; L1384: "Blue artefact markers on the track are never
    # removed."
    t = sudanese_at_31()
    t.state = replace(t.state, progress_markers=(("Industrial Revolution", 40),))
    civilising(t, 0, "Sudanese")
    t.do(PlayArtefact(0, art_card("Industrial Revolution"), card_of("Sudanese"), "Sudan"))
    assert t.state.progress_markers == (("Industrial Revolution", 40),)


def test_a_late_start_puts_blue_markers_on_the_next_ages_e43() -> None:
    # E43 (L1388): "You start the game by playing the French (card 32) and place their progress marker on
    # progress level 22. You place the blue Paved roads marker on progress level 15 and the blue Rutters
    # marker on progress level 22. The French may build ships-of-the-line during Start empire."
    # (Ships-of-the-line come at level 23; Rutters: "may build ships-of-the-line even if not yet at
    # progress level 23", L1903.)
    from engine.seven_ages.actions import Build, Done, StartCard
    from tests.seven_ages_builder import card
    from tests.test_seven_ages_start import begin, starting, through_colour

    def ships_of_the_line(s: Scenario) -> set[str]:
        while not any(isinstance(a, Build) for a in s.legal(0)):  # past the leaders, to the builds
            s.play(next(a for a in s.legal(0) if isinstance(a, Done) or not isinstance(a, Build)))
        return {a.area for a in s.legal(0) if isinstance(a, Build) and a.unit == "Ship-of-the-line"}

    s = begin(starting("French", **ON))
    s.play(StartCard(0, card("French")))
    through_colour(s)
    assert s.empire_of("French").progress == 22
    assert dict(s.state.progress_markers) == {"Paved roads": 15, "Rutters": 22}
    assert ships_of_the_line(s)  # at 22, on the Rutters marker
    off = begin(starting("French"))
    off.play(StartCard(0, card("French")))
    through_colour(off)
    assert off.state.progress_markers == ()  # L929: without option 16 no blue marker is used
    assert not ships_of_the_line(off)


# -- one test per kind of prerequisite ----------------------------------------------------------------------
def test_requires_names_what_is_missing() -> None:
    # L1423 "Capitalism* Ages: 5-7 (only on an empire that has Industrial Revolution)"
    t = Table(2, ON).empire("Sudanese", 0, 31, ["Sudan"]).hand(0, art_card("Capitalism"))
    civilising(t, 0, "Sudanese")
    assert not any(isinstance(a, PlayArtefact) and a.card == art_card("Capitalism") for a in t.legal(0))
    err = t.refused(PlayArtefact(0, art_card("Capitalism"), card_of("Sudanese")), "artefact_refused")
    assert "Industrial Revolution" in err.message and "Sudanese" in err.message
    t.artefact("Sudan", "Industrial Revolution")
    assert why(t, "Sudanese", "Capitalism") is None


def test_without_option_16_the_standard_rules_stay() -> None:
    # L925-931: without option 16, "ignore ... all non-age specific set-up requirements".
    t = Table(2).empire("Sudanese", 0, 31, ["Sudan"]).hand(0, art_card("Capitalism"))
    civilising(t, 0, "Sudanese")
    t.do(PlayArtefact(0, art_card("Capitalism"), card_of("Sudanese")))
    assert t.state.empire(card_of("Sudanese")).government == "Capitalism"


def test_requires_any_one_government() -> None:
    # L1974: "only on, and only effects, a Capitalist, Democratic or Socialist empire that also has
    # Renaissance"
    t = with_card_artefacts(Table(2, ON).empire("Sudanese", 0, 31, ["Sudan"]), "Sudanese", "Renaissance")
    assert "Capitalism, Democracy or Socialism" in (why(t, "Sudanese", "Universal suffrage") or "")
    t.state = t.state.with_empire(replace(t.state.empire(card_of("Sudanese")), government="Democracy"))
    assert why(t, "Sudanese", "Universal suffrage") is None


def test_earlier_if_lets_industrial_revolution_into_age_5_with_printing() -> None:
    # L1684: "Ages: 6, 7 (and 5 if the empire has Printing) and only on an empire with Renaissance"
    t = with_card_artefacts(Table(2, ON).empire("Sudanese", 0, 31, ["Sudan", "Nubia"]), "Sudanese",
                            "Renaissance")
    assert "age" in (why(t, "Sudanese", "Industrial Revolution", "Sudan") or "")
    t.artefact("Nubia", "Printing")
    assert why(t, "Sudanese", "Industrial Revolution", "Sudan") is None
    # L1984: World war "Ages: 7 (or any if played on an empire that has Industrial Revolution)"
    t2 = Table(2, ON).empire("Romans", 0, 12, ["Latium"])
    assert "age" in (why(t2, "Romans", "World war") or "")
    t2.artefact("Latium", "Industrial Revolution")
    assert why(t2, "Romans", "World war") is None


def test_within_range_of_an_area_and_of_a_region() -> None:
    # L1435: Christianity "only on an empire in Range of Palestine (M5)"; L1411: Buddhism "within Range of
    # India".
    t = Table(3, ON).empire("Romans", 0, 12, ["Latium"]).empire("Phoenicians", 1, 12, ["Phoenicia"])
    t.empire("Mauryans", 2, 12, ["Bengal"])
    assert "Palestine" in (why(t, "Romans", "Christianity") or "")
    assert why(t, "Phoenicians", "Christianity") is None
    assert why(t, "Mauryans", "Buddhism") is None  # in India itself
    assert "India" in (why(t, "Romans", "Buddhism") or "")


def test_controls_a_land_area_of_a_region() -> None:
    # L1467: Confucianism "only on an empire that controls a Chinese, or S.E. Asian land area"
    t = Table(2, ON).empire("Qin", 0, 12, ["Henan"]).empire("Romans", 1, 12, ["Latium"])
    assert why(t, "Qin", "Confucianism") is None
    assert "China or S.E. Asia" in (why(t, "Romans", "Confucianism") or "")


def test_coastal_area() -> None:
    # L1447: Colossus of Rhodes "only on a coastal area"
    t = Table(2, ON).empire("Romans", 0, 5, ["Latium", "Bohemia"])
    assert why(t, "Romans", "Colossus of Rhodes", "Latium") is None
    assert "coastal" in (why(t, "Romans", "Colossus of Rhodes", "Bohemia") or "")


def test_has_leader_and_has_religion_and_lacks_leader() -> None:
    # L1732 Just rule "only on an empire with a leader"; L1656 Heresy "only on a Religious empire";
    # L1864 Religious strife "only on an empire that has a religion but no Religious leader".
    t = Table(2, ON).empire("Romans", 0, 12, ["Latium"])
    assert "leader" in (why(t, "Romans", "Just rule") or "")
    assert "religion" in (why(t, "Romans", "Heresy") or "")
    t.empire("Franks", 1, 12, ["Burgundy"], leaders=[("Religious", "Burgundy")], religions=("Christianity",))
    assert why(t, "Franks", "Just rule") is None and why(t, "Franks", "Heresy") is None
    assert "Religious leader" in (why(t, "Franks", "Religious strife") or "")


def test_one_defender_per_religion() -> None:
    # L1483: "only on an empire with a leader and a religion, and that religion doesn't already have a
    # defender of the faith"
    t = Table(2, ON).empire("Franks", 0, 12, ["Burgundy"], leaders=[("Tactician", "Burgundy")],
                            religions=("Christianity",))
    t.empire("Romans", 1, 12, ["Latium"], leaders=[("Tactician", "Latium")], religions=("Christianity",))
    assert why(t, "Romans", "Defender of the faith") is None
    with_card_artefacts(t, "Franks", "Defender of the faith")
    assert "Christianity already has" in (why(t, "Romans", "Defender of the faith") or "")


def test_disordered_area() -> None:
    # L1884: Revolution "only on an empire with at least one disordered area"
    t = Table(2, ON).empire("Romans", 0, 12, ["Latium", "Campania"])
    assert "disordered" in (why(t, "Romans", "Revolution") or "")
    t.disorder("Campania")
    assert why(t, "Romans", "Revolution") is None


def test_not_in_play() -> None:
    # L1692: Internet "only if the empire has Computing and Satellites, and Social Media is not in play"
    t = Table(2, ON).empire("Americans", 0, 44, ["Virginia", "Illinois", "Texas"])
    t.empire("Romans", 1, 44, ["Latium"])
    t.artefact("Virginia", "Computing").artefact("Illinois", "Satellites")
    assert why(t, "Americans", "Internet") is None
    with_card_artefacts(t, "Romans", "Social Media")
    assert "Social Media" in (why(t, "Americans", "Internet") or "")


def test_world_war_marker_for_the_united_nations() -> None:
    # L1962: United Nations "but only if the black World war marker is on the Progress track"
    t = Table(2, ON).empire("Romans", 0, 44, ["Latium"])
    assert "World war" in (why(t, "Romans", "United Nations") or "")
    t.state = replace(t.state, world_war=43)
    assert why(t, "Romans", "United Nations") is None


def test_may_build_ships() -> None:
    # L1901: Rutters "only on an empire that may build ships"; the Olmecs' icon bars ships until a trade
    # (L519)
    t = Table(2, ON).empire("Olmecs", 0, 15, ["Anahuac"]).empire("Romans", 1, 15, ["Latium"])
    assert "ships" in (why(t, "Olmecs", "Rutters", "Anahuac") or "")
    assert why(t, "Romans", "Rutters", "Latium") is None


def test_forum_needs_an_undisordered_city() -> None:
    # L1556: Forum "only on an undisordered area containing a city"
    t = Table(2, ON).empire("Romans", 0, 12, ["Latium", "Campania", "Tuscany"]).city("Latium", 1)
    t.city("Tuscany", 1).disorder("Tuscany")
    assert why(t, "Romans", "Forum", "Latium") is None
    assert "city" in (why(t, "Romans", "Forum", "Campania") or "")
    assert "disordered" in (why(t, "Romans", "Forum", "Tuscany") or "")


def test_a_canal_goes_on_its_own_area() -> None:
    # L1578: Great Canal "only on an area adjacent to the Kiel, Panama or Suez Canal (respectively) controlled
    # by an empire that has Industrial Revolution"
    t = Table(2, ON).empire("Egyptian Republic", 0, 44, ["Suez", "Egypt"]).artefact("Egypt", IR)
    assert why(t, "Egyptian Republic", "Great Canal (Suez)", "Suez") is None
    assert "Suez canal" in (why(t, "Egyptian Republic", "Great Canal (Suez)", "Egypt") or "")
    assert "Kiel canal" in (why(t, "Egyptian Republic", "Great Canal (Kiel)", "Suez") or "")


def test_blue_in_a_dark_age_needs_a_scientist() -> None:
    # L1376 (and L2057): "A blue artefact may only be played on an empire in a dark age if it has a
    # Scientist."
    t = Table(2, ON).empire("Romans", 0, 32, ["Latium"]).empire("Franks", 1, 32, ["Burgundy"],
                                                                leaders=[("Scientist", "Burgundy")])
    assert "Scientist" in (why(t, "Romans", "Paved roads", "Latium") or "")
    assert why(t, "Franks", "Paved roads", "Burgundy") is None


# -- the black marker and the Internet ----------------------------------------------------------------------
def glory_of(t: Table) -> list[int]:
    return [p.glory for p in t.state.people]


def test_world_war_marker_then_the_united_nations_ends_it() -> None:
    # L1986: World war: "Place the black world war marker on the empire's current space on the Progress
    # track." L1964: United Nations: "Discard the World war artefact and its black marker." L1999: "When
    # world war is discarded, every empire ... gains 1 glory for each fertile area it controls."
    t = Table(2, ON).empire("Romans", 0, 44, ["Latium", "Campania", "Texas"])
    t.empire("Franks", 1, 45, ["Burgundy", "Virginia"])
    t.hand(0, art_card("World war")).hand(1, art_card("United Nations"))
    civilising(t, 0, "Romans")
    t.do(PlayArtefact(0, art_card("World war"), card_of("Romans")))
    assert t.state.world_war == 44 and "World war" in t.of("Romans").artefacts
    before = glory_of(t)
    civilising(t, 1, "Franks")
    t.do(PlayArtefact(1, art_card("United Nations"), card_of("Franks")))
    assert t.state.world_war == 0 and "World war" not in t.of("Romans").artefacts
    # the Romans hold 2 fertile areas (Latium, Campania), the Franks 1 (Burgundy); the UN's own 1 glory
    # for a green artefact played (L909) comes on top for the Franks
    assert [g - b for g, b in zip(glory_of(t), before, strict=True)] == [2, 1 + 1]
    [over] = t.named("world_war_over")
    words = GAME.describe_event(over, NAMES)
    assert words is not None and "United Nations" in words and "Romans 2" in words


def test_an_empire_entering_a_higher_age_ends_the_world_war() -> None:
    # L1996-1999: discard World war "when any empire enters a higher age than the black marker", and every
    # empire "except the empire that removed the artefact by entering a higher age" gains 1 glory per
    # fertile area.
    from engine.seven_ages import steps
    from engine.seven_ages.endturn import advance

    t = Table(2, ON).empire("Romans", 0, 36, ["Latium"]).empire("Franks", 1, 42, ["Burgundy", "Tuscany"])
    t = with_card_artefacts(t, "Romans", "World war")
    t.state = replace(t.state, world_war=36)  # age 6
    ctx = steps.Ctx(t.state)
    advance(ctx, card_of("Romans"), 1)  # 37: still age 6
    assert ctx.state.world_war == 36
    advance(ctx, card_of("Franks"), 1)  # 43: age 7
    assert ctx.state.world_war == 0 and "World war" not in ctx.state.empire(card_of("Romans")).artefacts
    assert [p.glory for p in ctx.state.people] == [1, 0]  # the Romans' Latium; not the Franks'


def test_without_option_16_no_marker_moves() -> None:
    t = Table(2).empire("Romans", 0, 44, ["Latium"]).hand(0, art_card("World war"))
    civilising(t, 0, "Romans")
    t.do(PlayArtefact(0, art_card("World war"), card_of("Romans")))
    assert t.state.world_war == 0 and "World war" in t.of("Romans").artefacts


def test_the_internet_ends_the_game_with_its_glory() -> None:
    # L1694: "The empire's owner picks 1 (2 if 4 or less players) card from the deck for each player ahead of
    # them in glory (if any) and adds all the cards' value to their glory. History ends, game over."
    from tests.seven_ages_builder import cards_of_value

    t = Table(3, ON).empire("Americans", 0, 44, ["Virginia", "Illinois", "Texas"])
    t.artefact("Virginia", "Computing").artefact("Illinois", "Satellites")
    t.state = replace(t.state, people=tuple(replace(p, glory=g) for p, g in zip(t.state.people, (5, 10, 20),
                                                                                   strict=True)))
    internet = art_card("Internet")
    drawn = cards_of_value(2, 3, 4, 5, avoid=(internet,))
    t.hand(0, internet).deck_top(*drawn)
    civilising(t, 0, "Americans")
    t.do(PlayArtefact(0, internet, card_of("Americans")))
    # two players ahead, three players: 2 cards each, 4 cards of 2+3+4+5 = 14 glory
    assert t.state.phase == "over" and t.glory(0) == 5 + 14
    assert t.state.final == (19, 10, 20)
    [said] = t.named("internet")
    words = GAME.describe_event(said, NAMES)
    assert words is not None and "alex (Red)" in words and "14 glory" in words


def test_black_artefacts_need_option_16() -> None:
    # L925: without option 16, "ignore General AI, Internet"
    t = Table(2).empire("Americans", 0, 44, ["Virginia", "Illinois"]).artefact("Virginia", "Computing")
    t.artefact("Illinois", "Satellites").hand(0, art_card("Internet"))
    civilising(t, 0, "Americans")
    t.refused(PlayArtefact(0, art_card("Internet"), card_of("Americans")), "artefact_refused")


def test_the_expansions_kinds_too() -> None:
    # The expansion artefacts are on no card of the Classic deck, but their entries' kinds are checked all
    # the same. L1746 Machu Pichu "only on a forest, jungle or mountain area"; L1698 Irrigation "only on an
    # area adjacent to a river"; L1606 Great Shipyard "only on a coastal area that contains as many as or
    # more ships as any other coastal area on the map"; L1614 Great Temple "only on a Religious empire, at
    # least 2 empires have that religion, and in an area that is not a Religious site"; L1570 General AI
    # "(solely) the most advanced and also has Mars landing"; L1776 Nobel Prize "Industrial Revolution and
    # no disorder".
    t = Table(3, ON).empire("Romans", 0, 44, {"Latium": {"Spear": 1, "Galley": 2}, "Bohemia": {"Spear": 1},
                                              "Austria": {"Spear": 1}, "Palestine": {"Spear": 1},
                                              "Texas": {"Spear": 1}}, religions=("Christianity",))
    t.empire("Franks", 1, 44, {"Burgundy": {"Spear": 1}, "Tuscany": {"Spear": 1, "Galley": 3}})
    # Machu Pichu is for ages 3-5: its area alone is asked here
    machu = artefact("Machu Pichu")
    assert prerequisites.area_problem(t.state, machu, "Austria") is None
    assert "forest, jungle or mountain" in (prerequisites.area_problem(t.state, machu, "Latium") or "")
    assert why(t, "Romans", "Irrigation", "Texas") is None
    assert "river" in (why(t, "Romans", "Irrigation", "Bohemia") or "")
    assert "most ships" in (why(t, "Romans", "Great Shipyard", "Latium") or "")  # the Franks' 3 in Tuscany
    assert why(t, "Franks", "Great Shipyard", "Tuscany") is None
    assert "2 empires" in (why(t, "Romans", "Great Temple", "Latium") or "")
    t.state = t.state.with_empire(replace(t.state.empire(card_of("Franks")), religions=("Christianity",)))
    assert why(t, "Romans", "Great Temple", "Latium") is None
    assert "religious site" in (why(t, "Romans", "Great Temple", "Palestine") or "")
    with_card_artefacts(t, "Romans", "Mars landing")
    assert "most advanced" in (why(t, "Romans", "General AI") or "")  # level with the Franks
    t.state = t.state.with_empire(replace(t.state.empire(card_of("Romans")), progress=45))
    assert why(t, "Romans", "General AI") is None
    t.artefact("Latium", IR)
    assert why(t, "Romans", "Nobel Prize") is None
    t.disorder("Bohemia")
    assert "without disorder" in (why(t, "Romans", "Nobel Prize") or "")
