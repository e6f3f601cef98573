"""A person joining a game under way, through the service and the console (issue 18).

7 Ages takes newcomers (L337, its spec's ``joins_in_progress``); the tests open its lobby through the
service, with a seed, as the console's ``create`` does for any offered game. A game whose rules take
no newcomer keeps refusing once started, in one line.
"""

from __future__ import annotations

import io
from collections.abc import Awaitable
from pathlib import Path
from typing import cast

import pytest

from bot.clock import FakeClock
from bot.console import Console, user_id_for
from bot.models import NoticeKind, Outcome
from bot.notices import describe_notice
from bot.service import GameService, ServiceError
from bot.storage import open_store
from bot.store import Store
from engine import registry
from engine.core import JOIN, players_at_start, replay
from engine.registry import spec
from engine.seven_ages.actions import ChooseColours
from tests.test_seven_ages_seat_colours import GROUP_WORD

pytestmark = pytest.mark.asyncio
SEVEN = spec("seven-ages")
ALICE, BOB, CAROL = 1, 2, 3


def service(store: Store) -> GameService:
    return GameService(store, FakeClock(), seed_factory=lambda: 42, id_factory=lambda: "g1")


async def codes(coro: Awaitable[object]) -> str:
    with pytest.raises(ServiceError) as info:
        await coro
    assert "\n" not in info.value.message and info.value.message.strip()
    return info.value.code


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
        status = await svc.status(gid)
        assert status.waiting_for == (alice,)
        seat = next(s.seat for s in status.seats if s.user_id == alice)
        assert seat is not None
        await svc.submit(gid, alice, game.timeout_action(state, seat).to_json(), seq)


def lines(out: Outcome, names: tuple[str, ...]) -> list[str]:
    game = SEVEN.load()
    return [text for n in out.notices if n.is_public
            if (text := describe_notice(n, names, game, str)) is not None]


async def test_a_person_joins_a_running_game_is_named_and_kept_after_a_restart(store: Store,
                                                                              db_target: str) -> None:
    svc = service(store)
    gid = await seven_ages_in_play(svc)
    before = await svc.status(gid)
    out = await svc.join(gid, BOB, "bob")
    status = await svc.status(gid)
    # no colour is his yet (he chooses his counters next, L337): his seat's words name him, no colour
    assert status.seat_names == (*before.seat_names, "bob (Third seat)")
    assert status.seq == before.seq + 1
    assert lines(out, status.seat_names)[0].startswith("bob (Third seat) joins the game with 0 glory")
    # bob's hand and his first decision (his colours) go to him alone
    private = [n for n in out.notices if not n.is_public]
    assert any(n.event is not None and n.event.type == "cards_drawn_secret" and n.audience == (BOB,)
               for n in private)
    assert any(n.kind == NoticeKind.your_turn and n.audience == (BOB,) for n in private)
    assert all(n.audience == (BOB,) for n in private if n.event is not None)
    seq, decision = await svc.decision(gid, BOB)
    assert decision is not None and "choose your dedicated empire colours" in decision.heading
    chosen = decision.choices[0].action
    assert isinstance(chosen, ChooseColours)
    await svc.submit(gid, BOB, chosen.to_json(), seq)
    status = await svc.status(gid)  # from his choice on he goes by his counters' colour (L325-327)
    assert status.seat_names[-1] == f"bob ({GROUP_WORD[chosen.group]})"

    # the log replays to the same state, from the seed, through the join entry
    game = SEVEN.load()
    rows = await store.actions(gid)
    assert [r.action["kind"] for r in rows].count(JOIN) == 1
    seq, state = await svc.engine_state(gid)
    row = await store.get_game(gid)
    assert row is not None
    log = [r.action for r in rows]
    rebuilt = replay(game, players_at_start(3, log), row.options, row.seed, log)
    assert game.dumps(rebuilt) == game.dumps(state)
    assert await svc.verify_game(gid) == []
    assert (await svc.public_log(gid))[1]

    # a restart (the database opened anew, a new service) keeps bob in his seat
    reopened = cast(Store, await open_store(db_target))
    try:
        fresh = service(reopened)
        assert (await fresh.status(gid)).seat_names == status.seat_names
        fseq, fstate = await fresh.engine_state(gid)
        assert fseq == seq and game.dumps(fstate) == game.dumps(state)
        assert await fresh.verify_game(gid) == []
        await fresh.can_undo(gid, BOB)  # replays the whole log, join included: "corrupt" if it did not match
    finally:
        await reopened.close()


async def test_refusals_are_one_line_and_change_nothing(store: Store) -> None:
    svc = service(store)
    gid = (await svc.create_lobby(ALICE, "alice", SEVEN.id, seed=42)).game_id
    await svc.add_ai(gid, ALICE)
    await svc.start(gid, ALICE)
    seq = (await svc.status(gid)).seq
    assert await codes(svc.join(gid, BOB, "bob")) == "preparing"  # the bid is for those at the table
    assert await codes(svc.join(gid, ALICE, "alice")) == "already_seated"
    assert (await svc.status(gid)).seq == seq and len((await svc.status(gid)).seats) == 2

    # a game whose rules take no newcomer: refused as before, once started
    other = next(s for s in registry.specs(offered=True) if not s.joins_in_progress)
    svc2 = GameService(store, FakeClock(), seed_factory=lambda: 7, id_factory=lambda: "g2")
    gid2 = (await svc2.create_lobby(ALICE, "alice", other.id, seed=7)).game_id
    for _ in range(other.min_players - 1):
        await svc2.add_ai(gid2, ALICE)
    await svc2.start(gid2, ALICE)
    seq2 = (await svc2.status(gid2)).seq
    assert await codes(svc2.join(gid2, BOB, "bob")) == "not_in_lobby"
    assert (await svc2.status(gid2)).seq == seq2


async def test_the_console_join_seats_a_newcomer_in_a_running_game(store: Store, tmp_path: Path) -> None:
    svc = service(store)
    gid = await seven_ages_in_play(svc, user_id_for("alice"))
    out = io.StringIO()
    console = Console(svc, out, out_dir=tmp_path)
    assert await console.execute(f"/as bob join {gid}")
    printed = out.getvalue()
    assert "bob (Third seat) joins the game" in printed, printed
    assert "choose your dedicated empire colours" in printed  # his decision, at once
    assert (await svc.status(gid)).seat_names[-1] == "bob (Third seat)"
    assert await console.execute(f"join {gid}")
    assert "already have a seat" in out.getvalue()[len(printed):]
