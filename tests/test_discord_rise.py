"""``/rise`` through the real discord.py command tree, with no network.

Uses the harness of :mod:`tests.test_discord_bot` (patched ``HTTPClient.request``
and webhook adapter, gateway payloads fed to ``ConnectionState``): the lobby
for 2 to 5 players, an A-turn action by a button, a B-turn removal with its
price shown and paid (rulebook: "one gold, one player cube, one resource disc,
one food point, or one victory point for each disc to its left"), a tile
select, cube placement one region at a time, refusals (not your turn, illegal,
stale), and whole games played by one scripted person against the AI.
"""

from __future__ import annotations

import itertools
import logging
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import discord
import pytest
from discord import app_commands

from bot.discord.rise import GROUP, STALE, RiseSelect, _pay_panel, payment_mixes
from engine.rise.game import GAME
from engine.rise.state import EMPTY
from tests.test_discord_bot import (
    ALICE,
    APP_ID,
    BOB,
    EPHEMERAL,
    Call,
    Rig,
    deferred,
    fake,
    followup,
    rig,
    walk,
)
from tests.test_discord_bot import (
    button as press,
)

__all__ = ["fake", "rig"]  # the harness's fixtures, used here by name
pytestmark = pytest.mark.asyncio
NAME_RULE = re.compile(r"^[-_a-z0-9]{1,32}$")
PAYMENT_KEYS = ("gold", "cube", "resource", "food", "vp")


@pytest.fixture(autouse=True)
def nothing_logged_as_error(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    """No error was logged while the test ran (a swallowed exception in a handler or the transport)."""
    yield
    errors = [r for r in caplog.get_records("call") if r.levelno >= logging.ERROR]
    assert not errors, [r.getMessage() for r in errors]


# == helpers ==================================================================================
async def rise(rig: Rig, user_id: int, sub: str, **options: Any) -> list[Call]:
    """``/rise SUB option:value ...`` by ``user_id``; returns the REST calls it caused."""
    kinds = {bool: 5, int: 4, str: 3}
    opts = [{"name": k, "type": kinds[type(v)], "value": v} for k, v in options.items()]
    data = {"id": str(APP_ID + 9), "name": GROUP, "type": 1,
            "options": [{"name": sub, "type": 1, "options": opts}]}
    mark = len(rig.fake.calls)
    rig.bot._connection.parse_interaction_create(rig._base(user_id, 2, data))
    await rig.settle()
    return rig.fake.since(mark)


async def open_game(rig: Rig, humans: tuple[int, ...], ais: int) -> str:
    """Alice opens a Rise of Empires lobby (``/annals create``); others join, AIs sit, it starts."""
    reply = followup(await rig.command(ALICE, "create", ruleset="rise", move_time="2d"))
    found = re.search(r"Game `([a-z0-9]+)` is open \((\d) seats\)", reply.content)
    assert found, reply.content
    game = found.group(1)
    for user in humans:
        if user != ALICE:
            assert "You joined" in followup(await rig.command(user, "join", game=game)).content
    for _ in range(ais):
        assert "AI seat was added" in followup(await rig.command(ALICE, "add-ai", game=game)).content
    assert "has started" in followup(await rig.command(ALICE, "start", game=game)).content
    return game


def with_button(message: dict[str, Any], custom_id: str) -> dict[str, Any]:
    """``message`` as if it carried one more button (a crafted interaction: a client may send any)."""
    row = {"type": 1, "components": [{"type": 2, "style": 1, "label": "crafted", "custom_id": custom_id}]}
    return {**message, "components": [*(message.get("components") or []), row]}


def components(reply: Call) -> list[dict[str, Any]]:
    return [c for row in reply.components for c in row["components"]]


def select_in(reply: Call, what: str) -> dict[str, Any]:
    found = [c for c in components(reply) if c["type"] == 3 and c["custom_id"].startswith(f"rise:s:{what}:")]
    assert len(found) == 1, [c.get("custom_id") for c in components(reply)]
    return found[0]


def buttons_in(reply: Call, what: str) -> list[dict[str, Any]]:
    return [c for c in components(reply) if c["type"] == 2 and c["custom_id"].startswith(f"rise:b:{what}:")]


async def state(rig: Rig, game: str) -> Any:
    return (await rig.service.engine_state(game))[1]


async def seat_of(rig: Rig, game: str, user: int) -> int:
    st = await rig.service.status(game)
    seat = next(s.seat for s in st.seats if s.user_id == user)
    assert seat is not None
    return seat


async def drive(rig: Rig, game: str, user: int, until: Callable[[Any, list[dict[str, Any]]], bool],
                prefer: tuple[str, ...] = ("territory",), limit: int = 400, place: bool = False,
                tiles: tuple[str, ...] = ()) -> None:
    """Play ``user``'s moves through the service until ``until(state, legal)`` holds at their move.

    Their choices: a row of ``prefer`` when they may (else the first row), the first
    tile (or one named in ``tiles``), no battle, paying with the first thing they have,
    keeping tiles; cubes are
    placed (with ``place``: all of them, where rivals are if possible) or not at all.
    """
    for _ in range(limit):
        st = await rig.service.status(game)
        assert st.status == "active", st.status
        assert user in st.waiting_for
        seq, legal = await rig.service.legal_actions(game, user)
        s = await state(rig, game)
        if until(s, legal):
            await rig.settle()
            return
        kinds = [a["kind"] for a in legal]
        if place and "place" in kinds:
            places = [a for a in legal if a["kind"] == "place"]
            action = next((a for a in places if any(n for p, n in enumerate(s.cubes.get(a["region"], []))
                                                    if p != s.task["player"])), places[0])
        elif "select" in kinds:
            rows = [a for a in legal if a["kind"] == "select"]
            action = next((a for p in prefer for a in rows if a["row"] == p), rows[0])
        elif any("tile" in a and GAME.data.progress.get(a["tile"]) and GAME.data.progress[a["tile"]].name
                 in tiles for a in legal):
            action = next(a for a in legal if "tile" in a and GAME.data.progress.get(a["tile"])
                          and GAME.data.progress[a["tile"]].name in tiles)
        elif "stop" in kinds:
            action = next(a for a in legal if a["kind"] == "stop")
        else:
            action = legal[0]
        await rig.service.submit(game, user, action, seq)
    raise AssertionError("the wanted moment did not come")


def choosing(s: Any, legal: list[dict[str, Any]]) -> bool:
    return any(a["kind"] == "select" for a in legal)


def expected_mixes(have: dict[str, int], owed: int) -> set[tuple[str, ...]]:
    """Every way of paying ``owed`` units out of ``have``, by brute force."""
    units = [k for k in PAYMENT_KEYS for _ in range(min(owed, have[k]))]
    return {tuple(sorted(c)) for c in itertools.combinations(units, owed)}


# == the lobby ==================================================================================
async def test_a_rise_lobby_takes_two_to_five_players(rig: Rig) -> None:
    reply = followup(await rig.command(ALICE, "create", ruleset="rise"))
    found = re.search(r"Game `([a-z0-9]+)` is open \(5 seats\)", reply.content)
    assert found, reply.content
    gid = found.group(1)
    assert "at least 2" in followup(await rig.command(ALICE, "start", game=gid)).content
    for _ in range(4):
        assert "AI seat was added" in followup(await rig.command(ALICE, "add-ai", game=gid)).content
    assert "full" in followup(await rig.command(ALICE, "add-ai", game=gid)).content
    assert "has started" in followup(await rig.command(ALICE, "start", game=gid)).content
    assert (await state(rig, gid)).players == 5
    # six seats: refused by the game's own range
    calls = await rig.command(BOB, "create", ruleset="rise", seats=6)
    assert "Rise of Empires is for 2 to 5 players, not 6." in followup(calls).content
    # two seats: Discord lets the option through (its range starts at 2) and the lobby takes it
    annals = rig.bot.tree.get_command("annals")
    assert isinstance(annals, app_commands.Group)
    create = annals.get_command("create")
    assert isinstance(create, app_commands.Command)
    seats = create.get_parameter("seats")
    assert seats is not None and seats.min_value == 2
    reply = followup(await rig.command(BOB, "create", ruleset="rise", seats=2))
    found = re.search(r"Game `([a-z0-9]+)` is open \(2 seats\)", reply.content)
    assert found, reply.content
    assert "AI seat was added" in followup(await rig.command(BOB, "add-ai", game=found.group(1))).content
    assert "full" in followup(await rig.command(BOB, "add-ai", game=found.group(1))).content
    assert "has started" in followup(await rig.command(BOB, "start", game=found.group(1))).content
    assert (await state(rig, found.group(1))).players == 2


async def test_two_players_start_and_the_group_has_valid_names(rig: Rig) -> None:
    game = await open_game(rig, (ALICE,), ais=1)
    s = await state(rig, game)
    assert s.players == 2 and len(s.display["progress"]) == 4  # four circles a row with two players
    group = next(c for c in rig.bot.tree.get_commands() if c.name == GROUP)
    entries = walk(group)  # type: ignore[arg-type]
    assert {e["name"] for e in entries} >= {GROUP, "play", "status", "board", "game"}
    for entry in entries:
        assert NAME_RULE.fullmatch(entry["name"]), entry
        assert entry["description"] and 1 <= len(entry["description"]) <= 100, entry


# == choosing an action ===========================================================================
async def test_an_a_turn_action_by_a_button_then_a_tile_from_a_select(rig: Rig) -> None:
    game = await open_game(rig, (ALICE, BOB), ais=1)
    me = await seat_of(rig, game, ALICE)
    await drive(rig, game, ALICE, choosing)
    seq, legal = await rig.service.legal_actions(game, ALICE)
    calls = await rise(rig, ALICE, "play")
    assert deferred(calls).flags == EPHEMERAL
    panel = followup(calls)
    assert panel.flags == EPHEMERAL
    rows = buttons_in(panel, "row")
    # one button per row that is legal now, and nothing else to press
    assert [b["custom_id"] for b in rows] == [f"rise:b:row:{game}:{seq}:{a['row']}"
                                              for a in legal if a["kind"] == "select"]
    assert [b["label"] for b in rows][:2] == ["Progress tile", "Territory tile"]
    before = await state(rig, game)
    free = max(i for i, c in enumerate(before.display["territory"]) if c == EMPTY)
    territory = next(b for b in rows if b["custom_id"].endswith(":territory"))
    reply = followup(await press(rig, ALICE, panel.response, territory["custom_id"]))
    assert reply.flags == EPHEMERAL and reply.content.startswith("Done: ")
    s = await state(rig, game)
    assert s.display["territory"][free] == me  # the rightmost free circle (rulebook: right to left)
    assert s.task is not None and s.task["stage"] == "act" and s.task["row"] == "territory"
    # the answer carries the next decision: the territory tiles one may take, with their effect
    select = select_in(reply, "tile")
    seq, legal = await rig.service.legal_actions(game, ALICE)
    offered = {a["tile"] for a in legal if a["kind"] == "territory"}
    assert {o["value"] for o in select["options"]} == offered
    data = GAME.data
    for option in select["options"]:
        tile = data.territory[option["value"]]
        assert option["label"].startswith(tile.name)
        assert option["description"].startswith("no cost; each turn ")
        if tile.food:
            assert f"{tile.food:+d} food" in option["description"]
        if tile.vp:
            assert f"{tile.vp:+d} VP" in option["description"]
    pick = select["options"][-1]["value"]
    reply = followup(await rig.select(ALICE, reply.response, select["custom_id"], pick))
    assert reply.content.startswith("Done: ")
    s = await state(rig, game)
    assert s.territory[me][-1] == pick and pick not in s.open_territory
    log = await rig.store.actions(game)
    assert [a.action["kind"] for a in log[seq - 1:seq + 1]] == ["select", "territory"]


async def test_a_progress_tile_shows_its_price_and_effect_and_is_paid(rig: Rig) -> None:
    game = await open_game(rig, (ALICE,), ais=3)  # four players: tiles nobody took stay on offer
    me = await seat_of(rig, game, ALICE)
    # in the first turn every progress tile is of era I: free
    await drive(rig, game, ALICE, choosing)
    panel = followup(await rise(rig, ALICE, "play"))
    progress = next(b for b in buttons_in(panel, "row") if b["custom_id"].endswith(":progress"))
    reply = followup(await press(rig, ALICE, panel.response, progress["custom_id"]))
    select = select_in(reply, "tile")
    data = GAME.data
    s = await state(rig, game)
    assert {o["value"] for o in select["options"]} <= set(s.open_progress)
    for option in select["options"]:
        tile = data.progress[option["value"]]
        assert option["description"].startswith("price free;"), option  # an era I tile in era I
        if tile.free == "remove_cube":
            assert "remove a rival cube" in option["description"]
        if tile.food:
            assert f"{tile.food:+d} food" in option["description"]
    gold = s.gold[me]
    pick = select["options"][0]["value"]
    followup(await rig.select(ALICE, reply.response, select["custom_id"], pick))
    s = await state(rig, game)
    assert pick in s.progress[me] and s.gold[me] == gold
    # in era II an era I tile costs a gold (rulebook: "1 gold to the bank if the progress tile is from
    # the previous era")
    await drive(rig, game, ALICE, lambda s, legal: s.era == 2 and any(
        a["kind"] == "progress" and data.progress[a["tile"]].era == 1 for a in legal), prefer=("progress",))
    s = await state(rig, game)
    panel = followup(await rise(rig, ALICE, "play"))
    select = select_in(panel, "tile")
    old = next(o for o in select["options"] if data.progress[o["value"]].era == 1)
    assert old["description"].startswith("price 1 gold;"), old
    assert all(o["description"].startswith("price free;") for o in select["options"]
               if data.progress[o["value"]].era == 2)
    followup(await rig.select(ALICE, panel.response, select["custom_id"], old["value"]))
    after = await state(rig, game)
    assert old["value"] in after.progress[me] and after.gold[me] == s.gold[me] - 1


async def test_cubes_are_placed_one_region_at_a_time_then_stop(rig: Rig) -> None:
    game = await open_game(rig, (ALICE,), ais=2)
    me = await seat_of(rig, game, ALICE)
    await drive(rig, game, ALICE, lambda s, legal: any(a["kind"] == "select" and a["row"] == "empire"
                                                       for a in legal))
    panel = followup(await rise(rig, ALICE, "play"))
    empire = next(b for b in buttons_in(panel, "row") if b["custom_id"].endswith(":empire"))
    reply = followup(await press(rig, ALICE, panel.response, empire["custom_id"]))
    tiles = select_in(reply, "tile")
    s = await state(rig, game)
    assert {o["value"] for o in tiles["options"]} == set(s.open_empires)
    for option in tiles["options"]:
        side = GAME.data.empires[option["value"]].side(s.era)
        assert f"{side.regions} region" in option["description"]
    # the tile allowing most regions
    best = max(tiles["options"], key=lambda o: GAME.data.empires[o["value"]].side(1).regions)
    reply = followup(await rig.select(ALICE, reply.response, tiles["custom_id"], best["value"]))
    regions = GAME.data.empires[best["value"]].side(1).regions
    assert f"place cubes in {regions} region" in reply.content
    placed: list[str] = []
    for _ in range(3):
        seq, legal = await rig.service.legal_actions(game, ALICE)
        select = select_in(reply, "place")
        assert select["custom_id"] == f"rise:s:place:{game}:{seq}"
        assert {o["value"] for o in select["options"]} == {a["region"] for a in legal if a["kind"] == "place"}
        assert [b["label"] for b in buttons_in(reply, "stop")] == ["Stop placing"]
        region = select["options"][0]["value"]
        pool = (await state(rig, game)).pool[me]
        before = (await state(rig, game)).count(region, me)
        reply = followup(await rig.select(ALICE, reply.response, select["custom_id"], region))
        assert reply.content.startswith("Done: ")
        s = await state(rig, game)
        assert s.count(region, me) == before + 1 and s.pool[me] == pool - 1
        placed.append(region)
    assert len(set(placed)) <= regions and all(GAME.data.regions[r].era == 1 for r in placed)
    seq = (await rig.service.status(game)).seq
    stop = buttons_in(reply, "stop")[0]
    reply = followup(await press(rig, ALICE, reply.response, stop["custom_id"]))
    assert reply.content.startswith("Done: ")
    assert (await rig.store.actions(game))[seq].action == {"kind": "stop", "player": me}
    s = await state(rig, game)
    assert sum(s.count(r, me) for r in set(placed)) == 3


async def test_battles_are_chosen_one_at_a_time(rig: Rig) -> None:
    game = await open_game(rig, (ALICE,), ais=2)
    me = await seat_of(rig, game, ALICE)
    await drive(rig, game, ALICE, lambda s, legal: any(a["kind"] == "battle" for a in legal),
                prefer=("empire", "territory"), place=True)
    seq, legal = await rig.service.legal_actions(game, ALICE)
    s = await state(rig, game)
    panel = followup(await rise(rig, ALICE, "play"))
    select = select_in(panel, "battle")
    battles = [a for a in legal if a["kind"] == "battle"]
    wanted = {f"{a['region']}:{a['target']}:{a['row']}" for a in battles}
    assert {o["value"] for o in select["options"]} == wanted
    assert [b["label"] for b in buttons_in(panel, "stop")] == ["No (more) battles"]
    side = GAME.data.empires[s.task["empire"]].side(s.era)
    option = select["options"][0]
    region, target, row = option["value"].split(":")
    attacker, defender = side.battles[int(row)]
    theirs, ours = s.count(region, int(target)), s.count(region, me)
    assert option["description"] == (f"they lose {min(defender, theirs)} of {theirs}, "
                                     f"you lose {min(attacker, ours)} of {ours}")
    reply = followup(await rig.select(ALICE, panel.response, select["custom_id"], option["value"]))
    assert reply.content.startswith("Done: ")
    after = await state(rig, game)
    assert after.count(region, int(target)) == theirs - min(defender, theirs)
    assert after.count(region, me) == ours - min(attacker, ours)
    assert (await rig.store.actions(game))[seq].action == {"kind": "battle", "player": me, "region": region,
                                                         "target": int(target), "row": int(row)}
    # era I: one battle per empire tile, so the action is over
    assert after.task is None or after.task["player"] != me or after.task["stage"] != "battle"


async def test_trade_puts_resource_discs_into_a_box(rig: Rig) -> None:
    game = await open_game(rig, (ALICE,), ais=1)
    me = await seat_of(rig, game, ALICE)
    await drive(rig, game, ALICE, lambda s, legal: any(a["kind"] == "select" and a["row"] == "trade"
                                                       for a in legal))
    panel = followup(await rise(rig, ALICE, "play"))
    trade = next(b for b in buttons_in(panel, "row") if b["custom_id"].endswith(":trade"))
    reply = followup(await press(rig, ALICE, panel.response, trade["custom_id"]))
    select = select_in(reply, "trade")
    _, legal = await rig.service.legal_actions(game, ALICE)
    s = await state(rig, game)
    boxes = {a["box"] for a in legal if a["kind"] == "trade"}
    assert {o["value"] for o in select["options"]} == boxes
    for option in select["options"]:
        box = GAME.data.trade[option["value"]]
        assert s.era in box.eras and box.resources <= s.resources[me]
        gain = f"{box.gold} gold" if box.gold else f"{box.vp} VP"
        assert option["description"].endswith(f" → {gain}")
    pick = GAME.data.trade[select["options"][0]["value"]]
    followup(await rig.select(ALICE, reply.response, select["custom_id"], pick.id))
    after = await state(rig, game)
    assert after.resources[me] == s.resources[me] - pick.resources
    assert after.gold[me] == s.gold[me] + pick.gold and after.trade_used[pick.id] == me


async def test_a_free_progress_tile_is_used_from_a_select(rig: Rig) -> None:
    """Rulebook: Dan "uses the Weapons tile he acquired earlier and removes a green player cube"."""
    game = await open_game(rig, (ALICE,), ais=2)
    me = await seat_of(rig, game, ALICE)
    await drive(rig, game, ALICE, lambda s, legal: any(a["kind"] == "use" and a["target"] >= 0
                                                       for a in legal),
                prefer=("empire", "progress"), place=True, tiles=("Weapons", "Gunpowder", "Artillery"),
                limit=800)
    seq, legal = await rig.service.legal_actions(game, ALICE)
    panel = followup(await rise(rig, ALICE, "play"))
    select = select_in(panel, "use")
    uses = [a for a in legal if a["kind"] == "use"]
    assert {o["value"] for o in select["options"]} == {f"{a['tile']}:{a['region']}:{a['target']}"
                                                      for a in uses}
    option = next(o for o in select["options"] if not o["value"].endswith(":-1"))
    tile, region, target = option["value"].split(":")
    assert GAME.data.progress[tile].name.split()[0] in option["label"]
    s = await state(rig, game)
    reply = followup(await rig.select(ALICE, panel.response, select["custom_id"], option["value"]))
    assert reply.content.startswith("Done: ")
    after = await state(rig, game)
    assert after.count(region, int(target)) == s.count(region, int(target)) - 1
    assert tile in after.used
    assert (await rig.store.actions(game))[seq].action == {"kind": "use", "player": me, "tile": tile,
                                                         "region": region, "target": int(target)}


# == B turns ===================================================================================
def b_turn_price(me: int) -> Callable[[Any, list[dict[str, Any]]], bool]:
    """At ``me``'s choice of a row in a B turn, with a disc of theirs that costs something."""
    def wanted(s: Any, legal: list[dict[str, Any]]) -> bool:
        return s.b_turn and any(
            a["kind"] == "select" and sum(1 for c in s.display[a["row"]][:a["circle"]] if c != EMPTY) > 1
            for a in legal)
    return wanted


async def test_a_b_turn_removal_shows_its_price_and_the_mix_is_chosen(rig: Rig) -> None:
    game = await open_game(rig, (ALICE,), ais=2)
    me = await seat_of(rig, game, ALICE)
    await drive(rig, game, ALICE, b_turn_price(me), prefer=("empire", "progress"))
    seq, legal = await rig.service.legal_actions(game, ALICE)
    s = await state(rig, game)
    panel = followup(await rise(rig, ALICE, "play"))
    assert "B turn" in panel.content
    rows = buttons_in(panel, "row")
    usable = {a["row"] for a in legal if a["kind"] == "select"}
    assert {b["custom_id"].rsplit(":", 1)[1] for b in rows} == usable
    for b in rows:
        row = b["custom_id"].rsplit(":", 1)[1]
        mine = [i for i, c in enumerate(s.display[row]) if c == me]
        left = sum(1 for c in s.display[row][:mine[0]] if c != EMPTY)  # discs left of her leftmost
        assert b["label"].endswith("free" if left == 0 else f"costs {left}"), (b["label"], s.display[row])
    # the dearest row: nothing happens until she chose how to pay
    costly = max(rows, key=lambda b: int(b["label"].rsplit(" ", 1)[1]) if "costs" in b["label"] else 0)
    row = costly["custom_id"].rsplit(":", 1)[1]
    owed = int(costly["label"].rsplit(" ", 1)[1])
    circle = min(i for i, c in enumerate(s.display[row]) if c == me)
    reply = followup(await press(rig, ALICE, panel.response, costly["custom_id"]))
    assert (await rig.service.status(game)).seq == seq
    mix = select_in(reply, "mix")
    assert mix["custom_id"] == f"rise:s:mix:{game}:{seq}:{row}"
    have = {"gold": s.gold[me], "cube": s.pool[me], "resource": s.resources[me], "food": s.food[me],
            "vp": s.vp[me]}
    wanted = expected_mixes(have, owed)
    assert 1 < len(wanted) <= 25
    assert {tuple(sorted(o["value"].split(","))) for o in mix["options"]} == wanted
    assert len(mix["options"]) == len(wanted)
    # pay it all in food
    food_only = next(o for o in mix["options"] if set(o["value"].split(",")) == {"food"})
    assert food_only["label"] == f"Pay {owed} food"
    reply = followup(await rig.select(ALICE, reply.response, mix["custom_id"], food_only["value"]))
    assert reply.content.startswith("Done: "), reply.content
    after = await state(rig, game)
    assert after.display[row][circle] == EMPTY
    assert after.food[me] == s.food[me] - owed and after.gold[me] == s.gold[me] and after.vp[me] == s.vp[me]
    log = await rig.store.actions(game)
    assert [a.action for a in log[seq:seq + 1 + owed]] == [
        {"kind": "select", "player": me, "row": row, "circle": circle},
        *[{"kind": "pay", "player": me, "what": "food"}] * owed]
    # now the row's own choice, with skipping allowed in a B turn
    assert after.task is not None and after.task["stage"] == "act"
    assert [b["label"] for b in buttons_in(reply, "skip")] == ["Skip the action"]


@pytest.mark.parametrize("dearest", [False, True])
async def test_a_payment_under_way_is_finished_from_the_play_panel(rig: Rig, dearest: bool) -> None:
    """The disc is already off the display (removed by another client, or before a restart): ``play``
    asks only how to pay what is still owed, as a list of mixes, or one unit at a time when the mixes
    would not fit in one list."""
    game = await open_game(rig, (ALICE,), ais=2)
    me = await seat_of(rig, game, ALICE)
    await drive(rig, game, ALICE, b_turn_price(me), prefer=("empire", "progress"))
    seq, legal = await rig.service.legal_actions(game, ALICE)
    s = await state(rig, game)

    def cost(a: dict[str, Any]) -> int:
        return sum(1 for c in s.display[a["row"]][:a["circle"]] if c != EMPTY)
    costly = [a for a in legal if a["kind"] == "select" and cost(a) > 0]
    select = (max if dearest else min)(costly, key=cost)
    owed = cost(select)
    have = {"gold": s.gold[me], "cube": s.pool[me], "resource": s.resources[me], "food": s.food[me],
            "vp": s.vp[me]}
    await rig.service.submit(game, ALICE, select, seq)
    panel = followup(await rise(rig, ALICE, "play"))
    assert f"Your disc is removed; it still costs {owed}" in panel.content
    paid: list[str] = []
    if len(expected_mixes(have, owed)) <= 25:
        mix = select_in(panel, "mix")
        assert mix["custom_id"] == f"rise:s:mix:{game}:{seq + 1}:owed"
        chosen = next((o for o in mix["options"] if "gold" in o["value"]), mix["options"][0])
        paid = chosen["value"].split(",")
        reply = followup(await rig.select(ALICE, panel.response, mix["custom_id"], chosen["value"]))
        assert reply.content.startswith("Done: ")
    else:
        assert dearest
        reply = panel
        while len(expected_mixes(have, owed - len(paid))) > 25:  # one unit at a time, till a list fits
            unit = select_in(reply, "pay")
            assert unit["custom_id"] == f"rise:s:pay:{game}:{seq + 1 + len(paid)}"
            value = unit["options"][-1]["value"]  # the last kind she has: VP, or food
            reply = followup(await rig.select(ALICE, reply.response, unit["custom_id"], value))
            assert reply.content.startswith("Done: Pay 1 ")
            paid.append(value)
            have[value] -= 1
        assert paid and f"still costs {owed - len(paid)}" in reply.content
        mix = select_in(reply, "mix")
        assert len(mix["options"]) == len(expected_mixes(have, owed - len(paid)))
        last = mix["options"][0]["value"]
        reply = followup(await rig.select(ALICE, reply.response, mix["custom_id"], last))
        paid += last.split(",")
    assert len(paid) == owed
    after = await state(rig, game)
    for key, attr in (("gold", "gold"), ("food", "food"), ("vp", "vp"), ("resource", "resources")):
        assert getattr(after, attr)[me] == getattr(s, attr)[me] - paid.count(key), key
    assert after.task is not None and after.task["stage"] == "act" and after.task["owed"] == 0


async def test_a_free_removal_in_a_b_turn_happens_at_once(rig: Rig) -> None:
    game = await open_game(rig, (ALICE,), ais=2)
    me = await seat_of(rig, game, ALICE)

    def free_disc(s: Any, legal: list[dict[str, Any]]) -> bool:
        return s.b_turn and any(a["kind"] == "select"
                                and all(c == EMPTY for c in s.display[a["row"]][:a["circle"]]) for a in legal)
    await drive(rig, game, ALICE, free_disc, prefer=("trade", "territory"))
    seq, _ = await rig.service.legal_actions(game, ALICE)
    panel = followup(await rise(rig, ALICE, "play"))
    free = next(b for b in buttons_in(panel, "row") if b["label"].endswith("free"))
    row = free["custom_id"].rsplit(":", 1)[1]
    s = await state(rig, game)
    reply = followup(await press(rig, ALICE, panel.response, free["custom_id"]))
    assert reply.content.startswith("Done: ")
    after = await state(rig, game)
    assert after.seq == seq + 1 and after.display[row].count(me) == s.display[row].count(me) - 1
    assert (after.gold[me], after.food[me], after.vp[me]) == (s.gold[me], s.food[me], s.vp[me])
    assert buttons_in(reply, "skip")


async def test_with_printing_every_removal_is_free(rig: Rig) -> None:
    """Rulebook: "If you have the Printing progress tile, you never have to pay due to your action disc
    position." Alice takes Printing in era II A; in era II B her discs are free wherever they are."""
    game = await open_game(rig, (ALICE,), ais=2)
    me = await seat_of(rig, game, ALICE)
    printing = {t for t, p in GAME.data.progress.items() if p.special == "printing"}

    def b_turn_with_printing(s: Any, legal: list[dict[str, Any]]) -> bool:
        return s.turn == 4 and choosing(s, legal) and bool(printing & set(s.progress[me])) and any(
            me in circles and any(c != EMPTY for c in circles[:circles.index(me)])
            for circles in s.display.values())
    await drive(rig, game, ALICE, b_turn_with_printing, prefer=("progress", "territory"), tiles=("Printing",),
                limit=600)
    s = await state(rig, game)
    panel = followup(await rise(rig, ALICE, "play"))
    assert "you hold Printing: removing is free" in panel.content
    rows = buttons_in(panel, "row")
    assert rows and all(b["label"].endswith(" · free") for b in rows)
    behind = [b for b in rows if sum(1 for c in s.display[b["custom_id"].rsplit(":", 1)[1]][
        :s.display[b["custom_id"].rsplit(":", 1)[1]].index(me)] if c != EMPTY) > 0]
    assert behind, s.display  # at least one of her discs has others to its left, and is free all the same
    row = behind[0]["custom_id"].rsplit(":", 1)[1]
    reply = followup(await press(rig, ALICE, panel.response, behind[0]["custom_id"]))
    after = await state(rig, game)
    assert reply.content.startswith("Done: ") and after.task is not None and after.task["stage"] == "act"
    assert after.display[row].count(me) == s.display[row].count(me) - 1
    assert (after.gold[me], after.pool[me], after.resources[me], after.food[me], after.vp[me]) == \
        (s.gold[me], s.pool[me], s.resources[me], s.food[me], s.vp[me])


# == between turns ================================================================================
async def test_keep_or_discard_at_the_end_of_an_era_and_the_turn_order(rig: Rig) -> None:
    game = await open_game(rig, (ALICE,), ais=2)
    me = await seat_of(rig, game, ALICE)
    await drive(rig, game, ALICE, lambda s, legal: any(a["kind"] == "keep" for a in legal)
                and s.pending[0]["kind"] == "keep_progress", prefer=("progress", "territory"))
    s = await state(rig, game)
    tile = s.pending[0]["tile"]
    panel = followup(await rise(rig, ALICE, "play"))
    assert f"End of the era: keep **{GAME.data.progress[tile].name}** for 1 gold" in panel.content
    keep, discard = buttons_in(panel, "keep"), buttons_in(panel, "discard")
    assert [b["label"] for b in keep] == ["Keep it (1 gold)"]
    assert [b["label"] for b in discard] == ["Return it"]
    reply = followup(await press(rig, ALICE, panel.response, discard[0]["custom_id"]))
    assert reply.content.startswith("Done: ")
    after = await state(rig, game)
    assert tile not in after.progress[me] and tile in after.retired and after.gold[me] == s.gold[me]
    # the turn order: a button per free position
    await drive(rig, game, ALICE, lambda s, legal: any(a["kind"] == "order" for a in legal))
    seq, legal = await rig.service.legal_actions(game, ALICE)
    panel = followup(await rise(rig, ALICE, "play"))
    buttons = buttons_in(panel, "order")
    free = [a["position"] for a in legal if a["kind"] == "order"]
    assert [b["custom_id"] for b in buttons] == [f"rise:b:order:{game}:{seq}:{p}" for p in free]
    last = buttons[-1]
    assert last["label"] == f"Play {['1st', '2nd', '3rd'][free[-1]]}"
    followup(await press(rig, ALICE, panel.response, last["custom_id"]))
    after = await state(rig, game)
    assert after.order[free[-1]] == me or after.new_order[free[-1]] == me


# == paying: the mixes =============================================================================
@pytest.mark.parametrize(("have", "owed"), [
    ({"gold": 5, "cube": 5, "resource": 2, "food": 16, "vp": 0}, 1),
    ({"gold": 5, "cube": 5, "resource": 2, "food": 16, "vp": 0}, 2),
    ({"gold": 1, "cube": 0, "resource": 0, "food": 3, "vp": 2}, 3),
    ({"gold": 0, "cube": 0, "resource": 0, "food": 4, "vp": 0}, 4),
    ({"gold": 2, "cube": 1, "resource": 1, "food": 1, "vp": 1}, 5),
])
async def test_payment_mixes_are_every_way_of_paying(have: dict[str, int], owed: int) -> None:
    mixes = payment_mixes(have, owed, limit=1000)
    assert len(mixes) == len({tuple(m) for m in mixes})
    assert {tuple(sorted(m)) for m in mixes} == expected_mixes(have, owed)


async def test_too_many_mixes_for_one_list_are_paid_one_unit_at_a_time() -> None:
    mine = {"gold": 5, "pool": 5, "resources": 5, "food": 16, "vp": 9, "stock": 25, "on_map": 0}
    have = {"gold": 5, "cube": 5, "resource": 5, "food": 16, "vp": 9}
    assert len(expected_mixes(have, 3)) == 35  # more than a select holds
    text, items = _pay_panel("g1", 7, {}, mine, 3, None, "Game `g1`.")
    assert items is not None and "Pay one unit at a time" in text
    (select,) = items.children
    assert isinstance(select, RiseSelect) and isinstance(select.item, discord.ui.Select)
    assert select.item.custom_id == "rise:s:pay:g1:7"
    assert [o.value for o in select.item.options] == ["gold", "cube", "resource", "food", "vp"]
    text, items = _pay_panel("g1", 7, {}, mine, 2, "empire", "Game `g1`.")
    assert items is not None and "Removing your disc from the empire tile row costs 2" in text
    (select,) = items.children
    assert isinstance(select, RiseSelect) and select.item.custom_id == "rise:s:mix:g1:7:empire"
    assert len(select.item.options) == len(expected_mixes(have, 2)) == 15


async def test_a_button_from_before_a_restart_still_works(fake: Any, tmp_path: Path) -> None:
    db = tmp_path / "annals.sqlite3"
    first = await Rig(fake, db).open()
    game = await open_game(first, (ALICE,), ais=1)
    await drive(first, game, ALICE, choosing)
    panel = followup(await rise(first, ALICE, "play"))
    row = buttons_in(panel, "row")[0]
    seq = (await first.service.status(game)).seq
    await first.close()
    second = await Rig(fake, db).open()  # a new process: new client, new service, same database
    try:
        reply = followup(await press(second, ALICE, panel.response, row["custom_id"]))
        assert reply.content.startswith("Done: ")
        assert (await second.service.status(game)).seq == seq + 1
    finally:
        await second.close()


# == refusals ===================================================================================
async def test_refusals_not_your_turn_illegal_and_stale(rig: Rig) -> None:
    game = await open_game(rig, (ALICE, BOB), ais=1)
    await drive(rig, game, ALICE, choosing)
    seq, _ = await rig.service.legal_actions(game, ALICE)
    panel = followup(await rise(rig, ALICE, "play"))
    territory = next(b for b in buttons_in(panel, "row") if b["custom_id"].endswith(":territory"))
    # Bob presses Alice's button: refused, nothing changes
    calls = await press(rig, BOB, panel.response, territory["custom_id"])
    assert followup(calls).flags == EPHEMERAL and "not your move" in followup(calls).content
    assert (await rig.service.status(game)).seq == seq
    # Bob's own panel says whom the game waits for
    assert "waiting for Alice" in followup(await rise(rig, BOB, "play")).content
    # an illegal choice (a crafted tile value) is refused without a move
    reply = followup(await press(rig, ALICE, panel.response, territory["custom_id"]))
    select = select_in(reply, "tile")
    s = await state(rig, game)
    bogus = next(t for t in GAME.data.territory if t not in s.open_territory)
    calls = await rig.select(ALICE, reply.response, select["custom_id"], bogus)
    assert followup(calls).content.startswith("That is not one of your choices now")
    assert (await rig.service.status(game)).seq == seq + 1
    # a row that cannot be chosen now: a crafted button for a row she is already using
    crafted = f"rise:b:row:{game}:{seq + 1}:city"
    calls = await press(rig, ALICE, with_button(reply.response, crafted), crafted)
    assert "You cannot choose the city tile row now." in followup(calls).content
    # the first button again: the game moved on
    calls = await press(rig, ALICE, panel.response, territory["custom_id"])
    assert followup(calls).content == STALE
    assert (await rig.service.status(game)).seq == seq + 1
    # and a Rise command about another game's id is refused politely
    other = followup(await rig.command(BOB, "create", seats=3)).content
    gid = re.search(r"Game `([a-z0-9]+)`", other)
    assert gid
    calls = await rise(rig, BOB, "play", game=gid.group(1))
    assert "these commands are for Rise of Empires" in followup(calls).content


# == status and board ============================================================================
async def test_status_is_ephemeral_and_board_is_public(rig: Rig) -> None:
    game = await open_game(rig, (ALICE,), ais=1)
    me = await seat_of(rig, game, ALICE)
    await drive(rig, game, ALICE, lambda s, legal: s.turn == 2 and choosing(s, legal))
    s = await state(rig, game)
    mark = len(rig.fake.calls)
    calls = await rise(rig, ALICE, "status")
    reply = followup(calls)
    assert deferred(calls).flags == EPHEMERAL and reply.flags == EPHEMERAL
    assert f"{s.gold[me]} gold, " in reply.content and f"{s.food[me]} food, {s.vp[me]} VP" in reply.content
    assert f"{s.pool[me]} cube" in reply.content
    for tile in s.territory[me]:
        assert GAME.data.territory[tile].name in reply.content
    assert not rig.fake.public_posts(mark)
    calls = await rise(rig, ALICE, "board")
    reply = followup(calls)
    assert reply.flags != EPHEMERAL and reply.files and reply.files[0].endswith(".png")
    assert "Turn 2 of 6, era I B" in reply.content


# == whole games ==================================================================================
async def play_by_script(rig: Rig, game: str, until: Callable[[Any], bool], limit: int) -> set[str]:
    """Alice plays through the components alone: at step ``n`` she uses the ``n``-th usable component
    (counting round) and the ``n // 2``-th option of a select, so every kind of choice comes up."""
    seen: set[str] = set()
    reply = followup(await rise(rig, ALICE, "play"))
    for step in range(limit):
        if (await rig.service.status(game)).status == "over" or until(await state(rig, game)):
            return seen
        usable = [c for c in components(reply) if not c.get("disabled")]
        if not usable:
            reply = followup(await rise(rig, ALICE, "play"))
            assert components(reply), reply.content
            continue
        first = usable[step % len(usable)]
        seen.add(":".join(first["custom_id"].split(":")[:3]))
        seq = (await rig.service.status(game)).seq
        if first["type"] == 3:
            value = first["options"][(step // 2) % len(first["options"])]["value"]
            calls = await rig.select(ALICE, reply.response, first["custom_id"], value)
        else:
            calls = await press(rig, ALICE, reply.response, first["custom_id"])
        reply = followup(calls)
        assert reply.flags == EPHEMERAL
        assert reply.content != STALE and "not your move" not in reply.content, reply.content
        if reply.content.startswith("Done: "):
            assert (await rig.service.status(game)).seq > seq, reply.content  # the click made a move
        else:  # only a B-turn row with a price to pay in several ways asks first, moving nothing
            assert first["custom_id"].startswith("rise:b:row:") and select_in(reply, "mix"), reply.content
            assert (await rig.service.status(game)).seq == seq
    raise AssertionError("the game did not get there")


async def test_a_whole_three_player_game_against_the_ai(rig: Rig) -> None:
    game = await open_game(rig, (ALICE,), ais=2)
    seen = await play_by_script(rig, game, lambda s: False, limit=2000)
    s = await state(rig, game)
    assert GAME.is_over(s)
    # rows, tiles, trade boxes, payments, cubes, battles, stops, skips, keeping tiles, turn order
    assert seen >= {"rise:b:row", "rise:s:tile", "rise:s:trade", "rise:s:mix", "rise:s:place",
                    "rise:s:battle", "rise:b:stop", "rise:b:skip", "rise:b:keep", "rise:b:discard",
                    "rise:b:order"}
    log = await rig.store.actions(game)
    me = await seat_of(rig, game, ALICE)
    mine = [a.action for a in log if a.source == "human"]
    assert sum(1 for a in mine if a["kind"] in ("select", "pass")) == 36  # six actions in each of six turns
    assert all(a["player"] == me for a in mine)
    # the final scores posted in the game's thread are the engine's
    st = await rig.service.status(game)
    names = {x.seat: x.name for x in st.seats}
    thread = "\n".join(c.content for c in rig.fake.channel_posts(channel_id=st.thread_id))
    final = re.search(r"is over\. Final scores: (.*)\.", thread)
    assert final, thread[-500:]
    posted = dict(re.findall(r"(.+?) (\d+)(?:, |$)", final.group(1)))
    assert {n: int(v) for n, v in posted.items()} == {names[p]: GAME.scores(s)[p] for p in range(3)}
