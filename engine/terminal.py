"""A whole game of any registered game in the terminal: hotseat for several people, or against the AI.

Everything a person reads comes from the game's contract: the decision
(heading and labelled choices), one sentence per event, the status, hand,
board and end-of-game summary. Nothing here knows a game.

Type a choice's number, the start of its label or some of its words, or one of
the commands of :data:`HELP`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, TextIO

from engine.choice_words import matching_choices
from engine.core import JSON, Action, Decision, Event, IllegalAction, PlayerId, decide
from engine.spec import GameSpec

HELP = """\
Type the number of a choice, the start of its label, or some of its words in order
("move cross east" for "Move Crossroads → Eastwatch"); when they fit several choices,
those are listed and nothing is played. Or one of:
  status   the game as it stands (it heads every prompt)
  board    the board in words
  hand     what only you see (cards, a secret bid)
  help     this text
  quit     stop here and save the action log (python -m engine replay FILE rebuilds the game)"""
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


def pick(text: str, decision: Decision) -> list[int]:
    """The indices of the choices ``text`` names (see :func:`engine.choice_words.matching_choices`):
    one is the choice, several are for the person to tell apart, none means no choice."""
    return matching_choices(text, [c.label for c in decision.choices])


def _verb(word: str) -> str:
    """A third-person verb as "you" says it: has -> have, draws -> draw, passes -> pass."""
    irregular = {"has": "have", "is": "are", "was": "were", "does": "do", "goes": "go"}
    if word in irregular:
        return irregular[word]
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("ches", "shes", "sses", "xes", "zes")):
        return word[:-2]
    return word[:-1]


def second_person(text: str, name: str) -> str:
    """``text`` with the verbs after ``name`` agreeing with it when it is "you (Red)": the games
    word every seat in the third person ("you (Red) draws"), which "you" does not say."""
    if not name.startswith("you"):
        return text
    def agreeing(match: re.Match[str]) -> str:
        word = match.group(1)
        if word.endswith(("ss", "us")) or word in ("as", "its", "this"):  # not a verb in -s
            return match.group(0)
        return f"{name} {_verb(word)}"

    return re.sub(rf"(?<!\w){re.escape(name)} ([a-z]+s)\b", agreeing, text)


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
    people = seat_people(humans, players, ai)
    names = spec.seat_names(people, spec.seat_colours(state))
    if humans == 1:  # one person alone is "you (Red)": every line agrees with it
        said = say

        def say(text: str) -> None:
            said(second_person(text, names[0]))
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
        forced = None if player in ais else game.forced(state, player)
        if player in ais:
            action = ais[player].choose(state, player)
        elif forced is not None:  # as the platform does: a one-choice move that reveals nothing plays itself
            shown = decide(game, state, player, names)
            label = next((c.label for c in shown.choices if c.action == forced), None) if shown else None
            say(f"{names[player]}: your only choice was played for you" + (f": {label}." if label else "."))
            action = forced
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
            hits = pick(line, decision)
            if not hits:
                say("That is not one of the choices; type its number or 'help'.")
                continue
            if len(hits) > 1:  # never a guess: the fitting choices, by the numbers that play them
                say(f"That fits {len(hits)} choices; nothing was played. "
                    "Type its number or more of its words:")
                for i in hits:
                    say(f"  {i + 1:>2}) {decision.choices[i].label}")
                continue
            choice = decision.choices[hits[0]]
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
        names[:] = spec.seat_names(people, spec.seat_colours(state))  # a seat goes by the colours it took
        seen = viewer if viewer is not None or player in ais else player
        for text in event_lines(spec, result.events, seen, names):
            say(text)
    view = game.view(state, viewer)
    ended = game.outcome(state)
    say("")
    if ended is not None:  # always, once the loop is done; None only for a game that breaks the contract
        say(ended.why)
    say("Game over. " + game.summary_text(view, names))
    save()
    return 0
