"""A whole game of any registered game in the terminal: hotseat for several people, or against the AI.

Everything a person reads comes from the game's contract: the decision
(heading and labelled choices), one sentence per event, the status, hand,
board and end-of-game summary. Nothing here knows a game.

Type the number of a choice or its label, or one of: ``status``, ``board``,
``hand``, ``help``, ``quit`` (saves the action log so ``python -m engine
replay FILE`` can rebuild the game).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, TextIO

from engine.core import JSON, Action, Choice, Decision, Event, IllegalAction, PlayerId, decide
from engine.spec import GameSpec

HELP = __doc__.split("\n\n")[-1] if __doc__ else ""
YES = ("y", "yes")

Say = Callable[[str], None]


def save_log(path: Path, game_id: str, players: int, options: Mapping[str, JSON], seed: int,
             actions: Sequence[Action]) -> None:
    """Write what ``python -m engine replay`` needs to rebuild a game: its setup and action log."""
    path.write_text(json.dumps({
        "game": game_id,
        "players": players,
        "options": dict(options),
        "seed": seed,
        "actions": [a.to_json() for a in actions],
    }, indent=1) + "\n", encoding="utf-8")


def default_players(game_spec: GameSpec) -> int:
    """The seats a command-line game gets when none are asked for: four where the game allows."""
    return max(game_spec.min_players, min(4, game_spec.max_players))


def parse_options(game_spec: GameSpec, words: Sequence[str] | None) -> dict[str, JSON]:
    """``NAME`` switches an option on, ``NAME=VALUE`` sets it; IllegalAction for an unknown or bad one."""
    out: dict[str, JSON] = {}
    for word in words or ():
        name, _, value = word.partition("=")
        out[name] = game_spec.option(name).parse(value)
    return out


def seat_people(humans: int, players: int, ai: str) -> list[str]:
    """Who sits where: people first ("you" when alone), then the AI seats."""
    people = ["you"] if humans == 1 else [f"player {p + 1}" for p in range(humans)]
    return people + [f"{ai} AI"] * (players - humans)


def choice_lines(decision: Decision) -> list[str]:
    """The heading and one numbered line per choice; a two-step pick's first step heads its group."""
    lines = [decision.heading]
    group = ""
    for i, choice in enumerate(decision.choices, 1):
        if choice.group and choice.group != group:
            lines.append(f"  {choice.group}:")
        group = choice.group
        indent = "      " if group else "  "
        lines.append(f"{indent}{i:>2}) {choice.label}")
    return lines


def pick(text: str, decision: Decision) -> Choice | None:
    """The choice typed as its number or its label (any case); None when nothing matches."""
    word = text.strip()
    if word.isdigit():
        index = int(word) - 1
        return decision.choices[index] if 0 <= index < len(decision.choices) else None
    wanted = word.casefold()
    return next((c for c in decision.choices if c.label.casefold() == wanted), None)


def event_lines(spec: GameSpec, events: Sequence[Event], viewer: PlayerId | None,
                names: Sequence[str]) -> list[str]:
    """The sentences of the events ``viewer`` may see (bookkeeping events say nothing)."""
    game = spec.load()
    lines = []
    for event in events:
        if event.visible_to(viewer):
            text = game.describe_event(event, names)
            if text:
                lines.append(text)
    return lines


def run_terminal_game(spec: GameSpec, *, players: int, humans: int, seed: int, ai: str,
                      options: Mapping[str, Any], log_path: Path | None, stdin: TextIO,
                      say: Say = print) -> int:
    """Play one game to the end (or ``quit``); 0 when it ran, 2 when it could not start."""
    game = spec.load()
    humans = max(0, min(humans, players))
    try:
        checked = spec.checked_options(players, options)
        ais = {p: spec.make_policy(ai, seed * 31 + p) for p in range(humans, players)}
    except (IllegalAction, KeyError) as exc:
        say(exc.message if isinstance(exc, IllegalAction) else str(exc.args[0]))
        return 2
    state = game.setup(players, checked, seed)
    names = spec.seat_names(seat_people(humans, players, ai))
    log: list[Action] = []
    log_path = log_path or Path(f"annals-game-{seed}.json")
    # One person alone sees what their seat sees; at a hotseat the table sees public things only.
    viewer: PlayerId | None = 0 if humans == 1 else None
    say(f"{spec.title}: {players} players, seed {seed}: {', '.join(names)}. Type 'help' for commands.")

    def save() -> None:
        save_log(log_path, spec.id, players, checked, seed, log)
        say(f"Action log saved to {log_path} (python -m engine replay {log_path}).")

    while not game.is_over(state):
        player = min(game.actors(state))
        if player in ais:
            action = ais[player].choose(state, player)
        else:
            decision = decide(game, state, player, names)
            if decision is None:  # pragma: no cover - an actor always has a legal move
                raise RuntimeError(f"{names[player]} is to act but has no legal move")
            view = game.view(state, player)
            say("")
            say(game.status_text(view, names))
            say(f"{names[player]}: " + "\n".join(choice_lines(decision)))
            line = stdin.readline()
            word = line.strip().lower()
            if not line or word in ("quit", "exit"):
                save()
                return 0
            if word in ("board", "b"):
                say(game.board_text(view, names))
                continue
            if word == "hand":
                say(game.hand_text(view, player, names))
                continue
            if word == "status":
                continue  # the status heads every prompt
            if word in ("help", "?"):
                say(HELP)
                continue
            choice = pick(line, decision)
            if choice is None:
                say("That is not one of the choices; type its number or 'help'.")
                continue
            if choice.confirm:
                say(f"{choice.confirm} (yes/no)")
                if stdin.readline().strip().lower() not in YES:
                    continue
            action = choice.action
        try:
            result = game.apply(state, action)
        except IllegalAction as exc:
            say(exc.message)
            continue
        state = result.state
        log.append(action)
        seen = viewer if viewer is not None or player in ais else player
        for text in event_lines(spec, result.events, seen, names):
            say(text)
    view = game.view(state, viewer)
    say("")
    say("Game over. " + game.summary_text(view, names))
    save()
    return 0
