"""Card pictures (Pillow): empire cards and Greater/Lesser event cards, as PNG bytes.

These go into the DMs that reveal a player's hidden cards, so they are drawn
like cards: a rounded border, a coloured band (the epoch's colour for empires,
the deck's for events), a large name and the numbers that matter, in DejaVu
Sans so accents and apostrophes render. Cards are 5:7 (600 x 840 by default),
drawn at twice the size and scaled down so edges and text are smooth; corners
outside the card are transparent so it sits well on light and dark themes.

Every text is wrapped and, where needed, shrunk to the card's inner width; the
``draw_*`` functions return the boxes of all texts drawn so tests can check that
nothing leaves the card.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

import yaml
from PIL import Image, ImageDraw, ImageFont

from engine.history.data import DATA_DIR, ROMAN, CardType, Empire, RulesData, load_rules
from render.palette import INK, PAPER, RGB, darken, font, lighten

RATIO = 1.4  # height / width, the shape of a playing card
#: The shortest an event card gets: a card is sized to its text, so a one-line card is not half empty.
MIN_RATIO = 0.75
SUPERSAMPLE = 2

#: Band colour of each epoch, I..VII: dark enough to carry white text.
EPOCH_COLOURS: dict[int, RGB] = {
    1: (139, 90, 43),  # bronze
    2: (168, 64, 46),  # terracotta
    3: (120, 40, 96),  # imperial purple
    4: (36, 94, 140),  # Byzantine blue
    5: (38, 110, 80),  # green
    6: (138, 98, 14),  # gold
    7: (62, 66, 92),  # slate
}
DECK_COLOURS: dict[str, RGB] = {"greater": (112, 28, 46), "lesser": (30, 88, 104)}
MUTED: RGB = (110, 100, 88)
WHITE: RGB = (255, 255, 255)


@dataclass
class CardDrawing:
    """A drawn card: the image and, for checks, every text drawn with its box (final pixels)."""

    image: Image.Image
    texts: list[tuple[str, tuple[float, float, float, float]]] = field(default_factory=list)

    def png(self) -> bytes:
        buf = io.BytesIO()
        self.image.save(buf, format="PNG")
        return buf.getvalue()


class _Painter:
    """ImageDraw at SUPERSAMPLE x scale, in card units (1 unit = 1 px of a 600 px wide card)."""

    def __init__(self, width: int, ratio: float = RATIO) -> None:
        self.width = width
        self.height = round(width * ratio)
        self.k = width / 600 * SUPERSAMPLE
        self.image = Image.new("RGBA", (width * SUPERSAMPLE, self.height * SUPERSAMPLE), (0, 0, 0, 0))
        self.draw = ImageDraw.Draw(self.image)
        self.texts: list[tuple[str, tuple[float, float, float, float]]] = []

    @property
    def h(self) -> float:
        """The card's height in card units."""
        return self.height / self.width * 600

    def font(self, size: float, bold: bool = False) -> ImageFont.FreeTypeFont:
        return font(max(1, round(size * self.k)), bold)

    def measure(self, text: str, size: float, bold: bool = False) -> float:
        """Width of ``text`` in card units."""
        return self.draw.textlength(text, font=self.font(size, bold)) / self.k

    def box(self, xy: Sequence[float], fill: RGB | None, outline: RGB | None = None, width: float = 0,
            radius: float = 0) -> None:
        x0, y0, x1, y1 = (v * self.k for v in xy)
        self.draw.rounded_rectangle((x0, y0, x1, y1), radius=radius * self.k, fill=fill, outline=outline,
                                    width=round(width * self.k))

    def circle(self, cx: float, cy: float, r: float, fill: RGB, outline: RGB, width: float) -> None:
        k = self.k
        self.draw.ellipse(((cx - r) * k, (cy - r) * k, (cx + r) * k, (cy + r) * k), fill=fill,
                          outline=outline, width=round(width * k))

    def line(self, x0: float, y0: float, x1: float, y1: float, fill: RGB, width: float) -> None:
        k = self.k
        self.draw.line((x0 * k, y0 * k, x1 * k, y1 * k), fill=fill, width=max(1, round(width * k)))

    def text(self, x: float, y: float, text: str, size: float, *, bold: bool = False, fill: RGB = INK,
             anchor: str = "la") -> tuple[float, float, float, float]:
        """Draw ``text`` with its ``anchor`` at (x, y); returns and records its box in card units."""
        f = self.font(size, bold)
        self.draw.text((x * self.k, y * self.k), text, font=f, fill=fill, anchor=anchor)
        bx = self.draw.textbbox((x * self.k, y * self.k), text, font=f, anchor=anchor)
        scale = self.k / SUPERSAMPLE  # card units -> final pixels
        box = (bx[0] / self.k, bx[1] / self.k, bx[2] / self.k, bx[3] / self.k)
        self.texts.append((text, (box[0] * scale, box[1] * scale, box[2] * scale, box[3] * scale)))
        return box

    def wrap(self, text: str, max_w: float, size: float, bold: bool = False) -> list[str]:
        """Greedy word wrap to ``max_w`` card units; an over-long word is cut with an ellipsis."""
        lines: list[str] = []
        for word in text.split():
            if lines and self.measure(f"{lines[-1]} {word}", size, bold) <= max_w:
                lines[-1] = f"{lines[-1]} {word}"
            else:
                lines.append(word)
        out = []
        for line in lines:
            while self.measure(line, size, bold) > max_w and len(line) > 1:
                line = line[:-2] + "…"
            out.append(line)
        return out or [""]

    def fit(self, text: str, max_w: float, size: float, *, bold: bool = False, max_lines: int = 2,
            min_size: float = 0) -> tuple[list[str], float]:
        """Wrap into at most ``max_lines`` lines, shrinking the font (not below ``min_size``) to fit."""
        floor = min_size or size * 0.6
        while True:
            lines = self.wrap(text, max_w, size, bold)
            if len(lines) <= max_lines or size * 0.94 < floor:
                break
            size *= 0.94
        if len(lines) > max_lines:
            lines = lines[:max_lines]
            last = lines[-1] + "…"
            while self.measure(last, size, bold) > max_w and len(last) > 1:
                last = last[:-2] + "…"
            lines[-1] = last
        return lines, size

    def finish(self) -> CardDrawing:
        image = self.image.reduce(SUPERSAMPLE)  # box filter: exact for a whole-number factor
        return CardDrawing(image, self.texts)


# -- data lookups ------------------------------------------------------------------------------------


@lru_cache(maxsize=1)
def epoch_dates() -> dict[int, str]:
    """The date printed beside each epoch ("3000 BC"...), from the empires data file."""
    try:
        with (DATA_DIR / "empires.yaml").open(encoding="utf-8") as fh:
            raw = yaml.safe_load(fh)
        return {int(e): str(v["date"]) for e, v in raw["epochs"].items() if v.get("date")}
    except (OSError, KeyError, TypeError, ValueError, AttributeError, yaml.YAMLError):
        return {}


def resolve_empire(empire: Empire | str, rules: RulesData | None = None) -> Empire:
    """An empire by object, key (``"3:Romans"``), name, or Minor Empire card id/name."""
    if isinstance(empire, Empire):
        return empire
    rules = rules or load_rules()
    if empire in rules.empires:
        return rules.empires[empire]
    wanted = empire.strip().lower()
    for candidate in rules.empires.values():
        if candidate.name.lower() == wanted:
            return candidate
    try:
        minor = rules.card(wanted.removeprefix("minor:"))
    except KeyError:
        minor = None
    if minor is not None and minor.minor is not None:
        return minor.minor
    raise KeyError(f"There is no empire called {empire!r}.")


def epoch_span(epochs: frozenset[int] | Sequence[int]) -> str:
    """``"Any epoch"``, ``"Epoch III"``, ``"Epochs II-V"`` (en dash) or a list of numerals."""
    ordered = sorted(epochs)
    if not ordered:
        return "No epoch"
    if ordered == list(range(1, 8)):
        return "Any epoch"
    if len(ordered) == 1:
        return f"Epoch {ROMAN[ordered[0]]}"
    if ordered == list(range(ordered[0], ordered[-1] + 1)):
        return f"Epochs {ROMAN[ordered[0]]}\u2013{ROMAN[ordered[-1]]}"
    return "Epochs " + ", ".join(ROMAN[e] for e in ordered)


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


# -- shared pieces -----------------------------------------------------------------------------------

MARGIN = 14  # transparent-free frame: the card fills the image, the border is drawn inside
PAD = 44  # text inset from the card edge


def _frame(p: _Painter, band: RGB, band_h: float) -> None:
    w, h = 600, p.h
    p.box((0, 0, w, h), fill=INK, radius=34)
    p.box((6, 6, w - 6, h - 6), fill=PAPER, radius=29)
    # The band: full width under the top rounding, squared off at its foot.
    p.box((6, 6, w - 6, band_h), fill=band, radius=29)
    p.box((6, band_h - 30, w - 6, band_h), fill=band)
    p.line(6, band_h, w - 6, band_h, darken(band, 0.35), 3)
    p.box((MARGIN, band_h + 8, w - MARGIN, h - MARGIN), fill=None, outline=lighten(band, 0.55), width=2,
          radius=20)


def _band_text(p: _Painter, left: str, right: str, band_h: float) -> None:
    y = (6 + band_h) / 2
    p.text(PAD, y, left, 26, bold=True, fill=WHITE, anchor="lm")
    if right:
        room = 600 - PAD * 2 - p.measure(left, 26, True) - 20
        lines, size = p.fit(right, room, 24, max_lines=1, min_size=14)
        p.text(600 - PAD, y, lines[0], size, fill=WHITE, anchor="rm")


def _title(p: _Painter, name: str, y: float, size: float = 50) -> float:
    """The card's name, centred, up to two lines; returns the y below it."""
    lines, size = p.fit(name, 600 - 2 * PAD, size, bold=True, max_lines=2, min_size=28)
    step = size * 1.18
    for i, line in enumerate(lines):
        p.text(300, y + i * step, line, size, bold=True, anchor="ma")
    return y + len(lines) * step


def _medallion(p: _Painter, cx: float, cy: float, r: float, value: int, label: str, colour: RGB) -> None:
    p.circle(cx, cy, r + 5, fill=darken(colour, 0.35), outline=darken(colour, 0.35), width=0)
    p.circle(cx, cy, r, fill=colour, outline=lighten(colour, 0.5), width=3)
    p.text(cx, cy - r * 0.12, str(value), r * 0.95, bold=True, fill=WHITE, anchor="mm")
    p.text(cx, cy + r * 0.55, label, r * 0.24, bold=True, fill=lighten(colour, 0.75), anchor="mm")


def _rows(p: _Painter, rows: Sequence[tuple[str, str]], y: float, bottom: float, *, x0: float = PAD,
          x1: float = 600 - PAD, size: float = 25) -> float:
    """Label/value rows with rules between them; shrinks the text until all rows fit above ``bottom``."""
    label_w = max(p.measure(label.upper(), 15, True) for label, _ in rows) + 18
    while True:
        step = size * 1.25
        wrapped = [p.fit(value, x1 - x0 - label_w, size, max_lines=3, min_size=size)[0] for _, value in rows]
        need = sum(len(lines) * step + 22 for lines in wrapped)
        if y + need <= bottom or size < 15:
            break
        size *= 0.94
    for (label, _), lines in zip(rows, wrapped, strict=True):
        p.text(x0, y + size * 0.5, label.upper(), 15, bold=True, fill=MUTED, anchor="lm")
        for i, line in enumerate(lines):
            p.text(x0 + label_w, y + i * step + size * 0.5, line, size, anchor="lm")
        y += len(lines) * step + 22
        p.line(x0, y - 11, x1, y - 11, lighten(MUTED, 0.6), 1.5)
    return y


def _ribbon(p: _Painter, caption: str, accent: RGB | None) -> None:
    """A caption at the foot of the card (e.g. who gave it to you), on the player's colour."""
    colour = accent or MUTED
    lum = 0.299 * colour[0] + 0.587 * colour[1] + 0.114 * colour[2]
    ink = INK if lum > 150 else WHITE
    y0, y1 = p.h - 78, p.h - 28
    p.box((MARGIN + 16, y0, 600 - MARGIN - 16, y1), fill=colour, outline=darken(colour, 0.3), width=2,
          radius=16)
    lines, size = p.fit(caption, 600 - 2 * (MARGIN + 32), 22, bold=True, max_lines=1, min_size=13)
    p.text(300, (y0 + y1) / 2, lines[0], size, bold=True, fill=ink, anchor="mm")


# -- empire cards ------------------------------------------------------------------------------------


def draw_empire_card(empire: Empire | str, *, width: int = 600, caption: str | None = None,
                     accent: RGB | None = None, rules: RulesData | None = None) -> CardDrawing:
    """Draw an empire card (or a Minor Empire's statistics); see :func:`empire_card`."""
    rules = rules or load_rules()
    emp = resolve_empire(empire, rules)
    minor = emp.key.startswith("minor:")
    colour = EPOCH_COLOURS.get(emp.epoch, EPOCH_COLOURS[7])
    p = _Painter(width)
    band_h = 78
    _frame(p, colour, band_h)
    date = epoch_dates().get(emp.epoch, "")
    _band_text(p, f"EPOCH {ROMAN[emp.epoch]}", ("Minor Empire · " if minor else "") + date, band_h)

    y = _title(p, emp.name, band_h + 38, 54)
    leader = emp.leader if emp.leader not in ("", "None") else ""
    if leader or not minor:
        text = f"led by {leader}" if leader else "leader unknown"
        lines, size = p.fit(text, 600 - 2 * PAD, 26, max_lines=2, min_size=16)
        for line in lines:
            p.text(300, y + 4, line, size, fill=MUTED, anchor="ma")
            y += size * 1.25
    y += 32
    r = 88
    _medallion(p, 300, y + r, r, emp.strength, "ARMIES" if emp.strength != 1 else "ARMY", colour)
    y += 2 * r + 44

    rows: list[tuple[str, str]] = [
        ("Starts in" if len(emp.starts) == 1 else "Starts in each of", " and ".join(emp.starts)),
        ("Capital", ("Yes, in each start land" if len(emp.starts) > 1 else "Yes") if emp.capital else "No"),
        ("Fleets", ", ".join(emp.fleets) if emp.fleets else "None"),
    ]
    if not minor:
        listed = rules.epochs.get(emp.epoch, ())
        rows.append(("Called", f"{ordinal(emp.order + 1)} of {len(listed)} in Epoch {ROMAN[emp.epoch]}"))
    bottom = p.h - (96 if caption else 40)
    _rows(p, rows, y, bottom, size=27)
    if caption:
        _ribbon(p, caption, accent)
    return p.finish()


def empire_card(empire: Empire | str, *, width: int = 600, caption: str | None = None,
                accent: RGB | None = None, rules: RulesData | None = None) -> bytes:
    """An empire card as PNG bytes.

    Shows the epoch (numeral and date) on a band in the epoch's colour, the
    name and leader, the strength in a medallion, then the start land(s),
    capital, fleets and when in the epoch the empire is called.

    Args:
        empire: an :class:`Empire`, its key (``"3:Romans"``), its name, or a Minor Empire card id.
        width: the card's width in pixels (height is 1.4 times that).
        caption: an optional line at the foot, e.g. ``"Given to you by Blue"``.
        accent: the caption ribbon's colour (e.g. the player's colour).
        rules: the rules data (default: the classic rules).
    """
    return draw_empire_card(empire, width=width, caption=caption, accent=accent, rules=rules).png()


# -- event cards -------------------------------------------------------------------------------------


def draw_event_card(card: CardType | str, *, width: int = 600, caption: str | None = None,
                    accent: RGB | None = None, rules: RulesData | None = None) -> CardDrawing:
    """Draw a Greater or Lesser event card, as tall as its text needs (between :data:`MIN_RATIO` and
    :data:`RATIO` times its width); see :func:`event_card`."""
    rules = rules or load_rules()
    ct = card if isinstance(card, CardType) else rules.card(card)
    # Drawn once at full height to learn where the text ends, then again cut to that.
    used = _draw_event(_Painter(width), ct, caption, accent)
    ratio = min(RATIO, max(MIN_RATIO, (used + 2) / 600))  # 2 units: the height is rounded to pixels
    p = _Painter(width, ratio)
    _draw_event(p, ct, caption, accent)
    return p.finish()


def _draw_event(p: _Painter, ct: CardType, caption: str | None, accent: RGB | None) -> float:
    """Draw an event card on ``p``; returns the height (card units) its contents need."""
    colour = DECK_COLOURS.get(ct.deck, DECK_COLOURS["lesser"])
    band_h = 78
    _frame(p, colour, band_h)
    copies = f"{ct.count} in the deck" if ct.count > 1 else "1 in the deck"
    _band_text(p, f"{ct.deck.upper()} EVENT", copies, band_h)

    y = _title(p, ct.name, band_h + 38, 54)
    # Tags: when it may be played.
    tags = [epoch_span(ct.epochs)]
    if ct.effect == "minor_empire":
        tags.insert(0, "Minor Empire")
    if ct.before_first_army:
        tags.append("Before your first army")
    y += 6
    y = _tags(p, tags, y, colour) + 26

    foot = 96 if caption else 40
    bottom = p.h - foot
    minor = ct.minor
    panel = 0.0
    if minor is not None:
        # The Minor Empire's statistics in a panel of its epoch's colour.
        ecol = EPOCH_COLOURS.get(minor.epoch, EPOCH_COLOURS[7])
        panel_h = 210
        top = bottom - panel_h
        p.box((PAD - 14, top, 600 - PAD + 14, bottom), fill=lighten(ecol, 0.85), outline=lighten(ecol, 0.4),
              width=2, radius=16)
        r = 58
        _medallion(p, PAD + 14 + r, top + panel_h / 2, r, minor.strength, "ARMIES", ecol)
        rows = [
            ("Start", " and ".join(minor.starts)),
            ("Capital", "Yes" if minor.capital else "No"),
            ("Fleets", ", ".join(minor.fleets) if minor.fleets else "None"),
        ]
        _rows(p, rows, top + 18, bottom - 8, x0=PAD + 14 + 2 * r + 26, x1=600 - PAD, size=21)
        bottom = top - 18
        panel = panel_h + 18
    end = _body(p, ct.text, y, bottom)
    if caption:
        _ribbon(p, caption, accent)
    return end + 16 + panel + foot


def _tags(p: _Painter, tags: Sequence[str], y: float, colour: RGB, size: float = 19) -> float:
    """Pill-shaped tags, centred, in as many rows as needed; returns the y below them."""
    room = 600 - 2 * PAD
    widths = [min(p.measure(t, size, True) + 28, room) for t in tags]
    rows: list[list[int]] = [[]]
    for i, w in enumerate(widths):
        used = sum(widths[j] + 12 for j in rows[-1])
        if rows[-1] and used + w > room:
            rows.append([])
        rows[-1].append(i)
    tag_h = size * 1.9
    for row in rows:
        x = 300 - (sum(widths[i] for i in row) + 12 * (len(row) - 1)) / 2
        for i in row:
            w = widths[i]
            p.box((x, y, x + w, y + tag_h), fill=lighten(colour, 0.82), outline=lighten(colour, 0.4),
                  width=2, radius=tag_h / 2)
            label = p.fit(tags[i], w - 28, size, bold=True, max_lines=1, min_size=size)[0][0]
            p.text(x + w / 2, y + tag_h / 2, label, size, bold=True, fill=darken(colour, 0.1), anchor="mm")
            x += w + 12
        y += tag_h + 10
    return y - 10


def _body(p: _Painter, text: str, y: float, bottom: float) -> float:
    """The card's text, wrapped; the font shrinks until it fits between ``y`` and ``bottom``.
    Returns the y below its last line."""
    size = 28.0
    while True:
        lines = p.wrap(text, 600 - 2 * PAD, size)
        step = size * 1.38
        if y + len(lines) * step <= bottom or size <= 12:
            break
        size -= 0.5
    for i, line in enumerate(lines):
        p.text(PAD, y + i * step, line, size, anchor="la")
    return y + len(lines) * step


def event_card(card: CardType | str, *, width: int = 600, caption: str | None = None,
               accent: RGB | None = None, rules: RulesData | None = None) -> bytes:
    """A Greater or Lesser event card as PNG bytes.

    Shows the deck (on a band in the deck's colour) and its number of copies,
    the name, when it may be played, the card's text and, for a Minor Empire,
    its statistics (strength, start land, capital, fleets).

    Args:
        card: a :class:`CardType`, or a card id, name or alias (``"leader"``, ``"Phoenicia"``).
        width: the card's width in pixels (height: what the text needs, 0.75 to 1.4 times that).
        caption: an optional line at the foot, e.g. ``"Dealt to you"``.
        accent: the caption ribbon's colour (e.g. the player's colour).
        rules: the rules data (default: the classic rules).
    """
    return draw_event_card(card, width=width, caption=caption, accent=accent, rules=rules).png()

