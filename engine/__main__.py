"""Command line: ``python -m engine simulate|check-data|replay|play``.

- ``simulate`` plays whole games between AI players and prints, as its last
  line, one JSON object with the run's figures.
- ``check-data`` validates every data file of every game; exit 1 with all problems.
- ``replay FILE`` rebuilds a game from a saved action log and prints the scores.
- ``play`` lets people play a whole game in the terminal (hotseat, or against AI).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from engine.core import Action, IllegalAction, replay
from engine.registry import data_checks, game_ids, get_game, make_policy
from engine.spec import _resolve


def save_log(path: Path, game_id: str, players: int, options: dict[str, Any], seed: int,
             actions: Sequence[Action]) -> None:
    path.write_text(json.dumps({
        "game": game_id,
        "players": players,
        "options": options,
        "seed": seed,
        "actions": [a.to_json() for a in actions],
    }, indent=1) + "\n", encoding="utf-8")


def play_ai_game(game_id: str, players: int, seed: int, policy: str,
                 options: dict[str, Any] | None = None) -> tuple[Any, list[Action]]:
    """Play one whole game between AI players; returns the final state and the action log."""
    game = get_game(game_id)
    state = game.setup(players, options or {}, seed)
    ais = [make_policy(game_id, policy, seed * 31 + p) for p in range(players)]
    log: list[Action] = []
    while not game.is_over(state):
        player = min(game.actors(state))
        action = ais[player].choose(state, player)
        state = game.apply(state, action).state
        log.append(action)
    return state, log


def cmd_simulate(args: argparse.Namespace) -> int:
    options = {name: True for name in args.option or []}
    scores: list[int] = []
    actions = 0
    start = time.perf_counter()
    for i in range(args.games):
        seed = args.seed + i
        state, log = play_ai_game(args.game, args.players, seed, args.ai, options)
        game_scores = get_game(args.game).scores(state)
        scores.extend(game_scores)
        actions += len(log)
        if args.save_log and i == 0:
            save_log(Path(args.save_log), args.game, args.players, options, seed, log)
        if args.verbose:
            print(f"game {i + 1} (seed {seed}): scores {game_scores}, {len(log)} actions")
    wall = time.perf_counter() - start
    print(json.dumps({
        "games": args.games,
        "players": args.players,
        "mean_score": round(sum(scores) / len(scores), 2) if scores else 0,
        "max_score": max(scores) if scores else 0,
        "actions_per_game": round(actions / args.games, 1) if args.games else 0,
        "wall_seconds": round(wall, 3),
        "games_per_second": round(args.games / wall, 2) if wall > 0 else None,
    }))
    return 0


def check_all_data() -> list[str]:
    """Every problem in every game's data files, prefixed with the game id."""
    problems: list[str] = []
    for game_id in game_ids():
        problems.extend(f"{game_id}: {p}" for p in get_game(game_id).check_data())
    for data in data_checks():
        problems.extend(f"{data.id}: {p}" for p in _resolve(data.check)())
    return problems


def cmd_check_data(args: argparse.Namespace) -> int:
    problems = check_all_data()
    for problem in problems:
        print(problem)
    if problems:
        print(f"{len(problems)} problem(s) found.", file=sys.stderr)
        return 1
    for data in data_checks():
        for line in _resolve(data.report)() if data.report else []:
            print(f"{data.id}: {line}")
    print(f"All data files are valid ({', '.join([*game_ids(), *(d.id for d in data_checks())])}).")
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    try:
        data = json.loads(Path(args.file).read_text(encoding="utf-8"))
        game = get_game(data["game"])
        actions = [game.codec.decode(a) for a in data["actions"]]
        state = replay(game, int(data["players"]), data.get("options", {}), int(data["seed"]), actions)
    except (OSError, ValueError, KeyError, IllegalAction) as exc:
        print(f"Cannot replay {args.file}: {exc}", file=sys.stderr)
        return 1
    scores = game.scores(state)
    status = "finished" if game.is_over(state) else f"in progress after {len(actions)} actions"
    print(f"{game.title}: {status}")
    for p, score in enumerate(scores):
        print(f"  player {p + 1}: {score}")
    print(json.dumps({"scores": scores, "over": game.is_over(state), "actions": len(actions)}))
    return 0


def cmd_play(args: argparse.Namespace, stdin: TextIO = sys.stdin) -> int:
    from engine.history.play import run_terminal_game

    return run_terminal_game(
        players=args.players, humans=args.humans, seed=args.seed, ai=args.ai,
        options={name: True for name in args.option or []},
        log_path=Path(args.log) if args.log else None, stdin=stdin,
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m engine", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sim = sub.add_parser("simulate", help="play whole AI games and print figures")
    sim.add_argument("--game", default="history-classic", choices=game_ids())
    sim.add_argument("--players", type=int, default=4)
    sim.add_argument("--games", type=int, default=10)
    sim.add_argument("--seed", type=int, default=1)
    sim.add_argument("--ai", default="greedy", choices=("greedy", "random"))
    sim.add_argument("--option", action="append", help="enable a game option (repeatable)")
    sim.add_argument("--save-log", help="write the first game's action log to this file")
    sim.add_argument("--verbose", action="store_true")
    sub.add_parser("check-data", help="validate every data file")
    rep = sub.add_parser("replay", help="rebuild a game from a saved action log")
    rep.add_argument("file")
    play = sub.add_parser("play", help="play in the terminal (hotseat or against the AI)")
    play.add_argument("--players", type=int, default=4)
    play.add_argument("--humans", type=int, default=1, help="how many seats people play (the rest: AI)")
    play.add_argument("--seed", type=int, default=None)
    play.add_argument("--ai", default="greedy", choices=("greedy", "random"))
    play.add_argument("--option", action="append", help="enable a game option (repeatable)")
    play.add_argument("--log", help="save the action log here (default: annals-game-SEED.json)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    handlers = {"simulate": cmd_simulate, "check-data": cmd_check_data, "replay": cmd_replay,
                "play": cmd_play}
    return handlers[args.command](args)


if __name__ == "__main__":
    raise SystemExit(main())
