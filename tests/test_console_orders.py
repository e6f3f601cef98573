"""The console's ``orders``: a seat's standing orders (a game's anytime moves) given, seen and withdrawn.

7 Ages' orders need a hand and a map no seed deals at once: its
game is opened through the service from a scenario (the game's ``setup`` answers with it), then every
command is typed at the console. alice holds Nomad raid ("manoeuvre, another player's empire": it
disorders 2 areas); bob's Romans hold Latium, Campania and Calabria, so the raid can be armed three ways.
"""

from __future__ import annotations

import pytest

import tests.toy.spec  # noqa: F401  (the test-only game)
from bot.console import user_id_for
from engine.seven_ages.game import GAME
from engine.seven_ages.state import SevenState
from tests.seven_ages_builder import Scenario, card
from tests.test_console import Rig, rig
from tests.test_seven_ages_armed import GHAZI, NOMAD

__all__ = ["rig"]  # the fixture, used by name
ROMANS = card("Romans")
ALICE, BOB = user_id_for("alice"), user_id_for("bob")
SEAT = 1  # alice's seat: the service draws seats from the game's seed (42), the same draw every run


def raid_table(alice: int) -> SevenState:
    """alice (seat ``alice``) holds Nomad raid and the Parthians; bob holds Ghazi raid and the Romans, on
    three areas, and turns his markers over first."""
    bob = 1 - alice
    s = Scenario(players=2)
    s.empire("Parthians", owner=alice, progress=10, money=2, units={"Tuscany": {"Spear": 1}})
    s.empire("Romans", owner=bob, progress=10, money=5,
             units={"Latium": {"Spear": 3}, "Campania": {"Spear": 2}, "Calabria": {"Spear": 1}})
    s.hand(alice, NOMAD).hand(bob, GHAZI).marker(bob, "manoeuvre", "Romans").first(bob)
    return s.at("manoeuvre").state


async def raid_game(rig: Rig, monkeypatch: pytest.MonkeyPatch) -> tuple[str, list[str]]:
    """The game (alice in seat :data:`SEAT`, bob in the other) and the names of alice and bob; what the
    start printed is read."""
    table = raid_table(SEAT)  # built before the patch: the builder starts from the real setup
    monkeypatch.setattr(GAME, "setup", lambda players, options, seed: table)
    gid = (await rig.service.create_lobby(ALICE, "alice", "seven-ages", seed=42)).game_id
    await rig.service.join(gid, BOB, "bob")
    await rig.service.start(gid, ALICE)
    status = await rig.service.status(gid)
    assert [s.seat for s in status.seats if s.user_id == ALICE] == [SEAT], "the seat draw changed: fix SEAT"
    await rig.run()
    return gid, [status.seat_names[SEAT], status.seat_names[1 - SEAT]]


@pytest.mark.asyncio
async def test_alice_arms_nomad_raid_from_orders_sees_it_in_hand_and_withdraws_it(
        rig: Rig, monkeypatch: pytest.MonkeyPatch) -> None:
    gid, names = await raid_game(rig, monkeypatch)
    alice, bob = names
    assert (alice, bob) == ("alice (Red)", "bob (Orange)")  # by the counters each holds (the builder's)
    bob_view = await rig.service.view(gid, BOB)
    bob_hand = await rig.run("/as bob hand")

    out = await rig.run("/as alice orders")
    assert out == (
        f"[to {alice}] {gid}: Your standing orders, seen by you alone: arm an event card to be played on "
        "another player's empire as it begins the card's action, or withdraw an order (orders N, or the "
        "words of an order)\n"
        f"  1. Arm Nomad raid on the Romans of {bob}: 3 ways ('orders 1' lists them)\n"), out
    out = await rig.run("orders 1")
    assert out == (f"[to {alice}] Arm Nomad raid on the Romans of {bob}:\n"
                   "  1.1. Arm Nomad raid on the Romans, disordering Calabria and Campania\n"
                   "  1.2. Arm Nomad raid on the Romans, disordering Calabria and Latium\n"
                   "  1.3. Arm Nomad raid on the Romans, disordering Campania and Latium\n"), out
    out = await rig.run("orders 1.3")
    assert out == (f"[to {alice}] Armed: Nomad raid on the Romans when they manoeuvre, disordering Campania "
                   "and Latium.\n"), out  # to alice alone: no line for the table, none for bob
    _, state = await rig.service.engine_state(gid)
    assert state.people[SEAT].armed == ((NOMAD, ROMANS, "Campania,Latium", 0),)

    out = await rig.run("hand")
    assert "Armed orders, hidden from the others: Nomad raid on the Romans at their Manoeuvre, disordering " \
           "Campania and Latium." in out, out
    out = await rig.run("orders")
    assert "  2. Withdraw Nomad raid on the Romans, disordering Campania and Latium\n" in out, out

    # bob sees nothing of it: his view (but the move counter), his hand and his orders are as they were
    after = await rig.service.view(gid, BOB)
    assert {k: v for k, v in after.items() if k != "seq"} == {k: v for k, v in bob_view.items() if k != "seq"}
    assert await rig.run("/as bob hand") == bob_hand
    assert "Nomad" not in await rig.run("orders")

    out = await rig.run("/as alice orders withdraw nomad")
    assert out == (f"[to {alice}] Disarmed: your order on Nomad raid is withdrawn; the card stays in your "
                   "hand.\n"), out
    assert (await rig.service.engine_state(gid))[1].people[SEAT].armed == ()
    assert "Armed orders" not in await rig.run("hand")


@pytest.mark.asyncio
async def test_orders_refuses_what_is_not_an_order_and_lists_words_that_fit_several(
        rig: Rig, monkeypatch: pytest.MonkeyPatch) -> None:
    gid, names = await raid_game(rig, monkeypatch)
    alice = names[0]
    assert await rig.run("/as alice orders 7") == "[alice] There is no order 7; type 'orders' to list them.\n"
    assert await rig.run("orders 1.9") == \
        "[alice] There is no order 1.9; type 'orders 1' to list them.\n"
    assert await rig.run("orders bake a cake") == \
        "[alice] That is not one of your orders; type 'orders' to list them.\n"
    out = await rig.run("orders arm nomad calabria")
    assert out == (f"[to {alice}] 'arm nomad calabria' fits 2 orders; nothing was sent. Type its number or "
                   "more of its words:\n"
                   "  1.1. Arm Nomad raid on the Romans, disordering Calabria and Campania\n"
                   "  1.2. Arm Nomad raid on the Romans, disordering Calabria and Latium\n"), out
    assert (await rig.service.engine_state(gid))[1].people[SEAT].armed == ()
    out = await rig.run("orders arm nomad calabria latium")
    assert out.startswith(f"[to {alice}] Armed: Nomad raid on the Romans"), out


@pytest.mark.asyncio
async def test_each_seat_is_offered_its_own_cards_and_anyone_who_cannot_order_one_sentence(
        rig: Rig, monkeypatch: pytest.MonkeyPatch) -> None:
    """bob holds Ghazi raid (1 area); alice's Parthians hold one area: one way, a lone choice."""
    gid, (_, bob) = await raid_game(rig, monkeypatch)
    out = await rig.run("/as bob orders")
    assert out.splitlines()[0].startswith(f"[to {bob}] {gid}: Your standing orders"), out
    assert out.splitlines()[1:] == ["  1. Arm Ghazi raid on the Parthians, disordering Tuscany"], out
    out = await rig.run("/as carol orders")
    assert out == "[carol] You are in no running game; create one or join one first.\n", out
    await rig.run(f"use {gid}")
    assert await rig.run("orders") == "[carol] You have no seat in this game.\n"
    await rig.run("/as alice pause")
    assert await rig.run("orders") == f"[alice] {gid} is paused: there are no orders to give.\n"


@pytest.mark.asyncio
async def test_a_game_without_standing_orders_says_so_in_one_sentence(rig: Rig) -> None:
    await rig.run("/as alice create toy-goofspiel", "add-ai", "start")
    out = await rig.run("orders")
    assert out == "[alice] Goofspiel (test game) has no standing orders: every move in it is made when the " \
                  "game asks for it.\n", out
