"""``/history``: the 5-epoch rules on Discord, through the real discord.py tree with no network.

Uses the harness of :mod:`tests.test_discord_bot` (patched ``HTTPClient.request``
and webhook adapter, gateway payloads fed to ``ConnectionState``). Games are
opened as a player would: ``/annals create ruleset:history``, a second person
joins, an AI seat is added, ``/annals start``; then the draft, invasions,
battles, sieges, rerolls, the score track and preferences go through
``/history`` commands and their buttons and selects.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from discord import app_commands

from bot.discord.commands import OUT_OF_DATE
from bot.discord.epochs5 import DRAFT_GONE, draft_value
from engine.history.epochs5.cards import TARGETED
from engine.registry import get_game
from tests.test_discord_bot import (
    ALICE,
    APP_ID,
    BOB,
    CHANNEL_ID,
    EPHEMERAL,
    GUILD_ID,
    NAME_RULE,
    Call,
    Rig,
    deferred,
    fake,
    followup,
    kinds,
    no_errors_logged,
    rig,
)

__all__ = ["fake", "no_errors_logged", "rig"]  # the harness's fixtures, used here by name
pytestmark = pytest.mark.asyncio
CAROL = 700_000_000_000_000_003
RULES = get_game("history").rules  # type: ignore[attr-defined]


# == driving /history ===========================================================================
async def hist(rig: Rig, user_id: int, sub: str, **options: Any) -> list[Call]:
    """``/history SUB option:value ...`` by ``user_id``; returns the REST calls it caused."""
    types = {bool: 5, int: 4, str: 3}
    opts = [{"name": k, "type": types[type(v)], "value": v} for k, v in options.items()]
    data = {
        "id": str(APP_ID + 11),
        "name": "history",
        "type": 1,
        "options": [{"name": sub, "type": 1, "options": opts}],
    }
    mark = len(rig.fake.calls)
    rig.bot._connection.parse_interaction_create(rig._base(user_id, 2, data))  # type: ignore[arg-type]
    await rig.settle()
    return rig.fake.since(mark)


async def hist_auto(rig: Rig, user_id: int, sub: str, focused: str, typed: str) -> list[dict[str, Any]]:
    """The autocomplete choices of ``/history SUB`` for its option ``focused``."""
    data = {
        "id": str(APP_ID + 11),
        "name": "history",
        "type": 1,
        "options": [
            {
                "name": sub,
                "type": 1,
                "options": [{"name": focused, "type": 3, "value": typed, "focused": True}],
            }
        ],
    }
    mark = len(rig.fake.calls)
    rig.bot._connection.parse_interaction_create(rig._base(user_id, 4, data))  # type: ignore[arg-type]
    await rig.settle()
    callback = next(c for c in rig.fake.since(mark) if "/callback" in c.path)
    assert callback.payload["type"] == 8
    return list(callback.payload["data"]["choices"])


async def press(rig: Rig, user_id: int, message: dict[str, Any], custom_id: str) -> list[Call]:
    payload = rig._base(user_id, 3, {"custom_id": custom_id, "component_type": 2})
    payload["message"] = message
    mark = len(rig.fake.calls)
    rig.bot._connection.parse_interaction_create(payload)  # type: ignore[arg-type]
    await rig.settle()
    return rig.fake.since(mark)


def components(reply: Call) -> list[dict[str, Any]]:
    return [c for row in reply.components for c in row["components"]]


def button_for(reply: Call, label_part: str) -> str:
    found = [c for c in components(reply) if c["type"] == 2 and label_part.lower() in c["label"].lower()]
    assert found, [c.get("label") for c in components(reply)]
    return str(found[0]["custom_id"])


async def open_history(rig: Rig, seats: int = 3) -> str:
    """Alice opens a 5-epoch lobby, Bob joins, AI seats fill the rest, Alice starts it."""
    calls = await rig.command(ALICE, "create", ruleset="history", seats=seats, move_time="2d")
    game = re.search(r"Game `([a-z0-9]+)` is open", followup(calls).content)
    assert game, followup(calls).content
    gid = game.group(1)
    assert "You joined" in followup(await rig.command(BOB, "join", game=gid)).content
    for _ in range(seats - 2):
        assert "AI seat was added" in followup(await rig.command(ALICE, "add-ai")).content
    assert "has started" in followup(await rig.command(ALICE, "start")).content
    status = await rig.service.status(gid)
    assert status.ruleset == "history" and status.status == "active"
    return gid


def names_of(keys: list[str]) -> set[str]:
    return {RULES.events[k].name if k in RULES.events else RULES.empires[k].name for k in keys}


def all_card_names(epoch: int) -> set[str]:
    return {c.name for c in RULES.events.values() if c.epoch == epoch} | {e.name for e in RULES.epochs[epoch]}


def choose(view: dict[str, Any], legal: list[dict[str, Any]], me: int) -> dict[str, Any]:
    """A fixed way of playing that seeks battles, plays its events, sieges and keeps its dice."""
    ks = kinds(legal)
    step = (view.get("turn") or {}).get("step")
    if "draft" in ks:

        def rank(a: dict[str, Any]) -> tuple[int, str]:
            key = str(a["card"])
            effect = RULES.empires[key].effect if key in RULES.empires else RULES.events[key].effect
            return (0 if effect == "reroll" else 1, key)

        return sorted(legal, key=rank)[0]
    if "play" in ks and step == "invade":
        return next(a for a in legal if a["kind"] == "play")
    if "invade" in ks:
        armies = view["board"]["armies"]
        fights = [
            a for a in legal if a["kind"] == "invade" and a["land"] in armies and armies[a["land"]][0] != me
        ]
        return (fights or [a for a in legal if a["kind"] == "invade"])[0]
    for kind in ("accept", "siege", "choose", "done", "track", "stop"):
        found = [a for a in legal if a["kind"] == kind]
        if found:
            return found[0]
    return legal[0]


async def drive(
    rig: Rig, game: str, until: Any, limit: int = 400, policy: Any = None
) -> tuple[int, int, list[dict[str, Any]]]:
    """Play ``policy`` (default :func:`choose`) for the people through the service until ``until``."""
    for _ in range(limit):
        status = await rig.service.status(game)
        assert status.status == "active", "the game ended before the wanted position"
        user = status.waiting_for[0]
        seq, legal = await rig.service.legal_actions(game, user)
        view = await rig.service.view(game, user)
        if until(view, legal):
            await rig.settle()
            return user, seq, legal
        await rig.service.submit(game, user, (policy or choose)(view, legal, view["you"]["player"]), seq)
    raise AssertionError("the wanted position never came")


def a_battle(view: dict[str, Any], legal: list[dict[str, Any]]) -> bool:
    armies = view["board"]["armies"]
    me = view["you"]["player"]
    return any(a["kind"] == "invade" and a["land"] in armies and armies[a["land"]][0] != me for a in legal)


# == the draft ==================================================================================
async def test_the_draft_through_discord_shows_each_player_only_the_set_they_hold(rig: Rig) -> None:
    game = await open_history(rig)
    thread = (await rig.service.status(game)).thread_id
    assert thread is not None
    epoch_names = all_card_names(1)
    drafted = 0
    while (await rig.service.view(game, None))["phase"] == "draft":
        status = await rig.service.status(game)
        assert status.waiting_for, "the draft waits on an AI?"
        user = status.waiting_for[0]
        other = BOB if user == ALICE else ALICE
        before = await rig.service.view(game, user)
        offered = names_of(before["you"]["choosing"]["cards"])
        assert offered
        # the whole remaining set, with each card's text, to this player alone
        calls = await hist(rig, user, "draft")
        assert deferred(calls).flags == EPHEMERAL
        reply = followup(calls)
        assert reply.flags == EPHEMERAL
        for name in offered:
            assert f"**{name}**" in reply.content
        for name in epoch_names - offered:
            assert name not in reply.content, name  # nothing from any other set
        select = components(reply)[0]
        assert select["custom_id"] == f"hist:draft:{game}:{user}:0"
        assert {o["label"] for o in select["options"]} == offered
        assert all(o.get("description") for o in select["options"])
        # the other person cannot use this select (both may be choosing at this moment)
        calls = await rig.select(other, reply.response, select["custom_id"], select["options"][0]["value"])
        assert followup(calls).flags == EPHEMERAL and "not for you" in followup(calls).content
        assert (await rig.service.status(game)).seq == status.seq
        for name in offered:
            assert name not in followup(calls).content
        # keep the last card offered, through the select
        option = select["options"][-1]
        calls = await rig.select(user, reply.response, select["custom_id"], option["value"])
        answer = followup(calls)
        assert answer.flags == EPHEMERAL
        after = await rig.service.view(game, user)
        kept = option["label"]
        empire = [after["you"]["empire"]] if after["you"]["empire"] else []
        assert kept in names_of(list(after["you"]["hand"]) + empire)
        drafted += 1
        # the same card again: it is no longer in front of them
        calls = await rig.select(user, reply.response, select["custom_id"], option["value"])
        assert followup(calls).content == DRAFT_GONE
    assert drafted >= 4  # two people, a card of each set each at least
    # no public message (channel, thread, status) ever named a card of this epoch's draft
    public = "\n".join(c.content for c in rig.fake.public_posts())
    held = set()
    for user in (ALICE, BOB):
        you = (await rig.service.view(game, user))["you"]
        held |= names_of(list(you["hand"]))
    for name in held:
        assert name not in public, name


async def test_a_middle_player_chooses_one_set_then_the_other(rig: Rig) -> None:
    game = await open_history(rig)
    # find the step where one person holds both sets (3 players: the middle step)
    user, _seq, legal = await drive(
        rig,
        game,
        lambda view, legal: (
            view["phase"] == "draft"
            and (view["draft"]["event_holder"] == view["draft"]["empire_holder"] == view["you"]["player"])
        ),
    )
    view = await rig.service.view(game, user)
    first = view["you"]["choosing"]["pile"]
    calls = await hist(rig, user, "draft", card=legal[0]["card"])
    reply = followup(calls)
    assert f"You keep **{names_of([legal[0]['card']]).pop()}**" in reply.content
    # and at once the other set, in the same answer, with its select
    second = "empire" if first == "event" else "event"
    assert f"Choose the {second} card you keep" in reply.content
    now = await rig.service.view(game, user)
    assert now["you"]["choosing"]["pile"] == second
    select = components(reply)[0]
    assert {o["label"] for o in select["options"]} == names_of(now["you"]["choosing"]["cards"])


# == invading, battles ==========================================================================
async def test_invade_autocomplete_routes_and_a_battle_with_its_dice(rig: Rig) -> None:
    game = await open_history(rig)
    user, seq, legal = await drive(rig, game, a_battle)
    view = await rig.service.view(game, user)
    armies = view["board"]["armies"]
    lands = {a["land"] for a in legal if a["kind"] == "invade"}
    choices = await hist_auto(rig, user, "invade", "land", "")
    assert {c["value"] for c in choices} == lands if len(lands) <= 25 else len(choices) == 25
    assert all(re.search(r" - by (border|caravan|fleet)", c["name"]) for c in choices), choices
    other = ALICE if user == BOB else BOB
    assert await hist_auto(rig, other, "invade", "land", "") == []
    # a force's neighbours are offered "by border"
    force = view["turn"]["force"]
    mine = [land for land, army in armies.items() if army[1] == force]
    neighbour = next(c for c in choices if any(c["value"] in RULES.map.neighbours(m) for m in mine))
    assert "by border" in neighbour["name"]
    target = next(
        a["land"]
        for a in legal
        if a["kind"] == "invade" and a["land"] in armies and armies[a["land"]][0] != view["you"]["player"]
    )
    # /history moves: the lands on a picture of the board, outlined, to this player alone
    shown = followup(await hist(rig, user, "moves"))
    assert shown.flags == EPHEMERAL and shown.files == [f"history-{game}-{seq}-targets.png"]
    assert "You may invade: " + ", ".join(sorted(lands)) in shown.content
    calls = await hist(rig, user, "invade", land=target)
    assert deferred(calls).flags == EPHEMERAL
    reply = followup(calls)
    assert reply.flags == EPHEMERAL and f"Battle for {target}: " in reply.content
    battle = next(r for r in await rig.store.actions(game) if r.seq == seq + 1)
    assert battle.action == {"kind": "invade", "land": target, "route": "auto", "player": battle.player}
    dice = re.search(rf"Battle for {re.escape(target)}: ([1-6](-[1-6])*)", reply.content)
    assert dice and len(dice.group(1).split("-")) == 2  # the invader's two dice


async def test_the_dice_of_a_battle_are_shown_in_the_thread(rig: Rig) -> None:
    game = await open_history(rig)
    user, _seq, legal = await drive(rig, game, a_battle)
    view = await rig.service.view(game, user)
    armies = view["board"]["armies"]
    target = next(
        a["land"]
        for a in legal
        if a["kind"] == "invade" and a["land"] in armies and armies[a["land"]][0] != view["you"]["player"]
    )
    thread = (await rig.service.status(game)).thread_id
    assert thread is not None
    mark = len(rig.fake.calls)
    await hist(rig, user, "invade", land=target)
    posts = "\n".join(c.content for c in rig.fake.channel_posts(mark, channel_id=thread))
    assert re.search(rf"Battle for {re.escape(target)}: [1-6]-[1-6]", posts), posts


async def test_siege_or_retreat_after_a_lost_battle(rig: Rig) -> None:
    game = await open_history(rig)
    user, seq, _legal = await drive(rig, game, lambda view, legal: kinds(legal) == {"siege", "retreat"})
    view = await rig.service.view(game, user)
    land = view["turn"]["battle"]["land"]
    calls = await hist(rig, user, "moves")
    reply = followup(calls)
    assert f"You lost the battle for {land}" in reply.content
    siege = button_for(reply, "siege")
    assert siege.startswith(f"hist:do:{game}:{seq}:")
    calls = await press(rig, user, reply.response, siege)
    assert deferred(calls).flags == EPHEMERAL
    answer = followup(calls).content
    assert f"Siege of {land}: the catapult stands at +1." in answer and f"Battle for {land}" in answer
    log = await rig.store.actions(game)
    assert [r.action["kind"] for r in log if r.seq == seq + 1] == ["siege"]
    # the same button again: out of date
    assert followup(await press(rig, user, reply.response, siege)).content == OUT_OF_DATE
    # lose again somewhere: retreat by command this time
    user, seq, _ = await drive(rig, game, lambda view, legal: kinds(legal) == {"siege", "retreat"})
    land = (await rig.service.view(game, user))["turn"]["battle"]["land"]
    calls = await hist(rig, user, "retreat")
    assert "retreats from " + land in followup(calls).content
    after = await rig.service.view(game, user)
    assert after["turn"]["battle"] is None and after["turn"]["catapult"] == 0


async def test_reroll_or_keep_the_dice(rig: Rig) -> None:
    game = await open_history(rig)
    user, seq, _legal = await drive(rig, game, lambda view, legal: "reroll" in kinds(legal))
    battle = (await rig.service.view(game, user))["turn"]["battle"]
    reply = followup(await hist(rig, user, "moves"))
    assert f"Battle for {battle['land']}: your dice {battle['att'][0]}, {battle['att'][1]}" in reply.content
    labels = {c["label"] for c in components(reply)}
    assert labels == {"Reroll die 1", "Reroll die 2", "Keep the dice"}
    calls = await hist(rig, user, "reroll", die=2)
    answer = followup(calls).content
    assert f"rerolls a {battle['att'][1]} and gets a" in answer
    log = await rig.store.actions(game)
    assert next(r.action for r in log if r.seq == seq + 1)["die"] == 1
    # later, keep the dice through the button
    user, seq, _ = await drive(rig, game, lambda view, legal: "reroll" in kinds(legal))
    reply = followup(await hist(rig, user, "moves"))
    calls = await press(rig, user, reply.response, button_for(reply, "keep the dice"))
    assert deferred(calls).flags == EPHEMERAL
    assert next(r.action for r in await rig.store.actions(game) if r.seq == seq + 1)["kind"] == "accept"


async def test_batch_invasion_stops_at_the_first_battle_not_won(rig: Rig) -> None:
    game = await open_history(rig)

    def battle_and_more(view: dict[str, Any], legal: list[dict[str, Any]]) -> bool:
        free = {
            a["land"] for a in legal if a["kind"] == "invade" and a["land"] not in view["board"]["armies"]
        }
        return a_battle(view, legal) and len(free) >= 2 and view["turn"]["armies"] >= 3

    user, seq, legal = await drive(rig, game, battle_and_more)
    view = await rig.service.view(game, user)
    me = view["you"]["player"]
    armies = view["board"]["armies"]
    fight = next(
        a["land"]
        for a in legal
        if a["kind"] == "invade" and a["land"] in armies and armies[a["land"]][0] != me
    )
    first, last = sorted({a["land"] for a in legal if a["kind"] == "invade" and a["land"] not in armies})[:2]
    calls = await hist(rig, user, "invade", lands=f"{first}, {fight}, {last}")
    reply = followup(calls).content
    assert f"invades {first}." in reply and f"Battle for {fight}" in reply
    tried = [
        r.action["land"]
        for r in await rig.store.actions(game)
        if r.seq > seq and r.player == me and r.action["kind"] == "invade"
    ]
    now = await rig.service.view(game, user)
    won = (now["board"]["armies"].get(fight) or [None])[0] == me and now["turn"]["battle"] is None
    if won:
        assert tried == [first, fight, last]
    else:  # lost, tied, or waiting on a reroll or siege decision: the last land was not tried
        assert tried == [first, fight]
        assert f"({last} not tried)" in reply


async def test_invade_by_fleet_when_a_land_is_reachable_both_ways(rig: Rig) -> None:
    game = await open_history(rig)

    def both_ways(view: dict[str, Any], legal: list[dict[str, Any]]) -> bool:
        return any(a["kind"] == "invade" and a.get("route") == "sea" for a in legal)

    user, seq, legal = await drive(rig, game, both_ways)
    land = next(a["land"] for a in legal if a["kind"] == "invade" and a.get("route") == "sea")
    choices = await hist_auto(rig, user, "invade", "land", land)
    assert any(c["value"] == land and "or fleet" in c["name"] for c in choices), choices
    calls = await hist(rig, user, "invade", land=land, route="fleet")
    assert followup(calls).flags == EPHEMERAL
    done = next(r.action for r in await rig.store.actions(game) if r.seq == seq + 1)
    assert done["kind"] == "invade" and done["land"] == land and done["route"] == "sea"


async def test_fortify_and_an_event_with_its_target_select(rig: Rig) -> None:
    game = await open_history(rig)
    user, _, legal = await drive(rig, game, lambda view, legal: "fortify" in kinds(legal))
    sites = {a["land"] for a in legal if a["kind"] == "fortify"}
    assert {c["value"] for c in await hist_auto(rig, user, "fortify", "land", "")} == sites
    site = sorted(sites)[0]
    calls = await hist(rig, user, "fortify", land=site)
    assert f"A fort is built in {site}." in followup(calls).content
    assert site in (await rig.service.view(game, None))["board"]["forts"]

    # an enhancement with a target: played by command, its target chosen in the select
    def targeted(view: dict[str, Any], legal: list[dict[str, Any]]) -> bool:
        return (
            view["phase"] == "turn"
            and view["turn"]["step"] == "invade"
            and any(a["kind"] == "play" and RULES.events[a["card"]].effect in TARGETED for a in legal)
        )

    user, _seq, legal = await drive(rig, game, targeted)
    cards = {a["card"] for a in legal if a["kind"] == "play"}
    assert {c["value"] for c in await hist_auto(rig, user, "event", "card", "")} == cards
    card = sorted(c for c in cards if RULES.events[c].effect in TARGETED)[0]
    reply = followup(await hist(rig, user, "event", card=RULES.events[card].name))
    assert f"plays {RULES.events[card].name}." in reply.content
    assert f"Choose a target for {RULES.events[card].name}." in reply.content
    now, legal = await rig.service.legal_actions(game, user)
    select = components(reply)[0]
    assert select["custom_id"] == f"hist:pick:{game}:{now}:0:{user}"
    targets = [a["target"] for a in legal if a["kind"] == "choose"]
    assert targets and {c["value"] for c in await hist_auto(rig, user, "target", "target", "")} == set(
        targets
    )
    index = next(i for i, a in enumerate(legal) if a["kind"] == "choose")
    calls = await rig.select(user, reply.response, select["custom_id"], str(index))
    assert followup(calls).flags == EPHEMERAL
    chosen = next(r.action for r in await rig.store.actions(game) if r.seq == now + 1)
    assert chosen == {"kind": "choose", "target": legal[index]["target"], "player": chosen["player"]}


def kingdoms_first(view: dict[str, Any], legal: list[dict[str, Any]], me: int) -> dict[str, Any]:
    """:func:`choose`, but drafting kingdom events whenever one is offered."""
    kingdoms = [
        a
        for a in legal
        if a["kind"] == "draft" and a["card"] in RULES.events and RULES.events[a["card"]].is_kingdom
    ]
    return kingdoms[0] if kingdoms else choose(view, legal, me)


async def test_a_kingdom_is_played_before_the_empire(rig: Rig) -> None:
    # three people and no AI (the AI takes kingdoms first): Carol takes the third seat
    calls = await rig.command(ALICE, "create", ruleset="history", seats=3)
    game = re.search(r"Game `([a-z0-9]+)`", followup(calls).content).group(1)  # type: ignore[union-attr]
    for person in (BOB, CAROL):
        assert "You joined" in followup(await rig.command(person, "join", game=game)).content
    assert "has started" in followup(await rig.command(ALICE, "start")).content
    user, _seq, legal = await drive(
        rig,
        game,
        lambda view, legal: (view.get("turn") or {}).get("step") == "kingdom",
        policy=kingdoms_first,
    )
    kingdoms = [a["card"] for a in legal if a["kind"] == "play"]
    choices = await hist_auto(rig, user, "kingdom", "card", "")
    assert {c["value"] for c in choices} == {*kingdoms, "__skip__"}
    other = ALICE if user == BOB else BOB
    assert await hist_auto(rig, other, "kingdom", "card", "") == []
    reply = followup(await hist(rig, user, "kingdom", card=kingdoms[0]))
    name = RULES.events[kingdoms[0]].name
    assert f"plays the kingdom {name}" in reply.content
    view = await rig.service.view(game, user)
    assert view["turn"]["force_kind"] == "kingdom" and view["turn"]["step"] == "invade"
    assert "Your kingdom:" in reply.content


# == refusals ===================================================================================
async def test_refusals_say_why(rig: Rig) -> None:
    game = await open_history(rig)
    user, seq, legal = await drive(rig, game, lambda view, legal: "invade" in kinds(legal))
    other = ALICE if user == BOB else BOB
    # not your move
    calls = await hist(rig, other, "invade", land="Gaul")
    assert followup(calls).flags == EPHEMERAL and "not your move" in followup(calls).content
    # a land that cannot be invaded: the engine's reason, nothing applied
    lands = {a["land"] for a in legal if a["kind"] == "invade"}
    far = next(x for x in ("Australia", "Horn", "Cape", "Britannia", "Wei") if x not in lands)
    calls = await hist(rig, user, "invade", land=far)
    answer = followup(calls)
    assert answer.flags == EPHEMERAL and far in answer.content and "not adjacent" in answer.content
    calls = await hist(rig, user, "invade", land="Atlantis")
    assert followup(calls).flags == EPHEMERAL and "Atlantis" in followup(calls).content
    assert (await rig.service.status(game)).seq == seq
    # a decision that does not exist now
    calls = await hist(rig, user, "siege")
    assert "no lost battle" in followup(calls).content
    # the stop confirmation, pressed after the game moved on, is out of date
    reply = followup(await hist(rig, user, "stop"))
    assert "Stop invading" in reply.content and (await rig.service.status(game)).seq == seq
    stop = button_for(reply, "stop invading")
    land = sorted(lands)[0]
    await hist(rig, user, "invade", land=land)
    assert (await rig.service.status(game)).seq > seq
    calls = await press(rig, user, reply.response, stop)
    assert followup(calls).content == OUT_OF_DATE and followup(calls).flags == EPHEMERAL
    # a game of another ruleset is not played with /history
    calls = await rig.command(ALICE, "create", seats=3)
    classic = re.search(r"Game `([a-z0-9]+)`", followup(calls).content).group(1)  # type: ignore[union-attr]
    calls = await hist(rig, ALICE, "moves", game=classic)
    assert "not played with the 5-epoch rules" in followup(calls).content
    # without game: the caller's one 5-epoch game, though they now play another game too
    assert "Your preferences:" in followup(await hist(rig, ALICE, "prefs")).content


# == preferences ================================================================================
async def test_prefs_show_and_set_the_standing_choices(rig: Rig) -> None:
    game = await open_history(rig)
    user, _seq, _ = await drive(rig, game, lambda view, legal: view["phase"] == "turn")
    other = ALICE if user == BOB else BOB
    assert (await rig.service.status(game)).waiting_for == (user,)
    shown = followup(await hist(rig, user, "prefs"))
    assert shown.flags == EPHEMERAL
    assert "reroll: reroll when my die is losing" in shown.content and "track: ask me" in shown.content
    # on your move the preference goes to the engine and stays
    reply = followup(await hist(rig, user, "prefs", reroll="never", track="down")).content
    assert "From now on, reroll: never reroll." in reply and "From now on, track: lose a point." in reply
    assert (await rig.service.view(game, user))["you"]["prefs"] == {"reroll": "never", "track": "down"}
    log = [r.action for r in await rig.store.actions(game)][-2:]
    assert [(a["kind"], a["key"], a["value"]) for a in log] == [
        ("prefer", "reroll", "never"),
        ("prefer", "track", "down"),
    ]
    assert (await rig.service.status(game)).waiting_for == (user,)  # whose move it is did not change
    # out of your move too: a standing preference is taken at any time, and whose move it is stays
    calls = await hist(rig, other, "prefs", track="up")
    answer = followup(calls)
    assert answer.flags == EPHEMERAL and "From now on, track: gain a point." in answer.content
    assert (await rig.service.view(game, other))["you"]["prefs"]["track"] == "up"
    assert (await rig.service.status(game)).waiting_for == (user,)


async def test_score_track_choice_up_or_down(rig: Rig) -> None:
    game = await open_history(rig, seats=6)  # more markers on the track: a landing on another comes sooner
    user, seq, _legal = await drive(rig, game, lambda view, legal: kinds(legal) == {"track"})
    at = (await rig.service.view(game, user))["turn"]["track"]["at"]
    reply = followup(await hist(rig, user, "moves"))
    assert f"would land on {at}" in reply.content
    calls = await hist(rig, user, "track", direction="up")
    assert "moves the score marker up to" in followup(calls).content
    view = await rig.service.view(game, None)
    me = next(r.player for r in await rig.store.actions(game) if r.seq == seq + 1)
    assert view["scores"][me] > at - 1 and view["scores"].count(view["scores"][me]) == 1


# == a whole game ===============================================================================
async def test_a_whole_game_with_one_person_and_two_ai_seats(rig: Rig) -> None:
    calls = await rig.command(ALICE, "create", ruleset="history", seats=3, move_time="2d")
    game = re.search(r"Game `([a-z0-9]+)`", followup(calls).content).group(1)  # type: ignore[union-attr]
    await rig.command(ALICE, "add-ai")
    await rig.command(ALICE, "add-ai")
    await rig.command(ALICE, "start")
    moves = 0
    while (await rig.service.status(game)).status == "active":
        status = await rig.service.status(game)
        assert status.waiting_for == (ALICE,)
        view = await rig.service.view(game, ALICE)
        seq, legal = await rig.service.legal_actions(game, ALICE)
        action = choose(view, legal, view["you"]["player"])
        if action["kind"] == "invade":
            calls = await hist(rig, ALICE, "invade", land=action["land"])
        elif action["kind"] == "play":
            calls = await hist(rig, ALICE, "event", card=action["card"])
        elif action["kind"] == "stop":
            reply = followup(await hist(rig, ALICE, "stop"))
            calls = await press(rig, ALICE, reply.response, button_for(reply, "stop invading"))
        else:  # drafts, targets, battles, the track: the buttons and selects of /history moves
            reply = followup(await hist(rig, ALICE, "moves"))
            index = legal.index(action)
            found = [
                c
                for c in components(reply)
                if c["custom_id"].startswith(f"hist:do:{game}:{seq}:{index}:{ALICE}")
            ]
            if found:
                calls = await press(rig, ALICE, reply.response, found[0]["custom_id"])
            elif components(reply)[0]["custom_id"].startswith("hist:draft:"):
                select = components(reply)[0]
                calls = await rig.select(ALICE, reply.response, select["custom_id"], draft_value(action))
            else:
                select = components(reply)[index // 25]
                calls = await rig.select(ALICE, reply.response, select["custom_id"], str(index))
        assert followup(calls).flags == EPHEMERAL
        assert (await rig.service.status(game)).seq > seq, followup(calls).content
        moves += 1
    status = await rig.service.status(game)
    assert status.status == "over" and status.scores is not None and moves > 30
    assert (await rig.service.view(game, None))["epoch"] == 5


async def test_classic_drafting_keep_or_give(rig: Rig) -> None:
    out = await rig.service.create_lobby(
        ALICE,
        "alice",
        "history",
        options={"classic_drafting": True},
        max_seats=3,
        guild_id=GUILD_ID,
        channel_id=CHANNEL_ID,
    )
    game = out.game_id
    await rig.command(BOB, "join", game=game)
    await rig.command(ALICE, "add-ai")
    await rig.command(ALICE, "start")
    user, seq, legal = await drive(
        rig, game, lambda view, legal: "give" in kinds(legal) and "keep" in kinds(legal)
    )
    drawn = (await rig.service.view(game, user))["you"]["choosing"]
    reply = followup(await hist(rig, user, "moves"))
    assert reply.flags == EPHEMERAL and names_of(drawn["cards"]).pop() in reply.content
    select = components(reply)[0]
    assert select["custom_id"] == f"hist:draft:{game}:{user}:0"
    assert {o["value"] for o in select["options"]} == {draft_value(a) for a in legal}
    # give it by command, to a seat offered by autocomplete
    choices = await hist_auto(rig, user, "give", "to", "")
    assert {c["value"] for c in choices} == {str(a["to"] + 1) for a in legal if a["kind"] == "give"}
    calls = await hist(rig, user, "give", to=choices[0]["value"])
    assert followup(calls).flags == EPHEMERAL
    done = next(r.action for r in await rig.store.actions(game) if r.seq == seq + 1)
    assert done["kind"] == "give" and done["to"] == int(choices[0]["value"]) - 1
    # the card's name went to nobody else
    public = "\n".join(c.content for c in rig.fake.public_posts())
    assert names_of(drawn["cards"]).pop() not in public
    # keep, next time one may
    user, seq, _ = await drive(rig, game, lambda view, legal: "keep" in kinds(legal))
    calls = await hist(rig, user, "keep")
    assert next(r.action for r in await rig.store.actions(game) if r.seq == seq + 1)["kind"] == "keep"


async def test_every_history_command_has_a_valid_name_and_description(rig: Rig) -> None:
    group = next(c for c in rig.bot.tree.get_commands() if c.name == "history")
    assert isinstance(group, app_commands.Group) and len(group.commands) <= 25
    entries = [{"name": group.name, "description": group.description}]
    for command in group.commands:
        assert isinstance(command, app_commands.Command)
        entries.append({"name": command.name, "description": command.description})
        entries += [{"name": p.display_name, "description": p.description} for p in command.parameters]
    for entry in entries:
        assert NAME_RULE.fullmatch(entry["name"]), entry
        assert 1 <= len(entry["description"]) <= 100, entry
    assert {
        "draft",
        "keep",
        "give",
        "kingdom",
        "invade",
        "siege",
        "retreat",
        "reroll",
        "accept",
        "event",
        "target",
        "done",
        "fortify",
        "stop",
        "track",
        "prefs",
        "moves",
    } <= {c.name for c in group.commands}
