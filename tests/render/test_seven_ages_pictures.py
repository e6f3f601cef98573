"""7 Ages' pictures (issue 29 item 3): counters that read without hue, the key of the empires in play, the
close-up of a notice's places, the tracks, the scores chart; every picture drawn from a view alone."""

from __future__ import annotations

import copy
import io
import itertools
import json
from typing import Any, cast

import numpy as np
import pytest
from PIL import Image

from engine.seven_ages.cards import load_deck
from engine.seven_ages.data import load_counters, load_tables
from engine.seven_ages.game import GAME
from engine.seven_ages.map import load_map
from engine.seven_ages.spec import SPEC
from engine.seven_ages.view import SevenView
from render.charts import build_score_figure
from render.score_history import ScorePoint
from render.seven_ages import _raster, render_board
from render.seven_ages_closeup import (
    MAX_SPAN,
    MIN_SPAN,
    _plain,
    area_boxes,
    closeup_areas,
    closeup_image,
    focus_areas,
    layout,
    window,
)
from render.seven_ages_colours import GROUP_HUES, face, group_and_shade
from render.seven_ages_hand import card_lines, hand_image
from render.seven_ages_pieces import key_items
from render.seven_ages_tracks import MARKER_FILL, progress_rows, render_tracks, tracks_image
from tests.support.colour_vision import delta_e, deuteranopia

PEOPLE = ("alice", "bob", "carol", "dora")
GROUP_WORD = {"orange/yellow": "Orange", "red/pink": "Red", "blue": "Blue", "green": "Green",
              "purple": "Purple"}
"""How a seat holding each colour group is named (its first colour: counters.yaml's five groups, L325)."""


@pytest.fixture(scope="module")
def played() -> Any:
    """A 4-player greedy game some turns in (several empires on the map, some stacks of mixed units)."""
    state = GAME.setup(4, SPEC.default_options(), 1)
    ais = [SPEC.make_policy("greedy", 31 + p) for p in range(4)]
    for _ in range(500):
        seat = min(GAME.actors(state))
        state = GAME.apply(state, ais[seat].choose(state, seat)).state
    assert len(state.empires) >= 4
    return state


def view_of(state: Any, viewer: int | None) -> SevenView:
    """``viewer``'s view as the pictures get it after JSON (its phase a plain str, of :data:`Phase`)."""
    return cast(SevenView, json.loads(json.dumps(GAME.view(state, viewer))))


def grey(img: Image.Image) -> np.ndarray:
    """A face as a colour-blind reader without any colour vision would see it: lightness alone."""
    return np.asarray(img.convert("RGB").convert("L"), dtype=float)


# -- item 1: counter colours ---------------------------------------------------------------------


def test_the_mixes_of_one_group_differ_in_lightness_or_pattern_not_hue_alone() -> None:
    mixes = load_counters().mixes
    by_group: dict[str, dict[str, np.ndarray]] = {}
    for name, mix in mixes.items():
        by_group.setdefault(mix.group, {})[mix.shade] = grey(face(name, 20, ""))
    assert len(by_group) == 5 and all(set(m) == {"dark", "light", "multi"} for m in by_group.values())
    for group, shades in by_group.items():
        inner = {s: a[6:14, 6:14] for s, a in shades.items()}  # well inside the edge
        # dark is a solid deep fill, light a pale one: far apart in grey
        assert inner["light"].mean() - inner["dark"].mean() >= 60, group
        # single-coloured fills are flat; multi-coloured ones are stripes of light and dark
        assert inner["dark"].std() < 4 and inner["light"].std() < 4, group
        assert inner["multi"].std() >= 25, group
        # a light counter's edge is the deep colour: darker than its middle by far
        edge = shades["light"][10, 0:2].mean()
        assert inner["light"].mean() - edge >= 50, group


def test_the_five_hues_stay_apart_for_red_green_colour_blind_readers() -> None:
    assert set(GROUP_HUES) == {m.group for m in load_counters().mixes.values()}
    for (a, ca), (b, cb) in itertools.combinations(GROUP_HUES.items(), 2):
        assert delta_e(ca, cb) >= 20, (a, b)
        assert delta_e(deuteranopia(ca), deuteranopia(cb)) >= 20, ("deuteranopia", a, b)


def test_every_mix_of_the_data_has_its_group_and_shade() -> None:
    for name, mix in load_counters().mixes.items():
        assert group_and_shade(name) == (mix.group, mix.shade)


def test_the_key_lists_the_empires_in_play_with_their_owners(played: Any) -> None:
    view = view_of(played, 1)
    items = key_items(view, PEOPLE)
    entries = [(colour, words) for colour, words in items if colour is not None]
    assert len(entries) == len(played.empires)
    # each seat's row opens with its name and counter group, then lists its empires, each with its swatch
    owner_of = {}
    seat = None
    seats = len({e["owner"] for e in view["empires"]})
    for colour, words in items[:len(entries) + seats]:
        if colour is None:
            seat = next(p for p in range(4) if words.startswith(f"{PEOPLE[p]} ("))
            group = played.people[seat].group
            # named by the counters it took, never by its place at the table (issue 29)
            assert words == f"{PEOPLE[seat]} ({GROUP_WORD[group]}){' (you)' if seat == 1 else ''}: " \
                            f"{group} counters —", words
        else:
            owner_of[words.split(" (")[0]] = seat
    for e, (colour, words) in zip(sorted(view["empires"], key=lambda e: e["owner"]), entries, strict=True):
        assert colour == e["colour"] and words.startswith(f"{e['name']} ("), words
        assert owner_of[e["name"]] == e["owner"]
    # without people, a seat is its colour alone
    bare = [w for c, w in key_items(view_of(played, None)) if c is None and "counters —" in w]
    assert bare and all(not any(p in w for p in PEOPLE) for w in bare)


def test_no_picture_shows_a_unit_beneath_a_stack_top(played: Any) -> None:
    """The owner's view lists every unit; the pictures draw the stacks' tops alone, so removing the unit
    lists changes no byte (a spectator's view has none to begin with)."""
    for e in played.empires:
        owner = e.owner
        if len({(s.area, s.unit) for s in e.units}) > len({s.area for s in e.units}):
            break
    else:
        pytest.fail("no empire holds an area with units of two types")
    view = view_of(played, owner)
    blind = copy.deepcopy(view)
    for emp in blind["empires"]:
        emp["units"] = None
    assert render_board(view, size=1600) == render_board(blind, size=1600)
    areas = [str(a) for a, _, _ in view["empires"][0]["stacks"]]
    draw = SPEC.notice_pictures()
    assert draw(view, focus=areas, size=800) == draw(blind, focus=areas, size=800)
    hidden = {str(s.unit) for emp in played.empires for s in emp.units} - {
        str(u) for emp in view["empires"] for _, u, _ in emp["stacks"]}
    words = " ".join(w for _, w in key_items(view_of(played, None)))
    assert hidden and not any(f" {u}," in f" {words}," or f" {u}." in words for u in hidden)


def test_the_board_shows_the_pieces_and_changes_with_them(played: Any) -> None:
    view = view_of(played, None)
    before = render_board(view, size=1600)
    moved = copy.deepcopy(view)
    moved["empires"][0]["stacks"] = moved["empires"][0]["stacks"][1:]
    assert render_board(moved, size=1600) != before
    with Image.open(io.BytesIO(before)) as img:
        assert img.width == 1600


# -- item 2: the close-up of a notice's areas -----------------------------------------------------


def overlaps(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("area", sorted(load_map().areas))
def test_a_close_up_of_any_area_names_it_and_its_names_never_overlap(area: str) -> None:
    win = window([area])
    k = 800 / (win[2] - win[0])
    assert MIN_SPAN <= win[2] - win[0] <= MAX_SPAN  # at 800 px: 1.25 to 2 px per raster px
    pole = _raster()[1]["areas"][area]["pole"]
    assert win[0] <= pole[0] < win[2] and win[1] <= pole[1] < win[3]
    labels = layout(win, k, 20, [area])
    assert area in {label.area for label in labels}
    height = (win[3] - win[1]) * k
    for i, label in enumerate(labels):
        assert label.size >= 11, label
        x0, y0, x1, y1 = label.box
        assert x0 >= 0 and x1 <= 800 and y0 >= 0 and y1 <= height + 1e-6, label
        assert not any(overlaps(label.box, other.box) for other in labels[i + 1:]), label


def test_a_close_up_names_every_area_well_inside_it() -> None:
    """Only a name at the window's edge may be left out (the whole map names it)."""
    win = window(["Latium", "Sardinia"])
    k = 800 / (win[2] - win[0])
    named = {label.area for label in layout(win, k, 20, ["Latium", "Sardinia"])}
    inner = {n for n, g in _raster()[1]["areas"].items() if g.get("pole")
             and win[0] + 40 <= g["pole"][0] < win[2] - 40 and win[1] + 30 <= g["pole"][1] < win[3] - 30}
    assert {"Latium", "Sardinia", "Tuscany", "Campania", "Tyrrhenian Sea"} <= inner
    assert inner <= named


def test_the_notice_closes_in_on_the_newest_areas_and_keeps_the_whole_map(played: Any) -> None:
    view = view_of(played, 2)
    held = [str(area) for e in view["empires"] for area, _, _ in e["stacks"]]
    pictures = SPEC.notice_pictures()(view, focus=["alice", "Spear", held[0], held[-1], "Latium"], size=800)
    tags = ["closeup", "map", "tracks", "hand"]
    assert [tag for tag, _ in pictures] == tags[:4 if view["your_hand"] else 3]
    imgs = [Image.open(io.BytesIO(png)) for _, png in pictures]
    assert all(img.width == 800 and img.height <= img.width for img in imgs)
    assert closeup_areas(focus_areas(["alice", held[0], "Latium"]))[0] == "Latium"  # the newest first
    alone = SPEC.notice_pictures()(view, focus=["alice", "Spear"], size=800)
    assert [tag for tag, _ in alone][:2] == ["map", "tracks"]
    # the close-up draws the pieces: with every empire gone it is another picture
    img, _ = closeup_image(view, [held[-1]], size=800)
    empty = copy.deepcopy(view)
    empty["empires"] = []
    bare, _ = closeup_image(empty, [held[-1]], size=800)
    assert np.abs(np.asarray(img, dtype=int) - np.asarray(bare, dtype=int)).sum() > 0


# -- item 3: the tracks ---------------------------------------------------------------------------


def test_the_progress_track_holds_every_empire_once_at_its_level_with_the_dark_ages(played: Any) -> None:
    view = view_of(played, None)
    rows = progress_rows(view)
    cells = [cell for _, row in rows for cell in row]
    assert [words.split()[0] for words, _ in rows] == [str(a) for a in range(1, 8)]
    assert [cell.level for cell in cells] == list(range(1, 50))
    dark = {cell.level for cell in cells if cell.dark}
    assert {18, 19, 20} <= dark and dark == set(load_tables().dark_ages)  # L2818: 18-20 follow the arrow
    where = {card: cell.level for cell in cells for card in cell.empires}
    assert sum(len(cell.empires) for cell in cells) == len(view["empires"]) == len(where)
    for e in view["empires"]:
        assert where[e["card"]] == min(e["progress"], 49)


def test_the_tracks_fit_chat_with_the_most_empires_and_move_with_the_markers(played: Any) -> None:
    view = view_of(played, None)
    crowded = copy.deepcopy(view)
    base = crowded["empires"]
    crowded["empires"] = [{**base[n % len(base)], "card": 1000 + n, "progress": 17 if n < 12 else 3 + n}
                          for n in range(25)]  # 5 players, 5 empires each; 12 on one level
    crowded["people"] = [*crowded["people"], {**crowded["people"][0], "seat": 4}]
    for size in (400, 800):
        img = tracks_image(crowded, size=size)
        assert img.width == size and img.height <= img.width
    moved = copy.deepcopy(view)
    moved["empires"][0]["progress"] += 1
    assert render_tracks(moved) != render_tracks(view)
    richer = copy.deepcopy(view)
    richer["people"][0]["glory"] += 30
    assert render_tracks(richer) != render_tracks(view)


def test_option_16_markers_stand_in_their_levels_cells(played: Any) -> None:
    # Issue 29 item 3: "with option 16, the blue and black markers". E42 (L1382) puts Industrial
    # Revolution's blue marker at 33; World war's black marker goes on its empire's level (L1986).
    view = view_of(played, None)
    marked: SevenView = {**copy.deepcopy(view), "progress_markers": [["Industrial Revolution", 33],
                                                                    ["Paved roads", 15]], "world_war": 43}
    cells = {cell.level: cell for _, row in progress_rows(marked) for cell in row}
    assert cells[33].markers == (("Industrial Revolution", "blue"),)
    assert cells[15].markers == (("Paved roads", "blue"),) and cells[43].markers == (("World war", "black"),)
    assert sum(len(c.markers) for c in cells.values()) == 3
    img = np.asarray(tracks_image(marked).convert("RGB"), dtype=np.int64)
    blue = np.all(img == MARKER_FILL["blue"], axis=-1).sum()
    black = np.all(img == MARKER_FILL["black"], axis=-1).sum()
    plain = np.asarray(tracks_image(view).convert("RGB"), dtype=np.int64)
    assert blue > 100 and black > 50 and np.all(plain == MARKER_FILL["blue"], axis=-1).sum() == 0
    old = {k: v for k, v in view.items() if k not in ("progress_markers", "world_war")}  # a view saved before
    assert render_tracks(cast(SevenView, old)) == render_tracks(view)


# -- item 4: the scores chart ---------------------------------------------------------------------

STAGES = ("Placing action markers", "Start empire", "Production", "Trade and progress", "Manoeuvre",
          "Destiny", "Civilise", "End of turn")


def stage_series(turns: int) -> list[ScorePoint]:
    """Scores as each 7 Ages stage ended, as ``python -m render demo`` gathers them: two stages before
    the first turn, eight a turn, then the final scores."""
    series = [ScorePoint("Start", (0, 0, 0), 0), ScorePoint("Bidding for who goes first", (0, 0, 0), 1),
              ScorePoint("Choosing colours", (0, 0, 0), 2)]
    for turn in range(1, turns + 1):
        for name in STAGES:
            series.append(ScorePoint(f"Turn {turn}: {name}", (3 * turn, 2 * turn, turn), len(series)))
    return [*series, ScorePoint("Final", (3 * turns, 2 * turns, turns), len(series))]


def band_labels(turns: int) -> list[tuple[str, tuple[float, float]]]:
    """The labels over the chart's bands, with their horizontal extent in px."""
    fig = build_score_figure(stage_series(turns), by_epoch=False)
    renderer = fig.canvas.get_renderer()  # type: ignore[attr-defined]
    ax = fig.axes[0]
    out = []
    for text in ax.texts:
        words = text.get_text()
        if words.isdigit() or words == "End":
            box = text.get_window_extent(renderer)
            out.append((words, (float(box.x0), float(box.x1))))
    return sorted(out, key=lambda item: item[1][0])


@pytest.mark.parametrize("turns", [12, 20])
def test_the_scores_chart_labels_every_turn_not_every_stage(turns: int) -> None:
    labels = band_labels(turns)
    assert [w for w, _ in labels if w != "End"] == [str(t) for t in range(1, turns + 1)]
    for (_, (_, right)), (_, (left, _)) in itertools.pairwise(labels):
        assert right <= left, labels


def test_with_sixty_turns_the_chart_labels_what_fits_and_nothing_overlaps() -> None:
    labels = band_labels(60)
    numbers = [int(w) for w, _ in labels if w != "End"]
    assert numbers[0] == 1 and 10 <= len(numbers) < 60 and numbers[-1] >= 50
    for (_, (_, right)), (_, (left, _)) in itertools.pairwise(labels):
        assert right <= left, labels


# -- item 5: the viewer's hand --------------------------------------------------------------------


def test_the_hand_goes_only_to_its_holder_and_shows_only_their_cards(played: Any) -> None:
    seat = next(p.seat for p in played.people if len(p.hand) >= 2)
    mine = view_of(played, seat)
    assert [tag for tag, _ in SPEC.notice_pictures()(mine, size=800)][-1] == "hand"
    assert "hand" not in [tag for tag, _ in SPEC.notice_pictures()(view_of(played, None), size=800)]
    img = hand_image(mine)
    assert img is not None
    hand = mine["your_hand"]
    assert hand
    # drawn from the view's own hand alone: a spectator's view holding that hand draws the same picture
    alone = hand_image({**view_of(played, None), "your_hand": hand})
    assert alone is not None and alone.tobytes() == img.tobytes()
    other = hand_image({**mine, "your_hand": hand[1:]})
    assert other is not None and other.tobytes() != img.tobytes()
    head, lines = card_lines(hand[0])
    card = load_deck().cards[hand[0]]
    assert head == f"{card.number} · {card.empire.name}"
    assert all(f"{area} ({load_map().areas[area].ref})" in lines[0] for area in card.empire.starts)
    assert not any(mark in line for n in load_deck().cards for line in card_lines(n)[1] for mark in "[]{}")


def test_a_hand_of_the_ten_wordiest_cards_is_no_taller_than_wide() -> None:
    deck = load_deck().cards
    wordiest = sorted(deck, key=lambda n: -sum(len(line) for line in card_lines(n)[1]))[:10]
    spectator = GAME.view(GAME.setup(4, SPEC.default_options(), 1), None)  # it holds no hand
    for size in (400, 800):
        img = hand_image({**spectator, "your_hand": wordiest}, size=size)
        assert img is not None and img.width == size and img.height <= img.width
    assert hand_image({**spectator, "your_hand": []}) is None and hand_image(spectator) is None


def test_the_board_says_its_stage_so_boards_differ_from_stage_to_stage(played: Any) -> None:
    view = view_of(played, None)
    later: SevenView = {**view, "phase": "destiny" if view["phase"] != "destiny" else "civilise"}
    assert render_board(view, size=800) != render_board(later, size=800)
    static = render_board(size=800)
    bare: SevenView = {**view, "empires": []}
    assert render_board(bare, size=800) != render_board({**bare, "turn": view["turn"] + 1}, size=800)
    assert render_board(size=800) == static  # the stage went on copies: the cached base is unmarked


def test_the_warm_up_builds_what_the_first_notice_needs(played: Any) -> None:
    _plain.cache_clear()
    area_boxes.cache_clear()
    SPEC.warm_pictures()
    assert _plain.cache_info().currsize == 1 and area_boxes.cache_info().currsize == 1
    misses = _plain.cache_info().misses
    SPEC.notice_pictures()(view_of(played, None), focus=["Egypt"], size=800)
    assert _plain.cache_info().misses == misses  # the notice found it built
