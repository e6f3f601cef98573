"""``/eight-minute`` through the real discord.py command tree, with no network.

Uses the harness of :mod:`tests.test_discord_bot` (patched ``HTTPClient.request``
and webhook adapter, gateway payloads fed to ``ConnectionState``): the secret
bid and its reveal, the first player, take-card buttons, a move in two steps,
refusals, the score breakdown, and a whole two-player game (neutral armies
included) played by one scripted person against the AI.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from bot.discord.eight_minute import GROUP, STALE
from engine.eight_minute.game import GAME
from tests.test_discord_bot import (
    ALICE,
    APP_ID,
    BOB,
    EPHEMERAL,
    Call,
    FakeDiscord,
    Rig,
    button,
    deferred,
    fake,
    followup,
    no_errors_logged,
    rig,
    walk,
)

__all__ = ["fake", "no_errors_logged", "rig"]  # the harness's fixtures, used here by name
pytestmark = pytest.mark.asyncio
NAME_RULE = re.compile(r"^[-_a-z0-9]{1,32}$")


# == helpers ==================================================================================
async def em(rig: Rig, user_id: int, sub: str, **options: Any) -> list[Call]:
    """``/eight-minute SUB option:value ...`` by ``user_id``; returns the REST calls it caused."""
    kinds = {bool: 5, int: 4, str: 3}
    opts = [{"name": k, "type": kinds[type(v)], "value": v} for k, v in options.items()]
    data = {"id": str(APP_ID + 8), "name": GROUP, "type": 1,
            "options": [{"name": sub, "type": 1, "options": opts}]}
    mark = len(rig.fake.calls)
    rig.bot._connection.parse_interaction_create(rig._base(user_id, 2, data))
    await rig.settle()
    return rig.fake.since(mark)


async def open_game(rig: Rig, humans: tuple[int, ...], ais: int) -> str:
    """Alice opens an Eight-Minute Empire lobby (``/annals create``); others join, AIs sit, it starts."""
    reply = followup(await rig.command(ALICE, "create", ruleset="eight-minute", move_time="2d"))
    found = re.search(r"Game `([a-z0-9]+)` is open \((\d) seats\)", reply.content)
    assert found, reply.content
    game = found.group(1)
    assert found.group(2) == "5"  # the game's own maximum
    for user in humans:
        if user != ALICE:
            assert "You joined" in followup(await rig.command(user, "join", game=game)).content
    for _ in range(ais):
        assert "AI seat was added" in followup(await rig.command(ALICE, "add-ai")).content
    assert "has started" in followup(await rig.command(ALICE, "start")).content
    return game


def components(reply: Call) -> list[dict[str, Any]]:
    return [c for row in reply.components for c in row["components"]]


def select_in(reply: Call, what: str) -> dict[str, Any]:
    found = [c for c in components(reply) if c["type"] == 3 and c["custom_id"].startswith(f"em:s:{what}:")]
    assert len(found) == 1, [c.get("custom_id") for c in components(reply)]
    return found[0]


def buttons_in(reply: Call, what: str) -> list[dict[str, Any]]:
    return [c for c in components(reply) if c["type"] == 2 and c["custom_id"].startswith(f"em:b:{what}:")]


async def state(rig: Rig, game: str) -> Any:
    return (await rig.service.engine_state(game))[1]


def plain(text: str) -> str:
    """``text`` without mentions, channel links, timestamps and `code` (ids hold digits)."""
    return re.sub(r"<[@#]\d+>|<t:\d+:\w>|`[^`]*`", "", text)


# == the lobby ==================================================================================
async def test_an_eight_minute_lobby_takes_two_to_five_players(rig: Rig) -> None:
    reply = followup(await rig.command(ALICE, "create", ruleset="eight-minute"))
    game = re.search(r"Game `([a-z0-9]+)` is open \(5 seats\)", reply.content)
    assert game, reply.content
    gid = game.group(1)
    calls = await rig.command(ALICE, "start", game=gid)
    assert "at least 2" in followup(calls).content  # one seat is not a game
    for _ in range(4):
        assert "AI seat was added" in followup(await rig.command(ALICE, "add-ai", game=gid)).content
    assert "full" in followup(await rig.command(ALICE, "add-ai", game=gid)).content
    assert "has started" in followup(await rig.command(ALICE, "start", game=gid)).content
    assert (await state(rig, gid)).players == 5


async def test_the_group_and_its_options_have_valid_names_and_descriptions(rig: Rig) -> None:
    group = next(c for c in rig.bot.tree.get_commands() if c.name == GROUP)
    entries = walk(group)  # type: ignore[arg-type]
    assert {e["name"] for e in entries} >= {GROUP, "play", "bid", "scores", "board", "coins", "image"}
    for entry in entries:
        assert NAME_RULE.fullmatch(entry["name"]), entry
        assert entry["description"] and 1 <= len(entry["description"]) <= 100, entry


# == the secret bid ===============================================================================
async def test_the_bid_stays_secret_until_everyone_has_bid(rig: Rig) -> None:
    game = await open_game(rig, (ALICE, BOB), ais=1)
    st = await rig.service.status(game)
    assert set(st.waiting_for) == {ALICE, BOB}  # the AI bid at once; both people bid at the same time
    mark = len(rig.fake.calls)
    # Bob looks first: a select of his possible bids, built before Alice bids
    bob_panel = followup(await em(rig, BOB, "play"))
    assert bob_panel.flags == EPHEMERAL
    bob_select = select_in(bob_panel, "bid")
    assert [o["value"] for o in bob_select["options"]] == [str(n) for n in range(12)]  # 11 coins (3 players)
    # Alice bids 7 by the command; only she is told the amount
    calls = await em(rig, ALICE, "bid", coins=7)
    assert deferred(calls).flags == EPHEMERAL
    alice_reply = followup(calls)
    assert alice_reply.flags == EPHEMERAL and "Your secret bid of 7 coins is in" in alice_reply.content
    assert "still waiting for: Bob" in alice_reply.content
    # Bob may ask how things stand: who has bid, never how much
    bob_calls = await em(rig, BOB, "play")
    assert "Bids are in from: " in followup(bob_calls).content and "Alice" in followup(bob_calls).content
    # more coins than he has: refused, and nothing changes
    seq = (await rig.service.status(game)).seq
    bob_calls += await em(rig, BOB, "bid", coins=12)
    assert "You have only 11 coins" in followup(bob_calls).content
    assert (await rig.service.status(game)).seq == seq
    seen_by_others = [c.content for c in bob_calls if c.method == "POST"] + \
        [c.content for c in rig.fake.public_posts(mark)] + [c.content for c in rig.fake.dm_posts(BOB, mark)]
    assert any("Bids are in from" in text for text in seen_by_others)
    for text in seen_by_others:
        assert not re.search(r"\b7\b", plain(text)), text
    assert (await rig.service.view(game, BOB))["bid"]["bids"] is None
    # Bob bids 2 with the select he got before Alice's bid: a bid stands whatever the others did
    mark = len(rig.fake.calls)
    calls = await rig.select(BOB, bob_panel.response, bob_select["custom_id"], "2")
    reply = followup(calls)
    assert reply.flags == EPHEMERAL and "Your secret bid of 2 coins is in" in reply.content
    assert "All bids are in" in reply.content and re.search(r"Alice \(\w+\) 7 coins", reply.content)
    # the reveal is posted in the game's thread, with every amount
    bids = (await rig.service.view(game, None))["bid"]["bids"]
    assert bids is not None and sorted(bids)[-1] == 7
    thread = (await rig.service.status(game)).thread_id
    posts = "\n".join(c.content for c in rig.fake.channel_posts(mark, channel_id=thread))
    assert "Bids revealed:" in posts
    for seat, amount in enumerate(bids):
        assert f"(P{seat + 1}) {amount}" in posts
    # Alice won (7 beats 2 and the AI's bid) and paid: the first-player choice is hers
    s = await state(rig, game)
    alice = next(x.seat for x in (await rig.service.status(game)).seats if x.user_id == ALICE)
    assert s.bid_winner == alice and s.coins[alice] == 11 - 7


async def test_the_bid_winner_chooses_who_starts(rig: Rig) -> None:
    game = await open_game(rig, (ALICE, BOB), ais=1)
    await em(rig, ALICE, "bid", coins=5)
    await em(rig, BOB, "bid", coins=1)
    st = await rig.service.status(game)
    assert st.waiting_for == (ALICE,)
    # Bob may not choose
    assert "not your move" in followup(await em(rig, BOB, "play")).content
    panel = followup(await em(rig, ALICE, "play"))
    select = select_in(panel, "first")
    bob = next(s for s in st.seats if s.user_id == BOB)
    labels = {o["value"]: o["label"] for o in select["options"]}
    assert len(labels) == 3 and labels[str(bob.seat)].startswith("Bob")
    reply = followup(await rig.select(ALICE, panel.response, select["custom_id"], str(bob.seat)))
    assert "Bob" in reply.content and "starts" in reply.content
    assert (await state(rig, game)).current == bob.seat
    assert (await rig.service.status(game)).waiting_for == (BOB,)


# == the card row =================================================================================
async def test_take_card_buttons_prices_refusals_and_a_stale_button(rig: Rig) -> None:
    game = await open_game(rig, (ALICE, BOB), ais=1)
    await em(rig, ALICE, "bid", coins=11)  # all her coins: she will be too poor for most cards
    await em(rig, BOB, "bid", coins=0)
    st = await rig.service.status(game)
    alice = next(s.seat for s in st.seats if s.user_id == ALICE)
    panel = followup(await em(rig, ALICE, "play"))
    first = select_in(panel, "first")
    await rig.select(ALICE, panel.response, first["custom_id"], str(alice))
    s = await state(rig, game)
    assert s.current == alice and s.coins[alice] == 0
    calls = await em(rig, ALICE, "play")
    panel = followup(calls)
    assert panel.flags == EPHEMERAL
    takes = buttons_in(panel, "take")
    seq = (await rig.service.status(game)).seq
    assert [b["custom_id"] for b in takes] == [f"em:b:take:{game}:{seq}:{i}" for i in range(6)]
    view = await rig.service.view(game, ALICE)
    for b, card in zip(takes, view["row"], strict=True):
        price = "free" if card["price"] == 0 else f"{card['price']} coin"
        assert b["label"].startswith(f"{card['position'] + 1} · {price}")
        assert card["actions"][0]["do"] in ("place", "move", "sail", "city", "destroy")
        assert bool(b.get("disabled")) == (card["price"] > 0)  # she has no coin left
    # not your turn: Bob presses Alice's button
    calls = await button(rig, BOB, panel.response, takes[0]["custom_id"])
    assert followup(calls).flags == EPHEMERAL and "not your move" in followup(calls).content
    # too poor: a disabled button pressed anyway (a crafted interaction)
    calls = await button(rig, ALICE, panel.response, takes[3]["custom_id"])
    assert "You cannot take card 4: you have 0 coins." in followup(calls).content
    assert (await rig.service.status(game)).seq == seq
    # the free card: taken, and the next step of the turn is offered at once
    card = view["row"][0]
    calls = await button(rig, ALICE, panel.response, takes[0]["custom_id"])
    reply = followup(calls)
    assert reply.content.startswith("Done: Take card 1 (free)")
    s = await state(rig, game)
    assert card["card"] in s.hands[alice]
    assert components(reply)  # the card's action: a select or a choice, and a stop button
    # the same button again: out of date
    calls = await button(rig, ALICE, panel.response, takes[0]["custom_id"])
    assert followup(calls).content == STALE
    assert card["card"] in (await state(rig, game)).hands[alice]


async def _drive_to(rig: Rig, game: str, user: int, kind: str, verbs: tuple[str, ...] = (),
                   two_actions: bool = False) -> None:
    """Play ``user``'s turns through the service until a ``kind`` action is theirs to make.

    They bid 0, take the first card doing one of ``verbs`` (or, with ``two_actions``, one with two
    actions) when they can, choose such an action, and otherwise make their first legal move.
    """
    for _ in range(300):
        st = await rig.service.status(game)
        assert st.status == "active" and user in st.waiting_for
        seq, legal = await rig.service.legal_actions(game, user)
        kinds = {a["kind"] for a in legal}
        if kind in kinds:
            await rig.settle()
            return
        view = await rig.service.view(game, user)
        if "take" in kinds:
            def wanted(card: dict[str, Any]) -> bool:
                if two_actions:
                    return card["combine"] is not None
                return any(x["do"] in verbs for x in card["actions"])
            takes = [a for a in legal if a["kind"] == "take"]
            action = next((a for a in takes if wanted(view["row"][a["position"]])), takes[0])
        elif "choose" in kinds:
            options = {o["index"]: o["do"] for o in view["task"]["options"]}
            choices = [a for a in legal if a["kind"] == "choose"]
            action = next((a for a in choices if options[a["index"]] in verbs), choices[0])
        elif "bid" in kinds:
            action = next(a for a in legal if a["kind"] == "bid" and a["amount"] == 0)
        else:
            action = legal[0]
        await rig.service.submit(game, user, action, seq)
    raise AssertionError(f"no {kind} came")


async def test_a_move_in_two_steps_source_then_destination(rig: Rig) -> None:
    game = await open_game(rig, (ALICE,), ais=2)
    await _drive_to(rig, game, ALICE, "move", ("move", "sail"))
    seq, legal = await rig.service.legal_actions(game, ALICE)
    moves = [a for a in legal if a["kind"] == "move"]
    panel = followup(await em(rig, ALICE, "play"))
    sources = select_in(panel, "from")
    assert sorted(o["value"] for o in sources["options"]) == sorted({a["source"] for a in moves})
    assert buttons_in(panel, "done")  # stopping early is always possible
    source = sources["options"][0]["value"]
    # step one: the region the army leaves; nothing is played yet
    calls = await rig.select(ALICE, panel.response, sources["custom_id"], source)
    step = followup(calls)
    assert (await rig.service.status(game)).seq == seq
    targets = select_in(step, "to")
    assert targets["custom_id"] == f"em:s:to:{game}:{seq}:{source}"
    wanted = sorted(a["to"] for a in moves if a["source"] == source)
    assert sorted(o["value"] for o in targets["options"]) == wanted
    to = targets["options"][-1]["value"]
    before = (await rig.service.view(game, None))["board"]["armies"]
    me = (await rig.service.view(game, ALICE))["you"]["player"]
    # step two: where it goes; one army moves
    reply = followup(await rig.select(ALICE, step.response, targets["custom_id"], to))
    assert reply.content.startswith("Done: Move ")
    after = (await rig.service.view(game, None))["board"]["armies"]
    assert after[source][me] == before[source][me] - 1
    assert after[to][me] == (before.get(to) or [0] * 3)[me] + 1
    log = (await rig.store.actions(game))[seq]
    assert log.action == {"kind": "move", "player": me, "source": source, "to": to}
    # the destination select once more: out of date
    assert followup(await rig.select(ALICE, step.response, targets["custom_id"], to)).content == STALE


# == the score breakdown =========================================================================
async def test_scores_on_demand_are_ephemeral_and_match_the_engine(rig: Rig) -> None:
    game = await open_game(rig, (ALICE,), ais=2)
    await _drive_to(rig, game, ALICE, "move", ("move", "sail"))
    mark = len(rig.fake.calls)
    calls = await em(rig, ALICE, "scores", image=True)
    reply = followup(calls)
    assert deferred(calls).flags == EPHEMERAL and reply.flags == EPHEMERAL
    assert len(reply.files) == 1 and reply.files[0].endswith(".png")
    parts = GAME.score_breakdown(await state(rig, game))
    names = {s.seat: s.name for s in (await rig.service.status(game)).seats}
    for seat, part in enumerate(parts):
        assert re.search(rf"\*\*{names[seat]} \(\w+\)\*\*: {part['total']} = {part['regions']} for regions",
                         reply.content), reply.content
    assert not rig.fake.public_posts(mark)  # nothing public for a look at the scores


async def test_board_is_a_public_picture_and_other_games_are_refused(rig: Rig) -> None:
    game = await open_game(rig, (ALICE,), ais=2)
    calls = await em(rig, BOB, "board", game=game)  # anyone may look
    reply = followup(calls)
    seq = (await rig.service.status(game)).seq
    assert deferred(calls).flags == 0 and reply.flags == 0
    assert reply.files == [f"eight-minute-{game}-{seq}.png"]
    # a History of the World game is not for these commands
    other = followup(await rig.command(BOB, "create", seats=3))
    history = re.search(r"Game `([a-z0-9]+)`", other.content).group(1)  # type: ignore[union-attr]
    reply = followup(await em(rig, BOB, "play", game=history))
    assert reply.flags == EPHEMERAL and "these commands are for Eight-Minute Empire" in reply.content
    # and someone with no game of it is told how to open one
    assert "/annals create ruleset:eight-minute" in followup(await em(rig, BOB, "play")).content


# == a whole game ===================================================================================
async def test_a_whole_two_player_game_by_the_first_choice_every_time(rig: Rig) -> None:
    """Alice against the AI: neutral armies, bid, first player, every card and action by the
    commands and components, always the first option offered, to the end."""
    game = await open_game(rig, (ALICE,), ais=1)
    kinds_seen: set[str] = set()
    reply = followup(await em(rig, ALICE, "play"))
    for _ in range(800):
        if (await rig.service.status(game)).status == "over":
            break
        usable = [c for c in components(reply) if not c.get("disabled")]
        if not usable:
            reply = followup(await em(rig, ALICE, "play"))
            assert components(reply), reply.content
            continue
        first = usable[0]
        kinds_seen.add(first["custom_id"].split(":")[2])
        seq = (await rig.service.status(game)).seq
        if first["type"] == 3:
            calls = await rig.select(ALICE, reply.response, first["custom_id"], first["options"][0]["value"])
        else:
            calls = await button(rig, ALICE, reply.response, first["custom_id"])
        reply = followup(calls)
        assert reply.flags == EPHEMERAL
        assert reply.content != STALE and "not your move" not in reply.content, reply.content
        if not first["custom_id"].startswith("em:s:from:"):
            assert (await rig.service.status(game)).seq > seq, reply.content  # every click made a move
    else:
        raise AssertionError("the game did not end")
    assert kinds_seen >= {"neutral", "bid", "take", "place", "from", "to"}
    s = await state(rig, game)
    assert GAME.is_over(s) and len(s.hands[0]) == len(s.hands[1]) == 13
    log = await rig.store.actions(game)
    assert sum(1 for a in log if a.source == "human" and a.action["kind"] == "neutral") == 5
    # the final scores posted in the game's thread are the engine's
    st = await rig.service.status(game)
    scores = GAME.scores(s)
    names = {x.seat: x.name for x in st.seats}
    thread = "\n".join(c.content for c in rig.fake.channel_posts(channel_id=st.thread_id))
    final = re.search(r"is over\. Final scores: (.*)\.", thread)
    assert final, thread[-500:]
    posted = dict(re.findall(r"(.+?) (\d+)(?:, |$)", final.group(1)))
    assert {n: int(v) for n, v in posted.items()} == {names[p]: scores[p] for p in range(2)}
    # and the breakdown on demand says the same
    text = followup(await em(rig, ALICE, "scores")).content
    for p in range(2):
        assert re.search(rf"{names[p]} \(\w+\) {scores[p]}\b", text.split("Final: ", 1)[1]), text


# == the and/or choice, destroying, after a restart ============================================
async def test_an_and_or_card_offers_its_actions_as_buttons(rig: Rig) -> None:
    game = await open_game(rig, (ALICE,), ais=2)
    await _drive_to(rig, game, ALICE, "choose", two_actions=True)
    seq, legal = await rig.service.legal_actions(game, ALICE)
    task = (await rig.service.view(game, ALICE))["task"]
    panel = followup(await em(rig, ALICE, "play"))
    chooses = buttons_in(panel, "choose")
    wanted = [f"em:b:choose:{game}:{seq}:{o['index']}" for o in task["options"]]
    assert [b["custom_id"] for b in chooses] == wanted
    allowed = {a["index"] for a in legal if a["kind"] == "choose"}
    for b, option in zip(chooses, task["options"], strict=True):
        assert b["label"].split()[0].lower() in ("place", "move", "build", "destroy")
        assert bool(b.get("disabled")) == (option["index"] not in allowed)
    assert [b["label"] for b in buttons_in(panel, "done")] == ["Ignore the card's action"]
    pick = max(allowed)
    reply = followup(await button(rig, ALICE, panel.response, chooses[pick]["custom_id"]))
    assert reply.content.startswith("Done: ")
    log = (await rig.store.actions(game))[seq]
    assert log.action["kind"] == "choose" and log.action["index"] == pick
    after = (await rig.service.view(game, ALICE))["task"]
    assert after is None or after["do"] == task["options"][pick]["do"]


async def test_destroy_offers_every_army_that_may_go(rig: Rig) -> None:
    game = await open_game(rig, (ALICE,), ais=2)
    await _drive_to(rig, game, ALICE, "destroy", ("destroy",))
    seq, legal = await rig.service.legal_actions(game, ALICE)
    targets = [a for a in legal if a["kind"] == "destroy"]
    panel = followup(await em(rig, ALICE, "play"))
    if len(targets) <= 25:
        select = select_in(panel, "destroy")
        wanted = sorted(f"{a['region']}:{a['owner']}" for a in targets)
        assert sorted(o["value"] for o in select["options"]) == wanted
    else:  # the region first, then whose army
        regions = select_in(panel, "destroyin")
        region = regions["options"][0]["value"]
        step = followup(await rig.select(ALICE, panel.response, regions["custom_id"], region))
        select = select_in(step, "destroy")
        panel = step
    value = select["options"][0]["value"]
    region, owner = value.split(":")
    before = (await rig.service.view(game, None))["board"]["armies"][region][int(owner)]
    reply = followup(await rig.select(ALICE, panel.response, select["custom_id"], value))
    assert reply.content.startswith("Done: Destroy a ")
    after = (await rig.service.view(game, None))["board"]["armies"].get(region, [0, 0, 0])
    assert after[int(owner)] == before - 1
    assert (await rig.store.actions(game))[seq].action["kind"] == "destroy"


async def test_a_button_from_before_a_restart_still_works(fake: FakeDiscord, tmp_path: Path) -> None:
    db = tmp_path / "annals.sqlite3"
    first = await Rig(fake, db).open()
    game = await open_game(first, (ALICE,), ais=2)
    await _drive_to(first, game, ALICE, "take")
    panel = followup(await em(first, ALICE, "play"))
    take = buttons_in(panel, "take")[0]
    seq = (await first.service.status(game)).seq
    await first.close()
    second = await Rig(fake, db).open()  # a new process: new client, new service, same database
    try:
        reply = followup(await button(second, ALICE, panel.response, take["custom_id"]))
        assert reply.content.startswith("Done: Take card 1")
        assert (await second.service.status(game)).seq > seq
    finally:
        await second.close()
