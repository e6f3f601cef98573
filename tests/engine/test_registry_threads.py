"""The built-in games are registered whole whichever thread asks first (the bot warms its rulesets in a
thread while its console already answers: the console listed two games of five)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# In a fresh interpreter each built-in game takes a while to import; a second thread asks for the games
# while the first is importing them. Both must see every game.
PROGRAM = textwrap.dedent("""
    import importlib, threading, time
    import engine.registry as registry
    real = importlib.import_module
    started = threading.Event()
    def slow(name, package=None):
        started.set()
        time.sleep(0.05)
        return real(name, package)
    registry.importlib.import_module = slow
    seen = {}
    warm = threading.Thread(target=lambda: seen.setdefault("warm", registry.game_ids()))
    warm.start()
    started.wait()
    seen["asked"] = registry.game_ids()
    warm.join()
    print(len(registry.BUILTIN), len(seen["warm"]), len(seen["asked"]))
""")


def test_a_second_thread_asking_while_the_games_load_sees_every_game() -> None:
    done = subprocess.run([sys.executable, "-c", PROGRAM], cwd=ROOT, capture_output=True, text=True,
                          check=True, env={"PYTHONPATH": str(ROOT), "PATH": ""})
    builtin, warm, asked = (int(word) for word in done.stdout.split())
    assert builtin >= 5
    assert warm == asked == builtin
