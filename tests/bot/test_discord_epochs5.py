"""The 5-epoch rules on Discord: the panel plays them; ``/history`` adds batch invasion and the
standing preferences. Also the Discord defects of issue 13 for this game: the engine's own
``resigned`` event (an empire laying down its armies) was worded as a player resigning from the
game, and ``/annals hand`` answered with the apology once the player held a card.

Uses the harness of :mod:`tests.bot.test_discord_bot`; the game is ``history`` (the 5-epoch rules).
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.discord.kit import APOLOGY
from engine.core import Event
from engine.registry import get_game
from tests.bot.test_discord_bot import (
    ALICE,
    APP_ID,
    BOB,
    EPHEMERAL,
    Call,
    Rig,
    autocomplete,
    entries,
    fake,
    followup,
    kinds,
    no_errors_logged,
    press,
    rig,
)

__all__ = ["fake", "no_errors_logged", "rig"]  # the harness's fixtures, used here by name
pytestmark = pytest.mark.asyncio
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


# == the defects of issue 13 ====================================================================
async def test_an_empire_laying_down_its_armies_is_not_a_player_resigning(rig: Rig) -> None:
    """Issue 13: "a false public line at the end of every empire's turn of every 5-epoch game"."""
    game = await open_history(rig)
    await drive(rig, game, lambda view, legal: view["phase"] == "turn" and view["epoch"] >= 2)
    public = "\n".join(c.content for c in rig.fake.public_posts())
    assert "begins" in public
    assert "resigned from game" not in public
    assert "the AI plays the seat" not in public


async def test_hand_in_a_5_epoch_game_is_the_games_own_words(rig: Rig) -> None:
    """Issue 13: "/annals hand in a 5-epoch game answers with the apology once the player holds a card"."""
    game = await open_history(rig)
    user, _seq, _ = await drive(rig, game, lambda view, legal: view["phase"] == "turn"
                                and bool(view["you"].get("hand")))
    reply = followup(await rig.command(user, "hand", game=game))
    assert reply.flags == EPHEMERAL and APOLOGY not in reply.content
    view = await rig.service.view(game, user)
    held = [RULES.events[k].name if k in RULES.events else RULES.empires[k].name for k in view["you"]["hand"]]
    assert held and all(name in reply.content for name in held), (held, reply.content)
    assert not re.search(r"[{}]|Traceback", reply.content)


# == the draft ==================================================================================
async def test_the_draft_by_the_panel_shows_each_player_only_the_set_they_hold(rig: Rig) -> None:
    game = await open_history(rig)
    epoch_names = all_card_names(1)
    drafted = 0
    while (await rig.service.view(game, None))["phase"] == "draft":
        status = await rig.service.status(game)
        assert status.waiting_for, "the draft waits on an AI?"
        user = status.waiting_for[0]
        other = BOB if user == ALICE else ALICE
        offered = names_of((await rig.service.view(game, user))["you"]["choosing"]["cards"])
        assert offered
        reply = followup(await rig.command(user, "play", game=game))
        assert reply.flags == EPHEMERAL
        shown = "\n".join([reply.content, *(e[0] for e in entries(reply))])
        for name in offered:
            assert name in shown, name
        for name in epoch_names - offered:
            assert name not in shown, name  # nothing from any other set
        # the other person cannot use this panel (both may be choosing at this moment)
        calls = await press(rig, other, reply, entries(reply)[0])
        refused = followup(calls)
        assert refused.flags == EPHEMERAL and f"This is for <@{user}>" in refused.content
        assert not any(name in refused.content for name in offered)
        assert (await rig.service.status(game)).seq == status.seq
        calls = await press(rig, user, reply, entries(reply)[-1])
        assert followup(calls).content.startswith("You chose:")
        drafted += 1
    # two people, a card of a set each at least; a set's last card is no choice: played for its holder
    assert drafted >= 2
    # no public message (channel, thread, status) ever named a card a person holds
    public = "\n".join(c.content for c in rig.fake.public_posts())
    for user in (ALICE, BOB):
        for name in names_of(list((await rig.service.view(game, user))["you"]["hand"])):
            assert name not in public, name


# == batch invasion and preferences ===============================================================
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
    assert first in reply and fight in reply
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
        assert f"({last} not tried)" in reply and "Stopped there" in reply


async def test_prefs_show_and_set_the_standing_choices(rig: Rig) -> None:
    game = await open_history(rig)
    user, _seq, _ = await drive(rig, game, lambda view, legal: view["phase"] == "turn")
    other = ALICE if user == BOB else BOB
    assert (await rig.service.status(game)).waiting_for == (user,)
    game_words = get_game((await rig.service.status(game)).ruleset)
    seat = (await rig.service.view(game, user))["you"]["player"]

    def engine_says(key: str, value: str) -> str:  # the engine's own sentence for the preference
        event = Event("preference", {"player": seat, "key": key, "value": value}, (seat,))
        said = game_words.describe_event(event, ())
        return str(said)

    shown = followup(await hist(rig, user, "prefs"))
    assert shown.flags == EPHEMERAL
    assert engine_says("reroll", "if_losing") in shown.content
    assert engine_says("track", "ask") in shown.content
    assert "when my die" not in shown.content and "ask me" not in shown.content  # no words of the adapter's
    # on your move the preference goes to the engine and stays
    reply = followup(await hist(rig, user, "prefs", reroll="never", track="down")).content
    assert reply.startswith(f"{engine_says('reroll', 'never')}\n{engine_says('track', 'down')}\n"), reply
    assert (await rig.service.view(game, user))["you"]["prefs"] == {"reroll": "never", "track": "down"}
    log = [r.action for r in await rig.store.actions(game)][-2:]
    assert [(a["kind"], a["key"], a["value"]) for a in log] == [
        ("prefer", "reroll", "never"),
        ("prefer", "track", "down"),
    ]
    assert (await rig.service.status(game)).waiting_for == (user,)  # whose move it is did not change
    # the menu of values names each by the engine's sentence, without its lead
    offered = await autocomplete(rig, user, "prefs", "reroll", "", top="history")
    assert [c["value"] for c in offered] == ["if_losing", "if_not_winning", "never"]
    for choice in offered:
        assert choice["name"] in engine_says("reroll", choice["value"]), choice
    # out of your move too: a standing preference is taken at any time, and whose move it is stays
    calls = await hist(rig, other, "prefs", track="up")
    answer = followup(calls)
    assert answer.flags == EPHEMERAL and answer.content.startswith(engine_says("track", "up")), answer.content
    assert (await rig.service.view(game, other))["you"]["prefs"]["track"] == "up"
    assert (await rig.service.status(game)).waiting_for == (user,)


