"""What every board benchmark measures and prints: first render, median render, PNG encode alone.

Shared by bench_render.py (History of the World), bench_eight_minute_render.py and
bench_rise_render.py; each builds its own mid-game view and calls :func:`measure`.
"""

from __future__ import annotations

import argparse
import io
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from PIL import Image

from render.png import encode_png


def arguments(description: str, *, players: int, seed: int = 3) -> argparse.ArgumentParser:
    """The options every board benchmark takes."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--players", type=int, default=players)
    parser.add_argument("--seed", type=int, default=seed)
    parser.add_argument("--size", type=int, default=1600)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--save", default="")
    return parser


def measure(render_board: Callable[..., bytes], view: Mapping[str, Any], what: str, args: argparse.Namespace,
            highlight: Sequence[str] = ()) -> None:
    """Time ``render_board(view)`` (every other run with ``highlight``) against the PNG encode of the
    same image, and print the figures under the heading ``what``."""
    start = time.perf_counter()
    png = render_board(view, size=args.size)
    first = time.perf_counter() - start
    render_t: list[float] = []
    for i in range(args.runs):
        start = time.perf_counter()
        png = render_board(view, size=args.size, highlight=highlight if i % 2 else ())
        render_t.append(time.perf_counter() - start)
    img = Image.open(io.BytesIO(png)).convert("RGB")
    img.load()
    encode_t: list[float] = []
    for _ in range(args.runs):
        start = time.perf_counter()
        encode_png(img)
        encode_t.append(time.perf_counter() - start)
    r, e = statistics.median(render_t), statistics.median(encode_t)
    with_highlight = " (half of them with a highlight)" if highlight else ""
    print(f"board: {what}, {img.width}x{img.height} px")
    print(f"  first render (draws and caches what does not change): {first * 1000:.0f} ms")
    print(f"  render_board: median {r * 1000:.1f} ms over {args.runs} runs{with_highlight}")
    print(f"  PNG encode of the same image alone: median {e * 1000:.1f} ms")
    print(f"  ratio render/encode: {r / e:.2f}")
    print(f"  size: {len(png)} bytes ({len(png) / 1024:.0f} KiB)")
    if args.save:
        Path(args.save).write_bytes(png)
        print(f"  saved {args.save}")
