"""The project's own checks, run as part of the test suite: ruff, mypy --strict, check-data."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True)


def test_ruff_is_clean() -> None:
    result = run("ruff", "check", ".")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_strict_on_engine_render_and_bot() -> None:
    result = run("mypy", "--strict", "engine", "render", "bot")
    assert result.returncode == 0, result.stdout + result.stderr


def test_check_data_passes() -> None:
    result = run("engine", "check-data")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "All data files are valid" in result.stdout
