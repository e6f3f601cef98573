"""Times drawing the 7 Ages pictures and prints the figures, each against the PNG encode of its image.

Run by hand (never from the tests):
    PYTHONPATH=. python bench/bench_seven_ages_render.py [--size 2200] [--save /tmp/seven_ages.png]

The static map (no view), the board with the pieces of a spectator's view of a greedy 4-player game
``--moves`` moves in (``--seed``), and, where the code has them, a turn notice's tracks and close-up and
``empire``'s card panel at chat width (800 px). The first render draws and caches the map; later renders copy
it, draw the pieces, outline three areas on every other run and encode.
"""

from __future__ import annotations

import importlib.util
import json
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import cast

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.render_timing import arguments, measure
from engine.seven_ages.game import GAME
from engine.seven_ages.map import load_map
from engine.seven_ages.spec import SPEC
from engine.seven_ages.view import SevenView
from render.seven_ages import BASE_W, render_board

AREAS = ["Egypt", "Muscovy", "Siam"]


def played(players: int, seed: int, moves: int) -> SevenView:
    """A spectator's view of a greedy game ``moves`` moves in (or at its end)."""
    state = GAME.setup(players, SPEC.default_options(), seed)
    ais = [SPEC.make_policy("greedy", seed * 31 + p) for p in range(players)]
    for _ in range(moves):
        if GAME.is_over(state):
            break
        seat = min(GAME.actors(state))
        state = GAME.apply(state, ais[seat].choose(state, seat)).state
    return cast(SevenView, json.loads(json.dumps(GAME.view(state, None))))  # as a notice gets it


def main() -> None:
    parser = arguments(__doc__.split("\n\n")[0], players=4, seed=1)
    parser.set_defaults(size=BASE_W)
    parser.add_argument("--moves", type=int, default=500)
    args = parser.parse_args()
    wmap = load_map()
    measure(render_board, {}, f"the static map, {len(wmap.areas)} areas", args, highlight=AREAS)
    view = played(args.players, args.seed, args.moves)
    stacks = sum(len(e["stacks"]) for e in view["empires"])
    measure(render_board, view, f"{len(view['empires'])} empires, {stacks} stacks ({view['phase']}, turn "
            f"{view['turn']})", args, highlight=AREAS)
    if importlib.util.find_spec("render.seven_ages_closeup") is None:
        return
    from render.seven_ages_tracks import render_tracks

    def tracks(v: SevenView, *, size: int, highlight: Sequence[str] = ()) -> bytes:
        return render_tracks(v, size=size)

    args.size = 800
    measure(tracks, view, "the tracks", args)
    from render.seven_ages_panel import render_panel

    widest = max(view["empires"], key=lambda e: len(e["stacks"]), default=None)
    if widest is not None:  # `empire NAME`'s card panel, for the empire on the most areas

        def panel(v: SevenView, *, size: int, highlight: Sequence[str] = ()) -> bytes:
            png = render_panel(v, str(widest["card"]), size=size)
            assert png is not None
            return png

        measure(panel, view, f"the card panel of the {widest['name']} ({len(widest['stacks'])} areas)", args)
    from render.png import encode_png
    from render.seven_ages_closeup import closeup_image

    held = [str(area) for e in view["empires"] for area, _, _ in e["stacks"]][-1:]

    def closeup(v: SevenView, *, size: int, highlight: Sequence[str] = ()) -> bytes:
        return encode_png(closeup_image(v, list(highlight) or held, size=size)[0])

    args.size = 800
    measure(closeup, view, f"the close-up of {held[0]} (of {AREAS[0]} every other run: both windows kept)",
            args, highlight=AREAS[:1])
    # A window drawn for the first time (the map part, names and arrows of its window are kept for the
    # next readers of the same notice): each of 40 areas once, against their encodes.
    names = sorted(wmap.areas)[::7]
    fresh, encode = [], []
    for name in names:
        start = time.perf_counter()
        img, _ = closeup_image(view, [name], size=800)
        fresh.append(time.perf_counter() - start)
        start = time.perf_counter()
        encode_png(img)
        encode.append(time.perf_counter() - start)
    f, e = statistics.median(fresh), statistics.median(encode)
    print(f"close-ups of {len(names)} areas, each window drawn for the first time: median {f * 1000:.1f} ms, "
          f"their encodes {e * 1000:.1f} ms, ratio {f / e:.2f}")


if __name__ == "__main__":
    main()
