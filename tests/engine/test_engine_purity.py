"""engine/ stays pure: it never imports Discord, imaging, databases or schedulers."""

from __future__ import annotations

import ast
from pathlib import Path

FORBIDDEN = {"discord", "PIL", "matplotlib", "aiosqlite", "sqlite3", "apscheduler", "random", "time"}
ENGINE = Path(__file__).resolve().parents[2] / "engine"
# The command line and the terminal game are the engine's front door, not rules: they may time runs.
FRONT_DOOR = {"__main__.py"}


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def test_engine_imports_nothing_impure() -> None:
    offenders = {}
    for path in sorted(ENGINE.rglob("*.py")):
        bad = imported_modules(path) & FORBIDDEN
        if path.name in FRONT_DOOR:
            bad -= {"time"}
        if bad:
            offenders[str(path.relative_to(ENGINE))] = sorted(bad)
    assert offenders == {}
