"""A person removed from a running game may not join it again as a newcomer (issue 24, point 9).

7 Ages takes newcomers (its spec's ``joins_in_progress``), so someone kicked, resigned or replaced
could otherwise come straight back through ``join``. The record is the ``departures`` table, written
in the transaction of the seat change; a moderator handing the seat back clears it.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from bot.clock import FakeClock
from bot.console import Console, user_id_for
from bot.service import GameService, ServiceError
from bot.store import Store
from engine.registry import spec

pytestmark = pytest.mark.asyncio
SEVEN = spec("seven-ages")
ALICE, BOB, CAROL = 1, 2, 3
LEFT = "You left this game; only its creator or a server admin can give you a seat again."


def service(store: Store) -> GameService:
    return GameService(store, FakeClock(), seed_factory=lambda: 42, id_factory=lambda: "g1")


async def seven_ages_in_play(svc: GameService, alice: int = ALICE) -> str:
    """alice and an AI start a 7 Ages game; alice's skip moves take it through the preparation."""
    gid = (await svc.create_lobby(alice, "alice", SEVEN.id, seed=42)).game_id
    await svc.add_ai(gid, alice)
    await svc.start(gid, alice)
    game = SEVEN.load()
    while True:
        seq, state = await svc.engine_state(gid)
        if state.turn > 0:
            return gid
        seat = next(s.seat for s in (await svc.status(gid)).seats if s.user_id == alice)
        assert seat is not None
        await svc.submit(gid, alice, game.timeout_action(state, seat).to_json(), seq)


async def refused(svc: GameService, gid: str, user_id: int) -> ServiceError:
    """``user_id`` tries to join ``gid`` and is refused; nothing about the game changed."""
    before = await svc.status(gid)
    with pytest.raises(ServiceError) as info:
        await svc.join(gid, user_id, "again")
    after = await svc.status(gid)
    assert (after.seq, after.seat_names) == (before.seq, before.seat_names)
    return info.value


async def seat_of(svc: GameService, gid: str, user_id: int) -> int:
    seat = next(s.seat for s in (await svc.status(gid)).seats if s.user_id == user_id)
    assert seat is not None
    return seat


async def test_a_kicked_player_cannot_rejoin_until_the_creator_gives_the_seat_back(store: Store) -> None:
    svc = service(store)
    gid = await seven_ages_in_play(svc)
    await svc.join(gid, BOB, "bob")
    bob_seat = await seat_of(svc, gid, BOB)
    await svc.kick(gid, ALICE, BOB)
    error = await refused(svc, gid, BOB)
    assert (error.code, error.message) == ("departed", LEFT)
    # the record is in the database, not in this process's memory: a restarted service refuses too
    error = await refused(service(store), gid, BOB)
    assert error.message == LEFT

    await svc.replace_seat(gid, ALICE, bob_seat, new_user_id=BOB, new_name="bob")
    assert await store.departure(gid, BOB) is None
    assert await seat_of(svc, gid, BOB) == bob_seat
    # given back, bob is like anyone seated: a second join is "already seated", not "left"
    assert (await refused(svc, gid, BOB)).code == "already_seated"


async def test_a_resigned_player_cannot_rejoin(store: Store) -> None:
    svc = service(store)
    gid = await seven_ages_in_play(svc)
    await svc.join(gid, BOB, "bob")
    await svc.resign(gid, BOB)
    assert await store.departure(gid, BOB) == "resigned"
    assert (await refused(svc, gid, BOB)).message == LEFT
    # someone who never sat there still may
    await svc.join(gid, CAROL, "carol")


async def test_a_player_replaced_by_someone_else_cannot_rejoin(store: Store) -> None:
    svc = service(store)
    gid = await seven_ages_in_play(svc)
    await svc.join(gid, BOB, "bob")
    await svc.replace_seat(gid, ALICE, await seat_of(svc, gid, BOB), new_user_id=CAROL, new_name="carol")
    assert await store.departure(gid, BOB) == "replaced"
    assert (await refused(svc, gid, BOB)).message == LEFT


async def test_only_a_moderator_can_hand_a_seat_to_someone_who_left(store: Store) -> None:
    svc = service(store)
    gid = await seven_ages_in_play(svc)
    await svc.join(gid, BOB, "bob")
    await svc.join(gid, CAROL, "carol")
    await svc.kick(gid, ALICE, BOB)
    before = await svc.status(gid)
    with pytest.raises(ServiceError) as info:  # carol hands her own seat over: not a moderator's word
        await svc.replace_seat(gid, CAROL, await seat_of(svc, gid, CAROL), new_user_id=BOB, new_name="bob")
    assert info.value.code == "departed" and "\n" not in info.value.message
    assert (await svc.status(gid)).seat_names == before.seat_names
    assert await store.departure(gid, BOB) == "kicked"
    # a server admin may
    await svc.replace_seat(gid, CAROL, await seat_of(svc, gid, CAROL), new_user_id=BOB, new_name="bob",
                           is_admin=True)
    assert await store.departure(gid, BOB) is None
    assert await store.departure(gid, CAROL) == "replaced"


async def test_the_console_join_refuses_a_resigned_player_in_one_line(store: Store, tmp_path: Path) -> None:
    svc = service(store)
    gid = await seven_ages_in_play(svc, user_id_for("alice"))
    out = io.StringIO()
    console = Console(svc, out, out_dir=tmp_path)
    assert await console.execute(f"/as bob join {gid}")
    assert await console.execute("resign " + gid)
    start = len(out.getvalue())
    assert await console.execute(f"join {gid}")
    printed = out.getvalue()[start:].strip()
    assert printed.endswith(LEFT) and "\n" not in printed, printed
