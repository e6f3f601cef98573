"""The notice outbox: rows written with the change that caused them, the notice codec, routing,
the retry policy, and the console delivering inline."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

import tests.toy.spec  # noqa: F401  (registers the test-only game)
from bot.clock import FakeClock
from bot.console import Console
from bot.models import PUBLIC, Destination, GameChange, Notice, NoticeKind
from bot.outbox import (
    FIRST_DELAY,
    LONGEST_DELAY,
    decode_notice,
    encode_notice,
    item,
    message_nonce,
    new_nonce,
    retry_delay,
    route,
)
from bot.service import GameService
from bot.storage import GameStore, open_store
from bot.store import StoreConflict
from engine.core import Event

pytestmark = pytest.mark.asyncio
TOY = "toy-goofspiel"
ALICE, BOB = 1_000_001, 1_000_002


async def started(svc: GameService) -> str:
    gid = (await svc.create_lobby(ALICE, "alice", TOY, channel_id=5)).game_id
    await svc.join(gid, BOB, "bob")
    await svc.start(gid, ALICE)
    return gid


# == the codec and the routing (pure) ===========================================================
async def test_a_notice_survives_the_round_trip_through_json() -> None:
    notices = [
        Notice("g1", NoticeKind.your_turn, {"seat": 1, "due_at": 99}, (7,), 3),
        Notice("g1", NoticeKind.game_over, {"scores": [3, 4], "ranking": [1, 0]}, PUBLIC, 9),
        Notice("g1", None, {"card": 5}, (7, 8), 4, (0, 1), event=Event("drew", {"card": 5}, (0, 1))),
        Notice("g1", None, {"land": "Egypt"}, PUBLIC, 5, event=Event("expanded", {"land": "Egypt"})),
    ]
    assert [decode_notice("g1", encode_notice(n)) for n in notices] == notices


async def test_routing_gives_each_person_only_their_own_notices() -> None:
    """A hidden draw goes to its player alone; the late player hears of their timeout privately
    too; the public lines go to the game's thread in order; the pinned status once started."""
    drew = Notice("g1", None, {"card": 5}, (7,), 4, (0,), event=Event("drew", {"card": 5}, (0,)))
    late = Notice("g1", NoticeKind.timeout, {"user_id": 8, "seat": 1, "missed": 1}, PUBLIC, 4)
    told = Notice("g1", NoticeKind.your_turn, {"seat": 0}, (7,), 4)
    rows = route("g1", [drew, late, told], waiting=[7], started=True)
    by = {(r.kind, r.target): r for r in rows}
    assert set(by) == {("public", 0), ("dm", 7), ("dm", 8), ("status", 0)}
    assert [decode_notice("g1", n) for n in by[("dm", 7)].payload["notices"]] == [drew, told]
    assert [decode_notice("g1", n) for n in by[("dm", 8)].payload["notices"]] == [late]
    assert [decode_notice("g1", n) for n in by[("public", 0)].payload["notices"]] == [late]
    assert by[("public", 0)].payload["waiting"] == [7]
    assert len({r.nonce for r in rows}) == len(rows)
    assert all(r.kind != "status" for r in route("g1", [late]))  # a lobby has no pinned status


async def test_nonces_fit_discords_25_characters() -> None:
    assert all(len(message_nonce(f"{new_nonce()}-200", i)) <= 25 for i in range(10))


async def test_retries_double_from_two_seconds_to_five_minutes_and_wait_for_retry_after() -> None:
    assert [retry_delay(n) for n in (1, 2, 3)] == [FIRST_DELAY, 2 * FIRST_DELAY, 4 * FIRST_DELAY]
    assert retry_delay(30) == LONGEST_DELAY
    assert retry_delay(1, retry_after=42.5) == 42.5  # a 429 says how long: never sooner


# == the store ===================================================================================
async def test_rows_are_written_with_the_change_or_not_at_all(store: GameStore) -> None:
    svc = GameService(store, FakeClock(1_800_000_000), seed_factory=lambda: 42)
    gid = await started(svc)
    before = await store.outbox_rows()
    row = await store.get_game(gid)
    assert row is not None
    notice = item(gid, "public", 0, {"notices": []})
    stale = GameChange(gid, expected_seq=row.seq - 1, updated_at=1, new_seq=row.seq, outbox=[notice])
    with pytest.raises(StoreConflict):
        await store.apply_change(stale)
    assert await store.outbox_rows() == before  # the refused change wrote no notice either
    fresh = GameChange(gid, expected_seq=row.seq, updated_at=1, new_seq=row.seq, outbox=[notice])
    ids = await store.apply_change(fresh)
    assert [r.id for r in await store.outbox_rows(ids)] == ids == [before[-1].id + 1]


async def test_a_destination_is_served_in_order_with_retries_and_give_ups(store: GameStore) -> None:
    svc = GameService(store, FakeClock(1_800_000_000), seed_factory=lambda: 42)
    gid = await started(svc)
    dest = Destination("dm", ALICE)
    assert dest in await store.outbox_destinations()
    rows = await store.claim_due(dest)
    assert rows and [r.id for r in rows] == sorted(r.id for r in rows)
    await store.begin_attempt([rows[0].id])
    await store.retry_later([rows[0].id], "HTTP 500", next_try_ms=123)
    again = await store.claim_due(dest)
    assert (again[0].attempts, again[0].next_try_ms, again[0].last_error) == (1, 123, "HTTP 500")
    assert all(r.attempts == 0 for r in again[1:])  # only the batch tried counts a try
    await store.give_up([r.id for r in again], "HTTP 403", now=5)
    assert dest not in await store.outbox_destinations()
    public = Destination("public", 0, gid)
    await store.mark_delivered([r.id for r in await store.claim_due(public)], now=6)
    assert public not in await store.outbox_destinations()
    assert await store.claim_due(public) == []
    # pruning before 6 forgets Alice's rows given up at 5, keeps those delivered at 6 and the pending
    given_up = {r.id for r in again}
    everything = {r.id for r in await store.outbox_rows()}
    assert await store.prune_outbox(before=6) == len(given_up)
    assert {r.id for r in await store.outbox_rows()} == everything - given_up


async def test_a_batch_is_stored_before_its_first_try_and_kept_whatever_comes_after(store: GameStore) -> None:
    """Issue 24 (4): a person's rows of two games, batched per game; the batches are written down
    and read back as they were, a row written afterwards is in none, and forming batches again never
    moves a row out of the batch it is in."""
    svc = GameService(store, FakeClock(1_800_000_000), seed_factory=lambda: 42)
    one, two = await started(svc), await started(svc)
    dest = Destination("dm", ALICE)
    mine = await store.claim_due(dest)
    by_game = {g: [r.id for r in mine if r.game_id == g] for g in (one, two)}
    assert all(by_game.values()) and all(r.batch_id is None for r in mine)
    await store.form_batches([by_game[one], by_game[two]])
    later = await store.enqueue([item(one, "dm", ALICE, {"notices": []})], 7)
    await store.form_batches([[*by_game[one], *by_game[two]]])  # rows already in a batch keep it
    stored = {r.id: r.batch_id for r in await store.claim_due(dest)}
    assert stored == {**{i: min(by_game[one]) for i in by_game[one]},
                      **{i: min(by_game[two]) for i in by_game[two]}, later[0]: None}


async def test_a_dm_channel_is_remembered_until_discord_forgets_it(store: GameStore) -> None:
    assert await store.dm_channel(ALICE) is None
    await store.remember_dm_channel(ALICE, 555, 1)
    await store.remember_dm_channel(BOB, 666, 1)
    assert (await store.dm_channel(ALICE), await store.dm_channel(BOB)) == (555, 666)
    await store.remember_dm_channel(ALICE, 777, 2)  # opened anew
    await store.forget_dm_channel(ALICE, 555)  # an older channel: the newer one stays
    assert await store.dm_channel(ALICE) == 777
    await store.forget_dm_channel(ALICE, 777)
    assert (await store.dm_channel(ALICE), await store.dm_channel(BOB)) == (None, 666)


async def test_every_outcome_names_the_rows_that_tell_of_it(store: GameStore) -> None:
    svc = GameService(store, FakeClock(1_800_000_000), seed_factory=lambda: 42)
    gid = (await svc.create_lobby(ALICE, "alice", TOY, channel_id=5)).game_id
    joined = await svc.join(gid, BOB, "bob")
    rows = await store.outbox_rows(joined.outbox)
    assert [r.kind for r in rows] == ["public"]
    assert [decode_notice(gid, n).kind for n in rows[0].payload["notices"]] == [NoticeKind.player_joined]
    begun = await svc.start(gid, ALICE)
    kinds = {(r.kind, r.target) for r in await store.outbox_rows(begun.outbox)}
    assert kinds == {("public", 0), ("dm", ALICE), ("dm", BOB), ("status", 0)}


# == the console delivers inline ================================================================
async def test_the_console_prints_and_marks_its_rows_delivered(store: GameStore, tmp_path: Path) -> None:
    svc = GameService(store, FakeClock(1_800_000_000), seed_factory=lambda: 42)
    out = io.StringIO()
    console = Console(svc, out, out_dir=tmp_path)
    await console.execute("/as alice create toy-goofspiel")
    assert "opened a lobby" in out.getvalue()
    rows = await store.outbox_rows()
    assert rows and all(r.delivered_at is not None for r in rows)
    assert await store.outbox_destinations() == []


async def test_two_processes_never_split_a_destination(db_target: str) -> None:
    """Several processes on one database: the first to claim a destination holds it (its rows, in
    order) until its lease runs out; another process claims nothing there meanwhile, so each notice
    is sent by one process. With SQLite there is one writer process, and the second store is refused."""
    if not db_target.startswith("postgresql"):
        pytest.skip("a SQLite file has one writer process (tests/store/test_storage_faults.py)")
    one, two = await open_store(db_target), await open_store(db_target)
    try:
        svc = GameService(one, FakeClock(1_800_000_000), seed_factory=lambda: 42)
        gid = await started(svc)
        public = Destination("public", 0, gid)
        first = await one.claim_due(public)
        assert first and [r.id for r in first] == sorted(r.id for r in first)
        assert await two.claim_due(public) == []  # held by the first process
        assert [r.id for r in await one.claim_due(public)] == [r.id for r in first]  # its own, again
        await one.mark_delivered([r.id for r in first], now=1)
        assert await two.claim_due(public) == []  # nothing left to send
        dm = Destination("dm", ALICE)
        theirs = await two.claim_due(dm)  # a destination nobody holds: the second process takes it
        assert theirs and await one.claim_due(dm) == []
    finally:
        await one.close()
        await two.close()
