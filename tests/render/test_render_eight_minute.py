"""The Eight-Minute Empire board picture: geometry, purity, determinism, colours, highlight."""

from __future__ import annotations

import copy
import io
import json

import numpy as np
import pytest
from PIL import Image

from engine.eight_minute.data import load_data
from engine.eight_minute.game import GAME
from engine.eight_minute.spec import SPEC
from engine.eight_minute.state import Phase
from engine.eight_minute.view import EMView, RowCard
from render import eight_minute as em
from render import palette
from tests.support.colour_vision import delta_e

DATA = load_data()
PLAYER_COLOURS = palette.PLAYER_COLOURS[:5]  # Eight-Minute Empire seats 2 to 5 players


def _card(position: int, card_id: int) -> RowCard:
    # The rulebook's row prices: 0, 1, 1, 2, 2, 3 from left to right.
    return {"position": position, "price": (0, 1, 1, 2, 2, 3)[position], **DATA.cards[card_id].to_json()}


def hand_view(players: int = 5) -> EMView:
    """A view written by hand (no game state anywhere): mid-game, every kind of piece on the board."""
    zero = [0] * players
    view: EMView = {
        "game": "eight-minute", "seq": 40, "players": players,
        "options": {"full_game": False, "goods_tokens": True, "die_roll_tiebreak": False},
        "game_no": 1, "games": 1, "phase": Phase.TURN, "actors": [1], "start": "crossroads",
        "board": {
            "armies": {
                "crossroads": [2, 1, 0, 3, 1][:players],
                "greyfen": [0, 2, 0, 0, 0][:players],
                "frostpeak": [1, 0, 0, 0, 4][:players],
                "dunesea": [0, 0, 1, 0, 0][:players],
            },
            "neutral": {},
            "cities": {"crossroads": [1, 0, 0, 0, 0][:players], "greyfen": [0, 1, 0, 0, 0][:players],
                       "palmcove": [0, 0, 2, 0, 0][:players]},
            "tokens": {"greyfen": "crystal", "mistmoor": "food", "frostpeak": "iron"},
            "control": {"crossroads": 3, "greyfen": 1, "frostpeak": 4, "dunesea": 2, "palmcove": 2},
            "continents": {"southern_reach": 2},
        },
        "row": [_card(i, c) for i, c in enumerate((1, 14, 23, 9, 38, 41))],
        "deck_left": 12,
        "coins": [3, 5, 2, 7, 1][:players],
        "cards": [[2, 6], [10, 17, 40], [24], [31, 32], [5, 8]][:players],
        "armies_left": [11, 11, 13, 11, 10][:players], "cities_left": [2, 2, 1, 3, 3][:players],
        "cards_to_end": {2: 13, 3: 10, 4: 8, 5: 7}[players],
        "neutral_left": 0, "neutral_next": None,
        "bid": {"has_bid": [True] * players, "bids": [1, 3, 0, 2, 2][:players], "winner": 1, "rolls": []},
        "first_player": 1, "current": 1,
        "task": {"player": 1, "card": 20, "choose": False, "options": [], "do": "sail", "left": 2,
                 "then": []},
        "scores": [
            {"regions": r, "continents": c, "goods": g, "total": r + c + g, "controlled_regions": [],
             "controlled_continents": [], "goods_owned": {"crystal": 1, "wild": 1}, "goods_counted": {},
             "goods_points": {}}
            for r, c, g in [(0, 0, 1), (1, 0, 2), (2, 1, 0), (1, 0, 1), (1, 0, 0)][:players]
        ],
        "past_games": [], "totals": zero, "final": None, "ranking": None, "places": None, "you": None,
    }
    return view


def _image(png: bytes) -> np.ndarray:
    with Image.open(io.BytesIO(png)) as img:
        return np.asarray(img.convert("RGB")).astype(int)


# --- geometry -----------------------------------------------------------------------------


def _inside(point: tuple[float, float], polygon: tuple[tuple[float, float], ...]) -> bool:
    x, y = point
    inside = False
    for i, (x1, y1) in enumerate(polygon):
        x2, y2 = polygon[i - 1]
        if (y1 > y) != (y2 > y) and x < (x2 - x1) * (y - y1) / (y2 - y1) + x1:
            inside = not inside
    return inside


def test_layout_covers_every_region_of_the_map() -> None:
    lay = em.layout()
    assert sorted(lay.regions) == sorted(DATA.regions)
    assert sorted(lay.continents) == sorted(DATA.continents)
    assert lay.start == DATA.start and lay.regions[DATA.start].start


@pytest.mark.parametrize("rid", sorted(DATA.regions))
def test_every_region_has_a_name_spot_and_room_for_five_players(rid: str) -> None:
    reg = em.layout().regions[rid]
    x0, y0, x1, y1 = reg.name_box
    for corner in ((x0, y0), (x1, y0), (x0, y1), (x1, y1)):
        assert _inside(corner, reg.polygon), f"{rid}: the name sticks out of the region"
    slots = reg.slots
    # Five players and the two-player neutral armies, each a disc of its own.
    assert len(slots) >= em.MIN_SLOTS >= 6
    r = em.DISC_R
    for x, y in slots:
        for dx, dy in ((r, 0), (-r, 0), (0, r), (0, -r), (r + 10, r)):  # the city badge hangs lower right
            assert _inside((x + dx, y + dy), reg.polygon), f"{rid}: a piece at {(x, y)} leaves the region"
        assert y - r >= y1, f"{rid}: a piece covers the name"
        if reg.token_at is not None:
            tx, ty = reg.token_at
            apart = abs(tx - x) >= r + 24 or abs(ty - y) >= r + 24
            assert apart, f"{rid}: a piece covers the goods token"
    if reg.token_at is not None:
        tx, ty = reg.token_at
        for corner in ((tx, ty - 26), (tx - 24, ty + 22), (tx + 24, ty + 22)):  # the triangle
            assert _inside(corner, reg.polygon), f"{rid}: the goods token sticks out"
        assert tx - 24 >= x1 or ty - 26 >= y1 or tx + 24 <= x0, f"{rid}: the token covers the name"
    for i, a in enumerate(slots):
        for b in slots[i + 1:]:
            assert abs(a[0] - b[0]) >= 2 * r + 4 or abs(a[1] - b[1]) >= 2 * r + 4, f"{rid}: pieces overlap"


def test_goods_token_spots_are_the_triangle_regions() -> None:
    lay = em.layout()
    assert {r for r, g in lay.regions.items() if g.token_at} == {
        r for r, region in DATA.regions.items() if region.goods_token
    }


def test_all_five_players_are_drawn_in_every_region() -> None:
    """A disc of each player's colour shows at its slot in every region, all at once."""
    players = 5
    armies = {rid: [1, 2, 3, 4, 5] for rid in DATA.regions}
    view = hand_view(players)
    view["board"] = {**view["board"], "armies": armies, "cities": {}, "control": {}, "continents": {}}
    size = 1600
    pixels = _image(em.render_board(view, size=size))
    k = size / em.BASE_W
    top = round(em.HEAD * k)
    for rid, reg in em.layout().regions.items():
        for p, (x, y) in enumerate(em._spots(reg, players)):
            # The player's shape (render.marks) in the player's colour fills much of the disc's square.
            r = round(em.DISC_R * k)
            cy, cx = round(y * k + top), round(x * k)
            square = pixels[cy - r:cy + r, cx - r:cx + r]
            filled = int((np.abs(square - np.array(PLAYER_COLOURS[p])).max(axis=2) <= 12).sum())
            assert filled >= (2 * r) ** 2 // 8, (rid, p, filled)


# --- purity and determinism ------------------------------------------------------------------


def test_render_of_a_fixed_view_is_deterministic() -> None:
    view = hand_view()
    first = em.render_board(view)
    em._base.cache_clear()
    em._sprite.cache_clear()
    em._band_masks.cache_clear()
    assert em.render_board(copy.deepcopy(view)) == first
    assert view == hand_view(), "rendering must not change the view"


def test_render_uses_only_the_view() -> None:
    state = GAME.setup(3, {"goods_tokens": True}, 5)
    with pytest.raises(TypeError, match="view"):
        em.render_board(state)  # type: ignore[arg-type]
    view = GAME.view(state, None)
    plain = json.loads(json.dumps(view))
    assert em.render_board(plain) == em.render_board(view)
    # A change in the view shows: one more army in the start region.
    moved = copy.deepcopy(plain)
    moved["board"]["armies"][DATA.start][0] += 1
    assert em.render_board(moved) != em.render_board(plain)


def test_other_games_views_are_refused() -> None:
    with pytest.raises(ValueError, match="eight-minute"):
        SPEC.render()({"game": "history-classic"})  # the platform's way in: any game's view


def test_size_scales_the_picture() -> None:
    png = em.render_board(hand_view(), size=800)
    with Image.open(io.BytesIO(png)) as img:
        assert img.width == 800
    with pytest.raises(ValueError):
        em.render_board(hand_view(), size=100)


def test_names_can_be_left_out() -> None:
    assert em.render_board(hand_view(), names=False) != em.render_board(hand_view())


# --- colours ----------------------------------------------------------------------------------


def test_player_and_neutral_colours_are_distinguishable() -> None:
    colours = [*PLAYER_COLOURS, palette.NEUTRAL_ARMY]
    for i, a in enumerate(colours):
        for b in colours[i + 1:]:
            assert delta_e(a, b) >= 25, (a, b)


def test_pieces_stand_out_on_every_region_fill() -> None:
    fills = em._region_fills(DATA)
    for rid, fill in fills.items():
        for colour in [*PLAYER_COLOURS, palette.NEUTRAL_ARMY]:
            assert delta_e(colour, fill) >= 15, (rid, colour, fill)
    # Land neighbours never share a fill.
    for rid, links in DATA.land.items():
        for other in links:
            assert fills[rid] != fills[other], (rid, other)


def test_goods_colours_are_apart() -> None:
    goods = list(palette.GOODS_COLOURS.values())
    for i, a in enumerate(goods):
        for b in goods[i + 1:]:
            assert delta_e(a, b) >= 15, (a, b)


# --- highlight --------------------------------------------------------------------------------


@pytest.mark.parametrize("regions", [["crossroads"], ["icewater", "palmcove"]])
def test_highlight_changes_only_the_named_regions_surroundings(regions: list[str]) -> None:
    size = 1600
    view = hand_view()
    # The drawing itself (before the palette encode, whose palette follows the whole picture).
    plain = np.asarray(em.picture(view, size=size), dtype=int)
    lit = np.asarray(em.picture(view, highlight=regions, size=size), dtype=int)
    k = size / em.BASE_W
    top = round(em.HEAD * k)
    margin = 10 * k

    def around(rid: str) -> tuple[slice, slice]:
        poly = em.layout().regions[rid].polygon
        xs = [p[0] * k for p in poly]
        ys = [p[1] * k + top for p in poly]
        return (slice(int(min(ys) - margin), int(max(ys) + margin) + 1),
                slice(int(min(xs) - margin), int(max(xs) + margin) + 1))

    allowed = np.zeros(plain.shape[:2], dtype=bool)
    for rid in regions:
        allowed[around(rid)] = True
    diff = np.abs(plain - lit).sum(axis=2) > 0
    outside = diff & ~allowed
    assert not outside.any(), f"changed outside the regions, e.g. at {np.argwhere(outside)[:3].tolist()}"
    for rid in regions:  # every named region is outlined
        assert diff[around(rid)].any(), rid


def test_unknown_highlight_regions_are_refused() -> None:
    with pytest.raises(ValueError, match=r"'atlantis'.*regions are: .*crossroads"):
        em.render_board(hand_view(), highlight=["crossroads", "atlantis"])


# --- words on the picture -----------------------------------------------------------------------


def test_bids_stay_hidden_until_revealed() -> None:
    bidding = hand_view(3)
    bidding.update({"phase": Phase.BID, "actors": [0, 2], "current": None, "task": None, "first_player": None,
                    "bid": {"has_bid": [False, True, False], "bids": None, "winner": None, "rolls": []},
                    "you": {"player": 1, "bid": 4}})
    texts = [em._bid_text(bidding, p) for p in range(3)]
    assert "4" in texts[1] and "secret" in texts[1]  # your own bid, to you only
    assert not any(ch.isdigit() for ch in texts[0] + texts[2])
    spectator = copy.deepcopy(bidding)
    spectator["you"] = None
    assert not any(ch.isdigit() for p in range(3) for ch in em._bid_text(spectator, p))
    revealed = hand_view(3)
    assert [em._bid_text(revealed, p).split()[0] for p in range(3)] == ["1", "3", "0"]
    assert "won" in em._bid_text(revealed, 1) and "won" not in em._bid_text(revealed, 0)


def test_status_line_names_whose_turn_and_what_is_left() -> None:
    turn = hand_view()
    seat, text = em.status_line(turn)
    assert seat == 1 and "Blue" in text and "2 moves left" in text and "water" in text
    over = hand_view()
    over.update({"phase": Phase.OVER, "ranking": [3, 1, 0, 2, 4], "final": [5, 6, 7, 9, 1]})
    seat, text = em.status_line(over)
    assert seat == 3 and "Yellow" in text and "9" in text
    bidding = hand_view()
    bidding["phase"] = Phase.BID
    bidding["bid"]["has_bid"] = [True, False, True, False, False]
    seat, text = em.status_line(bidding)
    assert seat is None and "2 of 5" in text
    # A view that went through JSON holds the phase's string, not the enum: the line reads the same.
    for view in (turn, over, bidding):
        assert em.status_line(json.loads(json.dumps(view))) == em.status_line(view)


def test_a_real_game_renders_at_every_phase() -> None:
    from engine.registry import make_policy

    state = GAME.setup(2, {"goods_tokens": True}, 11)
    ais = [make_policy("eight-minute", "random", 11 + p) for p in range(2)]
    phases: set[str] = set()
    step = 0
    while not GAME.is_over(state):
        player = min(GAME.actors(state))
        if state.phase not in phases or step % 40 == 0:
            phases.add(state.phase)
            assert em.render_board(GAME.view(state, player), size=600)[:8] == b"\x89PNG\r\n\x1a\n"
        state = GAME.apply(state, ais[player].choose(state, player)).state
        step += 1
    assert em.render_board(GAME.view(state, None), size=600)[:4] == b"\x89PNG"
    assert phases == {"neutral", "bid", "first", "turn"}


# --- cards ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("card_id", sorted(DATA.cards))
def test_every_card_fits_its_face(card_id: int) -> None:
    """Each of the 42 cards' good and action lines fit inside a face-up card of the row at 1600 px."""
    room = em.CARD_W - 2 * 10
    for width in em.card_text_widths(DATA.cards[card_id].to_json()):
        assert width <= room, (card_id, width, room)


def test_card_images() -> None:
    row_card = _card(2, 14)  # place 4 or move 2: the third card, 1 coin
    png = em.card_image(row_card, width=300)
    assert png == em.card_image(row_card.copy(), width=300)
    with Image.open(io.BytesIO(png)) as img:
        assert img.width > 300
    hand_card = em.card_image(DATA.cards[14].to_json(), width=300)
    assert hand_card != png  # no price or position on a card out of the row
    with pytest.raises(ValueError):
        em.card_image(row_card, width=50)


# --- the turn notice (issue 28) -------------------------------------------------------------------


def test_the_800_px_notice_writes_every_region_name_where_the_layout_puts_it() -> None:
    """Every choice names regions ("Move Crossroads -> Eastwatch"), so the notice's board names them
    too: in each region's name box (the renderer's own placement) the notice has the dark strokes of
    a name that the same board drawn without names lacks."""
    view = hand_view(players=3)
    pictures = SPEC.notice_pictures()(view, focus=(), size=800)
    assert len(pictures) == 1
    named = _image(pictures[0][1])
    bare = np.asarray(em.picture(view, names=False, size=800).convert("RGB")).astype(int)
    assert named.shape == bare.shape
    k = 800 / em.BASE_W
    head = round(em.HEAD * k)
    ink = np.array(palette.INK)
    for rid, reg in em.layout().regions.items():
        x0, y0, x1, y1 = (round(v * k) for v in reg.name_box)
        box = (slice(head + y0, head + y1 + 1), slice(x0, x1 + 1))
        dark_named = int((np.abs(named[box] - ink).sum(axis=2) < 90).sum())
        dark_bare = int((np.abs(bare[box] - ink).sum(axis=2) < 90).sum())
        assert dark_named - dark_bare >= 4 * len(reg.name), (rid, dark_named, dark_bare)


def test_the_notice_outlines_the_regions_its_focus_names_and_ignores_other_words() -> None:
    view = hand_view(players=3)
    outlined = SPEC.notice_pictures()(view, focus=("greyfen", "alice", "3"), size=800)[0][1]
    assert outlined == em.render_board(view, highlight=["greyfen"], size=800)


@pytest.mark.parametrize("size", [400, 800])
def test_a_five_seat_notice_is_no_taller_than_wide_and_holds_the_whole_board(size: int) -> None:
    """Five rows of the table make the board taller than wide; for chat the notice draws it narrower,
    centred on the asked width, and draws it whole (the same picture as the board at that width)."""
    view = hand_view(players=5)
    assert em.picture(view, size=size).height > size  # the case this is about
    framed = _image(SPEC.notice_pictures()(view, focus=("greyfen",), size=size)[0][1])
    assert framed.shape[1] == size and framed.shape[0] <= size
    inked = np.flatnonzero((np.abs(framed - np.array(palette.PAPER)).sum(axis=2) > 0).any(axis=0))
    left, right = int(inked[0]), int(inked[-1])
    # at 400 the board is narrower than render_board's least width: its drawing step draws it
    board = np.asarray(em._draw(view, True, ["greyfen"], right - left + 1, ()).convert("RGB")).astype(int)
    assert framed.shape[0] == board.shape[0]
    off = np.abs(framed[:, left:right + 1] - board).sum(axis=2)  # the PNG keeps a palette: near, not equal
    assert (off > 60).mean() < 0.002, (off > 60).mean()
    assert abs(left - (size - 1 - right)) <= 1  # centred
