"""Charts of a game: scores over time and the end-of-game summary, as PNG bytes.

Drawn with matplotlib's object API on the Agg canvas (never ``pyplot``), so
every call builds its own :class:`~matplotlib.figure.Figure` and is safe to run
in a worker thread. Sizes, dpi and fonts are fixed and the PNG carries no
``Software`` stamp, so identical input gives identical bytes.

The pictures are meant for a Discord thread read on a phone: few, large labels,
lines labelled directly at their ends instead of a legend, and every player
colour outlined in ink so the light ones (yellow) stay visible on paper.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

from matplotlib import patheffects
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties
from matplotlib.text import Text

from render.palette import INK, PAPER, PLAYER_COLOURS, PLAYER_NAMES, PLAYER_TEXT, RGB, darken
from render.score_history import ScorePoint, epoch_gains, roman

DPI = 160
WIDTH_IN = 7.5  # 1200 px: sharp on a phone, small enough to load fast
FAMILY = "DejaVu Sans"
GOLD: RGB = (196, 150, 20)
GRID: RGB = (205, 196, 178)
BAND: RGB = (234, 226, 206)
MUTED: RGB = (120, 110, 98)


def rgb(colour: RGB) -> tuple[float, float, float]:
    """A 0-255 RGB triple as matplotlib's 0-1 floats."""
    return (colour[0] / 255, colour[1] / 255, colour[2] / 255)


def luminance(colour: RGB) -> float:
    r, g, b = colour
    return 0.299 * r + 0.587 * g + 0.114 * b


def text_on(colour: RGB) -> RGB:
    """Ink or white, whichever reads better on ``colour``."""
    if colour in PLAYER_COLOURS:
        return PLAYER_TEXT[PLAYER_COLOURS.index(colour)]
    return INK if luminance(colour) > 150 else (255, 255, 255)


def readable(colour: RGB) -> RGB:
    """``colour`` darkened until it reads as text on paper."""
    return darken(colour, 0.55 if luminance(colour) > 150 else 0.2)


def _figure(height_in: float) -> Figure:
    height_in = round(height_in * DPI) / DPI  # a whole number of pixels, so the size is exact
    fig = Figure(figsize=(WIDTH_IN, height_in), dpi=DPI, facecolor=rgb(PAPER))
    FigureCanvasAgg(fig)
    return fig


def _png(fig: Figure) -> bytes:
    for text in fig.findobj(Text):
        text.set_fontfamily(FAMILY)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI, facecolor=fig.get_facecolor(), metadata={"Software": None})
    return buf.getvalue()


def _width_px(fig: Figure, text: str, size: float, bold: bool) -> float:
    renderer = fig.canvas.get_renderer()  # type: ignore[attr-defined]
    prop = FontProperties(family=FAMILY, size=size, weight="bold" if bold else "normal")
    width: float = renderer.get_text_width_height_descent(text, prop, ismath=False)[0]
    return width


def _ellipsize(fig: Figure, text: str, max_px: float, size: float, bold: bool) -> str:
    if _width_px(fig, text, size, bold) <= max_px:
        return text
    while text and _width_px(fig, text.rstrip() + "…", size, bold) > max_px:
        text = text[:-1]
    return text.rstrip() + "…"


def fit_lines(fig: Figure, text: str, max_px: float, size: float, *, bold: bool = False,
              max_lines: int = 2, min_size: float | None = None) -> tuple[list[str], float]:
    """Wrap ``text`` into at most ``max_lines`` lines no wider than ``max_px`` pixels.

    Shrinks the font down to ``min_size`` (default 80 % of ``size``) before cutting
    the text short with an ellipsis. Returns the lines and the font size used.
    """
    floor = min_size if min_size is not None else size * 0.8
    current = size
    while True:
        lines: list[str] = []
        for word in text.split():
            if lines and _width_px(fig, f"{lines[-1]} {word}", current, bold) <= max_px:
                lines[-1] = f"{lines[-1]} {word}"
            else:
                lines.append(word)
        if all(_width_px(fig, line, current, bold) <= max_px for line in lines) and len(lines) <= max_lines:
            return lines or [""], current
        if current * 0.95 < floor:
            break
        current *= 0.95
    kept = lines[:max_lines]
    if len(lines) > max_lines:
        kept[-1] = kept[-1] + " " + " ".join(lines[max_lines:])
    return [_ellipsize(fig, line, max_px, current, bold) for line in kept], current


def _style_axes(ax: Axes) -> None:
    ax.set_facecolor(rgb(PAPER))
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    for side in ("left", "bottom"):
        ax.spines[side].set_color(rgb(MUTED))
    ax.tick_params(colors=rgb(INK), labelsize=11, length=0)
    ax.yaxis.grid(True, color=rgb(GRID), linewidth=0.8)
    ax.set_axisbelow(True)


def _outline(width: float) -> list[Any]:
    return [patheffects.withStroke(linewidth=width, foreground=rgb(INK))]


def _names(player_names: Sequence[str] | None, players: int) -> list[str]:
    if player_names is None:
        return [PLAYER_NAMES[p % len(PLAYER_NAMES)] for p in range(players)]
    if len(player_names) != players:
        raise ValueError(f"{len(player_names)} player names for {players} players")
    return list(player_names)


def _spread(values: Sequence[float], gap: float, upper: float) -> list[float]:
    """Label positions near ``values``, at least ``gap`` apart, none above ``upper``."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    placed = [0.0] * len(values)
    last = float("-inf")
    for i in order:
        placed[i] = max(values[i], last + gap)
        last = placed[i]
    ceiling = upper
    for i in reversed(order):  # push down from the top where the stack ran over
        placed[i] = min(placed[i], ceiling)
        ceiling = placed[i] - gap
    return placed


# -- scores over the game ---------------------------------------------------------------------------


def _bands(series: Sequence[ScorePoint]) -> tuple[list[tuple[str, int, int]], str]:
    """The chart's bands (label, first point, last point) and the unit they count ("" for epochs).

    A series whose stage labels read "Turn 3: Production" (a game whose stages are the steps of a turn)
    gets one band per turn, labelled "3", with "Turn" under the axis: a band per stage would print
    80-odd labels over each other. Its stages before the first turn get no band. Any other series gets
    one band per period, labelled with its numeral, as before."""
    units = {p.label.split(": ", 1)[0].rsplit(" ", 1)[0] for p in series if ": " in p.label}
    unit = next(iter(units)) if len(units) == 1 else ""
    spans: list[tuple[str, int, int]] = []
    for i, point in enumerate(series):
        if point.label == "Final":
            key = "End"
        elif unit:
            head = point.label.split(": ", 1)[0] if ": " in point.label else ""
            key = head.rsplit(" ", 1)[-1] if head else ""
        else:
            key = "" if point.period == 0 else roman(point.period)
        if spans and spans[-1][0] == key:
            spans[-1] = (key, spans[-1][1], i)
        else:
            spans.append((key, i, i))
    return spans, unit


def _band_labels(fig: Figure, ax: Axes, spans: Sequence[tuple[str, int, int]], points: int
                 ) -> tuple[list[tuple[str, float]], float]:
    """Which bands of a turn-by-turn chart get their label, where (data x), and the labels' size: every
    band at 12 pt, or at 10 pt where 12 does not fit them all; else, at 10 pt, from the first band each
    whose label clears the one before it by a few px (the final band's "End" too, after the last
    turn): with many turns every other, every third... turn, never two labels over each other."""
    px = ax.get_window_extent().width / max(1, points)  # px per point; the axis spans points - 1 + 0.8
    keyed = [key for key, _, _ in spans if key]
    out: list[tuple[str, float]] = []
    for size in (12.0, 10.0):
        out = []
        last_right = float("-inf")
        for key, first, last in spans:
            middle = (first + last) / 2
            half = _width_px(fig, key, size if key != "End" else size - 2, True) / 2 + 3 if key else 0.0
            if key and (middle + 0.4) * px - half >= last_right:
                out.append((key, middle))
                last_right = (middle + 0.4) * px + half
        if all(k in dict(out) for k in keyed if k != "End"):
            return out, size
    return out, 10.0


def build_score_figure(
    series: Sequence[ScorePoint],
    *,
    player_names: Sequence[str] | None = None,
    colours: Sequence[RGB] = PLAYER_COLOURS,
    title: str = "Scores over the game",
    by_epoch: bool = True,
) -> Figure:
    """The figure behind :func:`score_chart` (exposed for tests that measure its labels)."""
    if not series:
        raise ValueError("a score chart needs at least one point")
    players = len(series[0].scores)
    names = _names(player_names, players)
    fig = _figure(8.2 if by_epoch else 5.2)
    if by_epoch:
        grid = fig.add_gridspec(2, 1, height_ratios=(3.1, 1.5), hspace=0.3,
                                left=0.1, right=0.78, top=0.9, bottom=0.07)
        ax = fig.add_subplot(grid[0])
        bars = fig.add_subplot(grid[1])
    else:
        ax = fig.add_axes((0.1, 0.1, 0.68, 0.78))
    fig.suptitle(title, x=0.1, ha="left", fontsize=17, fontweight="bold", color=rgb(INK))
    _style_axes(ax)

    xs = list(range(len(series)))
    top = max(max(p.scores) for p in series)
    ymax = max(10, top * 1.1)
    ax.set_ylim(0, ymax)
    ax.set_xlim(-0.4, len(series) - 0.6)

    # Epoch bands: alternate shading, numeral on top, a rule at each boundary.
    spans, unit = _bands(series)
    shade = False
    for key, first, last in spans:
        if not key:
            continue
        left, right = first - 0.5, last + 0.5
        if shade:
            ax.axvspan(left, right, color=rgb(BAND), zorder=0, linewidth=0)
        shade = not shade
        ax.axvline(left, color=rgb(MUTED), linewidth=0.8, linestyle=(0, (2, 3)), zorder=1)
    labels, size = _band_labels(fig, ax, spans, len(series)) if unit else (
        [(key, (first + last) / 2) for key, first, last in spans if key], 12.0)
    for key, middle in labels:
        ax.text(middle, 1.01, key, transform=ax.get_xaxis_transform(), ha="center",
                va="bottom", fontsize=size if key != "End" else size - 2, fontweight="bold", color=rgb(MUTED))
    ax.set_xticks([])
    if unit:
        ax.set_xlabel(f"{unit}s", fontsize=11, color=rgb(MUTED))
    ax.set_ylabel("Score", fontsize=12, color=rgb(INK))

    for p in range(players):
        colour = colours[p % len(colours)]
        ys = [point.scores[p] for point in series]
        ax.plot(xs, ys, color=rgb(colour), linewidth=2.6, zorder=3, drawstyle="steps-post",
                solid_joinstyle="miter", path_effects=_outline(4.2))
        mine = [i for i, point in enumerate(series) if point.player == p]
        ax.scatter([xs[i] for i in mine], [ys[i] for i in mine], s=26, color=rgb(colour),
                   edgecolors=rgb(INK), linewidths=1.1, zorder=4)

    # Direct labels at the right-hand end, spread apart so they never overlap.
    ends = [float(series[-1].scores[p]) for p in range(players)]
    axis_px = ax.get_window_extent().height
    gap = ymax * 38 / axis_px  # ~38 px between label baselines
    placed = _spread(ends, gap, ymax - gap * 0.6)
    for p in range(players):
        colour = colours[p % len(colours)]
        ax.annotate(
            f"{_ellipsize(fig, names[p], 150, 11.5, True)}  {series[-1].scores[p]}",
            xy=(xs[-1], ends[p]), xytext=(len(series) - 0.2, placed[p]),
            textcoords="data", va="center", ha="left", fontsize=11.5, fontweight="bold",
            color=rgb(text_on(colour)), annotation_clip=False,
            bbox={"boxstyle": "round,pad=0.25,rounding_size=0.4", "facecolor": rgb(colour),
                  "edgecolor": rgb(INK), "linewidth": 0.8},
            arrowprops={"arrowstyle": "-", "color": rgb(INK), "linewidth": 0.8, "shrinkA": 0, "shrinkB": 2},
        )

    if by_epoch:
        _epoch_bars(bars, series, colours)
    return fig


def _epoch_bars(ax: Axes, series: Sequence[ScorePoint], colours: Sequence[RGB]) -> None:
    _style_axes(ax)
    gains = epoch_gains(series)
    players = len(series[0].scores)
    ax.set_title("Points scored in each epoch", loc="left", fontsize=12.5, fontweight="bold",
                 color=rgb(INK), pad=8)
    if not gains:
        ax.set_xticks([])
        ax.set_yticks([])
        return
    width = 0.8 / players
    for p in range(players):
        colour = colours[p % len(colours)]
        xs = [i - 0.4 + width * (p + 0.5) for i in range(len(gains))]
        ax.bar(xs, [g[1][p] for g in gains], width=width * 0.92, color=rgb(colour),
               edgecolor=rgb(INK), linewidth=0.8, zorder=3)
    ax.set_xticks(range(len(gains)))
    ax.set_xticklabels(["Markers" if label == "Final" else label for label, _ in gains], fontsize=11.5,
                       fontweight="bold")
    ax.set_xlim(-0.55, len(gains) - 0.45)
    ax.set_ylim(0, max(10, max(max(g) for _, g in gains) * 1.12))


def score_chart(
    series: Sequence[ScorePoint],
    *,
    player_names: Sequence[str] | None = None,
    colours: Sequence[RGB] = PLAYER_COLOURS,
    title: str = "Scores over the game",
    by_epoch: bool = True,
) -> bytes:
    """Every player's score after each turn, with the epochs marked I..VII, as PNG bytes.

    Args:
        series: the score after each turn (see :func:`render.score_history.history_from_events`);
            the first point is usually the all-zero start.
        player_names: one name per player (default: the colour names).
        colours: RGB colour per player.
        title: the heading.
        by_epoch: add a second panel with the points each player scored in each epoch.

    Returns:
        A PNG, 1200 px wide.
    """
    return _png(build_score_figure(series, player_names=player_names, colours=colours, title=title,
                                   by_epoch=by_epoch))
