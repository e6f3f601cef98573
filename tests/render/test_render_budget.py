"""Every message's pictures within Discord's budget (issue 25): a turn notice (the reader's view at
chat width, closing in on the news since the reader's last move) and an ``/annals board`` message (a
spectator's view at the bot's board width, closing in on the latest turn) carry at most 250 KiB of
pictures, for every registered game, in the middle of a game and at its end."""

from __future__ import annotations

import pytest

from bot.digest import NOTICE_SIZE
from engine import registry
from engine.spec import GameSpec
from tests.contract.test_pictures_contract import moment

BUDGET = 250 * 1024
BOARD_SIZE = 1600  # the bot's default board width (bot.discord.kit.BotBase), what /annals board draws at


@pytest.mark.parametrize("spec", registry.specs(), ids=lambda s: s.id)
@pytest.mark.parametrize("steps", [120, 10**6], ids=["mid-game", "final"])
def test_every_message_carries_at_most_250_kib(spec: GameSpec, steps: int) -> None:
    at = moment(spec, min(max(4, spec.min_players), spec.max_players), seed=7, steps=steps)
    draw = spec.notice_pictures()
    for message, view, focus, size in (("notice", at.view, at.focus, NOTICE_SIZE),
                                       ("board", at.public, at.latest, BOARD_SIZE)):
        pictures = draw(view, focus=focus, size=size)
        sizes = {tag or "board": len(png) for tag, png in pictures}
        assert sum(sizes.values()) <= BUDGET, (message, sizes)


@pytest.mark.parametrize("spec", [s for s in registry.specs() if s.empire_picture or s.tracks_picture],
                         ids=lambda s: s.id)
def test_the_empire_and_tracks_pictures_carry_at_most_250_kib(spec: GameSpec) -> None:
    """``empire`` and ``tracks`` attach one picture each at chat width: a reply of its own."""
    at = moment(spec, min(max(4, spec.min_players), spec.max_players), seed=7, steps=10**6)
    tracks, panel = spec.tracks_image(), spec.empire_panel()
    if tracks is not None:
        assert len(tracks(at.view, size=NOTICE_SIZE)) <= BUDGET
    names = [str(e["name"]) for e in at.view.get("empires") or ()]
    assert panel is None or names, "the final view shows no empire: the panel is not measured"
    for name in names:
        png = None if panel is None else panel(at.view, name, size=NOTICE_SIZE)
        assert png is None or len(png) <= BUDGET, (name, len(png))
