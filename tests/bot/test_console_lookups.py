"""The console's ``empire``, ``area`` and ``tracks`` (issue 29, item 4): a 7 Ages empire with its card
panel written as a picture, an area, the tracks in words and as a picture; each from the asker's own view,
to the asker; bad input, a lobby and a game without empires or tracks get one sentence and change nothing.

7 Ages is not offered in the lobby yet: its game is opened through the service from a scenario (the
game's ``setup`` answers with it), as tests/bot/test_console_orders.py does; the other game is the test-only
toy.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

import tests.toy.spec  # noqa: F401  (the test-only game)
from bot.console import user_id_for
from engine.seven_ages.cards import load_deck
from engine.seven_ages.game import GAME
from engine.seven_ages.state import SevenState
from tests.bot.test_console import TOY, Rig, rig
from tests.bot.test_console_orders import SEAT
from tests.engine.seven_ages.test_seven_ages_board_text import units_named
from tests.support.seven_ages_builder import Scenario, card

__all__ = ["rig"]  # the fixture, used by name
ALICE, BOB = user_id_for("alice"), user_id_for("bob")
ROMANS, VIKINGS, HUNS = card("Romans"), card("Vikings"), card("Huns")


def table() -> SevenState:
    """alice (seat :data:`SEAT`): the Romans, 2 Spears and a Sword in Latium (their capital, value 3),
    9 money, the Vikings in hand; bob: the Parthians, 3 Archers in Persia, the Huns in hand."""
    bob = 1 - SEAT
    return (Scenario(players=2)
            .empire("Romans", owner=SEAT, progress=16, money=9, capital="Latium",
                    units={"Latium": {"Spear": 2, "Sword": 1}})
            .empire("Parthians", owner=bob, progress=11, money=4, units={"Persia": {"Archer": 3}})
            .city("Latium", 3).hand(SEAT, "Vikings").hand(bob, "Huns").state)


async def seven_ages(rig: Rig, monkeypatch: pytest.MonkeyPatch) -> tuple[str, str, str]:
    """The game, alice's and bob's seat names; what the start printed is read."""
    arranged = table()  # built before the patch: the builder starts from the real setup
    monkeypatch.setattr(GAME, "setup", lambda players, options, seed: arranged)
    gid = (await rig.service.create_lobby(ALICE, "alice", "seven-ages", seed=42)).game_id
    await rig.service.join(gid, BOB, "bob")
    await rig.service.start(gid, ALICE)
    status = await rig.service.status(gid)
    assert [s.seat for s in status.seats if s.user_id == ALICE] == [SEAT], "the seat draw changed: fix SEAT"
    await rig.run()
    return gid, status.seat_names[SEAT], status.seat_names[1 - SEAT]


def said(out: str, to: str) -> list[str]:
    """The lines of ``out`` addressed to ``to``, without the address."""
    return [line.removeprefix(f"[to {to}] ") for line in out.splitlines() if line.startswith(f"[to {to}] ")]


@pytest.mark.asyncio
async def test_empire_answers_its_asker_with_their_own_units_and_writes_the_card_panel(
        rig: Rig, monkeypatch: pytest.MonkeyPatch) -> None:
    gid, alice, bob = await seven_ages(rig, monkeypatch)
    seq = (await rig.service.status(gid)).seq
    out = await rig.run("/as alice empire romans")
    lines = said(out, alice)
    value = load_deck().cards[ROMANS].value
    assert lines[0] == f"The Romans (card {ROMANS}, value {value}), the empire of {alice}.", out
    latium = next(line for line in lines if line.startswith("- Latium: "))
    assert "2 Spears and 1 Sword" in latium, latium
    written = lines[-1]
    assert written.startswith(f"empire picture of {gid} written to ") and written.endswith(".png"), written
    png = Image.open(io.BytesIO(Path(written.split(" written to ")[1]).read_bytes()))
    assert png.format == "PNG" and png.width == 800
    assert all(line.startswith(f"[to {alice}] ") for line in out.splitlines()), out  # to alice alone

    out = await rig.run("/as bob empire Romans")
    latium = next(line for line in said(out, bob) if line.startswith("- Latium: "))
    assert latium.startswith("- Latium: 3 units, a ") and len(units_named(latium.split(";")[0])) == 1, latium
    out = await rig.run(f"/as bob empire {VIKINGS}")  # alice's hand
    assert out == (f"[to {bob}] Card {VIKINGS} is not one you can see: only the empires on the map and your "
                   "own cards can be looked up.\n"), out
    out = await rig.run("/as bob empire Vikings")
    assert out.count("\n") == 1 and "Norway" not in out and ".png" not in out, out
    out = await rig.run("/as alice empire Atlantis")
    assert out == f"[to {alice}] No empire of 7 Ages is called 'Atlantis'.\n", out
    out = await rig.run("/as alice empire")
    assert out == "[alice] Name an empire or give its card's number: empire Romans, empire 12.\n", out
    assert (await rig.service.status(gid)).seq == seq  # asking changes nothing


@pytest.mark.asyncio
async def test_area_and_tracks_answer_the_asker_and_tracks_writes_its_picture(
        rig: Rig, monkeypatch: pytest.MonkeyPatch) -> None:
    gid, alice, bob = await seven_ages(rig, monkeypatch)
    out = await rig.run("/as bob area latium")
    lines = said(out, bob)
    assert lines[0].startswith("Latium: a land area") and f"Held by: {alice}'s Romans." in lines, out
    assert len(units_named(next(line for line in lines if line.startswith("Units here: ")))) == 1
    out = await rig.run("/as bob area Atlantis")
    assert out == f"[bob] The board of {gid} has no place called 'Atlantis'.\n", out

    out = await rig.run("/as alice tracks")
    lines = said(out, alice)
    assert f"Progress: the Romans of {alice} level 16 (age 3); the Parthians of {bob} level 11 " \
           "(age 2)." in lines, lines
    assert "Money: the Romans 9; the Parthians 4." in lines, lines
    assert lines[-1].startswith(f"tracks picture of {gid} written to ") and lines[-1].endswith(".png")


@pytest.mark.asyncio
async def test_a_lobby_and_a_game_without_empires_or_tracks_get_one_sentence(rig: Rig) -> None:
    await rig.run(f"/as alice create {TOY} seats=2")
    for command in ("empire Romans", "area Eastwatch", "tracks"):
        out = await rig.run(f"/as alice {command}")
        assert out.startswith("[alice] Game g1 has not started: ") and out.count("\n") == 1, out
    await rig.run("/as bob join g1", "/as alice start")
    out = await rig.run("/as alice empire Romans")
    assert out == ("[alice] Goofspiel (test game) has no empires to look up: the board in words shows where "
                   "each player stands.\n"), out
    out = await rig.run("/as alice tracks")
    assert out == ("[alice] Goofspiel (test game) keeps no tracks beyond its scores: the status shows "
                   "them.\n"), out
    out = await rig.run("/as alice area Atlantis")
    assert out == "[alice] The board of g1 has no place called 'Atlantis'.\n", out
