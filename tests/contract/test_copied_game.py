"""A game copied from the reference game, ``tests/toy``, into ``engine/`` passes the contract suite with
nothing else edited (issue 31: adding a game must not mean editing the contract).

The test builds a copy of the repository in ``tmp_path`` (links to every file, so nothing is written
in the real tree) and adds a new game there exactly as docs/ARCHITECTURE.md tells a person to:

- its package, ``engine/goofspiel_copy/``: the toy's four modules and an ``__init__.py``;
- its renderer module, ``render/goofspiel_copy.py``: the toy's;
- one line in ``engine.registry.BUILTIN`` naming its spec module.

The copy renames what names the game (its id, its dotted paths and its title) and nothing else. Then
the copy's own contract suite runs in a fresh interpreter over the new game: every test the toy
game gets, the copy gets under its own id, and each passes.
"""

from __future__ import annotations

import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TOY = ROOT / "tests" / "toy"
GAME_ID = "goofspiel-copy"
PACKAGE = "goofspiel_copy"
SKIPPED = {".git", ".venv", ".mypy_cache", ".pytest_cache", ".ruff_cache", "__pycache__"}


def link_tree(source: Path, target: Path, *, copied: tuple[str, ...] = ()) -> None:
    """``target`` as a folder of links to ``source``'s entries, but for ``copied`` (names of files
    written as copies, to be edited) and the caches (so no interpreter writes into ``source``)."""
    target.mkdir()
    for entry in source.iterdir():
        if entry.name in SKIPPED:
            continue
        if entry.name in copied:
            (target / entry.name).write_text(entry.read_text())
        else:
            (target / entry.name).symlink_to(entry)


def renamed(text: str) -> str:
    """The toy's text as the new game's: its renderer in ``render/``, its modules in its package, its
    id and title its own."""
    return (text.replace("tests.toy.render", f"render.{PACKAGE}")
            .replace("tests.toy", f"engine.{PACKAGE}")
            .replace("toy-goofspiel", GAME_ID)
            .replace("Goofspiel (test game)", "Goofspiel (copied game)"))


def add_copied_game(root: Path) -> list[str]:
    """Add the toy to the repository copy at ``root`` as the game :data:`GAME_ID`; the paths written,
    relative to ``root``."""
    package = root / "engine" / PACKAGE
    package.mkdir()
    written = []
    (package / "__init__.py").write_text('"""Goofspiel, copied from the reference game."""\n')
    written.append(f"engine/{PACKAGE}/__init__.py")
    for module in sorted(TOY.glob("*.py")):
        if module.name == "render.py":
            continue
        (package / module.name).write_text(renamed(module.read_text()))
        written.append(f"engine/{PACKAGE}/{module.name}")
    (root / "render" / f"{PACKAGE}.py").write_text(renamed((TOY / "render.py").read_text()))
    written.append(f"render/{PACKAGE}.py")
    registry = root / "engine" / "registry.py"
    lines = registry.read_text().splitlines(keepends=True)
    start = next(i for i, line in enumerate(lines) if line.startswith("BUILTIN"))
    end = next(i for i in range(start, len(lines)) if lines[i].strip() == ")")
    lines.insert(end, f'    "engine.{PACKAGE}.spec",\n')
    registry.write_text("".join(lines))
    written.append("engine/registry.py")
    return written


def pytest_in(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The copy's contract suite (not ``slow``) run by a fresh interpreter importing the copy."""
    env = {**os.environ, "PYTHONPATH": str(root), "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-m", "not slow",
                           "tests/contract", *args], cwd=root, env=env, capture_output=True, text=True,
                          check=False)


def test_a_game_copied_from_the_toy_passes_the_contract_with_its_package_renderer_and_one_registry_line(
        tmp_path: Path) -> None:
    root = tmp_path / "annals"
    link_tree(ROOT, root)
    (root / "engine").unlink()
    link_tree(ROOT / "engine", root / "engine", copied=("registry.py",))
    (root / "render").unlink()
    link_tree(ROOT / "render", root / "render")
    written = add_copied_game(root)
    assert written == [f"engine/{PACKAGE}/{name}" for name in
                       ("__init__.py", "ai.py", "game.py", "invariants.py", "spec.py")] + \
        [f"render/{PACKAGE}.py", "engine/registry.py"]
    registry_diff = set((root / "engine/registry.py").read_text().splitlines()) ^ \
        set((ROOT / "engine/registry.py").read_text().splitlines())
    assert registry_diff == {f'    "engine.{PACKAGE}.spec",'}

    listed = pytest_in(root, "--collect-only", "-k", f"toy-goofspiel or {GAME_ID}")
    assert listed.returncode == 0, listed.stdout + listed.stderr
    ids = [line for line in listed.stdout.splitlines() if line.startswith("tests/contract/")]
    toy = {i for i in ids if "toy-goofspiel" in i}
    copied = {i for i in ids if GAME_ID in i}
    assert toy, "the toy game is in the contract suite"
    assert copied == {i.replace("toy-goofspiel", GAME_ID) for i in toy}, \
        "the copied game gets every contract test the toy gets"

    report = tmp_path / "report.xml"
    ran = pytest_in(root, "-k", GAME_ID, f"--junitxml={report}")
    assert ran.returncode == 0, ran.stdout[-4000:] + ran.stderr[-4000:]
    cases = {f"{c.get('classname', '').replace('.', '/')}.py::{c.get('name')}": {child.tag for child in c}
             for c in ET.parse(report).getroot().iter("testcase")}
    assert set(cases) == copied
    assert not any(tags & {"failure", "error"} for tags in cases.values())
    skipped = {i for i, tags in cases.items() if "skipped" in tags}
    assert all("postgres" in i for i in skipped), "only the tests needing a PostgreSQL server may skip"
