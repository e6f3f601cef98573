"""Rules of the house that a test can hold. (ruff, mypy --strict, lint-imports and check-data run as
their own CI steps: see .ci/run.)"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from engine import registry

ROOT = Path(__file__).resolve().parents[2]
SHARED = ("engine", "render", "bot")


def game_packages() -> set[Path]:
    """The folder of each game's own package (``engine/<game>/``): the only code that may name it."""
    modules = [spec.game.partition(":")[0] for spec in registry.specs()]
    modules += [check.check.partition(":")[0] for check in registry.data_checks()]
    return {ROOT.joinpath(*module.split(".")[:2]) for module in modules}


def test_no_game_id_is_spelt_outside_its_own_package() -> None:
    ids = set(registry.game_ids()) | {check.id for check in registry.data_checks()}
    alternatives = "|".join(re.escape(i) for i in sorted(ids))
    quoted = re.compile(rf"""["']({alternatives})["']""")
    own = game_packages()
    found = []
    for top in SHARED:
        for path in sorted((ROOT / top).rglob("*.py")):
            if any(package in path.parents for package in own):
                continue
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                match = quoted.search(line)
                if match:
                    found.append(f"{path.relative_to(ROOT)}:{number}: {match.group(0)}")
    assert found == [], "game ids in shared code (read the registry instead):\n" + "\n".join(found)


def test_the_bot_imports_no_private_name_and_overrides_nothing_behind_an_ignore() -> None:
    """Issue 31, point 5: the PostgreSQL store was a subclass of the SQLite one that imported seven of
    its private names and silenced mypy on an override; a module of bot/ now uses only what another
    module offers publicly, and no override is hidden from the type checker."""
    found = []
    for path in sorted((ROOT / "bot").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        where = path.relative_to(ROOT)
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in SHARED:
                found += [f"{where}:{node.lineno}: {node.module}.{a.name}" for a in node.names
                          if a.name.startswith("_") and not a.name.startswith("__")]
        found += [f"{where}:{n}: type: ignore[override]" for n, line in enumerate(text.splitlines(), 1)
                  if "type: ignore[override]" in line]
    assert found == [], "private names imported, or overrides hidden from mypy:\n" + "\n".join(found)
