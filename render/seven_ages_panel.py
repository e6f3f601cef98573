"""One 7 Ages empire card as the table shows it, for ``empire WHAT``: a pure function of the asker's view.

The card's panel (its empire block, ``data/seven_ages/cards.yaml``, worded by the engine's card words): the
empire's name and the card's number and value, its ages, start areas, set-up, money, trade and leader
numbers, named leaders, special and icons, its glory categories one per line; a gold frame for an age-1
card (L21). When the empire is on the map, a swatch of its counters beside its name, its player, and a
column of where it stands: level and age on the progress track, money, elite markers, units (every type
for its owner; for everyone else the count alone, as the map's stacks show it, L791), areas, cities,
leaders, beliefs and artefacts. The empire is found as the words find it
(:func:`engine.seven_ages.empire_words.find_empire`), so the picture shows only what ``empire`` may say.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Final

from PIL import Image, ImageDraw

from engine.seven_ages.board_words import leader_words
from engine.seven_ages.card_words import ages_text, category_text, empire_lines
from engine.seven_ages.cards import load_deck
from engine.seven_ages.data import load_tables
from engine.seven_ages.empire_words import find_empire
from engine.seven_ages.text import unit_words
from engine.seven_ages.view import AreaView, EmpireView, SevenView
from engine.words import join_words, plural
from render import palette
from render.palette import font
from render.png import encode_png
from render.seven_ages_colours import describe, face
from render.seven_ages_hand import wrap_words
from render.seven_ages_pieces import owner_name

GOLD: Final = (196, 150, 20)
BAND: Final = (222, 210, 186)
CARD: Final = (252, 249, 242)
LINE_H: Final = 17
"""A text line's height at 800 px."""
TOP_LEVEL: Final = 49
"""The progress track's last level (past it an empire stands on the last, L313)."""


def card_rows(number: int) -> list[tuple[str, str]]:
    """The card's empire block as (label, words) rows, in the engine's words
    (:func:`engine.seven_ages.card_words.empire_lines`); set-up and its numbers, and the glory
    categories, one row each."""
    card = load_deck().cards[number]
    rows: list[tuple[str, str]] = [("Ages", ages_text(card.empire.ages)
                                    + (" (gold border: an age-1 empire)" if card.empire.gold else ""))]
    for line in empire_lines(card)[1:]:  # the first names the empire and its ages: said above
        label, _, words = line.partition(": ")
        if label == "Glory":
            rows += [("Glory" if i == 0 else "", category_text(g)) for i, g in enumerate(card.empire.glory)]
        elif label.startswith("Set-up"):  # "Set-up 0; money 12; trade number +1; leader number 2"
            for part in line.split("; "):
                name, _, value = part.rpartition(" ")
                rows.append((name[0].upper() + name[1:], value))
        else:
            rows.append((label, words))
    return rows


def standing_rows(e: EmpireView, areas: Mapping[str, AreaView]) -> list[tuple[str, str]]:
    """Where an empire on the map stands, as (label, words) rows, from the view's own fog: its owner's
    view lists its unit types, any other view the stacks' heights alone."""
    dark = int(e["progress"]) in load_tables().dark_ages
    rows = [("Level", f"{e['progress']} of {TOP_LEVEL}, age {e['age']}" + (" (a dark age)" if dark else "")),
            ("Money", str(e["money"]))]
    if e["elite"]:
        rows.append(("Elite", plural(int(e["elite"]), "marker")))
    held = sorted({str(s[0]) for s in e["stacks"]})
    if e["units"] is not None:
        counted: Counter[str] = Counter()
        for _, unit, n in e["units"]:
            counted[str(unit)] += int(n)
        units = join_words([unit_words(n, u) for u, n in sorted(counted.items())]) if counted else "none"
    else:
        units = plural(sum(int(s[2]) for s in e["stacks"]), "unit")
    rows += [("Units", units), ("Areas", f"{len(held)}: {join_words(held)}" if held else "none")]
    cities = [f"{a} {areas[a]['city']}" + (" (capital)" if a == e["capital"] else "")
              for a in held if a in areas and areas[a]["city"]]
    rows.append(("Cities", join_words(cities) if cities else "none"))
    if e["leaders"]:
        rows.append(("Leaders", join_words([leader_words(ld) for ld in e["leaders"]])))
    beliefs = [str(r) for r in e["religions"]] + ([str(e["government"])] if e["government"] else [])
    if beliefs:
        rows.append(("Beliefs", join_words(beliefs)))
    if e["artefacts"]:
        rows.append(("Artefacts", join_words([str(a) for a in e["artefacts"]])))
    return rows


Laid = tuple[float, tuple[tuple[str, tuple[str, ...]], ...]]
"""Rows laid out for a column: the labels' width, then each label with its words' wrapped lines."""


def _lay_out(rows: Sequence[tuple[str, str]], width: float, k: float) -> Laid:
    """``rows`` (a bold label, then its words wrapped beside it) laid out ``width`` px wide."""
    f, bold = font(max(9, round(12 * k))), font(max(9, round(12 * k)), True)
    label_w = max((bold.getlength(label) for label, _ in rows), default=0) + 8 * k
    return label_w, tuple((label, tuple(wrap_words(words, f, width - label_w))) for label, words in rows)


def _height(laid: Laid, k: float) -> float:
    return sum(len(lines) * LINE_H * k + 2 * k for _, lines in laid[1])


def _draw_column(draw: ImageDraw.ImageDraw, laid: Laid, x: float, y: float, k: float) -> None:
    f, bold = font(max(9, round(12 * k))), font(max(9, round(12 * k)), True)
    label_w, rows = laid
    for label, lines in rows:
        draw.text((x, y), label, font=bold, fill=palette.INK, anchor="lt")
        for n, line in enumerate(lines):
            draw.text((x + label_w, y + n * LINE_H * k), line, font=f, fill=palette.INK, anchor="lt")
        y += len(lines) * LINE_H * k + 2 * k


@functools.lru_cache(maxsize=256)
def _card_column(number: int, width: int, k: float) -> Image.Image:
    """The printed card's column ("On the card" and its rows), kept: a card never changes, and the
    words' layout is most of a panel's drawing time."""
    laid = _lay_out(card_rows(number), width, k)
    img = Image.new("RGB", (width, round(24 * k + _height(laid, k))), CARD)
    draw = ImageDraw.Draw(img)
    draw.text((0, 0), "On the card", font=font(round(14 * k), True), fill=palette.INK, anchor="lt")
    _draw_column(draw, laid, 0, 24 * k, k)
    return img


def panel_image(view: SevenView, number: int, *, size: int = 800,
                people: Sequence[str] = ()) -> Image.Image:
    """Card ``number``'s panel, ``size`` px wide, with where its empire stands when ``view`` shows it on
    the map (the caller has checked the viewer may read the card)."""
    if size < 400:
        raise ValueError("size must be at least 400 pixels")
    k = size / 800
    card = load_deck().cards[number]
    shown = next((e for e in view["empires"] if int(e["card"]) == number), None)
    areas = {str(a["name"]): a for a in view["areas"]}
    pad = 12 * k
    band_h = 40 * k
    col_w = (size - 3 * pad) / 2 if shown is not None else size - 2 * pad
    left = _card_column(number, round(col_w), k)
    right = _lay_out(standing_rows(shown, areas), col_w, k) if shown is not None else None
    body = max(left.height, 24 * k + _height(right, k) if right is not None else 0)
    foot_h = 22 * k
    height = round(band_h + 2 * pad + 20 * k + body + foot_h)
    img = Image.new("RGB", (size, height), palette.PAPER)
    draw = ImageDraw.Draw(img)
    frame = GOLD if card.empire.gold else palette.BORDER
    draw.rounded_rectangle((2, 2, size - 3, height - 3), radius=round(8 * k), fill=CARD, outline=frame,
                           width=max(2, round((4 if card.empire.gold else 2) * k)))
    draw.rectangle((4, 4, size - 5, band_h), fill=BAND)
    x = pad
    if shown is not None:  # the counters' swatch: the same face the map and the tracks draw
        side = round(26 * k)
        tile = face(str(shown["colour"]), side, "")
        img.paste(tile, (round(x), round(band_h / 2 - side / 2 + 2)), tile)
        x += side + 8 * k
    title = font(round(20 * k), True)
    draw.text((x, band_h / 2 + 2), f"The {card.empire.name}", font=title, fill=palette.INK, anchor="lm")
    draw.text((size - pad, band_h / 2 + 2), f"card {number} · value {card.value}",
              font=font(round(15 * k), True), fill=palette.INK, anchor="rm")
    y = band_h + pad
    small = font(max(9, round(12 * k)))
    if shown is not None:
        who = owner_name(view, int(shown["owner"]), people)
        under = f"Played by {who} · counters: {describe(str(shown['colour']))}"
    else:
        under = "Not on the map"
    draw.text((pad, y), under, font=small, fill=palette.INK, anchor="lt")
    y += 20 * k
    img.paste(left, (round(pad), round(y)))
    if shown is not None and right is not None:
        rx = 2 * pad + col_w
        draw.line((rx - pad / 2, y, rx - pad / 2, y + body), fill=palette.BORDER, width=max(1, round(k)))
        draw.text((rx, y), "On the map now", font=font(round(14 * k), True), fill=palette.INK, anchor="lt")
        bar_y = y + 18 * k
        draw.rectangle((rx, bar_y, rx + col_w, bar_y + 4 * k), fill=BAND)
        level = min(max(int(shown["progress"]), 0), TOP_LEVEL)
        draw.rectangle((rx, bar_y, rx + col_w * level / TOP_LEVEL, bar_y + 4 * k), fill=palette.INK)
        _draw_column(draw, right, rx, y + 24 * k, k)
    draw.text((pad, height - foot_h / 2 - 2), "7 Ages · what the table shows of this card; your own units "
              "whole, others' as their stacks show", font=font(max(8, round(10 * k))), fill=palette.BORDER,
              anchor="lm")
    return img


def render_panel(view: SevenView, wanted: str, *, size: int = 800,
                 people: Sequence[str] = ()) -> bytes | None:
    """The panel of the empire ``wanted`` names (an :class:`engine.spec.EmpirePicture`), as PNG bytes;
    None when the view shows no empire answering to it."""
    found = find_empire(view, wanted)
    if isinstance(found, str):
        return None
    return encode_png(panel_image(view, found, size=size, people=people))
