"""7 Ages through the console as a person runs it (issue 29, "What it must show"): ``python -m bot <
script.txt`` with no Discord token, on a fresh database, a scripted person against an AI seat in a game
from the lobby's "Ages 1-3" preset, bounded by a turn limit, to the final glory; the transcript is read as a
player reads it. The scripted game through the console's own test table is the contract's
(tests/contract/test_console_contract.py), which plays 7 Ages too now that the lobby offers it.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from bot.console import user_id_for
from engine.seven_ages.data import load_counters
from engine.seven_ages.seat_colours import colour_word
from engine.seven_ages.spec import SPEC

TAKEN = "|".join(sorted({colour_word(group) for group in load_counters().groups}))
"""The colour words a seat goes by once it has taken its counters (Orange, Red, ...)."""
NAMED = "|".join([TAKEN, *SPEC.colours])
"""Any seat's word: a taken colour, or the spec's word for a seat still to choose ("First seat")."""

PROMPTS = 200
"""The script's ``play 1`` lines: more than the person is asked in three turns (17 with this seed's deal)."""


def test_a_scripted_person_plays_a_short_game_to_the_final_glory_by_python_m_bot(tmp_path: Path) -> None:
    script = tmp_path / "script.txt"
    script.write_text("\n".join([
        "/as alice create seven-ages seats=2 preset=ages-1-3 turn_limit=3", "add-ai", "start",
        *["play 1"] * PROMPTS, "status", "scores", "hand", "text", "/quit"]) + "\n", encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env |= {"ANNALS_DB": str(tmp_path / "annals.sqlite3"), "ANNALS_OUT": str(tmp_path / "out")}
    with script.open(encoding="utf-8") as stdin:
        done = subprocess.run([sys.executable, "-m", "bot"], stdin=stdin, capture_output=True, text=True,
                              env=env, cwd=tmp_path, timeout=600, check=False)
    transcript = tmp_path / "transcript.txt"
    transcript.write_text(done.stdout + done.stderr, encoding="utf-8")
    text = transcript.read_text(encoding="utf-8")
    assert done.returncode == 0, text[-3000:]
    assert done.stderr == "", done.stderr  # nothing went to the error stream: no traceback, no log line
    # the game ran to its end inside the script: its third turn began, no fourth, and it is over
    assert "Turn 3 begins" in text and "Turn 4 begins" not in text, text[-3000:]
    over = text.index("The game ends: the turn limit of 3 was reached.")  # why it ended, then the scores
    result = text[over:over + 400]
    assert "Final scores (glory)" in result and "Winner: " in result, text[over:]
    ends = r"^\[\w+\] The game ends: the turn limit of 3 was reached\.$"
    assert len(re.findall(ends, text, re.M)) == 1  # told once (status repeats only the scores)
    assert "You have nothing to do" in text[over:]  # the last prompts found the game over
    # read as a player: every seat named "person (Colour)", no Python, no None, no raw data, no raw id
    assert re.search(rf"alice \(({TAKEN})\)", text) and re.search(rf"AI 1 \(({TAKEN})\)", text), text[:2000]
    for bad in ("Traceback", "Error", "None", "{", "}", str(user_id_for("alice")), "seat 0", "seat 1"):
        assert bad not in text, f"the transcript reads {bad!r}: {text[max(0, text.find(bad) - 400):][:800]}"
    prompt = rf"^\[to alice \((?:{NAMED})\)\] \S+: .*\(play N, or the words of a choice\)$"
    asked = len(re.findall(prompt, text, re.M))
    assert 0 < asked < PROMPTS, asked
