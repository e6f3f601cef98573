"""A whole classic game in the terminal: hotseat for several people, or against the AI.

Type the number of an action, or its words (``expand Levant``, ``play leader``,
``give 2``), or one of: ``board``, ``all`` (every land), ``hand``, ``help``,
``quit`` (saves the action log so ``python -m engine replay FILE`` can rebuild it).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, TextIO

from engine.core import Action, IllegalAction, decide
from engine.history.ai import make_policy
from engine.history.classic import GAME
from engine.history.spec import SPEC

HELP = __doc__.split("\n\n", 1)[1] if __doc__ else ""


def parse_command(text: str, options: list[Action]) -> Action | None:
    """Match typed words against the legal actions (number, or kind plus argument)."""
    text = text.strip()
    if text.isdigit():
        index = int(text) - 1
        return options[index] if 0 <= index < len(options) else None
    words = text.lower()
    for action in options:
        data = action.to_json()
        values = [str(v).lower() for k, v in data.items() if k not in ("kind", "player")]
        full = " ".join([data["kind"], *values])
        if words == full or (values and words == f"{data['kind']} {values[0]}"):
            return action
    return None


def run_terminal_game(*, players: int, humans: int, seed: int | None, ai: str,
                      options: dict[str, Any], log_path: Path | None, stdin: TextIO) -> int:
    seed = int(time.time()) % 1_000_000 if seed is None else seed
    humans = max(0, min(humans, players))
    try:
        state = GAME.setup(players, options, seed)
    except IllegalAction as exc:
        print(exc.message)
        return 2
    names = SPEC.seat_names([None] * players)
    ais = {p: make_policy(ai, seed * 31 + p) for p in range(humans, players)}
    log: list[Action] = []
    log_path = log_path or Path(f"annals-game-{seed}.json")
    viewer = 0 if humans == 1 else None
    print(f"{GAME.title}: {players} players, seed {seed}. Humans: "
          + ", ".join(names[p] for p in range(humans)) + ". Type 'help' for commands.")

    def save() -> None:
        from engine.__main__ import save_log

        save_log(log_path, GAME.id, players, dict(state.options), seed, log)
        print(f"Action log saved to {log_path} (python -m engine replay {log_path}).")

    while not GAME.is_over(state):
        player = min(GAME.actors(state))
        if player in ais:
            action = ais[player].choose(state, player)
        else:
            view = GAME.view(state, player)
            print("\n" + GAME.status_text(view, names))
            decision = decide(GAME, state, player)
            assert decision is not None
            options_list = [c.action for c in decision.choices]
            print(decision.heading)
            for i, choice in enumerate(decision.choices, 1):
                print(f"  {i:>2}) {choice.label}")
            line = stdin.readline()
            if not line:
                save()
                return 0
            word = line.strip().lower()
            if word in ("quit", "exit"):
                save()
                return 0
            if word in ("board", "b", "all"):
                print(GAME.board_text(view, names))
                continue
            if word == "hand":
                print(GAME.hand_text(view, player, names))
                continue
            if word in ("help", "?"):
                print(HELP)
                continue
            chosen = parse_command(line, options_list)
            if chosen is None:
                print("That is not one of the choices; type its number or 'help'.")
                continue
            action = chosen
        try:
            result = GAME.apply(state, action)
        except IllegalAction as exc:
            print(exc.message)
            continue
        state = result.state
        log.append(action)
        for event in result.events:
            said = GAME.describe_event(event, names) if event.visible_to(viewer) else None
            if said:
                print(said)
    print("\n" + GAME.summary_text(GAME.view(state, viewer), names))
    save()
    return 0
