"""The console's ``board`` writes the pictures a turn notice carries on Discord (issue 16) to its picture
folder and prints each path. Uses the console harness of :mod:`tests.bot.test_console`."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from engine.registry import spec
from render.stamps import StampDraw
from tests.bot.test_console import Rig, rig

__all__ = ["rig"]  # the harness's fixture, used here by name
pytestmark = pytest.mark.asyncio
PNG = b"\x89PNG\r\n\x1a\n"


async def test_board_writes_the_close_up_and_the_map_of_a_history_game(rig: Rig, tmp_path: Path) -> None:
    await rig.run("/as alice create history-classic seats=3", "/as alice add-ai", "/as alice add-ai",
                  "/as alice start")
    for _ in range(200):  # alice plays her first choices until the AIs have expanded
        status = await rig.service.status("g1")
        if status.seq > 20 and status.waiting_for:
            break
        await rig.run("/as alice 1")
    out = await rig.run("/as alice board")
    paths = re.findall(r"\[to alice\] board of g1 written to (\S+\.png)", out)
    assert [p.rsplit("-", 1)[1] for p in paths] == ["closeup.png", "map.png"], out
    for path in paths:
        assert Path(path).parent == tmp_path and Path(path).read_bytes()[:8] == PNG


async def test_a_game_without_its_own_pictures_writes_its_board(rig: Rig, tmp_path: Path) -> None:
    await rig.run("/as alice create toy-goofspiel", "/as alice add-ai", "/as alice start")
    out = await rig.run("/as alice board")
    paths = re.findall(r"board of g1 written to (\S+\.png)", out)
    assert len(paths) == 1 and paths[0].endswith("-alice.png"), out
    assert Path(paths[0]).read_bytes()[:8] == PNG


async def test_board_names_the_people_beside_their_colours(rig: Rig, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 28: the pictures' keys say who is behind each colour ("alice — Red"), as the console seats
    them; a view holds seats, not people, so ``board`` passes them."""
    written: list[str] = []
    stamp = StampDraw.text

    def recorded(self: StampDraw, xy: Any, text: Any, *args: Any, **kwargs: Any) -> None:
        written.append(str(text))
        stamp(self, xy, text, *args, **kwargs)

    monkeypatch.setattr(StampDraw, "text", recorded)
    await rig.run("/as alice create eight-minute seats=3", "/as alice add-ai", "/as alice add-ai",
                  "/as alice start")
    await rig.run("/as alice board")
    status = await rig.service.status("g1")
    drawn = "\n".join(written)
    for seat in status.seats:
        assert seat.seat is not None
        label = f"{seat.name} — {spec('eight-minute').colour(seat.seat)}"
        assert (label + " (you)" if seat.name == "alice" else label) in drawn, (seat, written)
