"""What a turn notice's pictures and an ``/annals board`` message cost, per registered game (issue 25).

For each game a seeded game between its default AI is stopped at a reader's turn; then
- the notice: the game's notice pictures (``GameSpec.notice_pictures``) of the reader's view at
  :data:`bot.digest.NOTICE_SIZE`, focused (and so highlighted, as a DM does) on the places the public
  events since the reader's last move name;
- the board message: the same pictures of a spectator's view at the bot's ``board_size`` (1600 px),
  focused on the latest player's turn (as ``/annals board`` does).
Drawing and encoding alternate, run after run, on the same images: "draw" is the whole call (which
ends in the PNG encode) less the encode of its final images, "encode" is :func:`render.png.encode_png`
of those images (decoded back to RGB), so machine load weighs on both alike; "ratio" is draw / encode
and "call" the whole call / encode. Times are CPU ms of this process (medians): another engineer's job
on the machine does not count. The goal (issue 25): call <= 1.5 (drawing at most half the encode) and
every message <= 250 KiB. "first" is the first call of the process (caches cold).

Run by hand (never from the tests):
    PYTHONPATH=. python bench/bench_notice_pictures.py [--runs 5] [--steps 120] [--seed 5] [--save DIR]
        [--gaps] [--turns 8] [--game ID]
"""

from __future__ import annotations

import argparse
import io
import json
import statistics
import sys
import threading
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PIL import Image

from bot.digest import NOTICE_SIZE, places
from engine import registry
from engine.spec import GameSpec
from render.png import encode_png

BOARD_SIZE = 1600  # the bot's default board_size (bot.discord.kit.BotBase)
BUDGET = 250 * 1024


def turn_moment(spec: GameSpec, players: int, seed: int, steps: int
                ) -> tuple[dict[str, Any], dict[str, Any], list[str], list[str]]:
    """A seeded game between the spec's default AI, stopped after ``steps`` moves when a seat that moved
    before is to move again: that seat's view, a spectator's view, the focus of the seat's notice (the
    places since its last move) and of ``/annals board`` (the places of the latest player's run)."""
    game = spec.load()
    state = game.setup(players, spec.default_options(), seed)
    ais = [spec.make_policy(spec.policy_names[0], seed * 10 + p) for p in range(players)]
    log: list[dict[str, Any]] = []
    seat = 0
    while not game.is_over(state):
        seat = sorted(game.actors(state))[0]
        if len(log) >= steps and log[-1]["player"] != seat and any(e["player"] == seat for e in log):
            break
        result = game.apply(state, ais[seat].choose(state, seat))
        state = result.state
        log.append({"player": seat, "events": [e.to_json() for e in result.events if e.visible_to(None)]})
    last = max((i for i, e in enumerate(log) if e["player"] == seat), default=0)
    run = len(log)
    while run > 0 and log[run - 1]["player"] == log[-1]["player"]:
        run -= 1
    view: dict[str, Any] = json.loads(json.dumps(game.view(state, seat)))
    public: dict[str, Any] = json.loads(json.dumps(game.view(state, None)))
    return view, public, places(log[last:], seat), places(log[run:])


def final_images(pictures: Sequence[tuple[str, bytes]]) -> list[Image.Image]:
    """The pictures as the RGB images they were encoded from (their palette applied)."""
    out = []
    for _, png in pictures:
        with Image.open(io.BytesIO(png)) as img:
            out.append(img.convert("RGB"))
    return out

#: The people at the table, as the fronts pass them (the pictures' keys name them beside the colours).
PEOPLE: tuple[str, ...] = ("alice", "bob", "carol", "dave", "erin", "frank")


def measure(spec: GameSpec, view: Mapping[str, Any], focus: Sequence[str], size: int, runs: int
            ) -> tuple[list[tuple[str, bytes]], float, float, float]:
    """(the pictures, the first call's CPU ms, median draw ms, median encode ms), drawing and
    encoding alternately ``runs`` times."""
    draw = spec.notice_pictures()
    start = time.process_time()
    pictures = draw(view, focus=focus, size=size, people=PEOPLE)
    first = (time.process_time() - start) * 1000
    images = final_images(pictures)
    draws, encodes = [], []
    for _ in range(runs):
        start = time.process_time()
        draw(view, focus=focus, size=size, people=PEOPLE)
        whole = time.process_time() - start
        start = time.process_time()
        for img in images:
            encode_png(img)
        encode = time.process_time() - start
        encodes.append(encode * 1000)
        draws.append((whole - encode) * 1000)
    return pictures, first, statistics.median(draws), statistics.median(encodes)


def longest_gap(spec: GameSpec, view: Mapping[str, Any], focus: Sequence[str], size: int, runs: int) -> float:
    """The median over ``runs`` of the longest wait of a thread sleeping 1 ms at a time (the bot's
    event loop, in effect) while a worker thread draws the pictures: what a picture drawn off the
    loop still costs the loop by holding the GIL."""
    def beat(stop: threading.Event, waits: list[float]) -> None:
        last = time.perf_counter()
        while not stop.is_set():
            time.sleep(0.001)
            now = time.perf_counter()
            waits.append(now - last)
            last = now

    draw = spec.notice_pictures()
    longest: list[float] = []
    for _ in range(runs):
        stop, waits = threading.Event(), list[float]()
        heart = threading.Thread(target=beat, args=(stop, waits))
        heart.start()
        time.sleep(0.01)
        worker = threading.Thread(target=draw, args=(view,),
                                  kwargs={"focus": focus, "size": size, "people": PEOPLE})
        worker.start()
        worker.join()
        stop.set()
        heart.join()
        longest.append(max(waits) * 1000)
    return float(statistics.median(longest))


def turn_after_turn(spec: GameSpec, players: int, seed: int, steps: int, turns: int
                    ) -> tuple[float, float]:
    """The median and the largest whole call / encode of ``turns`` notices, each of a new moment of
    the game (``steps`` moves on, then 6 more each time), each drawn once: what kept layers and
    stamps save a game's notices one after another, not on a picture drawn again."""
    draw = spec.notice_pictures()
    ratios = []
    for turn in range(1, turns + 1):
        view, _, focus, _ = turn_moment(spec, players, seed, steps + 6 * turn)
        start = time.process_time()
        pictures = draw(view, focus=focus, size=NOTICE_SIZE, people=PEOPLE)
        whole = time.process_time() - start
        images = final_images(pictures)
        start = time.process_time()
        for img in images:
            encode_png(img)
        ratios.append(whole / (time.process_time() - start))
    return float(statistics.median(ratios)), max(ratios)


def report(label: str, spec: GameSpec, pictures: Sequence[tuple[str, bytes]], first: float, draw: float,
           encode: float, save: str) -> bool:
    """Print one line for a message; save its pictures; True when it is within budget."""
    total = sum(len(png) for _, png in pictures)
    parts = []
    for tag, png in pictures:
        with Image.open(io.BytesIO(png)) as img:
            parts.append(f"{tag or 'board'} {img.width}x{img.height} {len(png) / 1024:.0f} KiB")
        if save:
            Path(save).mkdir(parents=True, exist_ok=True)
            Path(save, f"{spec.id}-{label}-{tag or 'board'}.png").write_bytes(png)
    ratio = draw / encode if encode else float("inf")
    whole = (draw + encode) / encode if encode else float("inf")
    ok = whole <= 1.5 and total <= BUDGET
    print(f"  {label:6} draw {draw:6.1f} ms  encode {encode:5.1f} ms  ratio {ratio:4.2f} "
          f"(call {whole:4.2f})  {total / 1024:4.0f} KiB  first {first:5.0f} ms  "
          f"{'ok' if ok else 'OVER'}: {'; '.join(parts)}")
    return ok


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--steps", type=int, default=120)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--save", default="", help="a folder to write every picture to")
    parser.add_argument("--game", action="append", default=[],
                        help="only this game (an id; may be given more than once)")
    parser.add_argument("--turns", type=int, default=0,
                        help="also this many notices of later moments, each drawn once (call / encode)")
    parser.add_argument("--gaps", action="store_true",
                        help="also the longest wait of a heartbeat thread while a worker thread draws")
    args = parser.parse_args()
    over = []
    for spec in registry.specs():
        if args.game and spec.id not in args.game:
            continue
        players = min(max(args.players, spec.min_players), spec.max_players)
        view, public, focus, latest = turn_moment(spec, players, args.seed, args.steps)
        print(f"{spec.id}: {players} players, seed {args.seed}, move {view.get('seq', '?')}")
        messages = (("notice", view, focus, NOTICE_SIZE), ("board", public, latest, BOARD_SIZE))
        for label, v, f, size in messages:
            if not report(label, spec, *measure(spec, v, f, size, args.runs), args.save):
                over.append(f"{spec.id} {label}")
            if args.gaps:
                print(f"         longest heartbeat gap while drawing in a thread: "
                      f"{longest_gap(spec, v, f, size, args.runs):.0f} ms")
            if args.turns and label == "notice":
                median, most = turn_after_turn(spec, players, args.seed, args.steps, args.turns)
                print(f"         {args.turns} later notices, each drawn once: call {median:4.2f} x encode "
                      f"(median), {most:4.2f} at most")
    print("every message within budget" if not over else f"over budget: {', '.join(over)}")


if __name__ == "__main__":
    main()
