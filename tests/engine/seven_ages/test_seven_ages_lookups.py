"""``empire``, ``area`` and ``tracks`` for 7 Ages in words and the empire card panel (issue 29, items 3
and 4): each from one viewer's view, never naming a unit below another seat's stack top (L791) nor a card
in another seat's hand.

Every expected value is read from the state a test arranged, the printed cards or the tables, never from
the words' own helpers.
"""

from __future__ import annotations

import io
import json
import re
from typing import cast

from PIL import Image

from engine.seven_ages.cards import load_deck
from engine.seven_ages.data import load_tables
from engine.seven_ages.game import GAME
from engine.seven_ages.map import load_map
from engine.seven_ages.state import SevenState
from engine.seven_ages.view import SevenView
from render.seven_ages_panel import render_panel, standing_rows
from tests.engine.seven_ages.test_seven_ages_board_text import platform_names, playout_states, units_named
from tests.support.seven_ages_builder import Scenario, card

ROMANS, VIKINGS, PARTHIANS = card("Romans"), card("Vikings"), card("Parthians")


def table() -> SevenState:
    """alice (seat 0): the Romans, 2 Spears and a Sword in Latium (a capital of value 3 with a fort),
    Caesar there, a Spear in Campania; 9 money; the Vikings in hand. bob (seat 1): the Parthians, 3 Archers
    and a Horse Archer in Persia; the Huns in hand."""
    s = (Scenario(players=2)
         .empire("Romans", owner=0, progress=16, money=9, capital="Latium",
                 units={"Latium": {"Spear": 2, "Sword": 1}, "Campania": {"Spear": 1}},
                 leaders={"Caesar": ("Tactician", "Latium")})
         .empire("Parthians", owner=1, progress=11, money=4, units={"Persia": {"Archer": 3, "Hs. Archer": 1}})
         .city("Latium", 3).fort("Latium").hand(0, "Vikings").hand(1, "Huns"))
    return s.state


NAMES = platform_names(table())  # alice holds the orange/yellow counters, bob the red/pink (the builder's)


def printed(number: int) -> tuple[str, str, str]:
    """The three names printed on a card: its empire's, its artefact's and its event's."""
    c = load_deck().cards[number]
    return c.empire.name, c.artefact, c.event.name


def jsoned(state: SevenState, viewer: int | None) -> SevenView:
    """The view as the bot gets it, back from JSON."""
    return cast(SevenView, json.loads(json.dumps(GAME.view(state, viewer))))


def test_an_empire_on_the_map_reads_whole_to_its_owner_and_by_its_stacks_to_others() -> None:
    s = table()
    own = GAME.empire_text(jsoned(s, 0), "romans", NAMES) or ""
    lines = own.splitlines()
    value = load_deck().cards[ROMANS].value
    assert lines[0] == f"The Romans (card {ROMANS}, value {value}), the empire of alice (Orange)."
    assert "level 16, age 3, 9 money" in lines[1]
    latium = next(line for line in lines if line.startswith("- Latium: "))
    assert units_named(latium.split(";")[0].split(" (the others")[0]) == {"Spear", "Sword"}
    assert "2 Spears" in latium and "1 Sword" in latium and "Caesar (Tactician)" in latium
    assert "Cities: Latium (capital, value 3)." in lines
    assert f"Starts: {', '.join(load_deck().cards[ROMANS].empire.starts)}" in own  # one start area: Latium
    other = GAME.empire_text(jsoned(s, 1), str(ROMANS), NAMES) or ""
    latium = next(line for line in other.splitlines() if line.startswith("- Latium: "))
    assert latium.startswith("- Latium: 3 units, a "), latium
    assert len(units_named(latium.split(";")[0])) == 1
    assert GAME.empire_text(jsoned(s, None), "Rom", NAMES) == other  # a spectator sees what bob sees


def test_an_empire_in_ones_own_hand_is_its_card_and_in_anothers_hand_a_refusal() -> None:
    s = table()
    vikings = load_deck().cards[VIKINGS].empire
    own = GAME.empire_text(jsoned(s, 0), "Vikings", NAMES) or ""
    value = load_deck().cards[VIKINGS].value
    assert own.splitlines()[0] == f"The Vikings (card {VIKINGS}, value {value}) are not on the map."
    assert all(area in own for area in vikings.starts)
    for asked in ("Vikings", str(VIKINGS), f"#{VIKINGS}"):
        refused = GAME.empire_text(jsoned(s, 1), asked, NAMES) or ""
        assert "\n" not in refused and not any(area in refused for area in vikings.starts), refused
        assert render_panel(jsoned(s, 1), asked) is None
    assert GAME.empire_text(jsoned(s, 0), "Atlantis", NAMES) == "No empire of 7 Ages is called 'Atlantis'."
    assert GAME.empire_text(jsoned(s, 0), "999", NAMES) == \
        f"There is no card '999': cards are numbered 1 to {len(load_deck().cards)}."


def test_no_empire_or_area_answer_names_a_unit_below_another_seats_stack_top_or_a_hand_card() -> None:
    """Over greedy playouts, for every seat and a spectator: each empire's area lines and each area's
    units name one unit type per stack the viewer does not own (a type the stack holds); no answer names
    an empire, artefact or event printed only on cards in other seats' hands."""
    checked = 0
    areas = load_map().areas
    for state in playout_states():
        in_hands = {c for p in state.people for c in p.hand}
        for viewer in [*range(state.players), None]:
            view = jsoned(state, viewer)
            mine = set(state.people[viewer].hand) if viewer is not None else set()
            hidden = (in_hands - mine) - {e.card for e in state.empires}
            shown = {e.card for e in state.empires} | mine
            # a name printed on a hidden card, on no card the viewer may read and nowhere on the public
            # board (an artefact may share its name with a religion: Confucianism)
            public = json.dumps(GAME.view(state, None))
            secret = {n for c in hidden for n in printed(c)} - {n for c in shown for n in printed(c)} - \
                set(load_tables().religions)
            secret = {n for n in secret if n not in public}
            for e in state.empires:
                text = GAME.empire_text(view, str(e.card), NAMES) or ""
                board = text.split("\nOn the card:")[0]  # the printed card may name another empire
                assert not [n for n in secret if re.search(rf"\b{re.escape(n)}\b", board)], (viewer, e.card)
                for line in text.splitlines():
                    if not line.startswith("- "):
                        continue
                    area, rest = line[2:].split(": ", 1)
                    here = {s.unit for s in e.units if s.area == area}
                    if here and e.owner != viewer:
                        named = units_named(rest.split(";")[0])
                        assert len(named) == 1 and named <= here, (viewer, e.card, line)
                        checked += len(here) > 1
                for area in {s.area for s in e.units}:
                    place = GAME.place_text(view, area, NAMES) or ""
                    units = next(line for line in place.splitlines() if line.startswith("Units here: "))
                    for part in units.removeprefix("Units here: ").split("; "):
                        assert len(units_named(part)) <= 1, (viewer, area, part)
                    assert area in areas
            for c in hidden:
                refused = GAME.empire_text(view, str(c), NAMES) or ""
                assert "\n" not in refused and load_deck().cards[c].empire.name not in refused, refused
    assert checked >= 10  # the playouts did show mixed stacks to other seats


def test_an_area_names_its_holder_capital_leader_and_homeland() -> None:
    s = table()
    text = GAME.place_text(jsoned(s, 1), "latium", NAMES) or ""
    assert "Held by: alice (Orange)'s Romans." in text.splitlines()
    assert "the capital of alice (Orange)'s Romans, a city of value 3" in text and "a fort" in text
    assert "Leaders here: Caesar (Tactician) of alice (Orange)'s Romans." in text.splitlines()
    assert "The homeland of alice (Orange)'s Romans." in text.splitlines()
    units = next(line for line in text.splitlines() if line.startswith("Units here: "))
    assert "a stack of 3 units with a" in units and len(units_named(units)) == 1, units  # its top alone
    assert GAME.place_text(jsoned(s, 0), "latium", NAMES) == text  # the same words whoever asks
    empty = GAME.place_text(jsoned(s, 0), "Norway", NAMES) or ""
    assert "Held by: no empire." in empty.splitlines() and "Leaders here: none." in empty.splitlines()


def test_the_tracks_give_every_empires_level_and_money_and_every_seats_glory() -> None:
    s = table()
    s = s.with_player(s.people[1].gain("cities", 7))
    text = GAME.tracks_text(jsoned(s, 0), NAMES) or ""
    lines = text.splitlines()
    assert "Progress: the Romans of alice (Orange) level 16 (age 3); the Parthians of bob (Red) level 11 " \
           "(age 2)." in lines, lines
    assert "Glory: bob (Red) 7; alice (Orange) 0." in lines
    assert "Money: the Romans 9; the Parthians 4." in lines
    dark = sorted(load_tables().dark_ages)
    assert any(line.startswith("Dark-age levels") and all(str(d) in line for d in dark) for line in lines)


def test_the_panel_shows_the_owner_unit_types_and_others_a_count_alone() -> None:
    s = table()
    areas = {a["name"]: a for a in jsoned(s, None)["areas"]}
    for viewer, named in ((0, {"Spear", "Sword"}), (1, set())):
        romans = next(e for e in jsoned(s, viewer)["empires"] if e["card"] == ROMANS)
        rows = dict(standing_rows(romans, areas))
        assert units_named(rows["Units"]) == named, rows["Units"]
        assert rows["Units"] == ("3 Spears and 1 Sword" if viewer == 0 else "4 units"), rows["Units"]
        assert rows["Cities"] == "Latium 3 (capital)"
    png = render_panel(jsoned(s, 1), "romans", people=("alice", "bob"))
    assert png is not None
    img = Image.open(io.BytesIO(png))
    assert img.format == "PNG" and img.width == 800 and 150 < img.height < 800
