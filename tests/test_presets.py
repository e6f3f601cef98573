"""What the lobby offers of a game's options: its presets (:class:`engine.spec.OptionPreset`), named sets of
options declared as data in the game's package, taken by ``preset=NAME`` in the console's ``create`` and in
``/annals create``'s options, with the options named beside them overriding theirs (a preset nobody
declared is one sentence); and no option still being built (``OptionSpec.offered`` false: 7 Ages' option
16), which the rules and their tests take but a lobby refuses in one sentence."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from bot.clock import FakeClock
from bot.console import Console
from bot.discord.commands import game_options
from bot.service import GameService
from bot.service.errors import ServiceError
from bot.store import Store
from engine import registry
from engine.core import IllegalAction
from engine.spec import GameSpec


@pytest.mark.parametrize("spec", [s for s in registry.specs() if s.presets], ids=lambda s: s.id)
def test_every_preset_names_options_of_its_game_with_values_they_take(spec: GameSpec) -> None:
    for preset in spec.presets:
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", preset.name), preset.name  # one word to type
        assert preset.description.endswith(".") and preset.values
        for name, value in preset.values:
            assert spec.option(name).check(value) == value, (preset.name, name)
            assert spec.option(name).offered, (preset.name, name)  # a preset sets only what the lobby offers
        assert spec.preset(preset.name.upper()) == dict(preset.values)  # as typed: case does not matter


def test_seven_ages_offers_the_ages_1_to_3_preset() -> None:
    spec = registry.spec("seven-ages")
    assert spec.offered
    assert spec.preset("ages-1-3") == {"total_history": True, "start_age": 1, "end_age": 3, "turn_limit": 0}


def test_discord_options_take_a_preset_and_the_options_beside_it_override_it() -> None:
    assert game_options("seven-ages", "turn_limit=5, preset=ages-1-3") == {
        "total_history": True, "start_age": 1, "end_age": 3, "turn_limit": 5}
    with pytest.raises(ServiceError) as info:
        game_options("seven-ages", "preset=ages-1-4")
    assert info.value.message == "7 Ages has no preset 'ages-1-4'; its presets are ages-1-3."
    with pytest.raises(ServiceError) as info:
        game_options("rise", "preset=ages-1-3")
    assert info.value.message == "Rise of Empires has no preset 'ages-1-3'; it has none."


@pytest.mark.asyncio
async def test_the_console_creates_a_game_from_a_preset_and_refuses_an_unknown_one_in_a_line(
        tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "annals.sqlite3")
    out = io.StringIO()
    ids = iter(("g1", "g2"))
    console = Console(GameService(store, FakeClock(), id_factory=lambda: next(ids)), out, out_dir=tmp_path)
    try:
        assert await console.execute("/as alice create seven-ages preset=nope")
        refused = out.getvalue()
        assert refused.strip() == "[alice] 7 Ages has no preset 'nope'; its presets are ages-1-3.", refused
        assert await console.execute("/as alice create seven-ages preset=ages-1-3 end_age=4")
        row = await store.get_game("g1")
        assert row is not None
        assert {k: row.options[k] for k in ("total_history", "end_age", "turn_limit")} == {
            "total_history": True, "end_age": 4, "turn_limit": 0}
        seen = len(out.getvalue())
        assert await console.execute("rules")
        assert "preset=ages-1-3: Ages 1-3: Total History" in out.getvalue()[seen:]
    finally:
        await store.close()


UNOFFERED = "The option artefact_powers of 7 Ages is not offered yet: it is still being built."


def test_option_16_is_taken_by_the_rules_and_refused_by_the_lobby_in_one_sentence() -> None:
    spec = registry.spec("seven-ages")
    assert not spec.option("artefact_powers").offered
    assert spec.checked_options(2, {"artefact_powers": True})["artefact_powers"] is True  # the rules' tests
    with pytest.raises(IllegalAction) as info:
        spec.lobby_options(2, {"artefact_powers": False})
    assert info.value.message == UNOFFERED


@pytest.mark.asyncio
async def test_the_console_neither_lists_nor_takes_an_option_still_being_built(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "annals.sqlite3")
    out = io.StringIO()
    console = Console(GameService(store, FakeClock(), id_factory=lambda: "g1"), out, out_dir=tmp_path)
    try:
        assert await console.execute("/as alice create seven-ages artefact_powers=on")
        assert out.getvalue().strip() == f"[alice] {UNOFFERED}", out.getvalue()
        assert await store.get_game("g1") is None
        assert await console.execute("/as alice create seven-ages")
        seen = len(out.getvalue())
        assert await console.execute("rules")
        rules = out.getvalue()[seen:]
        assert "option hocking" in rules, rules
        assert "artefact_powers" not in rules and "Option 16" not in rules, rules
    finally:
        await store.close()
