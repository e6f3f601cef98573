"""``python -m engine`` and ``python -m render demo`` work for every registered game with no per-game code."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

import tests.toy.spec
from engine import registry
from engine.__main__ import main as engine_main
from engine.spec import DataCheck, GameSpec
from engine.terminal import HELP, run_terminal_game, second_person
from render.__main__ import main as render_main

SPECS = registry.specs()
PNG = b"\x89PNG\r\n\x1a\n"


def spec_id(spec: GameSpec) -> str:
    return spec.id


class Human:
    """A person at the terminal who only follows the prompts: always the first choice, and yes to
    every question asked before a move is sent."""

    def __init__(self) -> None:
        self.said: list[str] = []
        self.moves = 0

    def say(self, text: str) -> None:
        self.said.append(text)

    def readline(self) -> str:
        if self.said and self.said[-1].endswith("(yes/no)"):
            return "yes\n"
        self.moves += 1
        return "1\n"


@pytest.mark.parametrize("spec", SPECS, ids=spec_id)
def test_a_person_plays_a_whole_game_in_the_terminal(spec: GameSpec, tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    human = Human()
    log = tmp_path / "game.json"
    players = spec.min_players
    code = run_terminal_game(spec, players=players, humans=1, seed=5, ai="random", options={},
                             log_path=log, stdin=human, say=human.say)  # type: ignore[arg-type]
    assert code == 0
    text = "\n".join(human.said)
    assert human.moves > 0 and "you (" in text
    assert "Game over. " in text
    assert "Traceback" not in text and "not one of the choices" not in text
    # The saved log rebuilds the same game: the final scores printed by replay are the game's.
    assert engine_main(["replay", str(log)]) == 0
    replayed = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert replayed["over"] is True and len(replayed["scores"]) == players
    game = spec.load()
    saved = json.loads(log.read_text())
    state = game.setup(players, saved["options"], saved["seed"])
    forced = 0  # the person's moves the game plays at once, as the platform does: never asked
    for data in saved["actions"]:
        forced += min(game.actors(state)) == 0 and game.forced(state, 0) is not None
        state = game.apply(state, game.codec.decode(data)).state
    assert replayed["scores"] == game.scores(state)
    # why it ended and the places, as the game's outcome gives them, in the terminal and the replay
    ended = game.outcome(state)
    assert ended is not None and ended.why in text
    assert (replayed["reason"], replayed["places"]) == (ended.reason.value, game.places(state))
    assert text.count("your only choice was played for you") == forced
    colours = spec.seat_colours(state)  # a seat that took its colours in play goes by them
    winner = spec.seat_names(["you", *["random AI"] * (players - 1)], colours)[game.ranking(state)[0]]
    assert winner in text.split("Game over. ")[1]


@pytest.mark.parametrize("spec", SPECS, ids=spec_id)
def test_simulate_plays_ai_games_and_prints_figures(spec: GameSpec,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    seats = str(spec.max_players)
    argv = ["simulate", "--game", spec.id, "--games", "2", "--players", seats, "--ai", "random"]
    assert engine_main(argv) == 0
    figures = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert figures["game"] == spec.id and figures["games"] == 2 and figures["players"] == spec.max_players
    assert figures["actions_per_game"] > 0


def test_the_first_registered_game_is_the_default() -> None:
    from engine.__main__ import build_parser

    args = build_parser().parse_args(["simulate"])
    assert args.game == registry.game_ids()[0]


def test_a_bad_option_is_one_sentence(capsys: pytest.CaptureFixture[str]) -> None:
    toy = tests.toy.spec.SPEC.id
    assert engine_main(["simulate", "--game", toy, "--option", "bogus"]) == 2
    said = capsys.readouterr().err.strip()
    assert said == "Goofspiel (test game) has no option 'bogus'; it has no options."


def problems_found() -> list[str]:
    return ["the deck has 3 copies of card 7"]


def all_well() -> list[str]:
    return []


def provenance() -> list[str]:
    return ["41 cards read from the rulebook"]


def test_check_data_covers_games_still_being_built(monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    good = DataCheck("new-game", "A new game", f"{__name__}:all_well", report=f"{__name__}:provenance")
    monkeypatch.setattr("engine.__main__.data_checks", lambda: [good])
    assert engine_main(["check-data"]) == 0
    out = capsys.readouterr().out
    assert "new-game: 41 cards read from the rulebook" in out and "All data files are valid" in out
    bad = DataCheck("new-game", "A new game", f"{__name__}:problems_found")
    monkeypatch.setattr("engine.__main__.data_checks", lambda: [bad])
    assert engine_main(["check-data"]) == 1
    assert "new-game: the deck has 3 copies of card 7" in capsys.readouterr().out


@pytest.mark.parametrize("spec", SPECS, ids=spec_id)
def test_the_demo_draws_the_board_as_the_first_stage_ends(spec: GameSpec, tmp_path: Path) -> None:
    out = tmp_path / "demo"
    assert render_main(["demo", "--game", spec.id, "--stages", "1", "--size", "400", "--out", str(out)]) == 0
    names = sorted(p.name for p in out.iterdir())
    assert names[0].startswith("board-01-") and "scores.png" in names
    for name in names:
        assert (out / name).read_bytes()[:8] == PNG, name


def test_the_demo_draws_every_stage_and_the_end(tmp_path: Path) -> None:
    toy = tests.toy.spec.SPEC
    assert render_main(["demo", "--game", toy.id, "--seed", "2", "--out", str(tmp_path)]) == 0
    names = sorted(p.name for p in tmp_path.iterdir())
    # Goofspiel has five rounds: four end with the next one's start, the fifth with the game.
    assert names == ["board-01-round-1-of-5.png", "board-02-round-2-of-5.png", "board-03-round-3-of-5.png",
                     "board-04-round-4-of-5.png", "board-final.png", "scores.png"]


def test_the_demo_refuses_a_game_it_does_not_know(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert render_main(["demo", "--game", "chess", "--out", str(tmp_path / "x")]) == 2
    assert "Unknown game 'chess'" in capsys.readouterr().err
    assert not (tmp_path / "x").exists()


@pytest.mark.parametrize("spec", [s for s in SPECS if s.data_report], ids=spec_id)
def test_check_data_prints_a_registered_games_provenance(spec: GameSpec,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    assert engine_main(["check-data"]) == 0
    printed = [line for line in capsys.readouterr().out.splitlines() if line.startswith(f"{spec.id}: ")]
    assert printed and all(" ours" in line or "from the rulebook" in line or "public" in line
                           for line in printed)


def play_toy(lines: str) -> str:
    """What ``python -m engine play`` says to one person typing ``lines`` at the toy game."""
    said: list[str] = []
    code = run_terminal_game(tests.toy.spec.SPEC, players=2, humans=1, seed=3, ai="random", options={},
                             log_path=None, stdin=io.StringIO(lines), say=said.append)
    assert code == 0
    return "\n".join(said)


def test_engine_play_lists_the_choices_words_fit_and_plays_none(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # quitting saves the action log in the working directory
    text = play_toy("bi\nbid 4\nquit\n")
    listed = text.split("That fits 5 choices; nothing was played. Type its number or more of its words:\n")
    assert len(listed) == 2 and listed[1].startswith("   1) Bid 1\n   2) Bid 2\n   3) Bid 3\n")
    assert "You bid 4." in text and text.count("You bid") == 1  # the words of one choice play it


def test_engine_play_help_is_plain_text(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    text = play_toy("help\nquit\n")
    assert HELP in text and "status   the game as it stands" in HELP
    assert "``" not in text and ":data:" not in text and ":func:" not in text


def test_engine_play_speaks_to_you_in_the_second_person(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    text = play_toy("1\nquit\n")
    assert re.search(r"you \(\w+\) have bid\.", text) and not re.search(r"you \(\w+\) has", text)
    assert second_person("you (Red) draws a card; bob (Blue) draws one.", "you (Red)") == (
        "you (Red) draw a card; bob (Blue) draws one.")
    for said, meant in [("passes", "pass"), ("carries", "carry"), ("is", "are"), ("was", "were"),
                        ("reaches", "reach"), ("goes", "go"), ("takes", "take")]:
        assert second_person(f"you (Red) {said} on.", "you (Red)") == f"you (Red) {meant} on."
    both = "you (Red) as well as bob (Blue)."
    assert second_person(both, "you (Red)") == both
    assert second_person("player 1 (Red) draws.", "player 1 (Red)") == "player 1 (Red) draws."  # a hotseat
