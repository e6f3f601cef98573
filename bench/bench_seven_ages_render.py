"""Times drawing the 7 Ages board and prints the figures.

Run by hand (never from the tests):
    PYTHONPATH=. python bench/bench_seven_ages_render.py [--size 2200] [--save /tmp/seven_ages.png]

The board is static for now (no pieces): the first render draws and caches the
map; later renders copy it, outline three areas on every other run and encode.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from render_timing import arguments, measure

from engine.seven_ages.map import load_map
from render.seven_ages import BASE_W, render_board


def main() -> None:
    parser = arguments(__doc__.split("\n\n")[0], players=0)
    parser.set_defaults(size=BASE_W)
    args = parser.parse_args()
    wmap = load_map()
    measure(render_board, {}, f"the static map, {len(wmap.areas)} areas", args,
            highlight=["Egypt", "Muscovy", "Siam"])


if __name__ == "__main__":
    main()
