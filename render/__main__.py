"""Command line: ``python -m render demo --game ID --seed 1 --out DIR``, for every registered game.

``demo`` plays a seeded game between the game's AI players and writes what the
bot would post: the board at every change of the game's stage (``Game.stage``:
an epoch, an era, a round) as that stage left it, the board at the end, and a
chart of the scores at each stage's end. It prints every file it writes. The
board is drawn as a turn notice draws it when the game names its notice
pictures (Rise of Empires: the map and the dashboard, ``STEM-map.png`` and
``STEM-dashboard.png``), else by the renderer the game's spec names.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.core import JSON, IllegalAction
from engine.registry import game_ids, spec
from engine.spec import GameSpec
from engine.terminal import default_players, parse_options
from render.score_history import ScorePoint


def slug(text: str) -> str:
    """A file-name-safe lower-case form of ``text`` ("Incas & Aztecs" -> "incas-aztecs")."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


@dataclass(frozen=True)
class Shot:
    """One board to draw: its file stem and the spectator view it shows."""

    stem: str
    view: Mapping[str, Any]


def play_demo(game_spec: GameSpec, players: int, seed: int, options: Mapping[str, JSON],
              policy: str = "greedy", stages: int | None = None) -> tuple[Any, list[Shot], list[ScorePoint]]:
    """Play a seeded AI game, stopping after ``stages`` stages have ended (None: to the end).

    Returns the last state, the boards to draw (each stage as it ended, then the
    end of the game) and every player's score at the start and at each stage's end.
    """
    game = game_spec.load()
    state = game.setup(players, game_spec.checked_options(players, options), seed)
    # The same seeds as engine.__main__.play_ai_game, so both play the same game.
    ais = [game_spec.make_policy(policy, seed * 31 + p) for p in range(players)]
    view = game.view(state, None)
    shots: list[Shot] = []
    series = [ScorePoint("Start", tuple(game.scores(state)), 0)]
    while not game.is_over(state) and (stages is None or len(shots) < stages):
        player = min(game.actors(state))
        before = view
        state = game.apply(state, ais[player].choose(state, player)).state
        view = game.view(state, None)
        ended = game.stage(before)
        if game.stage(view) != ended and not game.is_over(state):
            shots.append(Shot(f"board-{len(shots) + 1:02d}-{slug(ended)}", before))
            series.append(ScorePoint(ended, tuple(game.scores(state)), len(shots)))
    if game.is_over(state):
        shots.append(Shot("board-final", view))
        series.append(ScorePoint("Final", tuple(game.scores(state)), len(shots)))
    return state, shots, series


def board_pictures(game_spec: GameSpec, view: Mapping[str, Any], size: int) -> list[tuple[str, bytes]]:
    """The board's pictures as the bot posts them, each with a tag for its file name ("" for a
    picture alone): a turn notice's pictures where the game names its own (a tall board split
    in two), else the one picture of the game's renderer (with place names)."""
    if game_spec.pictures:
        pictures = game_spec.notice_pictures()(view, size=size)
        return [("", pictures[0][1])] if len(pictures) == 1 else pictures
    return [("", game_spec.render()(view, size=size))]


def write(path: Path, data: bytes, written: list[Path]) -> None:
    path.write_bytes(data)
    written.append(path)
    print(path)


def cmd_demo(args: argparse.Namespace) -> int:
    if args.game not in game_ids():
        print(f"Unknown game {args.game!r}; known games: {', '.join(game_ids())}.", file=sys.stderr)
        return 2
    game_spec = spec(args.game)
    players = args.players or default_players(game_spec)
    try:
        options = parse_options(game_spec, args.option)
        game_spec.checked_options(players, options)
    except IllegalAction as exc:
        print(exc.message, file=sys.stderr)
        return 2
    if args.stages is not None and args.stages < 1:
        print("--stages must be at least 1.", file=sys.stderr)
        return 2

    # Imported here so a bad --game fails fast, before matplotlib loads.
    from render.charts import score_chart

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    state, shots, series = play_demo(game_spec, players, args.seed, options, stages=args.stages)
    for shot in shots:
        for tag, png in board_pictures(game_spec, shot.view, args.size):
            write(out / f"{shot.stem}{'-' * bool(tag)}{tag}.png", png, written)
    names = game_spec.seat_names([None] * players, game_spec.seat_colours(state))  # as the game ended
    chart = score_chart(series, player_names=names, title=f"{game_spec.title}: scores as each stage ended",
                        by_epoch=False)
    write(out / "scores.png", chart, written)
    print(f"{len(written)} files written to {out}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    ids = game_ids()
    parser = argparse.ArgumentParser(prog="python -m render", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    demo = sub.add_parser("demo", help="play a seeded AI game and write its pictures")
    demo.add_argument("--game", default=ids[0], help=f"game id ({', '.join(ids)}; default {ids[0]})")
    demo.add_argument("--seed", type=int, default=1)
    demo.add_argument("--players", type=int, default=None, help="how many seats (default 4 where allowed)")
    demo.add_argument("--out", required=True, help="directory to write the PNG files into")
    demo.add_argument("--stages", type=int, default=None,
                      help="stop after this many stages (epochs, eras...) have ended (default: all)")
    demo.add_argument("--size", type=int, default=1600, help="board width in pixels")
    demo.add_argument("--option", action="append", default=[],
                      help="a game option: NAME switches it on, NAME=VALUE sets it (repeatable)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    handlers = {"demo": cmd_demo}
    return handlers[args.command](args)


if __name__ == "__main__":
    raise SystemExit(main())
