"""``/annals orders`` through the fake Discord: a seat's standing orders (a game's anytime moves) given
from a panel only its asker sees, seen in ``/annals hand``, withdrawn; nothing reaches anyone else.

7 Ages' orders need a hand and a map no seed deals at once: its
game is opened through the service from the console test's scenario (alice holds Nomad raid, bob's
Romans hold three areas, bob acts first), then every command and click goes through Discord.
"""

from __future__ import annotations

import pytest

from bot.discord.orders import ORDERS, SELECT_ID, OrdersSelect
from bot.discord.panel import SELECT_ID as PANEL_SELECT_ID
from bot.discord.panel import components, first_step
from engine.core import Choice, Decision
from engine.seven_ages.civilisation_moves import Disarm
from engine.seven_ages.game import GAME
from engine.seven_ages.state import SevenState
from tests.test_console_orders import ROMANS, SEAT, raid_table
from tests.test_discord_bot import (
    ALICE,
    BOB,
    CHANNEL_ID,
    EPHEMERAL,
    GUILD_ID,
    TOY,
    Call,
    Rig,
    deferred,
    entries,
    fake,
    followup,
    lobby_to_start,
    no_errors_logged,
    press,
    rig,
)
from tests.test_seven_ages_armed import NOMAD

__all__ = ["fake", "no_errors_logged", "rig"]  # fixtures used by name

pytestmark = pytest.mark.asyncio
HEADING = ("Your standing orders, seen by you alone: arm an event card to be played on another player's "
           "empire as it begins the card's action, or withdraw an order")


async def raid_game(rig: Rig, monkeypatch: pytest.MonkeyPatch) -> str:
    table: SevenState = raid_table(SEAT)  # built before the patch: the builder starts from the real setup
    monkeypatch.setattr(GAME, "setup", lambda players, options, seed: table)
    svc = rig.service
    gid = (await svc.create_lobby(ALICE, "Alice", "seven-ages", seed=42, guild_id=GUILD_ID,
                                  channel_id=CHANNEL_ID)).game_id
    await svc.join(gid, BOB, "Bob")
    await svc.start(gid, ALICE)
    status = await svc.status(gid)
    assert [s.seat for s in status.seats if s.user_id == ALICE] == [SEAT], "the seat draw changed: fix SEAT"
    await rig.settle()
    return gid


def said_of_orders(text: str) -> bool:
    """Whether a message says anything of an order: its card, its empire's areas, arming or withdrawing."""
    return any(word in text.lower() for word in ("nomad", "armed", "withdr", "campania", "latium", "order"))


def labels(call: Call) -> list[str]:
    return [label for label, _, _ in entries(call)]


def entry(call: Call, label: str) -> tuple[str, str, str | None]:
    return next(e for e in entries(call) if e[0] == label)


async def test_alice_arms_nomad_raid_sees_it_in_hand_and_withdraws_it_and_bob_hears_nothing(
        rig: Rig, monkeypatch: pytest.MonkeyPatch) -> None:
    gid = await raid_game(rig, monkeypatch)
    bob_view = await rig.service.view(gid, BOB)
    bob_hand = followup(await rig.command(BOB, "hand", game=gid)).content
    mark = len(rig.fake.calls)

    calls = await rig.command(ALICE, "orders", game=gid)
    assert deferred(calls).flags == EPHEMERAL
    shown = followup(calls)
    assert shown.flags == EPHEMERAL and shown.content == f"**7 Ages**, game `{gid}`: {HEADING}", shown.content
    group = "Arm Nomad raid on the Romans of Bob (Orange)"  # bob holds the orange/yellow counters
    assert labels(shown) == [group]
    assert all(cid.startswith(f"dp:ob:{gid}:") for _, cid, _ in entries(shown))

    opened = followup(await press(rig, ALICE, shown, entry(shown, group)))
    assert opened.flags == EPHEMERAL and opened.content.endswith(f"\n{group}:"), opened.content
    assert labels(opened) == ["Arm Nomad raid on the Romans, disordering Calabria and Campania",
                              "Arm Nomad raid on the Romans, disordering Calabria and Latium",
                              "Arm Nomad raid on the Romans, disordering Campania and Latium"]
    armed = followup(await press(rig, ALICE, opened, entry(opened, labels(opened)[2])))
    assert armed.flags == EPHEMERAL
    assert armed.content.splitlines()[:3] == [
        "You chose: Arm Nomad raid on the Romans, disordering Campania and Latium.",
        "Armed: Nomad raid on the Romans when they manoeuvre, disordering Campania and Latium.",
        f"**7 Ages**, game `{gid}`: {HEADING}"], armed.content
    withdraw = "Withdraw Nomad raid on the Romans, disordering Campania and Latium"
    assert labels(armed) == [group, withdraw]
    _, state = await rig.service.engine_state(gid)
    assert state.people[SEAT].armed == ((NOMAD, ROMANS, "Campania,Latium", 0),)

    hand = followup(await rig.command(ALICE, "hand", game=gid))
    assert hand.flags == EPHEMERAL
    assert "Armed orders, hidden from the others: Nomad raid on the Romans at their Manoeuvre, disordering " \
           "Campania and Latium." in hand.content, hand.content

    # bob: no line in the thread or by DM, the same view (but the move counter), hand and orders. The
    # pinned status may be edited for the move counter alone (data/seven_ages/README.md, "Known trace",
    # closed by the platform's quiet moves): it names no order
    assert not [c.content for c in rig.fake.public_posts(mark) if said_of_orders(c.content)]
    assert not [c.content for c in rig.fake.dm_posts(BOB, mark)]
    after = await rig.service.view(gid, BOB)
    assert {k: v for k, v in after.items() if k != "seq"} == {k: v for k, v in bob_view.items() if k != "seq"}
    assert followup(await rig.command(BOB, "hand", game=gid)).content == bob_hand
    assert not [label for label in labels(followup(await rig.command(BOB, "orders", game=gid)))
                if "Nomad" in label]
    refused = followup(await press(rig, BOB, armed, entry(armed, withdraw)))
    assert refused.flags == EPHEMERAL and refused.content == f"This is for <@{ALICE}>, not for you."

    gone = followup(await press(rig, ALICE, armed, entry(armed, withdraw)))
    assert gone.content.splitlines()[:2] == [
        f"You chose: {withdraw}.",
        "Disarmed: your order on Nomad raid is withdrawn; the card stays in your hand."], gone.content
    assert labels(gone) == [group]
    assert (await rig.service.engine_state(gid))[1].people[SEAT].armed == ()
    assert not [c.content for c in rig.fake.public_posts(mark) if said_of_orders(c.content)]
    assert not [c.content for c in rig.fake.dm_posts(BOB, mark)]


async def test_orders_in_a_game_without_them_is_one_sentence(rig: Rig) -> None:
    game = await lobby_to_start(rig, TOY)
    reply = followup(await rig.command(ALICE, "orders", game=game))
    assert reply.flags == EPHEMERAL
    assert reply.content == ("Goofspiel (test game) has no standing orders: every move in it is made when "
                             "the game asks for it."), reply.content
    assert not entries(reply)


async def test_many_orders_come_in_selects_of_their_own_kind() -> None:
    """More than ten orders: selects whose custom_ids say they are orders (``dp:os:``), a choice in them
    read back by the orders' select, never by the turn's panel."""
    many = Decision(0, HEADING, tuple(Choice(Disarm(0, n), f"Withdraw order {n}") for n in range(1, 13)))
    view = components("g1", 5, ALICE, first_step(many), kinds=ORDERS)
    (select,) = view.children
    assert isinstance(select, OrdersSelect) and select.custom_id == f"dp:os:g1:5:{ALICE}:0"
    assert SELECT_ID.fullmatch(select.custom_id) and not PANEL_SELECT_ID.fullmatch(select.custom_id)
    assert len(select.item.options) == 12
