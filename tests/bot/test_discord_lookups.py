"""``/annals empire``, ``area`` and ``tracks`` through the fake Discord (issue 29, item 4): each answers its
asker alone, from their own view, with the empire's card panel or the tracks attached as a picture;
nothing is posted in the thread or by DM. A game without empires or tracks answers in one sentence.

The 7 Ages game is the console test's scenario (tests/bot/test_console_lookups.py), opened through the
service; the other game is the test-only toy.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

import pytest

from bot.discord.info import with_picture
from bot.discord.kit import BotBase
from bot.lookups import Answer
from engine.seven_ages.cards import load_deck
from engine.seven_ages.game import GAME
from tests.bot.test_console_lookups import ROMANS, VIKINGS, table
from tests.bot.test_console_orders import SEAT
from tests.bot.test_discord_bot import (
    ALICE,
    BOB,
    CHANNEL_ID,
    EPHEMERAL,
    GUILD_ID,
    TOY,
    Rig,
    deferred,
    fake,
    followup,
    lobby_to_start,
    no_errors_logged,
    rig,
)
from tests.engine.seven_ages.test_seven_ages_board_text import units_named

__all__ = ["fake", "no_errors_logged", "rig"]  # fixtures used by name
pytestmark = pytest.mark.asyncio


async def seven_ages(rig: Rig, monkeypatch: pytest.MonkeyPatch) -> tuple[str, str, str]:
    """The game, and the seat names of Alice and Bob."""
    arranged = table()  # built before the patch: the builder starts from the real setup
    monkeypatch.setattr(GAME, "setup", lambda players, options, seed: arranged)
    svc = rig.service
    gid = (await svc.create_lobby(ALICE, "Alice", "seven-ages", seed=42, guild_id=GUILD_ID,
                                  channel_id=CHANNEL_ID)).game_id
    await svc.join(gid, BOB, "Bob")
    await svc.start(gid, ALICE)
    status = await svc.status(gid)
    assert [s.seat for s in status.seats if s.user_id == ALICE] == [SEAT], "the seat draw changed: fix SEAT"
    await rig.settle()
    return gid, status.seat_names[SEAT], status.seat_names[1 - SEAT]


async def test_empire_answers_privately_with_the_askers_units_and_the_card_panel(
        rig: Rig, monkeypatch: pytest.MonkeyPatch) -> None:
    gid, alice, _ = await seven_ages(rig, monkeypatch)
    seq = (await rig.service.status(gid)).seq
    mark = len(rig.fake.calls)
    calls = await rig.command(ALICE, "empire", empire="romans", game=gid)
    assert deferred(calls).flags == EPHEMERAL
    reply = followup(calls)
    assert reply.flags == EPHEMERAL
    value = load_deck().cards[ROMANS].value
    first = reply.content.splitlines()[0]
    assert first == f"The Romans (card {ROMANS}, value {value}), the empire of {alice}.", first
    assert "2 Spears and 1 Sword" in reply.content, reply.content
    assert reply.files == [f"annals-{gid}-empire.png"]

    seen = followup(await rig.command(BOB, "empire", empire=str(ROMANS), game=gid))
    latium = next(line for line in seen.content.splitlines() if line.startswith("- Latium: "))
    assert latium.startswith("- Latium: 3 units, a ") and len(units_named(latium.split(";")[0])) == 1, latium
    assert seen.files == [f"annals-{gid}-empire.png"]
    refused = followup(await rig.command(BOB, "empire", empire="Vikings", game=gid))  # in Alice's hand
    assert refused.flags == EPHEMERAL and "\n" not in refused.content and refused.files == []
    assert "Norway" not in refused.content and str(VIKINGS) not in refused.content, refused.content
    unknown = followup(await rig.command(ALICE, "empire", empire="Atlantis", game=gid))
    assert unknown.content == "No empire of 7 Ages is called 'Atlantis'." and unknown.files == []
    assert not rig.fake.public_posts(mark) and not rig.fake.dm_posts(BOB, mark)
    assert (await rig.service.status(gid)).seq == seq


async def test_area_and_tracks_answer_privately_and_tracks_attaches_its_picture(
        rig: Rig, monkeypatch: pytest.MonkeyPatch) -> None:
    gid, alice, bob = await seven_ages(rig, monkeypatch)
    mark = len(rig.fake.calls)
    area = followup(await rig.command(BOB, "area", area="Latium", game=gid))
    assert area.flags == EPHEMERAL, area.flags
    assert f"Held by: {alice}'s Romans." in area.content.splitlines(), area.content
    assert len(units_named(next(line for line in area.content.splitlines()
                                if line.startswith("Units here: ")))) == 1
    missing = followup(await rig.command(BOB, "area", area="Atlantis", game=gid))
    assert missing.content == f"The board of {gid} has no place called 'Atlantis'."
    tracks = followup(await rig.command(ALICE, "tracks", game=gid))
    assert tracks.flags == EPHEMERAL and tracks.files == [f"annals-{gid}-tracks.png"]
    assert f"Progress: the Romans of {alice} level 16 (age 3); the Parthians of {bob} level 11 (age 2)." \
        in tracks.content.splitlines(), tracks.content
    assert not rig.fake.public_posts(mark) and not rig.fake.dm_posts(ALICE, mark)


async def test_a_game_without_empires_or_tracks_says_so_in_one_sentence(rig: Rig) -> None:
    game = await lobby_to_start(rig, TOY)
    empire = followup(await rig.command(ALICE, "empire", empire="Romans", game=game))
    assert empire.flags == EPHEMERAL and empire.content == (
        "Goofspiel (test game) has no empires to look up: the board in words shows where each player stands.")
    tracks = followup(await rig.command(ALICE, "tracks", game=game))
    assert tracks.content == "Goofspiel (test game) keeps no tracks beyond its scores: the status shows them."
    area = followup(await rig.command(ALICE, "area", area="Atlantis", game=game))
    assert area.content == f"The board of {game} has no place called 'Atlantis'."


class Drawer:
    """Stands in for the bot where a reply only needs its picture executor."""

    async def render(self, func: Callable[[], bytes | None], /) -> bytes | None:
        return func()


async def test_a_long_answer_keeps_whole_lines_and_attaches_the_whole_text() -> None:
    lines = [f"- Area {n}: a stack of {n} units with a Spear on top; city of value {n % 4}."
             for n in range(80)]
    answer = Answer("\n".join(lines), lambda: b"\x89PNG", "empire")
    reply = await with_picture(cast(BotBase, Drawer()), "g1", answer)
    assert len(reply.content) <= 2000
    body, note = reply.content.rsplit("\n", 1)
    assert body.splitlines() == lines[:len(body.splitlines())] and len(body.splitlines()) > 20
    assert note == "… (the whole answer is in the attached text file)"
    assert [f.filename for f in reply.files] == ["annals-g1-empire.txt", "annals-g1-empire.png"]
    assert reply.files[0].fp.read().decode() == answer.text
