"""Issue 28's slips in the platform's own lines (items 5 and 6): read from what the console prints and
what the platform's reports say, never from a string copied out of the code under test.

The issue: ""bob (AI) (Green)" after a resignation; "AI 1 takes a seat in game X (AI)."; "1 games
replayed"; `status`/`games` show "seq 91"".
"""

from __future__ import annotations

import re

import pytest

from bot.console import user_id_for
from bot.copydb import CopyReport
from bot.leagues.reliability import Reliability
from tests.bot.test_console import TOY, Rig, rig

__all__ = ["rig"]  # the console harness's fixture, used here by name


@pytest.mark.asyncio
async def test_an_ai_seat_is_said_to_be_an_ai_once(rig: Rig) -> None:
    out = await rig.run(f"/as alice create {TOY}", "/as alice add-ai", "/as alice kick AI 1")
    await rig.service.add_ai("g1", user_id_for("alice"), name="Robo")
    out += await rig.run("status")
    assert "[g1] AI 1 takes a seat in game g1." in out  # its name says it already
    assert "[g1] Robo (an AI) takes a seat in game g1." in out
    assert "(AI)." not in out


@pytest.mark.asyncio
async def test_a_resigned_seat_has_one_name_and_one_colour(rig: Rig) -> None:
    await rig.run(f"/as alice create {TOY}", "/as bob join g1", "/as alice start", "/as bob resign")
    names = (await rig.service.status("g1")).seat_names
    bob = next(n for n in names if "bob" in n)
    assert re.fullmatch(r"AI for bob \(\w+\)", bob), names
    said = await rig.run("/as alice status")
    assert bob in said and not re.search(r"\([^()]*\) \([A-Z][a-z]+\)", said), said


@pytest.mark.asyncio
async def test_status_and_games_count_moves_not_seq(rig: Rig) -> None:
    await rig.run(f"/as alice create {TOY}", "/as alice add-ai", "/as alice start", "/as alice 1")
    moves = (await rig.service.status("g1")).seq
    out = await rig.run("/as alice status", "/as alice games")
    assert "seq" not in out
    assert f"g1: Goofspiel (test game) - active, move {moves}" in out
    assert f"g1: Goofspiel (test game), active, move {moves} (current)" in out


def test_one_of_a_thing_is_not_counted_as_many() -> None:
    """"1 games replayed": the copy's report, and a league's record of a player of one game."""
    one = CopyReport({"games": 1}, 1).summary()
    assert one.startswith("1 row in 1 table copied; 1 game replayed on the target"), one
    many = CopyReport({"games": 2, "seats": 5}, 2).summary()
    assert many.startswith("7 rows in 2 tables copied; 2 games replayed"), many
    record = Reliability(user_id=1, met=1, missed=0, abandoned=0, to_ai=0, games=1).shown()
    assert record.endswith("in 1 game"), record


@pytest.mark.asyncio
async def test_a_turn_is_announced_once_not_at_each_of_its_steps(rig: Rig) -> None:
    """"every sub-decision of a turn repeats 'Your move in game X (due ...)'": an Eight-Minute turn is
    a card, then its armies one by one; the turn is announced once, each step shows its decision."""
    out = await rig.run("/as alice create eight-minute", "/as alice add-ai", "/as alice start")
    for _ in range(25):
        out += await rig.run("/as alice 1")
    alice = next(n for n in (await rig.service.status("g1")).seat_names if n.startswith("alice"))
    turns = re.split(r"\[g1\] AI 1 \(\w+\)'s turn\.", out)[1:]  # each: the AI's turn, then alice's
    assert len(turns) > 2
    for turn in turns:
        if f"[g1] {alice}'s turn." in turn:
            assert turn.count(f"[to {alice}] Your move in game g1") == 1, turn
    steps = [turn.count(f"[to {alice}] g1: ") for turn in turns]
    assert max(steps) > 2, steps  # turns of several decisions were played
