"""Command line: ``python -m engine simulate|check-data|replay|play``, for every registered game.

- ``simulate`` plays whole games between AI players and prints, as its last
  line, one JSON object with the run's figures.
- ``check-data`` validates every data file of every game (and of games still
  being built); exit 1 with all problems.
- ``replay FILE`` rebuilds a game from a saved action log and prints the scores (and, for a finished
  game, why it ended and the places).
- ``play`` lets people play a whole game in the terminal (hotseat, or against AI).

Every command reads the game registry: ``--game`` takes any registered id and
defaults to the first one.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from engine.core import Action, IllegalAction, replay
from engine.registry import data_checks, game_ids, spec, specs
from engine.spec import _resolve
from engine.terminal import default_players, parse_options, run_terminal_game, save_log


def play_ai_game(game_id: str, players: int, seed: int, policy: str,
                 options: dict[str, Any] | None = None) -> tuple[Any, list[Action]]:
    """Play one whole game between AI players; returns the final state and the action log."""
    game_spec = spec(game_id)
    game = game_spec.load()
    state = game.setup(players, game_spec.checked_options(players, options or {}), seed)
    ais = [game_spec.make_policy(policy, seed * 31 + p) for p in range(players)]
    log: list[Action] = []
    while not game.is_over(state):
        player = min(game.actors(state))
        action = ais[player].choose(state, player)
        state = game.apply(state, action).state
        log.append(action)
    return state, log


def cmd_simulate(args: argparse.Namespace) -> int:
    options = parse_options(spec(args.game), args.option)
    game = spec(args.game).load()
    scores: list[int] = []
    actions = 0
    start = time.perf_counter()
    for i in range(args.games):
        seed = args.seed + i
        state, log = play_ai_game(args.game, args.players, seed, args.ai, options)
        game_scores = game.scores(state)
        scores.extend(game_scores)
        actions += len(log)
        if args.save_log and i == 0:
            save_log(Path(args.save_log), args.game, args.players,
                     spec(args.game).checked_options(args.players, options), seed, log)
        if args.verbose:
            print(f"game {i + 1} (seed {seed}): scores {game_scores}, {len(log)} actions")
    wall = time.perf_counter() - start
    print(json.dumps({
        "game": args.game,
        "games": args.games,
        "players": args.players,
        "mean_score": round(sum(scores) / len(scores), 2) if scores else 0,
        "max_score": max(scores) if scores else 0,
        "actions_per_game": round(actions / args.games, 1) if args.games else 0,
        "wall_seconds": round(wall, 3),
        "games_per_second": round(args.games / wall, 2) if wall > 0 else None,
    }))
    return 0


def check_all_data() -> tuple[list[str], list[str]]:
    """Every problem in every game's data files, prefixed with the game id; and the report lines
    of valid data whose game gives one (provenance counts, worth printing)."""
    problems: list[str] = []
    report: list[str] = []
    for game_spec in specs():
        found = game_spec.load().check_data()
        problems.extend(f"{game_spec.id}: {p}" for p in found)
        if not found and game_spec.data_report:
            report.extend(f"{game_spec.id}: {line}" for line in _resolve(game_spec.data_report)())
    for check in data_checks():
        found = _resolve(check.check)()
        problems.extend(f"{check.id}: {p}" for p in found)
        if not found and check.report is not None:
            report.extend(f"{check.id}: {line}" for line in _resolve(check.report)())
    return problems, report


def cmd_check_data(args: argparse.Namespace) -> int:
    problems, report = check_all_data()
    for line in report:
        print(line)
    for problem in problems:
        print(problem)
    if problems:
        print(f"{len(problems)} problem(s) found.", file=sys.stderr)
        return 1
    checked = [*game_ids(), *(c.id for c in data_checks())]
    print(f"All data files are valid ({', '.join(checked)}).")
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    try:
        data = json.loads(Path(args.file).read_text(encoding="utf-8"))
        game_spec = spec(data["game"])
        game = game_spec.load()
        players = int(data["players"])
        actions = list(data["actions"])  # JSON entries: replay reads undo entries too
        state = replay(game, players, data.get("options", {}), int(data["seed"]), actions)
    except (OSError, ValueError, KeyError, TypeError, IllegalAction) as exc:
        print(f"Cannot replay {args.file}: {exc}", file=sys.stderr)
        return 1
    scores = game.scores(state)
    ended = game.outcome(state)
    status = f"finished. {ended.why}" if ended is not None else f"in progress after {len(actions)} actions"
    print(f"{game_spec.title}: {status}")
    names = game_spec.seat_names([None] * len(scores), game_spec.seat_colours(state))
    for name, score in zip(names, scores, strict=True):
        print(f"  {name}: {score}")
    figures: dict[str, Any] = {"scores": scores, "over": ended is not None, "actions": len(actions)}
    if ended is not None:
        figures |= {"reason": ended.reason.value, "places": [list(place) for place in ended.places]}
    print(json.dumps(figures))
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    seed = int(time.time()) % 1_000_000 if args.seed is None else args.seed
    options = parse_options(spec(args.game), args.option)
    return run_terminal_game(
        spec(args.game), players=args.players, humans=args.humans, seed=seed, ai=args.ai,
        options=options, log_path=Path(args.log) if args.log else None, stdin=sys.stdin,
    )


def add_game(parser: argparse.ArgumentParser) -> None:
    ids = game_ids()
    policies = sorted({name for s in specs() for name in s.policy_names})
    parser.add_argument("--game", default=ids[0], choices=ids, help=f"the game (default {ids[0]})")
    parser.add_argument("--players", type=int, default=None,
                        help="how many seats (default: the game's fewest, 4 where allowed)")
    parser.add_argument("--ai", default="greedy", choices=policies, help="the AI players")
    parser.add_argument("--option", action="append",
                        help="a game option: NAME switches it on, NAME=VALUE sets it (repeatable)")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m engine", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sim = sub.add_parser("simulate", help="play whole AI games and print figures")
    add_game(sim)
    sim.add_argument("--games", type=int, default=10)
    sim.add_argument("--seed", type=int, default=1)
    sim.add_argument("--save-log", help="write the first game's action log to this file")
    sim.add_argument("--verbose", action="store_true")
    sub.add_parser("check-data", help="validate every data file")
    rep = sub.add_parser("replay", help="rebuild a game from a saved action log")
    rep.add_argument("file")
    play = sub.add_parser("play", help="play in the terminal (hotseat or against the AI)")
    add_game(play)
    play.add_argument("--humans", type=int, default=1, help="how many seats people play (the rest: AI)")
    play.add_argument("--seed", type=int, default=None)
    play.add_argument("--log", help="save the action log here (default: annals-game-SEED.json)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if getattr(args, "players", 0) is None:
        args.players = default_players(spec(args.game))
    if args.command in ("simulate", "play") and args.ai not in spec(args.game).policy_names:
        print(f"{spec(args.game).title} has no AI called {args.ai!r}; it has "
              f"{', '.join(spec(args.game).policy_names)}.", file=sys.stderr)
        return 2
    handlers = {"simulate": cmd_simulate, "check-data": cmd_check_data, "replay": cmd_replay,
                "play": cmd_play}
    try:
        result: int = handlers[args.command](args)
    except IllegalAction as exc:  # a bad --option: the spec's sentence, not a traceback
        print(exc.message, file=sys.stderr)
        return 2
    return result


if __name__ == "__main__":
    raise SystemExit(main())
