"""League pictures: the season table (Pillow, paged) and ratings over time (matplotlib, Agg).

Both are pure functions of plain rows, so ``render`` keeps depending on nothing
of ``bot``: any object with the attributes of :class:`TableRow` will do
(``bot.leagues.standings.StandingRow`` has them). Pictures are sized for a
phone: 1080 pixels wide, text at least 30 pixels high, ten players a page.
PNGs carry no time stamp, so identical input gives identical bytes.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.text import Text
from matplotlib.ticker import MaxNLocator
from PIL import Image, ImageDraw

from render.palette import INK, PAPER, PLAYER_COLOURS, RGB, darken, font, lighten

WIDTH = 1080
PER_PAGE = 10
MARGIN = 36
ROW_H = 78
HEAD_H = 150
COLUMN_H = 56
FOOT_H = 70
GOLD: RGB = (196, 150, 20)
SILVER: RGB = (150, 150, 160)
BRONZE: RGB = (176, 110, 60)
MUTED: RGB = (120, 110, 98)
STRIPE: RGB = (236, 229, 210)
RULE: RGB = (205, 196, 178)
LINE_COLOURS: tuple[RGB, ...] = (*PLAYER_COLOURS, (90, 90, 90), (150, 100, 60))


class TableRow(Protocol):
    """What the table picture reads of a standings row."""

    @property
    def position_label(self) -> str: ...
    @property
    def position(self) -> int: ...
    @property
    def name(self) -> str: ...
    @property
    def points(self) -> float: ...
    @property
    def games(self) -> int: ...
    @property
    def wins(self) -> int: ...
    @property
    def average_score(self) -> float: ...
    @property
    def rating(self) -> float | None: ...
    @property
    def provisional(self) -> bool: ...


def page_count(rows: Sequence[TableRow], per_page: int = PER_PAGE) -> int:
    return max(1, -(-len(rows) // per_page))


def _num(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")


def _fit(draw: ImageDraw.ImageDraw, text: str, size: int, max_px: int, bold: bool = False) -> str:
    f = font(size, bold)
    if draw.textlength(text, font=f) <= max_px:
        return text
    while text and draw.textlength(text + "…", font=f) > max_px:
        text = text[:-1]
    return text.rstrip() + "…"


def season_table_png(
    rows: Sequence[TableRow], *, title: str, subtitle: str = "", page: int = 1, per_page: int = PER_PAGE
) -> bytes:
    """One page of the season table as a PNG.

    Columns: position (medal colours for the top three), player, points (bold),
    games, wins, average score and rating (a trailing ``?`` and grey for a
    provisional rating). Pages count from 1; a page past the end shows the last.
    """
    pages = page_count(rows, per_page)
    page = min(max(page, 1), pages)
    chunk = list(rows[(page - 1) * per_page:page * per_page])
    lines = max(len(chunk), 1)
    height = HEAD_H + COLUMN_H + lines * ROW_H + FOOT_H
    img = Image.new("RGB", (WIDTH, height), PAPER)
    draw = ImageDraw.Draw(img)
    draw.text((MARGIN, 30), _fit(draw, title, 44, WIDTH - 2 * MARGIN, True), font=font(44, True), fill=INK)
    if subtitle:
        draw.text((MARGIN, 90), _fit(draw, subtitle, 30, WIDTH - 2 * MARGIN), font=font(30), fill=MUTED)

    # Column right edges (numbers right-aligned); the name column takes what is left.
    cols = {"pts": 610, "g": 690, "w": 770, "avg": 895, "rating": WIDTH - MARGIN}
    name_x, pos_w = MARGIN + 96, 80
    y = HEAD_H
    head = font(28, True)
    draw.text((MARGIN + pos_w // 2, y + 12), "#", font=head, fill=MUTED, anchor="ma")
    draw.text((name_x, y + 12), "Player", font=head, fill=MUTED)
    for key, label in (("pts", "Pts"), ("g", "G"), ("w", "W"), ("avg", "Avg"), ("rating", "Rating")):
        draw.text((cols[key], y + 12), label, font=head, fill=MUTED, anchor="ra")
    draw.line((MARGIN, y + COLUMN_H - 4, WIDTH - MARGIN, y + COLUMN_H - 4), fill=RULE, width=3)
    y += COLUMN_H
    if not chunk:
        draw.text((name_x, y + 20), "No games finished yet.", font=font(32), fill=MUTED)
    medals = {1: GOLD, 2: SILVER, 3: BRONZE}
    for i, row in enumerate(chunk):
        top = y + i * ROW_H
        if i % 2:
            draw.rectangle((MARGIN - 12, top, WIDTH - MARGIN + 12, top + ROW_H - 1), fill=STRIPE)
        mid = top + ROW_H // 2
        medal = medals.get(row.position) if row.games else None
        if medal is not None:
            r = 30
            cx = MARGIN + pos_w // 2
            draw.ellipse((cx - r, mid - r, cx + r, mid + r), fill=medal, outline=darken(medal, 0.35), width=3)
            draw.text((cx, mid), row.position_label, font=font(30, True), fill=(255, 255, 255), anchor="mm")
        else:
            draw.text((MARGIN + pos_w // 2, mid), row.position_label, font=font(32, True), fill=INK,
                      anchor="mm")
        name = _fit(draw, row.name, 34, cols["pts"] - 130 - name_x, True)
        draw.text((name_x, mid), name, font=font(34, True), fill=INK, anchor="lm")
        draw.text((cols["pts"], mid), _num(row.points), font=font(36, True), fill=INK, anchor="rm")
        draw.text((cols["g"], mid), str(row.games), font=font(32), fill=INK, anchor="rm")
        draw.text((cols["w"], mid), str(row.wins), font=font(32), fill=INK, anchor="rm")
        avg = f"{row.average_score:.1f}" if row.games else "-"
        draw.text((cols["avg"], mid), avg, font=font(32), fill=INK if row.games else MUTED, anchor="rm")
        if row.rating is None:
            rating, colour = "-", MUTED
        else:
            rating = f"{row.rating:.1f}" + ("?" if row.provisional else "")
            colour = MUTED if row.provisional else INK
        draw.text((cols["rating"], mid), rating, font=font(32), fill=colour, anchor="rm")
    foot = height - FOOT_H + 18
    draw.line((MARGIN, foot - 14, WIDTH - MARGIN, foot - 14), fill=RULE, width=2)
    draw.text((MARGIN, foot), "? provisional rating", font=font(26), fill=MUTED)
    draw.text((WIDTH - MARGIN, foot), f"Page {page}/{pages}", font=font(28, True), fill=MUTED, anchor="ra")
    buf = io.BytesIO()
    img.save(buf, format="PNG", compress_level=6)
    return buf.getvalue()


def season_table_pngs(rows: Sequence[TableRow], *, title: str, subtitle: str = "",
                      per_page: int = PER_PAGE) -> list[bytes]:
    """Every page of the table."""
    return [season_table_png(rows, title=title, subtitle=subtitle, page=p, per_page=per_page)
            for p in range(1, page_count(rows, per_page) + 1)]


# -- ratings over time ---------------------------------------------------------------------

@dataclass(frozen=True)
class RatingSeries:
    """One player's ratings: ``points`` are (x, mu, sigma), x usually the season's game number."""

    name: str
    points: Sequence[tuple[float, float, float]]


DPI = 160
FAMILY = "DejaVu Sans"


def _rgb(colour: RGB) -> tuple[float, float, float]:
    return (colour[0] / 255, colour[1] / 255, colour[2] / 255)


def build_rating_figure(
    series: Sequence[RatingSeries], *, title: str = "Ratings over the season", z: float = 3.0,
    xlabel: str = "League games played", bands: bool | None = None,
) -> Figure:
    """The figure behind :func:`rating_chart` (exposed for tests)."""
    if bands is None:
        bands = len(series) <= 3  # more bands than that only hide each other
    if not series or not any(s.points for s in series):
        raise ValueError("a rating chart needs at least one point")
    fig = Figure(figsize=(7.5, 5.0), dpi=DPI, facecolor=_rgb(PAPER))
    FigureCanvasAgg(fig)
    ax = fig.add_axes((0.1, 0.13, 0.66, 0.72))
    fig.suptitle(title, x=0.1, ha="left", fontsize=16, fontweight="bold", color=_rgb(INK))
    note = f"Line: rating (mu - {z:g} sigma)"
    if bands:
        note += "; band: up to mu, narrowing as the rating grows surer"
    fig.text(0.1, 0.885, note, fontsize=9.5, color=_rgb(MUTED))
    ax.set_facecolor(_rgb(PAPER))
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    for side in ("left", "bottom"):
        ax.spines[side].set_color(_rgb(MUTED))
    ax.tick_params(colors=_rgb(INK), labelsize=10.5, length=0)
    ax.yaxis.grid(True, color=_rgb(RULE), linewidth=0.8)
    ax.set_axisbelow(True)
    ax.set_xlabel(xlabel, fontsize=11, color=_rgb(INK))
    ax.set_ylabel("Rating", fontsize=11, color=_rgb(INK))
    ends: list[tuple[float, float, str, RGB]] = []
    for i, s in enumerate(series):
        if not s.points:
            continue
        colour = LINE_COLOURS[i % len(LINE_COLOURS)]
        xs = [p[0] for p in s.points]
        ords = [p[1] - z * p[2] for p in s.points]
        mus = [p[1] for p in s.points]
        if bands:
            ax.fill_between(xs, ords, mus, color=_rgb(lighten(colour, 0.55)), alpha=0.35, linewidth=0,
                            zorder=1)
        ax.plot(xs, ords, color=_rgb(colour), linewidth=2.4, zorder=3, marker="o", markersize=4)
        ends.append((xs[-1], ords[-1], s.name, colour))
    low = min(min(p[1] - z * p[2] for p in s.points) for s in series if s.points)
    high = max(max(p[1] if bands else p[1] - z * p[2] for p in s.points) for s in series if s.points)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    pad = max(1.0, (high - low) * 0.06)
    ax.set_ylim(low - pad, high + pad)
    xmax = max(e[0] for e in ends)
    xmin = min(p[0] for s in series for p in s.points)
    ax.set_xlim(xmin - 0.3, xmax + 0.3)
    # Labels at the right, spread at least ~26 px apart so they never overlap.
    span = (high + pad) - (low - pad)
    gap = span * 26 / ax.get_window_extent().height
    order = sorted(range(len(ends)), key=lambda k: ends[k][1])
    placed = [0.0] * len(ends)
    last = float("-inf")
    for k in order:
        placed[k] = max(ends[k][1], last + gap)
        last = placed[k]
    ceiling = high + pad - gap * 0.5
    for k in reversed(order):
        placed[k] = min(placed[k], ceiling)
        ceiling = placed[k] - gap
    for k, (x, y, name, colour) in enumerate(ends):
        label = name if len(name) <= 16 else name[:15] + "…"
        right = xmax + 0.3 + (xmax - xmin + 0.6) * 0.03
        ax.annotate(f"{label} {y:.1f}", xy=(x, y), xytext=(right, placed[k]),
                    textcoords="data", va="center", ha="left", fontsize=10.5, fontweight="bold",
                    color=_rgb(darken(colour, 0.25)), annotation_clip=False,
                    arrowprops={"arrowstyle": "-", "color": _rgb(MUTED), "linewidth": 0.7})
    return fig


def rating_chart(series: Sequence[RatingSeries], *, title: str = "Ratings over the season",
                 z: float = 3.0, xlabel: str = "League games played", bands: bool | None = None) -> bytes:
    """Ratings over time as a PNG: one line per player; its uncertainty as a band for up to 3 players."""
    fig = build_rating_figure(series, title=title, z=z, xlabel=xlabel, bands=bands)
    for text in fig.findobj(Text):
        text.set_fontfamily(FAMILY)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI, facecolor=fig.get_facecolor(), metadata={"Software": None})
    return buf.getvalue()
