"""The viewer's hand in 7 Ages as a private picture: each card in the view's ``your_hand`` as a panel.

Drawn from the view alone: a spectator's view (and so every public message) has no hand, and a player's
view holds only their own cards. Each panel gives what a card carries (``data/seven_ages/cards.yaml``):
its number, empire and value; its ages, start areas and set-up; money, trade and leaders; the glory it
earns; its specials; its artefact and event. A gold-bordered card (an unconditional age 1 empire, L21,
L2159) is framed in gold. The cards go in two columns, or three where two would make the picture
taller than wide (chat shows those best).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any, Final

from PIL import Image, ImageDraw, ImageFont

from engine.seven_ages.cards import Card, load_deck
from engine.seven_ages.endturn import category_words
from engine.seven_ages.map import load_map
from engine.seven_ages.view import SevenView
from render import palette
from render.palette import font

GOLD: Final = (196, 150, 20)
BAND: Final = (222, 210, 186)
LINE_H: Final = 15
"""A text line's height at 800 px."""


def _ages(card: Card) -> str:
    first, last = card.empire.ages
    return f"Age {first}" if first == last else f"Ages {first}-{last}"


def _special(entry: Mapping[str, Any]) -> str:
    words = str(entry["code"]).replace("_", " ")
    extra = [f"{k.replace('_', ' ')} {'/'.join(map(str, v)) if isinstance(v, (list, tuple)) else v}"
             for k, v in entry.items() if k != "code"]
    return f"{words} ({', '.join(extra)})" if extra else words


def card_lines(number: int) -> tuple[str, list[str]]:
    """A card's heading and its lines of text, as its panel shows them."""
    card = load_deck().cards[number]
    e = card.empire
    areas = load_map().areas
    starts = ", ".join(f"{a} ({areas[a].ref})" if a in areas else a for a in e.starts)
    leaders = f"leaders {e.leaders}" + (f" ({', '.join(e.named_leaders)})" if e.named_leaders else "")
    glory = ", ".join(f"{category_words(str(g['category']), g.get('region') or g.get('religion'))} "
                      f"{g.get('value', '')}".rstrip() for g in e.glory)
    lines = [f"{_ages(card)} · starts {starts or 'anywhere allowed'} · set-up {e.setup:+d}",
             f"Money {e.money} · trade {e.trade} · {leaders}",
             f"Glory: {glory or 'none'}"]
    if e.special:
        lines.append("Special: " + "; ".join(_special(s) for s in e.special))
    lines.append(f"Artefact: {card.artefact or 'none'} · Event: {card.event.name} ({card.event.timing})")
    return f"{number} · {e.name}", lines


def wrap_words(text: str, f: ImageFont.FreeTypeFont, width: float) -> list[str]:
    """``text`` in lines no wider than ``width`` in ``f`` (a word wider than that keeps a line of its own)."""
    out: list[str] = []
    for word in text.split():
        if out and f.getlength(f"{out[-1]} {word}") <= width:
            out[-1] = f"{out[-1]} {word}"
        else:
            out.append(word)
    return out or [""]


def hand_image(view: SevenView, *, size: int = 800) -> Image.Image | None:
    """The viewer's hand, ``size`` px wide; None when the view holds no hand (a spectator's, or empty)."""
    hand: Sequence[int] = view.get("your_hand") or ()
    if not hand:
        return None
    return _hand_picture(tuple(int(n) for n in hand), size).copy()


@functools.lru_cache(maxsize=64)
def _hand_picture(hand: tuple[int, ...], size: int) -> Image.Image:
    """The picture of ``hand``, kept: a hand changes far more rarely than the notices that carry it."""
    if size < 800:  # laid out at 800 px and shrunk: narrower, the fonts' floor would wrap it too tall
        whole = _hand_picture(hand, 800)
        return whole.resize((size, round(whole.height * size / 800)), Image.Resampling.LANCZOS)
    k = size / 800
    gap = 8 * k
    f, bold = font(max(8, round(11 * k))), font(max(9, round(13 * k)), True)
    title_h = round(30 * k)
    texts = [(number, *card_lines(int(number))) for number in hand]
    for columns in (2, 3, 4):
        col_w = (size - gap * (columns + 1)) / columns
        panels = [(number, head, [w for line in lines for w in wrap_words(line, f, col_w - 12 * k)])
                  for number, head, lines in texts]
        rows = [panels[i:i + columns] for i in range(0, len(panels), columns)]
        heights = [round((24 + max(len(p[2]) for p in row) * LINE_H + 8) * k) for row in rows]
        if title_h + sum(heights) + gap * (len(rows) + 1) <= size:
            break
    img = Image.new("RGB", (size, title_h + sum(heights) + round(gap * (len(rows) + 1))), palette.PAPER)
    draw = ImageDraw.Draw(img)
    draw.text((gap, title_h / 2), f"Your hand: {len(hand)} card{'s' * (len(hand) != 1)} (only you see this)",
              font=font(round(15 * k), True), fill=palette.INK, anchor="lm")
    y = title_h + gap
    deck = load_deck()
    for row, row_h in zip(rows, heights, strict=True):
        for c, (number, head, wrapped) in enumerate(row):
            x = gap + c * (col_w + gap)
            card = deck.cards[int(number)]
            draw.rounded_rectangle((x, y, x + col_w, y + row_h), radius=6 * k, fill=(252, 249, 242),
                                   outline=GOLD if card.empire.gold else palette.BORDER,
                                   width=max(1, round((3 if card.empire.gold else 1) * k)))
            draw.rectangle((x + 1, y + 1, x + col_w - 1, y + 20 * k), fill=BAND)
            draw.text((x + 6 * k, y + 11 * k), head, font=bold, fill=palette.INK, anchor="lm")
            draw.text((x + col_w - 6 * k, y + 11 * k), f"value {card.value}", font=bold, fill=palette.INK,
                      anchor="rm")
            for n, line in enumerate(wrapped):
                draw.text((x + 6 * k, y + (24 + n * LINE_H) * k), line, font=f, fill=palette.INK, anchor="lt")
        y += row_h + gap
    return img
