"""Command line: ``python -m render demo --game history-classic --seed 1 --out DIR``.

``demo`` plays a seeded game between greedy AI players and writes what the
bot would post, printing every file it writes.

* ``history-classic``: the board at the end of every epoch (the lands changed
  in the epoch's last turn outlined) and at the end of the game, the score
  chart, the end-of-game summary, and a few cards (the empires of epoch I, a
  Greater and a Lesser event, a Minor Empire).
* ``eight-minute``: the board after the bid, after each third of the game (the
  regions changed in the last turn outlined), one mid-action picture with the
  legal targets outlined, the end of the game, and the score chart. Variants
  with ``--option goods_tokens`` (and ``full_game``, ``die_roll_tiebreak``).
* ``rise``: the board at the end of each era (the regions whose cubes changed
  in the era's last game turn outlined), the final board, and the score chart
  (victory points after each game turn, the eras as bands).
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from engine.core import Event
from engine.history.rules_data import ROMAN
from engine.registry import game_ids, get_game, make_policy
from render.board import army_stack
from render.history import GameHistory, ScorePoint, history_from_events

#: Games the demo can draw (the board renderer is per game).
RENDERABLE = ("history-classic", "history", "eight-minute", "rise")

Board = dict[str, Any]


def slug(text: str) -> str:
    """A file-name-safe lower-case form of ``text`` ("Incas & Aztecs" -> "incas-aztecs")."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def board_snapshot(view: Mapping[str, Any]) -> Board:
    """What of a view's board matters for "what changed": who holds each land, and the buildings."""
    board = view["board"]
    return {
        "armies": {land: [tuple(a[:2]) for a in army_stack(stack)] for land, stack in board["armies"].items()
                   if stack},
        "forts": set(board["forts"]),
        "structures": dict(board["structures"]),
        "monuments": set(board["monuments"]),
    }


def changed_lands(before: Board, after: Board) -> list[str]:
    """Lands whose armies, fort, capital/city or monument differ between two snapshots."""
    lands = set(before["armies"]) | set(after["armies"])
    out = {land for land in lands if before["armies"].get(land) != after["armies"].get(land)}
    out |= before["forts"] ^ after["forts"]
    out |= before["monuments"] ^ after["monuments"]
    out |= {land for land in set(before["structures"]) | set(after["structures"])
            if before["structures"].get(land) != after["structures"].get(land)}
    return sorted(out)


def epoch_end_view(view: Mapping[str, Any], epoch: int) -> dict[str, Any]:
    """A spectator view taken just after ``epoch`` ended, headed as that epoch's end.

    When an epoch's last turn ends the engine is already drawing the next
    epoch's empires; the board is unchanged, so only the heading is put back.
    """
    out = dict(view)
    out["epoch"] = epoch
    out["epoch_name"] = f"End of Epoch {ROMAN[epoch]}"
    out["phase"] = ""
    out["turn"] = None
    return out


def play_demo(game_id: str, players: int, seed: int, epochs: int | None = None,
              policy: str = "greedy") -> tuple[Any, list[Event], list[tuple[int, dict[str, Any], list[str]]]]:
    """Play a seeded AI game, stopping after ``epochs`` epochs (None: to the end).

    Returns the last state, every event ``apply`` emitted, and for each epoch
    that ended: (epoch, spectator view at its end, lands changed in its last turn).
    """
    game = get_game(game_id)
    state = game.setup(players, {}, seed)
    # The same seeds as engine.__main__.play_ai_game, so both play the same game.
    ais = [make_policy(game_id, policy, seed * 31 + p) for p in range(players)]
    events: list[Event] = []
    ends: list[tuple[int, dict[str, Any], list[str]]] = []
    turn_start = board_snapshot(game.view(state, None))
    while not game.is_over(state):
        player = min(game.actors(state))
        before = game.view(state, None)
        result = game.apply(state, ais[player].choose(state, player))
        state = result.state
        events.extend(result.events)
        for event in result.events:
            if event.type == "turn":
                turn_start = board_snapshot(before)
            elif event.type == "preeminence":
                epoch = int(event.data["epoch"])
                view = game.view(state, None)
                changed = changed_lands(turn_start, board_snapshot(view))
                ends.append((epoch, epoch_end_view(view, epoch), changed))
        if epochs is not None and len(ends) >= epochs:
            break
    return state, events, ends


def write(path: Path, data: bytes, written: list[Path]) -> None:
    path.write_bytes(data)
    written.append(path)
    print(path)


def cmd_demo(args: argparse.Namespace) -> int:
    if args.game not in game_ids():
        print(f"Unknown game {args.game!r}; known games: {', '.join(game_ids())}.", file=sys.stderr)
        return 2
    if args.game not in RENDERABLE:
        print(f"There are no pictures for {args.game!r} yet; try: {', '.join(RENDERABLE)}.", file=sys.stderr)
        return 2
    game = get_game(args.game)
    if not game.min_players <= args.players <= game.max_players:
        print(f"{game.title} is for {game.min_players} to {game.max_players} players, not {args.players}.",
              file=sys.stderr)
        return 2
    if args.game == "eight-minute":
        return demo_eight_minute(args)
    if args.game == "history":
        return demo_epochs5(args)
    if args.game == "rise":
        return demo_rise(args)
    if args.option:
        print(f"--option is for eight-minute only, not {args.game!r}.", file=sys.stderr)
        return 2
    if args.epochs is not None and not 1 <= args.epochs <= 7:
        print("--epochs must be between 1 and 7.", file=sys.stderr)
        return 2

    # Imported here so a bad --game fails fast, before matplotlib loads.
    from engine.history.rules_data import load_rules
    from render.board import render_board
    from render.cards import empire_card, event_card
    from render.charts import score_chart, summary_chart
    from render.palette import PLAYER_COLOURS, PLAYER_NAMES

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    state, events, ends = play_demo(args.game, args.players, args.seed, args.epochs)
    for epoch, view, changed in ends:
        picture = render_board(view, highlight=changed, size=args.size)
        write(out / f"board-epoch-{epoch}.png", picture, written)
    if game.is_over(state):
        write(out / "board-final.png", render_board(game.view(state, None), size=args.size), written)

    history = history_from_events(events, args.players)
    names = [PLAYER_NAMES[p % len(PLAYER_NAMES)] for p in range(args.players)]
    write(out / "scores.png", score_chart(history.series, player_names=names), written)
    write(out / "summary.png", _summary(history, game.ranking(state), names, summary_chart), written)

    rules = load_rules()
    played_by = {e.key: p for p, listed in enumerate(history.empires) for e in listed}
    for empire in rules.epochs[1]:
        owner = played_by.get(empire.key)
        caption = None if owner is None else f"Played by {names[owner]}"
        accent = None if owner is None else PLAYER_COLOURS[owner % len(PLAYER_COLOURS)]
        path = out / f"card-empire-{empire.epoch}-{slug(empire.name)}.png"
        write(path, empire_card(empire, caption=caption, accent=accent, rules=rules), written)
    for label, card_id in (("greater", "leader"), ("lesser", "plague"), ("minor", "minor-phonecia")):
        write(out / f"card-{label}-{slug(rules.cards[card_id].name)}.png", event_card(card_id, rules=rules),
              written)
    print(f"{len(written)} files written to {out}")
    return 0


def _summary(history: GameHistory, ranking: Sequence[int], names: Sequence[str], chart: Any) -> bytes:
    turns = [p for p in history.series if p.label != "Final"]
    last = turns[-1].scores
    if history.final is not None:
        bonus = [f - s for f, s in zip(history.final, last, strict=True)]
        title = "Final scores"
    else:
        bonus = None
        title = f"Scores after Epoch {ROMAN[turns[-1].period]}" if turns[-1].period else "Scores"
    data: bytes = chart(history.scores, history.empires, player_names=names, ranking=ranking, bonus=bonus,
                        title=title)
    return data


# --- Eight-Minute Empire ---------------------------------------------------------------------


def em_changed(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[str]:
    """Regions whose armies, cities or neutral armies differ between two Eight-Minute views."""
    out: set[str] = set()
    for key in ("armies", "cities", "neutral"):
        b, a = before["board"][key], after["board"][key]
        out |= {r for r in set(b) | set(a) if b.get(r) != a.get(r)}
    return sorted(out)


def em_targets(view: Mapping[str, Any], legal: Sequence[Any]) -> list[str]:
    """The regions a player may pick among ``legal`` (for a move: where the armies may go)."""
    out: set[str] = set()
    for action in legal:
        data = action.to_json()
        for key in ("region", "to"):
            if isinstance(data.get(key), str):
                out.add(data[key])
    return sorted(out)


Shot = tuple[str, dict[str, Any], list[str]]
Score = tuple[str, tuple[int, ...], int, int | None]


def play_eight_minute(players: int, seed: int, options: Mapping[str, bool],
                      policy: str = "greedy") -> tuple[Any, list[Event], list[Shot], list[Score]]:
    """Play a seeded AI game of Eight-Minute Empire to the end.

    Returns the last state, every event, the pictures to draw as (file stem,
    view, regions to outline), and the score after each turn as (label,
    totals, game number, seat who just played).
    """
    game = get_game("eight-minute")
    state = game.setup(players, dict(options), seed)
    ais = [make_policy("eight-minute", policy, seed * 31 + p) for p in range(players)]
    events: list[Event] = []
    shots: list[Shot] = []
    series: list[Score] = [("Start", (0,) * players, 0, None)]
    turn_start = game.view(state, None)
    end_cards = int(turn_start["cards_to_end"])
    marks = {max(1, end_cards // 3): "third-1", max(2, 2 * end_cards // 3): "third-2"}
    targets_shown = False
    turns = 0
    while not game.is_over(state):
        player = min(game.actors(state))
        action = ais[player].choose(state, player)
        if not targets_shown and action.kind in ("move", "place") and turns >= players:
            legal = game.legal_actions(state, player)
            source = action.to_json().get("source")
            if source is not None:  # a move: where the chosen army may go (the second select)
                legal = [a for a in legal if a.to_json().get("source") == source]
            view = game.view(state, player)
            shots.append((f"board-targets-{action.kind}", view, em_targets(view, legal)))
            targets_shown = True
        result = game.apply(state, action)
        state = result.state
        events.extend(result.events)
        for event in result.events:
            if event.type == "first_player":
                view = game.view(state, None)
                stem = "board-after-bid"
                if int(view["games"]) > 1:
                    stem += f"-game-{view['game_no']}"
                shots.append((stem, view, []))
                turn_start = view
            elif event.type in ("turn", "game_scored"):
                turns += 1
                view = game.view(state, None)
                # One game: no bands on the chart; the Full Game: a band per game (I, II, III).
                period = int(view["game_no"]) if int(view["games"]) > 1 else 0
                series.append((f"{turns}", tuple(view["totals"]), period, player))
                held = min(len(c) for c in view["cards"])
                mark = marks.get(held)
                if event.type == "turn" and mark and all(len(c) == held for c in view["cards"]):
                    if int(view["games"]) > 1:
                        mark += f"-game-{view['game_no']}"
                    shots.append((f"board-{mark}", view, em_changed(turn_start, view)))
                    del marks[held]
                turn_start = view
            elif event.type == "game_started" and int(event.data["game_no"]) > 1:
                marks = {max(1, end_cards // 3): "third-1", max(2, 2 * end_cards // 3): "third-2"}
    final = game.view(state, None)
    shots.append(("board-final", final, []))
    return state, events, shots, series


def demo_eight_minute(args: argparse.Namespace) -> int:
    from engine.eight_minute.flow import OPTIONS
    from render.charts import score_chart
    from render.eight_minute import render_board as em_board
    from render.history import ScorePoint
    from render.palette import PLAYER_NAMES

    unknown = sorted(set(args.option) - set(OPTIONS))
    if unknown:
        print(f"Unknown option(s) {', '.join(unknown)}; known: {', '.join(OPTIONS)}.", file=sys.stderr)
        return 2
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    options = dict.fromkeys(args.option, True)
    _, _, shots, series = play_eight_minute(args.players, args.seed, options)
    for stem, view, highlight in shots:
        write(out / f"{stem}.png", em_board(view, highlight=highlight, size=args.size), written)
    names = [PLAYER_NAMES[p % len(PLAYER_NAMES)] for p in range(args.players)]
    points = [ScorePoint(label, scores, period, seat) for label, scores, period, seat in series]
    chart = score_chart(points, player_names=names, title="Points as they stand after each turn",
                        by_epoch=False)
    write(out / "scores.png", chart, written)
    print(f"{len(written)} files written to {out}")
    return 0


def demo_epochs5(args: argparse.Namespace) -> int:
    """The 5-epoch rules: the board at the end of every epoch (the last turn's changes outlined),
    the final board and the score chart."""
    from render.board import render_board
    from render.charts import score_chart
    from render.palette import PLAYER_NAMES

    game = get_game("history")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    state = game.setup(args.players, {}, args.seed)
    ais = [make_policy("history", "greedy", args.seed * 31 + p) for p in range(args.players)]
    series = [ScorePoint("Start", tuple(game.scores(state)), 0)]
    view = game.view(state, None)
    turn_start = board_snapshot(view)
    while not game.is_over(state):
        player = min(game.actors(state))
        before = view
        result = game.apply(state, ais[player].choose(state, player))
        state = result.state
        view = game.view(state, None)
        for event in result.events:
            if event.type == "turn":
                turn_start = board_snapshot(before)
            elif event.type == "turn_over":
                turn = before.get("turn") or {}
                series.append(ScorePoint(f"{ROMAN[before['epoch']]} {turn.get('name', '')}",
                                         tuple(game.scores(state)), int(before["epoch"]), turn.get("player")))
        epoch = int(before["epoch"])
        if view["epoch"] != epoch or (game.is_over(state) and args.epochs is None):
            changed = changed_lands(turn_start, board_snapshot(view))
            picture = render_board(epoch_end_view(view, epoch), highlight=changed, size=args.size)
            write(out / f"board-epoch-{epoch}.png", picture, written)
            if args.epochs is not None and epoch >= args.epochs:
                break
    if game.is_over(state):
        write(out / "board-final.png", render_board(view, size=args.size), written)
    names = [PLAYER_NAMES[p % len(PLAYER_NAMES)] for p in range(args.players)]
    write(out / "scores.png", score_chart(series, player_names=names), written)
    print(f"{len(written)} files written to {out}")
    return 0


# --- Rise of Empires ------------------------------------------------------------------------


ROMAN_ERAS = ("", "i", "ii", "iii")  # file names: board-era-ii.png


def rise_changed(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[str]:
    """Regions whose cubes differ between two Rise of Empires views."""
    b, a = before["map"]["cubes"], after["map"]["cubes"]
    return sorted(r for r in set(b) | set(a) if b.get(r) != a.get(r))


def play_rise(players: int, seed: int, policy: str = "greedy") -> tuple[Any, list[Shot], list[ScorePoint]]:
    """Play a seeded AI game of Rise of Empires to the end.

    Returns the last state, the pictures to draw as (file stem, view, regions
    to outline) -- each era's end, just before its cubes are halved, and the
    end of the game -- and every player's victory points after each game turn.
    """
    game = get_game("rise")
    state = game.setup(players, {}, seed)
    ais = [make_policy("rise", policy, seed * 31 + p) for p in range(players)]
    shots: list[Shot] = []
    series = [ScorePoint("Start", tuple(game.scores(state)), 0)]
    view = game.view(state, None)
    turn_start = view
    era_view: dict[str, Any] | None = None
    while not game.is_over(state):
        player = min(game.actors(state))
        before = view
        result = game.apply(state, ais[player].choose(state, player))
        state = result.state
        view = game.view(state, None)
        types = [e.type for e in result.events]
        if "new_tiles" in types:
            turn_start = view
        if view["phase"] == "era_end":
            era_view = view  # the era is scored; its tiles are being kept or given up
        if "era_end" in types:
            # The board as the era left it, before half the cubes go back (when nobody had a
            # tile to keep the halving follows at once, and the board shows it done).
            era = int(before["era"])
            shot = dict(era_view if era_view is not None and era_view["era"] == era else view)
            shot.update(era=era, phase="era_end", pending=[], task=None, current=None, actors=[])
            shots.append((f"board-era-{ROMAN_ERAS[era]}", shot, rise_changed(turn_start, shot)))
        if "victory_points" in types:
            turn = int(view["turn"])
            series.append(ScorePoint(f"{turn}{'AB'[(turn - 1) % 2]}", tuple(game.scores(state)),
                                     (turn + 1) // 2, None))
    if game.is_over(state):  # the last turn's point already holds the final bonus
        shots.append(("board-final", view, []))
    return state, shots, series


def demo_rise(args: argparse.Namespace) -> int:
    """Rise of Empires: the board at the end of each era, the final board and the score chart."""
    from render.charts import score_chart
    from render.palette import PLAYER_NAMES
    from render.rise import render_board as rise_board

    if args.option:
        print(f"--option is for eight-minute only, not {args.game!r}.", file=sys.stderr)
        return 2
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    _, shots, series = play_rise(args.players, args.seed)
    for stem, view, highlight in shots:
        write(out / f"{stem}.png", rise_board(view, highlight=highlight, size=args.size), written)
    names = [PLAYER_NAMES[p % len(PLAYER_NAMES)] for p in range(args.players)]
    # One line chart with the eras as bands (the per-epoch bar panel would call the eras epochs).
    chart = score_chart(series, player_names=names, title="Victory points after each game turn",
                        by_epoch=False)
    write(out / "scores.png", chart, written)
    print(f"{len(written)} files written to {out}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m render", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    demo = sub.add_parser("demo", help="play a seeded AI game and write its pictures")
    demo.add_argument("--game", default="history-classic", help=f"game id ({', '.join(RENDERABLE)})")
    demo.add_argument("--seed", type=int, default=1)
    demo.add_argument("--players", type=int, default=4)
    demo.add_argument("--out", required=True, help="directory to write the PNG files into")
    demo.add_argument("--epochs", type=int, default=None, help="stop after this many epochs (default: all)")
    demo.add_argument("--size", type=int, default=1600, help="board width in pixels")
    demo.add_argument("--option", action="append", default=[],
                      help="eight-minute: a variant to switch on "
                      "(goods_tokens, full_game, die_roll_tiebreak)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    handlers = {"demo": cmd_demo}
    return handlers[args.command](args)


if __name__ == "__main__":
    raise SystemExit(main())
