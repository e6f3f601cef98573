"""``empire`` and ``tracks`` for every registered game (issue 29, item 4): a game answers both in words or
declares neither (``None``, the platform's one sentence), a picture is declared only beside its words, and
every empire the view shows on the board reads with its panel as a PNG at chat width.

Which words name an empire is each game's own; the contract reads them from the game's board text: an
empire's name is asked for, and one that no game has gets a sentence or None, never a crash or a page.
"""

from __future__ import annotations

import io

import pytest
from PIL import Image

import tests.toy.spec  # noqa: F401  (registers the toy game, which keeps this contract too)
from engine import registry
from engine.spec import GameSpec
from tests.contract.test_pictures_contract import moment, spec_id

SPECS = registry.specs()
NAMES = ["alice (Red)", "bob (Blue)", "carol (Green)", "dave (Yellow)", "erin (Purple)", "frank (Orange)"]


@pytest.mark.parametrize("spec", SPECS, ids=spec_id)
def test_empire_and_tracks_pictures_come_only_with_their_words(spec: GameSpec) -> None:
    players = min(max(spec.min_players, 3), spec.max_players)
    at = moment(spec, players, seed=5, steps=150)
    game = spec.load()
    names = NAMES[:players]
    nowhere = game.empire_text(at.view, "Atlantis", names)
    assert nowhere is None or (nowhere and "\n" not in nowhere and len(nowhere) < 300), nowhere
    tracks = game.tracks_text(at.view, names)
    assert (tracks is None) == (spec.tracks_picture == ""), (spec.id, tracks)
    assert (nowhere is None) == (spec.empire_picture == ""), spec.id
    if tracks is not None:
        assert tracks.strip() and all(line.strip() for line in tracks.splitlines()), tracks
        png = spec.tracks_image()(at.view, size=800)  # type: ignore[misc]
        assert Image.open(io.BytesIO(png)).width == 800
    panel = spec.empire_panel()
    if panel is None:
        return
    assert panel(at.view, "Atlantis", size=800) is None
    shown = 0
    for empire in at.view.get("empires") or ():  # the games with empire panels list them in their views
        text = game.empire_text(at.view, str(empire["name"]), names)
        assert text is not None and str(empire["name"]) in text.splitlines()[0], text
        png = panel(at.view, str(empire["name"]), size=800)
        if png is not None:  # two empires of one name: the words list them, no panel is drawn
            assert Image.open(io.BytesIO(png)).width == 800
            shown += 1
    assert shown or not at.view.get("empires"), spec.id
